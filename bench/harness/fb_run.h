/* fb_run.h — one case: a scenario, a model, an integrator, options; run it, record it.
 *
 * A case is set up by name (as the CLI and the suite do), parameters are assigned with
 * `NAME=VALUE` (scenario or model, `scenario.NAME` / `model.NAME` to disambiguate), then
 * prepared (plant built, model resolved, integrator checked) and run.  The trajectory
 * is recorded on a uniform output grid by interpolating between accepted steps, so the
 * recording never changes an adaptive run's step sequence: positions by quintic Hermite
 * (x, v, a at both ends), velocities and states by cubic Hermite (linear where a state
 * has no derivative), forces linearly.  At a forcing break each end of a step takes the
 * one-sided derivative of the piece the step lies in (steps land on breaks exactly).
 */
#ifndef FB_RUN_H
#define FB_RUN_H

#include <stdatomic.h>
#include <stdio.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_models.h"
#include "fb_scenario.h"

/* Samples on the uniform grid t_k = t0 + k (T - t0)/(ns - 1).
 * Streamed (fb_trace_alloc_stream): the arrays hold `cap` samples, sample k in slot
 * k - base; when they are full the recorder hands samples base .. filled - 2 to `sink`
 * (which writes them out) and keeps the last one (an event may replace it), so memory
 * does not grow with ns.  Otherwise (sink NULL) every sample stays, base is 0. */
typedef struct fb_trace fb_trace;
typedef int (*fb_trace_sink)(void *ctx, const fb_trace *tr, size_t from, size_t to);
struct fb_trace {
  size_t ns, dim, n, nc, nz; /* samples, state size, DOFs, contacts, states per contact */
  size_t filled;             /* samples written so far */
  double *t;                 /* ns (cap when streamed) */
  double *y;                 /* ns x dim: x, v, z */
  double *F;                 /* ns x nc: friction force on the body */
  int *stick;                /* ns x nc: 1 stick, 0 slip, -1 model has no flag */
  size_t cap, base;          /* streamed: slots, and the sample in slot 0 */
  fb_trace_sink sink;        /* NULL: not streamed */
  void *sink_ctx;
};

int fb_trace_alloc(fb_trace *tr, size_t ns, size_t n, size_t nc, size_t nz);
/* A streamed trace of ns samples holding at most cap (>= 2) at a time. */
int fb_trace_alloc_stream(fb_trace *tr, size_t ns, size_t cap, size_t n, size_t nc, size_t nz,
                          fb_trace_sink sink, void *ctx);
/* The CSV header of fb_trace_write_csv, and its rows for samples from .. to - 1 (held:
 * base <= from). */
int fb_trace_write_header(const fb_trace *tr, const char *const *z_names, FILE *fp);
int fb_trace_write_rows(const fb_trace *tr, size_t from, size_t to, FILE *fp);
void fb_trace_free(fb_trace *tr);
/* CSV with a header: t,x,v,F,<z>,stick for one DOF and contact; suffixed names
 * (x1..xn, v1..vn, F1..Fnc, <z>_1.., stick1..) otherwise. */
int fb_trace_write_csv(const fb_trace *tr, const char *const *z_names, FILE *fp);

typedef struct fb_run_result {
  int status;                /* FB_OK, FB_BUDGET or a failure */
  char message[FB_ERR_LEN];  /* why, when not FB_OK */
  double t_reached;          /* last good time */
  fb_counters cnt;
  double wall_s, cpu_s;      /* elapsed and CPU seconds of the integration: the thread's, plus
                                an out-of-process engine's (cpu_child_s) */
  double cpu_child_s;        /* of cpu_s, what an engine's own process spent (node) */
  double q_norm_err;         /* largest |‖Q‖ - 1| of the plant's attitude quaternions over
                                the reported states (NaN: the plant has none) */
} fb_run_result;

/* Limits on sizes given on the command line: a larger output grid would not fit in
 * memory (the trace holds ns x (1 + dim + nc) doubles), a larger budget could overflow
 * the counters' arithmetic (the suite's references get 50 x the budget). */
#define FB_MAX_SAMPLES 10000000UL
#define FB_MAX_BUDGET 1000000000000000UL
/* Floors of the step and the tolerances (fb_case_prepare): h >= FB_H_MIN_REL (T - t0),
 * rtol >= FB_RTOL_MIN, atol >= FB_ATOL_MIN. */
