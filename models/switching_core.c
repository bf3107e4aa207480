/* switching_core.c — what the switching model's two workspaces share (fb_switching_core.h):
 * the smooth phase's GSL system, event location, messages, the restart's bookkeeping and
 * the parts of the stepper operations that do not depend on the modes' kind.  Moved here
 * from switching.c and switching_disc.c, where each had its own copy line for line; the
 * arithmetic is unchanged, so both schemes' results are too. */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <stdlib.h>
#include <string.h>

#include "fb_switching_core.h"
#include "fb_switching_disc.h"
#include "fb_util.h"

int fb_sw_eval_counted(fb_sw_core *c, double t, const double *y)
{
  if (c->cnt->nfe >= c->o.max_rhs) {
    c->stop = FB_BUDGET;
    c->stop_t = t;
    return FB_BUDGET;
  }
  c->cnt->nfe++;
  int st = c->eval(c, t, y, c->acc);
  if (st != FB_OK) {
    c->stop = st;
    c->stop_t = t;
    c->memo_ok = 0;
  } else if (c->memo_f != NULL) { /* what fb_sw_rhs would give at (t, y): kept */
    memcpy(c->memo_y, y, c->nxv * sizeof(double));
    memcpy(c->memo_f, y + c->n, c->n * sizeof(double));
    memcpy(c->memo_f + c->n, c->acc, c->n * sizeof(double));
    memcpy(c->memo_f + c->nxv, c->F, c->nc * sizeof(double));
    c->memo_t = t;
    c->memo_te = fb_sw_time(c, t);
    c->memo_ok = 1;
  }
  return st;
}

/* The memo's f when it is f(t, y) to the last bit: the same time (and plant time, as the
 * segment's clamp reads it), the same x and v (f does not read the impulses P), and no
 * mode changed since (every change of modes is followed by a counted evaluation, which
 * renews the memo, before the next step). */
static const double *memo_at(const fb_sw_core *c, double t, const double *y)
{
  if (c->memo_f == NULL || !c->memo_ok || c->memo_t != t || c->memo_te != fb_sw_time(c, t) ||
      memcmp(c->memo_y, y, c->nxv * sizeof(double)) != 0)
    return NULL;
  return c->memo_f;
}

/* The friction impulses P carry no information the run needs (they restart from 0 every
 * step); they are there for the step-size control.  In stick x and v are constant while
 * the multiplier follows the forcing, so without P the error estimate is zero, the steps
 * grow without bound and a release (g = Fs - |F| < 0 for a while) falls between two step
 * ends unseen.  With P the control must resolve F(t) to the tolerance. */
int fb_sw_rhs(double t, const double y[], double dydt[], void *params)
{
  fb_sw_core *c = params;
  if (c->cnt->nfe >= c->o.max_rhs) {
    c->stop = FB_BUDGET;
    c->stop_t = t;
    return GSL_EBADFUNC;
  }
  c->cnt->nfe++;
  memcpy(dydt, y + c->n, c->n * sizeof(double));
  int st = c->eval(c, t, y, dydt + c->n);
  if (st != FB_OK) {
    c->stop = st;
    c->stop_t = t;
    return GSL_EBADFUNC;
  }
  memcpy(dydt + c->nxv, c->F, c->nc * sizeof(double)); /* P' = F */
  return GSL_SUCCESS;
}

