/* fb_report.h — plots (gnuplot scripts in scripts/) and the one-page report.html, made from
 * the files a suite wrote into a results directory (runs.csv, orders.csv, traj/,
 * meta.json), never from in-memory state, so `merge` and re-plotting use the same path.
 *
 * Outputs (all written under a temporary name and renamed on success):
 *   DIR/plots/<name>.png and .svg   one pair per plot (list in results/README.md)
 *   DIR/plots/data/<name>.dat       the numbers each plot was drawn from (trajectory
 *                                   overlays read DIR/traj/ directly)
 *   DIR/report.html                 self-contained (PNGs embedded as data URIs) with the
 *                                   sections #run #verdicts #plots #omissions #numbers
 *
 * gnuplot is run as a child process (`gnuplot` on PATH) on the scripts found by
 * fb_scripts_dir (fb_paths.h): $FRICBENCH_SCRIPTS, the install prefix's
 * share/fricbench, or the sources' scripts/ for the uninstalled build.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stddef.h>

#include "fb_status.h"

/* Write DIR/plots/ (PNG and SVG per plot, with the data files they were drawn from) and
 * DIR/report.html, with at most `jobs` gnuplot processes at once (0: the machine's
 * cores; the suite's --jobs).  Returns FB_OK, or a failure with err set: FB_EIO when
 * runs.csv is missing or unreadable, gnuplot is not installed, the scripts are not found,
 * an output cannot be written, or a plot failed (the report is still written then,
 * naming the plots that failed). */
int fb_report_make(const char *dir, size_t jobs, fb_err *err);

/* The verdicts (bench/analysis/fb_verdicts.h) are computed by the suite and merge into
 * DIR/verdicts.csv; the report draws its verdict table from that file. */
#endif
