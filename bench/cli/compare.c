/* compare.c — `fricbench compare A B`: what changed between two suite directories.
 *
 * Runs are matched by what they are, not by run_id (a plan or a filter renumbers them):
 * group, tag, scenario, model, integrator, mode, h, atol and the swept value.  Per matched
 * run: a status change (ok -> budget/failed is a regression), and each error column
 * (err_x_l2, err_v_l2, err_F_l2, err_x_max, err_v_max, disc_x_l2) growing by more than
 * --rtol (default 0.1: B > (1 + rtol) A) beyond an absolute floor of 1e-12 (round-off) is
 * a regression, shrinking as much an improvement.  A run of A missing from B is a
 * regression (coverage lost); a new run of B is listed.  When both directories have
 * verdicts.csv (model, integrator, view, step, property, verdict, ...), every verdict
 * that changed is listed and counts as a regression.  Exit status: 0 nothing regressed,
 * 1 something did, 2 bad input.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_cli.h"
#include "fb_csv.h"

#define ABS_FLOOR 1e-12

static const char compare_help[] =
    "usage: fricbench compare A B [--rtol R] [--json]\n"
    "\n"
    "Compares two suite directories run by run (matched by group, tag, scenario, model,\n"
    "integrator, step or tolerance and swept value): status changes, error columns\n"
    "(err_x_l2, err_v_l2, err_F_l2, err_x_max, err_v_max, disc_x_l2) that changed by more\n"
    "than R relative (default 0.1, above 1e-12 absolute), runs missing from B, and, when\n"
    "both have verdicts.csv, changed verdicts.  A table on stdout, or one JSON object with\n"
    "--json.  Exit status 0: nothing regressed; 1: a status got worse, an error grew, a\n"
    "run is missing from B or a verdict changed; 2: bad input.\n";

static const char *const key_cols[] = {"group", "tag", "scenario", "model", "integrator",
                                       "mode", "h", "atol", "sweep_value"};
#define NKEY (sizeof key_cols / sizeof key_cols[0])
static const char *const err_cols[] = {"err_x_l2", "err_v_l2", "err_F_l2",
                                       "err_x_max", "err_v_max", "disc_x_l2"};
#define NERR (sizeof err_cols / sizeof err_cols[0])
static const char *const vkey_cols[] = {"model", "integrator", "view", "step", "property"};
#define NVKEY (sizeof vkey_cols / sizeof vkey_cols[0])

typedef struct cmp {
  json_t *changes; /* array of {kind, run, column, a, b} */
  size_t regressions, improvements;
  int json;
} cmp;

static void key_of(const fb_csv *t, size_t r, const int *cols, size_t n, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "",
                             cols[i] >= 0 ? fb_csv_s(t, r, cols[i]) : "");
}

static void change(cmp *c, const char *kind, int regression, const char *run, const char *col,
                   const char *a, const char *b)
{
  if (regression > 0)
    c->regressions++;
  else if (regression < 0)
    c->improvements++;
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(kind));
  json_object_set_new(o, "regression", json_boolean(regression > 0));
  json_object_set_new(o, "run", json_string(run));
  json_object_set_new(o, "column", json_string(col));
  json_object_set_new(o, "a", json_string(a));
  json_object_set_new(o, "b", json_string(b));
  json_array_append_new(c->changes, o);
  if (!c->json)
    printf("%-11s %-10s %-60s %-14s %-22s %s\n", kind, regression > 0 ? "REGRESSED"
                                                     : regression < 0 ? "improved" : "",
           run, col, a, b);
}

