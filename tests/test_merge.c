/* test_merge.c — the suite beyond one machine (docs/design.md §8): `suite --plan tiny.ini
 * --emit-jobs` (tests/plans/tiny.ini, the machinery tests' few fast runs: this test does
 * not grow with the default table), the lines run by GNU Parallel (`parallel -a FILE`,
 * Debian package `parallel`), then `merge`, give the runs.csv of a single-process suite of
 * the same plan apart from the timing columns (wall_s, cpu_s), the same orders.csv and
 * byte-identical trajectories; and merge refuses an incomplete set of parts, naming the
 * missing one.  Nothing here is timed.
 *
 * fb_merge_texts (fb_merge.h), the reading half of merge, is tested on texts: the order
 * of rows and orders, each fault named, and counts from files that cannot have
 * arrays of their size (the fuzz harness fuzz/fuzz_merge.c tries the rest).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb_verdicts.h"
#include "fb_csv.h"
#include "fb_manifest.h"
#include "fb_merge.h"
#include "fb_report.h"
#include "fb_resume.h"
#include "fb_test.h"

static char out[1 << 14], errbuf[1 << 14];

static char *slurp(const char *path)
{
  FILE *fp = fopen(path, "rb");
  cr_assert_not_null(fp, "cannot open %s", path);
  size_t cap = 1 << 16, len = 0, r;
  char *b = malloc(cap);
  while ((r = fread(b + len, 1, cap - len - 1, fp)) > 0) {
    len += r;
    if (len + 1 >= cap)
      b = realloc(b, cap *= 2);
  }
  fclose(fp);
  b[len] = '\0';
  return b;
}

/* runs.csv without its last two columns (wall_s, cpu_s: timings). */
static char *strip_timing(char *text)
{
  char *o = malloc(strlen(text) + 1), *w = o;
  for (char *line = text; *line;) {
    char *e = strchr(line, '\n');
    size_t n = e ? (size_t)(e - line) : strlen(line);
    size_t cut = n, commas = 0;
    while (cut > 0 && commas < 2)
      if (line[--cut] == ',')
        commas++;
    memcpy(w, line, cut);
    w += cut;
    *w++ = '\n';
    if (e == NULL)
      break;
    line = e + 1;
  }
  *w = '\0';
  return o;
}

static int run_sh(const char *cmd)
{
  const int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Every file under a/traj has a byte-identical twin under b/traj, and the other way. */
static size_t same_trajectories(const char *a, const char *b)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s/traj' && find . -type f | sort > ../../traj_a.txt && cd '%s/traj' && "
           "find . -type f | sort > ../../traj_b.txt",
           a, b);
  cr_assert_eq(run_sh(cmd), 0);
  snprintf(cmd, sizeof cmd, "%s/../traj_a.txt", a);
  char *la = slurp(cmd);
  snprintf(cmd, sizeof cmd, "%s/../traj_b.txt", b);
  char *lb = slurp(cmd);
  cr_assert_str_eq(la, lb, "the same trajectory files");
  size_t n = 0;
  for (char *p = la; *p;) {
    char *e = strchr(p, '\n');
    *e = '\0';
    snprintf(cmd, sizeof cmd, "cmp -s '%s/traj/%s' '%s/traj/%s'", a, p, b, p);
    cr_expect_eq(run_sh(cmd), 0, "trajectory %s differs", p);
    n++;
    p = e + 1;
  }
  free(la);
  free(lb);
  return n;
}

