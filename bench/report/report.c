/* report.c — plots and report.html from a results directory (fb_report.h, docs/design.md §8).
 *
 * Reads only files: DIR/runs.csv (RFC 4180), DIR/orders.csv, DIR/meta.json and the
 * trajectories under DIR/traj/.  For each plot it writes the numbers it draws to
 * DIR/plots/data/<name>.dat (gnuplot blocks separated by two blank lines, each opened by
 * its quoted legend entry), runs gnuplot on scripts/<kind>.gp for the PNG and, in a
 * second process that may run alongside, the SVG, and computes a one-sentence reading of
 * the plot from the same numbers (the gnuplot processes: report_gnuplot.c).  Then it
 * writes DIR/report.html with the PNGs embedded as data URIs so the
 * page works when copied alone.
 *
 * Odd rows never stop the report: non-numeric fields read as NaN, failed and budget
 * rows are left out of the plots and listed under #omissions, missing trajectories and
 * missing orders.csv are reported, not fatal.  What is fatal: no runs.csv, no gnuplot, no
 * scripts, an output that cannot be written.  A plot whose gnuplot run fails is named in
 * the report and makes the call return FB_EIO after the report is written.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "report_int.h"
#include "report_pages.h"

/* ==== entry point ========================================================================== */

/* meta.json when present and not older than runs.csv (the suite may write it after the
 * report; an older one belongs to an earlier run into the same directory). */
static void load_meta(report *rp)
{
  char mpath[PATH_LEN], rpath[PATH_LEN];
  struct stat sm, sr;
  rp->meta = NULL;
  if (path_fmt(mpath, sizeof mpath, "%s/meta.json", rp->dir) != 0 ||
      path_fmt(rpath, sizeof rpath, "%s/runs.csv", rp->dir) != 0 || stat(mpath, &sm) != 0 ||
      stat(rpath, &sr) != 0 || sm.st_mtim.tv_sec < sr.st_mtim.tv_sec ||
      (sm.st_mtim.tv_sec == sr.st_mtim.tv_sec && sm.st_mtim.tv_nsec < sr.st_mtim.tv_nsec))
    return;
  size_t len;
  if (fb_read_file(mpath, &rp->meta, &len) != 0)
    rp->meta = NULL;
}

/* ==== plots drawn during the runs (fb_report.h) ============================================ */

fb_report_early *fb_report_early_new(void)
{
  fb_report_early *e = calloc(1, sizeof *e);
  if (e != NULL && (e->pool = gp_pool_new()) == NULL) {
    free(e);
    e = NULL;
  }
  if (e != NULL)
    pthread_mutex_init(&e->lock, NULL);
  return e;
}

