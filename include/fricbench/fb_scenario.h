/* fb_scenario.h — a test system: its parameters, its plant and its reference (docs/design.md §5).
 *
 * A scenario never knows the model.  build() turns checked parameters into a plant
 * (docs/design.md §2), including the characteristic frequency f_c and velocity scale that the
 * models' "auto" parameters derive from, and the forcing breaks integrators must stop
 * at.  Its reference is either exact (closed form, exact()) or computed by the
 * event-driven reference solver (ref = FB_REF_EVENT); exact() may also cover only some
 * parameter values and report FB_EUNSUP for the others.
 */
#ifndef FB_SCENARIO_H
#define FB_SCENARIO_H

#include "fb_api.h"
#include "fb_params.h"
#include "fb_plant.h"
#include "fb_status.h"

typedef enum fb_ref_kind {
  FB_REF_NONE = 0, /* no reference */
  FB_REF_EXACT,    /* closed form: exact() */
  FB_REF_EVENT     /* event-driven reference solver (switching/event at tight tolerance) */
} fb_ref_kind;

typedef struct fb_scenario_type {
  const char *name;   /* CLI name */
  const char *title;  /* one line */
  const char *source; /* paper and section */
  const fb_param_set *params;
  /* Which reference this parameter set has (closed forms may hold only for some). */
  fb_ref_kind (*ref_kind)(const void *sp);
  /* Validate cross-parameter constraints and fill the plant (fb_plant_alloc inside;
   * the caller runs fb_plant_finish).  pl->sp must be set to sp. */
  int (*build)(const void *sp, fb_plant *pl, fb_err *err);
  /* Exact solution at t: x[n], v[n] and the friction force
   * F[nc] on the body, when F is not NULL (for Glowinski tests the multiplier is
   * derived from it). */
  int (*exact)(const void *sp, double t, double *x, double *v, double *F);
} fb_scenario_type;

typedef struct fb_scenario {
  const fb_scenario_type *type;
  void *params; /* owned */
  fb_plant plant;
  int built;
} fb_scenario;

FB_API int fb_scenario_init(fb_scenario *s, const fb_scenario_type *type);
/* Check the parameters, build and finish the plant. */
FB_API int fb_scenario_build(fb_scenario *s, fb_err *err);
FB_API void fb_scenario_free(fb_scenario *s);

/* fb_scenario_at(i) walks the built-in scenarios (scenarios/registry.c) and then the
 * scenarios of loaded plugins, in listing order (NULL past the end); the table and the
 * registration are the library's (scenarios/fb_scenarios.h). */
FB_API const fb_scenario_type *fb_scenario_at(size_t i);
FB_API const fb_scenario_type *fb_scenario_find(const char *name);

#endif
