/* fb_plant.c — allocation, validation and the small dense algebra of the plant. */
#include "fb_plant.h"
#include "fb_plant_int.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the plant allocates, kept out of the public struct (fb_plant.ext_ is opaque outside
 * this file): it heads the single block behind the arrays, so no allocation is added. */
struct fb_plant_ext {
  double *jt_rows; /* the rows of fb_plant_alloc_jacobians, or NULL */
  double *mfac;    /* banded plants: the banded Cholesky factor of M, n x (bw + 1) */
  double *minv_d;  /* banded plants: 1 / M_ii (used when M is diagonal), n */
  double minv_norm; /* banded plants: ||M^-1||_inf, exact (diagonal M) or LAPACK's estimate */
  fb_sprow *nrows; /* banded plants: the normals' rows, then their indices and values (one
                      block built by fb_plant_finish), or NULL */
  double align_;   /* unused: keeps the block's arrays 16 bytes aligned, as malloc's */
};

/* Counts far beyond any plant, so that the block size below cannot wrap around. */
#define FB_PLANT_MAX_COUNT (1u << 24)

int fb_plant_alloc(fb_plant *pl, size_t n, size_t nc, size_t nbreaks)
{
  if (pl == NULL)
    return FB_EINVAL;
  memset(pl, 0, sizeof *pl);
  if (n == 0 || n > FB_PLANT_MAX_N || nc > FB_PLANT_MAX_COUNT || nbreaks > FB_PLANT_MAX_COUNT)
    return FB_EINVAL;
  /* One block: the private part, 4 matrices, x0, v0, breaks, then the contacts (aligned as
   * doubles). */
  const size_t nd = 4 * n * n + 2 * n + nbreaks;
  const size_t bytes = sizeof(struct fb_plant_ext) + nd * sizeof(double) +
                       (nc ? nc : 1) * sizeof(fb_contact);
  struct fb_plant_ext *ext = calloc(1, bytes);
  if (ext == NULL)
    return FB_ENOMEM;
  double *b = (double *)(void *)(ext + 1);
  pl->ext_ = ext;
  pl->n = n;
  pl->nc = nc;
  pl->M = b;
  pl->Minv = b + n * n;
  pl->D = b + 2 * n * n;
  pl->K = b + 3 * n * n;
  pl->x0 = b + 4 * n * n;
  pl->v0 = pl->x0 + n;
  pl->breaks = pl->v0 + n;
  pl->nbreaks = nbreaks;
  pl->contact = (fb_contact *)(void *)(b + nd);
  for (size_t i = 0; i < n; i++)
    pl->M[i * n + i] = 1.0;
  pl->t0 = 0.0;
  pl->T = 1.0;
  pl->f_c = NAN;
  pl->v_scale = 1.0;
  pl->v_stick = NAN;
  pl->path_dof[0] = pl->path_dof[1] = -1;
  return FB_OK;
}

int fb_plant_alloc_banded(fb_plant *pl, size_t n, size_t bw, size_t nc, size_t nbreaks)
{
  if (pl == NULL)
    return FB_EINVAL;
  memset(pl, 0, sizeof *pl);
  if (n == 0 || n > FB_PLANT_MAX_N_BANDED || bw >= n || bw > 64 || nc > FB_PLANT_MAX_COUNT ||
      nbreaks > FB_PLANT_MAX_COUNT)
    return FB_EINVAL;
  /* One block: the private part, M, D, K and the factor (n (bw + 1) each), 1/M_ii, x0, v0,
   * breaks, then the contacts: O(n bw + nc) memory, no n x n array anywhere. */
  const size_t w = bw + 1, nd = 4 * n * w + 3 * n + nbreaks;
  const size_t bytes = sizeof(struct fb_plant_ext) + nd * sizeof(double) +
                       (nc ? nc : 1) * sizeof(fb_contact);
  struct fb_plant_ext *ext = calloc(1, bytes);
  if (ext == NULL)
    return FB_ENOMEM;
  double *b = (double *)(void *)(ext + 1);
  pl->ext_ = ext;
  pl->n = n;
  pl->nc = nc;
  pl->banded = 1;
  pl->bw = bw;
  pl->Mb = b;
  pl->Db = b + n * w;
  pl->Kb = b + 2 * n * w;
  ext->mfac = b + 3 * n * w;
  ext->minv_d = b + 4 * n * w;
  pl->x0 = ext->minv_d + n;
  pl->v0 = pl->x0 + n;
  pl->breaks = pl->v0 + n;
  pl->nbreaks = nbreaks;
  pl->contact = (fb_contact *)(void *)(b + nd);
  for (size_t i = 0; i < n; i++)
    pl->Mb[i * w] = 1.0;
  pl->t0 = 0.0;
  pl->T = 1.0;
  pl->f_c = NAN;
  pl->v_scale = 1.0;
  pl->v_stick = NAN;
  pl->path_dof[0] = pl->path_dof[1] = -1;
  return FB_OK;
}

