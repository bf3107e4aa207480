/* fb_model.h — the one interface of every friction treatment (docs/design.md §3).
 *
 * Two families share it:
 *  - ODE laws (caps FB_MODEL_ODE): per contact, a friction force F and the rates dz of
 *    nz internal states, functions of the relative velocity v_r and the states z.  The
 *    integrator layer assembles them with the plant into one ODE y' = f(t, y),
 *    y = [x(n), v(n), z(nc*nz)], and any GSL gsl_odeiv2 stepper drives it.
 *  - Model-owned schemes (caps FB_MODEL_OWNED): the time stepping *is* the method
 *    (operator splitting, return mapping, event-driven switching).  The model lists
 *    its own integrators in `schemes`; they advance the same y = [x, v, z] layout,
 *    where z holds what the method needs to report (multiplier, plastic force, mode).
 * A model may belong to both (penalty: rate form under GSL, Newmark of its own).
 *
 * A model never knows the scenario: it sees a contact (friction characteristic,
 * normal force) and, once, the scales used to resolve its "auto" parameters.
 * Parameters are resolved per contact (masses differ between DOFs), so every
 * per-contact function receives that contact's resolved parameter struct.
 *
 * Sign convention: F acts on the body; in slip F = -S(|v_r|) sgn(v_r).
 */
#ifndef FB_MODEL_H
#define FB_MODEL_H

#include <math.h>
#include <stddef.h>

#include "fb_api.h"
#include "fb_friction.h"
#include "fb_params.h"
#include "fb_plant.h"
#include "fb_status.h"

/* Internal states per contact, at most: a model's nz (fb_model_type) is its own, but every
 * per-contact buffer of the hot paths is sized by this bound rather than by nz, so that no
 * right-hand side or step allocates: fb_contact_jac's partials below (nz x nz), the states
 * and rates of a contact on the stack of the ODE system's difference Jacobian
 * (integrators/system.c), of the scalar kernels (integrators/fb_kernel.h, rk4_lean.c, one
 * compiled copy per nz <= FB_MAX_Z), of fb_model_force and of the metrics.  The built-ins use
 * at most 3 (kikuuwe-be).  Checked at registration: plugin_check.c refuses a plugin model with
 * nz > FB_MAX_Z, fb_model_register refuses one, and tests/test_models.c checks the built-ins.
 * Raising it is an ABI change (fb_contact_jac is public). */
#define FB_MAX_Z 4

enum fb_model_caps {
  FB_MODEL_ODE = 1u << 0,   /* force() given: runs under the generic ODE steppers */
  FB_MODEL_JAC = 1u << 1,   /* jac() given: analytic partials for implicit steppers */
  FB_MODEL_STICK = 1u << 2, /* the model has its own stick flag (stick() or output()) */
  FB_MODEL_OWNED = 1u << 3, /* schemes given: model-owned time stepping */
  /* force() reads fb_contact_in.f_app (Karnopp's stick force): the integrator layer
   * computes it, in one place (fb_contact_fapp), only for models with this flag, so the
   * others' hot paths do not pay for it. */
  FB_MODEL_NEEDS_FAPP = 1u << 4,
  /* its model-owned schemes take 2-D contacts (disc projection, docs/design.md §13); an
   * ODE law takes them when it has force2() */
  FB_MODEL_VEC2 = 1u << 5
};

/* What a model sees of one contact at time t. */
typedef struct fb_contact_in {
  const fb_friction *law; /* the characteristic's coefficient curve */
  double N;               /* normal force (N) */
  double Fs;              /* static force N mu_s (N) */
  /* Optional, set only for models with FB_MODEL_NEEDS_FAPP (NaN otherwise): the sum of
   * the non-friction forces on the contact in its relative frame, as a force at the
   * contact's effective mass (fb_contact_fapp) (N). */
  double f_app;
  double f_app2; /* the same for the y entry of a 2-D contact (NaN otherwise) (N) */
} fb_contact_in;

/* S(w) = N mu(w) (N), w = |v_r|; derivative into *dS_dw when not NULL. */
static inline double fb_contact_S(const fb_contact_in *c, double w, double *dS_dw)
{
  if (c->law->shape == FB_SHAPE_COULOMB) { /* inline the common case: mu = mu_s */
    if (dS_dw != NULL)
      *dS_dw = c->N * 0.0;
    return c->N * c->law->mu_s;
  }
  double d, mu = fb_friction_mu(c->law, w, dS_dw ? &d : NULL);
  if (dS_dw != NULL)
    *dS_dw = c->N * d;
  return c->N * mu;
}

/* Contact i of a plant as a model sees it at time t; *u receives the surface velocity. */
static inline void fb_contact_in_at(const fb_plant *pl, size_t i, double t, fb_contact_in *ci,
                                    double *u)
{
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, t, &cs);
  ci->law = &pl->contact[i].law;
  ci->N = cs.N;
  ci->Fs = cs.N * pl->contact[i].law.mu_s;
  ci->f_app = NAN;
  ci->f_app2 = NAN;
  *u = cs.u;
}

