/* test_embed.c — the embedding API: parameters by name, autos from scales without a plant
 * (equal to the plant path), one contact's force, and the relay step against its closed
 * form (exact stick below the breakaway, |F| = Fs above it, no allocation). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fricbench.h"

static const fb_friction coulomb = {FB_SHAPE_COULOMB, 0.5, 0.5, 0.0};

Test(embed, set_by_name_and_refusals)
{
  fb_err err = {{0}};
  fb_model m;
  cr_assert_eq(fb_model_init(&m, fb_model_find("kikuuwe")), FB_OK);
  cr_assert_eq(fb_model_set(&m, "K", 2.5e4, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_get(&m, 0, "K"), 2.5e4, "unresolved: the user's value");
  cr_assert(isnan(fb_model_get(&m, 0, "B")), "B stays auto");
  cr_assert(isnan(fb_model_get(&m, 0, "no-such")));
  cr_assert_eq(fb_model_set(&m, "K", -1.0, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "K") && strstr(err.msg, "> 0"), "%s", err.msg);
  cr_assert_eq(fb_model_set(&m, "K", INFINITY, &err), FB_EINVAL);
  cr_assert_eq(fb_model_get(&m, 0, "K"), 2.5e4, "a refused value changes nothing");
  cr_assert_eq(fb_model_set(&m, "Kx", 1.0, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "no parameter 'Kx'"), "%s", err.msg);
  cr_assert_eq(fb_model_set(&m, "K", NAN, &err), FB_OK, "NaN puts an auto row back to auto");
  cr_assert(isnan(fb_model_get(&m, 0, "K")));
  cr_assert_eq(fb_model_set(&m, "f_ratio", NAN, &err), FB_EINVAL, "not an auto row");
  fb_model_free(&m);
}

/* The scales path gives what the plant path gives for the same contact. */
Test(embed, autos_from_scales_equal_the_plant_path)
{
  fb_err err = {{0}};
  fb_plant pl;
  cr_assert_eq(fb_plant_alloc(&pl, 1, 1, 0), FB_OK);
  pl.M[0] = 2.0;
  pl.K[0] = 50.0;
  pl.T = 1;
  pl.f_c = 3.0;
  pl.v_scale = 0.2;
  pl.contact[0].law = coulomb;
  pl.contact[0].c0.N = 4.0;
  cr_assert_eq(fb_plant_finish(&pl, "test", &err), FB_OK, "%s", err.msg);
  const fb_contact_scale sc = {2.0, 50.0, 2.0, 3.0, 0.2};
  const fb_model_type *t;
  for (size_t i = 0; (t = fb_model_at(i)) != NULL; i++) {
    fb_model a, b;
    cr_assert_eq(fb_model_init(&a, t), FB_OK);
    cr_assert_eq(fb_model_init(&b, t), FB_OK);
    cr_assert_eq(fb_model_resolve(&a, &pl, &err), FB_OK, "%s: %s", t->name, err.msg);
    cr_assert_eq(fb_model_resolve_scales(&b, 1, &sc, &err), FB_OK, "%s: %s", t->name, err.msg);
    for (size_t k = 0; k < t->params->n; k++) {
      const char *nm = t->params->desc[k].name;
      const double va = fb_model_get(&a, 0, nm), vb = fb_model_get(&b, 0, nm);
      cr_assert(va == vb || (isnan(va) && isnan(vb)), "%s.%s: %g vs %g", t->name, nm, va, vb);
    }
    fb_model_free(&a);
    fb_model_free(&b);
  }
  /* Kikuuwe's documented autos: K = m (2 pi f_ratio f_c)^2, B = 2 sqrt(K m). */
  fb_model k;
  fb_model_init(&k, fb_model_find("kikuuwe"));
  cr_assert_eq(fb_model_resolve_scales(&k, 1, &sc, &err), FB_OK);
  const double K = 2.0 * pow(2.0 * 3.14159265358979323846 * 100.0 * 3.0, 2);
  cr_assert(fabs(fb_model_get(&k, 0, "K") - K) < 1e-12 * K);
  cr_assert(fabs(fb_model_get(&k, 0, "B") - 2.0 * sqrt(K * 2.0)) < 1e-9);
  const fb_contact_scale bad = {0.0, 50.0, 2.0, 3.0, 0.2};
  cr_assert_eq(fb_model_resolve_scales(&k, 1, &bad, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "scale m = 0"), "%s", err.msg);
  fb_model_free(&k);
  fb_plant_free(&pl);
}

