/* test_cli.c — the command line: success paths and the bad-input rules of docs/design.md §9
 * (exit status 2, one clear line naming the value and what is allowed, no output file). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb_model_registry.h"
#include "fb_suite.h"
#include "fb_test.h"

static char out[1 << 16], err[1 << 12];

Test(cli, help_version_list)
{
  const char *a1[] = {"--help", NULL}, *a2[] = {"--version", NULL}, *a3[] = {"list", NULL};
  const char *a4[] = {"run", "--help", NULL}, *a5[] = {"list", "models", NULL};
  cr_assert_eq(fbt_cli(a1, out, sizeof out, err, sizeof err), 0);
  cr_assert(strstr(out, "usage: fricbench"));
  cr_assert_eq(fbt_cli(a2, out, sizeof out, err, sizeof err), 0);
  cr_assert(strncmp(out, "fricbench ", 10) == 0);
  cr_assert_eq(fbt_cli(a3, out, sizeof out, err, sizeof err), 0);
  cr_assert(strstr(out, "kikuuwe") && strstr(out, "inclined-block") && strstr(out, "heun3"));
  cr_assert(strstr(out, "K ") && strstr(out, "[N/m]"), "parameters with units");
  cr_assert_eq(fbt_cli(a4, out, sizeof out, err, sizeof err), 0);
  cr_assert(strstr(out, "--tol"));
  cr_assert_eq(fbt_cli(a5, out, sizeof out, err, sizeof err), 0);
  cr_assert(strstr(out, "lugre") && !strstr(out, "inclined-block"));
}

Test(cli, run_writes_csv)
{
  char dir[64], path[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/k.csv", dir);
  const char *a[] = {"run", "--scenario", "inclined-block", "--model", "kikuuwe", "--h", "1e-3",
                     "--set", "mu_ratio=3", "--samples", "21", "--out", path, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert_eq(fbt_lines(err), 1, "one summary line: %s", err);
  cr_assert(strstr(err, "ok:") && strstr(err, "steps=2000") && strstr(err, "rhs="), "%s", err);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  char line[512];
  cr_assert_not_null(fgets(line, sizeof line, fp));
  cr_assert_str_eq(line, "t,x,v,F,e,stick\n");
  size_t rows = 0;
  while (fgets(line, sizeof line, fp))
    rows++;
  fclose(fp);
  cr_assert_eq(rows, 21);
  cr_assert_eq(fbt_dir_entries(dir), 1, "no temporary file left behind");
  fbt_rmdir(dir);
  /* stdout when no --out */
  const char *b[] = {"run", "-s", "drift", "-m", "lugre", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_assert_eq(fbt_lines(out), 4);
  cr_assert(strncmp(out, "t,x,v,F,z,stick\n", 16) == 0, "%s", out);
}

Test(cli, budget_is_a_result)
{
  const char *a[] = {"run", "-s", "stick-slip", "-m", "naive-sign", "--tol", "1e-6",
                     "--max-steps", "1000", "--samples", "3", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 1, "%s", err);
  cr_assert(strstr(err, "budget:") && strstr(err, "step budget"), "%s", err);
}

/* Every bad input: exit 2, exactly one line on stderr mentioning `needle`, nothing on
 * stdout, and nothing written into the output directory. */
typedef struct bad {
  const char *args[24];
  const char *needle;
} bad;

static const bad bad_inputs[] = {
    {{"frobnicate", NULL}, "frobnicate"},
    {{"list", "widgets", NULL}, "widgets"},
    {{"run", "-s", "nosuch", "-m", "kikuuwe", NULL}, "nosuch"},
    {{"run", "-s", "drift", "-m", "nosuch", NULL}, "nosuch"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "-i", "nosuch", NULL}, "nosuch"},
    {{"run", "-m", "kikuuwe", NULL}, "--scenario"},
    {{"run", "-s", "drift", NULL}, "--model"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "1e-3", "--tol", "1e-6", NULL}, "--tol"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "nan", NULL}, "nan"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "inf", NULL}, "inf"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "0", NULL}, "--h"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "-1e-3", NULL}, "-1e-3"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "1e-3x", NULL}, "1e-3x"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "", NULL}, "--h"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", "100", NULL}, "100"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--tol", "0", NULL}, "--tol"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--tol", "-1", NULL}, "-1"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=0", NULL}, "m = 0"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=-1", NULL}, "m = -1"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=inf", NULL}, "inf"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "m=", NULL}, "m"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "Fc=2", NULL}, "Fc"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "nosuch=1", NULL}, "nosuch"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "K", NULL}, "NAME=VALUE"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "K=-5", NULL}, "K = -5"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--set", "model.m=1", NULL}, "'m'"},
    {{"run", "-s", "drift", "-m", "smooth-sign", "--set", "phi=cubic", NULL}, "cubic"},
    {{"run", "-s", "inclined-block", "-m", "kikuuwe", "--set", "theta=90", NULL}, "theta"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--samples", "1", NULL}, "--samples"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--samples", "99999999999999999999999", NULL},
     "99999999999999999999999"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--max-steps", "abc", NULL}, "abc"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--bogus", NULL}, "--bogus"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--h", NULL}, "--h"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "extra", NULL}, "extra"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--out", "/nonexistent-dir/x.csv", NULL},
     "/nonexistent-dir/x.csv"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--out", "/tmp", NULL}, "/tmp"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--out", "/dev/full", NULL}, "/dev/full"},
    {{"run", "-s", "drift", "-m", "kikuuwe", "--out", "", NULL}, "empty"},
};

