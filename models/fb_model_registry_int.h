/* fb_model_registry_int.h — the model registry's tables and the registration of a
 * plugin's model, private to models/ and the layers above it (bench/, tests/, fuzz/).
 * Plugins and embedding programs go through fb_model_at and fb_model_find
 * (include/fricbench/fb_model_registry.h) and load plugins with fb_plugin_load (issue 25
 * item 3). */
#ifndef FB_MODEL_REGISTRY_INT_H
#define FB_MODEL_REGISTRY_INT_H

#include "fb_integrator.h"
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
int fb_model_register(const fb_model_type *t, const fb_model_suite *suite, fb_err *err);
/* This registry's lookups (built-ins, then plugins), for models/ and the layers up to the
 * catalog: a model by name (NULL: none), a model's suite record (NULL: not registered here),
 * any integrator by name, generic or a model's own scheme (NULL: unknown).  The engines, a
 * layer above, are not among them: fb_model_find, fb_model_suite_of and
 * fb_integrator_find_any (engines/catalog.c) search both. */
const fb_model_type *fb_model_find_in_registry(const char *name);
const fb_model_suite *fb_model_suite_in_registry(const fb_model_type *t);
const fb_integrator_type *fb_integrator_find_in_registry(const char *name);

#endif
