/* test_integrators.c — orders of the steppers, budgets, and every stepper x every ODE
 * model on stick-slip. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <string.h>

#include "fb_gsl_ode.h"
#include "fb_integrator.h"
#include "fb_test.h"
#include "fb_integrator_int.h"

/* y'' = -y, y(0) = 1, y'(0) = 0: y = cos t. */
static int osc(double t, const double y[], double f[], void *p)
{
  (void)t, (void)p;
  f[0] = y[1];
  f[1] = -y[0];
  return GSL_SUCCESS;
}

/* Observed order of a one-step method: error at T = 2 for h = 0.2 / 2^k, slope of the
 * least-squares fit of log error against log h. */
static double observed_order(const gsl_odeiv2_step_type *T)
{
  gsl_odeiv2_system sys = {osc, NULL, 2, NULL};
  double lh[5], le[5];
  for (int k = 0; k < 5; k++) {
    const double h = 0.2 / (double)(1 << k);
    const int nsteps = (int)lround(2.0 / h);
    gsl_odeiv2_step *s = gsl_odeiv2_step_alloc(T, 2);
    double y[2] = {1, 0}, yerr[2], t = 0;
    for (int i = 0; i < nsteps; i++) {
      cr_assert_eq(gsl_odeiv2_step_apply(s, t, h, y, yerr, NULL, NULL, &sys), GSL_SUCCESS);
      t += h;
    }
    gsl_odeiv2_step_free(s);
    lh[k] = log(h);
    le[k] = log(hypot(y[0] - cos(2.0), y[1] + sin(2.0)));
  }
  double c0, c1, cov00, cov01, cov11, sumsq;
  gsl_fit_linear(lh, 1, le, 1, 5, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
  return c1;
}

Test(order, heun3_is_third_order)
{
  const double p = observed_order(fb_step_heun3);
  cr_log_info("heun3 observed order %.3f\n", p);
  cr_assert(fabs(p - 3.0) < 0.1, "heun3 order %.3f", p);
}

Test(order, rk4_is_fourth_order)
{
  const double p = observed_order(gsl_odeiv2_step_rk4);
  cr_log_info("rk4 observed order %.3f\n", p);
  cr_assert(fabs(p - 4.0) < 0.1, "rk4 order %.3f", p);
}

/* heun3's embedded error estimate drives an adaptive run to the requested accuracy. */
Test(order, heun3_adaptive)
{
  gsl_odeiv2_system sys = {osc, NULL, 2, NULL};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, fb_step_heun3, 1e-3, 1e-9, 0);
  double y[2] = {1, 0}, t = 0;
  cr_assert_eq(gsl_odeiv2_driver_apply(d, &t, 10.0, y), GSL_SUCCESS);
  cr_assert(fabs(y[0] - cos(10.0)) < 1e-6, "error %g", fabs(y[0] - cos(10.0)));
  gsl_odeiv2_driver_free(d);
}

/* Through the whole machinery: heun3 on stick-slip without friction (mu = 0, smooth)
 * against rk8pd at a tight tolerance. */
Test(order, heun3_through_fricbench)
{
  const char *sets[] = {"mu=0", NULL};
  fb_trace ref, tr;
  fb_run_result res;
  fbt_run("stick-slip", "naive-sign", "rk8pd", 0, 1e-13, sets, 11, &ref, NULL, &res);
  cr_assert_eq(res.status, FB_OK);
  double lh[4], le[4];
  for (int k = 0; k < 4; k++) {
    const double h = 0.02 / (double)(1 << k);
    fbt_run("stick-slip", "naive-sign", "heun3", h, 0, sets, 11, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK);
    double e = 0;
    for (size_t s = 0; s < 11; s++)
      e = fmax(e, fabs(tr.y[s * 2] - ref.y[s * 2]));
    lh[k] = log(h);
    le[k] = log(e);
    fb_trace_free(&tr);
  }
  fb_trace_free(&ref);
  double c0, c1, cov00, cov01, cov11, sumsq;
  gsl_fit_linear(lh, 1, le, 1, 4, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
  cr_log_info("heun3 on stick-slip (mu=0): observed order %.3f\n", c1);
  cr_assert(fabs(c1 - 3.0) < 0.15, "order %.3f", c1);
}

/* The fixed-step grid is hit exactly and breaks are stepped to. */
Test(evolve, fixed_step_lands_on_T)
{
  fb_trace tr;
  fb_run_result res;
  fbt_run("stick-slip", "kikuuwe", "rk4", 0.003, 0, NULL, 3, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK);
  cr_assert_eq(res.t_reached, 10.0);
  cr_assert_eq(res.cnt.nsteps, 3334, "ceil(10/0.003) steps, the last one shortened");
  cr_assert_eq(tr.filled, 3);
  cr_assert_eq(tr.t[2], 10.0);
  fb_trace_free(&tr);
}

/* Budgets end the run with status budget and the cost so far. */
Test(evolve, budgets)
{
  fb_case c;
  fb_err err;
  fb_run_result res;
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, "stick-slip", "naive-sign", "rk4", &err), FB_OK);
  c.opts.atol = c.opts.rtol = 1e-6;
  c.opts.max_steps = 5000;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_BUDGET, "%s", res.message);
  cr_assert_eq(res.cnt.nsteps + res.cnt.nrejected, 5000);
  cr_assert(res.t_reached > 0 && res.t_reached < 10);
  cr_assert(strstr(res.message, "step budget") != NULL, "%s", res.message);
  c.opts.max_steps = FB_DEFAULT_MAX_STEPS;
  c.opts.max_rhs = 1000;
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_BUDGET, "%s", res.message);
  cr_assert(res.cnt.nfe <= 1000);
  cr_assert(strstr(res.message, "RHS budget") != NULL, "%s", res.message);
  fb_case_free(&c);
}

