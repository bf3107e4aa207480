/* compare.c — `fricbench compare A B`: what changed between two suite directories
 * (docs/design.md §10.9).
 *
 * Runs are matched by their full key, never loosely: group, tag, scenario and its
 * parameters, model and its parameters, integrator, mode, h, atol, rtol and the swept
 * value (not run_id: a plan or a filter renumbers them).  A run whose key is on one side
 * only is listed "only in A" / "only in B": a suite made with other parameters is other
 * runs, not the same runs grown worse.  Per matched run the status (ok > suspect >
 * unstable > budget > failed) and, when both completed (ok or suspect), every metric
 * column: a change beyond --rtol (relative to the smaller magnitude, above 1e-12) is
 * "better" or "worse" by the column's good direction (compare_rules.c), or "changed" for
 * a column without one.  verdicts.csv rows are matched by (model, integrator, view, step,
 * property) and rated by the property's word order.  A regression is a change for the
 * worse, nothing else.
 *
 * Malformed input is refused before anything is printed: a NUL byte, a cut quote, a
 * record with the wrong number of fields, a missing required column, a cell that is not
 * what its column allows, the same key twice.  Exit status: 0 nothing regressed, 1 a
 * regression, 2 bad input (one line naming file, line, column and what is allowed).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <limits.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fb_cli.h"
#include "fb_compare.h"
#include "fb_csv.h"
#include "fb_metrics.h"
#include "fricbench.h"

static const char compare_help[] =
    "usage: fricbench compare A B [--rtol R] [--time-rtol R] [--json]\n"
    "\n"
    "Compares two suite directories run by run, matched by their full key (group, tag,\n"
    "scenario and its parameters, model and its parameters, integrator, mode, h, atol,\n"
    "rtol, swept value); runs on one side only are listed as \"only in A\" / \"only in B\".\n"
    "Per matched run: the status (ok > suspect > unstable > budget > failed) and every\n"
    "metric changed by more than R relative (default 0.1, above 1e-12 absolute), labelled\n"
    "better or worse by the metric's good direction (errors, cost, drift, chatter, energy\n"
    "excess: lower; stick held, stable step: higher), or changed when it has none; when\n"
    "both have verdicts.csv, every changed verdict, rated the same way (not rated when\n"
    "the runs differ).  Timings (wall_s, cpu_s: one measurement each, noise on a shared\n"
    "machine) only with --time-rtol R.  A table on stdout, or one JSON object with --json.\n"
    "Exit status 0: nothing got worse; 1: something got worse (a regression); 2: bad\n"
    "input (a malformed runs.csv or verdicts.csv: one line on stderr, nothing printed).\n";

/* What a cell of a column may hold. */
/* CELL_METRIC: a number or no value; inf too in a run that did not complete (a run that
 * ran away may measure one), never in one whose metrics are rated.  CELL_NUM_INF: the
 * verdict values (verdicts.c writes inf for a rest measure that is NaN). */
typedef enum cell_kind {
  CELL_ANY, CELL_TEXT, CELL_NAME, CELL_NUM, CELL_NUM_INF, CELL_METRIC, CELL_COUNT
} cell_kind;

typedef struct col_spec {
  const char *name;
  cell_kind kind;
  int required;
} col_spec;

/* runs.csv: the key (the full identity of a run), the status, and the typed columns of
 * fb_runs_columns (bench/suite/suite_write.c); metric columns are typed from
 * fb_metric_names and the hold/stability columns below, other columns are not checked. */
static const col_spec run_cols[] = {
    {"group", CELL_TEXT, 1},         {"tag", CELL_TEXT, 1},
    {"scenario", CELL_NAME, 1},      {"scenario_params", CELL_TEXT, 1},
    {"model", CELL_NAME, 1},         {"model_params", CELL_TEXT, 1},
    {"integrator", CELL_TEXT, 1},    {"mode", CELL_TEXT, 1},
    {"h", CELL_NUM, 1},              {"atol", CELL_NUM, 1},
    {"rtol", CELL_NUM, 1},           {"sweep", CELL_TEXT, 1},
    {"sweep_value", CELL_NUM, 1},    {"status", CELL_NAME, 1},
    {"run_id", CELL_COUNT, 0},       {"t_reached", CELL_NUM, 0},
    {"nsteps", CELL_COUNT, 0},       {"nrejected", CELL_COUNT, 0},
    {"nfe", CELL_COUNT, 0},          {"njac", CELL_COUNT, 0},
    {"nevents", CELL_COUNT, 0},      {"ninner", CELL_COUNT, 0},
    {"nswitch", CELL_COUNT, 0},      {"wall_s", CELL_NUM, 0},
    {"cpu_s", CELL_NUM, 0},          {"creep_v", CELL_METRIC, 0},
    {"excess_disp", CELL_METRIC, 0}, {"h_stable", CELL_METRIC, 0},
};
#define NRUNCOLS (sizeof run_cols / sizeof run_cols[0])
#define NRUNKEY 13 /* the first 13 of run_cols */
static const char *const not_metrics[] = {"run_id", "status", "message", "ref"};

