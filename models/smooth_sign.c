/* smooth_sign.c — regularization of sgn by a slope (docs/design.md §3 M1b).
 *
 *     F = -S(|v_r|) phi(v_r / eps_v)
 *
 * phi = tanh (default), algebraic x/sqrt(1+x^2), or linear saturation sat(x) (the
 * Awrejcewicz choice, [Xiong2013] §5.3).  phi = linear-frozen is [Xiong2013] eq. 50 as
 * written: the same saturation with S frozen at eps_v inside the band,
 *     F = -S(eps_v) v_r/eps_v  (|v_r| < eps_v),   F = -S(|v_r|) sgn(v_r)  beyond,
 * continuous at |v_r| = eps_v (docs/scenarios/awrejcewicz.md).  No state.  Under any load below breakaway it
 * creeps at v ~ eps_v f/Fs: no true stick, which the drift tests must show.
 * Parameters: eps_v (m/s), auto = v_ratio * the scenario's velocity scale (v_ratio
 * default 1e-3); phi.  Kind: ODE with analytic Jacobian.
 */
#include <math.h>
#include <stddef.h>

#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct smooth_params {
  double eps_v;   /* regularization velocity (m/s) */
  double v_ratio; /* eps_v / v_scale for the auto eps_v */
  double phi;     /* choice: 0 tanh, 1 algebraic, 2 linear, 3 linear-frozen */
  double cone;    /* 2-D contacts: choice disc or box */
} smooth_params;

static const char *const smooth_phi_names[] = {"tanh", "algebraic", "linear", "linear-frozen",
                                                NULL};
#define SMOOTH_PHI_FROZEN 3 /* linear saturation, S frozen at eps_v inside the band */
static const char *const smooth_cone_names[] = FB_CONE_NAMES_INIT;

static const fb_param_desc smooth_desc[] = {
    {"eps_v", "m/s", "regularization velocity", offsetof(smooth_params, eps_v), NAN, 0, INFINITY,
     FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "v_ratio times the scenario's velocity scale", NULL},
    {"v_ratio", "1", "eps_v over the velocity scale (for auto eps_v)",
     offsetof(smooth_params, v_ratio), 1e-3, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"phi", "-", "smoothing function", offsetof(smooth_params, phi), 0, 0, 3, FB_PARAM_CHOICE,
     NULL, smooth_phi_names},
    {"cone", "-", "friction set of 2-D contacts: disc (isotropic) or box (per axis)",
     offsetof(smooth_params, cone), 0, 0, 1, FB_PARAM_CHOICE, NULL, smooth_cone_names},
};
static const fb_param_set smooth_set = {sizeof(smooth_params), 4, smooth_desc};

static int smooth_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  smooth_params *p = pv;
  (void)err;
  if (isnan(p->eps_v))
    p->eps_v = p->v_ratio * sc->v_scale;
  return FB_OK;
}

/* phi(x) and phi'(x) (linear-frozen's phi is linear's: only S differs, smooth_S). */
static inline double smooth_phi(int kind, double x, double *dphi)
{
  switch (kind) {
  case 1: {
    const double q = sqrt(1.0 + x * x);
    *dphi = 1.0 / (q * q * q);
    return x / q;
  }
  case 2:
  case SMOOTH_PHI_FROZEN:
    *dphi = fabs(x) < 1.0 ? 1.0 : 0.0;
    return fb_sat(x);
  default: {
    const double th = tanh(x);
    *dphi = 1.0 - th * th;
    return th;
  }
  }
}

/* The level S the slope scales at slip speed w >= 0, and dS/dw: S(w), or for linear-frozen
 * ([Xiong2013] eq. 50) S(eps_v) inside the band |v_r| < eps_v (dS/dw = 0 there). */
static FB_HOT_INLINE double smooth_S(const smooth_params *p, const fb_contact_in *c, double w,
                                     double *dS)
{
  if ((int)p->phi == SMOOTH_PHI_FROZEN && w < p->eps_v) {
    if (dS != NULL)
      *dS = 0.0;
    return fb_contact_S(c, p->eps_v, NULL);
  }
  return fb_contact_S(c, w, dS);
}

/* docs/design.md §3 M1b. */
/* always inline: GCC's heuristics left this law (three shapes) out of line in the
 * kernels below, which cost a call per stage */
static FB_HOT_INLINE int smooth_force(const void *pv, const fb_contact_in *c, double vr,
                                      const double *z, double *F, double *dz)
{
  const smooth_params *p = pv;
  double dphi;
  (void)z, (void)dz;
  *F = -smooth_S(p, c, fabs(vr), NULL) * smooth_phi((int)p->phi, vr / p->eps_v, &dphi);
  return FB_OK;
}

static int smooth_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                      fb_contact_jac *J)
{
  const smooth_params *p = pv;
  double dS, dphi;
  (void)z;
  const double S = smooth_S(p, c, fabs(vr), &dS);
  const double ph = smooth_phi((int)p->phi, vr / p->eps_v, &dphi);
  J->dF_dvr = -dS * fb_sgn(vr) * ph - S * dphi / p->eps_v;
  return FB_OK;
}

/* The vector form (docs/design.md §13): F = -S(|u|) phi(|u|/eps_v) u/|u| on the disc; the
 * box cone smooths each axis, F_a = -S(|u|) phi(u_a/eps_v). */
static int smooth_force2(const void *pv, const fb_contact_in *c, const double *vr,
                         const double *z, double *F, double *dz)
{
  const smooth_params *p = pv;
  double dphi;
  (void)z, (void)dz;
  const double w = hypot(vr[0], vr[1]), S = smooth_S(p, c, w, NULL);
  if (p->cone == FB_CONE_BOX) {
    F[0] = -S * smooth_phi((int)p->phi, vr[0] / p->eps_v, &dphi);
    F[1] = -S * smooth_phi((int)p->phi, vr[1] / p->eps_v, &dphi);
    return FB_OK;
  }
  const double m = w > 0.0 ? S * smooth_phi((int)p->phi, w / p->eps_v, &dphi) / w : 0.0;
  F[0] = -m * vr[0];
  F[1] = -m * vr[1];
  return FB_OK;
}

FB_MODEL_KERNELS(smooth_sign, smooth_force, 0);

const fb_model_type fb_model_smooth_sign = {
    .name = "smooth-sign",
    .title = "sgn regularized by a slope: F = -S(|v|) phi(v/eps_v) (creeps, no true stick)",
    .reference = "docs/design.md §3 M1b; linear saturation as in [Xiong2013] §5.3",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    /* adaptive: the slope Fs/eps_v sets an explicit stability limit no fixed default knows */
    .default_integrator = "rkf45",
    .default_tol = 1e-8,
    .params = &smooth_set,
    .nz = 0,
    .z_names = NULL,
    .resolve = smooth_resolve,
    .force = smooth_force,
    .force2 = smooth_force2,
    .kernels = &smooth_sign_kernels,
    .jac = smooth_jac,
};

/* The suite's policy for smooth-sign (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_smooth_sign = {
    .model = "smooth-sign",
    .color = "#ff7f0e",
    .fixed_integrator = "rk4",
    .conv = {"rk4", NULL},
    .wp = {"rkf45", "rk8pd", NULL},
    .cost_integrator = "rkf45",
    .reg_param = "v_ratio",
    .reg_values = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5},
    .nreg = 5,
    .cost_hint = 10,
    .expect = "creeps under any sub-breakaway load: no true stick (a slope, not a "
              "set-valued law)"
};
