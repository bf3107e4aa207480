/* normal_sap.c — `sap` as a normal treatment: Drake's Semi-Analytic Primal solver with its
 * compliant contact constraint (A. M. Castro, F. N. Permenter, X. Han, "An Unconstrained
 * Convex Formulation of Compliant Contact", IEEE T-RO 39(2) 2023, arXiv 2110.10107
 * [Castro2023]; Drake's SapFrictionConeConstraint); docs/models/sap.md.  A fixed-step scheme
 * that runs the whole plant (the friction-only model is models/sap.c).  Per step of length h:
 *
 *   v* = v_k + h M^-1 f(t_k, x_k, v_k),   v_{k+1} = argmin l(v),   x_{k+1} = x_k + h v_{k+1},
 *   l(v) = 1/2 (v - v*)^T M (v - v*) + sum_c 1/2 |P_F(y_c)|_R^2,   y_c = -R^-1 (v_c - vhat_c)
 *
 * ([Castro2023] §IV-V).  A normal with the friction contact it bounds is one constraint c
 * with contact velocity v_c = (v_t, v_n) = (v_j - u, J_n v), F the friction cone
 * {|gamma_t| <= mu gamma_n}, R = diag(R_t, R_n) and the bias vhat = (0, -phi_0/(h + tau_d)),
 * phi_0 the gap at the step's start (SapFrictionConeConstraint::CalcBiasTerm):
 *
 *   R_n = max(beta^2/(4 pi^2) w, 1/(h (h + tau_d) k)),   R_t = sigma w,
 *
 * w = J_n M^-1 J_n^T (the contact's Delassus diagonal; for a pair the mean of its two
 * diagonal entries: our reading of Drake's diagonal approximation), k the contact stiffness
 * (N/m), tau_d the relaxation (dissipation) time (s), beta the near-rigid threshold, sigma the
 * friction regularization.  In compliance (R_n from k) and contact the normal impulse is
 * gamma_n = h (k (-phi_{k+1}) - k tau_d v_n)_+ with phi_{k+1} = phi_0 + h v_n: a linear
 * spring with the damper d = tau_d k, implicit; near rigid (k so stiff that the contact's
 * period 2 pi / sqrt(k/m) is below beta h) R_n is raised so that the period is beta h.
 * The projection in the R-norm is the Euclidean one in the scaled variables R^1/2 gamma onto
 * the cone of mu~ = mu sqrt(R_t/R_n): inside (stiction) gamma = y, in the polar cone
 * (separation) 0, else onto its boundary.  grad l = M (v - v*) - sum J_c^T gamma_c;
 * H = M + sum J_c^T G_c J_c, G = -dgamma/dv_c: R^-1 inside, 0 separated,
 * R^-1/2 d d^T R^-1/2 sliding (d the boundary's unit ray in scaled variables).  A friction
 * contact with a prescribed normal force takes the segment |gamma_t| <= h mu N (models/sap.c's
 * Huber potential); a normal without friction the half-line.  Newton with Drake's exact line
 * search and stops (models/sap.c); iterations counted as inner.  Statistics as the other
 * time-stepping treatments' (lambda_n = gamma_n / h), with the hover gap.
 *
 * Defaults: sigma = 1e-3 and beta = 1 (Drake's SapFrictionConeConstraint::Parameters);
 * k auto = m v_in^2 / (0.01 h)^2 (penetration 1 % of the drop height, as penalty-n);
 * tau_d auto = 2 zeta(e) / omega_n, omega_n = sqrt(k/m), zeta(e) the linear spring-damper's
 * damping ratio for the scenario's restitution (fb_normal_zeta_of_e): the relaxation time
 * that gives the nominal e to a linear Kelvin-Voigt contact (our choice: Drake's default
 * relaxation time is a material property we did not take over, docs/models/sap.md).
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_math.h"
#include "fb_line_search.h"
#include "fb_models.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"

typedef struct sap_n_params {
  double k, tau_d, e, beta, sigma, rel_tol, max_it;
} sap_n_params;

static const fb_param_desc sap_n_desc[] = {
    {"k", "N/m", "contact stiffness (Drake: point_contact_stiffness)", offsetof(sap_n_params, k),
     NAN, 0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "m v_in^2 / (0.01 h)^2: penetration 1 % of the drop height", NULL},
    {"tau_d", "s", "relaxation (dissipation) time: damper tau_d k (Drake: relaxation_time)",
     offsetof(sap_n_params, tau_d), NAN, 0, INFINITY, FB_PARAM_AUTO,
     "2 zeta(e) / sqrt(k/m): the scenario's e for a linear contact", NULL},
    {"e", "1", "restitution the auto tau_d is calibrated for", offsetof(sap_n_params, e), NAN, 0,
     1, FB_PARAM_AUTO, "the scenario's e", NULL},
    {"beta", "1", "near-rigid threshold: contact period at least beta h (Drake: beta)",
     offsetof(sap_n_params, beta), 1.0, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"sigma", "1", "friction regularization R_t = sigma w (Drake: sigma)",
     offsetof(sap_n_params, sigma), 1e-3, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"rel_tol", "1", "Newton stop: |grad l| below rel_tol of the momentum scale (Drake: "
     "rel_tolerance)", offsetof(sap_n_params, rel_tol), 1e-6, 0, 1, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"max_it", "1", "Newton iterations per step (Drake: max_iterations)",
     offsetof(sap_n_params, max_it), 100, 1, 1e6, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set sap_n_set = {sizeof(sap_n_params), 7, sap_n_desc};

static int sap_n_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  sap_n_params *p = pp;
  (void)err;
  if (isnan(p->e))
    p->e = sc->e;
  if (isnan(p->k)) {
    const double d = 0.01 * sc->h;
    p->k = sc->m * sc->v_in * sc->v_in / (d * d);
  }
  if (isnan(p->tau_d))
    p->tau_d = 2.0 * fb_normal_zeta_of_e(p->e) / sqrt(p->k / sc->m);
  return FB_OK;
}

typedef struct sapw {
  const fb_problem *pb;
  const fb_int_opts *o;
  fb_impact_stats *st;
  gsl_matrix *H;
  double *buf;
  double *f, *a, *v0, *vs, *v, *dv, *gr, *jg, *Md, *tmp;           /* n */
  double *P, *Rn, *Rtn, *vhat, *wn, *gk, *vn0, *Jndv;               /* nn */
  double *T, *mu, *us, *beta, *Rt, *Jtdv;                           /* nc: friction */
  double *Gs;                                                       /* 4 per normal, 1 per nc */
  long *fric_of;                                                    /* nc: its normal or -1 */
  int *inphase;
  int impacted;
  fb_line_memo memo; /* the line search's last two points v + a dv (sap_n_dl) */
} sapw;

