/* dense_wp.c — work and precision of switching/event by inner stepper (fb_dense_wp.h). */
#include "fb_dense_wp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator_int.h"

/* A case of switching/event on the truth's scenario, prepared. */
static int wp_case(fb_case *c, const fb_wp_truth *tr, const char *stepper, double tol,
                   fb_err *err)
{
  int st = fb_case_init(c, tr->scenario, "switching", "event", err);
  for (size_t i = 0; st == FB_OK && tr->sets != NULL && tr->sets[i] != NULL; i++)
    st = fb_case_set(c, tr->sets[i], err);
  if (st == FB_OK) {
    c->opts.stepper = stepper;
    c->opts.atol = c->opts.rtol = tol;
    c->samples = tr->samples;
    st = fb_case_prepare(c, err);
  }
  if (st != FB_OK)
    fb_case_free(c);
  return st;
}

int fb_wp_truth_init(fb_wp_truth *tr, const char *scenario, const char *const *sets,
                     size_t samples, fb_err *err)
{
  memset(&tr->grid, 0, sizeof tr->grid);
  tr->scenario = scenario;
  tr->sets = sets;
  tr->samples = samples;
  fb_case c;
  int st = wp_case(&c, tr, "dop853", FB_WP_TRUTH_TOL, err);
  if (st != FB_OK)
    return st;
  const fb_plant *pl = &c.sc.plant;
  st = fb_trace_alloc(&tr->grid, samples, pl->n, pl->nc, c.md.type->nz);
  fb_run_result res;
  if (st == FB_OK && (st = fb_case_run(&c, &tr->grid, NULL, &res)) != FB_OK)
    fb_err_set(err, st, "the truth (dop853 at %g): %s", FB_WP_TRUTH_TOL, res.message);
  fb_case_free(&c);
  if (st != FB_OK)
    fb_wp_truth_free(tr);
  return st;
}

void fb_wp_truth_free(fb_wp_truth *tr)
{
  fb_trace_free(&tr->grid);
}

/* The positions a run reported at its step ends (times t, n positions each). */
typedef struct wp_steps {
  size_t n, len, cap;
  double *t, *x;
  int failed; /* out of memory */
} wp_steps;

static int wp_collect(void *ctx, double t, const double *y)
{
  wp_steps *s = ctx;
  if (s->len == s->cap) { /* grows geometrically: a few dozen reallocations a run */
    const size_t cap = s->cap ? 2 * s->cap : 1024;
    double *nt = realloc(s->t, cap * sizeof(double));
    if (nt != NULL)
      s->t = nt;
    double *nx = nt != NULL ? realloc(s->x, cap * s->n * sizeof(double)) : NULL;
    if (nx == NULL) {
      s->failed = 1;
      return FB_ENOMEM;
    }
    s->x = nx;
    s->cap = cap;
  }
  s->t[s->len] = t;
  memcpy(s->x + s->len * s->n, y, s->n * sizeof(double));
  s->len++;
  return 0;
}

/* The truth at the query times (non-decreasing): the observer of the truth's run reads
 * its dense output for every query inside the step just made. */
typedef struct wp_query {
  const fb_integrator_type *integ;
  void *ws;
  const wp_steps *q;
  size_t next, n, dim;
  double tp, worst;
  int have_prev, failed;
  double *yd;
} wp_query;

static int wp_answer(void *ctx, double t, const double *y)
{
  wp_query *a = ctx;
  const wp_steps *q = a->q;
  for (; a->next < q->len && q->t[a->next] <= t; a->next++) {
    const double tq = q->t[a->next];
    const double *x = y;
    if (tq < t) {
      if (!a->have_prev || a->integ->dense(a->ws, a->tp, t, tq, a->yd) != FB_OK) {
        a->failed = 1;
        return FB_EUNSUP;
      }
      x = a->yd;
    }
    for (size_t i = 0; i < a->n; i++)
      a->worst = fmax(a->worst, fabs(q->x[a->next * a->n + i] - x[i]));
  }
  a->tp = t;
  a->have_prev = 1;
  return 0;
}

