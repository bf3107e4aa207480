/* report_plots.c — every plot of the report: the data it draws (plots/data/), the gnuplot
 * script that draws it and its one-sentence reading (fb_report.h, docs/design.md §8). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"
#include "report_pages.h"

/* ==== plot kinds ========================================================================== */

/* A kind of plot.  Most draw one plot per scenario of a runs.csv group, named
 * <stem>_<scenario> and titled "<scenario>: <title>": `draw` fills it (or says why it is
 * not drawn).  The others (`single`) decide for themselves what they draw. */
typedef struct plot_kind {
  const char *group, *stem, *title;
  int (*draw)(report *rp, plot_entry *p, const char *scenario, fb_err *err);
  int (*single)(report *rp, fb_err *err);
} plot_kind;

/* The plot of per-scenario kind k for scenario scn, or the one drawn early in its place. */
static int plot_of_kind(report *rp, const plot_kind *k, const char *scn, fb_err *err)
{
  char title[256], name[160];
  snprintf(title, sizeof title, "%s: %s", scn, k->title);
  snprintf(name, sizeof name, "%s_%s", k->stem, scn);
  plot_entry *p = plot_new(rp, title, "%s", name);
  if (p == NULL)
    return FB_OK;
  if (early_take(rp, p, name))
    return FB_OK;
  return k->draw(rp, p, scn, err);
}

/* The plots of kind k; stops at the first failure that is not the plot's own. */
static int plots_of_kind(report *rp, const plot_kind *k, fb_err *err)
{
  if (k->single != NULL)
    return k->single(rp, err);
  names sc;
  group_scenarios(&rp->R, k->group, &sc);
  int st = FB_OK;
  for (size_t i = 0; i < sc.n && st == FB_OK; i++)
    st = plot_of_kind(rp, k, sc.s[i], err);
  return st;
}

/* ==== trajectory overlays ================================================================= */

/* The user's own runs are the ones drawn (issue 23 item 8): the fixed-step runs at the
 * judged (coarsest) step of the fixed-step view when they kept trajectories (--h, a plan, a
 * filtered suite), else the baseline runs at each model's defaults.  NaN: baseline. */
static double traj_fixed_step(const report *rp, const char *S)
{
  const runs *R = &rp->R;
  double h = NAN;
  char path[PATH_LEN], table[32] = "";
  /* only a user's table: the default one's fixed-step runs keep no trajectories, and a
   * baseline run at the same step writes the same file name */
  if (rp->meta != NULL)
    fb_json_get(rp->meta, "table", table, sizeof table);
  if (!streq(table, "selected"))
    return NAN;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (streq(r->group, "fixed-step") && streq(r->scenario, S) && r->h > 0 &&
        !(r->h <= h) && traj_path(rp->dir, r, path, sizeof path) == 0 && file_size(path) > 0)
      h = r->h;
  }
  return h;
}

/* A file that keeps the first DOFs of a larger plant (the chain's: the suite writes blocks
 * 1-3, fb_trace_write_csv_gz_dofs): its scenario's n (blocks) above the file's n. */
static int kept_fewer(const char *sparams, int n)
{
  for (const char *p = sparams; p != NULL && *p != '\0'; p = strchr(p, ';'), p = p ? p + 1 : p)
    if (p[0] == 'n' && p[1] == '=')
      return atof(p + 2) > n;
  return 0;
}

/* Order the rows cand[0..n) by falling chatter rate (NaN as 0), stable: an insertion sort
 * of at most MAX_SERIES rows. */
static void sort_by_chatter(const runs *R, size_t *cand, size_t n)
{
  for (size_t a = 1; a < n; a++)
    for (size_t c = a; c > 0; c--) {
      const double ca = R->r[cand[c]].chatter_rate, cb = R->r[cand[c - 1]].chatter_rate;
      if (!((isnan(ca) ? 0 : ca) > (isnan(cb) ? 0 : cb)))
        break;
      const size_t t = cand[c];
      cand[c] = cand[c - 1];
      cand[c - 1] = t;
    }
}

static int traj_draw(report *rp, plot_entry *p, const char *S, fb_err *err)
{
  const runs *R = &rp->R;
  const double hfix = traj_fixed_step(rp, S);
  const char *grp = isnan(hfix) ? "baseline" : "fixed-step";
  p->png_only = 1;
  plot_build b = {0};
  char path[PATH_LEN], first[PATH_LEN] = "", ref[PATH_LEN] = "";
  size_t nf = 0, cand[MAX_SERIES], ncand = 0;
  long best = -1, worst = -1;
  double stref = NAN;
  sbuf good = {0}, bad = {0}, over = {0};
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, grp) || !streq(r->scenario, S) || (!isnan(hfix) && r->h != hfix))
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
  sort_by_chatter(R, cand, ncand);
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
    traj_source(p, path, srcp, sizeof srcp);
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
      traj_source(p, ref, refsrc, sizeof refsrc);
    sb_puts(pb_var(&b, "ref"), refsrc);
    sb_printf(pb_var(&b, "scen"), "%s: every model against the reference%s", S,
              n > 3 || kept_fewer(R->r[cand[0]].sparams, n) ? " (first 3 DOFs)" : "");
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

