/* fb_plugin.h — models and scenarios from shared objects (docs/design.md §11).
 *
 * A plugin is a shared object that exports
 *     const int fb_plugin_abi = FB_ABI_VERSION;
 *     const fb_model_type *const fb_plugin_models[] = {&my_model, NULL};
 * and optionally the suite's policy for its models (include/fricbench/fb_model_suite.h), matched by name:
 *     const int fb_plugin_suite_abi = FB_SUITE_ABI_VERSION;
 *     const fb_model_suite *const fb_plugin_model_suites[] = {&my_suite, NULL};
 * (a model without a record gets one derived from its science, fb_model_suite_derive),
 * and optionally `const fb_scenario_type *const fb_plugin_scenarios[]` and
 * `const fb_normal_type *const fb_plugin_normals[]` (normal-contact treatments,
 * include/fricbench/fb_normal.h; both NULL-terminated).  Its models, scenarios and treatments join the
 * registries after the built-ins (fb_model_at, fb_scenario_at, fb_normal_registry), so they
 * appear in every listing, lookup and default table (a treatment is then a value of the
 * contact scenarios' `normal` parameter and joins the suite's contact groups).  It is
 * built against the installed headers and linked against nothing: the fb_ functions it
 * calls resolve to the loading program (the fricbench executable or libfricbench.so).
 */
#ifndef FB_PLUGIN_H
#define FB_PLUGIN_H

#include "fb_api.h"
#include "fb_status.h"

/* Load one plugin and register its models and scenarios, all or none.  FB_EINVAL with
 * a one-line err naming the file and the problem: dlopen failure, a missing symbol, an ABI
 * other than FB_ABI_VERSION (or a suite ABI other than FB_SUITE_ABI_VERSION), an empty or
 * over-long list, a suite record naming no model of the plugin, a name that clashes with a
 * built-in or an already loaded plugin, or any defective field of its types, named
 * (fb_plugin_check.h: names, integrators, operations, parameter tables; the plugin is then
 * unloaded).  Loading a file
 * that is already loaded does nothing. */
FB_API int fb_plugin_load(const char *path, fb_err *err);
/* Load every plugin named in the colon-separated list (empty entries skipped), stopping
 * at the first failure; list NULL or empty loads nothing. */
FB_API int fb_plugin_load_list(const char *list, fb_err *err);
/* Number of plugins loaded, and the absolute path of plugin i (NULL past the end). */
FB_API size_t fb_plugin_count(void);
FB_API const char *fb_plugin_path(size_t i);

#endif
