/* glowinski.c — multiplier operator splitting of Glowinski, Shiau, Kuo and Nasser
 * ([Glowinski2004]: Appl. Math. Lett. 17 (2004) 801-807; [Shiau2005]: DCDS Suppl. 2005 806-815;
 * docs/design.md §3 M2).
 *
 * Rigorous form ([Shiau2005] eq. 2.4, [Glowinski2004] eq. 8), per contact i on DOF j_i:
 *
 *     M vdot + D v + K x + C (lambda - gamma(v_r)) = f(t, x, v),   xdot = v,
 *     lambda_i v_r,i = |v_r,i|,   |lambda_i| <= 1,
 *
 * C = diag(c_i) with c_i = Fs_i = N_i(t) mu_s,i and gamma the odd extension of
 * gamma(w) = 1 - S(|w|)/Fs (docs/design.md §1), so that c (sgn v - gamma(v)) = S(|v|) sgn v
 * is the friction characteristic every model of the suite shares.  v_r,i = v_j - u_i(t)
 * is the velocity relative to the contact's surface (belt).
 *
 * Lie splitting of one step h = t^{n+1} - t^n ([Glowinski2004] eqs. 9-12, [Shiau2005] eqs. 2.5-2.9):
 *  1. Friction step, x frozen ([Glowinski2004] eq. 10: "xdot = 0"):
 *        M Wdot + C (lambda - gamma(W_r)) = f(t, x^n, W) - D W  on (t^n, t^{n+1}),
 *     P sub-steps tau1 = h/P of the implicit-explicit scheme ([Glowinski2004] eq. 20,
 *     [Shiau2005] eq. 3.14):
 *        M (W^p - W^{p-1})/tau1 + C lambda^p = C gamma(W_r^{p-1}) + f^p - D W^{p-1},
 *        lambda^p in Sgn(W_r^p),
 *     with f^p = f(t_p, x^n, W^{p-1}) at the sub-step's end t_p = t^n + p tau1.
 *     * M diagonal, at most one contact per DOF: closed form ([Glowinski2004] eq. 22, [Shiau2005]
 *       eq. 3.16) on the relative velocity, b_r = m (W_j^{p-1} - u^p) + tau1 (c gamma +
 *       f - D W)_j; W_r^p = 0 if |b_r| <= c tau1, else (b_r - c tau1 sgn b_r)/m.
 *     * Otherwise Uzawa / projection ([Shiau2005] eqs. 4.18-4.22):
 *          M W^k = b - tau1 C lambda^k,   lambda^{k+1} = P_Lambda(lambda^k + rho C^T W_r^k),
 *       which converges for 0 < rho < 2/(tau1 beta_d), beta_d the largest eigenvalue of
 *       C^T M^-1 C (= of M^-1 C^2 for square C, [Shiau2005] Theorem 1, eq. 4.23).
 *  2. Elastic step M xddot + K x = 0 from the friction step's state, xdot = v ([Glowinski2004]
 *     eqs. 11-12, [Shiau2005] eqs. 2.8-2.11): Q sub-steps tau2 = h/Q of the centred
 *     alpha-scheme ([Glowinski2004] eqs. 24-26, [Shiau2005] eqs. 5.1-5.3), or the exact solution
 *     through the generalized eigenproblem K phi = omega^2 M phi (elastic=exact).
 *     Without stiffness the elastic step is exactly x += h v.
 * Strang variant ([Glowinski2004] eqs. 13-16): friction on (t^n, t^n + h/2), elastic over h,
 * friction on (t^n + h/2, t^{n+1}) with the new x frozen; each friction half step uses
 * P sub-steps of h/(2P).  [Glowinski2004] remark 4: no better than first order here.
 *
 * Where the other forces go (docs/design.md §3 M2 asks us to say): K x in the elastic step, as in
 * the papers; the damping D v and the scenario's force f(t, x, v) (which includes any
 * smooth extra force g) in the friction step, explicitly: evaluated at the sub-step's
 * end time with x frozen and v = W^{p-1}, as the papers do with gamma.  That keeps
 * every sub-step a one-line projection (or a linear Uzawa problem) whatever D and f are.
 *
 * Reported multiplier: z = lambda_bar, the mean of the step's sub-step multipliers.
 * [Glowinski2004] remark 3 / [Shiau2005] remark 1 only promise weak-* convergence of lambda; the
 * step mean is the impulse average sum(tau1 C lambda^p)/h, which converges at first
 * order in L1 (in L2 at order 1/2 only: a stop that the scheme places O(h) off makes
 * lambda O(1) wrong on a few steps), whereas the last sub-step's lambda^P does not
 * converge at all when a spring loads a stuck contact (L2 error 1.3 at every h on
 * glowinski-2dof): the elastic step adds the impulse -h K x to W, and the friction step
 * absorbs it in its first sub-steps, so lambda^P balances f alone instead of f - K x.
 * Friction force on the body (output): F = -Fs (lambda_bar - gamma(v_r)).  Stick flag:
 * 1 when v_r == 0 exactly or |lambda_bar| < 1 (the sub-steps held the contact), else 0.
 * The reported v is the one after the elastic step ([Glowinski2004] eq. 11): exactly u in
 * stick without springs, O(h) off it when a spring loads the stuck contact.
 * Forcing breaks: f is sampled only at sub-step ends t_p in (t^n, t^{n+1}], so at a
 * break the scenario's value there is taken as the value on the sub-step ending there.
 *
 * Parameters (model-wide, every contact): P (1, default 10) friction sub-steps per
 * (half) step; Q (1, default 2) elastic sub-steps; alpha (1, default 1/4, in [0, 1/2],
 * unconditionally stable for alpha >= 1/4); elastic = alpha | exact; solver = auto |
 * closed | uzawa (auto: closed form when M is diagonal with one contact per DOF);
 * rho (s/(N m), auto 1/(tau1 beta_d)); uzawa_tol (1, default 1e-12), uzawa_floor (1,
 * default 16: the round-off floor of the stop, see glow_uzawa) and uzawa_max (default
 * 10000) stop the Uzawa iteration.
 * State per contact: lambda (1).  Kind: model-owned fixed-step schemes glowinski-lie
 * (default) and glowinski-strang.  Cost counters: nfe counts friction sub-steps (one
 * evaluation of f, gamma and the contact state each), ninner Uzawa iterations.
 */
