/* matrix.c — the default experiment table of `fricbench suite` (SPEC §8), kept as data.
 *
 * Groups: baseline (every scenario x every model, default integrator, trajectories
 * kept), convergence (fixed-step ladders on the scenarios with closed forms and on
 * stick-slip), work-precision (tolerance ladders of the adaptive steppers), cost-mu
 * (friction-coefficient ladders: cost against mu), regularization (the regularization
 * parameter of each regularized model), drift (the drift variants), grid (seed 004's
 * eps x h grid on two-mass-drive).  --quick keeps the experiments flagged QUICK with
 * at most the first FB_QUICK_LADDER values of their ladders (ladders run coarse to
 * fine, so the quick ones are the cheap ones).
 */
#include <math.h>
#include <stddef.h>

#include "fb_suite.h"

#define Q FB_EXP_QUICK
#define TR FB_EXP_TRAJ
#define NONE_ FB_SWEEP_NONE, NULL, {0}, 0

/* step ladders, halving, by span T: 10 s, 2 s, 3-4 s */
#define H10 FB_SWEEP_H, NULL, {2e-2, 1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4}, 7
#define H2 FB_SWEEP_H, NULL, {4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5}, 7
#define H4 FB_SWEEP_H, NULL, {1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4, 1.5625e-4}, 7
#define TOLS FB_SWEEP_TOL, NULL, {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}, 8
#define MU_SLEDGES FB_SWEEP_PARAM, "mu", {0.01, 0.03, 0.1, 0.2, 0.3, 0.45, 0.6}, 7
#define MU_STICKSLIP FB_SWEEP_PARAM, "mu", {1, 2, 3, 4}, 4

#define BASE(s, m) {"baseline", "", s, m, NULL, {NULL}, NONE_, NAN, NAN, TR | Q, 0}
#define BASELINE_ROW(s)                                                                    \
  BASE(s, "naive-sign"), BASE(s, "smooth-sign"), BASE(s, "kikuuwe"), BASE(s, "lugre"),    \
      BASE(s, "dahl"), BASE(s, "penalty"), BASE(s, "glowinski"), BASE(s, "switching")

/* Fixed-step convergence: one experiment per (scenario, model, integrator). */
#define CONV(s, sets, H, quick)                                                             \
  {"convergence", "", s, "naive-sign", "heun3", sets, H, NAN, NAN, quick, 0},                  \
      {"convergence", "", s, "smooth-sign", "rk4", sets, H, NAN, NAN, 0, 0},                   \
      {"convergence", "", s, "kikuuwe", "rk4", sets, H, NAN, NAN, quick, 0},                   \
      {"convergence", "", s, "lugre", "bsimp", sets, H, NAN, NAN, 0, 0},                      \
      {"convergence", "", s, "penalty", "rk4", sets, H, NAN, NAN, 0, 0},                 \
      {"convergence", "", s, "penalty", "newmark", sets, H, NAN, NAN, quick, 0},         \
      {"convergence", "", s, "glowinski", "glowinski-lie", sets, H, NAN, NAN, quick, 0},       \
      {"convergence", "", s, "glowinski", "glowinski-strang", sets, H, NAN, NAN, 0, 0},        \
      {"convergence", "", s, "switching", "paper", sets, H, NAN, NAN, quick, 0}

/* Work-precision: tolerance ladders of the adaptive steppers. */
#define WP(s, quick)                                                                        \
  {"work-precision", "", s, "naive-sign", "rkf45", {NULL}, TOLS, NAN, NAN, 0, 0},              \
      {"work-precision", "", s, "smooth-sign", "rkf45", {NULL}, TOLS, NAN, NAN, 0, 0},         \
      {"work-precision", "", s, "smooth-sign", "rk8pd", {NULL}, TOLS, NAN, NAN, 0, 0},         \
      {"work-precision", "", s, "kikuuwe", "rkf45", {NULL}, TOLS, NAN, NAN, quick, 0},         \
      {"work-precision", "", s, "kikuuwe", "rk8pd", {NULL}, TOLS, NAN, NAN, 0, 0},             \
      {"work-precision", "", s, "kikuuwe", "msbdf", {NULL}, TOLS, NAN, NAN, 0, 0},             \
      {"work-precision", "", s, "lugre", "msbdf", {NULL}, TOLS, NAN, NAN, quick, 0},           \
      {"work-precision", "", s, "lugre", "rk4imp", {NULL}, TOLS, NAN, NAN, 0, 0},              \
      {"work-precision", "", s, "penalty", "rkf45", {NULL}, TOLS, NAN, NAN, 0, 0},       \
      {"work-precision", "", s, "penalty", "rk8pd", {NULL}, TOLS, NAN, NAN, 0, 0},       \
      {"work-precision", "", s, "switching", "event", {NULL}, TOLS, NAN, NAN, quick, 0}

/* Cost against the friction coefficient (seed 001 §3's claim).  On coupled-sledges the
 * default drive A = 10 sticks and slips at every mu; the A = 2 series is pure stick from
 * mu = 0.204 up (nothing moves), kept as a second series. */
