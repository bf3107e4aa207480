/* inclined_block.c — a block on a rough incline ([ShourbagyMatuttis] §2; docs/design.md §5, §7).
 *
 *     m xddot = m g sin(theta) + F,   F in -mu m g cos(theta) Sgn(xdot)
 *
 * x points downhill.  Coulomb friction with Fs = Fc = mu m g cos(theta) (normal force
 * N = m g cos(theta), coefficient mu).  mu defaults to mu_ratio tan(theta); the paper's
 * cases are mu_ratio in {0.5, 1, 3}.  Exact solution (docs/design.md §7), for any v0:
 *  - moving (v != 0): a = g (sin theta - mu cos theta sgn v);
 *  - at rest: stays if mu >= tan theta (the required force m g sin theta <= Fs), else
 *    slides downhill with a = g (sin theta - mu cos theta).
 * With mu > tan theta and v0 > 0 the block stops at t* = v0 / (g (mu cos - sin)),
 * x* = x0 + v0 t* / 2, then sticks for good.  f_c = 1/T (no natural or forcing
 * frequency); velocity scale |v0| (or g sin(theta) T from rest).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct inclined_params {
  double m, g, theta, v0, x0, T, mu_ratio, mu;
} inclined_params;

static const fb_param_desc inclined_desc[] = {
    {"m", "kg", "block mass", offsetof(inclined_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"g", "m/s^2", "gravity", offsetof(inclined_params, g), 9.81, 0, INFINITY, 0, NULL, NULL},
    {"theta", "deg", "slope angle", offsetof(inclined_params, theta), 20, 0, 90,
     FB_PARAM_MAX_OPEN, NULL, NULL},
    {"v0", "m/s", "initial velocity, downhill positive", offsetof(inclined_params, v0), 1,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"x0", "m", "initial position", offsetof(inclined_params, x0), 0, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"T", "s", "end time", offsetof(inclined_params, T), 2, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"mu_ratio", "1", "friction coefficient over tan(theta) (paper: 0.5, 1, 3)",
     offsetof(inclined_params, mu_ratio), 3, 0, INFINITY, 0, NULL, NULL},
    {"mu", "1", "friction coefficient, Fs = Fc = mu m g cos(theta)",
     offsetof(inclined_params, mu), NAN, 0, INFINITY, FB_PARAM_AUTO, "mu_ratio tan(theta)",
     NULL},
};
static const fb_param_set inclined_set = {sizeof(inclined_params), 8, inclined_desc};

static double inclined_mu(const inclined_params *p)
{
  return isnan(p->mu) ? p->mu_ratio * tan(p->theta * M_PI / 180.0) : p->mu;
}

static void inclined_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const inclined_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = p->m * p->g * sin(p->theta * M_PI / 180.0);
}

static int inclined_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const inclined_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double th = p->theta * M_PI / 180.0;
  pl->M[0] = p->m;
  pl->x0[0] = p->x0;
  pl->v0[0] = p->v0;
  pl->T = p->T;
  pl->f_c = 1.0 / p->T;
  pl->v_scale = p->v0 != 0 ? fabs(p->v0) : fmax(p->g * sin(th) * p->T, 1e-3);
  pl->force = inclined_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, inclined_mu(p), inclined_mu(p), 1.0};
  pl->contact[0].c0 = (fb_contact_state){p->m * p->g * cos(th), 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind inclined_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

/* Exact motion: piecewise constant acceleration, docs/design.md §7. */
static int inclined_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const inclined_params *p = sp;
  const double th = p->theta * M_PI / 180.0, mu = inclined_mu(p);
  const double gs = p->g * sin(th), gc = p->g * cos(th);
  const double Fs = mu * p->m * gc;
  double xc = p->x0, vc = p->v0, tc = 0.0;
  if (vc < 0) { /* uphill: decelerates at g (sin + mu cos) until rest */
    const double a = gs + mu * gc, ts = -vc / a;
    if (t <= ts) {
      *x = xc + vc * t + 0.5 * a * t * t;
      *v = vc + a * t;
      if (F)
        F[0] = Fs;
      return FB_OK;
    }
    xc += vc * ts + 0.5 * a * ts * ts;
    vc = 0.0;
    tc = ts;
  }
  const double a = gs - mu * gc; /* downhill sliding acceleration */
  if (vc == 0.0 && a <= 0.0) {   /* at rest and the slope cannot break it loose */
    *x = xc;
    *v = 0.0;
    if (F)
      F[0] = -p->m * gs;
    return FB_OK;
  }
  const double dt = t - tc;
  if (a < 0.0) { /* sliding downhill, decelerating: stops at ts */
    const double ts = -vc / a;
    if (dt >= ts) {
      *x = xc + 0.5 * vc * ts;
      *v = 0.0;
      if (F)
        F[0] = -p->m * gs;
      return FB_OK;
    }
  }
  *x = xc + vc * dt + 0.5 * a * dt * dt;
  *v = vc + a * dt;
  if (F)
    F[0] = -Fs;
  return FB_OK;
}

const fb_scenario_type fb_scenario_inclined_block = {
    .name = "inclined-block",
    .title = "block sliding down a rough incline, stops and sticks when mu > tan(theta)",
    .source = "Shourbagy & Matuttis [ShourbagyMatuttis] §2 (figs. 3, 4); closed form docs/design.md §7",
    .params = &inclined_set,
    .ref_kind = inclined_ref_kind,
    .build = inclined_build,
    .exact = inclined_exact,
};
