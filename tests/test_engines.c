/* test_engines.c — the engines (docs/engines.md): the closed forms every engine must pass
 * where Coulomb friction is unambiguous (an incline steeper than atan(mu), a puck's stop
 * distance, push-hold at r = 2), each with a case where the engine must fail them (ODE's
 * own default friction reads mu as newtons), and the plumbing: an absent engine is
 * skipped (FRICBENCH_ENGINES_OFF simulates the absence), an engine run replays to the
 * bit.  Every present engine, every stepper; short runs at 1 ms.  No timing. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_normal_int.h"
#include "fb_suite.h"
#include "fb_test.h"

#define SAMPLES 201

/* Run engine model m with stepper integ on scenario s at h = 1 ms after sets; the trace
 * into *tr (the caller frees it). */
static void engine_run(const fb_model_type *m, const char *integ, const char *scenario,
                       const char *const *sets, fb_trace *tr)
{
  fb_run_result res;
  const int st = fbt_run(scenario, m->name, integ, 1e-3, 0, sets, SAMPLES, tr, NULL, &res);
  cr_assert_eq(st, FB_OK, "%s/%s on %s: %s", m->name, integ, scenario, res.message);
}

static double x_at(const fb_trace *tr, size_t k, size_t i)
{
  return tr->y[k * tr->dim + i];
}

static double v_at(const fb_trace *tr, size_t k, size_t i)
{
  return tr->y[k * tr->dim + tr->n + i];
}

/* The mean acceleration of DOF 0 between samples k0 and the last one. */
static double accel(const fb_trace *tr, size_t k0)
{
  const size_t k1 = tr->filled - 1;
  return (v_at(tr, k1, 0) - v_at(tr, k0, 0)) / (tr->t[k1] - tr->t[k0]);
}

/* Engines whose closed forms are checked in their own file, with the step and settings
 * where they meet them and the numbers by which they miss them at 1 ms: Bullet
 * (tests/test_engine_bullet.c, docs/engines/bullet.md). */
static int own_closed_forms(const fb_engine_entry *e)
{
  return strcmp(e->name, "bullet") == 0;
}

/* Calls check(model, stepper) for every present engine's every stepper; the number done. */
static size_t each_engine(void (*check)(const fb_model_type *, const char *))
{
  size_t n = 0;
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char why[160];
    if (!fb_engine_present(e, why, sizeof why)) {
      cr_log_info("engine %s absent (%s): not checked\n", e->name, why);
      continue;
    }
    if (own_closed_forms(e))
      continue;
    for (size_t i = 0; e->model->schemes[i] != NULL; i++, n++)
      check(e->model, e->model->schemes[i]->name);
  }
  return n;
}

/* inclined-block at 30 degrees with mu = 0.3 < tan 30: from rest it slides at
 * a = g (sin - mu cos) = 2.356 m/s^2 ([ShourbagyMatuttis] §2; docs/design.md §7). */
static void incline(const fb_model_type *m, const char *integ)
{
  static const char *const sets[] = {"theta=30", "mu=0.3", "v0=0", "T=1", NULL};
  fb_trace tr;
  engine_run(m, integ, "inclined-block", sets, &tr);
  const double th = 3.14159265358979323846 / 6, exact = 9.81 * (sin(th) - 0.3 * cos(th));
  const double a = accel(&tr, SAMPLES / 4);
  cr_log_info("%s/%s incline: a = %.6g, exact %.6g (%.3g %%)\n", m->name, integ, a, exact,
              100 * (a / exact - 1));
  cr_expect(fabs(a / exact - 1) <= 0.01, "%s/%s: a = %g, exact %g", m->name, integ, a, exact);
  fb_trace_free(&tr);
}

Test(engines, incline_slides_at_g_sin_minus_mu_cos, .timeout = 60)
{
  if (each_engine(incline) == 0)
    cr_log_info("no engine present: nothing to check\n");
}

/* puck launched at 1 m/s along x (yaw 0), mu = 0.3: stops after v0^2/(2 mu g) = 0.16989 m
 * (docs/design.md §13). */
