/* sundials_arkode.c — SUNDIALS ARKODE (its ARKStep module) as steppers (fb_integrator.h):
 * `arkode-erk` (explicit Runge-Kutta, ARKODE's default 4th-order table with embedded 3rd),
 * `arkode-dirk` (diagonally implicit Runge-Kutta, ARKODE's default 4th-order table,
 * Newton with the model's Jacobian on the dense linear solver) and `arkode-imex`
 * (additive Runge-Kutta, ARKODE's default 4th-order ARK pair: the friction term
 * implicit, the rest of the plant explicit).  [Reynolds2023] (ARKODE),
 * [KennedyCarpenter2003] (the ARK pairs); docs/bibliography.md.
 *
 * The split of arkode-imex, y = [x, v, z, q]:
 *   explicit  f_E = [v, M^-1 (f(t) - D v - K x), 0, T(q) v]   (the plant, docs/design.md §2)
 *   implicit  f_I = f - f_E = [0, M^-1 sum_j e_j F_j, z', 0]  (the friction law, §3)
 * f_I is the assembled right-hand side (fb_system.h, counted in nfe) minus f_E; its
 * Jacobian is fb_system_jac's without the plant's rows (x' = v, -M^-1 K, -M^-1 D).  A
 * scenario force that depends on the state keeps its partials in that Jacobian: the
 * Newton iteration then converges on the same equations, with an approximate matrix.
 *
 * One step per call (ARK_ONE_STEP, the segment's closing break as stop time; ReInit at
 * every break), dense output by ARKStepGetDky (ARKODE's Hermite interpolant of the last
 * step), counts as sundials_cvode.c's.  docs/integrators/sundials.md.
 */
#include <arkode/arkode_arkstep.h>
#include <math.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>

#include "fb_integrator_int.h"
#include "fb_plant_int.h"
#include "fb_sundials.h"

enum { ARK_ERK, ARK_DIRK, ARK_IMEX };

typedef struct arkode_ws {
  fb_sun_common c; /* first: the solver's user data */
  int kind;        /* ARK_ERK, ARK_DIRK, ARK_IMEX */
  SUNContext ctx;
  void *mem;
  N_Vector y;
  N_Vector yd; /* no data of its own: the dense output's y, set per call */
  SUNMatrix A;
  SUNLinearSolver LS;
  double *fe;  /* dim: f_E, scratch of the implicit part (fb_system's order) */
  long nni, netf, ncfn, nsetups, njev;
} arkode_ws;

static const int kind_erk = ARK_ERK, kind_dirk = ARK_DIRK, kind_imex = ARK_IMEX;

static void arkode_ws_free(void *wsv)
{
  arkode_ws *w = wsv;
  if (w == NULL)
    return;
  if (w->mem != NULL)
    ARKStepFree(&w->mem);
  if (w->LS != NULL)
    SUNLinSolFree(w->LS);
  if (w->A != NULL)
    SUNMatDestroy(w->A);
  if (w->y != NULL)
    N_VDestroy(w->y);
  if (w->yd != NULL)
    N_VDestroy(w->yd);
  if (w->ctx != NULL)
    SUNContext_Free(&w->ctx);
  fb_system_free(&w->c.sys);
  free(w->c.dfdy);
  fb_sun_band_free(&w->c);
  free(w);
}

/* f_E (header) into fe, not counted: it evaluates no friction law. */
static void explicit_part(arkode_ws *w, double t, const double *y, double *fe)
{
  fb_system *s = &w->c.sys;
  const fb_plant *pl = s->pl;
  const size_t n = s->n, dim = s->dim;
  const double *x = y, *v = y + n;
  memset(fe, 0, dim * sizeof(double));
  memcpy(fe, v, n * sizeof(double));
  double *f = s->work + 2 * dim; /* n doubles of fb_system's scratch */
  fb_system_applied_force(s, fb_system_segment_time(s, t), x, v, f);
  fb_plant_sub_linear(pl, x, v, f);
  fb_plant_solve_mass(pl, f, fe + n);
  if (pl->kin.nquat > 0) {
    const size_t q = 2 * n + s->nc * s->nz;
    fb_kin_rates(pl, v, y + q, fe + q);
  }
}

