/* report_contact.c — the normal-contact plots of the report (docs/design.md §12): effective
 * against nominal restitution per treatment (the classic comparison of contact models,
 * [FloresLankarani2016]), bounce trajectories of every treatment against the reference,
 * and cost against the treatment's stiffness with the cost at a matched impact-time error.
 * Everything is read from runs.csv and traj/ (groups restitution, contact, contact-wp,
 * contact-stiffness; bench/suite/matrix.c). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_normal_int.h"

/* The impact-time errors (s) at which the cost of the treatments is compared. */
static const double contact_targets[] = {1e-4, 1e-2};

const char *treatment_color(const char *tag)
{
  static const char *const palette[] = {"#000000", "#1f77b4", "#d62728", "#ff7f0e",
                                        "#9467bd", "#2ca02c", "#8c564b", "#e377c2"};
  const size_t np = sizeof palette / sizeof palette[0];
  for (size_t i = 0; fb_normal_variants[i].label != NULL; i++) {
    const char *l = fb_normal_variants[i].label;
    const size_t n = strlen(l);
    if (strncmp(tag, l, n) == 0 && (tag[n] == '\0' || tag[n] == '_'))
      return palette[i % np];
  }
  return "#555555";
}

/* The treatments' labels present in a group on bouncing-ball, in fb_normal_variants order. */
static void group_treatments(const runs *R, const char *group, names *out)
{
  out->n = 0;
  for (size_t i = 0; fb_normal_variants[i].label != NULL; i++)
    for (size_t k = 0; k < R->n; k++)
      if (streq(R->r[k].group, group) && streq(R->r[k].scenario, "bouncing-ball") &&
          streq(R->r[k].tag, fb_normal_variants[i].label)) {
        names_add(out, fb_normal_variants[i].label);
        break;
      }
}

/* ==== effective against nominal e ========================================================= */

int plot_contact_restitution(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  names tr;
  group_treatments(R, "restitution", &tr);
  if (tr.n == 0)
    return FB_OK; /* no restitution group in this table: no plot, no entry */
  plot_entry *p = plot_new(rp, "bouncing-ball: effective against nominal restitution per "
                               "normal treatment", "contact_restitution");
  if (p == NULL)
    return FB_OK;
  plot_build b = {0};
  sbuf *rd = &p->reading;
  for (size_t i = 0; i < tr.n; i++) {
    double worst = -1, at = NAN;
    size_t np = 0;
    pb_block(&b, tr.s[i]);
    for (size_t k = 0; k < R->n; k++) {
      const run *r = &R->r[k];
      if (!streq(r->group, "restitution") || !streq(r->tag, tr.s[i]) || !r->ok ||
          !isfinite(r->e_eff))
        continue;
      sb_dat(&b.data, r->e_nominal);
      sb_dat(&b.data, r->e_eff);
      sb_puts(&b.data, "\n");
      np++;
      const double d = fabs(r->e_eff - r->e_nominal);
      if (d > worst) {
        worst = d;
        at = r->e_nominal;
      }
    }
    if (np == 0)
      sb_puts(&b.data, "nan nan\n");
    sb_gword(pb_var(&b, "colors"), treatment_color(tr.s[i]));
    b.nb++;
    if (np > 0)
      sb_printf(rd, "%s%s %.3f at e = %.1f", i ? "; " : "", tr.s[i], worst, at);
  }
  reading_lead(rd, "Largest |e_eff - e| over the sweep (mean of the first three bounces)");
  sb_puts(pb_var(&b, "scen"),
          "bouncing-ball: effective restitution (mean of the first three bounces) against the "
          "nominal e");
  const int st = plot_draw(rp, p, "restitution.gp", &b, err, "ns=%zu; W=1100; H=900", b.nb);
  pb_free(&b);
  return st;
}

/* ==== bounce trajectories ================================================================= */

/* Overlay of the contact group's bouncing-ball runs whose tag ends in `suffix` ("" for the
 * scenario's default e = 0.7) against the closed-form reference, with a zoom on the first
 * impact. */
