/* fb_model_registry.h — finding models by name: the built-ins of models/registry.c, then
 * the models of loaded plugins.  Public (installed with fb_model.h, the contract). */
#ifndef FB_MODEL_REGISTRY_H
#define FB_MODEL_REGISTRY_H

#include "fb_model.h"

/* Registry (models/registry.c): the built-in models, NULL-terminated, in listing order.
 * fb_model_at(i) walks the built-ins and then the models of loaded plugins (NULL past
 * the end); every listing, lookup and default table goes through it. */
extern const fb_model_type *const fb_model_registry[];
FB_API const fb_model_type *fb_model_at(size_t i);
FB_API const fb_model_type *fb_model_find(const char *name);
/* Append a plugin's model (bench/harness/plugin.c checks names first).  FB_EINVAL when the type
 * has no name or no parameter set or its name is taken, FB_ENOMEM when the plugin table
 * is full. */
int fb_model_register(const fb_model_type *t, fb_err *err);
/* The suite's policy for model t (core/fb_model_suite.h): every reader in bench/ goes
 * through this one lookup.  Never NULL. */
FB_API const fb_model_suite *fb_model_suite_of(const fb_model_type *t);

#endif