Test(cli, bad_input_exit_2_one_line_no_file)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  char path[128];
  snprintf(path, sizeof path, "%s/out.csv", dir);
  for (size_t k = 0; k < sizeof bad_inputs / sizeof bad_inputs[0]; k++) {
    const bad *b = &bad_inputs[k];
    /* append --out into the fresh directory unless the case tests --out itself */
    const char *args[32];
    size_t n = 0;
    int has_out = 0;
    for (; b->args[n] != NULL; n++) {
      args[n] = b->args[n];
      has_out |= strcmp(b->args[n], "--out") == 0;
    }
    if (!has_out && strcmp(args[0], "run") == 0 && n > 1 && strcmp(args[n - 1], "--h") != 0) {
      args[n++] = "--out";
      args[n++] = path;
    }
    args[n] = NULL;
    const int rc = fbt_cli(args, out, sizeof out, err, sizeof err);
    cr_expect_eq(rc, 2, "case %zu (%s): exit %d, stderr: %s", k, b->needle, rc, err);
    cr_expect_eq(fbt_lines(err), 1, "case %zu: one line, got: %s", k, err);
    cr_expect(strstr(err, b->needle) != NULL, "case %zu: '%s' not named in: %s", k, b->needle,
              err);
    cr_expect(strncmp(err, "fricbench: ", 11) == 0, "case %zu: %s", k, err);
    cr_expect_eq(out[0], '\0', "case %zu: nothing on stdout", k);
    cr_expect_eq(fbt_dir_entries(dir), 0, "case %zu: an output file was left behind", k);
  }
  struct stat sb;
  cr_assert_eq(stat("/dev/full", &sb), 0);
  cr_assert(S_ISCHR(sb.st_mode), "/dev/full must still be the device");
  fbt_rmdir(dir);
}

/* Issue 24 item 9: a plain `list` shows the normal-contact treatments and the contact
 * scenarios (they were only under `list contact`), and --help names `list contact`. */
