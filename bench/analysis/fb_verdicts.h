/* fb_verdicts.h — the verdict rules of docs/design.md §10, applied to a suite's runs.csv
 * and orders.csv, written as DIR/verdicts.csv and DIR/verdicts.json; the report's verdict
 * table is drawn from that file, so `merge`, re-plotting and `compare` see the same claims.
 *
 * One row per (model, integrator, view, step, property).  Views:
 *   defaults    each model's default integrator and step/tolerance: the baseline runs
 *               (every scenario) and the drift group's variants;
 *   fixed-step  every model at the common step FB_FIXED_VIEW_H[0] (the fixed-step group),
 *               with the finer FB_FIXED_VIEW_H[1] to classify chatter and creep;
 *   convergence the step ladders (property order only).
 * Properties and rules (only runs with status ok count: unstable, suspect, failed and
 * budget runs are never scored):
 *   stick    over every scenario with reference stick (spring-loaded ones included): the
 *            fraction of reference stick time the run holds by the velocity test
 *            (stick_held / stick_time_ref, summed), and by the model's own flag
 *            (stick_flag_time / stick_time_ref); "yes" when the velocity fraction is at
 *            least FB_V_STICK_HELD on every such scenario, "flag only" when the flag holds
 *            there but the velocity does not, "partly" when the summed fraction is at least
 *            1/2, "no" otherwise.
 *   hold     (revision 3) over every reference stick interval, from the run's own stop in
 *            it: the creep velocity of the element's anchor (hold_creep_v, m/s) and the
 *            displacement beyond the compliance bound |dF|/K_t (hold_excess, m), with the
 *            scenario's L and v_scale: "holds" (creep <= 1e-6 v_scale, excess <= 1e-6 L),
 *            "slips X (P % of the preload lost / of L)" (excess > 1e-2 L or slipping > 1 %
 *            of a long hold), "creeps X/s" or on the drift load "accumulates X/cycle",
 *            else "shifts X"; a set with an unstable run: "unstable at h (stable <= h_max)".
 *   creep    (fixed-step view) discretization creep: a creep velocity at h >= 2x the one
 *            at h/4; its order in h.
 *   stable-step (fixed-step view) from the bisection rows (runs.csv sweep `stable-step`:
 *            h the largest stable step found, sweep_value the smallest unstable one) of
 *            the set's (model, integrator): the smallest h_max over the scenarios with an
 *            unstable step, value2 that step, "stable <= X s (unstable at Y s on S)";
 *            "stable up to 0.1 T on every scenario" when none was unstable.  Without such
 *            rows: the smallest over the set's scenarios of the largest fixed step run
 *            stably below the smallest unstable one (every fixed-step run of the suite);
 *            "stable at every step run" when none was unstable.
 *   cost/s   (fixed-step view) evaluations per simulated second over the set's ok runs.
 *   chatter  sign changes of v_r per second inside reference stick, largest over the
 *            stick scenarios; "yes" above FB_V_CHATTER_RATE; a physical mode only when the
 *            rate at h/4 is within 0.5x-2x of the rate at h, numerical otherwise (fixed-
 *            step view only; the defaults view has one step: "unclassified").
 *   energy   the dissipation inequality with stored energy, checked at every accepted
 *            step by the run's observer.  For a force law (ODE model), pointwise and
 *            exact: power_excess_rel = max (F v_r + dE/dt) / (Fs v_scale) from the law's
 *            own rates, "creates energy" above FB_V_POWER_REL.  For a model-owned scheme,
 *            the step balance: W(t) = sum_i [E_i(t) - E_i(t0) + sum F_i(t_n+1) ds_i] must
 *            never rise; energy_excess_rel is its largest rise relative to sum_i Fs_i
 *            v_scale (T - t0), "creates energy" above FB_V_ENERGY_REL.  The largest over
 *            the set, worst scenario named.
 *   order    orders.csv's discretization order of x per scenario, fitted on the asymptotic
 *            range: the minimum over scenarios with events (reference stick) first, then the
 *            minimum (value) and maximum (value2) over all, each scenario named; never a
 *            median across regimes (docs/design.md §10); or "no asymptotic range" with the reasons.
 *   cost     on FB_V_COST_SCENARIO, for each accuracy target E_tot (err_x_l2): the fewest
 *            RHS / force-law evaluations (deterministic, like every verdict) among the
 *            model's ok runs of any group reaching it (so regularization parameter and step
 *            are tuned together), and the ratio to the cheapest model; "not reachable"
 *            with the best error reached.
 * Normal contact (docs/design.md §12), view "contact", one row per treatment (the model
 * column holds the treatment: the contact groups' tag up to "_"):
 *   restitution  on the restitution group (bouncing-ball, nominal e in {0.1 ... 0.9}): the
 *            largest |e_eff - e|, e_eff the mean -v_out/v_in of the first three bounces;
 *            "as set" when at most FB_V_RESTITUTION_TOL; value2: e_eff where it is worst.
 *   no-sucking   the smallest lambda_n over the accepted steps of every ok contact and
 *            restitution run; "no sucking" when >= -FB_V_SUCK_TOL (newton's release is
 *            located a round-off past lambda_n = 0); value2: how many runs pull.
 *   rests    on the contact group's runs whose newton reference comes to rest (bouncing-
 *            ball at e = 0.7 and 0.3, block-drop): in [t_inf + (T - t_inf)/2, T], the
 *            deepest penetration <= FB_V_REST_PEN h, the highest gap (leftover bouncing)
 *            <= FB_V_REST_GAP h and |lambda_n - static load| <= FB_V_REST_FORCE of it, h
 *            the drop height; the value is the worst ratio to its bound (<= 1: "rests").
 */
