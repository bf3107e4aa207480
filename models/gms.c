/* gms.c — the Generalized Maxwell-Slip model (F. Al-Bender, V. Lampaert, J. Swevers, "The
 * generalized Maxwell-slip model: a novel model for friction simulation and compensation",
 * IEEE TAC 50(11) 2005, 1883-1887 [AlBender2005]; "Modeling of dry sliding friction
 * dynamics: from heuristic models to physically motivated models and back", Chaos 14(2)
 * 2004 [AlBender2004]; docs/models/gms.md).
 *
 * N elasto-slide elements in parallel, element i with stiffness k_i and slip force
 * W_i(v) = alpha_i S(|v|), sum alpha_i = 1 (S: the contact's characteristic, so the
 * elements together slide on the Stribeck curve).  State z_i: element i's deflection (m),
 * its force k_i z_i.  Presliding is hysteretic with non-local memory (each element
 * remembers where it last slipped).
 *
 * variant = smooth (default; our reading, the per-element LuGre-type state equation that
 * [AlBender2004] §4 writes for one element):
 *     dz_i/dt = v - |v| k_i z_i / W_i(v),
 * variant = hybrid ([AlBender2005] eqs. 2-3, the paper's element): element i sticks,
 *     dz_i/dt = v,                          while |k_i z_i| < W_i or v k_i z_i <= 0,
 * and slides otherwise, its force attracted to the slip force at the rate C,
 *     d(k_i z_i)/dt = sgn(v) C (alpha_i - k_i z_i / s(v)),   s(v) = sgn(v) S(|v|)
 * (the paper's Stribeck function s is odd in v).
 * The hybrid element's rate jumps (v to ~0) when it starts to slide: an error-controlled
 * stepper refines onto every such jump (the smooth variant has none).
 * Friction on the body (both variants):
 *     F = -(sum_i k_i z_i + sigma1 sum_i dz_i/dt).
 *
 * Defaults on the suite's common physics (as lugre.c): total stiffness k = sum k_i = m (2 pi
 * f_ratio f_c)^2, f_ratio = 100; sigma1 = 2 sqrt(k m) (critical with the body); alpha_i =
 * 1/N; k_i = k r^-(i-1) / sum_j r^-(j-1) with spread r = 2, so that the elements' breakaway
 * deflections W_i/k_i grow by r from one element to the next (the virgin curve's
 * breakpoints); C = k v_scale (hybrid only).  Every k_i and alpha_i is settable (k_1..k_4,
 * alpha_1..alpha_4; alphas all or none, summing to 1); the total is k_t (not k: a
 * scenario's spring is k).
 *
 * States per contact: the type declares FB_MAX_Z = 4 (the cap on states per contact,
 * include/fricbench/fb_model.h), so N <= 4; the states of elements beyond N stay 0.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

#define GMS_NMAX FB_MAX_Z

enum { GMS_SMOOTH = 0, GMS_HYBRID = 1 };

typedef struct gms_params {
  double N;              /* elements (integer, 1 .. GMS_NMAX) */
  double k;              /* total stiffness sum k_i (N/m) */
  double f_ratio;        /* element frequency over f_c, for the auto k */
  double sigma1;         /* damping of the elements' deflection rates (N s/m) */
  double spread;         /* ratio of successive breakaway deflections (1) */
  double variant;        /* GMS_SMOOTH or GMS_HYBRID */
  double C;              /* hybrid: attraction rate to the slip force (N/s) */
  double kel[GMS_NMAX];  /* k_i (N/m); NaN: from k and spread */
  double alpha[GMS_NMAX];/* alpha_i (1); NaN: 1/N */
} gms_params;

static const char *const gms_variant_names[] = {"smooth", "hybrid", NULL};

#define GMS_K_ROW(i)                                                                        \
  {"k_" #i, "N/m", "stiffness of element " #i,                                                 \
   offsetof(gms_params, kel) + ((i)-1) * sizeof(double), NAN, 0, INFINITY,                     \
   FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "k_t r^-(i-1) / sum_j r^-(j-1)", NULL}
