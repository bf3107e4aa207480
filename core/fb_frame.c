/* fb_frame.c — plane Euler–Bernoulli frame assembly (core/fb_frame.h; docs/scenarios/
 * elastic-frame.md).  Node-by-node numbering; the dense store (fb_frame_assemble) or the
 * banded one of a banded plant (fb_frame_assemble_band, half-bandwidth
 * fb_frame_half_bandwidth; docs/scenarios/chain.md "The banded plant"): only scatter()
 * knows the store.
 */
#include <math.h>
#include <string.h>

#include "fb_frame.h"

size_t fb_frame_ndof(const fb_frame *fr)
{
  return 3 * fr->nmember * fr->ne;
}

size_t fb_frame_half_bandwidth(const fb_frame *fr)
{
  (void)fr;
  return 5;
}

size_t fb_frame_dof(size_t node, unsigned c)
{
  return 3 * (node - 1) + c;
}

size_t fb_frame_last_node(const fb_frame *fr)
{
  return fr->nmember * fr->ne;
}

/* Element matrices in local coordinates (u1, v1, th1, u2, v2, th2), row-major 6 x 6.
 * Stiffness: Przemieniecki 1968 eq. 5.23 (axial EA/l [1 -1; -1 1], bending EI/l^3 with the
 * Hermite cubics); consistent mass: Przemieniecki eq. 11.34 (axial rho A l/6 [2 1; 1 2],
 * bending rho A l/420 [156 22l 54 -13l; ...]). */
void fb_frame_element_local(double l, double EA, double EI, double rhoA, double *ke,
                            double *me)
{
  memset(ke, 0, 36 * sizeof(double));
  memset(me, 0, 36 * sizeof(double));
  const double ka = EA / l, kb = EI / (l * l * l), ma = rhoA * l / 6.0,
               mb = rhoA * l / 420.0;
  const unsigned ax[2] = {0, 3}, be[4] = {1, 2, 4, 5};
  const double kax[2][2] = {{1, -1}, {-1, 1}}, max[2][2] = {{2, 1}, {1, 2}};
  const double kbe[4][4] = {{12, 6 * l, -12, 6 * l},
                            {6 * l, 4 * l * l, -6 * l, 2 * l * l},
                            {-12, -6 * l, 12, -6 * l},
                            {6 * l, 2 * l * l, -6 * l, 4 * l * l}};
  const double mbe[4][4] = {{156, 22 * l, 54, -13 * l},
                            {22 * l, 4 * l * l, 13 * l, -3 * l * l},
                            {54, 13 * l, 156, -22 * l},
                            {-13 * l, -3 * l * l, -22 * l, 4 * l * l}};
  for (unsigned i = 0; i < 2; i++)
    for (unsigned j = 0; j < 2; j++) {
      ke[ax[i] * 6 + ax[j]] = ka * kax[i][j];
      me[ax[i] * 6 + ax[j]] = ma * max[i][j];
    }
  for (unsigned i = 0; i < 4; i++)
    for (unsigned j = 0; j < 4; j++) {
      ke[be[i] * 6 + be[j]] = kb * kbe[i][j];
      me[be[i] * 6 + be[j]] = mb * mbe[i][j];
    }
}

/* G = T^T L T for the element rotation T = diag(R, R), R = [c s 0; -s c 0; 0 0 1]
 * (local = T global). */
static void rotate(const double *L, double c, double s, double *G)
{
  double T[36] = {0}, LT[36];
  for (unsigned b = 0; b < 2; b++) {
    const unsigned o = 3 * b;
    T[(o + 0) * 6 + o + 0] = c;
    T[(o + 0) * 6 + o + 1] = s;
    T[(o + 1) * 6 + o + 0] = -s;
    T[(o + 1) * 6 + o + 1] = c;
    T[(o + 2) * 6 + o + 2] = 1;
  }
  for (unsigned i = 0; i < 6; i++)
    for (unsigned j = 0; j < 6; j++) {
      double acc = 0;
      for (unsigned k = 0; k < 6; k++)
        acc += L[i * 6 + k] * T[k * 6 + j];
      LT[i * 6 + j] = acc;
    }
  for (unsigned i = 0; i < 6; i++)
    for (unsigned j = 0; j < 6; j++) {
      double acc = 0;
      for (unsigned k = 0; k < 6; k++)
        acc += T[k * 6 + i] * LT[k * 6 + j];
      G[i * 6 + j] = acc;
    }
}

