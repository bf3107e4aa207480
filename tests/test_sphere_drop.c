/* test_sphere_drop.c — the sphere with spin dropped on a rough plane ([Xiong2013] §5.1;
 * docs/scenarios/sphere-drop.md): the closed form's numbered checks, the kinematic map
 * (quaternion rates, free-flight closed form, the norm metric flagging a drifting scheme and
 * not an exact one), and the treatments against the closed form. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_integrator_int.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_scenario.h"
#include "fb_seed_claims.h"
#include "fb_test.h"

static const double G = 9.81;

/* The default sphere-drop with assignments sets (NULL-terminated or NULL), built. */
static void build(fb_scenario *s, const char *const *sets)
{
  fb_err err = {0};
  cr_assert_eq(fb_scenario_init(s, fb_scenario_find("sphere-drop")), FB_OK);
  for (size_t i = 0; sets != NULL && sets[i] != NULL; i++) {
    char name[32];
    const char *eq = strchr(sets[i], '=');
    cr_assert(eq != NULL && (size_t)(eq - sets[i]) < sizeof name);
    snprintf(name, sizeof name, "%.*s", (int)(eq - sets[i]), sets[i]);
    cr_assert_eq(fb_params_set(s->type->params, "sphere-drop", s->params, name, eq + 1, &err),
                 FB_OK, "%s: %s", sets[i], err.msg);
  }
  cr_assert_eq(fb_scenario_build(s, &err), FB_OK, "%s", err.msg);
}

/* |u| = |J_t nu| of the closed form at t. */
static double slip_at(const fb_scenario *s, double t, double *x, double *v)
{
  cr_assert_eq(s->type->exact(s->params, t, x, v, NULL), FB_OK);
  return hypot(v[0] - 0.1 * v[4], v[1] + 0.1 * v[3]);
}

/* Check 1: t1, t_inf, |u0|, and rolling onset at t_roll = 2|u0|/(7 mu g) > t_inf. */
Test(sphere_drop, closed_form_times)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  const double t1 = sqrt(2 * 0.2 / G), t_inf = t1 * 1.5 / 0.5;
  cr_assert(fabs(t1 - 0.201928) < 5e-7 && fabs(t_inf - 0.605783) < 5e-7, "%g %g", t1, t_inf);
  cr_assert(fabs(slip_at(&s, 0, x, v) - 4.123106) < 5e-7);
  /* just before t1 the gap is positive; just after, the rebound rises at e v1 */
  s.type->exact(s.params, t1 - 1e-9, x, v, NULL);
  cr_assert(x[2] > 0.1 && v[2] < 0);
  s.type->exact(s.params, t1 + 1e-9, x, v, NULL);
  cr_assert(fabs(v[2] - 0.5 * G * t1) < 1e-7, "rebound %.9g", v[2]);
  const double t_roll = 2 * sqrt(17.0) / (7 * 0.1 * G);
  cr_assert(fabs(t_roll - 1.200846) < 5e-7, "%.9g", t_roll);
  cr_assert(slip_at(&s, t_roll - 1e-6, x, v) > 0, "still slipping before t_roll");
  cr_assert(slip_at(&s, t_roll + 1e-9, x, v) < 1e-12, "rolling after t_roll");
  fb_scenario_free(&s);
}

/* Check 2: at T, v = (6/7, -2/7), omega = (2.857143, 8.571429, 0) and kinetic energy
 * 1/2 (7/5) m |v_roll|^2 = 0.571429 J, against 3.0 + 1.962 J at the start. */
Test(sphere_drop, closed_form_final_state)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  s.type->exact(s.params, 2.0, x, v, NULL);
  cr_assert(fabs(v[0] - 6.0 / 7) < 1e-12 && fabs(v[1] + 2.0 / 7) < 1e-12, "%g %g", v[0], v[1]);
  cr_assert(fabs(v[3] - 2.857143) < 5e-7 && fabs(v[4] - 8.571429) < 5e-7 && v[5] == 0);
  cr_assert(v[2] == 0 && x[2] == 0.1);
  const double I0 = 0.4 * 0.01, ke = 0.5 * (v[0] * v[0] + v[1] * v[1]) +
                                     0.5 * I0 * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  cr_assert(fabs(ke - 0.571429) < 5e-7, "KE %.9g", ke);
  const double ke0 = 0.5 * 4 + 0.5 * I0 * (100 + 400);
  cr_assert(fabs(ke0 - 3.0) < 1e-12 && fabs(ke0 + G * 0.2 - 4.962) < 1e-12);
  fb_scenario_free(&s);
}

