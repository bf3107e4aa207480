/* bouncing_ball.c — a ball dropped onto rigid ground ([Xiong2013] fig. 5; docs/design.md §12).
 *
 *     m yddot = -m g + lambda_n,   0 <= y  ⊥  lambda_n >= 0,   y+ = -e y- at impacts,
 *
 * y the gap (height), dropped from y = h at rest; defaults m = 1, g = 9.81, h = 1, e = 0.7
 * (0.3 is the other value of the figure), T = 4.  No friction contact.  The normal
 * treatment is the parameter `normal` (newton, penalty-n, hunt-crossley, kikuuwe-n); its
 * own parameters are set with --set normal.NAME=VALUE.  Closed form (Newton's law): first
 * impact t1 = sqrt(2 h/g) at v1 = g t1, flights 2 e^k v1/g, accumulation at
 * t_inf = t1 (1 + e)/(1 - e), then rest with lambda_n = m g.
 */
#include <math.h>
#include <stddef.h>

#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct bouncing_ball_params {
  double m, g, h, e, T, normal;
} bouncing_ball_params;

static const fb_param_desc bouncing_ball_desc[] = {
    {"m", "kg", "mass", offsetof(bouncing_ball_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"g", "m/s^2", "gravity", offsetof(bouncing_ball_params, g), 9.81, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"h", "m", "drop height (initial gap)", offsetof(bouncing_ball_params, h), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"e", "1", "restitution coefficient (Newton's law)", offsetof(bouncing_ball_params, e), 0.7,
     0, 1, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(bouncing_ball_params, T), 4, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"normal", "", "normal-contact treatment", offsetof(bouncing_ball_params, normal), 0, 0, FB_NORMAL_MAX - 1,
     FB_PARAM_CHOICE, NULL, fb_normal_names},
};
static const fb_param_set bouncing_ball_set = {sizeof(bouncing_ball_params), 6,
                                               bouncing_ball_desc};

static void bouncing_ball_force(const void *sp, double t, const double *x, const double *v,
                                double *f)
{
  const bouncing_ball_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = -p->m * p->g;
}

static int bouncing_ball_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const bouncing_ball_params *p = sp;
  if (fb_plant_alloc(pl, 1, 0, 0) != FB_OK || fb_plant_alloc_normals(pl, 1) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->x0[0] = p->h;
  pl->v0[0] = 0;
  pl->T = p->T;
  pl->v_scale = sqrt(2 * p->g * p->h);
  pl->f_c = 1.0 / p->T;
  pl->force = bouncing_ball_force;
  fb_normal *nm = &pl->normal[0];
  nm->Jn[0] = 1.0;
  nm->g0 = 0;
  nm->e = p->e;
  nm->a_scale = p->g;
  nm->h_scale = p->h;
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  fb_normal_select(nm, nt);
  return FB_OK;
}

static fb_ref_kind bouncing_ball_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

static int bouncing_ball_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const bouncing_ball_params *p = sp;
  const double g = p->g, e = p->e;
  const double t1 = sqrt(2 * p->h / g), v1 = g * t1;
  (void)F;
  if (t < t1) {
    x[0] = p->h - 0.5 * g * t * t;
    v[0] = -g * t;
    return FB_OK;
  }
  const double t_inf = e < 1 ? t1 * (1 + e) / (1 - e) : (double)INFINITY;
  if (t >= t_inf) {
    x[0] = v[0] = 0;
    return FB_OK;
  }
  double tk = t1, vk = e * v1; /* start and launch speed of the current flight */
  for (int k = 0; k < 100000 && vk > 0 && t >= tk + 2 * vk / g; k++) {
    tk += 2 * vk / g;
    vk *= e;
  }
  const double s = t - tk;
  x[0] = vk * s - 0.5 * g * s * s;
  v[0] = vk - g * s;
  return FB_OK;
}

const fb_scenario_type fb_scenario_bouncing_ball = {
    .name = "bouncing-ball",
    .title = "ball dropped on rigid ground: impacts, Zeno accumulation, rest (normal contact)",
    .source = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] fig. 5; Newton's impact law",
    .params = &bouncing_ball_set,
    .ref_kind = bouncing_ball_ref_kind,
    .build = bouncing_ball_build,
    .exact = bouncing_ball_exact,
};