/* Every stepper runs every ODE model on stick-slip.  Smooth laws: adaptive, tol 1e-6.
 * naive-sign and the fixed-step-only methods: fixed h = 1e-4 (with error control its step collapses at every stick: the
 * budget test above shows it).  Pairs marked below cannot step at all: the implicit
 * step equation has no solution across the sign jump (naive-sign), the plastic switch
 * (penalty rate form) or the window's edge (karnopp); they must end with a reported status, never crash. */
typedef struct expect {
  const char *model, *stepper;
} expect;
static const expect cannot_step[] = {
    {"naive-sign", "rk1imp"},    {"naive-sign", "rk2imp"},   {"naive-sign", "rk4imp"},
    {"naive-sign", "msadams"},   {"naive-sign", "msbdf"},    {"penalty", "msadams"},
    {"penalty", "msbdf"},
    /* Karnopp's law jumps at the window's edge |v| = dv (stick force to S) */
    {"karnopp", "rk1imp"},       {"karnopp", "msadams"},     {"karnopp", "msbdf"},
    /* the Newton-solved fixed-step methods report the same jumps as a step they could not
     * solve; fixed-step bsimp reports its refused step (it used to keep the old state) */
    {"naive-sign", "beuler"},    {"naive-sign", "bdf2"},     {"naive-sign", "bsimp"},
    {"penalty", "beuler"},       {"penalty", "bdf2"},
    {"karnopp", "beuler"},       {"karnopp", "bdf2"},
    /* SUNDIALS (when built with it; docs/integrators/sundials.md): CVODE's corrector fails
     * at penalty's plastic switch as msbdf's does; ARKODE's DIRK collapses its step at
     * Karnopp's window edge until the step budget */
    {"penalty", "cvode-bdf"},    {"karnopp", "arkode-dirk"},
    {NULL, NULL},
};

static int expected_to_fail(const char *m, const char *s)
{
  for (size_t i = 0; cannot_step[i].model != NULL; i++)
    if (strcmp(cannot_step[i].model, m) == 0 && strcmp(cannot_step[i].stepper, s) == 0)
      return 1;
  return 0;
}

Test(matrix, every_stepper_every_ode_model, .timeout = 300)
{
  for (size_t m = 0; fb_model_registry[m] != NULL; m++) {
    const fb_model_type *mt = fb_model_registry[m];
    if (!(mt->caps & FB_MODEL_ODE))
      continue;
    for (size_t i = 0; fb_integrator_registry[i] != NULL; i++) {
      const fb_integrator_type *it = fb_integrator_registry[i];
      /* naive-sign runs at a fixed step (its chatter stalls an adaptive one); the adaptive-
       * only SUNDIALS steppers (docs/integrators/sundials.md) have none */
      if (strcmp(mt->name, "naive-sign") == 0 && !it->fixed_ok)
        continue;
      fb_case c;
      fb_err err;
      fb_run_result res;
      cr_assert_eq(fb_case_init(&c, "stick-slip", mt->name, it->name, &err), FB_OK, "%s", err.msg);
      if (strcmp(mt->name, "naive-sign") == 0 || !it->adaptive_ok)
        c.opts.h = 1e-4;
      else
        c.opts.atol = c.opts.rtol = 1e-6;
      /* a pair that cannot step ends at its first failure or, stalled, at a budget that
       * need not be large to show it */
      c.opts.max_steps = expected_to_fail(mt->name, it->name) ? 100000 : 1000000;
      cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
      fb_case_run(&c, NULL, NULL, &res);
      cr_log_info("%-14s %-8s %-8s t=%-8.4g steps=%lu rejected=%lu rhs=%lu %s\n", mt->name,
                  it->name, fb_status_name(res.status), res.t_reached, res.cnt.nsteps,
                  res.cnt.nrejected, res.cnt.nfe, res.message);
      if (expected_to_fail(mt->name, it->name))
        cr_expect_neq(res.status, FB_OK, "%s/%s was expected not to step through", mt->name,
                      it->name);
      else
        cr_expect_eq(res.status, FB_OK, "%s/%s on stick-slip: %s", mt->name, it->name,
                     res.message);
      fb_case_free(&c);
    }
  }
}
