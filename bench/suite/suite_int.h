/* suite_int.h — what the suite's files share: bench/suite/suite.c (expansion, references, jobs,
 * threads, resume) and suite_write.c (runs.csv, orders.csv, meta.json).  Private: not
 * installed, not part of the fb_ API. */
#ifndef FB_SUITE_INT_H
#define FB_SUITE_INT_H

#include <errno.h>
#include <gsl/gsl_version.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "fb_gzcsv.h"
#include "fb_suite.h"
#include "fb_io.h"
#include "fb_contact_metrics.h"
#include "fb_own_ref.h"
#include "fb_run_metrics.h"
#include "fb_manifest.h"
#include "fb_report.h"
#include "fb_verdicts.h"
#include "fb_seed_claims.h"
#include "fb_frame_metrics.h"
#include "fb_resume.h"
#include "fb_schedule.h"
#include "fb_version.h"

#ifndef FB_BUILD_INFO
#define FB_BUILD_INFO "unknown"
#endif
#ifndef FB_VERSION
#define FB_VERSION "unknown"
#endif

/* One reference per distinct scenario variant. */
typedef struct ref_entry {
  char *key;        /* scenario name + its resolved parameters */
  size_t job;       /* a job whose scenario variant this is */
  const char *tag;  /* label for the trajectory file */
  int want_traj;
  fb_reference ref;
  int kind;         /* FB_REF_EXACT, FB_REF_EVENT, FB_REF_NONE (unavailable) */
  int status;
  char message[FB_ERR_LEN];
  int needed;       /* resume: a job still to run uses it, or its file is missing */
  /* a model's own reference (fb_own_ref.h) instead of the scenario's Coulomb one */
  int own;
  size_t coul;         /* the Coulomb reference of the same scenario variant */
  fb_own_method om;
  double acc;          /* its accuracy estimate (L2 of x) */
  double mod_x, mod_v; /* modelling error: it against the Coulomb reference */
  /* plants with normal contacts: the contact reference (newton's statistics, fb_contact_
   * metrics.h), cst_ok when it was computed */
  fb_impact_stats *cst;
  int cst_ok;
  /* the contact reference solves the plant under `newton` whatever the variant's normal
   * treatment: variants that differ in that alone share it.  ckey: the variant without its
   * normal treatment, with the model and its parameters (the solve's inputs); cst_src: the
   * entry that computes it (SIZE_MAX: this one), copied after the references */
  char *ckey;
  size_t cst_src;
} ref_entry;

typedef struct job {
  const fb_experiment *exp;
  double value;        /* the swept value, NaN when none */
  fb_case cs;
  int ready;           /* case prepared */
  int status;          /* of setup or of the run */
  char message[FB_ERR_LEN];
  char sparams[1024];  /* scenario parameters, resolved */
  char mparams[512];   /* model parameters, as set (auto shown as auto) */
  size_t ref;          /* index into the reference table */
  size_t own;          /* the model's own reference in the same table, SIZE_MAX: none */
  fb_run_result res;
  fb_metrics m;
  /* FB_EXP_BISECT (bench/suite/bisect.c): the row's step (the largest stable one found, or
   * the lower bound when that is not stable) and the smallest unstable step found (NaN:
   * none); journaled, since a resumed job's case is still at the lower bound */
  double bis_h, bis_hu;
  int done;            /* resume: finished (run now, taken from the journal, or not ready) */
  int ref_kind;        /* resume: the reference kind the job was scored against, once done */
  double cost_run, cost_score, cost_traj; /* CPU of its runs (every probe; this process's
                                           * threads only), of their scoring and of its
                                           * trajectory file */
  double cost_engine; /* CPU of an engine's own process in its runs (node) */
} job;

/* Where the CPU goes (bench/suite/cost.c): a row per group or kind of reference. */
#define COST_ROWS 48
typedef struct cost_row {
  char name[48];
  size_t n;
  double cpu[4]; /* a group: runs, scoring, trajectory files, the rest; a reference: cpu[0] */
} cost_row;
enum { COST_START, COST_EXPANDED, COST_REFS, COST_RUNS, COST_TABLES, COST_REPORT, COST_END,
       COST_MARKS };
