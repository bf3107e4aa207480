/* report.c — plots and report.html from a results directory (fb_report.h, docs/design.md §8).
 *
 * Reads only files: DIR/runs.csv (RFC 4180), DIR/orders.csv, DIR/meta.json and the
 * trajectories under DIR/traj/.  For each plot it writes the numbers it draws to
 * DIR/plots/data/<name>.dat (gnuplot blocks separated by two blank lines, each opened by
 * its quoted legend entry), runs one gnuplot process on scripts/<kind>.gp that renders
 * the PNG and then the SVG, and computes a one-sentence reading of the plot from the same
 * numbers.  Then it writes DIR/report.html with the PNGs embedded as data URIs so the
 * page works when copied alone.
 *
 * Odd rows never stop the report: non-numeric fields read as NaN, failed and budget
 * rows are left out of the plots and listed under #omissions, missing trajectories and
 * missing orders.csv are reported, not fatal.  What is fatal: no runs.csv, no gnuplot, no
 * scripts, an output that cannot be written.  A plot whose gnuplot run fails is named in
 * the report and makes the call return FB_EIO after the report is written.
 */
#define _POSIX_C_SOURCE 200809L
#include "fb_report.h"
#include "fb_verdicts.h"

/* The drift plot's reading line (m per forcing cycle): where its sentence splits models, not
 * a verdict (verdicts.csv judges drift as relative growth, docs/design.md §10). */
#define DRIFT_READING_LINE 1e-6

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fb_csv.h"
#include "fb_gzcsv.h"
#include "fb_io.h"
#include "fb_metrics.h"
#include "fb_paths.h"

#define PATH_LEN 2048
#define MAX_SERIES 64  /* series per plot */
#define MAX_POINTS 64  /* points per series */
#define MAX_PLOTS 96
#define MAX_NAMES 128  /* distinct models / scenarios / variants */
#define FB_PI 3.14159265358979323846
#define ERR_FLOOR 1e-12 /* errors below (round-off) are drawn at this level */
#define ERR_CEIL 1e3   /* errors above (a blow-up of an "ok" run) are drawn at this level */

/* ==== small utilities =================================================================== */

/* A growing string; on allocation failure it stops growing and remembers it. */
typedef struct sbuf {
  char *s;
  size_t n, cap;
  int bad;
} sbuf;

#if defined(__GNUC__)
#define FB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FB_PRINTF(a, b)
#endif

static void sb_vprintf(sbuf *b, const char *fmt, va_list ap) FB_PRINTF(2, 0);
static void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
{
  if (b->bad)
    return;
  va_list aq;
  va_copy(aq, ap);
  const int k = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (k < 0) {
    b->bad = 1;
    return;
  }
  const size_t need = b->n + (size_t)k + 1;
  if (need > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
      cap *= 2;
    char *p = realloc(b->s, cap);
    if (p == NULL) {
      b->bad = 1;
      return;
    }
    b->s = p;
    b->cap = cap;
  }
  vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
  b->n += (size_t)k;
}

static void sb_printf(sbuf *b, const char *fmt, ...) FB_PRINTF(2, 3);
static void sb_printf(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

static void sb_puts(sbuf *b, const char *s) { sb_printf(b, "%s", s); }

static const char *sb_str(const sbuf *b) { return b->s != NULL ? b->s : ""; }

static void sb_free(sbuf *b)
{
  free(b->s);
  memset(b, 0, sizeof *b);
}

/* HTML-escaped text. */
static void sb_html(sbuf *b, const char *s)
{
  for (; *s; s++) {
    switch (*s) {
    case '&': sb_puts(b, "&amp;"); break;
    case '<': sb_puts(b, "&lt;"); break;
    case '>': sb_puts(b, "&gt;"); break;
    case '"': sb_puts(b, "&quot;"); break;
    default: sb_printf(b, "%c", *s);
    }
  }
}

/* A gnuplot single-quoted string literal ('' stands for a quote inside). */
static void sb_gq(sbuf *b, const char *s)
{
  sb_puts(b, "'");
  for (; *s; s++)
    sb_puts(b, *s == '\'' ? "''" : (char[2]){*s, '\0'});
  sb_puts(b, "'");
}

/* One word of a gnuplot word list: double-quoted, with the characters that would break
 * the list (quotes) replaced. */
static void sb_gword(sbuf *b, const char *s)
{
  sb_puts(b, "\"");
  for (; *s; s++)
    sb_printf(b, "%c", (*s == '"' || *s == '\'' || *s == '\n') ? '`' : *s);
  sb_puts(b, "\" ");
}

/* A number for text: %.3g, "n/a" for NaN. */
static void sb_num(sbuf *b, double v)
{
  if (isnan(v))
    sb_puts(b, "n/a");
  else
    sb_printf(b, "%.3g", v);
}

/* "from -> to", both as sb_num writes them. */
static void sb_change(sbuf *b, double from, double to)
{
  sb_num(b, from);
  sb_puts(b, " -> ");
  sb_num(b, to);
}

/* A number for data files: full precision, "nan" for NaN. */
static void sb_dat(sbuf *b, double v)
{
  if (isnan(v) || isinf(v))
    sb_puts(b, " nan");
  else
    sb_printf(b, " %.10g", v);
}

static int path_fmt(char *buf, size_t len, const char *fmt, ...) FB_PRINTF(3, 4);
static int path_fmt(char *buf, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  const int k = vsnprintf(buf, len, fmt, ap);
  va_end(ap);
  return k < 0 || (size_t)k >= len ? -1 : 0;
}

static long file_size(const char *path)
{
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
    return -1;
  return (long)sb.st_size;
}

static int mkdir_one(const char *path)
{
  if (mkdir(path, 0777) == 0 || errno == EEXIST)
    return 0;
  return -1;
}

static int streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Value of NAME in a "a=1;b=2" parameter list; NaN when absent or not a number. */
static double param_get(const char *list, const char *name)
{
  const size_t len = strlen(name);
  for (const char *p = list; p != NULL && *p;) {
    if (strncmp(p, name, len) == 0 && p[len] == '=') {
      char *end;
      const double v = strtod(p + len + 1, &end);
      return end == p + len + 1 ? (double)NAN : v;
    }
    p = strchr(p, ';');
    if (p != NULL)
      p++;
  }
  return NAN;
}

/* ==== runs.csv, orders.csv, meta.json =================================================== */

typedef struct run {
  long id;
  const char *group, *tag, *scenario, *model, *integrator, *mode, *sweep, *sparams, *ref,
      *status, *message;
  double h, atol, value, t_reached, nsteps, nfe;
  double err_x_l2, disc_x_l2, mod_x_l2, stick_time, stick_time_ref, missed, spurious, drift,
      drift_per_cycle, drift_rate,
      chatter_rate, chatter_v_rms, chatter_F_tv, wall_s, cpu_s;
  int ok, budget;
} run;

typedef struct runs {
  fb_csv t;
  run *r;
  size_t n;
} runs;

static void runs_free(runs *R)
{
  fb_csv_free(&R->t);
  free(R->r);
  memset(R, 0, sizeof *R);
}

/* A run id read as a number: 0 when it is none (NaN, or out of range for a long). */
static long run_id_of(double v)
{
  return v >= (double)LONG_MIN && v < (double)LONG_MAX ? (long)v : 0;
}

/* The runs of R->t, loaded or parsed from `path` (named in messages). */
static int runs_fill(runs *R, const char *path, fb_err *err)
{
  static const char *const need[] = {"group", "scenario", "model", "integrator", "status"};
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
    if (fb_csv_col(&R->t, need[i]) < 0) {
      runs_free(R);
      return fb_err_set(err, FB_EIO, "'%s' has no column '%s': not a fricbench runs.csv", path,
                        need[i]);
    }
  R->r = calloc(R->t.nrows ? R->t.nrows : 1, sizeof *R->r);
  if (R->r == NULL) {
    runs_free(R);
    return fb_err_set(err, FB_ENOMEM, "out of memory reading '%s'", path);
  }
  const fb_csv *t = &R->t;
#define COL(name) const int c_##name = fb_csv_col(t, #name)
  COL(run_id); COL(group); COL(tag); COL(scenario); COL(model); COL(integrator); COL(mode);
  COL(sweep); COL(scenario_params); COL(ref); COL(status); COL(message); COL(h); COL(atol);
  COL(sweep_value); COL(t_reached); COL(nsteps); COL(nfe); COL(err_x_l2); COL(disc_x_l2); COL(mod_x_l2); COL(stick_time);
  COL(stick_time_ref); COL(missed); COL(spurious); COL(drift); COL(drift_per_cycle); COL(drift_rate);
  COL(chatter_rate); COL(chatter_v_rms); COL(chatter_F_tv); COL(wall_s); COL(cpu_s);
#undef COL
  for (size_t k = 0; k < t->nrows; k++) {
    run *r = &R->r[R->n];
    r->id = run_id_of(fb_csv_d(t, k, c_run_id));
    r->group = fb_csv_s(t, k, c_group);
    r->tag = fb_csv_s(t, k, c_tag);
    r->scenario = fb_csv_s(t, k, c_scenario);
    r->model = fb_csv_s(t, k, c_model);
    r->integrator = fb_csv_s(t, k, c_integrator);
    r->mode = fb_csv_s(t, k, c_mode);
    r->sweep = fb_csv_s(t, k, c_sweep);
    r->sparams = fb_csv_s(t, k, c_scenario_params);
    r->ref = fb_csv_s(t, k, c_ref);
    r->status = fb_csv_s(t, k, c_status);
    r->message = fb_csv_s(t, k, c_message);
    r->h = fb_csv_d(t, k, c_h);
    r->atol = fb_csv_d(t, k, c_atol);
    r->value = fb_csv_d(t, k, c_sweep_value);
    r->t_reached = fb_csv_d(t, k, c_t_reached);
    r->nsteps = fb_csv_d(t, k, c_nsteps);
    r->nfe = fb_csv_d(t, k, c_nfe);
    r->err_x_l2 = fb_csv_d(t, k, c_err_x_l2);
    r->disc_x_l2 = fb_csv_d(t, k, c_disc_x_l2);
    r->mod_x_l2 = fb_csv_d(t, k, c_mod_x_l2);
    r->stick_time = fb_csv_d(t, k, c_stick_time);
    r->stick_time_ref = fb_csv_d(t, k, c_stick_time_ref);
    r->missed = fb_csv_d(t, k, c_missed);
    r->spurious = fb_csv_d(t, k, c_spurious);
    r->drift = fb_csv_d(t, k, c_drift);
    r->drift_per_cycle = fb_csv_d(t, k, c_drift_per_cycle);
    r->drift_rate = fb_csv_d(t, k, c_drift_rate);
    r->chatter_rate = fb_csv_d(t, k, c_chatter_rate);
    r->chatter_v_rms = fb_csv_d(t, k, c_chatter_v_rms);
    r->chatter_F_tv = fb_csv_d(t, k, c_chatter_F_tv);
    r->wall_s = fb_csv_d(t, k, c_wall_s);
    r->cpu_s = fb_csv_d(t, k, c_cpu_s);
    r->ok = streq(r->status, "ok");
    r->budget = streq(r->status, "budget");
    if (r->scenario[0] == '\0' || r->model[0] == '\0')
      continue; /* not a run row */
    R->n++;
  }
  return FB_OK;
}

static int runs_load(runs *R, const char *dir, fb_err *err)
{
  char path[PATH_LEN];
  memset(R, 0, sizeof *R);
  if (path_fmt(path, sizeof path, "%s/runs.csv", dir) != 0)
    return fb_err_set(err, FB_EIO, "results directory name too long: '%.200s'", dir);
  int missing;
  const int st = fb_csv_load(&R->t, path, &missing);
  if (st == FB_ENOMEM)
    return fb_err_set(err, FB_ENOMEM, "out of memory reading '%s'", path);
  if (st != FB_OK)
    return fb_err_set(err, FB_EIO, "'%s' %s: the report needs a suite's runs.csv", path,
                      missing ? "does not exist" : "cannot be read or is empty");
  return runs_fill(R, path, err);
}

/* Step or tolerance of a run as text: "h=0.001", "tol=1e-08". */
static void run_step(const run *r, char *buf, size_t len)
{
  if (!isnan(r->h))
    snprintf(buf, len, "h=%g", r->h);
  else if (!isnan(r->atol))
    snprintf(buf, len, "tol=%g", r->atol);
  else
    snprintf(buf, len, "default step");
}

typedef struct orders {
  fb_csv t;
  int c_scenario, c_model, c_integrator, c_tag, c_points, c_order_x, c_order_v, c_err, c_h;
  int present;
} orders;

/* O->t loaded (st FB_OK), absent or unreadable (FB_EIO, FB_EINVAL: every order reads as
 * n/a) or out of memory (FB_ENOMEM, returned). */
static int orders_fill(orders *O, int st)
{
  if (st == FB_ENOMEM)
    return st;
  if (st != FB_OK)
    return FB_OK;
  O->present = 1;
  O->c_scenario = fb_csv_col(&O->t, "scenario");
  O->c_model = fb_csv_col(&O->t, "model");
  O->c_integrator = fb_csv_col(&O->t, "integrator");
  O->c_tag = fb_csv_col(&O->t, "tag");
  O->c_points = fb_csv_col(&O->t, "points");
  O->c_order_x = fb_csv_col(&O->t, "order_x");
  O->c_order_v = fb_csv_col(&O->t, "order_v");
  O->c_err = fb_csv_col(&O->t, "err_x_finest");
  O->c_h = fb_csv_col(&O->t, "h_finest");
  return FB_OK;
}

static int orders_load(orders *O, const char *dir)
{
  char path[PATH_LEN];
  memset(O, 0, sizeof *O);
  if (path_fmt(path, sizeof path, "%s/orders.csv", dir) != 0)
    return FB_OK;
  return orders_fill(O, fb_csv_load(&O->t, path, NULL));
}

/* Row of orders.csv for (scenario, model, integrator, tag), or -1. */
static long orders_find(const orders *O, const char *scenario, const char *model,
                        const char *integrator, const char *tag)
{
  for (size_t k = 0; k < O->t.nrows; k++)
    if (streq(fb_csv_s(&O->t, k, O->c_scenario), scenario) &&
        streq(fb_csv_s(&O->t, k, O->c_model), model) &&
        streq(fb_csv_s(&O->t, k, O->c_integrator), integrator) &&
        streq(fb_csv_s(&O->t, k, O->c_tag), tag))
      return (long)k;
  return -1;
}

/* ==== name lists and looks =============================================================== */

typedef struct names {
  const char *s[MAX_NAMES];
  size_t n;
} names;

static long names_find(const names *l, const char *s)
{
  for (size_t i = 0; i < l->n; i++)
    if (streq(l->s[i], s))
      return (long)i;
  return -1;
}

static void names_add(names *l, const char *s)
{
  if (names_find(l, s) < 0 && l->n < MAX_NAMES)
    l->s[l->n++] = s;
}

/* Fixed colour per model (its suite data), so a model looks the same in every plot. */
static const char *model_color(const char *model)
{
  const fb_model_type *m = fb_model_find(model);
  return m != NULL && m->suite.color != NULL ? m->suite.color : "#555555";
}

/* Fixed point type per integrator (gnuplot cairo numbering; 10, the open downward
 * triangle, is kept for "exactly zero" markers). */
static int integrator_pt(const char *integ)
{
  static const struct {
    const char *name;
    int pt;
  } map[] = {
      {"heun3", 7},         {"rk4", 5},   {"rkf45", 9},   {"rk8pd", 13},  {"msbdf", 15},
      {"rk2imp", 11},       {"rk4imp", 3}, {"newmark", 6}, {"glowinski-lie", 4},
      {"glowinski-strang", 8}, {"paper", 12}, {"event", 14}, {"rk2", 2},   {"rkck", 1},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (streq(map[i].name, integ))
      return map[i].pt;
  return 1;
}

/* ==== trajectories ======================================================================== */

/* Path of a run's trajectory file (suite naming: <model>__<integrator>__h<%g>|tol<%g>
 * [__tag].csv).  Falls back to scanning the scenario folder for the same model,
 * integrator and tag with a step equal to 1e-6 relative, since the CSV's step carries 10
 * digits.  Returns 0 when a non-empty file exists. */
static int traj_path(const char *dir, const run *r, char *buf, size_t len)
{
  const int fixed = !isnan(r->h);
  const double step = fixed ? r->h : r->atol;
  if (isnan(step))
    return -1;
  if (path_fmt(buf, len, "%s/traj/%s/%s__%s__%s%g%s%s" FB_TRAJ_EXT, dir, r->scenario, r->model,
               r->integrator, fixed ? "h" : "tol", step, r->tag[0] ? "__" : "", r->tag) == 0 &&
      file_size(buf) > 0)
    return 0;
  char folder[PATH_LEN], prefix[512];
  if (path_fmt(folder, sizeof folder, "%s/traj/%s", dir, r->scenario) != 0 ||
      path_fmt(prefix, sizeof prefix, "%s__%s__%s", r->model, r->integrator,
               fixed ? "h" : "tol") != 0)
    return -1;
  DIR *d = opendir(folder);
  if (d == NULL)
    return -1;
  int found = -1;
  const size_t pl = strlen(prefix);
  struct dirent *e;
  while (found != 0 && (e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, pl) != 0)
      continue;
    char *end;
    const double v = strtod(e->d_name + pl, &end);
    if (end == e->d_name + pl || fabs(v - step) > 1e-6 * fabs(step))
      continue;
    char rest[300];
    snprintf(rest, sizeof rest, "%s%s" FB_TRAJ_EXT, r->tag[0] ? "__" : "", r->tag);
    if (!streq(end, rest))
      continue;
    if (path_fmt(buf, len, "%s/%s", folder, e->d_name) == 0 && file_size(buf) > 0)
      found = 0;
  }
  closedir(d);
  return found;
}

/* Spacing of the first two samples of a trajectory file (s); NaN if unreadable. */
static double traj_dt(const char *path)
{
  char line[4096];
  double t[2] = {NAN, NAN};
  if (fb_gz_head(path, line, sizeof line, t, 2) != 2)
    return NAN;
  return t[1] - t[0];
}

/* A trajectory file as gnuplot should open it: through `gzip -dc` when compressed, the
 * path shell-escaped by backslashes (the word lists of the scripts keep no quotes). */
static void traj_source(const char *path, char *buf, size_t len)
{
  const size_t l = strlen(path);
  if (!(l > 3 && strcmp(path + l - 3, ".gz") == 0) || len < 16) {
    snprintf(buf, len, "%s", path);
    return;
  }
  size_t k = (size_t)snprintf(buf, len, "< gzip -dc ");
  for (const char *c = path; *c && k + 3 < len; c++) {
    if (!(isalnum((unsigned char)*c) || strchr("/._-+=:,@%", *c) != NULL))
      buf[k++] = '\\';
    buf[k++] = *c;
  }
  buf[k] = '\0';
}

/* DOFs and contacts from a trajectory header (t,x,v,F,... or t,x1..xn,v1..vn,F1..). */
static int traj_dims(const char *path, int *n, int *nc)
{
  char line[4096];
  if (fb_gz_head(path, line, sizeof line, NULL, 0) < 0)
    return -1;
  *n = *nc = 0;
  for (char *tok = strtok(line, ",\r\n"); tok != NULL; tok = strtok(NULL, ",\r\n")) {
    if (streq(tok, "x")) {
      *n = *nc = 1;
      return 0;
    }
    if ((tok[0] == 'x' || tok[0] == 'F') && tok[1] >= '1' && tok[1] <= '9') {
      char *end;
      strtol(tok + 1, &end, 10);
      if (*end == '\0')
        (*(tok[0] == 'x' ? n : nc))++;
    }
  }
  return *n > 0 ? 0 : -1;
}

/* ==== gnuplot ============================================================================== */

typedef struct plot_entry {
  char name[160];   /* file stem under plots/ */
  char title[256];
  sbuf reading;     /* one sentence from the data (plain text) */
  int png_only;     /* no SVG: trajectory overlays (12+ series of 2001 points made 1.3-3.8
                       MB SVGs, 20 MB of a 94 MB results directory; the PNG and the
                       trajectory files carry everything) */
  int ok;
  char err[600];
} plot_entry;

/* A running gnuplot process. */
typedef struct gp_job {
  pid_t pid;
  size_t plot;         /* index into report.plots */
  const char *script;
  fb_outfile op, os;   /* PNG and SVG under their temporary names */
  int svg;             /* 1: os is open (the plot is not PNG only) */
  int fe;              /* its stderr (temporary file) */
  char errpath[64];
} gp_job;

#define MAX_GP_JOBS 16

typedef struct report {
  const char *dir;
  gp_job jobs[MAX_GP_JOBS];
  size_t njobs, maxjobs;
  char *meta;       /* meta.json text, NULL when absent or older than runs.csv */
  char scripts[PATH_LEN];
  char gnuplot[PATH_LEN];
  runs R;
  orders O;
  plot_entry plots[MAX_PLOTS];
  size_t nplots;
  size_t nfailed;
  struct series_set *S, *C; /* series of the plot being built (C: work-precision's
                             * fixed-step ladders); scratch, reused by every plot */
} report;

static int find_in_path(const char *exe, char *out, size_t len)
{
  const char *p = getenv("PATH");
  if (p == NULL || *p == '\0')
    p = "/usr/local/bin:/usr/bin:/bin";
  for (;;) {
    const char *e = strchr(p, ':');
    const size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l > 0 && l + strlen(exe) + 2 < len) {
      memcpy(out, p, l);
      out[l] = '/';
      strcpy(out + l + 1, exe);
      if (access(out, X_OK) == 0)
        return 0;
    }
    if (e == NULL)
      return -1;
    p = e + 1;
  }
}

