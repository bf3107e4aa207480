/* report_sphere.c — sphere-drop in the report ([Xiong2013] §5.1, fig. 7;
 * docs/scenarios/sphere-drop.md): the six panels of the figure for every normal treatment
 * against the closed form (default mu and early-roll), the table of the key numbers per
 * run of group `sphere` (bench/suite/matrix.c), and the models that cannot take part, with
 * the reason a run of them gives (their data: no vector ODE law, a law that reads f_app,
 * a scheme that does not integrate the attitude). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_model_registry.h"
#include "fb_normal_int.h"

/* The closed form's numbers of the default set behind a run (its scenario parameters). */
static void sphere_numbers(const char *sparams, double *t1, double *troll, double *r, double *m)
{
  const double g = param_get(sparams, "g"), h0 = param_get(sparams, "h0");
  const double vz0 = param_get(sparams, "vz0"), mu = param_get(sparams, "mu");
  *r = param_get(sparams, "r");
  *m = param_get(sparams, "m");
  const double v1 = sqrt(vz0 * vz0 + 2 * g * h0);
  *t1 = (vz0 + v1) / g;
  const double u0 = hypot(param_get(sparams, "vx0") - *r * param_get(sparams, "wy0"),
                          param_get(sparams, "vy0") + *r * param_get(sparams, "wx0"));
  /* rolling onset: the first t with P_N(t) >= 2 m |u0| / (7 mu), P_N the normal impulse
   * (impacts m (1 + e) e^k v1, then m g per second from t_inf) */
  const double e = param_get(sparams, "e"), cap = 2 * *m * u0 / (7 * mu);
  double P = 0, tk = *t1, vk = v1;
  for (int k = 0; k < 10000 && vk > 1e-12 * v1; k++) {
    P += *m * (1 + e) * vk;
    if (P >= cap) {
      *troll = tk;
      return;
    }
    tk += 2 * e * vk / g;
    vk *= e;
  }
  const double t_inf = e < 1 ? *t1 + 2 * e * v1 / (g * (1 - e)) : (double)INFINITY;
  *troll = t_inf + (cap - *m * (g * t_inf - vz0)) / (*m * g);
}

/* One figure: the smooth-sign runs of group sphere whose tag ends in suffix. */
static int sphere_one(report *rp, const char *suffix, const char *label, fb_err *err)
{
  const runs *R = &rp->R;
  plot_build b = {0};
  char path[PATH_LEN], ref[PATH_LEN] = "", src[PATH_LEN + 32];
  double t1 = NAN, troll = NAN, r = NAN, m = NAN, pen = 0;
  plot_entry *p = NULL;
  size_t nf = 0;
  for (size_t k = 0; k < R->n; k++) {
    const run *ru = &R->r[k];
    if (!streq(ru->group, "sphere") || !streq(ru->model, "smooth-sign") ||
        streq(ru->tag, "rest"))
      continue;
    const char *us = strchr(ru->tag, '_');
    if (!streq(us != NULL ? us : "", suffix) || traj_path(rp->dir, ru, path, sizeof path) != 0)
      continue;
    if (p == NULL) {
      p = plot_new(rp, "", "sphere_drop%s", suffix);
      if (p == NULL)
        return FB_OK;
      snprintf(p->title, sizeof p->title,
               "sphere-drop%s: every normal treatment against the closed form ([Xiong2013] "
               "fig. 7)", label);
      p->png_only = 1;
      sphere_numbers(ru->sparams, &t1, &troll, &r, &m);
    }
    if (ru->pen_max > pen)
      pen = ru->pen_max;
    traj_source(p, path, src, sizeof src);
    sb_gword(pb_var(&b, "files"), src);
    char t[200];
    snprintf(t, sizeof t, "%.*s%s", (int)(us != NULL ? (size_t)(us - ru->tag) : strlen(ru->tag)),
             ru->tag, ru->ok ? "" : " (not ok)");
    sb_gword(pb_var(&b, "titles"), t);
    sb_gword(pb_var(&b, "colors"), treatment_color(ru->tag));
    if (ref[0] == '\0' &&
        (path_fmt(ref, sizeof ref, "%s/traj/sphere-drop/reference__%s" FB_TRAJ_EXT, rp->dir,
                  ru->tag) != 0 ||
         file_size(ref) <= 0))
      ref[0] = '\0';
    nf++;
  }
  int st = FB_OK;
  if (p != NULL && ref[0] == '\0') {
    plot_skip(rp, p, "no closed-form trajectory in traj/sphere-drop");
  } else if (p != NULL) {
    char refsrc[PATH_LEN + 32];
    traj_source(p, ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "sphere-drop%s: bounce, slip, roll; every treatment "
              "against the closed form (dashed)", label);
    sb_printf(&p->reading, "%zu treatments; rolling onset of the closed form %.6f s (dotted); "
              "deepest penetration %.3g m.", nf, troll, pen);
    st = plot_draw(rp, p, "sphere.gp", &b, err,
                   "r=%.17g; m=%.17g; t1=%.17g; troll=%.17g; pen=%.17g; W=1500; H=1300", r, m,
                   t1, troll, pen > 0 ? pen : 1e-3);
  }
  pb_free(&b);
  return st;
}

