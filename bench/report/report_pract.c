/* report_pract.c — the practitioners' questions in the report (docs/design.md §6; §8
 * group `practitioner`): creep velocity against the load fraction, the puck's friction
 * direction and magnitude errors against the yaw angle, and a table of the sliding force
 * ratio and the rest energy per treatment.  It reads its metric columns from runs.csv
 * itself (they are not in the report's run rows), so it needs nothing from the rest of the
 * report but its helpers. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

/* Creeps at or below this (m/s: round-off, or exactly 0) are drawn at it, open triangles:
 * far below the hold rule's 1e-6 v_scale (2.8e-6 m/s on push-hold, docs/design.md §10). */
#define CREEP_FLOOR 1e-10

/* The practitioner columns of runs.csv (-1 when absent: an older results directory). */
typedef struct pcols {
  int group, tag, scenario, model, integrator, status, value, h;
  int creep, slide, slide_max, rest, dir_max, dir_rms;
} pcols;

static pcols pcols_of(const fb_csv *t)
{
  return (pcols){fb_csv_col(t, "group"),        fb_csv_col(t, "tag"),
                 fb_csv_col(t, "scenario"),     fb_csv_col(t, "model"),
                 fb_csv_col(t, "integrator"),   fb_csv_col(t, "status"),
                 fb_csv_col(t, "sweep_value"),  fb_csv_col(t, "h"),
                 fb_csv_col(t, "push_creep_v"), fb_csv_col(t, "slide_ratio"),
                 fb_csv_col(t, "slide_ratio_max"), fb_csv_col(t, "rest_energy_rise"),
                 fb_csv_col(t, "dir_err_max"),  fb_csv_col(t, "dir_err_rms")};
}

/* Row k is an ok run of the practitioner group on scenario S whose tag starts with pre. */
static const char *engine_setting(const char *tag);
/* An engine's run is drawn when suspect too: its "discretization error" against Coulomb's
 * reference is the engine's own contact model (MuJoCo's soft creep is the same at 1 ms and
 * 0.1 ms, docs/engines/mujoco.md §4), the very quantity these curves show. */
static int prow(const fb_csv *t, const pcols *c, size_t k, const char *S, const char *pre)
{
  const char *status = fb_csv_s(t, k, c->status);
  return streq(fb_csv_s(t, k, c->group), "practitioner") &&
         streq(fb_csv_s(t, k, c->scenario), S) &&
         strncmp(fb_csv_s(t, k, c->tag), pre, strlen(pre)) == 0 &&
         (streq(status, "ok") ||
          (streq(status, "suspect") && engine_setting(fb_csv_s(t, k, c->tag)) != NULL));
}

/* The (model, tag) series of the rows prow() keeps, in table order. */
static size_t pseries(const fb_csv *t, const pcols *c, const char *S, const char *pre,
                      size_t *first, size_t max)
{
  size_t n = 0;
  for (size_t k = 0; k < t->nrows && n < max; k++) {
    if (!prow(t, c, k, S, pre))
      continue;
    size_t j = 0;
    while (j < n && !(streq(fb_csv_s(t, first[j], c->model), fb_csv_s(t, k, c->model)) &&
                      streq(fb_csv_s(t, first[j], c->tag), fb_csv_s(t, k, c->tag))))
      j++;
    if (j == n)
      first[n++] = k;
  }
  return n;
}

/* Rows of series (model, tag of row f) sorted by sweep value; returns their count. */
static size_t series_rows(const fb_csv *t, const pcols *c, const char *S, size_t f,
                          size_t *rows, size_t max)
{
  size_t n = 0;
  for (size_t k = 0; k < t->nrows && n < max; k++)
    if (prow(t, c, k, S, fb_csv_s(t, f, c->tag)) &&
        streq(fb_csv_s(t, k, c->tag), fb_csv_s(t, f, c->tag)) &&
        streq(fb_csv_s(t, k, c->model), fb_csv_s(t, f, c->model)))
      rows[n++] = k;
  for (size_t a = 1; a < n; a++) /* insertion sort: a dozen values */
    for (size_t b = a; b > 0 && fb_csv_d(t, rows[b - 1], c->value) > fb_csv_d(t, rows[b], c->value);
         b--) {
      const size_t x = rows[b];
      rows[b] = rows[b - 1];
      rows[b - 1] = x;
    }
  return n;
}

/* An engine's setting (docs/engines.md): the tag's last word after its step when it is not
 * a number, "qs50" of "creep-h1e-3-qs50"; NULL for the treatments' tags. */
