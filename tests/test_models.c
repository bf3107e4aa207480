/* test_models.c — every model's law in each of its regimes, against docs/design.md §3. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_registry_int.h"
#include "fb_test.h"
#include "fb_util.h"

/* A one-DOF plant (m = 1, f_c = 1 Hz, v_scale = 1) with the given characteristic. */
static void plant1(fb_plant *pl, fb_friction law, double N)
{
  fb_err err;
  cr_assert_eq(fb_plant_alloc(pl, 1, 1, 0), FB_OK);
  pl->T = 1;
  pl->f_c = 1;
  pl->v_scale = 1;
  pl->contact[0].law = law;
  pl->contact[0].c0.N = N;
  cr_assert_eq(fb_plant_finish(pl, "test", &err), FB_OK, "%s", err.msg);
}

static const fb_friction stribeck = {FB_SHAPE_STRIBECK, 1.5, 1.0, 0.001};
static const fb_friction coulomb2 = {FB_SHAPE_COULOMB, 2.0, 2.0, 1.0};

typedef struct law {
  fb_plant pl;
  fb_model md;
  fb_contact_in ci;
  const void *cp;
} law;

static void law_init(law *L, const char *name, fb_friction fr, const char *const *sets)
{
  fb_err err;
  plant1(&L->pl, fr, 1.0);
  const fb_model_type *t = fb_model_find(name);
  cr_assert_not_null(t, "model %s", name);
  cr_assert_eq(fb_model_init(&L->md, t), FB_OK);
  for (size_t k = 0; sets && sets[k]; k += 2)
    cr_assert_eq(fb_params_set(t->params, name, L->md.params, sets[k], sets[k + 1], &err), FB_OK,
                 "%s", err.msg);
  cr_assert_eq(fb_model_resolve(&L->md, &L->pl, &err), FB_OK, "%s", err.msg);
  L->ci = (fb_contact_in){.law = &L->pl.contact[0].law, .N = 1.0, .Fs = fr.mu_s, .f_app = 0.0};
  L->cp = fb_model_cparams(&L->md, 0);
}

static void law_free(law *L)
{
  fb_model_free(&L->md);
  fb_plant_free(&L->pl);
}

Test(naive_sign, law)
{
  law L;
  law_init(&L, "naive-sign", stribeck, NULL);
  double F, dz[1];
  L.md.type->force(L.cp, &L.ci, 0.0, NULL, &F, dz);
  cr_assert_eq(F, 0.0, "sgn(0) = 0");
  L.md.type->force(L.cp, &L.ci, 0.002, NULL, &F, dz);
  cr_assert_float_eq(F, -(1.0 + 0.5 * exp(-4.0)), 1e-14);
  L.md.type->force(L.cp, &L.ci, -0.002, NULL, &F, dz);
  cr_assert_float_eq(F, 1.0 + 0.5 * exp(-4.0), 1e-14);
  law_free(&L);
}

Test(smooth_sign, law)
{
  const char *phis[] = {"tanh", "algebraic", "linear"};
  for (int k = 0; k < 3; k++) {
    const char *sets[] = {"eps_v", "0.01", "phi", phis[k], NULL};
    law L;
    law_init(&L, "smooth-sign", coulomb2, sets);
    double F, Fm, dz[1];
    for (double v = -0.05; v <= 0.05; v += 0.0037) {
      L.md.type->force(L.cp, &L.ci, v, NULL, &F, dz);
      L.md.type->force(L.cp, &L.ci, -v, NULL, &Fm, dz);
      cr_assert_float_eq(F, -Fm, 1e-15, "odd (%s)", phis[k]);
      cr_assert(fabs(F) <= 2.0 + 1e-15 && F * v <= 0, "bounded and dissipative (%s)", phis[k]);
    }
    L.md.type->force(L.cp, &L.ci, 0.005, NULL, &F, dz);
    const double x = 0.5;
    const double want = k == 0 ? tanh(x) : k == 1 ? x / sqrt(1 + x * x) : x;
    cr_assert_float_eq(F, -2.0 * want, 1e-14, "phi %s", phis[k]);
    law_free(&L);
  }
}

