/* test_pages.c — the page per scenario (bench/report/report_pages.c, docs/design.md §8): a
 * quick suite cut to two scenarios (inclined-block: design.md's section, ladders, verdicts;
 * two-beam-impact: its own docs/scenarios file, no ladder with an error) writes scenario-<name>.html for every scenario
 * of its runs.csv, each linked from report.html; the pages are self-contained HTML (no
 * script, no external resource, every image a file of the directory, tags balanced);
 * they carry the parameter table, the quoted equations, the work-precision diagram and
 * the verdict rows; and the command a page gives for a run, run with the CLI, reproduces
 * that run's t_reached and nsteps of runs.csv (a fixed-step and an adaptive run).
 *
 * The cut suite (about 5 s with plots) runs once per test executable into a directory
 * keyed by the Criterion runner's pid; a POST_ALL hook removes it. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb_csv.h"
#include "fb_test.h"

static char out[1 << 16], errbuf[1 << 14];

static void base_dir(char *buf, size_t len, pid_t owner)
{
  snprintf(buf, len, "/tmp/fbt_pages_%ld", (long)owner);
}

static int exists_nonempty(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* The cut quick suite's directory (run on first use). */
static const char *suite_dir(void)
{
  static char dir[256];
  char runs[320];
  base_dir(dir, sizeof dir, getppid());
  snprintf(runs, sizeof runs, "%s/runs.csv", dir);
  if (!exists_nonempty(runs)) {
    const char *a[] = {"suite", "--quick", "--scenario", "inclined-block", "--scenario", "two-beam-impact",
                       "--jobs", "2", "--out", dir, NULL};
    const int rc = fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf);
    cr_assert_eq(rc, 0, "fricbench suite --quick --scenario ... failed with %d: %s", rc, errbuf);
  }
  return dir;
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
  (void)stats;
  char base[200];
  base_dir(base, sizeof base, getpid());
  fbt_rmdir(base);
}

static char *slurp_file(const char *path)
{
  char *text = NULL;
  size_t len = 0;
  cr_assert_eq(fb_read_file(path, &text, &len), 0, "cannot read %s", path);
  return text;
}

static size_t count(const char *text, const char *what)
{
  size_t n = 0;
  for (const char *p = strstr(text, what); p != NULL; p = strstr(p + 1, what))
    n++;
  return n;
}

static void load_runs(const char *dir, fb_csv *t)
{
  char path[320];
  int missing = 0;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  cr_assert_eq(fb_csv_load(t, path, &missing), 0, "cannot read %s", path);
}

Test(pages, one_page_per_scenario_linked_from_the_report, .timeout = 300)
{
  const char *dir = suite_dir();
  fb_csv t;
  load_runs(dir, &t);
  char path[512], link[256];
  snprintf(path, sizeof path, "%s/report.html", dir);
  char *report = slurp_file(path);
  const int c = fb_csv_col(&t, "scenario");
  size_t checked = 0;
  for (size_t r = 0; r < t.nrows; r++) {
    const char *s = fb_csv_s(&t, r, c);
    snprintf(path, sizeof path, "%s/scenario-%s.html", dir, s);
    cr_expect(exists_nonempty(path), "no page %s", path);
    snprintf(link, sizeof link, "href=\"scenario-%s.html\"", s);
    cr_expect(strstr(report, link) != NULL, "report.html does not link %s", link);
    checked++;
  }
  cr_expect_gt(checked, 0);
  snprintf(path, sizeof path, "%s/scenario-no-such-scenario.html", dir);
  cr_expect(!exists_nonempty(path), "a page only for scenarios that ran");
  free(report);
  fb_csv_free(&t);
}

/* Self-contained, well-formed HTML: every opened element of the kinds the page uses is
 * closed, no script, nothing fetched from elsewhere, every image a file of DIR. */
