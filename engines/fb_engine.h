/* fb_engine.h — the engine contract (docs/engines.md): a physics engine (ODE, Bullet,
 * MuJoCo) as a treatment of the arena whose time stepping is the engine's.
 *
 * An engine is seen by the rest of fricbench as a model with model-owned schemes
 * (include/fricbench/fb_model.h, FB_MODEL_OWNED): the model is the engine with its settings
 * as parameters (`--set model.erp=0.5`), its schemes are the engine's steppers (`ode-step`,
 * `ode-quickstep`), and the one driver fb_drive (integrators/stepper.c) owns the budgets,
 * the forcing breaks, the fixed-step grid and the observer, exactly as for every built-in
 * scheme.  The glue (engines/engine.c) maps the scenario's plant onto one rigid body on a
 * plane (the mapping of docs/engines.md §2), hands the adapter the case once and then, at
 * every step, the applied force the scenario's own force function and spring law give at
 * the body's current state; the adapter answers the body's state and the contact forces,
 * which the glue writes back into the state y = [x, v, z] (z: the reported friction force,
 * normal force and a stick flag per contact), so that the recorder, metrics and verdicts
 * are those of every other treatment.
 *
 * An adapter is one file (engines/engine_<name>.c) that defines one fb_engine_type and the
 * model and stepper types made from it with FB_ENGINE_MODEL / FB_ENGINE_STEPPER below; a C
 * or C++ adapter is compiled only when its library is found, an out-of-process adapter
 * (node) implements open/step/close by talking to its process (docs/engines.md §4).
 */
#ifndef FB_ENGINE_H
#define FB_ENGINE_H

#include <stddef.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_params.h"
#include "fb_plant.h"
#include "fb_status.h"

/* The shape of the one body (docs/engines.md §2). */
enum fb_engine_shape { FB_ENGINE_BOX = 0, FB_ENGINE_SPHERE = 1 };

/* Cube half-size of every box (m): the size the practitioners' questions give the block
 * (docs/design.md §5.2); friction of a flat face does not depend on it. */
#define FB_ENGINE_BOX_HALF 0.1
/* Radius of a sphere when the scenario has no radius of its own (a point mass) (m). */
#define FB_ENGINE_SPHERE_RADIUS 0.1

/* The case an adapter receives once, before the first step: the scenario and the body it
 * maps to, in the engine's frame (x, y on the ground plane z = 0, z up). */
typedef struct fb_engine_case {
  const char *scenario;   /* the scenario's name */
  const fb_plant *plant;  /* its plant (the scenario's parameters are plant->sp) */
  const void *settings;   /* the engine's settings: its parameter struct, resolved */
  size_t stepper;         /* index of the engine's stepper (fb_engine_type.steppers) */
  double t0, T, h;        /* start, end, fixed step (s) */
  int shape;              /* enum fb_engine_shape */
  double size;            /* cube half-size or sphere radius (m) */
  double half_z;          /* box half-height (m): size, lowered to size / (2 mu) when mu >
                             1/2 so that friction at the face cannot tip the box (the
                             point-mass plant has no tipping); the sphere's radius */
  double mass;            /* kg */
  double inertia;         /* sphere: moment of inertia about its centre (kg m^2); NaN: the
                             solid's own (2/5 m r^2 for a sphere, m (2a)^2/6 for a cube) */
  double mu;              /* the contact's Coulomb coefficient (the kinetic level mu(inf) of the plant's law) */
  double restitution;     /* nominal restitution of the ground contact, 0: none */
  double gravity;         /* gravity along -z at t0 (m/s^2): N/m for a prescribed normal
                             force; 0 when the plant's own force carries gravity */
  double pos0[3];         /* initial centre (m): on the plane, z = size, when resting */
  double vel0[3];         /* initial velocity (m/s) */
  double angvel0[3];      /* initial angular velocity (rad/s) */
  double settle;          /* settling period at rest before t0 (s); 0: none (a drop) */
  int belt;               /* 1: the ground moves along x (fb_engine_input.belt_u) */
} fb_engine_case;