#include <float.h>
#include <gsl/gsl_eigen.h>
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
#include "fb_util.h"

enum { GLOW_ELASTIC_ALPHA = 0, GLOW_ELASTIC_EXACT = 1 };
enum { GLOW_SOLVER_AUTO = 0, GLOW_SOLVER_CLOSED = 1, GLOW_SOLVER_UZAWA = 2 };

typedef struct glow_params {
  double P;         /* friction sub-steps per (half) step */
  double Q;         /* elastic sub-steps per step */
  double alpha;     /* weight of the centred alpha-scheme */
  double elastic;   /* GLOW_ELASTIC_* */
  double rho;       /* Uzawa step (s/(N m)); NaN = 1/(tau1 beta_d) */
  double uzawa_tol; /* Uzawa stop: max |dlambda| */
  double uzawa_max; /* Uzawa iteration bound per sub-step */
  double solver;    /* GLOW_SOLVER_* */
  double uzawa_floor; /* safety factor of the Uzawa stop's round-off floor */
} glow_params;

static const char *const glow_elastic_names[] = {"alpha", "exact", NULL};
static const char *const glow_solver_names[] = {"auto", "closed", "uzawa", NULL};

static const fb_param_desc glow_desc[] = {
    {"P", "1", "friction sub-steps per (half) step, tau1 = h/P ([Glowinski2004] eq. 19)",
     offsetof(glow_params, P), 10, 1, 1e6, FB_PARAM_INT, NULL, NULL},
    {"Q", "1", "elastic sub-steps per step, tau2 = h/Q ([Glowinski2004] eq. 24)",
     offsetof(glow_params, Q), 2, 1, 1e6, FB_PARAM_INT, NULL, NULL},
    {"alpha", "1", "centred alpha-scheme weight, unconditionally stable for alpha >= 1/4",
     offsetof(glow_params, alpha), 0.25, 0, 0.5, 0, NULL, NULL},
    {"elastic", "-", "elastic sub-problem: alpha-scheme or exact (linear M, K)",
     offsetof(glow_params, elastic), GLOW_ELASTIC_ALPHA, 0, 1, FB_PARAM_CHOICE, NULL,
     glow_elastic_names},
    {"rho", "s/(N m)", "Uzawa step, needs 0 < rho < 2/(tau1 beta_d) ([Shiau2005] eq. 4.23)",
     offsetof(glow_params, rho), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "1/(tau1 beta_d), beta_d = largest eigenvalue of C M^-1 C", NULL},
    {"uzawa_tol", "1", "Uzawa stop: max |dlambda| (raised to the round-off floor)",
     offsetof(glow_params, uzawa_tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"uzawa_max", "1", "Uzawa iterations allowed per friction sub-step",
     offsetof(glow_params, uzawa_max), 10000, 1, 1e9, FB_PARAM_INT, NULL, NULL},
    {"solver", "-", "friction sub-step: auto (closed form when M is diagonal), closed, uzawa",
     offsetof(glow_params, solver), GLOW_SOLVER_AUTO, 0, 2, FB_PARAM_CHOICE, NULL,
     glow_solver_names},
    {"uzawa_floor", "1",
     "factor c_r of the Uzawa stop's round-off floor (0: absolute uzawa_tol only, docs/design.md §7)",
     offsetof(glow_params, uzawa_floor), 16, 0, 1e6, 0, NULL, NULL},
};
static const fb_param_set glow_set = {sizeof(glow_params), 9, glow_desc};
static const char *const glow_z[] = {"lambda"};

/* c gamma(w) = sgn(w) (Fs - S(|w|)) = sgn(w) N (mu_s - mu(|w|)): docs/design.md §1's odd extension
 * of gamma times c = Fs, written without the division so that Fs = 0 is harmless. */
static double glow_cgamma(const fb_friction *law, double N, double w)
{
  if (w == 0.0)
    return 0.0;
  return fb_sgn(w) * N * (law->mu_s - fb_friction_mu(law, fabs(w), NULL));
}

static void glow_init(const void *p, const fb_contact_in *c, double vr0, double *z0)
{
  (void)p, (void)c;
  /* lambda is only defined a.e. ([Glowinski2004] eq. 4); at rest the first step decides. */
  z0[0] = fb_sgn(vr0);
}

/* [Glowinski2004] eq. 4: F = -c (lambda - gamma(v)) on the body. */
static int glow_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                       double *F)
{
  (void)p;
  *F = -c->Fs * z[0] + glow_cgamma(c->law, c->N, vr);
  return vr == 0.0 || fabs(z[0]) < 1.0;
}

/* A 2-D contact starting in slip: lambda = u/|u| (the disc's boundary); at rest 0. */
static void glow_init2(const void *p, const fb_contact_in *c, const double *vr0, double *z0)
{
  (void)p, (void)c;
  const double w = hypot(vr0[0], vr0[1]);
  z0[0] = w > 0.0 ? vr0[0] / w : 0.0;
  z0[1] = w > 0.0 ? vr0[1] / w : 0.0;
}

/* A 2-D contact sticks when its slip is 0 or its mean multiplier is inside the disc. */
static int glow_stick2(const void *p, const fb_contact_in *c, const double *vr, const double *z)
{
  (void)p, (void)c;
  return (vr[0] == 0.0 && vr[1] == 0.0) || hypot(z[0], z[1]) < 1.0 - 8.0 * DBL_EPSILON;
}