static const char *engine_setting(const char *tag)
{
  const char *last = strrchr(tag, '-');
  if (strstr(tag, "-h") == NULL || last == NULL || last < strstr(tag, "-h") + 2 ||
      (last[1] >= '0' && last[1] <= '9'))
    return NULL;
  return last + 1;
}

/* Legend entry of a series: "model/integrator 1 ms", or "(defaults)"; an engine's setting in
 * brackets. */
static void series_title(const fb_csv *t, const pcols *c, size_t f, char *buf, size_t len)
{
  const char *tag = fb_csv_s(t, f, c->tag), *integ = fb_csv_s(t, f, c->integrator);
  const double h = fb_csv_d(t, f, c->h);
  const char *poly = strstr(tag, "poly"); /* yaw-polyN: the N-facet cone */
  char cone[24] = "";
  if (strstr(tag, "box") != NULL)
    snprintf(cone, sizeof cone, " box");
  else if (poly != NULL)
    snprintf(cone, sizeof cone, " N=%.8s", poly + 4);
  if (strstr(tag, "-h") == NULL || !(h > 0)) /* only the creep-h..., slide-h... tags fix h */
    snprintf(buf, len, "%s/%s (defaults)%s", fb_csv_s(t, f, c->model), integ, cone);
  else
    snprintf(buf, len, "%s/%s h=%g%s", fb_csv_s(t, f, c->model), integ, h, cone);
  const char *set = engine_setting(tag);
  const size_t used = strlen(buf);
  if (set != NULL && used < len)
    snprintf(buf + used, len - used, " [%s]", set);
}

/* Dash type per step: 1 ms solid, 0.1 ms dashed, defaults dotted; an engine's settings
 * (one colour per engine) apart by a dash type of their own from 4 on, by their name. */
static int step_dt(const char *tag)
{
  const char *set = engine_setting(tag);
  if (set != NULL) {
    unsigned sum = 0;
    for (const char *p = set; *p != '\0'; p++)
      sum += (unsigned char)*p;
    return 4 + (int)(sum % 4) + (strstr(tag, "1e-4") ? 4 : 0);
  }
  return strstr(tag, "1e-4") ? 2 : strstr(tag, "default") ? 3 : 1;
}

/* Creep velocity against r, log y (docs/design.md §6's curve). */
static int plot_pract_creep(report *rp, fb_err *err)
{
  const fb_csv *t = &rp->R.t;
  const pcols c = pcols_of(t);
  if (c.group < 0 || c.creep < 0)
    return FB_OK;
  size_t first[MAX_SERIES];
  const size_t ns = pseries(t, &c, "push-hold", "creep", first, MAX_SERIES);
  if (ns == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "push-hold: creep velocity against the load fraction r", "pract_creep");
  if (p == NULL)
    return FB_OK;
  plot_build b = {0};
  sbuf holds = {0}, creeps = {0};
  for (size_t s = 0; s < ns; s++) {
    char title[200];
    size_t rows[MAX_POINTS];
    series_title(t, &c, first[s], title, sizeof title);
    const size_t n = series_rows(t, &c, "push-hold", first[s], rows, MAX_POINTS);
    pb_block(&b, title);
    for (size_t k = 0; k < n; k++) {
      const double r = fb_csv_d(t, rows[k], c.value), v = fb_csv_d(t, rows[k], c.creep);
      sb_dat(&b.data, r);
      sb_dat(&b.data, fabs(v) > CREEP_FLOOR ? fabs(v) : (double)NAN);
      sb_dat(&b.data, fabs(v) <= CREEP_FLOOR ? CREEP_FLOOR : (double)NAN);
      sb_puts(&b.data, "\n");
      /* the reading: the user's question, r = 0.95 at 1 ms */
      if (r == 0.95 && streq(fb_csv_s(t, first[s], c.tag), "creep-h1e-3")) {
        sbuf *dst = fabs(v) <= CREEP_FLOOR ? &holds : &creeps;
        sb_printf(dst, "%s%s", dst->n ? ", " : "", fb_csv_s(t, rows[k], c.model));
        if (dst == &creeps) {
          sb_puts(dst, " ");
          sb_num(dst, v);
        }
      }
    }
    if (n == 0)
      sb_puts(&b.data, "nan nan nan\n");
    b.nb++;
    sb_gword(pb_var(&b, "colors"), model_color(fb_csv_s(t, first[s], c.model)));
    sb_printf(pb_var(&b, "dts"), "%d ", step_dt(fb_csv_s(t, first[s], c.tag)));
  }
  sbuf *rd = &p->reading;
  sb_printf(rd, "At r = 0.95 and h = 1 ms (exact: no motion), mean velocity over the push "
                "(m/s): %s; exactly 0 (below %.0e m/s): %s. A compliant treatment's value includes "
                "its presliding deflection spread over the 5 s; suspect runs are not drawn (an "
                "engine's are: its error is its contact model's).",
            creeps.n ? sb_str(&creeps) : "none", CREEP_FLOOR, holds.n ? sb_str(&holds) : "none");
  sb_puts(pb_var(&b, "scen"), "push-hold: mean velocity over the 5 s push against r "
                              "(exact: 0 for r < 1, 0.368 m/s at r = 1.05)");
  const int st = plot_draw(rp, p, "pract_creep.gp", &b, err, "ns=%zu; yfloor=%.3g; W=1500; H=950",
                           b.nb, CREEP_FLOOR);
  pb_free(&b);
  sb_free(&holds);
  sb_free(&creeps);
  return st;
}

