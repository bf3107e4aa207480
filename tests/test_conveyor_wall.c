/* test_conveyor_wall.c — conveyor-wall ([Xiong2013] §5.2; docs/scenarios/conveyor-wall.md):
 * the run-up before the first impact, the decoupled case mu1 = mu2 = 0 against its closed
 * form, the final static state's bounds and the pinned start's exact rest, each bound also
 * shown failing on a state that breaks it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_contact_metrics.h"
#include "fb_io.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_seed_claims.h"
#include "fb_test.h"

/* What a run leaves: the state and forces at the last step end, the late window's range
 * of yA, the first A-B contact and B's velocity then, the belt's work. */
typedef struct cw_rec {
  double t, y[8], lam[3], F[3];
  double t_late, yA_lo, yA_hi;  /* over t >= t_late */
  double t_ab, vxB_ab;          /* first step end with lambda_n2 > 0, xB' at the step end
                                   before it (the velocity B arrives with) */
  double vxB_prev;
  double lam3_lo, lam3_hi;      /* lambda_n3 over the step ends */
  double x_dev;                 /* largest |q - q0| over the step ends (pinned start) */
  double q0[4];
  double ab_on[8];              /* step ends opening an A-B phase (lambda_n2 > 0 after 0) */
  size_t n_ab;
  double lam2_prev;
  double W_belt;                /* int F3 vc dt (trapezoid over step ends) (J) */
  double vc;
  double probe_t, probe_vxB, probe_xB; /* at the first step end >= probe_t */
  int have;
} cw_rec;

static void cw_on_step(void *ctx, double t, const double *y, const double *lam, const double *F)
{
  cw_rec *r = ctx;
  if (r->have)
    r->W_belt += 0.5 * (r->F[2] + F[2]) * r->vc * (t - r->t);
  /* a fixed-step run's last step may be a round-off sliver to land on T, whose impulses
   * over h are round-off over a tiny h: the forces are those of the last full step */
  if (!r->have || t - r->t > 1e-7) {
    memcpy(r->lam, lam, sizeof r->lam);
    memcpy(r->F, F, sizeof r->F);
  }
  r->t = t;
  memcpy(r->y, y, sizeof r->y);
  r->have = 1;
  if (t >= r->t_late) {
    r->yA_lo = fmin(r->yA_lo, y[1]);
    r->yA_hi = fmax(r->yA_hi, y[1]);
  }
  if (isnan(r->t_ab) && lam[1] > 0) {
    r->t_ab = t;
    r->vxB_ab = r->vxB_prev;
  }
  r->vxB_prev = y[6];
  if (lam[1] > 0 && !(r->lam2_prev > 0) && r->n_ab < 8)
    r->ab_on[r->n_ab++] = t;
  r->lam2_prev = lam[1];
  r->lam3_lo = fmin(r->lam3_lo, lam[2]);
  r->lam3_hi = fmax(r->lam3_hi, lam[2]);
  for (size_t i = 0; i < 4; i++)
    r->x_dev = fmax(r->x_dev, fabs(y[i] - r->q0[i]));
  if (isnan(r->probe_xB) && t >= r->probe_t) {
    r->probe_xB = y[2];
    r->probe_vxB = y[6];
  }
}

/* Run conveyor-wall under `model` with the scenario's assignments sets (NULL-terminated),
 * fixed step h (NaN: the treatment's adaptive default at tol). */
static void cw_run(const char *model, const char *const *sets, double h, double tol,
                   double t_late, double probe_t, fb_impact_stats *s, cw_rec *r)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, "conveyor-wall", model, NULL, &err), FB_OK, "%s", err.msg);
  for (size_t i = 0; sets[i] != NULL; i++)
    cr_assert_eq(fb_case_set(&c, sets[i], &err), FB_OK, "%s: %s", sets[i], err.msg);
  if (!isnan(h))
    c.opts.h = h;
  if (!isnan(tol))
    c.opts.atol = c.opts.rtol = tol;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  memset(r, 0, sizeof *r);
  r->t_late = t_late;
  r->yA_lo = INFINITY;
  r->yA_hi = -INFINITY;
  r->t_ab = r->probe_xB = NAN;
  r->probe_t = probe_t;
  r->vc = c.sc.plant.contact[2].c0.u;
  r->lam3_lo = INFINITY;
  r->lam3_hi = -INFINITY;
  memcpy(r->q0, c.sc.plant.x0, sizeof r->q0);
  fb_impact_stats_init(s, 0);
  s->on_step = cw_on_step;
  s->on_step_ctx = r;
  c.opts.stats = s;
  fb_run_result res;
  fb_case_run(&c, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  fb_case_free(&c);
}

