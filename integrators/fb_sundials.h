/* fb_sundials.h — what the SUNDIALS steppers (sundials_cvode.c, sundials_arkode.c) share:
 * the assembled ODE (fb_system.h) behind SUNDIALS' callback signatures, the model's
 * Jacobian copied into a SUNDIALS dense matrix, and the solver's error message kept for
 * the run's one-line error.  Built only when meson found SUNDIALS (FB_HAVE_SUNDIALS);
 * docs/integrators/sundials.md.
 */
#ifndef FB_SUNDIALS_H
#define FB_SUNDIALS_H

#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "fb_integrator.h"
#include "fb_system.h"

/* The CVODE and ARKODE types (registered by integrators/registry.c). */
extern const fb_integrator_type fb_integrator_cvode_bdf, fb_integrator_cvode_adams;
extern const fb_integrator_type fb_integrator_arkode_erk, fb_integrator_arkode_dirk,
    fb_integrator_arkode_imex;

/* What a SUNDIALS stepper keeps besides its solver: the system, the last message, and on a
 * banded plant the interleaved order of the solver's state (sundials_band.c). */
typedef struct fb_sun_common {
  const fb_problem *pb;
  fb_int_opts o;
  fb_system sys;
  /* Banded plants only (NULL, 0 on a dense one): the solver's state u is y = [x, v, z]
   * interleaved per DOF, u_k = y[perm[k]]; ys, fs hold y and f(y) in fb_system's order;
   * mu, ml the Jacobian's upper and lower half-bandwidths in u's order. */
  size_t *perm;
  double *ys, *fs;
  sunindextype mu, ml;
  double *dfdy;   /* dim x dim, row-major: fb_system_jac's layout (dense plants) */
  double *dfdt;   /* dim: fb_system_jac's df/dt (unused by SUNDIALS) */
  double ta, tb;  /* the last accepted step as reported to the driver (dense output) */
  int have_last;  /* ta, tb hold a step the solver can interpolate */
  char msg[200];  /* the solver's last error message */
} fb_sun_common;

/* SUNDIALS' error handler (CVErrHandlerFn / ARKErrHandlerFn): keep the message, print
 * nothing (the run reports it in its one-line error). */
static inline void fb_sun_err_handler(int code, const char *module, const char *function,
                                      char *msg, void *user_data)
{
  fb_sun_common *c = user_data;
  snprintf(c->msg, sizeof c->msg, "%s %s (%d): %s", module, function, code, msg);
}

/* The right-hand side for SUNDIALS: fb_system's (counted in nfe, under the RHS budget; on a
 * banded plant in the interleaved order);
 * a refused evaluation (budget, model failure) is unrecoverable (-1): the solver returns
 * at once and sys.stop says why. */
/* The band view (sundials_band.c): on a banded plant with a diagonal M, the solver's state
 * interleaved per DOF and the half-bandwidths of its Jacobian; FB_EUNSUP with the reason
 * for a plant it cannot band.  Allocates c->perm, ys, fs (freed by fb_sun_band_free). */
int fb_sun_band_init(fb_sun_common *c, const char *integ, fb_err *err);
void fb_sun_band_free(fb_sun_common *c);

/* y[perm[k]] = u[k]: the solver's interleaved state into fb_system's order (O(dim)). */
static inline void fb_sun_band_gather(const fb_sun_common *c, const double *u, double *y)
{
  for (size_t k = 0; k < c->pb->dim; k++)
    y[c->perm[k]] = u[k];
}

/* u[k] = y[perm[k]]: fb_system's order into the solver's (O(dim)). */
static inline void fb_sun_band_scatter(const fb_sun_common *c, const double *y, double *u)
{
  for (size_t k = 0; k < c->pb->dim; k++)
    u[k] = y[c->perm[k]];
}

/* The right-hand side in the interleaved order: gathered, fb_system's, scattered back. */
static inline int fb_sun_rhs_band(fb_sun_common *c, double t, const double *u, double *udot)
{
  fb_sun_band_gather(c, u, c->ys);
  if (c->sys.gsys.function(t, c->ys, c->fs, &c->sys) != GSL_SUCCESS)
    return -1;
  fb_sun_band_scatter(c, c->fs, udot);
  return 0;
}

static inline int fb_sun_rhs(double t, N_Vector y, N_Vector ydot, void *user_data)
{
  fb_sun_common *c = user_data;
  if (c->perm != NULL)
    return fb_sun_rhs_band(c, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return c->sys.gsys.function(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), &c->sys) ==
                 GSL_SUCCESS
             ? 0
             : -1;
}

/* The model's Jacobian (fb_system_jac: analytic partials of the friction law where the
 * model has them, counted in njac) into SUNDIALS' column-major dense matrix. */
static inline int fb_sun_jac_dense(fb_sun_common *c, double t, N_Vector y, SUNMatrix J)
{
  const size_t dim = c->pb->dim;
  if (fb_system_jac(t, N_VGetArrayPointer(y), c->dfdy, c->dfdt, &c->sys) != GSL_SUCCESS)
    return -1;
  for (size_t j = 0; j < dim; j++) {
    double *col = SM_COLUMN_D(J, (sunindextype)j);
    for (size_t i = 0; i < dim; i++)
      col[i] = c->dfdy[i * dim + j];
  }
  return 0;
}

/* The run's error for a failed solver call with flag at t: the budget or the model's
 * failure when the system refused an evaluation, else the solver's own message. */
static inline int fb_sun_failure(const fb_sun_common *c, const char *solver, int flag, double t,
                                 fb_err *err)
{
  if (c->sys.stop == FB_BUDGET)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      c->o.max_rhs, t);
  if (c->sys.stop != FB_OK)
    return fb_err_set(err, c->sys.stop, "model %s failed at t=%.17g: %s",
                      c->pb->model->type->name, c->sys.stop_t, fb_status_message(c->sys.stop));
  return fb_err_set(err, FB_ESOLVE, "%s failed (flag %d) at t=%.17g: %s", solver, flag, t,
                    c->msg[0] != '\0' ? c->msg : "no message");
}

/* The tolerances of a run: the driver's, or 1e-8 when none was given. */
static inline double fb_sun_tol(double tol)
{
  return isfinite(tol) && tol > 0 ? tol : 1e-8;
}

#endif
