/* fb_system.h — a plant and an ODE-family model assembled into one gsl_odeiv2_system.
 *
 *   y = [x(n), v(n), z(nc*nz)],   x' = v,
 *   v' = M^-1 ( f(t,x,v) - D v - K x + sum_i e_{j_i} F_i ),   z_i' = dz_i,
 *   (F_i, dz_i) = model.force(v_r = v_{j_i} - u_i(t), z_i).
 *
 * fb_system_rhs and fb_system_jac have GSL's exact signatures.  The RHS counts its
 * evaluations in the run's counters and refuses (GSL_EBADFUNC, which makes GSL return
 * at once) when the RHS budget is spent or the model fails; `stop` then says why.
 * The Jacobian is assembled from each contact's analytic partials (model.jac) or from
 * finite differences of model.force, and of the scenario's force when it depends on
 * the state; df/dt is a forward difference.  No allocation after fb_system_alloc.
 */
#ifndef FB_SYSTEM_H
#define FB_SYSTEM_H

#include <gsl/gsl_odeiv2.h>

#include "fb_integrator.h"

typedef struct fb_system {
  const fb_plant *pl;
  const fb_model *md;
  size_t n, nc, nz, dim;
  double *f;       /* n: total force */
  double *work;    /* 2 dim + n (dim + n): scratch for differences */
  double *A;       /* n x dim: d(total force)/d(y) */
  fb_counters *cnt; /* the run's counters (set before stepping) */
  unsigned long max_rhs;
  int stop;        /* FB_OK, FB_BUDGET or the model's failure status */
  double seg_t0;   /* the current segment's opening break (-INFINITY at t0) */
  double seg_t1;   /* its closing break (INFINITY at T) */
  double stop_t;   /* time of the refused evaluation */
  gsl_odeiv2_system gsys; /* function, jacobian, dimension, params = this */
} fb_system;

int fb_system_alloc(fb_system *s, const fb_problem *pb, unsigned long max_rhs);
void fb_system_free(fb_system *s);
int fb_system_rhs(double t, const double y[], double dydt[], void *params);
int fb_system_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);

#endif
