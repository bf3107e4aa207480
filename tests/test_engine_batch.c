/* test_engine_batch.c — the glue's batched steps (engines/engine.c, docs/engines.md §4): when
 * the plant's forcing depends on t only (fb_engine_batchable) the glue hands an engine's
 * steps() the inputs of the next steps at once, and the run must be the lock-step run to the
 * bit.  A small engine of this file (a block on a Coulomb plane, semi-implicit Euler, the
 * same arithmetic in step() and steps()) is driven by the one driver fb_drive on push-hold
 * (a force of t with a break at t_on) and stick-slip (a spring and a damper: the force
 * depends on the state, so lock step).  No node, no library: it runs everywhere.  No timing. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_integrator_int.h"
#include "fb_run.h"

/* ---- the test's engine: one block of mass m on a plane with Coulomb coefficient mu */

typedef struct toy_world {
  double m, mu, x, v;
} toy_world;

/* What the engine was asked: calls, the largest batch, a batch across a break. */
static struct {
  unsigned long step_calls, steps_calls, steps_done;
  size_t kmax;
  int crossed_break;
  const fb_plant *pl;
} toy_log;

static int toy_version(char *buf, size_t len)
{
  snprintf(buf, len, "toy");
  return 1;
}

static int toy_open(void **ws, const fb_engine_case *c, fb_engine_sample *settled, fb_err *err)
{
  toy_world *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  *w = (toy_world){c->mass, c->mu, c->pos0[0], c->vel0[0]};
  memset(settled, 0, sizeof *settled);
  *ws = w;
  return FB_OK;
}

/* One step: the free velocity, then the friction impulse clamped to mu m g h (sticks when
 * the clamp holds it). */
static void toy_advance(toy_world *w, const fb_engine_input *in, fb_engine_sample *out)
{
  const double vfree = w->v + in->h * in->force[0] / w->m, cap = in->h * w->mu * in->gravity;
  const double dv = fabs(vfree) <= cap ? -vfree : (vfree > 0 ? -cap : cap);
  w->v = vfree + dv;
  w->x += in->h * w->v;
  memset(out, 0, sizeof *out);
  out->pos[0] = w->x;
  out->vel[0] = w->v;
  out->Fn = w->m * in->gravity;
  out->Ft[0] = w->m * dv / in->h;
  out->ncontacts = 1;
  out->ninner = 1 + (fabs(vfree) <= cap); /* some count the glue must carry */
}

static int toy_step(void *ws, const fb_engine_input *in, fb_engine_sample *out,
                    fb_counters *cnt, fb_err *err)
{
  (void)err;
  toy_log.step_calls++;
  toy_advance(ws, in, out);
  cnt->ninner += out->ninner;
  return FB_OK;
}

static int toy_steps(void *ws, const fb_engine_input *in, size_t k, fb_engine_sample *out,
                     fb_err *err)
{
  (void)err;
  toy_log.steps_calls++;
  toy_log.steps_done += k;
  toy_log.kmax = k > toy_log.kmax ? k : toy_log.kmax;
  const double t0 = in[0].t, t1 = in[k - 1].t + in[k - 1].h;
  for (size_t b = 0; b < toy_log.pl->nbreaks; b++)
    toy_log.crossed_break |= t0 < toy_log.pl->breaks[b] && toy_log.pl->breaks[b] < t1;
  for (size_t i = 0; i < k; i++)
    toy_advance(ws, &in[i], &out[i]);
  return FB_OK;
}

static void toy_close(void *ws)
{
  free(ws);
}

static const char *const toy_scenarios[] = {"push-hold", "stick-slip", NULL};
static const fb_engine_unsupported toy_unsupported[] = {{NULL, NULL}};
static const fb_engine_type toy_engine = {
    .name = "toy", .title = "a block on a Coulomb plane", .library = "none",
    .version = toy_version, .scenarios = toy_scenarios, .unsupported = toy_unsupported,
    .open = toy_open, .step = toy_step, .close = toy_close, .steps = toy_steps,
};
static const fb_integrator_type toy_stepper = FB_ENGINE_STEPPER("toy-step", "toy", toy_engine, 0);
static const fb_model_type toy_model = {.name = "toy", .nz = FB_ENGINE_NZ};

/* ---- a run of the toy engine under fb_drive, every accepted step recorded */

#define MAX_REC 4000
typedef struct record {
  size_t n, dim;
  double t[MAX_REC], y[MAX_REC][8];
} record;