int fb_plant_alloc_normals(fb_plant *pl, size_t nn)
{
  if (pl == NULL || pl->ext_ == NULL || nn > FB_PLANT_MAX_COUNT)
    return FB_EINVAL; /* before fb_plant_alloc */
  if (nn == 0)
    return FB_OK;
  /* one block: the nn descriptors, then their nn rows of n doubles */
  fb_normal *b = calloc(1, nn * sizeof(fb_normal) + nn * pl->n * sizeof(double));
  if (b == NULL)
    return FB_ENOMEM;
  double *rows = (double *)(void *)(b + nn);
  for (size_t k = 0; k < nn; k++) {
    b[k].Jn = rows + k * pl->n;
    b[k].fric = -1;
    b[k].a_scale = NAN;
    b[k].h_scale = NAN;
    for (size_t j = 0; j < FB_NORMAL_NP; j++)
      b[k].np_[j] = NAN;
  }
  pl->normal = b;
  pl->nn = nn;
  return FB_OK;
}

int fb_plant_alloc_jacobians(fb_plant *pl)
{
  if (pl == NULL || pl->ext_ == NULL || pl->banded) /* banded plants: one-DOF contacts */
    return FB_EINVAL;
  if (pl->nc == 0)
    return FB_OK;
  double *rows = calloc(pl->nc * pl->n, sizeof(double));
  if (rows == NULL)
    return FB_ENOMEM;
  free(pl->ext_->jt_rows);
  pl->ext_->jt_rows = rows;
  for (size_t i = 0; i < pl->nc; i++)
    pl->contact[i].Jt = rows + i * pl->n;
  return FB_OK;
}

int fb_plant_set_pair(fb_plant *pl, size_t i, fb_friction law, double N)
{
  if (pl == NULL || pl->contact == NULL || i >= pl->nc || pl->nc - i < 2)
    return FB_EINVAL; /* contacts i and i + 1 must exist */
  for (size_t a = 0; a < 2; a++) {
    pl->contact[i + a].law = law;
    pl->contact[i + a].c0 = (fb_contact_state){N, 0.0, 0.0};
    pl->contact[i + a].pair = a == 0 ? FB_PAIR_X : FB_PAIR_Y;
  }
  return FB_OK;
}

void fb_plant_free(fb_plant *pl)
{
  if (pl != NULL) {
    if (pl->ext_ != NULL) {
      free(pl->ext_->jt_rows);
      free(pl->ext_->nrows);
    }
    free(pl->normal);
    free(pl->ext_);
    memset(pl, 0, sizeof *pl);
  }
}

static int all_finite(const double *a, size_t k)
{
  for (size_t i = 0; i < k; i++)
    if (!isfinite(a[i]))
      return 0;
  return 1;
}

static int all_zero(const double *a, size_t k)
{
  for (size_t i = 0; i < k; i++)
    if (a[i] != 0.0)
      return 0;
  return 1;
}

/* The forcing data against force(), to the bit, at FB_FORCING_CHECKS times: both ends
 * and irregularly spaced times between (the golden ratio's fractional multiples), so
 * that a wrong amplitude, frequency, phase or DOF cannot agree by accident. */