/* New plot entry (its reading is filled by the caller). */
static plot_entry *plot_new(report *rp, const char *title, const char *fmt, ...) FB_PRINTF(3, 4);
static plot_entry *plot_new(report *rp, const char *title, const char *fmt, ...)
{
  if (rp->nplots == MAX_PLOTS)
    return NULL;
  plot_entry *p = &rp->plots[rp->nplots++];
  memset(p, 0, sizeof *p);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->name, sizeof p->name, fmt, ap);
  va_end(ap);
  snprintf(p->title, sizeof p->title, "%s", title);
  return p;
}

/* Write DIR/plots/data/<name>.dat from a buffer (atomically).  Fills the path. */
static int write_data(report *rp, const char *name, const sbuf *data, char *path, size_t len,
                      fb_err *err)
{
  if (data->bad)
    return fb_err_set(err, FB_ENOMEM, "out of memory building plot data '%s'", name);
  if (path_fmt(path, len, "%s/plots/data/%s.dat", rp->dir, name) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot data '%s'", name);
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "plot data", err);
  if (st != FB_OK)
    return st;
  if (fwrite(sb_str(data), 1, data->n, of.fp) != data->n) {
    fb_outfile_abort(&of);
    return fb_err_set(err, FB_EIO, "writing '%s' failed", path);
  }
  return fb_outfile_commit(&of, err);
}

/* Finish a gnuplot job: on exit status 0 with both files non-empty, rename them into
 * place; otherwise remove them and record the last line gnuplot printed on stderr. */
static int gp_finish(report *rp, gp_job *j, int status, fb_err *err)
{
  char msg[600] = "";
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok && lseek(j->fe, 0, SEEK_SET) == 0) {
    char buf[8192];
    const ssize_t k = read(j->fe, buf, sizeof buf - 1);
    size_t e = k > 0 ? (size_t)k : 0;
    buf[e] = '\0';
    while (e > 0 && (buf[e - 1] == '\n' || buf[e - 1] == '\r' || buf[e - 1] == ' '))
      buf[--e] = '\0';
    const char *last = strrchr(buf, '\n');
    last = last != NULL ? last + 1 : buf;
    const size_t l = strlen(last) < sizeof msg - 1 ? strlen(last) : sizeof msg - 1;
    memcpy(msg, last, l);
    msg[l] = '\0';
  }
  if (!ok && msg[0] == '\0')
    snprintf(msg, sizeof msg, "gnuplot exited with status %d",
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  close(j->fe);
  unlink(j->errpath);
  if (ok && (file_size(j->op.tmp) <= 0 || (j->svg && file_size(j->os.tmp) <= 0))) {
    ok = 0;
    snprintf(msg, sizeof msg, "gnuplot wrote an empty file");
  }
  plot_entry *p = &rp->plots[j->plot];
  if (!ok) {
    fb_outfile_abort(&j->op);
    if (j->svg)
      fb_outfile_abort(&j->os);
    snprintf(p->err, sizeof p->err, "%s: %s", j->script, msg);
    rp->nfailed++;
    return FB_OK;
  }
  int st = fb_outfile_commit(&j->op, err);
  if (st != FB_OK) {
    if (j->svg)
      fb_outfile_abort(&j->os);
    return st;
  }
  if (j->svg)
    st = fb_outfile_commit(&j->os, err);
  if (st == FB_OK)
    p->ok = 1;
  return st;
}

/* Wait for any running gnuplot job to end and finish it.  Whichever ends first, not the
 * oldest: waiting for the oldest left a slot idle while a long plot held it (the report
 * ran at ~1.4 of --jobs 2's possible speed).  Polled with WNOHANG on our own pids, so
 * that children the caller may have are left alone; the plots take 0.1-2 s, a 2 ms
 * poll costs nothing. */
static int gp_reap(report *rp, fb_err *err)
{
  if (rp->njobs == 0)
    return FB_OK;
  for (;;) {
    for (size_t i = 0; i < rp->njobs; i++) {
      int status = 0;
      const pid_t pid = waitpid(rp->jobs[i].pid, &status, WNOHANG);
      if (pid == 0 || (pid < 0 && errno == EINTR))
        continue;
      if (pid < 0)
        status = 1 << 8; /* lost: reported as a failed plot */
      gp_job j = rp->jobs[i];
      memmove(&rp->jobs[i], &rp->jobs[i + 1], (rp->njobs - i - 1) * sizeof rp->jobs[0]);
      rp->njobs--;
      return gp_finish(rp, &j, status, err);
    }
    const struct timespec poll = {0, 2000000};
    nanosleep(&poll, NULL);
  }
}

static int gp_wait_all(report *rp, fb_err *err)
{
  int st = FB_OK;
  while (rp->njobs > 0) {
    const int s = gp_reap(rp, err);
    if (st == FB_OK)
      st = s;
  }
  return st;
}

/* Render plot p with scripts/<script>: one gnuplot process draws the PNG, then the SVG
 * (both to temporary names renamed when it succeeds).  `vars` are gnuplot assignments.
 * Up to rp->maxjobs processes run at once; gp_wait_all collects them.  A gnuplot
 * failure is recorded in p (and counted); only an unwritable output is returned. */
