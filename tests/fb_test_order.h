/* fb_test_order.h — errors against a scenario's closed form and observed orders over an
 * asymptotic range, shared by the tests of the fixed-step schemes (header-only: static
 * functions, each test file includes it once).
 *
 * Errors: L2 in time of x and v (all DOFs), trapezoid rule on the step grid, accumulated
 * by an observer against the scenario's exact(); and the error of x at T.
 * Observed order (docs/design.md §6): the local orders log(E_k/E_{k+1})/log(h_k/h_{k+1})
 * are listed; the fit (gsl_fit_linear of log E on log h) uses the longest run of at least
 * three consecutive errors that fall monotonically, whose local orders agree within 0.3
 * and which stay above 1e-11 (100 x round-off of the O(1) solutions); none: NaN.
 */
#ifndef FB_TEST_ORDER_H
#define FB_TEST_ORDER_H

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <string.h>

#include "fb_scenario.h"
#include "fb_test.h"

#define FBO_NMAX 8

typedef struct fbo_acc {
  const fb_scenario *sc;
  size_t n;
  int have;
  double tp, ex_p, ev_p, sx, sv, exT;
} fbo_acc;

static inline int fbo_step(void *ctx, double t, const double *y)
{
  fbo_acc *a = ctx;
  double x[FBO_NMAX], v[FBO_NMAX], ex = 0.0, ev = 0.0, exT = 0.0;
  cr_assert_eq(a->sc->type->exact(a->sc->params, t, x, v, NULL), FB_OK);
  for (size_t j = 0; j < a->n; j++) {
    ex += (y[j] - x[j]) * (y[j] - x[j]);
    ev += (y[a->n + j] - v[j]) * (y[a->n + j] - v[j]);
    exT = fmax(exT, fabs(y[j] - x[j]));
  }
  if (a->have) {
    a->sx += 0.5 * (t - a->tp) * (a->ex_p + ex);
    a->sv += 0.5 * (t - a->tp) * (a->ev_p + ev);
  }
  a->have = 1;
  a->tp = t;
  a->ex_p = ex;
  a->ev_p = ev;
  a->exT = exT;
  return 0;
}

typedef struct fbo_err {
  double x, v, xT;
  fb_run_result res;
} fbo_err;

/* A built scenario with the scenario's assignments of `sets` applied (others skipped). */
static inline void fbo_scenario_open(fb_scenario *sc, const char *name, const char *const *sets)
{
  fb_err err;
  const fb_scenario_type *st = fb_scenario_find(name);
  cr_assert_not_null(st, "scenario %s", name);
  cr_assert_eq(fb_scenario_init(sc, st), FB_OK);
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++) {
    char nm[64];
    const char *eq = strchr(sets[k], '=');
    cr_assert(eq != NULL && (size_t)(eq - sets[k]) < sizeof nm);
    memcpy(nm, sets[k], (size_t)(eq - sets[k]));
    nm[eq - sets[k]] = '\0';
    if (fb_params_find(st->params, nm) != NULL)
      cr_assert_eq(fb_params_set(st->params, name, sc->params, nm, eq + 1, &err), FB_OK, "%s",
                   err.msg);
  }
  cr_assert_eq(fb_scenario_build(sc, &err), FB_OK, "%s: %s", name, err.msg);
}

static inline fbo_err fbo_run(const char *scenario, const char *model, const char *integ, double h,
                       const char *const *sets)
{
  fb_scenario sc;
  fbo_scenario_open(&sc, scenario, sets);
  fbo_acc a = {.sc = &sc, .n = sc.plant.n};
  cr_assert(a.n <= FBO_NMAX);
  fb_observer obs = {fbo_step, &a};
  fbo_err e;
  fbt_run(scenario, model, integ, h, 0, sets, 2, NULL, &obs, &e.res);
  cr_assert_eq(e.res.status, FB_OK, "%s/%s/%s h=%g: %s", scenario, model,
               integ ? integ : "default", h, e.res.message);
  e.x = sqrt(a.sx);
  e.v = sqrt(a.sv);
  e.xT = a.exT;
  fb_scenario_free(&sc);
  return e;
}

/* Observed order over the asymptotic range (see the file's comment); *lo, *hi: the range's
 * first and last index; NaN when there is none. */
static inline double fbo_order(const double *h, const double *e, size_t k, size_t *lo, size_t *hi)
{
  size_t best_lo = 0, best_len = 0;
  *lo = *hi = 0;
  for (size_t s = 0; s + 2 < k; s++) {
    size_t len = 1;
    double pmin = INFINITY, pmax = -INFINITY;
    while (s + len < k) {
      const size_t i = s + len - 1;
      if (!(e[i + 1] < e[i]) || !(e[i + 1] > 1e-11))
        break;
      const double p = log(e[i] / e[i + 1]) / log(h[i] / h[i + 1]);
      if (fmax(pmax, p) - fmin(pmin, p) > 0.3)
        break;
      pmin = fmin(pmin, p);
      pmax = fmax(pmax, p);
      len++;
    }
    if (len >= 3 && len > best_len) {
      best_len = len;
      best_lo = s;
    }
  }
  if (best_len == 0)
    return NAN;
  double lx[16], ly[16], c0, c1, v00, v01, v11, ss;
  for (size_t i = 0; i < best_len; i++) {
    lx[i] = log(h[best_lo + i]);
    ly[i] = log(e[best_lo + i]);
  }
  cr_assert_eq(gsl_fit_linear(lx, 1, ly, 1, best_len, &c0, &c1, &v00, &v01, &v11, &ss), 0);
  *lo = best_lo;
  *hi = best_lo + best_len - 1;
  return c1;
}

/* Errors on the ladder h_k = h0 / 1.7^k (non-dyadic, off round numbers), k < nh, the
 * observed orders of x and v, logged. */
typedef struct fbo_study {
  size_t nh;
  double h[16], ex[16], ev[16], px, pv;
  size_t lox, hix, lov, hiv;
  unsigned long ninner[16], nsteps[16];
} fbo_study;

static inline fbo_study fbo_ladder(const char *scenario, const char *model, const char *integ_,
                            double h0, size_t nh, const char *const *sets)
{
  const char *integ = integ_ ? integ_ : "default";
  fbo_study s;
  memset(&s, 0, sizeof s);
  cr_assert(nh <= 16);
  s.nh = nh;
  for (size_t k = 0; k < nh; k++) {
    s.h[k] = h0 / pow(1.7, (double)k);
    const fbo_err e = fbo_run(scenario, model, integ_, s.h[k], sets);
    s.ex[k] = e.x;
    s.ev[k] = e.v;
    s.ninner[k] = e.res.cnt.ninner;
    s.nsteps[k] = e.res.cnt.nsteps;
  }
  s.px = fbo_order(s.h, s.ex, nh, &s.lox, &s.hix);
  s.pv = fbo_order(s.h, s.ev, nh, &s.lov, &s.hiv);
  for (size_t k = 0; k < nh; k++)
    cr_log_info("%s/%s/%s h=%.4g: L2 x %.3e v %.3e\n", scenario, model, integ, s.h[k], s.ex[k],
                s.ev[k]);
  cr_log_info("%s/%s/%s: order x %.3f (h %.3g..%.3g), v %.3f (h %.3g..%.3g)\n", scenario, model,
              integ, s.px, s.h[s.lox], s.h[s.hix], s.pv, s.h[s.lov], s.h[s.hiv]);
  return s;
}

#endif
