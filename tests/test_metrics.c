/* test_metrics.c — the metrics of docs/design.md §6 on synthetic trajectories with known answers. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_metrics.h"
#include "fb_models.h"
#include "fb_test.h"
#include "fb_util.h"
#include "fb_integrator_int.h"

/* A one-DOF plant on [0, 4] with one contact (Fs = 2 N), belt speed u, and the
 * naive-sign model (no states) so traces are [x, v]. */
typedef struct fixture {
  fb_plant pl;
  fb_model md;
  fb_problem pb;
  fb_trace run, ref;
  fb_reference R;
} fixture;

static void fixture_init(fixture *f, size_t ns, double u)
{
  fb_err err;
  memset(f, 0, sizeof *f);
  cr_assert_eq(fb_plant_alloc(&f->pl, 1, 1, 0), FB_OK);
  f->pl.T = 4;
  f->pl.f_c = 0.5;
  f->pl.v_scale = 1;
  f->pl.v_stick = 1e-6;
  f->pl.contact[0].law = (fb_friction){FB_SHAPE_COULOMB, 2, 2, 1};
  f->pl.contact[0].c0 = (fb_contact_state){1, u, 0};
  cr_assert_eq(fb_plant_finish(&f->pl, "synthetic", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_init(&f->md, &fb_model_naive_sign), FB_OK);
  cr_assert_eq(fb_model_resolve(&f->md, &f->pl, &err), FB_OK);
  fb_problem_init(&f->pb, &f->pl, &f->md);
  cr_assert_eq(fb_trace_alloc(&f->run, ns, 1, 1, 0), FB_OK);
  cr_assert_eq(fb_trace_alloc(&f->ref, ns, 1, 1, 0), FB_OK);
  for (size_t k = 0; k < ns; k++)
    f->run.t[k] = f->ref.t[k] = 4.0 * (double)k / (double)(ns - 1);
  f->run.filled = f->ref.filled = ns;
  f->R.tr = f->ref;
  f->R.nc = 1;
  f->R.stick = calloc(1, sizeof(fb_spans));
}

static void fixture_free(fixture *f)
{
  fb_trace_free(&f->run);
  fb_trace_free(&f->ref);
  fb_spans_free(&f->R.stick[0]);
  free(f->R.stick);
  fb_model_free(&f->md);
  fb_plant_free(&f->pl);
}

/* x off by a constant c and v by sin(pi t / 2): L2 errors c sqrt(T) and sqrt(T/2). */
Test(metrics, l2_max_and_final_errors)
{
  fixture f;
  fixture_init(&f, 4001, 0);
  for (size_t k = 0; k < 4001; k++) {
    const double t = f.run.t[k];
    f.ref.y[2 * k] = t * t;
    f.run.y[2 * k] = t * t + 0.01;
    f.ref.y[2 * k + 1] = 2 * t;
    f.run.y[2 * k + 1] = 2 * t + sin(M_PI * t / 2);
  }
  f.R.tr = f.ref;
  fb_metrics m;
  cr_assert_eq(fb_metrics_compute(&f.pb, &f.run, &f.R, NULL, &m), FB_OK);
  cr_assert_float_eq(m.err_x_l2, 0.01 * 2.0, 1e-12);
  cr_assert_float_eq(m.err_v_l2, sqrt(2.0), 1e-6, "trapezoid of sin^2 on 4000 intervals");
  cr_assert_float_eq(m.err_x_max, 0.01, 1e-12);
  cr_assert_float_eq(m.err_v_max, 1.0, 1e-6);
  cr_assert_float_eq(m.err_x_T, 0.01, 1e-12);
  cr_assert_float_eq(m.err_v_T, 0.0, 1e-12);
  fixture_free(&f);
}

/* Reference sticks on [1, 3]; the run creeps 0.01 m over it on a belt of 0.2 m/s (so it
 * moves at 0.2 + 0.005 m/s): drift counts only the relative displacement. */
Test(metrics, drift_of_relative_displacement)
{
  fixture f;
  fixture_init(&f, 401, 0.2);
  for (size_t k = 0; k < 401; k++) {
    const double t = f.run.t[k];
    const double in = t >= 1 && t <= 3;
    f.ref.y[2 * k + 1] = in ? 0.2 : 1.0;
    f.run.y[2 * k + 1] = in ? 0.205 : 1.0;
    f.run.y[2 * k] = t < 1 ? t : t <= 3 ? 1 + 0.205 * (t - 1) : 1.41 + (t - 3);
  }
  f.R.tr = f.ref;
  cr_assert_eq(fb_spans_from_trace(&f.R.stick[0], &f.pb, &f.ref, 0, 1e-12), FB_OK);
  cr_assert_eq(f.R.stick[0].n, 1);
  cr_assert_float_eq(f.R.stick[0].s[0].t0, 1.0, 1e-12);
  cr_assert_float_eq(f.R.stick[0].s[0].t1, 3.0, 1e-12);
  fb_metrics m;
  cr_assert_eq(fb_metrics_compute(&f.pb, &f.run, &f.R, NULL, &m), FB_OK);
  cr_assert_float_eq(m.drift, 0.01, 1e-12);
  cr_assert_float_eq(m.drift_per_cycle, 0.01 / (2.0 * 0.5), 1e-12, "2 s of stick at f_c = 0.5 Hz");
  cr_assert_float_eq(m.stick_time_ref, 2.0, 1e-12);
  cr_assert_eq(m.stick_time, 0.0, "the run never sticks (|v_r| = 0.005)");
  cr_assert_eq(m.missed, 1);
  cr_assert_float_eq(m.chatter_v_rms, 0.005, 1e-12);
  fixture_free(&f);
}

/* Stick intervals: onset late by 0.1 s, offset exact; one spurious run interval. */
Test(metrics, stick_fidelity)
{
  fixture f;
  fixture_init(&f, 401, 0);
  for (size_t k = 0; k < 401; k++) {
    const double t = f.run.t[k];
    f.ref.y[2 * k + 1] = (t >= 1 && t <= 2) ? 0 : 1;
    f.run.y[2 * k + 1] = ((t >= 1.1 && t <= 2) || (t >= 3 && t <= 3.5)) ? 0 : 1;
  }
  f.R.tr = f.ref;
  fb_spans_from_trace(&f.R.stick[0], &f.pb, &f.ref, 0, 1e-12);
  fb_metrics m;
  fb_metrics_compute(&f.pb, &f.run, &f.R, NULL, &m);
  cr_assert_float_eq(m.stick_time_ref, 1.0, 1e-12);
  cr_assert_float_eq(m.stick_time, 0.9 + 0.5, 1e-12);
  cr_assert_float_eq(m.onset_err, 0.1, 1e-12);
  cr_assert_float_eq(m.offset_err, 0.0, 1e-12);
  cr_assert_eq(m.missed, 0);
  cr_assert_eq(m.spurious, 1);
  fixture_free(&f);
}

/* Chatter counted on every step: a velocity alternating in sign at 50 Hz inside the
 * reference's stick interval [1, 3] gives 100 sign changes per second there. */
Test(metrics, chatter_sign_changes_and_force_variation)
{
  fixture f;
  fixture_init(&f, 5, 0);
  fb_spans_push(&f.R.stick[0], 1.0, 3.0);
  fb_stream st;
  cr_assert_eq(fb_stream_init(&st, &f.pb, &f.R), FB_OK);
  for (int i = 0; i <= 400; i++) { /* steps of 0.01 s on [0, 4] */
    const double t = 0.01 * i;
    const double y[2] = {0, (i % 2) ? 1e-3 : -1e-3};
    fb_stream_step(&st, t, y);
  }
  /* 201 steps inside [1, 3], 200 sign changes in 2 s; F = -2 sgn v flips by 4 N each */
  cr_assert_float_eq(st.sign_changes, 200, 1e-12);
  cr_assert_float_eq(st.F_tv, 200 * 4.0, 1e-12);
  fb_metrics m;
  fb_metrics_compute(&f.pb, &f.run, &f.R, &st, &m);
  cr_assert_float_eq(m.chatter_rate, 100.0, 1e-12);
  cr_assert_float_eq(m.chatter_F_tv, 800.0 / (2.0 * 2.0), 1e-12, "TV / (Fs duration)");
  fb_stream_free(&st);
  fixture_free(&f);
}

/* Friction power F v must be <= 0: two samples push energy in. */
Test(metrics, positive_friction_power)
{
  fixture f;
  fixture_init(&f, 11, 0);
  for (size_t k = 0; k < 11; k++) {
    f.run.y[2 * k + 1] = 1.0;
    f.run.F[k] = (k == 3 || k == 7) ? 0.5 : -2.0;
  }
  fb_metrics m;
  fb_metrics_compute(&f.pb, &f.run, &f.R, NULL, &m);
  cr_assert_eq(m.power_pos_count, 2);
  cr_assert_float_eq(m.power_pos_max, 0.5, 1e-15);
  fixture_free(&f);
}

Test(metrics, observed_order)
{
  const double h[] = {0.1, 0.05, 0.025, 0.0125};
  double e[4];
  for (int k = 0; k < 4; k++)
    e[k] = 3.0 * h[k] * h[k] * (1 + 0.01 * (k % 2));
  cr_assert_float_eq(fb_observed_order(h, e, 4), 2.0, 0.02);
  const double bad[] = {NAN, 0.0, 1e-3, 5e-4};
  cr_assert_float_eq(fb_observed_order(h, bad, 4), 1.0, 1e-12, "non-finite and zero skipped");
  cr_assert(isnan(fb_observed_order(h, bad, 3)), "fewer than two points");
}

/* Errors whose local orders are the given ones, on a ratio-1.7 ladder (as the suite's). */
static void ladder_errors(const double *p, size_t nl, double *h, double *e)
{
  h[0] = 0.0091;
  e[0] = 1e-2;
  for (size_t k = 0; k < nl; k++) {
    h[k + 1] = h[k] / 1.7;
    e[k + 1] = e[k] * pow(h[k + 1] / h[k], p[k]);
  }
}

/* docs/design.md §10: a window is asymptotic only when its local orders agree within 0.3 and do
 * not drift one way by more than 0.3.  moreau-jean on glowinski-tp2 fell 1.96 -> 1.54 over
 * its ladder and was fitted (1.88) on 1.96 ... 1.77, a slice of that fall. */
Test(metrics, order_window_refuses_a_drift)
{
  double h[8], e[8];
  fb_order_fit f;
  /* falling steadily by 0.16 per step: every window is a slice of the fall */
  const double drift[] = {2.0, 1.84, 1.68, 1.52, 1.36, 1.2, 1.04};
  ladder_errors(drift, 7, h, e);
  fb_order_asymptotic(h, e, 8, 1e-15, &f);
  cr_expect(isnan(f.order), "fitted %g on a drift", f.order);
  cr_expect_str_eq(f.why, "local orders drift");
  /* the glowinski-tp2 ladder: the coarse windows drift; what is left is the finest
   * window the rule admits, never the coarse 1.96 ... 1.77 slice */
  const double tp2[] = {1.96, 1.93, 1.9, 1.83, 1.77, 1.63, 1.54};
  ladder_errors(tp2, 7, h, e);
  fb_order_asymptotic(h, e, 8, 1e-15, &f);
  cr_expect(isnan(f.order) || f.first >= 3, "window from point %zu, order %g", f.first, f.order);
  /* converging to 2 from below: the settled fine end is fitted, the rising start is not */
  const double conv[] = {1.52, 1.75, 1.91, 1.97, 1.98, 1.99, 2.0};
  ladder_errors(conv, 7, h, e);
  fb_order_asymptotic(h, e, 8, 1e-15, &f);
  cr_expect_float_eq(f.order, 1.97, 0.03);
  cr_expect_eq(f.first, 2, "the window starts where the orders settle: %zu", f.first);
  /* clean first order with noise: accepted over the whole ladder */
  const double clean[] = {1.01, 0.98, 1.03, 0.99, 1.02, 0.97, 1.0};
  ladder_errors(clean, 7, h, e);
  fb_order_asymptotic(h, e, 8, 1e-15, &f);
  cr_expect_float_eq(f.order, 1.0, 0.02);
  cr_expect_eq(f.count, 8);
  cr_expect_str_eq(f.why, "");
}
