/* switching.c — switching model with a Lagrange multiplier for stick ([ShourbagyMatuttis] §3;
 * docs/design.md §3 M6), with its two model-owned integrators: `event` (the suite's reference
 * solver) and `paper` (what [ShourbagyMatuttis] did).
 *
 * Equations.  The plant (docs/design.md §2) with contact i on DOF j_i, v_r,i = xdot_j - u_i(t):
 *
 *     M xddot = f_s(t, x, xdot) + sum_i e_{j_i} F_i,   f_s = f - D xdot - K x
 *
 * Each contact is in one of three hybrid modes, held fixed between events:
 *   slip+ / slip- (mode s = +1 / -1):  F_i = -s S(s v_r,i)        (docs/design.md §1, S = N mu)
 *   stick (mode 0):  the constraint xddot_j = udot_i holds and F_i is its multiplier.
 * In slip the characteristic is evaluated at s v_r rather than |v_r|: identical while
 * the mode is valid, and a smooth extension past v_r = 0, so that within a step the
 * right-hand side is smooth and the switching function can be located on it.
 * [ShourbagyMatuttis] writes the stick force as the convex pencil f = (1 - lambda) f_I + lambda f_II
 * of the two slip branches (eq. 5) with lambda = a_I / (a_I - a_II) (eqs. 6-7) chosen so
 * that the velocity stays on g = v_r = 0: that is exactly the multiplier F that makes
 * xddot_j = udot.  With the stuck set S (all contacts in stick) the multipliers solve
 *
 *     (M^-1)_SS F_S = udot_S - (M^-1 (f_s + sum_{i slip} e_{j_i} F_i))_S
 *
 * (M^-1)_SS is the stuck rows and columns of M^-1, SPD when the stuck contacts act on
 * distinct DOFs (two stuck contacts on one DOF are refused, FB_EUNSUP).  It only
 * changes at events, so it is Cholesky-factored there and each right-hand side costs
 * one triangular solve.  The stuck DOFs' accelerations are then set to udot exactly, so
 * with a constant surface velocity v_r stays exactly 0 through any Runge-Kutta step.
 *
 * Switching functions (positive while the mode is valid):
 *   slip:  g = s v_r                          crossing: g <= 0  (velocity reaches 0)
 *   stick: g = Fs (1 + slack) - |F|           crossing: g < 0   (multiplier beyond Fs)
 * Transitions at an event (or break): slip contacts with g <= 0 are set to stick (v_r
 * projected to 0), then the multipliers of the whole stuck set are solved; while some
 * |F| > Fs the worst violator (largest |F| - Fs) is released into slip in the direction
 * of the net applied force, s = -sgn(F), and the rest re-solved.  A contact that
 * crossed v_r = 0 but cannot hold therefore reverses; a contact that just stuck releases
 * in the same instant only if its force requires it.  At t0, contacts with v_r = 0 start
 * in stick when they can, else slip the way the required force pushes them.
 * `slack` is a few ulps (SW_SLACK): |F| = Fs is still stick.
 *
 * State layout (per contact, nz = 2): z = [mode (-1, 0, +1 stored as a double), F (the
 * friction force last applied, N: the multiplier in stick)], so output() reports F and
 * the stick flag from z alone.  Parameters: none (the integrators' options carry the
 * stepper, tolerances and event tolerance).  Kind: model-owned (FB_MODEL_OWNED).
 *
 * Integrators (both give GSL [x, v] plus the friction impulses P' = F, restarted from 0
 * every step so that the step-size control must resolve the multiplier in stick, where
 * x and v are constant; z is kept by the scheme):
 *   event  — any one-step GSL stepper (opts.stepper, default rk8pd; fixed --h or
 *            adaptive --tol) with the modes frozen; after each accepted step the
 *            switching functions are checked, a sign change is located to opts.event_tol
 *            in time by gsl_root_fsolver_brent on g(tau), where the state at tau comes
 *            from re-integrating the saved step start with one fixed step of length tau
 *            (gsl_odeiv2_step_apply; STYLE.md §4); the run moves to the event, applies
 *            the transition and resets the stepper.
 *   paper  — fixed step, Heun's third-order RK ([ShourbagyMatuttis]; opts.stepper overrides),
 *            switching detected and applied at step ends, never located.
 * At an event the observer sees the event time twice: first the left limit (old modes,
 * old force), then the state after the transition, so recorders interpolate each side
 * with its own values.  Plant breaks are stepped to exactly (the step that lands there
 * sees the forcing's left piece, everything after it the right one, see sw_time) and
 * every contact at v_r = 0 is re-resolved there; a switch located within 4 event_tol
 * before a break is taken at the break.
 * A mode that sits on its switching surface at a step start (g = 0: released at
 * v_r = 0) cannot be bracketed; if it has not got going by the step end it is switched
 * there, unlocated.  Zeno guard: after FB_SW_ZENO_MAX events in a row each within
 * 2 event_tol of the previous one, switches are taken at step ends until a step passes
 * without one, so time always advances by whole steps.
 * Counters: nfe every right-hand-side-equivalent evaluation (stages, the switching check
 * after each step, the location's trial steps, the mode resolutions; with dop853 inside,
 * the check's evaluation is also the next step's first stage and the dense output's
 * FSAL stage, and a slip's g on the interpolant needs none: docs/integrators/dop853.md,
 * "Evaluations"); ninner root
 * iterations; nevents switches applied (located or at step ends, and mode changes at
 * breaks); nswitch contacts whose mode changed; the step to an event counts as accepted.
 * Steps and evaluations are bounded by max_steps / max_rhs (FB_BUDGET, last good state).
 * No allocation after alloc.
 * Plants with 2-D contacts or tangential Jacobian rows (docs/design.md §13) are handed to
 * the disc form of both schemes (models/switching_disc.c) at alloc; the workspace's first
 * int tells the stepper operations and free which one they hold (fb_switching_disc.h).
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_dop853.h"
#include "fb_gsl_ode.h"
#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_switching_core.h"
#include "fb_switching_disc.h"
#include "fb_util.h"
#include "fb_plant_int.h"

/* |F| <= Fs (1 + SW_SLACK) counts as holding: round-off in F must not release a contact
 * that sits exactly at its limit (inclined block at mu = tan(theta)). */
