/* test_verdicts_scale.c — the `scale` group's cost-growth verdict (bench/analysis/
 * verdicts_scale.c, docs/scenarios/chain.md "Cost against n") is decided on deterministic
 * work counts, never on timings: a linear treatment says linear whatever its CPU times say,
 * a treatment whose work grows superlinearly (the dense store, or inner sweeps per step that
 * grow with n) says not linear, and two suites whose runs differ only in their timings give
 * identical verdict rows. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_verdicts.h"

static const char header[] =
    "group,tag,scenario,scenario_params,model,integrator,status,h,sweep,sweep_value,nsteps,"
    "nfe,ninner,cpu_s\n";

/* One row of group scale: treatment tag, store, n, counts and a CPU time (s). */
static size_t row(char *buf, size_t len, const char *tag, const char *store, double n,
                  double nsteps, double nfe, double ninner, double cpu)
{
  return (size_t)snprintf(buf, len,
                          "scale,%s,chain,n=%g;T=0.5;store=%s,m-%s,%s,ok,0.001,param:scenario.n,"
                          "%g,%g,%g,%g,%.17g\n",
                          tag, n, store, tag, tag, n, nsteps, nfe, ninner, cpu);
}

/* The suite's rows: lin (banded, one RHS per step and a fixed number of sweeps), dense
 * (the dense store: n^2 per evaluation), sweeps (banded, n sweeps per step).  cpu_noise
 * scales each CPU time, so two calls with different noise are two suites' timings. */
static void suite(char *text, size_t len, const double noise[3])
{
  size_t k = (size_t)snprintf(text, len, "%s", header);
  static const double ns[] = {10000, 1000, 100};
  for (size_t i = 0; i < 3; i++) {
    const double n = ns[i];
    /* lin's CPU grows as n^1.5 here (a loaded machine): the verdict must not care */
    k += row(text + k, len - k, "lin", "banded", n, 500, 501, 706, noise[i] * 1e-8 * pow(n, 1.5));
    /* sweeps: its CPU looks linear, its work does not */
    k += row(text + k, len - k, "sweeps", "banded", n, 500, 500, 500 * n, noise[i] * 1e-6 * n);
  }
  static const double nd[] = {40, 20, 10};
  for (size_t i = 0; i < 3; i++)
    k += row(text + k, len - k, "dense", "dense", nd[i], 500, 2000, 0, noise[i] * 1e-6 * nd[i]);
}

static void judge(const double noise[3], fb_vtable *v)
{
  char text[4096];
  suite(text, sizeof text, noise);
  fb_err err = {{0}};
  cr_assert_eq(fb_verdicts_compute(text, strlen(text), NULL, 0, v, &err), FB_OK, "%s", err.msg);
}

static const fb_vrow *growth(const fb_vtable *v, const char *tag)
{
  char model[64];
  snprintf(model, sizeof model, "m-%s", tag);
  const fb_vrow *r = fb_vtable_find(v, model, "scale", "cost-growth");
  cr_assert_not_null(r, "a cost-growth row for %s", tag);
  cr_expect_str_eq(r->integrator, tag);
  return r;
}

Test(verdicts_scale, linear_work_says_linear_whatever_the_timings)
{
  static const double noise[3] = {1, 1, 1};
  fb_vtable v;
  judge(noise, &v);
  const fb_vrow *r = growth(&v, "lin");
  /* (501 + 706)/500 evaluations and sweeps per step, 3n units each: exactly n^1 */
  cr_expect_float_eq(r->value, 1.0, 1e-12);
  cr_expect_float_eq(r->value2, 1207.0 / 500.0 * 3e4, 1e-6);
  cr_expect_str_eq(r->verdict, "work/step ~ n^1.00 (linear: <= 1.1)");
  cr_expect_str_eq(r->scenarios, "chain, n = 1000 to 10000");
  cr_expect(strstr(r->rule, "not timings") != NULL, "%s", r->rule);
  fb_vtable_free(&v);
}

Test(verdicts_scale, superlinear_work_says_not_linear)
{
  static const double noise[3] = {1, 1, 1};
  fb_vtable v;
  judge(noise, &v);
  /* n sweeps per step of 3n units: n^2 */
  const fb_vrow *s = growth(&v, "sweeps");
  cr_expect_float_eq(s->value, log((1e4 + 1) * 3e4 / ((1e3 + 1) * 3e3)) / log(10.0), 1e-12);
  cr_expect_str_eq(s->verdict, "work/step ~ n^2.00 (not linear: > 1.1)");
  /* dense store, n = 20 to 40: (n^2 + n) per evaluation, exponent log(1640/420)/log 2 */
  const fb_vrow *d = growth(&v, "dense");
  cr_expect_float_eq(d->value, log(1640.0 / 420.0) / log(2.0), 1e-12);
  cr_expect_str_eq(d->verdict, "work/step ~ n^1.97 (not linear: > 1.1)");
  cr_expect_str_eq(d->scenarios, "chain, n = 20 to 40");
  fb_vtable_free(&v);
}

Test(verdicts_scale, two_suites_give_identical_rows)
{
  static const double quiet[3] = {1, 1, 1}, loaded[3] = {1.9, 0.7, 1.3};
  fb_vtable a, b;
  judge(quiet, &a);
  judge(loaded, &b);
  cr_assert_eq(a.n, b.n);
  cr_assert_eq(a.n, 3, "one row per treatment");
  for (size_t k = 0; k < a.n; k++) {
    const fb_vrow *x = &a.r[k], *y = &b.r[k];
    cr_expect_str_eq(x->model, y->model);
    cr_expect_str_eq(x->verdict, y->verdict);
    cr_expect(x->value == y->value, "%s: value %.17g vs %.17g", x->model, x->value, y->value);
    cr_expect(x->value2 == y->value2, "%s: value2 %.17g vs %.17g", x->model, x->value2,
              y->value2);
    cr_expect_str_eq(x->rule, y->rule);
    cr_expect_str_eq(x->scenarios, y->scenarios);
  }
  fb_vtable_free(&a);
  fb_vtable_free(&b);
}
