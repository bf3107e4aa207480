/* compare_rules.c — the good direction of each runs.csv metric and the order of statuses
 * and verdict words (fb_compare.h).  Tables, not code: a column or word added to the suite
 * is "changed" until it gets a line here. */
#define _POSIX_C_SOURCE 200809L
#include "fb_compare.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* Below this magnitude two values are equal: round-off, not a change. */
#define CMP_ABS_FLOOR 1e-12

typedef struct dir_rule {
  const char *name;
  fb_cmp_dir dir;
} dir_rule;

/* Exact column names.  Counts of events and switches, reference sizes and impact values
 * whose right answer is a target (restitution, penetration, contact duration) have no
 * direction: closeness to the reference, not size, is what is good there. */
static const dir_rule exact[] = {
    /* cost: evaluations, steps, time */
    {"nsteps", FB_CMP_LOWER}, {"nrejected", FB_CMP_LOWER}, {"nfe", FB_CMP_LOWER},
    {"njac", FB_CMP_LOWER}, {"ninner", FB_CMP_LOWER}, {"cpu_s", FB_CMP_LOWER},
    {"wall_s", FB_CMP_LOWER},
    /* stick fidelity: unmatched intervals are errors; held time is what a hold wants */
    {"missed", FB_CMP_LOWER}, {"spurious", FB_CMP_LOWER},
    {"stick_held", FB_CMP_HIGHER}, {"stick_flag_time", FB_CMP_HIGHER},
    {"t_reached", FB_CMP_HIGHER},
    /* hold, creep and drift (§10.1); creep_v is a signed slope */
    {"drift", FB_CMP_LOWER}, {"drift_per_cycle", FB_CMP_LOWER}, {"drift_rate", FB_CMP_LOWER},
    {"drift_growth", FB_CMP_LOWER}, {"hold_creep_v", FB_CMP_LOWER_ABS},
    {"hold_excess", FB_CMP_LOWER}, {"hold_slip_frac", FB_CMP_LOWER},
    {"hold_accum", FB_CMP_LOWER}, {"push_creep_v", FB_CMP_LOWER_ABS},
    /* stability (§10.2): the instability index is 1 at the bound */
    {"instability", FB_CMP_LOWER},
    /* energy created by the friction element */
    {"power_pos_count", FB_CMP_LOWER}, {"power_pos_max", FB_CMP_LOWER},
    {"energy_excess", FB_CMP_LOWER}, {"energy_excess_rel", FB_CMP_LOWER},
    {"power_excess_rel", FB_CMP_LOWER},
    /* leftover bouncing at rest; 2-D friction path and direction errors */
    {"rest_gap", FB_CMP_LOWER}, {"path_err_max", FB_CMP_LOWER},
    {"dir_err_max", FB_CMP_LOWER}, {"dir_err_rms", FB_CMP_LOWER},
};

fb_cmp_dir fb_cmp_direction(const char *c)
{
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (strcmp(c, exact[i].name) == 0)
      return exact[i].dir;
  /* the three errors (total, discretization, modelling) and every *_err (onset, impact
   * time, stop time...): some are signed, so the magnitude is rated */
  if (strncmp(c, "err_", 4) == 0 || strncmp(c, "disc_", 5) == 0 ||
      strncmp(c, "mod_", 4) == 0)
    return FB_CMP_LOWER_ABS;
  const size_t n = strlen(c);
  if (n > 4 && strcmp(c + n - 4, "_err") == 0)
    return FB_CMP_LOWER_ABS;
  if (strncmp(c, "chatter_", 8) == 0)
    return FB_CMP_LOWER;
  return FB_CMP_CHANGED;
}

int fb_cmp_status_rank(const char *s)
{
  static const char *const order[] = {"failed", "budget", "unstable", "suspect", "ok"};
  for (int i = 0; i < 5; i++)
    if (strcmp(s, order[i]) == 0)
      return i;
  return -1;
}

/* A verdict word and its rank under a property: the verdict is matched by prefix, the
 * longest first within a property (its numbers follow the word: "yes (worst 0.97)"). */
typedef struct word_rule {
  const char *property, *prefix;
  int rank;
} word_rule;

static const word_rule words[] = {
    {"stick", "yes", 4}, {"stick", "flag only", 3}, {"stick", "partly", 2}, {"stick", "no", 1},
    {"drift", "no", 2}, {"drift", "yes", 1},
    {"creep", "no", 2}, {"creep", "creeps", 1},
    {"chatter", "no", 2}, {"chatter", "yes", 1},
    {"energy", "dissipative", 2}, {"energy", "creates energy", 1},
    /* §10.1: shifts settles displaced without creeping, so it is above creeps */
    {"hold", "holds", 4}, {"hold", "shifts", 3}, {"hold", "creeps", 2}, {"hold", "slips", 1},
    {"hold", "accumulates", 1},
    {"rests", "rests", 2}, {"rests", "does not rest", 1},
    {"restitution", "as set", 2}, {"restitution", "off by", 1},
    {"no-sucking", "no sucking", 2}, {"no-sucking", "sucks", 1},
    {"direction", "right", 2}, {"direction", "off", 1},
    {"path", "follows", 2}, {"path", "departs", 1},
    /* early and late are both off: between them only "changed" */
    {"stop time", "on time", 3}, {"stop time", "late", 2}, {"stop time", "early", 2},
    {"stop time", "never", 1},
};

int fb_cmp_verdict_rank(const char *property, const char *verdict)
{
  if (strncmp(verdict, "unstable", 8) == 0)
    return 0;
  /* cost at matched accuracy: a ratio to the cheapest ("2.41x", rated by value) beats
   * "not reachable" */
  if (strncmp(property, "cost@", 5) == 0)
    return strncmp(verdict, "not reachable", 13) == 0 ? 1
           : isdigit((unsigned char)verdict[0])      ? 2
                                                     : -1;
  int best = -1;
  size_t len = 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    const size_t n = strlen(words[i].prefix);
    if (strcmp(property, words[i].property) == 0 && n > len &&
        strncmp(verdict, words[i].prefix, n) == 0) {
      best = words[i].rank;
      len = n;
    }
  }
  return best;
}

fb_cmp_dir fb_cmp_verdict_value_direction(const char *property)
{
  if (strncmp(property, "cost@", 5) == 0)
    return FB_CMP_LOWER; /* evaluations of the cheapest run reaching the accuracy */
  if (strcmp(property, "stable-step") == 0)
    return FB_CMP_HIGHER; /* the smallest largest stable h over scenarios (§10.2) */
  return FB_CMP_CHANGED;
}

int fb_cmp_beyond(fb_cmp_dir d, double a, double b, double rtol, int *worse)
{
  if (d == FB_CMP_LOWER_ABS) {
    a = fabs(a);
    b = fabs(b);
  }
  *worse = 0;
  const double lo = fmin(fabs(a), fabs(b)), hi = fmax(fabs(a), fabs(b));
  if (hi < CMP_ABS_FLOOR || !(fabs(b - a) > rtol * lo))
    return 0;
  if (d == FB_CMP_HIGHER)
    *worse = b < a;
  else if (d != FB_CMP_CHANGED)
    *worse = b > a;
  return 1;
}
