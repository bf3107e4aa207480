/* report_gnuplot.c — the report's gnuplot processes (report_int.h): a pool of gnuplot
 * processes, each drawing one plot after another from commands on its standard input; a
 * queue of jobs (a plot in one format) started as processes free up (at most --jobs at
 * once), each finished into its PNG or SVG or a failure recorded in its plot; and the
 * trajectories gnuplot reads, inflated once into nameless temporary files. */
#define _GNU_SOURCE /* pipe2, SOCK_CLOEXEC, memmem */
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/socket.h>

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

/* ---- the pool: gnuplot processes kept for many plots ----------------------------------
 *
 * A gnuplot process per plot and format spent 50-90 ms starting (loading cairo, pango and
 * the fonts) for plots that take 10-500 ms, and the start-up's page faults made two
 * processes at once slower than one each (2026-11-25: the quick suite's 36 processes, 6.2 s
 * of gnuplot).  A worker reads one plot's commands at a time (worker_send): `reset session`,
 * the script's variables and `load` of the script, then a mark printed on its standard
 * error with GPVAL_ERRNO, which says that the plot ended and whether it failed.  An error
 * ends the plot's line, not the process: gnuplot goes on reading its input.
 *
 * Only the PNGs: gnuplot's svg terminal keeps state from one plot to the next (the pens'
 * widths start at the last line width drawn, the colour mode stays), so an SVG drawn after
 * another plot differs from one drawn first by its empty groups, and the same report would
 * differ with the order the plots were drawn in.  An SVG gets a process of its own, used
 * once (gp_job.own); the pngcairo terminal starts afresh with each output, which the
 * PNGs, byte for byte the same as from a process each, show (2026-11-25). */

/* The start of the line a worker prints when a plot ends: GP_MARK, the plot's number and
 * GPVAL_ERRNO (worker_send writes the command, worker_read looks for it). */
#define GP_MARK "@@fricbench"

struct gp_pool {
  pthread_mutex_t lock;
  pthread_cond_t freed;
  gp_worker w[MAX_GP_JOBS];
  unsigned long marks;
};

gp_pool *gp_pool_new(void)
{
  gp_pool *pool = calloc(1, sizeof *pool);
  if (pool != NULL) {
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->freed, NULL);
  }
  return pool;
}

/* End worker w: its input closed, gnuplot reads the end and exits; its exit status. */
static int worker_end(gp_worker *w)
{
  int status = 0;
  close(w->in);
  while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
    ;
  close(w->err);
  w->pid = 0;
  return status;
}

void gp_pool_free(gp_pool *pool)
{
  if (pool == NULL)
    return;
  for (size_t i = 0; i < MAX_GP_JOBS; i++)
    if (pool->w[i].pid > 0)
      worker_end(&pool->w[i]);
  pthread_cond_destroy(&pool->freed);
  pthread_mutex_destroy(&pool->lock);
  free(pool);
}

/* Start gnuplot in w: 0, or the error number.  Every descriptor of ours is close-on-exec,
 * so that a worker started while another thread draws does not hold that one's input
 * open (it would never read its end). */
