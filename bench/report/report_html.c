/* report_html.c — report.html: the run, the verdict tables, the plots with their readings,
 * the omissions and the numbers (fb_report.h, docs/design.md §8). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"
#include "report_pages.h"

#include <jansson.h>

/* ==== report.html ========================================================================= */

static const char html_css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:0 auto;max-width:1320px;padding:0 24px 40px;"
    "color:#1b1b1b;line-height:1.45;font-size:15px}"
    "h1{margin:22px 0 4px}h2{border-bottom:2px solid #ccc;padding-bottom:4px;margin-top:38px}"
    "h3{margin:26px 0 6px;font-size:17px}"
    "nav a{margin-right:16px}nav{margin:8px 0 0;padding:8px 0;border-top:1px solid #ddd;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;margin:10px 0 18px;font-size:13.5px}"
    "th,td{border:1px solid #c8c8c8;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.good{background:#e3f4e1}td.bad{background:#fbe3e1}td.unk{background:#f3f3f3;color:#666}"
    ".small{font-size:12px;color:#555}.warn{color:#a00000;font-weight:bold}"
    "figure{margin:0 0 30px;padding:0}figure img{max-width:100%;border:1px solid #ddd}"
    "figcaption{margin:6px 0 2px;font-size:15px}.files{font-size:12.5px;color:#555;margin:2px 0}"
    "code{background:#f4f4f4;padding:0 3px}ul.rules li{margin-bottom:4px}"
    ".err{color:#a00000}";

