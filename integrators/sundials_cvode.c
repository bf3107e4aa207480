/* sundials_cvode.c — SUNDIALS CVODE as steppers (fb_integrator.h): `cvode-bdf` (BDF orders
 * 1-5) and `cvode-adams` (Adams-Moulton orders 1-12), both with CVODE's Newton iteration,
 * which reuses the Jacobian and the factored iteration matrix across steps until its
 * convergence test asks for a new one, on the dense linear solver with the model's
 * Jacobian (fb_system_jac).  [Hindmarsh2005] §3 (CVODE; docs/bibliography.md).
 *
 * One step per call: CVode in CV_ONE_STEP mode with the segment's closing break as stop
 * time (CVODE lands on it exactly); at every break CVodeReInit restarts it (order 1, a
 * new initial step), as GSL's steppers are reset there.  Dense output: CVodeGetDky, the
 * Nordsieck interpolant of the last step.  Counts: nfe by the system (every RHS CVODE
 * asks for), njac by fb_system_jac, ninner = nonlinear (Newton) iterations, nrejected =
 * error-test and convergence failures.  docs/integrators/sundials.md.
 */
#include <cvode/cvode.h>
#include <math.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>

#include "fb_integrator_int.h"
#include "fb_sundials.h"

typedef struct cvode_ws {
  fb_sun_common c; /* first: the solver's user data */
  SUNContext ctx;
  void *mem;
  N_Vector y;
  N_Vector yd; /* no data of its own: the dense output's y, set per call */
  SUNMatrix A;
  SUNLinearSolver LS;
  long nni, netf, ncfn, nsetups, njev; /* the solver's counts at the last look (ReInit zeroes
                                        * them) */
} cvode_ws;

