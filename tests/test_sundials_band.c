/* test_sundials_band.c — SUNDIALS' band linear solver on banded plants
 * (integrators/sundials_band.c; docs/integrators/sundials.md, "Banded plants"): the
 * interleaved order and its half-bandwidths on the chain, the banded CVODE and ARKODE runs
 * of the chain at n = 20 against the dense path (to the tolerance), cvode-bdf at n = 3
 * against the event-driven reference, the nlsetups counts and their runs.csv cells, and
 * no allocation per step (counted by interposing malloc).  Skipped, with the reason, in a
 * build without SUNDIALS.  No timing here (bench --chain measures cost). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator_int.h"
#include "fb_model_int.h"
#include "fb_plant_int.h"
#include "fb_reference.h"
#include "fb_run.h"
#include "fb_scenario.h"
#include "fb_test.h"
#include "suite_int.h"
#ifdef FB_HAVE_SUNDIALS
#include "fb_sundials.h"
#endif

#include "fbt_sundials.h" /* SKIP_WITHOUT_SUNDIALS */

#include "fbt_alloc_count.h" /* n_bytes, counting, FB_COUNT_ALLOC */

/* The final state of a run of the chain (x then v, 2 n values) into y, its counts in res. */
static void final_state(const char *model, const char *integ, double tol,
                        const char *const *sets, double *y, size_t nxv, fb_run_result *res)
{
  fb_trace tr;
  fbt_run("chain", model, integ, 0, tol, sets, 3, &tr, NULL, res);
  cr_assert_eq(res->status, FB_OK, "%s/%s: %s", model, integ, res->message);
  memcpy(y, tr.y + (tr.filled - 1) * tr.dim, nxv * sizeof(double));
  fb_trace_free(&tr);
}

