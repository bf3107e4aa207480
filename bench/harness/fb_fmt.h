/* fb_fmt.h — printf("%.17g") for doubles, 5-10 times faster (trajectory CSV).
 *
 * 17 significant digits read back bit for bit (IEEE 754 binary64 needs at most 17), so
 * the trajectories round-trip exactly; the text is byte for byte what "%.17g" prints
 * (tests/test_hardening.c compares them on millions of values, exact ties included).
 */
#ifndef FB_FMT_H
#define FB_FMT_H

#include <stddef.h>

/* Write v as "%.17g" would into buf (at least FB_FMT_LEN bytes), NUL-terminated; returns
 * the length. */
#define FB_FMT_LEN 32
size_t fb_fmt_g17(double v, char *buf);
/* The same for "%.9g" (the suite's trajectory files), exact in 128-bit integers for
 * 1e-14 <= |v| < 1e9 and zeros, snprintf otherwise. */
size_t fb_fmt_g9(double v, char *buf);

#endif
