/* report_gnuplot.c — the report's gnuplot processes (report_int.h): a queue of jobs
 * started as slots free up (at most --jobs at once), each finished into its PNG or SVG
 * or a failure recorded in its plot; and the trajectories gnuplot reads, inflated once
 * into nameless temporary files that the processes inherit. */
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>

#include "report_int.h"

extern char **environ; /* POSIX: the program's environment, for posix_spawn */

/* A compressed trajectory inflated into a nameless temporary file (fb_tmpfile_fd, so
 * nothing is left behind whatever ends the process); its descriptor, or -1. */
static int inflate_copy(const char *path)
{
  char *text;
  size_t n;
  if (fb_gz_read_all(path, &text, &n) != 0)
    return -1;
  int fd = fb_tmpfile_fd("fricbench_traj");
  for (size_t off = 0; fd >= 0 && off < n;) {
    const ssize_t w = write(fd, text + off, n - off);
    if (w > 0) {
      off += (size_t)w;
    } else if (!(w < 0 && errno == EINTR)) {
      close(fd);
      fd = -1;
    }
  }
  free(text);
  return fd;
}

/* A trajectory file as gnuplot should open it (the word lists of the scripts keep no
 * quotes).  A compressed one is inflated once into a nameless temporary file that
 * gnuplot opens as /dev/fd/N, the descriptor inherited: it read `< gzip -dc` pipes, a
 * shell and a gzip per panel and file, 3.6 times slower (the quick suite's biggest
 * overlay, glowinski-3dof, 1.82 s against 0.51 s; 2026-11-25).  The descriptor is plot
 * p's until its gnuplot processes are started (gp_render), which inherit it; the last
 * plot drawn from a file must own it.  When that cannot be done, the pipe, the path shell-escaped by
 * backslashes. */
void traj_source(plot_entry *p, const char *path, char *buf, size_t len)
{
  const size_t l = strlen(path);
  if (!(l > 3 && strcmp(path + l - 3, ".gz") == 0) || len < 16) {
    snprintf(buf, len, "%s", path);
    return;
  }
  int *grown = realloc(p->tmpfd, (p->ntmp + 1) * sizeof *p->tmpfd);
  if (grown != NULL) {
    p->tmpfd = grown;
    const int fd = inflate_copy(path);
    if (fd >= 0) {
      snprintf(buf, len, "/dev/fd/%d", fd);
      if (access(buf, R_OK) == 0) {
        p->tmpfd[p->ntmp++] = fd;
        return;
      }
      close(fd);
    }
  }
  size_t k = (size_t)snprintf(buf, len, "< gzip -dc ");
  for (const char *c = path; *c && k + 3 < len; c++) {
    if (!(isalnum((unsigned char)*c) || strchr("/._-+=:,@%", *c) != NULL))
      buf[k++] = '\\';
    buf[k++] = *c;
  }
  buf[k] = '\0';
}

void plot_release(plot_entry *p)
{
  for (size_t i = 0; i < p->ntmp; i++)
    close(p->tmpfd[i]);
  free(p->tmpfd);
  p->tmpfd = NULL;
  p->ntmp = 0;
}

/* Finish a gnuplot job: on exit status 0 with its file non-empty, rename it into place;
 * otherwise remove it and record the last line gnuplot printed on stderr.  The plot is
 * drawn once every job of it (PNG, SVG) succeeded. */
static int gp_finish(report *rp, gp_job *j, int status, fb_err *err)
{
  char msg[600] = "";
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok && lseek(j->fe, 0, SEEK_SET) == 0) {
    char buf[8192];
    const ssize_t k = read(j->fe, buf, sizeof buf - 1);
    size_t e = k > 0 ? (size_t)k : 0;
    buf[e] = '\0';
    while (e > 0 && (buf[e - 1] == '\n' || buf[e - 1] == '\r' || buf[e - 1] == ' '))
      buf[--e] = '\0';
    const char *last = strrchr(buf, '\n');
    last = last != NULL ? last + 1 : buf;
    const size_t l = strlen(last) < sizeof msg - 1 ? strlen(last) : sizeof msg - 1;
    memcpy(msg, last, l);
    msg[l] = '\0';
  }
  if (!ok && msg[0] == '\0')
    snprintf(msg, sizeof msg, "gnuplot exited with status %d",
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  close(j->fe);
  if (ok && file_size(j->of.tmp) <= 0) {
    ok = 0;
    snprintf(msg, sizeof msg, "gnuplot wrote an empty file");
  }
  plot_entry *p = &rp->plots[j->plot];
  p->pending--;
  if (!ok) {
    fb_outfile_abort(&j->of);
    if (!p->failed) {
      snprintf(p->err, sizeof p->err, "%s: %s", j->script, msg);
      p->failed = 1;
      rp->nfailed++;
    }
    return FB_OK;
  }
  const int st = fb_outfile_commit(&j->of, err);
  if (st == FB_OK && p->pending == 0 && !p->failed)
    p->ok = 1;
  return st;
}

