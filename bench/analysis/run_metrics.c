/* run_metrics.c — a single run's metrics by the suite's definitions (docs/design.md §6):
 * total error against the scenario's Coulomb reference, discretization error against the
 * model's own converged solution (bench/analysis/own_ref.c), the modelling error between the two,
 * stick by the velocity test and by the model's flag, drift, chatter on every accepted
 * step (fb_stream), energy and cost.  The Coulomb reference is computed here for the suite
 * too, so that `run --metrics` and runs.csv cannot differ.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_own_ref.h"
#include "fb_reference.h"
#include "fb_run_metrics.h"
#include "fb_integrator_int.h"

int fb_case_reference(const fb_case *cs, size_t ns, unsigned long max_steps,
                      unsigned long max_rhs, fb_reference *ref, fb_ref_kind *kind, char *msg,
                      size_t len)
{
  const fb_scenario *sc = &cs->sc;
  const fb_plant *pl = &sc->plant;
  fb_err err = {{0}};
  *kind = sc->type->ref_kind(sc->params);
  if (*kind == FB_REF_EXACT && sc->type->exact == NULL) /* a plugin's claim: no reference */
    *kind = FB_REF_NONE;
  ref->nc = pl->nc;
  ref->stick = calloc(pl->nc ? pl->nc : 1, sizeof(fb_spans));
  if (ref->stick == NULL) {
    *kind = FB_REF_NONE;
    snprintf(msg, len, "out of memory");
    return FB_ENOMEM;
  }
  fb_case rc;
  int st = FB_OK;
  if (*kind == FB_REF_EXACT) {
    st = fb_trace_alloc(&ref->tr, ns, pl->n, pl->nc, 0);
    const size_t n = pl->n;
    for (size_t k = 0; st == FB_OK && k < ns; k++) {
      const double t = k + 1 == ns ? pl->T : pl->t0 + (double)k * (pl->T - pl->t0) / (double)(ns - 1);
      double *y = ref->tr.y + k * ref->tr.dim;
      st = sc->type->exact(sc->params, t, y, y + n, ref->tr.F + k * pl->nc);
      ref->tr.t[k] = t;
      ref->tr.filled = k + 1;
    }
    if (st != FB_OK)
      snprintf(msg, len, "closed form failed");
  } else if (*kind == FB_REF_EVENT) {
    st = fb_case_init(&rc, sc->type->name, "switching", "event", &err);
    if (st == FB_OK) {
      memcpy(rc.sc.params, sc->params, sc->type->params->size);
      rc.opts.atol = rc.opts.rtol = FB_REF_TOL;
      rc.opts.event_tol = FB_REF_EVENT_TOL;
      rc.opts.stepper = FB_REF_STEPPER; /* its own dense output fills the grid (fb_reference.h) */
      rc.opts.hmax = (pl->T - pl->t0) / (double)(ns - 1);
      rc.opts.max_steps = 50 * max_steps;
      rc.opts.max_rhs = 50 * max_rhs;
      rc.samples = ns;
      st = fb_case_prepare(&rc, &err);
      if (st == FB_OK)
        st = fb_trace_alloc(&ref->tr, ns, pl->n, pl->nc, rc.md.type->nz);
      if (st == FB_OK) {
        fb_run_result res;
        st = fb_case_run(&rc, &ref->tr, NULL, &res);
        if (st != FB_OK)
          snprintf(err.msg, sizeof err.msg, "%s", res.message);
      }
      fb_case_free(&rc);
    }
    if (st != FB_OK)
      snprintf(msg, len, "event-driven reference: %.400s", err.msg);
  } else {
    st = FB_EUNSUP;
    snprintf(msg, len, "scenario has no reference");
  }
  if (st == FB_OK) {
    fb_problem pb;
    fb_problem_init(&pb, pl, &cs->md);
    for (size_t i = 0; i < pl->nc && st == FB_OK; i++)
      st = fb_spans_from_trace(&ref->stick[i], &pb, &ref->tr, i, 1e-12 * pl->v_scale);
  }
  if (st != FB_OK)
    *kind = FB_REF_NONE;
  return st;
}

static json_t *num(double v)
{
  return isfinite(v) ? json_real(v) : json_null(); /* JSON has no NaN */
}

