/* moreau_jean.c — Moreau–Jean time stepping with friction (J. J. Moreau, "Unilateral contact
 * and dry friction in finite freedom dynamics", CISM 302 (1988) 1-82; M. Jean, "The
 * non-smooth contact dynamics method", CMAME 177 (1999) 235-257; V. Acary & B. Brogliato,
 * "Numerical Methods for Nonsmooth Dynamical Systems", Springer 2008, §10.1; the scheme
 * of Siconos's MoreauJeanOSI; docs/design.md §3 M9).  The nonsmooth-dynamics standard.
 *
 * theta-method on the velocity level, with friction as impulses over the step:
 *     M (v_{k+1} - v_k) = h (f_{k+theta} - K x_{k+theta} - D v_{k+theta}) + J^T r_{k+1},
 *     x_{k+1} = x_k + h v_{k+theta},
 * q_{k+theta} = (1 - theta) q_k + theta q_{k+1} for x, v and the applied force f (Acary &
 * Brogliato eqs. 10.4-10.6; f is evaluated at the state x_k, v_k when the scenario's force
 * depends on it).  Eliminating x_{k+1}:
 *     Mhat v_{k+1} = M v_k + h (f_theta - K x_k - ((1 - theta) D + theta (1 - theta) h K) v_k
 *                              + J^T c gamma_k) + J^T r,
 *     Mhat = M + theta h D + theta^2 h^2 K,
 * so v_{k+1} = v_free + Mhat^-1 J^T r.  Contact i (DOF j_i, surface velocity u_i) has the
 * relative velocity v_r,i = v_{j_i,k+1} - u_i(t_{k+1}) and the relay law
 *     r_i in -h Fs_i Sgn(v_r,i)             (Fs_i = N_i mu_s at t_{k+1}),
 * all contacts together: v_r = v_r,free + W r with the Delassus matrix W = J Mhat^-1 J^T.
 * A non-Coulomb characteristic's velocity-weakening part c gamma_k = sgn(v_r,k) (Fs -
 * S(|v_r,k|)) is explicit, at the step's start (as in Glowinski's scheme, [Glowinski2004] eq. 20),
 * so that the relay's bound is the static force and a stuck step ends at v_r = 0.
 *
 * The relay problem (solver=auto):
 *  - W diagonal (one contact, or contacts on DOFs that Mhat does not couple, e.g. a diagonal
 *    mass without coupling springs): closed form per contact, Kikuuwe's Theorem 1 (seed
 *    002): r_i = -v_r,free,i / W_ii if |v_r,free,i| <= W_ii h Fs_i (stick: v_r,i = 0
 *    exactly), else -h Fs_i sgn(v_r,free,i);
 *  - otherwise projected Gauss–Seidel on the impulses: sweep i = 1..nc,
 *        r_i <- clamp(-(v_r,free,i + sum_{k != i} W_ik r_k) / W_ii, -h Fs_i, h Fs_i),
 *    warm-started from the previous step's forces, which converges for a symmetric
 *    positive definite W (contacts on distinct DOFs).  Stopping test, after each sweep:
 *        max_i |r_i^new - r_i^old| <= max(pgs_tol h max_i Fs_i,
 *                                          c_r eps max_i (|v_r,free,i| + sum_k |W_ik r_k|)/W_ii),
 *    c_r = pgs_floor (default 16), eps = DBL_EPSILON: a relative tolerance on the impulse
 *    scale h Fs, raised to the round-off floor of the local solve (its numerator carries
 *    an absolute round-off of about eps times the velocities summed, divided by W_ii),
 *    the same reasoning as the round-off-scaled stop of Glowinski's Uzawa iteration
 *    (models/glowinski.c).  Sweeps are counted in the run's ninner; pgs_max sweeps without
 *    meeting the test fail the run (FB_ESOLVE).
 * Stick: contact i is stuck when its local problem takes the linear branch (|v_r,free,i +
 * sum_{k != i} W_ik r_k| <= W_ii h Fs_i); its DOF's velocity is then set to u_i exactly,
 * which with a constant surface velocity and theta = 1/2 keeps x exactly constant.
 *
 * Order: on smooth slip phases theta = 1/2 is the trapezoidal (average acceleration)
 * scheme, second order; theta > 1/2 is first order.  A stop costs one local O(h^2) error
 * in x (the relay ends the stopping step at v = 0, which is exact at the step's end), so
 * with Coulomb friction and stops only the order stays 2 (inclined-block, glowinski-3dof:
 * 2.0 in x); a velocity reversal or a breakaway inside a step leaves an O(h) velocity
 * error whose constant depends on where in the step it falls (first order, not monotone
 * in h: stick-slip), and the explicit gamma is first order (glowinski-tp1, -2dof: 1.0).
 * tests/test_moreau_jean.c measures each.
 *
 * Parameters: theta (1, [1/2, 1], default 1/2); solver = auto | closed | pgs; pgs_tol
 * (default 1e-12), pgs_floor (16), pgs_max (10000); cone = disc | box | poly with facets
 * (default 8) and rotation (rad, 0) for the N-facet cone (docs/models/poly-cone.md).
 * State per contact (nz = 2): F_step (N: the step's mean friction force r/h + c gamma_k),
 * stick_step (1 when the relay stuck).
 * Counters: nfe applied-force evaluations (one per step, two at segment starts when
 * theta < 1), ninner PGS sweeps.  Forcing breaks are stepped to exactly; Mhat and W are
 * refactored only for a step of another length (before a break).  No allocation after
 * alloc.
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_plant_int.h"
#include "fb_util.h"

enum { MJ_SOLVER_AUTO = 0, MJ_SOLVER_CLOSED = 1, MJ_SOLVER_PGS = 2 };

typedef struct mj_params {
  double theta;     /* theta of the method, [1/2, 1] */
  double solver;    /* MJ_SOLVER_* */
  double pgs_tol;   /* PGS stop: relative change of the impulses */
  double pgs_floor; /* factor of the PGS stop's round-off floor */
  double pgs_max;   /* PGS sweeps allowed per step */
  double cone;      /* 2-D contacts: choice disc (isotropic), box (per axis) or poly */
  double facets;    /* cone = poly: facets N of the regular polygon (docs/models/poly-cone.md) */
  double rotation;  /* cone = poly: angle of the first facet's normal from +x (rad) */
} mj_params;

