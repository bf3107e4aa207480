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
#include <math.h>

#include "fb_quiet.h"
#include "fb_system.h"

typedef int (*fb_scalar_step_fn)(fb_system *fs, double t, double h, double *y, double *yerr);

/* The fixed-step rk4 loop over (part of) a segment [tseg, t1] of a scalar system: steps
 * of h0 (the last one shortened to land on t1) at t = tseg + k h0, as the driver
 * (stepper.c) plans them, until t1, the step budget, a failed step, a non-finite state
 * or a step that is not quiet.  y and ysave are the caller's; y is the state at t on
 * return (FB_RUN_OBSERVE: after the step to be observed, which began at tprev from the
 * state left in ysave). */
enum { FB_RUN_END, FB_RUN_BUDGET, FB_RUN_FAILED, FB_RUN_NONFINITE, FB_RUN_OBSERVE };
typedef struct fb_fixed_run {
  double t, tseg, t1, h0;    /* t: in and out */
  unsigned long kseg, nsteps; /* in and out: steps in the segment, accepted steps */
  unsigned long nrejected, max_steps;
  const fb_quiet *q;
  int why;      /* out: FB_RUN_* */
  int gst;      /* FB_RUN_FAILED: the step's GSL status (y unchanged) */
  double tbad;  /* FB_RUN_NONFINITE: the step's end (y restored to the state at t) */
  double tprev; /* FB_RUN_OBSERVE: the observed step's start */
  int pending;  /* quiet steps taken and not yet told to skip(): the last is the state
                 * at tprev (ysave) for FB_RUN_OBSERVE, the state at t (y) otherwise */
} fb_fixed_run;
typedef void (*fb_scalar_run_fn)(fb_system *fs, fb_fixed_run *r, double *y, double *ysave);

/* A model's instantiated kernels (fb_model_type.kernels). */
typedef struct fb_model_kernels {
  fb_scalar_step_fn rk4_scalar; /* one fixed rk4 step of a scalar system of this model */
  fb_scalar_run_fn rk4_run;     /* the fixed rk4 loop of fb_fixed_run */
} fb_model_kernels;

/* One classical RK4 step of h from (t, y) of a scalar system with nz model states.
 * counted = 1: the caller has counted its 4 evaluations (they fit the budget); 0: they
 * are counted one by one, so that the budget stops exactly where fb_system_rhs would.
 * GSL_SUCCESS, or GSL_EBADFUNC with fs->stop set and y unchanged.  yerr is set to 0 (no
 * error estimate). */