Test(merge, parallel_parts_reproduce_a_single_process_suite, .timeout = 300)
{
  cr_assert_eq(run_sh("command -v parallel >/dev/null 2>&1"), 0,
               "GNU Parallel is not installed (Debian: apt-get install parallel; "
               "scripts/bootstrap.sh installs it)");
  char dir[64], single[128], parts[128], jobs[160], path[256], cmd[512];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(single, sizeof single, "%s/single", dir);
  snprintf(parts, sizeof parts, "%s/parts", dir);
  snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
  const char *plan = fbt_tiny_plan();
  const char *a1[] = {"suite", "--plan", plan, "--no-plots", "--jobs", "2", "--out", single,
                      NULL};
  int rc = fbt_cli(a1, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "single-process suite: %s", errbuf);
  const char *a2[] = {"suite", "--plan", plan, "--emit-jobs", jobs, "--parts", "3", "--out",
                      parts, NULL};
  rc = fbt_cli(a2, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "--emit-jobs: %s", errbuf);
  char *lines = slurp(jobs);
  cr_assert_eq(fbt_lines(lines), 3, "one command per part:\n%s", lines);
  cr_assert(strstr(lines, "suite --part 1/3 --out") != NULL, "%s", lines);
  cr_assert(strstr(lines, "--plan '") != NULL && strstr(lines, plan) != NULL,
            "each part makes the plan's table: %s", lines);
  free(lines);
  /* a part missing: merge names it */
  snprintf(cmd, sizeof cmd, "head -n 2 '%s' | parallel --will-cite >/dev/null 2>&1", jobs);
  cr_assert_eq(run_sh(cmd), 0, "parallel ran the first two lines");
  const char *a3[] = {"merge", "--no-plots", parts, NULL};
  rc = fbt_cli(a3, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "merge of 2 of 3 parts must fail");
  cr_expect(strstr(errbuf, "part 3/3 is missing") != NULL, "names the missing part: %s", errbuf);
  /* all of them */
  snprintf(cmd, sizeof cmd, "parallel --will-cite -a '%s' >/dev/null 2>&1", jobs);
  cr_assert_eq(run_sh(cmd), 0, "parallel -a %s", jobs);
  rc = fbt_cli(a3, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "merge: %s", errbuf);
  snprintf(path, sizeof path, "%s/runs.csv", single);
  char *r1 = slurp(path), *s1 = strip_timing(r1);
  snprintf(path, sizeof path, "%s/runs.csv", parts);
  char *r2 = slurp(path), *s2 = strip_timing(r2);
  cr_assert_gt(fbt_lines(s1), 20, "the plan has its runs");
  cr_assert_str_eq(s1, s2, "merged runs.csv equals the single-process one apart from timings");
  snprintf(path, sizeof path, "%s/orders.csv", single);
  char *o1 = slurp(path);
  snprintf(path, sizeof path, "%s/orders.csv", parts);
  char *o2 = slurp(path);
  cr_assert_str_eq(o1, o2, "orders.csv");
  cr_expect_gt(same_trajectories(single, parts), 10, "trajectories were compared");
  snprintf(path, sizeof path, "%s/meta.json", parts);
  char *meta = slurp(path);
  cr_expect(strstr(meta, "\"parts\": 3") != NULL, "meta.json records the parts: %s", meta);
  free(meta);
  free(r1), free(s1), free(r2), free(s2), free(o1), free(o2);
  fbt_rmdir(dir);
}

Test(merge, refuses_bad_arguments)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  const char *a1[] = {"merge", dir, NULL};
  int rc = fbt_cli(a1, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "an empty directory is not a set of parts");
  cr_expect(strstr(errbuf, "holds no part") != NULL, "%s", errbuf);
  const char *a2[] = {"suite", "--quick", "--part", "4/3", NULL};
  rc = fbt_cli(a2, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "--part 4/3");
  const char *a3[] = {"suite", "--quick", "--parts", "3", NULL};
  rc = fbt_cli(a3, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "--parts without --emit-jobs");
  fbt_rmdir(dir);
}

/* A selection is split as it was given: every emitted line repeats the plan (by its
 * absolute path), the filters and the settings, so that each part makes the same table;
 * --print-plan does not split. */
Test(merge, emitted_jobs_repeat_the_selection)
{
  char dir[64], jobs[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
  const char *a[] = {"suite", "--plan", fbt_tiny_plan(), "--model", "kikuuwe", "--set",
                     "mu=0.25", "--traj", "all", "--emit-jobs", jobs, "--parts", "2", "--out",
                     dir, NULL};
  int rc = fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "%s", errbuf);
  char *lines = slurp(jobs), want[4200];
  cr_assert_eq(fbt_lines(lines), 2, "%s", lines);
  snprintf(want, sizeof want, " --plan '%s' --model 'kikuuwe' --set 'mu=0.25' --traj all ",
           fbt_tiny_plan());
  for (const char *l = lines; *l; l = strchr(l, '\n') + 1) {
    cr_assert(strstr(l, want) != NULL && strstr(l, want) < strchr(l, '\n'), "'%s' in %s", want,
              l);
  }
  free(lines);
  const char *b[] = {"suite", "--plan", fbt_tiny_plan(), "--print-plan", "--emit-jobs", jobs,
                     "--out", dir, NULL};
  rc = fbt_cli(b, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "--print-plan with --emit-jobs: %s", errbuf);
  const char *c[] = {"suite", "--plan", "/no/such/plan.ini", "--emit-jobs", jobs, "--parts", "2",
                     "--out", dir, NULL};
  rc = fbt_cli(c, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 2, "a plan that cannot be read: %s", errbuf);
  cr_expect(strstr(errbuf, "/no/such/plan.ini") != NULL, "%s", errbuf);
  fbt_rmdir(dir);
}

