/* penalty.c — elasto-plastic penalty regularization (Engleder, Vielsack & Schweizerhof,
 * [Engleder2002] §2; docs/design.md §3 M5; not Dupont's elasto-plastic model, which is
 * elastoplastic.c): the rate form for the generic ODE steppers, and the paper's
 * own scheme, average-acceleration Newmark with the return mapping inside each step's
 * equilibrium solve (model-owned integrator "newmark").
 *
 * Friction law.  The friction force H of a contact is an elastic spring cT on the
 * relative displacement s (sdot = v_r), capped by the friction bound R0 = S(|v_r|)
 * (linear elastic - ideal plastic, "well established in F.E.M.", [Engleder2002] §2):
 *     incremental ([Engleder2002] §2: H(t + dt) = H(t) + cT [x2(t) - x2(t + dt)], |H| <= R0):
 *         H_trial = H_n - cT (s_{n+1} - s_n),   H_{n+1} = clamp(H_trial, -R0, R0),
 *         R0 = S(|v_r,n+1|) (the bound at the new velocity)
 *     rate form:  Hdot = -cT v_r, except Hdot = 0 when |H| >= R0 and H v_r < 0 (loading
 *         beyond the bound)
 *     F = clamp(H - dT v_r, -R0, R0)   (force on the body; dT: optional damper parallel
 *         to the penalty spring, "Vielsack (1996)" in [Engleder2002] §2; critical by default)
 * Both integrators report F through the same force() below, so the output is the same
 * function of the state for both.  The rate form is a Filippov system: when the bound
 * grows during slip (a falling S, |v_r| decreasing) H must slide along |H| = R0(v_r(t)),
 * which fixed-step steppers cross step by step but error-controlled ones resolve by
 * ever smaller steps (belt-oscillator with rk8pd --tol 1e-11 exhausts the RHS budget);
 * the return mapping clamps onto the new bound exactly and has no such sliding mode.
 * A stuck contact slips elastically by at most Fs/cT; undamped (dT = 0) its force rings at the
 * penalty frequency sqrt(cT/m) ([Engleder2002] fig. 4); small eps with a large step gives
 * structural errors ([Engleder2002] figs. 3-4).
 *
 * Parameters (per contact, docs/design.md §3 M3 for the auto default):
 *   cT           penalty stiffness (N/m); auto: k/eps when eps is set, else
 *                m (2 pi f_ratio f_c)^2 (m: effective mass at the contact)
 *   eps          k/cT, the paper's regularization parameter (k = K_jj at the contact's
 *                DOF); set cT or eps, not both
 *   dT           parallel damper (N s/m); auto: 2 sqrt(cT m), critical with the body as
 *                Kikuuwe's B, so that the two anchor-spring models compare on equal
 *                terms; dT = 0 is [Engleder2002]'s undamped variant (its two-mass-drive grid),
 *                whose stuck contact rings at sqrt(cT/m)/(2 pi)
 *   f_ratio      penalty frequency over the scenario's f_c for the auto cT, default 100
 *   newmark_tol  Newton tolerance of the Newmark step, relative: converged when
 *                max_i |r_i| <= tol * max_i (sum of |terms| of equation i), default 1e-12
 *                (never below 16 DBL_EPSILON, the round-off floor of the residual)
 *   newmark_max  Newton iterations per step before FB_ESOLVE, default 50
 * State layout: y = [x(n), v(n), H(nc)], nz = 1, H in N; H starts at 0 for a contact
 * at rest and on the bound, -S(|v_r0|) sgn(v_r0) (steady slip), for a sliding one.
 *
 * The Newmark scheme ("newmark", average acceleration gamma = 1/2, beta = 1/4, no
 * numerical damping — what [Engleder2002] used).  Unknown: the new acceleration a = a_{n+1}:
 *     dx = h v_n + h^2/4 (a_n + a),   v_{n+1} = v_n + h/2 (a_n + a),   x_{n+1} = x_n + dx
 *     r(a) = M a + D v_{n+1} + K x_{n+1} - f(t_{n+1}, x_{n+1}, v_{n+1}) - sum_i e_j F_i = 0
 *     F_i from the return mapping with ds = dx_j - h/2 (u(t_n) + u(t_{n+1})) (trapezoid,
 *     consistent with Newmark's dx = h/2 (v_n + v_{n+1})) and v_r = v_{n+1,j} - u(t_{n+1}).
 * (Taking a rather than x_{n+1} as the unknown keeps the residual free of the 4/h^2
 * cancellation that would swamp a 1e-12 tolerance at small h.)  Semi-smooth Newton:
 *     J = M + h/2 D + h^2/4 K - h^2/4 df/dx - h/2 df/dv - sum_i e_j e_j^T dF_i/da_j,
 *     dF/da_j = h^2/4 dF/ds + h/2 dF/dv_r, dF/ds = -cT elastic, 0 plastic (the consistent
 *     tangent of the return mapping), dF/dv_r = -dT inside, S' sgn(v_r) on the bound;
 * df/dx, df/dv by forward differences once per step when the scenario's force depends
 * on the state.  Newton with a backtracking line search on |r|_2 (Armijo, halving): the
 * undamped semi-smooth iteration can cycle between the elastic and plastic branches
 * when the step jumps over the elastic band (2 R0/cT narrow, h large).  J is factorized
 * with GSL's LU when n > 1.  When Newton fails (max iterations, or a stall: no halving
 * decreases |r|), and the plant has one contact and a state-independent force, the step
 * is solved by bracketing instead: the linear plant gives a = ab + g F for a contact
 * force F, and F solves the scalar, continuous F - Phi(a_j(F)) = 0 on [-N mu_s, N mu_s]
 * (Brent, GSL), run until the bracket reaches round-off.
 * This is needed with a falling characteristic (Stribeck) when h |S'| > 2 m: then r(a)
 * is not monotone, Newton can stall, and the discrete step may have several solutions
 * (the bracket's is taken).  Otherwise Newton's failure is FB_ESOLVE.
 * Predictor a = a_n; a_0 and the acceleration after each plant break (right limit) from
 * the equation of motion.  Fixed step h (landing exactly on breaks and T, a remainder
 * below 1e-9 h merged), or adaptive (--tol) by step doubling: one step h against two of
 * h/2, error max_i |y_half - y_full|_i / 3 / (atol + rtol |y_i|) over x and v (H follows
 * x), the two half steps kept, h scaled by 0.9 err^(-1/3) within [0.2, 5] and capped by
 * opts.hmax; a failed solve rejects the attempt and quarters h.  Counters: nfe =
 * residual evaluations (each one force-law evaluation per contact, plus one scenario
 * force), ninner = Newton (and Brent) iterations, njac = difference Jacobians of a
 * state-dependent scenario force.  No allocation after alloc.
 * Kind: ODE (rate form, default integrator rk4) and model-owned (newmark).
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_penalty.h"
#include "fb_integrator.h"
#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_util.h"
#include "fb_plant_int.h"

typedef struct ep_params {
  double cT;          /* penalty stiffness (N/m) */
  double eps;         /* k / cT (1), alternative to cT */
  double dT;          /* parallel damper (N s/m) */
  double f_ratio;     /* penalty frequency over f_c for the auto cT */
  double newmark_tol; /* Newton tolerance of the Newmark step (relative) */
  double newmark_max; /* Newton iterations per Newmark step */
} ep_params;

