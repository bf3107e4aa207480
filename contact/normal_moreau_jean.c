/* normal_moreau_jean.c — `moreau-jean` as a normal treatment: Moreau–Jean time stepping
 * with impacts at the velocity level ([Moreau1988], [Jean1999], [AcaryBrogliato2008]
 * §10.1; docs/design.md §12), a fixed-step scheme that runs the whole plant (the friction-
 * only M9 is models/moreau_jean.c).  Per step k -> k+1 of length h:
 *
 *   M (v_{k+1} - v_k) = h f_{k+theta} + sum_n J_n^T P_n + sum_i e_{j_i} R_i,
 *   x_{k+1} = x_k + h ((1 - theta) v_k + theta v_{k+1}),                 [AB08] eqs. 10.4-10.6
 *
 * f_{k+theta} = (1 - theta) f(t_k, x_k, v_k) + theta f(t_{k+1}, x_k + h v_k, v_k): the smooth
 * forces with an explicit predictor (exact for a constant force such as gravity, first
 * order where the force depends on the state).  A normal is closed when its predicted gap
 * g_k + theta h J_n v_k <= 0 ([AB08] §10.1's index set at q_k + theta h v_k); for a closed
 * normal Newton's law at the velocity level
 *
 *   0 <= J_n v_{k+1} + e J_n v_k   ⊥   P_n >= 0,                         [AB08] eq. 10.8
 *
 * and a friction contact it bounds takes the impulse R_i in the Coulomb disc
 * |R_i| <= mu(|v_r,k|) P_n (mu at the step's start, as in M9), opposing v_r,k+1
 * ([AB08] eq. 10.10; one tangential direction: the disc is the segment); a friction contact
 * with a prescribed normal force N(t) takes |R_i| <= h mu N.  The coupled problem is solved
 * by projected Gauss–Seidel on the impulses (exact in one sweep for one normal without
 * friction), sweeps counted as inner iterations.
 *
 * Statistics as the contact scheme's: a contact phase opens at the first step with
 * P_n > 0 after a free one (onset time: the linear estimate t_k + g_k / (-J_n v_k) of the
 * gap's crossing, clamped to the step; v_in = J_n v_k) and closes at the first free step
 * after it (v_out = J_n v at its start).  lambda_n = P_n / h (the step's mean force).
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_models.h"
#include "fb_normal.h"

typedef struct mj_n_params {
  double e, theta, pgs_tol, pgs_max;
} mj_n_params;

static const fb_param_desc mj_n_desc[] = {
    {"e", "1", "restitution coefficient of Newton's law at the velocity level",
     offsetof(mj_n_params, e), NAN, 0, 1, FB_PARAM_AUTO, "the scenario's e", NULL},
    {"theta", "1", "theta of the theta-method (1/2: trapezoidal; 1: implicit Euler)",
     offsetof(mj_n_params, theta), 0.5, 0.5, 1, 0, NULL, NULL},
    {"pgs_tol", "1", "projected Gauss-Seidel stops when no impulse changes by more than "
     "pgs_tol times the largest impulse", offsetof(mj_n_params, pgs_tol), 1e-14, 0, 1,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"pgs_max", "1", "sweeps of projected Gauss-Seidel at most (more: the run fails)",
     offsetof(mj_n_params, pgs_max), 1000, 1, 1e9, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set mj_n_set = {sizeof(mj_n_params), 4, mj_n_desc};

static int mj_n_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  mj_n_params *p = pp;
  (void)err;
  if (isnan(p->e))
    p->e = sc->e;
  return FB_OK;
}

static double dotn(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* Workspace of one run, allocated once. */
typedef struct mjw {
  double *f0, *f1, *xp, *v0, *a, *P, *R, *MJ, *w, *vn0, *gk, *u;
  int *closed, *inphase;
} mjw;

