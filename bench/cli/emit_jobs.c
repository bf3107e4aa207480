/* emit_jobs.c — the suite split for many machines (merge.c's other half): `suite
 * --emit-jobs FILE` (K independent command lines for GNU Parallel or a
 * Slurm array) and the options that ask for a part (--part, --parts, --emit-jobs); each
 * part's part.json is the suite's own (bench/suite/suite_write.c).  What
 * the parts write and how `fricbench merge` reassembles them: merge.c's opening comment.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fb_verdicts.h"
#include "fb_seed_claims.h"
#include "fb_frame_metrics.h"
#include "fb_cli.h"
#include "fb_csv.h"
#include "fb_params.h"
#include "fb_io.h"
#include "fb_manifest.h"
#include "fb_merge.h"
#include "fb_gzcsv.h"
#include "fb_plugin.h"
#include "fb_report.h"
#include "fb_suite.h"
#include "fb_version.h"
#include "fb_parse.h"

#include <jansson.h>

#define PATH_LEN 4096

/* ---- --emit-jobs (each part's part.json: bench/suite/suite_write.c) --------------------- */

/* Single-quote a word for sh. */
static void sh_quote(FILE *fp, const char *s)
{
  fputc('\'', fp);
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", fp);
    else
      fputc(*s, fp);
  fputc('\'', fp);
}

/* The options that made the table (o->recipe: "KEY VALUE" items, bench/cli/cmd_suite.c),
 * so that each part makes the same one: the plan by its absolute path, the filters and
 * settings as given.  The plugins are written before `suite`. */
static void emit_recipe(FILE *fp, const fb_suite_opts *o)
{
  static const char *const keys[] = {"plan", "scenario", "model", "integrator", "set", "h",
                                     "tol", "traj"};
  for (size_t i = 0; i < o->nrecipe; i++) {
    const char *it = o->recipe[i], *sp = strchr(it, ' ');
    for (size_t k = 0; sp != NULL && k < sizeof keys / sizeof keys[0]; k++) {
      if (strlen(keys[k]) != (size_t)(sp - it) || strncmp(it, keys[k], (size_t)(sp - it)) != 0)
        continue;
      const char *v = sp + 1;
      if (k == 0 && strlen(v) > 17) /* "<16 hex digits> <path>" */
        v += 17;
      fprintf(fp, " --%s ", keys[k]);
      if (k == 7)
        fputs(strcmp(v, "0") == 0 ? "none" : "all", fp);
      else
        sh_quote(fp, v);
    }
  }
}

int fb_emit_jobs(const fb_suite_opts *o, const char *file, const char *argv0, fb_err *err)
{
  char exe[PATH_LEN], dir[PATH_LEN];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0)
    exe[n] = '\0';
  else if (argv0 == NULL || realpath(argv0, exe) == NULL)
    snprintf(exe, sizeof exe, "fricbench");
  /* a refused FILE leaves no directory: what mkdir -p creates here is removed again */
  const size_t had = fb_existing_prefix(o->out_dir);
  if (fb_mkdir_p(o->out_dir) != 0 || realpath(o->out_dir, dir) == NULL) {
    const int e = errno;
    fb_rmdir_back(o->out_dir, had);
    return fb_err_set(err, FB_EINVAL, "output directory '%s' cannot be created: %s", o->out_dir,
                      strerror(e));
  }
  fb_outfile of;
  int st = fb_outfile_open(&of, file, "--emit-jobs", err);
  if (st != FB_OK) {
    fb_rmdir_back(o->out_dir, had);
    return st;
  }
  for (size_t i = 1; i <= o->nparts; i++) {
    char part[PATH_LEN + 32];
    snprintf(part, sizeof part, "%s/part-%zu", dir, i);
    sh_quote(of.fp, exe);
    for (size_t k = 0; k < fb_plugin_count(); k++) { /* each part builds the same table */
      fputs(" --plugin ", of.fp);
      sh_quote(of.fp, fb_plugin_path(k));
    }
    fprintf(of.fp, " suite --part %zu/%zu --out ", i, o->nparts);
    sh_quote(of.fp, part);
    emit_recipe(of.fp, o);
    fprintf(of.fp, " --no-plots --jobs 1%s --samples %zu --max-steps %lu --max-rhs %lu\n",
            o->quick ? " --quick" : "", o->samples, o->max_steps, o->max_rhs);
  }
  st = fb_outfile_commit(&of, err);
  if (st != FB_OK)
    fb_rmdir_back(o->out_dir, had);
  if (st == FB_OK)
    fprintf(stderr,
            "fricbench suite: %zu independent jobs in %s; run them (e.g. parallel -a %s, or "
            "scripts/slurm_array.sh %s), then: fricbench merge %s\n",
            o->nparts, file, file, file, dir);
  return st;
}

#define MAX_PARTS 4096

int fb_suite_dist_option(int c, const char *arg, fb_suite_opts *o, const char **emit)
{
  unsigned long i = 0, k = 0;
  if (c == 'E') {
    if (arg[0] == '\0') {
      fputs("fricbench: --emit-jobs: empty file name: give a path\n", stderr);
      return FB_EXIT_USAGE;
    }
    *emit = arg;
    if (o->nparts == 0)
      o->nparts = 16;
    return FB_EXIT_OK;
  }
  if (c == 'K') {
    if (fb_parse_ulong(arg, &k) != FB_OK || k < 1 || k > MAX_PARTS) {
      fprintf(stderr, "fricbench: --parts '%s' is not allowed: use an integer in [1, %d]\n", arg,
              MAX_PARTS);
      return FB_EXIT_USAGE;
    }
    o->nparts = k;
    o->part = 0;
    return FB_EXIT_OK;
  }
  char a[64], *slash;
  snprintf(a, sizeof a, "%s", arg);
  slash = strchr(a, '/');
  if (slash != NULL)
    *slash = '\0';
  if (slash == NULL || fb_parse_ulong(a, &i) != FB_OK || fb_parse_ulong(slash + 1, &k) != FB_OK ||
      k < 1 || k > MAX_PARTS || i < 1 || i > k) {
    fprintf(stderr, "fricbench: --part '%s' is not allowed: use I/K with 1 <= I <= K <= %d\n",
            arg, MAX_PARTS);
    return FB_EXIT_USAGE;
  }
  o->part = i;
  o->nparts = k;
  return FB_EXIT_OK;
}

int fb_suite_dist_check(fb_suite_opts *o, const char *emit, int resume)
{
  if (resume) {
    fputs("fricbench: --resume excludes --part, --parts and --emit-jobs: a part's journal "
          "restores its part, so give only --resume DIR/part-K\n", stderr);
    return FB_EXIT_USAGE;
  }
  if (emit != NULL && o->part != 0) {
    fputs("fricbench: --emit-jobs and --part exclude each other: --emit-jobs writes the --part "
          "commands\n", stderr);
    return FB_EXIT_USAGE;
  }
  if (emit == NULL && o->part == 0) {
    fputs("fricbench: --parts needs --emit-jobs FILE (or run one part with --part I/K)\n",
          stderr);
    return FB_EXIT_USAGE;
  }
  if (o->part != 0)
    o->plots = 0; /* a part is not a result: merge makes the plots */
  return FB_EXIT_OK;
}