static const char *const mj_solver_names[] = {"auto", "closed", "pgs", NULL};
static const char *const mj_cone_names[] = FB_CONE_NAMES_POLY_INIT;

static const fb_param_desc mj_desc[] = {
    {"theta", "1", "theta-method weight: 1/2 trapezoidal (default), 1 implicit Euler",
     offsetof(mj_params, theta), 0.5, 0.5, 1.0, 0, NULL, NULL},
    {"solver", "-", "relay solver: auto (closed form when W is diagonal), closed, pgs",
     offsetof(mj_params, solver), MJ_SOLVER_AUTO, 0, 2, FB_PARAM_CHOICE, NULL, mj_solver_names},
    {"pgs_tol", "1", "PGS stop: max |dr| over h max Fs (raised to the round-off floor)",
     offsetof(mj_params, pgs_tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"pgs_floor", "1", "factor of the PGS stop's round-off floor (0: pgs_tol only)",
     offsetof(mj_params, pgs_floor), 16, 0, 1e6, 0, NULL, NULL},
    {"pgs_max", "1", "PGS sweeps allowed per step", offsetof(mj_params, pgs_max), 10000, 1, 1e9,
     FB_PARAM_INT, NULL, NULL},
    {"cone", "-", "friction set of 2-D contacts: disc (isotropic Coulomb), box (per axis) or "
     "poly (regular polygon of `facets` facets)", offsetof(mj_params, cone), 0, 0, 2,
     FB_PARAM_CHOICE, NULL, mj_cone_names},
    {"facets", "1", "cone = poly: facets of the polygon circumscribing the disc (4: the box)",
     offsetof(mj_params, facets), 8, 3, 1024, FB_PARAM_INT, NULL, NULL},
    {"rotation", "rad", "cone = poly: angle of the first facet's normal from the x axis",
     offsetof(mj_params, rotation), 0, -6.283185307179586, 6.283185307179586, 0, NULL, NULL},
};
static const fb_param_set mj_set = {sizeof(mj_params), 8, mj_desc};
/* ---- the scheme ----------------------------------------------------------------------- */

typedef struct mj_ws {
  const fb_problem *pb;
  const fb_plant *pl;
  mj_params p;
  double h, theta;
  unsigned long pgs_max;
  size_t n, nc;
  int solver; /* MJ_SOLVER_* as asked */
  int closed; /* W diagonal for the current factorization (auto) or forced */
  gsl_matrix *Mh;
  gsl_permutation *perm;
  gsl_vector *ev, *col;
  double dt_fact; /* step of the current factorization; NaN: none */
  double f0_t;    /* time (inside its segment) of the cached f0; NaN: none */
  double *block;
  double *Mhinv, *W, *f0, *f1, *q, *vfree, *vnew; /* n n, nc nc, n x5 */
  double *r, *vrf, *beta, *cg, *u1, *stick;               /* nc */
  double *MJ;   /* nc x n: row i = Mhat^-1 Jt_i^T (plants with Jacobian rows) */
  int disc;     /* 2-D contacts are one block: the disc or the N-gon (else the box: entries
                   independent) */
  int poly;     /* the block's set is the N-gon (cone = poly, not the box's N = 4) */
  int rows;     /* some contact has a Jacobian row */
  /* banded plants (mj_step_banded): Mhat in the plant's band layout, n x (bw + 1), and the
   * contact on each DOF (-1: none) */
  int banded;
  double *Mhb, *tmp;
  long *cof;
} mj_ws;

static void mj_free(void *wsv)
{
  mj_ws *ws = wsv;
  if (ws == NULL)
    return;
  gsl_matrix_free(ws->Mh);
  if (ws->perm != NULL)
    gsl_permutation_free(ws->perm);
  gsl_vector_free(ws->ev);
  gsl_vector_free(ws->col);
  free(ws->block);
  free(ws->cof);
  free(ws);
}

/* Mhat = M + theta dt D + theta^2 dt^2 K, its inverse (by columns of its LU solve) and the
 * Delassus matrix W = J Mhat^-1 J^T. */
static int mj_factor(mj_ws *ws, double dt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double a = ws->theta * dt, b = a * a;
  int signum;
  for (size_t j = 0; j < n; j++)
    for (size_t k = 0; k < n; k++)
      gsl_matrix_set(ws->Mh, j, k, pl->M[j * n + k] + a * pl->D[j * n + k] + b * pl->K[j * n + k]);
  if (gsl_linalg_LU_decomp(ws->Mh, ws->perm, &signum) != GSL_SUCCESS)
    return fb_err_set(err, FB_ESOLVE, "moreau-jean: M + theta h D + theta^2 h^2 K is singular");
  for (size_t k = 0; k < n; k++) {
    gsl_vector_set_basis(ws->ev, k);
    if (gsl_linalg_LU_solve(ws->Mh, ws->perm, ws->ev, ws->col) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "moreau-jean: iteration matrix solve failed");
    for (size_t j = 0; j < n; j++)
      ws->Mhinv[j * n + k] = gsl_vector_get(ws->col, j);
  }
  if (ws->rows) /* Mhat^-1 Jt^T by columns, then W = Jt Mhat^-1 Jt^T */
    for (size_t i = 0; i < nc; i++)
      for (size_t j = 0; j < n; j++) {
        double sum = 0.0;
        for (size_t k = 0; k < n; k++)
          sum += ws->Mhinv[j * n + k] * (pl->contact[i].Jt != NULL
                                             ? pl->contact[i].Jt[k]
                                             : (double)(k == pl->contact[i].dof));
        ws->MJ[i * n + j] = sum;
      }
  int diag = 1;
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nc; k++) {
      const double w = ws->rows ? fb_contact_vel(pl, i, &ws->MJ[k * n])
                                : ws->Mhinv[pl->contact[i].dof * n + pl->contact[k].dof];
      ws->W[i * nc + k] = w;
      /* the two entries of a disc contact are one block: coupling between them is the
       * block's own (mj_block) */
      const int same_block = ws->disc && pl->contact[i].pair != FB_PAIR_NONE &&
                             (k == i + 1 || i == k + 1) &&
                             pl->contact[i < k ? i : k].pair == FB_PAIR_X;
      if (i != k && w != 0.0 && !same_block)
        diag = 0;
    }
  for (size_t i = 0; i < nc; i++)
    if (!(ws->W[i * nc + i] > 0.0))
      return fb_err_set(err, FB_EUNSUP,
                        "moreau-jean: Delassus matrix has W_%zu%zu = %g <= 0 (the iteration "
                        "matrix is not positive definite)",
                        i, i, ws->W[i * nc + i]);
  if (ws->solver == MJ_SOLVER_CLOSED && !diag)
    return fb_err_set(err, FB_EINVAL,
                      "moreau-jean: solver=closed needs a diagonal Delassus matrix (contacts "
                      "not coupled through M, D, K): use solver=pgs or auto");
  ws->closed = ws->solver == MJ_SOLVER_CLOSED || (ws->solver == MJ_SOLVER_AUTO && diag);
  ws->dt_fact = dt;
  return FB_OK;
}

