/* switching_disc.c — the switching model ([ShourbagyMatuttis] §3; docs/design.md §3 M6) for
 * plants with 2-D contacts and/or tangential Jacobian rows (docs/design.md §13): stick while
 * the required force is inside the disc, slip ODE otherwise, events where |u| reaches 0.
 * switching.c's schemes dispatch here when pl->npairs > 0 || pl->has_jt; one-DOF plants
 * never reach this file (their results stay those of switching.c, to the bit).
 *
 * Units.  A contact unit is a 1-D contact entry (FB_PAIR_NONE) or a 2-D contact, the entry
 * pair (FB_PAIR_X, FB_PAIR_Y).  Its slip is u = J_t qdot - u_surf(t) (d = 1 or 2
 * components, J_t the rows, e_dof when NULL) and its friction enters as J_t^T F.
 *
 * Modes per unit, fixed between events:
 *   slip:  F = -S(|u|) u/|u|  (S = N mu, F on the body; docs/design.md §13 isotropic Coulomb)
 *   stick: J_t a = udot for every component; F is the multiplier.
 * Stuck units' multipliers (all components of all stuck units, the set S) solve
 *
 *     L_SS lambda_S = udot_S - J_S M^-1 (f_s + sum_{slip} J^T F),   L = J_t M^-1 J_t^T
 *
 * (docs/design.md §3 M6 with e_j replaced by the rows, §13).  L is constant: the full
 * nc x nc matrix and W = M^-1 J_t^T are computed once at alloc, L_SS is Cholesky-factored
 * at events; a stuck set whose rows are dependent (a pivot below SWD_PIVOT_MIN of its
 * diagonal entry, e.g. two 2-D contacts on one translating body without rotation) is
 * refused with FB_EUNSUP: its multipliers are not unique.
 *
 * Smooth extension of slip within a step (why the events can be located).  Each step
 * starts with a reference direction d = u/|u| (the unit's slip at the step start; for a
 * 1-D unit d = s = +-1, switching.c's mode).  The slip force is evaluated as
 *     F = -S(w) u / w,   w = |u| sgn(u . d),
 * which is the law itself while u . d > 0 and continues a slip that runs into u = 0 on
 * through it with the friction still pointing the same way (for 1-D this is switching.c's
 * -s S(s v_r)).  The switching function g = u . d then crosses 0 transversally where |u|
 * reaches 0, so Brent locates it, where |u| itself only touches 0.  A root of g where |u|
 * is not near 0 (the direction turned by 90 degrees within the step: the step was long for
 * the curvature) is not a stop: the direction is refreshed there and the run goes on (not
 * counted as an event).  A stop is declared when the part of u across d is at most
 * SWD_ARRIVE_REL of |u| at the step start or the band below, or after SWD_REFRESH_MAX
 * refreshes in a row.
 *
 * The band.  Near |u| = 0 the direction u/|u| relaxes toward its adiabatic value at the
 * rate S L_ii/|u| (u' = c - S L u/|u| for an isotropic block L_ii: the part of u across c
 * decays like that), a stiffness no explicit stepper resolves cheaply (1.7e5 steps per
 * release on belt-2d) and one that makes u/|u| round-off as |u| -> 0.  Below the band
 * u_band = SWD_UTINY_REL v_scale (for fixed steps at least SWD_BAND_H h Fs L_ii, which the
 * step can resolve) a 2-D slip therefore takes the relaxed direction itself, c/|c|, c its
 * slip acceleration without its own friction (a first pass of the evaluation).  The error
 * is the lag of the true direction, about |u| omega/|c| (omega: how fast c turns), over
 * the short time spent in the band: on belt-2d the results with bands 1e-7 and 1e-6 agree
 * to 1e-13, smaller bands (1e-9 .. 1e-12) drift by up to 7e-10 (the stiff stepping's own
 * error) at 4 .. 40 times the cost.  Exact for puck and billiard (c keeps its direction).
 *
 * Transitions (docs/design.md §3 M6 for the stuck set): slip units that stopped become
 * stuck candidates; the velocity is projected onto the stuck set's constraint by the
 * impulse M^-1 J_S^T mu (L_SS mu = u_surf,S - J_S v), the multipliers solved; while some
 * stuck unit has |lambda| > Fs (1 + slack) the worst one (largest |lambda| - Fs) is
 * released into slip with d = -lambda/|lambda| (the direction the net applied force
 * pushes) and the rest re-projected and re-solved.  The release direction is exact when
 * the unit's own block of L is isotropic (a multiple of I: puck, billiard, belt-2d, any
 * point contact on a body whose inertia couples the two axes equally); otherwise the slip
 * that develops is along -L lambda, not -lambda, and its direction turns within the first
 * steps toward the law's (documented choice: the maximum-dissipation direction would need
 * a small nonlinear solve per release).  Stick -> slip: g = Fs (1 + slack) - |lambda| < 0,
 * smooth while the set is fixed, located by Brent as in switching.c.  At t0 and at breaks
 * units with u = 0 exactly are stuck candidates, the others slip along u.
 *
 * State (nz = 2 per contact entry, as switching.c, so output() and the reference's
 * interval builder read it unchanged): z = [mode, F] per entry: mode 0 in stick, in slip
 * the sign of that component's slip (the sign of d's component when it is 0, +1 when
 * both are), so a 2-D slip is never reported as stick; F that component of the friction
 * force (N).  A component's sign may change inside a slip without an event (u turning);
 * the reference then sees slip+ / slip- change at a step end, not at a located time, and
 * only once the component exceeds SWD_SIGN_HYST |u| (a component at round-off level, the
 * y slip of belt-2d once its offset has decayed, would flip at every step).
 * Counters as switching.c: nfe every RHS-equivalent evaluation, ninner root iterations,
 * nevents applied mode changes, nswitch units whose mode changed.  No allocation after
 * alloc.
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

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_switching_core.h"
#include "fb_switching_disc.h"
#include "fb_util.h"
#include "fb_plant_int.h"

/* As switching.c: |lambda| = Fs to round-off still holds (a push exactly at the limit). */
#define SWD_SLACK (16.0 * DBL_EPSILON)
/* A root of g = u . d is a stop when |u across d| <= SWD_ARRIVE_REL |u at step start|:
 * the located state is then within that of 0 (velocity error of the projection). */
