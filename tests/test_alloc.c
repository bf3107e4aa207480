/* test_alloc.c — no allocation in the per-step path: a run of 1e5 steps makes exactly as
 * many heap allocations as a run of 1e3 steps.  Every malloc/calloc/realloc of the
 * process (GSL's included) is counted by interposing them here and forwarding to glibc's
 * __libc_* implementations. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#include "fb_test.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static unsigned long n_alloc;
static int counting;

void *malloc(size_t n);
void *calloc(size_t a, size_t b);
void *realloc(void *p, size_t n);

void *malloc(size_t n)
{
  n_alloc += counting;
  return __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
  n_alloc += counting;
  return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
  n_alloc += counting;
  return __libc_realloc(p, n);
}

/* Allocations of one complete case (setup, run with recording, teardown). */
static unsigned long allocations(const char *scenario, const char *model, const char *integ,
                                 double h, double tol, const char *T)
{
  const char *sets[] = {T, NULL};
  fb_trace tr;
  fb_run_result res;
  n_alloc = 0;
  counting = 1;
  fbt_run(scenario, model, integ, h, tol, sets, 101, &tr, NULL, &res);
  fb_trace_free(&tr);
  counting = 0;
  cr_assert_eq(res.status, FB_OK, "%s/%s: %s", model, integ ? integ : "default", res.message);
  cr_log_info("%s/%s %s: %lu steps, %lu allocations\n", model, integ ? integ : "default", T,
              res.cnt.nsteps, n_alloc);
  return n_alloc;
}

/* T = 1 and T = 100 at the same step: 1e3 and 1e5 steps. */
static void same_allocations(const char *scenario, const char *model, const char *integ, double h,
                             double tol)
{
  const unsigned long a = allocations(scenario, model, integ, h, tol, "T=1");
  const unsigned long b = allocations(scenario, model, integ, h, tol, "T=100");
  cr_assert_eq(a, b, "%s/%s: %lu allocations for 1e3 steps, %lu for 1e5", model,
               integ ? integ : "default", a, b);
}

Test(alloc, fixed_step_gsl_and_heun3)
{
  same_allocations("stick-slip", "kikuuwe", "rk4", 1e-3, 0);
  same_allocations("stick-slip", "kikuuwe", "rk8pd", 1e-3, 0);
  same_allocations("stick-slip", "naive-sign", "heun3", 1e-3, 0);
  same_allocations("stick-slip", "penalty", "rk2", 1e-3, 0);
  /* the Newton-solved methods, including steps that fall back to Powell's hybrid method
   * (LuGre's first steps from rest on glowinski-tp1 at 1 ms) */
  same_allocations("stick-slip", "lugre", "beuler", 1e-3, 0);
  same_allocations("stick-slip", "lugre", "bdf2", 1e-3, 0);
  same_allocations("glowinski-tp1", "lugre", "bdf2", 1e-3, 0);
}

Test(alloc, adaptive)
{
  same_allocations("stick-slip", "kikuuwe", "rkf45", 0, 1e-6);
  same_allocations("stick-slip", "lugre", "rkck", 0, 1e-6);
  same_allocations("stick-slip", "kikuuwe", "msadams", 0, 1e-6);
}

/* GSL's own implicit steppers (bsimp, rk*imp, msbdf) allocate inside their steps (its
 * implementation, not fricbench's: the Jacobian assembly allocates nothing, as the
 * explicit steppers above show): recorded here so a change shows. */
Test(alloc, gsl_internal_allocations_of_implicit_steppers)
{
  const char *steppers[] = {"bsimp", "rk2imp", "msbdf"};
  for (int i = 0; i < 3; i++) {
    const double h = i == 2 ? 0 : 1e-4, tol = i == 2 ? 1e-6 : 0;
    const unsigned long a = allocations("stick-slip", "kikuuwe", steppers[i], h, tol, "T=0.1");
    const unsigned long b = allocations("stick-slip", "kikuuwe", steppers[i], h, tol, "T=1");
    cr_log_info("%s: %lu more allocations for the longer run, inside GSL\n", steppers[i], b - a);
    cr_assert(b > a, "GSL's %s allocates per step; if this fails GSL changed", steppers[i]);
  }
}

Test(alloc, model_owned_schemes)
{
  same_allocations("stick-slip", "glowinski", "glowinski-lie", 1e-3, 0);
  same_allocations("stick-slip", "penalty", "newmark", 1e-3, 0);
  same_allocations("stick-slip", "switching", "paper", 1e-3, 0);
  same_allocations("stick-slip", "switching", "event", 0, 1e-8);
  /* the disc form (models/switching_disc.c): 2-D contact, stick-slip cycles */
  same_allocations("belt-2d", "switching", "paper", 1e-3, 0);
  same_allocations("belt-2d", "switching", "event", 0, 1e-8);
}