static int check_forcing(const fb_plant *pl, const char *owner, fb_err *err)
{
  const fb_forcing *fd = &pl->forcing;
  if (fd->kind == FB_FORCING_CALL)
    return FB_OK;
  const size_t n = pl->n;
  if (fd->kind != FB_FORCING_COS || pl->force == NULL || pl->force_uses_state ||
      fd->dof >= n || !isfinite(fd->amp) || !isfinite(fd->omega))
    return fb_err_set(err, FB_EINVAL,
                      "%s: forcing data (kind %d, DOF %zu) must be amp cos(omega t) with finite "
                      "amp and omega on one of the %zu DOFs, of a force() of t only",
                      owner, fd->kind, fd->dof, n);
  double *f = malloc(2 * n * sizeof(double));
  if (f == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  double *zero = f + n;
  for (size_t i = 0; i < n; i++)
    zero[i] = 0.0;
  const double span = pl->T - pl->t0, golden = 0.6180339887498949;
  int st = FB_OK;
  for (int k = 0; k < FB_FORCING_CHECKS && st == FB_OK; k++) {
    const double frac = k == 0 ? 0.0 : k == 1 ? 1.0 : fmod((double)k * golden, 1.0);
    const double t = k == 1 ? pl->T : pl->t0 + frac * span;
    pl->force(pl->sp, t, zero, zero, f);
    for (size_t i = 0; i < n; i++) {
      const double want = i == fd->dof ? fd->amp * cos(fd->omega * t) : 0.0;
      if (memcmp(&f[i], &want, sizeof want) != 0 && !(f[i] == 0.0 && want == 0.0)) {
        st = fb_err_set(err, FB_EINVAL,
                        "%s: forcing data amp cos(omega t) = %.17g differs from force() = "
                        "%.17g on DOF %zu at t = %.17g",
                        owner, want, f[i], i, t);
        break;
      }
    }
  }
  free(f);
  return st;
}

/* The kinematic map's blocks: three angular-velocity DOFs inside [0, n) each, not shared,
 * and a unit initial quaternion (to 1e-12). */
static int check_kinematics(const fb_plant *pl, const char *owner, fb_err *err)
{
  const fb_kinematics *k = &pl->kin;
  if (k->nquat > FB_QUAT_MAX)
    return fb_err_set(err, FB_EINVAL, "%s: %zu quaternion blocks: allowed is at most %d", owner,
                      k->nquat, FB_QUAT_MAX);
  for (size_t b = 0; b < k->nquat; b++) {
    const double *q = k->quat[b].Q0;
    const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (k->quat[b].dof + 3 > pl->n || (b > 0 && k->quat[b].dof < k->quat[b - 1].dof + 3))
      return fb_err_set(err, FB_EINVAL,
                        "%s: quaternion block %zu at DOF %zu: allowed is three DOFs of its own "
                        "below n = %zu, blocks ascending",
                        owner, b, k->quat[b].dof, pl->n);
    if (!(fabs(nq - 1.0) <= 1e-12))
      return fb_err_set(err, FB_EINVAL, "%s: initial quaternion %zu has norm %.17g: allowed is 1",
                        owner, b, nq);
  }
  return FB_OK;
}

/* The dense store: M SPD and well conditioned, Minv, the flags. */
static int finish_dense(fb_plant *pl, const char *owner, fb_err *err)
{
  const size_t n = pl->n, nn = n * n;
  if (!all_finite(pl->M, nn) || !all_finite(pl->D, nn) || !all_finite(pl->K, nn))
    return fb_err_set(err, FB_EINVAL, "%s: mass, damping and stiffness must be finite", owner);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++)
      if (pl->M[i * n + j] != pl->M[j * n + i])
        return fb_err_set(err, FB_EINVAL, "%s: mass matrix must be symmetric", owner);
  /* Cholesky both proves M SPD and gives M^-1. */
  memcpy(pl->Minv, pl->M, nn * sizeof(double));
  gsl_matrix_view mv = gsl_matrix_view_array(pl->Minv, n, n);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int st = gsl_linalg_cholesky_decomp1(&mv.matrix);
  /* A singular M can pass the factorization through round-off (M = [[2,2],[2,2]] gives
   * a pivot of ~1e-16) and then M^-1 is garbage: refuse a reciprocal condition number
   * (LAPACK's 1-norm estimate from the factor) below FB_MASS_RCOND_MIN.  A diagonal M
   * is inverted exactly below and is not concerned. */
  int offdiag = 0;
  for (size_t i = 0; i < nn; i++)
    offdiag |= i % (n + 1) != 0 && pl->M[i] != 0.0;
  double rcond = 1.0;
  if (st == GSL_SUCCESS && offdiag) {
    gsl_vector *work = gsl_vector_alloc(3 * n);
    if (work == NULL) {
      gsl_set_error_handler(old);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    st = gsl_linalg_cholesky_rcond(&mv.matrix, &rcond, work);
    gsl_vector_free(work);
    if (st == GSL_SUCCESS && !(rcond >= FB_MASS_RCOND_MIN)) {
      gsl_set_error_handler(old);
      return fb_err_set(err, FB_EINVAL,
                        "%s: mass matrix is singular or ill-conditioned: condition number "
                        "%.3g (1-norm estimate); allowed is at most %.0g",
                        owner, rcond > 0 ? 1.0 / rcond : (double)INFINITY,
                        1.0 / FB_MASS_RCOND_MIN);
    }
  }
  if (st == GSL_SUCCESS)
    st = gsl_linalg_cholesky_invert(&mv.matrix);
  gsl_set_error_handler(old);
  if (st != GSL_SUCCESS)
    return fb_err_set(err, FB_EINVAL, "%s: mass matrix must be positive definite (mass > 0)",
                      owner);
  pl->M_diagonal = 1;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      if (i != j && pl->M[i * n + j] != 0.0)
        pl->M_diagonal = 0;
  if (pl->M_diagonal) /* exact reciprocals, not Cholesky round-off */
    for (size_t i = 0; i < n; i++)
      pl->Minv[i * n + i] = 1.0 / pl->M[i * n + i];
  pl->has_D = !all_zero(pl->D, nn);
  pl->has_K = !all_zero(pl->K, nn);
  return FB_OK;
}

/* The normals of a banded plant as sparse rows (fb_sprow): the nonzeros of each Jn in
 * column order, in one block (rows, then indices, then values).  O(nn n) to scan, set-up
 * only; the treatments then touch nnz entries per row. */
static int compress_normals(fb_plant *pl, const char *owner, fb_err *err)
{
  free(pl->ext_->nrows);
  pl->ext_->nrows = NULL;
  if (pl->nn == 0)
    return FB_OK;
  const size_t n = pl->n;
  size_t nnz = 0;
  for (size_t k = 0; k < pl->nn; k++)
    for (size_t j = 0; j < n; j++)
      nnz += pl->normal[k].Jn[j] != 0.0;
  fb_sprow *r = malloc(pl->nn * sizeof *r + nnz * (sizeof(size_t) + sizeof(double)));
  if (r == NULL)
    return fb_err_set(err, FB_ENOMEM, "%s: out of memory for the contact rows", owner);
  double *val = (double *)(void *)(r + pl->nn);
  size_t *idx = (size_t *)(void *)(val + nnz), at = 0;
  for (size_t k = 0; k < pl->nn; k++) {
    r[k] = (fb_sprow){0, idx + at, val + at};
    for (size_t j = 0; j < n; j++)
      if (pl->normal[k].Jn[j] != 0.0) {
        idx[at] = j;
        val[at++] = pl->normal[k].Jn[j];
        r[k].nnz++;
      }
  }
  pl->ext_->nrows = r;
  return FB_OK;
}

const fb_sprow *fb_plant_normal_row(const fb_plant *pl, size_t k)
{
  return pl->banded && pl->ext_->nrows != NULL && k < pl->nn ? &pl->ext_->nrows[k] : NULL;
}

void fb_plant_contact_row(const fb_plant *pl, size_t i, fb_sprow *r)
{
  static const double one = 1.0;
  *r = (fb_sprow){1, &pl->contact[i].dof, &one};
}

/* The banded store: M SPD by GSL's banded Cholesky (Golub & Van Loan, Matrix Computations,
 * 4th ed., §4.3.5, Algorithm 4.3.5), kept factored; condition from its 1-norm estimate; the
 * exact reciprocals 1/M_ii when M is diagonal.  O(n bw^2) time, no allocation beyond the
 * estimate's work vector. */
static int finish_banded(fb_plant *pl, const char *owner, fb_err *err)
{
  const size_t n = pl->n, w = pl->bw + 1, nw = n * w;
  if (!all_finite(pl->Mb, nw) || !all_finite(pl->Db, nw) || !all_finite(pl->Kb, nw))
    return fb_err_set(err, FB_EINVAL, "%s: mass, damping and stiffness must be finite", owner);
  pl->M_diagonal = 1;
  for (size_t i = 0; i < n; i++)
    for (size_t d = 1; d < w; d++)
      if (pl->Mb[i * w + d] != 0.0)
        pl->M_diagonal = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(pl->Mb[i * w] > 0.0))
      return fb_err_set(err, FB_EINVAL, "%s: mass matrix must be positive definite (mass > 0)",
                        owner);
    pl->ext_->minv_d[i] = 1.0 / pl->Mb[i * w];
    pl->ext_->minv_norm = fmax(pl->ext_->minv_norm, pl->ext_->minv_d[i]);
  }
  if (!pl->M_diagonal) {
    double *F = pl->ext_->mfac;
    memcpy(F, pl->Mb, nw * sizeof(double));
    gsl_matrix_view fv = gsl_matrix_view_array(F, n, w);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_linalg_cholesky_band_decomp(&fv.matrix);
    double rcond = 0.0;
    if (st == GSL_SUCCESS) {
      gsl_vector *work = gsl_vector_alloc(3 * n);
      st = work == NULL ? GSL_ENOMEM : gsl_linalg_cholesky_band_rcond(&fv.matrix, &rcond, work);
      gsl_vector_free(work);
    }
    gsl_set_error_handler(old);
    if (st != GSL_SUCCESS)
      return fb_err_set(err, FB_EINVAL, "%s: mass matrix must be positive definite (mass > 0)",
                        owner);
    if (!(rcond >= FB_MASS_RCOND_MIN))
      return fb_err_set(err, FB_EINVAL,
                        "%s: mass matrix is singular or ill-conditioned: condition number "
                        "%.3g (1-norm estimate); allowed is at most %.0g",
                        owner, rcond > 0 ? 1.0 / rcond : (double)INFINITY,
                        1.0 / FB_MASS_RCOND_MIN);
    double norm1 = 0.0; /* ||M||_1 = ||M||_inf (symmetric), then ||M^-1|| = 1/(rcond ||M||) */
    for (size_t i = 0; i < n; i++) {
      double row = 0.0;
      for (size_t j = i > pl->bw ? i - pl->bw : 0; j < n && j <= i + pl->bw; j++)
        row += fabs(fb_band_get(pl, pl->Mb, i, j));
      norm1 = fmax(norm1, row);
    }
    pl->ext_->minv_norm = 1.0 / (rcond * norm1);
  }
  pl->has_D = !all_zero(pl->Db, nw);
  pl->has_K = !all_zero(pl->Kb, nw);
  for (size_t i = 0; i < pl->nc; i++)
    if (pl->contact[i].Jt != NULL || pl->contact[i].pair != FB_PAIR_NONE)
      return fb_err_set(err, FB_EINVAL,
                        "%s: contact %zu: a banded plant takes one-DOF contacts only", owner, i);
  return compress_normals(pl, owner, err);
}

