/* fb_normal.h — normal-contact (impact) treatments: one interface (docs/design.md §12).
 *
 * A plant may carry normal directions (fb_normal in fb_plant.h): a gap g = J_n q + g_0 >= 0
 * and a force lambda_n >= 0 along J_n^T.  A treatment turns (g, gdot) into lambda_n:
 *  - force laws (penalty-n, hunt-crossley, kikuuwe-n): lambda_n = force(g, gdot, s) with
 *    ns internal states s and their rates, integrated with the motion;
 *  - `newton` (event == 1): the rigid law with Newton's impact law, event-driven — the
 *    contact reference solver.
 * All of them run through one model-owned scheme, `contact` (fb_integrator_contact,
 * contact/contact_scheme.c, declared with the registry and the impact statistics in the
 * library's private contact/fb_normal_int.h): any GSL stepper for the smooth phases, gap crossings located
 * with Brent, per-impact statistics (effective restitution, impact times, penetration).
 *
 * Parameters are set by name (`--set normal.NAME=VALUE`), `auto` rows resolved from the
 * contact's scales (mass, acceleration of the free motion, drop height) and the nominal e.
 */
#ifndef FB_NORMAL_H
#define FB_NORMAL_H

#include <stddef.h>

#include "fb_integrator.h"
#include "fb_params.h"
#include "fb_plant.h"
#include "fb_status.h"

#define FB_NORMAL_NS 2 /* internal states per normal direction, at most */

/* Scales of one normal direction, from the plant: where `auto` defaults come from. */
typedef struct fb_normal_scale {
  double m;    /* effective mass along J_n: 1 / (J_n M^-1 J_n^T) (kg) */
  double a;    /* acceleration scale of the free motion toward the contact (m/s^2) */
  double h;    /* gap scale, e.g. the drop height (m) */
  double v_in; /* impact velocity scale sqrt(2 a h) (m/s) */
  double e;    /* nominal restitution the scenario sets */
} fb_normal_scale;

typedef struct fb_normal_type {
  const char *name;      /* CLI name */
  const char *title;     /* one line */
  const char *reference; /* paper and equation */
  const fb_param_set *params; /* at most FB_NORMAL_NP doubles */
  size_t ns;                  /* internal states (<= FB_NORMAL_NS) */
  int event;                  /* 1: rigid, event-driven (newton); force() unused */
  /* Resolve auto rows of p from the scales and check cross-parameter constraints. */
  int (*resolve)(void *p, const fb_normal_scale *sc, fb_err *err);
  /* Internal states at the start (gap g, gap rate gd). NULL: zeros. */
  void (*init)(const void *p, double g, double gd, double *s);
  /* Called at each contact onset (gap crossing 0 downward at rate gd < 0): may store the
   * impact velocity in s (Hunt–Crossley's chi).  NULL: nothing. */
  void (*onset)(const void *p, double gd, double *s);
  /* lambda_n >= 0 at gap g, rate gd, states s; their rates into ds (ns entries). */
  double (*force)(const void *p, double g, double gd, const double *s, double *ds);
  /* A time-stepping treatment (moreau-jean) steps the whole plant itself at the fixed step
   * o->h, in place of the contact scheme's events: its stepper (fb_integrator.h; alloc,
   * reset, step, free), which the contact scheme runs under the one driver with its own
   * budgets and messages, statistics into the fb_impact_stats at o->stats (t_watch set by
   * the caller; the record is the library's, contact/fb_normal_int.h).  NULL for the others. */
  const struct fb_integrator_type *stepper;
} fb_normal_type;

/* The treatments' names, NULL-terminated, in listing order (the built-ins, then the
 * plugins'), as the choice list of a scenario's `normal` parameter (FB_PARAM_CHOICE,
 * 0 .. FB_NORMAL_MAX - 1): the in-tree contact scenarios, which see only this API, and a
 * plugin's scenario alike. */
#define FB_NORMAL_MAX 32
FB_API extern const char *fb_normal_names[FB_NORMAL_MAX + 1];
FB_API const fb_normal_type *fb_normal_find(const char *name);
/* The treatment at a `normal` parameter's index, NULL past the end. */
FB_API const fb_normal_type *fb_normal_at(double index);
/* Append a plugin's treatment (a plugin's fb_plugin_normals): FB_EINVAL when it lacks a name,
 * a parameter set that fits FB_NORMAL_NP doubles or a force law (or is not event-driven),
 * or its name is taken; FB_ENOMEM when the table is full. */
FB_API int fb_normal_register(const fb_normal_type *t, fb_err *err);

/* Give normal k of a plant treatment t with its defaults (autos NaN). */
FB_API int fb_normal_select(fb_normal *nm, const fb_normal_type *t);
/* Set a parameter of normal nm's treatment by name (checked against its row). */
FB_API int fb_normal_set(fb_normal *nm, const char *name, const char *value, fb_err *err);
/* zeta of a linear spring-damper with restitution e: zeta = -ln e / sqrt(pi^2 + ln^2 e)
 * (1 for e = 0). */
FB_API double fb_normal_zeta_of_e(double e);

#endif