Test(cli, list_shows_contact_section)
{
  const char *a[] = {"list", NULL}, *c[] = {"list", "contact", NULL}, *h[] = {"--help", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(out, "\nnormal-contact treatments") != NULL, "no treatments in `list`");
  cr_expect(strstr(out, "\nscenarios with normal contacts") != NULL, "no contact scenarios");
  cr_expect(strstr(out, "  bouncing-ball ") != NULL, "bouncing-ball not listed");
  cr_assert_eq(fbt_cli(c, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(out, "  bouncing-ball ") != NULL && strstr(out, "\nmodels:") == NULL);
  cr_assert_eq(fbt_cli(h, out, sizeof out, err, sizeof err), 0, "%s", err);
  cr_expect(strstr(out, "list [models|scenarios|integrators|contact|engines]") != NULL, "%s", out);
}

/* word occurs in s delimited by blanks, quotes or line ends (so --h is not --help) */
static int has_word(const char *s, const char *word)
{
  const size_t n = strlen(word);
  for (const char *p = strstr(s, word); p != NULL; p = strstr(p + 1, word)) {
    const int lead = p == s || strchr(" \t\n\"|", p[-1]) != NULL;
    if (lead && (p[n] == '\0' || strchr(" \t\n\"|)", p[n]) != NULL))
      return 1;
  }
  return 0;
}

/* The branch `        CMD)` ... `;;` of the completion's case on the command, or NULL. */
static char *completion_branch(const char *text, const char *cmd, char *buf, size_t len)
{
  char head[64];
  snprintf(head, sizeof head, "\n        %s)\n", cmd);
  const char *p = strstr(text, head), *e = p != NULL ? strstr(p, ";;") : NULL;
  if (e == NULL || (size_t)(e - p) >= len)
    return NULL;
  memcpy(buf, p, (size_t)(e - p));
  buf[e - p] = '\0';
  return buf;
}

/* The options a command's --help gives: every --name of its usage paragraph and of the
 * lines that define an option ("  -o, --out FILE", "      --h H"); list's kinds too. */
static void check_command_completion(const char *cmd, const char *text, char *help)
{
  char branch[2048];
  cr_assert_not_null(completion_branch(text, cmd, branch, sizeof branch),
                     "completion has no branch for %s", cmd);
  char *usage_end = strstr(help, "\n\n");
  size_t checked = 0;
  for (char *line = help, *next; line != NULL && *line != '\0'; line = next) {
    next = strchr(line, '\n');
    if (next != NULL)
      *next++ = '\0';
    const int in_usage = usage_end == NULL || line < usage_end;
    const char *t = line + strspn(line, " ");
    if (!in_usage && !(t > line && t[0] == '-'))
      continue; /* prose: may name another command's options */
    for (const char *p = strstr(line, "--"); p != NULL; p = strstr(p + 2, "--")) {
      char opt[40];
      size_t n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
      if (n == 2 || n >= sizeof opt || (!in_usage && p != t && p != t + 4))
        continue; /* an option line's own option only: at its start or after "-o, " */
      memcpy(opt, p, n);
      opt[n] = '\0';
      cr_expect(has_word(branch, opt), "completion of %s lacks %s", cmd, opt);
      checked++;
    }
  }
  if (strcmp(cmd, "list") == 0)
    for (const char *k = "models\0scenarios\0integrators\0contact\0"; *k; k += strlen(k) + 1) {
      cr_expect(has_word(branch, k), "completion of list lacks %s", k);
      checked++;
    }
  cr_expect_gt(checked, 0, "no option found in `%s --help`", cmd);
}

/* Issue 24 item 9: the bash completion knows every command of `fricbench --help` (impacts
 * was missing) and every option each command's --help gives. */
Test(cli, completion_has_every_command_and_option)
{
  const char *root = getenv("FB_SOURCE_ROOT");
  cr_assert_not_null(root, "FB_SOURCE_ROOT is not set (run the tests through meson test)");
  char path[512];
  snprintf(path, sizeof path, "%s/scripts/fricbench.bash-completion", root);
  static char text[1 << 14];
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp, "%s", path);
  text[fread(text, 1, sizeof text - 1, fp)] = '\0';
  fclose(fp);
  const char *cmds_line = strstr(text, "local commands=\"");
  cr_assert_not_null(cmds_line);
  char cmds[256];
  snprintf(cmds, sizeof cmds, "%.*s", (int)strcspn(cmds_line + 16, "\""), cmds_line + 16);
  /* the case pattern that finds the command on the line: "list|run|...) cmd=" */
  const char *pat = strstr(text, ") cmd=");
  cr_assert_not_null(pat);
  while (pat > text && pat[-1] != ' ')
    pat--;
  char found[256];
  snprintf(found, sizeof found, "%.*s", (int)strcspn(pat, " "), pat);

  static char help[1 << 13], cmdhelp[1 << 14];
  const char *h[] = {"--help", NULL};
  cr_assert_eq(fbt_cli(h, help, sizeof help, err, sizeof err), 0, "%s", err);
  const char *p = strstr(help, "commands:\n");
  cr_assert_not_null(p);
  size_t ncmd = 0;
  for (p = strchr(p, '\n') + 1; p[0] == ' '; p = strchr(p, '\n') + 1) {
    if (p[1] != ' ' || p[2] == ' ')
      continue; /* a description's continuation */
    char cmd[32];
    snprintf(cmd, sizeof cmd, "%.*s", (int)strcspn(p + 2, " \n"), p + 2);
    cr_expect(has_word(cmds, cmd), "completion's commands lack %s", cmd);
    cr_expect(has_word(found, cmd), "completion does not find the command %s on the line", cmd);
    const char *a[] = {cmd, "--help", NULL};
    cr_assert_eq(fbt_cli(a, cmdhelp, sizeof cmdhelp, err, sizeof err), 0, "%s: %s", cmd, err);
    check_command_completion(cmd, text, cmdhelp);
    ncmd++;
  }
  cr_expect_eq(ncmd, 8, "commands found in --help: %zu", ncmd);
}

