/* cli.c — `fricbench list | run | --help | --version`. */
#define _POSIX_C_SOURCE 200809L
#include "fb_cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fb_engine.h"
#include "fb_io.h"
#include "fb_normal_int.h"
#include "fb_plugin.h"
#include "fb_run.h"
#include "fb_scenarios.h"
#include "fb_run_metrics.h"
#include "fb_suite.h"
#include "fb_parse.h"
#include "fb_integrator_int.h"
#include "fricbench.h"

#ifndef FB_VERSION
#define FB_VERSION "unknown"
#endif

static int usage_error(const char *fmt, const char *a, const char *b)
{
  char ea[160], eb[160]; /* one line, whatever the arguments hold */
  fb_text_escape(a, ea, sizeof ea);
  fb_text_escape(b, eb, sizeof eb);
  fputs("fricbench: ", stderr);
  fprintf(stderr, fmt, ea, eb);
  fputc('\n', stderr);
  return FB_EXIT_USAGE;
}

static int fail(const fb_err *err, int code)
{
  fprintf(stderr, "fricbench: %s\n", err->msg);
  return code;
}

static const char main_help[] =
    "usage: fricbench <command> [options]\n"
    "\n"
    "A comparative benchmark of numerical treatments of dry friction.\n"
    "\n"
    "commands:\n"
    "  list [models|scenarios|integrators|contact|engines]\n"
    "                                        names, descriptions, parameters (contact:\n"
    "                                        normal-contact treatments and scenarios)\n"
    "  run --scenario S --model M [...]      run one case, write its trajectory as CSV\n"
    "  suite [--quick] [--out DIR] [--jobs N] run the benchmark suite: CSV, plots, report\n"
    "  reference --scenario S [...]          a scenario's reference trajectory and stick/slip\n"
    "                                        intervals (closed form or switching/event)\n"
    "  bench [--out FILE.csv]                ns per step: fricbench vs a hand-written loop\n"
    "  merge DIR...                          reassemble the parts of suite --emit-jobs\n"
    "  impacts [--out DIR]                   normal-contact treatments: effective restitution\n"
    "                                        against nominal e on bouncing-ball (impacts.csv)\n"
    "  compare A B [--json]                  what changed between two suite directories\n"
    "\n"
    "options:\n"
    "  -h, --help      this help;  fricbench <command> --help for a command's options\n"
    "  -V, --version   print the version\n"
    "  --plugin FILE   load the models and scenarios of a plugin (a shared object), with any\n"
    "                  command (repeatable; also FRICBENCH_PLUGINS=FILE1:FILE2)\n"
    "\n"
    "exit status: 0 success, 1 a run ended in budget/failed or output failed, 2 bad input,\n"
    "             128 + signal (130, 143) a suite interrupted by SIGINT/SIGTERM\n";

static const char run_help[] =
    "usage: fricbench run --scenario S --model M [--integrator I] [--h H | --tol TOL]\n"
    "                     [--set NAME=VALUE]... [--samples N] [--out FILE]\n"
    "\n"
    "Runs one case and writes its trajectory as CSV (stdout without --out): header\n"
    "t,x,v,F,<model states>,stick for one DOF; t,x1..xn,v1..vn,F1..Fnc,... for several.\n"
    "stick is 1 (stick), 0 (slip) or -1 (the model has no stick flag).  A one-line summary\n"
    "(status, steps, rejected, RHS evaluations, wall time of the integration and of the\n"
    "output) goes to stderr.  The trajectory is streamed: memory does not grow with N.\n"
    "\n"
    "  -s, --scenario S     scenario (fricbench list scenarios)\n"
    "  -m, --model M        friction model (fricbench list models)\n"
    "  -i, --integrator I   integrator (fricbench list integrators); default: the model's,\n"
    "                       with --h its fixed-step integrator (fricbench list models):\n"
    "                       the suite's fixed-step view's, rk4 on 2-D contacts where only\n"
    "                       the model's law has the vector form\n"
    "      --h H            fixed step (s), 0 < H <= T\n"
    "      --tol TOL        adaptive, absolute and relative tolerance TOL > 0\n"
    "      --atol A, --rtol R   adaptive tolerances separately\n"
    "      --set NAME=VALUE a scenario or model parameter; scenario.NAME / model.NAME\n"
    "                       when both have NAME (repeatable)\n"
    "      --samples N      output grid points, uniform on [t0, T] (default 1001, >= 2)\n"
    "      --max-steps N    step budget (default 20000000); a run hitting it ends 'budget'\n"
    "      --max-rhs N      RHS evaluation budget (default 200000000)\n"
    "      --event-tol E    event location tolerance of hybrid schemes (s)\n"
    "      --metrics[=FILE] the suite's metrics of this run (runs.csv's definitions: the\n"
    "                       three errors, stick, drift, chatter, energy, cost) as one\n"
    "                       JSON object to FILE, or stdout (then the trajectory only\n"
    "                       with --out)\n"
    "  -o, --out FILE       output file (written atomically); '-' for stdout\n"
    "  -h, --help           this help\n"
    "\n"
    "Without --h or --tol: the model's default (adaptive at its tolerance, or h = T/1e4).\n";

