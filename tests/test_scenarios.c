/* test_scenarios.c — physics on the foundation scenarios: the inclined block stops and
 * sticks, the naive law chatters, LuGre and smooth-sign drift, Kikuuwe and the
 * elasto-plastic model hold within their compliance. */
#define _POSIX_C_SOURCE 200809L /* alarm */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_test.h"
#include "fb_util.h"
#include "fb_integrator_int.h"

/* Inclined block, mu = 3 tan(theta) (docs/design.md §7). */
static const double th = 20.0 * M_PI / 180.0, g = 9.81;
static double mu3(void) { return 3.0 * tan(th); }
static double t_star(void) { return 1.0 / (g * (mu3() * cos(th) - sin(th))); }
static double x_star(void) { return 0.5 * t_star(); }
static double Fs_block(void) { return mu3() * g * cos(th); }

/* Observer on every accepted step: first downward crossing of v = 0 (linearly
 * interpolated), then the extent of x and the number of sign changes of v after it. */
typedef struct stop_watch {
  double tp, vp, xp;
  double t_stop, x_stop;
  double xmin, xmax;        /* after t_stop + settle */
  double settle;
  unsigned long sign_changes; /* of v, after t_stop */
  int started;
} stop_watch;

static int watch_step(void *ctx, double t, const double *y)
{
  stop_watch *w = ctx;
  const double x = y[0], v = y[1];
  if (w->started && isnan(w->t_stop) && v <= 0 && w->vp > 0) {
    const double a = w->vp / (w->vp - v);
    w->t_stop = w->tp + a * (t - w->tp);
    w->x_stop = w->xp + a * (x - w->xp);
  } else if (!isnan(w->t_stop)) {
    if ((v > 0 && w->vp < 0) || (v < 0 && w->vp > 0))
      w->sign_changes++;
    if (t >= w->t_stop + w->settle) {
      w->xmin = fmin(w->xmin, x);
      w->xmax = fmax(w->xmax, x);
    }
  }
  if (v != 0)
    w->vp = v;
  w->tp = t;
  w->xp = x;
  w->started = 1;
  return 0;
}

static stop_watch watch(const char *model, const char *integ, double h, double tol,
                        const char *const *sets, double settle)
{
  stop_watch w = {.t_stop = NAN, .x_stop = NAN, .xmin = INFINITY, .xmax = -INFINITY,
                  .settle = settle};
  fb_observer obs = {watch_step, &w};
  fb_run_result res;
  fbt_run("inclined-block", model, integ, h, tol, sets, 2, NULL, &obs, &res);
  cr_assert_eq(res.status, FB_OK, "%s: %s", model, res.message);
  cr_assert(!isnan(w.t_stop), "%s never stopped", model);
  return w;
}

/* Stop time within dt_tol, stop position within the compliance Fs/K, and afterwards x
 * stays within `band` of x* (Fs/K for a damped anchor; an undamped penalty spring
 * overshoots its static deflection by as much again, so 2 Fs/cT). */
static void check_stop(const char *model, const stop_watch *w, double compliance, double band,
                       double dt_tol)
{
  const double ts = t_star(), xs = x_star();
  cr_log_info("%-14s t_stop=%.8f (exact %.8f, err %.2e)  x_stop err %.2e  after: x in "
              "[%+.3e, %+.3e] of x*, compliance Fs/K = %.3e\n",
              model, w->t_stop, ts, w->t_stop - ts, w->x_stop - xs, w->xmin - xs, w->xmax - xs,
              compliance);
  cr_assert(fabs(w->t_stop - ts) <= dt_tol, "%s: stop time %.8f vs %.8f", model, w->t_stop, ts);
  cr_assert(fabs(w->x_stop - xs) <= compliance, "%s: stop position %.8f vs %.8f", model,
            w->x_stop, xs);
  cr_assert(w->xmin >= xs - band && w->xmax <= xs + band,
            "%s: after the stop x leaves x* +- %g: [%g, %g]", model, band, w->xmin - xs,
            w->xmax - xs);
}

