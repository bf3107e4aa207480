/* awrejcewicz.c — a mass on a conveyor with a hardening spring and falling friction
 * ([Xiong2013] §5.3, Example III, eqs. 46-50, after Awrejcewicz, Feckan &
 * Olejnik 2005 [Awrejcewicz2005], its ref. [41]; docs/scenarios/awrejcewicz.md).
 *
 *     m xddot + k1 x + k3 x^3 = F,    v = xdot - vb,    F in -S(|v|) Sgn(v)   ([Xiong2013] eq. 46-48)
 *     S(w) = T0 / (1 + delta w)                   (docs/design.md §1 shape `leine`)
 *
 * In plant terms (docs/design.md §2): K = k1, the cubic part as the applied force
 * f = -k3 x^3 (state-dependent), one contact on a belt at speed vb with normal force 1 and
 * mu_s = T0.  The published constants of eq. 47 are not recalled (the extraction lost
 * them); ours (docs/scenarios/awrejcewicz.md says why): m = 1, k1 = 1, k3 = 0.5, T0 = 1,
 * delta = 3 (belt-oscillator's friction, so that k3's effect shows directly), vb = 0.2;
 * x0 = 0, v0 = 0 (starts in slip at v = -vb); T = 100 (about 9 cycles).
 *
 * The cycle: stick carries the mass at xdot = vb until the spring force k1 x + k3 x^3
 * reaches T0, at x_b, the real root of k3 x^3 + k1 x - T0 = 0 (0.770917 with the
 * defaults); it then slips back along one arc from (x_b, vb) and sticks again at x_a.
 * Every release is at (x_b, vb), so the orbit is on the limit cycle from the first
 * release on.  fb_awr_cycle_solve integrates that one arc on its own (not through the
 * suite's event-driven solver, which is the reference of the runs): the tests and the
 * report compare the two.
 *
 * f_c: the tangent stiffness at the breakaway point, sqrt((k1 + 3 k3 x_b^2)/m)/(2 pi).
 * Velocity scale max(|vb| + T0/sqrt(k_b m), |v0|) (belt-oscillator's, with the tangent
 * stiffness k_b).  Reference: the event-driven solver.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stddef.h>

#include "fb_awrejcewicz.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

static const fb_param_desc awr_desc[] = {
    {"m", "kg", "mass", offsetof(fb_awr_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"k1", "N/m", "linear spring stiffness", offsetof(fb_awr_params, k1), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k3", "N/m^3", "cubic (hardening) spring coefficient", offsetof(fb_awr_params, k3), 0.5, 0,
     INFINITY, 0, NULL, NULL},
    {"T0", "N", "static friction force S(0) (normal force 1, mu_s = T0)",
     offsetof(fb_awr_params, T0), 1, 0, INFINITY, 0, NULL, NULL},
    {"delta", "s/m", "decay of S(w) = T0/(1 + delta w); 0: Coulomb", offsetof(fb_awr_params, delta),
     3, 0, INFINITY, 0, NULL, NULL},
    {"vb", "m/s", "conveyor (belt) velocity", offsetof(fb_awr_params, vb), 0.2, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"x0", "m", "initial position (spring relaxed at 0)", offsetof(fb_awr_params, x0), 0,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"v0", "m/s", "initial velocity", offsetof(fb_awr_params, v0), 0, -INFINITY, INFINITY, 0, NULL,
     NULL},
    {"T", "s", "end time", offsetof(fb_awr_params, T), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set awr_set = {sizeof(fb_awr_params), 9, awr_desc};

double fb_awr_spring_root(double k1, double k3, double f)
{
  /* k1 x + k3 x^3 is odd and increasing: Newton from the linear root (or the cubic's), with
   * a bisection fallback on a bracket, to round-off */
  if (f == 0.0)
    return 0.0;
  const double s = f < 0 ? -1.0 : 1.0, a = fabs(f);
  double lo = 0.0, hi = k1 > 0 ? a / k1 : cbrt(a / k3);
  if (k3 > 0)
    hi = fmin(hi, cbrt(a / k3));
  hi *= 1.0 + 1e-12; /* both bounds are above the root */
  double x = hi;
  for (int it = 0; it < 200; it++) {
    const double g = k1 * x + k3 * x * x * x - a, dg = k1 + 3.0 * k3 * x * x;
    if (g > 0)
      hi = x;
    else
      lo = x;
    double xn = x - g / dg;
    if (!(xn > lo && xn < hi))
      xn = 0.5 * (lo + hi);
    if (xn == x)
      break;
    x = xn;
  }
  return s * x;
}

/* ---- The slip arc (v = xdot - vb < 0, F = +S(|v|)), integrated on its own -------------- */

