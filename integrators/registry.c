/* registry.c — the generic integrators, found by name (Lua linit.c style).
 * Model-owned schemes are listed by their models (fb_model_type.schemes). */
#include <gsl/gsl_odeiv2.h>
#include <string.h>

#include "fb_dop853.h"
#include "fb_gsl_ode.h"
#include "fb_integrator.h"
#include "fb_integrator_int.h"
#ifdef FB_HAVE_SUNDIALS
#include "fb_sundials.h"
#endif

#define FB_GSL(nm, sym, impl, ord, ttl)                                                    \
  static const fb_integrator_type gsl_##sym = {nm, ttl, FB_MODEL_ODE, 1, 1, impl, ord,     \
                                               &gsl_odeiv2_step_##sym, fb_gsl_ode_alloc, \
                                               NULL, fb_gsl_ode_free, 0, fb_gsl_ode_reset, \
                                               fb_gsl_ode_step, fb_gsl_ode_run, NULL, NULL, 0, NULL, NULL, NULL, !(impl), NULL, 0, NULL}

FB_GSL("rk2", rk2, 0, 2, "GSL explicit embedded Runge-Kutta (2, 3)");
FB_GSL("rk4", rk4, 0, 4, "classical 4th-order Runge-Kutta: --h 4 RHS/step; --tol GSL's, step-doubling error");
FB_GSL("rkf45", rkf45, 0, 5, "GSL explicit embedded Runge-Kutta-Fehlberg (4, 5)");
FB_GSL("rkck", rkck, 0, 5, "GSL explicit embedded Runge-Kutta Cash-Karp (4, 5)");
FB_GSL("rk8pd", rk8pd, 0, 8, "GSL explicit embedded Runge-Kutta Prince-Dormand (8, 9)");
FB_GSL("rk1imp", rk1imp, 1, 1, "GSL implicit Euler");
FB_GSL("rk2imp", rk2imp, 1, 2, "GSL implicit 2nd-order Runge-Kutta at the Gaussian point");
FB_GSL("rk4imp", rk4imp, 1, 4, "GSL implicit 4th-order Runge-Kutta at Gaussian points");
FB_GSL("bsimp", bsimp, 1, 0, "GSL implicit Bulirsch-Stoer (Bader-Deuflhard)");
FB_GSL("msadams", msadams, 0, 12, "GSL variable-order Adams (1-12), functional iteration");
FB_GSL("msbdf", msbdf, 1, 5, "GSL variable-order BDF (1-5), Newton with the Jacobian");

static const fb_integrator_type heun3 = {
    "heun3", "Heun's 3rd-order Runge-Kutta ([ShourbagyMatuttis]), embedded 2nd order for --tol",
    FB_MODEL_ODE, 1, 1, 0, 3, &fb_step_heun3, fb_gsl_ode_alloc, NULL,
    fb_gsl_ode_free, 0, fb_gsl_ode_reset, fb_gsl_ode_step, fb_gsl_ode_run, NULL, NULL, 0, NULL, NULL, NULL, 1, NULL, 0, NULL};

const fb_integrator_type *const fb_integrator_registry[] = {
    &gsl_rk2,    &gsl_rk4,    &gsl_rkf45, &gsl_rkck,    &gsl_rk8pd, &gsl_rk1imp,
    &gsl_rk2imp, &gsl_rk4imp, &gsl_bsimp, &gsl_msadams, &gsl_msbdf, &heun3,
    &fb_integrator_beuler, &fb_integrator_bdf2, &fb_integrator_dop853,
#ifdef FB_HAVE_SUNDIALS /* only when built with SUNDIALS (docs/integrators/sundials.md) */
    &fb_integrator_cvode_bdf, &fb_integrator_cvode_adams, &fb_integrator_arkode_erk,
    &fb_integrator_arkode_dirk, &fb_integrator_arkode_imex,
#endif
    NULL};

const fb_integrator_type *fb_integrator_find(const fb_model_type *model, const char *name)
{
  if (model->schemes != NULL)
    for (size_t i = 0; model->schemes[i] != NULL; i++)
      if (strcmp(model->schemes[i]->name, name) == 0)
        return model->schemes[i];
  for (size_t i = 0; fb_integrator_registry[i] != NULL; i++) {
    const fb_integrator_type *t = fb_integrator_registry[i];
    if (strcmp(t->name, name) == 0)
      return (model->caps & t->needs) == t->needs ? t : NULL;
  }
  return NULL;
}