Test(kikuuwe, stick_and_slip)
{
  const char *sets[] = {"K", "1000", "B", "10", NULL};
  law L;
  law_init(&L, "kikuuwe", coulomb2, sets);
  double F, dz[1], e = 1e-3, v = 0.05; /* K e + B v = 1 + 0.5 = 1.5 <= Fbar = 2: stick */
  L.md.type->force(L.cp, &L.ci, v, &e, &F, dz);
  cr_assert_float_eq(F, -(1000 * e + 10 * v), 1e-14, "stick: F = -(K e + B v)");
  cr_assert_float_eq(dz[0], v, 1e-14, "stick: edot = v (anchor fixed)");
  cr_assert_eq(L.md.type->stick(L.cp, &L.ci, v, &e), 1);
  e = 1e-3;
  v = 0.5; /* K e + B v = 6 > 2: slip */
  L.md.type->force(L.cp, &L.ci, v, &e, &F, dz);
  cr_assert_float_eq(F, -2.0, 1e-14, "slip: |F| = Fbar, opposing K e + B v");
  cr_assert_float_eq(dz[0], -(1000 * e - 2.0) / 10, 1e-14, "slip: edot = -(K e + F)/B");
  cr_assert_eq(L.md.type->stick(L.cp, &L.ci, v, &e), 0);
  /* e relaxes to Fbar sgn / K in steady slip: edot = 0 there */
  e = 2.0 / 1000;
  L.md.type->force(L.cp, &L.ci, 1.0, &e, &F, dz);
  cr_assert_float_eq(dz[0], 0.0, 1e-14);
  law_free(&L);
}

Test(kikuuwe, auto_defaults)
{
  law L;
  law_init(&L, "kikuuwe", coulomb2, NULL);
  const double *p = L.cp; /* K, B, f_ratio */
  const double w = 2 * M_PI * 100 * 1.0;
  cr_assert_float_eq(p[0], w * w, 1e-6, "K = m (2 pi 100 f_c)^2");
  cr_assert_float_eq(p[1], 2 * sqrt(p[0]), 1e-9, "B = 2 sqrt(K m)");
  law_free(&L);
}

/* Steady sliding: zdot = 0 at z = S sgn v / sigma0, and |F| = S(|v|) + sigma2 |v|. */
/* The published set of Canudas de Wit et al. 1995, by --set: |F| = S(|v|) + sigma2 |v|. */
Test(lugre, steady_sliding)
{
  law L;
  const char *sets[] = {"sigma0", "1e5", "sigma1", "316.22776601683796", "sigma2", "0.4", NULL};
  law_init(&L, "lugre", stribeck, sets);
  const double vs[] = {1e-4, 5e-4, 1e-3, 3e-3, 0.1, 2.0, -0.002, -1.0};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
    const double v = vs[k], S = 1.0 + 0.5 * exp(-(v / 0.001) * (v / 0.001));
    double z = S * (v > 0 ? 1 : -1) / 1e5, F, dz[1];
    L.md.type->force(L.cp, &L.ci, v, &z, &F, dz);
    cr_assert(fabs(dz[0]) < 1e-12 * fabs(v), "zdot = 0 at steady state (v=%g)", v);
    cr_assert_float_eq(fabs(F), S + 0.4 * fabs(v), 1e-12, "v=%g", v);
    cr_assert(F * v < 0, "opposes motion");
  }
  law_free(&L);
}

/* The defaults are Kikuuwe's anchor: sigma0 = m (2 pi 100 f_c)^2, sigma1 = 2 sqrt(sigma0 m)
 * (m = 1, f_c = 1 Hz here), and no viscous term: steady sliding gives |F| = S(|v|). */