static int on_step(void *ctx, double t, const double *y)
{
  record *r = ctx;
  cr_assert_lt(r->n, MAX_REC);
  r->t[r->n] = t;
  memcpy(r->y[r->n], y, r->dim * sizeof *y);
  r->n++;
  return 0;
}

/* scenario with sets at h, batch "1" (lock step) or NULL (the default); the status. */
static int toy_run(const char *scenario, const char *const *sets, double h,
                   unsigned long max_steps, const char *batch, record *r, fb_counters *cnt)
{
  fb_case c;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&c, scenario, "switching", NULL, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], &err), FB_OK, "%s", err.msg);
  c.opts.h = h;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  const fb_plant *pl = &c.sc.plant;
  fb_model md = {.type = &toy_model};
  fb_problem pb;
  fb_problem_init(&pb, pl, &md);
  pb.scenario = scenario;
  fb_int_opts o = c.opts;
  o.max_steps = max_steps;
  memset(&toy_log, 0, sizeof toy_log);
  toy_log.pl = pl;
  if (batch != NULL)
    setenv("FRICBENCH_ENGINE_BATCH", batch, 1);
  else
    unsetenv("FRICBENCH_ENGINE_BATCH");
  void *ws = NULL;
  cr_assert_eq(toy_stepper.alloc(&ws, &toy_stepper, &pb, &o, &err), FB_OK, "%s", err.msg);
  unsetenv("FRICBENCH_ENGINE_BATCH");
  double *y = calloc(pb.dim, sizeof *y);
  cr_assert_not_null(y);
  cr_assert_leq(pb.dim, 8);
  memcpy(y, pl->x0, pl->n * sizeof *y);
  memcpy(y + pl->n, pl->v0, pl->n * sizeof *y);
  memset(r, 0, sizeof *r);
  r->dim = pb.dim;
  memset(cnt, 0, sizeof *cnt);
  double t = pl->t0;
  const fb_observer obs = {on_step, r};
  const int st = fb_drive(&toy_stepper, ws, &pb, &o, &t, y, &obs, NULL, cnt, &err);
  toy_stepper.free(ws);
  free(y);
  fb_case_free(&c);
  return st;
}

static void assert_same(const record *a, const record *b, const fb_counters *ca,
                        const fb_counters *cb)
{
  cr_assert_eq(a->n, b->n, "steps %zu and %zu", a->n, b->n);
  cr_assert_eq(memcmp(a->t, b->t, a->n * sizeof a->t[0]), 0, "the step times differ");
  for (size_t i = 0; i < a->n; i++)
    cr_assert_eq(memcmp(a->y[i], b->y[i], a->dim * sizeof(double)), 0,
                 "the states differ at step %zu (t = %.17g)", i, a->t[i]);
  cr_assert_eq(ca->nsteps, cb->nsteps);
  cr_assert_eq(ca->nfe, cb->nfe);
  cr_assert_eq(ca->ninner, cb->ninner);
}

static record rec_batch, rec_lock; /* large: not on the stack */

/* push-hold at r = 2 (it slides after t_on = 0.5 s): batched as the lock step, to the bit;
 * the batches stop at the break (h = 0.3 ms does not divide t_on: a short last step). */
Test(engine_batch, a_forcing_of_t_runs_batched_and_equals_the_lock_step)
{
  static const char *const sets[] = {"r=2", "t_on=0.5", "T=1", NULL};
  fb_counters cb, cl;
  cr_assert_eq(toy_run("push-hold", sets, 3e-4, 1000000, NULL, &rec_batch, &cb), FB_OK);
  const unsigned long calls = toy_log.steps_calls, kmax = toy_log.kmax;
  cr_assert_eq(toy_log.step_calls, 0, "every step in a batch");
  cr_assert_eq(toy_log.crossed_break, 0, "no batch crosses the break at t_on");
  cr_assert_eq(toy_run("push-hold", sets, 3e-4, 1000000, "1", &rec_lock, &cl), FB_OK);
  cr_assert_eq(toy_log.steps_calls, 0, "FRICBENCH_ENGINE_BATCH=1: lock step");
  cr_assert_eq(toy_log.step_calls, cl.nsteps);
  assert_same(&rec_batch, &rec_lock, &cb, &cl);
  /* 1667 + 1667 steps (the segments [0, 0.5] and [0.5, 1]): two batches of 1024, two rests */
  cr_assert_eq(cb.nsteps, 3334);
  cr_assert_eq(calls, 4, "batches: %lu", calls);
  cr_assert_eq(kmax, FB_ENGINE_BATCH_MAX);
  cr_assert_float_eq(rec_batch.t[1666], 0.5, 1e-15, "the break is a step's end");
  /* the block slides at mu g (r - 1) = 2.943 m/s^2 after the break */
  const double a = (rec_batch.y[3333][1] - rec_batch.y[1666][1]) / 0.5;
  cr_assert_float_eq(a, 0.3 * 9.81, 1e-9, "a = %.17g", a);
}

