/* two_beam_impact.c — two cantilever subsystems on one harmonically moving base, masses m0
 * and m1 facing each other ([Engleder2002] §3, fig. 5; Engleder, Vielsack & Spiess 1998;
 * docs/scenarios/two-beam-impact.md).  Displacements relative to the base, q = (q0, q1, q2):
 *
 *     M q'' + D q' + K q = M 1 A Omega^2 sin(Omega t) + J_n^T lambda_n,
 *     g_n = q1 - q0 + g_0 >= 0,   J_n = (-1, 1, 0),   no friction,
 *
 * the inertial load of the base motion y_b = A sin(Omega t) ([Engleder2002] §3: "harmonic
 * base excitation").  M = diag(m0, m1, m2); D = 2 D_rel M (our reading: every mode decays at
 * the rate D_rel, the paper's D = 0.001); K = diag(k0, k1 K1) with beam 0's tip stiffness
 * k0 = 3 EI0/l0^3 and beam 1 (l1 = l0, EI1 = EI0, our reading of the lost fig. 5) from its
 * Euler-Bernoulli flexibility F = l0^3/(6 EI1) [[2, 5], [5, 16]] at l0 and 2 l0:
 * K1 = F^-1 = (2/7) [[16, -5], [-5, 2]] in units of 3 EI1/l0^3 = k1.
 *
 * Cases ([Engleder2002] §3): (e, Omega) = (0.3, 0.81) with d_N = 50 and (0.7, 1.569) with
 * d_N = 20; c_N = 1e4; Newmark at h = 1e-4 (normal=penalty-nm --h 1e-4); start at rest,
 * touching without force.  The
 * treatment's c_N, d_N and clip are the scenario's cN, dN and clip (normal.NAME overrides
 * them); dN auto: the paper's 50 at e = 0.3 and 20 at e = 0.7, the linear formula of
 * docs/design.md §12 with the reduced mass otherwise.  Reference: the event-driven
 * `newton` (the default treatment), with zeno_tol 1e-8 (below).  Scales for `auto`
 * treatment parameters: acceleration A Omega^2 (the base's), gap A.  collide > 0 turns the
 * system into an isolated collision (springs, damping and forcing off, m0 launched at
 * q0' = collide toward m1): the calibration check of the penalty parameters.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct two_beam_params {
  double m0, m1, m2, k0, k1, D, A, Omega, e, cN, dN, clip, g0, collide, T, normal;
} two_beam_params;

#define TB_ROW(name, unit, text, field, def, lo, hi, flags)                                     \
  {name, unit, text, offsetof(two_beam_params, field), def, lo, hi, flags, NULL, NULL}

static const fb_param_desc two_beam_desc[] = {
    TB_ROW("m0", "1", "tip mass of beam 0 (nondimensional)", m0, 1, 0, INFINITY,
           FB_PARAM_MIN_OPEN),
    TB_ROW("m1", "1", "mass of beam 1 at l0, facing m0", m1, 1, 0, INFINITY, FB_PARAM_MIN_OPEN),
    TB_ROW("m2", "1", "tip mass of beam 1 at l0 + l1", m2, 1, 0, INFINITY, FB_PARAM_MIN_OPEN),
    TB_ROW("k0", "1", "tip stiffness 3 EI0/l0^3 of beam 0 (sets the time scale)", k0, 1, 0,
           INFINITY, 0),
    TB_ROW("k1", "1", "stiffness scale 3 EI1/l0^3 of beam 1: K1 = k1 (2/7) [[16,-5],[-5,2]]",
           k1, 1, 0, INFINITY, 0),
    TB_ROW("D", "1/s", "mass-proportional damping rate: D_matrix = 2 D M", D, 0.001, 0, INFINITY,
           0),
    TB_ROW("A", "1", "base displacement amplitude (y_b = A sin(Omega t))", A, 0.001, 0,
           INFINITY, 0),
    TB_ROW("Omega", "1", "base angular frequency (nondimensional)", Omega, 0.81, 0, INFINITY,
           FB_PARAM_MIN_OPEN),
    TB_ROW("e", "1", "restitution coefficient (Newton's law)", e, 0.3, 0, 1, 0),
    TB_ROW("cN", "1", "penalty-n contact stiffness c_N", cN, 1e4, 0, INFINITY,
           FB_PARAM_MIN_OPEN),
    {"dN", "1", "penalty-n contact damper d_N", offsetof(two_beam_params, dN), NAN, 0, INFINITY,
     FB_PARAM_AUTO, "50 at e = 0.3, 20 at e = 0.7 (the paper's); else 2 zeta sqrt(cN m0 m1/(m0+m1))",
     NULL},
    TB_ROW("clip", "1", "penalty-n: 1 force clipped at 0 (no sucking), 0 the raw linear element",
           clip, 1, 0, 1, FB_PARAM_INT),
    TB_ROW("g0", "1", "gap at q = 0 (1e3: contact off)", g0, 0, 0, INFINITY, 0),
    TB_ROW("collide", "1", "0: the paper's system; > 0: an isolated collision, springs, damping "
           "and forcing off, m0 starting toward m1 at q0' = collide", collide, 0, 0, INFINITY, 0),
    TB_ROW("T", "1", "end time (nondimensional)", T, 5000, 0, INFINITY, FB_PARAM_MIN_OPEN),
    {"normal", "", "normal-contact treatment", offsetof(two_beam_params, normal), 0, 0,
     FB_NORMAL_MAX - 1, FB_PARAM_CHOICE, NULL, fb_normal_names},
};
static const fb_param_set two_beam_set = {sizeof(two_beam_params), 16, two_beam_desc};

/* The inertial load of the base motion: f = M 1 A Omega^2 sin(Omega t) ([Engleder2002] §3,
 * relative coordinates). */