/* [Xiong2013] eq. 46 in slip-: m xddot = -k1 x - k3 x^3 + S(vb - xdot). */
static int awr_arc_rhs(double t, const double y[], double dy[], void *pv)
{
  const fb_awr_params *p = pv;
  (void)t;
  const double w = p->vb - y[1], S = p->T0 / (1.0 + p->delta * w);
  dy[0] = y[1];
  dy[1] = (-p->k1 * y[0] - p->k3 * y[0] * y[0] * y[0] + S) / p->m;
  return GSL_SUCCESS;
}

#define AWR_TOL 1e-13
#define AWR_NG 3 /* watched functions: xdot (extremes of x), xddot (extremes), xdot - vb (end) */

static double awr_g(const fb_awr_params *p, int k, const double y[2])
{
  double dy[2];
  if (k == 0)
    return y[1];
  if (k == 2)
    return y[1] - p->vb;
  awr_arc_rhs(0.0, y, dy, (void *)p);
  return dy[1];
}

/* The state at t from (t0, y0) by a fresh driver run at AWR_TOL. */
static int awr_at(gsl_odeiv2_driver *d, double t0, const double y0[2], double t, double y[2])
{
  double tt = t0;
  y[0] = y0[0];
  y[1] = y0[1];
  if (t <= t0)
    return GSL_SUCCESS;
  gsl_odeiv2_driver_reset_hstart(d, fmin(1e-3, t - t0));
  return gsl_odeiv2_driver_apply(d, &tt, t, y);
}

/* Where g_k crosses zero in [ta, tb] (y at ta given): bisection to round-off; the state
 * there into yc. */
static double awr_refine(gsl_odeiv2_driver *d, const fb_awr_params *p, int k, double ta,
                         const double ya[2], double tb, double yc[2])
{
  const double ga = awr_g(p, k, ya);
  double lo = ta, hi = tb;
  for (int it = 0; it < 200 && hi - lo > 4e-16 * fmax(1.0, fabs(hi)); it++) {
    const double tm = 0.5 * (lo + hi);
    awr_at(d, ta, ya, tm, yc);
    if ((awr_g(p, k, yc) > 0) == (ga > 0))
      lo = tm;
    else
      hi = tm;
  }
  awr_at(d, ta, ya, hi, yc);
  return hi;
}

/* One crossing of the arc's watched functions between accepted steps. */
static void awr_crossing(gsl_odeiv2_driver *d, const fb_awr_params *p, int k, double ta,
                         const double ya[2], double tb, fb_awr_cycle *c, double *t_end)
{
  double yc[2];
  const double tc = awr_refine(d, p, k, ta, ya, tb, yc);
  if (k == 0) {
    c->x_max = fmax(c->x_max, yc[0]);
    c->x_min = fmin(c->x_min, yc[0]);
  } else if (k == 1) {
    c->v_min = fmin(c->v_min, yc[1]);
  } else {
    *t_end = tc;
    c->x_a = yc[0];
  }
}

/* Step along the arc until xdot returns to vb: t_slip, x_a and the extremes. */
static int awr_arc(const fb_awr_params *p, gsl_odeiv2_driver *d, double t_max, fb_awr_cycle *c)
{
  gsl_odeiv2_system sys = {awr_arc_rhs, NULL, 2, (void *)p};
  gsl_odeiv2_step *s = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 2);
  gsl_odeiv2_control *ctl = gsl_odeiv2_control_y_new(AWR_TOL, AWR_TOL);
  gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(2);
  if (s == NULL || ctl == NULL || ev == NULL) {
    gsl_odeiv2_step_free(s), gsl_odeiv2_control_free(ctl), gsl_odeiv2_evolve_free(ev);
    return FB_ENOMEM;
  }
  const double h_max = t_max * 1e-5; /* 1e3 natural periods: about 1/100 period a step */
  double t = 0.0, h = 1e-6, y[2] = {c->x_b, p->vb}, g_prev[AWR_NG];
  double t_end = NAN;
  int armed = 0, st = FB_OK;
  /* xddot and xdot - vb vanish at the release: the first step's signs are the arc's own */
  for (int first = 1; isnan(t_end) && st == FB_OK; first = 0) {
    const double ta = t, ya[2] = {y[0], y[1]};
    if (gsl_odeiv2_evolve_apply(ev, ctl, s, &sys, &t, t_max, &h, y) != GSL_SUCCESS || t >= t_max)
      st = FB_EUNSUP;
    h = fmin(h, h_max);
    for (int k = 0; k < AWR_NG && st == FB_OK; k++) {
      const double g = awr_g(p, k, y);
      if (!first && (g > 0) != (g_prev[k] > 0) && (k != 2 || armed))
        awr_crossing(d, p, k, ta, ya, t, c, &t_end);
      g_prev[k] = g;
    }
    armed |= y[1] - p->vb < -1e-6 * p->vb;
  }
  c->t_slip = t_end;
  gsl_odeiv2_evolve_free(ev);
  gsl_odeiv2_control_free(ctl);
  gsl_odeiv2_step_free(s);
  return st;
}

