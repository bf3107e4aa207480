/* puck.c — a puck sliding on a rough plane: isotropic Coulomb friction in two directions
 * (docs/design.md §13).
 *
 * DOFs x, y (m), mass m each way; one 2-D contact whose slip is the velocity (x and y
 * entries on DOFs 0 and 1), normal force m g, coefficient mu.  Defaults m = 1, g = 9.81,
 * mu = 0.3, v0 = (1, 0.5), T = 1; `yaw` (deg, default 0) rotates v0 (the yaw sweep of the
 * practitioners' questions, docs/design.md §6).  The `push` variant adds a constant force
 * push mu m g along push_dir (default 90 degrees: +y) with push = 0.6: the path bends toward the push and the puck stops
 * where the push is inside the friction disc.
 * Closed form without push (the disc's friction opposes a velocity that keeps its
 * direction, so the motion is straight): u(t) = v0 - mu g t v0/|v0| until the stop at
 * t_s = |v0|/(mu g), after |v0|^2/(2 mu g) (m); then rest.  A box cone (per-axis
 * friction) decelerates each axis at mu g and bends the path: what this scenario shows.
 * With a push the reference is the event-driven 2-D solver.
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct puck_params {
  double m, g, mu, vx0, vy0, push, push_dir, T, yaw;
} puck_params;

static const fb_param_desc puck_desc[] = {
    {"m", "kg", "mass", offsetof(puck_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(puck_params, g), 9.81, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mu", "1", "friction coefficient", offsetof(puck_params, mu), 0.3, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"vx0", "m/s", "initial velocity, x", offsetof(puck_params, vx0), 1, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"vy0", "m/s", "initial velocity, y", offsetof(puck_params, vy0), 0.5, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"push", "1", "constant force along y over mu m g (push variant: 0.6)",
     offsetof(puck_params, push), 0, -INFINITY, INFINITY, 0, NULL, NULL},
    {"push_dir", "deg", "direction of the push from the x axis", offsetof(puck_params, push_dir),
     90, -360, 360, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(puck_params, T), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"yaw", "deg", "initial velocity (vx0, vy0) rotated by this angle (the yaw sweep)",
     offsetof(puck_params, yaw), 0, -360, 360, 0, NULL, NULL},
};
static const fb_param_set puck_set = {sizeof(puck_params), 9, puck_desc};

/* The initial velocity: (vx0, vy0) rotated by yaw (docs/design.md §6's yaw sweep pushes the puck at
 * 0, 5, ..., 45 degrees to the x axis, where a per-axis friction set errs most at 45);
 * yaw = 0 leaves it as given, to the bit. */
static void puck_v0(const puck_params *p, double *vx, double *vy)
{
  if (p->yaw == 0.0) {
    *vx = p->vx0;
    *vy = p->vy0;
    return;
  }
  const double a = p->yaw * M_PI / 180.0, c = cos(a), s = sin(a);
  *vx = c * p->vx0 - s * p->vy0;
  *vy = s * p->vx0 + c * p->vy0;
}

static void puck_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const puck_params *p = sp;
  (void)t, (void)x, (void)v;
  const double a = p->push_dir * M_PI / 180.0, P = p->push * p->mu * p->m * p->g;
  /* exact axes for the default 90 degrees: cos(pi/2) is 6e-17, not 0 */
  f[0] = p->push_dir == 90.0 ? 0.0 : P * cos(a);
  f[1] = p->push_dir == 90.0 ? P : P * sin(a);
}

static int puck_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const puck_params *p = sp;
  if (fb_plant_alloc(pl, 2, 2, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = pl->M[3] = p->m;
  puck_v0(p, &pl->v0[0], &pl->v0[1]);
  pl->T = p->T;
  pl->f_c = 1.0 / p->T;
  pl->path_dof[0] = 0; /* the path in the plane: x, y */
  pl->path_dof[1] = 1;
  pl->v_scale = fmax(hypot(pl->v0[0], pl->v0[1]), fabs(p->push) * p->mu * p->g * p->T);
  if (!(pl->v_scale > 0))
    pl->v_scale = p->mu * p->g * p->T;
  if (p->push != 0.0)
    pl->force = puck_force;
  fb_plant_set_pair(pl, 0, (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0}, p->m * p->g);
  pl->contact[0].dof = 0; /* the slip is the velocity (x, y) */
  pl->contact[1].dof = 1;
  return FB_OK;
}

static fb_ref_kind puck_ref_kind(const void *sp)
{
  const puck_params *p = sp;
  return p->push == 0.0 ? FB_REF_EXACT : FB_REF_EVENT;
}

/* docs/design.md §13: straight-line deceleration mu g along v0 to rest. */
static int puck_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const puck_params *p = sp;
  if (p->push != 0.0)
    return FB_EUNSUP;
  double vx0, vy0;
  puck_v0(p, &vx0, &vy0);
  const double w0 = hypot(vx0, vy0), a = p->mu * p->g;
  const double ts = w0 / a, s = fmin(t, ts);
  const double ex = w0 > 0 ? vx0 / w0 : 0.0, ey = w0 > 0 ? vy0 / w0 : 0.0;
  const double dist = w0 * s - 0.5 * a * s * s, speed = t < ts ? w0 - a * t : 0.0;
  x[0] = ex * dist;
  x[1] = ey * dist;
  v[0] = ex * speed;
  v[1] = ey * speed;
  if (F != NULL) {
    F[0] = t < ts ? -p->mu * p->m * p->g * ex : 0.0;
    F[1] = t < ts ? -p->mu * p->m * p->g * ey : 0.0;
  }
  return FB_OK;
}

const fb_scenario_type fb_scenario_puck = {
    .name = "puck",
    .title = "puck sliding on a rough plane: straight stop under the disc, bent under a box",
    .source = "docs/design.md §13 (isotropic Coulomb friction in the plane)",
    .params = &puck_set,
    .ref_kind = puck_ref_kind,
    .build = puck_build,
    .exact = puck_exact,
};