static void sapw_free(void *ws)
{
  sapw *W = ws;
  if (W == NULL)
    return;
  if (W->H != NULL)
    gsl_matrix_free(W->H);
  free(W->buf);
  free(W->fric_of);
  free(W->inphase);
  free(W);
}

static int sapw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                      const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  sapw *W = calloc(1, sizeof *W);
  *out = NULL;
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  W->H = gsl_matrix_alloc(n, n);
  W->buf = calloc(12 * n + 12 * nn + 7 * nc + 1, sizeof(double));
  W->fric_of = calloc(nc + 1, sizeof(long));
  W->inphase = calloc(nn + 1, sizeof(int));
  if (W->H == NULL || W->buf == NULL || W->fric_of == NULL || W->inphase == NULL) {
    sapw_free(W);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  W->pb = pb;
  W->o = o;
  W->st = o->stats;
  double *q = W->buf;
  double **nv[] = {&W->f, &W->a, &W->v0, &W->vs, &W->v, &W->dv, &W->gr, &W->jg, &W->Md, &W->tmp,
                   &W->memo.at[0], &W->memo.at[1]};
  for (size_t i = 0; i < sizeof nv / sizeof *nv; i++)
    *nv[i] = q, q += n;
  double **mv[] = {&W->P, &W->Rn, &W->Rtn, &W->vhat, &W->wn, &W->gk, &W->vn0, &W->Jndv};
  for (size_t i = 0; i < sizeof mv / sizeof *mv; i++)
    *mv[i] = q, q += nn;
  double **cv[] = {&W->T, &W->mu, &W->us, &W->beta, &W->Rt, &W->Jtdv};
  for (size_t i = 0; i < sizeof cv / sizeof *cv; i++)
    *cv[i] = q, q += nc;
  W->Gs = q; /* 4 nn + nc */
  for (size_t j = 0; j < n; j++)
    W->Md[j] = 1.0 / pl->M[j * n + j];
  for (size_t i = 0; i < nc; i++)
    W->fric_of[i] = -1;
  for (size_t k = 0; k < nn; k++) {
    fb_plant_solve_mass(pl, pl->normal[k].Jn, W->a);
    W->wn[k] = fb_dotn(pl->normal[k].Jn, W->a, n);
    if (pl->normal[k].fric >= 0)
      W->fric_of[pl->normal[k].fric] = (long)k;
  }
  *out = W;
  return FB_OK;
}

