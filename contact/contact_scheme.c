/* contact_scheme.c — `contact`: the model-owned scheme that runs plants with normal
 * directions under any normal treatment (docs/design.md §12; include/fricbench/fb_normal.h).
 *
 * State Y = [x(n), v(n), z(nc nz), s(nn ns)]: the problem's y followed by the normal
 * treatments' internal states.  Smooth phases: gsl_odeiv2_evolve_apply with the run's
 * stepper (opts.stepper, default rk8pd) and tolerances.  After every accepted step the
 * event functions are compared with their values at the step's start; the earliest sign
 * change is located with Brent (gsl_root_fsolver_brent) on the length of one step taken
 * again from the step's start (with dop853 inside: on its 7th-order dense output of the
 * step, which also fills the output grid; docs/integrators/dop853.md), and handled there:
 *  - force-law treatments: gap crossings (contact onset: Hunt–Crossley stores v_in;
 *    separation) are recorded for the effective restitution -v_out/v_in of each phase;
 *  - newton: an impact projects the gap to 0 and applies v_n+ = -e v_n- (with the Coulomb
 *    impulse |P_t| <= mu P_n on a friction contact it bounds); when the next flight
 *    2 v_n+/a would be shorter than zeno_tol the accumulation point is taken as reached and
 *    the contact persists, lambda_n = -(J_n M^-1 f)/(J_n M^-1 J_n^T) from the constraint
 *    J_n a = 0, until lambda_n turns negative (release event).  A friction contact bounded
 *    by a newton normal is Coulomb with stick/slip events (slip: F = -mu lambda_n sgn v_r;
 *    stick: the force holding v_r = 0 while |F| <= mu lambda_n).
 * Other friction contacts bounded by a normal take N = lambda_n in the friction model's
 * ODE law (force()); the persistent-contact lambda_n is exact for one normal, or normals
 * decoupled through M.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_contact_ws.h"
#include "fb_dop853.h"
#include "fb_plant_int.h"
#include "fb_integrator_int.h"


static double dotn(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* Forces and accelerations at (t, Y): lam[nn], F[nc], dY. */
static int eval(cws *c, double t, const double *Y, double *dY)
{
  const fb_plant *pl = c->pl;
  const size_t n = c->n, nz = c->nz;
  const double *x = Y, *v = Y + n;
  c->nfe++;
  fb_plant_smooth_force(pl, t, x, v, c->f);
  for (size_t k = 0; k < c->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double g = dotn(nm->Jn, x, n) + nm->g0, gd = dotn(nm->Jn, v, n);
    double l = 0;
    if (!nm->type->event)
      l = nm->type->force(nm->np_, g, gd, Y + c->dim + c->soff[k], dY + c->dim + c->soff[k]);
    c->lam[k] = l;
    for (size_t i = 0; i < n; i++)
      c->f[i] += nm->Jn[i] * l;
  }
  for (size_t k = 0; k < c->nn; k++)
    if (pl->normal[k].type->event && c->mode[k]) {
      fb_plant_solve_mass(pl, c->f, c->a);
      const double l = -dotn(pl->normal[k].Jn, c->a, n) / c->w[k];
      c->lam[k] = l;
      for (size_t i = 0; i < n; i++)
        c->f[i] += pl->normal[k].Jn[i] * l;
    }
  if (c->nc > 0)
    fb_plant_solve_mass(pl, c->f, c->a); /* accelerations without friction (stick force) */
  for (size_t i = 0; i < c->nc; i++) {
    if (pl->contact[i].Jt != NULL) { /* a Jacobian row or a 2-D contact (docs/design.md §13) */
      const int st = eval_rows(c, t, Y, dY, i);
      if (st != FB_OK)
        return st;
      i += pl->contact[i].pair == FB_PAIR_X;
      continue;
    }
    fb_contact_in ci;
    double u, Fi = 0;
    fb_contact_in_at(pl, i, t, &ci, &u);
    const size_t j = pl->contact[i].dof;
    if (c->fnorm[i] >= 0) {
      ci.N = fmax(0.0, c->lam[c->fnorm[i]]);
      ci.Fs = ci.N * pl->contact[i].law.mu_s;
    }
    const double vr = v[j] - u;
    double *dz = dY + 2 * n + i * nz;
    if (c->fnewt[i]) {
      for (size_t q = 0; q < nz; q++)
        dz[q] = 0;
      if (c->fmode[i]) {
        fb_contact_state cs;
        fb_plant_contact_at(pl, i, t, &cs);
        Fi = -(c->a[j] - cs.udot) / pl->Minv[j * n + j];
      } else {
        /* the direction is frozen over a step (set at its start), so that v_r continues
         * smoothly past its zero and the stop event is located on a smooth function */
        Fi = -ci.N * fb_friction_mu(&pl->contact[i].law, fabs(vr), NULL) * c->fdir[i];
      }
    } else {
      int st = c->pb->model->type->force(fb_model_cparams(c->pb->model, i), &ci, vr, Y + 2 * n + i * nz,
                                         &Fi, dz);
      if (st != FB_OK)
        return st;
    }
    c->F[i] = Fi;
    c->f[j] += Fi;
  }
  memcpy(dY, v, n * sizeof(double));
  fb_plant_solve_mass(pl, c->f, dY + n);
  if (pl->kin.nquat > 0) /* qdot = T(q) nu: the attitudes (fb_kinematics) */
    fb_kin_rates(pl, v, Y + c->qoff, dY + c->qoff);
  return FB_OK;
}

