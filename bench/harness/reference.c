/* reference.c — the reference solution of a scenario (fb_reference.h).
 *
 * Event-driven references run the switching model's `event` scheme through the same
 * fb_case machinery as any run (so the trace is recorded by the same dense output) and
 * watch its mode states z = [mode, force] with an observer: the scheme reports every
 * switch at its located time (left limit, then right limit), so an interval boundary is
 * the event time itself, never a grid time.  Closed-form references sample exact() and
 * bisect the mode function between grid points.
 */
#include "fb_reference.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_util.h"

const char *const fb_reference_z_names[] = {"mode", "force"};

const char *fb_mode_name(int mode)
{
  switch (mode) {
  case FB_MODE_STICK: return "stick";
  case FB_MODE_SLIP_POS: return "slip+";
  case FB_MODE_SLIP_NEG: return "slip-";
  default: return NULL;
  }
}

void fb_interval_list_init(fb_interval_list *l, size_t max)
{
  memset(l, 0, sizeof *l);
  l->max = max ? max : FB_REF_MAX_INTERVALS;
}

void fb_interval_list_free(fb_interval_list *l)
{
  if (l != NULL) {
    free(l->iv);
    memset(l, 0, sizeof *l);
  }
}

int fb_interval_list_write_csv(const fb_interval_list *l, FILE *fp)
{
  fputs("contact,start,end,mode\n", fp);
  for (size_t k = 0; k < l->n; k++) {
    const fb_interval *iv = &l->iv[k];
    const char *name = fb_mode_name(iv->mode);
    fprintf(fp, "%zu,%.17g,%.17g,%s\n", iv->contact + 1, iv->start, iv->end, name ? name : "?");
  }
  return ferror(fp) ? FB_EIO : FB_OK;
}

void fb_reference_opts_default(fb_reference_opts *o)
{
  o->tol = FB_REF_TOL;
  o->event_tol = FB_REF_EVENT_TOL;
  o->hmax = 0.0;
  o->stepper = FB_REF_STEPPER;
  o->use_event = 0;
  o->max_steps = FB_DEFAULT_MAX_STEPS;
  o->max_rhs = FB_DEFAULT_MAX_RHS;
  o->max_intervals = 0;
}

/* ---------------------------------------------------------------------------------- */
/* Building the interval list from a stream of (t, mode) per contact.                 */

#define IVB_REMOVED 99      /* mode of an interval reopened after a zero-length detour */
#define IVB_NONE SIZE_MAX   /* no interval emitted yet */

typedef struct iv_builder {
  fb_interval_list *l;
  size_t n, nc;   /* DOFs, contacts: z of contact i is y[2n + 2i] */
  double t0;      /* start time */
  double min_len; /* intervals this short or shorter are absorbed by their neighbours */
  double *y0;     /* dim: the last state reported at t0 (after the modes were resolved) */
  size_t dim;
  int *mode;      /* nc: current mode (IVB_REMOVED before the first sample) */
  double *start;  /* nc: start of the current interval */
  size_t *last;   /* nc: this contact's last emitted interval, or IVB_NONE */
  int status;     /* FB_OK, FB_BUDGET (max_intervals) or FB_ENOMEM */
} iv_builder;

/* Append [s, e] in `mode` for contact i, or extend the contact's last interval when it
 * has the same mode and ends at s.  Growth is geometric up to l->max, so a run with many
 * events reallocates O(log n) times and a runaway (Zeno-like) one cannot take memory
 * without bound: it ends with FB_BUDGET instead. */
static int ivb_append(iv_builder *b, size_t i, double s, double e, int mode)
{
  fb_interval_list *l = b->l;
  const size_t k = b->last[i];
  if (k != IVB_NONE && l->iv[k].mode == mode && l->iv[k].end == s) {
    l->iv[k].end = e; /* same mode again after nothing in between */
    return FB_OK;
  }
  if (l->n == l->cap) {
    if (l->cap >= l->max)
      return b->status = FB_BUDGET;
    size_t cap = l->cap ? 2 * l->cap : 64;
    if (cap > l->max)
      cap = l->max;
    fb_interval *iv = realloc(l->iv, cap * sizeof *iv);
    if (iv == NULL)
      return b->status = FB_ENOMEM;
    l->iv = iv;
    l->cap = cap;
  }
  l->iv[l->n] = (fb_interval){i, s, e, mode};
  b->last[i] = l->n++;
  return FB_OK;
}

