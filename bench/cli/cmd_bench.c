/* cmd_bench.c — `fricbench bench`: the cost of one step through fricbench's machinery
 * against a hand-written loop of the same method and the same friction law.
 *
 * For every ODE model (caps FB_MODEL_ODE) on `stick-slip`
 *     y'' + 2 D y' + F(y', z) + y = A cos(omega t)      (m = 1, k = 1, N = 1, Coulomb)
 * under fixed-step `rk4` (classical RK4, 4 RHS per step), it times
 *   - fricbench: fb_case_run, i.e. the integrator contract, the GSL system callback, the
 *     plant and the model's force() through their function pointers, the per-step
 *     budget/finiteness checks and the recorder filling a 1001-point output grid;
 *   - the loop: a plain RK4 loop written here, with the scenario's forcing and the model's
 *     force law inlined (a function per model, nothing of fricbench called in the loop;
 *     the resolved parameter values and the initial state are read once, before timing).
 * Both are run alternately (the order flips every repeat, so a slow drift of the
 * machine's speed hits both alike), `repeats` times each, in this process, and the
 * medians are reported.  The loop evaluates every expression in the order fricbench
 * does (its last step lands on T as fricbench's does), so both must end in the same
 * state, bit for bit: the largest difference of the final states relative to their
 * largest component is reported, and one above 1e-12 fails the command (exit 1), since
 * then the two would not compute the same thing.
 * Model-owned schemes (glowinski-lie, switching's paper scheme, penalty's newmark,
 * kikuuwe-be's kbe-symplectic and kbe-relay, moreau-jean, tamsi)
 * have no hand-written twin: their ns per step is reported alone.
 *
 * Output: a table on stdout; with --out, CSV with the columns
 *   model,integrator,scenario,h,steps,ns_per_step,ns_per_rhs,loop_ns_per_step,
 *   loop_ns_per_rhs,ratio,max_rel_diff,repeats
 * (ns_per_step and loop_ns_per_step: medians over the repeats; ratio: the median over the
 * repeats of each round's ns_per_step / loop_ns_per_step, the two timed back to back;
 * NaN where there is no loop; an untimed first round warms both up).  A benchmark,
 * never a test: timings depend on the machine.  meson registers it with benchmark().
 * After the table (every model, or --model switching): bench_dop853.c's work-precision
 * section, rk8pd against dop853 inside the event-driven scheme, RHS at matched error.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fb_cli.h"
#include "fb_io.h"
#include "fb_metrics.h"
#include "fb_plan.h"
#include "fb_suite.h"
#include "fb_run.h"
#include "fb_parse.h"

#define BENCH_MAX_REPEATS 101
/* Steps per run: below, the timer's resolution dominates; above, one bench takes hours
 * (and 4 N + 16, the step budget, must not wrap). */
#define BENCH_MIN_STEPS 1000UL
#define BENCH_MAX_STEPS 100000000UL

/* ---- the hand-written twin ------------------------------------------------------------ */

/* Plain numbers of one case: the plant of stick-slip and the model's resolved law. */
typedef struct loop_params {
  double A, omega, D2, K, Minv; /* forcing, damping 2D, stiffness, 1/m */
  double S;                     /* friction level N mu (Coulomb: constant) */
  double p1, p2, p3, p4;        /* the model's parameters, see each law */
} loop_params;

static inline double l_sgn(double v) { return (v > 0.0) - (v < 0.0); }
static inline double l_sat(double z) { return z > 1.0 ? 1.0 : (z < -1.0 ? -1.0 : z); }
static inline double l_clamp(double z, double r) { return z > r ? r : (z < -r ? -r : z); }

/* Plant part of v' with the friction force F (same operation order as the plant's). */
static inline double l_accel(const loop_params *P, double t, double x, double v, double F)
{
  double f = P->A * cos(P->omega * t);
  f -= 0.0 + P->D2 * v;
  f -= 0.0 + P->K * x;
  f += F;
  return P->Minv * f;
}

/* naive-sign: F = -S sgn(v). */
static inline void rhs_naive(const loop_params *P, double t, const double *y, double *dy)
{
  const double F = -P->S * l_sgn(y[1]);
  dy[0] = y[1];
  dy[1] = l_accel(P, t, y[0], y[1], F);
}

