/* test_embed.c — the embedding API: parameters by name, autos from scales without a plant
 * (equal to the plant path), one contact's force, and the relay step against its closed
 * form (exact stick below the breakaway, |F| = Fs above it, no allocation). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_normal.h"
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

/* ---- Misuse of the public API (issue 24): every FB_API function given each bad argument
 * (NULL pointers, indices beyond those resolved, instances used before init or resolve)
 * returns FB_EINVAL (NULL for a lookup, NaN for a value) with a message where there is an
 * fb_err, and crashes nothing; run under build-asan, where an overflow is fatal. */

#define EINVAL_MSG(call, needle)                                                             \
  do {                                                                                       \
    err.msg[0] = '\0';                                                                       \
    cr_assert_eq((call), FB_EINVAL, "%s", #call);                                            \
    cr_assert(strstr(err.msg, needle), "%s: '%s' not in '%s'", #call, needle, err.msg);    \
  } while (0)

static const fb_contact_scale one_scale = {1.0, 0.0, 10.0, 1.0, 1.0};

Test(embed, misuse_of_a_model_instance)
{
  fb_err err = {{0}};
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  const fb_contact_in nolaw = {.law = NULL, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  double z[2 * FB_MAX_Z] = {0}, dz[2 * FB_MAX_Z], F[2], vr[2] = {0.1, 0.0};
  int stick;
  cr_assert_eq(fb_model_init(NULL, fb_model_find("lugre")), FB_EINVAL);
  fb_model m;
  cr_assert_eq(fb_model_init(&m, NULL), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, F, dz), FB_EINVAL, "after a refused init");
  fb_model zero = {0}; /* before init */
  EINVAL_MSG(fb_model_set(&zero, "sigma0", 1e5, &err), "not initialised");
  EINVAL_MSG(fb_model_resolve_scales(&zero, 1, &one_scale, &err), "not initialised");
  EINVAL_MSG(fb_model_set(NULL, "sigma0", 1e5, &err), "NULL");
  cr_assert(isnan(fb_model_get(&zero, 0, "sigma0")));
  cr_assert(isnan(fb_model_get(NULL, 0, "sigma0")));
  cr_assert_eq(fb_model_force(&zero, 0, &c, 0.1, z, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force(NULL, 0, &c, 0.1, z, F, dz), FB_EINVAL);
  fb_model_free(&zero);
  fb_model_free(NULL);
  cr_assert_eq(fb_model_init(&m, fb_model_find("lugre")), FB_OK);
  /* before resolve: no per-contact parameters yet */
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, F, dz), FB_EINVAL, "before resolve");
  cr_assert_eq(fb_model_state_init(&m, 0, &c, 0.1, z), FB_EINVAL, "before resolve");
  cr_assert_eq(fb_model_output(&m, 0, &c, 0.1, z, F, &stick), FB_EINVAL, "before resolve");
  cr_assert_eq(fb_model_force2(&m, 0, &c, vr, z, F, dz), FB_EINVAL, "before resolve");
  EINVAL_MSG(fb_model_set(&m, NULL, 1.0, &err), "no parameter name");
  cr_assert(isnan(fb_model_get(&m, 0, NULL)));
  EINVAL_MSG(fb_model_resolve_scales(&m, 1, NULL, &err), "scales");
  EINVAL_MSG(fb_model_resolve_scales(&m, 0, &one_scale, &err), "at least one contact");
  EINVAL_MSG(fb_model_resolve(&m, NULL, &err), "no plant");
  fb_plant unbuilt = {0};
  EINVAL_MSG(fb_model_resolve(&m, &unbuilt, &err), "not built");
  EINVAL_MSG(fb_model_resolve(NULL, &unbuilt, &err), "NULL");
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &one_scale, &err), FB_OK, "%s", err.msg);
  /* indices beyond those resolved: the heap-buffer-overflow of lugre.c */
  const size_t far[] = {1, 2, (size_t)1 << 20, (size_t)-1};
  for (size_t k = 0; k < sizeof far / sizeof far[0]; k++) {
    cr_assert_eq(fb_model_force(&m, far[k], &c, 0.1, z, F, dz), FB_EINVAL, "i = %zu", far[k]);
    cr_assert_eq(fb_model_force2(&m, far[k], &c, vr, z, F, dz), FB_EINVAL);
    cr_assert_eq(fb_model_state_init(&m, far[k], &c, 0.1, z), FB_EINVAL);
    cr_assert_eq(fb_model_output(&m, far[k], &c, 0.1, z, F, &stick), FB_EINVAL);
    cr_assert_eq(fb_model_output2(&m, far[k], &c, vr, z, F, &stick), FB_EINVAL);
    cr_assert(isnan(fb_model_get(&m, far[k], "sigma0")));
  }
  cr_assert_eq(fb_model_output2(&m, 0, &c, vr, z, F, &stick), FB_EINVAL, "needs contact 1 too");
  /* NULL arguments and non-finite velocities */
  cr_assert_eq(fb_model_force(&m, 0, NULL, 0.1, z, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &nolaw, 0.1, z, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, NULL, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, NULL, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, F, NULL), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, NAN, z, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_force2(&m, 0, &c, NULL, z, F, dz), FB_EINVAL);
  cr_assert_eq(fb_model_state_init(&m, 0, NULL, 0.1, z), FB_EINVAL);
  cr_assert_eq(fb_model_state_init(&m, 0, &c, 0.1, NULL), FB_EINVAL);
  cr_assert_eq(fb_model_output(&m, 0, &c, 0.1, NULL, F, &stick), FB_EINVAL);
  cr_assert_eq(fb_model_output(&m, 0, &c, 0.1, z, NULL, &stick), FB_EINVAL);
  cr_assert_eq(fb_model_output(&m, 0, &c, 0.1, z, F, NULL), FB_EINVAL);
  cr_assert_eq(fb_model_output(&m, 0, &nolaw, 0.1, z, F, &stick), FB_EINVAL);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, F, dz), FB_OK, "the instance still works");
  const fb_contact_scale bad_scale = {-1.0, 0.0, 10.0, 1.0, 1.0};
  EINVAL_MSG(fb_model_resolve_scales(&m, 1, &bad_scale, &err), "scale m");
  fb_model_free(&m);
  cr_assert_eq(fb_model_force(&m, 0, &c, 0.1, z, F, dz), FB_EINVAL, "after free");
  fb_model_free(&m);
}

