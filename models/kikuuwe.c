/* kikuuwe.c — Kikuuwe's DAI-to-ODE friction model ([Xiong2013] §4.1; docs/design.md §3 M3).
 *
 * A massless anchor p is dragged by a Coulomb element and tied to the body by a spring
 * K and a damper B.  With the elongation e = s - p in relative coordinates the
 * differential algebraic inclusion is equivalent ([Xiong2013] Theorem 1:
 * y in sgn(z - a y) <=> y = sat(z/a), a > 0) to the ODE
 *
 *     F    = -Fbar sat((K e + B v_r) / Fbar),   Fbar = S(|v_r|)
 *     edot = -(K e + F) / B
 *
 * Stick (|K e + B v_r| <= Fbar): F = -(K e + B v_r), edot = v_r (anchor fixed), so the
 * body can creep by at most Fs/K.  Slip: |F| = Fbar, e relaxes to Fbar sgn/K.
 * Parameters: K (N/m), B (N s/m).  Defaults (docs/design.md §3 M3): K = m (2 pi 100 f_c)^2, B =
 * 2 sqrt(K m), m the effective mass at the contact.  State: e (m).  Kind: ODE.
 */
#include <math.h>
#include <stddef.h>

#include "fb_integrator.h"
#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct kikuuwe_params {
  double K;       /* anchor spring stiffness (N/m) */
  double B;       /* anchor damper (N s/m) */
  double f_ratio; /* f_K / f_c for the auto K */
} kikuuwe_params;

static const fb_param_desc kikuuwe_desc[] = {
    {"K", "N/m", "anchor spring stiffness", offsetof(kikuuwe_params, K), NAN, 0, INFINITY,
     FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "m (2 pi f_ratio f_c)^2", NULL},
    {"B", "N s/m", "anchor damper", offsetof(kikuuwe_params, B), NAN, 0, INFINITY,
     FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "2 sqrt(K m), critical with the body", NULL},
    {"f_ratio", "1", "anchor frequency over the scenario's f_c (for auto K)",
     offsetof(kikuuwe_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set kikuuwe_set = {sizeof(kikuuwe_params), 3, kikuuwe_desc};
static const char *const kikuuwe_z[] = {"e"};

static int kikuuwe_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  kikuuwe_params *p = pv;
  (void)err;
  fb_auto_spring_damper(sc, p->f_ratio, &p->K, &p->B);
  return FB_OK;
}

/* A contact that starts sliding starts in steady slip: e = Fbar sgn(v)/K. */
static void kikuuwe_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  const kikuuwe_params *p = pv;
  z0[0] = fb_contact_S(c, fabs(vr0), NULL) * fb_sgn(vr0) / p->K;
}

/* [Xiong2013] §4.1 (restored in docs/design.md §3 M3): F = -Fbar sat((K e + B v)/Fbar). */
static inline double kikuuwe_force_of(const kikuuwe_params *p, double Fbar, double vr, double e)
{
  const double z = p->K * e + p->B * vr;
  if (Fbar <= 0.0)
    return 0.0;
  return -Fbar * fb_sat(z / Fbar);
}

static int kikuuwe_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                         double *F, double *dz)
{
  const kikuuwe_params *p = pv;
  const double Fbar = fb_contact_S(c, fabs(vr), NULL);
  *F = kikuuwe_force_of(p, Fbar, vr, z[0]);
  dz[0] = -(p->K * z[0] + *F) / p->B; /* edot = -(K e + F)/B */
  return FB_OK;
}

static int kikuuwe_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                       fb_contact_jac *J)
{
  const kikuuwe_params *p = pv;
  double dS;
  const double Fbar = fb_contact_S(c, fabs(vr), &dS);
  const double s = p->K * z[0] + p->B * vr;
  if (Fbar > 0.0 && fabs(s) <= Fbar) { /* stick branch: F = -(K e + B v) */
    J->dF_dvr = -p->B;
    J->dF_dz[0] = -p->K;
  } else { /* slip branch: F = -Fbar sgn(s), Fbar depends on |v| */
    J->dF_dvr = -fb_sgn(s) * dS * fb_sgn(vr);
    J->dF_dz[0] = 0.0;
  }
  J->ddz_dvr[0] = -J->dF_dvr / p->B;
  J->ddz_dz[0] = -(p->K + J->dF_dz[0]) / p->B;
  return FB_OK;
}

