/* io.c — atomic output files (fb_io.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "fb_io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The process's umask, read once without changing it (umask() would set it, a race with
 * other threads creating files): Linux reports it in /proc/self/status; 022 otherwise. */
static mode_t proc_umask = 022;
static pthread_once_t umask_once = PTHREAD_ONCE_INIT;

static void read_umask(void)
{
  FILE *fp = fopen("/proc/self/status", "r");
  char line[128];
  while (fp != NULL && fgets(line, sizeof line, fp) != NULL)
    if (strncmp(line, "Umask:", 6) == 0) {
      proc_umask = (mode_t)strtoul(line + 6, NULL, 8) & 0777;
      break;
    }
  if (fp != NULL)
    fclose(fp);
}

/* The registry of temporary files being written: a signal handler (installed once, by the
 * first fb_outfile_open) removes them before the process dies of any signal that kills
 * (install_handler's list), so an interrupted or crashed `run`, `reference` or `bench
 * --out` leaves no FILE.tmp.XXXXXX.
 * Lock-free slots: the handler may only read them.  A file opened while every slot is
 * taken is not registered (never more than a handful are open at once).  The suite
 * blocks these signals in every thread and takes them with its watcher, so the handler
 * runs there only after the watcher stopped, when its files are complete. */
#define TMP_SLOTS 64
static _Atomic(char *) tmp_slots[TMP_SLOTS];
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

