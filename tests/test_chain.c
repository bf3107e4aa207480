/* test_chain.c — the chain of n blocks (scenarios/chain.c, docs/scenarios/chain.md) and the
 * banded plant store (core/fb_plant.c): the chain at n = 3 against its event-driven
 * reference, the banded store against the dense one on n = 20, the set-up at n = 1e4
 * allocating O(n) bytes (counted by interposing malloc), the pairs that refuse a banded
 * plant, and bad n refused in one line.  No timing here (bench --chain measures cost). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_frame.h"
#include "fb_plant_int.h"
#include "fb_reference.h"
#include "fb_scenario.h"
#include "fb_test.h"

#include "fbt_alloc_count.h" /* n_bytes, counting, FB_COUNT_ALLOC */

/* The final state of a run of the chain (x then v, 2 n values) into y. */
static void final_state(const char *model, const char *integ, double h, const char *const *sets,
                        double *y, size_t dim)
{
  fb_trace tr;
  fb_run_result res;
  fbt_run("chain", model, integ, h, 0, sets, 11, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s/%s: %s", model, integ, res.message);
  memcpy(y, tr.y + (tr.filled - 1) * tr.dim, dim * sizeof(double));
  fb_trace_free(&tr);
}

/* n = 3, T = 3: moreau-jean at h = 1e-4 (theta = 1/2) and kbe-relay at h = 1e-5 against
 * the event-driven reference at T (positions; velocities are exact zeros or O(h) off at
 * stick transitions).  The first block breaks loose at t = mu m g / (k v_d) = 0.294 s; by
 * T = 3 the blocks have stuck and slipped several times (the reference's intervals). */
Test(chain, small_n_against_event_reference)
{
  const fb_scenario_type *st = fb_scenario_find("chain");
  cr_assert_not_null(st);
  void *sp = calloc(1, st->params->size);
  fb_err err;
  fb_params_default(st->params, sp);
  cr_assert_eq(fb_params_set(st->params, "chain", sp, "n", "3", &err), FB_OK);
  cr_assert_eq(fb_params_set(st->params, "chain", sp, "T", "3", &err), FB_OK);
  cr_assert_eq(st->ref_kind(sp), FB_REF_EVENT);
  fb_trace ref;
  cr_assert_eq(fb_reference_run(st, sp, 11, &ref, NULL, &err), FB_OK, "%s", err.msg);
  const double *yr = ref.y + (ref.filled - 1) * ref.dim;
  const char *sets[] = {"n=3", "T=3", NULL};
  double y[6];
  final_state("moreau-jean", "moreau-jean", 1e-4, sets, y, 6);
  for (size_t j = 0; j < 3; j++)
    cr_assert(fabs(y[j] - yr[j]) < 1e-4, "moreau-jean x%zu = %.9g, reference %.9g", j, y[j],
              yr[j]);
  final_state("kikuuwe-be", "kbe-relay", 1e-5, sets, y, 6);
  for (size_t j = 0; j < 3; j++)
    cr_assert(fabs(y[j] - yr[j]) < 1e-4, "kbe-relay x%zu = %.9g, reference %.9g", j, y[j],
              yr[j]);
  cr_assert(yr[0] > yr[1] && yr[1] > yr[2] && yr[2] > 0.0, "every block has moved, in order");
  /* and a run that is wrong must fail the same test: a tenth of the friction */
  const char *wrong[] = {"n=3", "T=3", "mu=0.03", NULL};
  final_state("moreau-jean", "moreau-jean", 1e-4, wrong, y, 6);
  cr_assert(fabs(y[2] - yr[2]) > 1e-2);
  fb_trace_free(&ref);
  free(sp);
}

/* The banded store against the dense one, n = 20, T = 2: moreau-jean (the dual PGS on the
 * dense Delassus matrix against Gauss–Seidel on the banded velocity form, both stopped at
 * pgs_tol = 1e-14), kbe-relay and kbe-symplectic (the same formulas, the matrix products
 * summed in another order) and the explicit rk4 of smooth-sign. */
Test(chain, banded_matches_dense)
{
  static const struct {
    const char *model, *integ;
    double h, tol;
  } cases[] = {{"moreau-jean", "moreau-jean", 1e-3, 1e-12},
               {"kikuuwe-be", "kbe-relay", 1e-3, 1e-12},
               {"kikuuwe-be", "kbe-symplectic", 1e-3, 1e-12},
               {"smooth-sign", "rk4", 1e-4, 1e-12}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const int mj = strcmp(cases[c].model, "moreau-jean") == 0;
    const char *dense[] = {"n=20", "T=2", "store=dense", mj ? "pgs_tol=1e-14" : NULL, NULL};
    const char *band[] = {"n=20", "T=2", "store=banded", mj ? "pgs_tol=1e-14" : NULL, NULL};
    double yd[40], yb[40];
    final_state(cases[c].model, cases[c].integ, cases[c].h, dense, yd, 40);
    final_state(cases[c].model, cases[c].integ, cases[c].h, band, yb, 40);
    double dmax = 0.0;
    for (size_t j = 0; j < 40; j++)
      dmax = fmax(dmax, fabs(yd[j] - yb[j]));
    cr_log_info("%s/%s: banded - dense = %.3g\n", cases[c].model, cases[c].integ, dmax);
    cr_assert(dmax <= cases[c].tol, "%s/%s: banded and dense differ by %.3g", cases[c].model,
              cases[c].integ, dmax);
    cr_assert(fabs(yd[0]) > 1e-3, "the chain moved");
  }
}

/* The plant's own algebra: M^-1 f, f - K x and the contact scales of a banded plant with a
 * non-diagonal M (banded Cholesky) against the dense store, to 1e-12. */
Test(chain, banded_algebra)
{
  const size_t n = 9, bw = 2;
  fb_plant d, b;
  fb_err err;
  cr_assert_eq(fb_plant_alloc(&d, n, 1, 0), FB_OK);
  cr_assert_eq(fb_plant_alloc_banded(&b, n, bw, 1, 0), FB_OK);
  for (size_t i = 0; i < n; i++)
    for (size_t j = i; j <= i + bw && j < n; j++) {
      const double m = i == j ? 4.0 + (double)i : -0.5 / (double)(j - i + 1);
      const double k = i == j ? 30.0 : -3.0 - (double)i;
      d.M[i * n + j] = d.M[j * n + i] = m;
      d.K[i * n + j] = d.K[j * n + i] = k;
      b.Mb[i * (bw + 1) + (j - i)] = m;
      b.Kb[i * (bw + 1) + (j - i)] = k;
    }
  d.contact[0].dof = b.contact[0].dof = 4;
  d.contact[0].law = b.contact[0].law = (fb_friction){FB_SHAPE_COULOMB, 0.3, 0.3, 1.0};
  cr_assert_eq(fb_plant_finish(&d, "dense", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_plant_finish(&b, "banded", &err), FB_OK, "%s", err.msg);
  cr_assert(!b.M_diagonal && b.M == NULL && b.Minv == NULL);
  double f[9], x[9], ad[9], ab[9], fd[9], fb_[9];
  for (size_t i = 0; i < n; i++) {
    f[i] = sin(1.0 + (double)i);
    x[i] = cos(2.0 * (double)i);
    fd[i] = fb_[i] = f[i];
  }
  fb_plant_solve_mass(&d, f, ad);
  fb_plant_solve_mass(&b, f, ab);
  fb_plant_sub_linear(&d, x, x, fd);
  fb_plant_sub_linear(&b, x, x, fb_);
  for (size_t i = 0; i < n; i++) {
    cr_assert(fabs(ad[i] - ab[i]) < 1e-12, "M^-1 f [%zu]: %.17g vs %.17g", i, ad[i], ab[i]);
    cr_assert(fabs(fd[i] - fb_[i]) < 1e-12, "f - K x [%zu]", i);
  }
  cr_assert(fabs(fb_plant_contact_mass(&d, 0) - fb_plant_contact_mass(&b, 0)) < 1e-12);
  cr_assert_eq(fb_plant_contact_stiffness(&d, 0), fb_plant_contact_stiffness(&b, 0));
  double q = 0.0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      q += x[i] * d.K[i * n + j] * x[j];
  cr_assert(fabs(fb_band_quad(&b, b.Kb, x) - q) < 1e-12);
  fb_plant_free(&d);
  fb_plant_free(&b);
  /* and a banded M that is not positive definite is refused */
  cr_assert_eq(fb_plant_alloc_banded(&b, 3, 1, 0, 0), FB_OK);
  b.Mb[1] = b.Mb[3] = 2.0; /* M = [[1,2,0],[2,1,2],[0,2,1]] */
  cr_assert_neq(fb_plant_finish(&b, "banded", &err), FB_OK);
  fb_plant_free(&b);
}

/* Set-up and one step at n = 1e4 allocate O(n) bytes: under 1 kB per block (the dense
 * store would take 4 n^2 doubles, 3.2 GB), and 10 times n takes at most 12 times the
 * bytes of n = 1e3. */
#if FB_COUNT_ALLOC
static size_t setup_bytes(const char *n, const char *T)
{
  const char *sets[] = {n, T, NULL};
  fb_run_result res;
  n_bytes = 0;
  counting = 1;
  fbt_run("chain", "moreau-jean", "moreau-jean", 1e-3, 0, sets, 2, NULL, NULL, &res);
  counting = 0;
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  return n_bytes;
}

Test(chain, setup_allocates_linear_memory)
{
  const size_t b3 = setup_bytes("n=1000", "T=1e-3"), b4 = setup_bytes("n=10000", "T=1e-3");
  /* and nothing per step: 1 step and 300 steps allocate the same bytes */
  cr_assert_eq(setup_bytes("n=1000", "T=0.3"), b3);
  cr_log_info("set-up + 1 step: %zu bytes at n = 1e3, %zu at n = 1e4\n", b3, b4);
  cr_assert(b4 < 1000 * 10000, "%zu bytes at n = 1e4", b4);
  cr_assert(b4 < 12 * b3, "%zu bytes at n = 1e4, %zu at 1e3: not linear", b4, b3);
}
#else
Test(chain, setup_allocates_linear_memory)
{
  cr_skip_test("allocation counting interposes malloc: the plain build's test (AddressSanitizer "
               "owns the allocator here)");
}
#endif

/* What refuses a banded plant says so in one line, and names the doc. */
Test(chain, banded_refusals)
{
  char out[256], errb[512];
  const char *argv[] = {"run", "-s", "chain", "-m", "lugre", "--set", "n=100", "--out",
                        "/dev/null", NULL};
  cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2);
  cr_assert(strstr(errb, "does not run a banded plant") != NULL, "%s", errb);
  cr_assert(strstr(errb, "docs/scenarios/chain.md") != NULL);
  cr_assert_eq(fbt_lines(errb), 1);
  cr_assert(fb_plant_banded_ok("moreau-jean", "moreau-jean", 0));
  cr_assert(!fb_plant_banded_ok("penalty", "newmark", 0));
  cr_assert(fb_plant_banded_ok("kikuuwe", "rk4", 1));
}

/* n must be an integer >= 1 (and at most 1e5): one line, exit status 2. */
Test(chain, bad_n_refused)
{
  static const char *const bad[] = {"n=0", "n=2.5", "n=-3", "n=abc", "n=200000"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char out[256], errb[512];
    const char *argv[] = {"run", "-s", "chain", "-m", "moreau-jean", "--set", bad[k], "--out",
                          "/dev/null", NULL};
    cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2, "%s: %s", bad[k], errb);
    cr_assert_eq(fbt_lines(errb), 1, "%s: %s", bad[k], errb);
    cr_assert(strstr(errb, "n =") != NULL || strstr(errb, "'n'") != NULL ||
                  strstr(errb, "n ") != NULL,
              "%s", errb);
  }
  const char *argv[] = {"run", "-s", "chain", "-m", "moreau-jean", "--h", "1e-3", "--set", "n=1",
                        "--set", "T=0.1", "--out", "/dev/null", NULL};
  char out[256], errb[512];
  cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 0, "n = 1 runs: %s", errb);
}