/* Contact i is in `mode` from time t on. */
static int ivb_set(iv_builder *b, size_t i, double t, int mode)
{
  if (mode == b->mode[i])
    return FB_OK;
  if (b->mode[i] == IVB_REMOVED) { /* first sample */
    b->mode[i] = mode;
    b->start[i] = t;
    return FB_OK;
  }
  if (t - b->start[i] > b->min_len) {
    int st = ivb_append(b, i, b->start[i], t, b->mode[i]);
    if (st != FB_OK)
      return st;
    b->mode[i] = mode;
    b->start[i] = t;
    return FB_OK;
  }
  /* A zero-length interval (or one of a few ulps, a point where a closed form has
   * v_r = 0 between two slips): forget it, the next one starts where it started; if the
   * previous one had the new mode, it simply continues. */
  b->mode[i] = mode;
  const size_t k = b->last[i];
  if (k != IVB_NONE && b->l->iv[k].mode == mode && b->l->iv[k].end == b->start[i]) {
    b->start[i] = b->l->iv[k].start;
    b->l->iv[k].mode = IVB_REMOVED;
    b->last[i] = IVB_NONE;
  }
  return FB_OK;
}

/* The observer: the switching scheme reports each switch at its located time (left
 * limit, then right limit), so a change of z's mode between two reports happens exactly
 * at the second report's t. */
static int ivb_on_step(void *ctx, double t, const double *y)
{
  iv_builder *b = ctx;
  const double *z = y + 2 * b->n;
  if (t == b->t0 && b->y0 != NULL)
    memcpy(b->y0, y, b->dim * sizeof(double));
  for (size_t i = 0; i < b->nc; i++)
    if (ivb_set(b, i, t, (int)z[2 * i]) != FB_OK)
      return b->status;
  return 0;
}

static int ivb_cmp(const void *pa, const void *pb)
{
  const fb_interval *a = pa, *b = pb;
  if (a->contact != b->contact)
    return a->contact < b->contact ? -1 : 1;
  return (a->start > b->start) - (a->start < b->start);
}

/* Close every contact's open interval at T (a last sliver joins the interval before),
 * drop the removed ones, sort. */
static int ivb_finish(iv_builder *b, double T)
{
  for (size_t i = 0; i < b->nc; i++) {
    const size_t k = b->last[i];
    if (b->mode[i] == IVB_REMOVED || !(T > b->start[i]))
      continue;
    if (T - b->start[i] <= b->min_len && k != IVB_NONE && b->l->iv[k].end == b->start[i])
      b->l->iv[k].end = T;
    else if (ivb_append(b, i, b->start[i], T, b->mode[i]) != FB_OK)
      return b->status;
  }
  fb_interval_list *l = b->l;
  size_t m = 0;
  for (size_t k = 0; k < l->n; k++)
    if (l->iv[k].mode != IVB_REMOVED)
      l->iv[m++] = l->iv[k];
  l->n = m;
  if (m > 1)
    qsort(l->iv, m, sizeof *l->iv, ivb_cmp);
  return FB_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Closed-form references.                                                             */

typedef struct exact_ctx {
  const fb_scenario *sc;
  double *x, *v, *F; /* n, n, nc */
} exact_ctx;

/* v_r of contact i at t, and the size of its terms (|J v| term by term and |u|): the
 * round-off of v_r is a few ulps of that, not of v_r. */
static double slip_at(const fb_plant *pl, size_t i, double t, const double *v, double *terms)
{
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, t, &cs);
  const fb_contact *c = &pl->contact[i];
  double s = fabs(cs.u);
  if (c->Jt == NULL)
    s += fabs(v[c->dof]);
  else
    for (size_t k = 0; k < pl->n; k++)
      s += fabs(c->Jt[k] * v[k]);
  *terms = s;
  return fb_contact_vel(pl, i, v) - cs.u;
}

/* x, v, F at t and the mode of every contact (v_r == 0: stick). */
static int exact_at(const exact_ctx *e, double t, int *mode, fb_err *err)
{
  const fb_plant *pl = &e->sc->plant;
  int st = e->sc->type->exact(e->sc->params, t, e->x, e->v, e->F);
  if (st != FB_OK)
    return fb_err_set(err, st, "scenario %s: exact solution unavailable at t=%.17g (%s)",
                      e->sc->type->name, t, fb_status_message(st));
  if (!fb_all_finite(e->x, pl->n) || !fb_all_finite(e->v, pl->n) || !fb_all_finite(e->F, pl->nc))
    return fb_err_set(err, FB_ENONFINITE, "scenario %s: exact solution not finite at t=%.17g",
                      e->sc->type->name, t);
  for (size_t i = 0; i < pl->nc; i++) {
    double terms, oterms;
    const double vr = slip_at(pl, i, t, e->v, &terms);
    mode[i] = (int)fb_sgn(vr);
    if (pl->contact[i].pair == FB_PAIR_NONE)
      continue;
    /* A 2-D contact sticks (rolls) when its whole slip vector is 0 (docs/design.md §13).
     * A closed form's rolling slip is a difference of terms that cancel only to round-off
     * (billiard: v - r omega, 3e-16 after t*), so "0" is within a few ulps of the terms;
     * a component at 0 in slip counts as slip+. */
    const double vo = slip_at(pl, fb_contact_partner(pl, i), t, e->v, &oterms);
    const double tol = 16.0 * DBL_EPSILON * hypot(terms, oterms);
    if (hypot(vr, vo) <= tol)
      mode[i] = FB_MODE_STICK;
    else if (fabs(vr) <= tol)
      mode[i] = FB_MODE_SLIP_POS;
  }
  return FB_OK;
}

