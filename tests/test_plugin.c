/* test_plugin.c — plugins through the CLI: the example Stribeck plugin joins list and run
 * (with --plugin and FRICBENCH_PLUGINS), and every broken plugin is refused with exit
 * status 2 and one line naming the file and the problem. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test.h"
#include "fricbench.h"

static char out[1 << 16], err[1 << 12];

static const char *stribeck(void)
{
  const char *p = getenv("FB_PLUGIN_STRIBECK");
  cr_assert_not_null(p, "FB_PLUGIN_STRIBECK is not set (run the tests through meson test)");
  return p;
}

static const char *bad(const char *name, char *buf, size_t len)
{
  const char *dir = getenv("FB_TEST_PLUGINS");
  cr_assert_not_null(dir, "FB_TEST_PLUGINS is not set (run the tests through meson test)");
  snprintf(buf, len, "%s/plugin_%s.so", dir, name);
  return buf;
}

Test(plugin, list_shows_the_model)
{
  const char *a[] = {"--plugin", stribeck(), "list", "models", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert(strstr(out, "drake-stribeck") && strstr(out, "v_s "), "%s", out);
  cr_assert(strstr(out, "kikuuwe"), "the built-ins are still there");
  const char *b[] = {"list", "models", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert_null(strstr(out, "drake-stribeck"), "no plugin, no plugin model");
}

/* Last row of a run's CSV (t,x,v,F,stick): v and F. */
static void last_row(const char *csv, double *v, double *F)
{
  const char *last = csv, *p;
  for (p = csv; *p; p++)
    if (*p == '\n' && p[1] != '\0')
      last = p + 1;
  double t, x;
  int stick;
  cr_assert_eq(sscanf(last, "%lf,%lf,%lf,%lf,%d", &t, &x, v, F, &stick), 5, "%s", last);
}

/* The law's meaning, through `run` (option after the command, as any option): a block
 * held on the incline creeps at v = v_s s with s (2 - s) = |F| / Fs, so at the same held
 * force the creep scales with the stiction tolerance v_s. */
Test(plugin, run_creeps_in_proportion_to_the_stiction_tolerance)
{
  double v1, F1, v2, F2;
  const char *a[] = {"run", "--scenario", "inclined-block", "--model", "drake-stribeck",
                     "--set", "v_s=1e-4", "--samples", "3", "--plugin", stribeck(), NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert(strncmp(out, "t,x,v,F,stick\n", 14) == 0, "%s", out);
  cr_assert(strstr(err, "ok:") && strstr(err, "model=drake-stribeck"), "%s", err);
  last_row(out, &v1, &F1);
  const char *b[] = {"--plugin", stribeck(), "run", "--scenario", "inclined-block", "--model",
                     "drake-stribeck", "--set", "v_s=1e-5", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  last_row(out, &v2, &F2);
  cr_assert(v1 > 0 && v1 < 1e-4, "creeping below v_s: v = %g", v1);
  cr_assert(fabs(F1 - F2) < 1e-6 * fabs(F1), "the same held force: %.17g vs %.17g", F1, F2);
  cr_assert(fabs(v1 / v2 - 10.0) < 1e-4, "creep ratio %.10g, expected 10", v1 / v2);
}

Test(plugin, environment_variable)
{
  char list[4200];
  snprintf(list, sizeof list, "::%s:", stribeck()); /* empty entries are skipped */
  setenv("FRICBENCH_PLUGINS", list, 1);
  const char *a[] = {"list", "models", NULL};
  const int rc = fbt_cli(a, out, sizeof out, err, sizeof err);
  unsetenv("FRICBENCH_PLUGINS");
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "drake-stribeck"), "%s", out);
}

/* Exit 2, nothing on stdout, one line on stderr containing the file and `why`. */
static void refused(const char *file, const char *why)
{
  /* `list models` walks every model's integrators: where a NULL default crashed */
  const char *a[] = {"--plugin", file, "list", "models", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 2, "%s", err);
  cr_assert_str_empty(out, "no partial output");
  cr_assert_eq(fbt_lines(err), 1, "one line: %s", err);
  cr_assert(strstr(err, file) && strstr(err, why), "'%s' and '%s' in: %s", file, why, err);
}

