/* test_hardening.c — issue 13: no stray files on a signal, stdout failures, `auto` where
 * `list` shows it, the mass matrix's conditioning, `run`'s streamed output (memory
 * independent of --samples, the same bytes) and its number formatting.
 *
 * The bad-input messages of issue 13 (typed text, control characters, floors of h and
 * tol, bench --steps) are cases of the catalogue in tests/test_badinput.c.
 */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fb_csv.h"
#include "fb_fmt.h"
#include "fb_io.h"
#include "fb_manifest.h"
#include "fb_merge.h"
#include "fb_plant.h"
#include "fb_test.h"

static char out[1 << 16], errbuf[1 << 14];

/* Start fricbench with argv; stdout on fd_out (-1: closed), stderr to /dev/null, SIGINT
 * and SIGTERM at their defaults (a test runner may have them ignored). */
static pid_t spawn(const char *const *argv, int fd_out)
{
  const char *exe = getenv("FRICBENCH");
  cr_assert_not_null(exe);
  const char *args[32] = {exe};
  for (size_t i = 0; argv[i] != NULL && i < 30; i++)
    args[i + 1] = argv[i];
  const pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const int dn = open("/dev/null", O_WRONLY);
    dup2(dn, 2);
    if (fd_out < 0)
      close(1);
    else
      dup2(fd_out, 1);
    execv(exe, (char *const *)args);
    _exit(127);
  }
  return pid;
}

static int wait_status(pid_t pid)
{
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Wait (without a deadline: the command runs for seconds) until dir has an entry. */
static void wait_for_entry(const char *dir, pid_t pid)
{
  const struct timespec nap = {0, 2000000};
  while (fbt_dir_entries(dir) == 0) {
    int status;
    cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "the command ended before its output opened");
    nanosleep(&nap, NULL);
  }
}

/* Each command writes through a temporary FILE.tmp.XXXXXX; the signal must remove it. */
static void signal_leaves_nothing(const char *const *argv_tmpl, const char *dir, int sig)
{
  char store[32][256];
  const char *argv[32];
  size_t n = 0;
  for (; argv_tmpl[n] != NULL; n++) {
    const char *at = strchr(argv_tmpl[n], '@');
    if (at == NULL) {
      argv[n] = argv_tmpl[n];
      continue;
    }
    snprintf(store[n], sizeof store[n], "%.*s%s%s", (int)(at - argv_tmpl[n]), argv_tmpl[n],
             dir, at + 1);
    argv[n] = store[n];
  }
  argv[n] = NULL;
  const int dn = open("/dev/null", O_WRONLY);
  const pid_t pid = spawn(argv, dn);
  close(dn);
  wait_for_entry(dir, pid);
  kill(pid, sig);
  const int rc = wait_status(pid);
  cr_assert_eq(rc, 128 + sig, "%s: exit %d, want %d", argv[0], rc, 128 + sig);
  cr_assert_eq(fbt_dir_entries(dir), 0, "%s: a temporary file was left behind", argv[0]);
}

Test(hardening, run_reference_bench_remove_their_temporaries_on_signals, .timeout = 120)
{
  static const char *const run[] = {"run", "-s", "stick-slip", "-m", "naive-sign", "--h",
                                    "1e-9", "-o", "@/x.csv", NULL};
  static const char *const ref[] = {"reference", "-s", "stick-slip", "--samples", "10000000",
                                    "-o", "@/r.csv", NULL};
  static const char *const bench[] = {"bench", "--steps", "100000000", "--model", "lugre",
                                      "--out", "@/b.csv", NULL};
  const char *const *cmds[] = {run, ref, bench};
  const int sigs[] = {SIGINT, SIGTERM};
  for (size_t c = 0; c < 3; c++)
    for (size_t s = 0; s < 2; s++) {
      char dir[64];
      fbt_tmpdir(dir, sizeof dir);
      signal_leaves_nothing(cmds[c], dir, sigs[s]);
      fbt_rmdir(dir);
    }
}