/* ---- fb_merge_texts ---------------------------------------------------------------------- */

#define HDR "run_id,group,tag,scenario,model,integrator,sweep,status,message\n"
#define PJ(part, parts, total)                                                                 \
  "{\"part\": " #part ", \"parts\": " #parts ", \"runs_total\": " #total                      \
  ", \"quick\": true, \"samples\": 11, \"git_revision\": \"abc\"}"

static fb_merge_part part_of(const char *name, const char *pj, const char *runs,
                             const char *orders, const char *meta)
{
  return (fb_merge_part){name, pj, runs, runs ? strlen(runs) : 0, orders,
                         orders ? strlen(orders) : 0, meta};
}

/* fb_merge_texts of parts[0..n) fails with a message holding `want`. */
static void expect_fault(const fb_merge_part *p, size_t n, const char *want)
{
  fb_merge_out o;
  fb_err err = {{0}};
  cr_expect_eq(fb_merge_texts(p, n, "D", &o, &err), FB_EINVAL, "must fail with '%s'", want);
  cr_expect(strstr(err.msg, want) != NULL, "'%s' in: %s", want, err.msg);
  cr_expect_null(o.runs);
}

Test(merge_texts, rows_by_id_orders_in_table_order_meta_summed)
{
  const fb_merge_part p[2] = {
      part_of("d/part-2", PJ(2, 2, 4), HDR "2,convergence,,s,m1,i,h,ok,\n"
                                           "4,\"base,line\",,s,m1,i,,failed,\"a \"\"b\"\"\"\n",
              "scenario,model,integrator,tag\ns,m2,i,\nzz,m9,i,\ns,m1,i,\n",
              "{\"wall_time_s\": 2.5, \"jobs\": 1, \"references\": 3, \"cpu\": \"x\\\"y\","
              " \"cores\": \"4, \\\"evil\\\": 1\"}"),
      part_of("d/part-1", PJ(1, 2, 4), HDR "1,baseline,,s,m1,i,,ok,\r\n3,convergence,,s,m2,i,h,budget,\r\n",
              NULL, "{\"wall_time_s\": 1.0, \"jobs\": 1, \"references\": 2}"),
  };
  fb_merge_out o;
  fb_err err = {{0}};
  cr_assert_eq(fb_merge_texts(p, 2, "2000-01-01T00:00:00Z", &o, &err), FB_OK, "%s", err.msg);
  cr_expect_str_eq(o.runs, HDR "1,baseline,,s,m1,i,,ok,\n2,convergence,,s,m1,i,h,ok,\n"
                               "3,convergence,,s,m2,i,h,budget,\n"
                               "4,\"base,line\",,s,m1,i,,failed,\"a \"\"b\"\"\"\n");
  cr_expect_eq(o.runs_len, strlen(o.runs));
  cr_expect_str_eq(o.orders, "scenario,model,integrator,tag\ns,m1,i,\ns,m2,i,\nzz,m9,i,\n",
                   "by the run id of the first convergence row; unmatched last");
  cr_expect_eq(o.nparts, 2);
  cr_expect_eq(o.nruns, 4);
  cr_expect_eq(o.tally.ok, 2);
  cr_expect_eq(o.tally.budget, 1);
  cr_expect_eq(o.tally.failed, 1);
  char v[64];
  fb_json_get(o.meta, "wall_time_s", v, sizeof v);
  cr_expect_str_eq(v, "2.5", "the longest part");
  fb_json_get(o.meta, "references", v, sizeof v);
  cr_expect_str_eq(v, "5");
  fb_json_get(o.meta, "cores", v, sizeof v);
  cr_expect_str_eq(v, "0", "a number field that is no number is not copied");
  fb_json_get(o.meta, "cpu", v, sizeof v);
  cr_expect_str_eq(v, "x\"y");
  fb_json_get(o.meta, "date", v, sizeof v);
  cr_expect_str_eq(v, "2000-01-01T00:00:00Z");
  fb_json_get(o.meta, "samples", v, sizeof v);
  cr_expect_str_eq(v, "0", "from meta.json, absent there");
  fb_merge_out_free(&o);
}

