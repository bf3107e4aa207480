/* stepper.c — the one driver of every stepper type (fb_integrator.h, docs/design.md §4).
 *
 * After SUNDIALS' SUNStepper and GSL's odeiv2 driver: a scheme supplies reset(t, y) and
 * one step; this file owns what every scheme used to repeat in its own loop — the budgets
 * (max_steps before each attempt, max_rhs where the stepper cannot count mid-step), the
 * forcing breaks (segments landed on exactly, the stepper reset at each), the fixed-step
 * grid t = tseg + k h, the last good state restored on a failure, the finiteness check and
 * the observer.  A scheme that keeps its own books (the contact scheme) may word its budget
 * and its observer stop itself, cross breaks inside its steps, leave finiteness to the
 * observer and hand over its counts at the end (fb_integrator_type.flags, budget, stopped,
 * finish).  The messages are the ones the separate loops wrote, so results files do
 * not change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_quiet.h"
#include "fb_integrator_int.h"

/* A new segment from s->t: the next break (or T) closes it. */
static void segment_begin(fb_stepper *s, size_t seg)
{
  s->at.seg = seg;
  s->at.tseg = s->t;
  s->at.t1 = (s->type->flags & FB_STEP_BREAKS_INSIDE) ? s->pb->plant->T
                                                       : fb_problem_next_stop(s->pb, s->t);
  s->k = 0;
}

void fb_stepper_init(fb_stepper *s, const fb_integrator_type *type, void *ws,
                     const fb_problem *pb, const fb_int_opts *o, double *y, double *ysave,
                     fb_counters *cnt)
{
  memset(s, 0, sizeof *s);
  s->type = type;
  s->ws = ws;
  s->pb = pb;
  s->o = o;
  s->cnt = cnt;
  s->y = y;
  s->ysave = ysave;
  s->fixed = isfinite(o->h);
  s->h_last = (double)NAN;
  s->t = pb->plant->t0;
}

/* The stepper's reset at s->t for segment seg (0: the run's start); the report it may
 * ask for waits for the next call with an observer. */
static int reset_at(fb_stepper *s, size_t seg, fb_err *err)
{
  segment_begin(s, seg);
  if (s->type->reset == NULL)
    return FB_OK;
  fb_step_at *at = &s->at;
  at->t = s->t;
  at->rejected = at->restart = at->event = at->report = at->keep = 0;
  const int st = s->type->reset(s->ws, at, s->y, s->cnt, err);
  s->report = at->report;
  return st;
}

int fb_stepper_reset(fb_stepper *s, double t, const double *y, fb_err *err)
{
  if (y != s->y)
    memcpy(s->y, y, s->pb->dim * sizeof(double));
  s->t = t;
  s->rhs_per_step = s->type->rhs_per_step != NULL ? s->type->rhs_per_step(s->ws) : 0;
  return reset_at(s, 0, err);
}

/* The observer on the state at s->t (a step's end, or again after a reset or event). */
static int observe(const fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  if (obs == NULL || obs->on_step == NULL)
    return FB_OK;
  const int ost = obs->on_step(obs->ctx, s->t, s->y);
  if (ost == 0)
    return FB_OK;
  if (s->type->stopped != NULL)
    return s->type->stopped(s->ws, ost, s->t, err);
  return fb_err_set(err, ost, "stopped by the observer at t=%.17g", s->t);
}

/* Before a step: at the end of a segment that is not the run's, the forcing jumps and the
 * stepper restarts from the state at the break; a report a reset asked for. */
static int prepare(fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  if (s->t >= s->at.t1 && s->t < s->pb->plant->T) {
    const int st = reset_at(s, s->at.seg + 1, err);
    if (st != FB_OK)
      return st;
  }
  if (!s->report)
    return FB_OK;
  s->report = 0;
  return observe(s, obs, err);
}

/* The budgets before an attempt: steps (accepted + rejected), and the evaluations the
 * step will cost when the stepper declared them. */
static int budget_check(const fb_stepper *s, fb_err *err)
{
  const fb_counters *cnt = s->cnt;
  if (s->type->budget != NULL)
    return s->type->budget(s->ws, cnt, s->t, err);
  if (cnt->nsteps + cnt->nrejected >= s->o->max_steps)
    return fb_err_set(err, FB_BUDGET, "step budget of %lu steps exhausted at t=%.17g",
                      s->o->max_steps, s->t);
  if (s->rhs_per_step > 0 && cnt->nfe + s->rhs_per_step > s->o->max_rhs)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      s->o->max_rhs, s->t);
  return FB_OK;
}

