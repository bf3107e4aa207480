/* cmd_suite.c — `fricbench suite [--quick] [--out DIR] [--jobs N] ...`. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fb_cli.h"
#include "fb_suite.h"
#include "fb_version.h"

static const char suite_help[] =
    "usage: fricbench suite [--quick] [--out DIR] [--jobs N] [--samples N]\n"
    "                       [--max-steps N] [--max-rhs N] [--no-plots]\n"
    "\n"
    "Runs the default experiment table (every scenario x every model x the integrators that\n"
    "suit it x the sweeps: step ladders, tolerance ladders, friction coefficient, the\n"
    "regularization parameter, seed 004's eps x h grid) and writes under DIR: runs.csv (one\n"
    "row per run, columns in results/README.md), orders.csv, traj/, plots/, report.html,\n"
    "meta.json.\n"
    "\n"
    "  --quick          the small CI subset (seconds)\n"
    "  --out DIR        output directory (default results/<date>-<git rev>)\n"
    "  --jobs N         threads (default: the machine's cores)\n"
    "  --samples N      output grid points per run (default 2001)\n"
    "  --max-steps N    per-run step budget (default 2000000)\n"
    "  --max-rhs N      per-run RHS budget (default 40000000)\n"
    "  --no-plots       skip plots and report.html\n"
    "  -h, --help       this help\n";

int fb_cmd_suite(int argc, char **argv)
{
  static const struct option opts[] = {
      {"quick", no_argument, NULL, 'q'},      {"out", required_argument, NULL, 'o'},
      {"jobs", required_argument, NULL, 'j'}, {"samples", required_argument, NULL, 's'},
      {"max-steps", required_argument, NULL, 'S'}, {"max-rhs", required_argument, NULL, 'R'},
      {"no-plots", no_argument, NULL, 'P'},   {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  fb_suite_opts o;
  fb_suite_opts_default(&o);
  char defdir[256];
  int c;
  unsigned long v;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:j:h", opts, NULL)) != -1) {
    switch (c) {
    case 'q': o.quick = 1; break;
    case 'o': o.out_dir = optarg; break;
    case 'P': o.plots = 0; break;
    case 'h': fputs(suite_help, stdout); return FB_EXIT_OK;
    case 'j':
    case 's':
    case 'S':
    case 'R':
      if (fb_parse_ulong(optarg, &v) != FB_OK || v < (c == 's' ? 2UL : 1UL) ||
          (c == 'j' && v > 256)) {
        fprintf(stderr, "fricbench: %s '%s' is not allowed: use an integer %s\n",
                argv[optind - 1], optarg,
                c == 'j' ? "in [1, 256]" : c == 's' ? ">= 2" : ">= 1");
        return FB_EXIT_USAGE;
      }
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
  int st = fb_suite_run(&o, argv[0], &err);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return st == FB_EINVAL ? FB_EXIT_USAGE : FB_EXIT_RUNTIME;
  }
  return FB_EXIT_OK;
}
