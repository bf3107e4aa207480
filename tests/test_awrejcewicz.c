/* test_awrejcewicz.c — the conveyor oscillator of [Xiong2013] §5.3 (scenarios/awrejcewicz.c,
 * docs/scenarios/awrejcewicz.md): the breakaway point, the limit cycle against an
 * event-driven computation of this file's own, the suite's reference and Kikuuwe's model
 * releasing there, the unstable sliding equilibrium, and the O(eps) period error of the
 * linear smoothing ([Xiong2013] eq. 50, smooth-sign phi = linear-frozen).
 *
 * Independent numbers: x_b from Cardano's formula; the cycle from own_run below (slip
 * phases by GSL rk8pd at 1e-12 on a 1 ms grid, the return to xdot = vb bisected by
 * re-integration, stick phases in closed form x = x_s + vb (t - t_s) up to x_b), which
 * shares no code with the scenario's arc solve nor with the switching model. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_awrejcewicz.h"
#include "fb_model_registry.h"
#include "fb_reference.h"
#include "fb_test.h"

/* The defaults (scenarios/awrejcewicz.c). */
static const fb_awr_params defaults = {1, 1, 0.5, 1, 3, 0.2, 0, 0, 100};

/* The real root of k3 x^3 + k1 x - T0 = 0 by Cardano (k3 > 0, one real root). */
static double cardano(double k1, double k3, double T0)
{
  const double p = k1 / k3, q = -T0 / k3, D = sqrt(q * q / 4.0 + p * p * p / 27.0);
  return cbrt(-q / 2.0 + D) + cbrt(-q / 2.0 - D);
}

/* ---- own_run: the whole trajectory, event-driven, on its own ---------------------------- */

#define OWN_MAX 64
typedef struct own_cycle {
  double t_stick[OWN_MAX], x_stick[OWN_MAX]; /* stick starts */
  double t_rel[OWN_MAX];                     /* releases */
  size_t ns, nr;
  double x_lo, x_hi, t_arc; /* extremes and duration of the last complete slip arc */
} own_cycle;

static int own_rhs(double t, const double y[], double dy[], void *pv)
{
  const fb_awr_params *p = pv;
  (void)t;
  dy[0] = y[1];
  dy[1] = (-p->k1 * y[0] - p->k3 * pow(y[0], 3) + p->T0 / (1.0 + p->delta * (p->vb - y[1]))) / p->m;
  return GSL_SUCCESS;
}

static void own_to(gsl_odeiv2_driver *d, double t0, const double *y0, double t1, double *y)
{
  double t = t0;
  y[0] = y0[0];
  y[1] = y0[1];
  gsl_odeiv2_driver_reset(d);
  if (t1 > t0)
    cr_assert_eq(gsl_odeiv2_driver_apply(d, &t, t1, y), GSL_SUCCESS);
}

/* From (x0, v0), slip- (xdot < vb) at first, to time T. */
static void own_run(const fb_awr_params *p, double T, own_cycle *o)
{
  gsl_odeiv2_system sys = {own_rhs, NULL, 2, (void *)p};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4, 1e-12,
                                                        1e-12);
  const double x_b = cardano(p->k1, p->k3, p->T0), dt = 1e-3;
  double t = 0.0, y[2] = {p->x0, p->v0};
  memset(o, 0, sizeof *o);
  while (t < T && o->ns < OWN_MAX) {
    /* a slip arc */
    int armed = y[1] - p->vb < -1e-6;
    double lo = y[0], hi = y[0], t_start = t;
    for (;;) {
      const double ta = t, ya[2] = {y[0], y[1]};
      own_to(d, ta, ya, ta + dt, y);
      t = ta + dt;
      cr_assert(!armed || y[1] - p->vb < 1.0, "xdot above vb only at a crossing");
      if (armed && y[1] >= p->vb) { /* back to xdot = vb: bisect */
        double a = ta, b = t, yc[2];
        for (int it = 0; it < 60; it++) {
          const double m = 0.5 * (a + b);
          own_to(d, ta, ya, m, yc);
          *(yc[1] >= p->vb ? &b : &a) = m;
        }
        own_to(d, ta, ya, b, y);
        t = b;
        break;
      }
      armed |= y[1] - p->vb < -1e-6;
      lo = fmin(lo, y[0]);
      hi = fmax(hi, y[0]);
      if (t > T)
        break;
    }
    if (t > T)
      break;
    o->x_lo = lo, o->x_hi = hi, o->t_arc = t - t_start;
    /* stick: it holds while the spring force is inside the friction bound */
    cr_assert(fabs(p->k1 * y[0] + p->k3 * pow(y[0], 3)) < p->T0, "stick at x = %g holds", y[0]);
    o->t_stick[o->ns] = t;
    o->x_stick[o->ns++] = y[0];
    t += (x_b - y[0]) / p->vb;
    y[0] = x_b;
    y[1] = p->vb;
    o->t_rel[o->nr++] = t;
  }
  gsl_odeiv2_driver_free(d);
}