/* What the glue hands the adapter for one step from t to t + h. */
typedef struct fb_engine_input {
  double t, h;            /* s */
  double force[3];        /* applied force at the centre (N), constant over the step: the
                             scenario's force function minus D v minus K x at the state of t */
  double torque[3];       /* applied torque about the centre (N m) */
  double gravity;         /* gravity along -z over the step (m/s^2) */
  double belt_u;          /* ground surface velocity along x (m/s) */
} fb_engine_input;

/* What the adapter answers after a step (and after the settling period). */
typedef struct fb_engine_sample {
  double t;               /* s */
  double pos[3], vel[3];  /* centre (m, m/s) */
  double quat[4];         /* orientation (w, x, y, z) */
  double angvel[3];       /* rad/s */
  double Fn;              /* normal contact force on the body, summed over contact points (N) */
  double Ft[2];           /* tangential contact force on the body along x, y (N) */
  double Mt[3];           /* moment of the contact forces about the centre (N m) */
  size_t ncontacts;       /* contact points this step */
  unsigned long ninner;   /* steps(): the step's inner iterations (the glue adds them to the
                             run's count when it hands the step to the driver) */
} fb_engine_sample;

/* A scenario the mapping cannot express, with the reason (data, listed by the engine). */
typedef struct fb_engine_unsupported {
  const char *scenario, *why;
} fb_engine_unsupported;

typedef struct fb_engine_type {
  const char *name;       /* model name, e.g. "ode" */
  const char *title;      /* one line */
  const char *library;    /* what it links or runs, e.g. "ODE (libode-dev)" */
  /* 1 when present, with its version in buf (e.g. "0.16.2"); 0 when absent (not built,
   * library or process missing), with the reason in buf. */
  int (*version)(char *buf, size_t len);
  /* Scenarios it runs (NULL-terminated), and those it declares unsupported with why. */
  const char *const *scenarios;
  const fb_engine_unsupported *unsupported;
  /* Build the world for the case, run its settling period at rest (c->settle) and put the
   * body in the case's initial state; *settled: the state after settling, before the
   * initial state was set (the penetration and the vertical velocity left, reported). */
  int (*open)(void **ws, const fb_engine_case *c, fb_engine_sample *settled, fb_err *err);
  /* One step; the adapter counts its own inner work in cnt (iterations in ninner). */
  int (*step)(void *ws, const fb_engine_input *in, fb_engine_sample *out, fb_counters *cnt,
              fb_err *err);
  void (*close)(void *ws);
  /* Optional (NULL: one step at a time): k consecutive steps at once, in[i] -> out[i], with
   * exactly the results of k calls of step() (out[i].ninner: that step's inner iterations).
   * The glue calls it only when the applied forcing does not depend on the body's state
   * (fb_engine_batchable), so that it knows the inputs of the next steps before their states:
   * an out-of-process engine then pays one round trip per k steps (docs/engines.md §4). */
  int (*steps)(void *ws, const fb_engine_input *in, size_t k, fb_engine_sample *out,
               fb_err *err);
  /* Optional (NULL: in-process): the CPU seconds its own process has spent on this case
   * since open() sent it. */
  double (*child_cpu_s)(void *ws);
} fb_engine_type;

/* Most steps the glue hands an engine's steps() at once (the run's step budget, a forcing
 * break and the run's end cut a batch shorter).  The environment variable
 * FRICBENCH_ENGINE_BATCH=K (1 ... FB_ENGINE_BATCH_MAX) lowers it; K = 1: lock step. */
#define FB_ENGINE_BATCH_MAX 1024

/* 1 when the plant's applied force f(t, x, v) - D v - K x depends on t only (the scenario's
 * force does not read the state, force_uses_state == 0, and D = K = 0): the forces of the
 * next steps are known before their states, so an engine may take them in one batch.  The
 * normal force N(t) and the belt velocity u(t) are functions of t anyway. */