Test(hardening, stdout_full_or_closed_fails)
{
  static const char *const cmds[][4] = {
      {"list", NULL}, {"--version", NULL}, {"--help", NULL}, {"run", "--help", NULL},
      {"bench", "--help", NULL}, {"list", "models", NULL}, {"suite", "--help", NULL},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    const int full = open("/dev/full", O_WRONLY);
    cr_assert(full >= 0);
    int rc = wait_status(spawn(cmds[i], full));
    close(full);
    cr_expect_eq(rc, 1, "%s %s > /dev/full: exit %d, want 1", cmds[i][0],
                 cmds[i][1] ? cmds[i][1] : "", rc);
    rc = wait_status(spawn(cmds[i], -1));
    cr_expect_eq(rc, 1, "%s %s >&-: exit %d, want 1", cmds[i][0], cmds[i][1] ? cmds[i][1] : "",
                 rc);
  }
  /* the one-line error, and a healthy stdout still exits 0 */
  static const char *const list[] = {"list", NULL};
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  char path[128];
  snprintf(path, sizeof path, "%s/err", dir);
  const pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    const int fe = open(path, O_WRONLY | O_CREAT, 0600), full = open("/dev/full", O_WRONLY);
    dup2(fe, 2);
    dup2(full, 1);
    execl(getenv("FRICBENCH"), "fricbench", "list", (char *)NULL);
    _exit(127);
  }
  cr_assert_eq(wait_status(pid), 1);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  size_t len = fread(errbuf, 1, sizeof errbuf - 1, fp);
  errbuf[len] = '\0';
  fclose(fp);
  cr_assert_eq(fbt_lines(errbuf), 1, "%s", errbuf);
  cr_assert(strstr(errbuf, "writing to standard output failed"), "%s", errbuf);
  fbt_rmdir(dir);
  cr_assert_eq(fbt_cli(list, out, sizeof out, errbuf, sizeof errbuf), 0);
}

