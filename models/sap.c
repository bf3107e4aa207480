/* sap.c — Drake's Semi-Analytic Primal solver (A. M. Castro, F. N. Permenter, X. Han, "An
 * Unconstrained Convex Formulation of Compliant Contact", IEEE T-RO 39(2) 2023, arXiv
 * 2110.10107 [Castro2023]; Drake's SapSolver and SapFrictionConeConstraint);
 * docs/models/sap.md.  This file is the model and its scheme for plants whose normal force
 * is prescribed (every friction scenario): the friction part of SAP's contact constraint.
 * Plants with a normal direction run the treatment `normal=sap` (contact/normal_sap.c),
 * where the compliant normal with its relaxation time tau_d and near-rigid threshold beta
 * lives.
 *
 * The primal problem in velocities ([Castro2023] §IV, the unconstrained convex
 * formulation): with the free motion v* = v^n + h M^-1 (f(t_n, x_n, v_n) - D v^n - K x^n)
 * (the plant's smooth forces at the step's start, as Drake's discrete update takes them
 * explicitly), v^{n+1} minimizes
 *     l(v) = 1/2 (v - v*)^T M (v - v*) + sum_i l_i(v_c,i),   v_c,i = J_i v - u_i(t_{n+1}),
 * and x^{n+1} = x^n + h v^{n+1}.  Contact i's impulse is the regularized projection
 * ([Castro2023] §V; SapFrictionConeConstraint::Project)
 *     gamma_i = P(y_i),   y_i = -v_c,i / R_t,i,   R_t,i = sigma w_i,
 * P the projection onto the friction set at the prescribed normal impulse h N: the disc
 * |gamma| <= beta_i = h S_i(|v_c,i^n|) (a 1-D contact: the segment), w_i the contact's
 * Delassus diagonal (W = J M^-1 J^T; the mean of the block's diagonal for a 2-D contact: our
 * reading of Drake's "diagonal approximation"), sigma = 1e-3 (Drake's default).  Its
 * potential is the Huber function l_i(v_c) = |v_c|^2/(2 R_t) for |v_c| <= R_t beta, else
 * beta |v_c| - R_t beta^2/2, convex, so l is strictly convex (M > 0) and grad l = 0 is
 *     M (v - v*) = J^T gamma(v):   momentum balance.
 * Stiction is regularized: inside |v_c| <= R_t beta = sigma w h S the contact creeps with
 * gamma = -v_c/R_t; a push r S below breakaway creeps at r sigma w h S (Drake's estimate of
 * the slip bound, v_s ~ sigma h g for w S = g), dissipating gamma . v_c = -|v_c|^2/R_t <= 0.
 *
 * Newton with exact line search ([Castro2023] §VI; Drake's kExact): direction
 * dv = -H^-1 grad l, H = M + sum J^T G J, G = -dgamma/dv_c = I/R_t inside, 0 outside (1-D),
 * (beta/|v_c|)(I - t t^T) outside (2-D); the step alpha in (0, alpha_max = 1.5] the root of
 * dl/dalpha (monotone: l is convex), by Newton on dl/dalpha safeguarded by bisection, at
 * most 100 iterations (Drake's).  Stop when |grad l| < eps_a + eps_r max(|p|, |J^T gamma|)
 * in the norm |x|_D = |diag(M)^{-1/2} x|, p = M v (Drake's optimality condition:
 * eps_a = 1e-14, eps_r = 1e-6), or when the cost stalls (|dl| < 1e-30 + 1e-15 l);
 * max_it = 100 Newton iterations (Drake's); more fail the step (FB_ESOLVE).  Dense: H is
 * n x n, factored by Cholesky per iteration (our systems are small).
 *
 * State per contact (nz = 2): F_step (N: gamma/h) and stick_step (1 inside the regularized
 * stiction region).  Counters: nfe one per step, ninner Newton iterations.  No allocation
 * after alloc.
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_line_search.h"
#include "fb_models.h"
#include "fb_util.h"
#include "fb_plant_int.h"

typedef struct sap_params {
  double sigma;   /* dimensionless friction regularization: R_t = sigma w */
  double rel_tol; /* optimality condition, relative */
  double abs_tol; /* optimality condition, absolute (sqrt(J)) */
  double max_it;  /* Newton iterations per step */
} sap_params;