static void puck_stop(const fb_model_type *m, const char *integ)
{
  static const char *const sets[] = {"vx0=1", "vy0=0", "T=0.6", NULL};
  fb_trace tr;
  engine_run(m, integ, "puck", sets, &tr);
  const double exact = 1.0 / (2 * 0.3 * 9.81), d = x_at(&tr, tr.filled - 1, 0);
  cr_log_info("%s/%s puck: stop at %.6g m, exact %.6g (%.3g %%)\n", m->name, integ, d, exact,
              100 * (d / exact - 1));
  cr_expect(fabs(d / exact - 1) <= 0.02, "%s/%s: stop at %g, exact %g", m->name, integ, d, exact);
  cr_expect(fabs(v_at(&tr, tr.filled - 1, 0)) < 1e-3, "stopped: v = %g",
            v_at(&tr, tr.filled - 1, 0));
  fb_trace_free(&tr);
}

Test(engines, puck_stops_at_v0_squared_over_2_mu_g, .timeout = 60)
{
  if (each_engine(puck_stop) == 0)
    cr_log_info("no engine present: nothing to check\n");
}

/* push-hold at r = 2: after t_on = 1 s the block slides at a = mu g (r - 1) = 2.943 m/s^2
 * (docs/design.md §5.2: the sliding force ratio; each engine's reading of mu). */
static void push_r2(const fb_model_type *m, const char *integ)
{
  static const char *const sets[] = {"r=2", "T=3", NULL};
  fb_trace tr;
  engine_run(m, integ, "push-hold", sets, &tr);
  const double exact = 0.3 * 9.81, a = accel(&tr, SAMPLES / 2);
  cr_log_info("%s/%s push r=2: a = %.6g, exact %.6g (%.3g %%)\n", m->name, integ, a, exact,
              100 * (a / exact - 1));
  cr_expect(fabs(a / exact - 1) <= 0.01, "%s/%s: a = %g, exact %g", m->name, integ, a, exact);
  fb_trace_free(&tr);
}

Test(engines, push_hold_r2_slides_at_mu_g, .timeout = 60)
{
  if (each_engine(push_r2) == 0)
    cr_log_info("no engine present: nothing to check\n");
}

/* The case where the rule must say no: ODE's own default friction (approx=none) reads mu
 * as a force bound in newtons at each contact point, 4 x 0.3 N on the box's face instead of
 * 0.3 x 19.62 N: the block slides almost freely, a = (2 x 5.886 - 1.2) / 2 = 5.29 m/s^2,
 * 1.8 times mu g (r - 1). */
Test(engines, ode_mu_as_newtons_fails_the_closed_form, .timeout = 60)
{
  const fb_model_type *m = fb_model_find("ode");
  char why[160];
  if (m == NULL || !fb_engine_present(fb_engine_of_model(m), why, sizeof why)) {
    cr_log_info("ODE absent: nothing to check\n");
    return;
  }
  static const char *const sets[] = {"r=2", "T=3", "approx=none", NULL};
  fb_trace tr;
  engine_run(m, "ode-step", "push-hold", sets, &tr);
  const double a = accel(&tr, SAMPLES / 2), trap = (2 * 0.3 * 2 * 9.81 - 4 * 0.3) / 2;
  cr_assert(fabs(a / (0.3 * 9.81) - 1) > 0.5, "approx=none must miss mu g: a = %g", a);
  cr_expect(fabs(a / trap - 1) <= 0.01, "a = %g, mu read as newtons gives %g", a, trap);
  fb_trace_free(&tr);
}

/* An engine run replays to the bit (what resume relies on: a rerun job gives the row the
 * interrupted one would have). */
Test(engines, runs_replay_identically, .timeout = 60)
{
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char why[160];
    if (!fb_engine_present(e, why, sizeof why))
      continue;
    static const char *const sets[] = {"r=0.99", "T=2", NULL};
    fb_trace a, b;
    engine_run(e->model, e->model->default_integrator, "push-hold", sets, &a);
    engine_run(e->model, e->model->default_integrator, "push-hold", sets, &b);
    cr_assert_eq(a.filled, b.filled);
    cr_assert_eq(memcmp(a.y, b.y, a.filled * a.dim * sizeof(double)), 0, "%s: states differ",
                 e->name);
    cr_assert_eq(memcmp(a.F, b.F, a.filled * a.nc * sizeof(double)), 0, "%s: forces differ",
                 e->name);
    fb_trace_free(&a);
    fb_trace_free(&b);
  }
}

