/* matrix.c — the default experiment table of `fricbench suite` (docs/design.md §8), built
 * from the registries: every model's suite data (fb_model_suite in include/fricbench/fb_model.h) says
 * which of its integrators join which group, so a new model (or a plugin) joins the suite
 * without an edit here.  Scenario names appear here because the groups are about them.
 *
 * Groups: baseline (every scenario x every model, default integrator, trajectories kept),
 * fixed-step (every model at the common steps FB_FIXED_VIEW_H, the fixed-step view of the
 * verdicts), convergence (fixed-step ladders on the closed-form scenarios and stick-slip),
 * work-precision (tolerance ladders), cost-mu (friction-coefficient ladders: cost against
 * mu), regularization (each regularized model's parameter), drift (the drift variants and
 * preload-hold's neighbours), grid ([Engleder2002]'s eps x h grid on two-mass-drive), and the
 * normal-contact groups (matrix_contact.c: contact, restitution, contact-wp,
 * contact-stiffness, and the seed systems' and the scale groups), the practitioners' questions (practitioner_group) and the stable
 * step by bisection (stable_step_group).  --quick
 * keeps the experiments flagged QUICK with at most the first FB_QUICK_LADDER values of
 * their ladders (ladders run coarse to fine, so the quick ones are the cheap ones).
 *
 * Step ladders are non-dyadic (ratio 1.7 from a start off a round number, three
 * significant digits) so that switches and forcing breaks do not sit on step boundaries
 * for every h of a ladder (docs/design.md §6).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_normal_int.h"
#include "fb_suite.h"
#include "fb_integrator_int.h"
#include "matrix_int.h"

/* [Engleder2002]'s grid: the penalty force oscillates with period ~0.2 at eps = 0.001 over
 * T ~ 628, so its trajectories are sampled every ~0.016 */
#define GRID_SAMPLES 40001
/* ... of which the report draws the last 2 of the 20 drive periods: the trajectory files
 * keep those (5.6 MB of a 29 MB results directory otherwise) */
#define GRID_TRAJ_TAIL 0.1
/* the chain's baseline files keep blocks 1-3 (with their contacts): the overlay plot draws
 * the first three DOFs of a plant (scripts/traj.gp); n = 10 blocks were 61 columns */
#define CHAIN_TRAJ_DOFS 3
#define LADDER_RATIO 1.7
#define LADDER_N 8

/* Models (and scenarios) in the default table at most: the built-ins and plugins' ones. */
#define FB_TABLE_MAX_MODELS 128

