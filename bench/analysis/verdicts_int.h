/* verdicts_int.h — what the verdict rules' files share (bench/analysis/verdicts.c, the
 * table and most rules; verdicts_hold.c, hold and the stable step): one runs.csv row as the
 * rules read it, a verdict row's key, and the helpers that append rows. */
#ifndef FB_VERDICTS_INT_H
#define FB_VERDICTS_INT_H

#include <stddef.h>
#include <string.h>

#include "fb_verdicts.h"

/* One runs.csv row, as the rules need it. */
typedef struct vrun {
  const char *group, *tag, *scenario, *model, *integrator, *status;
  /* bisect: a stable-step row (sweep `stable-step`, docs/design.md §10.2): h is the largest
   * stable step found, sweep_value the smallest unstable one (NaN: none up to 0.1 T) */
  int bisect;
  double sweep_value;
  double h, atol, stick_held, stick_time_ref, stick_flag_time, drift_growth, drift_rate,
      chatter_rate, power_pos_count, energy_excess_rel, power_excess_rel, err_x_l2, nfe;
  /* hold (docs/design.md §10.1), stability (§10.2), cost per simulated second (§10.6) */
  double creep_v, excess, bound, slip_frac, accum, L, v_scale, t_reached;
  /* the chain's cost against n (group scale, docs/scenarios/chain.md): accepted steps and
   * inner iterations (sweeps), with nfe the counts its work per step is made of */
  double nsteps, ninner;
  int unstable;
  double path_err_max, dir_err_max, dir_err_rms, stop_time_err, stick_time_ref_;
  /* normal contact (docs/design.md §12) */
  const char *sparams;
  double e_nominal, e_eff, lambda_min, rest_pen, rest_gap, rest_force_err;
  /* the practitioners' questions (docs/design.md §6) and the CPU time, for the engines'
   * rows (docs/engines.md) and the chain's cost against n */
  double push_creep_v, slide_ratio, slide_ratio_max, cpu_s;
  int ok;
} vrun;

/* A row's key and its texts. */
typedef struct vkey {
  const char *model, *integrator, *view;
  char step[40];
  double h; /* the judged fixed step (NaN: none) */
} vkey;

/* Rows of one (model, integrator, view, step): indices into R. */
typedef struct vset {
  size_t *i;
  size_t n;
} vset;

static inline int streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* A new row at the end of v, zeroed, its values NaN. FB_OK or FB_ENOMEM. */
int vd_push(fb_vtable *v, fb_vrow **out);
/* Append a verdict row of key k (the verdict text printf-style). FB_OK or FB_ENOMEM. */
int vd_add(fb_vtable *v, const vkey *k, const char *property, double value, const char *unit,
           double value2, const char *rule, const char *scen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;
/* Append "name" to a comma-separated list once. */
void vd_list_add(char *buf, size_t len, const char *name);
/* The finer partner of a fixed-step row (the next step of its experiment), or NULL. */
const vrun *vd_partner(const vrun *R, size_t n, const vrun *r);
/* "unstable at h (stable <= h_max)" for an unstable run r of R. */
void vd_unstable_text(const vrun *R, size_t n, const vrun *r, char *buf, size_t len);
/* The engines' rows (verdicts_engines.c, docs/engines.md): per engine, stepper and setting,
 * creep against the load fraction, the sliding force ratio, the yaw sweep, the stable step
 * and the cost per simulated second. */
int vd_judge_engines(fb_vtable *v, const vrun *R, size_t n);
/* The chain's cost against n (verdicts_scale.c, docs/scenarios/chain.md): per treatment of
 * group scale, the growth exponent of its work per step (deterministic counts). */
int vd_judge_scale(fb_vtable *v, const vrun *R, size_t n);
/* Work units of one evaluation or sweep of a chain of n blocks (scenario_params' store), and
 * of one step of run r (NaN when a count is missing). */
double vd_scale_unit(const char *scenario, const char *sparams, double sweep_value);
double vd_scale_work(const vrun *r);
/* hold, creep, stable-step and cost/s of one set (docs/design.md §10.1-10.2, 10.6). */
int vd_judge_hold(fb_vtable *v, const vrun *R, size_t nr, const vset *S, const vkey *k);

#endif
