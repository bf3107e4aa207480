/* normal_kikuuwe.c — `kikuuwe-n`: Kikuuwe's DAI-to-ODE unilateral contact ([Xiong2013] §4.2,
 * restored from its text, whose formulas were lost in extraction; docs/design.md §12).
 *
 * A massless contact point at normal coordinate p is tied to the body's gap g by a spring
 * K and damper B (force on the body lambda = K (p - g) + B (pdot - gdot)); the ground holds
 * the point through lambda in dio(-p - c lambda), dio(z) = {0} for z < 0, [0, inf) at 0.
 * [Xiong2013] Theorem 2 (y in dio(z - a y) <=> y = max(0, z)/a for a > 0) turns this into
 *     lambda = max(0, -p) / c,
 *     pdot   = gdot + (lambda - K (p - g)) / B,
 * an ODE continuous in the state that never pulls (lambda >= 0).  c -> 0 gives the clipped
 * Kelvin–Voigt force; a larger c (below 1/K) filters out the viscous part: more bounce.
 * auto: K as penalty-n's c_N (penetration 1 % of the drop height), B = 2 zeta sqrt(K m)
 * with zeta from the nominal e by the linear formula, c = 0.01/K. */
#include <math.h>
#include <stddef.h>

#include "fb_normal_int.h"

typedef struct kikuuwe_n_params {
  double K, B, c;
} kikuuwe_n_params;

static const fb_param_desc kikuuwe_n_desc[] = {
    {"K", "N/m", "spring between body and contact point", offsetof(kikuuwe_n_params, K), NAN, 0,
     INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN, "m v_in^2 / (0.01 h)^2", NULL},
    {"B", "N s/m", "damper between body and contact point", offsetof(kikuuwe_n_params, B), NAN,
     0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "2 zeta sqrt(K m), zeta from the scenario's e by the linear formula", NULL},
    {"c", "m/N", "ground compliance of the dio relation (the 'another term' of [Xiong2013] eq. 22)",
     offsetof(kikuuwe_n_params, c), NAN, 0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "0.01 / K", NULL},
};
static const fb_param_set kikuuwe_n_set = {sizeof(kikuuwe_n_params), 3, kikuuwe_n_desc};

static int kikuuwe_n_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  kikuuwe_n_params *p = pp;
  (void)err;
  if (isnan(p->K)) {
    const double d = 0.01 * sc->h;
    p->K = sc->m * sc->v_in * sc->v_in / (d * d);
  }
  if (isnan(p->B))
    p->B = 2.0 * fmax(fb_normal_zeta_of_e(sc->e), 1e-3) * sqrt(p->K * sc->m);
  if (isnan(p->c))
    p->c = 0.01 / p->K;
  return FB_OK;
}

static void kikuuwe_n_init(const void *pp, double g, double gd, double *s)
{
  (void)pp, (void)gd;
  s[0] = g; /* the contact point rests on the body */
}

static double kikuuwe_n_force(const void *pp, double g, double gd, const double *s, double *ds)
{
  const kikuuwe_n_params *p = pp;
  const double lambda = fmax(0.0, -s[0]) / p->c;
  ds[0] = gd + (lambda - p->K * (s[0] - g)) / p->B;
  return lambda;
}

const fb_normal_type fb_normal_kikuuwe = {
    .name = "kikuuwe-n",
    .title = "Kikuuwe's DAI-to-ODE contact: Kelvin-Voigt in series with a ground compliance c",
    .reference = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §4.2 and Theorem 2 (restored)",
    .params = &kikuuwe_n_set,
    .ns = 1,
    .event = 0,
    .resolve = kikuuwe_n_resolve,
    .init = kikuuwe_n_init,
    .force = kikuuwe_n_force,
};
