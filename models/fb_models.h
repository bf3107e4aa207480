/* fb_models.h — the models: one exported type per model file, and the registry that lists
 * them (registry.c), with the plugins' models after the built-ins. */
#ifndef FB_MODELS_H
#define FB_MODELS_H

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_registry_int.h"

/* Any integrator by name: a generic one or any model's own scheme; NULL if unknown. */
const fb_integrator_type *fb_integrator_find_any(const char *name);

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
