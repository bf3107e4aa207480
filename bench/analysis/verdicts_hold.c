/* verdicts_hold.c — the hold rule, the stable step and the cost per simulated second of
 * docs/design.md §10.1, 10.2 and 10.6 (fb_verdicts.h states them). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdicts_int.h"

/* A length or a speed in the unit an engineer reads it in: "3.1 µm", "4.2 mm/s". */
static void fmt_si(char *buf, size_t len, double x, const char *unit)
{
  const double a = fabs(x);
  const char *p = a >= 1 ? "" : a >= 1e-3 ? "m" : a >= 1e-6 ? "µ" : "n";
  const double f = a >= 1 ? 1 : a >= 1e-3 ? 1e3 : a >= 1e-6 ? 1e6 : 1e9;
  snprintf(buf, len, "%.3g %s%s", x * f, p, unit);
}

/* The largest fixed step at which (model, integrator, scenario) ran stably below the
 * smallest step at which it was unstable, over every fixed-step run of the suite (ladders,
 * fixed-step view, defaults); *h_unstable that smallest unstable step (NaN: none). */
/* The same treatment on the same scenario variant (its parameters, not its tag: the
 * fixed-step view, the drift group and the bisection name one variant differently). */
static int same_case(const vrun *a, const vrun *b)
{
  return streq(a->model, b->model) && streq(a->integrator, b->integrator) &&
         streq(a->scenario, b->scenario) && streq(a->sparams, b->sparams);
}

static double stable_max(const vrun *R, size_t n, const vrun *r, double *h_unstable)
{
  /* the bisection's answer when the suite ran it (group stable-step) */
  for (size_t k = 0; k < n; k++)
    if (R[k].bisect && same_case(&R[k], r)) {
      *h_unstable = R[k].sweep_value;
      return R[k].ok ? R[k].h : (double)NAN;
    }
  double hu = INFINITY, hs = NAN;
  for (size_t k = 0; k < n; k++)
    if (R[k].unstable && R[k].h > 0 && same_case(&R[k], r))
      hu = fmin(hu, R[k].h);
  for (size_t k = 0; k < n; k++)
    if (R[k].ok && R[k].h > 0 && R[k].h < hu && same_case(&R[k], r))
      hs = isnan(hs) ? R[k].h : fmax(hs, R[k].h);
  *h_unstable = isinf(hu) ? (double)NAN : hu;
  return hs;
}

/* "unstable at 0.001 s (stable <= 0.00025 s)" for an unstable run of a set. */
void vd_unstable_text(const vrun *R, size_t n, const vrun *r, char *buf, size_t len)
{
  double hu;
  const double hs = stable_max(R, n, r, &hu);
  if (isnan(hs))
    snprintf(buf, len, "unstable at %.3g s (no stable step seen)", r->h);
  else
    snprintf(buf, len, "unstable at %.3g s (stable <= %.3g s)", r->h, hs);
}

/* The hold class of one run (docs/design.md §10.1): 0 holds, 1 shifts, 2 creeps (or
 * accumulates, under an oscillating load), 3 slips; -1 not judged. */
static int hold_class(const vrun *r)
{
  if (!r->ok || !(r->stick_time_ref > 0) || isnan(r->excess) || !(r->L > 0))
    return -1;
  if (r->excess > 1e-2 * r->L || (r->slip_frac > 1e-2 && !isnan(r->slip_frac)))
    return 3;
  /* accumulation per cycle is the question of the oscillating sub-breakaway loads (the
   * drift scenario, docs/design.md §10.1); elsewhere the creep velocity answers it */
  const double acc = streq(r->scenario, "drift") ? r->accum : 0.0;
  if (fabs(r->creep_v) > 1e-6 * r->v_scale || acc > 1e-6 * r->L)
    return 2;
  return r->excess <= 1e-6 * r->L ? 0 : 1;
}

/* stable-step from the bisection rows of (model, integrator) (docs/design.md §10): the smallest
 * h_max over the scenarios where an unstable step was found (a scenario stable up to
 * 0.1 T bounds nothing), value2 the unstable step found there.  *found = 0 when the suite
 * ran no bisection for it (then the caller brackets from the fixed-step runs). */
