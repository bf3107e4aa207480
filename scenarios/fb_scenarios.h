/* fb_scenarios.h — one exported type per scenario file, listed in registry.c. */
#ifndef FB_SCENARIOS_H
#define FB_SCENARIOS_H

#include "fb_scenario.h"

extern const fb_scenario_type fb_scenario_inclined_block;
extern const fb_scenario_type fb_scenario_stick_slip;
extern const fb_scenario_type fb_scenario_drift;
extern const fb_scenario_type fb_scenario_two_mass_drive;

#endif
