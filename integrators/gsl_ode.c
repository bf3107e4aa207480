/* gsl_ode.c — every gsl_odeiv2 step type behind the fricbench integrator contract. */
#include "fb_gsl_ode.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_kernel.h"

typedef struct gsl_ode_ws {
  const fb_problem *pb;
  fb_system sys;
  gsl_odeiv2_driver *d;
  fb_int_opts o;
  int fixed;     /* 1: fixed step o.h */
  int yerr_veto; /* the stepper refuses a step by an infinite yerr and keeps y (bsimp) */
  fb_scalar_step_fn kstep; /* fixed-step rk4 on a scalar system: this step, no stepper */
  fb_scalar_run_fn krun;    /* and the loop of such steps (fb_gsl_ode_evolve_quiet) */
  double h;      /* adaptive: the step GSL proposes next */
  double *ysave; /* dim: last good state, restored on failure */
  double *yerr;  /* dim */
} gsl_ode_ws;

void fb_gsl_ode_free(void *wsv)
{
  gsl_ode_ws *ws = wsv;
  if (ws == NULL)
    return;
  if (ws->d != NULL)
    gsl_odeiv2_driver_free(ws->d);
  fb_system_free(&ws->sys);
  free(ws->ysave);
  free(ws);
}

int fb_gsl_ode_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  const gsl_odeiv2_step_type *T = *(const gsl_odeiv2_step_type *const *)type->data;
  /* Fixed step: GSL's rk4 would spend 7 of its 11 evaluations per step on a
   * step-doubling error estimate nobody reads; run the classical method itself. */
  if (isfinite(o->h) && T == gsl_odeiv2_step_rk4)
    T = fb_step_rk4_lean;
  gsl_ode_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pb = pb;
  ws->o = *o;
  ws->fixed = isfinite(o->h);
  int st = fb_system_alloc(&ws->sys, pb, o->max_rhs);
  ws->ysave = calloc(2 * pb->dim, sizeof(double));
  if (st != FB_OK || ws->ysave == NULL) {
    fb_gsl_ode_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  ws->yerr = ws->ysave + pb->dim;
  const double span = pb->plant->T - pb->plant->t0;
  ws->h = ws->fixed ? o->h : fmin(1e-6 * span, 1e-3);
  /* The driver wires the step, control and evolve objects together, which the
   * multistep methods (msadams, msbdf) require even in fixed-step use. */
  /* In fixed-step use the control only sets the implicit/multistep methods' inner
   * (Newton, functional iteration) convergence tolerance. */
  const double atol = isfinite(o->atol) && o->atol > 0 ? o->atol : 1e-10;
  const double rtol = isfinite(o->rtol) && o->rtol > 0 ? o->rtol : 1e-10;
  ws->d = gsl_odeiv2_driver_alloc_y_new(&ws->sys.gsys, T, ws->h, atol, rtol);
  ws->kstep = T == fb_step_rk4_lean ? fb_rk4_scalar_kernel(&ws->sys) : NULL;
  ws->krun = ws->kstep != NULL ? fb_rk4_scalar_run_kernel(&ws->sys) : NULL;
  ws->yerr_veto = T == gsl_odeiv2_step_bsimp;
  if (ws->d == NULL) {
    fb_gsl_ode_free(ws);
    return fb_err_set(err, FB_EGSL, "cannot allocate GSL stepper %s", type->name);
  }
  *out = ws;
  return FB_OK;
}

/* Turn a failed GSL call into a status and message; y is already the last good state. */
static int step_failure(gsl_ode_ws *ws, int gsl_status, double t, fb_err *err)
{
  if (ws->sys.stop == FB_BUDGET)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      ws->o.max_rhs, t);
  if (ws->sys.stop != FB_OK)
    return fb_err_set(err, ws->sys.stop, "model %s failed at t=%.17g: %s",
                      ws->pb->model->type->name, ws->sys.stop_t, fb_status_message(ws->sys.stop));
  return fb_err_set(err, FB_EGSL, "gsl error %d (%s) at t=%.17g", gsl_status,
                    gsl_strerror(gsl_status), t);
}