static const col_spec verdict_cols[] = {
    {"model", CELL_NAME, 1}, {"integrator", CELL_TEXT, 1}, {"view", CELL_TEXT, 1},
    {"step", CELL_TEXT, 1},  {"property", CELL_NAME, 1},   {"verdict", CELL_NAME, 1},
    {"value", CELL_NUM_INF, 0},  {"value2", CELL_NUM_INF, 0},
};
#define NVERDCOLS (sizeof verdict_cols / sizeof verdict_cols[0])
#define NVERDKEY 5

/* One input file: its text (for line numbers), the parsed table, each row's line, the
 * column of each spec entry, and the rows sorted by key. */
typedef struct table {
  char path[4200];
  char why[1024]; /* why the table was refused (refuse) */
  char *text;
  size_t len;
  fb_csv t;
  size_t *line;
  int col[NRUNCOLS];
  char **key;
  size_t *order;
} table;

typedef struct cmp {
  json_t *changes;
  size_t regressions, better, changed;
  size_t runs[3], verdicts[3]; /* matched, only in A, only in B */
  double rtol, time_rtol;      /* time_rtol < 0: timings not rated */
  int rate_verdicts;           /* the same runs on both sides: see compare_verdict */
  int json;
  FILE *out; /* the table or the JSON object */
} cmp;

