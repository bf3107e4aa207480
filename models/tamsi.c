/* tamsi.c — Drake's Transition-Aware Modified Semi-Implicit scheme (A. M. Castro, A. Qu,
 * N. Kuppuswamy, A. Alspach, M. Sherman, "A Transition-Aware Method for the Simulation of
 * Compliant Contact with Regularized Friction", IEEE RA-L 5(2) 2020, 1859-1866, arXiv
 * 1909.05700 [Castro2020]; docs/models/tamsi.md).  The scheme Drake's discrete
 * MultibodyPlant ran by default (TamsiSolver).
 *
 * Friction regularized below the stiction tolerance v_s ([Castro2020], its regularized
 * friction; Drake's TamsiSolver::CalcFrictionForces):
 *     f_t = -mu(s) N t_hat,   t_hat = v_t/|v_t|,   s = |v_t|/v_s,
 *     mu(s) = mu s (2 - s) for s < 1,   mu for s >= 1,
 * here with the contact's characteristic: mu N -> S(|v_t|) (docs/design.md §1), so a
 * Coulomb contact is exactly the paper's law and a Stribeck one keeps its shape beyond v_s
 * (our reading; Drake's TAMSI has one mu).  On a 2-D contact |v_t| is the soft norm
 * sqrt(|v_t|^2 + eps_v^2), eps_v = tol v_s (Drake's), which makes t_hat differentiable at
 * 0; a 1-D contact needs none (f_t is C1 at 0 there).
 *
 * Time stepping ([Castro2020], the TAMSI scheme; Drake's discrete update): implicit in the
 * velocities for friction, the plant's smooth forces explicit at the step's start,
 *     M (v^{n+1} - v^n) = h (f(t_n, x_n, v_n) - D v^n - K x^n) + h J^T f_t(v_t^{n+1}),
 *     x^{n+1} = x^n + h v^{n+1}
 * (symplectic Euler for the smooth part).  With v* = v^n + h M^-1 (f - D v^n - K x^n) and
 * the Delassus matrix W = J M^-1 J^T (constant: M is), the tangential velocities solve the
 * residual ([Castro2020], the tangential-velocity residual of its Newton-Raphson)
 *     R(v_t) = v_t - v_t* - h W f_t(v_t) = 0,   v_t* = J v* - u(t_{n+1}),
 * by Newton, Jacobian I - h W df_t/dv_t, from the velocity at the step's start, with the
 * transition-aware line search ([Castro2020], TALS; Drake's TalsLimiter): per contact a
 * step length alpha in (0, 1]: an update from sliding whose line passes within v_s of the
 * origin stops at its point closest to the origin (at v_s/2 in the old direction when that
 * point is the origin: every sign change of a 1-D contact from sliding to sliding), one
 * out of the flat centre (s < tol) into sliding or from sliding onto it lands at v_s/2, a
 * sliding-to-sliding update turns v_t's direction by theta_max at most (2-D), and updates
 * inside the region or into it are taken whole; the iterate moves by the smallest alpha over
 * contacts.  Then our safeguard (backtrack = on, not Drake's): alpha is halved until |R|
 * decreases, since TALS alone can cycle across v = 0 (docs/models/tamsi.md).  Stop when the
 * update is below tol v_s (Drake's TamsiSolverParameters: tol = 1e-2, theta_max = 0.25 rad,
 * 100 iterations); more iterations fail the step (FB_ESOLVE).
 *
 * Creep by design: a contact pushed by a constant force r S0 below breakaway (r < 1)
 * settles where f_t balances it, S0 s (2 - s) = r S0: s = 1 - sqrt(1 - r), a steady creep
 * v = v_s (1 - sqrt(1 - r)) (2.9e-5 m/s at r = 0.5, 7.8e-5 m/s at 0.95 with v_s = 1e-4).
 *
 * Normal contact: [Castro2020] couples friction with a Hunt-Crossley normal force; that
 * normal inside this scheme is not implemented, so the scheme refuses plants with a normal
 * direction (docs/design.md §12, nn > 0; the harness runs those under the contact scheme
 * and the suite runs them with smooth-sign only).  Plants with a prescribed normal force
 * are what it takes: one-DOF contacts, Jacobian rows and 2-D contacts.
 *
 * State per contact (nz = 2): F_step (N: f_t at the step's end, the force of the step) and
 * stick_step (1 when the contact ends the step inside the stiction region, s < 1).
 * Counters: nfe applied-force evaluations (one per step), ninner Newton iterations.  No
 * allocation after alloc.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_util.h"
#include "fb_plant_int.h"

typedef struct tamsi_params {
  double v_s;       /* stiction tolerance (m/s): Drake's stiction_tolerance */
  double tol;       /* Newton stop: update below tol v_s; also eps_v = tol v_s (1) */
  double theta_max; /* largest change of a 2-D v_t's direction per iteration (rad) */
  double max_it;    /* Newton iterations per step */
  double tals;      /* 1: the transition-aware line search; 0: plain Newton (alpha = 1) */
  double backtrack; /* 1: then halve alpha until |R| decreases (our safeguard); 0: Drake's */
} tamsi_params;

