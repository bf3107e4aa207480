/* fmt.c — "%.17g" without printf's multi-precision conversion (fb_fmt.h).
 *
 * The 17 significant digits of |v| are D = round(|v| 10^(16 - X)), X = floor(log10 |v|),
 * computed in long double (x86-64: a 64-bit significand) as |v| times a table entry
 * 10^k.  Each table entry and the product are within one unit in the last place of long
 * double, so D is known to within ~2e-19 relative, i.e. +-0.015 at D < 1e17: unless the
 * fraction of the computed D is within 0.03 of one half (a near tie, where the error could
 * flip the rounding), the rounding is printf's; near ties, zeros, subnormals, NaN and inf
 * go to snprintf.  Where long double is no wider than double (or is emulated as double,
 * as valgrind does) the function is snprintf.
 */
#include "fb_fmt.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 10^k for k in [K_MIN, K_MAX]: k = 16 - X with X from -307 (DBL_MIN) to 308. */
#define K_MIN (-292)
#define K_MAX 324
static long double pow10_tab[K_MAX - K_MIN + 1];
static int fast_ok; /* long double really carries 64 bits (not so under valgrind) */
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void tab_init(void)
{
  volatile long double one = 1.0L, tiny = 0x1p-63L;
  fast_ok = LDBL_MANT_DIG >= 64 && one + tiny != one;
  for (int k = K_MIN; k <= K_MAX; k++)
    pow10_tab[k - K_MIN] = powl(10.0L, (long double)k);
}

static size_t slow(double v, char *buf)
{
  return (size_t)snprintf(buf, FB_FMT_LEN, "%.17g", v);
}

size_t fb_fmt_g17(double v, char *buf)
{
  if (LDBL_MANT_DIG < 64 || !isnormal(v))
    return slow(v, buf);
  pthread_once(&tab_once, tab_init);
  if (!fast_ok)
    return slow(v, buf);
  const double a = fabs(v);
  int e2;
  frexp(a, &e2);
  /* X estimate from the binary exponent (log10(2) = 0.30103), corrected below */
  int X = (int)floor((double)(e2 - 1) * 0.30102999566398120);
  long double D = 0;
  for (int tries = 0; tries < 3; tries++) {
    const int k = 16 - X;
    if (k < K_MIN || k > K_MAX)
      return slow(v, buf);
    D = (long double)a * pow10_tab[k - K_MIN];
    if (D >= 1e17L)
      X++;
    else if (D < 1e16L)
      X--;
    else
      break;
  }
  if (!(D >= 1e16L && D < 1e17L))
    return slow(v, buf);
  const long double fl = floorl(D), frac = D - fl;
  if (fabsl(frac - 0.5L) < 0.03L)
    return slow(v, buf); /* a near tie: printf decides */
  uint64_t d = (uint64_t)fl + (frac > 0.5L);
  if (d == 100000000000000000ULL) { /* rounded up to the next power of ten */
    d = 10000000000000000ULL;
    X++;
  }
  char dig[17];
  for (int i = 16; i >= 0; i--) {
    dig[i] = (char)('0' + d % 10);
    d /= 10;
  }
  int nd = 17; /* significant digits without trailing zeros (%g drops them) */
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  char *p = buf;
  if (v < 0)
    *p++ = '-';
  if (X < -4 || X >= 17) { /* d.ddde+XX */
    *p++ = dig[0];
    if (nd > 1) {
      *p++ = '.';
      memcpy(p, dig + 1, (size_t)nd - 1);
      p += nd - 1;
    }
    *p++ = 'e';
    *p++ = X < 0 ? '-' : '+';
    const int ax = X < 0 ? -X : X;
    if (ax >= 100)
      *p++ = (char)('0' + ax / 100);
    *p++ = (char)('0' + ax / 10 % 10);
    *p++ = (char)('0' + ax % 10);
  } else if (X >= 0) { /* ddd.ddd: X + 1 digits before the point */
    const int ip = X + 1;
    for (int i = 0; i < ip; i++)
      *p++ = i < nd ? dig[i] : '0';
    if (nd > ip) {
      *p++ = '.';
      memcpy(p, dig + ip, (size_t)(nd - ip));
      p += nd - ip;
    }
  } else { /* 0.000ddd */
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -X - 1; i++)
      *p++ = '0';
    memcpy(p, dig, (size_t)nd);
    p += nd;
  }
  *p = '\0';
  return (size_t)(p - buf);
}