static int rhs(double t, const double Y[], double dY[], void *ctx)
{
  cws *c = ctx;
  if (c->nfe >= c->o.max_rhs) {
    c->fail = FB_BUDGET;
    return GSL_EBADFUNC;
  }
  int st = eval(c, t, Y, dY);
  if (st != FB_OK) {
    c->fail = st;
    return GSL_EBADFUNC;
  }
  return GSL_SUCCESS;
}

/* Event functions at (t, Y) into E[ne]: per normal its gap (free) or lambda_n
 * (newton persistent); per newton-bounded friction contact v_r (slip) or
 * mu lambda_n - |F| (stick). */
static int events(cws *c, double t, const double *Y, double *E)
{
  int st = eval(c, t, Y, c->dY);
  if (st != FB_OK)
    return st;
  const fb_plant *pl = c->pl;
  for (size_t k = 0; k < c->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    E[k] = nm->type->event && c->mode[k] ? c->lam[k] : dotn(nm->Jn, Y, c->n) + nm->g0;
  }
  for (size_t i = 0; i < c->nc; i++) {
    double *e = E + c->nn + i;
    *e = 0;
    if (!c->fnewt[i])
      continue;
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t, &ci, &u);
    const double N = fmax(0.0, c->lam[c->fnorm[i]]);
    if (pl->contact[i].Jt != NULL) { /* rows: the unit at its first entry */
      if (pl->contact[i].pair != FB_PAIR_Y)
        *e = rows_event(c, t, Y, i, N);
      continue;
    }
    if (c->fmode[i])
      *e = N * pl->contact[i].law.mu_s - fabs(c->F[i]);
    else
      *e = Y[c->n + pl->contact[i].dof] - u;
  }
  return FB_OK;
}

/* Did event q fire between values a (step start) and b (step end)? */
static int fired(const cws *c, size_t q, double a, double b)
{
  if (q < c->nn) {
    const fb_normal *nm = &c->pl->normal[q];
    if (nm->type->event) /* free: any further penetration (the start may sit on g = 0
                            after an impact, within round-off) */
      return c->mode[q] ? (a >= 0 && b < 0) : (b < 0 && (a > 0 || b < a));
    return (a >= 0 && b < 0) || (a < 0 && b >= 0);
  }
  const size_t i = q - c->nn;
  if (!c->fnewt[i] || c->pl->contact[i].pair == FB_PAIR_Y)
    return 0;
  if (c->fmode[i])
    return a >= 0 && b < 0;
  return a != 0 && (a > 0) != (b > 0);
}

typedef struct root_ctx {
  cws *c;
  double t0;
  size_t q;
  double val;
} root_ctx;

/* Y after one step of length hh from (t0, Y0) into Yt: from dop853's dense output of the
 * step just made, where it covers t0 + hh; else one step taken again. */
static int trial(cws *c, double t0, double hh)
{
  if (c->dense && hh > 0 && t0 == c->step_t0 && t0 + hh <= c->step_t1 &&
      fb_dop853_dense(c->step->state, &c->sys, t0 + hh, c->Yt) == GSL_SUCCESS)
    return FB_OK;
  memcpy(c->Yt, c->Y0, c->dimY * sizeof(double));
  if (hh <= 0)
    return FB_OK;
  gsl_odeiv2_step_reset(c->step);
  int s = gsl_odeiv2_step_apply(c->step, t0, hh, c->Yt, c->yerr, NULL, NULL, &c->sys);
  return s == GSL_SUCCESS ? FB_OK : (c->fail ? c->fail : FB_EGSL);
}

static double root_fn(double hh, void *ctx)
{
  root_ctx *r = ctx;
  if (trial(r->c, r->t0, hh) != FB_OK || events(r->c, r->t0 + hh, r->c->Yt, r->c->Et) != FB_OK)
    return NAN;
  return r->c->Et[r->q];
}

/* Locate the zero of event q in (0, h]: the smallest step after which it has fired. */
static double locate(cws *c, double t0, double h, size_t q, double a)
{
  root_ctx r = {c, t0, q, a};
  gsl_function F = {root_fn, &r};
  gsl_root_fsolver *s = c->root;
  double lo = 0, hi = h;
  if (q < c->nn && c->pl->normal[q].type->event && !c->mode[q] && !(a > 0)) {
    /* just after an impact (g = 0 within round-off): bracket from the first positive gap,
     * searched from the end down (the gap is positive early in the flight) */
    for (int k = 1; k < 80; k++) {
      const double f = root_fn(h * ldexp(1.0, -k), &r);
      if (f > 0) {
        lo = h * ldexp(1.0, -k);
        hi = 2 * lo;
        break;
      }
    }
  }
  if (gsl_root_fsolver_set(s, &F, lo, hi) == GSL_SUCCESS) {
    for (int it = 0; it < 200; it++) {
      if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
        break;
      lo = gsl_root_fsolver_x_lower(s);
      hi = gsl_root_fsolver_x_upper(s);
      if (hi - lo <= 4 * DBL_EPSILON * fmax(fabs(t0 + hi), 1.0))
        break;
    }
  }
  /* the upper end, where the event has fired; if it has not (flat zero), step to h */
  const double eps = 4 * DBL_EPSILON * fmax(fabs(t0 + h), 1.0);
  for (int k = 0; k < 60 && hi < h; k++, hi += eps * ldexp(1.0, k)) {
    const double fhi = root_fn(hi, &r);
    if (isfinite(fhi) && fired(c, q, a, fhi))
      return hi;
  }
  return h;
}

