/* heun3.c — Heun's third-order Runge-Kutta method as a gsl_odeiv2_step_type.
 *
 * [ShourbagyMatuttis] (Shourbagy & Matuttis) integrates with it.  Butcher tableau:
 *   c = (0, 1/3, 2/3);  a21 = 1/3;  a32 = 2/3;  b = (1/4, 0, 3/4)            (order 3)
 * Embedded second-order solution from the same stages: b^ = (-1/2, 3/2, 0), so
 *   yerr = h (3/4 k1 - 3/2 k2 + 3/4 k3),
 * which lets it run adaptively too.  Follows the shape of GSL's rk2.c.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <stdlib.h>
#include <string.h>

#include "fb_gsl_ode.h"

typedef struct heun3_state {
  double *k1, *k2, *k3, *ytmp, *y0;
} heun3_state;

static void *heun3_alloc(size_t dim)
{
  heun3_state *s = malloc(sizeof *s);
  if (s == NULL)
    return NULL;
  s->k1 = calloc(5 * dim, sizeof(double));
  if (s->k1 == NULL) {
    free(s);
    return NULL;
  }
  s->k2 = s->k1 + dim;
  s->k3 = s->k2 + dim;
  s->ytmp = s->k3 + dim;
  s->y0 = s->ytmp + dim;
  return s;
}

static int heun3_apply(void *vstate, size_t dim, double t, double h, double y[], double yerr[],
                       const double dydt_in[], double dydt_out[], const gsl_odeiv2_system *sys)
{
  heun3_state *s = vstate;
  int st;
  memcpy(s->y0, y, dim * sizeof(double));
  if (dydt_in != NULL)
    memcpy(s->k1, dydt_in, dim * sizeof(double));
  else if ((st = GSL_ODEIV_FN_EVAL(sys, t, y, s->k1)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++)
    s->ytmp[i] = y[i] + h / 3.0 * s->k1[i];
  if ((st = GSL_ODEIV_FN_EVAL(sys, t + h / 3.0, s->ytmp, s->k2)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++)
    s->ytmp[i] = y[i] + 2.0 * h / 3.0 * s->k2[i];
  if ((st = GSL_ODEIV_FN_EVAL(sys, t + 2.0 * h / 3.0, s->ytmp, s->k3)) != GSL_SUCCESS)
    return st;
  for (size_t i = 0; i < dim; i++) {
    y[i] = s->y0[i] + h * (0.25 * s->k1[i] + 0.75 * s->k3[i]);
    yerr[i] = h * (0.75 * s->k1[i] - 1.5 * s->k2[i] + 0.75 * s->k3[i]);
  }
  if (dydt_out != NULL && (st = GSL_ODEIV_FN_EVAL(sys, t + h, y, dydt_out)) != GSL_SUCCESS) {
    memcpy(y, s->y0, dim * sizeof(double)); /* GSL steppers restore y on failure */
    return st;
  }
  return GSL_SUCCESS;
}

/* GSL's driver calls set_driver on every stepper; a one-step method needs nothing. */
static int heun3_set_driver(void *vstate, const gsl_odeiv2_driver *d)
{
  (void)vstate, (void)d;
  return GSL_SUCCESS;
}

static int heun3_reset(void *vstate, size_t dim)
{
  heun3_state *s = vstate;
  memset(s->k1, 0, 5 * dim * sizeof(double));
  return GSL_SUCCESS;
}

static unsigned int heun3_order(void *vstate)
{
  (void)vstate;
  return 3;
}

static void heun3_free(void *vstate)
{
  heun3_state *s = vstate;
  free(s->k1);
  free(s);
}

static const gsl_odeiv2_step_type heun3_type = {
    "heun3", 1 /* can use dydt_in */, 1 /* gives exact dydt_out */,
    heun3_alloc, heun3_apply, heun3_set_driver, heun3_reset, heun3_order, heun3_free};

const gsl_odeiv2_step_type *fb_step_heun3 = &heun3_type;