/* Why table T is refused: the first refusal stops the checks. */
static int refuse(table *T, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(table *T, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(T->why, sizeof T->why, fmt, ap);
  va_end(ap);
  return -1;
}

/* A cell's text for a message: non-printing bytes as '?', long ones cut. */
static const char *shown(const char *s, char *buf, size_t len)
{
  size_t i = 0;
  for (; s[i] != '\0' && i + 4 < len; i++)
    buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
  if (s[i] != '\0' && len >= 4) {
    memcpy(buf + i, "...", 3);
    i += 3;
  }
  buf[i] = '\0';
  return buf;
}

/* A number cell: empty and NaN (how the suite writes "no value") allowed, a finite
 * decimal number allowed, inf where allow_inf; hex and anything else refused. */
static int num_parse(const char *s, double *out, int allow_inf)
{
  if (s[0] == '\0' || strcasecmp(s, "nan") == 0 || strcasecmp(s, "-nan") == 0) {
    *out = NAN;
    return 1;
  }
  char *end;
  *out = strtod(s, &end);
  return end != s && *end == '\0' && !isnan(*out) && (allow_inf || isfinite(*out)) &&
         strpbrk(s, "xXpP") == NULL && !isspace((unsigned char)s[0]);
}

static int num_ok(const char *s, double *out)
{
  return num_parse(s, out, 0);
}

/* done: the row's run completed (ok or suspect), so its metrics are rated */
static int cell_ok(cell_kind k, const char *s, int done, const char **allowed)
{
  double d;
  switch (k) {
  case CELL_NUM:
    *allowed = "a finite number, or empty or nan for no value";
    return num_ok(s, &d);
  case CELL_NUM_INF:
    *allowed = "a number, inf, or empty or nan for no value";
    return num_parse(s, &d, 1);
  case CELL_METRIC:
    *allowed = done ? "a finite number, or empty or nan for no value (inf only in a run "
                      "that did not complete)"
                    : "a number, inf, or empty or nan for no value";
    return num_parse(s, &d, !done);
  case CELL_COUNT:
    *allowed = "a whole number >= 0";
    return s[0] != '\0' && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 19;
  case CELL_NAME:
    *allowed = "a non-empty name";
    return s[0] != '\0';
  default:
    return 1;
  }
}

static void table_free(table *T)
{
  for (size_t r = 0; T->key != NULL && r < T->t.nrows; r++)
    free(T->key[r]);
  free(T->key);
  free(T->order);
  free(T->line);
  free(T->text);
  fb_csv_free(&T->t);
  memset(T, 0, sizeof *T);
}

/* Read and parse dir/file, refusing what is not a whole CSV table: 1 read, 0 absent
 * (and not required), -1 refused. */
static int table_read(table *T, const char *dir, const char *file, int required)
{
  memset(T, 0, sizeof *T);
  snprintf(T->path, sizeof T->path, "%s/%s", dir, file);
  if (fb_read_file(T->path, &T->text, &T->len) != 0) {
    const int missing = access(T->path, F_OK) != 0;
    if (missing && !required)
      return 0;
    return refuse(T, "%s cannot be read%s: give a suite's results directory", T->path,
                  missing ? " (no such file)" : "");
  }
  const char *nul = memchr(T->text, '\0', T->len);
  if (nul != NULL) {
    size_t line = 1;
    for (const char *p = T->text; p < nul; p++)
      line += *p == '\n';
    return refuse(T, "%s line %zu: a NUL byte: a CSV text has none", T->path, line);
  }
  const int st = fb_csv_parse(&T->t, T->text, T->len);
  if (st == FB_ENOMEM)
    return refuse(T, "out of memory reading %s", T->path);
  if (st != FB_OK)
    return refuse(T, "%s is empty: it needs a header and rows", T->path);
  if (T->t.open_quote)
    return refuse(T, "%s ends inside a quoted field: the file is cut", T->path);
  T->line = calloc(T->t.nrows + 1, sizeof *T->line);
  if (T->line == NULL)
    return refuse(T, "out of memory reading %s", T->path);
  /* rows are in text order: count line ends once, forward */
  size_t line = 1, pos = 0;
  for (size_t r = 0; r < T->t.nrows; r++) {
    for (; pos < T->t.rows[r].off; pos++)
      line += T->text[pos] == '\n';
    T->line[r] = line;
    if (T->t.rows[r].nfields != T->t.ncols)
      return refuse(T, "%s line %zu: %zu fields, the header has %zu: each row needs one per "
                    "column", T->path, line, T->t.rows[r].nfields, T->t.ncols);
  }
  return 1;
}

static int is_metric_name(const char *c)
{
  for (size_t i = 0; fb_metric_names[i] != NULL; i++)
    if (strcmp(c, fb_metric_names[i]) == 0)
      return 1;
  return 0;
}

/* The columns of spec[0..n) (required ones present, no header name twice) and every typed
 * cell, metric columns (fb_metric_names) as numbers.  0, or -1 refused. */
static int table_check(table *T, const col_spec *spec, size_t n)
{
  const fb_csv *t = &T->t;
  for (size_t i = 0; i < t->ncols; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->hdr[i], t->hdr[j]) == 0)
        return refuse(T, "%s line 1: column '%s' twice: each column once", T->path, t->hdr[i]);
  for (size_t i = 0; i < n; i++) {
    T->col[i] = fb_csv_col(t, spec[i].name);
    if (T->col[i] < 0 && spec[i].required)
      return refuse(T, "%s line 1: no column '%s': it is required (columns in results/README.md)",
                    T->path, spec[i].name);
  }
  const int st = fb_csv_col(t, "status"); /* runs.csv: inf only where not rated */
  for (size_t c = 0; c < t->ncols; c++) {
    cell_kind k = is_metric_name(t->hdr[c]) ? CELL_METRIC : CELL_ANY;
    for (size_t i = 0; i < n; i++)
      if (T->col[i] == (int)c)
        k = spec[i].kind;
    const char *allowed = "";
    for (size_t r = 0; r < t->nrows; r++) {
      const char *s = fb_csv_s(t, r, (int)c);
      char b[64];
      const int done = st < 0 || fb_cmp_status_rank(fb_csv_s(t, r, st)) >=
                                     fb_cmp_status_rank("suspect");
      if (!cell_ok(k, s, done, &allowed))
        return refuse(T, "%s line %zu, column %s: '%s' is not allowed: give %s", T->path,
                      T->line[r], t->hdr[c], shown(s, b, sizeof b), allowed);
    }
  }
  return 0;
}