static const fb_param_desc ep_desc[] = {
    {"cT", "N/m", "penalty (tangential contact) stiffness", offsetof(ep_params, cT), NAN, 0,
     INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "k/eps when eps is set, else m (2 pi f_ratio f_c)^2", NULL},
    {"eps", "1", "regularization parameter k/cT of [Engleder2002] (k = stiffness at the contact)",
     offsetof(ep_params, eps), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "unused unless set", NULL},
    {"dT", "N s/m", "damper parallel to the penalty spring (0: [Engleder2002]'s undamped variant)",
     offsetof(ep_params, dT), NAN, 0, INFINITY, FB_PARAM_AUTO,
     "2 sqrt(cT m), critical with the body", NULL},
    {"f_ratio", "1", "penalty frequency over the scenario's f_c (for auto cT)",
     offsetof(ep_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"newmark_tol", "1", "newmark: Newton tolerance on the residual, relative to the forces",
     offsetof(ep_params, newmark_tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL,
     NULL},
    {"newmark_max", "1", "newmark: Newton iterations per step before failing",
     offsetof(ep_params, newmark_max), 50, 1, 1e6, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set ep_set = {sizeof(ep_params), 6, ep_desc};
static const char *const ep_z[] = {"H"};

static int ep_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  ep_params *p = pv;
  if (!isnan(p->eps)) {
    if (!isnan(p->cT))
      return fb_err_set(err, FB_EINVAL,
                        "penalty: set cT or eps, not both (cT = %g, eps = %g)", p->cT,
                        p->eps);
    if (!(sc->k > 0))
      return fb_err_set(err, FB_EINVAL,
                        "penalty: eps = %g needs a stiffness k > 0 at the contact's DOF "
                        "(have k = %g): set cT instead",
                        p->eps, sc->k);
    p->cT = sc->k / p->eps;
  }
  /* Critical damping of the penalty spring with the body, as Kikuuwe's B: the two
   * spring-slider-damper elements then differ only in their method, not their damper. */
  fb_auto_spring_damper(sc, p->f_ratio, &p->cT, &p->dT);
  return FB_OK;
}

/* A contact that starts sliding starts on the bound: H = -R0 sgn(v). */
static void ep_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  (void)pv;
  z0[0] = -fb_contact_S(c, fabs(vr0), NULL) * fb_sgn(vr0);
}

/* [Engleder2002] §2 in rate form (docs/design.md §3 M5).  Also the output of both integrators. */
static int ep_force(const void *pv, const fb_contact_in *c, double vr, const double *z, double *F,
                    double *dz)
{
  const ep_params *p = pv;
  const double R0 = fb_contact_S(c, fabs(vr), NULL), H = z[0];
  dz[0] = (fabs(H) >= R0 && H * vr < 0.0) ? 0.0 : -p->cT * vr;
  *F = fb_clamp(H - p->dT * vr, R0);
  return FB_OK;
}

static int ep_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                  fb_contact_jac *J)
{
  const ep_params *p = pv;
  double dS;
  const double R0 = fb_contact_S(c, fabs(vr), &dS), H = z[0], q = H - p->dT * vr;
  J->ddz_dvr[0] = (fabs(H) >= R0 && H * vr < 0.0) ? 0.0 : -p->cT;
  J->ddz_dz[0] = 0.0;
  if (fabs(q) < R0) {
    J->dF_dz[0] = 1.0;
    J->dF_dvr = -p->dT;
  } else {
    J->dF_dz[0] = 0.0;
    J->dF_dvr = fb_sgn(q) * dS * fb_sgn(vr);
  }
  return FB_OK;
}

/* The vector rate form (docs/design.md §13): radial return onto the disc.  The spring
 * force H loads elastically (Hdot = -cT u) inside the disc or when unloading; on the
 * rim and loading (H . u < 0) only its direction turns (the elastic rate less its radial
 * part); F = the projection of H - dT u onto the disc of radius R0. */
static int ep_force2(const void *pv, const fb_contact_in *c, const double *vr, const double *z,
                     double *F, double *dz)
{
  const ep_params *p = pv;
  const double R0 = fb_contact_S(c, hypot(vr[0], vr[1]), NULL), Hl = hypot(z[0], z[1]);
  dz[0] = -p->cT * vr[0];
  dz[1] = -p->cT * vr[1];
  if (Hl >= R0 && Hl > 0.0 && z[0] * vr[0] + z[1] * vr[1] < 0.0) {
    const double radial = (dz[0] * z[0] + dz[1] * z[1]) / Hl;
    dz[0] -= radial * z[0] / Hl;
    dz[1] -= radial * z[1] / Hl;
  }
  F[0] = z[0] - p->dT * vr[0];
  F[1] = z[1] - p->dT * vr[1];
  fb_clamp2(F, R0, FB_CONE_DISC);
  return FB_OK;
}

/* A contact that starts sliding starts on the rim: H = -R0 u/|u|. */
static void ep_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  (void)pv;
  const double w = hypot(vr0[0], vr0[1]), S = fb_contact_S(c, w, NULL);
  z0[0] = w > 0.0 ? -S * vr0[0] / w : 0.0;
  z0[1] = w > 0.0 ? -S * vr0[1] / w : 0.0;
}

