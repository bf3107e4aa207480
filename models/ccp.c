/* ccp.c — the convex relaxation of Anitescu (M. Anitescu, "Optimization-based simulation of
 * nonsmooth rigid multibody dynamics", Math. Program. 105 (2006) 113-143 [Anitescu2006]) as
 * Chrono's NSC system steps it (A. Tasora, M. Anitescu, "A matrix-free cone complementarity
 * approach for solving large-scale, nonsmooth, rigid body dynamics", CMAME 200 (2011)
 * 439-453 [TasoraAnitescu2011]); docs/models/ccp.md.  This file is the model and its scheme
 * for plants whose normal force is prescribed (every friction scenario); plants with a
 * normal direction run the treatment `normal=ccp` (contact/normal_ccp.c), where the
 * relaxation's signature, the hover gap h mu |v_t|, lives.
 *
 * Time stepping ([TasoraAnitescu2011] eqs. 8-13; Chrono's semi-implicit Euler): the plant's
 * smooth forces at the step's start, friction as impulses gamma over the step,
 *     v^{n+1} = v* + M^-1 J^T gamma,   v* = v^n + h M^-1 (f(t_n, x_n, v_n) - D v^n - K x^n),
 *     x^{n+1} = x^n + h v^{n+1}.
 * With a prescribed normal force N the cone complementarity problem of a contact reduces to
 * its section at gamma_n = h N: gamma in the disc (a 1-D contact: the segment)
 * |gamma_i| <= beta_i = h S_i(|v_r,n|) (the characteristic at the step's start, mu N for a
 * Coulomb contact), and the dual condition -(W gamma + v_t*) in its normal cone: the convex
 * QP
 *     min 1/2 gamma^T W gamma + v_t*^T gamma   over   |gamma_i| <= beta_i,
 * W = J M^-1 J^T the Delassus matrix, v_t* = J v* - u(t_{n+1}).  Solved by APGD (Mazhar,
 * Heyn, Negrut, Tasora, ACM TOG 34(3) 2015, Alg. 2; fixed step 1/L, L the Gershgorin bound of
 * W's largest eigenvalue, gradient-based restart), warm-started from the previous step's
 * impulses; stop when the projected-gradient residual |gamma - P(gamma - (W gamma + v_t*)/L)|
 * is below tol max(|gamma|_inf, max_i beta_i); iterations counted as inner, max_it without
 * meeting the stop fails the step (FB_ESOLVE).  One contact (W = w) is exact in one
 * iteration: gamma = clamp(-v_t* / w, beta).  A contact is stuck when its impulse is inside
 * the set (|gamma| < beta (1 - 8 eps): a sliding one sits on the rim to round-off); a stuck
 * one-DOF contact then ends the step at v_r = 0 exactly (as moreau-jean's does).
 *
 * State per contact (nz = 2): F_step (N: gamma/h, the step's friction force) and stick_step.
 * Counters: nfe one applied-force evaluation per step, ninner APGD iterations.  No
 * allocation after alloc.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_util.h"
#include "fb_plant_int.h"

typedef struct ccp_params {
  double tol;    /* APGD stop, relative to the impulse scale */
  double max_it; /* APGD iterations per step */
} ccp_params;

static const fb_param_desc ccp_desc[] = {
    {"tol", "1", "APGD stop: projected-gradient residual below tol times the impulse scale",
     offsetof(ccp_params, tol), 1e-12, 0, 1, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"max_it", "1", "APGD iterations per step at most (more: the step fails)",
     offsetof(ccp_params, max_it), 100000, 1, 1e9, FB_PARAM_INT, NULL, NULL},
};
static const fb_param_set ccp_set = {sizeof(ccp_params), 2, ccp_desc};
typedef struct ccp_ws {
  const fb_plant *pl;
  ccp_params p;
  size_t n, nc;
  double L; /* Gershgorin bound of lambda_max(W) */
  double *block;
  double *f, *a, *vstar;                               /* n */
  double *u1, *vts, *beta, *g, *y, *gn, *gr, *F;       /* nc */
  double *W;                                           /* nc nc */
} ccp_ws;

static void ccp_free(void *wsv)
{
  ccp_ws *ws = wsv;
  if (ws == NULL)
    return;
  free(ws->block);
  free(ws);
}

/* fmax(m, x) for m not NaN, inline (libm's fmax is a call, 7 % of the scheme's time):
 * m when m > x or x is NaN, else x, which is what fmax returns for m not NaN (the x86-64
 * maxsd order glibc uses, so also for +0 against -0) */
static inline double ccp_fmax(double m, double x)
{
  return m > x || isnan(x) ? m : x;
}

/* Projection onto the product of the contacts' sets: |gamma_i| <= beta_i for a 1-D contact,
 * the disc of radius beta for the two entries of a 2-D one. */