/* The words runs.csv's status and mode columns may hold (docs/design.md §10; suite_write.c). */
static int runs_words(table *T)
{
  for (size_t r = 0; r < T->t.nrows; r++) {
    const char *st = fb_csv_s(&T->t, r, fb_csv_col(&T->t, "status"));
    const char *mo = fb_csv_s(&T->t, r, fb_csv_col(&T->t, "mode"));
    char b[64];
    if (fb_cmp_status_rank(st) < 0)
      return refuse(T, "%s line %zu, column status: '%s' is not allowed: give ok, suspect, "
                    "unstable, budget or failed", T->path, T->line[r], shown(st, b, sizeof b));
    if (mo[0] != '\0' && strcmp(mo, "fixed") != 0 && strcmp(mo, "adaptive") != 0)
      return refuse(T, "%s line %zu, column mode: '%s' is not allowed: give fixed, adaptive or "
                    "empty (a run that never started)", T->path, T->line[r],
                    shown(mo, b, sizeof b));
  }
  return 0;
}

/* A row's key and index, sorted by key (qsort has no context argument). */
typedef struct keyed_row {
  const char *key;
  size_t r;
} keyed_row;
static int by_key(const void *a, const void *b)
{
  const keyed_row *x = a, *y = b;
  const int c = strcmp(x->key, y->key);
  return c != 0 ? c : (x->r > y->r) - (x->r < y->r);
}

/* Each row's key (the first nkey columns of spec, numbers by value, fields separated by
 * a byte no cell holds unquoted), the rows sorted by it, a key twice refused. */
static int table_index(table *T, const col_spec *spec, size_t nkey, const char *what)
{
  const fb_csv *t = &T->t;
  T->key = calloc(t->nrows + 1, sizeof *T->key);
  T->order = calloc(t->nrows + 1, sizeof *T->order);
  if (T->key == NULL || T->order == NULL)
    return refuse(T, "out of memory reading %s", T->path);
  for (size_t r = 0; r < t->nrows; r++) {
    char buf[8192];
    size_t used = 0;
    for (size_t i = 0; i < nkey && used < sizeof buf; i++) {
      const char *s = fb_csv_s(t, r, T->col[i]);
      double d;
      char num[40] = "";
      if (spec[i].kind == CELL_NUM && num_ok(s, &d))
        snprintf(num, sizeof num, isnan(d) ? "nan" : "%.17g", d);
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? "\x1f" : "",
                               spec[i].kind == CELL_NUM ? num : s);
    }
    if (used >= sizeof buf)
      return refuse(T, "%s line %zu: the %s's key is over %zu bytes", T->path, T->line[r], what,
                    sizeof buf);
    if ((T->key[r] = strdup(buf)) == NULL)
      return refuse(T, "out of memory reading %s", T->path);
    T->order[r] = r;
  }
  keyed_row *rows = malloc((t->nrows + 1) * sizeof *rows);
  if (rows == NULL)
    return refuse(T, "out of memory reading %s", T->path);
  for (size_t r = 0; r < t->nrows; r++)
    rows[r] = (keyed_row){T->key[r], r};
  qsort(rows, t->nrows, sizeof *rows, by_key);
  for (size_t r = 0; r < t->nrows; r++)
    T->order[r] = rows[r].r;
  free(rows);
  for (size_t i = 1; i < t->nrows; i++)
    if (strcmp(T->key[T->order[i - 1]], T->key[T->order[i]]) == 0) {
      size_t l1 = T->line[T->order[i - 1]], l2 = T->line[T->order[i]];
      return refuse(T, "%s lines %zu and %zu: the same %s twice (same %s): each once", T->path,
                    l1 < l2 ? l1 : l2, l1 < l2 ? l2 : l1, what,
                    nkey == NVERDKEY ? "model, integrator, view, step and property"
                                     : "full key");
    }
  return 0;
}

static const char *const label_text[] = {"better", "worse", "changed", "only in A",
                                         "only in B"};
typedef enum label { L_BETTER, L_WORSE, L_CHANGED, L_ONLY_A, L_ONLY_B } label;

/* One change: counted, kept for --json, printed as a table row otherwise.  A change for
 * the worse is a regression; nothing else is. */