static int gp_render(report *rp, plot_entry *p, const char *script, const sbuf *vars,
                     fb_err *err)
{
  int st = FB_OK;
  while (rp->njobs >= rp->maxjobs && st == FB_OK)
    st = gp_reap(rp, err);
  if (st != FB_OK)
    return st;
  gp_job *j = &rp->jobs[rp->njobs];
  memset(j, 0, sizeof *j);
  j->plot = (size_t)(p - rp->plots);
  j->script = script;
  char png[PATH_LEN], svg[PATH_LEN], spath[PATH_LEN];
  if (path_fmt(png, sizeof png, "%s/plots/%s.png", rp->dir, p->name) != 0 ||
      path_fmt(svg, sizeof svg, "%s/plots/%s.svg", rp->dir, p->name) != 0 ||
      path_fmt(spath, sizeof spath, "%s/%s", rp->scripts, script) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot '%s'", p->name);
  st = fb_outfile_open(&j->op, png, "plot", err);
  if (st != FB_OK)
    return st;
  j->svg = !p->png_only;
  if (j->svg) {
    /* a stale SVG of an earlier report would contradict this one */
    unlink(svg);
    st = fb_outfile_open(&j->os, svg, "plot", err);
    if (st != FB_OK) {
      fb_outfile_abort(&j->op);
      return st;
    }
  } else {
    unlink(svg);
  }
  /* gnuplot's stderr: a nameless scratch file under $TMPDIR (errpath stays empty) */
  j->errpath[0] = '\0';
  j->fe = fb_tmpfile_fd("fricbench_gnuplot");
  sbuf a1 = {0}, a2 = {0};
  sb_puts(&a1, "sdir=");
  sb_gq(&a1, rp->scripts);
  sb_printf(&a1, "; %s; fmt='png'; out=", sb_str(vars));
  sb_gq(&a1, j->op.tmp);
  sb_puts(&a2, "fmt='svg'; out=");
  sb_gq(&a2, j->svg ? j->os.tmp : "");
  if (a1.bad || a2.bad || vars->bad || j->fe < 0) {
    if (j->fe >= 0) {
      close(j->fe);
      unlink(j->errpath);
    }
    fb_outfile_abort(&j->op);
    if (j->svg)
      fb_outfile_abort(&j->os);
    sb_free(&a1);
    sb_free(&a2);
    return fb_err_set(err, FB_EIO, "cannot set up gnuplot for '%s' (memory or temporary file)", p->name);
  }
  char dash_e[] = "-e";
  char *argv[] = {rp->gnuplot, dash_e, a1.s, spath, dash_e, a2.s, spath, NULL};
  if (!j->svg)
    argv[4] = NULL;
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int dn = open("/dev/null", O_RDWR);
    if (dn >= 0) {
      dup2(dn, 0);
      dup2(dn, 1);
    }
    dup2(j->fe, 2);
    execv(rp->gnuplot, argv);
    _exit(127);
  }
  sb_free(&a1);
  sb_free(&a2);
  if (pid < 0) {
    snprintf(p->err, sizeof p->err, "%s: fork failed: %s", script, strerror(errno));
    close(j->fe);
    unlink(j->errpath);
    fb_outfile_abort(&j->op);
    if (j->svg)
      fb_outfile_abort(&j->os);
    rp->nfailed++;
    return FB_OK;
  }
  j->pid = pid;
  rp->njobs++;
  return FB_OK;
}

/* A plot that could not be drawn for lack of data. */
static void plot_skip(report *rp, plot_entry *p, const char *why)
{
  snprintf(p->err, sizeof p->err, "not drawn: %s", why);
  (void)rp;
}

/* ==== verdicts ============================================================================ */

static int is_closed_form(const runs *R, const char *scenario)
{
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].scenario, scenario) && streq(R->r[k].ref, "exact"))
      return 1;
  return 0;
}

static int in_cost_groups(const run *r)
{
  return streq(r->group, "baseline") || streq(r->group, "convergence") ||
         streq(r->group, "work-precision");
}

/* Cheapest CPU time among the model's runs on `scenario` reaching err_x_l2 <= target
 * (baseline, convergence, work-precision).  Returns the run index or -1. */
static long cheapest_at(const runs *R, const char *scenario, const char *model, double target)
{
  long best = -1;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!r->ok || !in_cost_groups(r) || !streq(r->scenario, scenario) ||
        (model != NULL && !streq(r->model, model)))
      continue;
    if (!(r->err_x_l2 <= target) || !(r->cpu_s > 0))
      continue;
    if (best < 0 || r->cpu_s < R->r[best].cpu_s)
      best = (long)k;
  }
  return best;
}


/* ==== series ============================================================================== */

/* Rows of one (model, integrator, tag, sweep) within a group and scenario. */
typedef struct series {
  const char *model, *integrator, *tag, *sweep;
  size_t idx[MAX_POINTS];
  size_t n;
} series;

typedef struct series_set {
  series s[MAX_SERIES];
  size_t n;
} series_set;

/* Rows of `group` on `scenario`, grouped by (model, integrator, tag, sweep) in order of
 * first appearance (the table's order). */
static void series_collect(const runs *R, const char *group, const char *scenario,
                           series_set *S)
{
  S->n = 0;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, group) || !streq(r->scenario, scenario))
      continue;
    size_t j = 0;
    while (j < S->n && !(streq(S->s[j].model, r->model) && streq(S->s[j].integrator, r->integrator) &&
                         streq(S->s[j].tag, r->tag) && streq(S->s[j].sweep, r->sweep)))
      j++;
    if (j == S->n) {
      if (S->n == MAX_SERIES)
        continue;
      series *s = &S->s[S->n++];
      s->model = r->model;
      s->integrator = r->integrator;
      s->tag = r->tag;
      s->sweep = r->sweep;
      s->n = 0;
    }
    if (S->s[j].n < MAX_POINTS)
      S->s[j].idx[S->s[j].n++] = k;
  }
}

/* Distinct scenarios of a group, in order. */
static void group_scenarios(const runs *R, const char *group, names *out)
{
  out->n = 0;
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, group))
      names_add(out, R->r[k].scenario);
}

static void series_label(const series *s, char *buf, size_t len)
{
  snprintf(buf, len, "%s/%s%s%s", s->model, s->integrator, s->tag[0] ? " " : "", s->tag);
}

/* The rows of a series that a plot draws, and the series' legend label. */
typedef struct drawn {
  const run *row[MAX_POINTS];
  size_t n;
  char label[160];
} drawn;

/* Fills d with the rows of s that `keep` accepts (in ladder order); their number. */
static size_t series_drawn(const runs *R, const series *s, int (*keep)(const run *r), drawn *d)
{
  series_label(s, d->label, sizeof d->label);
  d->n = 0;
  for (size_t q = 0; q < s->n; q++)
    if (keep(&R->r[s->idx[q]]))
      d->row[d->n++] = &R->r[s->idx[q]];
  return d->n;
}

/* ==== what a plot is drawn from =========================================================== */

#define PB_MAX_VARS 8

/* One plot's data file and gnuplot string variables: a plot kind fills it, plot_draw
 * writes the file and runs the script on it. */
typedef struct plot_build {
  sbuf data;     /* plots/data/<name>.dat; for series, blocks separated by two blank
                  * lines, each opened by its quoted legend entry.  Left empty by a plot
                  * drawn from DIR/traj/ alone (trajectory overlays): no data file then. */
  size_t nb;     /* blocks (series) in data */
  struct {
    const char *name;
    sbuf value;
  } var[PB_MAX_VARS]; /* passed to the script in the order first named (pb_var) */
  size_t nvar;
  int too_many;   /* more than PB_MAX_VARS names: a bug, reported by plot_draw */
  int log_errors; /* set by pb_err_point: errors on a log axis, clamped to [ERR_FLOOR,
                   * ERR_CEIL]; the script gets a note counting the clamped points */
  size_t nclamp, nceil;
} plot_build;

static void pb_free(plot_build *b)
{
  sb_free(&b->data);
  for (size_t i = 0; i < b->nvar; i++)
    sb_free(&b->var[i].value);
}

/* The gnuplot string variable `name` of the plot, created empty on first use. */
static sbuf *pb_var(plot_build *b, const char *name)
{
  for (size_t i = 0; i < b->nvar; i++)
    if (streq(b->var[i].name, name))
      return &b->var[i].value;
  if (b->nvar == PB_MAX_VARS) {
    b->too_many = 1;
    return &b->var[PB_MAX_VARS - 1].value;
  }
  b->var[b->nvar].name = name;
  return &b->var[b->nvar++].value;
}

/* Opens data block b->nb (the caller counts it once the block is complete). */
static void pb_block(plot_build *b, const char *title)
{
  if (b->nb > 0)
    sb_puts(&b->data, "\n\n");
  sb_gword(&b->data, title);
  sb_puts(&b->data, "\n");
}

/* A row (x, error) of an error plot, the error clamped into the log axis' range. */
static void pb_err_point(plot_build *b, double x, double e)
{
  sb_dat(&b->data, x);
  sb_dat(&b->data, fmin(fmax(e, ERR_FLOOR), ERR_CEIL));
  sb_puts(&b->data, "\n");
  b->nclamp += e < ERR_FLOOR;
  b->nceil += e > ERR_CEIL;
  b->log_errors = 1;
}

/* The look of the block just written: its model's colour, its integrator's point type
 * and, when dt > 0, dash type dt (one word each in colors, pts, dts). */
static void pb_looks(plot_build *b, const series *s, int dt)
{
  sb_gword(pb_var(b, "colors"), model_color(s->model));
  sb_printf(pb_var(b, "pts"), "%d ", integrator_pt(s->integrator));
  if (dt > 0)
    sb_printf(pb_var(b, "dts"), "%d ", dt);
}

/* Appends "name=<gnuplot string>; ". */
static void var_s(sbuf *v, const char *name, const char *value)
{
  sb_printf(v, "%s=", name);
  sb_gq(v, value);
  sb_puts(v, "; ");
}

/* Appends "note='...'" naming the points drawn at ERR_FLOOR or ERR_CEIL ('' when none). */
static void clamp_note(sbuf *v, size_t nclamp, size_t nceil)
{
  char note[240] = "";
  size_t k = 0;
  if (nclamp > 0)
    k += (size_t)snprintf(note, sizeof note, "%zu error%s < %.0e (round-off) drawn at %.0e", nclamp,
                          nclamp > 1 ? "s" : "", ERR_FLOOR, ERR_FLOOR);
  if (nceil > 0 && k < sizeof note)
    snprintf(note + k, sizeof note - k, "%s%zu error%s > %.0e (blow-up) drawn at %.0e", k ? "; " : "",
             nceil, nceil > 1 ? "s" : "", ERR_CEIL, ERR_CEIL);
  var_s(v, "note", note);
}

/* Draw plot p from b with scripts/<script>: write b's data file (when it has one), then
 * run the script with data=<its path>, b's variables, the numeric assignments of fmt
 * and, when b clamped errors, the note on them. */
static int plot_draw(report *rp, plot_entry *p, const char *script, const plot_build *b,
                     fb_err *err, const char *fmt, ...) FB_PRINTF(6, 7);
static int plot_draw(report *rp, plot_entry *p, const char *script, const plot_build *b,
                     fb_err *err, const char *fmt, ...)
{
  if (b->too_many)
    return fb_err_set(err, FB_EIO, "plot '%s' names more than %d gnuplot variables", p->name,
                      PB_MAX_VARS);
  sbuf vars = {0};
  if (b->data.n > 0 || b->data.bad) {
    char dpath[PATH_LEN];
    const int st = write_data(rp, p->name, &b->data, dpath, sizeof dpath, err);
    if (st != FB_OK)
      return st;
    var_s(&vars, "data", dpath);
  }
  for (size_t i = 0; i < b->nvar; i++) {
    var_s(&vars, b->var[i].name, sb_str(&b->var[i].value));
    vars.bad |= b->var[i].value.bad;
  }
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&vars, fmt, ap);
  va_end(ap);
  if (b->log_errors) {
    sb_puts(&vars, "; ");
    clamp_note(&vars, b->nclamp, b->nceil);
  }
  const int st = gp_render(rp, p, script, &vars, err);
  sb_free(&vars);
  return st;
}

/* Makes the reading "<lead>: <the list built so far>." ("single points only" when the
 * list is empty). */
static void reading_lead(sbuf *rd, const char *lead)
{
  sbuf full = {0};
  sb_printf(&full, "%s: %s.", lead, rd->n ? sb_str(rd) : "single points only");
  sb_free(rd);
  *rd = full;
}

/* ==== plot kinds ========================================================================== */

/* A kind of plot.  Most draw one plot per scenario of a runs.csv group, named
 * <stem>_<scenario> and titled "<scenario>: <title>": `draw` fills it (or says why it is
 * not drawn).  The others (`single`) decide for themselves what they draw. */
typedef struct plot_kind {
  const char *group, *stem, *title;
  int (*draw)(report *rp, plot_entry *p, const char *scenario, fb_err *err);
  int (*single)(report *rp, fb_err *err);
} plot_kind;

/* The plots of kind k; stops at the first failure that is not the plot's own. */
static int plots_of_kind(report *rp, const plot_kind *k, fb_err *err)
{
  if (k->single != NULL)
    return k->single(rp, err);
  names sc;
  group_scenarios(&rp->R, k->group, &sc);
  int st = FB_OK;
  for (size_t i = 0; i < sc.n && st == FB_OK; i++) {
    char title[256];
    snprintf(title, sizeof title, "%s: %s", sc.s[i], k->title);
    plot_entry *p = plot_new(rp, title, "%s_%s", k->stem, sc.s[i]);
    if (p == NULL)
      break;
    st = k->draw(rp, p, sc.s[i], err);
  }
  return st;
}

/* ==== trajectory overlays ================================================================= */

