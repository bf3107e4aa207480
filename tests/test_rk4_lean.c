/* test_rk4_lean.c — `rk4` with a fixed step is the classical method itself (4 RHS per
 * step, integrators/rk4_lean.c), and its scalar hot paths (fb_rk4_lean_scalar_step, the
 * law through a function pointer, and the model's own kernel, FB_MODEL_KERNELS with the
 * law inlined: what fixed-step rk4 runs on one-DOF plants) compute exactly, to the bit,
 * what the generic stepper computes through the GSL system callback; the benchmark
 * (`fricbench bench`) relies on it.  And the loop of those steps inside the kernel, which
 * calls the recorder only on the steps that fill the output grid (fb_quiet), records the
 * same trajectory, counters and status as the recorder called on every step. */
#include <criterion/criterion.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <string.h>

#include "fb_gsl_ode.h"
#include "fb_kernel.h"
#include "fb_model_registry_int.h"
#include "fb_system.h"
#include "fb_test.h"

/* n steps of h by the scalar path and by the generic stepper on the same system. */
static void compare_paths(const char *scenario, const char *model, double h, int n)
{
  fb_case cs;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&cs, scenario, model, "rk4", &err), FB_OK, "%s", err.msg);
  cs.opts.h = h;
  cr_assert_eq(fb_case_prepare(&cs, &err), FB_OK, "%s", err.msg);
  fb_system s;
  fb_counters c1 = {0}, c2 = {0};
  cr_assert_eq(fb_system_alloc(&s, &cs.pb, 1000000000UL), FB_OK);
  cr_assert(s.scalar, "%s on %s takes the scalar path", model, scenario);
  if (strcmp(scenario, "stick-slip") == 0) /* its forcing as data: the kernels do not call it */
    cr_assert_eq(s.fa_mode, 3, "stick-slip's forcing is evaluated in line (fa_mode %d)",
                 s.fa_mode);
  if (strcmp(scenario, "inclined-block") == 0)
    cr_assert(!cs.sc.plant.has_D && !cs.sc.plant.has_K, "inclined-block: no damper, no spring");
  const size_t dim = cs.pb.dim;
  double y1[8], y2[8], y3[8], yerr[8];
  fb_problem_initial_state(&cs.pb, y1);
  memcpy(y2, y1, sizeof y1);
  memcpy(y3, y1, sizeof y1);
  fb_counters c3 = {0};
  const fb_scalar_step_fn kernel = fb_rk4_scalar_kernel(&s);
  cr_assert(kernel != NULL, "%s: a scalar system has a fixed-step rk4 kernel", model);
  cr_expect(cs.md.type->kernels == NULL || kernel == cs.md.type->kernels->rk4_scalar,
            "%s: the model's own kernel is the one taken", model);
  gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(fb_step_rk4_lean, dim);
  gsl_odeiv2_system generic = s.gsys;
  generic.function = fb_system_rhs; /* the generic assembly, through the callback */
  for (int k = 0; k < n; k++) {
    const double t = k * h;
    s.cnt = &c1;
    cr_assert_eq(fb_rk4_lean_scalar_step(&s, dim, t, h, y1, yerr), GSL_SUCCESS);
    s.cnt = &c2;
    cr_assert_eq(gsl_odeiv2_step_apply(st, t, h, y2, yerr, NULL, NULL, &generic), GSL_SUCCESS);
    s.cnt = &c3;
    cr_assert_eq(kernel(&s, t, h, y3, yerr), GSL_SUCCESS);
  }
  for (size_t i = 0; i < dim; i++) {
    cr_expect(y1[i] == y2[i], "%s: component %zu: scalar path %.17g, generic %.17g", model, i,
              y1[i], y2[i]);
    cr_expect(y3[i] == y2[i], "%s: component %zu: model kernel %.17g, generic %.17g", model, i,
              y3[i], y2[i]);
  }
  cr_expect_eq(c3.nfe, 4UL * (unsigned long)n, "%s: 4 RHS per step in the kernel", model);
  cr_expect_eq(c1.nfe, 4UL * (unsigned long)n, "%s: 4 RHS per step on the scalar path", model);
  cr_expect_eq(c2.nfe, 4UL * (unsigned long)n, "%s: 4 RHS per step on the generic path", model);
  gsl_odeiv2_step_free(st);
  fb_system_free(&s);
  fb_case_free(&cs);
}