static const double G = 9.81, MU3 = 0.5;

/* Check 1: before the first impact B slips on the belt at acceleration mu3 g (exact for
 * every treatment whose friction holds the Coulomb bound while slipping): at t = 0.1,
 * xB = 0.2 - mu3 g t^2 / 2 and xB' = -mu3 g t; B reaches the belt speed at
 * |vc|/(mu3 g) = 0.203874 s, having moved 0.101937 m, and rides to A at 0.05 m, which it
 * reaches at 0.251937 s with xB' = -1 m/s. */
static void check_run_up(const char *model, const char *const *sets, double h, double tol,
                         double t_err, double x_err)
{
  fb_impact_stats s;
  cw_rec r;
  cw_run(model, sets, h, tol, 2.0, 0.1, &s, &r);
  const double ts = 1.0 / (MU3 * G), xs = 0.5 / (MU3 * G);
  const double t_ab = ts + (0.2 - xs - 0.05);
  cr_assert(fabs(ts - 0.203874) < 5e-7 && fabs(xs - 0.101937) < 5e-7 &&
            fabs(t_ab - 0.251937) < 5e-7, "closed forms %.7g %.7g %.7g", ts, xs, t_ab);
  /* at the first step end at or after t = 0.1 (h past it at most) */
  const double tp = 0.1;
  cr_assert(fabs(r.probe_xB - (0.2 - 0.5 * MU3 * G * tp * tp)) < x_err + 0.6 * (isnan(h) ? 0 : h),
            "%s: xB(0.1) %.9g", model, r.probe_xB);
  cr_assert(fabs(s.t_first[1] - t_ab) < t_err, "%s: A-B contact at %.9g, closed form %.9g",
            model, s.t_first[1], t_ab);
  cr_assert(fabs(r.vxB_ab + 1.0) < 1e-9 + x_err, "%s: B arrives at %.9g m/s", model, r.vxB_ab);
}

Test(conveyor_wall, run_up_before_the_first_impact)
{
  const char *mj[] = {"normal=moreau-jean", NULL};
  check_run_up("penalty", mj, 1e-4, NAN, 1e-4, 1e-12);
  /* a force law and an ODE friction law that sticks (kikuuwe's anchor): B starts on the
   * belt's unloaded spring, whose force reaches m g after its first swing (2 pi
   * sqrt(m/cN) = 6 ms at cN = 1e6), B slipping at mu3 lambda_n3 < mu3 m g meanwhile: a
   * lag of ~1 ms */
  const char *pn[] = {"normal=penalty-n", "normal.cN=1e6", NULL};
  check_run_up("kikuuwe", pn, NAN, 1e-9, 2e-3, 1e-3);
}

/* The same check must fail when the run-up is wrong: at mu3 = 0.4 B arrives later. */
Test(conveyor_wall, run_up_fails_when_mu3_differs)
{
  const char *mj[] = {"normal=moreau-jean", "mu3=0.4", NULL};
  fb_impact_stats s;
  cw_rec r;
  cw_run("penalty", mj, 1e-4, NAN, 2.0, 0.1, &s, &r);
  const double t_ab = 1.0 / (MU3 * G) + (0.2 - 0.5 / (MU3 * G) - 0.05);
  cr_assert(fabs(s.t_first[1] - t_ab) > 1e-2, "mu3 = 0.4: A-B contact at %.9g", s.t_first[1]);
}

/* Check 2: mu1 = mu2 = 0 decouples the vertical motion, yA = 0.02 cos 20 t, lambda_n3 = mB g
 * at every step end; the horizontal chain is 1-D Newton, equal masses, e = 0.5: B (-1 m/s)
 * hits A at t1 = 0.251937 (A leaves at -0.75, B at -0.25 m/s), A hits the wall at
 * t2 = t1 + 0.05/0.75 (and leaves at 0.375 m/s), B slipping back up to the belt speed at
 * mu3 g meets A again at t3 = t1 + s3, 2.4525 s^2 + 0.625 s - 0.075 = 0 (s = t - t1:
 * 0.05 - 0.25 s - mu3 g s^2/2 = 0.375 (s - 0.05/0.75), before B regains the belt speed). */