/* fb_model_force is the model's law: kikuuwe in stick gives F = -(K e + B v). */
Test(embed, force_of_one_contact)
{
  fb_err err = {{0}};
  fb_model m;
  fb_model_init(&m, fb_model_find("kikuuwe"));
  fb_model_set(&m, "K", 1e4, &err);
  fb_model_set(&m, "B", 10.0, &err);
  const fb_contact_scale sc = {1.0, 0.0, 10.0, 1.0, 1.0};
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_OK, "%s", err.msg);
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  double z[1] = {1e-4}, F, dz[1];
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.01, z, &F, dz), FB_OK);
  cr_assert_float_eq(F, -(1e4 * 1e-4 + 10.0 * 0.01), 1e-12);
  cr_assert_float_eq(dz[0], 0.01, 1e-12, "anchor fixed in stick: e' = v");
  fb_model_state_init(&m, 0, &c, 2.0, z);
  cr_assert_float_eq(z[0], 10.0 / 1e4, 1e-15, "steady slip: e = Fbar/K");
  fb_model_free(&m);
  fb_model g;
  fb_model_init(&g, fb_model_find("glowinski"));
  cr_assert_eq(fb_model_resolve_scales(&g, 1, &sc, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_force(&g, 0, &c, 0.0, z, &F, dz), FB_EUNSUP, "no force(): own schemes");
  fb_model_free(&g);
}

Test(embed, relay_step_closed_form)
{
  fb_err err = {{0}};
  const fb_contact_step_type *relay = fb_contact_step_find("relay");
  cr_assert_not_null(relay);
  cr_assert_eq(fb_contact_step_at(0), relay);
  cr_assert_null(fb_contact_step_find("no-such-step"));
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = 10.0, .f_app = NAN}; /* Fs = 10 N */
  fb_contact_stepper s;
  cr_assert_eq(fb_contact_stepper_init(&s, relay, NULL, 0, &c, 0.0, 0.0, &err), FB_OK);
  /* Below the breakaway, at rest: exact stick, F balances the load. */
  fb_contact_step_in in = {.h = 1e-3, .m = 2.0, .f_other = 9.99, .x = 0, .v = 0, .u = 0};
  cr_assert_eq(fb_contact_step(&s, &c, &in), FB_OK);
  cr_assert_eq(s.stick, 1);
  cr_assert_eq(s.v_next, 0.0);
  cr_assert_float_eq(s.F, -9.99, 1e-12);
  /* Moving slowly: the step stops it within the step when m |v_free| / h <= Fs. */
  in.f_other = 0.0;
  in.v = 0.004; /* m v / h = 8 N < 10 N */
  fb_contact_step(&s, &c, &in);
  cr_assert_eq(s.stick, 1);
  cr_assert_eq(s.v_next, 0.0);
  cr_assert_float_eq(s.F, -8.0, 1e-9);
  /* On a moving belt: stick means riding with it. */
  in.u = 0.3;
  in.v = 0.3;
  in.f_other = 5.0;
  fb_contact_step(&s, &c, &in);
  cr_assert_eq(s.stick, 1);
  cr_assert_eq(s.v_next, 0.3);
  /* Above the breakaway: slip with |F| = Fs against the free relative velocity. */
  in.u = 0.0;
  in.v = 0.0;
  in.f_other = 12.0;
  fb_contact_step(&s, &c, &in);
  cr_assert_eq(s.stick, 0);
  cr_assert_eq(s.F, -10.0);
  cr_assert_float_eq(s.v_next, 1e-3 / 2.0 * (12.0 - 10.0), 1e-15);
  in.v = -1.0;
  in.f_other = 0.0;
  fb_contact_step(&s, &c, &in);
  cr_assert_eq(s.F, 10.0);
  cr_assert_float_eq(s.v_next, -1.0 + 1e-3 / 2.0 * 10.0, 1e-15);
  /* Bad input. */
  in.h = 0.0;
  cr_assert_eq(fb_contact_step(&s, &c, &in), FB_EINVAL);
  in.h = 1e-3;
  in.m = -1.0;
  cr_assert_eq(fb_contact_step(&s, &c, &in), FB_EINVAL);
  cr_assert_eq(fb_contact_stepper_init(&s, NULL, NULL, 0, &c, 0.0, 0.0, &err), FB_EINVAL);
}

/* A held joint stays exactly in place at any step size (no drift, no chatter), where the
 * explicit sign law creeps away. */
Test(embed, relay_step_holds_at_any_h)
{
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  const double hs[] = {1e-4, 1e-3, 1e-2, 1e-1};
  for (size_t j = 0; j < 4; j++) {
    fb_contact_stepper s;
    fb_err err;
    fb_contact_stepper_init(&s, fb_contact_step_find("relay"), NULL, 0, &c, 0.0, 0.0, &err);
    double x = 0.0, v = 0.0;
    for (int k = 0; k < 1000; k++) {
      const double t = k * hs[j];
      const fb_contact_step_in in = {hs[j], 1.0, 9.0 * sin(t), x, v, 0.0};
      fb_contact_step(&s, &c, &in);
      v = s.v_next;
      x += hs[j] * v;
    }
    cr_assert_eq(x, 0.0, "h = %g: x = %g", hs[j], x);
    cr_assert_eq(v, 0.0);
  }
}

