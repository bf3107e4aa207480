/* test_elastoplastic.c — Dupont et al. 2002's single-state elasto-plastic model
 * (docs/design.md §3 M5b): its law in each region of alpha(z, v), the analytic Jacobian,
 * purely elastic presliding (no plastic creep below z_ba), and no accumulation on the
 * drift scenario where LuGre and Dahl accumulate (Kikuuwe and penalty hold too).  No
 * timing anywhere. */
#include <criterion/criterion.h>
#include <math.h>

#include "fb_model.h"
#include "fb_test.h"
#include "fb_util.h"

static const fb_friction stribeck = {FB_SHAPE_STRIBECK, 1.5, 1.0, 0.001};

typedef struct law {
  fb_plant pl;
  fb_model md;
  fb_contact_in ci;
  const void *cp;
} law;

/* One DOF, m = 1, f_c = 1 Hz, N = 1, the drift scenario's Stribeck characteristic. */
static void law_init(law *L, const char *name, const char *sigma0)
{
  fb_err err;
  cr_assert_eq(fb_plant_alloc(&L->pl, 1, 1, 0), FB_OK);
  L->pl.T = 1;
  L->pl.f_c = 1;
  L->pl.v_scale = 1;
  L->pl.contact[0].law = stribeck;
  L->pl.contact[0].c0.N = 1.0;
  cr_assert_eq(fb_plant_finish(&L->pl, "test", &err), FB_OK, "%s", err.msg);
  const fb_model_type *t = fb_model_find(name);
  cr_assert_not_null(t, "model %s", name);
  cr_assert_eq(fb_model_init(&L->md, t), FB_OK);
  if (sigma0 != NULL)
    cr_assert_eq(fb_params_set(t->params, name, L->md.params, "sigma0", sigma0, &err), FB_OK,
                 "%s", err.msg);
  cr_assert_eq(fb_model_resolve(&L->md, &L->pl, &err), FB_OK, "%s", err.msg);
  L->ci = (fb_contact_in){.law = &L->pl.contact[0].law, .N = 1.0, .Fs = stribeck.mu_s, .f_app = 0.0};
  L->cp = fb_model_cparams(&L->md, 0);
}

static void law_free(law *L)
{
  fb_model_free(&L->md);
  fb_plant_free(&L->pl);
}

static double S_of(double v)
{
  return 1.0 + 0.5 * exp(-(v / 0.001) * (v / 0.001));
}

/* alpha = 0 (a pure spring, zdot = v) below z_ba and while unloading; LuGre's law at
 * and beyond z_max; in between, strictly between the two and monotone in |z|. */
Test(elastoplastic, law_by_region)
{
  law E, L;
  law_init(&E, "elastoplastic", "1e4");
  law_init(&L, "lugre", "1e4");
  const fb_model_type *te = E.md.type, *tl = L.md.type;
  const double vs[] = {2e-4, 1e-3, 0.05, -3e-3};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
    const double v = vs[k], sv = v > 0 ? 1.0 : -1.0, zmax = S_of(fabs(v)) / 1e4;
    double F, dz[1], Fl, dzl[1], prev = 0.0;
    for (int i = 0; i <= 40; i++) {
      double z = sv * zmax * 1.2 * i / 40.0;
      te->force(E.cp, &E.ci, v, &z, &F, dz);
      tl->force(L.cp, &L.ci, v, &z, &Fl, dzl);
      const double a = fabs(z) / zmax;
      if (a <= 0.7) {
        cr_assert_eq(dz[0], v, "elastic below z_ba: zdot = v (v=%g, z/zmax=%g)", v, a);
        cr_assert_eq(te->stick(E.cp, &E.ci, v, &z), 1);
      } else if (a >= 1.0) {
        cr_assert_float_eq(dz[0], dzl[0], 1e-12 * fabs(v), "LuGre beyond z_max (v=%g)", v);
        cr_assert_float_eq(F, Fl, 1e-12, "LuGre's force beyond z_max");
      } else {
        /* the plastic part v - zdot grows from 0 at z_ba to LuGre's at z_max */
        const double plastic = (v - dz[0]) * sv, lugre = (v - dzl[0]) * sv;
        cr_assert(plastic > 0.0 && plastic < lugre, "transition: 0 < %g < %g", plastic, lugre);
        cr_assert(plastic >= prev, "alpha monotone in |z|");
        prev = plastic;
        cr_assert_eq(te->stick(E.cp, &E.ci, v, &z), 0);
      }
      /* unloading (z against v) is elastic at any deflection */
      double zr = -z;
      te->force(E.cp, &E.ci, v, &zr, &F, dz);
      cr_assert_eq(dz[0], v, "unloading is elastic");
      cr_assert_float_eq(F, -(1e4 * zr + 200.0 * v), 1e-9, "F = -(sigma0 z + sigma1 v)");
    }
  }
  law_free(&E);
  law_free(&L);
}

/* The analytic partials agree with central differences in every region, including the
 * sinusoidal transition and the Stribeck-dependent z_max. */
