/* plan.c — plans (INI files read with libinih) and selections of an experiment table
 * (docs/design.md §11 "Plans"; the format is docs/plans.md).
 *
 * A plan has one section per experiment; its keys are the fields of fb_experiment.  A
 * section whose `model` is a list (or `*`, every model) stands for one experiment per
 * model.  Everything is checked while reading (names against the registries, numbers,
 * settings against the parameters they name), so a suite never starts on a plan it would
 * fail on.  Line numbers come from our own line reader (inih's handler gets none).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_integrator.h"
#include "fb_plan.h"
#include "fb_parse.h"
#include "fb_integrator_int.h"

#define PLAN_MAX_MODELS 128
#define PLAN_MAX_NAME 49 /* inih's INI_MAX_SECTION - 1 */
/* inih reads lines into INI_MAX_LINE (200) bytes and silently splits a longer one, whose
 * tail would then be read as a line of its own (a long tag= line could set model): our
 * reader (plan_fgets) hands it whole lines of at most 199 bytes, and refuses longer ones. */
/* A plan is a text file of a few MB at most (20k sections are ~2 MB); a bound stops a
 * device or a pipe that never ends (/dev/zero is refused at its first NUL anyway). */
#define PLAN_MAX_BYTES (32UL << 20)
#define PLAN_MAX_TAG 64 /* tags go into trajectory file names (NAME_MAX 255) */

/* ==== a set of strings (duplicate detection in linear time) ============================ */

/* Open addressing on FNV-1a: a 20k-section plan was checked pairwise (quadratic, 33 s). */
typedef struct strset {
  char **slot;
  size_t cap, n;
} strset;

static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static void strset_free(strset *set)
{
  for (size_t i = 0; i < set->cap; i++)
    free(set->slot[i]);
  free(set->slot);
  memset(set, 0, sizeof *set);
}

/* Add a copy of key: 1 added, 0 already there, -1 out of memory. */
static int strset_add(strset *set, const char *key)
{
  if (2 * (set->n + 1) > set->cap) { /* at most half full: short probes */
    strset big = {calloc(set->cap ? 2 * set->cap : 64, sizeof(char *)), 0, 0};
    if (big.slot == NULL)
      return -1;
    big.cap = set->cap ? 2 * set->cap : 64;
    for (size_t i = 0; i < set->cap; i++)
      if (set->slot[i] != NULL) {
        size_t k = str_hash(set->slot[i]) & (big.cap - 1);
        while (big.slot[k] != NULL)
          k = (k + 1) & (big.cap - 1);
        big.slot[k] = set->slot[i];
        big.n++;
      }
    free(set->slot);
    *set = big;
  }
  size_t k = str_hash(key) & (set->cap - 1);
  for (; set->slot[k] != NULL; k = (k + 1) & (set->cap - 1))
    if (strcmp(set->slot[k], key) == 0)
      return 0;
  if ((set->slot[k] = strdup(key)) == NULL)
    return -1;
  set->n++;
  return 1;
}

/* A new zeroed experiment at the end of t (NULL: out of memory). */
static fb_experiment *table_add(fb_table *t)
{
  if (t->n == t->cap) {
    const size_t cap = t->cap ? 2 * t->cap : 64;
    fb_experiment *e = realloc(t->e, cap * sizeof *e);
    if (e == NULL)
      return NULL;
    t->e = e;
    t->cap = cap;
  }
  fb_experiment *x = &t->e[t->n++];
  memset(x, 0, sizeof *x);
  x->tag = "";
  x->h = NAN;
  x->tol = NAN;
  return x;
}

/* The integrator an experiment runs: its own, else its model's default. */
static const char *exp_integrator(const fb_experiment *e)
{
  if (e->integrator != NULL)
    return e->integrator;
  const fb_model_type *m = fb_model_find(e->model);
  return m != NULL ? m->default_integrator : "";
}

int fb_table_check(const fb_table *t, fb_err *err)
{
  if (t->n == 0)
    return fb_err_set(err, FB_EINVAL, "the selection holds no experiment: widen the filters");
  strset seen = {0};
  int st = FB_OK;
  for (size_t i = 0; i < t->n && st == FB_OK; i++) {
    const fb_experiment *a = &t->e[i];
    char key[1024]; /* the fields that tell rows and trajectories apart; \x1f: no name has it */
    snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%s\x1f%s", a->group ? a->group : "",
             a->tag ? a->tag : "", a->scenario ? a->scenario : "", a->model ? a->model : "",
             exp_integrator(a));
    const int added = strset_add(&seen, key);
    if (added < 0)
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
    else if (added == 0)
      st = fb_err_set(err, FB_EINVAL,
                      "duplicate experiment: group %s, tag '%s', scenario %s, model %s, "
                      "integrator %s appears twice: give one of them another tag or group",
                      a->group, a->tag, a->scenario, a->model, exp_integrator(a));
  }
  strset_free(&seen);
  return st;
}

/* Where a NAME=VALUE setting fits the pair (scenario, model): 1 yes, 0 no, -1 ambiguous
 * (both have NAME and it has no scenario./model. prefix), as fb_case_set resolves it. */