static void change(cmp *c, const char *kind, label l, const char *what, const char *col,
                   const char *a, const char *b)
{
  c->regressions += l == L_WORSE;
  c->better += l == L_BETTER;
  c->changed += l == L_CHANGED;
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(kind));
  json_object_set_new(o, "label", json_string(label_text[l]));
  json_object_set_new(o, "regression", json_boolean(l == L_WORSE));
  json_object_set_new(o, "run", json_string(what));
  json_object_set_new(o, "column", json_string(col));
  json_object_set_new(o, "a", json_string(a));
  json_object_set_new(o, "b", json_string(b));
  json_array_append_new(c->changes, o);
  if (!c->json)
    fprintf(c->out, "%-8s %-10s %-64s %-18s %-22s %s\n", kind, label_text[l], what, col, a,
            b);
}

/* A run as a reader names it: group/tag scenario{params} model{params} integrator step. */
static void run_name(const table *T, size_t r, char *buf, size_t len)
{
  const fb_csv *t = &T->t;
#define S(i) fb_csv_s(t, r, T->col[i])
  double h, atol, sv;
  num_ok(S(8), &h);
  num_ok(S(9), &atol);
  num_ok(S(12), &sv);
  char step[64] = "", swept[80] = "";
  if (!isnan(h))
    snprintf(step, sizeof step, " h=%g", h);
  else if (!isnan(atol))
    snprintf(step, sizeof step, " tol=%g", atol);
  if (S(11)[0] != '\0' && strcmp(S(11), "h") != 0 && strcmp(S(11), "tol") != 0 && !isnan(sv))
    snprintf(swept, sizeof swept, " %s=%g", S(11), sv);
  snprintf(buf, len, "%s%s%s %s{%s} %s{%s} %s%s%s", S(0), S(1)[0] ? "/" : "", S(1), S(2),
           S(3), S(4), S(5), S(6)[0] ? S(6) : "-", step, swept);
#undef S
}

/* The metric columns of A and B: those in both are compared, those in one only are listed
 * once (a suite of another version), not rated. */
static int is_metric_col(const char *name)
{
  for (size_t i = 0; i < NRUNKEY; i++)
    if (strcmp(name, run_cols[i].name) == 0)
      return 0;
  for (size_t i = 0; i < sizeof not_metrics / sizeof not_metrics[0]; i++)
    if (strcmp(name, not_metrics[i]) == 0)
      return 0;
  return 1;
}

static void compare_columns(cmp *c, const table *A, const table *B)
{
  for (int side = 0; side < 2; side++) {
    const table *X = side ? B : A, *Y = side ? A : B;
    for (size_t k = 0; k < X->t.ncols; k++)
      if (is_metric_col(X->t.hdr[k]) && fb_csv_col(&Y->t, X->t.hdr[k]) < 0)
        change(c, "column", side ? L_ONLY_B : L_ONLY_A, "(every run)", X->t.hdr[k],
               side ? "absent" : "present", side ? "present" : "absent");
  }
}

/* One metric cell of a matched run: better, worse or changed beyond rtol, or nothing. */
static void compare_cell(cmp *c, const char *run, const char *col, const char *x,
                         const char *y)
{
  double a, b;
  const fb_cmp_dir d = fb_cmp_direction(col);
  if (!num_ok(x, &a) || !num_ok(y, &b)) { /* an untyped column of text */
    if (strcmp(x, y) != 0)
      change(c, "metric", L_CHANGED, run, col, x, y);
    return;
  }
  if (isnan(a) && isnan(b))
    return;
  char xs[40], ys[40];
  snprintf(xs, sizeof xs, "%.6g", a);
  snprintf(ys, sizeof ys, "%.6g", b);
  if (isnan(a) != isnan(b)) {
    /* a measurement lost is worse, one gained better, where the column has a direction */
    change(c, "metric", d == FB_CMP_CHANGED ? L_CHANGED : isnan(b) ? L_WORSE : L_BETTER, run,
           col, xs, ys);
    return;
  }
  /* one timing of one run is noise on a shared machine (two identical quick suites: 258
   * wall_s or cpu_s cells of 393 runs apart by more than 10 %): rated only at a tolerance
   * asked for */
  const int timing = strcmp(col, "wall_s") == 0 || strcmp(col, "cpu_s") == 0;
  if (timing && c->time_rtol < 0)
    return;
  int worse;
  if (fb_cmp_beyond(d, a, b, timing ? c->time_rtol : c->rtol, &worse))
    change(c, "metric", d == FB_CMP_CHANGED ? L_CHANGED : worse ? L_WORSE : L_BETTER, run, col,
           xs, ys);
}