/* Fixed steps over one segment [*tp, t1): t = tseg + k h (no accumulated round-off),
 * the last step shortened to land exactly on t1 (a remainder below 1e-9 h is merged into
 * it).  Each step by the scalar kernel (fb_kernel.h) when there is one, else by the GSL
 * stepper.  The loop state lives in locals: behind pointers, every call (step,
 * observer) would force a reload of t, the options and the counters. */
static int fixed_segment(gsl_ode_ws *ws, double *tp, double t1, double *y,
                         const fb_observer *obs, fb_counters *cnt, fb_err *err)
{
  const fb_scalar_step_fn kstep = ws->kstep;
  gsl_odeiv2_step *const gstep = ws->d->s;
  fb_system *const fs = &ws->sys;
  const size_t dim = ws->pb->dim;
  const double h0 = ws->o.h, tseg = *tp;
  const unsigned long max_steps = ws->o.max_steps;
  const int yerr_veto = ws->yerr_veto;
  double *const ysave = ws->ysave, *const yerr = ws->yerr;
  int (*const on_step)(void *, double, const double *) = obs != NULL ? obs->on_step : NULL;
  void *const ctx = obs != NULL ? obs->ctx : NULL;
  double t = tseg;
  unsigned long kseg = 0, nsteps = cnt->nsteps;
  const unsigned long nrejected = cnt->nrejected;
  int st = FB_OK;
  while (t < t1) {
    if (nsteps + nrejected >= max_steps) {
      st = fb_err_set(err, FB_BUDGET, "step budget of %lu steps exhausted at t=%.17g",
                      max_steps, t);
      break;
    }
    for (size_t i = 0; i < dim; i++)
      ysave[i] = y[i];
    const int last = (t1 - t) <= h0 * (1.0 + 1e-9);
    const double h = last ? t1 - t : h0;
    const int gst = kstep != NULL
                        ? kstep(fs, t, h, y, yerr)
                        : gsl_odeiv2_step_apply(gstep, t, h, y, yerr, NULL, NULL, &fs->gsys);
    if (gst != GSL_SUCCESS) {
      memcpy(y, ysave, dim * sizeof(double));
      st = step_failure(ws, gst, t, err);
      break;
    }
    /* GSL's bsimp refuses a step whose semi-implicit sub-steps run away (relative change
     * above 100 dim) by returning success with y unchanged and yerr = +inf, a request
     * for a smaller step that a fixed-step run cannot grant: without this test the body
     * silently froze (glowinski-tp1 stuck at x = 0.318 from t = 0.6 at every h). */
    if (yerr_veto && !fb_all_finite(yerr, dim)) {
      memcpy(y, ysave, dim * sizeof(double));
      st = fb_err_set(err, FB_EGSL,
                      "bsimp refused the step at t=%.17g (its runaway test); the fixed step "
                      "%.3g is too large for it: use a smaller --h or beuler/bdf2",
                      t, h);
      break;
    }
    const double tnew = last ? t1 : tseg + (double)(++kseg) * h0;
    nsteps++;
    if (!fb_all_finite(y, dim)) {
      memcpy(y, ysave, dim * sizeof(double));
      st = fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", tnew);
      break;
    }
    t = tnew;
    if (on_step != NULL) {
      const int ost = on_step(ctx, t, y);
      if (ost != 0) {
        st = fb_err_set(err, ost, "stopped by the observer at t=%.17g", t);
        break;
      }
    }
  }
  cnt->nsteps = nsteps;
  *tp = t;
  return st;
}

/* fixed_segment by the kernel's loop (fb_kernel.h's fb_fixed_run), which calls back only
 * for the steps that are not quiet: the same steps, the same states, the same calls of
 * the observer on every step that is not quiet, skip() for those that are. */