int fb_set_fits(const char *set, const fb_scenario_type *s, const fb_model_type *m)
{
  const char *eq = strchr(set, '=');
  char name[128];
  const size_t len = eq != NULL ? (size_t)(eq - set) : 0;
  if (len == 0 || len >= sizeof name)
    return 0;
  memcpy(name, set, len);
  name[len] = '\0';
  if (strncmp(name, "scenario.", 9) == 0)
    return fb_params_find(s->params, name + 9) != NULL;
  if (strncmp(name, "model.", 6) == 0)
    return fb_params_find(m->params, name + 6) != NULL;
  /* a normal-contact treatment's parameter (docs/design.md §12): fits a scenario with a
   * `normal` choice; the treatment's own check comes when the case is prepared */
  if (strncmp(name, "normal.", 7) == 0)
    return fb_params_find(s->params, "normal") != NULL;
  const int in_s = fb_params_find(s->params, name) != NULL;
  const int in_m = fb_params_find(m->params, name) != NULL;
  return in_s && in_m ? -1 : in_s || in_m;
}

/* Check one setting's value on a trial case (fb_case_set's parser and ranges). */
static int set_try(const char *set, const char *scenario, const char *model, fb_err *err)
{
  fb_case c;
  int st = fb_case_init(&c, scenario, model, NULL, err);
  if (st != FB_OK)
    return st;
  st = fb_case_set(&c, set, err);
  fb_case_free(&c);
  return st;
}

/* Append a setting to an experiment (its sets are applied in order: the last one wins). */
static int exp_add_set(fb_experiment *e, const char *set, fb_err *err)
{
  size_t k = 0;
  while (k < FB_EXP_MAX_SETS && e->sets[k] != NULL)
    k++;
  if (k + 1 >= FB_EXP_MAX_SETS)
    return fb_err_set(err, FB_EINVAL, "setting '%s': experiment %s/%s/%s has %zu settings "
                      "already; allowed are at most %d", set, e->group, e->scenario, e->model,
                      k, FB_EXP_MAX_SETS - 1);
  e->sets[k] = set;
  return FB_OK;
}

/* ==== an experiment's cases ============================================================= */

int fb_experiment_case(fb_case *c, const fb_experiment *e, double value, size_t samples,
                       fb_err *err)
{
  int st = fb_case_init(c, e->scenario, e->model, e->integrator, err);
  for (size_t k = 0; st == FB_OK && k < FB_EXP_MAX_SETS && e->sets[k] != NULL; k++)
    st = fb_case_set(c, e->sets[k], err);
  if (st != FB_OK)
    return st;
  fb_int_opts *io = &c->opts;
  if (!isnan(e->h))
    io->h = e->h;
  if (!isnan(e->tol))
    io->atol = io->rtol = e->tol;
  if (e->sweep == FB_SWEEP_H) {
    io->h = value;
    io->atol = io->rtol = NAN;
  } else if (e->sweep == FB_SWEEP_TOL) {
    io->atol = io->rtol = value;
    io->h = NAN;
  } else if (e->sweep == FB_SWEEP_PARAM) {
    char a[128];
    snprintf(a, sizeof a, "%s=%.17g", e->sweep_param, value);
    st = fb_case_set(c, a, err);
  }
  c->samples = e->samples ? e->samples : samples;
  return st;
}

/* "experiment [NAME] (scenario S, model M, h = V)": which run of the table is at fault. */
static void exp_describe(const fb_experiment *e, double value, char *buf, size_t len)
{
  char what[160] = "";
  if (e->sweep != FB_SWEEP_NONE)
    snprintf(what, sizeof what, ", %s%s = %.15g",
             e->sweep == FB_SWEEP_H ? "h" : e->sweep == FB_SWEEP_TOL ? "tol" : "",
             e->sweep == FB_SWEEP_PARAM ? e->sweep_param : "", value);
  if (e->name != NULL)
    snprintf(buf, len, "experiment [%s] (scenario %s, model %s%s)", e->name, e->scenario,
             e->model, what);
  else
    snprintf(buf, len, "experiment of group %s%s%s (scenario %s, model %s%s)", e->group,
             e->tag[0] ? ", tag " : "", e->tag, e->scenario, e->model, what);
}

int fb_table_validate(const fb_table *t, size_t samples, fb_err *err)
{
  for (size_t i = 0; i < t->n; i++) {
    const fb_experiment *e = &t->e[i];
    const size_t nv = e->sweep == FB_SWEEP_NONE ? 1 : e->nvalues;
    for (size_t v = 0; v < nv; v++) {
      const double value = e->sweep == FB_SWEEP_NONE ? (double)NAN : e->values[v];
      fb_case c;
      fb_err e2 = {{0}};
      int st = fb_experiment_case(&c, e, value, samples, &e2);
      if (st == FB_OK)
        st = fb_case_prepare(&c, &e2);
      fb_case_free(&c);
      if (st != FB_OK) {
        char who[512];
        exp_describe(e, value, who, sizeof who);
        return fb_err_set(err, st == FB_ENOMEM ? FB_ENOMEM : FB_EINVAL, "%s: %s", who, e2.msg);
      }
    }
  }
  return FB_OK;
}

/* ==== reading a plan =================================================================== */

