/* normal_ccp.c — `ccp` as a normal treatment: the cone complementarity problem of
 * Anitescu's convex relaxation (M. Anitescu, "Optimization-based simulation of nonsmooth
 * rigid multibody dynamics", Math. Program. 105 (2006) 113-143 [Anitescu2006]) as Chrono's
 * NSC system steps it (A. Tasora, M. Anitescu, "A matrix-free cone complementarity approach
 * for solving large-scale, nonsmooth, rigid body dynamics", CMAME 200 (2011) 439-453
 * [TasoraAnitescu2011]); docs/models/ccp.md.  A fixed-step scheme that runs the whole plant
 * (the friction-only model is models/ccp.c).  Per step k -> k+1 of length h:
 *
 *   v_free = v_k + h M^-1 f(t_k, x_k, v_k)                 (semi-implicit Euler: the smooth
 *   v_{k+1} = v_free + M^-1 D gamma,  x_{k+1} = x_k + h v_{k+1}      forces at the start)
 *
 * D's columns are the normals' J_n^T and the friction contacts' e_j; gamma their impulses.
 * [TasoraAnitescu2011] eqs. 8-13 (the relaxed problem of [Anitescu2006] §3): gamma solves
 * the cone complementarity problem
 *
 *   K  ∋  gamma  ⊥  N gamma + r  ∈  K*,     N = D^T M^-1 D,   r = D^T v_free + b,
 *
 * with b = g_k/h on a normal (the gap at the step's start: Anitescu's stabilization) and
 * -u_s on a friction contact (the surface's velocity at t_{k+1}), K the product of the
 * friction cones {|gamma_t| <= mu gamma_n} of each normal with the friction contact it
 * bounds (a normal alone: gamma_n >= 0; a friction contact with a prescribed normal force
 * N(t): |gamma_t| <= h mu N), K* its dual.  On the cone's boundary (sliding) the dual
 * condition reads g_k/h + v_n = mu |v_t|: the relaxation's normal velocity.  A body sliding
 * at v therefore ends each step at the gap g_{k+1} = g_k + h v_n = h mu |v_t| and hovers
 * there ([TasoraAnitescu2011] §2.3's remark on the relaxation; the gap Chrono users report):
 * reported as hover_gap.  The relaxation has no restitution: every impact is inelastic (the
 * scenario's e is not used; [Anitescu2006] §2).  mu = mu(|v_r,k|) at the step's start.
 *
 * Solver: APGD, Nesterov's accelerated projected gradient with the gradient-based restart
 * (H. Mazhar, T. Heyn, D. Negrut, A. Tasora, "Using Nesterov's method to accelerate
 * multibody dynamics with friction and contact", ACM TOG 34(3) 2015, Alg. 2, with a fixed
 * step 1/L, L the Gershgorin bound of N's largest eigenvalue in place of its line search),
 * on the equivalent convex QP min 1/2 gamma^T N gamma + r^T gamma over K; warm-started from
 * the previous step's impulses; stops when the projected-gradient residual
 * |gamma - P_K(gamma - (N gamma + r)/L)|_inf is below tol max(|gamma|_inf, h m_min a)
 * (tol default 1e-12).  Iterations counted as inner; max_it without meeting the stop fails
 * the run.  Statistics as moreau-jean's (lambda_n = gamma_n / h), plus the hover gap: over
 * the steps where normal 0 pushes and its friction contact slides (|v_r| > v_stick), the
 * mean gap at the step's end and the mean h mu |v_r| it should equal.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_math.h"
#include "fb_models.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"

typedef struct ccp_n_params {
  double tol, max_it;
} ccp_n_params;

static const fb_param_desc ccp_n_desc[] = {
    {"tol", "1", "APGD stop: projected-gradient residual below tol times the impulse scale",
     offsetof(ccp_n_params, tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"max_it", "1", "APGD iterations per step at most (more: the run fails)",
     offsetof(ccp_n_params, max_it), 100000, 1, 1e9, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set ccp_n_set = {sizeof(ccp_n_params), 2, ccp_n_desc};

/* Workspace of one run (the stepper's, fb_integrator.h), allocated once. */
typedef struct ccpw {
  const fb_problem *pb;
  const fb_int_opts *o;
  fb_impact_stats *st;
  size_t m;     /* unknowns: nn normal impulses, then nc friction impulses */
  double *buf;
  double *f, *a, *v0, *MD, *N, *r, *g, *y, *gn, *gr, *bound, *mu, *us, *gk, *vn0;
  long *pair;   /* per unknown: its cone partner (normal <-> friction), or -1 */
  int *inphase;
  double L;     /* Gershgorin bound of lambda_max(N) */
  double scale; /* impulse floor of the stop: h min(m_eff) a_scale, per second */
  int impacted;
} ccpw;