#define SWD_ARRIVE_REL 1e-3
#define SWD_REFRESH_MAX 16
/* A 2-D slip below the band u_band = SWD_UTINY_REL v_scale (fixed steps: at least
 * SWD_BAND_H h Fs L_ii) takes the adiabatic friction direction instead of u/|u| (header). */
#define SWD_UTINY_REL 1e-7
#define SWD_BAND_H 2.0
/* A 2-D slip's component reports a new sign only when it is more than this fraction of
 * |u| (hysteresis of the mode states, for the reference's intervals). */
#define SWD_SIGN_HYST 1e-3
/* Cholesky pivot^2 below this fraction of its diagonal entry: dependent rows. */
#define SWD_PIVOT_MIN 1e-10

enum { SWD_STICK = 0, SWD_SLIP = 1 };

typedef struct swd_ws {
  union { /* the shared fields as fb_sw_core and by name (fb_switching_core.h); mode, old
           * and g0, g1, gt per unit */
    fb_sw_core core;
    struct {
      FB_SW_CORE_FIELDS
    };
  };
  int locate;
  size_t nu;             /* units */
  size_t *ufirst;        /* nu: first entry of each unit */
  size_t *udim;          /* nu: 1 or 2 */
  double *Lfull;         /* nc x nc: J_t M^-1 J_t^T */
  double *W;             /* nc x n: row i = M^-1 J_t,i^T */
  double *dir;           /* nc: slip reference direction per entry (unit's components) */
  double *N, *vr;        /* nc, at the last evaluation */
  double *ustart;        /* nu */
  int refresh;
  double u_tiny;         /* the band u_band (m/s), see SWD_UTINY_REL */
  double *dband;         /* nc: a band unit's adiabatic direction at the last evaluation */
  unsigned char *inband; /* nu: 1 when the unit's slip is inside the band */
} swd_ws;

void fb_swd_free(void *wsv)
{
  swd_ws *w = wsv;
  if (w == NULL)
    return;
  fb_sw_gsl_free(&w->core);
  free(w->ufirst);
  free(w->mode);
  free(w->inband);
  free(w->Lfull);
  free(w);
}

static inline double swd_time(const swd_ws *w, double t) { return fb_sw_time(&w->core, t); }

