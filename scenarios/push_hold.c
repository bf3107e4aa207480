/* push_hold.c — a block at rest on rough ground pushed by a constant force below or just
 * above breakaway (docs/design.md §5 `push-hold`; docs/design.md §6, the practitioners' first
 * question: "does my box creep under a load it should hold?").
 *
 *     m xddot = P(t) + F,   P(t) = 0 for t < t_on,  r mu m g from t_on on,   x(0) = v(0) = 0
 *
 * Coulomb contact Fs = Fc = mu m g (normal force m g).  The block settles for t_on = 1 s,
 * then is pushed for T - t_on = 5 s.  Exact:
 *  - r <= 1: the push never exceeds Fs, so the block never leaves rest: x = 0, v = 0 and
 *    the stick force balances the push, F = -P(t) (stick over the whole interval);
 *  - r > 1: rest until t_on, then the net force (r - 1) mu m g gives the uniform
 *    acceleration a = (r - 1) mu g (Newton's law with F = -Fc):
 *    v = a (t - t_on), x = a (t - t_on)^2 / 2, F = -mu m g.
 * With r = 0 there is no push at all (the rest-energy question): no force, no break.
 * Scales (docs/design.md §5.3): Fs = mu m g; no natural frequency, so f_c = 1/T (as the
 * puck's); v_scale = Fs / (m 2 pi f_c), the speed the friction force gives the mass over
 * one characteristic period (as preload-hold's), independent of r so that a regularized
 * model's auto width is the same at every load of the sweep; L = v_scale / (2 pi f_c).
 * Defaults m = 2, mu = 0.3, g = 9.81, r = 0.95, t_on = 1, T = 6; every one overridable.
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct push_params {
  double m, mu, g, r, t_on, T;
} push_params;

static const fb_param_desc push_desc[] = {
    {"m", "kg", "mass", offsetof(push_params, m), 2, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mu", "1", "friction coefficient, Fs = Fc = mu m g", offsetof(push_params, mu), 0.3, 0,
     INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(push_params, g), 9.81, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"r", "1", "push over breakaway, P = r mu m g (< 1 holds, > 1 slides)",
     offsetof(push_params, r), 0.95, 0, INFINITY, 0, NULL, NULL},
    {"t_on", "s", "settling time before the push starts", offsetof(push_params, t_on), 1, 0,
     INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"T", "s", "end time", offsetof(push_params, T), 6, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set push_set = {sizeof(push_params), 6, push_desc};

static double push_Fs(const push_params *p)
{
  return p->mu * p->m * p->g;
}

/* The applied push P(t): a step at t_on (a forcing break). */
static double push_load(const push_params *p, double t)
{
  return t < p->t_on ? 0.0 : p->r * push_Fs(p);
}

static void push_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  (void)x, (void)v;
  f[0] = push_load(sp, t);
}

static int push_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const push_params *p = sp;
  if (!(p->t_on < p->T))
    return fb_err_set(err, FB_EINVAL, "push-hold: t_on = %g must be < T = %g", p->t_on, p->T);
  const int pushed = p->r != 0.0;
  if (fb_plant_alloc(pl, 1, 1, pushed ? 1 : 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->T = p->T;
  if (pushed) {
    pl->breaks[0] = p->t_on;
    pl->force = push_force;
  }
  pl->f_c = 1.0 / p->T;
  pl->v_scale = push_Fs(p) / (p->m * 2.0 * M_PI * pl->f_c);
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
  pl->contact[0].c0 = (fb_contact_state){p->m * p->g, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind push_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

static int push_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const push_params *p = sp;
  if (p->r <= 1.0 || t <= p->t_on) {
    /* held: the stick force balances the push */
    x[0] = v[0] = 0.0;
    if (F)
      F[0] = -push_load(p, t);
    return FB_OK;
  }
  /* sliding from t_on: m xddot = (r - 1) mu m g, so a = (r - 1) mu g */
  const double a = (p->r - 1.0) * p->mu * p->g, s = t - p->t_on;
  x[0] = 0.5 * a * s * s;
  v[0] = a * s;
  if (F)
    F[0] = -push_Fs(p);
  return FB_OK;
}

const fb_scenario_type fb_scenario_push_hold = {
    .name = "push-hold",
    .title = "block at rest pushed by a constant force r mu m g: holds for r < 1, slides above",
    .source = "the practitioners' questions (docs/design.md §5, §6)",
    .params = &push_set,
    .ref_kind = push_ref_kind,
    .build = push_build,
    .exact = push_exact,
};
