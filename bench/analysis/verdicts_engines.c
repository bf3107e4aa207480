/* verdicts_engines.c — the engines' rows of verdicts.csv (docs/engines.md §5): per engine,
 * stepper and setting (the `engine` group's tags), the practitioners' questions
 * (docs/design.md §6) measured on its rows of the `practitioner` group, its stable step
 * (`stable-step`) and its cost per simulated second (`engine`):
 *  - creep: the largest mean velocity over the push below breakaway (r < 1; exact 0), per
 *    step, with the mean velocity at r = 1.05 (exact 0.05 mu g T_push / 2) as value2;
 *  - slide: the mean sliding force ratio |F_t|/(mu F_n) - 1 at r = 2 (exact 0);
 *  - yaw: the largest friction direction error over the yaw sweep (deg), the largest
 *    magnitude error as value2 (exact 0 and 0 for isotropic Coulomb friction);
 *  - stable-step: the smallest largest-stable step over its bisections;
 *  - cost: CPU seconds per simulated second, mean over its `engine` group runs.
 * Engines are recognized from the data (a model with rows in the `engine` group), so that a
 * results directory is judged the same by a build without the engine. */
#include <math.h>
#include <stdio.h>

#include "verdicts_int.h"

/* A mean velocity at or below this over the 5 s push counts as holding (m/s): 50 nm of
 * travel, far below any length scale of push-hold (L = 0.46 m) yet above the round-off the
 * exact engines show (dWorldStep: 2e-10 m/s, the ERP's settling of a 1e-12 m depth). */
#define ENGINE_HOLD_V 1e-8
/* isotropic: direction within 1 degree and magnitude within 1 % */
#define ENGINE_YAW_DEG 1.0
#define ENGINE_YAW_MAG 0.01
#define ENGINE_SLIDE_TOL 0.01

/* Is r a measured row of (model, integrator) in group g whose tag is
 * "<question>-<setting>"? */
static int engine_row(const vrun *r, const vrun *e, const char *g, const char *question)
{
  char want[96];
  snprintf(want, sizeof want, "%s%s%s", question, *question ? "-" : "", e->tag);
  /* a suspect run (discretization error above the scale) measured all the same */
  return (r->ok || streq(r->status, "suspect")) && streq(r->group, g) &&
         streq(r->model, e->model) &&
         streq(r->integrator, e->integrator) && streq(r->tag, want);
}

static void set_key(vkey *k, const vrun *e, const char *step)
{
  k->model = e->model;
  k->integrator = e->integrator;
  k->view = "engine";
  snprintf(k->step, sizeof k->step, "%s [%s]", step, e->tag);
  k->h = NAN;
}

/* creep at one step: question "creep-h1e-3" etc. */
static int engine_creep(fb_vtable *v, const vrun *R, size_t n, const vrun *e,
                        const char *question, const char *step)
{
  double worst = NAN, r_worst = NAN, slide = NAN;
  for (size_t j = 0; j < n; j++) {
    const vrun *r = &R[j];
    if (!engine_row(r, e, "practitioner", question) || !isfinite(r->push_creep_v))
      continue;
    if (r->sweep_value < 1.0 && !(fabs(r->push_creep_v) <= fabs(worst))) {
      worst = fabs(r->push_creep_v);
      r_worst = r->sweep_value;
    }
    if (r->sweep_value > 1.0)
      slide = r->push_creep_v;
  }
  if (isnan(worst))
    return FB_OK;
  vkey k;
  set_key(&k, e, step);
  char rule[200];
  snprintf(rule, sizeof rule, "largest mean velocity over the 5 s push of push-hold at load "
           "fractions r < 1 (exact 0); holds when at most %g m/s; value2: r = 1.05 (exact "
           "0.368 m/s)", ENGINE_HOLD_V);
  if (worst <= ENGINE_HOLD_V)
    return vd_add(v, &k, "creep", worst, "m/s", slide, rule, "push-hold r=0.5...1.05",
                  "holds (%.2g m/s)", worst);
  return vd_add(v, &k, "creep", worst, "m/s", slide, rule, "push-hold r=0.5...1.05",
                "creeps %.3g m/s at r = %g", worst, r_worst);
}

