/* block_drop.c — a sliding block dropped onto rough ground ([Xiong2013] §4.3: friction whose
 * bound is mu times the contact's own normal force; docs/design.md §12).
 *
 * DOF 1: horizontal position u, DOF 2: height y (the gap), mass m each way.  Dropped from
 * y = h with horizontal velocity u0; ground friction mu lambda_n; plastic impact (e = 0)
 * by default.  Defaults m = 1, g = 9.81, h = 0.5, u0 = 2, mu = 0.3, T = 1.5.  The normal
 * treatment is the parameter `normal`; --set normal.NAME=VALUE sets its parameters.
 * Closed form (e = 0, rigid contact with the Coulomb impulse |P_t| <= mu P_n): impact at
 * t1 = sqrt(2 h/g), tangential velocity after it u+ = u0 - min(u0, mu sqrt(2 g h)), then
 * deceleration mu g to rest at t_stop = t1 + u+/(mu g).
 */
#include <math.h>
#include <stddef.h>

#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct block_drop_params {
  double m, g, h, u0, mu, e, T, normal;
} block_drop_params;

static const fb_param_desc block_drop_desc[] = {
    {"m", "kg", "mass", offsetof(block_drop_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"g", "m/s^2", "gravity", offsetof(block_drop_params, g), 9.81, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"h", "m", "drop height (initial gap)", offsetof(block_drop_params, h), 0.5, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"u0", "m/s", "initial horizontal velocity", offsetof(block_drop_params, u0), 2, 0, INFINITY,
     0, NULL, NULL},
    {"mu", "1", "ground friction coefficient", offsetof(block_drop_params, mu), 0.3, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"e", "1", "restitution coefficient (Newton's law)", offsetof(block_drop_params, e), 0, 0, 1,
     0, NULL, NULL},
    {"T", "s", "end time", offsetof(block_drop_params, T), 1.5, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"normal", "", "normal-contact treatment", offsetof(block_drop_params, normal), 0, 0, FB_NORMAL_MAX - 1,
     FB_PARAM_CHOICE, NULL, fb_normal_names},
};
static const fb_param_set block_drop_set = {sizeof(block_drop_params), 8, block_drop_desc};

static void block_drop_force(const void *sp, double t, const double *x, const double *v,
                             double *f)
{
  const block_drop_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = 0;
  f[1] = -p->m * p->g;
}

static int block_drop_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const block_drop_params *p = sp;
  if (fb_plant_alloc(pl, 2, 1, 0) != FB_OK || fb_plant_alloc_normals(pl, 1) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = pl->M[3] = p->m;
  pl->x0[0] = 0;
  pl->x0[1] = p->h;
  pl->v0[0] = p->u0;
  pl->T = p->T;
  pl->v_scale = fmax(p->u0, sqrt(2 * p->g * p->h));
  pl->f_c = 1.0 / p->T;
  pl->force = block_drop_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
  /* the prescribed load is only what friction-only code paths see (the resting weight);
   * the contact scheme replaces it by lambda_n(t) */
  pl->contact[0].c0 = (fb_contact_state){p->m * p->g, 0.0, 0.0};
  fb_normal *nm = &pl->normal[0];
  nm->Jn[1] = 1.0;
  nm->g0 = 0;
  nm->e = p->e;
  nm->fric = 0;
  nm->a_scale = p->g;
  nm->h_scale = p->h;
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  fb_normal_select(nm, nt);
  return FB_OK;
}

static fb_ref_kind block_drop_ref_kind(const void *sp)
{
  const block_drop_params *p = sp;
  return p->e == 0 ? FB_REF_EXACT : FB_REF_NONE;
}

static int block_drop_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const block_drop_params *p = sp;
  const double g = p->g, t1 = sqrt(2 * p->h / g);
  if (p->e != 0)
    return FB_EUNSUP;
  if (t < t1) {
    x[0] = p->u0 * t;
    v[0] = p->u0;
    x[1] = p->h - 0.5 * g * t * t;
    v[1] = -g * t;
    if (F != NULL)
      F[0] = 0;
    return FB_OK;
  }
  const double up = p->u0 - fmin(p->u0, p->mu * sqrt(2 * g * p->h)), dec = p->mu * g;
  const double ts = t1 + up / dec, s = fmin(t, ts) - t1;
  x[0] = p->u0 * t1 + up * s - 0.5 * dec * s * s;
  v[0] = t < ts ? up - dec * s : 0;
  x[1] = v[1] = 0;
  if (F != NULL)
    F[0] = t < ts ? -p->mu * p->m * g : 0;
  return FB_OK;
}

const fb_scenario_type fb_scenario_block_drop = {
    .name = "block-drop",
    .title = "sliding block dropped on rough ground: Coulomb impulse, friction mu lambda_n",
    .source = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §4.3",
    .params = &block_drop_set,
    .ref_kind = block_drop_ref_kind,
    .build = block_drop_build,
    .exact = block_drop_exact,
};
