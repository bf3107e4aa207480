/* cmd_reference.c — `fricbench reference`: a scenario's reference trajectory and its
 * stick/slip intervals (fb_reference.h).
 *
 * Bad input (docs/design.md §9) exits 2 with one line naming the value and what is allowed, and
 * leaves no file: both outputs are opened (as temporaries) before the computation and
 * renamed into place only when everything was written.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fb_cli.h"
#include "fb_io.h"
#include "fb_reference.h"
#include "fb_run.h"
#include "fb_parse.h"

static const char reference_help[] =
    "usage: fricbench reference --scenario S [--set NAME=VALUE]... [--samples N]\n"
    "                           [--stepper S] [--out FILE] [--intervals FILE]\n"
    "\n"
    "Computes a scenario's reference solution: its closed form where it has one, else the\n"
    "event-driven switching model (switching/event, dop853, atol = rtol = 1e-12, events\n"
    "located to 1e-12 s).  Writes the trajectory as CSV in the layout of `fricbench run\n"
    "--model switching` (t,x,v,F,mode,force,stick; suffixed for several DOFs/contacts;\n"
    "mode -1 slip-, 0 stick, +1 slip+) and, with --intervals, the stick/slip intervals\n"
    "taken from the located switches: header contact,start,end,mode (contact from 1,\n"
    "mode stick, slip+ or slip-).  dop853's own dense output (order 8) locates the events\n"
    "and fills the grid (x, v, and the force from the model at that state).  Event-driven\n"
    "steps are capped at a quarter of the grid spacing (a long step may step over a narrow\n"
    "feature; with another --stepper the samples are interpolated between steps).\n"
    "A one-line summary goes to stderr.\n"
    "\n"
    "  -s, --scenario S     scenario (fricbench list scenarios)\n"
    "      --set NAME=VALUE a scenario parameter (repeatable)\n"
    "      --samples N      output grid points, uniform on [t0, T] (default 1001, >= 2)\n"
    "      --stepper S      inner stepper of the event-driven solver (default dop853; a\n"
    "                       one-step GSL stepper such as rk8pd, or heun3)\n"
    "  -o, --out FILE       trajectory CSV (written atomically); '-' or none: stdout\n"
    "      --intervals FILE stick/slip intervals CSV; '-' for stdout\n"
    "  -h, --help           this help\n";

enum { OPT_SET = 256, OPT_SAMPLES, OPT_INTERVALS, OPT_STEPPER };

static int usage(const char *msg, const char *a)
{
  char ea[160]; /* one line, whatever the argument holds */
  fb_text_escape(a, ea, sizeof ea);
  fprintf(stderr, "fricbench: ");
  fprintf(stderr, msg, ea);
  fputc('\n', stderr);
  return FB_EXIT_USAGE;
}

static int fail(const fb_err *err, int code)
{
  fprintf(stderr, "fricbench: %s\n", err->msg);
  return code;
}

/* "unknown scenario" with the names allowed.  FB_EXIT_USAGE. */
static int ref_unknown_scenario(const char *scenario)
{
  char names[1024];
  fb_names_scenarios(names, sizeof names);
  char typed[160];
  fb_text_escape(scenario, typed, sizeof typed);
  fprintf(stderr, "fricbench: unknown scenario '%s': use one of %s\n", typed, names);
  return FB_EXIT_USAGE;
}

/* Scenario st's parameters into sp: defaults, the --set NAME=VALUE settings (NAME or the
 * `run` spelling scenario.NAME), then every check the computation would make, so that bad
 * input is refused before any file exists.  FB_EXIT_OK or the failure's code, said. */
