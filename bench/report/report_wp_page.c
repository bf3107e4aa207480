/* report_wp_page.c — the work-precision diagram of every scenario with ladders, drawn for
 * its page (report_pages.c) and report.html's plot list: plots/wp_<scenario>.png, the L2
 * error of x against RHS evaluations (left) and against CPU time (right), one curve per
 * ladder (docs/design.md §8).
 *
 * A ladder is any set of successful runs of a scenario that differ only in their step h
 * (fixed) or their tolerance (adaptive): the rows of runs.csv sharing group, model,
 * integrator, mode, tag, scenario and model parameters, with at least two distinct steps
 * or tolerances.  Nothing here names a group or a scenario, so a scenario added later
 * gets its diagram when the suite runs a ladder on it.
 *
 * Legibility: one colour and marker per treatment (model/integrator), one dash type per
 * variant (group, mode, tag), at most WPP_PER_PANEL curves per panel (more treatments
 * split into panels stacked below), the legend to the right of the data (scripts/wp_page.gp).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"
#include "report_pages.h"

#define WPP_PER_PANEL 8
#define WPP_MAX_CURVES 48 /* 6 panels */
#define WPP_MAX_VARIANTS 16

typedef struct wpp_curve {
  size_t first;             /* a row of the ladder (its key) */
  size_t idx[MAX_POINTS];
  size_t n;
  int treatment, variant;   /* indices into the plot's lists */
} wpp_curve;

typedef struct wpp_set {
  wpp_curve c[WPP_MAX_CURVES];
  size_t n, dropped;
  names treat;              /* "model/integrator" (pointers into tbuf) */
  char tbuf[WPP_MAX_CURVES][160];
  char vbuf[WPP_MAX_VARIANTS][160];
  size_t nv;
} wpp_set;

/* A row a diagram can draw. */
static int wpp_point(const run *r)
{
  return r->ok && isfinite(r->err_x_l2) && r->err_x_l2 > 0 && r->nfe > 0 && r->cpu_s > 0 &&
         (r->h > 0 || r->atol > 0);
}

/* The step or tolerance that runs along a ladder. */
static double wpp_rung(const run *r)
{
  return r->h > 0 ? r->h : r->atol;
}

/* Whether two rows have the same swept value, a swept step or tolerance aside (it is the
 * rung); a value kept outside the parameter lists (a normal treatment's) tells ladders apart. */
static int same_value(const run *x, const run *y)
{
  if (x->value == wpp_rung(x) && y->value == wpp_rung(y))
    return 1;
  return isnan(x->value) ? isnan(y->value) : x->value == y->value;
}

/* Whether rows a and b belong to the same ladder (everything but the step or tolerance). */
static int wpp_same(const runs *R, size_t a, size_t b)
{
  const run *x = &R->r[a], *y = &R->r[b];
  return streq(x->scenario, y->scenario) && streq(x->group, y->group) && streq(x->model, y->model) &&
         streq(x->integrator, y->integrator) && streq(x->mode, y->mode) && streq(x->tag, y->tag) &&
         streq(x->sparams, y->sparams) &&
         streq(run_field(R, x, "model_params"), run_field(R, y, "model_params")) &&
         streq(x->sweep, y->sweep) && same_value(x, y);
}

const char *run_field(const runs *R, const run *r, const char *col)
{
  const int c = fb_csv_col(&R->t, col), cid = fb_csv_col(&R->t, "run_id");
  if (c < 0 || r < R->r || r >= R->r + R->n)
    return "";
  /* runs_fill skips rows that are not runs: the row is at or after the run's index */
  for (size_t k = (size_t)(r - R->r); k < R->t.nrows; k++)
    if (fb_csv_d(&R->t, k, cid) == (double)r->id && streq(fb_csv_s(&R->t, k, fb_csv_col(&R->t, "scenario")), r->scenario))
      return fb_csv_s(&R->t, k, c);
  return "";
}