static const fb_param_desc sap_desc[] = {
    {"sigma", "1", "friction regularization R_t = sigma w (Drake: SapFrictionConeConstraint "
     "sigma)", offsetof(sap_params, sigma), 1e-3, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"rel_tol", "1", "Newton stop: |grad l| below rel_tol of the momentum scale (Drake: "
     "rel_tolerance)", offsetof(sap_params, rel_tol), 1e-6, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"abs_tol", "J^0.5", "Newton stop, absolute part (Drake: abs_tolerance)",
     offsetof(sap_params, abs_tol), 1e-14, 0, 1, 0, NULL, NULL},
    {"max_it", "1", "Newton iterations per step (Drake: max_iterations)",
     offsetof(sap_params, max_it), 100, 1, 1e6, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set sap_set = {sizeof(sap_params), 4, sap_desc};
typedef struct sap_ws {
  const fb_plant *pl;
  sap_params p;
  size_t n, nc;
  gsl_matrix *H;
  double *block;
  double *f, *a, *vstar, *v, *dv, *gr, *vt, *Jdv, *Md;  /* n (vt, Jdv: nc) */
  double *u1, *beta, *Rt, *gam, *G;                    /* nc, G: nc nc */
  double *J;                                           /* nc x n: the contact rows */
  double jmax;           /* max |J_ij| */
  size_t *jnz_at, *jnz; /* per DOF j: the contacts i with J_ij != 0 are jnz[jnz_at[j] ..
                         * jnz_at[j+1]), ascending; jnz NULL: H dense (sap_hessian) */
  fb_line_memo memo;      /* the line search's last two points v + a dv (sap_dl) */
  double dMd;             /* dv^T M dv of the current line search */
  double *Rinv;           /* nc: 1/R_t */
} sap_ws;

static void sap_free(void *wsv)
{
  sap_ws *ws = wsv;
  if (ws == NULL)
    return;
  if (ws->H != NULL)
    gsl_matrix_free(ws->H);
  free(ws->block);
  free(ws->jnz_at);
  free(ws->jnz);
  free(ws);
}

/* Contact velocities v_c = J v - u into vt; impulses gamma(v_c), the Huber cost into the
 * return value (0 unless with_cost: the line search needs none, and its divisions are a
 * fifth of the scheme's time), and (when G != NULL) G = -dgamma/dv_c (block diagonal;
 * 1/R_t from ws->Rinv, the same division done once). */
static double sap_contacts(sap_ws *ws, const double *v, double *vt, double *gam, double *G,
                           int with_cost)
{
  const size_t nc = ws->nc, n = ws->n;
  double cost = 0.0;
  if (G != NULL)
    memset(G, 0, nc * nc * sizeof(double));
  for (size_t i = 0; i < nc; i++) {
    double s = -ws->u1[i];
    for (size_t j = 0; j < n; j++)
      s += ws->J[i * n + j] * v[j];
    vt[i] = s;
  }
  for (size_t i = 0; i < nc; i++) {
    const double R = ws->Rt[i], b = ws->beta[i];
    if (ws->pl->contact[i].pair != FB_PAIR_X) { /* the segment */
      const double w = fabs(vt[i]);
      const int in = w <= R * b;
      gam[i] = in ? -vt[i] / R : -b * fb_sgn(vt[i]);
      if (with_cost)
        cost += in ? 0.5 * w * w / R : b * w - 0.5 * R * b * b;
      if (G != NULL)
        G[i * nc + i] = in ? ws->Rinv[i] : 0.0;
      continue;
    }
    const size_t e = i + 1; /* the disc: the two entries of a 2-D contact */
    const double w = hypot(vt[i], vt[e]);
    if (w <= R * b) {
      gam[i] = -vt[i] / R;
      gam[e] = -vt[e] / R;
      if (with_cost)
        cost += 0.5 * w * w / R;
      if (G != NULL)
        G[i * nc + i] = G[e * nc + e] = ws->Rinv[i];
    } else {
      const double t0 = vt[i] / w, t1 = vt[e] / w, q = b / w;
      gam[i] = -b * t0;
      gam[e] = -b * t1;
      if (with_cost)
        cost += b * w - 0.5 * R * b * b;
      if (G != NULL) {
        G[i * nc + i] = q * (1.0 - t0 * t0);
        G[e * nc + e] = q * (1.0 - t1 * t1);
        G[i * nc + e] = G[e * nc + i] = -q * t0 * t1;
      }
    }
    i = e;
  }
  return cost;
}

/* The cost l(v) (0 unless with_cost), with grad l = M (v - v*) - J^T gamma into gr (and G
 * when asked). */
static double sap_cost(sap_ws *ws, const double *v, double *gr, double *G, int with_cost)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  double cost = sap_contacts(ws, v, ws->vt, ws->gam, G, with_cost), kin = 0.0;
  for (size_t j = 0; j < n; j++) {
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
      s += pl->M[j * n + k] * (v[k] - ws->vstar[k]);
    if (with_cost)
      kin += 0.5 * (v[j] - ws->vstar[j]) * s;
    if (gr != NULL) {
      for (size_t i = 0; i < nc; i++)
        s -= ws->J[i * n + j] * ws->gam[i];
      gr[j] = s;
    }
  }
  return cost + kin;
}

/* dl/dalpha and d2l/dalpha2 at v + a dv (Jdv = J dv precomputed).  Both depend on alpha
 * only through the rounded point v + a dv, so the last two points and their values are
 * kept (ws->memo, cleared per line search): near the root the search's last bisections
 * move alpha by less than an ulp of v, and v + a dv takes one of two values (about 20
 * evaluations a step on the belt oscillator, 2-3 distinct).  A repeated point returns the
 * values its own evaluation gave: the same numbers, one cost evaluation fewer. */
static double sap_dl(sap_ws *ws, const double *v, const double *dv, double a, double *d2)
{
  const size_t n = ws->n, nc = ws->nc;
  for (size_t j = 0; j < n; j++)
    ws->a[j] = v[j] + a * dv[j];
  double d1;
  if (fb_line_memo_find(&ws->memo, ws->a, n, &d1, d2))
    return d1;
  sap_cost(ws, ws->a, ws->gr, ws->G, 0);
  d1 = 0.0;
  *d2 = ws->dMd; /* the sum of dv_j M_jk dv_k, as it was summed here from 0 */
  for (size_t j = 0; j < n; j++)
    d1 += ws->gr[j] * dv[j];
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nc; k++)
      *d2 += ws->Jdv[i] * ws->G[i * nc + k] * ws->Jdv[k];
  fb_line_memo_put(&ws->memo, ws->a, n, d1, *d2);
  return d1;
}

