/* test_impacts.c — normal contacts (docs/design.md §12): the closed forms of bouncing-ball
 * and block-drop, the event-driven newton treatment reproducing them, penalty-n against
 * the linear restitution formula, kikuuwe-n's DAI residual, no sucking and its e rising
 * with c, and bad parameters exiting 2. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_scenario.h"
#include "fb_test.h"

static const double G = 9.81;

/* Run a contact scenario with the given assignments (NULL-terminated) and collect the
 * contact scheme's statistics. */
static void stats(const char *scenario, const char *const *sets, fb_impact_stats *s,
                  fb_counters *cnt)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, scenario, "smooth-sign", NULL, &err), FB_OK, "%s", err.msg);
  for (size_t i = 0; sets != NULL && sets[i] != NULL; i++)
    cr_assert_eq(fb_case_set(&c, sets[i], &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_contact_run_stats(&c.pb, &c.opts, s, cnt, &err), FB_OK, "%s", err.msg);
  fb_case_free(&c);
}

static double e_first(const fb_impact_stats *s)
{
  cr_assert(s->n >= 1 && isfinite(s->v_out[0]) && s->v_in[0] < 0);
  return -s->v_out[0] / s->v_in[0];
}

Test(impacts, bouncing_ball_closed_form)
{
  const fb_scenario_type *t = fb_scenario_find("bouncing-ball");
  cr_assert_not_null(t);
  fb_scenario sc;
  cr_assert_eq(fb_scenario_init(&sc, t), FB_OK);
  const double e = 0.7, t1 = sqrt(2 / G), v1 = G * t1, t_inf = t1 * (1 + e) / (1 - e);
  double x, v;
  t->exact(sc.params, t1 * (1 - 1e-12), &x, &v, NULL);
  cr_assert(fabs(x) < 1e-11 && fabs(v + v1) < 1e-10, "first impact at sqrt(2h/g)");
  /* apex of the first flight: (e v1)^2 / (2 g) */
  t->exact(sc.params, t1 + e * v1 / G, &x, &v, NULL);
  cr_assert(fabs(x - e * e * v1 * v1 / (2 * G)) < 1e-12 && fabs(v) < 1e-12);
  /* the flights sum to t_inf, then rest */
  double tk = t1;
  for (int k = 1; k < 200; k++)
    tk += 2 * pow(e, k) * v1 / G;
  cr_assert(fabs(tk - t_inf) < 1e-12, "sum of flights %.15g vs t_inf %.15g", tk, t_inf);
  t->exact(sc.params, t_inf + 1e-9, &x, &v, NULL);
  cr_assert(x == 0 && v == 0);
  fb_scenario_free(&sc);
}

Test(impacts, newton_reproduces_bouncing_ball)
{
  static const double es[] = {0.7, 0.3};
  for (size_t q = 0; q < 2; q++) {
    const double e = es[q], t1 = sqrt(2 / G), v1 = G * t1, t_inf = t1 * (1 + e) / (1 - e);
    char a[32];
    snprintf(a, sizeof a, "e=%g", e);
    const char *sets[] = {a, "normal=newton", NULL};
    fb_impact_stats s;
    stats("bouncing-ball", sets, &s, NULL);
    cr_assert(fabs(s.t_in[0] - t1) < 1e-9, "first impact %.15g vs %.15g", s.t_in[0], t1);
    double tk = t1;
    for (size_t k = 0; k < 10 && k < s.n; k++) {
      cr_assert(fabs(s.t_in[k] - tk) < 1e-9, "impact %zu at %.15g vs %.15g", k, s.t_in[k], tk);
      cr_assert(fabs(-s.v_out[k] / s.v_in[k] - e) < 1e-12);
      tk += 2 * pow(e, (double)k + 1) * v1 / G;
    }
    cr_assert(fabs(s.t_rest - t_inf) < 1e-9, "rest from %.15g vs t_inf %.15g", s.t_rest, t_inf);
    cr_assert(s.min_lambda >= 0);
  }
}

