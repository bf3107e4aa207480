/* elastic_frame.c — a steel L-frame, clamped at one end, its tip P on a rough surface moving
 * at v0 and prestressed by q1^0: self-excited stick-slip without lift-off (low belt speed) and
 * with lift-off and impacts (high) ([Engleder2002] §4, figs. 8-11; docs/scenarios/
 * elastic-frame.md).
 *
 * The horizontal member runs from the clamp at (0, L) to the corner (L, L), the vertical
 * one from the corner down to P at (L, 0); each is cut into `ne` Euler–Bernoulli frame
 * elements (core/fb_frame.h): nq = 6 ne DOFs (u, v, theta per node).  Mass and stiffness
 * consistent, D = alpha M + beta K (Rayleigh; [Engleder2002] §4's alpha, beta).  Contact at
 * the tip node P only: gap g_n = v_P - q1^0 (the surface sits at y = q1^0, which is the
 * clamp moved down by q1^0), slip u = u_P' - belt_dir v0; friction bound mu lambda_n.
 * Gravity is omitted: with q1^0 measured from the touching state under gravity the two are
 * the same by superposition.  Initial state: the static frictionless equilibrium on the
 * surface (lambda_n = N0 = q1^0 / (L^3/(3 EI) + L/EA)), at rest; the belt runs from t = 0.
 * The normal treatment is the parameter `normal` (default penalty-newmark, [Engleder2002]'s
 * scheme with its c_N, D_N, c_T); the case (`no-liftoff`: mu 0.1, v0 0.1 m/s, q1^0 2.5 mm;
 * `liftoff`: mu 0.2, v0 0.5 m/s, q1^0 5 mm) sets mu, v0 and q10 unless they are given.
 * No closed form for the motion: the reference is a converged fine-step run, cross-checked
 * by moreau-jean (rigid contact, e = 0).
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_frame.h"
#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"

/* The store: dense up to FRAME_DENSE_MAX_NE elements per member (nq = 384 DOFs: every run
 * the suite made before the banded store keeps its numbers to the bit), banded with
 * half-bandwidth 5 above (docs/scenarios/elastic-frame.md "Store"), up to FRAME_NE_MAX
 * (nq = 6e5); under moreau-jean banded above FRAME_MJ_DENSE_MAX_NE (nq = 60). */
#define FRAME_DENSE_MAX_NE 64
#define FRAME_MJ_DENSE_MAX_NE 10
#define FRAME_NE_MAX 100000

typedef struct frame_params {
  double fcase, E, rho, b, h, L, ne, alpha, beta, mu, v0, q10, belt_dir, e, T, normal;
} frame_params;

static const char *const frame_cases[] = {"no-liftoff", "liftoff", NULL};
/* [Engleder2002] §4's two cases: mu, v0 (m/s), q1^0 (m) */
static const double frame_case_values[2][3] = {{0.1, 0.1, 2.5e-3}, {0.2, 0.5, 5e-3}};

static const fb_param_desc frame_desc[] = {
    {"case", "", "the paper's case: sets mu, v0 and q10 unless given",
     offsetof(frame_params, fcase), 0, 0, 1, FB_PARAM_CHOICE, NULL, frame_cases},
    {"E", "Pa", "Young's modulus (steel)", offsetof(frame_params, E), 2.1e11, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"rho", "kg/m^3", "density (steel)", offsetof(frame_params, rho), 7850, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"b", "m", "section width, out of plane", offsetof(frame_params, b), 0.02, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"h", "m", "section thickness, in plane (bending: I = b h^3/12)", offsetof(frame_params, h),
     0.002, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"L", "m", "length of each member", offsetof(frame_params, L), 0.3, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"ne", "1", "elements per member (nq = 6 ne DOFs; banded store above 64)",
     offsetof(frame_params, ne), 8, 1, FRAME_NE_MAX, FB_PARAM_INT, NULL, NULL},
    {"alpha", "1/s", "Rayleigh mass coefficient (D = alpha M + beta K)",
     offsetof(frame_params, alpha), 0.0301, 0, INFINITY, 0, NULL, NULL},
    {"beta", "s", "Rayleigh stiffness coefficient", offsetof(frame_params, beta), 1.841e-5, 0,
     INFINITY, 0, NULL, NULL},
    {"mu", "1", "friction coefficient at P", offsetof(frame_params, mu), NAN, 0, INFINITY,
     FB_PARAM_AUTO, "the case's: 0.1 (no-liftoff), 0.2 (liftoff)", NULL},
    {"v0", "m/s", "belt speed", offsetof(frame_params, v0), NAN, 0, INFINITY,
     FB_PARAM_AUTO | FB_PARAM_MIN_OPEN, "the case's: 0.1 (no-liftoff), 0.5 (liftoff)", NULL},
    {"q10", "m", "prestress q1^0: height of the surface above the unloaded tip",
     offsetof(frame_params, q10), NAN, 0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "the case's: 2.5e-3 (no-liftoff), 5e-3 (liftoff)", NULL},
    {"belt_dir", "1", "belt direction: +1 along +x (friction unloads P), -1 toward the clamp",
     offsetof(frame_params, belt_dir), 1, -1, 1, FB_PARAM_INT, NULL, NULL},
    {"e", "1", "restitution coefficient (Newton's law; rigid treatments)",
     offsetof(frame_params, e), 0, 0, 1, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(frame_params, T), 10, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"normal", "", "normal-contact treatment", offsetof(frame_params, normal), NAN, 0,
     FB_NORMAL_MAX - 1, FB_PARAM_CHOICE | FB_PARAM_AUTO,
     "penalty-newmark, [Engleder2002]'s scheme (found by name)", fb_normal_names},
};
static const fb_param_set frame_set = {sizeof(frame_params), 16, frame_desc};

