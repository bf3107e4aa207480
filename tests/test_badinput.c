/* test_badinput.c — the bad-input catalogue across commands (issue 6, docs/design.md §9).
 *
 * Every case runs the fricbench executable and must exit with status 2 (usage) or 1
 * (runtime) as listed, print exactly one line on stderr, starting "fricbench: ", that
 * names the bad value (`value`) and what is allowed (`allowed`), print nothing on
 * stdout, and leave no file behind in the case's fresh output directory.  "@" in an
 * argument stands for that directory.
 *
 * tests/test_cli.c holds the first catalogue (38 cases of `run`: unknown names, nan/inf,
 * zero and negative steps, h > T, tol <= 0, Fc > Fs, trailing garbage, empty values,
 * missing directory, a directory or /dev/full as --out).  This one adds the categories
 * it lacks: integrators that do not suit a model (a GSL stepper for a model-owned scheme
 * and the reverse), --tol for a fixed-step-only scheme, conflicting options, huge
 * integers, an end time whose grid underflows, unwritable paths, and every bad input
 * of `suite`, `reference` and `list`.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb_test.h"

static char out[1 << 16], err[1 << 14];

typedef struct bad {
  const char *args[20];
  int status;          /* expected exit status */
  const char *value;   /* the bad value, named in the message */
  const char *allowed; /* what is allowed, named in the message */
} bad;

#define HUGE_U64 "18446744073709551615"
#define OVER_U64 "18446744073709551616"