int fb_plant_finish(fb_plant *pl, const char *owner, fb_err *err)
{
  if (owner == NULL)
    owner = "plant";
  if (pl == NULL || pl->ext_ == NULL)
    return fb_err_set(err, FB_EINVAL, "%s: no plant (NULL, or not fb_plant_alloc'ed)", owner);
  const size_t n = pl->n;
  const int stm = pl->banded ? finish_banded(pl, owner, err) : finish_dense(pl, owner, err);
  if (stm != FB_OK)
    return stm;
  if (!all_finite(pl->x0, n) || !all_finite(pl->v0, n))
    return fb_err_set(err, FB_EINVAL, "%s: initial state must be finite", owner);
  if (!(isfinite(pl->t0) && isfinite(pl->T) && pl->T > pl->t0))
    return fb_err_set(err, FB_EINVAL, "%s: end time T = %g must be finite and > t0 = %g", owner,
                      pl->T, pl->t0);
  for (size_t k = 0; k < pl->nbreaks; k++) {
    const double b = pl->breaks[k];
    if (!(b > pl->t0 && b < pl->T) || (k > 0 && !(b > pl->breaks[k - 1])))
      return fb_err_set(err, FB_EINVAL, "%s: forcing break %g must lie inside (t0, T), ascending",
                        owner, b);
  }
  pl->npairs = 0;
  pl->has_jt = 0;
  for (size_t i = 0; i < pl->nc; i++) {
    const fb_contact *c = &pl->contact[i];
    if (c->Jt == NULL && c->dof >= n)
      return fb_err_set(err, FB_EINVAL, "%s: contact %zu acts on DOF %zu, have %zu", owner, i,
                        c->dof, n);
    if (c->Jt != NULL) {
      pl->has_jt = 1;
      if (!all_finite(c->Jt, n) || all_zero(c->Jt, n))
        return fb_err_set(err, FB_EINVAL,
                          "%s: contact %zu's Jacobian row must be finite and not zero", owner,
                          i);
    }
    if (c->pair > FB_PAIR_Y || (c->pair == FB_PAIR_X && (i + 1 >= pl->nc ||
                                                         pl->contact[i + 1].pair != FB_PAIR_Y)) ||
        (c->pair == FB_PAIR_Y && (i == 0 || pl->contact[i - 1].pair != FB_PAIR_X)))
      return fb_err_set(err, FB_EINVAL,
                        "%s: contact %zu: a 2-D contact is an x entry followed by its y entry",
                        owner, i);
    if (c->pair == FB_PAIR_Y) {
      const fb_contact *cx = &pl->contact[i - 1];
      /* field by field: a memcmp of the structs read their padding, which nobody sets
       * (valgrind's quick suite flagged it) and which could refuse equal laws */
      if (cx->law.shape != c->law.shape || cx->law.mu_s != c->law.mu_s ||
          cx->law.mu_k != c->law.mu_k || cx->law.vs != c->law.vs || cx->c0.N != c->c0.N)
        return fb_err_set(err, FB_EINVAL,
                          "%s: contact %zu: the components of a 2-D contact share the "
                          "friction law and the normal force",
                          owner, i);
      pl->npairs++;
    }
    int st2 = fb_friction_check(&c->law, owner, err);
    if (st2 != FB_OK)
      return st2;
    if (!(isfinite(c->c0.N) && c->c0.N >= 0))
      return fb_err_set(err, FB_EINVAL, "%s: normal force %g must be finite and >= 0", owner,
                        c->c0.N);
  }
  const int stk = check_kinematics(pl, owner, err);
  if (stk != FB_OK)
    return stk;
  for (size_t a = 0; a < 2; a++)
    if (pl->path_dof[a] >= (long)n)
      return fb_err_set(err, FB_EINVAL, "%s: path DOF %ld, have %zu", owner, pl->path_dof[a], n);
  const int stf = check_forcing(pl, owner, err);
  if (stf != FB_OK)
    return stf;
  if (!(isfinite(pl->f_c) && pl->f_c > 0))
    pl->f_c = 1.0 / (pl->T - pl->t0);
  if (!(isfinite(pl->v_scale) && pl->v_scale > 0))
    pl->v_scale = 1.0;
  if (!(isfinite(pl->v_stick) && pl->v_stick > 0))
    pl->v_stick = 1e-4 * pl->v_scale;
  if (!(isfinite(pl->L) && pl->L > 0))
    pl->L = pl->v_scale / (2.0 * M_PI * pl->f_c);
  return FB_OK;
}

