/* lugre.c — the LuGre model (Canudas de Wit et al. 1995; [Xiong2013] eq. 12;
 * docs/design.md §3 M4) and its special case, the Dahl model.
 *
 *     zdot = v_r - sigma0 |v_r| z / S(|v_r|)
 *     F    = -(sigma0 z + sigma1 zdot + sigma2 v_r)
 *
 * z is the mean bristle deflection (m).  Steady sliding: z = S sgn(v)/sigma0, so
 * |F| = S(|v|) + sigma2 |v| (Stribeck curve plus viscous friction).  Stiff for explicit
 * steppers (sigma0/m large; in slip the z-rate is sigma0 |v|/S).  Known to drift under
 * oscillating sub-breakaway loads ([Xiong2013] §3.1, fig. 3(b)).
 *
 * Defaults: one physics for every model (docs/design.md §1, §3).  sigma0 = m (2 pi
 * f_ratio f_c)^2 (auto, f_ratio = 100: the bristle spring is Kikuuwe's anchor spring K,
 * m the effective mass at the contact, f_c the scenario's characteristic frequency),
 * sigma1 = 2 sqrt(sigma0 m) (auto, critical damping of the bristle with the body:
 * Kikuuwe's B), sigma2 = 0 (viscous friction c_v v is plant damping, which every
 * model sees or none does).  The published set of Canudas de Wit et al. 1995 (m = 1,
 * sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m, with Fc = 1, Fs = 1.5,
 * vs = 0.001, the drift scenario's defaults) stays one command away:
 *     fricbench run --scenario drift --model lugre --set sigma0=1e5 \
 *         --set sigma1=316.22776601683796 --set sigma2=0.4
 *
 * Dahl: sigma1 = sigma2 = 0 and S = Fc, the kinetic level (no Stribeck); Fs for a
 * characteristic without a kinetic level (leine); sigma0 auto as LuGre's.  Kind: ODE
 * with analytic Jacobian.  State: z (m).
 */
#include <math.h>
#include <stddef.h>

#include "fb_kernel.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct lugre_params {
  double sigma0; /* bristle stiffness (N/m) */
  double sigma1; /* bristle damping (N s/m) */
  double sigma2; /* viscous friction (N s/m) */
  double f_ratio; /* bristle frequency over the scenario's f_c, for the auto sigma0 */
  double dahl;   /* 1: S = Fc (Dahl), fixed by the model type, not a parameter */
} lugre_params;

#define LUGRE_SIGMA0                                                                      \
  {"sigma0", "N/m", "bristle stiffness", offsetof(lugre_params, sigma0), NAN, 0, INFINITY,    \
   FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "m (2 pi f_ratio f_c)^2, as Kikuuwe's K", NULL}
#define LUGRE_F_RATIO                                                                     \
  {"f_ratio", "1", "bristle frequency over the scenario's f_c (for auto sigma0)",            \
   offsetof(lugre_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL}

static const fb_param_desc lugre_desc[] = {
    LUGRE_SIGMA0,
    {"sigma1", "N s/m", "bristle damping", offsetof(lugre_params, sigma1), NAN, 0, INFINITY,
     FB_PARAM_AUTO, "2 sqrt(sigma0 m), critical with the body, as Kikuuwe's B", NULL},
    {"sigma2", "N s/m", "viscous friction (plant damping belongs to the scenario)",
     offsetof(lugre_params, sigma2), 0, 0, INFINITY, 0, NULL, NULL},
    LUGRE_F_RATIO,
};
static const fb_param_set lugre_set = {sizeof(lugre_params), 4, lugre_desc};

static const fb_param_desc dahl_desc[] = {LUGRE_SIGMA0, LUGRE_F_RATIO};
static const fb_param_set dahl_set = {sizeof(lugre_params), 2, dahl_desc};

static const char *const lugre_z[] = {"z"};

/* The auto defaults: the bristle is Kikuuwe's anchor spring and damper ([Xiong2013] §4.1
 * defaults, docs/design.md §3 M3-M4), so the two models differ only in their law. */
static int lugre_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  lugre_params *p = pv;
  (void)err;
  fb_auto_spring_damper(sc, p->f_ratio, &p->sigma0, &p->sigma1);
  p->dahl = 0.0;
  return FB_OK;
}

