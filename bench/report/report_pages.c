/* report_pages.c — one page per scenario in the results directory, DIR/scenario-<name>.html,
 * linked from report.html (docs/design.md §8): the scenario's title, source and parameter
 * table (units, defaults, the values the suite ran), a compact block of its equations and
 * its reference quoted from the docs, the reference kind its runs used, its trajectory
 * overlay, its work-precision diagram (report_wp_page.c), its other plots, its verdict rows
 * and the command that reproduces each of its runs.
 *
 * Everything comes from runs.csv, verdicts.csv, the plots drawn and the scenario's
 * registry entry (fb_scenario_type) and docs; nothing here names a scenario, so a
 * scenario added later gets its page with no edit.  The docs are read from
 * $FRICBENCH_DOCS, the source tree's docs/ (beside scripts/) or the installed
 * <datadir>/fricbench/docs; without them the page says so.  A page is plain HTML with an
 * inline style sheet and relative links to plots/ (no script, no external resource).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_pages.h"

#include "fb_contact_metrics.h"
#include "fb_model_registry.h"
#include "fb_normal_int.h"
#include "fb_scenario.h"

#define DOC_MAX_LINES 36   /* lines of a quoted doc block */
#define VALUES_SHOWN 8     /* distinct values listed per parameter */

static const char page_css[] =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:0 auto;max-width:1500px;padding:0 1.2em;"
    "color:#222}h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
    "font-size:.9em;vertical-align:top}th{background:#f0f0f0;text-align:left}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;"
    "overflow-x:auto;font-size:.85em;line-height:1.3}code.cmd{font-size:.8em;white-space:pre-wrap;"
    "word-break:break-all}img{max-width:100%;height:auto;border:1px solid #eee}.small{font-size:.85em;"
    "color:#555}nav a{margin-right:1em}.good{background:#e3f4e3}.bad{background:#f8e0e0}"
    "summary{cursor:pointer;font-weight:bold;margin:.4em 0}";

/* ==== names and links ==================================================================== */

void page_name(const char *scn, char *buf, size_t len)
{
  snprintf(buf, len, "scenario-%s.html", scn);
  for (char *c = buf + 9; *c != '\0' && strcmp(c, ".html") != 0; c++)
    if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
      *c = '_';
}

void html_scenario_link(sbuf *h, const char *scn)
{
  char name[PATH_LEN];
  page_name(scn, name, sizeof name);
  sb_puts(h, "<a href=\"");
  sb_html(h, name);
  sb_puts(h, "\">");
  sb_html(h, scn);
  sb_puts(h, "</a>");
}

/* Whether text names word as a whole token (not inside a longer scenario name). */
static int names_token(const char *text, const char *word)
{
  const size_t n = strlen(word);
  if (n == 0)
    return 0;
  for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word)) {
    const char b = p == text ? ' ' : p[-1], a = p[n];
    const int inb = isalnum((unsigned char)b) || b == '-' || b == '_' || b == '.';
    const int ina = isalnum((unsigned char)a) || a == '-' || a == '_';
    if (!inb && !ina)
      return 1;
  }
  return 0;
}

/* ==== the docs ============================================================================ */

/* The docs directory holding design.md, into buf; -1 when none is found. */
static int docs_dir(const report *rp, char *buf, size_t len)
{
  char probe[PATH_LEN];
  const char *env = getenv("FRICBENCH_DOCS");
  if (env != NULL && env[0] != '\0') {
    snprintf(buf, len, "%s", env);
    return 0;
  }
  static const char *const rel[] = {"%s/../docs", "%s/docs"};
  for (size_t i = 0; i < 2; i++)
    if (path_fmt(buf, len, rel[i], rp->scripts) == 0 &&
        path_fmt(probe, sizeof probe, "%s/design.md", buf) == 0 && file_size(probe) > 0)
      return 0;
  return -1;
}

/* The section of md text opened by the line `start` (pointing at its first byte): up to the
 * next heading of `level` or fewer '#', at most DOC_MAX_LINES lines, as a <pre> block with
 * the Markdown backticks dropped. */