/* ------------------------------------------------------------------------------------ */
/* The schemes.                                                                         */

static const int glow_kind_lie = 0, glow_kind_strang = 1;

typedef struct glow_ws {
  const fb_problem *pb;
  const fb_plant *pl;
  glow_params p;
  int strang;
  double h;
  unsigned long uzawa_max;
  size_t n, nc, P, Q;
  int closed;  /* 1: closed-form friction sub-step */
  int elastic; /* GLOW_ELASTIC_* */
  /* Scratch, one block (no allocation once running). */
  double *block;
  double *W, *b, *r, *f, *tmp;       /* n */
  double *d0, *d1, *d2, *kx;         /* n: alpha-scheme increments, K x */
  double *q, *qd, *dq, *Cm1, *S, *dS; /* n: exact elastic step */
  double *lam, *lamsum, *c, *u, *uprev, *cg, *cbeta; /* nc */
  long *cof;                         /* n: contact on DOF j (closed form), -1 if none */
  /* Uzawa. */
  gsl_matrix *L; /* Cholesky factor of M */
  double Minv_norm;
  gsl_matrix *G; /* nc x nc work: C^T M^-1 C, destroyed by the eigensolver */
  gsl_vector *geval;
  gsl_eigen_symm_workspace *gws;
  double beta_d;
  int beta_valid;
  /* Alpha-scheme: LU of M + alpha tau2^2 K for the cached tau2. */
  gsl_matrix *A;
  gsl_permutation *perm;
  double tau2_A;
  /* Exact elastic step: M-orthonormal modes, Phi^T M, omega^2, coefficients for h_ex. */
  gsl_matrix *Phi, *PhiTM;
  double *om2;
  double h_ex;
} glow_ws;

static void glow_free(void *wsv)
{
  glow_ws *ws = wsv;
  if (ws == NULL)
    return;
  gsl_matrix_free(ws->L);
  gsl_matrix_free(ws->G);
  gsl_vector_free(ws->geval);
  if (ws->gws != NULL)
    gsl_eigen_symm_free(ws->gws);
  gsl_matrix_free(ws->A);
  if (ws->perm != NULL)
    gsl_permutation_free(ws->perm);
  gsl_matrix_free(ws->Phi);
  gsl_matrix_free(ws->PhiTM);
  free(ws->cof);
  free(ws->block);
  free(ws);
}

/* beta_d = largest eigenvalue of C^T M^-1 C for the current c ([Shiau2005] eq. 4.23):
 * recomputed only when a normal force changes. */
static void glow_beta_update(glow_ws *ws)
{
  const size_t nc = ws->nc;
  int same = ws->beta_valid;
  for (size_t i = 0; i < nc && same; i++)
    same = ws->c[i] == ws->cbeta[i];
  if (same)
    return;
  const fb_plant *pl = ws->pl;
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nc; k++)
      gsl_matrix_set(ws->G, i, k, ws->c[i] * ws->c[k] * fb_plant_contact_coupling(pl, i, k));
  double bmax = 0.0;
  if (gsl_eigen_symm(ws->G, ws->geval, ws->gws) == GSL_SUCCESS)
    for (size_t i = 0; i < nc; i++)
      bmax = fmax(bmax, gsl_vector_get(ws->geval, i));
  else /* cannot happen for a symmetric matrix; Gershgorin bound as a fallback */
    for (size_t i = 0; i < nc; i++) {
      double s = 0.0;
      for (size_t k = 0; k < nc; k++)
        s += fabs(ws->c[i] * ws->c[k] * fb_plant_contact_coupling(pl, i, k));
      bmax = fmax(bmax, s);
    }
  ws->beta_d = bmax;
  memcpy(ws->cbeta, ws->c, nc * sizeof(double));
  ws->beta_valid = 1;
}

static double glow_rho(const glow_ws *ws, double tau1)
{
  return isnan(ws->p.rho) ? 1.0 / (tau1 * ws->beta_d) : ws->p.rho;
}

/* [Glowinski2004] eq. 22 / [Shiau2005] eq. 3.16 on the relative velocity, DOF by DOF. */
static void glow_closed_form(glow_ws *ws, double tau1, double *v)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n;
  for (size_t j = 0; j < n; j++) {
    const double m = pl->M[j * n + j];
    const long i = ws->cof[j];
    if (i < 0) { /* no friction on this DOF: m W^p = b */
      v[j] = ws->b[j] / m;
      continue;
    }
    const double ct = ws->c[i] * tau1, u = ws->u[i];
    const double br = ws->b[j] - m * u; /* b of the relative velocity W_j - u^p */
    if (fabs(br) <= ct) {
      /* Stick: W_r^p = 0 exactly; lambda^p from the first equation of (21). */
      v[j] = u;
      ws->lam[i] = ct > 0.0 ? br / ct : 0.0;
    } else {
      /* Slip: lambda^p = sgn(W_r^p) = sgn(b_r), stated exactly rather than recomputed. */
      v[j] = u + (br - ct * fb_sgn(br)) / m;
      ws->lam[i] = fb_sgn(br);
    }
  }
}

/* r = b - tau1 C lambda, then M W = r by the Cholesky factor ([Shiau2005] eq. 4.20). */
static int glow_uzawa_solve_W(glow_ws *ws, double tau1)
{
  const fb_plant *pl = ws->pl;
  memcpy(ws->r, ws->b, ws->n * sizeof(double));
  for (size_t i = 0; i < ws->nc; i++)
    fb_contact_add_force(pl, i, -(tau1 * ws->c[i] * ws->lam[i]), ws->r);
  gsl_vector_const_view rv = gsl_vector_const_view_array(ws->r, ws->n);
  gsl_vector_view wv = gsl_vector_view_array(ws->W, ws->n);
  return gsl_linalg_cholesky_solve(ws->L, &rv.vector, &wv.vector);
}