static void compare_run(cmp *c, const table *A, size_t ra, const table *B, size_t rb)
{
  char run[1024];
  run_name(A, ra, run, sizeof run);
  const char *sta = fb_csv_s(&A->t, ra, fb_csv_col(&A->t, "status"));
  const char *stb = fb_csv_s(&B->t, rb, fb_csv_col(&B->t, "status"));
  const int ka = fb_cmp_status_rank(sta), kb = fb_cmp_status_rank(stb);
  if (ka != kb)
    change(c, "status", kb > ka ? L_BETTER : L_WORSE, run, "status", sta, stb);
  /* the metrics of a run that did not finish (budget, failed) or ran away (unstable) say
   * nothing: its status says it */
  if (ka < fb_cmp_status_rank("suspect") || kb < fb_cmp_status_rank("suspect"))
    return;
  for (size_t k = 0; k < A->t.ncols; k++) {
    const char *col = A->t.hdr[k];
    const int kb_col = fb_csv_col(&B->t, col);
    if (kb_col >= 0 && is_metric_col(col))
      compare_cell(c, run, col, fb_csv_s(&A->t, ra, (int)k), fb_csv_s(&B->t, rb, kb_col));
  }
}

/* Walk both sorted key lists: a key on both sides is one run, on one side a run only
 * there.  f rates a matched pair; name names a row. */
typedef void (*pair_fn)(cmp *, const table *, size_t, const table *, size_t);
typedef void (*name_fn)(const table *, size_t, char *, size_t);
static void merge_keys(cmp *c, const table *A, const table *B, pair_fn f, name_fn name,
                       const char *kind, size_t count[3])
{
  size_t i = 0, j = 0;
  const size_t na = A->t.nrows, nb = B->t.nrows;
  while (i < na || j < nb) {
    const size_t ra = i < na ? A->order[i] : 0, rb = j < nb ? B->order[j] : 0;
    const int d = i == na ? 1 : j == nb ? -1 : strcmp(A->key[ra], B->key[rb]);
    char what[1024];
    if (d < 0) {
      name(A, ra, what, sizeof what);
      change(c, kind, L_ONLY_A, what, "", "present", "absent");
      count[1]++;
      i++;
    } else if (d > 0) {
      name(B, rb, what, sizeof what);
      change(c, kind, L_ONLY_B, what, "", "absent", "present");
      count[2]++;
      j++;
    } else {
      count[0]++;
      f(c, A, ra, B, rb);
      i++;
      j++;
    }
  }
}

static void verdict_name(const table *T, size_t r, char *buf, size_t len)
{
  const fb_csv *t = &T->t;
  snprintf(buf, len, "%s %s %s %s %s", fb_csv_s(t, r, T->col[0]), fb_csv_s(t, r, T->col[1]),
           fb_csv_s(t, r, T->col[2]), fb_csv_s(t, r, T->col[3]), fb_csv_s(t, r, T->col[4]));
}

/* A changed verdict's label: by its property's word order; "unstable ..." is below every
 * other verdict; the same rank compares the value where the property has a direction. */
static label verdict_label(const cmp *c, const char *prop, const char *x, const char *y,
                           const char *vx, const char *vy)
{
  const int ka = fb_cmp_verdict_rank(prop, x), kb = fb_cmp_verdict_rank(prop, y);
  if (ka == 0 || kb == 0)
    return ka == kb ? L_CHANGED : ka == 0 ? L_BETTER : L_WORSE;
  if (ka > 0 && kb > 0 && ka != kb)
    return kb > ka ? L_BETTER : L_WORSE;
  double a, b;
  int worse;
  const fb_cmp_dir d = fb_cmp_verdict_value_direction(prop);
  if (ka == kb && d != FB_CMP_CHANGED && num_ok(vx, &a) && num_ok(vy, &b) && isfinite(a) &&
      isfinite(b) && fb_cmp_beyond(d, a, b, c->rtol, &worse))
    return worse ? L_WORSE : L_BETTER;
  return L_CHANGED;
}