#define SW_SLACK (16.0 * DBL_EPSILON)

/* ---------------------------------------------------------------------------------- */
/* The model: no parameters; z = [mode, F].                                           */

typedef struct switching_params {
  double unused_; /* no parameters; keeps the struct non-empty (C11) */
} switching_params;

static const fb_param_set switching_set = {sizeof(switching_params), 0, NULL};
static const char *const switching_z[] = {"mode", "force"};

/* Initial mode from the initial velocity alone; a contact at rest is tentatively stuck
 * with an unknown multiplier (0): the integrator resolves it at t0, where it sees the
 * whole system. */
static void switching_init(const void *p, const fb_contact_in *c, double vr0, double *z0)
{
  (void)p;
  const double s = fb_sgn(vr0);
  z0[0] = s;
  z0[1] = s != 0.0 ? -s * fb_contact_S(c, fabs(vr0), NULL) : 0.0;
}

static int switching_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                            double *F)
{
  (void)p, (void)c, (void)vr;
  if (!(z[0] == -1.0 || z[0] == 0.0 || z[0] == 1.0))
    return FB_EINVAL;
  *F = z[1];
  return z[0] == 0.0;
}

/* ---------------------------------------------------------------------------------- */
/* The integrators' workspace.                                                         */

typedef struct sw_cfg {
  int locate;                  /* 1: locate switches (event); 0: at step ends (paper) */
  const char *default_stepper; /* when opts.stepper is NULL */
} sw_cfg;

typedef struct sw_ws {
  union { /* the shared fields as fb_sw_core and by name (fb_switching_core.h) */
    fb_sw_core core;
    struct {
      FB_SW_CORE_FIELDS
    };
  };
  const sw_cfg *cfg;
} sw_ws;