static int ep_stick2(const void *pv, const fb_contact_in *c, const double *vr, const double *z)
{
  const ep_params *p = pv;
  return hypot(z[0] - p->dT * vr[0], z[1] - p->dT * vr[1]) <
         fb_contact_S(c, hypot(vr[0], vr[1]), NULL);
}

static int ep_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const ep_params *p = pv;
  return fabs(z[0] - p->dT * vr) < fb_contact_S(c, fabs(vr), NULL);
}

/* [Engleder2002] §2: elastic predictor, plastic corrector (see fb_penalty.h). */
int fb_penalty_return_map(double cT, double dT, const fb_contact_in *c, double H_n, double ds,
                     double vr, fb_penalty_map *out)
{
  if (!(cT >= 0 && dT >= 0 && isfinite(cT) && isfinite(dT) && isfinite(H_n) && isfinite(ds) &&
        isfinite(vr)))
    return FB_EINVAL;
  double dS;
  const double R0 = fb_contact_S(c, fabs(vr), &dS);
  const double dR0_dvr = dS * fb_sgn(vr); /* d S(|vr|) / d vr */
  const double Htr = H_n - cT * ds;
  double dH_dds, dH_dvr;
  out->R0 = R0;
  if (fabs(Htr) < R0) { /* elastic */
    out->H = Htr;
    dH_dds = -cT;
    dH_dvr = 0.0;
    out->plastic = 0;
  } else { /* plastic: back onto the bound (the bound moves with vr) */
    out->H = fb_sgn(Htr) * R0;
    dH_dds = 0.0;
    dH_dvr = fb_sgn(Htr) * dR0_dvr;
    out->plastic = 1;
  }
  const double q = out->H - dT * vr;
  if (fabs(q) < R0) {
    out->F = q;
    out->dF_dds = dH_dds;
    out->dF_dvr = dH_dvr - dT;
  } else {
    out->F = fb_sgn(q) * R0;
    out->dF_dds = 0.0;
    out->dF_dvr = fb_sgn(q) * dR0_dvr;
  }
  return FB_OK;
}

/* ------------------------------------------------------------------------------------
 * The Newmark integrator.
 */

#define NM_LS_MAX 20        /* line-search halvings before Newton counts as stalled */
#define NM_BRACKET_MAX 200  /* Brent iterations of the fallback */

typedef struct nm_ws {
  const fb_problem *pb;
  const fb_plant *pl;
  const fb_model *md;
  size_t n, nc, dim;
  int fixed;                        /* 1: fixed step (the driver's); 0: step doubling */
  double h_next;                    /* adaptive: the controller's proposal */
  double atol, rtol;                /* adaptive tolerances */
  double hmax;                      /* adaptive: largest step */
  unsigned long max_rhs;            /* run budget of evaluations (checked mid-step) */
  double tol;                       /* Newton tolerance (relative, >= 16 DBL_EPSILON) */
  double r_floor;                   /* the last residual's penalty-spring scale (N), below */
  int stall_ok;                     /* this step may end a stall within r_floor (nm_step) */
  unsigned long max_it;             /* Newton iterations per step */
  fb_counters *cnt;                 /* the run's counters */
  /* Scratch, n each unless noted; one allocation (block). */
  double *a;             /* acceleration of the accepted state */
  double *a1, *atry, *da; /* Newton iterate, line-search trial, direction */
  double *r, *rtry;      /* residuals */
  double *x1, *v1;       /* kinematics of a candidate */
  double *f, *f1;        /* scenario force, and a perturbed one */
  double *xv;            /* 2n: perturbed (x, v) for the force differences */
  double *J;             /* n x n: Newton matrix */
  double *Jf;            /* n x n: -(h^2/4 df/dx + h/2 df/dv), per step */
  double *Hc, *Ht;       /* nc: H_{n+1} of the iterate and of the trial */
  double *Fc, *Ft;       /* nc: F of the iterate and of the trial */
  double *Gc, *Gt;       /* nc: dF/da_j of the iterate and of the trial */
  double *u0;            /* nc: surface velocity at t_n */
  double *ynew;          /* dim: result of one step */
  double *yb, *ym, *yc;  /* dim each: adaptive full step, midpoint, two half steps */
  double *ab, *am, *ac;  /* n each: their accelerations */
  double *block;
  gsl_permutation *perm; /* n > 1: LU pivots */
  gsl_root_fsolver *rs;  /* nc == 1: Brent, for the bracketed fallback */
} nm_ws;