Test(embed, misuse_of_parameters_friction_and_status)
{
  fb_err err = {{0}};
  const fb_model_type *t = fb_model_find("lugre");
  const fb_param_desc *d = fb_params_find(t->params, "sigma0");
  double p[64], v;
  char buf[32];
  cr_assert_null(fb_params_find(NULL, "sigma0"));
  cr_assert_null(fb_params_find(t->params, NULL));
  cr_assert_eq(fb_params_default(NULL, p), FB_EINVAL);
  cr_assert_eq(fb_params_default(t->params, NULL), FB_EINVAL);
  cr_assert(isnan(fb_param_get(NULL, p)) && isnan(fb_param_get(d, NULL)));
  EINVAL_MSG(fb_param_parse(NULL, "lugre", "1", &v, &err), "NULL");
  EINVAL_MSG(fb_param_parse(d, "lugre", NULL, &v, &err), "NULL");
  EINVAL_MSG(fb_param_parse(d, NULL, "1", NULL, &err), "NULL");
  EINVAL_MSG(fb_param_check(NULL, NULL, 1.0, &err), "no parameter row");
  EINVAL_MSG(fb_params_set(NULL, "lugre", p, "sigma0", "1", &err), "NULL");
  EINVAL_MSG(fb_params_set(t->params, "lugre", NULL, "sigma0", "1", &err), "NULL");
  EINVAL_MSG(fb_params_set(t->params, "lugre", p, NULL, "1", &err), "NULL");
  EINVAL_MSG(fb_params_set(t->params, NULL, p, "sigma0", NULL, &err), "NULL");
  EINVAL_MSG(fb_params_check_all(NULL, "lugre", p, &err), "NULL");
  EINVAL_MSG(fb_params_check_all(t->params, "lugre", NULL, &err), "NULL");
  fb_params_print(NULL, p, "", stdout);
  fb_params_print(t->params, NULL, "", stdout);
  fb_params_print(t->params, p, "", NULL);
  fb_param_format(NULL, 1.0, buf, sizeof buf);
  cr_assert_str_eq(buf, "?");
  fb_param_format(d, 1.0, NULL, 8);
  /* a choice index beyond the choices is printed as a number, not read past the list */
  const fb_param_desc *law = fb_params_find(fb_normal_find("hunt-crossley")->params, "law");
  cr_assert_not_null(law);
  fb_param_format(law, 1000.0, buf, sizeof buf);
  cr_assert_str_eq(buf, "1000");
  cr_assert(isnan(fb_friction_mu(NULL, 0.1, &v)) && isnan(v));
  cr_assert(isnan(fb_friction_mu_inf(NULL)));
  EINVAL_MSG(fb_friction_check(NULL, NULL, &err), "no friction law");
  cr_assert_eq(fb_err_set(&err, FB_EINVAL, NULL), FB_EINVAL);
  cr_assert_str_eq(err.msg, "invalid argument");
  cr_assert_eq(fb_err_set(NULL, FB_EIO, "x"), FB_EIO);
  cr_assert_str_eq(fb_status_name(12345), "unknown");
  cr_assert_str_eq(fb_status_message(-12345), "unknown status");
}

