/* test_karnopp.c — Karnopp's velocity window (docs/design.md §3 M7): the stick force is
 * -f_app (a preload held exactly), the window size effect on stick (too wide: spurious
 * stick; too narrow for the step: the velocity jumps across it and chatters, stick is
 * lost), and the multi-contact weakness: on glowinski-2dof (coupled contacts) f_app omits
 * the other contact's friction and an error-controlled stepper collapses, where on
 * glowinski-3dof (uncoupled contacts) it costs what the event-driven switching model does.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_system.h"
#include "fb_test.h"
#include "fb_test_order.h"
#include "fb_plant_int.h"
#include "fb_model_int.h"
#include "fb_integrator_int.h"

/* A preloaded spring (0.75 Fs) plus forcing (0.125 Fs) on stick-slip: the stick force is
 * -f_app, so the mass (m = 1) has zero acceleration and stays exactly at rest, at a huge
 * fixed step and under error control alike. */
typedef struct hold {
  size_t steps, moved, unstuck;
} hold;

static int hold_step(void *ctx, double t, const double *y)
{
  hold *h = ctx;
  (void)t;
  h->steps++;
  if (!(y[0] == 3.0 && y[1] == 0.0))
    h->moved++;
  return 0;
}

Test(karnopp, holds_a_preload_exactly)
{
  const char *sets[] = {"D=0", "v0=0", "y0=3", "A=0.5", "T=100", NULL};
  const char *integ[] = {"rk4", "rkf45"};
  for (size_t q = 0; q < 2; q++) {
    hold o = {0};
    fb_observer obs = {hold_step, &o};
    fb_run_result res;
    fbt_run("stick-slip", "karnopp", integ[q], q == 0 ? 0.1 : 0, 1e-8, sets, 2, NULL, &obs, &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    cr_assert_eq(o.moved, 0, "%s: %zu of %zu steps moved", integ[q], o.moved, o.steps);
  }
}

/* Stick fraction (the model's flag) and sign changes of v on a 10001-point grid. */
typedef struct frac {
  double stick;
  size_t sign_changes;
} frac;

static frac stick_fraction(const char *model, const char *integ, double h, double tol,
                           const char *const *sets)
{
  fb_trace tr;
  fb_run_result res;
  fbt_run("stick-slip", model, integ, h, tol, sets, 10001, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  frac f = {0, 0};
  double vp = 0.0;
  for (size_t k = 0; k < tr.ns; k++) {
    const double v = tr.y[k * tr.dim + 1];
    f.stick += tr.stick[k] == 1;
    if (k > 0 && v * vp < 0)
      f.sign_changes++;
    vp = v;
  }
  f.stick /= (double)tr.ns;
  fb_trace_free(&tr);
  return f;
}

/* stick-slip under fixed-step rk4 at h = 1e-3: the stick fraction falls monotonically as
 * the window narrows; at the default window it matches the event-driven reference's; a
 * window 100 x wider sticks where the reference slips; one 1000 x narrower than the
 * default is crossed in one step (h |a| > 2 dv): the velocity chatters and stick is lost. */
Test(karnopp, window_size_effect_on_stick)
{
  const frac ref = stick_fraction("switching", "event", 0, 1e-10, NULL);
  const char *ratios[] = {"dv_ratio=1e-1", "dv_ratio=1e-2", "dv_ratio=1e-3",
                          "dv_ratio=1e-4", "dv_ratio=1e-5", "dv_ratio=1e-6"};
  frac f[6];
  for (size_t k = 0; k < 6; k++) {
    const char *sets[] = {ratios[k], NULL};
    f[k] = stick_fraction("karnopp", "rk4", 1e-3, 0, sets);
    cr_log_info("stick-slip karnopp rk4 h=1e-3 %s: stick fraction %.3f (reference %.3f), %zu "
                "sign changes of v\n",
                ratios[k], f[k].stick, ref.stick, f[k].sign_changes);
    if (k > 0)
      cr_assert(f[k].stick <= f[k - 1].stick + 0.01, "monotone in dv");
  }
  cr_assert(fabs(f[2].stick - ref.stick) < 0.03, "default window: %.3f vs %.3f", f[2].stick,
            ref.stick);
  cr_assert(f[2].sign_changes <= 2);
  cr_assert(f[0].stick > ref.stick + 0.1, "wide window over-sticks: %.3f", f[0].stick);
  cr_assert(f[5].stick < 0.6 * ref.stick, "narrow window loses stick: %.3f", f[5].stick);
  cr_assert(f[5].sign_changes > 50, "narrow window chatters: %zu", f[5].sign_changes);
}

/* L2 errors of an adaptive run against the closed form, and its counters. */
static fbo_err adaptive_err(const char *scenario, const char *model, const char *integ,
                            double tol)
{
  fb_scenario sc;
  fbo_scenario_open(&sc, scenario, NULL);
  fbo_acc a = {.sc = &sc, .n = sc.plant.n};
  fb_observer obs = {fbo_step, &a};
  fbo_err e;
  fbt_run(scenario, model, integ, 0, tol, NULL, 2, NULL, &obs, &e.res);
  cr_assert_eq(e.res.status, FB_OK, "%s/%s: %s", scenario, model, e.res.message);
  e.x = sqrt(a.sx);
  e.v = sqrt(a.sv);
  e.xT = a.exT;
  fb_scenario_free(&sc);
  return e;
}

/* Coupled contacts (glowinski-2dof: non-diagonal M, one contact sticks while the other
 * slides) cost rkf45 hundreds of times the event-driven switching model's evaluations at
 * the same tolerance; uncoupled ones (glowinski-3dof, diagonal M) do not. */
Test(karnopp, multi_contact_weakness)
{
  const char *sc[] = {"glowinski-3dof", "glowinski-2dof"};
  double ratio[2];
  for (size_t s = 0; s < 2; s++) {
    const fbo_err k = adaptive_err(sc[s], "karnopp", "rkf45", 1e-6);
    const fbo_err w = adaptive_err(sc[s], "switching", "event", 1e-6);
    ratio[s] = (double)k.res.cnt.nfe / (double)w.res.cnt.nfe;
    cr_log_info("%s tol 1e-6: karnopp/rkf45 %lu steps %lu RHS, L2 x %.2e v %.2e; "
                "switching/event %lu steps %lu RHS, L2 x %.2e v %.2e; RHS ratio %.1f\n",
                sc[s], k.res.cnt.nsteps, k.res.cnt.nfe, k.x, k.v, w.res.cnt.nsteps,
                w.res.cnt.nfe, w.x, w.v, ratio[s]);
  }
  cr_assert(ratio[0] < 2.0, "uncoupled contacts: ratio %.1f", ratio[0]);
  cr_assert(ratio[1] > 100.0, "coupled contacts: ratio %.1f", ratio[1]);
}

/* ---- f_app, computed once by the integrator layer ---------------------------------------- */

/* A two-DOF plant (coupled mass, damping and stiffness, applied force depending on the
 * state) whose contact 0 (DOF 0) rides a belt accelerating at udot, contact 1 on DOF 1. */
typedef struct fapp_sp {
  double udot;
} fapp_sp;

static void fapp_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  (void)sp;
  f[0] = 0.3 + 0.1 * t - 0.2 * x[1] * x[1];
  f[1] = -0.4 + 0.05 * v[0];
}

static void fapp_contact(const void *sp, size_t i, double t, fb_contact_state *cs)
{
  const fapp_sp *p = sp;
  cs->N = 10.0;
  cs->u = i == 0 ? 0.25 + p->udot * t : 0.0;
  cs->udot = i == 0 ? p->udot : 0.0;
}

/* fb_contact_fapp's choice (include/fricbench/fb_model.h): a stick force -f_app on DOF 0 alone gives
 * DOF 0 exactly the belt's acceleration.  Through the system's right-hand side (the one
 * place that computes f_app for the ODE steppers) with DOF 0 stuck and DOF 1 sliding,
 * DOF 0's acceleration is off the belt's by (M^-1)_01 F_1: the other contact's friction
 * is missing from f_app (Karnopp's weakness).  The reported force is the same -f_app. */
Test(karnopp, f_app_is_the_stuck_dofs_balance)
{
  fb_plant pl;
  fb_err err;
  fapp_sp sp = {0.7};
  cr_assert_eq(fb_plant_alloc(&pl, 2, 2, 0), FB_OK);
  const double M[4] = {2, 1, 1, 2}, D[4] = {0.3, -0.1, -0.1, 0.2}, K[4] = {2, -1, -1, 2};
  memcpy(pl.M, M, sizeof M);
  memcpy(pl.D, D, sizeof D);
  memcpy(pl.K, K, sizeof K);
  pl.T = 1;
  pl.f_c = 1;
  pl.v_scale = 1;
  pl.sp = &sp;
  pl.force = fapp_force;
  pl.force_uses_state = 1;
  pl.contact_state = fapp_contact;
  for (size_t i = 0; i < 2; i++) {
    pl.contact[i].dof = i;
    pl.contact[i].law = (fb_friction){FB_SHAPE_COULOMB, 1.0, 1.0, 1.0};
  }
  cr_assert_eq(fb_plant_finish(&pl, "test", &err), FB_OK, "%s", err.msg);
  const double t = 0.4, x[2] = {0.1, -0.3};
  /* 1. the formula: F_0 = -f_app_0 alone on DOF 0 gives a_0 = udot */
  const double v[2] = {0.25 + 0.7 * t, 1.5};
  double f[2], a[2], a2[2];
  fb_plant_smooth_force(&pl, t, x, v, f);
  fb_plant_solve_mass(&pl, f, a);
  const double fapp = fb_contact_fapp(&pl, 0, t, a);
  f[0] -= fapp;
  fb_plant_solve_mass(&pl, f, a2);
  cr_assert(fabs(a2[0] - 0.7) <= 1e-14, "a_0 = %.17g, udot = 0.7", a2[0]);
  /* 2. the system's right-hand side with karnopp: DOF 0 stuck (v_r = 0, inside the
   * window), DOF 1 sliding (v = 1.5, F_1 = -Fs = -10), which f_app leaves out */
  fb_model md;
  cr_assert_eq(fb_model_init(&md, fb_model_find("karnopp")), FB_OK);
  cr_assert_eq(fb_model_resolve(&md, &pl, &err), FB_OK, "%s", err.msg);
  fb_problem pb;
  fb_problem_init(&pb, &pl, &md);
  fb_system s;
  fb_counters cnt = {0};
  cr_assert_eq(fb_system_alloc(&s, &pb, 1000), FB_OK);
  s.cnt = &cnt;
  double y[4] = {x[0], x[1], v[0], v[1]}, dy[4];
  cr_assert_eq(fb_system_rhs(t, y, dy, &s), GSL_SUCCESS);
  const double expect = 0.7 + pl.Minv[1] * (-10.0); /* udot + (M^-1)_01 F_1 */
  cr_assert(fabs(dy[2] - expect) <= 1e-13, "a_0 = %.17g, expected %.17g", dy[2], expect);
  /* the reported stick force is the same -f_app (fb_problem_output computes it alike) */
  double F[2];
  int stick[2];
  cr_assert_eq(fb_problem_output(&pb, t, y, F, stick), FB_OK);
  cr_assert(fabs(F[0] + fapp) <= 1e-13 && stick[0] == 1 && stick[1] == 0, "F_0 = %g", F[0]);
  cr_assert(F[1] == -10.0);
  fb_system_free(&s);
  fb_model_free(&md);
  fb_plant_free(&pl);
}
