/* contact_metrics.c — a run's normal-contact metrics against the contact reference
 * (fb_contact_metrics.h; docs/design.md §12 "Metrics and plots"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_contact_metrics.h"
#include "fb_engine.h"

#define FB_CONTACT_REF_MJ_STEPS 1e5

void fb_contact_metrics_nan(fb_metrics *m)
{
  m->e_nominal = m->e_eff = m->e_first = m->t1_err = m->t_imp_err = m->pen_max = NAN;
  m->contact_dur = m->lambda_min = m->t_inf_ref = m->rest_pen = m->rest_gap = NAN;
  m->rest_force_err = m->work_n_err = m->ut_err = m->stop_err = NAN;
  m->hover_gap = m->hover_gap_rel = NAN;
}

double fb_impact_e_eff(const fb_impact_stats *s, size_t kmax, double *first)
{
  double sum = 0;
  size_t m = 0;
  if (first != NULL)
    *first = NAN;
  for (size_t i = 0; i < s->n && i < FB_IMPACT_MAX && m < kmax; i++) {
    if (!isfinite(s->v_out[i]) || !(s->v_in[i] < 0))
      continue;
    const double e = -s->v_out[i] / s->v_in[i];
    if (m == 0 && first != NULL)
      *first = e;
    sum += e;
    m++;
  }
  return m > 0 ? sum / (double)m : (double)NAN;
}

/* The contact reference of a plant newton refuses (normals coupled through the mass
 * matrix: simultaneous impacts, docs/scenarios/conveyor-wall.md): moreau-jean, theta = 1/2,
 * at FB_CONTACT_REF_MJ_STEPS steps over the span (h = 3e-5 on conveyor-wall's T = 3 s,
 * where the A-B impact times agree with h = 1e-6 to about 3e-5 s, ten times finer than
 * the suite's runs at T/1e4; one reference costs ~1 s, and every treatment's runs have
 * their own, their `normal` setting being part of the scenario's parameters). */
static int contact_reference_mj(const fb_case *cs, unsigned long max_steps,
                                unsigned long max_rhs, fb_impact_stats *ref, fb_err *err)
{
  fb_case rc;
  int st = fb_case_init(&rc, cs->sc.type->name, cs->md.type->name, NULL, err);
  if (st != FB_OK)
    return st;
  memcpy(rc.sc.params, cs->sc.params, cs->sc.type->params->size);
  memcpy(rc.md.params, cs->md.params, cs->md.type->params->size);
  st = fb_case_set(&rc, "scenario.normal=moreau-jean", err);
  if (st == FB_OK) {
    rc.opts.max_steps = 50 * max_steps;
    rc.opts.max_rhs = 50 * max_rhs;
    st = fb_case_prepare(&rc, err);
  }
  if (st == FB_OK) { /* prepare set its default step T/1e4 */
    rc.opts.h = (rc.sc.plant.T - rc.sc.plant.t0) / FB_CONTACT_REF_MJ_STEPS;
    st = fb_contact_run_stats(&rc.pb, &rc.opts, ref, NULL, err);
  }
  fb_case_free(&rc);
  return st;
}

int fb_contact_reference(const fb_case *cs, unsigned long max_steps, unsigned long max_rhs,
                         fb_impact_stats *ref, fb_err *err)
{
  fb_case rc;
  /* an engine steps its contacts itself (docs/engines.md): its contact reference is the
   * contact scheme's with smooth-sign, the suite's friction model of the contact groups */
  const int engine = fb_engine_of_model(cs->md.type) != NULL;
  int st = fb_case_init(&rc, cs->sc.type->name, engine ? "smooth-sign" : cs->md.type->name,
                        NULL, err);
  if (st != FB_OK)
    return st;
  memcpy(rc.sc.params, cs->sc.params, cs->sc.type->params->size);
  if (!engine)
    memcpy(rc.md.params, cs->md.params, cs->md.type->params->size);
  /* an FE plant (elastic-frame): the event-driven newton reference steps its stiff
   * structural modes with an explicit stepper, which cannot finish; its reference is a
   * converged fine-step run of the suite's frame group (docs/scenarios/elastic-frame.md) */
  if (cs->sc.built && cs->sc.plant.n > FB_CONTACT_REF_NMAX) {
    fb_case_free(&rc);
    return fb_err_set(err, FB_EUNSUP, "no event-driven contact reference for %zu DOFs (at "
                      "most %d)", cs->sc.plant.n, FB_CONTACT_REF_NMAX);
  }
  st = fb_case_set(&rc, "scenario.normal=newton", err);
  if (st == FB_OK) {
    rc.opts.atol = rc.opts.rtol = FB_CONTACT_REF_TOL;
    rc.opts.max_steps = 50 * max_steps;
    rc.opts.max_rhs = 50 * max_rhs;
    st = fb_case_prepare(&rc, err);
  }
  if (st == FB_OK)
    st = fb_contact_run_stats(&rc.pb, &rc.opts, ref, NULL, err);
  fb_case_free(&rc);
  if (st == FB_EUNSUP) /* normals newton does not solve (coupled through M) */
    return contact_reference_mj(cs, max_steps, max_rhs, ref, err);
  return st;
}

