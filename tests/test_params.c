/* test_params.c — strict number parsing, parameter tables, friction characteristics. */
#include <criterion/criterion.h>
#include <math.h>

#include "fb_friction.h"
#include "fb_params.h"
#include "fb_test.h"
#include "fb_parse.h"

Test(parse, strict_numbers)
{
  double v;
  cr_assert_eq(fb_parse_double("1e-3", &v), FB_OK);
  cr_assert_eq(v, 1e-3);
  cr_assert_eq(fb_parse_double("-2.5", &v), FB_OK);
  const char *bad[] = {"", "1e-3x", "nan", "NaN", "inf", "-inf", "1e400", " 1", "abc", "1,5",
                       "--1", NULL};
  for (size_t i = 0; bad[i] != NULL; i++)
    cr_assert_neq(fb_parse_double(bad[i], &v), FB_OK, "'%s' must be rejected", bad[i]);
  unsigned long u;
  cr_assert_eq(fb_parse_ulong("42", &u), FB_OK);
  cr_assert_eq(u, 42);
  const char *badu[] = {"", "-1", "+3", "1.5", "99999999999999999999999", "7x", NULL};
  for (size_t i = 0; badu[i] != NULL; i++)
    cr_assert_neq(fb_parse_ulong(badu[i], &u), FB_OK, "'%s' must be rejected", badu[i]);
}

typedef struct demo {
  double m, n, c;
} demo;
static const char *const demo_choices[] = {"tanh", "linear", NULL};
static const fb_param_desc demo_desc[] = {
    {"m", "kg", "mass", offsetof(demo, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"n", "1", "count", offsetof(demo, n), 2, 1, 10, FB_PARAM_INT, NULL, NULL},
    {"c", "-", "choice", offsetof(demo, c), 0, 0, 1, FB_PARAM_CHOICE, NULL, demo_choices},
};
static const fb_param_set demo_set = {sizeof(demo), 3, demo_desc};

Test(params, set_and_check)
{
  demo d;
  fb_err err;
  fb_params_default(&demo_set, &d);
  cr_assert_eq(d.m, 1);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "m", "2.5", &err), FB_OK);
  cr_assert_eq(d.m, 2.5);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "m", "0", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "m = 0") && strstr(err.msg, "> 0"), "%s", err.msg);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "m", "-1", &err), FB_EINVAL);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "m", "1e-3x", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "1e-3x"), "%s", err.msg);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "n", "2.5", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "integer"), "%s", err.msg);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "n", "11", &err), FB_EINVAL);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "c", "linear", &err), FB_OK);
  cr_assert_eq(d.c, 1);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "c", "cubic", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "tanh, linear"), "%s", err.msg);
  cr_assert_eq(fb_params_set(&demo_set, "demo", &d, "nope", "1", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "nope"), "%s", err.msg);
  cr_assert_eq(d.m, 2.5, "a rejected value must not be stored");
}

/* mu(0) = mu_s, mu(inf) = mu_k, and the derivative matches differences. */
Test(friction, shapes)
{
  const fb_friction laws[] = {
      {FB_SHAPE_COULOMB, 0.5, 0.5, 1.0},
      {FB_SHAPE_STRIBECK, 1.5, 1.0, 0.001},
      {FB_SHAPE_GLOWINSKI_LINEAR, 1.0, 2.0 / 3.0, 0.1},
      {FB_SHAPE_GLOWINSKI_ALGEBRAIC, 1.0, 2.0 / 3.0, 0.1},
      {FB_SHAPE_LEINE, 1.0, 0.0, 1.0 / 3.0},
  };
  for (size_t i = 0; i < sizeof laws / sizeof laws[0]; i++) {
    const fb_friction *L = &laws[i];
    fb_err err;
    cr_assert_eq(fb_friction_check(L, "t", &err), FB_OK, "%s", err.msg);
    cr_assert_float_eq(fb_friction_mu(L, 0.0, NULL), L->mu_s, 1e-15, "shape %s", fb_shape_names[i]);
    cr_assert_float_eq(fb_friction_mu(L, 1e9, NULL), fb_friction_mu_inf(L), 1e-8, "shape %s",
                       fb_shape_names[i]);
    const double ws[] = {0.03, 0.0007, 0.5, 2.0};
    for (size_t k = 0; k < 4; k++) {
      const double w = ws[k], dw = 1e-7 * w;
      double d;
      fb_friction_mu(L, w, &d);
      const double fd = (fb_friction_mu(L, w + dw, NULL) - fb_friction_mu(L, w - dw, NULL)) / (2 * dw);
      cr_assert(fabs(d - fd) <= 1e-5 * (1 + fabs(fd)), "shape %s w=%g: %g vs %g", fb_shape_names[i],
                w, d, fd);
    }
  }
  fb_err err;
  const fb_friction bad = {FB_SHAPE_STRIBECK, 1.0, 1.5, 0.001};
  cr_assert_eq(fb_friction_check(&bad, "t", &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "Fc") && strstr(err.msg, "Fs"), "%s", err.msg);
}
