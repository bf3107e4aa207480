/* fb_integrator.h — the one time-stepping contract (docs/design.md §4), SUNStepper-like.
 *
 * An integrator advances a problem (plant + model) with state y = [x(n), v(n),
 * z(nc*nz)] from t to the plant's end time, calling the observer after every accepted
 * step.  Generic integrators (every GSL gsl_odeiv2 step type, heun3) accept any model
 * with FB_MODEL_ODE; model-owned schemes (glowinski-lie, newmark, event, ...) are listed
 * by their model and accept only it.  Every run is bounded (max_steps, max_rhs): hitting
 * a bound ends the run with FB_BUDGET and the cost so far, which is itself a result.
 *
 * On return y and *t hold the last good state.  Forcing discontinuities of the plant
 * (breaks) are stepped to exactly, and steppers are reset there.
 */
#ifndef FB_INTEGRATOR_H
#define FB_INTEGRATOR_H

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>

#include "fb_model.h"
#include "fb_plant.h"
#include "fb_status.h"

/* Cost counters of one run (docs/design.md §4). */
typedef struct fb_counters {
  unsigned long nsteps;    /* accepted steps */
  unsigned long nrejected; /* rejected step attempts */
  unsigned long nfe;       /* right-hand side (or equivalent force-law) evaluations */
  unsigned long njac;      /* Jacobian evaluations */
  unsigned long nevents;   /* events located */
  unsigned long ninner;    /* inner iterations: Uzawa, Newton, root bracketing */
  unsigned long nswitch;   /* mode switches (hybrid models) */
} fb_counters;

typedef struct fb_int_opts {
  double h;                /* fixed step (s); NaN for adaptive */
  double atol, rtol;       /* adaptive tolerances; used when h is NaN */
  unsigned long max_steps; /* bound on accepted + rejected steps */
  unsigned long max_rhs;   /* bound on RHS evaluations */
  double hmax;             /* adaptive: largest step (s), INFINITY = none (tight references) */
  double event_tol;        /* event location tolerance in time (s) */
  const char *stepper;     /* inner GSL stepper of hybrid schemes; NULL = their default */
  void *stats;             /* schemes with statistics of their own write them here at the end
                              of a run (contact: fb_impact_stats, include/fricbench/fb_normal.h); NULL:
                              none.  Never changes the step sequence. */
} fb_int_opts;

#define FB_DEFAULT_MAX_STEPS 20000000UL
#define FB_DEFAULT_MAX_RHS 200000000UL

void fb_int_opts_default(fb_int_opts *o);

/* Called after the initial state and every accepted step; a non-zero return stops the
 * run with that status. */
typedef struct fb_observer {
  int (*on_step)(void *ctx, double t, const double *y);
  void *ctx;
} fb_observer;

/* What an observer does on most steps, for a loop that can take those steps without
 * calling it: a step ending at t with state y is quiet when t < t_next, t != t_last,
 * |x| <= x_bound, |v| <= v_bound (one DOF) and *cancel (when not NULL) is 0; the
 * observer would then only remember the state, which skip(ctx, t, y) does.  The loop may
 * take quiet steps without the observer and, before it calls the observer next (or when
 * it returns), calls skip once with the last of them.  The observer may change t_next
 * and t_last.  (bench/harness/run.c's recorder, which fills the output grid: most steps
 * of a fine fixed step fall between two grid points.) */
typedef struct fb_quiet {
  double t_next, t_last;
  double x_bound, v_bound;
  const atomic_int *cancel;
  void (*skip)(void *ctx, double t, const double *y);
} fb_quiet;

/* What an integrator integrates. */
typedef struct fb_problem {
  const fb_plant *plant;
  const fb_model *model;
  size_t dim; /* 2 n + nc nz */
} fb_problem;

void fb_problem_init(fb_problem *pb, const fb_plant *pl, const fb_model *m);
/* Initial y: x0, v0 and the model's initial states. */
int fb_problem_initial_state(const fb_problem *pb, double *y);
/* Friction force and stick flag of every contact at (t, y) (F[nc], stick[nc]); FB_EUNSUP
 * for a model that reads f_app (FB_MODEL_NEEDS_FAPP) on more than FB_FAPP_NMAX DOFs. */