Test(rk4_lean, scalar_path_is_the_generic_path_to_the_bit)
{
  const char *models[] = {"naive-sign", "smooth-sign", "kikuuwe", "lugre", "dahl",
                          "penalty"};
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
    compare_paths("stick-slip", models[i], 1e-5, 20000); /* stable for LuGre's bristles */
    /* no spring, no damper: the kernel's unconditional 0 x and 0 v terms */
    compare_paths("inclined-block", models[i], 1e-5, 20000);
  }
}

/* Fourth order with 4 evaluations per step: halving h divides the error at T by ~16
 * (smooth-sign on stick-slip, error against a run at h/64). */
Test(rk4_lean, classical_fourth_order_and_cost)
{
  const char *sets[] = {"T=1", "v_ratio=1", NULL};
  fb_trace ref, a, b;
  fb_run_result r;
  fbt_run("stick-slip", "smooth-sign", "rk4", 1e-2 / 64, 0, sets, 2, &ref, NULL, &r);
  fbt_run("stick-slip", "smooth-sign", "rk4", 1e-2, 0, sets, 2, &a, NULL, &r);
  cr_expect_eq(r.cnt.nfe, 4 * r.cnt.nsteps, "4 RHS per step, not GSL's 11");
  cr_expect_eq(r.cnt.nsteps, 100UL);
  fbt_run("stick-slip", "smooth-sign", "rk4", 1e-2 / 2, 0, sets, 2, &b, NULL, &r);
  const double ea = fabs(a.y[2] - ref.y[2]), eb = fabs(b.y[2] - ref.y[2]);
  cr_expect(ea / eb > 12 && ea / eb < 20, "error ratio %g (errors %g, %g): order 4", ea / eb, ea,
            eb);
  fb_trace_free(&ref);
  fb_trace_free(&a);
  fb_trace_free(&b);
}

/* ---- quiet steps: the recorder called only on grid steps (fb_quiet) ---------------------- */

static int count_step(void *ctx, double t, const double *y)
{
  (void)t, (void)y;
  ++*(unsigned long *)ctx;
  return 0;
}

/* One run of fb_case_run into *tr: with extra == 0 the fixed-step rk4 loop takes quiet
 * steps; an extra observer makes every step call the recorder. */
static int run_case(const char *scenario, const char *model, double h, size_t samples,
                    unsigned long max_steps, unsigned long max_rhs, int extra, fb_trace *tr,
                    fb_run_result *res)
{
  fb_case c;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&c, scenario, model, "rk4", &err), FB_OK, "%s", err.msg);
  c.opts.h = h;
  c.samples = samples;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  if (max_steps > 0)
    c.opts.max_steps = max_steps;
  if (max_rhs > 0)
    c.opts.max_rhs = max_rhs;
  cr_assert_eq(fb_trace_alloc(tr, samples, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz), FB_OK);
  unsigned long calls = 0;
  const fb_observer obs = {count_step, &calls};
  const int st = fb_case_run(&c, tr, extra ? &obs : NULL, res);
  if (extra && st == FB_OK) /* and the initial state */
    cr_expect_eq(calls, res->cnt.nsteps + 1, "the extra observer sees every step");
  fb_case_free(&c);
  return st;
}

