/* fb_models.h — the models: one exported type per model file, and the registry that lists
 * them (registry.c), with the plugins' models after the built-ins. */
#ifndef FB_MODELS_H
#define FB_MODELS_H

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_registry_int.h"

extern const fb_model_type fb_model_naive_sign;
extern const fb_model_type fb_model_smooth_sign;
extern const fb_model_type fb_model_kikuuwe;
extern const fb_model_type fb_model_lugre;
extern const fb_model_type fb_model_dahl;
extern const fb_model_type fb_model_penalty;
extern const fb_model_type fb_model_elastoplastic;
extern const fb_model_type fb_model_switching;
extern const fb_model_type fb_model_glowinski;
extern const fb_model_type fb_model_karnopp;
extern const fb_model_type fb_model_kikuuwe_be;
extern const fb_model_type fb_model_moreau_jean;
extern const fb_model_type fb_model_simscape;
extern const fb_model_type fb_model_gms;
extern const fb_model_type fb_model_tamsi;
extern const fb_model_type fb_model_ccp;
extern const fb_model_type fb_model_sap;

/* The two states the per-step impulse schemes (moreau-jean, ccp, sap, tamsi) report: the
 * last step's friction force and stick flag, their start and output (impulse_state.c). */
extern const char *const fb_impulse_z_names[];
void fb_impulse_init(const void *p, const fb_contact_in *c, double vr0, double *z0);
void fb_impulse_init2(const void *p, const fb_contact_in *c, const double *vr0, double *z0);
int fb_impulse_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                      double *F);

/* Their suite records (include/fricbench/fb_model_suite.h), beside each type in its file. */
extern const fb_model_suite fb_suite_naive_sign;
extern const fb_model_suite fb_suite_smooth_sign;
extern const fb_model_suite fb_suite_kikuuwe;
extern const fb_model_suite fb_suite_lugre;
extern const fb_model_suite fb_suite_dahl;
extern const fb_model_suite fb_suite_penalty;
extern const fb_model_suite fb_suite_elastoplastic;
extern const fb_model_suite fb_suite_switching;
extern const fb_model_suite fb_suite_glowinski;
extern const fb_model_suite fb_suite_karnopp;
extern const fb_model_suite fb_suite_kikuuwe_be;
extern const fb_model_suite fb_suite_moreau_jean;
extern const fb_model_suite fb_suite_simscape;
extern const fb_model_suite fb_suite_gms;
extern const fb_model_suite fb_suite_tamsi;
extern const fb_model_suite fb_suite_ccp;
extern const fb_model_suite fb_suite_sap;

#endif
