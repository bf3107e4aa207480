/* normal_penalty_newmark.c — the Newmark penalty treatment: [Engleder2002]'s schemes as one
 * time-stepping normal treatment (docs/design.md §12), registered under two names that differ
 * only in their defaults (docs/scenarios/two-beam-impact.md, docs/scenarios/elastic-frame.md):
 *
 *   penalty-nm       §3's two-beam scheme: c_N, d_N auto from the contact's scales (d_N from
 *                    the restitution e), the spring-damper acting while g < 0, clipped at 0
 *                    (`clip` = 1; 0: the raw linear element);
 *   penalty-newmark  §2-§4's frame scheme: the paper's c_N = 1e5, D_N = 80, c_T = 1e4, the
 *                    force max(0, -c_N g - D_N g') at any gap (`clip` = 2).
 *
 * Average-acceleration Newmark (gamma = 1/2, beta = 1/4; Newmark 1959) on the whole plant at a
 * constant step h; per step t0 -> t1 = t0 + h, unknown the new acceleration a1:
 *
 *     x1 = x0 + h v0 + h^2/4 (a0 + a1),   v1 = v0 + h/2 (a0 + a1),
 *     S a1 = f(t1, xp, vp) - D vp - K xp + sum_k J_n,k^T lambda_k + sum_i e_{j_i} F_i,
 *     S = M + h/2 D + h^2/4 K   (xp, vp: x1, v1 at a1 = 0),
 *
 * the normal law ([Engleder2002] §3: "a contact spring with stiffness c_N only acting in
 * compression", "a contact damper d_N only acting in compression"), by `clip`:
 *     0: lambda = -c_N g - d_N g'            while g < 0, else 0 (may pull)
 *     1: lambda = max(0, -c_N g - d_N g')    while g < 0, else 0
 *     2: lambda = max(0, -c_N g - d_N g')    at any gap (the frame scheme as it always ran:
 *                                            the damper may push just before the gap closes)
 * and the penalty friction law with return mapping ([Engleder2002] §2: elastic - ideally
 * plastic friction, models/penalty.c's form):
 *     H_i = clamp(H_i,n - c_T ds_i, -R_i, R_i),  F_i = clamp(H_i - d_T v_r,i, -R_i, R_i),
 *     ds_i = dx_j - h/2 (u(t0) + u(t1)),  R_i = mu(|v_r,i|) lambda_k (mu N(t1) without normal).
 * Two solvers of the step, chosen by the plant:
 *  - the exact active set (a dense plant without friction contacts): the force is linear on
 *    each side of its switches, so guess which normals push, solve (S + the active normals'
 *    (h/2 d_N + h^2/4 c_N) J^T J) a1 = rhs by Gaussian elimination, flip the guesses the
 *    result contradicts, repeat (iterations counted as inner); statistics: a contact phase
 *    opens at the step whose end has g < 0 after one with g >= 0 (onset and v_in by linear
 *    interpolation over the step) and closes at the step whose end has g >= 0 again;
 *  - semi-smooth Newton on the contact unknowns z = (lambda, F) (friction contacts, or a
 *    banded plant): every gap, gap rate and slip at t1 is affine in z through the columns
 *    S^-1 J_n,k and S^-1 e_{j_i} (S by Cholesky once per step size, or in the band store with
 *    the columns by banded solves, contact/fb_band_rows.h); G(z) = z - Phi(z) solved with the
 *    consistent tangent (mu' left out), warm-started, with a halving line search on |G|;
 *    statistics as moreau-jean's: a phase opens at the first step end with lambda > 0 and
 *    closes at the first with lambda = 0.
 * The applied force is taken at the predictor (exact when it does not depend on the state;
 * the active set refuses one that does).
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

/* One parameter layout for both names (FB_NORMAL_NP = 8 slots). */
typedef struct pnm_params {
  double cN, dN, e, clip, cT, dT, tol, max_it;
} pnm_params;
enum { PNM_RAW = 0, PNM_CLIP = 1, PNM_PUSH = 2 }; /* clip */

