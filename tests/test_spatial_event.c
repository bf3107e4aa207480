/* test_spatial_event.c — the switching model's event scheme on 2-D contacts and Jacobian rows
 * (models/switching_disc.c; docs/design.md §13): closed forms of puck and billiard, the puck
 * with a sub- and a super-threshold push, a stuck set of two 2-D contacts sharing a DOF, and
 * refused input.
 *
 * Independent numbers: puck and billiard compare with the scenarios' exact() (docs/design.md
 * §13 closed forms) and with t_s = |v0|/(mu g), t* = 2|u0|/(7 mu g) written out here; the
 * shared-body multipliers are solved by hand below (a 2x2 system).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_models.h"
#include "fb_reference.h"
#include "fb_test.h"
#include "fb_integrator_int.h"

/* ---------------------------------------------------------------------------------- */
/* A watcher: first time every contact reports stick, slip after that, the last state. */

#define W_DIM 64

typedef struct watch {
  size_t n, nc;
  double t_stick;   /* first t with every mode 0 (INFINITY: never) */
  int slip_after;   /* a slip reported after t_stick */
  int ever_stick;   /* any contact entry reported stick at some t */
  double t_last, y_last[W_DIM];
  double Fmax_dev;  /* slip: max | |F| - Fs | over reports (2-D contact of entries 0, 1) */
  double Fs;        /* for Fmax_dev; 0: not checked */
  int skip_first;   /* 1: the first report is the unresolved initial state (fb_case_run) */
} watch;

static int watch_on(void *ctx, double t, const double *y)
{
  watch *w = ctx;
  const double *z = y + 2 * w->n;
  if (w->skip_first) {
    w->skip_first = 0;
    return 0;
  }
  int all = 1;
  for (size_t i = 0; i < w->nc; i++) {
    all &= z[2 * i] == 0.0;
    w->ever_stick |= z[2 * i] == 0.0;
  }
  if (all && !isfinite(w->t_stick))
    w->t_stick = t;
  if (!all && isfinite(w->t_stick))
    w->slip_after = 1;
  if (w->Fs > 0 && z[0] != 0.0)
    w->Fmax_dev = fmax(w->Fmax_dev, fabs(hypot(z[1], z[3]) - w->Fs));
  w->t_last = t;
  memcpy(w->y_last, y, (2 * w->n + 2 * w->nc) * sizeof(double));
  return 0;
}

/* Run scenario with switching/<integ> at tol (h > 0: fixed), watch it. */
static int run_watch(const char *scenario, const char *integ, const char *const *sets, double tol,
                     double h, watch *w, fb_run_result *res, fb_err *err)
{
  fb_case c;
  gsl_set_error_handler_off();
  int st = fb_case_init(&c, scenario, "switching", integ, err);
  cr_assert_eq(st, FB_OK, "%s", err->msg);
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], err), FB_OK, "%s", err->msg);
  if (h > 0)
    c.opts.h = h;
  else
    c.opts.atol = c.opts.rtol = tol;
  c.opts.event_tol = 1e-12;
  c.samples = 11;
  st = fb_case_prepare(&c, err);
  if (st == FB_OK) {
    w->n = c.sc.plant.n;
    w->nc = c.sc.plant.nc;
    cr_assert_leq(2 * w->n + 2 * w->nc, W_DIM);
    w->t_stick = INFINITY;
    w->skip_first = 1;
    const fb_observer obs = {watch_on, w};
    st = fb_case_run(&c, NULL, &obs, res);
    if (st != FB_OK)
      snprintf(err->msg, sizeof err->msg, "%s", res->message);
  }
  fb_case_free(&c);
  return st;
}

/* The scenario's closed form at t with parameters `sets`. */
static void exact_at(const char *scenario, const char *const *sets, double t, double *x,
                     double *v, double *F)
{
  const fb_scenario_type *st = fb_scenario_find(scenario);
  cr_assert_not_null(st);
  void *sp = calloc(1, st->params->size);
  fb_params_default(st->params, sp);
  fb_err err;
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++) {
    char name[32];
    const char *eq = strchr(sets[k], '=');
    memcpy(name, sets[k], (size_t)(eq - sets[k]));
    name[eq - sets[k]] = '\0';
    cr_assert_eq(fb_params_set(st->params, st->name, sp, name, eq + 1, &err), FB_OK);
  }
  cr_assert_eq(st->exact(sp, t, x, v, F), FB_OK);
  free(sp);
}

