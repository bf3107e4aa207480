/* fb_quiet.h — an observer's quiet steps, for the steppers' fast paths (private to
 * integrators/ and to the observer that fills it, bench/harness/run.c's recorder).
 *
 * Why it exists: a fine fixed step takes ~1e6 steps of which ~1e3 fill the output grid;
 * calling the observer on the others costs more than the step itself.  A step ending at
 * t with state y is quiet when t < t_next, t != t_last, |x| <= x_bound, |v| <= v_bound
 * (one DOF) and *cancel (when not NULL) is 0; the observer would then only remember the
 * state, which skip(ctx, t, y) does.  A fast path may take quiet steps without the
 * observer and, before it calls the observer next (or when it returns), calls skip once
 * with the last of them.  The observer may change t_next and t_last.
 */
#ifndef FB_QUIET_H
#define FB_QUIET_H

#include <stdatomic.h>

typedef struct fb_quiet {
  double t_next, t_last;
  double x_bound, v_bound;
  const atomic_int *cancel;
  void (*skip)(void *ctx, double t, const double *y);
} fb_quiet;

#endif