static const char list_help[] =
    "usage: fricbench list [models|scenarios|integrators|contact|engines|--json]\n"
    "\n"
    "Lists names with one-line descriptions; models and scenarios with their parameters\n"
    "(name = default [unit] meaning).  contact: the normal-contact treatments (--set\n"
    "normal=NAME) and the scenarios with normal contacts (fricbench impacts).  engines: the\n"
    "physics engines, present or absent, with their versions, steppers and settings\n"
    "(docs/engines.md).  Without an argument, lists all five.  --json: all of it as one JSON\n"
    "object (every parameter row with its unit, range and default; what the Python\n"
    "package's models(), scenarios() and integrators() read).\n";

static void list_models(FILE *fp)
{
  fputs("models:\n", fp);
  const fb_model_type *m;
  for (size_t i = 0; (m = fb_model_at(i)) != NULL; i++) {
    fb_model md;
    fprintf(fp, "  %-14s %s\n", m->name, m->title);
    fprintf(fp, "    source: %s\n    default integrator: %s\n    fixed-step integrator: %s\n",
            m->reference, m->default_integrator, fb_model_fixed_step_integrator(m));
    /* docs/design.md §13: what a 2-D contact (two tangential directions) gets */
    const char *d2 = "not defined (no vector form): refused with that reason";
    if (m->force2 != NULL && (m->caps & FB_MODEL_OWNED) && !(m->caps & FB_MODEL_VEC2))
      d2 = "vector form under the generic integrators; its own schemes take 1-D contacts only";
    else if (m->force2 != NULL)
      d2 = "vector form";
    else if (m->caps & FB_MODEL_VEC2)
      d2 = "its schemes take 2-D contacts";
    fprintf(fp, "    2-D contacts: %s\n", d2);
    if (fb_model_init(&md, m) == FB_OK) {
      fb_params_print(m->params, md.params, "    ", fp);
      fb_model_free(&md);
    }
  }
}

static void list_scenarios(FILE *fp)
{
  fputs("scenarios:\n", fp);
  const fb_scenario_type *s;
  for (size_t i = 0; (s = fb_scenario_at(i)) != NULL; i++) {
    fb_scenario sc;
    fprintf(fp, "  %-16s %s\n    source: %s\n", s->name, s->title, s->source);
    if (fb_scenario_init(&sc, s) == FB_OK) {
      fb_params_print(s->params, sc.params, "    ", fp);
      fb_scenario_free(&sc);
    }
  }
}

static void list_integrators(FILE *fp)
{
  fputs("integrators (generic, for every ODE model; fixed step --h or adaptive --tol):\n", fp);
  for (size_t i = 0; fb_integrator_registry[i] != NULL; i++) {
    const fb_integrator_type *t = fb_integrator_registry[i];
    fprintf(fp, "  %-18s %s%s\n", t->name, t->title, t->implicit ? " [uses the Jacobian]" : "");
  }
  fputs("integrators owned by a model:\n", fp);
  const fb_model_type *mt;
  for (size_t m = 0; (mt = fb_model_at(m)) != NULL; m++) {
    for (size_t i = 0; mt->schemes != NULL && mt->schemes[i] != NULL; i++) {
      const fb_integrator_type *t = mt->schemes[i];
      fprintf(fp, "  %-18s %s (model %s; %s)\n", t->name, t->title, mt->name,
              t->fixed_ok && t->adaptive_ok ? "--h or --tol" : t->fixed_ok ? "--h" : "--tol");
    }
  }
}