static const double tols[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
static const double mu_sledges[] = {0.01, 0.03, 0.1, 0.2, 0.3, 0.45, 0.6};
static const double mu_stickslip[] = {1, 2, 3, 4};
static const double fixed_view[] = FB_FIXED_VIEW_H;

/* Scenarios of the fixed-step view: those with stick and a span short enough for
 * ~1e5 steps at the finer common step. */
static const char *const fixed_view_scenarios[] = {
    "inclined-block", "stick-slip",     "drift",           "glowinski-tp1", "glowinski-tp2",
    "glowinski-2dof", "glowinski-3dof", "belt-oscillator", "coupled-sledges", "preload-hold",
    "puck",           "billiard",       "belt-2d",        NULL};

/* Convergence scenarios and the first step of their ladders (about span / 540). */
static const struct {
  const char *scenario;
  double h0;
  unsigned quick;
} conv_scenarios[] = {
    {"inclined-block", 3.7e-3, Q}, {"stick-slip", 1.37e-2, Q}, {"glowinski-tp1", 3.7e-3, 0},
    {"glowinski-tp2", 9.1e-3, 0},  {"glowinski-2dof", 9.1e-3, 0}, {"glowinski-3dof", 9.1e-3, 0},
    {"billiard", 1.85e-3, 0},
};

/* The drift variants (docs/design.md §5 `drift`): tag and settings. */
static const struct {
  const char *tag, *set1, *set2;
} drift_variants[] = {
    {"default", NULL, NULL},
    {"zero-mean", "b=0", "a=0.9"},
    {"near-Fs", "b=0.75", "a=0.6"},
    {"slide-then-hold", "t_push=1", NULL},
};

/* x rounded to three significant digits */
static double mx_round3(double x)
{
  const double p = pow(10.0, floor(log10(x)) - 2.0);
  return round(x / p) * p;
}

static void mx_ladder(fb_experiment *x, double h0)
{
  double v[LADDER_N];
  for (size_t k = 0; k < LADDER_N; k++)
    v[k] = mx_round3(h0 / pow(LADDER_RATIO, (double)k));
  mx_sweep(x, FB_SWEEP_H, NULL, v, LADDER_N);
}

const char *fb_model_fixed_step_integrator(const fb_model_type *m)
{
  if (fb_model_suite_of(m)->fixed_integrator != NULL)
    return fb_model_suite_of(m)->fixed_integrator;
  const fb_integrator_type *it = fb_integrator_find(m, m->default_integrator);
  if (it != NULL && it->fixed_ok)
    return m->default_integrator;
  return fb_model_suite_of(m)->conv[0];
}

/* 1 when model m's work-precision ladder has GSL's msbdf or rk8pd. */
static int wp_has_smooth_gsl(const fb_model_type *m)
{
  const fb_model_suite *ms = fb_model_suite_of(m);
  for (size_t i = 0; i < 4 && ms->wp[i] != NULL; i++)
    if (strcmp(ms->wp[i], "msbdf") == 0 || strcmp(ms->wp[i], "rk8pd") == 0)
      return 1;
  return 0;
}

/* 1 when the scenario's default plant has 2-D contacts or contacts with a tangential
 * Jacobian (docs/design.md §13): only models that take them run it. */
static int scenario_spatial(const fb_scenario_type *t)
{
  fb_scenario s;
  fb_err err;
  if (fb_scenario_init(&s, t) != FB_OK)
    return 0;
  const int r = fb_scenario_build(&s, &err) == FB_OK && (s.plant.npairs > 0 || s.plant.has_jt);
  fb_scenario_free(&s);
  return r;
}

/* 0 when integrator integ refuses model m on scenario by construction (FB_EUNSUP at its
 * alloc, e.g. kbe-relay's per-DOF relay on a coupled mass matrix: glowinski-2dof's
 * M = [[2, 1], [1, 2]]), so that the table holds no run that can only fail with that
 * refusal (docs/failures.md); 1 otherwise, and whenever the case cannot be set up here
 * (the run then says why). */
static int scheme_takes(const char *scenario, const fb_model_type *m, const char *integ,
                        double h)
{
  fb_case c;
  fb_err err = {{0}};
  if (fb_case_init(&c, scenario, m->name, integ, &err) != FB_OK)
    return 1;
  c.opts.h = h;
  int st = fb_case_prepare(&c, &err);
  if (st == FB_OK)
    st = fb_case_accepts(&c, &err);
  fb_case_free(&c);
  return st != FB_EUNSUP;
}

/* The integrator model m runs a 2-D scenario with, in place of `want` (NULL: its default):
 * `want` itself when it takes 2-D contacts; when only the model's ODE law has the vector
 * form (its own schemes take 1-D contacts), a generic one of the same kind (rkf45 adaptive,
 * rk4 at a fixed step); "" when the model has no 2-D form: not run (`fricbench list` and
 * the report say why). */
static const char *spatial_integrator(const fb_model_type *m, const char *want, int fixed)
{
  if (!fb_model_type_has_2d(m))
    return "";
  const fb_integrator_type *it = fb_integrator_find(m, want != NULL ? want : m->default_integrator);
  if (it == NULL || (!it->one_dim && (it->needs == FB_MODEL_ODE || (m->caps & FB_MODEL_VEC2))))
    return want;
  if (m->force2 == NULL)
    return ""; /* a one-dimensional scheme of a model whose other schemes take 2-D contacts */
  return fixed ? "rk4" : "rkf45";
}

const char *fb_model_fixed_step_integrator_on(const fb_model_type *m, const fb_scenario_type *st)
{
  const char *fi = fb_model_fixed_step_integrator(m);
  return st != NULL && scenario_spatial(st) ? spatial_integrator(m, fi, 1) : fi;
}

/* The practitioners' questions (docs/design.md §6; §8 group `practitioner`), asked of
 * every treatment at its fixed-step integrator (the user's 1 ms and a finer 0.1 ms) and, for
 * an adaptive model, at its defaults too:
 *  - creep: push-hold swept over the load fraction r (push_creep_v against r; 1.05 slides);
 *  - slide: push-hold at r = 2 (slide_ratio, |F_t|/(mu F_n) - 1 while sliding);
 *  - rest: push-hold without a push for 10 s (rest_energy_rise);
 *  - yaw: the puck launched at 0 ... 45 degrees (dir_err_*, slide_ratio against the angle),
 *    also under the box cone for the models that have one (the case where it must err).
 * The r ladder starts at 0.95, 1.05 so that --quick (its first FB_QUICK_LADDER values, at
 * 1 ms only) keeps the hold just below breakaway and the slide just above it; the report
 * sorts by r.  The yaw ladder starts at 45 degrees for the same reason (where a box cone's
 * magnitude errs most). */
static const double pract_r[] = {0.95, 1.05, 0.99, 0.9, 0.8, 0.5};
static const double pract_h[] = {1e-3, 1e-4};
static const double pract_yaw[] = {45, 20, 0, 5, 10, 15, 25, 30, 35, 40};

/* Is model m's default integrator adaptive (then it also runs at its defaults)? */
static int default_adaptive(const fb_model_type *m)
{
  const fb_integrator_type *it = fb_integrator_find(m, m->default_integrator);
  return it != NULL && it->adaptive_ok;
}

/* One push-hold experiment of the practitioner group: at step h (NaN: the model's
 * defaults), settings s1, s2 (NULL-terminated), swept over r when sweep_r. */
static void pract_push(builder *b, const fb_model_type *m, const char *tag, double h,
                       const char *s1, const char *s2, int sweep_r, unsigned flags)
{
  const char *integ = isnan(h) ? NULL : fb_model_fixed_step_integrator(m);
  fb_experiment *x = mx_add(b, "practitioner", tag, "push-hold", m, integ, flags);
  if (x == NULL)
    return;
  x->h = h;
  x->sets[0] = s1;
  x->sets[1] = s2;
  if (sweep_r)
    mx_sweep(x, FB_SWEEP_PARAM, "r", pract_r, sizeof pract_r / sizeof *pract_r);
}

/* The yaw sweep under the N-facet cone (docs/models/poly-cone.md) for the models that have
 * it: N = 6, 8, 16 beside the box's 4, so that the direction and magnitude errors show
 * against N (at most pi/N and 1/cos(pi/N) - 1).  --quick keeps N = 8. */
static void pract_poly(builder *b, const fb_model_type *m, const char *integ)
{
  static const struct {
    const char *tag, *facets;
  } polys[] = {{"yaw-poly6", "facets=6"}, {"yaw-poly8", "facets=8"}, {"yaw-poly16", "facets=16"}};
  for (size_t k = 0; k < sizeof polys / sizeof polys[0]; k++) {
    fb_experiment *x = mx_add(b, "practitioner", polys[k].tag, "puck", m, integ, k == 1 ? Q : 0);
    if (x == NULL)
      return;
    x->sets[0] = "vx0=1";
    x->sets[1] = "vy0=0";
    x->sets[2] = "cone=poly";
    x->sets[3] = polys[k].facets;
    mx_sweep(x, FB_SWEEP_PARAM, "yaw", pract_yaw, sizeof pract_yaw / sizeof *pract_yaw);
  }
}

static void practitioner_group(builder *b, const fb_model_type *const *models)
{
  static const char *const creep_tag[] = {"creep-h1e-3", "creep-h1e-4"};
  for (const fb_model_type *const *m = models; *m != NULL; m++) {
    for (size_t k = 0; k < sizeof pract_h / sizeof *pract_h; k++)
      pract_push(b, *m, creep_tag[k], pract_h[k], NULL, NULL, 1, k == 0 ? Q : 0);
    if (default_adaptive(*m))
      pract_push(b, *m, "creep-default", NAN, NULL, NULL, 1, 0);
    pract_push(b, *m, "slide-h1e-3", 1e-3, "r=2", NULL, 0, Q);
    pract_push(b, *m, "slide-default", NAN, "r=2", NULL, 0, 0);
    pract_push(b, *m, "rest-h1e-3", 1e-3, "r=0", "T=10", 0, Q);
    pract_push(b, *m, "rest-default", NAN, "r=0", "T=10", 0, 0);
    const char *integ = spatial_integrator(*m, NULL, 0);
    if (integ != NULL && *integ == '\0')
      continue; /* no 2-D form */
    const int box = fb_params_find((*m)->params, "cone") != NULL;
    for (int c = 0; c <= box; c++) {
      fb_experiment *x = mx_add(b, "practitioner", c ? "yaw-box" : "yaw", "puck", *m, integ,
                             c ? 0 : Q);
      if (x == NULL)
        return;
      x->sets[0] = "vx0=1";
      x->sets[1] = "vy0=0";
      x->sets[2] = c ? "cone=box" : NULL;
      mx_sweep(x, FB_SWEEP_PARAM, "yaw", pract_yaw, sizeof pract_yaw / sizeof *pract_yaw);
    }
    if (fb_params_find((*m)->params, "facets") != NULL)
      pract_poly(b, *m, integ);
  }
}

/* The stable step (docs/design.md §10.2, group `stable-step`): every (model, integrator) of
 * the fixed-step view on every scenario of that view, one bisection job each between the
 * smallest step of the scenario's ladders (its convergence ladder's finest, or the
 * fixed-step view's finest) and FB_BISECT_HI (T - t0).  That lower step is also the one
 * the ladders' own references are computed from (finest / 16), so the job shares them.
 * --quick keeps the stiff joint (preload-hold) with one treatment that is unstable at the
 * common step (kikuuwe/rk4: a real bisection) and one that is stable everywhere. */
static void stable_step_group(builder *b, const fb_model_type *const *models)
{
  static const char *const quick_models[] = {"kikuuwe", "moreau-jean", NULL};
  for (const char *const *s = fixed_view_scenarios; *s != NULL; s++) {
    const fb_scenario_type *st = fb_scenario_find(*s);
    double h_lo = fixed_view[sizeof fixed_view / sizeof fixed_view[0] - 1];
    for (size_t c = 0; c < sizeof conv_scenarios / sizeof conv_scenarios[0]; c++)
      if (strcmp(conv_scenarios[c].scenario, *s) == 0)
        h_lo = fmin(h_lo, mx_round3(conv_scenarios[c].h0 / pow(LADDER_RATIO, LADDER_N - 1)));
    for (const fb_model_type *const *m = models; *m != NULL; m++) {
      const char *fi = fb_model_fixed_step_integrator_on(*m, st);
      if (fi != NULL && *fi == '\0')
        continue;
      unsigned q = 0;
      for (const char *const *qm = quick_models; *qm != NULL; qm++)
        if (strcmp(*s, "preload-hold") == 0 && strcmp(*qm, (*m)->name) == 0)
          q = Q;
      fb_experiment *x = mx_add(b, "stable-step", "", *s, *m, fi, FB_EXP_BISECT | q);
      if (x != NULL)
        x->h = h_lo;
    }
  }
}

/* The engines (docs/engines.md; group `engine` and their rows of `practitioner` and
 * `stable-step`), each present engine at its defaults and at the settings its users reach
 * for (fb_engine_settings below), at the common step of 1 ms (an engine steps at a fixed
 * step; creep also at 0.1 ms):
 *  - engine: every scenario the engine runs, once per setting, trajectories kept;
 *  - practitioner: creep (push-hold over r: load fractions 0.5 ... 0.99 and 1.05), slide
 *    (r = 2), rest, and the yaw sweep of the puck, tagged "<question>-h1e-3-<setting>";
 *  - restitution: bouncing-ball over the nominal e (effective against nominal);
 *  - stable-step: bisection on preload-hold (the stiff joint) and stick-slip.
 * An absent engine gets no rows: the suite says so in one line, meta.json and the report
 * (fb_suite_engines_note). */
/* a setting's flag (beside Q): no creep rows at 0.1 ms (an out-of-process engine's
 * 60,000-step runs; the defaults keep them) */
#define NO_FINE (1u << 30)
static const struct {
  const char *engine, *tag, *integrator, *set1, *set2;
  unsigned quick;
} engine_settings[] = {
    {"ode", "qs20", "ode-quickstep", NULL, NULL, Q}, /* ODE's defaults (pyramid: ours) */
    {"ode", "qs50", "ode-quickstep", "quickstep_iterations=50", NULL, 0},
    {"ode", "step", "ode-step", NULL, NULL, 0},
    {"bullet", "si10", "bullet-si", NULL, NULL, Q}, /* Bullet's defaults (10 sweeps) */
    /* what Bullet users reach for: 50 sweeps, split impulse on every penetration (Bullet's
     * default splits only below 4 cm: docs/engines/bullet.md) */
    {"bullet", "si50split", "bullet-si", "solver_iterations=50", "split_impulse_threshold=0", 0},
    /* MuJoCo (docs/engines/mujoco.md): its defaults (pyramidal cone, impratio 1, Euler),
     * and what its users reach for against creep: the elliptic cone, elliptic with
     * impratio 10, the noslip post-solver */
    {"mujoco", "def", "mujoco-euler", NULL, NULL, Q},
    {"mujoco", "ell", "mujoco-euler", "cone=elliptic", NULL, NO_FINE},
    {"mujoco", "imp10", "mujoco-euler", "cone=elliptic", "impratio=10", NO_FINE},
    {"mujoco", "noslip10", "mujoco-euler", "noslip_iterations=10", NULL, NO_FINE},
};

/* Append NAME=VALUE s (NULL: nothing) to x's NULL-terminated settings. */
static void set_add(fb_experiment *x, const char *s)
{
  size_t k = 0;
  while (x != NULL && s != NULL && k + 1 < FB_EXP_MAX_SETS && x->sets[k] != NULL)
    k++;
  if (x != NULL && s != NULL && k + 1 < FB_EXP_MAX_SETS)
    x->sets[k] = s;
}

static fb_experiment *engine_add(builder *b, const char *group, const char *question,
                                 const char *scenario, const fb_model_type *m, size_t k,
                                 double h, unsigned flags)
{
  char buf[96];
  snprintf(buf, sizeof buf, "%s%s%s", question, *question ? "-" : "", engine_settings[k].tag);
  const char *tag = fb_table_strdup(b->t, buf);
  fb_experiment *x = mx_add(b, group, tag, scenario, m, engine_settings[k].integrator, flags);
  if (x == NULL || tag == NULL) {
    b->failed = 1;
    return NULL;
  }
  x->h = h;
  set_add(x, engine_settings[k].set1);
  set_add(x, engine_settings[k].set2);
  return x;
}

static void engine_groups(builder *b)
{
  for (size_t k = 0; k < sizeof engine_settings / sizeof *engine_settings; k++) {
    const fb_model_type *m = fb_model_find(engine_settings[k].engine);
    const fb_engine_entry *e = fb_engine_of_model(m);
    char why[160];
    if (e == NULL || !fb_engine_present(e, why, sizeof why))
      continue;
    const unsigned q = engine_settings[k].quick & ~NO_FINE;
    const size_t nh = engine_settings[k].quick & NO_FINE ? 1 : sizeof pract_h / sizeof *pract_h;
    for (const char *const *s = e->engine->scenarios; *s != NULL; s++)
      engine_add(b, "engine", "", *s, m, k, 1e-3, TR | (strcmp(*s, "push-hold") == 0 ? q : 0));
    static const char *const creep_tag[] = {"creep-h1e-3", "creep-h1e-4"};
    for (size_t i = 0; i < nh; i++)
      mx_sweep(engine_add(b, "practitioner", creep_tag[i], "push-hold", m, k, pract_h[i],
                       i == 0 ? q : 0),
            FB_SWEEP_PARAM, "r", pract_r, sizeof pract_r / sizeof *pract_r);
    fb_experiment *x = engine_add(b, "practitioner", "slide-h1e-3", "push-hold", m, k, 1e-3, q);
    set_add(x, "r=2");
    x = engine_add(b, "practitioner", "rest-h1e-3", "push-hold", m, k, 1e-3, 0);
    set_add(x, "r=0");
    set_add(x, "T=10");
    x = engine_add(b, "practitioner", "yaw-h1e-3", "puck", m, k, 1e-3, q);
    set_add(x, "vx0=1");
    set_add(x, "vy0=0");
    mx_sweep(x, FB_SWEEP_PARAM, "yaw", pract_yaw, sizeof pract_yaw / sizeof *pract_yaw);
    /* tagged "<engine>-<setting>": the restitution verdict names its treatment by the tag */
    x = engine_add(b, "restitution", engine_settings[k].engine, "bouncing-ball", m, k, 1e-3, 0);
    if (x != NULL)
      x->samples = CONTACT_SAMPLES;
    mx_sweep(x, FB_SWEEP_PARAM, "scenario.e", mx_contact_e, sizeof mx_contact_e / sizeof *mx_contact_e);
    static const char *const stable[] = {"preload-hold", "stick-slip"};
    for (size_t i = 0; i < 2; i++)
      engine_add(b, "stable-step", "", stable[i], m, k,
                 fixed_view[sizeof fixed_view / sizeof fixed_view[0] - 1], FB_EXP_BISECT);
  }
  /* the classic trap: ODE's own default friction (mu a force bound in newtons) */
  const fb_model_type *ode = fb_model_find("ode");
  char why[160];
  if (ode != NULL && fb_engine_present(fb_engine_of_model(ode), why, sizeof why)) {
    fb_experiment *x = mx_add(b, "practitioner", "slide-h1e-3-none", "push-hold", ode,
                           "ode-quickstep", 0);
    if (x != NULL)
      x->h = 1e-3, x->sets[0] = "approx=none", x->sets[1] = "r=2";
  }
  /* Bullet with the force at the box's contact face: its friction rows miss the step's
   * torque impulse, the box creeps at 1.5 F h / m (docs/engines/bullet.md) */
  const fb_model_type *bullet = fb_model_find("bullet");
  if (bullet != NULL && fb_engine_present(fb_engine_of_model(bullet), why, sizeof why)) {
    fb_experiment *x = mx_add(b, "practitioner", "creep-h1e-3-face", "push-hold", bullet,
                           "bullet-si", 0);
    if (x != NULL)
      x->h = 1e-3, x->sets[0] = "force_point=face";
    mx_sweep(x, FB_SWEEP_PARAM, "r", pract_r, sizeof pract_r / sizeof *pract_r);
  }
}

/* [Xiong2013] §5.3, fig. 11 (group `awrejcewicz`, docs/scenarios/awrejcewicz.md): the
 * DAI->ODE of eq. 49 (kikuuwe) at its defaults and under RK4 at 1 ms (the paper's
 * integrator), and Awrejcewicz's linear smoothing of eq. 50 (smooth-sign, phi =
 * linear-frozen) at each eps of the Tikhonov ladder, one experiment per eps (a sweep would
 * write their trajectories to one file).  Trajectories kept, sampled every 10 ms: the report
 * draws their phase curves against the limit cycle and reads period and orbit distance off
 * them. */
#define AWR_SAMPLES 10001
static void awrejcewicz_group(builder *b)
{
  static const struct {
    const char *tag, *model, *integrator, *set1, *set2;
    double h;
  } runs[] = {
      {"eq49", "kikuuwe", NULL, NULL, NULL, NAN},
      {"eq49-rk4", "kikuuwe", "rk4", NULL, NULL, 1e-3},
      {"eq50-eps1e-1", "smooth-sign", NULL, "phi=linear-frozen", "eps_v=0.1", NAN},
      {"eq50-eps1e-2", "smooth-sign", NULL, "phi=linear-frozen", "eps_v=0.01", NAN},
      {"eq50-eps1e-3", "smooth-sign", NULL, "phi=linear-frozen", "eps_v=0.001", NAN},
  };
  for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    const fb_model_type *m = fb_model_find(runs[k].model);
    if (m == NULL)
      continue;
    fb_experiment *x = mx_add(b, "awrejcewicz", runs[k].tag, "awrejcewicz", m, runs[k].integrator,
                           TR | Q);
    if (x == NULL)
      return;
    x->samples = AWR_SAMPLES;
    x->h = runs[k].h;
    x->sets[0] = runs[k].set1;
    x->sets[1] = runs[k].set2;
  }
}

