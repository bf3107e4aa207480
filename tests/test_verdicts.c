/* test_verdicts.c — each verdict rule of docs/design.md §10 (revision 3) on a case where it
 * must say yes and one where it must say no, from small runs.csv texts (the rules read
 * nothing else), and the instability test of a run from its metrics. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_metrics.h"
#include "fb_verdicts.h"
#include "fb_run.h"

static const char header[] =
    "group,tag,scenario,model,integrator,status,h,stick_time_ref,stick_held,hold_creep_v,"
    "hold_excess,hold_bound,hold_slip_frac,hold_accum,L_scale,v_scale,chatter_rate,t_reached,"
    "nfe\n";

/* One runs.csv row: the hold metrics of one run (L = 1e-4 m, v_scale = 1e-2 m/s). */
static size_t row(char *buf, size_t len, const char *group, const char *scenario,
                  const char *model, const char *status, double h, double creep, double excess,
                  double slip, double accum, double chatter)
{
  return (size_t)snprintf(buf, len, "%s,,%s,%s,rk4,%s,%g,5,5,%.17g,%.17g,1e-8,%.17g,%.17g,1e-4,"
                                    "1e-2,%g,5,5000\n",
                          group, scenario, model, status, h, creep, excess, slip, accum, chatter);
}

#define find fb_vtable_find

/* The verdicts of header + rows. */
static void judge(const char *rows, fb_vtable *v)
{
  char text[8192];
  snprintf(text, sizeof text, "%s%s", header, rows);
  fb_err err = {{0}};
  cr_assert_eq(fb_verdicts_compute(text, strlen(text), NULL, 0, v, &err), FB_OK, "%s", err.msg);
}

/* §10.2 with the bisection's rows (sweep stable-step: h the largest stable step found,
 * sweep_value the smallest unstable one): stable-step is the smallest h_max over the
 * scenarios where an unstable step was found, named; a treatment stable up to 0.1 T
 * everywhere says so; a treatment not stable even at the lower step reads "unstable at";
 * without such rows the fixed-step bracket stays. */