/* Uzawa / projection iteration for M W + tau1 C lambda = b, lambda in Sgn(W_r) ([Shiau2005]
 * eqs. 4.18-4.22), warm-started from the previous sub-step's multipliers.
 *
 * Stopping test (docs/design.md §7): the iteration stops when
 *     max_i |lambda_i^{k+1} - lambda_i^k| <= max(uzawa_tol, c_r rho c_max eps w_scale),
 *     w_scale = ||M^-1||_inf (||b||_inf + tau1 c_max) + max_i |u_i|,
 * c_r = uzawa_floor (default 16), eps = DBL_EPSILON, norms = max norms.  Why: W is computed
 * from b - tau1 C lambda, whose terms cancel in stick, so W carries an absolute
 * round-off of about eps w_scale (w_scale bounds the velocities involved, m/s); the
 * update multiplies it by rho c_i ~ 1/tau1 (dimensionless result), so a fixed absolute
 * tolerance on dlambda becomes unreachable as h shrinks (hundreds of iterations, then
 * non-convergence) while this floor keeps the count bounded. */
static int glow_uzawa(glow_ws *ws, double tau1, double tp, double *v, fb_counters *cnt,
                      fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  glow_beta_update(ws);
  if (!(ws->beta_d > 0.0)) { /* every c_i = 0: no friction, M W = b */
    for (size_t i = 0; i < nc; i++)
      ws->lam[i] = 0.0;
    if (glow_uzawa_solve_W(ws, tau1) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "mass solve failed at t=%.17g", tp);
    for (size_t i = 0; i < nc; i++)
      ws->lam[i] = fb_sgn(fb_contact_vel(pl, i, ws->W) - ws->u[i]);
    memcpy(v, ws->W, n * sizeof(double));
    return FB_OK;
  }
  const double rho = glow_rho(ws, tau1);
  double bnorm = 0.0, cmax = 0.0, umax = 0.0;
  for (size_t j = 0; j < n; j++)
    bnorm = fmax(bnorm, fabs(ws->b[j]));
  for (size_t i = 0; i < nc; i++) {
    cmax = fmax(cmax, ws->c[i]);
    umax = fmax(umax, fabs(ws->u[i]));
  }
  const double w_scale = ws->Minv_norm * (bnorm + tau1 * cmax) + umax;
  const double thr = fmax(ws->p.uzawa_tol, ws->p.uzawa_floor * rho * cmax * DBL_EPSILON * w_scale);
  for (size_t i = 0; i < nc; i++) /* warm start, a point of Lambda (eq. 4.19) */
    ws->lam[i] = isfinite(ws->lam[i]) ? fb_sat(ws->lam[i]) : 0.0;
  double dmax = INFINITY;
  unsigned long k;
  for (k = 0; k < ws->uzawa_max && !(dmax <= thr); k++) {
    if (glow_uzawa_solve_W(ws, tau1) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "Uzawa mass solve failed at t=%.17g", tp);
    dmax = 0.0;
    for (size_t i = 0; i < nc; i++) { /* eq. 4.21 with P_Lambda of eq. 4.22 */
      const double wr = fb_contact_vel(pl, i, ws->W) - ws->u[i];
      if (pl->contact[i].pair == FB_PAIR_X) {
        /* a 2-D contact: Lambda is the unit disc, P_Lambda the vector saturation
         * (docs/design.md §13) */
        const double wry = fb_contact_vel(pl, i + 1, ws->W) - ws->u[i + 1];
        double l2[2] = {ws->lam[i] + rho * ws->c[i] * wr, ws->lam[i + 1] + rho * ws->c[i] * wry};
        fb_sat2(l2, FB_CONE_DISC);
        dmax = fmax(dmax, fmax(fabs(l2[0] - ws->lam[i]), fabs(l2[1] - ws->lam[i + 1])));
        ws->lam[i] = l2[0];
        ws->lam[i + 1] = l2[1];
        i++;
        continue;
      }
      const double ln = fb_sat(ws->lam[i] + rho * ws->c[i] * wr);
      dmax = fmax(dmax, fabs(ln - ws->lam[i]));
      ws->lam[i] = ln;
    }
    cnt->ninner++;
  }
  if (!(dmax <= thr))
    return fb_err_set(err, FB_ESOLVE,
                      "Uzawa iteration did not converge in %lu iterations at t=%.17g "
                      "(max |dlambda| = %.3g > %.3g)",
                      ws->uzawa_max, tp, dmax, thr);
  /* W consistent with the final multipliers. */
  if (glow_uzawa_solve_W(ws, tau1) != GSL_SUCCESS)
    return fb_err_set(err, FB_ESOLVE, "Uzawa mass solve failed at t=%.17g", tp);
  /* Complementarity: |lambda_i| < 1 means W_r,i = 0; what is left of W_r,i is iteration
   * error below thr/(rho c_i), so stuck contacts are put exactly at rest, as the closed
   * form does. */
  for (size_t i = 0; i < nc; i++) {
    const fb_contact *ct = &pl->contact[i];
    /* the length of a 2-D contact's multiplier; through a row the stuck slip is left at
     * its iteration error (no DOF to set) */
    const double lam = ct->pair == FB_PAIR_NONE ? fabs(ws->lam[i])
                       : ct->pair == FB_PAIR_X  ? hypot(ws->lam[i], ws->lam[i + 1])
                                                : hypot(ws->lam[i - 1], ws->lam[i]);
    /* a disc multiplier on the rim is 1 to round-off only (u/|u| of a computed u) */
    const double rim = ct->pair == FB_PAIR_NONE ? 1.0 : 1.0 - 8.0 * DBL_EPSILON;
    if (ws->c[i] > 0.0 && lam < rim && ct->Jt == NULL)
      ws->W[ct->dof] = ws->u[i];
  }
  memcpy(v, ws->W, n * sizeof(double));
  return FB_OK;
}

