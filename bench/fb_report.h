/* fb_report.h — plots (gnuplot scripts in scripts/) and the one-page report.html, made from
 * the files a suite wrote into a results directory (runs.csv, orders.csv, traj/,
 * meta.json), never from in-memory state, so `merge` and re-plotting use the same path. */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include "fb_status.h"

/* Write DIR/plots/ (PNG and SVG per plot, with the data files they were drawn from) and
 * DIR/report.html.  Returns FB_OK or a failure with err set. */
int fb_report_make(const char *dir, fb_err *err);

#endif