/* slide ratio at r = 2 and the yaw sweep */
static int engine_friction(fb_vtable *v, const vrun *R, size_t n, const vrun *e)
{
  vkey k;
  set_key(&k, e, "h=1e-3");
  double dir = NAN, mag = NAN;
  for (size_t j = 0; j < n; j++) {
    const vrun *r = &R[j];
    if (engine_row(r, e, "practitioner", "slide-h1e-3") && isfinite(r->slide_ratio)) {
      const double q = r->slide_ratio;
      if (vd_add(v, &k, "slide", q, "1", r->slide_ratio_max,
                 "mean |F_t|/(mu F_n) - 1 while sliding, push-hold r = 2 (exact 0); Coulomb "
                 "when within 0.01; value2: the value of largest magnitude",
                 "push-hold r=2", fabs(q) <= ENGINE_SLIDE_TOL ? "Coulomb (%.2g)" : "off by %.3g",
                 q) != FB_OK)
        return FB_ENOMEM;
    }
    if (engine_row(r, e, "practitioner", "yaw-h1e-3")) {
      if (isfinite(r->dir_err_max) && !(r->dir_err_max <= dir))
        dir = r->dir_err_max;
      if (isfinite(r->slide_ratio_max) && !(fabs(r->slide_ratio_max) <= fabs(mag)))
        mag = r->slide_ratio_max;
    }
  }
  if (isnan(dir) && isnan(mag))
    return FB_OK;
  const int iso = dir <= ENGINE_YAW_DEG && fabs(mag) <= ENGINE_YAW_MAG;
  return vd_add(v, &k, "yaw", dir, "deg", mag,
                "largest friction direction error over the puck's yaw sweep 0...45 deg (exact "
                "0); value2: the largest |F|/(mu N) - 1 (exact 0); isotropic within 1 deg and "
                "0.01", "puck yaw=0...45",
                iso ? "isotropic (%.2g deg)" : "anisotropic: %.3g deg, magnitude %+.3g", dir,
                mag);
}

/* stable step and cost */
static int engine_budget(fb_vtable *v, const vrun *R, size_t n, const vrun *e)
{
  vkey k;
  set_key(&k, e, "bisection");
  double hs = NAN, cost = 0.0, runs = 0.0;
  char scen[200] = "", worst[80] = "";
  for (size_t j = 0; j < n; j++) {
    const vrun *r = &R[j];
    if (engine_row(r, e, "stable-step", "") && r->bisect && isfinite(r->h)) {
      vd_list_add(scen, sizeof scen, r->scenario);
      if (!(r->h >= hs)) {
        hs = r->h;
        snprintf(worst, sizeof worst, "%s", r->scenario);
      }
    }
    if (engine_row(r, e, "engine", "") && isfinite(r->cpu_s) && r->t_reached > 0) {
      cost += r->cpu_s / r->t_reached;
      runs += 1.0;
    }
  }
  if (!isnan(hs) && vd_add(v, &k, "stable-step", hs, "s", NAN,
                           "smallest largest-stable step of its bisections (docs/design.md "
                           "§10.2)", scen, "stable to h = %.3g s (%s)", hs, worst) != FB_OK)
    return FB_ENOMEM;
  if (runs == 0.0)
    return FB_OK;
  set_key(&k, e, "h=1e-3");
  return vd_add(v, &k, "cost", cost / runs, "s/s", runs,
                "CPU seconds per simulated second, mean over its engine-group runs at 1 ms; "
                "value2: the runs", "engine group", "%.3g s per simulated s", cost / runs);
}

int vd_judge_engines(fb_vtable *v, const vrun *R, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    const vrun *e = &R[i];
    if (!streq(e->group, "engine"))
      continue;
    int first = 1; /* one set of rows per (model, integrator, setting) */
    for (size_t j = 0; j < i && first; j++)
      first = !(streq(R[j].group, "engine") && streq(R[j].model, e->model) &&
                streq(R[j].integrator, e->integrator) && streq(R[j].tag, e->tag));
    if (!first)
      continue;
    int st = engine_creep(v, R, n, e, "creep-h1e-3", "h=1e-3");
    if (st == FB_OK)
      st = engine_creep(v, R, n, e, "creep-h1e-4", "h=1e-4");
    if (st == FB_OK)
      st = engine_friction(v, R, n, e);
    if (st == FB_OK)
      st = engine_budget(v, R, n, e);
    if (st != FB_OK)
      return st;
  }
  return FB_OK;
}