/* sap_dl along (v, dv) as fb_line_dl */
typedef struct sap_line_at {
  sap_ws *ws;
  const double *v, *dv;
} sap_line_at;

static double sap_line_dl(void *ctx, double a, double *d2)
{
  const sap_line_at *la = ctx;
  return sap_dl(la->ws, la->v, la->dv, a, d2);
}

/* The exact line search ([Castro2023] §VI; Drake's kExact: fb_line_search_exact) along
 * dv from v, with dv^T M dv computed once for it. */
static double sap_line(sap_ws *ws, const double *v, const double *dv, double amax)
{
  fb_line_memo_clear(&ws->memo); /* v and dv are new: no point evaluated yet */
  const size_t n = ws->n;
  ws->dMd = 0.0; /* dv^T M dv, d2l/dalpha2's first part (sap_dl), in its order */
  for (size_t j = 0; j < n; j++)
    for (size_t k = 0; k < n; k++)
      ws->dMd += dv[j] * ws->pl->M[j * n + k] * dv[k];
  sap_line_at la = {ws, v, dv};
  return fb_line_search_exact(amax, sap_line_dl, &la);
}

/* H = M + J^T G J into ws->H: H_jq = M_jq + sum over i, l (in that order) of
 * J_ij G_il J_lq.  A term with J_ij = 0 or J_lq = 0 is a zero (G finite), and adding a zero
 * leaves a sum that is not -0 unchanged; the sum starts at M_jq, never -0 here (sap_alloc
 * checks), and stays off -0 (x + y = -0 needs x = y = -0).  So the sum over the contacts that
 * touch DOF j and DOF q only (ws->jnz, in ascending order) is the same number: a chain of n
 * blocks has one contact per DOF, n^2 terms instead of n^4.  When a product could be
 * non-finite (max|J| max|G| max|J| overflows, or G has a NaN: a run blowing up) every term is
 * summed, as the dense formula does. */