/* The case's value of mu (k = 0), v0 (1), q10 (2) unless the parameter was given. */
static double frame_value(const frame_params *p, unsigned k)
{
  const double given[3] = {p->mu, p->v0, p->q10};
  return isnan(given[k]) ? frame_case_values[(size_t)p->fcase][k] : given[k];
}

/* The frame of the parameters (members: clamp -> corner -> tip). */
static void frame_geometry(const frame_params *p, fb_frame *fr)
{
  memset(fr, 0, sizeof *fr);
  fr->nmember = 2;
  fr->px[0] = 0, fr->py[0] = p->L;
  fr->px[1] = p->L, fr->py[1] = p->L;
  fr->px[2] = p->L, fr->py[2] = 0;
  fr->ne = (size_t)p->ne;
  fr->E = p->E;
  fr->rho = p->rho;
  fr->A = p->b * p->h;
  fr->I = p->b * p->h * p->h * p->h / 12.0;
}

/* x = K^-1 e_j for the band store's K (n x (bw + 1), GSL's symmetric band layout): banded
 * Cholesky of a copy, O(n bw^2). */
static int frame_unit_load_band(size_t n, size_t bw, const double *Kb, size_t j, double *x,
                                fb_err *err)
{
  double *Kc = malloc(n * (bw + 1) * sizeof *Kc);
  if (Kc == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  memcpy(Kc, Kb, n * (bw + 1) * sizeof *Kc);
  gsl_matrix_view Km = gsl_matrix_view_array(Kc, n, bw + 1);
  gsl_vector_view xv = gsl_vector_view_array(x, n);
  memset(x, 0, n * sizeof *x);
  x[j] = 1.0;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int st = gsl_linalg_cholesky_band_decomp(&Km.matrix);
  if (st == GSL_SUCCESS)
    st = gsl_linalg_cholesky_band_svx(&Km.matrix, &xv.vector);
  gsl_set_error_handler(old);
  free(Kc);
  if (st != GSL_SUCCESS)
    return fb_err_set(err, FB_EINVAL, "elastic-frame: stiffness matrix not positive definite");
  return FB_OK;
}

/* x = K^-1 e_j (the static response to a unit load on DOF j), K n x n SPD. */
static int frame_unit_load(size_t n, const double *K, size_t j, double *x, fb_err *err)
{
  double *Kc = malloc(n * n * sizeof *Kc);
  if (Kc == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  memcpy(Kc, K, n * n * sizeof *Kc);
  gsl_matrix_view Km = gsl_matrix_view_array(Kc, n, n);
  gsl_vector_view xv = gsl_vector_view_array(x, n);
  memset(x, 0, n * sizeof *x);
  x[j] = 1.0;
  int st = gsl_linalg_cholesky_decomp1(&Km.matrix);
  if (st == GSL_SUCCESS)
    st = gsl_linalg_cholesky_svx(&Km.matrix, &xv.vector);
  free(Kc);
  if (st != GSL_SUCCESS)
    return fb_err_set(err, FB_EINVAL, "elastic-frame: stiffness matrix not positive definite");
  return FB_OK;
}

/* M, K, D = alpha M + beta K and x0 = K^-1 e_jv (unscaled) into the store of pl. */
static int frame_matrices(const frame_params *p, const fb_frame *fr, int banded, size_t jv,
                          fb_plant *pl, fb_err *err)
{
  const size_t n = pl->n;
  const int bad = banded ? fb_frame_assemble_band(fr, pl->Mb, pl->Kb)
                         : fb_frame_assemble(fr, pl->M, pl->K);
  if (bad != 0)
    return fb_err_set(err, FB_EINVAL, "elastic-frame: invalid frame (E, rho, b, h, L > 0)");
  if (!banded) {
    fb_frame_rayleigh(n, pl->M, pl->K, p->alpha, p->beta, pl->D);
    return frame_unit_load(n, pl->K, jv, pl->x0, err);
  }
  for (size_t i = 0; i < n * (pl->bw + 1); i++) /* the band of alpha M + beta K */
    pl->Db[i] = p->alpha * pl->Mb[i] + p->beta * pl->Kb[i];
  return frame_unit_load_band(n, pl->bw, pl->Kb, jv, pl->x0, err);
}

/* The store: banded above FRAME_DENSE_MAX_NE, and above FRAME_MJ_DENSE_MAX_NE under
 * moreau-jean, whose dense path takes at most 64 DOFs with friction (it refused those
 * frames before the band store existed). */
static int frame_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const frame_params *p = sp;
  const fb_normal_type *nt = isnan(p->normal) ? NULL : fb_normal_at(p->normal);
  const int mj = nt != NULL && strcmp(nt->name, "moreau-jean") == 0;
  return fb_elastic_frame_build_store(
      sp, pl, p->ne > FRAME_DENSE_MAX_NE || (mj && p->ne > FRAME_MJ_DENSE_MAX_NE), err);
}

int fb_elastic_frame_build_store(const void *sp, fb_plant *pl, int banded, fb_err *err)
{
  const frame_params *p = sp;
  fb_frame fr;
  frame_geometry(p, &fr);
  const size_t n = fb_frame_ndof(&fr), tip = fb_frame_last_node(&fr);
  const size_t ju = fb_frame_dof(tip, 0), jv = fb_frame_dof(tip, 1);
  const double mu = frame_value(p, 0), v0 = frame_value(p, 1), q10 = frame_value(p, 2);
  if (p->belt_dir == 0)
    return fb_err_set(err, FB_EINVAL, "elastic-frame: belt_dir = 0: allowed are -1 and +1");
  const int sta = banded ? fb_plant_alloc_banded(pl, n, fb_frame_half_bandwidth(&fr), 1, 0)
                         : fb_plant_alloc(pl, n, 1, 0);
  if (sta != FB_OK || fb_plant_alloc_normals(pl, 1) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "elastic-frame: out of memory for ne = %zu", fr.ne);
  /* the static frictionless equilibrium on the surface: x0 = N0 K^-1 e_v, v_P = q1^0 */
  int st = frame_matrices(p, &fr, banded, jv, pl, err);
  if (st != FB_OK)
    return st;
  const double flex_vv = pl->x0[jv], N0 = q10 / flex_vv;
  for (size_t i = 0; i < n; i++)
    pl->x0[i] *= N0;
  pl->x0[jv] = q10; /* exactly on the surface */
  const double rhoAL = p->rho * p->b * p->h * p->L;
  pl->T = p->T;
  /* a first-mode estimate: the tip stiffness on the mass of one member */
  pl->f_c = sqrt(1.0 / (flex_vv * rhoAL)) / (2.0 * M_PI);
  pl->v_scale = v0;
  pl->contact[0].dof = ju;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, mu, mu, 1.0};
  /* the prescribed load only friction-only code paths see; treatments use lambda_n(t) */
  pl->contact[0].c0 = (fb_contact_state){N0, p->belt_dir * v0, 0.0};
  fb_normal *nm = &pl->normal[0];
  nm->Jn[jv] = 1.0;
  nm->g0 = -q10;
  nm->e = p->e;
  nm->fric = 0;
  nm->h_scale = q10;
  nm->a_scale = (2.0 * M_PI * pl->f_c) * (2.0 * M_PI * pl->f_c) * q10;
  const fb_normal_type *nt =
      isnan(p->normal) ? fb_normal_find("penalty-newmark") : fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL,
                      "normal = %g: no such treatment (see fricbench list contact)", p->normal);
  fb_normal_select(nm, nt);
  return FB_OK;
}

static fb_ref_kind frame_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_NONE;
}

const fb_scenario_type fb_scenario_elastic_frame = {
    .name = "elastic-frame",
    .title = "steel L-frame on a moving rough surface: self-excited stick-slip, lift-off, impacts",
    .source = "Engleder, Vielsack & Schweizerhof, [Engleder2002] §4 (figs. 8-11)",
    .params = &frame_set,
    .ref_kind = frame_ref_kind,
    .build = frame_build,
    .exact = NULL,
};
