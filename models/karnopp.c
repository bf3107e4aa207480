/* karnopp.c — Karnopp's velocity window (D. Karnopp, "Computer simulation of stick-slip
 * friction in mechanical dynamic systems", ASME J. Dyn. Sys. Meas. Control 107 (1985)
 * 100-103; the "threshold velocity" models of [Xiong2013] §3.1; docs/design.md §3 M7).
 *
 *     |v_r| <  dv:  F = -clamp(f_app, -Fs, Fs)      (stick: cancel the other forces)
 *     |v_r| >= dv:  F = -S(|v_r|) sgn(v_r)          (slip: the characteristic)
 *
 * f_app is the sum of every non-friction force on the contact's DOF, in the contact's
 * relative frame: applied force, spring and damper, minus m udot for an accelerating
 * surface.  The integrator layer computes it (fb_contact_fapp, include/fricbench/fb_model.h) because
 * this model sets FB_MODEL_NEEDS_FAPP; for several DOFs it is
 *     f_app_i = m_i ((M^-1 (f - D v - K x))_j - udot_i),   m_i = 1/(M^-1)_jj,
 * so that a stuck DOF has zero relative acceleration as long as the other DOFs carry no
 * friction.  The weakness Karnopp's model is known for follows: with coupled contacts the
 * other contacts' friction (their stick forces included) is left out of f_app, so a
 * contact that should stay stuck receives a stick force that does not balance it, its
 * velocity leaves the window, and an error-controlled stepper chases the resulting
 * in-and-out chatter (tests/test_karnopp.c measures it on glowinski-2dof).
 *
 * Inside the window v_r is not 0 but frozen at the value it entered with (the stick force
 * cancels the acceleration), so a stuck contact creeps at up to dv: the window trades
 * creep (large dv) against the step a stepper must take to land inside it (small dv).
 * A fixed step h lands in the window only when the velocity change per step h |a| is
 * below about 2 dv; otherwise the velocity jumps across it and chatters as with the
 * naive law.
 *
 * Under error control a stuck contact is frozen exactly (zero acceleration at every stage,
 * zero error estimate), so the step grows without bound in stick and can step over a
 * short breakaway: on stick-slip, rkf45 at 1e-6 misses the slip of t ~ 4.7-5.3 and stays
 * stuck (creeping at -dv) until t ~ 8.8, where rk4 at h = 1e-3 follows the reference;
 * a step bound (hmax) is the cure, as with every frozen-state stick model.
 *
 * Parameters: dv (m/s, auto 1e-3 v_scale, the scenario's velocity scale).  No state.
 * Stick flag: 1 inside the window with |f_app| <= Fs (the stick branch holds), else 0.
 * Kind: ODE (every GSL stepper; the law jumps at |v_r| = dv, so rk1imp, msadams and msbdf
 * fail to step across the window's edge on stick-slip, as they do across naive-sign's
 * jump); analytic partials: dF/dv_r = 0 in the window (f_app
 * depends on x and v through the plant, which the partials hold fixed), -S'(|v_r|)
 * outside.
 */
#include <math.h>
#include <stddef.h>

#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_util.h"
#include "fb_model_int.h"

typedef struct karnopp_params {
  double dv;       /* half-width of the stick window (m/s) */
  double dv_ratio; /* dv / v_scale for the auto dv */
} karnopp_params;

static const fb_param_desc karnopp_desc[] = {
    {"dv", "m/s", "half-width of the stick window |v_r| < dv", offsetof(karnopp_params, dv), NAN,
     0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "dv_ratio v_scale", NULL},
    {"dv_ratio", "1", "window over the scenario's velocity scale (for the auto dv)",
     offsetof(karnopp_params, dv_ratio), 1e-3, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set karnopp_set = {sizeof(karnopp_params), 2, karnopp_desc};

static int karnopp_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  karnopp_params *p = pv;
  (void)err;
  if (isnan(p->dv))
    p->dv = p->dv_ratio * sc->v_scale;
  return FB_OK;
}

/* Karnopp 1985: the stick branch inside the window, the characteristic outside. */
static int karnopp_force(const void *pv, const fb_contact_in *c, double vr, const double *z,
                         double *F, double *dz)
{
  const karnopp_params *p = pv;
  (void)z, (void)dz;
  if (fabs(vr) < p->dv)
    *F = -fb_clamp(c->f_app, c->Fs);
  else
    *F = -fb_contact_S(c, fabs(vr), NULL) * fb_sgn(vr);
  return FB_OK;
}

/* The window in the plane (docs/design.md §13): inside |u| < dv the stick force cancels the
 * other forces up to the disc, F = -P_disc(f_app, Fs); outside the isotropic characteristic
 * F = -S(|u|) u/|u|.  f_app of both components comes from the integrator layer. */
static int karnopp_force2(const void *pv, const fb_contact_in *c, const double *vr,
                          const double *z, double *F, double *dz)
{
  const karnopp_params *p = pv;
  (void)z, (void)dz;
  const double w = hypot(vr[0], vr[1]);
  if (w < p->dv) {
    F[0] = -c->f_app;
    F[1] = -c->f_app2;
    fb_clamp2(F, c->Fs, FB_CONE_DISC);
    return FB_OK;
  }
  const double S = fb_contact_S(c, w, NULL);
  F[0] = -S * vr[0] / w;
  F[1] = -S * vr[1] / w;
  return FB_OK;
}

static int karnopp_stick2(const void *pv, const fb_contact_in *c, const double *vr,
                          const double *z)
{
  const karnopp_params *p = pv;
  (void)z;
  return hypot(vr[0], vr[1]) < p->dv && hypot(c->f_app, c->f_app2) <= c->Fs;
}

static int karnopp_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                       fb_contact_jac *J)
{
  const karnopp_params *p = pv;
  double dS;
  (void)z;
  if (fabs(vr) < p->dv) {
    J->dF_dvr = 0.0;
  } else {
    fb_contact_S(c, fabs(vr), &dS);
    J->dF_dvr = -dS;
  }
  return FB_OK;
}

static int karnopp_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const karnopp_params *p = pv;
  (void)z;
  return fabs(vr) < p->dv && fabs(c->f_app) <= c->Fs;
}

const fb_model_type fb_model_karnopp = {
    .name = "karnopp",
    .title = "Karnopp's velocity window: stick force -clamp(f_app) for |v| < dv",
    .reference = "Karnopp, ASME JDSMC 107 (1985) 100-103; [Xiong2013] §3.1 (threshold velocity)",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK | FB_MODEL_NEEDS_FAPP,
    .default_integrator = "rkf45",
    .default_tol = 1e-6,
    .params = &karnopp_set,
    .nz = 0,
    .z_names = NULL,
    .resolve = karnopp_resolve,
    .force = karnopp_force,
    .force2 = karnopp_force2,
    .stick2 = karnopp_stick2,
    .jac = karnopp_jac,
    .stick = karnopp_stick,
};

/* The suite's policy for karnopp (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_karnopp = {
    .model = "karnopp",
    .color = "#bcbd22",
    .fixed_integrator = "rk4",
    .conv = {"rk4", NULL},
    .wp = {"rkf45", "rk8pd", NULL},
    .cost_integrator = "rkf45",
    .reg_param = "dv_ratio",
    .reg_values = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5},
    .nreg = 5,
    .cost_hint = 100,
    .expect = "sticks with creep up to dv (the velocity is frozen in the window); "
              "with coupled contacts f_app omits the others' friction: chatter and "
              "collapsing adaptive steps (Karnopp 1985)"
};
