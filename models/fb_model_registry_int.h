/* fb_model_registry_int.h — the model registry's tables and the registration of a
 * plugin's model, private to models/ and the layers above it (bench/, tests/, fuzz/).
 * Plugins and embedding programs go through fb_model_at and fb_model_find
 * (include/fricbench/fb_model_registry.h) and load plugins with fb_plugin_load (issue 25
 * item 3). */
#ifndef FB_MODEL_REGISTRY_INT_H
#define FB_MODEL_REGISTRY_INT_H

#include "fb_model_registry.h"

/* The built-in models, NULL-terminated, in listing order (models/registry.c). */
extern const fb_model_type *const fb_model_registry[];
/* The built-ins' suite records, entry by entry with fb_model_registry (registry.c lists the
 * pairs). */
extern const fb_model_suite *const fb_model_suite_registry[];
/* Append a plugin's model with its suite record, or NULL for the record derived from the
 * model's science (fb_model_suite_derive); bench/harness/plugin.c checks both first.
 * FB_EINVAL when the type has no name or no parameter set, its name is taken, it has more
 * than FB_MAX_Z states or the record names another model; FB_ENOMEM when the plugin table
 * is full. */
/* The engines' models and their suite records (engines/registry.c, docs/engines.md),
 * NULL-terminated, entry by entry: fb_model_find and fb_model_suite_of find them by name,
 * fb_model_at never lists them (the suite gives engines rows of their own). */
extern const fb_model_type *const fb_engine_models[];
extern const fb_model_suite *const fb_engine_model_suites[];
int fb_model_register(const fb_model_type *t, const fb_model_suite *suite, fb_err *err);

#endif