#define PNM_ROWS_FRICTION_NEWTON                                                              \
  {"cT", "N/m", "friction penalty stiffness c_T ([Engleder2002] §4: 1e4)",                    \
   offsetof(pnm_params, cT), 1e4, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},                \
      {"dT", "N s/m", "damper parallel to the friction spring (0: the paper's)",              \
       offsetof(pnm_params, dT), 0, 0, INFINITY, 0, NULL, NULL},                              \
      {"tol", "1", "Newton tolerance on the contact forces, relative to the largest",         \
       offsetof(pnm_params, tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL,   \
       NULL},                                                                                 \
      {"max_it", "1", "Newton iterations per step before the run fails",                      \
       offsetof(pnm_params, max_it), 50, 1, 1e6, FB_PARAM_INT, NULL, NULL}
#define PNM_CLIP_DOC                                                                          \
  "the normal law: 1 max(0, -cN g - dN g') while g < 0; 0 the raw linear element while "     \
  "g < 0; 2 max(0, ...) at any gap"
#define PNM_E_ROW                                                                             \
  {"e", "1", "restitution target of an auto dN", offsetof(pnm_params, e), NAN, 0, 1,          \
   FB_PARAM_AUTO, "the scenario's e", NULL}

/* penalty-nm: [Engleder2002] §3's two-beam scheme, parameters from the contact's scales. */
static const fb_param_desc pnm_desc_nm[] = {
    {"cN", "N/m", "contact spring stiffness", offsetof(pnm_params, cN), NAN, 0, INFINITY,
     FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "m v_in^2 / (0.01 h)^2: penetration 1 % of the drop height", NULL},
    {"dN", "N s/m", "contact damper (acts in compression only)", offsetof(pnm_params, dN), NAN,
     0, INFINITY, FB_PARAM_AUTO, "2 zeta sqrt(cN m), zeta from e by the linear formula", NULL},
    PNM_E_ROW,
    {"clip", "1", PNM_CLIP_DOC, offsetof(pnm_params, clip), PNM_CLIP, 0, 2, FB_PARAM_INT, NULL,
     NULL},
    PNM_ROWS_FRICTION_NEWTON,
};
static const fb_param_set pnm_set_nm = {sizeof(pnm_params), 8, pnm_desc_nm};

/* penalty-newmark: [Engleder2002] §2-§4's frame scheme with the paper's values. */
static const fb_param_desc pnm_desc_frame[] = {
    {"cN", "N/m", "normal penalty stiffness c_N ([Engleder2002] §4: 1e5)",
     offsetof(pnm_params, cN), 1e5, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"dN", "N s/m", "normal penalty damper D_N, clipped with the spring ([Engleder2002] §4: 80)",
     offsetof(pnm_params, dN), 80, 0, INFINITY, 0, NULL, NULL},
    PNM_E_ROW,
    {"clip", "1", PNM_CLIP_DOC, offsetof(pnm_params, clip), PNM_PUSH, 0, 2, FB_PARAM_INT, NULL,
     NULL},
    PNM_ROWS_FRICTION_NEWTON,
};
static const fb_param_set pnm_set_frame = {sizeof(pnm_params), 8, pnm_desc_frame};

/* Auto rows from the contact's scales (penalty-nm's defaults; penalty-newmark's cN and dN
 * are given, its e is read only by an auto dN). */
static int pnm_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  pnm_params *p = pp;
  (void)err;
  fb_normal_penalty_auto(&p->cN, &p->dN, &p->e, sc);
  return FB_OK;
}

/* Does the normal law act at gap g with raw force l = -cN g - dN g' (the `clip` option)? */
static int pnm_on(const pnm_params *p, double g, double l)
{
  if (p->clip == PNM_PUSH)
    return l > 0;
  return g < 0 && (p->clip == PNM_RAW || l > 0);
}

