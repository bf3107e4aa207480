/* test_resume.c — interruption and `fricbench suite --resume DIR` (issue 6).
 *
 * A suite of the machinery tests' plan (tests/plans/tiny.ini: a few fast runs of several
 * groups, with references, trajectories and convergence ladders; the time of this test
 * does not grow with the default table) is interrupted with SIGINT while it computes its
 * references, resumed and interrupted with SIGINT once a few jobs are in its journal,
 * resumed and interrupted with SIGTERM, then resumed to the end: each interruption exits
 * 128 + signal and leaves a runs.csv of exactly the finished rows, and the final
 * runs.csv, orders.csv and trajectories equal those of an uninterrupted run of the same
 * plan alongside (apart from the timing columns wall_s and cpu_s).  Then a torn journal tail
 * and a corrupt record are cut off and their jobs rerun, again to the same runs.csv; a
 * journal of another table, or garbage, is refused.  Tables other than the default (a
 * plan, --scenario/--model filters, --set, --h, a plugin's model) are interrupted and
 * resumed with `--resume DIR` alone to the uninterrupted result, and a plan or plugin that
 * changed or went missing since is refused by name (issue 24).  The
 * journal reader itself is tested on hand-made lines (the fuzzer, fuzz/, goes further).
 * No test measures time: the interrupting test waits for journal lines, with a generous
 * limit only so that a broken build cannot hang it.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fb_resume.h"
#include "fb_test.h"

static char out[1 << 14], errbuf[1 << 14];

/* ---- helpers ------------------------------------------------------------------------- */

/* fricbench in the background, its output discarded. */
static pid_t spawn(const char *const *argv)
{
  const int dn = open("/dev/null", O_RDWR);
  cr_assert(dn >= 0);
  const pid_t pid = fbt_spawn(argv, dn, dn);
  close(dn);
  return pid;
}

static int wait_exit(pid_t pid)
{
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static size_t count_lines(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (fp == NULL)
    return 0;
  size_t n = 0;
  int c;
  while ((c = fgetc(fp)) != EOF)
    n += c == '\n';
  fclose(fp);
  return n;
}

/* Journal records ("J " lines; the header and the recipe's R lines are not). */
static size_t count_recs(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (fp == NULL)
    return 0;
  size_t n = 0;
  char line[FB_JOURNAL_LINE_MAX + 2];
  while (fgets(line, sizeof line, fp) != NULL)
    n += line[0] == 'J' && line[1] == ' ' && strchr(line, '\n') != NULL;
  fclose(fp);
  return n;
}

/* Wait until the journal exists and holds at least `recs` records, then send sig.  Fails
 * when the suite exits first or nothing happens for a long time (a hang, not a
 * measurement). */
static void interrupt_after(pid_t pid, const char *journal, size_t recs, int sig)
{
  const struct timespec nap = {0, 2000000}; /* 2 ms */
  for (long i = 0; i < 150000; i++) {
    if (access(journal, F_OK) == 0 && count_recs(journal) >= recs) {
      cr_assert_eq(kill(pid, sig), 0);
      return;
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "the suite ended before it was interrupted");
    nanosleep(&nap, NULL);
  }
  kill(pid, SIGKILL);
  cr_assert_fail("the journal never reached %zu records", recs);
}

static char *slurp(const char *path, size_t *len)
{
  FILE *fp = fopen(path, "rb");
  cr_assert_not_null(fp, "cannot open %s", path);
  fseek(fp, 0, SEEK_END);
  const long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  cr_assert_not_null(buf);
  cr_assert_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
  buf[n] = '\0';
  fclose(fp);
  if (len != NULL)
    *len = (size_t)n;
  return buf;
}

static void spit(const char *path, const char *text, size_t len)
{
  FILE *fp = fopen(path, "wb");
  cr_assert_not_null(fp);
  cr_assert_eq(fwrite(text, 1, len, fp), len);
  fclose(fp);
}

/* runs.csv as lines with the last two fields (wall_s, cpu_s) cut off. */
typedef struct rows {
  size_t n;
  char **line;
} rows;

static rows read_rows(const char *path)
{
  char *text = slurp(path, NULL);
  rows r = {0, NULL};
  size_t cap = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char *c2 = strrchr(l, ',');
    cr_assert_not_null(c2);
    *c2 = '\0';
    char *c1 = strrchr(l, ',');
    cr_assert_not_null(c1);
    *c1 = '\0';
    if (r.n == cap) {
      cap = cap ? 2 * cap : 256;
      r.line = realloc(r.line, cap * sizeof *r.line);
      cr_assert_not_null(r.line);
    }
    r.line[r.n++] = strdup(l);
  }
  free(text);
  return r;
}

static void free_rows(rows *r)
{
  for (size_t i = 0; i < r->n; i++)
    free(r->line[i]);
  free(r->line);
}

