/* matrix_contact.c — the default table's groups of normal contacts (docs/design.md §12),
 * of the source papers' seed systems (two-beam impact, elastic frame, sphere drop, conveyor
 * with a wall: docs/scenarios/) and of scale (the chain's and the frame's cost against their
 * number of DOFs, docs/scenarios/chain.md), split from matrix.c, which appends them after
 * its friction groups (matrix_int.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_normal_int.h"
#include "fb_suite.h"
#include "fb_integrator_int.h"
#include "matrix_int.h"

/* The normal-contact groups (docs/design.md §12): every treatment of fb_normal_variants
 * (the friction model smooth-sign, which block-drop's force-law runs need: a bounded
 * friction contact under a force law takes an ODE model, and the sign's chatter would
 * exhaust any budget), on
 *  - contact: bouncing-ball at e = 0.7 and 0.3, block-drop and both impact-oscillator
 *    settings of [Engleder2002] (trajectories kept for the first three);
 *  - restitution: bouncing-ball with the nominal e swept over mx_contact_e (effective
 *    against nominal e);
 *  - contact-wp: bouncing-ball (e = 0.7) with the contact scheme's tolerance swept (the
 *    step for a fixed-step treatment, moreau-jean);
 *  - contact-stiffness: bouncing-ball (e = 0.7) with the treatment's stiffness swept
 *    (cost against stiffness; the damping and compliance follow their auto rules).
 * The contact scenarios stay out of the baseline (fb_scenario_at): every friction model on
 * them would measure the friction models, not the treatments. */
const double mx_contact_e[MX_CONTACT_NE] = {0.1, 0.3, 0.5, 0.7, 0.9};
static const double contact_tols[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11};
/* moreau-jean's steps on bouncing-ball (T = 4): ratio 1.7 from off a round number, as
 * the convergence ladders */
static const double contact_steps[] = {3.7e-3, 2.18e-3, 1.28e-3, 7.53e-4, 4.43e-4, 2.61e-4,
                                       1.53e-4, 9.02e-5};
#define CONTACT_MODEL "smooth-sign"

void mx_contact_groups(builder *b)
{
  const fb_model_type *m = fb_model_find(CONTACT_MODEL);
  if (m == NULL)
    return;
  static const struct {
    const char *scenario, *suffix, *set1, *set2;
    unsigned flags;
    int dense; /* sampled at CONTACT_SAMPLES (its metrics are read off that grid) */
  } variants[] = {
      /* only the bouncing-ball overlays are drawn (report_contact.c): block-drop keeps its
       * dense grid for its metrics but no trajectory file (1.1 MB nobody looked at) */
      {"bouncing-ball", "", NULL, NULL, TR | Q, 1},
      {"bouncing-ball", "_e0.3", "e=0.3", NULL, TR, 1},
      {"block-drop", "", NULL, NULL, 0, 1},
      {"impact-oscillator", "", NULL, NULL, 0, 0},
      {"impact-oscillator", "_e0.7", "e=0.7", "Omega=1.569", 0, 0},
  };
  char buf[160];
  for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL; nv++) {
    snprintf(buf, sizeof buf, "scenario.normal=%s", nv->normal);
    const char *sel = fb_table_strdup(b->t, buf);
    const unsigned q = nv == fb_normal_variants || strcmp(nv->normal, "penalty-n") == 0 ? Q : 0;
    if (sel == NULL) {
      b->failed = 1;
      return;
    }
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
      /* Flores et al.'s chi = 8 (1 - e)/(5 e v_in) has no value at block-drop's e = 0 */
      if (nv->set != NULL && strstr(nv->set, "flores") != NULL &&
          strcmp(variants[v].scenario, "block-drop") == 0)
        continue;
      snprintf(buf, sizeof buf, "%s%s", nv->label, variants[v].suffix);
      const char *tag = fb_table_strdup(b->t, buf);
      fb_experiment *x = mx_add(b, "contact", tag, variants[v].scenario, m, NULL, variants[v].flags);
      if (x == NULL || tag == NULL) {
        b->failed = 1;
        return;
      }
      if (variants[v].dense)
        x->samples = CONTACT_SAMPLES;
      size_t k = 0;
      x->sets[k++] = sel;
      if (nv->set != NULL)
        x->sets[k++] = nv->set;
      if (variants[v].set1 != NULL)
        x->sets[k++] = variants[v].set1;
      if (variants[v].set2 != NULL)
        x->sets[k++] = variants[v].set2;
    }
    fb_experiment *x = mx_add(b, "restitution", nv->label, "bouncing-ball", m, NULL,
                           q || strcmp(nv->label, "hunt-crossley") == 0 ? Q : 0);
    if (x != NULL) {
      x->sets[0] = sel;
      x->sets[1] = nv->set;
    }
    mx_sweep(x, FB_SWEEP_PARAM, "scenario.e", mx_contact_e, sizeof mx_contact_e / sizeof *mx_contact_e);
    x = mx_add(b, "contact-wp", nv->label, "bouncing-ball", m, NULL, q);
    if (x != NULL) {
      x->sets[0] = sel;
      x->sets[1] = nv->set;
    }
    const fb_normal_type *nt = fb_normal_find(nv->normal);
    if (nt != NULL && nt->stepper != NULL) /* a fixed-step treatment: its step ladder */
      mx_sweep(x, FB_SWEEP_H, NULL, contact_steps, sizeof contact_steps / sizeof *contact_steps);
    else
      mx_sweep(x, FB_SWEEP_TOL, NULL, contact_tols, sizeof contact_tols / sizeof *contact_tols);
    if (nv->stiff == NULL)
      continue;
    x = mx_add(b, "contact-stiffness", nv->label, "bouncing-ball", m, NULL,
            strcmp(nv->normal, "penalty-n") == 0 ? Q : 0);
    if (x != NULL) {
      x->sets[0] = sel;
      x->sets[1] = nv->set;
      x->tol = 1e-8;
    }
    mx_sweep(x, FB_SWEEP_PARAM, nv->stiff, nv->stiff_values, FB_NORMAL_NSTIFF);
  }
}