static const char *group_about(const char *g)
{
  static const struct {
    const char *g, *about;
  } map[] = {
      {"baseline", "every scenario x every model, its default integrator; trajectories kept"},
      {"fixed-step", "every model at one common step and a quarter of it (the fixed-step view)"},
      {"convergence", "non-dyadic fixed-step ladders (ratio 1.7) on the closed-form scenarios and "
                      "stick-slip"},
      {"work-precision", "tolerance ladders (atol = rtol) of the adaptive steppers"},
      {"cost-mu", "ladders of the friction coefficient mu (coupled-sledges at A = 10 and A = 2)"},
      {"regularization", "ladders of each regularization parameter"},
      {"drift", "the drift variants (sub-breakaway loads), every model"},
      {"grid", "[Engleder2002]'s eps x h grid on two-mass-drive (penalty model, Newmark)"},
      {"awrejcewicz", "[Xiong2013] §5.3: the DAI->ODE (eq. 49) and the linear smoothing (eq. 50, "
                      "eps ladder) on the conveyor oscillator; trajectories kept"},
      {"spatial", "2-D contacts: the box (pyramidal) cone on puck and billiard beside the "
                  "baseline's disc, for the models that offer the choice"},
      {"contact", "every normal treatment on bouncing-ball (e = 0.7, 0.3), block-drop and "
                  "impact-oscillator; trajectories kept on the first two"},
      {"restitution", "bouncing-ball with the nominal e swept over 0.1 ... 0.9, every treatment"},
      {"contact-wp", "bouncing-ball (e = 0.7): tolerance ladder of the contact scheme's stepper "
                     "(step ladder for moreau-jean)"},
      {"contact-stiffness", "bouncing-ball (e = 0.7): ladder of each force law's stiffness"},
      {"sphere", "sphere-drop ([Xiong2013] §5.1): every normal treatment at mu = 0.1 and 0.2 "
                 "(early-roll), and every friction model with a vector ODE law under penalty-n"},
      {"conveyor", "conveyor-wall (default, e = 0, pinned start): every treatment that takes "
                   "normals coupled through the mass matrix"},
      {"practitioner", "the practitioners' questions: push-hold's creep against r at 1 ms and "
                       "0.1 ms, sliding at r = 2, rest energy; the puck's yaw sweep"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (streq(map[i].g, g))
      return map[i].about;
  return "";
}

static void html_meta_row(sbuf *h, const char *label, const char *value)
{
  sb_puts(h, "<tr><th>");
  sb_html(h, label);
  sb_puts(h, "</th><td>");
  sb_html(h, value[0] ? value : "unknown");
  sb_puts(h, "</td></tr>\n");
}

/* meta.json's engines (docs/engines.md): one row each, its version, or the note that it was
 * absent and skipped (never a failure). */
static void html_engine_rows(sbuf *h, const char *meta)
{
  json_t *root = json_loads(meta, 0, NULL);
  json_t *engines = json_object_get(root, "engines");
  const char *name;
  json_t *e;
  json_object_foreach(engines, name, e) {
    char label[96], value[320];
    snprintf(label, sizeof label, "engine %s", name);
    const char *ver = json_string_value(json_object_get(e, "version"));
    const char *why = json_string_value(json_object_get(e, "why"));
    if (json_is_true(json_object_get(e, "present")))
      snprintf(value, sizeof value, "present: %s", ver != NULL ? ver : "?");
    else
      snprintf(value, sizeof value, "absent, skipped (no rows): %s", why != NULL ? why : "?");
    html_meta_row(h, label, value);
  }
  json_decref(root);
}

static void html_run(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  char b[512];
  fb_run_tally all = {0};
  names sc = {{0}, 0}, md = {{0}, 0}, groups = {{0}, 0};
  double wall_sum = 0;
  for (size_t k = 0; k < R->n; k++) {
    fb_run_tally_add(&all, R->r[k].status, R->r[k].model, R->r[k].integrator);
    names_add(&sc, R->r[k].scenario);
    names_add(&md, R->r[k].model);
    names_add(&groups, R->r[k].group);
    if (R->r[k].wall_s > 0)
      wall_sum += R->r[k].wall_s;
  }
  sb_puts(h, "<section id=\"run\">\n<h2>What was run</h2>\n<p>");
  char counts[160];
  fb_run_tally_text(&all, counts, sizeof counts);
  sb_html(h, counts);
  sb_printf(h, " of %zu scenarios x %zu models", sc.n, md.n);
  const char *m = rp->meta;
  if (m != NULL) {
    fb_json_get(m, "wall_time_s", b, sizeof b);
    sb_puts(h, "; suite wall time ");
    sb_html(h, b[0] ? b : "unknown");
    fb_json_get(m, "jobs", b, sizeof b);
    sb_puts(h, " s on ");
    sb_html(h, b[0] ? b : "?");
    fb_json_get(m, "quick", b, sizeof b);
    sb_printf(h, " threads, %s suite", streq(b, "true") ? "the --quick" : "the full");
  }
  sb_printf(h, "; the runs' own wall times add up to %.3g s.</p>\n", wall_sum);
  sb_puts(h, "<p>Scenarios (each links to its page: equations, parameters, reference, plots, verdicts "
             "and the commands of its runs): ");
  for (size_t i = 0; i < sc.n; i++) {
    sb_puts(h, i ? ", " : "");
    html_scenario_link(h, sc.s[i]);
  }
  sb_puts(h, ".<br>Models: ");
  for (size_t i = 0; i < md.n; i++) {
    sb_puts(h, i ? ", " : "");
    sb_html(h, md.s[i]);
  }
  sb_puts(h, ".</p>\n<table>\n");
  if (m != NULL) {
    static const struct {
      const char *key, *label;
    } rows[] = {
        {"date", "date (UTC)"},        {"git_revision", "git revision"},
        {"fricbench_version", "fricbench version"}, {"compiler", "compiler"},
        {"build", "build"},            {"gsl_version", "GSL version"},
        {"system", "system"},          {"release", "kernel release"},
        {"arch", "architecture"},      {"cpu", "CPU"},
        {"cores", "cores"},            {"samples", "trajectory samples per run"},
        {"max_steps", "step budget per run"}, {"max_rhs", "RHS budget per run"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
      fb_json_get(m, rows[i].key, b, sizeof b);
      html_meta_row(h, rows[i].label, b);
    }
    html_engine_rows(h, m);
  } else {
    html_meta_row(h, "meta.json", "absent or older than runs.csv: machine, versions and wall time unknown");
  }
  sb_puts(h, "</table>\n<table>\n<tr><th>group</th><th>what</th><th>runs</th><th>ok</th>"
             "<th>unstable</th><th>suspect</th><th>budget</th><th>failed</th><th>scenarios</th>"
             "<th>models</th></tr>\n");
  for (size_t g = 0; g < groups.n; g++) {
    fb_run_tally t = {0};
    names gs = {{0}, 0}, gm = {{0}, 0};
    for (size_t k = 0; k < R->n; k++)
      if (streq(R->r[k].group, groups.s[g])) {
        fb_run_tally_add(&t, R->r[k].status, R->r[k].model, R->r[k].integrator);
        names_add(&gs, R->r[k].scenario);
        names_add(&gm, R->r[k].model);
      }
    sb_puts(h, "<tr><td>");
    sb_html(h, groups.s[g]);
    sb_puts(h, "</td><td>");
    sb_html(h, group_about(groups.s[g]));
    sb_printf(h, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                 "<td class=\"num\">%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
                 "<td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
              t.n, t.ok, t.unstable, t.suspect, t.budget, t.failed, gs.n, gm.n);
  }
  sb_puts(h, "</table>\n</section>\n");
}

/* One verdict cell: the verdict, its number and where it was judged (title). */
static void vcell(sbuf *h, const fb_vrow *r)
{
  if (r == NULL) {
    sb_puts(h, "<td class=\"unk\">&ndash;</td>");
    return;
  }
  const char *v = r->verdict;
  const int good = strncmp(v, "yes", 3) == 0 ? (streq(r->property, "stick") ? 1 : 0)
                   : strncmp(v, "no", 2) == 0 && strncmp(v, "no asym", 7) != 0
                       ? (streq(r->property, "stick") ? 0 : 1)
                   : streq(v, "dissipative") ? 1
                   /* spatial friction (view spatial) */
                   : streq(v, "right") || streq(v, "on time") || streq(v, "follows") ? 1
                   : streq(v, "off") || streq(v, "late") || streq(v, "early") || streq(v, "never") ||
                           streq(v, "departs")
                       ? 0
                   /* normal contact (view contact) */
                   : strncmp(v, "as set", 6) == 0 || streq(v, "rests") ? 1
                   : strncmp(v, "off by", 6) == 0 || strncmp(v, "sucks", 5) == 0 ||
                           strncmp(v, "does not rest", 13) == 0
                       ? 0
                   : streq(v, "creates energy") ? 0
                   /* hold and stability (docs/design.md §10.1-10.2) */
                   : streq(v, "holds") || strncmp(v, "stable", 6) == 0 ? 1
                   : strncmp(v, "slips", 5) == 0 || strncmp(v, "creeps", 6) == 0 ||
                           strncmp(v, "unstable", 8) == 0 || strncmp(v, "accumulates", 11) == 0
                       ? 0
                                                : -1;
  sb_printf(h, "<td class=\"%s\" title=\"", good == 1 ? "good" : good == 0 ? "bad" : "");
  sb_html(h, r->scenarios);
  sb_puts(h, "\"><b>");
  sb_html(h, v);
  sb_puts(h, "</b><br><span class=\"small\">");
  if (!isnan(r->value)) {
    sb_num(h, r->value);
    sb_puts(h, " ");
    sb_html(h, r->unit);
  }
  if (!isnan(r->value2) && (streq(r->property, "stick") || strncmp(r->property, "cost", 4) == 0)) {
    sb_puts(h, streq(r->property, "stick") ? "; by flag " : "; E_tot ");
    sb_num(h, r->value2);
  }
  sb_puts(h, "</span></td>");
}

static const fb_vrow *vfind(const fb_vtable *vt, const fb_vrow *key, const char *property)
{
  for (size_t k = 0; k < vt->n; k++) {
    const fb_vrow *r = &vt->r[k];
    if (streq(r->model, key->model) && streq(r->integrator, key->integrator) &&
        streq(r->view, key->view) && streq(r->step, key->step) && streq(r->property, property))
      return r;
  }
  return NULL;
}

/* The table of one view: a row per (model, integrator, step), a column per property. */
static void vtable_view(sbuf *h, const fb_vtable *vt, const char *view, const char *const *props,
                        size_t np)
{
  sb_puts(h, "<table>\n<tr><th>model</th><th>integrator</th><th>step</th>");
  for (size_t p = 0; p < np; p++)
    sb_printf(h, "<th>%s</th>", props[p]);
  sb_puts(h, "</tr>\n");
  for (size_t k = 0; k < vt->n; k++) {
    const fb_vrow *r = &vt->r[k];
    if (!streq(r->view, view))
      continue;
    int first = 1; /* the first row of its key */
    for (size_t j = 0; j < k && first; j++)
      first = !(streq(vt->r[j].model, r->model) && streq(vt->r[j].integrator, r->integrator) &&
                streq(vt->r[j].view, r->view) && streq(vt->r[j].step, r->step));
    if (!first)
      continue;
    sb_printf(h, "<tr><th style=\"color:%s\">", model_color(r->model));
    sb_html(h, r->model);
    sb_puts(h, "</th><td>");
    sb_html(h, r->integrator);
    sb_puts(h, "</td><td>");
    sb_html(h, r->step);
    sb_puts(h, "</td>");
    for (size_t p = 0; p < np; p++)
      vcell(h, vfind(vt, r, props[p]));
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n");
}

/* Rank of a hold verdict for the answer table: holds first, unstable last. */
static int hold_rank(const char *v)
{
  return v == NULL                       ? 5
         : streq(v, "holds")             ? 0
         : strncmp(v, "shifts", 6) == 0  ? 1
         : strncmp(v, "creeps", 6) == 0 || strncmp(v, "accumulates", 11) == 0 ? 2
         : strncmp(v, "slips", 5) == 0   ? 3
                                         : 4;
}

/* The answer first (issue 23 item 8): the fixed-step view at the judged step, one row per
 * treatment, ranked by hold (holds, shifts, creeps, slips, unstable) then by cost per
 * simulated second. */
static void html_answer(sbuf *h, const fb_vtable *vt, const report *rp)
{
  size_t idx[256], n = 0;
  for (size_t k = 0; k < vt->n && n < 256; k++) {
    const fb_vrow *r = &vt->r[k];
    if (!streq(r->view, "fixed-step") || !streq(r->property, "hold"))
      continue;
    idx[n++] = k;
  }
  if (n == 0)
    return;
  /* insertion sort: a few dozen rows */
  for (size_t a = 1; a < n; a++)
    for (size_t b = a; b > 0; b--) {
      const fb_vrow *x = &vt->r[idx[b - 1]], *y = &vt->r[idx[b]];
      const fb_vrow *cx = vfind(vt, x, "cost/s"), *cy = vfind(vt, y, "cost/s");
      const int rx = hold_rank(x->verdict), ry = hold_rank(y->verdict);
      const double ex = cx ? cx->value : (double)INFINITY, ey = cy ? cy->value : (double)INFINITY;
      if (rx < ry || (rx == ry && !(ey < ex)))
        break;
      const size_t t = idx[b - 1];
      idx[b - 1] = idx[b];
      idx[b] = t;
    }
  sb_printf(h, "<section id=\"answer\">\n<h2>The answer at %s</h2>\n<p>Every treatment at the "
               "judged fixed step (the fixed-step view: the user's <code>--h</code>, or 1 ms), "
               "ranked: does it hold the contact where exact Coulomb friction holds it, how fast "
               "it creeps, up to what step it is stable, whether it chatters, whether it creates "
               "energy, and what a simulated second costs.  Each cell is a row of "
               "<code>verdicts.csv</code> (hover for the scenarios); the rules are under "
               "Verdicts.</p>\n<table>\n<tr><th>#</th><th>model</th><th>integrator</th>"
               "<th>holds?</th><th>creep [m/s]</th><th>stable up to</th><th>chatter</th>"
               "<th>energy</th><th>evaluations per simulated second</th>"
               "<th>CPU per simulated second [s]</th></tr>\n",
            vt->r[idx[0]].step);
  for (size_t a = 0; a < n; a++) {
    const fb_vrow *r = &vt->r[idx[a]];
    sb_printf(h, "<tr><td class=\"num\">%zu</td><th style=\"color:%s\">", a + 1,
              model_color(r->model));
    sb_html(h, r->model);
    sb_puts(h, "</th><td>");
    sb_html(h, r->integrator);
    sb_puts(h, "</td>");
    vcell(h, r);
    sb_puts(h, "<td class=\"num\">");
    if (isnan(r->value) || strncmp(r->verdict, "unstable", 8) == 0)
      sb_puts(h, "&ndash;");
    else
      sb_num(h, fabs(r->value));
    sb_puts(h, "</td>");
    vcell(h, vfind(vt, r, "stable-step"));
    vcell(h, vfind(vt, r, "chatter"));
    vcell(h, vfind(vt, r, "energy"));
    vcell(h, vfind(vt, r, "cost/s"));
    /* CPU time is a measurement, not a verdict: summed here from runs.csv's ok runs of the
     * set (the fixed-step group at the judged step) */
    double cpu = 0, sim = 0;
    const double hj = strtod(r->step + 2, NULL); /* "h=0.001" */
    for (size_t k = 0; k < rp->R.n; k++) {
      const run *q = &rp->R.r[k];
      if (q->ok && streq(q->group, "fixed-step") && streq(q->model, r->model) &&
          streq(q->integrator, r->integrator) && q->h == hj && q->t_reached > 0 &&
          !isnan(q->cpu_s)) {
        cpu += q->cpu_s;
        sim += q->t_reached;
      }
    }
    sb_puts(h, "<td class=\"num\">");
    if (sim > 0)
      sb_num(h, cpu / sim);
    else
      sb_puts(h, "&ndash;");
    sb_puts(h, "</td></tr>\n");
  }
  sb_puts(h, "</table>\n</section>\n");
}

static void html_verdicts(sbuf *h, const fb_vtable *vt)
{
  sb_puts(h, "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<p>Drawn from <code>verdicts.csv</code> "
             "(and <code>verdicts.json</code>), one row per model, integrator, step and property, "
             "with the rule, the number and the scenarios it was judged on (hover a cell).  Only "
             "runs with status ok are scored: unstable, suspect, failed and budget runs never are.  Green is "
             "good news, red bad news.</p>\n");
  static const char *const pd[] = {"stick", "hold", "chatter", "energy"};
  static const char *const pf[] = {"stick", "hold", "creep", "stable-step", "chatter", "energy",
                                   "cost/s"};
  static const char *const po[] = {"order"};
  sb_puts(h, "<h3>Each model at its defaults</h3>\n");
  vtable_view(h, vt, "defaults", pd, 4);
  sb_puts(h, "<h3>Every model at one common fixed step</h3>\n<p>Chatter is classified and "
             "creep separated from model drift with a second run at a quarter of the step.</p>\n");
  vtable_view(h, vt, "fixed-step", pf, 7);
  sb_puts(h, "<h3>Observed order of the discretization error</h3>\n");
  vtable_view(h, vt, "convergence", po, 1);
  names costs = {{0}, 0};
  for (size_t k = 0; k < vt->n; k++)
    if (strncmp(vt->r[k].property, "cost", 4) == 0)
      names_add(&costs, vt->r[k].property);
  sb_puts(h, "<h3>Cost at matched accuracy</h3>\n");
  vtable_view(h, vt, "matched", (const char *const *)costs.s, costs.n);
  static const char *const pc[] = {"restitution", "no-sucking", "rests"};
  sb_puts(h, "<h3>Normal contact: each treatment</h3>\n<p>The model column holds the normal "
             "treatment (docs/design.md §12).</p>\n");
  vtable_view(h, vt, "contact", pc, 3);
  static const char *const ps[] = {"direction", "stop time", "path"};
  sb_puts(h, "<h3>2-D contacts: disc and box</h3>\n<p>The 2-D scenarios (puck, billiard); the "
             "step column names the friction set (docs/design.md §13).  Models without a "
             "vector form are not run there: <code>fricbench list models</code> says which.</p>\n");
  vtable_view(h, vt, "spatial", ps, 3);
  sb_puts(h, "<h3>Rules</h3>\n<ul class=\"rules\">\n");
  names done = {{0}, 0};
  for (size_t k = 0; k < vt->n; k++) {
    const char *p = strncmp(vt->r[k].property, "cost", 4) == 0 ? "cost" : vt->r[k].property;
    if (names_find(&done, p) >= 0)
      continue;
    names_add(&done, p);
    sb_printf(h, "<li><b>%s</b>: ", p);
    sb_html(h, vt->r[k].rule);
    sb_puts(h, ".</li>\n");
  }
  sb_puts(h, "</ul>\n</section>\n");
}

/* The source papers' headline claims, from seed-claims.csv (bench/analysis/fb_seed_claims.h):
 * reproduced green, not reproduced red, partly and not measured grey. */
static void html_seed_claims(sbuf *h, const report *rp)
{
  char path[PATH_LEN];
  fb_csv T;
  sb_puts(h, "<section id=\"seed-claims\">\n<h2>Seed claims</h2>\n<p>Drawn from "
             "<code>seed-claims.csv</code>: each headline claim of the five source papers, how "
             "it is measured here, the number and whether this suite reproduces it, judged from "
             "runs with status ok only (docs/design.md §10).</p>\n");
  if (path_fmt(path, sizeof path, "%s/seed-claims.csv", rp->dir) != 0 ||
      fb_csv_load(&T, path, NULL) != FB_OK) {
    sb_puts(h, "<p class=\"err\">seed-claims.csv is absent or unreadable.</p>\n</section>\n");
    return;
  }
  static const char *const cols[] = {"seed", "claim", "measure", "value", "verdict", "why"};
  int c[6];
  for (size_t i = 0; i < 6; i++)
    c[i] = fb_csv_col(&T, cols[i]);
  sb_puts(h, "<table>\n<tr><th>seed</th><th>claim</th><th>measured here</th><th>value</th>"
             "<th>verdict</th><th>why</th></tr>\n");
  for (size_t k = 0; k < T.nrows; k++) {
    const char *v = fb_csv_s(&T, k, c[4]);
    const double x = fb_csv_d(&T, k, c[3]);
    sb_puts(h, "<tr><td>");
    sb_html(h, fb_csv_s(&T, k, c[0]));
    sb_puts(h, "</td><td>");
    sb_html(h, fb_csv_s(&T, k, c[1]));
    sb_puts(h, "</td><td class=\"small\">");
    sb_html(h, fb_csv_s(&T, k, c[2]));
    sb_puts(h, "</td><td class=\"num\">");
    if (!isnan(x))
      sb_num(h, x);
    sb_printf(h, "</td><td class=\"%s\"><b>", streq(v, "reproduced") ? "good"
                                             : streq(v, "not reproduced") ? "bad" : "unk");
    sb_html(h, v);
    sb_puts(h, "</b></td><td class=\"small\">");
    sb_html(h, fb_csv_s(&T, k, c[5]));
    sb_puts(h, "</td></tr>\n");
  }
  sb_puts(h, "</table>\n</section>\n");
  fb_csv_free(&T);
}

static void html_plots(sbuf *h, const report *rp)
{
  sb_puts(h, "<section id=\"plots\">\n<h2>Plots</h2>\n<p>Every plot with one sentence read off its data.  "
             "The PNG files, the data file beside each (and an SVG with <code>--svg</code>) are in "
             "<code>plots/</code> next to this page, which shows the PNGs from there.</p>\n<ul>\n");
  for (size_t i = 0; i < rp->nplots; i++) {
    sb_printf(h, "<li><a href=\"#plot-%s\">", rp->plots[i].name);
    sb_html(h, rp->plots[i].title);
    sb_puts(h, "</a></li>\n");
  }
  sb_puts(h, "</ul>\n");
  for (size_t i = 0; i < rp->nplots; i++) {
    const plot_entry *p = &rp->plots[i];
    sb_printf(h, "<figure id=\"plot-%s\">\n<h3>", p->name);
    sb_html(h, p->title);
    sb_puts(h, "</h3>\n");
    char path[PATH_LEN];
    /* linked, not embedded: the page is read beside plots/ (fb_report.h) */
    if (p->ok && path_fmt(path, sizeof path, "%s/plots/%s.png", rp->dir, p->name) == 0 &&
        file_size(path) > 0) {
      sb_puts(h, "<img alt=\"");
      sb_html(h, p->title);
      sb_printf(h, "\" src=\"plots/%s.png\">\n", p->name);
    } else {
      sb_puts(h, "<p class=\"err\">");
      sb_html(h, p->err[0] ? p->err : "the PNG could not be read");
      sb_puts(h, "</p>\n");
    }
    sb_puts(h, "<figcaption>");
    sb_html(h, sb_str(&p->reading));
    sb_puts(h, "</figcaption>\n");
    if (p->ok) {
      sb_printf(h, "<p class=\"files\">PNG: <a href=\"plots/%s.png\">plots/%s.png</a>", p->name,
                p->name);
      if (path_fmt(path, sizeof path, "%s/plots/%s.svg", rp->dir, p->name) == 0 && file_size(path) > 0)
        sb_printf(h, " &middot; SVG: <a href=\"plots/%s.svg\">plots/%s.svg</a>", p->name, p->name);
      if (path_fmt(path, sizeof path, "%s/plots/data/%s" FB_DATA_EXT, rp->dir, p->name) == 0 &&
          file_size(path) >= 0)
        sb_printf(h, " &middot; data: <a href=\"plots/data/%s" FB_DATA_EXT "\">plots/data/%s" FB_DATA_EXT
                     "</a> (gzip)", p->name, p->name);
      else
        sb_printf(h, " &middot; data: the trajectory files under <code>traj/</code> (gzip CSV)");
      sb_puts(h, "</p>\n");
    }
    sb_puts(h, "</figure>\n");
  }
  sb_puts(h, "</section>\n");
}

/* The variable part of a message ("... at t=1.23") left out, to group alike failures. */
static void message_stem(const char *msg, char *out, size_t len)
{
  snprintf(out, len, "%s", msg);
  char *p = strstr(out, " at t=");
  if (p != NULL)
    *p = '\0';
}

/* The runs that did not finish, alike failures grouped with their sweep values. */
static void html_omit_failed(sbuf *h, const runs *R)
{
  size_t nbad = 0;
  for (size_t k = 0; k < R->n; k++)
    nbad += !R->r[k].ok;
  sb_printf(h, "<h3>Runs that did not finish (%zu)</h3>\n", nbad);
  if (nbad == 0) {
    sb_puts(h, "<p>Every run finished with status ok.</p>\n");
  } else {
    sb_puts(h, "<p>Left out of the plots (budget hits are drawn in the cost plots as the cost so far).  "
               "Alike failures are grouped; the swept values are listed.</p>\n<table>\n<tr><th>group</th>"
               "<th>scenario</th><th>model</th><th>integrator</th><th>status</th><th>message</th>"
               "<th>runs</th><th>sweep values (run ids)</th></tr>\n");
    char *done = calloc(R->n ? R->n : 1, 1);
    for (size_t k = 0; done != NULL && k < R->n; k++) {
      const run *r = &R->r[k];
      if (r->ok || done[k])
        continue;
      char stem[FB_ERR_LEN], s2[FB_ERR_LEN];
      message_stem(r->message, stem, sizeof stem);
      sbuf vals = {0};
      size_t cnt = 0;
      for (size_t q = k; q < R->n; q++) {
        const run *o = &R->r[q];
        if (o->ok || done[q] || !streq(o->group, r->group) || !streq(o->scenario, r->scenario) ||
            !streq(o->model, r->model) || !streq(o->integrator, r->integrator) ||
            !streq(o->status, r->status))
          continue;
        message_stem(o->message, s2, sizeof s2);
        if (!streq(s2, stem))
          continue;
        done[q] = 1;
        cnt++;
        if (!isnan(o->value))
          sb_printf(&vals, "%s%s=%g (%ld)", vals.n ? ", " : "", o->sweep, o->value, o->id);
        else
          sb_printf(&vals, "%s%s (%ld)", vals.n ? ", " : "", o->tag[0] ? o->tag : "single run", o->id);
      }
      sb_puts(h, "<tr><td>");
      sb_html(h, r->group);
      sb_puts(h, "</td><td>");
      html_scenario_link(h, r->scenario);
      sb_puts(h, "</td><td>");
      sb_html(h, r->model);
      sb_puts(h, "</td><td>");
      sb_html(h, r->integrator);
      sb_puts(h, "</td><td>");
      sb_html(h, r->status);
      sb_puts(h, "</td><td>");
      sb_html(h, stem[0] ? stem : "(no message)");
      sb_printf(h, "</td><td class=\"num\">%zu</td><td>", cnt);
      sb_html(h, sb_str(&vals));
      sb_puts(h, "</td></tr>\n");
      sb_free(&vals);
    }
    free(done);
    sb_puts(h, "</table>\n");
  }
}

/* The scenarios whose runs had no reference. */
static void html_omit_noref(sbuf *h, const runs *R)
{
  names noref = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].ref, "none"))
      names_add(&noref, R->r[k].scenario);
  sb_puts(h, "<h3>Runs without a reference</h3>\n<p>");
  if (noref.n == 0) {
    sb_puts(h, "None: every run was scored against a closed form or the event-driven reference.");
  } else {
    sb_puts(h, "Their metrics are n/a (scenario variants): ");
    for (size_t i = 0; i < noref.n; i++) {
      sb_puts(h, i ? ", " : "");
      sb_html(h, noref.s[i]);
    }
    sb_puts(h, ".");
  }
  sb_puts(h, "</p>\n");
}

/* The convergence fits with too few points for the order verdict. */
static void html_omit_fits(sbuf *h, const report *rp)
{
  sb_puts(h, "<h3>Convergence fits left out of the order verdict</h3>\n<p>");
  size_t nfit = 0;
  if (!rp->O.present) {
    sb_puts(h, "orders.csv is missing: no order is known.");
  } else {
    for (size_t k = 0; k < rp->O.t.nrows; k++) {
      const double pts = fb_csv_d(&rp->O.t, k, rp->O.c_points);
      if (pts >= 3 && isfinite(fb_csv_d(&rp->O.t, k, rp->O.c_order_x)))
        continue;
      sb_puts(h, nfit++ ? "; " : "");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_scenario));
      sb_puts(h, " ");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_model));
      sb_puts(h, "/");
      sb_html(h, fb_csv_s(&rp->O.t, k, rp->O.c_integrator));
      sb_printf(h, " (%g successful steps)", isnan(pts) ? 0.0 : pts);
    }
    if (nfit == 0)
      sb_puts(h, "None: every convergence experiment has at least 3 successful steps.");
    else
      sb_puts(h, ".");
  }
  sb_puts(h, "</p>\n");
}