static int worker_start(gp_worker *w, const char *gnuplot)
{
  int in[2], er[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
    return errno;
  if (pipe2(er, O_CLOEXEC) != 0) {
    const int e = errno;
    close(in[0]), close(in[1]);
    return e;
  }
  char *argv[] = {(char *)gnuplot, NULL};
  posix_spawn_file_actions_t fa;
  pid_t pid = -1;
  int sst = posix_spawn_file_actions_init(&fa);
  if (sst == 0) {
    posix_spawn_file_actions_adddup2(&fa, in[1], 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, er[1], 2);
    /* posix_spawn, not fork: plots are drawn while the suite's runs go
     * (fb_report_early_draw), and a fork of the suite (hundreds of MB) made every page the
     * runs wrote afterwards fault once (copy-on-write); glibc's posix_spawn shares the
     * memory until the exec. */
    sst = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
  }
  close(in[1]);
  close(er[1]);
  if (sst != 0) {
    close(in[0]);
    close(er[0]);
    return sst;
  }
  w->pid = pid; /* busy and mark are the taker's */
  w->in = in[0];
  w->err = er[0];
  return 0;
}

/* Give worker w back to the pool (a dead one is started again when taken). */
static void pool_give(gp_pool *pool, gp_worker *w)
{
  pthread_mutex_lock(&pool->lock);
  w->busy = 0;
  pthread_cond_signal(&pool->freed);
  pthread_mutex_unlock(&pool->lock);
}

/* A free worker of the pool, started when needed, taken (busy); NULL with *e set when
 * gnuplot cannot be started.  Waits while every worker is busy (other threads' early
 * plots): a report takes at most MAX_GP_JOBS, and each gives its own back. */
static gp_worker *pool_take(gp_pool *pool, const char *gnuplot, int *e)
{
  pthread_mutex_lock(&pool->lock);
  gp_worker *w = NULL;
  for (;;) {
    for (size_t i = 0; i < MAX_GP_JOBS && w == NULL; i++)
      if (pool->w[i].pid > 0 && !pool->w[i].busy)
        w = &pool->w[i];
    for (size_t i = 0; i < MAX_GP_JOBS && w == NULL; i++)
      if (pool->w[i].pid == 0 && !pool->w[i].busy)
        w = &pool->w[i];
    if (w != NULL)
      break;
    pthread_cond_wait(&pool->freed, &pool->lock);
  }
  w->busy = 1;
  w->mark = ++pool->marks;
  pthread_mutex_unlock(&pool->lock);
  *e = 0;
  if (w->pid == 0 && (*e = worker_start(w, gnuplot)) != 0) {
    pool_give(pool, w);
    return NULL;
  }
  return w;
}

/* Send worker w the commands of one plot (and, for a process used `once`, the end of its
 * input, so that it leaves when the plot is done): 0, or the error number. */
static int worker_send(gp_worker *w, const char *args, const char *out, const char *spath,
                       int once)
{
  sbuf c = {0};
  /* `reset session` alone on its line: gnuplot 5.4 ignores the rest of its line */
  sb_puts(&c, "reset session\nreset errorstate; ");
  sb_puts(&c, args);
  sb_gq(&c, out);
  sb_puts(&c, "; load ");
  sb_gq(&c, spath);
  sb_printf(&c, "\nunset output; set print; print sprintf('" GP_MARK " %lu %%d', GPVAL_ERRNO)\n",
            w->mark);
  if (c.bad) {
    sb_free(&c);
    return ENOMEM;
  }
  w->ntail = 0; /* what it prints from here is this plot's */
  int e = 0;
  for (size_t off = 0; off < c.n && e == 0;) {
    const ssize_t k = send(w->in, c.s + off, c.n - off, MSG_NOSIGNAL);
    if (k > 0)
      off += (size_t)k;
    else if (!(k < 0 && errno == EINTR))
      e = k < 0 ? errno : EIO;
  }
  sb_free(&c);
  if (e == 0 && once)
    shutdown(w->in, SHUT_WR);
  return e;
}

/* Read what worker w printed (it has something): 1 when its plot ended, with *failed
 * and, for a failure, msg (the last line it printed before the mark, or how it ended);
 * 0 while it draws. */
static int worker_read(gp_worker *w, int *failed, char *msg, size_t len)
{
  char buf[4096];
  ssize_t k;
  while ((k = read(w->err, buf, sizeof buf)) < 0 && errno == EINTR)
    ;
  if (k <= 0) { /* it died: its end of the pipe closed */
    const int status = worker_end(w);
    *failed = 1;
    snprintf(msg, len, "gnuplot ended before the plot did (%s %d)",
             WIFSIGNALED(status) ? "signal" : "exit status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return 1;
  }
  /* keep the last sizeof tail - 1 bytes */
  const size_t cap = sizeof w->tail - 1, n = (size_t)k;
  if (n >= cap) {
    memcpy(w->tail, buf + n - cap, cap);
    w->ntail = cap;
  } else {
    if (w->ntail + n > cap) {
      const size_t drop = w->ntail + n - cap;
      memmove(w->tail, w->tail + drop, w->ntail - drop);
      w->ntail -= drop;
    }
    memcpy(w->tail + w->ntail, buf, n);
    w->ntail += n;
  }
  w->tail[w->ntail] = '\0';
  char mark[48];
  const int ml = snprintf(mark, sizeof mark, GP_MARK " %lu ", w->mark);
  char *at = memmem(w->tail, w->ntail, mark, (size_t)ml);
  if (at == NULL || memchr(at, '\n', w->ntail - (size_t)(at - w->tail)) == NULL)
    return 0;
  *failed = atoi(at + ml) != 0;
  msg[0] = '\0';
  if (*failed) { /* the last line before the mark, blanks trimmed */
    char *e = at;
    while (e > w->tail && isspace((unsigned char)e[-1]))
      e--;
    char *b = e;
    while (b > w->tail && b[-1] != '\n')
      b--;
    while (b < e && isspace((unsigned char)*b))
      b++;
    const size_t l = (size_t)(e - b) < len - 1 ? (size_t)(e - b) : len - 1;
    memcpy(msg, b, l);
    msg[l] = '\0';
    if (l == 0)
      snprintf(msg, len, "gnuplot failed (error %d) and said nothing", atoi(at + ml));
  }
  return 1;
}

/* ---- the trajectories gnuplot reads ------------------------------------------------- */

/* A trajectory file as gnuplot should open it (the word lists of the scripts keep no
 * quotes).  A compressed one is inflated once into a nameless temporary file that
 * gnuplot opens as /proc/PID/fd/N, our descriptor: it read `< gzip -dc` pipes, a shell
 * and a gzip per panel and file, 3.6 times slower (the quick suite's biggest overlay,
 * glowinski-3dof, 1.82 s against 0.51 s; 2026-11-25).  The descriptor is plot p's until
 * its jobs have ended (plot_release); the last plot drawn from a file must own it.  When
 * that cannot be done, the pipe, the path shell-escaped by backslashes. */
void traj_source(plot_entry *p, const char *path, char *buf, size_t len)
{
  const size_t l = strlen(path);
  if (!(l > 3 && strcmp(path + l - 3, ".gz") == 0) || len < 40) {
    snprintf(buf, len, "%s", path);
    return;
  }
  int *grown = realloc(p->tmpfd, (p->ntmp + 1) * sizeof *p->tmpfd);
  if (grown != NULL) {
    p->tmpfd = grown;
    const int fd = inflate_copy(path);
    if (fd >= 0) {
      snprintf(buf, len, "/proc/%ld/fd/%d", (long)getpid(), fd);
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

/* ---- jobs ------------------------------------------------------------------------------ */

/* One job of plot p ended (or will not start): its trajectory copies are closed with the
 * last. */
static void job_ended(plot_entry *p)
{
  if (--p->pending == 0)
    plot_release(p);
}

static void plot_fail(report *rp, plot_entry *p, const char *script, const char *msg)
{
  if (!p->failed) {
    snprintf(p->err, sizeof p->err, "%s: %s", script, msg);
    p->failed = 1;
    rp->nfailed++;
  }
}

/* Finish job j: when gnuplot did not fail and wrote a non-empty file, rename it into
 * place; otherwise remove it and record msg in its plot.  The plot is drawn once every job
 * of it (PNG, SVG) succeeded. */
static int gp_finish(report *rp, gp_job *j, int failed, const char *msg, fb_err *err)
{
  plot_entry *p = &rp->plots[j->plot];
  if (!failed && file_size(j->of.tmp) <= 0) {
    failed = 1;
    msg = "gnuplot wrote an empty file";
  }
  int st = FB_OK;
  if (failed) {
    fb_outfile_abort(&j->of);
    plot_fail(rp, p, j->script, msg);
  } else {
    st = fb_outfile_commit(&j->of, err);
    if (st == FB_OK && p->pending == 1 && !p->failed)
      p->ok = 1;
  }
  job_ended(p);
  return st;
}

/* The process drawing job j. */
static gp_worker *job_worker(gp_job *j)
{
  return j->w != NULL ? j->w : &j->own;
}

/* Finish every job whose plot has ended; with `block`, wait for one first (when any
 * runs).  Whichever ends first, not the oldest: waiting for the oldest left a slot idle
 * while a long plot held it. */
static int gp_reap(report *rp, int block, fb_err *err)
{
  int st = FB_OK;
  for (;;) {
    struct pollfd pf[MAX_GP_JOBS];
    const size_t n = rp->njobs;
    if (n == 0)
      return st;
    for (size_t i = 0; i < n; i++)
      pf[i] = (struct pollfd){.fd = job_worker(&rp->jobs[i])->err, .events = POLLIN};
    const int r = poll(pf, (nfds_t)n, block ? -1 : 0);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return st; /* nothing ended (poll's own failure: a later call waits again) */
    size_t kept = 0;
    int reaped = 0;
    for (size_t i = 0; i < n; i++) {
      gp_job *j = &rp->jobs[i];
      gp_worker *w = job_worker(j);
      int failed = 0;
      char msg[600];
      if (pf[i].revents == 0 || !worker_read(w, &failed, msg, sizeof msg)) {
        if (kept != i)
          rp->jobs[kept] = *j;
        kept++;
        continue;
      }
      if (j->w != NULL)
        pool_give(rp->pool, w);
      else if (w->pid > 0)
        worker_end(w); /* used once; it has its input's end and is leaving */
      const int s2 = gp_finish(rp, j, failed, msg, err);
      if (st == FB_OK)
        st = s2;
      reaped = 1;
    }
    rp->njobs = kept;
    if (reaped || !block)
      return st;
  }
}

/* Start queued job q now, its output under a temporary name.  Only an unusable output is
 * returned; a gnuplot that cannot be started or sent the plot is recorded in its plot. */
static int gp_start(report *rp, gp_wait *q, fb_err *err)
{
  plot_entry *p = &rp->plots[q->plot];
  gp_job *j = &rp->jobs[rp->njobs];
  memset(j, 0, sizeof *j);
  j->plot = q->plot;
  j->script = q->script;
  int st = fb_outfile_open(&j->of, q->path, "plot", err);
  if (st != FB_OK) {
    job_ended(p);
    return st;
  }
  int e = 0;
  gp_worker *w = NULL;
  if (q->once) {
    if ((e = worker_start(&j->own, rp->gnuplot)) == 0)
      w = &j->own;
  } else {
    w = j->w = pool_take(rp->pool, rp->gnuplot, &e);
  }
  if (w != NULL && (e = worker_send(w, q->args, j->of.tmp, q->spath, q->once)) != 0) {
    if (w->pid > 0)
      worker_end(w); /* dead or half-sent: the pool's next plot starts a new one */
    if (j->w != NULL)
      pool_give(rp->pool, w);
    w = NULL;
  }
  if (w == NULL) {
    char msg[300];
    snprintf(msg, sizeof msg, "%s gnuplot: %s", e == ENOMEM ? "out of memory sending to" : "cannot start",
             strerror(e));
    fb_outfile_abort(&j->of);
    plot_fail(rp, p, q->script, msg);
    job_ended(p);
    return FB_OK;
  }
  rp->njobs++;
  return FB_OK;
}

/* Start queued jobs while slots are free (finishing the ended ones first). */
static int gp_pump(report *rp, fb_err *err)
{
  int st = gp_reap(rp, 0, err);
  while (rp->qhead < rp->qtail && rp->njobs < rp->maxjobs) {
    gp_wait *q = &rp->queue[rp->qhead++];
    const int s2 = gp_start(rp, q, err);
    if (st == FB_OK)
      st = s2;
    free(q->args);
    q->args = NULL;
    rp->plots[q->plot].queued--;
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

/* Queue the job drawing plot p in format fmt ("png" or "svg") into path. */
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
  q->once = strcmp(fmt, "svg") == 0; /* the svg terminal's state outlives a plot */
  q->script = script;
  q->args = a.s; /* the queue owns it */
  snprintf(q->spath, sizeof q->spath, "%s", spath);
  snprintf(q->path, sizeof q->path, "%s", path);
  p->queued++;
  return FB_OK;
}

/* Render plot p with scripts/<script>: the PNG and the SVG as two jobs, which may run at
 * the same time in two of the pool's processes (one process drawing both serialized the
 * report's tail).  `vars` are gnuplot assignments.  The jobs are queued and started as
 * slots free up (up to rp->maxjobs at once), so that the next plots are prepared
 * meanwhile: starting them here, waiting for a slot, left a slot idle between plots (the full suite's report
 * after its runs took 5.7 s for 3.5 s of gnuplot on 2 slots; 2026-11-25); gp_wait_all
 * collects them.  A gnuplot failure is recorded in p (and counted); only an unwritable
 * output is returned. */
static int g_svg; /* fb_report_set_svg */

void fb_report_set_svg(int on)
{
  g_svg = on != 0;
}

int gp_render(report *rp, plot_entry *p, const char *script, const sbuf *vars, fb_err *err)
{
  const int svg_too = g_svg && !p->png_only;
  char png[PATH_LEN], svg[PATH_LEN], spath[PATH_LEN];
  if (path_fmt(png, sizeof png, "%s/plots/%s.png", rp->dir, p->name) != 0 ||
      path_fmt(svg, sizeof svg, "%s/plots/%s.svg", rp->dir, p->name) != 0 ||
      path_fmt(spath, sizeof spath, "%s/%s", rp->scripts, script) != 0)
    return fb_err_set(err, FB_EIO, "path too long for plot '%s'", p->name);
  unlink(svg); /* a stale SVG of an earlier report would contradict this one */
  p->pending = svg_too ? 2 : 1;
  p->failed = 0;
  int st = gp_enqueue(rp, p, script, spath, vars, "png", png, err);
  if (st == FB_OK && svg_too)
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
    p->queued--;
    job_ended(p);
  }
}