/* `list contact`: the normal-contact treatments and the scenarios with normal contacts
 * (docs/design.md §12), which the default suite leaves out (fricbench impacts runs them). */
static void list_contact(FILE *fp)
{
  fprintf(fp, "normal-contact treatments (--set normal=NAME, parameters --set normal.P=V):\n");
  for (size_t i = 0; fb_normal_registry[i] != NULL; i++) {
    const fb_normal_type *t = fb_normal_registry[i];
    double p[FB_NORMAL_NP];
    fb_params_default(t->params, p);
    fprintf(fp, "  %-14s %s\n    source: %s\n", t->name, t->title, t->reference);
    fb_params_print(t->params, p, "    ", fp);
  }
  fprintf(fp, "scenarios with normal contacts (run by the contact scheme):\n");
  for (size_t i = 0; fb_contact_scenario_registry[i] != NULL; i++) {
    const fb_scenario_type *t = fb_contact_scenario_registry[i];
    void *p = calloc(1, t->params->size);
    if (p == NULL)
      return;
    fb_params_default(t->params, p);
    fprintf(fp, "  %-14s %s\n    source: %s\n", t->name, t->title, t->source);
    fb_params_print(t->params, p, "    ", fp);
    free(p);
  }
}

/* `list engines`: every engine fricbench knows, present or absent, with its version or why it
 * is absent, its steppers and settings (docs/engines.md). */
static void list_engines(FILE *fp)
{
  fputs("engines (a physics engine as a treatment: --model NAME --integrator STEPPER):\n", fp);
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char ver[160];
    const int present = fb_engine_present(e, ver, sizeof ver);
    fprintf(fp, "  %-14s %s: %s %s\n", e->name, e->library, present ? "present," : "absent:",
            ver);
    if (e->model == NULL)
      continue;
    const fb_model_type *m = e->model;
    fprintf(fp, "    %s\n    steppers:", e->engine->title);
    for (size_t i = 0; m->schemes[i] != NULL; i++)
      fprintf(fp, " %s", m->schemes[i]->name);
    fputs("\n    scenarios:", fp);
    for (const char *const *s = e->engine->scenarios; *s != NULL; s++)
      fprintf(fp, " %s", *s);
    fputs("\n", fp);
    for (const fb_engine_unsupported *u = e->engine->unsupported; u->scenario != NULL; u++)
      fprintf(fp, "    unsupported %s: %s\n", u->scenario, u->why);
    fb_model md;
    if (fb_model_init(&md, m) == FB_OK) {
      fb_params_print(m->params, md.params, "    ", fp);
      fb_model_free(&md);
    }
  }
}

static int cmd_list(int argc, char **argv)
{
  if (argc > 2)
    return usage_error("list takes at most one argument, got '%s': use models, scenarios, "
                       "integrators, contact, engines or --json%s",
                       argv[2], "");
  const char *what = argc == 2 ? argv[1] : NULL;
  if (what != NULL && (strcmp(what, "--help") == 0 || strcmp(what, "-h") == 0)) {
    fputs(list_help, stdout);
    return FB_EXIT_OK;
  }
  if (what != NULL && strcmp(what, "--json") == 0) {
    fb_err err = {{0}};
    return fb_catalog_json(stdout, &err) == FB_OK ? FB_EXIT_OK : fail(&err, FB_EXIT_RUNTIME);
  }
  static const char *const kinds[] = {"models", "scenarios", "integrators", "contact",
                                      "engines"};
  static void (*const listers[])(FILE *) = {list_models, list_scenarios, list_integrators,
                                             list_contact, list_engines};
  int known = what == NULL;
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    known |= what != NULL && strcmp(what, kinds[k]) == 0;
  if (!known)
    return usage_error("unknown list '%s': use models, scenarios, integrators, contact, "
                       "engines or --json%s",
                       what, "");
  /* without an argument, every section: a new user sees the contact scenarios too */
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    if (what == NULL || strcmp(what, kinds[k]) == 0)
      listers[k](stdout);
  return FB_EXIT_OK;
}