static int stable_bisect(fb_vtable *v, const vrun *R, size_t nr, const vkey *k, int *found)
{
  static const char rule[] =
      "h_max per scenario by bisection (group stable-step: 8 runs, geometric, smallest "
      "ladder step to 0.1 T); value: the smallest h_max over scenarios with an unstable "
      "step; value2: that step (unstable: non-finite, E_disc > own reference's norm, or "
      "energy > 10x the reference's; or failed) (docs/design.md §10.2)";
  const vrun *at = NULL;
  double hmin = INFINITY, hall = INFINITY;
  char every[320] = "";
  *found = 0;
  for (size_t i = 0; i < nr; i++) {
    const vrun *r = &R[i];
    if (!r->bisect || !streq(r->model, k->model) || !streq(r->integrator, k->integrator))
      continue;
    *found = 1;
    vd_list_add(every, sizeof every, r->scenario);
    /* ok or suspect: the run at h_max finished stable; otherwise not even h_lo was */
    const int stable = r->ok || streq(r->status, "suspect");
    const double hmax = stable ? r->h : 0.0;
    hall = fmin(hall, hmax);
    if (!isnan(r->sweep_value) &&
        (at == NULL || hmax < hmin || (hmax == hmin && r->sweep_value < at->sweep_value))) {
      hmin = hmax;
      at = r;
    }
  }
  if (!*found)
    return FB_OK;
  if (at == NULL)
    return vd_add(v, k, "stable-step", hall, "s", NAN, rule, every,
               "stable up to 0.1 T on every scenario");
  char txt[96];
  if (hmin > 0) {
    snprintf(txt, sizeof txt, "stable <= %.3g s (unstable at %.3g s on %s)", hmin,
             at->sweep_value, at->scenario);
    if (strlen(txt) >= sizeof v->r->verdict) /* the scenarios column names it */
      snprintf(txt, sizeof txt, "stable <= %.3g s (unstable at %.3g s)", hmin, at->sweep_value);
  } else {
    snprintf(txt, sizeof txt, "%s at %.3g s on %s", at->unstable ? "unstable" : at->status,
             at->h, at->scenario);
    if (strlen(txt) >= sizeof v->r->verdict)
      snprintf(txt, sizeof txt, "%s at %.3g s: no stable step",
               at->unstable ? "unstable" : at->status, at->h);
  }
  return vd_add(v, k, "stable-step", hmin, "s", at->sweep_value, rule, at->scenario, "%s", txt);
}

/* The hold verdict's words for the worst run of class wc (hold_class). */
static void hold_text(const vrun *worst, int wc, char *txt, size_t len)
{
  char a[32], b[32];
  if (wc == 0)
    snprintf(txt, len, "holds");
  else if (wc == 1)
    fmt_si(a, sizeof a, worst->excess, "m"), snprintf(txt, len, "shifts %s", a);
  else if (wc == 2 && fabs(worst->creep_v) > 1e-6 * worst->v_scale)
    fmt_si(a, sizeof a, fabs(worst->creep_v), "m/s"), snprintf(txt, len, "creeps %s", a);
  else if (wc == 2)
    fmt_si(a, sizeof a, worst->accum, "m"), snprintf(txt, len, "accumulates %s/cycle", a);
  else if (worst->excess > 1e-2 * worst->L) {
    fmt_si(a, sizeof a, worst->excess, "m");
    const double pct = 100.0 * fmin(1.0, worst->excess / worst->L);
    snprintf(b, sizeof b, pct >= 10 ? "%.0f %%" : "%.2g %%", pct);
    snprintf(txt, len, "slips %s (%s of %s)", a, b,
             streq(worst->scenario, "preload-hold") ? "the preload lost" : "L");
  } else { /* slipping by the velocity test and its own flag more than 1 % of a hold */
    fmt_si(a, sizeof a, worst->excess, "m");
    const double pct = 100.0 * fmin(1.0, worst->slip_frac);
    snprintf(txt, len, pct >= 10 ? "slips %s (%.0f %% of the hold)"
                                        : "slips %s (%.2g %% of the hold)", a, pct);
  }
}

/* stable-step: the bisection's when the suite ran it, else the smallest over the set's
 * scenarios of the largest stable step among the fixed-step runs.  FB_OK or FB_ENOMEM. */
static int judge_stable_step(fb_vtable *v, const vrun *R, size_t nr, const vset *S,
                             const vkey *k, const char *scen)
{
  char where[400];
  int bis = 0;
  if (stable_bisect(v, R, nr, k, &bis) != FB_OK)
    return FB_ENOMEM;
  double hmin = INFINITY, hu_at = NAN;
  char at[96] = "";
  for (size_t i = 0; i < S->n; i++) {
    const vrun *r = &R[S->i[i]];
    double hu;
    const double hs = stable_max(R, nr, r, &hu);
    if (!isnan(hu) && (isnan(hs) || hs < hmin)) {
      hmin = isnan(hs) ? 0.0 : hs; /* 0: no stable step run */
      hu_at = hu;
      snprintf(at, sizeof at, "%s", r->scenario);
    }
  }
  if (bis) {
    ; /* judged above */
  } else if (!isnan(hu_at)) {
    snprintf(where, sizeof where, "%s", at);
    char sv[64]; /* the verdict column keeps 47 characters */
    if (hmin > 0)
      snprintf(sv, sizeof sv, "stable <= %g s (unstable at %g s)", hmin, hu_at);
    else
      snprintf(sv, sizeof sv, "none stable (unstable at %g s)", hu_at);
    if (vd_add(v, k, "stable-step", hmin, "s", hu_at,
            "largest fixed step run stably below the smallest unstable one, over the suite's "
            "fixed-step runs of each scenario (value; value2: that unstable step); unstable: "
            "non-finite, E_disc above the own reference's norm, or energy above 10x the "
            "reference's (docs/design.md §10.2)",
            where, "%s", sv) != FB_OK)
      return FB_ENOMEM;
  } else if (vd_add(v, k, "stable-step", k->h, "s", NAN,
                 "no run of this treatment was unstable at any fixed step the suite ran",
                 scen, "stable at every step run") != FB_OK) {
    return FB_ENOMEM;
  }
  return FB_OK;
}