static const bad catalogue[] = {
    /* ---- run: integrators that do not suit the model ---------------------------------- */
    {{"run", "-s", "drift", "-m", "glowinski", "-i", "rk4", "-o", "@/x.csv", NULL}, 2, "'rk4'",
     "glowinski-lie, glowinski-strang"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "-i", "event", "-o", "@/x.csv", NULL}, 2, "'event'",
     "rkf45"},
    {{"run", "-s", "drift", "-m", "switching", "-i", "glowinski-lie", "-o", "@/x.csv", NULL}, 2,
     "'glowinski-lie'", "event"},
    {{"run", "-s", "drift", "-m", "penalty", "-i", "paper", "-o", "@/x.csv", NULL}, 2,
     "'paper'", "newmark"},
    {{"run", "-s", "drift", "-m", "glowinski", "--tol", "1e-6", "-o", "@/x.csv", NULL}, 2,
     "glowinski-lie", "use --h"},
    {{"run", "-s", "drift", "-m", "switching", "-i", "paper", "--atol", "1e-6", "-o", "@/x.csv",
      NULL},
     2, "paper", "use --h"},
    /* ---- run: conflicting and out-of-range options ------------------------------------- */
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "1e-3", "--atol", "1e-6", "-o", "@/x.csv",
      NULL},
     2, "--h", "fixed step or a tolerance"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "1e-3", "--rtol", "1e-6", "-o", "@/x.csv",
      NULL},
     2, "--tol", "fixed step or a tolerance"},
    {{"run", "-s", "drift", "-m", "switching", "--event-tol", "nan", "-o", "@/x.csv", NULL}, 2,
     "'nan'", "> 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--rtol", "inf", "-o", "@/x.csv", NULL}, 2, "'inf'",
     "> 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--atol", "-1e-9", "-o", "@/x.csv", NULL}, 2,
     "'-1e-9'", "> 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--samples", HUGE_U64, "-o", "@/x.csv", NULL}, 2,
     HUGE_U64, "[2, 10000000]"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--samples", "0", "-o", "@/x.csv", NULL}, 2, "'0'",
     "[2, 10000000]"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--max-steps", HUGE_U64, "-o", "@/x.csv", NULL}, 2,
     HUGE_U64, "[1, 1000000000000000]"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--max-steps", "0", "-o", "@/x.csv", NULL}, 2,
     "--max-steps '0'", "[1, 1000000000000000]"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--max-rhs", "1e6", "-o", "@/x.csv", NULL}, 2,
     "'1e6'", "an integer"},
    /* ---- run: --set names and values --------------------------------------------------- */
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=0x", "-o", "@/x.csv", NULL}, 2, "'0x'",
     "> 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m= 1", "-o", "@/x.csv", NULL}, 2, "' 1'",
     "> 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=1e400", "-o", "@/x.csv", NULL}, 2,
     "'1e400'", "finite number > 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "T=5e-324", "-o", "@/x.csv", NULL}, 2,
     "T = '5e-324' underflows", "allowed is a finite number > 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "=3", "-o", "@/x.csv", NULL}, 2, "'=3'",
     "NAME=VALUE"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "scenario.K=1", "-o", "@/x.csv", NULL}, 2,
     "'K'", "use one of m, Fs, Fc"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "K=0", "-o", "@/x.csv", NULL}, 2, "K = 0",
     "> 0"},
    {{"run", "-s", "drift", "-m", "smooth-sign", "--set", "phi=", "-o", "@/x.csv", NULL}, 2,
     "phi = ''", "tanh, algebraic, linear"},
    {{"run", "-s", "stick-slip", "-m", "switching", "--set", "mu=nan", "-o", "@/x.csv", NULL}, 2,
     "'nan'", ">= 0"},
    {{"run", "-s", "stick-slip", "-m", "switching", "--set", "mu=-1", "-o", "@/x.csv", NULL}, 2,
     "mu = -1", ">= 0"},
    {{"run", "-s", "glowinski-2dof", "-m", "glowinski", "--set", "T=5", "-o", "@/x.csv", NULL}, 2,
     "T = 5", "4]"},
    /* found by fuzz_parse: T = 1e38 made the forcing-break loop of glowinski-tp2 run away */
    {{"run", "-s", "glowinski-tp2", "-m", "glowinski", "--set", "T=1e38", "-o", "@/x.csv", NULL},
     2, "T = 1e38", "1e+06]"},
    {{"run", "-s", "glowinski-tp1", "-m", "glowinski", "--set", "T=1e7", "-o", "@/x.csv", NULL},
     2, "T = 1e7", "1e+06]"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set",
      "a_parameter_name_that_is_much_longer_than_any_parameter_name_could_ever_be_and_then_"
      "some_more_characters_to_pass_the_limit_of_one_hundred_and_twenty_seven=1",
      "-o", "@/x.csv", NULL},
     2, "a_parameter_name", "at most 127"},
    /* ---- run: output paths -------------------------------------------------------------- */
    {{"run", "-s", "drift", "-m", "kikuuwe", "-o", "/proc/fricbench-test.csv", NULL}, 2,
     "/proc/fricbench-test.csv", "cannot be written"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "-o", "@/x.csv/", NULL}, 2, "x.csv/",
     "cannot be written"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "-o", "@", NULL}, 2, "is not a regular file",
     "give a file path"},
    /* ---- suite -------------------------------------------------------------------------- */
    {{"suite", "--jobs", "0", "--out", "@/s", NULL}, 2, "--jobs '0'", "[1, 256]"},
    {{"suite", "--jobs", "257", "--out", "@/s", NULL}, 2, "--jobs '257'", "[1, 256]"},
    {{"suite", "--jobs", OVER_U64, "--out", "@/s", NULL}, 2, OVER_U64, "[1, 256]"},
    {{"suite", "--jobs", "-1", "--out", "@/s", NULL}, 2, "--jobs '-1'", "[1, 256]"},
    {{"suite", "--jobs", "", "--out", "@/s", NULL}, 2, "--jobs ''", "[1, 256]"},
    {{"suite", "--samples", "1", "--out", "@/s", NULL}, 2, "--samples '1'", "[2, 10000000]"},
    {{"suite", "--samples", HUGE_U64, "--out", "@/s", NULL}, 2, HUGE_U64, "[2, 10000000]"},
    {{"suite", "--max-steps", "0", "--out", "@/s", NULL}, 2, "--max-steps '0'",
     "[1, 1000000000000000]"},
    {{"suite", "--max-rhs", "1e9", "--out", "@/s", NULL}, 2, "--max-rhs '1e9'", "an integer"},
    {{"suite", "--max-steps", "2x", "--out", "@/s", NULL}, 2, "'2x'", "an integer"},
    {{"suite", "--quick", "--no-plots", "--out", "/dev/full", NULL}, 2, "/dev/full",
     "give a directory path"},
    {{"suite", "--quick", "--no-plots", "--out", "/proc/fricbench-test", NULL}, 2,
     "/proc/fricbench-test", "cannot be created"},
    {{"suite", "--quick", "--no-plots", "--out", "/etc/passwd/sub", NULL}, 2, "/etc/passwd/sub",
     "Not a directory"},
    {{"suite", "--out", "", NULL}, 2, "--out", "give a directory path"},
    {{"suite", "--out", NULL}, 2, "--out", "needs a value"},
    {{"suite", "--bogus", NULL}, 2, "--bogus", "fricbench suite --help"},
    {{"suite", "extra", NULL}, 2, "'extra'", "fricbench suite --help"},
    {{"suite", "--resume", "@", NULL}, 2, "journal", "interrupted suite"},
    {{"suite", "--resume", "@/none", NULL}, 2, "/none", "interrupted suite"},
    {{"suite", "--resume", "", NULL}, 2, "--resume", "interrupted suite's directory"},
    {{"suite", "--resume", "@", "--quick", NULL}, 2, "--quick", "only --jobs and --no-plots"},
    {{"suite", "--resume", "@", "--out", "@/s", NULL}, 2, "--out", "only --jobs and --no-plots"},
    {{"suite", "--resume", "@", "--samples", "11", NULL}, 2, "--samples",
     "only --jobs and --no-plots"},
    /* ---- reference ---------------------------------------------------------------------- */
    {{"reference", "-s", "drift", "--samples", HUGE_U64, "-o", "@/r.csv", NULL}, 2, HUGE_U64,
     "[2, 10000000]"},
    {{"reference", "-s", "drift", "--samples", "1", "-o", "@/r.csv", NULL}, 2, "'1'",
     "[2, 10000000]"},
    {{"reference", "-s", "drift", "--samples", NULL}, 2, "--samples", "needs a value"},
    {{"reference", "-s", "drift", "--set", "model.K=5", "-o", "@/r.csv", NULL}, 2, "'model.K'",
     "use one of m, Fs"},
    {{"reference", "-s", "drift", "--set", "K=5", "-o", "@/r.csv", NULL}, 2, "'K'",
     "use one of m, Fs"},
    {{"reference", "-s", "drift", "--set", "m=0", "-o", "@/r.csv", NULL}, 2, "m = 0", "> 0"},
    {{"reference", "-s", "drift", "--set", "T=nan", "-o", "@/r.csv", NULL}, 2, "'nan'", "> 0"},
    {{"reference", "-s", "drift", "--set", "m", "-o", "@/r.csv", NULL}, 2, "'m'", "NAME=VALUE"},
    {{"reference", "-s", "stick-slip", "--set", "T=5e-324", "-o", "@/r.csv", NULL}, 2,
     "T = '5e-324' underflows", "allowed is a finite number > 0"},
    {{"reference", "-s", "glowinski-2dof", "--set", "T=5", "-o", "@/r.csv", NULL}, 2, "T = 5",
     "4]"},
    {{"reference", "-s", "nosuch", "-o", "@/r.csv", NULL}, 2, "'nosuch'", "drift"},
    {{"reference", "-o", "@/r.csv", NULL}, 2, "--scenario", "fricbench list scenarios"},
    {{"reference", "-s", "drift", "-o", "/dev/full", NULL}, 2, "/dev/full", "give a file path"},
    {{"reference", "-s", "drift", "-o", "@", NULL}, 2, "is not a regular file",
     "give a file path"},
    {{"reference", "-s", "drift", "-o", "/proc/fricbench-ref.csv", NULL}, 2,
     "/proc/fricbench-ref.csv", "cannot be written"},
    {{"reference", "-s", "drift", "-o", "@/r.csv", "--intervals", "/dev/full", NULL}, 2,
     "/dev/full", "give a file path"},
    {{"reference", "-s", "drift", "-o", "@/r.csv", "--intervals", "", NULL}, 2, "--intervals",
     "'-' for stdout"},
    {{"reference", "-s", "drift", "--intervals", "-", NULL}, 2, "--intervals '-'", "--out FILE"},
    {{"reference", "-s", "drift", "-o", "@/r.csv", "--bogus", NULL}, 2, "--bogus",
     "fricbench reference --help"},
    {{"reference", "-s", "drift", "-o", "@/r.csv", "extra", NULL}, 2, "'extra'",
     "fricbench reference --help"},
    /* ---- issue 13: setup checks of the integrator, conditioning, floors, typed text ---- */
    {{"run", "-s", "glowinski-2dof", "-m", "glowinski", "--set", "solver=closed", "-o",
      "@/x.csv", NULL}, 2, "solver=closed", "use solver=uzawa or auto"},
    {{"run", "-s", "glowinski-2dof", "-m", "glowinski", "--set", "m12=2", "-o", "@/x.csv",
      NULL}, 2, "ill-conditioned", "allowed is at most 1e+12"},
    {{"bench", "--steps", HUGE_U64, NULL}, 2, "--steps '" HUGE_U64 "'", "[1000, 100000000]"},
    {{"bench", "--steps", "100000000000", NULL}, 2, "--steps '100000000000'",
      "[1000, 100000000]"},
    {{"bench", "--steps", "1e11", NULL}, 2, "--steps '1e11'", "[1000, 100000000]"},
    {{"bench", "--steps", "0", NULL}, 2, "--steps '0'", "[1000, 100000000]"},
    {{"bench", "--repeats", "0", NULL}, 2, "--repeats '0'", "[1, 101]"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--h", "4e-320", "-o", "@/x.csv", NULL}, 2,
     "--h '4e-320' underflows", "> 0"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--h", "1e-13", "-o", "@/x.csv", NULL}, 2,
     "h = 1e-13 is too small", "1e-11 <= h"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--tol", "4e-320", "-o", "@/x.csv", NULL}, 2,
     "--tol '4e-320' underflows", "> 0"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--tol", "1e-17", "-o", "@/x.csv", NULL}, 2,
     "rtol = 1e-17 is too small", "rtol >= 1e-16"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--atol", "1e-301", "--rtol", "1e-6", "-o",
      "@/x.csv", NULL}, 2, "atol = 1e-301", "atol >= 1e-300"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=\n1", "-o", "@/x.csv", NULL},
     2, "m = '\\n1' has leading or trailing blanks or control", "allowed is a finite"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=\v1", "-o", "@/x.csv", NULL},
     2, "m = '\\v1' has leading", "allowed is a finite"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=1\r", "-o", "@/x.csv", NULL},
     2, "m = '1\\r' has leading", "allowed is a finite"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=\t1", "-o", "@/x.csv", NULL},
     2, "m = '\\t1' has leading", "allowed is a finite"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--h", "\n1e-3", "-o", "@/x.csv", NULL}, 2,
     "--h '\\n1e-3' has leading", "> 0"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=1e-400", "-o", "@/x.csv", NULL},
     2, "m = '1e-400' underflows", "allowed is a finite number > 0"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=1e400", "-o", "@/x.csv", NULL},
     2, "m = '1e400' overflows", "allowed is a finite number > 0"},
    {{"run", "-s", "inclined-block", "-m", "lugre", "--set", "m=-1.50", "-o", "@/x.csv", NULL},
     2, "m = -1.50 is out of range", "allowed is a finite number > 0"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--set", "mu=auto", "-o", "@/x.csv", NULL}, 2,
     "mu = 'auto' is not allowed", "mu has no automatic value"},
    /* control characters in names: still one line */
    {{"run", "-s", "stick\nslip", "-m", "lugre", "-o", "@/x.csv", NULL}, 2, "unknown scenario",
     "use one of"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--set", "m\n=1", "-o", "@/x.csv", NULL}, 2,
     "--set m?", "fricbench list"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--bo\ngus", "-o", "@/x.csv", NULL}, 2,
     "'--bo\\ngus'", "fricbench run --help"},
    {{"reference", "-s", "x\ny", "-o", "@/r.csv", NULL}, 2, "'x\\ny'", "use one of"},
    /* ---- issue 24 item 4: an output that is another output ------------------------------ */
    {{"run", "-s", "stick-slip", "-m", "lugre", "-o", "@/f.csv", "--metrics=@/f.csv", NULL}, 2,
     "--metrics '", "give each output its own file"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "-o", "@/f.csv", "--metrics=@/./f.csv", NULL}, 2,
     "is the same file as --out", "give each output its own file"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "-o", "-", "--metrics=-", NULL}, 2,
     "--metrics '-'", "one output on stdout"},
    {{"reference", "-s", "stick-slip", "-o", "@/r.csv", "--intervals", "@/r.csv", NULL}, 2,
     "--intervals '", "give each output its own file"},
    {{"reference", "-s", "stick-slip", "-o", "@/sub/../r.csv", "--intervals", "@/r.csv", NULL},
     2, "is the same file as --out", "give each output its own file"},
    /* ---- issue 24 item 6: one number parser, decimal only -------------------------------- */
    {{"run", "-s", "stick-slip", "-m", "lugre", "--set", "mu=0x10", "-o", "@/x.csv", NULL}, 2,
     "mu = '0x10' is not a decimal number", "allowed is a finite number"},
    {{"run", "-s", "stick-slip", "-m", "lugre", "--h", "0x1p-10", "-o", "@/x.csv", NULL}, 2,
     "'0x1p-10' is not a decimal number", "> 0"},
    /* ---- issue 24 item 8: refused outputs leave nothing; impacts says one line, exit 2 ---- */
    {{"suite", "--quick", "--emit-jobs", "/dev/full", "--out", "@/d/e", NULL}, 2,
     "--emit-jobs '/dev/full'", "give a file path"},
    {{"suite", "--quick", "--emit-jobs", "@/no/jobs.txt", "--out", "@/d", NULL}, 2,
     "/no/jobs.txt'", "cannot be written"},
    {{"impacts", "--set", "e=0.5", NULL}, 2, "'--set'", "allowed are --out DIR and --help"},
    {{"impacts", "--out", NULL}, 2, "'--out'", "allowed are --out DIR"},
    {{"impacts", "--out", "/proc/fricbench-impacts", NULL}, 2, "'/proc/fricbench-impacts'",
     "give a writable directory"},
    {{"impacts", "--out", "@/d/sub", "extra", NULL}, 2, "'extra'", "allowed are --out DIR"},
    /* ---- list and the command itself ----------------------------------------------------- */
    {{"list", "models", "extra", NULL}, 2, "'extra'", "models, scenarios, integrators, contact, engines or --json"},
    {{"list", "--bogus", NULL}, 2, "'--bogus'", "models, scenarios, integrators, contact, engines or --json"},
    {{"list", "", NULL}, 2, "''", "models, scenarios, integrators, contact, engines or --json"},
    {{"list", "Models", NULL}, 2, "'Models'", "models, scenarios, integrators, contact, engines or --json"},
    {{"", NULL}, 2, "''", "list, run, reference"},
    {{"--versionx", NULL}, 2, "'--versionx'", "list, run, reference"},
};

