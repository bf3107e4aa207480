/* fb_util.h — tiny numerical helpers shared by models and integrators. */
#ifndef FB_UTIL_H
#define FB_UTIL_H

#include <math.h>

/* The hot path's inline helpers are inlined even where the compiler's size heuristics
 * would call them (a stepper instantiated for several dimensions calls them 20 times);
 * plain inline elsewhere. */
#if defined(__GNUC__)
#define FB_HOT_INLINE inline __attribute__((always_inline))
#define FB_FLATTEN __attribute__((flatten)) /* inline every call visible in this body */
#define FB_NOINLINE __attribute__((noinline))
#else
#define FB_HOT_INLINE inline
#define FB_FLATTEN
#define FB_NOINLINE
#endif

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

#endif
