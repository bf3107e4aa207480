/* fb_math.h — the small numerical helpers a model or a scenario uses, in-tree or in a plugin
 * (sgn with sgn(0) = 0, saturations and projections onto the friction sets).  Public
 * (include/fricbench/, in fricbench.h) so that a plugin computes exactly what the built-ins
 * do; header-only, nothing is exported. */
#ifndef FB_MATH_H
#define FB_MATH_H

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* sgn with sgn(0) = 0 (docs/design.md §3 M1); NaN propagates as 0 is not returned for NaN. */
static inline double fb_sgn(double v)
{
  return (v > 0.0) - (v < 0.0);
}

/* Saturation onto [-1, 1] ([Xiong2013] Theorem 1). */
static inline double fb_sat(double z)
{
  return z > 1.0 ? 1.0 : (z < -1.0 ? -1.0 : z);
}

/* Clamp onto [-r, r], r >= 0. */
static inline double fb_clamp(double z, double r)
{
  return z > r ? r : (z < -r ? -r : z);
}

/* The 2-D friction sets (docs/design.md §13): the isotropic disc |F| <= S, or the box
 * |F_x|, |F_y| <= S that pyramidal-cone engines use.  Choice names of a `cone` parameter. */
enum fb_cone { FB_CONE_DISC = 0, FB_CONE_BOX = 1 };
#define FB_CONE_NAMES_INIT {"disc", "box", NULL}

/* Vector saturation sat(z) = z / max(1, |z|) onto the unit disc ([Xiong2013] §5.1), in
 * place on z[2]; the box cone saturates each axis. */
static inline void fb_sat2(double *z, int cone)
{
  if (cone == FB_CONE_BOX) {
    z[0] = fb_sat(z[0]);
    z[1] = fb_sat(z[1]);
    return;
  }
  const double r = hypot(z[0], z[1]);
  if (r > 1.0) {
    z[0] /= r;
    z[1] /= r;
  }
}

/* Projection of f[2] onto the disc of radius r >= 0 (or the box [-r, r]^2), in place. */
static inline void fb_clamp2(double *f, double r, int cone)
{
  if (cone == FB_CONE_BOX) {
    f[0] = fb_clamp(f[0], r);
    f[1] = fb_clamp(f[1], r);
    return;
  }
  const double a = hypot(f[0], f[1]);
  if (a > r) {
    const double k = r / a; /* r = 0 gives 0, a = inf is NaN-free since a > r */
    f[0] *= k;
    f[1] *= k;
  }
}

#endif