Test(elastoplastic, jacobian_matches_differences)
{
  law E;
  law_init(&E, "elastoplastic", "1e4");
  const fb_model_type *t = E.md.type;
  cr_assert(t->caps & FB_MODEL_JAC);
  const double vs[] = {2e-4, 8e-4, 1e-3, 0.05, -1.5e-3};
  const double ratios[] = {0.3, 0.75, 0.8, 0.9, 0.97, 1.1, -0.5};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++)
    for (size_t j = 0; j < sizeof ratios / sizeof ratios[0]; j++) {
      const double v = vs[k], zmax = S_of(fabs(v)) / 1e4;
      double z = (v > 0 ? 1.0 : -1.0) * ratios[j] * zmax;
      fb_contact_jac J;
      t->jac(E.cp, &E.ci, v, &z, &J);
      const double hz = 1e-7 * zmax, hv = 1e-7 * fabs(v);
      double Fp, Fm, dp[1], dm[1], zp = z + hz, zm = z - hz;
      t->force(E.cp, &E.ci, v, &zp, &Fp, dp);
      t->force(E.cp, &E.ci, v, &zm, &Fm, dm);
      const double dF_dz = (Fp - Fm) / (2 * hz), dd_dz = (dp[0] - dm[0]) / (2 * hz);
      t->force(E.cp, &E.ci, v + hv, &z, &Fp, dp);
      t->force(E.cp, &E.ci, v - hv, &z, &Fm, dm);
      const double dF_dv = (Fp - Fm) / (2 * hv), dd_dv = (dp[0] - dm[0]) / (2 * hv);
      cr_assert(fabs(J.dF_dz[0] - dF_dz) <= 1e-5 * (fabs(dF_dz) + 1e4), "dF/dz v=%g r=%g: %g vs %g",
                v, ratios[j], J.dF_dz[0], dF_dz);
      cr_assert(fabs(J.ddz_dz[0] - dd_dz) <= 1e-5 * (fabs(dd_dz) + 1e4 * fabs(v)),
                "dzdot/dz v=%g r=%g: %g vs %g", v, ratios[j], J.ddz_dz[0], dd_dz);
      cr_assert(fabs(J.ddz_dvr[0] - dd_dv) <= 1e-5 * (fabs(dd_dv) + 1.0),
                "dzdot/dv v=%g r=%g: %g vs %g", v, ratios[j], J.ddz_dvr[0], dd_dv);
      cr_assert(fabs(J.dF_dvr - dF_dv) <= 1e-5 * (fabs(dF_dv) + 200.0), "dF/dv v=%g r=%g: %g vs %g",
                v, ratios[j], J.dF_dvr, dF_dv);
    }
  law_free(&E);
}

/* Drift's default load (peak 0.9 N: the deflection stays below z_ba = 0.7 Fs/sigma0):
 * presliding is purely elastic, z = x at every sample and the model's flag says stick
 * throughout, while LuGre's bristle and body part ways (x - z is plastic slip). */
Test(elastoplastic, presliding_purely_elastic)
{
  fb_trace te, tl;
  fb_run_result res;
  const size_t ns = 2001;
  cr_assert_eq(fbt_run("drift", "elastoplastic", "msbdf", 0, 1e-10, NULL, ns, &te, NULL, &res),
               FB_OK, "%s", res.message);
  cr_assert_eq(fbt_run("drift", "lugre", "msbdf", 0, 1e-10, NULL, ns, &tl, NULL, &res), FB_OK,
               "%s", res.message);
  const double zba = 0.7 * 1.5 / pow(2 * M_PI * 100, 2); /* r_ba Fs / sigma0, f_c = 1 Hz */
  double de = 0.0, dl = 0.0, zmax = 0.0;
  for (size_t k = 0; k < te.filled; k++) {
    de = fmax(de, fabs(te.y[k * te.dim + 2] - te.y[k * te.dim]));
    dl = fmax(dl, fabs(tl.y[k * tl.dim + 2] - tl.y[k * tl.dim]));
    zmax = fmax(zmax, fabs(te.y[k * te.dim + 2]));
    cr_assert_eq(te.stick[k], 1, "elastic presliding is stick (t=%g)", te.t[k]);
  }
  cr_log_info("drift: max |z - x| elastoplastic %.3g, lugre %.3g; max |z| %.3g < z_ba %.3g\n", de,
              dl, zmax, zba);
  cr_assert(zmax < zba, "the default load stays below z_ba");
  cr_assert(de <= 1e-5 * zba, "elastoplastic: no plastic slip, max |z - x| = %g", de);
  cr_assert(dl > 1.0 * zba, "lugre slips plastically below breakaway: max |z - x| = %g", dl);
  fb_trace_free(&te);
  fb_trace_free(&tl);
}

/* Accumulation (docs/design.md §6): (s(t_2N) - s(t_N)) / N over forcing cycles N..2N,
 * here N = 20 with T = 40 (the forcing period is 1 s), default integrator at tol 1e-8. */