typedef struct plan_reader {
  fb_table *t;
  FILE *fp;
  const char *file;
  fb_err *err;
  int failed;
  unsigned line;        /* the line just read */
  unsigned header_line; /* the current section's [header] */
  int had_key;          /* the current section has a key */
  int new_header;       /* a [header] was read since the last key */
  /* the section being read */
  char name[256];
  unsigned sec_line;
  int in_section;
  const char *scenario, *integrator, *group, *tag, *sweep_param;
  const fb_model_type *models[PLAN_MAX_MODELS];
  size_t nmodels;
  int have_model;
  const char *sets[FB_EXP_MAX_SETS];
  size_t nsets;
  fb_sweep_kind sweep;
  int have_sweep, have_values;
  double values[FB_EXP_MAX_VALUES];
  size_t nvalues;
  double h, tol;
  unsigned flags;
  size_t samples;
  double traj_tail;
  long traj_dofs;
  unsigned keys; /* the keys the section has given (bits: key_bit), each at most once */
  strset names;  /* section names seen (duplicates are refused) */
  size_t bytes;  /* read so far (PLAN_MAX_BYTES) */
} plan_reader;

static int fail(plan_reader *r, unsigned line, const char *fmt, const char *a, const char *b)
{
  if (!r->failed) {
    char msg[4096];
    snprintf(msg, sizeof msg, fmt, a != NULL ? a : "", b != NULL ? b : "");
    fb_err_set(r->err, FB_EINVAL, "%s:%u: %s", r->file, line, msg);
  }
  r->failed = 1;
  return 0;
}

/* Read one whole line of r->fp into buf (size bytes) without its newline; the bytes it
 * has, or -1 at the end of the file.  *stored: how many fit (at most size - 1). */
static long read_line(plan_reader *r, char *buf, int size, size_t *stored)
{
  long n = 0;
  int c;
  *stored = 0;
  while ((c = getc(r->fp)) != EOF && c != '\n') {
    if (++r->bytes > PLAN_MAX_BYTES) {
      fail(r, r->line + 1, "the plan is longer than %s bytes: %s", "33554432",
           "a plan is a text file of experiments");
      return -1;
    }
    if (c == '\0') { /* inih would read the line up to it and drop the rest unseen */
      fail(r, r->line + 1, "NUL byte: a plan is text; allowed are printable characters%s%s",
           NULL, NULL);
      return -1;
    }
    if (*stored + 1 < (size_t)size)
      buf[(*stored)++] = (char)c;
    n++;
  }
  buf[*stored] = '\0';
  return n == 0 && c == EOF ? -1 : n;
}

/* inih's reader: whole lines (a longer one than inih's buffer is refused at its own line
 * number, a long comment is kept as a comment), lines counted, section headers noted.
 * NULL after a failure: inih stops at once. */
static char *plan_fgets(char *buf, int size, void *stream)
{
  plan_reader *r = stream;
  size_t stored;
  if (r->failed || size < 2)
    return NULL;
  const long n = read_line(r, buf, size, &stored);
  if (n < 0)
    return NULL;
  r->line++;
  const char *p = buf;
  while (isspace((unsigned char)*p))
    p++;
  if ((size_t)n > stored) {
    if (*p != ';' && *p != '#') {
      char len[32];
      snprintf(len, sizeof len, "%ld", n);
      fail(r, r->line, "line of %s bytes: allowed are at most %s bytes (a comment may be "
           "longer)", len, "199");
      return NULL;
    }
    buf[0] = ';'; /* only a comment's first bytes were kept: it stays a comment */
    buf[1] = '\0';
  }
  if (*p == '[') {
    if (r->header_line > 0 && !r->had_key)
      fail(r, r->header_line, "section has no keys: give at least scenario and model%s%s",
           NULL, NULL);
    r->header_line = r->line;
    r->had_key = 0;
    r->new_header = 1;
    const char *end = strchr(p, ']');
    if (end != NULL && end - p - 1 > PLAN_MAX_NAME)
      fail(r, r->line, "section name longer than %s characters: %s", "49", "shorten it");
  }
  return buf;
}

/* Split a list on commas and white space into tok (at most max); the count, or -1. */
static int split(char *text, char **tok, size_t max)
{
  size_t n = 0;
  for (char *p = strtok(text, ", \t"); p != NULL; p = strtok(NULL, ", \t")) {
    if (n == max)
      return -1;
    tok[n++] = p;
  }
  return (int)n;
}

/* The numbers of a plan are read as run reads its own (fb_parse_double_why: decimal only,
 * finite, no blanks, no underflow), so a plan cannot take what the command line refuses. */
static int parse_double(const char *s, double *out)
{
  return fb_parse_double_why(s, out) == NULL ? 0 : -1;
}

static void section_reset(plan_reader *r, const char *name)
{
  snprintf(r->name, sizeof r->name, "%s", name);
  r->sec_line = r->header_line;
  r->in_section = 1;
  r->scenario = r->integrator = r->sweep_param = NULL;
  r->group = "baseline";
  r->tag = "";
  r->nmodels = 0;
  r->have_model = 0;
  r->nsets = 0;
  memset(r->sets, 0, sizeof r->sets);
  r->sweep = FB_SWEEP_NONE;
  r->have_sweep = r->have_values = 0;
  r->nvalues = 0;
  r->h = r->tol = NAN;
  r->flags = 0;
  r->samples = 0;
  r->traj_tail = 0.0;
  r->traj_dofs = 0;
}

