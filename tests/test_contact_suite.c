/* test_contact_suite.c — what issue 15's second slice adds (docs/design.md §12): the
 * moreau-jean normal treatment against the closed forms of bouncing-ball and block-drop,
 * the contact metrics' rest window, the contact verdict rules (each made to fail), and bad
 * contact input exiting 2 without an output file. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fb_contact_metrics.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_test.h"
#include "fb_verdicts.h"

static const double G = 9.81;

/* Run scenario with assignments sets (NULL-terminated) through fb_case_run, the contact
 * statistics collected with a rest window from t_watch. */
static void run_stats(const char *scenario, const char *const *sets, double t_watch,
                      fb_impact_stats *s, fb_run_result *res)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, scenario, "smooth-sign", NULL, &err), FB_OK, "%s", err.msg);
  for (size_t i = 0; sets[i] != NULL; i++)
    cr_assert_eq(fb_case_set(&c, sets[i], &err), FB_OK, "%s: %s", sets[i], err.msg);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_impact_stats_init(s, 0);
  s->t_watch = t_watch;
  c.opts.stats = s;
  fb_case_run(&c, NULL, NULL, res);
  cr_assert_eq(res->status, FB_OK, "%s", res->message);
  fb_case_free(&c);
}

/* Moreau-Jean keeps Newton's law at the velocity level: every bounce's e_eff is e up to
 * the O(h) of the smooth force inside the impact step (exactly e for gravity), the first
 * impact time within one step, and the ball rests after t_inf with lambda_n = m g. */
Test(contact_suite, moreau_jean_bouncing_ball)
{
  static const double es[] = {0.3, 0.7};
  const double h = 4e-4, t1 = sqrt(2 / G);
  for (size_t k = 0; k < 2; k++) {
    char se[32];
    snprintf(se, sizeof se, "e=%g", es[k]);
    const char *sets[] = {"normal=moreau-jean", se, NULL};
    const double t_inf = t1 * (1 + es[k]) / (1 - es[k]);
    fb_impact_stats s;
    fb_run_result res;
    run_stats("bouncing-ball", sets, t_inf + 0.5 * (4 - t_inf), &s, &res);
    cr_assert(s.n >= 3, "bounces: %zu", s.n);
    double e1;
    const double em = fb_impact_e_eff(&s, 3, &e1);
    cr_assert(fabs(em - es[k]) < 1e-9, "e = %g: e_eff %.12g", es[k], em);
    cr_assert(fabs(s.t_in[0] - t1) < h, "t1 %.9g vs %.9g", s.t_in[0], t1);
    cr_assert(s.max_pen < 2 * h * G * t1, "penetration %g is O(h v_in)", s.max_pen);
    cr_assert(s.min_lambda >= 0, "no sucking: %g", s.min_lambda);
    /* at rest: no gap, penetration round-off, lambda_n = m g */
    cr_assert(s.rest_gap <= 1e-12 && s.rest_pen < 1e-5, "gap %g pen %g", s.rest_gap, s.rest_pen);
    cr_assert(fabs(s.rest_lam_static - G) < 1e-12, "static load %g", s.rest_lam_static);
    cr_assert(s.rest_lam_err < 1e-6 * G, "force error %g", s.rest_lam_err);
    cr_assert_eq(res.cnt.nsteps, 10000, "T/1e4 by default: %lu steps", res.cnt.nsteps);
  }
}

/* block-drop (e = 0): the Coulomb impulse gives u+ = u0 - mu sqrt(2 g h0), the stop is
 * u+/(mu g) later; moreau-jean within a few steps. */
Test(contact_suite, moreau_jean_block_drop)
{
  const char *sets[] = {"normal=moreau-jean", NULL};
  fb_impact_stats s;
  fb_run_result res;
  run_stats("block-drop", sets, NAN, &s, &res);
  const double h0 = 0.5, u0 = 2, mu = 0.3, ti = sqrt(2 * h0 / G);
  const double up = u0 - mu * sqrt(2 * G * h0), tstop = ti + up / (mu * G), h = 1.5e-4;
  cr_assert(fabs(s.vt_after_first - up) < mu * G * 2 * h, "u+ %.9g vs %.9g", s.vt_after_first, up);
  cr_assert(fabs(s.t_stop - tstop) < 3 * h, "stop %.9g vs %.9g", s.t_stop, tstop);
  cr_assert(fabs(s.t_in[0] - ti) < h);
}

/* The rest window of the metrics: newton rests at t_inf; the window starts halfway to T. */
Test(contact_suite, rest_window_and_metrics)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, "bouncing-ball", "smooth-sign", NULL, &err), FB_OK);
  cr_assert_eq(fb_case_set(&c, "normal=penalty-n", &err), FB_OK);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_impact_stats ref;
  cr_assert_eq(fb_contact_reference(&c, 1000000, 100000000, &ref, &err), FB_OK, "%s", err.msg);
  const double t1 = sqrt(2 / G), t_inf = t1 * 1.7 / 0.3;
  cr_assert(fabs(ref.t_rest - t_inf) < 1e-9, "newton t_inf %.12g vs %.12g", ref.t_rest, t_inf);
  const double tw = fb_contact_rest_window(&c.sc.plant, &ref);
  cr_assert(fabs(tw - (t_inf + 0.5 * (4 - t_inf))) < 1e-9);
  fb_impact_stats run;
  fb_impact_stats_init(&run, 0);
  run.t_watch = tw;
  c.opts.stats = &run;
  fb_run_result res;
  fb_case_run(&c, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_OK);
  fb_metrics m;
  fb_contact_metrics(&c.sc.plant, &run, &ref, &m);
  cr_assert(m.e_nominal == 0.7 && fabs(m.e_eff - 0.7154) < 1e-3, "e_eff %g", m.e_eff);
  cr_assert(m.lambda_min >= 0 && m.pen_max > 0);
  /* the static penetration m g / c_N of the auto stiffness m v_in^2 / (0.01 h)^2 */
  const double cN = 2 * G / 1e-4;
  cr_assert(fabs(m.rest_pen - G / cN) < 1e-3 * G / cN, "rest penetration %g", m.rest_pen);
  fb_case_free(&c);
}