static FB_HOT_INLINE int fb_rk4_scalar_law_counted(fb_system *fs, fb_force_law force, int nz,
                                                   int counted, double t, double h, double *y,
                                                   double *yerr)
{
  const double h2 = 0.5 * h, h3 = h / 3.0, h6 = h / 6.0;
  const double x = y[0], v = y[1];
  double z[FB_MAX_Z + 1], kz[FB_MAX_Z + 1], az[FB_MAX_Z + 1], zt[FB_MAX_Z + 1], kv, kx;
  int st;
  /* every stage time (t, t + h/2, t + h) strictly inside the segment: no break test */
  const int inside = t > fs->seg_t0 && t + h < fs->seg_t1;
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

/* The step with its own counting: the 4 evaluations at once when they fit the budget. */
static FB_HOT_INLINE int fb_rk4_scalar_law(fb_system *fs, fb_force_law force, int nz, double t,
                                           double h, double *y, double *yerr)
{
  fb_counters *cnt = fs->cnt;
  const int counted = cnt->nfe + 4 <= fs->max_rhs;
  if (counted)
    cnt->nfe += 4;
  return fb_rk4_scalar_law_counted(fs, force, nz, counted, t, h, y, yerr);
}

/* The loop of fb_fixed_run with the law `force`.  Why a loop here and not a step
 * called per step: a step behind a pointer reloads the step's constants and the state
 * from memory and spills them around the call, and the observer behind another pointer
 * did the same, per step; here the state stays in registers from step to step (a local
 * array of constant size that the compiler keeps in registers), and the observer is
 * called only on the steps that fill a grid point.  The arithmetic of a step is
 * fb_rk4_scalar_law's, so the results are the same to the bit. */
static FB_HOT_INLINE void fb_rk4_scalar_run_law(fb_system *fs0, fb_force_law force, int nz,
                                                fb_fixed_run *r, double *y, double *ysave)
{
  const int dim = 2 + nz;
  double yl[2 + FB_MAX_Z], yp[2 + FB_MAX_Z], ye[2 + FB_MAX_Z];
  /* A copy whose address does not escape: its fields need no reload after every call
   * of the forcing through its pointer (which might write any memory the compiler sees
   * escape).  What a step writes (the forcing's cached time, a stop) is copied back. */
  fb_system sl = *fs0;
  fb_system *const fs = &sl;
  const double tseg = r->tseg, t1 = r->t1, h0 = r->h0;
  const unsigned long nrejected = r->nrejected, max_steps = r->max_steps;
  const fb_quiet *const q = r->q;
  const double t_next = q->t_next, t_last = q->t_last, xb = q->x_bound, vb = q->v_bound;
  const atomic_int *const cancel = q->cancel;
  const int bounded = xb < (double)INFINITY && vb < (double)INFINITY;
  unsigned long kseg = r->kseg, nsteps = r->nsteps;
  fb_counters *const cnt = fs->cnt;
  const unsigned long max_rhs = fs->max_rhs;
  unsigned long nfe = cnt->nfe;
  double t = r->t, tprev = t;
  int why = FB_RUN_END, pending = 0;
  for (int i = 0; i < dim; i++)
    yl[i] = y[i];
  while (t < t1) {
    if (nsteps + nrejected >= max_steps) {
      why = FB_RUN_BUDGET;
      break;
    }
    const int last = (t1 - t) <= h0 * (1.0 + 1e-9);
    const double h = last ? t1 - t : h0;
    for (int i = 0; i < dim; i++)
      yp[i] = yl[i];
    /* the counting of fb_rk4_scalar_law on a local count, stored back on the rare step
     * that counts one by one (the budget runs out inside it) and at the end */
    const int counted = nfe + 4 <= max_rhs;
    int gst;
    if (counted) {
      nfe += 4;
      gst = fb_rk4_scalar_law_counted(fs, force, nz, 1, t, h, yl, ye);
    } else {
      cnt->nfe = nfe;
      gst = fb_rk4_scalar_law_counted(fs, force, nz, 0, t, h, yl, ye);
      nfe = cnt->nfe;
    }
    if (gst != GSL_SUCCESS) { /* yl unchanged */
      r->gst = gst;
      why = FB_RUN_FAILED;
      break;
    }
    const double tnew = last ? t1 : tseg + (double)(++kseg) * h0;
    nsteps++;
    /* x and v within finite guards are finite: the finiteness test of the whole state,
     * which comes first (a non-finite state is an error, not a guard's), is then needed
     * for z alone */
    const int within = fabs(yl[0]) <= xb && fabs(yl[1]) <= vb;
    if (!(within && bounded ? fb_all_finite(yl + 2, (size_t)nz)
                            : fb_all_finite(yl, (size_t)dim))) {
      for (int i = 0; i < dim; i++)
        yl[i] = yp[i];
      r->tbad = tnew;
      why = FB_RUN_NONFINITE;
      break;
    }
    tprev = t;
    t = tnew;
    if (!(within && t < t_next && t != t_last &&
          (cancel == NULL || atomic_load_explicit(cancel, memory_order_relaxed) == 0))) {
      why = FB_RUN_OBSERVE;
      break;
    }
    pending = 1;
  }
  for (int i = 0; i < dim; i++)
    y[i] = yl[i];
  if (why == FB_RUN_OBSERVE)
    for (int i = 0; i < dim; i++)
      ysave[i] = yp[i];
  cnt->nfe = nfe;
  fs0->fa_t = sl.fa_t; /* the forcing cache's slots, which the kernel may have swapped */
  fs0->fa = sl.fa;
  fs0->fa_t2 = sl.fa_t2;
  fs0->fa2 = sl.fa2;
  fs0->stop = sl.stop;
  fs0->stop_t = sl.stop_t;
  r->t = t;
  r->tprev = tprev;
  r->kseg = kseg;
  r->nsteps = nsteps;
  r->why = why;
  r->pending = pending;
}

/* The fastest fixed-step rk4 step of a scalar system: its model's kernel when it has
 * one, else the generic scalar step; NULL when fs is not scalar (use the stepper). */
fb_scalar_step_fn fb_rk4_scalar_kernel(const fb_system *fs);
/* The same for the loop of fb_fixed_run. */
fb_scalar_run_fn fb_rk4_scalar_run_kernel(const fb_system *fs);

/* In a model's file, after its force law: defines PREFIX_kernels, the kernels of that
 * law with NZ internal states. */
#define FB_MODEL_KERNELS(PREFIX, FORCE, NZ)                                                    \
  static FB_FLATTEN int PREFIX##_rk4_scalar(fb_system *fs, double t, double h, double *y,      \
                                             double *yerr)                                     \
  {                                                                                            \
    return fb_rk4_scalar_law(fs, FORCE, NZ, t, h, y, yerr);                                    \
  }                                                                                            \
  static FB_FLATTEN void PREFIX##_rk4_run(fb_system *fs, fb_fixed_run *r, double *y,           \
                                          double *ysave)                                       \
  {                                                                                            \
    fb_rk4_scalar_run_law(fs, FORCE, NZ, r, y, ysave);                                         \
  }                                                                                            \
  static const fb_model_kernels PREFIX##_kernels = {PREFIX##_rk4_scalar, PREFIX##_rk4_run}

#endif
