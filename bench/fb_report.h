/* fb_report.h — plots (gnuplot scripts in scripts/) and the one-page report.html, made from
 * the files a suite wrote into a results directory (runs.csv, orders.csv, traj/,
 * meta.json), never from in-memory state, so `merge` and re-plotting use the same path.
 *
 * Outputs (all written under a temporary name and renamed on success):
 *   DIR/plots/<name>.png and .svg   one pair per plot (list in results/README.md)
 *   DIR/plots/data/<name>.dat       the numbers each plot was drawn from (trajectory
 *                                   overlays read DIR/traj/ directly)
 *   DIR/report.html                 self-contained (PNGs embedded as data URIs) with the
 *                                   sections #run #verdicts #plots #omissions #numbers
 *
 * gnuplot is run as a child process (`gnuplot` on PATH) on the scripts found by
 * fb_scripts_dir (fb_paths.h): $FRICBENCH_SCRIPTS, the install prefix's
 * share/fricbench, or the sources' scripts/ for the uninstalled build.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stddef.h>

#include "fb_status.h"

/* Write DIR/plots/ (PNG and SVG per plot, with the data files they were drawn from) and
 * DIR/report.html, with at most `jobs` gnuplot processes at once (0: the machine's
 * cores; the suite's --jobs).  Returns FB_OK, or a failure with err set: FB_EIO when
 * runs.csv is missing or unreadable, gnuplot is not installed, the scripts are not found,
 * an output cannot be written, or a plot failed (the report is still written then,
 * naming the plots that failed). */
int fb_report_make(const char *dir, size_t jobs, fb_err *err);

/* ---- Verdicts ------------------------------------------------------------------------
 * One verdict per model that appears in runs.csv, computed from DIR/runs.csv and
 * DIR/orders.csv by these rules (also stated in report.html):
 *
 *  sticks    baseline runs on the scenarios whose exact answer is a long stick
 *            (FB_VERDICT_STICK_SCENARIOS: inclined-block, drift): yes (1) when on every
 *            one stick_time / stick_time_ref >= FB_VERDICT_STICK_RATIO and no reference
 *            stick interval is missed and none is spurious; no (0) otherwise.
 *  drifts    drift group (every drift variant, each model's default integrator): yes when
 *            the largest drift_per_cycle exceeds FB_VERDICT_DRIFT_PER_CYCLE m per forcing
 *            cycle.  (An anchored model's elastic deflection, Fs/K ~ 1e-6 m with the
 *            default stiffnesses, spread over the 10 cycles of the drift scenario stays
 *            below it; accumulation does not.)
 *  chatters  baseline run on stick-slip: yes when chatter_rate (velocity sign changes per
 *            second inside the reference's stick intervals, every accepted step) exceeds
 *            FB_VERDICT_CHATTER_RATE.
 *  order     median of orders.csv order_x over the model's convergence experiments on
 *            scenarios with a closed-form reference (runs.csv ref = exact) fitted over
 *            >= 3 successful steps.  Measured against the ideal Coulomb reference, so a
 *            regularized model shows ~0 once its regularization error dominates.
 *  cost      at matched accuracy on FB_VERDICT_COST_SCENARIO: the cheapest CPU time of
 *            any of the model's baseline, convergence or work-precision runs there whose
 *            err_x_l2 <= target, for each target of FB_VERDICT_COST_TARGETS, and its
 *            ratio to the cheapest model's.
 *
 * Every verdict is 1 (yes), 0 (no) or -1 (unknown: no usable run). */
#define FB_VERDICT_STICK_SCENARIOS {"inclined-block", "drift"}
#define FB_VERDICT_STICK_RATIO 0.9
#define FB_VERDICT_DRIFT_PER_CYCLE 1e-6
#define FB_VERDICT_CHATTER_RATE 10.0
#define FB_VERDICT_COST_SCENARIO "stick-slip"
#define FB_VERDICT_NCOST 2
#define FB_VERDICT_COST_TARGETS {1e-1, 1e-2}

typedef struct fb_verdict {
  char model[64];
  /* sticks */
  int sticks;
  size_t stick_runs;        /* baseline runs the verdict used */
  double stick_ratio_min;   /* smallest stick_time / stick_time_ref among them */
  char stick_worst[64];     /* scenario of that smallest ratio */
  double stick_unmatched;   /* missed + spurious stick intervals, summed */
  /* drifts */
  int drifts;
  size_t drift_runs;
  double drift_max;         /* largest drift_per_cycle (m/cycle) */
  char drift_variant[64];   /* the drift variant (tag) where it occurred */
  /* chatters */
  int chatters;
  double chatter_rate;      /* 1/s, stick-slip baseline */
  double chatter_F_tv;      /* force total variation / (Fs * stick time) on that run */
  char chatter_run[96];     /* integrator and step of that run */
  /* order */
  double order;             /* median order_x; NaN when no fit qualifies */
  size_t order_fits;
  double order_min, order_max;
  /* cost at matched accuracy */
  double cost_target[FB_VERDICT_NCOST]; /* err_x_l2 targets (m s^0.5) */
  double cost_cpu[FB_VERDICT_NCOST];    /* s; NaN: target not reached */
  double cost_ratio[FB_VERDICT_NCOST];  /* to the cheapest model at that target */
  char cost_run[FB_VERDICT_NCOST][96];  /* integrator and step or tolerance of that run */
  double cost_best_err;                 /* smallest err_x_l2 of the model there */
} fb_verdict;

/* Compute the verdicts of DIR (reads only DIR/runs.csv and DIR/orders.csv).  Writes at
 * most max verdicts into v (in order of first appearance in runs.csv) and their number
 * into *n.  Returns FB_OK or FB_EIO with err set. */
int fb_report_verdicts(const char *dir, fb_verdict *v, size_t max, size_t *n, fb_err *err);
/* The same from the texts of runs.csv (runs_len bytes) and orders.csv (orders_len bytes;
 * orders_csv NULL: absent), which need not be NUL-terminated.  FB_EIO when runs.csv is
 * empty or lacks a needed column, FB_ENOMEM; FB_OK otherwise, whatever the rows hold. */
int fb_report_verdicts_text(const char *runs_csv, size_t runs_len, const char *orders_csv,
                            size_t orders_len, fb_verdict *v, size_t max, size_t *n, fb_err *err);

/* The verdict of `model` among v[0..n), or NULL. */
const fb_verdict *fb_report_verdict_find(const fb_verdict *v, size_t n, const char *model);

#endif