Test(merge_texts, names_each_fault)
{
  const char *r1 = HDR "1,baseline,,s,m,i,,ok,\n", *r2 = HDR "2,baseline,,s,m,i,,ok,\n";
  fb_merge_part p[3];
  p[0] = part_of("A", PJ(1, 2, 2), r1, NULL, NULL);
  p[1] = part_of("B", PJ(2, 2, 2), r2, NULL, NULL);
  p[2] = part_of("C", PJ(1, 2, 2), r1, NULL, NULL);
  expect_fault(p, 1, "merge: part 2/2 is missing: run line 2");
  expect_fault(p, 3, "merge: part 1/2 given twice (second: 'C')");
  p[2] = part_of("C", PJ(2, 3, 2), r2, NULL, NULL);
  expect_fault(p, 3, "'C' (part 2/3 of 2 runs; quick true, samples 11");
  p[1] = part_of("B", "{\"part\": 3, \"parts\": 2}", r2, NULL, NULL);
  expect_fault(p, 2, "merge: 'B/part.json' is damaged");
  p[1] = part_of("B", PJ(2, 2, 2), NULL, NULL, NULL);
  expect_fault(p, 2, "merge: part 2/2 in 'B' has no runs.csv: it did not finish");
  p[1] = part_of("B", PJ(2, 2, 2), "", NULL, NULL);
  expect_fault(p, 2, "merge: 'B/runs.csv' has no header");
  p[1] = part_of("B", PJ(2, 2, 2), "run_id,other\n2,x\n", NULL, NULL);
  expect_fault(p, 2, "merge: 'B/runs.csv' has other columns than 'A/runs.csv'");
  p[1] = part_of("B", PJ(2, 2, 2), HDR "3,baseline,,s,m,i,,ok,\n", NULL, NULL);
  expect_fault(p, 2, "merge: 'B/runs.csv': bad row '3,baseline,,s,m,i,,ok,'");
  p[1] = part_of("B", PJ(2, 2, 2), HDR "2,baseline,,s,m,i,,ok\n", NULL, NULL);
  expect_fault(p, 2, "bad row '2,baseline,,s,m,i,,ok'"); /* a field short */
  p[1] = part_of("B", PJ(2, 2, 2), HDR " 2,baseline,,s,m,i,,ok,\n", NULL, NULL);
  expect_fault(p, 2, "bad row ' 2,baseline");
  p[1] = part_of("B", PJ(2, 2, 2), HDR "1,baseline,,s,m,i,,failed,\n", NULL, NULL);
  expect_fault(p, 2, "merge: run 1 differs between parts");
  p[1] = part_of("B", PJ(2, 2, 2), HDR "1,baseline,,s,m,i,,ok,\n", NULL, NULL);
  expect_fault(p, 2, "merge: run 2 is in no part: a part was interrupted");
  p[1] = part_of("B", PJ(2, 2, 2), HDR "2,baseline,,s,m,i,,\"ok,\n", NULL, NULL);
  expect_fault(p, 2, "merge: 'B/runs.csv' ends inside a quoted field");
  p[1] = part_of("B", PJ(2, 2, 2), r2, "scenario\n\"s\n", NULL);
  expect_fault(p, 2, "merge: 'B/orders.csv' ends inside a quoted field");
  const char nul[] = HDR "2,baseline,,s,m,i,,o\0k,\n";
  p[1] = (fb_merge_part){"B", PJ(2, 2, 2), nul, sizeof nul - 1, NULL, 0, NULL};
  expect_fault(p, 2, "merge: 'B/runs.csv' holds a NUL byte");
  /* a run in two parts alike (a setup failure is in every part): merged once */
  p[1] = part_of("B", PJ(2, 2, 2), HDR "2,baseline,,s,m,i,,ok,\n1,baseline,,s,m,i,,ok,\n",
                 NULL, NULL);
  fb_merge_out o;
  fb_err err;
  cr_assert_eq(fb_merge_texts(p, 2, NULL, &o, &err), FB_OK, "%s", err.msg);
  cr_expect_eq(fbt_lines(o.runs), 3);
  fb_merge_out_free(&o);
}