static void doc_block(sbuf *h, const char *start, int level, const char *where)
{
  const char *p = strchr(start, '\n');
  size_t lines = 0;
  int cut = 0;
  sb_puts(h, "<pre>");
  while (p != NULL && p[1] != '\0') {
    p++;
    int hashes = 0;
    while (p[hashes] == '#')
      hashes++;
    if (hashes > 0 && hashes <= level && p[hashes] == ' ')
      break;
    const char *e = strchr(p, '\n');
    const size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
    if (lines == DOC_MAX_LINES) {
      cut = 1;
      break;
    }
    if (!(lines == 0 && n == 0)) { /* no leading blank line */
      char line[1024];
      size_t k = 0;
      for (size_t i = 0; i < n && k + 1 < sizeof line; i++)
        if (p[i] != '`')
          line[k++] = p[i];
      line[k] = '\0';
      sb_html(h, line);
      sb_puts(h, "\n");
      lines++;
    }
    p = e;
  }
  while (h->n > 0 && h->s != NULL && h->s[h->n - 1] == '\n' && h->n >= 2 && h->s[h->n - 2] == '\n')
    h->s[--h->n] = '\0';
  sb_puts(h, "</pre>\n");
  sb_puts(h, "<p class=\"small\">Quoted from ");
  sb_html(h, where);
  sb_puts(h, cut ? " (shortened; the file goes on)" : "");
  sb_puts(h, ".</p>\n");
}

/* The line of text starting a heading of `level` '#' whose title contains one of the
 * (lowercase) words, or NULL. */
static const char *find_heading(const char *text, int level, const char *const *words, size_t nw)
{
  for (const char *p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
    int hashes = 0;
    while (p[hashes] == '#')
      hashes++;
    if (hashes != level || p[hashes] != ' ')
      continue;
    char title[256];
    size_t k = 0;
    for (const char *q = p + hashes + 1; *q != '\0' && *q != '\n' && k + 1 < sizeof title; q++)
      title[k++] = (char)tolower((unsigned char)*q);
    title[k] = '\0';
    for (size_t w = 0; w < nw; w++)
      if (words[w] == NULL || strstr(title, words[w]) != NULL)
        return p;
  }
  return NULL;
}

/* The line at p (inside text) as a string into buf. */
static void line_at(const char *p, char *buf, size_t len)
{
  const char *e = strchr(p, '\n');
  const size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
  snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
}

/* A Markdown table row of design.md (row: its first byte) under its table's header line,
 * with the number of the "## N." section holding it. */
static void html_table_row(sbuf *h, const char *text, const char *row)
{
  const char *head = row, *sec = NULL;
  /* back over the table's lines to its first (the header) */
  while (head > text + 1 && head[-1] == '\n') {
    const char *prev = head - 1;
    while (prev > text && prev[-1] != '\n')
      prev--;
    if (*prev != '|')
      break;
    head = prev;
  }
  for (const char *p = text; p != NULL && p < row; p = strstr(p + 1, "\n## "))
    if (p != text || strncmp(p, "## ", 3) == 0)
      sec = p;
  char line[1024], num[16] = "";
  if (sec != NULL) {
    const char *q = sec + (*sec == '\n' ? 4 : 3);
    size_t k = 0;
    while (k + 1 < sizeof num && (isdigit((unsigned char)q[k]) || q[k] == '.'))
      num[k] = q[k], k++;
    num[k] = '\0';
    if (k > 0 && num[k - 1] == '.')
      num[k - 1] = '\0';
  }
  sb_puts(h, "<p>Its row in a scenario table of docs/design.md");
  if (num[0])
    sb_printf(h, " §%s", num);
  sb_puts(h, ":</p>\n<pre>");
  if (head != row) {
    line_at(head, line, sizeof line);
    sb_html(h, line);
    sb_puts(h, "\n");
  }
  line_at(row, line, sizeof line);
  for (char *c = line; *c; c++)
    if (*c == '`')
      memmove(c, c + 1, strlen(c));
  sb_html(h, line);
  sb_puts(h, "</pre>\n<p class=\"small\">Quoted from docs/design.md");
  if (num[0])
    sb_printf(h, " §%s", num);
  sb_puts(h, ".</p>\n");
}

/* Equations and reference: from docs/scenarios/<scn>.md when present, else the
 * scenario's subsection of docs/design.md §5. */