/* Check 3: after the first impact |u| = |u0| - 3.5 mu (1 + e) v1 = 3.083128 m/s. */
Test(sphere_drop, closed_form_first_impact)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  const double t1 = sqrt(2 * 0.2 / G);
  cr_assert(fabs(slip_at(&s, t1 + 1e-6, x, v) - 3.083128) < 5e-7, "%.9g",
            slip_at(&s, t1 + 1e-6, x, v));
  fb_scenario_free(&s);
}

/* Check 4 (second half): early-roll (mu = 0.2) starts rolling inside an impact; v_roll is
 * the same (6/7, -2/7), and rolling holds from there on. */
Test(sphere_drop, early_roll_same_v_roll)
{
  const char *sets[] = {"mu=0.2", NULL};
  fb_scenario s;
  build(&s, sets);
  double x[6], v[6];
  /* P_N needed: 2 m |u0| / (7 mu) = 5.890 N s; impact k delivers 2.971 0.5^k N s, so the
   * sum passes it at impact 6 (5.850 before, 5.896 after), at t_6 < t_inf */
  const double t1 = sqrt(2 * 0.2 / G), v1 = G * t1;
  double tk = t1;
  for (int k = 1; k <= 6; k++)
    tk += 2 * pow(0.5, k) * v1 / G;
  cr_assert(tk < t1 * 3, "t_6 = %g before t_inf", tk);
  cr_assert(slip_at(&s, tk - 1e-9, x, v) > 0.02, "slipping before impact 6 (0.028 m/s)");
  cr_assert(slip_at(&s, tk + 1e-9, x, v) < 1e-12, "rolling from impact 6");
  s.type->exact(s.params, 2.0, x, v, NULL);
  cr_assert(fabs(v[0] - 6.0 / 7) < 1e-12 && fabs(v[1] + 2.0 / 7) < 1e-12);
  fb_scenario_free(&s);
}

/* ---- the treatments against the closed form ------------------------------------------- */

typedef struct last_state {
  double t, Q[4];
  size_t qoff;
} last_state;

static int keep_last(void *ctx, double t, const double *y)
{
  last_state *ls = ctx;
  ls->t = t;
  memcpy(ls->Q, y + ls->qoff, sizeof ls->Q);
  return 0;
}

typedef struct sphere_run {
  fb_impact_stats st;
  fb_run_result res;
  double v[6];     /* at T */
  last_state last; /* attitude at T */
} sphere_run;

/* sphere-drop with model and assignments (NULL-terminated), inner stepper integ (NULL: the
 * default), tolerance tol or step h (> 0); statistics, end state and attitude into *o. */
static void run_sphere(const char *model, const char *integ, double h, double tol,
                       const char *const *sets, sphere_run *o)
{
  fb_case c;
  fb_err err = {0};
  fb_trace tr;
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, "sphere-drop", model, integ, &err), FB_OK, "%s", err.msg);
  for (size_t i = 0; sets != NULL && sets[i] != NULL; i++)
    cr_assert_eq(fb_case_set(&c, sets[i], &err), FB_OK, "%s: %s", sets[i], err.msg);
  if (h > 0)
    c.opts.h = h;
  else
    c.opts.atol = c.opts.rtol = tol;
  c.samples = 3;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_trace_alloc(&tr, 3, 6, 2, c.md.type->nz), FB_OK);
  fb_impact_stats_init(&o->st, 0);
  c.opts.stats = &o->st;
  o->last.qoff = 12 + 2 * c.md.type->nz;
  const fb_observer obs = {keep_last, &o->last};
  fb_case_run(&c, &tr, &obs, &o->res);
  cr_assert_eq(o->res.status, FB_OK, "%s", o->res.message);
  memcpy(o->v, tr.y + 2 * tr.dim + 6, sizeof o->v);
  fb_trace_free(&tr);
  fb_case_free(&c);
}