static void check_page(const char *dir, const char *scn)
{
  char path[512];
  snprintf(path, sizeof path, "%s/scenario-%s.html", dir, scn);
  char *h = slurp_file(path);
  cr_expect(strncmp(h, "<!DOCTYPE html>\n<html lang=\"en\">", 31) == 0, "%s: doctype", path);
  cr_expect(strstr(h, "</body>\n</html>\n") != NULL, "%s: not closed", path);
  cr_expect(strstr(h, "<meta charset=\"utf-8\">") != NULL);
  static const char *const tags[] = {"table", "tr", "td", "th", "section", "details", "pre", "figure",
                                     "code", "p", "a", "h1", "h2", "h3", "summary", "figcaption"};
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
    char open1[32], open2[32], close[32];
    snprintf(open1, sizeof open1, "<%s>", tags[i]);
    snprintf(open2, sizeof open2, "<%s ", tags[i]);
    snprintf(close, sizeof close, "</%s>", tags[i]);
    cr_expect_eq(count(h, open1) + count(h, open2), count(h, close), "%s: <%s> %zu opened, %zu closed",
                 path, tags[i], count(h, open1) + count(h, open2), count(h, close));
  }
  cr_expect_eq(count(h, "<script"), 0, "%s: a script", path);
  cr_expect_eq(count(h, "src=\"http"), 0, "%s: an external resource", path);
  cr_expect_eq(count(h, "<link"), 0, "%s: an external style sheet", path);
  /* every image is a file of the directory */
  size_t imgs = 0;
  for (const char *p = strstr(h, "<img src=\""); p != NULL; p = strstr(p + 1, "<img src=\"")) {
    const char *s = p + 10, *e = strchr(s, '"');
    char file[512];
    snprintf(file, sizeof file, "%s/%.*s", dir, (int)(e - s), s);
    cr_expect(strncmp(s, "plots/", 6) == 0 && exists_nonempty(file), "%s: image %s missing", path, file);
    imgs++;
  }
  cr_expect_gt(imgs, 0, "%s: no plot", path);
  /* the parts every page has */
  cr_expect(strstr(h, "<section id=\"parameters\">") && strstr(h, "<section id=\"equations\">") &&
                strstr(h, "<section id=\"verdicts\">") && strstr(h, "<section id=\"runs\">"),
            "%s: a section is missing", path);
  cr_expect(strstr(h, "Quoted from docs/") != NULL, "%s: no equations quoted from the docs", path);
  free(h);
}

Test(pages, pages_are_self_contained_html_with_every_part, .timeout = 300)
{
  const char *dir = suite_dir();
  check_page(dir, "inclined-block");
  check_page(dir, "two-beam-impact");
  char path[512];
  snprintf(path, sizeof path, "%s/scenario-inclined-block.html", dir);
  char *h = slurp_file(path);
  /* design.md §5's section, the parameter table with units and the values run, the
   * ladders' diagram, verdict rows naming it */
  cr_expect(strstr(h, "m xddot = m g sin(theta) + F") != NULL, "the equation of design.md §5");
  cr_expect(strstr(h, "<td><code>theta</code></td><td>deg</td>") != NULL, "theta's row with its unit");
  cr_expect(strstr(h, "<img src=\"plots/wp_inclined-block.png\"") != NULL, "its work-precision diagram");
  cr_expect(strstr(h, "<img src=\"plots/traj_inclined-block.png\"") != NULL, "its trajectory overlay");
  cr_expect(strstr(h, "<b>exact</b> in ") != NULL, "its reference kind");
  const char *v = strstr(h, "<section id=\"verdicts\">");
  cr_assert_not_null(v);
  cr_expect(strstr(v, "<th>verdict</th>") != NULL && strstr(v, "<td>stick</td>") != NULL,
            "verdict rows judged on inclined-block");
  free(h);
  snprintf(path, sizeof path, "%s/scenario-two-beam-impact.html", dir);
  h = slurp_file(path);
  cr_expect(strstr(h, "Quoted from docs/scenarios/two-beam-impact.md") != NULL, "its own doc file");
  cr_expect(strstr(h, "g_n = q1 - q0 + g_0 &gt;= 0") != NULL, "the equations of its doc");
  cr_expect(strstr(h, "No ladder") != NULL, "no diagram without a ladder, and it says so");
  free(h);
}

/* The reference line of a page (header): a scenario with normal contacts whose runs have no
 * trajectory reference (runs.csv ref none) still has the contact reference its contact
 * metrics are scored against, and the page names it; the page once said only "none". */
Test(pages, the_reference_line_names_the_contact_reference, .timeout = 300)
{
  const char *dir = suite_dir();
  char path[512];
  snprintf(path, sizeof path, "%s/scenario-two-beam-impact.html", dir);
  char *h = slurp_file(path);
  const char *line = strstr(h, "<p>Reference used by the runs.");
  cr_assert_not_null(line);
  const char *end = strstr(line, "</p>");
  cr_assert_not_null(end);
  const char *c = strstr(line, "Runs with normal contacts: their contact metrics");
  cr_expect(c != NULL && c < end, "the contact reference in the reference line");
  c = strstr(line, "scored against <b>newton, event-driven, at tolerance 1e-12</b>");
  cr_expect(c != NULL && c < end, "two-beam-impact's: newton at 1e-12");
  c = strstr(line, "<b>none</b> in ");
  cr_expect(c != NULL && c < end && strstr(line, "declares no built-in reference") < end,
            "the trajectories' none, with why");
  free(h);
  snprintf(path, sizeof path, "%s/scenario-inclined-block.html", dir);
  h = slurp_file(path);
  cr_expect(strstr(h, "Runs with normal contacts") == NULL, "friction only: no contact line");
  free(h);
}

