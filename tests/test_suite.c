/* test_suite.c — `fricbench suite --quick` end to end (docs/design.md §8): runs.csv covers every
 * (scenario, model) pair of the quick table, every plot exists as a non-empty PNG and SVG,
 * report.html has every section, two quick runs give the same runs.csv apart from the
 * timing columns, and the verdicts agree with the physics (docs/design.md §3):
 *   naive-sign chatters and never sticks; lugre and smooth-sign drift; glowinski,
 *   switching and kikuuwe hold stick (and do not drift); glowinski is first order.
 * Also: the report survives odd rows (nan, failed, budget, short rows, quoted commas,
 * missing trajectories) and fails cleanly without runs.csv, and a gnuplot script that fails
 * or a gnuplot process that dies fails its own plot and no other.
 *
 * The quick suite is run once per test executable (about 6 s with plots) into a
 * directory keyed by the Criterion runner's pid, which every test process shares; a
 * POST_ALL report hook removes it. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fb_csv.h"
#include "fb_verdicts.h"
#include "fb_gzcsv.h"
#include "fb_report.h"
#include "fb_suite.h"
#include "fb_test.h"

static char out[1 << 14], errbuf[1 << 14];
#define MAX_PLOT_FILES 256 /* files in a report's plots/ */

/* ---- helpers ------------------------------------------------------------------------- */

static void base_dir(char *buf, size_t len, pid_t owner)
{
  snprintf(buf, len, "/tmp/fbt_suite_%ld", (long)owner);
}

static int exists_nonempty(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* The quick suite's output directory (run on first use by any test process).  `which`
 * 1: --jobs 2 with plots; 2: --jobs 1 without plots.  On first use both are run at once
 * (the other in the background, its stderr in BASE/q<which>.log): they are this test's
 * longest part, and side by side they take the time of one. */
static const char *quick_dir(int which)
{
  static char dir[256];
  char base[200], other[256], runs[300], log[300];
  base_dir(base, sizeof base, getppid());
  mkdir(base, 0700);
  snprintf(dir, sizeof dir, "%s/q%d", base, which);
  snprintf(other, sizeof other, "%s/q%d", base, 3 - which);
  const char *a1[] = {"suite", "--quick", "--out", NULL, "--jobs", "2", NULL};
  const char *a2[] = {"suite", "--quick", "--out", NULL, "--jobs", "1", "--no-plots", NULL};
  snprintf(runs, sizeof runs, "%s/runs.csv", dir);
  if (!exists_nonempty(runs)) {
    pid_t bg = -1;
    snprintf(runs, sizeof runs, "%s/runs.csv", other);
    snprintf(log, sizeof log, "%s/q%d.log", base, 3 - which);
    if (!exists_nonempty(runs)) {
      const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      cr_assert_geq(fd, 0, "cannot write %s", log);
      (which == 1 ? a2 : a1)[3] = other;
      bg = fbt_spawn(which == 1 ? a2 : a1, fd, fd);
      close(fd);
    }
    (which == 1 ? a1 : a2)[3] = dir;
    const int rc = fbt_cli(which == 1 ? a1 : a2, out, sizeof out, errbuf, sizeof errbuf);
    int status = 0;
    while (bg > 0 && waitpid(bg, &status, 0) < 0 && errno == EINTR)
      ;
    cr_assert_eq(rc, 0, "fricbench suite --quick (%d) failed with %d: %s", which, rc, errbuf);
    cr_assert(bg <= 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0),
              "fricbench suite --quick (%d) failed (status %d): see %s", 3 - which, status, log);
  }
  return dir;
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
  (void)stats;
  char base[200];
  base_dir(base, sizeof base, getpid());
  fbt_rmdir(base);
}

/* A CSV file as lines of fields (RFC 4180 quotes), for comparisons. */
typedef struct table {
  size_t nrows, ncols;
  char ***rows; /* rows[r][c]; row 0 is the header */
} table;

static table read_table(const char *path)
{
  table t = {0, 0, NULL};
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp, "cannot open %s", path);
  size_t cap = 0;
  char *line = NULL;
  size_t lcap = 0;
  while (getline(&line, &lcap, fp) > 0) {
    if (line[0] == '\n')
      continue;
    char **f = calloc(256, sizeof *f);
    cr_assert_not_null(f);
    size_t nf = 0;
    char *w = line, *start = line;
    int inq = 0;
    for (char *c = line;; c++) {
      if (inq) {
        if (*c == '"' && c[1] == '"') {
          *w++ = '"';
          c++;
        } else if (*c == '"') {
          inq = 0;
        } else {
          *w++ = *c;
        }
        continue;
      }
      if (*c == '"') {
        inq = 1;
        continue;
      }
      if (*c == ',' || *c == '\n' || *c == '\0') {
        const char end = *c;
        *w = '\0';
        cr_assert_lt(nf, 256);
        f[nf++] = strdup(start);
        w = start = c + 1;
        if (end != ',')
          break;
        continue;
      }
      *w++ = *c;
    }
    if (t.nrows == cap) {
      cap = cap ? 2 * cap : 256;
      t.rows = realloc(t.rows, cap * sizeof *t.rows);
      cr_assert_not_null(t.rows);
    }
    if (t.nrows == 0)
      t.ncols = nf;
    cr_assert_eq(nf, t.ncols, "%s: row %zu has %zu fields, the header %zu", path, t.nrows, nf,
                 t.ncols);
    t.rows[t.nrows++] = f;
  }
  free(line);
  fclose(fp);
  cr_assert_gt(t.nrows, 1, "%s has no data row", path);
  return t;
}

