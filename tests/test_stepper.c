/* test_stepper.c — the stepper contract (integrators/stepper.c): one driver for every
 * scheme, and the counts and trajectories it took over from the schemes' own loops.
 *
 * The expectations below were taken from the suite before the driver existed (commit
 * 420c8b8, `fricbench run ... --samples 3`; event and paper, which moved later, from
 * af6690f; the contact scheme from a1e7ad2): when one changes, the driver changed a step
 * sequence, a budget or a message, which issue 25 rules out.  Small cases only: the
 * quick suite's runs.csv is the wider check. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_run.h"
#include "fb_test.h"
#include "fb_integrator_int.h"

/* One case and what the old loops gave for it: status, counters, t reached and x(T)
 * (NaN when the run stopped early). */
typedef struct stepper_case {
  const char *scenario, *model, *integrator;
  double h, tol;                 /* h > 0: fixed; else tol */
  unsigned long max_steps, max_rhs; /* 0: default */
  int status;
  unsigned long nsteps, nrejected, nfe, njac, nevents, ninner;
  double t_reached, x_T;
} stepper_case;

static const stepper_case cases[] = {
    {"stick-slip", "penalty", "newmark", 0, 1e-6, 0, 0, FB_OK, 575, 132, 4364, 0, 0, 2183, 10,
     2.5315896940172338},
    {"glowinski-tp1", "penalty", "newmark", 0.01, 0, 0, 0, FB_OK, 200, 0, 474, 0, 0, 223, 2,
     0.61720674784731233},
    {"stick-slip", "penalty", "newmark", 0, 1e-6, 50, 0, FB_BUDGET, 36, 14, 304, 0, 0, 153,
     0.5639218879, NAN},
    {"glowinski-tp2", "kikuuwe-be", "kbe-relay", 0.001, 0, 0, 0, FB_OK, 3000, 0, 3000, 0, 0, 0,
     3, -0.035004535018846573},
    {"glowinski-tp1", "glowinski", "glowinski-strang", 0.01, 0, 0, 0, FB_OK, 200, 0, 4000, 0, 0,
     0, 2, 0.63506683575024792},
    {"glowinski-tp1", "glowinski", "glowinski-lie", 0.001, 0, 0, 500, FB_BUDGET, 50, 0, 500, 0,
     0, 0, 0.05, NAN},
    {"glowinski-tp1", "kikuuwe", "bsimp", 0.01, 0, 0, 0, FB_EGSL, 99, 0, 13816, 100, 0, 0, 0.99,
     NAN},
    {"stick-slip", "lugre", "msbdf", 0, 1e-6, 0, 0, FB_OK, 1187, 339, 4559, 98, 0, 0, 10,
     2.5282326655089538},
    {"glowinski-tp1", "lugre", "beuler", 0.001, 0, 0, 0, FB_OK, 2000, 0, 3488, 1484, 0, 1484, 2,
     0.6324419744463371},
    {"glowinski-tp2", "lugre", "bdf2", 0.001, 0, 0, 1000, FB_BUDGET, 997, 0, 997, 0, 0, 0, 0.997,
     NAN},
    {"glowinski-tp1", "kikuuwe", "rk4", 0.001, 0, 0, 0, FB_OK, 2000, 0, 8000, 0, 0, 0, 2,
     0.63670299055650248},
    {"glowinski-tp1", "kikuuwe", "rk4", 0.001, 0, 100, 0, FB_BUDGET, 100, 0, 400, 0, 0, 0, 0.1,
     NAN},
    {"glowinski-tp1", "kikuuwe", "rkf45", 0, 1e-7, 0, 0, FB_OK, 294, 62, 2140, 0, 0, 0, 2,
     0.63663316363752942},
    {"glowinski-tp1", "moreau-jean", "moreau-jean", 0.001, 0, 0, 0, FB_OK, 2000, 0, 2004, 0, 0,
     0, 2, 0.6365338507830095},
    {"stick-slip", "switching", "event", 0, 1e-8, 0, 0, FB_OK, 42, 3, 1616, 0, 10, 69, 10,
     2.5326667048743152},
    {"glowinski-tp1", "switching", "paper", 0.001, 0, 0, 0, FB_OK, 2000, 0, 8012, 0, 5, 0, 2,
     0.63661977129051606},
    /* the disc version (2-D contacts) */
    {"puck", "switching", "event", 0, 1e-8, 0, 0, FB_OK, 10, 0, 174, 0, 1, 2, 1,
     0.18994801032108288},
    {"belt-2d", "switching", "event", 0, 1e-8, 0, 5000, FB_BUDGET, 258, 96, 5000, 0, 2, 8,
     1.8122628617359087, NAN},
    /* event and paper from their own loops (sw_evolve, fb_swd_evolve) before they became
     * steppers (commit af6690f): fixed and adaptive, across breaks (glowinski-tp1 at 1.5,
     * two-mass-drive), the disc version's paper and a turn, budgets stopping mid-run */
    {"puck", "switching", "paper", 0.001, 0, 0, 0, FB_OK, 1000, 0, 4623, 0, 1, 0, 1,
     0.18994799609126195},
    {"billiard", "switching", "event", 0, 1e-8, 0, 0, FB_OK, 10, 0, 174, 0, 1, 2, 1,
     1.5216071887286937},
    {"glowinski-tp1", "switching", "event", 0.001, 0, 0, 0, FB_OK, 2001, 0, 28067, 0, 4, 3, 2,
     0.63661977236758194},
    {"two-mass-drive", "switching", "event", 0, 1e-8, 0, 0, FB_OK, 673, 154, 15973, 0, 43, 316,
     628.31853071795854, 310.54325928511616},
    {"stick-slip", "switching", "paper", 0.001, 0, 4000, 0, FB_BUDGET, 4000, 0, 16011, 0, 4, 0,
     4, NAN},
    {"belt-2d", "switching", "event", 0.002, 0, 0, 20000, FB_BUDGET, 1337, 0, 20000, 0, 2, 36,
     2.6716424030786432, NAN},
    {"glowinski-tp1", "switching", "event", 0, 1e-8, 0, 300, FB_BUDGET, 9, 13, 300, 0, 0, 0,
     0.015785762747027327, NAN},
    /* the contact scheme and moreau-jean's normal stepping from their own loops (evolve,
     * mj_n_run) before they became steppers (commit a1e7ad2; "scenario:normal=..."): each
     * treatment, GSL's failed steps in nrejected (hunt-crossley), friction bounded by newton
     * (switching), budgets of both kinds, a GSL failure and a non-finite state */
    {"bouncing-ball:normal=newton", "penalty", "contact", 0, 1e-9, 0, 0, FB_OK, 161, 0, 24799,
     0, 67, 0, 4, 3.7258438730115798e-26},
    {"bouncing-ball:normal=hunt-crossley", "penalty", "contact", 0, 1e-6, 0, 0, FB_OK, 359, 19,
     11017, 0, 27, 0, 4, -0.00025198384373504369},
    {"block-drop:normal=newton", "switching", "contact", 0, 1e-9, 0, 0, FB_OK, 103, 0, 1674, 0,
     2, 0, 1.5, 0.82957866123003887},
    {"block-drop:normal=moreau-jean", "penalty", "contact", 1e-3, 0, 0, 0, FB_OK, 1500, 0, 3000,
     0, 0, 2681, 1.5, 0.82978974000000094},
    {"bouncing-ball:normal=moreau-jean", "penalty", "contact", 1e-3, 0, 0, 0, FB_OK, 4000, 0,
     8000, 0, 0, 4000, 4, -1.4617638516149836e-06},
    {"bouncing-ball:normal=newton", "penalty", "contact", 0, 1e-6, 37, 0, FB_BUDGET, 37, 0, 778,
     0, 2, 0, 1.403656738365759, NAN},
    {"impact-oscillator:normal=moreau-jean", "penalty", "contact", 1e-3, 0, 0, 1234, FB_BUDGET,
     617, 0, 1234, 0, 0, 617, 0.61700000000000044, NAN},
    {"impact-oscillator:normal=kikuuwe-n", "penalty", "contact", 0, 1e-6, 0, 20000, FB_BUDGET,
     1050, 1, 20000, 0, 12, 0, 20.354789842953558, NAN},
    {"block-drop:normal=penalty-n", "lugre", "contact", 0, 1e-6, 0, 0, FB_EGSL, 541, 0, 11362, 0,
     3, 0, 0.4088985214, NAN},
    {"block-drop:normal=hunt-crossley", "lugre", "contact", 0, 1e-6, 0, 0, FB_ENONFINITE, 35, 0,
     726, 0, 0, 0, 0.31927846776536462, NAN},
};

