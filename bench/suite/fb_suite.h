/* fb_suite.h — the experiment table and the suite runner (docs/design.md §8).
 *
 * The default experiment table lives in one place (bench/suite/matrix.c) as data: each
 * experiment names a scenario, a model, an integrator, fixed NAME=VALUE settings and at
 * most one sweep (the fixed step h, the tolerance, or a parameter) with its ladder.
 * The runner expands it into jobs (one per ladder value), computes each distinct
 * scenario variant's reference once, runs the jobs on N threads, computes the metrics
 * against the reference, and writes DIR/runs.csv (one row per job, in table order, so
 * results do not depend on the number of threads), trajectories, orders.csv and
 * meta.json; plots and the report are made from those files.
 */
#ifndef FB_SUITE_H
#define FB_SUITE_H

#include <stddef.h>

#include "fb_metrics.h"
#include "fb_run.h"

enum fb_exp_flags {
  FB_EXP_TRAJ = 1u << 0,  /* write the trajectory of every run of this experiment */
  FB_EXP_QUICK = 1u << 1, /* part of --quick (with at most FB_QUICK_LADDER values) */
  /* the stable step by bisection (docs/design.md §10.2): one job probes up to
   * FB_BISECT_RUNS fixed steps between h (the smallest ladder step) and
   * FB_BISECT_HI x (T - t0), each a freshly prepared case; its row is the run at the
   * largest stable step found (runs.csv's sweep `stable-step`, sweep_value the smallest
   * unstable step found) */
  FB_EXP_BISECT = 1u << 2
};
#define FB_BISECT_RUNS 8
#define FB_BISECT_HI 0.1
#define FB_QUICK_LADDER 3
#define FB_EXP_MAX_SETS 6
#define FB_EXP_MAX_VALUES 12

typedef enum fb_sweep_kind {
  FB_SWEEP_NONE = 0, /* one run */
  FB_SWEEP_H,        /* fixed step ladder (values in s) */
  FB_SWEEP_TOL,      /* tolerance ladder (atol = rtol) */
  FB_SWEEP_PARAM     /* a scenario or model parameter (sweep_param) */
} fb_sweep_kind;

typedef struct fb_experiment {
  const char *name;     /* a plan's section name, for messages (NULL: the default table's) */
  const char *group;    /* baseline, convergence, work-precision, cost-mu, regularization,
                           drift, grid: which plot and report section uses it */
  const char *tag;      /* variant label ("" for none), used in file names and legends */
  const char *scenario;
  const char *model;
  const char *integrator;                  /* NULL: the model's default */
  const char *sets[FB_EXP_MAX_SETS];       /* NULL-terminated NAME=VALUE settings */
  fb_sweep_kind sweep;
  const char *sweep_param;                 /* FB_SWEEP_PARAM: the parameter name */
  double values[FB_EXP_MAX_VALUES];        /* the ladder */
  size_t nvalues;
  double h;   /* fixed step when not swept (NaN: tol or the model's default) */
  double tol; /* tolerance when not swept (NaN: h or the model's default) */
  unsigned flags;
  size_t samples; /* output grid size, 0 = the suite's (--samples) */
  double traj_tail; /* > 0: the trajectory file keeps only the last traj_tail of the span
                       (the window the report draws; --traj all keeps everything); 0: all */
  long traj_dofs;   /* != 0: the trajectory file keeps only these DOFs of a large plant
                       (fb_trace_write_csv_gz_dofs: > 0 the first, < 0 the last ones; the
                       ones the report reads; --traj all keeps everything); 0: all */
} fb_experiment;

/* An experiment table: the default one, built from the registries (matrix.c), or a
 * plan's. */
typedef struct fb_table {
  fb_experiment *e;
  size_t n;
  size_t cap;    /* allocated experiments (bench/suite/plan.c grows tables) */
  char **strs;   /* a plan's strings, which the experiments point into (fb_table_strdup) */
  size_t nstrs, capstrs;
} fb_table;

/* The common steps of the fixed-step view (s): the verdicts at a user's step, and a
 * finer one to classify chatter and measure creep orders. */
#define FB_FIXED_VIEW_H {1e-3, 2.5e-4}

/* Build the default table from the model and scenario registries.  FB_OK or FB_ENOMEM. */
int fb_table_default(fb_table *t);
void fb_table_free(fb_table *t);
/* Copy s into t's string arena (freed by fb_table_free); NULL when out of memory.  Here,
 * beside fb_table_free, not in the plan reader: the default table (matrix.c) uses it too,
 * and matrix.c sits below plan.c (no call cycle between files). */