Test(merge_texts, counts_beyond_memory_are_faults_not_allocations)
{
  const char *r = HDR "1,baseline,,s,m,i,,ok,\n";
  fb_merge_part p[2];
  /* beyond JSON's integers (jansson: 64 bits): the part's own file is blamed */
  p[0] = part_of("A", PJ(1, 18446744073709551615, 18446744073709551615), r, NULL, NULL);
  expect_fault(p, 1, "merge: 'A/part.json' is not JSON (line 1: too big integer");
  p[0] = part_of("A", PJ(1, 1, 9223372036854775807), r, NULL, NULL);
  expect_fault(p, 1, "merge: run 2 is in no part");
  p[0] = part_of("A", PJ(1, 1, 1), HDR "18446744073709551617,baseline,,s,m,i,,ok,\n", NULL,
                 NULL);
  expect_fault(p, 1, "bad row '18446744073709551617,");
}

Test(merge_texts, verdicts_from_texts)
{
  const char *runs =
      "run_id,group,tag,scenario,model,integrator,status,stick_held,stick_time_ref,"
      "stick_flag_time,chatter_rate,ref\n"
      "1,baseline,,inclined-block,m1,i,ok,1.8,1.85,nan,0,exact\n"
      "2,baseline,,inclined-block,m2,i,ok,0.1,1.85,1.85,40,exact\n"
      "3,baseline,,stick-slip,m2,i,suspect,4,4,4,0,event\n"
      "x,not,a,,run\n";
  fb_vtable v;
  fb_err err;
  cr_assert_eq(fb_verdicts_compute(runs, strlen(runs), NULL, 0, &v, &err), FB_OK, "%s", err.msg);
  const fb_vrow *s1 = NULL, *s2 = NULL, *c2 = NULL;
  for (size_t k = 0; k < v.n; k++) {
    if (strcmp(v.r[k].property, "stick") == 0 && strcmp(v.r[k].model, "m1") == 0)
      s1 = &v.r[k];
    if (strcmp(v.r[k].property, "stick") == 0 && strcmp(v.r[k].model, "m2") == 0)
      s2 = &v.r[k];
    if (strcmp(v.r[k].property, "chatter") == 0 && strcmp(v.r[k].model, "m2") == 0)
      c2 = &v.r[k];
  }
  cr_assert(s1 != NULL && s2 != NULL && c2 != NULL);
  cr_expect_eq(strncmp(s1->verdict, "yes", 3), 0, "%s", s1->verdict);
  cr_expect_eq(strncmp(s2->verdict, "flag only", 9), 0, "held by its flag: %s", s2->verdict);
  cr_expect(strstr(s2->scenarios, "not scored: stick-slip") != NULL, "suspect not scored: %s",
            s2->scenarios);
  cr_expect_eq(strncmp(c2->verdict, "yes", 3), 0, "40/s chatters: %s", c2->verdict);
  cr_expect(strstr(c2->verdict, "unclassified") != NULL, "one step: %s", c2->verdict);
  fb_vtable_free(&v);
  cr_expect_eq(fb_verdicts_compute("", 0, NULL, 0, &v, &err), FB_EIO);
  cr_expect_eq(fb_verdicts_compute("a,b\n", 4, NULL, 0, &v, &err), FB_EIO);
  cr_expect(strstr(err.msg, "has no column 'status'") != NULL, "%s", err.msg);
}

/* What a finished part has besides its files: the journal of its one run (index i - 1)
 * and the manifest, written last. */
static void write_journal_and_manifest(const char *dir, int i, int K)
{
  char path[256], buf[FB_JOURNAL_LINE_MAX];
  snprintf(path, sizeof path, "%s/part-%d/journal", dir, i);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fb_journal_head h = {.sum = 0x1234, .njobs = (size_t)K, .samples = 11, .max_steps = 1,
                       .max_rhs = 1, .rev = "x", .part = (size_t)i, .nparts = (size_t)K};
  size_t n = fb_journal_format_head(&h, buf, sizeof buf);
  cr_assert_gt(n, 0);
  fwrite(buf, 1, n, fp);
  fb_journal_rec r = {.index = (size_t)i - 1, .status = FB_OK};
  n = fb_journal_format_rec(&r, h.sum, buf, sizeof buf);
  cr_assert_gt(n, 0);
  fwrite(buf, 1, n, fp);
  fclose(fp);
  snprintf(path, sizeof path, "%s/part-%d", dir, i);
  fb_err err;
  cr_assert_eq(fb_manifest_write(path, &err), FB_OK, "%s", err.msg);
}