/* The group `conveyor` (docs/scenarios/conveyor-wall.md): conveyor-wall, its e = 0 and
 * pinned-start variants under every treatment that takes normals coupled through the mass
 * matrix (fb_normal_variant.coupled_why NULL; the others are listed with their reason by
 * the report), with the friction model kikuuwe, whose ODE law holds stick under the force
 * laws (moreau-jean solves the friction itself); trajectories on a 1 ms grid. */
#define CONVEYOR_MODEL "kikuuwe"
#define CONVEYOR_SAMPLES 3001
#define CONVEYOR_CCP_TOL "normal.tol=1e-9"
void mx_conveyor_group(builder *b)
{
  const fb_model_type *m = fb_model_find(CONVEYOR_MODEL);
  if (m == NULL || fb_scenario_find(FB_CONVEYOR_SCENARIO) == NULL)
    return;
  static const struct {
    const char *suffix, *set;
  } variants[] = {{"", NULL}, {"_e0", "e=0"}, {"_pinned", "pinned=1"}};
  char buf[160];
  for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL; nv++) {
    if (nv->coupled_why != NULL)
      continue;
    snprintf(buf, sizeof buf, "scenario.normal=%s", nv->normal);
    const char *sel = fb_table_strdup(b->t, buf);
    /* quick: the reference's scheme, the cross-check's, and the paper's DAI->ODE (kikuuwe-n,
     * whose run the seed claim reads) */
    const unsigned q = strcmp(nv->normal, "moreau-jean") == 0 ||
                               strcmp(nv->normal, "penalty-n") == 0 ||
                               strcmp(nv->normal, "kikuuwe-n") == 0
                           ? Q : 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
      /* Flores et al.'s chi = 8 (1 - e)/(5 e v_in) has no value at e = 0 */
      if (nv->set != NULL && strstr(nv->set, "flores") != NULL && strcmp(variants[v].suffix, "_e0") == 0)
        continue;
      snprintf(buf, sizeof buf, "%s%s", nv->label, variants[v].suffix);
      const char *tag = fb_table_strdup(b->t, buf);
      fb_experiment *x = mx_add(b, "conveyor", tag, FB_CONVEYOR_SCENARIO, m, NULL, TR | (v == 0 ? q : 0));
      if (x == NULL || tag == NULL || sel == NULL) {
        b->failed = 1;
        return;
      }
      x->samples = CONVEYOR_SAMPLES;
      size_t k = 0;
      x->sets[k++] = sel;
      if (nv->set != NULL)
        x->sets[k++] = nv->set;
      if (variants[v].set != NULL)
        x->sets[k++] = variants[v].set;
      /* ccp: in the pinned state 6 impulses act on 4 DOFs, so they are not unique and
       * APGD's residual stalls at 1e-12 .. 1e-10 of the impulse, above its default stop
       * 1e-12 (every run failed at t = 0.47 .. 0.85 s); 1e-9 is a few 1e-12 m/s of
       * velocity (docs/failures.md) */
      if (strcmp(nv->normal, "ccp") == 0)
        x->sets[k++] = CONVEYOR_CCP_TOL;
    }
  }
}

