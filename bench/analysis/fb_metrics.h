/* fb_metrics.h — the metrics of docs/design.md §6, computed from a run's trajectory and the
 * scenario's reference only: they never ask the model under test anything (Siconos'
 * independent error function).  The comparison is on the common output grid (trace
 * and reference sampled at the same times); chatter is also counted on every accepted
 * step by an observer (fb_stream) that sees only the state.
 *
 * Conventions: errors are Euclidean norms over the DOFs (x, v) or contacts (F);
 * "stick" of a trajectory means |v_r| < v_stick (the plant's threshold) on at least two
 * consecutive samples; the reference's stick intervals come with the reference (exact:
 * where its v_r is 0; event-driven: from its events).
 */
#ifndef FB_METRICS_H
#define FB_METRICS_H

#include "fb_integrator.h"
#include "fb_run.h"

/* Stick intervals of one contact. */
typedef struct fb_span {
  double t0, t1;
} fb_span;

typedef struct fb_spans {
  size_t n, cap;
  fb_span *s;
} fb_spans;

int fb_spans_push(fb_spans *sp, double t0, double t1);
void fb_spans_free(fb_spans *sp);
/* Total length. */
double fb_spans_length(const fb_spans *sp);
/* Stick intervals of contact i of a trace: |v_r| <= thresh on >= 2 consecutive samples. */
int fb_spans_from_trace(fb_spans *sp, const fb_problem *pb, const fb_trace *tr, size_t i,
                        double thresh);

/* The reference of a case: trajectory on the common grid and per-contact stick spans. */
typedef struct fb_reference {
  fb_trace tr;
  size_t nc;
  fb_spans *stick; /* nc */
} fb_reference;

void fb_reference_free_spans(fb_reference *ref);

