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
 * With `linear = implicit` the plant's linear forces -D v - K x are taken implicitly in the
 * theta-method ([AB08] §10.1's iteration matrix W = M + theta h D + theta^2 h^2 K, for
 * structures whose stiff modes the explicit predictor cannot step: an FE frame):
 *
 *   W (v_{k+1} - v_k) = h [f_{k+theta} - D v_k - K (x_k + theta h v_k)] + J_n^T P_n + e_j R,
 *
 * f the applied force only (theta-weighted at x_k + theta h v_k), and the impulses act
 * through W^-1 in place of M^-1 (W inverted once per step size).  `explicit` (the default)
 * is the scheme above, unchanged.
 *
 * Statistics as the contact scheme's: a contact phase opens at the first step with
 * P_n > 0 after a free one (onset time: the linear estimate t_k + g_k / (-J_n v_k) of the
 * gap's crossing, clamped to the step; v_in = J_n v_k) and closes at the first free step
 * after it (v_out = J_n v at its start).  lambda_n = P_n / h (the step's mean force).
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

typedef struct mj_n_params {
  double e, theta, pgs_tol, pgs_max, linear;
} mj_n_params;

static const char *const mj_n_linear[] = {"explicit", "implicit", NULL};

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
    {"linear", "", "the plant's linear forces D v + K x: explicit (predictor) or implicit "
     "(W = M + theta h D + theta^2 h^2 K, for stiff structures)", offsetof(mj_n_params, linear),
     0, 0, 1, FB_PARAM_CHOICE, NULL, mj_n_linear},
};
static const fb_param_set mj_n_set = {sizeof(mj_n_params), 5, mj_n_desc};

static int mj_n_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  mj_n_params *p = pp;
  (void)err;
  if (isnan(p->e))
    p->e = sc->e;
  return FB_OK;
}

/* Workspace of one run, allocated once: the stepper's (fb_integrator.h), which the contact
 * scheme runs under the driver. */
typedef struct mjw {
  const fb_problem *pb;
  const fb_int_opts *o;   /* h, and stats: the contact scheme's fb_impact_stats */
  fb_impact_stats *st;
  double *buf;
  double *f0, *f1, *xp, *v0, *a, *P, *R, *MJ, *w, *vn0, *gk, *u;
  double *lamh, *Fh; /* the step's P_n / h (nn) and R_i / h (nc), for stats.on_step */
  int *closed, *inphase;
  /* the matrix the impulses act through: the plant's M^-1, or W^-1 (linear = implicit,
   * Wi: n x n, for the step h_w) */
  const double *Mi;
  double *Wi, h_w;
  int impacted;
  /* a banded plant: the iteration matrix (M, or W when implicit) in the band store with the
   * contact rows' columns and Delassus matrix (contact/fb_band_rows.h), and the rows' local
   * velocities U (nn + nc) during the sweeps */
  fb_band_rows br;
  double *U;
} mjw;

static void mjw_free(void *ws)
{
  mjw *W = ws;
  if (W == NULL)
    return;
  free(W->buf);
  free(W->closed);
  free(W->Wi);
  fb_band_rows_free(&W->br);
  free(W);
}