/* The two-beam system of [Engleder2002] §3 (docs/scenarios/two-beam-impact.md):
 *  - two-beam: both cases, (e, Omega) = (0.3, 0.81) and (0.7, 1.569), under the reference
 *    newton, the paper's penalty-nm (c_N = 1e4, d_N = 50 / 20, h = 1e-4), penalty-n
 *    (the same element, adaptive) and moreau-jean (h = 1e-4), over T = 190 (TWO_BEAM_T):
 *    both cases move irregularly, and their impacts per period, contact fraction and
 *    amplitude levels have settled by t ~ 100 (e = 0.3) and ~ 190 (e = 0.7), as at T = 5000
 *    (docs/scenarios/two-beam-impact.md gives the numbers); 1.9e6 Newmark steps stay
 *    inside the suite's step budget.  Trajectories of newton and penalty-nm kept every 0.01,
 *    the last 40 % of them (76 time units: 10 periods at Omega = 0.81, 19 at 1.569), the
 *    report's phase curves;
 *  - two-beam-grid: an isolated collision (m0 = m1 = 1 at relative speed 1, springs,
 *    damping and forcing off) under penalty-nm on c_N x d_N x h, the effective restitution
 *    of each cell: [Engleder2002]'s "c_N, d_N and dt cannot be chosen separately". */
#define TWO_BEAM_T "T=190"
#define TWO_BEAM_SAMPLES 19001
#define TWO_BEAM_TAIL 0.4
static const double two_beam_h[] = {1e-3, 1e-4, 1e-5};

void mx_two_beam_groups(builder *b)
{
  const fb_model_type *m = fb_model_find(CONTACT_MODEL);
  if (m == NULL)
    return;
  static const struct {
    const char *tag, *normal;
    double h; /* NaN: adaptive at TWO_BEAM_TOL */
    unsigned flags;
  } tr[] = {
      {"newton", "scenario.normal=newton", NAN, TR | Q},
      {"penalty-nm", "scenario.normal=penalty-nm", 1e-4, TR},
      {"penalty-n", "scenario.normal=penalty-n", NAN, 0},
      {"moreau-jean", "scenario.normal=moreau-jean", 1e-4, 0},
  };
  static const struct {
    const char *suffix, *e, *omega;
  } cases[] = {{"", "e=0.3", "Omega=0.81"}, {"_e0.7", "e=0.7", "Omega=1.569"}};
  char buf[96];
  for (size_t i = 0; i < sizeof tr / sizeof *tr; i++)
    for (size_t k = 0; k < 2; k++) {
      snprintf(buf, sizeof buf, "%s%s", tr[i].tag, cases[k].suffix);
      const char *tag = fb_table_strdup(b->t, buf);
      fb_experiment *x = mx_add(b, "two-beam", tag, "two-beam-impact", m, NULL,
                             k == 0 ? tr[i].flags : tr[i].flags & ~Q);
      if (x == NULL || tag == NULL) {
        b->failed = 1;
        return;
      }
      x->sets[0] = tr[i].normal;
      x->sets[1] = cases[k].e;
      x->sets[2] = cases[k].omega;
      x->sets[3] = TWO_BEAM_T;
      if (isnan(tr[i].h))
        x->tol = 1e-10;
      else
        x->h = tr[i].h;
      if (tr[i].flags & TR) {
        x->samples = TWO_BEAM_SAMPLES;
        x->traj_tail = TWO_BEAM_TAIL;
      }
    }
  static const char *const cN[] = {"cN=1e3", "cN=1e4", "cN=1e5"};
  static const char *const dN[] = {"dN=50", "dN=20"};
  for (size_t j = 0; j < 2; j++)
    for (size_t i = 0; i < 3; i++) {
      snprintf(buf, sizeof buf, "%s_%s", cN[i], dN[j]);
      const char *tag = fb_table_strdup(b->t, buf);
      fb_experiment *x = mx_add(b, "two-beam-grid", tag, "two-beam-impact", m, NULL, Q);
      if (x == NULL || tag == NULL) {
        b->failed = 1;
        return;
      }
      x->sets[0] = "scenario.normal=penalty-nm";
      x->sets[1] = cN[i];
      x->sets[2] = dN[j];
      x->sets[3] = "collide=1";
      x->sets[4] = "T=0.2";
      mx_sweep(x, FB_SWEEP_H, NULL, two_beam_h, sizeof two_beam_h / sizeof *two_beam_h);
    }
}

