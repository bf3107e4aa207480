/* fb_own_ref.h — a model's own reference: the same model with the same parameters solved
 * to convergence (docs/design.md §6), against which a run's *discretization* error is
 * measured, so that an observed order is the scheme's and not the regularization's.
 *
 * How it is solved depends on the run's integrator:
 *  - a model whose h -> 0 limit is the Coulomb solution (suite data exact_limit: the
 *    naive law, splitting, switching): the scenario's reference itself;
 *  - a generic GSL stepper (fixed or adaptive): adaptive rk8pd (or the model's own[0])
 *    at atol = rtol = FB_OWN_TOL (or own_tol) with the step capped by the output grid's
 *    spacing, or rkck (own[1]) when the run itself uses the first (a stepper independent
 *    of the run's own); its accuracy is estimated by the same solve at 100 x the
 *    tolerance (own[] may name an adaptive scheme of the model's own: the penalty
 *    model's Newmark with error control solves its switching rate form's limit);
 *  - a model-owned adaptive scheme (switching/event): the same scheme at FB_OWN_TOL;
 *  - a model-owned fixed-step scheme (splitting, Newmark, ...): the same scheme at a step
 *    FB_OWN_REFINE times finer than the finest step the suite runs it at, its accuracy
 *    estimated by the difference with the solution at twice that step.
 */
#ifndef FB_OWN_REF_H
#define FB_OWN_REF_H

#include "fb_metrics.h"
#include "fb_run.h"

#define FB_OWN_TOL 1e-11
#define FB_OWN_REFINE 16.0

/* How the own reference of a run is solved. */
typedef struct fb_own_method {
  const char *integrator; /* integrator name */
  double h;               /* fixed step; NaN: adaptive at tol */
  double tol;
} fb_own_method;

/* The method for case cs (prepared), whose finest step in its experiment is h_min (NaN for
 * an adaptive run).  Writes a short key of it into buf. */
void fb_own_method_of(const fb_case *cs, double h_min, fb_own_method *om, char *buf, size_t len);

/* Solve it for the scenario and model parameters of cs, on cs's output grid, into tr
 * (allocated here); *acc receives the accuracy estimate (L2 in time of x, NaN when the
 * check run failed).  Budgets: max_steps and max_rhs.  FB_OK or a failure with err set. */
int fb_own_ref_solve(const fb_case *cs, const fb_own_method *om, unsigned long max_steps,
                     unsigned long max_rhs, fb_trace *tr, double *acc, fb_err *err);

/* The discretization errors of run trace tr against the own reference own (accuracy acc)
 * into m->disc_*, and acc into m->own_ref_err; m->ref_x_l2 must be set.  An own reference
 * that did not converge (acc above 1% of the scale max(ref_x_l2, v_stick span^1.5))
 * measures nothing: the disc_* are NaN then, rather than wrong. */
void fb_own_ref_disc(const fb_plant *pl, const fb_trace *tr, const fb_trace *own, double acc,
                     fb_metrics *m);

#endif