Test(inclined_block, kikuuwe_stops_and_sticks)
{
  const double K = pow(2 * M_PI * 100 * 0.5, 2); /* auto: m (2 pi 100 f_c)^2, f_c = 1/T */
  stop_watch w = watch("kikuuwe", "rk4", 1e-4, 0, NULL, 0.05);
  check_stop("kikuuwe", &w, Fs_block() / K, Fs_block() / K, 1e-4);
}

Test(inclined_block, penalty_stops_and_sticks)
{
  const double cT = pow(2 * M_PI * 100 * 0.5, 2);
  stop_watch w = watch("penalty", "rk4", 1e-4, 0, NULL, 0.05);
  check_stop("penalty", &w, Fs_block() / cT, 2 * Fs_block() / cT, 1e-4);
}

/* LuGre's viscous term sigma2 is physics the Coulomb block does not have: switch it off
 * for the exact comparison (with it, the stop moves by about sigma2 v0 t* / (2 m)). */
Test(inclined_block, lugre_stops_and_sticks)
{
  const double s0 = pow(2 * M_PI * 100 * 0.5, 2); /* auto sigma0, as Kikuuwe's K */
  stop_watch w = watch("lugre", "msbdf", 0, 1e-10, NULL, 0.05);
  check_stop("lugre", &w, Fs_block() / s0, Fs_block() / s0, 1e-4);
  const char *visc[] = {"sigma2=0.4", NULL}; /* the 1995 set's viscous term */
  stop_watch wd = watch("lugre", "msbdf", 0, 1e-10, visc, 0.05);
  cr_log_info("lugre (sigma2 = 0.4) t_stop=%.6f x_stop=%.6f\n", wd.t_stop, wd.x_stop);
  cr_assert(wd.t_stop < t_star() && wd.t_stop > 0.95 * t_star(),
            "viscous friction stops the block a little earlier");
}

/* [ShourbagyMatuttis] fig. 4: the naive law never sticks; at a fixed step it chatters. */
Test(inclined_block, naive_sign_chatters)
{
  stop_watch w = watch("naive-sign", "heun3", 1e-3, 0, NULL, 0.0);
  const double span = 2.0 - w.t_stop;
  cr_log_info("naive-sign/heun3 h=1e-3: %lu velocity sign changes in %.3f s after the stop "
              "(%.0f per second), x drifts by %.3e\n",
              w.sign_changes, span, w.sign_changes / span, w.xmax - w.xmin);
  cr_assert(w.sign_changes > 100, "naive-sign must chatter after the stop, got %lu",
            w.sign_changes);
}

/* Drift (docs/design.md §5 `drift`, default load 0.5 + 0.4 sin(2 pi t) < Fc): the exact solution
 * never moves.  Records max |x - x0| over the run on every accepted step. */
static int extent_step(void *ctx, double t, const double *y)
{
  double *e = ctx;
  (void)t;
  *e = fmax(*e, fabs(y[0]));
  return 0;
}

static double drift_extent(const char *model, const char *integ, double h, double tol,
                           double *x_end)
{
  double e = 0;
  fb_observer obs = {extent_step, &e};
  fb_trace tr;
  fb_run_result res;
  fbt_run("drift", model, integ, h, tol, NULL, 11, &tr, &obs, &res);
  cr_assert_eq(res.status, FB_OK, "%s: %s", model, res.message);
  *x_end = tr.y[10 * tr.dim];
  fb_trace_free(&tr);
  return e;
}

