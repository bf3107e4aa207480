/* normal_penalty_newmark.c — `penalty-newmark`: [Engleder2002]'s own scheme for contact with
 * friction, as a time-stepping normal treatment (docs/design.md §12; docs/scenarios/
 * elastic-frame.md): average-acceleration Newmark (gamma = 1/2, beta = 1/4) on the whole
 * plant, the penalty-n normal law and the penalty friction law with return mapping solved
 * together inside each step.  It is what `-m penalty -i newmark` is on a friction-only
 * plant (models/penalty.c), with the normal force a penalty spring-damper instead of N(t).
 *
 * Per step t0 -> t1 = t0 + h, unknown the new acceleration a1 (models/penalty.c's form):
 *     x1 = x0 + h v0 + h^2/4 (a0 + a1),   v1 = v0 + h/2 (a0 + a1)
 *     S a1 = b + sum_k J_n,k lambda_k + sum_i e_{j_i} F_i,
 *     S = M + h/2 D + h^2/4 K,   b = f(t1, xp, vp) - D vp - K xp  (xp, vp: x1, v1 at a1 = 0)
 * so every gap, gap rate and slip at t1 is affine in z = (lambda, F) through the columns
 * S^-1 J_n,k and S^-1 e_{j_i}, computed once per step size (S by Cholesky).  The contact
 * laws at t1:
 *     lambda_k = max(0, -c_N g_k - D_N gdot_k)       ([Engleder2002] §3: spring c_N and
 *                                                     damper D_N in compression, clipped:
 *                                                     the contact never pulls)
 *     H_i = clamp(H_i,n - c_T ds_i, -R_i, R_i),  F_i = clamp(H_i - d_T v_r,i, -R_i, R_i),
 *     ds_i = dx_j - h/2 (u(t0) + u(t1)),  R_i = mu(|v_r,i|) lambda_k   ([Engleder2002] §2:
 *                                                     elastic - ideally plastic friction)
 * are solved for z by semi-smooth Newton on G(z) = z - Phi(z) (the consistent tangent of
 * the clipped spring and the return mapping; mu' left out of it), warm-started from the
 * last step, with a backtracking line search on |G|.  A friction contact without a normal
 * takes R_i = mu N(t1).  The applied force is taken at the predictor (exact when it does
 * not depend on the state).  Statistics as moreau-jean's: a contact phase opens at the
 * first step end with lambda > 0 and closes at the first with lambda = 0.
 * Cost: one n x n Cholesky per distinct step size (two at most: h and the last one),
 * per step one triangular solve pair plus the m x m Newton (m = normals + friction
 * contacts).  Dense store: a banded Cholesky replaces it for the banded FE plants.
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_band_rows.h"
#include "fb_models.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"

typedef struct pnm_params {
  double cN, dN, cT, dT, tol, max_it;
} pnm_params;

static const fb_param_desc pnm_desc[] = {
    {"cN", "N/m", "normal penalty stiffness c_N ([Engleder2002] §4: 1e5)",
     offsetof(pnm_params, cN), 1e5, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"dN", "N s/m", "normal penalty damper D_N, clipped with the spring ([Engleder2002] §4: 80)",
     offsetof(pnm_params, dN), 80, 0, INFINITY, 0, NULL, NULL},
    {"cT", "N/m", "friction penalty stiffness c_T ([Engleder2002] §4: 1e4)",
     offsetof(pnm_params, cT), 1e4, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"dT", "N s/m", "damper parallel to the friction spring (0: the paper's)",
     offsetof(pnm_params, dT), 0, 0, INFINITY, 0, NULL, NULL},
    {"tol", "1", "Newton tolerance on the contact forces, relative to the largest",
     offsetof(pnm_params, tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL, NULL},
    {"max_it", "1", "Newton iterations per step before the run fails",
     offsetof(pnm_params, max_it), 50, 1, 1e6, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set pnm_set = {sizeof(pnm_params), 6, pnm_desc};

#define PNM_M 8 /* contact unknowns (normals + friction contacts) at most */