static void sw_free(void *wsv)
{
  sw_ws *w = wsv;
  if (w == NULL)
    return;
  if (w->tag == FB_SW_TAG_DISC) {
    fb_swd_free(wsv);
    return;
  }
  fb_sw_gsl_free(&w->core);
  free(w->mode);
  free(w->S);
  free(w->L);
  free(w);
}

/* ---------------------------------------------------------------------------------- */
/* Forces with the modes frozen.                                                       */

/* Slip force of mode s at relative velocity vr: -s S(s vr), the smooth extension of
 * the mode's own branch (see the header).  Leine's 1/(1 + w/vs) has a pole at w = -vs,
 * far beyond any overshoot a located step produces; the clamp only keeps it finite. */
static double sw_slip_force(const fb_contact *ct, double N, int s, double vr)
{
  double w = (double)s * vr;
  if (w < 0.0 && ct->law.shape == FB_SHAPE_LEINE)
    w = fmax(w, -0.5 * ct->law.vs);
  return -(double)s * N * fb_friction_mu(&ct->law, w, NULL);
}

/* Factor (M^-1)_SS for the contacts now in stick. */
static int sw_factor(sw_ws *w)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  w->ns = 0;
  for (size_t i = 0; i < w->nc; i++)
    if (w->mode[i] == 0)
      w->S[w->ns++] = i;
  const size_t ns = w->ns;
  if (ns == 0)
    return FB_OK;
  for (size_t a = 0; a < ns; a++)
    for (size_t b = 0; b < ns; b++)
      w->L[a * ns + b] = pl->Minv[pl->contact[w->S[a]].dof * n + pl->contact[w->S[b]].dof];
  gsl_matrix_view Lv = gsl_matrix_view_array(w->L, ns, ns);
  if (gsl_linalg_cholesky_decomp1(&Lv.matrix) != GSL_SUCCESS)
    return fb_err_set(w->err, FB_EUNSUP,
                      "%s: the stuck contacts' constraint matrix (M^-1)_SS is singular (two "
                      "stuck contacts on one DOF?)",
                      w->name);
  return FB_OK;
}


/* Forces and accelerations at (t, y) with the current modes: w->F, w->Fs, w->u, w->ud
 * (per contact) and acc (n).  Not counted: callers count. */
static int sw_eval(void *wv, double t, const double *y, double *acc)
{
  sw_ws *w = wv;
  const fb_plant *pl = w->pl;
  const size_t n = w->n, nc = w->nc;
  const double *x = y, *v = y + n;
  const double te = fb_sw_time(&w->core, t);
  double *f = w->f;
  fb_plant_smooth_force(pl, te, x, v, f);
  for (size_t i = 0; i < nc; i++) {
    const fb_contact *ct = &pl->contact[i];
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, te, &cs);
    w->u[i] = cs.u;
    w->Fs[i] = cs.N * ct->law.mu_s;
    w->ud[i] = cs.udot;
    if (w->mode[i] != 0) {
      w->F[i] = sw_slip_force(ct, cs.N, w->mode[i], v[ct->dof] - cs.u);
      f[ct->dof] += w->F[i];
    }
  }
  fb_plant_solve_mass(pl, f, acc);
  const size_t ns = w->ns;
  if (ns > 0) {
    for (size_t a = 0; a < ns; a++) {
      const size_t i = w->S[a];
      w->rS[a] = w->ud[i] - acc[pl->contact[i].dof];
    }
    if (ns == 1) {
      /* One stuck contact (the common case): GSL's solve is two triangular solves of 1 x 1,
       * these two divisions in this order, without its vector views and BLAS calls (14 % of
       * the event scheme's instructions on stick-slip, docs/peers.md). */
      w->FS[0] = (w->rS[0] / w->L[0]) / w->L[0];
    } else {
      gsl_matrix_view Lv = gsl_matrix_view_array(w->L, ns, ns);
      gsl_vector_view rv = gsl_vector_view_array(w->rS, ns);
      gsl_vector_view Fv = gsl_vector_view_array(w->FS, ns);
      if (gsl_linalg_cholesky_solve(&Lv.matrix, &rv.vector, &Fv.vector) != GSL_SUCCESS)
        return FB_ESOLVE;
    }
    for (size_t a = 0; a < ns; a++) {
      const size_t i = w->S[a], j = pl->contact[i].dof;
      w->F[i] = w->FS[a];
      for (size_t k = 0; k < n; k++)
        acc[k] += pl->Minv[k * n + j] * w->FS[a];
    }
    /* The constraint itself, exactly rather than up to the solve's round-off. */
    for (size_t a = 0; a < ns; a++)
      acc[pl->contact[w->S[a]].dof] = w->ud[w->S[a]];
  }
  for (size_t i = 0; i < nc; i++)
    if (!isfinite(w->F[i]))
      return FB_ENONFINITE;
  return fb_all_finite(acc, n) ? FB_OK : FB_ENONFINITE;
}

