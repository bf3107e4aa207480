/* test_seed_claims.c — the seed claims of docs/design.md §10 (fb_seed_claims.h) on small synthetic
 * runs.csv texts: a claim reads "reproduced" where the numbers say so and "not reproduced"
 * where they do not; a run that is not ok is never scored.  No timing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_seed_claims.h"

#define HDR "group,tag,scenario,model,integrator,h,sweep_value,status,nfe,stick_time_ref\n"

/* The cost-mu rows of coupled-sledges at A = 10: naive-sign's and switching's evaluations
 * at mu = 0.01, 0.3 and 0.6. */
static void cost_text(char *buf, size_t len, const double naive[3], const double sw[3],
                      const char *status6)
{
  static const double mu[] = {0.01, 0.3, 0.6};
  int n = snprintf(buf, len, HDR);
  for (int i = 0; i < 3; i++) {
    n += snprintf(buf + n, len - (size_t)n, "cost-mu,,coupled-sledges,naive-sign,rkf45,nan,%g,%s,%g,1\n",
                  mu[i], i == 2 ? status6 : "ok", naive[i]);
    n += snprintf(buf + n, len - (size_t)n, "cost-mu,,coupled-sledges,switching,event,nan,%g,ok,%g,1\n",
                  mu[i], sw[i]);
  }
}

static const fb_claim *find(const fb_claims *c, const char *seed, const char *claim_start)
{
  for (size_t k = 0; k < c->n; k++)
    if (strcmp(c->r[k].seed, seed) == 0 && strncmp(c->r[k].claim, claim_start, strlen(claim_start)) == 0)
      return &c->r[k];
  return NULL;
}

Test(seed_claims, cost_claim_reproduced_or_not)
{
  char text[2048];
  fb_claims c;
  fb_err err = {{0}};
  const double sw[] = {1000, 1000, 1000};
  /* the paper's numbers: x1, x100 at 0.3, x20000 at 0.6 */
  const double paper[] = {1000, 1e5, 2e7};
  cost_text(text, sizeof text, paper, sw, "ok");
  cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  const fb_claim *r = find(&c, "001", "the naive sign's cost");
  cr_assert_not_null(r);
  cr_expect_str_eq(r->verdict, "reproduced", "%s", r->why);
  cr_expect_float_eq(r->value, 100.0, 1e-9);
  cr_expect(strstr(r->why, "x20000 at 0.6") != NULL, "both ratios stated: %s", r->why);
  /* flat: the naive sign costs what the multiplier method costs at every mu */
  const double flat[] = {1000, 1100, 1200};
  cost_text(text, sizeof text, flat, sw, "ok");
  cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK);
  r = find(&c, "001", "the naive sign's cost");
  cr_expect_str_eq(r->verdict, "not reproduced", "%s", r->why);
  /* the paper's numbers, but the mu = 0.6 run did not end ok: not scored, at most partly */
  cost_text(text, sizeof text, paper, sw, "budget");
  cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK);
  r = find(&c, "001", "the naive sign's cost");
  cr_expect_str_eq(r->verdict, "partly", "%s", r->why);
  cr_expect(strstr(r->why, "not scored") != NULL, "%s", r->why);
  /* the claims without their runs are not measured, and say why */
  r = find(&c, "004", "the normal penalty");
  cr_assert_not_null(r);
  cr_expect_str_eq(r->verdict, "not measured");
  cr_expect(strstr(r->why, "two-beam-grid") != NULL, "%s", r->why);
  r = find(&c, "000", "Lie and Strang");
  cr_assert_not_null(r);
  cr_expect_str_eq(r->verdict, "not measured", "no orders.csv: %s", r->why);
}

/* Seed 000 from orders.csv: first order for both splittings, Strang no better; a Strang
 * of order 2 is "partly" at best. */
Test(seed_claims, splitting_order_claim)
{
  const char *runs = HDR "baseline,,glowinski-tp1,glowinski,glowinski-lie,0.001,nan,ok,10,1\n";
  char orders[1024];
  fb_claims c;
  fb_err err = {{0}};
  for (int strang2 = 0; strang2 < 2; strang2++) {
    snprintf(orders, sizeof orders,
             "scenario,model,integrator,order_x,why_x\n"
             "glowinski-tp1,glowinski,glowinski-lie,1.01,\n"
             "glowinski-tp2,glowinski,glowinski-lie,0.98,\n"
             "glowinski-tp1,glowinski,glowinski-strang,%s,\n"
             "glowinski-tp2,glowinski,glowinski-strang,1.0,\n", strang2 ? "2.0" : "0.99");
    cr_assert_eq(fb_seed_claims_compute(runs, strlen(runs), orders, strlen(orders), &c, &err), FB_OK);
    const fb_claim *r = find(&c, "000", "Lie and Strang");
    cr_assert_not_null(r);
    cr_expect_str_eq(r->verdict, strang2 ? "not reproduced" : "reproduced", "%s", r->why);
  }
}

