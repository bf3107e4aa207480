/* test_compare.c — `fricbench compare A B` (docs/design.md §10.9): runs matched by their
 * full key (not run_id), one-sided runs listed, each metric, status and verdict rated
 * better / worse / changed by its good direction, a regression only a change for the
 * worse beyond --rtol, malformed input refused with one line. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fb_test.h"

static char out[1 << 16], err[1 << 12];

/* runs.csv's key columns as the suite writes them (bench/suite/suite_write.c), a few
 * metrics of each direction, and the hold/stability columns being added beside them. */
static const char hdr[] = "run_id,group,tag,scenario,scenario_params,model,model_params,"
                          "integrator,mode,h,atol,rtol,sweep,sweep_value,status,message,"
                          "err_x_l2,err_v_l2,err_F_l2,err_x_max,err_v_max,disc_x_l2,"
                          "stick_held,nfe,nevents,hold_creep_v,hold_excess,t_reached\n";

static void put_n(const char *dir, const char *name, const char *text, size_t len)
{
  char path[256];
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  cr_assert_not_null(fp);
  fwrite(text, 1, len, fp);
  fclose(fp);
}

static void put(const char *dir, const char *name, const char *text)
{
  put_n(dir, name, text, strlen(text));
}

/* compare on whole files: runs.csv of A and B (a_len bytes of A, to hold a NUL) and
 * optional verdicts.csv; its exit status, out and err filled. */
static int cmp_files(const char *runs_a, size_t a_len, const char *runs_b, const char *va,
                     const char *vb, const char *opt)
{
  char dir[64], a[96], b[96];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/a", dir);
  snprintf(b, sizeof b, "%s/b", dir);
  put_n(a, "runs.csv", runs_a, a_len);
  put(b, "runs.csv", runs_b);
  if (va != NULL)
    put(a, "verdicts.csv", va);
  if (vb != NULL)
    put(b, "verdicts.csv", vb);
  const char *args[] = {"compare", a, b, opt, NULL};
  const int rc = fbt_cli(args, out, sizeof out, err, sizeof err);
  fbt_rmdir(dir);
  return rc;
}

static const char vh[] = "model,integrator,view,step,property,verdict,value,unit,value2,rule,"
                         "scenarios\n";

/* Two runs.csv (rows after hdr) and optional verdicts.csv (rows after vh). */
static int cmp(const char *rows_a, const char *rows_b, const char *verd_a, const char *verd_b,
               const char *opt)
{
  char ta[4096], tb[4096], wa[2048], wb[2048];
  snprintf(ta, sizeof ta, "%s%s", hdr, rows_a);
  snprintf(tb, sizeof tb, "%s%s", hdr, rows_b);
  snprintf(wa, sizeof wa, "%s%s", vh, verd_a ? verd_a : "");
  snprintf(wb, sizeof wb, "%s%s", vh, verd_b ? verd_b : "");
  return cmp_files(ta, strlen(ta), tb, verd_a ? wa : NULL, verd_b ? wb : NULL, opt);
}

/* Key cells up to the message, then the metrics of hdr: err_x_l2 ... disc_x_l2 (6),
 * stick_held, nfe, nevents, hold_creep_v, hold_excess, t_reached. */
#define R1 "fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,0.001,nan,nan,h," \
           "0.001,ok,,"
#define R2 "baseline,,drift,m=1;Fs=1.5,lugre,sigma0=auto,msbdf,adaptive,nan,1e-08,1e-08,,nan," \
           "ok,,"
#define M1 "1e-3,1,1,1,1,1,5,100,3,1e-6,1e-6,1e-3\n"
#define M2 "2,2,2,2,2,2,5,100,3,1e-6,1e-6,1e-3\n"
/* R1 with a metric replaced: the 6 errors, then the named tail */
#define R1M(err, tail) "1," R1 err "," tail "\n"
#define TAIL "5,100,3,1e-6,1e-6,1e-3"