/* A step budget inside a batch: the batch stops at the budget, the run fails there as the
 * lock-step run does, with the same states. */
Test(engine_batch, the_step_budget_cuts_the_batch)
{
  static const char *const sets[] = {"r=2", "t_on=0.5", "T=1", NULL};
  fb_counters cb, cl;
  const int sb = toy_run("push-hold", sets, 1e-3, 300, "128", &rec_batch, &cb);
  const unsigned long done = toy_log.steps_done;
  cr_assert_eq(sb, FB_BUDGET);
  cr_assert_eq(done, 300, "the engine stepped %lu times for a budget of 300", done);
  cr_assert_eq(toy_run("push-hold", sets, 1e-3, 300, "1", &rec_lock, &cl), FB_BUDGET);
  assert_same(&rec_batch, &rec_lock, &cb, &cl);
}

/* stick-slip: a spring to a moving point and a damper, f - D v - K x depends on the state:
 * never batched, whatever the batch size. */
Test(engine_batch, a_forcing_of_the_state_runs_lock_step)
{
  static const char *const sets[] = {"T=0.5", NULL};
  fb_counters cb, cl;
  cr_assert_eq(toy_run("stick-slip", sets, 1e-3, 1000000, NULL, &rec_batch, &cb), FB_OK);
  cr_assert_eq(toy_log.steps_calls, 0, "stick-slip batched %lu times", toy_log.steps_calls);
  cr_assert_eq(toy_log.step_calls, cb.nsteps);
  cr_assert_eq(toy_run("stick-slip", sets, 1e-3, 1000000, "1", &rec_lock, &cl), FB_OK);
  assert_same(&rec_batch, &rec_lock, &cb, &cl);
}

/* The rule itself: a force of t only (push-hold) yes; a spring K x (preload-hold), a spring
 * and a damper (stick-slip) no. */
Test(engine_batch, batchable_says_yes_to_a_force_of_t_and_no_to_springs)
{
  static const struct {
    const char *scenario;
    int yes;
  } cases[] = {{"push-hold", 1}, {"inclined-block", 1}, {"stick-slip", 0}, {"preload-hold", 0}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    fb_case c;
    fb_err err = {{0}};
    cr_assert_eq(fb_case_init(&c, cases[k].scenario, "switching", NULL, &err), FB_OK, "%s",
                 err.msg);
    cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
    cr_assert_eq(fb_engine_batchable(&c.sc.plant), cases[k].yes, "%s", cases[k].scenario);
    fb_case_free(&c);
  }
}

/* A bad FRICBENCH_ENGINE_BATCH is refused, naming the value and what is allowed. */
Test(engine_batch, a_bad_batch_size_is_refused)
{
  static const char *const sets[] = {"t_on=0.005", "T=0.01", NULL};
  fb_case c;
  fb_err err = {{0}};
  cr_assert_eq(fb_case_init(&c, "push-hold", "switching", NULL, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], &err), FB_OK, "%s", err.msg);
  c.opts.h = 1e-3;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_model md = {.type = &toy_model};
  fb_problem pb;
  fb_problem_init(&pb, &c.sc.plant, &md);
  pb.scenario = "push-hold";
  void *ws = NULL;
  setenv("FRICBENCH_ENGINE_BATCH", "0", 1);
  const int st = toy_stepper.alloc(&ws, &toy_stepper, &pb, &c.opts, &err);
  unsetenv("FRICBENCH_ENGINE_BATCH");
  cr_assert_eq(st, FB_EINVAL);
  cr_assert(strstr(err.msg, "FRICBENCH_ENGINE_BATCH=0") != NULL && strstr(err.msg, "1024"),
            "%s", err.msg);
  fb_case_free(&c);
}
