/* fb_switching_disc.h — the switching model's event-driven scheme for 2-D contacts and
 * contacts with a tangential Jacobian row (models/switching_disc.c; docs/design.md §13).
 *
 * switching.c's `event` and `paper` schemes hand such plants to these functions: the
 * workspace they return starts with an int tag (FB_SW_TAG_DISC), as switching.c's own
 * workspace does (FB_SW_TAG_LINE), so the scheme's operations and free dispatch on it.
 */
#ifndef FB_SWITCHING_DISC_H
#define FB_SWITCHING_DISC_H

#include <gsl/gsl_odeiv2.h>

#include "fb_integrator.h"

enum { FB_SW_TAG_LINE = 0, FB_SW_TAG_DISC = 1 };

/* Allocate the workspace for problem pb (switching model, nz = 2) with the checked
 * options o and GSL stepper T; locate: 1 locate switches (event), 0 at step ends (paper).
 * name: the scheme's name for messages. */
int fb_swd_alloc(void **out, const char *name, int locate, const gsl_odeiv2_step_type *T,
                 const fb_problem *pb, const fb_int_opts *o, fb_err *err);
/* The stepper operations of switching.c's types for such plants (fb_integrator.h). */
int fb_swd_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
int fb_swd_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
int fb_swd_event(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
void fb_swd_free(void *ws);

#endif