static int sapw_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  sapw *W = ws;
  const fb_plant *pl = W->pb->plant;
  (void)y, (void)cnt;
  if (at->seg > 0)
    return FB_OK;
  for (size_t k = 1; k < pl->nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "sap: every normal of the plant must use it");
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "sap: a fixed step h > 0 is needed");
  memset(W->inphase, 0, pl->nn * sizeof(int));
  W->impacted = 0;
  at->report = 1;
  return FB_OK;
}

/* The impulses at v: gamma_n into P, gamma_t into T, sum J^T gamma into jg; the constraint
 * cost returned; G blocks into Gs when G != 0 ((t,t), (t,n), (n,t), (n,n) per normal, one
 * per friction contact). */
static double sap_n_impulses(sapw *W, const double *v, int G)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  double cost = 0.0;
  memset(W->jg, 0, n * sizeof(double));
  for (size_t k = 0; k < nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const long fi = nm->fric;
    const double Rn = W->Rn[k], yn = -(fb_dotn(nm->Jn, v, n) - W->vhat[k]) / Rn;
    double *g4 = W->Gs + 4 * k;
    if (fi < 0) { /* the half-line gamma_n >= 0 */
      W->P[k] = fmax(yn, 0.0);
      cost += 0.5 * Rn * W->P[k] * W->P[k];
      if (G)
        g4[3] = yn > 0.0 ? 1.0 / Rn : 0.0;
    } else { /* the cone, projected in the scaled variables s = R^1/2 y */
      const size_t j = pl->contact[fi].dof;
      const double Rt = W->Rtn[k], mu = W->mu[fi];
      const double yt = -(v[j] - W->us[fi]) / Rt, srn = sqrt(Rn), srt = sqrt(Rt);
      const double sn = srn * yn, st = srt * yt, mt = mu * srt / srn, at = fabs(st);
      double gn, gt;
      if (at <= mt * sn) { /* stiction */
        gn = yn, gt = yt;
        if (G)
          g4[0] = 1.0 / Rt, g4[1] = g4[2] = 0.0, g4[3] = 1.0 / Rn;
      } else if (mt * at <= -sn) { /* separation */
        gn = gt = 0.0;
        if (G)
          g4[0] = g4[1] = g4[2] = g4[3] = 0.0;
      } else { /* sliding: onto the ray d = (sgn(st) mt, 1)/sqrt(1 + mt^2) */
        const double c = 1.0 / sqrt(1.0 + mt * mt), dt = fb_sgn(st) * mt * c, dn = c;
        const double proj = dt * st + dn * sn;
        gt = proj * dt / srt;
        gn = proj * dn / srn;
        if (G) { /* R^-1/2 d d^T R^-1/2 */
          g4[0] = dt * dt / Rt;
          g4[1] = g4[2] = dt * dn / (srt * srn);
          g4[3] = dn * dn / Rn;
        }
      }
      W->P[k] = gn;
      W->T[fi] = gt;
      cost += 0.5 * (Rt * gt * gt + Rn * gn * gn);
      W->jg[j] += gt;
    }
    for (size_t i = 0; i < n; i++)
      W->jg[i] += nm->Jn[i] * W->P[k];
  }
  for (size_t i = 0; i < nc; i++) { /* prescribed normal force: the segment (Huber) */
    if (W->fric_of[i] >= 0)
      continue;
    const size_t j = pl->contact[i].dof;
    const double R = W->Rt[i], b = W->beta[i], vt = v[j] - W->us[i], w = fabs(vt);
    const int in = w <= R * b;
    W->T[i] = in ? -vt / R : -b * fb_sgn(vt);
    cost += in ? 0.5 * w * w / R : b * w - 0.5 * R * b * b;
    W->jg[j] += W->T[i];
    if (G)
      W->Gs[4 * nn + i] = in ? 1.0 / R : 0.0;
  }
  return cost;
}