/* Workspace of one run, allocated once. */
typedef struct pnw {
  const fb_problem *pb;
  const fb_int_opts *o;
  fb_impact_stats *st;
  size_t n, nn, nc, m;
  double *buf;
  double *S;     /* Cholesky factor of M + h/2 D + h^2/4 K (n x n) */
  double *cols;  /* S^-1 J_n,k (k < nn), S^-1 e_{j_i} (nn + i): m columns of n */
  double *a, *xp, *vp, *ab, *b, *x0;
  double h_fact; /* the step S is factored for (NaN: none) */
  double z[PNM_M], H[PNM_M], u0[PNM_M];
  int inphase, impacted;
  long fnorm[PNM_M]; /* per friction contact: its normal, or -1 */
  fb_band_rows br;   /* a banded plant: S in the band store, cols = br.C, G = J S^-1 J^T */
} pnw;

static void pnw_free(void *ws)
{
  pnw *W = ws;
  if (W == NULL)
    return;
  free(W->buf);
  fb_band_rows_free(&W->br);
  free(W);
}

static int pnw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  *out = NULL;
  if (nn + nc > PNM_M)
    return fb_err_set(err, FB_EUNSUP, "penalty-newmark: at most %d normals and friction "
                      "contacts together (the plant has %zu)", PNM_M, nn + nc);
  if (pl->has_jt || pl->npairs > 0)
    return fb_err_set(err, FB_EUNSUP, "penalty-newmark: one-DOF friction contacts only");
  pnw *W = calloc(1, sizeof *W);
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  /* a banded plant keeps S and the columns in the band store's rows (no n x n array) */
  const size_t nS = pl->banded ? 0 : n * n + (nn + nc) * n;
  W->buf = calloc(nS + 6 * n + 1, sizeof(double));
  if (W->buf == NULL) {
    pnw_free(W);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  if (pl->banded) {
    const int st = fb_band_rows_alloc(&W->br, pl, 1, err);
    if (st != FB_OK) {
      pnw_free(W);
      return st;
    }
  }
  W->pb = pb;
  W->o = o;
  W->st = o->stats;
  W->n = n, W->nn = nn, W->nc = nc, W->m = nn + nc;
  double *q = W->buf;
  if (pl->banded) {
    W->S = NULL;
    W->cols = W->br.C;
  } else {
    W->S = q, q += n * n;
    W->cols = q, q += (nn + nc) * n;
  }
  W->a = q, q += n;
  W->xp = q, q += n;
  W->vp = q, q += n;
  W->ab = q, q += n;
  W->b = q, q += n;
  W->x0 = q;
  W->h_fact = NAN;
  for (size_t i = 0; i < nc; i++) {
    W->fnorm[i] = -1;
    for (size_t k = 0; k < nn; k++)
      if (pl->normal[k].fric == (long)i)
        W->fnorm[i] = (long)k;
  }
  *out = W;
  return FB_OK;
}

/* Factor S = M + h/2 D + h^2/4 K and the contact columns for step h. */
static int pnw_factor(pnw *W, double h, fb_err *err)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = W->n;
  if (W->h_fact == h)
    return FB_OK;
  if (pl->banded) { /* banded Cholesky, columns by banded solves (contact/fb_band_rows.h) */
    if (fb_band_rows_factor(&W->br, pl, 1.0, 0.5 * h, 0.25 * h * h, h) != FB_OK)
      return fb_err_set(err, FB_ESOLVE, "penalty-newmark: M + h/2 D + h^2/4 K is not positive "
                        "definite (h = %g)", h);
    W->h_fact = h;
    return FB_OK;
  }
  for (size_t i = 0; i < n * n; i++)
    W->S[i] = pl->M[i] + 0.5 * h * pl->D[i] + 0.25 * h * h * pl->K[i];
  gsl_matrix_view Sv = gsl_matrix_view_array(W->S, n, n);
  if (gsl_linalg_cholesky_decomp1(&Sv.matrix) != GSL_SUCCESS)
    return fb_err_set(err, FB_ESOLVE, "penalty-newmark: M + h/2 D + h^2/4 K is not positive "
                      "definite (h = %g)", h);
  for (size_t l = 0; l < W->m; l++) {
    double *c = W->cols + l * n;
    if (l < W->nn) {
      memcpy(c, pl->normal[l].Jn, n * sizeof(double));
    } else {
      memset(c, 0, n * sizeof(double));
      c[pl->contact[l - W->nn].dof] = 1.0;
    }
    gsl_vector_view cv = gsl_vector_view_array(c, n);
    gsl_linalg_cholesky_svx(&Sv.matrix, &cv.vector);
  }
  W->h_fact = h;
  return FB_OK;
}

