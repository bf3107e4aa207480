/* fb_plant_int.h — the plant's helpers for the library's own steppers and models
 * (core/fb_plant.c); not exported: a plugin sees the plant's fields and the inline
 * helpers of fricbench/fb_plant.h only. */
#ifndef FB_PLANT_INT_H
#define FB_PLANT_INT_H

#include "fb_plant.h"

/* Effective mass seen by contact i: 1 / (Jt M^-1 Jt^T), 1 / (M^-1)_jj for a one-DOF
 * contact (kg). */
double fb_plant_contact_mass(const fb_plant *pl, size_t i);
/* Stiffness seen by contact i: Jt K Jt^T, K_jj for a one-DOF contact (N/m). */
double fb_plant_contact_stiffness(const fb_plant *pl, size_t i);
/* Static friction force of contact i at time t0: N mu_s (N). */
double fb_plant_contact_Fs(const fb_plant *pl, size_t i);

/* The kinematic map (core/fb_kinematics.c; fb_kinematics in fricbench/fb_plant.h).  Q
 * points at the plant's 4 nquat quaternion components (an integrator's y + 2 n + nc nz). */
/* Qdot[4 nquat] = 1/2 (0, omega) (x) Q for each block, omega from v. */
void fb_kin_rates(const fb_plant *pl, const double *v, const double *Q, double *Qdot);
/* max over the blocks of |‖Q‖ - 1| (0 without blocks). */
double fb_kin_norm_err(const fb_plant *pl, const double *Q);
/* Every Q scaled to unit norm. */
void fb_kin_normalize(const fb_plant *pl, double *Q);
/* Q <- exp(h/2 (0, omega)) (x) Q with omega from v for each block: the exact rotation
 * over h at constant omega (norm-preserving to round-off). */
void fb_kin_rotate(const fb_plant *pl, const double *v, double h, double *Q);
/* The quaternion product c = a (x) b ((w, x, y, z) each; c may not alias a or b). */
void fb_quat_mul(const double *a, const double *b, double *c);

/* Applied force plus -D v - K x (no friction) into f[n]. */
void fb_plant_smooth_force(const fb_plant *pl, double t, const double *x, const double *v,
                           double *f);
/* f[n] -= D v + K x: the linear part of fb_plant_smooth_force, for callers that have the
 * applied force already (integrators cache a forcing that depends on t only). */
void fb_plant_sub_linear(const fb_plant *pl, const double *x, const double *v, double *f);
/* a = M^-1 f (a and f may not alias). */
void fb_plant_solve_mass(const fb_plant *pl, const double *f, double *a);

/* Entries of M and K in either store (i, j < n). */
double fb_plant_M_at(const fb_plant *pl, size_t i, size_t j);
double fb_plant_K_at(const fb_plant *pl, size_t i, size_t j);
/* (M^-1)_jj: the dense inverse's entry, or from the banded factor (exact 1/M_jj for a
 * diagonal M; one O(n bw) solve otherwise, set-up only). */
double fb_plant_minv_diag(const fb_plant *pl, size_t j);
/* ||M^-1||_inf of a banded plant (exact for a diagonal M, else LAPACK's 1-norm estimate). */
double fb_plant_minv_norm(const fb_plant *pl);
/* y = A x for a band array A (Mb, Db, Kb) of a banded plant; y and x may not alias. */
void fb_band_matvec(const fb_plant *pl, const double *A, const double *x, double *y);
/* y += alpha A x for a band array A of a banded plant. */
void fb_band_axpy(const fb_plant *pl, double alpha, const double *A, const double *x,
                  double *y);

/* x^T A x for a band array A of a banded plant. */
double fb_band_quad(const fb_plant *pl, const double *A, const double *x);

/* A contact direction as a sparse row (docs/scenarios/chain.md "Contact rows of a banded
 * plant"): nnz entries val[k] at columns idx[k], ascending.  A banded plant's normals are
 * compressed into such rows by fb_plant_finish (one block, set-up only); a one-DOF friction
 * contact is the unit row e_dof and needs no storage. */
typedef struct fb_sprow {
  size_t nnz;
  const size_t *idx;
  const double *val;
} fb_sprow;
/* Normal k's gap row J_n,k of a banded plant (NULL for a dense plant: read Jn there). */
const fb_sprow *fb_plant_normal_row(const fb_plant *pl, size_t k);
/* Friction contact i's row of a banded plant (one-DOF: the unit row e_dof) into *r. */
void fb_plant_contact_row(const fb_plant *pl, size_t i, fb_sprow *r);
/* r . x, summed over the row's entries in column order (the same sum as the dense dot of
 * the full row: the skipped terms are exact zeros). */
static inline double fb_sprow_dot(const fb_sprow *r, const double *x)
{
  double s = 0;
  for (size_t k = 0; k < r->nnz; k++)
    s += r->val[k] * x[r->idx[k]];
  return s;
}
/* y += a r^T. */
static inline void fb_sprow_axpy(const fb_sprow *r, double a, double *y)
{
  for (size_t k = 0; k < r->nnz; k++)
    y[r->idx[k]] += a * r->val[k];
}

/* May this (model, integrator) pair run a banded plant?  ode_kind: FB_BANDED_ODE_EXPLICIT
 * (1) for a generic explicit ODE stepper with a model that needs no applied-force split
 * (every such pair runs), FB_BANDED_ODE_IMPLICIT (2) for a generic implicit one with such a
 * model (those with a band linear solver run), 0 for any other pair (the table's run).  The
 * tables are data in core/fb_plant.c; fb_plant_banded_pair lists the pairs k = 0, 1, ... and
 * fb_plant_banded_ode_implicit the implicit ODE steppers (0 past the end). */
enum { FB_BANDED_ODE_EXPLICIT = 1, FB_BANDED_ODE_IMPLICIT = 2 };
int fb_plant_banded_ok(const char *model, const char *integ, int ode_kind);
int fb_plant_banded_pair(size_t k, const char **model, const char **integ);
int fb_plant_banded_ode_implicit(size_t k, const char **integ);
/* May normal treatment `normal` (a time-stepping one: it steps the plant itself under the
 * contact scheme) run a banded plant?  The table is data in core/fb_plant.c;
 * fb_plant_banded_normal lists it (0 past the end). */
int fb_plant_banded_normal_ok(const char *normal);
int fb_plant_banded_normal(size_t k, const char **normal);

#endif
