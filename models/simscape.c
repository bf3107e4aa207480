/* simscape.c — MathWorks Simscape's Translational Friction law ([Simscape] block
 * "Translational Friction", documented equations; docs/models/simscape.md).
 *
 *     F_S(v) = sqrt(2e) (F_brk - F_C) exp(-(v/v_St)^2) v/v_St + F_C tanh(v/v_Coul) + f v,
 *     v_St = sqrt(2) v_brk,   v_Coul = v_brk / 10,
 *
 * the force the block transmits against the relative velocity v; on the body F = -F_S(v_r).
 * The Stribeck bump's peak sits at v = v_brk: there the first term is F_brk - F_C (since
 * sqrt(2e) exp(-1/2) / sqrt(2) = 1) and the second F_C tanh(10) = F_C (1 - 4.1e-9), so
 * F_S(v_brk) = F_brk + f v_brk.  F_S(0) = 0 and F_S is odd: no stick, it creeps under any
 * load below breakaway (a slope of about (sqrt(e) F_brk + 9.4 F_C)/v_brk at v = 0).
 *
 * Parameters (Simscape's block parameter names in docs/models/simscape.md):
 *   F_brk (N)   breakaway friction force; auto: the contact's static force Fs = N mu_s at
 *               each instant (follows a time-varying normal force);
 *   F_C (N)     Coulomb friction force; auto: the contact's kinetic level N mu_inf (for a
 *               characteristic that decays to 0, leine's, its level at v_scale);
 *   v_brk (m/s) breakaway friction velocity; auto: brk_ratio v_scale, brk_ratio = 0.01
 *               (our choice: the Simscape default 0.1 m/s is absolute, and 1 % of the
 *               scenario's velocity scale keeps the bump where the motion is slow);
 *   f (N s/m)   viscous coefficient, 0 (viscous friction is the plant's damping).
 * The scenario's friction characteristic enters only through F_brk and F_C: the law has
 * its own Stribeck shape (a bump of width v_brk), as the block does.  No state.  Kind: ODE
 * with analytic Jacobian; the vector form (2-D contacts) is F = -F_S(|u|) u/|u|.
 */
#include <math.h>
#include <stddef.h>

#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"

typedef struct simscape_params {
  double F_brk;     /* breakaway friction force (N); NaN: the contact's Fs */
  double F_C;       /* Coulomb friction force (N); NaN: the contact's kinetic level */
  double v_brk;     /* breakaway friction velocity (m/s) */
  double brk_ratio; /* v_brk / v_scale for the auto v_brk */
  double f;         /* viscous friction coefficient (N s/m) */
  double v_ref;     /* the scenario's velocity scale (m/s), set by resolve, not a parameter */
} simscape_params;

static const fb_param_desc simscape_desc[] = {
    {"F_brk", "N", "breakaway friction force (Simscape: Breakaway friction force)",
     offsetof(simscape_params, F_brk), NAN, 0, INFINITY, FB_PARAM_AUTO,
     "the contact's static force Fs = N mu_s at each instant", NULL},
    {"F_C", "N", "Coulomb friction force (Simscape: Coulomb friction force)",
     offsetof(simscape_params, F_C), NAN, 0, INFINITY, FB_PARAM_AUTO,
     "the contact's kinetic level N mu_inf (at v_scale when the characteristic decays to 0)",
     NULL},
    {"v_brk", "m/s", "breakaway friction velocity (Simscape: Breakaway friction velocity)",
     offsetof(simscape_params, v_brk), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "brk_ratio times the scenario's velocity scale", NULL},
    {"brk_ratio", "1", "v_brk over the velocity scale (for auto v_brk)",
     offsetof(simscape_params, brk_ratio), 0.01, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"f", "N s/m", "viscous friction coefficient (Simscape: Viscous friction coefficient)",
     offsetof(simscape_params, f), 0, 0, INFINITY, 0, NULL, NULL},
};
static const fb_param_set simscape_set = {sizeof(simscape_params), 5, simscape_desc};

static int simscape_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  simscape_params *p = pv;
  if (isnan(p->v_brk))
    p->v_brk = p->brk_ratio * sc->v_scale;
  p->v_ref = sc->v_scale;
  if (!isnan(p->F_brk) && !isnan(p->F_C) && p->F_C > p->F_brk)
    return fb_err_set(err, FB_EINVAL,
                      "simscape: F_C = %g is above F_brk = %g: allowed is F_C <= F_brk", p->F_C,
                      p->F_brk);
  return FB_OK;
}

