/* fb_kinematics.c — the kinematic map qdot = T(q) nu of a plant with unit quaternions
 * (include/fricbench/fb_plant.h, fb_kinematics; docs/scenarios/sphere-drop.md).
 *
 * Attitude kinematics with the angular velocity omega in the space frame ([Xiong2013] §5.1,
 * Example I's attitude):
 *     Qdot = 1/2 (0, omega) (x) Q,
 * (x) the Hamilton product, Q = (w, x, y, z).  ‖Q‖ is an invariant of the exact flow, not of
 * a discretization: nothing here rescales Q unless asked (fb_kin_normalize).
 */
#include <math.h>

#include "fb_plant_int.h"

void fb_quat_mul(const double *a, const double *b, double *c)
{
  c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  c[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  c[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  c[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void fb_kin_rates(const fb_plant *pl, const double *v, const double *Q, double *Qdot)
{
  for (size_t b = 0; b < pl->kin.nquat; b++) {
    const double *w = v + pl->kin.quat[b].dof;
    const double half_w[4] = {0.0, 0.5 * w[0], 0.5 * w[1], 0.5 * w[2]};
    fb_quat_mul(half_w, Q + 4 * b, Qdot + 4 * b);
  }
}

double fb_kin_norm_err(const fb_plant *pl, const double *Q)
{
  double e = 0.0;
  for (size_t b = 0; b < pl->kin.nquat; b++) {
    const double *q = Q + 4 * b;
    e = fmax(e, fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1.0));
  }
  return e;
}

void fb_kin_normalize(const fb_plant *pl, double *Q)
{
  for (size_t b = 0; b < pl->kin.nquat; b++) {
    double *q = Q + 4 * b;
    const double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (s > 0)
      for (int k = 0; k < 4; k++)
        q[k] /= s;
  }
}

/* exp(h/2 (0, omega)) = (cos(|omega| h/2), sin(|omega| h/2) omega/|omega|): the rotation by
 * the angle |omega| h about omega, applied on the left (space frame). */
void fb_kin_rotate(const fb_plant *pl, const double *v, double h, double *Q)
{
  for (size_t b = 0; b < pl->kin.nquat; b++) {
    const double *w = v + pl->kin.quat[b].dof;
    const double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const double half = 0.5 * wn * h;
    /* sin(half)/|omega| without 0/0: its series below 1e-8 rad */
    const double s = fabs(half) > 1e-8 ? sin(half) / wn : 0.5 * h * (1.0 - half * half / 6.0);
    const double r[4] = {cos(half), s * w[0], s * w[1], s * w[2]};
    double q[4];
    fb_quat_mul(r, Q + 4 * b, q);
    for (int k = 0; k < 4; k++)
      Q[4 * b + k] = q[k];
  }
}
