/* naive_sign.c — the dynamic Coulomb law applied everywhere ([ShourbagyMatuttis] eq. 1; docs/design.md §3 M1).
 *
 *     F = -S(|v_r|) sgn(v_r),   sgn(0) = 0
 *
 * No state, no parameters, no stick: the classic baseline.  With a fixed step the
 * velocity chatters around 0 where the true solution sticks ([ShourbagyMatuttis] figs. 3, 4, 7);
 * with error control the step collapses at every attempted stick and the cost explodes
 * as the friction grows.  Kind: ODE; the Jacobian is that of the smooth branches
 * (dF/dv = -S'(|v|) away from 0, 0 at 0), the jump itself has no derivative.
 */
#include <math.h>
#include <stddef.h>

#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_util.h"

typedef struct naive_params {
  double unused_; /* no parameters; keeps the struct non-empty (C11) */
} naive_params;

static const fb_param_set naive_set = {sizeof(naive_params), 0, NULL};

/* [ShourbagyMatuttis] eq. 1. */
static int naive_sign_force(const void *p, const fb_contact_in *c, double vr, const double *z,
                            double *F, double *dz)
{
  (void)p, (void)z, (void)dz;
  *F = -fb_contact_S(c, fabs(vr), NULL) * fb_sgn(vr);
  return FB_OK;
}

static int naive_sign_jac(const void *p, const fb_contact_in *c, double vr, const double *z,
                          fb_contact_jac *J)
{
  double dS;
  (void)p, (void)z;
  fb_contact_S(c, fabs(vr), &dS);
  J->dF_dvr = vr != 0.0 ? -dS : 0.0;
  return FB_OK;
}

FB_MODEL_KERNELS(naive_sign, naive_sign_force, 0);

const fb_model_type fb_model_naive_sign = {
    .name = "naive-sign",
    .title = "dynamic Coulomb law F = -S(|v|) sgn(v) everywhere (chatters, never sticks)",
    .reference = "Shourbagy & Matuttis [ShourbagyMatuttis] eq. 1",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    .default_integrator = "heun3",
    .default_tol = 0,
    .params = &naive_set,
    .nz = 0,
    .z_names = NULL,
    .force = naive_sign_force,
    .kernels = &naive_sign_kernels,
    .jac = naive_sign_jac,
    .suite = {.color = "#d62728",
              .exact_limit = 1,
              .conv = {"heun3", NULL},
              .wp = {"rkf45", NULL},
              .cost_integrator = "rkf45",
              .cost_hint = 100, /* the adaptive step collapses at every attempted stick */
              .expect = "chatters around v = 0 and never sticks (Shourbagy & Matuttis [ShourbagyMatuttis] "
                        "figs. 3, 4, 7); adaptive cost explodes with mu ([ShourbagyMatuttis] §3)"},
};
