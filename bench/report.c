/* report.c — placeholder until the report lands (replaced wholesale). */
#include "fb_report.h"

int fb_report_make(const char *dir, fb_err *err)
{
  (void)dir;
  (void)err;
  return FB_OK;
}
