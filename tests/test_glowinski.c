/* test_glowinski.c — the glowinski model (docs/design.md §3 M2) on the four Glowinski scenarios
 * (docs/design.md §5, §7).  Shows: the closed forms are self-consistent (residual of the equations
 * of motion at round-off, lambda in Sgn(v), v = xdot, a = vdot, docs/design.md §7's corrected
 * forcing of glowinski-2dof); glowinski-lie converges at first order in x and v on
 * glowinski-tp1, -tp2 and -2dof, and in lambda on -2dof in L1 (in L2 only at order 1/2,
 * see lie_first_order_2dof); glowinski-strang does no better ([Glowinski2004] remark 4); the
 * Uzawa iteration reproduces the closed-form friction step when M is diagonal; its mean
 * iteration count stays bounded as h shrinks thanks to the round-off-scaled stop (and
 * does not without it); the exact elastic step is exact; bad options fail cleanly.
 *
 * Errors are L2 in time against the closed forms (fb_glowinski_ref.h), accumulated on
 * every accepted step by an observer: trapezoid rule on the step grid for x and v.  The
 * multiplier is only defined a.e. and the scheme reports a step mean (models/glowinski.c),
 * so its error uses the rectangle rule on each step (t_{k-1}, t_k] against lambda(t_k)
 * (the closed forms give left limits at breaks).  Observed orders are least-squares
 * slopes of log error on log h (gsl_fit_linear) over h = 1e-2 .. 1e-4.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_glowinski_ref.h"
#include "fb_scenario.h"
#include "fb_test.h"
#include "fb_util.h"
#include "fb_integrator_int.h"

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

/* ================================================================================== */
/* The closed forms.                                                                    */

static const char *const glow_scenarios[] = {"glowinski-tp1", "glowinski-tp2", "glowinski-2dof",
                                             "glowinski-3dof"};

/* gamma of the plant's own law (docs/design.md §1: gamma(v) = sgn(v) (1 - mu(|v|)/mu_s)), so the
 * residual also checks that the scenario's shape is Glowinski's gamma. */
static double plant_cgamma(const fb_plant *pl, size_t i, double v)
{
  const fb_contact *c = &pl->contact[i];
  if (v == 0.0)
    return 0.0;
  return fb_sgn(v) * c->c0.N * (c->law.mu_s - fb_friction_mu(&c->law, fabs(v), NULL));
}

/* Residual of M a + D v + K x + C (lambda - gamma(v)) - f(t) and the size of its terms. */
static double residual(const fb_plant *pl, double t, const fb_glow_ref *r, double *scale)
{
  const size_t n = pl->n;
  double f[FB_GLOW_NMAX], res = 0.0, sc = 0.0;
  pl->force(pl->sp, t, r->x, r->v, f);
  for (size_t j = 0; j < n; j++) {
    double s = -f[j], a = fabs(f[j]);
    for (size_t k = 0; k < n; k++) {
      s += pl->M[j * n + k] * r->a[k] + pl->D[j * n + k] * r->v[k] + pl->K[j * n + k] * r->x[k];
      a += fabs(pl->M[j * n + k] * r->a[k]) + fabs(pl->D[j * n + k] * r->v[k]) +
           fabs(pl->K[j * n + k] * r->x[k]);
    }
    for (size_t i = 0; i < pl->nc; i++)
      if (pl->contact[i].dof == j) {
        const double c = pl->contact[i].c0.N * pl->contact[i].law.mu_s;
        s += c * r->lambda[i] - plant_cgamma(pl, i, r->v[j]);
        a += fabs(c * r->lambda[i]) + fabs(plant_cgamma(pl, i, r->v[j]));
      }
    res = fmax(res, fabs(s));
    sc = fmax(sc, a);
  }
  *scale = sc;
  return res;
}

/* Kinks of each closed form inside (0, T): forcing breaks, plus glowinski-3dof's t*. */
static size_t kinks_of(const fb_scenario *sc, double *k, size_t kmax)
{
  const fb_plant *pl = &sc->plant;
  size_t nk = 0;
  for (size_t b = 0; b < pl->nbreaks && nk < kmax; b++)
    k[nk++] = pl->breaks[b];
  if (strcmp(sc->type->name, "glowinski-3dof") == 0) {
    /* t* = the first t with v = 0 after the start: bisect on the closed form itself. */
    double lo = 0.2, hi = 1.0;
    for (int it = 0; it < 200; it++) {
      fb_glow_ref r;
      const double mid = 0.5 * (lo + hi);
      fb_glowinski_3dof_ref(sc->params, mid, &r);
      if (r.lambda[0] == -1.0)
        lo = mid;
      else
        hi = mid;
    }
    k[nk++] = hi;
  }
  return nk;
}