/* Every row of `part` (after the header) is the row of `full` with the same run_id. */
static void expect_subset(const rows *part, const rows *full, const char *what)
{
  cr_assert_geq(part->n, 1, "%s: runs.csv has a header", what);
  cr_assert_str_eq(part->line[0], full->line[0], "%s: same header", what);
  for (size_t i = 1; i < part->n; i++) {
    const long id = strtol(part->line[i], NULL, 10);
    cr_assert(id >= 1 && (size_t)id < full->n, "%s: run_id %ld", what, id);
    cr_expect_str_eq(part->line[i], full->line[id], "%s: row %ld differs:\n%s\n%s", what, id,
                     part->line[i], full->line[id]);
    if (i > 1)
      cr_expect_gt(id, strtol(part->line[i - 1], NULL, 10), "%s: rows in table order", what);
  }
}

/* No temporary file (*.tmp.*) anywhere under dir. */
static size_t count_tmp(const char *dir)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    return 0;
  size_t n = 0;
  struct dirent *e;
  char p[2048];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
      n += count_tmp(p);
    else
      n += strstr(e->d_name, ".tmp.") != NULL;
  }
  closedir(d);
  return n;
}

/* Two directory trees hold the same files with the same bytes (journal excluded: it
 * has the timings and the order in which jobs finished). */
static void expect_same_tree(const char *a, const char *b)
{
  DIR *d = opendir(a);
  cr_assert_not_null(d, "cannot open %s", a);
  struct dirent *e;
  char pa[2048], pb[2048];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
        strcmp(e->d_name, FB_JOURNAL_NAME) == 0 || strcmp(e->d_name, "runs.csv") == 0 ||
        strcmp(e->d_name, "meta.json") == 0)
      continue;
    snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
    struct stat sa, sb;
    cr_assert_eq(lstat(pa, &sa), 0);
    cr_assert_eq(lstat(pb, &sb), 0, "%s exists in the uninterrupted run only", pb);
    if (S_ISDIR(sa.st_mode)) {
      expect_same_tree(pa, pb);
      continue;
    }
    size_t na, nb;
    char *ta = slurp(pa, &na), *tb = slurp(pb, &nb);
    cr_expect(na == nb && memcmp(ta, tb, na) == 0, "%s differs from %s", pb, pa);
    free(ta);
    free(tb);
  }
  closedir(d);
}

/* ---- the interrupted suite ----------------------------------------------------------- */