static void html_docs(sbuf *h, const report *rp, const char *scn)
{
  char dir[PATH_LEN], path[PATH_LEN], where[PATH_LEN + 16];
  char *text = NULL;
  size_t len;
  sb_puts(h, "<section id=\"equations\">\n<h2>Equations and reference</h2>\n");
  if (docs_dir(rp, dir, sizeof dir) != 0) {
    sb_puts(h, "<p>The docs (docs/design.md, docs/scenarios/) were not found beside the scripts: set "
               "FRICBENCH_DOCS to the docs/ folder of the fricbench sources and re-run the report.</p>\n"
               "</section>\n");
    return;
  }
  if (path_fmt(path, sizeof path, "%s/scenarios/%s.md", dir, scn) == 0 &&
      fb_read_file(path, &text, &len) == 0) {
    static const char *const eq[] = {"equation", "system", "model"}, *const any[] = {NULL},
                             *const ref[] = {"reference"};
    const char *e = find_heading(text, 2, eq, 3);
    if (e == NULL)
      e = find_heading(text, 2, any, 1);
    snprintf(where, sizeof where, "docs/scenarios/%s.md", scn);
    if (e != NULL) {
      sb_puts(h, "<h3>Equations</h3>\n");
      doc_block(h, e, 2, where);
    }
    const char *r = find_heading(text, 2, ref, 1);
    if (r != NULL) {
      sb_puts(h, "<h3>Reference and its check</h3>\n");
      doc_block(h, r, 2, where);
    }
    free(text);
    sb_puts(h, "</section>\n");
    return;
  }
  text = NULL;
  if (path_fmt(path, sizeof path, "%s/design.md", dir) == 0 && fb_read_file(path, &text, &len) == 0) {
    char head[256];
    snprintf(head, sizeof head, "`%s`", scn);
    const char *const w[] = {head};
    const char *s = find_heading(text, 3, w, 1);
    /* its row in a scenario table (§5's, or §12's and §13's for contact and 2-D ones), under
     * the table's header, with the section it is in */
    char row[300];
    snprintf(row, sizeof row, "\n| `%s` |", scn);
    const char *tr = strstr(text, row);
    if (tr != NULL)
      html_table_row(h, text, tr + 1);
    if (s != NULL) {
      sb_puts(h, "<h3>Its section of docs/design.md §5: equations, parameters, reference</h3>\n");
      doc_block(h, s, 3, "docs/design.md §5");
    } else if (tr == NULL) {
      sb_puts(h, "<p>Neither docs/design.md §5 nor docs/scenarios/ describes this scenario.</p>\n");
    }
    free(text);
  } else {
    sb_puts(h, "<p>docs/design.md could not be read.</p>\n");
  }
  sb_puts(h, "</section>\n");
}

/* ==== parameters ========================================================================== */

/* The value of `name` in a "k=v;k=v" list, into buf ("" when absent). */
static void list_value(const char *list, const char *name, char *buf, size_t len)
{
  const size_t n = strlen(name);
  buf[0] = '\0';
  for (const char *p = list; p != NULL && *p != '\0';) {
    const char *e = strchr(p, ';');
    const size_t L = e != NULL ? (size_t)(e - p) : strlen(p);
    if (L > n && strncmp(p, name, n) == 0 && p[n] == '=') {
      snprintf(buf, len, "%.*s", (int)(L - n - 1), p + n + 1);
      return;
    }
    p = e != NULL ? e + 1 : NULL;
  }
}

/* The distinct values of parameter `name` over the scenario's runs, "a, b, c". */
static void values_run(const runs *R, const char *scn, const char *name, sbuf *out)
{
  char seen[VALUES_SHOWN][64];
  size_t ns = 0, more = 0;
  for (size_t k = 0; k < R->n; k++) {
    if (!streq(R->r[k].scenario, scn))
      continue;
    char v[64];
    list_value(R->r[k].sparams, name, v, sizeof v);
    if (v[0] == '\0')
      continue;
    size_t i = 0;
    while (i < ns && !streq(seen[i], v))
      i++;
    if (i < ns)
      continue;
    if (ns < VALUES_SHOWN)
      snprintf(seen[ns++], sizeof seen[0], "%s", v);
    else
      more++;
  }
  for (size_t i = 0; i < ns; i++)
    sb_printf(out, "%s%s", i ? ", " : "", seen[i]);
  if (more)
    sb_printf(out, " and %zu more", more);
}

static void html_params(sbuf *h, const report *rp, const fb_scenario_type *st, const char *scn)
{
  sb_puts(h, "<section id=\"parameters\">\n<h2>Parameters</h2>\n");
  if (st == NULL || st->params == NULL) {
    sb_puts(h, "<p>This build of fricbench has no scenario of this name (a plugin's, or a newer "
               "fricbench's); the values run are in the commands below.</p>\n</section>\n");
    return;
  }
  sb_puts(h, "<p>Each can be set with <code>--set NAME=VALUE</code> (<code>scenario.NAME</code> when a "
             "model has the same name).</p>\n<table>\n<tr><th>name</th><th>unit</th><th>default</th>"
             "<th>allowed</th><th>meaning</th><th>values the suite ran</th></tr>\n");
  for (size_t i = 0; i < st->params->n; i++) {
    const fb_param_desc *d = &st->params->desc[i];
    char def[96];
    fb_param_format(d, d->def, def, sizeof def);
    sb_puts(h, "<tr><td><code>");
    sb_html(h, d->name);
    sb_puts(h, "</code></td><td>");
    sb_html(h, d->unit != NULL ? d->unit : "");
    sb_puts(h, "</td><td class=\"num\">");
    sb_html(h, def);
    sb_puts(h, "</td><td>");
    if (d->flags & FB_PARAM_CHOICE) {
      for (size_t c = 0; d->choices != NULL && d->choices[c] != NULL; c++) {
        sb_puts(h, c ? ", " : "");
        sb_html(h, d->choices[c]);
      }
    } else {
      sb_printf(h, "%s%.6g, %.6g%s%s", d->flags & FB_PARAM_MIN_OPEN ? "(" : "[", d->min, d->max,
                d->flags & FB_PARAM_MAX_OPEN ? ")" : "]", d->flags & FB_PARAM_INT ? " integer" : "");
    }
    sb_puts(h, "</td><td>");
    sb_html(h, d->doc != NULL ? d->doc : "");
    if ((d->flags & FB_PARAM_AUTO) && d->auto_doc != NULL) {
      sb_puts(h, " <span class=\"small\">(auto: ");
      sb_html(h, d->auto_doc);
      sb_puts(h, ")</span>");
    }
    sb_puts(h, "</td><td>");
    sbuf v = {0};
    values_run(&rp->R, scn, d->name, &v);
    sb_html(h, v.n ? sb_str(&v) : "");
    sb_free(&v);
    sb_puts(h, "</td></tr>\n");
  }
  sb_puts(h, "</table>\n</section>\n");
}