static double near_kink(const double *k, size_t nk, double t)
{
  double d = INFINITY;
  for (size_t i = 0; i < nk; i++)
    d = fmin(d, fabs(t - k[i]));
  return d;
}

/* Residual at round-off everywhere (on a fine grid and on both sides of every kink),
 * lambda in Sgn(v), initial state, exact() consistent with the full closed form. */
Test(closed_forms, residual_at_roundoff_and_lambda_in_Sgn_v)
{
  for (size_t s = 0; s < 4; s++) {
    fb_scenario sc;
    scenario_open(&sc, glow_scenarios[s]);
    const fb_plant *pl = &sc.plant;
    const ref_fn ref = ref_of(glow_scenarios[s]);
    double kinks[32];
    const size_t nk = kinks_of(&sc, kinks, 32);
    double worst = 0.0;
    const size_t ngrid = 4001;
    for (size_t q = 0; q < ngrid + 2 * nk + 1; q++) {
      double t;
      if (q < ngrid)
        t = pl->T * (double)q / (double)(ngrid - 1);
      else if (q < ngrid + 2 * nk)
        t = kinks[(q - ngrid) / 2] * (1.0 + ((q - ngrid) % 2 ? 1e-13 : -1e-13));
      else
        t = 0.0;
      fb_glow_ref r;
      cr_assert_eq(ref(sc.params, t, &r), FB_OK);
      cr_assert_eq(r.n, pl->n);
      double scale;
      const double res = residual(pl, t, &r, &scale);
      worst = fmax(worst, res / (1.0 + scale));
      cr_assert(res <= 8 * DBL_EPSILON * (1.0 + scale),
                "%s: residual %.3e (terms %.3e) at t=%.17g", sc.type->name, res, scale, t);
      for (size_t i = 0; i < pl->nc; i++) {
        const double v = r.v[pl->contact[i].dof];
        cr_assert(fabs(r.lambda[i]) <= 1.0, "%s: |lambda_%zu| = %g > 1 at t=%g", sc.type->name,
                  i, r.lambda[i], t);
        if (v != 0.0)
          cr_assert_eq(r.lambda[i], fb_sgn(v), "%s: lambda_%zu = %g but v = %g at t=%g",
                       sc.type->name, i, r.lambda[i], v, t);
      }
      /* exact() is the same solution, with F = -c (lambda - gamma(v)). */
      double x[FB_GLOW_NMAX], vv[FB_GLOW_NMAX], F[FB_GLOW_NMAX];
      cr_assert_eq(sc.type->exact(sc.params, t, x, vv, F), FB_OK);
      for (size_t i = 0; i < pl->nc; i++) {
        const size_t j = pl->contact[i].dof;
        const double c = pl->contact[i].c0.N * pl->contact[i].law.mu_s;
        cr_assert(x[j] == r.x[j] && vv[j] == r.v[j]);
        cr_assert(fabs(F[i] + c * r.lambda[i] - plant_cgamma(pl, i, r.v[j])) <= 1e-14 * c,
                  "%s: exact F", sc.type->name);
      }
    }
    fb_glow_ref r0;
    ref(sc.params, pl->t0, &r0);
    for (size_t j = 0; j < pl->n; j++)
      cr_assert(r0.x[j] == pl->x0[j] && r0.v[j] == pl->v0[j], "%s: initial state",
                sc.type->name);
    cr_log_info("%s: max residual / (1 + |terms|) = %.2e over %zu times, %zu kinks\n",
                sc.type->name, worst, ngrid + 2 * nk, nk);
    fb_scenario_free(&sc);
  }
}

/* v = xdot and a = vdot inside every piece, by 4th-order central differences with
 * d = 1e-3 (points closer than 3 d to a kink skipped): truncation <= d^4 max|x^(5)|/30,
 * at most (4 pi)^6 d^4/30 ~ 1e-7 for the fastest solution (tp2's 2 pi sin 4 pi t), and
 * round-off ~ eps max|x| / d ~ 1e-12, so 1e-6 (1 + |derivative|) is a safe bound.  And x,
 * v continuous across every kink (compared 2e-12 apart: to 4e-12 times their slopes). */
