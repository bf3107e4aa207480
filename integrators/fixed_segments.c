/* fixed_segments.c — the fixed-step driver of the model-owned schemes (fb_integrator.h). */
#include <string.h>

#include "fb_integrator.h"

int fb_fixed_segments(const fb_problem *pb, double h, unsigned long max_steps,
                      unsigned long max_rhs, unsigned long rhs_per_step, double *ysave,
                      fb_fixed_step_fn step, void *ctx, double *t, double *y,
                      const fb_observer *obs, fb_counters *cnt, fb_err *err)
{
  const size_t dim = pb->dim;
  const double T = pb->plant->T;
  fb_fixed_step_at at = {0};
  while (*t < T) {
    at.t1 = fb_problem_next_stop(pb, *t);
    at.tseg = *t; /* t = tseg + k h: no accumulated round-off */
    unsigned long kseg = 0;
    while (*t < at.t1) {
      if (cnt->nsteps + cnt->nrejected >= max_steps)
        return fb_err_set(err, FB_BUDGET, "step budget of %lu steps exhausted at t=%.17g",
                          max_steps, *t);
      if (cnt->nfe + rhs_per_step > max_rhs)
        return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                          max_rhs, *t);
      /* Land exactly on the break; a remainder below 1e-9 h joins the last step. */
      at.last = (at.t1 - *t) <= h * (1.0 + 1e-9);
      at.t = *t;
      at.dt = at.last ? at.t1 - *t : h;
      at.tnew = at.last ? at.t1 : at.tseg + (double)(kseg + 1) * h;
      memcpy(ysave, y, dim * sizeof(double));
      int st = step(ctx, &at, y, cnt, err);
      if (st != FB_OK) {
        memcpy(y, ysave, dim * sizeof(double));
        return st;
      }
      if (!fb_all_finite(y, dim)) {
        memcpy(y, ysave, dim * sizeof(double));
        return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", at.tnew);
      }
      kseg++;
      *t = at.tnew;
      cnt->nsteps++;
      if (obs != NULL && obs->on_step != NULL) {
        int ost = obs->on_step(obs->ctx, *t, y);
        if (ost != 0)
          return fb_err_set(err, ost, "stopped by the observer at t=%.17g", *t);
      }
    }
    at.seg++;
  }
  return FB_OK;
}