static int traj_draw(report *rp, plot_entry *p, const char *S, fb_err *err)
{
  const runs *R = &rp->R;
  p->png_only = 1;
  plot_build b = {0};
  char path[PATH_LEN], first[PATH_LEN] = "", ref[PATH_LEN] = "";
  size_t nf = 0, cand[MAX_SERIES], ncand = 0;
  long best = -1, worst = -1;
  double stref = NAN;
  sbuf good = {0}, bad = {0}, over = {0};
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "baseline") || !streq(r->scenario, S))
      continue;
    if (r->ok && isfinite(r->err_x_l2)) {
      if (best < 0 || r->err_x_l2 < R->r[best].err_x_l2)
        best = (long)k;
      if (worst < 0 || r->err_x_l2 > R->r[worst].err_x_l2)
        worst = (long)k;
    }
    if (r->ok && r->stick_time_ref > 0 && !isnan(r->stick_time)) {
      stref = r->stick_time_ref;
      const double q = r->stick_time / r->stick_time_ref;
      if (q >= 0.9 && q <= 1.1)
        sb_printf(&good, "%s%s", good.n ? ", " : "", r->model);
      else if (q < 0.1)
        sb_printf(&bad, "%s%s", bad.n ? ", " : "", r->model);
      else if (q > 1.1)
        sb_printf(&over, "%s%s %.2f", over.n ? ", " : "", r->model, q);
    }
    if (ncand < MAX_SERIES)
      cand[ncand++] = k;
  }
  /* draw the noisiest first (behind the others), translucent when they chatter */
  for (size_t a = 1; a < ncand; a++)
    for (size_t c = a; c > 0; c--) {
      const double ca = R->r[cand[c]].chatter_rate, cb = R->r[cand[c - 1]].chatter_rate;
      if (!((isnan(ca) ? 0 : ca) > (isnan(cb) ? 0 : cb)))
        break;
      const size_t t = cand[c];
      cand[c] = cand[c - 1];
      cand[c - 1] = t;
    }
  int translucent = 0;
  for (size_t a = 0; a < ncand; a++) {
    const run *r = &R->r[cand[a]];
    if (traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    char step[48], t[160], col[16];
    run_step(r, step, sizeof step);
    snprintf(t, sizeof t, "%s/%s %s%s%s", r->model, r->integrator, step, r->ok ? "" : " ",
             r->ok ? "" : r->status);
    const char *c = model_color(r->model);
    if (r->chatter_rate > FB_V_CHATTER_RATE) {
      snprintf(col, sizeof col, "#70%s", c + 1);
      translucent = 1;
    } else {
      snprintf(col, sizeof col, "%s", c);
    }
    char srcp[PATH_LEN + 32];
    traj_source(path, srcp, sizeof srcp);
    sb_gword(pb_var(&b, "files"), srcp);
    sb_gword(pb_var(&b, "titles"), t);
    sb_gword(pb_var(&b, "colors"), col);
    if (first[0] == '\0')
      snprintf(first, sizeof first, "%s", path);
    nf++;
  }
  if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference" FB_TRAJ_EXT, rp->dir, S) != 0 ||
      file_size(ref) <= 0)
    ref[0] = '\0';
  int n = 0, nc = 0, st = FB_OK;
  if (nf == 0 || traj_dims(first, &n, &nc) != 0) {
    plot_skip(rp, p, "no readable trajectory file of a baseline run");
  } else {
    int ncol = n > nc ? n : nc;
    if (ncol > 3)
      ncol = 3;
    char refsrc[PATH_LEN + 32] = "";
    if (ref[0] != '\0')
      traj_source(ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "%s: every model against the reference%s", S,
              n > 3 ? " (first 3 DOFs)" : "");
    sb_puts(pb_var(&b, "note"), translucent ? "faint lines, drawn behind the others: runs that chatter "
                                              "(> 10 velocity sign changes per second of stick)" : "");
    /* reading */
    sbuf *rd = &p->reading;
    if (best >= 0) {
      sb_printf(rd, "Closest to the reference in x: %s/%s (L2 error ", R->r[best].model,
                R->r[best].integrator);
      sb_num(rd, R->r[best].err_x_l2);
      sb_printf(rd, " m s^0.5); farthest: %s/%s (", R->r[worst].model, R->r[worst].integrator);
      sb_num(rd, R->r[worst].err_x_l2);
      sb_puts(rd, ")");
    } else {
      sb_puts(rd, "No baseline run has an error against a reference");
    }
    if (!isnan(stref)) {
      sb_printf(rd, "; of the reference's %.3g s of stick, %s reproduce%s it within 10%%", stref,
                good.n ? sb_str(&good) : "no model", good.n && strchr(sb_str(&good), ',') ? "" : "s");
      if (bad.n)
        sb_printf(rd, ", %s less than 10%%", sb_str(&bad));
      if (over.n)
        sb_printf(rd, ", and %s stick%s longer than the reference (time ratio)", sb_str(&over),
                  strchr(sb_str(&over), ',') ? "" : "s");
    } else if (best >= 0) {
      sb_puts(rd, "; the reference has no stick interval");
    }
    sb_puts(rd, ".");
    st = plot_draw(rp, p, "traj.gp", &b, err, "n=%d; nc=%d; ncol=%d; W=%d; H=%d", n, nc, ncol,
                   700 + 450 * ncol, 1050);
  }
  pb_free(&b);
  sb_free(&good);
  sb_free(&bad);
  sb_free(&over);
  return st;
}

/* ==== convergence ========================================================================= */

static double series_order(const report *rp, const char *scenario, const series *s)
{
  const long k = orders_find(&rp->O, scenario, s->model, s->integrator, s->tag);
  return k < 0 ? (double)NAN : fb_csv_d(&rp->O.t, (size_t)k, rp->O.c_order_x);
}

/* A run a convergence plot draws: its discretization error (against the model's own
 * reference, docs/design.md §6) against its step; suspect runs are not ok. */
static int conv_point(const run *r)
{
  return r->ok && r->disc_x_l2 > 0 && r->h > 0 && isfinite(r->disc_x_l2);
}

static int conv_draw(report *rp, plot_entry *p, const char *scn, fb_err *err)
{
  const runs *R = &rp->R;
  series_set *S = rp->S;
  series_collect(R, "convergence", scn, S);
  plot_build b = {0};
  sbuf none = {0};
  double hmax = NAN;
  /* sort the series by order (descending) for the reading */
  size_t ord_idx[MAX_SERIES];
  double ord_val[MAX_SERIES];
  size_t nord = 0;
  for (size_t j = 0; j < S->n; j++) {
    const series *s = &S->s[j];
    drawn d;
    if (series_drawn(R, s, conv_point, &d) == 0) {
      sb_printf(&none, "%s%s", none.n ? ", " : "", d.label);
      continue;
    }
    double o = series_order(rp, scn, s);
    if (fabs(o) < 0.005)
      o = 0; /* no "-0.00" */
    char t[200], em[40] = "";
    const double mod = d.row[0]->mod_x_l2;
    if (mod > 0)
      snprintf(em, sizeof em, ", E_mod %.1e", mod);
    if (isnan(o))
      snprintf(t, sizeof t, "%s (no asymptotic range%s)", d.label, em);
    else
      snprintf(t, sizeof t, "%s (order %.2f%s)", d.label, o, em);
    pb_block(&b, t);
    for (size_t q = 0; q < d.n; q++) {
      pb_err_point(&b, d.row[q]->h, d.row[q]->disc_x_l2);
      if (isnan(hmax) || d.row[q]->h > hmax)
        hmax = d.row[q]->h;
    }
    pb_looks(&b, s, 1);
    if (!isnan(o) && nord < MAX_SERIES) {
      ord_idx[nord] = j;
      ord_val[nord++] = o;
    }
    b.nb++;
  }
  /* the guide lines pass through the median error at the largest step */
  double gy;
  {
    double at[MAX_SERIES];
    size_t na = 0;
    for (size_t j = 0; j < S->n && na < MAX_SERIES; j++)
      for (size_t q = 0; q < S->s[j].n; q++) {
        const run *r = &R->r[S->s[j].idx[q]];
        if (conv_point(r) && r->h == hmax) {
          at[na++] = log(r->disc_x_l2);
          break;
        }
      }
    gy = na ? exp(fb_median(at, na)) : 1.0;
  }
  int st = FB_OK;
  if (b.nb == 0) {
    plot_skip(rp, p, "no successful convergence run");
  } else {
    sb_printf(pb_var(&b, "scen"), "%s: discretization error of x (each model against its own "
              "reference) vs h", scn);
    /* reading: orders from highest to lowest */
    for (size_t a = 0; a < nord; a++)
      for (size_t c = a + 1; c < nord; c++)
        if (ord_val[c] > ord_val[a]) {
          const double tv = ord_val[a];
          ord_val[a] = ord_val[c];
          ord_val[c] = tv;
          const size_t ti = ord_idx[a];
          ord_idx[a] = ord_idx[c];
          ord_idx[c] = ti;
        }
    sb_puts(&p->reading, "Discretization orders in x on the asymptotic range (orders.csv): ");
    for (size_t a = 0; a < nord; a++) {
      char lab[160];
      series_label(&S->s[ord_idx[a]], lab, sizeof lab);
      sb_printf(&p->reading, "%s%s %.2f", a ? ", " : "", lab, ord_val[a]);
    }
    if (nord == 0)
      sb_puts(&p->reading, "none (orders.csv missing)");
    if (!is_closed_form(R, scn))
      sb_puts(&p->reading, " (against the event-driven reference)");
    if (none.n)
      sb_printf(&p->reading, "; no successful run: %s", sb_str(&none));
    sb_puts(&p->reading, ".");
    st = plot_draw(rp, p, "conv.gp", &b, err, "ns=%zu; gx=%.10g; gy=%.10g; W=1300; H=800", b.nb,
                   hmax, gy);
  }
  pb_free(&b);
  sb_free(&none);
  return st;
}

/* ==== work-precision ====================================================================== */

static const double wp_targets[] = {1e-1, 1e-2, 1e-3, 1e-4};
#define N_WP_TARGETS (sizeof wp_targets / sizeof wp_targets[0])

/* The tightest target (of wp_targets) reached by at least two models on `scenario`, or
 * the loosest reached by one; NaN if none. */
static double wp_target(const runs *R, const char *scenario)
{
  double pick = NAN;
  for (size_t j = 0; j < N_WP_TARGETS; j++) {
    names m = {{0}, 0};
    for (size_t k = 0; k < R->n; k++) {
      const run *r = &R->r[k];
      if (r->ok && in_cost_groups(r) && streq(r->scenario, scenario) && r->err_x_l2 <= wp_targets[j] &&
          r->cpu_s > 0)
        names_add(&m, r->model);
    }
    if (m.n >= 2 || (m.n == 1 && isnan(pick)))
      pick = wp_targets[j];
    if (m.n < 2)
      break;
  }
  return pick;
}

/* "the cheapest ... ; then ... (x r)" at target on scenario, over every model. */
static void cost_sentence(const runs *R, const char *scenario, double target, sbuf *out)
{
  names models = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].scenario, scenario) && in_cost_groups(&R->r[k]))
      names_add(&models, R->r[k].model);
  long best[MAX_NAMES];
  size_t order[MAX_NAMES], nr = 0;
  sbuf miss = {0};
  for (size_t i = 0; i < models.n; i++) {
    best[i] = cheapest_at(R, scenario, models.s[i], target);
    if (best[i] >= 0)
      order[nr++] = i;
    else
      sb_printf(&miss, "%s%s", miss.n ? ", " : "", models.s[i]);
  }
  for (size_t a = 0; a < nr; a++)
    for (size_t b = a + 1; b < nr; b++)
      if (R->r[best[order[b]]].cpu_s < R->r[best[order[a]]].cpu_s) {
        const size_t t = order[a];
        order[a] = order[b];
        order[b] = t;
      }
  if (nr == 0) {
    sb_printf(out, "no run reaches an L2 error of x of %.0e m s^0.5", target);
  } else {
    const run *c = &R->r[best[order[0]]];
    char step[48];
    run_step(c, step, sizeof step);
    sb_printf(out, "to reach an L2 error of x <= %.0e m s^0.5 the cheapest run is %s/%s %s (%.2g s CPU)",
              target, c->model, c->integrator, step, c->cpu_s);
    for (size_t a = 1; a < nr; a++) {
      const run *r = &R->r[best[order[a]]];
      sb_printf(out, "%s %s/%s x%.2g", a == 1 ? "; then" : ",", r->model, r->integrator,
                r->cpu_s / c->cpu_s);
    }
    if (miss.n)
      sb_printf(out, "; not reached by %s", sb_str(&miss));
  }
  sb_free(&miss);
}

/* A run a work-precision plot draws: an error against a CPU time. */
static int wp_point(const run *r)
{
  return r->ok && r->err_x_l2 > 0 && r->cpu_s > 0 && isfinite(r->err_x_l2);
}

static int wp_draw(report *rp, plot_entry *p, const char *scn, fb_err *err)
{
  const runs *R = &rp->R;
  series_collect(R, "work-precision", scn, rp->S);
  series_collect(R, "convergence", scn, rp->C);
  plot_build b = {0};
  /* tolerance ladders solid, then the fixed-step ladders dashed */
  for (int pass = 0; pass < 2; pass++) {
    const series_set *X = pass == 0 ? rp->S : rp->C;
    for (size_t j = 0; j < X->n; j++) {
      const series *s = &X->s[j];
      drawn d;
      if (series_drawn(R, s, wp_point, &d) == 0)
        continue;
      char t[220];
      snprintf(t, sizeof t, "%s (%s)", d.label, pass == 0 ? "tolerance ladder" : "fixed h ladder");
      pb_block(&b, t);
      for (size_t q = 0; q < d.n; q++)
        pb_err_point(&b, d.row[q]->cpu_s, d.row[q]->err_x_l2);
      pb_looks(&b, s, pass == 0 ? 1 : 2);
      b.nb++;
    }
  }
  int st = FB_OK;
  if (b.nb == 0) {
    plot_skip(rp, p, "no successful work-precision run");
  } else {
    const double target = wp_target(R, scn);
    sb_printf(pb_var(&b, "scen"),
              "%s: error of x against CPU time (solid: tolerance ladders, dashed: fixed steps)", scn);
    if (isnan(target))
      sb_puts(&p->reading, "No run reaches an L2 error of x of 0.1 m s^0.5");
    else
      cost_sentence(R, scn, target, &p->reading);
    sb_puts(&p->reading, ".");
    /* capitalize the first letter */
    if (p->reading.s != NULL && p->reading.s[0] >= 'a' && p->reading.s[0] <= 'z')
      p->reading.s[0] = (char)(p->reading.s[0] - 'a' + 'A');
    st = plot_draw(rp, p, "wp.gp", &b, err, "ns=%zu; target=%.10g; W=1400; H=%d", b.nb,
                   isnan(target) ? 0.0 : target, b.nb > 14 ? 1000 : 850);
  }
  pb_free(&b);
  return st;
}

/* ==== cost against mu ===================================================================== */

/* A run a cost plot draws: a cost at a friction coefficient, its budget hit or not. */
static int cost_point(const run *r)
{
  return (r->ok || r->budget) && r->nfe > 0 && !isnan(r->value);
}

