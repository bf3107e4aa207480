/* report_spatial.c — the plots of 2-D friction (docs/design.md §13): each run's path in the
 * plane against the reference, the disc cone (baseline) and the box cone (`spatial` group,
 * dashed) side by side, with a reading of the path, direction and stop-time errors. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

/* 1 for a run drawn on the path plot of scenario S. */
static int xy_member(const run *r, const char *S)
{
  return streq(r->scenario, S) && (streq(r->group, "baseline") || streq(r->group, "spatial"));
}

int xy_draw(report *rp, plot_entry *p, const char *S, fb_err *err)
{
  const runs *R = &rp->R;
  p->png_only = 1;
  plot_build b = {0};
  char path[PATH_LEN], ref[PATH_LEN] = "";
  size_t nf = 0;
  long worst_dir = -1, best_path = -1, worst_path = -1;
  sbuf late = {0};
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!xy_member(r, S) || traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    const int box = streq(r->tag, "box");
    char t[200], srcp[PATH_LEN + 32];
    snprintf(t, sizeof t, "%s/%s%s%s%s", r->model, r->integrator, box ? " box" : "",
             r->ok ? "" : " ", r->ok ? "" : r->status);
    traj_source(path, srcp, sizeof srcp);
    sb_gword(pb_var(&b, "files"), srcp);
    sb_gword(pb_var(&b, "titles"), t);
    sb_gword(pb_var(&b, "colors"), model_color(r->model));
    sb_gword(pb_var(&b, "dashes"), box ? "2" : "1");
    nf++;
    if (!r->ok)
      continue;
    if (isfinite(r->dir_err_max) && (worst_dir < 0 || r->dir_err_max > R->r[worst_dir].dir_err_max))
      worst_dir = (long)k;
    if (isfinite(r->path_err_max)) {
      if (best_path < 0 || r->path_err_max < R->r[best_path].path_err_max)
        best_path = (long)k;
      if (worst_path < 0 || r->path_err_max > R->r[worst_path].path_err_max)
        worst_path = (long)k;
    }
    if (fabs(r->stop_time_err) > 0.01 || (isnan(r->stop_time_err) && !box))
      sb_printf(&late, "%s%s%s %s", late.n ? ", " : "", r->model, box ? " box" : "",
                isnan(r->stop_time_err) ? "never" : "");
  }
  if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference" FB_TRAJ_EXT, rp->dir, S) != 0 ||
      file_size(ref) <= 0)
    ref[0] = '\0';
  int st = FB_OK;
  if (nf == 0) {
    plot_skip(rp, p, "no readable trajectory file of a 2-D run");
  } else {
    char refsrc[PATH_LEN + 32] = "";
    if (ref[0] != '\0')
      traj_source(ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "%s: paths in the plane against the reference", S);
    sb_puts(pb_var(&b, "note"), "dashed: the box (pyramidal) cone");
    sbuf *rd = &p->reading;
    if (best_path >= 0) {
      sb_printf(rd, "Closest path: %s/%s%s (largest distance ", R->r[best_path].model,
                R->r[best_path].integrator, streq(R->r[best_path].tag, "box") ? " box" : "");
      sb_num(rd, R->r[best_path].path_err_max);
      sb_printf(rd, " m); farthest: %s/%s%s (", R->r[worst_path].model,
                R->r[worst_path].integrator, streq(R->r[worst_path].tag, "box") ? " box" : "");
      sb_num(rd, R->r[worst_path].path_err_max);
      sb_puts(rd, " m)");
    }
    if (worst_dir >= 0) {
      sb_printf(rd, "; the friction force turns furthest from -u in %s/%s%s (",
                R->r[worst_dir].model, R->r[worst_dir].integrator,
                streq(R->r[worst_dir].tag, "box") ? " box" : "");
      sb_num(rd, R->r[worst_dir].dir_err_max);
      sb_puts(rd, " degrees)");
    }
    if (late.n)
      sb_printf(rd, "; stop or rolling onset more than 0.01 s off the reference: %s",
                sb_str(&late));
    sb_puts(rd, ".");
    st = plot_draw(rp, p, "xy.gp", &b, err, "W=%d; H=%d", 1300, 800);
  }
  pb_free(&b);
  sb_free(&late);
  return st;
}