static int mjw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  (void)type;
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  const size_t nd = 5 * n + 2 * nn + nc + nn * n + 2 * nn + 2 * nc + nn + nc + nn + nc;
  mjw *W = calloc(1, sizeof *W);
  *out = NULL;
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  W->buf = calloc(nd + 1, sizeof(double));
  W->closed = calloc(2 * nn + 1, sizeof(int));
  if (W->buf == NULL || W->closed == NULL) {
    mjw_free(W);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  W->pb = pb;
  W->o = o;
  W->st = o->stats;
  double *q = W->buf;
  W->f0 = q, q += n;
  W->f1 = q, q += n;
  W->xp = q, q += n;
  W->v0 = q, q += n;
  W->a = q, q += n;
  W->P = q, q += nn;
  W->w = q, q += nn;
  W->R = q, q += nc;
  W->MJ = q, q += nn * n;
  W->vn0 = q, q += nn;
  W->gk = q, q += nn;
  W->u = q, q += 2 * nc;
  W->lamh = q, q += nn;
  W->Fh = q, q += nc;
  W->U = q;
  W->inphase = W->closed + nn;
  W->Mi = pl->Minv;
  W->h_w = NAN;
  if (pl->banded) { /* the band store's rows; MJ and w as below (w: G's diagonal once factored) */
    const int st = fb_band_rows_alloc(&W->br, pl, 1, err);
    if (st != FB_OK) {
      mjw_free(W);
      return st;
    }
  } else if (nn > 0 && ((const mj_n_params *)pl->normal[0].np_)->linear == 1) { /* implicit */
    W->Wi = calloc(n * n, sizeof(double));
    if (W->Wi == NULL) {
      mjw_free(W);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    W->Mi = W->Wi; /* filled, with MJ and w, at the first step */
  }
  for (size_t k = 0; k < nn; k++) {
    fb_plant_solve_mass(pl, pl->normal[k].Jn, W->MJ + k * n);
    W->w[k] = fb_dotn(pl->normal[k].Jn, W->MJ + k * n, n);
  }
  *out = W;
  return FB_OK;
}

/* The start of the run: the plant's checks, and the initial state reported. */
static int mjw_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  mjw *W = ws;
  const fb_plant *pl = W->pb->plant;
  (void)y, (void)cnt;
  if (at->seg > 0) /* never: the contact scheme crosses breaks inside its steps */
    return FB_OK;
  for (size_t k = 1; k < pl->nn; k++)
    if (pl->normal[k].type != pl->normal[0].type)
      return fb_err_set(err, FB_EUNSUP, "moreau-jean: every normal of the plant must use it");
  if (!(W->o->h > 0))
    return fb_err_set(err, FB_EINVAL, "moreau-jean: a fixed step h > 0 is needed");
  if (pl->n > 64 && pl->nc > 0 && !pl->banded)
    return fb_err_set(err, FB_EUNSUP, "moreau-jean: at most 64 DOFs with friction on a dense "
                      "plant (a banded one has no such limit)");
  memset(W->inphase, 0, pl->nn * sizeof(int));
  W->impacted = 0;
  at->report = 1;
  return FB_OK;
}

/* Unit i's slip J_t v - u_surf into u[d] (d = 2 for a 2-D contact's x entry, else 1). */
static size_t mj_rows_slip(const mjw *W, size_t i, const double *v, double *u)
{
  const fb_plant *pl = W->pb->plant;
  const size_t d = pl->contact[i].pair == FB_PAIR_X ? 2 : 1;
  u[1] = 0;
  for (size_t k = 0; k < d; k++)
    u[k] = fb_contact_vel(pl, i + k, v) - W->u[i + k];
  return d;
}

/* One Gauss-Seidel update of unit i's impulse R (entries i, i + 1 of a 2-D contact):
 * the local solve W_tt dR = -u (W_tt = J_t M^-1 J_t^T), projected on the disc |R| <= bound
 * ([AB08] eq. 10.10; exact for an isotropic W_tt, a sphere on a plane); v follows.
 * Returns |dR|. */
static double mj_rows_sweep(mjw *W, size_t i, double bound, double *v)
{
  const fb_plant *pl = W->pb->plant;
  double u[2], R[2] = {W->R[i], 0};
  const size_t d = mj_rows_slip(W, i, v, u);
  if (d == 1) {
    R[0] -= u[0] / fb_plant_contact_coupling(pl, i, i);
  } else {
    R[1] = W->R[i + 1];
    const double a = fb_plant_contact_coupling(pl, i, i), o = fb_plant_contact_coupling(pl, i, i + 1);
    const double b = fb_plant_contact_coupling(pl, i + 1, i + 1), det = a * b - o * o;
    R[0] -= (b * u[0] - o * u[1]) / det;
    R[1] -= (a * u[1] - o * u[0]) / det;
  }
  const double r = hypot(R[0], R[1]);
  if (r > bound)
    for (size_t k = 0; k < d; k++)
      R[k] *= bound / r;
  double dR[2] = {R[0] - W->R[i], d == 2 ? R[1] - W->R[i + 1] : 0};
  memset(W->a, 0, pl->n * sizeof(double));
  for (size_t k = 0; k < d; k++) {
    fb_contact_add_force(pl, i + k, dR[k], W->a);
    W->R[i + k] = R[k];
  }
  fb_plant_solve_mass(pl, W->a, W->xp); /* xp: scratch here (the predictor is used) */
  for (size_t j = 0; j < pl->n; j++)
    v[j] += W->xp[j];
  return hypot(dR[0], dR[1]);
}