static double accumulation(const char *model, const char *b, const char *a, const char *t_push,
                           double *ratio)
{
  const char *sets[5] = {"T=40", NULL, NULL, NULL, NULL};
  size_t k = 1;
  if (b != NULL)
    sets[k++] = b;
  if (a != NULL)
    sets[k++] = a;
  if (t_push != NULL)
    sets[k++] = t_push;
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("drift", model, NULL, 0, 1e-8, sets, 41, &tr, NULL, &res), FB_OK, "%s: %s",
               model, res.message);
  const double x10 = tr.y[10 * tr.dim], x20 = tr.y[20 * tr.dim], x40 = tr.y[40 * tr.dim];
  *ratio = x40 / x10;
  fb_trace_free(&tr);
  return (x40 - x20) / 20.0;
}

Test(elastoplastic, drift_does_not_accumulate, .timeout = 120)
{
  const double compliance = 1.5 / pow(2 * M_PI * 100, 2); /* Fs / sigma0, f_c = 1 Hz */
  static const struct {
    const char *tag, *b, *a, *t_push;
  } var[] = {{"default", NULL, NULL, NULL},
             {"zero-mean", "b=0", "a=0.9", NULL},
             {"slide-then-hold", NULL, NULL, "t_push=1"}};
  for (size_t i = 0; i < sizeof var / sizeof var[0]; i++) {
    double r;
    const double acc = accumulation("elastoplastic", var[i].b, var[i].a, var[i].t_push, &r);
    cr_log_info("drift %s: elastoplastic accumulates %.3g m/cycle (Fs/sigma0 = %.3g), "
                "x(40)/x(10) = %.4f\n",
                var[i].tag, acc, compliance, r);
    cr_assert(fabs(acc) <= 1e-4 * compliance, "%s: elastoplastic accumulates %g", var[i].tag,
              acc);
  }
  /* Kikuuwe's anchor and the penalty spring hold too: bounded elastic deflection only. */
  static const char *const holders[] = {"kikuuwe", "penalty"};
  for (size_t i = 0; i < 2; i++) {
    double r;
    const double acc = accumulation(holders[i], NULL, NULL, NULL, &r);
    cr_log_info("drift default: %s accumulates %.3g m/cycle, x(40)/x(10) = %.4f\n", holders[i],
                acc, r);
    cr_assert(fabs(acc) <= 1e-4 * compliance, "%s accumulates %g", holders[i], acc);
  }
  /* LuGre and Dahl accumulate on the default load, cycle after cycle. */
  double rl, rd, re;
  const double al = accumulation("lugre", NULL, NULL, NULL, &rl);
  const double ad = accumulation("dahl", NULL, NULL, NULL, &rd);
  accumulation("elastoplastic", NULL, NULL, NULL, &re);
  cr_log_info("drift default: accumulation lugre %.3g, dahl %.3g m/cycle; x(40)/x(10) lugre "
              "%.3f, dahl %.3f, elastoplastic %.4f\n",
              al, ad, rl, rd, re);
  cr_assert(al > 0.1 * compliance && ad > 0.1 * compliance, "lugre %g, dahl %g", al, ad);
  cr_assert(rl > 3.0 && rd > 3.0, "linear growth: x(40)/x(10) lugre %g, dahl %g", rl, rd);
  cr_assert(fabs(re - 1.0) < 1e-3, "elastoplastic: x(40)/x(10) = %g", re);
}

/* Above the breakaway displacement (near-Fs: peak 0.9 Fs > r_ba Fs = 0.7 Fs) Dupont's
 * model is plastic by design and creeps, an order of magnitude less than LuGre; with
 * z_ba above the peak deflection (r_ba = 0.95) it holds again. */
Test(elastoplastic, near_breakaway_plastic_only_beyond_z_ba, .timeout = 120)
{
  const double compliance = 1.5 / pow(2 * M_PI * 100, 2);
  double r;
  const double ae = accumulation("elastoplastic", "b=0.75", "a=0.6", NULL, &r);
  const double al = accumulation("lugre", "b=0.75", "a=0.6", NULL, &r);
  const char *sets[] = {"T=40", "b=0.75", "a=0.6", "r_ba=0.95", NULL};
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("drift", "elastoplastic", NULL, 0, 1e-8, sets, 41, &tr, NULL, &res), FB_OK,
               "%s", res.message);
  const double a95 = (tr.y[40 * tr.dim] - tr.y[20 * tr.dim]) / 20.0;
  fb_trace_free(&tr);
  cr_log_info("drift near-Fs: accumulation elastoplastic %.3g (r_ba = 0.95: %.3g), lugre %.3g "
              "m/cycle\n",
              ae, a95, al);
  cr_assert(ae > 0.0 && ae < 0.2 * al, "elastoplastic %g vs lugre %g", ae, al);
  cr_assert(fabs(a95) <= 1e-4 * compliance, "r_ba = 0.95 holds: %g", a95);
}
