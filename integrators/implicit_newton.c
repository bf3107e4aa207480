/* implicit_newton.c — fixed-step implicit Euler and BDF2 with a damped Newton solve.
 *
 * For the stiff bristle laws (LuGre, Dahl, elastoplastic with the auto sigma0/sigma1 the
 * z-equation relaxes at ~sigma0 |v| / S ~ 1e6 /s) GSL has no fixed-step method that is
 * both safe and honest: rk4 diverges, rk1imp/rk2imp/rk4imp stop when their inner
 * iteration does not converge at coarse steps, and bsimp silently keeps the old state
 * when its runaway test refuses a step (gsl_ode.c now reports that).  These two methods
 * are L-stable (implicit Euler) and A-stable with strong damping at infinity (BDF2), and
 * solve their nonlinear equation by Newton's method with the system's Jacobian
 * (fb_system_jac: the models' analytic partials) and a residual-halving line search, so
 * that the nonsmooth |v| of the laws does not make the iteration cycle.
 *
 *   implicit Euler:  y1 - y0 - h f(t1, y1) = 0
 *   BDF2 (variable step, w = h_n / h_{n-1}; [Hairer1996] §III.5 in docs/bibliography.md):
 *     y1 - (1+w)^2/(1+2w) y0 + w^2/(1+2w) y_{-1} - h (1+w)/(1+2w) f(t1, y1) = 0
 * BDF2 restarts with an implicit-Euler step after every forcing break (the history
 * before a break belongs to another forcing), which costs one O(h^2) local error per
 * segment and keeps the global order 2.
 *
 * A step whose Newton iteration does not converge ends the run with FB_EGSL and says so:
 * a fixed-step run never keeps a state it did not solve for.
 */
#include <gsl/gsl_multiroots.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_system.h"
#include "fb_integrator_int.h"

#define NEWTON_MAX_ITER 50
#define NEWTON_MAX_HALVINGS 30
#define HYBRID_MAX_ITER 200
#define RES_DONE 1e-13  /* relative residual: converged (a few hundred ulps) */
#define RES_STALL 1e-8 /* no descent left: accepted this close (cancellation inside f) */

typedef struct newton_ws {
  const fb_problem *pb;
  fb_system sys;
  fb_int_opts o;
  int bdf2;          /* 0: implicit Euler */
  size_t dim;
  double *yprev;     /* dim: y_{n-1} (BDF2) */
  double *y0;        /* dim: y_n */
  double *base;      /* dim: the explicit part of the residual */
  double *f;         /* dim: f(t1, y) */
  double *res;       /* dim: residual at the iterate */
  double *ytry;      /* dim: line-search trial */
  double *dy;        /* dim: Newton update */
  double *w;         /* dim: residual weights of this step */
  double *ymax;      /* dim: largest |y_i| of the run so far (each component's scale) */
  double *dfdt;      /* dim: unused by the method, required by the Jacobian's signature */
  gsl_matrix *J;     /* dim x dim: df/dy, then I - g h df/dy */
  gsl_multiroot_fdfsolver *hybrid; /* the fallback when line-search Newton stalls */
  gsl_multiroot_function_fdf fdf;
  gsl_vector *x0;    /* dim: its start */
  double t1, gh;     /* the step being solved (for the fallback's callbacks) */
  int cb_status;     /* the RHS status inside a fallback callback */
  double hprev;      /* the previous step in this segment (BDF2); 0: none */
  size_t seg;        /* the segment hprev belongs to */
} newton_ws;

static void newton_free(void *wsv)
{
  newton_ws *ws = wsv;
  if (ws == NULL)
    return;
  fb_system_free(&ws->sys);
  free(ws->yprev);
  if (ws->J != NULL)
    gsl_matrix_free(ws->J);
  if (ws->hybrid != NULL)
    gsl_multiroot_fdfsolver_free(ws->hybrid);
  if (ws->x0 != NULL)
    gsl_vector_free(ws->x0);
  free(ws);
}

static int residual(newton_ws *ws, double t1, double gh, const double *y, double *res);

