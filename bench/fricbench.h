/* fricbench.h — the public API of libfricbench (docs/design.md §11).
 *
 *     cc my_sim.c $(pkg-config --cflags --libs fricbench)
 *
 * What an embedding simulator needs, all without a scenario or a plant:
 *  - a model by name: fb_model_find("kikuuwe"), fb_model_at(i) to list them;
 *  - its parameters by name: fb_model_init, fb_model_set(&m, "K", 1e4, &err),
 *    fb_model_get; the rows (unit, range, meaning) in m.type->params;
 *  - "auto" parameters from scales given directly: fb_model_resolve_scales with one
 *    fb_contact_scale {m, k, Fs, f_c, v_scale} per contact;
 *  - one contact's force and state rates (ODE family): fb_model_force, with
 *    fb_model_state_init for the initial states;
 *  - per-contact fixed steps for the schemes that really stick (fb_contact_step.h):
 *    fb_contact_step_find("relay"), fb_contact_stepper_init, fb_contact_step;
 *  - plugins: fb_plugin_load (fb_plugin.h), and the types a plugin fills
 *    (fb_model_type, fb_scenario_type, fb_param_set).
 * Every function returns an fb_status (0 = FB_OK) and fills an fb_err with one line on
 * failure; none prints or exits.  Only these declarations (marked FB_API) are exported.
 */
#ifndef FRICBENCH_H
#define FRICBENCH_H

/* Bumped whenever a public struct (fb_model_type, fb_scenario_type, fb_param_desc,
 * fb_contact_in, ...) changes layout: a plugin built for another value is refused. */
#define FB_ABI_VERSION 1

#include "fb_api.h"
#include "fb_contact_step.h"
#include "fb_friction.h"
#include "fb_model.h"
#include "fb_params.h"
#include "fb_plugin.h"
#include "fb_scenario.h"
#include "fb_status.h"

/* The library's version, e.g. "0.1.0". */
FB_API const char *fb_version(void);

#endif