Test(embed, misuse_of_plants_and_scenarios)
{
  fb_err err = {{0}};
  fb_plant pl = {0};
  cr_assert_eq(fb_plant_alloc(NULL, 1, 1, 0), FB_EINVAL);
  cr_assert_eq(fb_plant_alloc(&pl, 0, 1, 0), FB_EINVAL);
  cr_assert_eq(fb_plant_alloc(&pl, (size_t)1 << 40, 1, 0), FB_EINVAL, "n*n would wrap");
  cr_assert_eq(fb_plant_alloc(&pl, 1, (size_t)-1, 0), FB_EINVAL);
  /* before fb_plant_alloc */
  EINVAL_MSG(fb_plant_finish(&pl, NULL, &err), "not fb_plant_alloc'ed");
  EINVAL_MSG(fb_plant_finish(NULL, "s", &err), "NULL");
  cr_assert_eq(fb_plant_alloc_normals(&pl, 1), FB_EINVAL);
  cr_assert_eq(fb_plant_alloc_normals(NULL, 1), FB_EINVAL);
  cr_assert_eq(fb_plant_alloc_jacobians(&pl), FB_EINVAL);
  cr_assert_eq(fb_plant_alloc_jacobians(NULL), FB_EINVAL);
  cr_assert_eq(fb_plant_set_pair(&pl, 0, coulomb, 1.0), FB_EINVAL);
  cr_assert_eq(fb_plant_set_pair(NULL, 0, coulomb, 1.0), FB_EINVAL);
  cr_assert(isnan(fb_plant_contact_coupling(&pl, 0, 0)));
  cr_assert(isnan(fb_plant_contact_coupling(NULL, 0, 0)));
  fb_plant_free(&pl);
  fb_plant_free(NULL);
  /* contacts beyond those allocated */
  cr_assert_eq(fb_plant_alloc(&pl, 2, 2, 0), FB_OK);
  cr_assert_eq(fb_plant_set_pair(&pl, 1, coulomb, 1.0), FB_EINVAL, "contact 2 does not exist");
  cr_assert_eq(fb_plant_set_pair(&pl, (size_t)-1, coulomb, 1.0), FB_EINVAL);
  cr_assert_eq(fb_plant_set_pair(&pl, 0, coulomb, 1.0), FB_OK);
  cr_assert(isnan(fb_plant_contact_coupling(&pl, 2, 0)));
  cr_assert(isnan(fb_plant_contact_coupling(&pl, 0, (size_t)1 << 30)));
  fb_plant_free(&pl);
  /* scenarios */
  cr_assert_null(fb_scenario_find(NULL));
  cr_assert_null(fb_model_find(NULL));
  cr_assert_null(fb_scenario_at((size_t)-1));
  cr_assert_null(fb_model_at((size_t)-1));
  fb_scenario s;
  cr_assert_eq(fb_scenario_init(NULL, fb_scenario_find("stick-slip")), FB_EINVAL);
  cr_assert_eq(fb_scenario_init(&s, NULL), FB_EINVAL);
  EINVAL_MSG(fb_scenario_build(&s, &err), "not initialised");
  EINVAL_MSG(fb_scenario_build(NULL, &err), "NULL");
  fb_scenario zero = {0};
  EINVAL_MSG(fb_scenario_build(&zero, &err), "not initialised");
  fb_scenario_free(&zero);
  fb_scenario_free(NULL);
}