/* Largest plant for which f_app is computed (fb_problem_output keeps its n-vector on the
 * stack: no allocation per sample). */
#define FB_FAPP_NMAX 64


/* Scales handed to resolve(): where "auto" defaults come from (docs/design.md §3 M3). */
typedef struct fb_contact_scale {
  double m;       /* effective mass at the contact, 1/(M^-1)_jj (kg) */
  double k;       /* stiffness at the contact's DOF, K_jj (N/m), may be 0 */
  double Fs;      /* static friction force at t0 (N) */
  double f_c;     /* the scenario's characteristic frequency (Hz) */
  double v_scale; /* the scenario's velocity scale (m/s) */
} fb_contact_scale;

/* The auto spring and damper of every compliant element (Kikuuwe's anchor, LuGre's and the
 * elasto-plastic bristle, the penalty spring; [Xiong2013] §4.1 defaults, docs/design.md §3
 * M3): stiffness m (2 pi f_ratio f_c)^2 and critical damping 2 sqrt(K m), each set only
 * where it is still NaN (auto), so that the elements differ in their law, not their
 * defaults.  B may be NULL. */
static inline void fb_auto_spring_damper(const fb_contact_scale *sc, double f_ratio, double *K,
                                         double *B)
{
  if (isnan(*K)) {
    const double w = 2.0 * 3.14159265358979323846 * f_ratio * sc->f_c;
    *K = sc->m * w * w;
  }
  if (B != NULL && isnan(*B))
    *B = 2.0 * sqrt(*K * sc->m);
}

/* Partial derivatives of one contact's law, for implicit steppers. */
typedef struct fb_contact_jac {
  double dF_dvr;
  double dF_dz[FB_MAX_Z];
  double ddz_dvr[FB_MAX_Z];
  double ddz_dz[FB_MAX_Z * FB_MAX_Z]; /* row-major nz x nz */
} fb_contact_jac;

struct fb_integrator_type;
struct fb_model_kernels;

typedef struct fb_model_type {
  const char *name;      /* CLI name, e.g. "kikuuwe" */
  const char *title;     /* one line */
  const char *reference; /* the source: paper and equation numbers */
  unsigned caps;         /* fb_model_caps */
  const char *default_integrator;
  double default_tol; /* > 0: without --h/--tol run adaptive at this tol; 0: fixed h = T/1e4 */
  const fb_param_set *params;
  size_t nz;                  /* internal states per contact (<= FB_MAX_Z, checked at
                                 registration) */
  const char *const *z_names; /* nz names for result files */

  /* Fill the auto parameters of p (this contact's copy) from the scales and check
   * cross-parameter constraints.  May be NULL when nothing is derived. */
  int (*resolve)(void *p, const fb_contact_scale *sc, fb_err *err);
  /* Initial internal states for a contact starting at relative velocity vr0. May be
   * NULL: states start at 0. */
  void (*init)(const void *p, const fb_contact_in *c, double vr0, double *z0);
  /* ODE family: friction force and state rates.  Returns FB_OK or a failure. */
  int (*force)(const void *p, const fb_contact_in *c, double vr, const double *z, double *F,
               double *dz);
  /* Optional analytic partials of force() (caps FB_MODEL_JAC); otherwise the
   * integrator differences force(). */
  int (*jac)(const void *p, const fb_contact_in *c, double vr, const double *z,
             fb_contact_jac *J);
  /* Friction force and stick flag (1 stick, 0 slip) reported at a state.  NULL for ODE
   * models: F comes from force() and the flag from stick() (or -1 = no flag). */
  int (*output)(const void *p, const fb_contact_in *c, double vr, const double *z, double *F);
  int (*stick)(const void *p, const fb_contact_in *c, double vr, const double *z);
  /* Model-owned integrators, NULL-terminated; NULL when none. */
  const struct fb_integrator_type *const *schemes;
  /* Optional: fixed-step kernels with force() inlined (FB_MODEL_KERNELS of
   * integrators/fb_kernel.h), bit-identical to the generic path, only faster. */
  const struct fb_model_kernels *kernels;
  /* Optional: the energy (J) held by the contact's own elastic element at states z (the
   * anchor spring, the bristles, the penalty spring), for the dissipation inequality
   * dE/dt + F v_r <= 0 of docs/design.md §6.  NULL: the law stores none. */
  double (*stored_energy)(const void *p, const fb_contact_in *c, const double *z);
  /* The vector form of the ODE law for a 2-D contact (docs/design.md §13, isotropic
   * Coulomb: F in -S(|u|) Sgn(u)): the friction vector F[2] on the body from the slip
   * vr[2] and the contact's 2 nz states z (its x entry's nz, then its y entry's), their
   * rates into dz[2 nz].  NULL: the law has no vector form (a 2-D contact is refused). */
  int (*force2)(const void *p, const fb_contact_in *c, const double *vr, const double *z,
                double *F, double *dz);
  /* Initial states z0[2 nz] of a 2-D contact starting at slip vr0[2]; NULL: zeros. */
  void (*init2)(const void *p, const fb_contact_in *c, const double *vr0, double *z0);
  /* Stick flag of a 2-D contact at (vr[2], z[2 nz]); NULL: none (-1). */
  int (*stick2)(const void *p, const fb_contact_in *c, const double *vr, const double *z);
  /* The parameter holding the treatment's tangential stiffness K_t (N/m): the anchor
   * spring, the bristle sigma0, the penalty spring.  A compliant element may deflect
   * |dF|/K_t under a change dF of the stick force without slipping (the hold rule,
   * docs/design.md §10.1).  NULL: a rigid treatment (K_t infinite). */
  const char *stiffness_param;
} fb_model_type;