/* NULL when the comma-separated header line has no name twice, else the name (in dup). */
static const char *duplicate_column(const char *header, char dup[40])
{
  char cols[128][40];
  size_t n = 0;
  for (const char *p = header; n < 128 && *p != '\0' && *p != '\n';) {
    const size_t w = strcspn(p, ",\n");
    snprintf(cols[n], sizeof cols[n], "%.*s", (int)w, p);
    for (size_t k = 0; k < n; k++)
      if (strcmp(cols[k], cols[n]) == 0) {
        memcpy(dup, cols[n], sizeof cols[n]);
        return dup;
      }
    n++;
    p += w + (p[w] == ',');
  }
  return NULL;
}

/* Issue 24 item 9: moreau-jean and kikuuwe-be wrote `t,x,v,F,F,stick,stick` (their states
 * were named like the reported force and flag); every column of run's CSV is unique, for
 * one contact and for several. */
Test(cli, run_columns_are_unique)
{
  static const char *const models[] = {"moreau-jean", "kikuuwe-be"};
  static const char *const scenarios[] = {"stick-slip", "glowinski-3dof"};
  char dup[40];
  for (size_t m = 0; m < 2; m++)
    for (size_t s = 0; s < 2; s++) {
      const char *a[] = {"run", "-s", scenarios[s], "-m", models[m], "--samples", "2", NULL};
      cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 0, "%s", err);
      cr_expect_null(duplicate_column(out, dup), "%s on %s: column %s twice in %.200s",
                     models[m], scenarios[s], dup, out);
      cr_expect(strstr(out, ",F_step") != NULL, "%s: the step's force as F_step: %.200s",
                models[m], out);
    }
}

/* The same for every built-in model's header, at the layouts run writes (one DOF and
 * contact; several DOFs and contacts), without running anything. */
Test(cli, every_model_header_is_unique)
{
  static const size_t layouts[][2] = {{1, 1}, {3, 3}, {4, 2}, {1, 2}};
  const fb_model_type *mt;
  char dup[40];
  for (size_t i = 0; (mt = fb_model_at(i)) != NULL; i++)
    for (size_t k = 0; k < sizeof layouts / sizeof *layouts; k++) {
      fb_trace tr;
      cr_assert_eq(fb_trace_alloc(&tr, 2, layouts[k][0], layouts[k][1], mt->nz), FB_OK);
      char *text = NULL;
      size_t len = 0;
      FILE *fp = open_memstream(&text, &len);
      cr_assert_not_null(fp);
      cr_assert_eq(fb_trace_write_header(&tr, mt->z_names, fp), FB_OK);
      fclose(fp);
      cr_expect_null(duplicate_column(text, dup), "%s (n %zu, nc %zu): %s twice: %s",
                     mt->name, layouts[k][0], layouts[k][1], dup, text);
      free(text);
      fb_trace_free(&tr);
    }
}

/* Issue 24 item 9: `run --h H` without --integrator took rkf45 for karnopp and kikuuwe
 * where the suite's fixed-step view runs rk4.  For every (scenario, model) of the default
 * table's fixed-step view, run picks the view's integrator (one step is enough to say). */
Test(cli, run_h_picks_the_fixed_step_views_integrator)
{
  fb_table t;
  cr_assert_eq(fb_table_default(&t), FB_OK);
  size_t checked = 0;
  for (size_t i = 0; i < t.n; i++) {
    const fb_experiment *x = &t.e[i];
    if (strcmp(x->group, "fixed-step") != 0)
      continue;
    const char *want = x->integrator != NULL ? x->integrator
                                             : fb_model_find(x->model)->default_integrator;
    const char *a[] = {"run", "-s", x->scenario, "-m", x->model, "--h", "1e-3", "--samples",
                       "2", "--max-steps", "1", NULL};
    const int rc = fbt_cli(a, out, sizeof out, err, sizeof err);
    const char *got = strstr(err, " integrator=");
    cr_expect(rc != 2 && got != NULL, "%s on %s: exit %d: %s", x->model, x->scenario, rc, err);
    if (got != NULL)
      cr_expect(strncmp(got + 12, want, strlen(want)) == 0 && got[12 + strlen(want)] == ' ',
                "%s on %s: run --h took %.20s, the fixed-step view %s", x->model, x->scenario,
                got + 12, want);
    checked++;
  }
  fb_table_free(&t);
  cr_expect_gt(checked, 100, "fixed-step experiments: %zu", checked);
}