void fb_report_early_free(fb_report_early *e)
{
  if (e == NULL)
    return;
  for (size_t i = 0; i < e->n; i++)
    sb_free(&e->plots[i].reading);
  gp_pool_free(e->pool);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

int fb_report_early_group(const char *group)
{
  return streq(group, "baseline") ? 1 : streq(group, "grid") ? 2 : 0;
}

/* gnuplot and its scripts: FB_OK, or FB_EIO with the message the report gives. */
static int gp_find(report *rp, fb_err *err)
{
  char probe[PATH_LEN];
  const int have_scripts = fb_scripts_dir(rp->scripts, sizeof rp->scripts) == 0;
  if (find_in_path("gnuplot", rp->gnuplot, sizeof rp->gnuplot) != 0)
    return fb_err_set(err, FB_EIO, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox; "
                                   "scripts/bootstrap.sh does) or run the suite with --no-plots");
  if (!have_scripts || path_fmt(probe, sizeof probe, "%s/traj.gp", rp->scripts) != 0 || file_size(probe) <= 0)
    return fb_err_set(err, FB_EIO, "gnuplot scripts not found in '%.300s' (no traj.gp): reinstall fricbench or set "
                                   "FRICBENCH_SCRIPTS to the scripts/ folder of the fricbench sources", rp->scripts);
  return FB_OK;
}

/* DIR/plots and DIR/plots/data. */
static int plot_dirs(const char *dir, fb_err *err)
{
  char pdir[PATH_LEN];
  if (path_fmt(pdir, sizeof pdir, "%s/plots", dir) != 0 || mkdir_one(pdir) != 0 ||
      path_fmt(pdir, sizeof pdir, "%s/plots/data", dir) != 0 || mkdir_one(pdir) != 0)
    return fb_err_set(err, FB_EIO, "cannot create '%.300s': %s", pdir, strerror(errno));
  return FB_OK;
}

void fb_report_early_draw(fb_report_early *e, const char *dir, const char *group,
                          const char *scenario, const char *runs_csv, size_t len)
{
  report *rp = calloc(1, sizeof *rp);
  series_set *S = malloc(sizeof *S), *C = malloc(sizeof *C);
  fb_err err = {{0}};
  int st = rp != NULL && S != NULL && C != NULL ? FB_OK : FB_ENOMEM;
  if (st == FB_OK) {
    rp->dir = dir;
    rp->S = S;
    rp->C = C;
    rp->pool = e->pool;
    rp->maxjobs = 1; /* this thread's one process: the PNG, then the SVG */
    st = gp_find(rp, &err);
  }
  if (st == FB_OK)
    st = plot_dirs(dir, &err);
  if (st == FB_OK)
    st = fb_csv_parse(&rp->R.t, runs_csv, len) == FB_OK ? runs_fill(&rp->R, "runs.csv", &err) : FB_EIO;
  if (st == FB_OK)
    st = report_plot_one(rp, group, scenario, &err);
  if (st != FB_OK && rp != NULL)
    gp_discard(rp);
  const int s2 = rp != NULL ? gp_wait_all(rp, &err) : FB_OK;
  for (size_t i = 0; rp != NULL && i < rp->nplots; i++) /* a plot that failed before gnuplot */
    plot_release(&rp->plots[i]);
  /* kept only when drawn as the report would draw it: a failure that is not the plot's
   * own (an unwritable file) is met again, and reported, by the report */
  if (st == FB_OK && s2 == FB_OK) {
    pthread_mutex_lock(&e->lock);
    if (e->n + rp->nplots <= MAX_PLOTS) /* all of them or none (plots_grid takes both) */
      for (size_t i = 0; i < rp->nplots; i++) {
        e->plots[e->n++] = rp->plots[i];
        rp->plots[i].reading = (sbuf){0};
      }
    pthread_mutex_unlock(&e->lock);
  }
  if (rp != NULL) {
    for (size_t i = 0; i < rp->nplots; i++)
      sb_free(&rp->plots[i].reading);
    runs_free(&rp->R);
  }
  free(rp);
  free(S);
  free(C);
}

int fb_report_make(const char *dir, size_t jobs, fb_err *err)
{
  return fb_report_make_early(dir, jobs, NULL, err);
}

int fb_report_make_early(const char *dir, size_t jobs, fb_report_early *early, fb_err *err)
{
  report *rp = calloc(1, sizeof *rp);
  series_set *S = malloc(sizeof *S), *C = malloc(sizeof *C);
  fb_vtable vt = {0};
  int st = FB_OK;
  if (rp == NULL || S == NULL || C == NULL) {
    free(rp);
    free(S);
    free(C);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  rp->dir = dir;
  rp->S = S;
  rp->C = C;
  rp->early = early;
  rp->pool = early != NULL ? early->pool : gp_pool_new();
  if (rp->pool == NULL) {
    free(rp);
    free(S);
    free(C);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  {
    const long nproc = jobs > 0 ? (long)jobs : sysconf(_SC_NPROCESSORS_ONLN);
    rp->maxjobs = nproc < 1 ? 1 : nproc > MAX_GP_JOBS ? MAX_GP_JOBS : (size_t)nproc;
  }
  st = gp_find(rp, err);
  if (st == FB_OK)
    st = runs_load(&rp->R, dir, err);
  if (st == FB_OK && orders_load(&rp->O, dir) != FB_OK)
    st = fb_err_set(err, FB_ENOMEM, "out of memory reading orders.csv");
  if (st == FB_OK)
    st = plot_dirs(dir, err);
  if (st == FB_OK) {
    load_meta(rp);
    /* the verdicts the suite or merge wrote; made here for an older results directory */
    fb_err verr;
    if (fb_verdicts_load(dir, &vt, &verr) != FB_OK) {
      st = fb_verdicts_write(dir, err);
      if (st == FB_OK)
        st = fb_verdicts_load(dir, &vt, err);
    }
    char sc[PATH_LEN];
    if (st == FB_OK && path_fmt(sc, sizeof sc, "%s/seed-claims.csv", dir) == 0 &&
        access(sc, R_OK) != 0)
      st = fb_seed_claims_write(dir, err);
  }
  rp->vt = &vt;
  if (st == FB_OK)
    st = report_plots_all(rp, err);
  {
    if (st != FB_OK)
      gp_discard(rp);
    const int s2 = gp_wait_all(rp, err); /* also after a failure: no process left behind */
    for (size_t i = 0; i < rp->nplots; i++) /* a plot that failed before gnuplot */
      plot_release(&rp->plots[i]);
    if (st == FB_OK)
      st = s2;
  }
  if (st == FB_OK)
    st = write_html(rp, &vt, err);
  if (st == FB_OK) /* a page per scenario, linked from report.html (report_pages.c) */
    st = write_pages(rp, &vt, err);
  if (st == FB_OK && rp->nfailed > 0) {
    size_t i = 0;
    while (i < rp->nplots && (rp->plots[i].ok || rp->plots[i].err[0] == '\0' ||
                              strncmp(rp->plots[i].err, "not drawn", 9) == 0))
      i++;
    st = fb_err_set(err, FB_EIO, "%zu plot(s) failed (report.html written and names them); first: %s: %.300s",
                    rp->nfailed, i < rp->nplots ? rp->plots[i].name : "?",
                    i < rp->nplots ? rp->plots[i].err : "");
  }
  for (size_t i = 0; i < rp->nplots; i++)
    sb_free(&rp->plots[i].reading);
  runs_free(&rp->R);
  fb_csv_free(&rp->O.t);
  free(rp->meta);
  if (early == NULL)
    gp_pool_free(rp->pool);
  free(rp);
  free(S);
  free(C);
  fb_vtable_free(&vt);
  return st;
}