static void push_phase(cws *c, double t, double vin, double tout, double vout)
{
  fb_impact_stats *s = &c->st;
  if (s->n < FB_IMPACT_MAX) {
    s->t_in[s->n] = t;
    s->v_in[s->n] = vin;
    s->t_out[s->n] = tout;
    s->v_out[s->n] = vout;
  }
  s->n++;
}

/* A contact phase of normal q opened at t (per-normal counts, the first FB_STATS_NN). */
static void count_phase(cws *c, size_t q, double t)
{
  if (q >= FB_STATS_NN)
    return;
  if (c->st.nph[q]++ == 0)
    c->st.t_first[q] = t;
}

/* newton's stick/slip switch of a unit with Jacobian rows (contact_rows.c). */
static void rows_switch(cws *c, double t, size_t i)
{
  if (rows_to_slip(c, i))
    return;
  rows_zero(c, t, i);
  eval(c, t, c->Y, c->dY);
  rows_keep_stick(c, i);
}

static void maybe_stick(cws *c, double t, size_t i)
{
  /* from v_r = 0: stick if the holding force is within the cone, else slip along it */
  fb_contact_in ci;
  double u;
  fb_contact_in_at(c->pl, i, t, &ci, &u);
  c->Y[c->n + c->pl->contact[i].dof] = u;
  c->fmode[i] = 1;
  eval(c, t, c->Y, c->dY);
  const double N = fmax(0.0, c->lam[c->fnorm[i]]);
  if (fabs(c->F[i]) <= N * c->pl->contact[i].law.mu_s && N > 0) {
    if (isnan(c->st.t_stop) && c->impacted)
      c->st.t_stop = t;
  } else {
    c->fmode[i] = 0;
    c->fdir[i] = c->F[i] > 0 ? -1.0 : 1.0;
  }
}