/* The normal law's force at gap g, rate gd (the `clip` option, header). */
static double pnm_force(const pnm_params *p, double g, double gd)
{
  const double l = -p->cN * g - p->dN * gd;
  if (p->clip == PNM_PUSH)
    return fmax(0.0, l);
  if (!(g < 0))
    return 0.0;
  return p->clip != PNM_RAW ? fmax(0.0, l) : l;
}

/* ---- the exact active set (a frictionless dense plant) -------------------------------- */

/* Workspace of one run, allocated once. */
typedef struct nmw {
  const fb_problem *pb;
  const fb_int_opts *o;
  fb_impact_stats *st;
  double *buf;
  double *a0, *xp, *vp, *r, *S, *A, *b, *a1, *gp, *gdp, *lam, *lamp, *g0, *gd0;
  int *active, *inphase;
} nmw;

static void nmw_free(void *ws)
{
  nmw *W = ws;
  if (W == NULL)
    return;
  free(W->buf);
  free(W->active);
  free(W);
}

static int nmw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn;
  *out = NULL;
  nmw *W = calloc(1, sizeof *W);
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  W->buf = calloc(7 * n + 2 * n * n + 6 * nn + 1, sizeof(double));
  W->active = calloc(2 * nn + 1, sizeof(int));
  if (W->buf == NULL || W->active == NULL) {
    nmw_free(W);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  W->pb = pb;
  W->o = o;
  W->st = o->stats;
  double *q = W->buf;
  W->a0 = q, q += n;
  W->xp = q, q += n;
  W->vp = q, q += n;
  W->r = q, q += n;
  W->b = q, q += n;
  W->a1 = q, q += 2 * n;
  W->S = q, q += n * n;
  W->A = q, q += n * n;
  W->gp = q, q += nn;
  W->gdp = q, q += nn;
  W->lam = q, q += nn;
  W->lamp = q, q += nn;
  W->g0 = q, q += nn;
  W->gd0 = q;
  W->inphase = W->active + nn;
  *out = W;
  return FB_OK;
}

/* Solve A a = b in place by Gaussian elimination with partial pivoting (A is n x n, SPD
 * up to the active normals' terms, which keep it SPD): 1 on success. */
static int solve_dense(double *A, double *b, double *a, size_t n)
{
  for (size_t c = 0; c < n; c++) {
    size_t piv = c;
    for (size_t r = c + 1; r < n; r++)
      if (fabs(A[r * n + c]) > fabs(A[piv * n + c]))
        piv = r;
    if (!(fabs(A[piv * n + c]) > 0))
      return 0;
    if (piv != c) {
      for (size_t k = 0; k < n; k++) {
        const double t = A[c * n + k];
        A[c * n + k] = A[piv * n + k];
        A[piv * n + k] = t;
      }
      const double t = b[c];
      b[c] = b[piv];
      b[piv] = t;
    }
    for (size_t r = c + 1; r < n; r++) {
      const double f = A[r * n + c] / A[c * n + c];
      for (size_t k = c; k < n; k++)
        A[r * n + k] -= f * A[c * n + k];
      b[r] -= f * b[c];
    }
  }
  for (size_t c = n; c-- > 0;) {
    double s = b[c];
    for (size_t k = c + 1; k < n; k++)
      s -= A[c * n + k] * a[k];
    a[c] = s / A[c * n + c];
  }
  return 1;
}

/* lambda of normal k at the end of the step for acceleration a1 (raw: unclipped), and
 * whether its active guess is consistent with it. */
static double nm_lambda(const nmw *W, size_t k, const double *a1, double h, double *g1,
                        double *gd1)
{
  const fb_plant *pl = W->pb->plant;
  const fb_normal *nm = &pl->normal[k];
  const pnm_params *p = (const pnm_params *)nm->np_;
  const double ja = fb_dotn(nm->Jn, a1, pl->n);
  *g1 = W->gp[k] + 0.25 * h * h * ja;
  *gd1 = W->gdp[k] + 0.5 * h * ja;
  return -p->cN * *g1 - p->dN * *gd1;
}