Test(merge, more_part_directories_than_the_old_fixed_list)
{
  /* the directory list once stopped at 4096 entries without a word */
  enum { K = 4100 };
  char dir[64], path[256], out_dir[128];
  /* 16400 small files: in memory where there is a tmpfs (on this project's VM disk they
   * took 25 s, the count of directories is what is tested, not the disk) */
  snprintf(dir, sizeof dir, "/dev/shm/fbt_XXXXXX");
  if (access("/dev/shm", W_OK) != 0 || mkdtemp(dir) == NULL)
    fbt_tmpdir(dir, sizeof dir);
  for (int i = 1; i <= K; i++) {
    snprintf(path, sizeof path, "%s/part-%d", dir, i);
    cr_assert_eq(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/part-%d/part.json", dir, i);
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "{\"part\": %d, \"parts\": %d, \"runs_total\": %d}\n", i, K, K);
    fclose(fp);
    snprintf(path, sizeof path, "%s/part-%d/runs.csv", dir, i);
    fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "run_id,status\n%d,ok\n", i);
    fclose(fp);
    write_journal_and_manifest(dir, i, K);
  }
  snprintf(out_dir, sizeof out_dir, "%s/merged", dir);
  const char *a[] = {"merge", "--no-plots", "--out", out_dir, dir, NULL};
  const int rc = fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf);
  cr_expect_eq(rc, 0, "merge: %s", errbuf);
  cr_expect(strstr(errbuf, "4100 parts, 4100 runs (4100 ok") != NULL, "%s", errbuf);
  snprintf(path, sizeof path, "%s/runs.csv", out_dir);
  char *runs = slurp(path);
  cr_expect_eq(fbt_lines(runs), K + 1);
  free(runs);
  fbt_rmdir(dir);
}

/* issue 24 item 4: merge's output is never a part (an input) nor inside one; it overwrote
 * W/part-1's runs.csv with exit 0.  The part is left as it was. */
Test(merge, out_is_never_a_part)
{
  enum { K = 2 };
  char dir[64], path[256], o1[128], o2[160], o3[160];
  fbt_tmpdir(dir, sizeof dir);
  for (int i = 1; i <= K; i++) {
    snprintf(path, sizeof path, "%s/part-%d", dir, i);
    cr_assert_eq(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/part-%d/part.json", dir, i);
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "{\"part\": %d, \"parts\": %d, \"runs_total\": %d}\n", i, K, K);
    fclose(fp);
    snprintf(path, sizeof path, "%s/part-%d/runs.csv", dir, i);
    fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "run_id,status\n%d,ok\n", i);
    fclose(fp);
    write_journal_and_manifest(dir, i, K);
  }
  snprintf(o1, sizeof o1, "%s/part-1", dir);
  snprintf(o2, sizeof o2, "%s/part-2/../part-1/", dir);
  snprintf(o3, sizeof o3, "%s/part-2/merged", dir);
  const char *const outs[] = {o1, o2, o3};
  for (size_t k = 0; k < 3; k++) {
    const char *a[] = {"merge", "--no-plots", "--out", outs[k], dir, NULL};
    const int rc = fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf);
    cr_expect_eq(rc, 2, "--out %s: exit %d: %s", outs[k], rc, errbuf);
    cr_expect_eq(fbt_lines(errbuf), 1, "%s", errbuf);
    cr_expect(strstr(errbuf, "allowed is a directory outside every part") != NULL, "%s",
              errbuf);
  }
  snprintf(path, sizeof path, "%s/part-1/runs.csv", dir);
  char *runs = slurp(path);
  cr_expect_str_eq(runs, "run_id,status\n1,ok\n", "part-1's runs.csv was written over");
  free(runs);
  snprintf(path, sizeof path, "%s/part-2/merged", dir);
  struct stat sb;
  cr_expect_neq(stat(path, &sb), 0, "nothing created inside a part");
  fbt_rmdir(dir);
}
