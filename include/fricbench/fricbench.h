/* fricbench.h — the public API of libfricbench (docs/design.md §11).
 *
 *     cc my_sim.c $(pkg-config --cflags --libs fricbench)
 *
 * What an embedding simulator needs, all without a scenario or a plant:
 *  - a model by name: fb_model_find("kikuuwe"), fb_model_at(i) to list them;
 *  - its parameters by name: fb_model_init, fb_model_set(&m, "K", 1e4, &err),
 *    fb_model_get; the rows (unit, range, meaning) in m.type->params;
 *  - "auto" parameters from scales given directly: fb_model_resolve_scales with one
 *    fb_contact_scale {m, k, Fs, f_c, v_scale} per contact;
 *  - one contact's force and state rates (ODE family): fb_model_force, with
 *    fb_model_state_init for the initial states;
 *  - per-contact fixed steps for the schemes that really stick (fb_contact_step.h):
 *    fb_contact_step_find("relay"), fb_contact_stepper_init, fb_contact_step;
 *  - the helpers the built-in models use (fb_math.h: fb_sgn, fb_sat, fb_clamp, ...);
 *  - plugins: fb_plugin_load (fb_plugin.h), and the types a plugin fills
 *    (fb_model_type, fb_scenario_type, fb_param_set);
 *  - scenarios by name (fb_scenario_find, fb_scenario_at) and one whole case run as
 *    `fricbench run` runs it (fb_case_open ... fb_case_close, below).
 * Every function returns an fb_status (0 = FB_OK) and fills an fb_err with one line on
 * failure; none prints or exits.  Only these declarations (marked FB_API) are exported.
 */
#ifndef FRICBENCH_H
#define FRICBENCH_H

/* Bumped whenever a public struct (fb_model_type, fb_scenario_type, fb_param_desc,
 * fb_contact_in, ...) changes layout: a plugin built for another value is refused.  The
 * suite record (fb_model_suite) has its own, FB_SUITE_ABI_VERSION (fb_model_suite.h). */
#define FB_ABI_VERSION 10

#include <stdio.h>

#include "fb_api.h"
#include "fb_contact_step.h"
#include "fb_friction.h"
#include "fb_math.h"
#include "fb_model.h"
#include "fb_model_registry.h"
#include "fb_model_suite.h"
#include "fb_params.h"
#include "fb_plugin.h"
#include "fb_scenario.h"
#include "fb_status.h"

/* The library's version, e.g. "0.1.0". */
FB_API const char *fb_version(void);

/* ---- One case, as `fricbench run` runs it (scenario x model x integrator by name). */
typedef struct fb_case_handle fb_case_handle;

/* What a run did (the summary line of `fricbench run`). */
typedef struct fb_case_summary {
  int status;                        /* FB_OK, FB_BUDGET or a failure */
  char message[FB_ERR_LEN];          /* why, when not FB_OK */
  double t_reached;                  /* last good time (s) */
  unsigned long nsteps, nrejected;   /* accepted and rejected steps */
  unsigned long nfe, njac;           /* RHS and Jacobian evaluations */
  double wall_s;                     /* elapsed seconds of the integration */
} fb_case_summary;

/* Set up a case; integrator NULL = the model's default.  NULL with err naming what is
 * allowed on an unknown name. */
FB_API fb_case_handle *fb_case_open(const char *scenario, const char *model,
                                    const char *integrator, fb_err *err);
/* "NAME=VALUE" for a scenario or model parameter ("scenario.NAME" / "model.NAME"). */
FB_API int fb_case_assign(fb_case_handle *c, const char *assignment, fb_err *err);
/* A fixed step (atol, rtol NaN) or tolerances (step NaN; rtol NaN = atol); all NaN: the
 * model's default. */
FB_API int fb_case_stepping(fb_case_handle *c, double step, double atol, double rtol,
                            fb_err *err);
/* Prepare and run; the trajectory on `samples` grid points goes to csv as CSV (the
 * layout of `fricbench run`) unless csv is NULL.  Returns the run's status (FB_OK,
 * FB_BUDGET or a failure, with err set), or a setup failure. */
FB_API int fb_case_execute(fb_case_handle *c, size_t samples, FILE *csv, fb_case_summary *out,
                           fb_err *err);
FB_API void fb_case_close(fb_case_handle *c);

/* ---- Clients that drive fricbench as its command line does (the Python package,
 * python/fricbench; docs/design.md §11): the same functions make the CLI's output. */

/* The integrator `fricbench run` uses: the named one, or for a fixed step (fixed_step
 * != 0) without a name the suite's fixed-step view's choice on that scenario (*switched
 * = 1 when it is not the model's default, which cannot take a fixed step).  *chosen
 * NULL: the model's default.  FB_EINVAL naming the allowed ones when the choice cannot
 * take a fixed step; unknown names are left to fb_case_open. */
FB_API int fb_case_integrator_for(const char *scenario, const char *model,
                                  const char *integrator, int fixed_step, const char **chosen,
                                  int *switched, fb_err *err);
/* Run the case as `fricbench run --metrics` does: the suite's metrics of the run (against
 * the scenario's reference, runs.csv's definitions) as one JSON line to `metrics`, the
 * trajectory (all samples, `run`'s CSV layout) to csv unless NULL.  Returns FB_OK when the
 * metrics were computed; the run's own status is in out->status and in the JSON. */
FB_API int fb_case_execute_metrics(fb_case_handle *c, size_t samples, FILE *csv, FILE *metrics,
                                   fb_case_summary *out, fb_err *err);
/* Every model, scenario (with normal_contact true for those the contact scheme runs),
 * integrator (model: the owner of a model's own scheme, null for generic ones) and normal
 * treatment, each with its parameter rows (name, unit, doc, default, min, max, flags,
 * choices), as one JSON object: the data of `fricbench list --json`. */
FB_API int fb_catalog_json(FILE *fp, fb_err *err);

/* `fricbench compare A B`: what changed between two suite directories (docs/design.md
 * §10.9), the table or (json != 0) the JSON object of `compare --json` to out.
 * *regressions: how many changes are for the worse.  FB_EINVAL with the one-line reason
 * for a directory that is not a suite's or a malformed file, nothing written then. */
typedef struct fb_compare_opts {
  double rtol;      /* relative change beyond which a metric is rated (CLI default 0.1) */
  double time_rtol; /* the same for wall_s, cpu_s; < 0: timings not rated (default) */
  int json;         /* 1: the JSON object, 0: the table */
} fb_compare_opts;
FB_API int fb_compare_dirs(const char *a, const char *b, const fb_compare_opts *opts, FILE *out,
                           int *regressions, fb_err *err);

#endif