/* The section is complete: check what needs the whole of it, and add its experiments. */
static int section_end(plan_reader *r)
{
  if (!r->in_section || r->failed)
    return 0;
  r->in_section = 0;
  const unsigned L = r->sec_line;
  if (r->scenario == NULL)
    return fail(r, L, "section [%s] has no 'scenario' key: give a scenario name%s", r->name,
                      NULL);
  if (!r->have_model)
    return fail(r, L, "section [%s] has no 'model' key: give model names or *%s", r->name,
                      NULL);
  if (r->have_sweep != r->have_values)
    return fail(r, L, "section [%s]: 'sweep' and 'values' go together: %s", r->name,
                      r->have_sweep ? "give the values" : "give sweep = h, tol or param:NAME");
  /* one step mode per run: a second one would be silently ignored (job_setup takes the
   * sweep's, and h over tol) */
  char mode[64] = "";
  const char *swept = r->sweep == FB_SWEEP_H ? "h" : r->sweep == FB_SWEEP_TOL ? "tol" : NULL;
  if (!isnan(r->h) && !isnan(r->tol))
    snprintf(mode, sizeof mode, "'h' and 'tol' exclude each other");
  else if (swept != NULL && (!isnan(r->h) || !isnan(r->tol)))
    snprintf(mode, sizeof mode, "sweep = %s and '%s' exclude each other", swept,
             isnan(r->h) ? "tol" : "h");
  if (mode[0] != '\0')
    return fail(r, L, "section [%s]: %s: allowed is one of a fixed step, a tolerance or a "
                      "sweep of either", r->name, mode);
  /* the bisection runs between h and 0.1 (T - t0): one run, no ladder */
  if ((r->flags & FB_EXP_BISECT) &&
      (isnan(r->h) || r->sweep != FB_SWEEP_NONE || (r->flags & FB_EXP_TRAJ)))
    return fail(r, L, "section [%s]: bisect = yes needs 'h' (the smallest step probed), %s",
                      r->name, "no sweep and no traj (its probes keep no trajectory)");
  const fb_scenario_type *st = fb_scenario_find(r->scenario);
  const char *name = fb_table_strdup(r->t, r->name);
  for (size_t i = 0; i < r->nmodels && !r->failed; i++) {
    const fb_model_type *m = r->models[i];
    if (r->integrator != NULL && fb_integrator_find(m, r->integrator) == NULL) {
      char names[512];
      fb_names_integrators(m, names, sizeof names);
      char what[700];
      snprintf(what, sizeof what, "integrator '%s' does not suit model %s: allowed are %s",
               r->integrator, m->name, names);
      return fail(r, L, "section [%s]: %s", r->name, what);
    }
    for (size_t k = 0; k < r->nsets; k++) {
      const int f = fb_set_fits(r->sets[k], st, m);
      if (f != 1) {
        char what[400];
        snprintf(what, sizeof what, "set %s %s scenario %s with model %s", r->sets[k],
                 f < 0 ? "is ambiguous (write scenario.NAME or model.NAME) for"
                       : "names no parameter of",
                 st->name, m->name);
        return fail(r, L, "section [%s]: %s", r->name, what);
      }
      fb_err e2 = {{0}};
      if (set_try(r->sets[k], st->name, m->name, &e2) != FB_OK)
        return fail(r, L, "section [%s]: %s", r->name, e2.msg);
    }
    if (r->sweep == FB_SWEEP_PARAM) {
      char set[160];
      snprintf(set, sizeof set, "%s=0", r->sweep_param);
      if (fb_set_fits(set, st, m) != 1)
        return fail(r, L, "section [%s]: sweep param:%s names no parameter of the "
                          "scenario or model (see 'fricbench list')", r->name, r->sweep_param);
    }
    fb_experiment *x = table_add(r->t);
    if (x == NULL)
      return fail(r, L, "out of memory%s%s", NULL, NULL);
    x->name = name;
    x->group = r->group;
    x->tag = r->tag;
    x->scenario = st->name;
    x->model = m->name;
    x->integrator = r->integrator;
    memcpy(x->sets, r->sets, sizeof x->sets);
    x->sweep = r->sweep;
    x->sweep_param = r->sweep_param;
    x->nvalues = r->nvalues;
    memcpy(x->values, r->values, r->nvalues * sizeof *r->values);
    x->h = r->h;
    x->tol = r->tol;
    x->flags = r->flags;
    x->samples = r->samples;
    x->traj_tail = r->traj_tail;
    x->traj_dofs = r->traj_dofs;
  }
  return 1;
}

static int yesno(const char *v)
{
  if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on"))
    return 1;
  if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off"))
    return 0;
  return -1;
}

/* The plan's keys, in the order of the "unknown key" message; a key's bit in r->keys. */
static const char *const plan_keys[] = {"scenario", "model", "integrator", "set", "sweep",
                                        "values", "h", "tol", "traj", "traj_tail", "group",
                                        "tag", "quick", "samples", "bisect", "traj_dofs", NULL};

static int key_index(const char *key)
{
  for (int i = 0; plan_keys[i] != NULL; i++)
    if (strcmp(plan_keys[i], key) == 0)
      return i;
  return -1;
}

/* A tag or group goes into file names, CSV cells and legends: a name, never a path, a
 * CSV separator or a blank.  '=' is allowed too: the default table's tags say eps=0.1. */