/* Check 2 on a run: v and omega at T to 1e-3 relative, kinetic energy 0.571429 J. */
static void expect_rolling(const sphere_run *o, const char *what)
{
  const double vr[6] = {6.0 / 7, -2.0 / 7, 0, 20.0 / 7, 60.0 / 7, 0};
  for (int k = 0; k < 6; k++)
    cr_expect(fabs(o->v[k] - vr[k]) <= 1e-3 * (k < 3 ? 6.0 / 7 : 60.0 / 7), "%s: v[%d] %.9g",
              what, k, o->v[k]);
  const double ke = 0.5 * (o->v[0] * o->v[0] + o->v[1] * o->v[1] + o->v[2] * o->v[2]) +
                    0.5 * 0.004 * (o->v[3] * o->v[3] + o->v[4] * o->v[4] + o->v[5] * o->v[5]);
  cr_expect(fabs(ke - 0.571429) < 1e-3 * 0.571429, "%s: KE %.9g", what, ke);
}

/* newton, the reference: onset to the tolerance (O(tol)), |u| after impact 0 (check 3),
 * rolling at T (check 2); its attitude keeps |Q| = 1 to round-off (the metric must not
 * flag it). */
Test(sphere_drop, newton_reproduces_closed_form)
{
  const char *sets[] = {"normal=newton", NULL};
  sphere_run o;
  run_sphere("smooth-sign", NULL, 0, 1e-10, sets, &o);
  const double t_roll = 2 * sqrt(17.0) / (7 * 0.1 * G);
  cr_expect(fabs(o.st.t_stop - t_roll) < 1e-6, "onset %.9g vs %.9g", o.st.t_stop, t_roll);
  cr_expect(fabs(o.st.vt_after_first - 3.083128) < 1e-6, "|u|+ %.9g", o.st.vt_after_first);
  cr_expect(fabs(o.st.t_rest - sqrt(0.4 / G) * 3) < 1e-6, "t_inf %.9g", o.st.t_rest);
  expect_rolling(&o, "newton");
  cr_expect(o.res.q_norm_err < 1e-10, "|Q| drift %g", o.res.q_norm_err);
}

/* early-roll: newton starts rolling at impact 6 (inside an impact), same v_roll. */
Test(sphere_drop, newton_early_roll)
{
  const char *sets[] = {"normal=newton", "mu=0.2", NULL};
  sphere_run o;
  run_sphere("smooth-sign", NULL, 0, 1e-10, sets, &o);
  const double t1 = sqrt(0.4 / G), v1 = G * t1;
  double t6 = t1;
  for (int k = 1; k <= 6; k++)
    t6 += 2 * pow(0.5, k) * v1 / G;
  cr_expect(fabs(o.st.t_stop - t6) < 1e-6, "onset %.9g vs impact 6 at %.9g", o.st.t_stop, t6);
  expect_rolling(&o, "newton early-roll");
}

/* moreau-jean (h = 1 ms): onset to O(h), rolling at T; the exponential map keeps |Q| = 1. */
Test(sphere_drop, moreau_jean_rolls)
{
  const char *sets[] = {"normal=moreau-jean", NULL};
  sphere_run o;
  run_sphere("smooth-sign", NULL, 1e-3, 0, sets, &o);
  const double t_roll = 2 * sqrt(17.0) / (7 * 0.1 * G);
  cr_expect(fabs(o.st.t_stop - t_roll) < 2e-3, "onset %.9g vs %.9g", o.st.t_stop, t_roll);
  expect_rolling(&o, "moreau-jean");
  cr_expect(o.res.q_norm_err < 1e-12, "|Q| drift %g", o.res.q_norm_err);
}

/* The force laws: onset within the contact time plus O(h) of the closed form, rolling at T,
 * and check 3 with the law's own e_eff: |u|+ = |u0| - 3.5 mu P / m (the slip persists
 * through the first contact) with P = m (1 + e_eff) v_in + m g (t_out - t_in), the normal
 * impulse of the contact phase (the last term, gravity's impulse over the ~4 ms contact,
 * is what an impulsive contact does not have: 0.014 m/s of |u| here). */
