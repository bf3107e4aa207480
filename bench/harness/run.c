/* run.c — set up, prepare and run one case; record it on the output grid. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fb_engine.h"
#include "fb_quiet.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_util.h"
#include "fb_plant_int.h"
#include "fb_integrator_int.h"

static void join_names(char *buf, size_t len, const char *name, size_t *used)
{
  if (*used < len)
    *used += (size_t)snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", name);
}

void fb_names_models(char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  const fb_model_type *t;
  for (size_t i = 0; (t = fb_model_at(i)) != NULL; i++)
    join_names(buf, len, t->name, &used);
}

void fb_names_scenarios(char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  const fb_scenario_type *t;
  for (size_t i = 0; (t = fb_scenario_at(i)) != NULL; i++)
    join_names(buf, len, t->name, &used);
}

void fb_names_integrators(const fb_model_type *m, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; m->schemes != NULL && m->schemes[i] != NULL; i++)
    join_names(buf, len, m->schemes[i]->name, &used);
  for (size_t i = 0; fb_integrator_registry[i] != NULL; i++) {
    const fb_integrator_type *t = fb_integrator_registry[i];
    if ((m->caps & t->needs) == t->needs)
      join_names(buf, len, t->name, &used);
  }
}

int fb_case_init(fb_case *c, const char *scenario, const char *model, const char *integrator,
                 fb_err *err)
{
  char names[1024];
  memset(c, 0, sizeof *c);
  const fb_scenario_type *st = scenario ? fb_scenario_find(scenario) : NULL;
  if (st == NULL) {
    fb_names_scenarios(names, sizeof names);
    return fb_err_set(err, FB_EINVAL, "unknown scenario '%s': use one of %s",
                      scenario ? scenario : "", names);
  }
  const fb_model_type *mt = model ? fb_model_find(model) : NULL;
  for (const fb_engine_entry *e = fb_engine_table; mt == NULL && model && e->name; e++)
    if (strcmp(e->name, model) == 0) { /* an engine fricbench knows but was built without */
      fb_engine_present(e, names, sizeof names);
      return fb_err_set(err, FB_EUNSUP, "engine %s is absent: %s (docs/engines.md)", model,
                        names);
    }
  if (mt == NULL) {
    fb_names_models(names, sizeof names);
    return fb_err_set(err, FB_EINVAL, "unknown model '%s': use one of %s", model ? model : "",
                      names);
  }
  const char *iname = integrator ? integrator : mt->default_integrator;
  c->integ = fb_integrator_find(mt, iname);
  if (c->integ == NULL && strcmp(iname, fb_integrator_contact.name) == 0)
    c->integ = &fb_integrator_contact; /* any model: checked against the plant in prepare */
  c->integ_named = integrator != NULL;
  if (c->integ == NULL) {
    fb_names_integrators(mt, names, sizeof names);
    return fb_err_set(err, FB_EINVAL, "%s integrator '%s' for model %s: use one of %s",
                      fb_integrator_find_any(iname) ? "unsuitable" : "unknown", iname, mt->name,
                      names);
  }
  if (fb_scenario_init(&c->sc, st) != FB_OK || fb_model_init(&c->md, mt) != FB_OK) {
    fb_case_free(c);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  fb_int_opts_default(&c->opts);
  c->opts.atol = c->opts.rtol = NAN; /* "not chosen": prepare applies the default */
  c->samples = 1001;
  return FB_OK;
}

int fb_case_set(fb_case *c, const char *assignment, fb_err *err)
{
  const char *eq = strchr(assignment, '=');
  if (eq == NULL || eq == assignment)
    return fb_err_set(err, FB_EINVAL, "--set '%s': expected NAME=VALUE", assignment);
  char name[128];
  size_t len = (size_t)(eq - assignment);
  if (len >= sizeof name)
    return fb_err_set(err, FB_EINVAL, "--set '%.40s...': parameter name too long: allowed is "
                      "a name of at most %zu characters (see 'fricbench list')",
                      assignment, sizeof name - 1);
  memcpy(name, assignment, len);
  name[len] = '\0';
  const char *value = eq + 1;
  const fb_param_set *sps = c->sc.type->params, *mps = c->md.type->params;
  const char *sname = c->sc.type->name, *mname = c->md.type->name;
  if (strncmp(name, "scenario.", 9) == 0)
    return fb_params_set(sps, sname, c->sc.params, name + 9, value, err);
  if (strncmp(name, "model.", 6) == 0)
    return fb_params_set(mps, mname, c->md.params, name + 6, value, err);
  if (strncmp(name, "normal.", 7) == 0) {
    if (c->nnset == sizeof c->nset / sizeof c->nset[0] ||
        strlen(assignment) >= sizeof c->nset[0])
      return fb_err_set(err, FB_EINVAL, "--set %s: allowed are at most %zu normal.NAME=VALUE "
                        "assignments of at most %zu characters", name,
                        sizeof c->nset / sizeof c->nset[0], sizeof c->nset[0] - 1);
    strcpy(c->nset[c->nnset++], assignment + 7);
    return FB_OK;
  }
  const int in_s = fb_params_find(sps, name) != NULL, in_m = fb_params_find(mps, name) != NULL;
  if (in_s && in_m)
    return fb_err_set(err, FB_EINVAL,
                      "--set %s is ambiguous: both scenario %s and model %s have it; write "
                      "scenario.%s or model.%s",
                      name, sname, mname, name, name);
  if (in_s)
    return fb_params_set(sps, sname, c->sc.params, name, value, err);
  if (in_m)
    return fb_params_set(mps, mname, c->md.params, name, value, err);
  return fb_err_set(err, FB_EINVAL,
                    "--set %s: unknown parameter: neither scenario %s nor model %s has it (see "
                    "'fricbench list')",
                    name, sname, mname);
}

