/* fb_normal.h — normal-contact (impact) treatments: one interface (docs/design.md §12).
 *
 * A plant may carry normal directions (fb_normal in fb_plant.h): a gap g = J_n q + g_0 >= 0
 * and a force lambda_n >= 0 along J_n^T.  A treatment turns (g, gdot) into lambda_n:
 *  - force laws (penalty-n, hunt-crossley, kikuuwe-n): lambda_n = force(g, gdot, s) with
 *    ns internal states s and their rates, integrated with the motion;
 *  - `newton` (event == 1): the rigid law with Newton's impact law, event-driven — the
 *    contact reference solver.
 * All of them run through one model-owned scheme, `contact` (fb_integrator_contact,
 * contact/contact_scheme.c): any GSL stepper for the smooth phases, gap crossings located
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

struct fb_impact_stats;

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
   * the caller).  NULL for the others. */
  const struct fb_integrator_type *stepper;
} fb_normal_type;

extern const fb_normal_type fb_normal_newton;
extern const fb_normal_type fb_normal_penalty;
extern const fb_normal_type fb_normal_hunt_crossley;
extern const fb_normal_type fb_normal_kikuuwe;
extern const fb_normal_type fb_normal_moreau_jean;

/* The treatments, NULL-terminated, in listing order (the built-ins, then the plugins'); the
 * names as a choice list (the scenarios' `normal` parameter). */
#define FB_NORMAL_MAX 32
extern const fb_normal_type *fb_normal_registry[FB_NORMAL_MAX + 1];
extern const char *fb_normal_names[FB_NORMAL_MAX + 1];
FB_API const fb_normal_type *fb_normal_find(const char *name);
/* The treatment at a `normal` parameter's index, NULL past the end. */
const fb_normal_type *fb_normal_at(double index);
/* Append a plugin's treatment (a plugin's fb_plugin_normals): FB_EINVAL when it lacks a name,
 * a parameter set that fits FB_NORMAL_NP doubles or a force law (or is not event-driven),
 * or its name is taken; FB_ENOMEM when the table is full. */
FB_API int fb_normal_register(const fb_normal_type *t, fb_err *err);
/* The checks of fb_normal_register that do not depend on the registry. */
int fb_normal_check(const fb_normal_type *t, fb_err *err);

/* The treatments as the suite, `fricbench impacts` and the report compare them: one row per
 * treatment and damping law, with the stiffness parameter the suite sweeps (cost against
 * stiffness) and its ladder (NULL for the rigid ones). */
#define FB_NORMAL_NSTIFF 6
typedef struct fb_normal_variant {
  const char *label;  /* short, file-name safe: tags, legends, table rows */
  const char *normal; /* the treatment's name */
  const char *set;    /* a normal.NAME=VALUE setting (NULL: none) */
  const char *stiff;  /* normal.NAME of its stiffness (NULL: rigid) */
  double stiff_values[FB_NORMAL_NSTIFF];
} fb_normal_variant;
/* the built-ins' variants, then one per plugin treatment; terminated by label NULL */
#define FB_NORMAL_VARIANTS_MAX (FB_NORMAL_MAX + 8)
extern fb_normal_variant fb_normal_variants[FB_NORMAL_VARIANTS_MAX + 1];

/* Give normal k of a plant treatment t with its defaults (autos NaN). */
FB_API int fb_normal_select(fb_normal *nm, const fb_normal_type *t);
/* Set a parameter of normal nm's treatment by name (checked against its row). */
FB_API int fb_normal_set(fb_normal *nm, const char *name, const char *value, fb_err *err);
/* Scales of normal k of a plant. */
void fb_normal_scales(const fb_plant *pl, size_t k, fb_normal_scale *sc);
/* zeta of a linear spring-damper with restitution e: zeta = -ln e / sqrt(pi^2 + ln^2 e)
 * (1 for e = 0). */
FB_API double fb_normal_zeta_of_e(double e);
/* Resolve every normal's auto parameters and check them. */
int fb_normal_resolve_all(fb_plant *pl, fb_err *err);

/* The model-owned scheme that runs plants with normals (contact/contact_scheme.c).  Its
 * smooth phases use opts.stepper (a GSL step type name; NULL: rk8pd) at the run's
 * tolerance.  Friction contacts bounded by a normal take N = lambda_n and their force from
 * the friction model's ODE law (force()); `newton` handles such a contact's friction
 * itself (Coulomb with stick/slip events and the Coulomb impulse at impacts). */
extern const fb_integrator_type fb_integrator_contact;

/* Per-impact record kept by the contact scheme. */
#define FB_IMPACT_MAX 256
typedef struct fb_impact_stats {
  size_t n;                      /* contact phases recorded (first FB_IMPACT_MAX kept) */
  double t_in[FB_IMPACT_MAX];    /* onset times (gap crossing 0 downward) (s) */
  double t_out[FB_IMPACT_MAX];   /* separation times (NaN: still in contact) (s) */
  double v_in[FB_IMPACT_MAX];    /* gap rate at onset (< 0) (m/s) */
  double v_out[FB_IMPACT_MAX];   /* gap rate at separation (m/s) */
  double max_pen;                /* largest penetration -g (m), 0 if none */
  double min_lambda;             /* smallest lambda_n seen (never < 0: no sucking) */
  double t_rest;                 /* newton: time persistent contact began (NaN: never) */
  double vt_after_first;         /* tangential velocity (friction DOF) at first separation
                                    or, for newton, right after the first impact (NaN: none) */
  double t_stop;                 /* first time the friction DOF comes to rest after an
                                    impact (NaN: never) */
  /* Energy the normal forces did on the body, int lambda_n gdot dt (force laws: trapezoid
   * per step; newton: the kinetic-energy jumps of its impacts) (J, <= 0 when dissipative). */
  double work_n;
  double lam_T;                  /* lambda_n of normal 0 at the end (N; impulse / h for
                                    moreau-jean) */
  /* The rest window [t_watch, T] (t_watch is an input: set it before the run, NaN: no
   * window): over the step ends in it, for normal 0, the deepest penetration -g, the
   * highest gap g (leftover bouncing) and the largest |lambda_n - lambda_static| with
   * lambda_static = -(J_n M^-1 f)/(J_n M^-1 J_n^T) the load that holds the body at rest. */
  double t_watch;
  double rest_pen, rest_gap, rest_lam_err, rest_lam_static;
} fb_impact_stats;

/* Start values of a stats record (t_watch kept from *st when keep_watch). */
void fb_impact_stats_init(fb_impact_stats *st, int keep_watch);

/* Run a case's problem with the contact scheme and return its statistics (for the
 * `impacts` table and tests).  o: options (stepper, tolerances). */
int fb_contact_run_stats(const fb_problem *pb, const fb_int_opts *o, fb_impact_stats *st,
                         fb_counters *cnt, fb_err *err);

#endif