int fb_problem_output(const fb_problem *pb, double t, const double *y, double *F, int *stick);
/* dy/dt at (t, y) for dense output, given the reported friction forces F[nc]:
 * x' = v, v' = M^-1 (f - D v - K x + sum e_j F_j), and z' from the model's law for ODE
 * models (NaN for model-owned schemes, whose states are interpolated linearly).
 * work: n doubles of scratch. */
int fb_problem_deriv(const fb_problem *pb, double t, const double *y, const double *F,
                     double *dydt, double *work);
/* First plant break strictly after t, or T. */
double fb_problem_next_stop(const fb_problem *pb, double t);
/* 1 when every component is finite. */
static inline int fb_all_finite(const double *y, size_t n)
{
  /* y_i - y_i is 0 for a finite y_i and NaN for an infinite or NaN one: one test for
   * the whole state instead of a branch per component (called after every step). */
  double d = 0.0;
  for (size_t i = 0; i < n; i++)
    d += y[i] - y[i];
  return d == 0.0;
}

/* Where one step of a model-owned fixed-step scheme lies: [t, tnew], dt = tnew - t,
 * inside the segment [tseg, t1] between forcing breaks (number seg); last: the step lands
 * on t1 (a remainder below 1e-9 h joins it). */
typedef struct fb_fixed_step_at {
  double t, dt, tnew, tseg, t1;
  size_t seg;
  int last;
} fb_fixed_step_at;

/* One step of such a scheme: advance y over `at`, counting its evaluations in cnt. */
typedef int (*fb_fixed_step_fn)(void *ctx, const fb_fixed_step_at *at, double *y,
                                fb_counters *cnt, fb_err *err);

/* The fixed-step driver the model-owned schemes share (integrators/fixed_segments.c):
 * steps of h from *t to the plant's end, landing exactly on every forcing break with
 * t = tseg + k h inside a segment (no accumulated round-off); before each step the
 * budgets (max_steps accepted + rejected, max_rhs evaluations with rhs_per_step more to
 * come); after it the finiteness check (y restored from ysave[dim] on a failure) and the
 * observer.  Returns FB_OK, FB_BUDGET, FB_ENONFINITE, the step's failure or the
 * observer's status, with err set. */
int fb_fixed_segments(const fb_problem *pb, double h, unsigned long max_steps,
                      unsigned long max_rhs, unsigned long rhs_per_step, double *ysave,
                      fb_fixed_step_fn step, void *ctx, double *t, double *y,
                      const fb_observer *obs, fb_counters *cnt, fb_err *err);

typedef struct fb_integrator_type {
  const char *name;  /* CLI name */
  const char *title; /* one line */
  unsigned needs;    /* model caps required (FB_MODEL_ODE for generic ones, 0 for owned) */
  int fixed_ok;      /* accepts --h */
  int adaptive_ok;   /* accepts --tol */
  int implicit;      /* uses the Jacobian */
  unsigned order;    /* classical order, 0 if not meaningful */
  const void *data;  /* private to the family (e.g. the GSL step type) */
  int (*alloc)(void **ws, const struct fb_integrator_type *type, const fb_problem *pb,
               const fb_int_opts *o, fb_err *err);
  /* Advance from *t to the plant's end time T. */
  int (*evolve)(void *ws, double *t, double *y, const fb_observer *obs, fb_counters *cnt,
                fb_err *err);
  void (*free)(void *ws);
  /* 1: takes one-DOF contacts only (no 2-D contact, no Jacobian row; docs/design.md §13),
   * though its model may have other schemes that do: refused with the reason */
  int one_dim;
} fb_integrator_type;

/* Fixed-step implicit Euler and BDF2 with a damped Newton solve (implicit_newton.c). */
extern const fb_integrator_type fb_integrator_beuler;
extern const fb_integrator_type fb_integrator_bdf2;

/* Generic integrators (integrators/registry.c), NULL-terminated. */
extern const fb_integrator_type *const fb_integrator_registry[];
/* Find an integrator for a model: its own schemes first, then the generic ones it can use.
 * NULL if the name is unknown or does not suit the model. */
const fb_integrator_type *fb_integrator_find(const fb_model_type *model, const char *name);

#endif
