/* normal_penalty_nm.c — `penalty-nm`: the compression-only spring c_N and damper d_N of
 * `penalty-n` (normal_penalty.c) stepped as [Engleder2002] §3 steps it: Newmark's average
 * acceleration at a constant step h ("the integration with constant time steps", gamma =
 * 1/2, beta = 1/4; Newmark 1959), a fixed-step scheme that runs the whole plant, as
 * moreau-jean does (docs/design.md §12).  Per step t0 -> t1 = t0 + h, unknown a1:
 *
 *     x1 = x0 + h v0 + h^2/4 (a0 + a1),   v1 = v0 + h/2 (a0 + a1),
 *     M a1 + D v1 + K x1 = f(t1) + sum_k J_k^T lambda_k(g_k1, gd_k1),
 *     lambda = -c_N g - d_N gd  while g < 0 (and, with clip = 1, while it is >= 0), else 0,
 *
 * the penalty law of [Engleder2002] §3 ("a contact spring with stiffness c_N only acting in
 * compression", "a contact damper d_N only acting in compression").  The force is linear
 * on each side of its switches, so the step is solved exactly by an active-set iteration:
 * guess which normals push, solve the linear system (M + h/2 D + h^2/4 K + the active
 * normals' (h/2 d_N + h^2/4 c_N) J^T J) a1 = rhs, flip the guesses that contradict the
 * result, repeat (iterations counted as inner).  The applied force must depend on t only,
 * and the plant must have no friction contacts.
 *
 * Statistics as the contact scheme's: a contact phase opens at the step whose end has
 * g < 0 after one with g >= 0 (onset and v_in by linear interpolation of g and gd over the
 * step) and closes at the step whose end has g >= 0 again (v_out likewise).
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_models.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"

typedef struct penalty_nm_params {
  double cN, dN, e, clip;
} penalty_nm_params;

static const fb_param_desc penalty_nm_desc[] = {
    {"cN", "N/m", "contact spring stiffness", offsetof(penalty_nm_params, cN), NAN, 0,
     INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "m v_in^2 / (0.01 h)^2: penetration 1 % of the drop height", NULL},
    {"dN", "N s/m", "contact damper (acts in compression only)", offsetof(penalty_nm_params, dN),
     NAN, 0, INFINITY, FB_PARAM_AUTO, "2 zeta sqrt(cN m), zeta from e by the linear formula",
     NULL},
    {"e", "1", "restitution target of the auto dN", offsetof(penalty_nm_params, e), NAN, 0, 1,
     FB_PARAM_AUTO, "the scenario's e", NULL},
    {"clip", "1", "1: force clipped at 0 (no sucking); 0: the raw linear element",
     offsetof(penalty_nm_params, clip), 1, 0, 1, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set penalty_nm_set = {sizeof(penalty_nm_params), 4, penalty_nm_desc};

static int penalty_nm_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  penalty_nm_params *p = pp;
  (void)err;
  if (isnan(p->e))
    p->e = sc->e;
  if (isnan(p->cN)) {
    const double d = 0.01 * sc->h;
    p->cN = sc->m * sc->v_in * sc->v_in / (d * d);
  }
  if (isnan(p->dN))
    p->dN = 2.0 * fb_normal_zeta_of_e(p->e) * sqrt(p->cN * sc->m);
  return FB_OK;
}

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
  const penalty_nm_params *p = (const penalty_nm_params *)nm->np_;
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
      return fb_err_set(err, FB_EUNSUP, "penalty-nm: every normal of the plant must use it");
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "penalty-nm: a fixed step h > 0 is needed");
  if (pl->nc > 0 || pl->force_uses_state)
    return fb_err_set(err, FB_EUNSUP, "penalty-nm: plants without friction contacts and with "
                      "a force of t only");
  fb_plant_smooth_force(pl, at->t, y, y + n, W->r);
  for (size_t k = 0; k < pl->nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const penalty_nm_params *p = (const penalty_nm_params *)nm->np_;
    const double g = fb_dotn(nm->Jn, y, n) + nm->g0, gd = fb_dotn(nm->Jn, y + n, n);
    double l = g < 0 ? -p->cN * g - p->dN * gd : 0.0;
    if (p->clip != 0)
      l = fmax(0.0, l);
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
      const penalty_nm_params *p = (const penalty_nm_params *)nm->np_;
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
      return fb_err_set(err, FB_ESOLVE, "penalty-nm: singular step matrix at t=%g", t0);
    }
    ok = 1;
    for (size_t k = 0; k < nn; k++) {
      const penalty_nm_params *p = (const penalty_nm_params *)pl->normal[k].np_;
      double g1, gd1;
      const double l = nm_lambda(W, k, W->a1, h, &g1, &gd1);
      const int want = g1 < 0 && (p->clip == 0 || l > 0);
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

static const fb_integrator_type penalty_nm_stepper = {
    .name = "penalty-nm",
    .title = "average-acceleration Newmark of a plant with penalty normal contacts",
    .fixed_ok = 1,
    .alloc = nmw_alloc,
    .free = nmw_free,
    .reset = nmw_reset,
    .step = nmw_step,
};

const fb_normal_type fb_normal_penalty_nm = {
    .name = "penalty-nm",
    .title = "penalty-n's spring-damper under average-acceleration Newmark (fixed step)",
    .reference = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §3; Newmark 1959",
    .params = &penalty_nm_set,
    .ns = 0,
    .event = 0,
    .resolve = penalty_nm_resolve,
    .stepper = &penalty_nm_stepper,
};
