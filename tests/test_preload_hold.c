/* test_preload_hold.c — the robot-joint scenario (docs/design.md §5 `preload-hold`): its
 * exact reference, the schemes that hold it (switching/event, kikuuwe) and glowinski's
 * discretization creep, which is first order in h and absent from the spring-free
 * scenarios where the splitting's stick was judged before.  No timing anywhere. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_reference.h"
#include "fb_test.h"
#include "fb_util.h"

static void *scenario_params(const fb_scenario_type *st, const char *const *sets)
{
  void *sp = calloc(1, st->params->size);
  cr_assert_not_null(sp);
  fb_params_default(st->params, sp);
  fb_err err;
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++) {
    const char *eq = strchr(sets[k], '=');
    char name[64];
    cr_assert_not_null(eq);
    memcpy(name, sets[k], (size_t)(eq - sets[k]));
    name[eq - sets[k]] = '\0';
    cr_assert_eq(fb_params_set(st->params, st->name, sp, name, eq + 1, &err), FB_OK, "%s",
                 err.msg);
  }
  return sp;
}

/* Defaults m = 1, k = 100, mu = 0.3, g = 9.81, r_pre = 0.6, r_a = 0.3, freq = 5 Hz. */
static const double Fs_def = 0.3 * 1.0 * 9.81;

/* Below breakaway the reference is the closed form: x = x0 = r_pre Fs / k, v = 0, the
 * friction force balancing spring and disturbance, one stick interval over [0, T]. */
Test(preload_hold, exact_reference_holds)
{
  const fb_scenario_type *st = fb_scenario_find("preload-hold");
  cr_assert_not_null(st);
  void *sp = scenario_params(st, NULL);
  cr_assert_eq(st->ref_kind(sp), FB_REF_EXACT);
  fb_trace tr;
  fb_interval_list l;
  fb_err err;
  cr_assert_eq(fb_reference_run(st, sp, 1001, &tr, &l, &err), FB_OK, "%s", err.msg);
  const double x0 = 0.6 * Fs_def / 100.0;
  for (size_t k = 0; k < tr.filled; k++) {
    const double t = tr.t[k];
    cr_assert_eq(tr.y[k * tr.dim], x0);
    cr_assert_eq(tr.y[k * tr.dim + 1], 0.0);
    cr_assert_float_eq(tr.F[k], 100.0 * x0 - 0.3 * Fs_def * sin(2 * M_PI * 5 * t), 1e-12);
    cr_assert(fabs(tr.F[k]) < Fs_def, "held below breakaway");
    cr_assert_eq(tr.stick[k], 1);
  }
  cr_assert_eq(l.n, 1);
  cr_assert(l.iv[0].mode == FB_MODE_STICK && l.iv[0].start == 0.0 && l.iv[0].end == 5.0);
  fb_trace_free(&tr);
  fb_interval_list_free(&l);
  free(sp);

  /* r_pre + r_a >= 1 is allowed: then it slips, and the event-driven solver says so. */
  static const char *const slip[] = {"r_pre=0.8", "r_a=0.5", NULL};
  sp = scenario_params(st, slip);
  cr_assert_eq(st->ref_kind(sp), FB_REF_EVENT);
  cr_assert_eq(fb_reference_run(st, sp, 101, NULL, &l, &err), FB_OK, "%s", err.msg);
  size_t nslip = 0;
  for (size_t k = 0; k < l.n; k++)
    nslip += l.iv[k].mode != FB_MODE_STICK;
  cr_assert(nslip > 0, "r_pre + r_a = 1.3 must slip");
  fb_interval_list_free(&l);
  free(sp);
}

/* max |x - x0| / x0 over a run (sampled on 201 points). */
static double creep(const char *model, const char *integ, double h, double tol,
                    const char *const *sets)
{
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("preload-hold", model, integ, h, tol, sets, 201, &tr, NULL, &res), FB_OK,
               "%s/%s: %s", model, integ ? integ : "default", res.message);
  const double x0 = tr.y[0];
  double e = 0.0;
  for (size_t k = 0; k < tr.filled; k++)
    e = fmax(e, fabs(tr.y[k * tr.dim] - x0));
  fb_trace_free(&tr);
  return e / x0;
}