/* Friction step on (ta, ta + dt) with x frozen ([Glowinski2004] eqs. 10, 19-22; [Shiau2005] eqs.
 * 2.6, 3.13-3.16, 4.18-4.22).  v is W on entry and on exit; lamsum accumulates the
 * sub-step multipliers. */
static int glow_friction(glow_ws *ws, double ta, double dt, const double *x, double *v,
                         fb_counters *cnt, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc, P = ws->P;
  const double tau1 = dt / (double)P;
  for (size_t i = 0; i < nc; i++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, ta, &cs);
    ws->uprev[i] = cs.u;
  }
  for (size_t p = 1; p <= P; p++) {
    const double tp = p == P ? ta + dt : ta + (double)p * tau1;
    for (size_t i = 0; i < nc; i++) {
      fb_contact_state cs;
      fb_plant_contact_at(pl, i, tp, &cs);
      const fb_friction *law = &pl->contact[i].law;
      ws->c[i] = cs.N * law->mu_s;
      ws->u[i] = cs.u;
      /* gamma explicit, at the previous sub-step's relative velocity (eq. 20). */
      const double vr = fb_contact_vel(pl, i, v) - ws->uprev[i];
      if (pl->contact[i].pair != FB_PAIR_NONE) {
        /* c gamma(|u|) u/|u| for a 2-D contact: the velocity-weakening part along the slip */
        const size_t o = fb_contact_partner(pl, i);
        fb_contact_state co;
        fb_plant_contact_at(pl, o, ta, &co);
        const double w = hypot(vr, fb_contact_vel(pl, o, v) - co.u);
        ws->cg[i] = w > 0.0 ? glow_cgamma(law, cs.N, w) * vr / w : 0.0;
      } else {
        ws->cg[i] = glow_cgamma(law, cs.N, vr);
      }
    }
    /* f^p = f(t_p) with x frozen and v = W^{p-1}; D W^{p-1} explicit with it. */
    if (pl->force != NULL)
      pl->force(pl->sp, tp, x, v, ws->f);
    else
      memset(ws->f, 0, n * sizeof(double));
    cnt->nfe++;
    if (pl->has_D)
      for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++)
          ws->f[j] -= pl->D[j * n + k] * v[k];
    /* b = M W^{p-1} + tau1 (C gamma(W_r^{p-1}) + f^p - D W^{p-1}) ([Shiau2005] §4). */
    for (size_t j = 0; j < n; j++) {
      double s = 0.0;
      if (pl->M_diagonal)
        s = pl->M[j * n + j] * v[j];
      else
        for (size_t k = 0; k < n; k++)
          s += pl->M[j * n + k] * v[k];
      ws->b[j] = s + tau1 * ws->f[j];
    }
    for (size_t i = 0; i < nc; i++)
      fb_contact_add_force(pl, i, tau1 * ws->cg[i], ws->b);
    if (ws->closed) {
      glow_closed_form(ws, tau1, v);
    } else {
      int st = glow_uzawa(ws, tau1, tp, v, cnt, err);
      if (st != FB_OK)
        return st;
    }
    for (size_t i = 0; i < nc; i++) {
      ws->lamsum[i] += ws->lam[i];
      ws->uprev[i] = ws->u[i];
    }
  }
  return FB_OK;
}

/* out = K a */
static void glow_mulK(const fb_plant *pl, const double *a, double *out)
{
  const size_t n = pl->n;
  for (size_t j = 0; j < n; j++) {
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
      s += pl->K[j * n + k] * a[k];
    out[j] = s;
  }
}

/* Centred alpha-scheme ([Glowinski2004] eqs. 24-26, [Shiau2005] eqs. 5.1-5.3) for M xddot + K x = 0
 * over dt, written on the increments d_q = X^q - X^0 so that v = (d_{Q+1} - d_{Q-1}) /
 * (2 tau2) loses no digits to |x| (the scheme is linear, so this is the same scheme):
 *   (M + alpha tau2^2 K) d_{q+1} = M (2 d_q - d_{q-1})
 *                                  - tau2^2 (K ((1-2 alpha) d_q + alpha d_{q-1}) + K X^0),
 * started (eq. 24, X^1 - X^-1 = 2 tau2 V eliminated) by
 *   d_1 = tau2 V - (tau2^2/2) (M + alpha tau2^2 K)^-1 K X^0,   d_{-1} = d_1 - 2 tau2 V. */
