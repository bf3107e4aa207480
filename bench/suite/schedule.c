/* schedule.c — cost estimates, longest-first order and parts (fb_schedule.h). */
#include "fb_schedule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* RHS-equivalent evaluations per step of an integrator (rough, for ordering only). */
static double evals_per_step(const char *integ)
{
  static const struct {
    const char *name;
    double evals;
  } table[] = {
      {"rk2", 3},      {"rk4", 4},     {"rkf45", 6},   {"rkck", 6},     {"rk8pd", 13},
      {"rk1imp", 8},   {"rk2imp", 12}, {"rk4imp", 24}, {"bsimp", 60},   {"msadams", 3},
      {"msbdf", 4},    {"heun3", 3},   {"newmark", 4}, {"glowinski-lie", 10},
      {"glowinski-strang", 14},        {"event", 20},  {"paper", 4},    {"dop853", 12},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, integ) == 0)
      return table[i].evals;
  return 6;
}

double fb_sched_cost(const fb_case *cs, const fb_experiment *e, unsigned long max_rhs)
{
  const fb_plant *pl = &cs->sc.plant;
  const double span = pl->T - pl->t0;
  const double ev = evals_per_step(cs->integ->name);
  const double dim = (double)(2 * pl->n + pl->nc * cs->md.type->nz);
  double steps;
  if (!isnan(cs->opts.h)) {
    steps = span / cs->opts.h;
  } else {
    const double tol = cs->opts.atol > 0 ? cs->opts.atol : 1e-8;
    const double q = cs->integ->order >= 2 ? fmin((double)cs->integ->order, 5.0) : 3.0;
    const double fc = fmax(pl->f_c, 1.0 / span);
    const double hint = fb_model_suite_of(cs->md.type)->cost_hint;
    steps = span * fc * 20.0 * pow(tol, -1.0 / q) * (hint > 0 ? hint : 3.0);
  }
  double rhs = fmin(steps * ev, (double)max_rhs);
  if (!(rhs > 0))
    rhs = 1;
  double cost = rhs * (1.0 + 0.25 * dim);
  /* a bisection (bench/suite/bisect.c) runs at its lower step h once and at up to 6 steps
   * above it, which cost less the further they are: about twice the lower step's run when
   * it is not stable at 0.1 T */
  if (e->flags & FB_EXP_BISECT)
    cost *= 2.0;
  if (e->flags & FB_EXP_TRAJ) /* the trajectory file: ~1 us per number */
    cost += 40.0 * (double)cs->samples * (1.0 + dim + (double)pl->nc);
  return cost;
}

typedef struct keyed {
  double cost;
  size_t i;
} keyed;

static int by_cost_desc(const void *a, const void *b)
{
  const keyed *x = a, *y = b;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

size_t fb_sched_order(const double *cost, const unsigned char *keep, size_t n, size_t *idx)
{
  keyed *k = malloc((n ? n : 1) * sizeof *k);
  size_t m = 0;
  if (k == NULL) { /* no memory to sort: table order still runs everything */
    for (size_t i = 0; i < n; i++)
      if (keep == NULL || keep[i])
        idx[m++] = i;
    return m;
  }
  for (size_t i = 0; i < n; i++)
    if (keep == NULL || keep[i])
      k[m++] = (keyed){cost[i], i};
  qsort(k, m, sizeof *k, by_cost_desc);
  for (size_t j = 0; j < m; j++)
    idx[j] = k[j].i;
  free(k);
  return m;
}

void fb_sched_partition(const double *cost, size_t n, size_t nparts, size_t *part)
{
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  double *load = calloc(nparts ? nparts : 1, sizeof *load);
  if (order == NULL || load == NULL || nparts == 0) { /* round robin without memory */
    for (size_t g = 0; g < n; g++)
      part[g] = nparts ? g % nparts : 0;
    free(order);
    free(load);
    return;
  }
  const size_t m = fb_sched_order(cost, NULL, n, order);
  for (size_t j = 0; j < m; j++) {
    size_t best = 0;
    for (size_t p = 1; p < nparts; p++)
      if (load[p] < load[best])
        best = p;
    part[order[j]] = best;
    load[best] += cost[order[j]];
  }
  free(order);
  free(load);
}