static int name_ok(const char *v, size_t max)
{
  const size_t n = strlen(v);
  if (n == 0 || n > max || !isalnum((unsigned char)v[0]))
    return 0;
  for (size_t i = 1; i < n; i++)
    if (!isalnum((unsigned char)v[i]) && strchr("._=-", v[i]) == NULL)
      return 0;
  return 1;
}

/* The NAME of a NAME=VALUE setting is given at most once (a second one would silently win):
 * 1 when set's NAME is among sets[0..n). */
static int set_named(const char *const *sets, size_t n, const char *set)
{
  const size_t len = strcspn(set, "=");
  for (size_t i = 0; i < n; i++)
    if (strncmp(sets[i], set, len) == 0 && sets[i][len] == '=')
      return 1;
  return 0;
}

/* A new section starts with this key: end the previous one, refuse a repeated name. */
static int section_start(plan_reader *r, const char *section)
{
  r->new_header = 0;
  section_end(r);
  if (r->failed)
    return 0;
  const int added = strset_add(&r->names, section);
  if (added < 0)
    return fail(r, r->line, "out of memory%s%s", NULL, NULL);
  if (added == 0)
    return fail(r, r->header_line, "duplicate experiment name [%s]: section names must be "
                "unique%s", section, NULL);
  section_reset(r, section);
  r->keys = 0;
  return 1;
}

/* scenario, model, integrator, set, sweep: names. */
static int key_names(plan_reader *r, const char *key, const char *value, char *buf)
{
  const unsigned L = r->line;
  char *tok[PLAN_MAX_MODELS];
  if (!strcmp(key, "scenario")) {
    if (fb_scenario_find(value) == NULL) {
      char names[1024];
      fb_names_scenarios(names, sizeof names);
      return fail(r, L, "unknown scenario '%s': allowed are %s", value, names);
    }
    r->scenario = fb_table_strdup(r->t, value);
  } else if (!strcmp(key, "model")) {
    const int n = split(buf, tok, PLAN_MAX_MODELS);
    if (n <= 0)
      return fail(r, L, "key 'model' = '%s': give model names or *%s", value, NULL);
    r->nmodels = 0;
    for (int i = 0; i < n; i++) {
      if (!strcmp(tok[i], "*")) {
        for (size_t k = 0; r->nmodels < PLAN_MAX_MODELS && fb_model_at(k) != NULL; k++)
          r->models[r->nmodels++] = fb_model_at(k);
        continue;
      }
      const fb_model_type *m = fb_model_find(tok[i]);
      if (m == NULL) {
        char names[1024];
        fb_names_models(names, sizeof names);
        return fail(r, L, "unknown model '%s': allowed are %s or *", tok[i], names);
      }
      r->models[r->nmodels++] = m;
    }
    r->have_model = 1;
  } else if (!strcmp(key, "integrator")) {
    if (fb_integrator_find_any(value) == NULL)
      return fail(r, L, "unknown integrator '%s' (see 'fricbench list')%s", value, NULL);
    r->integrator = fb_table_strdup(r->t, value);
  } else if (!strcmp(key, "set")) {
    const int n = split(buf, tok, FB_EXP_MAX_SETS);
    if (n < 0 || (size_t)n + r->nsets >= FB_EXP_MAX_SETS)
      return fail(r, L, "key 'set': too many settings; allowed are at most 5 per experiment%s%s",
                  NULL, NULL);
    for (int i = 0; i < n; i++) {
      if (strchr(tok[i], '=') == NULL || tok[i][0] == '=')
        return fail(r, L, "key 'set': '%s' is not NAME=VALUE%s", tok[i], NULL);
      if (set_named(r->sets, r->nsets, tok[i]))
        return fail(r, L, "key 'set': '%s' sets a parameter a second time; allowed is one "
                    "setting per NAME%s", tok[i], NULL);
      r->sets[r->nsets++] = fb_table_strdup(r->t, tok[i]);
    }
  } else { /* sweep */
    r->have_sweep = 1;
    if (!strcmp(value, "h")) {
      r->sweep = FB_SWEEP_H;
    } else if (!strcmp(value, "tol")) {
      r->sweep = FB_SWEEP_TOL;
    } else if (!strncmp(value, "param:", 6) && value[6] != '\0') {
      r->sweep = FB_SWEEP_PARAM;
      r->sweep_param = fb_table_strdup(r->t, value + 6);
    } else {
      return fail(r, L, "key 'sweep' = '%s': allowed are h, tol or param:NAME%s", value, NULL);
    }
  }
  return 1;
}

/* values: a ladder of distinct numbers (a repeated one would run twice as two rows that
 * cannot be told apart). */
static int key_values(plan_reader *r, const char *value, char *buf)
{
  const unsigned L = r->line;
  char *tok[FB_EXP_MAX_VALUES];
  const int n = split(buf, tok, FB_EXP_MAX_VALUES);
  if (n <= 0)
    return fail(r, L, "key 'values' = '%s': give 1 to 12 numbers%s", value, NULL);
  for (int i = 0; i < n; i++) {
    if (parse_double(tok[i], &r->values[i]) != 0)
      return fail(r, L, "key 'values': '%s' is not a finite decimal number%s", tok[i], NULL);
    for (int j = 0; j < i; j++)
      if (r->values[j] == r->values[i])
        return fail(r, L, "key 'values': '%s' appears twice; allowed are distinct values "
                    "(each is one run)%s", tok[i], NULL);
  }
  r->nvalues = (size_t)n;
  r->have_values = 1;
  return 1;
}

