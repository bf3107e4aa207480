/* cmd_suite.c — `fricbench suite [--quick] [--out DIR] [--jobs N] ...`. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
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
#include "fb_plugin.h"
#include "fb_resume.h"
#include "fb_report.h"
#include "fb_suite.h"
#include "fb_version.h"
#include "fb_parse.h"

static const char suite_help[] =
    "usage: fricbench suite [--quick] [--out DIR] [--jobs N] [--samples N]\n"
    "                       [--max-steps N] [--max-rhs N] [--no-plots] [--svg]\n"
    "       fricbench suite [--plan FILE] [--scenario S]... [--model M]... [--integrator I]...\n"
    "                       [--set NAME=VALUE]... [--h H] [--tol TOL] [--out DIR] ...\n"
    "       fricbench suite [--plan FILE] [filters] --print-plan\n"
    "       fricbench suite --resume DIR [--jobs N] [--no-plots] [--svg]\n"
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
    "  --svg            also draw an SVG of every plot but the trajectory overlays\n"
    "                   (plots/<name>.svg; not drawn by default, to keep DIR small)\n"
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
    "                   DIR/journal, with its options, plan, filters, settings and\n"
    "                   plugins (refused if the plan or a plugin changed); the result\n"
    "                   equals an uninterrupted run apart from the timing columns\n"
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

/* ---- how the table was made (the journal's R lines, fb_resume.h) ------------------------ *
 * A plan, filters, settings and plugins make a table other than the default: the journal
 * keeps them as "key value" items so that `--resume DIR` alone makes the same table again.
 * Files (the plan, each plugin) are kept by absolute path and content hash: a resume with
 * a changed or missing file is refused, naming it, rather than run on another table. */

typedef struct recipe {
  char **items; /* "key value" */
  size_t n;
  const char **lists; /* a resumed selection's name lists (fb_select points into them) */
} recipe;

static void recipe_free(recipe *r)
{
  fb_journal_recipe_free(r->items, r->n);
  free(r->lists);
  memset(r, 0, sizeof *r);
}

static int recipe_add(recipe *r, const char *key, const char *value)
{
  const size_t len = strlen(key) + strlen(value) + 2;
  char **nv = realloc(r->items, (r->n + 1) * sizeof *nv);
  if (nv == NULL)
    return FB_ENOMEM;
  r->items = nv;
  if ((nv[r->n] = malloc(len)) == NULL)
    return FB_ENOMEM;
  snprintf(nv[r->n++], len, "%s %s", key, value);
  return FB_OK;
}

/* "<hash> <absolute path>" of a file, or FB_EINVAL with err naming what and why. */
static int file_id(const char *what, const char *file, char *buf, size_t len, fb_err *err)
{
  char *abs = realpath(file, NULL);
  size_t size;
  uint64_t h;
  if (abs == NULL || fb_hash64_file(abs, &size, &h) != 0) {
    const int e = errno;
    free(abs);
    fb_err_set(err, FB_EINVAL, "%s '%s' cannot be read: %s", what, file, strerror(e));
    errno = e; /* for recipe_file's message */
    return FB_EINVAL;
  }
  snprintf(buf, len, "%016" PRIx64 " %s", h, abs);
  free(abs);
  return FB_OK;
}

/* The items of a new suite: every loaded plugin (they join the default table too), then
 * the plan and the selection as given.  FB_EINVAL (err set) when one cannot be kept. */