Test(lugre, defaults_as_kikuuwe_no_viscous)
{
  law L, K;
  law_init(&L, "lugre", stribeck, NULL);
  law_init(&K, "kikuuwe", stribeck, NULL);
  const fb_param_set *ps = L.md.type->params, *ks = K.md.type->params;
  const double s0 = fb_param_get(fb_params_find(ps, "sigma0"), L.cp);
  const double s1 = fb_param_get(fb_params_find(ps, "sigma1"), L.cp);
  cr_assert_float_eq(s0, pow(2.0 * M_PI * 100.0, 2.0), 1e-9 * s0);
  cr_assert_eq(s0, fb_param_get(fb_params_find(ks, "K"), K.cp));
  cr_assert_float_eq(s1, 2.0 * sqrt(s0), 1e-12 * s1);
  cr_assert_eq(s1, fb_param_get(fb_params_find(ks, "B"), K.cp));
  cr_assert_eq(fb_param_get(fb_params_find(ps, "sigma2"), L.cp), 0.0);
  const double vs[] = {1e-4, 3e-3, 2.0, -1.0};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
    const double v = vs[k], S = 1.0 + 0.5 * exp(-(v / 0.001) * (v / 0.001));
    double z = S * (v > 0 ? 1 : -1) / s0, F, dz[1];
    L.md.type->force(L.cp, &L.ci, v, &z, &F, dz);
    cr_assert_float_eq(F, -S * (v > 0 ? 1 : -1), 1e-12, "v=%g: no viscous term", v);
  }
  law_free(&L);
  law_free(&K);
  law_init(&L, "dahl", stribeck, NULL);
  cr_assert_float_eq(fb_param_get(fb_params_find(L.md.type->params, "sigma0"), L.cp), s0,
                     1e-9 * s0, "dahl's sigma0 is auto like lugre's");
  law_free(&L);
}

Test(dahl, special_case)
{
  law L;
  const char *sets[] = {"sigma0", "1e5", NULL};
  law_init(&L, "dahl", stribeck, sets);
  double z = 2e-6, F, dz[1];
  L.md.type->force(L.cp, &L.ci, 0.3, &z, &F, dz);
  cr_assert_float_eq(F, -1e5 * z, 1e-15, "Dahl: F = -sigma0 z (sigma1 = sigma2 = 0)");
  cr_assert_float_eq(dz[0], 0.3 - 1e5 * 0.3 * z / 1.0, 1e-12, "Dahl uses S = Fc = 1");
  law_free(&L);
}

/* The bound is never exceeded, and plastic loading freezes H. */
Test(penalty, bound_and_flow_rule)
{
  const char *sets[] = {"cT", "1e4", NULL};
  law L;
  law_init(&L, "penalty", stribeck, sets);
  for (double H = -3; H <= 3; H += 0.173)
    for (double v = -0.01; v <= 0.01; v += 0.00071) {
      double F, dz[1], z = H;
      L.md.type->force(L.cp, &L.ci, v, &z, &F, dz);
      const double R0 = 1.0 + 0.5 * exp(-(v / 0.001) * (v / 0.001));
      cr_assert(fabs(F) <= R0 * (1 + 1e-15), "|F| = %g > R0 = %g (H=%g v=%g)", fabs(F), R0, H, v);
      if (fabs(H) >= R0 && H * v < 0)
        cr_assert_eq(dz[0], 0.0, "loading beyond the bound: Hdot = 0");
      else
        cr_assert_float_eq(dz[0], -1e4 * v, 1e-12, "elastic: Hdot = -cT v");
    }
  law_free(&L);
}

Test(penalty, eps_needs_stiffness)
{
  fb_plant pl;
  fb_model md;
  fb_err err;
  plant1(&pl, coulomb2, 1.0); /* K = 0 at the contact */
  cr_assert_eq(fb_model_init(&md, fb_model_find("penalty")), FB_OK);
  cr_assert_eq(fb_params_set(md.type->params, "penalty", md.params, "eps", "0.1", &err),
               FB_OK);
  cr_assert_eq(fb_model_resolve(&md, &pl, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "eps") != NULL, "%s", err.msg);
  fb_model_free(&md);
  fb_plant_free(&pl);
}

/* The damper dT is critical by default, 2 sqrt(cT m) as Kikuuwe's B; dT = 0 ([Engleder2002]'s
 * undamped variant) stays 0. */