#define SETS_A2 {"A=2", NULL}
#define COST(s, tag, sets, MU, quick)                                                      \
  {"cost-mu", tag, s, "naive-sign", "rkf45", sets, MU, NAN, 1e-6, quick, 0},                  \
      {"cost-mu", tag, s, "smooth-sign", "rkf45", sets, MU, NAN, 1e-6, 0, 0},                 \
      {"cost-mu", tag, s, "kikuuwe", "rkf45", sets, MU, NAN, 1e-6, quick, 0},                 \
      {"cost-mu", tag, s, "lugre", "msbdf", sets, MU, NAN, 1e-6, 0, 0},                       \
      {"cost-mu", tag, s, "penalty", "rkf45", sets, MU, NAN, 1e-6, 0, 0},               \
      {"cost-mu", tag, s, "glowinski", "glowinski-lie", sets, MU, 1e-3, NAN, 0, 0},           \
      {"cost-mu", tag, s, "switching", "event", sets, MU, NAN, 1e-6, quick, 0}

/* Sensitivity to the regularization parameter, adaptive so the cost of stiffness shows. */
#define REG(s, quick)                                                                       \
  {"regularization", "", s, "smooth-sign", "rkf45", {NULL}, FB_SWEEP_PARAM, "v_ratio",      \
   {1e-1, 1e-2, 1e-3, 1e-4, 1e-5}, 5, NAN, 1e-8, quick, 0},                                    \
      {"regularization", "", s, "kikuuwe", "rkf45", {NULL}, FB_SWEEP_PARAM, "f_ratio",      \
       {3, 10, 30, 100, 300, 1000}, 6, NAN, 1e-8, quick, 0},                                   \
      {"regularization", "", s, "lugre", "msbdf", {NULL}, FB_SWEEP_PARAM, "sigma0",         \
       {1e3, 1e4, 1e5, 1e6, 1e7}, 5, NAN, 1e-8, 0, 0},                                         \
      {"regularization", "", s, "penalty", "rkf45", {NULL}, FB_SWEEP_PARAM, "f_ratio", \
       {3, 10, 30, 100, 300, 1000}, 6, NAN, 1e-8, 0, 0}

/* The drift variants (SPEC §5 `drift`) with every model's default integrator. */
#define DRIFT_VARIANT(tag, s1, s2, s3)                                                      \
  {"drift", tag, "drift", "naive-sign", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0},      \
      {"drift", tag, "drift", "smooth-sign", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0}, \
      {"drift", tag, "drift", "kikuuwe", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0},     \
      {"drift", tag, "drift", "lugre", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0},       \
      {"drift", tag, "drift", "dahl", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0},        \
      {"drift", tag, "drift", "penalty", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0}, \
      {"drift", tag, "drift", "glowinski", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0},   \
      {"drift", tag, "drift", "switching", NULL, {s1, s2, s3, NULL}, NONE_, NAN, NAN, Q, 0}

/* seed 004's grid: the penalty force oscillates with period ~0.2 at eps = 0.001 over
 * T ~ 628, so its trajectories are sampled every ~0.016 */
#define GRID_SAMPLES 40001

#define ALL_SCENARIOS(X)                                                                    \
  X("inclined-block"), X("stick-slip"), X("drift"), X("glowinski-tp1"), X("glowinski-tp2"), \
      X("glowinski-2dof"), X("glowinski-3dof"), X("belt-oscillator"), X("two-mass-drive"),  \
      X("coupled-sledges"), X("preload-hold")

const fb_experiment fb_default_experiments[] = {
    ALL_SCENARIOS(BASELINE_ROW),
    CONV("inclined-block", {NULL}, H2, Q),
    CONV("stick-slip", {NULL}, H10, Q),
    CONV("glowinski-tp1", {NULL}, H2, 0),
    CONV("glowinski-tp2", {NULL}, H4, 0),
    CONV("glowinski-2dof", {NULL}, H4, 0),
    CONV("glowinski-3dof", {NULL}, H4, 0),
    WP("stick-slip", Q),
    WP("inclined-block", 0),
    COST("coupled-sledges", "", {NULL}, MU_SLEDGES, Q),
    COST("coupled-sledges", "A=2", SETS_A2, MU_SLEDGES, 0),
    COST("stick-slip", "", {NULL}, MU_STICKSLIP, 0),
    REG("drift", Q),
    REG("stick-slip", 0),
    DRIFT_VARIANT("default", NULL, NULL, NULL),
    DRIFT_VARIANT("zero-mean", "b=0", "a=0.9", NULL),
    DRIFT_VARIANT("near-Fs", "b=0.75", "a=0.6", NULL),
    DRIFT_VARIANT("slide-then-hold", "t_push=1", NULL, NULL),
    {"grid", "eps=0.1", "two-mass-drive", "penalty", "newmark", {"eps=0.1", "dT=0", NULL},
     FB_SWEEP_H, NULL, {0.1, 0.001}, 2, NAN, NAN, TR | Q, GRID_SAMPLES},
    {"grid", "eps=0.001", "two-mass-drive", "penalty", "newmark", {"eps=0.001", "dT=0", NULL},
     FB_SWEEP_H, NULL, {0.1, 0.001}, 2, NAN, NAN, TR | Q, GRID_SAMPLES},
};

const size_t fb_default_nexperiments = sizeof fb_default_experiments / sizeof fb_default_experiments[0];