static int glow_elastic_alpha(glow_ws *ws, double dt, double *x, double *v, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, Q = ws->Q;
  const double tau2 = dt / (double)Q, t22 = tau2 * tau2, al = ws->p.alpha;
  if (tau2 != ws->tau2_A) { /* the step differs only before a break: refactor then */
    int signum;
    for (size_t j = 0; j < n; j++)
      for (size_t k = 0; k < n; k++)
        gsl_matrix_set(ws->A, j, k, pl->M[j * n + k] + al * t22 * pl->K[j * n + k]);
    if (gsl_linalg_LU_decomp(ws->A, ws->perm, &signum) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "alpha-scheme: M + alpha tau2^2 K is singular");
    ws->tau2_A = tau2;
  }
  gsl_vector_view tv = gsl_vector_view_array(ws->tmp, n);
  gsl_vector_view rv = gsl_vector_view_array(ws->r, n);
  glow_mulK(pl, x, ws->kx);
  memcpy(ws->r, ws->kx, n * sizeof(double));
  if (gsl_linalg_LU_solve(ws->A, ws->perm, &rv.vector, &tv.vector) != GSL_SUCCESS)
    return fb_err_set(err, FB_ESOLVE, "alpha-scheme solve failed");
  double *dm = ws->d0, *dc = ws->d1, *dp = ws->d2; /* d_{q-1}, d_q, d_{q+1} */
  for (size_t j = 0; j < n; j++) {
    dc[j] = tau2 * v[j] - 0.5 * t22 * ws->tmp[j]; /* d_1 */
    dm[j] = 0.0;                                  /* d_0 */
  }
  for (size_t q = 1; q <= Q; q++) {
    for (size_t j = 0; j < n; j++)
      ws->tmp[j] = (1.0 - 2.0 * al) * dc[j] + al * dm[j];
    glow_mulK(pl, ws->tmp, ws->f);
    for (size_t j = 0; j < n; j++) {
      double s = 0.0;
      for (size_t k = 0; k < n; k++)
        s += pl->M[j * n + k] * (2.0 * dc[k] - dm[k]);
      ws->r[j] = s - t22 * (ws->f[j] + ws->kx[j]);
    }
    gsl_vector_view pv = gsl_vector_view_array(dp, n);
    if (gsl_linalg_LU_solve(ws->A, ws->perm, &rv.vector, &pv.vector) != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "alpha-scheme solve failed");
    double *t = dm; /* rotate: (d_{q-1}, d_q, d_{q+1}) <- (d_q, d_{q+1}, old) */
    dm = dc;
    dc = dp;
    dp = t;
  }
  /* After the loop dm = d_Q, dc = d_{Q+1}, dp = d_{Q-1} (d_0 = 0 when Q = 1). */
  for (size_t j = 0; j < n; j++) {
    v[j] = (dc[j] - dp[j]) / (2.0 * tau2); /* eq. 26 */
    x[j] += dm[j];
  }
  return FB_OK;
}

/* Exact solution of M xddot + K x = 0 over dt in M-orthonormal modes q = Phi^T M x:
 * q(dt) = q cos(w dt) + qd sin(w dt)/w (hyperbolic for w^2 < 0, linear for w = 0),
 * applied as increments (cos - 1 = -2 sin^2(w dt/2)) to keep x and v to round-off. */
static void glow_elastic_exact(glow_ws *ws, double dt, double *x, double *v)
{
  const size_t n = ws->n;
  if (dt != ws->h_ex) {
    for (size_t k = 0; k < n; k++) {
      const double w2 = ws->om2[k];
      if (w2 > 0.0) {
        const double w = sqrt(w2), sh = sin(0.5 * w * dt);
        ws->Cm1[k] = -2.0 * sh * sh;
        ws->S[k] = sin(w * dt) / w;
        ws->dS[k] = -w * sin(w * dt);
      } else if (w2 < 0.0) {
        const double w = sqrt(-w2), sh = sinh(0.5 * w * dt);
        ws->Cm1[k] = 2.0 * sh * sh;
        ws->S[k] = sinh(w * dt) / w;
        ws->dS[k] = w * sinh(w * dt);
      } else {
        ws->Cm1[k] = 0.0;
        ws->S[k] = dt;
        ws->dS[k] = 0.0;
      }
    }
    ws->h_ex = dt;
  }
  for (size_t k = 0; k < n; k++) {
    double a = 0.0, b = 0.0;
    for (size_t j = 0; j < n; j++) {
      a += gsl_matrix_get(ws->PhiTM, k, j) * x[j];
      b += gsl_matrix_get(ws->PhiTM, k, j) * v[j];
    }
    ws->q[k] = a;
    ws->qd[k] = b;
  }
  for (size_t k = 0; k < n; k++) {
    ws->dq[k] = ws->q[k] * ws->Cm1[k] + ws->qd[k] * ws->S[k];
    ws->tmp[k] = ws->q[k] * ws->dS[k] + ws->qd[k] * ws->Cm1[k];
  }
  for (size_t j = 0; j < n; j++) {
    double a = 0.0, b = 0.0;
    for (size_t k = 0; k < n; k++) {
      a += gsl_matrix_get(ws->Phi, j, k) * ws->dq[k];
      b += gsl_matrix_get(ws->Phi, j, k) * ws->tmp[k];
    }
    x[j] += a;
    v[j] += b;
  }
}

/* Elastic step ([Glowinski2004] eqs. 11-12): xdot = v, M vdot + K x = 0. */
static int glow_elastic(glow_ws *ws, double dt, double *x, double *v, fb_err *err)
{
  if (!ws->pl->has_K) { /* exact: free flight */
    for (size_t j = 0; j < ws->n; j++)
      x[j] += dt * v[j];
    return FB_OK;
  }
  if (ws->elastic == GLOW_ELASTIC_EXACT) {
    glow_elastic_exact(ws, dt, x, v);
    return FB_OK;
  }
  return glow_elastic_alpha(ws, dt, x, v, err);
}

/* One step of h = dt from ta: Lie ([Glowinski2004] eqs. 9-12) or Strang (eqs. 13-16). */
static int glow_step(glow_ws *ws, double ta, double dt, double *y, fb_counters *cnt,
                     fb_err *err)
{
  const size_t n = ws->n, nc = ws->nc;
  double *x = y, *v = y + n, *lam = y + 2 * n;
  memset(ws->lamsum, 0, nc * sizeof(double));
  int st;
  if (!ws->strang) {
    st = glow_friction(ws, ta, dt, x, v, cnt, err);
    if (st == FB_OK)
      st = glow_elastic(ws, dt, x, v, err);
  } else {
    st = glow_friction(ws, ta, 0.5 * dt, x, v, cnt, err);
    if (st == FB_OK)
      st = glow_elastic(ws, dt, x, v, err);
    if (st == FB_OK)
      st = glow_friction(ws, ta + 0.5 * dt, 0.5 * dt, x, v, cnt, err);
  }
  if (st != FB_OK)
    return st;
  const double nsub = (double)(ws->strang ? 2 * ws->P : ws->P);
  for (size_t i = 0; i < nc; i++)
    lam[i] = ws->lamsum[i] / nsub;
  return FB_OK;
}

