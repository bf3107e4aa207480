/* fb_switching_core.h — the machinery switching.c (one-DOF contacts) and switching_disc.c
 * (2-D contacts, Jacobian rows) share: the GSL system of the smooth phase ([x, v, P],
 * P' = F), its counted evaluation and finite-difference Jacobian, event location by Brent
 * with a bisection fallback, the failure messages, the bookkeeping at a restart and the
 * parts of the stepper operations (fb_integrator.h) that do not depend on how a scheme's
 * modes are decided: the reset's start, the smooth step, the crossings, the earliest
 * located switch and the bookkeeping after an event (models/switching_core.c).  Private
 * to models/.
 *
 * Each scheme keeps its own workspace (what its modes and forces need) and starts it with
 * FB_SW_CORE_FIELDS twice over, in an anonymous union: as `core`, the fb_sw_core these
 * functions take, and as the same fields by name (w->d, w->mode, ...), so that each scheme's
 * own code, above all its step, reads them as before.  The two views are one struct
 * layout, C11's common initial sequence of union members. */
#ifndef FB_SWITCHING_CORE_H
#define FB_SWITCHING_CORE_H

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stddef.h>

#include "fb_dop853.h"
#include "fb_integrator.h"

/* mode[k] is 0 in stick, the slip's sign otherwise (a unit of switching_disc.c: 1 in
 * slip); g the switching function of the mode (slip: along the slip, stick: the margin of
 * the multiplier to its bound). */
#define FB_SW_CORE_FIELDS                                                                    \
  int tag; /* FB_SW_TAG_LINE or FB_SW_TAG_DISC (fb_switching_disc.h): first */             \
  const fb_problem *pb;                                                                      \
  const fb_plant *pl;                                                                        \
  const char *name;  /* integrator name, for messages */                                   \
  const char *unit;  /* what an event belongs to, for messages: "contact", "contact unit" */ \
  size_t n, nc;      /* DOFs, contact entries */                                           \
  size_t nxv, m;     /* 2n: [x, v] in the full state; m = 2n + nc: what GSL integrates */  \
  fb_int_opts o;                                                                             \
  int fixed;         /* 1: fixed step o.h */                                               \
  double h;          /* adaptive: the step GSL proposes next */                            \
  double t_lo, t_hi; /* the plant is evaluated at t clamped into [t_lo, t_hi] */           \
  gsl_odeiv2_system sys; /* dimension m, params = the workspace */                         \
  gsl_odeiv2_driver *d;                                                                      \
  gsl_root_fsolver *rs; /* brent */                                                        \
  fb_counters *cnt;  /* the run's counters (set by reset) */                               \
  int stop;          /* why an evaluation refused: FB_BUDGET or a failure */               \
  double stop_t;                                                                             \
  fb_err *err;       /* the step's error sink, for messages from deep inside */            \
  int *mode, *old;   /* current modes, modes before a transition */                        \
  size_t *S, ns;     /* stuck set and its size */                                          \
  double *L, *rS, *FS; /* Cholesky factor of the stuck set's matrix; its system */         \
  double *F, *Fs, *u, *ud; /* nc: friction force, static bound, surface velocity and       \
                              acceleration at the last evaluation */                       \
  double *f, *acc;   /* n: force, acceleration of the last evaluation */                   \
  double *zsave;     /* 2 nc: z before a restart, to tell whether it changed */            \
  double *g0, *g1, *gt; /* switching functions at step start, end, trial */                \
  double *yc, *ys, *yt, *yerr, *yev, *ycand, *jf0, *jf1, *jy; /* m-vectors */              \
  int zeno;          /* consecutive events within 2 event_tol of each other */             \
  int dense;         /* 1: the inner step type has a dense output (dop853): events are     \
                        located and the output sampled on it, no re-integration */        \
  double step_ta, step_tn; /* the last smooth step (NaN: none since the last restart) */  \
  fb_dop853_ctl dctl; /* dense, adaptive: Hairer's control of the dop853 steps */          \
  double t_last_event;                                                                       \
  /* the line form with dop853 inside: the last counted evaluation, f = [v, acc, F] at   \
     (memo_t, memo_y = [x, v]), plant time memo_te, under the modes it left; reused as    \
     the next step's first stage and its end's FSAL stage at exactly the same (t, y)      \
     (docs/integrators/dop853.md); NULL otherwise */                                      \
  double *memo_y, *memo_f;                                                                   \
  double memo_t, memo_te;                                                                    \
  int memo_ok;                                                                               \
  /* the scheme's evaluation at (t, y) with the modes frozen: F, Fs, u, ud and acc */      \
  int (*eval)(void *w, double t, const double *y, double *acc);                              \
  /* g of every mode from the last evaluation at state y */                                \
  void (*switching)(const void *w, const double *y, double *g);                              \
  /* g of mode k at (t, y) without an evaluation where it reads only the state and the     \
     surface (a slip's s v_r), the same number as the evaluation's; NaN where it needs    \
     one (a stick's multiplier).  NULL: always evaluate */                                \
  double (*g_direct)(const void *w, double t, const double *y, size_t k);

typedef struct fb_sw_core {
  FB_SW_CORE_FIELDS
} fb_sw_core;