/* Slip force of unit k from w->vr, w->N (N, on the body): the isotropic Coulomb law
 * F = -S(|u|) u/|u| of docs/design.md §13 ([ShourbagyMatuttis] §3's -s S(s v_r) in 1-D),
 * evaluated as -S(w) u / w, w = |u| sgn(u . d) (header).  Leine's 1/(1 + w/vs) has a pole
 * at w = -vs: clamp as switching.c. */
static void swd_slip_force(swd_ws *w, size_t k)
{
  const size_t i = w->ufirst[k];
  const fb_contact *ct = &w->pl->contact[i];
  if (w->udim[k] == 1) { /* switching.c's -s S(s v_r) */
    const double s = w->dir[i];
    double ws = s * w->vr[i];
    if (ws < 0.0 && ct->law.shape == FB_SHAPE_LEINE)
      ws = fmax(ws, -0.5 * ct->law.vs);
    w->F[i] = -s * w->N[i] * fb_friction_mu(&ct->law, ws, NULL);
    return;
  }
  const double ux = w->vr[i], uy = w->vr[i + 1], r = hypot(ux, uy);
  const double sg = ux * w->dir[i] + uy * w->dir[i + 1] >= 0.0 ? 1.0 : -1.0;
  double ws = sg * r;
  if (ws < 0.0 && ct->law.shape == FB_SHAPE_LEINE)
    ws = fmax(ws, -0.5 * ct->law.vs);
  const double S = w->N[i] * fb_friction_mu(&ct->law, ws, NULL);
  if (w->inband[k]) { /* the direction of a slip this small is round-off (header) */
    w->F[i] = -S * w->dband[i];
    w->F[i + 1] = -S * w->dband[i + 1];
    return;
  }
  w->F[i] = -S * sg * ux / r;
  w->F[i + 1] = -S * sg * uy / r;
}

/* Contact states and slips at (t, v): w->u, ud, N, Fs, vr. */
static void swd_contacts(swd_ws *w, double t, const double *v)
{
  const fb_plant *pl = w->pl;
  const double te = swd_time(w, t);
  for (size_t i = 0; i < w->nc; i++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, te, &cs);
    w->u[i] = cs.u;
    w->ud[i] = cs.udot;
    w->N[i] = cs.N;
    w->Fs[i] = cs.N * pl->contact[i].law.mu_s;
    w->vr[i] = fb_contact_vel(pl, i, v) - cs.u;
  }
}

/* Factor L_SS for the entries of the stuck units. */
static int swd_factor(swd_ws *w)
{
  w->ns = 0;
  for (size_t k = 0; k < w->nu; k++)
    if (w->mode[k] == SWD_STICK)
      for (size_t c = 0; c < w->udim[k]; c++)
        w->S[w->ns++] = w->ufirst[k] + c;
  const size_t ns = w->ns, nc = w->nc;
  if (ns == 0)
    return FB_OK;
  for (size_t a = 0; a < ns; a++)
    for (size_t b = 0; b < ns; b++)
      w->L[a * ns + b] = w->Lfull[w->S[a] * nc + w->S[b]];
  gsl_matrix_view Lv = gsl_matrix_view_array(w->L, ns, ns);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int st = gsl_linalg_cholesky_decomp1(&Lv.matrix);
  gsl_set_error_handler(old);
  int bad = st != GSL_SUCCESS;
  for (size_t a = 0; a < ns && !bad; a++) {
    const double p = w->L[a * ns + a], dg = w->Lfull[w->S[a] * nc + w->S[a]];
    bad = !(p * p > SWD_PIVOT_MIN * dg);
  }
  if (bad)
    return fb_err_set(w->err, FB_EUNSUP,
                      "%s: the stuck contacts' matrix J_t M^-1 J_t^T is singular (%zu stuck "
                      "components with dependent Jacobian rows: the stick forces are not "
                      "unique); allowed are stuck sets with independent rows",
                      w->name, ns);
  return FB_OK;
}

/* L_SS x = rS into FS (factor current). */
static int swd_solve(swd_ws *w)
{
  gsl_matrix_view Lv = gsl_matrix_view_array(w->L, w->ns, w->ns);
  gsl_vector_view rv = gsl_vector_view_array(w->rS, w->ns);
  gsl_vector_view Fv = gsl_vector_view_array(w->FS, w->ns);
  return gsl_linalg_cholesky_solve(&Lv.matrix, &rv.vector, &Fv.vector) == GSL_SUCCESS
             ? FB_OK
             : FB_ESOLVE;
}