/* The bound of friction contact i's impulse in the step to t1 of length h: mu P_n of its
 * normal (0 when open), or h mu N(t1) for a prescribed normal force ([AB08] eq. 10.10). */
static double mj_bound(const mjw *W, size_t i, double t1, double h)
{
  const fb_plant *pl = W->pb->plant;
  const size_t nn = pl->nn, nc = pl->nc;
  double bound = -1;
  for (size_t k = 0; k < nn; k++)
    if (pl->normal[k].fric == (long)i)
      bound = W->closed[k] ? W->u[nc + i] * W->P[k] : 0.0;
  if (bound < 0) {
    fb_contact_in ci;
    double us;
    fb_contact_in_at(pl, i, t1, &ci, &us);
    bound = h * W->u[nc + i] * ci.N;
  }
  return bound;
}

/* Projected Gauss-Seidel on P_n (normals) and R_i (friction) for the step to t1 of length
 * h, from v_free in v: 1 when it converged; sweeps counted in *sweeps. */
static int mj_pgs(mjw *W, const mj_n_params *p, double t1, double h, double *v, long *sweeps)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  int conv = 0;
  const long smax = (long)p->pgs_max;
  while (!conv && *sweeps < smax) {
    double change = 0, scale = 0;
    (*sweeps)++;
    for (size_t k = 0; k < nn; k++) {
      if (!W->closed[k])
        continue;
      const fb_normal *nm = &pl->normal[k];
      const double e = nm->np_[0];
      /* [AB08] eq. 10.8: P <- max(0, P - (J_n v + e J_n v_k) / w) */
      const double un = fb_dotn(nm->Jn, v, n) + e * fmin(W->vn0[k], 0.0);
      const double Pn = fmax(0.0, W->P[k] - un / W->w[k]);
      const double d = Pn - W->P[k];
      for (size_t i = 0; i < n; i++)
        v[i] += W->MJ[k * n + i] * d;
      W->P[k] = Pn;
      change = fmax(change, fabs(d));
      scale = fmax(scale, Pn);
    }
    for (size_t i = 0; i < nc; i++) {
      const size_t j = pl->contact[i].dof;
      if (pl->contact[i].pair == FB_PAIR_Y)
        continue; /* swept with its x entry */
      const double bound = mj_bound(W, i, t1, h);
      if (pl->contact[i].Jt != NULL) { /* a Jacobian row or a 2-D contact: the disc */
        const double d = mj_rows_sweep(W, i, bound, v);
        change = fmax(change, d);
        scale = fmax(scale, hypot(W->R[i], pl->contact[i].pair == FB_PAIR_X ? W->R[i + 1] : 0));
        continue;
      }
      /* the impulse that stops v_r, projected on the disc |R| <= bound */
      const double mjj = 1.0 / W->Mi[j * n + j];
      const double vr = v[j] - W->u[i];
      const double Ri = fmin(bound, fmax(-bound, W->R[i] - mjj * vr));
      const double d = Ri - W->R[i];
      for (size_t r = 0; r < n; r++)
        v[r] += W->Mi[r * n + j] * d; /* M^-1 e_j d (W^-1 e_j d when implicit) */
      W->R[i] = Ri;
      change = fmax(change, fabs(d));
      scale = fmax(scale, fabs(Ri));
    }
    conv = change <= p->pgs_tol * fmax(scale, DBL_MIN) || (nc == 0 && nn == 1);
  }
  return conv;
}

/* U += G e_l d: the rows' velocities after impulse l changed by d (G symmetric: row l's
 * nonzeros), O(nonzeros of the row). */
static void mj_band_push(const fb_band_rows *B, size_t l, double d, double *U)
{
  for (size_t q = B->gptr[l]; q < B->gptr[l + 1]; q++)
    U[B->gcol[q]] += B->gval[q] * d;
}

/* mj_pgs on a banded plant: the same sweeps in the contact rows' coordinates, U = R v with
 * the Delassus matrix G = R A^-1 R^T (A = M, or W when implicit; contact/fb_band_rows.h),
 * each update O(nonzeros of G's row); v = v_free + sum_l A^-1 r_l^T z_l once at the end,
 * O(n m).  The same iteration as the dense path's (in exact arithmetic): normals first,
 * then the friction contacts, the same local solves, projections and stopping test. */
