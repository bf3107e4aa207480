/* test_switching.c — the switching model (docs/design.md §3 M6), its `event` and `paper` schemes,
 * the reference solver (bench/harness/fb_reference.h), `fricbench reference`, and the scenarios
 * belt-oscillator and coupled-sledges.
 *
 * Independent numbers used below: the stick-slip switch times were computed separately
 * (fixed-step RK4, h = 1e-4, switches bisected on the step, in a short script outside
 * the suite); the inclined-block stop is docs/design.md §7's closed form; the Glowinski scenarios
 * have their own closed forms ([Glowinski2004], [Shiau2005]).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fb_reference.h"
#include "fb_test.h"
#include "fb_util.h"

/* ---------------------------------------------------------------------------------- */
/* Helpers.                                                                            */

typedef struct sw_opts {
  double h, tol, event_tol; /* h > 0: fixed; else tol; event_tol 0: default */
  const char *stepper;      /* NULL: the scheme's default */
  unsigned long max_steps, max_rhs; /* 0: defaults */
} sw_opts;

/* Run scenario x switching/<integ> with options; tr (may be NULL) gets `samples`. */
static int sw_run(const char *scenario, const char *integ, const char *const *sets,
                  const sw_opts *o, size_t samples, fb_trace *tr, const fb_observer *obs,
                  fb_run_result *res)
{
  fb_case c;
  fb_err err = {{0}};
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, scenario, "switching", integ, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], &err), FB_OK, "%s", err.msg);
  if (o->h > 0)
    c.opts.h = o->h;
  else
    c.opts.atol = c.opts.rtol = o->tol;
  if (o->event_tol > 0)
    c.opts.event_tol = o->event_tol;
  c.opts.stepper = o->stepper;
  if (o->max_steps)
    c.opts.max_steps = o->max_steps;
  if (o->max_rhs)
    c.opts.max_rhs = o->max_rhs;
  c.samples = samples;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s/switching/%s: %s", scenario, integ,
               err.msg);
  if (tr != NULL)
    cr_assert_eq(fb_trace_alloc(tr, samples, c.sc.plant.n, c.sc.plant.nc, 2), FB_OK);
  int st = fb_case_run(&c, tr, obs, res);
  fb_case_free(&c);
  return st;
}

/* Default parameters of a scenario with NAME=VALUE assignments (free with free()). */
static void *scenario_params(const fb_scenario_type *st, const char *const *sets)
{
  void *sp = calloc(1, st->params->size);
  cr_assert_not_null(sp);
  fb_params_default(st->params, sp);
  fb_err err;
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++) {
    const char *eq = strchr(sets[k], '=');
    char name[64];
    cr_assert_not_null(eq);
    memcpy(name, sets[k], (size_t)(eq - sets[k]));
    name[eq - sets[k]] = '\0';
    cr_assert_eq(fb_params_set(st->params, st->name, sp, name, eq + 1, &err), FB_OK, "%s",
                 err.msg);
  }
  return sp;
}

/* Switch times (interval starts after t0) of contact i, in order. */
static size_t switch_times(const fb_interval_list *l, size_t i, double *t, size_t max)
{
  size_t k = 0;
  for (size_t j = 0; j < l->n; j++)
    if (l->iv[j].contact == i && j > 0 && l->iv[j - 1].contact == i && k < max)
      t[k++] = l->iv[j].start;
  return k;
}

/* An observer that follows one contact: first stick time and position there, the
 * number of reports in stick and whether v_r was exactly 0 in all of them. */
typedef struct one_watch {
  size_t n;            /* DOFs (z of contact 0 at y[2n]) */
  double u;            /* belt velocity */
  double t_stick, x_stick; /* first report in stick (NAN before) */
  unsigned long stick_reports, v_nonzero_in_stick;
  double x_release[16]; /* x at the first report after each stick (slip again) */
  size_t nrelease;
  int prev_mode;
} one_watch;

static int one_watch_step(void *ctx, double t, const double *y)
{
  one_watch *w = ctx;
  const int mode = (int)y[2 * w->n];
  if (mode == 0) {
    if (isnan(w->t_stick)) {
      w->t_stick = t;
      w->x_stick = y[0];
    }
    w->stick_reports++;
    w->v_nonzero_in_stick += y[w->n] - w->u != 0.0;
  } else if (w->prev_mode == 0 && w->nrelease < 16) {
    w->x_release[w->nrelease++] = y[0];
  }
  w->prev_mode = mode;
  return 0;
}

/* ---------------------------------------------------------------------------------- */
/* Closed forms: inclined block (docs/design.md §7).                                             */