static void compare_verdict(cmp *c, const table *A, size_t ra, const table *B, size_t rb)
{
  const char *prop = fb_csv_s(&A->t, ra, A->col[4]);
  const char *x = fb_csv_s(&A->t, ra, A->col[5]), *y = fb_csv_s(&B->t, rb, B->col[5]);
  if (strcmp(x, y) == 0)
    return;
  char what[1024];
  verdict_name(A, ra, what, sizeof what);
  /* a verdict's key does not say which runs it was judged on (other parameters, a
   * filter): when the runs differ, a changed verdict answers another question */
  const label l = !c->rate_verdicts ? L_CHANGED
                  : verdict_label(c, prop, x, y, fb_csv_s(&A->t, ra, A->col[6]),
                                  fb_csv_s(&B->t, rb, B->col[6]));
  change(c, "verdict", l, what, prop, x, y);
}

/* Read and check both directories' tables; nothing is printed before this succeeds.
 * *nv: how many verdicts.csv were found (compared only when both are). */
static int load_all(const char *A, const char *B, table tab[4], int *hv)
{
  const char *dirs[2] = {A, B};
  for (int s = 0; s < 2; s++) {
    table *R = &tab[s], *V = &tab[2 + s];
    if (table_read(R, dirs[s], "runs.csv", 1) < 0 || table_check(R, run_cols, NRUNCOLS) < 0 ||
        runs_words(R) < 0 || table_index(R, run_cols, NRUNKEY, "run") < 0)
      return -1;
    const int got = table_read(V, dirs[s], "verdicts.csv", 0);
    if (got < 0)
      return -1;
    hv[s] = got;
    if (got && (table_check(V, verdict_cols, NVERDCOLS) < 0 ||
                table_index(V, verdict_cols, NVERDKEY, "verdict") < 0))
      return -1;
  }
  return 0;
}