typedef struct fb_metrics {
  /* accuracy (docs/design.md §6): L2 in time (trapezoid), max over the grid, and at T */
  double err_x_l2, err_v_l2, err_F_l2;
  double err_x_max, err_v_max;
  double err_x_T, err_v_T;
  /* stick fidelity */
  double stick_time, stick_time_ref; /* summed over contacts (s) */
  double onset_err, offset_err;      /* mean |difference| over matched intervals (s) */
  double missed, spurious;           /* counts of unmatched reference / run intervals */
  /* drift inside the reference's stick intervals */
  double drift;           /* sum |s(end) - s(start)| of relative displacement (m) */
  double drift_per_cycle; /* drift / (stick time * f_c) (m per cycle of f_c) */
  /* chatter inside the reference's stick intervals */
  double chatter_rate;  /* sign changes of v_r per second (every accepted step) */
  double chatter_v_rms; /* RMS of v_r (m/s) */
  double chatter_F_tv;  /* total variation of F / (Fs * duration) (every accepted step) */
  /* energy: friction power F v_r must be <= 0 */
  double power_pos_count; /* samples with F v_r > 1e-9 Fs v_scale */
  double power_pos_max;   /* largest positive F v_r (W) */
  /* stick held inside the reference's stick intervals (docs/design.md §6), summed over
   * contacts: by the velocity test |v_r| < v_stick, and by the model's own flag (NaN when
   * the model has none) */
  double stick_held;      /* s */
  double stick_flag_time; /* s */
  /* drift as accumulation: in the longest reference stick of each contact, N forcing
   * cycles (1/f_c) after its start and 2N, the growth of the run's deviation from the
   * reference, |d(t_2N) - d(t_N)| / N, largest over contacts; a bounded elastic
   * deflection does not grow and gives ~0 */
  double drift_rate;      /* m per cycle; NaN when no stick lasts two cycles */
  double drift_growth;    /* |d(t_2N) - d(t_N)| / |d(t_N)|: how much the deviation grew
                             (1e-3 v_stick / f_c floors |d(t_N)|); ~0 for a bounded one */
  /* the three errors (docs/design.md §6): err_* above are the total error against the
   * scenario's Coulomb reference; disc_* against the model's own converged solution with
   * the same parameters (discretization error); mod_* that own solution against the
   * Coulomb reference (modelling error, a property of the parameters, not of h);
   * own_ref_err estimates the own solution's accuracy (floor of disc_*) */
  double disc_x_l2, disc_v_l2, disc_x_max;
  double mod_x_l2, mod_v_l2;
  double own_ref_err;
  double ref_x_l2;        /* the Coulomb reference's own size (L2 of x): the scale of the
                             consistency check (docs/design.md §6) */
  /* the dissipation inequality with stored energy (docs/design.md §6), every accepted
   * step: W(t) = sum_i [E_i(t) - E_i(t0) + int F_i v_r,i dt] (end-of-step force per step) is
   * the energy the friction elements created; a dissipative element never lets it rise */
  double energy_excess;     /* the largest rise max_{t1<t2} W(t2) - W(t1), J (0: none) */
  double energy_excess_rel; /* energy_excess / (sum_i Fs_i v_scale (T - t0)) */
  /* the same inequality pointwise for an ODE law, exact (no quadrature): the largest
   * F v_r + dE/dt (dE/dt = grad E . zdot from the law's own rates) over the accepted
   * steps, relative to Fs v_scale; <= 0 for a dissipative law; NaN for model-owned
   * schemes without a force law */
  double power_excess_rel;
  /* normal contact (docs/design.md §12; bench/analysis/fb_contact_metrics.h): NaN for
   * plants without a normal.  Against the contact reference: the same scenario variant
   * under `newton` at atol = rtol = 1e-12 (which reproduces the closed forms to 1e-13). */
  double e_nominal;      /* the scenario's e */
  double e_eff;          /* mean -v_out/v_in over the first (up to 3) complete contact phases */
  double e_first;        /* the first phase's */
  double t1_err;         /* first impact (onset) time minus the reference's (s) */
  double t_imp_err;      /* largest |onset time error| over the first (up to 5) impacts (s) */
  double pen_max;        /* deepest penetration -g_n (m) */
  double contact_dur;    /* length of the first contact phase (s; 0 for an impulsive one) */
  double lambda_min;     /* smallest lambda_n over the step ends (N; < 0: sucking) */
  double t_inf_ref;      /* the reference's rest time t_inf (s; NaN: it does not rest) */
  double rest_pen;       /* in the rest window [t_inf + (T - t_inf)/2, T]: deepest -g_n (m) */
  double rest_gap;       /*   highest g_n: leftover bouncing (m) */
  double rest_force_err; /*   largest |lambda_n - static load| / static load (1) */
  double work_n_err;     /* (W_n - W_n,ref) / (m_n a h): error of the energy the normal
                            force took out, relative to the drop energy (1) */
  double ut_err;         /* block-drop: tangential velocity after the first impact minus
                            the reference's u+ (m/s) */
  double stop_err;       /* block-drop: stop time minus the reference's (s) */
  /* spatial friction (docs/design.md §13), NaN for a plant without 2-D contacts:
   * path_err_max the largest distance (m) between the run's and the reference's path in the
   * plane (the plant's path DOFs); dir_err_max / dir_err_rms the angle (degrees) between the
   * friction force of a 2-D contact and its slip reversed, -u/|u|, over the samples where
   * the run and the reference both slip (|u| > 10 v_stick) and the run has a force; stop_time_err the run's first stick
   * (stop, rolling onset) minus the reference's (s), over the 2-D contacts, the largest in
   * magnitude; NaN when either never sticks */
  double path_err_max, dir_err_max, dir_err_rms, stop_time_err;
  /* hold (docs/design.md §10.1), over every reference stick interval [a, b] of every
   * contact, from the run's own first stuck sample in it (|v_r| < v_stick or its flag: an
   * onset a step late is the stick verdict's onset error), s(t) the run's tangential
   * relative position (Jt x minus the surface's travel),
   * K_t the treatment's declared tangential stiffness (fb_model_type.stiffness_param;
   * infinite for a rigid treatment):
   *   hold_creep_v   the least-squares slope of s over the second half of [a, b], on the
   *                  intervals with >= 10 samples lasting >= 5 periods 1/f_c or >= 0.5 s;
   *                  the largest in magnitude, signed (m/s; NaN: no such interval);
   *   hold_excess    D_x = max_t |s(t) - s(a)| - |dF|/K_t, dF the largest change of the
   *                  reference's stick force from the run's force at a (what a compliant
   *                  element may deflect without slipping), >= 0, the largest (m);
   *   hold_bound     |dF|/K_t of the interval where hold_excess is largest (m);
   *   hold_slip_frac on the same intervals, the largest share of the time where |v_r| >= v_stick at
   *                  either end of a sample interval and the model's own stick flag
   *                  does not hold at both (1);
   *   hold_accum     on intervals of >= 2 periods: (|s(b) - s(a + 1/f_c)| - |dF|/K_t) per
   *                  period after the first (settling) one, >= 0, the largest (m/cycle);
   *   L_scale, v_scale: the scenario's scales of the thresholds (m, m/s). */
  double hold_creep_v, hold_excess, hold_bound, hold_slip_frac, hold_accum;
  double L_scale, v_scale;
  /* stability (docs/design.md §10.2): own_x_l2 the L2 norm of x of the model's own
   * reference (m s^0.5; NaN without one); energy_max the largest kinetic + elastic (plant
   * springs) + stored (the model's element) energy over the accepted steps (J);
   * energy_ref_max the Coulomb reference's largest kinetic + elastic energy (J);
   * instability the larger of disc_x_l2 / max(own_x_l2, L sqrt(T - t0)) and energy_max /
   * (10 max(energy_ref_max, m v_scale^2 / 2)) (fb_metrics_stability): a run above 1 is
   * `unstable` unless it is within 1e-2 of own_x_l2 of its own converged solution (then the
   * index is the energy's, and the energy the model's; fb_run_unstable) (1) */
  double own_x_l2, energy_max, energy_ref_max, instability;
  /* the practitioners' questions (docs/design.md §6; bench/analysis/fb_pract_metrics.h), NaN where
   * the plant does not pose them: push_creep_v the mean slip velocity over the last forcing
   * segment of a one-contact plant with one forcing break (push-hold's push, m/s);
   * slide_ratio the mean of |F|/|F_ref| - 1 where the run and the reference slide
   * (|F_t|/(mu F_n) - 1 against a Coulomb reference), slide_ratio_max its value of largest
   * magnitude; rest_energy_rise the largest rise of kinetic + spring + stored energy of a
   * plant nothing drives (J) */
  double push_creep_v, slide_ratio, slide_ratio_max, rest_energy_rise;
  /* the kinematic map (fb_kinematics; docs/scenarios/sphere-drop.md): the largest
   * |‖Q‖ - 1| of the attitude quaternions over the accepted steps (1; NaN for a plant
   * without them): the scheme's drift, unless the plant asks for renormalization */
  double q_norm_err;
  /* the hover of a sliding contact under a time-stepping normal treatment (ccp,
   * moreau-jean; docs/models/ccp.md), NaN elsewhere: over the step ends where normal 0
   * pushes and its friction contact slides, hover_gap the mean gap g_n (m; Anitescu's
   * relaxation: h mu |v_t|) and hover_gap_rel its ratio to the mean h mu |v_t| (1) */
  double hover_gap, hover_gap_rel;
} fb_metrics;