static long table_col(const table *t, const char *name)
{
  for (size_t c = 0; c < t->ncols; c++)
    if (strcmp(t->rows[0][c], name) == 0)
      return (long)c;
  return -1;
}

static void free_table(table *t)
{
  for (size_t r = 0; r < t->nrows; r++) {
    for (size_t c = 0; c < t->ncols; c++)
      free(t->rows[r][c]);
    free(t->rows[r]);
  }
  free(t->rows);
}

static char *slurp(const char *path)
{
  FILE *fp = fopen(path, "rb");
  cr_assert_not_null(fp, "cannot open %s", path);
  fseek(fp, 0, SEEK_END);
  const long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  cr_assert_not_null(s);
  cr_assert_eq(fread(s, 1, (size_t)n, fp), (size_t)n);
  s[n] = '\0';
  fclose(fp);
  return s;
}

/* ---- the quick suite ------------------------------------------------------------------ */

Test(suite, quick_runs_cover_the_table, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  table t = read_table(path);
  const long cs = table_col(&t, "scenario"), cm = table_col(&t, "model");
  cr_assert(cs >= 0 && cm >= 0, "runs.csv has scenario and model columns");
  cr_assert(table_col(&t, "wall_s") >= 0 && table_col(&t, "cpu_s") >= 0 &&
                table_col(&t, "err_x_l2") >= 0 && table_col(&t, "status") >= 0,
            "runs.csv documents its metrics, status and timing columns");
  size_t expected_rows = 0;
  fb_table tbl;
  cr_assert_eq(fb_table_default(&tbl), FB_OK);
  for (size_t e = 0; e < tbl.n; e++) {
    const fb_experiment *x = &tbl.e[e];
    if (!(x->flags & FB_EXP_QUICK))
      continue;
    const size_t nv = x->sweep == FB_SWEEP_NONE ? 1 : x->nvalues;
    expected_rows += nv > FB_QUICK_LADDER ? FB_QUICK_LADDER : nv;
    int found = 0;
    for (size_t r = 1; r < t.nrows && !found; r++)
      found = strcmp(t.rows[r][cs], x->scenario) == 0 && strcmp(t.rows[r][cm], x->model) == 0;
    cr_expect(found, "runs.csv has no row for quick pair (%s, %s)", x->scenario, x->model);
  }
  cr_expect_eq(t.nrows - 1, expected_rows, "one row per quick job: %zu rows, %zu jobs",
               t.nrows - 1, expected_rows);
  free_table(&t);
  fb_table_free(&tbl);
  snprintf(path, sizeof path, "%s/orders.csv", dir);
  cr_expect(exists_nonempty(path), "orders.csv written");
  snprintf(path, sizeof path, "%s/meta.json", dir);
  cr_expect(exists_nonempty(path), "meta.json written");
}

/* The plots the quick table calls for (named as in results/README.md). */
static size_t expected_plots(char names[][96], size_t max)
{
  size_t n = 0;
  int drift = 0, chatter = 0, grid = 0;
  fb_table tbl;
  cr_assert_eq(fb_table_default(&tbl), FB_OK);
  for (size_t e = 0; e < tbl.n; e++) {
    const fb_experiment *x = &tbl.e[e];
    if (!(x->flags & FB_EXP_QUICK))
      continue;
    char name[96] = "";
    if (strcmp(x->group, "baseline") == 0 && (x->flags & FB_EXP_TRAJ))
      snprintf(name, sizeof name, "traj_%s", x->scenario);
    else if (strcmp(x->group, "convergence") == 0)
      snprintf(name, sizeof name, "conv_%s", x->scenario);
    else if (strcmp(x->group, "work-precision") == 0)
      snprintf(name, sizeof name, "wp_%s", x->scenario);
    else if (strcmp(x->group, "cost-mu") == 0)
      snprintf(name, sizeof name, "cost_%s", x->scenario);
    else if (strcmp(x->group, "regularization") == 0)
      snprintf(name, sizeof name, "regularization_%s", x->scenario);
    drift |= strcmp(x->group, "drift") == 0;
    grid |= strcmp(x->group, "grid") == 0;
    chatter |= strcmp(x->group, "convergence") == 0 && strcmp(x->scenario, "stick-slip") == 0;
    int dup = name[0] == '\0';
    for (size_t i = 0; i < n && !dup; i++)
      dup = strcmp(names[i], name) == 0;
    if (!dup && n < max)
      snprintf(names[n++], 96, "%s", name);
  }
  if (drift && n < max)
    snprintf(names[n++], 96, "drift");
  if (chatter && n < max)
    snprintf(names[n++], 96, "chatter");
  if (grid && n + 1 < max) {
    snprintf(names[n++], 96, "grid_phase");
    snprintf(names[n++], 96, "grid_force");
  }
  fb_table_free(&tbl);
  return n;
}