/* Trajectories not found and plots not drawn. */
static void html_omit_missing(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  sb_puts(h, "<h3>Missing trajectories and plots</h3>\n<p>");
  size_t nmiss = 0;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    char path[PATH_LEN];
    if (!(streq(r->group, "baseline") || streq(r->group, "grid")))
      continue;
    if (traj_path(rp->dir, r, path, sizeof path) == 0)
      continue;
    sb_puts(h, nmiss++ ? "; " : "Trajectory files not found (not drawn): ");
    sb_html(h, r->scenario);
    sb_puts(h, " ");
    sb_html(h, r->model);
    sb_puts(h, "/");
    sb_html(h, r->integrator);
    sb_printf(h, " (run %ld, %s)", r->id, r->status);
  }
  if (nmiss)
    sb_puts(h, ". ");
  size_t np = 0;
  for (size_t i = 0; i < rp->nplots; i++) {
    if (rp->plots[i].ok)
      continue;
    sb_puts(h, np++ ? "; " : "Plots not drawn: ");
    sb_html(h, rp->plots[i].name);
    sb_puts(h, " (");
    sb_html(h, rp->plots[i].err);
    sb_puts(h, ")");
  }
  if (np)
    sb_puts(h, ".");
  if (nmiss == 0 && np == 0)
    sb_puts(h, "None.");
  sb_puts(h, "</p>\n");
}