/* Solve A x = b in place (A: n x n row-major, destroyed; b becomes x) by Gaussian
 * elimination with partial pivoting.  GSL's LU (2.7) allocates its pivot workspace on
 * every call, and these steps must not allocate; n is the state's small dimension.
 * Returns 0, or -1 for a singular or non-finite matrix. */
static int solve_in_place(double *A, double *b, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    size_t p = k;
    for (size_t i = k + 1; i < n; i++)
      if (fabs(A[i * n + k]) > fabs(A[p * n + k]))
        p = i;
    const double piv = A[p * n + k];
    if (!(fabs(piv) > 0.0) || !isfinite(piv))
      return -1;
    if (p != k) {
      for (size_t j = k; j < n; j++) {
        const double tmp = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = tmp;
      }
      const double tb = b[k];
      b[k] = b[p];
      b[p] = tb;
    }
    for (size_t i = k + 1; i < n; i++) {
      const double l = A[i * n + k] / piv;
      if (l == 0.0)
        continue;
      for (size_t j = k + 1; j < n; j++)
        A[i * n + j] -= l * A[k * n + j];
      b[i] -= l * b[k];
    }
  }
  for (size_t k = n; k-- > 0;) {
    double acc = b[k];
    for (size_t j = k + 1; j < n; j++)
      acc -= A[k * n + j] * b[j];
    b[k] = acc / A[k * n + k];
  }
  return 0;
}

/* The fallback's residual and Jacobian I - gh df/dy (gsl_multiroot_function_fdf). */
static int hyb_f(const gsl_vector *x, void *p, gsl_vector *f)
{
  newton_ws *ws = p;
  ws->cb_status = residual(ws, ws->t1, ws->gh, x->data, f->data);
  return ws->cb_status == GSL_SUCCESS ? GSL_SUCCESS : GSL_EBADFUNC;
}

static int hyb_df(const gsl_vector *x, void *p, gsl_matrix *J)
{
  newton_ws *ws = p;
  const size_t dim = ws->dim;
  ws->cb_status = fb_system_jac(ws->t1, x->data, J->data, ws->dfdt, &ws->sys);
  if (ws->cb_status != GSL_SUCCESS)
    return GSL_EBADFUNC;
  for (size_t r = 0; r < dim; r++)
    for (size_t c = 0; c < dim; c++)
      J->data[r * dim + c] = (r == c ? 1.0 : 0.0) - ws->gh * J->data[r * dim + c];
  ws->sys.cnt->nlsetups++; /* hybridsj QR-factors every Jacobian it asks for (GSL's
                            * multiroots/hybridj.c; between them, rank-1 QR updates) */
  return GSL_SUCCESS;
}

static int hyb_fdf(const gsl_vector *x, void *p, gsl_vector *f, gsl_matrix *J)
{
  const int st = hyb_f(x, p, f);
  return st != GSL_SUCCESS ? st : hyb_df(x, p, J);
}

static int newton_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                        const fb_int_opts *o, fb_err *err)
{
  if (!isfinite(o->h))
    return fb_err_set(err, FB_EINVAL, "integrator %s takes a fixed step only: use --h",
                      type->name);
  newton_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pb = pb;
  ws->o = *o;
  ws->bdf2 = *(const int *)type->data;
  ws->dim = pb->dim;
  const size_t dim = pb->dim;
  int st = fb_system_alloc(&ws->sys, pb, o->max_rhs);
  ws->yprev = calloc(10 * dim, sizeof(double));
  ws->J = gsl_matrix_alloc(dim, dim);
  ws->hybrid = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, dim);
  ws->x0 = gsl_vector_alloc(dim);
  if (st != FB_OK || ws->yprev == NULL || ws->J == NULL ||
      ws->hybrid == NULL || ws->x0 == NULL) {
    newton_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  ws->y0 = ws->yprev + dim;
  ws->base = ws->y0 + dim;
  ws->f = ws->base + dim;
  ws->res = ws->f + dim;
  ws->ytry = ws->res + dim;
  ws->dy = ws->ytry + dim;
  ws->w = ws->dy + dim;
  ws->ymax = ws->w + dim;
  ws->dfdt = ws->ymax + dim;
  ws->fdf = (gsl_multiroot_function_fdf){hyb_f, hyb_df, hyb_fdf, dim, ws};
  *out = ws;
  return FB_OK;
}

