/* test_poly_cone.c — the N-facet cone of 2-D contacts (docs/models/poly-cone.md): the
 * regular N-gon circumscribing the disc errs in magnitude by at most 1/cos(pi/N) - 1 (its
 * vertices) and in direction by at most pi/N, both reached; the projection is the polygon's
 * nearest point; N = 4 unrotated is the box, and moreau-jean and naive-sign reproduce the
 * box's trajectories to the bit; on the puck's yaw sweep the errors are those bounds. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_test.h"
#include "fricbench.h"

/* The largest magnitude and direction errors of the polygon's sign over 3600 directions. */
static void sign_errors(int N, double rot, double *mag, double *dir)
{
  *mag = *dir = 0.0;
  for (int k = 0; k < 3600; k++) {
    const double a = 2.0 * M_PI * (k + 0.37) / 3600.0, u[2] = {cos(a), sin(a)};
    double s[2];
    fb_poly_sign(u, N, rot, s);
    *mag = fmax(*mag, hypot(s[0], s[1]) - 1.0);
    const double d = fabs(remainder(atan2(s[1], s[0]) - a, 2.0 * M_PI));
    *dir = fmax(*dir, d);
  }
}

Test(poly_cone, sign_errs_by_the_closed_forms)
{
  const int Ns[] = {3, 4, 6, 8, 16, 64};
  for (size_t q = 0; q < sizeof Ns / sizeof *Ns; q++) {
    double mag, dir;
    sign_errors(Ns[q], 0.3, &mag, &dir);
    const double want = 1.0 / cos(M_PI / Ns[q]) - 1.0;
    cr_assert(fabs(mag - want) <= 1e-12 * (1.0 + want), "N %d: magnitude error %.15g, want %.15g",
              Ns[q], mag, want);
    cr_assert(dir <= M_PI / Ns[q] + 1e-12, "N %d: direction error %g > pi/N", Ns[q], dir);
    cr_assert(dir >= 0.99 * M_PI / Ns[q], "N %d: direction error %g never near pi/N", Ns[q], dir);
  }
  /* on a facet normal: the facet's midpoint, exact in magnitude and direction (yes), and
   * just off it a vertex (no) */
  const double n[2] = {cos(0.3 + 2.0 * M_PI / 8.0), sin(0.3 + 2.0 * M_PI / 8.0)};
  double s[2];
  fb_poly_sign(n, 8, 0.3, s);
  cr_assert(fabs(hypot(s[0], s[1]) - 1.0) < 1e-12, "midpoint: |s| = %.17g", hypot(s[0], s[1]));
  const double off[2] = {cos(0.3 + 2.0 * M_PI / 8.0 + 1e-6), sin(0.3 + 2.0 * M_PI / 8.0 + 1e-6)};
  fb_poly_sign(off, 8, 0.3, s);
  cr_assert(fabs(hypot(s[0], s[1]) - 1.0 / cos(M_PI / 8.0)) < 1e-12);
}

/* The projection is the nearest point of the polygon: inside points are kept, outside ones
 * land on the boundary (every facet's n.f <= r, one with equality), and no boundary sample
 * is nearer.  N = 4, rotation 0 agrees with the box's per-axis clamp to round-off. */
Test(poly_cone, projection_is_the_nearest_point)
{
  const int N = 6;
  const double r = 2.0, rot = 0.1, da = 2.0 * M_PI / N, R = r / cos(M_PI / N);
  for (int k = 0; k < 500; k++) {
    const double a = 0.0123 * k * k, rad = 0.05 * (k % 97);
    double f[2] = {rad * cos(a), rad * sin(a)};
    const double f0[2] = {f[0], f[1]};
    fb_poly_clamp(f, r, N, rot);
    double worst = -INFINITY;
    for (int j = 0; j < N; j++)
      worst = fmax(worst, cos(rot + j * da) * f[0] + sin(rot + j * da) * f[1]);
    cr_assert(worst <= r * (1.0 + 1e-12), "outside the polygon: %g > %g", worst, r);
    const double d = hypot(f[0] - f0[0], f[1] - f0[1]);
    if (d == 0.0)
      continue; /* inside: kept */
    cr_assert(fabs(worst - r) <= 1e-12 * r, "not on the boundary");
    for (int j = 0; j < N; j++) /* boundary samples between vertices j and j+1 */
      for (int m = 0; m <= 200; m++) {
        const double a0 = rot + (j - 0.5) * da, a1 = a0 + da, w = m / 200.0;
        const double p[2] = {R * ((1 - w) * cos(a0) + w * cos(a1)),
                             R * ((1 - w) * sin(a0) + w * sin(a1))};
        cr_assert(hypot(p[0] - f0[0], p[1] - f0[1]) >= d * (1.0 - 1e-12), "a nearer point");
      }
  }
  for (int k = 0; k < 200; k++) {
    const double a = 0.731 * k, rad = 0.03 * k;
    double f[2] = {rad * cos(a), rad * sin(a)}, g[2] = {f[0], f[1]};
    fb_poly_clamp(f, 1.5, 4, 0.0);
    fb_clamp2(g, 1.5, FB_CONE_BOX);
    cr_assert(fabs(f[0] - g[0]) <= 1e-15 && fabs(f[1] - g[1]) <= 1e-15, "box: %g %g vs %g %g",
              f[0], f[1], g[0], g[1]);
  }
  cr_assert_eq(fb_cone_kind(FB_CONE_POLY, 4, 0.0), FB_CONE_BOX);
  cr_assert_eq(fb_cone_kind(FB_CONE_POLY, 4, 0.2), FB_CONE_POLY);
  cr_assert_eq(fb_cone_kind(FB_CONE_POLY, 6, 0.0), FB_CONE_POLY);
}

