/* registry.c — every model, in listing order.  Adding a model: one file, one line in
 * fb_models.h, one line here, one line in meson.build, and its tests. */
#include <stddef.h>
#include <string.h>

#include "fb_models.h"

const fb_model_type *const fb_model_registry[] = {
    &fb_model_naive_sign,
    &fb_model_smooth_sign,
    &fb_model_kikuuwe,
    &fb_model_lugre,
    &fb_model_dahl,
    &fb_model_penalty,
    &fb_model_elastoplastic,
    &fb_model_switching,
    &fb_model_glowinski,
    &fb_model_karnopp,
    &fb_model_kikuuwe_be,
    &fb_model_moreau_jean,
    NULL,
};

/* Models of loaded plugins (bench/harness/plugin.c), after the built-ins.  Appended once at start
 * up, before any run; never removed (the plugin stays loaded). */
#define FB_MAX_PLUGIN_MODELS 64
static const fb_model_type *plugin_models[FB_MAX_PLUGIN_MODELS];
static size_t n_plugin_models;

const fb_model_type *fb_model_at(size_t i)
{
  const size_t n_builtin = sizeof fb_model_registry / sizeof *fb_model_registry - 1;
  if (i < n_builtin)
    return fb_model_registry[i];
  i -= n_builtin;
  return i < n_plugin_models ? plugin_models[i] : NULL;
}

int fb_model_register(const fb_model_type *t, fb_err *err)
{
  if (t == NULL || t->name == NULL || *t->name == '\0' || t->params == NULL)
    return fb_err_set(err, FB_EINVAL, "a model without a name or a parameter set");
  if (fb_model_find(t->name) != NULL)
    return fb_err_set(err, FB_EINVAL, "model '%s' is already defined", t->name);
  if (n_plugin_models == FB_MAX_PLUGIN_MODELS)
    return fb_err_set(err, FB_ENOMEM, "more than %d plugin models", FB_MAX_PLUGIN_MODELS);
  plugin_models[n_plugin_models++] = t;
  return FB_OK;
}

const fb_model_suite *fb_model_suite_of(const fb_model_type *t)
{
  return &t->suite;
}

const fb_model_type *fb_model_find(const char *name)
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
const fb_integrator_type *fb_integrator_find_any(const char *name)
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