/* A row's key and index; both tables' keys are sorted and merged. */
typedef struct keyed {
  char *key;
  size_t row;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
  return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

static keyed *index_rows(const fb_csv *t, const char *const *names, size_t n)
{
  int cols[16];
  for (size_t i = 0; i < n; i++)
    cols[i] = fb_csv_col(t, names[i]);
  keyed *k = calloc(t->nrows + 1, sizeof *k);
  if (k == NULL)
    return NULL;
  for (size_t r = 0; r < t->nrows; r++) {
    char buf[1024];
    key_of(t, r, cols, n, buf, sizeof buf);
    k[r].key = strdup(buf);
    k[r].row = r;
  }
  qsort(k, t->nrows, sizeof *k, keyed_cmp);
  return k;
}

static void free_index(keyed *k, size_t n)
{
  for (size_t i = 0; k != NULL && i < n; i++)
    free(k[i].key);
  free(k);
}

static int status_rank(const char *s)
{
  return strncmp(s, "ok", 2) == 0 ? 0 : strncmp(s, "suspect", 7) == 0 ? 1
                                      : strncmp(s, "budget", 6) == 0  ? 2
                                                                      : 3;
}

static void compare_runs(cmp *c, const fb_csv *a, const fb_csv *b, double rtol)
{
  keyed *ka = index_rows(a, key_cols, NKEY), *kb = index_rows(b, key_cols, NKEY);
  const int sa = fb_csv_col(a, "status"), sb = fb_csv_col(b, "status");
  size_t i = 0, j = 0;
  while (ka != NULL && kb != NULL && (i < a->nrows || j < b->nrows)) {
    const int d = i == a->nrows ? 1 : j == b->nrows ? -1 : strcmp(ka[i].key, kb[j].key);
    if (d < 0) {
      change(c, "missing", 1, ka[i].key, "", "present", "absent");
      i++;
      continue;
    }
    if (d > 0) {
      change(c, "new", 0, kb[j].key, "", "absent", "present");
      j++;
      continue;
    }
    const size_t ra = ka[i].row, rb = kb[j].row;
    const char *sta = fb_csv_s(a, ra, sa), *stb = fb_csv_s(b, rb, sb);
    const int rka = status_rank(sta), rkb = status_rank(stb);
    if (rka != rkb)
      change(c, "status", rkb > rka ? 1 : -1, ka[i].key, "status", sta, stb);
    for (size_t e = 0; e < NERR && rka == 0 && rkb == 0; e++) {
      const double x = fb_csv_d(a, ra, fb_csv_col(a, err_cols[e]));
      const double y = fb_csv_d(b, rb, fb_csv_col(b, err_cols[e]));
      if (isnan(x) && isnan(y))
        continue;
      char xs[40], ys[40];
      snprintf(xs, sizeof xs, "%.6g", x);
      snprintf(ys, sizeof ys, "%.6g", y);
      if (isnan(x) != isnan(y)) {
        change(c, "error", isnan(y) ? 1 : -1, ka[i].key, err_cols[e], xs, ys);
        continue;
      }
      if (fmax(fabs(x), fabs(y)) < ABS_FLOOR)
        continue;
      if (y > (1 + rtol) * x)
        change(c, "error", 1, ka[i].key, err_cols[e], xs, ys);
      else if (x > (1 + rtol) * y)
        change(c, "error", -1, ka[i].key, err_cols[e], xs, ys);
    }
    i++;
    j++;
  }
  free_index(ka, a->nrows);
  free_index(kb, b->nrows);
}

static void compare_verdicts(cmp *c, const fb_csv *a, const fb_csv *b)
{
  keyed *ka = index_rows(a, vkey_cols, NVKEY), *kb = index_rows(b, vkey_cols, NVKEY);
  const int va = fb_csv_col(a, "verdict"), vb = fb_csv_col(b, "verdict");
  size_t i = 0, j = 0;
  while (ka != NULL && kb != NULL && i < a->nrows && j < b->nrows) {
    const int d = strcmp(ka[i].key, kb[j].key);
    if (d == 0) {
      const char *x = fb_csv_s(a, ka[i].row, va), *y = fb_csv_s(b, kb[j].row, vb);
      if (strcmp(x, y) != 0)
        change(c, "verdict", 1, ka[i].key, "verdict", x, y);
      i++;
      j++;
    } else if (d < 0) {
      i++;
    } else {
      j++;
    }
  }
  free_index(ka, a->nrows);
  free_index(kb, b->nrows);
}

static int load(const char *dir, const char *file, fb_csv *t, int required)
{
  char path[4096];
  int missing = 0;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if (fb_csv_load(t, path, &missing) == FB_OK)
    return 1;
  if (required)
    fprintf(stderr, "fricbench: compare: %s cannot be read%s: give a suite's results "
                    "directory\n", path, missing ? " (no such file)" : "");
  return 0;
}

int fb_cmd_compare(int argc, char **argv)
{
  static const struct option opts[] = {{"rtol", required_argument, NULL, 'r'},
                                       {"json", no_argument, NULL, 'J'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  double rtol = 0.1;
  cmp c = {0};
  int ch;
  opterr = 0;
  optind = 1;
  while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (ch) {
    case 'r': {
      char *end;
      rtol = strtod(optarg, &end);
      if (end == optarg || *end != '\0' || !(rtol >= 0) || !isfinite(rtol)) {
        fprintf(stderr, "fricbench: --rtol '%s' is not allowed: give a number >= 0\n", optarg);
        return FB_EXIT_USAGE;
      }
      break;
    }
    case 'J': c.json = 1; break;
    case 'h': fputs(compare_help, stdout); return FB_EXIT_OK;
    case ':':
      fprintf(stderr, "fricbench: option %s needs a value\n", argv[optind - 1]);
      return FB_EXIT_USAGE;
    default:
      fprintf(stderr, "fricbench: unknown option '%s' for compare: see 'fricbench compare "
                      "--help'\n", argv[optind - 1]);
      return FB_EXIT_USAGE;
    }
  }
  if (argc - optind != 2) {
    fprintf(stderr, "fricbench: compare needs two results directories A B, got %d arguments\n",
            argc - optind);
    return FB_EXIT_USAGE;
  }
  const char *A = argv[optind], *B = argv[optind + 1];
  fb_csv ra, rb, va, vb;
  if (!load(A, "runs.csv", &ra, 1))
    return FB_EXIT_USAGE;
  if (!load(B, "runs.csv", &rb, 1)) {
    fb_csv_free(&ra);
    return FB_EXIT_USAGE;
  }
  if (fb_csv_col(&ra, "status") < 0 || fb_csv_col(&rb, "status") < 0 ||
      fb_csv_col(&ra, "scenario") < 0 || fb_csv_col(&rb, "scenario") < 0) {
    fprintf(stderr, "fricbench: compare: %s/runs.csv or %s/runs.csv has no status or scenario "
                    "column: give suites' results directories\n", A, B);
    fb_csv_free(&ra);
    fb_csv_free(&rb);
    return FB_EXIT_USAGE;
  }
  c.changes = json_array();
  if (!c.json)
    printf("%-11s %-10s %-60s %-14s %-22s %s\n", "change", "", "run (group tag scenario model "
           "integrator mode h atol value)", "column", "A", "B");
  compare_runs(&c, &ra, &rb, rtol);
  const int hva = load(A, "verdicts.csv", &va, 0), hvb = load(B, "verdicts.csv", &vb, 0);
  if (hva && hvb)
    compare_verdicts(&c, &va, &vb);
  if (hva)
    fb_csv_free(&va);
  if (hvb)
    fb_csv_free(&vb);
  if (c.json) {
    json_t *o = json_object();
    json_object_set_new(o, "a", json_string(A));
    json_object_set_new(o, "b", json_string(B));
    json_object_set_new(o, "rtol", json_real(rtol));
    json_object_set_new(o, "runs_a", json_integer((json_int_t)ra.nrows));
    json_object_set_new(o, "runs_b", json_integer((json_int_t)rb.nrows));
    json_object_set_new(o, "verdicts_compared", json_boolean(hva && hvb));
    json_object_set_new(o, "regressions", json_integer((json_int_t)c.regressions));
    json_object_set_new(o, "improvements", json_integer((json_int_t)c.improvements));
    json_object_set_new(o, "changes", c.changes);
    json_dumpf(o, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
    json_decref(o);
  } else {
    printf("%zu runs in A, %zu in B; %zu regressions, %zu improvements (errors compared at "
           "rtol %g; verdicts %s)\n",
           ra.nrows, rb.nrows, c.regressions, c.improvements, rtol,
           hva && hvb ? "compared" : "not compared: verdicts.csv missing");
    json_decref(c.changes);
  }
  fb_csv_free(&ra);
  fb_csv_free(&rb);
  return c.regressions > 0 ? FB_EXIT_RUNTIME : FB_EXIT_OK;
}
