/* fb_model_registry.h — finding models by name: the built-ins of models/registry.c, then
 * the models of loaded plugins.  Public (installed with fb_model.h, the contract); the
 * tables themselves and the registration are the library's (models/fb_model_registry_int.h). */
#ifndef FB_MODEL_REGISTRY_H
#define FB_MODEL_REGISTRY_H

#include "fb_model.h"
#include "fb_model_suite.h"

/* fb_model_at(i) walks the built-in models (models/registry.c) and then the models of
 * loaded plugins, in listing order (NULL past the end); every listing, lookup and default
 * table goes through it. */
FB_API const fb_model_type *fb_model_at(size_t i);
FB_API const fb_model_type *fb_model_find(const char *name);
/* The suite's policy for model t (include/fricbench/fb_model_suite.h): its record, or the derived one
 * for a plugin model without; every reader in bench/ goes through this one lookup.  Never
 * NULL: a type in no registry gets the record with every field 0. */
FB_API const fb_model_suite *fb_model_suite_of(const fb_model_type *t);
/* The record of a model that supplies none (models/model_suite.c), derived from its
 * science: the colour from a palette by `index` (its place in registration order), fixed
 * steps with the default integrator when it takes them (else its first fixed-step scheme,
 * else rk4 for an ODE law), convergence with that one, work-precision with the default
 * when adaptive (else its first adaptive scheme, else rkf45 for an ODE law), the cost
 * ladder with the default (fixed h 1e-3 when it takes no tolerance), stores_energy when it
 * has stored_energy(); no regularization sweep, no alternative set, no grid, no exact limit,
 * the default own reference, no expected failures. */
FB_API void fb_model_suite_derive(const fb_model_type *t, size_t index, fb_model_suite *s);

#endif