/* Add the element matrices of every element into the store: dense row-major n x n
 * (band = 0), or GSL's symmetric band layout n x (bw + 1) (band = 1, upper
 * triangle only, A(i, j) at [i (bw + 1) + j - i]): the only code that knows the store. */
static void scatter(size_t n, size_t bw, int band, size_t gi, size_t gj, double k, double m,
                    double *K, double *M)
{
  if (!band) {
    K[gi * n + gj] += k;
    M[gi * n + gj] += m;
  } else if (gj >= gi) {
    K[gi * (bw + 1) + (gj - gi)] += k;
    M[gi * (bw + 1) + (gj - gi)] += m;
  }
}

static int assemble(const fb_frame *fr, int band, double *M, double *K)
{
  if (fr->nmember < 1 || fr->nmember > FB_FRAME_MAX_MEMBERS || fr->ne < 1 || !(fr->E > 0) ||
      !(fr->rho > 0) || !(fr->A > 0) || !(fr->I > 0))
    return -1;
  const size_t n = fb_frame_ndof(fr), bw = fb_frame_half_bandwidth(fr);
  const size_t len = band ? n * (bw + 1) : n * n;
  memset(M, 0, len * sizeof(double));
  memset(K, 0, len * sizeof(double));
  for (size_t m = 0; m < fr->nmember; m++) {
    const double dx = fr->px[m + 1] - fr->px[m], dy = fr->py[m + 1] - fr->py[m];
    const double len_m = hypot(dx, dy);
    if (!(len_m > 0) || !isfinite(len_m))
      return -1;
    const double l = len_m / (double)fr->ne, c = dx / len_m, s = dy / len_m;
    double kl[36], ml[36], kg[36], mg[36];
    fb_frame_element_local(l, fr->E * fr->A, fr->E * fr->I, fr->rho * fr->A, kl, ml);
    rotate(kl, c, s, kg);
    rotate(ml, c, s, mg);
    for (size_t e = 0; e < fr->ne; e++) {
      const size_t node[2] = {m * fr->ne + e, m * fr->ne + e + 1};
      /* scatter: the clamped node 0 has no free DOFs */
      for (unsigned i = 0; i < 6; i++) {
        if (node[i / 3] == 0)
          continue;
        const size_t gi = fb_frame_dof(node[i / 3], i % 3);
        for (unsigned j = 0; j < 6; j++) {
          if (node[j / 3] == 0)
            continue;
          const size_t gj = fb_frame_dof(node[j / 3], j % 3);
          scatter(n, bw, band, gi, gj, kg[i * 6 + j], mg[i * 6 + j], K, M);
        }
      }
    }
  }
  return 0;
}

int fb_frame_assemble(const fb_frame *fr, double *M, double *K)
{
  return assemble(fr, 0, M, K);
}

int fb_frame_assemble_band(const fb_frame *fr, double *Mb, double *Kb)
{
  return assemble(fr, 1, Mb, Kb);
}

/* Rayleigh damping D = alpha M + beta K (Clough & Penzien, Dynamics of Structures, 1993,
 * eq. 13-43): modal damping ratio zeta(w) = alpha/(2 w) + beta w/2. */
void fb_frame_rayleigh(size_t n, const double *M, const double *K, double alpha, double beta,
                       double *D)
{
  for (size_t i = 0; i < n * n; i++)
    D[i] = alpha * M[i] + beta * K[i];
}