/* A change line of the table: label and column both on one line of out. */
static int has_line(const char *label, const char *column)
{
  for (const char *p = out; (p = strstr(p, label)) != NULL; p++) {
    const char *bol = p, *eol = strchr(p, '\n');
    while (bol > out && bol[-1] != '\n')
      bol--;
    char line[1024];
    const size_t n = (size_t)((eol ? eol : p + strlen(p)) - bol);
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), bol);
    if (strstr(line, column) != NULL)
      return 1;
  }
  return 0;
}

Test(compare, identical_and_renumbered_runs_match)
{
  cr_assert_eq(cmp("1," R1 M1 "2," R2 M2, "7," R2 M2 "9," R1 M1, NULL, NULL, NULL), 0, "%s%s",
               out, err);
  cr_assert(strstr(out, "2 matched, 0 only in A, 0 only in B; 0 regressions") &&
            strstr(out, "verdicts not compared"), "%s", out);
  /* numbers in the key match by value, as another printf would write them */
  cr_assert_eq(cmp("1," R1 M1, "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,"
                   "fixed,1e-3,-nan,NaN,h,1.0e-3,ok,," M1, NULL, NULL, NULL), 0, "%s%s", out, err);
  cr_assert(strstr(out, "1 matched"), "%s", out);
}

Test(compare, worse_beyond_rtol_regresses_within_does_not)
{
  cr_assert_eq(cmp(R1M("1e-3,1,1,1,1,1", TAIL), R1M("1.2e-3,1,1,1,1,1", TAIL), NULL, NULL, NULL),
               1);
  cr_assert(has_line("worse", "err_x_l2") && strstr(out, "1 regressions"), "%s", out);
  /* within a stated tolerance: no line, no regression */
  cr_assert_eq(cmp(R1M("1e-3,1,1,1,1,1", TAIL), R1M("1.2e-3,1,1,1,1,1", TAIL), NULL, NULL,
                   "--rtol=0.3"), 0);
  cr_assert(!has_line("worse", "err_x_l2") && strstr(out, "0 regressions"), "%s", out);
  /* shrinking errors are better, not regressions */
  cr_assert_eq(cmp(R1M("1e-3,1,1,1,1,1", TAIL), R1M("1e-4,1,1,1,1,1", TAIL), NULL, NULL, NULL),
               0);
  cr_assert(has_line("better", "err_x_l2") && strstr(out, "0 regressions, 1 better"), "%s",
            out);
}

Test(compare, each_metric_rated_by_its_direction)
{
  const char *a = R1M("1,1,1,1,1,1", "5,100,3,-2e-6,1e-6,1e-3");
  /* stick held and stable step: higher is better */
  cr_assert_eq(cmp(a, R1M("1,1,1,1,1,1", "6,100,3,-2e-6,1e-6,2e-3"), NULL, NULL, NULL), 0,
               "%s", out);
  cr_assert(has_line("better", "stick_held") && has_line("better", "t_reached"), "%s", out);
  cr_assert_eq(cmp(a, R1M("1,1,1,1,1,1", "4,100,3,-2e-6,1e-6,1e-3"), NULL, NULL, NULL), 1);
  cr_assert(has_line("worse", "stick_held"), "%s", out);
  /* cost, excess displacement: lower; creep velocity: lower |value| (it is signed) */
  cr_assert_eq(cmp(a, R1M("1,1,1,1,1,1", "5,200,3,1e-6,1e-6,1e-3"), NULL, NULL, NULL), 1);
  cr_assert(has_line("worse", "nfe") && has_line("better", "hold_creep_v"), "%s", out);
  cr_assert_eq(cmp(a, R1M("1,1,1,1,1,1", "5,100,3,3e-6,5e-7,1e-3"), NULL, NULL, NULL), 1);
  cr_assert(has_line("worse", "hold_creep_v") && has_line("better", "hold_excess"), "%s", out);
  /* a count without a direction only changed; so is a column compare does not know */
  cr_assert_eq(cmp(a, R1M("1,1,1,1,1,1", "5,100,9,-2e-6,1e-6,1e-3"), NULL, NULL, NULL), 0);
  cr_assert(has_line("changed", "nevents") && strstr(out, "0 regressions"), "%s", out);
}