Test(switching, inclined_block_stop_time_and_position)
{
  const double th = 20.0 * M_PI / 180.0, g = 9.81, mu = 3.0 * tan(th);
  const double ts = 1.0 / (g * (mu * cos(th) - sin(th))), xs = 0.5 * ts; /* v0 = 1 */
  const char *sets[] = {"mu_ratio=3", NULL};
  one_watch w = {1, 0.0, NAN, NAN, 0, 0, {0}, 0, 1};
  const fb_observer obs = {one_watch_step, &w};
  const sw_opts o = {0, 1e-12, 1e-12, NULL, 0, 0};
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(sw_run("inclined-block", "event", sets, &o, 201, &tr, &obs, &res), FB_OK, "%s",
               res.message);
  const double *yT = tr.y + (tr.ns - 1) * tr.dim;
  cr_log_info("inclined-block mu=3tan: stop t* = %.15f (exact %.15f, err %.2e), x* err %.2e, "
              "x(T) err %.2e, %lu events, %lu root iterations\n",
              w.t_stick, ts, w.t_stick - ts, w.x_stick - xs, yT[0] - xs, res.cnt.nevents,
              res.cnt.ninner);
  cr_assert(fabs(w.t_stick - ts) < 1e-8, "stop time %.15g, exact %.15g", w.t_stick, ts);
  cr_assert(fabs(w.x_stick - xs) < 1e-8, "stop position %.15g, exact %.15g", w.x_stick, xs);
  cr_assert(fabs(yT[0] - xs) < 1e-8 && yT[1] == 0.0, "x(T) = %.15g, v(T) = %g", yT[0], yT[1]);
  cr_assert_eq(w.v_nonzero_in_stick, 0, "v exactly 0 once stuck");
  cr_assert_eq(res.cnt.nevents, 1);
  /* Stuck on the slope the multiplier is exactly the slope force. */
  cr_assert(fabs(tr.F[tr.ns - 1] + g * sin(th)) < 1e-12, "F(T) = %.17g", tr.F[tr.ns - 1]);
  /* The whole trajectory against the scenario's exact(). */
  const fb_scenario_type *st = fb_scenario_find("inclined-block");
  void *sp = scenario_params(st, sets);
  double ex = 0, ev = 0;
  for (size_t k = 0; k < tr.filled; k++) {
    double x, v, F;
    cr_assert_eq(st->exact(sp, tr.t[k], &x, &v, &F), FB_OK);
    ex = fmax(ex, fabs(tr.y[k * tr.dim] - x));
    ev = fmax(ev, fabs(tr.y[k * tr.dim + 1] - v));
  }
  cr_log_info("inclined-block mu=3tan: max |x - exact| %.2e, max |v - exact| %.2e on 201 "
              "samples\n",
              ex, ev);
  cr_assert(ex < 1e-8 && ev < 1e-8, "max errors x %g v %g", ex, ev);
  free(sp);
  fb_trace_free(&tr);
}

/* The other regimes: accelerating, uniform, at rest (held, or sliding off at t0),
 * thrown uphill. */
Test(switching, inclined_block_all_regimes)
{
  const char *cases[][3] = {{"mu_ratio=0.5", "v0=1", NULL},  {"mu_ratio=1", "v0=1", NULL},
                            {"mu_ratio=3", "v0=0", NULL},    {"mu_ratio=0.5", "v0=0", NULL},
                            {"mu_ratio=3", "v0=-1", NULL},   {"mu_ratio=1", "v0=0", NULL}};
  const fb_scenario_type *st = fb_scenario_find("inclined-block");
  const sw_opts o = {0, 1e-12, 1e-12, NULL, 0, 0};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    fb_trace tr;
    fb_run_result res;
    cr_assert_eq(sw_run("inclined-block", "event", cases[c], &o, 101, &tr, NULL, &res), FB_OK,
                 "%s %s: %s", cases[c][0], cases[c][1], res.message);
    void *sp = scenario_params(st, cases[c]);
    double ex = 0, ev = 0, x, v, F;
    for (size_t k = 0; k < tr.filled; k++) {
      cr_assert_eq(st->exact(sp, tr.t[k], &x, &v, &F), FB_OK);
      ex = fmax(ex, fabs(tr.y[k * tr.dim] - x));
      ev = fmax(ev, fabs(tr.y[k * tr.dim + 1] - v));
    }
    cr_assert(ex < 1e-8 && ev < 1e-8, "inclined-block %s %s: max errors x %g v %g",
              cases[c][0], cases[c][1], ex, ev);
    /* F jumps at a stop, so compare it at T (where it is the same on both sides). */
    cr_assert(fabs(tr.F[tr.filled - 1] - F) < 1e-10, "inclined-block %s %s: F(T) = %.17g, exact "
              "%.17g", cases[c][0], cases[c][1], tr.F[tr.filled - 1], F);
    free(sp);
    fb_trace_free(&tr);
  }
}

/* ---------------------------------------------------------------------------------- */
/* Stick-slip: event times, their convergence in event_tol, other steppers.            */

/* Switch times of stick-slip (defaults) from the independent computation. */
static const double stick_slip_switches[] = {0.562805325245, 2.035200434044, 2.628126755810,
                                             3.727196522742, 4.684882175372, 5.617946465565,
                                             6.719353686218, 7.551351894203, 8.743675079724,
                                             9.504242740781};

Test(switching, stick_slip_event_times_converge_in_event_tol)
{
  const fb_scenario_type *st = fb_scenario_find("stick-slip");
  void *sp = scenario_params(st, NULL);
  fb_reference_opts o;
  fb_reference_opts_default(&o);
  fb_interval_list a, b;
  fb_reference_info ia, ib;
  fb_err err;
  o.event_tol = 1e-10;
  cr_assert_eq(fb_reference_run_opts(st, sp, 2, &o, NULL, &a, &ia, &err), FB_OK, "%s", err.msg);
  o.event_tol = 1e-12;
  cr_assert_eq(fb_reference_run_opts(st, sp, 2, &o, NULL, &b, &ib, &err), FB_OK, "%s", err.msg);
  double ta[32], tb[32];
  const size_t na = switch_times(&a, 0, ta, 32), nb = switch_times(&b, 0, tb, 32);
  cr_assert_eq(na, nb, "%zu switches at event_tol 1e-10, %zu at 1e-12", na, nb);
  cr_assert_eq(nb, sizeof stick_slip_switches / sizeof stick_slip_switches[0]);
  double dmax = 0, imax = 0;
  for (size_t k = 0; k < nb; k++) {
    const fb_interval *iv = &b.iv[k + 1];
    cr_log_info("stick-slip switch %2zu -> %-5s  event_tol 1e-12: %.10f  1e-10: %.10f  "
                "diff %.1e  independent %.10f\n",
                k + 1, fb_mode_name(iv->mode), tb[k], ta[k], tb[k] - ta[k],
                stick_slip_switches[k]);
    dmax = fmax(dmax, fabs(ta[k] - tb[k]));
    imax = fmax(imax, fabs(tb[k] - stick_slip_switches[k]));
  }
  cr_log_info("stick-slip: max |t(1e-10) - t(1e-12)| = %.2e, max |t - independent| = %.2e; "
              "%lu steps, %lu RHS, %lu events, %lu root iterations (1e-12)\n",
              dmax, imax, ib.run.cnt.nsteps, ib.run.cnt.nfe, ib.run.cnt.nevents,
              ib.run.cnt.ninner);
  cr_assert(dmax < 1e-7, "switch times move by %g between event_tol 1e-10 and 1e-12", dmax);
  cr_assert(imax < 1e-8, "switch times differ by %g from the independent computation", imax);
  /* Modes alternate as the physics says: slip+ first, then slip-/stick pairs. */
  cr_assert_eq(b.iv[0].mode, FB_MODE_SLIP_POS);
  for (size_t k = 1; k < b.n; k++)
    cr_assert_eq(b.iv[k].mode, k % 2 ? FB_MODE_SLIP_NEG : FB_MODE_STICK, "interval %zu", k);
  fb_interval_list_free(&a);
  fb_interval_list_free(&b);
  free(sp);
}

