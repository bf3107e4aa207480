/* report_util.c — the report's shared helpers (report_int.h): growing strings, paths,
 * runs.csv and orders.csv as rows, name lists, trajectory files, series of a plot and the
 * plot builder.  The bottom of the report: the plot kinds (report_plots.c and its parts),
 * the page (report_html.c), gnuplot (report_gnuplot.c) and the driver (report.c) call it;
 * it calls none of them, so each part can be read and changed without the others. */
#define _POSIX_C_SOURCE 200809L

#include "report_int.h"


/* ==== small utilities =================================================================== */



void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
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

void sb_printf(sbuf *b, const char *fmt, ...) FB_PRINTF(2, 3);
void sb_printf(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

void sb_puts(sbuf *b, const char *s) { sb_printf(b, "%s", s); }

const char *sb_str(const sbuf *b) { return b->s != NULL ? b->s : ""; }

void sb_free(sbuf *b)
{
  free(b->s);
  memset(b, 0, sizeof *b);
}

/* HTML-escaped text. */
void sb_html(sbuf *b, const char *s)
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

/* A gnuplot double-quoted string literal, backslash escapes for the backslash, the quote
 * and the line ends: the commands go to gnuplot a line at a time (report_gnuplot.c), and
 * a line end inside a literal (a folder named so) would cut one. */
void sb_gq(sbuf *b, const char *s)
{
  sb_puts(b, "\"");
  for (; *s; s++)
    switch (*s) {
    case '\\': sb_puts(b, "\\\\"); break;
    case '"': sb_puts(b, "\\\""); break;
    case '\n': sb_puts(b, "\\n"); break;
    case '\r': sb_puts(b, "\\r"); break;
    default: sb_puts(b, (char[2]){*s, '\0'});
    }
  sb_puts(b, "\"");
}

/* One word of a gnuplot word list: double-quoted, with the characters that would break
 * the list (quotes) replaced. */
void sb_gword(sbuf *b, const char *s)
{
  sb_puts(b, "\"");
  for (; *s; s++)
    sb_printf(b, "%c", (*s == '"' || *s == '\'' || *s == '\n') ? '`' : *s);
  sb_puts(b, "\" ");
}

/* A number for text: %.3g, "n/a" for NaN. */
void sb_num(sbuf *b, double v)
{
  if (isnan(v))
    sb_puts(b, "n/a");
  else
    sb_printf(b, "%.3g", v);
}

/* "from -> to", both as sb_num writes them. */
void sb_change(sbuf *b, double from, double to)
{
  sb_num(b, from);
  sb_puts(b, " -> ");
  sb_num(b, to);
}

/* A number for data files: full precision, "nan" for NaN. */
void sb_dat(sbuf *b, double v)
{
  if (isnan(v) || isinf(v))
    sb_puts(b, " nan");
  else
    sb_printf(b, " %.10g", v);
}

int path_fmt(char *buf, size_t len, const char *fmt, ...) FB_PRINTF(3, 4);
int path_fmt(char *buf, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  const int k = vsnprintf(buf, len, fmt, ap);
  va_end(ap);
  return k < 0 || (size_t)k >= len ? -1 : 0;
}

long file_size(const char *path)
{
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
    return -1;
  return (long)sb.st_size;
}

int mkdir_one(const char *path)
{
  if (mkdir(path, 0777) == 0 || errno == EEXIST)
    return 0;
  return -1;
}

int streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* Value of NAME in a "a=1;b=2" parameter list; NaN when absent or not a number. */
double param_get(const char *list, const char *name)
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



void runs_free(runs *R)
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
int runs_fill(runs *R, const char *path, fb_err *err)
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
  COL(path_err_max); COL(dir_err_max); COL(stop_time_err);
  COL(e_nominal); COL(e_eff); COL(t_imp_err); COL(pen_max); COL(lambda_min);
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
    r->path_err_max = fb_csv_d(t, k, c_path_err_max);
    r->dir_err_max = fb_csv_d(t, k, c_dir_err_max);
    r->stop_time_err = fb_csv_d(t, k, c_stop_time_err);
    r->e_nominal = fb_csv_d(t, k, c_e_nominal);
    r->e_eff = fb_csv_d(t, k, c_e_eff);
    r->t_imp_err = fb_csv_d(t, k, c_t_imp_err);
    r->pen_max = fb_csv_d(t, k, c_pen_max);
    r->lambda_min = fb_csv_d(t, k, c_lambda_min);
    r->ok = streq(r->status, "ok");
    r->budget = streq(r->status, "budget");
    if (r->scenario[0] == '\0' || r->model[0] == '\0')
      continue; /* not a run row */
    R->n++;
  }
  return FB_OK;
}

int runs_load(runs *R, const char *dir, fb_err *err)
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
void run_step(const run *r, char *buf, size_t len)
{
  if (!isnan(r->h))
    snprintf(buf, len, "h=%g", r->h);
  else if (!isnan(r->atol))
    snprintf(buf, len, "tol=%g", r->atol);
  else
    snprintf(buf, len, "default step");
}


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

int orders_load(orders *O, const char *dir)
{
  char path[PATH_LEN];
  memset(O, 0, sizeof *O);
  if (path_fmt(path, sizeof path, "%s/orders.csv", dir) != 0)
    return FB_OK;
  return orders_fill(O, fb_csv_load(&O->t, path, NULL));
}