/* smooth-sign, phi = tanh: F = -S tanh(v / eps_v); p1 = eps_v. */
static inline void rhs_smooth(const loop_params *P, double t, const double *y, double *dy)
{
  const double F = -P->S * tanh(y[1] / P->p1);
  dy[0] = y[1];
  dy[1] = l_accel(P, t, y[0], y[1], F);
}

/* kikuuwe: F = -S sat((K e + B v)/S), e' = -(K e + F)/B; p1 = K, p2 = B. */
static inline void rhs_kikuuwe(const loop_params *P, double t, const double *y, double *dy)
{
  const double v = y[1], e = y[2], s = P->p1 * e + P->p2 * v;
  const double F = P->S <= 0.0 ? 0.0 : -P->S * l_sat(s / P->S);
  dy[0] = v;
  dy[1] = l_accel(P, t, y[0], v, F);
  dy[2] = -(P->p1 * e + F) / P->p2;
}

/* lugre and dahl: z' = v - sigma0 |v| z / S, F = -(sigma0 z + sigma1 z' + sigma2 v);
 * p1..p3 = sigma0..sigma2 (dahl: sigma1 = sigma2 = 0). */
static inline void rhs_lugre(const loop_params *P, double t, const double *y, double *dy)
{
  const double v = y[1], z = y[2];
  const double zd = P->S > 0.0 ? v - P->p1 * fabs(v) * z / P->S : 0.0;
  const double F = -(P->p1 * z + P->p2 * zd + P->p3 * v);
  dy[0] = v;
  dy[1] = l_accel(P, t, y[0], v, F);
  dy[2] = zd;
}

/* penalty, rate form: H' = -cT v unless |H| >= S and H v < 0; F = clamp(H - dT v, S);
 * p1 = cT, p2 = dT. */
static inline void rhs_penalty(const loop_params *P, double t, const double *y, double *dy)
{
  const double v = y[1], H = y[2];
  dy[2] = (fabs(H) >= P->S && H * v < 0.0) ? 0.0 : -P->p1 * v;
  const double F = l_clamp(H - P->p2 * v, P->S);
  dy[0] = v;
  dy[1] = l_accel(P, t, y[0], v, F);
}

/* Classical RK4, t_k = k h, increments summed as rk4_lean.c does; the last step ends
 * exactly at T = N h (rounded), as fricbench's fixed-step driver lands on T. */
#define LOOP_RK4(name, rhs, DIM)                                                            \
  static void name(const loop_params *P, double hh, unsigned long nsteps, double *y)       \
  {                                                                                         \
    double k[DIM], acc[DIM], yt[DIM];                                                       \
    const double T = hh * (double)nsteps;                                                   \
    double t = 0.0;                                                                         \
    for (unsigned long s = 0; s < nsteps; s++) {                                            \
      const double h = s + 1 < nsteps ? hh : T - t;                                         \
      const double h2 = 0.5 * h, h3 = h / 3.0, h6 = h / 6.0;                                \
      rhs(P, t, y, k);                                                                      \
      for (int i = 0; i < DIM; i++) {                                                       \
        acc[i] = y[i] + h6 * k[i];                                                          \
        yt[i] = y[i] + h2 * k[i];                                                           \
      }                                                                                     \
      rhs(P, t + h2, yt, k);                                                                \
      for (int i = 0; i < DIM; i++) {                                                       \
        acc[i] += h3 * k[i];                                                                \
        yt[i] = y[i] + h2 * k[i];                                                           \
      }                                                                                     \
      rhs(P, t + h2, yt, k);                                                                \
      for (int i = 0; i < DIM; i++) {                                                       \
        acc[i] += h3 * k[i];                                                                \
        yt[i] = y[i] + h * k[i];                                                            \
      }                                                                                     \
      rhs(P, t + h, yt, k);                                                                 \
      for (int i = 0; i < DIM; i++)                                                         \
        y[i] = acc[i] + h6 * k[i];                                                          \
      t = (double)(s + 1) * hh;                                                             \
    }                                                                                       \
  }

LOOP_RK4(loop_naive, rhs_naive, 2)
LOOP_RK4(loop_smooth, rhs_smooth, 2)
LOOP_RK4(loop_kikuuwe, rhs_kikuuwe, 3)
LOOP_RK4(loop_lugre, rhs_lugre, 3)
LOOP_RK4(loop_penalty, rhs_penalty, 3)