/* The step's affine maps: for normal k, g = g_b[k] + sum_l G[k][l] z_l and
 * gd = gd_b[k] + sum_l Gd[k][l] z_l; for friction contact i, ds and v_r likewise. */
typedef struct pn_maps {
  double base[2][PNM_M];          /* [0]: g or ds, [1]: gd or v_r, per unknown row */
  double coef[2][PNM_M][PNM_M];   /* d(base)/dz_l */
  double R_N[PNM_M];              /* friction contact without a normal: mu N(t1) bound base */
  double mu_fixed[PNM_M];
} pn_maps;

/* Phi(z) and, when J != NULL, I - dPhi/dz (row-major m x m); G = z - Phi(z). */
static void pn_residual(const pnw *W, const pnm_params *p, const pn_maps *mp, const double *z,
                        double *G, double *J)
{
  const fb_plant *pl = W->pb->plant;
  const size_t nn = W->nn, m = W->m;
  for (size_t r = 0; r < m; r++) {
    double s0 = mp->base[0][r], s1 = mp->base[1][r];
    for (size_t l = 0; l < m; l++) {
      s0 += mp->coef[0][r][l] * z[l];
      s1 += mp->coef[1][r][l] * z[l];
    }
    double *Jr = J != NULL ? J + r * m : NULL;
    if (Jr != NULL)
      for (size_t l = 0; l < m; l++)
        Jr[l] = l == r ? 1.0 : 0.0;
    if (r < nn) { /* lambda = max(0, -cN g - dN gd) */
      const double lam = -p->cN * s0 - p->dN * s1;
      G[r] = z[r] - fmax(0.0, lam);
      if (Jr != NULL && lam > 0)
        for (size_t l = 0; l < m; l++)
          Jr[l] += p->cN * mp->coef[0][r][l] + p->dN * mp->coef[1][r][l];
      continue;
    }
    const size_t i = r - nn;
    const long k = W->fnorm[i];
    const double mu = fb_friction_mu(&pl->contact[i].law, fabs(s1), NULL);
    const double R = k >= 0 ? mu * fmax(0.0, z[k]) : mp->R_N[i] * mu;
    const double Ht = W->H[i] - p->cT * s0, Hc = fmin(R, fmax(-R, Ht));
    const double Ft = Hc - p->dT * s1, F = fmin(R, fmax(-R, Ft));
    G[r] = z[r] - F;
    if (Jr == NULL)
      continue;
    if (fabs(Ft) < R) { /* inside: F = Hc - dT v_r */
      for (size_t l = 0; l < m; l++)
        Jr[l] += p->dT * mp->coef[1][r][l];
      if (fabs(Ht) < R)
        for (size_t l = 0; l < m; l++)
          Jr[l] += p->cT * mp->coef[0][r][l];
      else if (k >= 0 && z[k] > 0)
        Jr[k] -= (Ht > 0 ? 1.0 : -1.0) * mu;
    } else if (k >= 0 && z[k] > 0) { /* on the bound: F = +-mu lambda */
      Jr[k] -= (Ft > 0 ? 1.0 : -1.0) * mu;
    }
  }
}