/* Handle event q at (t, c->Y). */
static void handle(cws *c, double t, size_t q)
{
  const fb_plant *pl = c->pl;
  const size_t n = c->n;
  double *x = c->Y, *v = c->Y + n;
  if (q >= c->nn) { /* newton-bounded friction */
    const size_t i = q - c->nn;
    if (pl->contact[i].Jt != NULL) {
      rows_switch(c, t, i);
      return;
    }
    if (c->fmode[i]) {
      c->fmode[i] = 0;
      c->fdir[i] = c->F[i] > 0 ? -1.0 : 1.0;
    } else {
      maybe_stick(c, t, i);
    }
    return;
  }
  const fb_normal *nm = &pl->normal[q];
  const double *MJ = c->MJ + q * n;
  const double g = dotn(nm->Jn, x, n) + nm->g0, gd = dotn(nm->Jn, v, n);
  if (!nm->type->event) {
    if (g < 0) { /* onset */
      c->mode[q] = 1;
      if (nm->type->onset != NULL)
        nm->type->onset(nm->np_, gd, c->Y + c->dim + c->soff[q]);
      if (q == 0) /* the phase record is normal 0's (as moreau-jean's); others count */
        push_phase(c, t, gd, NAN, NAN);
      count_phase(c, q, t);
      c->impacted = 1;
    } else { /* separation */
      c->mode[q] = 0;
      size_t last = c->st.n - 1;
      if (q == 0 && c->st.n > 0 && last < FB_IMPACT_MAX && isnan(c->st.t_out[last])) {
        c->st.t_out[last] = t;
        c->st.v_out[last] = gd;
      }
      if (q == 0 && c->st.n == 1 && nm->fric >= 0)
        c->st.vt_after_first = pl->contact[nm->fric].Jt != NULL
                                   ? rows_speed(c, t, (size_t)nm->fric, v)
                                   : v[pl->contact[nm->fric].dof];
    }
    return;
  }
  if (c->mode[q]) { /* release: lambda_n turned negative */
    c->mode[q] = 0;
    return;
  }
  /* impact: project onto g = 0, Newton's law, Coulomb impulse */
  for (size_t i = 0; i < n; i++)
    x[i] -= MJ[i] * g / c->w[q];
  const double e = nm->np_[0];
  const double gp = gd < 0 ? -e * gd : gd;
  const double P = (gp - gd) / c->w[q]; /* normal impulse >= 0 */
  for (size_t i = 0; i < n; i++)
    v[i] += MJ[i] * P;
  /* kinetic energy along J_n changes by m_n (v+^2 - v-^2)/2, m_n = 1/w */
  c->st.work_n += 0.5 * (gp * gp - gd * gd) / c->w[q];
  c->impacted = 1;
  if (nm->fric >= 0 && c->fnewt[nm->fric] && pl->contact[nm->fric].Jt != NULL)
    rows_impulse(c, t, (size_t)nm->fric, P);
  else if (nm->fric >= 0 && c->fnewt[nm->fric]) {
    const size_t i = (size_t)nm->fric, j = pl->contact[i].dof;
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t, &ci, &u);
    const double vr = v[j] - u, mj = 1.0 / pl->Minv[j * n + j];
    const double mu = fb_friction_mu(&pl->contact[i].law, fabs(vr), NULL);
    const double dv = fmin(fabs(vr), mu * P / mj);
    v[j] -= vr > 0 ? dv : -dv;
    if (c->st.n == 0)
      c->st.vt_after_first = v[j];
  }
  push_phase(c, t, gd, t, gp);
  count_phase(c, q, t);
  /* accumulation: the next flight 2 v+/a would be shorter than zeno_tol */
  c->mode[q] = 0;
  eval(c, t, c->Y, c->dY);
  const double an = dotn(nm->Jn, c->dY + n, n);
  const double zeno = nm->np_[1];
  /* or its apex gp^2 / (2 |an|) would be below the round-off of the gap's offset g_0 (a
   * sphere's centre at z = r, g_n = z - r: the flights stall at a few ulps of r instead of
   * shrinking to zeno_tol; plants with g_0 = 0 are not affected) */
  const double gres = 4 * DBL_EPSILON * fabs(nm->g0);
  if (an < 0 && (gp <= 0 || 2 * gp / -an < zeno || gp * gp < 2 * -an * gres)) {
    for (size_t i = 0; i < n; i++)
      v[i] -= MJ[i] * gp / c->w[q];
    c->st.work_n -= 0.5 * gp * gp / c->w[q];
    c->mode[q] = 1;
    if (isnan(c->st.t_rest))
      c->st.t_rest = t;
  }
  if (nm->fric >= 0 && c->fnewt[nm->fric] && pl->contact[nm->fric].Jt != NULL) {
    if (c->mode[q] && rows_speed(c, t, (size_t)nm->fric, v) <= ROWS_ZERO * pl->v_scale)
      rows_switch(c, t, (size_t)nm->fric);
  } else if (nm->fric >= 0 && c->fnewt[nm->fric]) {
    const size_t i = (size_t)nm->fric;
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t, &ci, &u);
    if (v[pl->contact[i].dof] == u && c->mode[q])
      maybe_stick(c, t, i);
  }
}

static void cws_free(void *p)
{
  cws *c = p;
  if (c == NULL)
    return;
  if (c->ev)
    gsl_odeiv2_evolve_free(c->ev);
  if (c->ctl)
    gsl_odeiv2_control_free(c->ctl);
  if (c->step)
    gsl_odeiv2_step_free(c->step);
  if (c->root)
    gsl_root_fsolver_free(c->root);
  if (c->tsws != NULL)
    c->ts->free(c->tsws);
  free(c->wlam);
  free(c->Y);
  free(c);
}

/* Each friction contact's normal, and who handles it: newton handles its friction contact
 * itself, and so does a time-stepping treatment; the others need the model's force law. */
static int bind_friction(cws *c, const fb_model_type *mt, fb_err *err)
{
  const fb_plant *pl = c->pl;
  for (size_t i = 0; i < c->nc; i++) {
    c->fnorm[i] = -1;
    for (size_t k = 0; k < c->nn; k++)
      if (pl->normal[k].fric == (long)i)
        c->fnorm[i] = (long)k;
    if (pl->contact[i].pair == FB_PAIR_Y) /* a 2-D contact's y entry: its x entry's normal */
      c->fnorm[i] = c->fnorm[i - 1];
    c->fnewt[i] = c->fnorm[i] >= 0 && (pl->normal[c->fnorm[i]].type->event ||
                                       pl->normal[c->fnorm[i]].type->stepper != NULL);
    if (pl->contact[i].Jt != NULL) {
      const int st = rows_bind(c, mt, i, err);
      if (st != FB_OK)
        return st;
      continue;
    }
    if (!c->fnewt[i] && mt->force == NULL)
      return fb_err_set(err, FB_EUNSUP,
                        "model %s has no force law: under a normal treatment other than newton "
                        "a friction contact needs an ODE friction model",
                        mt->name);
  }
  return FB_OK;
}

/* newton handles each normal's impacts and persistent contact alone: normals coupled
 * through the mass matrix (J_n,k M^-1 J_n,l^T != 0, k != l: a push on one moves another's
 * gap, as A between the wall and B) would need the impulse-level frictional LCP of
 * simultaneous impacts, which it does not solve.  Uses c->MJ. */