/* Finish every gnuplot job that has ended; with `block`, wait for one first (when any
 * runs).  Whichever ends first, not the oldest: waiting for the oldest left a slot idle
 * while a long plot held it (the report ran at ~1.4 of --jobs 2's possible speed).
 * Polled with WNOHANG on our own pids, so that children the caller may have are left
 * alone; the plots take 0.05-2 s, a 2 ms poll costs nothing. */
static int gp_reap(report *rp, int block, fb_err *err)
{
  int st = FB_OK, reaped = 0;
  for (;;) {
    for (size_t i = 0; i < rp->njobs;) {
      int status = 0;
      const pid_t pid = waitpid(rp->jobs[i].pid, &status, WNOHANG);
      if (pid == 0 || (pid < 0 && errno == EINTR)) {
        i++;
        continue;
      }
      if (pid < 0)
        status = 1 << 8; /* lost: reported as a failed plot */
      gp_job j = rp->jobs[i];
      memmove(&rp->jobs[i], &rp->jobs[i + 1], (rp->njobs - i - 1) * sizeof rp->jobs[0]);
      rp->njobs--;
      const int s2 = gp_finish(rp, &j, status, err);
      if (st == FB_OK)
        st = s2;
      reaped = 1;
    }
    if (reaped || !block || rp->njobs == 0)
      return st;
    const struct timespec poll = {0, 2000000};
    nanosleep(&poll, NULL);
  }
}

/* Start queued job q now: its output under a temporary name, its stderr in a nameless
 * scratch file under $TMPDIR.  Only an unusable output is returned; a gnuplot that
 * cannot be started is recorded in its plot. */
static int gp_start(report *rp, gp_wait *q, fb_err *err)
{
  plot_entry *p = &rp->plots[q->plot];
  gp_job *j = &rp->jobs[rp->njobs];
  memset(j, 0, sizeof *j);
  j->plot = q->plot;
  j->script = q->script;
  int st = fb_outfile_open(&j->of, q->path, "plot", err);
  if (st != FB_OK) {
    p->pending--;
    return st;
  }
  j->fe = fb_tmpfile_fd("fricbench_gnuplot");
  sbuf a = {0};
  sb_puts(&a, q->args);
  sb_gq(&a, j->of.tmp);
  if (a.bad || j->fe < 0) {
    if (j->fe >= 0)
      close(j->fe);
    fb_outfile_abort(&j->of);
    sb_free(&a);
    p->pending--;
    return fb_err_set(err, FB_EIO, "cannot set up gnuplot for '%s' (memory or temporary file)", p->name);
  }
  char dash_e[] = "-e";
  char *argv[] = {rp->gnuplot, dash_e, a.s, q->spath, NULL};
  fflush(stdout);
  fflush(stderr);
  /* posix_spawn, not fork: plots are drawn while the suite's runs go (fb_report_early_draw),
   * and a fork of the suite (hundreds of MB) made every page the runs wrote afterwards
   * fault once (copy-on-write), which made the full suite slower, not faster; glibc's
   * posix_spawn shares the memory until the exec. */
  posix_spawn_file_actions_t fa;
  pid_t pid = -1;
  int sst = posix_spawn_file_actions_init(&fa);
  if (sst == 0) {
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, j->fe, 2);
    sst = posix_spawn(&pid, rp->gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
  }
  sb_free(&a);
  if (sst != 0) {
    close(j->fe);
    fb_outfile_abort(&j->of);
    p->pending--;
    if (!p->failed) {
      snprintf(p->err, sizeof p->err, "%s: cannot start gnuplot: %s", q->script, strerror(sst));
      p->failed = 1;
      rp->nfailed++;
    }
    return FB_OK;
  }
  j->pid = pid;
  rp->njobs++;
  return FB_OK;
}