int plot_sphere(report *rp, fb_err *err)
{
  int st = sphere_one(rp, "", "", err);
  if (st == FB_OK)
    st = sphere_one(rp, "_early-roll", " early-roll (mu = 0.2)", err);
  return st;
}

static void sphere_td(sbuf *h, const fb_csv *t, size_t k, int c)
{
  sb_puts(h, "<td class=\"num\">");
  sb_num(h, c >= 0 ? fb_csv_d(t, k, c) : (double)NAN);
  sb_puts(h, "</td>");
}

/* Does group sphere have a row of model `model` with tag `tag`? */
static int sphere_has_row(const fb_csv *t, int cg, int cm, int ct, const char *model,
                          const char *tag)
{
  for (size_t k = 0; k < t->nrows; k++)
    if (streq(fb_csv_s(t, k, cg), "sphere") && streq(fb_csv_s(t, k, cm), model) &&
        streq(fb_csv_s(t, k, ct), tag))
      return 1;
  return 0;
}

/* Set up sphere-drop with `model` and one setting as a run would (nothing runs): its
 * status, the reason in *e. */
static int sphere_probe(const char *model, const char *set, fb_err *e)
{
  fb_case c;
  int st = fb_case_init(&c, "sphere-drop", model, NULL, e);
  if (st == FB_OK) {
    st = fb_case_set(&c, set, e);
    if (st == FB_OK)
      st = fb_case_prepare(&c, e);
    fb_case_free(&c);
  }
  return st;
}

/* The models with no row in group sphere: what a run of them on sphere-drop answers. */
static void sphere_refusals(sbuf *h, const fb_csv *t, int cg, int cm, int ct)
{
  sb_puts(h, "<p>Cannot take part (the reason a run gives; under newton and moreau-jean the "
             "treatment owns the friction, so these are the friction models under a force "
             "law, penalty-n):</p>\n<ul>\n");
  const fb_model_type *mt;
  for (size_t i = 0; (mt = fb_model_at(i)) != NULL; i++) {
    /* smooth-sign: every treatment's rows */
    if (sphere_has_row(t, cg, cm, ct, mt->name, "friction") || streq(mt->name, "smooth-sign"))
      continue;
    fb_err e = {{0}};
    const char *why = "its chatter under a force law exhausts any budget (left out, as in "
                      "the contact groups)";
    if (sphere_probe(mt->name, "scenario.normal=penalty-n", &e) != FB_OK)
      why = e.msg;
    sb_puts(h, "<li><code>");
    sb_html(h, mt->name);
    sb_puts(h, "</code>: ");
    sb_html(h, why);
    sb_puts(h, "</li>\n");
  }
  for (size_t i = 0; fb_normal_names[i] != NULL; i++) { /* normal treatments without rows */
    int present = 0;
    const fb_normal_type *nt = fb_normal_find(fb_normal_names[i]);
    for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL && !present; nv++)
      present = streq(nv->normal, fb_normal_names[i]) &&
                (nt == NULL || fb_normal_takes_quat(nt)); /* as the table's sphere group */
    if (present)
      continue;
    fb_err e = {{0}};
    char set[96];
    snprintf(set, sizeof set, "scenario.normal=%s", fb_normal_names[i]);
    const int st = sphere_probe("smooth-sign", set, &e);
    sb_puts(h, "<li>normal <code>");
    sb_html(h, fb_normal_names[i]);
    sb_puts(h, "</code>: ");
    sb_html(h, st != FB_OK ? e.msg : "takes part (not in the suite's treatment list)");
    sb_puts(h, "</li>\n");
  }
  sb_puts(h, "</ul>\n");
}

