/* client_api.c — what a program that drives fricbench as its command line does needs
 * from the library (fricbench.h, "Clients"): the catalogue of models, scenarios,
 * integrators and normal treatments with their parameter tables as one JSON object (the
 * data of `fricbench list`), the integrator `fricbench run` picks, and one case run with
 * the suite's metrics as `fricbench run --metrics` runs it.  The Python package
 * (python/fricbench) calls these through ctypes, so that its numbers are the command
 * line's to the last bit: the same functions make both. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_cli.h"
#include "fb_integrator_int.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_run_metrics.h"
#include "fb_scenarios.h"
#include "fb_suite.h"
#include "fricbench.h"

/* A number for JSON: null where the value is none (NaN: auto; +-inf: an open end). */
static json_t *num_or_null(double v)
{
  return isfinite(v) ? json_real(v) : json_null();
}

/* A parameter table with the values of p (its defaults when p holds them). */
static json_t *params_json(const fb_param_set *set, const void *p)
{
  json_t *rows = json_array();
  for (size_t i = 0; set != NULL && i < set->n; i++) {
    const fb_param_desc *d = &set->desc[i];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "unit", json_string(d->unit != NULL ? d->unit : ""));
    json_object_set_new(o, "doc", json_string(d->doc != NULL ? d->doc : ""));
    const double v = p != NULL ? fb_param_get(d, p) : d->def;
    if (d->flags & FB_PARAM_CHOICE) {
      json_t *ch = json_array();
      for (size_t k = 0; d->choices != NULL && d->choices[k] != NULL; k++)
        json_array_append_new(ch, json_string(d->choices[k]));
      json_object_set_new(o, "choices", ch);
      const size_t k = isfinite(v) && v >= 0 ? (size_t)v : 0;
      json_object_set_new(o, "default",
                          k < json_array_size(ch) ? json_incref(json_array_get(ch, k))
                                                  : json_null());
    } else {
      json_object_set_new(o, "default", num_or_null(v));
    }
    json_object_set_new(o, "min", num_or_null(d->min));
    json_object_set_new(o, "max", num_or_null(d->max));
    json_object_set_new(o, "min_open", json_boolean(d->flags & FB_PARAM_MIN_OPEN));
    json_object_set_new(o, "max_open", json_boolean(d->flags & FB_PARAM_MAX_OPEN));
    json_object_set_new(o, "integer", json_boolean(d->flags & FB_PARAM_INT));
    json_object_set_new(o, "auto", json_boolean(d->flags & FB_PARAM_AUTO));
    if (d->flags & FB_PARAM_AUTO)
      json_object_set_new(o, "auto_doc", json_string(d->auto_doc != NULL ? d->auto_doc : ""));
    json_array_append_new(rows, o);
  }
  return rows;
}

static json_t *integrator_json(const fb_integrator_type *t, const char *owner)
{
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(t->name));
  json_object_set_new(o, "title", json_string(t->title != NULL ? t->title : ""));
  json_object_set_new(o, "model", owner != NULL ? json_string(owner) : json_null());
  json_object_set_new(o, "fixed_step", json_boolean(t->fixed_ok));
  json_object_set_new(o, "adaptive", json_boolean(t->adaptive_ok));
  json_object_set_new(o, "implicit", json_boolean(t->implicit));
  json_object_set_new(o, "order", json_integer((json_int_t)t->order));
  return o;
}

