/* catalog.c — the lookups by name over every model and integrator fricbench has: the models
 * layer's registry (built-ins, then plugins: models/registry.c) and the engines
 * (engines/registry.c, docs/engines.md).  They live here, a layer above both, so that
 * models/ never refers to the engines above it (scripts/check-layers.sh refuses a name
 * used in a folder below the one defining it); the models' own code asks the registry's
 * lookups (fb_model_find_in_registry, ...), which an engine's stepper could not serve
 * anyway (no GSL step type). */
#include <stddef.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_model_registry_int.h"

const fb_model_type *fb_model_find(const char *name)
{
  const fb_model_type *t = fb_model_find_in_registry(name);
  for (size_t i = 0; t == NULL && name != NULL && fb_engine_models[i] != NULL; i++)
    if (strcmp(fb_engine_models[i]->name, name) == 0)
      t = fb_engine_models[i];
  return t;
}

const fb_model_suite *fb_model_suite_of(const fb_model_type *t)
{
  static const fb_model_suite none; /* a type in no registry: every field its 0 meaning */
  const fb_model_suite *s = fb_model_suite_in_registry(t);
  for (size_t i = 0; s == NULL && fb_engine_models[i] != NULL; i++)
    if (fb_engine_models[i] == t)
      s = fb_engine_model_suites[i];
  return s != NULL ? s : &none;
}

const fb_integrator_type *fb_integrator_find_any(const char *name)
{
  const fb_integrator_type *it = fb_integrator_find_in_registry(name);
  const fb_model_type *mt;
  for (size_t m = 0; it == NULL && (mt = fb_engine_models[m]) != NULL; m++) /* steppers */
    for (size_t i = 0; it == NULL && mt->schemes[i] != NULL; i++)
      if (strcmp(mt->schemes[i]->name, name) == 0)
        it = mt->schemes[i];
  return it;
}
