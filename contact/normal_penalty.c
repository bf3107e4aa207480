/* normal_penalty.c — `penalty-n`: compression-only linear spring c_N and damper d_N
 * (Engleder, Vielsack & Schweizerhof, [Engleder2002] §3):
 *     lambda_n = max(0, -c_N g - d_N gdot)   for g < 0,   0 otherwise.
 * The clip at 0 is ours (the paper's linear element would pull the body back at the end of
 * the contact: "sucking"); with it the effective restitution is above the linear formula
 * e = exp(-zeta pi / sqrt(1 - zeta^2)), zeta = d_N / (2 sqrt(c_N m)), which holds for the
 * unclipped element (clip = 0) without gravity.  auto: c_N puts the penetration of a drop from the
 * contact's height at 1 % of it (c_N = m v_in^2 / (0.01 h)^2); d_N from the target e by the
 * linear formula. */
#include <math.h>
#include <stddef.h>

#include "fb_normal_int.h"

typedef struct penalty_n_params {
  double cN, dN, e, clip;
} penalty_n_params;

static const fb_param_desc penalty_n_desc[] = {
    {"cN", "N/m", "contact spring stiffness", offsetof(penalty_n_params, cN), NAN, 0, INFINITY,
     FB_PARAM_AUTO | FB_PARAM_MIN_OPEN, "m v_in^2 / (0.01 h)^2: penetration 1 % of the drop height",
     NULL},
    {"dN", "N s/m", "contact damper (acts in compression only)", offsetof(penalty_n_params, dN),
     NAN, 0, INFINITY, FB_PARAM_AUTO, "2 zeta sqrt(cN m), zeta from e by the linear formula", NULL},
    {"e", "1", "restitution target of the auto dN", offsetof(penalty_n_params, e), NAN, 0, 1,
     FB_PARAM_AUTO, "the scenario's e", NULL},
    {"clip", "1", "1: force clipped at 0 (no sucking); 0: the raw linear element, which pulls "
     "at the end of the contact (for comparison with the linear formula only)",
     offsetof(penalty_n_params, clip), 1, 0, 1, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set penalty_n_set = {sizeof(penalty_n_params), 4, penalty_n_desc};

static int penalty_n_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  penalty_n_params *p = pp;
  (void)err;
  fb_normal_penalty_auto(&p->cN, &p->dN, &p->e, sc);
  return FB_OK;
}

static double penalty_n_force(const void *pp, double g, double gd, const double *s, double *ds)
{
  const penalty_n_params *p = pp;
  (void)s, (void)ds;
  if (g >= 0)
    return 0.0;
  const double l = -p->cN * g - p->dN * gd;
  return p->clip != 0 ? fmax(0.0, l) : l;
}

const fb_normal_type fb_normal_penalty = {
    .name = "penalty-n",
    .title = "compression-only spring-damper, clipped at 0 (no sucking)",
    .reference = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §3",
    .params = &penalty_n_set,
    .ns = 0,
    .event = 0,
    .resolve = penalty_n_resolve,
    .force = penalty_n_force,
};