/* The spatial view (2-D contacts, docs/design.md §13): the baseline (disc) and spatial
 * (box) runs of the 2-D scenarios by (model, integrator, cone):
 *   direction  largest dir_err_rms: "right" within FB_V_DIR_DEG degrees, else "off"
 *              (value2: the largest dir_err_max);
 *   stop time  largest |stop_time_err|: "on time" within FB_V_STOP_TIME, "late" or "early" beyond,
 *              "never" when the reference sticks and the run does not;
 *   path       largest path_err_max: "follows" within FB_V_PATH_M, else "departs".
 */
#ifndef FB_VERDICTS_H
#define FB_VERDICTS_H

#include <stddef.h>

#include "fb_status.h"

#define FB_V_STICK_HELD 0.9
#define FB_V_CHATTER_RATE 10.0
/* energy: the pointwise check is exact up to round-off (measured <= 1e-12 on the laws
 * that dissipate); the step balance of the schemes that dissipate stays below 1e-8
 * (moreau-jean, switching) or shrinks O(h) (glowinski-lie 5e-6 at 1 ms on glowinski-2dof) */
#define FB_V_POWER_REL 1e-6
#define FB_V_ENERGY_REL 1e-5
/* spatial friction (docs/design.md §13) */
#define FB_V_DIR_DEG 1.0    /* friction direction within 1 degree (RMS) of -u/|u| */
#define FB_V_STOP_TIME 5e-3 /* stop / rolling onset within 5 ms (5 samples of the default grid) */
#define FB_V_PATH_M 1e-3    /* path within 1 mm of the reference's */
#define FB_V_COST_SCENARIO "stick-slip"
/* normal contact: a force law's static penetration m g / c_N is 5e-5 h at its auto
 * stiffness; the restitution tolerance is what a reader of the classic e_eff(e) plot
 * would call "on the identity line" */
#define FB_V_RESTITUTION_TOL 0.02
#define FB_V_SUCK_TOL 1e-12 /* N: newton's located release sits a round-off below 0 */
#define FB_V_REST_PEN 1e-3
#define FB_V_REST_GAP 1e-4
#define FB_V_REST_FORCE 1e-2
#define FB_V_COST_TARGETS {1e-2, 1e-3}

typedef struct fb_vrow {
  char model[64], integrator[48];
  char view[16];     /* defaults, fixed-step, convergence */
  char step[40];     /* "h=0.001", "tol=1e-08", "default", "ladder" */
  char property[24]; /* stick, drift, creep, chatter, energy, order, cost@<target> */
  char verdict[48];
  double value;      /* the number behind it */
  char unit[24];
  double value2;     /* a second number (stick by the model's flag; error reached by cost) */
  char rule[320];
  char scenarios[320]; /* where it was judged; the worst one first where it matters */
} fb_vrow;

typedef struct fb_vtable {
  fb_vrow *r;
  size_t n, cap;
} fb_vtable;

/* One classification of runs everywhere (docs/design.md §10.8): the terminal, meta.json,
 * merge and the report count runs.csv's status words the same way. */
typedef struct fb_run_tally {
  size_t n, ok, unstable, suspect, budget, failed;
  size_t expected; /* of the unstable and failed: expected by the model's suite data
                      (expect_fail: a stiff law under an explicit stepper) */
} fb_run_tally;
/* Count one row; model and integrator (may be NULL) decide whether an unstable or failed
 * run was expected. */
void fb_run_tally_add(fb_run_tally *t, const char *status, const char *model,
                      const char *integrator);
/* The reason the model's suite data gives for expecting its unstable or failed runs under
 * this integrator (expect_fail_why: a stiff law under an explicit stepper), NULL when they
 * are not expected (docs/failures.md). */
const char *fb_run_expected_why(const char *model, const char *integrator);
/* "N runs (a ok, b unstable, c suspect, d budget, e failed; f of the unstable and failed
 * expected)" into buf. */
void fb_run_tally_text(const fb_run_tally *t, char *buf, size_t len);

struct fb_csv;
/* Parse a runs.csv text into T, refusing one without a status column: FB_EIO or FB_ENOMEM
 * with err set (the verdicts' and the seed claims' common entry). */
int fb_runs_parse(struct fb_csv *T, const char *runs_csv, size_t runs_len, fb_err *err);
/* The row of (model, view, property), the first of them; NULL when absent. */
const fb_vrow *fb_vtable_find(const fb_vtable *v, const char *model, const char *view,
                              const char *property);

/* The number of DOFs of a row of group `scale` from its scenario and sweep value: the
 * chain's n blocks, the elastic frame's 6 ne (two members of ne elements, 3 DOFs a node:
 * core/fb_frame.h). */
double fb_scale_dofs(const char *scenario, double sweep_value);

/* The verdicts of the texts of runs.csv and orders.csv (orders may be NULL).  FB_EIO when
 * runs.csv is empty or lacks a needed column, FB_ENOMEM. */
int fb_verdicts_compute(const char *runs_csv, size_t runs_len, const char *orders_csv,
                        size_t orders_len, fb_vtable *v, fb_err *err);
void fb_vtable_free(fb_vtable *v);
/* Read DIR/runs.csv and DIR/orders.csv, write DIR/verdicts.csv and DIR/verdicts.json. */
int fb_verdicts_write(const char *dir, fb_err *err);
/* Load DIR/verdicts.csv (what the report draws). */
int fb_verdicts_load(const char *dir, fb_vtable *v, fb_err *err);

#endif
