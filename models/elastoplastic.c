/* elastoplastic.c — elasto-plastic penalty regularization (seed 004 §2; SPEC §3 M5),
 * rate form for the generic ODE steppers.
 *
 * The friction force H of a contact is an elastic spring cT on the relative
 * displacement, capped by the friction bound R0 = S(|v_r|) (return mapping):
 *     incremental (seed 004):  H_trial = H_n - cT (s_{n+1} - s_n),
 *                              H_{n+1} = clamp(H_trial, -R0, R0)
 *     rate form (here):        Hdot = -cT v_r, except Hdot = 0 when |H| >= R0 and
 *                              H v_r < 0 (loading beyond the bound)
 *     F = clamp(H - dT v_r, -R0, R0)          (dT: optional parallel damper)
 * So a stuck contact slips elastically by at most Fs/cT, and the stuck force
 * oscillates at the penalty frequency sqrt(cT/m) (seed 004 fig. 4).  Parameters: cT
 * (N/m), auto m (2 pi f_ratio f_c)^2 as Kikuuwe's K; or eps = k/cT as in the paper
 * (k = K_jj, the stiffness at the contact's DOF); dT (N s/m, default 0).
 * State: H (N).  Kind: ODE (rate form); the Newmark return-mapping scheme of the paper
 * is a model-owned integrator.
 */
#include <math.h>
#include <stddef.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_util.h"

typedef struct ep_params {
  double cT;      /* penalty stiffness (N/m) */
  double eps;     /* k / cT (1), alternative to cT */
  double dT;      /* parallel damper (N s/m) */
  double f_ratio; /* penalty frequency over f_c for the auto cT */
} ep_params;

static const fb_param_desc ep_desc[] = {
    {"cT", "N/m", "penalty (tangential contact) stiffness", offsetof(ep_params, cT), NAN, 0,
     INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "k/eps when eps is set, else m (2 pi f_ratio f_c)^2", NULL},
    {"eps", "1", "regularization parameter k/cT of seed 004 (k = stiffness at the contact)",
     offsetof(ep_params, eps), NAN, 0, INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO,
     "unused unless set", NULL},
    {"dT", "N s/m", "damper parallel to the penalty spring", offsetof(ep_params, dT), 0, 0,
     INFINITY, 0, NULL, NULL},
    {"f_ratio", "1", "penalty frequency over the scenario's f_c (for auto cT)",
     offsetof(ep_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set ep_set = {sizeof(ep_params), 4, ep_desc};
static const char *const ep_z[] = {"H"};

static int ep_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  ep_params *p = pv;
  if (!isnan(p->eps)) {
    if (!isnan(p->cT))
      return fb_err_set(err, FB_EINVAL,
                        "elastoplastic: set cT or eps, not both (cT = %g, eps = %g)", p->cT,
                        p->eps);
    if (!(sc->k > 0))
      return fb_err_set(err, FB_EINVAL,
                        "elastoplastic: eps = %g needs a stiffness k > 0 at the contact's DOF "
                        "(have k = %g): set cT instead",
                        p->eps, sc->k);
    p->cT = sc->k / p->eps;
  }
  if (isnan(p->cT)) {
    const double w = 2.0 * M_PI * p->f_ratio * sc->f_c;
    p->cT = sc->m * w * w;
  }
  return FB_OK;
}

/* A contact that starts sliding starts on the bound: H = -R0 sgn(v). */
static void ep_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  (void)pv;
  z0[0] = -fb_contact_S(c, fabs(vr0), NULL) * fb_sgn(vr0);
}

/* Seed 004 §2 in rate form (SPEC §3 M5). */
static int ep_force(const void *pv, const fb_contact_in *c, double vr, const double *z, double *F,
                    double *dz)
{
  const ep_params *p = pv;
  const double R0 = fb_contact_S(c, fabs(vr), NULL), H = z[0];
  dz[0] = (fabs(H) >= R0 && H * vr < 0.0) ? 0.0 : -p->cT * vr;
  *F = fb_clamp(H - p->dT * vr, R0);
  return FB_OK;
}

static int ep_jac(const void *pv, const fb_contact_in *c, double vr, const double *z,
                  fb_contact_jac *J)
{
  const ep_params *p = pv;
  double dS;
  const double R0 = fb_contact_S(c, fabs(vr), &dS), H = z[0], q = H - p->dT * vr;
  J->ddz_dvr[0] = (fabs(H) >= R0 && H * vr < 0.0) ? 0.0 : -p->cT;
  J->ddz_dz[0] = 0.0;
  if (fabs(q) < R0) {
    J->dF_dz[0] = 1.0;
    J->dF_dvr = -p->dT;
  } else {
    J->dF_dz[0] = 0.0;
    J->dF_dvr = fb_sgn(q) * dS * fb_sgn(vr);
  }
  return FB_OK;
}

static int ep_stick(const void *pv, const fb_contact_in *c, double vr, const double *z)
{
  const ep_params *p = pv;
  return fabs(z[0] - p->dT * vr) < fb_contact_S(c, fabs(vr), NULL);
}

const fb_model_type fb_model_elastoplastic = {
    .name = "elastoplastic",
    .title = "elasto-plastic penalty (spring cT capped by the friction bound), rate form",
    .reference = "Engleder, Vielsack & Spiess, seed 004 §2; SPEC §3 M5",
    .caps = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK,
    .default_integrator = "rk4",
    .default_tol = 0,
    .params = &ep_set,
    .nz = 1,
    .z_names = ep_z,
    .resolve = ep_resolve,
    .init = ep_init,
    .force = ep_force,
    .jac = ep_jac,
    .stick = ep_stick,
    .schemes = NULL,
};
