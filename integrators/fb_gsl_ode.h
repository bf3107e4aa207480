/* fb_gsl_ode.h — the generic ODE integrator family: any gsl_odeiv2_step_type.
 *
 * Fixed step (opts.h finite): the stepper's apply() is called directly with step h
 * (the last step of each interval between breaks is shortened to land exactly on it);
 * no error control, one accepted step per call.  Adaptive (opts.h NaN):
 * gsl_odeiv2_evolve_apply with the standard y-control (atol, rtol), stepping exactly to
 * every break.  The stepper and evolve objects are reset at breaks (GSL requires it
 * when the right-hand side changes).  The integrator type's `data` is the address of
 * the GSL step type pointer (e.g. &gsl_odeiv2_step_rk4).
 */
#ifndef FB_GSL_ODE_H
#define FB_GSL_ODE_H

#include <gsl/gsl_odeiv2.h>

#include "fb_integrator.h"

int fb_gsl_ode_alloc(void **ws, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err);
int fb_gsl_ode_evolve(void *ws, double *t, double *y, const fb_observer *obs, fb_counters *cnt,
                      fb_err *err);
void fb_gsl_ode_free(void *ws);

/* Heun's third-order Runge-Kutta (seed 001) as a gsl_odeiv2_step_type, with an embedded
 * second-order solution for the error estimate. */
extern const gsl_odeiv2_step_type *fb_step_heun3;

#endif