/* Rows of model `name` in the default table. */
static size_t table_rows(const char *name)
{
  fb_table t;
  cr_assert_eq(fb_table_default(&t), FB_OK);
  size_t n = 0;
  for (size_t i = 0; i < t.n; i++)
    n += strcmp(t.e[i].model, name) == 0;
  fb_table_free(&t);
  return n;
}

/* An absent engine: no rows in the default table, `run --model ode` refused with the reason
 * (exit 2), `list engines` says "absent", and a suite skips it in one line of its summary
 * (never a failure).  Absence is simulated with FRICBENCH_ENGINES_OFF when ODE is built, and
 * real when it is not (-Dode=disabled, or no libode-dev); present: rows. */
Test(engines, absent_engine_is_skipped, .timeout = 120)
{
  const fb_model_type *m = fb_model_find("ode");
  char why[160];
  const int built = m != NULL && fb_engine_present(fb_engine_of_model(m), why, sizeof why);
  if (built) {
    cr_assert_gt(table_rows("ode"), 0, "a present engine has rows");
    setenv("FRICBENCH_ENGINES_OFF", "bullet,ode", 1);
    fb_case c;
    fb_err err = {{0}};
    cr_assert_eq(fb_case_init(&c, "push-hold", "ode", NULL, &err), FB_OK, "%s", err.msg);
    cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
    fb_run_result res;
    cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_EUNSUP);
    cr_assert(strstr(res.message, "absent") != NULL, "%s", res.message);
    fb_case_free(&c);
  }
  cr_assert_eq(table_rows("ode"), 0, "an absent engine has none");
  static char out[1 << 14], errbuf[1 << 14];
  const char *list[] = {"list", "engines", NULL};
  cr_assert_eq(fbt_cli(list, out, sizeof out, errbuf, sizeof errbuf), 0);
  cr_assert(strstr(out, "ode ") != NULL && strstr(out, "absent: ") != NULL, "%s", out);
  const char *run[] = {"run", "--scenario", "push-hold", "--model", "ode", "--h", "1e-3", NULL};
  cr_assert_eq(fbt_cli(run, out, sizeof out, errbuf, sizeof errbuf), 2);
  cr_assert(strstr(errbuf, "absent") != NULL, "%s", errbuf);
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  const char *suite[] = {"suite", "--plan", fbt_tiny_plan(), "--no-plots", "--jobs", "1",
                         "--out", dir, NULL};
  cr_assert_eq(fbt_cli(suite, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert(strstr(errbuf, "engine ode skipped") != NULL, "%s", errbuf);
  fbt_rmdir(dir);
  unsetenv("FRICBENCH_ENGINES_OFF");
}

/* The contract itself, on a hand-made case: the 2 kg box settles at rest on the plane for
 * 0.5 s at 1 ms (the state `open` reports), its contact carrying the weight; the depth and
 * the vertical velocity left are what docs/engines.md §2 reports. */
Test(engines, settling_leaves_the_box_resting, .timeout = 30)
{
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char why[160];
    if (!fb_engine_present(e, why, sizeof why))
      continue;
    fb_model md;
    cr_assert_eq(fb_model_init(&md, e->model), FB_OK);
    fb_engine_case c;
    memset(&c, 0, sizeof c);
    c.scenario = "push-hold";
    c.settings = md.params;
    c.T = 1, c.h = 1e-3;
    c.shape = FB_ENGINE_BOX;
    c.size = c.half_z = FB_ENGINE_BOX_HALF;
    c.mass = 2, c.inertia = NAN, c.mu = 0.3, c.gravity = 9.81;
    c.pos0[2] = c.half_z;
    c.settle = NAN; /* the engine's setting */
    void *ws = NULL;
    fb_engine_sample s;
    fb_err err = {{0}};
    cr_assert_eq(e->engine->open(&ws, &c, &s, &err), FB_OK, "%s", err.msg);
    const double depth = c.half_z - s.pos[2];
    cr_log_info("%s: after settling depth %.3g m, vz %.3g m/s, Fn %.6g N on %zu points\n",
                e->name, depth, s.vel[2], s.Fn, s.ncontacts);
    cr_expect(fabs(depth) < 1e-3 && fabs(s.vel[2]) < 1e-3, "%s: not at rest: depth %g, vz %g",
              e->name, depth, s.vel[2]);
    cr_expect(fabs(s.Fn / (2 * 9.81) - 1) < 1e-3, "%s: Fn = %g carries the weight", e->name,
              s.Fn);
    e->engine->close(ws);
    fb_model_free(&md);
  }
}

