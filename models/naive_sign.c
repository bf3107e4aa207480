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
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct naive_params {
  double cone;     /* 2-D contacts: choice disc (isotropic), box (per axis) or poly */
  double facets;   /* cone = poly: facets N of the regular polygon */
  double rotation; /* cone = poly: angle of the first facet's normal from +x (rad) */
} naive_params;

static const char *const naive_cone_names[] = FB_CONE_NAMES_POLY_INIT;
static const fb_param_desc naive_desc[] = {
    {"cone", "-", "friction set of 2-D contacts: disc (isotropic Coulomb), box (per axis) or "
     "poly (regular polygon of `facets` facets)", offsetof(naive_params, cone), 0, 0, 2,
     FB_PARAM_CHOICE, NULL, naive_cone_names},
    {"facets", "1", "cone = poly: facets of the polygon circumscribing the disc (4: the box)",
     offsetof(naive_params, facets), 8, 3, 1024, FB_PARAM_INT, NULL, NULL},
    {"rotation", "rad", "cone = poly: angle of the first facet's normal from the x axis",
     offsetof(naive_params, rotation), 0, -6.283185307179586, 6.283185307179586, 0, NULL, NULL},
};
static const fb_param_set naive_set = {sizeof(naive_params), 3, naive_desc};

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

/* The vector form (docs/design.md §13): F = -S(|u|) u/|u| on the disc, 0 at u = 0; the
 * box cone takes the sign per axis, F_a = -S(|u|) sgn(u_a); the N-gon (cone = poly,
 * docs/models/poly-cone.md) its vertex of largest dissipation, F = -S(|u|) s_N(u)
 * (fb_poly_sign: magnitude S/cos(pi/N) off the facet normals). */
static int naive_sign_force2(const void *pv, const fb_contact_in *c, const double *vr,
                             const double *z, double *F, double *dz)
{
  const naive_params *p = pv;
  (void)z, (void)dz;
  const double w = hypot(vr[0], vr[1]), S = fb_contact_S(c, w, NULL);
  const int kind = fb_cone_kind(p->cone, p->facets, p->rotation);
  if (kind == FB_CONE_BOX) {
    F[0] = -S * fb_sgn(vr[0]);
    F[1] = -S * fb_sgn(vr[1]);
  } else if (kind == FB_CONE_POLY) {
    double s[2];
    fb_poly_sign(vr, (int)p->facets, p->rotation, s);
    F[0] = -S * s[0];
    F[1] = -S * s[1];
  } else {
    F[0] = w > 0.0 ? -S * vr[0] / w : 0.0;
    F[1] = w > 0.0 ? -S * vr[1] / w : 0.0;
  }
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
    .force2 = naive_sign_force2,
    .kernels = &naive_sign_kernels,
    .jac = naive_sign_jac,
};

/* The suite's policy for naive-sign (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_naive_sign = {
    .model = "naive-sign",
    .color = "#d62728",
    .exact_limit = 1,
    .conv = {"heun3", NULL},
    .wp = {"rkf45", NULL},
    .cost_integrator = "rkf45",
    .cost_hint = 100, /* the adaptive step collapses at every attempted stick */
    .expect = "chatters around v = 0 and never sticks (Shourbagy & Matuttis [ShourbagyMatuttis] "
              "figs. 3, 4, 7); adaptive cost explodes with mu ([ShourbagyMatuttis] §3)"
};
