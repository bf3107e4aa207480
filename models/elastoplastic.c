/* elastoplastic.c — the single-state elasto-plastic friction model (Dupont, Hayward,
 * Armstrong & Altpeter 2002, "Single state elastoplastic friction models", IEEE TAC
 * 47(5); docs/design.md §3 M5b).  Not [Engleder2002]'s penalty model (penalty.c).
 *
 * LuGre's state equation with a presliding regime that is purely elastic:
 *
 *     zdot = v_r (1 - alpha(z, v_r) z / z_ss(v_r)),   z_ss(v) = sgn(v) S(|v|) / sigma0
 *     F    = -(sigma0 z + sigma1 zdot + sigma2 v_r)
 *
 * (LuGre's steady state z_ss, F the force on the body), with Dupont et al.'s adhesion
 * map, its sinusoidal transition (formulas as restated in docs/design.md §3 M5b)
 *
 *     alpha = 0                                  if sgn(v) != sgn(z) or |z| <= z_ba
 *           = 1/2 sin(pi (|z| - (z_max + z_ba)/2) / (z_max - z_ba)) + 1/2
 *                                                if z_ba < |z| < z_max
 *           = 1                                  if |z| >= z_max
 *
 * z_max = |z_ss(v)| = S(|v|)/sigma0 and z_ba = r_ba z_max, the breakaway displacement
 * (0 < r_ba < 1, default 0.7).  Since v/z_ss = sigma0 |v|/S, zdot = v - alpha sigma0 |v|
 * z / S: alpha = 1 is LuGre, alpha = 0 is a pure spring (zdot = v, the anchor fixed).
 * Below z_ba the bristle deflection follows the displacement exactly, z - z0 = s - s0,
 * so an oscillating load below breakaway moves the body elastically and returns it:
 * no drift (the property Dupont et al. 2002 built the model for), where LuGre creeps a
 * little at every cycle because its alpha is 1 everywhere.  A load beyond r_ba Fs enters
 * the transition and creeps plastically, by design (on drift's near-Fs variant, peak
 * 0.9 Fs, about 1/17 of LuGre's rate).
 *
 * Parameters (per contact; defaults as LuGre's, one physics for every model):
 *   sigma0   bristle stiffness (N/m); auto m (2 pi f_ratio f_c)^2, Kikuuwe's K
 *   sigma1   bristle damping (N s/m); auto 2 sqrt(sigma0 m), critical, Kikuuwe's B
 *   sigma2   viscous friction (N s/m), default 0 (viscous friction is plant damping)
 *   r_ba     z_ba / z_max (1), in (0, 1), default 0.7
 *   f_ratio  bristle frequency over the scenario's f_c (1), default 100
 * (m: effective mass at the contact; f_c: the scenario's characteristic frequency).
 * Stick flag: alpha = 0 (the purely elastic region: |z| <= z_ba, or unloading).  Stiff
 * like LuGre (sigma0/m large): default msbdf at 1e-8.  Kind: ODE with analytic Jacobian.
 * State: z (m).
 */
#include <math.h>
#include <stddef.h>

#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct dep_params {
  double sigma0;  /* bristle stiffness (N/m) */
  double sigma1;  /* bristle damping (N s/m) */
  double sigma2;  /* viscous friction (N s/m) */
  double r_ba;    /* z_ba / z_max (1) */
  double f_ratio; /* bristle frequency over the scenario's f_c, for the auto sigma0 */
} dep_params;