typedef void (*loop_fn)(const loop_params *P, double h, unsigned long nsteps, double *y);

/* The twin of a model, by name, and its parameters (read once from the resolved model). */
typedef struct twin {
  const char *model;
  loop_fn run;
  const char *params[4]; /* names of p1..p4 in the model's parameter table */
} twin;

static const twin twins[] = {
    {"naive-sign", loop_naive, {NULL}},
    {"smooth-sign", loop_smooth, {"eps_v", NULL}},
    {"kikuuwe", loop_kikuuwe, {"K", "B", NULL}},
    {"lugre", loop_lugre, {"sigma0", "sigma1", "sigma2", NULL}},
    {"dahl", loop_lugre, {"sigma0", "sigma1", "sigma2", NULL}},
    {"penalty", loop_penalty, {"cT", "dT", NULL}},
};

static const twin *twin_find(const char *model)
{
  for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++)
    if (strcmp(twins[i].model, model) == 0)
      return &twins[i];
  return NULL;
}

/* Read the plain numbers of a prepared stick-slip case (setup only, never timed).  The
 * resolved struct of the model has no row for dahl's sigma1/sigma2 (fixed at 0 by the
 * model) or smooth-sign's phi, which must be tanh here. */
static int twin_params(const twin *tw, const fb_case *cs, loop_params *P, fb_err *err)
{
  const fb_plant *pl = &cs->sc.plant;
  const fb_model_type *mt = cs->md.type;
  const void *cp = fb_model_cparams(&cs->md, 0);
  const fb_param_desc *dA = fb_params_find(cs->sc.type->params, "A");
  const fb_param_desc *dw = fb_params_find(cs->sc.type->params, "omega");
  memset(P, 0, sizeof *P);
  if (dA == NULL || dw == NULL || pl->n != 1 || pl->nc != 1)
    return fb_err_set(err, FB_EINVAL, "bench: stick-slip is not the one-DOF plant it expects");
  P->A = fb_param_get(dA, cs->sc.params);
  P->omega = fb_param_get(dw, cs->sc.params);
  P->D2 = pl->D[0];
  P->K = pl->K[0];
  P->Minv = pl->Minv[0];
  fb_contact_in ci;
  double u;
  fb_contact_in_at(pl, 0, pl->t0, &ci, &u);
  P->S = ci.N * pl->contact[0].law.mu_s; /* Coulomb: mu(w) = mu_s */
  double *p[4] = {&P->p1, &P->p2, &P->p3, &P->p4};
  for (int i = 0; i < 4 && tw->params[i] != NULL; i++) {
    const fb_param_desc *d = fb_params_find(mt->params, tw->params[i]);
    /* dahl lists only sigma0: its sigma1 = sigma2 = 0 are fixed by the model */
    *p[i] = d != NULL ? fb_param_get(d, cp) : 0.0;
  }
  const fb_param_desc *phi = fb_params_find(mt->params, "phi");
  if (phi != NULL && fb_param_get(phi, cp) != 0.0)
    return fb_err_set(err, FB_EINVAL, "bench: smooth-sign's twin implements phi = tanh only");
  return FB_OK;
}

/* ---- timing ----------------------------------------------------------------------------- */

/* The calling thread's CPU time: on a shared machine (this project's VM has 2 cores and
 * other builds on them) wall time counts the time the thread waits descheduled, which
 * hits one side of a comparison or the other at random (ratios moved by 0.3 between
 * invocations under a load of 8); CPU time counts the code's own cost. */
static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

typedef struct bench_row {
  const char *model, *integrator;
  double h;
  unsigned long steps, nfe;
  double ns_step, ns_rhs, loop_ns_step, loop_ns_rhs, ratio, max_rel;
  int status;
  char message[FB_ERR_LEN];
} bench_row;

typedef struct bench_opts {
  unsigned long steps;
  unsigned long repeats;
  double h;
  /* --scenario S: the user's case, every model at its fixed-step integrator over the
   * scenario's own span, with the settings that fit it (NULL: stick-slip vs the loop) */
  const char *scenario;
  const char *const *sets;
  size_t nsets;
} bench_opts;

