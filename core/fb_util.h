/* fb_util.h — the library's own inline attributes; the numerical helpers models and
 * scenarios share (fb_sgn, fb_sat, ...) are public, fb_math.h, since a plugin needs them too. */
#ifndef FB_UTIL_H
#define FB_UTIL_H

#include <math.h>

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

#endif
