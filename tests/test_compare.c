/* test_compare.c — `fricbench compare A B`: runs matched by what they are (not run_id),
 * status and error regressions beyond --rtol, missing runs, verdict changes, bad input. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fb_test.h"

static char out[1 << 16], err[1 << 12];

static const char hdr[] = "run_id,group,tag,scenario,model,integrator,mode,h,atol,rtol,sweep,"
                          "sweep_value,status,message,err_x_l2,err_v_l2,err_F_l2,err_x_max,"
                          "err_v_max,disc_x_l2\n";

static void put(const char *dir, const char *name, const char *text)
{
  char path[256];
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Two runs.csv (rows after the header) and optional verdicts.csv; compare's exit status. */
static int cmp(const char *rows_a, const char *rows_b, const char *verd_a, const char *verd_b,
               const char *opt)
{
  char dir[64], a[96], b[96], text[4096];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/a", dir);
  snprintf(b, sizeof b, "%s/b", dir);
  snprintf(text, sizeof text, "%s%s", hdr, rows_a);
  put(a, "runs.csv", text);
  snprintf(text, sizeof text, "%s%s", hdr, rows_b);
  put(b, "runs.csv", text);
  static const char vh[] = "model,integrator,view,step,property,verdict,value,unit,rule,scenarios\n";
  if (verd_a != NULL) {
    snprintf(text, sizeof text, "%s%s", vh, verd_a);
    put(a, "verdicts.csv", text);
  }
  if (verd_b != NULL) {
    snprintf(text, sizeof text, "%s%s", vh, verd_b);
    put(b, "verdicts.csv", text);
  }
  const char *args[] = {"compare", a, b, opt, NULL};
  const int rc = fbt_cli(args, out, sizeof out, err, sizeof err);
  fbt_rmdir(dir);
  return rc;
}

#define R1 "fixed-step,,stick-slip,kikuuwe,rk4,fixed,0.001,nan,nan,h,0.001,ok,,"
#define R2 "baseline,,drift,lugre,msbdf,adaptive,nan,1e-08,1e-08,,nan,ok,,"

Test(compare, identical_and_renumbered_runs_match)
{
  cr_assert_eq(cmp("1," R1 "1e-3,1,1,1,1,1\n2," R2 "2,2,2,2,2,2\n",
                   "7," R2 "2,2,2,2,2,2\n9," R1 "1e-3,1,1,1,1,1\n", NULL, NULL, NULL), 0, "%s%s",
               out, err);
  cr_assert(strstr(out, "0 regressions") && strstr(out, "verdicts not compared"), "%s", out);
}

Test(compare, error_growth_beyond_rtol_regresses)
{
  cr_assert_eq(cmp("1," R1 "1e-3,1,1,1,1,1\n", "1," R1 "1.2e-3,1,1,1,1,1\n", NULL, NULL, NULL), 1);
  cr_assert(strstr(out, "err_x_l2") && strstr(out, "REGRESSED"), "%s", out);
  /* within a stated tolerance: fine */
  cr_assert_eq(cmp("1," R1 "1e-3,1,1,1,1,1\n", "1," R1 "1.2e-3,1,1,1,1,1\n", NULL, NULL,
                   "--rtol=0.3"), 0);
  /* shrinking errors are improvements, not regressions */
  cr_assert_eq(cmp("1," R1 "1e-3,1,1,1,1,1\n", "1," R1 "1e-4,1,1,1,1,1\n", NULL, NULL, NULL), 0);
  cr_assert(strstr(out, "improved") && strstr(out, "1 improvements"), "%s", out);
}

Test(compare, status_and_missing_runs_regress)
{
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n",
                   "1,fixed-step,,stick-slip,kikuuwe,rk4,fixed,0.001,nan,nan,h,0.001,"
                   "failed: diverged,,nan,nan,nan,nan,nan,nan\n", NULL, NULL, NULL), 1);
  cr_assert(strstr(out, "status") && strstr(out, "failed"), "%s", out);
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n2," R2 "2,2,2,2,2,2\n", "1," R1 "1,1,1,1,1,1\n", NULL,
                   NULL, NULL), 1);
  cr_assert(strstr(out, "missing"), "%s", out);
  /* a new run in B alone is no regression */
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n", "1," R1 "1,1,1,1,1,1\n2," R2 "2,2,2,2,2,2\n", NULL,
                   NULL, NULL), 0);
}

Test(compare, verdict_changes_and_json)
{
  const char *va = "lugre,rk4imp,fixed,0.001,stick,holds,5,s,R1,preload-hold\n";
  const char *vb = "lugre,rk4imp,fixed,0.001,stick,fails,0,s,R1,preload-hold\n";
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n", "1," R1 "1,1,1,1,1,1\n", va, vb, "--json"), 1);
  json_error_t je;
  json_t *o = json_loads(out, 0, &je);
  cr_assert_not_null(o, "%s: %s", je.text, out);
  cr_assert_eq(json_integer_value(json_object_get(o, "regressions")), 1);
  cr_assert(json_is_true(json_object_get(o, "verdicts_compared")));
  json_t *c = json_array_get(json_object_get(o, "changes"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(c, "kind")), "verdict");
  cr_assert_str_eq(json_string_value(json_object_get(c, "b")), "fails");
  json_decref(o);
  /* verdicts.csv in one directory only: tolerated, not compared */
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n", "1," R1 "1,1,1,1,1,1\n", va, NULL, NULL), 0);
}

Test(compare, bad_input)
{
  cr_assert_eq(cmp("1," R1 "1,1,1,1,1,1\n", "1," R1 "1,1,1,1,1,1\n", NULL, NULL, "--rtol=-1"), 2);
  cr_assert_eq(fbt_lines(err), 1);
  const char *a[] = {"compare", "/nonexistent-a", "/nonexistent-b", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 2);
  cr_assert(strstr(err, "runs.csv") && fbt_lines(err) == 1, "%s", err);
  const char *b[] = {"compare", "/tmp", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 2);
}
