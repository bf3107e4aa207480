/* report_spatial.c — the plots of 2-D friction (docs/design.md §13): each run's path in the
 * plane against the reference, the disc cone (baseline) and the box cone (`spatial` group,
 * dashed) side by side, with a reading of the path, direction and stop-time errors. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

/* The variant of a 2-D run: its tag less the cone ("push-box" -> "push", "box" -> ""). */
static void xy_variant(const run *r, char *buf, size_t len)
{
  snprintf(buf, len, "%s", r->tag);
  char *b = strstr(buf, "box");
  if (b != NULL) {
    *b = '\0';
    const size_t l = strlen(buf);
    if (l > 0 && buf[l - 1] == '-')
      buf[l - 1] = '\0';
  }
}

/* 1 for a run drawn on the path plot of scenario S, variant V ("" or "push"). */
static int xy_member(const run *r, const char *S, const char *V)
{
  char v[64];
  xy_variant(r, v, sizeof v);
  return streq(r->scenario, S) && (streq(r->group, "baseline") || streq(r->group, "spatial")) &&
         streq(v, V);
}

static int xy_draw_variant(report *rp, plot_entry *p, const char *S, const char *V, fb_err *err);

int xy_draw(report *rp, plot_entry *p, const char *S, fb_err *err)
{
  int st = xy_draw_variant(rp, p, S, "", err);
  /* the scenario's other variants (the pushed puck), one plot each, against their own
   * reference: drawn at the first run of each variant */
  for (size_t k = 0; k < rp->R.n && st == FB_OK; k++) {
    const run *r = &rp->R.r[k];
    char v[64];
    xy_variant(r, v, sizeof v);
    if (!streq(r->scenario, S) || !streq(r->group, "spatial") || v[0] == '\0')
      continue;
    int seen = 0; /* push and push-box share the plot */
    for (size_t j = 0; j < k && !seen; j++)
      seen = xy_member(&rp->R.r[j], S, v) && streq(rp->R.r[j].group, "spatial");
    if (seen)
      continue;
    char title[256];
    snprintf(title, sizeof title, "%s (%s): paths in the plane and the reference", S, v);
    plot_entry *q = plot_new(rp, title, "xy_%s_%s", S, v);
    if (q == NULL)
      break;
    st = xy_draw_variant(rp, q, S, v, err);
  }
  return st;
}

static int xy_draw_variant(report *rp, plot_entry *p, const char *S, const char *V, fb_err *err)
{
  const runs *R = &rp->R;
  p->png_only = 1;
  plot_build b = {0};
  char path[PATH_LEN], ref[PATH_LEN] = "";
  size_t nf = 0;
  int have_box = 0;
  long worst_dir = -1, best_path = -1, worst_path = -1;
  sbuf late = {0};
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!xy_member(r, S, V) || traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    const int box = strstr(r->tag, "box") != NULL;
    have_box |= box;
    char t[200], srcp[PATH_LEN + 32];
    snprintf(t, sizeof t, "%s/%s%s%s%s", r->model, r->integrator, box ? " box" : "",
             r->ok ? "" : " ", r->ok ? "" : r->status);
    traj_source(p, path, srcp, sizeof srcp);
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
  if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference%s%s" FB_TRAJ_EXT, rp->dir, S,
               V[0] ? "__" : "", V) != 0 ||
      file_size(ref) <= 0)
    ref[0] = '\0';
  int st = FB_OK;
  if (nf == 0) {
    plot_skip(rp, p, "no readable trajectory file of a 2-D run");
  } else {
    char refsrc[PATH_LEN + 32] = "";
    if (ref[0] != '\0')
      traj_source(p, ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "%s%s%s: paths in the plane against the reference", S,
              V[0] ? " " : "", V);
    sb_puts(pb_var(&b, "note"), have_box ? "dashed: the box (pyramidal) cone" : "");
    sbuf *rd = &p->reading;
    if (best_path >= 0) {
      sb_printf(rd, "Closest path: %s/%s%s (largest distance ", R->r[best_path].model,
                R->r[best_path].integrator, strstr(R->r[best_path].tag, "box") ? " box" : "");
      sb_num(rd, R->r[best_path].path_err_max);
      sb_printf(rd, " m); farthest: %s/%s%s (", R->r[worst_path].model,
                R->r[worst_path].integrator, strstr(R->r[worst_path].tag, "box") ? " box" : "");
      sb_num(rd, R->r[worst_path].path_err_max);
      sb_puts(rd, " m)");
    }
    if (worst_dir >= 0) {
      sb_printf(rd, "; the friction force turns furthest from -u in %s/%s%s (",
                R->r[worst_dir].model, R->r[worst_dir].integrator,
                strstr(R->r[worst_dir].tag, "box") ? " box" : "");
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

int plot_xy_all(report *rp, fb_err *err)
{
  names sc = {{0}, 0};
  for (size_t k = 0; k < rp->R.n; k++) {
    const run *r = &rp->R.r[k];
    if ((streq(r->group, "baseline") || streq(r->group, "spatial")) &&
        isfinite(r->path_err_max) && names_find(&sc, r->scenario) < 0)
      names_add(&sc, r->scenario);
  }
  int st = FB_OK;
  for (size_t i = 0; i < sc.n && st == FB_OK; i++) {
    char title[256];
    snprintf(title, sizeof title, "%s: paths in the plane (disc and box cones) and the reference",
             sc.s[i]);
    plot_entry *p = plot_new(rp, title, "xy_%s", sc.s[i]);
    if (p == NULL)
      break;
    st = xy_draw(rp, p, sc.s[i], err);
  }
  return st;
}
