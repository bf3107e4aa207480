/* fb_gsl_ode.h — the generic ODE integrator family: any gsl_odeiv2_step_type.
 *
 * Fixed step (opts.h finite): the stepper's apply() is called directly with step h
 * (the last step of each interval between breaks is shortened to land exactly on it);
 * no error control, one accepted step per call.  `rk4` then runs fb_step_rk4_lean, the
 * classical method with 4 RHS per step, not GSL's rk4 (11: it estimates the error by
 * step doubling and returns two steps of h/2).  Adaptive (opts.h NaN):
 * gsl_odeiv2_evolve_apply with the standard y-control (atol, rtol), stepping exactly to
 * every break.  The stepper and evolve objects are reset at breaks (GSL requires it
 * when the right-hand side changes).  The integrator type's `data` is the address of
 * the GSL step type pointer (e.g. &gsl_odeiv2_step_rk4).
 */
#ifndef FB_GSL_ODE_H
#define FB_GSL_ODE_H

#include <gsl/gsl_odeiv2.h>

#include "fb_integrator.h"
#include "fb_integrator_int.h"

int fb_gsl_ode_alloc(void **ws, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err);
void fb_gsl_ode_free(void *ws);
/* The stepper operations (fb_integrator_type.reset, .step, .run). */
int fb_gsl_ode_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
int fb_gsl_ode_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
int fb_gsl_ode_run(void *ws, fb_stepper *s, const fb_observer *obs, fb_err *err);

/* The classical 4th-order Runge-Kutta step without an error estimate (4 RHS per step):
 * `rk4` with a fixed step runs it instead of GSL's step-doubling rk4 (rk4_lean.c). */
extern const gsl_odeiv2_step_type *fb_step_rk4_lean;
struct fb_system;
/* One fb_step_rk4_lean step of a scalar fb_system (fb_system_rhs_scalar) of dimension
 * dim, without the GSL stepper object: GSL_SUCCESS, GSL_EBADFUNC (budget or model
 * failure, y unchanged), or -1 when dim has no specialization (use the stepper). */
int fb_rk4_lean_scalar_step(struct fb_system *fs, size_t dim, double t, double h, double *y,
                            double *yerr);

/* Heun's third-order Runge-Kutta ([ShourbagyMatuttis]) as a gsl_odeiv2_step_type, with an embedded
 * second-order solution for the error estimate. */
extern const gsl_odeiv2_step_type *fb_step_heun3;

#endif