/* The puck's direction error (deg) and magnitude error against the yaw angle. */
static int plot_pract_yaw(report *rp, fb_err *err)
{
  const fb_csv *t = &rp->R.t;
  const pcols c = pcols_of(t);
  if (c.group < 0 || c.slide_max < 0 || c.dir_max < 0)
    return FB_OK;
  size_t first[MAX_SERIES];
  const size_t ns = pseries(t, &c, "puck", "yaw", first, MAX_SERIES);
  if (ns == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "puck: friction direction and magnitude error against the yaw angle",
                           "pract_yaw");
  if (p == NULL)
    return FB_OK;
  plot_build b = {0};
  double disc_dir = 0.0, disc_mag = 0.0, box_dir = 0.0, box_mag = 0.0, eng_dir = NAN,
         eng_mag = NAN;
  sbuf polys = {0}; /* the N-facet cones' largest errors, per series */
  for (size_t s = 0; s < ns; s++) {
    char title[200];
    size_t rows[MAX_POINTS];
    series_title(t, &c, first[s], title, sizeof title);
    const int box = strstr(fb_csv_s(t, first[s], c.tag), "box") != NULL;
    const char *poly = strstr(fb_csv_s(t, first[s], c.tag), "poly");
    double poly_dir = 0.0, poly_mag = 0.0;
    const size_t n = series_rows(t, &c, "puck", first[s], rows, MAX_POINTS);
    pb_block(&b, title);
    for (size_t k = 0; k < n; k++) {
      const double d = fb_csv_d(t, rows[k], c.dir_max), q = fb_csv_d(t, rows[k], c.slide_max);
      sb_dat(&b.data, fb_csv_d(t, rows[k], c.value));
      sb_dat(&b.data, d);
      sb_dat(&b.data, q);
      sb_puts(&b.data, "\n");
      /* an engine's friction is its own (ODE's pyramid is a box cone): read apart */
      const int eng = engine_setting(fb_csv_s(t, first[s], c.tag)) != NULL;
      double *wd = eng ? &eng_dir : poly ? &poly_dir : box ? &box_dir : &disc_dir;
      double *wq = eng ? &eng_mag : poly ? &poly_mag : box ? &box_mag : &disc_mag;
      if (isfinite(d))
        *wd = isnan(*wd) ? d : fmax(*wd, d);
      if (isfinite(q) && (isnan(*wq) || fabs(q) > fabs(*wq)))
        *wq = q;
    }
    if (n == 0)
      sb_puts(&b.data, "nan nan nan\n");
    if (poly != NULL) {
      sb_printf(&polys, "%s%s N=%.8s ", polys.n ? "; " : "", fb_csv_s(t, first[s], c.model),
                poly + 4);
      sb_num(&polys, poly_dir);
      sb_puts(&polys, " deg, ");
      sb_num(&polys, poly_mag);
    }
    b.nb++;
    sb_gword(pb_var(&b, "colors"), model_color(fb_csv_s(t, first[s], c.model)));
    const char *tag = fb_csv_s(t, first[s], c.tag);
    sb_printf(pb_var(&b, "dts"), "%d ",
              engine_setting(tag) ? step_dt(tag) : box ? 2 : poly != NULL ? 3 : 1);
  }
  sbuf *rd = &p->reading;
  sb_puts(rd, "Over yaw 0 ... 45 degrees (exact: 0 and 0 for the disc law), the largest direction error "
              "of the disc treatments ");
  sb_num(rd, disc_dir);
  sb_puts(rd, " deg and magnitude error ");
  sb_num(rd, disc_mag);
  sb_puts(rd, "; of the box cone ");
  sb_num(rd, box_dir);
  sb_puts(rd, " deg and ");
  sb_num(rd, box_mag);
  sb_puts(rd, " (sqrt 2 - 1 = 0.414 where both axes slide)");
  if (!isnan(eng_dir) || !isnan(eng_mag)) { /* docs/engines.md */
    sb_puts(rd, "; of the engines ");
    sb_num(rd, eng_dir);
    sb_puts(rd, " deg and ");
    sb_num(rd, eng_mag);
  }
  sb_puts(rd, ".");
  if (polys.n) { /* docs/models/poly-cone.md: at most pi/N and 1/cos(pi/N) - 1 */
    sb_puts(rd, " Dotted: the N-facet cones (at most 180/N deg and 1/cos(pi/N) - 1): ");
    sb_puts(rd, sb_str(&polys));
    sb_puts(rd, ".");
  }
  sb_free(&polys);
  sb_puts(pb_var(&b, "scen"), "puck launched at 1 m/s at a yaw angle: friction direction and magnitude error");
  /* the key beside the panels takes two columns beyond ~22 series: a wider page keeps
   * its second column inside it */
  const int st = plot_draw(rp, p, "pract_yaw.gp", &b, err, "ns=%zu; W=%d; H=1000", b.nb,
                           b.nb > 22 ? 2300 : 1500);
  pb_free(&b);
  return st;
}