/* ---------------------------------------------------------------------------------- */
/* Closed forms.                                                                       */

Test(spatial_event, puck_stops_on_the_closed_form)
{
  watch w = {0};
  fb_run_result res;
  fb_err err = {{0}};
  cr_assert_eq(run_watch("puck", "event", NULL, 1e-12, 0, &w, &res, &err), FB_OK, "%s",
               err.msg);
  const double ts = hypot(1.0, 0.5) / (0.3 * 9.81);
  cr_expect_lt(fabs(w.t_stick - ts), 1e-9, "stop at %.17g, closed form %.17g", w.t_stick, ts);
  cr_expect_not(w.slip_after);
  double x[2], v[2], F[2];
  exact_at("puck", NULL, 1.0, x, v, F);
  cr_expect_lt(fabs(w.y_last[0] - x[0]) + fabs(w.y_last[1] - x[1]), 1e-9,
               "final position (%.17g, %.17g), closed form (%.17g, %.17g)", w.y_last[0],
               w.y_last[1], x[0], x[1]);
  cr_expect(w.y_last[2] == 0.0 && w.y_last[3] == 0.0, "at rest exactly: v = (%g, %g)",
            w.y_last[2], w.y_last[3]);
  cr_expect_eq(res.cnt.nevents, 1);
  cr_log_info("puck: stop time error %.3g, position error %.3g, nfe %lu, events %lu",
              w.t_stick - ts, hypot(w.y_last[0] - x[0], w.y_last[1] - x[1]), res.cnt.nfe,
              res.cnt.nevents);
}

Test(spatial_event, billiard_rolls_on_the_closed_form)
{
  watch w = {0};
  fb_run_result res;
  fb_err err = {{0}};
  cr_assert_eq(run_watch("billiard", "event", NULL, 1e-12, 0, &w, &res, &err), FB_OK, "%s",
               err.msg);
  /* u0 = (vx - r wy, vy + r wx) = (2, 1) */
  const double tstar = 2.0 * hypot(2.0, 1.0) / (7.0 * 0.2 * 9.81);
  cr_expect_lt(fabs(w.t_stick - tstar), 1e-9, "rolling from %.17g, closed form %.17g",
               w.t_stick, tstar);
  cr_expect_not(w.slip_after);
  double x[4], v[4], F[2];
  exact_at("billiard", NULL, 1.0, x, v, F);
  /* v0 - (2/7) u0 = (2 - 4/7, -2/7) */
  cr_expect_lt(fabs(v[0] - (2.0 - 4.0 / 7.0)) + fabs(v[1] + 2.0 / 7.0), 1e-12);
  for (size_t k = 0; k < 4; k++) {
    cr_expect_lt(fabs(w.y_last[4 + k] - v[k]), 1e-9, "v[%zu] = %.17g, closed form %.17g", k,
                 w.y_last[4 + k], v[k]);
    cr_expect_lt(fabs(w.y_last[k] - x[k]), 1e-9, "x[%zu] = %.17g, closed form %.17g", k,
                 w.y_last[k], x[k]);
  }
  cr_log_info("billiard: t* error %.3g, centre velocity error %.3g, position error %.3g, nfe "
              "%lu, events %lu",
              w.t_stick - tstar, hypot(w.y_last[4] - v[0], w.y_last[5] - v[1]),
              hypot(w.y_last[0] - x[0], w.y_last[1] - x[1]), res.cnt.nfe, res.cnt.nevents);
}

Test(spatial_event, the_reference_of_puck_push_is_event_driven)
{
  const fb_scenario_type *st = fb_scenario_find("puck");
  void *sp = calloc(1, st->params->size);
  fb_params_default(st->params, sp);
  fb_err err = {{0}};
  cr_assert_eq(fb_params_set(st->params, "puck", sp, "push", "0.6", &err), FB_OK);
  fb_interval_list iv;
  fb_reference_info info;
  cr_assert_eq(fb_reference_run_opts(st, sp, 101, NULL, NULL, &iv, &info, &err), FB_OK, "%s",
               err.msg);
  cr_expect_eq(info.kind, FB_REF_EVENT);
  /* per entry: one slip+ interval, then stick to T */
  cr_expect_eq(iv.n, 4);
  for (size_t k = 0; k < iv.n; k++)
    cr_expect_eq(iv.iv[k].mode, k % 2 == 0 ? FB_MODE_SLIP_POS : FB_MODE_STICK);
  fb_interval_list_free(&iv);
  free(sp);
}