static const char *wpp_variant_label(const run *r, char *buf, size_t len)
{
  snprintf(buf, len, "%s%s%s, %s", r->group, r->tag[0] ? " " : "", r->tag,
           r->h > 0 ? "fixed h" : "tolerance");
  return buf;
}

/* The ladders of scenario scn, in the order treatments first appear in runs.csv. */
static void wpp_collect(const runs *R, const char *scn, wpp_set *W)
{
  memset(W, 0, sizeof *W);
  int *used = calloc(R->n ? R->n : 1, sizeof *used);
  if (used == NULL)
    return;
  for (size_t a = 0; a < R->n; a++) {
    if (used[a] || !streq(R->r[a].scenario, scn) || !wpp_point(&R->r[a]))
      continue;
    wpp_curve cv = {.first = a};
    for (size_t b = a; b < R->n; b++) {
      if (used[b] || !wpp_point(&R->r[b]) || !wpp_same(R, a, b))
        continue;
      used[b] = 1;
      if (cv.n < MAX_POINTS)
        cv.idx[cv.n++] = b;
    }
    /* a ladder: at least two distinct rungs */
    int distinct = 0;
    for (size_t q = 1; q < cv.n && !distinct; q++)
      distinct = wpp_rung(&R->r[cv.idx[q]]) != wpp_rung(&R->r[cv.idx[0]]);
    if (!distinct)
      continue;
    if (W->n == WPP_MAX_CURVES) {
      W->dropped++;
      continue;
    }
    /* points by rising evaluations */
    for (size_t p = 1; p < cv.n; p++)
      for (size_t q = p; q > 0 && R->r[cv.idx[q]].nfe < R->r[cv.idx[q - 1]].nfe; q--) {
        const size_t t = cv.idx[q];
        cv.idx[q] = cv.idx[q - 1];
        cv.idx[q - 1] = t;
      }
    const run *r = &R->r[a];
    char tr[160], vr[160];
    snprintf(tr, sizeof tr, "%s/%s", r->model, r->integrator);
    long t = names_find(&W->treat, tr);
    if (t < 0 && W->treat.n < WPP_MAX_CURVES) {
      snprintf(W->tbuf[W->treat.n], sizeof W->tbuf[0], "%s", tr);
      names_add(&W->treat, W->tbuf[W->treat.n]);
      t = (long)W->treat.n - 1;
    }
    wpp_variant_label(r, vr, sizeof vr);
    long v = -1;
    for (size_t k = 0; k < W->nv && v < 0; k++)
      if (streq(W->vbuf[k], vr))
        v = (long)k;
    if (v < 0 && W->nv < WPP_MAX_VARIANTS) {
      snprintf(W->vbuf[W->nv], sizeof W->vbuf[0], "%s", vr);
      v = (long)W->nv++;
    }
    cv.treatment = (int)(t < 0 ? 0 : t);
    cv.variant = (int)(v < 0 ? 0 : v);
    W->c[W->n++] = cv;
  }
  free(used);
  /* curves grouped by treatment (stable), so that a panel's treatments are consecutive */
  for (size_t p = 1; p < W->n; p++)
    for (size_t q = p; q > 0 && W->c[q].treatment < W->c[q - 1].treatment; q--) {
      const wpp_curve t = W->c[q];
      W->c[q] = W->c[q - 1];
      W->c[q - 1] = t;
    }
}

/* Whether scenario scn has at least one ladder (its page shows the diagram). */
int wp_page_has_ladders(const report *rp, const char *scn)
{
  wpp_set *W = malloc(sizeof *W);
  if (W == NULL)
    return 0;
  wpp_collect(&rp->R, scn, W);
  const int has = W->n > 0;
  free(W);
  return has;
}

/* Eight colours and point types told apart in print and by colour-blind readers
 * (Okabe-Ito plus black), one per treatment of a panel. */