static int recipe_make(recipe *r, const char *plan, const fb_select *sel, int traj, fb_err *err)
{
  char buf[8400];
  int st = FB_OK;
  for (size_t i = 0; i < fb_plugin_count() && st == FB_OK; i++)
    if ((st = file_id("plugin", fb_plugin_path(i), buf, sizeof buf, err)) == FB_OK)
      st = recipe_add(r, "plugin", buf);
  if (plan != NULL && st == FB_OK && (st = file_id("plan", plan, buf, sizeof buf, err)) == FB_OK)
    st = recipe_add(r, "plan", buf);
  static const char *const keys[] = {"scenario", "model", "integrator", "set"};
  const char *const *lists[] = {sel->scenarios, sel->models, sel->integrators, sel->sets};
  const size_t counts[] = {sel->nscenarios, sel->nmodels, sel->nintegrators, sel->nsets};
  for (size_t k = 0; k < 4; k++)
    for (size_t i = 0; i < counts[k] && st == FB_OK; i++)
      st = recipe_add(r, keys[k], lists[k][i]);
  const double nums[] = {sel->h, sel->tol};
  for (size_t k = 0; k < 2 && st == FB_OK; k++)
    if (!isnan(nums[k])) {
      snprintf(buf, sizeof buf, "%.17g", nums[k]); /* strtod reads it back bit for bit */
      st = recipe_add(r, k == 0 ? "h" : "tol", buf);
    }
  if ((traj == 0 || traj == 2) && st == FB_OK) { /* report is the default */
    snprintf(buf, sizeof buf, "%d", traj);
    st = recipe_add(r, "traj", buf);
  }
  if (st == FB_ENOMEM)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t i = 0; i < r->n && st == FB_OK; i++) /* refused now, not after DIR is made */
    if (fb_journal_format_item(r->items[i], buf, sizeof buf) == 0)
      st = fb_err_set(err, FB_EINVAL, "'%.40s...' is too long to be kept in the suite's "
                      "journal for --resume", r->items[i]);
  return st;
}

/* A file item of a resumed suite ("<hash> <path>"): the same bytes as when the suite
 * started, and the plugin loaded.  *path points into the item. */
static int recipe_file(const char *dir, const char *key, const char *v, const char **path,
                       fb_err *err)
{
  char want[8400];
  if (strlen(v) < 18 || v[16] != ' ')
    return fb_err_set(err, FB_EINVAL, "--resume '%s': its journal's %s item is damaged: rerun "
                      "it without --resume", dir, key);
  *path = v + 17;
  fb_err e = {{0}};
  if (file_id(key, *path, want, sizeof want, &e) != FB_OK)
    return fb_err_set(err, FB_EINVAL, "--resume '%s': the suite ran with %s %s, which cannot "
                      "be read now (%s): put it back or rerun without --resume", dir, key,
                      *path, strerror(errno));
  if (strncmp(want, v, 16) != 0)
    return fb_err_set(err, FB_EINVAL, "--resume '%s': %s %s changed since the suite started "
                      "(its content hash is %.16s, the journal's %.16s): put the original "
                      "back or rerun without --resume", dir, key, *path, want, v);
  if (strcmp(key, "plugin") == 0 && fb_plugin_load(*path, &e) != FB_OK)
    return fb_err_set(err, FB_EINVAL, "--resume '%s': %s", dir, e.msg);
  return FB_OK;
}

/* Make a resumed suite's plugins, plan and selection from its journal's items. */
static int recipe_replay(recipe *r, const char *dir, const char **plan, fb_select *sel,
                         int *traj, fb_err *err)
{
  static const char *const keys[] = {"scenario", "model", "integrator", "set"};
  const char **lists[] = {NULL, NULL, NULL, NULL};
  size_t *counts[] = {&sel->nscenarios, &sel->nmodels, &sel->nintegrators, &sel->nsets};
  r->lists = calloc(4 * r->n + 4, sizeof *r->lists);
  if (r->lists == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t k = 0; k < 4; k++)
    lists[k] = r->lists + k * (r->n + 1);
  sel->scenarios = lists[0];
  sel->models = lists[1];
  sel->integrators = lists[2];
  sel->sets = lists[3];
  for (size_t i = 0; i < r->n; i++) {
    char *key = r->items[i], *v = strchr(key, ' '), *end;
    if (v == NULL)
      v = key + strlen(key);
    else
      *v++ = '\0'; /* the item is ours: split in place */
    size_t k = 0;
    while (k < 4 && strcmp(key, keys[k]) != 0)
      k++;
    int known = 1;
    if (k < 4) {
      lists[k][(*counts[k])++] = v;
    } else if (!strcmp(key, "plugin") || !strcmp(key, "plan")) {
      const char *path = NULL;
      const int st = recipe_file(dir, key, v, &path, err);
      if (st != FB_OK)
        return st;
      if (!strcmp(key, "plan"))
        *plan = path;
    } else if (!strcmp(key, "h") || !strcmp(key, "tol")) {
      *(key[0] == 'h' ? &sel->h : &sel->tol) = strtod(v, &end);
      known = end != v && *end == '\0';
    } else if (!strcmp(key, "traj") && (v[0] >= '0' && v[0] <= '2') && v[1] == '\0') {
      *traj = v[0] - '0';
    } else {
      known = 0;
    }
    if (!known)
      return fb_err_set(err, FB_EINVAL, "--resume '%s': its journal keeps '%.40s %.40s', which "
                        "this fricbench does not know: rerun it without --resume", dir, key, v);
  }
  return FB_OK;
}