/* ---------------------------------------------------------------------------------- */
/* The push: inside the disc it stops and holds, outside it never sticks.              */

Test(spatial_event, puck_with_a_push_inside_the_disc_stops_and_holds)
{
  const char *const sets[] = {"push=0.6", NULL};
  watch w = {0};
  w.Fs = 0.3 * 9.81;
  fb_run_result res;
  fb_err err = {{0}};
  cr_assert_eq(run_watch("puck", "event", sets, 1e-12, 0, &w, &res, &err), FB_OK, "%s",
               err.msg);
  cr_expect(w.t_stick > 0.5 && w.t_stick < 1.0, "stop at %g", w.t_stick);
  cr_expect_not(w.slip_after);
  /* stuck: the friction carries the push, (0, -push mu m g) */
  cr_expect_lt(fabs(w.y_last[4 + 1]) + fabs(w.y_last[4 + 3] + 0.6 * 0.3 * 9.81), 1e-12);
  /* bent toward +y: the straight path would keep y/x = vy0/vx0 = 0.5 */
  cr_expect_gt(w.y_last[1] / w.y_last[0], 0.5 + 0.5, "end at (%g, %g)", w.y_last[0],
               w.y_last[1]);
  cr_expect_lt(w.Fmax_dev, 1e-12, "|F| = mu m g in slip to %g", w.Fmax_dev);
  cr_log_info("puck push=0.6: stop t=%.15g at (%.15g, %.15g), nfe %lu, events %lu",
              w.t_stick, w.y_last[0], w.y_last[1], res.cnt.nfe, res.cnt.nevents);
  /* the paper scheme (fixed steps, switches at step ends) lands close by */
  watch wp = {0};
  cr_assert_eq(run_watch("puck", "paper", sets, 0, 1e-4, &wp, &res, &err), FB_OK, "%s",
               err.msg);
  cr_expect_lt(fabs(wp.t_stick - w.t_stick), 2e-4);
  cr_expect_lt(fabs(wp.y_last[0] - w.y_last[0]) + fabs(wp.y_last[1] - w.y_last[1]), 1e-6);
  cr_log_info("paper h=1e-4: stop t=%.15g at (%.15g, %.15g)", wp.t_stick, wp.y_last[0],
              wp.y_last[1]);
}

Test(spatial_event, puck_with_a_push_outside_the_disc_never_sticks)
{
  const char *const sets[] = {"push=1.2", "T=3", NULL};
  watch w = {0};
  w.Fs = 0.3 * 9.81;
  fb_run_result res;
  fb_err err = {{0}};
  cr_assert_eq(run_watch("puck", "event", sets, 1e-12, 0, &w, &res, &err), FB_OK, "%s",
               err.msg);
  cr_expect_not(w.ever_stick);
  cr_expect_eq(res.cnt.nevents, 0);
  cr_expect_lt(w.Fmax_dev, 1e-12);
  /* x stops decreasing only asymptotically; y accelerates at (1.2 - 1) mu g eventually */
  cr_expect_gt(w.y_last[3], 0.5 + 0.1 * 0.2 * 0.3 * 9.81 * 3.0, "vy(T) = %g", w.y_last[3]);
  cr_expect(w.y_last[2] > 0.0 && w.y_last[2] < 0.2, "vx(T) = %g", w.y_last[2]);
}

/* ---------------------------------------------------------------------------------- */
/* belt-2d: the reference alternates stick and slip, holds inside the disc, damps y.    */