static int newton_decoupled(const cws *c, fb_err *err)
{
  const fb_plant *pl = c->pl;
  for (size_t k = 0; k < c->nn; k++)
    for (size_t l = 0; l < c->nn; l++)
      if (l != k && (pl->normal[k].type->event || pl->normal[l].type->event) &&
          dotn(pl->normal[l].Jn, c->MJ + k * c->n, c->n) != 0)
        return fb_err_set(err, FB_EUNSUP,
                          "normal newton: normals %zu and %zu are coupled through the mass "
                          "matrix; simultaneous impacts would need an impulse-level LCP (use "
                          "moreau-jean or a force law)", k, l);
  return FB_OK;
}

/* A time-stepping treatment's stepper (the first normal's), statistics into c->st. */
static int ts_alloc(cws *c, fb_err *err)
{
  c->ts = c->pl->normal[0].type->stepper;
  if (c->ts == NULL)
    return FB_OK;
  c->tso = c->o;
  c->tso.stats = &c->st;
  const int st = c->ts->alloc(&c->tsws, c->ts, c->pb, &c->tso, err);
  if (st != FB_OK)
    c->tsws = NULL;
  return st;
}

static int cws_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const fb_model_type *mt = pb->model->type;
  *out = NULL;
  if (pl->nn == 0)
    return fb_err_set(err, FB_EINVAL, "integrator contact: the scenario has no normal contact");
  const gsl_odeiv2_step_type *T = gsl_odeiv2_step_rk8pd;
  if (o->stepper != NULL) {
    const fb_integrator_type *it = fb_integrator_find_in_registry(o->stepper);
    if (it == NULL || it->data == NULL || it->needs != FB_MODEL_ODE || it->implicit)
      return fb_err_set(err, FB_EINVAL,
                        "contact stepper '%s': allowed is an explicit GSL stepper (rk2, rk4, "
                        "rkf45, rkck, rk8pd, msadams, heun3, dop853)",
                        o->stepper);
    T = *(const gsl_odeiv2_step_type *const *)it->data;
  }
  cws *c = calloc(1, sizeof *c);
  if (c == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  c->pb = pb;
  c->pl = pl;
  c->n = pl->n;
  c->nc = pl->nc;
  c->nz = mt->nz;
  c->nn = pl->nn;
  c->dim = pb->dim;
  c->qoff = 2 * pl->n + pl->nc * mt->nz;
  c->o = *o;
  c->dense = T == fb_step_dop853;
  c->step_t0 = c->step_t1 = (double)NAN;
  size_t ns = 0;
  for (size_t k = 0; k < pl->nn; k++)
    ns += pl->normal[k].type->ns;
  c->dimY = c->dim + ns;
  c->ne = c->nn + c->nc;
  const size_t n = c->n, nd = 6 * c->dimY + 2 * n + 2 * c->nn + c->nn * n + c->nc * 2 + 2 * c->ne +
                             c->nn * 3 + c->nc * 4 + c->ne + 8 + c->dim;
  c->Y = calloc(nd, sizeof(double));
  if (c->Y == NULL) {
    free(c);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  double *p = c->Y;
  c->Y0 = p += c->dimY;
  c->Yt = p += c->dimY;
  c->yerr = p += c->dimY;
  c->dY = p += c->dimY;
  p += c->dimY;
  c->f = p;
  c->a = p += n;
  c->lam = p += n;
  c->w = p += c->nn;
  c->MJ = p += c->nn;
  c->F = p += c->nn * n;
  c->E0 = p += c->nc;
  c->E1 = p += c->ne;
  c->fdir = p += c->ne;
  c->Et = p += c->nc;
  c->yin = p += c->ne;
  p += c->dim;
  /* integer arrays kept in the same block, as doubles' worth of storage */
  c->soff = (size_t *)(void *)p;
  p += c->nn;
  c->mode = (int *)(void *)p;
  p += c->nn;
  c->fnewt = (int *)(void *)p;
  p += c->nc;
  c->fmode = (int *)(void *)p;
  p += c->nc;
  c->fnorm = (long *)(void *)p;
  size_t off = 0;
  for (size_t k = 0; k < c->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    c->soff[k] = off;
    off += nm->type->ns;
    fb_plant_solve_mass(pl, nm->Jn, c->MJ + k * n);
    c->w[k] = dotn(nm->Jn, c->MJ + k * n, n);
  }
  if (newton_decoupled(c, err) != FB_OK || bind_friction(c, mt, err) != FB_OK) {
    cws_free(c);
    return FB_EUNSUP;
  }
  fb_impact_stats_init(&c->st, 0);
  if (o->stats != NULL) {
    const fb_impact_stats *in = o->stats;
    c->st.t_watch = in->t_watch;
    c->st.on_step = in->on_step;
    c->st.on_step_ctx = in->on_step_ctx;
  }
  c->wlam = calloc(2 * c->nn, sizeof(double));
  if (c->wlam == NULL) {
    cws_free(c);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  c->wgd = c->wlam + c->nn;
  c->wt = NAN;
  c->step = gsl_odeiv2_step_alloc(T, c->dimY);
  c->ctl = gsl_odeiv2_control_y_new(isnan(o->atol) ? 1e-9 : o->atol,
                                    isnan(o->rtol) ? 1e-9 : o->rtol);
  c->ev = gsl_odeiv2_evolve_alloc(c->dimY);
  c->root = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (c->step == NULL || c->ctl == NULL || c->ev == NULL || c->root == NULL) {
    cws_free(c);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  c->sys = (gsl_odeiv2_system){rhs, NULL, c->dimY, c};
  const int st = ts_alloc(c, err);
  if (st != FB_OK) {
    cws_free(c);
    return st;
  }
  *out = c;
  return FB_OK;
}

/* The load that holds the body at rest on normal k: lambda_static = -(J_n M^-1 f)/w with f
 * the smooth forces (friction acts across J_n and does not enter).  Uses c->f, c->a. */
static double static_load(cws *c, double t, size_t k)
{
  fb_plant_smooth_force(c->pl, t, c->Y, c->Y + c->n, c->f);
  fb_plant_solve_mass(c->pl, c->f, c->a);
  return -dotn(c->pl->normal[k].Jn, c->a, c->n) / c->w[k];
}

static void note_step(cws *c, double t)
{
  const fb_plant *pl = c->pl;
  for (size_t k = 0; k < c->nn; k++) {
    const double g = dotn(pl->normal[k].Jn, c->Y, c->n) + pl->normal[k].g0;
    const double gd = dotn(pl->normal[k].Jn, c->Y + c->n, c->n);
    c->st.max_pen = fmax(c->st.max_pen, -g);
    c->st.min_lambda = fmin(c->st.min_lambda, c->lam[k]);
    /* work of a force law's lambda_n (newton's is exact at its impacts, 0 in between) */
    if (!pl->normal[k].type->event && isfinite(c->wt) && t > c->wt)
      c->st.work_n += 0.5 * (c->wlam[k] * c->wgd[k] + c->lam[k] * gd) * (t - c->wt);
    c->wlam[k] = c->lam[k];
    c->wgd[k] = gd;
    if (k < FB_STATS_NN)
      c->st.lam_last[k] = c->lam[k];
    if (k == 0) {
      c->st.lam_T = c->lam[0];
      if (t >= c->st.t_watch) {
        const double ls = static_load(c, t, 0);
        c->st.rest_pen = fmax(c->st.rest_pen, -g);
        c->st.rest_gap = fmax(c->st.rest_gap, g);
        c->st.rest_lam_err = fmax(c->st.rest_lam_err, fabs(c->lam[0] - ls));
        c->st.rest_lam_static = ls;
      }
    }
    const long fi = pl->normal[k].fric;
    if (fi >= 0 && pl->contact[fi].Jt != NULL) { /* rows: every treatment, newton too */
      if (c->impacted && isnan(c->st.t_stop) &&
          rows_speed(c, t, (size_t)fi, c->Y + c->n) < pl->v_stick)
        c->st.t_stop = t;
    } else if (fi >= 0 && !c->fnewt[fi] && c->impacted && isnan(c->st.t_stop)) {
      fb_contact_in ci;
      double u;
      fb_contact_in_at(pl, (size_t)fi, t, &ci, &u);
      if (fabs(c->Y[c->n + pl->contact[fi].dof] - u) < pl->v_stick)
        c->st.t_stop = t;
    }
  }
  c->wt = t;
  if (c->st.on_step != NULL) { /* the forces at (t, Y) itself: the last evaluation may
                                  have been a trial's */
    eval(c, t, c->Y, c->dY);
    c->st.on_step(c->st.on_step_ctx, t, c->Y, c->lam, c->F);
  }
}

/* Start of the run at (at->t, y) (BREAKS_INSIDE: the only reset): the treatments' states,
 * newton's persistent contacts, the event functions' values. */
static int cws_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  cws *c = ws;
  if (c->ts != NULL)
    return c->ts->reset(c->tsws, at, y, cnt, err);
  const fb_plant *pl = c->pl;
  const double t = at->t;
  memcpy(c->yin, y, c->dim * sizeof(double));
  memcpy(c->Y, y, c->dim * sizeof(double));
  for (size_t k = 0; k < c->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double g = dotn(nm->Jn, c->Y, c->n) + nm->g0, gd = dotn(nm->Jn, c->Y + c->n, c->n);
    if (nm->type->init != NULL)
      nm->type->init(nm->np_, g, gd, c->Y + c->dim + c->soff[k]);
    /* newton starting on the contact at rest, pushed into it: persistent from the start */
    if (nm->type->event && g <= 0 && gd <= 0) {
      eval(c, t, c->Y, c->dY);
      if (dotn(nm->Jn, c->dY + c->n, c->n) < 0)
        c->mode[k] = 1;
    }
  }
  c->h = fmin(1e-3 * (pl->T - t), c->o.hmax);
  const int st = events(c, t, c->Y, c->E0);
  if (st != FB_OK) {
    c->nosync = 1; /* the whole-run loop returned here without its counts */
    return fb_err_set(err, st, "contact: force law failed at t=%g", t);
  }
  note_step(c, t);
  return FB_OK;
}

/* The step from t0 as planned: the frozen slip directions and the step cap. */
static void step_begin(cws *c, double t0)
{
  const fb_plant *pl = c->pl;
  memcpy(c->Y0, c->Y, c->dimY * sizeof(double));
  for (size_t i = 0; i < c->nc; i++)
    if (c->fnewt[i] && !c->fmode[i] && pl->contact[i].Jt != NULL) {
      if (pl->contact[i].pair != FB_PAIR_Y)
        rows_begin(c, t0, i);
    } else if (c->fnewt[i] && !c->fmode[i]) {
      fb_contact_in ci;
      double u;
      fb_contact_in_at(pl, i, t0, &ci, &u);
      const double vr = c->Y[c->n + pl->contact[i].dof] - u;
      if (vr != 0)
        c->fdir[i] = vr > 0 ? 1.0 : -1.0;
    }
  /* Events are detected by sign changes at step ends: a step must not span two of them.
   * Phases whose motion is polynomial (free fall, persistent contact at rest) let the
   * error control grow the step without bound, so it is capped at 0.1 / f_c (a tenth of
   * the fastest natural or forcing period) and 1 % of the span. */
  const double hcap = fmin(c->o.hmax, fmin(0.01 * (pl->T - pl->t0),
                                           isfinite(pl->f_c) && pl->f_c > 0 ? 0.1 / pl->f_c
                                                                            : HUGE_VAL));
  if (c->h > hcap)
    c->h = hcap;
}

/* A free-flight step (error-controlled on the smooth flight) that ends deep in a force
 * law's contact: its trial steps past the onset would meet the stiff force with a step
 * sized for the flight, and the gap along them need not cross zero once.  It is taken
 * again, ending near the (linearly predicted) onset, until the penetration at the step's
 * end is below 1e-4 of the gap scale: 1 when c->h was set for that. */
static int step_again(cws *c, double t0, double t)
{
  int again = 0;
  for (size_t q = 0; q < c->nn; q++) {
    const fb_normal *nm = &c->pl->normal[q];
    if (!nm->type->event && c->E0[q] >= 0 && c->E1[q] < -1e-4 * nm->h_scale) {
      const double frac = c->E0[q] / (c->E0[q] - c->E1[q]);
      const double hn = (t - t0) * fmax(frac, 1e-3);
      if (!again || hn < c->h)
        c->h = hn;
      again = 1;
    }
  }
  return again && c->h > 16 * DBL_EPSILON * fmax(fabs(t0), 1.0);
}

/* One step of GSL's evolve (to T: the forcing's breaks lie inside its steps), ended at the
 * earliest event that fired in it (at->event: handled by cws_event after the driver has
 * reported the state there). */
static int cws_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  cws *c = ws;
  if (c->ts != NULL)
    return c->ts->step(c->tsws, at, y, cnt, err);
  const double t0 = at->t;
  double t = t0;
  step_begin(c, t0);
  const int s = gsl_odeiv2_evolve_apply(c->ev, c->ctl, c->step, &c->sys, &t, c->pl->T, &c->h,
                                        c->Y);
  if (s != GSL_SUCCESS) { /* the driver restores y at t0 */
    if (c->fail == FB_BUDGET)
      return fb_err_set(err, FB_BUDGET, "contact: RHS budget of %lu evaluations exhausted at "
                        "t=%.17g", c->o.max_rhs, t0);
    if (s == GSL_FAILURE && !c->fail) /* evolve's step fell below round-off of t */
      return fb_err_set(err, FB_EGSL, "contact: the explicit inner stepper's step shrank to "
                        "%.3g s, below round-off of t, at t=%g: the force laws are too stiff "
                        "there for an explicit stepper (docs/failures.md)", c->h, t0);
    return fb_err_set(err, c->fail ? c->fail : FB_EGSL, "contact: gsl error %d at t=%g", s, t0);
  }
  c->step_t0 = t0;
  c->step_t1 = t;
  const int st = events(c, t, c->Y, c->E1);
  if (st != FB_OK) { /* as the whole-run loop ended: at t, y as it was given, no counts */
    c->nosync = 1;
    at->keep = 1;
    at->tnew = t;
    memcpy(y, c->yin, c->dim * sizeof(double));
    return fb_err_set(err, st, "contact: force law failed at t=%g", t);
  }
  if (step_again(c, t0, t)) {
    memcpy(c->Y, c->Y0, c->dimY * sizeof(double));
    cnt->nrejected++;
    gsl_odeiv2_step_reset(c->step);
    gsl_odeiv2_evolve_reset(c->ev);
    at->rejected = 1;
    return FB_OK;
  }
  /* the earliest event that fired in (t0, t] */
  size_t q_best = c->ne;
  double h_best = t - t0;
  for (size_t q = 0; q < c->ne; q++)
    if (fired(c, q, c->E0[q], c->E1[q])) {
      double hq = locate(c, t0, t - t0, q, c->E0[q]);
      cnt->nevents++;
      if (q_best == c->ne || hq < h_best) {
        h_best = hq;
        q_best = q;
      }
    }
  if (q_best < c->ne) {
    trial(c, t0, h_best);
    memcpy(c->Y, c->Yt, c->dimY * sizeof(double));
    t = t0 + h_best;
    c->q_event = q_best;
    at->event = 1;
  } else {
    memcpy(c->E0, c->E1, c->ne * sizeof(double));
  }
  if (c->pl->kin.renormalize) /* asked for (fb_kinematics): never silently */
    fb_kin_normalize(c->pl, c->Y + c->qoff);
  note_step(c, t);
  memcpy(y, c->Y, c->dim * sizeof(double));
  at->tnew = t;
  return FB_OK;
}

/* dop853's dense output of the last step [ta, tb] (or its part up to an event) at t
 * (fb_integrator_type.dense); the time-stepping treatments and other steppers have none. */
static int cws_dense(void *ws, double ta, double tb, double t, double *y)
{
  cws *c = ws;
  if (c->ts != NULL || !c->dense || ta != c->step_t0 || !(tb > ta && tb <= c->step_t1) ||
      fb_dop853_dense(c->step->state, &c->sys, t, c->Yt) != GSL_SUCCESS)
    return FB_EUNSUP;
  memcpy(y, c->Yt, c->dim * sizeof(double));
  return FB_OK;
}

/* The event located by the last step, at at->tnew (reported there): the switch. */
static int cws_event(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  cws *c = ws;
  const double t = at->tnew;
  (void)err;
  handle(c, t, c->q_event);
  cnt->nswitch++;
  gsl_odeiv2_step_reset(c->step);
  gsl_odeiv2_evolve_reset(c->ev);
  events(c, t, c->Y, c->E1);
  memcpy(c->E0, c->E1, c->ne * sizeof(double));
  note_step(c, t);
  memcpy(y, c->Y, c->dim * sizeof(double));
  at->report = 1;
  return FB_OK;
}

/* The scheme's (or its time-stepping treatment's) own words for a budget: steps and
 * rejections, the evaluations it counts itself (a time-stepping treatment counts in cnt). */
static int cws_budget(const void *ws, const fb_counters *cnt, double t, fb_err *err)
{
  const cws *c = ws;
  const unsigned long nfe = c->ts != NULL ? cnt->nfe : c->nfe;
  if (cnt->nsteps + cnt->nrejected < c->o.max_steps && nfe < c->o.max_rhs)
    return FB_OK;
  return fb_err_set(err, FB_BUDGET, "%s: step budget of %lu steps (or RHS budget of %lu "
                    "evaluations) exhausted at t=%.17g", c->ts != NULL ? c->ts->name : "contact",
                    c->o.max_steps, c->o.max_rhs, t);
}

static int cws_stopped(const void *ws, int ost, double t, fb_err *err)
{
  const cws *c = ws;
  return fb_err_set(err, ost, "%s: stopped by the observer at t=%g",
                    c->ts != NULL ? c->ts->name : "contact", t);
}

/* The end of a run: the evaluations (not after a failed force law, as before), GSL's
 * failed steps (after a complete run only) and the statistics. */
static void cws_finish(void *ws, int st, fb_counters *cnt)
{
  cws *c = ws;
  if (c->ts == NULL) {
    if (!c->nosync)
      cnt->nfe = c->nfe;
    if (st == FB_OK)
      cnt->nrejected += c->ev->failed_steps;
  }
  if (c->o.stats != NULL)
    *(fb_impact_stats *)c->o.stats = c->st;
}

const fb_integrator_type fb_integrator_contact = {
    .name = "contact",
    .title = "normal contacts: any explicit GSL stepper, gap events by Brent, Newton's impact "
             "law with Zeno accumulation",
    .needs = 0,
    .fixed_ok = 1, /* for time-stepping treatments (moreau-jean) only */
    .adaptive_ok = 1,
    .implicit = 0,
    .order = 0,
    .data = NULL,
    .alloc = cws_alloc,
    .evolve = NULL,
    .free = cws_free,
    .reset = cws_reset,
    .step = cws_step,
    .event = cws_event,
    .flags = FB_STEP_BREAKS_INSIDE | FB_STEP_NO_FINITE_CHECK,
    .budget = cws_budget,
    .stopped = cws_stopped,
    .finish = cws_finish,
    .takes_quat = 1,
    .dense = cws_dense,
};

int fb_contact_run_stats(const fb_problem *pb, const fb_int_opts *o, fb_impact_stats *st,
                         fb_counters *cnt_out, fb_err *err)
{
  void *ws;
  fb_int_opts oo = *o;
  oo.stats = NULL; /* *st is filled below, without a rest window */
  int s = cws_alloc(&ws, &fb_integrator_contact, pb, &oo, err);
  if (s != FB_OK)
    return s;
  double *y = calloc(pb->dim, sizeof *y);
  if (y == NULL) {
    cws_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  fb_problem_initial_state(pb, y);
  double t = pb->plant->t0;
  fb_counters cnt;
  memset(&cnt, 0, sizeof cnt);
  s = fb_drive(&fb_integrator_contact, ws, pb, &oo, &t, y, NULL, NULL, &cnt, err);
  *st = ((cws *)ws)->st;
  if (cnt_out != NULL)
    *cnt_out = cnt;
  free(y);
  cws_free(ws);
  return s;
}