/* The local problem of a 2-D contact on the N-gon C of inradius beta (docs/models/poly-cone.md):
 * the maximal-dissipation law -v in N_C(r), r in C, i.e. r = P_C(r - rho v) for any rho > 0
 * (Stewart & Trinkle's polyhedral friction, by the projection of its complementarity).  An
 * isotropic block (Wb = w I) takes rho = 1/w: r = P_C(-a/w), stick when -a/w lies in C;
 * otherwise the projected fixed point with rho = 1/lambda_max as for the disc.  Returns 1
 * for stick. */
static int mj_poly_local(const mj_ws *ws, const double *Wb, const double *a, double beta,
                         double *r, unsigned long max_it, unsigned long *it)
{
  const int N = (int)ws->p.facets;
  const double rot = ws->p.rotation;
  if (Wb[1] == 0.0 && Wb[2] == 0.0 && Wb[0] == Wb[3]) {
    r[0] = -a[0] / Wb[0];
    r[1] = -a[1] / Wb[0];
    const double r0[2] = {r[0], r[1]};
    fb_poly_clamp(r, beta, N, rot);
    return r[0] == r0[0] && r[1] == r0[1];
  }
  const double tr = Wb[0] + Wb[3], det = Wb[0] * Wb[3] - Wb[1] * Wb[2];
  const double lmax = 0.5 * tr + sqrt(fmax(0.25 * tr * tr - det, 0.0)), rho = 1.0 / lmax;
  fb_poly_clamp(r, beta, N, rot);
  int inside = 1;
  for (unsigned long k = 0; k < max_it; k++) {
    double q[2] = {r[0] - rho * (a[0] + Wb[0] * r[0] + Wb[1] * r[1]),
                   r[1] - rho * (a[1] + Wb[2] * r[0] + Wb[3] * r[1])};
    const double q0[2] = {q[0], q[1]};
    fb_poly_clamp(q, beta, N, rot);
    inside = q[0] == q0[0] && q[1] == q0[1];
    const double d = hypot(q[0] - r[0], q[1] - r[1]);
    r[0] = q[0];
    r[1] = q[1];
    ++*it;
    if (d <= 8.0 * DBL_EPSILON * fmax(beta, hypot(a[0], a[1]) * rho))
      break;
  }
  return inside;
}

/* The local problem of a 2-D contact on the disc (docs/design.md §13): v = a + Wb r,
 * r in -beta Sgn(v) with Sgn the unit disc at 0, Wb the contact's 2x2 Delassus block
 * (row-major).  An isotropic block (Wb = w I: puck, billiard, any contact whose rows are
 * orthogonal under Mhat^-1 with equal weights) has Kikuuwe's Theorem 1 in vector form
 * ([Xiong2013] §5.1): r = -a/w when |a| <= w beta (stick, v = 0), else -beta a/|a|.
 * Otherwise the projected fixed point r = P_disc(r - rho (a + Wb r)), rho = 1/lambda_max,
 * which holds exactly at the law's solution for any rho > 0 and converges for an SPD
 * block; iterations are counted in *it.  Returns 1 for stick. */