/* h, tol, traj, quick, group, tag, samples, traj_tail, traj_dofs. */
static int key_other(plan_reader *r, const char *key, const char *value)
{
  const unsigned L = r->line;
  double v;
  if (!strcmp(key, "h") || !strcmp(key, "tol")) {
    if (parse_double(value, &v) != 0 || !(v > 0))
      return fail(r, L, "key '%s' = '%s': give a positive number", key, value);
    *(key[0] == 'h' ? &r->h : &r->tol) = v;
  } else if (!strcmp(key, "traj") || !strcmp(key, "quick") || !strcmp(key, "bisect")) {
    const int y = yesno(value);
    if (y < 0)
      return fail(r, L, "key '%s' = '%s': allowed are yes or no", key, value);
    const unsigned bit = key[0] == 't' ? FB_EXP_TRAJ : key[0] == 'q' ? FB_EXP_QUICK
                                                                      : FB_EXP_BISECT;
    r->flags = y ? r->flags | bit : r->flags & ~bit;
  } else if (!strcmp(key, "group") || !strcmp(key, "tag")) {
    if (!name_ok(value, PLAN_MAX_TAG))
      return fail(r, L, "key '%s' = '%s': allowed is a name of at most 64 characters "
                  "[A-Za-z0-9][A-Za-z0-9._=-]*", key, value);
    *(key[0] == 'g' ? &r->group : &r->tag) = fb_table_strdup(r->t, value);
  } else if (!strcmp(key, "samples")) {
    if (parse_double(value, &v) != 0 || v < 2 || v > FB_MAX_SAMPLES || v != floor(v))
      return fail(r, L, "key 'samples' = '%s': give an integer in [2, %s]", value, "2000001");
    r->samples = (size_t)v;
  } else if (!strcmp(key, "traj_dofs")) { /* fb_trace_write_csv_gz_dofs */
    if (parse_double(value, &v) != 0 || v != floor(v) || fabs(v) > 1e6)
      return fail(r, L, "key 'traj_dofs' = '%s': give an integer: the first (> 0) or last "
                  "(< 0) DOFs the trajectory files keep, 0 for all%s", value, "");
    r->traj_dofs = (long)v;
  } else { /* traj_tail */
    if (parse_double(value, &v) != 0 || !(v > 0 && v <= 1))
      return fail(r, L, "key 'traj_tail' = '%s': give the fraction of the span kept, in (0, 1]%s",
                  value, "");
    r->traj_tail = v == 1 ? 0.0 : v;
  }
  return 1;
}

static int plan_key(void *user, const char *section, const char *key, const char *value)
{
  plan_reader *r = user;
  if (r->failed)
    return 0;
  const unsigned L = r->line;
  r->had_key = 1;
  if (section[0] == '\0')
    return fail(r, L, "key '%s' outside a section: start an experiment with [NAME]%s", key, NULL);
  if ((!r->in_section || r->new_header || strcmp(section, r->name) != 0) &&
      !section_start(r, section))
    return 0;
  const int k = key_index(key);
  if (k < 0)
    return fail(r, L, "unknown key '%s': allowed are scenario, model, integrator, set, sweep, "
                "values, h, tol, traj, traj_tail, traj_dofs, group, tag, quick, samples%s", key,
                NULL);
  /* a second line of a key (or an indented line, which inih reads as its continuation)
   * would silently replace or extend the first */
  if (r->keys & (1u << k))
    return fail(r, L, "key '%s' given twice in section [%s]: allowed is once per section",
                key, r->name);
  r->keys |= 1u << k;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", value);
  int ok;
  if (k <= 4)
    ok = key_names(r, key, value, buf);
  else if (!strcmp(key, "values"))
    ok = key_values(r, value, buf);
  else
    ok = key_other(r, key, value);
  if (ok && (r->group == NULL || r->tag == NULL))
    return fail(r, L, "out of memory%s%s", NULL, NULL);
  return ok;
}