#define GMS_A_ROW(i)                                                                        \
  {"alpha_" #i, "1", "slip-force fraction of element " #i,                                     \
   offsetof(gms_params, alpha) + ((i)-1) * sizeof(double), NAN, 0, 1, FB_PARAM_AUTO,          \
   "1/N (set all N or none; they must sum to 1)", NULL}

static const fb_param_desc gms_desc[] = {
    {"N", "1", "elasto-slide elements (at most 4, the states per contact)",
     offsetof(gms_params, N), 4, 1, GMS_NMAX, FB_PARAM_INT, NULL, NULL},
    {"k_t", "N/m", "total stiffness sum k_i (the virgin curve's initial slope)",
     offsetof(gms_params, k), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "m (2 pi f_ratio f_c)^2, as LuGre's sigma0", NULL},
    {"f_ratio", "1", "element frequency over the scenario's f_c (for auto k)",
     offsetof(gms_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"sigma1", "N s/m", "damping of the elements' deflection rates", offsetof(gms_params, sigma1),
     NAN, 0, INFINITY, FB_PARAM_AUTO, "2 sqrt(k m), critical with the body, as LuGre's", NULL},
    {"spread", "1", "ratio of successive elements' breakaway deflections W_i/k_i",
     offsetof(gms_params, spread), 2, 1, 1e6, 0, NULL, NULL},
    {"variant", "-", "element law: smooth (default) or hybrid (the paper's stick/slip)",
     offsetof(gms_params, variant), GMS_SMOOTH, 0, 1, FB_PARAM_CHOICE, NULL, gms_variant_names},
    {"C", "N/s", "hybrid: attraction rate of a sliding element's force to its slip force",
     offsetof(gms_params, C), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "k_t v_scale", NULL},
    GMS_K_ROW(1),
    GMS_K_ROW(2),
    GMS_K_ROW(3),
    GMS_K_ROW(4),
    GMS_A_ROW(1),
    GMS_A_ROW(2),
    GMS_A_ROW(3),
    GMS_A_ROW(4),
};
static const fb_param_set gms_set = {sizeof(gms_params), sizeof gms_desc / sizeof *gms_desc,
                                     gms_desc};

static const char *const gms_z[GMS_NMAX] = {"z1", "z2", "z3", "z4"};

/* The auto defaults (docs/models/gms.md): k and sigma1 as LuGre's sigma0 and sigma1, the
 * elements' split by spread, equal slip fractions.  Elements beyond N get k_i = 1 (never
 * read: their states stay 0) so that every resolved value is a number. */
static int gms_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  gms_params *p = pv;
  const size_t n = (size_t)p->N;
  size_t nset = 0;
  double asum = 0.0;
  for (size_t i = 0; i < n; i++) {
    nset += !isnan(p->alpha[i]);
    asum += p->alpha[i];
  }
  if (nset != 0 && nset != n)
    return fb_err_set(err, FB_EINVAL,
                      "gms: %zu of the N = %zu slip fractions alpha_1..alpha_%zu are set: "
                      "allowed is all of them or none",
                      nset, n, n);
  if (nset == n && !(fabs(asum - 1.0) <= 1e-9))
    return fb_err_set(err, FB_EINVAL,
                      "gms: alpha_1..alpha_%zu sum to %.17g: allowed is a sum of 1 (within 1e-9)",
                      n, asum);
  fb_auto_spring_damper(sc, p->f_ratio, &p->k, NULL);
  double wsum = 0.0;
  for (size_t i = 0; i < n; i++)
    wsum += pow(p->spread, -(double)i);
  double ksum = 0.0;
  for (size_t i = 0; i < GMS_NMAX; i++) {
    if (i >= n) {
      p->kel[i] = isnan(p->kel[i]) ? 1.0 : p->kel[i];
      p->alpha[i] = 0.0;
      continue;
    }
    if (isnan(p->alpha[i]))
      p->alpha[i] = 1.0 / (double)n;
    if (isnan(p->kel[i]))
      p->kel[i] = p->k * pow(p->spread, -(double)i) / wsum;
    ksum += p->kel[i];
  }
  p->k = ksum; /* the total of the elements actually used (the hold rule's K_t) */
  if (isnan(p->sigma1))
    p->sigma1 = 2.0 * sqrt(p->k * sc->m);
  if (isnan(p->C))
    p->C = p->k * sc->v_scale;
  return FB_OK;
}