static const char *const tamsi_onoff[] = {"off", "on", NULL};

static const fb_param_desc tamsi_desc[] = {
    {"v_s", "m/s", "stiction tolerance (Drake: stiction_tolerance)", offsetof(tamsi_params, v_s),
     1e-4, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"tol", "1", "Newton stop: update below tol v_s (Drake: relative_tolerance)",
     offsetof(tamsi_params, tol), 1e-2, 0, 1, FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL, NULL},
    {"theta_max", "rad", "largest direction change of a 2-D v_t per iteration (Drake: theta_max)",
     offsetof(tamsi_params, theta_max), 0.25, 0, 3.14159265358979323846,
     FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL, NULL},
    {"max_it", "1", "Newton iterations per step (Drake: max_iterations)",
     offsetof(tamsi_params, max_it), 100, 1, 1e6, FB_PARAM_INT, NULL, NULL},
    {"tals", "-", "transition-aware line search: on (TAMSI), off (plain Newton, to compare)",
     offsetof(tamsi_params, tals), 1, 0, 1, FB_PARAM_CHOICE, NULL, tamsi_onoff},
    {"backtrack", "-", "after the line search, halve the step until |R| decreases (not Drake's)",
     offsetof(tamsi_params, backtrack), 1, 0, 1, FB_PARAM_CHOICE, NULL, tamsi_onoff},
};
static const fb_param_set tamsi_set = {sizeof(tamsi_params), 6, tamsi_desc};
/* The regularized magnitude m(w) = S(w) s (2 - s) for s = w/v_s < 1, S(w) beyond
 * ([Castro2020]'s mu(s) with the characteristic's S in place of mu N), and dm/dw. */
static inline double tamsi_mag(const fb_contact_in *c, double v_s, double w, double *dm)
{
  double dS;
  const double S = fb_contact_S(c, w, &dS), s = w / v_s;
  if (s >= 1.0) {
    *dm = dS;
    return S;
  }
  *dm = dS * s * (2.0 - s) + S * (2.0 - 2.0 * s) / v_s;
  return S * s * (2.0 - s);
}

/* ---- the transition-aware line search ([Castro2020], TALS) ------------------------------- */

/* Step length alpha for one contact's update v -> v + dv (2 entries; a 1-D contact has
 * v[1] = dv[1] = 0), v_s the stiction tolerance, eps = tol v_s, cmax = cos(theta_max). */
