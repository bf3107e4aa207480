/* own_ref.c — a model's own converged solution (fb_own_ref.h). */
#include "fb_own_ref.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_metrics.h"

static int is_owned(const fb_model_type *mt, const fb_integrator_type *it)
{
  for (const fb_integrator_type *const *s = mt->schemes; s != NULL && *s != NULL; s++)
    if (*s == it)
      return 1;
  return 0;
}

void fb_own_method_of(const fb_case *cs, double h_min, fb_own_method *om, char *buf, size_t len)
{
  const fb_integrator_type *it = cs->integ;
  om->h = NAN;
  om->tol = FB_OWN_TOL;
  const fb_model_suite *ms = fb_model_suite_of(cs->md.type);
  if (ms->own_tol > 0)
    om->tol = ms->own_tol;
  if (!is_owned(cs->md.type, it)) {
    const char *first = ms->own[0] != NULL ? ms->own[0] : "rk8pd";
    const char *second = ms->own[1] != NULL ? ms->own[1] : "rkck";
    om->integrator = strcmp(it->name, first) == 0 ? second : first;
  } else {
    om->integrator = it->name;
    if (!isnan(cs->opts.h) || !it->adaptive_ok) {
      const double h = isnan(h_min) ? cs->opts.h : h_min;
      om->h = h / FB_OWN_REFINE;
    }
  }
  if (isnan(om->h))
    snprintf(buf, len, "%s@tol%g", om->integrator, om->tol);
  else
    snprintf(buf, len, "%s@h%.6g", om->integrator, om->h);
}

/* One solve of cs's scenario and model parameters with integrator/h/tol, into tr. */
static int solve(const fb_case *cs, const char *integ, double h, double tol,
                 unsigned long max_steps, unsigned long max_rhs, fb_trace *tr, fb_err *err)
{
  fb_case rc;
  const fb_plant *pl = &cs->sc.plant;
  int st = fb_case_init(&rc, cs->sc.type->name, cs->md.type->name, integ, err);
  if (st != FB_OK)
    return st;
  memcpy(rc.sc.params, cs->sc.params, cs->sc.type->params->size);
  memcpy(rc.md.params, cs->md.params, cs->md.type->params->size);
  if (isnan(h)) {
    rc.opts.atol = rc.opts.rtol = tol;
    rc.opts.event_tol = 1e-12;
    rc.opts.hmax = (pl->T - pl->t0) / (double)(cs->samples - 1);
  } else {
    rc.opts.h = h;
  }
  rc.opts.stepper = cs->opts.stepper;
  rc.opts.max_steps = max_steps;
  rc.opts.max_rhs = max_rhs;
  rc.samples = cs->samples;
  st = fb_case_prepare(&rc, err);
  if (st == FB_OK)
    st = fb_trace_alloc(tr, cs->samples, pl->n, pl->nc, cs->md.type->nz);
  if (st == FB_OK) {
    fb_run_result res;
    st = fb_case_run(&rc, tr, NULL, &res);
    if (st != FB_OK) {
      fb_err_set(err, st, "%s", res.message);
      fb_trace_free(tr);
    }
  }
  fb_case_free(&rc);
  return st;
}

int fb_own_ref_solve(const fb_case *cs, const fb_own_method *om, unsigned long max_steps,
                     unsigned long max_rhs, fb_trace *tr, double *acc, fb_err *err)
{
  *acc = NAN;
  int st = solve(cs, om->integrator, om->h, om->tol, max_steps, max_rhs, tr, err);
  if (st != FB_OK)
    return st;
  /* the check: the same solve one notch coarser; their difference bounds the error of the
   * finer one from above (first-order schemes: about equal to it) */
  fb_trace chk;
  fb_err e2 = {{0}};
  const double h2 = isnan(om->h) ? om->h : 2.0 * om->h;
  const double tol2 = isnan(om->h) ? 100.0 * om->tol : om->tol;
  if (solve(cs, om->integrator, h2, tol2, max_steps, max_rhs, &chk, &e2) == FB_OK) {
    fb_trace_errors(tr, &chk, cs->sc.plant.n, acc, NULL, NULL);
    fb_trace_free(&chk);
  }
  return FB_OK;
}

void fb_own_ref_disc(const fb_plant *pl, const fb_trace *tr, const fb_trace *own, double acc,
                     fb_metrics *m)
{
  fb_trace_errors(tr, own, pl->n, &m->disc_x_l2, &m->disc_v_l2, &m->disc_x_max);
  m->own_ref_err = acc;
  m->own_x_l2 = fb_trace_x_l2(own, pl->n);
  const double span = pl->T - pl->t0;
  if (!(acc <= 1e-2 * fmax(m->ref_x_l2, pl->v_stick * span * sqrt(span))))
    m->disc_x_l2 = m->disc_v_l2 = m->disc_x_max = NAN;
}