/* Steady sliding from the start: every element at its slip force, z_i = W_i sgn v / k_i. */
static void gms_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  const gms_params *p = pv;
  const double S = fb_contact_S(c, fabs(vr0), NULL);
  for (size_t i = 0; i < GMS_NMAX; i++)
    z0[i] = i < (size_t)p->N ? p->alpha[i] * S * fb_sgn(vr0) / p->kel[i] : 0.0;
}

/* Element i's deflection rate (smooth: [AlBender2004] §4's element; hybrid:
 * [AlBender2005] eqs. 2-3), given S = S(|v|) > 0. */
static inline double gms_rate(const gms_params *p, size_t i, double v, double S, double z)
{
  const double ki = p->kel[i], Fi = ki * z, Wi = p->alpha[i] * S;
  if (p->variant == GMS_SMOOTH)
    return v - fabs(v) * Fi / Wi;
  if (fabs(Fi) < Wi || v * Fi <= 0.0)
    return v; /* sticks */
  return p->C * (fb_sgn(v) * p->alpha[i] - Fi / S) / ki;
}

static int gms_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                     double *F, double *dz)
{
  const gms_params *p = pv;
  const double S = fb_contact_S(c, fabs(vr), NULL);
  const size_t n = (size_t)p->N;
  double Fs = 0.0, rates = 0.0;
  for (size_t i = 0; i < GMS_NMAX; i++) {
    /* Without friction (S = 0) the elements carry no load: z stays (0). */
    dz[i] = i < n && S > 0.0 ? gms_rate(p, i, vr, S, z[i]) : 0.0;
    Fs += p->kel[i] * z[i];
    rates += dz[i];
  }
  *F = -(Fs + p->sigma1 * rates);
  return FB_OK;
}

/* Analytic partials (both variants; the hybrid's at its current mode). */
static int gms_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                   fb_contact_jac *J)
{
  const gms_params *p = pv;
  double dS;
  const double w = fabs(vr), S = fb_contact_S(c, w, &dS);
  const size_t n = (size_t)p->N;
  J->dF_dvr = 0.0;
  for (size_t i = 0; i < GMS_NMAX; i++) {
    double dzz = 0.0, dzv = 0.0;
    if (i < n && S > 0.0) {
      const double ki = p->kel[i], Fi = ki * z[i], Wi = p->alpha[i] * S;
      if (p->variant == GMS_SMOOTH) {
        dzz = -w * ki / Wi;
        /* d(|v|/S(|v|))/dv = sgn(v) (S - |v| S') / S^2 */
        dzv = 1.0 - Fi / p->alpha[i] * fb_sgn(vr) * (S - w * dS) / (S * S);
      } else if (fabs(Fi) < Wi || vr * Fi <= 0.0) {
        dzv = 1.0;
      } else {
        dzz = -p->C / S;
        dzv = p->C * Fi * dS * fb_sgn(vr) / (S * S * ki);
      }
    }
    for (size_t j = 0; j < GMS_NMAX; j++)
      J->ddz_dz[i * GMS_NMAX + j] = i == j ? dzz : 0.0;
    J->ddz_dvr[i] = dzv;
    J->dF_dz[i] = -(p->kel[i] + p->sigma1 * dzz);
    J->dF_dvr -= p->sigma1 * dzv;
  }
  return FB_OK;
}

/* The isotropic extension on a 2-D contact (as lugre.c's): element deflections z_i and the
 * slip u are vectors in the contact plane, dz_i = u - |u| k_i z_i / W_i (smooth); the
 * hybrid element sticks while |k_i z_i| < W_i or u . z_i <= 0 and otherwise attracts its
 * force to alpha_i S u/|u|.  States: the x entry's 4, then the y entry's 4. */