static const fb_param_desc dep_desc[] = {
    {"sigma0", "N/m", "bristle stiffness", offsetof(dep_params, sigma0), NAN, 0, INFINITY,
     FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "m (2 pi f_ratio f_c)^2, as Kikuuwe's K", NULL},
    {"sigma1", "N s/m", "bristle damping", offsetof(dep_params, sigma1), NAN, 0, INFINITY,
     FB_PARAM_AUTO, "2 sqrt(sigma0 m), critical with the body, as Kikuuwe's B", NULL},
    {"sigma2", "N s/m", "viscous friction (plant damping belongs to the scenario)",
     offsetof(dep_params, sigma2), 0, 0, INFINITY, 0, NULL, NULL},
    {"r_ba", "1", "breakaway displacement over the steady deflection, z_ba / z_max",
     offsetof(dep_params, r_ba), 0.7, 0, 1, FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN, NULL, NULL},
    {"f_ratio", "1", "bristle frequency over the scenario's f_c (for auto sigma0)",
     offsetof(dep_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set dep_set = {sizeof(dep_params), 5, dep_desc};
static const char *const dep_z[] = {"z"};

/* Auto defaults: the bristle is Kikuuwe's anchor spring and damper, as LuGre's. */
static int dep_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  dep_params *p = pv;
  (void)err;
  fb_auto_spring_damper(sc, p->f_ratio, &p->sigma0, &p->sigma1);
  return FB_OK;
}

/* A contact that starts sliding starts in steady sliding, z = z_ss(v) (as LuGre). */
static void dep_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  const dep_params *p = pv;
  z0[0] = fb_contact_S(c, fabs(vr0), NULL) * fb_sgn(vr0) / p->sigma0;
}

/* Dupont et al. 2002's adhesion map with the sinusoidal transition: alpha(z, v) for z_max = S/sigma0,
 * and its partials in |z| and in z_max (0 outside the transition band). */
static inline double dep_alpha(double r_ba, double z, double vr, double zmax, double *da_dabsz,
                               double *da_dzmax)
{
  const double az = fabs(z), zba = r_ba * zmax;
  *da_dabsz = 0.0;
  *da_dzmax = 0.0;
  if (fb_sgn(vr) != fb_sgn(z) || az <= zba)
    return 0.0;
  if (az >= zmax)
    return 1.0;
  /* phi = pi (|z| - (zmax + zba)/2) / (zmax - zba) = pi/(1 - r) (|z|/zmax - (1 + r)/2) */
  const double k = M_PI / (1.0 - r_ba);
  const double phi = k * (az / zmax - 0.5 * (1.0 + r_ba)), c = 0.5 * cos(phi);
  *da_dabsz = c * k / zmax;
  *da_dzmax = -c * k * az / (zmax * zmax);
  return 0.5 * sin(phi) + 0.5;
}

/* Dupont et al. 2002 (docs/design.md §3 M5b): zdot = v - alpha sigma0 |v| z / S. */
static int dep_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                     double *F, double *dz)
{
  const dep_params *p = pv;
  const double S = fb_contact_S(c, fabs(vr), NULL);
  double zdot = vr;
  /* Without friction (S = 0) the bristle carries no load: z stays (at 0), as LuGre. */
  if (!(S > 0.0))
    zdot = 0.0;
  else if (vr != 0.0) {
    double da, dm;
    const double alpha = dep_alpha(p->r_ba, z[0], vr, S / p->sigma0, &da, &dm);
    if (alpha > 0.0)
      zdot = vr - alpha * p->sigma0 * fabs(vr) * z[0] / S;
  }
  dz[0] = zdot;
  *F = -(p->sigma0 * z[0] + p->sigma1 * zdot + p->sigma2 * vr);
  return FB_OK;
}

static int dep_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                   fb_contact_jac *J)
{
  const dep_params *p = pv;
  double dS;
  const double w = fabs(vr), S = fb_contact_S(c, w, &dS);
  double dzd_dz = 0.0, dzd_dv = S > 0.0 ? 1.0 : 0.0;
  if (S > 0.0 && vr != 0.0) {
    double da, dm;
    const double alpha = dep_alpha(p->r_ba, z[0], vr, S / p->sigma0, &da, &dm);
    const double g = p->sigma0 * w * z[0] / S; /* zdot = v - alpha g */
    /* dg/dv = sigma0 z sgn(v) (S - |v| S') / S^2;  dz_max/dv = S' sgn(v) / sigma0 */
    const double dg_dv = p->sigma0 * z[0] * fb_sgn(vr) * (S - w * dS) / (S * S);
    const double dalpha_dv = dm * dS * fb_sgn(vr) / p->sigma0;
    dzd_dz = -(da * fb_sgn(z[0]) * g + alpha * p->sigma0 * w / S);
    dzd_dv = 1.0 - (dalpha_dv * g + alpha * dg_dv);
  }
  J->ddz_dz[0] = dzd_dz;
  J->ddz_dvr[0] = dzd_dv;
  J->dF_dz[0] = -(p->sigma0 + p->sigma1 * dzd_dz);
  J->dF_dvr = -(p->sigma1 * dzd_dv + p->sigma2);
  return FB_OK;
}

/* Stuck while the bristle is in its purely elastic region (alpha = 0). */
static int dep_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const dep_params *p = pv;
  const double S = fb_contact_S(c, fabs(vr), NULL);
  if (!(S > 0.0))
    return 0;
  double da, dm;
  return dep_alpha(p->r_ba, z[0], vr, S / p->sigma0, &da, &dm) == 0.0;
}