/* The elastic frame ([Engleder2002] §4; docs/scenarios/elastic-frame.md), group `frame`, for
 * both of the paper's cases over FRAME_T (the self-excitation of the lift-off case has
 * built up by ~1.2 s; the report reads the last FRAME_TAIL of the span):
 *  - penalty-newmark at the paper's h = 1e-3 (quick);
 *  - reference: the same at h = 1e-5 (converged: the state fractions agree with h = 1e-4
 *    to 0.01), the suite's slowest frame runs (~4 s each);
 *  - moreau-jean (rigid contact, e = 0, linear forces implicit) at 1e-3 and 1e-4: the
 *    cross-check with the penalty's compliance taken away;
 *  - cost against the element count: penalty-newmark at 1e-3 on ne = 2 ... 64 (no-liftoff).
 * The other treatments cannot take part: newton, penalty-n, hunt-crossley and kikuuwe-n
 * run under the contact scheme's explicit steppers, which cannot step the frame's axial
 * modes (~1e5 rad/s at ne = 8; listed with the reason in the report).  The friction model
 * (smooth-sign) is not used: both treatments handle the friction contact themselves. */
#define FRAME_T "T=2.5"
#define FRAME_TAIL 0.4
#define FRAME_SAMPLES 2501
/* the files keep the last node's (u, v, theta) and the contact: all the report and
 * frame.csv read (the tip's u_P, v_P and rates; 48 DOFs at ne = 8 were 99 columns) */
#define FRAME_TRAJ_DOFS (-3)
static const double frame_mj_h[] = {1e-3, 1e-4};
static const double frame_ne[] = {2, 4, 8, 16, 32, 64};

void mx_frame_group(builder *b)
{
  const fb_model_type *m = fb_model_find(CONTACT_MODEL);
  if (m == NULL)
    return;
  static const char *const cases[2][2] = {{"no-liftoff", "case=no-liftoff"},
                                          {"liftoff", "case=liftoff"}};
  static const struct {
    const char *label, *normal, *set;
    double h;
    unsigned flags;
  } rows[] = {
      {"penalty-newmark", "scenario.normal=penalty-newmark", NULL, 1e-3, TR | Q},
      {"reference", "scenario.normal=penalty-newmark", NULL, 1e-5, TR},
      {"moreau-jean", "scenario.normal=moreau-jean", "normal.linear=implicit", NAN, TR},
  };
  char buf[96];
  for (size_t c = 0; c < 2; c++)
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
      snprintf(buf, sizeof buf, "%s_%s", rows[r].label, cases[c][0]);
      const char *tag = fb_table_strdup(b->t, buf);
      fb_experiment *x = tag != NULL ? mx_add(b, "frame", tag, "elastic-frame", m, NULL,
                                           rows[r].flags)
                                     : NULL;
      if (x == NULL) {
        b->failed = 1;
        return;
      }
      size_t k = 0;
      x->sets[k++] = rows[r].normal;
      x->sets[k++] = cases[c][1];
      x->sets[k++] = FRAME_T;
      if (rows[r].set != NULL)
        x->sets[k++] = rows[r].set;
      x->samples = FRAME_SAMPLES;
      x->traj_tail = FRAME_TAIL;
      x->traj_dofs = FRAME_TRAJ_DOFS;
      x->h = rows[r].h;
      if (isnan(rows[r].h))
        mx_sweep(x, FB_SWEEP_H, NULL, frame_mj_h, sizeof frame_mj_h / sizeof *frame_mj_h);
    }
  fb_experiment *x = mx_add(b, "frame", "cost-ne", "elastic-frame", m, NULL, 0);
  if (x == NULL) {
    b->failed = 1;
    return;
  }
  x->sets[0] = "scenario.normal=penalty-newmark";
  x->sets[1] = FRAME_T;
  x->h = 1e-3;
  mx_sweep(x, FB_SWEEP_PARAM, "scenario.ne", frame_ne, sizeof frame_ne / sizeof *frame_ne);
}