Test(resume, interrupt_twice_then_resume_equals_uninterrupted, .timeout = 600)
{
  char base[64], a[128], b[128], ja[160], jb[160], ra[160], rb[160];
  fbt_tmpdir(base, sizeof base);
  snprintf(a, sizeof a, "%s/full", base);
  snprintf(b, sizeof b, "%s/cut", base);
  snprintf(ja, sizeof ja, "%s/%s", a, FB_JOURNAL_NAME);
  snprintf(jb, sizeof jb, "%s/%s", b, FB_JOURNAL_NAME);
  snprintf(ra, sizeof ra, "%s/runs.csv", a);
  snprintf(rb, sizeof rb, "%s/runs.csv", b);
  const char *plan = fbt_tiny_plan();
  const char *full[] = {"suite", "--plan", plan, "--no-plots", "--jobs", "1", "--out", a, NULL};
  const char *cut[] = {"suite", "--plan", plan, "--no-plots", "--jobs", "1", "--out", b, NULL};
  const char *resume[] = {"suite", "--resume", b, "--no-plots", "--jobs", "1", NULL};
  const pid_t pa = spawn(full); /* alongside: the two use one core each */

  /* 0. SIGINT as soon as the journal exists (the references are being computed) */
  pid_t pb = spawn(cut);
  interrupt_after(pb, jb, 0, SIGINT);
  cr_assert_eq(wait_exit(pb), 130, "SIGINT: exit 128 + 2");
  const size_t n0 = count_recs(jb);
  cr_assert_eq(count_lines(rb), 1 + n0, "runs.csv holds exactly the %zu finished rows", n0);
  cr_assert_eq(count_tmp(b), 0, "no temporary file left");

  /* 1. resume, SIGINT after 5 more jobs: exit 130, runs.csv = the journaled rows */
  pb = spawn(resume);
  interrupt_after(pb, jb, n0 + 5, SIGINT);
  cr_assert_eq(wait_exit(pb), 130, "SIGINT: exit 128 + 2");
  const size_t n1 = count_recs(jb);
  cr_assert_geq(n1, n0 + 5);
  cr_assert_eq(count_lines(rb), 1 + n1, "runs.csv holds exactly the %zu finished rows", n1);
  cr_assert_eq(count_tmp(b), 0, "no temporary file left");

  /* 2. resume, SIGTERM after 5 more: exit 143 */
  pb = spawn(resume);
  interrupt_after(pb, jb, n1 + 5, SIGTERM);
  cr_assert_eq(wait_exit(pb), 143, "SIGTERM: exit 128 + 15");
  const size_t n2 = count_recs(jb);
  cr_assert_geq(n2, n1 + 5);
  cr_assert_eq(count_lines(rb), 1 + n2);
  cr_assert_eq(count_tmp(b), 0, "no temporary file left");
  rows part = read_rows(rb);

  /* 3. resume to the end */
  const int rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "resume: exit %d: %s", rc, errbuf);
  cr_assert(strstr(errbuf, "runs from the journal") != NULL, "%s", errbuf);
  cr_assert_eq(wait_exit(pa), 0, "the uninterrupted suite");

  rows ref = read_rows(ra), got = read_rows(rb);
  expect_subset(&part, &ref, "after SIGTERM");
  cr_assert_eq(got.n, ref.n, "same number of rows");
  for (size_t i = 0; i < ref.n; i++)
    cr_expect_str_eq(got.line[i], ref.line[i], "row %zu differs apart from wall_s, cpu_s", i);
  expect_same_tree(a, b);
  cr_assert_eq(count_lines(jb), count_lines(ja), "one journal line per job in both");
  cr_assert_eq(count_tmp(b), 0);

  /* 4. a torn last line (half a record, as after a power loss) and the 3 records before
   * it lost: cut off, those 3 jobs rerun, the same runs.csv */
  size_t len;
  char *text = slurp(jb, &len);
  const size_t lines = count_lines(jb);
  size_t keep = len, seen = 0;
  for (size_t i = len; i-- > 0;)
    if (text[i] == '\n' && ++seen == 4) {
      keep = i + 1;
      break;
    }
  const char *next = strchr(text + keep, '\n');
  cr_assert_not_null(next);
  spit(jb, text, keep + (size_t)(next - (text + keep)) / 2);
  unlink(rb);
  cr_assert_eq(fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert(strstr(errbuf, " 3 run now") != NULL, "three jobs rerun: %s", errbuf);
  cr_assert_eq(count_lines(jb), lines, "the torn line was cut, three records appended");
  free_rows(&got);
  got = read_rows(rb);
  cr_assert_eq(got.n, ref.n);
  for (size_t i = 0; i < ref.n; i++)
    cr_expect_str_eq(got.line[i], ref.line[i], "torn: row %zu", i);
  free(text);

  /* 5. a flipped byte in the 5th record from the end: reading stops there, 5 rerun */
  text = slurp(jb, &len);
  seen = 0;
  for (size_t i = len - 1; i-- > 0;)
    if (text[i] == '\n' && ++seen == 5) {
      text[i + 3] ^= 0x01;
      break;
    }
  spit(jb, text, len);
  cr_assert_eq(fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert(strstr(errbuf, " 5 run now") != NULL, "five jobs rerun: %s", errbuf);
  free_rows(&got);
  got = read_rows(rb);
  cr_assert_eq(got.n, ref.n);
  for (size_t i = 0; i < ref.n; i++)
    cr_expect_str_eq(got.line[i], ref.line[i], "flipped: row %zu", i);
  free(text);
  free_rows(&part);
  free_rows(&ref);
  free_rows(&got);
  fbt_rmdir(base);
}

Test(resume, foreign_or_broken_journal_is_refused)
{
  char dir[64], j[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(j, sizeof j, "%s/%s", dir, FB_JOURNAL_NAME);
  const char *resume[] = {"suite", "--resume", dir, NULL};
  /* a valid header of another table (the sum does not match this fricbench's) */
  fb_journal_head h = {0x0123456789abcdefULL, 170, 1, 2001, 2000000, 40000000, "elsewhere", 0, 0};
  char line[1024];
  const size_t n = fb_journal_format_head(&h, line, sizeof line);
  cr_assert_gt(n, 0);
  spit(j, line, n);
  int rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "%s", errbuf);
  cr_assert_eq(fbt_lines(errbuf), 1, "%s", errbuf);
  cr_assert(strstr(errbuf, "another experiment table") && strstr(errbuf, "elsewhere"), "%s",
            errbuf);
  cr_assert_eq(fbt_dir_entries(dir), 1, "nothing written");
  /* garbage */
  spit(j, "not a journal\n", 14);
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "%s", errbuf);
  cr_assert(strstr(errbuf, "not a fricbench journal"), "%s", errbuf);
  cr_assert_eq(fbt_dir_entries(dir), 1, "nothing written");
  /* a directory where the journal should be */
  unlink(j);
  mkdir(j, 0700);
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "%s", errbuf);
  rmdir(j);
  fbt_rmdir(dir);
}

/* ---- the journal reader -------------------------------------------------------------- */

static fb_journal_rec sample_rec(size_t index, const char *msg)
{
  fb_journal_rec r;
  memset(&r, 0, sizeof r);
  r.index = index;
  r.status = msg[0] ? FB_EGSL : FB_OK;
  r.ref_kind = (int)(index % 3);
  r.t_reached = 1.0 / 3.0;
  r.cnt = (fb_counters){1, 2, 3, 4, 5, 6, 18446744073709551615UL, 7};
  for (size_t i = 0; i < FB_NMETRICS; i++)
    r.metrics[i] = i % 3 == 0 ? (double)NAN : i % 3 == 1 ? 1e-300 * (double)i : -(double)INFINITY;
  r.wall_s = 0.1;
  r.cpu_s = 5e-324;
  snprintf(r.message, sizeof r.message, "%s", msg);
  return r;
}

