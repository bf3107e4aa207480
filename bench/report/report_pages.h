/* report_pages.h — the page per scenario (report_pages.c) and its work-precision diagram
 * (report_wp_page.c); private to the report. */
#ifndef FB_REPORT_PAGES_H
#define FB_REPORT_PAGES_H

#include "report_int.h"

/* Cell `col` of runs.csv's row of run r ("" when the column is absent). */
const char *run_field(const runs *R, const run *r, const char *col);
/* One work-precision diagram plots/wp_<scenario> per scenario with a ladder (runs of one
 * treatment and variant that differ only in h or in the tolerance). */
int plot_wp_pages(report *rp, fb_err *err);
/* Whether scenario scn has such a ladder. */
int wp_page_has_ladders(const report *rp, const char *scn);
/* DIR/scenario-<name>.html for every scenario of runs.csv (after the plots are drawn). */
int write_pages(report *rp, const fb_vtable *vt, fb_err *err);
/* The page's file name of scenario scn, "scenario-<scn>.html" (unsafe bytes as '_'). */
void page_name(const char *scn, char *buf, size_t len);
/* <a href="scenario-<scn>.html">scn</a> into h. */
void html_scenario_link(sbuf *h, const char *scn);

#endif
