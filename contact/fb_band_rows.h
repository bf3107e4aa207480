/* fb_band_rows.h — the contact rows of a banded plant under a time-stepping treatment
 * (contact/band_rows.c; docs/scenarios/chain.md "Contact rows of a banded plant"), private to
 * contact/.
 *
 * A treatment that steps the whole plant with an iteration matrix A = cm M + cd D + ck K
 * (moreau-jean's W, penalty-newmark's S) and m contact rows r_l (the normals' sparse rows,
 * then the one-DOF friction contacts' unit rows) needs A^-1 r_l^T and the Delassus matrix
 * G = R A^-1 R^T.  Here A stays in the band store, factored by GSL's banded Cholesky
 * (Golub & Van Loan, Matrix Computations, 4th ed., §4.3.5), and the m columns A^-1 r_l^T
 * come from m banded solves, O(m n bw) once per step size: no inverse and no n x n array.
 * G's nonzeros are kept row by row (CSR) so that a Gauss–Seidel sweep over the contacts
 * touches each nonzero once.
 */
#ifndef FB_BAND_ROWS_H
#define FB_BAND_ROWS_H

#include "fb_plant_int.h"
#include "fb_status.h"

typedef struct fb_band_rows {
  size_t n, bw, nn, m; /* DOFs, half-bandwidth, normals, rows (nn + friction contacts) */
  double *F;           /* the banded Cholesky factor of A, n x (bw + 1) */
  double *C;           /* A^-1 r_l^T, m columns of n */
  double *G;           /* r_k A^-1 r_l^T, m x m row-major */
  size_t *gptr, *gcol; /* G's nonzeros: row k's columns gcol[gptr[k] .. gptr[k + 1]) */
  double *gval;
  double h;            /* the step A was factored for (NaN: none) */
} fb_band_rows;

/* Allocate for plant pl (banded) with its normals and, when with_contacts, its friction
 * contacts as rows (m = nn + nc, else nn).  One block; FB_ENOMEM on failure. */
int fb_band_rows_alloc(fb_band_rows *b, const fb_plant *pl, int with_contacts, fb_err *err);
void fb_band_rows_free(fb_band_rows *b);
/* Row l (l < nn: normal l, else friction contact l - nn) into *r. */
void fb_band_rows_row(const fb_band_rows *b, const fb_plant *pl, size_t l, fb_sprow *r);
/* Factor A = cm M + cd D + ck K (band arrays of pl), then the columns and G; h is recorded
 * as the step this is for.  FB_ESOLVE when A is not positive definite. */
int fb_band_rows_factor(fb_band_rows *b, const fb_plant *pl, double cm, double cd, double ck,
                        double h);
/* x <- A^-1 x (two triangular band solves, O(n bw)). */
void fb_band_rows_solve(const fb_band_rows *b, double *x);

#endif