Test(compare, timings_only_at_a_tolerance_asked_for)
{
  static const char h[] = "group,tag,scenario,scenario_params,model,model_params,integrator,"
                          "mode,h,atol,rtol,sweep,sweep_value,status,cpu_s\n";
  char a[512], b[512];
  snprintf(a, sizeof a, "%s" "x,,drift,m=1,lugre,,rk4,fixed,0.001,nan,nan,,nan,ok,0.001\n", h);
  snprintf(b, sizeof b, "%s" "x,,drift,m=1,lugre,,rk4,fixed,0.001,nan,nan,,nan,ok,0.01\n", h);
  /* one timing is noise: not rated by default */
  cr_assert_eq(cmp_files(a, strlen(a), b, NULL, NULL, NULL), 0, "%s%s", out, err);
  cr_assert(!strstr(out, "cpu_s") && strstr(out, "timings not compared"), "%s", out);
  cr_assert_eq(cmp_files(a, strlen(a), b, NULL, NULL, "--time-rtol=0.5"), 1, "%s%s", out, err);
  cr_assert(has_line("worse", "cpu_s"), "%s", out);
}

Test(compare, status_order)
{
  const char *ok = "1," R1 M1;
  const char *unst = "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,"
                     "0.001,nan,nan,h,0.001,unstable,diverges," M1;
  const char *susp = "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,"
                     "0.001,nan,nan,h,0.001,suspect,grows," M1;
  const char *fail = "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,"
                     "0.001,nan,nan,h,0.001,failed,diverged,nan,nan,nan,nan,nan,nan,nan,0,0,"
                     "nan,nan,nan\n";
  cr_assert_eq(cmp(ok, unst, NULL, NULL, NULL), 1);
  cr_assert(has_line("worse", "status") && strstr(out, "unstable"), "%s", out);
  cr_assert_eq(cmp(unst, susp, NULL, NULL, NULL), 0, "%s", out);
  cr_assert(has_line("better", "status"), "%s", out);
  cr_assert_eq(cmp(fail, unst, NULL, NULL, NULL), 0, "%s", out);
  cr_assert(has_line("better", "status"), "%s", out);
  cr_assert_eq(cmp(susp, fail, NULL, NULL, NULL), 1);
  cr_assert(has_line("worse", "status"), "%s", out);
}

Test(compare, other_parameters_are_other_runs)
{
  /* the same scenario and model with another preload: not matched, listed on each side,
   * no regression however its errors differ */
  const char *b = "1,fixed-step,,stick-slip,D=0.1;mu=3,kikuuwe,K=auto;B=auto,rk4,fixed,0.001,"
                  "nan,nan,h,0.001,ok,,9,9,9,9,9,9,5,100,3,1e-6,1e-6,1e-3\n";
  cr_assert_eq(cmp("1," R1 M1, b, NULL, NULL, NULL), 0, "%s", out);
  cr_assert(has_line("only in A", "mu=4") && has_line("only in B", "mu=3"), "%s", out);
  cr_assert(strstr(out, "0 matched, 1 only in A, 1 only in B; 0 regressions"), "%s", out);
  /* model parameters too */
  const char *m = "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=1e5;B=auto,rk4,fixed,0.001,"
                  "nan,nan,h,0.001,ok,,9,9,9,9,9,9,5,100,3,1e-6,1e-6,1e-3\n";
  cr_assert_eq(cmp("1," R1 M1, m, NULL, NULL, NULL), 0, "%s", out);
  cr_assert(has_line("only in B", "K=1e5"), "%s", out);
  /* their verdicts were judged on other runs: a changed one is not rated */
  cr_assert_eq(cmp("1," R1 M1, b, "kikuuwe,rk4,fixed,0.001,drift,no,1,1,1,R,stick-slip\n",
                   "kikuuwe,rk4,fixed,0.001,drift,yes,1,1,1,R,stick-slip\n", NULL), 0, "%s", out);
  cr_assert(has_line("changed", "verdict") && strstr(out, "not rated"), "%s", out);
  /* a run missing from B is listed, not a regression (a filtered suite B) */
  cr_assert_eq(cmp("1," R1 M1 "2," R2 M2, "1," R1 M1, NULL, NULL, NULL), 0);
  cr_assert(has_line("only in A", "lugre") && strstr(out, "1 only in A"), "%s", out);
}