/* Modes of K phi = omega^2 M phi, M-orthonormal (GSL generalized symmetric eigensolver). */
static int glow_modes(glow_ws *ws, fb_err *err)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n;
  for (size_t j = 0; j < n; j++)
    for (size_t k = 0; k < j; k++)
      if (pl->K[j * n + k] != pl->K[k * n + j])
        return fb_err_set(err, FB_EUNSUP,
                          "glowinski: elastic=exact needs a symmetric stiffness matrix: use "
                          "elastic=alpha");
  gsl_matrix *Kc = gsl_matrix_alloc(n, n), *Mc = gsl_matrix_alloc(n, n);
  gsl_vector *eval = gsl_vector_alloc(n);
  gsl_eigen_gensymmv_workspace *w = gsl_eigen_gensymmv_alloc(n);
  ws->Phi = gsl_matrix_alloc(n, n);
  ws->PhiTM = gsl_matrix_alloc(n, n);
  int st = FB_OK;
  if (Kc == NULL || Mc == NULL || eval == NULL || w == NULL || ws->Phi == NULL ||
      ws->PhiTM == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto done;
  }
  for (size_t j = 0; j < n; j++)
    for (size_t k = 0; k < n; k++) {
      gsl_matrix_set(Kc, j, k, pl->K[j * n + k]);
      gsl_matrix_set(Mc, j, k, pl->M[j * n + k]);
    }
  if (gsl_eigen_gensymmv(Kc, Mc, eval, ws->Phi, w) != GSL_SUCCESS) {
    st = fb_err_set(err, FB_EGSL, "glowinski: generalized eigenproblem K phi = w^2 M phi failed");
    goto done;
  }
  for (size_t k = 0; k < n; k++) {
    /* Normalize phi_k^T M phi_k = 1 explicitly rather than rely on GSL's convention. */
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        s += gsl_matrix_get(ws->Phi, i, k) * pl->M[i * n + j] * gsl_matrix_get(ws->Phi, j, k);
    const double sc = 1.0 / sqrt(s);
    for (size_t i = 0; i < n; i++)
      gsl_matrix_set(ws->Phi, i, k, sc * gsl_matrix_get(ws->Phi, i, k));
    ws->om2[k] = gsl_vector_get(eval, k);
  }
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < n; j++) {
      double s = 0.0;
      for (size_t i = 0; i < n; i++)
        s += gsl_matrix_get(ws->Phi, i, k) * pl->M[i * n + j];
      gsl_matrix_set(ws->PhiTM, k, j, s);
    }
  ws->h_ex = NAN;
done:
  gsl_matrix_free(Kc);
  gsl_matrix_free(Mc);
  gsl_vector_free(eval);
  if (w != NULL)
    gsl_eigen_gensymmv_free(w);
  return st;
}

static int glow_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                      const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_glowinski)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the glowinski model, not %s", type->name,
                      pb->model->type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  glow_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pb = pb;
  ws->pl = pl;
  ws->p = *(const glow_params *)pb->model->params;
  ws->strang = *(const int *)type->data;
  ws->h = o->h;
  ws->n = n;
  ws->nc = nc;
  ws->P = (size_t)ws->p.P;
  ws->Q = (size_t)ws->p.Q;
  ws->uzawa_max = (unsigned long)ws->p.uzawa_max;
  ws->elastic = (int)ws->p.elastic;
  ws->tau2_A = NAN;
  int st = FB_OK;
  const size_t nb = 16 * n + 7 * nc + 1;
  ws->block = calloc(nb, sizeof(double));
  ws->cof = calloc(n, sizeof(long));
  if (ws->block == NULL || ws->cof == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto fail;
  }
  double *b = ws->block;
  ws->W = b, b += n;
  ws->b = b, b += n;
  ws->r = b, b += n;
  ws->f = b, b += n;
  ws->tmp = b, b += n;
  ws->d0 = b, b += n;
  ws->d1 = b, b += n;
  ws->d2 = b, b += n;
  ws->kx = b, b += n;
  ws->q = b, b += n;
  ws->qd = b, b += n;
  ws->dq = b, b += n;
  ws->Cm1 = b, b += n;
  ws->S = b, b += n;
  ws->dS = b, b += n;
  ws->om2 = b, b += n;
  ws->lam = b, b += nc;
  ws->lamsum = b, b += nc;
  ws->c = b, b += nc;
  ws->u = b, b += nc;
  ws->uprev = b, b += nc;
  ws->cg = b, b += nc;
  ws->cbeta = b;

  /* Closed form needs M diagonal and at most one contact per DOF. */
  int one_per_dof = 1;
  for (size_t j = 0; j < n; j++)
    ws->cof[j] = -1;
  for (size_t i = 0; i < nc; i++) {
    const size_t j = pl->contact[i].dof;
    if (ws->cof[j] >= 0)
      one_per_dof = 0;
    ws->cof[j] = (long)i;
  }
  const int solver = (int)ws->p.solver;
  /* the closed form is per DOF: no 2-D contact (a disc couples two) and no rows */
  const int closed_ok = pl->M_diagonal && one_per_dof && pl->npairs == 0 && !pl->has_jt;
  if (solver == GLOW_SOLVER_CLOSED && !closed_ok) {
    st = fb_err_set(err, FB_EINVAL,
                    "glowinski: solver=closed needs a diagonal mass matrix and at most one "
                    "contact per DOF: use solver=uzawa or auto");
    goto fail;
  }
  ws->closed = solver == GLOW_SOLVER_CLOSED || (solver == GLOW_SOLVER_AUTO && closed_ok);

  if (!ws->closed) {
    ws->L = gsl_matrix_alloc(n, n);
    ws->G = gsl_matrix_alloc(nc ? nc : 1, nc ? nc : 1);
    ws->geval = gsl_vector_alloc(nc ? nc : 1);
    ws->gws = gsl_eigen_symm_alloc(nc ? nc : 1);
    if (ws->L == NULL || ws->G == NULL || ws->geval == NULL || ws->gws == NULL) {
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
      goto fail;
    }
    for (size_t j = 0; j < n; j++)
      for (size_t k = 0; k < n; k++)
        gsl_matrix_set(ws->L, j, k, pl->M[j * n + k]);
    if (gsl_linalg_cholesky_decomp1(ws->L) != GSL_SUCCESS) {
      st = fb_err_set(err, FB_EINVAL, "glowinski: mass matrix is not positive definite");
      goto fail;
    }
    for (size_t j = 0; j < n; j++) {
      double s = 0.0;
      for (size_t k = 0; k < n; k++)
        s += fabs(pl->Minv[j * n + k]);
      ws->Minv_norm = fmax(ws->Minv_norm, s);
    }
    /* beta_d at t0, and the convergence condition of a user-given rho (eq. 4.23) at
     * the nominal sub-step. */
    for (size_t i = 0; i < nc; i++) {
      fb_contact_state cs;
      fb_plant_contact_at(pl, i, pl->t0, &cs);
      ws->c[i] = cs.N * pl->contact[i].law.mu_s;
    }
    glow_beta_update(ws);
    const double tau1 = ws->h / (double)(ws->strang ? 2 * ws->P : ws->P);
    if (!isnan(ws->p.rho) && ws->beta_d > 0 && !(ws->p.rho * tau1 * ws->beta_d < 2.0)) {
      st = fb_err_set(err, FB_EINVAL,
                      "glowinski: rho = %g does not converge: allowed is 0 < rho < 2/(tau1 "
                      "beta_d) = %g (tau1 = %g, beta_d = %g)",
                      ws->p.rho, 2.0 / (tau1 * ws->beta_d), tau1, ws->beta_d);
      goto fail;
    }
  }
  if (pl->has_K) {
    if (ws->elastic == GLOW_ELASTIC_EXACT) {
      st = glow_modes(ws, err);
      if (st != FB_OK)
        goto fail;
    } else {
      ws->A = gsl_matrix_alloc(n, n);
      ws->perm = gsl_permutation_alloc(n);
      if (ws->A == NULL || ws->perm == NULL) {
        st = fb_err_set(err, FB_ENOMEM, "out of memory");
        goto fail;
      }
    }
  }
  *out = ws;
  return FB_OK;