/* sphere-drop ([Xiong2013] §5.1; docs/scenarios/sphere-drop.md), group `sphere`, appended
 * after every other group: every normal treatment of fb_normal_variants with smooth-sign
 * (as the contact groups: newton and moreau-jean own the friction, the force laws take the
 * model's vector law with N = lambda_n) at the default mu = 0.1 and at early-roll (mu = 0.2,
 * rolling from inside an impact), trajectories kept every 0.5 ms; then under penalty-n every
 * friction model with a vector ODE law (naive-sign left out: its chatter under a force law
 * exhausts any budget, as in the contact groups); and `rest` (on the plane from t = 0, no
 * normal contact) under rkf45 for the same models.  The models that cannot take part (no
 * vector ODE law, or a law that reads f_app) have no rows: the report lists them with the
 * reason the run gives (report_sphere.c). */
#define SPHERE_SAMPLES 4001
void mx_sphere_group(builder *b, const fb_model_type *const *models)
{
  const fb_model_type *m = fb_model_find(CONTACT_MODEL);
  if (m == NULL)
    return;
  char buf[160];
  for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL; nv++) {
    /* a treatment that steps the plant itself without the attitude quaternions (ccp, sap,
     * penalty-nm, ...) cannot take part: the report lists it with the reason */
    const fb_normal_type *nt = fb_normal_find(nv->normal);
    if (nt != NULL && !fb_normal_takes_quat(nt))
      continue;
    snprintf(buf, sizeof buf, "scenario.normal=%s", nv->normal);
    const char *sel = fb_table_strdup(b->t, buf);
    for (int early = 0; early < 2; early++) {
      snprintf(buf, sizeof buf, "%s%s", nv->label, early ? "_early-roll" : "");
      const char *tag = fb_table_strdup(b->t, buf);
      const unsigned q = !early && (nv == fb_normal_variants || strcmp(nv->normal, "penalty-n") == 0 ||
                                    strcmp(nv->normal, "moreau-jean") == 0)
                             ? Q
                             : 0;
      fb_experiment *x = mx_add(b, "sphere", tag, "sphere-drop", m, NULL, TR | q);
      if (x == NULL || tag == NULL || sel == NULL) {
        b->failed = 1;
        return;
      }
      x->samples = SPHERE_SAMPLES;
      size_t k = 0;
      x->sets[k++] = sel;
      if (nv->set != NULL)
        x->sets[k++] = nv->set;
      if (early)
        x->sets[k++] = "mu=0.2";
    }
  }
  /* seed 002's claim on its own system (bench/analysis/seed_claims.c): the DAI->ODE pair
   * (kikuuwe friction, kikuuwe-n contact) under RK4 */
  const fb_model_type *kk = fb_model_find("kikuuwe");
  fb_experiment *xk = kk != NULL ? mx_add(b, "sphere", "claim-rk4", "sphere-drop", kk, "rk4", 0) : NULL;
  if (xk != NULL) {
    xk->samples = SPHERE_SAMPLES;
    xk->sets[0] = "scenario.normal=kikuuwe-n";
    xk->tol = 1e-6;
  }
  for (const fb_model_type *const *mm = models; *mm != NULL; mm++) {
    if (*mm == m || strcmp((*mm)->name, "naive-sign") == 0 || (*mm)->force2 == NULL ||
        ((*mm)->caps & FB_MODEL_NEEDS_FAPP))
      continue;
    fb_experiment *x = mx_add(b, "sphere", "friction", "sphere-drop", *mm, NULL, 0);
    if (x == NULL)
      return;
    x->samples = SPHERE_SAMPLES;
    x->sets[0] = "scenario.normal=penalty-n";
  }
  /* rest = 1: on the plane from t = 0, no normal contact: the friction-only plant under the
   * generic explicit stepper rkf45 (the GSL ODE system integrates the attitude), every
   * model with a vector ODE law but naive-sign */
  for (const fb_model_type *const *mm = models; *mm != NULL; mm++) {
    if (strcmp((*mm)->name, "naive-sign") == 0 || (*mm)->force2 == NULL)
      continue;
    fb_experiment *x = mx_add(b, "sphere", "rest", "sphere-drop", *mm, "rkf45", 0);
    if (x == NULL)
      return;
    x->samples = SPHERE_SAMPLES;
    x->sets[0] = "rest=1";
  }
}