/* l(v) with grad l = M (v - v*) - J^T gamma into gr (G blocks when G). */
static double sap_n_cost(sapw *W, const double *v, int G)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n;
  double cost = sap_n_impulses(W, v, G);
  for (size_t j = 0; j < n; j++) {
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
      s += pl->M[j * n + k] * (v[k] - W->vs[k]);
    cost += 0.5 * (v[j] - W->vs[j]) * s;
    W->gr[j] = s - W->jg[j];
  }
  return cost;
}

/* dv^T (J^T G J) dv from the G blocks and J dv (Jndv, Jtdv). */
static double sap_n_dGd(const sapw *W)
{
  const fb_plant *pl = W->pb->plant;
  const size_t nn = pl->nn, nc = pl->nc;
  double s = 0.0;
  for (size_t k = 0; k < nn; k++) {
    const double *g4 = W->Gs + 4 * k, dn = W->Jndv[k];
    const long fi = pl->normal[k].fric;
    const double dt = fi >= 0 ? W->Jtdv[fi] : 0.0;
    s += g4[0] * dt * dt + 2.0 * g4[1] * dt * dn + g4[3] * dn * dn;
  }
  for (size_t i = 0; i < nc; i++)
    if (W->fric_of[i] < 0)
      s += W->Gs[4 * nn + i] * W->Jtdv[i] * W->Jtdv[i];
  return s;
}

/* dl/dalpha at v + a dv (second derivative into *d2).  Both depend on a only through the
 * rounded point v + a dv: the last two points and their values are kept, cleared per line
 * search (models/sap.c's sap_dl: the search's last bisections move a by less than an ulp of
 * v), and a repeated point returns the values its own evaluation gave. */
static double sap_n_dl(sapw *W, double a, double *d2)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n;
  for (size_t j = 0; j < n; j++)
    W->tmp[j] = W->v[j] + a * W->dv[j];
  double d1;
  if (fb_line_memo_find(&W->memo, W->tmp, n, &d1, d2))
    return d1;
  sap_n_cost(W, W->tmp, 1);
  d1 = 0.0;
  *d2 = sap_n_dGd(W);
  for (size_t j = 0; j < n; j++) {
    d1 += W->gr[j] * W->dv[j];
    for (size_t k = 0; k < n; k++)
      *d2 += W->dv[j] * pl->M[j * n + k] * W->dv[k];
  }
  fb_line_memo_put(&W->memo, W->tmp, n, d1, *d2);
  return d1;
}

static double sap_n_line_dl(void *ctx, double a, double *d2)
{
  return sap_n_dl(ctx, a, d2);
}