static int arkode_fe(double t, N_Vector y, N_Vector ydot, void *user_data)
{
  arkode_ws *w = user_data;
  if (w->c.perm != NULL) { /* a banded plant: the solver's order is interleaved */
    fb_sun_band_gather(&w->c, N_VGetArrayPointer(y), w->c.ys);
    explicit_part(w, t, w->c.ys, w->fe);
    fb_sun_band_scatter(&w->c, w->fe, N_VGetArrayPointer(ydot));
    return 0;
  }
  explicit_part(user_data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return 0;
}

/* f_I = f - f_E: the friction law's share (counted in nfe, under the budget). */
static int arkode_fi(double t, N_Vector y, N_Vector ydot, void *user_data)
{
  arkode_ws *w = user_data;
  if (w->c.perm != NULL) { /* banded: f and f_E in fb_system's order, f_I interleaved */
    fb_sun_band_gather(&w->c, N_VGetArrayPointer(y), w->c.ys);
    if (w->c.sys.gsys.function(t, w->c.ys, w->c.fs, &w->c.sys) != GSL_SUCCESS)
      return -1;
    explicit_part(w, t, w->c.ys, w->fe);
    double *fi = N_VGetArrayPointer(ydot);
    for (size_t k = 0; k < w->c.pb->dim; k++)
      fi[k] = w->c.fs[w->c.perm[k]] - w->fe[w->c.perm[k]];
    return 0;
  }
  if (fb_sun_rhs(t, y, ydot, user_data) != 0)
    return -1;
  explicit_part(w, t, N_VGetArrayPointer(y), w->fe);
  double *fi = N_VGetArrayPointer(ydot);
  for (size_t i = 0; i < w->c.pb->dim; i++)
    fi[i] -= w->fe[i];
  return 0;
}

static int arkode_jac(double t, N_Vector y, N_Vector fy, SUNMatrix J, void *user_data,
                      N_Vector t1, N_Vector t2, N_Vector t3)
{
  (void)fy, (void)t1, (void)t2, (void)t3;
  arkode_ws *w = user_data;
  if (fb_sun_jac_dense(&w->c, t, y, J) != 0)
    return -1;
  if (w->kind != ARK_IMEX)
    return 0;
  /* the plant's rows out: x' = v (identity), and -M^-1 K, -M^-1 D of the accelerations */
  const fb_plant *pl = w->c.sys.pl;
  const size_t n = pl->n;
  for (size_t c = 0; c < w->c.pb->dim; c++)
    for (size_t r = 0; r < n; r++)
      SM_ELEMENT_D(J, (sunindextype)r, (sunindextype)c) = 0.0;
  for (size_t r = 0; r < n; r++)
    for (size_t c = 0; c < n; c++) {
      SM_ELEMENT_D(J, (sunindextype)(n + r), (sunindextype)c) = 0.0;
      double mD = 0.0;
      for (size_t k = 0; k < n; k++)
        mD += pl->Minv[r * n + k] * pl->D[k * n + c];
      SM_ELEMENT_D(J, (sunindextype)(n + r), (sunindextype)(n + c)) += mD;
    }
  return 0;
}

/* The solver and its options; a non-zero SUNDIALS flag on failure. */
static int arkode_setup(arkode_ws *w, const fb_problem *pb, const fb_int_opts *o)
{
  const sunindextype dim = (sunindextype)pb->dim;
  const double t0 = pb->plant->t0;
  if (w->kind == ARK_ERK)
    w->mem = ARKStepCreate(fb_sun_rhs, NULL, t0, w->y, w->ctx);
  else if (w->kind == ARK_DIRK)
    w->mem = ARKStepCreate(NULL, fb_sun_rhs, t0, w->y, w->ctx);
  else
    w->mem = ARKStepCreate(arkode_fe, arkode_fi, t0, w->y, w->ctx);
  if (w->mem == NULL)
    return -1;
  int f = ARKStepSetUserData(w->mem, w);
  if (f == 0)
    f = ARKStepSetErrHandlerFn(w->mem, fb_sun_err_handler, &w->c);
  if (f == 0)
    f = ARKStepSStolerances(w->mem, fb_sun_tol(o->rtol), fb_sun_tol(o->atol));
  if (f == 0 && isfinite(o->hmax) && o->hmax > 0)
    f = ARKStepSetMaxStep(w->mem, o->hmax);
  if (f != 0 || w->kind == ARK_ERK)
    return f;
  if (w->c.perm != NULL) { /* banded: ARKODE's banded difference quotients (no JacFn) */
    w->A = SUNBandMatrix(dim, w->c.mu, w->c.ml, w->ctx);
    w->LS = w->A != NULL ? SUNLinSol_Band(w->y, w->A, w->ctx) : NULL;
    return w->LS == NULL ? -1 : ARKStepSetLinearSolver(w->mem, w->LS, w->A);
  }
  w->A = SUNDenseMatrix(dim, dim, w->ctx);
  w->LS = w->A != NULL ? SUNLinSol_Dense(w->y, w->A, w->ctx) : NULL;
  if (w->LS == NULL)
    return -1;
  f = ARKStepSetLinearSolver(w->mem, w->LS, w->A);
  if (f == 0)
    f = ARKStepSetJacFn(w->mem, arkode_jac);
  return f;
}

static int arkode_ws_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                           const fb_int_opts *o, fb_err *err)
{
  arkode_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->kind = *(const int *)type->data;
  w->c.pb = pb;
  w->c.o = *o;
  int st = fb_system_alloc(&w->c.sys, pb, o->max_rhs);
  /* the Jacobian's dim x dim only for the implicit tables on a dense plant (arkode-erk also
   * runs a banded plant of 1e5 DOFs, docs/scenarios/chain.md, where it could not be held);
   * the implicit ones on a banded plant: the band view and f_E's dim */
  const int band = w->kind != ARK_ERK && pb->plant->banded;
  if (st == FB_OK && band) {
    st = fb_sun_band_init(&w->c, type->name, err);
    if (st != FB_OK) {
      arkode_ws_free(w);
      return st;
    }
    w->c.dfdy = calloc(pb->dim, sizeof(double));
    w->fe = w->c.dfdy;
  } else if (w->kind != ARK_ERK) {
    w->c.dfdy = calloc(pb->dim * (pb->dim + 2), sizeof(double));
  }
  if (st != FB_OK || (w->kind != ARK_ERK && w->c.dfdy == NULL) ||
      SUNContext_Create(NULL, &w->ctx) != 0) {
    arkode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  if (w->c.dfdy != NULL && !band) {
    w->c.dfdt = w->c.dfdy + pb->dim * pb->dim;
    w->fe = w->c.dfdt + pb->dim;
  }
  w->y = N_VNew_Serial((sunindextype)pb->dim, w->ctx);
  w->yd = N_VNewEmpty_Serial((sunindextype)pb->dim, w->ctx);
  if (w->y == NULL || w->yd == NULL) {
    arkode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  N_VConst(0.0, w->y);
  const int f = arkode_setup(w, pb, o);
  if (f != 0) {
    arkode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "cannot set up ARKODE for %s (flag %d)", type->name, f);
  }
  *out = w;
  return FB_OK;
}

/* At t0 and at every break: ARKODE restarts from (t, y) (ReInit zeroes its counts). */
static int arkode_ws_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt,
                           fb_err *err)
{
  arkode_ws *w = wsv;
  w->c.sys.cnt = cnt;
  w->c.sys.stop = FB_OK;
  w->c.sys.seg_t0 = at->t > w->c.pb->plant->t0 ? at->t : -(double)INFINITY;
  w->c.have_last = 0;
  w->c.msg[0] = '\0';
  if (w->c.perm != NULL)
    fb_sun_band_scatter(&w->c, y, N_VGetArrayPointer(w->y));
  else
    memcpy(N_VGetArrayPointer(w->y), y, w->c.pb->dim * sizeof(double));
  int f;
  if (w->kind == ARK_ERK)
    f = ARKStepReInit(w->mem, fb_sun_rhs, NULL, at->t, w->y);
  else if (w->kind == ARK_DIRK)
    f = ARKStepReInit(w->mem, NULL, fb_sun_rhs, at->t, w->y);
  else
    f = ARKStepReInit(w->mem, arkode_fe, arkode_fi, at->t, w->y);
  if (f == 0)
    f = ARKStepSetStopTime(w->mem, at->t1);
  w->nni = w->netf = w->ncfn = w->nsetups = w->njev = 0;
  return f == 0 ? FB_OK : fb_sun_failure(&w->c, "ARKStepReInit", f, at->t, err);
}