static const char *const wpp_colors[WPP_PER_PANEL] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                     "#E69F00", "#56B4E9", "#000000", "#8B4513"};
static const int wpp_pts[WPP_PER_PANEL] = {7, 5, 9, 11, 13, 4, 6, 8};

/* The one-sentence reading: the lowest error, and the fewest evaluations reaching 10x it. */
static void wpp_reading(const runs *R, const wpp_set *W, sbuf *rd)
{
  const run *best = NULL, *cheap = NULL;
  for (size_t i = 0; i < W->n; i++)
    for (size_t q = 0; q < W->c[i].n; q++) {
      const run *r = &R->r[W->c[i].idx[q]];
      if (best == NULL || r->err_x_l2 < best->err_x_l2)
        best = r;
    }
  if (best == NULL)
    return;
  for (size_t i = 0; i < W->n; i++)
    for (size_t q = 0; q < W->c[i].n; q++) {
      const run *r = &R->r[W->c[i].idx[q]];
      if (r->err_x_l2 <= 10 * best->err_x_l2 && (cheap == NULL || r->nfe < cheap->nfe))
        cheap = r;
    }
  char step[48];
  run_step(best, step, sizeof step);
  sb_printf(rd, "%zu ladder%s of %zu treatment%s; the lowest error, ", W->n, W->n == 1 ? "" : "s",
            W->treat.n, W->treat.n == 1 ? "" : "s");
  sb_num(rd, best->err_x_l2);
  sb_printf(rd, ", by %s/%s %s (%.3g evaluations, %.2g s CPU)", best->model, best->integrator, step,
            best->nfe, best->cpu_s);
  if (cheap != NULL && cheap != best) {
    run_step(cheap, step, sizeof step);
    sb_printf(rd, "; within 10x of it with the fewest evaluations: %s/%s %s (%.3g, error ", cheap->model,
              cheap->integrator, step, cheap->nfe);
    sb_num(rd, cheap->err_x_l2);
    sb_puts(rd, ")");
  }
  if (W->dropped > 0)
    sb_printf(rd, "; %zu further ladder%s not drawn (at most %d)", W->dropped, W->dropped == 1 ? "" : "s",
              WPP_MAX_CURVES);
  sb_puts(rd, ".");
}