int plot_practitioner(report *rp, fb_err *err)
{
  const int st = plot_pract_creep(rp, err);
  return st != FB_OK ? st : plot_pract_yaw(rp, err);
}

/* The value of column col of the ok practitioner row (model, tag), NaN when none. */
static double pvalue(const fb_csv *t, const pcols *c, const char *model, const char *tag, int col,
                     const char **integ)
{
  for (size_t k = 0; k < t->nrows; k++)
    if (prow(t, c, k, "push-hold", tag) && streq(fb_csv_s(t, k, c->tag), tag) &&
        streq(fb_csv_s(t, k, c->model), model)) {
      if (integ != NULL)
        *integ = fb_csv_s(t, k, c->integrator);
      return fb_csv_d(t, k, col);
    }
  return NAN;
}

static void td_val(sbuf *h, double v, const char *integ)
{
  if (isnan(v)) {
    sb_puts(h, "<td class=\"unk\">&mdash;</td>");
    return;
  }
  sb_printf(h, "<td class=\"num\">%.3g", v);
  if (integ != NULL) {
    sb_puts(h, "<br><span class=\"small\">");
    sb_html(h, integ);
    sb_puts(h, "</span>");
  }
  sb_puts(h, "</td>");
}

void html_practitioner(sbuf *h, const report *rp)
{
  const fb_csv *t = &rp->R.t;
  const pcols c = pcols_of(t);
  if (c.group < 0 || c.slide < 0 || c.rest < 0)
    return;
  names md = {{0}, 0};
  for (size_t k = 0; k < t->nrows; k++)
    if (streq(fb_csv_s(t, k, c.group), "practitioner"))
      names_add(&md, fb_csv_s(t, k, c.model));
  if (md.n == 0)
    return;
  sb_puts(h, "<section id=\"practitioner\">\n<h2>The practitioners' questions</h2>\n<p>push-hold "
             "(2 kg, mu = 0.3): the sliding force ratio |F_t|/(mu F_n) - 1 while the block slides under "
             "r = 2 (mean over the sliding samples; exact 0), and the largest rise of kinetic + stored "
             "energy of the block at rest with no push for 10 s (J; exact 0). &mdash;: no ok run "
             "(suspect, failed or not in this suite). The creep and yaw curves are under Plots.</p>\n"
             "<table>\n<tr><th>treatment</th><th>sliding ratio, 1 ms</th><th>sliding ratio, "
             "defaults</th><th>rest energy rise, 1 ms [J]</th><th>rest energy rise, defaults [J]</th></tr>\n");
  static const char *const tags[] = {"slide-h1e-3", "slide-default", "rest-h1e-3", "rest-default"};
  for (size_t m = 0; m < md.n; m++) {
    sb_puts(h, "<tr><td>");
    sb_html(h, md.s[m]);
    sb_puts(h, "</td>");
    for (size_t j = 0; j < 4; j++) {
      const char *integ = NULL;
      const double v = pvalue(t, &c, md.s[m], tags[j], j < 2 ? c.slide : c.rest, &integ);
      td_val(h, v, integ);
    }
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n</section>\n");
}