static void nm_free(void *wsv)
{
  nm_ws *w = wsv;
  if (w == NULL)
    return;
  if (w->perm != NULL)
    gsl_permutation_free(w->perm);
  if (w->rs != NULL)
    gsl_root_fsolver_free(w->rs);
  free(w->block);
  free(w);
}

static int nm_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc, dim = pb->dim;
  (void)type;
  if (pb->model->type->nz != 1 || dim != 2 * n + nc)
    return fb_err_set(err, FB_EUNSUP, "newmark: needs the penalty state layout [x, v, H]");
  nm_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const ep_params *p = pb->model->params;
  w->pb = pb;
  w->pl = pl;
  w->md = pb->model;
  w->n = n;
  w->nc = nc;
  w->dim = dim;
  w->fixed = isfinite(o->h);
  w->atol = o->atol;
  w->rtol = o->rtol;
  w->hmax = o->hmax > 0 ? o->hmax : HUGE_VAL;
  w->max_rhs = o->max_rhs;
  w->tol = fmax(p->newmark_tol, 16.0 * DBL_EPSILON);
  w->max_it = (unsigned long)p->newmark_max;
  /* The scratch arrays carved from one block; sizes and pointers from one table. */
  struct {
    double **p;
    size_t len;
  } const parts[] = {
      {&w->a, n},     {&w->a1, n},    {&w->atry, n},  {&w->da, n},     {&w->r, n},
      {&w->rtry, n},  {&w->x1, n},    {&w->v1, n},    {&w->f, n},      {&w->f1, n},
      {&w->xv, 2 * n}, {&w->ab, n},   {&w->am, n},    {&w->ac, n},     {&w->J, n * n},
      {&w->Jf, n * n}, {&w->Hc, nc},  {&w->Ht, nc},   {&w->Fc, nc},    {&w->Ft, nc},
      {&w->Gc, nc},   {&w->Gt, nc},   {&w->u0, nc},   {&w->ynew, dim}, {&w->yb, dim},
      {&w->ym, dim},  {&w->yc, dim},
  };
  const size_t nparts = sizeof parts / sizeof parts[0];
  size_t nd = 1;
  for (size_t k = 0; k < nparts; k++)
    nd += parts[k].len;
  w->block = calloc(nd, sizeof(double));
  if (w->block == NULL || (n > 1 && (w->perm = gsl_permutation_alloc(n)) == NULL) ||
      (nc == 1 && (w->rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent)) == NULL)) {
    nm_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  double *b = w->block;
  for (size_t k = 0; k < nparts; k++) {
    *parts[k].p = b;
    b += parts[k].len;
  }
  const double span = pl->T - pl->t0;
  w->h_next = fmin(1e-6 * span, 1e-3);
  *out = w;
  return FB_OK;
}

/* Acceleration from the equation of motion at (t, y): M a = f - D v - K x + sum e_j F,
 * F reported by force() from H.  Used at t0 and after each plant break. */
static int nm_equilibrium(nm_ws *w, double t, const double *y, double *a, fb_err *err)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  if (w->cnt->nfe >= w->max_rhs)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      w->max_rhs, t);
  w->cnt->nfe++;
  fb_plant_smooth_force(pl, t, y, y + n, w->f);
  for (size_t i = 0; i < w->nc; i++) {
    fb_contact_in ci;
    double u, F, dz;
    const size_t j = pl->contact[i].dof;
    fb_contact_in_at(pl, i, t, &ci, &u);
    ep_force(fb_model_cparams(w->md, i), &ci, y[n + j] - u, y + 2 * n + i, &F, &dz);
    w->f[j] += F;
  }
  fb_plant_solve_mass(pl, w->f, a);
  if (!fb_all_finite(a, n))
    return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", t);
  return FB_OK;
}

/* Newmark kinematics of the candidate a1 for the step (t, h) from (y, a). */
static void nm_kinematics(nm_ws *w, double h, const double *y, const double *a, const double *a1)
{
  const size_t n = w->n;
  for (size_t i = 0; i < n; i++) {
    const double s = a[i] + a1[i];
    w->x1[i] = y[i] + (h * y[n + i] + 0.25 * h * h * s);
    w->v1[i] = y[n + i] + 0.5 * h * s;
  }
}

/* Residual of the step's equation of motion at the candidate a1, with the return
 * mapping of every contact: r[n], H[nc], F[nc], G[nc] = dF/da_j; |r|_2 and |r|_inf into
 * *r2, *rinf, the force scale (max over equations of the sum of |terms|) into *sc. */
