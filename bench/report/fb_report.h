/* fb_report.h — plots (gnuplot scripts in scripts/) and the one-page report.html, made from
 * the files a suite wrote into a results directory (runs.csv, orders.csv, traj/,
 * meta.json), never from in-memory state, so `merge` and re-plotting use the same path.
 *
 * Outputs (all written under a temporary name and renamed on success):
 *   DIR/plots/<name>.png            one per plot (list in results/README.md)
 *   DIR/plots/<name>.svg            only after fb_report_set_svg(1) (suite/merge --svg),
 *                                   not for trajectory overlays
 *   DIR/plots/data/<name>.dat.gz    the numbers each plot was drawn from, gzip (trajectory
 *                                   overlays read DIR/traj/ directly)
 *   DIR/report.html                 the page, with the sections #run #verdicts #plots
 *                                   #omissions #numbers; it shows plots/<name>.png by
 *                                   relative links (embedding them doubled the
 *                                   directory's images: 9.6 of 38 MB), so it is read in
 *                                   its directory
 *
 * gnuplot is run as a child process (`gnuplot` on PATH) on the scripts found by
 * fb_scripts_dir (fb_paths.h): $FRICBENCH_SCRIPTS, the install prefix's
 * share/fricbench, or the sources' scripts/ for the uninstalled build.
 */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include <stddef.h>

#include "fb_status.h"

/* Whether the reports of this process draw SVGs too (default 0: PNGs only).  Set it
 * before any report or suite starts (read by the drawing threads, never locked). */
void fb_report_set_svg(int on);

/* Write DIR/plots/ (PNG and SVG per plot, with the data files they were drawn from) and
 * DIR/report.html, with at most `jobs` gnuplot processes at once (0: the machine's
 * cores; the suite's --jobs).  Returns FB_OK, or a failure with err set: FB_EIO when
 * runs.csv is missing or unreadable, gnuplot is not installed, the scripts are not found,
 * an output cannot be written, or a plot failed (the report is still written then,
 * naming the plots that failed). */
int fb_report_make(const char *dir, size_t jobs, fb_err *err);

/* Plots drawn before the report, while the suite's runs still go: a plot whose runs are
 * all done is handed to gnuplot at once instead of waiting for the whole run phase (with
 * --jobs 2 on a loaded host the plots' tail, run after the last run, took as long as the
 * runs).  The trajectory overlays (group "baseline", one per scenario) and the grid
 * plots (group "grid") qualify: they read nothing but their own rows of runs.csv and
 * trajectory files written before (the other plots read orders.csv, fitted after all
 * runs, or rows of several groups), and they are most of gnuplot's time (PNGs of up to
 * ~20 series of 2001 points each).
 * The report then takes the early plot as drawn (its file, reading and status) in its
 * place: report.html and the plots are the same as when drawn at the end. */
typedef struct fb_report_early fb_report_early;

fb_report_early *fb_report_early_new(void); /* NULL: out of memory */
void fb_report_early_free(fb_report_early *e);
/* Whether the runs of `group` feed plots that can be drawn early: 0 no, 1 one plot per
 * scenario (its rows of that group and scenario), 2 plots of the whole group. */
int fb_report_early_group(const char *group);
/* Draw the early plot of (group, scenario) from runs_csv[0 .. len), the text of
 * runs.csv's header and at least every row of that group (and scenario, for a group of
 * kind 1; scenario is then ignored for kind 2), exactly as the
 * suite will write them; one gnuplot process at a time, and it returns when that ends
 * (the calling thread stands for one busy process).  Thread-safe: several threads may
 * draw different plots at once into the same e.  A plot that cannot be drawn here (no
 * gnuplot, an unwritable file) is left to the report, which reports it as it would. */
void fb_report_early_draw(fb_report_early *e, const char *dir, const char *group,
                          const char *scenario, const char *runs_csv, size_t len);
/* fb_report_make, taking the plots of `early` (may be NULL) as drawn. */
int fb_report_make_early(const char *dir, size_t jobs, fb_report_early *early, fb_err *err);

/* The verdicts (bench/analysis/fb_verdicts.h) are computed by the suite and merge into
 * DIR/verdicts.csv; the report draws its verdict table from that file. */
#endif