/* Drake's exact line search (fb_line_search_exact, as models/sap.c's sap_line). */
static double sap_n_line(sapw *W, double amax)
{
  fb_line_memo_clear(&W->memo); /* v and dv are new: no point evaluated yet */
  return fb_line_search_exact(amax, sap_n_line_dl, W);
}

/* H = M + sum J^T G J into W->H (the gradient and G blocks are current). */
static void sap_n_hessian(sapw *W)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  for (size_t j = 0; j < n; j++)
    for (size_t q = 0; q < n; q++)
      gsl_matrix_set(W->H, j, q, pl->M[j * n + q]);
  for (size_t k = 0; k < nn; k++) {
    const double *Jn = pl->normal[k].Jn, *g4 = W->Gs + 4 * k;
    const long fi = pl->normal[k].fric;
    for (size_t j = 0; j < n; j++)
      for (size_t q = 0; q < n; q++) {
        const double tj = fi >= 0 && pl->contact[fi].dof == j, tq = fi >= 0 && pl->contact[fi].dof == q;
        const double add = g4[0] * tj * tq + g4[1] * (tj * Jn[q] + Jn[j] * tq) + g4[3] * Jn[j] * Jn[q];
        gsl_matrix_set(W->H, j, q, gsl_matrix_get(W->H, j, q) + add);
      }
  }
  for (size_t i = 0; i < nc; i++)
    if (W->fric_of[i] < 0) {
      const size_t j = pl->contact[i].dof;
      gsl_matrix_set(W->H, j, j, gsl_matrix_get(W->H, j, j) + W->Gs[4 * nn + i]);
    }
}

/* Newton with exact line search on grad l = 0 from W->v. */
static int sap_n_newton(sapw *W, const sap_n_params *p, double t, fb_counters *cnt, fb_err *err)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  double cost = sap_n_cost(W, W->v, 1);
  for (unsigned long it = 0; it < (unsigned long)p->max_it; it++) {
    double res = 0.0, pn = 0.0, jn = 0.0;
    for (size_t j = 0; j < n; j++) {
      const double pm = fb_dotn(pl->M + j * n, W->v, n);
      res += W->gr[j] * W->gr[j] * W->Md[j];
      pn += pm * pm * W->Md[j];
      jn += W->jg[j] * W->jg[j] * W->Md[j];
    }
    if (sqrt(res) < 1e-14 + p->rel_tol * sqrt(fmax(pn, jn)))
      return FB_OK;
    sap_n_hessian(W);
    gsl_vector_view b = gsl_vector_view_array(W->gr, n), x = gsl_vector_view_array(W->dv, n);
    if (gsl_linalg_cholesky_decomp1(W->H) != GSL_SUCCESS ||
        gsl_linalg_cholesky_solve(W->H, &b.vector, &x.vector) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "sap: Newton matrix not positive definite at t=%g", t);
    for (size_t j = 0; j < n; j++)
      W->dv[j] = -W->dv[j];
    for (size_t k = 0; k < nn; k++)
      W->Jndv[k] = fb_dotn(pl->normal[k].Jn, W->dv, n);
    for (size_t i = 0; i < nc; i++)
      W->Jtdv[i] = W->dv[pl->contact[i].dof];
    const double alpha = sap_n_line(W, 1.5);
    for (size_t j = 0; j < n; j++)
      W->v[j] += alpha * W->dv[j];
    cnt->ninner++;
    const double c1 = sap_n_cost(W, W->v, 1);
    if (fabs(c1 - cost) < 1e-30 + 1e-15 * 0.5 * fabs(c1 + cost))
      return FB_OK;
    cost = c1;
  }
  return fb_err_set(err, FB_ESOLVE, "sap: Newton did not converge in %lu iterations at t=%g",
                    (unsigned long)p->max_it, t);
}

/* The statistics after the step from t0 to t1 (fb_stepping_stats: moreau-jean's, with the
 * hover gap). */