/* The divergence bounds of fb_case (see fb_run.h): the scenario's velocity and position
 * scales divided by sqrt(DBL_EPSILON). */
static int case_bounds(fb_case *c)
{
  const fb_plant *pl = &c->sc.plant;
  const size_t n = pl->n;
  const double span = pl->T - pl->t0;
  double *f = calloc(n, sizeof *f);
  if (f == NULL)
    return FB_ENOMEM;
  fb_plant_smooth_force(pl, pl->t0, pl->x0, pl->v0, f);
  double fsum = 0, minv = 0, x0 = 0, v = fabs(pl->v_scale);
  if (pl->banded)
    minv = fb_plant_minv_norm(pl);
  for (size_t i = 0; i < n; i++) {
    double row = 0;
    for (size_t j = 0; j < n && !pl->banded; j++)
      row += fabs(pl->Minv[i * n + j]);
    minv = fmax(minv, row);
    fsum = fmax(fsum, fabs(f[i]));
    x0 = fmax(x0, fabs(pl->x0[i]));
    v = fmax(v, fabs(pl->v0[i]));
  }
  free(f);
  for (size_t i = 0; i < pl->nc; i++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, pl->t0, &cs);
    v = fmax(v, fabs(cs.u));
    fsum += fabs(fb_plant_contact_Fs(pl, i));
  }
  v += minv * fsum * span;
  /* NaN or overflow in the scales (absurd but legal parameters) disables the check
   * rather than failing good runs. */
  const double root_eps = sqrt(DBL_EPSILON);
  c->v_bound = isfinite(v) && v > 0 ? v / root_eps : (double)INFINITY;
  const double x = x0 + v * span;
  c->x_bound = isfinite(x) && x > 0 ? x / root_eps : (double)INFINITY;
  return FB_OK;
}

/* Normal contacts (docs/design.md §12): apply the normal.NAME assignments, resolve the
 * treatments' auto parameters, and run the plant with the contact scheme (a generic
 * integrator named on the command line becomes its inner stepper). */
static int case_normals(fb_case *c, fb_err *err)
{
  fb_plant *pl = &c->sc.plant;
  if (pl->nn == 0) {
    if (c->nnset > 0)
      return fb_err_set(err, FB_EINVAL, "--set normal.%.60s: scenario %s has no normal contact",
                        c->nset[0], c->sc.type->name);
    if (c->integ == &fb_integrator_contact)
      return fb_err_set(err, FB_EINVAL, "integrator contact: scenario %s has no normal contact",
                        c->sc.type->name);
    return FB_OK;
  }
  for (size_t i = 0; i < c->nnset; i++) {
    char *eq = strchr(c->nset[i], '=');
    if (eq == NULL)
      return fb_err_set(err, FB_EINVAL, "--set normal.%s: expected NAME=VALUE", c->nset[i]);
    *eq = '\0';
    for (size_t k = 0; k < pl->nn; k++) {
      int st = fb_normal_set(&pl->normal[k], c->nset[i], eq + 1, err);
      if (st != FB_OK) {
        *eq = '=';
        return st;
      }
    }
    *eq = '=';
  }
  int st = fb_normal_resolve_all(pl, err);
  if (st != FB_OK)
    return st;
  /* Only the contact scheme steps normals: a model's default integrator gives way to it (the
   * summary line says integrator=contact), a generic one named with -i becomes its inner
   * stepper (said on stderr and in the summary line by the CLI), and a model-owned scheme
   * named with -i is refused, never replaced behind the user's back. */
  const char *inner = NULL; /* the generic integrator named with -i, as inner stepper */
  if (c->integ != &fb_integrator_contact) {
    if (c->integ_named && c->integ->needs != FB_MODEL_ODE)
      return fb_err_set(err, FB_EINVAL,
                        "integrator %s of model %s: scenario %s has normal contacts, which only "
                        "the contact scheme steps (docs/design.md §12): allowed is -i contact, "
                        "or an explicit GSL stepper as its inner stepper (rk2, rk4, rkf45, rkck, "
                        "rk8pd, msadams, heun3, dop853)",
                        c->integ->name, c->md.type->name, c->sc.type->name);
    if (c->integ_named && c->opts.stepper == NULL)
      inner = c->opts.stepper = c->integ->name;
    c->integ = &fb_integrator_contact;
  }
  /* a time-stepping treatment (moreau-jean) runs at a fixed step, default (T - t0)/1e4;
   * the others are event-driven with an adaptive stepper */
  const int stepping = pl->normal[0].type->stepper != NULL;
  if (stepping && inner != NULL) /* it has no inner stepper that could run it */
    return fb_err_set(err, FB_EINVAL,
                      "integrator %s: normal %s steps the contacts itself (a fixed-step scheme, "
                      "no inner stepper): allowed is -i contact or no -i", inner,
                      pl->normal[0].type->name);
  if (stepping && !isnan(c->opts.atol) && isnan(c->opts.h))
    return fb_err_set(err, FB_EINVAL, "normal %s is a fixed-step scheme: give --h, not --tol",
                      pl->normal[0].type->name);
  if (!stepping && !isnan(c->opts.h))
    return fb_err_set(err, FB_EINVAL, "normal %s steps adaptively with located events: give "
                      "--tol, not --h (a fixed step is for normal=moreau-jean)",
                      pl->normal[0].type->name);
  if (stepping && isnan(c->opts.h))
    c->opts.h = (pl->T - pl->t0) / 1e4;
  if (isnan(c->opts.h) && isnan(c->opts.atol))
    c->opts.atol = c->opts.rtol = 1e-9;
  return FB_OK;
}