/* One model x integrator: prepare once, then time fricbench and (if a twin exists) the
 * loop alternately. */
static void bench_one(bench_row *row, const char *model, const char *integ, const bench_opts *o)
{
  fb_err err = {{0}};
  fb_case cs;
  fb_trace tr = {0};
  char T[64];
  memset(row, 0, sizeof *row);
  row->model = model;
  row->integrator = integ;
  row->h = o->h;
  row->ns_step = row->ns_rhs = row->loop_ns_step = row->loop_ns_rhs = NAN;
  row->ratio = row->max_rel = NAN;
  snprintf(T, sizeof T, "T=%.17g", o->h * (double)o->steps);
  const char *scen = o->scenario != NULL ? o->scenario : "stick-slip";
  int st = fb_case_init(&cs, scen, model, integ, &err);
  if (st != FB_OK) {
    row->status = st;
    snprintf(row->message, sizeof row->message, "%s", err.msg);
    return;
  }
  cs.opts.h = o->h;
  cs.opts.max_steps = 4 * o->steps + 16;
  cs.opts.max_rhs = 64 * o->steps + 64;
  if (o->scenario == NULL) {
    st = fb_case_set(&cs, T, &err);
  } else { /* the user's case: its span, its settings, the default budgets */
    cs.opts.max_steps = FB_DEFAULT_MAX_STEPS;
    cs.opts.max_rhs = FB_DEFAULT_MAX_RHS;
    for (size_t k = 0; k < o->nsets && st == FB_OK; k++)
      if (fb_set_fits(o->sets[k], cs.sc.type, cs.md.type) == 1)
        st = fb_case_set(&cs, o->sets[k], &err);
  }
  if (st == FB_OK)
    st = fb_case_prepare(&cs, &err);
  const fb_plant *pl = &cs.sc.plant;
  if (st == FB_OK)
    st = fb_trace_alloc(&tr, cs.samples, pl->n, pl->nc, cs.md.type->nz);
  const twin *tw = twin_find(model);
  loop_params P;
  double y0[8] = {0}, yl[8];
  const size_t dim = cs.pb.dim;
  if (st == FB_OK && tw != NULL && (strcmp(integ, "rk4") != 0 || dim > 8 || o->scenario))
    tw = NULL;
  if (st == FB_OK && tw != NULL) {
    st = twin_params(tw, &cs, &P, &err);
    if (st == FB_OK)
      st = fb_problem_initial_state(&cs.pb, y0);
  }
  double fb_ns[BENCH_MAX_REPEATS + 1], lp_ns[BENCH_MAX_REPEATS + 1], pair[BENCH_MAX_REPEATS];
  fb_run_result res;
  /* Round 0 warms both sides up (caches, branch predictors, the CPU's clock leaving an
   * idle state: the first model timed used to read 20-40% slower than when timed alone)
   * and is not counted. */
  for (unsigned long r = 0; st == FB_OK && r <= o->repeats; r++) {
    for (int turn = 0; turn < 2 && st == FB_OK; turn++) {
      const int loop_turn = (int)((r + (unsigned long)turn) % 2); /* alternate who goes first */
      if (loop_turn) {
        if (tw == NULL)
          continue;
        memcpy(yl, y0, dim * sizeof(double));
        const double t0 = now_ns();
        tw->run(&P, o->h, o->steps, yl);
        lp_ns[r] = now_ns() - t0;
      } else {
        const double t0 = now_ns();
        st = fb_case_run(&cs, &tr, NULL, &res);
        fb_ns[r] = now_ns() - t0;
        if (st != FB_OK)
          snprintf(err.msg, sizeof err.msg, "%s", res.message);
      }
    }
  }
  if (st == FB_OK) {
    row->steps = res.cnt.nsteps;
    row->nfe = res.cnt.nfe;
    const double med = fb_median(fb_ns + 1, o->repeats);
    row->ns_step = med / (double)res.cnt.nsteps;
    row->ns_rhs = res.cnt.nfe ? med / (double)res.cnt.nfe : (double)NAN;
    if (tw != NULL) {
      const double lmed = fb_median(lp_ns + 1, o->repeats);
      row->loop_ns_step = lmed / (double)o->steps;
      row->loop_ns_rhs = lmed / (4.0 * (double)o->steps);
      /* The ratio of each round's pair (timed back to back), then their median: a change
       * of the machine's speed between rounds cancels within a pair, where it would
       * move one of two separate medians and not the other. */
      for (unsigned long r = 1; r <= o->repeats; r++)
        pair[r - 1] = (fb_ns[r] / (double)res.cnt.nsteps) / (lp_ns[r] / (double)o->steps);
      row->ratio = fb_median(pair, o->repeats);
      /* final states: the last grid sample is the state at T */
      const double *yf = tr.y + (tr.filled - 1) * tr.dim;
      double mx = 0.0, scale = 1e-300;
      for (size_t i = 0; i < dim; i++)
        scale = fmax(scale, fabs(yl[i]));
      for (size_t i = 0; i < dim; i++)
        mx = fmax(mx, fabs(yf[i] - yl[i]) / scale);
      row->max_rel = mx;
      if (res.cnt.nsteps != o->steps || !(mx <= 1e-12)) { /* stick-slip's twin only */
        st = FB_EINVAL;
        snprintf(err.msg, sizeof err.msg,
                 "fricbench and the hand-written loop disagree: %lu vs %lu steps, final states "
                 "differ by %.3g (relative)",
                 res.cnt.nsteps, o->steps, mx);
      }
    }
  }
  row->status = st;
  if (st != FB_OK)
    snprintf(row->message, sizeof row->message, "%s", err.msg);
  fb_trace_free(&tr);
  fb_case_free(&cs);
}

