/* fb_normal_int.h — normal contact, private to contact/ and the layers above it (bench/,
 * tests/): the built-in treatments, the registry, the checks of a plugin's treatment, the
 * suite's variants, the scales and resolution the run harness calls, the scheme `contact`
 * and its per-impact statistics.  Plugins and embedding programs see only
 * include/fricbench/fb_normal.h (issue 25 item 3). */
#ifndef FB_NORMAL_INT_H
#define FB_NORMAL_INT_H

#include "fb_normal.h"

extern const fb_normal_type fb_normal_newton;
extern const fb_normal_type fb_normal_penalty;
extern const fb_normal_type fb_normal_hunt_crossley;
extern const fb_normal_type fb_normal_kikuuwe;
extern const fb_normal_type fb_normal_moreau_jean;
extern const fb_normal_type fb_normal_penalty_nm;
extern const fb_normal_type fb_normal_penalty_newmark;
extern const fb_normal_type fb_normal_ccp;
extern const fb_normal_type fb_normal_sap;

/* The treatments, NULL-terminated, in listing order (the built-ins, then the plugins'). */
extern const fb_normal_type *fb_normal_registry[FB_NORMAL_MAX + 1];
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
  /* why it does not take normals coupled through the mass matrix (J_n,k M^-1 J_n,l^T != 0:
   * conveyor-wall's wall-A and A-B), for the suite and the report; NULL: it does */
  const char *coupled_why;
} fb_normal_variant;
/* The reason of every event-driven treatment (contact/contact_scheme.c refuses the plant). */
#define FB_NORMAL_COUPLED_WHY                                                               \
  "event-driven, one normal at a time: simultaneous impacts of normals coupled through the " \
  "mass matrix need an impulse-level frictional LCP it does not solve"
/* The scenario whose normals are coupled through the mass matrix (the suite's group
 * `conveyor`, bench/suite/matrix.c; its report, bench/report/report_conveyor.c). */
#define FB_CONVEYOR_SCENARIO "conveyor-wall"
/* the built-ins' variants, then one per plugin treatment; terminated by label NULL */
#define FB_NORMAL_VARIANTS_MAX (FB_NORMAL_MAX + 8)
extern fb_normal_variant fb_normal_variants[FB_NORMAL_VARIANTS_MAX + 1];

/* Scales of normal k of a plant. */
void fb_normal_scales(const fb_plant *pl, size_t k, fb_normal_scale *sc);
/* Resolve every normal's auto parameters and check them. */
int fb_normal_resolve_all(fb_plant *pl, fb_err *err);

/* The model-owned scheme that runs plants with normals (contact/contact_scheme.c).  Its
 * smooth phases use opts.stepper (a GSL step type name; NULL: rk8pd) at the run's
 * tolerance.  Friction contacts bounded by a normal take N = lambda_n and their force from
 * the friction model's ODE law (force()); `newton` handles such a contact's friction
 * itself (Coulomb with stick/slip events and the Coulomb impulse at impacts). */
extern const fb_integrator_type fb_integrator_contact;

/* 1 when treatment t can run a plant with attitude quaternions: it leaves the stepping to
 * the contact scheme, or its own stepper integrates them (fb_integrator_type.takes_quat). */
int fb_normal_takes_quat(const fb_normal_type *t);
/* 1 when integrator type can run plant pl's kinematic map (fb_kinematics): pl has none, or
 * the type integrates it (fb_integrator_type.takes_quat) and so does the stepper of any
 * time-stepping normal treatment of pl (contact/normal.c). */
int fb_integrator_takes_quat(const fb_integrator_type *type, const fb_plant *pl);