typedef struct suite_cost {
  cost_row groups[COST_ROWS], refs[COST_ROWS];
  size_t ngroups, nrefs;
  double proc0, child0; /* process and reaped children's CPU at COST_START */
  double mark_proc[COST_MARKS], mark_child[COST_MARKS];
  double engine; /* engines' own processes in the runs (their runs' cpu_child_s) */
} suite_cost;

typedef struct suite {
  const fb_suite_opts *o;
  job *jobs;
  size_t njobs;
  ref_entry *refs;
  size_t nrefs;
  /* work distribution and progress */
  pthread_mutex_t lock;
  size_t next, done, total;
  double t_start, last_print;
  const char *phase;
  /* resumable suites (fb_resume.h; the functions after write_meta) */
  atomic_int stop;       /* the signal that interrupts the suite, 0 until then */
  fb_sigwatch watch;
  fb_journal journal;
  int have_journal;
  int journal_failed;    /* an append failed: --resume would rerun from there */
  char journal_err[FB_ERR_LEN];
  int partial;           /* write_runs: finished rows only */
  size_t resumed;        /* jobs taken from the journal */
  /* scheduling and parts (bench/suite/schedule.c; the functions at the end of this file) */
  const fb_table *table;  /* the experiments (o->table or own_table) */
  fb_table own_table;     /* the default table, when o->table is NULL */
  size_t *order;          /* this phase's job or reference indices in dispatch order */
  size_t norder;
  unsigned char *sel;     /* --part: 1 for the jobs of this part; NULL: every job */
  /* plots drawn during the runs (fb_report.h's early plots): a job's plot key (the first
   * job of its group and scenario; SIZE_MAX: none), per key the jobs still to finish */
  fb_report_early *early;
  size_t *early_key, *early_left;
  suite_cost cost;
} suite;

typedef enum { PHASE_REFS, PHASE_RUNS } phase_kind;
typedef struct worker_arg {
  suite *S;
  phase_kind phase;
} worker_arg;

/* Run case cs (prepared, of job jb's scenario variant and model parameters) into tr and
 * score it against jb's references as every job is: the scenario's reference, the model's
 * own one, the stability index.  Returns the run's status; *res and *m filled. */
int run_scored(suite *S, job *jb, fb_case *cs, fb_trace *tr, fb_run_result *res,
               fb_metrics *m);
/* A FB_EXP_BISECT job (bench/suite/bisect.c): the bisection for its stable step. */
void job_run_bisect(suite *S, job *jb);
/* The step in runs.csv's h column and the sweep_value of a (ready) job. */
double job_row_h(const job *jb);
double job_row_value(const job *jb);

void count_runs(const suite *S, fb_run_tally *t);

/* bench/suite/contact_share.c: at a new Coulomb reference r, whether an earlier entry's
 * contact reference is the same solve (its cst_src then; SIZE_MAX: r solves it); after
 * the references, the shared ones copied to the entries that share them. */
void contact_share(suite *S, size_t r);
void contact_copy(suite *S);

/* bench/suite/cost.c: this thread's CPU clock; a finished job's parts (total: the whole
 * job); a reference's solve of kind (e.g. "coulomb", "own rk4imp"); the process's and
 * children's CPU at a point of the suite (COST_*); meta.json's "cpu_s"; the stderr line. */
double cost_now(void);
void cost_add_job(suite *S, const char *group, double run, double score, double traj,
                  double engine, double total);
void cost_add_ref(suite *S, const char *kind, double cpu);
void cost_mark(suite *S, int what);
json_t *cost_json(const suite *S);
void cost_print(const suite *S, FILE *fp);
int job_ref_kind(const suite *S, const job *jb);
int write_meta(const suite *S, const char *path, double wall, const char *date,
                      fb_err *err);
int write_orders(const suite *S, const char *path, fb_err *err);
int write_runs(const suite *S, const char *path, fb_err *err);
/* runs.csv's nlsetups cell of a run of integrator it with counters c (suite_write.c). */
void fb_lsetups_cell(FILE *fp, const fb_integrator_type *it, const fb_counters *c);
/* runs.csv's header and the rows of early plot key `key` as write_runs writes them, into
 * a malloc'ed *text of *len bytes: 0, or -1 (out of memory). */
int runs_text_of_key(const suite *S, size_t key, char **text, size_t *len);

#endif