static void csv_num(FILE *fp, double v)
{
  if (isnan(v))
    fputs(",nan", fp);
  else
    fprintf(fp, ",%.6g", v);
}

static const char bench_help[] =
    "usage: fricbench bench [--out FILE.csv] [--model M]... [--steps N] [--repeats N] [--h H]\n"
    "       fricbench bench --scenario S [--set NAME=VALUE]... [--h H] [--model M]...\n"
    "       fricbench bench --chain [--out FILE.csv]\n"
    "\n"
    "Times one step through fricbench's machinery against a hand-written RK4 loop of the\n"
    "same friction law, compiled into this binary and timed in this process: every ODE\n"
    "model on stick-slip under fixed-step rk4, alternating runs, medians of the repeats;\n"
    "and ns per step of the model-owned schemes glowinski-lie, paper (switching),\n"
    "newmark (penalty), kbe-symplectic and kbe-relay (kikuuwe-be), moreau-jean and tamsi.\n"
    "Both must end in the same state (checked, exit 1 if not).\n"
    "Prints a table; --out also writes CSV (columns model,integrator,scenario,h,steps,\n"
    "ns_per_step,ns_per_rhs,loop_ns_per_step,loop_ns_per_rhs,ratio,max_rel_diff,repeats).\n"
    "Times are the thread's CPU time.  A benchmark: run it on an otherwise idle machine.\n"
    "Then (every model, or --model switching) the work and precision of the event-driven\n"
    "scheme on stick-slip with rk8pd and with dop853 inside: RHS evaluations at matched\n"
    "error 1e-8 .. 1e-12 and their ratio dop853/rk8pd (counts, not times).\n"
    "Then (every model, or --model lugre; in a build with SUNDIALS) CVODE's BDF against\n"
    "msbdf on the stiff LuGre drift: RHS evaluations and CPU time at matched error 1e-5 ..\n"
    "1e-9 and their ratios cvode-bdf/msbdf (docs/integrators/sundials.md).\n"
    "\n"
    "  -o, --out FILE   CSV output (written atomically)\n"
    "  -m, --model M    only model M (repeatable; default: every model)\n"
    "      --steps N    steps per run (default 1000000, 1000 to 100000000)\n"
    "      --repeats N  timed runs of each side (default 5, 1..101)\n"
    "      --h H        the fixed step (default 1e-5, so that rk4 is stable on every model,\n"
    "                   LuGre's bristles included); T = N H\n"
    "      --scenario S the user's case: every model (or --model) at its fixed-step\n"
    "                   integrator (fricbench list models) at --h (default 1e-3) over S's\n"
    "                   own span, with the --set settings that fit it; no loop twin\n"
    "      --set NAME=VALUE a parameter of S or of the models (repeatable)\n"
    "      --chain      only the chain's ns per step at n = 10, 100, 1000, 10000 (store=banded,\n"
    "                   200 steps, median of 3) with the ratios and the growth exponent for\n"
    "                   every treatment of a banded plant (docs/scenarios/chain.md); plain\n"
    "                   `bench` prints that table last; --out: its CSV (model,integrator,h,n,\n"
    "                   ns_per_step,ratio_to_n10)\n"
    "  -h, --help       this help\n";

