/* fb_plan.h — experiment tables on the user's terms (docs/design.md §11 "Plans",
 * docs/plans.md): a plan file (INI) read into an fb_table, a table printed as a plan, and
 * a selection (filters by name, NAME=VALUE settings, the fixed-step view at the user's
 * step, a tolerance) applied to a table.  Every function checks everything before it
 * returns, so that `suite` can refuse bad input before it creates its directory.
 */
#ifndef FB_PLAN_H
#define FB_PLAN_H

#include <stdio.h>

#include "fb_suite.h"

/* Where a NAME=VALUE setting fits the pair (scenario, model) as fb_case_set resolves it:
 * 1 yes, 0 no, -1 ambiguous (both have NAME and it has no scenario./model. prefix). */
int fb_set_fits(const char *set, const fb_scenario_type *s, const fb_model_type *m);


/* Read FILE (a plan) into t (t is overwritten).  FB_OK, or FB_EINVAL with err naming
 * FILE:LINE and the key or value at fault (missing or unknown key, unknown scenario,
 * model or integrator, bad number, duplicate experiment). */
int fb_plan_load(fb_table *t, const char *file, fb_err *err);

/* Write t as a plan that fb_plan_load reads back to the same table. */
int fb_plan_print(const fb_table *t, FILE *fp);

/* What `suite --scenario/--model/--integrator/--set/--h/--tol` select. */
typedef struct fb_select {
  const char *const *scenarios; /* keep these scenarios (n == 0: all) */
  size_t nscenarios;
  const char *const *models;
  size_t nmodels;
  const char *const *integrators; /* the experiment's integrator or the model's default */
  size_t nintegrators;
  const char *const *sets; /* NAME=VALUE, appended to every experiment it fits */
  size_t nsets;
  double h;   /* NaN: none; else the fixed-step group is every selected (scenario, model)
                 at {h, h/4} with the model's fixed-step integrator */
  double tol; /* NaN: none; else the tolerance of every run neither swept nor at a step */
} fb_select;

void fb_select_init(fb_select *s);

/* Apply s to t.  FB_OK, or FB_EINVAL with err set (unknown name, a setting that fits no
 * selected experiment, nothing selected, duplicate experiments). */
int fb_table_select(fb_table *t, const fb_select *s, fb_err *err);

/* FB_EINVAL when two experiments of t have the same group, tag, scenario, model and
 * integrator (their rows and trajectories could not be told apart), or t is empty. */
int fb_table_check(const fb_table *t, fb_err *err);

/* The case of experiment e's run at ladder value `value` (ignored without a sweep): names,
 * settings, the step mode (e's h or tol, or the swept one) and the grid (e's samples, else
 * `samples`); not prepared.  FB_OK, or the first error (c is then to be freed all the same). */
int fb_experiment_case(fb_case *c, const fb_experiment *e, double value, size_t samples,
                       fb_err *err);
/* Every run of t set up and prepared as the suite and `run` do (fb_case_prepare's rules: h
 * in (0, T - t0], tolerances above their floors, settings in range, the integrator's step
 * modes), so that a table is refused before its directory exists.  FB_OK, or FB_EINVAL with
 * err naming the experiment (plan section, scenario, model, the swept value) and the rule. */
int fb_table_validate(const fb_table *t, size_t samples, fb_err *err);
#endif