static int dahl_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  lugre_params *p = pv;
  lugre_resolve(p, sc, err);
  p->sigma1 = 0.0;
  p->sigma2 = 0.0;
  p->dahl = 1.0;
  return FB_OK;
}

/* The characteristic level and its derivative in w: S(w) for LuGre, Fc for Dahl. */
static inline double lugre_level(const lugre_params *p, const fb_contact_in *c, double w,
                                 double *dS)
{
  if (p->dahl != 0.0) {
    /* Dahl's constant level is the kinetic one; a characteristic that decays to 0
     * (leine) has none, so its static level stands in. */
    const double mu = fb_friction_mu_inf(c->law);
    *dS = 0.0;
    return c->N * (mu > 0.0 ? mu : c->law->mu_s);
  }
  return fb_contact_S(c, w, dS);
}

/* A contact that starts sliding starts in steady sliding (z = S sgn v / sigma0): an
 * undeflected bristle under a moving body would add a spurious sigma1 zdot impulse. */
static void lugre_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  const lugre_params *p = pv;
  double dS;
  z0[0] = lugre_level(p, c, fabs(vr0), &dS) * fb_sgn(vr0) / p->sigma0;
}

/* docs/design.md §3 M4 (Canudas de Wit 1995): zdot = v - sigma0 |v| z / S. */
static int lugre_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                       double *F, double *dz)
{
  const lugre_params *p = pv;
  double dS;
  const double S = lugre_level(p, c, fabs(vr), &dS);
  /* Without friction (S = 0) the bristles carry no load: z stays where it is (0). */
  const double zdot = S > 0.0 ? vr - p->sigma0 * fabs(vr) * z[0] / S : 0.0;
  dz[0] = zdot;
  *F = -(p->sigma0 * z[0] + p->sigma1 * zdot + p->sigma2 * vr);
  return FB_OK;
}

static int lugre_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                     fb_contact_jac *J)
{
  const lugre_params *p = pv;
  double dS;
  const double w = fabs(vr), S = lugre_level(p, c, w, &dS);
  double dzd_dz = 0.0, dzd_dv = 0.0;
  if (S > 0.0) {
    dzd_dz = -p->sigma0 * w / S;
    /* d(|v|/S(|v|))/dv = sgn(v) (S - |v| S') / S^2 */
    dzd_dv = 1.0 - p->sigma0 * z[0] * fb_sgn(vr) * (S - w * dS) / (S * S);
  }
  J->ddz_dz[0] = dzd_dz;
  J->ddz_dvr[0] = dzd_dv;
  J->dF_dz[0] = -(p->sigma0 + p->sigma1 * dzd_dz);
  J->dF_dvr = -(p->sigma1 * dzd_dv + p->sigma2);
  return FB_OK;
}

/* The isotropic extension (docs/design.md §13): zdot = u - sigma0 |u| z / S(|u|) with the
 * bristle deflection z and the slip u vectors in the contact plane, F = -(sigma0 z +
 * sigma1 zdot + sigma2 u); states z = (z_x, z_y). */
static int lugre_force2(const void *pv, const fb_contact_in *c, const double *vr,
                        const double *z, double *F, double *dz)
{
  const lugre_params *p = pv;
  double dS;
  const double w = hypot(vr[0], vr[1]), S = lugre_level(p, c, w, &dS);
  for (int a = 0; a < 2; a++) {
    dz[a] = S > 0.0 ? vr[a] - p->sigma0 * w * z[a] / S : 0.0;
    F[a] = -(p->sigma0 * z[a] + p->sigma1 * dz[a] + p->sigma2 * vr[a]);
  }
  return FB_OK;
}