static int nm_residual(nm_ws *w, double t, double h, const double *y, const double *a,
                       const double *a1, double *r, double *H, double *F, double *G, double *r2,
                       double *rinf, double *sc, fb_err *err)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  const double t1 = t + h;
  if (w->cnt->nfe >= w->max_rhs)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      w->max_rhs, t);
  w->cnt->nfe++;
  nm_kinematics(w, h, y, a, a1);
  double *f = w->f, *mag = w->f1; /* f1 is free here: per-equation magnitudes */
  if (pl->force != NULL)
    pl->force(pl->sp, t1, w->x1, w->v1, f);
  else
    memset(f, 0, n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    double ri = -f[i], mi = fabs(f[i]);
    for (size_t k = 0; k < n; k++) {
      const double tm = pl->M[i * n + k] * a1[k], td = pl->D[i * n + k] * w->v1[k],
                   tk = pl->K[i * n + k] * w->x1[k];
      ri += tm + td + tk;
      mi += fabs(tm) + fabs(td) + fabs(tk);
    }
    r[i] = ri;
    mag[i] = mi;
  }
  w->r_floor = 0.0;
  for (size_t i = 0; i < w->nc; i++) {
    const ep_params *p = fb_model_cparams(w->md, i);
    const size_t j = pl->contact[i].dof;
    fb_contact_in ci;
    fb_penalty_map rm;
    double u1;
    fb_contact_in_at(pl, i, t1, &ci, &u1);
    const double dx = h * y[n + j] + 0.25 * h * h * (a[j] + a1[j]);
    const double ds = dx - 0.5 * h * (w->u0[i] + u1);
    const int st = fb_penalty_return_map(p->cT, p->dT, &ci, y[2 * n + i], ds, w->v1[j] - u1, &rm);
    if (st != FB_OK)
      return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", t1);
    H[i] = rm.H;
    F[i] = rm.F;
    G[i] = 0.25 * h * h * rm.dF_dds + 0.5 * h * rm.dF_dvr;
    /* the trial force H_n - cT ds before it cancels: its round-off is the residual's
     * when the contact force itself is small (a stick through x = 0 on a moving belt) */
    w->r_floor = fmax(w->r_floor, fabs(y[2 * n + i]) + p->cT * fabs(ds));
    r[j] -= rm.F;
    mag[j] += fabs(rm.F);
  }
  double s2 = 0.0, smax = 0.0, mmax = 0.0;
  for (size_t i = 0; i < n; i++) {
    s2 += r[i] * r[i];
    smax = fmax(smax, fabs(r[i]));
    mmax = fmax(mmax, mag[i]);
  }
  *r2 = sqrt(s2);
  *rinf = smax;
  if (!isfinite(s2))
    *rinf = (double)NAN;
  *sc = mmax;
  return FB_OK;
}

/* Differences of a state-dependent scenario force at the predictor, folded into
 * Jf = -(h^2/4 df/dx + h/2 df/dv) (the force's part of dr/da). */
static void nm_force_jac(nm_ws *w, double t1, double h, const double *y, const double *a)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  const double sqrt_eps = 1.4901161193847656e-08;
  w->cnt->njac++;
  nm_kinematics(w, h, y, a, a);
  memcpy(w->xv, w->x1, n * sizeof(double));
  memcpy(w->xv + n, w->v1, n * sizeof(double));
  pl->force(pl->sp, t1, w->xv, w->xv + n, w->f);
  for (size_t c = 0; c < 2 * n; c++) {
    const double keep = w->xv[c];
    const double d = sqrt_eps * fmax(fabs(keep), c < n ? 1.0 : pl->v_scale);
    const double wgt = c < n ? 0.25 * h * h : 0.5 * h;
    w->xv[c] = keep + d;
    pl->force(pl->sp, t1, w->xv, w->xv + n, w->f1);
    w->xv[c] = keep;
    for (size_t r = 0; r < n; r++)
      w->Jf[r * n + (c % n)] -= wgt * (w->f1[r] - w->f[r]) / d;
  }
}

/* Solve J da = -r (J is overwritten). */
static int nm_solve(nm_ws *w, double t, fb_err *err)
{
  const size_t n = w->n;
  if (n == 1) {
    w->da[0] = -w->r[0] / w->J[0];
  } else {
    gsl_matrix_view Jm = gsl_matrix_view_array(w->J, n, n);
    gsl_vector_const_view rv = gsl_vector_const_view_array(w->r, n);
    gsl_vector_view dv = gsl_vector_view_array(w->da, n);
    int sg, st = gsl_linalg_LU_decomp(&Jm.matrix, w->perm, &sg);
    if (st == GSL_SUCCESS)
      st = gsl_linalg_LU_solve(&Jm.matrix, w->perm, &rv.vector, &dv.vector);
    if (st != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "newmark: Newton matrix singular at t=%.17g (%s)", t,
                        gsl_strerror(st));
    for (size_t i = 0; i < n; i++)
      w->da[i] = -w->da[i];
  }
  if (!fb_all_finite(w->da, n))
    return fb_err_set(err, FB_ESOLVE, "newmark: Newton matrix singular at t=%.17g", t);
  return FB_OK;
}

/* Semi-smooth Newton with backtracking on |r|_2, from the predictor a1 = a.  On return
 * with FB_OK, w->a1, Hc, Fc hold the converged iterate.  FB_ESOLVE when the iteration
 * exceeds max_it or stalls (no halving of the step decreases |r|). */