static json_t *models_json(void)
{
  json_t *a = json_array();
  const fb_model_type *m;
  for (size_t i = 0; (m = fb_model_at(i)) != NULL; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(m->name));
    json_object_set_new(o, "title", json_string(m->title != NULL ? m->title : ""));
    json_object_set_new(o, "source", json_string(m->reference != NULL ? m->reference : ""));
    json_object_set_new(o, "default_integrator", json_string(m->default_integrator));
    json_object_set_new(o, "fixed_step_integrator",
                        json_string(fb_model_fixed_step_integrator(m)));
    json_t *sch = json_array();
    for (size_t k = 0; m->schemes != NULL && m->schemes[k] != NULL; k++)
      json_array_append_new(sch, json_string(m->schemes[k]->name));
    json_object_set_new(o, "schemes", sch);
    fb_model md;
    json_object_set_new(o, "params", fb_model_init(&md, m) == FB_OK
                                         ? params_json(m->params, md.params)
                                         : params_json(m->params, NULL));
    if (md.type != NULL)
      fb_model_free(&md);
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *scenario_json(const fb_scenario_type *s, int contact)
{
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(s->name));
  json_object_set_new(o, "title", json_string(s->title != NULL ? s->title : ""));
  json_object_set_new(o, "source", json_string(s->source != NULL ? s->source : ""));
  json_object_set_new(o, "normal_contact", json_boolean(contact));
  void *p = calloc(1, s->params->size + 1);
  if (p != NULL && fb_params_default(s->params, p) == FB_OK)
    json_object_set_new(o, "params", params_json(s->params, p));
  else
    json_object_set_new(o, "params", params_json(s->params, NULL));
  free(p);
  return o;
}

int fb_catalog_json(FILE *fp, fb_err *err)
{
  if (fp == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_catalog_json needs an output stream (NULL)");
  json_t *root = json_object();
  json_object_set_new(root, "version", json_string(fb_version()));
  json_object_set_new(root, "models", models_json());
  json_t *sc = json_array();
  const fb_scenario_type *s;
  for (size_t i = 0; (s = fb_scenario_at(i)) != NULL; i++)
    json_array_append_new(sc, scenario_json(s, 0));
  for (size_t i = 0; fb_contact_scenario_registry[i] != NULL; i++)
    json_array_append_new(sc, scenario_json(fb_contact_scenario_registry[i], 1));
  json_object_set_new(root, "scenarios", sc);
  json_t *in = json_array();
  for (size_t i = 0; fb_integrator_registry[i] != NULL; i++)
    json_array_append_new(in, integrator_json(fb_integrator_registry[i], NULL));
  const fb_model_type *m;
  for (size_t i = 0; (m = fb_model_at(i)) != NULL; i++)
    for (size_t k = 0; m->schemes != NULL && m->schemes[k] != NULL; k++)
      json_array_append_new(in, integrator_json(m->schemes[k], m->name));
  json_object_set_new(root, "integrators", in);
  json_t *nt = json_array();
  for (size_t i = 0; fb_normal_registry[i] != NULL; i++) {
    const fb_normal_type *t = fb_normal_registry[i];
    double p[FB_NORMAL_NP];
    fb_params_default(t->params, p);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(t->name));
    json_object_set_new(o, "title", json_string(t->title != NULL ? t->title : ""));
    json_object_set_new(o, "source", json_string(t->reference != NULL ? t->reference : ""));
    json_object_set_new(o, "params", params_json(t->params, p));
    json_array_append_new(nt, o);
  }
  json_object_set_new(root, "normal_treatments", nt);
  const int bad = json_dumpf(root, fp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 ||
                  fputc('\n', fp) == EOF;
  json_decref(root);
  return bad ? fb_err_set(err, FB_EIO, "writing the catalogue failed") : FB_OK;
}

/* GSL's multistep methods are flagged fixed_ok but fail at a fixed step (msbdf at t=0). */
static int can_fix_step(const fb_integrator_type *it)
{
  return it != NULL && it->fixed_ok && strcmp(it->name, "msbdf") != 0 &&
         strcmp(it->name, "msadams") != 0;
}

/* The integrators that can run model m at a fixed step, comma-separated (GSL's multistep
 * methods are flagged fixed_ok but fail at t=0 without an error estimate to start on). */
static void fixed_integrators(const fb_model_type *m, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0;; i++) {
      const fb_integrator_type *t = pass == 0 ? (m->schemes != NULL ? m->schemes[i] : NULL)
                                              : fb_integrator_registry[i];
      if (t == NULL)
        break;
      if (!can_fix_step(t) || fb_integrator_find(m, t->name) != t)
        continue;
      if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->name);
    }
}