fail:
  glow_free(ws);
  return st;
}

static int glow_step_at(void *ctx, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  return glow_step(ctx, at->t, at->dt, y, cnt, err);
}

/* At the start: the first Uzawa solve warm-starts from the state's multipliers.  At a
 * break the multipliers of the last step are kept (the force is continuous there). */
static int glow_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)cnt;
  (void)err;
  glow_ws *ws = wsv;
  const size_t n = ws->n;
  if (at->seg == 0)
    for (size_t i = 0; i < ws->nc; i++)
      ws->lam[i] = isfinite(y[2 * n + i]) ? fb_sat(y[2 * n + i]) : 0.0;
  return FB_OK;
}

/* P Uzawa sweeps per friction step, two friction steps per Strang step. */
static unsigned long glow_rhs_per_step(const void *wsv)
{
  const glow_ws *ws = wsv;
  return ws->strang ? 2 * ws->P : ws->P;
}

static const fb_integrator_type glow_lie = {
    .name = "glowinski-lie",
    .title = "Glowinski Lie splitting: implicit-explicit friction step, then elastic step",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 0,
    .order = 1,
    .data = &glow_kind_lie,
    .alloc = glow_alloc,
    .free = glow_free,
    .reset = glow_reset,
    .step = glow_step_at,
    .rhs_per_step = glow_rhs_per_step,
};

static const fb_integrator_type glow_strang = {
    .name = "glowinski-strang",
    .title = "Glowinski Strang splitting: friction h/2, elastic h, friction h/2",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 0,
    .order = 1,
    .data = &glow_kind_strang,
    .alloc = glow_alloc,
    .free = glow_free,
    .reset = glow_reset,
    .step = glow_step_at,
    .rhs_per_step = glow_rhs_per_step,
};

static const fb_integrator_type *const glow_schemes[] = {&glow_lie, &glow_strang, NULL};

const fb_model_type fb_model_glowinski = {
    .name = "glowinski",
    .title = "multiplier operator splitting (Lie/Strang): implicit-explicit friction + elastic",
    .reference = "Glowinski et al. 2004 [Glowinski2004] eqs. 8-26 and [Shiau2005] eqs. 2.4-5.3, Theorem 1",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "glowinski-lie",
    .default_tol = 0,
    .params = &glow_set,
    .nz = 1,
    .z_names = glow_z,
    .resolve = NULL,
    .init = glow_init,
    .force = NULL,
    .jac = NULL,
    .output = glow_output,
    .init2 = glow_init2,
    .stick2 = glow_stick2,
    .stick = NULL,
    .schemes = glow_schemes,
};

/* The suite's policy for glowinski (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_glowinski = {
    .model = "glowinski",
    .color = "#e377c2",
    .exact_limit = 1,
    .conv = {"glowinski-lie", "glowinski-strang", NULL},
    .wp = {NULL},
    .cost_integrator = "glowinski-lie",
    .cost_h = 1e-3,
    .cost_hint = 3,
    .expect = "first order, exact stick (v identically 0) without a spring in the "
              "friction step; with one it creeps O(h) (Glowinski et al. 2004 [Glowinski2004] "
              "remark 4)"
};