Test(drift, lugre_and_smooth_sign_drift_kikuuwe_and_penalty_hold)
{
  const double K = pow(2 * M_PI * 100 * 1.0, 2), Fs = 1.5; /* f_c = 1 Hz */
  double xe_l, xe_s, xe_k, xe_e;
  const double el = drift_extent("lugre", "msbdf", 0, 1e-10, &xe_l);
  const double es = drift_extent("smooth-sign", "rk4", 1e-4, 0, &xe_s);
  const double ek = drift_extent("kikuuwe", "rk4", 1e-4, 0, &xe_k);
  const double ee = drift_extent("penalty", "rk4", 1e-4, 0, &xe_e);
  cr_log_info("drift over 10 cycles: lugre x(T)=%.3e, smooth-sign x(T)=%.3e, kikuuwe max|x|=%.3e "
              "(bound Fs/K=%.3e), penalty max|x|=%.3e (bound Fs/cT=%.3e)\n",
              xe_l, xe_s, ek, Fs / K, ee, Fs / K);
  /* LuGre's presliding displacement is at most Fs/sigma0 (sigma0 auto = K here); drift
   * is what accumulates beyond it, cycle after cycle. */
  cr_assert(xe_l > 3 * Fs / K, "lugre must drift: x(T) = %g", xe_l);
  cr_assert(el > 3 * Fs / K);
  /* smooth-sign creeps at v = eps_v atanh(f/S(0)): with the mean load b = 0.5 and
   * eps_v = 1e-3 v_scale = 1e-3 * 0.9/(2 pi), about eps_v atanh(1/3) T over T = 10 s. */
  const double eps_v = 1e-3 * 0.9 / (2 * M_PI), creep = eps_v * atanh(0.5 / 1.5) * 10;
  cr_log_info("smooth-sign creep estimate %.3e, measured %.3e (max %.3e)\n", creep, xe_s, es);
  cr_assert(xe_s > 0.5 * creep && xe_s < 2 * creep, "smooth-sign must creep: x(T) = %g", xe_s);
  cr_assert(xe_s > 100 * Fs / K, "smooth-sign's creep dwarfs the true-stick compliance");
  cr_assert(ek <= Fs / K, "kikuuwe: max |x| = %g > Fs/K = %g", ek, Fs / K);
  cr_assert(ee <= Fs / K, "penalty: max |x| = %g > Fs/cT = %g", ee, Fs / K);
}

/* Drift grows with the number of cycles for LuGre (accumulation, not presliding). */
Test(drift, lugre_drift_accumulates)
{
  double x5, x10, e;
  fb_observer obs = {extent_step, &e};
  fb_trace tr;
  fb_run_result res;
  const char *s5[] = {"T=5", NULL}, *s10[] = {"T=10", NULL};
  fbt_run("drift", "lugre", "msbdf", 0, 1e-10, s5, 2, &tr, &obs, &res);
  x5 = tr.y[tr.dim];
  fb_trace_free(&tr);
  fbt_run("drift", "lugre", "msbdf", 0, 1e-10, s10, 2, &tr, &obs, &res);
  x10 = tr.y[tr.dim];
  fb_trace_free(&tr);
  cr_log_info("lugre drift: x(5) = %.4e, x(10) = %.4e: %.3e per cycle\n", x5, x10, (x10 - x5) / 5);
  cr_assert(x10 > 1.5 * x5, "drift accumulates");
}

/* Scenario references and parameters. */
Test(scenarios, inclined_block_exact)
{
  const fb_scenario_type *st = fb_scenario_find("inclined-block");
  fb_scenario sc;
  fb_err err;
  cr_assert_eq(fb_scenario_init(&sc, st), FB_OK);
  cr_assert_eq(fb_scenario_build(&sc, &err), FB_OK, "%s", err.msg);
  double x, v, F;
  st->exact(sc.params, t_star(), &x, &v, &F);
  cr_assert_float_eq(v, 0.0, 1e-14);
  cr_assert_float_eq(x, x_star(), 1e-14);
  st->exact(sc.params, 1.5, &x, &v, &F);
  cr_assert_float_eq(x, x_star(), 1e-14, "sticks forever");
  cr_assert_float_eq(F, -g * sin(th), 1e-12, "stick force balances gravity");
  cr_assert_eq(fb_params_set(st->params, "inclined-block", sc.params, "mu_ratio", "0.5", &err),
               FB_OK);
  st->exact(sc.params, 1.0, &x, &v, &F);
  const double a = g * (sin(th) - 0.5 * tan(th) * cos(th));
  cr_assert_float_eq(x, 1.0 + 0.5 * a, 1e-13, "uniform acceleration below tan(theta)");
  cr_assert_eq(fb_params_set(st->params, "inclined-block", sc.params, "v0", "-1", &err), FB_OK);
  st->exact(sc.params, 0.01, &x, &v, &F);
  cr_assert_float_eq(v, -1 + g * (sin(th) + 0.5 * tan(th) * cos(th)) * 0.01, 1e-13,
                     "uphill: both gravity and friction pull down");
  fb_scenario_free(&sc);
}