/* a^T A b for rows a, b of contacts (NULL: the unit row e_dof) and an n x n matrix A */
static double contact_form(const fb_plant *pl, const double *A, size_t i, size_t k)
{
  const size_t n = pl->n;
  const fb_contact *ci = &pl->contact[i], *ck = &pl->contact[k];
  if (ci->Jt == NULL && ck->Jt == NULL)
    return A[ci->dof * n + ck->dof];
  double s = 0.0;
  for (size_t r = 0; r < n; r++) {
    const double ar = ci->Jt != NULL ? ci->Jt[r] : (r == ci->dof);
    if (ar == 0.0)
      continue;
    for (size_t c = 0; c < n; c++) {
      const double bc = ck->Jt != NULL ? ck->Jt[c] : (c == ck->dof);
      s += ar * A[r * n + c] * bc;
    }
  }
  return s;
}

/* (M^-1)_{ab} of a banded plant: exact for a diagonal M, else one banded solve of the unit
 * vector e_b (O(n bw), with an n-vector allocated: set-up callers only). */
static double banded_minv(const fb_plant *pl, size_t a, size_t b)
{
  if (pl->M_diagonal)
    return a == b ? pl->ext_->minv_d[a] : 0.0;
  double *e = calloc(pl->n, sizeof(double));
  if (e == NULL)
    return NAN;
  e[b] = 1.0;
  gsl_matrix_view fv = gsl_matrix_view_array(pl->ext_->mfac, pl->n, pl->bw + 1);
  gsl_vector_view ev = gsl_vector_view_array(e, pl->n);
  gsl_linalg_cholesky_band_svx(&fv.matrix, &ev.vector);
  const double r = e[a];
  free(e);
  return r;
}