/* --resume DIR takes the options that change results and how the table was made from
 * DIR/journal: giving them too (or --out) is a conflict. */
static int resume_setup(fb_suite_opts *o, const char *dir, const char *conflict, recipe *r,
                        const char **plan, fb_select *sel, int *traj)
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
  int st = fb_suite_resume_opts(o, &r->items, &r->n, &err);
  if (st == FB_OK)
    st = recipe_replay(r, dir, plan, sel, traj, &err);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return st == FB_ENOMEM ? FB_EXIT_RUNTIME : FB_EXIT_USAGE;
  }
  /* a SIGKILLed suite leaves its temporaries (plots/, traj/): they are not results */
  const size_t stale = fb_remove_stale_tmp(dir);
  if (stale > 0)
    fprintf(stderr, "fricbench suite: removed %zu stale temporary files from %s\n", stale, dir);
  return FB_EXIT_OK;
}

/* The table of a plan (or the default one) with a selection and --traj applied. */
static int make_table(fb_table *table, const char *plan, const fb_select *sel, int traj,
                      size_t samples, fb_err *err)
{
  int st = plan != NULL ? fb_plan_load(table, plan, err) : fb_table_default(table);
  if (st == FB_OK)
    st = fb_table_select(table, sel, err);
  if (st == FB_OK) /* every run set up by run's rules: no directory for a doomed table */
    st = fb_table_validate(table, samples, err);
  if (st != FB_OK)
    return st;
  for (size_t i = 0; traj == 0 || traj == 2 ? i < table->n : 0; i++) {
    table->e[i].flags = traj == 2 ? table->e[i].flags | FB_EXP_TRAJ
                                  : table->e[i].flags & ~(unsigned)FB_EXP_TRAJ;
    if (traj == 2) { /* all: whole trajectories, not the report's windows and DOFs */
      table->e[i].traj_tail = 0.0;
      table->e[i].traj_dofs = 0;
    }
  }
  return FB_OK;
}

/* The modes that exclude each other: a selection with --resume, --print-plan with
 * --emit-jobs or --part, and --emit-jobs, --part and --resume among themselves
 * (bench/cli/merge.c).  A selection (a plan, filters, settings) may be split: each part
 * makes the same table from the same options, which the emitted lines repeat.
 * FB_EXIT_OK to go on, else an exit status. */
static int suite_modes(fb_suite_opts *o, const char *selecting, int print_plan,
                       const char *resume_dir, const char *emit)
{
  if ((selecting != NULL || print_plan) && resume_dir != NULL) {
    fprintf(stderr, "fricbench: --resume and %s exclude each other: a resumed suite makes "
                    "its table as its journal says (only --jobs and --no-plots may be given)\n",
            selecting != NULL ? selecting : "--print-plan");
    return FB_EXIT_USAGE;
  }
  if (emit == NULL && o->nparts == 0)
    return FB_EXIT_OK;
  if (print_plan) {
    fputs("fricbench: --print-plan cannot be combined with --emit-jobs or --part: print the "
          "plan, then split it\n", stderr);
    return FB_EXIT_USAGE;
  }
  return fb_suite_dist_check(o, emit, resume_dir != NULL);
}