static int collect(void *ctx, const fb_journal_rec *r)
{
  fb_journal_rec *dst = ctx;
  dst[r->index] = *r;
  return 0;
}

static int same_double(double a, double b)
{
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

Test(resume, journal_lines_round_trip_bit_for_bit)
{
  const char *msgs[] = {"", "-", "gsl error -1 (failure) at t=0.10000000000000001",
                        "100% \"quoted\", comma\nnew line\ttab \xc3\xa9", "%2D", NULL};
  for (size_t k = 0; msgs[k] != NULL; k++) {
    fb_journal_rec r = sample_rec(k, msgs[k]), back;
    char line[FB_JOURNAL_LINE_MAX + 1];
    const size_t n = fb_journal_format_rec(&r, 42, line, sizeof line);
    cr_assert_gt(n, 0);
    cr_assert_eq(line[n - 1], '\n');
    cr_assert_eq(memchr(line, '\n', n - 1), NULL, "one line");
    cr_assert_eq(fb_journal_parse_rec(line, n - 1, 42, 10, &back), FB_OK, "%s", line);
    cr_assert_eq(back.index, r.index);
    cr_assert_eq(back.status, r.status);
    cr_assert_eq(back.ref_kind, r.ref_kind);
    cr_assert_str_eq(back.message, r.message);
    cr_assert_eq(memcmp(&back.cnt, &r.cnt, sizeof r.cnt), 0);
    cr_assert(same_double(back.t_reached, r.t_reached) && same_double(back.cpu_s, r.cpu_s));
    for (size_t i = 0; i < FB_NMETRICS; i++)
      cr_assert(same_double(back.metrics[i], r.metrics[i]), "metric %zu", i);
    /* wrong sum, index out of range, any flipped byte: refused */
    cr_assert_eq(fb_journal_parse_rec(line, n - 1, 43, 10, &back), FB_EINVAL);
    cr_assert_eq(fb_journal_parse_rec(line, n - 1, 42, k, &back), FB_EINVAL);
    for (size_t i = 0; i + 1 < n; i += 7) {
      char bad[FB_JOURNAL_LINE_MAX + 1];
      memcpy(bad, line, n);
      bad[i] ^= 0x01;
      cr_assert_eq(fb_journal_parse_rec(bad, n - 1, 42, 10, &back), FB_EINVAL,
                   "flipped byte %zu accepted", i);
    }
  }
}

Test(resume, journal_text_stops_at_the_first_bad_line)
{
  fb_journal_head h = {0xfeedULL, 4, 1, 2001, 10, 20, "v1 with space", 3, 7}, hb;
  char text[4 * FB_JOURNAL_LINE_MAX];
  size_t len = fb_journal_format_head(&h, text, sizeof text);
  cr_assert_gt(len, 0);
  size_t ends[4];
  for (size_t k = 0; k < 4; k++) {
    fb_journal_rec r = sample_rec(k, k % 2 ? "failed" : "");
    const size_t n = fb_journal_format_rec(&r, h.sum, text + len, sizeof text - len);
    cr_assert_gt(n, 0);
    len += n;
    ends[k] = len;
  }
  fb_journal_rec got[4];
  size_t valid, nrec;
  fb_err err;
  cr_assert_eq(fb_journal_parse(text, len, &hb, collect, got, &valid, &nrec, &err), FB_OK);
  cr_assert_eq(nrec, 4);
  cr_assert_eq(valid, len);
  cr_assert_str_eq(hb.rev, "v1 with space");
  cr_assert(hb.part == 3 && hb.nparts == 7, "part %zu of %zu", hb.part, hb.nparts);
  cr_assert_eq(hb.sum, h.sum);
  /* torn: without the last newline the last record is not valid */
  cr_assert_eq(fb_journal_parse(text, len - 1, &hb, collect, got, &valid, &nrec, &err), FB_OK);
  cr_assert_eq(nrec, 3);
  cr_assert_eq(valid, ends[2]);
  /* every prefix parses without error to a valid prefix at a line end */
  for (size_t cutlen = 0; cutlen <= len; cutlen += 13) {
    const int st = fb_journal_parse(text, cutlen, &hb, NULL, NULL, &valid, &nrec, &err);
    if (st == FB_OK)
      cr_assert(valid <= cutlen && text[valid - 1] == '\n');
  }
  /* a NUL byte inside a record stops there */
  text[ends[1] + 3] = '\0';
  cr_assert_eq(fb_journal_parse(text, len, &hb, collect, got, &valid, &nrec, &err), FB_OK);
  cr_assert_eq(nrec, 2);
  /* not a header */
  cr_assert_eq(fb_journal_parse("J 0\n", 4, &hb, NULL, NULL, &valid, &nrec, &err), FB_EINVAL);
  cr_assert_eq(fb_journal_parse("", 0, &hb, NULL, NULL, &valid, &nrec, &err), FB_EINVAL);
}

/* ---- tables other than the default: plans, filters, settings, plugins (issue 24) -------- *
 * Each case runs a small suite to the end and the same suite interrupted with SIGINT after
 * its first finished job, then resumes the second with `--resume DIR` alone (no plan,
 * filter, setting or --plugin given again: the journal says how the table was made).  The
 * resumed runs.csv must equal the uninterrupted one apart from wall_s and cpu_s, and the
 * trajectories must be the same bytes. */

/* SIGINT once the journal holds a record.  A suite that ends first (a very fast machine)
 * is cut instead: its journal back to the header, the R lines and one record, runs.csv
 * removed, which is the state an interrupt leaves (resume reads nothing else). */
static void interrupt_or_cut(pid_t pid, const char *dir)
{
  char j[600], runs[600];
  snprintf(j, sizeof j, "%s/%s", dir, FB_JOURNAL_NAME);
  snprintf(runs, sizeof runs, "%s/runs.csv", dir);
  const struct timespec nap = {0, 1000000}; /* 1 ms */
  for (long i = 0; i < 300000; i++) {
    int status;
    if (count_recs(j) >= 1) {
      kill(pid, SIGINT);
      const int rc = wait_exit(pid);
      cr_assert(rc == 130 || rc == 0, "interrupted suite: exit %d", rc);
      if (rc == 130) {
        cr_assert_eq(count_lines(runs), 1 + count_recs(j), "runs.csv: the finished rows");
        return;
      }
      break; /* it finished before the signal: cut it below */
    }
    const pid_t w = waitpid(pid, &status, WNOHANG);
    cr_assert(w == 0 || (w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0),
              "the suite failed before it was interrupted");
    if (w == pid)
      break;
    nanosleep(&nap, NULL);
  }
  cr_log_warn("the suite ended before SIGINT: its journal is cut instead");
  size_t len, keep = 0, recs = 0;
  char *text = slurp(j, &len);
  for (size_t i = 0; i < len && recs < 2; i++)
    if (text[i] == '\n') {
      keep = i + 1;
      recs += text[i + 1] == 'J'; /* the line after this one is a record */
    }
  spit(j, text, keep);
  free(text);
  cr_assert_eq(count_recs(j), 1);
  unlink(runs);
}

/* argv: pre (e.g. --plugin FILE, may be empty), "suite", args, then --no-plots --jobs 1
 * --out DIR; NULL-terminated. */
static void suite_argv(const char **v, size_t cap, const char *const *pre,
                       const char *const *args, const char *dir)
{
  size_t n = 0;
  for (size_t i = 0; pre[i] != NULL; i++)
    v[n++] = pre[i];
  v[n++] = "suite";
  for (size_t i = 0; args[i] != NULL; i++)
    v[n++] = args[i];
  const char *tail[] = {"--no-plots", "--jobs", "1", "--out", dir, NULL};
  for (size_t i = 0; tail[i] != NULL; i++)
    v[n++] = tail[i];
  v[n] = NULL;
  cr_assert_lt(n, cap);
}

/* Files with a name ending in .csv or .csv.gz under dir/traj. */
static size_t count_traj(const char *dir)
{
  char p[600];
  snprintf(p, sizeof p, "%s/traj", dir);
  DIR *d = opendir(p);
  if (d == NULL)
    return 0;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') {
      char sub[1200];
      snprintf(sub, sizeof sub, "%s/%s", p, e->d_name);
      n += fbt_dir_entries(sub);
    }
  closedir(d);
  return n;
}