/* Other inner steppers (explicit, implicit with the difference Jacobian, heun3) and the
 * fixed-step mode find the same switches. */
Test(switching, stick_slip_other_steppers_agree)
{
  static const struct {
    const char *stepper;
    double h, tol, tmax;
  } cases[] = {{"rkck", 0, 1e-11, 1e-9},  {"rk4imp", 0, 1e-9, 1e-6}, {"heun3", 0, 1e-8, 1e-6},
               {"rk8pd", 1e-2, 0, 1e-9}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const sw_opts o = {cases[c].h, cases[c].tol, 1e-12, cases[c].stepper, 0, 0};
    one_watch w = {1, 0.0, NAN, NAN, 0, 0, {0}, 0, 1};
    const fb_observer obs = {one_watch_step, &w};
    fb_run_result res;
    cr_assert_eq(sw_run("stick-slip", "event", NULL, &o, 2, NULL, &obs, &res), FB_OK, "%s: %s",
                 cases[c].stepper, res.message);
    cr_log_info("stick-slip event/%s %s %g: first stick %.12f, %lu events, %lu steps, %lu "
                "RHS, %lu Jacobians\n",
                cases[c].stepper, cases[c].h > 0 ? "h" : "tol",
                cases[c].h > 0 ? cases[c].h : cases[c].tol, w.t_stick, res.cnt.nevents,
                res.cnt.nsteps, res.cnt.nfe, res.cnt.njac);
    cr_assert(fabs(w.t_stick - stick_slip_switches[1]) < cases[c].tmax, "%s: first stick %.12f",
              cases[c].stepper, w.t_stick);
    cr_assert_eq(res.cnt.nevents, 10, "%s: %lu events", cases[c].stepper, res.cnt.nevents);
    cr_assert_eq(w.v_nonzero_in_stick, 0);
    if (strcmp(cases[c].stepper, "rk4imp") == 0)
      cr_assert(res.cnt.njac > 0, "the implicit stepper used the Jacobian");
  }
}

/* ---------------------------------------------------------------------------------- */
/* The paper's scheme: fixed-step Heun, switches at step ends, exact stick.           */

Test(switching, paper_holds_v_exactly_zero_in_stick)
{
  const double h = 1e-3;
  const sw_opts o = {h, 0, 0, NULL, 0, 0};
  one_watch w = {1, 0.0, NAN, NAN, 0, 0, {0}, 0, 1};
  const fb_observer obs = {one_watch_step, &w};
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(sw_run("stick-slip", "paper", NULL, &o, 1001, &tr, &obs, &res), FB_OK, "%s",
               res.message);
  cr_log_info("stick-slip paper h=%g: %lu steps, %lu RHS, %lu switches; %lu reports in stick, "
              "v != 0 in %lu of them; first stick at %.6f (located: %.6f)\n",
              h, res.cnt.nsteps, res.cnt.nfe, res.cnt.nevents, w.stick_reports,
              w.v_nonzero_in_stick, w.t_stick, stick_slip_switches[1]);
  cr_assert(w.stick_reports > 1000, "the paper's scheme sticks (%lu reports)", w.stick_reports);
  cr_assert_eq(w.v_nonzero_in_stick, 0, "v is exactly 0 in every stick step");
  cr_assert_eq(res.cnt.nevents, 10, "the same 10 switches as the located reference");
  cr_assert_eq(res.cnt.ninner, 0, "nothing is located");
  /* Unlocated: the switch lands on the first step end past it. */
  cr_assert(w.t_stick >= stick_slip_switches[1] && w.t_stick <= stick_slip_switches[1] + h,
            "first stick %.9f", w.t_stick);
  /* And on the grid: every sample flagged stick has v = 0 exactly. */
  size_t nstick = 0;
  for (size_t k = 0; k < tr.filled; k++)
    if (tr.stick[k] == 1) {
      nstick++;
      cr_assert(tr.y[k * tr.dim + 1] == 0.0, "v(%g) = %g in stick", tr.t[k], tr.y[k * tr.dim + 1]);
    }
  cr_assert(nstick > 300, "%zu stick samples", nstick);
  fb_trace_free(&tr);
}

/* ---------------------------------------------------------------------------------- */
/* Several contacts: coupled sledges.                                                  */

typedef struct two_watch {
  double Fs[2];            /* static bounds */
  double t_motion;         /* both-stuck reports after this time count */
  unsigned long reports, both_stuck_late, one_stuck, v_nonzero_in_stick;
  double max_ratio;        /* max |F| / Fs over stuck reports */
} two_watch;

static int two_watch_step(void *ctx, double t, const double *y)
{
  two_watch *w = ctx;
  const double *z = y + 4; /* n = 2: x1 x2 v1 v2, then [mode, F] per contact */
  int stuck = 0;
  w->reports++;
  for (int i = 0; i < 2; i++)
    if (z[2 * i] == 0.0) {
      stuck++;
      w->max_ratio = fmax(w->max_ratio, fabs(z[2 * i + 1]) / w->Fs[i]);
      w->v_nonzero_in_stick += y[2 + i] != 0.0;
    }
  w->both_stuck_late += stuck == 2 && t > w->t_motion;
  w->one_stuck += stuck == 1;
  return 0;
}