static void html_omissions(sbuf *h, const report *rp)
{
  sb_puts(h, "<section id=\"omissions\">\n<h2>Omissions</h2>\n");
  html_omit_failed(h, &rp->R);
  html_omit_noref(h, &rp->R);
  html_omit_fits(h, rp);
  html_omit_missing(h, rp);
  sb_puts(h, "</section>\n");
}

static void td_num(sbuf *h, double v)
{
  sb_puts(h, "<td class=\"num\">");
  sb_num(h, v);
  sb_puts(h, "</td>");
}

/* The drift group's accumulation per forcing cycle, per model and variant. */
static void html_numbers_drift(sbuf *h, const runs *R, const names *models)
{
  names variants = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "drift"))
      names_add(&variants, R->r[k].tag[0] ? R->r[k].tag : "default");
  sb_puts(h, "<h3>Accumulation per forcing cycle [m/cycle] (drift group, drift_rate)</h3>\n"
             "<table>\n<tr><th>model</th>");
  for (size_t j = 0; j < variants.n; j++) {
    sb_puts(h, "<th>");
    sb_html(h, variants.s[j]);
    sb_puts(h, "</th>");
  }
  sb_puts(h, "</tr>\n");
  for (size_t i = 0; i < models->n; i++) {
    sb_puts(h, "<tr><td>");
    sb_html(h, models->s[i]);
    sb_puts(h, "</td>");
    for (size_t j = 0; j < variants.n; j++) {
      double d = NAN;
      for (size_t k = 0; k < R->n; k++) {
        const run *r = &R->r[k];
        if (streq(r->group, "drift") && streq(r->model, models->s[i]) && r->ok &&
            streq(r->tag[0] ? r->tag : "default", variants.s[j]))
          d = r->drift_rate;
      }
      td_num(h, d);
    }
    sb_puts(h, "</tr>\n");
  }
  sb_puts(h, "</table>\n");
}

