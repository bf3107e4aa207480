/* fb_scenarios.h — one exported type per scenario file, listed in registry.c, and the
 * registry's table and registration. */
#ifndef FB_SCENARIOS_H
#define FB_SCENARIOS_H

#include "fb_scenario.h"

extern const fb_scenario_type fb_scenario_inclined_block;
extern const fb_scenario_type fb_scenario_stick_slip;
extern const fb_scenario_type fb_scenario_drift;
extern const fb_scenario_type fb_scenario_preload_hold;
extern const fb_scenario_type fb_scenario_push_hold;
extern const fb_scenario_type fb_scenario_belt_oscillator;
extern const fb_scenario_type fb_scenario_coupled_sledges;
extern const fb_scenario_type fb_scenario_chain;
extern const fb_scenario_type fb_scenario_two_mass_drive;
extern const fb_scenario_type fb_scenario_glowinski_tp1;
extern const fb_scenario_type fb_scenario_glowinski_tp2;
extern const fb_scenario_type fb_scenario_glowinski_2dof;
extern const fb_scenario_type fb_scenario_glowinski_3dof;
/* 2-D contacts (docs/design.md §13) */
extern const fb_scenario_type fb_scenario_puck;
extern const fb_scenario_type fb_scenario_billiard;
extern const fb_scenario_type fb_scenario_sphere_drop;
extern const fb_scenario_type fb_scenario_belt_2d;
/* [Xiong2013] §5.3's conveyor oscillator (docs/scenarios/awrejcewicz.md) */
extern const fb_scenario_type fb_scenario_awrejcewicz;

/* Scenarios with normal contacts (docs/design.md §12): found by name (fb_scenario_find)
 * and run by the contact scheme, but kept out of fb_scenario_at and so out of the default
 * friction suite; NULL-terminated. */
extern const fb_scenario_type fb_scenario_bouncing_ball;
extern const fb_scenario_type fb_scenario_block_drop;
extern const fb_scenario_type fb_scenario_conveyor_wall;
extern const fb_scenario_type fb_scenario_impact_oscillator;
extern const fb_scenario_type fb_scenario_two_beam_impact;
extern const fb_scenario_type fb_scenario_elastic_frame;
/* elastic-frame's build into the store asked for (banded = 1: fb_plant_alloc_banded), which
 * the scenario chooses from ne (scenarios/elastic_frame.c); the tests compare the two. */
int fb_elastic_frame_build_store(const void *sp, fb_plant *pl, int banded, fb_err *err);
extern const fb_scenario_type *const fb_contact_scenario_registry[];

/* Private to scenarios/ and the layers above (issue 25 item 3); plugins and embedding
 * programs use fb_scenario_at and fb_scenario_find (include/fricbench/fb_scenario.h). */
/* The built-in scenarios, NULL-terminated, in listing order (registry.c). */
extern const fb_scenario_type *const fb_scenario_registry[];
/* Append a plugin's scenario (fb_plugin_load, after its checks): FB_EINVAL when it lacks a
 * name, parameters or build(), or its name is taken; FB_ENOMEM when the plugin table is
 * full. */
int fb_scenario_register(const fb_scenario_type *t, fb_err *err);

#endif
