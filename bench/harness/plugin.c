/* plugin.c — loading plugins: dlopen, the ABI check, then their models and scenarios
 * appended to the registries, all or none (fb_plugin.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "fb_plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_model.h"
#include "fb_model_registry_int.h"
#include "fb_normal.h"
#include "fb_plugin_check.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fricbench.h"

#ifndef FB_VERSION
#define FB_VERSION "unknown"
#endif

#define FB_MAX_PLUGINS 32
#define FB_MAX_PLUGIN_LIST 64 /* entries of one plugin's list */

/* Handles of the loaded plugins, kept so the code their types point to stays mapped, and
 * their absolute paths (for the command lines of suite --emit-jobs). */
static void *plugin_handles[FB_MAX_PLUGINS];
static char plugin_paths[FB_MAX_PLUGINS][4096];
static size_t n_plugins;

const char *fb_version(void)
{
  return FB_VERSION;
}

size_t fb_plugin_count(void)
{
  return n_plugins;
}

const char *fb_plugin_path(size_t i)
{
  return i < n_plugins ? plugin_paths[i] : NULL;
}

/* Entries of a NULL-terminated list, or (size_t)-1 past FB_MAX_PLUGIN_LIST. */
static size_t list_len(const void *const *list)
{
  size_t n = 0;
  while (list[n] != NULL)
    if (++n > FB_MAX_PLUGIN_LIST)
      return (size_t)-1;
  return n;
}

int fb_plugin_load(const char *path, fb_err *err)
{
  if (path == NULL || *path == '\0')
    return fb_err_set(err, FB_EINVAL, "plugin: no file name (NULL or empty)");
  if (n_plugins == FB_MAX_PLUGINS)
    return fb_err_set(err, FB_EINVAL, "plugin %s: more than %d plugins", path, FB_MAX_PLUGINS);
  /* RTLD_NOW: an unresolved symbol fails here, with its name, not in the middle of a run.
   * dlopen needs a slash to take a file name rather than search the library path. */
  char buf[4096];
  const char *file = path;
  if (strchr(path, '/') == NULL) {
    if (strlen(path) + 3 > sizeof buf)
      return fb_err_set(err, FB_EINVAL, "plugin %.200s...: name too long", path);
    strcpy(buf, "./");
    strcat(buf, path);
    file = buf;
  }
  void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char *why = dlerror();
    return fb_err_set(err, FB_EINVAL, "plugin %s: cannot load: %s", path,
                      why != NULL ? why : "unknown dlopen error");
  }
  /* The same file again (dlopen hands back its handle): already registered, nothing to do,
   * so a plugin named both in FRICBENCH_PLUGINS and by --plugin loads once. */
  for (size_t i = 0; i < n_plugins; i++)
    if (plugin_handles[i] == h) {
      dlclose(h);
      return FB_OK;
    }
  int st = FB_OK;
  const int *abi = dlsym(h, "fb_plugin_abi");
  const fb_model_type *const *ms = dlsym(h, "fb_plugin_models");
  const fb_scenario_type *const *ss = dlsym(h, "fb_plugin_scenarios"); /* optional */
  /* optional: normal-contact treatments (docs/design.md §12) */
  const fb_normal_type *const *ns_ = dlsym(h, "fb_plugin_normals");
  /* optional: suite records of its models, matched by name (include/fricbench/fb_model_suite.h), with
   * their own layout version */
  const fb_model_suite *const *su = dlsym(h, "fb_plugin_model_suites");
  const int *suite_abi = dlsym(h, "fb_plugin_suite_abi");
  size_t nm = 0, ns = 0, nn = 0, nsu = 0;
  if (abi == NULL)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: missing symbol fb_plugin_abi "
                    "(const int fb_plugin_abi = FB_ABI_VERSION;)", path);
  else if (*abi != FB_ABI_VERSION)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: ABI %d, this fricbench has ABI %d: rebuild "
                    "the plugin against these headers", path, *abi, FB_ABI_VERSION);
  else if (ms == NULL)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: missing symbol fb_plugin_models "
                    "(a NULL-terminated const fb_model_type *const[])", path);
  else if ((nm = list_len((const void *const *)ms)) == (size_t)-1 ||
           (ss != NULL && (ns = list_len((const void *const *)ss)) == (size_t)-1) ||
           (ns_ != NULL && (nn = list_len((const void *const *)ns_)) == (size_t)-1) ||
           (su != NULL && (nsu = list_len((const void *const *)su)) == (size_t)-1))
    st = fb_err_set(err, FB_EINVAL, "plugin %s: a list with more than %d entries or "
                    "without its NULL terminator", path, FB_MAX_PLUGIN_LIST);
  else if (nm + ns + nn == 0)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: no models, scenarios or normal treatments",
                    path);
  else if (su != NULL && suite_abi == NULL)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: fb_plugin_model_suites without "
                    "fb_plugin_suite_abi (const int fb_plugin_suite_abi = "
                    "FB_SUITE_ABI_VERSION;)", path);
  else if (su != NULL && *suite_abi != FB_SUITE_ABI_VERSION)
    st = fb_err_set(err, FB_EINVAL, "plugin %s: suite ABI %d, this fricbench has suite ABI "
                    "%d: rebuild the plugin against these headers", path, *suite_abi,
                    FB_SUITE_ABI_VERSION);
  /* every field of every type, before any joins a registry: all or none */
  if (st == FB_OK)
    st = fb_plugin_check_normals(path, ns_, nn, err);
  if (st == FB_OK)
    st = fb_plugin_check_models(path, ms, nm, su, nsu, err);
  if (st == FB_OK)
    st = fb_plugin_check_scenarios(path, ss, ns, err);
  if (st != FB_OK) {
    dlclose(h);
    return FB_EINVAL;
  }
  /* Checked above: registration only fails when a registry table is full; what was
   * registered by then points into the plugin, which therefore stays loaded. */
  if (realpath(file, plugin_paths[n_plugins]) == NULL)
    snprintf(plugin_paths[n_plugins], sizeof plugin_paths[n_plugins], "%s", file);
  plugin_handles[n_plugins++] = h;
  for (size_t i = 0; i < nm && st == FB_OK; i++)
    st = fb_model_register(ms[i], fb_plugin_suite_for(ms[i]->name, su, nsu), err);
  for (size_t i = 0; i < ns && st == FB_OK; i++)
    st = fb_scenario_register(ss[i], err);
  for (size_t i = 0; i < nn && st == FB_OK; i++)
    st = fb_normal_register(ns_[i], err);
  if (st != FB_OK) {
    char why[FB_ERR_LEN];
    snprintf(why, sizeof why, "%s", err->msg);
    return fb_err_set(err, FB_EINVAL, "plugin %s: %s", path, why);
  }
  return FB_OK;
}

int fb_plugin_load_list(const char *list, fb_err *err)
{
  if (list == NULL)
    return FB_OK;
  const char *p = list;
  while (*p != '\0') {
    const char *e = strchr(p, ':');
    const size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
    if (n > 0) {
      char path[4096];
      if (n >= sizeof path)
        return fb_err_set(err, FB_EINVAL, "plugin path of %zu characters in the list: at most "
                          "%zu", n, sizeof path - 1);
      memcpy(path, p, n);
      path[n] = '\0';
      const int st = fb_plugin_load(path, err);
      if (st != FB_OK)
        return st;
    }
    p += n;
    if (*p == ':')
      p++;
  }
  return FB_OK;
}
