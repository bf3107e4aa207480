/* test_kikuuwe_be.c — Kikuuwe's discrete-time friction (docs/design.md §3 M8): the
 * per-contact steps solve their backward-Euler inclusions (Theorem 1), exact stick at
 * h = 0.1 with a spring preload (relay: v identically 0; impedance: the anchor never
 * moves, bounded deflection, no accumulation), first order on closed forms (relay) and
 * against its own ODE limit, the `kikuuwe` model (impedance), bad input.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <string.h>

#include "fb_kikuuwe_be.h"
#include "fb_test.h"
#include "fb_test_order.h"
#include "fb_util.h"

/* ---- the per-contact steps ------------------------------------------------------------ */

/* Impedance: -F in Fbar Sgn(p_k - p_{k-1}) and K (s - p_k) + B (v - (p_k - p_{k-1})/h) = -F
 * (the anchor's backward-Euler balance); relay: m (v1 - v_free)/h = F in -Fs Sgn(v1). */
Test(kikuuwe_be, per_contact_steps_solve_the_inclusions)
{
  const double K = 400, B = 40, h = 0.01, Fbar = 2.0, m = 3.0;
  for (int a = -20; a <= 20; a++)
    for (int b = -20; b <= 20; b++) {
      const double s = 0.003 * a, v = 0.05 * b, p0 = 0.001;
      double p = p0;
      int stick;
      const double F = fb_kbe_impedance_step(K, B, h, Fbar, s, v, &p, &stick);
      const double dp = p - p0;
      cr_assert(fabs(K * (s - p) + B * (v - dp / h) + F) <= 1e-12 * (1 + fabs(F)),
                "balance at s=%g v=%g", s, v);
      cr_assert(fabs(F) <= Fbar);
      if (stick)
        cr_assert(dp == 0.0);
      else
        cr_assert(F == -Fbar * fb_sgn(dp) && dp != 0.0);
      double Fr;
      const double vf = 0.01 * a + 0.001 * b;
      const double v1 = fb_kbe_relay_step(m, h, Fbar, vf, &Fr, &stick);
      cr_assert(fabs(m * (v1 - vf) / h - Fr) <= 1e-12 * (1 + fabs(Fr)));
      cr_assert(fabs(Fr) <= Fbar * (1 + 1e-15));
      if (stick)
        cr_assert(v1 == 0.0);
      else
        cr_assert(Fr == -Fbar * fb_sgn(v1) && v1 != 0.0);
    }
}

/* ---- stick with a preload at h = 0.1 ---------------------------------------------------- */

/* stick-slip with D = 0, v0 = 0, y0 = 3: the spring preloads the contact to 0.75 Fs (mu = 4)
 * and the forcing 0.5 cos(pi t) adds 0.125 Fs: exact solution x = 3, v = 0 for ever. */
static const char *const preload[] = {"D=0", "v0=0", "y0=3", "A=0.5", "T=100", NULL};

typedef struct hold_obs {
  size_t steps, moved, unstuck;
  double maxdev, x50, x100, p_first, p_dev;
  int have_p;
} hold_obs;

/* Relay: v == 0 and x == 3 exactly at every step, stick flag set. */
static int relay_obs(void *ctx, double t, const double *y)
{
  hold_obs *o = ctx;
  (void)t;
  o->steps++;
  if (!(y[0] == 3.0 && y[1] == 0.0))
    o->moved++;
  if (y[4] != 1.0)
    o->unstuck++;
  return 0;
}