const double wp_targets[N_WP_TARGETS] = {1e-1, 1e-2, 1e-3, 1e-4};

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

/* What grid.gp draws of one grid trajectory, as plots/data/<name>.dat.gz: per row t, the
 * phase coordinates xi = x_m - vd t (NaN outside [tmin, tmax]) and xi' = v_m - vd of the
 * contact mass (DOF n-1 of n), and the contact force F.  Computed here, with the values
 * gnuplot was given (vd, tmin and tmax as printed, %.10g) and its order of operations,
 * so the plots are what gnuplot drew from `(column(xc) - vd * $1) * inwin($1)`; gnuplot
 * evaluated those expressions per point with a signal handler set and reset around each
 * (3 system calls a point: 630,000 for the quick suite's grid plots, a quarter of its
 * report's gnuplot time).  A whole trajectory (--traj all) is cut to [t0, t1] first, as
 * before; a file holding the window already (the default traj_tail) keeps its rows. */
static int grid_data(report *rp, const char *src, int cut, double t0, double t1, int n,
                     double vd, double tmin, double tmax, const char *name, char *out,
                     size_t len, fb_err *err)
{
  char *text;
  size_t nb;
  if (fb_gz_read_all(src, &text, &nb) != 0)
    return fb_err_set(err, FB_EIO, "cannot read trajectory '%s'", src);
  sbuf d = {0};
  sb_puts(&d, "t,xi,xi_dot,F\n");
  const int ix = n, iv = 2 * n, iF = 2 * n + 1; /* 0-based fields: x_n, v_n, F_1 */
  const char *p = memchr(text, '\n', nb), *end = text + nb;
  p = p != NULL ? p + 1 : end; /* the header */
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    const char *eol = e != NULL ? e : end;
    double t = NAN, x = NAN, v = NAN, F = NAN;
    const char *q = p;
    for (int f = 0; q < eol && f <= iF; f++) {
      char *r;
      const double val = strtod(q, &r);
      const double got = r != q ? val : (double)NAN;
      if (f == 0)
        t = got;
      else if (f == ix)
        x = got;
      else if (f == iv)
        v = got;
      else if (f == iF)
        F = got;
      q = memchr(q, ',', (size_t)(eol - q));
      q = q != NULL ? q + 1 : eol;
    }
    p = eol + 1;
    if (isnan(t) || (cut && !(t >= t0 && t <= t1)))
      continue;
    const double xi = (x - vd * t) * (t >= tmin && t <= tmax ? 1.0 : (double)NAN);
    sb_printf(&d, "%.17g,%.17g,%.17g,%.17g\n", t, xi, v - vd, F);
  }
  free(text);
  const int st = write_data(rp, name, &d, out, len, err);
  sb_free(&d);
  return st;
}

/* x as gnuplot reads it after `-e "x=%.10g"`. */
static double as_printed(double x)
{
  char buf[40];
  snprintf(buf, sizeof buf, "%.10g", x);
  return strtod(buf, NULL);
}

/* The grid's runs (at most four cells) and what their plots say of them. */
typedef struct grid_cells {
  long cell[4];
  size_t nc;
  char src[4][PATH_LEN];  /* the trajectories found, nf of them */
  size_t nf;
  char first[PATH_LEN];   /* the first of them ("" if none) */
  long best, worst;       /* the finished runs closest to and farthest from the reference */
  sbuf titles, ftv;       /* the legend entries; the force's total variation per cell */
} grid_cells;