/* The shared machinery (switching_core.c) under the names this file's run uses. */
static inline int sw_eval_counted(sw_ws *w, double t, const double *y)
{
  return fb_sw_eval_counted(&w->core, t, y);
}

/* ---------------------------------------------------------------------------------- */
/* Switching functions and transitions.                                                */

static inline double sw_Fs_eff(const sw_ws *w, size_t i)
{
  return w->Fs[i] * (1.0 + SW_SLACK);
}

/* g of every contact from the last evaluation at state y. */
static void sw_switching(const void *wv, const double *y, double *g)
{
  const sw_ws *w = wv;
  for (size_t i = 0; i < w->nc; i++) {
    const size_t j = w->pl->contact[i].dof;
    g[i] = w->mode[i] != 0 ? (double)w->mode[i] * (y[w->n + j] - w->u[i])
                           : sw_Fs_eff(w, i) - fabs(w->F[i]);
  }
}

/* g of contact i at (t, y) where it needs no evaluation: a slip's s v_r with u(t) as
 * sw_eval reads it (the same number as sw_switching's after an evaluation); NaN in stick,
 * whose g is the multiplier's margin. */
static double sw_g_direct(const void *wv, double t, const double *y, size_t i)
{
  const sw_ws *w = wv;
  if (w->mode[i] == 0)
    return (double)NAN;
  fb_contact_state cs;
  fb_plant_contact_at(w->pl, i, fb_sw_time(&w->core, t), &cs);
  return (double)w->mode[i] * (y[w->n + w->pl->contact[i].dof] - cs.u);
}

/* Write [mode, F] into the z part of the full state. */
static void sw_write_z(const sw_ws *w, double *y)
{
  double *z = y + w->nxv;
  for (size_t i = 0; i < w->nc; i++) {
    z[2 * i] = (double)w->mode[i];
    z[2 * i + 1] = w->F[i];
  }
}

/* A message for a refused evaluation (w->stop says why). */
static int sw_fail(sw_ws *w, double t) { return fb_sw_fail(&w->core, t); }

/* Consistent modes at (t, y): project the stuck contacts onto v_r = 0, solve their
 * multipliers together, release the worst violator into slip (s = -sgn F) and repeat
 * (at most nc releases).  Ends with an evaluation at the final modes: w->F, w->g0 and
 * z are current. */
static int sw_resolve(sw_ws *w, double t, double *y)
{
  const fb_plant *pl = w->pl;
  for (;;) { /* each pass releases one contact or ends: at most nc + 1 passes */
    for (size_t i = 0; i < w->nc; i++)
      if (w->mode[i] == 0) {
        fb_contact_state cs;
        fb_plant_contact_at(pl, i, fb_sw_time(&w->core, t), &cs);
        y[w->n + pl->contact[i].dof] = cs.u;
      }
    int st = sw_factor(w);
    if (st != FB_OK)
      return st;
    if (sw_eval_counted(w, t, y) != FB_OK)
      return sw_fail(w, t);
    size_t worst = w->nc;
    double excess = 0.0;
    for (size_t a = 0; a < w->ns; a++) {
      const size_t i = w->S[a];
      const double e = fabs(w->F[i]) - sw_Fs_eff(w, i);
      if (e > excess) {
        excess = e;
        worst = i;
      }
    }
    if (worst == w->nc)
      break;
    w->mode[worst] = w->F[worst] > 0.0 ? -1 : 1;
  }
  sw_switching(w, y, w->g0);
  sw_write_z(w, y);
  return FB_OK;
}

