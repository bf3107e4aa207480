/* fb_seed_claims.h — the headline claims of the five source papers, judged on a suite's
 * runs.csv and orders.csv (docs/design.md §10): seed-claims.csv, one row per
 * claim with how it is measured here, the number, and "reproduced", "partly", "not
 * reproduced" or "not measured" with the reason.  Only runs with status ok are scored
 * (every other status is named as not scored); orders.csv is fitted from ok runs only.
 *
 * The claims (seeds in /work/shared/seeds, cited as in docs/bibliography.md):
 *   000 [Glowinski2004]  Lie and Strang splitting are first order on glowinski-tp1/tp2,
 *                        Strang no better;
 *   001 [ShourbagyMatuttis] naive sign chatters in stick and never sticks; its cost over
 *                        the Lagrange-multiplier method (model `switching`, §3 of the
 *                        paper) grows to ~x100 at mu = 0.3 and beyond x1e4 at mu = 0.6 on
 *                        coupled sledges that slip (A = 10); the A = 2 pure-stick series
 *                        stated separately;
 *   002 [Xiong2013]      Dahl and LuGre drift under a sub-breakaway oscillating load, the
 *                        DAI->ODE model (kikuuwe) does not; its ODEs hold stick under RK4;
 *                        on Awrejcewicz's oscillator (§5.3) too, close to eq. 50's orbit;
 *   003 [Shiau2005]      the multi-DOF splitting with Uzawa is first order on 2dof/3dof;
 *   004 [Engleder2002]   penalty parameter and step interact (eps x h grid); c_N, d_N
 *                        calibrated against the exact impact solution (two-beam system,
 *                        not in the suite yet); the elastic frame self-excites without
 *                        lift-off at low belt speed, with lift-off at high (frame.csv).
 */
#ifndef FB_SEED_CLAIMS_H
#define FB_SEED_CLAIMS_H

#include <stddef.h>

#include "fb_status.h"

/* Thresholds of the claims' rules (why each: seed_claims.c). */
#define FB_SC_ORDER1_TOL 0.25   /* "first order": |order - 1| <= 0.25 */
#define FB_SC_STRANG_GAIN 0.2   /* "Strang no better": its order <= Lie's + 0.2 */
#define FB_SC_CHATTER 10.0      /* sign changes per second: the chatter verdict's bound */
#define FB_SC_HELD 0.9          /* held fraction of reference stick: the stick verdict's */
#define FB_SC_ABOUT 3.0         /* "about x100": within a factor 3 */
#define FB_SC_DRIFT_REL 1e-6    /* accumulates above 1e-6 L per cycle (docs/design.md §10) */
#define FB_SC_GRID_GAIN 2.0     /* a step change "matters" when it moves the error 2x */
#define FB_SC_BEAM_STEP 3.0     /* two-beam: the step's effect on e_eff 3x larger at stiff c_N */
#define FB_SC_BEAM_SPAN 0.1     /* two-beam: c_N moves e_eff by 0.1 at fixed d_N */

#define FB_SC_MAX 16

typedef struct fb_claim {
  char seed[8];       /* "000" ... "004" */
  char claim[200];    /* the paper's claim, in words */
  char measure[240];  /* how it is measured here */
  double value;       /* the number (NaN when not measured) */
  char verdict[24];   /* reproduced, partly, not reproduced, not measured */
  char why[480];      /* the reason, with the numbers */
} fb_claim;

typedef struct fb_claims {
  fb_claim r[FB_SC_MAX];
  size_t n;
} fb_claims;

/* The claims judged on the texts of runs.csv and orders.csv (orders may be NULL: the order
 * claims then read "not measured").  FB_EIO when runs.csv has no header or no status. */
int fb_seed_claims_compute(const char *runs_csv, size_t runs_len, const char *orders_csv,
                           size_t orders_len, fb_claims *c, fb_err *err);
/* The elastic frame's claim ([Engleder2002] §4) judged on the text of frame.csv
 * (bench/analysis/fb_frame_metrics.h; NULL: "not measured"), appended to c. */
void fb_seed_claims_frame(fb_claims *c, const char *frame_csv, size_t len);
/* Read DIR/runs.csv, DIR/orders.csv and DIR/frame.csv, write DIR/seed-claims.csv. */
int fb_seed_claims_write(const char *dir, fb_err *err);
/* [Xiong2013] §5.2's claim about conveyor-wall, appended to c: it reads the trajectory of
 * the conveyor group's kikuuwe-n run under dir/traj/ (bench/analysis/seed_claim_conveyor.c). */
void fb_seed_claim_conveyor(fb_claims *c, const char *runs_csv, size_t runs_len,
                            const char *dir);

#endif