static void ccp_project(const ccp_ws *ws, double *gam)
{
  for (size_t i = 0; i < ws->nc; i++) {
    if (ws->pl->contact[i].pair != FB_PAIR_X) {
      gam[i] = fb_clamp(gam[i], ws->beta[i]);
      continue;
    }
    fb_clamp2(&gam[i], ws->beta[i], FB_CONE_DISC);
    i++;
  }
}

static void ccp_grad(const ccp_ws *ws, const double *x, double *out)
{
  const size_t nc = ws->nc;
  for (size_t i = 0; i < nc; i++) {
    double s = ws->vts[i];
    for (size_t k = 0; k < nc; k++)
      s += ws->W[i * nc + k] * x[k];
    out[i] = s;
  }
}

/* APGD (the file's header) from the warm start in g; 1 when the stop was met. */
static int ccp_apgd(ccp_ws *ws, unsigned long *it)
{
  const size_t nc = ws->nc;
  const double L = ws->L;
  double theta = 1.0, bmax = 0.0;
  for (size_t i = 0; i < nc; i++)
    bmax = fmax(bmax, ws->beta[i]);
  ccp_project(ws, ws->g);
  memcpy(ws->y, ws->g, nc * sizeof(double));
  for (unsigned long k = 0; k < (unsigned long)ws->p.max_it; k++) {
    ccp_grad(ws, ws->g, ws->gr);
    double res = 0.0, gmax = 0.0;
    for (size_t i = 0; i < nc; i++)
      ws->gn[i] = ws->g[i] - ws->gr[i] / L;
    ccp_project(ws, ws->gn);
    for (size_t i = 0; i < nc; i++) {
      res = ccp_fmax(res, fabs(ws->gn[i] - ws->g[i]));
      gmax = ccp_fmax(gmax, fabs(ws->g[i]));
    }
    if (res <= ws->p.tol * ccp_fmax(gmax, bmax) || res == 0.0)
      return 1;
    ++*it;
    ccp_grad(ws, ws->y, ws->gr);
    for (size_t i = 0; i < nc; i++)
      ws->gn[i] = ws->y[i] - ws->gr[i] / L;
    ccp_project(ws, ws->gn);
    const double th1 = 0.5 * theta * (sqrt(theta * theta + 4.0) - theta);
    const double b = theta * (1.0 - theta) / (theta * theta + th1);
    double dir = 0.0;
    for (size_t i = 0; i < nc; i++)
      dir += ws->gr[i] * (ws->gn[i] - ws->g[i]);
    const int restart = dir > 0.0;
    for (size_t i = 0; i < nc; i++) {
      ws->y[i] = restart ? ws->gn[i] : ws->gn[i] + b * (ws->gn[i] - ws->g[i]);
      ws->g[i] = ws->gn[i];
    }
    theta = restart ? 1.0 : th1;
  }
  return 0;
}

/* A time of the segment (ta, tb]: at a break, read one ulp inside the segment. */
static double ccp_in(double t, double ta, double tb)
{
  if (t <= ta)
    return nextafter(t, INFINITY);
  if (t >= tb)
    return nextafter(t, -INFINITY);
  return t;
}

static int ccp_step(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  ccp_ws *ws = wsv;
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  const double h = at->dt;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = ccp_in(at->t, at->tseg, at->t1), t1 = ccp_in(at->tnew, at->tseg, at->t1);
  fb_plant_smooth_force(pl, t0, x, v, ws->f);
  cnt->nfe++;
  fb_plant_solve_mass(pl, ws->f, ws->a);
  for (size_t j = 0; j < n; j++)
    ws->vstar[j] = v[j] + h * ws->a[j];
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_state cs0;
    fb_contact_in_at(pl, i, t1, &ci, &ws->u1[i]);
    fb_plant_contact_at(pl, i, t0, &cs0);
    double w = fabs(fb_contact_vel(pl, i, v) - cs0.u);
    if (pl->contact[i].pair != FB_PAIR_NONE) {
      const size_t o = fb_contact_partner(pl, i);
      fb_contact_state cso;
      fb_plant_contact_at(pl, o, t0, &cso);
      w = hypot(w, fb_contact_vel(pl, o, v) - cso.u);
    }
    ws->beta[i] = h * fb_contact_S(&ci, w, NULL); /* the bound at the step's start slip */
    ws->vts[i] = fb_contact_vel(pl, i, ws->vstar) - ws->u1[i];
    ws->g[i] = h * z[2 * i]; /* warm start: last step's impulse */
  }
  unsigned long it = 0;
  const int conv = ccp_apgd(ws, &it);
  cnt->ninner += it;
  if (!conv)
    return fb_err_set(err, FB_ESOLVE,
                      "ccp: APGD did not converge in %lu iterations at t=%.17g (try a larger "
                      "max_it or tol)", it, at->t);
  memset(ws->f, 0, n * sizeof(double));
  for (size_t i = 0; i < nc; i++)
    fb_contact_add_force(pl, i, ws->g[i], ws->f);
  fb_plant_solve_mass(pl, ws->f, ws->a);
  for (size_t j = 0; j < n; j++)
    v[j] = ws->vstar[j] + ws->a[j];
  for (size_t i = 0; i < nc; i++) {
    double gm = fabs(ws->g[i]);
    if (pl->contact[i].pair != FB_PAIR_NONE)
      gm = hypot(ws->g[i], ws->g[fb_contact_partner(pl, i)]);
    z[2 * i] = ws->g[i] / h;
    z[2 * i + 1] = gm < ws->beta[i] * (1.0 - 8.0 * DBL_EPSILON);
    /* a stuck one-DOF contact ends the step at v_r = 0 exactly, as moreau-jean's (its
     * solution's; APGD leaves v_r at the stop's tolerance, whose sign would flip from step
     * to step on coupled contacts) */
    if (z[2 * i + 1] != 0.0 && pl->contact[i].Jt == NULL && pl->contact[i].pair == FB_PAIR_NONE)
      v[pl->contact[i].dof] = ws->u1[i];
  }
  for (size_t j = 0; j < n; j++)
    x[j] += h * v[j];
  return FB_OK;
}

