/* test_sundials.c — the SUNDIALS steppers (integrators/sundials_cvode.c, sundials_arkode.c;
 * docs/integrators/sundials.md): CVODE's global error is proportional to its tolerance on
 * a smooth linear oscillator (slope of log error against log tol near 1), CVODE and
 * ARKODE's explicit table agree with rk8pd on stick-slip with kikuuwe to the tolerance,
 * their counts are non-zero and consistent, the dense output is the solver's, and a stiff
 * LuGre drift run costs cvode-bdf fewer RHS than rkf45.  Skipped, with the reason, in a
 * build without SUNDIALS. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_integrator_int.h"
#include "fb_model_int.h"
#include "fb_test.h"

#include "fbt_sundials.h" /* SKIP_WITHOUT_SUNDIALS */

/* x(T) of the undamped, unforced, frictionless stick-slip oscillator (y'' + y = 0 from
 * y0 = 3, v0 = 4, T = 10) under integrator at tol: its error against 3 cos 10 + 4 sin 10. */
static double osc_error(const char *integ, double tol, fb_run_result *res)
{
  const char *sets[] = {"mu=0", "A=0", "D=0", NULL};
  fb_trace tr;
  cr_assert_eq(fbt_run("stick-slip", "smooth-sign", integ, 0, tol, sets, 2, &tr, NULL, res),
               FB_OK, "%s at tol %g: %s", integ, tol, res->message);
  const double e = fabs(tr.y[tr.dim] - (3.0 * cos(10.0) + 4.0 * sin(10.0)));
  fb_trace_free(&tr);
  return e;
}