/* ---- 1. the breakaway point --------------------------------------------------------------- */

Test(awrejcewicz, breakaway_point_x_b)
{
  const double xb = cardano(1.0, 0.5, 1.0);
  cr_assert(fabs(xb - 0.770917) < 5e-7, "x_b = %.9f", xb);
  cr_assert(fabs(fb_awr_spring_root(1.0, 0.5, 1.0) - xb) < 1e-14, "scenario's root");
  cr_assert(fabs(fb_awr_spring_root(1.0, 0.5, -1.0) + xb) < 1e-14, "odd");
  cr_assert(fabs(fb_awr_spring_root(2.0, 0.0, 1.0) - 0.5) < 1e-15, "linear spring");
  /* Cardano's cancellation leaves a residual of 1e-12 here, the scenario's Newton 1e-15 */
  const double xs = fb_awr_spring_root(0.1, 4.0, 3.0);
  cr_assert(fabs(xs - cardano(0.1, 4.0, 3.0)) < 1e-11, "stiff cubic");
  cr_assert(fabs(0.1 * xs + 4.0 * xs * xs * xs - 3.0) < 4e-15, "its residual");
}

/* ---- 2. the limit cycle: the scenario's arc solve against own_run and the reference -------- */

Test(awrejcewicz, limit_cycle_against_own_event_driven_run)
{
  fb_awr_cycle c;
  fb_err err;
  cr_assert_eq(fb_awr_cycle_solve(&defaults, NULL, NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  own_cycle o;
  own_run(&defaults, 40.0, &o);
  cr_assert(o.ns >= 4, "%zu sticks", o.ns);
  const size_t k = o.ns - 1;
  const double period = o.t_stick[k] - o.t_stick[k - 1], t_stick = o.t_rel[k - 1] - o.t_stick[k - 1];
  cr_log_info("awrejcewicz cycle: x_b %.9f x_a %.9f period %.9f (slip %.9f, stick %.9f, fraction "
              "%.6f) x in [%.9f, %.9f], v_min %.9f; own run: period %.9f x_a %.9f x in [%.9f, %.9f]\n",
              c.x_b, c.x_a, c.period, c.t_slip, c.t_stick, c.t_stick / c.period, c.x_min, c.x_max,
              c.v_min, period, o.x_stick[k], o.x_lo, o.x_hi);
  cr_assert(fabs(c.x_b - 0.770917) < 5e-7);
  cr_assert(fabs(c.period - period) < 1e-8, "period %.12f vs own %.12f", c.period, period);
  cr_assert(fabs(c.t_stick - t_stick) < 1e-8, "stick %.12f vs own %.12f", c.t_stick, t_stick);
  cr_assert(fabs(c.x_a - o.x_stick[k]) < 1e-9, "x_a %.12f vs own %.12f", c.x_a, o.x_stick[k]);
  cr_assert(fabs(c.t_slip - o.t_arc) < 1e-8, "slip %.12f vs own %.12f", c.t_slip, o.t_arc);
  /* own_run's extremes are its 1 ms samples': within |xddot| dt^2 / 8 */
  cr_assert(fabs(c.x_min - o.x_lo) < 1e-6 && c.x_min <= o.x_lo, "x_min %.9f vs %.9f", c.x_min, o.x_lo);
  cr_assert(fabs(c.x_max - o.x_hi) < 1e-6 && c.x_max >= o.x_hi, "x_max %.9f vs %.9f", c.x_max, o.x_hi);
  /* every stick after the first starts at x_a: on the cycle from the first release */
  for (size_t j = 1; j < o.ns; j++)
    cr_assert(fabs(o.x_stick[j] - c.x_a) < 1e-9, "stick %zu at %.12f", j, o.x_stick[j]);
  /* the arc sampled: from (x_b, vb) to (x_a, vb) */
  double xs[5], vs[5];
  cr_assert_eq(fb_awr_cycle_solve(&defaults, xs, vs, 5, &c, &err), FB_OK);
  cr_assert(fabs(xs[0] - c.x_b) < 1e-15 && fabs(vs[0] - 0.2) < 1e-15);
  cr_assert(fabs(xs[4] - c.x_a) < 1e-9 && fabs(vs[4] - 0.2) < 1e-9, "%.12g %.12g", xs[4], vs[4]);
}

/* The suite's reference (switching/event) releases at x_b every time and keeps the period. */
typedef struct rel_watch {
  double x_rel[32];
  size_t nrel;
  int prev_mode;
} rel_watch;

static int rel_step(void *ctx, double t, const double *y)
{
  rel_watch *w = ctx;
  (void)t;
  const int mode = (int)y[2]; /* switching's z[0]: -1, 0 (stick), +1 */
  if (w->prev_mode == 0 && mode != 0 && w->nrel < 32)
    w->x_rel[w->nrel++] = y[0];
  w->prev_mode = mode;
  return 0;
}

Test(awrejcewicz, reference_releases_at_x_b_with_the_cycle_period)
{
  fb_awr_cycle c;
  fb_err err;
  cr_assert_eq(fb_awr_cycle_solve(&defaults, NULL, NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  rel_watch w = {{0}, 0, 1};
  const fb_observer obs = {rel_step, &w};
  fb_run_result res;
  cr_assert_eq(fbt_run("awrejcewicz", "switching", "event", 0, 1e-12, NULL, 2, NULL, &obs, &res),
               FB_OK, "%s", res.message);
  cr_assert(w.nrel >= 9, "%zu releases", w.nrel);
  for (size_t k = 0; k < w.nrel; k++)
    cr_assert(fabs(w.x_rel[k] - c.x_b) < 1e-9, "release %zu at %.15g", k, w.x_rel[k]);
  /* its stick intervals: every one after the first lasts t_stick, one period apart */
  const fb_scenario_type *st = fb_scenario_find("awrejcewicz");
  fb_awr_params sp = defaults;
  fb_interval_list l;
  cr_assert_eq(fb_reference_run(st, &sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
  double ts[32], te[32];
  size_t n = 0;
  for (size_t k = 0; k < l.n && n < 32; k++)
    if (l.iv[k].mode == FB_MODE_STICK && l.iv[k].end < sp.T) {
      ts[n] = l.iv[k].start;
      te[n++] = l.iv[k].end;
    }
  cr_assert(n >= 9, "%zu sticks", n);
  for (size_t k = 1; k < n; k++) { /* the first stick starts off the cycle */
    cr_assert(fabs(te[k] - ts[k] - c.t_stick) < 1e-8, "stick %zu: %.12f", k, te[k] - ts[k]);
    if (k >= 2)
      cr_assert(fabs(ts[k] - ts[k - 1] - c.period) < 1e-8, "period %zu: %.12f", k, ts[k] - ts[k - 1]);
  }
  fb_interval_list_free(&l);
}

/* Kikuuwe's DAI->ODE ([Xiong2013] eq. 49) releases at x_b within its compliance Fs/K: the
 * stick indicator |K e + B v_r| - S(|v_r|) crosses 0 between two accepted steps, where x is
 * interpolated (x moves at vb there). */
typedef struct kk_watch {
  double K, B;
  double t_prev, x_prev, g_prev;
  double x_rel[32];
  size_t nrel;
} kk_watch;

static int kk_step(void *ctx, double t, const double *y)
{
  kk_watch *w = ctx;
  const double vr = y[1] - defaults.vb;
  const double g = fabs(w->K * y[2] + w->B * vr) - defaults.T0 / (1.0 + defaults.delta * fabs(vr));
  if (!isnan(w->g_prev) && w->g_prev < 0 && g >= 0 && w->nrel < 32)
    w->x_rel[w->nrel++] = w->x_prev + (y[0] - w->x_prev) * (0 - w->g_prev) / (g - w->g_prev);
  w->t_prev = t, w->x_prev = y[0], w->g_prev = g;
  return 0;
}

Test(awrejcewicz, kikuuwe_releases_at_x_b_within_its_compliance)
{
  const char *sets[] = {"K=1e4", "B=200", "T=50", NULL}; /* B = 2 sqrt(K m) */
  kk_watch w = {1e4, 200, NAN, NAN, NAN, {0}, 0};
  const fb_observer obs = {kk_step, &w};
  fb_run_result res;
  cr_assert_eq(fbt_run("awrejcewicz", "kikuuwe", "rkf45", 0, 1e-10, sets, 2, NULL, &obs, &res),
               FB_OK, "%s", res.message);
  const double xb = cardano(1.0, 0.5, 1.0), comp = defaults.T0 / w.K;
  cr_assert(w.nrel >= 4, "%zu releases", w.nrel);
  for (size_t k = 0; k < w.nrel; k++) {
    cr_log_info("kikuuwe release %zu at x - x_b = %.3e (Fs/K = %.1e)\n", k, w.x_rel[k] - xb, comp);
    cr_assert(fabs(w.x_rel[k] - xb) <= comp, "release %zu at %.9f, x_b %.9f", k, w.x_rel[k], xb);
  }
}

/* ---- 3. the sliding equilibrium: unstable, it grows into the same cycle ------------------- */

Test(awrejcewicz, sliding_equilibrium_grows_into_the_cycle)
{
  fb_awr_cycle c;
  fb_err err;
  cr_assert_eq(fb_awr_cycle_solve(&defaults, NULL, NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  cr_assert(fabs(c.x_e - 0.544350) < 5e-7, "x_e = %.9f", c.x_e);
  cr_assert(fabs(c.omega_e - 1.201863) < 5e-7, "omega_e = %.9f", c.omega_e);
  cr_assert(fabs(c.damping_e - 1.171875) < 1e-15, "negative damping %.9f", c.damping_e);
  /* the equilibrium holds the spring against S(vb) */
  cr_assert(fabs(c.x_e + 0.5 * pow(c.x_e, 3) - 1.0 / 1.6) < 1e-15);
  const fb_scenario_type *st = fb_scenario_find("awrejcewicz");
  fb_awr_params sp = defaults;
  sp.x0 = c.x_e + 1e-6;
  sp.T = 60;
  fb_interval_list l;
  cr_assert_eq(fb_reference_run(st, &sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
  double ts[32];
  size_t n = 0;
  for (size_t k = 0; k < l.n && n < 32; k++)
    if (l.iv[k].mode == FB_MODE_STICK)
      ts[n++] = l.iv[k].start;
  cr_assert(n >= 3, "%zu sticks: the perturbation grew into stick-slip", n);
  /* linear growth e^{(c/2m) t} from 1e-6 to the amplitude vb/omega_e takes ~20 s */
  cr_assert(ts[0] > 15.0 && ts[0] < 30.0, "first stick at %.3f", ts[0]);
  const double period = ts[n - 1] - ts[n - 2];
  cr_log_info("from x_e + 1e-6: first stick at %.6f s, period %.9f (cycle %.9f)\n", ts[0], period,
              c.period);
  cr_assert(fabs(period - c.period) < 1e-3, "period %.9f vs %.9f", period, c.period);
  fb_interval_list_free(&l);
  /* the equilibrium itself, unperturbed, stays (to the solver's round-off) for a while */
  sp.x0 = c.x_e;
  sp.T = 5;
  cr_assert_eq(fb_reference_run(st, &sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
  cr_assert(l.n == 1 && l.iv[0].mode == FB_MODE_SLIP_NEG, "%zu intervals", l.n);
  fb_interval_list_free(&l);
}

/* ---- 4. the linear smoothing's period error is O(eps) ------------------------------------- */

/* Period of the last full cycle: upward crossings of x through x_m (x moves at ~vb there),
 * interpolated between accepted steps. */
typedef struct per_watch {
  double x_m, t_prev, x_prev;
  double tc[64];
  size_t nc;
} per_watch;

static int per_step(void *ctx, double t, const double *y)
{
  per_watch *w = ctx;
  if (!isnan(w->x_prev) && w->x_prev < w->x_m && y[0] >= w->x_m && w->nc < 64)
    w->tc[w->nc++] = w->t_prev + (t - w->t_prev) * (w->x_m - w->x_prev) / (y[0] - w->x_prev);
  w->t_prev = t, w->x_prev = y[0];
  return 0;
}

static double smoothed_period(const char *eps, double x_m)
{
  const char *sets[] = {"phi=linear-frozen", eps, "T=40", NULL};
  per_watch w = {x_m, NAN, NAN, {0}, 0};
  const fb_observer obs = {per_step, &w};
  fb_run_result res;
  cr_assert_eq(fbt_run("awrejcewicz", "smooth-sign", "rkf45", 0, 1e-11, sets, 2, NULL, &obs, &res),
               FB_OK, "%s", res.message);
  cr_assert(w.nc >= 3, "%zu crossings", w.nc);
  return w.tc[w.nc - 1] - w.tc[w.nc - 2];
}

Test(awrejcewicz, linear_smoothing_period_error_is_first_order)
{
  fb_awr_cycle c;
  fb_err err;
  cr_assert_eq(fb_awr_cycle_solve(&defaults, NULL, NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  const double x_m = 0.5 * (c.x_a + c.x_b);
  const double e2 = fabs(smoothed_period("eps_v=1e-2", x_m) - c.period);
  const double e3 = fabs(smoothed_period("eps_v=1e-3", x_m) - c.period);
  cr_log_info("eq. 50 period error: eps 1e-2 %.6e (%.2f eps), 1e-3 %.6e (%.2f eps), ratio %.3f\n",
              e2, e2 / 1e-2, e3, e3 / 1e-3, e2 / e3);
  cr_assert(e2 / e3 >= 8.0 && e2 / e3 <= 12.0, "ratio per decade %.3f", e2 / e3);
  cr_assert(e3 > 1e-4, "a real modelling error, not round-off: %.3e", e3);
}

/* eq. 50 as written: S frozen at eps inside the band, continuous at its edge; the plain
 * linear choice scales S(|v|) instead (they differ inside, agree beyond). */
Test(awrejcewicz, linear_frozen_is_eq_50)
{
  fb_model md;
  fb_err err;
  cr_assert_eq(fb_model_init(&md, fb_model_find("smooth-sign")), FB_OK);
  cr_assert_eq(fb_model_set(&md, "phi", 3, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(&md, "eps_v", 0.1, &err), FB_OK, "%s", err.msg);
  const fb_contact_scale sc = {1, 1, 1, 0.2, 1};
  cr_assert_eq(fb_model_resolve_scales(&md, 1, &sc, &err), FB_OK, "%s", err.msg);
  const fb_friction law = {FB_SHAPE_LEINE, 1.0, 0.0, 1.0 / 3.0};
  const fb_contact_in ci = {.law = &law, .N = 1.0, .Fs = 1.0, .f_app = NAN, .f_app2 = NAN};
  const double S_eps = 1.0 / 1.3;
  double F, dz[1];
  cr_assert_eq(fb_model_force(&md, 0, &ci, 0.05, NULL, &F, dz), FB_OK);
  cr_assert(fabs(F + S_eps * 0.5) < 1e-15, "inside: -S(eps) v/eps, F = %.17g", F);
  cr_assert_eq(fb_model_force(&md, 0, &ci, -0.1, NULL, &F, dz), FB_OK);
  cr_assert(fabs(F - S_eps) < 1e-15, "at the edge: S(eps), F = %.17g", F);
  cr_assert_eq(fb_model_force(&md, 0, &ci, 0.4, NULL, &F, dz), FB_OK);
  cr_assert(fabs(F + 1.0 / 2.2) < 1e-15, "beyond: -S(|v|), F = %.17g", F);
  cr_assert_eq(fb_model_set(&md, "phi", 2, &err), FB_OK, "%s", err.msg); /* plain linear */
  cr_assert_eq(fb_model_resolve_scales(&md, 1, &sc, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_force(&md, 0, &ci, 0.05, NULL, &F, dz), FB_OK);
  cr_assert(fabs(F + 0.5 / 1.15) < 1e-15, "linear: -S(|v|) v/eps, F = %.17g", F);
  fb_model_free(&md);
}