#ifdef FB_HAVE_SUNDIALS
/* The band view of the chain of n blocks under model: half-bandwidths and the order. */
static void band_view(const char *model, const char *n, sunindextype *mu, sunindextype *ml,
                      size_t *perm, size_t dim)
{
  fb_case cs;
  fb_err err;
  cr_assert_eq(fb_case_init(&cs, "chain", model, "cvode-bdf", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&cs, n, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&cs, "store=banded", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_prepare(&cs, &err), FB_OK, "%s", err.msg);
  fb_problem pb;
  fb_problem_init(&pb, &cs.sc.plant, &cs.md);
  cr_assert_eq(pb.dim, dim);
  fb_sun_common c;
  memset(&c, 0, sizeof c);
  c.pb = &pb;
  cr_assert_eq(fb_system_alloc(&c.sys, &pb, 100), FB_OK);
  cr_assert_eq(fb_sun_band_init(&c, "cvode-bdf", &err), FB_OK, "%s", err.msg);
  *mu = c.mu;
  *ml = c.ml;
  memcpy(perm, c.perm, dim * sizeof(size_t));
  fb_sun_band_free(&c);
  fb_system_free(&c.sys);
  fb_case_free(&cs);
}
#endif

/* The chain's Jacobian in the interleaved order: s = 2 + nz entries per DOF, half-bandwidth
 * 1, so mu = max(s, nz, 1) and ml = max(s + 1, nz) (sundials_band.c): smooth-sign (nz = 0)
 * 2 and 3, lugre (nz = 1) 3 and 4; u = [x_0, v_0, z_0, x_1, ...]. */
Test(sundials_band, interleaved_order_and_bandwidths)
{
  SKIP_WITHOUT_SUNDIALS();
#ifdef FB_HAVE_SUNDIALS
  sunindextype mu, ml;
  size_t perm[15];
  band_view("smooth-sign", "n=5", &mu, &ml, perm, 10);
  cr_assert_eq(mu, 2);
  cr_assert_eq(ml, 3);
  for (size_t j = 0; j < 5; j++)
    cr_assert(perm[2 * j] == j && perm[2 * j + 1] == 5 + j, "DOF %zu: x, v together", j);
  band_view("lugre", "n=5", &mu, &ml, perm, 15);
  cr_assert_eq(mu, 3);
  cr_assert_eq(ml, 4);
  for (size_t j = 0; j < 5; j++)
    cr_assert(perm[3 * j] == j && perm[3 * j + 1] == 5 + j && perm[3 * j + 2] == 10 + j,
              "DOF %zu: x, v, z together", j);
#endif
}

/* The band path against the dense one on the chain at n = 20, T = 0.5 (block 1 breaks loose
 * at 0.29 s): the same ODE in another order, with CVODE's banded difference-quotient
 * Jacobian instead of the model's analytic one, so the two step sequences differ and the
 * final positions agree to the solver's tolerance (within 10 tol).  The velocities are held
 * to 1e3 tol: the regularized law is steep at the slip onset, where a step's local error
 * in v is largest (measured: 25 to 170 tol for cvode-bdf at tol 1e-9). */
Test(sundials_band, banded_matches_dense_to_the_tolerance)
{
  SKIP_WITHOUT_SUNDIALS();
  static const struct {
    const char *model, *integ;
    double tol;
  } cases[] = {{"smooth-sign", "cvode-bdf", 1e-9},
               {"lugre", "cvode-bdf", 1e-9},
               {"lugre", "cvode-adams", 1e-8},
               {"lugre", "arkode-dirk", 1e-7},
               {"lugre", "arkode-imex", 1e-7}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *dense[] = {"n=20", "T=0.5", "store=dense", NULL};
    const char *band[] = {"n=20", "T=0.5", "store=banded", NULL};
    double yd[40], yb[40];
    fb_run_result rd, rb;
    final_state(cases[c].model, cases[c].integ, cases[c].tol, dense, yd, 40, &rd);
    final_state(cases[c].model, cases[c].integ, cases[c].tol, band, yb, 40, &rb);
    double dx = 0.0, dv = 0.0;
    for (size_t j = 0; j < 20; j++) {
      dx = fmax(dx, fabs(yd[j] - yb[j]));
      dv = fmax(dv, fabs(yd[20 + j] - yb[20 + j]));
    }
    cr_log_info("%s/%s at tol %g: |x_band - x_dense| %.3g, |v_band - v_dense| %.3g\n",
                cases[c].model, cases[c].integ, cases[c].tol, dx, dv);
    cr_assert(dx <= 10 * cases[c].tol, "%s/%s: positions differ by %.3g", cases[c].model,
              cases[c].integ, dx);
    cr_assert(dv <= 1e3 * cases[c].tol, "%s/%s: velocities differ by %.3g", cases[c].model,
              cases[c].integ, dv);
    cr_assert(yd[0] > 1e-3, "the chain moved");
    cr_assert_gt(rb.cnt.njac, 0, "the banded difference quotients are counted");
    cr_assert_gt(rb.cnt.nlsetups, 0);
  }
}

/* n = 3, T = 3 (store=banded): cvode-bdf on smooth-sign at tol 1e-8 against the
 * event-driven reference of Coulomb friction.  The expected error is the regularization's:
 * smooth-sign creeps at |v| ~ its vs where Coulomb sticks (measured 2.3e-5 m); a run
 * with a tenth of the friction is far off. */
Test(sundials_band, small_chain_against_event_reference)
{
  SKIP_WITHOUT_SUNDIALS();
  const fb_scenario_type *st = fb_scenario_find("chain");
  void *sp = calloc(1, st->params->size);
  fb_err err;
  fb_params_default(st->params, sp);
  cr_assert_eq(fb_params_set(st->params, "chain", sp, "n", "3", &err), FB_OK);
  cr_assert_eq(fb_params_set(st->params, "chain", sp, "T", "3", &err), FB_OK);
  fb_trace ref;
  cr_assert_eq(fb_reference_run(st, sp, 3, &ref, NULL, &err), FB_OK, "%s", err.msg);
  const double *yr = ref.y + (ref.filled - 1) * ref.dim;
  const char *sets[] = {"n=3", "T=3", "store=banded", NULL};
  double y[6];
  fb_run_result res;
  final_state("smooth-sign", "cvode-bdf", 1e-8, sets, y, 6, &res);
  double dx = 0.0;
  for (size_t j = 0; j < 3; j++)
    dx = fmax(dx, fabs(y[j] - yr[j]));
  cr_log_info("cvode-bdf (band) n = 3: |x - x_ref| = %.3g (x_ref = %.6g %.6g %.6g)\n", dx,
              yr[0], yr[1], yr[2]);
  cr_assert(dx < 1e-4, "cvode-bdf on the band path: %.3g from the event-driven reference", dx);
  const char *wrong[] = {"n=3", "T=3", "store=banded", "mu=0.03", NULL};
  final_state("smooth-sign", "cvode-bdf", 1e-8, wrong, y, 6, &res);
  cr_assert(fabs(y[2] - yr[2]) > 1e-2);
  fb_trace_free(&ref);
  free(sp);
}

/* runs.csv's nlsetups: the count for the steppers that count (non-zero for cvode-bdf,
 * arkode-dirk and bdf2: one LU per Newton iteration), 0 for a generic explicit stepper,
 * empty for GSL's msbdf (it factors inside GSL) and for a model's own scheme. */
static void lsetups_cell(const char *model, const char *integ, const fb_counters *c, char *out,
                         size_t len)
{
  const fb_integrator_type *it = fb_integrator_find(fb_model_find(model), integ);
  cr_assert_not_null(it, "%s", integ);
  memset(out, 0, len); /* fmemopen's "w" writes no terminator when nothing is written */
  FILE *fp = fmemopen(out, len, "w");
  cr_assert_not_null(fp);
  fb_lsetups_cell(fp, it, c);
  fclose(fp);
}

Test(sundials_band, nlsetups_column)
{
  char cell[32];
  fb_counters c;
  memset(&c, 0, sizeof c);
  lsetups_cell("lugre", "rk4", &c, cell, sizeof cell);
  cr_assert_str_eq(cell, "0");
  lsetups_cell("lugre", "msbdf", &c, cell, sizeof cell);
  cr_assert_str_eq(cell, "");
  lsetups_cell("moreau-jean", "moreau-jean", &c, cell, sizeof cell);
  cr_assert_str_eq(cell, "");
  const char *drift[] = {"T=1", NULL};
  fb_run_result res;
  cr_assert_eq(fbt_run("drift", "lugre", "bdf2", 1e-3, 0, drift, 2, NULL, NULL, &res), FB_OK,
               "%s", res.message);
  cr_assert(res.cnt.nlsetups >= res.cnt.ninner && res.cnt.ninner > 0, "bdf2: %lu set-ups, %lu "
            "Newton iterations", res.cnt.nlsetups, res.cnt.ninner);
  lsetups_cell("lugre", "bdf2", &res.cnt, cell, sizeof cell);
  cr_assert_neq(cell[0], '\0');
  SKIP_WITHOUT_SUNDIALS();
  const char *sets[] = {"n=10", "T=0.5", NULL};
  double y[20];
  final_state("lugre", "cvode-bdf", 1e-6, sets, y, 20, &res);
  cr_assert_gt(res.cnt.nlsetups, 0);
  cr_assert_leq(res.cnt.nlsetups, res.cnt.nsteps + res.cnt.nrejected);
  lsetups_cell("lugre", "cvode-bdf", &res.cnt, cell, sizeof cell);
  char want[32];
  snprintf(want, sizeof want, "%lu", res.cnt.nlsetups);
  cr_assert_str_eq(cell, want);
  final_state("lugre", "arkode-dirk", 1e-6, sets, y, 20, &res);
  cr_assert_gt(res.cnt.nlsetups, 0);
  final_state("lugre", "arkode-erk", 1e-6, sets, y, 20, &res);
  cr_assert_eq(res.cnt.nlsetups, 0);
  lsetups_cell("lugre", "arkode-erk", &res.cnt, cell, sizeof cell);
  cr_assert_str_eq(cell, "0");
}

/* Allocation only at set-up: a banded cvode-bdf run of the chain at n = 1000 allocates the
 * same bytes over 0.05 s as over 0.5 s (several times the steps), and n = 1e4 at most 12
 * times the bytes of n = 1e3 (no n x n array). */
#if FB_COUNT_ALLOC
static size_t run_bytes(const char *n, const char *T, unsigned long *nsteps)
{
  const char *sets[] = {n, T, "store=banded", NULL};
  fb_run_result res;
  n_bytes = 0;
  counting = 1;
  fbt_run("chain", "lugre", "cvode-bdf", 0, 1e-6, sets, 2, NULL, NULL, &res);
  counting = 0;
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  *nsteps = res.cnt.nsteps;
  return n_bytes;
}

Test(sundials_band, allocation_only_at_setup)
{
  SKIP_WITHOUT_SUNDIALS();
  unsigned long s1, s2, s3;
  const size_t b1 = run_bytes("n=1000", "T=0.05", &s1), b2 = run_bytes("n=1000", "T=0.5", &s2);
  const size_t b3 = run_bytes("n=10000", "T=0.05", &s3);
  cr_log_info("cvode-bdf band: %zu bytes (%lu steps), %zu bytes (%lu steps) at n = 1e3; %zu at "
              "n = 1e4\n", b1, s1, b2, s2, b3);
  cr_assert_gt(s2, s1);
  cr_assert_eq(b2, b1, "%zu bytes for %lu steps, %zu for %lu", b2, s2, b1, s1);
  cr_assert(b3 < 12 * b1, "%zu bytes at n = 1e4, %zu at 1e3: not linear", b3, b1);
}
#else
Test(sundials_band, allocation_only_at_setup)
{
  cr_skip_test("allocation counting interposes malloc: the plain build's test (AddressSanitizer "
               "owns the allocator here)");
}
#endif

/* The gate (core/fb_plant.c): an implicit generic ODE stepper runs a banded plant when it has
 * a band linear solver (SUNDIALS'), not GSL's msbdf (a dense Jacobian); the CLI says so in
 * one line with exit status 2. */
Test(sundials_band, which_implicit_steppers_run_a_banded_plant)
{
  cr_assert(fb_plant_banded_ok("lugre", "cvode-bdf", FB_BANDED_ODE_IMPLICIT));
  cr_assert(fb_plant_banded_ok("lugre", "arkode-imex", FB_BANDED_ODE_IMPLICIT));
  cr_assert(!fb_plant_banded_ok("lugre", "msbdf", FB_BANDED_ODE_IMPLICIT));
  cr_assert(!fb_plant_banded_ok("lugre", "cvode-bdf", 0), "not with a model's f_app split");
  char out[256], errb[512];
  const char *argv[] = {"run", "-s", "chain", "-m", "lugre", "-i", "msbdf", "--tol", "1e-6",
                        "--set", "n=100", "--out", "/dev/null", NULL};
  cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2);
  cr_assert(strstr(errb, "does not run a banded plant") != NULL, "%s", errb);
  cr_assert_eq(fbt_lines(errb), 1);
}