static int mj_disc_local(const mj_ws *ws, const double *Wb, const double *a, double beta,
                         double *r, unsigned long max_it, unsigned long *it)
{
  if (ws->poly)
    return mj_poly_local(ws, Wb, a, beta, r, max_it, it);
  if (Wb[1] == 0.0 && Wb[2] == 0.0 && Wb[0] == Wb[3]) {
    const double w = Wb[0], al = hypot(a[0], a[1]);
    if (al <= w * beta) {
      r[0] = -a[0] / w;
      r[1] = -a[1] / w;
      return 1;
    }
    r[0] = -beta * a[0] / al;
    r[1] = -beta * a[1] / al;
    return 0;
  }
  const double tr = Wb[0] + Wb[3], det = Wb[0] * Wb[3] - Wb[1] * Wb[2];
  const double lmax = 0.5 * tr + sqrt(fmax(0.25 * tr * tr - det, 0.0)), rho = 1.0 / lmax;
  fb_clamp2(r, beta, FB_CONE_DISC);
  for (unsigned long k = 0; k < max_it; k++) {
    double q[2] = {r[0] - rho * (a[0] + Wb[0] * r[0] + Wb[1] * r[1]),
                   r[1] - rho * (a[1] + Wb[2] * r[0] + Wb[3] * r[1])};
    fb_clamp2(q, beta, FB_CONE_DISC);
    const double d = hypot(q[0] - r[0], q[1] - r[1]);
    r[0] = q[0];
    r[1] = q[1];
    ++*it;
    if (d <= 8.0 * DBL_EPSILON * fmax(beta, hypot(a[0], a[1]) * rho))
      break;
  }
  return hypot(r[0], r[1]) < beta * (1.0 - 8.0 * DBL_EPSILON);
}

/* fmax(m, x) for m not NaN, inline (libm's fmax is a call, 2 % of the scheme's time):
 * m when m > x or x is NaN, else x, which is what fmax returns for m not NaN (the x86-64
 * maxsd order glibc uses, so also for +0 against -0) */
static inline double mj_fmax(double m, double x)
{
  return m > x || isnan(x) ? m : x;
}

/* a_i = vrf_i + sum over l outside contact i's block of W_il r_l, with the absolute sum of
 * its terms (the round-off scale) into *sc. */
static double mj_local_a(const mj_ws *ws, size_t i, size_t b0, size_t b1, double *sc)
{
  const size_t nc = ws->nc;
  double a = ws->vrf[i];
  *sc = fabs(a);
  for (size_t l = 0; l < nc; l++)
    if (l < b0 || l > b1) {
      a += ws->W[i * nc + l] * ws->r[l];
      *sc += fabs(ws->W[i * nc + l] * ws->r[l]);
    }
  return a;
}

/* Contact block of entry i: [i, i+1] for the x entry of a disc contact, else [i, i]. */
static size_t mj_block_end(const mj_ws *ws, size_t i)
{
  return ws->disc && ws->pl->contact[i].pair == FB_PAIR_X ? i + 1 : i;
}

/* One block's local solve given the others' impulses: the new impulses in r, the change
 * into *d, the round-off scale into *sc; returns the stick flag. */
static int mj_block_solve(mj_ws *ws, size_t i, size_t e, double *d, double *sc,
                          fb_counters *cnt)
{
  const size_t nc = ws->nc;
  const double *W = ws->W;
  if (e == i) { /* a 1-D contact (or a box component): Theorem 1, a clamp in a sweep */
    const double a = mj_local_a(ws, i, i, i, sc), w = W[i * nc + i];
    if (ws->closed) {
      const int stick = fabs(a) <= w * ws->beta[i];
      ws->r[i] = stick ? -a / w : -ws->beta[i] * fb_sgn(a);
      return stick;
    }
    const double rn = fb_clamp(-a / w, ws->beta[i]);
    *d = fabs(rn - ws->r[i]);
    *sc /= w;
    ws->r[i] = rn;
    return fabs(a) <= w * ws->beta[i];
  }
  double s0, s1;
  const double a[2] = {mj_local_a(ws, i, i, e, &s0), mj_local_a(ws, e, i, e, &s1)};
  const double Wb[4] = {W[i * nc + i], W[i * nc + e], W[e * nc + i], W[e * nc + e]};
  const double r0[2] = {ws->r[i], ws->r[e]};
  double rn[2] = {r0[0], r0[1]};
  const int stick = mj_disc_local(ws, Wb, a, ws->beta[i], rn, ws->pgs_max, &cnt->ninner);
  *d = mj_fmax(fabs(rn[0] - r0[0]), fabs(rn[1] - r0[1]));
  *sc = fmax(s0 / Wb[0], s1 / Wb[3]);
  ws->r[i] = rn[0];
  ws->r[e] = rn[1];
  return stick;
}

/* The relay problem v_r = vrf + W r, r_i in -beta_i Sgn(v_r,i), for every contact (a 2-D
 * contact on the disc: one block of two entries). */