static void two_beam_force(const void *sp, double t, const double *x, const double *v,
                           double *f)
{
  const two_beam_params *p = sp;
  (void)x, (void)v;
  const double a = p->collide > 0 ? 0.0 : p->A * p->Omega * p->Omega * sin(p->Omega * t);
  f[0] = p->m0 * a;
  f[1] = p->m1 * a;
  f[2] = p->m2 * a;
}

/* The treatment's parameter `name` set to the scenario's value, when it has one. */
static int two_beam_pass(fb_normal *nm, const char *name, double value, fb_err *err)
{
  const fb_param_set *ps = nm->type->params;
  for (size_t i = 0; i < ps->n; i++)
    if (strcmp(ps->desc[i].name, name) == 0) {
      char buf[40];
      snprintf(buf, sizeof buf, "%.17g", value);
      return fb_normal_set(nm, name, buf, err);
    }
  return FB_OK;
}

/* d_N: the paper's pairs, else the linear formula with the reduced mass (docs/design.md §12). */
static double two_beam_dN(const two_beam_params *p)
{
  if (!isnan(p->dN))
    return p->dN;
  if (p->e == 0.3)
    return 50;
  if (p->e == 0.7)
    return 20;
  const double m = p->m0 * p->m1 / (p->m0 + p->m1);
  return 2.0 * fb_normal_zeta_of_e(p->e) * sqrt(p->cN * m);
}

static int two_beam_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const two_beam_params *p = sp;
  if (fb_plant_alloc(pl, 3, 0, 0) != FB_OK || fb_plant_alloc_normals(pl, 1) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double m[3] = {p->m0, p->m1, p->m2};
  const double k0 = p->collide > 0 ? 0.0 : p->k0, k1 = p->collide > 0 ? 0.0 : p->k1;
  const double Dr = p->collide > 0 ? 0.0 : p->D;
  /* beam 1's stiffness: the inverse of its flexibility at l0 and 2 l0 (fig. 5, our reading) */
  const double K[9] = {k0, 0, 0, 0, k1 * 32.0 / 7.0, -k1 * 10.0 / 7.0,
                       0, -k1 * 10.0 / 7.0, k1 * 4.0 / 7.0};
  for (size_t i = 0; i < 3; i++) {
    pl->M[i * 3 + i] = m[i];
    pl->D[i * 3 + i] = 2.0 * Dr * m[i];
  }
  memcpy(pl->K, K, sizeof K);
  pl->v0[0] = p->collide;
  pl->T = p->T;
  /* the highest free frequency 2.2426 rad/s at the defaults, or the forcing's */
  pl->f_c = fmax(2.242596 * sqrt(fmax(p->k1, p->k0)), p->Omega) / (2.0 * M_PI);
  pl->v_scale = fmax(p->A * p->Omega, p->collide);
  pl->force = two_beam_force;
  fb_normal *nm = &pl->normal[0];
  nm->Jn[0] = -1.0;
  nm->Jn[1] = 1.0;
  nm->g0 = p->g0;
  nm->e = p->e;
  nm->a_scale = p->A > 0 && p->collide == 0 ? p->A * p->Omega * p->Omega : 1.0;
  nm->h_scale = p->A > 0 && p->collide == 0 ? p->A : 1e-3;
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  fb_normal_select(nm, nt);
  /* newton: the start sits on the contact at zero relative acceleration, where the auto
   * zeno_tol (made for a drop) lets the accumulation run on ever shorter steps; a flight
   * shorter than 1e-8 (1e-8 of the forcing period) counts as accumulated */
  if (strcmp(nt->name, "newton") == 0) {
    const int st = two_beam_pass(nm, "zeno_tol", 1e-8, err);
    if (st != FB_OK)
      return st;
  }
  if (strncmp(nt->name, "penalty-n", 9) == 0) {
    int st;
    if ((st = two_beam_pass(nm, "cN", p->cN, err)) != FB_OK ||
        (st = two_beam_pass(nm, "dN", two_beam_dN(p), err)) != FB_OK ||
        (st = two_beam_pass(nm, "clip", p->clip, err)) != FB_OK)
      return st;
  }
  return FB_OK;
}

static fb_ref_kind two_beam_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_NONE;
}

const fb_scenario_type fb_scenario_two_beam_impact = {
    .name = "two-beam-impact",
    .title = "two beams on a moving base, m0 hitting m1: free, impact, persistent contact",
    .source = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §3 (fig. 5; our reading)",
    .params = &two_beam_set,
    .ref_kind = two_beam_ref_kind,
    .build = two_beam_build,
    .exact = NULL,
};