static int cost_draw(report *rp, plot_entry *p, const char *scn, fb_err *err)
{
  const runs *R = &rp->R;
  series_set *S = rp->S;
  series_collect(R, "cost-mu", scn, S);
  names tags = {{0}, 0};
  plot_build b = {0};
  double mumin = NAN, mumax = NAN;
  size_t ncpu = 0, nbudget = 0;
  sbuf *rd = &p->reading;
  for (size_t j = 0; j < S->n; j++) {
    const series *s = &S->s[j];
    drawn d;
    if (series_drawn(R, s, cost_point, &d) == 0)
      continue;
    const run *lo = NULL, *hi = NULL;
    sbuf budg = {0};
    /* a tagged second series (coupled-sledges' A=2) is drawn dashed in its model's colour
     * and named once in the key, so the key stays one column */
    pb_block(&b, s->tag[0] ? "" : d.label);
    if (s->tag[0] && names_find(&tags, s->tag) < 0)
      names_add(&tags, s->tag);
    for (size_t q = 0; q < d.n; q++) {
      const run *r = d.row[q];
      sb_dat(&b.data, r->value);
      sb_dat(&b.data, r->nfe);
      sb_dat(&b.data, r->cpu_s > 0 ? r->cpu_s : (double)NAN);
      sb_dat(&b.data, r->budget ? r->nfe : (double)NAN);
      sb_dat(&b.data, r->budget && r->cpu_s > 0 ? r->cpu_s : (double)NAN);
      sb_puts(&b.data, "\n");
      if (isnan(mumin) || r->value < mumin)
        mumin = r->value;
      if (isnan(mumax) || r->value > mumax)
        mumax = r->value;
      if (lo == NULL || r->value < lo->value)
        lo = r;
      if (hi == NULL || r->value > hi->value)
        hi = r;
      if (r->budget)
        sb_printf(&budg, "%s%g", budg.n ? ", " : "", r->value);
      ncpu += r->cpu_s > 0;
      nbudget += r->budget;
    }
    if (hi != lo) {
      sb_printf(rd, "%s%s x%.3g (mu %g -> %g", b.nb ? "; " : "", d.label, hi->nfe / lo->nfe, lo->value,
                hi->value);
      if (budg.n)
        sb_printf(rd, ", budget hit at mu = %s", sb_str(&budg));
      sb_puts(rd, ")");
    }
    sb_free(&budg);
    pb_looks(&b, s, s->tag[0] ? 2 : 1); /* a second series (A=2) dashed */
    b.nb++;
  }
  int st = FB_OK;
  if (b.nb == 0) {
    plot_skip(rp, p, "no run of the cost-mu group with a cost");
  } else {
    reading_lead(rd, "Growth of the RHS evaluations with the friction coefficient");
    sb_printf(pb_var(&b, "scen"), "%s: cost against the friction coefficient mu", scn);
    sbuf *dn = pb_var(&b, "dashnote");
    for (size_t t = 0; t < tags.n; t++)
      sb_printf(dn, "%s%s", t ? ", " : "dashed: the same with ", tags.s[t]);
    st = plot_draw(rp, p, "cost.gp", &b, err, "ns=%zu; logx=%d; havecpu=%d; nbudget=%zu; W=1300; H=950",
                   b.nb, mumin > 0 && mumax / mumin >= 9.99 ? 1 : 0, ncpu > 0, nbudget);
  }
  pb_free(&b);
  return st;
}

/* ==== drift =============================================================================== */

static int plot_drift(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  names models = {{0}, 0}, variants = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "drift")) {
      names_add(&models, R->r[k].model);
      names_add(&variants, R->r[k].tag[0] ? R->r[k].tag : "default");
    }
  if (models.n == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "drift: creep under sub-breakaway loads, per model and load variant", "drift");
  if (p == NULL)
    return FB_OK;
  size_t nval = 0;
  for (size_t k = 0; k < R->n; k++)
    nval += streq(R->r[k].group, "drift") && R->r[k].ok && R->r[k].drift_per_cycle >= 0;
  if (nval == 0) {
    plot_skip(rp, p, "no successful drift-group run with a drift");
    return FB_OK;
  }
  /* drifts below this (round-off, or exactly 0) are drawn at it as open triangles */
  const double yfloor = 1e-12;
  plot_build b = {0};
  sbuf above = {0}, below = {0}, zero = {0}, unknown = {0};
  static const char *const vcol[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                     "#8c564b", "#e377c2", "#7f7f7f"};
  static const int vpt[] = {7, 5, 9, 13, 15, 11, 3, 6};
  for (size_t j = 0; j < variants.n; j++) {
    sb_gword(pb_var(&b, "variants"), variants.s[j]);
    sb_gword(pb_var(&b, "colors"), vcol[j % 8]);
    sb_printf(pb_var(&b, "pts"), "%d ", vpt[j % 8]);
  }
  for (size_t i = 0; i < models.n; i++) {
    sb_printf(&b.data, "%zu ", i + 1);
    sb_gword(&b.data, models.s[i]);
    double mx = NAN;
    const char *mxv = "";
    int allzero = 1, any = 0;
    for (size_t j = 0; j < variants.n; j++) {
      double v = NAN;
      for (size_t k = 0; k < R->n; k++) {
        const run *r = &R->r[k];
        if (streq(r->group, "drift") && streq(r->model, models.s[i]) && r->ok &&
            streq(r->tag[0] ? r->tag : "default", variants.s[j])) {
          v = r->drift_per_cycle;
          break;
        }
      }
      sb_dat(&b.data, v >= yfloor ? v : (double)NAN);
      sb_dat(&b.data, v < yfloor ? yfloor : (double)NAN);
      if (!isnan(v)) {
        any = 1;
        allzero &= v < yfloor;
        if (isnan(mx) || v > mx) {
          mx = v;
          mxv = variants.s[j];
        }
      }
    }
    sb_puts(&b.data, "\n");
    sbuf *dst = !any ? &unknown : allzero ? &zero : mx > DRIFT_READING_LINE ? &above : &below;
    sb_printf(dst, "%s%s", dst->n ? ", " : "", models.s[i]);
    if (any && !allzero) {
      sb_puts(dst, " (");
      sb_num(dst, mx);
      sb_printf(dst, ", %s)", mxv);
    }
  }
  sbuf *rd = &p->reading;
  sb_printf(rd, "Largest drift per cycle above the %.0e m/cycle threshold (drifts): %s", DRIFT_READING_LINE,
            above.n ? sb_str(&above) : "none");
  sb_printf(rd, "; below it: %s", below.n ? sb_str(&below) : "none");
  sb_printf(rd, "; zero (below %.0e, round-off) in every variant: %s", yfloor, zero.n ? sb_str(&zero) : "none");
  if (unknown.n)
    sb_printf(rd, "; no successful run: %s", sb_str(&unknown));
  sb_puts(rd, ".");
  sb_puts(pb_var(&b, "scen"), "drift: drift per forcing cycle inside the reference's stick (exact answer: 0)");
  const int st = plot_draw(rp, p, "drift.gp", &b, err, "nv=%zu; nm=%zu; yfloor=%.3g; threshold=%.3g; W=1300; H=800",
                           variants.n, models.n, yfloor, DRIFT_READING_LINE);
  pb_free(&b);
  sb_free(&above);
  sb_free(&below);
  sb_free(&zero);
  sb_free(&unknown);
  return st;
}

/* ==== chatter against h =================================================================== */

/* A run the chatter plot draws: a chatter rate at a fixed step. */
static int chatter_point(const run *r)
{
  return r->ok && r->h > 0 && !isnan(r->chatter_rate);
}

static int plot_chatter(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  series_set *S = rp->S;
  series_collect(R, "convergence", "stick-slip", S);
  if (S->n == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "stick-slip: chatter against the step", "chatter");
  if (p == NULL)
    return FB_OK;
  const double yfloor = 0.01;
  plot_build b = {0};
  sbuf zero = {0};
  const run *fin[MAX_SERIES]; /* the finest step of each ladder that chatters at all */
  size_t nfin = 0;
  for (size_t j = 0; j < S->n; j++) {
    const series *s = &S->s[j];
    drawn d;
    if (series_drawn(R, s, chatter_point, &d) == 0)
      continue;
    const run *finest = NULL;
    pb_block(&b, d.label);
    for (size_t q = 0; q < d.n; q++) {
      const run *r = d.row[q];
      sb_dat(&b.data, r->h);
      sb_dat(&b.data, r->chatter_rate > 0 ? r->chatter_rate : (double)NAN);
      sb_dat(&b.data, r->chatter_rate == 0 ? yfloor : (double)NAN);
      sb_puts(&b.data, "\n");
      if (finest == NULL || r->h < finest->h)
        finest = r;
    }
    pb_looks(&b, s, 1);
    sb_gword(pb_var(&b, "titles"), d.label);
    if (finest->chatter_rate > 0)
      fin[nfin++] = finest;
    else
      sb_printf(&zero, "%s%s", zero.n ? ", " : "", d.label);
    b.nb++;
  }
  int st = FB_OK;
  if (b.nb == 0) {
    plot_skip(rp, p, "no successful fixed-step run on stick-slip");
  } else {
    for (size_t a = 0; a < nfin; a++)
      for (size_t c = a + 1; c < nfin; c++)
        if (fin[c]->chatter_rate > fin[a]->chatter_rate) {
          const run *t = fin[a];
          fin[a] = fin[c];
          fin[c] = t;
        }
    sbuf *rd = &p->reading;
    sb_puts(rd, "At the finest step of each ladder, velocity sign changes per second of stick: ");
    for (size_t a = 0; a < nfin; a++)
      sb_printf(rd, "%s%s/%s %.3g (h=%g)", a ? ", " : "", fin[a]->model, fin[a]->integrator,
                fin[a]->chatter_rate, fin[a]->h);
    if (zero.n)
      sb_printf(rd, "%snone at all for %s", nfin ? "; " : "", sb_str(&zero));
    sb_printf(rd, " (verdict threshold %g /s).", FB_V_CHATTER_RATE);
    sb_puts(pb_var(&b, "scen"), "stick-slip: chatter inside the reference's stick intervals against h");
    st = plot_draw(rp, p, "chatter.gp", &b, err, "ns=%zu; yfloor=%g; threshold=%g; W=1300; H=800", b.nb,
                   yfloor, FB_V_CHATTER_RATE);
  }
  pb_free(&b);
  sb_free(&zero);
  return st;
}

/* ==== regularization ====================================================================== */

/* The error a regularization plot draws: the modelling error E_mod (the model's own
 * converged solution against Coulomb's, docs/design.md §6), which is what the parameter
 * sets; the total error where a run has no own reference. */
static double reg_err(const run *r)
{
  return isfinite(r->mod_x_l2) ? r->mod_x_l2 : r->err_x_l2;
}

/* A run a regularization plot draws: an error or a drift at a parameter value. */
static int regularization_point(const run *r)
{
  return r->ok && r->value > 0 && (reg_err(r) >= 0 || r->drift >= 0);
}

static int regularization_draw(report *rp, plot_entry *p, const char *scn, fb_err *err)
{
  const runs *R = &rp->R;
  series_set *S = rp->S;
  series_collect(R, "regularization", scn, S);
  /* floor for zeros: a decade below the smallest positive error or drift */
  double minpos = NAN;
  for (size_t j = 0; j < S->n; j++)
    for (size_t q = 0; q < S->s[j].n; q++) {
      const run *r = &R->r[S->s[j].idx[q]];
      if (!r->ok)
        continue;
      if (reg_err(r) > 0 && (isnan(minpos) || reg_err(r) < minpos))
        minpos = reg_err(r);
      if (r->drift > 0 && (isnan(minpos) || r->drift < minpos))
        minpos = r->drift;
    }
  const double yfloor = isnan(minpos) ? 1e-12 : pow(10, floor(log10(minpos)) - 1);
  plot_build b = {0};
  sbuf *rd = &p->reading;
  size_t nzero = 0;
  for (size_t j = 0; j < S->n && b.nb < 4; j++) {
    const series *s = &S->s[j];
    drawn d;
    if (series_drawn(R, s, regularization_point, &d) == 0)
      continue;
    char t[300];
    snprintf(t, sizeof t, "%s: %s", d.label, s->sweep);
    pb_block(&b, t);
    for (size_t q = 0; q < d.n; q++) {
      const run *r = d.row[q];
      sb_dat(&b.data, r->value);
      sb_dat(&b.data, reg_err(r) > 0 ? reg_err(r) : (double)NAN);
      sb_dat(&b.data, r->drift > 0 ? r->drift : (double)NAN);
      sb_dat(&b.data, r->nfe > 0 ? r->nfe : (double)NAN);
      sb_dat(&b.data, reg_err(r) == 0 ? yfloor : (double)NAN);
      sb_dat(&b.data, r->drift == 0 ? yfloor : (double)NAN);
      nzero += reg_err(r) == 0 || r->drift == 0;
      sb_puts(&b.data, "\n");
    }
    sb_gword(pb_var(&b, "colors"), model_color(s->model));
    sb_gword(pb_var(&b, "ptitles"), t);
    snprintf(t, sizeof t, "%s (model parameter, log scale)", s->sweep);
    sb_gword(pb_var(&b, "pxlabels"), t);
    if (d.n > 1) {
      /* from one end of the ladder to the other, and the runs that failed on it */
      const run *lo = d.row[0], *hi = d.row[d.n - 1];
      sb_printf(rd, "%s%s from %s = %g to %g: modelling error E_mod of x ", b.nb ? "; " : "", d.label, s->sweep,
                lo->value, hi->value);
      sb_change(rd, reg_err(lo), reg_err(hi));
      sb_puts(rd, ", drift ");
      sb_change(rd, lo->drift, hi->drift);
      sb_printf(rd, " m, nfe %.0f -> %.0f", lo->nfe, hi->nfe);
      sbuf failed = {0};
      for (size_t q = 0; q < s->n; q++) {
        const run *r = &R->r[s->idx[q]];
        if (!r->ok && r->value > 0)
          sb_printf(&failed, "%s%s at %g", failed.n ? ", " : "", r->status, r->value);
      }
      if (failed.n)
        sb_printf(rd, " (%s)", sb_str(&failed));
      sb_free(&failed);
    }
    b.nb++;
  }
  int st = FB_OK;
  if (b.nb == 0) {
    plot_skip(rp, p, "no successful run of the regularization group");
  } else {
    reading_lead(rd, "In ladder order (looser to stiffer regularization)");
    sb_printf(pb_var(&b, "scen"), "%s: modelling error, drift and cost against the regularization parameter", scn);
    st = plot_draw(rp, p, "regularization.gp", &b, err, "ns=%zu; nzero=%zu; yfloor=%.3g; W=%d; H=%d",
                   b.nb, nzero, yfloor, b.nb > 1 ? 1500 : 1000, b.nb > 2 ? 1100 : 680);
  }
  pb_free(&b);
  return st;
}