static int mj_relay(mj_ws *ws, double t, fb_counters *cnt, fb_err *err)
{
  const size_t nc = ws->nc;
  double d, sc;
  if (ws->closed) { /* Theorem 1 per contact (block) */
    for (size_t i = 0; i < nc; i++) {
      const size_t e = mj_block_end(ws, i);
      ws->stick[i] = ws->stick[e] = mj_block_solve(ws, i, e, &d, &sc, cnt);
      i = e;
    }
    return FB_OK;
  }
  double bmax = 0.0;
  for (size_t i = 0; i < nc; i++) {
    bmax = fmax(bmax, ws->beta[i]);
    const size_t e = mj_block_end(ws, i);
    if (e == i) {
      ws->r[i] = fb_clamp(ws->r[i], ws->beta[i]); /* warm start inside the bounds */
    } else {
      double rr[2] = {ws->r[i], ws->r[e]};
      if (ws->poly)
        fb_poly_clamp(rr, ws->beta[i], (int)ws->p.facets, ws->p.rotation);
      else
        fb_clamp2(rr, ws->beta[i], FB_CONE_DISC);
      ws->r[i] = rr[0];
      ws->r[e] = rr[1];
      i = e;
    }
  }
  double dmax = INFINITY, thr = 0.0;
  unsigned long k;
  for (k = 0; k < ws->pgs_max && !(dmax <= thr); k++) {
    double floor_ = 0.0;
    dmax = 0.0;
    for (size_t i = 0; i < nc; i++) {
      const size_t e = mj_block_end(ws, i);
      ws->stick[i] = ws->stick[e] = mj_block_solve(ws, i, e, &d, &sc, cnt);
      dmax = mj_fmax(dmax, d);
      floor_ = mj_fmax(floor_, sc);
      i = e;
    }
    thr = fmax(ws->p.pgs_tol * bmax, ws->p.pgs_floor * DBL_EPSILON * floor_);
    cnt->ninner++;
  }
  if (!(dmax <= thr))
    return fb_err_set(err, FB_ESOLVE,
                      "moreau-jean: projected Gauss-Seidel did not converge in %lu sweeps at "
                      "t=%.17g (max |dr| = %.3g > %.3g)",
                      ws->pgs_max, t, dmax, thr);
  for (size_t i = 0; i < nc; i++) { /* which local problems sit on the linear branch */
    const size_t e = mj_block_end(ws, i);
    if (e == i) {
      const double a = mj_local_a(ws, i, i, i, &sc);
      ws->stick[i] = fabs(a) <= ws->W[i * nc + i] * ws->beta[i];
    } else {
      const double *W = ws->W;
      double s0;
      const double a[2] = {mj_local_a(ws, i, i, e, &s0), mj_local_a(ws, e, i, e, &s0)};
      const int iso = W[i * nc + e] == 0.0 && W[e * nc + i] == 0.0 &&
                      W[i * nc + i] == W[e * nc + e];
      if (ws->poly) { /* stuck where the impulse is inside the polygon */
        double q[2] = {ws->r[i], ws->r[e]};
        if (iso) {
          q[0] = -a[0] / W[i * nc + i];
          q[1] = -a[1] / W[i * nc + i];
        }
        const double q0[2] = {q[0], q[1]};
        fb_poly_clamp(q, ws->beta[i] * (iso ? 1.0 : 1.0 - 8.0 * DBL_EPSILON), (int)ws->p.facets,
                      ws->p.rotation);
        ws->stick[i] = ws->stick[e] = q[0] == q0[0] && q[1] == q0[1];
      } else {
        ws->stick[i] = ws->stick[e] =
            iso ? hypot(a[0], a[1]) <= W[i * nc + i] * ws->beta[i]
                : hypot(ws->r[i], ws->r[e]) < ws->beta[i] * (1.0 - 8.0 * DBL_EPSILON);
      }
      i = e;
    }
  }
  return FB_OK;
}

/* A time of the segment (ta, tb]: at a break, read one ulp inside the segment. */
static double mj_in(double t, double ta, double tb)
{
  if (t <= ta)
    return nextafter(t, INFINITY);
  if (t >= tb)
    return nextafter(t, -INFINITY);
  return t;
}

static void mj_applied(const fb_plant *pl, double t, const double *x, const double *v, double *f)
{
  if (pl->force != NULL)
    pl->force(pl->sp, t, x, v, f);
  else
    memset(f, 0, pl->n * sizeof(double));
}

/* The applied forces of f_theta = (1 - theta) f(t_k) + theta f(t_{k+1}) into ws->f0, f1;
 * f(t_k) is last step's f(t_{k+1}) unless the step opens a segment or the force depends on
 * the state. */
static void mj_theta_forces(mj_ws *ws, double t0, double t1, const double *x, const double *v,
                            fb_counters *cnt)
{
  const fb_plant *pl = ws->pl;
  mj_applied(pl, t1, x, v, ws->f1);
  cnt->nfe++;
  if (ws->theta < 1.0 && !(ws->f0_t == t0 && !pl->force_uses_state)) {
    mj_applied(pl, t0, x, v, ws->f0);
    cnt->nfe++;
  }
}