static int mj_pgs_band(mjw *W, const mj_n_params *p, double t1, double h, double *v,
                       long *sweeps)
{
  const fb_plant *pl = W->pb->plant;
  const fb_band_rows *B = &W->br;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc, m = B->m;
  double *U = W->U;
  fb_sprow r;
  for (size_t l = 0; l < m; l++) {
    fb_band_rows_row(B, pl, l, &r);
    U[l] = fb_sprow_dot(&r, v);
  }
  int conv = 0;
  const long smax = (long)p->pgs_max;
  while (!conv && *sweeps < smax) {
    double change = 0, scale = 0;
    (*sweeps)++;
    for (size_t k = 0; k < nn; k++) {
      if (!W->closed[k])
        continue;
      /* [AB08] eq. 10.8: P <- max(0, P - (J_n v + e J_n v_k) / w) */
      const double un = U[k] + pl->normal[k].np_[0] * fmin(W->vn0[k], 0.0);
      const double Pn = fmax(0.0, W->P[k] - un / W->w[k]);
      const double d = Pn - W->P[k];
      mj_band_push(B, k, d, U);
      W->P[k] = Pn;
      change = fmax(change, fabs(d));
      scale = fmax(scale, Pn);
    }
    for (size_t i = 0; i < nc; i++) {
      const double bound = mj_bound(W, i, t1, h), gii = B->G[(nn + i) * m + nn + i];
      const double Ri = fmin(bound, fmax(-bound, W->R[i] - (U[nn + i] - W->u[i]) / gii));
      const double d = Ri - W->R[i];
      mj_band_push(B, nn + i, d, U);
      W->R[i] = Ri;
      change = fmax(change, fabs(d));
      scale = fmax(scale, fabs(Ri));
    }
    conv = change <= p->pgs_tol * fmax(scale, DBL_MIN) || (nc == 0 && nn == 1);
  }
  for (size_t l = 0; l < m; l++) {
    const double z = l < nn ? W->P[l] : W->R[l - nn];
    if (z != 0.0)
      for (size_t j = 0; j < n; j++)
        v[j] += B->C[l * n + j] * z;
  }
  return conv;
}

/* A banded plant: the iteration matrix A (W = M + theta h D + theta^2 h^2 K when implicit,
 * else M) factored in the band store with the rows' columns once per step size (the
 * explicit A for every h), w = G's diagonal; when implicit, the free velocity
 * v_free = v_k + W^-1 h [f_{k+theta} - D v_k - K (x_k + theta h v_k)] into v (the dense
 * path's mj_implicit_free with banded solves in place of W^-1). */
static int mj_band_free(mjw *W, const mj_n_params *p, double t0, double t1, double h,
                        const double *x, double *v, fb_err *err)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn;
  const double th = p->theta;
  const int impl = p->linear == 1;
  const double hw = impl ? h : 0.0;
  if (!(W->br.h == hw)) {
    if (fb_band_rows_factor(&W->br, pl, 1.0, impl ? th * h : 0.0, impl ? th * th * h * h : 0.0,
                            hw) != FB_OK)
      return fb_err_set(err, FB_ESOLVE, "moreau-jean: M + theta h D + theta^2 h^2 K is not "
                        "positive definite (h = %g)", h);
    for (size_t k = 0; k < nn; k++)
      W->w[k] = W->br.G[k * W->br.m + k];
  }
  if (!impl)
    return FB_OK;
  for (size_t i = 0; i < n; i++)
    W->xp[i] = x[i] + th * h * v[i];
  fb_plant_smooth_force(pl, t0, W->xp, v, W->f0);
  fb_plant_smooth_force(pl, t1, W->xp, v, W->f1);
  for (size_t i = 0; i < n; i++)
    W->f0[i] = h * ((1 - th) * W->f0[i] + th * W->f1[i]);
  fb_band_rows_solve(&W->br, W->f0);
  for (size_t i = 0; i < n; i++)
    v[i] += W->f0[i];
  return FB_OK;
}

/* The slip of friction contact i with a Jacobian row (fb_stepping_step.rows_slip). */
static void mj_slip2(void *ctx, size_t i, const double *v, double u[2])
{
  u[0] = u[1] = 0;
  mj_rows_slip(ctx, i, v, u);
}

