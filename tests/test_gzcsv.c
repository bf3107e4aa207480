/* test_gzcsv.c — the suite's compressed trajectory files (bench/harness/fb_gzcsv.h): what the
 * suite writes is the run's trajectory at FB_TRAJ_DIGITS digits, readable by zlib and by
 * the report; a plan's traj_tail keeps only the window it asks for. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_gzcsv.h"
#include "fb_test.h"

static char out[1 << 16], errb[1 << 12];

static void write_file(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Rows of a trajectory text (header skipped) as numbers: row-major into v, returns rows. */
static size_t parse_rows(char *text, double *v, size_t cols, size_t max_rows)
{
  size_t r = 0;
  char *p = strchr(text, '\n');
  while (p != NULL && p[1] != '\0' && r < max_rows) {
    p++;
    for (size_t c = 0; c < cols; c++) {
      v[r * cols + c] = strtod(p, &p);
      if (*p == ',')
        p++;
    }
    r++;
    p = strchr(p, '\n');
  }
  return r;
}

Test(gzcsv, suite_trajectory_is_the_run_at_nine_digits)
{
  char dir[64], plan[128], o[128], path[256];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(plan, sizeof plan, "%s/p.ini", dir);
  snprintf(o, sizeof o, "%s/out", dir);
  write_file(plan, "[one]\nscenario = stick-slip\nmodel = kikuuwe\nintegrator = rk4\n"
                   "h = 1e-3\ntraj = yes\nsamples = 501\n"
                   "[tail]\nscenario = stick-slip\nmodel = moreau-jean\nh = 1e-3\ntraj = yes\n"
                   "samples = 501\ntraj_tail = 0.1\n");
  const char *a[] = {"suite", "--plan", plan, "--no-plots", "--jobs", "1", "--out", o, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errb, sizeof errb), 0, "%s", errb);
  snprintf(path, sizeof path, "%s/traj/stick-slip/kikuuwe__rk4__h0.001" FB_TRAJ_EXT, o);
  char *text;
  size_t len;
  cr_assert_eq(fb_gz_read_all(path, &text, &len), 0, "%s not readable", path);
  cr_assert(strncmp(text, "t,x,v,F,e,stick\n", 16) == 0, "header: %.40s", text);
  /* the same run in memory, at full precision */
  fb_trace tr;
  fb_run_result res;
  fbt_run("stick-slip", "kikuuwe", "rk4", 1e-3, 0, NULL, 501, &tr, NULL, &res);
  double *v = calloc(501 * 6, sizeof(double));
  cr_assert_not_null(v);
  const size_t rows = parse_rows(text, v, 6, 501);
  cr_assert_eq(rows, tr.filled, "%zu rows, the run has %zu samples", rows, tr.filled);
  double worst = 0.0;
  for (size_t k = 0; k < rows; k++) {
    const double want[4] = {tr.t[k], tr.y[k * tr.dim], tr.y[k * tr.dim + 1], tr.F[k]};
    for (size_t c = 0; c < 4; c++)
      worst = fmax(worst, fabs(v[k * 6 + c] - want[c]) / fmax(fabs(want[c]), 1e-300));
  }
  cr_log_info("largest relative difference file vs run: %.3g\n", worst);
  cr_assert(worst <= 5.1e-9, "9 significant digits: relative %.3g", worst);
  free(text);
  fb_trace_free(&tr);
  /* traj_tail = 0.1: the last tenth of the 10 s span, from t = 9 on */
  snprintf(path, sizeof path, "%s/traj/stick-slip/moreau-jean__moreau-jean__h0.001" FB_TRAJ_EXT,
           o);
  cr_assert_eq(fb_gz_read_all(path, &text, &len), 0, "%s not readable", path);
  const size_t tail_rows = parse_rows(text, v, 6, 501);
  cr_log_info("tail: %zu rows from t = %g to %g\n", tail_rows, v[0], v[(tail_rows - 1) * 6]);
  cr_assert(tail_rows >= 50 && tail_rows <= 52, "%zu rows", tail_rows);
  cr_assert(fabs(v[0] - 9.0) < 0.021 && fabs(v[(tail_rows - 1) * 6] - 10.0) < 1e-9);
  free(text);
  free(v);
  fbt_rmdir(dir);
}

Test(gzcsv, bad_traj_tail_is_refused)
{
  char dir[64], plan[128], o[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(plan, sizeof plan, "%s/p.ini", dir);
  snprintf(o, sizeof o, "%s/out", dir);
  write_file(plan, "[x]\nscenario = stick-slip\nmodel = kikuuwe\ntraj_tail = 1.5\n");
  const char *a[] = {"suite", "--plan", plan, "--out", o, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errb, sizeof errb), 2, "%s", errb);
  cr_assert(strstr(errb, "traj_tail") != NULL && strstr(errb, "1.5") != NULL, "%s", errb);
  cr_assert_eq(fbt_lines(errb), 1, "%s", errb);
  cr_assert_eq(fbt_dir_entries(dir), 1, "only the plan is there");
  fbt_rmdir(dir);
}

