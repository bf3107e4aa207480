/* test_merge.c — the suite beyond one machine (SPEC §8): `suite --quick --emit-jobs`, the
 * lines run by GNU Parallel (`parallel -a FILE`, Debian package `parallel`), then `merge`,
 * give the runs.csv of a single-process `suite --quick` apart from the timing columns
 * (wall_s, cpu_s), the same orders.csv and byte-identical trajectories; and merge refuses
 * an incomplete set of parts, naming the missing one.  Nothing here is timed.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

Test(merge, parallel_parts_reproduce_a_single_process_quick_suite, .timeout = 300)
{
  cr_assert_eq(run_sh("command -v parallel >/dev/null 2>&1"), 0,
               "GNU Parallel is not installed (Debian: apt-get install parallel; "
               "scripts/bootstrap.sh installs it)");
  char dir[64], single[128], parts[128], jobs[160], path[256], cmd[512];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(single, sizeof single, "%s/single", dir);
  snprintf(parts, sizeof parts, "%s/parts", dir);
  snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
  const char *a1[] = {"suite", "--quick", "--no-plots", "--jobs", "2", "--out", single, NULL};
  int rc = fbt_cli(a1, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "single-process suite: %s", errbuf);
  const char *a2[] = {"suite", "--quick", "--emit-jobs", jobs, "--parts", "3", "--out", parts,
                      NULL};
  rc = fbt_cli(a2, out, sizeof out, errbuf, sizeof errbuf);
  cr_assert_eq(rc, 0, "--emit-jobs: %s", errbuf);
  char *lines = slurp(jobs);
  cr_assert_eq(fbt_lines(lines), 3, "one command per part:\n%s", lines);
  cr_assert(strstr(lines, "suite --part 1/3 --out") != NULL, "%s", lines);
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
  cr_assert_gt(fbt_lines(s1), 100, "the quick suite has its runs");
  cr_assert_str_eq(s1, s2, "merged runs.csv equals the single-process one apart from timings");
  snprintf(path, sizeof path, "%s/orders.csv", single);
  char *o1 = slurp(path);
  snprintf(path, sizeof path, "%s/orders.csv", parts);
  char *o2 = slurp(path);
  cr_assert_str_eq(o1, o2, "orders.csv");
  cr_expect_gt(same_trajectories(single, parts), 50, "trajectories were compared");
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