Test(plugin, bad_plugins_exit_2)
{
  char buf[4200];
  refused(bad("badabi", buf, sizeof buf), "this fricbench has ABI");
  refused(bad("nomodels", buf, sizeof buf), "missing symbol fb_plugin_models");
  refused(bad("clash", buf, sizeof buf), "model \"kikuuwe\": name clashes");
  refused("/nonexistent/plugin.so", "cannot load");
  /* The same file twice (say in FRICBENCH_PLUGINS and by --plugin) loads once. */
  const char *a[] = {"--plugin", stribeck(), "--plugin", stribeck(), "list", "models", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  const char *first = strstr(out, "  drake-stribeck ");
  cr_assert(first && !strstr(first + 1, "  drake-stribeck "), "listed once: %s", out);
  const char *b[] = {"list", "--plugin", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 2, "%s", err);
  cr_assert(strstr(err, "--plugin needs a file name"), "%s", err);
}

/* Every field of a plugin's types is checked at load: names that would become paths, CSV
 * cells or the plan wildcard, a missing or unknown integrator, a missing operation, a
 * parameter outside its own bounds, a state column named like another column.  Each is
 * refused in one line naming the file, the type and the field. */
Test(plugin, bad_fields_refused_at_load)
{
  static const struct {
    const char *file, *why;
  } cases[] = {
      {"evil", "model \"../../evil\": name must match [a-z0-9][a-z0-9._-]{0,47}"},
      {"comma", "model \"a,b\": name must match"},
      {"star", "model \"*\": name must match"},
      {"newline", "model \"a\\nb\": name must match"},
      {"long", "...\": name must match"},
      {"twice", "model \"twice\": name is given twice"},
      {"nodef", "model \"nodef\": default_integrator is missing (NULL)"},
      {"unkinteg", "model \"unkinteg\": default_integrator \"rk99\" is not an integrator"},
      {"noforce", "model \"noforce\": caps has FB_MODEL_ODE but force is NULL"},
      {"param", "model \"param\": parameter \"k\": default -1 is not finite or not within"},
      {"zname", "model \"zname\": z_names[0] \"x\" is already a column"},
      {"nobuild", "scenario \"nobuild\": build and ref_kind are required"},
      {"badnormal", "normal treatment \"../n\": name must match"},
      {"noexact", "scenario \"noexact\": ref_kind returns FB_REF_EXACT for the defaults but "
                  "exact is NULL"},
      {"scheme", "model \"scheme\": schemes[0] name \"../s\" must match"},
      {"color", "model \"color\": suite.color \"red\" lw 9\" must be #rrggbb"},
      {"paramname", "model \"pname\": params row 0: name \"a=b\" must match"},
      {"wp", "model \"wp\": suite.wp \"rk99\" is not an integrator this model can run"},
      {"suitemodel", "suite record \"no-such-model\": names no model of this plugin"},
      {"suiteinteg", "model \"suiteinteg\": suite.fixed_integrator \"rkf99\" is not an "
                     "integrator this model can run"},
      {"suiteabi", "suite ABI 2, this fricbench has suite ABI 1"},
  };
  char buf[4200];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    refused(bad(cases[i].file, buf, sizeof buf), cases[i].why);
    cr_assert(strlen(err) < 600, "the 3000-character name is cut: %zu bytes", strlen(err));
  }
  /* refused for every command, not only list: nothing is written */
  char dir[256], o[300];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(o, sizeof o, "%s/run.csv", dir);
  const char *a[] = {"--plugin", bad("evil", buf, sizeof buf), "run", "--scenario", "stick-slip",
                     "--model", "../../evil", "--out", o, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 2, "%s", err);
  cr_assert_eq(fbt_dir_entries(dir), 0, "no file");
  fbt_rmdir(dir);
}

/* A model's failure with a code of its own is reported as the model's, with the code, not
 * as "output failed". */
Test(plugin, a_models_own_error_code_is_named)
{
  char buf[4200];
  const char *a[] = {"--plugin", bad("fails", buf, sizeof buf), "run", "--scenario",
                     "stick-slip", "--model", "fails", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 1, "%s", err);
  cr_assert(strstr(err, "model fails returned 42 at t=0: a code of its own") &&
            !strstr(err, "output failed"), "%s", err);
}

static int frictionless(const void *p, const fb_contact_in *c, double vr, const double *z,
                        double *F, double *dz)
{
  (void)p, (void)c, (void)vr, (void)z, (void)dz;
  *F = 0.0;
  return FB_OK;
}

/* A plugin model's suite record is its own when the plugin exports one
 * (fb_plugin_model_suites) and otherwise derived from its science, by registration order
 * (registered here as plugin.c does after its checks; the plugins themselves run in
 * suite_includes_the_model below). */