static void sap_hessian(sap_ws *ws)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  double gmax = 0.0;
  for (size_t k = 0; k < nc * nc; k++)
    gmax = fabs(ws->G[k]) > gmax || isnan(ws->G[k]) ? fabs(ws->G[k]) : gmax;
  /* every product J_ij G_il (J_lq) then finite: a skipped one is a true zero */
  const int sparse = ws->jnz != NULL && isfinite(ws->jmax * gmax * ws->jmax);
  for (size_t j = 0; j < n; j++)
    for (size_t q = 0; q < n; q++) {
      double s = pl->M[j * n + q];
      if (sparse) {
        for (size_t a = ws->jnz_at[j]; a < ws->jnz_at[j + 1]; a++)
          for (size_t b = ws->jnz_at[q]; b < ws->jnz_at[q + 1]; b++) {
            const size_t i = ws->jnz[a], l = ws->jnz[b];
            s += ws->J[i * n + j] * ws->G[i * nc + l] * ws->J[l * n + q];
          }
      } else {
        for (size_t i = 0; i < nc; i++)
          for (size_t l = 0; l < nc; l++)
            s += ws->J[i * n + j] * ws->G[i * nc + l] * ws->J[l * n + q];
      }
      gsl_matrix_set(ws->H, j, q, s);
    }
}

/* Newton on grad l = 0 from v (in ws->v); 0 when converged. */
static int sap_newton(sap_ws *ws, double t, fb_counters *cnt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  double cost = sap_cost(ws, ws->v, ws->gr, ws->G, 1);
  for (unsigned long k = 0; k < (unsigned long)ws->p.max_it; k++) {
    /* the optimality condition in the D-norm */
    double res = 0.0, pn = 0.0, jn = 0.0;
    for (size_t j = 0; j < n; j++) {
      double p = 0.0, jg = 0.0;
      for (size_t q = 0; q < n; q++)
        p += pl->M[j * n + q] * ws->v[q];
      for (size_t i = 0; i < nc; i++)
        jg += ws->J[i * n + j] * ws->gam[i];
      res += ws->gr[j] * ws->gr[j] * ws->Md[j];
      pn += p * p * ws->Md[j];
      jn += jg * jg * ws->Md[j];
    }
    if (sqrt(res) < ws->p.abs_tol + ws->p.rel_tol * sqrt(fmax(pn, jn)))
      return FB_OK;
    /* H = M + J^T G J; dv = -H^-1 grad */
    sap_hessian(ws);
    gsl_vector_view b = gsl_vector_view_array(ws->gr, n), x = gsl_vector_view_array(ws->dv, n);
    if (gsl_linalg_cholesky_decomp1(ws->H) != GSL_SUCCESS ||
        gsl_linalg_cholesky_solve(ws->H, &b.vector, &x.vector) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "sap: Newton matrix not positive definite at t=%.17g",
                        t);
    for (size_t j = 0; j < n; j++)
      ws->dv[j] = -ws->dv[j];
    for (size_t i = 0; i < nc; i++) {
      double s = 0.0;
      for (size_t j = 0; j < n; j++)
        s += ws->J[i * n + j] * ws->dv[j];
      ws->Jdv[i] = s;
    }
    const double alpha = sap_line(ws, ws->v, ws->dv, 1.5);
    for (size_t j = 0; j < n; j++)
      ws->v[j] += alpha * ws->dv[j];
    cnt->ninner++;
    const double c1 = sap_cost(ws, ws->v, ws->gr, ws->G, 1);
    if (fabs(c1 - cost) < 1e-30 + 1e-15 * 0.5 * fabs(c1 + cost))
      return FB_OK; /* Drake's cost condition: round-off stalls the decrease */
    cost = c1;
  }
  return fb_err_set(err, FB_ESOLVE, "sap: Newton did not converge in %lu iterations at "
                    "t=%.17g", (unsigned long)ws->p.max_it, t);
}