int fb_contact_reference_describe(const char *scenario, char *buf, size_t len)
{
  if (len > 0)
    buf[0] = '\0';
  fb_case rc;
  fb_err err = {{0}};
  if (fb_case_init(&rc, scenario, "smooth-sign", NULL, &err) != FB_OK)
    return 0;
  /* as fb_contact_reference decides: the scenario under newton, at its defaults */
  int st = fb_case_set(&rc, "scenario.normal=newton", &err);
  if (st == FB_OK)
    st = fb_case_prepare(&rc, &err);
  const fb_plant *pl = &rc.sc.plant;
  int has = rc.sc.built && pl->nn > 0;
  if (!has) {
    /* no normal contact at the defaults, or the scenario cannot be built */
  } else if (pl->n > FB_CONTACT_REF_NMAX) {
    snprintf(buf, len, "none: no event-driven contact reference for a plant of %zu DOFs (more "
             "than %d: newton's explicit inner stepper cannot step its stiff modes), so the "
             "contact metrics are n/a", pl->n, FB_CONTACT_REF_NMAX);
  } else {
    if (st == FB_OK) { /* newton may refuse the plant when it allocates */
      void *ws = NULL;
      st = rc.integ->alloc(&ws, rc.integ, &rc.pb, &rc.opts, &err);
      if (ws != NULL)
        rc.integ->free(ws);
    }
    if (st == FB_OK)
      snprintf(buf, len, "newton, event-driven, at tolerance %g (the same scenario variant, its "
               "normal setting replaced)", FB_CONTACT_REF_TOL);
    else if (st == FB_EUNSUP)
      snprintf(buf, len, "moreau-jean, theta = 1/2, at h = T/%g = %g s (the same scenario "
               "variant; newton refuses it: %s)", FB_CONTACT_REF_MJ_STEPS,
               (pl->T - pl->t0) / FB_CONTACT_REF_MJ_STEPS, err.msg);
    else
      has = 0;
  }
  fb_case_free(&rc);
  return has;
}

double fb_contact_rest_window(const fb_plant *pl, const fb_impact_stats *ref)
{
  const double ti = ref->t_rest;
  if (!(ti < pl->T) || ref->n > FB_IMPACT_MAX)
    return NAN;
  for (size_t i = 0; i < ref->n; i++)
    if (ref->t_in[i] > ti)
      return NAN; /* released and hit again: not at rest for good */
  return ti + 0.5 * (pl->T - ti);
}

void fb_contact_metrics(const fb_plant *pl, const fb_impact_stats *run,
                        const fb_impact_stats *ref, fb_metrics *m)
{
  fb_contact_metrics_nan(m);
  if (pl->nn == 0)
    return;
  fb_normal_scale sc;
  fb_normal_scales(pl, 0, &sc);
  m->e_nominal = sc.e;
  m->e_eff = fb_impact_e_eff(run, FB_CONTACT_NE, &m->e_first);
  if (run->n > 0 && ref->n > 0) {
    m->t1_err = run->t_in[0] - ref->t_in[0];
    double w = 0;
    for (size_t i = 0; i < run->n && i < ref->n && i < FB_CONTACT_NIMP && i < FB_IMPACT_MAX; i++)
      w = fmax(w, fabs(run->t_in[i] - ref->t_in[i]));
    m->t_imp_err = w;
    m->contact_dur = run->t_out[0] - run->t_in[0];
  }
  m->pen_max = run->max_pen;
  m->lambda_min = run->min_lambda;
  m->t_inf_ref = ref->t_rest;
  if (isfinite(run->t_watch) && isfinite(run->rest_lam_static)) {
    m->rest_pen = fmax(run->rest_pen, 0.0);
    m->rest_gap = fmax(run->rest_gap, 0.0);
    m->rest_force_err = run->rest_lam_err / fabs(run->rest_lam_static);
  }
  m->work_n_err = (run->work_n - ref->work_n) / (sc.m * sc.a * sc.h);
  if (pl->normal[0].fric >= 0) {
    m->ut_err = run->vt_after_first - ref->vt_after_first;
    m->stop_err = run->t_stop - ref->t_stop;
  }
  if (run->hover_n > 0) { /* docs/models/ccp.md */
    m->hover_gap = run->hover_gap_sum / (double)run->hover_n;
    m->hover_gap_rel = run->hover_pred_sum > 0 ? run->hover_gap_sum / run->hover_pred_sum
                                                 : (double)NAN;
  }
}
