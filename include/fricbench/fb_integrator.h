/* fb_integrator.h — the one time-stepping contract (docs/design.md §4), after SUNDIALS'
 * SUNStepper.
 *
 * An integrator advances a problem (plant + model) with state y = [x(n), v(n),
 * z(nc*nz)].  Generic integrators (every GSL gsl_odeiv2 step type, heun3, beuler, bdf2)
 * accept any model with FB_MODEL_ODE; model-owned schemes (glowinski-lie, newmark, event,
 * ...) are listed by their model and accept only it.
 *
 * A scheme is a stepper: reset(t, y) and one step (fb_integrator_type), and one driver
 * (the library's own, integrators/stepper.c, declared in integrators/fb_integrator_int.h)
 * owns the rest: the
 * budgets (max_steps, max_rhs: hitting one ends the run with FB_BUDGET and the cost so
 * far, which is itself a result), the forcing breaks (stepped to exactly, the stepper
 * reset there), the fixed-step grid, events' order of reports, the last good state and
 * the observer.  Every in-tree scheme is a stepper (the GSL family, heun3, beuler, bdf2,
 * glowinski, kbe, newmark, moreau-jean, event, paper, tamsi and the contact scheme with
 * its normal treatments, moreau-jean's time stepping included); only a plugin's own
 * scheme may still run a whole-run evolve under fb_drive.  The contact scheme keeps its own
 * books (flags, budget, stopped, finish below), so that its results did not change when
 * it moved onto the driver.  On return y and *t hold the last good state.
 */
#ifndef FB_INTEGRATOR_H
#define FB_INTEGRATOR_H

#include <math.h>
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
  unsigned long nlsetups;  /* linear solver set-ups (iteration-matrix factorizations) of the
                              steppers that count them (fb_integrator_type.counts_lsetups) */
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
                              of a run (contact: fb_impact_stats, the library's private
                              contact/fb_normal_int.h); NULL: none.  Never changes the step
                              sequence. */
} fb_int_opts;

#define FB_DEFAULT_MAX_STEPS 20000000UL
#define FB_DEFAULT_MAX_RHS 200000000UL


struct fb_quiet; /* integrators/fb_quiet.h: private to the stepping fast paths */

/* Called after the initial state and every accepted step; a non-zero return stops the
 * run with that status. */
typedef struct fb_observer {
  int (*on_step)(void *ctx, double t, const double *y);
  void *ctx;
} fb_observer;

/* What an integrator integrates. */
typedef struct fb_problem {
  const fb_plant *plant;
  const fb_model *model;
  size_t dim; /* 2 n + nc nz + 4 nquat (the plant's quaternions last, fb_kinematics) */
  /* The scenario's name when the caller knows it (fb_case_prepare sets it), else NULL:
   * the engines map by it (docs/engines.md); no other scheme reads it. */
  const char *scenario;
} fb_problem;

/* Initial y: x0, v0 and the model's initial states. */
FB_API int fb_problem_initial_state(const fb_problem *pb, double *y);
/* Friction force and stick flag of every contact at (t, y) (F[nc], stick[nc]); FB_EUNSUP
 * for a model that reads f_app (FB_MODEL_NEEDS_FAPP) on more than FB_FAPP_NMAX DOFs. */
FB_API int fb_problem_output(const fb_problem *pb, double t, const double *y, double *F, int *stick);
/* dy/dt at (t, y) for dense output, given the reported friction forces F[nc]:
 * x' = v, v' = M^-1 (f - D v - K x + sum e_j F_j), and z' from the model's law for ODE
 * models (NaN for model-owned schemes, whose states are interpolated linearly).
 * work: n doubles of scratch. */
FB_API int fb_problem_deriv(const fb_problem *pb, double t, const double *y, const double *F,
                     double *dydt, double *work);
/* First plant break strictly after t, or T. */
FB_API double fb_problem_next_stop(const fb_problem *pb, double t);
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

/* One step as the driver plans it: from t inside the segment [tseg, t1] between forcing
 * breaks (number seg, 0 from t0).  Fixed step: dt and tnew = t + dt are the driver's
 * (t = tseg + k h inside a segment, no accumulated round-off; last: the step lands on t1,
 * a remainder below 1e-9 h joins it).  Adaptive: dt = t1 - t is only the bound; the
 * stepper picks its step and writes tnew (<= t1).  What the stepper may answer besides
 * its status (all 0 on entry):
 *   rejected  an attempt its controller refused (counted in nrejected, y unchanged): the
 *             driver checks the budget and asks again;
 *   restart   the step ended early, at tnew, where the stepper starts afresh (a slip
 *             direction turned): the fixed grid restarts there (tseg = tnew);
 *   event     as restart, at a located event: after reporting the state at tnew (the
 *             left limit) the driver calls event(), which switches, and reports again;
 *   report    (out of reset and event) the state changed without time passing: the
 *             driver reports it (again);
 *   keep      (with a failure) the stepper reached tnew and the run ends there with y as
 *             it is, not restored (an event located but not evaluable: the run stops at
 *             the event, as the event scheme always reported). */
typedef struct fb_step_at {
  double t, dt, tnew, tseg, t1;
  size_t seg;
  int last;
  int rejected, restart, event, report, keep;
} fb_step_at;