/* The grid's trajectories, legend entries and error extremes. */
static void grid_collect(const report *rp, grid_cells *g)
{
  const runs *R = &rp->R;
  char path[PATH_LEN];
  for (size_t c = 0; c < g->nc; c++) {
    const run *r = &R->r[g->cell[c]];
    if (traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    char step[48], t[200];
    run_step(r, step, sizeof step);
    snprintf(t, sizeof t, "%s, %s: L2 error of x %.3g m s^0.5%s%s", r->tag, step, r->err_x_l2,
             r->ok ? "" : ", ", r->ok ? "" : r->status);
    snprintf(g->src[g->nf], sizeof g->src[g->nf], "%s", path);
    sb_gword(&g->titles, t);
    if (g->first[0] == '\0')
      snprintf(g->first, sizeof g->first, "%s", path);
    g->nf++;
    if (r->ok && isfinite(r->err_x_l2)) {
      if (g->best < 0 || r->err_x_l2 < R->r[g->best].err_x_l2)
        g->best = g->cell[c];
      if (g->worst < 0 || r->err_x_l2 > R->r[g->worst].err_x_l2)
        g->worst = g->cell[c];
    }
    sb_printf(&g->ftv, "%s%s %s ", g->ftv.n ? "; " : "", r->tag, step);
    sb_num(&g->ftv, r->chatter_F_tv);
  }
}

/* The two grid plots' readings: the closest and farthest cell, the force's variation. */
static void grid_readings(const report *rp, plot_entry *pp, plot_entry *pf, const grid_cells *g)
{
  const runs *R = &rp->R;
  if (g->best >= 0) {
    char sb1[48], sb2[48];
    run_step(&R->r[g->best], sb1, sizeof sb1);
    run_step(&R->r[g->worst], sb2, sizeof sb2);
    sb_printf(&pp->reading, "Closest to the event-driven reference: %s, %s (L2 error of x %.3g m s^0.5); farthest: %s, %s (%.3g).",
              R->r[g->best].tag, sb1, R->r[g->best].err_x_l2, R->r[g->worst].tag, sb2, R->r[g->worst].err_x_l2);
  } else {
    sb_puts(&pp->reading, "No grid run has an error against the reference.");
  }
  sb_printf(&pf->reading, "Contact-force total variation inside the reference's stick intervals, per unit Fs and second "
            "(the exact force varies smoothly there): %s; the trajectory files sample the force every %.3g s, so oscillations "
            "faster than that are aliased.", sb_str(&g->ftv), traj_dt(g->first));
}

/* The grid's two plots (phase curves, contact forces) from its cells' trajectories and the
 * reference, each cell cut to the last two drive periods. */
static int plots_grid_draw(report *rp, grid_cells *g, fb_err *err)
{
  const runs *R = &rp->R;
  const char *scn = R->r[g->cell[0]].scenario;
  plot_entry *pp = plot_new(rp, "two-mass-drive grid ([Engleder2002] fig. 3): phase curves of the contact mass", "grid_phase");
  plot_entry *pf = plot_new(rp, "two-mass-drive grid ([Engleder2002] fig. 4): contact forces", "grid_force");
  if (pp == NULL || pf == NULL)
    return FB_OK;
  if (early_take(rp, pp, "grid_phase")) { /* drawn during the runs, both */
    early_take(rp, pf, "grid_force");
    return FB_OK;
  }
  sbuf files = {0}, files2 = {0}, vars = {0};
  char path[PATH_LEN], ref[PATH_LEN];
  char gsrc[PATH_LEN + 32], ref2[PATH_LEN + 32] = "";
  grid_collect(rp, g);
  int n = 0, ncont = 0, st = FB_OK;
  if (g->nf < 4 || traj_dims(g->first, &n, &ncont) != 0) {
    plot_skip(rp, pp, "fewer than four grid trajectories");
    plot_skip(rp, pf, "fewer than four grid trajectories");
  } else {
    if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference%s%s" FB_TRAJ_EXT, rp->dir, scn,
                 R->r[g->cell[0]].tag[0] ? "__" : "", R->r[g->cell[0]].tag) != 0 || file_size(ref) <= 0)
      if (path_fmt(ref, sizeof ref, "%s/traj/%s/reference" FB_TRAJ_EXT, rp->dir, scn) != 0 ||
          file_size(ref) <= 0)
        ref[0] = '\0';
    const run *r0 = &R->r[g->cell[0]];
    double vd = param_get(r0->sparams, "v"), Om = param_get(r0->sparams, "Omega");
    double T = param_get(r0->sparams, "T");
    if (isnan(T))
      T = r0->t_reached;
    if (isnan(vd))
      vd = 0;
    const double tmin = Om > 0 && T > 4 * FB_PI / Om ? T - 4 * FB_PI / Om : 0.75 * T;
    const double slack = 1e-6 * (T > 0 ? T : 1.0);
    const double vdp = as_printed(vd), tminp = as_printed(tmin), tmaxp = as_printed(T);
    for (size_t k = 0; k < g->nf && st == FB_OK; k++) {
      char name[32];
      snprintf(name, sizeof name, "grid_%zu", k + 1);
      const int cut = !(traj_first_t(g->src[k]) >= tmin - traj_dt(g->src[k]) - slack);
      st = grid_data(rp, g->src[k], cut, tmin, T, n, vdp, tminp, tmaxp, name, path, sizeof path,
                     err);
      /* each plot reads its own inflated copies (a plot's copies close when it ends) */
      traj_source(pp, path, gsrc, sizeof gsrc);
      sb_gword(&files, gsrc);
      traj_source(pf, path, gsrc, sizeof gsrc);
      sb_gword(&files2, gsrc);
    }
    if (st == FB_OK && ref[0] != '\0') {
      snprintf(path, sizeof path, "%s", ref);
      const int cut = !(traj_first_t(path) >= tmin - traj_dt(path) - slack);
      st = grid_data(rp, path, cut, tmin, T, n, vdp, tminp, tmaxp, "grid_ref", ref, sizeof ref,
                     err);
      if (st == FB_OK) {
        traj_source(pf, ref, ref2, sizeof ref2);
        traj_source(pp, ref, gsrc, sizeof gsrc);
        if (path_fmt(ref, sizeof ref, "%s", gsrc) != 0)
          ref[0] = '\0';
      }
    }
    var_s(&vars, "files", sb_str(&files));
    var_s(&vars, "titles", sb_str(&g->titles));
    var_s(&vars, "ref", ref);
    sb_printf(&vars, "tmin=%.10g; tmax=%.10g; W=1500; H=1050; ", tmin, T);
    sbuf v2 = {0};
    sb_puts(&v2, sb_str(&vars));
    var_s(&v2, "files", sb_str(&files2));
    var_s(&v2, "ref", ref2);
    var_s(&vars, "what", "phase");
    char scen[400];
    snprintf(scen, sizeof scen, "%s, %s/%s: contact-mass phase curves, rows eps = k/cT, columns h (last 2 drive periods)",
             scn, r0->model, r0->integrator);
    var_s(&vars, "scen", scen);
    var_s(&v2, "what", "force");
    snprintf(scen, sizeof scen, "%s, %s/%s: contact force, rows eps = k/cT, columns h (last 2 drive periods)",
             scn, r0->model, r0->integrator);
    var_s(&v2, "scen", scen);
    grid_readings(rp, pp, pf, g);
    if (vars.bad || v2.bad)
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
    if (st == FB_OK)
      st = gp_render(rp, pp, "grid.gp", &vars, err);
    if (st == FB_OK)
      st = gp_render(rp, pf, "grid.gp", &v2, err);
    sb_free(&v2);
  }
  sb_free(&files);
  sb_free(&files2);
  sb_free(&vars);
  return st;
}