#define NCASES (sizeof catalogue / sizeof catalogue[0])

Test(badinput, catalogue_size)
{
  cr_assert_geq(NCASES, 30, "the issue asks for at least 30 cases, have %zu", NCASES);
}

Test(badinput, every_case_exits_with_one_line_and_leaves_nothing, .timeout = 300)
{
  for (size_t k = 0; k < NCASES; k++) {
    const bad *b = &catalogue[k];
    char dir[64];
    fbt_tmpdir(dir, sizeof dir);
    char store[20][512];
    const char *args[21];
    size_t n = 0;
    for (; b->args[n] != NULL; n++) {
      const char *a = b->args[n], *at = strchr(a, '@');
      if (at == NULL) {
        args[n] = a;
        continue;
      }
      snprintf(store[n], sizeof store[n], "%.*s%s%s", (int)(at - a), a, dir, at + 1);
      args[n] = store[n];
    }
    args[n] = NULL;
    const int rc = fbt_cli(args, out, sizeof out, err, sizeof err);
    char what[256];
    snprintf(what, sizeof what, "case %zu (%s %s ... %s)", k, b->args[0],
             b->args[1] ? b->args[1] : "", b->value);
    cr_expect_eq(rc, b->status, "%s: exit %d, want %d; stderr: %s", what, rc, b->status, err);
    cr_expect_eq(fbt_lines(err), 1, "%s: one line on stderr, got: %s", what, err);
    cr_expect(strncmp(err, "fricbench: ", 11) == 0, "%s: %s", what, err);
    cr_expect(strstr(err, b->value) != NULL, "%s: the value '%s' is not named in: %s", what,
              b->value, err);
    cr_expect(strstr(err, b->allowed) != NULL, "%s: what is allowed ('%s') is not said in: %s",
              what, b->allowed, err);
    cr_expect_eq(out[0], '\0', "%s: nothing on stdout, got: %.200s", what, out);
    cr_expect_eq(fbt_dir_entries(dir), 0, "%s: an output file or directory was left behind",
                 what);
    fbt_rmdir(dir);
  }
  struct stat sb;
  cr_assert_eq(stat("/dev/full", &sb), 0);
  cr_assert(S_ISCHR(sb.st_mode), "/dev/full must still be the device");
  cr_assert_neq(stat("/proc/fricbench-test", &sb), 0);
}