enum {
  OPT_H = 256,
  OPT_TOL,
  OPT_ATOL,
  OPT_RTOL,
  OPT_SET,
  OPT_SAMPLES,
  OPT_MAX_STEPS,
  OPT_MAX_RHS,
  OPT_EVENT_TOL,
  OPT_METRICS,
};

static int parse_positive(const char *opt, const char *text, double *out)
{
  double v = 0;
  const char *why = fb_parse_double_why(text, &v);
  if (why != NULL || !(v > 0)) {
    char typed[80];
    fb_text_escape(text, typed, sizeof typed);
    fprintf(stderr, "fricbench: %s '%s' %s: use a finite number > 0\n", opt, typed,
            why != NULL ? why : "is not allowed");
    return FB_EXIT_USAGE;
  }
  *out = v;
  return FB_EXIT_OK;
}

static int parse_count(const char *opt, const char *text, unsigned long minv, unsigned long maxv,
                       unsigned long *out)
{
  unsigned long v;
  if (fb_parse_ulong(text, &v) != FB_OK || v < minv || v > maxv) {
    fprintf(stderr, "fricbench: %s '%s' is not allowed: use an integer in [%lu, %lu]\n", opt,
            text, minv, maxv);
    return FB_EXIT_USAGE;
  }
  *out = v;
  return FB_EXIT_OK;
}

/* `run` streams its trajectory: the recorder holds RUN_WINDOW samples and hands full
 * windows to sink_rows, so memory does not grow with --samples. */
#define RUN_WINDOW 4096

typedef struct run_sink {
  FILE *fp;
  int failed;
  double secs, secs_in_run; /* writing: in all, and during the integration */
} run_sink;

static int sink_rows(void *ctx, const fb_trace *tr, size_t from, size_t to)
{
  run_sink *k = ctx;
  const double w0 = fb_clock_s(CLOCK_MONOTONIC);
  if (!k->failed && fb_trace_write_rows(tr, from, to, k->fp) != FB_OK)
    k->failed = 1;
  const double dt = fb_clock_s(CLOCK_MONOTONIC) - w0;
  k->secs += dt;
  k->secs_in_run += dt;
  return k->failed ? FB_EIO : FB_OK;
}

/* run --metrics: the whole trace in memory (the metrics need it), the suite's metrics as
 * JSON to FILE ("-": stdout), the trajectory to --out when given (with the JSON on
 * stdout and no --out, no trajectory).  Takes cs. */