/* The statistics after the step from t0 to t1 = t0 + h that ended at y. */
static void mj_stats(mjw *W, double t0, double t1, double h, double *y)
{
  const fb_plant *pl = W->pb->plant;
  const size_t nn = pl->nn;
  fb_impact_stats *st = W->st;
  const fb_stepping_step s = {.P = W->P, .vn0 = W->vn0, .gk = W->gk,
                              .w0 = nn > 0 ? W->w[0] : (double)NAN, .us = W->u, .mu = W->u + pl->nc,
                              .f = W->f1, .a = W->a, .rows_slip = mj_slip2, .ctx = W};
  fb_stepping_stats(pl, st, &s, W->inphase, &W->impacted, t0, t1, h, y);
  if (st->on_step != NULL) {
    for (size_t k = 0; k < nn; k++)
      W->lamh[k] = W->P[k] / h;
    for (size_t i = 0; i < pl->nc; i++)
      W->Fh[i] = W->R[i] / h;
    st->on_step(st->on_step_ctx, t1, y, W->lamh, W->Fh);
  }
}

/* linear = implicit: W^-1 = (M + theta h D + theta^2 h^2 K)^-1 for step h (once per step
 * size), the impulse columns W^-1 J_n^T and w = J_n W^-1 J_n^T, and the free velocity
 * v_free = v_k + W^-1 h [f_{k+theta} - D v_k - K (x_k + theta h v_k)] into v
 * ([AB08] §10.1 with the linear forces implicit). */
static int mj_implicit_free(mjw *W, double th, double t0, double t1, double h, const double *x,
                            double *v, fb_err *err)
{
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn;
  if (W->h_w != h) {
    for (size_t i = 0; i < n * n; i++)
      W->Wi[i] = pl->M[i] + th * h * pl->D[i] + th * th * h * h * pl->K[i];
    gsl_matrix_view Wv = gsl_matrix_view_array(W->Wi, n, n);
    if (gsl_linalg_cholesky_decomp1(&Wv.matrix) != GSL_SUCCESS ||
        gsl_linalg_cholesky_invert(&Wv.matrix) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "moreau-jean: M + theta h D + theta^2 h^2 K is not "
                        "positive definite (h = %g)", h);
    for (size_t k = 0; k < nn; k++) {
      double *c = W->MJ + k * n;
      for (size_t i = 0; i < n; i++)
        c[i] = fb_dotn(W->Wi + i * n, pl->normal[k].Jn, n);
      W->w[k] = fb_dotn(pl->normal[k].Jn, c, n);
    }
    W->h_w = h;
  }
  for (size_t i = 0; i < n; i++)
    W->xp[i] = x[i] + th * h * v[i];
  fb_plant_smooth_force(pl, t0, W->xp, v, W->f0);
  fb_plant_smooth_force(pl, t1, W->xp, v, W->f1);
  for (size_t i = 0; i < n; i++)
    W->f0[i] = h * ((1 - th) * W->f0[i] + th * W->f1[i]);
  for (size_t i = 0; i < n; i++)
    v[i] += fb_dotn(W->Wi + i * n, W->f0, n);
  return FB_OK;
}

/* One step from at->t of o->h (landing on T, the plant's breaks inside it: t1 = t0 + h
 * accumulated, as the scheme always stepped). */
