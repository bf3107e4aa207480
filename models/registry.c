/* registry.c — every model, in listing order.  Adding a model: one file, one line in
 * fb_models.h, one line here, one line in meson.build, and its tests. */
#include <stddef.h>
#include <string.h>

#include "fb_models.h"
#include "fb_integrator_int.h"

/* The built-in models in listing order, each with its suite record (include/fricbench/fb_model_suite.h;
 * both defined in the model's file): one line per model. */
#define FB_BUILTIN_MODELS(X)                                                                   \
  X(fb_model_naive_sign, fb_suite_naive_sign)                                                  \
  X(fb_model_smooth_sign, fb_suite_smooth_sign)                                                \
  X(fb_model_kikuuwe, fb_suite_kikuuwe)                                                        \
  X(fb_model_lugre, fb_suite_lugre)                                                            \
  X(fb_model_dahl, fb_suite_dahl)                                                              \
  X(fb_model_penalty, fb_suite_penalty)                                                        \
  X(fb_model_elastoplastic, fb_suite_elastoplastic)                                            \
  X(fb_model_switching, fb_suite_switching)                                                    \
  X(fb_model_glowinski, fb_suite_glowinski)                                                    \
  X(fb_model_karnopp, fb_suite_karnopp)                                                        \
  X(fb_model_kikuuwe_be, fb_suite_kikuuwe_be)                                                  \
  X(fb_model_moreau_jean, fb_suite_moreau_jean)                                                \
  X(fb_model_simscape, fb_suite_simscape)                                                      \
  X(fb_model_gms, fb_suite_gms)                                                                \
  X(fb_model_tamsi, fb_suite_tamsi)                                                            \
  X(fb_model_ccp, fb_suite_ccp)                                                                \
  X(fb_model_sap, fb_suite_sap)

#define FB_TYPE_OF_PAIR(type, suite) &type,
#define FB_SUITE_OF_PAIR(type, suite) &suite,
const fb_model_type *const fb_model_registry[] = {FB_BUILTIN_MODELS(FB_TYPE_OF_PAIR) NULL};
const fb_model_suite *const fb_model_suite_registry[] = {FB_BUILTIN_MODELS(FB_SUITE_OF_PAIR) NULL};

#define N_BUILTIN (sizeof fb_model_registry / sizeof *fb_model_registry - 1)

/* Models of loaded plugins (bench/harness/plugin.c), after the built-ins, each with its suite
 * record: the plugin's own, or the one derived at registration (plugin_suites_derived).
 * Appended once at start up, before any run; never removed (the plugin stays loaded). */
#define FB_MAX_PLUGIN_MODELS 64
static const fb_model_type *plugin_models[FB_MAX_PLUGIN_MODELS];
static const fb_model_suite *plugin_suites[FB_MAX_PLUGIN_MODELS];
static fb_model_suite plugin_suites_derived[FB_MAX_PLUGIN_MODELS];
static size_t n_plugin_models;

const fb_model_type *fb_model_at(size_t i)
{
  if (i < N_BUILTIN)
    return fb_model_registry[i];
  i -= N_BUILTIN;
  return i < n_plugin_models ? plugin_models[i] : NULL;
}

int fb_model_register(const fb_model_type *t, const fb_model_suite *suite, fb_err *err)
{
  if (t == NULL || t->name == NULL || *t->name == '\0' || t->params == NULL)
    return fb_err_set(err, FB_EINVAL, "a model without a name or a parameter set");
  /* an engine's name is refused before (bench/harness/plugin_check.c asks fb_model_find) */
  if (fb_model_find_in_registry(t->name) != NULL)
    return fb_err_set(err, FB_EINVAL, "model '%s' is already defined", t->name);
  if (t->nz > FB_MAX_Z)
    return fb_err_set(err, FB_EINVAL, "model '%s': nz %zu is more than %d (FB_MAX_Z)", t->name,
                      t->nz, FB_MAX_Z);
  if (suite != NULL && (suite->model == NULL || strcmp(suite->model, t->name) != 0))
    return fb_err_set(err, FB_EINVAL, "model '%s': its suite record is for another model",
                      t->name);
  if (n_plugin_models == FB_MAX_PLUGIN_MODELS)
    return fb_err_set(err, FB_ENOMEM, "more than %d plugin models", FB_MAX_PLUGIN_MODELS);
  if (suite == NULL) {
    fb_model_suite_derive(t, N_BUILTIN + n_plugin_models, &plugin_suites_derived[n_plugin_models]);
    suite = &plugin_suites_derived[n_plugin_models];
  }
  plugin_suites[n_plugin_models] = suite;
  plugin_models[n_plugin_models++] = t;
  return FB_OK;
}

/* The lookups of this registry (built-ins, then plugins); the engines, a layer above, join
 * them in engines/catalog.c (fb_model_find, fb_model_suite_of, fb_integrator_find_any), so
 * that nothing here refers to a layer above models/. */
const fb_model_suite *fb_model_suite_in_registry(const fb_model_type *t)
{
  for (size_t i = 0; i < N_BUILTIN; i++)
    if (fb_model_registry[i] == t)
      return fb_model_suite_registry[i];
  for (size_t i = 0; i < n_plugin_models; i++)
    if (plugin_models[i] == t)
      return plugin_suites[i];
  return NULL;
}

const fb_model_type *fb_model_find_in_registry(const char *name)
{
  if (name == NULL)
    return NULL;
  const fb_model_type *t;
  for (size_t i = 0; (t = fb_model_at(i)) != NULL; i++)
    if (strcmp(t->name, name) == 0)
      return t;
  return NULL;
}

/* Generic integrators first, then every model's own schemes (built-ins and plugins). */
const fb_integrator_type *fb_integrator_find_in_registry(const char *name)
{
  for (size_t i = 0; fb_integrator_registry[i] != NULL; i++)
    if (strcmp(fb_integrator_registry[i]->name, name) == 0)
      return fb_integrator_registry[i];
  const fb_model_type *mt;
  for (size_t m = 0; (mt = fb_model_at(m)) != NULL; m++) {
    for (size_t i = 0; mt->schemes != NULL && mt->schemes[i] != NULL; i++)
      if (strcmp(mt->schemes[i]->name, name) == 0)
        return mt->schemes[i];
  }
  return NULL;
}
