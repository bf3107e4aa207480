/* fb_frame_metrics.h — what the elastic frame's runs show ([Engleder2002] §4; docs/scenarios/
 * elastic-frame.md): the fractions of time the tip P sticks, slips and is lifted off, the
 * impacts per second, the self-excitation frequency and amplitude, the largest normal force,
 * read from a run's trajectory over its window; frame.csv for a suite's `frame` group.
 *
 * States of P at a sample (our reading of the paper's five states, fig. 8, as three):
 *   lift-off  gap g_n = v_P - q1^0 > FB_FRAME_GAP_TOL q1^0;
 *   stick     in contact and |u_P' - v_belt| < FB_FRAME_STICK_TOL |v_belt|;
 *   slip      in contact otherwise.
 * An impact is a sample in contact after one lifted off.  Frequency: upward crossings of the
 * window's mean by u_P' (first to last, over the time between them); amplitude: half the
 * range of u_P'; amp_ratio: the amplitude of the window's second half over its first's
 * (>= FB_FRAME_SUSTAINED: the oscillation is sustained or growing, i.e. self-excited; a
 * decaying transient of the stable sliding state stays below).  lambda_n from the state by
 * the penalty law max(0, -c_N g - D_N g') for penalty treatments (NaN otherwise: a rigid
 * treatment's force is not a function of the state).
 */
#ifndef FB_FRAME_METRICS_H
#define FB_FRAME_METRICS_H

#include <stddef.h>

#include "fb_status.h"

#define FB_FRAME_GAP_TOL 1e-3   /* lifted off above 1e-3 q1^0 (2.5 / 5 um in the cases) */
#define FB_FRAME_STICK_TOL 1e-2 /* stuck below 1 % of the belt speed */
#define FB_FRAME_SUSTAINED 0.97 /* amplitude ratio of a sustained oscillation */
#define FB_FRAME_WINDOW 0.4     /* the window: the last 40 % of the span (the suite's tail) */

typedef struct fb_frame_obs {
  double t_from, t_to;            /* the window (s) */
  double stick, slip, liftoff;    /* fractions of the window's samples */
  double impacts_per_s;           /* lift-off -> contact transitions per second */
  double freq_hz;                 /* self-excitation frequency (Hz) */
  double amp_v;                   /* half the range of u_P' (m/s) */
  double amp_ratio;               /* second half's amplitude over the first half's */
  double lam_max;                 /* largest lambda_n (N); NaN for rigid treatments */
  size_t nsamples;
} fb_frame_obs;

/* The observables of a trajectory CSV text (header t,x1..xn,v1..vn,...; P's DOFs the last
 * node's u and v: x_{n-2}, x_{n-1}) over its samples with t >= t_from.  q10 (m), v_belt
 * (m/s); cN, dN of a penalty treatment or NaN.  FB_OK, FB_EINVAL (no such columns, fewer
 * than 4 samples) or FB_ENOMEM. */
int fb_frame_observe(const char *text, size_t len, double t_from, double q10, double v_belt,
                     double cN, double dN, fb_frame_obs *o, fb_err *err);

/* What a frame run's scenario parameters (runs.csv's scenario_params, "name=value;...")
 * say, through the scenario itself: q1^0 (m), the belt velocity (m/s), ne, nq, T (s), the
 * treatment and its penalty c_N, D_N (NaN for a rigid one), the case's name. */
typedef struct fb_frame_case {
  double q10, v_belt, ne, nq, cN, dN, T;
  char normal[40], fcase[16];
} fb_frame_case;
int fb_frame_case_of(const char *sparams, fb_frame_case *fc, fb_err *err);

/* Read DIR/runs.csv and the trajectories of its `frame` rows, write DIR/frame.csv (one row
 * per frame run: tag, case, treatment, h, ne, nq, status, the observables, cpu_s, wall_s,
 * nsteps).  FB_OK when the suite has no frame run (no file written). */
int fb_frame_write(const char *dir, fb_err *err);

#endif