static int nm_newton(nm_ws *w, double t, double h, const double *y, const double *a,
                     fb_err *err)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n, nc = w->nc;
  double r2, rinf, sc;
  memcpy(w->a1, a, n * sizeof(double));
  int st = nm_residual(w, t, h, y, a, w->a1, w->r, w->Hc, w->Fc, w->Gc, &r2, &rinf, &sc, err);
  if (st != FB_OK)
    return st;
  if (!isfinite(rinf))
    return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", t + h);
  for (unsigned long it = 0; rinf > w->tol * sc; it++) {
    if (it >= w->max_it)
      return fb_err_set(err, FB_ESOLVE,
                        "newmark: Newton did not converge in %lu iterations at t=%.17g (h=%g): "
                        "residual %.3g > tol %.3g x force scale %.3g",
                        w->max_it, t, h, rinf, w->tol, sc);
    /* J = M + h/2 D + h^2/4 K + Jf - sum_i e_j e_j^T G_i */
    for (size_t k = 0; k < n * n; k++)
      w->J[k] = pl->M[k] + 0.5 * h * pl->D[k] + 0.25 * h * h * pl->K[k] + w->Jf[k];
    for (size_t i = 0; i < nc; i++) {
      const size_t j = pl->contact[i].dof;
      w->J[j * n + j] -= w->Gc[i];
    }
    st = nm_solve(w, t, err);
    if (st != FB_OK)
      return st;
    w->cnt->ninner++;
    double lam = 1.0, t2 = 0.0, tinf = 0.0, tsc = 0.0;
    int accepted = 0;
    for (int ls = 0; ls < NM_LS_MAX && !accepted; ls++, lam *= 0.5) {
      for (size_t i = 0; i < n; i++)
        w->atry[i] = w->a1[i] + lam * w->da[i];
      st = nm_residual(w, t, h, y, a, w->atry, w->rtry, w->Ht, w->Ft, w->Gt, &t2, &tinf, &tsc,
                       err);
      if (st != FB_OK)
        return st;
      accepted = isfinite(tinf) && t2 <= (1.0 - 1e-4 * lam) * r2;
    }
    /* Stalled within the round-off of the penalty spring's trial force: converged, where
     * the run failed before (nm_step says where) */
    if (!accepted && w->stall_ok && rinf <= w->tol * w->r_floor)
      break;
    if (!accepted)
      return fb_err_set(err, FB_ESOLVE,
                        "newmark: Newton stalled at t=%.17g (h=%g): residual %.3g > tol %.3g x "
                        "force scale %.3g",
                        t, h, rinf, w->tol, sc);
    double *sw;
    sw = w->a1, w->a1 = w->atry, w->atry = sw;
    sw = w->r, w->r = w->rtry, w->rtry = sw;
    sw = w->Hc, w->Hc = w->Ht, w->Ht = sw;
    sw = w->Fc, w->Fc = w->Ft, w->Ft = sw;
    sw = w->Gc, w->Gc = w->Gt, w->Gt = sw;
    r2 = t2, rinf = tinf, sc = tsc;
  }
  return FB_OK;
}

/* The bracketed fallback's scalar equation: phi(F) = F - (return-mapped force at the
 * acceleration a_j(F) = abj + gj F that the linear plant gives under the contact force
 * F).  phi is continuous and phi(-Fmax) <= 0 <= phi(Fmax). */
typedef struct nm_bracket_ctx {
  nm_ws *w;
  const ep_params *p;
  fb_contact_in ci;   /* the contact at t + h */
  double h, u0, u1;   /* step, surface velocity at t and t + h */
  double Hn, vj, aj;  /* H_n, v_{n,j}, a_{n,j} */
  double abj, gj;     /* a_j(F) = abj + gj F */
} nm_bracket_ctx;

static double nm_phi(double F, void *params)
{
  nm_bracket_ctx *c = params;
  const double h = c->h, a1 = c->abj + c->gj * F;
  const double ds = (h * c->vj + 0.25 * h * h * (c->aj + a1)) - 0.5 * h * (c->u0 + c->u1);
  const double vr = c->vj + 0.5 * h * (c->aj + a1) - c->u1;
  fb_penalty_map rm;
  c->w->cnt->nfe++;
  if (fb_penalty_return_map(c->p->cT, c->p->dT, &c->ci, c->Hn, ds, vr, &rm) != FB_OK)
    return (double)NAN;
  return F - rm.F;
}

/* Fallback when Newton fails with one contact and a state-independent applied force:
 * with A = M + h/2 D + h^2/4 K the step equation is A a = b + e_j F, F = Phi(a_j), so
 * a = ab + g F (ab = A^-1 b, g = A^-1 e_j) and F solves the scalar phi(F) = 0 on the
 * bracket [-N mu_s, N mu_s] (|Phi| <= S <= N mu_s for every shape).  Brent (GSL)
 * converges whatever the slope of S; with a falling S and h |S'| > 2 m the discrete
 * equation may have several roots and the one found is the bracket's (documented in
 * the file header).  Runs until the bracket reaches round-off; the result must then
 * pass the Newton test, or be the best double precision allows (bracket at round-off). */