Test(verdicts, stable_step_from_the_bisection)
{
  static const char text[] =
      "group,tag,scenario,model,integrator,status,h,sweep,sweep_value,t_reached,nfe\n"
      "fixed-step,,preload-hold,m,rk4,unstable,0.001,h,0.001,5,5000\n"
      "fixed-step,,preload-hold,m,rk4,ok,0.00025,h,0.00025,5,20000\n"
      "fixed-step,,stick-slip,m,rk4,ok,0.001,h,0.001,5,5000\n"
      "stable-step,,preload-hold,m,rk4,ok,0.000431,stable-step,0.000462,5,80000\n"
      "stable-step,,stick-slip,m,rk4,ok,0.0158,stable-step,0.018,5,80000\n"
      "stable-step,,drift,m,rk4,ok,0.5,stable-step,nan,5,40\n"
      "fixed-step,,preload-hold,s,event,ok,0.001,h,0.001,5,5000\n"
      "stable-step,,preload-hold,s,event,ok,0.5,stable-step,nan,5,40\n"
      "stable-step,,stick-slip,s,event,ok,1,stable-step,nan,5,40\n"
      "fixed-step,,preload-hold,u,rk4,unstable,0.001,h,0.001,5,5000\n"
      "stable-step,,preload-hold,u,rk4,unstable,0.00025,stable-step,0.00025,5,5000\n"
      "stable-step,,stick-slip,u,rk4,ok,0.01,stable-step,0.02,5,5000\n"
      "fixed-step,,preload-hold,b,rk4,unstable,0.001,h,0.001,5,5000\n"
      "fixed-step,,preload-hold,b,rk4,ok,0.00025,h,0.00025,5,20000\n";
  fb_vtable v;
  fb_err err = {{0}};
  cr_assert_eq(fb_verdicts_compute(text, strlen(text), NULL, 0, &v, &err), FB_OK, "%s", err.msg);
  const fb_vrow *r = find(&v, "m", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_float_eq(r->value, 4.31e-4, 1e-18);
  cr_expect_float_eq(r->value2, 4.62e-4, 1e-18);
  cr_expect_str_eq(r->scenarios, "preload-hold");
  cr_expect_str_eq(r->verdict, "stable <= 0.000431 s (unstable at 0.000462 s)",
                   "the scenario does not fit in the verdict: the scenarios column names it");
  r = find(&v, "s", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "stable up to 0.1 T on every scenario");
  cr_expect_float_eq(r->value, 0.5, 1e-15);
  cr_expect(isnan(r->value2));
  r = find(&v, "u", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "unstable at 0.00025 s on preload-hold");
  cr_expect_float_eq(r->value, 0.0, 1e-18);
  r = find(&v, "b", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "stable <= 0.00025 s (unstable at 0.001 s)", "the bracket");
  fb_vtable_free(&v);
}

/* §10.1: a spring-loaded hold within its compliance bound holds; creep above 1e-6 v_scale
 * creeps; a displacement beyond 1 % of L slips; below that but above 1e-6 L shifts. */
Test(verdicts, hold_holds_creeps_slips_shifts)
{
  char rows[4096];
  size_t n = 0;
  n += row(rows + n, sizeof rows - n, "baseline", "preload-hold", "within", "ok", NAN, 1e-12,
           0.0, 0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "baseline", "preload-hold", "creeper", "ok", NAN, -3.1e-6,
           5e-9, 0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "baseline", "preload-hold", "loser", "ok", NAN, 0.0,
           8.3e-5, 0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "baseline", "preload-hold", "shifter", "ok", NAN, 0.0,
           4.2e-9, 0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "baseline", "preload-hold", "slider", "ok", NAN, 0.0, 0.0,
           0.5, 0.0, 0.0);
  (void)n;
  fb_vtable v;
  judge(rows, &v);
  const fb_vrow *r = find(&v, "within", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "holds");
  r = find(&v, "creeper", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "creeps 3.1 µm/s");
  cr_expect_float_eq(r->value, -3.1e-6, 1e-18);
  r = find(&v, "loser", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "slips 83 µm (83 % of the preload lost)");
  cr_expect_float_eq(r->value2, 8.3e-5, 1e-18);
  r = find(&v, "shifter", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "shifts 4.2 nm");
  r = find(&v, "slider", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_eq(strncmp(r->verdict, "slips", 5), 0, "%s", r->verdict);
  fb_vtable_free(&v);
}

/* §10.1: under the oscillating drift load, accumulation per cycle above 1e-6 L; not on
 * other scenarios, where the creep velocity answers. */
Test(verdicts, accumulation_only_under_the_oscillating_load)
{
  char rows[2048];
  size_t n = 0;
  n += row(rows + n, sizeof rows - n, "drift", "drift", "drifter", "ok", NAN, 0.0, 1e-11, 0.0,
           2e-9, 0.0);
  n += row(rows + n, sizeof rows - n, "baseline", "stick-slip", "other", "ok", NAN, 0.0, 1e-11,
           0.0, 2e-9, 0.0);
  (void)n;
  fb_vtable v;
  judge(rows, &v);
  const fb_vrow *r = find(&v, "drifter", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "accumulates 2 nm/cycle");
  r = find(&v, "other", "defaults", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "holds", "1e-11 m is within 1e-6 L");
  fb_vtable_free(&v);
}

/* §10.2: an unstable run is never scored; its hold reads "unstable at h (stable <= h_max)"
 * from the same treatment's stable steps on that scenario; stable-step says where. */
Test(verdicts, unstable_step_and_stable_step)
{
  char rows[4096];
  size_t n = 0;
  n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "m", "unstable", 1e-3, 0.0,
           0.0, 0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "m", "ok", 2.5e-4, 0.0, 0.0,
           0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "convergence", "preload-hold", "m", "ok", 5e-4, 0.0, 0.0,
           0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "s", "ok", 1e-3, 0.0, 0.0,
           0.0, 0.0, 0.0);
  n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "s", "ok", 2.5e-4, 0.0, 0.0,
           0.0, 0.0, 0.0);
  (void)n;
  fb_vtable v;
  judge(rows, &v);
  const fb_vrow *r = find(&v, "m", "fixed-step", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "unstable at 0.001 s (stable <= 0.0005 s)");
  r = find(&v, "m", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_float_eq(r->value, 5e-4, 1e-18);
  cr_expect_float_eq(r->value2, 1e-3, 1e-18);
  r = find(&v, "s", "fixed-step", "hold");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "holds");
  r = find(&v, "s", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "stable at every step run");
  /* cost per simulated second at the judged step: 5000 evaluations over 5 s */
  r = find(&v, "s", "fixed-step", "cost/s");
  cr_assert(r != NULL);
  cr_expect_float_eq(r->value, 1000.0, 1e-9);
  fb_vtable_free(&v);
}

/* §10.3: a physical mode keeps its rate within 0.5x-2x at h/4; a rate that falls (an
 * instability that goes away) or rises (~1/h) more is numerical. */