/* The chatter measures of the baseline runs on stick-slip. */
static void html_numbers_chatter(sbuf *h, const runs *R)
{
  sb_puts(h, "<h3>Chatter on stick-slip (baseline runs)</h3>\n<table>\n<tr><th>model</th><th>integrator</th>"
             "<th>chatter_rate [1/s]</th><th>chatter_v_rms [m/s]</th><th>chatter_F_tv [-]</th>"
             "<th>stick_time / ref [s]</th></tr>\n");
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "baseline") || !streq(r->scenario, "stick-slip"))
      continue;
    char step[48];
    run_step(r, step, sizeof step);
    sb_puts(h, "<tr><td>");
    sb_html(h, r->model);
    sb_puts(h, "</td><td>");
    sb_html(h, r->integrator);
    sb_printf(h, " %s</td>", step);
    td_num(h, r->chatter_rate);
    td_num(h, r->chatter_v_rms);
    td_num(h, r->chatter_F_tv);
    sb_puts(h, "<td class=\"num\">");
    sb_num(h, r->stick_time);
    sb_puts(h, " / ");
    sb_num(h, r->stick_time_ref);
    sb_puts(h, "</td></tr>\n");
  }
  sb_puts(h, "</table>\n");
}

/* orders.csv, with whether each row enters the verdicts. */
static void html_numbers_orders(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  sb_puts(h, "<h3>Observed orders (orders.csv)</h3>\n");
  if (!rp->O.present) {
    sb_puts(h, "<p>orders.csv is missing.</p>\n");
  } else {
    sb_puts(h, "<table>\n<tr><th>scenario</th><th>reference</th><th>model</th><th>integrator</th><th>points</th>"
               "<th>order_x</th><th>order_v</th><th>err_x_l2 at finest h [m s^0.5]</th><th>finest h [s]</th>"
               "<th>in the verdict</th></tr>\n");
    const orders *O = &rp->O;
    for (size_t k = 0; k < O->t.nrows; k++) {
      const char *scn = fb_csv_s(&O->t, k, O->c_scenario);
      const int cf = is_closed_form(R, scn);
      const double pts = fb_csv_d(&O->t, k, O->c_points), ox = fb_csv_d(&O->t, k, O->c_order_x);
      sb_puts(h, "<tr><td>");
      html_scenario_link(h, scn);
      sb_printf(h, "</td><td>%s</td><td>", cf ? "closed form" : "event-driven");
      sb_html(h, fb_csv_s(&O->t, k, O->c_model));
      sb_puts(h, "</td><td>");
      sb_html(h, fb_csv_s(&O->t, k, O->c_integrator));
      sb_puts(h, "</td>");
      td_num(h, pts);
      td_num(h, ox);
      td_num(h, fb_csv_d(&O->t, k, O->c_order_v));
      td_num(h, fb_csv_d(&O->t, k, O->c_err));
      td_num(h, fb_csv_d(&O->t, k, O->c_h));
      sb_printf(h, "<td>%s</td></tr>\n", cf && pts >= 3 && isfinite(ox) ? "yes" : "no");
    }
    sb_puts(h, "</table>\n");
  }
}