/* ==== [Engleder2002]'s eps x h grid ============================================================= */

/* The header and the rows with t0 <= t <= t1 of trajectory file src, as the plot data
 * file `name` (its path into out).  Why: the grid plots draw the last 2 drive periods of
 * 40001-sample trajectories, and gnuplot reading the five whole files twice per plot
 * was the longest job of the report. */
static int traj_window(report *rp, const char *src, double t0, double t1, const char *name,
                       char *out, size_t len, fb_err *err)
{
  char *text;
  size_t n;
  if (fb_gz_read_all(src, &text, &n) != 0)
    return fb_err_set(err, FB_EIO, "cannot read trajectory '%s'", src);
  sbuf d = {0};
  const char *p = text, *end = text + n;
  for (int header = 1; p < end; header = 0) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    const size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
    char *q;
    const double t = strtod(p, &q);
    if (header || (q != p && t >= t0 && t <= t1))
      sb_printf(&d, "%.*s\n", (int)l, p);
    p += l + 1;
  }
  free(text);
  const int st = write_data(rp, name, &d, out, len, err);
  sb_free(&d);
  return st;
}

static int plots_grid(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  long cell[4];
  size_t nc = 0;
  for (size_t k = 0; k < R->n && nc < 4; k++)
    if (streq(R->r[k].group, "grid"))
      cell[nc++] = (long)k;
  if (nc == 0)
    return FB_OK;
  const char *scn = R->r[cell[0]].scenario;
  plot_entry *pp = plot_new(rp, "two-mass-drive grid ([Engleder2002] fig. 3): phase curves of the contact mass", "grid_phase");
  plot_entry *pf = plot_new(rp, "two-mass-drive grid ([Engleder2002] fig. 4): contact forces", "grid_force");
  if (pp == NULL || pf == NULL)
    return FB_OK;
  sbuf files = {0}, titles = {0}, vars = {0};
  char path[PATH_LEN], ref[PATH_LEN], first[PATH_LEN] = "", src[4][PATH_LEN];
  size_t nf = 0;
  long best = -1, worst = -1;
  sbuf ftv = {0};
  for (size_t c = 0; c < nc; c++) {
    const run *r = &R->r[cell[c]];
    if (traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    char step[48], t[200];
    run_step(r, step, sizeof step);
    snprintf(t, sizeof t, "%s, %s: L2 error of x %.3g m s^0.5%s%s", r->tag, step, r->err_x_l2,
             r->ok ? "" : ", ", r->ok ? "" : r->status);
    snprintf(src[nf], sizeof src[nf], "%s", path);
    sb_gword(&titles, t);
    if (first[0] == '\0')
      snprintf(first, sizeof first, "%s", path);
    nf++;
    if (r->ok && isfinite(r->err_x_l2)) {
      if (best < 0 || r->err_x_l2 < R->r[best].err_x_l2)
        best = cell[c];
      if (worst < 0 || r->err_x_l2 > R->r[worst].err_x_l2)
        worst = cell[c];
    }
    sb_printf(&ftv, "%s%s %s ", ftv.n ? "; " : "", r->tag, step);
    sb_num(&ftv, r->chatter_F_tv);
  }
  int n = 0, ncont = 0, st = FB_OK;
  if (nf < 4 || traj_dims(first, &n, &ncont) != 0) {
    plot_skip(rp, pp, "fewer than four grid trajectories");
    plot_skip(rp, pf, "fewer than four grid trajectories");
  } else {
    if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference%s%s" FB_TRAJ_EXT, rp->dir, scn,
                 R->r[cell[0]].tag[0] ? "__" : "", R->r[cell[0]].tag) != 0 || file_size(ref) <= 0)
      if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference" FB_TRAJ_EXT, rp->dir, scn) != 0 ||
          file_size(ref) <= 0)
        ref[0] = '\0';
    const run *r0 = &R->r[cell[0]];
    double vd = param_get(r0->sparams, "v"), Om = param_get(r0->sparams, "Omega");
    double T = param_get(r0->sparams, "T");
    if (isnan(T))
      T = r0->t_reached;
    if (isnan(vd))
      vd = 0;
    const double tmin = Om > 0 && T > 4 * FB_PI / Om ? T - 4 * FB_PI / Om : 0.75 * T;
    for (size_t k = 0; k < nf && st == FB_OK; k++) {
      char name[32];
      snprintf(name, sizeof name, "grid_%zu", k + 1);
      st = traj_window(rp, src[k], tmin, T, name, path, sizeof path, err);
      sb_gword(&files, path);
    }
    if (st == FB_OK && ref[0] != '\0') {
      snprintf(path, sizeof path, "%s", ref);
      st = traj_window(rp, path, tmin, T, "grid_ref", ref, sizeof ref, err);
    }
    var_s(&vars, "files", sb_str(&files));
    var_s(&vars, "titles", sb_str(&titles));
    var_s(&vars, "ref", ref);
    /* the contact mass is the last DOF (two-mass-drive: m), the force the first contact */
    sb_printf(&vars, "xc=%d; vc=%d; Fc=%d; vd=%.10g; tmin=%.10g; tmax=%.10g; W=1500; H=1050; ",
              1 + n, 1 + 2 * n, 2 + 2 * n, vd, tmin, T);
    sbuf v2 = {0};
    sb_puts(&v2, sb_str(&vars));
    var_s(&vars, "what", "phase");
    char scen[400];
    snprintf(scen, sizeof scen, "%s, %s/%s: contact-mass phase curves, rows eps = k/cT, columns h (last 2 drive periods)",
             scn, r0->model, r0->integrator);
    var_s(&vars, "scen", scen);
    var_s(&v2, "what", "force");
    snprintf(scen, sizeof scen, "%s, %s/%s: contact force, rows eps = k/cT, columns h (last 2 drive periods)",
             scn, r0->model, r0->integrator);
    var_s(&v2, "scen", scen);
    if (best >= 0) {
      char sb1[48], sb2[48];
      run_step(&R->r[best], sb1, sizeof sb1);
      run_step(&R->r[worst], sb2, sizeof sb2);
      sb_printf(&pp->reading, "Closest to the event-driven reference: %s, %s (L2 error of x %.3g m s^0.5); farthest: %s, %s (%.3g).",
                R->r[best].tag, sb1, R->r[best].err_x_l2, R->r[worst].tag, sb2, R->r[worst].err_x_l2);
    } else {
      sb_puts(&pp->reading, "No grid run has an error against the reference.");
    }
    sb_printf(&pf->reading, "Contact-force total variation inside the reference's stick intervals, per unit Fs and second "
              "(the exact force varies smoothly there): %s; the trajectory files sample the force every %.3g s, so oscillations "
              "faster than that are aliased.", sb_str(&ftv), traj_dt(first));
    if (vars.bad || v2.bad)
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
    if (st == FB_OK)
      st = gp_render(rp, pp, "grid.gp", &vars, err);
    if (st == FB_OK)
      st = gp_render(rp, pf, "grid.gp", &v2, err);
    sb_free(&v2);
  }
  sb_free(&files);
  sb_free(&titles);
  sb_free(&vars);
  sb_free(&ftv);
  return st;
}


/* ==== the plots, in the order report.html shows them ====================================== */

static const plot_kind plot_kinds[] = {
    {"baseline", "traj", "trajectories of every model (baseline runs) and the reference", traj_draw, NULL},
    {"convergence", "conv", "convergence of x under step refinement", conv_draw, NULL},
    {"work-precision", "wp", "work-precision (error of x against CPU time)", wp_draw, NULL},
    {"cost-mu", "cost", "cost against the friction coefficient", cost_draw, NULL},
    {.single = plot_drift},
    {.single = plot_chatter},
    {"regularization", "regularization", "sensitivity to the regularization parameter",
     regularization_draw, NULL},
    {.single = plots_grid},
};

/* ==== report.html ========================================================================= */

static const char html_css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:0 auto;max-width:1320px;padding:0 24px 40px;"
    "color:#1b1b1b;line-height:1.45;font-size:15px}"
    "h1{margin:22px 0 4px}h2{border-bottom:2px solid #ccc;padding-bottom:4px;margin-top:38px}"
    "h3{margin:26px 0 6px;font-size:17px}"
    "nav a{margin-right:16px}nav{margin:8px 0 0;padding:8px 0;border-top:1px solid #ddd;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;margin:10px 0 18px;font-size:13.5px}"
    "th,td{border:1px solid #c8c8c8;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.good{background:#e3f4e1}td.bad{background:#fbe3e1}td.unk{background:#f3f3f3;color:#666}"
    ".small{font-size:12px;color:#555}.warn{color:#a00000;font-weight:bold}"
    "figure{margin:0 0 30px;padding:0}figure img{max-width:100%;border:1px solid #ddd}"
    "figcaption{margin:6px 0 2px;font-size:15px}.files{font-size:12.5px;color:#555;margin:2px 0}"
    "code{background:#f4f4f4;padding:0 3px}ul.rules li{margin-bottom:4px}"
    ".err{color:#a00000}";