Test(embed, misuse_of_normals_and_contact_steps)
{
  fb_err err = {{0}};
  cr_assert_null(fb_normal_find(NULL));
  EINVAL_MSG(fb_normal_register(NULL, &err), "needs a name");
  fb_normal nm = {0};
  cr_assert_eq(fb_normal_select(NULL, fb_normal_find("newton")), FB_EINVAL);
  cr_assert_eq(fb_normal_select(&nm, NULL), FB_EINVAL);
  EINVAL_MSG(fb_normal_set(&nm, "e", "0.5", &err), "fb_normal_select");
  EINVAL_MSG(fb_normal_set(NULL, "e", "0.5", &err), "NULL");
  cr_assert_eq(fb_normal_select(&nm, fb_normal_find("penalty-n")), FB_OK);
  EINVAL_MSG(fb_normal_set(&nm, NULL, "0.5", &err), "NULL");
  EINVAL_MSG(fb_normal_set(&nm, "cN", NULL, &err), "NULL");
  cr_assert(isnan(fb_normal_zeta_of_e(NAN)) && isnan(fb_normal_zeta_of_e(1.5)));
  /* contact steps */
  cr_assert_null(fb_contact_step_find(NULL));
  cr_assert_null(fb_contact_step_at((size_t)-1));
  const fb_contact_step_type *relay = fb_contact_step_find("relay");
  const fb_contact_step_type *kbe = fb_contact_step_find("kikuuwe-be");
  cr_assert(relay != NULL && kbe != NULL);
  const fb_contact_in c = {.law = &coulomb, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  const fb_contact_in nolaw = {.law = NULL, .N = 20.0, .Fs = 10.0, .f_app = NAN};
  fb_contact_stepper s;
  EINVAL_MSG(fb_contact_stepper_init(NULL, relay, NULL, 0, &c, 0, 0, &err), "NULL");
  EINVAL_MSG(fb_contact_stepper_init(&s, NULL, NULL, 0, &c, 0, 0, &err), "no step kind");
  const fb_contact_step_type nostep = {.name = "nostep", .title = "a kind without step()"};
  EINVAL_MSG(fb_contact_stepper_init(&s, &nostep, NULL, 0, &c, 0, 0, &err), "no step kind");
  EINVAL_MSG(fb_contact_stepper_init(&s, relay, NULL, 0, NULL, 0, 0, &err), "no contact");
  EINVAL_MSG(fb_contact_stepper_init(&s, relay, NULL, 0, &nolaw, 0, 0, &err), "no contact");
  EINVAL_MSG(fb_contact_stepper_init(&s, relay, NULL, 0, &c, NAN, 0, &err), "finite");
  /* a kind that reads a model's parameters: model missing, unresolved, index beyond */
  EINVAL_MSG(fb_contact_stepper_init(&s, kbe, NULL, 0, &c, 0, 0, &err), "needs an instance");
  fb_model m;
  fb_model_init(&m, fb_model_find("kikuuwe-be"));
  EINVAL_MSG(fb_contact_stepper_init(&s, kbe, &m, 0, &c, 0, 0, &err), "resolved for 0");
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &one_scale, &err), FB_OK, "%s", err.msg);
  EINVAL_MSG(fb_contact_stepper_init(&s, kbe, &m, 1, &c, 0, 0, &err), "not for contact 1");
  /* stepping before init, and with bad inputs */
  fb_contact_stepper zero = {0};
  const fb_contact_step_in in = {.h = 1e-3, .m = 1.0, .f_other = 1.0, .x = 0, .v = 0, .u = 0};
  cr_assert_eq(fb_contact_step(&zero, &c, &in), FB_EINVAL, "before init");
  cr_assert_eq(fb_contact_step(NULL, &c, &in), FB_EINVAL);
  cr_assert_eq(fb_contact_stepper_init(&s, kbe, &m, 0, &c, 0, 0, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_contact_step(&s, NULL, &in), FB_EINVAL);
  cr_assert_eq(fb_contact_step(&s, &nolaw, &in), FB_EINVAL);
  cr_assert_eq(fb_contact_step(&s, &c, NULL), FB_EINVAL);
  fb_contact_step_in bad = in;
  bad.h = NAN;
  cr_assert_eq(fb_contact_step(&s, &c, &bad), FB_EINVAL);
  bad = in;
  bad.m = 0.0;
  cr_assert_eq(fb_contact_step(&s, &c, &bad), FB_EINVAL);
  bad = in;
  bad.v = INFINITY;
  cr_assert_eq(fb_contact_step(&s, &c, &bad), FB_EINVAL);
  cr_assert_eq(fb_contact_step(&s, &c, &in), FB_OK, "the stepper still works");
  fb_model_free(&m);
}