/* Names of the metric columns, in fb_metrics field order (NULL-terminated), with units. */
extern const char *const fb_metric_names[];
extern const char *const fb_metric_units[];
#define FB_NMETRICS 71
#define FB_EXP_MAX_LOCAL 16
/* The fields as an array in the order of fb_metric_names. */
void fb_metrics_to_array(const fb_metrics *m, double out[FB_NMETRICS]);
/* The inverse of fb_metrics_to_array (the suite's journal stores the array). */
void fb_metrics_from_array(fb_metrics *m, const double in[FB_NMETRICS]);
void fb_metrics_nan(fb_metrics *m);

/* The per-step observer for chatter and the energy balance.  Set it up with the reference spans, chain it as
 * the `extra` observer of fb_case_run. */
typedef struct fb_stream {
  const fb_problem *pb;
  const fb_reference *ref;
  size_t *cursor;      /* nc: current span index per contact */
  double *vprev;       /* nc: last non-zero v_r inside a span (0 = none yet) */
  double *Fprev;       /* nc */
  int *havF;           /* nc */
  int *stick;          /* nc scratch */
  double *F;           /* nc scratch */
  double sign_changes; /* summed over contacts */
  double F_tv;         /* summed over contacts, N */
  /* energy bookkeeping, every accepted step */
  double *Eprev;       /* nc: stored energy at the previous step (J) */
  double *Pprev;       /* nc: the contact's DOF position there (m) */
  double *uprev;       /* nc: its surface velocity there (m/s) */
  double t_prev;
  int have_prev;
  double W, W_min;     /* created energy so far and its minimum (J) */
  double W_rise;       /* the largest rise of W over an interval (J) */
  double P_excess;     /* the largest pointwise (F v_r + dE/dt) / (Fs v_scale); -inf: none */
  double E_max;        /* the largest kinetic + elastic + stored energy (J); -inf: none */
} fb_stream;