int fb_sw_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
  fb_sw_core *c = params;
  const size_t n = c->n, m = c->m, nxv = c->nxv, nc = c->nc;
  const double sqrt_eps = 1.4901161193847656e-08;
  c->cnt->njac++;
  memcpy(c->jf0, y + n, n * sizeof(double));
  int st = c->eval(c, t, y, c->jf0 + n);
  memcpy(c->jf0 + nxv, c->F, nc * sizeof(double));
  memcpy(c->jy, y, m * sizeof(double));
  memset(dfdy, 0, m * m * sizeof(double)); /* nothing depends on P */
  for (size_t k = 0; k < nxv && st == FB_OK; k++) {
    const double keep = c->jy[k];
    const double d = sqrt_eps * fmax(fabs(keep), k < n ? 1.0 : c->pl->v_scale);
    c->jy[k] = keep + d;
    memcpy(c->jf1, c->jy + n, n * sizeof(double));
    st = c->eval(c, t, c->jy, c->jf1 + n);
    memcpy(c->jf1 + nxv, c->F, nc * sizeof(double));
    c->jy[k] = keep;
    for (size_t r = 0; r < m; r++)
      dfdy[r * m + k] = (c->jf1[r] - c->jf0[r]) / d;
  }
  if (st == FB_OK) {
    const double dt = sqrt_eps * fmax(fabs(t), 1.0);
    memcpy(c->jf1, y + n, n * sizeof(double));
    st = c->eval(c, t + dt, y, c->jf1 + n);
    memcpy(c->jf1 + nxv, c->F, nc * sizeof(double));
    for (size_t r = 0; r < m; r++)
      dfdt[r] = (c->jf1[r] - c->jf0[r]) / dt;
  }
  if (st != FB_OK) {
    c->stop = st;
    c->stop_t = t;
    return GSL_EBADFUNC;
  }
  return GSL_SUCCESS;
}

int fb_sw_fail(fb_sw_core *c, double t)
{
  if (c->stop == FB_BUDGET)
    return fb_err_set(c->err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      c->o.max_rhs, t);
  return fb_err_set(c->err, c->stop != FB_OK ? c->stop : FB_ESOLVE,
                    "%s: evaluation failed at t=%.17g: %s", c->name, c->stop_t,
                    fb_status_message(c->stop != FB_OK ? c->stop : FB_ESOLVE));
}

int fb_sw_step_failure(fb_sw_core *c, int gsl_status, double t, fb_err *err)
{
  if (c->stop == FB_BUDGET)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      c->o.max_rhs, t);
  if (c->stop != FB_OK)
    return fb_err_set(err, c->stop, "%s: evaluation failed at t=%.17g: %s", c->name, c->stop_t,
                      fb_status_message(c->stop));
  return fb_err_set(err, FB_EGSL, "%s: gsl error %d (%s) at t=%.17g", c->name, gsl_status,
                    gsl_strerror(gsl_status), t);
}

/* Root iterations per located event before giving up (FB_ESOLVE). */
#define SW_ROOT_MAX 200

/* g_i(tau): one fixed step of length tau - tprev from the saved step start; tracks the
 * bracket [lo, hi] and the state at hi. */
static double root_g(double tau, void *params)
{
  fb_sw_root *r = params;
  fb_sw_core *c = r->w;
  if (tau <= r->tprev)
    return c->g0[r->i];
  if (tau >= r->tn)
    return c->g1[r->i];
  int st;
  if (c->dense) { /* the step's own interpolant (dop853's, order 8): no re-integration */
    st = fb_dop853_dense(c->d->s->state, &c->sys, tau, c->yt);
  } else {
    memcpy(c->yt, c->ys, c->m * sizeof(double));
    st = gsl_odeiv2_step_apply(c->d->s, r->tprev, tau - r->tprev, c->yt, c->yerr, NULL, NULL,
                               &c->sys);
  }
  if (st != GSL_SUCCESS) {
    r->failed = st;
    return NAN;
  }
  /* On the dense output a slip's g needs no evaluation (the same number); re-integrated
   * steps (rk8pd, ...) evaluate as they always did. */
  double g = c->dense && c->g_direct != NULL ? c->g_direct(c, tau, c->yt, r->i) : (double)NAN;
  if (isnan(g)) {
    if (fb_sw_eval_counted(c, tau, c->yt) != FB_OK) {
      r->failed = GSL_EBADFUNC;
      return NAN;
    }
    c->switching(c, c->yt, c->gt);
    g = c->gt[r->i];
  }
  if (fb_sw_crossed(c->mode[r->i], g)) {
    if (tau < r->hi) {
      r->hi = tau;
      memcpy(c->ycand, c->yt, c->m * sizeof(double));
    }
  } else if (tau > r->lo) {
    r->lo = tau;
  }
  return g;
}