static int mj_step(mj_ws *ws, double t, double dt, double tnew, double ta, double tb, double *y,
                   fb_counters *cnt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double th = ws->theta;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = mj_in(t, ta, tb), t1 = mj_in(tnew, ta, tb);
  int st;
  if (dt != ws->dt_fact && (st = mj_factor(ws, dt, err)) != FB_OK)
    return st;
  mj_theta_forces(ws, t0, t1, x, v, cnt);
  /* q = M v_k + dt (f_theta - K (x_k + theta (1 - theta) dt v_k) - (1 - theta) D v_k) */
  for (size_t j = 0; j < n; j++) {
    double s = dt * ((1.0 - th) * ws->f0[j] + th * ws->f1[j]);
    for (size_t k = 0; k < n; k++)
      s += pl->M[j * n + k] * v[k] - dt * pl->K[j * n + k] * (x[k] + th * (1.0 - th) * dt * v[k]) -
           dt * (1.0 - th) * pl->D[j * n + k] * v[k];
    ws->q[j] = s;
  }
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_state cs0;
    fb_plant_contact_at(pl, i, t0, &cs0);
    fb_contact_in_at(pl, i, t1, &ci, &ws->u1[i]);
    const double vr0 = fb_contact_vel(pl, i, v) - cs0.u;
    if (pl->contact[i].pair != FB_PAIR_NONE) {
      /* the velocity-weakening part along the slip direction u/|u| of the 2-D contact */
      const size_t o = fb_contact_partner(pl, i);
      fb_contact_state cso;
      fb_plant_contact_at(pl, o, t0, &cso);
      const double w = hypot(vr0, fb_contact_vel(pl, o, v) - cso.u);
      ws->cg[i] = w == 0.0 ? 0.0 : vr0 / w * (ci.Fs - fb_contact_S(&ci, w, NULL));
    } else {
      ws->cg[i] = vr0 == 0.0 ? 0.0 : fb_sgn(vr0) * (ci.Fs - fb_contact_S(&ci, fabs(vr0), NULL));
    }
    fb_contact_add_force(pl, i, dt * ws->cg[i], ws->q);
    ws->beta[i] = dt * ci.Fs;
  }
  for (size_t j = 0; j < n; j++) {
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
      s += ws->Mhinv[j * n + k] * ws->q[k];
    ws->vfree[j] = s;
  }
  for (size_t i = 0; i < nc; i++) {
    ws->vrf[i] = fb_contact_vel(pl, i, ws->vfree) - ws->u1[i];
    ws->r[i] = dt * (z[2 * i] - ws->cg[i]); /* warm start: last step's force */
  }
  if ((st = mj_relay(ws, t, cnt, err)) != FB_OK)
    return st;
  for (size_t j = 0; j < n; j++) {
    double s = ws->vfree[j];
    for (size_t i = 0; i < nc; i++)
      s += (ws->rows ? ws->MJ[i * n + j] : ws->Mhinv[j * n + pl->contact[i].dof]) * ws->r[i];
    ws->vnew[j] = s;
  }
  for (size_t i = 0; i < nc; i++) {
    /* v_r = 0 exactly on a one-DOF contact; through a row it is 0 to round-off */
    if (ws->stick[i] != 0.0 && pl->contact[i].Jt == NULL)
      ws->vnew[pl->contact[i].dof] = ws->u1[i];
    z[2 * i] = ws->r[i] / dt + ws->cg[i];
    z[2 * i + 1] = ws->stick[i];
  }
  for (size_t j = 0; j < n; j++) {
    x[j] += dt * ((1.0 - th) * v[j] + th * ws->vnew[j]);
    v[j] = ws->vnew[j];
  }
  memcpy(ws->f0, ws->f1, n * sizeof(double));
  ws->f0_t = t1;
  return FB_OK;
}

static int mj_alloc_banded(mj_ws *ws, fb_err *err);

static int mj_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_moreau_jean)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the moreau-jean model, not %s", type->name,
                      pb->model->type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  mj_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pb = pb;
  ws->pl = pl;
  ws->p = *(const mj_params *)pb->model->params;
  ws->h = o->h;
  ws->theta = ws->p.theta;
  ws->pgs_max = (unsigned long)ws->p.pgs_max;
  ws->n = n;
  ws->nc = nc;
  ws->solver = (int)ws->p.solver;
  ws->dt_fact = NAN;
  ws->f0_t = NAN;
  int st = FB_OK;
  if (pl->banded) {
    if ((st = mj_alloc_banded(ws, err)) != FB_OK)
      goto fail;
    *out = ws;
    return FB_OK;
  }
  ws->Mh = gsl_matrix_alloc(n, n);
  ws->perm = gsl_permutation_alloc(n);
  ws->ev = gsl_vector_alloc(n);
  ws->col = gsl_vector_alloc(n);
  ws->rows = pl->has_jt;
  const int kind = fb_cone_kind(ws->p.cone, ws->p.facets, ws->p.rotation);
  ws->disc = kind != FB_CONE_BOX; /* the disc or the N-gon: one block per 2-D contact */
  ws->poly = kind == FB_CONE_POLY;
  ws->block = calloc(n * n + nc * nc + 5 * n + 6 * nc + nc * n + 1, sizeof(double));
  if (ws->Mh == NULL || ws->perm == NULL || ws->ev == NULL || ws->col == NULL ||
      ws->block == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto fail;
  }
  double *b = ws->block;
  ws->Mhinv = b, b += n * n;
  ws->W = b, b += nc * nc;
  ws->f0 = b, b += n;
  ws->f1 = b, b += n;
  ws->q = b, b += n;
  ws->vfree = b, b += n;
  ws->vnew = b, b += n;
  ws->r = b, b += nc;
  ws->vrf = b, b += nc;
  ws->beta = b, b += nc;
  ws->cg = b, b += nc;
  ws->u1 = b, b += nc;
  ws->stick = b, b += nc;
  ws->MJ = b;
  if ((st = mj_factor(ws, ws->h, err)) != FB_OK)
    goto fail;
  *out = ws;
  return FB_OK;
