/* glowinski_tp2.c — Glowinski's second test problem: friction and a spring ([Glowinski2004]
 * §5.2, [Shiau2005] §6.1).
 *
 *     m xddot + k x + c (sgn(xdot) - gamma(xdot)) = f(t),   x(0) = xdot(0) = 0,
 *     f = 0                                                 on (0, 1]   (docs/design.md §7)
 *     f = 8 m pi^2 cos 4 pi t + k sin^2 2 pi t + c (1 - gamma(2 pi sin 4 pi t))
 *                                                           on (1, 5/4] and (2, 9/4]
 *     f = 8 m pi^2 cos 4 pi t + k sin^2 2 pi t - c (1 + gamma(2 pi sin 4 pi t))
 *                                                           on (5/4, 3/2] and (9/4, 5/2]
 *     f = -c/2                                              on (3/2, 2] and (5/2, 3]
 * gamma of [Glowinski2004] eq. 3.  Closed form: x = 0 on [0, 1], x = (max(0, sin 2 pi t))^2 on
 * [1, 3], so v = 2 pi sin 4 pi t and a = 8 pi^2 cos 4 pi t where x > 0.  Multiplier
 * ([Glowinski2004] eq. 4, left implicit by the paper): lambda = 0 on (0, 1] (f = k x = 0 at
 * rest), +1 on the first quarter of each period (v > 0), -1 on the second (v < 0), and
 * -1/2 on the stuck second half (f = -c/2 = c lambda).  The pattern repeats with period 1
 * past t = 3 when T is raised.  At a break f takes its left value (half-open pieces
 * (a, b]), the value of the step or sub-step ending there; order 1 either way, but the
 * L2 error constant depends on it: glowinski-lie gives 4.53e-4 in x at h = 1e-4 with the
 * left value and 4.08e-4 with the right one (docs/design.md §7's prototype: 4.1e-4).
 * Plant: n = 1, M = m, K = k, one contact, glowinski-linear shape mu_s = 1, mu_k = 1 -
 * beta, vs = eps, N = c.  Breaks: every forcing discontinuity (t = 1, and j + 1/4,
 * j + 1/2, j + 1 for j >= 1).  f_c = max(2 Hz (the motion's sin 4 pi t), natural
 * frequency sqrt(k/m)/(2 pi)); v_scale = 2 pi m/s (max |v|).  Parameters: m (kg, 1),
 * k (N/m, 1), c (N, 0.2), beta (1, 1/3), eps (m/s, 0.1), T (s, 3).  Reference: exact.
 */
#include <math.h>
#include <stddef.h>

#include "fb_glowinski_ref.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct tp2_params {
  double m, k, c, beta, eps, T;
} tp2_params;

static const fb_param_desc tp2_desc[] = {
    {"m", "kg", "mass", offsetof(tp2_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k", "N/m", "spring stiffness", offsetof(tp2_params, k), 1, 0, INFINITY, 0, NULL, NULL},
    {"c", "N", "friction coefficient c = Fs (normal force N = c, mu_s = 1)",
     offsetof(tp2_params, c), 0.2, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"beta", "1", "gamma's limit: Fc = c (1 - beta)", offsetof(tp2_params, beta), 1.0 / 3.0, 0,
     1, FB_PARAM_MAX_OPEN, NULL, NULL},
    {"eps", "m/s", "gamma's velocity scale", offsetof(tp2_params, eps), 0.1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    /* at most 1e6: the forcing breaks every quarter period, one array entry each */
    {"T", "s", "end time", offsetof(tp2_params, T), 3, 0, 1e6, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set tp2_set = {sizeof(tp2_params), 6, tp2_desc};

/* Phase of t > 1: quarter index 0 (slip +), 1 (slip -), 2 or 3 (stick) of its period,
 * quarters being (j + q/4, j + (q+1)/4]; -1 for t <= 1 (at rest, f = 0). */
static int tp2_phase(double t)
{
  if (t <= 1.0)
    return -1;
  return (int)(((long)ceil(4.0 * t) - 1) % 4);
}

static void tp2_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const tp2_params *p = sp;
  (void)x, (void)v;
  const int q = tp2_phase(t);
  if (q < 0) {
    f[0] = 0.0;
  } else if (q >= 2) {
    f[0] = -0.5 * p->c;
  } else { /* [Glowinski2004] §5.2 */
    const double s = sin(2.0 * M_PI * t);
    const double g = fb_glow_gamma_linear(p->beta, p->eps, 2.0 * M_PI * sin(4.0 * M_PI * t));
    f[0] = 8.0 * p->m * M_PI * M_PI * cos(4.0 * M_PI * t) + p->k * s * s +
           (q == 0 ? p->c * (1.0 - g) : -p->c * (1.0 + g));
  }
}

int fb_glowinski_tp2_ref(const void *sp, double t, fb_glow_ref *r)
{
  (void)sp;
  const int q = tp2_phase(t);
  r->n = 1;
  if (q == 0 || q == 1) { /* x = sin^2 2 pi t */
    const double s = sin(2.0 * M_PI * t);
    r->x[0] = s * s;
    r->v[0] = 2.0 * M_PI * sin(4.0 * M_PI * t);
    r->a[0] = 8.0 * M_PI * M_PI * cos(4.0 * M_PI * t);
    r->lambda[0] = q == 0 ? 1.0 : -1.0;
  } else {
    r->x[0] = r->v[0] = r->a[0] = 0.0;
    r->lambda[0] = q < 0 ? 0.0 : -0.5;
  }
  return FB_OK;
}

static int tp2_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const tp2_params *p = sp;
  /* Breaks: quarters j/4 >= 1 except j + 3/4 (no forcing change there). */
  size_t nb = 0;
  for (long j = 4; (double)j * 0.25 < p->T; j++)
    nb += j % 4 != 3;
  if (fb_plant_alloc(pl, 1, 1, nb) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  nb = 0;
  for (long j = 4; (double)j * 0.25 < p->T; j++)
    if (j % 4 != 3)
      pl->breaks[nb++] = 0.25 * (double)j;
  pl->M[0] = p->m;
  pl->K[0] = p->k;
  pl->T = p->T;
  pl->f_c = fmax(2.0, sqrt(p->k / p->m) / (2.0 * M_PI));
  pl->v_scale = 2.0 * M_PI;
  pl->force = tp2_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_GLOWINSKI_LINEAR, 1.0, 1.0 - p->beta, p->eps};
  pl->contact[0].c0 = (fb_contact_state){p->c, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind tp2_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

static int tp2_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const tp2_params *p = sp;
  fb_glow_ref r;
  fb_glowinski_tp2_ref(sp, t, &r);
  x[0] = r.x[0];
  v[0] = r.v[0];
  if (F != NULL) /* [Glowinski2004] eq. 4: F = -c (lambda - gamma(v)) */
    F[0] = -p->c * (r.lambda[0] - fb_glow_gamma_linear(p->beta, p->eps, r.v[0]));
  return FB_OK;
}

const fb_scenario_type fb_scenario_glowinski_tp2 = {
    .name = "glowinski-tp2",
    .title = "friction and spring, at rest until t = 1, then x = (max(0, sin 2 pi t))^2",
    .source = "Glowinski et al. 2004 [Glowinski2004] §5.2 and [Shiau2005] §6.1",
    .params = &tp2_set,
    .ref_kind = tp2_ref_kind,
    .build = tp2_build,
    .exact = tp2_exact,
};