Test(closed_forms, derivatives_and_continuity)
{
  const double d = 1e-3;
  for (size_t s = 0; s < 4; s++) {
    fb_scenario sc;
    scenario_open(&sc, glow_scenarios[s]);
    const fb_plant *pl = &sc.plant;
    const ref_fn ref = ref_of(glow_scenarios[s]);
    double kinks[32];
    const size_t nk = kinks_of(&sc, kinks, 32);
    double worst_v = 0, worst_a = 0;
    for (size_t q = 1; q < 1000; q++) {
      const double t = pl->T * (double)q / 1000.0;
      if (near_kink(kinks, nk, t) < 3 * d || t < 3 * d || t > pl->T - 3 * d)
        continue;
      fb_glow_ref r, rm2, rm1, rp1, rp2;
      ref(sc.params, t, &r);
      ref(sc.params, t - 2 * d, &rm2);
      ref(sc.params, t - d, &rm1);
      ref(sc.params, t + d, &rp1);
      ref(sc.params, t + 2 * d, &rp2);
      for (size_t j = 0; j < pl->n; j++) {
        const double dx = (rm2.x[j] - 8 * rm1.x[j] + 8 * rp1.x[j] - rp2.x[j]) / (12 * d);
        const double dv = (rm2.v[j] - 8 * rm1.v[j] + 8 * rp1.v[j] - rp2.v[j]) / (12 * d);
        worst_v = fmax(worst_v, fabs(dx - r.v[j]) / (1 + fabs(r.v[j])));
        worst_a = fmax(worst_a, fabs(dv - r.a[j]) / (1 + fabs(r.a[j])));
        cr_assert(fabs(dx - r.v[j]) <= 1e-6 * (1 + fabs(r.v[j])), "%s: v%zu != xdot at t=%g",
                  sc.type->name, j, t);
        cr_assert(fabs(dv - r.a[j]) <= 1e-6 * (1 + fabs(r.a[j])), "%s: a%zu != vdot at t=%g",
                  sc.type->name, j, t);
      }
    }
    for (size_t k = 0; k < nk; k++) {
      fb_glow_ref a, b;
      ref(sc.params, kinks[k] - 1e-12, &a);
      ref(sc.params, kinks[k] + 1e-12, &b);
      for (size_t j = 0; j < pl->n; j++) { /* 2e-12 apart: allow the slope times that */
        const double tx = 1e-14 + 4e-12 * (fabs(a.v[j]) + fabs(b.v[j]));
        const double tv = 1e-14 + 4e-12 * (fabs(a.a[j]) + fabs(b.a[j]));
        cr_assert(fabs(a.x[j] - b.x[j]) <= tx, "%s: x%zu jumps at %g", sc.type->name, j,
                  kinks[k]);
        cr_assert(fabs(a.v[j] - b.v[j]) <= tv, "%s: v%zu jumps at %g", sc.type->name, j,
                  kinks[k]);
      }
    }
    cr_log_info("%s: max rel. error of 4th-order differences: xdot %.1e, vdot %.1e\n",
                sc.type->name, worst_v, worst_a);
    fb_scenario_free(&sc);
  }
}

/* docs/design.md §7: the forcing computed from the solution is the paper's on (0, 2) and docs/design.md's
 * corrected one on (2, 4), which differs from the printed one by -4/3 (f1) and +8/3 (f2). */