static double tamsi_alpha(const double *v, const double *dv, double v_s, double eps,
                          double cmax)
{
  const double dn2 = dv[0] * dv[0] + dv[1] * dv[1];
  if (dn2 < eps * eps)
    return 1.0; /* a negligible change */
  const double dn = sqrt(dn2), vn = hypot(v[0], v[1]);
  const double v1[2] = {v[0] + dv[0], v[1] + dv[1]}, v1n = hypot(v1[0], v1[1]);
  const double x = vn / v_s, x1 = v1n / v_s, rel = eps / v_s;
  if (x < rel && x1 > 1.0) /* out of the flat centre into sliding: land at v_s/2 */
    return v_s / (2.0 * dn);
  if (x > 1.0 && x1 < rel) /* from sliding onto the flat centre: land at v_s/2 before it */
    return 1.0 - v_s / (2.0 * dn);
  if (x <= 1.0 || x1 <= 1.0)
    return 1.0; /* inside the region, or into it where its gradients are strong */
  const double vdv = v[0] * dv[0] + v[1] * dv[1];
  if (vdv < 0.0) { /* moving towards the origin: does the line cross the region? */
    const double a0 = -vdv / dn2;
    if (a0 < 1.0) {
      const double pa = hypot(v[0] + a0 * dv[0], v[1] + a0 * dv[1]);
      if (pa < eps) /* through (nearly) the origin: stop at v_s/2 in the old direction */
        return a0 - v_s / (2.0 * dn);
      if (pa < v_s) /* the closest point lies in the region: stop there */
        return a0;
    }
  }
  /* outside the region throughout: limit the direction change to theta_max */
  const double c1 = (v[0] * v1[0] + v[1] * v1[1]) / (vn * v1n);
  if (c1 > cmax)
    return 1.0;
  /* cos(theta_max) = v.(v + a dv)/(|v| |v + a dv|), squared: A a^2 + B a + C = 0, the
   * smallest positive root (dimensionless in v_s) */
  const double xd = vdv / (v_s * v_s), d = dn / v_s, x2 = x * x, c2 = cmax * cmax;
  const double A = x2 * d * d * c2 - xd * xd, B = 2.0 * x2 * xd * (c2 - 1.0),
               C = x2 * x2 * (c2 - 1.0);
  if (fabs(A) < DBL_EPSILON)
    return -C / B;
  const double disc = sqrt(fmax(B * B - 4.0 * A * C, 0.0));
  const double q = -0.5 * (B + (B > 0.0 ? disc : -disc));
  const double r1 = q / A, r2 = C / q;
  const double a = r1 > 0.0 && r2 > 0.0 ? fmin(r1, r2) : fmax(r1, r2);
  return a > 0.0 && a <= 1.0 ? a : 1.0;
}

/* ---- the scheme ------------------------------------------------------------------------ */

typedef struct tamsi_ws {
  const fb_plant *pl;
  tamsi_params p;
  size_t n, nc;
  double cmax, eps;
  fb_contact_in *ci; /* nc: each contact at t_{n+1} */
  double *block;
  double *f, *a, *vstar;                     /* n */
  double *u1, *vts, *vt, *dv, *R, *ft, *vtry; /* nc */
  double *W, *G, *Jm;                        /* nc nc */
  size_t *piv;                               /* nc */
  size_t *blk0, *blk1; /* nc: entry i's contact block, [blk0, blk1] (G's nonzero columns);
                        * [0, nc - 1] for all when W is not finite */
  int law_at_vt; /* after tamsi_newton: f_t and G are at its solution v_t already */
} tamsi_ws;

static void tamsi_free(void *wsv)
{
  tamsi_ws *ws = wsv;
  if (ws == NULL)
    return;
  free(ws->block);
  free(ws->ci);
  free(ws->piv);
  free(ws->blk0);
  free(ws->blk1);
  free(ws);
}

/* f_t of every contact at the tangential velocities vt, and G = df_t/dv_t (block
 * diagonal: 1x1 per 1-D contact, 2x2 per 2-D one). */
