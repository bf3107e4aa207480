/* fb_dop853.h — Hairer's DOP853 (Dormand–Prince 8(5,3)) as a gsl_odeiv2_step_type and its
 * dense output (order 8), for the integrator `dop853` (integrators/dop853.c) and for the
 * schemes that take a GSL step type by name (the switching model's event scheme).  Private
 * to the library; docs/integrators/dop853.md describes the method.
 */
#ifndef FB_DOP853_H
#define FB_DOP853_H

#include <gsl/gsl_odeiv2.h>

#include "fb_integrator.h"

/* The tableau ([HNW] Solving ODE I, §II.10; Hairer's dop853.f), 0-based stages: the 12
 * stages of a step (c[11] = 1), the FSAL stage 12 = f(t + h, y1) (c[12] = 1) and the three
 * stages 13..15 of the dense output.  b: the 8th-order weights; er: the 8th- minus the
 * 5th-order weights (so b - er is of order 5); bhh: the 3rd-order weights on stages 0, 8,
 * 11; d[r][j]: the dense output's coefficients of h k_j in its terms 5..8. */
typedef struct fb_dop853_tableau {
  double c[16];
  double a[16][16];
  double b[12];
  double er[12];
  double bhh[12];
  double d[4][16];
} fb_dop853_tableau;

extern const fb_dop853_tableau fb_dop853_tab;

/* DOP853 as a gsl_odeiv2 step type: 12 RHS per step (13 without dydt_in), yerr the
 * 8(5,3) estimate scaled without weights (docs/integrators/dop853.md), order 8. */
extern const gsl_odeiv2_step_type *fb_step_dop853;

/* The dense output at t of the step a fb_step_dop853 state made last, whole state vector
 * into y: Hairer's 7th-order contd8 raised to order 8 (the step's own) by a bootstrap of
 * five evaluations on it (docs/integrators/dop853.md).  The first call for a step
 * evaluates contd8's three extra stages (and f(t + h, y1) when the step did not) and the
 * bootstrap's five; sys is the system the step used.  GSL_SUCCESS, GSL_EDOM when the state
 * has no step or t is outside it, or the system's failure. */
int fb_dop853_dense(void *gsl_state, const gsl_odeiv2_system *sys, double t, double *y);
/* Hairer's contd8 alone (order 7: its error inside a step is O(h^8), the step's O(h^9)),
 * the same contract: the tests compare the two. */
int fb_dop853_dense7(void *gsl_state, const gsl_odeiv2_system *sys, double t, double *y);
/* The last step's span [t, t + h] (GSL_EDOM when there is none). */
int fb_dop853_span(const void *gsl_state, double *ta, double *tb);

/* Hairer's step-size control (dop853.f; docs/integrators/dop853.md): tolerances, the
 * largest step, the next step (NaN: Hairer's initial step is computed at the next one)
 * and whether the last attempt was refused (the next accepted step may not grow). */
typedef struct fb_dop853_ctl {
  double atol, rtol, hmax;
  double h;
  int reject;
} fb_dop853_ctl;

/* One accepted DOP853 step under Hairer's control from (*t, y), at most to t1 (landed on
 * exactly when within 1% of it), for a scheme that holds its own GSL system (the switching
 * event scheme): f(*t, y) first (f0 when not NULL: the caller's evaluation at exactly
 * (*t, y), which saves one), then attempts until one is accepted, each refused one
 * counted in *nrejected; y and *t advanced, ctl->h the next step.  GSL_SUCCESS; the
 * system's failure or GSL_FAILURE (step size underflow) with y unchanged. */
int fb_dop853_evolve(void *gsl_state, const gsl_odeiv2_system *sys, fb_dop853_ctl *ctl,
                     double *t, double t1, double *y, const double *f0,
                     unsigned long *nrejected);

/* f(t, y1) at the end of the last step, evaluated by the caller (dim values, at exactly
 * the step's y1 and at t = its start + h to the last bit): kept as the first-same-as-last
 * stage, so that the dense output does not evaluate it again.  1 taken; 0 when there is
 * no step, its end is not t or the stage is there already. */
int fb_dop853_give_fsal(void *gsl_state, double t, const double *f);

/* The integrator `dop853`: DOP853 with Hairer's own step-size control and dense output. */
extern const fb_integrator_type fb_integrator_dop853;

#endif