int fb_stream_init(fb_stream *s, const fb_problem *pb, const fb_reference *ref);
void fb_stream_free(fb_stream *s);
int fb_stream_step(void *ctx, double t, const double *y);

/* All metrics of a finished run (trace complete).  Returns FB_OK. */
int fb_metrics_compute(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                       const fb_stream *st, fb_metrics *m);
/* L2-in-time (trapezoid) and max errors of x and v of trace a against trace b on their
 * common grid (the same accuracy norms as fb_metrics_compute); any pointer may be NULL. */
void fb_trace_errors(const fb_trace *a, const fb_trace *b, size_t n, double *x_l2,
                     double *v_l2, double *x_max);

/* The instability index of a finished run (docs/design.md §10.2), once disc_x_l2 and
 * own_x_l2 are known: m->instability (NaN when neither test can be made). */
void fb_metrics_stability(const fb_plant *pl, fb_metrics *m);
/* 1 when a run of status `status` with metrics m is unstable: a non-finite or diverged
 * state, or an instability index above 1; why[] says which. */
int fb_run_unstable(int status, const fb_metrics *m, char *why, size_t len);

/* L2 norm in time (trapezoid) of x of a trace with n DOFs (m s^0.5); NaN when empty. */
double fb_trace_x_l2(const fb_trace *tr, size_t n);

/* Median of v[0..n) (sorts v in place); NaN when n = 0. */
double fb_median(double *v, size_t n);

/* Observed order: least-squares slope of log(err) against log(h) (gsl_fit_linear) over
 * the finite, positive pairs; NaN with fewer than 2. */
double fb_observed_order(const double *h, const double *err, size_t n);

/* The observed order on the asymptotic range only (docs/design.md §6).  h[] from coarse
 * to fine, err[] the discretization errors, floor the level below which an error is
 * round-off or the reference's own error.  Local orders p_k = log(e_k/e_{k+1}) /
 * log(h_k/h_{k+1}); the asymptotic range is the longest run of >= 3 consecutive errors,
 * all finite and above 100 x floor, falling monotonically, whose local orders agree
 * within FB_ORDER_AGREE and do not drift: a window whose local orders move one way, and
 * keep moving that way in the local order on either side of it, is refused when that
 * change exceeds FB_ORDER_DRIFT (docs/design.md §10).  The order is the gsl_fit_linear slope over
 * it.  Otherwise NaN and *why names the reason ("too few points", "local orders drift",
 * "round-off", "plateau", "non-monotone", "local orders disagree"). */
#define FB_ORDER_AGREE 0.3
#define FB_ORDER_DRIFT 0.3
typedef struct fb_order_fit {
  double order;          /* NaN: no asymptotic range */
  size_t first, count;   /* the range used, indices into h[] */
  double local[FB_EXP_MAX_LOCAL]; /* local orders, n - 1 of them */
  const char *why;       /* "" when fitted */
} fb_order_fit;
void fb_order_asymptotic(const double *h, const double *err, size_t n, double floor,
                         fb_order_fit *fit);

#endif