/* The isotropic extension (docs/design.md §13): zdot = u - alpha sigma0 |u| z / S with
 * alpha of the deflection's length |z| against z_max = S/sigma0, and the adhesion map's
 * "same sign" test read as z . u > 0 (the bristle is being loaded). */
static int dep_force2(const void *pv, const fb_contact_in *c, const double *vr,
                      const double *z, double *F, double *dz)
{
  const dep_params *p = pv;
  const double w = hypot(vr[0], vr[1]), S = fb_contact_S(c, w, NULL);
  double alpha = 0.0;
  if (S > 0.0 && w > 0.0) {
    double da, dm;
    const double zl = hypot(z[0], z[1]), load = z[0] * vr[0] + z[1] * vr[1];
    alpha = dep_alpha(p->r_ba, zl, load, S / p->sigma0, &da, &dm);
  }
  for (int a = 0; a < 2; a++) {
    dz[a] = S > 0.0 ? vr[a] - alpha * p->sigma0 * w * z[a] / S : 0.0;
    F[a] = -(p->sigma0 * z[a] + p->sigma1 * dz[a] + p->sigma2 * vr[a]);
  }
  return FB_OK;
}

static void dep_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  const dep_params *p = pv;
  const double w = hypot(vr0[0], vr0[1]), S = fb_contact_S(c, w, NULL);
  z0[0] = w > 0.0 ? S * vr0[0] / (w * p->sigma0) : 0.0;
  z0[1] = w > 0.0 ? S * vr0[1] / (w * p->sigma0) : 0.0;
}

/* Stuck while the bristle is in its purely elastic region (alpha = 0). */
static int dep_stick2(const void *pv, const fb_contact_in *c, const double *vr,
                      const double *z)
{
  const dep_params *p = pv;
  const double w = hypot(vr[0], vr[1]), S = fb_contact_S(c, w, NULL);
  if (!(S > 0.0))
    return 0;
  double da, dm;
  return dep_alpha(p->r_ba, hypot(z[0], z[1]), z[0] * vr[0] + z[1] * vr[1], S / p->sigma0,
                   &da, &dm) == 0.0;
}

FB_MODEL_KERNELS(dep, dep_force, 1);

/* The elastic element's energy sigma0 z^2 / 2 (J). */
static double dep_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const dep_params *p = pv;
  (void)c;
  return 0.5 * p->sigma0 * z[0] * z[0];
}

const fb_model_type fb_model_elastoplastic = {
    .stiffness_param = "sigma0",
    .stored_energy = dep_energy,
    .name = "elastoplastic",
    .title = "single-state elasto-plastic model: LuGre with purely elastic presliding (no drift)",
    .reference = "Dupont, Hayward, Armstrong & Altpeter 2002, IEEE TAC 47(5); "
                 "docs/design.md §3 M5b",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK,
    .default_integrator = "msbdf", /* stiff like LuGre: sigma0/m large */
    .default_tol = 1e-8,
    .params = &dep_set,
    .nz = 1,
    .z_names = dep_z,
    .resolve = dep_resolve,
    .init = dep_init,
    .force = dep_force,
    .force2 = dep_force2,
    .init2 = dep_init2,
    .stick2 = dep_stick2,
    .kernels = &dep_kernels,
    .jac = dep_jac,
    .stick = dep_stick,
};

/* The suite's policy for elastoplastic (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_elastoplastic = {
    .model = "elastoplastic",
    .color = "#7f7f7f",
    .expect_fail = {"rk4", NULL},
    .expect_fail_why = FB_EXPECT_STIFF_EXPLICIT,
    .stores_energy = 1,
    .own = {"msbdf", "rk4imp"},
    .fixed_integrator = "bdf2", /* L-stable enough for the stiff bristle; bsimp's fixed steps refuse */
    .conv = {"rk4", "beuler", "bdf2", NULL},
    .wp = {"msbdf", "rk4imp", NULL},
    .cost_integrator = "msbdf",
    .reg_param = "f_ratio",
    .reg_values = {3, 10, 30, 100, 300, 1000},
    .nreg = 6,
    .cost_hint = 3,
    .expect = "no accumulation under oscillating loads below its breakaway "
              "displacement (purely elastic presliding), where LuGre drifts; "
              "plastic creep beyond r_ba Fs (Dupont et al. 2002)"
};
