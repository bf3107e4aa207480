/* conveyor_wall.c — a conveyor, a spring, two objects and a wall: three frictional
 * unilateral contacts whose normal forces depend on each other's friction ([Xiong2013] §5.2,
 * Example II, fig. 8; docs/scenarios/conveyor-wall.md).
 *
 * q = (xA, yA, xB, yB) (m), M = diag(mA, mA, mB, mB), K = k e2 e2^T, f = (0, 0, 0, -mB g):
 * object A hangs on a vertical spring k (its weight balanced at yA = 0) and moves freely in
 * x; object B lies on a belt moving at vc (< 0: toward the wall).  The paper's origins are
 * kept: A touches the wall at xA = 0, B touches A (A at its origin) at xB = 0 and the belt at
 * yB = 0.  Contacts (gap g_n = J_n q, slip u = J_t qdot - u_surf, friction bound mu lambda_n):
 *
 *   1 wall-A   g = xA        J_n = e1       J_t = e2        u_surf = 0   mu1
 *   2 A-B      g = xB - xA   J_n = e3 - e1  J_t = e4 - e2   u_surf = 0   mu2
 *   3 B-belt   g = yB        J_n = e4       J_t = e3        u_surf = vc  mu3
 *
 * Newton's restitution e at all three.  Every number is our reading (the paper's were lost
 * in extraction): mA = mB = 1 kg, k = 400 N/m, mu1 = mu2 = mu3 = 0.5, vc = -1 m/s, e = 0.5,
 * start xA = 0.05, yA = 0.02, xB = 0.2, yB = 0 at rest, T = 3 s.  Variant pinned = 1 (the
 * `pinned-start` check): xA = xB = yA = 0 at rest, the static state from t = 0.  No closed
 * form: the reference is a converged moreau-jean run (docs/scenarios/conveyor-wall.md).
 */
#include <math.h>
#include <stddef.h>

#include "fb_math.h"
#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct conveyor_wall_params {
  double mA, mB, k, g, mu1, mu2, mu3, vc, e;
  double xA0, yA0, xB0, yB0, vxA0, vyA0, vxB0, vyB0;
  double pinned, T, normal;
} conveyor_wall_params;

#define CW_OPEN FB_PARAM_MIN_OPEN
static const fb_param_desc conveyor_wall_desc[] = {
    {"mA", "kg", "mass of object A (on the spring)", offsetof(conveyor_wall_params, mA), 1, 0,
     INFINITY, CW_OPEN, NULL, NULL},
    {"mB", "kg", "mass of object B (on the belt)", offsetof(conveyor_wall_params, mB), 1, 0,
     INFINITY, CW_OPEN, NULL, NULL},
    {"k", "N/m", "stiffness of A's vertical spring", offsetof(conveyor_wall_params, k), 400, 0,
     INFINITY, CW_OPEN, NULL, NULL},
    {"g", "m/s^2", "gravity", offsetof(conveyor_wall_params, g), 9.81, 0, INFINITY, CW_OPEN,
     NULL, NULL},
    {"mu1", "1", "friction coefficient wall-A", offsetof(conveyor_wall_params, mu1), 0.5, 0,
     INFINITY, 0, NULL, NULL},
    {"mu2", "1", "friction coefficient A-B", offsetof(conveyor_wall_params, mu2), 0.5, 0,
     INFINITY, 0, NULL, NULL},
    {"mu3", "1", "friction coefficient B-belt", offsetof(conveyor_wall_params, mu3), 0.5, 0,
     INFINITY, CW_OPEN, NULL, NULL},
    {"vc", "m/s", "belt velocity along x (< 0: toward the wall)", offsetof(conveyor_wall_params, vc),
     -1, -INFINITY, 0, FB_PARAM_MAX_OPEN, NULL, NULL},
    {"e", "1", "restitution coefficient (Newton's law) at all three contacts",
     offsetof(conveyor_wall_params, e), 0.5, 0, 1, 0, NULL, NULL},
    {"xA0", "m", "initial xA (gap to the wall)", offsetof(conveyor_wall_params, xA0), 0.05, 0,
     INFINITY, 0, NULL, NULL},
    {"yA0", "m", "initial yA (from the spring's balance)", offsetof(conveyor_wall_params, yA0),
     0.02, -INFINITY, INFINITY, 0, NULL, NULL},
    {"xB0", "m", "initial xB (>= xA0)", offsetof(conveyor_wall_params, xB0), 0.2, 0, INFINITY, 0,
     NULL, NULL},
    {"yB0", "m", "initial yB (gap to the belt)", offsetof(conveyor_wall_params, yB0), 0, 0,
     INFINITY, 0, NULL, NULL},
    {"vxA0", "m/s", "initial xA'", offsetof(conveyor_wall_params, vxA0), 0, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"vyA0", "m/s", "initial yA'", offsetof(conveyor_wall_params, vyA0), 0, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"vxB0", "m/s", "initial xB'", offsetof(conveyor_wall_params, vxB0), 0, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"vyB0", "m/s", "initial yB'", offsetof(conveyor_wall_params, vyB0), 0, -INFINITY, INFINITY,
     0, NULL, NULL},
    {"pinned", "1", "1: the pinned-start variant (xA = xB = yA = 0 at rest, overriding the "
     "initial positions and velocities)", offsetof(conveyor_wall_params, pinned), 0, 0, 1,
     FB_PARAM_INT, NULL, NULL},
    {"T", "s", "end time", offsetof(conveyor_wall_params, T), 3, 0, INFINITY, CW_OPEN, NULL, NULL},
    {"normal", "", "normal-contact treatment", offsetof(conveyor_wall_params, normal), 0, 0,
     FB_NORMAL_MAX - 1, FB_PARAM_CHOICE, NULL, fb_normal_names},
};
static const fb_param_set conveyor_wall_set = {
    sizeof(conveyor_wall_params), sizeof conveyor_wall_desc / sizeof *conveyor_wall_desc,
    conveyor_wall_desc};

