/* fb_system.h — a plant and an ODE-family model assembled into one gsl_odeiv2_system.
 *
 *   y = [x(n), v(n), z(nc*nz)],   x' = v,
 *   v' = M^-1 ( f(t,x,v) - D v - K x + sum_i e_{j_i} F_i ),   z_i' = dz_i,
 *   (F_i, dz_i) = model.force(v_r = v_{j_i} - u_i(t), z_i).
 *
 * fb_system_rhs and fb_system_jac have GSL's exact signatures.  The RHS counts its
 * evaluations in the run's counters and refuses (GSL_EBADFUNC, which makes GSL return
 * at once) when the RHS budget is spent or the model fails; `stop` then says why.
 * The Jacobian is assembled from each contact's analytic partials (model.jac) or from
 * finite differences of model.force, and of the scenario's force when it depends on
 * the state; df/dt is a forward difference.  No allocation after fb_system_alloc.
 * gsys.function is fb_system_rhs, or for a one-DOF plant with one constant contact a
 * scalar specialization of it with the same results to the bit (not for a model that
 * reads f_app, FB_MODEL_NEEDS_FAPP: fb_system_rhs computes it, so the scalar path and the
 * fixed-step kernels of the other models stay as they are).
 */
#ifndef FB_SYSTEM_H
#define FB_SYSTEM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>

#include "fb_integrator.h"
#include "fb_util.h"
#include "fb_plant_int.h"

/* A model's force law (fb_model_type.force). */
typedef int (*fb_force_law)(const void *p, const fb_contact_in *c, double vr, const double *z,
                            double *F, double *dz);

typedef struct fb_system {
  const fb_plant *pl;
  const fb_model *md;
  size_t n, nc, nz, dim;
  double *f;       /* n: total force */
  double *work;    /* 2 dim + n (dim + n): scratch for differences */
  double *A;       /* n x dim: d(total force)/d(y) */
  double *fapp_f, *fapp_a; /* n each: f - D v - K x and M^-1 of it, for models that read
                            * fb_contact_in.f_app (FB_MODEL_NEEDS_FAPP; never scalar) */
  int needs_fapp;  /* the model has FB_MODEL_NEEDS_FAPP */
  fb_counters *cnt; /* the run's counters (set before stepping) */
  unsigned long max_rhs;
  int stop;        /* FB_OK, FB_BUDGET or the model's failure status */
  double seg_t0;   /* the current segment's opening break (-INFINITY at t0) */
  double seg_t1;   /* its closing break (INFINITY at T) */
  double stop_t;   /* time of the refused evaluation */
  /* The hot path.  A forcing that depends on t only (force_uses_state == 0) is cached
   * for the last two t it was evaluated at, so the two middle stages of an RK4 step (same
   * t), a Jacobian's difference, and the Newton iterations of an implicit Runge-Kutta
   * step, which alternate between its stage times (GSL's rk4imp: two), share one
   * evaluation per t; results are unchanged, the value is the same double.  A one-DOF plant with one constant contact (no
   * contact_state callback) takes a scalar path with the contact's view (ci0, u0) and
   * resolved parameters (cp0) looked up once here, not per evaluation. */
  double fa_t;     /* time of the cached applied force; NaN: none */
  double *fa;      /* n: the applied force at fa_t */
  double fa_t2;    /* the slot used before it (fb_system_fa_slot) */
  double *fa2;
  int scalar;      /* 1: the one-DOF, one-constant-contact path */
  fb_contact_in ci0; /* contact 0 as its model sees it (scalar path) */
  double u0;       /* its surface velocity */
  const void *cp0; /* its resolved parameters */
  fb_force_law force0; /* the model's force law */
  /* the scalar plant, copied out of it: D, K (0 when the plant has none), 1/M, the
   * forcing (fa_mode 0: none, 1: depends on t only, cached, 2: on the state too, 3:
   * FB_FORCING_COS, fa_amp cos(fa_omega t) computed here, cached as mode 1) */
  double D0, K0, Minv0;
  double fa_amp, fa_omega;
  int fa_mode;
  fb_force_fn force_fn;
  const void *sp;
  /* 1: the stepper never reads the Jacobian's df/dt, and fb_system_jac leaves it
   * unwritten (two RHS evaluations, not counted in nfe, saved per Jacobian).  GSL's
   * rk4imp (ode-initval2/rk4imp.c) evaluates the Jacobian only to build its Newton
   * matrix I - h A (x) df/dy.  The suite's converged references of the regularized
   * laws run it (6.7 s of the quick suite's 15 s of CPU, mostly GSL's LU). */
  int jac_skips_dfdt;
  gsl_odeiv2_system gsys; /* function, jacobian, dimension, params = this */
} fb_system;

int fb_system_alloc(fb_system *s, const fb_problem *pb, unsigned long max_rhs);
void fb_system_free(fb_system *s);
int fb_system_rhs(double t, const double y[], double dydt[], void *params);
/* fb_system_rhs for a one-DOF plant with one constant contact (s->scalar). */
int fb_system_rhs_scalar(double t, const double y[], double dydt[], void *params);
int fb_system_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);

/* ---- the hot path, inline so that a stepper can take it without a call ------------ */

/* A stage exactly on a forcing break belongs to the segment being integrated: the
 * forcing is read one ulp inside it, whichever side the scenario assigns the break. */
static inline double fb_system_segment_time(const fb_system *s, double t)
{
  if (t <= s->seg_t0)
    return nextafter(t, INFINITY);
  if (t >= s->seg_t1)
    return nextafter(t, -INFINITY);
  return t;
}