int fb_sw_locate(fb_sw_core *c, fb_sw_root *r, const double *y_tn)
{
  memcpy(c->ycand, y_tn, c->m * sizeof(double));
  r->lo = r->tprev;
  r->hi = r->tn;
  r->failed = 0;
  gsl_function fn = {root_g, r};
  /* g without a sign change at the ends is a status here, not GSL's abort */
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int st = gsl_root_fsolver_set(c->rs, &fn, r->tprev, r->tn);
  gsl_set_error_handler(old);
  int brent = st == GSL_SUCCESS;
  /* No bracket gets narrower than a few ulps of t (long runs, tight event_tol). */
  const double tol = fmax(c->o.event_tol, 4.0 * DBL_EPSILON * fabs(r->tn));
  for (unsigned it = 0; r->hi - r->lo > tol; it++) {
    if (it >= SW_ROOT_MAX)
      return fb_err_set(c->err, FB_ESOLVE,
                        "%s: event of %s %zu not located to %g s in %d iterations near "
                        "t=%.17g",
                        c->name, c->unit, r->i + 1, tol, SW_ROOT_MAX, r->hi);
    c->cnt->ninner++;
    if (brent) {
      st = gsl_root_fsolver_iterate(c->rs);
      if (r->failed)
        break;
      if (st != GSL_SUCCESS ||
          gsl_root_fsolver_x_upper(c->rs) - gsl_root_fsolver_x_lower(c->rs) < 0.5 * tol)
        brent = 0;
    } else {
      root_g(0.5 * (r->lo + r->hi), r);
      if (r->failed)
        break;
    }
  }
  if (r->failed) {
    if (c->stop != FB_OK)
      return fb_sw_fail(c, c->stop_t);
    return fb_err_set(c->err, FB_EGSL, "%s: gsl error %d (%s) while locating an event near t=%.17g",
                      c->name, r->failed, gsl_strerror(r->failed), r->hi);
  }
  return FB_OK;
}

int fb_sw_gsl_alloc(fb_sw_core *c, const gsl_odeiv2_step_type *T)
{
  c->sys.function = fb_sw_rhs;
  c->sys.jacobian = fb_sw_jac;
  c->sys.dimension = c->m;
  c->sys.params = c;
  const double span = c->pl->T - c->pl->t0;
  c->h = c->fixed ? c->o.h : fmin(1e-6 * span, 1e-3);
  const double atol = isfinite(c->o.atol) && c->o.atol > 0 ? c->o.atol : 1e-10;
  const double rtol = isfinite(c->o.rtol) && c->o.rtol > 0 ? c->o.rtol : 1e-10;
  c->d = gsl_odeiv2_driver_alloc_y_new(&c->sys, T, c->h, atol, rtol);
  c->dense = T == fb_step_dop853;
  c->dctl = (fb_dop853_ctl){atol, rtol, c->o.hmax, (double)NAN, 0};
  c->step_ta = c->step_tn = (double)NAN;
  c->rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  /* The memo (the line form with dop853 inside; the disc form recomputes its slip
   * directions at each step's start, outside the evaluation, so it evaluates afresh). */
  c->memo_ok = 0;
  c->memo_y = c->memo_f = NULL;
  if (c->dense && !c->fixed && c->tag == FB_SW_TAG_LINE) {
    c->memo_y = calloc(c->nxv + c->m, sizeof(double));
    if (c->memo_y == NULL)
      return FB_ENOMEM;
    c->memo_f = c->memo_y + c->nxv;
  }
  return c->d == NULL || c->rs == NULL ? FB_EGSL : FB_OK;
}

void fb_sw_gsl_free(fb_sw_core *c)
{
  if (c->d != NULL)
    gsl_odeiv2_driver_free(c->d);
  if (c->rs != NULL)
    gsl_root_fsolver_free(c->rs);
  free(c->memo_y);
}

int fb_sw_restart_end(fb_sw_core *c, size_t nmodes, const double *y, int initial,
                      int report_initial)
{
  unsigned long switched = 0;
  for (size_t k = 0; k < nmodes; k++)
    switched += c->mode[k] != c->old[k];
  if (!initial && switched) {
    c->cnt->nswitch += switched;
    c->cnt->nevents++;
  }
  return (initial && report_initial) || switched ||
         memcmp(c->zsave, y + c->nxv, 2 * c->nc * sizeof(double)) != 0;
}