Test(conveyor_wall, decoupled_closed_form)
{
  const double h = 1e-4;
  const char *mj[] = {"normal=moreau-jean", "mu1=0", "mu2=0", "T=0.345", NULL};
  fb_impact_stats s;
  cw_rec r;
  cw_run("penalty", mj, h, NAN, 0.0, 0.1, &s, &r);
  const double t1 = 1.0 / (MU3 * G) + 0.2 - 0.5 / (MU3 * G) - 0.05, t2 = t1 + 0.05 / 0.75;
  const double a = 0.5 * MU3 * G, s3 = (-0.625 + sqrt(0.625 * 0.625 + 4 * a * 0.075)) / (2 * a);
  const double t3 = t1 + s3;
  cr_assert(s3 < 0.75 / (MU3 * G), "B still slipping at t3");
  cr_assert(fabs(s.t_first[1] - t1) < h, "A-B %.9g vs %.9g", s.t_first[1], t1);
  cr_assert(fabs(s.t_first[0] - t2) < 2 * h, "wall %.9g vs %.9g", s.t_first[0], t2);
  cr_assert_eq(s.nph[1], 2, "A-B phases %zu", s.nph[1]);
  cr_assert(fabs(s.t_in[0] - t2) < 2 * h, "normal 0's record is the wall's");
  cr_assert(r.n_ab == 2 && fabs(r.ab_on[1] - t3) < 2 * h, "second A-B impact %.9g vs %.9g",
            r.ab_on[1], t3);
  cr_assert(r.y[0] > 0 && r.y[2] > r.y[0], "xA %g xB %g: apart after t3", r.y[0], r.y[2]);
  cr_assert(fabs(r.y[1] - 0.02 * cos(20 * r.t)) < 1e-3 * 0.02 + 0.02 * 400 * h * h,
            "yA %.9g vs %.9g", r.y[1], 0.02 * cos(20 * r.t));
  cr_assert(fabs(r.lam3_lo - G) < 1e-9 && fabs(r.lam3_hi - G) < 1e-9,
            "lambda_n3 in [%.12g, %.12g]", r.lam3_lo, r.lam3_hi);
}

/* Check 3's rule on a run's end: horizontal rest against the wall up to the penetration
 * pen (xA, xB within pen of 0), lambda_n1 = lambda_n2 = mu3 lambda_n3 (B slips on the belt,
 * pressing A to the wall), lambda_n3 in [mB g/(1 + mu2 mu3), mB g/(1 - mu2 mu3)]
 * = [7.848, 13.080] N (B's vertical balance with |F2| <= mu2 lambda_n2), |k yA| <=
 * mu1 lambda_n1 + mu2 lambda_n2 (|yA| <= 0.01635 m) and yA not drifting over the last 1 s
 * (its range there within 1e-9 m).  NULL when it holds, else what failed. */
static const char *static_state_fails(const cw_rec *r, double pen)
{
  const double mu = 0.5, k = 400, l3 = r->lam[2];
  if (!(fabs(r->y[0]) <= pen && fabs(r->y[2]) <= pen))
    return "not at rest on the wall";
  if (!(fabs(r->lam[0] - mu * l3) <= 1e-9 * l3 && fabs(r->lam[1] - mu * l3) <= 1e-9 * l3))
    return "lambda_n1 = lambda_n2 = mu3 lambda_n3 fails";
  if (!(l3 >= G / (1 + mu * mu) && l3 <= G / (1 - mu * mu)))
    return "lambda_n3 outside [7.848, 13.080]";
  if (!(k * fabs(r->y[1]) <= mu * (r->lam[0] + r->lam[1]) * (1 + 1e-12)))
    return "|k yA| above the friction that holds A";
  if (!(r->yA_hi - r->yA_lo <= 1e-9))
    return "yA drifts over the last 1 s";
  return NULL;
}

/* Check 3 on the default system (moreau-jean, theta = 1/2, h = 1e-4): the run ends pinned;
 * the bounds as stated (mB g/(1 -+ mu2 mu3), |yA| <= 0.01635 m). */
Test(conveyor_wall, final_static_state)
{
  const double h = 1e-4;
  cr_assert(fabs(G / 1.25 - 7.848) < 1e-12 && fabs(G / 0.75 - 13.08) < 1e-12);
  cr_assert(fabs(0.5 * 2 * 0.5 * G / 0.75 / 400 - 0.01635) < 1e-12);
  const char *mj[] = {"normal=moreau-jean", NULL};
  fb_impact_stats s;
  cw_rec r;
  cw_run("penalty", mj, h, NAN, 2.0, 0.1, &s, &r);
  const char *why = static_state_fails(&r, 2 * h);
  cr_assert(why == NULL, "%s: x %g %g %g %g lambda %g %g %g", why, r.y[0], r.y[1], r.y[2],
            r.y[3], r.lam[0], r.lam[1], r.lam[2]);
  cr_assert(fabs(r.y[1]) <= 0.01635 && fabs(r.y[1]) > 1e-4, "A held off its balance: yA %g",
            r.y[1]);
  cr_assert(fabs(s.lam_last[2] - r.lam[2]) < 1e-9, "the stats' last lambda_n %.12g",
            s.lam_last[2]);
}