/* The start of the run: the plant's checks, the initial acceleration. */
static int nmw_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  nmw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n;
  (void)cnt;
  if (at->seg > 0)
    return FB_OK;
  for (size_t k = 0; k < pl->nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "%s: every normal of the plant must use it", pl->normal[0].type->name);
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s: a fixed step h > 0 is needed", pl->normal[0].type->name);
  if (pl->nc > 0 || pl->force_uses_state)
    return fb_err_set(err, FB_EUNSUP, "%s: the exact active set takes a force of t only "
                      "(plants without friction contacts)", pl->normal[0].type->name);
  fb_plant_smooth_force(pl, at->t, y, y + n, W->r);
  for (size_t k = 0; k < pl->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const pnm_params *p = (const pnm_params *)nm->np_;
    const double g = fb_dotn(nm->Jn, y, n) + nm->g0, gd = fb_dotn(nm->Jn, y + n, n);
    const double l = pnm_force(p, g, gd);
    for (size_t i = 0; i < n; i++)
      W->r[i] += nm->Jn[i] * l;
    W->active[k] = l != 0;
    W->inphase[k] = g < 0;
    W->lam[k] = l;
  }
  fb_plant_solve_mass(pl, W->r, W->a0);
  at->report = 1;
  return FB_OK;
}

/* The statistics after the step from t0 to t1 that ended at y (normal k's g, gd at the
 * step's start in W->g0, W->gd0). */
static void nm_stats(nmw *W, double t0, double t1, const double *y)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n;
  fb_impact_stats *st = W->st;
  for (size_t k = 0; k < pl->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double g = fb_dotn(nm->Jn, y, n) + nm->g0, gd = fb_dotn(nm->Jn, y + n, n);
    const double frac = W->g0[k] != g ? W->g0[k] / (W->g0[k] - g) : 0.0;
    const double tc = t0 + frac * (t1 - t0), vc = W->gd0[k] + frac * (gd - W->gd0[k]);
    st->max_pen = fmax(st->max_pen, -g);
    st->min_lambda = fmin(st->min_lambda, W->lam[k]);
    st->work_n += 0.5 * (W->lamp[k] * W->gd0[k] + W->lam[k] * gd) * (t1 - t0);
    if (k != 0)
      continue;
    if (g < 0 && !W->inphase[k]) {
      W->inphase[k] = 1;
      if (st->n < FB_IMPACT_MAX) {
        st->t_in[st->n] = tc;
        st->v_in[st->n] = vc;
        st->t_out[st->n] = st->v_out[st->n] = NAN;
      }
      st->n++;
    } else if (g >= 0 && W->inphase[k]) {
      W->inphase[k] = 0;
      if (st->n > 0 && st->n <= FB_IMPACT_MAX) {
        st->t_out[st->n - 1] = tc;
        st->v_out[st->n - 1] = vc;
      }
    }
    st->lam_T = W->lam[k];
  }
}