Test(spatial_event, belt_2d_sticks_and_slips_and_its_offset_decays)
{
  const fb_scenario_type *st = fb_scenario_find("belt-2d");
  cr_assert_not_null(st);
  void *sp = calloc(1, st->params->size);
  fb_params_default(st->params, sp);
  fb_err err = {{0}};
  fb_interval_list iv;
  fb_trace tr;
  gsl_set_error_handler_off();
  cr_assert_eq(fb_reference_run_opts(st, sp, 401, NULL, &tr, &iv, NULL, &err), FB_OK, "%s",
               err.msg);
  size_t nstick = 0;
  for (size_t k = 0; k < iv.n; k++)
    if (iv.iv[k].contact == 0 && iv.iv[k].mode == FB_MODE_STICK) {
      nstick++;
      cr_expect_gt(iv.iv[k].end - iv.iv[k].start, 0.5, "stick phase [%g, %g]",
                   iv.iv[k].start, iv.iv[k].end);
    }
  cr_expect_geq(nstick, 6, "%zu stick phases", nstick);
  /* both entries of the 2-D contact stick and slip together */
  for (size_t k = 0; k < iv.n; k++)
    if (iv.iv[k].mode == FB_MODE_STICK) {
      int twin = 0;
      for (size_t j = 0; j < iv.n; j++)
        twin |= iv.iv[j].contact != iv.iv[k].contact && iv.iv[j].mode == FB_MODE_STICK &&
                iv.iv[j].start == iv.iv[k].start && iv.iv[j].end == iv.iv[k].end;
      cr_expect(twin, "stick [%g, %g] of entry %zu alone", iv.iv[k].start, iv.iv[k].end,
                iv.iv[k].contact);
    }
  const double Fs = 0.4 * 9.81;
  double ymax_late = 0.0;
  for (size_t s = 0; s < tr.filled; s++) {
    const double *y = tr.y + s * tr.dim;
    if (tr.stick[s * 2] == 1) /* stuck: the force inside the disc, the slip 0 */
      cr_expect(hypot(tr.F[2 * s], tr.F[2 * s + 1]) <= Fs * (1 + 1e-12) &&
                    fabs(y[2] - 0.5) + fabs(y[3]) < 1e-12,
                "t=%g", tr.t[s]);
    if (tr.t[s] >= 15.0)
      ymax_late = fmax(ymax_late, fabs(y[1]));
  }
  cr_expect_lt(ymax_late, 1e-5, "|y| after t = 15: %g (y0 = 0.5)", ymax_late);
  /* fixed-step event converges to it (3e-7 measured at h = 1e-3) */
  watch w = {0};
  fb_run_result res;
  cr_assert_eq(run_watch("belt-2d", "event", NULL, 0, 1e-3, &w, &res, &err), FB_OK, "%s",
               err.msg);
  const double *yr = tr.y + (tr.filled - 1) * tr.dim;
  for (size_t q = 0; q < 4; q++)
    cr_expect_lt(fabs(w.y_last[q] - yr[q]), 1e-5, "state %zu: %.17g, reference %.17g", q,
                 w.y_last[q], yr[q]);
  fb_trace_free(&tr);
  fb_interval_list_free(&iv);
  free(sp);
}

/* ---------------------------------------------------------------------------------- */
/* Two 2-D contacts sharing a DOF: masses 1 and 2 (DOFs x1, y1, x2, y2) ride a frame that
 * translates along x (DOF s, mass ms); contact k slips at (s' + xk', yk').  Loads: fs on
 * the frame, fy on each mass's y.  Stuck, the multipliers are (by hand, m1 = m2 = m)
 *     lambda_x1 = lambda_x2 = -fs m / (ms + 2 m),   lambda_yk = -fy,
 * from [[1/m + 1/ms, 1/ms], [1/ms, 1/m + 1/ms]] lambda_x = -(fs/ms) (1, 1). */

typedef struct shared_load {
  double fs, fy;
} shared_load;

static void shared_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const shared_load *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = f[2] = 0.0;
  f[1] = f[3] = p->fy;
  f[4] = p->fs;
}

/* Build the plant (m = 1, ms = 2, Fs = mu N = 1 per contact); dependent: both contacts on
 * the frame only (rows repeat: a singular stuck set). */
static void shared_plant(fb_plant *pl, const shared_load *ld, int dependent)
{
  cr_assert_eq(fb_plant_alloc(pl, 5, 4, 0), FB_OK);
  cr_assert_eq(fb_plant_alloc_jacobians(pl), FB_OK);
  const double M[5] = {1, 1, 1, 1, 2};
  for (size_t q = 0; q < 5; q++)
    pl->M[q * 5 + q] = M[q];
  pl->T = 0.5;
  pl->f_c = 1.0;
  pl->v_scale = 1.0;
  pl->sp = ld;
  pl->force = shared_force;
  const fb_friction law = {FB_SHAPE_COULOMB, 0.5, 0.5, 1.0};
  for (size_t k = 0; k < 2; k++) {
    fb_contact *cx = &pl->contact[2 * k], *cy = &pl->contact[2 * k + 1];
    cx->law = cy->law = law;
    cx->c0 = cy->c0 = (fb_contact_state){2.0, 0.0, 0.0};
    cx->pair = FB_PAIR_X;
    cy->pair = FB_PAIR_Y;
    cx->Jt[4] = 1.0;
    if (dependent) {
      cy->Jt[1] = 1.0; /* both y rows on y1, both x rows on s: dependent */
    } else {
      cx->Jt[2 * k] = 1.0;
      cy->Jt[2 * k + 1] = 1.0;
    }
  }
  fb_err err = {{0}};
  cr_assert_eq(fb_plant_finish(pl, "shared", &err), FB_OK, "%s", err.msg);
}