/* F_brk and F_C at this instant: the user's, or the contact's levels. */
static inline void simscape_levels(const simscape_params *p, const fb_contact_in *c,
                                   double *Fbrk, double *FC)
{
  *Fbrk = isnan(p->F_brk) ? c->Fs : p->F_brk;
  if (!isnan(p->F_C)) {
    *FC = p->F_C;
    return;
  }
  /* a characteristic that decays to 0 (leine) has no kinetic level: its value at the
   * scenario's velocity scale stands in */
  const double mu = fb_friction_mu_inf(c->law);
  *FC = c->N * (mu > 0.0 ? mu : fb_friction_mu(c->law, p->v_ref, NULL));
}

/* [Simscape] Translational Friction, "Equations": F_S(v) and dF_S/dv. */
static inline double simscape_law(const simscape_params *p, const fb_contact_in *c, double v,
                                  double *dF)
{
  double Fbrk, FC;
  simscape_levels(p, c, &Fbrk, &FC);
  const double vSt = sqrt(2.0) * p->v_brk, vCoul = p->v_brk / 10.0;
  const double a = sqrt(2.0 * exp(1.0)) * (Fbrk - FC), x = v / vSt, g = exp(-x * x);
  const double th = tanh(v / vCoul);
  if (dF != NULL)
    *dF = a * g * (1.0 - 2.0 * x * x) / vSt + FC * (1.0 - th * th) / vCoul + p->f;
  return a * g * x + FC * th + p->f * v;
}

static int simscape_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                          double *F, double *dz)
{
  (void)z, (void)dz;
  *F = -simscape_law(pv, c, vr, NULL);
  return FB_OK;
}

static int simscape_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                        fb_contact_jac *J)
{
  double dF;
  (void)z;
  simscape_law(pv, c, vr, &dF);
  J->dF_dvr = -dF;
  return FB_OK;
}

/* The isotropic vector form: F = -F_S(|u|) u/|u| (docs/design.md §13). */
static int simscape_force2(const void *pv, const fb_contact_in *c, const double *vr,
                           const double *z, double *F, double *dz)
{
  (void)z, (void)dz;
  const double w = hypot(vr[0], vr[1]);
  const double m = w > 0.0 ? simscape_law(pv, c, w, NULL) / w : 0.0;
  F[0] = -m * vr[0];
  F[1] = -m * vr[1];
  return FB_OK;
}

const fb_model_type fb_model_simscape = {
    .name = "simscape",
    .title = "Simscape Translational Friction: Stribeck bump at v_brk + F_C tanh (creeps)",
    .reference = "MathWorks Simscape, Translational Friction block equations; "
                 "docs/models/simscape.md",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC,
    /* stiff near v = 0 (slope ~ 11 Fs/v_brk): Simscape's own solvers are implicit */
    .default_integrator = "msbdf",
    .default_tol = 1e-8,
    .params = &simscape_set,
    .nz = 0,
    .z_names = NULL,
    .resolve = simscape_resolve,
    .force = simscape_force,
    .force2 = simscape_force2,
    .jac = simscape_jac,
};

/* The suite's policy for simscape (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_simscape = {
    .model = "simscape",
    .color = "#6b6ecf",
    .fixed_integrator = "bdf2", /* the slope at v = 0 is stiff for explicit fixed steps */
    .conv = {"bdf2", "rk4", NULL},
    .wp = {"msbdf", "rkf45", NULL},
    .cost_integrator = "msbdf",
    .own = {"msbdf", "rk4imp"},
    .reg_param = "brk_ratio",
    .reg_values = {1e-1, 3e-2, 1e-2, 3e-3, 1e-3},
    .nreg = 5,
    .cost_hint = 10,
    .expect_fail = {"rk4", NULL},
    .expect_fail_why = "the slope at v = 0, about 11 Fs/v_brk with v_brk = 0.01 v_scale, is "
                       "stiff for an explicit stepper: unstable at the coarse steps of a ladder",
    .expect = "F(0) = 0: no stick, creeps under any load below breakaway; F(v_brk) = F_brk "
              "+ f v_brk (the block's documented law)"};