Test(suite, quick_plots_exist, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char names[64][96];
  const size_t n = expected_plots(names, 64);
  cr_assert_gt(n, 10, "the quick table calls for plots");
  for (size_t i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/plots/%.90s.png", dir, names[i]);
    cr_expect(exists_nonempty(path), "plot %s missing or empty", path);
    if (exists_nonempty(path)) {
      FILE *fp = fopen(path, "rb");
      unsigned char sig[8] = {0};
      cr_expect_eq(fread(sig, 1, 8, fp), 8);
      fclose(fp);
      cr_expect(sig[0] == 0x89 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G', "%s is a PNG", path);
    }
    /* SVGs only with --svg (results/README.md: kept small by default) */
    snprintf(path, sizeof path, "%s/plots/%.90s.svg", dir, names[i]);
    cr_expect(!exists_nonempty(path), "%s: no SVG without --svg", path);
  }
  /* no temporary file left in plots/ */
  char pdir[512];
  snprintf(pdir, sizeof pdir, "%s/plots", dir);
  DIR *d = opendir(pdir);
  cr_assert_not_null(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    cr_expect(strstr(e->d_name, ".tmp.") == NULL, "temporary file left: %s", e->d_name);
  closedir(d);
}

/* 1 when path starts with gzip's magic and inflates to a non-empty text. */
static int is_gzip(const char *path)
{
  FILE *fp = fopen(path, "rb");
  unsigned char m[2] = {0};
  const int magic = fp != NULL && fread(m, 1, 2, fp) == 2 && m[0] == 0x1f && m[1] == 0x8b;
  if (fp != NULL)
    fclose(fp);
  char *text = NULL;
  size_t len = 0;
  const int ok = magic && fb_gz_read_all(path, &text, &len) == 0 && len > 0;
  free(text);
  return ok;
}

/* What results/README.md says is compressed is: every plot data file (plots/data/<name>.dat.gz,
 * no plain .dat) and every trajectory (traj/<scenario>/<name>.csv.gz) is gzip. */
Test(suite, quick_compressed_files_are_gzip, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char path[1200];
  snprintf(path, sizeof path, "%s/plots/data", dir);
  DIR *d = opendir(path);
  cr_assert_not_null(d, "no %s", path);
  size_t ndata = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    const size_t l = strlen(e->d_name);
    cr_expect(l > 7 && strcmp(e->d_name + l - 7, ".dat.gz") == 0, "plots/data/%s is not .dat.gz",
              e->d_name);
    snprintf(path, sizeof path, "%s/plots/data/%s", dir, e->d_name);
    cr_expect(is_gzip(path), "%s is not gzip", path);
    ndata++;
  }
  closedir(d);
  cr_expect_gt(ndata, 5, "plot data files found");
  snprintf(path, sizeof path, "%s/traj", dir);
  DIR *t = opendir(path);
  cr_assert_not_null(t, "no %s", path);
  size_t ntraj = 0;
  while ((e = readdir(t)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char sub[800];
    snprintf(sub, sizeof sub, "%s/traj/%s", dir, e->d_name);
    DIR *s2 = opendir(sub);
    cr_assert_not_null(s2, "%s is not a folder", sub);
    struct dirent *f;
    while ((f = readdir(s2)) != NULL) {
      if (f->d_name[0] == '.')
        continue;
      const size_t l = strlen(f->d_name);
      cr_expect(l > 7 && strcmp(f->d_name + l - 7, ".csv.gz") == 0, "traj/%s/%s is not .csv.gz",
                e->d_name, f->d_name);
      snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
      cr_expect(is_gzip(path), "%s is not gzip", path);
      ntraj++;
    }
    closedir(s2);
  }
  closedir(t);
  cr_expect_gt(ntraj, 10, "trajectory files found");
}

Test(suite, quick_report_has_every_section, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char path[512];
  snprintf(path, sizeof path, "%s/report.html", dir);
  cr_assert(exists_nonempty(path), "report.html written");
  char *s = slurp(path);
  static const char *const ids[] = {"id=\"run\"", "id=\"verdicts\"", "id=\"seed-claims\"",
                                    "id=\"plots\"", "id=\"omissions\"", "id=\"numbers\""};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
    cr_expect(strstr(s, ids[i]) != NULL, "report.html lacks the section %s", ids[i]);
  /* every expected plot, no external script or style */
  char names[64][96];
  const size_t n = expected_plots(names, 64);
  for (size_t i = 0; i < n; i++) {
    char anchor[128];
    snprintf(anchor, sizeof anchor, "id=\"plot-%.90s\"", names[i]);
    cr_expect(strstr(s, anchor) != NULL, "report.html lacks the plot %s", names[i]);
  }
  /* every plot shown from its PNG beside the page (relative link to an existing file) */
  size_t nimg = 0;
  for (const char *p = s; (p = strstr(p, "<img ")) != NULL; p++) {
    const char *src = strstr(p, "src=\"");
    cr_assert_not_null(src);
    src += 5;
    const char *end = strchr(src, '"');
    cr_assert_not_null(end);
    char file[600];
    snprintf(file, sizeof file, "%s/%.*s", dir, (int)(end - src), src);
    cr_expect(strncmp(src, "plots/", 6) == 0 && exists_nonempty(file),
              "img %.*s is not a PNG under plots/", (int)(end - src), src);
    nimg++;
  }
  cr_expect_geq(nimg, n, "every plot shown (%zu of %zu)", nimg, n);
  cr_expect(strstr(s, "<script") == NULL && strstr(s, "<link") == NULL, "no external resources");
  cr_expect(strstr(s, "</html>") != NULL, "complete document");
  free(s);
}

Test(suite, quick_is_deterministic, .timeout = 300)
{
  char p1[512], p2[512];
  snprintf(p1, sizeof p1, "%s/runs.csv", quick_dir(1));
  snprintf(p2, sizeof p2, "%s/runs.csv", quick_dir(2));
  table a = read_table(p1), b = read_table(p2);
  cr_assert_eq(a.ncols, b.ncols, "same columns");
  cr_assert_eq(a.nrows, b.nrows, "same number of rows: %zu and %zu", a.nrows, b.nrows);
  const long w = table_col(&a, "wall_s"), c = table_col(&a, "cpu_s");
  cr_assert(w >= 0 && c >= 0);
  size_t diffs = 0;
  for (size_t r = 0; r < a.nrows; r++)
    for (size_t k = 0; k < a.ncols; k++) {
      if ((long)k == w || (long)k == c)
        continue;
      if (strcmp(a.rows[r][k], b.rows[r][k]) != 0 && diffs++ < 10)
        cr_expect_fail("runs.csv differs between --jobs 2 and --jobs 1 at row %zu (%s %s %s), column %s: "
                       "'%s' vs '%s'", r, a.rows[r][3], a.rows[r][4], a.rows[r][5], a.rows[0][k],
                       a.rows[r][k], b.rows[r][k]);
    }
  cr_expect_eq(diffs, 0, "%zu differing fields", diffs);
  free_table(&a);
  free_table(&b);
}

/* Descriptors open in this process. */
static size_t open_fds(void)
{
  DIR *d = opendir("/proc/self/fd");
  cr_assert_not_null(d);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

/* A copy of the quick suite's directory as DIR/q1, without its plots and report.html:
 * what a report made afterwards starts from. */
static void copy_without_report(const char *quick, const char *into)
{
  char cmd[2048];
  fbt_rmdir(into);
  mkdir(into, 0700);
  snprintf(cmd, sizeof cmd, "cp -a '%s' '%s/' && rm -rf '%s/q1/plots' '%s/q1/report.html'", quick,
           into, into, into);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The names of the files in DIR/plots (not its data/ folder), at most max. */
static size_t plot_files(const char *dir, char (*names)[256], size_t max)
{
  char path[600];
  snprintf(path, sizeof path, "%s/plots", dir);
  DIR *d = opendir(path);
  cr_assert_not_null(d, "cannot open %s", path);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < max)
    if (e->d_name[0] != '.' && strcmp(e->d_name, "data") != 0)
      snprintf(names[n++], sizeof names[0], "%s", e->d_name);
  closedir(d);
  cr_assert_lt(n, max, "more than %zu files in %s: raise MAX_PLOT_FILES", max - 1, path);
  return n;
}

/* The trajectory overlays are drawn while the runs still go (fb_report.h's early plots):
 * the report the suite wrote equals, byte for byte, one made afterwards from the same
 * files with every plot drawn at the end (a copy in a folder of the same name, which
 * report.html shows).  And the late report leaves no descriptor open: gnuplot reads the
 * trajectories from inflated copies behind descriptors (traj_source), closed once the
 * plots' jobs have ended. */
Test(suite, quick_early_plots_equal_a_late_report, .timeout = 600)
{
  const char *dir = quick_dir(1);
  char base[200], late[300], cmd[2048], path[600], lpath[600];
  static char names[MAX_PLOT_FILES][256];
  base_dir(base, sizeof base, getppid());
  snprintf(late, sizeof late, "%s/late", base);
  copy_without_report(dir, late);
  snprintf(late, sizeof late, "%s/late/q1", base);
  fb_err err = {{0}};
  const size_t fds = open_fds();
  cr_assert_eq(fb_report_make(late, 2, &err), FB_OK, "%s", err.msg);
  cr_expect_eq(open_fds(), fds, "descriptors open before the report %zu, after %zu", fds,
               open_fds());
  const size_t n = plot_files(dir, names, MAX_PLOT_FILES);
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/plots/%s", dir, names[i]);
    snprintf(lpath, sizeof lpath, "%s/plots/%s", late, names[i]);
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", path, lpath);
    cr_expect_eq(system(cmd), 0, "%s differs from the late report's", names[i]);
  }
  cr_expect_gt(n, 10, "plots compared");
  snprintf(path, sizeof path, "%s/report.html", dir);
  snprintf(lpath, sizeof lpath, "%s/report.html", late);
  snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", path, lpath);
  cr_expect_eq(system(cmd), 0, "report.html differs from the late report's");
}

/* The report's gnuplot processes outlive a plot (report_gnuplot.c's pool).  A script that
 * fails fails its plot alone, with gnuplot's message; a gnuplot killed in the middle of a
 * plot fails that plot, and the plots after it get a new process; every other plot is
 * drawn, no temporary is left in plots/, no descriptor stays open and no child is left. */
Test(suite, report_survives_a_failing_and_a_dying_gnuplot, .timeout = 600)
{
  const char *dir = quick_dir(1);
  char base[200], work[300], late[400], scripts[400], cmd[4096], path[800];
  static char names[MAX_PLOT_FILES][256];
  base_dir(base, sizeof base, getppid());
  snprintf(work, sizeof work, "%s/gpfail", base);
  copy_without_report(dir, work);
  const char *src = getenv("FB_SOURCE_ROOT");
  cr_assert_not_null(src, "FB_SOURCE_ROOT is not set (run the tests through meson test)");
  snprintf(late, sizeof late, "%s/q1", work);
  snprintf(scripts, sizeof scripts, "%s/scripts", work);
  snprintf(cmd, sizeof cmd,
           "cp -a '%s/scripts' '%s/' && sed -i '1i print no_such_variable_fb' '%s/conv.gp' && "
           "sed -i '1i system(\"kill -9 $PPID\")' '%s/drift.gp'",
           src, work, scripts, scripts);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  cr_assert_eq(setenv("FRICBENCH_SCRIPTS", scripts, 1), 0);
  const size_t fds = open_fds();
  fb_err err = {{0}};
  cr_expect_eq(fb_report_make(late, 2, &err), FB_EIO);
  unsetenv("FRICBENCH_SCRIPTS");
  cr_expect(strstr(err.msg, "3 plot(s) failed") != NULL, "conv x2 and drift fail: %s", err.msg);
  cr_expect_eq(open_fds(), fds, "descriptors open before the report %zu, after %zu", fds, open_fds());
  errno = 0;
  cr_expect(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "a gnuplot process is left");
  snprintf(path, sizeof path, "%s/report.html", late);
  char *html = slurp(path);
  cr_assert_not_null(html, "report.html is written with the failures named");
  cr_expect(strstr(html, "undefined variable: no_such_variable_fb") != NULL,
            "the failing script's plot says what gnuplot said");
  cr_expect(strstr(html, "gnuplot ended before the plot did (signal 9)") != NULL,
            "the killed process's plot says how it ended");
  free(html);
  /* every other plot of the suite's report is drawn, the failed ones are absent */
  const size_t n = plot_files(dir, names, MAX_PLOT_FILES);
  size_t drawn = 0;
  for (size_t i = 0; i < n; i++) {
    const char *f = names[i];
    const int failed = strncmp(f, "conv_", 5) == 0 || strncmp(f, "drift.", 6) == 0;
    snprintf(path, sizeof path, "%s/plots/%s", late, f);
    cr_expect_eq(exists_nonempty(path), !failed, "%s: %s", f, failed ? "drawn though it failed" : "not drawn");
    drawn += !failed;
  }
  cr_expect_gt(drawn, 20, "plots drawn around the failures");
  const size_t nl = plot_files(late, names, MAX_PLOT_FILES);
  for (size_t i = 0; i < nl; i++)
    cr_expect_null(strstr(names[i], ".tmp."), "temporary left: %s", names[i]);
  fbt_rmdir(work);
}

#define verdict_of fb_vtable_find

/* The verdicts the quick suite writes (verdicts.csv) say what the physics says, judged
 * where a property can fail: spring-loaded stick (preload-hold, stick-slip), drift as
 * accumulation, equal damping for the two spring-slider-damper elements. */
Test(suite, quick_verdicts_agree_with_physics, .timeout = 300)
{
  const char *dir = quick_dir(1);
  fb_vtable v;
  fb_err err = {{0}};
  cr_assert_eq(fb_verdicts_load(dir, &v, &err), FB_OK, "%s", err.msg);
  const fb_vrow *r;
#define V(model, view, prop)                                                                   \
  ((r = verdict_of(&v, model, view, prop)) != NULL ? r->verdict : "(none)")
  cr_expect_str_eq(V("naive-sign", "defaults", "stick"), "no (worst 0.00)");
  /* at its default step the sign law drifts off the near-breakaway drift load (E_disc 5x
   * the scale): unstable there, so its defaults read the instability, never "holds" */
  cr_expect(strncmp(V("naive-sign", "defaults", "hold"), "unstable", 8) == 0 ||
                strncmp(V("naive-sign", "defaults", "hold"), "slips", 5) == 0,
            "%s", r ? r->verdict : "");
  cr_expect_str_eq(V("naive-sign", "fixed-step", "chatter"), "yes, numerical",
                   "the sign law's chatter grows as h shrinks");
  /* hold (docs/design.md §10.1): the regularized and bristle laws do not hold where exact
   * Coulomb friction holds; the exact schemes do */
  const char *const losers[] = {"lugre", "dahl", "smooth-sign"};
  for (size_t i = 0; i < 3; i++)
    cr_expect(strcmp(V(losers[i], "defaults", "hold"), "holds") != 0 &&
                  strcmp(V(losers[i], "defaults", "hold"), "(none)") != 0,
              "%s: %s", losers[i], r ? r->verdict : "");
  const char *holders[] = {"switching", "moreau-jean"};
  for (size_t i = 0; i < 2; i++) {
    /* moreau-jean at h = 0.01 enters awrejcewicz's sticks 3-6 steps late (its cycle's phase
     * lags the reference's by O(h) per cycle): worst 0.98 there, still yes */
    if (i == 0)
      cr_expect_str_eq(V(holders[i], "defaults", "stick"), "yes (worst 1.00)", "%s", holders[i]);
    else {
      const char *mj = V(holders[i], "defaults", "stick");
      cr_expect(strncmp(mj, "yes (worst 0.9", 14) == 0 || strcmp(mj, "yes (worst 1.00)") == 0,
                "%s: %s", holders[i], mj);
    }
    cr_expect_str_eq(V(holders[i], "defaults", "hold"), "holds", "%s", holders[i]);
    cr_expect_str_eq(V(holders[i], "defaults", "chatter"), "no", "%s", holders[i]);
  }
  /* the splitting's discretization creep on the spring-loaded hold: first order in h */
  cr_expect_str_eq(V("glowinski", "fixed-step", "creep"), "creeps O(h^1.0)");
  /* glowinski's own flag says stick, but with a spring (preload-hold) it creeps */
  cr_expect_eq(strncmp(V("glowinski", "defaults", "stick"), "flag only", 9), 0, "%s",
               r ? r->verdict : "");
  /* equal damping (critical), equal verdicts: the element, not the damper, is judged */
  const fb_vrow *kp = verdict_of(&v, "kikuuwe", "defaults", "stick");
  const fb_vrow *pp = verdict_of(&v, "penalty", "fixed-step", "stick");
  const fb_vrow *kf = verdict_of(&v, "kikuuwe", "fixed-step", "stick");
  cr_assert(kp != NULL && pp != NULL && kf != NULL);
  cr_expect(fabs(pp->value - kf->value) < 0.05, "penalty %g vs kikuuwe %g held at 1 ms",
            pp->value, kf->value);
  const fb_vrow *gl = verdict_of(&v, "glowinski", "convergence", "order");
  cr_expect(gl != NULL && fabs(gl->value - 1.0) < 0.15, "glowinski-lie is first order: %g",
            gl ? gl->value : (double)NAN);
#undef V
  fb_vtable_free(&v);
}

/* An unstable run is never ok (docs/design.md §10.2): in the quick suite's runs.csv every
 * row whose instability index exceeds 1 is `unstable`, every `ok` row's is at most 1 (or
 * unmeasured, or the energy's of a run within 1e-2 of its own converged solution), and the
 * suite has both kinds, so the rule is judged where it can fail. */
Test(suite, no_ok_run_is_unstable, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char path[512];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  fb_csv T;
  cr_assert_eq(fb_csv_load(&T, path, NULL), FB_OK);
  const int cs = fb_csv_col(&T, "status"), ci = fb_csv_col(&T, "instability"),
            cd = fb_csv_col(&T, "disc_x_l2"), co = fb_csv_col(&T, "own_x_l2");
  cr_assert(cs >= 0 && ci >= 0 && cd >= 0 && co >= 0);
  size_t nunst = 0, nok = 0;
  for (size_t k = 0; k < T.nrows; k++) {
    const char *st = fb_csv_s(&T, k, cs);
    /* a run within 1e-2 of its own converged solution: its index is the energy's, which
     * that solution has too (the model's physics, fb_run_unstable) */
    const double own = fb_csv_d(&T, k, co);
    const int agrees = own > 0 && fb_csv_d(&T, k, cd) < 1e-2 * own;
    const double q = agrees ? (double)NAN : fb_csv_d(&T, k, ci);
    if (strcmp(st, "ok") == 0) {
      nok++;
      cr_expect(!(q > 1.0), "row %zu is ok with instability %g", k + 1, q);
    }
    if (q > 1.0) {
      cr_expect_str_eq(st, "unstable", "row %zu", k + 1);
      nunst++;
    }
  }
  cr_expect(nunst > 0 && nok > 0, "%zu unstable, %zu ok", nunst, nok);
  fb_csv_free(&T);
}

/* The stable step by bisection (docs/design.md §10.2) on the stiff joint of the README
 * (preload-hold, m = 2 kg, k = 5e4 N/m, mu = 0.3): Kikuuwe's ODE under rk4 goes
 * non-finite at the common 1 ms and is stable at 0.25 ms, so its h_max lies between them,
 * with the unstable step found above it; the event-driven switching model is stable up to
 * 0.1 T.  A plan with the fixed-step view (which the verdicts judge) and the bisections. */
static const char joint_plan[] =
    "[view kikuuwe]\ngroup = fixed-step\nscenario = preload-hold\nmodel = kikuuwe\n"
    "integrator = rk4\nset = m=2, k=5e4, mu=0.3\nsweep = h\nvalues = 1e-3, 2.5e-4\n"
    "[bisect kikuuwe]\ngroup = stable-step\nscenario = preload-hold\nmodel = kikuuwe\n"
    "integrator = rk4\nset = m=2, k=5e4, mu=0.3\nh = 2.5e-4\nbisect = yes\n"
    "[view switching]\ngroup = fixed-step\nscenario = preload-hold\nmodel = switching\n"
    "set = m=2, k=5e4, mu=0.3\nsweep = h\nvalues = 1e-3, 2.5e-4\n"
    "[bisect switching]\ngroup = stable-step\nscenario = preload-hold\nmodel = switching\n"
    "set = m=2, k=5e4, mu=0.3\nh = 2.5e-4\nbisect = yes\n";

Test(suite, stable_step_bisects_the_stiff_joint, .timeout = 300)
{
  char dir[64], plan[128], runs[192];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(plan, sizeof plan, "%s/joint.ini", dir);
  FILE *fp = fopen(plan, "w");
  cr_assert_not_null(fp);
  fputs(joint_plan, fp);
  fclose(fp);
  char out_dir[128];
  snprintf(out_dir, sizeof out_dir, "%s/out", dir);
  const char *argv[] = {"suite", "--plan", plan, "--out", out_dir, "--jobs", "1",
                        "--no-plots", NULL};
  const int rc = fbt_cli(argv, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "%s", errbuf);
  snprintf(runs, sizeof runs, "%s/runs.csv", out_dir);
  fb_csv T;
  cr_assert_eq(fb_csv_load(&T, runs, NULL), FB_OK);
  const int cg = fb_csv_col(&T, "group"), cm = fb_csv_col(&T, "model"),
            ch = fb_csv_col(&T, "h"), cw = fb_csv_col(&T, "sweep"),
            cv = fb_csv_col(&T, "sweep_value"), cs = fb_csv_col(&T, "status");
  size_t nbis = 0;
  for (size_t k = 0; k < T.nrows; k++) {
    if (strcmp(fb_csv_s(&T, k, cg), "stable-step") != 0)
      continue;
    nbis++;
    cr_expect_str_eq(fb_csv_s(&T, k, cw), "stable-step");
    cr_expect_str_eq(fb_csv_s(&T, k, cs), "ok", "the row is the run at h_max");
    const double h = fb_csv_d(&T, k, ch), hu = fb_csv_d(&T, k, cv);
    if (strcmp(fb_csv_s(&T, k, cm), "kikuuwe") == 0) {
      cr_expect(h >= 2.5e-4 && h <= 1e-3, "kikuuwe/rk4 h_max %g", h);
      cr_expect(hu > h && hu <= 1e-3, "unstable step %g above h_max %g", hu, h);
      cr_expect(hu / h < 1.2, "8 geometric runs bracket h_max within 20 %%: %g / %g", hu, h);
    } else {
      cr_expect_float_eq(h, 0.5, 1e-12, "switching stable at 0.1 T = 0.5 s: %g", h);
      cr_expect(isnan(hu), "no unstable step: %g", hu);
    }
  }
  cr_expect_eq(nbis, 2);
  fb_csv_free(&T);
  fb_vtable v;
  fb_err err = {{0}};
  cr_assert_eq(fb_verdicts_load(out_dir, &v, &err), FB_OK, "%s", err.msg);
  const fb_vrow *r = verdict_of(&v, "kikuuwe", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect(r->value >= 2.5e-4 && r->value <= 1e-3, "%s", r->verdict);
  cr_expect_str_eq(r->scenarios, "preload-hold");
  cr_expect_eq(strncmp(r->verdict, "stable <= ", 10), 0, "%s", r->verdict);
  r = verdict_of(&v, "switching", "fixed-step", "stable-step");
  cr_assert(r != NULL);
  cr_expect_str_eq(r->verdict, "stable up to 0.1 T on every scenario");
  fb_vtable_free(&v);
  fbt_rmdir(dir);
}

/* ---- odd inputs ------------------------------------------------------------------------ */

Test(suite, report_without_runs_csv_fails_cleanly)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  fb_err err = {{0}};
  cr_expect_eq(fb_report_make(dir, 0, &err), FB_EIO);
  cr_expect(strstr(err.msg, "runs.csv") != NULL, "the message names runs.csv: %s", err.msg);
  cr_expect_eq(fb_verdicts_write(dir, &err), FB_EIO);
  cr_expect(strstr(err.msg, "runs.csv") != NULL, "%s", err.msg);
  char path[128];
  snprintf(path, sizeof path, "%s/report.html", dir);
  cr_expect(!exists_nonempty(path), "no report.html without runs.csv");
  fbt_rmdir(dir);
}

Test(suite, report_survives_odd_rows, .timeout = 120)
{
  char dir[64], path[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs("run_id,group,tag,scenario,model,integrator,mode,h,atol,rtol,sweep,sweep_value,"
        "scenario_params,model_params,ref,status,message,t_reached,nsteps,nrejected,nfe,njac,"
        "nevents,ninner,nswitch,err_x_l2,err_v_l2,err_F_l2,err_x_max,err_v_max,err_x_T,err_v_T,"
        "stick_time,stick_time_ref,onset_err,offset_err,missed,spurious,drift,drift_per_cycle,"
        "chatter_rate,chatter_v_rms,chatter_F_tv,power_pos_count,power_pos_max,wall_s,cpu_s\n", fp);
  /* ok baseline row whose trajectory file does not exist */
  fputs("1,baseline,,drift,lugre,msbdf,adaptive,nan,1e-08,1e-08,,nan,\"b=0.5;a=0.4\",sigma0=1e5,exact,ok,,"
        "10,100,0,1000,10,0,0,0,1e-4,1e-4,1e-3,1e-4,1e-4,1e-4,1e-4,3.8,10,nan,nan,0,0,7e-5,7e-6,2.2,"
        "1e-3,1.4,0,0,0.01,0.01\n", fp);
  /* failed row with a quoted message holding commas and quotes, metrics nan */
  fputs("2,convergence,,stick-slip,lugre,rk2imp,fixed,0.01,nan,nan,h,0.01,,,event,failed,"
        "\"gsl error -1 (failure), \"\"odd\"\" at t=0.5\",0.5,10,0,20,0,0,0,0,nan,nan,nan,nan,nan,"
        "nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,0.001,0.001\n", fp);
  /* budget rows in a cost ladder */
  fputs("3,cost-mu,,coupled-sledges,naive-sign,rkf45,adaptive,nan,1e-06,1e-06,mu,0.1,,,event,ok,,10,"
        "1000,0,6000,0,0,0,0,1e-3,nan,nan,nan,nan,nan,nan,1,1,0,0,0,0,0,0,100,0,0,0,0,0.1,0.1\n", fp);
  fputs("4,cost-mu,,coupled-sledges,naive-sign,rkf45,adaptive,nan,1e-06,1e-06,mu,0.6,,,event,budget,"
        "step budget of 2000000 steps exhausted at t=9.19,9.19,2000000,0,12000001,0,0,0,0,nan,nan,nan,"
        "nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,3.1,3.0\n", fp);
  /* a short row, a blank line, a row without a reference, infinities and garbage numbers */
  fputs("5,drift,default,drift,kikuuwe\n\n", fp);
  fputs("6,grid,eps=0.1,two-mass-drive,penalty,newmark,fixed,0.1,nan,nan,h,0.1,v=0.5;Omega=0.2;T=628,,"
        "none,ok,,628,6283,0,12566,0,0,0,0,inf,-inf,x,,,,,,,,,,,,,,,,,,0.004,0.004\n", fp);
  fclose(fp);
  fb_err err = {{0}};
  const int st = fb_report_make(dir, 0, &err);
  cr_expect_eq(st, FB_OK, "odd rows do not stop the report: %s", err.msg);
  snprintf(path, sizeof path, "%s/report.html", dir);
  cr_assert(exists_nonempty(path), "report.html written");
  char *s = slurp(path);
  cr_expect(strstr(s, "id=\"omissions\"") && strstr(s, "&quot;odd&quot;"),
            "the failed run and its message are listed under omissions");
  cr_expect(strstr(s, "budget") != NULL, "the budget run is listed");
  free(s);
  snprintf(path, sizeof path, "%s/plots/cost_coupled-sledges.png", dir);
  cr_expect(exists_nonempty(path), "the cost plot is drawn with a budget point");
  /* the report made verdicts.csv for this older directory; the stick columns of the old
   * layout (no stick_held) leave stick unjudged instead of guessed */
  fb_vtable v;
  cr_expect_eq(fb_verdicts_load(dir, &v, &err), FB_OK, "%s", err.msg);
  cr_expect_null(verdict_of(&v, "lugre", "defaults", "drift"), "no drift growth: not judged");
  fb_vtable_free(&v);
  fbt_rmdir(dir);
}

/* A page per scenario of the quick suite's runs, linked from report.html's tables
 * (bench/report/report_pages.c; its content: tests/test_pages.c). */
Test(suite, quick_has_a_page_per_scenario, .timeout = 300)
{
  const char *dir = quick_dir(1);
  char path[512], link[200];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  table t = read_table(path);
  snprintf(path, sizeof path, "%s/report.html", dir);
  char *html = slurp(path);
  const long c = table_col(&t, "scenario");
  cr_assert_geq(c, 0);
  for (size_t r = 1; r < t.nrows; r++) {
    snprintf(path, sizeof path, "%s/scenario-%s.html", dir, t.rows[r][c]);
    cr_expect(exists_nonempty(path), "no page %s", path);
    snprintf(link, sizeof link, "<a href=\"scenario-%s.html\">", t.rows[r][c]);
    cr_expect(strstr(html, link) != NULL, "report.html does not link %s", link);
  }
  free(html);
  free_table(&t);
}
