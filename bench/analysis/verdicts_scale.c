/* verdicts_scale.c — the cost against the number of DOFs n (group `scale`): the chain's n
 * blocks (docs/scenarios/chain.md "Cost against n") and the elastic frame's 6 ne DOFs
 * (docs/scenarios/elastic-frame.md "Store"): per treatment (tag), the growth exponent of its
 * work per step between the two largest n.  Like every other verdict it is decided on deterministic counts of the
 * runs (runs.csv nfe, ninner, nsteps) and the plant's size, never on timings, so that two
 * suites, or a resumed suite and an uninterrupted one, give the same rows; the measured
 * CPU-time exponent is a timing, shown beside the verdict by the report (scale_cost). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdicts_int.h"

/* linear in n when the exponent is at most this */
#define SCALE_LINEAR_EXP 1.1
/* the chain's store=auto: dense up to this n (scenarios/chain.c FB_CHAIN_DENSE_MAX) */
#define SCALE_DENSE_MAX 64.0
/* the banded chain's half-bandwidth (K tridiagonal) */
#define SCALE_CHAIN_BW 1.0
/* the frame's store (scenarios/elastic_frame.c): banded above 64 elements per member, above
 * 10 under moreau-jean, with half-bandwidth 5 */
#define SCALE_FRAME_DENSE_MAX_NE 64.0
#define SCALE_FRAME_MJ_DENSE_MAX_NE 10.0
#define SCALE_FRAME_BW 5.0

/* Is "<name>=<want>" among runs.csv's scenario_params ("n=100;...;store=banded")? */
static int param_is(const char *list, const char *name, const char *want)
{
  const size_t ln = strlen(name), lw = strlen(want);
  for (const char *p = list; p != NULL && *p;) {
    if (strncmp(p, name, ln) == 0 && p[ln] == '=')
      return strncmp(p + ln + 1, want, lw) == 0 &&
             (p[ln + 1 + lw] == ';' || p[ln + 1 + lw] == '\0');
    p = strchr(p, ';');
    if (p != NULL)
      p++;
  }
  return 0;
}

double fb_scale_dofs(const char *scenario, double sweep_value)
{
  return scenario != NULL && strcmp(scenario, "elastic-frame") == 0 ? 6.0 * sweep_value
                                                                    : sweep_value;
}

/* Work units of one evaluation (RHS, force law) or one inner sweep of a plant of n DOFs: the
 * entries of one plant matrix it touches plus the contacts, (bw + 1) n + n in the band store,
 * n^2 + n in the dense one.  The chain (sweep value n): store=auto is dense for n <= 64; the
 * frame (sweep value ne, n = 6 ne): its store follows ne and the normal treatment. */
double vd_scale_unit(const char *scenario, const char *sparams, double sweep_value)
{
  const double n = fb_scale_dofs(scenario, sweep_value);
  int dense;
  double bw = SCALE_CHAIN_BW;
  if (scenario != NULL && strcmp(scenario, "elastic-frame") == 0) {
    const double lim = param_is(sparams, "normal", "moreau-jean") ? SCALE_FRAME_MJ_DENSE_MAX_NE
                                                                   : SCALE_FRAME_DENSE_MAX_NE;
    dense = sweep_value <= lim;
    bw = SCALE_FRAME_BW;
  } else {
    dense = param_is(sparams, "store", "dense") ||
            (!param_is(sparams, "store", "banded") && n <= SCALE_DENSE_MAX);
  }
  return dense ? n * n + n : (bw + 1.0) * n + n;
}

/* Work units per step of a run: (nfe + ninner) / nsteps evaluations and sweeps, each of
 * vd_scale_unit; NaN when a count is missing. */
double vd_scale_work(const vrun *r)
{
  const double inner = isnan(r->ninner) ? 0.0 : r->ninner;
  if (!(r->nsteps > 0) || isnan(r->nfe))
    return NAN;
  return (r->nfe + inner) / r->nsteps * vd_scale_unit(r->scenario, r->sparams, r->sweep_value);
}

int vd_judge_scale(fb_vtable *v, const vrun *R, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    if (!streq(R[k].group, "scale"))
      continue;
    int first = 1;
    for (size_t j = 0; j < k && first; j++)
      first = !(streq(R[j].group, "scale") && streq(R[j].tag, R[k].tag));
    if (!first)
      continue;
    const vrun *hi = NULL, *lo = NULL; /* the largest n and the next one */
    for (size_t j = k; j < n; j++) {
      const vrun *r = &R[j];
      if (!streq(r->group, "scale") || !streq(r->tag, R[k].tag) || !r->ok ||
          isnan(vd_scale_work(r)))
        continue;
      if (hi == NULL || r->sweep_value > hi->sweep_value) {
        lo = hi;
        hi = r;
      } else if (lo == NULL || r->sweep_value > lo->sweep_value) {
        lo = r;
      }
    }
    if (hi == NULL || lo == NULL)
      continue;
    const double whi = vd_scale_work(hi);
    const double nlo = fb_scale_dofs(lo->scenario, lo->sweep_value);
    const double nhi = fb_scale_dofs(hi->scenario, hi->sweep_value);
    const double e = log(whi / vd_scale_work(lo)) / log(nhi / nlo);
    const int chain = streq(hi->scenario, "chain");
    char where[96];
    snprintf(where, sizeof where, "%s, n = %.0f to %.0f%s", hi->scenario, nlo, nhi,
             chain ? "" : " DOFs");
    /* the frame's rows all run under `contact`: their treatment (tag) goes in the key */
    vkey key = {hi->model, hi->integrator, "scale", "", hi->h};
    if (chain && isnan(hi->h)) /* an adaptive treatment (cvode-bdf): its tolerance */
      snprintf(key.step, sizeof key.step, "tol=%g", hi->atol);
    else if (chain)
      snprintf(key.step, sizeof key.step, "h=%g", hi->h);
    else
      snprintf(key.step, sizeof key.step, "h=%g, %s", hi->h, hi->tag);
    const int linear = e <= SCALE_LINEAR_EXP;
    if (vd_add(v, &key, "cost-growth", e, "1", whi,
               "exponent log(w2/w1)/log(n2/n1) of the work per step w between the two largest "
               "n of group scale, w = (nfe + ninner)/nsteps x (entries of a plant matrix + "
               "contacts: (bw + 2) n banded, n^2 + n dense); linear when <= 1.1; value2: w at the "
               "largest n. Counts, not timings: the report adds the CPU-time exponent",
               where, "work/step ~ n^%.2f (%s: %s 1.1)", e, linear ? "linear" : "not linear",
               linear ? "<=" : ">") != FB_OK)
      return FB_ENOMEM;
  }
  return FB_OK;
}
