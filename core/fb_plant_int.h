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

/* Applied force plus -D v - K x (no friction) into f[n]. */
void fb_plant_smooth_force(const fb_plant *pl, double t, const double *x, const double *v,
                           double *f);
/* f[n] -= D v + K x: the linear part of fb_plant_smooth_force, for callers that have the
 * applied force already (integrators cache a forcing that depends on t only). */
void fb_plant_sub_linear(const fb_plant *pl, const double *x, const double *v, double *f);
/* a = M^-1 f (a and f may not alias). */
void fb_plant_solve_mass(const fb_plant *pl, const double *f, double *a);

#endif