/* B's weight; A's is balanced by the spring at yA = 0 (the paper's origin). */
static void conveyor_wall_force(const void *sp, double t, const double *x, const double *v,
                                double *f)
{
  const conveyor_wall_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = f[1] = f[2] = 0;
  f[3] = -p->mB * p->g;
}

/* Friction contact i with tangential row (DOF jt, and -1 on DOF jt2 when jt2 < 4), its
 * normal with gap row Jn = e_jn (- e_jn2 when jn2 < 4).  N0: the load friction-only code
 * paths see (the static state's), u: surface velocity. */
static void cw_contact(fb_plant *pl, size_t i, size_t jt, size_t jt2, size_t jn, size_t jn2,
                       double mu, double N0, double u, double e, double a, double h)
{
  fb_contact *c = &pl->contact[i];
  c->dof = jt;
  c->Jt[jt] = 1.0;
  if (jt2 < 4)
    c->Jt[jt2] = -1.0;
  c->law = (fb_friction){FB_SHAPE_COULOMB, mu, mu, 1.0};
  c->c0 = (fb_contact_state){N0, u, 0.0};
  fb_normal *nm = &pl->normal[i];
  nm->Jn[jn] = 1.0;
  if (jn2 < 4)
    nm->Jn[jn2] = -1.0;
  nm->g0 = 0;
  nm->e = e;
  nm->fric = (long)i;
  nm->a_scale = a;
  nm->h_scale = h;
}

static int conveyor_wall_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const conveyor_wall_params *p = sp;
  const int pin = p->pinned != 0;
  const double xA = pin ? 0 : p->xA0, xB = pin ? 0 : p->xB0;
  if (!pin && p->xB0 < p->xA0)
    return fb_err_set(err, FB_EINVAL, "xB0 = %g < xA0 = %g: allowed is xB0 >= xA0 (B is on "
                      "the far side of A from the wall)", p->xB0, p->xA0);
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  if (fb_plant_alloc(pl, 4, 3, 0) != FB_OK || fb_plant_alloc_normals(pl, 3) != FB_OK ||
      fb_plant_alloc_jacobians(pl) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = pl->M[5] = p->mA;
  pl->M[10] = pl->M[15] = p->mB;
  pl->K[1 * 4 + 1] = p->k;
  pl->x0[0] = xA;
  pl->x0[1] = pin ? 0 : p->yA0;
  pl->x0[2] = xB;
  pl->x0[3] = pin ? 0 : p->yB0;
  pl->v0[0] = pin ? 0 : p->vxA0;
  pl->v0[1] = pin ? 0 : p->vyA0;
  pl->v0[2] = pin ? 0 : p->vxB0;
  pl->v0[3] = pin ? 0 : p->vyB0;
  pl->T = p->T;
  pl->v_scale = fabs(p->vc);
  pl->f_c = sqrt(p->k / p->mA) / (2 * M_PI);
  pl->force = conveyor_wall_force;
  /* scales of the treatments' auto parameters: the horizontal contacts are hit at about
   * the belt speed (v_in^2 = 2 a h with a = mu3 g and h = |vc|^2 / (2 mu3 g), B's run-up),
   * the belt carries B's weight (a = g, h = that run-up, as for the others) */
  const double W = p->mB * p->g, ah = p->mu3 * p->g, hh = p->vc * p->vc / (2 * ah);
  cw_contact(pl, 0, 1, 4, 0, 4, p->mu1, p->mu3 * W, 0.0, p->e, ah, hh);
  cw_contact(pl, 1, 3, 1, 2, 0, p->mu2, p->mu3 * W, 0.0, p->e, ah, hh);
  cw_contact(pl, 2, 2, 4, 3, 4, p->mu3, W, p->vc, p->e, p->g, hh);
  for (size_t k = 0; k < 3; k++)
    fb_normal_select(&pl->normal[k], nt);
  pl->path_dof[0] = pl->path_dof[1] = -1;
  return FB_OK;
}

static fb_ref_kind conveyor_wall_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_NONE; /* a converged moreau-jean run (docs/scenarios/conveyor-wall.md) */
}

const fb_scenario_type fb_scenario_conveyor_wall = {
    .name = "conveyor-wall",
    .title = "conveyor, spring, two objects and a wall: three coupled frictional unilateral "
             "contacts",
    .source = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §5.2 (Example II, fig. 8)",
    .params = &conveyor_wall_set,
    .ref_kind = conveyor_wall_ref_kind,
    .build = conveyor_wall_build,
    .exact = NULL,
};
