/* drift.c — positional drift under an oscillating load below breakaway ([Xiong2013] fig. 3;
 * Dupont et al. 2002; Astrom & Canudas de Wit 2008).
 *
 *     m xddot = f(t) + F,     f(t) = b + a sin(2 pi freq (t - t_push))  for t >= t_push
 *                             f(t) = f_push                             for t <  t_push
 *
 * A mass at rest on a LuGre-parameterized contact (Stribeck shape, Fc = 1, Fs = 1.5,
 * vs = 0.001, N = 1).  Default b = 0.5, a = 0.4 (peak 0.9 N, below Fc), T = 10;
 * variants (b, a) = (0, 0.9) zero-mean and (0.75, 0.6) (peak 0.9 Fs, between Fc and
 * Fs); slide-then-hold: t_push = 1 with f_push = 1.2 Fs (auto), then b, a.
 * Reference: exact while t_push = 0 and |b| + |a| < Fs (the mass never moves: x = x0,
 * v = 0, F = -f); otherwise the event-driven solver.  f_c = freq; velocity scale
 * (|b| + |a|)/(m 2 pi freq), or the push's (f_push - Fc) t_push / m if larger.
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct drift_params {
  double m, Fs, Fc, vs, b, a, freq, T, t_push, f_push, x0;
} drift_params;

static const fb_param_desc drift_desc[] = {
    {"m", "kg", "mass", offsetof(drift_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"Fs", "N", "static friction (breakaway) force", offsetof(drift_params, Fs), 1.5, 0, INFINITY,
     0, NULL, NULL},
    {"Fc", "N", "kinetic (Coulomb) friction force", offsetof(drift_params, Fc), 1, 0, INFINITY, 0,
     NULL, NULL},
    {"vs", "m/s", "Stribeck velocity", offsetof(drift_params, vs), 0.001, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"b", "N", "mean load", offsetof(drift_params, b), 0.5, -INFINITY, INFINITY, 0, NULL, NULL},
    {"a", "N", "load amplitude", offsetof(drift_params, a), 0.4, -INFINITY, INFINITY, 0, NULL,
     NULL},
    {"freq", "Hz", "load frequency", offsetof(drift_params, freq), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"T", "s", "end time", offsetof(drift_params, T), 10, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"t_push", "s", "duration of the initial push (0: none; slide-then-hold: 1)",
     offsetof(drift_params, t_push), 0, 0, INFINITY, 0, NULL, NULL},
    {"f_push", "N", "force of the initial push", offsetof(drift_params, f_push), NAN, -INFINITY,
     INFINITY, FB_PARAM_AUTO, "1.2 Fs", NULL},
    {"x0", "m", "initial position", offsetof(drift_params, x0), 0, -INFINITY, INFINITY, 0, NULL,
     NULL},
};
static const fb_param_set drift_set = {sizeof(drift_params), 11, drift_desc};

static double drift_f_push(const drift_params *p)
{
  return isnan(p->f_push) ? 1.2 * p->Fs : p->f_push;
}

static double drift_load(const drift_params *p, double t)
{
  if (t < p->t_push)
    return drift_f_push(p);
  return p->b + p->a * sin(2.0 * M_PI * p->freq * (t - p->t_push));
}

static void drift_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  (void)x, (void)v;
  f[0] = drift_load(sp, t);
}

static int drift_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const drift_params *p = sp;
  if (p->Fc > p->Fs)
    return fb_err_set(err, FB_EINVAL, "drift: Fc = %g exceeds Fs = %g: need Fc <= Fs", p->Fc,
                      p->Fs);
  if (p->t_push >= p->T)
    return fb_err_set(err, FB_EINVAL, "drift: t_push = %g must be < T = %g", p->t_push, p->T);
  if (fb_plant_alloc(pl, 1, 1, p->t_push > 0 ? 1 : 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->x0[0] = p->x0;
  pl->T = p->T;
  if (p->t_push > 0)
    pl->breaks[0] = p->t_push;
  pl->f_c = p->freq;
  pl->v_scale = (fabs(p->b) + fabs(p->a)) / (p->m * 2.0 * M_PI * p->freq);
  if (p->t_push > 0)
    pl->v_scale = fmax(pl->v_scale, fabs(drift_f_push(p) - p->Fc) * p->t_push / p->m);
  pl->force = drift_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_STRIBECK, p->Fs, p->Fc, p->vs};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind drift_ref_kind(const void *sp)
{
  const drift_params *p = sp;
  return (p->t_push == 0 && fabs(p->b) + fabs(p->a) < p->Fs) ? FB_REF_EXACT : FB_REF_EVENT;
}

/* The mass never leaves rest: the friction force balances the load exactly. */
static int drift_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const drift_params *p = sp;
  if (drift_ref_kind(sp) != FB_REF_EXACT)
    return FB_EUNSUP;
  x[0] = p->x0;
  v[0] = 0.0;
  if (F)
    F[0] = -drift_load(p, t);
  return FB_OK;
}

const fb_scenario_type fb_scenario_drift = {
    .name = "drift",
    .title = "oscillating load below breakaway on a resting mass: any creep is drift",
    .source = "[Xiong2013] §3.1 fig. 3; Dupont et al. 2002; Astrom & Canudas de Wit 2008",
    .params = &drift_set,
    .ref_kind = drift_ref_kind,
    .build = drift_build,
    .exact = drift_exact,
};