/* issue 24 items 4 and 9: /dev/null is an output that discards (it was "not a regular
 * file"), also for two outputs at once; the device stays a device */
Test(badinput, dev_null_is_an_output)
{
  const char *a1[] = {"run", "-s", "stick-slip", "-m", "lugre", "-o", "/dev/null", NULL};
  const char *a2[] = {"run", "-s", "stick-slip", "-m", "lugre", "-o", "/dev/null",
                      "--metrics=/dev/null", NULL};
  const char *a3[] = {"reference", "-s", "stick-slip", "-o", "/dev/null", "--intervals",
                      "/dev/null", NULL};
  const char *const *all[] = {a1, a2, a3};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    cr_expect_eq(fbt_cli(all[i], out, sizeof out, err, sizeof err), 0, "case %zu: %s", i, err);
  struct stat sb;
  cr_assert_eq(stat("/dev/null", &sb), 0);
  cr_assert(S_ISCHR(sb.st_mode), "/dev/null must still be the device");
}

/* issue 24 item 4: the same file under two names (a hard link, a symbolic link) is one file */
Test(badinput, outputs_under_two_names_are_one_file)
{
  char dir[64], f[128], hard[128], sym[128], mf[160];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(f, sizeof f, "%s/f.csv", dir);
  snprintf(hard, sizeof hard, "%s/hard.csv", dir);
  snprintf(sym, sizeof sym, "%s/sym.csv", dir);
  FILE *fp = fopen(f, "w");
  cr_assert_not_null(fp);
  fputs("keep\n", fp);
  fclose(fp);
  cr_assert_eq(link(f, hard), 0);
  cr_assert_eq(symlink(f, sym), 0);
  const char *a1[] = {"reference", "-s", "stick-slip", "-o", f, "--intervals", hard, NULL};
  snprintf(mf, sizeof mf, "--metrics=%s", f);
  const char *a2[] = {"run", "-s", "stick-slip", "-m", "lugre", "-o", sym, mf, NULL};
  const char *const *all[] = {a1, a2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    cr_expect_eq(fbt_cli(all[i], out, sizeof out, err, sizeof err), 2, "case %zu: %s", i, err);
    cr_expect_eq(fbt_lines(err), 1, "case %zu: %s", i, err);
    cr_expect(strstr(err, "same file") != NULL, "case %zu: %s", i, err);
  }
  cr_expect_eq(fbt_dir_entries(dir), 3, "nothing but the three names");
  fp = fopen(f, "r");
  char line[16] = "";
  cr_assert_not_null(fp);
  cr_expect(fgets(line, sizeof line, fp) != NULL && strcmp(line, "keep\n") == 0, "f changed");
  fclose(fp);
  fbt_rmdir(dir);
}
