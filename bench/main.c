/* main.c — the fricbench executable. */
#include <gsl/gsl_errno.h>

#include "fb_cli.h"

int main(int argc, char **argv)
{
  /* GSL's default handler aborts; every GSL return code is checked instead. */
  gsl_set_error_handler_off();
  return fb_cli_main(argc, argv);
}
