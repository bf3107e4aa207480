/* fb_run_metrics.h — one run's metrics as the suite computes them (docs/design.md §6, §8):
 * the scenario's Coulomb reference (shared with the suite), the model's own reference,
 * and `fricbench run --metrics`'s JSON object.
 */
#ifndef FB_RUN_METRICS_H
#define FB_RUN_METRICS_H

#include <stdio.h>

#include "fb_metrics.h"

/* The Coulomb reference of prepared case cs on a grid of ns samples: its closed form
 * sampled, or the switching model's event scheme at atol = rtol = 1e-12 (budgets 50 x
 * max_steps, max_rhs), with its stick spans.  *kind: FB_REF_EXACT, FB_REF_EVENT or
 * FB_REF_NONE on failure (msg says why).  ref->stick is allocated here; free with
 * fb_trace_free(&ref->tr) and fb_reference_free_spans. */
int fb_case_reference(const fb_case *cs, size_t ns, unsigned long max_steps,
                      unsigned long max_rhs, fb_reference *ref, fb_ref_kind *kind, char *msg,
                      size_t len);

/* Run prepared case cs into tr (allocated here, free with fb_trace_free) and compute the
 * suite's metrics against both references into m; res gets the run's status and cost.
 * The JSON object (one line) goes to fp.  FB_OK when the metrics could be computed (the
 * run's own status is in res and the JSON). */
int fb_case_run_metrics(fb_case *cs, fb_trace *tr, fb_run_result *res, FILE *fp, fb_err *err);

#endif