/* Cost at matched accuracy, every scenario with ladders. */
static void html_numbers_cost(sbuf *h, const runs *R)
{
  names sc = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "convergence") || streq(R->r[k].group, "work-precision"))
      names_add(&sc, R->r[k].scenario);
  sb_puts(h, "<h3>Cost at matched accuracy</h3>\n<p>Cheapest CPU time of any baseline, convergence or "
             "work-precision run of the model on the scenario with err_x_l2 at most the target, the run, and the "
             "ratio to the cheapest model.</p>\n");
  for (size_t i = 0; i < sc.n; i++) {
    names md = {{0}, 0};
    for (size_t k = 0; k < R->n; k++)
      if (streq(R->r[k].scenario, sc.s[i]) && in_cost_groups(&R->r[k]))
        names_add(&md, R->r[k].model);
    sb_puts(h, "<table>\n<tr><th>");
    html_scenario_link(h, sc.s[i]);
    sb_puts(h, "</th><th>best err_x_l2</th>");
    for (size_t j = 0; j < N_WP_TARGETS; j++)
      sb_printf(h, "<th>err_x_l2 &le; %.0e</th>", wp_targets[j]);
    sb_puts(h, "</tr>\n");
    double cheapest[N_WP_TARGETS];
    for (size_t j = 0; j < N_WP_TARGETS; j++) {
      const long b = cheapest_at(R, sc.s[i], NULL, wp_targets[j]);
      cheapest[j] = b >= 0 ? R->r[b].cpu_s : (double)NAN;
    }
    for (size_t m = 0; m < md.n; m++) {
      double be = NAN;
      for (size_t k = 0; k < R->n; k++) {
        const run *r = &R->r[k];
        if (r->ok && in_cost_groups(r) && streq(r->scenario, sc.s[i]) && streq(r->model, md.s[m]) &&
            r->err_x_l2 >= 0 && (isnan(be) || r->err_x_l2 < be))
          be = r->err_x_l2;
      }
      sb_puts(h, "<tr><td>");
      sb_html(h, md.s[m]);
      sb_puts(h, "</td>");
      td_num(h, be);
      for (size_t j = 0; j < N_WP_TARGETS; j++) {
        const long b = cheapest_at(R, sc.s[i], md.s[m], wp_targets[j]);
        if (b < 0) {
          sb_puts(h, "<td class=\"unk\">&mdash;</td>");
          continue;
        }
        const run *r = &R->r[b];
        char step[48];
        run_step(r, step, sizeof step);
        sb_printf(h, "<td class=\"num\">x%.3g<br><span class=\"small\">%.3g s, ", r->cpu_s / cheapest[j], r->cpu_s);
        sb_html(h, r->integrator);
        sb_printf(h, " %s</span></td>", step);
      }
      sb_puts(h, "</tr>\n");
    }
    sb_puts(h, "</table>\n");
  }
}