static void ccpw_free(void *ws)
{
  ccpw *W = ws;
  if (W == NULL)
    return;
  free(W->buf);
  free(W->pair);
  free(W->inphase);
  free(W);
}

/* Column c of D: J_n of normal c < nn, else e_j of friction contact c - nn (into col). */
static void ccp_col(const fb_plant *pl, size_t c, double *col)
{
  const size_t n = pl->n, nn = pl->nn;
  if (c < nn) {
    memcpy(col, pl->normal[c].Jn, n * sizeof(double));
    return;
  }
  memset(col, 0, n * sizeof(double));
  col[pl->contact[c - nn].dof] = 1.0;
}

static int ccpw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                      const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc, m = nn + nc;
  ccpw *W = calloc(1, sizeof *W);
  *out = NULL;
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  W->buf = calloc(3 * n + m * n + m * m + 9 * m + 2 * nn + 1, sizeof(double));
  W->pair = calloc(m + 1, sizeof(long));
  W->inphase = calloc(nn + 1, sizeof(int));
  if (W->buf == NULL || W->pair == NULL || W->inphase == NULL) {
    ccpw_free(W);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  W->pb = pb;
  W->o = o;
  W->st = o->stats;
  W->m = m;
  double *q = W->buf;
  W->f = q, q += n;
  W->a = q, q += n;
  W->v0 = q, q += n;
  W->MD = q, q += m * n;
  W->N = q, q += m * m;
  W->r = q, q += m;
  W->g = q, q += m;
  W->y = q, q += m;
  W->gn = q, q += m;
  W->gr = q, q += m;
  W->bound = q, q += m;
  W->mu = q, q += m;
  W->us = q, q += m;
  W->gk = q, q += nn;
  W->vn0 = q;
  for (size_t c = 0; c < m; c++) { /* M^-1 D by columns, N = D^T M^-1 D (M constant) */
    ccp_col(pl, c, W->a);
    fb_plant_solve_mass(pl, W->a, W->MD + c * n);
    W->pair[c] = -1;
  }
  for (size_t c = 0; c < m; c++)
    for (size_t d = 0; d < m; d++) {
      ccp_col(pl, c, W->a);
      W->N[c * m + d] = fb_dotn(W->a, W->MD + d * n, n);
    }
  W->L = 0;
  for (size_t c = 0; c < m; c++) {
    double s = 0;
    for (size_t d = 0; d < m; d++)
      s += fabs(W->N[c * m + d]);
    W->L = fmax(W->L, s);
  }
  for (size_t k = 0; k < nn; k++)
    if (pl->normal[k].fric >= 0) {
      W->pair[k] = (long)(nn + (size_t)pl->normal[k].fric);
      W->pair[nn + (size_t)pl->normal[k].fric] = (long)k;
    }
  *out = W;
  return FB_OK;
}

static int ccpw_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  ccpw *W = ws;
  const fb_plant *pl = W->pb->plant;
  (void)y, (void)cnt;
  if (at->seg > 0)
    return FB_OK;
  for (size_t k = 1; k < pl->nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "ccp: every normal of the plant must use it");
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "ccp: a fixed step h > 0 is needed");
  if (!(W->L > 0))
    return fb_err_set(err, FB_EUNSUP, "ccp: the Delassus matrix N = D^T M^-1 D is zero");
  fb_normal_scale sc;
  fb_normal_scales(pl, 0, &sc);
  W->scale = sc.m * sc.a; /* times h at each step: the impulse of the free motion */
  memset(W->inphase, 0, pl->nn * sizeof(int));
  memset(W->g, 0, W->m * sizeof(double));
  W->impacted = 0;
  at->report = 1;
  return FB_OK;
}

/* fmax(m, x) for m not NaN, inline (libm's fmax is a call, a few % of the scheme's time):
 * m when m > x or x is NaN, else x, which is what fmax returns for m not NaN (the x86-64
 * maxsd order glibc uses, so also for +0 against -0) */
static inline double ccp_n_fmax(double m, double x)
{
  return m > x || isnan(x) ? m : x;
}