/* ... and fails where it must: without friction on A (mu1 = mu2 = 0) A keeps swinging
 * (yA = 0.02 cos 20 t); with the belt running away from the wall (B never presses A)
 * lambda_n1 = lambda_n2 = 0. */
Test(conveyor_wall, final_static_state_fails)
{
  const char *free_a[] = {"normal=moreau-jean", "mu1=0", "mu2=0", NULL};
  fb_impact_stats s;
  cw_rec r;
  cw_run("penalty", free_a, 2e-4, NAN, 2.0, 0.1, &s, &r);
  const char *why = static_state_fails(&r, 4e-4);
  cr_assert(why != NULL && strstr(why, "|k yA|") != NULL, "%s", why ? why : "holds");
  r.y[1] = 0; /* A at its balance, still swinging over the last second */
  why = static_state_fails(&r, 4e-4);
  cr_assert(why != NULL && strstr(why, "drifts") != NULL, "%s", why ? why : "holds");
  r.lam[2] = 14, r.lam[0] = r.lam[1] = 7; /* an impossible belt load */
  why = static_state_fails(&r, 4e-4);
  cr_assert(why != NULL && strstr(why, "13.080") != NULL, "%s", why ? why : "holds");
}

/* Check 4, pinned-start: B pressed against A against the wall, A at its balance, all at
 * rest: the static state from t = 0, lambda_n3 = mB g = 9.81 N (A's friction on B has
 * nothing to hold), lambda_n1 = lambda_n2 = mu3 mB g = 4.905 N (B slips on the belt). */
static void check_pinned(const char *const *sets, double *dev, double *l1, double *l3)
{
  fb_impact_stats s;
  cw_rec r;
  cw_run("penalty", sets, 1e-3, NAN, 2.0, 0.1, &s, &r);
  *dev = r.x_dev;
  *l1 = fmax(fabs(r.lam[0] - 4.905), fabs(r.lam[1] - 4.905));
  *l3 = fmax(fabs(r.lam3_lo - G), fabs(r.lam3_hi - G));
}

Test(conveyor_wall, pinned_start_exact_rest)
{
  const char *pin[] = {"normal=moreau-jean", "pinned=1", NULL};
  double dev, l1, l3;
  check_pinned(pin, &dev, &l1, &l3);
  cr_assert(dev < 1e-15 && l1 < 1e-12 && l3 < 1e-12, "moved %g, lambda errors %g %g", dev, l1,
            l3);
  /* the same rule fails on a start that is not static: A lifted by 0.02 m needs
   * k yA = 8 N > mu1 lambda_n1 + mu2 lambda_n2 = 4.905 N */
  const char *lift[] = {"normal=moreau-jean", "xA0=0", "xB0=0", "yA0=0.02", NULL};
  check_pinned(lift, &dev, &l1, &l3);
  cr_assert(dev > 1e-3, "the lifted A stays: moved %g", dev);
}

/* The force laws solve the three coupled contacts too (each lambda_n from its own gap, the
 * friction bound mu lambda_n(t) in kikuuwe's ODE law): penalty-n ends in a static state
 * that passes check 3's rule, the penetration mB g / cN-sized. */
Test(conveyor_wall, penalty_n_final_static_state)
{
  const char *pn[] = {"normal=penalty-n", "normal.cN=1e6", NULL};
  fb_impact_stats s;
  cw_rec r;
  cw_run("kikuuwe", pn, NAN, 1e-9, 2.0, 0.1, &s, &r);
  const char *why = static_state_fails(&r, 1e-4);
  cr_assert(why == NULL, "%s: x %g %g %g %g lambda %.12g %.12g %.12g", why, r.y[0], r.y[1],
            r.y[2], r.y[3], r.lam[0], r.lam[1], r.lam[2]);
  cr_assert(s.nph[0] >= 1 && s.nph[1] >= 1 && s.nph[2] >= 1, "phases %zu %zu %zu", s.nph[0],
            s.nph[1], s.nph[2]);
}

