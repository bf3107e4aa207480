/* fb_status.c — names and messages for the status table of fb_status.h. */
#include "fb_status.h"

#include <stdarg.h>
#include <stdio.h>

const char *fb_status_name(int status)
{
  switch (status) {
#define FB_STATUS_CASE(sym, val, name, msg) \
  case sym:                                 \
    return name;
    FB_STATUS_LIST(FB_STATUS_CASE)
#undef FB_STATUS_CASE
  default:
    return "unknown";
  }
}

const char *fb_status_message(int status)
{
  switch (status) {
#define FB_STATUS_CASE(sym, val, name, msg) \
  case sym:                                 \
    return msg;
    FB_STATUS_LIST(FB_STATUS_CASE)
#undef FB_STATUS_CASE
  default:
    return "unknown status";
  }
}

int fb_err_set(fb_err *err, int status, const char *fmt, ...)
{
  if (err != NULL && fmt == NULL) { /* misuse, but the status still goes back */
    snprintf(err->msg, sizeof err->msg, "%s", fb_status_message(status));
  } else if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* one line, whatever a quoted name held: control characters become '?' */
    for (char *c = err->msg; *c != '\0'; c++)
      if ((unsigned char)*c < 0x20 || *c == 0x7f)
        *c = '?';
  }
  return status;
}
