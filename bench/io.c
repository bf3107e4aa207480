/* io.c — atomic output files (fb_io.h). */
#define _POSIX_C_SOURCE 200809L
#include "fb_io.h"

#include <errno.h>
#include <pthread.h>
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
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    const int e = errno;
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
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}

int fb_outfile_commit(fb_outfile *o, fb_err *err)
{
  if (o->fp == stdout) {
    if (fflush(stdout) != 0 || ferror(stdout))
      return fb_err_set(err, FB_EIO, "writing to standard output failed");
    memset(o, 0, sizeof *o);
    return FB_OK;
  }
  int bad = ferror(o->fp) || fflush(o->fp) != 0;
  const int e = errno;
  bad |= fclose(o->fp) != 0;
  o->fp = NULL;
  if (!bad && rename(o->tmp, o->path) != 0)
    bad = 1;
  if (bad) {
    int st = fb_err_set(err, FB_EIO, "writing '%s' failed: %s", o->path, strerror(e ? e : EIO));
    fb_outfile_abort(o);
    return st;
  }
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
  return FB_OK;
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

void fb_json_str(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', fp);
    if ((unsigned char)*s >= 0x20)
      fputc(*s, fp);
  }
  fputc('"', fp);
}