/* Apply the transitions at an event (t, y), given g there under the old modes:
 * slip contacts that reached v_r = 0 become stuck candidates, then resolve. */
static int sw_transition(sw_ws *w, double t, double *y, const double *g)
{
  memcpy(w->old, w->mode, w->nc * sizeof(int));
  for (size_t i = 0; i < w->nc; i++)
    if (w->mode[i] != 0 && g[i] <= 0.0)
      w->mode[i] = 0;
  int st = sw_resolve(w, t, y);
  for (size_t i = 0; i < w->nc; i++)
    w->cnt->nswitch += w->mode[i] != w->old[i];
  return st;
}

/* ---------------------------------------------------------------------------------- */
/* Allocation.                                                                         */

static int sw_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err)
{
  const sw_cfg *cfg = type->data;
  const fb_plant *pl = pb->plant;
  const char *sname = o->stepper != NULL ? o->stepper : cfg->default_stepper;
  const fb_integrator_type *it = fb_integrator_find_in_registry(sname);
  const gsl_odeiv2_step_type *T = NULL;
  if (it != NULL && (it->alloc == fb_gsl_ode_alloc || it == &fb_integrator_dop853))
    T = *(const gsl_odeiv2_step_type *const *)it->data;
  if (T == NULL || T == gsl_odeiv2_step_msadams || T == gsl_odeiv2_step_msbdf)
    return fb_err_set(err, FB_EINVAL,
                      "%s: stepper '%s' is not allowed: use a one-step GSL stepper (rk2, rk4, "
                      "rkf45, rkck, rk8pd, rk1imp, rk2imp, rk4imp, bsimp, heun3, dop853); multistep "
                      "methods cannot restart from a saved step",
                      type->name, sname);
  const int fixed = isfinite(o->h);
  if (fixed ? !(o->h > 0) : !(o->atol > 0 && o->rtol > 0))
    return fb_err_set(err, FB_EINVAL, "%s: need a step h > 0 or tolerances > 0", type->name);
  if (fixed ? !type->fixed_ok : !type->adaptive_ok)
    return fb_err_set(err, FB_EINVAL, "%s has no %s mode", type->name,
                      fixed ? "fixed-step" : "adaptive");
  if (cfg->locate && !(isfinite(o->event_tol) && o->event_tol > 0))
    return fb_err_set(err, FB_EINVAL,
                      "%s: event tolerance %g is out of range: allowed is a finite number > 0",
                      type->name, o->event_tol);
  if (pb->model->type->nz != 2 || pb->dim != 2 * pl->n + 2 * pl->nc)
    return fb_err_set(err, FB_EINVAL, "%s runs only the switching model", type->name);
  /* 2-D contacts and Jacobian rows (docs/design.md §13): the disc version of the same
   * scheme; one-DOF plants stay on the code below, unchanged. */
  if (pl->npairs > 0 || pl->has_jt)
    return fb_swd_alloc(out, type->name, cfg->locate, T, pb, o, err);

  sw_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->pb = pb;
  w->pl = pl;
  w->cfg = cfg;
  w->name = type->name;
  w->unit = "contact";
  w->eval = sw_eval;
  w->switching = sw_switching;
  w->g_direct = sw_g_direct;
  w->n = pl->n;
  w->nc = pl->nc;
  w->nxv = 2 * pl->n;
  w->m = 2 * pl->n + pl->nc;
  w->o = *o;
  if (!(w->o.hmax > 0)) /* unset (zeroed options): no cap */
    w->o.hmax = INFINITY;
  w->fixed = fixed;
  w->t_lo = -INFINITY;
  w->t_hi = INFINITY;
  const size_t nc1 = w->nc ? w->nc : 1, m = w->m;
  w->mode = calloc(2 * nc1, sizeof(int));
  w->S = calloc(nc1, sizeof(size_t));
  /* One block of doubles: L (nc^2), rS, FS, F, Fs, u, ud, g0, g1, gt, zsave[2] (11 nc),
   * f, acc (2 n), yc, ys, yt, yerr, yev, ycand, jf0, jf1, jy (9 m). */
  w->L = calloc(nc1 * nc1 + 11 * nc1 + 2 * w->n + 9 * m, sizeof(double));
  if (w->mode == NULL || w->S == NULL || w->L == NULL) {
    sw_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  w->old = w->mode + nc1;
  double *b = w->L + nc1 * nc1;
  double **nc_arrays[] = {&w->rS, &w->FS, &w->F, &w->Fs, &w->u, &w->ud, &w->g0, &w->g1, &w->gt};
  for (size_t k = 0; k < sizeof nc_arrays / sizeof nc_arrays[0]; k++, b += nc1)
    *nc_arrays[k] = b;
  w->zsave = b;
  b += 2 * nc1;
  w->f = b;
  w->acc = b + w->n;
  b += 2 * w->n;
  double **m_arrays[] = {&w->yc,  &w->ys,    &w->yt,  &w->yerr, &w->yev,
                         &w->ycand, &w->jf0, &w->jf1, &w->jy};
  for (size_t k = 0; k < sizeof m_arrays / sizeof m_arrays[0]; k++, b += m)
    *m_arrays[k] = b;

  if (fb_sw_gsl_alloc(&w->core, T) != FB_OK) {
    sw_free(w);
    return fb_err_set(err, FB_EGSL, "%s: cannot allocate GSL stepper %s or root solver",
                      type->name, sname);
  }
  *out = w;
  return FB_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The run.                                                                            */

/* Modes at a restart (t0 or a break): v_r decides where it is non-zero (at a break a
 * sliding contact keeps its mode that way); contacts at rest, stuck or released at
 * v_r = 0, are stuck candidates under the new forcing.  *report: the state is to be
 * reported again (anything changed). */
static int sw_restart(sw_ws *w, double t, double *y, int initial, int *report)
{
  const fb_plant *pl = w->pl;
  const size_t nz_off = w->nxv;
  memcpy(w->old, w->mode, w->nc * sizeof(int));
  for (size_t i = 0; i < w->nc; i++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, fb_sw_time(&w->core, t), &cs);
    w->mode[i] = (int)fb_sgn(y[w->n + pl->contact[i].dof] - cs.u);
  }
  memcpy(w->zsave, y + nz_off, 2 * w->nc * sizeof(double));
  int st = sw_resolve(w, t, y);
  if (st != FB_OK)
    return st;
  /* Report again when the modes or forces changed (a break's jump in the force); at t0
   * only then (the run's first report is the harness's). */
  *report = fb_sw_restart_end(&w->core, w->nc, y, initial, 0);
  return FB_OK;
}

/* At the start and at a break (fb_sw_reset_begin), the modes decided again. */
static int sw_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  if (*(const int *)wsv == FB_SW_TAG_DISC)
    return fb_swd_reset(wsv, at, y, cnt, err);
  sw_ws *w = wsv;
  fb_sw_reset_begin(&w->core, at, cnt, err);
  return sw_restart(w, at->t, y, at->seg == 0, &at->report);
}