int fb_table_default(fb_table *t)
{
  builder b = {t, 0, 0};
  memset(t, 0, sizeof *t);
  /* Built-ins and the models and scenarios of loaded plugins, NULL-terminated. */
  const fb_model_type *models[FB_TABLE_MAX_MODELS + 1] = {NULL};
  const fb_scenario_type *scenarios[FB_TABLE_MAX_MODELS + 1] = {NULL};
  for (size_t i = 0; i < FB_TABLE_MAX_MODELS && (models[i] = fb_model_at(i)) != NULL; i++)
    ;
  for (size_t i = 0; i < FB_TABLE_MAX_MODELS && (scenarios[i] = fb_scenario_at(i)) != NULL; i++)
    ;
  const fb_scenario_type *const *sc;
  const fb_model_type *const *m;
  for (sc = scenarios; *sc != NULL; sc++) {
    const int spatial = scenario_spatial(*sc);
    for (m = models; *m != NULL; m++) {
      const char *integ = spatial ? spatial_integrator(*m, NULL, 0) : NULL;
      /* --quick keeps one 2-D scenario (the puck); the others are tested on their own, and
       * the chain by the scale group */
      const unsigned q =
          (spatial && strcmp((*sc)->name, "puck") != 0) || strcmp((*sc)->name, "chain") == 0 ? 0 : Q;
      fb_experiment *x = integ == NULL || *integ != '\0'
                             ? mx_add(&b, "baseline", "", (*sc)->name, *m, integ, TR | q)
                             : NULL;
      /* the chain's files keep the blocks the report draws (docs/scenarios/chain.md) */
      if (x != NULL && strcmp((*sc)->name, "chain") == 0)
        x->traj_dofs = CHAIN_TRAJ_DOFS;
    }
  }
  /* spatial friction (docs/design.md §13): the box cone beside the disc of the baseline,
   * for the models that have the choice */
  static const char *const spatial_scenarios[] = {"puck", "billiard"};
  for (size_t s = 0; s < 2; s++)
    for (m = models; *m != NULL; m++) {
      if (fb_params_find((*m)->params, "cone") == NULL)
        continue;
      const char *integ = spatial_integrator(*m, NULL, 0);
      fb_experiment *x = mx_add(&b, "spatial", "box", spatial_scenarios[s], *m, integ,
                             TR | (s == 0 ? Q : 0));
      if (x != NULL)
        x->sets[0] = "cone=box";
    }
  /* the puck pushed sideways (push 0.6 mu m g along y): the path bends and the puck stops
   * where the push is inside the disc; event-driven reference */
  for (m = models; *m != NULL; m++) {
    const char *integ = spatial_integrator(*m, NULL, 0);
    if (integ != NULL && *integ == '\0')
      continue;
    fb_experiment *x = mx_add(&b, "spatial", "push", "puck", *m, integ, TR);
    if (x != NULL)
      x->sets[0] = "push=0.6";
    if (fb_params_find((*m)->params, "cone") == NULL)
      continue;
    x = mx_add(&b, "spatial", "push-box", "puck", *m, integ, TR);
    if (x != NULL) {
      x->sets[0] = "push=0.6";
      x->sets[1] = "cone=box";
    }
  }
  for (const char *const *s = fixed_view_scenarios; *s != NULL; s++) {
    const fb_scenario_type *st = fb_scenario_find(*s);
    for (m = models; *m != NULL; m++) {
      const unsigned quick = strcmp(*s, "stick-slip") == 0 ? Q : 0;
      const char *fi = fb_model_fixed_step_integrator_on(*m, st);
      if (fi != NULL && *fi == '\0')
        continue;
      mx_sweep(mx_add(&b, "fixed-step", "", *s, *m, fi, quick), FB_SWEEP_H, NULL, fixed_view,
            sizeof fixed_view / sizeof fixed_view[0]);
    }
  }
  for (size_t s = 0; s < sizeof conv_scenarios / sizeof conv_scenarios[0]; s++) {
    const fb_scenario_type *st = fb_scenario_find(conv_scenarios[s].scenario);
    const int spatial = st != NULL && scenario_spatial(st);
    for (m = models; *m != NULL; m++)
      for (size_t i = 0; i < 4 && fb_model_suite_of(*m)->conv[i] != NULL; i++) {
        const char *ci = fb_model_suite_of(*m)->conv[i];
        if (spatial && (ci = spatial_integrator(*m, ci, 1)) != NULL &&
            (*ci == '\0' || (ci != fb_model_suite_of(*m)->conv[i] && i > 0)))
          continue; /* no 2-D form, or the one substitute ladder already added */
        if (!scheme_takes(conv_scenarios[s].scenario, *m, ci, conv_scenarios[s].h0))
          continue; /* refused by construction (kbe-relay on a coupled M): no ladder */
        mx_ladder(mx_add(&b, "convergence", "", conv_scenarios[s].scenario, *m, ci,
                   i == 0 ? conv_scenarios[s].quick : 0),
               conv_scenarios[s].h0);
      }
  }
  static const char *const wp_scenarios[] = {"stick-slip", "inclined-block"};
  for (size_t s = 0; s < 2; s++)
    for (m = models; *m != NULL; m++)
      for (size_t i = 0; i < 4 && fb_model_suite_of(*m)->wp[i] != NULL; i++)
        mx_sweep(mx_add(&b, "work-precision", "", wp_scenarios[s], *m, fb_model_suite_of(*m)->wp[i],
                  s == 0 && i == 0 ? Q : 0),
              FB_SWEEP_TOL, NULL, tols, sizeof tols / sizeof tols[0]);
  /* dop853 on the same ladders beside every rk8pd one (docs/integrators/dop853.md): the
   * two 8th-order pairs side by side in the work-precision diagrams */
  for (size_t s = 0; s < 2; s++)
    for (m = models; *m != NULL; m++)
      for (size_t i = 0; i < 4 && fb_model_suite_of(*m)->wp[i] != NULL; i++)
        if (strcmp(fb_model_suite_of(*m)->wp[i], "rk8pd") == 0)
          mx_sweep(mx_add(&b, "work-precision", "", wp_scenarios[s], *m, "dop853", 0), FB_SWEEP_TOL,
                NULL, tols, sizeof tols / sizeof tols[0]);
  /* the SUNDIALS integrators on the same ladders beside GSL's (docs/integrators/sundials.md),
   * in a build with SUNDIALS only, for the models whose ladder has msbdf or rk8pd (a
   * right-hand side smooth enough for them: naive-sign's sign law stalls CVODE's Newton
   * iteration); never in the quick suite */
  static const char *const sundials_wp[] = {"cvode-bdf", "cvode-adams", "arkode-erk",
                                            "arkode-dirk", "arkode-imex"};
  for (size_t s = 0; s < 2; s++)
    for (m = models; *m != NULL; m++)
      if (wp_has_smooth_gsl(*m))
        for (size_t i = 0; i < sizeof sundials_wp / sizeof *sundials_wp; i++)
          if (fb_integrator_find(*m, sundials_wp[i]) != NULL)
            mx_sweep(mx_add(&b, "work-precision", "", wp_scenarios[s], *m, sundials_wp[i], 0),
                  FB_SWEEP_TOL, NULL, tols, sizeof tols / sizeof tols[0]);
  /* cost against mu: the sledges with A = 10 (stick and slip at every mu), the A = 2
   * series (pure stick from mu = 0.204 on) and stick-slip */
  static const struct {
    const char *scenario, *tag, *set;
    const double *mu;
    size_t n;
    unsigned quick;
  } cost[] = {
      {"coupled-sledges", "", NULL, mu_sledges, sizeof mu_sledges / sizeof *mu_sledges, Q},
      {"coupled-sledges", "A=2", "A=2", mu_sledges, sizeof mu_sledges / sizeof *mu_sledges, 0},
      {"stick-slip", "", NULL, mu_stickslip, sizeof mu_stickslip / sizeof *mu_stickslip, 0},
  };
  for (size_t s = 0; s < sizeof cost / sizeof cost[0]; s++)
    for (m = models; *m != NULL; m++) {
      const fb_model_suite *ms = fb_model_suite_of(*m);
      fb_experiment *x = mx_add(&b, "cost-mu", cost[s].tag, cost[s].scenario, *m,
                             ms->cost_integrator, cost[s].quick);
      if (x == NULL)
        break;
      x->sets[0] = cost[s].set;
      if (ms->cost_h > 0)
        x->h = ms->cost_h;
      else
        x->tol = 1e-6;
      mx_sweep(x, FB_SWEEP_PARAM, "mu", cost[s].mu, cost[s].n);
    }
  static const char *const reg_scenarios[] = {"drift", "stick-slip"};
  for (size_t s = 0; s < 2; s++)
    for (m = models; *m != NULL; m++) {
      const fb_model_suite *ms = fb_model_suite_of(*m);
      if (ms->reg_param == NULL)
        continue;
      fb_experiment *x = mx_add(&b, "regularization", "", reg_scenarios[s], *m,
                             ms->wp[0] != NULL ? ms->wp[0] : NULL, s == 0 ? Q : 0);
      if (x != NULL)
        x->tol = 1e-8;
      mx_sweep(x, FB_SWEEP_PARAM, ms->reg_param, ms->reg_values, ms->nreg);
    }
  for (size_t d = 0; d < sizeof drift_variants / sizeof drift_variants[0]; d++)
    for (m = models; *m != NULL; m++) {
      fb_experiment *x = mx_add(&b, "drift", drift_variants[d].tag, "drift", *m, NULL, Q);
      if (x != NULL) {
        x->sets[0] = drift_variants[d].set1;
        x->sets[1] = drift_variants[d].set2;
      }
    }
  /* alternative parameter sets (e.g. LuGre's published 1995 set) on the default drift */
  for (m = models; *m != NULL; m++) {
    const fb_model_suite *ms = fb_model_suite_of(*m);
    if (ms->alt_tag == NULL)
      continue;
    fb_experiment *x = mx_add(&b, "drift", ms->alt_tag, "drift", *m, NULL, Q);
    for (size_t k = 0; x != NULL && k < 5 && ms->alt_sets[k] != NULL; k++)
      x->sets[k] = ms->alt_sets[k];
  }
  static const double grid_h[] = {0.1, 0.001};
  for (m = models; *m != NULL; m++) {
    const char *gi = fb_model_suite_of(*m)->grid_integrator;
    if (gi == NULL)
      continue;
    static const char *const eps[][2] = {{"eps=0.1", "eps=0.1"}, {"eps=0.001", "eps=0.001"}};
    for (size_t k = 0; k < 2; k++) {
      fb_experiment *x = mx_add(&b, "grid", eps[k][0], "two-mass-drive", *m, gi, TR | Q);
      if (x == NULL)
        break;
      x->sets[0] = eps[k][1];
      x->sets[1] = "dT=0"; /* [Engleder2002]'s undamped penalty spring */
      x->samples = GRID_SAMPLES;
      x->traj_tail = GRID_TRAJ_TAIL;
      mx_sweep(x, FB_SWEEP_H, NULL, grid_h, 2);
    }
  }
  practitioner_group(&b, models);
  mx_contact_groups(&b);
  stable_step_group(&b, models);
  awrejcewicz_group(&b);
  mx_two_beam_groups(&b);
  mx_frame_group(&b);
  mx_scale_group(&b); /* the newest last: the rows before them keep their run ids */
  mx_sphere_group(&b, models); /* after them, for the same reason */
  engine_groups(&b); /* the newest last: main's rows keep their run ids */
  mx_conveyor_group(&b); /* after them, for the same reason */
  mx_frame_scale_group(&b); /* after them, for the same reason */
  if (b.failed) {
    fb_table_free(t);
    return FB_ENOMEM;
  }
  t->cap = b.cap;
  return FB_OK;
}