/* 1 when the model takes 2-D contacts: a vector ODE law or 2-D-aware schemes. */
static inline int fb_model_type_has_2d(const fb_model_type *t)
{
  return t->force2 != NULL || (t->caps & FB_MODEL_VEC2) != 0;
}

/* An instance: the user's parameters (autos still NaN) and per-contact resolved copies. */
typedef struct fb_model {
  const fb_model_type *type;
  void *params;  /* as set by the user */
  size_t nc;     /* contacts resolved */
  void *cparams; /* nc resolved copies, params->size bytes each */
} fb_model;

FB_API int fb_model_init(fb_model *m, const fb_model_type *type);
/* Resolve the auto parameters for every contact of the plant and check them. */
FB_API int fb_model_resolve(fb_model *m, const fb_plant *pl, fb_err *err);
FB_API void fb_model_free(fb_model *m);

static inline const void *fb_model_cparams(const fb_model *m, size_t i)
{
  return (const char *)m->cparams + i * m->type->params->size;
}

/* F and stick flag (1, 0, or -1 when the model has none) of contact i at a state. */
FB_API int fb_model_output(const fb_model *m, size_t i, const fb_contact_in *c, double vr, const double *z,
                    double *F, int *stick);
/* The same for the 2-D contact whose x entry is i: F[2], one stick flag, from the slip
 * vr[2] and states z[2 nz] (force2/stick2, or output() entry by entry for model-owned
 * schemes, which keep each component's force in its own states). */
FB_API int fb_model_output2(const fb_model *m, size_t i, const fb_contact_in *c, const double *vr,
                            const double *z, double *F, int *stick);


/* ---- Embedding (core/fb_model_embed.c): one model's law, contact by contact, without a plant.
 * An embedding simulator finds a type by name, fb_model_init()s an instance, sets
 * parameters by name, resolves the "auto" ones from each contact's scales, then calls
 * fb_model_force() (ODE family) or a per-contact step (fb_contact_step.h) every step. */

/* Set parameter `name` to `value` after checking it against its row (range, integer,
 * choice index).  FB_EINVAL with err naming the parameter and what is allowed. */
FB_API int fb_model_set(fb_model *m, const char *name, double value, fb_err *err);
/* Read parameter `name` of contact i's resolved copy (i < m->nc), or of the user's
 * parameters when m->nc == 0 (autos NaN); NaN when there is no such parameter. */
FB_API double fb_model_get(const fb_model *m, size_t i, const char *name);
/* Resolve the auto parameters for nc contacts, contact i from the scales sc[i] (effective
 * mass, stiffness, Fs, f_c, v_scale; docs/design.md §3), and check them. */
FB_API int fb_model_resolve_scales(fb_model *m, size_t nc, const fb_contact_scale *sc,
                                   fb_err *err);
/* Internal states z0[nz] of contact i starting at relative velocity vr0. */
FB_API int fb_model_state_init(const fb_model *m, size_t i, const fb_contact_in *c, double vr0,
                               double *z0);
/* ODE family: friction force *F on the body and state rates dz[nz] of contact i at (vr, z).
 * FB_EUNSUP for a model without force() (model-owned schemes only). */
FB_API int fb_model_force(const fb_model *m, size_t i, const fb_contact_in *c, double vr,
                          const double *z, double *F, double *dz);
/* The vector law of a 2-D contact (docs/design.md §13): friction F[2] on the body from the
 * slip vr[2] and the states z[2 nz] (x entry's, then y's), their rates into dz[2 nz], with
 * contact i's resolved parameters.  FB_EUNSUP for a model without a vector ODE law. */
FB_API int fb_model_force2(const fb_model *m, size_t i, const fb_contact_in *c, const double *vr,
                           const double *z, double *F, double *dz);

#endif