static int wanted(const char *const *only, size_t n, const char *model)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(only[i], model) == 0)
      return 1;
  return n == 0;
}

/* --steps or --repeats (option letter c) VALUE into *out.  FB_EXIT_OK, or FB_EXIT_USAGE
 * said; the message names the option, not argv[optind - 1], which is the value for
 * "--steps N". */
static int bench_count_option(int c, const char *arg, unsigned long *out)
{
  unsigned long v;
  if (fb_parse_ulong(arg, &v) != FB_OK ||
      (c == 'n' && (v < BENCH_MIN_STEPS || v > BENCH_MAX_STEPS)) ||
      (c == 'r' && (v < 1 || v > BENCH_MAX_REPEATS))) {
    char typed[80];
    fb_text_escape(arg, typed, sizeof typed);
    fprintf(stderr, "fricbench: %s '%s' is not allowed: use an integer in [%lu, %lu]\n",
            c == 'n' ? "--steps" : "--repeats", typed,
            c == 'n' ? BENCH_MIN_STEPS : 1UL,
            c == 'n' ? BENCH_MAX_STEPS : (unsigned long)BENCH_MAX_REPEATS);
    return FB_EXIT_USAGE;
  }
  *out = v;
  return FB_EXIT_OK;
}

/* Each --set must fit the scenario or a selected model, as suite --set.  FB_EXIT_OK, or
 * FB_EXIT_USAGE said. */
static int bench_sets_fit(const bench_opts *o, const char *const *only, size_t nonly)
{
  for (size_t k = 0; k < o->nsets; k++) {
    int fits = 0;
    const fb_scenario_type *stype = fb_scenario_find(o->scenario);
    for (size_t m = 0; fb_model_at(m) != NULL && !fits; m++)
      fits = wanted(only, nonly, fb_model_at(m)->name) &&
             fb_set_fits(o->sets[k], stype, fb_model_at(m)) != 0;
    if (!fits) {
      fprintf(stderr, "fricbench: --set %s fits neither scenario %s nor a selected model "
                      "(see 'fricbench list')\n", o->sets[k], o->scenario);
      return FB_EXIT_USAGE;
    }
  }
  return FB_EXIT_OK;
}

/* The table on stdout; FB_EXIT_RUNTIME when a row failed. */
static int bench_print(const bench_row *rows, size_t nr, const bench_opts *o)
{
  int rc = FB_EXIT_OK;
  if (o->scenario != NULL)
    printf("fricbench bench: %s, fixed h = %g over the scenario's span, each model's "
           "fixed-step integrator, median of %lu runs\n", o->scenario, o->h, o->repeats);
  else
    printf("fricbench bench: stick-slip, fixed h = %g, %lu steps, median of %lu alternating "
           "runs after a warm-up; ratio: median of the %lu paired ratios\n", o->h, o->steps,
           o->repeats, o->repeats);
  printf("%-14s %-14s %11s %10s %11s %10s %7s %9s\n", "model", "integrator", "ns/step",
         "ns/rhs", "loop ns/st", "loop ns/rhs", "ratio", "rel.diff");
  for (size_t i = 0; i < nr; i++) {
    const bench_row *b = &rows[i];
    if (b->status != FB_OK) {
      printf("%-14s %-14s failed: %s\n", b->model, b->integrator, b->message);
      rc = FB_EXIT_RUNTIME;
      continue;
    }
    printf("%-14s %-14s %11.1f %10.1f %11.1f %10.1f %7.3f %9.2g\n", b->model, b->integrator,
           b->ns_step, b->ns_rhs, b->loop_ns_step, b->loop_ns_rhs, b->ratio, b->max_rel);
  }
  return rc;
}