static inline double swd_unit_norm(const swd_ws *w, const double *a, size_t k);

/* acc = M^-1 f plus the stuck set's reactions; their multipliers into w->F. */
static int swd_accel(swd_ws *w, const double *f, double *acc)
{
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  fb_plant_solve_mass(pl, f, acc);
  if (w->ns > 0) { /* docs/design.md §3 M6, rows J_t (§13): L_SS lambda = udot - J a_free */
    for (size_t a = 0; a < w->ns; a++)
      w->rS[a] = w->ud[w->S[a]] - fb_contact_vel(pl, w->S[a], acc);
    if (swd_solve(w) != FB_OK)
      return FB_ESOLVE;
    for (size_t a = 0; a < w->ns; a++) {
      const size_t i = w->S[a];
      const double *Wi = w->W + i * n;
      w->F[i] = w->FS[a];
      for (size_t q = 0; q < n; q++)
        acc[q] += Wi[q] * w->FS[a];
    }
    for (size_t a = 0; a < w->ns; a++) /* one-DOF rows: the constraint exactly */
      if (pl->contact[w->S[a]].Jt == NULL)
        acc[pl->contact[w->S[a]].dof] = w->ud[w->S[a]];
  }
  return FB_OK;
}

/* Forces and accelerations at (t, y) with the current modes (not counted).  Units in the
 * band get the adiabatic direction c/|c|, c their slip acceleration with the band units'
 * friction left out (the stuck set's reactions included): the direction an isotropic slip
 * this small aligns with at the rate S L/|u| (header); a first pass finds c. */
static int swd_eval(void *wv, double t, const double *y, double *acc)
{
  swd_ws *w = wv;
  const fb_plant *pl = w->pl;
  const size_t n = w->n;
  double *f = w->f;
  fb_plant_smooth_force(pl, swd_time(w, t), y, y + n, f);
  swd_contacts(w, t, y + n);
  int nband = 0;
  for (size_t k = 0; k < w->nu; k++) {
    w->inband[k] = 0;
    if (w->mode[k] == SWD_STICK)
      continue;
    if (w->udim[k] == 2 && swd_unit_norm(w, w->vr, k) < w->u_tiny) {
      w->inband[k] = 1;
      nband++;
      continue;
    }
    swd_slip_force(w, k);
    for (size_t c = 0, i = w->ufirst[k]; c < w->udim[k]; c++)
      fb_contact_add_force(pl, i + c, w->F[i + c], f);
  }
  if (nband > 0) {
    if (swd_accel(w, f, acc) != FB_OK)
      return FB_ESOLVE;
    for (size_t k = 0; k < w->nu; k++) {
      if (!w->inband[k])
        continue;
      const size_t i = w->ufirst[k];
      const double cx = fb_contact_vel(pl, i, acc) - w->ud[i];
      const double cy = fb_contact_vel(pl, i + 1, acc) - w->ud[i + 1], c = hypot(cx, cy);
      w->dband[i] = c > 0.0 ? cx / c : w->dir[i];
      w->dband[i + 1] = c > 0.0 ? cy / c : w->dir[i + 1];
      swd_slip_force(w, k);
      fb_contact_add_force(pl, i, w->F[i], f);
      fb_contact_add_force(pl, i + 1, w->F[i + 1], f);
    }
  }
  if (swd_accel(w, f, acc) != FB_OK)
    return FB_ESOLVE;
  for (size_t i = 0; i < w->nc; i++)
    if (!isfinite(w->F[i]))
      return FB_ENONFINITE;
  return fb_all_finite(acc, n) ? FB_OK : FB_ENONFINITE;
}

/* The shared machinery (switching_core.c) under the names this file's run uses. */
static inline int swd_eval_counted(swd_ws *w, double t, const double *y)
{
  return fb_sw_eval_counted(&w->core, t, y);
}

/* ---------------------------------------------------------------------------------- */
/* Switching functions and transitions.                                                */