Test(sphere_drop, force_laws_roll)
{
  static const char *const normals[] = {"normal=penalty-n", "normal=hunt-crossley",
                                        "normal=kikuuwe-n"};
  const double t_roll = 2 * sqrt(17.0) / (7 * 0.1 * G);
  for (size_t k = 0; k < 3; k++) {
    const char *sets[] = {normals[k], NULL};
    sphere_run o;
    run_sphere("smooth-sign", NULL, 0, k == 2 ? 1e-6 : 1e-9, sets, &o);
    cr_expect(fabs(o.st.t_stop - t_roll) < 0.03, "%s: onset %.9g", normals[k], o.st.t_stop);
    expect_rolling(&o, normals[k]);
    const double vin = -o.st.v_in[0], e_eff = o.st.v_out[0] / vin;
    const double P = (1 + e_eff) * vin + G * (o.st.t_out[0] - o.st.t_in[0]);
    const double want = sqrt(17.0) - 3.5 * 0.1 * P;
    cr_expect(fabs(o.st.vt_after_first - want) < 1e-4, "%s: |u|+ %.6g, want %.6g (e_eff %.4g)",
              normals[k], o.st.vt_after_first, want, e_eff);
  }
}

/* Check 4: in free flight (h0 = 50 m: no impact before T = 0.15 s) the attitude is
 * Q(t) = (cos(|w0| t/2), sin(|w0| t/2) w0/|w0|) (x) Q0; with w0 = (10, -20, 0) rad/s,
 * |w0| = 22.360680 rad/s, at t = 0.15 s: Q = (-0.106055, 0.444691, -0.889383, 0). */
Test(sphere_drop, free_flight_quaternion)
{
  const char *sets[] = {"normal=newton", "h0=50", "T=0.15", NULL};
  sphere_run o;
  run_sphere("smooth-sign", NULL, 0, 1e-11, sets, &o);
  cr_assert(o.st.n == 0, "no impact");
  const double wn = sqrt(500.0), a = 0.5 * wn * 0.15;
  const double Q[4] = {cos(a), sin(a) * 10 / wn, sin(a) * -20 / wn, 0};
  cr_expect(fabs(Q[0] + 0.106055) < 5e-7 && fabs(Q[1] - 0.444691) < 5e-7 &&
            fabs(Q[2] + 0.889383) < 5e-7);
  cr_assert(o.last.t == 0.15);
  for (int k = 0; k < 4; k++)
    cr_expect(fabs(o.last.Q[k] - Q[k]) < 1e-8, "Q[%d] %.12g vs %.12g", k, o.last.Q[k], Q[k]);
}

/* The norm metric must flag a coarse explicit scheme (rk2 at tol 1e-2: the attitude leaves
 * the unit sphere by ~1e-3) and must not flag rk8pd at 1e-9; renorm=1 removes the drift it
 * flagged (and says so: the option is the plant's, off by default). */
Test(sphere_drop, norm_metric_flags_drift)
{
  const char *sets[] = {"normal=newton", NULL};
  const char *renorm[] = {"normal=newton", "renorm=1", NULL};
  sphere_run coarse, fine, fixed;
  run_sphere("smooth-sign", "rk2", 0, 1e-2, sets, &coarse);
  run_sphere("smooth-sign", "rk8pd", 0, 1e-9, sets, &fine);
  run_sphere("smooth-sign", "rk2", 0, 1e-2, renorm, &fixed);
  cr_expect(coarse.res.q_norm_err > 1e-4, "rk2 coarse: %g", coarse.res.q_norm_err);
  cr_expect(fine.res.q_norm_err < 1e-10, "rk8pd: %g", fine.res.q_norm_err);
  cr_expect(fixed.res.q_norm_err < 1e-14, "rk2 renormalized: %g", fixed.res.q_norm_err);
  expect_rolling(&coarse, "rk2 coarse"); /* the dynamics do not depend on Q */
}

/* Refusals are data, with a reason: a stepper without takes_quat (the implicit GSL ones,
 * whose Jacobian has no rows for Q, and the model-owned schemes), a friction model without a
 * vector ODE law under a force law, one that reads f_app; the contact scheme and the
 * explicit GSL steppers take the plant.  A bad renorm exits with the value named. */