static int mj_n_run(const fb_problem *pb, const fb_int_opts *o, double *t, double *y,
                    const fb_observer *obs, fb_counters *cnt, fb_impact_stats *st, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  const mj_n_params *p = (const mj_n_params *)pl->normal[0].np;
  for (size_t k = 1; k < nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "moreau-jean: every normal of the plant must use it");
  if (!(o->h > 0))
    return fb_err_set(err, FB_EINVAL, "moreau-jean: a fixed step h > 0 is needed");
  if (n > 64 && nc > 0)
    return fb_err_set(err, FB_EUNSUP, "moreau-jean: at most 64 DOFs with friction");
  const size_t nd = 5 * n + 2 * nn + nc + nn * n + 2 * nn + 2 * nc;
  double *buf = calloc(nd + 1, sizeof(double));
  int *ibuf = calloc(2 * nn + 1, sizeof(int));
  if (buf == NULL || ibuf == NULL) {
    free(buf), free(ibuf);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  mjw W = {0};
  double *q = buf;
  W.f0 = q, q += n;
  W.f1 = q, q += n;
  W.xp = q, q += n;
  W.v0 = q, q += n;
  W.a = q, q += n;
  W.P = q, q += nn;
  W.w = q, q += nn;
  W.R = q, q += nc;
  W.MJ = q, q += nn * n;
  W.vn0 = q, q += nn;
  W.gk = q, q += nn;
  W.u = q, q += 2 * nc;
  W.closed = ibuf;
  W.inphase = ibuf + nn;
  for (size_t k = 0; k < nn; k++) {
    fb_plant_solve_mass(pl, pl->normal[k].Jn, W.MJ + k * n);
    W.w[k] = dotn(pl->normal[k].Jn, W.MJ + k * n, n);
  }
  double *x = y, *v = y + n;
  const double th = p->theta;
  int impacted = 0, status = FB_OK;
  if (obs != NULL && obs->on_step != NULL && (status = obs->on_step(obs->ctx, *t, y)) != 0) {
    free(buf), free(ibuf);
    return fb_err_set(err, status, "moreau-jean: stopped by the observer at t=%g", *t);
  }
  while (*t < pl->T) {
    if (cnt->nsteps >= o->max_steps || cnt->nfe >= o->max_rhs) {
      status = fb_err_set(err, FB_BUDGET, "moreau-jean: step budget of %lu steps (or RHS "
                          "budget of %lu evaluations) exhausted at t=%.17g", o->max_steps,
                          o->max_rhs, *t);
      break;
    }
    const double t0 = *t;
    double h = o->h;
    if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
      h = pl->T - t0; /* land on T */
    const double t1 = t0 + h;
    memcpy(W.v0, v, n * sizeof(double));
    /* smooth forces, theta-weighted with an explicit predictor */
    fb_plant_smooth_force(pl, t0, x, v, W.f0);
    for (size_t i = 0; i < n; i++)
      W.xp[i] = x[i] + h * v[i];
    fb_plant_smooth_force(pl, t1, W.xp, v, W.f1);
    cnt->nfe += 2;
    for (size_t i = 0; i < n; i++)
      W.f0[i] = h * ((1 - th) * W.f0[i] + th * W.f1[i]);
    fb_plant_solve_mass(pl, W.f0, W.a);
    for (size_t i = 0; i < n; i++)
      v[i] += W.a[i]; /* v_free */
    /* the index set: closed normals by the predicted gap */
    for (size_t k = 0; k < nn; k++) {
      const fb_normal *nm = &pl->normal[k];
      W.vn0[k] = dotn(nm->Jn, W.v0, n);
      const double g = dotn(nm->Jn, x, n) + nm->g0;
      W.gk[k] = g;
      W.closed[k] = g + th * h * W.vn0[k] <= 0;
      W.P[k] = 0;
    }
    for (size_t i = 0; i < nc; i++) {
      fb_contact_in ci;
      double us;
      fb_contact_in_at(pl, i, t1, &ci, &us);
      const double vr0 = W.v0[pl->contact[i].dof] - us;
      W.u[i] = us;
      W.u[nc + i] = fb_friction_mu(&pl->contact[i].law, fabs(vr0), NULL); /* mu(|v_r,k|) */
      W.R[i] = 0;
    }
    /* projected Gauss-Seidel on P_n (normals) and R_i (friction) */
    int conv = 0;
    long sweeps = 0;
    const long smax = (long)p->pgs_max;
    while (!conv && sweeps < smax) {
      double change = 0, scale = 0;
      sweeps++;
      for (size_t k = 0; k < nn; k++) {
        if (!W.closed[k])
          continue;
        const fb_normal *nm = &pl->normal[k];
        const double e = nm->np[0];
        /* [AB08] eq. 10.8: P <- max(0, P - (J_n v + e J_n v_k) / w) */
        const double un = dotn(nm->Jn, v, n) + e * fmin(W.vn0[k], 0.0);
        const double Pn = fmax(0.0, W.P[k] - un / W.w[k]);
        const double d = Pn - W.P[k];
        for (size_t i = 0; i < n; i++)
          v[i] += W.MJ[k * n + i] * d;
        W.P[k] = Pn;
        change = fmax(change, fabs(d));
        scale = fmax(scale, Pn);
      }
      for (size_t i = 0; i < nc; i++) {
        const size_t j = pl->contact[i].dof;
        double bound = -1;
        for (size_t k = 0; k < nn; k++)
          if (pl->normal[k].fric == (long)i)
            bound = W.closed[k] ? W.u[nc + i] * W.P[k] : 0.0;
        if (bound < 0) {
          fb_contact_in ci;
          double us;
          fb_contact_in_at(pl, i, t1, &ci, &us);
          bound = h * W.u[nc + i] * ci.N;
        }
        /* the impulse that stops v_r, projected on the disc |R| <= bound */
        const double mjj = 1.0 / pl->Minv[j * n + j];
        const double vr = v[j] - W.u[i];
        const double Ri = fmin(bound, fmax(-bound, W.R[i] - mjj * vr));
        const double d = Ri - W.R[i];
        for (size_t r = 0; r < n; r++)
          v[r] += pl->Minv[r * n + j] * d; /* M^-1 e_j d */
        W.R[i] = Ri;
        change = fmax(change, fabs(d));
        scale = fmax(scale, fabs(Ri));
      }
      conv = change <= p->pgs_tol * fmax(scale, DBL_MIN) || (nc == 0 && nn == 1);
    }
    cnt->ninner += (unsigned long)sweeps;
    if (!conv) {
      status = fb_err_set(err, FB_EGSL, "moreau-jean: projected Gauss-Seidel did not converge "
                          "in %ld sweeps at t=%g", sweeps, t0);
      break;
    }
    for (size_t i = 0; i < n; i++)
      x[i] += h * ((1 - th) * W.v0[i] + th * v[i]);
    *t = t1;
    cnt->nsteps++;
    /* statistics */
    for (size_t k = 0; k < nn; k++) {
      const fb_normal *nm = &pl->normal[k];
      const double lam = W.P[k] / h, vn1 = dotn(nm->Jn, v, n);
      const double g = dotn(nm->Jn, x, n) + nm->g0;
      st->max_pen = fmax(st->max_pen, -g);
      st->min_lambda = fmin(st->min_lambda, lam);
      st->work_n += W.P[k] * 0.5 * (W.vn0[k] + vn1);
      if (W.P[k] > 0 && !W.inphase[k]) {
        const double frac = W.vn0[k] < 0 ? fmin(fmax(W.gk[k] / -W.vn0[k], 0.0), h) : 0.0;
        W.inphase[k] = 1;
        impacted = 1;
        if (k == 0) {
          if (st->n < FB_IMPACT_MAX) {
            st->t_in[st->n] = t0 + frac;
            st->v_in[st->n] = W.vn0[k];
            st->t_out[st->n] = st->v_out[st->n] = NAN;
          }
          st->n++;
          if (nm->fric >= 0 && st->n == 1)
            st->vt_after_first = v[pl->contact[nm->fric].dof];
        }
      } else if (W.P[k] == 0 && W.inphase[k]) {
        W.inphase[k] = 0;
        if (k == 0 && st->n > 0 && st->n <= FB_IMPACT_MAX) {
          st->t_out[st->n - 1] = t0;
          st->v_out[st->n - 1] = W.vn0[k];
        }
      }
      if (k == 0) {
        st->lam_T = lam;
        if (*t >= st->t_watch) {
          fb_plant_smooth_force(pl, *t, x, v, W.f1);
          fb_plant_solve_mass(pl, W.f1, W.a);
          const double ls = -dotn(nm->Jn, W.a, n) / W.w[0];
          st->rest_pen = fmax(st->rest_pen, -g);
          st->rest_gap = fmax(st->rest_gap, g);
          st->rest_lam_err = fmax(st->rest_lam_err, fabs(lam - ls));
          st->rest_lam_static = ls;
        }
        const long fi = nm->fric;
        if (fi >= 0 && impacted && isnan(st->t_stop) &&
            fabs(v[pl->contact[fi].dof] - W.u[fi]) < pl->v_stick)
          st->t_stop = *t;
      }
    }
    if (obs != NULL && obs->on_step != NULL && (status = obs->on_step(obs->ctx, *t, y)) != 0) {
      status = fb_err_set(err, status, "moreau-jean: stopped by the observer at t=%g", *t);
      break;
    }
  }
  free(buf);
  free(ibuf);
  return status;
}

const fb_normal_type fb_normal_moreau_jean = {
    .name = "moreau-jean",
    .title = "Moreau-Jean time stepping: theta-method, Newton's law at the velocity level, "
             "Coulomb impulse (fixed step)",
    .reference = "[Moreau1988], [Jean1999], [AcaryBrogliato2008] §10.1 eqs. 10.4-10.10",
    .params = &mj_n_set,
    .ns = 0,
    .event = 0,
    .resolve = mj_n_resolve,
    .step_run = mj_n_run,
};