/* res = y - base - gh f(t1, y); returns the RHS status. */
static int residual(newton_ws *ws, double t1, double gh, const double *y, double *res)
{
  const int st = fb_system_rhs(t1, y, ws->f, &ws->sys);
  if (st != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < ws->dim; i++)
    res[i] = y[i] - ws->base[i] - gh * ws->f[i];
  return GSL_SUCCESS;
}

/* The merit of a residual: its 2-norm in the fixed weights w (set once per step from
 * the size of the residual's terms at y_n), so that a Newton direction is a descent
 * direction for it whatever the units of each component. */
static double res_norm(const newton_ws *ws, const double *res)
{
  double m = 0.0;
  for (size_t i = 0; i < ws->dim; i++) {
    const double r = res[i] * ws->w[i];
    m += r * r;
  }
  return sqrt(m);
}

/* Weights 1 / (the largest size of each residual's terms, |y| + |base| + |gh f|, seen
 * at the accepted iterates of this step, plus the component's scale over the run: in
 * stick v' is a difference of forces that cancel, so its own size says nothing about
 * its round-off); ws->f is f at y.  Returns 1 when one changed. */
static int weigh(newton_ws *ws, const double *y, double gh)
{
  int changed = 0;
  for (size_t i = 0; i < ws->dim; i++) {
    const double size = fabs(y[i]) + fabs(ws->base[i]) + fabs(gh * ws->f[i]) + ws->ymax[i];
    const double wi = 1.0 / fmax(size, 1e-300);
    if (wi < ws->w[i]) {
      ws->w[i] = wi;
      changed = 1;
    }
  }
  return changed;
}

static int rhs_failure(newton_ws *ws, double t, fb_err *err)
{
  if (ws->sys.stop == FB_BUDGET)
    return fb_err_set(err, FB_BUDGET, "RHS budget of %lu evaluations exhausted at t=%.17g",
                      ws->o.max_rhs, t);
  return fb_err_set(err, ws->sys.stop != FB_OK ? ws->sys.stop : FB_EGSL,
                    "model %s failed at t=%.17g", ws->pb->model->type->name, t);
}

/* Damped Newton on y - base - gh f(t1, y) = 0 from y (updated in place): *conv_out 1 when
 * the residual reached round-off of its terms, *rn_out the last relative residual.
 * Returns FB_OK, or the RHS's or the linear solve's failure. */