/* The time at which the plant is evaluated: t, kept just inside the current interval
 * between breaks (switching.c's header says why). */
static inline double fb_sw_time(const fb_sw_core *c, double t)
{
  return fmin(fmax(t, c->t_lo), c->t_hi);
}

/* Has a mode become invalid at switching value g? (A slip ends on reaching 0; a stick only
 * below its bound.) */
static inline int fb_sw_crossed(int mode, double g)
{
  return mode != 0 ? g <= 0.0 : g < 0.0;
}

/* One counted evaluation (RHS-equivalent), refused when the budget is spent. */
int fb_sw_eval_counted(fb_sw_core *c, double t, const double *y);
/* The smooth phase for GSL (params: the workspace): y = [x, v, P], P' = F, and its
 * finite-difference Jacobian for the implicit steppers. */
int fb_sw_rhs(double t, const double y[], double dydt[], void *params);
int fb_sw_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);
/* A message for a refused evaluation (c->stop says why). */
int fb_sw_fail(fb_sw_core *c, double t);
/* A message for a failed GSL step (or the evaluation that made it fail). */
int fb_sw_step_failure(fb_sw_core *c, int gsl_status, double t, fb_err *err);

/* One event being located: mode i's switch inside the accepted step (tprev, tn]. */
typedef struct fb_sw_root {
  void *w;         /* the workspace (its core first) */
  size_t i;        /* the mode (contact or unit) whose switch is located */
  double tprev, tn;
  double lo, hi;   /* latest time seen valid, earliest time seen crossed */
  int failed;      /* a GSL step or evaluation failed (c->stop or this code says why) */
} fb_sw_root;

/* Locate r's switch to event_tol: Brent on g_i, with bisection of the tracked bracket as
 * a fallback when Brent's own bracket collapses onto an exact zero.  On success r->hi is
 * the earliest time seen past the switch and ycand the state there (y_tn when r->hi ==
 * tn). */
int fb_sw_locate(fb_sw_core *c, fb_sw_root *r, const double *y_tn);

/* The GSL system, driver and root solver of a workspace whose sizes, options and
 * callbacks are set; FB_OK, or FB_EGSL when GSL could not allocate (the caller frees). */
int fb_sw_gsl_alloc(fb_sw_core *c, const gsl_odeiv2_step_type *T);
void fb_sw_gsl_free(fb_sw_core *c);

/* After a restart's resolve (t0 or a break): count the nmodes modes that changed as
 * switches and one event (not at t0); 1 when the state is to be reported again (anything
 * changed: modes, or z against zsave, a break's jump in the force; or at t0 when
 * report_initial), for the reset's at->report. */
int fb_sw_restart_end(fb_sw_core *c, size_t nmodes, const double *y, int initial,
                      int report_initial);

/* The dense output of the inner step type (fb_integrator_type.dense): x and v of the
 * last smooth step at t, for a step [ta, tb] that is its start and its end or an event in
 * it; z is NaN (interpolated by the recorder).  FB_EUNSUP when there is none. */
int fb_sw_dense(void *ws, double ta, double tb, double t, double *y);

/* ---- The stepper operations' shared parts (fb_integrator.h: reset, step, event). */

/* Events in a row, each within 2 event_tol of the last, after which switches are taken at
 * step ends unlocated (Zeno guard; switching.c's header). */
#define FB_SW_ZENO_MAX 64

/* A reset's start, before the scheme decides its modes: at the run's start (at->seg 0) a
 * fresh run (no events yet, the whole time axis); at a break the plant is read from the
 * right from here on.  GSL forgets its history either way. */
void fb_sw_reset_begin(fb_sw_core *c, const fb_step_at *at, fb_counters *cnt, fb_err *err);
/* A step's start: the plant read from the left up to the segment's end (the step landing
 * on a break sees the old forcing), and the GSL state [x, v] of y with the impulses from
 * 0 in yc (and ys). */
void fb_sw_step_begin(fb_sw_core *c, const fb_step_at *at, const double *y, fb_err *err);
/* One GSL step of the smooth phase over at (fixed: at->dt onto at->tnew; adaptive: GSL's
 * step, bounded by at->t1) in yc, the state at its end evaluated; *t is where it ended. */
int fb_sw_smooth_step(fb_sw_core *c, const fb_step_at *at, double *t, fb_counters *cnt,
                      fb_err *err);
/* 1 when a mode of the nmodes crossed in the step (g1 against the modes); *proper: one of
 * them was valid at the step's start (g0 > 0), so it can be located. */
int fb_sw_crossings(const fb_sw_core *c, size_t nmodes, int *proper);
/* The earliest located switch in (at->t, tn]: *te and its state in yev (tn and yc when
 * nothing is located: not locate, nothing proper, or the Zeno guard). */
int fb_sw_earliest(fb_sw_core *c, const fb_step_at *at, double tn, size_t nmodes, int locate,
                   int proper, double *te);
/* After the transition at event time te: counted, the Zeno guard's run of close events,
 * and GSL starts afresh (the right-hand side changed). */
void fb_sw_event_end(fb_sw_core *c, double te, fb_counters *cnt);

#endif