/* The chain's cost against its size (docs/scenarios/chain.md "Cost against n"; group `scale`):
 * every treatment of a banded plant at n = 10, 100, 1000, 10000 (store=banded, so that every
 * n runs the same code), 500 fixed steps of 1e-3 s (T = 0.5: block 1 breaks loose at 0.29 s)
 * and 200 of rk4 at 1e-5 s (the regularized law's step); the cost-growth verdict judges the
 * work per step (counts, bench/analysis/verdicts_scale.c), the report plots CPU time per step
 * and per simulated second against n with the measured exponent.  Short spans, so the group
 * adds about a second of CPU to the suite; 11 samples (a trajectory of n = 1e4 is 2e4 wide). */
static const double scale_n[] = {10000, 1000, 100, 10}; /* --quick runs the first three */

void mx_scale_group(builder *b)
{
  /* cvode-bdf (a build with SUNDIALS only): CVODE on the band linear solver
   * (docs/integrators/sundials.md, "Banded plants"), adaptive at tol 1e-6, full suite only
   * (the quick suite's runs are the same with and without SUNDIALS).  T = 2: several slips,
   * so that n = 1e3 and 1e4 take similar steps (534 and 480; over T = 0.5, 27 and 20 with a
   * Jacobian every third step at 1e4, and the exponent read 1.08: CVODE's RMS norm divides
   * by the state's size, so the solver's steps depend on n).  About 1.5 s of CPU. */
  static const struct {
    const char *model, *integ, *T;
    double h, tol;
    unsigned flags;
  } rows[] = {{"moreau-jean", "moreau-jean", "T=0.5", 1e-3, NAN, Q},
              {"kikuuwe-be", "kbe-relay", "T=0.5", 1e-3, NAN, Q},
              {"kikuuwe-be", "kbe-symplectic", "T=0.5", 1e-3, NAN, Q},
              {"smooth-sign", "rk4", "T=0.002", 1e-5, NAN, Q},
              {"smooth-sign", "cvode-bdf", "T=2", NAN, 1e-6, 0}};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    const fb_model_type *m = fb_model_find(rows[r].model);
    if (m == NULL || fb_integrator_find(m, rows[r].integ) == NULL)
      continue;
    fb_experiment *x = mx_add(b, "scale", rows[r].integ, "chain", m, rows[r].integ, rows[r].flags);
    if (x == NULL)
      return;
    x->sets[0] = "store=banded";
    x->sets[1] = rows[r].T;
    x->h = rows[r].h;
    x->tol = rows[r].tol;
    x->samples = 11;
    mx_sweep(x, FB_SWEEP_PARAM, "scenario.n", scale_n, sizeof scale_n / sizeof *scale_n);
  }
}

/* The elastic frame's cost against its size (docs/scenarios/elastic-frame.md "Store"; group
 * `scale`, after every other group so that the rows before keep their run ids): the two
 * treatments that step a banded plant with normals, moreau-jean (linear forces implicit) and
 * penalty-newmark, at ne = 512, 128, 32, 8 elements per member (nq = 6 ne = 3072 ... 48
 * DOFs; --quick runs the first three), 200 steps of 1e-3 s on the no-liftoff case.  The
 * scenario's store: banded above ne = 64 (above 10 under moreau-jean), dense below, so the
 * exponent between the two largest ne is the band store's.  About 0.3 s of CPU. */
static const double frame_scale_ne[] = {512, 128, 32, 8};

void mx_frame_scale_group(builder *b)
{
  const fb_model_type *m = fb_model_find(CONTACT_MODEL);
  if (m == NULL)
    return;
  static const struct {
    const char *tag, *normal, *set;
  } rows[] = {{"frame-moreau-jean", "scenario.normal=moreau-jean", "normal.linear=implicit"},
              {"frame-penalty-newmark", "scenario.normal=penalty-newmark", NULL}};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    fb_experiment *x = mx_add(b, "scale", rows[r].tag, "elastic-frame", m, NULL, Q);
    if (x == NULL) {
      b->failed = 1;
      return;
    }
    size_t k = 0;
    x->sets[k++] = rows[r].normal;
    x->sets[k++] = "T=0.2";
    if (rows[r].set != NULL)
      x->sets[k++] = rows[r].set;
    x->h = 1e-3;
    x->samples = 11;
    mx_sweep(x, FB_SWEEP_PARAM, "scenario.ne", frame_scale_ne,
          sizeof frame_scale_ne / sizeof *frame_scale_ne);
  }
}