/* One step from at->t of o->h (landing on T). */
static int nmw_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  nmw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn;
  double *x = y, *v = y + n;
  const double t0 = at->t;
  double h = W->o->h;
  if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
    h = pl->T - t0; /* land on T */
  const double t1 = t0 + h, be = 0.25 * h * h, ga = 0.5 * h;
  for (size_t i = 0; i < n; i++) {
    W->xp[i] = x[i] + h * v[i] + be * W->a0[i];
    W->vp[i] = v[i] + ga * W->a0[i];
  }
  for (size_t k = 0; k < nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    W->g0[k] = fb_dotn(nm->Jn, x, n) + nm->g0;
    W->gd0[k] = fb_dotn(nm->Jn, v, n);
    W->gp[k] = fb_dotn(nm->Jn, W->xp, n) + nm->g0;
    W->gdp[k] = fb_dotn(nm->Jn, W->vp, n);
    W->lamp[k] = W->lam[k];
  }
  /* r = f(t1) - D vp - K xp, S = M + h/2 D + h^2/4 K */
  fb_plant_smooth_force(pl, t1, W->xp, W->vp, W->r);
  cnt->nfe++;
  for (size_t i = 0; i < n * n; i++)
    W->S[i] = pl->M[i] + ga * pl->D[i] + be * pl->K[i];
  int ok = 0;
  for (int it = 0; it < 2 * (int)nn + 4 && !ok; it++) {
    cnt->ninner++;
    memcpy(W->A, W->S, n * n * sizeof(double));
    memcpy(W->b, W->r, n * sizeof(double));
    for (size_t k = 0; k < nn; k++) {
      if (!W->active[k])
        continue;
      const fb_normal *nm = &pl->normal[k];
      const pnm_params *p = (const pnm_params *)nm->np_;
      const double c = p->cN * be + p->dN * ga, l0 = -p->cN * W->gp[k] - p->dN * W->gdp[k];
      for (size_t i = 0; i < n; i++) {
        W->b[i] += nm->Jn[i] * l0;
        for (size_t j = 0; j < n; j++)
          W->A[i * n + j] += c * nm->Jn[i] * nm->Jn[j];
      }
    }
    if (!solve_dense(W->A, W->b, W->a1, n)) {
      at->keep = 1;
      at->tnew = t0;
      return fb_err_set(err, FB_ESOLVE, "%s: singular step matrix at t=%g",
                        pl->normal[0].type->name, t0);
    }
    ok = 1;
    for (size_t k = 0; k < nn; k++) {
      const pnm_params *p = (const pnm_params *)pl->normal[k].np_;
      double g1, gd1;
      const double l = nm_lambda(W, k, W->a1, h, &g1, &gd1);
      const int want = pnm_on(p, g1, l);
      if (want != W->active[k]) {
        W->active[k] = want;
        ok = 0;
      }
      W->lam[k] = want ? l : 0.0;
    }
  }
  /* a guess that cycles (a switch exactly at the step's end): the last solve stands */
  for (size_t i = 0; i < n; i++) {
    x[i] = W->xp[i] + be * W->a1[i];
    v[i] = W->vp[i] + ga * W->a1[i];
    W->a0[i] = W->a1[i];
  }
  nm_stats(W, t0, t1, y);
  at->tnew = t1;
  return FB_OK;
}