static void tamsi_law(tamsi_ws *ws, const double *vt)
{
  const size_t nc = ws->nc;
  const double v_s = ws->p.v_s;
  memset(ws->G, 0, nc * nc * sizeof(double));
  for (size_t i = 0; i < nc; i++) {
    const fb_contact_in *c = &ws->ci[i];
    double dm;
    if (ws->pl->contact[i].pair != FB_PAIR_X) { /* a 1-D contact */
      const double w = fabs(vt[i]), m = tamsi_mag(c, v_s, w, &dm);
      ws->ft[i] = -m * fb_sgn(vt[i]);
      ws->G[i * nc + i] = -dm;
      continue;
    }
    /* a 2-D contact (entries i, i+1): soft norm w = sqrt(|u|^2 + eps^2), t = u/w,
     * df/du = -(m'(w) t t^T + m/w (I - t t^T)) */
    const size_t e = i + 1;
    const double w = sqrt(vt[i] * vt[i] + vt[e] * vt[e] + ws->eps * ws->eps);
    const double m = tamsi_mag(c, v_s, w, &dm), t0 = vt[i] / w, t1 = vt[e] / w;
    ws->ft[i] = -m * t0;
    ws->ft[e] = -m * t1;
    const double q = m / w;
    ws->G[i * nc + i] = -(dm * t0 * t0 + q * (1.0 - t0 * t0));
    ws->G[i * nc + e] = ws->G[e * nc + i] = -(dm - q) * t0 * t1;
    ws->G[e * nc + e] = -(dm * t1 * t1 + q * (1.0 - t1 * t1));
    i = e;
  }
}

/* Solve A x = b in place (A nc x nc row-major, destroyed; b becomes x) by Gaussian
 * elimination with partial pivoting; FB_ESOLVE when A is singular.
 * A row whose multiplier l is 0 keeps its entries: A_rc - l A_kc = A_rc exactly when A_kc is
 * finite and A_rc is not -0, and A holds no -0 (tamsi_newton builds it as (i == l) - h g
 * with g a sum from +0, which x - y turns into -0 only from a -0); so rows of a diagonal A
 * (one contact per DOF, a chain) cost nothing.  b is updated always: it may hold a -0. */