/* newton refuses the plant (normals coupled through M: simultaneous impacts), with the
 * reason the suite's variant table carries for the report; it still takes block-drop. */
Test(conveyor_wall, newton_declared_out)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, "conveyor-wall", "switching", NULL, &err), FB_OK);
  cr_assert_eq(fb_case_set(&c, "normal=newton", &err), FB_OK);
  /* refused when the case is prepared, or at the run's start */
  int st = fb_case_prepare(&c, &err);
  const char *msg = err.msg;
  fb_run_result res;
  if (st == FB_OK) {
    fb_case_run(&c, NULL, NULL, &res);
    st = res.status;
    msg = res.message;
  }
  cr_assert_eq(st, FB_EUNSUP, "%d %s", st, msg);
  cr_assert(strstr(msg, "coupled through the mass matrix") != NULL, "%s", msg);
  fb_case_free(&c);
  const fb_normal_variant *nv = &fb_normal_variants[0];
  cr_assert(strcmp(nv->normal, "newton") == 0 && nv->coupled_why != NULL);
  for (nv = fb_normal_variants + 1; nv->label != NULL; nv++)
    cr_assert(nv->coupled_why == NULL, "%s declared out", nv->label);
  fb_impact_stats s;
  cr_assert_eq(fb_case_init(&c, "block-drop", "switching", NULL, &err), FB_OK);
  cr_assert_eq(fb_case_set(&c, "normal=newton", &err), FB_OK);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_contact_run_stats(&c.pb, &c.opts, &s, NULL, &err), FB_OK, "%s", err.msg);
  fb_case_free(&c);
}