/* Start queued jobs while slots are free (finishing the ended ones first).  A plot's
 * inflated trajectory copies are closed once its last job is started: the processes
 * have inherited them. */
static int gp_pump(report *rp, fb_err *err)
{
  int st = gp_reap(rp, 0, err);
  while (rp->qhead < rp->qtail && rp->njobs < rp->maxjobs) {
    gp_wait *q = &rp->queue[rp->qhead++];
    plot_entry *p = &rp->plots[q->plot];
    const int s2 = gp_start(rp, q, err);
    if (st == FB_OK)
      st = s2;
    free(q->args);
    q->args = NULL;
    if (--p->queued == 0)
      plot_release(p);
  }
  return st;
}

int gp_wait_all(report *rp, fb_err *err)
{
  int st = FB_OK;
  while (rp->qhead < rp->qtail || rp->njobs > 0) {
    int s2 = gp_pump(rp, err);
    if (st == FB_OK)
      st = s2;
    s2 = gp_reap(rp, 1, err);
    if (st == FB_OK)
      st = s2;
  }
  return st;
}

/* Queue one gnuplot process drawing plot p in format fmt ("png" or "svg") into path. */
static int gp_enqueue(report *rp, plot_entry *p, const char *script, const char *spath,
                      const sbuf *vars, const char *fmt, const char *path, fb_err *err)
{
  if (rp->qtail == sizeof rp->queue / sizeof rp->queue[0])
    return fb_err_set(err, FB_EIO, "too many plots queued for gnuplot ('%s')", p->name);
  sbuf a = {0};
  sb_puts(&a, "sdir=");
  sb_gq(&a, rp->scripts);
  sb_printf(&a, "; %s; fmt='%s'; out=", sb_str(vars), fmt);
  if (a.bad || vars->bad) {
    sb_free(&a);
    return fb_err_set(err, FB_ENOMEM, "out of memory queueing plot '%s'", p->name);
  }
  gp_wait *q = &rp->queue[rp->qtail++];
  q->plot = (size_t)(p - rp->plots);
  q->script = script;
  q->args = a.s; /* the queue owns it */
  snprintf(q->spath, sizeof q->spath, "%s", spath);
  snprintf(q->path, sizeof q->path, "%s", path);
  p->queued++;
  return FB_OK;
}

/* Render plot p with scripts/<script>: the PNG and the SVG by two gnuplot processes, which
 * may run at the same time (one process drawing both serialized the report's tail).
 * `vars` are gnuplot assignments.  The processes are queued and started as slots free up
 * (up to rp->maxjobs at once), so that the next plots are prepared meanwhile: starting
 * them here, waiting for a slot, left a slot idle between plots (the full suite's report
 * after its runs took 5.7 s for 3.5 s of gnuplot on 2 slots; 2026-11-25); gp_wait_all
 * collects them.  A gnuplot failure is recorded in p (and counted); only an unwritable
 * output is returned. */
int gp_render(report *rp, plot_entry *p, const char *script, const sbuf *vars, fb_err *err)
{
  char png[PATH_LEN], svg[PATH_LEN], spath[PATH_LEN];
  if (path_fmt(png, sizeof png, "%s/plots/%s.png", rp->dir, p->name) != 0 ||
      path_fmt(svg, sizeof svg, "%s/plots/%s.svg", rp->dir, p->name) != 0 ||
      path_fmt(spath, sizeof spath, "%s/%s", rp->scripts, script) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot '%s'", p->name);
  unlink(svg); /* a stale SVG of an earlier report would contradict this one */
  p->pending = p->png_only ? 1 : 2;
  p->failed = 0;
  int st = gp_enqueue(rp, p, script, spath, vars, "png", png, err);
  if (st == FB_OK && !p->png_only)
    st = gp_enqueue(rp, p, script, spath, vars, "svg", svg, err);
  if (st != FB_OK) { /* the report ends here: gp_discard drops what was queued */
    p->pending = p->queued;
    return st;
  }
  return gp_pump(rp, err);
}

/* Drop the queued jobs (the report failed): none of them starts. */
void gp_discard(report *rp)
{
  while (rp->qhead < rp->qtail) {
    gp_wait *q = &rp->queue[rp->qhead++];
    plot_entry *p = &rp->plots[q->plot];
    free(q->args);
    q->args = NULL;
    p->pending--;
    p->queued--;
  }
}