static void case_open(fb_case *c, const stepper_case *k)
{
  fb_err err = {{0}};
  gsl_set_error_handler_off();
  char scenario[64]; /* "scenario:NAME=VALUE": a scenario parameter (the normal treatment) */
  const char *set = strchr(k->scenario, ':');
  const size_t len = set != NULL ? (size_t)(set - k->scenario) : strlen(k->scenario);
  cr_assert_lt(len, sizeof scenario);
  memcpy(scenario, k->scenario, len);
  scenario[len] = '\0';
  cr_assert_eq(fb_case_init(c, scenario, k->model, k->integrator, &err), FB_OK, "%s",
               err.msg);
  if (set != NULL)
    cr_assert_eq(fb_case_set(c, set + 1, &err), FB_OK, "%s", err.msg);
  if (k->h > 0)
    c->opts.h = k->h;
  else
    c->opts.atol = c->opts.rtol = k->tol;
  if (k->max_steps > 0)
    c->opts.max_steps = k->max_steps;
  if (k->max_rhs > 0)
    c->opts.max_rhs = k->max_rhs;
  c->samples = 3;
  cr_assert_eq(fb_case_prepare(c, &err), FB_OK, "%s", err.msg);
}

/* Through the harness (fb_case_run -> fb_drive, the recorder's fast path included): the
 * counts, the end and x(T) of the loops the driver replaced. */