double fb_plant_contact_coupling(const fb_plant *pl, size_t i, size_t k)
{
  if (pl == NULL || pl->ext_ == NULL || i >= pl->nc || k >= pl->nc)
    return NAN;
  if (pl->banded)
    return banded_minv(pl, pl->contact[i].dof, pl->contact[k].dof);
  return contact_form(pl, pl->Minv, i, k);
}

double fb_plant_contact_mass(const fb_plant *pl, size_t i)
{
  if (pl->banded)
    return 1.0 / banded_minv(pl, pl->contact[i].dof, pl->contact[i].dof);
  return 1.0 / contact_form(pl, pl->Minv, i, i);
}

double fb_plant_contact_stiffness(const fb_plant *pl, size_t i)
{
  if (pl->banded)
    return fb_band_get(pl, pl->Kb, pl->contact[i].dof, pl->contact[i].dof);
  return contact_form(pl, pl->K, i, i);
}

double fb_plant_M_at(const fb_plant *pl, size_t i, size_t j)
{
  return pl->banded ? fb_band_get(pl, pl->Mb, i, j) : pl->M[i * pl->n + j];
}

double fb_plant_K_at(const fb_plant *pl, size_t i, size_t j)
{
  return pl->banded ? fb_band_get(pl, pl->Kb, i, j) : pl->K[i * pl->n + j];
}