static int nm_bracket(nm_ws *w, double t, double h, const double *y, const double *a,
                      fb_err *err)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n, j = pl->contact[0].dof;
  const double t1 = t + h;
  nm_bracket_ctx c;
  double *ab = w->atry, *g = w->da, *b = w->rtry;
  c.w = w;
  c.p = fb_model_cparams(w->md, 0);
  c.h = h;
  c.u0 = w->u0[0];
  fb_contact_in_at(pl, 0, t1, &c.ci, &c.u1);
  c.Hn = y[2 * n];
  c.vj = y[n + j];
  c.aj = a[j];
  /* b = f(t1) - D (v_n + h/2 a_n) - K (x_n + h v_n + h^2/4 a_n), i.e. -r(a = 0) sans F. */
  for (size_t i = 0; i < n; i++) {
    w->x1[i] = y[i] + (h * y[n + i] + 0.25 * h * h * a[i]);
    w->v1[i] = y[n + i] + 0.5 * h * a[i];
  }
  if (pl->force != NULL)
    pl->force(pl->sp, t1, w->x1, w->v1, b);
  else
    memset(b, 0, n * sizeof(double));
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < n; k++)
      b[i] -= pl->D[i * n + k] * w->v1[k] + pl->K[i * n + k] * w->x1[k];
  for (size_t k = 0; k < n * n; k++)
    w->J[k] = pl->M[k] + 0.5 * h * pl->D[k] + 0.25 * h * h * pl->K[k];
  if (n == 1) {
    ab[0] = b[0] / w->J[0];
    g[0] = 1.0 / w->J[0];
  } else {
    gsl_matrix_view Am = gsl_matrix_view_array(w->J, n, n);
    gsl_vector_view bv = gsl_vector_view_array(b, n), abv = gsl_vector_view_array(ab, n);
    gsl_vector_view gv = gsl_vector_view_array(g, n);
    int sg, st = gsl_linalg_LU_decomp(&Am.matrix, w->perm, &sg);
    if (st == GSL_SUCCESS)
      st = gsl_linalg_LU_solve(&Am.matrix, w->perm, &bv.vector, &abv.vector);
    gsl_vector_set_basis(&bv.vector, j);
    if (st == GSL_SUCCESS)
      st = gsl_linalg_LU_solve(&Am.matrix, w->perm, &bv.vector, &gv.vector);
    if (st != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "newmark: step matrix singular at t=%.17g (%s)", t,
                        gsl_strerror(st));
  }
  if (!fb_all_finite(ab, n) || !fb_all_finite(g, n))
    return fb_err_set(err, FB_ESOLVE, "newmark: step matrix singular at t=%.17g", t);
  c.abj = ab[j];
  c.gj = g[j];
  const double Fmax = c.ci.N * pl->contact[0].law.mu_s;
  double lo = -Fmax, hi = Fmax, F = 0.0;
  const double plo = nm_phi(lo, &c), phi_ = nm_phi(hi, &c);
  int roundoff = 0;
  if (!(isfinite(plo) && isfinite(phi_)))
    return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", t1);
  if (plo == 0.0 || Fmax == 0.0) {
    F = lo;
  } else if (phi_ == 0.0) {
    F = hi;
  } else {
    gsl_function fn = {nm_phi, &c};
    int st = gsl_root_fsolver_set(w->rs, &fn, lo, hi);
    for (unsigned long it = 0; st == GSL_SUCCESS; it++) {
      if (it >= NM_BRACKET_MAX)
        return fb_err_set(err, FB_ESOLVE, "newmark: bracketing did not converge at t=%.17g",
                          t);
      st = gsl_root_fsolver_iterate(w->rs);
      if (st != GSL_SUCCESS)
        break;
      w->cnt->ninner++;
      F = gsl_root_fsolver_root(w->rs);
      lo = gsl_root_fsolver_x_lower(w->rs);
      hi = gsl_root_fsolver_x_upper(w->rs);
      /* Brent converges superlinearly: run the bracket down to round-off (rare path). */
      if (hi - lo <= 4.0 * DBL_EPSILON * Fmax) {
        roundoff = 1;
        break;
      }
      if (w->cnt->nfe >= w->max_rhs)
        return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                          w->max_rhs, t);
    }
    if (st != GSL_SUCCESS)
      return fb_err_set(err, FB_ESOLVE, "newmark: bracketing failed at t=%.17g (%s)", t,
                        gsl_strerror(st));
  }
  for (size_t i = 0; i < n; i++)
    w->a1[i] = ab[i] + g[i] * F;
  double r2, rinf, sc;
  int st = nm_residual(w, t, h, y, a, w->a1, w->r, w->Hc, w->Fc, w->Gc, &r2, &rinf, &sc, err);
  if (st != FB_OK)
    return st;
  if (!(rinf <= w->tol * sc) && !roundoff)
    return fb_err_set(err, FB_ESOLVE,
                      "newmark: bracketing ended at t=%.17g (h=%g) with residual %.3g > tol "
                      "%.3g x force scale %.3g",
                      t, h, rinf, w->tol, sc);
  return FB_OK;
}

/* One Newmark step of size h from (t, y, a) into (w->ynew, anew); y and a untouched
 * (anew may alias a). */
static int nm_step(nm_ws *w, double t, double h, const double *y, const double *a, double *anew,
                   fb_err *err)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n, nc = w->nc;
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_in_at(pl, i, t, &ci, &w->u0[i]);
  }
  memset(w->Jf, 0, n * n * sizeof(double));
  const int state_force = pl->force != NULL && pl->force_uses_state;
  if (state_force)
    nm_force_jac(w, t + h, h, y, a);
  /* A stall ends the run only at a fixed step without the bracketed fallback (the
   * adaptive scheme rejects and halves the step): only there is it accepted when it sits
   * within round-off (nm_newton), so that no run that ended before changes. */
  w->stall_ok = w->fixed && !(nc == 1 && !state_force);
  int st = nm_newton(w, t, h, y, a, err);
  if (st == FB_ESOLVE && nc == 1 && !state_force)
    st = nm_bracket(w, t, h, y, a, err);
  if (st != FB_OK)
    return st;
  nm_kinematics(w, h, y, a, w->a1);
  memcpy(w->ynew, w->x1, n * sizeof(double));
  memcpy(w->ynew + n, w->v1, n * sizeof(double));
  memcpy(w->ynew + 2 * n, w->Hc, nc * sizeof(double));
  memcpy(anew, w->a1, n * sizeof(double));
  if (!fb_all_finite(w->ynew, w->dim) || !fb_all_finite(anew, n))
    return fb_err_set(err, FB_ENONFINITE, "non-finite state at t=%.17g", t + h);
  return FB_OK;
}

/* Step-doubling attempt of size h: the two half steps into (yc, ac), error into *e. */
static int nm_attempt(nm_ws *w, double t, double h, const double *y, double *e, fb_err *err)
{
  const size_t n = w->n, dim = w->dim;
  int st = nm_step(w, t, h, y, w->a, w->ab, err);
  if (st != FB_OK)
    return st;
  memcpy(w->yb, w->ynew, dim * sizeof(double));
  st = nm_step(w, t, 0.5 * h, y, w->a, w->am, err);
  if (st != FB_OK)
    return st;
  memcpy(w->ym, w->ynew, dim * sizeof(double));
  st = nm_step(w, t + 0.5 * h, 0.5 * h, w->ym, w->am, w->ac, err);
  if (st != FB_OK)
    return st;
  memcpy(w->yc, w->ynew, dim * sizeof(double));
  double emax = 0.0;
  for (size_t i = 0; i < 2 * n; i++) {
    const double d = fabs(w->yc[i] - w->yb[i]) / 3.0; /* order 2: local error of yc */
    emax = fmax(emax, d / (w->atol + w->rtol * fmax(fabs(y[i]), fabs(w->yc[i]))));
  }
  *e = emax;
  return FB_OK;
}