static void expect_same_run(const char *scenario, const char *model, double h, size_t samples,
                            unsigned long max_steps, unsigned long max_rhs)
{
  fb_trace a, b;
  fb_run_result ra, rb;
  const int sa = run_case(scenario, model, h, samples, max_steps, max_rhs, 0, &a, &ra);
  const int sb = run_case(scenario, model, h, samples, max_steps, max_rhs, 1, &b, &rb);
  cr_expect_eq(sa, sb, "%s/%s: status %d with quiet steps, %d without", scenario, model, sa, sb);
  cr_expect_str_eq(ra.message, rb.message, "%s/%s: the same message", scenario, model);
  cr_expect(ra.t_reached == rb.t_reached && ra.cnt.nsteps == rb.cnt.nsteps &&
                ra.cnt.nfe == rb.cnt.nfe,
            "%s/%s: t %.17g / %.17g, steps %lu / %lu, rhs %lu / %lu", scenario, model,
            ra.t_reached, rb.t_reached, ra.cnt.nsteps, rb.cnt.nsteps, ra.cnt.nfe, rb.cnt.nfe);
  cr_assert_eq(a.filled, b.filled, "%s/%s: %zu and %zu samples", scenario, model, a.filled,
               b.filled);
  size_t diffs = 0;
  for (size_t k = 0; k < a.filled; k++) {
    diffs += a.t[k] != b.t[k];
    for (size_t i = 0; i < a.dim; i++)
      diffs += memcmp(&a.y[k * a.dim + i], &b.y[k * b.dim + i], sizeof(double)) != 0;
    for (size_t i = 0; i < a.nc; i++)
      diffs += memcmp(&a.F[k * a.nc + i], &b.F[k * b.nc + i], sizeof(double)) != 0 ||
               a.stick[k * a.nc + i] != b.stick[k * b.nc + i];
  }
  cr_expect_eq(diffs, 0, "%s/%s: %zu samples differ in a bit", scenario, model, diffs);
  fb_trace_free(&a);
  fb_trace_free(&b);
}

/* The trajectory on the grid (grid points inside steps, interpolated from the state the
 * quiet steps left), the counters, the status and the message are those of the run that
 * calls the recorder on every step: on every ODE model, on a break (drift's forcing has
 * none; preload-hold starts with a ramp), and when the step budget ends the run. */
Test(rk4_lean, quiet_steps_change_nothing)
{
  for (size_t m = 0; fb_model_registry[m] != NULL; m++) {
    const fb_model_type *mt = fb_model_registry[m];
    if (!(mt->caps & FB_MODEL_ODE))
      continue;
    expect_same_run("stick-slip", mt->name, 1e-4, 777, 0, 0);
    expect_same_run("stick-slip", mt->name, 1e-4, 1001, 0, 0);
    expect_same_run("stick-slip", mt->name, 1e-4, 1001, 12345, 0);
    /* the RHS budget ends inside a step (the kernel counts on a local copy) */
    expect_same_run("stick-slip", mt->name, 1e-4, 1001, 0, 4 * 23456 + 2);
    expect_same_run("inclined-block", mt->name, 1e-4, 501, 0, 0);
    expect_same_run("stick-slip", mt->name, 5e-2, 1001, 0, 0); /* the stiff laws diverge */
  }
}

/* ---- the forcing as data (fb_plant.forcing) -------------------------------------------- */

static void two_cos(const void *sp, double t, const double *x, const double *v, double *f)
{
  (void)sp, (void)x, (void)v;
  f[0] = 2.0 * cos(3.0 * t);
  f[1] = 0.0;
}

/* fb_plant_finish refuses forcing data that are not, to the bit, what force() computes:
 * an amplitude or a frequency one ulp off, another DOF, a force() that reads the state
 * or is missing; and accepts the exact ones. */