double fb_plant_minv_norm(const fb_plant *pl)
{
  return pl->ext_->minv_norm;
}

double fb_plant_minv_diag(const fb_plant *pl, size_t j)
{
  return pl->banded ? banded_minv(pl, j, j) : pl->Minv[j * pl->n + j];
}

void fb_band_matvec(const fb_plant *pl, const double *A, const double *x, double *y)
{
  const size_t n = pl->n, w = pl->bw + 1;
  for (size_t i = 0; i < n; i++)
    y[i] = 0.0;
  for (size_t i = 0; i < n; i++) {
    const double *row = A + i * w;
    double s = row[0] * x[i];
    for (size_t d = 1; d < w && i + d < n; d++) {
      s += row[d] * x[i + d];
      y[i + d] += row[d] * x[i];
    }
    y[i] += s;
  }
}

double fb_band_quad(const fb_plant *pl, const double *A, const double *x)
{
  const size_t n = pl->n, w = pl->bw + 1;
  double s = 0.0;
  for (size_t i = 0; i < n; i++) {
    const double *row = A + i * w;
    double r = 0.0;
    for (size_t d = 1; d < w && i + d < n; d++)
      r += row[d] * x[i + d];
    s += x[i] * (row[0] * x[i] + 2.0 * r);
  }
  return s;
}

/* y += alpha A x for a band array A of the plant (symmetric, half-bandwidth bw), without
 * scratch: row i of A is the band above the diagonal and, by symmetry, the column below
 * it.  alpha = -1 subtracts exactly (a negation is exact). */
void fb_band_axpy(const fb_plant *pl, double alpha, const double *A, const double *x,
                  double *y)
{
  const size_t n = pl->n, w = pl->bw + 1;
  for (size_t i = 0; i < n; i++) {
    const double *row = A + i * w;
    double s = row[0] * x[i];
    for (size_t d = 1; d < w && i + d < n; d++) {
      s += row[d] * x[i + d];
      y[i + d] += alpha * row[d] * x[i];
    }
    y[i] += alpha * s;
  }
}

/* The (model, integrator) pairs that run a banded plant, as data: each reads M, D, K only
 * through fb_plant_sub_linear, fb_plant_solve_mass and the band arrays, and contacts through
 * their DOF (docs/scenarios/chain.md, "Which treatments run a banded plant").  The generic
 * explicit ODE steppers run every ODE model that needs no applied-force split. */
static const char *const banded_pairs[][2] = {
    {"moreau-jean", "moreau-jean"},
    {"kikuuwe-be", "kbe-relay"},
    {"kikuuwe-be", "kbe-symplectic"},
    {NULL, NULL},
};

/* The time-stepping normal treatments that run a banded plant under the contact scheme: each
 * factors its iteration matrix in the band store and reads the normals as sparse rows
 * (docs/scenarios/chain.md "Contact rows of a banded plant"). */
static const char *const banded_normals[] = {"moreau-jean", "penalty-newmark", "penalty-nm",
                                              NULL};

int fb_plant_banded_normal(size_t k, const char **normal)
{
  if (k >= sizeof banded_normals / sizeof banded_normals[0] - 1)
    return 0;
  *normal = banded_normals[k];
  return 1;
}

