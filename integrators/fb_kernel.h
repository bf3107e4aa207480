/* fb_kernel.h — the fixed-step RK4 step of a scalar fb_system, once, and its
 * instantiation with a model's force law inlined.
 *
 * fb_rk4_scalar_law() is the classical RK4 step of rk4_lean.c (same operations, same
 * order, so the same doubles) on a one-DOF, one-constant-contact system
 * (fb_system.scalar), with x, v and the stage derivatives in locals and the model's
 * force law passed as a parameter.  rk4_lean.c instantiates it with the system's
 * function pointer (s->force0): the generic path, for any model.
 *
 * A model may also instantiate it with its own law, in its own file:
 *
 *     FB_MODEL_KERNELS(kikuuwe, kikuuwe_force, 1)      then .kernels = &kikuuwe_kernels
 *
 * The law is then a known static function and is inlined into the step.  Why bother:
 * in the x86-64 System V ABI every xmm register is caller-saved, so an indirect call per
 * stage makes the compiler spill and reload every live double (x, v, the accumulated
 * increments, the stage values) around it; profiles of the generic step showed those
 * spills, not the arithmetic, as its largest cost.  The kernel computes exactly what the
 * generic step computes (tests/test_rk4_lean.c checks it to the bit), so a model without
 * one loses speed, never results.  The model still knows nothing of scenarios, nor of
 * which integrator runs it: the macro only hands its law to a template.
 */
#ifndef FB_KERNEL_H
#define FB_KERNEL_H

#include <gsl/gsl_errno.h>

#include "fb_system.h"

typedef int (*fb_scalar_step_fn)(fb_system *fs, double t, double h, double *y, double *yerr);

/* A model's instantiated kernels (fb_model_type.kernels). */
typedef struct fb_model_kernels {
  fb_scalar_step_fn rk4_scalar; /* one fixed rk4 step of a scalar system of this model */
} fb_model_kernels;

/* One classical RK4 step of h from (t, y) of a scalar system with nz model states,
 * counting 4 evaluations (at once when they fit the budget, else one by one so that
 * the budget stops exactly where fb_system_rhs would).  GSL_SUCCESS, or GSL_EBADFUNC
 * with fs->stop set and y unchanged.  yerr is set to 0 (no error estimate). */
static FB_HOT_INLINE int fb_rk4_scalar_law(fb_system *fs, fb_force_law force, int nz, double t,
                                           double h, double *y, double *yerr)
{
  const double h2 = 0.5 * h, h3 = h / 3.0, h6 = h / 6.0;
  const double x = y[0], v = y[1];
  double z[FB_MAX_Z + 1], kz[FB_MAX_Z + 1], az[FB_MAX_Z + 1], zt[FB_MAX_Z + 1], kv, kx;
  int st;
  fb_counters *cnt = fs->cnt;
  const int counted = cnt->nfe + 4 <= fs->max_rhs;
  /* every stage time (t, t + h/2, t + h) strictly inside the segment: no break test */
  const int inside = t > fs->seg_t0 && t + h < fs->seg_t1;
  if (counted)
    cnt->nfe += 4;
#define FB_RK4_EVAL_(tt, X, V, Z)                                                              \
  do {                                                                                         \
    if (!counted && (st = fb_system_count(fs, tt)) != GSL_SUCCESS)                             \
      return st;                                                                               \
    if ((st = fb_system_eval_scalar_law(fs, force, inside, tt, X, V, Z, &kv, kz)) != FB_OK)    \
      return fb_system_failed(fs, tt, st);                                                     \
  } while (0)
  for (int i = 0; i < nz; i++)
    z[i] = y[2 + i];
  FB_RK4_EVAL_(t, x, v, z);
  kx = v;
  double ax = x + h6 * kx, av = v + h6 * kv;
  double xt = x + h2 * kx, vt = v + h2 * kv;
  for (int i = 0; i < nz; i++) {
    az[i] = z[i] + h6 * kz[i];
    zt[i] = z[i] + h2 * kz[i];
  }
  FB_RK4_EVAL_(t + h2, xt, vt, zt);
  kx = vt;
  ax += h3 * kx, av += h3 * kv;
  xt = x + h2 * kx, vt = v + h2 * kv;
  for (int i = 0; i < nz; i++) {
    az[i] += h3 * kz[i];
    zt[i] = z[i] + h2 * kz[i];
  }
  FB_RK4_EVAL_(t + h2, xt, vt, zt);
  kx = vt;
  ax += h3 * kx, av += h3 * kv;
  xt = x + h * kx, vt = v + h * kv;
  for (int i = 0; i < nz; i++) {
    az[i] += h3 * kz[i];
    zt[i] = z[i] + h * kz[i];
  }
  FB_RK4_EVAL_(t + h, xt, vt, zt);
#undef FB_RK4_EVAL_
  kx = vt;
  y[0] = ax + h6 * kx;
  y[1] = av + h6 * kv;
  for (int i = 0; i < nz; i++)
    y[2 + i] = az[i] + h6 * kz[i];
  for (int i = 0; i < 2 + nz; i++)
    yerr[i] = 0.0;
  return GSL_SUCCESS;
}

/* The fastest fixed-step rk4 step of a scalar system: its model's kernel when it has
 * one, else the generic scalar step; NULL when fs is not scalar (use the stepper). */
fb_scalar_step_fn fb_rk4_scalar_kernel(const fb_system *fs);

/* In a model's file, after its force law: defines PREFIX_kernels, the kernels of that
 * law with NZ internal states. */
#define FB_MODEL_KERNELS(PREFIX, FORCE, NZ)                                                    \
  static FB_FLATTEN int PREFIX##_rk4_scalar(fb_system *fs, double t, double h, double *y,      \
                                             double *yerr)                                     \
  {                                                                                            \
    return fb_rk4_scalar_law(fs, FORCE, NZ, t, h, y, yerr);                                    \
  }                                                                                            \
  static const fb_model_kernels PREFIX##_kernels = {PREFIX##_rk4_scalar}

#endif