/* ==== reference kind ====================================================================== */

static void html_ref_kind(sbuf *h, const runs *R, const char *scn)
{
  static const struct {
    const char *kind, *what;
  } kinds[] = {
      {"exact", "closed form, evaluated on the output grid"},
      {"event", "event-driven reference solver at tight tolerance (the scenario's own check is "
                "in its doc below)"},
      {"none", "the scenario declares no built-in reference at these runs' parameters, so their "
               "trajectory error metrics (err_x_l2 and its kin) are n/a; what it is checked "
               "against instead: Reference and its check below"},
  };
  sb_puts(h, "<p>Reference used by the runs.  Trajectories (runs.csv column <code>ref</code>): ");
  int any = 0;
  names other = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].scenario, scn))
      names_add(&other, R->r[k].ref);
  for (size_t i = 0; i < other.n; i++) {
    size_t cnt = 0;
    for (size_t k = 0; k < R->n; k++)
      cnt += streq(R->r[k].scenario, scn) && streq(R->r[k].ref, other.s[i]);
    const char *what = "";
    for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++)
      if (streq(kinds[j].kind, other.s[i]))
        what = kinds[j].what;
    sb_puts(h, any ? "; " : "");
    sb_puts(h, "<b>");
    sb_html(h, other.s[i][0] ? other.s[i] : "(empty)");
    sb_printf(h, "</b> in %zu run%s", cnt, cnt == 1 ? "" : "s");
    if (what[0]) {
      sb_puts(h, " (");
      sb_html(h, what);
      sb_puts(h, ")");
    }
    any = 1;
  }
  sb_puts(h, any ? "." : "none.");
  /* a scenario with normal contacts has a second reference, the contact metrics' (the
   * column ref says nothing about it): said, or why there is none */
  char what[FB_ERR_LEN + 256];
  if (fb_contact_reference_describe(scn, what, sizeof what)) {
    sb_puts(h, "  Runs with normal contacts: their contact metrics (e_eff, t_imp_err, the rest "
               "and lambda_n measures; docs/design.md §12) are scored against <b>");
    size_t cut = strcspn(what, "(:");
    while (cut > 0 && what[cut - 1] == ' ')
      cut--;
    char head[sizeof what];
    snprintf(head, sizeof head, "%.*s", (int)cut, what);
    sb_html(h, head);
    sb_puts(h, "</b>");
    sb_html(h, what + cut);
    sb_puts(h, strncmp(what, "none", 4) == 0
                   ? "; the scenario's own reference, if it has one, is under Reference and its "
                     "check below."
                   : ".");
  }
  sb_puts(h, "</p>\n");
}

/* ==== plots =============================================================================== */

static const plot_entry *plot_find(const report *rp, const char *name)
{
  for (size_t i = 0; i < rp->nplots; i++)
    if (streq(rp->plots[i].name, name))
      return &rp->plots[i];
  return NULL;
}

static void html_plot(sbuf *h, const plot_entry *p)
{
  sb_puts(h, "<figure>\n<img src=\"plots/");
  sb_html(h, p->name);
  sb_puts(h, ".png\" alt=\"");
  sb_html(h, p->title);
  sb_puts(h, "\">\n<figcaption>");
  sb_html(h, p->title);
  if (p->reading.n) {
    sb_puts(h, ". ");
    sb_html(h, sb_str(&p->reading));
  }
  sb_puts(h, "</figcaption>\n</figure>\n");
}