/* The whole case; base: a fresh directory.  Returns the number of rows. */
static size_t resume_case(const char *base, const char *const *pre, const char *const *args)
{
  char a[256], b[256], ra[300], rb[300];
  snprintf(a, sizeof a, "%s/full", base);
  snprintf(b, sizeof b, "%s/cut", base);
  snprintf(ra, sizeof ra, "%s/runs.csv", a);
  snprintf(rb, sizeof rb, "%s/runs.csv", b);
  const char *va[64], *vb[64];
  suite_argv(va, 64, pre, args, a);
  suite_argv(vb, 64, pre, args, b);
  int rc = fbt_cli(va, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "uninterrupted suite: exit %d: %s", rc, errbuf);
  interrupt_or_cut(spawn(vb), b);
  const char *resume[] = {"suite", "--resume", b, "--no-plots", "--jobs", "1", NULL};
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "resume: exit %d: %s", rc, errbuf);
  cr_assert(strstr(errbuf, "runs from the journal") != NULL, "%s", errbuf);
  rows ref = read_rows(ra), got = read_rows(rb);
  cr_assert_gt(ref.n, 2, "a table of several runs");
  cr_assert_eq(got.n, ref.n, "same number of rows");
  for (size_t i = 0; i < ref.n; i++)
    cr_expect_str_eq(got.line[i], ref.line[i], "row %zu differs apart from wall_s, cpu_s", i);
  expect_same_tree(a, b);
  cr_assert_eq(count_traj(b), count_traj(a));
  cr_assert_eq(count_tmp(b), 0);
  const size_t n = ref.n - 1;
  free_rows(&ref);
  free_rows(&got);
  return n;
}

