/* fb_dense_wp.h — work and precision of the event-driven scheme (switching/event) with a
 * given inner stepper, for `fricbench bench` (dop853 against rk8pd at matched error) and
 * the tests (docs/integrators/dop853.md).
 *
 * The truth is the same scheme with dop853 at atol = rtol = 1e-14 (FB_WP_TRUTH_TOL), read
 * through its own dense output wherever it is needed.  A measured run gives three errors,
 * each the largest over the positions x of every DOF (m):
 *   err_steps  at the run's own step ends (every state the driver reported): the solver's
 *              error, whatever its dense output;
 *   err_grid   on the uniform output grid the recorder filled: what a user reads;
 *   err_end    at T.
 */
#ifndef FB_DENSE_WP_H
#define FB_DENSE_WP_H

#include <stddef.h>

#include "fb_run.h"

#define FB_WP_TRUTH_TOL 1e-14

typedef struct fb_wp_point {
  double tol;                       /* atol = rtol of the run */
  int status;                       /* the run's status */
  unsigned long nfe, nsteps, nrejected, nevents;
  double err_steps, err_grid, err_end; /* m */
} fb_wp_point;

/* The truth's trajectory on the output grid of `samples` points (a trace of its own). */
typedef struct fb_wp_truth {
  const char *scenario;
  const char *const *sets; /* NAME=VALUE, NULL-terminated (may be NULL) */
  size_t samples;
  fb_trace grid;
} fb_wp_truth;

/* The truth of scenario (with sets) on a grid of `samples` points; free with
 * fb_wp_truth_free.  FB_OK or the run's failure (err says why). */
int fb_wp_truth_init(fb_wp_truth *tr, const char *scenario, const char *const *sets,
                     size_t samples, fb_err *err);
void fb_wp_truth_free(fb_wp_truth *tr);

/* One run of switching/event with inner stepper `stepper` at tolerance tol, its cost and
 * its three errors against the truth. */
int fb_wp_measure(const fb_wp_truth *tr, const char *stepper, double tol, fb_wp_point *p,
                  fb_err *err);

/* The RHS evaluations a tolerance ladder (pts ordered by decreasing tol) needs to reach
 * error `target` (err_steps when grid is 0, else err_grid): log-log interpolation between
 * the two runs that bracket it, the errors taken as their running minimum along the
 * ladder.  NaN when the ladder does not bracket the target. */
double fb_wp_cost_at(const fb_wp_point *pts, size_t n, double target, int grid);

#endif