Test(plugin, suite_record_own_or_derived)
{
  static const fb_param_set none = {0, 0, NULL};
  static const fb_model_type own = {.name = "own", .caps = FB_MODEL_ODE, .params = &none,
                                    .default_integrator = "msbdf", .default_tol = 1e-8,
                                    .force = frictionless};
  static const fb_model_type derived = {.name = "derived", .caps = FB_MODEL_ODE,
                                        .params = &none, .default_integrator = "bdf2",
                                        .default_tol = 0, .force = frictionless};
  static const fb_model_suite own_suite = {.model = "own", .color = "#123456",
                                           .conv = {"rk4imp", NULL}};
  fb_err e;
  cr_assert_eq(fb_model_register(&own, &own_suite, &e), FB_OK, "%s", e.msg);
  cr_assert_eq(fb_model_register(&derived, &own_suite, &e), FB_EINVAL, "a record for another");
  static const fb_model_type wide = {.name = "wide", .caps = FB_MODEL_ODE, .params = &none,
                                     .default_integrator = "rk4", .nz = FB_MAX_Z + 1,
                                     .force = frictionless};
  cr_assert_eq(fb_model_register(&wide, NULL, &e), FB_EINVAL, "more than FB_MAX_Z states");
  cr_assert(strstr(e.msg, "nz 5 is more than 4"), "%s", e.msg);
  cr_assert_eq(fb_model_register(&derived, NULL, &e), FB_OK, "%s", e.msg);
  cr_assert_eq(fb_model_suite_of(&own), &own_suite);
  size_t i = 0;
  while (fb_model_at(i) != &derived)
    i++;
  const fb_model_suite *s = fb_model_suite_of(&derived);
  fb_model_suite want;
  fb_model_suite_derive(&derived, i, &want);
  cr_assert_str_eq(s->model, "derived");
  cr_assert_str_eq(s->color, want.color, "the palette colour of its place");
  cr_assert(s->color[0] == '#' && strlen(s->color) == 7, "%s", s->color);
  /* bdf2 takes fixed steps only: fixed steps, convergence and the cost ladder (at h 1e-3)
   * with it, work-precision with the generic rkf45 */
  cr_assert_str_eq(s->fixed_integrator, "bdf2");
  cr_assert(strcmp(s->conv[0], "bdf2") == 0 && s->conv[1] == NULL);
  cr_assert(strcmp(s->wp[0], "rkf45") == 0 && s->wp[1] == NULL);
  cr_assert(s->cost_integrator == NULL && s->cost_h == 1e-3);
  cr_assert(s->reg_param == NULL && s->nreg == 0 && s->alt_tag == NULL &&
            s->grid_integrator == NULL && !s->exact_limit && s->expect_fail[0] == NULL &&
            s->own[0] == NULL && !s->stores_energy);
  /* a type in no registry gets the empty record, never NULL */
  const fb_model_type loose = {.name = "loose"};
  cr_assert(fb_model_suite_of(&loose)->color == NULL);
}

/* The default table is built from the registries, plugins included: the plugin's model
 * runs the baseline on every scenario, as a built-in does, and its record's sweeps; a
 * plugin model without a record runs with the derived one.  The quick table is kept to the
 * plugins' models and kikuuwe (--model filters select from the table the registries built;
 * the other models' runs would only cost time). */
