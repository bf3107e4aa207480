/* fb_plugin_check.h — what a plugin's types must satisfy before they join the registries
 * (plugin_check.c).  A plugin is code the user trusts to run, not data the program trusts:
 * its names become file names, CSV cells and plan keys, its integrator names are looked up
 * on every listing, its parameter tables drive --set and the suite.  So every field is
 * checked once, at load, and a defect is refused there with the field named, rather than
 * found later as a crash, a file outside traj/ or a broken runs.csv. */
#ifndef FB_PLUGIN_CHECK_H
#define FB_PLUGIN_CHECK_H

#include <stddef.h>

#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_status.h"

/* The rule every plugin model, scenario, treatment and scheme name follows: safe as a file
 * name, a CSV cell and a plan value, and not the plan's wildcard. */
#define FB_PLUGIN_NAME_RULE "[a-z0-9][a-z0-9._-]{0,47}"

/* 1 when name matches FB_PLUGIN_NAME_RULE. */
int fb_plugin_name_ok(const char *name);

/* The record of ss[0 .. n) for the model named `model`; NULL when there is none. */
const fb_model_suite *fb_plugin_suite_for(const char *model, const fb_model_suite *const *ss,
                                          size_t n);

/* Each list of one plugin (n entries, already counted): FB_EINVAL with a one-line err
 * `plugin PATH: KIND "NAME": FIELD ...` for the first defect, including a name that
 * clashes with a built-in, an earlier plugin or another entry of the list.  The models come
 * with the plugin's suite records (ss, ns entries; fb_plugin_model_suites): each record must
 * name one of the models, once, and each model's record, its own or the derived one
 * (fb_model_suite_derive), is checked like the model. */
int fb_plugin_check_models(const char *path, const fb_model_type *const *ms, size_t n,
                           const fb_model_suite *const *ss, size_t ns, fb_err *err);
int fb_plugin_check_scenarios(const char *path, const fb_scenario_type *const *ss, size_t n,
                              fb_err *err);
int fb_plugin_check_normals(const char *path, const fb_normal_type *const *ns, size_t n,
                            fb_err *err);

#endif