Test(scenarios, drift_rejects_fc_above_fs)
{
  const fb_scenario_type *st = fb_scenario_find("drift");
  fb_scenario sc;
  fb_err err;
  cr_assert_eq(fb_scenario_init(&sc, st), FB_OK);
  cr_assert_eq(fb_params_set(st->params, "drift", sc.params, "Fc", "2", &err), FB_OK);
  cr_assert_eq(fb_scenario_build(&sc, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "Fc") && strstr(err.msg, "Fs"), "%s", err.msg);
  fb_scenario_free(&sc);
}

/* Every scenario builds with its defaults, its breaks lie inside (t0, T), and its
 * exact reference (where it has one) starts at the initial state. */
Test(scenarios, registry_consistency)
{
  for (size_t i = 0; fb_scenario_registry[i] != NULL; i++) {
    const fb_scenario_type *st = fb_scenario_registry[i];
    fb_scenario sc;
    fb_err err;
    cr_assert_eq(fb_scenario_init(&sc, st), FB_OK);
    cr_assert_eq(fb_scenario_build(&sc, &err), FB_OK, "%s: %s", st->name, err.msg);
    const fb_plant *pl = &sc.plant;
    cr_assert(pl->f_c > 0 && pl->v_scale > 0, "%s: scales", st->name);
    if (st->ref_kind(sc.params) == FB_REF_EXACT) {
      double x[16], v[16];
      cr_assert(pl->n <= 16);
      cr_assert_eq(st->exact(sc.params, pl->t0, x, v, NULL), FB_OK);
      for (size_t j = 0; j < pl->n; j++) {
        cr_assert_float_eq(x[j], pl->x0[j], 1e-14, "%s: exact x(t0) = x0", st->name);
        cr_assert_float_eq(v[j], pl->v0[j], 1e-14, "%s: exact v(t0) = v0", st->name);
      }
    }
    fb_scenario_free(&sc);
  }
}

/* Every model runs on every scenario (multi-DOF and moving belts included) with its
 * default integrator and step, to T, with status ok; on a plant with 2-D contacts or
 * Jacobian rows (docs/design.md §13) a model or scheme without the vector form is refused
 * at prepare (FB_EUNSUP, the suite's skip) instead.
 *
 * One test case per (scenario, model) pair of the registries (a Criterion parameterized
 * test: each pair in its own worker with its own timeout), under a step budget
 * PAIR_MAX_STEPS, so that a model that stalls or slows a scenario fails in seconds with
 * a message naming the pair, instead of the whole loop timing out without a name. */
/* The budget: today the most any pair takes is 127407 steps (two-mass-drive, dahl) and
 * 834949 RHS evaluations (two-mass-drive, smooth-sign), 0.03 s; about 3x and 10x that. */
#define PAIR_MAX_STEPS 400000UL
#define PAIR_MAX_RHS 8000000UL
#define PAIR_WALL_S 20 /* then the run is cancelled (FB_EINTR): it fails naming its pair */

static atomic_int pair_cancel;

static void cancel_pair(int sig)
{
  (void)sig;
  atomic_store(&pair_cancel, 1);
}

