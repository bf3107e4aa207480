/* main.c — the fricbench executable. */
#include <gsl/gsl_errno.h>

#include "fb_cli.h"
#include "fb_io.h"

int main(int argc, char **argv)
{
  /* GSL's default handler aborts; every GSL return code is checked instead. */
  gsl_set_error_handler_off();
  const int closed = fb_stdout_guard();
  return fb_stdout_finish(fb_cli_main(argc, argv), closed);
}