/* The stiff joint of the README's worked example: m = 2 kg, k = 5e4 N/m, mu = 0.3, with
 * the default r_pre = 0.6, r_a = 0.3 (peak load 0.9 Fs, below breakaway).  The
 * event-driven scheme holds it exactly and Kikuuwe's model up to its anchor compliance
 * (Fs/K relative to x0 = 0.6 Fs/k: k/(0.6 K)); glowinski-lie at h = 1e-3 loses the
 * preload (its spring acts in the elastic step, outside the friction step's multiplier),
 * and the creep over a fixed window halves with h: discretization creep, first order. */
Test(preload_hold, glowinski_creeps_first_order_switching_kikuuwe_hold, .timeout = 120)
{
  static const char *const joint[] = {"m=2", "k=5e4", "mu=0.3", NULL};
  const double es = creep("switching", "event", 0, 1e-10, joint);
  const double ek = creep("kikuuwe", NULL, 0, 1e-8, joint);
  const double fn = sqrt(5e4 / 2.0) / (2 * M_PI), K = 2.0 * pow(2 * M_PI * 100 * fn, 2);
  const double eg = creep("glowinski", "glowinski-lie", 1e-3, 0, joint);
  cr_log_info("preload-hold joint: max |x - x0|/x0 switching %.3g, kikuuwe %.3g (bound "
              "k/(0.6 K) = %.3g), glowinski-lie h=1e-3 %.3g\n",
              es, ek, 5e4 / (0.6 * K), eg);
  cr_assert(es <= 1e-12, "switching/event holds the joint: %g", es);
  cr_assert(ek <= 5e4 / (0.6 * K), "kikuuwe holds up to its anchor compliance: %g", ek);
  cr_assert(eg > 0.5, "glowinski-lie at h = 1e-3 loses the preload: %g", eg);

  /* The creep rate: displacement over the first 0.01 s at h, h/2, h/4. */
  static const char *const win[] = {"m=2", "k=5e4", "mu=0.3", "T=0.01", NULL};
  const double c1 = creep("glowinski", "glowinski-lie", 1e-3, 0, win);
  const double c2 = creep("glowinski", "glowinski-lie", 5e-4, 0, win);
  const double c3 = creep("glowinski", "glowinski-lie", 2.5e-4, 0, win);
  const double p1 = log2(c1 / c2), p2 = log2(c2 / c3);
  cr_log_info("glowinski-lie creep over 0.01 s (relative to x0): %.4g (h=1e-3), %.4g (5e-4), "
              "%.4g (2.5e-4): orders %.3f, %.3f\n",
              c1, c2, c3, p1, p2);
  cr_assert(c1 > 0.05, "creep at h = 1e-3: %g", c1);
  cr_assert(fabs(p1 - 1.0) < 0.1 && fabs(p2 - 1.0) < 0.1, "first order in h: %g, %g", p1, p2);
}

/* At the scenario's defaults too (m = 1, k = 100): the event scheme holds, glowinski-lie
 * creeps at h = 1e-3 and about half as much at h = 5e-4. */
Test(preload_hold, defaults_glowinski_creeps_switching_holds)
{
  const double es = creep("switching", "event", 0, 1e-10, NULL);
  const double g1 = creep("glowinski", "glowinski-lie", 1e-3, 0, NULL);
  const double g2 = creep("glowinski", "glowinski-lie", 5e-4, 0, NULL);
  cr_log_info("preload-hold defaults: switching %.3g, glowinski-lie %.4g (h=1e-3), %.4g "
              "(h=5e-4)\n",
              es, g1, g2);
  cr_assert(es <= 1e-12);
  cr_assert(g1 > 0.05 && g1 / g2 > 1.8 && g1 / g2 < 2.2, "%g, %g", g1, g2);
}

/* ---- the hold and stability metrics on the README's stiff joint (docs/design.md §10.1-2) */