/* The largest error of the collected step ends against the truth's dense output. */
static int wp_steps_error(const fb_wp_truth *tr, const wp_steps *q, double *worst, fb_err *err)
{
  fb_case c;
  int st = wp_case(&c, tr, "dop853", FB_WP_TRUTH_TOL, err);
  if (st != FB_OK)
    return st;
  const fb_problem *pb = &c.pb;
  double *y = calloc(2 * pb->dim, sizeof(double));
  void *ws = NULL;
  wp_query a = {c.integ, NULL, q, 0, c.sc.plant.n, pb->dim, 0.0, 0.0, 0, 0, NULL};
  if (y == NULL)
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
  else
    st = c.integ->alloc(&ws, c.integ, pb, &c.opts, err);
  if (st == FB_OK) {
    a.ws = ws;
    a.yd = y + pb->dim;
    fb_problem_initial_state(pb, y);
    double t = c.sc.plant.t0;
    fb_counters cnt = {0};
    const fb_observer obs = {wp_answer, &a};
    wp_answer(&a, t, y);
    st = fb_drive(c.integ, ws, pb, &c.opts, &t, y, &obs, NULL, &cnt, err);
    if (st == FB_OK && (a.failed || a.next < q->len))
      st = fb_err_set(err, FB_EUNSUP, "the truth's dense output missed a step end");
  }
  if (ws != NULL)
    c.integ->free(ws);
  free(y);
  fb_case_free(&c);
  *worst = a.worst;
  return st;
}

int fb_wp_measure(const fb_wp_truth *tr, const char *stepper, double tol, fb_wp_point *p,
                  fb_err *err)
{
  memset(p, 0, sizeof *p);
  p->tol = tol;
  p->err_steps = p->err_grid = p->err_end = NAN;
  fb_case c;
  int st = wp_case(&c, tr, stepper, tol, err);
  if (st != FB_OK)
    return st;
  const size_t n = c.sc.plant.n, ns = tr->samples;
  fb_trace g;
  wp_steps s = {n, 0, 0, NULL, NULL, 0};
  const fb_observer obs = {wp_collect, &s};
  fb_run_result res;
  st = fb_trace_alloc(&g, ns, n, c.sc.plant.nc, c.md.type->nz);
  if (st == FB_OK) {
    p->status = fb_case_run(&c, &g, &obs, &res);
    p->nfe = res.cnt.nfe;
    p->nsteps = res.cnt.nsteps;
    p->nrejected = res.cnt.nrejected;
    p->nevents = res.cnt.nevents;
    if (p->status != FB_OK)
      st = fb_err_set(err, p->status, "%s at tol %g: %s", stepper, tol, res.message);
  }
  if (st == FB_OK && s.failed)
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
  if (st == FB_OK) {
    const fb_trace *t = &tr->grid;
    double eg = 0.0, ee = 0.0;
    for (size_t k = 0; k < ns; k++)
      for (size_t i = 0; i < n; i++) {
        const double e = fabs(g.y[k * g.dim + i] - t->y[k * t->dim + i]);
        eg = fmax(eg, e);
        if (k + 1 == ns)
          ee = fmax(ee, e);
      }
    p->err_grid = eg;
    p->err_end = ee;
    st = wp_steps_error(tr, &s, &p->err_steps, err);
  }
  free(s.t);
  free(s.x);
  fb_trace_free(&g);
  fb_case_free(&c);
  return st;
}

double fb_wp_cost_at(const fb_wp_point *pts, size_t n, double target, int grid)
{
  double best_err = INFINITY, prev_err = NAN, prev_nfe = NAN;
  for (size_t i = 0; i < n; i++) {
    if (pts[i].status != FB_OK)
      continue;
    const double e = fmin(best_err, grid ? pts[i].err_grid : pts[i].err_steps);
    const double nfe = (double)pts[i].nfe;
    if (e <= target) {
      if (isnan(prev_err) || !(prev_err > e))
        return isnan(prev_err) ? (double)NAN : nfe;
      const double w = (log(target) - log(prev_err)) / (log(e) - log(prev_err));
      return exp(log(prev_nfe) + w * (log(nfe) - log(prev_nfe)));
    }
    best_err = e;
    prev_err = e;
    prev_nfe = nfe;
  }
  return NAN;
}
