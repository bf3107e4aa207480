/* fb_small_chol.h — Cholesky factor and solve of a small dense symmetric positive definite
 * matrix (n <= FB_SMALL_CHOL_MAX), with the floating-point operations of GSL 2.7's
 * gsl_linalg_cholesky_decomp1 + gsl_linalg_cholesky_solve in their order, so the results are
 * the same bits without GSL's views, BLAS calls and triangle copy (a third of the sap
 * scheme's Newton iteration on a 1-3 DOF plant).  GSL runs its unblocked Gaxpy algorithm
 * (Golub & Van Loan, Matrix Computations, 4th ed., Algorithm 4.2.1; GSL's
 * cholesky_decomp_L2) below n = 24: column j is A(j:n, j) -= A(j:n, 0:j) A(j, 0:j)^T (one
 * dot product per row, summed from 0 in k's order, subtracted once: gslcblas dgemv with
 * alpha = -1, beta = 1), then scaled by 1/sqrt(a_jj), the diagonal included (gsl_vector_scale
 * by the reciprocal, not a division); the solve is gslcblas dtrsv twice, L c = b forward
 * and L^T x = c backward, each entry one dot product subtracted term by term, then divided
 * by the diagonal.  tests/test_small_chol.c compares the bits with GSL's on random and
 * indefinite matrices for every n up to the maximum.
 *
 * Only the lower triangle of A (row-major, n x n) is read and overwritten with L; the
 * factor fails (returns -1) exactly where GSL's does: at a pivot a_jj <= 0 (a NaN pivot
 * passes, as there).  GSL reports that failure through its error handler (by default an
 * abort); here the caller decides. */
#ifndef FB_SMALL_CHOL_H
#define FB_SMALL_CHOL_H

#include <math.h>
#include <stddef.h>

#define FB_SMALL_CHOL_MAX 12

static inline int fb_small_chol(double *A, size_t n)
{
  for (size_t j = 0; j < n; j++) {
    if (j > 0)
      for (size_t i = j; i < n; i++) {
        double t = 0.0;
        for (size_t k = 0; k < j; k++)
          t += A[j * n + k] * A[i * n + k];
        A[i * n + j] += -1.0 * t;
      }
    const double ajj = A[j * n + j];
    if (ajj <= 0.0)
      return -1;
    const double s = 1.0 / sqrt(ajj);
    for (size_t i = j; i < n; i++)
      A[i * n + j] *= s;
  }
  return 0;
}

/* x = (L L^T)^-1 b with L from fb_small_chol (x and b may be the same array). */
static inline void fb_small_chol_solve(const double *L, const double *b, double *x, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    double t = b[i];
    for (size_t j = 0; j < i; j++)
      t -= L[i * n + j] * x[j];
    x[i] = t / L[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {
    double t = x[i];
    for (size_t j = i + 1; j < n; j++)
      t -= L[j * n + i] * x[j];
    x[i] = t / L[i * n + i];
  }
}

#endif
