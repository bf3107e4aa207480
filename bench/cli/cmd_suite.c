/* cmd_suite.c — `fricbench suite [--quick] [--out DIR] [--jobs N] ...`. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fb_cli.h"
#include "fb_io.h"
#include "fb_manifest.h"
#include "fb_plan.h"
#include "fb_suite.h"
#include "fb_version.h"

static const char suite_help[] =
    "usage: fricbench suite [--quick] [--out DIR] [--jobs N] [--samples N]\n"
    "                       [--max-steps N] [--max-rhs N] [--no-plots]\n"
    "       fricbench suite [--plan FILE] [--scenario S]... [--model M]... [--integrator I]...\n"
    "                       [--set NAME=VALUE]... [--h H] [--tol TOL] [--out DIR] ...\n"
    "       fricbench suite [--plan FILE] [filters] --print-plan\n"
    "       fricbench suite --resume DIR [--jobs N] [--no-plots]\n"
    "\n"
    "Runs the default experiment table (every scenario x every model x the integrators that\n"
    "suit it x the sweeps: step ladders, tolerance ladders, friction coefficient, the\n"
    "regularization parameter, [Engleder2002]'s eps x h grid) and writes under DIR: runs.csv (one\n"
    "row per run, columns in results/README.md), orders.csv, traj/, plots/, report.html,\n"
    "meta.json.\n"
    "\n"
    "  --quick          the small CI subset (seconds)\n"
    "  --out DIR        output directory (default results/<date>-<git rev>)\n"
    "  --jobs N         threads, and gnuplot processes (default: the machine's cores)\n"
    "  --samples N      output grid points per run (default 2001)\n"
    "  --max-steps N    per-run step budget (default 2000000)\n"
    "  --max-rhs N      per-run RHS budget (default 40000000)\n"
    "  --no-plots       skip plots and report.html\n"
    "  --plan FILE      run the experiments of FILE (INI, docs/plans.md) instead of the\n"
    "                   default table\n"
    "  --print-plan     print the table (after the options below) as a plan and exit\n"
    "  --scenario S     keep the experiments on scenario S (repeatable)\n"
    "  --model M        keep the experiments of model M (repeatable)\n"
    "  --integrator I   keep the experiments with integrator I (repeatable; a model's\n"
    "                   default counts as named)\n"
    "  --set NAME=VALUE set a parameter in every experiment whose scenario or model has\n"
    "                   it (scenario./model. prefixes as in run; repeatable)\n"
    "  --h H            the fixed-step view at your step: every selected model on every\n"
    "                   selected scenario at H and H/4 with its fixed-step integrator\n"
    "                   (see 'fricbench list'), replacing the default view's steps\n"
    "  --tol TOL        the tolerance of every adaptive run that sweeps neither h nor tol\n"
    "  --traj WHICH     trajectories kept: report (default: those the report draws),\n"
    "                   none (smallest directory; the report then has no overlays) or all\n"
    "  --resume DIR     finish an interrupted suite: run only the jobs missing from\n"
    "                   DIR/journal, with its options; the result equals an\n"
    "                   uninterrupted run apart from the timing columns\n"
    "  --emit-jobs FILE write FILE, one independent command per line (--parts K of\n"
    "                   them, default 16), each running part I of the table into\n"
    "                   DIR/part-I; run them with GNU Parallel (parallel -a FILE, or\n"
    "                   over ssh with --sshloginfile) or a Slurm job array\n"
    "                   (scripts/slurm_array.sh FILE), then: fricbench merge DIR\n"
    "  --part I/K       run only part I of K (what --emit-jobs lines do)\n"
    "  -h, --help       this help\n"
    "\n"
    "SIGINT or SIGTERM stops the suite cleanly: no new job starts, running ones are\n"
    "abandoned, runs.csv gets the finished rows, and the exit status is 130 (SIGINT) or\n"
    "143 (SIGTERM); every finished job is in DIR/journal for --resume.\n";

/* A count option of suite: an integer in its range, or exit 2 naming the option. */
static int suite_count(int c, const char *text, unsigned long *out)
{
  const char *name = c == 'j' ? "--jobs" : c == 's' ? "--samples" : c == 'S' ? "--max-steps"
                                                                              : "--max-rhs";
  const unsigned long lo = c == 's' ? 2UL : 1UL;
  const unsigned long hi = c == 'j' ? 256UL : c == 's' ? FB_MAX_SAMPLES : FB_MAX_BUDGET;
  if (fb_parse_ulong(text, out) != FB_OK || *out < lo || *out > hi) {
    fprintf(stderr, "fricbench: %s '%s' is not allowed: use an integer in [%lu, %lu]\n", name,
            text, lo, hi);
    return FB_EXIT_USAGE;
  }
  return FB_EXIT_OK;
}

/* --resume DIR takes the options that change results from DIR/journal: giving them too
 * (or --out) is a conflict. */