/* Kikuuwe's discrete-time step, as exported: a joint preloaded by a spring to 0.6 Fs and
 * shaken by 0.3 Fs is held at a robot's 1 ms with the anchor's auto stiffness (100x the
 * 1 Hz scale): the deflection stays within the anchor's compliance Fs/K and does not
 * accumulate from cycle 20 to 40. */
Test(embed, kikuuwe_be_step_holds_a_preload)
{
  fb_err err = {{0}};
  const fb_contact_step_type *kbe = fb_contact_step_find("kikuuwe-be");
  cr_assert_not_null(kbe, "the kikuuwe-be step is registered");
  const fb_model_type *mt = fb_model_find("kikuuwe-be");
  cr_assert_not_null(mt);
  fb_model m;
  cr_assert_eq(fb_model_init(&m, mt), FB_OK);
  const double mass = 1.0, k = 1.0, Fs = 10.0, h = 1e-3;
  const fb_contact_scale sc = {.m = mass, .k = k, .Fs = Fs, .f_c = 1.0, .v_scale = 1.0};
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_OK, "%s", err.msg);
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = Fs, .f_app = NAN};
  fb_contact_stepper s;
  cr_assert_eq(fb_contact_stepper_init(&s, kbe, &m, 0, &c, 0.0, 0.0, &err), FB_OK, "%s", err.msg);
  /* the body sits at x = 0 with the spring's rest point at 0.6 Fs / k: pull 0.6 Fs */
  double x = 0.0, v = 0.0, x10 = NAN, xmax = 0.0, p20 = NAN;
  for (int n = 0; n < 40000; n++) { /* 40 s, a 1 Hz disturbance: 40 cycles */
    const double t = n * h;
    const double f = k * (0.6 * Fs / k - x) + 0.3 * Fs * sin(6.283185307179586 * t);
    const fb_contact_step_in in = {.h = h, .m = mass, .f_other = f, .x = x, .v = v, .u = 0.0};
    cr_assert_eq(fb_contact_step(&s, &c, &in), FB_OK);
    v = s.v_next;
    x += h * v;
    xmax = fmax(xmax, fabs(x));
    if (n == 20000) {
      x10 = x;
      p20 = s.p;
    }
  }
  const double K = fb_model_get(&m, 0, "K");
  cr_assert_lt(xmax, Fs / K, "deflection %g within the anchor's compliance %g", xmax, Fs / K);
  cr_assert_eq(s.p, p20, "the anchor does not move from cycle 20 to 40: %g", s.p - p20);
  cr_assert_lt(fabs(x - x10), 0.01 * Fs / K, "no accumulation: x(40) - x(20) = %g", x - x10);
  fb_model_free(&m);
}

/* The case runner behind its handle: what `fricbench run` does, from a program. */
Test(embed, case_runner)
{
  fb_err err = {{0}};
  cr_assert_null(fb_case_open("no-such", "kikuuwe", NULL, &err));
  cr_assert(strstr(err.msg, "unknown scenario 'no-such'"), "%s", err.msg);
  fb_case_handle *c = fb_case_open("inclined-block", "kikuuwe", "rk4", &err);
  cr_assert_not_null(c, "%s", err.msg);
  cr_assert_eq(fb_case_assign(c, "mu_ratio=3", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_assign(c, "nope=1", &err), FB_EINVAL);
  cr_assert_eq(fb_case_stepping(c, 1e-3, 1e-6, NAN, &err), FB_EINVAL, "step and tolerance");
  cr_assert_eq(fb_case_stepping(c, 1e-3, NAN, NAN, &err), FB_OK, "%s", err.msg);
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  fb_case_summary s;
  cr_assert_eq(fb_case_execute(c, 11, fp, &s, &err), FB_OK, "%s", err.msg);
  fclose(fp);
  cr_assert_eq(s.status, FB_OK);
  cr_assert_eq(s.nsteps, 2000, "T = 2 s at h = 1e-3: %lu", s.nsteps);
  cr_assert_eq(s.nfe, 4 * s.nsteps, "rk4: 4 evaluations per step");
  cr_assert_float_eq(s.t_reached, 2.0, 1e-12);
  cr_assert(strncmp(buf, "t,x,v,F,e,stick\n", 16) == 0, "%s", buf);
  size_t rows = 0;
  for (const char *p = buf; *p; p++)
    rows += *p == '\n';
  cr_assert_eq(rows, 12, "header + 11 samples");
  free(buf);
  fb_case_close(c);
}
