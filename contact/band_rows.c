/* band_rows.c — the contact rows of a banded plant: A = cm M + cd D + ck K factored in the
 * band store, the columns A^-1 r_l^T by banded solves and the Delassus matrix G = R A^-1 R^T
 * with its nonzeros by row (contact/fb_band_rows.h; docs/scenarios/chain.md "Contact rows of
 * a banded plant"). */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_band_rows.h"

int fb_band_rows_alloc(fb_band_rows *b, const fb_plant *pl, int with_contacts, fb_err *err)
{
  memset(b, 0, sizeof *b);
  const size_t n = pl->n, w = pl->bw + 1, m = pl->nn + (with_contacts ? pl->nc : 0);
  b->n = n, b->bw = pl->bw, b->nn = pl->nn, b->m = m;
  b->h = NAN;
  /* doubles: F, C, G, gval; then the indices */
  const size_t nd = n * w + m * n + 2 * m * m, ni = m + 1 + m * m;
  b->F = malloc(nd * sizeof(double) + ni * sizeof(size_t) + 1);
  if (b->F == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory for the contact rows (n = %zu, m = %zu)",
                      n, m);
  b->C = b->F + n * w;
  b->G = b->C + m * n;
  b->gval = b->G + m * m;
  b->gptr = (size_t *)(void *)(b->gval + m * m);
  b->gcol = b->gptr + m + 1;
  return FB_OK;
}

void fb_band_rows_free(fb_band_rows *b)
{
  free(b->F);
  memset(b, 0, sizeof *b);
}

void fb_band_rows_row(const fb_band_rows *b, const fb_plant *pl, size_t l, fb_sprow *r)
{
  if (l < b->nn)
    *r = *fb_plant_normal_row(pl, l);
  else
    fb_plant_contact_row(pl, l - b->nn, r);
}

void fb_band_rows_solve(const fb_band_rows *b, double *x)
{
  gsl_matrix_const_view fv = gsl_matrix_const_view_array(b->F, b->n, b->bw + 1);
  gsl_vector_view xv = gsl_vector_view_array(x, b->n);
  gsl_linalg_cholesky_band_svx(&fv.matrix, &xv.vector);
}

int fb_band_rows_factor(fb_band_rows *b, const fb_plant *pl, double cm, double cd, double ck,
                        double h)
{
  const size_t n = b->n, nw = n * (b->bw + 1), m = b->m;
  for (size_t i = 0; i < nw; i++)
    b->F[i] = cm * pl->Mb[i] + cd * pl->Db[i] + ck * pl->Kb[i];
  gsl_matrix_view fv = gsl_matrix_view_array(b->F, n, b->bw + 1);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  const int st = gsl_linalg_cholesky_band_decomp(&fv.matrix);
  gsl_set_error_handler(old);
  if (st != GSL_SUCCESS) {
    b->h = NAN;
    return FB_ESOLVE;
  }
  fb_sprow r;
  for (size_t l = 0; l < m; l++) { /* C_l = A^-1 r_l^T */
    double *c = b->C + l * n;
    memset(c, 0, n * sizeof(double));
    fb_band_rows_row(b, pl, l, &r);
    fb_sprow_axpy(&r, 1.0, c);
    fb_band_rows_solve(b, c);
  }
  size_t at = 0;
  for (size_t k = 0; k < m; k++) { /* G_kl = r_k . C_l, and its nonzeros by row */
    fb_band_rows_row(b, pl, k, &r);
    b->gptr[k] = at;
    for (size_t l = 0; l < m; l++) {
      const double g = fb_sprow_dot(&r, b->C + l * n);
      b->G[k * m + l] = g;
      if (g != 0.0) {
        b->gcol[at] = l;
        b->gval[at++] = g;
      }
    }
  }
  b->gptr[m] = at;
  b->h = h;
  return FB_OK;
}