static int fixed_segment_quiet(gsl_ode_ws *ws, double *tp, double t1, double *y,
                               const fb_observer *obs, fb_quiet *q, fb_counters *cnt,
                               fb_err *err)
{
  fb_fixed_run r = {.t = *tp, .tseg = *tp, .t1 = t1, .h0 = ws->o.h, .kseg = 0,
                    .nsteps = cnt->nsteps, .nrejected = cnt->nrejected,
                    .max_steps = ws->o.max_steps, .q = q};
  int st = FB_OK;
  for (;;) {
    ws->krun(&ws->sys, &r, y, ws->ysave);
    if (r.why == FB_RUN_OBSERVE) {
      if (r.pending)
        q->skip(obs->ctx, r.tprev, ws->ysave);
      const int ost = obs->on_step(obs->ctx, r.t, y);
      if (ost == 0)
        continue;
      st = fb_err_set(err, ost, "stopped by the observer at t=%.17g", r.t);
      break;
    }
    if (r.pending)
      q->skip(obs->ctx, r.t, y);
    if (r.why == FB_RUN_BUDGET)
      st = fb_err_set(err, FB_BUDGET, "step budget of %lu steps exhausted at t=%.17g",
                      ws->o.max_steps, r.t);
    else if (r.why == FB_RUN_FAILED)
      st = step_failure(ws, r.gst, r.t, err);
    else if (r.why == FB_RUN_NONFINITE)
      st = fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", r.tbad);
    break;
  }
  cnt->nsteps = r.nsteps;
  *tp = r.t;
  return st;
}

int fb_gsl_ode_evolve(void *wsv, double *t, double *y, const fb_observer *obs, fb_counters *cnt,
                      fb_err *err)
{
  return fb_gsl_ode_evolve_quiet(wsv, t, y, obs, NULL, cnt, err);
}

int fb_gsl_ode_evolve_quiet(void *wsv, double *t, double *y, const fb_observer *obs,
                            fb_quiet *quiet, fb_counters *cnt, fb_err *err)
{
  gsl_ode_ws *ws = wsv;
  const size_t dim = ws->pb->dim;
  const double T = ws->pb->plant->T;
  gsl_odeiv2_driver *d = ws->d;
  ws->sys.cnt = cnt;
  ws->sys.stop = FB_OK;
  while (*t < T) {
    const double t1 = fb_problem_next_stop(ws->pb, *t);
    ws->sys.seg_t0 = *t > ws->pb->plant->t0 ? *t : -(double)INFINITY;
    ws->sys.seg_t1 = t1 < T ? t1 : (double)INFINITY;
    if (ws->fixed) {
      const int fst = ws->krun != NULL && quiet != NULL && obs != NULL && obs->on_step != NULL
                          ? fixed_segment_quiet(ws, t, t1, y, obs, quiet, cnt, err)
                          : fixed_segment(ws, t, t1, y, obs, cnt, err);
      if (fst != FB_OK)
        return fst;
    }
    while (*t < t1) { /* adaptive */
      if (cnt->nsteps + cnt->nrejected >= ws->o.max_steps)
        return fb_err_set(err, FB_BUDGET, "step budget of %lu steps exhausted at t=%.17g",
                          ws->o.max_steps, *t);
      for (size_t i = 0; i < dim; i++) /* dim is small: no call */
        ws->ysave[i] = y[i];
      const double tprev = *t;
      const unsigned long failed0 = d->e->failed_steps;
      if (ws->h > ws->o.hmax)
        ws->h = ws->o.hmax;
      const int st = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, &ws->sys.gsys, t, t1, &ws->h, y);
      cnt->nrejected += d->e->failed_steps - failed0;
      if (st != GSL_SUCCESS) {
        memcpy(y, ws->ysave, dim * sizeof(double));
        *t = tprev;
        return step_failure(ws, st, tprev, err);
      }
      cnt->nsteps++;
      if (!fb_all_finite(y, dim)) {
        const double tbad = *t;
        memcpy(y, ws->ysave, dim * sizeof(double));
        *t = tprev;
        return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", tbad);
      }
      if (obs != NULL && obs->on_step != NULL) {
        int ost = obs->on_step(obs->ctx, *t, y);
        if (ost != 0)
          return fb_err_set(err, ost, "stopped by the observer at t=%.17g", *t);
      }
    }
    if (*t < T) /* a break: the forcing changes, GSL needs a reset */
      gsl_odeiv2_driver_reset(d);
  }
  return FB_OK;
}