/* ---------------------------------------------------------------------------------- */
/* The stepper operations' shared parts.                                               */

void fb_sw_reset_begin(fb_sw_core *c, const fb_step_at *at, fb_counters *cnt, fb_err *err)
{
  c->cnt = cnt;
  c->err = err;
  if (at->seg == 0) {
    c->stop = FB_OK;
    c->zeno = 0;
    c->t_last_event = -INFINITY;
    c->t_lo = -INFINITY;
  } else {
    c->t_lo = nextafter(at->t, INFINITY);
  }
  c->t_hi = INFINITY;
  gsl_odeiv2_driver_reset(c->d);
  c->step_ta = c->step_tn = (double)NAN;
  c->memo_ok = 0; /* the restart evaluates under its modes and clamp */
  if (at->seg == 0)
    c->dctl.h = (double)NAN;
  c->dctl.reject = 0;
}

void fb_sw_step_begin(fb_sw_core *c, const fb_step_at *at, const double *y, fb_err *err)
{
  c->err = err;
  c->t_hi = at->t1 < c->pl->T ? nextafter(at->t1, -INFINITY) : (double)INFINITY;
  memcpy(c->yc, y, c->nxv * sizeof(double));
  memset(c->yc + c->nxv, 0, c->nc * sizeof(double));
  memcpy(c->ys, c->yc, c->m * sizeof(double));
}

int fb_sw_smooth_step(fb_sw_core *c, const fb_step_at *at, double *t, fb_counters *cnt,
                      fb_err *err)
{
  gsl_odeiv2_driver *d = c->d;
  const double tprev = at->t;
  int gst;
  c->step_ta = c->step_tn = (double)NAN;
  if (c->fixed) {
    gst = gsl_odeiv2_step_apply(d->s, tprev, at->dt, c->yc, c->yerr, NULL, NULL, &c->sys);
    *t = at->tnew;
  } else if (c->dense) { /* dop853 under its own control (docs/integrators/dop853.md) */
    gst = fb_dop853_evolve(d->s->state, &c->sys, &c->dctl, t, at->t1, c->yc,
                           memo_at(c, tprev, c->yc), &cnt->nrejected);
  } else {
    const unsigned long failed0 = d->e->failed_steps;
    if (c->h > c->o.hmax)
      c->h = c->o.hmax;
    gst = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, &c->sys, t, at->t1, &c->h, c->yc);
    cnt->nrejected += d->e->failed_steps - failed0;
    /* A trial step so long that a stage left the finite numbers (a cubic spring after a
     * long stick, docs/scenarios/awrejcewicz.md): GSL gives up on such a step (EBADFUNC)
     * instead of shrinking it, so retry from the step start at a tenth of it.  Before, the
     * run failed here; runs that never meet it are unchanged. */
    for (int retry = 0; gst == GSL_EBADFUNC && c->stop == FB_ENONFINITE && retry < 40 &&
                        c->h > 1e-14 * fmax(1.0, fabs(tprev));
         retry++) {
      c->stop = FB_OK;
      *t = tprev;
      memcpy(c->yc, c->ys, c->m * sizeof(double));
      gsl_odeiv2_evolve_reset(d->e);
      gsl_odeiv2_step_reset(d->s);
      c->h *= 0.1;
      cnt->nrejected++;
      gst = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, &c->sys, t, at->t1, &c->h, c->yc);
    }
  }
  if (gst != GSL_SUCCESS)
    return fb_sw_step_failure(c, gst, tprev, err);
  if (!fb_all_finite(c->yc, c->m) || fb_sw_eval_counted(c, *t, c->yc) != FB_OK) {
    if (c->stop == FB_BUDGET)
      return fb_sw_step_failure(c, GSL_EBADFUNC, tprev, err);
    return fb_err_set(err, FB_ENONFINITE, "%s: non-finite state at t=%.17g", c->name, *t);
  }
  /* the switching check's evaluation is f at the step's end: dop853's FSAL stage, which
   * its dense output then need not evaluate (taken only when t is its t + h exactly) */
  const double *f1 = c->dense && !c->fixed ? memo_at(c, *t, c->yc) : NULL;
  if (f1 != NULL)
    fb_dop853_give_fsal(d->s->state, *t, f1);
  c->step_ta = tprev;
  c->step_tn = *t;
  return FB_OK;
}