static void html_plots(sbuf *h, const report *rp, const char *scn)
{
  char name[200];
  snprintf(name, sizeof name, "traj_%s", scn);
  const plot_entry *t = plot_find(rp, name);
  sb_puts(h, "<section id=\"trajectory\">\n<h2>Trajectories at the judged step</h2>\n");
  if (t != NULL && t->ok)
    html_plot(h, t);
  else
    sb_puts(h, "<p>No trajectory overlay was drawn for this scenario (it has no baseline runs with "
               "trajectories); its own plots are below.</p>\n");
  snprintf(name, sizeof name, "wp_%s", scn);
  const plot_entry *w = plot_find(rp, name);
  sb_puts(h, "</section>\n<section id=\"work-precision\">\n<h2>Work-precision</h2>\n");
  if (w != NULL && w->ok)
    html_plot(h, w);
  else
    sb_puts(h, "<p>No ladder (runs of one treatment differing only in the step or the tolerance, with an "
               "error against the reference) was run on this scenario.</p>\n");
  /* the other plots naming the scenario, in the report's order */
  char under[200];
  snprintf(under, sizeof under, "%s", scn);
  for (char *c = under; *c; c++)
    if (*c == '-')
      *c = '_';
  int n = 0;
  for (size_t i = 0; i < rp->nplots; i++) {
    const plot_entry *p = &rp->plots[i];
    if (!p->ok || p == t || p == w)
      continue;
    if (!names_token(p->name, scn) && !names_token(p->name, under) && !names_token(p->title, scn))
      continue;
    if (n++ == 0)
      sb_puts(h, "</section>\n<section id=\"other-plots\">\n<h2>Other plots of this scenario</h2>\n");
    html_plot(h, p);
  }
  sb_puts(h, "</section>\n");
}

/* ==== verdicts ============================================================================ */

/* Whether verdict row r was decided on scn: its scenarios column opens "worst <scn>" or
 * names scn alone. */
static int decided_on(const fb_vrow *r, const char *scn)
{
  const size_t n = strlen(scn);
  if (strncmp(r->scenarios, "worst ", 6) == 0)
    return strncmp(r->scenarios + 6, scn, n) == 0 && !isalnum((unsigned char)r->scenarios[6 + n]) &&
           r->scenarios[6 + n] != '-';
  return streq(r->scenarios, scn);
}

static void verdict_row(sbuf *h, const fb_vrow *r)
{
  sb_puts(h, "<tr><td>");
  sb_html(h, r->model);
  sb_puts(h, "</td><td>");
  sb_html(h, r->integrator);
  sb_puts(h, "</td><td>");
  sb_html(h, r->view);
  sb_puts(h, "</td><td>");
  sb_html(h, r->step);
  sb_puts(h, "</td><td>");
  sb_html(h, r->property);
  sb_puts(h, "</td><td><b>");
  sb_html(h, r->verdict);
  sb_puts(h, "</b></td><td class=\"num\">");
  if (!isnan(r->value)) {
    sb_num(h, r->value);
    sb_puts(h, " ");
    sb_html(h, r->unit);
  }
  sb_puts(h, "</td><td class=\"small\">");
  sb_html(h, r->scenarios);
  sb_puts(h, "</td></tr>\n");
}

/* The rows of verdicts.csv naming scn: first those it decided (its worst case, or it
 * alone), then, folded, the ones it only took part in. */
static void html_verdicts(sbuf *h, const fb_vtable *vt, const char *scn)
{
  static const char head[] = "<table>\n<tr><th>model</th><th>integrator</th><th>view</th><th>step</th>"
                             "<th>property</th><th>verdict</th><th>value</th><th>scenarios</th></tr>\n";
  size_t nd = 0, no = 0;
  for (size_t i = 0; vt != NULL && i < vt->n; i++)
    if (names_token(vt->r[i].scenarios, scn)) {
      nd += decided_on(&vt->r[i], scn);
      no += !decided_on(&vt->r[i], scn);
    }
  sb_puts(h, "<section id=\"verdicts\">\n<h2>Verdicts judged on this scenario</h2>\n");
  if (nd + no == 0) {
    sb_puts(h, "<p>No verdict row names this scenario.</p>\n</section>\n");
    return;
  }
  sb_printf(h, "<p>The %zu rows of verdicts.csv whose <code>scenarios</code> column names it (a verdict may be "
               "judged on several scenarios; the column says which, the worst first): %zu decided here "
               "(it is their worst case, or their only one), %zu judged here among others.</p>\n",
            nd + no, nd, no);
  for (int pass = 0; pass < 2; pass++) {
    if ((pass == 0 ? nd : no) == 0)
      continue;
    if (pass == 1)
      sb_printf(h, "<details%s><summary>judged here among other scenarios (%zu rows)</summary>\n",
                nd == 0 ? " open" : "", no);
    sb_puts(h, head);
    for (size_t i = 0; i < vt->n; i++)
      if (names_token(vt->r[i].scenarios, scn) && decided_on(&vt->r[i], scn) == (pass == 0))
        verdict_row(h, &vt->r[i]);
    sb_puts(h, pass == 1 ? "</table>\n</details>\n" : "</table>\n");
  }
  sb_puts(h, "</section>\n");
}

