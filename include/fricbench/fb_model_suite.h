/* fb_model_suite.h — the suite's policy for one model (docs/design.md §3, §11): what the
 * experiment table, the scheduler, the verdicts and the report need to know about a model
 * beyond its science (include/fricbench/fb_model.h).  A model file or a plugin may supply a record; a
 * model without one gets defaults derived from its science (fb_model_suite_of,
 * include/fricbench/fb_model_registry.h). */
#ifndef FB_MODEL_SUITE_H
#define FB_MODEL_SUITE_H

#include <stddef.h>

/* Version of this record's layout, apart from the model type's (FB_ABI_VERSION): a plugin
 * that exports records (fb_plugin_model_suites, fb_plugin.h) exports
 *     const int fb_plugin_suite_abi = FB_SUITE_ABI_VERSION;
 * so a change of suite policy breaks only the plugins that supply policy. */
#define FB_SUITE_ABI_VERSION 1

/* The reason every stiff element law gives for its expect_fail under an explicit stepper. */
#define FB_EXPECT_STIFF_EXPLICIT                                                              \
  "a stiff law (its element at 100x the scenario's frequency) under an explicit stepper: "  \
  "unstable at the coarse steps of a ladder"

/* What the suite and the report need to know about a model, as data, so that the default
 * experiment table (bench/suite/matrix.c) is built from the registry and no file outside models/
 * names a model (docs/design.md §11 "one file + one line").  Every field may be left 0/NULL:
 * the meaning of 0 is given with it. */
typedef struct fb_model_suite {
  const char *model;            /* the name of the model (fb_model_type.name) it is for */
  const char *color;            /* "#rrggbb": the model's colour in every plot and the report */
  const char *fixed_integrator; /* used for a fixed step (--h, the fixed-step view) when
                                   default_integrator cannot take one; NULL: it can */
  const char *conv[4];          /* NULL-terminated fixed-step integrators of the convergence
                                   ladders */
  const char *wp[4];            /* NULL-terminated adaptive integrators of work-precision */
  const char *cost_integrator;  /* integrator of the cost-vs-mu ladder (NULL: the default) */
  double cost_h;                /* its fixed step; 0: adaptive at tol 1e-6 */
  const char *reg_param;        /* the regularization parameter swept (NULL: none) */
  double reg_values[8];         /* its ladder, soft -> stiff */
  size_t nreg;
  const char *alt_tag;          /* a named alternative parameter set shown in the drift */
  const char *alt_sets[5];      /* group (e.g. a published set), NULL-terminated; NULL tag: none */
  const char *grid_integrator;  /* [Engleder2002]'s eps x h grid on two-mass-drive with this scheme
                                   (parameters eps and dT); NULL: not in the grid */
  int stores_energy;            /* 1: an elastic element (anchor, bristle, penalty spring)
                                   stores energy, so F v_r > 0 can be energy coming back */
  int exact_limit;              /* 1: as h -> 0 the model's solution is the Coulomb one (no
                                   regularization), so its own reference is the scenario's */
  const char *own[2];           /* integrators of its own reference (docs/design.md §6): the
                                   first, or the second when a run uses the first; NULL:
                                   rk8pd and rkck (stiff laws name implicit ones) */
  double own_tol;               /* their tolerance; 0: 1e-11 */
  double cost_hint;             /* relative cost per adaptive run for the scheduler (1: a
                                   smooth law; 10: stiff slopes; 100: collapsing steps) */
  const char *expect;           /* expected behaviour with its source, for the report */
  const char *expect_fail[4];   /* NULL-terminated integrators under which the model's runs
                                   are expected to fail or be unstable at the coarser steps
                                   of a ladder (a stiff law under an explicit stepper): counted
                                   apart from real failures (docs/design.md §10.8) */
  const char *expect_fail_why;  /* the reason, for the report */
} fb_model_suite;

#endif