/* Plan the next attempt from s->t in the current segment. */
static void plan_step(fb_stepper *s)
{
  fb_step_at *at = &s->at;
  const double t = s->t;
  at->t = t;
  at->rejected = at->restart = at->event = at->report = at->keep = 0;
  if (s->fixed) {
    const double h = s->o->h;
    /* Land exactly on the break; a remainder below 1e-9 h joins the last step. */
    at->last = (at->t1 - t) <= h * (1.0 + 1e-9);
    at->dt = at->last ? at->t1 - t : h;
    at->tnew = at->last ? at->t1 : at->tseg + (double)(s->k + 1) * h;
  } else {
    at->last = 0;
    at->dt = at->t1 - t;
    at->tnew = (double)NAN;
  }
}

/* After a step that ended at an event, reported there (the left limit): the stepper's
 * switch, then the state after it.  A failed switch leaves the left limit. */
static int switch_at_event(fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  const size_t dim = s->pb->dim;
  fb_step_at *const at = &s->at;
  memcpy(s->ysave, s->y, dim * sizeof(double));
  at->report = 0;
  const int st = s->type->event(s->ws, at, s->y, s->cnt, err);
  if (st != FB_OK) {
    memcpy(s->y, s->ysave, dim * sizeof(double));
    return st;
  }
  return at->report ? observe(s, obs, err) : FB_OK;
}

/* One attempt, then (when accepted) the checks and the observer. */
static int attempt(fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  const size_t dim = s->pb->dim;
  double *const y = s->y, *const ysave = s->ysave;
  int st = budget_check(s, err);
  if (st != FB_OK)
    return st;
  plan_step(s);
  for (size_t i = 0; i < dim; i++) /* dim is small: no call */
    ysave[i] = y[i];
  fb_step_at *const at = &s->at;
  st = s->type->step(s->ws, at, y, s->cnt, err);
  if (st != FB_OK) {
    if (at->keep)
      s->t = at->tnew;
    else
      memcpy(y, ysave, dim * sizeof(double));
    return st;
  }
  if (at->rejected)
    return FB_OK;
  const double tnew = at->tnew;
  if (!(s->type->flags & FB_STEP_NO_FINITE_CHECK) && !fb_all_finite(y, dim)) {
    memcpy(y, ysave, dim * sizeof(double));
    return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", tnew);
  }
  s->k++;
  s->h_last = tnew - s->t;
  s->t = tnew;
  s->cnt->nsteps++;
  st = observe(s, obs, err);
  if (st == FB_OK && at->event)
    st = switch_at_event(s, obs, err);
  if (at->event || at->restart) { /* the fixed grid starts again here */
    at->tseg = tnew;
    s->k = 0;
  }
  return st;
}

int fb_stepper_step(fb_stepper *s, const fb_observer *obs, fb_err *err)
{
  if (s->type->step == NULL)
    return fb_err_set(err, FB_EUNSUP, "%s has no single step", s->type->name);
  if (s->t >= s->pb->plant->T)
    return FB_OK;
  int st = prepare(s, obs, err);
  const double t0 = s->t;
  while (st == FB_OK && s->t == t0) /* rejected attempts leave t */
    st = attempt(s, obs, err);
  return st;
}

int fb_stepper_evolve(fb_stepper *s, double t_stop, const fb_observer *obs, fb_err *err)
{
  const double T = s->pb->plant->T;
  if (s->type->step == NULL)
    return fb_err_set(err, FB_EUNSUP, "%s has no single step", s->type->name);
  if (s->t >= T || s->t >= t_stop)
    return FB_OK;
  int st = prepare(s, obs, err);
  if (st != FB_OK)
    return st;
  const double t1 = s->at.t1;
  /* The fast path takes a whole segment: only when this call would too. */
  if (s->type->run != NULL && obs != NULL && s->quiet != NULL && t_stop >= t1) {
    st = s->type->run(s->ws, s, obs, err);
    if (st != FB_EUNSUP)
      return st;
  }
  while (s->t < t1 && s->t < t_stop) {
    st = attempt(s, obs, err);
    if (st != FB_OK || s->at.event)
      return st;
  }
  return FB_OK;
}

void fb_stepper_finish(fb_stepper *s, int st)
{
  if (s->type->finish != NULL)
    s->type->finish(s->ws, st, s->cnt);
}

int fb_drive(const fb_integrator_type *type, void *ws, const fb_problem *pb,
             const fb_int_opts *o, double *t, double *y, const fb_observer *obs,
             struct fb_quiet *quiet, fb_counters *cnt, fb_err *err)
{
  if (type->step == NULL)
    return type->evolve(ws, t, y, obs, cnt, err);
  double *ysave = malloc(pb->dim * sizeof(double)); /* once per run */
  if (ysave == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  fb_stepper s;
  fb_stepper_init(&s, type, ws, pb, o, y, ysave, cnt);
  s.quiet = quiet;
  int st = fb_stepper_reset(&s, *t, y, err);
  const double T = pb->plant->T;
  while (st == FB_OK && s.t < T)
    st = fb_stepper_evolve(&s, T, obs, err);
  *t = s.t;
  fb_stepper_finish(&s, st);
  free(ysave);
  return st;
}