/* The page's command for run `id`, split into argv (without the program name). */
static size_t page_command(const char *dir, const char *scn, long id, char *buf, size_t len,
                           const char **argv, size_t max)
{
  char path[512], key[64];
  snprintf(path, sizeof path, "%s/scenario-%s.html", dir, scn);
  char *h = slurp_file(path);
  snprintf(key, sizeof key, "<tr id=\"run-%ld\">", id);
  const char *row = strstr(h, key);
  cr_assert_not_null(row, "%s has no row for run %ld", path, id);
  const char *c = strstr(row, "<code class=\"cmd\">fricbench run ");
  cr_assert_not_null(c);
  c += strlen("<code class=\"cmd\">fricbench ");
  const char *e = strstr(c, "</code>");
  cr_assert(e != NULL && (size_t)(e - c) < len);
  snprintf(buf, len, "%.*s", (int)(e - c), c);
  free(h);
  cr_assert_null(strpbrk(buf, "&'\""), "a command the test cannot split: %s", buf);
  size_t n = 0;
  for (char *tok = strtok(buf, " "); tok != NULL && n + 1 < max; tok = strtok(NULL, " "))
    argv[n++] = tok;
  argv[n] = NULL;
  return n;
}

/* The JSON number of "key": in text. */
static double json_num(const char *text, const char *key)
{
  char k[64];
  snprintf(k, sizeof k, "\"%s\": ", key);
  const char *p = strstr(text, k);
  cr_assert_not_null(p, "no %s in %s", key, text);
  return strtod(p + strlen(k), NULL);
}

static void reproduce(const char *dir, const fb_csv *t, size_t row)
{
  const long id = (long)fb_csv_d(t, row, fb_csv_col(t, "run_id"));
  const char *scn = fb_csv_s(t, row, fb_csv_col(t, "scenario"));
  char cmd[8192];
  const char *argv[256];
  size_t n = page_command(dir, scn, id, cmd, sizeof cmd, argv, 250);
  argv[n++] = "--metrics";
  argv[n++] = "--out";
  argv[n++] = "/dev/null";
  argv[n] = NULL;
  const int rc = fbt_cli(argv, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "run %ld's command failed (%d): %s", id, rc, errbuf);
  const double t_csv = fb_csv_d(t, row, fb_csv_col(t, "t_reached")),
               n_csv = fb_csv_d(t, row, fb_csv_col(t, "nsteps"));
  cr_expect(fabs(json_num(out, "t_reached") - t_csv) <= 1e-9 * fabs(t_csv), "run %ld: t_reached %.17g, runs.csv %.17g",
            id, json_num(out, "t_reached"), t_csv);
  cr_expect_eq(json_num(out, "nsteps"), n_csv, "run %ld: nsteps %.0f, runs.csv %.0f", id,
               json_num(out, "nsteps"), n_csv);
}

Test(pages, a_pages_commands_reproduce_its_runs, .timeout = 300)
{
  const char *dir = suite_dir();
  fb_csv t;
  load_runs(dir, &t);
  /* a fixed-step run (a convergence rung) and an adaptive one (two-beam-impact: a normal
   * treatment among the scenario's parameters, some away from their defaults) */
  long fixed = -1, adaptive = -1;
  const int cg = fb_csv_col(&t, "group"), cm = fb_csv_col(&t, "mode"), cs = fb_csv_col(&t, "scenario"),
            cst = fb_csv_col(&t, "status");
  for (size_t r = 0; r < t.nrows; r++) {
    if (strcmp(fb_csv_s(&t, r, cst), "ok") != 0)
      continue;
    if (fixed < 0 && strcmp(fb_csv_s(&t, r, cg), "convergence") == 0 && strcmp(fb_csv_s(&t, r, cm), "fixed") == 0)
      fixed = (long)r;
    if (adaptive < 0 && strcmp(fb_csv_s(&t, r, cs), "two-beam-impact") == 0 &&
        strcmp(fb_csv_s(&t, r, cm), "adaptive") == 0)
      adaptive = (long)r;
  }
  cr_assert(fixed >= 0 && adaptive >= 0,
            "the cut suite has a fixed-step convergence run and an adaptive two-beam-impact run");
  reproduce(dir, &t, (size_t)fixed);
  reproduce(dir, &t, (size_t)adaptive);
  fb_csv_free(&t);
}