Test(switching, coupled_sledges_stick_together_within_bounds)
{
  const char *sets[] = {"mu=0.15", "A=2", NULL};
  const double Fs = 0.15 * 9.81;
  two_watch w = {{Fs, Fs}, 0.5, 0, 0, 0, 0, 0};
  const fb_observer obs = {two_watch_step, &w};
  const sw_opts o = {0, 1e-10, 1e-12, NULL, 0, 0};
  fb_run_result res;
  cr_assert_eq(sw_run("coupled-sledges", "event", sets, &o, 2, NULL, &obs, &res), FB_OK, "%s",
               res.message);
  cr_log_info("coupled-sledges mu=0.15: %lu reports, both stuck in %lu after t=0.5, one stuck "
              "in %lu, max |F|/Fs in stick %.15f, %lu events\n",
              w.reports, w.both_stuck_late, w.one_stuck, w.max_ratio, res.cnt.nevents);
  cr_assert(w.both_stuck_late > 0, "both sledges stick together after the motion started");
  cr_assert(w.one_stuck > 0, "and one sticks while the other slides");
  /* At a release the left-limit report is at the located time, past the crossing by at
   * most event_tol: |F| may exceed Fs by |dF/dt| event_tol there, no more. */
  cr_assert(w.max_ratio <= 1.0 + 1e-10, "multiplier beyond Fs: |F|/Fs = %.17g", w.max_ratio);
  cr_assert_eq(w.v_nonzero_in_stick, 0);

  /* The reference's intervals: simultaneous stick intervals after the start, and the
   * intervals of each contact cover [0, T] without gaps. */
  const fb_scenario_type *st = fb_scenario_find("coupled-sledges");
  void *sp = scenario_params(st, sets);
  fb_interval_list l;
  fb_err err;
  cr_assert_eq(fb_reference_run(st, sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
  double end[2] = {0, 0}, overlap = 0;
  for (size_t k = 0; k < l.n; k++) {
    const fb_interval *a = &l.iv[k];
    cr_assert(a->contact < 2 && a->start == end[a->contact] && a->end > a->start,
              "interval %zu of contact %zu: [%g, %g]", k, a->contact + 1, a->start, a->end);
    end[a->contact] = a->end;
    for (size_t j = 0; j < l.n && a->contact == 0; j++) {
      const fb_interval *b = &l.iv[j];
      if (b->contact == 1 && a->mode == FB_MODE_STICK && b->mode == FB_MODE_STICK)
        overlap += fmax(0.0, fmin(a->end, b->end) - fmax(fmax(a->start, b->start), 0.5));
    }
  }
  cr_assert(end[0] == 10.0 && end[1] == 10.0);
  cr_log_info("coupled-sledges mu=0.15: %zu intervals, both stuck for %.6f s after t=0.5\n", l.n,
              overlap);
  cr_assert(overlap > 1.0, "both stuck together for %g s", overlap);
  fb_interval_list_free(&l);
  free(sp);
}

/* At mu = 0.3 the drive of amplitude A = 2 (force <= k1 A = 2 < mu m g = 2.94) never
 * breaks sledge 1 loose: exact answer x = 0, F1 = -k1 A sin(omega t), F2 = 0. */
typedef struct still_watch {
  unsigned long reports, moved, not_stuck;
  double max_F_err;
} still_watch;

static int still_watch_step(void *ctx, double t, const double *y)
{
  still_watch *w = ctx;
  w->reports++;
  w->moved += y[0] != 0.0 || y[1] != 0.0 || y[2] != 0.0 || y[3] != 0.0;
  w->not_stuck += y[4] != 0.0 || y[6] != 0.0;
  w->max_F_err = fmax(w->max_F_err, fmax(fabs(y[5] + 2.0 * sin(M_PI * t)), fabs(y[7])));
  return 0;
}

/* The drive amplitude A = 2 (the suite's pure-stick series) at mu = 0.3: nothing moves. */
Test(switching, coupled_sledges_A2_stays_stuck)
{
  still_watch w = {0, 0, 0, 0};
  const fb_observer obs = {still_watch_step, &w};
  fb_run_result res;
  const sw_opts o = {0, 1e-10, 1e-12, NULL, 0, 0};
  const char *sets[] = {"A=2", NULL};
  cr_assert_eq(sw_run("coupled-sledges", "event", sets, &o, 2, NULL, &obs, &res), FB_OK, "%s",
               res.message);
  cr_assert_eq(res.cnt.nevents, 0);
  cr_assert(w.reports > 10 && w.moved == 0 && w.not_stuck == 0, "%lu of %lu reports moved",
            w.moved, w.reports);
  cr_assert(w.max_F_err < 1e-12, "multipliers off the drive force by %g", w.max_F_err);
}

/* The default A = 10: the reference sticks and slips at every mu of the suite's cost
 * ladder (sledge 1 sticks at every reversal of the drive and slides in between), where
 * A = 2 gives pure stick from mu = k1 A / (m1 g) = 0.204 up. */
Test(switching, coupled_sledges_default_sticks_and_slips_at_every_mu)
{
  const fb_scenario_type *st = fb_scenario_find("coupled-sledges");
  static const char *const mus[] = {"mu=0.01", "mu=0.03", "mu=0.1", "mu=0.2",
                                    "mu=0.3",  "mu=0.45", "mu=0.6"};
  for (size_t m = 0; m < sizeof mus / sizeof mus[0]; m++)
    for (int a2 = 0; a2 < 2; a2++) {
      const char *sets[] = {mus[m], a2 ? "A=2" : NULL, NULL};
      void *sp = scenario_params(st, sets);
      fb_interval_list l;
      fb_err err;
      cr_assert_eq(fb_reference_run(st, sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
      double stick = 0.0, slip = 0.0;
      for (size_t k = 0; k < l.n; k++)
        *(l.iv[k].mode == FB_MODE_STICK ? &stick : &slip) += l.iv[k].end - l.iv[k].start;
      cr_log_info("coupled-sledges %s A=%d: stick %.3f s, slip %.3f s (both sledges)\n",
                  mus[m], a2 ? 2 : 10, stick, slip);
      if (!a2)
        cr_assert(stick > 0.0 && slip > 1.0, "%s A=10: stick %g s, slip %g s", mus[m], stick,
                  slip);
      else if (m >= 4)
        cr_assert(slip == 0.0, "%s A=2: pure stick, slip %g s", mus[m], slip);
      fb_interval_list_free(&l);
      free(sp);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Belt oscillator: the stick-slip limit cycle.                                        */

Test(switching, belt_oscillator_limit_cycle)
{
  one_watch w = {1, 0.2, NAN, NAN, 0, 0, {0}, 0, 1};
  const fb_observer obs = {one_watch_step, &w};
  const sw_opts o = {0, 1e-12, 1e-12, NULL, 0, 0};
  fb_run_result res;
  cr_assert_eq(sw_run("belt-oscillator", "event", NULL, &o, 2, NULL, &obs, &res), FB_OK, "%s",
               res.message);
  /* Stuck, the mass rides the belt (v = u exactly) until the spring force k x reaches Fs:
   * every release happens at x = Fs/k = 1. */
  cr_assert_eq(w.v_nonzero_in_stick, 0, "v = u exactly in stick");
  cr_assert(w.nrelease >= 3, "%zu releases", w.nrelease);
  for (size_t k = 0; k < w.nrelease; k++)
    cr_assert(fabs(w.x_release[k] - 1.0) < 1e-9, "release %zu at x = %.15g", k, w.x_release[k]);
  /* On the limit cycle from the first stick on: constant period. */
  const fb_scenario_type *st = fb_scenario_find("belt-oscillator");
  void *sp = scenario_params(st, NULL);
  fb_interval_list l;
  fb_err err;
  cr_assert_eq(fb_reference_run(st, sp, 11, NULL, &l, &err), FB_OK, "%s", err.msg);
  double t[32];
  const size_t ns = switch_times(&l, 0, t, 32);
  cr_assert(ns >= 7 && l.iv[1].mode == FB_MODE_STICK, "%zu switches", ns);
  /* t[0] first stick (entered off the cycle), t[1] first release, t[2] next stick... */
  const double period = t[3] - t[1];
  for (size_t k = 1; k + 2 < ns; k++)
    cr_assert(fabs(t[k + 2] - t[k] - period) < 1e-8, "period %.12f vs %.12f", t[k + 2] - t[k],
              period);
  cr_log_info("belt-oscillator: first stick %.10f, first release %.10f, limit-cycle period "
              "%.10f, of which stick %.10f s\n",
              t[0], t[1], period, t[3] - t[2]);
  fb_interval_list_free(&l);
  free(sp);
}

/* ---------------------------------------------------------------------------------- */
/* Glowinski closed forms ([Glowinski2004], [Shiau2005]), multi-DOF, breaks, coupled mass matrix.    */

/* switching/event (the reference settings, forced onto the event-driven solver) follows
 * the closed form in x and v on the grid. */
static void follows_closed_form(const char *scenario, double tol_xv)
{
  const fb_scenario_type *st = fb_scenario_find(scenario);
  if (st == NULL) {
    cr_log_warn("scenario %s not in this build: skipped\n", scenario);
    return;
  }
  void *sp = scenario_params(st, NULL);
  fb_reference_opts o;
  fb_reference_opts_default(&o);
  o.use_event = 1;
  fb_trace tr;
  fb_reference_info info;
  fb_err err;
  cr_assert_eq(fb_reference_run_opts(st, sp, 401, &o, &tr, NULL, &info, &err), FB_OK, "%s",
               err.msg);
  cr_assert_eq(info.kind, FB_REF_EVENT);
  double x[8], v[8], F[8], ex = 0, ev = 0;
  for (size_t k = 0; k < tr.filled; k++) {
    cr_assert_eq(st->exact(sp, tr.t[k], x, v, F), FB_OK);
    for (size_t i = 0; i < tr.n; i++) {
      ex = fmax(ex, fabs(tr.y[k * tr.dim + i] - x[i]));
      ev = fmax(ev, fabs(tr.y[k * tr.dim + tr.n + i] - v[i]));
    }
  }
  cr_log_info("%s: switching/event vs closed form: max |x err| %.2e, max |v err| %.2e (%lu "
              "steps, %lu events)\n",
              scenario, ex, ev, info.run.cnt.nsteps, info.run.cnt.nevents);
  cr_assert(ex < tol_xv && ev < tol_xv, "%s: max errors x %g v %g", scenario, ex, ev);
  fb_trace_free(&tr);
  free(sp);
}

Test(switching, glowinski_tp2_closed_form)
{
  follows_closed_form("glowinski-tp2", 1e-6);
}

Test(switching, glowinski_3dof_closed_form)
{
  follows_closed_form("glowinski-3dof", 1e-6);
}

Test(switching, glowinski_tp1_and_2dof_closed_forms)
{
  follows_closed_form("glowinski-tp1", 1e-6);
  follows_closed_form("glowinski-2dof", 1e-6); /* M = [[2,1],[1,2]]: coupled multipliers */
}

/* The largest errors in x, v and the friction force of scenario's event-driven reference
 * with inner stepper `stepper` (the default's step cap) against its closed form, on a grid
 * of `samples` points. */
static void reference_errors(const char *scenario, const char *stepper, size_t samples,
                             double e[3])
{
  const fb_scenario_type *st = fb_scenario_find(scenario);
  void *sp = scenario_params(st, NULL);
  fb_reference_opts o;
  fb_reference_opts_default(&o);
  o.use_event = 1;
  o.stepper = stepper;
  fb_trace tr;
  fb_reference_info info;
  fb_err err;
  cr_assert_eq(fb_reference_run_opts(st, sp, samples, &o, &tr, NULL, &info, &err), FB_OK,
               "%s", err.msg);
  double x[8], v[8], F[8];
  e[0] = e[1] = e[2] = 0.0;
  for (size_t k = 0; k < tr.filled; k++) {
    cr_assert_eq(st->exact(sp, tr.t[k], x, v, F), FB_OK);
    for (size_t i = 0; i < tr.n; i++) {
      e[0] = fmax(e[0], fabs(tr.y[k * tr.dim + i] - x[i]));
      e[1] = fmax(e[1], fabs(tr.y[k * tr.dim + tr.n + i] - v[i]));
    }
    for (size_t i = 0; i < tr.nc; i++)
      e[2] = fmax(e[2], fabs(tr.F[k * tr.nc + i] - F[i]));
  }
  cr_log_info("%s reference with %s: max errors x %.2e v %.2e F %.2e (%lu RHS)\n", scenario,
              stepper, e[0], e[1], e[2], info.run.cnt.nfe);
  fb_trace_free(&tr);
  free(sp);
}

/* The event-driven reference samples its grid from dop853's own dense output (order 8; the
 * force from the model at the interpolated state: docs/integrators/dop853.md, "The
 * reference"): x, v and F follow the closed forms of glowinski-3dof (slips and sticks)
 * and preload-hold (a stick whose multiplier follows a sinusoid) to round-off.  With
 * rk8pd inside, the recorder interpolates between its steps at the same cap (cubic in v,
 * linear in the force): the force is off by 1.8e-4 and 4e-3. */
Test(reference, samples_from_the_dense_output)
{
  cr_assert_str_eq(FB_REF_STEPPER, "dop853");
  const char *const scenarios[] = {"glowinski-3dof", "preload-hold"};
  for (int k = 0; k < 2; k++) {
    double d[3], r[3];
    reference_errors(scenarios[k], FB_REF_STEPPER, 201, d);
    reference_errors(scenarios[k], "rk8pd", 201, r);
    cr_assert(d[0] < 1e-12 && d[1] < 1e-12 && d[2] < 1e-12, "%s, dop853: x %g v %g F %g",
              scenarios[k], d[0], d[1], d[2]);
    cr_assert_gt(r[2], 1e-5, "%s, rk8pd: F %g", scenarios[k], r[2]);
  }
}

/* glowinski-2dof has a non-diagonal mass matrix: the multiplier of the stuck contact
 * depends on the other's slip force through M^-1.  At every reported step away from the
 * switch times the force must equal the closed form's. */
typedef struct F_watch {
  const fb_scenario_type *st;
  const void *sp;
  double max_err;
  unsigned long checked;
} F_watch;

static int F_watch_step(void *ctx, double t, const double *y)
{
  F_watch *w = ctx;
  double x[2], v[2], F[2];
  if (fabs(t - round(t)) < 1e-6) /* switches at t = 1, 2, 3 */
    return 0;
  w->st->exact(w->sp, t, x, v, F);
  for (int i = 0; i < 2; i++)
    w->max_err = fmax(w->max_err, fabs(y[4 + 2 * i + 1] - F[i]));
  w->checked++;
  return 0;
}

Test(switching, glowinski_2dof_multipliers)
{
  const fb_scenario_type *st = fb_scenario_find("glowinski-2dof");
  if (st == NULL) {
    cr_log_warn("glowinski-2dof not in this build: skipped\n");
    return;
  }
  void *sp = scenario_params(st, NULL);
  F_watch w = {st, sp, 0, 0};
  const fb_observer obs = {F_watch_step, &w};
  const sw_opts o = {0, 1e-12, 1e-12, NULL, 0, 0};
  fb_run_result res;
  cr_assert_eq(sw_run("glowinski-2dof", "event", NULL, &o, 2, NULL, &obs, &res), FB_OK, "%s",
               res.message);
  cr_log_info("glowinski-2dof: max |F - closed form| %.2e over %lu steps\n", w.max_err,
              w.checked);
  cr_assert(w.checked > 20 && w.max_err < 1e-8, "F error %g", w.max_err);
  free(sp);
}

/* A forcing break (drift, slide-then-hold): push 1.2 Fs for 1 s from rest, then a load
 * below breakaway.  The block starts sliding at t0 (released at v = 0), and stops for
 * good at the time an independent integration gives. */
Test(switching, drift_slide_then_hold_across_a_break)
{
  const fb_scenario_type *st = fb_scenario_find("drift");
  const char *sets[] = {"t_push=1", NULL};
  void *sp = scenario_params(st, sets);
  fb_interval_list l;
  fb_reference_info info;
  fb_trace tr;
  fb_err err;
  cr_assert_eq(fb_reference_run_opts(st, sp, 101, NULL, &tr, &l, &info, &err), FB_OK, "%s",
               err.msg);
  cr_assert_eq(info.kind, FB_REF_EVENT);
  cr_assert_eq(l.n, 2, "slide, then hold: %zu intervals", l.n);
  cr_assert(l.iv[0].mode == FB_MODE_SLIP_POS && l.iv[1].mode == FB_MODE_STICK);
  cr_log_info("drift slide-then-hold: stops at %.12f (independent 2.735793919281)\n",
              l.iv[1].start);
  cr_assert(fabs(l.iv[1].start - 2.735793919281) < 1e-9, "stop at %.12f", l.iv[1].start);
  /* Sample 0 holds the state resolved at t0: sliding, F = -S(0) = -Fs. */
  cr_assert(tr.stick[0] == 0 && tr.F[0] == -1.5, "t0: stick %d F %g", tr.stick[0], tr.F[0]);
  fb_trace_free(&tr);
  fb_interval_list_free(&l);
  free(sp);
}

/* ---------------------------------------------------------------------------------- */
/* Budgets and bad options.                                                            */

Test(switching, budgets_end_the_run_with_its_cost)
{
  fb_run_result res;
  const sw_opts a = {0, 1e-12, 1e-12, NULL, 10, 0};
  cr_assert_eq(sw_run("stick-slip", "event", NULL, &a, 2, NULL, NULL, &res), FB_BUDGET);
  cr_assert(res.t_reached > 0 && res.t_reached < 10 && res.cnt.nsteps + res.cnt.nrejected <= 10,
            "t %g, steps %lu", res.t_reached, res.cnt.nsteps);
  const sw_opts b = {0, 1e-12, 1e-12, NULL, 0, 500};
  cr_assert_eq(sw_run("stick-slip", "event", NULL, &b, 2, NULL, NULL, &res), FB_BUDGET);
  cr_assert(res.cnt.nfe <= 500 && res.t_reached < 10, "nfe %lu", res.cnt.nfe);
  const sw_opts c = {1e-3, 0, 0, NULL, 0, 1000};
  cr_assert_eq(sw_run("stick-slip", "paper", NULL, &c, 2, NULL, NULL, &res), FB_BUDGET);
  cr_assert(res.cnt.nfe <= 1000, "nfe %lu", res.cnt.nfe);
}

Test(switching, multistep_or_unknown_stepper_refused)
{
  const char *bad[] = {"msadams", "msbdf", "nosuch"};
  for (int i = 0; i < 3; i++) {
    const sw_opts o = {0, 1e-8, 1e-12, bad[i], 0, 0};
    fb_run_result res;
    cr_assert_eq(sw_run("stick-slip", "event", NULL, &o, 2, NULL, NULL, &res), FB_EINVAL,
                 "stepper %s", bad[i]);
    cr_assert(strstr(res.message, bad[i]) && strstr(res.message, "rk8pd"), "%s", res.message);
  }
}

/* ---------------------------------------------------------------------------------- */
/* The reference API and `fricbench reference`.                                       */

Test(reference, closed_form_and_bad_arguments)
{
  const fb_scenario_type *st = fb_scenario_find("inclined-block");
  const char *sets[] = {"mu_ratio=3", "v0=-1", NULL};
  void *sp = scenario_params(st, sets);
  fb_trace tr;
  fb_interval_list l;
  fb_reference_info info;
  fb_err err;
  cr_assert_eq(fb_reference_run_opts(st, sp, 51, NULL, &tr, &l, &info, &err), FB_OK, "%s",
               err.msg);
  cr_assert_eq(info.kind, FB_REF_EXACT);
  cr_assert_eq(tr.nz, 2);
  cr_assert_eq(l.n, 2);
  /* Thrown uphill: stops at |v0| / (g (sin + mu cos)), bisected on the closed form. */
  const double th = 20.0 * M_PI / 180.0, mu = 3.0 * tan(th);
  const double ts = 1.0 / (9.81 * (sin(th) + mu * cos(th)));
  cr_assert(l.iv[0].mode == FB_MODE_SLIP_NEG && l.iv[1].mode == FB_MODE_STICK);
  cr_assert(fabs(l.iv[0].end - ts) < 1e-14, "stop %.17g exact %.17g", l.iv[0].end, ts);
  cr_assert(tr.stick[50] == 1 && tr.y[50 * tr.dim + 2] == 0.0 && tr.t[50] == 2.0);
  fb_trace_free(&tr);
  fb_interval_list_free(&l);
  /* Bad parameters and samples are refused; nothing is left allocated. */
  *(double *)sp = -1.0; /* m */
  cr_assert_eq(fb_reference_run(st, sp, 51, &tr, &l, &err), FB_EINVAL);
  cr_assert(strstr(err.msg, "parameter m =") && tr.t == NULL && l.iv == NULL, "%s", err.msg);
  free(sp);
  sp = scenario_params(st, NULL);
  cr_assert_eq(fb_reference_run(st, sp, 1, &tr, &l, &err), FB_EINVAL);
  free(sp);
}

static char out[1 << 16], errbuf[1 << 12];

static size_t file_lines(const char *path, char *first, size_t len)
{
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp, "%s missing", path);
  char line[1024];
  size_t n = 0;
  while (fgets(line, sizeof line, fp) != NULL) {
    if (n == 0) {
      size_t m = strlen(line);
      m = m < len ? m : len - 1;
      memcpy(first, line, m);
      first[m] = '\0';
    }
    n++;
  }
  fclose(fp);
  return n;
}

Test(reference, cli_writes_trajectory_and_intervals)
{
  char dir[64], p1[128], p2[128], head[256];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(p1, sizeof p1, "%s/ref.csv", dir);
  snprintf(p2, sizeof p2, "%s/iv.csv", dir);
  const char *a[] = {"reference", "--scenario", "stick-slip", "--samples", "201", "--out", p1,
                     "--intervals", p2, NULL};
  cr_assert_eq(fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert_eq(fbt_lines(errbuf), 1, "one summary line: %s", errbuf);
  cr_assert(strstr(errbuf, "ok:") && strstr(errbuf, "events=10"), "%s", errbuf);
  cr_assert_eq(file_lines(p1, head, sizeof head), 202);
  cr_assert_str_eq(head, "t,x,v,F,mode,force,stick\n");
  cr_assert_eq(file_lines(p2, head, sizeof head), 12, "header + 11 intervals");
  cr_assert_str_eq(head, "contact,start,end,mode\n");
  FILE *fp = fopen(p2, "r");
  char line[256];
  cr_assert(fgets(line, sizeof line, fp) && fgets(line, sizeof line, fp));
  cr_assert(strncmp(line, "1,0,0.5628053252", 16) == 0 && strstr(line, ",slip+"), "%s", line);
  fclose(fp);
  cr_assert_eq(fbt_dir_entries(dir), 2, "no temporaries left");

  /* Several contacts: suffixed columns, contacts numbered from 1; --set; stdout. */
  const char *b[] = {"reference", "--scenario", "coupled-sledges", "--set", "mu=0.15", "--set",
                     "A=2", "--samples", "11", "--intervals", p2, "--out", "-", NULL};
  cr_assert_eq(fbt_cli(b, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  const char *hdr = "t,x1,x2,v1,v2,F1,F2,mode1,force1,mode2,force2,stick1,stick2\n";
  cr_assert(strncmp(out, hdr, strlen(hdr)) == 0, "%s", out);
  cr_assert_eq(fbt_lines(out), 12);
  fp = fopen(p2, "r");
  int c1 = 0, c2 = 0;
  while (fgets(line, sizeof line, fp) != NULL) {
    c1 += strncmp(line, "1,", 2) == 0;
    c2 += strncmp(line, "2,", 2) == 0;
  }
  fclose(fp);
  cr_assert(c1 > 5 && c2 == 1, "contact 1: %d intervals, contact 2: %d", c1, c2);

  /* A closed form. */
  const char *c[] = {"reference", "--scenario", "inclined-block", "--out", p1, NULL};
  cr_assert_eq(fbt_cli(c, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  cr_assert(strstr(errbuf, "reference=exact"), "%s", errbuf);
  cr_assert_eq(file_lines(p1, head, sizeof head), 1002);
  fbt_rmdir(dir);
}

/* docs/design.md §9: exit 2, one line naming the value and what is allowed, no file. */
Test(reference, cli_bad_input)
{
  char dir[64], p1[128], p2[128];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(p1, sizeof p1, "%s/ref.csv", dir);
  snprintf(p2, sizeof p2, "%s/iv.csv", dir);
  static const struct {
    const char *args[12];
    const char *says;
  } cases[] = {
      {{"reference", "--scenario", "nosuch", "--out", "P1", "--intervals", "P2", NULL},
       "nosuch"},
      {{"reference", "--scenario", "stick-slip", "--set", "mu=-1", "--out", "P1", "--intervals",
        "P2", NULL},
       "mu"},
      {{"reference", "--scenario", "stick-slip", "--set", "nosuch=1", "--out", "P1", NULL},
       "nosuch"},
      {{"reference", "--scenario", "stick-slip", "--set", "D", "--out", "P1", NULL}, "NAME=VALUE"},
      {{"reference", "--scenario", "stick-slip", "--samples", "1", "--out", "P1", NULL},
       "--samples"},
      {{"reference", "--scenario", "stick-slip", "--out", "/nonexistent/dir/ref.csv",
        "--intervals", "P2", NULL},
       "/nonexistent/dir/ref.csv"},
      {{"reference", "--scenario", "stick-slip", "--out", "P1", "--intervals",
        "/nonexistent/dir/iv.csv", NULL},
       "/nonexistent/dir/iv.csv"},
      {{"reference", "--out", "P1", NULL}, "--scenario"},
      {{"reference", "--scenario", "stick-slip", "--intervals", "-", NULL}, "--intervals"},
      {{"reference", "--scenario", "stick-slip", "--bogus", NULL}, "--bogus"},
      {{"reference", "--scenario", "stick-slip", "--out", "DIR", NULL}, "not a regular file"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const char *a[12];
    for (size_t j = 0; j < 12; j++) {
      const char *s = cases[k].args[j];
      a[j] = s == NULL ? NULL
             : strcmp(s, "P1") == 0 ? p1
             : strcmp(s, "P2") == 0 ? p2
             : strcmp(s, "DIR") == 0 ? dir
                                     : s;
      if (s == NULL)
        break;
    }
    const int rc = fbt_cli(a, out, sizeof out, errbuf, sizeof errbuf);
    cr_assert_eq(rc, 2, "case %zu (%s): exit %d: %s", k, cases[k].says, rc, errbuf);
    cr_assert_eq(fbt_lines(errbuf), 1, "case %zu: one line: %s", k, errbuf);
    cr_assert(strstr(errbuf, cases[k].says), "case %zu: names '%s': %s", k, cases[k].says,
              errbuf);
    cr_assert_eq(fbt_dir_entries(dir), 0, "case %zu: no file left", k);
  }
  fbt_rmdir(dir);
}

/* Dense output at forcing breaks: on glowinski-2dof both DOFs are stuck on (1, 2) and
 * DOF 2 on (0, 1], the forcing jumping at t = 1.  The recorder's Hermite derivative at a
 * step that starts on the break must be the right piece's, consistent with the
 * multiplier the scheme reports there (acceleration 0 in stick); with the left piece's
 * the sampled v2 reached -0.018 on (1, 1.25) while the state is exactly 0. */
Test(switching, dense_output_at_forcing_breaks)
{
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("glowinski-2dof", "switching", "event", 0, 1e-10, NULL, 4001, &tr, NULL,
                       &res),
               FB_OK, "%s", res.message);
  double v2 = 0.0, v1 = 0.0, x2 = 0.0;
  for (size_t k = 0; k < tr.filled; k++) {
    const double t = tr.t[k], *y = tr.y + k * tr.dim; /* x1, x2, v1, v2, ... */
    if (t > 1.0 && t < 1.25)
      v2 = fmax(v2, fabs(y[3]));
    if (t > 1.0 && t < 2.0)
      v1 = fmax(v1, fabs(y[2]));
    if (t < 2.0)
      x2 = fmax(x2, fabs(y[1]));
  }
  cr_log_info("glowinski-2dof switching/event tol 1e-10, 4001 samples: max |v2| on (1, 1.25) "
              "%.3g, max |v1| on (1, 2) %.3g, max |x2| on [0, 2) %.3g\n",
              v2, v1, x2);
  cr_assert(v2 <= 1e-9, "sampled v2 on (1, 1.25): %g", v2);
  cr_assert(v1 <= 1e-9, "sampled v1 on (1, 2): %g", v1);
  cr_assert(x2 <= 1e-9, "sampled x2 on [0, 2): %g", x2);
  fb_trace_free(&tr);
}
