/* fb_reference.h — the reference solution of a scenario (docs/design.md §3 M6, §6; STYLE.md §4).
 *
 * Metrics never trust the model under test: they compare against this.  For a scenario
 * whose ref_kind is
 *   FB_REF_EXACT  the closed form exact() is sampled on the output grid; the stick flag
 *                 is v_r == 0 exactly (a 2-D contact: its slip vector, 0 within a few
 *                 ulps of its terms), and mode changes between grid points are refined
 *                 by bisection on exact() to round-off (mode changes closer together than
 *                 one grid cell are not resolved);
 *   FB_REF_EVENT  the switching model's `event` scheme runs at tight tolerance (dop853,
 *                 atol = rtol = 1e-12, events located to 1e-12 s by default), recorded on
 *                 the grid like any run, and the stick/slip intervals come from the
 *                 scheme's mode switches themselves (their located times), not from the
 *                 samples.  dop853's own dense output (order 8) locates the events and
 *                 fills the grid: x, v and the force from the model at the interpolated
 *                 state (docs/integrators/dop853.md, "The reference").  Steps are capped
 *                 at a quarter of the grid spacing by default: a long step can step over
 *                 a narrow feature (a Stribeck drop within 2 ms of a stop on drift); with
 *                 another stepper the recorder interpolates between steps (quintic
 *                 Hermite in x, cubic in v, linear in the force), which the cap also
 *                 keeps accurate (the cubic's error in v, h^4 |v''''| / 384: 1e-5 on
 *                 glowinski-3dof with uncapped rk8pd steps).  The first sample holds the
 *                 state after the modes were resolved at t0 (the multiplier of a contact
 *                 starting at rest);
 *   FB_REF_NONE   there is none: FB_EUNSUP.
 * The trace always has the switching model's layout, nz = 2 with z = [mode, force]
 * (fb_reference_z_names), so reference files look like `fricbench run --model switching`
 * output whichever way they were computed.
 *
 * Intervals: per contact, consecutive and covering [t0, T]: (contact, start, end, mode),
 * mode FB_MODE_STICK, FB_MODE_SLIP_POS (v_r > 0) or FB_MODE_SLIP_NEG; zero-length
 * intervals (a transition immediately undone, e.g. a reversal through v_r = 0; for
 * closed forms, anything within a few ulps, a single instant with v_r = 0) are not
 * listed.  Sorted by contact, then start.  Memory is bounded: the list grows
 * geometrically up to max_intervals, beyond which the run fails with FB_BUDGET.
 */
#ifndef FB_REFERENCE_H
#define FB_REFERENCE_H

#include <stdio.h>

#include "fb_run.h"
#include "fb_scenario.h"

#define FB_REF_TOL 1e-12           /* atol = rtol of the reference's inner stepper */
#define FB_REF_EVENT_TOL 1e-12     /* event location tolerance (s) */
#define FB_REF_STEPPER "dop853"    /* inner stepper (a GSL step type) */
#define FB_REF_MAX_INTERVALS 1000000

enum fb_mode { FB_MODE_SLIP_NEG = -1, FB_MODE_STICK = 0, FB_MODE_SLIP_POS = 1 };

/* "stick", "slip+", "slip-" (NULL for anything else). */
const char *fb_mode_name(int mode);

/* Names of the reference trace's per-contact states: {"mode", "force"}. */
extern const char *const fb_reference_z_names[];

typedef struct fb_interval {
  size_t contact; /* contact index, from 0 (the CSV writes it from 1, as F1, F2, ...) */
  double start;   /* s */
  double end;     /* s */
  int mode;       /* enum fb_mode */
} fb_interval;

typedef struct fb_interval_list {
  size_t n;        /* intervals held */
  size_t cap;      /* allocated */
  size_t max;      /* bound on n (0: FB_REF_MAX_INTERVALS) */
  fb_interval *iv; /* n intervals, sorted by contact then start */
} fb_interval_list;

/* An empty list (no allocation) bounded by max (0: FB_REF_MAX_INTERVALS). */
void fb_interval_list_init(fb_interval_list *l, size_t max);
void fb_interval_list_free(fb_interval_list *l);
/* CSV: header `contact,start,end,mode`, contact from 1, mode stick/slip+/slip-. */
int fb_interval_list_write_csv(const fb_interval_list *l, FILE *fp);

typedef struct fb_reference_opts {
  double tol;             /* atol = rtol of the inner stepper */
  double event_tol;       /* event location tolerance (s) */
  double hmax;            /* largest step (s); 0 (default): a quarter of the grid spacing;
                             INFINITY: none */
  const char *stepper;    /* inner GSL one-step stepper by name */
  int use_event;          /* 1: the event-driven solver even where a closed form exists
                             (to measure the solver against it); default 0 */
  unsigned long max_steps, max_rhs;
  size_t max_intervals;   /* 0: FB_REF_MAX_INTERVALS */
} fb_reference_opts;

/* The defaults above, and the default run budgets. */
void fb_reference_opts_default(fb_reference_opts *o);

typedef struct fb_reference_info {
  fb_ref_kind kind;   /* how it was computed (FB_REF_EXACT or FB_REF_EVENT) */
  double hmax;        /* the step cap the event-driven solver used (s) */
  fb_run_result run;  /* status and counters of the event-driven run (zero for exact) */
} fb_reference_info;

/* The reference of scenario st (one of fb_scenario_registry) with parameters sp (a filled, unchecked struct of
 * st->params->size bytes; checked and built here).  out (may be NULL): allocated here
 * with `samples` >= 2 grid points on [t0, T]; free with fb_trace_free.  intervals (may
 * be NULL): initialized here; free with fb_interval_list_free.  On failure both are
 * freed (zeroed) and err says why; returns FB_OK, FB_EINVAL (bad parameters), FB_EUNSUP
 * (no reference), FB_BUDGET or another failure of the reference run. */
int fb_reference_run(const fb_scenario_type *st, const void *sp, size_t samples, fb_trace *out,
                     fb_interval_list *intervals, fb_err *err);
/* The same with explicit options (o NULL: defaults) and the run's record (info may be
 * NULL). */
int fb_reference_run_opts(const fb_scenario_type *st, const void *sp, size_t samples,
                          const fb_reference_opts *o, fb_trace *out, fb_interval_list *intervals,
                          fb_reference_info *info, fb_err *err);

#endif