static int ref_params(const fb_scenario_type *st, const char **sets, size_t nsets, void *sp)
{
  fb_err err = {{0}};
  int rc = FB_EXIT_OK;
  fb_params_default(st->params, sp);
  for (size_t k = 0; k < nsets && rc == FB_EXIT_OK; k++) {
    const char *eq = strchr(sets[k], '=');
    char name[128];
    const size_t len = eq != NULL ? (size_t)(eq - sets[k]) : 0;
    if (eq == NULL || len == 0 || len >= sizeof name) {
      rc = usage("--set '%s': expected NAME=VALUE with a scenario parameter NAME", sets[k]);
      break;
    }
    memcpy(name, sets[k], len);
    name[len] = '\0';
    const char *pname = strncmp(name, "scenario.", 9) == 0 ? name + 9 : name;
    if (fb_params_set(st->params, st->name, sp, pname, eq + 1, &err) != FB_OK)
      rc = fail(&err, FB_EXIT_USAGE);
  }
  if (rc == FB_EXIT_OK && fb_params_check_all(st->params, st->name, sp, &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  return rc;
}

/* The scenario builds with parameters sp and has a reference for them.  FB_EXIT_OK or the
 * failure's code, said. */
static int ref_buildable(const fb_scenario_type *st, const void *sp)
{
  fb_err err = {{0}};
  int rc = FB_EXIT_OK;
  fb_scenario sc;
  if (fb_scenario_init(&sc, st) != FB_OK)
    return fail(&(fb_err){"out of memory"}, FB_EXIT_RUNTIME);
  memcpy(sc.params, sp, st->params->size);
  if (fb_scenario_build(&sc, &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  else if (st->ref_kind == NULL || st->ref_kind(sp) == FB_REF_NONE ||
           (st->ref_kind(sp) == FB_REF_EXACT && st->exact == NULL))
    rc = usage("scenario '%s' has no reference for these parameters", st->name);
  fb_scenario_free(&sc);
  return rc;
}

/* The "ok:" line on stderr: how the reference was made and its counts. */
static void ref_report(const fb_scenario_type *st, unsigned long samples, const char *stepper,
                       const fb_reference_info *info, size_t nintervals)
{
  if (info->kind == FB_REF_EXACT)
    fprintf(stderr, "fricbench: ok: scenario=%s reference=exact samples=%lu intervals=%zu\n",
            st->name, samples, nintervals);
  else
    fprintf(stderr,
            "fricbench: ok: scenario=%s reference=switching/event stepper=%s tol=%g "
            "event_tol=%g hmax=%g t=%.10g steps=%lu rejected=%lu rhs=%lu events=%lu "
            "inner=%lu intervals=%zu\n",
            st->name, stepper, FB_REF_TOL, FB_REF_EVENT_TOL, info->hmax,
            info->run.t_reached, info->run.cnt.nsteps, info->run.cnt.nrejected,
            info->run.cnt.nfe, info->run.cnt.nevents, info->run.cnt.ninner, nintervals);
}

/* The trajectory into of and, when oi is not NULL, the intervals into oi: both committed or
 * neither (out: the trajectory's path to take back, NULL for stdout).  FB_EXIT_OK or the
 * failure's code, said. */
static int ref_write(const fb_trace *tr, const fb_interval_list *iv, fb_outfile *of,
                     fb_outfile *oi, const char *out)
{
  fb_err err = {{0}};
  int wst = fb_trace_write_csv(tr, fb_reference_z_names, of->fp);
  if (wst == FB_OK && oi != NULL)
    wst = fb_interval_list_write_csv(iv, oi->fp);
  if (wst != FB_OK) {
    fb_outfile_abort(of);
    if (oi != NULL)
      fb_outfile_abort(oi);
    return fail(&(fb_err){"writing the reference failed"}, FB_EXIT_RUNTIME);
  }
  if (fb_outfile_commit(of, &err) != FB_OK) {
    if (oi != NULL)
      fb_outfile_abort(oi);
    return fail(&err, FB_EXIT_RUNTIME);
  }
  if (oi != NULL && fb_outfile_commit(oi, &err) != FB_OK) {
    if (out != NULL) /* all or nothing: take the trajectory back */
      unlink(out);
    return fail(&err, FB_EXIT_RUNTIME);
  }
  return FB_EXIT_OK;
}

int fb_cmd_reference(int argc, char **argv)
{
  static const struct option opts[] = {
      {"scenario", required_argument, NULL, 's'},
      {"out", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {"set", required_argument, NULL, OPT_SET},
      {"samples", required_argument, NULL, OPT_SAMPLES},
      {"intervals", required_argument, NULL, OPT_INTERVALS},
      {"stepper", required_argument, NULL, OPT_STEPPER},
      {NULL, 0, NULL, 0},
  };
  const char *scenario = NULL, *out = NULL, *ivpath = NULL;
  unsigned long samples = 1001;
  fb_reference_opts ro;
  fb_reference_opts_default(&ro);
  const char **sets = calloc((size_t)argc + 1, sizeof *sets);
  size_t nsets = 0;
  int rc = FB_EXIT_OK, c;
  if (sets == NULL)
    return FB_EXIT_RUNTIME;
  opterr = 0;
  optind = 1;
  while (rc == FB_EXIT_OK && (c = getopt_long(argc, argv, ":s:o:h", opts, NULL)) != -1) {
    switch (c) {
    case 's': scenario = optarg; break;
    case 'o': out = optarg; break;
    case 'h':
      fputs(reference_help, stdout);
      free(sets);
      return FB_EXIT_OK;
    case OPT_SET: sets[nsets++] = optarg; break;
    case OPT_SAMPLES:
      if (fb_parse_ulong(optarg, &samples) != FB_OK || samples < 2 || samples > FB_MAX_SAMPLES) {
        fprintf(stderr, "fricbench: --samples '%s' is not allowed: use an integer in [2, %lu]\n",
                optarg, FB_MAX_SAMPLES);
        rc = FB_EXIT_USAGE;
      }
      break;
    case OPT_INTERVALS: ivpath = optarg; break;
    case OPT_STEPPER: ro.stepper = optarg; break;
    case ':': rc = usage("option %s needs a value", argv[optind - 1]); break;
    default:
      rc = usage("unknown option '%s' for reference: see 'fricbench reference --help'",
                 argv[optind - 1]);
      break;
    }
  }
  if (rc == FB_EXIT_OK && optind < argc)
    rc = usage("unexpected argument '%s' for reference: see 'fricbench reference --help'",
               argv[optind]);
  if (rc == FB_EXIT_OK && scenario == NULL)
    rc = usage("reference needs --scenario S (see 'fricbench list scenarios')%s", "");
  const int out_stdout = out == NULL || strcmp(out, "-") == 0;
  if (rc == FB_EXIT_OK && out_stdout && ivpath != NULL && strcmp(ivpath, "-") == 0)
    rc = usage("--intervals '-' needs --out FILE: only one output can go to stdout%s", "");
  if (rc == FB_EXIT_OK) { /* -o f --intervals f: the intervals would replace the trajectory */
    const char *const names[] = {"--out", "--intervals"}, *const paths[] = {out, ivpath};
    fb_err derr = {{0}};
    if (fb_outputs_distinct(2, names, paths, &derr) != FB_OK)
      rc = fail(&derr, FB_EXIT_USAGE);
  }
  const fb_scenario_type *st = scenario != NULL ? fb_scenario_find(scenario) : NULL;
  if (rc == FB_EXIT_OK && st == NULL)
    rc = ref_unknown_scenario(scenario);
  if (rc != FB_EXIT_OK) {
    free(sets);
    return rc;
  }

  fb_err err = {{0}};
  void *sp = calloc(1, st->params->size ? st->params->size : 1);
  if (sp == NULL) {
    free(sets);
    return fail(&(fb_err){"out of memory"}, FB_EXIT_RUNTIME);
  }
  rc = ref_params(st, sets, nsets, sp);
  free(sets);
  if (rc == FB_EXIT_OK)
    rc = ref_buildable(st, sp);
  fb_outfile of = {0}, oi = {0};
  if (rc == FB_EXIT_OK && fb_outfile_open(&of, out, "--out", &err) != FB_OK)
    rc = fail(&err, FB_EXIT_USAGE);
  if (rc == FB_EXIT_OK && ivpath != NULL && fb_outfile_open(&oi, ivpath, "--intervals", &err) != FB_OK) {
    fb_outfile_abort(&of);
    rc = fail(&err, FB_EXIT_USAGE);
  }
  if (rc != FB_EXIT_OK) {
    free(sp);
    return rc;
  }

  fb_trace tr;
  fb_interval_list iv;
  fb_reference_info info;
  int st_ref = fb_reference_run_opts(st, sp, (size_t)samples, &ro, &tr, &iv, &info, &err);
  if (st_ref != FB_OK) {
    fb_outfile_abort(&of);
    if (ivpath != NULL)
      fb_outfile_abort(&oi);
    rc = fail(&err, st_ref == FB_EINVAL || st_ref == FB_EUNSUP ? FB_EXIT_USAGE : FB_EXIT_RUNTIME);
  } else {
    rc = ref_write(&tr, &iv, &of, ivpath != NULL ? &oi : NULL, out_stdout ? NULL : out);
    if (rc == FB_EXIT_OK) /* else the failure was reported */
      ref_report(st, samples, ro.stepper, &info, iv.n);
    fb_trace_free(&tr);
    fb_interval_list_free(&iv);
  }
  free(sp);
  return rc;
}