/* A large plant's file keeps the DOFs asked for under their own names (traj_dofs: the
 * first 3 blocks of a chain of 10 with their contacts and moreau-jean's states; the last 2
 * with theirs), each column the run's at 9 digits; 0 keeps every column. */
Test(gzcsv, traj_dofs_keeps_named_dofs)
{
  char dir[64], plan[128], o[128], path[256];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(plan, sizeof plan, "%s/p.ini", dir);
  snprintf(o, sizeof o, "%s/out", dir);
  write_file(plan, "[first]\nscenario = chain\nmodel = moreau-jean\nh = 1e-3\ntraj = yes\n"
                   "samples = 101\nset = T=0.5\ntraj_dofs = 3\ntag = first\n"
                   "[last]\nscenario = chain\nmodel = moreau-jean\nh = 1e-3\ntraj = yes\n"
                   "samples = 101\nset = T=0.5\ntraj_dofs = -2\ntag = last\n"
                   "[all]\nscenario = chain\nmodel = moreau-jean\nh = 1e-3\ntraj = yes\n"
                   "samples = 101\nset = T=0.5\ntag = all\n");
  const char *a[] = {"suite", "--plan", plan, "--no-plots", "--jobs", "1", "--out", o, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errb, sizeof errb), 0, "%s", errb);
  static const struct {
    const char *tag, *head;
    size_t ncols, d0, nd, c0, nc;
  } want[] = {
      {"first", "t,x1,x2,x3,v1,v2,v3,F1,F2,F3,F_step1,stick_step1,F_step2,stick_step2,F_step3,"
                "stick_step3,stick1,stick2,stick3\n", 19, 0, 3, 0, 3},
      {"last", "t,x9,x10,v9,v10,F9,F10,F_step9,stick_step9,F_step10,stick_step10,stick9,"
               "stick10\n", 13, 8, 2, 8, 2},
  };
  fb_trace tr;
  fb_run_result res;
  const char *const sets[] = {"T=0.5", NULL};
  fbt_run("chain", "moreau-jean", NULL, 1e-3, 0, sets, 101, &tr, NULL, &res);
  double *v = calloc(101 * 19, sizeof(double));
  cr_assert_not_null(v);
  for (size_t w = 0; w < 2; w++) {
    snprintf(path, sizeof path, "%s/traj/chain/moreau-jean__moreau-jean__h0.001__%s" FB_TRAJ_EXT,
             o, want[w].tag);
    char *text;
    size_t len;
    cr_assert_eq(fb_gz_read_all(path, &text, &len), 0, "%s not readable", path);
    cr_assert(strncmp(text, want[w].head, strlen(want[w].head)) == 0, "header: %.120s", text);
    const size_t rows = parse_rows(text, v, want[w].ncols, 101);
    cr_assert_eq(rows, tr.filled);
    double worst = 0.0;
    for (size_t k = 0; k < rows; k++) {
      const double *y = tr.y + k * tr.dim, *row = v + k * want[w].ncols;
      for (size_t i = 0; i < want[w].nd; i++) {
        const double x = y[want[w].d0 + i], vel = y[tr.n + want[w].d0 + i];
        worst = fmax(worst, fabs(row[1 + i] - x) / fmax(fabs(x), 1e-300));
        worst = fmax(worst, fabs(row[1 + want[w].nd + i] - vel) / fmax(fabs(vel), 1e-300));
      }
      for (size_t i = 0; i < want[w].nc; i++) {
        const double F = tr.F[k * tr.nc + want[w].c0 + i];
        worst = fmax(worst, fabs(row[1 + 2 * want[w].nd + i] - F) / fmax(fabs(F), 1e-300));
      }
    }
    cr_assert(worst <= 5.1e-9, "%s: the run's columns at 9 digits: relative %.3g", want[w].tag,
              worst);
    free(text);
  }
  /* traj_dofs 0: every block */
  snprintf(path, sizeof path, "%s/traj/chain/moreau-jean__moreau-jean__h0.001__all" FB_TRAJ_EXT, o);
  char head[2048];
  cr_assert(fb_gz_head(path, head, sizeof head, NULL, 0) >= 0, "%s not readable", path);
  cr_assert(strstr(head, ",x10,v1,") != NULL && strstr(head, ",stick10") != NULL, "%s", head);
  free(v);
  fb_trace_free(&tr);
  fbt_rmdir(dir);
}

Test(gzcsv, bad_traj_dofs_is_refused)
{
  char dir[64], plan[128], o[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(plan, sizeof plan, "%s/p.ini", dir);
  snprintf(o, sizeof o, "%s/out", dir);
  write_file(plan, "[x]\nscenario = chain\nmodel = kikuuwe\ntraj_dofs = 2.5\n");
  const char *a[] = {"suite", "--plan", plan, "--out", o, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errb, sizeof errb), 2, "%s", errb);
  cr_assert(strstr(errb, "traj_dofs") != NULL && strstr(errb, "2.5") != NULL, "%s", errb);
  cr_assert_eq(fbt_lines(errb), 1, "%s", errb);
  cr_assert_eq(fbt_dir_entries(dir), 1, "only the plan is there");
  fbt_rmdir(dir);
}