Test(compare, verdicts_rated_by_direction)
{
#define V(prop, verdict) "kikuuwe,rk4,fixed,0.001," prop "," verdict ",1,1,1,R,stick-slip\n"
  static const struct {
    const char *a, *b;
    int rc;
    const char *label;
  } c[] = {
      {V("drift", "yes"), V("drift", "no"), 0, "better"},
      {V("drift", "no"), V("drift", "yes"), 1, "worse"},
      {V("stick", "no (worst 0.10)"), V("stick", "yes (worst 0.99)"), 0, "better"},
      {V("stick", "yes (worst 0.97)"), V("stick", "yes (worst 0.99)"), 0, "changed"},
      {V("energy", "creates energy"), V("energy", "dissipative"), 0, "better"},
      {V("energy", "dissipative"), V("energy", "creates energy"), 1, "worse"},
      {V("hold", "slips 4.2 mm (83 % of the preload lost)"), V("hold", "holds"), 0, "better"},
      {V("hold", "creeps 3.1 µm/s"), V("hold", "holds"), 0, "better"},
      {V("hold", "holds"), V("hold", "creeps 3.1 µm/s"), 1, "worse"},
      {V("chatter", "unstable at 0.001 (stable <= 0.00025)"), V("chatter", "\"yes, numerical\""), 0,
       "better"},
      {V("hold", "holds"), V("hold", "unstable at 0.001 (stable <= 0.00025)"), 1, "worse"},
      {V("order", "1.85"), V("order", "1.18"), 0, "changed"},
      {V("drift", "maybe"), V("drift", "no"), 0, "changed"},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    cr_assert_eq(cmp("1," R1 M1, "1," R1 M1, c[i].a, c[i].b, NULL), c[i].rc, "%zu: %s%s", i,
                 out, err);
    cr_assert(has_line(c[i].label, "verdict"), "%zu: %s", i, out);
  }
  /* a verdict on one side only is listed, not rated */
  cr_assert_eq(cmp("1," R1 M1, "1," R1 M1, V("drift", "no"), V("energy", "dissipative"), NULL),
               0);
  cr_assert(has_line("only in A", "drift") && has_line("only in B", "energy"), "%s", out);
  /* stable-step: a larger stable h is better */
  cr_assert_eq(cmp("1," R1 M1, "1," R1 M1,
                   "kikuuwe,rk4,fixed,0.001,stable-step,stable <= 2.5e-4,2.5e-4,s,,R,x\n",
                   "kikuuwe,rk4,fixed,0.001,stable-step,stable <= 1e-4,1e-4,s,,R,x\n", NULL),
               1);
  cr_assert(has_line("worse", "stable-step"), "%s", out);
#undef V
}