Test(verdicts, chatter_physical_only_within_a_factor_two)
{
  const double at_quarter[3] = {200.0, 10.2, 1200.0};
  const char *const want[3] = {"yes, physical mode", "yes, numerical", "yes, numerical"};
  for (int c = 0; c < 3; c++) {
    char rows[2048];
    size_t n = 0;
    n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "m", "ok", 1e-3, 0.0, 0.0,
             0.0, 0.0, 303.0);
    n += row(rows + n, sizeof rows - n, "fixed-step", "preload-hold", "m", "ok", 2.5e-4, 0.0,
             0.0, 0.0, 0.0, at_quarter[c]);
    (void)n;
    fb_vtable v;
    judge(rows, &v);
    const fb_vrow *r = find(&v, "m", "fixed-step", "chatter");
    cr_assert(r != NULL);
    cr_expect_str_eq(r->verdict, want[c], "rate at h/4 %g", at_quarter[c]);
    fb_vtable_free(&v);
  }
}

/* §10.2 on a run's metrics: non-finite or diverged, or an instability index above 1. */
Test(verdicts, a_run_is_unstable_by_its_metrics)
{
  fb_metrics m;
  fb_metrics_nan(&m);
  char why[160];
  cr_expect(fb_run_unstable(FB_ENONFINITE, &m, why, sizeof why));
  cr_expect(!fb_run_unstable(FB_BUDGET, &m, why, sizeof why));
  cr_expect(!fb_run_unstable(FB_OK, &m, why, sizeof why), "no test made: not unstable");
  m.instability = 1.04;
  cr_expect(fb_run_unstable(FB_OK, &m, why, sizeof why));
  m.instability = 0.96;
  cr_expect(!fb_run_unstable(FB_OK, &m, why, sizeof why));
}

/* One tally everywhere (§10.8). */
Test(verdicts, one_tally_of_statuses)
{
  fb_run_tally t = {0};
  const char *const s[] = {"ok", "ok", "unstable", "suspect", "budget", "failed"};
  for (size_t i = 0; i < 6; i++)
    fb_run_tally_add(&t, s[i], "naive-sign", "heun3");
  char buf[200];
  fb_run_tally_text(&t, buf, sizeof buf);
  cr_expect_str_eq(buf, "6 runs (2 ok, 1 unstable, 1 suspect, 1 budget, 1 failed)");
  /* a stiff law under an explicit stepper, declared in the model's suite data, is counted
   * apart; the same status under its implicit stepper is not */
  fb_run_tally_add(&t, "unstable", "lugre", "rk4");
  fb_run_tally_add(&t, "unstable", "lugre", "bdf2");
  fb_run_tally_text(&t, buf, sizeof buf);
  cr_expect_str_eq(buf, "8 runs (2 ok, 3 unstable, 1 suspect, 1 budget, 1 failed; 1 of the "
                        "unstable and failed expected: stiff laws under explicit steppers)");
}

/* Before: smooth-sign/rkf45 on coupled-sledges (A = 2, mu = 0.2) was `unstable` with index
 * 4.06 at tol 1e-6 and 4.06 at tol 1e-10: its energy, 2.1e-4 J, is 40x the Coulomb
 * reference's 5.2e-6 J because the regularized law lets the sledges oscillate where the
 * reference sticks, while E_disc was 1.1e-8 m against its own converged solution's 1.3e-2 m.
 * Energy the converged solution has too is the model's physics, not an instability; energy
 * growth with a run that departs from its own solution still is one. */
Test(verdicts, energy_of_the_model_itself_is_no_instability)
{
  fb_case c;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&c, "coupled-sledges", "smooth-sign", "rkf45", &err), FB_OK);
  cr_assert_eq(fb_case_set(&c, "A=2", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&c, "mu=0.2", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_metrics m;
  fb_metrics_nan(&m);
  m.disc_x_l2 = 1.12e-8;
  m.own_x_l2 = 1.293e-2;
  m.energy_max = 2.098e-4;
  m.energy_ref_max = 5.171e-6;
  fb_metrics_stability(c.pb.plant, &m);
  char why[400];
  cr_expect(m.instability > 4.05, "the index is kept: %g", m.instability);
  cr_expect(!fb_run_unstable(FB_OK, &m, why, sizeof why), "index %g", m.instability);
  m.disc_x_l2 = 2e-3; /* 15 % of its own solution's size: the energy counts */
  fb_metrics_stability(c.pb.plant, &m);
  cr_expect(fb_run_unstable(FB_OK, &m, why, sizeof why), "index %g", m.instability);
  cr_expect(m.instability >= 4.05, "index %g", m.instability);
  cr_expect(strstr(why, "against the model's own converged solution's size") != NULL, "%s", why);
  fb_case_free(&c);
}