static int contact_traj_one(report *rp, const char *suffix, const char *elabel, fb_err *err)
{
  const runs *R = &rp->R;
  plot_build b = {0};
  char path[PATH_LEN], ref[PATH_LEN] = "", src[PATH_LEN + 32];
  size_t nf = 0;
  double t1 = NAN, pen = 0;
  plot_entry *p = NULL;
  sbuf worst = {0};
  double wmax = -1;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "contact") || !streq(r->scenario, "bouncing-ball"))
      continue;
    const char *us = strchr(r->tag, '_');
    if (!streq(us != NULL ? us : "", suffix))
      continue;
    if (traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    if (p == NULL) {
      p = plot_new(rp, "", "contact_traj_bouncing-ball%s", suffix);
      if (p == NULL)
        return FB_OK;
      snprintf(p->title, sizeof p->title,
               "bouncing-ball (e = %s): every normal treatment against the closed form",
               elabel);
      p->png_only = 1;
    }
    if (isnan(t1))
      t1 = sqrt(2 * param_get(r->sparams, "h") / param_get(r->sparams, "g"));
    if (r->pen_max > pen)
      pen = r->pen_max;
    if (r->ok && isfinite(r->t_imp_err) && r->t_imp_err > wmax) {
      wmax = r->t_imp_err;
      worst.n = 0;
      sb_printf(&worst, "%s (%.3g s)", r->tag, r->t_imp_err);
    }
    traj_source(p, path, src, sizeof src);
    sb_gword(pb_var(&b, "files"), src);
    char t[200];
    snprintf(t, sizeof t, "%.*s%s", (int)(us != NULL ? (size_t)(us - r->tag) : strlen(r->tag)),
             r->tag, r->ok ? "" : " (not ok)");
    sb_gword(pb_var(&b, "titles"), t);
    sb_gword(pb_var(&b, "colors"), treatment_color(r->tag));
    if (ref[0] == '\0' &&
        path_fmt(ref, sizeof ref, "%s/traj/bouncing-ball/reference__%s" FB_TRAJ_EXT, rp->dir,
                 r->tag) == 0 &&
        file_size(ref) <= 0)
      ref[0] = '\0';
    nf++;
  }
  int st = FB_OK;
  if (p != NULL) {
    char refsrc[PATH_LEN + 32] = "";
    if (ref[0] != '\0')
      traj_source(p, ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "bouncing-ball, e = %s: gap of every treatment against the "
              "closed form (dashed)", elabel);
    sbuf *rd = &p->reading;
    sb_printf(rd, "%zu treatments; deepest penetration %.3g m; largest impact-time error of "
              "the first five impacts: %s.", nf, pen, worst.n ? sb_str(&worst) : "none");
    st = plot_draw(rp, p, "contact_traj.gp", &b, err, "t1=%.17g; pen=%.17g; W=1400; H=1000",
                   t1, pen > 0 ? pen : 1e-3);
  }
  sb_free(&worst);
  pb_free(&b);
  return st;
}

int plot_contact_traj(report *rp, fb_err *err)
{
  int st = contact_traj_one(rp, "", "0.7", err);
  if (st == FB_OK)
    st = contact_traj_one(rp, "_e0.3", "0.3", err);
  return st;
}

/* ==== cost against stiffness, cost at a matched impact-time error ========================= */

/* The cheapest ok run of a treatment (tag) in the contact-wp and contact-stiffness groups
 * with t_imp_err <= target; NULL when none, with *best the smallest error reached. */
static const run *contact_cheapest(const runs *R, const char *tag, double target, double *best)
{
  const run *c = NULL;
  *best = NAN;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if ((!streq(r->group, "contact-wp") && !streq(r->group, "contact-stiffness")) ||
        !streq(r->tag, tag) || !r->ok || !isfinite(r->t_imp_err))
      continue;
    if (isnan(*best) || r->t_imp_err < *best)
      *best = r->t_imp_err;
    if (r->t_imp_err <= target && (c == NULL || r->nfe < c->nfe))
      c = r;
  }
  return c;
}

int plot_contact_cost(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  names tr;
  group_treatments(R, "contact-stiffness", &tr);
  if (tr.n == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "bouncing-ball: cost against the contact stiffness",
                           "contact_cost");
  if (p == NULL)
    return FB_OK;
  plot_build b = {0};
  sbuf *rd = &p->reading;
  for (size_t i = 0; i < tr.n; i++) {
    const run *lo = NULL, *hi = NULL;
    pb_block(&b, tr.s[i]);
    for (size_t k = 0; k < R->n; k++) {
      const run *r = &R->r[k];
      if (!streq(r->group, "contact-stiffness") || !streq(r->tag, tr.s[i]) ||
          !(r->ok || r->budget))
        continue;
      sb_dat(&b.data, r->value);
      sb_dat(&b.data, r->nfe);
      sb_dat(&b.data, r->ok ? r->pen_max : (double)NAN);
      sb_dat(&b.data, r->budget ? r->nfe : (double)NAN);
      sb_puts(&b.data, "\n");
      if (lo == NULL || r->value < lo->value)
        lo = r;
      if (hi == NULL || r->value > hi->value)
        hi = r;
    }
    if (lo == NULL)
      sb_puts(&b.data, "nan nan nan nan\n");
    sb_gword(pb_var(&b, "colors"), treatment_color(tr.s[i]));
    b.nb++;
    if (lo != NULL && hi != lo)
      sb_printf(rd, "%s%s x%.3g from %g to %g", i ? "; " : "", tr.s[i], hi->nfe / lo->nfe,
                lo->value, hi->value);
  }
  reading_lead(rd, "Growth of the RHS evaluations over the stiffness ladder");
  sb_puts(rd, " Cost at a matched impact-time error (cheapest run of contact-wp and "
              "contact-stiffness with the largest onset-time error of the first five impacts "
              "at or below the target):");
  names all;
  group_treatments(R, "contact-wp", &all);
  for (size_t t = 0; t < sizeof contact_targets / sizeof *contact_targets; t++) {
    sb_printf(rd, "%s at %.0e s: ", t ? ";" : "", contact_targets[t]);
    for (size_t i = 0; i < all.n; i++) {
      double best;
      const run *c = contact_cheapest(R, all.s[i], contact_targets[t], &best);
      if (c != NULL)
        sb_printf(rd, "%s%s %.0f RHS", i ? ", " : "", all.s[i], c->nfe);
      else
        sb_printf(rd, "%s%s not reached (best %.2g s)", i ? ", " : "", all.s[i], best);
    }
  }
  sb_puts(rd, ".");
  sb_puts(pb_var(&b, "scen"), "bouncing-ball (e = 0.7): cost and penetration against the "
                              "treatment's stiffness (tol 1e-8)");
  const int st = plot_draw(rp, p, "contact_cost.gp", &b, err, "ns=%zu; W=1200; H=950", b.nb);
  pb_free(&b);
  return st;
}
