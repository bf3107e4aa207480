/* model_suite.c — the suite record of a model that supplies none, derived from its science
 * (fb_model_suite_derive, fb_model_registry.h). */
#include <string.h>

#include "fb_models.h"
#include "fb_integrator_int.h"

/* Colours of derived records, by registration order: darker shades that the built-ins'
 * records (tab10) do not use. */
static const char *const palette[] = {"#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
                                      "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363"};

void fb_model_suite_derive(const fb_model_type *t, size_t index, fb_model_suite *s)
{
  memset(s, 0, sizeof *s);
  s->model = t->name;
  s->color = palette[index % (sizeof palette / sizeof *palette)];
  const fb_integrator_type *di = fb_integrator_find(t, t->default_integrator);
  const char *fixed = di != NULL && di->fixed_ok ? t->default_integrator : NULL;
  const char *adaptive = di != NULL && di->adaptive_ok ? t->default_integrator : NULL;
  for (size_t k = 0; t->schemes != NULL && t->schemes[k] != NULL; k++) {
    if (fixed == NULL && t->schemes[k]->fixed_ok)
      fixed = t->schemes[k]->name;
    if (adaptive == NULL && t->schemes[k]->adaptive_ok)
      adaptive = t->schemes[k]->name;
  }
  if (t->caps & FB_MODEL_ODE) { /* the generic steppers run every ODE law */
    if (fixed == NULL)
      fixed = "rk4";
    if (adaptive == NULL)
      adaptive = "rkf45";
  }
  s->fixed_integrator = fixed;
  s->conv[0] = fixed;
  s->wp[0] = adaptive;
  s->cost_h = di != NULL && di->adaptive_ok ? 0.0 : 1e-3; /* the default integrator's ladder */
  s->stores_energy = t->stored_energy != NULL;
}