static int plots_grid(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  grid_cells g = {.best = -1, .worst = -1};
  for (size_t k = 0; k < R->n && g.nc < 4; k++)
    if (streq(R->r[k].group, "grid"))
      g.cell[g.nc++] = (long)k;
  if (g.nc == 0)
    return FB_OK;
  const int st = plots_grid_draw(rp, &g, err);
  sb_free(&g.titles);
  sb_free(&g.ftv);
  return st;
}


/* ==== the plots, in the order report.html shows them ====================================== */

static const plot_kind plot_kinds[] = {
    {"baseline", "traj", "trajectories of every model (baseline runs) and the reference", traj_draw, NULL},
    {.single = plot_xy_all},
    {"convergence", "conv", "convergence of x under step refinement", conv_draw, NULL},
    {.single = plot_wp_pages}, /* every scenario with a ladder (report_wp_page.c) */
    {"cost-mu", "cost", "cost against the friction coefficient", cost_draw, NULL},
    {.single = plot_drift},
    {.single = plot_chatter},
    {"regularization", "regularization", "sensitivity to the regularization parameter",
     regularization_draw, NULL},
    {.group = "grid", .single = plots_grid}, /* group: its rows only (an early plot) */
    {.single = plot_awrejcewicz},
    {.single = plot_contact_restitution},
    {.single = plot_contact_traj},
    {.single = plot_contact_cost},
    {.single = plot_two_beam},
    {.single = plot_frame},
    {.single = plot_scale},
    {.single = plot_conveyor},
    {.single = plot_practitioner},
    {.single = plot_sphere},
};

int report_plot_one(report *rp, const char *group, const char *scenario, fb_err *err)
{
  for (size_t k = 0; k < sizeof plot_kinds / sizeof plot_kinds[0]; k++) {
    const plot_kind *pk = &plot_kinds[k];
    if (pk->group != NULL && streq(pk->group, group))
      return pk->single != NULL ? pk->single(rp, err) : plot_of_kind(rp, pk, scenario, err);
  }
  return fb_err_set(err, FB_EINVAL, "no plot of group '%s'", group);
}

/* Every plot of plot_kinds, in order; stops at the first failure that is not a plot's own. */
int report_plots_all(report *rp, fb_err *err)
{
  int st = FB_OK;
  for (size_t k = 0; k < sizeof plot_kinds / sizeof plot_kinds[0] && st == FB_OK; k++)
    st = plots_of_kind(rp, &plot_kinds[k], err);
  return st;
}
