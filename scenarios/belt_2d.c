/* belt_2d.c — 2-D stick-slip: a mass held by an isotropic spring on a belt that runs along x,
 * released with an offset across the belt (docs/design.md §5 `belt-2d`, §13).
 *
 * DOFs x, y (m), M = m I, K = k I (a spring of stiffness k in both directions to an anchor
 * at the origin).  One 2-D contact (x entry on DOF 0, y entry on DOF 1) with surface
 * velocity (vb, 0): slip u = (xdot - vb, ydot), normal force m g, Stribeck coefficient
 * mu(w) = mu + (mus - mu) exp(-(w/vs)^2) (Coulomb when mus = mu), isotropic:
 * F = -S(|u|) u/|u| in slip, |F| <= m g mus in stick.
 * Defaults m = 1, k = 4, g = 9.81, mu = 0.3, mus = 0.4, vs = 0.1, vb = 0.5, x0 = 0,
 * y0 = 0.5, T = 20, at rest: the belt drags the mass along x until it sticks (|u| = 0 at
 * t = 0.26), the spring loads until k |r| = m g mus (3.92 N), the mass slips back and
 * sticks again: seven stick phases of about 1.2 s in T = 20 (cycle 3.57 s).  The friction's
 * y component damps the y oscillation in every slip, so the offset decays (0.48 at t = 2,
 * 8e-4 at t = 8, 1e-7 at t = 20) while the x stick-slip goes on.  With mus = mu the 1-D
 * analogue has only grazing contacts (the falling characteristic makes the stick-slip
 * robust).
 * Reference: the event-driven 2-D switching solver (models/switching_disc.c).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct belt2d_params {
  double m, k, g, mu, mus, vs, vb, x0, y0, T;
} belt2d_params;

static const fb_param_desc belt2d_desc[] = {
    {"m", "kg", "mass", offsetof(belt2d_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"k", "N/m", "spring stiffness (both directions)", offsetof(belt2d_params, k), 4, 0,
     INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(belt2d_params, g), 9.81, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mu", "1", "kinetic friction coefficient", offsetof(belt2d_params, mu), 0.3, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mus", "1", "static friction coefficient (>= mu; = mu: Coulomb)",
     offsetof(belt2d_params, mus), 0.4, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"vs", "m/s", "Stribeck velocity", offsetof(belt2d_params, vs), 0.1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"vb", "m/s", "belt speed along x", offsetof(belt2d_params, vb), 0.5, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"x0", "m", "initial position, x", offsetof(belt2d_params, x0), 0, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"y0", "m", "initial position, y (offset across the belt)", offsetof(belt2d_params, y0), 0.5,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(belt2d_params, T), 20, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
};
static const fb_param_set belt2d_set = {sizeof(belt2d_params), 10, belt2d_desc};

static int belt2d_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const belt2d_params *p = sp;
  if (!(p->mus >= p->mu))
    return fb_err_set(err, FB_EINVAL,
                      "scenario belt-2d: mus = %g is out of range: allowed is mus >= mu (%g)",
                      p->mus, p->mu);
  if (fb_plant_alloc(pl, 2, 2, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = pl->M[3] = p->m;
  pl->K[0] = pl->K[3] = p->k;
  pl->x0[0] = p->x0;
  pl->x0[1] = p->y0;
  pl->T = p->T;
  pl->f_c = sqrt(p->k / p->m) / (2.0 * 3.14159265358979323846);
  pl->path_dof[0] = 0; /* the path in the plane: x, y */
  pl->path_dof[1] = 1;
  /* belt speed plus the speed a release from the static limit reaches */
  pl->v_scale = fabs(p->vb) + p->mus * p->m * p->g / sqrt(p->k * p->m);
  const fb_friction law = p->mus > p->mu
                              ? (fb_friction){FB_SHAPE_STRIBECK, p->mus, p->mu, p->vs}
                              : (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, p->vs};
  fb_plant_set_pair(pl, 0, law, p->m * p->g);
  pl->contact[0].dof = 0;
  pl->contact[1].dof = 1;
  pl->contact[0].c0.u = p->vb; /* the belt runs along x */
  return FB_OK;
}

static fb_ref_kind belt2d_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_belt_2d = {
    .name = "belt-2d",
    .title = "mass on an isotropic spring on a belt, released across it: 2-D stick-slip",
    .source = "docs/design.md §5, §13 (isotropic Coulomb/Stribeck friction in the plane)",
    .params = &belt2d_set,
    .ref_kind = belt2d_ref_kind,
    .build = belt2d_build,
    .exact = NULL,
};