Test(compare, json_agrees_with_the_table)
{
  const char *va = "kikuuwe,rk4,fixed,0.001,drift,yes,1,1,1,R,drift\n";
  const char *vb = "kikuuwe,rk4,fixed,0.001,drift,no,0,1,1,R,drift\n";
  cr_assert_eq(cmp("1," R1 M1, "1," R1 M1, va, vb, "--json"), 0, "%s%s", out, err);
  json_error_t je;
  json_t *o = json_loads(out, 0, &je);
  cr_assert_not_null(o, "%s: %s", je.text, out);
  cr_assert_eq(json_integer_value(json_object_get(o, "regressions")), 0);
  cr_assert_eq(json_integer_value(json_object_get(o, "better")), 1);
  cr_assert_eq(json_integer_value(json_object_get(o, "matched")), 1);
  cr_assert(json_is_true(json_object_get(o, "verdicts_compared")));
  json_t *c = json_array_get(json_object_get(o, "changes"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(c, "kind")), "verdict");
  cr_assert_str_eq(json_string_value(json_object_get(c, "label")), "better");
  cr_assert(json_is_false(json_object_get(c, "regression")));
  cr_assert_str_eq(json_string_value(json_object_get(c, "b")), "no");
  json_decref(o);
  /* verdicts.csv in one directory only: tolerated, not compared */
  cr_assert_eq(cmp("1," R1 M1, "1," R1 M1, va, NULL, NULL), 0);
  cr_assert(strstr(out, "verdicts not compared"), "%s", out);
}

/* Malformed A: exit 2, one line naming the file and what, nothing on stdout. */
static void refused_n(const char *text, size_t len, const char *va, const char *what)
{
  char b[4096];
  snprintf(b, sizeof b, "%s1,%s%s", hdr, R1, M1);
  const int rc = cmp_files(text, len, b, va, va == NULL ? NULL : vh, NULL);
  cr_assert_eq(rc, 2, "%s: rc %d: %s%s", what, rc, out, err);
  cr_assert_eq(fbt_lines(err), 1, "%s: %s", what, err);
  cr_assert_str_eq(out, "", "%s: %s", what, out);
  cr_assert(strstr(err, va == NULL ? "a/runs.csv" : "a/verdicts.csv") && strstr(err, what),
            "want '%s' in: %s", what, err);
}

static void refused(const char *rows, const char *what)
{
  char t[4096];
  snprintf(t, sizeof t, "%s%s", hdr, rows);
  refused_n(t, strlen(t), NULL, what);
}

Test(compare, malformed_runs_refused)
{
  /* a garbage, an infinite, a hex number; a fraction of evaluations; a key cell */
  refused("1," R1 M1 "2," R2 "abc,2,2,2,2,2,5,100,3,1e-6,1e-6,1e-3\n",
          "line 3, column err_x_l2: 'abc'");
  refused("1," R1 "inf,1,1,1,1,1,5,100,3,1e-6,1e-6,1e-3\n", "column err_x_l2: 'inf'");
  refused("1," R1 "0x10,1,1,1,1,1,5,100,3,1e-6,1e-6,1e-3\n", "'0x10'");
  refused("1," R1 "1,1,1,1,1,1,5,12.5,3,1e-6,1e-6,1e-3\n", "column nfe: '12.5'");
  refused("1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,1ms,nan,nan,h,"
          "0.001,ok,," M1, "column h: '1ms'");
  refused("1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,0.001,nan,nan,"
          "h,0.001,fine,," M1, "column status: 'fine'");
  /* a row short of a field, one with a field too many */
  refused("1," R1 "1,1,1,1,1,5,100,3,1e-6,1e-6,1e-3\n", "line 2: 27 fields, the header has 28");
  refused("1," R1 "1,1,1,1,1,1,1,5,100,3,1e-6,1e-6,1e-3\n", "line 2: 29 fields");
  /* the same run twice, renumbered */
  refused("1," R1 M1 "2," R2 M2 "3," R1 M1, "lines 2 and 4: the same run twice");
  /* a quote left open: the file is cut */
  refused("1," R1 M1 "2,\"baseline", "ends inside a quoted field");
  /* a NUL byte */
  char t[4096];
  const int n = snprintf(t, sizeof t, "%s1,%s%s", hdr, R1, M1);
  t[n - 5] = '\0';
  refused_n(t, (size_t)n, NULL, "line 2: a NUL byte");
  /* a required column missing: the scenario's parameters (an old runs.csv) */
  static const char old[] = "run_id,group,tag,scenario,model,integrator,mode,h,atol,rtol,"
                            "sweep,sweep_value,status,message,err_x_l2\n"
                            "1,fixed-step,,stick-slip,kikuuwe,rk4,fixed,0.001,nan,nan,h,"
                            "0.001,ok,,1e-3\n";
  refused_n(old, strlen(old), NULL, "no column 'scenario_params'");
}

