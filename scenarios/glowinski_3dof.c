/* glowinski_3dof.c — Glowinski's three-degree-of-freedom test ([Shiau2005] §6.3; docs/design.md §7).
 *
 *     M Xddot + C lambda = f(t),  lambda_i in Sgn(xdot_i),  M = diag(m1, m2, m3),
 *     C = c I,  K = 0,  gamma = 0 (Coulomb),  f_i = -A exp(-a t),  X0 = V0 = 0,
 * defaults m = (1, 2, 3) kg, c = 10 N, A = 20 N, a = 4 1/s, T = 4 s (X0 = V0 = 0 is
 * docs/design.md §7's reading; the paper does not print them).  Closed form (docs/design.md §7): with
 *     g(t) = (A/a) (exp(-a t) - 1) + c t          (= 5 e^{-4t} - 5 + 10 t by default)
 * every DOF slides backwards from t = 0 (|f(0)| = A > c) with m_i v_i = g(t),
 * m_i x_i = (A/a^2)(1 - exp(-a t)) - (A/a) t + c t^2/2, lambda_i = -1, until g returns
 * to 0 at t* (0.3984 by default, the same for every i), then sticks for good with
 * lambda_i = f_i/c = -(A/c) exp(-a t) (|f| <= c after t* because g'(t*) >= 0).  t* is
 * the root of g on [t_m, A/(a c)], t_m = ln(A/c)/a the minimum of g, found by GSL's
 * Brent solver when exact() needs it (t > t_m), so that exact() stays a pure function
 * of the parameters.  If A <= c nothing moves: x = v = 0, lambda = -(A/c) exp(-a t).
 * Plant: n = 3, three contacts (one per DOF) with the coulomb shape mu_s = mu_k = 1 and
 * N = c.  No breaks (the forcing is smooth).  f_c = max(1/T, a/(2 pi)) (the forcing's
 * decay rate: 0.64 Hz by default); v_scale = max |v| = |g(t_m)|/min m_i (1.53 m/s).
 * Parameters: m1, m2, m3 (kg), c (N), A (N), a (1/s), T (s).  Reference: exact.
 */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stddef.h>

#include "fb_glowinski_ref.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct g3_params {
  double m[3], c, A, a, T;
} g3_params;