/* runs.csv text with contact rows: header, then one row per treatment variant. */
static const char *const hdr =
    "group,tag,scenario,model,integrator,status,scenario_params,e_nominal,e_eff,lambda_min,"
    "rest_pen,rest_gap,rest_force_err\n";

static const fb_vrow *vget(const fb_vtable *v, const char *model, const char *prop)
{
  for (size_t k = 0; k < v->n; k++)
    if (strcmp(v->r[k].model, model) == 0 && strcmp(v->r[k].property, prop) == 0)
      return &v->r[k];
  return NULL;
}

/* Each contact rule passes on good numbers and fails on bad ones, with its number. */
Test(contact_suite, verdict_rules_fail)
{
  char csv[4096];
  snprintf(csv, sizeof csv,
           "%s"
           "restitution,good,bouncing-ball,smooth-sign,contact,ok,h=1,0.3,0.31,0,nan,nan,nan\n"
           "restitution,good,bouncing-ball,smooth-sign,contact,ok,h=1,0.7,0.69,0,nan,nan,nan\n"
           "contact,good,bouncing-ball,smooth-sign,contact,ok,h=1,0.7,0.69,0,1e-5,0,1e-3\n"
           "restitution,bad,bouncing-ball,smooth-sign,contact,ok,h=1,0.1,0.5,0,nan,nan,nan\n"
           "restitution,bad,bouncing-ball,smooth-sign,contact,ok,h=1,0.7,0.75,-0.5,nan,nan,nan\n"
           "contact,bad_e0.3,bouncing-ball,smooth-sign,contact,ok,h=2,0.3,0.3,0,1e-5,1e-3,1e-3\n"
           "contact,bad,bouncing-ball,smooth-sign,contact,failed,h=1,0.7,0.2,-9,1,1,1\n",
           hdr);
  fb_vtable v;
  fb_err err = {0};
  cr_assert_eq(fb_verdicts_compute(csv, strlen(csv), NULL, 0, &v, &err), FB_OK, "%s", err.msg);
  const fb_vrow *r = vget(&v, "good", "restitution");
  cr_assert(r != NULL && strncmp(r->verdict, "as set", 6) == 0 && fabs(r->value - 0.01) < 1e-12);
  r = vget(&v, "bad", "restitution");
  cr_assert(r != NULL && strncmp(r->verdict, "off by", 6) == 0, "%s", r ? r->verdict : "-");
  cr_assert(fabs(r->value - 0.4) < 1e-12 && strstr(r->scenarios, "worst bouncing-ball e=0.1") ==
                                                 r->scenarios, "worst first: %s", r->scenarios);
  r = vget(&v, "good", "no-sucking");
  cr_assert(r != NULL && strcmp(r->verdict, "no sucking") == 0);
  r = vget(&v, "bad", "no-sucking");
  cr_assert(r != NULL && strncmp(r->verdict, "sucks", 5) == 0 && r->value == -0.5,
            "the failed run's -9 is not scored: %g", r ? r->value : 0.0);
  r = vget(&v, "good", "rests");
  cr_assert(r != NULL && strcmp(r->verdict, "rests") == 0 && r->value <= 1, "%g", r->value);
  /* a gap of 1e-3 at h = 2 is 5 x the leftover-bounce bound 1e-4 h */
  r = vget(&v, "bad", "rests");
  cr_assert(r != NULL && strncmp(r->verdict, "does not rest", 13) == 0 && fabs(r->value - 5) < 1e-9,
            "%s %g", r ? r->verdict : "-", r ? r->value : 0.0);
  fb_vtable_free(&v);
}

/* Bad contact input: one line, exit 2, no output file. */
Test(contact_suite, bad_input_exit_2)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/fb_contact_bad_%ld.csv", (long)getpid());
  const char *const cases[][12] = {
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "e=1.5", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=moreau-jean", "--set",
       "normal.e=-0.1", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=moreau-jean", "--set",
       "normal.theta=0.3", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=moreau-jean", "--tol",
       "1e-6", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=penalty-n", "--h",
       "1e-3", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=penalty-n", "--set",
       "normal.cN=-5", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=hunt-crossley",
       "--set", "normal.k=-1", "--out", path, NULL},
      {"run", "-s", "bouncing-ball", "-m", "naive-sign", "--set", "normal=kikuuwe-n", "--set",
       "normal.c=-1e-6", "--out", path, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[4096], err[4096];
    unlink(path);
    cr_assert_eq(fbt_cli(cases[i], out, sizeof out, err, sizeof err), 2, "case %zu: %s", i, err);
    cr_assert_eq(fbt_lines(err), 1, "case %zu: one line, got: %s", i, err);
    cr_assert_neq(access(path, F_OK), 0, "case %zu: no output file", i);
  }
}