static int newton_solve(newton_ws *ws, double t1, double gh, double *y, fb_counters *cnt,
                        fb_err *err, int *conv_out, double *rn_out)
{
  const size_t dim = ws->dim;
  int st = residual(ws, t1, gh, y, ws->res);
  if (st != GSL_SUCCESS)
    return rhs_failure(ws, t1, err);
  for (size_t i = 0; i < dim; i++)
    ws->w[i] = INFINITY;
  weigh(ws, y, gh);
  double rn = res_norm(ws, ws->res);
  int converged = rn <= RES_DONE;
  *rn_out = rn;
  *conv_out = converged;
  for (int it = 0; it < NEWTON_MAX_ITER && !converged; it++) {
    cnt->ninner++;
    if (fb_system_jac(t1, y, ws->J->data, ws->dfdt, &ws->sys) != GSL_SUCCESS)
      return rhs_failure(ws, t1, err);
    /* I - gh J */
    for (size_t r = 0; r < dim; r++) {
      double *row = ws->J->data + r * dim;
      for (size_t c = 0; c < dim; c++)
        row[c] = (r == c ? 1.0 : 0.0) - gh * row[c];
    }
    memcpy(ws->dy, ws->res, dim * sizeof(double));
    cnt->nlsetups++; /* one LU factorization of I - gh J per Newton iteration */
    if (solve_in_place(ws->J->data, ws->dy, dim) != 0 || !fb_all_finite(ws->dy, dim))
      return fb_err_set(err, FB_EGSL, "%s: singular Newton matrix at t=%.17g",
                        ws->bdf2 ? "bdf2" : "beuler", t1);
    /* Line search: halve the update until the residual decreases. */
    double lambda = 1.0, rn_try = INFINITY;
    for (int k = 0; k <= NEWTON_MAX_HALVINGS; k++, lambda *= 0.5) {
      for (size_t i = 0; i < dim; i++)
        ws->ytry[i] = y[i] - lambda * ws->dy[i];
      st = residual(ws, t1, gh, ws->ytry, ws->res);
      if (st != GSL_SUCCESS) {
        if (ws->sys.stop == FB_BUDGET)
          return rhs_failure(ws, t1, err);
        ws->sys.stop = FB_OK; /* a model refusing a trial state: shorten the update */
        continue;
      }
      rn_try = res_norm(ws, ws->res);
      /* The first update is taken whole: at y_n a component can be 0 with all its
       * terms (x and v at rest), so its weight is only known after one step. */
      if (it == 0 || rn_try < rn || rn_try <= RES_DONE)
        break;
    }
    if (it > 0 && !(rn_try < rn || rn_try <= RES_DONE)) {
      /* No decrease along the Newton direction: near round-off that is the solution. */
      converged = rn <= RES_STALL;
      break;
    }
    memcpy(y, ws->ytry, dim * sizeof(double));
    if (weigh(ws, y, gh) || it == 0)
      rn_try = res_norm(ws, ws->res);
    rn = rn_try;
    converged = rn <= RES_DONE;
  }
  *rn_out = rn;
  *conv_out = converged;
  return FB_OK;
}

/* The last resort: continuation in the step.  The same equation with gh scaled by k/K,
 * k = 1..K, each solved by damped Newton from the previous solution (gh -> 0: the solution
 * is base), for K = 4, 16, ..., 4096 (elastoplastic on glowinski-tp2 at h = 9.1e-3 needs
 * the finest).  A step that breaks loose from stick (every |v_r| near 0, the
 * kink of |v_r| and a bristle's z-rate sigma0 |v_r| / S) starts Newton from y_n on the wrong
 * side of the kink; the path from base stays on the side of the solution.  Only runs when
 * Newton and the hybrid method both failed, so a step they solve is unchanged. */
static int continuation(newton_ws *ws, double t1, double gh, double *y, fb_counters *cnt,
                        fb_err *err, int *conv_out, double *rn_out)
{
  const size_t dim = ws->dim;
  for (int K = 4; K <= 4096 && !*conv_out; K *= 4) {
    memcpy(y, ws->base, dim * sizeof(double));
    int conv = 1;
    for (int k = 1; k <= K && conv; k++) {
      const int st = newton_solve(ws, t1, gh * (double)k / (double)K, y, cnt, err, &conv, rn_out);
      if (st != FB_OK && ws->sys.stop == FB_BUDGET)
        return st;
      if (st != FB_OK)
        conv = 0;
    }
    *conv_out = conv;
  }
  if (!*conv_out) /* the last stage's weights differ: report the full step's residual */
    memcpy(y, ws->y0, dim * sizeof(double));
  return FB_OK;
}

