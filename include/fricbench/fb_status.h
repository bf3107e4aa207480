/* fb_status.h — status codes shared by every layer of fricbench.
 *
 * Convention (GSL / SUNDIALS): 0 is success, a positive code is a non-error stop
 * (the run ended early for a reason that is itself a result, e.g. its budget),
 * a negative code is a failure.  Every code has a short name used in result files
 * and a message; both come from the one X-macro table below so they cannot drift.
 */
#ifndef FB_STATUS_H
#define FB_STATUS_H

#include <stddef.h>

#include "fb_api.h"

#define FB_STATUS_LIST(X)                                                              \
  X(FB_OK, 0, "ok", "success")                                                          \
  X(FB_BUDGET, 1, "budget", "run budget (max_steps or max_rhs) exhausted")             \
  X(FB_EINVAL, -1, "invalid", "invalid argument")                                      \
  X(FB_ENOMEM, -2, "nomem", "out of memory")                                           \
  X(FB_EGSL, -3, "gsl", "GSL routine failed")                                          \
  X(FB_ENONFINITE, -4, "non-finite", "non-finite state")                               \
  X(FB_ESOLVE, -5, "solve", "inner solver (projection, Newton, root) did not converge") \
  X(FB_EUNSUP, -6, "unsupported", "combination not supported")                         \
  X(FB_EIO, -7, "io", "input/output error")                                           \
  X(FB_EDIVERGE, -8, "diverged", "state diverged beyond the scenario's scales")         \
  X(FB_EINTR, -9, "interrupted", "interrupted by a signal")

enum fb_status {
#define FB_STATUS_ENUM(sym, val, name, msg) sym = val,
  FB_STATUS_LIST(FB_STATUS_ENUM)
#undef FB_STATUS_ENUM
};

/* Short machine name ("ok", "budget", ...); "unknown" for codes not in the table. */
FB_API const char *fb_status_name(int status);
/* Human-readable description of a status code. */
FB_API const char *fb_status_message(int status);

/* A fixed-size buffer for one-line error messages.  Library code never prints or
 * exits: it fills one of these and returns a status; the caller decides. */
#define FB_ERR_LEN 512
typedef struct fb_err {
  char msg[FB_ERR_LEN];
} fb_err;

/* printf-style: writes the message into err (if err is not NULL) and returns status. */
FB_API int fb_err_set(fb_err *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
