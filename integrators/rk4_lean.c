/* rk4_lean.c — the classical fourth-order Runge-Kutta step, without an error estimate,
 * as a gsl_odeiv2_step_type: what `rk4` means with a fixed step (--h).
 *
 *   k1 = f(t, y)                 k2 = f(t + h/2, y + h/2 k1)
 *   k3 = f(t + h/2, y + h/2 k2)  k4 = f(t + h, y + h k3)
 *   y(t + h) = y + h/6 k1 + h/3 k2 + h/3 k3 + h/6 k4                     (4 RHS per step)
 *
 * Why not GSL's gsl_odeiv2_step_rk4: it always estimates the error by step doubling (one
 * step h, then two steps h/2, returning the two half steps), 11 RHS evaluations per
 * step, which a fixed-step run never reads: ~3x the cost of the method itself, and its
 * "step h" is in fact two classical steps of h/2.  With --tol, `rk4` still runs GSL's
 * stepper, whose step-doubling estimate drives the step-size control.
 *
 * The increments are summed in the order GSL's rk4_step uses (y += h/6 k1, += h/3 k2,
 * += h/3 k3, += h/6 k4).  On failure of an evaluation y is left unchanged, as GSL's
 * steppers do.  No error estimate: yerr is set to 0.  Follows the shape of GSL's rk4.c.
 *
 * The hot path.  When the system is fricbench's scalar one (fb_system_rhs_scalar: one
 * DOF, one constant contact, dim = 2 + nz <= 2 + FB_MAX_Z), the step is taken by a copy of
 * the same arithmetic specialized for that dim (fb_kernel.h's fb_rk4_scalar_law), calling
 * the inline right-hand side instead of the function pointer: the stages then live in
 * registers rather than in memory that is read back right after being written (scalar
 * stores followed by vector loads defeat store forwarding), and only the model's force()
 * is an indirect call — none at all in a model's own kernel (FB_MODEL_KERNELS).  The
 * results are the generic path's, to the bit (tests/test_rk4_lean.c checks it).
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <stdlib.h>
#include <string.h>

#include "fb_gsl_ode.h"
#include "fb_kernel.h"

typedef struct rk4_lean_state {
  double *k, *acc, *ytmp; /* stage derivative, the running sum, the stage argument */
} rk4_lean_state;

static void *rk4_lean_alloc(size_t dim)
{
  rk4_lean_state *s = malloc(sizeof *s);
  if (s == NULL)
    return NULL;
  s->k = calloc(3 * dim, sizeof(double));
  if (s->k == NULL) {
    free(s);
    return NULL;
  }
  s->acc = s->k + dim;
  s->ytmp = s->acc + dim;
  return s;
}

/* The generic scalar path: fb_kernel.h's step with the system's law pointer. */
#define RK4_SCALAR(NZ)                                                                      \
  static int rk4_scalar_##NZ(fb_system *fs, double t, double h, double *y, double *yerr)    \
  {                                                                                         \
    return fb_rk4_scalar_law(fs, fs->force0, NZ, t, h, y, yerr);                            \
  }                                                                                         \
  static void rk4_run_##NZ(fb_system *fs, fb_fixed_run *r, double *y, double *ysave)        \
  {                                                                                         \
    fb_rk4_scalar_run_law(fs, fs->force0, NZ, r, y, ysave);                                 \
  }

RK4_SCALAR(0)
RK4_SCALAR(1)
RK4_SCALAR(2)
RK4_SCALAR(3)
RK4_SCALAR(4)
static const fb_scalar_step_fn rk4_scalar_generic[FB_MAX_Z + 1] = {
    rk4_scalar_0, rk4_scalar_1, rk4_scalar_2, rk4_scalar_3, rk4_scalar_4};
static const fb_scalar_run_fn rk4_run_generic[FB_MAX_Z + 1] = {
    rk4_run_0, rk4_run_1, rk4_run_2, rk4_run_3, rk4_run_4};

int fb_rk4_lean_scalar_step(fb_system *fs, size_t dim, double t, double h, double *y,
                            double *yerr)
{
  if (dim < 2 || dim > 2 + FB_MAX_Z)
    return -1;
  return rk4_scalar_generic[dim - 2](fs, t, h, y, yerr);
}