static int mjw_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  mjw *W = ws;
  const fb_plant *pl = W->pb->plant;
  const size_t n = pl->n, nn = pl->nn, nc = pl->nc;
  const mj_n_params *p = (const mj_n_params *)pl->normal[0].np_;
  double *x = y, *v = y + n;
  const double th = p->theta;
  const double t0 = at->t;
  double h = W->o->h;
  if (t0 + h > pl->T || pl->T - (t0 + h) < 1e-9 * h)
    h = pl->T - t0; /* land on T */
  const double t1 = t0 + h;
  memcpy(W->v0, v, n * sizeof(double));
  if (pl->banded) { /* the band store's A (and v_free when implicit) */
    const int s = mj_band_free(W, p, t0, t1, h, x, v, err);
    cnt->nfe += p->linear == 1 ? 2 : 0;
    if (s != FB_OK)
      return s;
  }
  if (pl->banded && p->linear == 1) {
    ; /* v_free is in v */
  } else if (W->Wi != NULL) {
    const int s = mj_implicit_free(W, th, t0, t1, h, x, v, err);
    cnt->nfe += 2;
    if (s != FB_OK)
      return s;
  } else {
    /* smooth forces, theta-weighted with an explicit predictor */
    fb_plant_smooth_force(pl, t0, x, v, W->f0);
    for (size_t i = 0; i < n; i++)
      W->xp[i] = x[i] + h * v[i];
    fb_plant_smooth_force(pl, t1, W->xp, v, W->f1);
    cnt->nfe += 2;
    for (size_t i = 0; i < n; i++)
      W->f0[i] = h * ((1 - th) * W->f0[i] + th * W->f1[i]);
    fb_plant_solve_mass(pl, W->f0, W->a);
    for (size_t i = 0; i < n; i++)
      v[i] += W->a[i]; /* v_free */
  }
  /* the index set: closed normals by the predicted gap */
  for (size_t k = 0; k < nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    W->vn0[k] = fb_dotn(nm->Jn, W->v0, n);
    const double g = fb_dotn(nm->Jn, x, n) + nm->g0;
    W->gk[k] = g;
    W->closed[k] = g + th * h * W->vn0[k] <= 0;
    W->P[k] = 0;
  }
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    double us;
    fb_contact_in_at(pl, i, t1, &ci, &us);
    double vr0 = W->v0[pl->contact[i].dof] - us;
    W->u[i] = us;
    if (pl->contact[i].Jt != NULL) { /* the unit's |u| (a 2-D contact's x entry: both) */
      const size_t x0 = pl->contact[i].pair == FB_PAIR_Y ? i - 1 : i;
      double ux = fb_contact_vel(pl, x0, W->v0), uy = 0;
      fb_contact_in cx;
      double usx;
      fb_contact_in_at(pl, x0, t1, &cx, &usx);
      ux -= usx;
      if (pl->contact[x0].pair == FB_PAIR_X) {
        double usy;
        fb_contact_in_at(pl, x0 + 1, t1, &cx, &usy);
        uy = fb_contact_vel(pl, x0 + 1, W->v0) - usy;
      }
      vr0 = hypot(ux, uy);
    }
    W->u[nc + i] = fb_friction_mu(&pl->contact[i].law, fabs(vr0), NULL); /* mu(|v_r,k|) */
    W->R[i] = 0;
  }
  long sweeps = 0;
  const int conv = pl->banded ? mj_pgs_band(W, p, t1, h, v, &sweeps)
                              : mj_pgs(W, p, t1, h, v, &sweeps);
  cnt->ninner += (unsigned long)sweeps;
  if (!conv) { /* the run ends at t0 with v as the sweeps left it, as it always did */
    at->keep = 1;
    at->tnew = t0;
    return fb_err_set(err, FB_EGSL, "moreau-jean: projected Gauss-Seidel did not converge "
                      "in %ld sweeps at t=%g", sweeps, t0);
  }
  for (size_t i = 0; i < n; i++)
    x[i] += h * ((1 - th) * W->v0[i] + th * v[i]);
  if (pl->kin.nquat > 0) { /* Q <- exp(h/2 (0, omega_theta)) (x) Q: unit to round-off */
    for (size_t i = 0; i < n; i++)
      W->xp[i] = (1 - th) * W->v0[i] + th * v[i];
    double *Q = y + 2 * n + nc * W->pb->model->type->nz;
    fb_kin_rotate(pl, W->xp, h, Q);
    if (pl->kin.renormalize)
      fb_kin_normalize(pl, Q);
  }
  mj_stats(W, t0, t1, h, y);
  at->tnew = t1;
  return FB_OK;
}

/* The stepper the contact scheme runs for this treatment (its budget and messages are the
 * contact scheme's, named after this type). */
static const fb_integrator_type mj_n_stepper = {
    .name = "moreau-jean",
    .title = "Moreau-Jean time stepping of a plant with normal contacts",
    .fixed_ok = 1,
    .alloc = mjw_alloc,
    .free = mjw_free,
    .reset = mjw_reset,
    .step = mjw_step,
    .takes_quat = 1, /* the attitude by the exponential map (fb_kin_rotate) */
};

const fb_normal_type fb_normal_moreau_jean = {
    .name = "moreau-jean",
    .title = "Moreau-Jean time stepping: theta-method, Newton's law at the velocity level, "
             "Coulomb impulse (fixed step)",
    .reference = "[Moreau1988], [Jean1999], [AcaryBrogliato2008] §10.1 eqs. 10.4-10.10",
    .params = &mj_n_set,
    .ns = 0,
    .event = 0,
    .resolve = mj_n_resolve,
    .stepper = &mj_n_stepper,
};