static double norm_inf(const double *v, size_t m)
{
  double s = 0;
  for (size_t i = 0; i < m; i++)
    s = fmax(s, fabs(v[i]));
  return s;
}

/* Solve A x = b (m x m, Gaussian elimination with partial pivoting; A, b destroyed). */
static int small_solve(double *A, double *b, size_t m)
{
  for (size_t c = 0; c < m; c++) {
    size_t piv = c;
    for (size_t r = c + 1; r < m; r++)
      if (fabs(A[r * m + c]) > fabs(A[piv * m + c]))
        piv = r;
    if (!(fabs(A[piv * m + c]) > 0))
      return -1;
    if (piv != c) {
      for (size_t l = 0; l < m; l++) {
        const double t = A[c * m + l];
        A[c * m + l] = A[piv * m + l];
        A[piv * m + l] = t;
      }
      const double t = b[c];
      b[c] = b[piv];
      b[piv] = t;
    }
    for (size_t r = c + 1; r < m; r++) {
      const double f = A[r * m + c] / A[c * m + c];
      for (size_t l = c; l < m; l++)
        A[r * m + l] -= f * A[c * m + l];
      b[r] -= f * b[c];
    }
  }
  for (size_t c = m; c-- > 0;) {
    for (size_t l = c + 1; l < m; l++)
      b[c] -= A[c * m + l] * b[l];
    b[c] /= A[c * m + c];
  }
  return 0;
}

/* Semi-smooth Newton on G(z) = 0 with a halving line search on |G|_inf. */
static int pn_newton(pnw *W, const pnm_params *p, const pn_maps *mp, double t, long *its,
                     fb_err *err)
{
  const size_t m = W->m;
  double G[PNM_M], J[PNM_M * PNM_M], dz[PNM_M], zt[PNM_M], Gt[PNM_M];
  pn_residual(W, p, mp, W->z, G, J);
  for (long it = 0; it < (long)p->max_it; it++) {
    const double scale = fmax(norm_inf(W->z, m), DBL_MIN);
    const double r = norm_inf(G, m);
    if (r <= p->tol * scale || r == 0)
      return FB_OK;
    (*its)++;
    for (size_t i = 0; i < m; i++)
      dz[i] = -G[i];
    if (small_solve(J, dz, m) != 0)
      return fb_err_set(err, FB_ESOLVE, "penalty-newmark: singular Newton matrix at t=%.17g",
                        t);
    double step = 1.0;
    for (int ls = 0; ls < 30; ls++, step *= 0.5) {
      for (size_t i = 0; i < m; i++)
        zt[i] = W->z[i] + step * dz[i];
      pn_residual(W, p, mp, zt, Gt, NULL);
      if (norm_inf(Gt, m) < r)
        break;
    }
    memcpy(W->z, zt, m * sizeof(double));
    pn_residual(W, p, mp, W->z, G, J);
  }
  return fb_err_set(err, FB_ESOLVE, "penalty-newmark: Newton did not converge in %.0f "
                    "iterations at t=%.17g", p->max_it, t);
}

/* Accelerations at the run's start from the equation of motion with the contact forces of
 * the initial state (friction springs relaxed: H = 0). */
static int pnw_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  pnw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const pnm_params *p = (const pnm_params *)pl->normal[0].np_;
  const size_t n = W->n;
  (void)cnt;
  if (at->seg > 0)
    return FB_OK;
  for (size_t k = 1; k < pl->nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "penalty-newmark: every normal of the plant must use it");
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "penalty-newmark: a fixed step h > 0 is needed");
  const double t = at->t, *x = y, *v = y + n;
  fb_plant_smooth_force(pl, t, x, v, W->b);
  for (size_t k = 0; k < W->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double g = fb_dotn(nm->Jn, x, n) + nm->g0, gd = fb_dotn(nm->Jn, v, n);
    W->z[k] = fmax(0.0, -p->cN * g - p->dN * gd);
    for (size_t i = 0; i < n; i++)
      W->b[i] += nm->Jn[i] * W->z[k];
  }
  for (size_t i = 0; i < W->nc; i++)
    W->H[i] = W->z[W->nn + i] = 0;
  fb_plant_solve_mass(pl, W->b, W->a);
  W->inphase = W->nn > 0 && W->z[0] > 0;
  W->impacted = 0;
  W->h_fact = NAN;
  at->report = 1;
  return FB_OK;
}