/* Projection of gamma onto K, block by block: the friction cone of a (normal, friction)
 * pair, gamma_n >= 0 for a normal alone, |gamma_t| <= bound for a prescribed normal force.
 * The 2-D second-order cone {|t| <= mu n}: kept inside, 0 in its polar cone
 * (mu |t| <= -n), else onto its boundary at n' = (n + mu |t|)/(1 + mu^2), |t'| = mu n'. */
static void ccp_project(const ccpw *W, size_t nn, double *gam)
{
  for (size_t c = 0; c < W->m; c++) {
    const long p = W->pair[c];
    if (c >= nn && p < 0) {
      gam[c] = fmin(W->bound[c], fmax(-W->bound[c], gam[c]));
      continue;
    }
    if (c >= nn)
      continue; /* with its normal */
    if (p < 0) {
      gam[c] = fmax(gam[c], 0.0);
      continue;
    }
    const double mu = W->mu[p], nv = gam[c], tv = gam[p], at = fabs(tv);
    if (at <= mu * nv)
      continue;
    if (mu * at <= -nv) {
      gam[c] = gam[p] = 0.0;
      continue;
    }
    const double np = (nv + mu * at) / (1.0 + mu * mu);
    gam[c] = np;
    gam[p] = mu * np * fb_sgn(tv);
  }
}

/* out = N x + r */
static void ccp_grad(const ccpw *W, const double *x, double *out)
{
  for (size_t c = 0; c < W->m; c++)
    out[c] = fb_dotn(W->N + c * W->m, x, W->m) + W->r[c];
}

/* APGD on the QP (the file's header); W->g holds the warm start and receives gamma.
 * Returns 1 when the stop was met; iterations into *it, the last residual and the stop's
 * bound into res_lim[0], res_lim[1]. */
static int ccp_apgd(ccpw *W, size_t nn, double h, const ccp_n_params *p, unsigned long *it,
                    double *res_lim)
{
  const size_t m = W->m;
  const double L = W->L;
  double theta = 1.0;
  ccp_project(W, nn, W->g);
  memcpy(W->y, W->g, m * sizeof(double));
  const unsigned long kmax = (unsigned long)p->max_it;
  for (unsigned long k = 0; k < kmax; k++) {
    /* the stop at the current iterate: |gamma - P(gamma - (N gamma + r)/L)| */
    ccp_grad(W, W->g, W->gr);
    double res = 0, gmax = 0;
    for (size_t c = 0; c < m; c++)
      W->gn[c] = W->g[c] - W->gr[c] / L;
    ccp_project(W, nn, W->gn);
    for (size_t c = 0; c < m; c++) {
      res = ccp_n_fmax(res, fabs(W->gn[c] - W->g[c]));
      gmax = ccp_n_fmax(gmax, fabs(W->g[c]));
    }
    res_lim[0] = res;
    res_lim[1] = p->tol * ccp_n_fmax(gmax, h * W->scale);
    if (res <= res_lim[1])
      return 1;
    ++*it;
    /* the step from the extrapolated point y */
    ccp_grad(W, W->y, W->gr);
    for (size_t c = 0; c < m; c++)
      W->gn[c] = W->y[c] - W->gr[c] / L;
    ccp_project(W, nn, W->gn);
    const double th1 = 0.5 * theta * (sqrt(theta * theta + 4.0) - theta);
    const double beta = theta * (1.0 - theta) / (theta * theta + th1);
    double dir = 0;
    for (size_t c = 0; c < m; c++)
      dir += W->gr[c] * (W->gn[c] - W->g[c]);
    const int restart = dir > 0; /* the gradient-based restart */
    for (size_t c = 0; c < m; c++) {
      W->y[c] = restart ? W->gn[c] : W->gn[c] + beta * (W->gn[c] - W->g[c]);
      W->g[c] = W->gn[c];
    }
    theta = restart ? 1.0 : th1;
  }
  return 0;
}

/* The statistics after the step from t0 to t1 (fb_stepping_stats: moreau-jean's, with the
 * hover gap). */
static void ccp_stats(ccpw *W, double t0, double t1, double h, double *y)
{
  const fb_plant *pl = W->pb->plant;
  const size_t nn = pl->nn;
  const fb_stepping_step s = {.P = W->g, .vn0 = W->vn0, .gk = W->gk,
                              .w0 = fb_dotn(pl->normal[0].Jn, W->MD, pl->n), .us = W->us + nn, .mu = W->mu + nn,
                              .f = W->f, .a = W->a, .rows_slip = NULL, .ctx = NULL};
  fb_stepping_stats(pl, W->st, &s, W->inphase, &W->impacted, t0, t1, h, y);
}