Test(compare, no_value_is_allowed_where_the_suite_writes_one)
{
  /* empty and nan where a metric has no value; nan h of an adaptive run */
  cr_assert_eq(cmp("1," R1 ",nan,NaN,1,1,1,5,100,3,-nan,1e-6,nan\n2," R2 M2,
                   "1," R1 ",nan,NaN,1,1,1,5,100,3,-nan,1e-6,nan\n2," R2 M2, NULL, NULL, NULL),
               0, "%s%s", out, err);
  /* inf in a run that did not complete (its metrics are not rated), and in a verdict's
   * value (a rest measure that is NaN is written as inf) */
  const char *ran_away = "1,fixed-step,,stick-slip,D=0.1;mu=4,kikuuwe,K=auto;B=auto,rk4,fixed,"
                         "0.001,nan,nan,h,0.001,unstable,x,inf,-inf,1,1,1,1,5,100,3,1,1,1\n";
  const char *v = "penalty-n,contact,contact,-,rests,does not rest,inf,x bound,nan,R,x\n";
  cr_assert_eq(cmp(ran_away, ran_away, v, v, NULL), 0, "%s%s", out, err);
  /* a quoted key cell with a comma is one field */
  cr_assert_eq(cmp("1,\"a,b\",,stick-slip,D=0.1,kikuuwe,,rk4,fixed,0.001,nan,nan,h,0.001,ok,," M1,
                   "1,\"a,b\",,stick-slip,D=0.1,kikuuwe,,rk4,fixed,0.001,nan,nan,h,0.001,ok,," M1,
                   NULL, NULL, NULL), 0, "%s%s", out, err);
}

Test(compare, malformed_verdicts_refused)
{
  char r[4096], v[1024];
  snprintf(r, sizeof r, "%s1,%s%s", hdr, R1, M1);
  /* no verdict column */
  refused_n(r, strlen(r), "model,integrator,view,step,property,value\nkikuuwe,rk4,fixed,0.001,"
            "drift,1\n", "no column 'verdict'");
  /* a row cut short */
  snprintf(v, sizeof v, "%skikuuwe,rk4,fixed,0.001,drift,no,1,1\n", vh);
  refused_n(r, strlen(r), v, "line 2: 8 fields, the header has 11");
  /* a value that is no number */
  snprintf(v, sizeof v, "%skikuuwe,rk4,fixed,0.001,drift,no,lots,1,1,R,x\n", vh);
  refused_n(r, strlen(r), v, "column value: 'lots'");
  /* the same verdict twice */
  snprintf(v, sizeof v, "%skikuuwe,rk4,fixed,0.001,drift,no,1,1,1,R,x\n"
           "kikuuwe,rk4,fixed,0.001,drift,yes,1,1,1,R,x\n", vh);
  refused_n(r, strlen(r), v, "lines 2 and 3: the same verdict twice");
  /* an empty verdict */
  snprintf(v, sizeof v, "%skikuuwe,rk4,fixed,0.001,drift,,1,1,1,R,x\n", vh);
  refused_n(r, strlen(r), v, "column verdict: ''");
}

Test(compare, bad_arguments)
{
  cr_assert_eq(cmp("1," R1 M1, "1," R1 M1, NULL, NULL, "--rtol=-1"), 2);
  cr_assert_eq(fbt_lines(err), 1);
  const char *a[] = {"compare", "/nonexistent-a", "/nonexistent-b", NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, err, sizeof err), 2);
  cr_assert(strstr(err, "runs.csv") && fbt_lines(err) == 1, "%s", err);
  const char *b[] = {"compare", "/tmp", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, err, sizeof err), 2);
}