Test(closed_forms, glowinski_2dof_forcing_is_spec_corrected)
{
  fb_scenario sc;
  scenario_open(&sc, "glowinski-2dof");
  const fb_plant *pl = &sc.plant;
  for (size_t q = 0; q <= 400; q++) {
    const double t = 4.0 * (double)q / 400.0;
    fb_glow_ref r;
    fb_glowinski_2dof_ref(sc.params, t, &r);
    const double g1 = plant_cgamma(pl, 0, r.v[0]), g2 = plant_cgamma(pl, 1, r.v[1]);
    double f[2], e1, e2, p1 = NAN, p2 = NAN; /* expected (design) and printed (paper) */
    pl->force(pl->sp, t, r.x, r.v, f);
    if (t <= 1) {
      e1 = 2 * (t - t * t / 2) - 1 - g1;
      e2 = t * t / 2 - 2 * t - g2;
    } else if (t <= 2) {
      e1 = 1 + (t - 1.5) - g1;
      e2 = 0.5 - t - g2;
    } else if (t <= 3) {
      e1 = 3 * t * t * t - 23 * t * t + 70 * t - 78 - g1;
      e2 = -2 * t * t * t + 16 * t * t - 36 * t + 24.5 - g2;
      p1 = 3 * t * t * t - 23 * t * t + 70 * t - 238.0 / 3 - g1;
      p2 = -2 * t * t * t + 16 * t * t - 36 * t + 163.0 / 6 - g2;
    } else {
      e1 = t * t * t / 3 - 3 * t * t + 6 * t - 1.5 - g1;
      e2 = -2 * t * t * t / 3 + 6 * t * t - 20 * t + 26.5 - g2;
      p1 = t * t * t / 3 - 3 * t * t + 6 * t - 17.0 / 6 - g1;
      p2 = -2 * t * t * t / 3 + 6 * t * t - 20 * t + 175.0 / 6 - g2;
    }
    cr_assert(fabs(f[0] - e1) <= 1e-12 * (1 + fabs(e1)), "f1(%g) = %.15g, design %.15g", t, f[0],
              e1);
    cr_assert(fabs(f[1] - e2) <= 1e-12 * (1 + fabs(e2)), "f2(%g) = %.15g, design %.15g", t, f[1],
              e2);
    if (t > 2) {
      cr_assert(fabs(p1 - e1 + 4.0 / 3) <= 1e-11, "printed f1 is 4/3 too small at %g", t);
      cr_assert(fabs(p2 - e2 - 8.0 / 3) <= 1e-11, "printed f2 is 8/3 too large at %g", t);
    }
  }
  fb_scenario_free(&sc);
}

/* docs/design.md §7: t* ~= 0.3984, root of 5 e^{-4t} - 5 + 10 t; every DOF stops there. */
Test(closed_forms, glowinski_3dof_stop_time)
{
  fb_scenario sc;
  scenario_open(&sc, "glowinski-3dof");
  double k[4];
  cr_assert_eq(kinks_of(&sc, k, 4), 1);
  const double ts = k[0];
  cr_log_info("glowinski-3dof: t* = %.15f, 5 e^{-4t*} - 5 + 10 t* = %.2e\n", ts,
              5 * exp(-4 * ts) - 5 + 10 * ts);
  cr_assert(fabs(ts - 0.3984) < 1e-4);
  cr_assert(fabs(5 * exp(-4 * ts) - 5 + 10 * ts) < 1e-13);
  fb_glow_ref r;
  fb_glowinski_3dof_ref(sc.params, 3.0, &r);
  for (size_t i = 0; i < 3; i++) {
    const double m = (double)(i + 1);
    cr_assert(fabs(r.x[i] - (1.25 * (1 - exp(-4 * ts)) - 5 * ts + 5 * ts * ts) / m) < 1e-14);
    cr_assert(r.v[i] == 0.0);
    cr_assert(fabs(r.lambda[i] + 2 * exp(-12.0)) < 1e-16, "lambda = f/c after the stop");
  }
  fb_scenario_free(&sc);
}

/* ================================================================================== */
/* Convergence.                                                                         */

typedef struct l2_acc {
  ref_fn ref;
  const void *sp;
  size_t n;
  int have;
  double tp, ex_p, ev_p, ex1_p;
  double sx, sv, sl, sl1, sx1; /* integrals of squared errors (sl1: of |lambda error|) */
} l2_acc;

static int l2_step(void *ctx, double t, const double *y)
{
  l2_acc *a = ctx;
  const size_t n = a->n;
  fb_glow_ref r;
  cr_assert_eq(a->ref(a->sp, t, &r), FB_OK);
  double ex = 0, ev = 0, el = 0, el1 = 0;
  for (size_t i = 0; i < n; i++) {
    ex += pow(y[i] - r.x[i], 2);
    ev += pow(y[n + i] - r.v[i], 2);
    el += pow(y[2 * n + i] - r.lambda[i], 2);
    el1 += fabs(y[2 * n + i] - r.lambda[i]);
  }
  const double ex1 = pow(y[0] - r.x[0], 2);
  if (a->have) {
    const double dt = t - a->tp;
    a->sx += 0.5 * dt * (a->ex_p + ex);
    a->sv += 0.5 * dt * (a->ev_p + ev);
    a->sx1 += 0.5 * dt * (a->ex1_p + ex1);
    a->sl += dt * el;
    a->sl1 += dt * el1;
  }
  a->have = 1;
  a->tp = t;
  a->ex_p = ex;
  a->ev_p = ev;
  a->ex1_p = ex1;
  return 0;
}