/* A plan of three models at three steps, with trajectories. */
static const char small_plan[] =
    "[hold]\n"
    "group = fixed-step\n"
    "scenario = stick-slip\n"
    "model = karnopp, kikuuwe-be, smooth-sign\n"
    "set = mu=0.3\n"
    "sweep = h\n"
    "values = 1e-3, 5e-4, 2.5e-4\n"
    "traj = yes\n";

Test(resume, plan_is_resumed, .timeout = 300)
{
  char base[64], plan[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/my.ini", base);
  spit(plan, small_plan, sizeof small_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 9);
  char b[128];
  snprintf(b, sizeof b, "%s/cut", base);
  cr_assert_gt(count_traj(b), 0, "the plan's trajectories");
  fbt_rmdir(base);
}

/* Bisections (docs/design.md §10.2): their rows' h (the largest stable step found) and
 * sweep_value (the smallest unstable one) come from the runs, not from the table, so a
 * resumed suite must take them from the journal.  Bisections only, so that the job the
 * journal keeps is one; kikuuwe-be resolves its auto anchor per probe step. */
static const char bisect_plan[] =
    "[bisect ode]\n"
    "group = stable-step\n"
    "scenario = preload-hold\n"
    "model = kikuuwe, karnopp\n"
    "integrator = rk4\n"
    "set = m=2, k=5e4, mu=0.3\n"
    "h = 2.5e-4\n"
    "bisect = yes\n"
    "[bisect kbe]\n"
    "group = stable-step\n"
    "scenario = preload-hold\n"
    "model = kikuuwe-be\n"
    "set = m=2, k=5e4, mu=0.3\n"
    "h = 2.5e-4\n"
    "bisect = yes\n";

Test(resume, bisection_is_resumed, .timeout = 300)
{
  char base[64], plan[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/bisect.ini", base);
  spit(plan, bisect_plan, sizeof bisect_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 3);
  fbt_rmdir(base);
}

/* The chain's cost against n (group scale, docs/scenarios/chain.md "Cost against n"): its
 * cost-growth verdicts are decided on work counts, so a suite interrupted within the group
 * and resumed writes the same verdicts.csv as an uninterrupted one (resume_case compares
 * every file but runs.csv's timings and the journal); they once came from CPU times. */
static const char scale_plan[] =
    "[scale mj]\n"
    "group = scale\n"
    "tag = moreau-jean\n"
    "scenario = chain\n"
    "model = moreau-jean\n"
    "integrator = moreau-jean\n"
    "set = store=banded, T=0.05\n"
    "h = 1e-3\n"
    "sweep = param:scenario.n\n"
    "values = 3000, 1000, 300\n"
    "[scale relay]\n"
    "group = scale\n"
    "tag = kbe-relay\n"
    "scenario = chain\n"
    "model = kikuuwe-be\n"
    "integrator = kbe-relay\n"
    "set = store=banded, T=0.05\n"
    "h = 1e-3\n"
    "sweep = param:scenario.n\n"
    "values = 3000, 1000, 300\n";

Test(resume, scale_verdicts_are_resumed, .timeout = 300)
{
  char base[64], plan[128], vd[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/scale.ini", base);
  spit(plan, scale_plan, sizeof scale_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 6);
  snprintf(vd, sizeof vd, "%s/cut/verdicts.csv", base);
  size_t len;
  char *text = slurp(vd, &len);
  cr_expect(strstr(text, "cost-growth,work/step ~ n^1.00 (linear: <= 1.1)") != NULL, "%s", text);
  free(text);
  fbt_rmdir(base);
}

/* An engine's runs (docs/engines.md) are resumed like any others: rerun jobs replay to the
 * bit (ODE's QuickStep included: each world keeps its own random seed). */
static const char engine_plan[] =
    "[engine creep]\n"
    "group = practitioner\n"
    "scenario = push-hold\n"
    "model = ode\n"
    "integrator = ode-quickstep\n"
    "set = T=3\n"
    "h = 1e-3\n"
    "sweep = param:r\n"
    "values = 0.9, 0.99, 1.05, 2\n"
    "traj = yes\n"
    "[engine step]\n"
    "group = practitioner\n"
    "scenario = push-hold\n"
    "model = ode\n"
    "integrator = ode-step\n"
    "set = T=3, quickstep_iterations=50\n"
    "h = 1e-3\n"
    "sweep = param:r\n"
    "values = 0.99, 2\n";

Test(resume, engine_runs_are_resumed, .timeout = 300)
{
  const char *const probe[] = {"list", "engines", NULL};
  cr_assert_eq(fbt_cli(probe, out, sizeof out, errbuf, sizeof errbuf), 0);
  if (strstr(out, "ode            ODE 0.16 (libode-dev): present") == NULL)
    cr_skip_test("ODE absent");
  char base[64], plan[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/engine.ini", base);
  spit(plan, engine_plan, sizeof engine_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 6);
  fbt_rmdir(base);
}

/* Bullet's runs (docs/engines/bullet.md) are resumed the same: its solver is deterministic
 * per world (no random constraint order by default). */
static const char bullet_plan[] =
    "[bullet creep]\n"
    "group = practitioner\n"
    "scenario = push-hold\n"
    "model = bullet\n"
    "integrator = bullet-si\n"
    "set = T=3\n"
    "h = 1e-3\n"
    "sweep = param:r\n"
    "values = 0.9, 0.99, 1.05, 2\n"
    "traj = yes\n"
    "[bullet puck]\n"
    "group = practitioner\n"
    "scenario = puck\n"
    "model = bullet\n"
    "integrator = bullet-si\n"
    "set = solver_iterations=50, split_impulse_threshold=0\n"
    "h = 1e-3\n"
    "sweep = param:yaw\n"
    "values = 0, 22.5\n";

Test(resume, bullet_runs_are_resumed, .timeout = 300)
{
  const char *const probe[] = {"list", "engines", NULL};
  cr_assert_eq(fbt_cli(probe, out, sizeof out, errbuf, sizeof errbuf), 0);
  if (strstr(out, "bullet         Bullet 3.24 (libbullet-dev): present") == NULL)
    cr_skip_test("Bullet absent");
  char base[64], plan[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/bullet.ini", base);
  spit(plan, bullet_plan, sizeof bullet_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 6);
  fbt_rmdir(base);
}

Test(resume, scenario_and_model_filters_are_resumed, .timeout = 300)
{
  char base[64];
  fbt_tmpdir(base, sizeof base);
  const char *pre[] = {NULL}, *args[] = {"--quick", "--scenario", "stick-slip", "--model",
                                         "karnopp", "--model", "kikuuwe-be", NULL};
  resume_case(base, pre, args);
  fbt_rmdir(base);
}

Test(resume, set_is_resumed, .timeout = 300)
{
  char base[64];
  fbt_tmpdir(base, sizeof base);
  const char *pre[] = {NULL}, *args[] = {"--quick", "--scenario", "stick-slip", "--model",
                                         "karnopp", "--model", "smooth-sign", "--set",
                                         "mu=0.25", NULL};
  resume_case(base, pre, args);
  fbt_rmdir(base);
}

Test(resume, fixed_step_view_is_resumed, .timeout = 300)
{
  char base[64];
  fbt_tmpdir(base, sizeof base);
  const char *pre[] = {NULL}, *args[] = {"--quick", "--scenario", "stick-slip", "--model",
                                         "karnopp", "--model", "smooth-sign", "--h", "7e-4",
                                         NULL};
  resume_case(base, pre, args);
  fbt_rmdir(base);
}

Test(resume, plugin_model_is_resumed, .timeout = 300)
{
  const char *plugin = getenv("FB_PLUGIN_STRIBECK");
  cr_assert_not_null(plugin, "FB_PLUGIN_STRIBECK is not set (run through meson test)");
  char base[64];
  fbt_tmpdir(base, sizeof base);
  const char *pre[] = {"--plugin", plugin, NULL},
             *args[] = {"--quick", "--scenario", "stick-slip", "--model", "drake-stribeck",
                        "--model", "karnopp", NULL};
  resume_case(base, pre, args);
  fbt_rmdir(base);
}

/* A suite run to its end is resumed (nothing to do) only as long as what made its table is
 * unchanged: a changed plan, a changed or missing plugin are refused with one line naming
 * the file, and nothing is written. */
Test(resume, changed_plan_or_plugin_is_refused, .timeout = 300)
{
  const char *plugin = getenv("FB_PLUGIN_STRIBECK");
  cr_assert_not_null(plugin, "FB_PLUGIN_STRIBECK is not set (run through meson test)");
  char base[64], plan[128], so[128], d[128], rpath[160];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/my.ini", base);
  snprintf(so, sizeof so, "%s/copy.so", base);
  snprintf(d, sizeof d, "%s/run", base);
  snprintf(rpath, sizeof rpath, "%s/runs.csv", d);
  spit(plan, small_plan, sizeof small_plan - 1);
  size_t solen;
  char *sotext = slurp(plugin, &solen);
  spit(so, sotext, solen);
  const char *run[] = {"--plugin", so, "suite", "--plan", plan, "--no-plots", "--jobs", "1",
                       "--out", d, NULL};
  int rc = fbt_cli(run, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "%s", errbuf);
  const char *resume[] = {"suite", "--resume", d, "--no-plots", "--jobs", "1", NULL};
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "unchanged: resumed (nothing left to run): %s", errbuf);
  size_t before_len;
  char *before = slurp(rpath, &before_len);

  /* the plan's text changed: refused, naming the plan */
  char *edited = strdup(small_plan);
  *strstr(edited, "5e-4") = '6';
  spit(plan, edited, strlen(edited));
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "changed plan: exit %d: %s", rc, errbuf);
  cr_assert_eq(fbt_lines(errbuf), 1, "%s", errbuf);
  cr_assert(strstr(errbuf, "plan") && strstr(errbuf, plan) && strstr(errbuf, "changed"),
            "%s", errbuf);
  spit(plan, small_plan, sizeof small_plan - 1); /* put back */

  /* the plugin changed: refused, naming the plugin (not loaded) */
  spit(so, sotext, solen - 1);
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "changed plugin: exit %d: %s", rc, errbuf);
  cr_assert_eq(fbt_lines(errbuf), 1, "%s", errbuf);
  cr_assert(strstr(errbuf, "plugin") && strstr(errbuf, so) && strstr(errbuf, "changed"), "%s",
            errbuf);

  /* the plugin gone: refused, naming it */
  unlink(so);
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 2, "missing plugin: exit %d: %s", rc, errbuf);
  cr_assert_eq(fbt_lines(errbuf), 1, "%s", errbuf);
  cr_assert(strstr(errbuf, "plugin") && strstr(errbuf, "copy.so"), "%s", errbuf);

  /* nothing was written by the refusals; put back, it resumes again */
  size_t after_len;
  char *after = slurp(rpath, &after_len);
  cr_assert(after_len == before_len && memcmp(after, before, after_len) == 0,
            "runs.csv untouched");
  spit(so, sotext, solen);
  rc = fbt_cli(resume, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "restored: %s", errbuf);
  free(after);
  free(before);
  free(edited);
  free(sotext);
  fbt_rmdir(base);
}

/* The R lines: items with any bytes come back as written, records after them are read,
 * and a damaged R line makes the recipe (not just the tail) invalid. */
Test(resume, journal_recipe_round_trips)
{
  fb_journal_head h = {0xbeefULL, 3, 0, 2001, 10, 20, "rev", 0, 0};
  const char *items[] = {"plan 0123456789abcdef /a dir/with space%.ini", "set mu=0.3",
                         "scenario -", "tag new\nline\t\xc3\xa9", "-"};
  const size_t ni = sizeof items / sizeof items[0];
  char text[8 * FB_JOURNAL_LINE_MAX];
  size_t len = fb_journal_format_head(&h, text, sizeof text);
  for (size_t i = 0; i < ni; i++)
    len += fb_journal_format_item(items[i], text + len, sizeof text - len);
  const size_t recipe_end = len;
  fb_journal_rec r = sample_rec(2, "");
  len += fb_journal_format_rec(&r, h.sum, text + len, sizeof text - len);
  char **got;
  size_t n, valid, nrec;
  fb_err err;
  cr_assert_eq(fb_journal_recipe(text, len, &got, &n, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(n, ni);
  for (size_t i = 0; i < ni; i++)
    cr_assert_str_eq(got[i], items[i]);
  fb_journal_recipe_free(got, n);
  fb_journal_head hb;
  fb_journal_rec back[3];
  cr_assert_eq(fb_journal_parse(text, len, &hb, collect, back, &valid, &nrec, &err), FB_OK);
  cr_assert_eq(nrec, 1, "the record after the R lines is read");
  cr_assert_eq(valid, len);
  text[recipe_end - 20] ^= 0x01; /* the last R line's crc no longer matches */
  cr_assert_eq(fb_journal_recipe(text, len, &got, &n, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "damaged"), "%s", err.msg);
}

/* MuJoCo through its node process (docs/engines/mujoco.md): the rows a resumed suite
 * reruns are those the uninterrupted one wrote (the numbers cross the pipe exactly). */
static const char mujoco_plan[] =
    "[mujoco creep]\n"
    "group = practitioner\n"
    "scenario = push-hold\n"
    "model = mujoco\n"
    "set = T=2\n"
    "h = 1e-3\n"
    "sweep = param:r\n"
    "values = 0.9, 0.99, 2\n"
    "traj = yes\n"
    "[mujoco elliptic]\n"
    "group = practitioner\n"
    "scenario = push-hold\n"
    "model = mujoco\n"
    "integrator = mujoco-rk4\n"
    "set = T=2, cone=elliptic, impratio=10\n"
    "h = 1e-3\n"
    "sweep = param:r\n"
    "values = 0.95, 2\n";

Test(resume, mujoco_runs_are_resumed, .timeout = 300)
{
  const char *const probe[] = {"list", "engines", NULL};
  cr_assert_eq(fbt_cli(probe, out, sizeof out, errbuf, sizeof errbuf), 0);
  if (strstr(out, "run by Debian's nodejs): present") == NULL)
    cr_skip_test("MuJoCo absent (node or mujoco-js 0.0.7 missing)");
  char base[64], plan[128];
  fbt_tmpdir(base, sizeof base);
  snprintf(plan, sizeof plan, "%s/mujoco.ini", base);
  spit(plan, mujoco_plan, sizeof mujoco_plan - 1);
  const char *pre[] = {NULL}, *args[] = {"--plan", plan, NULL};
  cr_assert_eq(resume_case(base, pre, args), 5);
  fbt_rmdir(base);
}
