/* registry.c — every scenario, in listing order. */
#include <stddef.h>

#include "fb_scenarios.h"

const fb_scenario_type *const fb_scenario_registry[] = {
    &fb_scenario_inclined_block,
    &fb_scenario_stick_slip,
    &fb_scenario_drift,
    &fb_scenario_two_mass_drive,
    NULL,
};