static int tamsi_solve(double *A, double *b, size_t nc, size_t *piv)
{
  int finite = 1;
  for (size_t k = 0; k < nc * nc && finite; k++)
    finite = isfinite(A[k]);
  for (size_t k = 0; k < nc; k++) {
    size_t p = k;
    for (size_t r = k + 1; r < nc; r++)
      if (fabs(A[r * nc + k]) > fabs(A[p * nc + k]))
        p = r;
    piv[k] = p;
    if (!(fabs(A[p * nc + k]) > 0.0))
      return FB_ESOLVE;
    if (p != k) {
      for (size_t c = 0; c < nc; c++) {
        const double t = A[k * nc + c];
        A[k * nc + c] = A[p * nc + c];
        A[p * nc + c] = t;
      }
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (size_t r = k + 1; r < nc; r++) {
      const double l = A[r * nc + k] / A[k * nc + k];
      if (l != 0.0 || !finite)
        for (size_t c = k; c < nc; c++)
          A[r * nc + c] -= l * A[k * nc + c];
      b[r] -= l * b[k];
    }
  }
  for (size_t k = nc; k-- > 0;) {
    double s = b[k];
    for (size_t c = k + 1; c < nc; c++)
      s -= A[k * nc + c] * b[c];
    b[k] = s / A[k * nc + k];
  }
  return FB_OK;
}

/* R(v_t) = v_t - v_t* - h W f_t(v_t) into R, with f_t and G at v_t (tamsi_law); returns
 * |R|^2. */
static double tamsi_residual(tamsi_ws *ws, const double *vt, double h, double *R)
{
  const size_t nc = ws->nc;
  tamsi_law(ws, vt);
  double r2 = 0.0;
  for (size_t i = 0; i < nc; i++) {
    double s = 0.0;
    for (size_t l = 0; l < nc; l++)
      s += ws->W[i * nc + l] * ws->ft[l];
    R[i] = vt[i] - ws->vts[i] - h * s;
    r2 += R[i] * R[i];
  }
  return r2;
}

/* The TALS step length: the smallest over contacts (1 when the search is off). */
static double tamsi_tals(const tamsi_ws *ws)
{
  double alpha = 1.0;
  for (size_t i = 0; i < ws->nc && ws->p.tals != 0.0; i++) {
    const int pair = ws->pl->contact[i].pair == FB_PAIR_X;
    const double v[2] = {ws->vt[i], pair ? ws->vt[i + 1] : 0.0};
    const double d[2] = {ws->dv[i], pair ? ws->dv[i + 1] : 0.0};
    alpha = fmin(alpha, tamsi_alpha(v, d, ws->p.v_s, ws->eps, ws->cmax));
    i += (size_t)pair;
  }
  return alpha;
}

/* Our safeguard after TALS (backtrack = on): halve alpha until |R| decreases (the Newton
 * direction descends |R|^2, so some alpha does).  TALS alone can cycle: at a stop of the
 * inclined block (h = 2.61e-4) its iterates alternate between -0.63 v_s (inside the region,
 * whence the tangent sends them out) and +1.76 v_s (outside, whence the update into the
 * region is allowed and crosses v = 0).  Returns alpha; 0 when no decrease was found. */
/* 1 when a and b have the same bits (not ==: -0 and +0 differ here) */
static inline int tamsi_same_bits(double a, double b)
{
  uint64_t ba, bb;
  memcpy(&ba, &a, sizeof ba);
  memcpy(&bb, &b, sizeof bb);
  return ba == bb;
}

static double tamsi_backtrack(tamsi_ws *ws, double alpha, double h, double r2, double *r2_at)
{
  const size_t nc = ws->nc;
  for (int j = 0; j < 40; j++, alpha *= 0.5) {
    int moved = 0;
    for (size_t i = 0; i < nc; i++) {
      ws->vtry[i] = ws->vt[i] + alpha * ws->dv[i];
      moved |= !tamsi_same_bits(ws->vtry[i], ws->vt[i]);
    }
    /* v_t + alpha dv rounds to v_t itself: R there is R(v_t), r2 is not < r2, and every
     * halved alpha rounds to v_t as well (rounding is monotone), so no decrease follows */
    if (!moved)
      return 0.0;
    *r2_at = tamsi_residual(ws, ws->vtry, h, ws->R);
    if (*r2_at < r2)
      return alpha;
  }
  return 0.0;
}

/* The Newton iteration on R(v_t) = v_t - v_t* - h W f_t(v_t) with the transition-aware
 * line search; v_t holds the initial guess and receives the solution.  Converged when the
 * update is below tol v_s (Drake's test), or when R is zero to round-off. */
static int tamsi_newton(tamsi_ws *ws, double h, double t, fb_counters *cnt, fb_err *err)
{
  const size_t nc = ws->nc;
  const unsigned long max_it = (unsigned long)ws->p.max_it;
  const double stop = ws->p.tol * ws->p.v_s;
  double upd = INFINITY, r2 = 0.0;
  int fresh = 0; /* R, f_t, G and r2 are at v_t already: the backtrack's accepted point */
  ws->law_at_vt = 0;
  for (unsigned long k = 0; k < max_it; k++) {
    if (!fresh)
      r2 = tamsi_residual(ws, ws->vt, h, ws->R);
    fresh = 0;
    for (size_t i = 0; i < nc; i++) {
      ws->dv[i] = -ws->R[i];
      for (size_t l = 0; l < nc; l++) {
        /* G is block diagonal (tamsi_law): column l is zero outside l's contact block, so
         * the terms q outside it are W_iq 0, zeros (W finite: tamsi_alloc), and a sum
         * from +0 is unchanged by them */
        double g = 0.0;
        for (size_t q = ws->blk0[l]; q <= ws->blk1[l]; q++)
          g += ws->W[i * nc + q] * ws->G[q * nc + l];
        ws->Jm[i * nc + l] = (double)(i == l) - h * g;
      }
    }
    if (tamsi_solve(ws->Jm, ws->dv, nc, ws->piv) != FB_OK)
      return fb_err_set(err, FB_ESOLVE, "tamsi: singular Newton matrix at t=%.17g", t);
    const double a_tals = tamsi_tals(ws);
    double alpha = a_tals;
    if (ws->p.backtrack != 0.0 && r2 > 0.0) {
      const double r2_old = r2;
      alpha = tamsi_backtrack(ws, a_tals, h, r2_old, &r2);
      /* accepted: v_t + alpha dv below is the point the backtrack evaluated (the same
       * operations), and R, f_t, G and r2 hold its values */
      fresh = alpha != 0.0;
      if (alpha == 0.0 && sqrt(r2_old) < stop)
        return FB_OK; /* no decrease along the Newton direction: R is at round-off */
      if (alpha == 0.0)
        return fb_err_set(err, FB_ESOLVE,
                          "tamsi: no decrease of |R| = %.3g m/s along the Newton direction at "
                          "t=%.17g",
                          sqrt(r2_old), t);
    }
    upd = 0.0;
    for (size_t i = 0; i < nc; i++) {
      ws->vt[i] += alpha * ws->dv[i];
      upd = fmax(upd, fabs(alpha * ws->dv[i]));
    }
    cnt->ninner++;
    if (upd < stop && alpha == a_tals) {
      ws->law_at_vt = fresh;
      return FB_OK;
    }
  }
  return fb_err_set(err, FB_ESOLVE,
                    "tamsi: Newton did not converge in %lu iterations at t=%.17g (last update "
                    "%.3g m/s > tol v_s = %.3g); try a smaller --h or a larger max_it",
                    max_it, t, upd, stop);
}

/* A time of the segment (ta, tb]: at a break, read one ulp inside the segment (the
 * forcing after the break at the segment's start, before it at its end). */
static double tamsi_in(double t, double ta, double tb)
{
  if (t <= ta)
    return nextafter(t, INFINITY);
  if (t >= tb)
    return nextafter(t, -INFINITY);
  return t;
}

static int tamsi_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  tamsi_ws *ws = wsv;
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double h = at->dt;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = tamsi_in(at->t, at->tseg, at->t1), t1 = tamsi_in(at->tnew, at->tseg, at->t1);
  /* v* = v^n + h M^-1 (f(t_n, x_n, v_n) - D v^n - K x^n): the smooth forces explicit */
  fb_plant_smooth_force(pl, t0, x, v, ws->f);
  cnt->nfe++;
  fb_plant_solve_mass(pl, ws->f, ws->a);
  for (size_t j = 0; j < n; j++)
    ws->vstar[j] = v[j] + h * ws->a[j];
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in_at(pl, i, t1, &ws->ci[i], &ws->u1[i]);
    ws->vts[i] = fb_contact_vel(pl, i, ws->vstar) - ws->u1[i];
    ws->vt[i] = fb_contact_vel(pl, i, v) - ws->u1[i]; /* the guess: the current slip */
  }
  int st = tamsi_newton(ws, h, at->t, cnt, err);
  if (st != FB_OK)
    return st;
  /* v^{n+1} = v* + h M^-1 J^T f_t(v_t), x^{n+1} = x^n + h v^{n+1} */
  if (!ws->law_at_vt)
    tamsi_law(ws, ws->vt);
  memset(ws->f, 0, n * sizeof(double));
  for (size_t i = 0; i < nc; i++)
    fb_contact_add_force(pl, i, ws->ft[i], ws->f);
  fb_plant_solve_mass(pl, ws->f, ws->a);
  for (size_t j = 0; j < n; j++) {
    v[j] = ws->vstar[j] + h * ws->a[j];
    x[j] += h * v[j];
  }
  for (size_t i = 0; i < nc; i++) {
    z[2 * i] = ws->ft[i];
    double w = fabs(ws->vt[i]);
    if (pl->contact[i].pair != FB_PAIR_NONE)
      w = hypot(ws->vt[i], ws->vt[fb_contact_partner(pl, i)]);
    z[2 * i + 1] = w < ws->p.v_s;
  }
  return FB_OK;
}