static void tmp_handler(int sig)
{
  for (size_t i = 0; i < TMP_SLOTS; i++) {
    char *p = atomic_load(&tmp_slots[i]);
    if (p != NULL)
      unlink(p);
  }
  /* die of the signal as if unhandled: the shell sees 128 + sig */
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_handler(void)
{
  /* every signal whose default action ends the process: the interrupts, the timers and
   * SIGUSR1/2 (which kill by default), a closed pipe, and the faults of a plugin's code
   * (SIGSEGV, SIGBUS, ...: re-raised on return, the process still dumps core) */
  static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2,
                             SIGPIPE, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
                             SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT, SIGSYS, SIGTRAP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa, old;
    if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
      continue; /* nohup and friends: an ignored signal stays ignored */
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
      continue; /* someone's handler (a sanitizer's for SIGSEGV, an embedding program's) */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tmp_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

static void tmp_register(char *path)
{
  pthread_once(&handler_once, install_handler);
  for (size_t i = 0; i < TMP_SLOTS; i++) {
    char *expect = NULL;
    if (atomic_compare_exchange_strong(&tmp_slots[i], &expect, path))
      return;
  }
}

/* Before the name is freed; after the rename or unlink, so that a signal in between finds
 * the name registered (unlink of a name already gone is harmless). */
static void tmp_unregister(char *path)
{
  for (size_t i = 0; path != NULL && i < TMP_SLOTS; i++) {
    char *expect = path;
    if (atomic_compare_exchange_strong(&tmp_slots[i], &expect, NULL))
      return;
  }
}

int fb_outfile_open(fb_outfile *o, const char *path, const char *what, fb_err *err)
{
  memset(o, 0, sizeof *o);
  if (path == NULL || strcmp(path, "-") == 0) {
    o->fp = stdout;
    return FB_OK;
  }
  if (*path == '\0')
    return fb_err_set(err, FB_EINVAL, "%s: empty file name: give a path or '-' for stdout", what);
  struct stat sb;
  if (fb_is_devnull(path)) { /* discarded: written in place, nothing to rename */
    o->fp = fopen(path, "w");
    if (o->fp == NULL)
      return fb_err_set(err, FB_EINVAL, "%s '%s' cannot be written: %s", what, path,
                        strerror(errno));
    return FB_OK;
  }
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
    return fb_err_set(err, FB_EINVAL, "%s '%s' is not a regular file: give a file path", what,
                      path);
  const size_t len = strlen(path);
  o->path = strdup(path);
  o->tmp = malloc(len + 16);
  if (o->path == NULL || o->tmp == NULL) {
    fb_outfile_abort(o);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
  /* registered before it exists: a signal right after mkstemp must find it */
  tmp_register(o->tmp);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    const int e = errno;
    tmp_unregister(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    fb_outfile_abort(o);
    return fb_err_set(err, FB_EINVAL, "%s '%s' cannot be written: %s", what, path, strerror(e));
  }
  /* mkstemp creates 0600; the renamed file gets what open(..., 0666) would have given */
  pthread_once(&umask_once, read_umask);
  fchmod(fd, 0666 & ~proc_umask);
  o->fp = fdopen(fd, "w");
  if (o->fp == NULL) {
    close(fd);
    fb_outfile_abort(o);
    return fb_err_set(err, FB_EIO, "%s '%s' cannot be opened", what, path);
  }
  return FB_OK;
}

void fb_outfile_abort(fb_outfile *o)
{
  if (o->fp != NULL && o->fp != stdout)
    fclose(o->fp);
  if (o->tmp != NULL)
    unlink(o->tmp);
  tmp_unregister(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}

int fb_outfile_commit(fb_outfile *o, fb_err *err)
{
  if (o->fp == stdout) {
    if (fflush(stdout) != 0 || ferror(stdout))
      return fb_err_set(err, FB_EIO, "writing to standard output failed: %s",
                        strerror(errno ? errno : EIO));
    memset(o, 0, sizeof *o);
    return FB_OK;
  }
  int bad = ferror(o->fp) || fflush(o->fp) != 0;
  const int e = errno;
  bad |= fclose(o->fp) != 0;
  o->fp = NULL;
  if (o->tmp == NULL) { /* /dev/null */
    memset(o, 0, sizeof *o);
    return bad ? fb_err_set(err, FB_EIO, "writing to /dev/null failed: %s", strerror(e ? e : EIO))
               : FB_OK;
  }
  if (!bad && rename(o->tmp, o->path) != 0)
    bad = 1;
  if (bad) {
    int st = fb_err_set(err, FB_EIO, "writing '%s' failed: %s", o->path, strerror(e ? e : EIO));
    fb_outfile_abort(o);
    return st;
  }
  tmp_unregister(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
  return FB_OK;
}

int fb_is_devnull(const char *path)
{
  struct stat a, b;
  return path != NULL && stat(path, &a) == 0 && S_ISCHR(a.st_mode) && stat("/dev/null", &b) == 0 &&
         S_ISCHR(b.st_mode) && a.st_rdev == b.st_rdev;
}

/* Append the components of rest to out (an absolute canonical path of len bytes), "."
 * dropped and ".." taking one back: rest names no existing file, so no symbolic link can
 * make that lexical step wrong. */
static int canon_append(char *out, size_t len, const char *rest)
{
  size_t n = strlen(out);
  while (*rest != '\0') {
    while (*rest == '/')
      rest++;
    const size_t k = strcspn(rest, "/");
    if (k == 0)
      break;
    if (k == 1 && rest[0] == '.') {
      /* nothing */
    } else if (k == 2 && rest[0] == '.' && rest[1] == '.') {
      while (n > 1 && out[n - 1] != '/')
        n--;
      n = n > 1 ? n - 1 : 1;
      out[n] = '\0';
    } else {
      if (n + 1 + k + 1 > len)
        return -1;
      if (n > 1)
        out[n++] = '/';
      memcpy(out + n, rest, k);
      n += k;
      out[n] = '\0';
    }
    rest += k;
  }
  return 0;
}

int fb_path_canon(const char *path, char *out, size_t len)
{
  char head[PATH_MAX], res[PATH_MAX];
  if (path == NULL || *path == '\0' || strlen(path) >= sizeof head)
    return -1;
  snprintf(head, sizeof head, "%s", path);
  /* the longest existing prefix is resolved by realpath (links, "..", the working
   * directory); what follows it does not exist yet and is appended as written */
  size_t cut = strlen(head);
  for (;;) {
    const char saved = head[cut];
    head[cut] = '\0';
    const char *h = cut == 0 ? (path[0] == '/' ? "/" : ".") : head;
    if (realpath(h, res) != NULL) {
      head[cut] = saved;
      if (strlen(res) >= len)
        return -1;
      snprintf(out, len, "%s", res);
      return canon_append(out, len, path + cut);
    }
    head[cut] = saved;
    if (cut == 0)
      return -1;
    while (cut > 0 && head[cut - 1] == '/') /* back over the slashes, then the name */
      cut--;
    while (cut > 0 && head[cut - 1] != '/')
      cut--;
  }
}

int fb_same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char ca[PATH_MAX], cb[PATH_MAX];
  return fb_path_canon(a, ca, sizeof ca) == 0 && fb_path_canon(b, cb, sizeof cb) == 0 &&
         strcmp(ca, cb) == 0;
}

int fb_path_within(const char *path, const char *dir)
{
  char cp[PATH_MAX], cd[PATH_MAX];
  if (fb_path_canon(path, cp, sizeof cp) != 0 || fb_path_canon(dir, cd, sizeof cd) != 0)
    return fb_same_file(path, dir);
  const size_t n = strlen(cd);
  return strncmp(cp, cd, n) == 0 && (cp[n] == '\0' || cp[n] == '/' || n == 1);
}

int fb_outputs_distinct(size_t n, const char *const *names, const char *const *paths,
                        fb_err *err)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      const char *a = paths[i], *b = paths[j];
      if (a == NULL || b == NULL || fb_is_devnull(a) || fb_is_devnull(b))
        continue;
      const int out_a = strcmp(a, "-") == 0, out_b = strcmp(b, "-") == 0;
      if (out_a && out_b)
        return fb_err_set(err, FB_EINVAL, "%s '-' and %s '-' are both standard output: allowed "
                          "is one output on stdout", names[i], names[j]);
      if (!out_a && !out_b && fb_same_file(a, b))
        return fb_err_set(err, FB_EINVAL, "%s '%s' is the same file as %s '%s': one would "
                          "overwrite the other; give each output its own file", names[j], b,
                          names[i], a);
    }
  return FB_OK;
}

size_t fb_existing_prefix(const char *path)
{
  char tmp[4096];
  size_t n = strlen(path);
  if (n >= sizeof tmp)
    return 0;
  memcpy(tmp, path, n + 1);
  struct stat sb;
  while (n > 0 && stat(tmp, &sb) != 0) {
    while (n > 0 && tmp[n - 1] == '/')
      n--;
    while (n > 0 && tmp[n - 1] != '/')
      n--;
    while (n > 1 && tmp[n - 1] == '/')
      n--;
    tmp[n] = '\0';
  }
  return n;
}

void fb_rmdir_back(const char *path, size_t keep)
{
  char tmp[4096];
  size_t n = strlen(path);
  if (n >= sizeof tmp)
    return;
  memcpy(tmp, path, n + 1);
  while (n > keep) {
    if (rmdir(tmp) != 0) /* not empty, or not ours: stop there */
      return;
    while (n > keep && tmp[n - 1] != '/')
      n--;
    while (n > keep && tmp[n - 1] == '/')
      n--;
    tmp[n] = '\0';
  }
}

int fb_mkdir_p(const char *path)
{
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
      *p = '/';
    }
  return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

char *fb_json_text(const json_t *j)
{
  char *t = json_dumps(j, FB_JSON_FLAGS);
  if (t == NULL)
    return NULL;
  const size_t n = strlen(t);
  char *out = realloc(t, n + 2);
  if (out == NULL) {
    free(t);
    return NULL;
  }
  out[n] = '\n';
  out[n + 1] = '\0';
  return out;
}

int fb_json_dump(const json_t *j, FILE *fp)
{
  char *t = fb_json_text(j);
  if (t == NULL)
    return -1;
  const size_t n = strlen(t);
  const int ok = fwrite(t, 1, n, fp) == n;
  free(t);
  return ok ? 0 : -1;
}

int fb_stdout_guard(void)
{
  if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF)
    return 0;
  /* Closed stdout: hold descriptor 1 with /dev/full, so that no file opened later
   * (a mkstemp temporary) becomes "stdout", and every write to stdout fails. */
  int fd = open("/dev/full", O_WRONLY);
  if (fd >= 0 && fd != STDOUT_FILENO) {
    dup2(fd, STDOUT_FILENO);
    close(fd);
  }
  return 1;
}

int fb_stdout_finish(int rc, int was_closed)
{
  int bad = fflush(stdout) != 0 || ferror(stdout);
  const int e = errno;
  bad |= fclose(stdout) != 0;
  if (!bad || rc != 0) /* a failing command has said why already */
    return rc;
  if (was_closed)
    fputs("fricbench: writing to standard output failed: it is closed\n", stderr);
  else
    fprintf(stderr, "fricbench: writing to standard output failed: %s\n",
            strerror(e ? e : EIO));
  return 1;
}

int fb_tmpfile_fd(const char *prefix)
{
  const char *dir = getenv("TMPDIR");
  if (dir == NULL || *dir == '\0')
    dir = "/tmp";
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s_XXXXXX", dir, prefix) >= (int)sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  const int fd = mkstemp(path);
  if (fd >= 0) {
    unlink(path); /* nameless from here: nothing to clean up, whatever ends the process */
    /* not inherited: the report's gnuplot processes outlive many plots, and read what is
     * theirs through /proc (report_gnuplot.c) */
    fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  return fd;
}

/* NAME.tmp.XXXXXX: fb_outfile_open's temporaries (mkstemp's six characters). */
static int is_outfile_tmp(const char *name)
{
  const char *t = strstr(name, ".tmp.");
  while (t != NULL && strstr(t + 1, ".tmp.") != NULL)
    t = strstr(t + 1, ".tmp.");
  return t != NULL && t != name && strlen(t + 5) == 6;
}

static size_t clean_dir(const char *dir, int depth)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    return 0;
  size_t n = 0;
  struct dirent *e;
  char path[4096];
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' ||
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
      continue;
    struct stat sb;
    if (lstat(path, &sb) != 0)
      continue;
    if (S_ISREG(sb.st_mode) && is_outfile_tmp(e->d_name))
      n += unlink(path) == 0;
    else if (S_ISDIR(sb.st_mode) && depth > 0)
      n += clean_dir(path, depth - 1);
  }
  closedir(d);
  return n;
}

size_t fb_remove_stale_tmp(const char *dir)
{
  char sub[4096];
  size_t n = clean_dir(dir, 0);
  snprintf(sub, sizeof sub, "%s/plots", dir);
  n += clean_dir(sub, 0);
  snprintf(sub, sizeof sub, "%s/traj", dir);
  return n + clean_dir(sub, 1);
}