/* ==== commands ============================================================================ */

/* A shell word: as is when it is made of safe bytes, else single-quoted. */
static void sb_shell(sbuf *b, const char *s)
{
  int safe = s[0] != '\0';
  for (const char *c = s; *c && safe; c++)
    safe = isalnum((unsigned char)*c) || strchr("._+-=/:,@%", *c) != NULL;
  if (safe) {
    sb_puts(b, s);
    return;
  }
  sb_puts(b, "'");
  for (const char *c = s; *c; c++)
    sb_puts(b, *c == '\'' ? "'\\''" : (char[]){*c, '\0'});
  sb_puts(b, "'");
}

/* "--set <prefix>.k=v" for every entry of a "k=v;k=v" list whose value is not the
 * parameter's default as runs.csv prints it (%.10g, fb_param_format): a default is left to
 * the program, where it is exact (pi, 1/3 and 200 pi printed with ten digits would start a
 * slightly different run).  Every entry when the parameter table is unknown (set NULL). */
static void sets_of(sbuf *b, const char *prefix, const char *list, const fb_param_set *set)
{
  for (const char *p = list; p != NULL && *p != '\0';) {
    const char *e = strchr(p, ';');
    const size_t L = e != NULL ? (size_t)(e - p) : strlen(p);
    const char *eq = memchr(p, '=', L);
    char name[128] = "", def[96] = "";
    if (eq != NULL && (size_t)(eq - p) < sizeof name)
      snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
    const fb_param_desc *d = set != NULL && name[0] ? fb_params_find(set, name) : NULL;
    if (d != NULL)
      fb_param_format(d, d->def, def, sizeof def);
    const int is_default = d != NULL && strlen(def) == L - (size_t)(eq - p) - 1 &&
                           strncmp(def, eq + 1, L - (size_t)(eq - p) - 1) == 0;
    if (L > 0 && !is_default) {
      char kv[512];
      snprintf(kv, sizeof kv, "%s.%.*s", prefix, (int)(L < 480 ? L : 480), p);
      sb_puts(b, " --set ");
      sb_shell(b, kv);
    }
    p = e != NULL ? e + 1 : NULL;
  }
}