/* Row of orders.csv for (scenario, model, integrator, tag), or -1. */
long orders_find(const orders *O, const char *scenario, const char *model,
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


long names_find(const names *l, const char *s)
{
  for (size_t i = 0; i < l->n; i++)
    if (streq(l->s[i], s))
      return (long)i;
  return -1;
}

void names_add(names *l, const char *s)
{
  if (names_find(l, s) < 0 && l->n < MAX_NAMES)
    l->s[l->n++] = s;
}

/* Fixed colour per model (its suite data), so a model looks the same in every plot. */
const char *model_color(const char *model)
{
  const fb_model_type *m = fb_model_find(model);
  return m != NULL && fb_model_suite_of(m)->color != NULL ? fb_model_suite_of(m)->color : "#555555";
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
      {"dop853", 6},
      /* SUNDIALS (docs/integrators/sundials.md): open markers, told apart from GSL's */
      {"cvode-bdf", 4},     {"cvode-adams", 8}, {"arkode-erk", 12}, {"arkode-dirk", 14},
      {"arkode-imex", 2},
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
int traj_path(const char *dir, const run *r, char *buf, size_t len)
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
double traj_dt(const char *path)
{
  char line[4096];
  double t[2] = {NAN, NAN};
  if (fb_gz_head(path, line, sizeof line, t, 2) != 2)
    return NAN;
  return t[1] - t[0];
}

/* Time of the first sample of a trajectory file (s); NaN if unreadable. */
double traj_first_t(const char *path)
{
  char line[4096];
  double t = NAN;
  return fb_gz_head(path, line, sizeof line, &t, 1) == 1 ? t : (double)NAN;
}

/* DOFs and contacts from a trajectory header (t,x,v,F,... or t,x1..xn,v1..vn,F1..). */
int traj_dims(const char *path, int *n, int *nc)
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





int find_in_path(const char *exe, char *out, size_t len)
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

/* ==== verdicts ============================================================================ */

int is_closed_form(const runs *R, const char *scenario)
{
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].scenario, scenario) && streq(R->r[k].ref, "exact"))
      return 1;
  return 0;
}

int in_cost_groups(const run *r)
{
  return streq(r->group, "baseline") || streq(r->group, "convergence") ||
         streq(r->group, "work-precision");
}

/* Cheapest CPU time among the model's runs on `scenario` reaching err_x_l2 <= target
 * (baseline, convergence, work-precision).  Returns the run index or -1. */
long cheapest_at(const runs *R, const char *scenario, const char *model, double target)
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



/* Rows of `group` on `scenario`, grouped by (model, integrator, tag, sweep) in order of
 * first appearance (the table's order). */
void series_collect(const runs *R, const char *group, const char *scenario,
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
void group_scenarios(const runs *R, const char *group, names *out)
{
  out->n = 0;
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, group))
      names_add(out, R->r[k].scenario);
}

void series_label(const series *s, char *buf, size_t len)
{
  snprintf(buf, len, "%s/%s%s%s", s->model, s->integrator, s->tag[0] ? " " : "", s->tag);
}


/* Fills d with the rows of s that `keep` accepts (in ladder order); their number. */
size_t series_drawn(const runs *R, const series *s, int (*keep)(const run *r), drawn *d)
{
  series_label(s, d->label, sizeof d->label);
  d->n = 0;
  for (size_t q = 0; q < s->n; q++)
    if (keep(&R->r[s->idx[q]]))
      d->row[d->n++] = &R->r[s->idx[q]];
  return d->n;
}

/* ==== what a plot is drawn from =========================================================== */



void pb_free(plot_build *b)
{
  sb_free(&b->data);
  for (size_t i = 0; i < b->nvar; i++)
    sb_free(&b->var[i].value);
}

/* The gnuplot string variable `name` of the plot, created empty on first use. */
sbuf *pb_var(plot_build *b, const char *name)
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
void pb_block(plot_build *b, const char *title)
{
  if (b->nb > 0)
    sb_puts(&b->data, "\n\n");
  sb_gword(&b->data, title);
  sb_puts(&b->data, "\n");
}

/* A row (x, error) of an error plot, the error clamped into the log axis' range. */
void pb_err_point(plot_build *b, double x, double e)
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
void pb_looks(plot_build *b, const series *s, int dt)
{
  sb_gword(pb_var(b, "colors"), model_color(s->model));
  sb_printf(pb_var(b, "pts"), "%d ", integrator_pt(s->integrator));
  if (dt > 0)
    sb_printf(pb_var(b, "dts"), "%d ", dt);
}

/* Appends "name=<gnuplot string>; ". */
void var_s(sbuf *v, const char *name, const char *value)
{
  sb_printf(v, "%s=", name);
  sb_gq(v, value);
  sb_puts(v, "; ");
}

/* Makes the reading "<lead>: <the list built so far>." ("single points only" when the
 * list is empty). */
void reading_lead(sbuf *rd, const char *lead)
{
  sbuf full = {0};
  sb_printf(&full, "%s: %s.", lead, rd->n ? sb_str(rd) : "single points only");
  sb_free(rd);
  *rd = full;
}