/* A number of `run --metrics`'s JSON line (NaN for null or absent). */
static double json_num(const char *json, const char *key)
{
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(json, pat);
  if (p == NULL || strncmp(p + strlen(pat), "null", 4) == 0)
    return NAN;
  return strtod(p + strlen(pat), NULL);
}

/* `run --metrics` on preload-hold with the stiff joint (m 2, k 5e4, mu 0.3) and r_a. */
static void joint_metrics(const char *model, const char *integrator, const char *h,
                          const char *extra, char *out, size_t len)
{
  char err[2048];
  const char *argv[] = {"run", "--scenario", "preload-hold", "--model", model,
                        "--integrator", integrator, "--h", h, "--set", "m=2", "--set", "k=5e4",
                        "--set", "mu=0.3", "--set", "r_a=0.39", "--set", extra,
                        "--metrics", "--out", "/dev/null", NULL};
  const int rc = fbt_cli(argv, out, len, err, sizeof err);
  cr_assert(rc == 0 || rc == 1, "%s", err);
}

/* Kikuuwe's element stays within its compliance bound Fs/K (1.2e-8 m): it holds; the
 * splitting loses the whole preload: it slips; LuGre creeps.  Each against the rule's
 * thresholds 1e-6 L, 1e-2 L and 1e-6 v_scale. */
Test(preload_hold, hold_metrics_tell_bounded_deflection_slip_and_creep, .timeout = 120)
{
  char out[8192];
  joint_metrics("kikuuwe", "bdf2", "2.5e-4", "T=5", out, sizeof out);
  const double L = json_num(out, "L_scale"), vs = json_num(out, "v_scale");
  cr_assert(L > 7e-5 && L < 7.1e-5, "L is the preload deflection x0: %g", L);
  cr_expect(json_num(out, "hold_excess") <= 1e-6 * L, "kikuuwe excess %g",
            json_num(out, "hold_excess"));
  cr_expect(json_num(out, "hold_bound") > 1e-8, "the bound |dF|/K: %g", json_num(out, "hold_bound"));
  cr_expect(fabs(json_num(out, "hold_creep_v")) <= 1e-6 * vs, "kikuuwe creep %g",
            json_num(out, "hold_creep_v"));
  joint_metrics("glowinski", "glowinski-lie", "1e-3", "T=5", out, sizeof out);
  cr_expect(json_num(out, "hold_excess") > 1e-2 * L, "glowinski excess %g",
            json_num(out, "hold_excess"));
  joint_metrics("lugre", "bdf2", "1e-3", "T=5", out, sizeof out);
  cr_expect(fabs(json_num(out, "hold_creep_v")) > 1e-6 * vs, "lugre creep %g",
            json_num(out, "hold_creep_v"));
}

/* The explicit stepper of Kikuuwe's ODE at 1 ms goes non-finite: unstable, not failed or
 * ok; at 0.25 ms it is stable.  kikuuwe-be with the stiff anchor set by hand (its auto K
 * is capped to the step) at 1 ms pumps energy: unstable; with its auto K: stable. */
Test(preload_hold, an_unstable_step_is_unstable, .timeout = 120)
{
  char out[8192];
  joint_metrics("kikuuwe", "rk4", "1e-3", "T=5", out, sizeof out);
  cr_expect(strstr(out, "\"status\": \"unstable\"") != NULL, "%.200s", out);
  joint_metrics("kikuuwe", "rk4", "2.5e-4", "T=5", out, sizeof out);
  cr_expect(strstr(out, "\"status\": \"ok\"") != NULL, "%.200s", out);
  joint_metrics("kikuuwe-be", "kbe-symplectic", "1e-3", "K=5e8", out, sizeof out);
  cr_expect(strstr(out, "\"status\": \"unstable\"") != NULL, "instability %g",
            json_num(out, "instability"));
  joint_metrics("kikuuwe-be", "kbe-symplectic", "1e-3", "T=5", out, sizeof out);
  cr_expect(strstr(out, "\"status\": \"ok\"") != NULL, "instability %g",
            json_num(out, "instability"));
  cr_expect(json_num(out, "instability") < 1.0);
}
