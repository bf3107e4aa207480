/* test_gms.c — the Generalized Maxwell-Slip model (docs/models/gms.md): the virgin
 * presliding curve from rest under a slow displacement ramp is piecewise linear with its
 * breakpoints at the elements' z_i = W_i/k_i (the paper's hybrid elements), the smooth
 * elements follow their closed form W_i (1 - exp(-k_i x/W_i)) with the same knees, the
 * reversal curve obeys Masing's rule (non-local memory), the slip fractions are checked,
 * and the model runs in the suite's physics. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_test.h"
#include "fricbench.h"

static const fb_friction coulomb = {FB_SHAPE_COULOMB, 0.5, 0.5, 0.0};

/* gms with k_t = 1000 N/m, N = 4 elements, spread 2, the given variant, resolved. */
static void make(fb_model *m, const char *variant)
{
  fb_err err = {{0}};
  cr_assert_eq(fb_model_init(m, fb_model_find("gms")), FB_OK);
  cr_assert_eq(fb_model_set(m, "k_t", 1000.0, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(m, "sigma1", 0.0, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(m, "variant", strcmp(variant, "hybrid") == 0, &err), FB_OK);
  const fb_contact_scale sc = {1.0, 0.0, 5.0, 1.0, 1.0};
  cr_assert_eq(fb_model_resolve_scales(m, 1, &sc, &err), FB_OK, "%s", err.msg);
}

/* Drive the elements at the relative velocity v from the states z (explicit Euler, step
 * dx in the displacement), over a travel x_end; the displacement from the start (signed)
 * into xs[] and the elastic force sum k_i z_i into Fel[] at every step (nmax at most);
 * returns the number of samples. */
static size_t drive(const fb_model *m, const fb_contact_in *c, double v, double dx,
                    double x_end, double *z, double *xs, double *Fel, size_t nmax)
{
  size_t k = 0;
  double dz[4], F;
  const double dt = dx / fabs(v);
  for (double s = 0.0; s < x_end && k < nmax; s += dx) {
    cr_assert_eq(fb_model_force(m, 0, c, v, z, &F, dz), FB_OK);
    for (size_t i = 0; i < 4; i++)
      z[i] += dt * dz[i];
    double e = 0.0;
    for (size_t i = 0; i < 4; i++)
      e += fb_model_get(m, 0, i == 0 ? "k_1" : i == 1 ? "k_2" : i == 2 ? "k_3" : "k_4") * z[i];
    xs[k] = (v > 0 ? 1 : -1) * (s + dx);
    Fel[k++] = e;
  }
  return k;
}

#define NS 40000

/* The hybrid (paper's) elements from rest under a slow ramp: F(x) = sum_i min(k_i x, W_i),
 * piecewise linear, breakpoints at z_i = W_i/k_i (1.5e-3 N off at most: one step's overshoot
 * k_i dx and its relaxation); the slope between breakpoints is the sum of the stiffnesses
 * of the elements still sticking. */
Test(gms, hybrid_virgin_curve_is_piecewise_linear)
{
  fb_model m;
  make(&m, "hybrid");
  const fb_contact_in c = {&coulomb, 10.0, 5.0, NAN, NAN};
  const double S = 5.0;
  double kel[4], brk[4];
  const char *kn[] = {"k_1", "k_2", "k_3", "k_4"};
  const char *an[] = {"alpha_1", "alpha_2", "alpha_3", "alpha_4"};
  for (size_t i = 0; i < 4; i++) {
    kel[i] = fb_model_get(&m, 0, kn[i]);
    brk[i] = fb_model_get(&m, 0, an[i]) * S / kel[i];
    if (i > 0)
      cr_assert_float_eq(brk[i] / brk[i - 1], 2.0, 1e-12, "spread 2 between breakpoints");
  }
  static double xs[NS], Fel[NS];
  double z[4] = {0};
  const double dx = 1e-6;
  const size_t ns = drive(&m, &c, 1e-3, dx, 1.3 * brk[3], z, xs, Fel, NS);
  double worst = 0.0;
  for (size_t k = 0; k < ns; k++) {
    double want = 0.0;
    for (size_t i = 0; i < 4; i++)
      want += fmin(kel[i] * xs[k], 0.25 * S);
    worst = fmax(worst, fabs(Fel[k] - want));
  }
  cr_assert(worst < 1.5e-3, "largest deviation from the piecewise-linear curve %g N", worst);
  /* slopes halfway between breakpoints: sum of the sticking elements' stiffnesses */
  for (size_t seg = 0; seg < 4; seg++) {
    const double xa = seg == 0 ? 0.2 * brk[0] : brk[seg - 1] + 0.2 * (brk[seg] - brk[seg - 1]);
    const double xb = seg == 0 ? 0.8 * brk[0] : brk[seg - 1] + 0.8 * (brk[seg] - brk[seg - 1]);
    const size_t ka = (size_t)(xa / dx) - 1, kb = (size_t)(xb / dx) - 1;
    const double slope = (Fel[kb] - Fel[ka]) / (xs[kb] - xs[ka]);
    double want = 0.0;
    for (size_t i = seg; i < 4; i++)
      want += kel[i];
    cr_assert(fabs(slope - want) <= 1e-6 * want, "segment %zu: slope %.9g, want %.9g", seg,
              slope, want);
  }
  /* beyond the last breakpoint: flat at S */
  cr_assert(fabs(Fel[ns - 1] - S) < 1e-6, "saturated at %g", Fel[ns - 1]);
  /* Masing's rule (non-local memory): reversing from x_r, the curve is the virgin one
   * doubled, F(x_r) - F(x) = 2 F_v((x_r - x)/2), until it has swept the whole range */
  const double Fr = Fel[ns - 1];
  static double xs2[NS], F2[NS];
  const size_t n2 = drive(&m, &c, -1e-3, dx, 2.0 * brk[2], z, xs2, F2, NS);
  worst = 0.0;
  for (size_t k = 0; k < n2; k++) {
    const double d = -xs2[k]; /* distance travelled back */
    double fv = 0.0;
    for (size_t i = 0; i < 4; i++)
      fv += fmin(kel[i] * d / 2.0, 0.25 * S);
    worst = fmax(worst, fabs((Fr - F2[k]) - 2.0 * fv));
  }
  cr_assert(worst < 3e-3, "Masing: largest deviation %g N", worst);
  fb_model_free(&m);
}

/* The smooth (default) elements from rest: z_i = (W_i/k_i)(1 - exp(-k_i x/W_i)), whose
 * initial tangent k_i x and asymptote W_i cross at the same z_i = W_i/k_i; the sum at
 * each breakpoint. */
Test(gms, smooth_virgin_curve_has_the_same_knees)
{
  fb_model m;
  make(&m, "smooth");
  const fb_contact_in c = {&coulomb, 10.0, 5.0, NAN, NAN};
  double kel[4];
  const char *kn[] = {"k_1", "k_2", "k_3", "k_4"};
  for (size_t i = 0; i < 4; i++)
    kel[i] = fb_model_get(&m, 0, kn[i]);
  static double xs[NS], Fel[NS];
  double z[4] = {0};
  const double dx = 1e-6, W = 1.25;
  const size_t ns = drive(&m, &c, 1e-3, dx, 0.03, z, xs, Fel, NS);
  double worst = 0.0;
  for (size_t k = 0; k < ns; k++) {
    double want = 0.0;
    for (size_t i = 0; i < 4; i++)
      want += W * (1.0 - exp(-kel[i] * xs[k] / W));
    worst = fmax(worst, fabs(Fel[k] - want));
  }
  cr_assert(worst < 2e-3, "largest deviation from the closed form %g N", worst);
  /* the initial slope is the total stiffness k */
  cr_assert(fabs(Fel[9] / xs[9] - 1000.0) < 5.0, "initial slope %g", Fel[9] / xs[9]);
  fb_model_free(&m);
}

Test(gms, slip_fractions_all_or_none_summing_to_one)
{
  fb_err err = {{0}};
  fb_model m;
  const fb_contact_scale sc = {1.0, 0.0, 5.0, 1.0, 1.0};
  cr_assert_eq(fb_model_init(&m, fb_model_find("gms")), FB_OK);
  cr_assert_eq(fb_model_set(&m, "N", 2, &err), FB_OK);
  cr_assert_eq(fb_model_set(&m, "alpha_1", 0.7, &err), FB_OK);
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "1 of the N = 2"), "%s", err.msg);
  cr_assert_eq(fb_model_set(&m, "alpha_2", 0.2, &err), FB_OK);
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "sum to 0.8999"), "%s", err.msg);
  cr_assert_eq(fb_model_set(&m, "alpha_2", 0.3, &err), FB_OK);
  cr_assert_eq(fb_model_resolve_scales(&m, 1, &sc, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_model_set(&m, "N", 5, &err), FB_EINVAL, "N is capped by the states per contact");
  fb_model_free(&m);
}