Test(seed_claims, runs_without_status_refused)
{
  const char *runs = "group,model\nbaseline,naive-sign\n";
  fb_claims c;
  fb_err err = {{0}};
  cr_expect_eq(fb_seed_claims_compute(runs, strlen(runs), NULL, 0, &c, &err), FB_EIO);
  cr_expect(strstr(err.msg, "status") != NULL, "%s", err.msg);
}

/* Seed 004 on the two-beam system: interacting when the step moves e_eff far more at the
 * stiff c_N than at the soft one and c_N moves it at fixed d_N; separable otherwise. */
static void beam_text(char *buf, size_t len, const double e[2][2])
{
  static const char *const cn[] = {"1e3", "1e5"};
  static const double h[] = {1e-3, 1e-5};
  int n = snprintf(buf, len, "group,tag,scenario,model,integrator,h,sweep_value,status,e_eff\n");
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      n += snprintf(buf + n, len - (size_t)n,
                    "two-beam-grid,cN=%s_dN=50,two-beam-impact,smooth-sign,contact,%g,%g,ok,%g\n",
                    cn[i], h[j], h[j], e[i][j]);
  n += snprintf(buf + n, len - (size_t)n,
                "two-beam-grid,cN=1e4_dN=50,two-beam-impact,smooth-sign,contact,1e-4,1e-4,ok,0.4\n");
}

Test(seed_claims, two_beam_interaction)
{
  char text[2048];
  fb_claims c;
  fb_err err = {{0}};
  const double measured[2][2] = {{0.1221, 0.1163}, {0.7786, 0.7205}};
  beam_text(text, sizeof text, measured);
  cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  const fb_claim *r = find(&c, "004", "the normal penalty");
  cr_assert_not_null(r);
  cr_expect_str_eq(r->verdict, "reproduced", "%s", r->why);
  cr_expect_float_eq(r->value, 0.0581 / 0.0058, 1e-9, "%g", r->value);
  /* separable: the step moves e_eff alike at every c_N, and c_N does not move it */
  const double flat[2][2] = {{0.31, 0.30}, {0.315, 0.305}};
  beam_text(text, sizeof text, flat);
  cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK);
  r = find(&c, "004", "the normal penalty");
  cr_expect_str_eq(r->verdict, "not reproduced", "%s", r->why);
}

/* Seed 002 on Awrejcewicz's oscillator ([Xiong2013] §5.3): eq49-rk4 holds the reference's
 * stick (reproduced) or loses most of it (not reproduced); without the run, not measured. */
Test(seed_claims, awrejcewicz_rk4_stick_claim)
{
  static const char *const held[] = {"58.44", "10"}, *const want[] = {"reproduced", "not reproduced"};
  char text[1024];
  fb_claims c;
  fb_err err = {{0}};
  for (int k = 0; k < 2; k++) {
    snprintf(text, sizeof text,
             "group,tag,scenario,model,integrator,h,status,stick_time_ref,stick_held,mod_x_l2\n"
             "awrejcewicz,eq49-rk4,awrejcewicz,kikuuwe,rk4,0.001,ok,58.91,%s,0.0088\n"
             "awrejcewicz,eq50-eps1e-3,awrejcewicz,smooth-sign,rkf45,nan,ok,58.91,9.44,0.296\n",
             held[k]);
    cr_assert_eq(fb_seed_claims_compute(text, strlen(text), NULL, 0, &c, &err), FB_OK, "%s", err.msg);
    const fb_claim *r = find(&c, "002", "on Awrejcewicz's oscillator");
    cr_assert_not_null(r);
    cr_expect_str_eq(r->verdict, want[k], "%s", r->why);
    cr_expect_float_eq(r->value, atof(held[k]) / 58.91, 1e-12);
    cr_expect(strstr(r->why, "0.296") != NULL, "eq. 50's E_mod beside it: %s", r->why);
  }
  const char *none = "group,tag,scenario,model,integrator,h,status\n"
                     "awrejcewicz,eq49-rk4,awrejcewicz,kikuuwe,rk4,0.001,diverged\n";
  cr_assert_eq(fb_seed_claims_compute(none, strlen(none), NULL, 0, &c, &err), FB_OK, "%s", err.msg);
  const fb_claim *r = find(&c, "002", "on Awrejcewicz's oscillator");
  cr_expect_str_eq(r->verdict, "not measured", "%s", r->why);
  cr_expect(strstr(r->why, "diverged") != NULL, "%s", r->why);
}