int fb_sw_dense(void *ws, double ta, double tb, double t, double *y)
{
  fb_sw_core *c = ws; /* either scheme's workspace starts with the core */
  if (!c->dense || ta != c->step_ta || !(tb > ta && tb <= c->step_tn) || !(t >= ta && t <= tb))
    return FB_EUNSUP;
  if (fb_dop853_dense(c->d->s->state, &c->sys, t, c->yt) != GSL_SUCCESS)
    return FB_EUNSUP;
  memcpy(y, c->yt, c->nxv * sizeof(double));
  for (size_t i = c->nxv; i < c->pb->dim; i++)
    y[i] = (double)NAN;
  /* z = [mode, F]: F from an evaluation at the interpolated state (the stick multiplier
   * follows the forcing inside a long step; a line between its ends would not), the mode
   * from the modes for one-DOF contacts; a 2-D entry's reported sign has a hysteresis of
   * its own (switching_disc.c), so the recorder keeps its value there.  Not counted, as
   * the recorder's outputs are not; every user of the evaluation's arrays evaluates again
   * before reading them. */
  if (c->eval(c, t, c->yt, c->acc) == FB_OK)
    for (size_t i = 0; i < c->nc; i++) {
      if (c->tag == FB_SW_TAG_LINE)
        y[c->nxv + 2 * i] = (double)c->mode[i];
      y[c->nxv + 2 * i + 1] = c->F[i];
    }
  return FB_OK;
}

int fb_sw_crossings(const fb_sw_core *c, size_t nmodes, int *proper)
{
  int any = 0;
  *proper = 0;
  for (size_t k = 0; k < nmodes; k++)
    if (fb_sw_crossed(c->mode[k], c->g1[k])) {
      any = 1;
      *proper |= c->g0[k] > 0.0;
    }
  return any;
}

int fb_sw_earliest(fb_sw_core *c, const fb_step_at *at, double tn, size_t nmodes, int locate,
                   int proper, double *te)
{
  const double tprev = at->t, t1 = at->t1, T = c->pl->T;
  *te = tn;
  memcpy(c->yev, c->yc, c->m * sizeof(double));
  if (!(proper && locate && c->zeno < FB_SW_ZENO_MAX))
    return FB_OK;
  for (size_t k = 0; k < nmodes; k++) {
    if (!(fb_sw_crossed(c->mode[k], c->g1[k]) && c->g0[k] > 0.0))
      continue;
    fb_sw_root r = {c, k, tprev, tn, tprev, tn, 0};
    const int st = fb_sw_locate(c, &r, c->yc);
    if (st != FB_OK)
      return st;
    if (r.hi < *te) {
      *te = r.hi;
      double *tmp = c->yev;
      c->yev = c->ycand;
      c->ycand = tmp;
    }
  }
  /* A switch within a few event_tol of a break is the break's (the root of the
   * numerical g is only that accurate): take it there, where the restart sees the
   * new forcing; else the old forcing may reverse the contact for those last
   * picoseconds, a spurious slip interval (glowinski-tp1 at t = 1.5). */
  if (tn == t1 && t1 < T && t1 - *te <= 4.0 * c->o.event_tol) {
    *te = tn;
    memcpy(c->yev, c->yc, c->m * sizeof(double));
  }
  return FB_OK;
}

void fb_sw_event_end(fb_sw_core *c, double te, fb_counters *cnt)
{
  cnt->nevents++;
  c->zeno = te - c->t_last_event <= 2.0 * c->o.event_tol ? c->zeno + 1 : 0;
  c->t_last_event = te;
  gsl_odeiv2_driver_reset(c->d);
  c->step_ta = c->step_tn = (double)NAN;
  c->dctl.reject = 0;
}