/* In the suite's physics (auto k from the scenario's frequency): a push at half the
 * breakaway after rest leaves the block displaced by about r Fs/k at most, sliding at
 * r = 1.05 accelerates it. */
Test(gms, holds_and_slides_on_push_hold)
{
  const char *hold[] = {"r=0.5", NULL}, *slide[] = {"r=1.05", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("push-hold", "gms", "msbdf", 0, 1e-8, hold, 601, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const double x_end = tr.y[(tr.ns - 1) * tr.dim];
  fb_trace_free(&tr);
  fbt_run("push-hold", "gms", "msbdf", 0, 1e-8, slide, 601, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const double x_slide = tr.y[(tr.ns - 1) * tr.dim];
  fb_trace_free(&tr);
  cr_assert(x_slide > 100.0 * fabs(x_end), "hold %g m, slide %g m", x_end, x_slide);
}

/* One element is LuGre: N = 1 gives k_1 = k_t = LuGre's sigma0, alpha_1 = 1, the same
 * sigma1, so the two trajectories on stick-slip agree to the adaptive tolerance (1e-8;
 * measured 7e-7 in x and v over the 10 s). */
Test(gms, one_element_is_lugre)
{
  const char *one[] = {"N=1", NULL};
  fb_trace a, b;
  fb_run_result res;
  fbt_run("stick-slip", "lugre", "msbdf", 0, 1e-8, NULL, 501, &a, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  fbt_run("stick-slip", "gms", "msbdf", 0, 1e-8, one, 501, &b, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  double worst = 0.0;
  for (size_t k = 0; k < a.ns; k++)
    for (size_t j = 0; j < 2; j++)
      worst = fmax(worst, fabs(a.y[k * a.dim + j] - b.y[k * b.dim + j]));
  cr_assert(worst < 1e-5, "largest difference %g", worst);
  fb_trace_free(&a);
  fb_trace_free(&b);
}