static double sap_in(double t, double ta, double tb)
{
  if (t <= ta)
    return nextafter(t, INFINITY);
  if (t >= tb)
    return nextafter(t, -INFINITY);
  return t;
}

static int sap_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  sap_ws *ws = wsv;
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double h = at->dt;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = sap_in(at->t, at->tseg, at->t1), t1 = sap_in(at->tnew, at->tseg, at->t1);
  fb_plant_smooth_force(pl, t0, x, v, ws->f);
  cnt->nfe++;
  fb_plant_solve_mass(pl, ws->f, ws->a);
  for (size_t j = 0; j < n; j++)
    ws->vstar[j] = v[j] + h * ws->a[j];
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_state cs0;
    fb_contact_in_at(pl, i, t1, &ci, &ws->u1[i]);
    fb_plant_contact_at(pl, i, t0, &cs0);
    double w = fabs(fb_contact_vel(pl, i, v) - cs0.u);
    if (pl->contact[i].pair != FB_PAIR_NONE) {
      const size_t o = fb_contact_partner(pl, i);
      fb_contact_state cso;
      fb_plant_contact_at(pl, o, t0, &cso);
      w = hypot(w, fb_contact_vel(pl, o, v) - cso.u);
    }
    ws->beta[i] = h * fb_contact_S(&ci, w, NULL);
  }
  memcpy(ws->v, v, n * sizeof(double)); /* warm start: the previous step's velocity */
  const int st = sap_newton(ws, at->t, cnt, err);
  if (st != FB_OK)
    return st;
  /* ws->vt and ws->gam hold v_c and gamma at the solution: Newton's last cost evaluation
   * was there (sap_newton returns right after one) */
  for (size_t j = 0; j < n; j++) {
    v[j] = ws->v[j];
    x[j] += h * v[j];
  }
  for (size_t i = 0; i < nc; i++) {
    double w = fabs(ws->vt[i]);
    if (pl->contact[i].pair != FB_PAIR_NONE)
      w = hypot(ws->vt[i], ws->vt[fb_contact_partner(pl, i)]);
    z[2 * i] = ws->gam[i] / h;
    z[2 * i + 1] = w <= ws->Rt[i] * ws->beta[i];
  }
  return FB_OK;
}

/* The contacts touching each DOF (ws->jnz, sap_hessian), when the sparse sum is exact:
 * J finite and no M_jq = -0; else jnz stays NULL. */
static int sap_sparsity(sap_ws *ws)
{
  const size_t n = ws->n, nc = ws->nc;
  for (size_t k = 0; k < n * n; k++)
    if (ws->pl->M[k] == 0.0 && signbit(ws->pl->M[k]))
      return FB_OK;
  for (size_t k = 0; k < nc * n; k++) {
    if (!isfinite(ws->J[k]))
      return FB_OK;
    ws->jmax = fmax(ws->jmax, fabs(ws->J[k]));
  }
  ws->jnz_at = calloc(n + 1, sizeof(size_t));
  ws->jnz = calloc(nc * n + 1, sizeof(size_t));
  if (ws->jnz_at == NULL || ws->jnz == NULL)
    return FB_ENOMEM;
  size_t m = 0;
  for (size_t j = 0; j < n; j++) {
    ws->jnz_at[j] = m;
    for (size_t i = 0; i < nc; i++)
      if (ws->J[i * n + j] != 0.0)
        ws->jnz[m++] = i;
  }
  ws->jnz_at[n] = m;
  return FB_OK;
}