/* ---- semi-smooth Newton on the contact unknowns (friction, or a banded plant) --------- */

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
    return fb_err_set(err, FB_EUNSUP, "%s: at most %d normals and friction contacts "
                      "together (the plant has %zu)", pl->normal[0].type->name, PNM_M, nn + nc);
  if (pl->has_jt || pl->npairs > 0)
    return fb_err_set(err, FB_EUNSUP, "%s: one-DOF friction contacts only",
                      pl->normal[0].type->name);
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
      return fb_err_set(err, FB_ESOLVE, "%s: M + h/2 D + h^2/4 K is not positive "
                        "definite (h = %g)", pl->normal[0].type->name, h);
    W->h_fact = h;
    return FB_OK;
  }
  for (size_t i = 0; i < n * n; i++)
    W->S[i] = pl->M[i] + 0.5 * h * pl->D[i] + 0.25 * h * h * pl->K[i];
  gsl_matrix_view Sv = gsl_matrix_view_array(W->S, n, n);
  if (gsl_linalg_cholesky_decomp1(&Sv.matrix) != GSL_SUCCESS)
    return fb_err_set(err, FB_ESOLVE, "%s: M + h/2 D + h^2/4 K is not positive "
                      "definite (h = %g)", pl->normal[0].type->name, h);
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
    if (r < nn) { /* lambda = max(0, -cN g - dN gd), or the gap-gated laws (`clip`) */
      const double lam = -p->cN * s0 - p->dN * s1;
      G[r] = z[r] - pnm_force(p, s0, s1);
      if (Jr != NULL && pnm_on(p, s0, lam))
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
      return fb_err_set(err, FB_ESOLVE, "%s: singular Newton matrix at t=%.17g",
                        W->pb->plant->normal[0].type->name, t);
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
  return fb_err_set(err, FB_ESOLVE, "%s: Newton did not converge in %.0f "
                    "iterations at t=%.17g", W->pb->plant->normal[0].type->name, p->max_it, t);
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
      return fb_err_set(err, FB_EUNSUP, "%s: every normal of the plant must use it",
                        pl->normal[0].type->name);
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s: a fixed step h > 0 is needed",
                        pl->normal[0].type->name);
  const double t = at->t, *x = y, *v = y + n;
  fb_plant_smooth_force(pl, t, x, v, W->b);
  for (size_t k = 0; k < W->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double g = fb_dotn(nm->Jn, x, n) + nm->g0, gd = fb_dotn(nm->Jn, v, n);
    W->z[k] = pnm_force(p, g, gd);
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

/* ---- the stepper: one solver per plant ---------------------------------------------- */

/* The run's solver (the exact active set on a dense plant without friction contacts, else
 * semi-smooth Newton) and its workspace. */
typedef struct pnx {
  int exact;
  void *ws;
} pnx;

static void px_free(void *ws)
{
  pnx *X = ws;
  if (X == NULL)
    return;
  if (X->exact)
    nmw_free(X->ws);
  else
    pnw_free(X->ws);
  free(X);
}

static int px_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  *out = NULL;
  pnx *X = calloc(1, sizeof *X);
  if (X == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  X->exact = !pl->banded && pl->nc == 0;
  const int st = X->exact ? nmw_alloc(&X->ws, type, pb, o, err)
                          : pnw_alloc(&X->ws, type, pb, o, err);
  if (st != FB_OK) {
    free(X);
    return st;
  }
  *out = X;
  return FB_OK;
}

static int px_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  pnx *X = ws;
  return X->exact ? nmw_reset(X->ws, at, y, cnt, err) : pnw_reset(X->ws, at, y, cnt, err);
}

static int px_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  pnx *X = ws;
  return X->exact ? nmw_step(X->ws, at, y, cnt, err) : pnw_step(X->ws, at, y, cnt, err);
}

/* One stepper per name: the contact scheme's budgets and messages name it. */
static const fb_integrator_type penalty_nm_stepper = {
    .name = "penalty-nm",
    .title = "average-acceleration Newmark of a plant with penalty normal contacts",
    .fixed_ok = 1,
    .alloc = px_alloc,
    .free = px_free,
    .reset = px_reset,
    .step = px_step,
};

static const fb_integrator_type penalty_newmark_stepper = {
    .name = "penalty-newmark",
    .title = "average-acceleration Newmark with penalty contact and friction solved per step",
    .fixed_ok = 1,
    .alloc = px_alloc,
    .free = px_free,
    .reset = px_reset,
    .step = px_step,
};

const fb_normal_type fb_normal_penalty_nm = {
    .name = "penalty-nm",
    .title = "Newmark penalty treatment, [Engleder2002] §3's defaults: penalty-n's "
             "spring-damper while g < 0, auto c_N, d_N (fixed step)",
    .reference = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §3; Newmark 1959",
    .params = &pnm_set_nm,
    .ns = 0,
    .event = 0,
    .resolve = pnm_resolve,
    .stepper = &penalty_nm_stepper,
};

const fb_normal_type fb_normal_penalty_newmark = {
    .name = "penalty-newmark",
    .title = "Newmark penalty treatment, [Engleder2002]'s frame defaults: penalty-n normal "
             "and penalty return-mapping friction solved per step (fixed step)",
    .reference = "[Engleder2002] §2-§4 (c_N, D_N, c_T; Newmark), models/penalty.c",
    .params = &pnm_set_frame,
    .ns = 0,
    .event = 0,
    .resolve = pnm_resolve,
    .stepper = &penalty_newmark_stepper,
};
