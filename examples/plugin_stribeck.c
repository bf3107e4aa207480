/* plugin_stribeck.c — a fricbench plugin: the regularized Stribeck law with a stiction
 * tolerance, as the Drake simulator's continuous (MultibodyPlant) contact model uses it.
 *
 * With s = |v_r| / v_s (v_s the stiction tolerance) and mu_k(w) the scenario's own
 * characteristic (its kinetic level):
 *     mu(s) = mu_s (2 - s) s                                  s < 1   (rises from 0, C1 at 1)
 *     mu(s) = mu_s - (mu_s - mu_k) step5((s - 1) / 2)         1 <= s < 3
 *     mu(s) = mu_k                                            s >= 3
 *     F = -N mu(s) sgn(v_r),   step5(x) = 10 x^3 - 15 x^4 + 6 x^5.
 * Sources (RobotLocomotion/drake): the "Continuous Approximation of Coulomb Friction"
 * section of multibody/plant/contact_model_doxygen.h (the three intervals [0, 1), [1, 3),
 * [3, inf) of multiples of v_s), and multibody/plant/multibody_plant.cc,
 * StribeckModel::ComputeFrictionCoefficient (the step5 blend between 1 and 3) and
 * StribeckModel::ModifiedStribeck (mu x (2 - x) below 1).  Stiction is approximate: a
 * body under a tangential load f_t < mu_s N creeps at about v_s f_t / (mu_s N).
 *
 * Build (against an installed fricbench; nothing to link, the fb_ functions it calls
 * resolve to the program that loads it):
 *     cc -shared -fPIC -o plugin_stribeck.so plugin_stribeck.c $(pkg-config --cflags fricbench)
 *     fricbench --plugin ./plugin_stribeck.so run --scenario stick-slip --model drake-stribeck
 */
#include <math.h>
#include <stddef.h>

#include <fricbench/fricbench.h>

typedef struct stribeck_params {
  double v_s;   /* stiction tolerance (m/s) */
  double ratio; /* v_s / v_scale for the auto v_s */
} stribeck_params;

static const fb_param_desc stribeck_desc[] = {
    {"v_s", "m/s", "stiction tolerance: the creep speed at the edge of the friction cone",
     offsetof(stribeck_params, v_s), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "ratio v_scale", NULL},
    {"ratio", "1", "auto v_s over the scenario's velocity scale", offsetof(stribeck_params, ratio),
     1e-3, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set stribeck_set = {sizeof(stribeck_params), 2, stribeck_desc};

static int stribeck_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  stribeck_params *p = pv;
  (void)err;
  if (isnan(p->v_s))
    p->v_s = p->ratio * sc->v_scale;
  return FB_OK;
}

static double step5(double x)
{
  return x * x * x * (10.0 + x * (6.0 * x - 15.0));
}

/* N mu(s) at w = |v_r|. */
static double stribeck_level(const stribeck_params *p, const fb_contact_in *c, double w)
{
  const double s = w / p->v_s, Fs = c->Fs;
  if (s < 1.0)
    return Fs * (2.0 - s) * s;
  const double Fk = fb_contact_S(c, w, NULL); /* the scenario's level at this speed */
  if (s < 3.0)
    return Fs - (Fs - Fk) * step5(0.5 * (s - 1.0));
  return Fk;
}

static int stribeck_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                          double *F, double *dz)
{
  (void)z, (void)dz;
  const double lvl = stribeck_level(pv, c, fabs(vr));
  *F = vr > 0 ? -lvl : vr < 0 ? lvl : 0.0;
  return FB_OK;
}

/* Drake applies the law to the slip velocity vector: F = -N mu(|u|) u/|u| (2-D contacts,
 * docs/design.md §13). */
static int stribeck_force2(const void *pv, const fb_contact_in *c, const double *vr,
                           const double *z, double *F, double *dz)
{
  (void)z, (void)dz;
  const double w = hypot(vr[0], vr[1]), lvl = w > 0.0 ? stribeck_level(pv, c, w) / w : 0.0;
  F[0] = -lvl * vr[0];
  F[1] = -lvl * vr[1];
  return FB_OK;
}

/* Inside the stiction tolerance the law holds the body (up to its creep). */
static int stribeck_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const stribeck_params *p = pv;
  (void)c, (void)z;
  return fabs(vr) < p->v_s;
}

static const fb_model_type stribeck_model = {
    .name = "drake-stribeck",
    .title = "regularized Stribeck law with a stiction tolerance (Drake's continuous model)",
    .reference = "Drake MultibodyPlant StribeckModel (contact_model_doxygen.h, multibody_plant.cc)",
    .caps = FB_MODEL_ODE | FB_MODEL_STICK,
    .default_integrator = "msbdf",
    .default_tol = 1e-8,
    .params = &stribeck_set,
    .nz = 0,
    .z_names = NULL,
    .resolve = stribeck_resolve,
    .force = stribeck_force,
    .force2 = stribeck_force2,
    .stick = stribeck_stick,
};

/* What the suite and the report need to know (fb_model_suite): optional, matched to the model
 * by name; without it the suite derives one from the model (fb_model_suite_derive).  The
 * stiction slope 2 Fs / v_s makes explicit fixed steps unstable, so fixed steps use rk4imp. */
static const fb_model_suite stribeck_suite = {
    .model = "drake-stribeck",
    .color = "#8c564b",
    .fixed_integrator = "rk4imp",
    .conv = {"rk4imp", NULL},
    .wp = {"msbdf", "rk4imp", NULL},
    .cost_integrator = "msbdf",
    .reg_param = "v_s",
    .reg_values = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6},
    .nreg = 5,
    .cost_hint = 10,
    .expect = "creeps at about v_s f_t / (mu_s N) below the breakaway, so it drifts under "
              "sub-breakaway loads, less as v_s shrinks (Drake's stiction tolerance)"};

/* What fricbench looks for (fb_plugin.h). */
const int fb_plugin_abi = FB_ABI_VERSION;
const fb_model_type *const fb_plugin_models[] = {&stribeck_model, NULL};
const int fb_plugin_suite_abi = FB_SUITE_ABI_VERSION;
const fb_model_suite *const fb_plugin_model_suites[] = {&stribeck_suite, NULL};
