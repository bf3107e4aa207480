/* fb_glowinski_ref.h — the closed forms of the four Glowinski scenarios, complete.
 *
 * The scenarios' exact() gives x, v and the friction force F, as every scenario does.
 * These functions give the whole solution of the rigorous form ([Glowinski2004] eq. 4, [Shiau2005]
 * eq. 2.4), M a + D v + K x + C (lambda - gamma(v)) = f(t): position x, velocity v,
 * acceleration a = vdot (analytic) and multiplier lambda, so that tests can check the
 * closed forms themselves (residual of the equations of motion, lambda in Sgn(v),
 * v = xdot) and measure the multiplier's error directly.
 *
 * Convention at the kinks of the piecewise solutions (and at forcing breaks): each
 * piece holds on a half-open interval (t_a, t_b], the first one also at t0; so at a
 * break a, v and lambda are the left limits, which is what a step ending at the break
 * approximates.  sp is the scenario's parameter struct (checked).  Return FB_OK.
 */
#ifndef FB_GLOWINSKI_REF_H
#define FB_GLOWINSKI_REF_H

#include <math.h>
#include <stddef.h>

#define FB_GLOW_NMAX 3

typedef struct fb_glow_ref {
  size_t n;                   /* degrees of freedom = contacts (one per DOF) */
  double x[FB_GLOW_NMAX];     /* position (m) */
  double v[FB_GLOW_NMAX];     /* velocity (m/s) */
  double a[FB_GLOW_NMAX];     /* acceleration (m/s^2) */
  double lambda[FB_GLOW_NMAX]; /* multiplier (1), in Sgn(v) */
} fb_glow_ref;

int fb_glowinski_tp1_ref(const void *sp, double t, fb_glow_ref *r);
int fb_glowinski_tp2_ref(const void *sp, double t, fb_glow_ref *r);
int fb_glowinski_2dof_ref(const void *sp, double t, fb_glow_ref *r);
int fb_glowinski_3dof_ref(const void *sp, double t, fb_glow_ref *r);

/* gamma of [Glowinski2004] eq. 3 / [Shiau2005] eq. 2.3: beta w/eps for |w| <= eps, beta sgn(w)
 * beyond; it equals 1 - mu(|w|)/mu_s of the glowinski-linear shape with mu_s = 1,
 * mu_k = 1 - beta, vs = eps (docs/design.md §1). */
static inline double fb_glow_gamma_linear(double beta, double eps, double w)
{
  if (fabs(w) <= eps)
    return beta * w / eps;
  return w > 0 ? beta : -beta;
}

#endif