int fb_case_integrator_for(const char *scenario, const char *model, const char *integrator,
                           int fixed_step, const char **chosen, int *switched, fb_err *err)
{
  if (model == NULL || chosen == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_case_integrator_for needs a model name and a "
                      "place for the answer (NULL)");
  const fb_model_type *mt = fb_model_find(model);
  *chosen = integrator;
  if (switched != NULL)
    *switched = 0;
  if (mt == NULL || !fixed_step)
    return FB_OK; /* fb_case_open names what is allowed */
  /* a scenario with normal contacts runs under the contact scheme whatever the model's
   * integrator (docs/design.md §12): --h is its step, no fixed-step integrator is chosen */
  for (size_t i = 0; integrator == NULL && scenario != NULL && fb_contact_scenario_registry[i];
       i++)
    if (strcmp(fb_contact_scenario_registry[i]->name, scenario) == 0)
      return FB_OK;
  if (integrator == NULL) {
    /* the suite's fixed-step view's choice (one function), so that a fixed step repeats
     * its runs; "" (no 2-D form): the default, refused below with the model's reason */
    const char *fi = fb_model_fixed_step_integrator_on(
        mt, scenario != NULL ? fb_scenario_find(scenario) : NULL);
    const fb_integrator_type *def = fb_integrator_find(mt, mt->default_integrator);
    if (fi != NULL && *fi != '\0') {
      *chosen = fi;
      if (switched != NULL)
        *switched = !can_fix_step(def) && strcmp(fi, mt->default_integrator) != 0;
    }
  }
  const fb_integrator_type *it =
      fb_integrator_find(mt, *chosen != NULL ? *chosen : mt->default_integrator);
  if (it != NULL && !can_fix_step(it)) {
    char names[512];
    fixed_integrators(mt, names, sizeof names);
    return fb_err_set(err, FB_EINVAL, "--h: integrator %s cannot take a fixed step; allowed "
                      "with --h are %s", it->name, names);
  }
  return FB_OK;
}

int fb_case_execute_metrics(fb_case_handle *h, size_t samples, FILE *csv, FILE *metrics,
                            fb_case_summary *out, fb_err *err)
{
  if (h == NULL || out == NULL || metrics == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_case_execute_metrics needs a case (fb_case_open), "
                      "a metrics stream and a summary to fill (NULL)");
  fb_case *c = &h->c;
  memset(out, 0, sizeof *out);
  c->samples = samples;
  int st = fb_case_prepare(c, err);
  if (st != FB_OK)
    return st;
  /* the integrator's own set-up checks, before any output, as `run` makes them */
  void *ws = NULL;
  st = c->integ->alloc(&ws, c->integ, &c->pb, &c->opts, err);
  if (ws != NULL)
    c->integ->free(ws);
  if (st != FB_OK)
    return st;
  fb_trace tr = {0};
  fb_run_result res;
  memset(&res, 0, sizeof res);
  st = fb_case_run_metrics(c, &tr, &res, metrics, err);
  out->status = res.status;
  snprintf(out->message, sizeof out->message, "%s", res.status != FB_OK ? res.message : "");
  out->t_reached = res.t_reached;
  out->nsteps = res.cnt.nsteps;
  out->nrejected = res.cnt.nrejected;
  out->nfe = res.cnt.nfe;
  out->njac = res.cnt.njac;
  out->wall_s = res.wall_s;
  if (st == FB_OK && csv != NULL && fb_trace_write_csv(&tr, c->md.type->z_names, csv) != FB_OK)
    st = fb_err_set(err, FB_EIO, "writing the trajectory failed");
  fb_trace_free(&tr);
  return st;
}