static int ccp_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_ccp)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the ccp model, not %s", type->name,
                      pb->model->type->name);
  if (pl->nn > 0)
    return fb_err_set(err, FB_EUNSUP, "%s: a plant with normal directions runs the treatment "
                      "normal=ccp (docs/models/ccp.md)", type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  ccp_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pl = pl;
  ws->p = *(const ccp_params *)pb->model->params;
  ws->n = n;
  ws->nc = nc;
  ws->block = calloc(3 * n + 8 * nc + nc * nc + 1, sizeof(double));
  if (ws->block == NULL) {
    ccp_free(ws);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  double *b = ws->block;
  ws->f = b, b += n;
  ws->a = b, b += n;
  ws->vstar = b, b += n;
  ws->u1 = b, b += nc;
  ws->vts = b, b += nc;
  ws->beta = b, b += nc;
  ws->g = b, b += nc;
  ws->y = b, b += nc;
  ws->gn = b, b += nc;
  ws->gr = b, b += nc;
  ws->F = b, b += nc;
  ws->W = b;
  ws->L = 0.0;
  for (size_t i = 0; i < nc; i++) { /* W = J M^-1 J^T (constant), L its Gershgorin bound */
    double s = 0.0;
    for (size_t k = 0; k < nc; k++) {
      ws->W[i * nc + k] = fb_plant_contact_coupling(pl, i, k);
      s += fabs(ws->W[i * nc + k]);
    }
    ws->L = fmax(ws->L, s);
  }
  if (nc > 0 && !(ws->L > 0.0)) {
    ccp_free(ws);
    return fb_err_set(err, FB_EUNSUP, "%s: the Delassus matrix J M^-1 J^T is zero", type->name);
  }
  *out = ws;
  return FB_OK;
}

static unsigned long ccp_rhs_per_step(const void *ws)
{
  (void)ws;
  return 1;
}

static const fb_integrator_type ccp_scheme = {
    .name = "ccp",
    .title = "CCP (Anitescu's relaxation, Chrono NSC): friction impulses by APGD per step",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 1,
    .order = 1,
    .data = NULL,
    .alloc = ccp_alloc,
    .free = ccp_free,
    .step = ccp_step,
    .rhs_per_step = ccp_rhs_per_step,
};

static const fb_integrator_type *const ccp_schemes[] = {&ccp_scheme, NULL};

const fb_model_type fb_model_ccp = {
    .name = "ccp",
    .title = "Anitescu's convex relaxation as Chrono NSC: cone complementarity per step, APGD",
    .reference = "Anitescu, Math. Program. 105 (2006); Tasora & Anitescu, CMAME 200 (2011); "
                 "docs/models/ccp.md",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "ccp",
    .default_tol = 0,
    .params = &ccp_set,
    .nz = 2,
    .z_names = fb_impulse_z_names,
    .init = fb_impulse_init,
    .init2 = fb_impulse_init2,
    .output = fb_impulse_output,
    .schemes = ccp_schemes,
};

/* The suite's policy for ccp (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_ccp = {
    .model = "ccp",
    .color = "#a55194",
    .conv = {"ccp", NULL},
    .wp = {NULL},
    .cost_integrator = "ccp",
    .cost_h = 1e-3,
    .cost_hint = 1,
    .expect = "exact stick at any h (impulses in the friction set); first order (semi-implicit "
              "Euler); with a normal contact (normal=ccp) a sliding body hovers at the gap "
              "h mu |v_t| and impacts are inelastic (Anitescu 2006; Tasora & Anitescu 2011)"};