/* cost at the judged step: evaluations per simulated second (deterministic, like every
 * verdict; the report puts the CPU time per simulated second beside it, from runs.csv). */
static int judge_cost(fb_vtable *v, const vrun *R, const vset *S, const vkey *k,
                      const char *scen)
{
  double nfe = 0, sim = 0;
  for (size_t i = 0; i < S->n; i++) {
    const vrun *r = &R[S->i[i]];
    if (r->ok && r->t_reached > 0 && !isnan(r->nfe)) {
      nfe += r->nfe;
      sim += r->t_reached;
    }
  }
  if (sim > 0 && vd_add(v, k, "cost/s", nfe / sim, "evals/s", NAN,
                     "RHS or force-law evaluations per simulated second, summed over the set's "
                     "ok runs (docs/design.md §10.6); the report adds the CPU time per simulated "
                     "second from runs.csv", scen, nfe / sim >= 100 ? "%.0f evals/s" : "%.3g evals/s",
                     nfe / sim) != FB_OK)
    return FB_ENOMEM;
  return FB_OK;
}

/* hold, creep (fixed-step view), stable-step and cost per simulated second of a set */
int vd_judge_hold(fb_vtable *v, const vrun *R, size_t nr, const vset *S, const vkey *k)
{
  char scen[320] = "", where[400], txt[96];
  const vrun *worst = NULL, *unst = NULL;
  int wc = -1;
  for (size_t i = 0; i < S->n; i++) {
    const vrun *r = &R[S->i[i]];
    if (r->unstable && unst == NULL)
      unst = r;
    const int c = hold_class(r);
    if (c < 0)
      continue;
    vd_list_add(scen, sizeof scen, r->scenario);
    if (c > wc || (c == wc && (c == 2 ? fabs(r->creep_v) > fabs(worst->creep_v)
                                      : r->excess > worst->excess))) {
      wc = c;
      worst = r;
    }
  }
  static const char rule[] =
      "over every reference stick interval: creep = slope of the contact's position over its "
      "second half (value, m/s), excess = displacement beyond the compliance bound |dF|/K_t "
      "(value2, m); holds: creep <= 1e-6 v_scale and excess <= 1e-6 L; slips: excess > 1% L "
      "or slipping > 1% of the time; creeps: creep (or accumulation per cycle) above; else "
      "shifts (docs/design.md §10.1)";
  if (unst != NULL) {
    vd_unstable_text(R, nr, unst, txt, sizeof txt);
    snprintf(where, sizeof where, "%s%s%s", unst->scenario, scen[0] ? "; judged on " : "", scen);
    if (vd_add(v, k, "hold", unst->h, "s", NAN, rule, where, "%s", txt) != FB_OK)
      return FB_ENOMEM;
  } else if (worst != NULL) {
    snprintf(where, sizeof where, "worst %s%s%s; %s", worst->scenario,
             worst->tag[0] ? "/" : "", worst->tag, scen);
    hold_text(worst, wc, txt, sizeof txt);
    if (vd_add(v, k, "hold", worst->creep_v, "m/s", worst->excess, rule, where, "%s", txt) != FB_OK)
      return FB_ENOMEM;
  }
  if (!streq(k->view, "fixed-step"))
    return FB_OK;
  /* discretization creep: a creep whose rate at h is >= 2x its rate at h/4 */
  double cr = NAN, co = NAN;
  for (size_t i = 0; i < S->n; i++) {
    const vrun *r = &R[S->i[i]], *p = NULL;
    if (hold_class(r) != 2 || (p = vd_partner(R, nr, r)) == NULL || !p->ok)
      continue;
    if (fabs(r->creep_v) >= 2 * fabs(p->creep_v) && (isnan(cr) || fabs(r->creep_v) > cr)) {
      cr = fabs(r->creep_v);
      co = fabs(p->creep_v) > 0 ? log(fabs(r->creep_v / p->creep_v)) / log(r->h / p->h) : (double)NAN;
    }
  }
  if (vd_add(v, k, "creep", cr, "m/s", co,
          "discretization creep: a creep velocity at h >= 2x the one at h/4; value2: its "
          "order in h", scen, isnan(cr) ? "no" : "creeps O(h^%.1f)", co) != FB_OK)
    return FB_ENOMEM;
  if (judge_stable_step(v, R, nr, S, k, scen) != FB_OK)
    return FB_ENOMEM;
  return judge_cost(v, R, S, k, scen);
}