/* The table to run (o->table; NULL: the default) and how it was made (o->recipe): a resumed
 * suite's from its journal, else the options'.  FB_EXIT_OK, -1 when --print-plan has
 * printed it, else an exit status (message printed). */
static int suite_table(fb_suite_opts *o, const char *resume_dir, const char *conflict,
                       const char *selecting, int print_plan, const char *plan, fb_select *sel,
                       int traj, fb_table *table, recipe *rcp)
{
  fb_err err = {{0}};
  if (resume_dir != NULL) {
    fb_select_init(sel);
    traj = -1;
    const int rrc = resume_setup(o, resume_dir, conflict, rcp, &plan, sel, &traj);
    if (rrc != FB_EXIT_OK)
      return rrc;
    if (plan != NULL || sel->nscenarios + sel->nmodels + sel->nintegrators + sel->nsets > 0 ||
        !isnan(sel->h) || !isnan(sel->tol) || traj >= 0)
      selecting = "the journal's table";
  }
  if (selecting != NULL || print_plan) { /* the table on the user's terms, checked now:
                                            bad input leaves no directory behind */
    const int trc = make_table(table, plan, sel, traj, o->samples, &err);
    if (trc != FB_OK) {
      fprintf(stderr, "fricbench: %s\n", err.msg);
      return trc == FB_ENOMEM ? FB_EXIT_RUNTIME : FB_EXIT_USAGE;
    }
    if (print_plan) {
      fb_plan_print(table, stdout);
      return fflush(stdout) == 0 ? -1 : FB_EXIT_RUNTIME;
    }
    o->table = table;
  }
  if (resume_dir == NULL) { /* kept in the journal: --resume makes the same table */
    const int mst = recipe_make(rcp, plan, sel, traj, &err);
    if (mst != FB_OK) {
      fprintf(stderr, "fricbench: %s\n", err.msg);
      return mst == FB_ENOMEM ? FB_EXIT_RUNTIME : FB_EXIT_USAGE;
    }
    o->recipe = (const char *const *)rcp->items;
    o->nrecipe = rcp->n;
  }
  return FB_EXIT_OK;
}

/* --h or --tol (`name`) VALUE: run's number parser; the range is the runs' own
 * (fb_table_validate).  FB_EXIT_OK, or FB_EXIT_USAGE with the message said. */
static int suite_step_option(const char *name, const char *arg, double *out)
{
  double x;
  char typed[80];
  fb_text_escape(arg, typed, sizeof typed);
  const char *why = fb_parse_double_why(arg, &x);
  if (why != NULL || !(x > 0)) {
    fprintf(stderr, "fricbench: --%s '%s' %s: give a positive number\n", name, typed,
            why != NULL ? why : "is not allowed");
    return FB_EXIT_USAGE;
  }
  *out = x;
  return FB_EXIT_OK;
}

/* --traj WHICH: *traj 0 none, 1 report, 2 all.  FB_EXIT_OK, or FB_EXIT_USAGE said. */
static int suite_traj_option(const char *arg, int *traj)
{
  *traj = !strcmp(arg, "none") ? 0 : !strcmp(arg, "report") ? 1 : !strcmp(arg, "all") ? 2 : -2;
  if (*traj == -2) {
    fprintf(stderr, "fricbench: --traj '%s' is not allowed: use none, report or all\n", arg);
    return FB_EXIT_USAGE;
  }
  return FB_EXIT_OK;
}

/* --jobs, --samples, --max-steps or --max-rhs (option letter c) into o; the last three
 * are what --resume excludes (*conflict).  FB_EXIT_OK, or FB_EXIT_USAGE said. */