#define FB_H_MIN_REL 1e-12
#define FB_RTOL_MIN 1e-16
#define FB_ATOL_MIN 1e-300

typedef struct fb_case {
  fb_scenario sc;
  fb_model md;
  const fb_integrator_type *integ;
  fb_int_opts opts;
  size_t samples; /* output grid size (>= 2) */
  fb_problem pb;  /* valid after fb_case_prepare */
  /* Divergence bounds, set by fb_case_prepare from the scenario's scales: a run whose
   * |x_i| exceeds x_bound or |v_i| exceeds v_bound after an accepted step ends with
   * FB_EDIVERGE ("diverged: |v1| = ... > ... at t=...").  The scales: V = max(v_scale,
   * |v0|, |u(t0)|) + A (T - t0) with A = ||M^-1||_inf (|f(t0, x0, v0) - D v0 - K x0|_inf
   * + sum_i Fs_i), an acceleration bound from the initial forces and the friction
   * levels, and X = |x0|_inf + V (T - t0).  v_bound = V / sqrt(DBL_EPSILON) and
   * x_bound = X / sqrt(DBL_EPSILON) (about 6.7e7 times the scales): beyond them the
   * scenario's energy scale (1/2 m V^2, 1/2 k X^2) is below the round-off of the state's
   * energy, so the energy balance every friction law obeys (F v_r <= 0) can no longer
   * be resolved and the run's numbers carry no information about the scenario.  The
   * bound depends on neither the model nor the integrator. */
  double x_bound, v_bound;
  /* When not NULL, checked after every accepted step: a non-zero value stops the run
   * with FB_EINTR (the suite's interrupt: SIGINT/SIGTERM). */
  const atomic_int *cancel;
  /* Normal contacts (docs/design.md §12): `normal.NAME=VALUE` assignments kept until the
   * plant (and so the treatment) is built, and the integrator named on the command line
   * (a generic one becomes the contact scheme's inner stepper). */
  char nset[8][128];
  size_t nnset;
  int integ_named;
} fb_case;

/* What fricbench.h's fb_case_handle is (case_api.c, and the clients' calls of
 * bench/cli/client_api.c). */
struct fb_case_handle {
  fb_case c;
};

/* Set up a case from names; integrator NULL = the model's default.  Errors name what
 * is allowed. */
int fb_case_init(fb_case *c, const char *scenario, const char *model, const char *integrator,
                 fb_err *err);
/* Assign NAME=VALUE to the scenario's or the model's parameter; `normal.NAME=VALUE` to the
 * normal-contact treatment's (checked when the case is prepared). */
int fb_case_set(fb_case *c, const char *assignment, fb_err *err);
/* Build the plant, resolve the model, check the integrator options against the
 * problem (h in (0, T - t0], tol > 0, fixed/adaptive support, samples in [2,
 * FB_MAX_SAMPLES], a span T - t0 whose grid spacing and default step do not underflow)
 * and set the divergence bounds.  When neither h nor a
 * tolerance was chosen (opts.h NaN and opts.atol NaN), apply the model's default. */
int fb_case_prepare(fb_case *c, fb_err *err);
/* Run it.  tr (may be NULL) receives the samples; extra (may be NULL) is called after
 * every accepted step too.  Returns res->status: FB_OK, FB_BUDGET, or a failure with
 * res->message, e.g. FB_ENONFINITE "non-finite state at t=...", FB_EDIVERGE "diverged:
 * |x1| = ... > x_bound ... at t=...", FB_EGSL "gsl error <code> (<reason>) at t=...",
 * FB_EINTR when *cancel became non-zero. */
int fb_case_run(fb_case *c, fb_trace *tr, const fb_observer *extra, fb_run_result *res);
void fb_case_free(fb_case *c);
/* Whether the integrator takes the prepared case's problem at all: its alloc, then free,
 * without a step.  FB_OK, or the alloc's refusal with err set (FB_EUNSUP: a scheme that
 * cannot run this plant by construction, e.g. kbe-relay on a coupled mass matrix). */
int fb_case_accepts(fb_case *c, fb_err *err);

/* Seconds on a POSIX clock (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...). */
double fb_clock_s(int clock_id);

/* Comma-separated names of the registries, for error messages. */
void fb_names_models(char *buf, size_t len);
void fb_names_scenarios(char *buf, size_t len);
void fb_names_integrators(const fb_model_type *m, char *buf, size_t len);

#endif