int fb_engine_batchable(const fb_plant *pl);

/* One of an engine's steppers as an integrator type's data. */
typedef struct fb_engine_stepper {
  const fb_engine_type *engine;
  size_t index;
} fb_engine_stepper;

/* The glue (engines/engine.c): the integrator operations and the model's output. */
int fb_engine_alloc(void **ws, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err);
int fb_engine_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
int fb_engine_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err);
void fb_engine_free(void *ws);
double fb_engine_child_cpu_s(void *ws);
int fb_engine_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                     double *F);
void fb_engine_init(const void *p, const fb_contact_in *c, double vr0, double *z0);
void fb_engine_init2(const void *p, const fb_contact_in *c, const double *vr0, double *z0);
/* z of a contact: the engine's friction force, normal force and stick flag */
#define FB_ENGINE_NZ 3
extern const char *const fb_engine_z_names[FB_ENGINE_NZ];

/* A stepper of engine `eng` (an fb_engine_type) named `nm`, index `idx`. */
#define FB_ENGINE_STEPPER(nm, ttl, eng, idx)                                                  \
  {                                                                                           \
    .name = nm, .title = ttl, .needs = 0, .fixed_ok = 1, .adaptive_ok = 0, .implicit = 0,     \
    .order = 1, .data = &(const fb_engine_stepper){&eng, idx}, .alloc = fb_engine_alloc,      \
    .free = fb_engine_free, .reset = fb_engine_reset, .step = fb_engine_step,                 \
    .child_cpu_s = fb_engine_child_cpu_s,                                                     \
  }

/* The model of engine `eng` (an fb_engine_type): settings `set`, schemes `sch`. */
#define FB_ENGINE_MODEL(nm, ttl, ref, set, sch, def)                                          \
  {                                                                                           \
    .name = nm, .title = ttl, .reference = ref,                                               \
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2, .default_integrator = def,       \
    .default_tol = 0, .params = set, .nz = FB_ENGINE_NZ, .z_names = fb_engine_z_names,        \
    .output = fb_engine_output, .init = fb_engine_init, .init2 = fb_engine_init2,             \
    .schemes = sch,                                                                           \
  }

/* ---- the engine registry (engines/registry.c) */
/* Every engine fricbench knows, built or not, NULL-terminated, with its model and suite
 * record (NULL model: not compiled in, the library was not found at build time). */
typedef struct fb_engine_entry {
  const char *name;              /* "ode" */
  const char *library;           /* what it needs, for the "absent" line */
  const fb_engine_type *engine;  /* NULL when not compiled */
  const fb_model_type *model;
  const fb_model_suite *suite;
} fb_engine_entry;
extern const fb_engine_entry fb_engine_table[];
/* The compiled engines' models and their suite records, NULL-terminated, entry by entry:
 * fb_model_find and fb_model_suite_of (engines/catalog.c) find them by name, fb_model_at
 * never lists them (the suite gives engines rows of their own). */
extern const fb_model_type *const fb_engine_models[];
extern const fb_model_suite *const fb_engine_model_suites[];
/* Any integrator by name: a generic one, any model's own scheme or an engine's stepper;
 * NULL if unknown (engines/catalog.c: the models' registry, then the engines). */
const fb_integrator_type *fb_integrator_find_any(const char *name);
/* The entry of engine model m, or NULL when m is no engine's. */
const fb_engine_entry *fb_engine_of_model(const fb_model_type *m);
/* 1 when the engine is compiled in and its library answers; its version (or why it is
 * absent) in buf. */
int fb_engine_present(const fb_engine_entry *e, char *buf, size_t len);
/* The same for a compiled engine (version(), unless FRICBENCH_ENGINES_OFF names it). */
int fb_engine_available(const fb_engine_type *eng, char *buf, size_t len);
/* NULL when engine e runs scenario `scenario`, else the reason it does not. */
const char *fb_engine_unsupported_why(const fb_engine_entry *e, const char *scenario);

#endif
