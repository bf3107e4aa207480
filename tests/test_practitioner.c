/* test_practitioner.c — the practitioners' questions (docs/design.md §6; §5
 * `push-hold`, §6): push-hold's closed form, the creep metric on a treatment that must creep
 * and on ones that must not, the yaw sweep's direction and magnitude errors under the disc
 * law (0) and the box cone (not 0), and the rest-energy metric's scope.  No timing. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_reference.h"
#include "fb_run_metrics.h"
#include "fb_test.h"
#include "fb_util.h"

/* push-hold's defaults: m = 2, mu = 0.3, g = 9.81, t_on = 1, T = 6. */
static const double Fs_def = 0.3 * 2.0 * 9.81;

static void *push_params(const char *r)
{
  const fb_scenario_type *st = fb_scenario_find("push-hold");
  cr_assert_not_null(st);
  void *sp = calloc(1, st->params->size);
  cr_assert_not_null(sp);
  fb_params_default(st->params, sp);
  fb_err err;
  cr_assert_eq(fb_params_set(st->params, st->name, sp, "r", r, &err), FB_OK, "%s", err.msg);
  return sp;
}

/* Below breakaway: exact rest, the stick force balancing the push; above: from t_on the
 * uniform acceleration a = (r - 1) mu g, x = a (t - 1)^2 / 2. */
Test(practitioner, push_hold_closed_form)
{
  const fb_scenario_type *st = fb_scenario_find("push-hold");
  void *sp = push_params("0.95");
  cr_assert_eq(st->ref_kind(sp), FB_REF_EXACT);
  fb_trace tr;
  fb_interval_list l;
  fb_err err;
  cr_assert_eq(fb_reference_run(st, sp, 601, &tr, &l, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; k < tr.filled; k++) {
    cr_assert_eq(tr.y[k * tr.dim], 0.0);
    cr_assert_eq(tr.y[k * tr.dim + 1], 0.0);
    cr_assert_eq(tr.F[k], tr.t[k] < 1.0 ? 0.0 : -0.95 * Fs_def);
  }
  cr_assert_eq(l.n, 1, "one stick interval over [0, T]");
  cr_assert(l.iv[0].mode == FB_MODE_STICK);
  fb_trace_free(&tr);
  fb_interval_list_free(&l);
  free(sp);

  sp = push_params("1.05");
  cr_assert_eq(fb_reference_run(st, sp, 601, &tr, NULL, &err), FB_OK, "%s", err.msg);
  const double a = 0.05 * 0.3 * 9.81;
  for (size_t k = 0; k < tr.filled; k++) {
    const double t = tr.t[k], s = t > 1.0 ? t - 1.0 : 0.0;
    cr_assert_float_eq(tr.y[k * tr.dim], 0.5 * a * s * s, 1e-14);
    cr_assert_float_eq(tr.y[k * tr.dim + 1], a * s, 1e-14);
  }
  cr_assert(tr.y[(tr.filled - 1) * tr.dim] > 0.9, "r = 1.05 slides: x(6) = a 25 / 2 = 0.92 m");
  fb_trace_free(&tr);
  free(sp);
}

/* One run's metrics as the suite computes them (the stream's per-step ones left out: the
 * practitioner metrics read the trace and the reference only). */
static fb_metrics pract_metrics(const char *scenario, const char *model, const char *integ,
                                double h, const char *const *sets)
{
  fb_case c;
  fb_err err = {{0}};
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, scenario, model, integ, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], &err), FB_OK, "%s", err.msg);
  if (h > 0)
    c.opts.h = h;
  c.samples = 601;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_reference ref;
  fb_ref_kind kind;
  char msg[256];
  cr_assert_eq(fb_case_reference(&c, c.samples, 20000000, 200000000, &ref, &kind, msg, sizeof msg),
               FB_OK, "%s", msg);
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fb_trace_alloc(&tr, c.samples, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz), FB_OK);
  cr_assert_eq(fb_case_run(&c, &tr, NULL, &res), FB_OK, "%s/%s: %s", scenario, model, res.message);
  fb_metrics m;
  cr_assert_eq(fb_metrics_compute(&c.pb, &tr, &ref, NULL, &m), FB_OK);
  fb_trace_free(&tr);
  fb_trace_free(&ref.tr);
  fb_reference_free_spans(&ref);
  fb_case_free(&c);
  return m;
}

