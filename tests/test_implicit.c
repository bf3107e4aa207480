/* test_implicit.c — the fixed-step implicit Euler / BDF2 integrators (implicit_newton.c)
 * and the refusal of bsimp's silently frozen fixed steps. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_test.h"
#include "fb_test_order.h"

/* Before: fixed-step bsimp kept the state whenever its runaway test refused a step, so
 * LuGre on glowinski-tp1 froze at x = 0.318 from t = 0.6 on at every h and the run said
 * ok.  Now the run fails and says why. */
Test(implicit, bsimp_refusal_is_a_failure)
{
  fb_run_result res;
  fbt_run("glowinski-tp1", "lugre", "bsimp", 1e-3, 0, NULL, 2, NULL, NULL, &res);
  cr_assert_neq(res.status, FB_OK, "bsimp's refused step was accepted");
  cr_assert(strstr(res.message, "bsimp refused the step") != NULL, "%s", res.message);
  cr_assert(res.t_reached < 2.0);
}

/* The stiff bristle laws at a fixed 1 ms step: x(2) near the Coulomb limit 2/pi.  The
 * tolerance 3e-3 is lugre's/elastoplastic's modelling error at f_ratio 100 (E_mod ~1e-3
 * in L2) plus BDF2's discretization error at 1 ms (~2e-4); the frozen run was 0.318 off. */
Test(implicit, bristle_laws_reach_the_coulomb_limit)
{
  const char *models[] = {"lugre", "elastoplastic", "dahl"};
  for (size_t m = 0; m < 3; m++) {
    fb_trace tr;
    fb_run_result res;
    fbt_run("glowinski-tp1", models[m], "bdf2", 1e-3, 0, NULL, 2001, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK, "%s: %s", models[m], res.message);
    const double xT = tr.y[(tr.ns - 1) * tr.dim];
    cr_log_info("%s/bdf2 h=1e-3: x(2) = %.6f (Coulomb 2/pi = %.6f)\n", models[m], xT, 2 / M_PI);
    cr_assert(fabs(xT - 2.0 / M_PI) < 3e-3, "%s: x(2) = %.6f", models[m], xT);
    cr_assert(res.cnt.ninner > 0 && res.cnt.njac > 0, "Newton iterations not counted");
    fb_trace_free(&tr);
  }
}

/* Orders of the discretization error alone: against the same model solved by the same
 * scheme 16 x finer than the finest rung (the modelling error cancels). */
static double ladder_order(const char *scenario, const char *model, const char *integ)
{
  enum { NH = 5 };
  double hs[NH], es[NH];
  const double h0 = 2.2e-3;
  fb_trace ref;
  fb_run_result res;
  fbt_run(scenario, model, integ, h0 / pow(1.7, NH - 1) / 16, 0, NULL, 1001, &ref, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  for (size_t k = 0; k < NH; k++) {
    fb_trace tr;
    hs[k] = h0 / pow(1.7, (double)k);
    fbt_run(scenario, model, integ, hs[k], 0, NULL, 1001, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK, "%s h=%g: %s", integ, hs[k], res.message);
    double s2 = 0.0, dp = 0.0;
    for (size_t i = 0; i < tr.ns; i++) {
      const double d = tr.y[i * tr.dim] - ref.y[i * ref.dim];
      if (i > 0)
        s2 += 0.5 * (tr.t[i] - tr.t[i - 1]) * (d * d + dp * dp);
      dp = d;
    }
    es[k] = sqrt(s2);
    cr_log_info("%s/%s/%s h=%.4g: E_disc L2 %.3e\n", scenario, model, integ, hs[k], es[k]);
    fb_trace_free(&tr);
  }
  fb_trace_free(&ref);
  size_t lo, hi;
  return fbo_order(hs, es, NH, &lo, &hi);
}

Test(implicit, orders_on_stick_slip)
{
  const double p1 = ladder_order("stick-slip", "lugre", "beuler");
  const double p2 = ladder_order("stick-slip", "lugre", "bdf2");
  cr_log_info("lugre on stick-slip: beuler order %.3f, bdf2 order %.3f\n", p1, p2);
  cr_assert(fabs(p1 - 1.0) < 0.25, "beuler order %.3f", p1);
  cr_assert(fabs(p2 - 2.0) < 0.4, "bdf2 order %.3f", p2);
}

Test(implicit, adaptive_use_is_refused)
{
  char dir[64], path[96], out[256], errb[512];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/x.csv", dir);
  const char *argv[] = {"run", "-s", "stick-slip", "-m", "lugre", "-i", "bdf2", "--tol", "1e-6",
                        "-o", path, NULL};
  cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2, "%s", errb);
  cr_assert(strstr(errb, "bdf2 has no adaptive mode") != NULL, "%s", errb);
  cr_assert_eq(fbt_dir_entries(dir), 0, "a partial output file was left");
  fbt_rmdir(dir);
}

/* Before: at t = 2 of glowinski-2dof both DOFs break loose from stick as the forcing jumps,
 * and beuler's/bdf2's Newton and Powell's hybrid method, started from y_n (every v_r near
 * the kink of |v_r|, the bristle's z-rate sigma0 |v_r| / S flat there), found no root of the
 * step's equation: lugre, elastoplastic and gms failed at t = 2 + h for every h >= 2.3e-3
 * (elastoplastic at every rung of the ladder).  The root exists (the step's friction map is
 * monotone apart from the velocity weakening's slope -c beta/eps, which m/h >> beta/eps
 * dominates); continuation in the step from base finds it.  Now the runs reach T and x1(4)
 * is the closed form's -1/6 within the first-order error of h = 9.1e-3 (measured 0.01). */
Test(implicit, break_loose_at_a_forcing_jump_converges)
{
  const char *models[] = {"lugre", "elastoplastic", "gms"};
  const char *integs[] = {"beuler", "bdf2"};
  for (size_t m = 0; m < 3; m++)
    for (size_t i = 0; i < 2; i++) {
      fb_trace tr;
      fb_run_result res;
      fbt_run("glowinski-2dof", models[m], integs[i], 9.1e-3, 0, NULL, 401, &tr, NULL, &res);
      cr_assert_eq(res.status, FB_OK, "%s/%s: %s", models[m], integs[i], res.message);
      const double x1 = tr.y[(tr.ns - 1) * tr.dim];
      cr_log_info("%s/%s h=9.1e-3: x1(4) = %.6f (closed form -1/6)\n", models[m], integs[i], x1);
      cr_assert(fabs(x1 + 1.0 / 6.0) < 0.05, "%s/%s: x1(4) = %.6f", models[m], integs[i], x1);
      fb_trace_free(&tr);
    }
}