/* v with the fewest digits (at most 17) that read back as v. */
static void sb_shortest(sbuf *b, double v)
{
  char buf[40];
  for (int digits = 10; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  sb_puts(b, buf);
}

/* The step of fixed-step run r to full precision: runs.csv prints ten digits, and a step
 * T/N (a model's default T/1e4) printed so would take N + 1 steps.  When the scenario's end
 * time T is its default (exact here) and T/h is within 1e-6 of a whole N, the step is T/N;
 * otherwise h as printed. */
static double exact_step(const run *r, const fb_scenario_type *st)
{
  const fb_param_desc *d = st != NULL ? fb_params_find(st->params, "T") : NULL;
  char tv[64], def[96];
  list_value(r->sparams, "T", tv, sizeof tv);
  if (d == NULL || tv[0] == '\0')
    return r->h;
  fb_param_format(d, d->def, def, sizeof def);
  if (!streq(def, tv) || !(d->def > 0))
    return r->h;
  const double n = round(d->def / r->h);
  if (n < 1 || fabs(d->def / r->h - n) > 1e-6 * n)
    return r->h;
  const double q = d->def / n;
  char a[64], b[64];
  snprintf(a, sizeof a, "%.10g", q);
  snprintf(b, sizeof b, "%.10g", r->h);
  return streq(a, b) ? q : r->h;
}

/* The command line that reproduces run r: its scenario, model, integrator, step or
 * tolerances, every scenario and model parameter it ran with away from its default, and the swept value when
 * the sweep names a parameter kept outside both lists (e.g. a normal treatment's). */
static void run_command(const runs *R, const run *r, sbuf *b)
{
  const char *mp = run_field(R, r, "model_params");
  const fb_scenario_type *st = fb_scenario_find(r->scenario);
  const fb_model_type *mt = fb_model_find(r->model);
  sb_puts(b, "fricbench run --scenario ");
  sb_shell(b, r->scenario);
  sb_puts(b, " --model ");
  sb_shell(b, r->model);
  sb_puts(b, " --integrator ");
  sb_shell(b, r->integrator);
  const char *rtol_s = run_field(R, r, "rtol");
  const double rtol = rtol_s[0] ? strtod(rtol_s, NULL) : (double)NAN;
  if (streq(r->mode, "fixed") && r->h > 0) {
    sb_puts(b, " --h ");
    sb_shortest(b, exact_step(r, st));
  } else if (r->atol > 0) {
    sb_puts(b, !(rtol > 0) || rtol == r->atol ? " --tol " : " --atol ");
    sb_shortest(b, r->atol);
    if (rtol > 0 && rtol != r->atol) {
      sb_puts(b, " --rtol ");
      sb_shortest(b, rtol);
    }
  }
  sets_of(b, "scenario", r->sparams, st != NULL ? st->params : NULL);
  sets_of(b, "model", mp, mt != NULL ? mt->params : NULL);
  if (r->sweep[0] != '\0' && !streq(r->sweep, "h") && !streq(r->sweep, "tol") && !isnan(r->value)) {
    const char *bare = r->sweep;
    if (strncmp(bare, "scenario.", 9) == 0)
      bare += 9;
    else if (strncmp(bare, "model.", 6) == 0)
      bare += 6;
    char v[64], w[64];
    list_value(r->sparams, bare, v, sizeof v);
    list_value(mp, bare, w, sizeof w);
    /* only a parameter: a sweep may name a search (stable-step) rather than a value */
    const int is_param = strncmp(bare, "normal.", 7) == 0 ||
                         (st != NULL && fb_params_find(st->params, bare) != NULL) ||
                         (mt != NULL && fb_params_find(mt->params, bare) != NULL);
    if (v[0] == '\0' && w[0] == '\0' && is_param) {
      char kv[256];
      sbuf val = {0};
      sb_shortest(&val, r->value);
      snprintf(kv, sizeof kv, "%s=%s", r->sweep, sb_str(&val));
      sb_free(&val);
      sb_puts(b, " --set ");
      sb_shell(b, kv);
    }
  }
  /* a normal-contact variant named by the tag (docs/design.md §12) sets a damping law
   * runs.csv does not list: e.g. hc-flores is hunt-crossley with normal.law=flores */
  char nm[64];
  list_value(r->sparams, "normal", nm, sizeof nm);
  for (size_t k = 0; nm[0] != '\0' && fb_normal_variants[k].label != NULL; k++) {
    const fb_normal_variant *nv = &fb_normal_variants[k];
    const size_t L = strlen(nv->label);
    if (nv->set != NULL && streq(nv->normal, nm) && strncmp(r->tag, nv->label, L) == 0 &&
        (r->tag[L] == '\0' || r->tag[L] == '_')) {
      sb_puts(b, " --set ");
      sb_shell(b, nv->set);
      break;
    }
  }
}

/* Whether run r's sweep is a search (its row sums several runs): neither the step, the
 * tolerance nor a parameter of its scenario, model or normal treatment. */
static int is_search(const run *r)
{
  const char *bare = r->sweep;
  if (bare[0] == '\0' || streq(bare, "h") || streq(bare, "tol") || strncmp(bare, "normal.", 7) == 0)
    return 0;
  if (strncmp(bare, "scenario.", 9) == 0)
    bare += 9;
  else if (strncmp(bare, "model.", 6) == 0)
    bare += 6;
  const fb_scenario_type *st = fb_scenario_find(r->scenario);
  const fb_model_type *mt = fb_model_find(r->model);
  return !(st != NULL && fb_params_find(st->params, bare) != NULL) &&
         !(mt != NULL && fb_params_find(mt->params, bare) != NULL);
}

static void html_runs(sbuf *h, const runs *R, const char *scn)
{
  names groups = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].scenario, scn))
      names_add(&groups, R->r[k].group);
  sb_puts(h, "<section id=\"runs\">\n<h2>Runs and the commands that reproduce them</h2>\n"
             "<p>Each command runs the same case as the suite (same scenario and model parameters, "
             "integrator, step or tolerance; parameters at their defaults are left out, as runs.csv "
             "prints them to ten digits): it reaches the same <code>t_reached</code> and "
             "<code>nsteps</code>; add <code>--metrics</code> for the run's metrics, <code>--out FILE</code> "
             "for its trajectory.  Grouped by runs.csv's <code>group</code>.</p>\n");
  for (size_t g = 0; g < groups.n; g++) {
    size_t cnt = 0;
    for (size_t k = 0; k < R->n; k++)
      cnt += streq(R->r[k].scenario, scn) && streq(R->r[k].group, groups.s[g]);
    sb_puts(h, "<details");
    sb_puts(h, g == 0 ? " open>" : ">");
    sb_puts(h, "<summary>");
    sb_html(h, groups.s[g]);
    sb_printf(h, " (%zu run%s)</summary>\n<table>\n<tr><th>run</th><th>tag</th><th>model</th>"
                 "<th>integrator</th><th>step</th><th>status</th><th>t_reached</th><th>nsteps</th>"
                 "<th>err_x_l2</th><th>command</th></tr>\n", cnt, cnt == 1 ? "" : "s");
    for (size_t k = 0; k < R->n; k++) {
      const run *r = &R->r[k];
      if (!streq(r->scenario, scn) || !streq(r->group, groups.s[g]))
        continue;
      char step[48];
      run_step(r, step, sizeof step);
      sb_printf(h, "<tr id=\"run-%ld\"><td class=\"num\">%ld</td><td>", r->id, r->id);
      sb_html(h, r->tag);
      sb_puts(h, "</td><td>");
      sb_html(h, r->model);
      sb_puts(h, "</td><td>");
      sb_html(h, r->integrator);
      sb_puts(h, "</td><td>");
      sb_html(h, step);
      sb_printf(h, "</td><td class=\"%s\">", r->ok ? "" : "bad");
      sb_html(h, r->status);
      sb_printf(h, "</td><td class=\"num\">%.10g</td><td class=\"num\">%.0f</td><td class=\"num\">",
                r->t_reached, r->nsteps);
      sb_num(h, r->err_x_l2);
      sb_puts(h, "</td><td><code class=\"cmd\">");
      sbuf c = {0};
      run_command(R, r, &c);
      sb_html(h, sb_str(&c));
      sb_free(&c);
      sb_puts(h, "</code>");
      if (is_search(r)) {
        sb_puts(h, "<br><span class=\"small\">its sweep <code>");
        sb_html(h, r->sweep);
        sb_puts(h, "</code> is a search, not a parameter: the command runs the case at the row's step; runs.csv's "
                   "counts sum the search's trials</span>");
      }
      sb_puts(h, "</td></tr>\n");
    }
    sb_puts(h, "</table>\n</details>\n");
  }
  sb_puts(h, "</section>\n");
}