/* The rows as CSV into the --out file, committed. */
static int bench_write(fb_outfile *of, const bench_row *rows, size_t nr, const bench_opts *o,
                       fb_err *err)
{
  fputs("model,integrator,scenario,h,steps,ns_per_step,ns_per_rhs,loop_ns_per_step,"
        "loop_ns_per_rhs,ratio,max_rel_diff,repeats\n",
        of->fp);
  for (size_t i = 0; i < nr; i++) {
    const bench_row *b = &rows[i];
    fprintf(of->fp, "%s,%s,%s", b->model, b->integrator,
            o->scenario != NULL ? o->scenario : "stick-slip");
    csv_num(of->fp, b->h);
    fprintf(of->fp, ",%lu", b->steps);
    csv_num(of->fp, b->ns_step);
    csv_num(of->fp, b->ns_rhs);
    csv_num(of->fp, b->loop_ns_step);
    csv_num(of->fp, b->loop_ns_rhs);
    csv_num(of->fp, b->ratio);
    csv_num(of->fp, b->max_rel);
    fprintf(of->fp, ",%lu\n", o->repeats);
  }
  return fb_outfile_commit(of, err);
}

/* After the table: the work-precision sections of bench_dop853.c (every model, or
 * --model switching) and bench_sundials.c (every model, or --model lugre), and the chain's
 * cost against n (bench_chain.c; every model, or --model moreau-jean).  FB_EXIT_OK (0) or
 * FB_EXIT_RUNTIME (1). */
static int bench_sections(const bench_opts *o, const char *const *only, size_t nonly)
{
  if (o->scenario != NULL)
    return FB_EXIT_OK;
  int rc = FB_EXIT_OK;
  if (wanted(only, nonly, "switching") && fb_bench_dop853(stdout) != FB_EXIT_OK)
    rc = FB_EXIT_RUNTIME;
  if (wanted(only, nonly, "lugre") && fb_bench_sundials(stdout) != FB_EXIT_OK)
    rc = FB_EXIT_RUNTIME;
  /* the chain's cost against n (bench/cli/bench_chain.c; its CSV: bench --chain --out) */
  if (wanted(only, nonly, "moreau-jean") && fb_bench_chain(NULL, 200, 3) != 0)
    rc = FB_EXIT_RUNTIME;
  return rc;
}

/* --set needs --scenario; the user's case defaults to h = 1e-3 and its sets must fit. */
static int bench_check_user_case(bench_opts *o, int have_h, const char *const *only, size_t nonly)
{
  if (o->nsets > 0 && o->scenario == NULL) {
    fputs("fricbench: bench --set needs --scenario S (the user's case)\n", stderr);
    return FB_EXIT_USAGE;
  }
  if (o->scenario != NULL) {
    if (!have_h)
      o->h = 1e-3;
    if (bench_sets_fit(o, only, nonly) != FB_EXIT_OK)
      return FB_EXIT_USAGE;
  }
  return FB_EXIT_OK;
}

/* bench --chain: the chain's cost against n only (bench/cli/bench_chain.c), its CSV to of. */
static int bench_chain_only(fb_outfile *of)
{
  fb_err err = {{0}};
  const int rc = fb_bench_chain(of != NULL ? of->fp : NULL, 200, 3);
  if (of != NULL && fb_outfile_commit(of, &err) != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return FB_EXIT_RUNTIME;
  }
  return rc ? FB_EXIT_RUNTIME : FB_EXIT_OK;
}