Test(embed, misuse_of_the_case_runner_and_plugins)
{
  fb_err err = {{0}};
  fb_case_summary sum;
  cr_assert_null(fb_case_open(NULL, "kikuuwe", NULL, &err));
  cr_assert(strstr(err.msg, "NULL"), "%s", err.msg);
  cr_assert_null(fb_case_open("inclined-block", NULL, NULL, &err));
  cr_assert_null(fb_case_open("inclined-block", "kikuuwe", "no-such", &err));
  EINVAL_MSG(fb_case_assign(NULL, "mu_ratio=3", &err), "NULL");
  EINVAL_MSG(fb_case_stepping(NULL, 1e-3, NAN, NAN, &err), "NULL");
  EINVAL_MSG(fb_case_execute(NULL, 11, NULL, &sum, &err), "NULL");
  fb_case_close(NULL);
  fb_case_handle *c = fb_case_open("inclined-block", "kikuuwe", "rk4", &err);
  cr_assert_not_null(c, "%s", err.msg);
  EINVAL_MSG(fb_case_assign(c, NULL, &err), "NULL");
  EINVAL_MSG(fb_case_execute(c, 11, NULL, NULL, &err), "summary");
  cr_assert_eq(fb_case_execute(c, 0, NULL, &sum, &err), FB_EINVAL, "no samples");
  cr_assert_eq(fb_case_execute(c, 1, NULL, &sum, &err), FB_EINVAL, "one sample");
  cr_assert_eq(fb_case_stepping(c, 1e-2, NAN, NAN, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_execute(c, 11, NULL, &sum, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_execute(c, 11, NULL, &sum, &err), FB_OK, "again: %s", err.msg);
  fb_case_close(c);
  EINVAL_MSG(fb_plugin_load(NULL, &err), "no file name");
  EINVAL_MSG(fb_plugin_load("", &err), "no file name");
  cr_assert_eq(fb_plugin_load_list(NULL, &err), FB_OK, "nothing to load");
  cr_assert_null(fb_plugin_path((size_t)-1));
  cr_assert_not_null(fb_version());
}