/* Steady sliding: z = S u / (|u| sigma0). */
static void lugre_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  const lugre_params *p = pv;
  double dS;
  const double w = hypot(vr0[0], vr0[1]), S = lugre_level(p, c, w, &dS);
  z0[0] = w > 0.0 ? S * vr0[0] / (w * p->sigma0) : 0.0;
  z0[1] = w > 0.0 ? S * vr0[1] / (w * p->sigma0) : 0.0;
}

FB_MODEL_KERNELS(lugre, lugre_force, 1);

/* The bristles' energy sigma0 z^2 / 2 (J). */
static double lugre_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const lugre_params *p = pv;
  (void)c;
  return 0.5 * p->sigma0 * z[0] * z[0];
}

const fb_model_type fb_model_lugre = {
    .stiffness_param = "sigma0",
    .stored_energy = lugre_energy,
    .name = "lugre",
    .title = "LuGre bristle model: presliding, Stribeck (drifts under sub-breakaway)",
    .reference = "Canudas de Wit et al. 1995; [Xiong2013] eq. 12; docs/design.md §3 M4",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    .default_integrator = "msbdf",
    .default_tol = 1e-8,
    .params = &lugre_set,
    .nz = 1,
    .z_names = lugre_z,
    .resolve = lugre_resolve,
    .init = lugre_init,
    .force = lugre_force,
    .force2 = lugre_force2,
    .init2 = lugre_init2,
    .kernels = &lugre_kernels,
    .jac = lugre_jac,
};

/* The suite's policy for lugre (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_lugre = {
    .model = "lugre",
    .color = "#1f77b4",
    /* contact: its default inner stepper is explicit (rk8pd), and the element's slip
     * relaxation Fs/(K |v_r|) vanishes with the normal load at a touchdown
     * (sphere-drop; docs/failures.md) */
    .expect_fail = {"rk4", "contact", NULL},
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
    .alt_tag = "lugre-1995",
    .alt_sets = {"sigma0=1e5", "sigma1=316.22776601683796", "sigma2=0.4", NULL},
    .cost_hint = 3,
    .expect = "presliding and Stribeck right, but drifts under oscillating "
              "sub-breakaway loads ([Xiong2013] §3.1, fig. 3(b); Dupont et al. 2002)"
};

const fb_model_type fb_model_dahl = {
    .stiffness_param = "sigma0",
    .stored_energy = lugre_energy,
    .name = "dahl",
    .title = "Dahl model: LuGre with sigma1 = sigma2 = 0 and S = Fc",
    .reference = "Dahl 1968; as the special case of LuGre in docs/design.md §3 M4",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    .default_integrator = "msbdf",
    .default_tol = 1e-8,
    .params = &dahl_set,
    .nz = 1,
    .z_names = lugre_z,
    .resolve = dahl_resolve,
    .init = lugre_init,
    .force = lugre_force,
    .force2 = lugre_force2,
    .init2 = lugre_init2,
    .kernels = &lugre_kernels,
    .jac = lugre_jac,
};

/* The suite's policy for dahl (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_dahl = {
    .model = "dahl",
    .color = "#9467bd",
    /* contact: its default inner stepper is explicit (rk8pd), and the element's slip
     * relaxation Fs/(K |v_r|) vanishes with the normal load at a touchdown
     * (sphere-drop; docs/failures.md) */
    .expect_fail = {"rk4", "contact", NULL},
    .expect_fail_why = FB_EXPECT_STIFF_EXPLICIT,
    .stores_energy = 1,
    .own = {"msbdf", "rk4imp"},
    .fixed_integrator = "bdf2", /* L-stable enough for the stiff bristle; bsimp's fixed steps refuse */
    .conv = {NULL},
    .wp = {NULL},
    .cost_integrator = "msbdf",
    .cost_hint = 3,
    .expect = "drifts under oscillating sub-breakaway loads like LuGre (no "
              "purely elastic presliding regime)"
};