static int wpp_draw(report *rp, plot_entry *p, const char *scn, const wpp_set *W, fb_err *err)
{
  const runs *R = &rp->R;
  plot_build b = {0};
  size_t npanel = 0, in_panel = 0, panel_treat0 = 0, nfloor = 0;
  /* one range for every panel, in whole decades, so that panels compare by eye; errors
   * below the round-off floor do not stretch it (drawn at its lower edge, and noted) */
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {0, 0, 0};
  for (size_t i = 0; i < W->n; i++)
    for (size_t q = 0; q < W->c[i].n; q++) {
      const run *x = &R->r[W->c[i].idx[q]];
      const double v[3] = {x->nfe, x->cpu_s, fmin(x->err_x_l2, ERR_CEIL)};
      for (int j = 0; j < 3; j++) {
        if (j == 2 && v[j] < ERR_FLOOR)
          continue;
        lo[j] = fmin(lo[j], v[j]);
        hi[j] = fmax(hi[j], v[j]);
      }
    }
  if (!(hi[2] > 0)) /* every error at round-off */
    lo[2] = hi[2] = ERR_FLOOR;
  for (int j = 0; j < 3; j++) {
    lo[j] = pow(10, floor(log10(lo[j])));
    hi[j] = pow(10, ceil(log10(hi[j]) + 1e-9));
  }
  if (hi[2] < 100 * lo[2]) /* at least two decades of error: room for the floor's points */
    lo[2] /= 10;
  for (size_t i = 0; i < W->n; i++) {
    const wpp_curve *cv = &W->c[i];
    /* a new panel every WPP_PER_PANEL curves, and never one treatment over two panels
     * unless it alone has more curves than a panel holds */
    size_t same = 0;
    for (size_t j = i; j < W->n && W->c[j].treatment == cv->treatment; j++)
      same++;
    const int first_of_treatment = i == 0 || W->c[i - 1].treatment != cv->treatment;
    if (npanel == 0 || in_panel == WPP_PER_PANEL ||
        (first_of_treatment && in_panel + (same < WPP_PER_PANEL ? same : WPP_PER_PANEL) > WPP_PER_PANEL)) {
      if (npanel > 0)
        sb_printf(pb_var(&b, "plast"), "%zu ", i);
      sb_printf(pb_var(&b, "pfirst"), "%zu ", i + 1);
      npanel++;
      in_panel = 0;
      panel_treat0 = (size_t)cv->treatment;
    }
    in_panel++;
    const run *r = &R->r[cv->first];
    char t[360];
    snprintf(t, sizeof t, "%s/%s (%s)", r->model, r->integrator, W->vbuf[cv->variant]);
    pb_block(&b, t);
    for (size_t q = 0; q < cv->n; q++) {
      const run *x = &R->r[cv->idx[q]];
      sb_dat(&b.data, x->nfe);
      sb_dat(&b.data, x->cpu_s);
      sb_dat(&b.data, x->err_x_l2 < ERR_FLOOR ? lo[2] : fmin(x->err_x_l2, ERR_CEIL));
      sb_puts(&b.data, "\n");
      nfloor += x->err_x_l2 < ERR_FLOOR;
      b.nceil += x->err_x_l2 > ERR_CEIL;
    }
    b.nb++;
    const size_t slot = ((size_t)cv->treatment - panel_treat0) % WPP_PER_PANEL;
    sb_gword(pb_var(&b, "colors"), wpp_colors[slot]);
    sb_printf(pb_var(&b, "pts"), "%d ", wpp_pts[slot]);
    sb_printf(pb_var(&b, "dts"), "%d ", 1 + cv->variant % 5);
  }
  sb_printf(pb_var(&b, "plast"), "%zu ", W->n);
  if (nfloor > 0)
    sb_printf(pb_var(&b, "note"), "%zu error%s < %.0e (round-off) drawn at the lower edge", nfloor,
              nfloor == 1 ? "" : "s", ERR_FLOOR);
  if (b.nceil > 0)
    sb_printf(pb_var(&b, "note"), "%s%zu error%s > %.0e (blow-up) drawn at %.0e", nfloor ? "; " : "", b.nceil,
              b.nceil == 1 ? "" : "s", ERR_CEIL, ERR_CEIL);
  sb_printf(pb_var(&b, "scen"), "%s: work-precision, one curve per ladder (colour and marker: treatment; "
                                "dash: variant)", scn);
  wpp_reading(R, W, &p->reading);
  const int st = plot_draw(rp, p, "wp_page.gp", &b, err, "np=%zu; W=1500; H=%zu; nlo=%g; nhi=%g; clo=%g; chi=%g; elo=%g; ehi=%g",
                           npanel, (size_t)140 + 430 * npanel, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
  pb_free(&b);
  return st;
}

/* One diagram per scenario of runs.csv with a ladder, plots/wp_<scenario>. */
int plot_wp_pages(report *rp, fb_err *err)
{
  names sc = {{0}, 0};
  for (size_t k = 0; k < rp->R.n; k++)
    names_add(&sc, rp->R.r[k].scenario);
  wpp_set *W = malloc(sizeof *W);
  if (W == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  int st = FB_OK;
  for (size_t i = 0; i < sc.n && st == FB_OK; i++) {
    wpp_collect(&rp->R, sc.s[i], W);
    if (W->n == 0)
      continue;
    char title[256];
    snprintf(title, sizeof title, "%s: work-precision (error of x against evaluations and CPU time)", sc.s[i]);
    plot_entry *p = plot_new(rp, title, "wp_%s", sc.s[i]);
    if (p != NULL)
      st = wpp_draw(rp, p, sc.s[i], W, err);
  }
  free(W);
  return st;
}
