/* frame_metrics.c — the elastic frame's observables from its trajectories, and frame.csv
 * (fb_frame_metrics.h; docs/scenarios/elastic-frame.md). */
#define _POSIX_C_SOURCE 200809L
#include "fb_frame_metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_csv.h"
#include "fb_gzcsv.h"
#include "fb_io.h"
#include "fb_normal_int.h"
#include "fb_scenario.h"

static int streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* The tip's columns: u_P = x_{n-2}, v_P = x_{n-1} and their rates (1-based names), n the
 * highest DOF in the header (the suite's files keep the last node's DOFs only). */
static int tip_columns(const fb_csv *t, int col[4])
{
  size_t n = 0;
  char name[32];
  for (size_t c = 0; c < t->ncols; c++) {
    const char *h = t->hdr[c];
    char *end;
    if (h[0] == 'x' && h[1] >= '1' && h[1] <= '9') {
      const unsigned long i = strtoul(h + 1, &end, 10);
      if (*end == '\0' && i > n)
        n = i;
    }
  }
  if (n < 3)
    return -1;
  const char *fmt[4] = {"x%zu", "x%zu", "v%zu", "v%zu"};
  const size_t idx[4] = {n - 2, n - 1, n - 2, n - 1}; /* (u, v, theta) of the last node */
  for (unsigned k = 0; k < 4; k++) {
    snprintf(name, sizeof name, fmt[k], idx[k]);
    col[k] = fb_csv_col(t, name);
    if (col[k] < 0)
      return -1;
  }
  return 0;
}

/* Half the range of u_P' over rows [a, b). */
static double half_range(const double *w, size_t a, size_t b)
{
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = a; k < b; k++) {
    lo = fmin(lo, w[k]);
    hi = fmax(hi, w[k]);
  }
  return b > a ? 0.5 * (hi - lo) : (double)NAN;
}