int fb_awr_cycle_solve(const fb_awr_params *p, double *xs, double *vs, size_t ns,
                       fb_awr_cycle *c, fb_err *err)
{
  if (!(p->vb > 0 && p->T0 > 0 && p->m > 0 && p->k1 > 0 && p->k3 >= 0))
    return fb_err_set(err, FB_EUNSUP, "awrejcewicz: no stick-slip cycle of one arc unless "
                                      "vb > 0, T0 > 0, m > 0, k1 > 0, k3 >= 0");
  c->x_b = fb_awr_spring_root(p->k1, p->k3, p->T0);
  const double Sb = p->T0 / (1.0 + p->delta * p->vb), kb = p->k1 + 3.0 * p->k3 * c->x_b * c->x_b;
  c->x_e = fb_awr_spring_root(p->k1, p->k3, Sb);
  c->omega_e = sqrt((p->k1 + 3.0 * p->k3 * c->x_e * c->x_e) / p->m);
  c->damping_e = p->T0 * p->delta / ((1.0 + p->delta * p->vb) * (1.0 + p->delta * p->vb));
  c->x_max = c->x_min = c->x_b;
  c->v_min = p->vb;
  gsl_odeiv2_system sys = {awr_arc_rhs, NULL, 2, (void *)p};
  const double t_max = 1e3 * 2.0 * M_PI * sqrt(p->m / kb);
  gsl_odeiv2_driver *d =
      gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, AWR_TOL, AWR_TOL);
  if (d == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  int st = awr_arc(p, d, t_max, c);
  if (st == FB_OK && fabs(p->k1 * c->x_a + p->k3 * c->x_a * c->x_a * c->x_a) > p->T0)
    st = FB_EUNSUP; /* the arc ends where stick cannot hold: not a one-arc cycle */
  if (st != FB_OK) {
    gsl_odeiv2_driver_free(d);
    return st == FB_ENOMEM ? fb_err_set(err, st, "out of memory")
                           : fb_err_set(err, st, "awrejcewicz: the slip arc from x_b does not "
                                                 "end in a stick that holds");
  }
  c->t_stick = (c->x_b - c->x_a) / p->vb;
  c->period = c->t_slip + c->t_stick;
  /* the arc sampled at equal times, each point from the last */
  const double y0[2] = {c->x_b, p->vb};
  double y[2] = {y0[0], y0[1]}, tp = 0.0;
  for (size_t k = 0; ns > 1 && k < ns; k++) {
    const double tk = c->t_slip * (double)k / (double)(ns - 1), yp[2] = {y[0], y[1]};
    awr_at(d, tp, yp, tk, y);
    tp = tk;
    if (xs != NULL)
      xs[k] = y[0];
    if (vs != NULL)
      vs[k] = y[1];
  }
  gsl_odeiv2_driver_free(d);
  return FB_OK;
}

/* ---- The scenario ------------------------------------------------------------------------ */

/* The cubic part of the spring as an applied force (N): f = -k3 x^3. */
static void awr_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const fb_awr_params *p = sp;
  (void)t, (void)v;
  f[0] = -p->k3 * x[0] * x[0] * x[0];
}

static int awr_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const fb_awr_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->K[0] = p->k1;
  pl->x0[0] = p->x0;
  pl->v0[0] = p->v0;
  pl->T = p->T;
  pl->force = awr_force;
  pl->force_uses_state = 1;
  const double x_b = fb_awr_spring_root(p->k1, p->k3, p->T0);
  const double kb = p->k1 + 3.0 * p->k3 * x_b * x_b; /* tangent stiffness at breakaway */
  pl->f_c = sqrt(kb / p->m) / (2.0 * M_PI);
  pl->v_scale = fmax(fabs(p->vb) + p->T0 / sqrt(kb * p->m), fabs(p->v0));
  pl->contact[0].dof = 0;
  pl->contact[0].law = p->delta > 0
                           ? (fb_friction){FB_SHAPE_LEINE, p->T0, 0.0, 1.0 / p->delta}
                           : (fb_friction){FB_SHAPE_COULOMB, p->T0, p->T0, 1.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, p->vb, 0.0};
  return FB_OK;
}

static fb_ref_kind awr_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_awrejcewicz = {
    .name = "awrejcewicz",
    .title = "mass on a conveyor, hardening spring, falling friction: stick-slip cycle",
    .source = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §5.3 (Example III, after Awrejcewicz, "
              "Feckan & Olejnik 2005)",
    .params = &awr_set,
    .ref_kind = awr_ref_kind,
    .build = awr_build,
    .exact = NULL,
};