Test(impacts, newton_rests_with_weight)
{
  fb_run_result res;
  fb_trace tr;
  const char *sets[] = {"normal=newton", "e=0.3", NULL};
  fbt_run("bouncing-ball", "naive-sign", "contact", 0, 1e-9, sets, 41, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  /* after t_inf = 0.8385 the ball rests on the ground */
  for (size_t k = 0; k < tr.ns; k++)
    if (tr.t[k] > 0.9)
      cr_assert(fabs(tr.y[k * tr.dim]) < 1e-12 && fabs(tr.y[k * tr.dim + 1]) < 1e-12,
                "x(%g) = %g", tr.t[k], tr.y[k * tr.dim]);
  fb_trace_free(&tr);
}

Test(impacts, block_drop_closed_form_and_newton)
{
  const double h = 0.5, u0 = 2, mu = 0.3, t1 = sqrt(2 * h / G);
  const double up = u0 - fmin(u0, mu * sqrt(2 * G * h)), ts = t1 + up / (mu * G);
  const fb_scenario_type *t = fb_scenario_find("block-drop");
  fb_scenario sc;
  cr_assert_eq(fb_scenario_init(&sc, t), FB_OK);
  double x[2], v[2], F;
  t->exact(sc.params, t1 + 1e-12, x, v, &F);
  cr_assert(fabs(v[0] - up) < 1e-10 && F < 0);
  t->exact(sc.params, ts + 1e-9, x, v, &F);
  cr_assert(v[0] == 0 && F == 0, "at rest after u+/(mu g)");
  fb_scenario_free(&sc);
  const char *sets[] = {"normal=newton", NULL};
  fb_impact_stats s;
  stats("block-drop", sets, &s, NULL);
  cr_assert(fabs(s.t_in[0] - t1) < 1e-9, "impact at %.15g vs %.15g", s.t_in[0], t1);
  cr_assert(fabs(s.vt_after_first - up) < 1e-9, "u+ %.15g vs %.15g", s.vt_after_first, up);
  cr_assert(fabs(s.t_stop - ts) < 1e-9, "stop at %.15g vs %.15g", s.t_stop, ts);
  /* the final position against the closed form */
  fb_run_result res;
  fb_trace tr;
  fbt_run("block-drop", "naive-sign", "contact", 0, 1e-10, sets, 11, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  cr_assert_eq(fb_scenario_init(&sc, t), FB_OK);
  t->exact(sc.params, 1.5, x, v, NULL);
  const double *yT = tr.y + (tr.ns - 1) * tr.dim;
  cr_assert(fabs(yT[0] - x[0]) < 1e-9, "x(T) %.15g vs %.15g", yT[0], x[0]);
  fb_scenario_free(&sc);
  fb_trace_free(&tr);
}

/* The raw (unclipped) linear element's restitution tends to exp(-zeta pi/sqrt(1-zeta^2))
 * as gravity's share of the contact force, m g / (c_N delta), vanishes; the clipped one
 * never pulls and bounces at least as much. */
Test(impacts, penalty_n_linear_formula)
{
  const double e = 0.5;
  double prev = INFINITY;
  static const char *const cN[] = {"normal.cN=1e3", "normal.cN=1e5", "normal.cN=1e7"};
  for (size_t k = 0; k < 3; k++) {
    const char *sets[] = {"e=0.5", "T=1", "normal=penalty-n", cN[k], "normal.clip=0", NULL};
    fb_impact_stats s;
    stats("bouncing-ball", sets, &s, NULL);
    const double err = fabs(e_first(&s) - e);
    cr_assert(err < prev, "cN step %zu: |e_eff - e| = %g did not shrink (was %g)", k, err, prev);
    prev = err;
    const char *sets2[] = {"e=0.5", "T=1", "normal=penalty-n", cN[k], NULL};
    fb_impact_stats s2;
    stats("bouncing-ball", sets2, &s2, NULL);
    cr_assert(s2.min_lambda >= 0, "clipped penalty-n pulled: %g", s2.min_lambda);
    cr_assert(e_first(&s2) >= e_first(&s) - 1e-9);
  }
  cr_assert(prev < 1e-3, "stiffest: |e_eff - e| = %g", prev);
}

Test(impacts, kikuuwe_n_dai_residual)
{
  /* lambda in dio(-p - c lambda): lambda >= 0, -p - c lambda <= 0, their product 0 */
  const double np[FB_NORMAL_NP] = {1e4, 20, 1e-5};
  for (int i = -50; i <= 50; i++) {
    const double p = ldexp((double)i, -20 + i % 7), g = 0.3 * p, gd = -0.1 * i;
    double s = p, ds;
    const double lam = fb_normal_kikuuwe.force(np, g, gd, &s, &ds);
    const double z = -p - np[2] * lam;
    cr_assert(lam >= 0, "attractive lambda %g at p = %g", lam, p);
    cr_assert(z <= 4 * DBL_EPSILON * fabs(p), "z = %g > 0 at p = %g", z, p);
    cr_assert(fabs(lam * z) <= 4 * DBL_EPSILON * fabs(p) * lam + 0.0,
              "complementarity residual %g at p = %g", lam * z, p);
  }
}

Test(impacts, kikuuwe_n_never_attractive_and_e_rises_with_c)
{
  static const char *const cs[] = {"normal.c=1e-6", "normal.c=1e-5", "normal.c=1e-4"};
  double prev = -1;
  for (size_t k = 0; k < 3; k++) {
    const char *sets[] = {"T=1", "normal=kikuuwe-n", "normal.K=1e4", "normal.B=20", cs[k], NULL};
    fb_impact_stats s;
    stats("bouncing-ball", sets, &s, NULL);
    cr_assert(s.min_lambda >= 0, "attractive: %g", s.min_lambda);
    const double e = e_first(&s);
    cr_assert(e > prev + 0.005, "%s: e_eff %g not above %g", cs[k], e, prev);
    prev = e;
  }
}

Test(impacts, bad_parameters_exit_2)
{
  static const char *const cases[][8] = {
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "e=1.5", NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal.cN=-1", NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal.e=-0.1", NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal.nope=1", NULL},
      {"run", "-s", "stick-slip", "-m", "naive-sign", "--set", "normal.cN=1", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[4096], err[4096];
    cr_assert_eq(fbt_cli(cases[i], out, sizeof out, err, sizeof err), 2, "case %zu: %s", i, err);
    cr_assert_eq(fbt_lines(err), 1, "case %zu: one line, got: %s", i, err);
    cr_assert_eq(out[0], '\0', "case %zu: no partial output", i);
  }
  const char *kik[] = {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set",
                       "normal=kikuuwe-n", "--set", "normal.c=0", NULL};
  char out[4096], err[4096];
  cr_assert_eq(fbt_cli(kik, out, sizeof out, err, sizeof err), 2, "%s", err);
  cr_assert_eq(fbt_lines(err), 1, "%s", err);
}

/* impact-oscillator ([Engleder2002] §3, e = 0.3, Omega = 0.81): flight, impacts and persistent
 * contact released by the forcing; newton's state at T agrees across tolerances, never
 * penetrates and never pulls. */
Test(impacts, impact_oscillator_newton_consistent)
{
  double yT[2][2];
  static const double tols[] = {1e-9, 1e-12};
  for (size_t k = 0; k < 2; k++) {
    fb_run_result res;
    fb_trace tr;
    const char *sets[] = {"normal=newton", "T=100", NULL};
    fbt_run("impact-oscillator", "naive-sign", "contact", 0, tols[k], sets, 3, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    cr_assert(res.cnt.nevents > 50, "impacts: %lu events", res.cnt.nevents);
    memcpy(yT[k], tr.y + (tr.ns - 1) * tr.dim, 2 * sizeof(double));
    fb_trace_free(&tr);
  }
  cr_assert(fabs(yT[0][0] - yT[1][0]) < 1e-9 && fabs(yT[0][1] - yT[1][1]) < 1e-9,
            "x(T) %.12g vs %.12g", yT[0][0], yT[1][0]);
  const char *sets[] = {"normal=newton", "T=100", NULL};
  fb_impact_stats s;
  stats("impact-oscillator", sets, &s, NULL);
  /* the release is located where lambda_n has just turned negative: round-off of A = 1e-3 */
  cr_assert(s.max_pen < 1e-12 && s.min_lambda > -1e-15, "pen %g, min lambda %g", s.max_pen,
            s.min_lambda);
}