/* fb_plant_banded_ok's ode_kind of integrator it with model mt: a generic ODE stepper with
 * a model that needs no applied-force split, explicit or implicit; 0 for any other pair. */
static int banded_ode_kind(const fb_integrator_type *it, const fb_model_type *mt)
{
  if (it->needs != FB_MODEL_ODE || (mt->caps & FB_MODEL_NEEDS_FAPP))
    return 0;
  return it->implicit ? FB_BANDED_ODE_IMPLICIT : FB_BANDED_ODE_EXPLICIT;
}

/* A banded plant (docs/scenarios/chain.md) runs only with the pairs that never read the
 * dense store: the table in core/fb_plant.c, the explicit generic ODE steppers, and the
 * implicit ones with a band linear solver (SUNDIALS'; docs/integrators/sundials.md); with
 * normals, under the contact scheme with a treatment of the banded-normal table (it steps
 * the plant itself on the band store and the contact rows). */
static int case_banded(const fb_case *c, fb_err *err)
{
  const fb_plant *pl = &c->sc.plant;
  const fb_model_type *mt = c->md.type;
  for (size_t k = 0; k < pl->nn; k++)
    if (c->integ != &fb_integrator_contact || pl->normal[k].type == NULL ||
        !fb_plant_banded_normal_ok(pl->normal[k].type->name))
      return fb_err_set(err, FB_EUNSUP,
                        "normal treatment %s under integrator %s does not run a banded plant "
                        "(scenario %s, n = %zu): docs/scenarios/chain.md lists the treatments "
                        "that do",
                        pl->normal[k].type != NULL ? pl->normal[k].type->name : "(none)",
                        c->integ->name, c->sc.type->name, pl->n);
  if (pl->nn == 0 && !fb_plant_banded_ok(mt->name, c->integ->name, banded_ode_kind(c->integ, mt)))
    return fb_err_set(err, FB_EUNSUP,
                      "integrator %s of model %s does not run a banded plant (scenario %s, n = "
                      "%zu): it needs the dense matrices; docs/scenarios/chain.md lists the pairs "
                      "that do",
                      c->integ->name, mt->name, c->sc.type->name, pl->n);
  return FB_OK;
}