typedef struct pair {
  char scenario[64], model[64];
} pair;

static void free_pairs(struct criterion_test_params *crp)
{
  cr_free(crp->params);
}

ParameterizedTestParameters(scenarios, every_model_on_every_scenario)
{
  size_t ns = 0, nm = 0;
  while (fb_scenario_registry[ns] != NULL)
    ns++;
  while (fb_model_registry[nm] != NULL)
    nm++;
  pair *p = cr_malloc(ns * nm * sizeof *p); /* Criterion frees it after the runs */
  cr_assert_not_null(p);
  for (size_t s = 0; s < ns; s++)
    for (size_t m = 0; m < nm; m++) {
      snprintf(p[s * nm + m].scenario, sizeof p->scenario, "%s", fb_scenario_registry[s]->name);
      snprintf(p[s * nm + m].model, sizeof p->model, "%s", fb_model_registry[m]->name);
    }
  return cr_make_param_array(pair, p, ns * nm, free_pairs);
}

ParameterizedTest(pair *pp, scenarios, every_model_on_every_scenario, .timeout = 60)
{
  const char *sn = pp->scenario, *mn = pp->model;
  /* a pair that is slow per step (the budget counts steps) is cancelled by the clock and
   * fails naming itself, before the timeout ends its worker (Criterion's report of a
   * timeout names no parameter) */
  signal(SIGALRM, cancel_pair);
  alarm(PAIR_WALL_S);
  fb_case c;
  fb_err err;
  fb_run_result res;
  const fb_model_type *mt = fb_model_find(mn);
  const fb_scenario_type *stype = fb_scenario_find(sn);
  cr_assert(mt != NULL && stype != NULL, "%s/%s: not in the registries", sn, mn);
  /* 2-D scenarios (docs/design.md §13): a model without a vector form is refused; one
   * whose vector form is its ODE law but whose default scheme is its own runs rkf45 */
  fb_scenario probe;
  cr_assert_eq(fb_scenario_init(&probe, stype), FB_OK, "%s/%s", sn, mn);
  cr_assert_eq(fb_scenario_build(&probe, &err), FB_OK, "%s/%s: %s", sn, mn, err.msg);
  const int spatial = probe.plant.npairs > 0 || probe.plant.has_jt;
  fb_scenario_free(&probe);
  const fb_integrator_type *di = fb_integrator_find(mt, mt->default_integrator);
  const char *integ = spatial && mt->force2 != NULL && di != NULL && di->needs != FB_MODEL_ODE &&
                              !(mt->caps & FB_MODEL_VEC2)
                          ? "rkf45"
                          : NULL;
  cr_assert_eq(fb_case_init(&c, sn, mn, integ, &err), FB_OK, "%s/%s: %s", sn, mn, err.msg);
  if (spatial && !fb_model_type_has_2d(mt)) {
    cr_assert_eq(fb_case_prepare(&c, &err), FB_EUNSUP, "%s/%s refused", sn, mn);
    cr_assert(strstr(err.msg, "2-D contacts") != NULL, "%s/%s: %s", sn, mn, err.msg);
    alarm(0);
    fb_case_free(&c);
    return;
  }
  c.cancel = &pair_cancel;
  c.opts.max_steps = PAIR_MAX_STEPS;
  c.opts.max_rhs = PAIR_MAX_RHS;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s/%s: %s", sn, mn, err.msg);
  cr_assert_leq(c.opts.max_steps, PAIR_MAX_STEPS, "%s/%s: the budget holds", sn, mn);
  fb_case_run(&c, NULL, NULL, &res);
  cr_expect_eq(res.status, FB_OK, "%s/%s/%s: %s", sn, mn, c.integ->name, res.message);
  cr_expect_eq(res.t_reached, c.sc.plant.T, "%s/%s reaches T", sn, mn);
  alarm(0);
  fb_case_free(&c);
}