int fb_frame_observe(const char *text, size_t len, double t_from, double q10, double v_belt,
                     double cN, double dN, fb_frame_obs *o, fb_err *err)
{
  memset(o, 0, sizeof *o);
  fb_csv t;
  int st = fb_csv_parse(&t, text, len);
  if (st != FB_OK)
    return fb_err_set(err, st, "frame: trajectory without a header");
  int col[4];
  const int ct = fb_csv_col(&t, "t");
  if (ct < 0 || tip_columns(&t, col) != 0) {
    fb_csv_free(&t);
    return fb_err_set(err, FB_EINVAL, "frame: trajectory without t, x and v columns");
  }
  double *w = malloc((t.nrows + 1) * sizeof *w);
  if (w == NULL) {
    fb_csv_free(&t);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  size_t m = 0, nst = 0, nsl = 0, nlo = 0, nimp = 0, nup = 0;
  double mean = 0, t_up0 = NAN, t_up1 = NAN, lam_max = 0;
  int was_off = 0;
  o->t_from = NAN;
  for (size_t r = 0; r < t.nrows; r++) {
    const double tt = fb_csv_d(&t, r, ct);
    if (!(tt >= t_from))
      continue;
    const double g = fb_csv_d(&t, r, col[1]) - q10, gd = fb_csv_d(&t, r, col[3]);
    const double vu = fb_csv_d(&t, r, col[2]);
    if (m == 0)
      o->t_from = tt;
    o->t_to = tt;
    const int off = g > FB_FRAME_GAP_TOL * q10;
    if (off)
      nlo++;
    else if (fabs(vu - v_belt) < FB_FRAME_STICK_TOL * fabs(v_belt))
      nst++;
    else
      nsl++;
    if (m > 0 && was_off && !off)
      nimp++;
    was_off = off;
    lam_max = fmax(lam_max, -cN * g - dN * gd);
    w[m++] = vu;
    mean += vu;
  }
  if (m < 4) {
    free(w);
    fb_csv_free(&t);
    return fb_err_set(err, FB_EINVAL, "frame: %zu samples after t = %g (at least 4)", m, t_from);
  }
  mean /= (double)m;
  /* upward crossings of the mean: the first and the last give the frequency */
  for (size_t k = 1; k < m; k++)
    if (w[k - 1] < mean && w[k] >= mean) {
      nup++;
      if (isnan(t_up0))
        t_up0 = (double)k;
      t_up1 = (double)k;
    }
  const double dt = (o->t_to - o->t_from) / (double)(m - 1);
  const double span = o->t_to - o->t_from;
  o->nsamples = m;
  o->stick = (double)nst / (double)m;
  o->slip = (double)nsl / (double)m;
  o->liftoff = (double)nlo / (double)m;
  o->impacts_per_s = span > 0 ? (double)nimp / span : (double)NAN;
  o->freq_hz = nup >= 2 ? (double)(nup - 1) / ((t_up1 - t_up0) * dt) : (double)NAN;
  o->amp_v = half_range(w, 0, m);
  o->amp_ratio = half_range(w, m / 2, m) / half_range(w, 0, m / 2);
  o->lam_max = isnan(cN) ? (double)NAN : lam_max;
  free(w);
  fb_csv_free(&t);
  return FB_OK;
}

/* ==== frame.csv ======================================================================= */

int fb_frame_case_of(const char *sparams, fb_frame_case *fc, fb_err *err)
{
  const fb_scenario_type *ty = fb_scenario_find("elastic-frame");
  if (ty == NULL)
    return fb_err_set(err, FB_EINVAL, "frame: no scenario elastic-frame");
  fb_scenario sc;
  int st = fb_scenario_init(&sc, ty);
  if (st != FB_OK)
    return fb_err_set(err, st, "out of memory");
  char *s = strdup(sparams), *save = NULL;
  if (s == NULL) {
    fb_scenario_free(&sc);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  for (char *kv = strtok_r(s, ";", &save); kv != NULL && st == FB_OK;
       kv = strtok_r(NULL, ";", &save)) {
    char *eq = strchr(kv, '=');
    if (eq == NULL || streq(eq + 1, "auto"))
      continue;
    *eq = '\0';
    st = fb_params_set(ty->params, ty->name, sc.params, kv, eq + 1, err);
  }
  free(s);
  if (st == FB_OK)
    st = fb_scenario_build(&sc, err);
  if (st == FB_OK) {
    const fb_plant *pl = &sc.plant;
    const fb_normal *nm = &pl->normal[0];
    fc->q10 = -nm->g0;
    fc->v_belt = pl->contact[0].c0.u;
    fc->nq = (double)pl->n;
    fc->ne = (double)pl->n / 6.0;
    fc->T = pl->T;
    snprintf(fc->normal, sizeof fc->normal, "%s", nm->type->name);
    const fb_param_desc *dc = fb_params_find(nm->type->params, "cN");
    const fb_param_desc *dd = fb_params_find(nm->type->params, "dN");
    const int penalty = strstr(nm->type->name, "penalty") != NULL && dc != NULL && dd != NULL;
    fc->cN = penalty ? fb_param_get(dc, nm->np_) : (double)NAN;
    fc->dN = penalty ? fb_param_get(dd, nm->np_) : (double)NAN;
    const fb_param_desc *dcase = fb_params_find(ty->params, "case");
    fb_param_format(dcase, fb_param_get(dcase, sc.params), fc->fcase, sizeof fc->fcase);
  }
  fb_scenario_free(&sc);
  return st;
}

/* One frame.csv row for runs.csv row k. */
static void frame_row(FILE *fp, const char *dir, const fb_csv *R, size_t k)
{
  const char *tag = fb_csv_s(R, k, fb_csv_col(R, "tag"));
  const char *status = fb_csv_s(R, k, fb_csv_col(R, "status"));
  const double h = fb_csv_d(R, k, fb_csv_col(R, "h"));
  fb_frame_case fc;
  fb_err e = {0};
  fb_frame_obs o;
  memset(&o, 0, sizeof o);
  o.stick = o.slip = o.liftoff = o.impacts_per_s = o.freq_hz = o.amp_v = o.amp_ratio =
      o.lam_max = o.t_from = o.t_to = NAN;
  int have = fb_frame_case_of(fb_csv_s(R, k, fb_csv_col(R, "scenario_params")), &fc, &e) == FB_OK;
  if (!have)
    memset(&fc, 0, sizeof fc), fc.ne = fc.nq = NAN;
  char path[4096], *text = NULL;
  size_t len = 0;
  if (have && streq(status, "ok") &&
      snprintf(path, sizeof path, "%s/traj/elastic-frame/%s__%s__h%g__%s" FB_TRAJ_EXT, dir,
               fb_csv_s(R, k, fb_csv_col(R, "model")),
               fb_csv_s(R, k, fb_csv_col(R, "integrator")), h, tag) < (int)sizeof path &&
      fb_gz_read_all(path, &text, &len) == 0) {
    const double t_from = fc.T * (1.0 - FB_FRAME_WINDOW);
    if (fb_frame_observe(text, len, t_from, fc.q10, fc.v_belt, fc.cN, fc.dN, &o, &e) != FB_OK)
      o.stick = NAN;
  }
  free(text);
  fb_csv_field(fp, tag);
  fputc(',', fp);
  fb_csv_field(fp, fc.fcase);
  fputc(',', fp);
  fb_csv_field(fp, fc.normal);
  fprintf(fp, ",%g,%g,%g,", h, fc.ne, fc.nq);
  fb_csv_field(fp, status);
  fprintf(fp, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,\n", o.t_from,
          o.t_to, o.stick, o.slip, o.liftoff, o.impacts_per_s, o.freq_hz, o.amp_v, o.amp_ratio,
          o.lam_max, fc.v_belt, fb_csv_s(R, k, fb_csv_col(R, "cpu_s")),
          fb_csv_s(R, k, fb_csv_col(R, "wall_s")), fb_csv_s(R, k, fb_csv_col(R, "nsteps")));
}

/* The treatments that cannot take part, as rows with status "cannot take part" and the
 * reason in `note`: every registered normal treatment without a time-stepping scheme of its
 * own (the contact scheme steps those with explicit GSL steppers), any other stepping one
 * the frame group does not run, and the friction-only models. */
static void frame_absent_rows(FILE *fp)
{
  static const char explicit_why[] =
      "runs under the contact scheme's explicit GSL steppers, which cannot step the frame's "
      "axial modes (~1e5 rad/s at ne = 8)";
  for (size_t i = 0; fb_normal_registry[i] != NULL; i++) {
    const fb_normal_type *t = fb_normal_registry[i];
    if (streq(t->name, "penalty-newmark") || streq(t->name, "moreau-jean"))
      continue;
    fb_csv_field(fp, t->name);
    fputs(",,", fp);
    fb_csv_field(fp, t->name);
    fputs(",nan,nan,nan,cannot take part,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,,,,", fp);
    fb_csv_field(fp, t->stepper == NULL ? explicit_why : "a stepping treatment the frame group "
                                                         "does not run");
    fputc('\n', fp);
  }
  fputs("friction models,,,nan,nan,nan,cannot take part,nan,nan,nan,nan,nan,nan,nan,nan,nan,"
        "nan,nan,,,,", fp);
  fb_csv_field(fp, "the friction bound is mu lambda_n(t), which penalty-newmark and "
                   "moreau-jean handle themselves; a friction model would see only a "
                   "prescribed N");
  fputc('\n', fp);
}

int fb_frame_write(const char *dir, fb_err *err)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  fb_csv R;
  int st = fb_csv_load(&R, path, NULL);
  if (st != FB_OK)
    return fb_err_set(err, st, "frame: cannot read %s", path);
  const int cg = fb_csv_col(&R, "group");
  size_t nf = 0;
  for (size_t k = 0; k < R.nrows; k++)
    nf += streq(fb_csv_s(&R, k, cg), "frame");
  if (nf == 0) {
    fb_csv_free(&R);
    return FB_OK;
  }
  snprintf(path, sizeof path, "%s/frame.csv", dir);
  fb_outfile of;
  st = fb_outfile_open(&of, path, "frame.csv", err);
  if (st == FB_OK) {
    fputs("tag,case,treatment,h,ne,nq,status,t_from,t_to,stick,slip,liftoff,impacts_per_s,"
          "freq_hz,amp_v,amp_ratio,lambda_max,v_belt,cpu_s,wall_s,nsteps,note\n",
          of.fp);
    for (size_t k = 0; k < R.nrows; k++)
      if (streq(fb_csv_s(&R, k, cg), "frame"))
        frame_row(of.fp, dir, &R, k);
    frame_absent_rows(of.fp);
    st = fb_outfile_commit(&of, err);
  }
  fb_csv_free(&R);
  return st;
}