static void arkode_count(arkode_ws *w, fb_counters *cnt)
{
  long nni = 0, netf = 0, ncfn = 0, nsetups = 0, njev = 0;
  ARKStepGetNumErrTestFails(w->mem, &netf);
  if (w->kind != ARK_ERK) {
    ARKStepGetNumNonlinSolvIters(w->mem, &nni);
    ARKStepGetNumNonlinSolvConvFails(w->mem, &ncfn);
    ARKStepGetNumLinSolvSetups(w->mem, &nsetups);
  }
  if (w->c.perm != NULL) /* the banded difference-quotient Jacobians (dense: counted by
                          * fb_system_jac) */
    ARKStepGetNumJacEvals(w->mem, &njev);
  cnt->ninner += (unsigned long)(nni - w->nni);
  cnt->nrejected += (unsigned long)(netf - w->netf + ncfn - w->ncfn);
  cnt->njac += (unsigned long)(njev - w->njev);
  cnt->nlsetups += (unsigned long)(nsetups - w->nsetups);
  w->nni = nni, w->netf = netf, w->ncfn = ncfn, w->nsetups = nsetups, w->njev = njev;
}

/* One ARKODE step (ARK_ONE_STEP), never past the segment's end t1. */
static int arkode_ws_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt,
                          fb_err *err)
{
  arkode_ws *w = wsv;
  const double T = w->c.pb->plant->T;
  w->c.sys.seg_t1 = at->t1 < T ? at->t1 : (double)INFINITY;
  w->c.have_last = 0;
  double tret = at->t;
  const int f = ARKStepEvolve(w->mem, at->t1, w->y, &tret, ARK_ONE_STEP);
  arkode_count(w, cnt);
  if (f < 0)
    return fb_sun_failure(&w->c, "ARKODE", f, at->t, err);
  if (w->c.perm != NULL)
    fb_sun_band_gather(&w->c, N_VGetArrayPointer(w->y), y);
  else
    memcpy(y, N_VGetArrayPointer(w->y), w->c.pb->dim * sizeof(double));
  at->tnew = tret;
  w->c.ta = at->t;
  w->c.tb = tret;
  w->c.have_last = 1;
  return FB_OK;
}