/* The FE frame's assembly into the band store (core/fb_frame.c) gives the dense matrices'
 * entries exactly (the same sums in the same order), zeros outside the half-bandwidth 5. */
Test(chain, frame_band_assembly)
{
  fb_frame fr = {2, {0, 0, 1.2}, {0, 1.0, 1.0}, 4, 2.1e11, 7800, 1e-4, 1e-9};
  const size_t n = fb_frame_ndof(&fr), w = fb_frame_half_bandwidth(&fr) + 1;
  double *M = calloc(n * n, sizeof(double)), *K = calloc(n * n, sizeof(double));
  double *Mb = calloc(n * w, sizeof(double)), *Kb = calloc(n * w, sizeof(double));
  cr_assert_eq(fb_frame_assemble(&fr, M, K), 0);
  cr_assert_eq(fb_frame_assemble_band(&fr, Mb, Kb), 0);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      const size_t lo = i < j ? i : j, d = i < j ? j - i : i - j;
      if (d >= w) {
        cr_assert(M[i * n + j] == 0.0 && K[i * n + j] == 0.0, "(%zu, %zu) outside the band", i, j);
        continue;
      }
      cr_assert_eq(Mb[lo * w + d], M[i * n + j], "M(%zu, %zu)", i, j);
      cr_assert_eq(Kb[lo * w + d], K[i * n + j], "K(%zu, %zu)", i, j);
    }
  fr.ne = 0;
  cr_assert_eq(fb_frame_assemble_band(&fr, Mb, Kb), -1);
  free(M), free(K), free(Mb), free(Kb);
}