Test(plugin, suite_includes_the_model)
{
  char dir[64], path[128], nosuite[4200];
  fbt_tmpdir(dir, sizeof dir);
  const char *a[] = {"--plugin", stribeck(), "--plugin", bad("nosuite", nosuite, sizeof nosuite),
                     "suite", "--quick", "--model", "drake-stribeck", "--model", "nosuite",
                     "--model", "kikuuwe", "--no-plots", "--jobs", "2", "--out", dir, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  char line[8192];
  size_t baseline = 0, ok = 0, nscen = 0, reg = 0, d_base = 0, d_conv = 0, d_reg = 0;
  /* the quick table's baseline scenarios (kikuuwe runs every one of them) */
  while (fgets(line, sizeof line, fp)) {
    if (strstr(line, ",baseline,") && strstr(line, ",kikuuwe,"))
      nscen++;
    reg += strstr(line, ",regularization,") && strstr(line, ",drake-stribeck,");
    if (strstr(line, ",nosuite,")) {
      d_base += strstr(line, ",baseline,") != NULL;
      d_conv += strstr(line, ",convergence,") && strstr(line, ",nosuite,rk4,");
      d_reg += strstr(line, ",regularization,") != NULL;
    }
    if (strstr(line, ",baseline,") && strstr(line, ",drake-stribeck,")) {
      baseline++;
      ok += strstr(line, ",ok,") != NULL;
    }
  }
  fclose(fp);
  cr_assert_gt(nscen, 5);
  cr_assert_eq(baseline, nscen, "one baseline run per scenario: %zu of %zu", baseline, nscen);
  cr_assert_eq(ok, nscen, "every baseline run ends ok (%zu of %zu)", ok, nscen);
  cr_assert_gt(reg, 0, "its record's v_s sweep");
  cr_assert_gt(d_base, 0, "the model without a record runs the baseline");
  cr_assert_gt(d_conv, 0, "and the convergence ladder with its derived integrator, rk4");
  cr_assert_eq(d_reg, 0, "and no regularization sweep");
  fbt_rmdir(dir);
}

/* (the plugin's law has a vector form, so it joins the 2-D scenarios too) */

/* A plugin scenario (built on the exported fb_plant_alloc) joins list, run and reference;
 * switching holds its block exactly at rest, as the closed form says. */
Test(plugin, scenario_from_a_plugin)
{
  char buf[4200];
  const char *file = bad("scenario", buf, sizeof buf);
  const char *a[] = {"--plugin", file, "list", "scenarios", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert(strstr(out, "  plugin-push ") && strstr(out, "drift"), "%s", out);
  const char *b[] = {"--plugin", file, "run", "-s", "plugin-push", "-m", "switching",
                     "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  double v, F;
  last_row(out, &v, &F);
  cr_assert_eq(v, 0.0, "held exactly");
  cr_assert_float_eq(F, -1.5, 1e-12, "friction balances the push");
  const char *c[] = {"--plugin", file, "reference", "-s", "plugin-push", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(c, out, sizeof out, err, sizeof err), 0, "%s", err);
  const char *d[] = {"run", "-s", "plugin-push", "-m", "switching", NULL};
  cr_assert_eq(fbt_cli(d, out, sizeof out, err, sizeof err), 2, "no plugin, no scenario");
  cr_assert(strstr(err, "unknown scenario 'plugin-push'"), "%s", err);
}

/* suite --emit-jobs: every part must build the same table, so each command line loads the
 * plugins of the emitting command, by absolute path. */
Test(plugin, emitted_jobs_load_the_plugins)
{
  char dir[64], jobs[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
  const char *a[] = {"--plugin", stribeck(), "suite", "--quick", "--emit-jobs", jobs, "--out",
                     dir, "--parts", "2", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  FILE *fp = fopen(jobs, "r");
  cr_assert_not_null(fp);
  char line[8192], want[4200];
  snprintf(want, sizeof want, " --plugin '%s' suite --part ", stribeck());
  size_t n = 0;
  while (fgets(line, sizeof line, fp)) {
    n++;
    cr_assert(strstr(line, want), "'%s' in %s", want, line);
  }
  fclose(fp);
  cr_assert_eq(n, 2);
  fbt_rmdir(dir);
}

/* A plugin's normal-contact treatment (docs/design.md §12): it joins `list contact`, is a
 * value of the contact scenarios' `normal` parameter, and bounces as its law says (the
 * undamped Hertz contact gives the energy back: the ball climbs back to its drop height
 * whatever the nominal e). */
Test(plugin, a_normal_treatment_joins_the_contact_scenarios)
{
  char file[4096], dir[64], path[128];
  bad("normal", file, sizeof file);
  const char *a[] = {"--plugin", file, "list", "contact", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert(strstr(out, "hertz-elastic") && strstr(out, "newton"), "%s", out);
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/ball.csv", dir);
  const char *b[] = {"--plugin", file, "run", "-s", "bouncing-ball", "-m", "naive-sign",
                     "--set", "normal=hertz-elastic", "--set", "e=0.3", "--set", "T=1.5",
                     "-o", path, NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  char line[1024];
  double t, g, gmax_after = -1;
  cr_assert_not_null(fgets(line, sizeof line, fp)); /* header: t,x,v (x: the height) */
  while (fgets(line, sizeof line, fp))
    if (sscanf(line, "%lf,%lf", &t, &g) == 2 && t > 0.6 && t < 1.2)
      gmax_after = fmax(gmax_after, g);
  fclose(fp);
  /* first impact at sqrt(2/g) = 0.452 s; back at the top near 0.903 s */
  cr_assert(gmax_after > 0.99, "back up to %.4f of the 1 m drop", gmax_after);
  const char *c[] = {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set",
                     "normal=hertz-elastic", NULL};
  cr_assert_eq(fbt_cli(c, out, sizeof out, err, sizeof err), 2, "no plugin, no treatment");
  cr_assert(strstr(err, "hertz-elastic"), "%s", err);
  fbt_rmdir(dir);
}