static int ccpw_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  ccpw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc, m = W->m;
  const ccp_n_params *p = (const ccp_n_params *)pl->normal[0].np_;
  double *x = y, *v = y + n;
  const double t0 = at->t;
  double h = W->o->h;
  if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
    h = pl->T - t0; /* land on T */
  const double t1 = t0 + h;
  memcpy(W->v0, v, n * sizeof(double));
  /* v_free = v_k + h M^-1 f(t_k, x_k, v_k) */
  fb_plant_smooth_force(pl, t0, x, v, W->f);
  cnt->nfe++;
  fb_plant_solve_mass(pl, W->f, W->a);
  for (size_t i = 0; i < n; i++)
    v[i] += h * W->a[i];
  for (size_t k = 0; k < nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    W->vn0[k] = fb_dotn(nm->Jn, W->v0, n);
    W->gk[k] = fb_dotn(nm->Jn, x, n) + nm->g0;
    W->r[k] = fb_dotn(nm->Jn, v, n) + W->gk[k] / h; /* b = g_k/h: Anitescu's stabilization */
  }
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    double u1;
    fb_contact_in_at(pl, i, t1, &ci, &u1);
    const size_t c = nn + i, j = pl->contact[i].dof;
    fb_contact_state cs0;
    fb_plant_contact_at(pl, i, t0, &cs0);
    W->us[c] = u1;
    W->mu[c] = fb_friction_mu(&pl->contact[i].law, fabs(W->v0[j] - cs0.u), NULL);
    W->bound[c] = h * W->mu[c] * ci.N; /* used when no normal bounds the contact */
    W->r[c] = v[j] - u1;
  }
  unsigned long it = 0;
  double res_lim[2] = {0.0, 0.0};
  const int conv = ccp_apgd(W, nn, h, p, &it, res_lim);
  cnt->ninner += it;
  if (!conv) {
    memcpy(v, W->v0, n * sizeof(double));
    at->keep = 1;
    at->tnew = t0;
    /* more impulses than DOFs: N = D^T M^-1 D is singular, the impulses of the statically
     * indeterminate contact set are not unique and APGD's residual stalls on their flat
     * face (conveyor-wall's pinned state: 6 impulses on 4 DOFs; docs/failures.md) */
    if (m > n)
      return fb_err_set(err, FB_ESOLVE, "ccp: APGD stalled at residual %.3g N s, above the "
                        "stop %.3g N s (tol), after %lu iterations at t=%g: %zu impulses on %zu "
                        "DOFs, so N = D^T M^-1 D is singular and the impulses are not unique "
                        "(try normal.tol=1e-9 or a larger normal.max_it)",
                        res_lim[0], res_lim[1], it, t0, m, n);
    return fb_err_set(err, FB_ESOLVE, "ccp: APGD did not converge in %lu iterations at t=%g "
                      "(try a larger normal.max_it or normal.tol)", it, t0);
  }
  for (size_t c = 0; c < m; c++)
    for (size_t i = 0; i < n; i++)
      v[i] += W->MD[c * n + i] * W->g[c];
  for (size_t i = 0; i < n; i++)
    x[i] += h * v[i];
  ccp_stats(W, t0, t1, h, y);
  at->tnew = t1;
  return FB_OK;
}

static const fb_integrator_type ccp_n_stepper = {
    .name = "ccp",
    .title = "Anitescu's relaxed cone complementarity per step, APGD (Chrono NSC)",
    .fixed_ok = 1,
    .alloc = ccpw_alloc,
    .free = ccpw_free,
    .reset = ccpw_reset,
    .step = ccpw_step,
};

const fb_normal_type fb_normal_ccp = {
    .name = "ccp",
    .title = "convex relaxation (Anitescu 2006) as Chrono NSC: cone complementarity per step, "
             "APGD, inelastic (fixed step)",
    .reference = "[Anitescu2006] §3; [TasoraAnitescu2011] eqs. 8-13; Mazhar et al. 2015 Alg. 2",
    .params = &ccp_n_set,
    .ns = 0,
    .event = 0,
    .resolve = NULL,
    .stepper = &ccp_n_stepper,
};