/* At the start and at every break (the forcing jumps): the acceleration from the
 * equation of motion, not carried over from the last step. */
static int nm_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  nm_ws *w = wsv;
  w->cnt = cnt;
  return nm_equilibrium(w, at->t, y, w->a, err);
}

/* Step doubling: one attempt of h = min(h_next, hmax) (landing on t1 when it is within
 * reach); a Newton failure or an error above 1 rejects it and shrinks h_next. */
static int nm_step_adaptive(nm_ws *w, fb_step_at *at, double *y, fb_counters *cnt,
                            fb_err *err)
{
  const double t = at->t, t1 = at->t1, T = w->pl->T;
  const double hmin = 1e-12 * fmax(fabs(t), T - w->pl->t0);
  double h = fmin(w->h_next, w->hmax), e = 0.0;
  const int last = (t1 - t) <= h * (1.0 + 1e-9);
  if (last)
    h = t1 - t;
  const int st = nm_attempt(w, t, h, y, &e, err);
  if (st == FB_BUDGET)
    return st;
  if (st != FB_OK || e > 1.0) { /* reject: Newton failure, non-finite, or too large */
    cnt->nrejected++;
    w->h_next = h * (st != FB_OK ? 0.25 : fmax(0.2, 0.9 * pow(e, -1.0 / 3.0)));
    if (w->h_next < hmin)
      return st != FB_OK ? st
                         : fb_err_set(err, FB_ESOLVE,
                                      "newmark: step size underflow (h = %g) at t=%.17g",
                                      w->h_next, t);
    at->rejected = 1;
    return FB_OK;
  }
  const double grow = e > 0.0 ? fmin(5.0, fmax(0.2, 0.9 * pow(e, -1.0 / 3.0))) : 5.0;
  w->h_next = last ? fmax(w->h_next, h * grow) : h * grow;
  memcpy(y, w->yc, w->dim * sizeof(double));
  memcpy(w->a, w->ac, w->n * sizeof(double));
  at->tnew = last ? t1 : t + h;
  return FB_OK;
}

static int nm_step_at(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  nm_ws *w = wsv;
  if (!w->fixed)
    return nm_step_adaptive(w, at, y, cnt, err);
  const int st = nm_step(w, at->t, at->dt, y, w->a, w->a, err);
  if (st != FB_OK)
    return st;
  memcpy(y, w->ynew, w->dim * sizeof(double));
  return FB_OK;
}

static const fb_integrator_type ep_newmark = {
    .name = "newmark",
    .title = "Newmark average acceleration with the return mapping in each step ([Engleder2002]); "
             "--tol: step doubling",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 1,
    .implicit = 0, /* implicit, but with its own tangent, not the GSL system's Jacobian */
    .order = 2,
    .data = NULL,
    .alloc = nm_alloc,
    .free = nm_free,
    .one_dim = 1,
    .reset = nm_reset,
    .step = nm_step_at,
};

static const fb_integrator_type *const ep_schemes[] = {&ep_newmark, NULL};

FB_MODEL_KERNELS(ep, ep_force, 1);

/* The penalty spring's energy H^2 / (2 cT) (J). */
static double ep_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const ep_params *p = pv;
  (void)c;
  return 0.5 * z[0] * z[0] / p->cT;
}

const fb_model_type fb_model_penalty = {
    .stiffness_param = "cT",
    .stored_energy = ep_energy,
    .name = "penalty",
    .title = "elasto-plastic penalty (spring cT capped by the friction bound): rate form, "
             "or Newmark with return mapping",
    .reference = "Engleder, Vielsack & Schweizerhof 2002 [Engleder2002] §2; docs/design.md §3 M5",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK | FB_MODEL_OWNED,
    .default_integrator = "newmark", /* the paper's scheme, unconditionally stable */
    .default_tol = 0,
    .params = &ep_set,
    .nz = 1,
    .z_names = ep_z,
    .resolve = ep_resolve,
    .init = ep_init,
    .force = ep_force,
    .force2 = ep_force2,
    .init2 = ep_init2,
    .stick2 = ep_stick2,
    .kernels = &ep_kernels,
    .jac = ep_jac,
    .stick = ep_stick,
    .schemes = ep_schemes,
};

/* The suite's policy for penalty (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_penalty = {
    .model = "penalty",
    .color = "#8c564b",
    .stores_energy = 1,
    .own = {"newmark", "newmark"}, /* adaptive steppers crawl on the switching
                                      rate form: its limit, by the return map */
    .conv = {"rk4", "newmark", NULL},
    .wp = {"rkf45", "rk8pd", NULL},
    .cost_integrator = "rkf45",
    .reg_param = "f_ratio",
    .reg_values = {3, 10, 30, 100, 300, 1000},
    .nreg = 6,
    .grid_integrator = "newmark",
    .cost_hint = 10,
    .expect = "sticks with elastic micro-slip Fs/cT, no accumulation; critically "
              "damped by default, undamped (dT = 0) its spring rings at "
              "sqrt(cT/m)/(2 pi) during stick (Engleder et al., [Engleder2002] fig. 4)"
};