typedef struct l2_err {
  double x, v, lambda, lambda_l1, x1;
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
  e.lambda_l1 = a.sl1;
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
  cr_assert_eq(gsl_fit_linear(lx, 1, ly, 1, k, &c0, &c1, &v00, &v01, &v11, &ss), GSL_SUCCESS);
  return c1;
}

/* 1/300 and 1/3000 rather than 3e-3 and 3e-4: every step size then divides the breaks. */
static const double hs[] = {1e-2, 1.0 / 300, 1e-3, 1.0 / 3000, 1e-4};
#define NH (sizeof hs / sizeof hs[0])

typedef struct study {
  l2_err e[NH];
  double px, pv, pl, pl1, px1;
} study;

static study convergence(const char *scenario, const char *integ)
{
  study s;
  double ex[NH], ev[NH], el[NH], el1[NH], ex1[NH];
  for (size_t k = 0; k < NH; k++) {
    s.e[k] = l2_run(scenario, integ, hs[k], NULL);
    ex[k] = s.e[k].x, ev[k] = s.e[k].v, el[k] = s.e[k].lambda, el1[k] = s.e[k].lambda_l1,
    ex1[k] = s.e[k].x1;
    cr_log_info("%s %s h=%.2e: L2 error x %.3e (x1 %.3e)  v %.3e  lambda %.3e (L1 %.3e)\n",
                scenario, integ, hs[k], ex[k], ex1[k], ev[k], el[k], el1[k]);
  }
  s.px = order_of(hs, ex, NH);
  s.pv = order_of(hs, ev, NH);
  s.pl = order_of(hs, el, NH);
  s.pl1 = order_of(hs, el1, NH);
  s.px1 = order_of(hs, ex1, NH);
  cr_log_info("%s %s: observed order x %.3f (x1 %.3f)  v %.3f  lambda L2 %.3f, L1 %.3f\n",
              scenario, integ, s.px, s.px1, s.pv, s.pl, s.pl1);
  return s;
}

static void assert_first_order(const char *what, double p)
{
  cr_assert(p >= 0.8 && p <= 1.3, "%s: observed order %.3f not in [0.8, 1.3]", what, p);
}

Test(convergence, lie_first_order_tp1)
{
  study s = convergence("glowinski-tp1", "glowinski-lie");
  assert_first_order("tp1 x", s.px);
  assert_first_order("tp1 v", s.pv);
}

/* docs/design.md §7's prototype: order 1.00 and 4.1e-4 at h = 1e-4.  Ours: 4.5e-4, because our
 * forcing takes its left value at a break (the value on the sub-step (t_{p-1}, t_p] that
 * ends there); with the right value it gives 4.08e-4. */
Test(convergence, lie_first_order_tp2)
{
  study s = convergence("glowinski-tp2", "glowinski-lie");
  assert_first_order("tp2 x", s.px);
  assert_first_order("tp2 v", s.pv);
  cr_assert(fabs(s.e[NH - 1].x / 4.1e-4 - 1) < 0.15, "tp2 x error %.3e at 1e-4, prototype 4.1e-4",
            s.e[NH - 1].x);
}

/* docs/design.md §7's prototype: x1 errors 9.8e-3, 3.2e-3, 1.0e-3 at h = 1e-2, 3e-3, 1e-3.
 * lambda: first order in L1.  In L2 the order is 1/2, and must be: lambda jumps where
 * v1 reaches 0 exactly at a forcing break (t = 1 and 3), a first-order scheme places that
 * stop O(h) off, so lambda is O(1) wrong on O(1) steps there: L2 error ~ sqrt(h), L1
 * error ~ h.  Away from those steps lambda converges at first order in L2 as well. */
Test(convergence, lie_first_order_2dof)
{
  study s = convergence("glowinski-2dof", "glowinski-lie");
  assert_first_order("2dof x", s.px);
  assert_first_order("2dof v", s.pv);
  assert_first_order("2dof lambda (L1)", s.pl1);
  cr_assert(s.pl >= 0.35 && s.pl <= 0.75, "2dof lambda L2 order %.3f, expected ~ 1/2", s.pl);
  const double proto[3] = {9.8e-3, 3.2e-3, 1.0e-3};
  for (size_t k = 0; k < 3; k++)
    cr_assert(fabs(s.e[k].x1 / proto[k] - 1) < 0.1, "x1 error %.3e at h=%g, prototype %.1e",
              s.e[k].x1, hs[k], proto[k]);
}