fail:
  mj_free(ws);
  return st;
}

/* ---- banded plants (docs/scenarios/chain.md) ------------------------------------------ */

/* Mhat = M + theta dt D + theta^2 dt^2 K in the band layout: O(n bw), nothing inverted. */
static int mj_factor_banded(mj_ws *ws, double dt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t nw = ws->n * (pl->bw + 1);
  const double a = ws->theta * dt, b = a * a;
  int diag = 1;
  for (size_t k = 0; k < nw; k++) {
    ws->Mhb[k] = pl->Mb[k] + a * pl->Db[k] + b * pl->Kb[k];
    if (k % (pl->bw + 1) != 0 && ws->Mhb[k] != 0.0)
      diag = 0;
  }
  if (ws->solver == MJ_SOLVER_CLOSED && !diag)
    return fb_err_set(err, FB_EINVAL,
                      "moreau-jean: solver=closed needs a diagonal Delassus matrix (contacts "
                      "not coupled through M, D, K): use solver=pgs or auto");
  ws->dt_fact = dt;
  return FB_OK;
}

/* One Gauss–Seidel sweep on the velocity form of the relay problem of a banded plant,
 *     Mhat v = q + sum_i e_{j_i} r_i,   r_i in -beta_i Sgn(v_{j_i} - u_i),
 * the optimality condition of the strictly convex min 1/2 v'Mhat v - q'v + sum beta_i
 * |v_{j_i} - u_i|; coordinate descent on it converges for an SPD Mhat (Tseng, J. Optim.
 * Theory Appl. 109 (2001) 475, Thm 5.1; Acary & Brogliato 2008 §12.4 for PGS on contact
 * problems).  DOF j's local problem given the others: a = q_j - sum_{l != j} Mhat_jl v_l;
 * with a contact, Kikuuwe's Theorem 1 (seed 002): stick (v_j = u, r = Mhat_jj u - a) when
 * |a - Mhat_jj u| <= beta, else r = -beta sgn(a - Mhat_jj u), v_j = (a + r)/Mhat_jj.
 * O(n bw) per sweep; the largest impulse change Mhat_jj |dv_j| into *dmax, the round-off
 * scale into *sc. */
static void mj_sweep_banded(mj_ws *ws, double *dmax, double *sc)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, bw = pl->bw, w = bw + 1;
  const double *Mh = ws->Mhb;
  double *v = ws->vnew;
  *dmax = 0.0;
  *sc = 0.0;
  for (size_t j = 0; j < n; j++) {
    double a = ws->q[j], s = fabs(a);
    for (size_t d = 1; d <= bw && d <= j; d++) { /* left of the diagonal: row j - d */
      const double t = Mh[(j - d) * w + d] * v[j - d];
      a -= t;
      s += fabs(t);
    }
    for (size_t d = 1; d <= bw && j + d < n; d++) {
      const double t = Mh[j * w + d] * v[j + d];
      a -= t;
      s += fabs(t);
    }
    const double mjj = Mh[j * w], vold = v[j];
    const long i = ws->cof[j];
    if (i < 0) {
      v[j] = a / mjj;
    } else {
      const double u = ws->u1[i], e = a - mjj * u, beta = ws->beta[i];
      const int stick = fabs(e) <= beta;
      ws->r[i] = stick ? -e : -beta * fb_sgn(e);
      v[j] = stick ? u : u + (e + ws->r[i]) / mjj;
      ws->stick[i] = stick;
    }
    *dmax = mj_fmax(*dmax, mjj * fabs(v[j] - vold));
    *sc = mj_fmax(*sc, s);
  }
}