const char *fb_table_strdup(fb_table *t, const char *s);
/* The integrator a model runs at a fixed step: its suite data's fixed_integrator, else its
 * default integrator when that takes fixed steps, else its first convergence integrator. */
const char *fb_model_fixed_step_integrator(const fb_model_type *m);
/* The integrator of model m on scenario st (NULL: not known) at a fixed step when none is
 * named: the above, or on a scenario with 2-D contacts the generic rk4 when only the
 * model's ODE law has the vector form; "" when m has no 2-D form (not run).  The one rule
 * of the suite's fixed-step view, a plan's and the suite's --h, and `run --h`, so that
 * `run --h H` repeats a fixed-step run of the report. */
const char *fb_model_fixed_step_integrator_on(const fb_model_type *m, const fb_scenario_type *st);

typedef struct fb_suite_opts {
  const char *out_dir;     /* NULL: results/<date>-<rev> */
  int quick;               /* --quick */
  int jobs;                /* threads (>= 1) */
  size_t samples;          /* output grid size per run */
  unsigned long max_steps; /* per-run budgets */
  unsigned long max_rhs;
  int progress;            /* show progress on stderr */
  int plots;               /* make plots and the report */
  /* Resumable suites (fb_resume.h).  Every finished job is appended to out_dir/journal.
   * With handle_signals, SIGINT or SIGTERM stops the suite: no job starts any more,
   * running ones stop at their next step, runs.csv gets the finished rows (in table
   * order, run_id as in a full run), and fb_suite_run returns FB_EINTR with the signal
   * in *stopped_by.  With resume, out_dir/journal's jobs are taken as done and only the
   * others run; the options must be the journal's (fb_suite_resume_opts). */
  int resume;
  int handle_signals;
  int *stopped_by; /* out, may be NULL: the signal that interrupted the suite, else 0 */
  /* Parts (bench/cli/merge.c): with nparts > 0, run only part `part` (1..nparts) of the
   * table's experiments (fb_schedule.h) and write its rows, orders, trajectories and
   * part.json; `fricbench merge` reassembles the parts. */
  size_t part, nparts;
  /* The experiments to run; NULL: the default table (fb_table_default). */
  const fb_table *table;
  /* How the table was made ("key value" items: the plugins, plan, filters, settings;
   * bench/cli/cmd_suite.c), kept in the journal so that --resume makes it again. */
  const char *const *recipe;
  size_t nrecipe;
} fb_suite_opts;

void fb_suite_opts_default(fb_suite_opts *o);

/* For `--resume DIR` (o->out_dir): read DIR/journal's header and set the options that
 * change results (quick, samples, max_steps, max_rhs, part, nparts) to the interrupted
 * suite's (a part resumes as that part, without plots), and return how its table was made
 * in *recipe (free with fb_journal_recipe_free) and *nrecipe.
 * FB_EINVAL with err set when DIR holds no valid journal. */
int fb_suite_resume_opts(fb_suite_opts *o, char ***recipe, size_t *nrecipe, fb_err *err);

/* Run the suite; writes everything under o->out_dir (created).  Returns FB_OK, or a
 * failure with err set (bad options, unwritable directory). */
int fb_suite_run(const fb_suite_opts *o, const char *argv0, fb_err *err);

/* Write DIR/part.json: which part of how many, of how many runs, with which options
 * (bench/cli/merge.c). */
int fb_part_info_write(const char *dir, const fb_suite_opts *o, size_t njobs, fb_err *err);
/* `suite --emit-jobs FILE`: one `fricbench suite --part I/K --out DIR/part-I ...` command
 * per line (bench/cli/merge.c). */
int fb_emit_jobs(const fb_suite_opts *o, const char *file, const char *argv0, fb_err *err);
/* --part I/K, --parts K, --emit-jobs FILE of `suite` (c: 'p', 'K', 'E'): parse into o and
 * *emit; and check the combination.  FB_EXIT_OK or FB_EXIT_USAGE (message printed). */
int fb_suite_dist_option(int c, const char *arg, fb_suite_opts *o, const char **emit);
int fb_suite_dist_check(fb_suite_opts *o, const char *emit, int resume);
/* `fricbench merge` */
int fb_cmd_merge(int argc, char **argv);

/* `fricbench suite` */
int fb_cmd_suite(int argc, char **argv);

#endif