/* J_n,k . x: the sparse row of a banded plant (the same sum: the skipped terms are exact
 * zeros), the dense row otherwise. */
static double pn_dot(const pnw *W, size_t k, const double *x)
{
  const fb_plant *pl = W->pb->plant;
  return pl->banded ? fb_sprow_dot(fb_plant_normal_row(pl, k), x)
                    : fb_dotn(pl->normal[k].Jn, x, W->n);
}

/* The affine maps of the step (t0, h) from the predictor (W->xp, W->vp, W->ab). */
static void pn_build_maps(pnw *W, double t0, double t1, double h, pn_maps *mp)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = W->n, nn = W->nn, m = W->m;
  const double c0 = 0.25 * h * h, c1 = 0.5 * h;
  memset(mp, 0, sizeof *mp);
  for (size_t k = 0; k < nn; k++) {
    const double *Jn = pl->normal[k].Jn;
    mp->base[0][k] = pn_dot(W, k, W->xp) + c0 * pn_dot(W, k, W->ab) + pl->normal[k].g0;
    mp->base[1][k] = pn_dot(W, k, W->vp) + c1 * pn_dot(W, k, W->ab);
    for (size_t l = 0; l < m; l++) {
      const double jc = pl->banded ? W->br.G[k * m + l] : fb_dotn(Jn, W->cols + l * n, n);
      mp->coef[0][k][l] = c0 * jc;
      mp->coef[1][k][l] = c1 * jc;
    }
  }
  for (size_t i = 0; i < W->nc; i++) {
    const size_t j = pl->contact[i].dof, r = nn + i;
    fb_contact_state c0s, c1s;
    fb_plant_contact_at(pl, i, t0, &c0s);
    fb_plant_contact_at(pl, i, t1, &c1s);
    /* ds = x1_j - x0_j - h/2 (u(t0) + u(t1)), v_r = v1_j - u(t1) */
    mp->base[0][r] = W->xp[j] + c0 * W->ab[j] - W->x0[j] - 0.5 * h * (c0s.u + c1s.u);
    mp->base[1][r] = W->vp[j] + c1 * W->ab[j] - c1s.u;
    mp->R_N[i] = c1s.N;
    for (size_t l = 0; l < m; l++) {
      mp->coef[0][r][l] = c0 * W->cols[l * n + j];
      mp->coef[1][r][l] = c1 * W->cols[l * n + j];
    }
  }
}

/* Statistics of normal 0 after the step ending at t1 (as moreau-jean's). */
static void pn_stats(pnw *W, double t0, double t1, double lam0, double gd0, double *y)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = W->n;
  fb_impact_stats *st = W->st;
  if (st == NULL || W->nn == 0)
    return;
  const fb_normal *nm = &pl->normal[0];
  const double *x = y, *v = y + n, lam = W->z[0];
  const double g = pn_dot(W, 0, x) + nm->g0, gd = pn_dot(W, 0, v);
  st->max_pen = fmax(st->max_pen, -g);
  st->min_lambda = fmin(st->min_lambda, lam);
  st->work_n += 0.5 * (lam0 * gd0 + lam * gd) * (t1 - t0);
  st->lam_T = lam;
  if (lam > 0 && !W->inphase) {
    W->inphase = W->impacted = 1;
    if (st->n < FB_IMPACT_MAX) {
      st->t_in[st->n] = t1;
      st->v_in[st->n] = gd0;
      st->t_out[st->n] = st->v_out[st->n] = NAN;
    }
    st->n++;
  } else if (lam == 0 && W->inphase) {
    W->inphase = 0;
    if (st->n > 0 && st->n <= FB_IMPACT_MAX) {
      st->t_out[st->n - 1] = t1;
      st->v_out[st->n - 1] = gd;
    }
  }
}