static int suite_count_option(int c, const char *arg, fb_suite_opts *o, const char **conflict)
{
  unsigned long v;
  if (suite_count(c, arg, &v) != FB_EXIT_OK)
    return FB_EXIT_USAGE;
  if (c != 'j')
    *conflict = c == 's' ? "--samples" : c == 'S' ? "--max-steps" : "--max-rhs";
  if (c == 'j')
    o->jobs = (int)v;
  else if (c == 's')
    o->samples = v;
  else if (c == 'S')
    o->max_steps = v;
  else
    o->max_rhs = v;
  return FB_EXIT_OK;
}

/* The default results directory: results/<UTC date>-<git rev>[-quick]. */
static void suite_default_out(char *buf, size_t len, int quick)
{
  char day[32];
  time_t now = time(NULL);
  struct tm tmv;
  gmtime_r(&now, &tmv);
  strftime(day, sizeof day, "%Y-%m-%d", &tmv);
  snprintf(buf, len, "results/%s-%s%s", day, FB_GIT_REV, quick ? "-quick" : "");
}

/* Run the suite o describes, its failure as the exit code. */
static int suite_execute(fb_suite_opts *o, const char *argv0)
{
  fb_err err = {{0}};
  int sig = 0;
  o->handle_signals = 1;
  o->stopped_by = &sig;
  int st = fb_suite_run(o, argv0, &err);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    if (st == FB_EINTR) /* the shell's convention for death by a signal */
      return 128 + (sig > 0 ? sig : SIGINT);
    return st == FB_EINVAL ? FB_EXIT_USAGE : FB_EXIT_RUNTIME;
  }
  return FB_EXIT_OK;
}

static int suite_cmd(int argc, char **argv, const char **lists, fb_table *table, recipe *rcp)
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
      {"traj", required_argument, NULL, 7}, {"svg", no_argument, NULL, 8},
      {NULL, 0, NULL, 0},
  };
  fb_suite_opts o;
  fb_suite_opts_default(&o);
  char defdir[256];
  int c;
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
    case 6:
      if (suite_step_option(c == 5 ? "h" : "tol", optarg, c == 5 ? &sel.h : &sel.tol) !=
          FB_EXIT_OK)
        return FB_EXIT_USAGE;
      selecting = c == 5 ? "--h" : "--tol";
      break;
    case 7:
      if (suite_traj_option(optarg, &traj) != FB_EXIT_OK)
        return FB_EXIT_USAGE;
      if (traj != 1)
        selecting = "--traj";
      break;
    case 8: fb_report_set_svg(1); break; /* a drawing option: allowed with --resume */
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
      if (suite_count_option(c, optarg, &o, &conflict) != FB_EXIT_OK)
        return FB_EXIT_USAGE;
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
    suite_default_out(defdir, sizeof defdir, o.quick);
    o.out_dir = defdir;
  } else if (o.out_dir[0] == '\0') {
    fputs("fricbench: --out: empty directory name: give a directory path\n", stderr);
    return FB_EXIT_USAGE;
  }
  fb_err err = {{0}};
  const int drc = suite_modes(&o, selecting, print_plan, resume_dir, emit);
  if (drc != FB_EXIT_OK)
    return drc;
  /* after the part check: a part's journal restores its part */
  const int trc = suite_table(&o, resume_dir, conflict, selecting, print_plan, plan, &sel, traj,
                              table, rcp);
  if (trc != FB_EXIT_OK)
    return trc < 0 ? FB_EXIT_OK : trc;
  if (emit != NULL) { /* after the table: a bad plan or filter is refused before FILE */
    if (fb_emit_jobs(&o, emit, argv[0], &err) != FB_OK) {
      fprintf(stderr, "fricbench: %s\n", err.msg);
      return FB_EXIT_USAGE;
    }
    return FB_EXIT_OK;
  }
  if (o.part != 0) /* a part's manifest says it finished: not while it runs again */
    fb_manifest_remove(o.out_dir);
  return suite_execute(&o, argv[0]);
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
  recipe rcp = {0};
  const int rc = suite_cmd(argc, argv, lists, &table, &rcp);
  fb_table_free(&table);
  recipe_free(&rcp);
  free(lists);
  return rc;
}