Test(rk4_lean, forcing_data_are_what_force_computes)
{
  const struct {
    fb_forcing fd;
    int uses_state, no_force, want;
    const char *what;
  } cases[] = {
      {{FB_FORCING_COS, 0, 2.0, 3.0}, 0, 0, FB_OK, "exact"},
      {{FB_FORCING_CALL, 0, 0.0, 0.0}, 0, 0, FB_OK, "none"},
      {{FB_FORCING_COS, 0, 0x1.0000000000001p+1, 3.0}, 0, 0, FB_EINVAL, "amp + 1 ulp"},
      {{FB_FORCING_COS, 0, 2.0, 0x1.8000000000001p+1}, 0, 0, FB_EINVAL, "omega + 1 ulp"},
      {{FB_FORCING_COS, 1, 2.0, 3.0}, 0, 0, FB_EINVAL, "the other DOF"},
      {{FB_FORCING_COS, 2, 2.0, 3.0}, 0, 0, FB_EINVAL, "no such DOF"},
      {{FB_FORCING_COS, 0, 2.0, 3.0}, 1, 0, FB_EINVAL, "force reads the state"},
      {{FB_FORCING_COS, 0, 2.0, 3.0}, 0, 1, FB_EINVAL, "no force"},
      {{FB_FORCING_COS, 0, 2.0, NAN}, 0, 0, FB_EINVAL, "omega NaN"},
      {{7, 0, 2.0, 3.0}, 0, 0, FB_EINVAL, "unknown kind"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    fb_plant pl;
    fb_err err = {{0}};
    cr_assert_eq(fb_plant_alloc(&pl, 2, 1, 0), FB_OK);
    pl.T = 10.0;
    pl.force = cases[k].no_force ? NULL : two_cos;
    pl.force_uses_state = cases[k].uses_state;
    pl.contact[0].law = (fb_friction){FB_SHAPE_COULOMB, 0.3, 0.3, 1.0};
    pl.contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
    pl.forcing = cases[k].fd;
    const int st = fb_plant_finish(&pl, "test", &err);
    cr_expect_eq(st, cases[k].want, "%s: status %d (%s)", cases[k].what, st, err.msg);
    if (cases[k].want != FB_OK)
      cr_expect(strstr(err.msg, "forcing data") != NULL, "%s: the message names it: %s",
                cases[k].what, err.msg);
    fb_plant_free(&pl);
  }
}

/* ---- the forcing cache (fb_system_fa_slot) ----------------------------------------------- */

static fb_force_fn cache_inner;
static int cache_calls;
static void counting_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  cache_calls++;
  cache_inner(sp, t, x, v, f);
}

/* A forcing of t alone is evaluated once per time while two times alternate (an implicit
 * Runge-Kutta step's Newton iterations: GSL's rk4imp evaluates its two stage times in
 * turn), a third time replaces the older one, and every value is the forcing's own. */
Test(rk4_lean, forcing_cache_keeps_two_times)
{
  fb_case cs;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&cs, "coupled-sledges", "lugre", "rk4imp", &err), FB_OK, "%s",
               err.msg);
  cr_assert_eq(fb_case_prepare(&cs, &err), FB_OK, "%s", err.msg);
  fb_plant *pl = &cs.sc.plant;
  cr_assert(pl->force != NULL && !pl->force_uses_state, "coupled-sledges: forcing of t alone");
  cache_inner = pl->force;
  pl->force = counting_force;
  fb_system s, fresh; /* fresh: emptied before each evaluation */
  fb_counters c = {0};
  cr_assert_eq(fb_system_alloc(&s, &cs.pb, 1000000000UL), FB_OK);
  cr_assert_eq(fb_system_alloc(&fresh, &cs.pb, 1000000000UL), FB_OK);
  cr_assert(!s.scalar, "two DOFs: the generic assembly");
  s.cnt = fresh.cnt = &c;
  double y[16] = {0}, dy[16], dy0[16];
  fb_problem_initial_state(&cs.pb, y);
  y[0] = 0.01;
  const double t1 = 0.21132486540518713, t2 = 0.78867513459481287, t3 = 0.5;
  const double ts[] = {t1, t2, t1, t2, t1, t2, t3, t2, t1};
  const int want[] = {1, 2, 2, 2, 2, 2, 3, 3, 4}; /* calls so far */
  for (size_t k = 0; k < sizeof ts / sizeof *ts; k++) {
    cr_assert_eq(fb_system_rhs(ts[k], y, dy, &s), GSL_SUCCESS);
    cr_expect_eq(cache_calls, want[k], "after t = %g (#%zu): %d calls, want %d", ts[k], k,
                 cache_calls, want[k]);
    fresh.fa_t = fresh.fa_t2 = NAN;
    cr_assert_eq(fb_system_rhs(ts[k], y, dy0, &fresh), GSL_SUCCESS);
    cache_calls = want[k];
    for (size_t i = 0; i < cs.pb.dim; i++)
      cr_expect(dy[i] == dy0[i], "t = %g, component %zu: %.17g cached, %.17g fresh", ts[k], i,
                dy[i], dy0[i]);
  }
  fb_system_free(&fresh);
  fb_system_free(&s);
  fb_case_free(&cs);
}
