/* glowinski_tp1.c — Glowinski's first test problem: pure friction ([Glowinski2004] §5.1).
 *
 *     m wdot + c (sgn(w) - gamma(w)) = f(t),   w(0) = 0,   xdot = w,
 *     rigorous form m wdot + c (lambda - gamma(w)) = f, lambda in Sgn(w) ([Glowinski2004] eq. 18),
 *     f = 2 pi m cos(2 pi t) + c (1 - gamma(sin 2 pi t))   on (0, 1/2] and (1, 3/2],
 *     f = 0                                               on (1/2, 1] and (3/2, 2],
 * gamma of [Glowinski2004] eq. 3 (beta w/eps, saturating at beta).  Closed form ([Glowinski2004] §5.1):
 * w = max(0, sin 2 pi t).  The papers' w is our velocity v; the position is its
 * integral, x = k/pi + (1 - cos 2 pi t)/(2 pi) on slip half-periods (k = completed
 * periods) and (k + 1)/pi on stick half-periods.  Multiplier: lambda = 1 in slip; in
 * stick w = 0 and f = 0, so lambda = f/c + gamma(0) = 0 (the paper leaves it implicit).
 * The pattern is continued with period 1 past t = 2 when T is raised.
 * Plant: n = 1, no spring or damper, one contact with the glowinski-linear shape
 * mu_s = 1, mu_k = 1 - beta, vs = eps and normal force N = c (so Fs = c, Fc = c (1 -
 * beta)).  Forcing breaks at every half period.  f_c = 1 Hz (the forcing frequency);
 * v_scale = 1 m/s (max w).  Parameters: m (kg, 1), c (N, 0.5), beta (1, 1/3), eps
 * (m/s, 0.1), T (s, 2).  Reference: exact.
 */
#include <math.h>
#include <stddef.h>

#include "fb_glowinski_ref.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct tp1_params {
  double m, c, beta, eps, T;
} tp1_params;

static const fb_param_desc tp1_desc[] = {
    {"m", "kg", "mass", offsetof(tp1_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"c", "N", "friction coefficient c = Fs (normal force N = c, mu_s = 1)",
     offsetof(tp1_params, c), 0.5, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"beta", "1", "gamma's limit: Fc = c (1 - beta)", offsetof(tp1_params, beta), 1.0 / 3.0, 0,
     1, FB_PARAM_MAX_OPEN, NULL, NULL},
    {"eps", "m/s", "gamma's velocity scale", offsetof(tp1_params, eps), 0.1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    /* at most 1e6: the forcing breaks every half period, one array entry each */
    {"T", "s", "end time", offsetof(tp1_params, T), 2, 0, 1e6, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set tp1_set = {sizeof(tp1_params), 5, tp1_desc};

/* Index k of the half period (k/2, (k+1)/2] holding t (t = 0 in the first). */
static long tp1_half(double t)
{
  return t <= 0.0 ? 0 : (long)ceil(2.0 * t) - 1;
}

static void tp1_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const tp1_params *p = sp;
  (void)x, (void)v;
  if (tp1_half(t) % 2 != 0) {
    f[0] = 0.0;
    return;
  }
  /* [Glowinski2004] §5.1 */
  const double s = sin(2.0 * M_PI * t);
  f[0] = 2.0 * M_PI * p->m * cos(2.0 * M_PI * t) +
         p->c * (1.0 - fb_glow_gamma_linear(p->beta, p->eps, s));
}

int fb_glowinski_tp1_ref(const void *sp, double t, fb_glow_ref *r)
{
  (void)sp;
  const long k = tp1_half(t), per = k / 2;
  r->n = 1;
  if (k % 2 == 0) { /* slip: w = sin 2 pi t >= 0, lambda = sgn w = 1 */
    r->v[0] = fmax(0.0, sin(2.0 * M_PI * t));
    r->a[0] = 2.0 * M_PI * cos(2.0 * M_PI * t);
    r->x[0] = (double)per / M_PI + (1.0 - cos(2.0 * M_PI * t)) / (2.0 * M_PI);
    r->lambda[0] = 1.0;
  } else { /* stick: w = 0, f = 0, lambda = 0 */
    r->v[0] = 0.0;
    r->a[0] = 0.0;
    r->x[0] = (double)(per + 1) / M_PI;
    r->lambda[0] = 0.0;
  }
  return FB_OK;
}

static int tp1_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const tp1_params *p = sp;
  size_t nb = 0;
  while ((double)(nb + 1) * 0.5 < p->T)
    nb++;
  if (fb_plant_alloc(pl, 1, 1, nb) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t k = 0; k < nb; k++)
    pl->breaks[k] = 0.5 * (double)(k + 1);
  pl->M[0] = p->m;
  pl->T = p->T;
  pl->f_c = 1.0;
  pl->v_scale = 1.0;
  pl->force = tp1_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_GLOWINSKI_LINEAR, 1.0, 1.0 - p->beta, p->eps};
  pl->contact[0].c0 = (fb_contact_state){p->c, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind tp1_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

static int tp1_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const tp1_params *p = sp;
  fb_glow_ref r;
  fb_glowinski_tp1_ref(sp, t, &r);
  x[0] = r.x[0];
  v[0] = r.v[0];
  if (F != NULL) /* [Glowinski2004] eq. 4: F = -c (lambda - gamma(w)) */
    F[0] = -p->c * (r.lambda[0] - fb_glow_gamma_linear(p->beta, p->eps, r.v[0]));
  return FB_OK;
}

const fb_scenario_type fb_scenario_glowinski_tp1 = {
    .name = "glowinski-tp1",
    .title = "pure friction, forced so that w = max(0, sin 2 pi t): slip/stick half periods",
    .source = "Glowinski et al. 2004 [Glowinski2004] §5.1",
    .params = &tp1_set,
    .ref_kind = tp1_ref_kind,
    .build = tp1_build,
    .exact = tp1_exact,
};
