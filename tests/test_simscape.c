/* test_simscape.c — Simscape's Translational Friction law (docs/models/simscape.md): its
 * closed-form signature F(v_brk) = F_brk + f v_brk (to tanh(10)), F(0) = 0, odd symmetry,
 * the auto levels from the contact's characteristic, the analytic slope, the refusal of
 * F_C > F_brk, and the creep it has by design under a push below breakaway. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_test.h"
#include "fricbench.h"

static const fb_friction stribeck = {FB_SHAPE_STRIBECK, 0.5, 0.3, 1e-3};

/* An instance with F_brk, F_C, v_brk, f set (NaN: auto), resolved at v_scale = 1. */
static void make(fb_model *m, double Fbrk, double FC, double vbrk, double f)
{
  fb_err err = {{0}};
  cr_assert_eq(fb_model_init(m, fb_model_find("simscape")), FB_OK);
  cr_assert_eq(fb_model_set(m, "F_brk", Fbrk, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(m, "F_C", FC, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(m, "v_brk", vbrk, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(m, "f", f, &err), FB_OK, "%s", err.msg);
  const fb_contact_scale sc = {1.0, 0.0, 5.0, 1.0, 1.0};
  cr_assert_eq(fb_model_resolve_scales(m, 1, &sc, &err), FB_OK, "%s", err.msg);
}

static double force(const fb_model *m, const fb_contact_in *c, double v)
{
  double F;
  cr_assert_eq(fb_model_force(m, 0, c, v, NULL, &F, NULL), FB_OK);
  return F;
}

/* The block's documented signature: at v = v_brk the force is F_brk + f v_brk, to
 * F_C (1 - tanh(10)) = 4.1e-9 F_C; it vanishes at 0 and is odd. */
Test(simscape, breakaway_point_zero_and_odd)
{
  const fb_contact_in c = {&stribeck, 10.0, 5.0, NAN, NAN};
  const double vbrk[] = {1e-4, 0.02, 0.1}, f[] = {0.0, 0.3, 40.0};
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 3; b++) {
      fb_model m;
      make(&m, 2.0, 1.5, vbrk[a], f[b]);
      const double want = 2.0 + f[b] * vbrk[a], got = -force(&m, &c, vbrk[a]);
      cr_assert(fabs(got - want) <= 1e-8 * want, "v_brk %g f %g: F(v_brk) = %.17g, want %.17g",
                vbrk[a], f[b], got, want);
      cr_assert_eq(force(&m, &c, 0.0), 0.0, "F(0) = 0");
      for (double v = 1e-7; v < 10.0; v *= 3.7)
        cr_assert_eq(force(&m, &c, -v), -force(&m, &c, v), "odd at %g", v);
      fb_model_free(&m);
    }
  /* the peak is at v_brk (f = 0): both sides are lower */
  fb_model m;
  make(&m, 2.0, 1.5, 0.02, 0.0);
  cr_assert(-force(&m, &c, 0.019) < -force(&m, &c, 0.02));
  cr_assert(-force(&m, &c, 0.021) < -force(&m, &c, 0.02));
  fb_model_free(&m);
}

/* Autos: F_brk = N mu_s and F_C = N mu_k of the contact at this instant (a normal force
 * that changes is followed), v_brk = 0.01 v_scale; far out the force is F_C. */
Test(simscape, auto_levels_follow_the_contact)
{
  fb_model m;
  make(&m, NAN, NAN, NAN, 0.0);
  cr_assert_float_eq(fb_model_get(&m, 0, "v_brk"), 0.01, 1e-15);
  for (double N = 1.0; N < 100.0; N *= 7.0) {
    const fb_contact_in c = {&stribeck, N, 0.5 * N, NAN, NAN};
    cr_assert(fabs(-force(&m, &c, 0.01) - 0.5 * N) <= 1e-8 * N, "F(v_brk) = Fs");
    cr_assert(fabs(-force(&m, &c, 5.0) - 0.3 * N) <= 1e-12 * N, "F(far) = Fc");
  }
  fb_model_free(&m);
}

/* The analytic slope (for implicit steppers) against a central difference. */
Test(simscape, jacobian_matches_a_difference)
{
  fb_model m;
  make(&m, 2.0, 1.5, 0.02, 0.7);
  const fb_contact_in c = {&stribeck, 10.0, 5.0, NAN, NAN};
  const fb_model_type *t = m.type;
  for (double v = -0.1; v <= 0.1; v += 0.0137) {
    fb_contact_jac J;
    memset(&J, 0, sizeof J);
    cr_assert_eq(t->jac(fb_model_cparams(&m, 0), &c, v, NULL, &J), FB_OK);
    const double d = 1e-7, fd = (force(&m, &c, v + d) - force(&m, &c, v - d)) / (2 * d);
    cr_assert(fabs(J.dF_dvr - fd) <= 1e-5 * fabs(fd) + 1e-6, "v %g: %g vs %g", v, J.dF_dvr, fd);
  }
  fb_model_free(&m);
}

Test(simscape, refuses_F_C_above_F_brk)
{
  fb_err err = {{0}};
  fb_model m;
  cr_assert_eq(fb_model_init(&m, fb_model_find("simscape")), FB_OK);
  cr_assert_eq(fb_model_set(&m, "F_brk", 1.0, &err), FB_OK);
  cr_assert_eq(fb_model_set(&m, "F_C", 2.0, &err), FB_OK);
  const fb_contact_scale sc = {1.0, 0.0, 5.0, 1.0, 1.0};
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "F_C = 2") && strstr(err.msg, "F_brk"), "%s", err.msg);
  fb_model_free(&m);
}

/* No stick by design: pushed at half its breakaway, the block creeps at a velocity where
 * the law's slope carries the push: (r Fs) ~ F_S(v), far below v_brk. */
Test(simscape, creeps_below_breakaway)
{
  const char *sets[] = {"r=0.5", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("push-hold", "simscape", "msbdf", 0, 1e-8, sets, 601, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const double v_end = tr.y[(tr.ns - 1) * tr.dim + 1];
  cr_assert(v_end > 0.0, "creeps forward: v(T) = %g", v_end);
  fb_trace_free(&tr);
}
