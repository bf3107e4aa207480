/* gsl_ode.c — every gsl_odeiv2 step type as a stepper (fb_integrator.h): reset, one step,
 * and the fixed-step rk4 kernels' fast path. */
#include "fb_gsl_ode.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_kernel.h"
#include "fb_plant_int.h"
#include "fb_quiet.h"
#include "fb_integrator_int.h"

typedef struct gsl_ode_ws {
  const fb_problem *pb;
  fb_system sys;
  gsl_odeiv2_driver *d;
  fb_int_opts o;
  int fixed;     /* 1: fixed step o.h */
  int yerr_veto; /* the stepper refuses a step by an infinite yerr and keeps y (bsimp) */
  fb_scalar_step_fn kstep; /* fixed-step rk4 on a scalar system: this step, no stepper */
  fb_scalar_run_fn krun;    /* and the loop of such steps (fb_gsl_ode_run) */
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
  ws->sys.jac_skips_dfdt = T == gsl_odeiv2_step_rk4imp; /* fb_system.h */
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

/* At t0 and at every break: the forcing changes, GSL's stepper, control and evolve
 * objects must forget their history; the system learns its segment's opening break. */
int fb_gsl_ode_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)y;
  (void)err;
  gsl_ode_ws *ws = wsv;
  const double t = at->t;
  ws->sys.cnt = cnt;
  ws->sys.stop = FB_OK;
  ws->sys.seg_t0 = t > ws->pb->plant->t0 ? t : -(double)INFINITY;
  if (t > ws->pb->plant->t0) /* at t0 the objects are fresh */
    gsl_odeiv2_driver_reset(ws->d);
  return FB_OK;
}

/* This family counts a step whose end is not finite as taken (nsteps, and the fast
 * path's kernel does the same), unlike the driver, which counts only good steps: kept,
 * so that the counts in results files do not change with the driver. */
static int counted_finite(const gsl_ode_ws *ws, const fb_step_at *at, const double *y,
                          fb_counters *cnt, fb_err *err)
{
  if (fb_all_finite(y, ws->pb->dim))
    return FB_OK;
  cnt->nsteps++;
  return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", at->tnew);
}

/* A plant's attitude quaternions rescaled to unit norm after a step, when it asks for it
 * (fb_kinematics.renormalize; never silently). */
static void renormalize(const gsl_ode_ws *ws, double *y)
{
  const fb_plant *pl = ws->pb->plant;
  if (pl->kin.renormalize)
    fb_kin_normalize(pl, y + 2 * pl->n + pl->nc * ws->pb->model->type->nz);
}

/* Fixed step: one apply() of at->dt, by the scalar kernel (fb_kernel.h) when there is
 * one.  Adaptive: one gsl_odeiv2_evolve_apply towards at->t1, rejections inside it
 * counted. */
int fb_gsl_ode_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  gsl_ode_ws *ws = wsv;
  fb_system *const fs = &ws->sys;
  const double T = ws->pb->plant->T;
  fs->seg_t1 = at->t1 < T ? at->t1 : (double)INFINITY;
  if (!ws->fixed) {
    gsl_odeiv2_driver *d = ws->d;
    const unsigned long failed0 = d->e->failed_steps;
    if (ws->h > ws->o.hmax)
      ws->h = ws->o.hmax;
    double t = at->t;
    const int st = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, &fs->gsys, &t, at->t1, &ws->h, y);
    cnt->nrejected += d->e->failed_steps - failed0;
    at->tnew = t;
    if (st != GSL_SUCCESS)
      return step_failure(ws, st, at->t, err);
    renormalize(ws, y);
    return counted_finite(ws, at, y, cnt, err);
  }
  const int gst = ws->kstep != NULL
                      ? ws->kstep(fs, at->t, at->dt, y, ws->yerr)
                      : gsl_odeiv2_step_apply(ws->d->s, at->t, at->dt, y, ws->yerr, NULL, NULL,
                                              &fs->gsys);
  if (gst != GSL_SUCCESS)
    return step_failure(ws, gst, at->t, err);
  /* GSL's bsimp refuses a step whose semi-implicit sub-steps run away (relative change
   * above 100 dim) by returning success with y unchanged and yerr = +inf, a request
   * for a smaller step that a fixed-step run cannot grant: without this test the body
   * silently froze (glowinski-tp1 stuck at x = 0.318 from t = 0.6 at every h). */
  if (ws->yerr_veto && !fb_all_finite(ws->yerr, ws->pb->dim))
    return fb_err_set(err, FB_EGSL,
                      "bsimp refused the step at t=%.17g (its runaway test); the fixed step "
                      "%.3g is too large for it: use a smaller --h or beuler/bdf2",
                      at->t, at->dt);
  renormalize(ws, y);
  return counted_finite(ws, at, y, cnt, err);
}

/* The fast path: the rest of the segment by the kernel's loop (fb_kernel.h's
 * fb_fixed_run), which calls back only for the steps that are not quiet: the same steps,
 * the same states, the same calls of the observer on every step that is not quiet,
 * skip() for those that are. */
int fb_gsl_ode_run(void *wsv, fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  gsl_ode_ws *ws = wsv;
  if (ws->krun == NULL || !ws->fixed || obs->on_step == NULL)
    return FB_EUNSUP;
  fb_quiet *const q = s->quiet;
  fb_counters *const cnt = s->cnt;
  const double T = ws->pb->plant->T;
  ws->sys.seg_t1 = s->at.t1 < T ? s->at.t1 : (double)INFINITY;
  fb_fixed_run r = {.t = s->t, .tseg = s->at.tseg, .t1 = s->at.t1, .h0 = ws->o.h,
                    .kseg = s->k, .nsteps = cnt->nsteps, .nrejected = cnt->nrejected,
                    .max_steps = ws->o.max_steps, .q = q};
  int st = FB_OK;
  for (;;) {
    ws->krun(&ws->sys, &r, s->y, s->ysave);
    if (r.why == FB_RUN_OBSERVE) {
      if (r.pending)
        q->skip(obs->ctx, r.tprev, s->ysave);
      const int ost = obs->on_step(obs->ctx, r.t, s->y);
      if (ost == 0)
        continue;
      st = fb_err_set(err, ost, "stopped by the observer at t=%.17g", r.t);
      break;
    }
    if (r.pending)
      q->skip(obs->ctx, r.t, s->y);
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
  s->k = r.kseg;
  s->t = r.t;
  return st;
}