/* [Glowinski2004] remark 4: the symmetrized scheme does not improve on first order here. */
Test(convergence, strang_no_better_than_first_order)
{
  const char *const sc[] = {"glowinski-tp1", "glowinski-tp2", "glowinski-2dof"};
  for (size_t i = 0; i < 3; i++) {
    study s = convergence(sc[i], "glowinski-strang");
    assert_first_order("strang x", s.px);
    assert_first_order("strang v", s.pv);
  }
}

/* ================================================================================== */
/* The friction sub-step: Uzawa against the closed form; iteration counts.              */

typedef struct traj {
  size_t dim, cap, len;
  double *t, *y;
} traj;

static int traj_step(void *ctx, double t, const double *y)
{
  traj *tr = ctx;
  cr_assert(tr->len < tr->cap);
  tr->t[tr->len] = t;
  memcpy(tr->y + tr->len * tr->dim, y, tr->dim * sizeof(double));
  tr->len++;
  return 0;
}

static traj traj_run(const char *scenario, double h, const char *const *sets, size_t dim,
                     size_t cap, fb_run_result *res)
{
  traj tr = {dim, cap, 0, calloc(cap, sizeof(double)), calloc(cap * dim, sizeof(double))};
  cr_assert(tr.t != NULL && tr.y != NULL);
  fb_observer obs = {traj_step, &tr};
  fbt_run(scenario, "glowinski", "glowinski-lie", h, 0, sets, 2, NULL, &obs, res);
  cr_assert_eq(res->status, FB_OK, "%s: %s", scenario, res->message);
  return tr;
}

static void traj_free(traj *tr)
{
  free(tr->t);
  free(tr->y);
}

/* Same steps, same states: max differences of x, v and lambda. */
static void closed_vs_uzawa(const char *scenario, size_t n, double h, double tol_xv,
                            double tol_l)
{
  const size_t dim = 3 * n, cap = 20000;
  const char *closed[] = {"solver=closed", NULL};
  const char *uzawa[] = {"solver=uzawa", "uzawa_tol=1e-14", NULL};
  fb_run_result rc, ru;
  traj a = traj_run(scenario, h, closed, dim, cap, &rc);
  traj b = traj_run(scenario, h, uzawa, dim, cap, &ru);
  cr_assert_eq(a.len, b.len);
  double dx = 0, dl = 0;
  for (size_t k = 0; k < a.len; k++) {
    cr_assert(a.t[k] == b.t[k]);
    for (size_t i = 0; i < 2 * n; i++)
      dx = fmax(dx, fabs(a.y[k * dim + i] - b.y[k * dim + i]));
    for (size_t i = 2 * n; i < 3 * n; i++)
      dl = fmax(dl, fabs(a.y[k * dim + i] - b.y[k * dim + i]));
  }
  cr_log_info("%s h=%g: closed form vs Uzawa (%.2f iterations per sub-step): max |dx|, |dv| "
              "%.2e, max |dlambda| %.2e\n",
              scenario, h, (double)ru.cnt.ninner / (double)ru.cnt.nfe, dx, dl);
  cr_assert_eq(rc.cnt.ninner, 0, "closed form: no iterations");
  cr_assert(ru.cnt.ninner > 0, "uzawa was used");
  cr_assert(dx <= tol_xv, "%s: x, v differ by %.3e", scenario, dx);
  cr_assert(dl <= tol_l, "%s: lambda differs by %.3e", scenario, dl);
  traj_free(&a);
  traj_free(&b);
}

/* [Shiau2005] §4 / docs/design.md §3 M2: with M diagonal the iteration must reproduce eq. 3.16. */
Test(uzawa, reproduces_closed_form_for_diagonal_M)
{
  closed_vs_uzawa("glowinski-3dof", 3, 1e-2, 1e-12, 1e-12);
  closed_vs_uzawa("glowinski-tp2", 1, 1e-3, 1e-12, 1e-12);
  closed_vs_uzawa("glowinski-tp1", 1, 1e-3, 1e-12, 1e-12);
}

/* docs/design.md §7: mean iterations per friction sub-step bounded as h goes 1e-2 -> 1e-4 with the
 * round-off-scaled stop; with a plain absolute 1e-13 they are not (prototype: 15 -> 750
 * iterations and 37% of sub-steps not converging at 1e-3). */