static void sap_stats(sapw *W, double t0, double t1, double h, double *y)
{
  const fb_plant *pl = W->pb->plant;
  const fb_stepping_step s = {.P = W->P, .vn0 = W->vn0, .gk = W->gk,
                              .w0 = W->wn[0], .us = W->us, .mu = W->mu,
                              .f = W->f, .a = W->a, .rows_slip = NULL, .ctx = NULL};
  fb_stepping_stats(pl, W->st, &s, W->inphase, &W->impacted, t0, t1, h, y);
}

static int sapw_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  sapw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  const sap_n_params *p = (const sap_n_params *)pl->normal[0].np_;
  double *x = y, *v = y + n;
  const double t0 = at->t;
  double h = W->o->h;
  if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
    h = pl->T - t0; /* land on T */
  const double t1 = t0 + h;
  memcpy(W->v0, v, n * sizeof(double));
  fb_plant_smooth_force(pl, t0, x, v, W->f);
  cnt->nfe++;
  fb_plant_solve_mass(pl, W->f, W->a);
  for (size_t i = 0; i < n; i++)
    W->vs[i] = v[i] + h * W->a[i];
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    double u1;
    fb_contact_in_at(pl, i, t1, &ci, &u1);
    const size_t j = pl->contact[i].dof;
    fb_contact_state cs0;
    fb_plant_contact_at(pl, i, t0, &cs0);
    W->us[i] = u1;
    W->mu[i] = fb_friction_mu(&pl->contact[i].law, fabs(W->v0[j] - cs0.u), NULL);
    W->beta[i] = h * W->mu[i] * ci.N;
    W->Rt[i] = p->sigma / pl->M[j * n + j]; /* w = M^-1 on a DOF contact of a diagonal M */
  }
  for (size_t k = 0; k < nn; k++) { /* R_n, R_t, bias (SapFrictionConeConstraint) */
    const fb_normal *nm = &pl->normal[k];
    const sap_n_params *q = (const sap_n_params *)nm->np_;
    W->vn0[k] = fb_dotn(nm->Jn, W->v0, n);
    W->gk[k] = fb_dotn(nm->Jn, x, n) + nm->g0;
    double w = W->wn[k];
    if (nm->fric >= 0)
      w = 0.5 * (w + 1.0 / pl->M[pl->contact[nm->fric].dof * (n + 1)]);
    W->Rn[k] = fmax(q->beta * q->beta / (4.0 * M_PI * M_PI) * w,
                    1.0 / (h * (h + q->tau_d) * q->k));
    W->Rtn[k] = q->sigma * w;
    W->vhat[k] = -W->gk[k] / (h + q->tau_d);
  }
  memcpy(W->v, v, n * sizeof(double)); /* warm start: the previous velocity */
  const int st = sap_n_newton(W, p, t0, cnt, err);
  if (st != FB_OK) {
    at->keep = 1;
    at->tnew = t0;
    return st;
  }
  sap_n_impulses(W, W->v, 0);
  for (size_t i = 0; i < n; i++) {
    v[i] = W->v[i];
    x[i] += h * v[i];
  }
  sap_stats(W, t0, t1, h, y);
  at->tnew = t1;
  return FB_OK;
}

static const fb_integrator_type sap_n_stepper = {
    .name = "sap",
    .title = "SAP: convex primal problem in velocities with compliant contact (Drake)",
    .fixed_ok = 1,
    .alloc = sapw_alloc,
    .free = sapw_free,
    .reset = sapw_reset,
    .step = sapw_step,
};

const fb_normal_type fb_normal_sap = {
    .name = "sap",
    .title = "Drake's SAP: compliant normal (stiffness k, relaxation time tau_d, near-rigid "
             "beta), regularized friction cone, Newton with exact line search (fixed step)",
    .reference = "[Castro2023] §IV-VI; Drake's SapFrictionConeConstraint",
    .params = &sap_n_set,
    .ns = 0,
    .event = 0,
    .resolve = sap_n_resolve,
    .stepper = &sap_n_stepper,
};
