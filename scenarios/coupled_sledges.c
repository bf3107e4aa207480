/* coupled_sledges.c — two coupled sledges driven through a spring ([ShourbagyMatuttis] §3, the
 * cost claim; docs/design.md §5).
 *
 *     drive y(t) = A sin(omega t) --k1-- sledge 1 (m1) --k12-- sledge 2 (m2)
 *
 *     m1 x1'' = k1 (A sin(omega t) - x1) + k12 (x2 - x1) + F1
 *     m2 x2'' =                           k12 (x1 - x2) + F2
 *     F_i in -mu m_i g Sgn(x_i')     (Coulomb, Fs = Fc = mu m_i g, ground at rest)
 *
 * So K = [[k1 + k12, -k12], [-k12, k12]] and the drive enters as the force
 * f1 = k1 A sin(omega t) on sledge 1.  Defaults: m1 = m2 = 1, k1 = k12 = 1, A = 10,
 * omega = pi, g = 9.81, mu = 0.3, T = 10; the suite sweeps mu over {0.01, 0.03, 0.1,
 * 0.2, 0.3, 0.45, 0.6}.  A = 10 makes both sledges stick and slip at every mu of that
 * ladder (k1 A / (m1 g) = 1.02 > 0.6); A = 2 (the first default) is kept by the suite
 * as a second series, pure stick from mu = 0.204 up.
 *
 * Our reading.  [ShourbagyMatuttis] mentions "two coupled, driven sledges" only to report the cost
 * of the dynamic friction law (100x at mu = 0.3, >1e4x at mu = 0.6, comparable at
 * mu = 0.01): it gives no figure, topology, parameters or initial state.  The topology,
 * A, omega and the masses are our choice (docs/design.md §5); the drive acts through
 * spring k1 on sledge 1, sledge 2 hangs on sledge 1 by k12.  Initial state (our
 * choice): both sledges at rest with relaxed springs, x = v = 0, the drive at its
 * centre (A sin 0 = 0).  Consequence worth knowing: sledge 1 can only break loose while
 * k1 |A| > mu m1 g (plus whatever the coupling spring adds once it moves), i.e. for
 * mu < k1 A/(m1 g) ~ 0.204 with A = 2; above that both sledges stick for good and the
 * exact answer is x = 0 with F1 = -k1 A sin(omega t), F2 = 0 — which is where [ShourbagyMatuttis]
 * saw the dynamic law's cost explode: it chatters around a solution that does not
 * move.
 *
 * f_c = max(omega, omega_max)/(2 pi), omega_max^2 the larger eigenvalue of M^-1 K.
 * Velocity scale max(|A| omega, |v1_0|, |v2_0|, 1e-3) (the drive's velocity amplitude).
 * Reference: the event-driven solver (both contacts; stick of both at once is common).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct sledges_params {
  double m1, m2, k1, k12, A, omega, mu, g, T, x1_0, x2_0, v1_0, v2_0;
} sledges_params;

static const fb_param_desc sledges_desc[] = {
    {"m1", "kg", "mass of sledge 1 (driven)", offsetof(sledges_params, m1), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"m2", "kg", "mass of sledge 2", offsetof(sledges_params, m2), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k1", "N/m", "spring from the drive to sledge 1", offsetof(sledges_params, k1), 1, 0,
     INFINITY, 0, NULL, NULL},
    {"k12", "N/m", "coupling spring between the sledges", offsetof(sledges_params, k12), 1, 0,
     INFINITY, 0, NULL, NULL},
    {"A", "m", "drive amplitude, y(t) = A sin(omega t)", offsetof(sledges_params, A), 10,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"omega", "rad/s", "drive angular frequency", offsetof(sledges_params, omega), M_PI, 0,
     INFINITY, 0, NULL, NULL},
    {"mu", "1", "friction coefficient of both sledges, Fs = Fc = mu m g",
     offsetof(sledges_params, mu), 0.3, 0, INFINITY, 0, NULL, NULL},
    {"g", "m/s^2", "gravity (normal force m g)", offsetof(sledges_params, g), 9.81, 0, INFINITY,
     0, NULL, NULL},
    {"T", "s", "end time", offsetof(sledges_params, T), 10, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
    {"x1_0", "m", "initial position of sledge 1", offsetof(sledges_params, x1_0), 0, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"x2_0", "m", "initial position of sledge 2", offsetof(sledges_params, x2_0), 0, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"v1_0", "m/s", "initial velocity of sledge 1", offsetof(sledges_params, v1_0), 0,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"v2_0", "m/s", "initial velocity of sledge 2", offsetof(sledges_params, v2_0), 0,
     -INFINITY, INFINITY, 0, NULL, NULL},
};
static const fb_param_set sledges_set = {sizeof(sledges_params), 13, sledges_desc};

/* The drive through spring k1: its moving end is a force on sledge 1. */
static void sledges_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const sledges_params *p = sp;
  (void)x, (void)v;
  f[0] = p->k1 * p->A * sin(p->omega * t);
  f[1] = 0.0;
}

static int sledges_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const sledges_params *p = sp;
  if (fb_plant_alloc(pl, 2, 2, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m1;
  pl->M[3] = p->m2;
  pl->K[0] = p->k1 + p->k12;
  pl->K[1] = pl->K[2] = -p->k12;
  pl->K[3] = p->k12;
  pl->x0[0] = p->x1_0;
  pl->x0[1] = p->x2_0;
  pl->v0[0] = p->v1_0;
  pl->v0[1] = p->v2_0;
  pl->T = p->T;
  /* Larger eigenvalue of M^-1 K = [[(k1 + k12)/m1, -k12/m1], [-k12/m2, k12/m2]]. */
  const double a = (p->k1 + p->k12) / p->m1, d = p->k12 / p->m2;
  const double tr = a + d, det = p->k1 * p->k12 / (p->m1 * p->m2);
  const double lmax = 0.5 * (tr + sqrt(fmax(tr * tr - 4.0 * det, 0.0)));
  const double wmax = fmax(sqrt(lmax), p->omega);
  pl->f_c = wmax > 0 ? wmax / (2.0 * M_PI) : (double)NAN; /* nothing oscillates: 1/T by default */
  pl->v_scale = fmax(fmax(fabs(p->A) * p->omega, 1e-3), fmax(fabs(p->v1_0), fabs(p->v2_0)));
  pl->force = sledges_force;
  for (size_t i = 0; i < 2; i++) {
    const double mi = i == 0 ? p->m1 : p->m2;
    pl->contact[i].dof = i;
    pl->contact[i].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
    pl->contact[i].c0 = (fb_contact_state){mi * p->g, 0.0, 0.0};
  }
  return FB_OK;
}

static fb_ref_kind sledges_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_coupled_sledges = {
    .name = "coupled-sledges",
    .title = "two spring-coupled sledges on rough ground, driven through a spring",
    .source = "Shourbagy & Matuttis [ShourbagyMatuttis] §3 (cost claim); topology docs/design.md §5",
    .params = &sledges_set,
    .ref_kind = sledges_ref_kind,
    .build = sledges_build,
    .exact = NULL,
};