/* The forcing cache's slot for t, made the first: 1 when it holds the forcing at t
 * already, 0 when the caller must evaluate it into s->fa (and set s->fa_t = t); the
 * older slot is the one replaced. */
static inline int fb_system_fa_slot(fb_system *s, double t)
{
  if (t == s->fa_t)
    return 1;
  double *const p = s->fa;
  const double pt = s->fa_t;
  s->fa = s->fa2;
  s->fa_t = s->fa_t2;
  s->fa2 = p;
  s->fa_t2 = pt;
  return t == s->fa_t;
}

/* The scenario's applied force at (t, x, v) into f[n]: cached per t when it depends on
 * t only. */
static inline void fb_system_applied_force(fb_system *s, double t, const double *x,
                                           const double *v, double *f)
{
  const fb_plant *pl = s->pl;
  const size_t n = s->n;
  if (pl->force == NULL) {
    for (size_t i = 0; i < n; i++)
      f[i] = 0.0;
  } else if (pl->force_uses_state) {
    pl->force(pl->sp, t, x, v, f);
  } else {
    if (!fb_system_fa_slot(s, t)) {
      pl->force(pl->sp, t, x, v, s->fa);
      s->fa_t = t;
    }
    for (size_t i = 0; i < n; i++)
      f[i] = s->fa[i];
  }
}

/* The right-hand side of a scalar system (no counting) at (t, x, v, z) with the law
 * `force`: v' into *dv, z' into dz.  The generic assembly's operations in the same order
 * (fb_plant_sub_linear's sums start from 0.0, so do these), with the contact's view and
 * parameters looked up at alloc.  Scalars in and out, so that an inlining stepper keeps
 * x and v in registers; a constant `force` is inlined too (fb_kernel.h).  inside = 1:
 * the caller knows seg_t0 < t < seg_t1 (no break test needed). */
static FB_HOT_INLINE int fb_system_eval_scalar_law(fb_system *s, fb_force_law force,
                                                   int inside, double t, double x, double v,
                                                   const double *z, double *dv, double *dz)
{
  /* Only copies of x, v and f have their address taken (by the forcing callback), so
   * that x, v and f themselves can stay in registers. */
  double f, F;
  if (!inside && (t <= s->seg_t0 || t >= s->seg_t1))
    t = fb_system_segment_time(s, t);
  if (s->fa_mode == 3) {
    /* force() computes this very expression (checked by fb_plant_finish): the same
     * double, without a call through a pointer and the spills around it */
    if (!fb_system_fa_slot(s, t)) {
      s->fa[0] = s->fa_amp * cos(s->fa_omega * t);
      s->fa_t = t;
    }
    f = s->fa[0];
  } else if (s->fa_mode == 1) {
    if (!fb_system_fa_slot(s, t)) {
      const double xa = x, va = v;
      s->force_fn(s->sp, t, &xa, &va, s->fa);
      s->fa_t = t;
    }
    f = s->fa[0];
  } else if (s->fa_mode == 2) {
    const double xa = x, va = v;
    double fa;
    s->force_fn(s->sp, t, &xa, &va, &fa);
    f = fa;
  } else {
    f = 0.0;
  }
  /* Without damping (stiffness) D0 (K0) is 0 and f - (0.0 + 0 v) is f, to the bit, for
   * every finite v: the generic assembly, which skips the term, gives the same double. */
  f -= 0.0 + s->D0 * v;
  f -= 0.0 + s->K0 * x;
  const int st = force(s->cp0, &s->ci0, v - s->u0, z, &F, dz);
  if (st != FB_OK)
    return st;
  f += F;
  *dv = s->Minv0 * f;
  return FB_OK;
}

/* The same with the system's own law (s->force0). */
static FB_HOT_INLINE int fb_system_eval_scalar_xv(fb_system *s, double t, double x, double v,
                                                  const double *z, double *dv, double *dz)
{
  return fb_system_eval_scalar_law(s, s->force0, 0, t, x, v, z, dv, dz);
}

/* The same on a state vector y = [x, v, z]. */
static inline int fb_system_eval_scalar(fb_system *s, double t, const double *y, double *dydt)
{
  dydt[0] = y[1];
  return fb_system_eval_scalar_xv(s, t, y[0], y[1], y + 2, dydt + 1, dydt + 2);
}

/* Budget and counting of one evaluation, as fb_system_rhs does: GSL_SUCCESS or
 * GSL_EBADFUNC with s->stop set. */
static inline int fb_system_count(fb_system *s, double t)
{
  if (s->cnt->nfe >= s->max_rhs) {
    s->stop = FB_BUDGET;
    s->stop_t = t;
    return GSL_EBADFUNC;
  }
  s->cnt->nfe++;
  return GSL_SUCCESS;
}

/* A model failure as fb_system_rhs reports it. */
static inline int fb_system_failed(fb_system *s, double t, int st)
{
  s->stop = st;
  s->stop_t = t;
  return GSL_EBADFUNC;
}

/* fb_system_rhs_scalar, inline: counting, budget, failure codes as fb_system_rhs. */
static inline int fb_system_rhs_scalar_inline(double t, const double y[], double dydt[],
                                              void *params)
{
  fb_system *s = params;
  if (fb_system_count(s, t) != GSL_SUCCESS)
    return GSL_EBADFUNC;
  const int st = fb_system_eval_scalar(s, t, y, dydt);
  return st == FB_OK ? GSL_SUCCESS : fb_system_failed(s, t, st);
}

#endif