/* ==== the page ============================================================================ */

static int write_page(report *rp, const fb_vtable *vt, const char *scn, fb_err *err)
{
  const fb_scenario_type *st = fb_scenario_find(scn);
  sbuf h = {0};
  sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>fricbench: ");
  sb_html(&h, scn);
  sb_printf(&h, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<p class=\"small\"><a "
                "href=\"report.html\">&larr; report.html</a></p>\n<h1>Scenario <code>",
            page_css);
  sb_html(&h, scn);
  sb_puts(&h, "</code>");
  if (st != NULL && st->title != NULL) {
    sb_puts(&h, ": ");
    sb_html(&h, st->title);
  }
  sb_puts(&h, "</h1>\n");
  if (st != NULL && st->source != NULL) {
    sb_puts(&h, "<p>Source: ");
    sb_html(&h, st->source);
    sb_puts(&h, " (docs/bibliography.md).</p>\n");
  }
  html_ref_kind(&h, &rp->R, scn);
  sb_puts(&h, "<nav><a href=\"#parameters\">Parameters</a><a href=\"#equations\">Equations</a>"
              "<a href=\"#trajectory\">Trajectories</a><a href=\"#work-precision\">Work-precision</a>"
              "<a href=\"#verdicts\">Verdicts</a><a href=\"#runs\">Runs and commands</a></nav>\n</header>\n");
  html_params(&h, rp, st, scn);
  html_docs(&h, rp, scn);
  html_plots(&h, rp, scn);
  html_verdicts(&h, vt, scn);
  html_runs(&h, &rp->R, scn);
  sb_puts(&h, "<footer class=\"small\"><p>Made by fricbench from the files of this results directory; "
              "every plot's numbers are under plots/data/.</p></footer>\n</body>\n</html>\n");
  if (h.bad) {
    sb_free(&h);
    return fb_err_set(err, FB_ENOMEM, "out of memory building the page of '%s'", scn);
  }
  char name[PATH_LEN], path[PATH_LEN];
  page_name(scn, name, sizeof name);
  if (path_fmt(path, sizeof path, "%s/%s", rp->dir, name) != 0) {
    sb_free(&h);
    return fb_err_set(err, FB_EIO, "path too long for '%s'", name);
  }
  fb_outfile of;
  int st2 = fb_outfile_open(&of, path, "scenario page", err);
  if (st2 == FB_OK) {
    if (fwrite(h.s, 1, h.n, of.fp) != h.n) {
      fb_outfile_abort(&of);
      st2 = fb_err_set(err, FB_EIO, "writing '%s' failed", path);
    } else {
      st2 = fb_outfile_commit(&of, err);
    }
  }
  sb_free(&h);
  return st2;
}

int write_pages(report *rp, const fb_vtable *vt, fb_err *err)
{
  names sc = {{0}, 0};
  for (size_t k = 0; k < rp->R.n; k++)
    names_add(&sc, rp->R.r[k].scenario);
  int st = FB_OK;
  for (size_t i = 0; i < sc.n && st == FB_OK; i++)
    st = write_page(rp, vt, sc.s[i], err);
  return st;
}
