/* normal_newton.c — `newton`: the rigid unilateral contact 0 <= g  ⊥  lambda_n >= 0 with
 * Newton's impact law v_n+ = -e v_n- (event-driven; the contact reference solver).  The
 * stepping is contact/contact_scheme.c: free flight with a GSL stepper, impacts located with
 * Brent on the gap, the jump applied, accumulation of impacts (Zeno, e < 1) detected when
 * the predicted next flight 2 v_n+/a falls below zeno_tol and replaced by persistent
 * contact with lambda_n from the constraint while it is >= 0. */
#include <math.h>
#include <stddef.h>

#include "fb_normal_int.h"

typedef struct newton_params {
  double e, zeno_tol;
} newton_params;

static const fb_param_desc newton_desc[] = {
    {"e", "1", "restitution coefficient", offsetof(newton_params, e), NAN, 0, 1, FB_PARAM_AUTO,
     "the scenario's e", NULL},
    {"zeno_tol", "s", "flight time below which impacts count as accumulated (persistent contact)",
     offsetof(newton_params, zeno_tol), NAN, 0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "1e-10 sqrt(2 h / a), the free-fall time from the drop height scaled", NULL},
};
static const fb_param_set newton_set = {sizeof(newton_params), 2, newton_desc};

static int newton_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  newton_params *p = pp;
  (void)err;
  if (isnan(p->e))
    p->e = sc->e;
  if (isnan(p->zeno_tol))
    p->zeno_tol = 1e-10 * sqrt(2 * sc->h / sc->a);
  return FB_OK;
}

const fb_normal_type fb_normal_newton = {
    .name = "newton",
    .title = "rigid contact, Newton's impact law, event-driven with Zeno handled (reference)",
    .reference = "Newton's impact law; docs/design.md §12",
    .params = &newton_set,
    .ns = 0,
    .event = 1,
    .resolve = newton_resolve,
};