Test(hardening, auto_is_accepted_where_list_shows_it)
{
  static const char *const list[] = {"list", "scenarios", NULL};
  cr_assert_eq(fbt_cli(list, out, sizeof out, errbuf, sizeof errbuf), 0);
  cr_assert(strstr(out, "mu           = auto"), "list shows inclined-block's mu = auto");
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/auto.csv", dir);
  snprintf(b, sizeof b, "%s/default.csv", dir);
  const char *with[] = {"run", "-s", "inclined-block", "-m", "lugre", "--set", "mu=auto",
                        "-o", a, NULL};
  const char *without[] = {"run", "-s", "inclined-block", "-m", "lugre", "-o", b, NULL};
  cr_assert_eq(fbt_cli(with, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert_eq(fbt_cli(without, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  /* the same run: auto is the default */
  static char ta[1 << 17], tb[1 << 17];
  FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
  cr_assert(fa != NULL && fb != NULL);
  const size_t na = fread(ta, 1, sizeof ta, fa), nb = fread(tb, 1, sizeof tb, fb);
  fclose(fa);
  fclose(fb);
  cr_assert(na == nb && memcmp(ta, tb, na) == 0, "mu=auto must be the default run");
  fbt_rmdir(dir);
}

Test(hardening, singular_mass_is_refused_a_good_one_is_not)
{
  fb_plant pl;
  fb_err err = {{0}};
  cr_assert_eq(fb_plant_alloc(&pl, 2, 0, 0), FB_OK);
  pl.M[0] = pl.M[1] = pl.M[2] = pl.M[3] = 2.0; /* [[2,2],[2,2]]: singular */
  pl.T = 1;
  const int st = fb_plant_finish(&pl, "test", &err);
  cr_assert_eq(st, FB_EINVAL, "a singular mass matrix must be refused");
  cr_assert(strstr(err.msg, "ill-conditioned") && strstr(err.msg, "1e+12"), "%s", err.msg);
  pl.M[1] = pl.M[2] = 2.0 * (1 - 1e-14); /* condition ~ 4e14 */
  cr_assert_eq(fb_plant_finish(&pl, "test", &err), FB_EINVAL, "cond 4e14 > 1e12");
  pl.M[1] = pl.M[2] = 1.0; /* condition 3 */
  cr_assert_eq(fb_plant_finish(&pl, "test", &err), FB_OK, "%s", err.msg);
  fb_plant_free(&pl);
  /* a diagonal mass matrix is inverted exactly, whatever its spread */
  cr_assert_eq(fb_plant_alloc(&pl, 2, 0, 0), FB_OK);
  pl.M[0] = 1e-10;
  pl.M[3] = 1e10;
  pl.T = 1;
  cr_assert_eq(fb_plant_finish(&pl, "test", &err), FB_OK, "%s", err.msg);
  cr_assert_eq(pl.Minv[0], 1e10);
  fb_plant_free(&pl);
}

static void touch(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp, "%s", path);
  fclose(fp);
}

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

Test(hardening, resume_removes_stale_temporaries, .timeout = 300)
{
  char dir[64], res[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(res, sizeof res, "%s/r", dir);
  /* the machinery tests' plan (tests/plans/tiny.ini): trajectories under traj/stick-slip */
  const char *a1[] = {"suite", "--plan", fbt_tiny_plan(), "--no-plots", "--jobs", "2", "--out",
                      res, NULL};
  cr_assert_eq(fbt_cli(a1, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  /* what a SIGKILL leaves: temporaries in the directory, plots/ and traj/<scenario>/ */
  char sub[256];
  snprintf(sub, sizeof sub, "%s/plots", res);
  mkdir(sub, 0777);
  touch(res, "runs.csv.tmp.aB3xYz");
  touch(res, "plots/conv.png.tmp.Q1w2E3");
  touch(res, "traj/stick-slip/lugre__rk4__h=1e-3.csv.tmp.zzzzzz");
  touch(res, "traj/stick-slip/notes.tmp.txt"); /* not a temporary of fricbench */
  const char *a2[] = {"suite", "--resume", res, "--no-plots", NULL};
  cr_assert_eq(fbt_cli(a2, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_expect(strstr(errbuf, "removed 3 stale temporary files"), "%s", errbuf);
  cr_expect(!exists(res, "runs.csv.tmp.aB3xYz"));
  cr_expect(!exists(res, "plots/conv.png.tmp.Q1w2E3"));
  cr_expect(!exists(res, "traj/stick-slip/lugre__rk4__h=1e-3.csv.tmp.zzzzzz"));
  cr_expect(exists(res, "traj/stick-slip/notes.tmp.txt"), "other files stay");
  cr_expect(exists(res, "runs.csv"));
  fbt_rmdir(dir);
}

Test(hardening, scratch_files_live_under_tmpdir_and_have_no_name)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  const char *old = getenv("TMPDIR");
  char *keep = old ? strdup(old) : NULL;
  setenv("TMPDIR", dir, 1);
  const int fd = fb_tmpfile_fd("fricbench_traj");
  cr_assert_geq(fd, 0);
  /* not inherited: the report's gnuplot processes live for many plots (report_gnuplot.c) */
  cr_expect(fcntl(fd, F_GETFD) & FD_CLOEXEC, "the scratch file is close-on-exec");
  cr_assert_eq(write(fd, "abc", 3), 3);
  char b[4] = {0};
  cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
  cr_assert_eq(read(fd, b, 3), 3);
  cr_expect_str_eq(b, "abc");
  cr_expect_eq(fbt_dir_entries(dir), 0, "the scratch file has no name left to clean up");
  close(fd);
  /* a TMPDIR that does not exist: an error, not a file elsewhere */
  char nodir[128];
  snprintf(nodir, sizeof nodir, "%s/none", dir);
  setenv("TMPDIR", nodir, 1);
  cr_expect_lt(fb_tmpfile_fd("fricbench_traj"), 0);
  if (keep != NULL)
    setenv("TMPDIR", keep, 1);
  else
    unsetenv("TMPDIR");
  free(keep);
  fbt_rmdir(dir);
}

/* ---- issue 13 item 11: `run` streams its trajectory ----------------------------------- */


/* Max RSS (KB) of `run` writing n samples of stick-slip/lugre to a file in dir. */
static long run_rss_kb(const char *dir, const char *n)
{
  char path[128];
  snprintf(path, sizeof path, "%s/x.csv", dir);
  const char *argv[] = {"run", "-s", "stick-slip", "-m", "lugre", "--samples", n, "-o", path,
                        NULL};
  const int dn = open("/dev/null", O_WRONLY);
  const pid_t pid = spawn(argv, dn);
  close(dn);
  int status;
  struct rusage ru;
  cr_assert_eq(wait4(pid, &status, 0, &ru), pid);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "run --samples %s", n);
  return ru.ru_maxrss;
}

Test(hardening, run_memory_does_not_grow_with_samples, .timeout = 120)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  const long small = run_rss_kb(dir, "2001"), big = run_rss_kb(dir, "400001");
  /* held in memory, 400000 more samples of 8 numbers would be > 25 MB */
  cr_expect_lt(big - small, 8 * 1024, "max RSS %ld KB at 2001 samples, %ld KB at 400001", small,
               big);
  fbt_rmdir(dir);
}

Test(hardening, streamed_trajectory_equals_the_whole_one)
{
  /* switching re-reports states at events (a sample replaced): the window keeps it */
  static const char *const cases[][3] = {
      {"stick-slip", "switching", "20001"}, {"glowinski-2dof", "glowinski", "9000"},
      {"stick-slip", "lugre", "4097"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *argv[] = {"run", "-s", cases[c][0], "-m", cases[c][1], "--samples", cases[c][2],
                          NULL};
    static char cli_out[1 << 23];
    cr_assert_eq(fbt_cli(argv, cli_out, sizeof cli_out, errbuf, sizeof errbuf), 0, "%s", errbuf);
    cr_expect(strstr(errbuf, " wall=") && strstr(errbuf, " ms output="), "%s", errbuf);
    fb_case cs;
    fb_err err = {{0}};
    cr_assert_eq(fb_case_init(&cs, cases[c][0], cases[c][1], NULL, &err), FB_OK, "%s", err.msg);
    cs.samples = (size_t)atol(cases[c][2]);
    cr_assert_eq(fb_case_prepare(&cs, &err), FB_OK, "%s", err.msg);
    fb_trace tr;
    cr_assert_eq(fb_trace_alloc(&tr, cs.samples, cs.sc.plant.n, cs.sc.plant.nc, cs.md.type->nz),
                 FB_OK);
    fb_run_result res;
    fb_case_run(&cs, &tr, NULL, &res);
    char *whole = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&whole, &len);
    cr_assert_eq(fb_trace_write_csv(&tr, cs.md.type->z_names, mem), FB_OK);
    fclose(mem);
    cr_expect(strlen(cli_out) == len && memcmp(cli_out, whole, len) == 0,
              "%s/%s: the streamed output differs from the whole trace", cases[c][0],
              cases[c][1]);
    free(whole);
    fb_trace_free(&tr);
    fb_case_free(&cs);
  }
}

/* ---- fb_fmt_g9: "%.9g" of the trajectory files ---------------------------------------- */

static void g9_same_as_printf(double v)
{
  char a[FB_FMT_LEN], b[64];
  const size_t n = fb_fmt_g9(v, a);
  snprintf(b, sizeof b, "%.9g", v);
  cr_assert_str_eq(a, b, "%a: fb_fmt_g9 '%s', printf '%s'", v, a, b);
  cr_assert_eq(n, strlen(b));
}

Test(hardening, fmt_g9_is_printf)
{
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1e-5, 1e-4, 9.9999999995e-5,
                                   1e-14, 1e-15, 999999999.5, 999999999.4, 1e9, 123456789.5,
                                   123456788.5, 0.5, 2.5e-10, 5e-324, DBL_MAX, INFINITY, NAN};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    g9_same_as_printf(special[i]);
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (long i = 0; i < 50000; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double v;
    if (i % 3 == 0) /* any bit pattern */
      memcpy(&v, &s, sizeof v);
    else if (i % 3 == 1) /* trajectory-like values */
      v = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 20;
    else /* near the 9th digit's ties: (d + 1/2) 10^-j */
      v = ((double)(s % 1000000000ULL) + 0.5) / pow(10.0, (double)(s % 19));
    g9_same_as_printf(v);
    g9_same_as_printf(nextafter(v, INFINITY));
    g9_same_as_printf(nextafter(v, -INFINITY));
  }
}

/* ---- fb_fmt_g17: "%.17g", faster ------------------------------------------------------ */

static void same_as_printf(double v)
{
  char a[FB_FMT_LEN], b[64];
  const size_t n = fb_fmt_g17(v, a);
  snprintf(b, sizeof b, "%.17g", v);
  cr_assert_str_eq(a, b, "%a: fb_fmt_g17 '%s', printf '%s'", v, a, b);
  cr_assert_eq(n, strlen(b));
}

Test(hardening, fmt_g17_is_printf_on_millions_of_values)
{
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1e-5, 1e-4, 9.9999999999999995e-5,
                                   1e16, 1e17, 9999999999999998.0, 99999999999999984.0,
                                   123456789012345678.0, 0.5, 2.5, 1e22, 1e23, 5e-324, 2.2e-308,
                                   DBL_MIN, DBL_MAX, -DBL_MAX, 1e308, 1e-307, INFINITY,
                                   -INFINITY, NAN, 3.0e-300, 628.31853071795854,
                                   1.0000000000000002, 0.30000000000000004};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    same_as_printf(special[i]);
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (long i = 0; i < 2000000; i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double v;
    if (i % 4 == 0) /* any bit pattern */
      memcpy(&v, &s, sizeof v);
    else if (i % 4 == 1) /* trajectory-like values */
      v = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 20;
    else if (i % 4 == 2) /* small ones: 0.000ddd and e-05 forms */
      v = ldexp((double)(s >> 11), -53 - (int)(s % 40));
    else /* integers and halves near 1e16..1e17, where rounding carries */
      v = (double)(1e16 + (double)(s % 100000000000000000ULL)) + 0.5 * (double)(s & 1);
    same_as_printf(v);
  }
  /* exact ties at the 17th digit, which printf rounds to even: 1 <= v < 10 holds them
   * at v = 1 + (2j + 1) / 2^17 (D = 10^16 + (2j + 1) 5^16 / 2), and 10^X <= v < 10^(X+1)
   * at the odd multiples of 2^(X-17) (D = odd 5^(16-X) / 2) */
  for (int X = -6; X <= 16; X++)
    for (long j = 0; j < 3000; j++) {
      const double step = ldexp(1.0, -(17 - X)), lo = pow(10.0, X);
      const double v = 2.0 * step * floor(lo / (2.0 * step)) + (2.0 * (double)j + 1.0) * step;
      same_as_printf(v);
      same_as_printf(-v);
      same_as_printf(nextafter(v, 0.0));
      same_as_printf(nextafter(v, INFINITY));
    }
}

/* ---- issue 13 item 9: merge's and --part's messages ------------------------------------ */

#define HDR "run_id,status\r\n"
#define PJ(part, parts, total)                                                                 \
  "{\"part\": " #part ", \"parts\": " #parts ", \"runs_total\": " #total ", \"quick\": true}"

static fb_merge_part text_part(const char *name, const char *pj, const char *runs)
{
  return (fb_merge_part){name, pj, runs, strlen(runs), NULL, 0, NULL};
}

Test(hardening, merge_blames_the_damaged_part_json_and_reads_crlf)
{
  fb_merge_part p[3];
  fb_merge_out o;
  fb_err err = {{0}};
  /* CRLF throughout, header included */
  p[0] = text_part("A", PJ(1, 2, 2), HDR "1,ok\r\n");
  p[1] = text_part("B", PJ(2, 2, 2), HDR "2,ok\r\n");
  cr_assert_eq(fb_merge_texts(p, 2, NULL, &o, &err), FB_OK, "%s", err.msg);
  cr_expect_str_eq(o.runs, "run_id,status\n1,ok\n2,ok\n");
  fb_merge_out_free(&o);
  /* the first part's part.json damaged: blamed, with the field, not the second part */
  p[0] = text_part("A", "{\"part\": 1, \"parts\": -1}", HDR "1,ok\r\n");
  cr_assert_eq(fb_merge_texts(p, 2, NULL, &o, &err), FB_EINVAL);
  cr_expect(strstr(err.msg, "'A/part.json' is damaged: \"parts\" is '-1'"), "%s", err.msg);
  cr_expect(strstr(err.msg, "18446744073709551615") == NULL, "%s", err.msg);
  p[0] = text_part("A", "{\"part\": 1, \"parts\": 2}", HDR "1,ok\r\n");
  cr_assert_eq(fb_merge_texts(p, 2, NULL, &o, &err), FB_EINVAL);
  cr_expect(strstr(err.msg, "'A/part.json' is damaged: \"runs_total\" is ''"), "%s", err.msg);
  /* a plausible but odd first part: the parts that agree are the reference */
  p[0] = text_part("A", PJ(1, 3, 3), HDR "1,ok\r\n");
  p[1] = text_part("B", PJ(2, 3, 2), HDR "2,ok\r\n");
  p[2] = text_part("C", PJ(3, 3, 2), HDR "3,ok\r\n");
  cr_assert_eq(fb_merge_texts(p, 3, NULL, &o, &err), FB_EINVAL);
  cr_expect(strncmp(err.msg, "merge: 'A' (part 1/3 of 3 runs", 30) == 0, "%s", err.msg);
}

Test(hardening, a_part_counts_its_own_runs, .timeout = 120)
{
  char dir[64], res[128], path[192];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(res, sizeof res, "%s/p", dir);
  /* a part of the machinery tests' plan (tests/plans/tiny.ini): a few of its runs */
  const char *a[] = {"suite", "--plan", fbt_tiny_plan(), "--part", "2/3", "--out", res, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  snprintf(path, sizeof path, "%s/runs.csv", res);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  static char text[1 << 20];
  const size_t len = fread(text, 1, sizeof text - 1, fp);
  text[len] = '\0';
  fclose(fp);
  const size_t rows = fbt_lines(text) - 1;
  cr_assert_gt(rows, 0);
  char want[64];
  snprintf(want, sizeof want, "suite: %zu runs (", rows);
  cr_expect(strstr(errbuf, want) != NULL, "'%s' in: %s", want, errbuf);
  snprintf(path, sizeof path, "%s/meta.json", res);
  fp = fopen(path, "r");
  cr_assert_not_null(fp);
  const size_t ml = fread(text, 1, sizeof text - 1, fp);
  text[ml] = '\0';
  fclose(fp);
  char v[32];
  fb_json_get(text, "runs", v, sizeof v);
  cr_expect_eq((size_t)atol(v), rows, "meta.json runs %s, runs.csv %zu rows", v, rows);
  fbt_rmdir(dir);
}

/* ---- a manifest of any bytes is refused, never read past ------------------------------ */

Test(hardening, damaged_manifests_are_refused)
{
  static const struct {
    const char *text;
    size_t len;
  } bad[] = {
      {"", 0},
      {"e\n", 2},
      {"fricbench-manifest 1\n", 21},
      {"fricbench-manifest 1\ne\n", 23},
      {"fricbench-manifest 1\nend\n", 25},
      {"fricbench-manifest 1\nend 0\n", 27},
      {"fricbench-manifest 1\nend 0 zz\n", 30},
      {"fricbench-manifest 1\nend 0 0000000000000000\n", 43},
      {"fricbench-manifest 1\n3 0000000000000000 ../x\nend 1 0000000000000000\n", 67},
      {"fricbench-manifest 1\n\0\nend 1 0000000000000000\n", 46},
      {"fricbench-manifest 1\nend 0 0000000000000000", 42},
  };
  char dir[64], path[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/manifest", dir);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    fwrite(bad[i].text, 1, bad[i].len, fp);
    fclose(fp);
    fb_err err = {{0}};
    cr_expect_eq(fb_manifest_check(dir, "P", NULL, 0, &err), FB_EINVAL, "case %zu", i);
    cr_expect(strstr(err.msg, "'P/manifest' is damaged"), "case %zu: %s", i, err.msg);
  }
  /* a good one of an empty part: accepted */
  fb_err err = {{0}};
  cr_assert_eq(fb_manifest_write(dir, &err), FB_OK, "%s", err.msg);
  cr_expect_eq(fb_manifest_check(dir, "P", NULL, 0, &err), FB_OK, "%s", err.msg);
  fbt_rmdir(dir);
}
