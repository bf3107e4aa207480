/* fb_util.h — the library's own inline attributes; the numerical helpers models and
 * scenarios share (fb_sgn, fb_sat, ...) are public, fb_math.h, since a plugin needs them too. */
#ifndef FB_UTIL_H
#define FB_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fb_math.h"

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

/* 1 when the n doubles at p and q have the same bits (not ==: -0 and +0 differ, NaNs with
 * the same payload are equal): a memo of a function of the rounded point (sap's line
 * searches) may return a value only for exactly the point it was computed at. */
static inline int fb_same_bits(const double *p, const double *q, size_t n)
{
  for (size_t j = 0; j < n; j++) {
    uint64_t bp, bq;
    memcpy(&bp, p + j, sizeof bp);
    memcpy(&bq, q + j, sizeof bq);
    if (bp != bq)
      return 0;
  }
  return 1;
}

#endif