static void html_numbers(sbuf *h, const report *rp)
{
  const runs *R = &rp->R;
  names models = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    names_add(&models, R->r[k].model);
  sb_puts(h, "<section id=\"numbers\">\n<h2>Numbers behind the verdicts</h2>\n");
  html_numbers_drift(h, R, &models);
  html_numbers_chatter(h, R);
  html_numbers_orders(h, rp);
  html_numbers_cost(h, R);
  sb_puts(h, "<p class=\"small\">Every column of runs.csv is documented in results/README.md; this page was "
             "made from runs.csv, orders.csv, meta.json and traj/ only.</p>\n</section>\n");
}

int write_html(report *rp, const fb_vtable *vt, fb_err *err)
{
  sbuf h = {0};
  const char *base = strrchr(rp->dir, '/');
  base = base != NULL && base[1] ? base + 1 : rp->dir;
  sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>fricbench report: ");
  sb_html(&h, base);
  sb_printf(&h, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>fricbench report: ", html_css);
  sb_html(&h, base);
  sb_puts(&h, "</h1>\n<p>Numerical treatments of dry friction compared on the same scenarios: does each stick, "
              "drift, chatter; how accurate is it; what does it cost.</p>\n<nav><a href=\"#answer\">Answer</a><a href=\"#run\">What was run</a>"
              "<a href=\"#verdicts\">Verdicts</a><a href=\"#seed-claims\">Seed claims</a><a href=\"#plots\">Plots</a><a href=\"#practitioner\">Practitioners</a><a href=\"#sphere\">Sphere</a><a href=\"#omissions\">Omissions</a>"
              "<a href=\"#numbers\">Numbers</a></nav>\n</header>\n");
  html_answer(&h, vt, rp);
  html_run(&h, rp);
  html_verdicts(&h, vt);
  html_seed_claims(&h, rp);
  html_plots(&h, rp);
  html_practitioner(&h, rp);
  html_sphere(&h, rp);
  html_omissions(&h, rp);
  html_numbers(&h, rp);
  sb_puts(&h, "<footer class=\"small\"><p>Made by fricbench from the files of this results directory.</p></footer>\n"
              "</body>\n</html>\n");
  if (h.bad) {
    sb_free(&h);
    return fb_err_set(err, FB_ENOMEM, "out of memory building report.html");
  }
  char path[PATH_LEN];
  if (path_fmt(path, sizeof path, "%s/report.html", rp->dir) != 0) {
    sb_free(&h);
    return fb_err_set(err, FB_EIO, "path too long for report.html");
  }
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "report", err);
  if (st == FB_OK) {
    if (fwrite(h.s, 1, h.n, of.fp) != h.n) {
      fb_outfile_abort(&of);
      st = fb_err_set(err, FB_EIO, "writing '%s' failed", path);
    } else {
      st = fb_outfile_commit(&of, err);
    }
  }
  sb_free(&h);
  return st;
}