Test(penalty, damper_critical_by_default)
{
  law P, K;
  law_init(&P, "penalty", stribeck, NULL);
  law_init(&K, "kikuuwe", stribeck, NULL);
  const fb_param_set *ps = P.md.type->params, *ks = K.md.type->params;
  const double cT = fb_param_get(fb_params_find(ps, "cT"), P.cp);
  const double dT = fb_param_get(fb_params_find(ps, "dT"), P.cp);
  cr_assert_float_eq(dT, 2.0 * sqrt(cT * 1.0), 1e-12 * dT);
  cr_assert_eq(cT, fb_param_get(fb_params_find(ks, "K"), K.cp));
  cr_assert_eq(dT, fb_param_get(fb_params_find(ks, "B"), K.cp));
  law_free(&P);
  law_free(&K);
  const char *sets[] = {"dT", "0", NULL};
  law_init(&P, "penalty", stribeck, sets);
  cr_assert_eq(fb_param_get(fb_params_find(ps, "dT"), P.cp), 0.0);
  law_free(&P);
}

/* Every built-in has its record, for itself, and at most FB_MAX_Z states per contact (the
 * bound of fb_contact_jac and of the integrators' stack buffers, fb_model.h). */
Test(conformance, every_model_has_its_suite_record)
{
  size_t n = 0;
  for (; fb_model_registry[n] != NULL; n++) {
    const fb_model_type *t = fb_model_registry[n];
    cr_assert_not_null(fb_model_suite_registry[n], "%s has a record", t->name);
    cr_assert_eq(fb_model_suite_of(t), fb_model_suite_registry[n]);
    cr_assert_str_eq(fb_model_suite_registry[n]->model, t->name);
    cr_assert_leq(t->nz, FB_MAX_Z, "%s: nz %zu", t->name, t->nz);
  }
  cr_assert_null(fb_model_suite_registry[n], "as many records as models");
}

/* Conformance over the registry: finite, odd, dissipative in steady state, analytic
 * Jacobians agree with differences away from kinks. */
Test(conformance, every_ode_model)
{
  for (size_t m = 0; fb_model_registry[m] != NULL; m++) {
    const fb_model_type *t = fb_model_registry[m];
    cr_assert(strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(t->name),
              "name '%s' is filename-safe", t->name);
    for (size_t k = 0; k < m; k++)
      cr_assert_str_neq(fb_model_registry[k]->name, t->name, "names are unique");
    if (!(t->caps & FB_MODEL_ODE))
      continue;
    law L;
    law_init(&L, t->name, stribeck, NULL);
    const double vs[] = {0.0, 1e-12, -1e-12, 0.37, -0.37, 1e6, -1e6};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
      double z[FB_MAX_Z] = {0}, zm[FB_MAX_Z] = {0}, F, Fm, dz[FB_MAX_Z], dzm[FB_MAX_Z];
      for (size_t i = 0; i < t->nz; i++) {
        z[i] = 1e-6 * (double)(i + 1);
        zm[i] = -z[i];
      }
      cr_assert_eq(t->force(L.cp, &L.ci, vs[k], z, &F, dz), FB_OK);
      cr_assert_eq(t->force(L.cp, &L.ci, -vs[k], zm, &Fm, dzm), FB_OK);
      cr_assert(isfinite(F), "%s: F finite at v=%g", t->name, vs[k]);
      cr_assert_float_eq(F, -Fm, 1e-12 * (1 + fabs(F)), "%s: odd at v=%g", t->name, vs[k]);
      for (size_t i = 0; i < t->nz; i++)
        cr_assert(isfinite(dz[i]), "%s: dz finite", t->name);
    }
    if (t->jac != NULL) {
      const double v = 0.0123;
      double z[FB_MAX_Z] = {0};
      for (size_t i = 0; i < t->nz; i++)
        z[i] = 3e-6;
      fb_contact_jac J;
      memset(&J, 0, sizeof J);
      cr_assert_eq(t->jac(L.cp, &L.ci, v, z, &J), FB_OK);
      double F0, F1, F2, dz0[FB_MAX_Z], dz1[FB_MAX_Z];
      const double dv = 1e-7;
      t->force(L.cp, &L.ci, v + dv, z, &F1, dz1);
      t->force(L.cp, &L.ci, v - dv, z, &F2, dz0);
      t->force(L.cp, &L.ci, v, z, &F0, dz0);
      const double fd = (F1 - F2) / (2 * dv);
      cr_assert(fabs(J.dF_dvr - fd) <= 1e-4 * (1 + fabs(fd)), "%s: dF/dv %g vs %g", t->name,
                J.dF_dvr, fd);
    }
    law_free(&L);
  }
}