/* One step from at->t of o->h (landing on T). */
static int pnw_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  pnw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = W->n, m = W->m;
  const pnm_params *p = (const pnm_params *)pl->normal[0].np_;
  double *x = y, *v = y + n;
  const double t0 = at->t;
  double h = W->o->h;
  if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
    h = pl->T - t0; /* land on T */
  const double t1 = t0 + h;
  int st = pnw_factor(W, h, err);
  if (st != FB_OK)
    return st;
  const double lam0 = W->nn > 0 ? W->z[0] : 0, gd0 = W->nn > 0 ? pn_dot(W, 0, v) : 0;
  memcpy(W->x0, x, n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    W->xp[i] = x[i] + h * v[i] + 0.25 * h * h * W->a[i];
    W->vp[i] = v[i] + 0.5 * h * W->a[i];
  }
  fb_plant_smooth_force(pl, t1, W->xp, W->vp, W->b);
  cnt->nfe++;
  memcpy(W->ab, W->b, n * sizeof(double));
  if (pl->banded) {
    fb_band_rows_solve(&W->br, W->ab);
  } else {
    gsl_matrix_view Sv = gsl_matrix_view_array(W->S, n, n);
    gsl_vector_view abv = gsl_vector_view_array(W->ab, n);
    gsl_linalg_cholesky_svx(&Sv.matrix, &abv.vector);
  }
  pn_maps mp;
  pn_build_maps(W, t0, t1, h, &mp);
  long its = 0;
  st = pn_newton(W, p, &mp, t0, &its, err);
  cnt->ninner += (unsigned long)its;
  if (st != FB_OK)
    return st;
  /* the return mapping's new spring forces */
  for (size_t i = 0; i < W->nc; i++) {
    const size_t r = W->nn + i;
    double s0 = mp.base[0][r], s1 = mp.base[1][r];
    for (size_t l = 0; l < m; l++) {
      s0 += mp.coef[0][r][l] * W->z[l];
      s1 += mp.coef[1][r][l] * W->z[l];
    }
    const long k = W->fnorm[i];
    const double mu = fb_friction_mu(&pl->contact[i].law, fabs(s1), NULL);
    const double R = k >= 0 ? mu * fmax(0.0, W->z[k]) : mp.R_N[i] * mu;
    W->H[i] = fmin(R, fmax(-R, W->H[i] - p->cT * s0));
  }
  for (size_t i = 0; i < n; i++) {
    double a1 = W->ab[i];
    for (size_t l = 0; l < m; l++)
      a1 += W->cols[l * n + i] * W->z[l];
    x[i] = W->xp[i] + 0.25 * h * h * a1;
    v[i] = W->vp[i] + 0.5 * h * a1;
    W->a[i] = a1;
  }
  pn_stats(W, t0, t1, lam0, gd0, y);
  at->tnew = t1;
  return FB_OK;
}

static const fb_integrator_type pnm_stepper = {
    .name = "penalty-newmark",
    .title = "average-acceleration Newmark with penalty contact and friction solved per step",
    .fixed_ok = 1,
    .alloc = pnw_alloc,
    .free = pnw_free,
    .reset = pnw_reset,
    .step = pnw_step,
};

const fb_normal_type fb_normal_penalty_newmark = {
    .name = "penalty-newmark",
    .title = "[Engleder2002]'s scheme: Newmark (average acceleration) with penalty-n normal "
             "and penalty return-mapping friction solved per step (fixed step)",
    .reference = "[Engleder2002] §2-§4 (c_N, D_N, c_T; Newmark), models/penalty.c",
    .params = &pnm_set,
    .ns = 0,
    .event = 0,
    .resolve = NULL,
    .stepper = &pnm_stepper,
};