static const char *group_about(const char *g)
{
  static const struct {
    const char *g, *about;
  } map[] = {
      {"baseline", "every scenario x every model, its default integrator; trajectories kept"},
      {"fixed-step", "every model at one common step and a quarter of it (the fixed-step view)"},
      {"convergence", "non-dyadic fixed-step ladders (ratio 1.7) on the closed-form scenarios and "
                      "stick-slip"},
      {"work-precision", "tolerance ladders (atol = rtol) of the adaptive steppers"},
      {"cost-mu", "ladders of the friction coefficient mu (coupled-sledges at A = 10 and A = 2)"},
      {"regularization", "ladders of each regularization parameter"},
      {"drift", "the drift variants (sub-breakaway loads), every model"},
      {"grid", "[Engleder2002]'s eps x h grid on two-mass-drive (penalty model, Newmark)"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (streq(map[i].g, g))
      return map[i].about;
  return "";
}

static void html_meta_row(sbuf *h, const char *label, const char *value)
{
  sb_puts(h, "<tr><th>");
  sb_html(h, label);
  sb_puts(h, "</th><td>");
  sb_html(h, value[0] ? value : "unknown");
  sb_puts(h, "</td></tr>\n");
}

static void html_run(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  char b[512];
  size_t nok = 0, nbud = 0;
  names sc = {{0}, 0}, md = {{0}, 0}, groups = {{0}, 0};
  double wall_sum = 0;
  for (size_t k = 0; k < R->n; k++) {
    nok += R->r[k].ok;
    nbud += R->r[k].budget;
    names_add(&sc, R->r[k].scenario);
    names_add(&md, R->r[k].model);
    names_add(&groups, R->r[k].group);
    if (R->r[k].wall_s > 0)
      wall_sum += R->r[k].wall_s;
  }
  sb_puts(h, "<section id=\"run\">\n<h2>What was run</h2>\n<p>");
  sb_printf(h, "%zu runs (%zu ok, %zu hit their budget, %zu failed) of %zu scenarios x %zu models",
            R->n, nok, nbud, R->n - nok - nbud, sc.n, md.n);
  const char *m = rp->meta;
  if (m != NULL) {
    fb_json_get(m, "wall_time_s", b, sizeof b);
    sb_puts(h, "; suite wall time ");
    sb_html(h, b[0] ? b : "unknown");
    fb_json_get(m, "jobs", b, sizeof b);
    sb_puts(h, " s on ");
    sb_html(h, b[0] ? b : "?");
    fb_json_get(m, "quick", b, sizeof b);
    sb_printf(h, " threads, %s suite", streq(b, "true") ? "the --quick" : "the full");
  }
  sb_printf(h, "; the runs' own wall times add up to %.3g s.</p>\n", wall_sum);
  sb_puts(h, "<p>Scenarios: ");
  for (size_t i = 0; i < sc.n; i++) {
    sb_puts(h, i ? ", " : "");
    sb_html(h, sc.s[i]);
  }
  sb_puts(h, ".<br>Models: ");
  for (size_t i = 0; i < md.n; i++) {
    sb_puts(h, i ? ", " : "");
    sb_html(h, md.s[i]);
  }
  sb_puts(h, ".</p>\n<table>\n");
  if (m != NULL) {
    static const struct {
      const char *key, *label;
    } rows[] = {
        {"date", "date (UTC)"},        {"git_revision", "git revision"},
        {"fricbench_version", "fricbench version"}, {"compiler", "compiler"},
        {"build", "build"},            {"gsl_version", "GSL version"},
        {"system", "system"},          {"release", "kernel release"},
        {"arch", "architecture"},      {"cpu", "CPU"},
        {"cores", "cores"},            {"samples", "trajectory samples per run"},
        {"max_steps", "step budget per run"}, {"max_rhs", "RHS budget per run"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      fb_json_get(m, rows[i].key, b, sizeof b);
      html_meta_row(h, rows[i].label, b);
    }
  } else {
    html_meta_row(h, "meta.json", "absent or older than runs.csv: machine, versions and wall time unknown");
  }
  sb_puts(h, "</table>\n<table>\n<tr><th>group</th><th>what</th><th>runs</th><th>ok</th><th>budget</th>"
             "<th>failed</th><th>scenarios</th><th>models</th></tr>\n");
  for (size_t g = 0; g < groups.n; g++) {
    size_t n = 0, ok = 0, bu = 0;
    names gs = {{0}, 0}, gm = {{0}, 0};
    for (size_t k = 0; k < R->n; k++)
      if (streq(R->r[k].group, groups.s[g])) {
        n++;
        ok += R->r[k].ok;
        bu += R->r[k].budget;
        names_add(&gs, R->r[k].scenario);
        names_add(&gm, R->r[k].model);
      }
    sb_puts(h, "<tr><td>");
    sb_html(h, groups.s[g]);
    sb_puts(h, "</td><td>");
    sb_html(h, group_about(groups.s[g]));
    sb_printf(h, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                 "<td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
              n, ok, bu, n - ok - bu, gs.n, gm.n);
  }
  sb_puts(h, "</table>\n</section>\n");
}

/* One verdict cell: the verdict, its number and where it was judged (title). */
static void vcell(sbuf *h, const fb_vrow *r)
{
  if (r == NULL) {
    sb_puts(h, "<td class=\"unk\">&ndash;</td>");
    return;
  }
  const char *v = r->verdict;
  const int good = strncmp(v, "yes", 3) == 0 ? (streq(r->property, "stick") ? 1 : 0)
                   : strncmp(v, "no", 2) == 0 && strncmp(v, "no asym", 7) != 0
                       ? (streq(r->property, "stick") ? 0 : 1)
                   : streq(v, "dissipative") ? 1
                                             : -1;
  sb_printf(h, "<td class=\"%s\" title=\"", good == 1 ? "good" : good == 0 ? "bad" : "");
  sb_html(h, r->scenarios);
  sb_puts(h, "\"><b>");
  sb_html(h, v);
  sb_puts(h, "</b><br><span class=\"small\">");
  if (!isnan(r->value)) {
    sb_num(h, r->value);
    sb_puts(h, " ");
    sb_html(h, r->unit);
  }
  if (!isnan(r->value2) && (streq(r->property, "stick") || strncmp(r->property, "cost", 4) == 0)) {
    sb_puts(h, streq(r->property, "stick") ? "; by flag " : "; E_tot ");
    sb_num(h, r->value2);
  }
  sb_puts(h, "</span></td>");
}

static const fb_vrow *vfind(const fb_vtable *vt, const fb_vrow *key, const char *property)
{
  for (size_t k = 0; k < vt->n; k++) {
    const fb_vrow *r = &vt->r[k];
    if (streq(r->model, key->model) && streq(r->integrator, key->integrator) &&
        streq(r->view, key->view) && streq(r->step, key->step) && streq(r->property, property))
      return r;
  }
  return NULL;
}

/* The table of one view: a row per (model, integrator, step), a column per property. */
static void vtable_view(sbuf *h, const fb_vtable *vt, const char *view, const char *const *props,
                        size_t np)
{
  sb_puts(h, "<table>\n<tr><th>model</th><th>integrator</th><th>step</th>");
  for (size_t p = 0; p < np; p++)
    sb_printf(h, "<th>%s</th>", props[p]);
  sb_puts(h, "</tr>\n");
  for (size_t k = 0; k < vt->n; k++) {
    const fb_vrow *r = &vt->r[k];
    if (!streq(r->view, view))
      continue;
    int first = 1; /* the first row of its key */
    for (size_t j = 0; j < k && first; j++)
      first = !(streq(vt->r[j].model, r->model) && streq(vt->r[j].integrator, r->integrator) &&
                streq(vt->r[j].view, r->view) && streq(vt->r[j].step, r->step));
    if (!first)
      continue;
    sb_printf(h, "<tr><th style=\"color:%s\">", model_color(r->model));
    sb_html(h, r->model);
    sb_puts(h, "</th><td>");
    sb_html(h, r->integrator);
    sb_puts(h, "</td><td>");
    sb_html(h, r->step);
    sb_puts(h, "</td>");
    for (size_t p = 0; p < np; p++)
      vcell(h, vfind(vt, r, props[p]));
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n");
}

static void html_verdicts(sbuf *h, const fb_vtable *vt)
{
  sb_puts(h, "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<p>Drawn from <code>verdicts.csv</code> "
             "(and <code>verdicts.json</code>), one row per model, integrator, step and property, "
             "with the rule, the number and the scenarios it was judged on (hover a cell).  Only "
             "runs with status ok are scored: suspect, failed and budget runs never are.  Green is "
             "good news, red bad news.</p>\n");
  static const char *const pd[] = {"stick", "drift", "chatter", "energy"};
  static const char *const pf[] = {"stick", "drift", "creep", "chatter", "energy"};
  static const char *const po[] = {"order"};
  sb_puts(h, "<h3>Each model at its defaults</h3>\n");
  vtable_view(h, vt, "defaults", pd, 4);
  sb_puts(h, "<h3>Every model at one common fixed step</h3>\n<p>Chatter is classified and "
             "creep separated from model drift with a second run at a quarter of the step.</p>\n");
  vtable_view(h, vt, "fixed-step", pf, 5);
  sb_puts(h, "<h3>Observed order of the discretization error</h3>\n");
  vtable_view(h, vt, "convergence", po, 1);
  names costs = {{0}, 0};
  for (size_t k = 0; k < vt->n; k++)
    if (strncmp(vt->r[k].property, "cost", 4) == 0)
      names_add(&costs, vt->r[k].property);
  sb_puts(h, "<h3>Cost at matched accuracy</h3>\n");
  vtable_view(h, vt, "matched", (const char *const *)costs.s, costs.n);
  sb_puts(h, "<h3>Rules</h3>\n<ul class=\"rules\">\n");
  names done = {{0}, 0};
  for (size_t k = 0; k < vt->n; k++) {
    const char *p = strncmp(vt->r[k].property, "cost", 4) == 0 ? "cost" : vt->r[k].property;
    if (names_find(&done, p) >= 0)
      continue;
    names_add(&done, p);
    sb_printf(h, "<li><b>%s</b>: ", p);
    sb_html(h, vt->r[k].rule);
    sb_puts(h, ".</li>\n");
  }
  sb_puts(h, "</ul>\n</section>\n");
}

static void base64(sbuf *h, const unsigned char *p, size_t n)
{
  static const char tb[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char q[5] = {0};
  for (size_t i = 0; i < n; i += 3) {
    const unsigned a = p[i], b = i + 1 < n ? p[i + 1] : 0, c = i + 2 < n ? p[i + 2] : 0;
    q[0] = tb[a >> 2];
    q[1] = tb[((a & 3) << 4) | (b >> 4)];
    q[2] = i + 1 < n ? tb[((b & 15) << 2) | (c >> 6)] : '=';
    q[3] = i + 2 < n ? tb[c & 63] : '=';
    sb_puts(h, q);
  }
}

static void html_plots(sbuf *h, const report *rp)
{
  sb_puts(h, "<section id=\"plots\">\n<h2>Plots</h2>\n<p>Every plot with one sentence read off its data.  "
             "The SVG and the data file beside each are in <code>plots/</code> next to this page.</p>\n<ul>\n");
  for (size_t i = 0; i < rp->nplots; i++) {
    sb_printf(h, "<li><a href=\"#plot-%s\">", rp->plots[i].name);
    sb_html(h, rp->plots[i].title);
    sb_puts(h, "</a></li>\n");
  }
  sb_puts(h, "</ul>\n");
  for (size_t i = 0; i < rp->nplots; i++) {
    const plot_entry *p = &rp->plots[i];
    sb_printf(h, "<figure id=\"plot-%s\">\n<h3>", p->name);
    sb_html(h, p->title);
    sb_puts(h, "</h3>\n");
    char path[PATH_LEN];
    char *png = NULL;
    size_t len = 0;
    if (p->ok && path_fmt(path, sizeof path, "%s/plots/%s.png", rp->dir, p->name) == 0 &&
        fb_read_file(path, &png, &len) == 0) {
      sb_puts(h, "<img alt=\"");
      sb_html(h, p->title);
      sb_puts(h, "\" src=\"data:image/png;base64,");
      base64(h, (const unsigned char *)png, len);
      sb_puts(h, "\">\n");
    } else {
      sb_puts(h, "<p class=\"err\">");
      sb_html(h, p->err[0] ? p->err : "the PNG could not be read");
      sb_puts(h, "</p>\n");
    }
    free(png);
    sb_puts(h, "<figcaption>");
    sb_html(h, sb_str(&p->reading));
    sb_puts(h, "</figcaption>\n");
    if (p->ok) {
      if (p->png_only)
        sb_printf(h, "<p class=\"files\">PNG: <a href=\"plots/%s.png\">plots/%s.png</a> (no SVG "
                     "for trajectory overlays)", p->name, p->name);
      else
        sb_printf(h, "<p class=\"files\">SVG: <a href=\"plots/%s.svg\">plots/%s.svg</a>", p->name, p->name);
      if (path_fmt(path, sizeof path, "%s/plots/data/%s.dat", rp->dir, p->name) == 0 && file_size(path) >= 0)
        sb_printf(h, " &middot; data: <a href=\"plots/data/%s.dat\">plots/data/%s.dat</a>", p->name, p->name);
      else
        sb_printf(h, " &middot; data: the trajectory files under <code>traj/</code> (gzip CSV)");
      sb_puts(h, "</p>\n");
    }
    sb_puts(h, "</figure>\n");
  }
  sb_puts(h, "</section>\n");
}

/* The variable part of a message ("... at t=1.23") left out, to group alike failures. */
static void message_stem(const char *msg, char *out, size_t len)
{
  snprintf(out, len, "%s", msg);
  char *p = strstr(out, " at t=");
  if (p != NULL)
    *p = '\0';
}

static void html_omissions(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  sb_puts(h, "<section id=\"omissions\">\n<h2>Omissions</h2>\n");
  /* runs that did not finish */
  size_t nbad = 0;
  for (size_t k = 0; k < R->n; k++)
    nbad += !R->r[k].ok;
  sb_printf(h, "<h3>Runs that did not finish (%zu)</h3>\n", nbad);
  if (nbad == 0) {
    sb_puts(h, "<p>Every run finished with status ok.</p>\n");
  } else {
    sb_puts(h, "<p>Left out of the plots (budget hits are drawn in the cost plots as the cost so far).  "
               "Alike failures are grouped; the swept values are listed.</p>\n<table>\n<tr><th>group</th>"
               "<th>scenario</th><th>model</th><th>integrator</th><th>status</th><th>message</th>"
               "<th>runs</th><th>sweep values (run ids)</th></tr>\n");
    char *done = calloc(R->n ? R->n : 1, 1);
    for (size_t k = 0; done != NULL && k < R->n; k++) {
      const run *r = &R->r[k];
      if (r->ok || done[k])
        continue;
      char stem[FB_ERR_LEN], s2[FB_ERR_LEN];
      message_stem(r->message, stem, sizeof stem);
      sbuf vals = {0};
      size_t cnt = 0;
      for (size_t q = k; q < R->n; q++) {
        const run *o = &R->r[q];
        if (o->ok || done[q] || !streq(o->group, r->group) || !streq(o->scenario, r->scenario) ||
            !streq(o->model, r->model) || !streq(o->integrator, r->integrator) ||
            !streq(o->status, r->status))
          continue;
        message_stem(o->message, s2, sizeof s2);
        if (!streq(s2, stem))
          continue;
        done[q] = 1;
        cnt++;
        if (!isnan(o->value))
          sb_printf(&vals, "%s%s=%g (%ld)", vals.n ? ", " : "", o->sweep, o->value, o->id);
        else
          sb_printf(&vals, "%s%s (%ld)", vals.n ? ", " : "", o->tag[0] ? o->tag : "single run", o->id);
      }
      sb_puts(h, "<tr><td>");
      sb_html(h, r->group);
      sb_puts(h, "</td><td>");
      sb_html(h, r->scenario);
      sb_puts(h, "</td><td>");
      sb_html(h, r->model);
      sb_puts(h, "</td><td>");
      sb_html(h, r->integrator);
      sb_puts(h, "</td><td>");
      sb_html(h, r->status);
      sb_puts(h, "</td><td>");
      sb_html(h, stem[0] ? stem : "(no message)");
      sb_printf(h, "</td><td class=\"num\">%zu</td><td>", cnt);
      sb_html(h, sb_str(&vals));
      sb_puts(h, "</td></tr>\n");
      sb_free(&vals);
    }
    free(done);
    sb_puts(h, "</table>\n");
  }
  /* runs without a reference */
  names noref = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].ref, "none"))
      names_add(&noref, R->r[k].scenario);
  sb_puts(h, "<h3>Runs without a reference</h3>\n<p>");
  if (noref.n == 0) {
    sb_puts(h, "None: every run was scored against a closed form or the event-driven reference.");
  } else {
    sb_puts(h, "Their metrics are n/a (scenario variants): ");
    for (size_t i = 0; i < noref.n; i++) {
      sb_puts(h, i ? ", " : "");
      sb_html(h, noref.s[i]);
    }
    sb_puts(h, ".");
  }
  sb_puts(h, "</p>\n");
  /* fits with too few points */
  sb_puts(h, "<h3>Convergence fits left out of the order verdict</h3>\n<p>");
  size_t nfit = 0;
  if (!rp->O.present) {
    sb_puts(h, "orders.csv is missing: no order is known.");
  } else {
    for (size_t k = 0; k < rp->O.t.nrows; k++) {
      const double pts = fb_csv_d(&rp->O.t, k, rp->O.c_points);
      if (pts >= 3 && isfinite(fb_csv_d(&rp->O.t, k, rp->O.c_order_x)))
        continue;
      sb_puts(h, nfit++ ? "; " : "");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_scenario));
      sb_puts(h, " ");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_model));
      sb_puts(h, "/");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_integrator));
      sb_printf(h, " (%g successful steps)", isnan(pts) ? 0.0 : pts);
    }
    if (nfit == 0)
      sb_puts(h, "None: every convergence experiment has at least 3 successful steps.");
    else
      sb_puts(h, ".");
  }
  sb_puts(h, "</p>\n");
  /* trajectories and plots */
  sb_puts(h, "<h3>Missing trajectories and plots</h3>\n<p>");
  size_t nmiss = 0;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    char path[PATH_LEN];
    if (!(streq(r->group, "baseline") || streq(r->group, "grid")))
      continue;
    if (traj_path(rp->dir, r, path, sizeof path) == 0)
      continue;
    sb_puts(h, nmiss++ ? "; " : "Trajectory files not found (not drawn): ");
    sb_html(h, r->scenario);
    sb_puts(h, " ");
    sb_html(h, r->model);
    sb_puts(h, "/");
    sb_html(h, r->integrator);
    sb_printf(h, " (run %ld, %s)", r->id, r->status);
  }
  if (nmiss)
    sb_puts(h, ". ");
  size_t np = 0;
  for (size_t i = 0; i < rp->nplots; i++) {
    if (rp->plots[i].ok)
      continue;
    sb_puts(h, np++ ? "; " : "Plots not drawn: ");
    sb_html(h, rp->plots[i].name);
    sb_puts(h, " (");
    sb_html(h, rp->plots[i].err);
    sb_puts(h, ")");
  }
  if (np)
    sb_puts(h, ".");
  if (nmiss == 0 && np == 0)
    sb_puts(h, "None.");
  sb_puts(h, "</p>\n</section>\n");
}