Test(kikuuwe_be, relay_exact_stick_h01_preload)
{
  hold_obs o = {0};
  fb_observer obs = {relay_obs, &o};
  fb_run_result res;
  fbt_run("stick-slip", "kikuuwe-be", "kbe-relay", 0.1, 0, preload, 2, NULL, &obs, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  cr_assert_eq(o.steps, 1001);
  cr_assert_eq(o.moved, 0, "%zu of %zu steps moved", o.moved, o.steps);
  cr_assert(o.unstuck <= 1, "stick flag: %zu steps without (the initial state's may lack it)",
            o.unstuck);
}

/* Impedance at h = 0.1: K = 50 (h sqrt(K/m) = 0.71, B = 2 sqrt(K m) auto).  After the
 * initial transient (e starts at 0, the preload loads the anchor spring) the anchor never
 * moves (stick flag, p = x - e constant), the deflection stays within (preload + forcing)/K
 * and nothing accumulates: x at t = 100 equals x at t = 50 (same forcing phase). */
static int imp_obs(void *ctx, double t, const double *y)
{
  hold_obs *o = ctx;
  if (t < 5.0)
    return 0;
  o->steps++;
  if (y[4] != 1.0)
    o->unstuck++;
  const double p = y[0] - y[2];
  if (!o->have_p) {
    o->have_p = 1;
    o->p_first = p;
  }
  o->p_dev = fmax(o->p_dev, fabs(p - o->p_first));
  o->maxdev = fmax(o->maxdev, fabs(y[0] - 3.0));
  if (fabs(t - 50.0) < 1e-9)
    o->x50 = y[0];
  if (t == 100.0)
    o->x100 = y[0];
  return 0;
}

Test(kikuuwe_be, impedance_anchor_holds_h01_preload)
{
  const char *integ[] = {"kbe-symplectic", "kbe-exact"};
  const char *sets[] = {"D=0", "v0=0", "y0=3", "A=0.5", "T=100", "K=50", NULL};
  for (size_t q = 0; q < 2; q++) {
    hold_obs o = {0};
    fb_observer obs = {imp_obs, &o};
    fb_run_result res;
    fbt_run("stick-slip", "kikuuwe-be", integ[q], 0.1, 0, sets, 2, NULL, &obs, &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    cr_log_info("%s h=0.1 K=50: max |x - 3| = %.4f, anchor moved %.2e after t=5, "
                "x(100) - x(50) = %.2e\n",
                integ[q], o.maxdev, o.p_dev, o.x100 - o.x50);
    cr_assert_eq(o.unstuck, 0, "%s: %zu steps with the anchor moving", integ[q], o.unstuck);
    cr_assert(o.p_dev <= 1e-13, "%s: anchor moved by %.3e", integ[q], o.p_dev);
    cr_assert(o.maxdev <= 2.0 * 3.5 / 50.0, "%s: deflection %.4f", integ[q], o.maxdev);
    cr_assert(fabs(o.x100 - o.x50) <= 1e-12, "%s: accumulation %.3e", integ[q],
              o.x100 - o.x50);
  }
}

/* ---- orders ---------------------------------------------------------------------------- */

/* The relay form converges to the Coulomb solution itself: first order on inclined-block
 * (stop, then stick) and glowinski-tp1 (velocity-weakening gamma). */
Test(kikuuwe_be, relay_first_order_closed_forms)
{
  const char *s3[] = {"mu_ratio=3", NULL};
  const fbo_study a = fbo_ladder("inclined-block", "kikuuwe-be", "kbe-relay", 0.0137, 7, s3);
  cr_assert(fabs(a.px - 1.0) < 0.2, "inclined-block: order of x %.3f", a.px);
  const fbo_study b = fbo_ladder("glowinski-tp1", "kikuuwe-be", "kbe-relay", 0.0137, 7, NULL);
  cr_assert(fabs(b.px - 1.0) < 0.25 && fabs(b.pv - 1.0) < 0.25, "tp1: orders %.3f %.3f", b.px,
            b.pv);
}

/* The impedance form converges to its own ODE limit, the `kikuuwe` model with the same K
 * and B (docs/design.md §6: discretization error against the model's own reference),
 * here a tight rk8pd run compared at t = 1e-3 k, every DOF: on stick-slip (one DOF) and on
 * glowinski-2dof (coupled mass and stiffness: kbe-exact's matrix exponential for n = 2). */
typedef struct dist_obs {
  const fb_trace *ref;
  size_t n;
  double err;
} dist_obs;

static int dist_step(void *ctx, double t, const double *y)
{
  dist_obs *o = ctx;
  const double kf = t / 1e-3, k = nearbyint(kf);
  if (fabs(kf - k) < 1e-6) {
    const size_t i = (size_t)k;
    cr_assert(i < o->ref->ns);
    for (size_t j = 0; j < o->n; j++)
      o->err = fmax(o->err, fabs(y[j] - o->ref->y[i * o->ref->dim + j]));
  }
  return 0;
}

Test(kikuuwe_be, impedance_first_order_to_its_ode)
{
  static const struct {
    const char *scenario;
    size_t samples;
  } cases[] = {{"stick-slip", 3001}, {"glowinski-2dof", 4001}};
  const char *sets[] = {"T=3", "K=4000", "B=120", NULL};
  const char *sets2[] = {"K=4000", "B=120", NULL};
  for (size_t c = 0; c < 2; c++) {
    const char *const *st = c == 0 ? sets : sets2;
    fb_trace ref;
    fb_run_result res;
    fbt_run(cases[c].scenario, "kikuuwe", "rk8pd", 0, 1e-12, st, cases[c].samples, &ref, NULL,
            &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    const char *integ[] = {"kbe-symplectic", "kbe-exact"};
    for (size_t q = 0; q < 2; q++) {
      double hs[5], es[5];
      for (size_t k = 0; k < 5; k++) {
        hs[k] = 1e-3 / (double)(1u << k);
        dist_obs o = {&ref, ref.n, 0.0};
        fb_observer obs = {dist_step, &o};
        fbt_run(cases[c].scenario, "kikuuwe-be", integ[q], hs[k], 0, st, 2, NULL, &obs, &res);
        cr_assert_eq(res.status, FB_OK, "%s", res.message);
        es[k] = o.err;
        cr_log_info("%s %s h=%.3g: max |x - x_kikuuwe| = %.3e\n", cases[c].scenario, integ[q],
                    hs[k], es[k]);
      }
      size_t lo, hi;
      const double p = fbo_order(hs, es, 5, &lo, &hi);
      cr_log_info("%s %s: order %.3f to the kikuuwe ODE (h %.3g..%.3g)\n", cases[c].scenario,
                  integ[q], p, hs[lo], hs[hi]);
      cr_assert(fabs(p - 1.0) < 0.2, "%s %s: order %.3f", cases[c].scenario, integ[q], p);
    }
    fb_trace_free(&ref);
  }
}

/* ---- bad input ------------------------------------------------------------------------- */

Test(kikuuwe_be, relay_refuses_a_coupled_mass)
{
  fb_case c;
  fb_err err;
  cr_assert_eq(fb_case_init(&c, "glowinski-2dof", "kikuuwe-be", "kbe-relay", &err), FB_OK);
  c.opts.h = 1e-2;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_run_result res;
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_EUNSUP);
  cr_assert(strstr(res.message, "diagonal mass") != NULL, "%s", res.message);
  fb_case_free(&c);
  cr_assert_eq(fb_case_init(&c, "stick-slip", "kikuuwe-be", "kbe-symplectic", &err), FB_OK);
  c.opts.atol = c.opts.rtol = 1e-6;
  const int st = fb_case_prepare(&c, &err);
  cr_assert_neq(st, FB_OK, "adaptive refused");
  fb_case_free(&c);
}