/* One step: a smooth GSL step under the current modes; when a switching function crossed
 * in it, the step ends at the earliest located switch instead (at->event), its left limit
 * in y (old modes, their force): the driver reports it, then sw_switch_at_event. */
static int sw_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  if (*(const int *)wsv == FB_SW_TAG_DISC)
    return fb_swd_step(wsv, at, y, cnt, err);
  sw_ws *w = wsv;
  const fb_plant *pl = w->pl;
  const size_t nxv = w->nxv, nc = w->nc;
  fb_sw_step_begin(&w->core, at, y, err);
  double tn = at->t;
  int st = fb_sw_smooth_step(&w->core, at, &tn, cnt, err);
  if (st != FB_OK)
    return st;
  memcpy(y, w->yc, nxv * sizeof(double));
  sw_switching(w, y, w->g1);
  /* Which switches happened in (tprev, tn]?  A mode valid at the step start
   * (g0 > 0) is located; one sitting on its surface (g0 <= 0: a contact released
   * at v_r = 0 that did not get going) is switched at the step end. */
  int proper;
  const int any = fb_sw_crossings(&w->core, nc, &proper);
  at->tnew = tn;
  if (!any) {
    for (size_t i = 0; i < nc; i++) /* constant u keeps v_r = 0 exactly; varying u: */
      if (w->mode[i] == 0)          /* hold the constraint against drift */
        y[w->n + pl->contact[i].dof] = w->u[i];
    sw_write_z(w, y);
    double *tmp = w->g0;
    w->g0 = w->g1;
    w->g1 = tmp;
    return FB_OK;
  }
  double te;
  st = fb_sw_earliest(&w->core, at, tn, nc, w->cfg->locate, proper, &te);
  if (st != FB_OK)
    return st;
  /* Move to the event; its left limit (old modes, their force).  An event that cannot
   * be evaluated ends the run there (at->keep), as the scheme always reported. */
  memcpy(y, w->yev, nxv * sizeof(double));
  at->tnew = te;
  if (sw_eval_counted(w, te, y) != FB_OK) {
    at->keep = 1;
    return sw_fail(w, te);
  }
  sw_switching(w, y, w->gt);
  sw_write_z(w, y);
  at->event = 1;
  return FB_OK;
}