static int newton_step(void *ctx, fb_step_at *at, double *y, fb_counters *cnt,
                       fb_err *err)
{
  newton_ws *ws = ctx;
  const size_t dim = ws->dim;
  const double T = ws->pb->plant->T, t1 = at->tnew, h = at->dt;
  ws->sys.cnt = cnt;
  ws->sys.stop = FB_OK;
  ws->sys.seg_t0 = at->tseg > ws->pb->plant->t0 ? at->tseg : -(double)INFINITY;
  ws->sys.seg_t1 = at->t1 < T ? at->t1 : (double)INFINITY;
  /* Implicit Euler, or BDF2 when the previous step lies in this segment. */
  const int two = ws->bdf2 && ws->hprev > 0.0 && ws->seg == at->seg && at->t > at->tseg;
  double gamma = 1.0;
  if (two) {
    const double w = h / ws->hprev, d = 1.0 + 2.0 * w;
    gamma = (1.0 + w) / d;
    for (size_t i = 0; i < dim; i++)
      ws->base[i] = (1.0 + w) * (1.0 + w) / d * y[i] - w * w / d * ws->yprev[i];
  } else {
    memcpy(ws->base, y, dim * sizeof(double));
  }
  memcpy(ws->y0, y, dim * sizeof(double));
  const double gh = gamma * h;
  /* Newton from y_n; converged when the residual is at round-off of its terms. */
  int converged = 0;
  double rn = 0.0;
  int st = newton_solve(ws, t1, gh, y, cnt, err, &converged, &rn);
  if (st != FB_OK)
    return st;
  if (!converged) {
    /* Powell's hybrid method (GSL hybridsj, a trust region with the Jacobian) from y_n:
     * it copes with the kink of |v| at 0 where the Newton direction is no descent. */
    ws->t1 = t1;
    ws->gh = gh;
    memcpy(ws->x0->data, ws->y0, dim * sizeof(double));
    int hst = gsl_multiroot_fdfsolver_set(ws->hybrid, &ws->fdf, ws->x0);
    for (int it = 0; hst == GSL_SUCCESS && it < HYBRID_MAX_ITER; it++) {
      cnt->ninner++;
      hst = gsl_multiroot_fdfsolver_iterate(ws->hybrid);
      if (hst != GSL_SUCCESS)
        break;
      weigh(ws, ws->hybrid->x->data, gh);
      rn = res_norm(ws, ws->hybrid->f->data);
      if (rn <= RES_DONE) {
        converged = 1;
        break;
      }
    }
    if (ws->sys.stop == FB_BUDGET)
      return rhs_failure(ws, t1, err);
    if (!converged && hst != GSL_SUCCESS && rn <= RES_STALL)
      converged = 1; /* hybridsj stops making progress only at round-off here */
    if (converged)
      memcpy(y, ws->hybrid->x->data, dim * sizeof(double));
  }
  if (!converged) {
    st = continuation(ws, t1, gh, y, cnt, err, &converged, &rn);
    if (st != FB_OK)
      return st;
  }
  if (!converged)
    return fb_err_set(err, FB_EGSL,
                      "%s: Newton did not converge at t=%.17g (relative residual %.3g "
                      "after Newton and Powell's hybrid method); try a smaller --h",
                      ws->bdf2 ? "bdf2" : "beuler", t1, rn);
  memcpy(ws->yprev, ws->y0, dim * sizeof(double));
  for (size_t i = 0; i < dim; i++)
    ws->ymax[i] = fmax(ws->ymax[i], fabs(y[i]));
  ws->hprev = h;
  ws->seg = at->seg;
  return FB_OK;
}

static int newton_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)at;
  (void)y;
  (void)err;
  ((newton_ws *)wsv)->sys.cnt = cnt;
  return FB_OK;
}

/* The driver stops the run before a step unless 4 more evaluations fit the budget (a
 * step's Newton solve needs a few; the exact count is known only afterwards). */
static unsigned long newton_rhs_per_step(const void *ws)
{
  (void)ws;
  return 4;
}

static const int is_euler = 0, is_bdf2 = 1;

const fb_integrator_type fb_integrator_beuler = {
    "beuler", "implicit Euler, fixed step, Newton with the Jacobian and line search (L-stable)",
    FB_MODEL_ODE, 1, 0, 1, 1, &is_euler, newton_alloc, NULL, newton_free, 0,
    newton_reset, newton_step, NULL, newton_rhs_per_step, NULL, 0, NULL, NULL, NULL, 0, NULL, 1, NULL};

const fb_integrator_type fb_integrator_bdf2 = {
    "bdf2", "BDF2, fixed step (implicit Euler after each break), Newton with line search",
    FB_MODEL_ODE, 1, 0, 1, 2, &is_bdf2, newton_alloc, NULL, newton_free, 0,
    newton_reset, newton_step, NULL, newton_rhs_per_step, NULL, 0, NULL, NULL, NULL, 0, NULL, 1, NULL};