Test(stepper, counts_and_end_states_of_the_old_loops)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const stepper_case *k = &cases[i];
    fb_case c;
    fb_trace tr;
    fb_run_result res;
    case_open(&c, k);
    cr_assert_eq(fb_trace_alloc(&tr, 3, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz), FB_OK);
    const int st = fb_case_run(&c, &tr, NULL, &res);
    const char *id = k->integrator;
    cr_expect_eq(st, k->status, "%s/%s: status %d (%s)", k->scenario, id, st, res.message);
    cr_expect_eq(res.cnt.nsteps, k->nsteps, "%s/%s: nsteps %lu", k->scenario, id,
                 res.cnt.nsteps);
    cr_expect_eq(res.cnt.nrejected, k->nrejected, "%s/%s: nrejected %lu", k->scenario, id,
                 res.cnt.nrejected);
    cr_expect_eq(res.cnt.nfe, k->nfe, "%s/%s: nfe %lu", k->scenario, id, res.cnt.nfe);
    cr_expect_eq(res.cnt.njac, k->njac, "%s/%s: njac %lu", k->scenario, id, res.cnt.njac);
    cr_expect_eq(res.cnt.nevents, k->nevents, "%s/%s: nevents", k->scenario, id);
    cr_expect_eq(res.cnt.ninner, k->ninner, "%s/%s: ninner %lu", k->scenario, id,
                 res.cnt.ninner);
    cr_expect(fabs(res.t_reached - k->t_reached) <= 1e-9 * fmax(1.0, k->t_reached),
              "%s/%s: t %.17g", k->scenario, id, res.t_reached);
    if (!isnan(k->x_T)) /* bit for bit: the same steps give the same doubles */
      cr_expect_eq(tr.y[2 * tr.dim], k->x_T, "%s/%s: x(T) %.17g", k->scenario, id,
                   tr.y[2 * tr.dim]);
    fb_trace_free(&tr);
    fb_case_free(&c);
  }
}

/* The same run taken as single steps (fb_stepper_step) and as evolve() to stops that fall
 * between steps: the steps do not depend on how the caller asks for them. */
static void stepwise(const stepper_case *k, int by_step)
{
  fb_case c;
  fb_err err = {{0}};
  case_open(&c, k);
  if (c.integ->step == NULL) { /* not on the contract: whole runs only */
    fb_case_free(&c);
    return;
  }
  const fb_problem *pb = &c.pb;
  void *ws = NULL;
  cr_assert_eq(c.integ->alloc(&ws, c.integ, pb, &c.opts, &err), FB_OK, "%s", err.msg);
  double *y = calloc(2 * pb->dim, sizeof *y);
  cr_assert_not_null(y);
  fb_problem_initial_state(pb, y);
  fb_counters cnt = {0};
  fb_stepper s;
  fb_stepper_init(&s, c.integ, ws, pb, &c.opts, y, y + pb->dim, &cnt);
  int st = fb_stepper_reset(&s, pb->plant->t0, y, &err);
  const double T = pb->plant->T, dt = (T - pb->plant->t0) / 37.0;
  unsigned long calls = 0;
  while (st == FB_OK && s.t < T) {
    st = by_step ? fb_stepper_step(&s, NULL, &err)
                 : fb_stepper_evolve(&s, pb->plant->t0 + (double)(calls + 1) * dt, NULL, &err);
    calls++;
  }
  fb_stepper_finish(&s, st); /* the contact scheme's counts */
  cr_expect_eq(st, k->status, "%s: status %d (%s)", k->integrator, st, err.msg);
  cr_expect_eq(cnt.nsteps, k->nsteps, "%s: nsteps %lu", k->integrator, cnt.nsteps);
  cr_expect_eq(cnt.nfe, k->nfe, "%s: nfe %lu", k->integrator, cnt.nfe);
  if (by_step && k->status == FB_OK)
    cr_expect_eq(calls, k->nsteps, "%s: one accepted step per call", k->integrator);
  if (!isnan(k->x_T))
    cr_expect_eq(y[0], k->x_T, "%s: x(T) %.17g", k->integrator, y[0]);
  cr_expect(s.at.seg > 0 || (c.integ->flags & FB_STEP_BREAKS_INSIDE) ||
                fb_problem_next_stop(pb, pb->plant->t0) >= T,
            "%s: the breaks were crossed", k->integrator);
  free(y);
  c.integ->free(ws);
  fb_case_free(&c);
}

Test(stepper, single_steps_and_stops_take_the_same_steps)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (cases[i].status == FB_OK) {
      stepwise(&cases[i], 1);
      stepwise(&cases[i], 0);
    }
}
