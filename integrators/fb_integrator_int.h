/* fb_integrator_int.h — the driver, the stepper instance and the registries of the
 * time-stepping contract (integrators/stepper.c, problem.c, registry.c): the library's own.
 * The contract a scheme implements (fb_integrator_type, fb_step_at, fb_problem and its
 * helpers) is public, include/fricbench/fb_integrator.h: a plugin's model may bring its
 * own schemes; the driver that runs them is not exported. */
#ifndef FB_INTEGRATOR_INT_H
#define FB_INTEGRATOR_INT_H

#include "fb_integrator.h"

/* Defaults: h NaN (adaptive), atol = rtol = 1e-8, the FB_DEFAULT_* budgets. */
void fb_int_opts_default(fb_int_opts *o);

/* A problem over plant pl and model instance m (dim = 2 n + nc nz). */
void fb_problem_init(fb_problem *pb, const fb_plant *pl, const fb_model *m);

/* A stepper instance under the driver: the scheme's workspace, the run's state and
 * where it is (SUNStepper's counters and last step).  No allocation: y and ysave are
 * the caller's, dim doubles each. */
typedef struct fb_stepper {
  const fb_integrator_type *type;
  void *ws;
  const fb_problem *pb;
  const fb_int_opts *o; /* h (NaN: adaptive), max_steps, max_rhs */
  fb_counters *cnt;
  double t;             /* time of y */
  double *y, *ysave;    /* the state; the last good state, restored on a failure */
  double h_last;        /* last accepted step (NaN before the first) */
  fb_step_at at;        /* the current segment; the last step planned */
  unsigned long k;      /* fixed step: steps taken in the segment (t = tseg + k h) */
  unsigned long rhs_per_step;
  int fixed;            /* o->h is finite */
  int report;           /* a reset asked to report the state at t: done before the next step */
  struct fb_quiet *quiet; /* the observer's quiet steps, for run(); NULL: none */
} fb_stepper;

/* Bind a stepper to the allocated workspace ws of type, the problem, the options and
 * the caller's buffers; then fb_stepper_reset.  Only for types with step(). */
void fb_stepper_init(fb_stepper *s, const fb_integrator_type *type, void *ws,
                     const fb_problem *pb, const fb_int_opts *o, double *y, double *ysave,
                     fb_counters *cnt);
/* Start from (t, y) (copied into s->y unless it is s->y): a new segment from t. */
int fb_stepper_reset(fb_stepper *s, double t, const double *y, fb_err *err);
/* One accepted step (retrying rejected attempts), observed: FB_OK, FB_BUDGET,
 * FB_ENONFINITE, the stepper's failure or the observer's status, err set.  At the end
 * of a segment it first resets the stepper at the break; at the plant's end, nothing. */
int fb_stepper_step(fb_stepper *s, const fb_observer *obs, fb_err *err);
/* Steps until t >= t_stop, the plant's end, a forcing break or an event, whichever comes
 * first (a step is never shortened for t_stop, so the steps do not depend on the stops
 * asked for); FB_OK there.  Uses the type's fast path for whole segments. */
int fb_stepper_evolve(fb_stepper *s, double t_stop, const fb_observer *obs, fb_err *err);

/* The end of a run that ended with status st (after the last fb_stepper_step/evolve):
 * the scheme hands over what it kept for itself (fb_integrator_type.finish). */
void fb_stepper_finish(fb_stepper *s, int st);

/* The whole run from *t to the plant's end, for any integrator type: through the
 * stepper operations when it has them (the driver owns the budgets, the breaks and the
 * observer), else its own evolve.  quiet: the observer's quiet steps (fb_quiet.h), for
 * the steppers' fast paths; NULL: none.  On return y and *t hold the last good state. */
int fb_drive(const fb_integrator_type *type, void *ws, const fb_problem *pb,
             const fb_int_opts *o, double *t, double *y, const fb_observer *obs,
             struct fb_quiet *quiet, fb_counters *cnt, fb_err *err);

/* Fixed-step implicit Euler and BDF2 with a damped Newton solve (implicit_newton.c). */
extern const fb_integrator_type fb_integrator_beuler;
extern const fb_integrator_type fb_integrator_bdf2;

/* Generic integrators (integrators/registry.c), NULL-terminated. */
extern const fb_integrator_type *const fb_integrator_registry[];
/* Find an integrator for a model: its own schemes first, then the generic ones it can use.
 * NULL if the name is unknown or does not suit the model. */
const fb_integrator_type *fb_integrator_find(const fb_model_type *model, const char *name);

#endif