/* fs takes the scalar kernels (its model's, else the generic ones for its nz). */
static int has_kernels(const fb_system *fs, const fb_model_kernels **own)
{
  *own = fs->md->type->kernels;
  return fs->scalar && fs->nz <= FB_MAX_Z && fs->dim == 2 + fs->nz;
}

fb_scalar_step_fn fb_rk4_scalar_kernel(const fb_system *fs)
{
  const fb_model_kernels *k;
  if (!has_kernels(fs, &k))
    return NULL;
  return k != NULL && k->rk4_scalar != NULL ? k->rk4_scalar : rk4_scalar_generic[fs->nz];
}

fb_scalar_run_fn fb_rk4_scalar_run_kernel(const fb_system *fs)
{
  const fb_model_kernels *k;
  if (!has_kernels(fs, &k))
    return NULL;
  return k != NULL && k->rk4_run != NULL ? k->rk4_run : rk4_run_generic[fs->nz];
}

static int rk4_lean_apply(void *vstate, size_t dim, double t, double h, double y[],
                          double yerr[], const double dydt_in[], double dydt_out[],
                          const gsl_odeiv2_system *sys)
{
  rk4_lean_state *s = vstate;
  double *restrict k = s->k, *restrict acc = s->acc, *restrict ytmp = s->ytmp;
  const double h2 = 0.5 * h, h3 = h / 3.0, h6 = h / 6.0;
  int st;
  if (sys->function == fb_system_rhs_scalar && dydt_in == NULL && dydt_out == NULL &&
      yerr != NULL) {
    st = fb_rk4_lean_scalar_step(sys->params, dim, t, h, y, yerr);
    if (st != -1)
      return st;
  }
  if (dydt_in != NULL)
    memcpy(k, dydt_in, dim * sizeof(double));
  else if ((st = GSL_ODEIV_FN_EVAL(sys, t, y, k)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++) {
    acc[i] = y[i] + h6 * k[i];
    ytmp[i] = y[i] + h2 * k[i];
  }
  if ((st = GSL_ODEIV_FN_EVAL(sys, t + h2, ytmp, k)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++) {
    acc[i] += h3 * k[i];
    ytmp[i] = y[i] + h2 * k[i];
  }
  if ((st = GSL_ODEIV_FN_EVAL(sys, t + h2, ytmp, k)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++) {
    acc[i] += h3 * k[i];
    ytmp[i] = y[i] + h * k[i];
  }
  if ((st = GSL_ODEIV_FN_EVAL(sys, t + h, ytmp, k)) != GSL_SUCCESS)
    return st;
  /* Only now is y overwritten: a failed evaluation above leaves it intact. */
  if (dydt_out != NULL) {
    for (size_t i = 0; i < dim; i++)
      ytmp[i] = acc[i] + h6 * k[i];
    if ((st = GSL_ODEIV_FN_EVAL(sys, t + h, ytmp, dydt_out)) != GSL_SUCCESS)
      return st;
    memcpy(y, ytmp, dim * sizeof(double));
  } else {
    for (size_t i = 0; i < dim; i++)
      y[i] = acc[i] + h6 * k[i];
  }
  if (yerr != NULL)
    memset(yerr, 0, dim * sizeof(double));
  return GSL_SUCCESS;
}

/* GSL's driver calls set_driver on every stepper; a one-step method needs nothing. */
static int rk4_lean_set_driver(void *vstate, const gsl_odeiv2_driver *d)
{
  (void)vstate, (void)d;
  return GSL_SUCCESS;
}

static int rk4_lean_reset(void *vstate, size_t dim)
{
  rk4_lean_state *s = vstate;
  memset(s->k, 0, 3 * dim * sizeof(double));
  return GSL_SUCCESS;
}

static unsigned int rk4_lean_order(void *vstate)
{
  (void)vstate;
  return 4;
}

static void rk4_lean_free(void *vstate)
{
  rk4_lean_state *s = vstate;
  free(s->k);
  free(s);
}

static const gsl_odeiv2_step_type rk4_lean_type = {
    "rk4", 1 /* can use dydt_in */, 1 /* gives exact dydt_out */,
    rk4_lean_alloc, rk4_lean_apply, rk4_lean_set_driver, rk4_lean_reset, rk4_lean_order,
    rk4_lean_free};

const gsl_odeiv2_step_type *fb_step_rk4_lean = &rk4_lean_type;