/* Run switching/event on the plant; returns the status, err filled. */
static int shared_run(fb_plant *pl, watch *w, fb_counters *cnt, fb_err *err)
{
  fb_model md;
  gsl_set_error_handler_off();
  cr_assert_eq(fb_model_init(&md, &fb_model_switching), FB_OK);
  cr_assert_eq(fb_model_resolve(&md, pl, err), FB_OK, "%s", err->msg);
  fb_problem pb;
  fb_problem_init(&pb, pl, &md);
  const fb_integrator_type *it = fb_integrator_find(md.type, "event");
  cr_assert_not_null(it);
  fb_int_opts o;
  fb_int_opts_default(&o);
  o.atol = o.rtol = 1e-12;
  o.hmax = INFINITY;
  void *ws = NULL;
  cr_assert_eq(it->alloc(&ws, it, &pb, &o, err), FB_OK, "%s", err->msg);
  double y[W_DIM];
  cr_assert_leq(pb.dim, W_DIM);
  cr_assert_eq(fb_problem_initial_state(&pb, y), FB_OK);
  w->n = pl->n;
  w->nc = pl->nc;
  w->t_stick = INFINITY;
  const fb_observer obs = {watch_on, w};
  double t = pl->t0;
  memset(cnt, 0, sizeof *cnt);
  int st = fb_drive(it, ws, &pb, &o, &t, y, &obs, NULL, cnt, err);
  it->free(ws);
  fb_model_free(&md);
  return st;
}

Test(spatial_event, two_contacts_sharing_a_dof_hold_below_the_limit_and_slip_above)
{
  /* |lambda_k| = hypot(fs/4, fy) = hypot(0.5, 0.5) < 1 */
  shared_load ld = {2.0, 0.5};
  fb_plant pl;
  shared_plant(&pl, &ld, 0);
  watch w = {0};
  fb_counters cnt;
  fb_err err = {{0}};
  cr_assert_eq(shared_run(&pl, &w, &cnt, &err), FB_OK, "%s", err.msg);
  cr_expect_eq(w.t_stick, 0.0);
  cr_expect_not(w.slip_after);
  const double *z = w.y_last + 2 * 5;
  for (size_t k = 0; k < 2; k++) {
    cr_expect_lt(fabs(z[4 * k + 1] + 0.5), 1e-12, "lambda_x%zu = %.17g", k + 1, z[4 * k + 1]);
    cr_expect_lt(fabs(z[4 * k + 3] + 0.5), 1e-12, "lambda_y%zu = %.17g", k + 1, z[4 * k + 3]);
  }
  /* J has a null space (frame one way, both masses the other): that moves, the slips not */
  const double *v = w.y_last + 5;
  cr_expect_lt(fabs(v[0] + v[4]) + fabs(v[2] + v[4]) + fabs(v[1]) + fabs(v[3]), 1e-12,
               "slips (%g, %g), (%g, %g)", v[0] + v[4], v[1], v[2] + v[4], v[3]);
  fb_plant_free(&pl);

  /* |lambda_k| = hypot(1, 0.8) > 1: both let go (symmetric), and slip at |F| = 1 */
  shared_load big = {4.0, 0.8};
  shared_plant(&pl, &big, 0);
  watch w2 = {0};
  w2.Fs = 1.0;
  cr_assert_eq(shared_run(&pl, &w2, &cnt, &err), FB_OK, "%s", err.msg);
  cr_expect_not(isfinite(w2.t_stick), "stuck at %g", w2.t_stick);
  cr_expect_gt(w2.y_last[5 + 4], 0.0, "the frame moves: s' = %g", w2.y_last[9]);
  cr_expect_gt(w2.y_last[5 + 1], 0.0, "mass 1 moves along y: %g", w2.y_last[6]);
  cr_expect_lt(w2.Fmax_dev, 1e-9);
  fb_plant_free(&pl);

  /* One unit just below, the loads pull only the frame: fs = 3.9 gives |lambda| = 0.975 */
  shared_load edge = {3.9, 0.0};
  shared_plant(&pl, &edge, 0);
  watch w3 = {0};
  cr_assert_eq(shared_run(&pl, &w3, &cnt, &err), FB_OK, "%s", err.msg);
  cr_expect_not(w3.slip_after);
  cr_expect_eq(w3.t_stick, 0.0);
  fb_plant_free(&pl);
}