static const fb_param_desc g3_desc[] = {
    {"m1", "kg", "mass of DOF 1", offsetof(g3_params, m[0]), 1, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"m2", "kg", "mass of DOF 2", offsetof(g3_params, m[1]), 2, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"m3", "kg", "mass of DOF 3", offsetof(g3_params, m[2]), 3, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"c", "N", "friction force of every DOF, C = c I (N = c, mu = 1)", offsetof(g3_params, c), 10,
     0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"A", "N", "forcing amplitude, f_i = -A exp(-a t)", offsetof(g3_params, A), 20, 0, INFINITY,
     0, NULL, NULL},
    {"a", "1/s", "forcing decay rate", offsetof(g3_params, a), 4, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
    {"T", "s", "end time", offsetof(g3_params, T), 4, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set g3_set = {sizeof(g3_params), 7, g3_desc};

/* m_i v_i while sliding: g(t) = (A/a)(exp(-a t) - 1) + c t, expm1 for small t. */
static double g3_g(double t, void *pv)
{
  const g3_params *p = pv;
  return (p->A / p->a) * expm1(-p->a * t) + p->c * t;
}

/* m_i x_i while sliding. */
static double g3_G(const g3_params *p, double t)
{
  return -(p->A / (p->a * p->a)) * expm1(-p->a * t) - (p->A / p->a) * t + 0.5 * p->c * t * t;
}

/* Minimum of g, where the sliding DOFs are fastest (t_m = ln(A/c)/a, A > c). */
static double g3_tm(const g3_params *p)
{
  return log(p->A / p->c) / p->a;
}

/* t*: the positive root of g, by Brent's method on [t_m, A/(a c)] (g(t_m) < 0 <
 * g(A/(a c))).  NaN if the solver cannot be allocated or does not converge. */
static double g3_tstar(const g3_params *p)
{
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (s == NULL)
    return NAN;
  gsl_function F = {g3_g, (void *)p}; /* g3_g only reads it */
  double lo = g3_tm(p), hi = p->A / (p->a * p->c), root = NAN;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  if (gsl_root_fsolver_set(s, &F, lo, hi) == GSL_SUCCESS)
    for (int it = 0; it < 200; it++) {
      if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
        break;
      lo = gsl_root_fsolver_x_lower(s);
      hi = gsl_root_fsolver_x_upper(s);
      if (gsl_root_test_interval(lo, hi, 0.0, 4.0 * DBL_EPSILON) == GSL_SUCCESS) {
        root = gsl_root_fsolver_root(s);
        break;
      }
    }
  gsl_set_error_handler(old);
  gsl_root_fsolver_free(s);
  return root;
}

int fb_glowinski_3dof_ref(const void *sp, double t, fb_glow_ref *r)
{
  const g3_params *p = sp;
  const double f = -p->A * exp(-p->a * t);
  r->n = 3;
  int slide = 0;
  double ts = 0.0;
  if (p->A > p->c) {
    slide = t <= g3_tm(p);
    if (!slide) {
      ts = g3_tstar(p);
      if (isnan(ts))
        return FB_ESOLVE;
      slide = t <= ts;
    }
  }
  for (size_t i = 0; i < 3; i++) {
    if (slide) { /* lambda = -1: m a = f + c */
      r->v[i] = g3_g(t, (void *)p) / p->m[i];
      r->x[i] = g3_G(p, t) / p->m[i];
      r->a[i] = (f + p->c) / p->m[i];
      r->lambda[i] = -1.0;
    } else { /* at rest at x(t*) (0 if never moved), c lambda = f */
      r->v[i] = 0.0;
      r->x[i] = ts > 0.0 ? g3_G(p, ts) / p->m[i] : 0.0;
      r->a[i] = 0.0;
      r->lambda[i] = f / p->c;
    }
  }
  return FB_OK;
}

static void g3_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const g3_params *p = sp;
  (void)x, (void)v;
  const double fi = -p->A * exp(-p->a * t);
  f[0] = f[1] = f[2] = fi;
}

static int g3_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const g3_params *p = sp;
  if (fb_plant_alloc(pl, 3, 3, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double mmin = fmin(p->m[0], fmin(p->m[1], p->m[2]));
  for (size_t i = 0; i < 3; i++) {
    pl->M[i * 3 + i] = p->m[i];
    pl->contact[i].dof = i;
    pl->contact[i].law = (fb_friction){FB_SHAPE_COULOMB, 1.0, 1.0, 1.0};
    pl->contact[i].c0 = (fb_contact_state){p->c, 0.0, 0.0};
  }
  pl->T = p->T;
  pl->f_c = fmax(1.0 / p->T, p->a / (2.0 * M_PI));
  pl->v_scale = p->A > p->c ? fabs(g3_g(g3_tm(p), (void *)p)) / mmin : p->A / (p->a * mmin);
  pl->force = g3_force;
  return FB_OK;
}

static fb_ref_kind g3_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

static int g3_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const g3_params *p = sp;
  fb_glow_ref r;
  int st = fb_glowinski_3dof_ref(sp, t, &r);
  if (st != FB_OK)
    return st;
  for (size_t i = 0; i < 3; i++) {
    x[i] = r.x[i];
    v[i] = r.v[i];
    if (F != NULL) /* gamma = 0: F = -c lambda */
      F[i] = -p->c * r.lambda[i];
  }
  return FB_OK;
}

const fb_scenario_type fb_scenario_glowinski_3dof = {
    .name = "glowinski-3dof",
    .title = "three uncoupled DOFs pushed by a decaying force: slide, then stick for good",
    .source = "Shiau & Glowinski 2005 [Shiau2005] §6.3; closed form docs/design.md §7",
    .params = &g3_set,
    .ref_kind = g3_ref_kind,
    .build = g3_build,
    .exact = g3_exact,
};