/* At r = 0.95 and 1 ms a regularized sign creeps (its slope lets it move at about
 * 0.95 eps_v, eps_v = 1e-3 v_scale = 2.8 mm/s); an exact stick (the event-driven switching
 * scheme, the multiplier splitting) does not move at all. */
Test(practitioner, creep_regularized_yes_exact_stick_no, .timeout = 120)
{
  const fb_metrics ms = pract_metrics("push-hold", "smooth-sign", "rk4", 1e-3, NULL);
  const fb_metrics mw = pract_metrics("push-hold", "switching", "event", 1e-3, NULL);
  const fb_metrics mg = pract_metrics("push-hold", "glowinski", "glowinski-lie", 1e-3, NULL);
  cr_log_info("push-hold r = 0.95, h = 1 ms: creep smooth-sign %.4g, switching %.3g, "
              "glowinski %.3g m/s\n", ms.push_creep_v, mw.push_creep_v, mg.push_creep_v);
  cr_assert(ms.push_creep_v > 1e-3, "smooth-sign creeps: %g", ms.push_creep_v);
  cr_assert(fabs(mw.push_creep_v) <= 1e-15, "switching holds: %g", mw.push_creep_v);
  cr_assert(fabs(mg.push_creep_v) <= 1e-15, "glowinski holds: %g", mg.push_creep_v);
  /* above breakaway every treatment slides: the mean velocity a 5 s / 2 = 0.368 m/s */
  static const char *const slide[] = {"r=1.05", NULL};
  const fb_metrics m5 = pract_metrics("push-hold", "switching", "event", 1e-3, slide);
  cr_assert_float_eq(m5.push_creep_v, 0.05 * 0.3 * 9.81 * 2.5, 1e-9);
  /* rest energy: a driven plant does not pose the question; the block at rest gains none */
  cr_assert(isnan(ms.rest_energy_rise));
  static const char *const rest[] = {"r=0", "T=10", NULL};
  const fb_metrics mr = pract_metrics("push-hold", "smooth-sign", "rk4", 1e-3, rest);
  cr_assert_eq(mr.rest_energy_rise, 0.0);
  cr_assert(isnan(mr.push_creep_v), "no push, no break: no creep window");
}

/* The sliding force ratio at r = 2: a rigid Coulomb treatment gives exactly mu F_n. */
Test(practitioner, sliding_ratio_coulomb_zero)
{
  static const char *const r2[] = {"r=2", NULL};
  const fb_metrics m = pract_metrics("push-hold", "switching", "event", 1e-3, r2);
  cr_assert(fabs(m.slide_ratio) < 1e-12 && fabs(m.slide_ratio_max) < 1e-12, "%g %g",
            m.slide_ratio, m.slide_ratio_max);
}

/* The yaw sweep at 30 degrees: the disc law's friction opposes the slip exactly (direction
 * error ~0, |F| = mu N); the box cone's per-axis force points off by up to 45 degrees and
 * has magnitude sqrt 2 mu N while both axes slide. */
Test(practitioner, yaw_disc_exact_box_not)
{
  static const char *const disc[] = {"vx0=1", "vy0=0", "yaw=30", NULL};
  static const char *const box[] = {"vx0=1", "vy0=0", "yaw=30", "cone=box", NULL};
  const fb_metrics md = pract_metrics("puck", "naive-sign", NULL, 0, disc);
  const fb_metrics mb = pract_metrics("puck", "naive-sign", NULL, 0, box);
  cr_log_info("puck yaw 30: disc dir %.3g deg, |F|/(mu N) - 1 %.3g; box %.3g deg, %.3g\n",
              md.dir_err_max, md.slide_ratio_max, mb.dir_err_max, mb.slide_ratio_max);
  cr_assert(md.dir_err_max < 1e-9, "disc direction: %g", md.dir_err_max);
  cr_assert(fabs(md.slide_ratio_max) < 1e-12, "disc magnitude: %g", md.slide_ratio_max);
  cr_assert(mb.dir_err_max > 10.0, "box direction: %g", mb.dir_err_max);
  cr_assert_float_eq(mb.slide_ratio_max, sqrt(2.0) - 1.0, 1e-12);
}