/* Sample the closed form on the grid (trace layout as the switching model's: z = [mode,
 * F]) and feed the builder each contact's mode changes, refined between grid points by
 * bisection on exact() itself (to a few ulps: the closed form is cheap and exact, the
 * grid is not the resolution of the intervals). */
static int reference_exact(const fb_scenario *sc, size_t samples, fb_trace *out, iv_builder *b,
                           fb_err *err)
{
  const fb_plant *pl = &sc->plant;
  const size_t n = pl->n, nc = pl->nc, nc1 = nc ? nc : 1;
  double *buf = calloc(2 * n + nc1, sizeof(double));
  int *modes = calloc(3 * nc1, sizeof(int));
  if (buf == NULL || modes == NULL) {
    free(buf);
    free(modes);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  int *prev = modes + nc1, *mid = prev + nc1;
  const exact_ctx e = {sc, buf, buf + n, buf + 2 * n};
  const double dt = (pl->T - pl->t0) / (double)(samples - 1);
  double tprev = pl->t0;
  int st = FB_OK;
  for (size_t k = 0; k < samples && st == FB_OK; k++) {
    const double tk = k + 1 == samples ? pl->T : pl->t0 + (double)k * dt;
    if ((st = exact_at(&e, tk, modes, err)) != FB_OK)
      break;
    if (out != NULL) {
      double *y = out->y + k * out->dim;
      out->t[k] = tk;
      memcpy(y, e.x, n * sizeof(double));
      memcpy(y + n, e.v, n * sizeof(double));
      for (size_t i = 0; i < nc; i++) {
        y[2 * n + 2 * i] = (double)modes[i];
        y[2 * n + 2 * i + 1] = e.F[i];
        out->F[k * nc + i] = e.F[i];
        out->stick[k * nc + i] = modes[i] == FB_MODE_STICK;
      }
      out->filled = k + 1;
    }
    /* Refine each change of mode inside (tprev, tk] on the closed form itself. */
    for (size_t i = 0; i < nc && st == FB_OK; i++) {
      double tsw = tk;
      if (k > 0 && modes[i] != prev[i]) {
        double lo = tprev, hi = tk;
        for (int it = 0; it < 200 && hi - lo > 4.0 * DBL_EPSILON * fmax(fabs(hi), 1.0); it++) {
          const double tm = 0.5 * (lo + hi);
          if ((st = exact_at(&e, tm, mid, err)) != FB_OK)
            break;
          if (mid[i] == prev[i])
            lo = tm;
          else
            hi = tm;
        }
        tsw = hi;
      }
      if (st == FB_OK && ivb_set(b, i, k > 0 ? tsw : tk, modes[i]) != FB_OK)
        st = fb_err_set(err, b->status, "reference: more than %zu stick/slip intervals",
                        b->l->max);
    }
    memcpy(prev, modes, nc * sizeof(int));
    tprev = tk;
  }
  free(buf);
  free(modes);
  return st;
}

/* ---------------------------------------------------------------------------------- */

int fb_reference_run(const fb_scenario_type *st, const void *sp, size_t samples, fb_trace *out,
                     fb_interval_list *intervals, fb_err *err)
{
  return fb_reference_run_opts(st, sp, samples, NULL, out, intervals, NULL, err);
}

int fb_reference_run_opts(const fb_scenario_type *stype, const void *sp, size_t samples,
                          const fb_reference_opts *opts, fb_trace *out,
                          fb_interval_list *intervals, fb_reference_info *info, fb_err *err)
{
  fb_reference_opts o;
  if (opts != NULL)
    o = *opts;
  else
    fb_reference_opts_default(&o);
  fb_reference_info inf;
  memset(&inf, 0, sizeof inf);
  if (out != NULL)
    memset(out, 0, sizeof *out);
  fb_interval_list local;
  fb_interval_list *l = intervals != NULL ? intervals : &local;
  fb_interval_list_init(l, o.max_intervals);
  iv_builder b = {l, 0, 0, 0.0, 0.0, NULL, 0, NULL, NULL, NULL, FB_OK};
  fb_case c;
  int have_case = 0, status;
  memset(&c, 0, sizeof c);

  if (samples < 2) {
    status = fb_err_set(err, FB_EINVAL, "samples = %zu is out of range: allowed is >= 2", samples);
    goto done;
  }
  if (!(isfinite(o.tol) && o.tol > 0 && isfinite(o.event_tol) && o.event_tol > 0 &&
        o.hmax >= 0)) {
    status = fb_err_set(err, FB_EINVAL,
                        "reference: tolerances (tol %g, event_tol %g) must be > 0 and hmax %g "
                        ">= 0",
                        o.tol, o.event_tol, o.hmax);
    goto done;
  }
  status = fb_params_check_all(stype->params, stype->name, sp, err);
  if (status != FB_OK)
    goto done;
  inf.kind = stype->ref_kind != NULL ? stype->ref_kind(sp) : FB_REF_NONE;
  if (inf.kind == FB_REF_EXACT && o.use_event)
    inf.kind = FB_REF_EVENT;
  if (inf.kind == FB_REF_NONE || (inf.kind == FB_REF_EXACT && stype->exact == NULL)) {
    status = fb_err_set(err, FB_EUNSUP, "scenario %s has no reference for these parameters",
                        stype->name);
    goto done;
  }
  /* One case for both kinds: it checks and builds the plant (same errors as `run`); the
   * event kind also runs it, through the same recorder as any run, so the reference
   * trace and a model's trace are sampled the same way. */
  status = fb_case_init(&c, stype->name, "switching", "event", err);
  if (status != FB_OK)
    goto done;
  have_case = 1;
  memcpy(c.sc.params, sp, stype->params->size);
  c.opts.h = NAN;
  c.opts.atol = c.opts.rtol = o.tol;
  c.opts.event_tol = o.event_tol;
  c.opts.stepper = o.stepper;
  c.opts.max_steps = o.max_steps;
  c.opts.max_rhs = o.max_rhs;
  c.samples = samples;
  status = fb_case_prepare(&c, err);
  if (status != FB_OK)
    goto done;
  const fb_plant *pl = &c.sc.plant;
  inf.hmax = o.hmax > 0 ? o.hmax : 0.25 * (pl->T - pl->t0) / (double)(samples - 1);
  c.opts.hmax = inf.hmax;
  b.n = pl->n;
  b.nc = pl->nc;
  const size_t nc1 = pl->nc ? pl->nc : 1;
  b.t0 = pl->t0;
  b.dim = c.pb.dim;
  b.mode = calloc(nc1, sizeof(int));
  b.start = calloc(nc1, sizeof(double));
  b.last = calloc(nc1, sizeof(size_t));
  b.y0 = calloc(b.dim, sizeof(double));
  if (b.mode == NULL || b.start == NULL || b.last == NULL || b.y0 == NULL ||
      (out != NULL && fb_trace_alloc(out, samples, pl->n, pl->nc, 2) != FB_OK)) {
    status = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < pl->nc; i++) {
    b.mode[i] = IVB_REMOVED;
    b.last[i] = IVB_NONE;
  }
  double t_end = pl->T;
  if (inf.kind == FB_REF_EXACT) {
    /* The bisection resolves a switch to a few ulps of t: anything that short is a
     * point, not an interval. */
    b.min_len = 64.0 * DBL_EPSILON * fmax(fmax(fabs(pl->t0), fabs(pl->T)), 1.0);
    status = reference_exact(&c.sc, samples, out, &b, err);
  } else {
    const fb_observer watch = {ivb_on_step, &b};
    status = fb_case_run(&c, out, &watch, &inf.run);
    t_end = inf.run.t_reached;
    if (status == FB_OK && out != NULL && out->filled > 0) {
      /* Sample 0 was recorded before the scheme resolved the modes at t0. */
      memcpy(out->y, b.y0, b.dim * sizeof(double));
      for (size_t i = 0; i < pl->nc; i++) {
        const double *z = b.y0 + 2 * pl->n + 2 * i;
        out->F[i] = z[1];
        out->stick[i] = z[0] == 0.0;
      }
    }
    if (status != FB_OK) {
      if (b.status != FB_OK)
        fb_err_set(err, status, "reference: more than %zu stick/slip intervals", l->max);
      else
        fb_err_set(err, status, "reference run of %s (switching/event, %s, tol %g) failed: %s",
                   stype->name, o.stepper ? o.stepper : "default stepper", o.tol,
                   inf.run.message);
    }
  }
  if (status == FB_OK && ivb_finish(&b, t_end) != FB_OK)
    status = fb_err_set(err, b.status, "reference: more than %zu stick/slip intervals", l->max);

done:
  free(b.mode);
  free(b.start);
  free(b.last);
  free(b.y0);
  if (have_case)
    fb_case_free(&c);
  if (status != FB_OK) {
    if (out != NULL)
      fb_trace_free(out);
    fb_interval_list_free(l);
  } else if (intervals == NULL) {
    fb_interval_list_free(l);
  }
  if (info != NULL)
    *info = inf;
  return status;
}
