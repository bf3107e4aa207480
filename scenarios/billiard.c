/* billiard.c — a ball with side spin on a rough table: it slips, then rolls
 * ([Xiong2013] §5.1; docs/design.md §13).
 *
 * Sphere of radius r, mass m, inertia I = 2/5 m r^2 on a horizontal plane.  DOFs:
 * centre x, y (m) and the rotation angles about x and y (rad), velocities vx, vy,
 * omega_x, omega_y; M = diag(m, m, I, I).  The contact point's slip is
 *     u = (vx - r omega_y, vy + r omega_x),
 * two rows of a constant tangential Jacobian, J_t = [[1, 0, 0, -r], [0, 1, r, 0]]
 * (angles ordered x, y); friction F (on the ball at the contact) enters as J_t^T F: the
 * force on the centre and the torque (r F_y, -r F_x) about x and y.  Normal force m g,
 * coefficient mu.  Defaults r = 0.1, m = 1, g = 9.81, mu = 0.2, v0 = (2, 0),
 * omega0 = (10, 0) (side spin about x): u0 = (2, 1).
 * Closed form: J_t M^-1 J_t^T = (1/m + r^2/I) I = 7/(2m) I is isotropic, so in slip
 * u' = -(7/2) mu g u/|u|: u keeps its direction and |u| falls linearly to 0 at
 *     t* = 2 |u0| / (7 mu g);
 * until then the centre moves on a parabola, x = v0 t - mu g u0hat t^2/2, and the spins
 * change at (r/I) (F_y, -F_x) with F = -mu m g u0hat; after t* it rolls straight at
 * v0 - (2/7) u0 with constant spin (no rolling resistance: the friction is 0).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct billiard_params {
  double r, m, g, mu, vx0, vy0, wx0, wy0, T;
} billiard_params;

static const fb_param_desc billiard_desc[] = {
    {"r", "m", "ball radius", offsetof(billiard_params, r), 0.1, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"m", "kg", "mass (inertia 2/5 m r^2)", offsetof(billiard_params, m), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(billiard_params, g), 9.81, 0,
     INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mu", "1", "friction coefficient", offsetof(billiard_params, mu), 0.2, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"vx0", "m/s", "initial centre velocity, x", offsetof(billiard_params, vx0), 2, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"vy0", "m/s", "initial centre velocity, y", offsetof(billiard_params, vy0), 0, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"wx0", "rad/s", "initial spin about x (side spin)", offsetof(billiard_params, wx0), 10,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"wy0", "rad/s", "initial spin about y", offsetof(billiard_params, wy0), 0, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(billiard_params, T), 1, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
};
static const fb_param_set billiard_set = {sizeof(billiard_params), 9, billiard_desc};

static int billiard_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const billiard_params *p = sp;
  if (fb_plant_alloc(pl, 4, 2, 0) != FB_OK || fb_plant_alloc_jacobians(pl) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double I = 0.4 * p->m * p->r * p->r;
  pl->M[0] = pl->M[5] = p->m;
  pl->M[10] = pl->M[15] = I;
  pl->v0[0] = p->vx0;
  pl->v0[1] = p->vy0;
  pl->v0[2] = p->wx0;
  pl->v0[3] = p->wy0;
  pl->T = p->T;
  pl->f_c = 1.0 / p->T;
  pl->path_dof[0] = 0; /* the path in the plane: x, y */
  pl->path_dof[1] = 1;
  const double u0 = hypot(p->vx0 - p->r * p->wy0, p->vy0 + p->r * p->wx0);
  pl->v_scale = fmax(fmax(u0, hypot(p->vx0, p->vy0)), p->mu * p->g * p->T);
  fb_plant_set_pair(pl, 0, (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0}, p->m * p->g);
  /* u_x = vx - r omega_y, u_y = vy + r omega_x */
  pl->contact[0].Jt[0] = 1.0;
  pl->contact[0].Jt[3] = -p->r;
  pl->contact[1].Jt[1] = 1.0;
  pl->contact[1].Jt[2] = p->r;
  return FB_OK;
}

static fb_ref_kind billiard_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

/* docs/design.md §13: slip along u0hat to t* = 2|u0|/(7 mu g), then rolling. */
static int billiard_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const billiard_params *p = sp;
  const double I = 0.4 * p->m * p->r * p->r, r = p->r;
  const double ux = p->vx0 - r * p->wy0, uy = p->vy0 + r * p->wx0, w = hypot(ux, uy);
  const double ex = w > 0 ? ux / w : 0.0, ey = w > 0 ? uy / w : 0.0;
  const double Fn = p->mu * p->m * p->g, ts = w / (3.5 * p->mu * p->g), s = fmin(t, ts);
  const double Fx = -Fn * ex, Fy = -Fn * ey;
  /* accelerations while slipping: centre F/m, spins (r F_y, -r F_x)/I */
  const double a[4] = {Fx / p->m, Fy / p->m, r * Fy / I, -r * Fx / I};
  const double q0[4] = {p->vx0, p->vy0, p->wx0, p->wy0};
  for (size_t k = 0; k < 4; k++) {
    const double vs = q0[k] + a[k] * s; /* velocity at min(t, t*) */
    x[k] = q0[k] * s + 0.5 * a[k] * s * s + vs * (t - s);
    v[k] = vs;
  }
  if (F != NULL) {
    F[0] = t < ts ? Fx : 0.0;
    F[1] = t < ts ? Fy : 0.0;
  }
  return FB_OK;
}

const fb_scenario_type fb_scenario_billiard = {
    .name = "billiard",
    .title = "ball with side spin on a rough table: slips along a fixed direction, then rolls",
    .source = "[Xiong2013] §5.1; docs/design.md §13",
    .params = &billiard_set,
    .ref_kind = billiard_ref_kind,
    .build = billiard_build,
    .exact = billiard_exact,
};