static int run_metrics(fb_case *cs, const char *metrics, const char *out)
{
  fb_err err = {{0}};
  fb_outfile mf = {0}, of = {0};
  int rc = FB_EXIT_OK;
  const int traj = out != NULL || strcmp(metrics, "-") != 0;
  if (fb_outfile_open(&mf, metrics, "--metrics", &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  if (rc == FB_EXIT_OK && traj && fb_outfile_open(&of, out, "--out", &err) != FB_OK) {
    fb_outfile_abort(&mf);
    rc = fail(&err, FB_EXIT_USAGE);
  }
  if (rc != FB_EXIT_OK) {
    fb_case_free(cs);
    return rc;
  }
  fb_trace tr = {0};
  fb_run_result res;
  memset(&res, 0, sizeof res);
  int st = fb_case_run_metrics(cs, &tr, &res, mf.fp, &err);
  if (st == FB_OK && traj && fb_trace_write_csv(&tr, cs->md.type->z_names, of.fp) != FB_OK)
    st = fb_err_set(&err, FB_EIO, "writing the trajectory failed: %s",
                    strerror(errno ? errno : EIO));
  if (st == FB_OK && traj)
    st = fb_outfile_commit(&of, &err);
  else if (traj)
    fb_outfile_abort(&of);
  if (st == FB_OK)
    st = fb_outfile_commit(&mf, &err);
  else
    fb_outfile_abort(&mf);
  if (st != FB_OK) /* that line alone: the run's summary would be a second one */
    rc = fail(&err, FB_EXIT_RUNTIME);
  else
    fprintf(stderr, "fricbench: %s%s%s scenario=%s model=%s integrator=%s steps=%lu rhs=%lu\n",
          res.status == FB_OK ? "ok" : res.status == FB_BUDGET ? "budget" : "failed",
          res.status ? ": " : "", res.status ? res.message : "", cs->sc.type->name,
          cs->md.type->name, cs->integ->name, res.cnt.nsteps, res.cnt.nfe);
  if (rc == FB_EXIT_OK && res.status != FB_OK)
    rc = FB_EXIT_RUNTIME;
  fb_trace_free(&tr);
  fb_case_free(cs);
  return rc;
}

/* run's command line. */
typedef struct run_args {
  const char *metrics; /* --metrics[=FILE]: "-" for stdout */
  const char *scenario, *model, *integrator, *out;
  double h, atol, rtol, event_tol;
  unsigned long samples, max_steps, max_rhs;
  const char **sets; /* the --set values, nsets of them (argc + 1 slots) */
  size_t nsets;
  int help;          /* --help: printed, nothing else to do */
} run_args;

/* Parse and check run's options into a (a->sets allocated: the caller frees it, also on
 * failure).  FB_EXIT_OK or the exit code of the usage error, already said. */
static int run_parse(int argc, char **argv, run_args *a)
{
  static const struct option opts[] = {
      {"scenario", required_argument, NULL, 's'},
      {"model", required_argument, NULL, 'm'},
      {"integrator", required_argument, NULL, 'i'},
      {"out", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {"h", required_argument, NULL, OPT_H},
      {"tol", required_argument, NULL, OPT_TOL},
      {"atol", required_argument, NULL, OPT_ATOL},
      {"rtol", required_argument, NULL, OPT_RTOL},
      {"set", required_argument, NULL, OPT_SET},
      {"samples", required_argument, NULL, OPT_SAMPLES},
      {"max-steps", required_argument, NULL, OPT_MAX_STEPS},
      {"max-rhs", required_argument, NULL, OPT_MAX_RHS},
      {"event-tol", required_argument, NULL, OPT_EVENT_TOL},
      {"metrics", optional_argument, NULL, OPT_METRICS},
      {NULL, 0, NULL, 0},
  };
  *a = (run_args){.h = NAN, .atol = NAN, .rtol = NAN, .event_tol = NAN, .samples = 1001,
                 .max_steps = FB_DEFAULT_MAX_STEPS, .max_rhs = FB_DEFAULT_MAX_RHS};
  int have_tol = 0;
  a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
  int rc = FB_EXIT_OK, c;
  if (a->sets == NULL)
    return FB_EXIT_RUNTIME;
  opterr = 0;
  optind = 1;
  while (rc == FB_EXIT_OK && (c = getopt_long(argc, argv, ":s:m:i:o:h", opts, NULL)) != -1) {
    switch (c) {
    case 's': a->scenario = optarg; break;
    case 'm': a->model = optarg; break;
    case 'i': a->integrator = optarg; break;
    case 'o': a->out = optarg; break;
    case 'h':
      fputs(run_help, stdout);
      a->help = 1;
      return FB_EXIT_OK;
    case OPT_H: rc = parse_positive("--h", optarg, &a->h); break;
    case OPT_TOL:
      rc = parse_positive("--tol", optarg, &a->atol);
      a->rtol = a->atol;
      have_tol = 1;
      break;
    case OPT_ATOL: rc = parse_positive("--atol", optarg, &a->atol); have_tol = 1; break;
    case OPT_RTOL: rc = parse_positive("--rtol", optarg, &a->rtol); have_tol = 1; break;
    case OPT_SET: a->sets[a->nsets++] = optarg; break;
    case OPT_SAMPLES:
      rc = parse_count("--samples", optarg, 2, FB_MAX_SAMPLES, &a->samples);
      break;
    case OPT_MAX_STEPS:
      rc = parse_count("--max-steps", optarg, 1, FB_MAX_BUDGET, &a->max_steps);
      break;
    case OPT_MAX_RHS: rc = parse_count("--max-rhs", optarg, 1, FB_MAX_BUDGET, &a->max_rhs); break;
    case OPT_EVENT_TOL: rc = parse_positive("--event-tol", optarg, &a->event_tol); break;
    case OPT_METRICS:
      a->metrics = optarg != NULL ? optarg : "-";
      if (a->metrics[0] == '\0')
        rc = usage_error("--metrics=FILE: empty file name: give a path or '-'%s%s", "", "");
      break;
    case ':':
      rc = usage_error("option %s needs a value%s", argv[optind - 1], "");
      break;
    default:
      rc = usage_error("unknown option '%s' for run: see 'fricbench run --help'%s",
                       argv[optind - 1], "");
      break;
    }
  }
  if (rc == FB_EXIT_OK && optind < argc)
    rc = usage_error("unexpected argument '%s' for run: see 'fricbench run --help'%s", argv[optind],
                     "");
  if (rc == FB_EXIT_OK && !isnan(a->h) && have_tol)
    rc = usage_error("--h and --tol exclude each other: give a fixed step or a tolerance%s%s", "",
                     "");
  if (rc == FB_EXIT_OK && a->scenario == NULL)
    rc = usage_error("run needs --scenario S (see 'fricbench list scenarios')%s%s", "", "");
  if (rc == FB_EXIT_OK && a->model == NULL)
    rc = usage_error("run needs --model M (see 'fricbench list models')%s%s", "", "");
  if (rc == FB_EXIT_OK) { /* -o f --metrics=f: the metrics would replace the trajectory */
    const char *const names[] = {"--out", "--metrics"}, *const paths[] = {a->out, a->metrics};
    fb_err derr = {{0}};
    if (fb_outputs_distinct(2, names, paths, &derr) != FB_OK)
      rc = fail(&derr, FB_EXIT_USAGE);
  }
  return rc;
}

/* run --h without --integrator: the integrator the suite's fixed-step view runs model mt
 * with on the scenario (*switched: it is not the model's default), and a refusal when the
 * one chosen cannot take a fixed step (fb_case_integrator_for, client_api.c: the Python
 * package's choice too).  FB_EXIT_OK or the usage error's code, said. */
static int run_fixed_integrator(const fb_model_type *mt, const char *scenario,
                                const char **integrator, int *switched)
{
  fb_err err = {{0}};
  if (fb_case_integrator_for(scenario, mt->name, *integrator, 1, integrator, switched, &err) !=
      FB_OK)
    return fail(&err, FB_EXIT_USAGE);
  return FB_EXIT_OK;
}

static int cmd_run(int argc, char **argv)
{
  run_args ra;
  int rc = run_parse(argc, argv, &ra);
  if (rc != FB_EXIT_OK || ra.help) {
    free(ra.sets);
    return rc;
  }
  const char *scenario = ra.scenario, *model = ra.model, *integrator = ra.integrator,
             *out = ra.out, *metrics = ra.metrics, **sets = ra.sets;
  const size_t nsets = ra.nsets;
  const double h = ra.h;

  fb_err err = {{0}};
  fb_case cs;
  fb_trace tr = {0};
  fb_outfile of = {0};
  const fb_model_type *mt = fb_model_find(model);
  int switched = 0; /* --h moved the run off a default that cannot take a fixed step */
  if (mt != NULL && !isnan(h)) {
    rc = run_fixed_integrator(mt, scenario, &integrator, &switched);
    if (rc != FB_EXIT_OK) {
      free(sets);
      return rc;
    }
  }
  if (fb_case_init(&cs, scenario, model, integrator, &err) != FB_OK) {
    free(sets);
    return fail(&err, FB_EXIT_USAGE);
  }
  for (size_t k = 0; k < nsets && rc == FB_EXIT_OK; k++)
    if (fb_case_set(&cs, sets[k], &err) != FB_OK)
      rc = fail(&err, FB_EXIT_USAGE);
  free(sets);
  cs.opts.h = h;
  cs.opts.atol = ra.atol;
  cs.opts.rtol = ra.rtol;
  cs.opts.max_steps = ra.max_steps;
  cs.opts.max_rhs = ra.max_rhs;
  if (!isnan(ra.event_tol))
    cs.opts.event_tol = ra.event_tol;
  cs.samples = ra.samples;
  if (rc == FB_EXIT_OK && fb_case_prepare(&cs, &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  /* The integrator's own setup checks (solver=closed on a non-diagonal mass, ...) are bad
   * input too: try them before any output exists. */
  if (rc == FB_EXIT_OK) {
    void *ws = NULL;
    const int ast = cs.integ->alloc(&ws, cs.integ, &cs.pb, &cs.opts, &err);
    if (ws != NULL)
      cs.integ->free(ws);
    if (ast != FB_OK)
      rc = fail(&err, ast == FB_ENOMEM ? FB_EXIT_RUNTIME : FB_EXIT_USAGE);
  }
  /* a generic integrator named with -i on a scenario with normals is the contact scheme's
   * inner stepper (docs/design.md §12): said, and recorded in the summary line */
  const char *inner = cs.opts.stepper != NULL && strcmp(cs.integ->name, "contact") == 0
                          ? cs.opts.stepper : NULL;
  if (rc == FB_EXIT_OK && inner != NULL && integrator != NULL &&
      strcmp(integrator, "contact") != 0)
    fprintf(stderr, "fricbench: scenario %s has normal contacts: integrator %s runs as the "
                    "contact scheme's inner stepper (integrator=contact stepper=%s)\n",
            cs.sc.type->name, integrator, inner);
  if (rc == FB_EXIT_OK && switched)
    fprintf(stderr, "fricbench: --h: model %s's default integrator %s does not take a fixed "
                    "step; using its fixed-step integrator %s\n",
            mt->name, mt->default_integrator, integrator);
  if (rc == FB_EXIT_OK && metrics != NULL)
    return run_metrics(&cs, metrics, out);
  run_sink sink = {0};
  if (rc == FB_EXIT_OK &&
      fb_trace_alloc_stream(&tr, cs.samples, RUN_WINDOW, cs.sc.plant.n, cs.sc.plant.nc,
                            cs.md.type->nz, sink_rows, &sink) != FB_OK)
    rc = fail(&(fb_err){"out of memory"}, FB_EXIT_RUNTIME);
  /* Open the output before running so a bad path fails fast and leaves nothing. */
  if (rc == FB_EXIT_OK && fb_outfile_open(&of, out, "--out", &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  if (rc != FB_EXIT_OK) {
    fb_trace_free(&tr);
    fb_case_free(&cs);
    return rc;
  }
  fb_run_result res;
  sink.fp = of.fp;
  sink.failed = fb_trace_write_header(&tr, cs.md.type->z_names, of.fp) != FB_OK;
  fb_case_run(&cs, &tr, NULL, &res);
  /* the rows still held, then the commit: output time, apart from the integration's */
  const double w0 = fb_clock_s(CLOCK_MONOTONIC);
  int wst = sink.failed ? FB_EIO : fb_trace_write_rows(&tr, tr.base, tr.filled, of.fp);
  if (wst != FB_OK || fb_outfile_commit(&of, &err) != FB_OK) {
    if (wst != FB_OK)
      fb_err_set(&err, FB_EIO, "writing the trajectory failed: %s", strerror(errno ? errno : EIO));
    fb_outfile_abort(&of);
    rc = fail(&err, FB_EXIT_RUNTIME);
  }
  sink.secs += fb_clock_s(CLOCK_MONOTONIC) - w0;
  char step[64];
  if (!isnan(cs.opts.h))
    snprintf(step, sizeof step, "h=%g", cs.opts.h);
  else
    snprintf(step, sizeof step, "atol=%g rtol=%g", cs.opts.atol, cs.opts.rtol);
  /* "ok: scenario=...", "budget: <why>; scenario=...", "failed: <why>; scenario=..." (the
   * statuses of runs.csv; the why keeps GSL's code and reason); not after a failed output,
   * whose line is the one line */
  if (rc == FB_EXIT_OK)
    fprintf(stderr,
          "fricbench: %s%s%s%s scenario=%s model=%s integrator=%s%s%s %s t=%.10g steps=%lu "
          "rejected=%lu rhs=%lu jac=%lu events=%lu inner=%lu wall=%.3f ms output=%.3f ms\n",
          res.status == FB_OK ? "ok" : res.status == FB_BUDGET ? "budget" : "failed",
          res.status ? ": " : "", res.status ? res.message : "", res.status ? ";" : ":",
          cs.sc.type->name, cs.md.type->name, cs.integ->name, inner ? " stepper=" : "",
          inner ? inner : "", step, res.t_reached,
          res.cnt.nsteps, res.cnt.nrejected, res.cnt.nfe, res.cnt.njac, res.cnt.nevents,
          res.cnt.ninner, 1e3 * (res.wall_s - sink.secs_in_run), 1e3 * sink.secs);
  if (rc == FB_EXIT_OK && res.status != FB_OK)
    rc = FB_EXIT_RUNTIME;
  fb_trace_free(&tr);
  fb_case_free(&cs);
  return rc;
}

/* Plugins before any command, so that every command sees their models and scenarios:
 * those of FRICBENCH_PLUGINS, then every `--plugin FILE` (or `--plugin=FILE`) anywhere on
 * the line, which is removed from argv before the command parses its options. */
static int load_plugins(int *argc, char **argv)
{
  fb_err err = {{0}};
  if (fb_plugin_load_list(getenv("FRICBENCH_PLUGINS"), &err) != FB_OK)
    return fail(&err, FB_EXIT_USAGE);
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    const char *file = NULL;
    if (strcmp(argv[i], "--") == 0) { /* operands only from here on */
      while (i < *argc)
        argv[out++] = argv[i++];
      break;
    }
    if (strcmp(argv[i], "--plugin") == 0) {
      if (i + 1 == *argc || argv[i + 1][0] == '\0')
        return usage_error("option --plugin needs a file name: a plugin's shared object%s%s", "",
                           "");
      file = argv[++i];
    } else if (strncmp(argv[i], "--plugin=", 9) == 0) {
      file = argv[i] + 9;
      if (*file == '\0')
        return usage_error("option --plugin needs a file name: a plugin's shared object%s%s", "",
                           "");
    } else {
      argv[out++] = argv[i];
      continue;
    }
    if (fb_plugin_load(file, &err) != FB_OK)
      return fail(&err, FB_EXIT_USAGE);
  }
  argv[out] = NULL;
  *argc = out;
  return FB_EXIT_OK;
}

int fb_cli_main(int argc, char **argv)
{
  const int prc = load_plugins(&argc, argv);
  if (prc != FB_EXIT_OK)
    return prc;
  if (argc < 2) {
    fputs(main_help, stderr);
    return FB_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    fputs(main_help, stdout);
    return FB_EXIT_OK;
  }
  if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
    printf("fricbench %s\n", FB_VERSION);
    return FB_EXIT_OK;
  }
  if (strcmp(cmd, "list") == 0)
    return cmd_list(argc - 1, argv + 1);
  if (strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (strcmp(cmd, "suite") == 0)
    return fb_cmd_suite(argc - 1, argv + 1);
  if (strcmp(cmd, "reference") == 0)
    return fb_cmd_reference(argc - 1, argv + 1);
  if (strcmp(cmd, "bench") == 0)
    return fb_cmd_bench(argc - 1, argv + 1);
  if (strcmp(cmd, "impacts") == 0)
    return fb_cmd_impacts(argc - 1, argv + 1);
  if (strcmp(cmd, "merge") == 0)
    return fb_cmd_merge(argc - 1, argv + 1);
  if (strcmp(cmd, "compare") == 0)
    return fb_cmd_compare(argc - 1, argv + 1);
  return usage_error("unknown command '%s': use list, run, reference, suite, bench, merge, compare or impacts (see 'fricbench --help')%s", cmd, "");
}