static int kikuuwe_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const kikuuwe_params *p = pv;
  const double Fbar = fb_contact_S(c, fabs(vr), NULL);
  return fabs(p->K * z[0] + p->B * vr) < Fbar;
}

/* The vector anchor (docs/design.md §13; [Xiong2013] defines sat for vectors):
 * F = -Fbar sat((K e + B u)/Fbar), edot = -(K e + F)/B, e and u in the contact plane;
 * states z = (e_x, e_y). */
static int kikuuwe_force2(const void *pv, const fb_contact_in *c, const double *vr,
                          const double *z, double *F, double *dz)
{
  const kikuuwe_params *p = pv;
  const double Fbar = fb_contact_S(c, hypot(vr[0], vr[1]), NULL);
  double s[2] = {p->K * z[0] + p->B * vr[0], p->K * z[1] + p->B * vr[1]};
  if (Fbar > 0.0) {
    s[0] /= Fbar;
    s[1] /= Fbar;
    fb_sat2(s, FB_CONE_DISC);
    F[0] = -Fbar * s[0];
    F[1] = -Fbar * s[1];
  } else {
    F[0] = F[1] = 0.0;
  }
  dz[0] = -(p->K * z[0] + F[0]) / p->B;
  dz[1] = -(p->K * z[1] + F[1]) / p->B;
  return FB_OK;
}

/* Steady slip: e = Fbar u/(|u| K). */
static void kikuuwe_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  const kikuuwe_params *p = pv;
  const double w = hypot(vr0[0], vr0[1]), S = fb_contact_S(c, w, NULL);
  z0[0] = w > 0.0 ? S * vr0[0] / (w * p->K) : 0.0;
  z0[1] = w > 0.0 ? S * vr0[1] / (w * p->K) : 0.0;
}

static int kikuuwe_stick2(const void *pv, const fb_contact_in *c, const double *vr,
                          const double *z)
{
  const kikuuwe_params *p = pv;
  const double Fbar = fb_contact_S(c, hypot(vr[0], vr[1]), NULL);
  return hypot(p->K * z[0] + p->B * vr[0], p->K * z[1] + p->B * vr[1]) < Fbar;
}

FB_MODEL_KERNELS(kikuuwe, kikuuwe_force, 1);

/* The anchor spring's energy K e^2 / 2 (J). */
static double kikuuwe_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const kikuuwe_params *p = pv;
  (void)c;
  return 0.5 * p->K * z[0] * z[0];
}


const fb_model_type fb_model_kikuuwe = {
    .stiffness_param = "K",
    .stored_energy = kikuuwe_energy,
    .name = "kikuuwe",
    .title = "DAI-to-ODE anchor model: Coulomb element + spring K + damper B",
    .reference = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §4.1, Theorem 1 (formulas restored in docs/design.md §3 M3)",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK,
    /* adaptive: a fixed default step cannot know the anchor frequency 2 pi f_ratio f_c */
    .default_integrator = "rkf45",
    .default_tol = 1e-8,
    .params = &kikuuwe_set,
    .nz = 1,
    .z_names = kikuuwe_z,
    .resolve = kikuuwe_resolve,
    .init = kikuuwe_init,
    .force = kikuuwe_force,
    .kernels = &kikuuwe_kernels,
    .jac = kikuuwe_jac,
    .output = NULL,
    .stick = kikuuwe_stick,
    .force2 = kikuuwe_force2,
    .init2 = kikuuwe_init2,
    .stick2 = kikuuwe_stick2,
    .schemes = NULL,
};

/* The suite's policy for kikuuwe (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_kikuuwe = {
    .model = "kikuuwe",
    .color = "#2ca02c",
    .expect_fail = {"rk4", NULL},
    .expect_fail_why = FB_EXPECT_STIFF_EXPLICIT,
    .stores_energy = 1,
    .fixed_integrator = "rk4",
    .conv = {"rk4", "bdf2", NULL},
    .wp = {"rkf45", "rk8pd", "msbdf", NULL},
    .cost_integrator = "rkf45",
    .reg_param = "f_ratio",
    .reg_values = {3, 10, 30, 100, 300, 1000},
    .nreg = 6,
    .cost_hint = 10,
    .expect = "sticks up to the anchor spring's compliance Fs/K, no accumulation "
              "(Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §4.1)"
};