/* ARKODE's interpolant of the last step at t (ARKStepGetDky, order 0). */
static int arkode_ws_dense(void *wsv, double ta, double tb, double t, double *y)
{
  arkode_ws *w = wsv;
  if (!w->c.have_last || ta != w->c.ta || tb != w->c.tb)
    return FB_EUNSUP;
  N_VSetArrayPointer(w->c.perm != NULL ? w->c.fs : y, w->yd);
  const int f = ARKStepGetDky(w->mem, t, 0, w->yd);
  if (f == 0 && w->c.perm != NULL)
    fb_sun_band_gather(&w->c, w->c.fs, y);
  return f == 0 ? FB_OK : FB_EUNSUP;
}

#define FB_ARKODE_TYPE(var, nm, ttl, impl, quat, tag)                                       \
  const fb_integrator_type var = {.name = nm,                                             \
                                  .title = ttl,                                           \
                                  .needs = FB_MODEL_ODE,                                  \
                                  .adaptive_ok = 1,                                       \
                                  .implicit = impl,                                       \
                                  .counts_lsetups = impl,                                 \
                                  .order = 4,                                             \
                                  .data = &(tag),                                         \
                                  .alloc = arkode_ws_alloc,                               \
                                  .free = arkode_ws_free,                                 \
                                  .reset = arkode_ws_reset,                               \
                                  .step = arkode_ws_step,                                 \
                                  .takes_quat = quat,                                     \
                                  .dense = arkode_ws_dense}

FB_ARKODE_TYPE(fb_integrator_arkode_erk, "arkode-erk",
               "SUNDIALS ARKODE explicit Runge-Kutta (its default 4th-order table, embedded 3rd)",
               0, 1, kind_erk);
FB_ARKODE_TYPE(fb_integrator_arkode_dirk, "arkode-dirk",
               "SUNDIALS ARKODE diagonally implicit Runge-Kutta (4th order), Newton with the "
               "model's Jacobian",
               1, 0, kind_dirk);
FB_ARKODE_TYPE(fb_integrator_arkode_imex, "arkode-imex",
               "SUNDIALS ARKODE additive Runge-Kutta (4th order): friction implicit, the plant "
               "explicit",
               1, 0, kind_imex);