Test(uzawa, iterations_bounded_as_h_shrinks)
{
  const double hh[3] = {1e-2, 1e-3, 1e-4};
  double it[3];
  for (size_t k = 0; k < 3; k++) {
    l2_err e = l2_run("glowinski-2dof", "glowinski-lie", hh[k], NULL);
    it[k] = (double)e.res.cnt.ninner / (double)e.res.cnt.nfe;
    cr_log_info("glowinski-2dof h=%g: %lu sub-steps, %lu Uzawa iterations, %.2f per sub-step\n",
                hh[k], e.res.cnt.nfe, e.res.cnt.ninner, it[k]);
  }
  for (size_t k = 0; k < 3; k++)
    cr_assert(it[k] >= 1 && it[k] <= 15, "%.2f iterations per sub-step at h=%g", it[k], hh[k]);
  cr_assert(it[2] <= 1.5 * it[0], "iterations grow with 1/h: %.2f -> %.2f", it[0], it[2]);

  /* Without the floor: 1e-13 absolute becomes unreachable below h ~ 1e-3. */
  const char *raw[] = {"uzawa_floor=0", "uzawa_tol=1e-13", "uzawa_max=2000", NULL};
  fb_run_result res;
  fbt_run("glowinski-2dof", "glowinski", "glowinski-lie", 1e-3, 0, raw, 2, NULL, NULL, &res);
  cr_log_info("glowinski-2dof h=1e-3, absolute stop 1e-13, no floor: %s after %lu iterations "
              "(%s)\n",
              fb_status_name(res.status), res.cnt.ninner, res.message);
  cr_assert_eq(res.status, FB_ESOLVE, "without the floor the stop is unreachable");
  cr_assert(strstr(res.message, "Uzawa") != NULL, "%s", res.message);
}

/* ================================================================================== */
/* Stick, the elastic step, bad input.                                                  */

/* glowinski-3dof after t*: v exactly 0, x frozen bit for bit (no drift), |lambda| < 1,
 * stick flag set; with the Uzawa path too (stuck components are put at rest exactly). */
Test(stick, exact_stick_and_no_drift_3dof)
{
  const char *const solvers[2][2] = {{"solver=closed", NULL}, {"solver=uzawa", NULL}};
  for (size_t s = 0; s < 2; s++) {
    fb_run_result res;
    traj tr = traj_run("glowinski-3dof", 1e-3, solvers[s], 9, 5000, &res);
    const double *xs = NULL;
    size_t stuck = 0;
    for (size_t k = 0; k < tr.len; k++) {
      const double *y = tr.y + 9 * k;
      for (size_t i = 0; i < 3; i++)
        cr_assert(fabs(y[6 + i]) <= 1.0, "|lambda| <= 1");
      if (tr.t[k] < 0.41)
        continue;
      if (xs == NULL)
        xs = y;
      for (size_t i = 0; i < 3; i++) {
        cr_assert(y[3 + i] == 0.0, "%s: v%zu = %g at t=%g", solvers[s][0], i, y[3 + i], tr.t[k]);
        cr_assert(y[i] == xs[i], "%s: x%zu drifts at t=%g", solvers[s][0], i, tr.t[k]);
        cr_assert(fabs(y[6 + i]) < 1.0);
      }
      stuck++;
    }
    cr_assert(stuck > 3000);
    traj_free(&tr);
  }
  /* The model's stick flag and force through the output path. */
  fb_trace tr;
  fb_run_result res;
  fbt_run("glowinski-3dof", "glowinski", NULL, 1e-3, 0, NULL, 5, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK);
  for (size_t k = 1; k < 5; k++) /* t = 1, 2, 3, 4: stuck, F = -c lambda = -f */
    for (size_t i = 0; i < 3; i++) {
      cr_assert_eq(tr.stick[k * 3 + i], 1);
      cr_assert(fabs(tr.F[k * 3 + i] + 10 * tr.y[k * tr.dim + 6 + i]) < 1e-12);
    }
  fb_trace_free(&tr);
}

/* Without friction (coupled-sledges, mu = 0, no drive) the splitting is the elastic step
 * alone: elastic=exact must give the exact flow of M xddot + K x = 0 at any h (checked
 * against GSL's matrix exponential of [[0, I], [-M^-1 K, 0]]); the centred alpha-scheme
 * is second order. */