static int gms_force2(const void *pv, const fb_contact_in *c, const double *vr, const double *z,
                      double *F, double *dz)
{
  const gms_params *p = pv;
  const double w = hypot(vr[0], vr[1]), S = fb_contact_S(c, w, NULL);
  const size_t n = (size_t)p->N;
  F[0] = F[1] = 0.0;
  for (size_t i = 0; i < GMS_NMAX; i++) {
    const double zx = z[i], zy = z[GMS_NMAX + i], ki = p->kel[i];
    double rx = 0.0, ry = 0.0;
    if (i < n && S > 0.0) {
      const double Wi = p->alpha[i] * S, Fi = ki * hypot(zx, zy);
      if (p->variant == GMS_SMOOTH) {
        rx = vr[0] - w * ki * zx / Wi;
        ry = vr[1] - w * ki * zy / Wi;
      } else if (Fi < Wi || vr[0] * zx + vr[1] * zy <= 0.0 || w == 0.0) {
        rx = vr[0];
        ry = vr[1];
      } else {
        rx = p->C * (p->alpha[i] * vr[0] / w - ki * zx / S) / ki;
        ry = p->C * (p->alpha[i] * vr[1] / w - ki * zy / S) / ki;
      }
    }
    dz[i] = rx;
    dz[GMS_NMAX + i] = ry;
    F[0] -= ki * zx + p->sigma1 * rx;
    F[1] -= ki * zy + p->sigma1 * ry;
  }
  return FB_OK;
}

static void gms_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  const gms_params *p = pv;
  const double w = hypot(vr0[0], vr0[1]), S = fb_contact_S(c, w, NULL);
  for (size_t i = 0; i < GMS_NMAX; i++) {
    const double a = i < (size_t)p->N && w > 0.0 ? p->alpha[i] * S / (p->kel[i] * w) : 0.0;
    z0[i] = a * vr0[0];
    z0[GMS_NMAX + i] = a * vr0[1];
  }
}

/* The elements' energy sum k_i z_i^2 / 2 (J). */
static double gms_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const gms_params *p = pv;
  (void)c;
  double e = 0.0;
  for (size_t i = 0; i < GMS_NMAX; i++)
    e += 0.5 * p->kel[i] * z[i] * z[i];
  return e;
}

const fb_model_type fb_model_gms = {
    .name = "gms",
    .title = "Generalized Maxwell-Slip: N elasto-slide elements, hysteresis with memory",
    .reference = "Al-Bender, Lampaert & Swevers, IEEE TAC 50(11) 2005; Chaos 14 2004; "
                 "docs/models/gms.md",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    .default_integrator = "msbdf",
    .default_tol = 1e-8,
    .params = &gms_set,
    .nz = GMS_NMAX,
    .z_names = gms_z,
    .resolve = gms_resolve,
    .init = gms_init,
    .force = gms_force,
    .jac = gms_jac,
    .force2 = gms_force2,
    .init2 = gms_init2,
    .stored_energy = gms_energy,
    .stiffness_param = "k_t",
};

/* The suite's policy for gms (include/fricbench/fb_model_suite.h): a stiff element law, as
 * LuGre's. */
const fb_model_suite fb_suite_gms = {
    .model = "gms",
    .color = "#8ca252",
    /* contact: its default inner stepper is explicit (rk8pd), and the element's slip
     * relaxation Fs/(K |v_r|) vanishes with the normal load at a touchdown
     * (sphere-drop; docs/failures.md) */
    .expect_fail = {"rk4", "contact", NULL},
    .expect_fail_why = FB_EXPECT_STIFF_EXPLICIT,
    .stores_energy = 1,
    .own = {"msbdf", "rk4imp"},
    .fixed_integrator = "bdf2",
    .conv = {"bdf2", NULL},
    .wp = {"msbdf", NULL},
    .cost_integrator = "msbdf",
    .reg_param = "f_ratio",
    .reg_values = {3, 10, 30, 100, 300, 1000},
    .nreg = 6,
    .cost_hint = 3,
    .expect = "presliding hysteresis with non-local memory and the Stribeck curve in "
              "sliding; like LuGre its smooth elements drift under oscillating "
              "sub-breakaway loads (Al-Bender et al. 2005)"};
