/* preload_hold.c — the robot-joint case (docs/design.md §5): a preloaded spring held
 * by friction below breakaway, shaken by a small disturbance.
 *
 *     m xddot + k x = a sin(2 pi freq t) + F,    x(0) = x0 = r_pre Fs / k,  v(0) = 0
 *
 * Sign convention: the mass sits at x0 > 0, so the preloaded spring pulls it back toward
 * 0 with -k x0 = -r_pre Fs and the friction force F (on the body) holds it; the
 * disturbance a = r_a Fs adds to the spring.  Coulomb contact Fs = Fc = mu m g.  While
 * r_pre + r_a < 1 the applied force |-k x0 + a sin| never reaches Fs, so the exact
 * solution is x = x0, v = 0 for all t with F = k x0 - a sin(2 pi freq t) (stick over the
 * whole interval); x0 is derived from r_pre, so this holds whatever m, k, mu.  From
 * r_pre + r_a >= 1 it slips and the reference is the event-driven solver.
 * Defaults m = 1, k = 100, mu = 0.3, g = 9.81, r_pre = 0.6, r_a = 0.3, freq = 5 Hz,
 * T = 5; a stiff joint (the README's worked example): m = 2, k = 5e4.  Any model that
 * moves here creeps: a splitting scheme whose spring acts outside its friction step
 * lets the spring force through during the elastic step and creeps O(h).
 * f_c = max(sqrt(k/m)/(2 pi), freq) (natural and forcing frequencies); velocity scale
 * Fs / (m 2 pi f_c), the speed a force of size Fs gives the mass over one characteristic
 * period (as drift's).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct preload_params {
  double m, k, mu, g, r_pre, r_a, freq, T;
} preload_params;

static const fb_param_desc preload_desc[] = {
    {"m", "kg", "mass", offsetof(preload_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"k", "N/m", "spring stiffness", offsetof(preload_params, k), 100, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"mu", "1", "friction coefficient, Fs = Fc = mu m g", offsetof(preload_params, mu), 0.3, 0,
     INFINITY, 0, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(preload_params, g), 9.81, 0, INFINITY,
     0, NULL, NULL},
    {"r_pre", "1", "spring preload k x0 over Fs (x0 = r_pre Fs / k)",
     offsetof(preload_params, r_pre), 0.6, 0, INFINITY, 0, NULL, NULL},
    {"r_a", "1", "disturbance amplitude over Fs", offsetof(preload_params, r_a), 0.3, 0,
     INFINITY, 0, NULL, NULL},
    {"freq", "Hz", "disturbance frequency", offsetof(preload_params, freq), 5, 0, INFINITY, 0,
     NULL, NULL},
    {"T", "s", "end time", offsetof(preload_params, T), 5, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set preload_set = {sizeof(preload_params), 8, preload_desc};

static double preload_Fs(const preload_params *p)
{
  return p->mu * p->m * p->g;
}

static double preload_x0(const preload_params *p)
{
  return p->r_pre * preload_Fs(p) / p->k;
}

static double preload_disturbance(const preload_params *p, double t)
{
  return p->r_a * preload_Fs(p) * sin(2.0 * M_PI * p->freq * t);
}

static void preload_force(const void *sp, double t, const double *x, const double *v,
                          double *f)
{
  (void)x, (void)v;
  f[0] = preload_disturbance(sp, t);
}

static int preload_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const preload_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double fn = sqrt(p->k / p->m) / (2.0 * M_PI);
  pl->M[0] = p->m;
  pl->K[0] = p->k;
  pl->x0[0] = preload_x0(p);
  pl->v0[0] = 0.0;
  pl->T = p->T;
  pl->f_c = fmax(fn, p->freq);
  pl->v_scale = fmax(preload_Fs(p), 1e-12) / (p->m * 2.0 * M_PI * pl->f_c);
  /* the hold verdict's length scale: the preload deflection, so "P % of L" is the share
   * of the preload lost (docs/design.md §10.1); Fs/k when there is no preload */
  pl->L = pl->x0[0] > 0 ? pl->x0[0] : preload_Fs(p) / p->k;
  pl->force = preload_force;
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
  pl->contact[0].c0 = (fb_contact_state){p->m * p->g, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind preload_ref_kind(const void *sp)
{
  const preload_params *p = sp;
  return p->r_pre + p->r_a < 1.0 ? FB_REF_EXACT : FB_REF_EVENT;
}

/* Held: the friction force balances spring and disturbance, F = k x0 - a sin. */
static int preload_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const preload_params *p = sp;
  if (preload_ref_kind(sp) != FB_REF_EXACT)
    return FB_EUNSUP;
  x[0] = preload_x0(p);
  v[0] = 0.0;
  if (F)
    F[0] = p->k * x[0] - preload_disturbance(p, t);
  return FB_OK;
}

const fb_scenario_type fb_scenario_preload_hold = {
    .name = "preload-hold",
    .title = "preloaded spring held by friction below breakaway, with a small disturbance",
    .source = "the robot-joint case (docs/design.md §5)",
    .params = &preload_set,
    .ref_kind = preload_ref_kind,
    .build = preload_build,
    .exact = preload_exact,
};
