/* bench_chain.c — `fricbench bench --chain` (and the end of `fricbench bench`): the chain's
 * cost per step against its number of blocks n = 10, 100, 1000, 10000, measured in one run
 * for every treatment that runs a banded plant (docs/scenarios/chain.md, "Cost against n").
 *
 * Each (treatment, n) is prepared once (store=banded, T = steps h), then run `repeats` + 1
 * times; the first run warms up and is not counted, the cost is the median of the others'
 * integration CPU time (fb_run_result.cpu_s: the thread's CPU seconds inside the stepper,
 * set-up and output excluded) over the steps.  Small n repeat the run until the work
 * reaches that of n = 10000 so that the clock's resolution does not count.  The growth
 * exponent between two n is log(c2/c1)/log(n2/n1): 1 is linear time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_cli.h"
#include "fb_run.h"
#include "fb_integrator_int.h"
#include "fb_metrics.h"
#include "fb_model_registry.h"

#define CHAIN_NN 4
static const double chain_n[CHAIN_NN] = {10, 100, 1000, 10000};

typedef struct chain_treatment {
  const char *model, *integ;
  double h;   /* step (s): the regularized ODE needs its small one; adaptive: the largest */
  double tol; /* adaptive (NaN: fixed step h) */
} chain_treatment;

/* cvode-bdf (a build with SUNDIALS: the band linear solver, docs/integrators/sundials.md)
 * runs adaptive at tol 1e-6 with its step bounded by h, so that every n takes about the
 * same steps (CVODE's RMS norm divides by the state's size: unbounded, a large n would
 * take fewer, larger steps and the cost per step would compare different work). */
static const chain_treatment chain_treatments[] = {
    {"moreau-jean", "moreau-jean", 1e-3, NAN},
    {"kikuuwe-be", "kbe-relay", 1e-3, NAN},
    {"kikuuwe-be", "kbe-symplectic", 1e-3, NAN},
    {"smooth-sign", "rk4", 1e-5, NAN},
    {"smooth-sign", "cvode-bdf", 1e-3, 1e-6},
};

/* ns per step of one treatment at n blocks, NaN (message in err) when it fails. */
static double chain_cost(const chain_treatment *tr, double n, unsigned long steps,
                         unsigned long repeats, fb_counters *last, fb_err *err)
{
  fb_case cs;
  fb_trace trace = {0};
  char set[3][64];
  snprintf(set[0], sizeof set[0], "n=%.0f", n);
  snprintf(set[1], sizeof set[1], "T=%.17g", tr->h * (double)steps);
  snprintf(set[2], sizeof set[2], "store=banded");
  int st = fb_case_init(&cs, "chain", tr->model, tr->integ, err);
  if (st != FB_OK)
    return NAN;
  if (isnan(tr->tol)) {
    cs.opts.h = tr->h;
  } else {
    cs.opts.h = NAN;
    cs.opts.atol = cs.opts.rtol = tr->tol;
    cs.opts.hmax = tr->h;
  }
  cs.opts.max_steps = 4 * steps + 16;
  cs.opts.max_rhs = 64 * steps + 64;
  cs.samples = 2;
  for (int k = 0; k < 3 && st == FB_OK; k++)
    st = fb_case_set(&cs, set[k], err);
  if (st == FB_OK)
    st = fb_case_prepare(&cs, err);
  if (st == FB_OK)
    st = fb_trace_alloc(&trace, cs.samples, cs.sc.plant.n, cs.sc.plant.nc, cs.md.type->nz);
  const unsigned long inner = n < 1e4 ? (unsigned long)(1e4 / n) : 1; /* same work for all n */
  double cost[64];
  unsigned long nsteps = 0;
  for (unsigned long r = 0; st == FB_OK && r <= repeats && r < 64; r++) {
    double cpu = 0.0;
    for (unsigned long k = 0; k < inner && st == FB_OK; k++) {
      fb_run_result res;
      st = fb_case_run(&cs, &trace, NULL, &res);
      if (st != FB_OK)
        fb_err_set(err, st, "%s", res.message);
      cpu += res.cpu_s;
      nsteps = res.cnt.nsteps;
      *last = res.cnt;
    }
    cost[r] = 1e9 * cpu / ((double)inner * (double)(nsteps ? nsteps : 1));
  }
  fb_trace_free(&trace);
  fb_case_free(&cs);
  return st == FB_OK ? fb_median(cost + 1, repeats) : (double)NAN;
}

int fb_bench_chain(FILE *csv, unsigned long steps, unsigned long repeats)
{
  const size_t nt = sizeof chain_treatments / sizeof chain_treatments[0];
  int rc = 0;
  printf("fricbench bench: chain (store=banded), %lu steps per run, ns per step (median of %lu "
         "runs, integration CPU); ratio to n = 10; exponent log(c(n2)/c(n1))/log(n2/n1)\n",
         steps, repeats);
  printf("%-12s %-15s %10s %10s %10s %10s  %s\n", "model", "integrator", "n=10", "n=100",
         "n=1000", "n=10000", "ratios; exponent 1e3->1e4, 10->1e4");
  if (csv != NULL)
    fprintf(csv, "model,integrator,h,n,ns_per_step,ratio_to_n10\n");
  for (size_t t = 0; t < nt; t++) {
    const chain_treatment *tr = &chain_treatments[t];
    if (fb_integrator_find(fb_model_find(tr->model), tr->integ) == NULL)
      continue; /* cvode-bdf in a build without SUNDIALS */
    double c[CHAIN_NN];
    fb_counters cnt[CHAIN_NN];
    memset(cnt, 0, sizeof cnt);
    fb_err err = {{0}};
    for (size_t k = 0; k < CHAIN_NN; k++)
      c[k] = chain_cost(tr, chain_n[k], steps, repeats, &cnt[k], &err);
    if (isnan(c[0]) || isnan(c[CHAIN_NN - 1])) {
      printf("%-12s %-15s failed: %s\n", tr->model, tr->integ, err.msg);
      rc = 1;
      continue;
    }
    const double e34 = log(c[3] / c[2]) / log(10.0), e14 = log(c[3] / c[0]) / log(1000.0);
    printf("%-12s %-15s %10.1f %10.1f %10.1f %10.1f  1 : %.3g : %.3g : %.4g; n^%.2f, n^%.2f\n",
           tr->model, tr->integ, c[0], c[1], c[2], c[3], c[1] / c[0], c[2] / c[0], c[3] / c[0],
           e34, e14);
    if (!isnan(tr->tol)) /* an adaptive run's work per step is the solver's: its counts */
      for (size_t k = 0; k < CHAIN_NN; k++)
        printf("%-12s %-15s n=%-6.0f %lu steps, nfe %lu, njac %lu, nlsetups %lu, Newton "
               "iterations %lu\n",
               "", "", chain_n[k], cnt[k].nsteps, cnt[k].nfe, cnt[k].njac, cnt[k].nlsetups,
               cnt[k].ninner);
    for (size_t k = 0; csv != NULL && k < CHAIN_NN; k++)
      fprintf(csv, "%s,%s,%g,%.0f,%.6g,%.6g\n", tr->model, tr->integ, tr->h, chain_n[k], c[k],
              c[k] / c[0]);
  }
  return rc;
}