typedef struct last_state {
  double y[8];
} last_state;

static int last_step(void *ctx, double t, const double *y)
{
  (void)t;
  memcpy(((last_state *)ctx)->y, y, 6 * sizeof(double));
  return 0;
}

static double free_error(double h, const char *elastic, const double *yref)
{
  char el[64];
  snprintf(el, sizeof el, "elastic=%s", elastic);
  const char *sets[] = {"mu=0", "A=0", "m2=2", "k12=3", "x1_0=1", "v2_0=0.5", "T=2", el, NULL};
  last_state ls;
  fb_observer obs = {last_step, &ls};
  fb_run_result res;
  fbt_run("coupled-sledges", "glowinski", "glowinski-lie", h, 0, sets, 2, NULL, &obs, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  double e = 0;
  for (size_t i = 0; i < 4; i++)
    e = fmax(e, fabs(ls.y[i] - yref[i]));
  return e;
}

Test(elastic, exact_step_is_exact_alpha_step_second_order)
{
  /* Reference: y(2) = expm(2 A) y0, A = [[0, I], [-M^-1 K, 0]], M = diag(1, 2),
   * K = [[k1 + k12, -k12], [-k12, k12]] with k1 = 1, k12 = 3. */
  const double Minv[2] = {1.0, 0.5}, K[2][2] = {{4, -3}, {-3, 3}};
  gsl_matrix *A = gsl_matrix_calloc(4, 4), *E = gsl_matrix_alloc(4, 4);
  for (size_t i = 0; i < 2; i++) {
    gsl_matrix_set(A, i, 2 + i, 2.0);
    for (size_t j = 0; j < 2; j++)
      gsl_matrix_set(A, 2 + i, j, -2.0 * Minv[i] * K[i][j]);
  }
  cr_assert_eq(gsl_linalg_exponential_ss(A, E, GSL_PREC_DOUBLE), GSL_SUCCESS);
  const double y0[4] = {1, 0, 0, 0.5};
  double yref[4];
  for (size_t i = 0; i < 4; i++) {
    yref[i] = 0;
    for (size_t j = 0; j < 4; j++)
      yref[i] += gsl_matrix_get(E, i, j) * y0[j];
  }
  gsl_matrix_free(A);
  gsl_matrix_free(E);
  const double e_ex = free_error(0.1, "exact", yref);
  const double e1 = free_error(0.02, "alpha", yref), e2 = free_error(0.01, "alpha", yref);
  cr_log_info("free 2-DOF oscillator: exact elastic step error %.2e at h = 0.1; alpha-scheme "
              "%.3e (h = 0.02), %.3e (h = 0.01): order %.2f\n",
              e_ex, e1, e2, log2(e1 / e2));
  cr_assert(e_ex <= 1e-12, "exact elastic step: error %.3e", e_ex);
  cr_assert(fabs(log2(e1 / e2) - 2) < 0.2, "alpha-scheme order %.2f", log2(e1 / e2));
}

/* Options that cannot work are refused before the first step with a clear message;
 * budgets stop with FB_BUDGET and the last good state. */
Test(bad_input, refused_cleanly)
{
  fb_run_result res;
  const char *closed[] = {"solver=closed", NULL};
  fbt_run("glowinski-2dof", "glowinski", NULL, 1e-2, 0, closed, 2, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_EINVAL);
  cr_assert(strstr(res.message, "solver=closed") && strstr(res.message, "diagonal"), "%s",
            res.message);
  const char *rho[] = {"rho=1e6", NULL};
  fbt_run("glowinski-2dof", "glowinski", NULL, 1e-2, 0, rho, 2, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_EINVAL);
  cr_assert(strstr(res.message, "rho") && strstr(res.message, "2/(tau1 beta_d)"), "%s",
            res.message);
  cr_log_info("refused: %s\n", res.message);

  fb_case c;
  fb_err err;
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, "glowinski-2dof", "glowinski", "glowinski-strang", &err), FB_OK);
  c.opts.h = 1e-2;
  c.opts.max_steps = 7;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_BUDGET);
  cr_assert(fabs(res.t_reached - 0.07) < 1e-15 && res.cnt.nsteps == 7, "%s", res.message);
  fb_case_free(&c);
  cr_assert_null(fb_integrator_find(fb_model_find("kikuuwe"), "glowinski-lie"));
  cr_assert_null(fb_integrator_find(fb_model_find("glowinski"), "rk4"), "not an ODE model");
}
