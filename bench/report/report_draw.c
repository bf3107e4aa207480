/* report_draw.c — a plot's life between its kind and gnuplot (report_int.h): a new entry,
 * its data file, the gnuplot run, a skip, or the copy drawn early during the runs.  Above
 * report_util.c and report_gnuplot.c, below the plot kinds and the driver (report.c), so
 * that the kinds never call back into the driver. */
#define _POSIX_C_SOURCE 200809L

#include "report_int.h"

/* New plot entry (its reading is filled by the caller). */
plot_entry *plot_new(report *rp, const char *title, const char *fmt, ...) FB_PRINTF(3, 4);
plot_entry *plot_new(report *rp, const char *title, const char *fmt, ...)
{
  if (rp->nplots == MAX_PLOTS)
    return NULL;
  plot_entry *p = &rp->plots[rp->nplots++];
  memset(p, 0, sizeof *p);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->name, sizeof p->name, fmt, ap);
  va_end(ap);
  snprintf(p->title, sizeof p->title, "%s", title);
  return p;
}

/* Write DIR/plots/data/<name>.dat.gz from a buffer (atomically, gzip: the data files are
 * what a re-plot needs, not what a reader opens, and compress 5-10x).  Fills `path` with
 * the file's path. */
int write_data(report *rp, const char *name, const sbuf *data, char *path, size_t len,
                      fb_err *err)
{
  if (data->bad)
    return fb_err_set(err, FB_ENOMEM, "out of memory building plot data '%s'", name);
  if (path_fmt(path, len, "%s/plots/data/%s.dat", rp->dir, name) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot data '%s'", name);
  unlink(path); /* the plain file of an older report would contradict this one */
  if (path_fmt(path, len, "%s/plots/data/%s" FB_DATA_EXT, rp->dir, name) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot data '%s'", name);
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "plot data", err);
  if (st != FB_OK)
    return st;
  st = fb_gz_write_text(sb_str(data), data->n, of.fp);
  if (st != FB_OK) {
    fb_outfile_abort(&of);
    return st == FB_ENOMEM ? fb_err_set(err, FB_ENOMEM, "out of memory compressing '%s'", path)
                           : fb_err_set(err, FB_EIO, "writing '%s' failed", path);
  }
  return fb_outfile_commit(&of, err);
}

/* A plot that could not be drawn for lack of data. */
void plot_skip(report *rp, plot_entry *p, const char *why)
{
  snprintf(p->err, sizeof p->err, "not drawn: %s", why);
  plot_release(p);
  (void)rp;
}

/* Appends "note='...'" naming the points drawn at ERR_FLOOR or ERR_CEIL ('' when none). */
static void clamp_note(sbuf *v, size_t nclamp, size_t nceil)
{
  char note[240] = "";
  size_t k = 0;
  if (nclamp > 0)
    k += (size_t)snprintf(note, sizeof note, "%zu error%s < %.0e (round-off) drawn at %.0e", nclamp,
                          nclamp > 1 ? "s" : "", ERR_FLOOR, ERR_FLOOR);
  if (nceil > 0 && k < sizeof note)
    snprintf(note + k, sizeof note - k, "%s%zu error%s > %.0e (blow-up) drawn at %.0e", k ? "; " : "",
             nceil, nceil > 1 ? "s" : "", ERR_CEIL, ERR_CEIL);
  var_s(v, "note", note);
}

/* Draw plot p from b with scripts/<script>: write b's data file (when it has one), then
 * run the script with data=<its path>, b's variables, the numeric assignments of fmt
 * and, when b clamped errors, the note on them. */
int plot_draw(report *rp, plot_entry *p, const char *script, const plot_build *b,
                     fb_err *err, const char *fmt, ...) FB_PRINTF(6, 7);
int plot_draw(report *rp, plot_entry *p, const char *script, const plot_build *b,
                     fb_err *err, const char *fmt, ...)
{
  if (b->too_many)
    return fb_err_set(err, FB_EIO, "plot '%s' names more than %d gnuplot variables", p->name,
                      PB_MAX_VARS);
  sbuf vars = {0};
  if (b->data.n > 0 || b->data.bad) {
    char dpath[PATH_LEN], dsrc[PATH_LEN + 32];
    const int st = write_data(rp, p->name, &b->data, dpath, sizeof dpath, err);
    if (st != FB_OK)
      return st;
    traj_source(p, dpath, dsrc, sizeof dsrc); /* gnuplot reads an inflated copy */
    var_s(&vars, "data", dsrc);
  }
  for (size_t i = 0; i < b->nvar; i++) {
    var_s(&vars, b->var[i].name, sb_str(&b->var[i].value));
    vars.bad |= b->var[i].value.bad;
  }
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&vars, fmt, ap);
  va_end(ap);
  if (b->log_errors) {
    sb_puts(&vars, "; ");
    clamp_note(&vars, b->nclamp, b->nceil);
  }
  const int st = gp_render(rp, p, script, &vars, err);
  sb_free(&vars);
  return st;
}

int early_take(report *rp, plot_entry *p, const char *name)
{
  fb_report_early *e = rp->early;
  if (e == NULL)
    return 0;
  for (size_t i = 0; i < e->n; i++)
    if (streq(e->plots[i].name, name)) {
      sb_free(&p->reading);
      *p = e->plots[i];
      e->plots[i].reading = (sbuf){0};
      e->plots[i].name[0] = '\0'; /* taken */
      if (p->failed)
        rp->nfailed++;
      return 1;
    }
  return 0;
}