/* The transition at the event the last step ended on; the driver reports the state
 * after it. */
static int sw_switch_at_event(void *wsv, fb_step_at *at, double *y, fb_counters *cnt,
                              fb_err *err)
{
  if (*(const int *)wsv == FB_SW_TAG_DISC)
    return fb_swd_event(wsv, at, y, cnt, err);
  sw_ws *w = wsv;
  const double te = at->tnew;
  const int st = sw_transition(w, te, y, w->gt);
  if (st != FB_OK)
    return st;
  fb_sw_event_end(&w->core, te, cnt);
  at->report = 1;
  return FB_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Types.                                                                              */

static const sw_cfg sw_cfg_event = {1, "rk8pd"};
static const sw_cfg sw_cfg_paper = {0, "heun3"};

static const fb_integrator_type sw_event = {
    .name = "event",
    .title = "event-driven switching: GSL stepper (default rk8pd) in smooth phases, switches "
             "located by Brent to event_tol, restart at each",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 1,
    .implicit = 0,
    .order = 0,
    .data = &sw_cfg_event,
    .alloc = sw_alloc,
    .free = sw_free,
    .reset = sw_reset,
    .step = sw_step,
    .event = sw_switch_at_event,
    .dense = fb_sw_dense,
};

static const fb_integrator_type sw_paper = {
    .name = "paper",
    .title = "[ShourbagyMatuttis]'s scheme: fixed-step Heun RK3, switches applied at step ends (not "
             "located)",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 0,
    .order = 3,
    .data = &sw_cfg_paper,
    .alloc = sw_alloc,
    .free = sw_free,
    .reset = sw_reset,
    .step = sw_step,
    .event = sw_switch_at_event,
};

static const fb_integrator_type *const switching_schemes[] = {&sw_event, &sw_paper, NULL};

const fb_model_type fb_model_switching = {
    .name = "switching",
    .title = "hybrid slip+/slip-/stick modes, stick force as a Lagrange multiplier",
    .reference = "Shourbagy & Matuttis [ShourbagyMatuttis] §3, eqs. 4-7; docs/design.md §3 M6",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "event",
    .default_tol = 1e-10,
    .params = &switching_set,
    .nz = 2,
    .z_names = switching_z,
    .resolve = NULL,
    .init = switching_init,
    .force = NULL,
    .jac = NULL,
    .output = switching_output,
    .stick = NULL,
    .schemes = switching_schemes,
};

/* The suite's policy for switching (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_switching = {
    .model = "switching",
    .color = "#17becf",
    .exact_limit = 1,
    .conv = {"paper", NULL},
    .wp = {"event", NULL},
    .cost_integrator = "event",
    .cost_hint = 3,
    .expect = "exact stick and slip with located events: the suite's reference "
              "solver (Shourbagy & Matuttis [ShourbagyMatuttis] §3)"
};