/* rest = 1 (no normal contact): the models without a rest row, with the reason a run of
 * them at their default integrator gives (a model-owned scheme or an implicit stepper does
 * not integrate the attitude). */
static void sphere_refusals_rest(sbuf *h, const fb_csv *t, int cg, int cm, int ct)
{
  sb_puts(h, "<p>On the plane from t = 0 (rest = 1: no normal contact, the generic steppers; "
             "the rows above run rkf45): cannot take part at their default integrator:</p>\n"
             "<ul>\n");
  const fb_model_type *mt;
  for (size_t i = 0; (mt = fb_model_at(i)) != NULL; i++) {
    if (sphere_has_row(t, cg, cm, ct, mt->name, "rest"))
      continue;
    fb_err e = {{0}};
    const char *why = "its chatter exhausts any adaptive budget (left out)";
    if (sphere_probe(mt->name, "rest=1", &e) != FB_OK)
      why = e.msg;
    sb_puts(h, "<li><code>");
    sb_html(h, mt->name);
    sb_puts(h, "</code>: ");
    sb_html(h, why);
    sb_puts(h, "</li>\n");
  }
  sb_puts(h, "</ul>\n");
}

void html_sphere(sbuf *h, const report *rp)
{
  const fb_csv *t = &rp->R.t;
  const int cg = fb_csv_col(t, "group"), cm = fb_csv_col(t, "model"), ct = fb_csv_col(t, "tag");
  const int cs = fb_csv_col(t, "status");
  if (cg < 0 || cm < 0 || ct < 0 || cs < 0)
    return;
  size_t nrow = 0;
  for (size_t k = 0; k < t->nrows; k++)
    nrow += streq(fb_csv_s(t, k, cg), "sphere");
  if (nrow == 0)
    return;
  static const char *const cols[] = {"stop_time_err", "err_v_T", "stop_err", "ut_err",
                                     "e_eff", "pen_max", "q_norm_err", "nfe"};
  sb_puts(h, "<section id=\"sphere\">\n<h2>sphere-drop ([Xiong2013] §5.1)</h2>\n<p>A sphere "
             "with spin dropped on a rough plane (r = 0.1 m, m = 1 kg, e = 0.5, h0 = 0.2 m, "
             "v0 = (2, 0, 0) m/s, omega0 = (10, -20, 0) rad/s): closed form rolling onset "
             "2|u0|/(7 mu g) = 1.200846 s at mu = 0.1 (after the bounces end at 0.605783 s), "
             "v_roll = v0 - (2/7) u0 = (0.857143, -0.285714) m/s at every mu (early-roll: "
             "mu = 0.2, onset inside an impact).  Columns: rolling onset minus the closed "
             "form's (stop_time_err, s); velocity error at T (err_v_T, m/s); onset minus the "
             "event-driven newton run's (stop_err, s); |u| after the first contact minus "
             "newton's (ut_err, m/s; a force law's e_eff differs from e, which moves it); "
             "effective e; deepest penetration (m); largest |‖Q‖ - 1| of the attitude; RHS "
             "evaluations.</p>\n<table>\n<tr><th>treatment</th><th>model</th><th>status</th>");
  for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
    sb_printf(h, "<th>%s</th>", cols[j]);
  sb_puts(h, "</tr>\n");
  int cc[sizeof cols / sizeof *cols];
  for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
    cc[j] = fb_csv_col(t, cols[j]);
  for (size_t k = 0; k < t->nrows; k++) {
    if (!streq(fb_csv_s(t, k, cg), "sphere"))
      continue;
    sb_puts(h, "<tr><td>");
    sb_html(h, streq(fb_csv_s(t, k, ct), "friction") ? "penalty-n"
               : streq(fb_csv_s(t, k, ct), "rest") ? "rest (no normal), rkf45"
                                                   : fb_csv_s(t, k, ct));
    sb_puts(h, "</td><td>");
    sb_html(h, fb_csv_s(t, k, cm));
    sb_puts(h, "</td><td>");
    sb_html(h, fb_csv_s(t, k, cs));
    sb_puts(h, "</td>");
    for (size_t j = 0; j < sizeof cols / sizeof *cols; j++)
      sphere_td(h, t, k, cc[j]);
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n");
  sphere_refusals(h, t, cg, cm, ct);
  sphere_refusals_rest(h, t, cg, cm, ct);
  sb_puts(h, "</section>\n");
}
