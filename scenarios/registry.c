/* registry.c — every scenario, in listing order. */
#include <stddef.h>

#include "fb_scenarios.h"

const fb_scenario_type *const fb_scenario_registry[] = {
    &fb_scenario_inclined_block,
    &fb_scenario_stick_slip,
    &fb_scenario_drift,
    &fb_scenario_preload_hold,
    &fb_scenario_belt_oscillator,
    &fb_scenario_coupled_sledges,
    &fb_scenario_two_mass_drive,
    &fb_scenario_glowinski_tp1,
    &fb_scenario_glowinski_tp2,
    &fb_scenario_glowinski_2dof,
    &fb_scenario_glowinski_3dof,
    NULL,
};
