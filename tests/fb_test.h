/* fb_test.h — helpers shared by the Criterion tests. */
#ifndef FB_TEST_H
#define FB_TEST_H

#include <stddef.h>
#include <sys/types.h>

#include "fb_run.h"

/* Run scenario x model x integrator with fixed step h (h > 0) or tolerance tol (when
 * h <= 0), after NAME=VALUE assignments (NULL-terminated list, may be NULL).  Records
 * `samples` grid points into *tr (allocated here; free with fb_trace_free) unless tr is
 * NULL.  extra: optional observer.  Aborts the test (cr_assert) on setup errors. */
int fbt_run(const char *scenario, const char *model, const char *integrator, double h,
            double tol, const char *const *sets, size_t samples, fb_trace *tr,
            const fb_observer *extra, fb_run_result *res);

/* Run the fricbench executable with argv (NULL-terminated, without argv[0]); returns its
 * exit status; stdout/stderr captured into the buffers (truncated, NUL-terminated). */
int fbt_cli(const char *const *argv, char *out, size_t outlen, char *errbuf, size_t errlen);

/* A fresh empty directory under /tmp (dir: at least 32 bytes). */
void fbt_tmpdir(char *dir, size_t len);
/* Entries in a directory, "." and ".." excluded. */
size_t fbt_dir_entries(const char *dir);
/* Remove a file, or a directory and everything below it (rm -rf). */
void fbt_rmdir(const char *path);

/* Start the fricbench executable with argv (NULL-terminated, without argv[0]), its stdout
 * and stderr on the given descriptors; returns the child's pid (the caller waits). */
pid_t fbt_spawn(const char *const *argv, int fd_out, int fd_err);

/* The machinery tests' plan, tests/plans/tiny.ini (absolute path, from FB_SOURCE_ROOT):
 * a few fast runs of several groups, so a test of resume, merge or the report does not
 * grow with the default table.  Aborts the test when FB_SOURCE_ROOT is not set. */
const char *fbt_tiny_plan(void);

/* Number of '\n' in s. */
size_t fbt_lines(const char *s);

#endif