/* Least-squares slope of log10(error) against log10(tol) over tol = 1e-5 .. 1e-10. */
static double tol_slope(const char *integ)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const int n = 6;
  for (int k = 0; k < n; k++) {
    fb_run_result res;
    const double lt = -5.0 - k, le = log10(osc_error(integ, pow(10.0, lt), &res));
    sx += lt, sy += le, sxx += lt * lt, sxy += lt * le;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

Test(sundials, registered_only_when_built_with_it)
{
  const fb_model_type *m = fb_model_find("lugre");
  cr_assert_not_null(m);
  const char *names[] = {"cvode-bdf", "cvode-adams", "arkode-erk", "arkode-dirk", "arkode-imex"};
  for (size_t i = 0; i < 5; i++)
    cr_assert_eq(fb_integrator_find(m, names[i]) != NULL, have_sundials(), "%s", names[i]);
}

/* Error proportional to the tolerance: slope 1 in log-log (CVODE's local error test on
 * the weighted RMS norm; Hindmarsh et al. 2005 §3).  Measured: bdf 0.83, adams 0.77. */
Test(sundials, cvode_error_follows_tolerance)
{
  SKIP_WITHOUT_SUNDIALS();
  const double pb = tol_slope("cvode-bdf"), pa = tol_slope("cvode-adams");
  cr_assert(pb > 0.6 && pb < 1.3, "cvode-bdf: error ~ tol^%.2f", pb);
  cr_assert(pa > 0.6 && pa < 1.3, "cvode-adams: error ~ tol^%.2f", pa);
  /* and not a constant error: ten thousand times smaller over five decades */
  fb_run_result res;
  cr_assert_gt(osc_error("cvode-bdf", 1e-5, &res), 1e3 * osc_error("cvode-bdf", 1e-10, &res));
}

/* Largest |x - x_rk8pd| on a 201-point grid of stick-slip with kikuuwe (rk8pd at 1e-11). */
static double kikuuwe_gap(const char *integ, double tol, fb_run_result *res)
{
  fb_trace ref, tr;
  fb_run_result rres;
  cr_assert_eq(fbt_run("stick-slip", "kikuuwe", "rk8pd", 0, 1e-11, NULL, 201, &ref, NULL, &rres),
               FB_OK, "%s", rres.message);
  cr_assert_eq(fbt_run("stick-slip", "kikuuwe", integ, 0, tol, NULL, 201, &tr, NULL, res),
               FB_OK, "%s: %s", integ, res->message);
  double gap = 0.0;
  for (size_t k = 0; k < 201; k++)
    gap = fmax(gap, fabs(tr.y[k * tr.dim] - ref.y[k * ref.dim]));
  fb_trace_free(&ref);
  fb_trace_free(&tr);
  return gap;
}

/* Agreement to the tolerance on the output grid (the solver's own dense output): within
 * 100 tol times the amplitude (5 m) at 1e-8 (measured: 3.3e-7 bdf, 3.9e-7 adams, 5e-8
 * erk); at 1e-4 the gap is larger (it measures the tolerance, not a fixed bias). */
Test(sundials, agrees_with_rk8pd_on_kikuuwe_stick_slip)
{
  SKIP_WITHOUT_SUNDIALS();
  fb_run_result res;
  const char *names[] = {"cvode-bdf", "cvode-adams", "arkode-erk"};
  for (size_t i = 0; i < 3; i++) {
    const double gap = kikuuwe_gap(names[i], 1e-8, &res);
    cr_assert_lt(gap, 100 * 1e-8 * 5.0, "%s at tol 1e-8: max |dx| %g", names[i], gap);
  }
  const double coarse = kikuuwe_gap("cvode-bdf", 1e-4, &res);
  cr_assert_gt(coarse, 100 * 1e-8 * 5.0, "cvode-bdf at tol 1e-4: max |dx| %g", coarse);
}

/* The counts of a LuGre drift run: RHS, Jacobians, Newton iterations all non-zero, and in
 * the proportions the methods imply. */
Test(sundials, counts_are_plausible)
{
  SKIP_WITHOUT_SUNDIALS();
  fb_run_result res;
  const char *implicit[] = {"cvode-bdf", "cvode-adams", "arkode-dirk", "arkode-imex"};
  for (size_t i = 0; i < 4; i++) {
    cr_assert_eq(fbt_run("drift", "lugre", implicit[i], 0, 1e-8, NULL, 11, NULL, NULL, &res),
                 FB_OK, "%s: %s", implicit[i], res.message);
    const fb_counters *c = &res.cnt;
    cr_assert_gt(c->nsteps, 100, "%s steps %lu", implicit[i], c->nsteps);
    /* one Newton iteration at least per step; each iteration evaluates the RHS once */
    cr_assert_geq(c->ninner, c->nsteps, "%s: %lu iterations, %lu steps", implicit[i],
                  c->ninner, c->nsteps);
    cr_assert_geq(c->nfe, c->ninner, "%s: %lu RHS, %lu iterations", implicit[i], c->nfe,
                  c->ninner);
    /* the Jacobian is reused across steps */
    cr_assert(c->njac > 0 && 4 * c->njac < c->nsteps, "%s: %lu Jacobians, %lu steps",
              implicit[i], c->njac, c->nsteps);
  }
  cr_assert_eq(fbt_run("drift", "lugre", "arkode-erk", 0, 1e-8, NULL, 11, NULL, NULL, &res),
               FB_OK, "%s", res.message);
  cr_assert_eq(res.cnt.njac, 0UL);
  cr_assert_eq(res.cnt.ninner, 0UL);
  /* ARKODE's default 4th-order explicit table has 5 stages (Zonneveld 5-3-4), and ARKODE
   * evaluates f at each step's end for the next one and its dense output: 5 to 7 RHS per
   * attempt (measured: 6.0) */
  const unsigned long att = res.cnt.nsteps + res.cnt.nrejected;
  cr_assert(res.cnt.nfe >= 5 * att && res.cnt.nfe <= 7 * att, "%lu RHS, %lu attempts",
            res.cnt.nfe, att);
}

/* Stiff LuGre drift (bristle frequency 100 times the scenario's): BDF beats the explicit
 * pair (measured at 1e-8: 1424 RHS against rkf45's 21223). */
Test(sundials, stiff_lugre_drift_costs_fewer_rhs_than_rkf45)
{
  SKIP_WITHOUT_SUNDIALS();
  fb_run_result rc, rr;
  cr_assert_eq(fbt_run("drift", "lugre", "cvode-bdf", 0, 1e-8, NULL, 11, NULL, NULL, &rc),
               FB_OK, "%s", rc.message);
  cr_assert_eq(fbt_run("drift", "lugre", "rkf45", 0, 1e-8, NULL, 11, NULL, NULL, &rr), FB_OK,
               "%s", rr.message);
  cr_assert_lt(3 * rc.cnt.nfe, rr.cnt.nfe, "cvode-bdf %lu RHS, rkf45 %lu", rc.cnt.nfe,
               rr.cnt.nfe);
}

/* The RHS budget ends a run as GSL's do: status budget, its message, exit status 0 with
 * the cost so far (a budget is a result). */
Test(sundials, rhs_budget_ends_the_run)
{
  SKIP_WITHOUT_SUNDIALS();
  const char *names[] = {"cvode-bdf", "arkode-imex"};
  for (size_t i = 0; i < 2; i++) {
    const char *argv[] = {"run", "--scenario", "drift", "--model", "lugre", "--integrator",
                          names[i], "--tol", "1e-8", "--max-rhs", "300", "--samples", "2",
                          "--out", "/dev/null", NULL};
    char out[4096], err[4096];
    fbt_cli(argv, out, sizeof out, err, sizeof err);
    cr_assert_not_null(strstr(err, "RHS budget of 300 evaluations exhausted"), "%s: %s",
                       names[i], err);
    cr_assert_not_null(strstr(err, "rhs=300 "), "%s: %s", names[i], err);
  }
}

/* The dense output is the solver's: at every accepted step of the oscillator (y'' + y = 0
 * from 3, 4), dense(ta, tb, tb) is the step's end state, dense at mid-step is within the
 * run's error of the closed form, and a step that is not the last one is refused. */
typedef struct dense_probe {
  const fb_integrator_type *integ;
  void *ws;
  double tp, worst_end, worst_mid;
  int have_prev, refused, steps;
} dense_probe;

static int probe_step(void *ctx, double t, const double *y)
{
  dense_probe *p = ctx;
  double yd[2];
  if (p->have_prev && t > p->tp) {
    cr_assert_eq(p->integ->dense(p->ws, p->tp, t, t, yd), FB_OK);
    p->worst_end = fmax(p->worst_end, fabs(yd[0] - y[0]) + fabs(yd[1] - y[1]));
    const double tm = 0.5 * (p->tp + t);
    cr_assert_eq(p->integ->dense(p->ws, p->tp, t, tm, yd), FB_OK);
    p->worst_mid = fmax(p->worst_mid, fabs(yd[0] - (3.0 * cos(tm) + 4.0 * sin(tm))));
    p->refused += p->integ->dense(p->ws, p->tp - 1e-3, t, tm, yd) == FB_EUNSUP;
    p->steps++;
  }
  p->tp = t;
  p->have_prev = 1;
  return 0;
}

Test(sundials, dense_output_is_the_solvers)
{
  SKIP_WITHOUT_SUNDIALS();
  const char *names[] = {"cvode-bdf", "arkode-dirk"};
  for (size_t i = 0; i < 2; i++) {
    fb_case c;
    fb_err err;
    cr_assert_eq(fb_case_init(&c, "stick-slip", "smooth-sign", names[i], &err), FB_OK);
    cr_assert_eq(fb_case_set(&c, "mu=0", &err), FB_OK);
    cr_assert_eq(fb_case_set(&c, "A=0", &err), FB_OK);
    cr_assert_eq(fb_case_set(&c, "D=0", &err), FB_OK);
    c.opts.atol = c.opts.rtol = 1e-9;
    cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
    dense_probe p = {.integ = c.integ};
    cr_assert_not_null(c.integ->dense);
    cr_assert_eq(c.integ->alloc(&p.ws, c.integ, &c.pb, &c.opts, &err), FB_OK, "%s", err.msg);
    double y[2], t = c.sc.plant.t0;
    fb_problem_initial_state(&c.pb, y);
    fb_counters cnt = {0};
    const fb_observer obs = {probe_step, &p};
    probe_step(&p, t, y);
    cr_assert_eq(fb_drive(c.integ, p.ws, &c.pb, &c.opts, &t, y, &obs, NULL, &cnt, &err), FB_OK,
                 "%s", err.msg);
    c.integ->free(p.ws);
    fb_case_free(&c);
    cr_assert_gt(p.steps, 20);
    cr_assert_eq(p.refused, p.steps, "%s: a step that is not the last one is refused",
                 names[i]);
    cr_assert_lt(p.worst_end, 1e-12, "%s: dense(tb) against y(tb): %g", names[i], p.worst_end);
    cr_assert_lt(p.worst_mid, 1e-5, "%s: mid-step error %g", names[i], p.worst_mid);
  }
}
