/* registry.c — every scenario, in listing order. */
#include <stddef.h>
#include <string.h>

#include "fb_scenarios.h"

const fb_scenario_type *const fb_scenario_registry[] = {
    &fb_scenario_inclined_block,
    &fb_scenario_stick_slip,
    &fb_scenario_drift,
    &fb_scenario_preload_hold,
    &fb_scenario_push_hold,
    &fb_scenario_belt_oscillator,
    &fb_scenario_coupled_sledges,
    &fb_scenario_two_mass_drive,
    &fb_scenario_glowinski_tp1,
    &fb_scenario_glowinski_tp2,
    &fb_scenario_glowinski_2dof,
    &fb_scenario_glowinski_3dof,
    &fb_scenario_puck,
    &fb_scenario_billiard,
    &fb_scenario_belt_2d,
    &fb_scenario_awrejcewicz,
    &fb_scenario_chain,
    NULL,
};

const fb_scenario_type *const fb_contact_scenario_registry[] = {
    &fb_scenario_bouncing_ball,
    &fb_scenario_block_drop,
    &fb_scenario_impact_oscillator,
    &fb_scenario_two_beam_impact,
    &fb_scenario_elastic_frame,
    &fb_scenario_sphere_drop,
    &fb_scenario_conveyor_wall,
    NULL,
};

/* Scenarios of loaded plugins (bench/harness/plugin.c), after the built-ins; appended at start up,
 * never removed. */
#define FB_MAX_PLUGIN_SCENARIOS 64
static const fb_scenario_type *plugin_scenarios[FB_MAX_PLUGIN_SCENARIOS];
static size_t n_plugin_scenarios;

const fb_scenario_type *fb_scenario_at(size_t i)
{
  const size_t n_builtin = sizeof fb_scenario_registry / sizeof *fb_scenario_registry - 1;
  if (i < n_builtin)
    return fb_scenario_registry[i];
  i -= n_builtin;
  return i < n_plugin_scenarios ? plugin_scenarios[i] : NULL;
}

/* The lookup by name lives with the tables it searches (as fb_model_find does in
 * models/registry.c), so that scenario.c and this file do not call each other. */
const fb_scenario_type *fb_scenario_find(const char *name)
{
  if (name == NULL)
    return NULL;
  const fb_scenario_type *t;
  for (size_t i = 0; (t = fb_scenario_at(i)) != NULL; i++)
    if (strcmp(t->name, name) == 0)
      return t;
  for (size_t i = 0; (t = fb_contact_scenario_registry[i]) != NULL; i++)
    if (strcmp(t->name, name) == 0)
      return t;
  return NULL;
}

int fb_scenario_register(const fb_scenario_type *t, fb_err *err)
{
  if (t == NULL || t->name == NULL || *t->name == '\0' || t->params == NULL || t->build == NULL)
    return fb_err_set(err, FB_EINVAL, "a scenario without a name, a parameter set or build()");
  if (fb_scenario_find(t->name) != NULL)
    return fb_err_set(err, FB_EINVAL, "scenario '%s' is already defined", t->name);
  if (n_plugin_scenarios == FB_MAX_PLUGIN_SCENARIOS)
    return fb_err_set(err, FB_ENOMEM, "more than %d plugin scenarios", FB_MAX_PLUGIN_SCENARIOS);
  plugin_scenarios[n_plugin_scenarios++] = t;
  return FB_OK;
}