int fb_case_run_metrics(fb_case *cs, fb_trace *tr, fb_run_result *res, FILE *fp, fb_err *err)
{
  const fb_plant *pl = &cs->sc.plant;
  fb_reference ref = {0}, own = {0};
  fb_ref_kind kind;
  char rmsg[512] = "";
  fb_metrics m;
  fb_metrics_nan(&m);
  fb_case_reference(cs, cs->samples, cs->opts.max_steps, cs->opts.max_rhs, &ref, &kind, rmsg,
                    sizeof rmsg);
  if (fb_trace_alloc(tr, cs->samples, pl->n, pl->nc, cs->md.type->nz) != FB_OK) {
    fb_trace_free(&ref.tr);
    fb_reference_free_spans(&ref);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  fb_stream stream;
  const int st_ok = kind != FB_REF_NONE && fb_stream_init(&stream, &cs->pb, &ref) == FB_OK;
  fb_observer obs = {fb_stream_step, &stream};
  fb_case_run(cs, tr, st_ok ? &obs : NULL, res);
  if (res->status == FB_OK && kind != FB_REF_NONE)
    fb_metrics_compute(&cs->pb, tr, &ref, st_ok ? &stream : NULL, &m);
  /* the model's own reference (the suite's: the Coulomb one for models whose h -> 0 limit
   * is Coulomb's) */
  const char *own_how = "";
  char omsg[512] = "";
  if (res->status == FB_OK && kind != FB_REF_NONE) {
    if (fb_model_suite_of(cs->md.type)->exact_limit) {
      fb_trace_errors(tr, &ref.tr, pl->n, &m.disc_x_l2, &m.disc_v_l2, &m.disc_x_max);
      m.mod_x_l2 = m.mod_v_l2 = m.own_ref_err = 0.0;
      m.own_x_l2 = m.ref_x_l2;
      own_how = "the Coulomb reference (exact limit)";
    } else {
      fb_own_method om;
      char key[96];
      double acc = NAN;
      fb_err e2 = {{0}};
      fb_own_method_of(cs, cs->opts.h, &om, key, sizeof key);
      own_how = om.integrator;
      if (fb_own_ref_solve(cs, &om, cs->opts.max_steps, cs->opts.max_rhs, &own.tr, &acc, &e2) ==
          FB_OK) {
        fb_own_ref_disc(pl, tr, &own.tr, acc, &m);
        fb_trace_errors(&own.tr, &ref.tr, pl->n, &m.mod_x_l2, &m.mod_v_l2, NULL);
      } else {
        snprintf(omsg, sizeof omsg, "%s", e2.msg);
      }
    }
  }
  if (res->status == FB_OK && kind != FB_REF_NONE)
    fb_metrics_stability(pl, &m);
  if (res->status == FB_OK)
    m.q_norm_err = res->q_norm_err;
  char unstable_why[160];
  const int unstable = fb_run_unstable(res->status, &m, unstable_why, sizeof unstable_why);
  if (st_ok)
    fb_stream_free(&stream);
  json_t *o = json_object();
  json_object_set_new(o, "scenario", json_string(cs->sc.type->name));
  json_object_set_new(o, "model", json_string(cs->md.type->name));
  json_object_set_new(o, "integrator", json_string(cs->integ->name));
  json_object_set_new(o, "mode", json_string(isnan(cs->opts.h) ? "adaptive" : "fixed"));
  json_object_set_new(o, "h", num(cs->opts.h));
  json_object_set_new(o, "atol", num(isnan(cs->opts.h) ? cs->opts.atol : (double)NAN));
  json_object_set_new(o, "rtol", num(isnan(cs->opts.h) ? cs->opts.rtol : (double)NAN));
  json_object_set_new(o, "status", json_string(unstable                  ? "unstable"
                                               : res->status == FB_OK       ? "ok"
                                               : res->status == FB_BUDGET ? "budget"
                                                                          : "failed"));
  json_object_set_new(o, "message", json_string(res->message));
  json_object_set_new(o, "ref", json_string(kind == FB_REF_EXACT   ? "exact"
                                            : kind == FB_REF_EVENT ? "event"
                                                                   : "none"));
  if (kind == FB_REF_NONE)
    json_object_set_new(o, "ref_message", json_string(rmsg));
  json_object_set_new(o, "own_ref", json_string(own_how));
  if (omsg[0])
    json_object_set_new(o, "own_ref_message", json_string(omsg));
  json_object_set_new(o, "t_reached", num(res->t_reached));
  const fb_counters *c = &res->cnt;
  const struct {
    const char *name;
    unsigned long v;
  } cnt[] = {{"nsteps", c->nsteps}, {"nrejected", c->nrejected}, {"nfe", c->nfe},
             {"njac", c->njac},     {"nevents", c->nevents},     {"ninner", c->ninner},
             {"nswitch", c->nswitch}};
  for (size_t i = 0; i < sizeof cnt / sizeof cnt[0]; i++)
    json_object_set_new(o, cnt[i].name, json_integer((json_int_t)cnt[i].v));
  double a[FB_NMETRICS];
  fb_metrics_to_array(&m, a);
  json_t *units = json_object();
  for (size_t i = 0; i < FB_NMETRICS; i++) {
    json_object_set_new(o, fb_metric_names[i], num(a[i]));
    json_object_set_new(units, fb_metric_names[i], json_string(fb_metric_units[i]));
  }
  json_object_set_new(o, "wall_s", num(res->wall_s));
  json_object_set_new(o, "cpu_s", num(res->cpu_s));
  json_object_set_new(o, "units", units);
  const int rc = json_dumpf(o, fp, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
  fputc('\n', fp);
  json_decref(o);
  fb_trace_free(&own.tr);
  fb_trace_free(&ref.tr);
  fb_reference_free_spans(&ref);
  if (rc != 0 || ferror(fp))
    return fb_err_set(err, FB_EIO, "writing the metrics failed");
  return FB_OK;
}
