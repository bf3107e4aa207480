/* report_frame.c — the elastic frame's plots ([Engleder2002] §4, figs. 10-11; docs/scenarios/
 * elastic-frame.md): per case the tip velocity, gap and normal force of every treatment
 * against the fine-step reference, with the state fractions read from frame.csv
 * (bench/analysis/fb_frame_metrics.h); and the cost per step against the DOF count. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_frame_metrics.h"

/* The treatments that cannot take part, with the reason: frame.csv's rows of that status
 * (bench/analysis/frame_metrics.c). */
static void frame_absent(sbuf *rd, const fb_csv *F)
{
  size_t n = 0;
  for (size_t k = 0; F != NULL && k < F->nrows; k++)
    if (streq(fb_csv_s(F, k, fb_csv_col(F, "status")), "cannot take part"))
      sb_printf(rd, "%s%s (%s)", n++ ? "; " : " Not run on the frame: ",
                fb_csv_s(F, k, fb_csv_col(F, "tag")), fb_csv_s(F, k, fb_csv_col(F, "note")));
  if (n > 0)
    sb_puts(rd, ".");
}

/* The span the figure draws: the last 0.4 s (30 periods at 80 Hz, 6 at 14 Hz), where the
 * window's 1 s of the lift-off case is a solid band. */
#define FRAME_ZOOM 0.4

static const char *frame_color(const run *r)
{
  if (strncmp(r->tag, "reference", 9) == 0)
    return "#000000";
  if (strncmp(r->tag, "penalty-newmark", 15) == 0)
    return "#1f77b4";
  return r->h < 5e-4 ? "#d62728" : "#ff7f0e";
}

/* frame.csv's row of (tag, h), or -1. */
static long frame_row_of(const fb_csv *F, const char *tag, double h)
{
  for (size_t k = 0; k < F->nrows; k++)
    if (streq(fb_csv_s(F, k, fb_csv_col(F, "tag")), tag) &&
        fb_csv_d(F, k, fb_csv_col(F, "h")) == h)
      return (long)k;
  return -1;
}

/* The reading of one run from frame.csv. */
static void frame_reading(sbuf *rd, const fb_csv *F, const run *r)
{
  const long k = frame_row_of(F, r->tag, r->h);
  if (k < 0)
    return;
  const size_t i = (size_t)k;
  char step[32];
  run_step(r, step, sizeof step);
  sb_printf(rd, " %.*s (%s): stick %.3f, slip %.3f, lift-off %.3f, %.3g impacts/s, %.4g Hz, "
            "u_P' amplitude %.3g m/s (ratio %.3f)",
            (int)strcspn(r->tag, "_"), r->tag, step,
            fb_csv_d(F, i, fb_csv_col(F, "stick")), fb_csv_d(F, i, fb_csv_col(F, "slip")),
            fb_csv_d(F, i, fb_csv_col(F, "liftoff")),
            fb_csv_d(F, i, fb_csv_col(F, "impacts_per_s")),
            fb_csv_d(F, i, fb_csv_col(F, "freq_hz")), fb_csv_d(F, i, fb_csv_col(F, "amp_v")),
            fb_csv_d(F, i, fb_csv_col(F, "amp_ratio")));
  const double lam = fb_csv_d(F, i, fb_csv_col(F, "lambda_max"));
  if (isfinite(lam))
    sb_printf(rd, ", max lambda_n %.3g N", lam);
  sb_puts(rd, ";");
}