int fb_case_prepare(fb_case *c, fb_err *err)
{
  int st = fb_scenario_build(&c->sc, err);
  if (st != FB_OK)
    return st;
  const fb_plant *pl = &c->sc.plant;
  st = fb_model_resolve(&c->md, pl, err);
  if (st != FB_OK)
    return st;
  const fb_model_type *mt = c->md.type;
  /* an engine (docs/engines.md) steps contacts, normals and 2-D friction itself */
  const int engine = fb_engine_of_model(mt) != NULL;
  if (!engine && (st = case_normals(c, err)) != FB_OK)
    return st;
  /* Contacts with a tangential Jacobian (docs/design.md §13) need an integrator that reads
   * the rows: every generic one (the assembled ODE does), model-owned schemes only when
   * their model says so; the contact scheme of normals reads them itself (it checks the
   * friction model's vector law where it needs it, contact/contact_rows.c). */
  if (!engine && (pl->has_jt || pl->npairs > 0) &&
      (c->integ->one_dim ||
       (pl->nn == 0 && c->integ->needs != FB_MODEL_ODE && !(mt->caps & FB_MODEL_VEC2))))
    return fb_err_set(err, FB_EUNSUP,
                      "integrator %s of model %s does not take 2-D contacts or contacts with a "
                      "tangential Jacobian (scenario %s; docs/design.md §13)",
                      c->integ->name, mt->name, c->sc.type->name);
  /* The contact scheme checks a plant with Jacobian rows when it allocates (the friction
   * model's vector law, contact/contact_rows.c): asked here, so that a refusal is the
   * case's, before any run. */
  if (pl->nn > 0 && (pl->has_jt || pl->npairs > 0)) {
    void *ws = NULL;
    fb_problem pb;
    fb_problem_init(&pb, pl, &c->md);
    st = c->integ->alloc(&ws, c->integ, &pb, &c->opts, err);
    if (ws != NULL)
      c->integ->free(ws);
    if (st != FB_OK)
      return st;
  }
  /* The kinematic map qdot = T(q) nu (fb_kinematics): only schemes that integrate it. */
  if (pl->kin.nquat > 0 && !fb_integrator_takes_quat(c->integ, pl))
    return fb_err_set(err, FB_EUNSUP,
                      "%s %s does not integrate the attitude quaternions of scenario %s "
                      "(qdot = T(q) nu; docs/scenarios/sphere-drop.md)",
                      c->integ->takes_quat ? "normal treatment" : "integrator",
                      c->integ->takes_quat ? pl->normal[0].type->name : c->integ->name,
                      c->sc.type->name);
  if (pl->banded && (st = case_banded(c, err)) != FB_OK)
    return st;
  fb_int_opts *o = &c->opts;
  const double span = pl->T - pl->t0;
  if (c->samples < 2 || c->samples > FB_MAX_SAMPLES)
    return fb_err_set(err, FB_EINVAL, "samples = %zu is out of range: allowed is 2 to %lu",
                      c->samples, FB_MAX_SAMPLES);
  /* A span so short that the output grid spacing or the default step (T - t0)/1e4
   * underflows cannot be stepped: every step would be 0. */
  const double span_min = DBL_MIN * fmax(1e4, (double)(c->samples - 1));
  if (!(span >= span_min))
    return fb_err_set(err, FB_EINVAL,
                      "T - t0 = %g is too short: the output grid or the default step "
                      "underflows; allowed is T - t0 >= %g",
                      span, span_min);
  if (isnan(o->h) && isnan(o->atol)) {
    if (mt->default_tol > 0 && c->integ->adaptive_ok)
      o->atol = o->rtol = mt->default_tol;
    else if (c->integ->fixed_ok)
      o->h = span / 1e4;
    else
      o->atol = o->rtol = 1e-8;
  }
  if (!isnan(o->h)) {
    if (!c->integ->fixed_ok)
      return fb_err_set(err, FB_EINVAL, "integrator %s has no fixed-step mode: use --tol",
                        c->integ->name);
    if (!(isfinite(o->h) && o->h > 0 && o->h <= span))
      return fb_err_set(err, FB_EINVAL, "step h = %g is out of range: allowed is 0 < h <= T - t0 = %g",
                        o->h, span);
    /* A step below 1e-12 of the span (or of the spacing of doubles near t0 and T) cannot
     * reach T within any budget: 1e12 steps, and subnormal steps crawl. */
    const double h_min = fmax(FB_H_MIN_REL * span,
                              64 * DBL_EPSILON * fmax(fabs(pl->t0), fabs(pl->T)));
    if (!(o->h >= h_min))
      return fb_err_set(err, FB_EINVAL,
                        "step h = %g is too small: allowed is %.3g <= h <= T - t0 = %g "
                        "(h >= 1e-12 (T - t0))",
                        o->h, h_min, span);
  } else {
    if (!c->integ->adaptive_ok)
      return fb_err_set(err, FB_EINVAL, "integrator %s has no adaptive mode: use --h",
                        c->integ->name);
    if (isnan(o->rtol))
      o->rtol = o->atol;
    if (isnan(o->atol))
      o->atol = o->rtol;
    if (!(isfinite(o->atol) && o->atol > 0 && isfinite(o->rtol) && o->rtol > 0))
      return fb_err_set(err, FB_EINVAL, "tolerance %g is out of range: allowed is a finite number > 0",
                        !(o->atol > 0) ? o->atol : o->rtol);
    /* Below these an adaptive stepper cannot meet the tolerance in double precision (rtol)
     * or works in subnormals (atol): it only burns its budget. */
    if (!(o->rtol >= FB_RTOL_MIN) || !(o->atol >= FB_ATOL_MIN))
      return fb_err_set(err, FB_EINVAL,
                        "tolerance atol = %g, rtol = %g is too small: allowed is rtol >= %g "
                        "and atol >= %g",
                        o->atol, o->rtol, FB_RTOL_MIN, FB_ATOL_MIN);
  }
  if (case_bounds(c) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  fb_problem_init(&c->pb, pl, &c->md);
  c->pb.scenario = c->sc.type->name;
  return FB_OK;
}

void fb_case_free(fb_case *c)
{
  if (c == NULL)
    return;
  fb_model_free(&c->md);
  fb_scenario_free(&c->sc);
  memset(c, 0, sizeof *c);
}

/* The recorder: an observer that fills the uniform output grid from the accepted steps
 * (dense output by Hermite interpolation, so it never alters the step sequence).  The
 * outputs (F, stick) and derivatives at a step end are computed only when a grid point
 * falls inside the step. */
typedef struct recorder {
  const fb_problem *pb;
  fb_trace *tr;
  const fb_observer *extra;
  double t0, dt;
  int have_prev, prev_out; /* prev_out: Fp, sp, dyp valid for the previous step */
  double tp;
  fb_quiet q;              /* its quiet steps: q.t_next, q.t_last from recorder_next() */
  double *yp, *dyp, *dy;   /* dim each: previous state, its derivative, current derivative */
  double *Fp, *F, *work;   /* nc, nc, n */
  int *sp, *sk;            /* nc, nc */
  /* the stepper's own dense output (fb_integrator_type.dense), NULL: none */
  int (*dense)(void *ws, double ta, double tb, double t, double *y);
  void *dense_ws;
  double *yd, *Fd;         /* dim, nc: a dense output sample and its forces */
  int *sd;                 /* nc: its stick flags */
  int status;
  /* guards checked after every accepted step (fb_case: x_bound, v_bound, cancel) */
  size_t n;
  double x_bound, v_bound;
  const atomic_int *cancel;
  char why[160]; /* message when a guard stopped the run */
  size_t qoff;    /* the plant's attitude quaternions in y (fb_kinematics), 0: none */
  double q_err;   /* their largest |‖Q‖ - 1| so far */
} recorder;

/* Quintic Hermite in x (x, v, a at both ends), cubic in v (v, a) and in z (z, z'),
 * linear where a derivative is unknown (NaN) and for F; stick from the nearer end. */
static void record_sample(recorder *r, size_t k, double tk, double theta, double h,
                          const double *y)
{
  fb_trace *tr = r->tr;
  const size_t n = tr->n, dim = tr->dim, nc = tr->nc, g = k;
  k -= tr->base; /* the slot (streamed traces hold a window) */
  double *out = tr->y + k * dim;
  if (theta >= 1.0) {
    memcpy(out, y, dim * sizeof(double));
    memcpy(tr->F + k * nc, r->F, nc * sizeof(double));
    memcpy(tr->stick + k * nc, r->sk, nc * sizeof(int));
  } else {
    const double *yp = r->yp, *d0 = r->dyp, *d1 = r->dy;
    const double t2 = theta * theta, t3 = t2 * theta, t4 = t3 * theta, t5 = t4 * theta;
    const double q0 = 1 - 10 * t3 + 15 * t4 - 6 * t5, q1 = theta - 6 * t3 + 8 * t4 - 3 * t5;
    const double q2 = 0.5 * (t2 - 3 * t3 + 3 * t4 - t5), q3 = 0.5 * (t3 - 2 * t4 + t5);
    const double q4 = -4 * t3 + 7 * t4 - 3 * t5, q5 = 10 * t3 - 15 * t4 + 6 * t5;
    const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + theta;
    const double h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    for (size_t i = 0; i < n; i++) {
      out[i] = q0 * yp[i] + q1 * h * yp[n + i] + q2 * h * h * d0[n + i] + q5 * y[i] +
               q4 * h * y[n + i] + q3 * h * h * d1[n + i];
      if (!isfinite(out[i])) /* acceleration unknown (normal contacts): cubic in x, v */
        out[i] = h00 * yp[i] + h10 * h * yp[n + i] + h01 * y[i] + h11 * h * y[n + i];
    }
    for (size_t i = n; i < dim; i++) {
      const double s0 = d0[i], s1 = d1[i];
      if (isfinite(s0) && isfinite(s1))
        out[i] = h00 * yp[i] + h10 * h * s0 + h01 * y[i] + h11 * h * s1;
      else
        out[i] = yp[i] + theta * (y[i] - yp[i]);
    }
    for (size_t i = 0; i < nc; i++) {
      tr->F[k * nc + i] = r->Fp[i] + theta * (r->F[i] - r->Fp[i]);
      tr->stick[k * nc + i] = theta < 0.5 ? r->sp[i] : r->sk[i];
    }
  }
  tr->t[k] = tk;
  tr->filled = g + 1;
}

/* Sample k (just recorded by Hermite) from the stepper's own dense output of the step
 * (r->tp, t] where it has one: every component it interpolates (the rest keep Hermite's
 * values), and F and stick from the model at that state.  The stepper's interpolant is as
 * accurate as its steps (dop853's is of order 7: docs/integrators/dop853.md), Hermite's
 * is not (docs/design.md §4). */
static void record_dense(recorder *r, size_t k, double tk, double t)
{
  fb_trace *tr = r->tr;
  const size_t dim = tr->dim, nc = tr->nc, slot = k - tr->base;
  if (r->dense(r->dense_ws, r->tp, t, tk, r->yd) != FB_OK)
    return;
  double *out = tr->y + slot * dim;
  for (size_t i = 0; i < dim; i++)
    if (isfinite(r->yd[i]))
      out[i] = r->yd[i];
  if (fb_problem_output(r->pb, tk, out, r->Fd, r->sd) == FB_OK) {
    memcpy(tr->F + slot * nc, r->Fd, nc * sizeof(double));
    memcpy(tr->stick + slot * nc, r->sd, nc * sizeof(int));
  }
}

/* Sample k from the stepper's dense output alone, when it covers every component and the
 * model's output at that state exists (1); else nothing is written (0) and the caller takes
 * the Hermite sample with record_dense's overlay, which gives the same numbers here: the
 * overlay replaces every component and F and the mode with the same values.  Skips the
 * quintic Hermite that the dense output would overwrite (12 % of the event scheme's
 * instructions with a 1001-point grid, docs/peers.md). */
static int record_dense_whole(recorder *r, size_t k, double tk, double t)
{
  fb_trace *tr = r->tr;
  const size_t dim = tr->dim, nc = tr->nc, slot = k - tr->base;
  if (r->dense(r->dense_ws, r->tp, t, tk, r->yd) != FB_OK)
    return 0;
  for (size_t i = 0; i < dim; i++)
    if (!isfinite(r->yd[i]))
      return 0;
  if (fb_problem_output(r->pb, tk, r->yd, r->Fd, r->sd) != FB_OK)
    return 0;
  memcpy(tr->y + slot * dim, r->yd, dim * sizeof(double));
  memcpy(tr->F + slot * nc, r->Fd, nc * sizeof(double));
  memcpy(tr->stick + slot * nc, r->sd, nc * sizeof(int));
  tr->t[slot] = tk;
  tr->filled = k + 1;
  return 1;
}

/* A streamed trace whose window is full before sample k: hand all but the last sample to
 * the sink and move the last one to slot 0 (an event may still replace it). */
static int trace_room(fb_trace *tr, size_t k)
{
  if (tr->sink == NULL || k - tr->base < tr->cap)
    return FB_OK;
  const size_t keep = tr->filled - 1, s = keep - tr->base, dim = tr->dim, nc = tr->nc;
  const int st = tr->sink(tr->sink_ctx, tr, tr->base, keep);
  tr->t[0] = tr->t[s];
  memmove(tr->y, tr->y + s * dim, dim * sizeof(double));
  memmove(tr->F, tr->F + s * nc, nc * sizeof(double));
  memmove(tr->stick, tr->stick + s * nc, nc * sizeof(int));
  tr->base = keep;
  return st;
}

static double grid_time(const recorder *r, size_t k)
{
  return k + 1 == r->tr->ns ? r->pb->plant->T : r->t0 + (double)k * r->dt;
}

/* A guard tripped: the first component beyond its bound, named in r->why. */
static int recorder_tripped(recorder *r, double t, const double *y)
{
  for (size_t k = 0; k < 2 * r->n; k++) {
    const int is_x = k < r->n;
    const double bound = is_x ? r->x_bound : r->v_bound;
    if (fabs(y[k]) <= bound)
      continue;
    const char *name = is_x ? "x" : "v";
    const size_t i = (is_x ? k : k - r->n) + 1;
    if (!isfinite(y[k])) {
      snprintf(r->why, sizeof r->why, "non-finite state at t=%.17g", t);
      return r->status = FB_ENONFINITE;
    }
    snprintf(r->why, sizeof r->why,
             "diverged: |%s%zu| = %.3g > %.3g (the scenario's %s scale / sqrt(DBL_EPSILON)) "
             "at t=%.17g",
             name, i, fabs(y[k]), bound, is_x ? "position" : "velocity", t);
    return r->status = FB_EDIVERGE;
  }
  return 0;
}

/* The guards: a state that is non-finite or beyond the divergence bounds, or a cancel
 * request, stops the run with a status and a message naming the component and t.  One
 * branch for all components on the way that every step takes. */
static int recorder_guard(recorder *r, double t, const double *y)
{
  const size_t n = r->n;
  int beyond = 0;
  for (size_t k = 0; k < n; k++)
    beyond |= !(fabs(y[k]) <= r->x_bound) | !(fabs(y[n + k]) <= r->v_bound);
  if (beyond)
    return recorder_tripped(r, t, y);
  if (r->cancel != NULL && atomic_load_explicit(r->cancel, memory_order_relaxed) != 0) {
    snprintf(r->why, sizeof r->why, "interrupted at t=%.17g", t);
    return r->status = FB_EINTR;
  }
  return 0;
}

/* The next grid time to fill (INFINITY when the grid is full) and the time of the last
 * filled sample (NaN when none): recorder_step's test for a step that records nothing. */
static void recorder_next(recorder *r)
{
  const fb_trace *tr = r->tr;
  r->q.t_next = tr->filled < tr->ns ? grid_time(r, tr->filled) : (double)INFINITY;
  r->q.t_last = tr->filled > 0 ? tr->t[tr->filled - 1 - tr->base] : (double)NAN;
}

/* The time at which to evaluate the plant for a derivative at t: t itself, except at a
 * forcing break, where the step's own piece counts.  Scenarios define their forcing on
 * half-open pieces, either way round, so the value *at* a break belongs to one side or
 * the other; a step that ends on a break lies in the left piece (side < 0: just below
 * t), a step that starts on one in the right piece (side > 0: just above).  Integrators
 * land on breaks exactly, and a model-owned scheme reports the state at a break from
 * the left and, when its forces jump there (a stick multiplier), again from the right:
 * with this, the derivative at each end of a step is the one-sided derivative of the
 * piece the step lies in, consistent with the multiplier the scheme reports (a stuck
 * contact's acceleration is then udot, 0 on fixed ground, not the other piece's). */
static double deriv_time(const fb_plant *pl, double t, int side)
{
  for (size_t k = 0; k < pl->nbreaks; k++)
    if (pl->breaks[k] == t)
      return nextafter(t, side < 0 ? -INFINITY : INFINITY);
  return t;
}

/* A step that may fill grid points (or repeats the last sampled instant): outputs and
 * derivatives at its end, the samples inside it, then the state kept for the next.
 * Out of line so that recorder_step, taken after every step, stays a leaf function
 * without a register-saving prologue. */
static FB_NOINLINE int recorder_record(recorder *r, double t, const double *y)
{
  fb_trace *tr = r->tr;
  const size_t dim = tr->dim, nc = tr->nc;
  size_t k = tr->filled;
  /* A state reported again at the same instant (after an event is resolved) replaces
   * the sample taken there. */
  if (k > 0 && r->have_prev && tr->t[k - 1 - tr->base] == t)
    k--;
  if (k < tr->ns && grid_time(r, k) <= t) {
    const fb_plant *pl = r->pb->plant;
    int st = fb_problem_output(r->pb, t, y, r->F, r->sk);
    if (st == FB_OK)
      st = fb_problem_deriv(r->pb, deriv_time(pl, t, -1), y, r->F, r->dy, r->work);
    /* the previous step's end derivative is this step's start derivative, except at a
     * break, where the pieces differ */
    const double tp_right = r->have_prev ? deriv_time(pl, r->tp, +1) : r->tp;
    if (st == FB_OK && r->have_prev && (!r->prev_out || tp_right != r->tp)) {
      st = fb_problem_output(r->pb, r->tp, r->yp, r->Fp, r->sp);
      if (st == FB_OK)
        st = fb_problem_deriv(r->pb, tp_right, r->yp, r->Fp, r->dyp, r->work);
    }
    if (st != FB_OK)
      return r->status = st;
    const double h = t - r->tp;
    for (double tk = grid_time(r, k); k < tr->ns && tk <= t; tk = grid_time(r, ++k)) {
      const double theta = (!r->have_prev || h <= 0) ? 1.0 : (tk - r->tp) / h;
      if (trace_room(tr, k) != FB_OK) { /* named here: any other status is the model's */
        snprintf(r->why, sizeof r->why, "writing the trajectory failed at t=%.17g", t);
        return r->status = FB_EIO;
      }
      if (theta >= 1.0 || r->dense == NULL || !record_dense_whole(r, k, tk, t)) {
        record_sample(r, k, tk, theta, h, y);
        if (theta < 1.0 && r->dense != NULL)
          record_dense(r, k, tk, t);
      }
      if (k + 1 == tr->ns)
        break;
    }
    memcpy(r->Fp, r->F, nc * sizeof(double));
    memcpy(r->sp, r->sk, nc * sizeof(int));
    memcpy(r->dyp, r->dy, dim * sizeof(double));
    r->prev_out = 1;
  } else {
    r->prev_out = 0;
  }
  memcpy(r->yp, y, dim * sizeof(double));
  r->tp = t;
  r->have_prev = 1;
  recorder_next(r);
  return 0;
}

/* A step without a grid point: remember its state for the next (fb_quiet.skip). */
static void recorder_skip(void *ctx, double t, const double *y)
{
  recorder *r = ctx;
  const size_t dim = r->tr->dim;
  for (size_t i = 0; i < dim; i++) /* dim is small: no call */
    r->yp[i] = y[i];
  r->tp = t;
  r->have_prev = 1;
  r->prev_out = 0;
}

static int recorder_step(void *ctx, double t, const double *y)
{
  recorder *r = ctx;
  const int gst = recorder_guard(r, t, y);
  if (gst != 0)
    return gst;
  if (r->qoff > 0)
    r->q_err = fmax(r->q_err, fb_kin_norm_err(r->pb->plant, y + r->qoff));
  fb_trace *tr = r->tr;
  if (tr != NULL) {
    if (t < r->q.t_next && t != r->q.t_last) {
      /* the common case: no grid point in this step */
      recorder_skip(r, t, y);
    } else {
      const int st = recorder_record(r, t, y);
      if (st != 0)
        return st;
    }
  }
  if (r->extra != NULL && r->extra->on_step != NULL)
    return r->extra->on_step(r->extra->ctx, t, y);
  return 0;
}

/* Why the run stopped when the recorder refused a state and no guard tripped: the model's
 * force() or output() failed.  Its code may be a plugin's own (not in FB_STATUS_LIST), so
 * the message says whose code it is and which, never a bare "output failed". */
static int recorder_failure(const recorder *r, const fb_case *c, double t, fb_err *err)
{
  const int code = r->status;
  const char *model = c->md.type->name;
  if (strcmp(fb_status_name(code), "unknown") == 0)
    return fb_err_set(err, code, "model %s returned %d at t=%.17g: a code of its own, not a "
                      "fricbench status", model, code, t);
  return fb_err_set(err, code, "model %s failed at t=%.17g: %s (status %s)", model, t,
                    fb_status_message(code), fb_status_name(code));
}

double fb_clock_s(int clock_id)
{
  struct timespec ts;
  clock_gettime((clockid_t)clock_id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int fb_case_accepts(fb_case *c, fb_err *err)
{
  void *ws = NULL;
  const int st = c->integ->alloc(&ws, c->integ, &c->pb, &c->opts, err);
  if (ws != NULL)
    c->integ->free(ws);
  return st;
}

int fb_case_run(fb_case *c, fb_trace *tr, const fb_observer *extra, fb_run_result *res)
{
  const fb_problem *pb = &c->pb;
  const fb_plant *pl = pb->plant;
  const size_t dim = pb->dim, nc = pl->nc;
  fb_err err = {{0}};
  memset(res, 0, sizeof *res);
  const size_t n = pl->n;
  double *y = calloc(5 * dim + 3 * nc + n + 1, sizeof(double));
  int *ibuf = calloc(3 * nc + 1, sizeof(int));
  void *ws = NULL;
  recorder rec = {0};
  if (y == NULL || ibuf == NULL) {
    res->status = fb_err_set(&err, FB_ENOMEM, "out of memory");
    goto done;
  }
  rec.pb = pb;
  rec.tr = tr;
  rec.extra = extra;
  rec.t0 = pl->t0;
  rec.yp = y + dim;
  rec.dyp = rec.yp + dim;
  rec.dy = rec.dyp + dim;
  rec.Fp = rec.dy + dim;
  rec.F = rec.Fp + nc;
  rec.work = rec.F + nc;
  rec.yd = rec.work + n;
  rec.Fd = rec.yd + dim;
  rec.sp = ibuf;
  rec.sk = ibuf + nc;
  rec.sd = ibuf + 2 * nc;
  rec.n = n;
  rec.x_bound = c->x_bound > 0 ? c->x_bound : (double)INFINITY;
  rec.v_bound = c->v_bound > 0 ? c->v_bound : (double)INFINITY;
  rec.cancel = c->cancel;
  rec.qoff = pl->kin.nquat > 0 ? 2 * n + nc * c->md.type->nz : 0;
  if (tr != NULL) {
    tr->filled = 0;
    tr->base = 0;
    rec.dt = (pl->T - pl->t0) / (double)(tr->ns - 1);
    recorder_next(&rec);
  }
  fb_problem_initial_state(pb, y);
  double t = pl->t0;
  res->status = c->integ->alloc(&ws, c->integ, pb, &c->opts, &err);
  if (res->status != FB_OK)
    goto done;
  rec.dense = c->integ->dense;
  rec.dense_ws = ws;
  /* Quiet steps (fb_quiet.h) when a step without a grid point only does recorder_skip:
   * a stepper with a fast path (the fixed-step rk4 kernels) then calls the recorder only
   * for the steps that fill the grid (1001 of 1e6 in `fricbench bench`). */
  const int quiet = tr != NULL && (extra == NULL || extra->on_step == NULL);
  const fb_observer obs = {recorder_step, &rec};
  rec.q.x_bound = rec.x_bound;
  rec.q.v_bound = rec.v_bound;
  rec.q.cancel = rec.cancel;
  rec.q.skip = recorder_skip;
  int st = recorder_step(&rec, t, y);
  const double w0 = fb_clock_s(CLOCK_MONOTONIC), c0 = fb_clock_s(CLOCK_THREAD_CPUTIME_ID);
  const double x0 = c->integ->child_cpu_s != NULL ? c->integ->child_cpu_s(ws) : 0.0;
  if (st == 0)
    st = fb_drive(c->integ, ws, pb, &c->opts, &t, y, &obs, quiet ? &rec.q : NULL, &res->cnt,
                  &err);
  else if (rec.status == FB_OK) /* the caller's observer (extra) refused the first state */
    fb_err_set(&err, st, "the observer stopped the run at t=%g", t);
  res->cpu_s = fb_clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  if (c->integ->child_cpu_s != NULL) /* an engine's own process: its CPU counts too (x0 is
                                        * 0 when the engine opens its case in the drive) */
    res->cpu_s += (res->cpu_child_s = c->integ->child_cpu_s(ws) - x0);
  res->wall_s = fb_clock_s(CLOCK_MONOTONIC) - w0;
  if (rec.why[0] != '\0') /* a guard stopped it: its message, not "stopped by the observer" */
    st = fb_err_set(&err, rec.status, "%s", rec.why);
  else if (rec.status != FB_OK) /* the model's failure, not the integrator's "stopped" */
    st = recorder_failure(&rec, c, t, &err);
  res->status = st;
  res->t_reached = t;
done:
  res->q_norm_err = rec.qoff > 0 ? rec.q_err : (double)NAN;
  if (res->status != FB_OK)
    snprintf(res->message, sizeof res->message, "%s", err.msg);
  if (ws != NULL)
    c->integ->free(ws);
  free(y);
  free(ibuf);
  return res->status;
}