static int resume_setup(fb_suite_opts *o, const char *dir, const char *conflict)
{
  if (conflict != NULL) {
    fprintf(stderr, "fricbench: --resume and %s exclude each other: a resumed suite keeps its "
                    "directory and options (only --jobs and --no-plots may be given)\n",
            conflict);
    return FB_EXIT_USAGE;
  }
  if (dir[0] == '\0') {
    fputs("fricbench: --resume: empty directory name: give an interrupted suite's directory\n",
          stderr);
    return FB_EXIT_USAGE;
  }
  o->out_dir = dir;
  o->resume = 1;
  fb_err err = {{0}};
  if (fb_suite_resume_opts(o, &err) != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return FB_EXIT_USAGE;
  }
  /* a SIGKILLed suite leaves its temporaries (plots/, traj/): they are not results */
  const size_t stale = fb_remove_stale_tmp(dir);
  if (stale > 0)
    fprintf(stderr, "fricbench suite: removed %zu stale temporary files from %s\n", stale, dir);
  return FB_EXIT_OK;
}

static int suite_cmd(int argc, char **argv, const char **lists, fb_table *table)
{
  static const struct option opts[] = {
      {"quick", no_argument, NULL, 'q'},      {"out", required_argument, NULL, 'o'},
      {"jobs", required_argument, NULL, 'j'}, {"samples", required_argument, NULL, 's'},
      {"max-steps", required_argument, NULL, 'S'}, {"max-rhs", required_argument, NULL, 'R'},
      {"no-plots", no_argument, NULL, 'P'},   {"help", no_argument, NULL, 'h'},
      {"resume", required_argument, NULL, 'r'},
      {"part", required_argument, NULL, 'p'}, {"parts", required_argument, NULL, 'K'},
      {"emit-jobs", required_argument, NULL, 'E'},
      {"plan", required_argument, NULL, 'L'}, {"print-plan", no_argument, NULL, 'D'},
      {"scenario", required_argument, NULL, 1}, {"model", required_argument, NULL, 2},
      {"integrator", required_argument, NULL, 3}, {"set", required_argument, NULL, 4},
      {"h", required_argument, NULL, 5}, {"tol", required_argument, NULL, 6},
      {"traj", required_argument, NULL, 7},
      {NULL, 0, NULL, 0},
  };
  fb_suite_opts o;
  fb_suite_opts_default(&o);
  char defdir[256];
  int c;
  unsigned long v;
  const char *resume_dir = NULL, *conflict = NULL; /* --resume and what it excludes */
  const char *emit = NULL; /* --emit-jobs FILE (bench/cli/merge.c) */
  fb_select sel;
  fb_select_init(&sel);
  sel.scenarios = lists;
  sel.models = lists + argc + 1;
  sel.integrators = lists + 2 * argc + 2;
  sel.sets = lists + 3 * argc + 3;
  size_t *counts[] = {&sel.nscenarios, &sel.nmodels, &sel.nintegrators, &sel.nsets};
  const char *plan = NULL, *selecting = NULL;
  int print_plan = 0;
  int traj = -1; /* --traj: 0 none, 1 report (the table's), 2 all; -1 not given */
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:j:h", opts, NULL)) != -1) {
    switch (c) {
    case 1:
    case 2:
    case 3:
    case 4:
      lists[(size_t)(c - 1) * ((size_t)argc + 1) + (*counts[c - 1])++] = optarg;
      selecting = argv[optind - 1];
      break;
    case 5:
    case 6: { /* run's number parser; the range is the runs' own (fb_table_validate) */
      double x;
      char typed[80];
      fb_text_escape(optarg, typed, sizeof typed);
      const char *why = fb_parse_double_why(optarg, &x);
      if (why != NULL || !(x > 0)) {
        fprintf(stderr, "fricbench: --%s '%s' %s: give a positive number\n",
                c == 5 ? "h" : "tol", typed, why != NULL ? why : "is not allowed");
        return FB_EXIT_USAGE;
      }
      *(c == 5 ? &sel.h : &sel.tol) = x;
      selecting = c == 5 ? "--h" : "--tol";
      break;
    }
    case 7:
      traj = !strcmp(optarg, "none") ? 0 : !strcmp(optarg, "report") ? 1
                                         : !strcmp(optarg, "all")    ? 2
                                                                     : -2;
      if (traj == -2) {
        fprintf(stderr, "fricbench: --traj '%s' is not allowed: use none, report or all\n",
                optarg);
        return FB_EXIT_USAGE;
      }
      if (traj != 1)
        selecting = "--traj";
      break;
    case 'L': plan = optarg; selecting = "--plan"; break;
    case 'D': print_plan = 1; break;
    case 'q': o.quick = 1; conflict = "--quick"; break;
    case 'o': o.out_dir = optarg; conflict = "--out"; break;
    case 'r': resume_dir = optarg; break;
    case 'p':
    case 'K':
    case 'E':
      if (fb_suite_dist_option(c, optarg, &o, &emit) != FB_EXIT_OK)
        return FB_EXIT_USAGE;
      break;
    case 'P': o.plots = 0; break;
    case 'h': fputs(suite_help, stdout); return FB_EXIT_OK;
    case 'j':
    case 's':
    case 'S':
    case 'R':
      if (suite_count(c, optarg, &v) != FB_EXIT_OK)
        return FB_EXIT_USAGE;
      if (c != 'j')
        conflict = c == 's' ? "--samples" : c == 'S' ? "--max-steps" : "--max-rhs";
      if (c == 'j')
        o.jobs = (int)v;
      else if (c == 's')
        o.samples = v;
      else if (c == 'S')
        o.max_steps = v;
      else
        o.max_rhs = v;
      break;
    case ':':
      fprintf(stderr, "fricbench: option %s needs a value\n", argv[optind - 1]);
      return FB_EXIT_USAGE;
    default:
      fprintf(stderr, "fricbench: unknown option '%s' for suite: see 'fricbench suite --help'\n",
              argv[optind - 1]);
      return FB_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "fricbench: unexpected argument '%s' for suite: see 'fricbench suite --help'\n",
            argv[optind]);
    return FB_EXIT_USAGE;
  }
  if (o.out_dir == NULL) {
    char day[32];
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(day, sizeof day, "%Y-%m-%d", &tmv);
    snprintf(defdir, sizeof defdir, "results/%s-%s%s", day, FB_GIT_REV, o.quick ? "-quick" : "");
    o.out_dir = defdir;
  } else if (o.out_dir[0] == '\0') {
    fputs("fricbench: --out: empty directory name: give a directory path\n", stderr);
    return FB_EXIT_USAGE;
  }
  fb_err err = {{0}};
  if (selecting != NULL || print_plan) { /* the table on the user's terms, checked now:
                                            bad input leaves no directory behind */
    if (resume_dir != NULL || emit != NULL || o.nparts > 0) {
      fprintf(stderr, "fricbench: %s cannot be combined with --resume, --emit-jobs or --part "
                      "yet: run the selection in one suite\n",
              selecting != NULL ? selecting : "--print-plan");
      return FB_EXIT_USAGE;
    }
    int pst = plan != NULL ? fb_plan_load(table, plan, &err) : fb_table_default(table);
    if (pst == FB_OK)
      pst = fb_table_select(table, &sel, &err);
    if (pst == FB_OK) /* every run set up by run's rules: no directory for a doomed table */
      pst = fb_table_validate(table, o.samples, &err);
    if (pst != FB_OK) {
      fprintf(stderr, "fricbench: %s\n", err.msg);
      return pst == FB_ENOMEM ? FB_EXIT_RUNTIME : FB_EXIT_USAGE;
    }
    for (size_t i = 0; traj == 0 || traj == 2 ? i < table->n : 0; i++) {
      table->e[i].flags = traj == 2 ? table->e[i].flags | FB_EXP_TRAJ
                                    : table->e[i].flags & ~(unsigned)FB_EXP_TRAJ;
      if (traj == 2) /* all: whole trajectories, not the report's windows */
        table->e[i].traj_tail = 0.0;
    }
    if (print_plan) {
      fb_plan_print(table, stdout);
      return fflush(stdout) == 0 ? FB_EXIT_OK : FB_EXIT_RUNTIME;
    }
    o.table = table;
  }
  if (emit != NULL || o.nparts > 0) { /* --emit-jobs, --part: bench/cli/merge.c */
    const int drc = fb_suite_dist_check(&o, emit, resume_dir != NULL);
    if (drc != FB_EXIT_OK || emit != NULL)
      return drc != FB_EXIT_OK ? drc : fb_emit_jobs(&o, emit, argv[0], &err) == FB_OK
                                           ? FB_EXIT_OK
                                           : (fprintf(stderr, "fricbench: %s\n", err.msg),
                                              FB_EXIT_USAGE);
  }
  if (resume_dir != NULL) { /* after the part check: a part's journal restores its part */
    const int rrc = resume_setup(&o, resume_dir, conflict);
    if (rrc != FB_EXIT_OK)
      return rrc;
  }
  if (o.part != 0) /* a part's manifest says it finished: not while it runs again */
    fb_manifest_remove(o.out_dir);
  int sig = 0;
  o.handle_signals = 1;
  o.stopped_by = &sig;
  int st = fb_suite_run(&o, argv[0], &err);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    if (st == FB_EINTR) /* the shell's convention for death by a signal */
      return 128 + (sig > 0 ? sig : SIGINT);
    return st == FB_EINVAL ? FB_EXIT_USAGE : FB_EXIT_RUNTIME;
  }
  return FB_EXIT_OK;
}

int fb_cmd_suite(int argc, char **argv)
{
  /* the selection's name lists (bench/suite/plan.c): at most argc names each */
  const char **lists = calloc(4 * (size_t)argc + 4, sizeof *lists);
  if (lists == NULL) {
    fputs("fricbench: out of memory\n", stderr);
    return FB_EXIT_RUNTIME;
  }
  fb_table table = {0};
  const int rc = suite_cmd(argc, argv, lists, &table);
  fb_table_free(&table);
  free(lists);
  return rc;
}