/* The plot of one case: every frame run of the case with a trajectory file. */
static int frame_case_plot(report *rp, const fb_csv *F, const char *fcase, fb_err *err)
{
  const runs *R = &rp->R;
  plot_build b = {0};
  plot_entry *p = NULL;
  fb_frame_case fc = {0};
  char path[PATH_LEN], src[PATH_LEN + 32], suffix[40];
  int n = 0, nc = 0;
  snprintf(suffix, sizeof suffix, "_%s", fcase);
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    const char *us = strchr(r->tag, '_');
    if (!streq(r->group, "frame") || us == NULL || !streq(us, suffix) ||
        traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    fb_err e = {0};
    if (p == NULL) {
      if (fb_frame_case_of(r->sparams, &fc, &e) != FB_OK || traj_dims(path, &n, &nc) != 0 ||
          n < 3)
        continue;
      p = plot_new(rp, "", "frame_%s", fcase);
      if (p == NULL)
        return FB_OK;
      snprintf(p->title, sizeof p->title, "elastic-frame (%s): tip velocity, gap and normal "
               "force of every treatment against the h = 1e-5 reference", fcase);
      p->png_only = 1;
      sb_printf(&p->reading, "Over the last %.0f %% of T = %g s:", 100 * FB_FRAME_WINDOW,
                fc.T);
    }
    traj_source(p, path, src, sizeof src);
    sb_gword(pb_var(&b, "files"), src);
    char t[96], step[32];
    run_step(r, step, sizeof step);
    snprintf(t, sizeof t, "%.*s %s%s", (int)(us - r->tag), r->tag, step, r->ok ? "" : " (not ok)");
    sb_gword(pb_var(&b, "titles"), t);
    sb_gword(pb_var(&b, "colors"), frame_color(r));
    sb_gword(pb_var(&b, "pens"), strstr(r->tag, "moreau") != NULL ? "0" : "1");
    if (F != NULL)
      frame_reading(&p->reading, F, r);
  }
  if (p == NULL)
    return FB_OK;
  frame_absent(&p->reading, F);
  sb_printf(pb_var(&b, "scen"), "elastic-frame, %s: mu and v_0 of [Engleder2002] §4, q_1^0 = "
            "%g mm", fcase, 1e3 * fc.q10);
  const int st = plot_draw(rp, p, "frame_traj.gp", &b, err,
                           "cu=%d; cv=%d; cvu=%d; cvv=%d; q10=%.17g; vb=%.17g; cN=%.17g; "
                           "dN=%.17g; t1=%.17g; zoom=%.17g; W=1400; H=1200",
                           n - 1, n, 2 * n - 1, 2 * n, fc.q10, fc.v_belt,
                           isnan(fc.cN) ? 1e5 : fc.cN, isnan(fc.dN) ? 80.0 : fc.dN, fc.T,
                           fmin(FRAME_ZOOM, FB_FRAME_WINDOW * fc.T));
  pb_free(&b);
  return st;
}

/* CPU time per step against nq of the cost-ne runs. */
static int frame_cost_plot(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  plot_build b = {0};
  size_t np = 0;
  const run *lo = NULL, *hi = NULL;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "frame") || !streq(r->tag, "cost-ne") || !r->ok || !(r->nsteps > 0))
      continue;
    sb_dat(&b.data, 6 * r->value);
    sb_dat(&b.data, r->cpu_s / r->nsteps);
    sb_dat(&b.data, r->value);
    sb_puts(&b.data, "\n");
    np++;
    if (lo == NULL || r->value < lo->value)
      lo = r;
    if (hi == NULL || r->value > hi->value)
      hi = r;
  }
  if (np == 0) {
    pb_free(&b);
    return FB_OK;
  }
  plot_entry *p = plot_new(rp, "elastic-frame: cost per step against the element count",
                           "frame_cost");
  if (p == NULL) {
    pb_free(&b);
    return FB_OK;
  }
  if (hi != lo) {
    const double q = (hi->cpu_s / hi->nsteps) / (lo->cpu_s / lo->nsteps);
    sb_printf(&p->reading, "penalty-newmark (h = 1e-3, dense Cholesky): %.3g us per step at "
              "nq = %.0f, %.3g us at nq = %.0f (x%.3g for x%.0f DOFs, slope %.2f).",
              1e6 * lo->cpu_s / lo->nsteps, 6 * lo->value, 1e6 * hi->cpu_s / hi->nsteps,
              6 * hi->value, q, hi->value / lo->value, log(q) / log(hi->value / lo->value));
  }
  sb_puts(pb_var(&b, "scen"), "elastic-frame (no-liftoff): CPU time per step against nq");
  const int st = plot_draw(rp, p, "frame_cost.gp", &b, err, "W=1000; H=750");
  pb_free(&b);
  return st;
}

int plot_frame(report *rp, fb_err *err)
{
  fb_csv F;
  char path[PATH_LEN];
  const int have = path_fmt(path, sizeof path, "%s/frame.csv", rp->dir) == 0 &&
                   fb_csv_load(&F, path, NULL) == FB_OK;
  int st = frame_case_plot(rp, have ? &F : NULL, "no-liftoff", err);
  if (st == FB_OK)
    st = frame_case_plot(rp, have ? &F : NULL, "liftoff", err);
  if (st == FB_OK)
    st = frame_cost_plot(rp, err);
  if (have)
    fb_csv_free(&F);
  return st;
}