/* Per-impact record kept by the contact scheme. */
#define FB_IMPACT_MAX 256
#define FB_STATS_NN 4
/* a . b over n entries, summed in index order (the time-stepping treatments' gap rows). */
static inline double fb_dotn(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

typedef struct fb_impact_stats {
  size_t n;                      /* contact phases of normal 0 recorded (first FB_IMPACT_MAX
                                    kept) */
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
  /* The hover of a sliding contact (time-stepping treatments: ccp, moreau-jean): over the
   * step ends where normal 0 pushes (impulse > 0) and its friction contact slides
   * (|v_r| > v_stick), their count, the sum of the gaps g and of h mu |v_r| (the gap
   * Anitescu's relaxation holds a sliding body at; docs/models/ccp.md). */
  size_t hover_n;
  double hover_gap_sum, hover_pred_sum;
  /* Per normal (the first FB_STATS_NN; plants with several contacts, docs/design.md §12):
   * contact phases opened (a force law's gap crossing, a newton impact, a moreau-jean step
   * with P_n > 0 after a free one), the first one's onset time (s; NaN: none) and lambda_n
   * at the last step end (N; impulse / h for moreau-jean). */
  size_t nph[FB_STATS_NN];
  double t_first[FB_STATS_NN];
  double lam_last[FB_STATS_NN];
  /* Optional input, kept like t_watch: called at every step end with t, y = (x, v), the
   * normal forces lambda_n[nn] (N) and the friction forces F[nc] on the bodies (N; for
   * moreau-jean the step's impulses / h).  NULL: not called (and nothing is evaluated for
   * it: the run's counts are those without it). */
  void (*on_step)(void *ctx, double t, const double *y, const double *lam, const double *F);
  void *on_step_ctx;
} fb_impact_stats;

/* Start values of a stats record (t_watch and on_step kept from *st when keep_watch). */
/* The linear penalty element's auto cN, dN and e where they are NaN (contact/normal.c). */
void fb_normal_penalty_auto(double *cN, double *dN, double *e, const fb_normal_scale *sc);
void fb_impact_stats_init(fb_impact_stats *st, int keep_watch);

/* What a time-stepping normal treatment (moreau-jean, ccp, sap: one impulse per normal and
 * step) knows after its step from t0 to t1 = t0 + h, for fb_stepping_stats. */
typedef struct fb_stepping_step {
  const double *P;   /* [nn] normal impulses of the step (N s) */
  const double *vn0; /* [nn] normal velocities J_n v at t0 (m/s) */
  const double *gk;  /* [nn] gaps at t0 (m) */
  double w0;         /* J_n,0 M^-1 J_n,0^T of normal 0 (1/kg) */
  const double *us;  /* [nc] surface velocities of the friction contacts at t1 (m/s) */
  const double *mu;  /* [nc] their friction coefficients over the step (1) */
  double *f, *a;     /* scratch, n doubles each */
  /* The slip (2 components) of friction contact fi with a Jacobian row at velocities v;
   * NULL: such contacts are read at their DOF like one-DOF ones. */
  void (*rows_slip)(void *ctx, size_t fi, const double *v, double u[2]);
  void *ctx;
} fb_stepping_step;

/* The impact statistics of that step ending at y = (x, v): penetration, the smallest force,
 * the normal work, each normal's contact phases (opened at the first step with P > 0,
 * onset interpolated on the gap; closed at the first with P = 0), normal 0's phase record,
 * its force at rest against the static one, the stop of its friction contact and the hover
 * gap of a sliding contact (docs/models/ccp.md).  inphase[nn] and *impacted are the
 * treatment's, kept from step to step (contact/stepping_stats.c). */
void fb_stepping_stats(const fb_plant *pl, fb_impact_stats *st, const fb_stepping_step *s,
                       int *inphase, int *impacted, double t0, double t1, double h,
                       const double *y);

/* Run a case's problem with the contact scheme and return its statistics (for the
 * `impacts` table and tests).  o: options (stepper, tolerances). */
int fb_contact_run_stats(const fb_problem *pb, const fb_int_opts *o, fb_impact_stats *st,
                         fb_counters *cnt, fb_err *err);

#endif
