/* impact_oscillator.c — a forced, lightly damped oscillator against a rigid stop ([Engleder2002]
 * §3, our one-DOF reading of its lost model; docs/design.md §12).
 *
 *     q'' + 2 D q' + q = A sin(Omega t),   stop at q = 0 acting for q < 0 (gap g = q),
 *
 * m = 1, k = 1, starting at rest on the stop.  Defaults D = 0.001, A = 0.001, e = 0.3,
 * Omega = 0.81 (free flight, impacts and persistent contact); the paper's other case is
 * e = 0.7, Omega = 1.569 (free flight and impacts).  [Engleder2002]'s penalty values are
 * --set normal=penalty-n --set normal.cN=1e4 --set normal.dN=50 (or 20), run with a fixed
 * step of 1e-4 in the paper.  T = 300 (about 40 forcing periods at Omega = 0.81; the
 * impacts dissipate the transient well before).  No closed form: the reference is the same
 * scenario with normal=newton.  Scales for `auto` treatment parameters: acceleration and
 * gap both A (the static deflection of the forcing on the unit spring).
 */
#include <math.h>
#include <stddef.h>

#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct impact_osc_params {
  double D, A, Omega, e, T, normal;
} impact_osc_params;

static const fb_param_desc impact_osc_desc[] = {
    {"D", "1/s", "damping ratio term (damping force 2 D q')", offsetof(impact_osc_params, D),
     0.001, 0, INFINITY, 0, NULL, NULL},
    {"A", "N", "forcing amplitude", offsetof(impact_osc_params, A), 0.001, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"Omega", "rad/s", "forcing angular frequency", offsetof(impact_osc_params, Omega), 0.81, 0,
     INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"e", "1", "restitution coefficient (Newton's law)", offsetof(impact_osc_params, e), 0.3, 0,
     1, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(impact_osc_params, T), 300, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"normal", "", "normal-contact treatment", offsetof(impact_osc_params, normal), 0, 0, FB_NORMAL_MAX - 1,
     FB_PARAM_CHOICE, NULL, fb_normal_names},
};
static const fb_param_set impact_osc_set = {sizeof(impact_osc_params), 6, impact_osc_desc};

static void impact_osc_force(const void *sp, double t, const double *x, const double *v,
                             double *f)
{
  const impact_osc_params *p = sp;
  (void)x, (void)v;
  f[0] = p->A * sin(p->Omega * t);
}

static int impact_osc_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const impact_osc_params *p = sp;
  if (fb_plant_alloc(pl, 1, 0, 0) != FB_OK || fb_plant_alloc_normals(pl, 1) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = 1.0;
  pl->D[0] = 2.0 * p->D;
  pl->K[0] = 1.0;
  pl->T = p->T;
  pl->f_c = fmax(1.0, p->Omega) / (2.0 * M_PI);
  pl->v_scale = p->A;
  pl->force = impact_osc_force;
  fb_normal *nm = &pl->normal[0];
  nm->Jn[0] = 1.0;
  nm->e = p->e;
  nm->a_scale = p->A;
  nm->h_scale = p->A;
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  fb_normal_select(nm, nt);
  return FB_OK;
}

static fb_ref_kind impact_osc_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_NONE;
}

const fb_scenario_type fb_scenario_impact_oscillator = {
    .name = "impact-oscillator",
    .title = "forced oscillator against a rigid stop: flight, impacts, persistent contact",
    .source = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §3 (our reading)",
    .params = &impact_osc_set,
    .ref_kind = impact_osc_ref_kind,
    .build = impact_osc_build,
    .exact = NULL,
};