struct fb_stepper;

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
  /* The whole run from *t to the plant's end time T, for a plugin's scheme that is not a
   * stepper (NULL for those that are, every in-tree one: fb_drive runs them). */
  int (*evolve)(void *ws, double *t, double *y, const fb_observer *obs, fb_counters *cnt,
                fb_err *err);
  void (*free)(void *ws);
  /* 1: takes one-DOF contacts only (no 2-D contact, no Jacobian row; docs/design.md §13),
   * though its model may have other schemes that do: refused with the reason */
  int one_dim;
  /* ---- the stepper operations (SUNStepper-like; fb_drive() and fb_stepper_* call them).
   * A type has either step (then evolve is NULL: the driver owns the loop) or only the
   * whole-run evolve above (a plugin's own scheme not on the contract). */
  /* Start again from (at->t, y): at the start of a run (at->seg = 0) and at every
   * forcing break (at->seg > 0: the state is the run's own, only the forcing jumps; GSL
   * must reset its steppers there, newmark re-solves the acceleration, glowinski keeps
   * its warm-started multipliers, the event scheme re-decides its modes and may set
   * at->report).  A scheme may put y into its own form at the start (kbe-relay has no
   * anchor state: zeroed).  cnt: the run's counters, for the rest of the run.  NULL:
   * nothing to do. */
  int (*reset)(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
  /* One step attempt over *at (fb_step_at): advance y, count the step's evaluations and
   * rejections in cnt (not nsteps: the driver counts accepted steps).  On failure y may
   * be anything (the driver restores it) and err names the cause. */
  int (*step)(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
  /* Optional fast path: the steps of stepper s up to the end of its segment at once,
   * with the observer's quiet steps (s->quiet) taken without it; the same steps, states
   * and counts as step() one by one.  FB_EUNSUP, before any step, when this instance has
   * no such path (the driver then steps). */
  int (*run)(void *ws, struct fb_stepper *s, const fb_observer *obs, fb_err *err);
  /* RHS evaluations one step will cost, for the driver's max_rhs check before it; 0 (or
   * NULL): the stepper enforces max_rhs itself, mid-step (GSL's system counts each). */
  unsigned long (*rhs_per_step)(const void *ws);
  /* After a step that set at->event, reported at at->tnew: apply the switch to y (count
   * it in cnt) and set at->report for the state after it.  NULL for schemes without. */
  int (*event)(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
  /* ---- for schemes that keep their own books (the contact scheme; NULL/0 for others) */
  unsigned flags; /* FB_STEP_*, below */
  /* The budgets before each attempt, in place of the driver's: FB_OK, or FB_BUDGET with
   * the scheme's message (the contact scheme counts evaluations in its own workspace and
   * words the budget its own way). */
  int (*budget)(const void *ws, const fb_counters *cnt, double t, fb_err *err);
  /* The message of a run the observer stopped with status ost at t, in place of the
   * driver's; returns ost. */
  int (*stopped)(const void *ws, int ost, double t, fb_err *err);
  /* At the end of a run under fb_drive, whatever its status st: hand over what the
   * scheme kept for itself (counts, statistics).  Never changes y or the steps. */
  void (*finish)(void *ws, int st, fb_counters *cnt);
  /* 1: integrates the plant's kinematic map qdot = T(q) nu (the quaternions of
   * fb_kinematics, at the end of y); 0: refused, with the reason, for plants that have one
   * (fb_integrator_takes_quat) */
  int takes_quat;
  /* ---- dense output (NULL: none; the recorder then interpolates by Hermite)
   * The scheme's own interpolant of its last accepted step [ta, tb] at t in it, into
   * y[dim]; a component it does not interpolate is NaN (the recorder's Hermite fills it).
   * Called by the observer, between steps; may evaluate the RHS (counted in the run's
   * counters).  FB_EUNSUP when the last accepted step is not [ta, tb]. */
  int (*dense)(void *ws, double ta, double tb, double t, double *y);
  /* 1: the stepper counts its linear solver set-ups in fb_counters.nlsetups (SUNDIALS'
   * implicit ones, beuler, bdf2); 0: it does not (runs.csv's nlsetups is then empty for an implicit or
   * model-owned scheme, 0 for a generic explicit ODE stepper, which solves no system) */
  int counts_lsetups;
  /* Optional (NULL: none): CPU seconds spent so far on this run by processes outside the
   * calling thread (an out-of-process engine's own process, docs/engines.md §4), 0 before
   * the run's case is open; the run adds its change over the drive to cpu_s, so that a
   * run's cost counts the work wherever it is done. */
  double (*child_cpu_s)(void *ws);
} fb_integrator_type;

/* fb_integrator_type.flags */
enum {
  /* The stepper crosses forcing breaks itself (its segment runs to T: no reset at a
   * break), as the contact scheme's GSL evolve always did. */
  FB_STEP_BREAKS_INSIDE = 1u << 0,
  /* No finiteness check after a step: the observer judges the state (a non-finite state
   * is reported by the run's guards, at the step's time, as it was before the driver). */
  FB_STEP_NO_FINITE_CHECK = 1u << 1,
};


#endif