static void cvode_ws_free(void *wsv)
{
  cvode_ws *w = wsv;
  if (w == NULL)
    return;
  if (w->mem != NULL)
    CVodeFree(&w->mem);
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

static int cvode_jac(double t, N_Vector y, N_Vector fy, SUNMatrix J, void *user_data,
                     N_Vector t1, N_Vector t2, N_Vector t3)
{
  (void)fy, (void)t1, (void)t2, (void)t3;
  return fb_sun_jac_dense(user_data, t, y, J);
}

static int cvode_ws_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                          const fb_int_opts *o, fb_err *err)
{
  cvode_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const sunindextype dim = (sunindextype)pb->dim;
  w->c.pb = pb;
  w->c.o = *o;
  const int banded = pb->plant->banded;
  int st = fb_system_alloc(&w->c.sys, pb, o->max_rhs);
  if (st == FB_OK && banded) { /* the band view, no dim x dim array */
    st = fb_sun_band_init(&w->c, type->name, err);
    if (st != FB_OK) {
      cvode_ws_free(w);
      return st;
    }
  } else if (st == FB_OK) {
    w->c.dfdy = calloc(pb->dim * (pb->dim + 1), sizeof(double));
    st = w->c.dfdy == NULL ? FB_ENOMEM : FB_OK;
  }
  if (st != FB_OK || SUNContext_Create(NULL, &w->ctx) != 0) {
    cvode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  if (!banded)
    w->c.dfdt = w->c.dfdy + pb->dim * pb->dim;
  const int lmm = type->data != NULL ? CV_ADAMS : CV_BDF;
  w->y = N_VNew_Serial(dim, w->ctx);
  w->yd = N_VNewEmpty_Serial(dim, w->ctx);
  w->A = banded ? SUNBandMatrix(dim, w->c.mu, w->c.ml, w->ctx) : SUNDenseMatrix(dim, dim, w->ctx);
  w->mem = CVodeCreate(lmm, w->ctx);
  if (w->y == NULL || w->yd == NULL || w->A == NULL || w->mem == NULL) {
    cvode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  N_VConst(0.0, w->y);
  w->LS = banded ? SUNLinSol_Band(w->y, w->A, w->ctx) : SUNLinSol_Dense(w->y, w->A, w->ctx);
  int f = w->LS == NULL ? -1 : CVodeInit(w->mem, fb_sun_rhs, pb->plant->t0, w->y);
  if (f == 0)
    f = CVodeSetUserData(w->mem, &w->c);
  if (f == 0)
    f = CVodeSetErrHandlerFn(w->mem, fb_sun_err_handler, &w->c);
  if (f == 0)
    f = CVodeSStolerances(w->mem, fb_sun_tol(o->rtol), fb_sun_tol(o->atol));
  if (f == 0)
    f = CVodeSetLinearSolver(w->mem, w->LS, w->A);
  if (f == 0 && !banded) /* banded: CVODE's banded difference quotients (no JacFn) */
    f = CVodeSetJacFn(w->mem, cvode_jac);
  if (f == 0 && isfinite(o->hmax) && o->hmax > 0)
    f = CVodeSetMaxStep(w->mem, o->hmax);
  if (f != 0) {
    cvode_ws_free(w);
    return fb_err_set(err, FB_ENOMEM, "cannot set up CVODE for %s (flag %d)", type->name, f);
  }
  *out = w;
  return FB_OK;
}

/* At t0 and at every break: CVODE restarts from (t, y) at order 1 (ReInit zeroes its
 * counts); the system learns its segment's opening break. */
static int cvode_ws_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  cvode_ws *w = wsv;
  w->c.sys.cnt = cnt;
  w->c.sys.stop = FB_OK;
  w->c.sys.seg_t0 = at->t > w->c.pb->plant->t0 ? at->t : -(double)INFINITY;
  w->c.have_last = 0;
  w->c.msg[0] = '\0';
  if (w->c.perm != NULL)
    fb_sun_band_scatter(&w->c, y, N_VGetArrayPointer(w->y));
  else
    memcpy(N_VGetArrayPointer(w->y), y, w->c.pb->dim * sizeof(double));
  int f = CVodeReInit(w->mem, at->t, w->y);
  if (f == 0)
    f = CVodeSetStopTime(w->mem, at->t1);
  w->nni = w->netf = w->ncfn = w->nsetups = w->njev = 0;
  return f == 0 ? FB_OK : fb_sun_failure(&w->c, "CVodeReInit", f, at->t, err);
}

/* The solver's counts since the last look into the run's counters. */
static void cvode_count(cvode_ws *w, fb_counters *cnt)
{
  long nni = 0, netf = 0, ncfn = 0, nsetups = 0, njev = 0;
  CVodeGetNumNonlinSolvIters(w->mem, &nni);
  CVodeGetNumErrTestFails(w->mem, &netf);
  CVodeGetNumNonlinSolvConvFails(w->mem, &ncfn);
  CVodeGetNumLinSolvSetups(w->mem, &nsetups);
  cnt->ninner += (unsigned long)(nni - w->nni);
  cnt->nrejected += (unsigned long)(netf - w->netf + ncfn - w->ncfn);
  cnt->nlsetups += (unsigned long)(nsetups - w->nsetups);
  if (w->c.perm != NULL) { /* the banded difference-quotient Jacobians (dense: fb_system_jac
                            * counts its own) */
    CVodeGetNumJacEvals(w->mem, &njev);
    cnt->njac += (unsigned long)(njev - w->njev);
  }
  w->nni = nni, w->netf = netf, w->ncfn = ncfn, w->nsetups = nsetups, w->njev = njev;
}

/* One CVODE step (CV_ONE_STEP), never past the segment's end t1. */
static int cvode_ws_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  cvode_ws *w = wsv;
  const double T = w->c.pb->plant->T;
  w->c.sys.seg_t1 = at->t1 < T ? at->t1 : (double)INFINITY;
  w->c.have_last = 0;
  double tret = at->t;
  const int f = CVode(w->mem, at->t1, w->y, &tret, CV_ONE_STEP);
  cvode_count(w, cnt);
  if (f < 0)
    return fb_sun_failure(&w->c, "CVODE", f, at->t, err);
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

/* The Nordsieck interpolant of the last step at t (CVodeGetDky, order 0). */
static int cvode_ws_dense(void *wsv, double ta, double tb, double t, double *y)
{
  cvode_ws *w = wsv;
  if (!w->c.have_last || ta != w->c.ta || tb != w->c.tb)
    return FB_EUNSUP;
  N_VSetArrayPointer(w->c.perm != NULL ? w->c.fs : y, w->yd);
  const int f = CVodeGetDky(w->mem, t, 0, w->yd);
  if (f == 0 && w->c.perm != NULL)
    fb_sun_band_gather(&w->c, w->c.fs, y);
  return f == 0 ? FB_OK : FB_EUNSUP;
}

static const int adams_tag = 1;

const fb_integrator_type fb_integrator_cvode_bdf = {
    .name = "cvode-bdf",
    .title = "SUNDIALS CVODE, BDF orders 1-5, Newton with the model's Jacobian (dense)",
    .needs = FB_MODEL_ODE,
    .adaptive_ok = 1,
    .implicit = 1,
    .counts_lsetups = 1,
    .order = 5,
    .alloc = cvode_ws_alloc,
    .free = cvode_ws_free,
    .reset = cvode_ws_reset,
    .step = cvode_ws_step,
    .dense = cvode_ws_dense,
};

const fb_integrator_type fb_integrator_cvode_adams = {
    .name = "cvode-adams",
    .title = "SUNDIALS CVODE, Adams-Moulton orders 1-12, Newton with the model's Jacobian (dense)",
    .needs = FB_MODEL_ODE,
    .adaptive_ok = 1,
    .implicit = 1,
    .counts_lsetups = 1,
    .order = 12,
    .data = &adams_tag,
    .alloc = cvode_ws_alloc,
    .free = cvode_ws_free,
    .reset = cvode_ws_reset,
    .step = cvode_ws_step,
    .dense = cvode_ws_dense,
};