int fb_plant_banded_normal_ok(const char *normal)
{
  for (size_t k = 0; banded_normals[k] != NULL; k++)
    if (strcmp(normal, banded_normals[k]) == 0)
      return 1;
  return 0;
}

int fb_plant_banded_pair(size_t k, const char **model, const char **integ)
{
  if (k >= sizeof banded_pairs / sizeof banded_pairs[0] - 1)
    return 0;
  *model = banded_pairs[k][0];
  *integ = banded_pairs[k][1];
  return 1;
}

/* The generic implicit ODE steppers that solve their Newton systems with a band linear
 * solver on a banded plant (SUNDIALS' SUNLinSol_Band, the state interleaved per DOF:
 * docs/integrators/sundials.md, "Banded plants").  GSL's implicit steppers form a dense
 * Jacobian and are not here. */
static const char *const banded_ode_implicit[] = {"cvode-bdf", "cvode-adams", "arkode-dirk",
                                                  "arkode-imex", NULL};

int fb_plant_banded_ode_implicit(size_t k, const char **integ)
{
  if (k >= sizeof banded_ode_implicit / sizeof banded_ode_implicit[0] - 1)
    return 0;
  *integ = banded_ode_implicit[k];
  return 1;
}

int fb_plant_banded_ok(const char *model, const char *integ, int ode_kind)
{
  if (ode_kind == FB_BANDED_ODE_EXPLICIT)
    return 1;
  if (ode_kind == FB_BANDED_ODE_IMPLICIT) {
    for (size_t k = 0; banded_ode_implicit[k] != NULL; k++)
      if (strcmp(integ, banded_ode_implicit[k]) == 0)
        return 1;
    return 0;
  }
  for (size_t k = 0; banded_pairs[k][0] != NULL; k++)
    if (strcmp(model, banded_pairs[k][0]) == 0 && strcmp(integ, banded_pairs[k][1]) == 0)
      return 1;
  return 0;
}

double fb_plant_contact_Fs(const fb_plant *pl, size_t i)
{
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, pl->t0, &cs);
  return cs.N * pl->contact[i].law.mu_s;
}

void fb_plant_smooth_force(const fb_plant *pl, double t, const double *x, const double *v,
                           double *f)
{
  const size_t n = pl->n;
  if (pl->force != NULL)
    pl->force(pl->sp, t, x, v, f);
  else
    for (size_t i = 0; i < n; i++)
      f[i] = 0.0;
  fb_plant_sub_linear(pl, x, v, f);
}

void fb_plant_sub_linear(const fb_plant *pl, const double *x, const double *v, double *f)
{
  const size_t n = pl->n;
  if (pl->banded) { /* O(n bw) */
    if (pl->has_D)
      fb_band_axpy(pl, -1.0, pl->Db, v, f);
    if (pl->has_K)
      fb_band_axpy(pl, -1.0, pl->Kb, x, f);
    return;
  }
  if (pl->has_D)
    for (size_t i = 0; i < n; i++) {
      double s = 0.0;
      for (size_t j = 0; j < n; j++)
        s += pl->D[i * n + j] * v[j];
      f[i] -= s;
    }
  if (pl->has_K)
    for (size_t i = 0; i < n; i++) {
      double s = 0.0;
      for (size_t j = 0; j < n; j++)
        s += pl->K[i * n + j] * x[j];
      f[i] -= s;
    }
}

void fb_plant_solve_mass(const fb_plant *pl, const double *f, double *a)
{
  const size_t n = pl->n;
  if (pl->banded) { /* exact reciprocals, or the two triangular band solves: O(n bw) */
    if (pl->M_diagonal) {
      for (size_t i = 0; i < n; i++)
        a[i] = pl->ext_->minv_d[i] * f[i];
      return;
    }
    memcpy(a, f, n * sizeof(double));
    gsl_matrix_const_view fv = gsl_matrix_const_view_array(pl->ext_->mfac, n, pl->bw + 1);
    gsl_vector_view av = gsl_vector_view_array(a, n);
    gsl_linalg_cholesky_band_svx(&fv.matrix, &av.vector);
    return;
  }
  if (pl->M_diagonal) {
    for (size_t i = 0; i < n; i++)
      a[i] = pl->Minv[i * n + i] * f[i];
    return;
  }
  for (size_t i = 0; i < n; i++) {
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
      s += pl->Minv[i * n + j] * f[j];
    a[i] = s;
  }
}
