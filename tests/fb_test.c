/* fb_test.c — helpers shared by the Criterion tests. */
#define _POSIX_C_SOURCE 200809L
#include "fb_test.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int fbt_run(const char *scenario, const char *model, const char *integrator, double h,
            double tol, const char *const *sets, size_t samples, fb_trace *tr,
            const fb_observer *extra, fb_run_result *res)
{
  fb_case c;
  fb_err err = {{0}};
  gsl_set_error_handler_off();
  cr_assert_eq(fb_case_init(&c, scenario, model, integrator, &err), FB_OK, "%s", err.msg);
  for (size_t k = 0; sets != NULL && sets[k] != NULL; k++)
    cr_assert_eq(fb_case_set(&c, sets[k], &err), FB_OK, "%s", err.msg);
  if (h > 0)
    c.opts.h = h;
  else
    c.opts.atol = c.opts.rtol = tol;
  c.samples = samples;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s/%s/%s: %s", scenario, model,
               integrator ? integrator : "default", err.msg);
  if (tr != NULL)
    cr_assert_eq(fb_trace_alloc(tr, samples, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz), FB_OK);
  int st = fb_case_run(&c, tr, extra, res);
  fb_case_free(&c);
  return st;
}

static void slurp(int fd, char *buf, size_t len)
{
  size_t used = 0;
  ssize_t r;
  char sink[4096];
  while ((r = read(fd, used + 1 < len ? buf + used : sink,
                   used + 1 < len ? len - 1 - used : sizeof sink)) > 0)
    if (used + 1 < len)
      used += (size_t)r;
  if (len)
    buf[used < len ? used : len - 1] = '\0';
}

pid_t fbt_spawn(const char *const *argv, int fd_out, int fd_err)
{
  const char *exe = getenv("FRICBENCH");
  cr_assert_not_null(exe, "FRICBENCH is not set (run the tests through meson test)");
  size_t argc = 0;
  while (argv[argc] != NULL)
    argc++;
  char **args = calloc(argc + 2, sizeof *args);
  cr_assert_not_null(args);
  args[0] = (char *)exe;
  for (size_t i = 0; i < argc; i++)
    args[i + 1] = (char *)argv[i];
  const pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    dup2(fd_out, 1);
    dup2(fd_err, 2);
    /* the child as a shell's foreground command gets it: every signal at its default (a
     * test run from a background job inherits SIGINT and SIGQUIT ignored, and a child that
     * ignores them cannot be tested dying of them) */
    for (int sig = 1; sig < 32; sig++) /* the standard signals (NSIG is not C11) */
      if (sig != SIGKILL && sig != SIGSTOP)
        signal(sig, SIG_DFL);
    execv(exe, args);
    _exit(127);
  }
  free(args);
  return pid;
}

int fbt_cli(const char *const *argv, char *out, size_t outlen, char *errbuf, size_t errlen)
{
  char tmpl_o[] = "/tmp/fbt_outXXXXXX", tmpl_e[] = "/tmp/fbt_errXXXXXX";
  int fo = mkstemp(tmpl_o), fe = mkstemp(tmpl_e);
  cr_assert(fo >= 0 && fe >= 0);
  const pid_t pid = fbt_spawn(argv, fo, fe);
  int status = 0;
  waitpid(pid, &status, 0);
  lseek(fo, 0, SEEK_SET);
  lseek(fe, 0, SEEK_SET);
  if (out)
    slurp(fo, out, outlen);
  if (errbuf)
    slurp(fe, errbuf, errlen);
  close(fo);
  close(fe);
  unlink(tmpl_o);
  unlink(tmpl_e);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void fbt_tmpdir(char *dir, size_t len)
{
  snprintf(dir, len, "/tmp/fbt_XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}

size_t fbt_dir_entries(const char *dir)
{
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "cannot open %s", dir);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

void fbt_rmdir(const char *path)
{
  struct stat sb;
  if (lstat(path, &sb) != 0)
    return;
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    char p[2048];
    while (d != NULL && (e = readdir(d)) != NULL)
      if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        fbt_rmdir(p);
      }
    if (d != NULL)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

const char *fbt_tiny_plan(void)
{
  static char path[4096];
  const char *src = getenv("FB_SOURCE_ROOT");
  cr_assert_not_null(src, "FB_SOURCE_ROOT is not set (run the tests through meson test)");
  snprintf(path, sizeof path, "%s/tests/plans/tiny.ini", src);
  cr_assert_eq(access(path, R_OK), 0, "cannot read %s", path);
  return path;
}

size_t fbt_lines(const char *s)
{
  size_t n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}