int fb_plan_load(fb_table *t, const char *file, fb_err *err)
{
  memset(t, 0, sizeof *t);
  plan_reader *r = calloc(1, sizeof *r);
  if (r == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  r->t = t;
  r->file = file;
  r->err = err;
  r->fp = fopen(file, "r");
  if (r->fp == NULL) {
    fb_err_set(err, FB_EINVAL, "plan '%s' cannot be read: %s", file, strerror(errno));
    free(r);
    return FB_EINVAL;
  }
  const int rc = ini_parse_stream(plan_fgets, r, plan_key, r);
  if (!r->failed && rc != 0)
    fail(r, rc > 0 ? (unsigned)rc : r->line, "not an INI line: give [NAME] or KEY = VALUE%s%s",
         NULL, NULL);
  if (!r->failed && r->header_line > 0 && !r->had_key)
    fail(r, r->header_line, "section has no keys: give at least scenario and model%s%s", NULL,
         NULL);
  section_end(r);
  fclose(r->fp);
  int st = r->failed ? FB_EINVAL : FB_OK;
  if (st == FB_OK && t->n == 0)
    st = fb_err_set(err, FB_EINVAL, "%s: the plan holds no experiment", file);
  if (st == FB_OK && fb_table_check(t, err) != FB_OK) {
    char m[sizeof err->msg];
    snprintf(m, sizeof m, "%s", err->msg);
    st = fb_err_set(err, FB_EINVAL, "%s: %s", file, m);
  }
  strset_free(&r->names);
  free(r);
  if (st != FB_OK)
    fb_table_free(t);
  return st;
}

/* ==== printing a table as a plan ========================================================= */

/* The shortest of %.15g..%.17g that reads back to the same double. */
static const char *num(double v, char *buf, size_t len)
{
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, len, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  return buf;
}

static void print_list(FILE *fp, const double *v, size_t n)
{
  char b[40];
  for (size_t i = 0; i < n; i++)
    fprintf(fp, "%s%s", i ? ", " : "", num(v[i], b, sizeof b));
}

int fb_plan_print(const fb_table *t, FILE *fp)
{
  fputs("; fricbench plan (docs/plans.md): one section per experiment\n", fp);
  for (size_t i = 0; i < t->n; i++) {
    const fb_experiment *e = &t->e[i];
    char b[40];
    fprintf(fp, "\n[%s %zu]\n", e->group, i + 1); /* inih keeps 49 characters of a name */
    fprintf(fp, "group = %s\n", e->group);
    if (e->tag[0])
      fprintf(fp, "tag = %s\n", e->tag);
    fprintf(fp, "scenario = %s\nmodel = %s\n", e->scenario, e->model);
    if (e->integrator != NULL)
      fprintf(fp, "integrator = %s\n", e->integrator);
    for (size_t k = 0; k < FB_EXP_MAX_SETS && e->sets[k] != NULL; k++)
      fprintf(fp, "%s%s", k ? ", " : "set = ", e->sets[k]);
    if (e->sets[0] != NULL)
      fputc('\n', fp);
    if (e->sweep != FB_SWEEP_NONE) {
      fprintf(fp, "sweep = %s%s\nvalues = ",
              e->sweep == FB_SWEEP_H ? "h" : e->sweep == FB_SWEEP_TOL ? "tol" : "param:",
              e->sweep == FB_SWEEP_PARAM ? e->sweep_param : "");
      print_list(fp, e->values, e->nvalues);
      fputc('\n', fp);
    }
    if (!isnan(e->h))
      fprintf(fp, "h = %s\n", num(e->h, b, sizeof b));
    if (!isnan(e->tol))
      fprintf(fp, "tol = %s\n", num(e->tol, b, sizeof b));
    fprintf(fp, "traj = %s\nquick = %s\n", e->flags & FB_EXP_TRAJ ? "yes" : "no",
            e->flags & FB_EXP_QUICK ? "yes" : "no");
    if (e->flags & FB_EXP_BISECT)
      fprintf(fp, "bisect = yes\n");
    if (e->samples)
      fprintf(fp, "samples = %zu\n", e->samples);
    if (e->traj_tail > 0)
      fprintf(fp, "traj_tail = %s\n", num(e->traj_tail, b, sizeof b));
    if (e->traj_dofs != 0)
      fprintf(fp, "traj_dofs = %ld\n", e->traj_dofs);
  }
  return ferror(fp) ? FB_EIO : FB_OK;
}

/* ==== selections ========================================================================= */

void fb_select_init(fb_select *s)
{
  memset(s, 0, sizeof *s);
  s->h = NAN;
  s->tol = NAN;
}


static int check_names(const fb_select *s, fb_err *err)
{
  char names[1024];
  for (size_t i = 0; i < s->nscenarios; i++)
    if (fb_scenario_find(s->scenarios[i]) == NULL) {
      fb_names_scenarios(names, sizeof names);
      return fb_err_set(err, FB_EINVAL, "--scenario '%s': unknown scenario: allowed are %s",
                        s->scenarios[i], names);
    }
  for (size_t i = 0; i < s->nmodels; i++)
    if (fb_model_find(s->models[i]) == NULL) {
      fb_names_models(names, sizeof names);
      return fb_err_set(err, FB_EINVAL, "--model '%s': unknown model: allowed are %s",
                        s->models[i], names);
    }
  for (size_t i = 0; i < s->nintegrators; i++)
    if (fb_integrator_find_any(s->integrators[i]) == NULL)
      return fb_err_set(err, FB_EINVAL, "--integrator '%s': unknown integrator (see "
                        "'fricbench list')", s->integrators[i]);
  if (!isnan(s->h) && !(s->h > 0 && isfinite(s->h)))
    return fb_err_set(err, FB_EINVAL, "--h %g: give a positive step in s", s->h);
  if (!isnan(s->tol) && !(s->tol > 0 && s->tol < 1))
    return fb_err_set(err, FB_EINVAL, "--tol %g: give a tolerance in (0, 1)", s->tol);
  return FB_OK;
}

static int listed(const char *const *names, size_t n, const char *name)
{
  if (n == 0)
    return 1;
  for (size_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return 1;
  return 0;
}

/* --h H: the fixed-step group becomes every (scenario, model) pair of the table at
 * {H, H/4} with the model's fixed-step integrator (the finer step classifies chatter and
 * gives a creep order, as the default view's two steps do).  The scenarios: those named by
 * --scenario, else those of the table's own fixed-step view (chosen for spans that a fixed
 * step can cover), else every scenario of the table. */
static int in_fixed_view(const fb_table *t, size_t n, const char *scenario)
{
  for (size_t j = 0; j < n; j++)
    if (strcmp(t->e[j].group, "fixed-step") == 0 && strcmp(t->e[j].scenario, scenario) == 0)
      return 1;
  return 0;
}

static int fixed_view(fb_table *t, const fb_select *s, fb_err *err)
{
  const double H = s->h;
  int had_view = 0;
  for (size_t i = 0; i < t->n && !had_view; i++)
    had_view = strcmp(t->e[i].group, "fixed-step") == 0;
  /* which scenarios: decided on the table as it was */
  unsigned char *keep = calloc(t->n + 1, 1);
  if (keep == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t i = 0; i < t->n; i++)
    keep[i] = s->nscenarios > 0 ? (unsigned char)listed(s->scenarios, s->nscenarios,
                                                        t->e[i].scenario)
              : had_view        ? (unsigned char)in_fixed_view(t, t->n, t->e[i].scenario)
                                : 1;
  size_t w = 0;
  for (size_t i = 0; i < t->n; i++) /* drop the table's own fixed-step view */
    if (strcmp(t->e[i].group, "fixed-step") != 0) {
      keep[w] = keep[i];
      t->e[w++] = t->e[i];
    }
  const size_t n0 = w;
  t->n = w;
  for (size_t i = 0; i < n0; i++) {
    if (!keep[i])
      continue;
    const char *sc = t->e[i].scenario, *mo = t->e[i].model;
    int added = 0;
    for (size_t j = n0; j < t->n && !added; j++)
      added = strcmp(t->e[j].scenario, sc) == 0 && strcmp(t->e[j].model, mo) == 0;
    if (added)
      continue;
    const fb_model_type *m = fb_model_find(mo);
    const char *fi = m != NULL ? fb_model_fixed_step_integrator_on(m, fb_scenario_find(sc)) : NULL;
    if (fi != NULL && *fi == '\0')
      continue; /* no 2-D form: the default view leaves the pair out too */
    fb_experiment *x = table_add(t);
    if (x == NULL || m == NULL) {
      free(keep);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    const fb_experiment *src = &t->e[i]; /* after table_add: t->e may have moved */
    x->group = "fixed-step";
    x->scenario = src->scenario;
    x->model = src->model;
    x->integrator = fi;
    x->sweep = FB_SWEEP_H;
    x->values[0] = H;
    x->values[1] = H / 4;
    x->nvalues = 2;
    x->flags = FB_EXP_QUICK | FB_EXP_TRAJ;
  }
  free(keep);
  return FB_OK;
}

int fb_table_select(fb_table *t, const fb_select *s, fb_err *err)
{
  int st = check_names(s, err);
  if (st == FB_OK && !isnan(s->h))
    st = fixed_view(t, s, err);
  if (st != FB_OK)
    return st;
  size_t w = 0;
  for (size_t i = 0; i < t->n; i++) {
    const fb_experiment *e = &t->e[i];
    if (listed(s->scenarios, s->nscenarios, e->scenario) &&
        listed(s->models, s->nmodels, e->model) &&
        listed(s->integrators, s->nintegrators, exp_integrator(e)))
      t->e[w++] = *e;
  }
  t->n = w;
  if (t->n == 0)
    return fb_err_set(err, FB_EINVAL, "the filters (--scenario, --model, --integrator) select "
                      "no experiment: see 'fricbench suite --print-plan' for the table");
  for (size_t k = 0; k < s->nsets; k++) {
    if (set_named(s->sets, k, s->sets[k])) /* the second would silently win */
      return fb_err_set(err, FB_EINVAL, "--set %s: the parameter is set twice; allowed is one "
                        "--set per NAME", s->sets[k]);
    size_t fits = 0;
    for (size_t i = 0; i < t->n; i++) {
      fb_experiment *e = &t->e[i];
      const int f = fb_set_fits(s->sets[k], fb_scenario_find(e->scenario), fb_model_find(e->model));
      if (f < 0)
        return fb_err_set(err, FB_EINVAL, "--set %s is ambiguous for scenario %s with model "
                          "%s: write scenario.NAME or model.NAME", s->sets[k], e->scenario,
                          e->model);
      if (f == 0)
        continue;
      if (fits++ == 0 && (st = set_try(s->sets[k], e->scenario, e->model, err)) != FB_OK)
        return st;
      if ((st = exp_add_set(e, s->sets[k], err)) != FB_OK)
        return st;
    }
    if (fits == 0)
      return fb_err_set(err, FB_EINVAL, "--set %s fits no selected experiment: no selected "
                        "scenario or model has that parameter (see 'fricbench list')",
                        s->sets[k]);
  }
  if (!isnan(s->tol))
    for (size_t i = 0; i < t->n; i++) {
      fb_experiment *e = &t->e[i];
      const fb_integrator_type *it = fb_integrator_find(fb_model_find(e->model),
                                                        exp_integrator(e));
      if (e->sweep != FB_SWEEP_H && e->sweep != FB_SWEEP_TOL && isnan(e->h) && it != NULL &&
          it->adaptive_ok)
        e->tol = s->tol;
    }
  return fb_table_check(t, err);
}