/* ---------------------------------------------------------------------------------- */
/* A one-DOF contact given as a Jacobian row runs the disc form; it must agree with the
 * one-DOF code of switching.c (the same mass-spring on a belt, Stribeck stick-slip). */

static void belt1d_plant(fb_plant *pl, int row)
{
  cr_assert_eq(fb_plant_alloc(pl, 1, 1, 0), FB_OK);
  if (row) {
    cr_assert_eq(fb_plant_alloc_jacobians(pl), FB_OK);
    pl->contact[0].Jt[0] = 1.0;
  }
  pl->M[0] = 1.0;
  pl->K[0] = 1.0;
  pl->T = 10.0;
  pl->f_c = 1.0 / (2.0 * 3.14159265358979323846);
  pl->v_scale = 1.2;
  pl->contact[0].law = (fb_friction){FB_SHAPE_STRIBECK, 1.0, 0.7, 0.1};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.2, 0.0};
  fb_err err = {{0}};
  cr_assert_eq(fb_plant_finish(pl, "belt1d", &err), FB_OK, "%s", err.msg);
}

Test(spatial_event, a_one_dof_row_agrees_with_the_one_dof_code)
{
  double yend[2][4];
  unsigned long ev[2];
  for (int row = 0; row < 2; row++) {
    fb_plant pl;
    belt1d_plant(&pl, row);
    cr_assert_eq(pl.has_jt, row);
    watch w = {0};
    fb_counters cnt;
    fb_err err = {{0}};
    cr_assert_eq(shared_run(&pl, &w, &cnt, &err), FB_OK, "%s", err.msg);
    memcpy(yend[row], w.y_last, sizeof yend[row]);
    ev[row] = cnt.nevents;
    fb_plant_free(&pl);
  }
  cr_expect_eq(ev[0], ev[1]);
  cr_expect_gt(ev[0], 2);
  for (size_t q = 0; q < 4; q++) /* x, v, mode, F */
    cr_expect_lt(fabs(yend[0][q] - yend[1][q]), 1e-9, "state %zu: %.17g vs %.17g", q,
                 yend[0][q], yend[1][q]);
}

/* ---------------------------------------------------------------------------------- */
/* Refused input.                                                                      */

Test(spatial_event, a_singular_stuck_set_is_refused_with_a_message)
{
  shared_load ld = {0.1, 0.1};
  fb_plant pl;
  shared_plant(&pl, &ld, 1);
  watch w = {0};
  fb_counters cnt;
  fb_err err = {{0}};
  cr_expect_eq(shared_run(&pl, &w, &cnt, &err), FB_EUNSUP);
  cr_expect_not_null(strstr(err.msg, "singular"), "%s", err.msg);
  fb_plant_free(&pl);
}

Test(spatial_event, unsupported_models_and_steppers_are_refused)
{
  fb_case c;
  fb_err err = {{0}};
  gsl_set_error_handler_off();
  /* a one-dimensional scheme (penalty's Newmark) */
  cr_assert_eq(fb_case_init(&c, "puck", "penalty", "newmark", &err), FB_OK, "%s", err.msg);
  cr_expect_eq(fb_case_prepare(&c, &err), FB_EUNSUP);
  cr_expect_not_null(strstr(err.msg, "2-D"), "%s", err.msg);
  fb_case_free(&c);
  /* a multistep inner stepper cannot restart from a saved step */
  watch w = {0};
  fb_run_result res;
  cr_assert_eq(fb_case_init(&c, "billiard", "switching", "event", &err), FB_OK, "%s", err.msg);
  c.opts.stepper = "msadams";
  c.samples = 11;
  int st = fb_case_prepare(&c, &err);
  if (st == FB_OK) {
    const fb_observer obs = {watch_on, &w};
    w.n = c.sc.plant.n;
    w.nc = c.sc.plant.nc;
    st = fb_case_run(&c, NULL, &obs, &res);
    snprintf(err.msg, sizeof err.msg, "%s", res.message);
  }
  cr_expect_eq(st, FB_EINVAL);
  cr_expect_not_null(strstr(err.msg, "msadams"), "%s", err.msg);
  fb_case_free(&c);
}