static int sap_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_sap)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the sap model, not %s", type->name,
                      pb->model->type->name);
  if (pl->nn > 0)
    return fb_err_set(err, FB_EUNSUP, "%s: a plant with normal directions runs the treatment "
                      "normal=sap (docs/models/sap.md)", type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  sap_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pl = pl;
  ws->p = *(const sap_params *)pb->model->params;
  ws->n = n;
  ws->nc = nc;
  ws->H = gsl_matrix_alloc(n, n);
  ws->block = calloc(9 * n + 8 * nc + 2 * nc * nc + nc * n + 1, sizeof(double));
  if (ws->H == NULL || ws->block == NULL) {
    sap_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  double *b = ws->block;
  ws->f = b, b += n;
  ws->a = b, b += n;
  ws->vstar = b, b += n;
  ws->v = b, b += n;
  ws->dv = b, b += n;
  ws->gr = b, b += n;
  ws->Md = b, b += n;
  ws->memo.at[0] = b, b += n;
  ws->memo.at[1] = b, b += n;
  ws->vt = b, b += nc;
  ws->Jdv = b, b += nc;
  ws->u1 = b, b += nc;
  ws->beta = b, b += nc;
  ws->Rt = b, b += nc;
  ws->Rinv = b, b += nc;
  ws->gam = b, b += nc;
  ws->G = b, b += nc * nc;
  ws->J = b;
  for (size_t j = 0; j < n; j++)
    ws->Md[j] = 1.0 / pl->M[j * n + j]; /* D^2 = diag(M)^-1: the D-norm's weights */
  for (size_t i = 0; i < nc; i++) { /* the rows J_i, and R_t = sigma w_i */
    for (size_t j = 0; j < n; j++) {
      ws->f[j] = 0.0;
    }
    fb_contact_add_force(pl, i, 1.0, ws->f); /* J_i^T 1 */
    memcpy(ws->J + i * n, ws->f, n * sizeof(double));
    double w = fb_plant_contact_coupling(pl, i, i);
    if (pl->contact[i].pair != FB_PAIR_NONE) {
      const size_t e = fb_contact_partner(pl, i);
      w = 0.5 * (w + fb_plant_contact_coupling(pl, e, e));
    }
    ws->Rt[i] = ws->p.sigma * w;
    ws->Rinv[i] = 1.0 / ws->Rt[i];
  }
  if (sap_sparsity(ws) != FB_OK) {
    sap_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  *out = ws;
  return FB_OK;
}

static unsigned long sap_rhs_per_step(const void *ws)
{
  (void)ws;
  return 1;
}

static const fb_integrator_type sap_scheme = {
    .name = "sap",
    .title = "SAP: convex primal problem in velocities, Newton with exact line search (Drake)",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 1,
    .order = 1,
    .data = NULL,
    .alloc = sap_alloc,
    .free = sap_free,
    .step = sap_step,
    .rhs_per_step = sap_rhs_per_step,
};

static const fb_integrator_type *const sap_schemes[] = {&sap_scheme, NULL};

const fb_model_type fb_model_sap = {
    .name = "sap",
    .title = "Drake's SAP: regularized friction, convex in velocities, Newton + exact line search",
    .reference = "Castro, Permenter & Han, IEEE T-RO 39(2) 2023 (arXiv 2110.10107); "
                 "docs/models/sap.md",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "sap",
    .default_tol = 0,
    .params = &sap_set,
    .nz = 2,
    .z_names = fb_impulse_z_names,
    .init = fb_impulse_init,
    .init2 = fb_impulse_init2,
    .output = fb_impulse_output,
    .schemes = sap_schemes,
};

/* The suite's policy for sap (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_sap = {
    .model = "sap",
    .color = "#e7ba52",
    .conv = {"sap", NULL},
    .wp = {NULL},
    .cost_integrator = "sap",
    .cost_h = 1e-3,
    .cost_hint = 1,
    .expect = "creeps under a push below breakaway by design, at r sigma w h S (below the "
              "regularization bound sigma w h S; Castro et al. 2023); dissipative (convex "
              "Huber potential); first order"};