static void td_num(sbuf *h, double v)
{
  sb_puts(h, "<td class=\"num\">");
  sb_num(h, v);
  sb_puts(h, "</td>");
}

static void html_numbers(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  names models = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    names_add(&models, R->r[k].model);
  sb_puts(h, "<section id=\"numbers\">\n<h2>Numbers behind the verdicts</h2>\n");
  /* drift */
  names variants = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "drift"))
      names_add(&variants, R->r[k].tag[0] ? R->r[k].tag : "default");
  sb_puts(h, "<h3>Accumulation per forcing cycle [m/cycle] (drift group, drift_rate)</h3>\n"
             "<table>\n<tr><th>model</th>");
  for (size_t j = 0; j < variants.n; j++) {
    sb_puts(h, "<th>");
    sb_html(h, variants.s[j]);
    sb_puts(h, "</th>");
  }
  sb_puts(h, "</tr>\n");
  for (size_t i = 0; i < models.n; i++) {
    sb_puts(h, "<tr><td>");
    sb_html(h, models.s[i]);
    sb_puts(h, "</td>");
    for (size_t j = 0; j < variants.n; j++) {
      double d = NAN;
      for (size_t k = 0; k < R->n; k++) {
        const run *r = &R->r[k];
        if (streq(r->group, "drift") && streq(r->model, models.s[i]) && r->ok &&
            streq(r->tag[0] ? r->tag : "default", variants.s[j]))
          d = r->drift_rate;
      }
      td_num(h, d);
    }
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n");
  /* chatter */
  sb_puts(h, "<h3>Chatter on stick-slip (baseline runs)</h3>\n<table>\n<tr><th>model</th><th>integrator</th>"
             "<th>chatter_rate [1/s]</th><th>chatter_v_rms [m/s]</th><th>chatter_F_tv [-]</th>"
             "<th>stick_time / ref [s]</th></tr>\n");
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "baseline") || !streq(r->scenario, "stick-slip"))
      continue;
    char step[48];
    run_step(r, step, sizeof step);
    sb_puts(h, "<tr><td>");
    sb_html(h, r->model);
    sb_puts(h, "</td><td>");
    sb_html(h, r->integrator);
    sb_printf(h, " %s</td>", step);
    td_num(h, r->chatter_rate);
    td_num(h, r->chatter_v_rms);
    td_num(h, r->chatter_F_tv);
    sb_puts(h, "<td class=\"num\">");
    sb_num(h, r->stick_time);
    sb_puts(h, " / ");
    sb_num(h, r->stick_time_ref);
    sb_puts(h, "</td></tr>\n");
  }
  sb_puts(h, "</table>\n");
  /* orders */
  sb_puts(h, "<h3>Observed orders (orders.csv)</h3>\n");
  if (!rp->O.present) {
    sb_puts(h, "<p>orders.csv is missing.</p>\n");
  } else {
    sb_puts(h, "<table>\n<tr><th>scenario</th><th>reference</th><th>model</th><th>integrator</th><th>points</th>"
               "<th>order_x</th><th>order_v</th><th>err_x_l2 at finest h [m s^0.5]</th><th>finest h [s]</th>"
               "<th>in the verdict</th></tr>\n");
    const orders *O = &rp->O;
    for (size_t k = 0; k < O->t.nrows; k++) {
      const char *scn = fb_csv_s(&O->t, k, O->c_scenario);
      const int cf = is_closed_form(R, scn);
      const double pts = fb_csv_d(&O->t, k, O->c_points), ox = fb_csv_d(&O->t, k, O->c_order_x);
      sb_puts(h, "<tr><td>");
      sb_html(h, scn);
      sb_printf(h, "</td><td>%s</td><td>", cf ? "closed form" : "event-driven");
      sb_html(h, fb_csv_s(&O->t, k, O->c_model));
      sb_puts(h, "</td><td>");
      sb_html(h, fb_csv_s(&O->t, k, O->c_integrator));
      sb_puts(h, "</td>");
      td_num(h, pts);
      td_num(h, ox);
      td_num(h, fb_csv_d(&O->t, k, O->c_order_v));
      td_num(h, fb_csv_d(&O->t, k, O->c_err));
      td_num(h, fb_csv_d(&O->t, k, O->c_h));
      sb_printf(h, "<td>%s</td></tr>\n", cf && pts >= 3 && isfinite(ox) ? "yes" : "no");
    }
    sb_puts(h, "</table>\n");
  }
  /* cost at matched accuracy, every scenario with ladders */
  names sc = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "convergence") || streq(R->r[k].group, "work-precision"))
      names_add(&sc, R->r[k].scenario);
  sb_puts(h, "<h3>Cost at matched accuracy</h3>\n<p>Cheapest CPU time of any baseline, convergence or "
             "work-precision run of the model on the scenario with err_x_l2 at most the target, the run, and the "
             "ratio to the cheapest model.</p>\n");
  for (size_t i = 0; i < sc.n; i++) {
    names md = {{0}, 0};
    for (size_t k = 0; k < R->n; k++)
      if (streq(R->r[k].scenario, sc.s[i]) && in_cost_groups(&R->r[k]))
        names_add(&md, R->r[k].model);
    sb_puts(h, "<table>\n<tr><th>");
    sb_html(h, sc.s[i]);
    sb_puts(h, "</th><th>best err_x_l2</th>");
    for (size_t j = 0; j < N_WP_TARGETS; j++)
      sb_printf(h, "<th>err_x_l2 &le; %.0e</th>", wp_targets[j]);
    sb_puts(h, "</tr>\n");
    double cheapest[N_WP_TARGETS];
    for (size_t j = 0; j < N_WP_TARGETS; j++) {
      const long b = cheapest_at(R, sc.s[i], NULL, wp_targets[j]);
      cheapest[j] = b >= 0 ? R->r[b].cpu_s : (double)NAN;
    }
    for (size_t m = 0; m < md.n; m++) {
      double be = NAN;
      for (size_t k = 0; k < R->n; k++) {
        const run *r = &R->r[k];
        if (r->ok && in_cost_groups(r) && streq(r->scenario, sc.s[i]) && streq(r->model, md.s[m]) &&
            r->err_x_l2 >= 0 && (isnan(be) || r->err_x_l2 < be))
          be = r->err_x_l2;
      }
      sb_puts(h, "<tr><td>");
      sb_html(h, md.s[m]);
      sb_puts(h, "</td>");
      td_num(h, be);
      for (size_t j = 0; j < N_WP_TARGETS; j++) {
        const long b = cheapest_at(R, sc.s[i], md.s[m], wp_targets[j]);
        if (b < 0) {
          sb_puts(h, "<td class=\"unk\">&mdash;</td>");
          continue;
        }
        const run *r = &R->r[b];
        char step[48];
        run_step(r, step, sizeof step);
        sb_printf(h, "<td class=\"num\">x%.3g<br><span class=\"small\">%.3g s, ", r->cpu_s / cheapest[j], r->cpu_s);
        sb_html(h, r->integrator);
        sb_printf(h, " %s</span></td>", step);
      }
      sb_puts(h, "</tr>\n");
    }
    sb_puts(h, "</table>\n");
  }
  sb_puts(h, "<p class=\"small\">Every column of runs.csv is documented in results/README.md; this page was "
             "made from runs.csv, orders.csv, meta.json and traj/ only.</p>\n</section>\n");
}

static int write_html(report *rp, const fb_vtable *vt, fb_err *err)
{
  sbuf h = {0};
  const char *base = strrchr(rp->dir, '/');
  base = base != NULL && base[1] ? base + 1 : rp->dir;
  sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>fricbench report: ");
  sb_html(&h, base);
  sb_printf(&h, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>fricbench report: ", html_css);
  sb_html(&h, base);
  sb_puts(&h, "</h1>\n<p>Numerical treatments of dry friction compared on the same scenarios: does each stick, "
              "drift, chatter; how accurate is it; what does it cost.</p>\n<nav><a href=\"#run\">What was run</a>"
              "<a href=\"#verdicts\">Verdicts</a><a href=\"#plots\">Plots</a><a href=\"#omissions\">Omissions</a>"
              "<a href=\"#numbers\">Numbers</a></nav>\n</header>\n");
  html_run(&h, rp);
  html_verdicts(&h, vt);
  html_plots(&h, rp);
  html_omissions(&h, rp);
  html_numbers(&h, rp);
  sb_puts(&h, "<footer class=\"small\"><p>Made by fricbench from the files of this results directory.</p></footer>\n"
              "</body>\n</html>\n");
  if (h.bad) {
    sb_free(&h);
    return fb_err_set(err, FB_ENOMEM, "out of memory building report.html");
  }
  char path[PATH_LEN];
  if (path_fmt(path, sizeof path, "%s/report.html", rp->dir) != 0) {
    sb_free(&h);
    return fb_err_set(err, FB_EIO, "path too long for report.html");
  }
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "report", err);
  if (st == FB_OK) {
    if (fwrite(h.s, 1, h.n, of.fp) != h.n) {
      fb_outfile_abort(&of);
      st = fb_err_set(err, FB_EIO, "writing '%s' failed", path);
    } else {
      st = fb_outfile_commit(&of, err);
    }
  }
  sb_free(&h);
  return st;
}

/* ==== entry point ========================================================================== */

/* meta.json when present and not older than runs.csv (the suite may write it after the
 * report; an older one belongs to an earlier run into the same directory). */
static void load_meta(report *rp)
{
  char mpath[PATH_LEN], rpath[PATH_LEN];
  struct stat sm, sr;
  rp->meta = NULL;
  if (path_fmt(mpath, sizeof mpath, "%s/meta.json", rp->dir) != 0 ||
      path_fmt(rpath, sizeof rpath, "%s/runs.csv", rp->dir) != 0 || stat(mpath, &sm) != 0 ||
      stat(rpath, &sr) != 0 || sm.st_mtim.tv_sec < sr.st_mtim.tv_sec ||
      (sm.st_mtim.tv_sec == sr.st_mtim.tv_sec && sm.st_mtim.tv_nsec < sr.st_mtim.tv_nsec))
    return;
  size_t len;
  if (fb_read_file(mpath, &rp->meta, &len) != 0)
    rp->meta = NULL;
}

int fb_report_make(const char *dir, size_t jobs, fb_err *err)
{
  report *rp = calloc(1, sizeof *rp);
  series_set *S = malloc(sizeof *S), *C = malloc(sizeof *C);
  fb_vtable vt = {0};
  int st = FB_OK;
  if (rp == NULL || S == NULL || C == NULL) {
    free(rp);
    free(S);
    free(C);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  rp->dir = dir;
  rp->S = S;
  rp->C = C;
  {
    const long nproc = jobs > 0 ? (long)jobs : sysconf(_SC_NPROCESSORS_ONLN);
    rp->maxjobs = nproc < 1 ? 1 : nproc > MAX_GP_JOBS ? MAX_GP_JOBS : (size_t)nproc;
  }
  const int have_scripts = fb_scripts_dir(rp->scripts, sizeof rp->scripts) == 0;
  char probe[PATH_LEN], pdir[PATH_LEN];
  if (find_in_path("gnuplot", rp->gnuplot, sizeof rp->gnuplot) != 0)
    st = fb_err_set(err, FB_EIO, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox; "
                                 "scripts/bootstrap.sh does) or run the suite with --no-plots");
  else if (!have_scripts || path_fmt(probe, sizeof probe, "%s/traj.gp", rp->scripts) != 0 || file_size(probe) <= 0)
    st = fb_err_set(err, FB_EIO, "gnuplot scripts not found in '%.300s' (no traj.gp): reinstall fricbench or set "
                                 "FRICBENCH_SCRIPTS to the scripts/ folder of the fricbench sources", rp->scripts);
  if (st == FB_OK)
    st = runs_load(&rp->R, dir, err);
  if (st == FB_OK && orders_load(&rp->O, dir) != FB_OK)
    st = fb_err_set(err, FB_ENOMEM, "out of memory reading orders.csv");
  if (st == FB_OK) {
    if (path_fmt(pdir, sizeof pdir, "%s/plots", dir) != 0 || mkdir_one(pdir) != 0 ||
        path_fmt(pdir, sizeof pdir, "%s/plots/data", dir) != 0 || mkdir_one(pdir) != 0)
      st = fb_err_set(err, FB_EIO, "cannot create '%.300s': %s", pdir, strerror(errno));
  }
  if (st == FB_OK) {
    load_meta(rp);
    /* the verdicts the suite or merge wrote; made here for an older results directory */
    fb_err verr;
    if (fb_verdicts_load(dir, &vt, &verr) != FB_OK) {
      st = fb_verdicts_write(dir, err);
      if (st == FB_OK)
        st = fb_verdicts_load(dir, &vt, err);
    }
  }
  for (size_t k = 0; k < sizeof plot_kinds / sizeof plot_kinds[0] && st == FB_OK; k++)
    st = plots_of_kind(rp, &plot_kinds[k], err);
  {
    const int s2 = gp_wait_all(rp, err); /* also after a failure: no process left behind */
    if (st == FB_OK)
      st = s2;
  }
  if (st == FB_OK)
    st = write_html(rp, &vt, err);
  if (st == FB_OK && rp->nfailed > 0) {
    size_t i = 0;
    while (i < rp->nplots && (rp->plots[i].ok || rp->plots[i].err[0] == '\0' ||
                              strncmp(rp->plots[i].err, "not drawn", 9) == 0))
      i++;
    st = fb_err_set(err, FB_EIO, "%zu plot(s) failed (report.html written and names them); first: %s: %.300s",
                    rp->nfailed, i < rp->nplots ? rp->plots[i].name : "?",
                    i < rp->nplots ? rp->plots[i].err : "");
  }
  for (size_t i = 0; i < rp->nplots; i++)
    sb_free(&rp->plots[i].reading);
  runs_free(&rp->R);
  fb_csv_free(&rp->O.t);
  free(rp->meta);
  free(rp);
  free(S);
  free(C);
  fb_vtable_free(&vt);
  return st;
}