/* |lambda| of a stuck unit, |F| of a slipping one (N). */
static inline double swd_unit_norm(const swd_ws *w, const double *a, size_t k)
{
  const size_t i = w->ufirst[k];
  return w->udim[k] == 1 ? fabs(a[i]) : hypot(a[i], a[i + 1]);
}

/* u . d of unit k (m/s) from w->vr. */
static inline double swd_along(const swd_ws *w, size_t k)
{
  const size_t i = w->ufirst[k];
  double s = w->vr[i] * w->dir[i];
  if (w->udim[k] == 2)
    s += w->vr[i + 1] * w->dir[i + 1];
  return s;
}

/* g per unit from the last evaluation: slip u . d, stick Fs (1 + slack) - |lambda|. */
static void swd_switching(const swd_ws *w, double *g)
{
  for (size_t k = 0; k < w->nu; k++)
    g[k] = w->mode[k] != SWD_STICK
               ? swd_along(w, k)
               : w->Fs[w->ufirst[k]] * (1.0 + SWD_SLACK) - swd_unit_norm(w, w->F, k);
}

/* swd_switching as the core calls it: g needs no state, the evaluation left all in w. */
static void swd_switching_core(const void *w, const double *y, double *g)
{
  (void)y;
  swd_switching(w, g);
}

/* Slip units: d = u/|u| where u != 0 (a 1-D unit's d is its sign), and g0 = |u| (the
 * step's start) from w->vr. */
static void swd_refresh_dirs(swd_ws *w)
{
  for (size_t k = 0; k < w->nu; k++) {
    if (w->mode[k] == SWD_STICK)
      continue;
    const size_t i = w->ufirst[k];
    const double r = swd_unit_norm(w, w->vr, k);
    if (w->udim[k] == 1 ? r > 0.0 : r >= w->u_tiny) {
      w->dir[i] = w->udim[k] == 1 ? fb_sgn(w->vr[i]) : w->vr[i] / r;
      if (w->udim[k] == 2)
        w->dir[i + 1] = w->vr[i + 1] / r;
    }
    w->g0[k] = swd_along(w, k);
    w->ustart[k] = r;
  }
}

/* [mode, F] per entry into the z part of y (from the last evaluation). */
static void swd_write_z(const swd_ws *w, double *y)
{
  double *z = y + w->nxv;
  for (size_t k = 0; k < w->nu; k++)
    for (size_t c = 0, i = w->ufirst[k]; c < w->udim[k]; c++) {
      double s = 0.0;
      if (w->mode[k] != SWD_STICK) {
        /* A component that is a small part of the slip keeps its reported sign: its
         * round-off flips are not slip reversals (header). */
        const double prev = z[2 * (i + c)];
        s = fb_sgn(w->vr[i + c]);
        if (w->udim[k] == 2 && (prev == 1.0 || prev == -1.0) &&
            fabs(w->vr[i + c]) <= SWD_SIGN_HYST * swd_unit_norm(w, w->vr, k))
          s = prev;
        if (s == 0.0)
          s = w->dir[i + c] < 0.0 ? -1.0 : 1.0;
      }
      z[2 * (i + c)] = s;
      z[2 * (i + c) + 1] = w->F[i + c];
    }
}

static int swd_fail(swd_ws *w, double t) { return fb_sw_fail(&w->core, t); }

/* Project v onto the stuck set's constraint J_S v = u_S by the impulse M^-1 J_S^T mu,
 * L_SS mu = u_S - J_S v (docs/design.md §13: the velocity jump at a stop; round-off drift
 * in stick).  v in m/s, mu in N s. */
static int swd_project(swd_ws *w, double t, double *v)
{
  const fb_plant *pl = w->pl;
  if (w->ns == 0)
    return FB_OK;
  const double te = swd_time(w, t);
  for (size_t a = 0; a < w->ns; a++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, w->S[a], te, &cs);
    w->rS[a] = cs.u - fb_contact_vel(pl, w->S[a], v);
  }
  if (swd_solve(w) != FB_OK)
    return FB_ESOLVE;
  for (size_t a = 0; a < w->ns; a++) {
    const double *Wi = w->W + w->S[a] * w->n;
    for (size_t q = 0; q < w->n; q++)
      v[q] += Wi[q] * w->FS[a];
  }
  for (size_t a = 0; a < w->ns; a++) /* one-DOF rows: exactly on the surface velocity */
    if (pl->contact[w->S[a]].Jt == NULL) {
      fb_contact_state cs;
      fb_plant_contact_at(pl, w->S[a], te, &cs);
      v[pl->contact[w->S[a]].dof] = cs.u;
    }
  return FB_OK;
}

