/* test_small_chol.c — fb_small_chol.h gives GSL's Cholesky bits: factor and solve of random
 * symmetric positive definite matrices, n = 1 ... FB_SMALL_CHOL_MAX, scaled over six decades,
 * equal bit by bit to gsl_linalg_cholesky_decomp1 + gsl_linalg_cholesky_solve; on indefinite
 * matrices both refuse (the sap scheme's Newton solve relies on this, models/sap.c). */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fb_small_chol.h"

#define NMAX FB_SMALL_CHOL_MAX

/* a reproducible uniform number in [-1, 1) (xorshift64) */
static double rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) * 0x1.0p-52 - 1.0;
}

/* A = B B^T + d I with B's entries over six decades; d < 0 may make A indefinite */
static void random_spd(double *A, size_t n, double d, uint64_t *s)
{
  double B[NMAX * NMAX];
  for (size_t i = 0; i < n * n; i++)
    B[i] = rnd(s) * pow(10.0, 3.0 * rnd(s));
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double t = 0.0;
      for (size_t k = 0; k < n; k++)
        t += B[i * n + k] * B[j * n + k];
      A[i * n + j] = t + (i == j ? d * fabs(rnd(s)) : 0.0);
    }
}

/* 1 when GSL and fb_small_chol agree on A (status; L and x bit by bit); *ok = factor passed */
static int same_as_gsl(const double *A, const double *b, size_t n, int *ok)
{
  double L[NMAX * NMAX], x[NMAX], xg[NMAX];
  gsl_matrix *H = gsl_matrix_alloc(n, n);
  memcpy(H->data, A, n * n * sizeof(double));
  memcpy(L, A, n * n * sizeof(double));
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  const int bad_gsl = gsl_linalg_cholesky_decomp1(H) != GSL_SUCCESS;
  const int bad = fb_small_chol(L, n) != 0;
  int same = bad == bad_gsl;
  *ok = !bad;
  if (same && !bad) {
    gsl_vector_const_view bv = gsl_vector_const_view_array(b, n);
    gsl_vector_view xv = gsl_vector_view_array(xg, n);
    gsl_linalg_cholesky_solve(H, &bv.vector, &xv.vector);
    fb_small_chol_solve(L, b, x, n);
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j <= i; j++)
        same = same && memcmp(&L[i * n + j], gsl_matrix_ptr(H, i, j), sizeof(double)) == 0;
    same = same && memcmp(x, xg, n * sizeof(double)) == 0;
  }
  gsl_set_error_handler(old);
  gsl_matrix_free(H);
  return same;
}

Test(small_chol, factor_and_solve_are_gsl_bit_for_bit)
{
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t n = 1; n <= NMAX; n++)
    for (int trial = 0; trial < 300; trial++) {
      double A[NMAX * NMAX], b[NMAX];
      random_spd(A, n, 1e-3, &s);
      for (size_t i = 0; i < n; i++)
        b[i] = rnd(&s) * pow(10.0, 3.0 * rnd(&s));
      int ok;
      cr_assert(same_as_gsl(A, b, n, &ok), "n = %zu, trial %d: differs from GSL", n, trial);
      cr_assert(ok, "n = %zu, trial %d: a positive definite matrix refused", n, trial);
    }
}

Test(small_chol, refuses_where_gsl_does)
{
  uint64_t s = 12345;
  int refused = 0;
  for (size_t n = 2; n <= NMAX; n++)
    for (int trial = 0; trial < 100; trial++) {
      double A[NMAX * NMAX], b[NMAX] = {0};
      random_spd(A, n, -1e6, &s); /* the diagonal pushed down: often indefinite */
      int ok;
      cr_assert(same_as_gsl(A, b, n, &ok), "n = %zu, trial %d: differs from GSL", n, trial);
      refused += !ok;
    }
  cr_assert_gt(refused, 100, "only %d indefinite matrices met", refused);
  double A[4] = {1.0, 2.0, 2.0, 1.0}; /* eigenvalues 3 and -1: the second pivot is -3 */
  cr_assert_eq(fb_small_chol(A, 2), -1);
}