static int mj_step_banded(mj_ws *ws, double t, double dt, double tnew, double ta, double tb,
                          double *y, fb_counters *cnt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double th = ws->theta;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = mj_in(t, ta, tb), t1 = mj_in(tnew, ta, tb);
  int st;
  if (dt != ws->dt_fact && (st = mj_factor_banded(ws, dt, err)) != FB_OK)
    return st;
  mj_theta_forces(ws, t0, t1, x, v, cnt);
  /* q = M v_k + dt (f_theta - K (x_k + theta (1 - theta) dt v_k) - (1 - theta) D v_k) */
  for (size_t j = 0; j < n; j++) {
    ws->q[j] = dt * ((1.0 - th) * ws->f0[j] + th * ws->f1[j]);
    ws->tmp[j] = x[j] + th * (1.0 - th) * dt * v[j];
  }
  fb_band_axpy(pl, 1.0, pl->Mb, v, ws->q);
  if (pl->has_K)
    fb_band_axpy(pl, -dt, pl->Kb, ws->tmp, ws->q);
  if (pl->has_D)
    fb_band_axpy(pl, -dt * (1.0 - th), pl->Db, v, ws->q);
  double bmax = 0.0;
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_state cs0;
    fb_plant_contact_at(pl, i, t0, &cs0);
    fb_contact_in_at(pl, i, t1, &ci, &ws->u1[i]);
    const double vr0 = v[pl->contact[i].dof] - cs0.u;
    ws->cg[i] = vr0 == 0.0 ? 0.0 : fb_sgn(vr0) * (ci.Fs - fb_contact_S(&ci, fabs(vr0), NULL));
    ws->q[pl->contact[i].dof] += dt * ws->cg[i];
    ws->beta[i] = dt * ci.Fs;
    bmax = fmax(bmax, ws->beta[i]);
  }
  memcpy(ws->vnew, v, n * sizeof(double)); /* warm start: the step's initial velocity */
  double dmax = INFINITY, thr = 0.0, sc;
  unsigned long k;
  for (k = 0; k < ws->pgs_max && !(dmax <= thr); k++) {
    mj_sweep_banded(ws, &dmax, &sc);
    thr = fmax(ws->p.pgs_tol * bmax, ws->p.pgs_floor * DBL_EPSILON * sc);
    cnt->ninner++;
  }
  if (!(dmax <= thr))
    return fb_err_set(err, FB_ESOLVE,
                      "moreau-jean: Gauss-Seidel on the banded relay problem did not converge "
                      "in %lu sweeps at t=%.17g (max impulse change %.3g > %.3g)",
                      ws->pgs_max, t, dmax, thr);
  for (size_t i = 0; i < nc; i++) {
    z[2 * i] = ws->r[i] / dt + ws->cg[i];
    z[2 * i + 1] = ws->stick[i];
  }
  for (size_t j = 0; j < n; j++) {
    x[j] += dt * ((1.0 - th) * v[j] + th * ws->vnew[j]);
    v[j] = ws->vnew[j];
  }
  memcpy(ws->f0, ws->f1, n * sizeof(double));
  ws->f0_t = t1;
  return FB_OK;
}

/* The work space of a banded plant: O(n bw + nc), no n x n array. */
static int mj_alloc_banded(mj_ws *ws, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc, nw = n * (pl->bw + 1);
  ws->banded = 1;
  ws->block = calloc(nw + 6 * n + 6 * nc + 1, sizeof(double));
  ws->cof = malloc(n * sizeof(long));
  if (ws->block == NULL || ws->cof == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  double *b = ws->block;
  ws->Mhb = b, b += nw;
  ws->f0 = b, b += n;
  ws->f1 = b, b += n;
  ws->q = b, b += n;
  ws->vfree = b, b += n;
  ws->vnew = b, b += n;
  ws->tmp = b, b += n;
  ws->r = b, b += nc;
  ws->vrf = b, b += nc;
  ws->beta = b, b += nc;
  ws->cg = b, b += nc;
  ws->u1 = b, b += nc;
  ws->stick = b;
  for (size_t j = 0; j < n; j++)
    ws->cof[j] = -1;
  for (size_t i = 0; i < nc; i++) {
    const size_t j = pl->contact[i].dof;
    if (ws->cof[j] >= 0)
      return fb_err_set(err, FB_EUNSUP,
                        "moreau-jean: a banded plant takes at most one contact per DOF (DOF "
                        "%zu has contacts %ld and %zu)",
                        j, ws->cof[j], i);
    ws->cof[j] = (long)i;
  }
  return mj_factor_banded(ws, ws->h, err);
}

static int mj_step_at(void *ctx, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  const mj_ws *ws = ctx;
  if (ws->banded)
    return mj_step_banded(ctx, at->t, at->dt, at->tnew, at->tseg, at->t1, y, cnt, err);
  return mj_step(ctx, at->t, at->dt, at->tnew, at->tseg, at->t1, y, cnt, err);
}

/* A step evaluates the applied force once, twice at a segment's start: the driver
 * keeps room for 2 before each step. */
static unsigned long mj_rhs_per_step(const void *ws)
{
  (void)ws;
  return 2;
}

static const fb_integrator_type mj_scheme = {
    .name = "moreau-jean",
    .title = "Moreau-Jean theta-method, friction impulses from the relay problem of all contacts",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 1,
    .order = 1,
    .data = NULL,
    .alloc = mj_alloc,
    .free = mj_free,
    .step = mj_step_at,
    .rhs_per_step = mj_rhs_per_step,
};

static const fb_integrator_type *const mj_schemes[] = {&mj_scheme, NULL};

const fb_model_type fb_model_moreau_jean = {
    .name = "moreau-jean",
    .title = "Moreau-Jean time stepping: theta-method, relay impulses (closed form or PGS)",
    .reference = "Moreau 1988; Jean 1999; Acary & Brogliato 2008 §10.1 (Siconos MoreauJeanOSI)",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "moreau-jean",
    .default_tol = 0,
    .params = &mj_set,
    .nz = 2,
    .z_names = fb_impulse_z_names,
    .resolve = NULL,
    .init = fb_impulse_init,
    .init2 = fb_impulse_init2,
    .force = NULL,
    .jac = NULL,
    .output = fb_impulse_output,
    .stick = NULL,
    .schemes = mj_schemes,
};

/* The suite's policy for moreau-jean (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_moreau_jean = {
    .model = "moreau-jean",
    .color = "#000080",
    .conv = {"moreau-jean", NULL},
    .wp = {NULL},
    .cost_integrator = "moreau-jean",
    .cost_h = 1e-3,
    .cost_hint = 1,
    .expect = "exact stick at any h; theta = 1/2: order 2 on Coulomb stops "
              "(inclined-block, glowinski-3dof), 1 with a velocity-weakening S or "
              "coupled contacts (Acary & Brogliato 2008 §10.1)"
};