static void report(cmp *c, const char *A, const char *B, const table tab[4], int verdicts)
{
  if (c->json) {
    json_t *o = json_object();
    json_object_set_new(o, "a", json_string(A));
    json_object_set_new(o, "b", json_string(B));
    json_object_set_new(o, "rtol", json_real(c->rtol));
    json_object_set_new(o, "runs_a", json_integer((json_int_t)tab[0].t.nrows));
    json_object_set_new(o, "runs_b", json_integer((json_int_t)tab[1].t.nrows));
    json_object_set_new(o, "matched", json_integer((json_int_t)c->runs[0]));
    json_object_set_new(o, "only_in_a", json_integer((json_int_t)c->runs[1]));
    json_object_set_new(o, "only_in_b", json_integer((json_int_t)c->runs[2]));
    json_object_set_new(o, "verdicts_compared", json_boolean(verdicts));
    json_object_set_new(o, "verdicts_matched", json_integer((json_int_t)c->verdicts[0]));
    json_object_set_new(o, "verdicts_only_in_a", json_integer((json_int_t)c->verdicts[1]));
    json_object_set_new(o, "verdicts_only_in_b", json_integer((json_int_t)c->verdicts[2]));
    json_object_set_new(o, "verdicts_rated", json_boolean(verdicts && c->rate_verdicts));
    json_object_set_new(o, "timings_compared", json_boolean(c->time_rtol >= 0));
    json_object_set_new(o, "regressions", json_integer((json_int_t)c->regressions));
    json_object_set_new(o, "better", json_integer((json_int_t)c->better));
    json_object_set_new(o, "changed", json_integer((json_int_t)c->changed));
    json_object_set_new(o, "changes", json_incref(c->changes));
    json_dumpf(o, c->out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    fputc('\n', c->out);
    json_decref(o);
    return;
  }
  char vs[128] = "not compared: verdicts.csv missing", ts[48] = "not compared";
  if (verdicts)
    snprintf(vs, sizeof vs, "%zu matched, %zu only in A, %zu only in B%s", c->verdicts[0],
             c->verdicts[1], c->verdicts[2],
             c->rate_verdicts ? "" : ", not rated: judged on other runs");
  if (c->time_rtol >= 0)
    snprintf(ts, sizeof ts, "compared at rtol %g", c->time_rtol);
  fprintf(c->out, "%zu runs in A, %zu in B: %zu matched, %zu only in A, %zu only in B; %zu "
         "regressions, %zu better, %zu changed (rtol %g; verdicts %s; timings %s)\n",
         tab[0].t.nrows, tab[1].t.nrows, c->runs[0], c->runs[1], c->runs[2], c->regressions,
         c->better, c->changed, c->rtol, vs, ts);
}

static int parse_args(int argc, char **argv, cmp *c)
{
  static const struct option opts[] = {{"rtol", required_argument, NULL, 'r'},
                                       {"time-rtol", required_argument, NULL, 't'},
                                       {"json", no_argument, NULL, 'J'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  int ch;
  opterr = 0;
  optind = 1;
  while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (ch) {
    case 'r':
    case 't': {
      char *end;
      const double v = strtod(optarg, &end);
      if (end == optarg || *end != '\0' || !(v >= 0) || !isfinite(v)) {
        fprintf(stderr, "fricbench: --%s '%s' is not allowed: give a number >= 0\n",
                ch == 'r' ? "rtol" : "time-rtol", optarg);
        return FB_EXIT_USAGE;
      }
      *(ch == 'r' ? &c->rtol : &c->time_rtol) = v;
      break;
    }
    case 'J': c->json = 1; break;
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
  return -1;
}

int fb_compare_dirs(const char *A, const char *B, const fb_compare_opts *opts, FILE *out,
                    int *regressions, fb_err *err)
{
  if (A == NULL || B == NULL || opts == NULL || out == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_compare_dirs needs two directories, options and an "
                      "output stream (NULL)");
  if (!(opts->rtol >= 0) || !isfinite(opts->rtol))
    return fb_err_set(err, FB_EINVAL, "rtol %g is not allowed: give a number >= 0",
                      opts->rtol);
  if (!isfinite(opts->time_rtol))
    return fb_err_set(err, FB_EINVAL, "time_rtol %g is not allowed: give a number >= 0, or "
                      "< 0 for timings not rated", opts->time_rtol);
  cmp c = {.rtol = opts->rtol, .time_rtol = opts->time_rtol, .json = opts->json != 0,
           .out = out};
  table tab[4] = {0};
  int hv[2] = {0, 0};
  if (load_all(A, B, tab, hv) < 0) {
    for (int i = 0; i < 4; i++)
      if (tab[i].why[0] != '\0') {
        fb_err_set(err, FB_EINVAL, "compare: %s", tab[i].why);
        break;
      }
    for (int i = 0; i < 4; i++)
      table_free(&tab[i]);
    return FB_EINVAL;
  }
  c.changes = json_array();
  if (!c.json)
    fprintf(out, "%-8s %-10s %-64s %-18s %-22s %s\n", "change", "label",
            "run (group/tag scenario{params} model{params} integrator step)", "column", "A",
            "B");
  compare_columns(&c, &tab[0], &tab[1]);
  merge_keys(&c, &tab[0], &tab[1], compare_run, run_name, "run", c.runs);
  c.rate_verdicts = c.runs[1] == 0 && c.runs[2] == 0;
  if (hv[0] && hv[1])
    merge_keys(&c, &tab[2], &tab[3], compare_verdict, verdict_name, "verdict", c.verdicts);
  report(&c, A, B, tab, hv[0] && hv[1]);
  json_decref(c.changes);
  for (int i = 0; i < 4; i++)
    table_free(&tab[i]);
  if (regressions != NULL)
    *regressions = (int)(c.regressions > (size_t)INT_MAX ? (size_t)INT_MAX : c.regressions);
  return FB_OK;
}

int fb_cmd_compare(int argc, char **argv)
{
  cmp c = {.rtol = 0.1, .time_rtol = -1};
  const int rc = parse_args(argc, argv, &c);
  if (rc >= 0)
    return rc;
  const fb_compare_opts o = {.rtol = c.rtol, .time_rtol = c.time_rtol, .json = c.json};
  fb_err err = {{0}};
  int regressions = 0;
  if (fb_compare_dirs(argv[optind], argv[optind + 1], &o, stdout, &regressions, &err) != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return FB_EXIT_USAGE;
  }
  return regressions > 0 ? FB_EXIT_RUNTIME : FB_EXIT_OK;
}