/* Trajectories of cone=poly with facets=4 and of cone=box, sample by sample: identical. */
Test(poly_cone, four_facets_are_the_box_to_the_bit)
{
  const char *models[] = {"moreau-jean", "naive-sign"};
  const char *integ[] = {"moreau-jean", "rk4"};
  const char *scen[] = {"puck", "billiard"};
  for (size_t m = 0; m < 2; m++)
    for (size_t s = 0; s < 2; s++) {
      const char *box[] = {"cone=box", NULL}, *poly[] = {"cone=poly", "facets=4", NULL};
      fb_trace a, b;
      fb_run_result ra, rb;
      fbt_run(scen[s], models[m], integ[m], 1e-3, 0, box, 301, &a, NULL, &ra);
      fbt_run(scen[s], models[m], integ[m], 1e-3, 0, poly, 301, &b, NULL, &rb);
      cr_assert_eq(ra.status, FB_OK, "%s", ra.message);
      cr_assert_eq(rb.status, FB_OK, "%s", rb.message);
      cr_assert(memcmp(a.y, b.y, a.ns * a.dim * sizeof(double)) == 0, "%s on %s: y differs",
                models[m], scen[s]);
      cr_assert(memcmp(a.F, b.F, a.ns * a.nc * sizeof(double)) == 0, "%s on %s: F differs",
                models[m], scen[s]);
      fb_trace_free(&a);
      fb_trace_free(&b);
    }
}

/* The puck launched at 1 m/s at yaw 20 degrees under moreau-jean (h = 1 ms): with N = 6 and
 * N = 16 the sliding friction is a vertex's, |F|/(mu m g) - 1 = 1/cos(pi/N) - 1, pointing
 * along the vertex nearest the slip's direction (at most pi/N off it). */
Test(poly_cone, puck_errs_by_the_vertex)
{
  const int Ns[] = {6, 16};
  const char *fs[] = {"facets=6", "facets=16"};
  for (size_t q = 0; q < 2; q++) {
    const char *sets[] = {"vx0=1", "vy0=0", "yaw=20", "cone=poly", fs[q], NULL};
    fb_trace tr;
    fb_run_result res;
    fbt_run("puck", "moreau-jean", "moreau-jean", 1e-3, 0, sets, 101, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    const size_t k = 5; /* early in the slide */
    const double *F = &tr.F[k * tr.nc], *v = &tr.y[k * tr.dim + tr.n];
    const double S = 0.3 * 9.81; /* mu g per unit mass: the puck's m = 1 */
    const double mag = hypot(F[0], F[1]) / S - 1.0, want = 1.0 / cos(M_PI / Ns[q]) - 1.0;
    const double dir = fabs(remainder(atan2(-F[1], -F[0]) - atan2(v[1], v[0]), 2.0 * M_PI));
    /* the slip's direction at the sample (it turns from 20 degrees toward the vertex's) */
    const double da = 2.0 * M_PI / Ns[q], th = atan2(v[1], v[0]);
    const double want_dir = fabs(th - (floor(th / da) + 0.5) * da);
    cr_assert(fabs(mag - want) <= 1e-9, "N %d: magnitude error %.12g, want %.12g", Ns[q], mag,
              want);
    cr_assert(fabs(dir - want_dir) <= 1e-6, "N %d: direction error %g, want %g", Ns[q], dir,
              want_dir);
    fb_trace_free(&tr);
  }
}