int fb_cmd_bench(int argc, char **argv)
{
  static const struct option opts[] = {
      {"out", required_argument, NULL, 'o'},   {"steps", required_argument, NULL, 'n'},
      {"repeats", required_argument, NULL, 'r'}, {"h", required_argument, NULL, 'H'},
      {"model", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'},
      {"scenario", required_argument, NULL, 's'}, {"set", required_argument, NULL, 'S'},
      {"chain", no_argument, NULL, 'C'}, {NULL, 0, NULL, 0},
  };
  bench_opts o = {1000000, 5, 1e-5, NULL, NULL, 0};
  const char *sets[64];
  int have_h = 0, chain_only = 0;
  const char *out = NULL;
  const char *only[64];
  size_t nonly = 0;
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:m:h", opts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case 'C': chain_only = 1; break;
    case 's':
      if (fb_scenario_find(optarg) == NULL) {
        fprintf(stderr, "fricbench: --scenario '%s' is not allowed: use a name of "
                        "'fricbench list scenarios'\n", optarg);
        return FB_EXIT_USAGE;
      }
      o.scenario = optarg;
      break;
    case 'S':
      if (o.nsets == sizeof sets / sizeof sets[0]) {
        fprintf(stderr, "fricbench: --set given more than %zu times\n", o.nsets);
        return FB_EXIT_USAGE;
      }
      sets[o.nsets++] = optarg;
      break;
    case 'm':
      if (fb_model_find(optarg) == NULL) {
        fprintf(stderr, "fricbench: --model '%s' is not allowed: use a name of "
                        "'fricbench list models'\n", optarg);
        return FB_EXIT_USAGE;
      }
      if (nonly == sizeof only / sizeof only[0]) {
        fprintf(stderr, "fricbench: --model given more than %zu times\n", nonly);
        return FB_EXIT_USAGE;
      }
      only[nonly++] = optarg;
      break;
    case 'h': fputs(bench_help, stdout); return FB_EXIT_OK;
    case 'n':
    case 'r':
      if (bench_count_option(c, optarg, c == 'n' ? &o.steps : &o.repeats) != FB_EXIT_OK)
        return FB_EXIT_USAGE;
      break;
    case 'H':
      if (fb_parse_double(optarg, &o.h) != FB_OK || !(o.h > 0)) {
        fprintf(stderr, "fricbench: --h '%s' is not allowed: use a finite number > 0\n", optarg);
        return FB_EXIT_USAGE;
      }
      have_h = 1;
      break;
    case ':':
      fprintf(stderr, "fricbench: option %s needs a value\n", argv[optind - 1]);
      return FB_EXIT_USAGE;
    default:
      fprintf(stderr, "fricbench: unknown option '%s' for bench: see 'fricbench bench --help'\n",
              argv[optind - 1]);
      return FB_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "fricbench: unexpected argument '%s' for bench: see 'fricbench bench --help'\n",
            argv[optind]);
    return FB_EXIT_USAGE;
  }
  o.sets = sets;
  if (bench_check_user_case(&o, have_h, only, nonly) != FB_EXIT_OK)
    return FB_EXIT_USAGE;
  fb_err err = {{0}};
  fb_outfile of = {0};
  if (out != NULL && fb_outfile_open(&of, out, "--out", &err) != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return FB_EXIT_USAGE;
  }
  if (chain_only)
    return bench_chain_only(out != NULL ? &of : NULL);
  bench_row rows[64];
  size_t nr = 0;
  if (o.scenario != NULL) /* the user's case: every model at its fixed-step integrator */
    for (size_t m = 0; fb_model_at(m) != NULL && nr < 64; m++) {
      const fb_model_type *mt = fb_model_at(m);
      if (wanted(only, nonly, mt->name))
        bench_one(&rows[nr++], mt->name, fb_model_fixed_step_integrator(mt), &o);
    }
  /* every ODE model under rk4, then the model-owned schemes */
  static const char *const owned[][2] = {
      {"glowinski", "glowinski-lie"}, {"switching", "paper"},     {"penalty", "newmark"},
      {"kikuuwe-be", "kbe-symplectic"}, {"kikuuwe-be", "kbe-relay"}, {"moreau-jean", "moreau-jean"},
      {"tamsi", "tamsi"}};
  for (size_t m = 0; o.scenario == NULL && fb_model_registry[m] != NULL && nr < 60; m++)
    if ((fb_model_registry[m]->caps & FB_MODEL_ODE) &&
        wanted(only, nonly, fb_model_registry[m]->name))
      bench_one(&rows[nr++], fb_model_registry[m]->name, "rk4", &o);
  for (size_t i = 0; o.scenario == NULL && i < sizeof owned / sizeof owned[0]; i++)
    if (wanted(only, nonly, owned[i][0]))
      bench_one(&rows[nr++], owned[i][0], owned[i][1], &o);
  int rc = bench_print(rows, nr, &o) | bench_sections(&o, only, nonly);
  if (out != NULL && bench_write(&of, rows, nr, &o, &err) != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    rc = FB_EXIT_RUNTIME;
  }
  return rc;
}
