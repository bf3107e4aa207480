/* sundials_band.c — the band view of a banded plant for SUNDIALS' band linear solver
 * (SUNBandMatrix, SUNLinSol_Band): cvode-bdf, cvode-adams, arkode-dirk and arkode-imex
 * on a plant of fb_plant_alloc_banded (docs/integrators/sundials.md, "Banded plants").
 *
 * fb_system's state y = [x(n), v(n), z(nc nz)] is not banded: x' = v alone couples
 * entries n apart.  The solver integrates the same ODE in another order, u = P y, the
 * entries of each DOF together:
 *
 *     u = [x_0, v_0, z(contacts on DOF 0), x_1, v_1, z(contacts on DOF 1), ...]
 *
 * (contacts in their order, each with its nz states).  With M diagonal, row v_j of the
 * Jacobian reaches x_k, v_k for |j - k| <= bw (the plant's half-bandwidth: D, K) and the
 * states of DOF j's own contacts; row x_j reaches v_j; a contact's states reach its DOF's
 * v and its own states (the law reads v_r = v_j - u_j(t) and z; the contact's normal force
 * and surface velocity depend on t only).  The half-bandwidths mu, ml are the largest
 * distances of those entries from the diagonal in u's order, found here once; with s =
 * 2 + c nz entries per DOF (c contacts on each DOF, the chain: c = 1) they are
 *
 *     mu = max(s bw, nz, 1),   ml = max(s bw + 1, nz).
 *
 * A non-diagonal M makes M^-1 (and so the Jacobian) dense, a scenario force that depends
 * on the state may couple any DOFs, and the attitude quaternions live outside the DOF
 * blocks: those plants are refused with the reason.  Set-up O(n + nc); no allocation
 * after it.
 */
#include <stdlib.h>

#include "fb_integrator_int.h"
#include "fb_plant_int.h"
#include "fb_sundials.h"

void fb_sun_band_free(fb_sun_common *c)
{
  free(c->perm);
  free(c->ys);
  c->perm = NULL;
  c->ys = c->fs = NULL;
}

/* The largest distance above (mu) and below (ml) the diagonal of entry (r, col). */
static void band_note(size_t r, size_t col, size_t *mu, size_t *ml)
{
  if (col > r && col - r > *mu)
    *mu = col - r;
  if (r > col && r - col > *ml)
    *ml = r - col;
}

/* mu, ml of the Jacobian in u's order, pos[i] the place in u of y's entry i, first[j] ..
 * first[j + 1] the contacts on DOF j in on[]. */
static void band_widths(fb_sun_common *c, const size_t *pos, const size_t *first,
                        const size_t *on)
{
  const fb_plant *pl = c->pb->plant;
  const size_t n = pl->n, nz = c->sys.nz, bw = pl->bw;
  size_t mu = 0, ml = 0;
  for (size_t j = 0; j < n; j++) {
    band_note(pos[j], pos[n + j], &mu, &ml); /* x_j' = v_j */
    const size_t rv = pos[n + j], k0 = j > bw ? j - bw : 0;
    for (size_t k = k0; k < n && k <= j + bw; k++) { /* v_j' = M_jj^-1 (f - D v - K x + F) */
      band_note(rv, pos[k], &mu, &ml);
      band_note(rv, pos[n + k], &mu, &ml);
    }
    for (size_t a = first[j]; a < first[j + 1]; a++)
      for (size_t l = 0; l < nz; l++) {
        const size_t zi = 2 * n + on[a] * nz + l;
        band_note(rv, pos[zi], &mu, &ml); /* F of DOF j's contacts */
        band_note(pos[zi], rv, &mu, &ml); /* z' reads v_r */
        for (size_t l2 = 0; l2 < nz; l2++)
          band_note(pos[zi], pos[2 * n + on[a] * nz + l2], &mu, &ml);
      }
  }
  c->mu = (sunindextype)(mu > 0 ? mu : 1);
  c->ml = (sunindextype)(ml > 0 ? ml : 1);
}

int fb_sun_band_init(fb_sun_common *c, const char *integ, fb_err *err)
{
  const fb_plant *pl = c->pb->plant;
  const size_t n = pl->n, nc = pl->nc, nz = c->sys.nz, dim = c->pb->dim;
  if (!pl->M_diagonal || pl->force_uses_state || pl->kin.nquat > 0 || dim != 2 * n + nc * nz)
    return fb_err_set(err, FB_EUNSUP,
                      "integrator %s on a banded plant needs a diagonal mass matrix, an applied "
                      "force of t only and no attitude quaternions (its band solver interleaves "
                      "x, v, z per DOF; docs/integrators/sundials.md)",
                      integ);
  c->perm = malloc(dim * sizeof(size_t));
  c->ys = malloc(2 * dim * sizeof(double));
  size_t *pos = malloc(dim * sizeof(size_t)), *first = calloc(n + 1, sizeof(size_t)),
         *on = malloc((nc ? nc : 1) * sizeof(size_t));
  if (c->perm == NULL || c->ys == NULL || pos == NULL || first == NULL || on == NULL) {
    free(pos), free(first), free(on);
    fb_sun_band_free(c);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  c->fs = c->ys + dim;
  /* the contacts grouped by DOF, in their order (a counting sort) */
  for (size_t i = 0; i < nc; i++)
    first[pl->contact[i].dof + 1]++;
  for (size_t j = 0; j < n; j++)
    first[j + 1] += first[j];
  for (size_t j = 0; j < n; j++) /* pos as the fill pointers for now */
    pos[j] = first[j];
  for (size_t i = 0; i < nc; i++)
    on[pos[pl->contact[i].dof]++] = i;
  size_t k = 0;
  for (size_t j = 0; j < n; j++) {
    c->perm[k++] = j;
    c->perm[k++] = n + j;
    for (size_t a = first[j]; a < first[j + 1]; a++)
      for (size_t l = 0; l < nz; l++)
        c->perm[k++] = 2 * n + on[a] * nz + l;
  }
  for (size_t u = 0; u < dim; u++)
    pos[c->perm[u]] = u;
  band_widths(c, pos, first, on);
  free(pos), free(first), free(on);
  return FB_OK;
}