/* The belt, on the contract: a box at rest on ground moving at u = 0.5 m/s along x is
 * dragged at mu g = 2.943 m/s^2 (Coulomb slip against the surface) until it rides with it
 * at v = u, in (u / (mu g)) = 0.17 s. */
Test(engines, belt_drags_the_box_at_mu_g_to_its_speed, .timeout = 30)
{
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char why[160];
    if (!fb_engine_present(e, why, sizeof why) || own_closed_forms(e))
      continue;
    fb_model md;
    cr_assert_eq(fb_model_init(&md, e->model), FB_OK);
    fb_engine_case c;
    memset(&c, 0, sizeof c);
    c.settings = md.params;
    c.T = 1, c.h = 1e-3;
    c.shape = FB_ENGINE_BOX;
    c.size = c.half_z = FB_ENGINE_BOX_HALF;
    c.mass = 2, c.inertia = NAN, c.mu = 0.3, c.gravity = 9.81, c.belt = 1;
    c.pos0[2] = c.half_z;
    c.settle = NAN;
    void *ws = NULL;
    fb_engine_sample s;
    fb_err err = {{0}};
    fb_counters cnt = {0};
    cr_assert_eq(e->engine->open(&ws, &c, &s, &err), FB_OK, "%s", err.msg);
    double v100 = NAN;
    for (int k = 0; k < 400; k++) {
      const fb_engine_input in = {.t = k * 1e-3, .h = 1e-3, .gravity = 9.81, .belt_u = 0.5};
      cr_assert_eq(e->engine->step(ws, &in, &s, &cnt, &err), FB_OK, "%s", err.msg);
      if (k == 99)
        v100 = s.vel[0];
    }
    cr_log_info("%s belt: v(0.1 s) = %.6g (exact 0.2943), v(0.4 s) = %.6g (exact 0.5)\n",
                e->name, v100, s.vel[0]);
    cr_expect(fabs(v100 / 0.2943 - 1) < 0.01, "%s: v(0.1) = %g", e->name, v100);
    cr_expect(fabs(s.vel[0] - 0.5) < 1e-3, "%s: v(0.4) = %g rides with the belt", e->name,
              s.vel[0]);
    e->engine->close(ws);
    fb_model_free(&md);
  }
}

/* Restitution where the engine claims one (ODE: dContactBounce with the scenario's e): the
 * ball dropped from 1 m leaves its first impact at e times the speed it arrived with,
 * within 2 %; at e = 0.3 the ratio is 0.3 (within 5 %), not 0.7 (the rule says no to the
 * wrong e).  Speeds at the start of the contact step and of the first free step, as the
 * contact scheme's statistics record them. */
static double first_bounce(const fb_model_type *m, const char *integ, const char *e_set)
{
  fb_case c;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&c, "bouncing-ball", m->name, integ, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&c, e_set, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&c, "T=1", &err), FB_OK, "%s", err.msg);
  c.opts.h = 1e-3;
  c.samples = SAMPLES;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_impact_stats st;
  fb_impact_stats_init(&st, 0);
  c.opts.stats = &st;
  fb_run_result res;
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_OK, "%s", res.message);
  fb_case_free(&c);
  cr_assert_geq(st.n, 1, "an impact");
  return -st.v_out[0] / st.v_in[0];
}

static void bounce(const fb_model_type *m, const char *integ)
{
  const double e7 = first_bounce(m, integ, "e=0.7"), e3 = first_bounce(m, integ, "e=0.3");
  cr_log_info("%s/%s first bounce: %.5g at e = 0.7, %.5g at e = 0.3\n", m->name, integ, e7, e3);
  cr_expect(fabs(e7 / 0.7 - 1) <= 0.02, "%s/%s: e_eff %g at e = 0.7", m->name, integ, e7);
  /* the slower rebound loses a step of gravity more in relative terms (2 % here) */
  cr_expect(fabs(e3 / 0.7 - 1) > 0.1 && fabs(e3 / 0.3 - 1) <= 0.05, "%s/%s: e_eff %g at 0.3",
            m->name, integ, e3);
}

Test(engines, ball_bounces_with_the_nominal_restitution, .timeout = 60)
{
  if (each_engine(bounce) == 0)
    cr_log_info("no engine present: nothing to check\n");
}