Test(sphere_drop, refusals_with_reason)
{
  fb_scenario s;
  build(&s, NULL);
  const fb_model_type *mt = fb_model_find("smooth-sign");
  cr_assert_not_null(mt);
  cr_expect(fb_integrator_takes_quat(&fb_integrator_contact, &s.plant) == 1);
  cr_expect(fb_integrator_takes_quat(fb_integrator_find(mt, "rk4"), &s.plant) == 1);
  cr_expect(fb_integrator_takes_quat(fb_integrator_find(mt, "rk2imp"), &s.plant) == 0);
  const fb_model_type *sw = fb_model_find("switching");
  cr_assert_not_null(sw);
  cr_expect(fb_integrator_takes_quat(fb_integrator_find(sw, "event"), &s.plant) == 0);
  fb_scenario_free(&s);
  static const char *const models[][2] = {{"switching", "no vector force law"},
                                          {"karnopp", "f_app"}};
  for (size_t k = 0; k < 2; k++) {
    fb_case c;
    fb_err err = {0};
    cr_assert_eq(fb_case_init(&c, "sphere-drop", models[k][0], NULL, &err), FB_OK);
    cr_assert_eq(fb_case_set(&c, "scenario.normal=penalty-n", &err), FB_OK);
    cr_expect_eq(fb_case_prepare(&c, &err), FB_EUNSUP, "%s", models[k][0]);
    cr_expect(strstr(err.msg, models[k][1]) != NULL, "%s: %s", models[k][0], err.msg);
    fb_case_free(&c);
  }
  char out[256], errb[512];
  const char *argv[] = {"run", "-s", "sphere-drop", "-m", "smooth-sign", "--set", "renorm=2", NULL};
  cr_expect_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2);
  cr_expect(strstr(errb, "renorm") != NULL, "%s", errb);
}

/* Seed 002's claim on this system (bench/analysis/seed_claims.c), on synthetic rows: the
 * sphere rolls from within 0.05 s of the closed form's onset with lambda_n >= 0:
 * reproduced; a late onset and a pulling contact force: not reproduced. */
Test(sphere_drop, seed_claim_rule)
{
  static const char hdr[] = "group,tag,scenario,model,integrator,status,stop_time_err,err_v_T,"
                            "lambda_min\n";
  static const struct {
    const char *row, *verdict;
  } cases[] = {
      {"sphere,claim-rk4,sphere-drop,kikuuwe,contact,ok,0.0157,3.5e-9,0\n", "reproduced"},
      {"sphere,claim-rk4,sphere-drop,kikuuwe,contact,ok,0.2,3.5e-9,-1\n", "not reproduced"},
      {"sphere,claim-rk4,sphere-drop,kikuuwe,contact,ok,0.0157,3.5e-9,-1\n", "partly"},
      {"sphere,claim-rk4,sphere-drop,kikuuwe,contact,failed,nan,nan,nan\n", "not measured"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    char text[512];
    snprintf(text, sizeof text, "%s%s", hdr, cases[k].row);
    fb_claims c;
    fb_err err = {{0}};
    cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK, "%s",
                 err.msg);
    const fb_claim *r = NULL;
    for (size_t i = 0; i < c.n; i++)
      if (strstr(c.r[i].claim, "sphere dropped with spin") != NULL)
        r = &c.r[i];
    cr_assert_not_null(r);
    cr_expect_str_eq(r->verdict, cases[k].verdict, "case %zu: %s", k, r->why);
  }
}

/* rest = 1 (on the plane from t = 0, no normal contact): the friction-only plant under the
 * generic GSL steppers (integrators/system.c integrates the attitude).  rkf45 at 1e-10
 * rolls at v_roll; fixed-step rk4 at h = 0.02 (|w| h = 0.45) leaves the unit sphere by
 * ~1e-4 (flagged) and at h = 1e-3 by ~1e-12 (not flagged); an implicit stepper, whose
 * Jacobian has no rows for Q, is refused with the reason. */
Test(sphere_drop, rest_generic_steppers)
{
  const char *sets[] = {"rest=1", NULL};
  sphere_run o, coarse, fine;
  run_sphere("smooth-sign", "rkf45", 0, 1e-10, sets, &o);
  expect_rolling(&o, "rest rkf45");
  run_sphere("smooth-sign", "rk4", 0.02, 0, sets, &coarse);
  run_sphere("smooth-sign", "rk4", 1e-3, 0, sets, &fine);
  cr_expect(coarse.res.q_norm_err > 1e-5, "rk4 h = 0.02: %g", coarse.res.q_norm_err);
  cr_expect(fine.res.q_norm_err < 1e-10, "rk4 h = 1e-3: %g", fine.res.q_norm_err);
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, "sphere-drop", "smooth-sign", "rk2imp", &err), FB_OK);
  cr_assert_eq(fb_case_set(&c, "rest=1", &err), FB_OK);
  cr_expect_eq(fb_case_prepare(&c, &err), FB_EUNSUP);
  cr_expect(strstr(err.msg, "rk2imp does not integrate the attitude") != NULL, "%s", err.msg);
  fb_case_free(&c);
}