static int tamsi_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                       const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_tamsi)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the tamsi model, not %s", type->name,
                      pb->model->type->name);
  if (pl->nn > 0)
    return fb_err_set(err, FB_EUNSUP,
                      "%s: normal contact (docs/design.md §12) is not implemented in the tamsi "
                      "scheme (its Hunt-Crossley normal force): scenarios with a prescribed "
                      "normal force only",
                      type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  tamsi_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pl = pl;
  ws->p = *(const tamsi_params *)pb->model->params;
  ws->n = n;
  ws->nc = nc;
  ws->cmax = cos(ws->p.theta_max);
  ws->eps = ws->p.tol * ws->p.v_s;
  ws->ci = calloc(nc + 1, sizeof *ws->ci);
  ws->piv = calloc(nc + 1, sizeof *ws->piv);
  ws->blk0 = calloc(nc + 1, sizeof *ws->blk0);
  ws->blk1 = calloc(nc + 1, sizeof *ws->blk1);
  ws->block = calloc(3 * n + 7 * nc + 3 * nc * nc + 1, sizeof(double));
  if (ws->ci == NULL || ws->piv == NULL || ws->block == NULL || ws->blk0 == NULL ||
      ws->blk1 == NULL) {
    tamsi_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  double *b = ws->block;
  ws->f = b, b += n;
  ws->a = b, b += n;
  ws->vstar = b, b += n;
  ws->u1 = b, b += nc;
  ws->vts = b, b += nc;
  ws->vt = b, b += nc;
  ws->dv = b, b += nc;
  ws->R = b, b += nc;
  ws->ft = b, b += nc;
  ws->vtry = b, b += nc;
  ws->W = b, b += nc * nc;
  ws->G = b, b += nc * nc;
  ws->Jm = b;
  int finite = 1;
  for (size_t i = 0; i < nc; i++) /* W = J M^-1 J^T, constant */
    for (size_t k = 0; k < nc; k++) {
      ws->W[i * nc + k] = fb_plant_contact_coupling(pl, i, k);
      finite = finite && isfinite(ws->W[i * nc + k]);
    }
  for (size_t i = 0; i < nc; i++) { /* the blocks as tamsi_law walks them */
    const size_t e = pl->contact[i].pair == FB_PAIR_X ? i + 1 : i;
    ws->blk0[i] = ws->blk0[e] = finite ? i : 0;
    ws->blk1[i] = ws->blk1[e] = finite ? e : nc - 1;
    i = e;
  }
  *out = ws;
  return FB_OK;
}

/* one applied-force evaluation per step */
static unsigned long tamsi_rhs_per_step(const void *ws)
{
  (void)ws;
  return 1;
}

static const fb_integrator_type tamsi_scheme = {
    .name = "tamsi",
    .title = "TAMSI: implicit friction in velocities, Newton with transition-aware line search",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 1,
    .order = 1,
    .data = NULL,
    .alloc = tamsi_alloc,
    .free = tamsi_free,
    .step = tamsi_step,
    .rhs_per_step = tamsi_rhs_per_step,
};

static const fb_integrator_type *const tamsi_schemes[] = {&tamsi_scheme, NULL};

const fb_model_type fb_model_tamsi = {
    .name = "tamsi",
    .title = "Drake's TAMSI: friction regularized below v_s, implicit, transition-aware Newton",
    .reference = "Castro, Qu, Kuppuswamy, Alspach & Sherman, IEEE RA-L 5(2) 2020 (arXiv "
                 "1909.05700); docs/models/tamsi.md",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "tamsi",
    .default_tol = 0,
    .params = &tamsi_set,
    .nz = 2,
    .z_names = fb_impulse_z_names,
    .init = fb_impulse_init,
    .init2 = fb_impulse_init2,
    .output = fb_impulse_output,
    .schemes = tamsi_schemes,
};

/* The suite's policy for tamsi (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_tamsi = {
    .model = "tamsi",
    .color = "#d6616b",
    .conv = {"tamsi", NULL},
    .wp = {NULL},
    .cost_integrator = "tamsi",
    .cost_h = 1e-3,
    .cost_hint = 1,
    .expect = "creeps under a push below breakaway by design, at v_s (1 - sqrt(1 - r)) "
              "(Castro et al. 2020); first order; normal-contact scenarios unsupported "
              "(no Hunt-Crossley normal in this scheme)"};