/* Bad input: B on the wall's side of A, a belt at rest or away from the wall. */
Test(conveyor_wall, bad_input)
{
  static const char *bad[][2] = {{"xB0=0.01", "xB0 = 0.01 < xA0 = 0.05"}, {"vc=0", "vc"},
                                 {"vc=1", "vc"}, {"pinned=2", "pinned"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fb_case c;
    fb_err err = {0};
    cr_assert_eq(fb_case_init(&c, "conveyor-wall", "kikuuwe", NULL, &err), FB_OK);
    int st = fb_case_set(&c, bad[i][0], &err);
    if (st == FB_OK)
      st = fb_case_prepare(&c, &err);
    cr_assert_eq(st, FB_EINVAL, "%s accepted", bad[i][0]);
    cr_assert(strstr(err.msg, bad[i][1]) != NULL, "%s: %s", bad[i][0], err.msg);
    fb_case_free(&c);
  }
}

/* [Xiong2013] §5.2's claim, judged on the kikuuwe-n run's trajectory: reproduced when the
 * run ends at rest on the wall with yA held away from 0; not when A is still swinging. */
static const char *claim_on(const char *dir, const char *traj_rows, fb_claim *out)
{
  char path[512];
  snprintf(path, sizeof path, "%s/traj/conveyor-wall", dir);
  cr_assert_eq(fb_mkdir_p(path), 0);
  snprintf(path, sizeof path,
           "%s/traj/conveyor-wall/kikuuwe__contact__tol1e-09__kikuuwe-n.csv.gz", dir);
  FILE *fp = fopen(path, "w");
  cr_assert(fp != NULL);
  fprintf(fp, "t,x1,x2,x3,x4,v1,v2,v3,v4\n%s", traj_rows);
  fclose(fp);
  static const char runs[] =
      "group,tag,scenario,model,integrator,mode,h,atol,status\n"
      "conveyor,kikuuwe-n,conveyor-wall,kikuuwe,contact,adaptive,nan,1e-09,ok\n";
  fb_claims *c = calloc(1, sizeof *c);
  cr_assert(c != NULL);
  fb_seed_claim_conveyor(c, runs, strlen(runs), dir);
  cr_assert_eq(c->n, 1);
  *out = c->r[0];
  free(c);
  return out->verdict;
}

Test(conveyor_wall, seed_claim_reproduced_or_not)
{
  char dir[64];
  fbt_tmpdir(dir, sizeof dir);
  fb_claim r;
  const char *held = "0,0.05,0.02,0.2,0,0,0,0,0\n1.5,1e-9,0.0028,2e-9,0,0,0,0,0\n"
                     "2,1e-9,0.0028,2e-9,0,0,0,0,0\n3,1e-9,0.0028,2e-9,0,0,0,0,0\n";
  cr_assert_str_eq(claim_on(dir, held, &r), "reproduced", "%s", r.why);
  cr_assert(fabs(r.value - 0.0028) < 1e-12);
  const char *swing = "0,0.05,0.02,0.2,0,0,0,0,0\n2,1e-9,0.0028,2e-9,0,0,0,0,0\n"
                      "2.5,1e-9,-0.01,2e-9,0,0,0,0,0\n3,1e-9,0.0028,2e-9,0,0,0,0,0\n";
  cr_assert_str_eq(claim_on(dir, swing, &r), "partly", "%s", r.why);
  const char *neither = "0,0.05,0.02,0.2,0,0,0,0,0\n2.5,0.01,0.01,0.02,0,0,0,0,0\n"
                        "3,0.01,0.00001,0.02,0,0,0,0,0\n";
  cr_assert_str_eq(claim_on(dir, neither, &r), "not reproduced", "%s", r.why);
  fb_claims *c = calloc(1, sizeof *c);
  static const char none[] = "group,tag,status\nbaseline,,ok\n";
  fb_seed_claim_conveyor(c, none, strlen(none), dir);
  cr_assert_str_eq(c->r[0].verdict, "not measured");
  free(c);
  fbt_rmdir(dir);
}

/* The contact reference the report names on a scenario's page (fb_contact_reference_describe,
 * bench/report/report_pages.c): conveyor-wall's is moreau-jean at theta = 1/2, h = T/1e5
 * (newton refuses its coupled normals; docs/scenarios/conveyor-wall.md "Reference and
 * cross-check"), bouncing-ball's newton at 1e-12, the FE frame has none and says why, and a
 * friction-only scenario has no contact reference at all. */
Test(conveyor_wall, the_contact_reference_is_named)
{
  char buf[1024];
  cr_assert_eq(fb_contact_reference_describe("conveyor-wall", buf, sizeof buf), 1);
  cr_expect(strncmp(buf, "moreau-jean, theta = 1/2, at h = T/100000 = 3e-05 s", 51) == 0, "%s",
            buf);
  cr_expect(strstr(buf, "newton refuses it: normal newton: normals 0 and 1 are coupled") != NULL,
            "%s", buf);
  cr_assert_eq(fb_contact_reference_describe("bouncing-ball", buf, sizeof buf), 1);
  cr_expect(strncmp(buf, "newton, event-driven, at tolerance 1e-12", 40) == 0, "%s", buf);
  cr_assert_eq(fb_contact_reference_describe("elastic-frame", buf, sizeof buf), 1);
  cr_expect(strncmp(buf, "none: no event-driven contact reference for a plant of 48 DOFs", 62) ==
                0, "%s", buf);
  cr_expect_eq(fb_contact_reference_describe("stick-slip", buf, sizeof buf), 0);
  cr_expect_str_eq(buf, "");
}

/* Before: ccp's three conveyor runs failed with "APGD did not converge in 100000 iterations
 * at t=0.846", which said nothing of why.  In the pinned state 6 impulses (3 normals, 3
 * frictions) act on 4 DOFs: N = D^T M^-1 D is singular, the impulses are not unique, and
 * APGD's residual stalls at ~1e-12 N s, above the default stop (1e-12 of the impulse,
 * 4e-15 N s).  Now the failure says so, and at normal.tol=1e-9 (the conveyor group's setting,
 * a few 1e-12 m/s of velocity) the run reaches T. */
static int ccp_conveyor(const char *tol, fb_run_result *res)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, "conveyor-wall", "kikuuwe", NULL, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&c, "normal=ccp", &err), FB_OK, "%s", err.msg);
  if (tol != NULL)
    cr_assert_eq(fb_case_set(&c, tol, &err), FB_OK, "%s", err.msg);
  c.opts.h = 3e-4;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  const int st = fb_case_run(&c, NULL, NULL, res);
  fb_case_free(&c);
  return st;
}

Test(conveyor_wall, ccp_stall_says_why)
{
  fb_run_result res;
  cr_assert_neq(ccp_conveyor(NULL, &res), FB_OK);
  cr_assert(strstr(res.message, "6 impulses on 4 DOFs") != NULL &&
                strstr(res.message, "not unique") != NULL, "%s", res.message);
  cr_assert(res.t_reached > 0.5 && res.t_reached < 1.0, "t = %g", res.t_reached);
  cr_assert_eq(ccp_conveyor("normal.tol=1e-9", &res), FB_OK, "%s", res.message);
  cr_assert(res.t_reached == 3.0, "t = %g", res.t_reached);
}