/* Consistent modes at (t, y): project the stuck units, solve their multipliers, release
 * the worst violator along -lambda and repeat (at most nu releases).  Ends with an
 * evaluation at the final modes: F, g0, z current. */
static int swd_resolve(swd_ws *w, double t, double *y)
{
  for (;;) {
    int st = swd_factor(w);
    if (st != FB_OK)
      return st;
    if (swd_project(w, t, y + w->n) != FB_OK || swd_eval_counted(w, t, y) != FB_OK) {
      if (w->stop == FB_OK)
        w->stop = FB_ESOLVE;
      return swd_fail(w, t);
    }
    size_t worst = w->nu;
    double excess = 0.0;
    for (size_t k = 0; k < w->nu; k++) {
      if (w->mode[k] != SWD_STICK)
        continue;
      const double e = swd_unit_norm(w, w->F, k) - w->Fs[w->ufirst[k]] * (1.0 + SWD_SLACK);
      if (e > excess) {
        excess = e;
        worst = k;
      }
    }
    if (worst == w->nu)
      break;
    /* Release along -lambda (header: exact for an isotropic block of L). */
    const size_t i = w->ufirst[worst];
    const double r = swd_unit_norm(w, w->F, worst);
    w->mode[worst] = SWD_SLIP;
    for (size_t c = 0; c < w->udim[worst]; c++)
      w->dir[i + c] = -w->F[i + c] / r;
    if (w->udim[worst] == 1)
      w->dir[i] = w->F[i] > 0.0 ? -1.0 : 1.0;
  }
  swd_switching(w, w->g0);
  for (size_t k = 0; k < w->nu; k++)
    w->ustart[k] = w->mode[k] != SWD_STICK ? swd_unit_norm(w, w->vr, k) : 0.0;
  swd_write_z(w, y);
  return FB_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Allocation.                                                                         */

int fb_swd_alloc(void **out, const char *name, int locate, const gsl_odeiv2_step_type *T,
                 const fb_problem *pb, const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  for (size_t i = 0; i < nc; i++) {
    const unsigned p = pl->contact[i].pair;
    if (p == FB_PAIR_Y ||
        (p == FB_PAIR_X && !(i + 1 < nc && pl->contact[i + 1].pair == FB_PAIR_Y)))
      return fb_err_set(err, FB_EINVAL,
                        "%s: contact %zu: pair %u out of place: allowed is FB_PAIR_X followed "
                        "by FB_PAIR_Y",
                        name, i + 1, p);
    i += p == FB_PAIR_X;
  }
  swd_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->tag = FB_SW_TAG_DISC;
  w->pb = pb;
  w->pl = pl;
  w->name = name;
  w->unit = "contact unit";
  w->eval = swd_eval;
  w->switching = swd_switching_core;
  w->locate = locate;
  w->n = n;
  w->nc = nc;
  w->nxv = 2 * n;
  w->m = 2 * n + nc;
  w->o = *o;
  if (!(w->o.hmax > 0))
    w->o.hmax = INFINITY;
  w->fixed = isfinite(o->h);
  w->u_tiny = SWD_UTINY_REL * pl->v_scale;
  w->t_lo = -INFINITY;
  w->t_hi = INFINITY;
  const size_t nc1 = nc ? nc : 1, m = w->m;
  w->ufirst = calloc(3 * nc1, sizeof(size_t)); /* ufirst, udim, S */
  w->mode = calloc(2 * nc1, sizeof(int));
  w->inband = calloc(nc1, 1);
  /* Lfull, L (2 nc^2), W (nc n), rS, FS, dir, F, Fs, N, u, ud, vr, dband (10 nc), zsave
   * (2 nc), g0, g1, gt, ustart (4 nc), f, acc (2 n), 9 m-vectors. */
  w->Lfull = calloc(2 * nc1 * nc1 + nc1 * n + 16 * nc1 + 2 * n + 9 * m, sizeof(double));
  if (w->ufirst == NULL || w->mode == NULL || w->inband == NULL || w->Lfull == NULL) {
    fb_swd_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  w->udim = w->ufirst + nc1;
  w->S = w->udim + nc1;
  w->old = w->mode + nc1;
  double *b = w->Lfull + nc1 * nc1;
  w->L = b;
  b += nc1 * nc1;
  w->W = b;
  b += nc1 * n;
  double **nc_arrays[] = {&w->rS, &w->FS, &w->dir, &w->F, &w->Fs, &w->N, &w->u, &w->ud, &w->vr,
                          &w->dband};
  for (size_t k = 0; k < sizeof nc_arrays / sizeof nc_arrays[0]; k++, b += nc1)
    *nc_arrays[k] = b;
  w->zsave = b;
  b += 2 * nc1;
  double **u_arrays[] = {&w->g0, &w->g1, &w->gt, &w->ustart};
  for (size_t k = 0; k < sizeof u_arrays / sizeof u_arrays[0]; k++, b += nc1)
    *u_arrays[k] = b;
  w->f = b;
  w->acc = b + n;
  b += 2 * n;
  double **m_arrays[] = {&w->yc,    &w->ys,  &w->yt,  &w->yerr, &w->yev,
                         &w->ycand, &w->jf0, &w->jf1, &w->jy};
  for (size_t k = 0; k < sizeof m_arrays / sizeof m_arrays[0]; k++, b += m)
    *m_arrays[k] = b;

  for (size_t i = 0; i < nc; i++) {
    w->ufirst[w->nu] = i;
    w->udim[w->nu] = pl->contact[i].pair == FB_PAIR_X ? 2 : 1;
    i += w->udim[w->nu++] - 1;
  }
  /* W = M^-1 J_t^T row by row, L = J_t W^T (constant plant: once). */
  for (size_t i = 0; i < nc; i++) {
    memset(w->f, 0, n * sizeof(double));
    fb_contact_add_force(pl, i, 1.0, w->f);
    fb_plant_solve_mass(pl, w->f, w->W + i * n);
  }
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nc; k++)
      w->Lfull[i * nc + k] = fb_contact_vel(pl, i, w->W + k * n);
  /* Fixed steps cannot resolve the direction's relaxation (rate Fs L_ii/|u|) below
   * |u| ~ h Fs L_ii: the band covers it there. */
  if (w->fixed)
    for (size_t i = 0; i < nc; i++)
      if (pl->contact[i].pair != FB_PAIR_NONE)
        w->u_tiny = fmax(w->u_tiny, SWD_BAND_H * o->h * fb_plant_contact_Fs(pl, i) *
                                        w->Lfull[i * nc + i]);

  if (fb_sw_gsl_alloc(&w->core, T) != FB_OK) {
    fb_swd_free(w);
    return fb_err_set(err, FB_EGSL, "%s: cannot allocate the GSL stepper or root solver", name);
  }
  *out = w;
  return FB_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The run.                                                                            */

/* Modes at t0 or a break: slip along u where u != 0, stuck candidates where u = 0.
 * *report: the state is to be reported again (at t0, or when anything changed). */
static int swd_restart(swd_ws *w, double t, double *y, int initial, int *report)
{
  memcpy(w->old, w->mode, w->nu * sizeof(int));
  swd_contacts(w, t, y + w->n);
  for (size_t k = 0; k < w->nu; k++) {
    const int slip = swd_unit_norm(w, w->vr, k) > 0.0;
    w->mode[k] = slip ? SWD_SLIP : SWD_STICK;
  }
  swd_refresh_dirs(w);
  memcpy(w->zsave, y + w->nxv, 2 * w->nc * sizeof(double));
  int st = swd_resolve(w, t, y);
  if (st != FB_OK)
    return st;
  /* unlike switching.c, the state at t0 is always reported here */
  *report = fb_sw_restart_end(&w->core, w->nu, y, initial, 1);
  return FB_OK;
}

/* At an event (t, y) with g there under the old modes: the slip units that stopped
 * (g <= 0 and u across d negligible, or not locating) become stuck candidates; the others
 * whose g crossed only turned (their direction is refreshed at the next step).  Returns 1
 * when a mode may change (a stop, or a stuck unit beyond its bound): then resolve. */
static int swd_stops(swd_ws *w, const double *g)
{
  int stops = 0;
  for (size_t k = 0; k < w->nu; k++) {
    if (w->mode[k] == SWD_STICK) {
      stops |= g[k] < 0.0;
      continue;
    }
    if (g[k] > 0.0)
      continue;
    const size_t i = w->ufirst[k];
    double across = 0.0;
    if (w->udim[k] == 2) {
      const double a = swd_along(w, k);
      across = hypot(w->vr[i] - a * w->dir[i], w->vr[i + 1] - a * w->dir[i + 1]);
    }
    const double thr = fmax(SWD_ARRIVE_REL * w->ustart[k], w->u_tiny);
    if (!w->locate || across <= thr || w->refresh >= SWD_REFRESH_MAX) {
      w->mode[k] = SWD_STICK;
      stops = 1;
    }
  }
  return stops;
}

int fb_swd_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  swd_ws *w = wsv;
  if (at->seg == 0) {
    w->refresh = 0;
    memset(w->mode, 0, w->nu * sizeof(int));
  }
  fb_sw_reset_begin(&w->core, at, cnt, err);
  return swd_restart(w, at->t, y, at->seg == 0, &at->report);
}

/* A step without a crossing: the stuck units held on their constraint, z written.  A
 * failure ends the run at tn (at->keep), as the scheme always reported. */
static int swd_plain_end(swd_ws *w, double tn, double *y)
{
  if (w->ns > 0) { /* hold the constraint against round-off drift */
    if (swd_project(w, tn, y + w->n) != FB_OK || swd_eval_counted(w, tn, y) != FB_OK) {
      if (w->stop == FB_OK)
        w->stop = FB_ESOLVE;
      return swd_fail(w, tn);
    }
  }
  swd_write_z(w, y);
  swd_switching(w, w->g0); /* the stuck units' g at the next step's start */
  w->refresh = 0;
  return FB_OK;
}

/* One step, as switching.c's sw_step; a crossing that only turned a slip direction ends
 * the step there without an event (at->restart: a new direction from there). */
int fb_swd_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  swd_ws *w = wsv;
  const size_t nxv = w->nxv, nu = w->nu;
  /* The slip directions of this step, from v_r at y: recomputed here (the same numbers
   * as the last evaluation's, which was at y) because a dense output sampled since the
   * report evaluates inside the step and leaves its own v_r behind. */
  swd_contacts(w, at->t, y + w->n);
  swd_refresh_dirs(w);
  fb_sw_step_begin(&w->core, at, y, err);
  double tn = at->t;
  int st = fb_sw_smooth_step(&w->core, at, &tn, cnt, err);
  if (st != FB_OK)
    return st;
  memcpy(y, w->yc, nxv * sizeof(double));
  swd_switching(w, w->g1);
  int proper;
  const int any = fb_sw_crossings(&w->core, nu, &proper);
  at->tnew = tn;
  if (!any) {
    st = swd_plain_end(w, tn, y);
    at->keep = st != FB_OK;
    return st;
  }
  double te;
  st = fb_sw_earliest(&w->core, at, tn, nu, w->locate, proper, &te);
  if (st != FB_OK)
    return st;
  memcpy(y, w->yev, nxv * sizeof(double));
  at->tnew = te;
  if (swd_eval_counted(w, te, y) != FB_OK) {
    at->keep = 1;
    return swd_fail(w, te);
  }
  swd_switching(w, w->gt);
  swd_write_z(w, y);
  memcpy(w->old, w->mode, nu * sizeof(int));
  if (!swd_stops(w, w->gt)) {
    /* Only turned (header): a new direction from here, no event. */
    w->refresh++;
    swd_switching(w, w->g0);
    gsl_odeiv2_driver_reset(w->d);
    at->restart = 1;
    return FB_OK;
  }
  w->refresh = 0;
  /* The left limit (z written above with the old modes) is reported first; the
   * transition (the stops are already in w->mode) and the right limit follow. */
  at->event = 1;
  return FB_OK;
}

int fb_swd_event(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)err; /* swd_resolve's messages go to w->err, the step's */
  swd_ws *w = wsv;
  const double te = at->tnew;
  const int st = swd_resolve(w, te, y);
  if (st != FB_OK)
    return st;
  for (size_t k = 0; k < w->nu; k++)
    cnt->nswitch += w->mode[k] != w->old[k];
  fb_sw_event_end(&w->core, te, cnt);
  at->report = 1;
  return FB_OK;
}
