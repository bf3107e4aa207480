/* fb_pract_metrics.h — the metrics of the practitioners' questions (docs/design.md §6;
 * bench/analysis/pract_metrics.c): push_creep_v, slide_ratio, slide_ratio_max and
 * rest_energy_rise of fb_metrics, NaN where the plant does not pose the question.
 */
#ifndef FB_PRACT_METRICS_H
#define FB_PRACT_METRICS_H

#include "fb_metrics.h"
#include "fb_run.h"

/* Fill m's practitioner fields from the run's trace and the reference. */
void fb_pract_metrics(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                      fb_metrics *m);

#endif
