/* fmt.c — "%.17g" without printf's multi-precision conversion (fb_fmt.h).
 *
 * The 17 significant digits of |v| are D = round(|v| 10^(16 - X)), X = floor(log10 |v|).
 *
 * Exactly, in 128-bit integers, for 1e-6 <= |v| < 1e17 (the values trajectories hold):
 * |v| = m 2^q with m < 2^53, so |v| 10^k = m 10^k 2^q, and m 10^k < 2^128 for k <= 22;
 * the shift by q gives D's integer part and the remainder decides the rounding, ties to
 * even as glibc's printf.  Otherwise in long double (x86-64: a 64-bit significand), as
 * |v| times a table entry 10^k: each table entry and the product are within one unit in
 * the last place, so D is known to within ~2e-19 relative, i.e. +-0.015 at D < 1e17:
 * unless the fraction of the computed D is within 0.03 of one half (a near tie, where
 * the error could flip the rounding), the rounding is printf's; near ties, zeros,
 * subnormals, NaN and inf go to snprintf, and so does everything outside the exact range
 * where long double is no wider than double (or is emulated as double, as valgrind does).
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

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
#define EXACT_K_MAX 22 /* m 10^k < 2^53 2^73.1 < 2^128 */

/* D = round(m 2^q 10^k), ties to even, for 0 <= k <= EXACT_K_MAX; 0 when it does not fit
 * (then the caller goes on). */
static uint64_t exact_digits(uint64_t m, int q, int k)
{
  static const uint64_t p10[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
                                   1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
                                   10000000000ULL, 100000000000ULL, 1000000000000ULL,
                                   10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
                                   10000000000000000ULL, 100000000000000000ULL,
                                   1000000000000000000ULL, 10000000000000000000ULL};
  const u128 pk = k < 20 ? (u128)p10[k] : (u128)p10[19] * p10[k - 19];
  const u128 P = (u128)m * pk;
  if (q >= 0) /* an integer already: |v| >= 2^52, k <= 1 */
    return q < 64 && (P >> (127 - q)) == 0 && (P << q) < ((u128)1 << 64) ? (uint64_t)(P << q) : 0;
  const int s = -q;
  if (s >= 128)
    return 0;
  const u128 fl = P >> s, rem = P - (fl << s), half = (u128)1 << (s - 1);
  if (fl >> 64)
    return 0;
  uint64_t d = (uint64_t)fl;
  if (rem > half || (rem == half && (d & 1)))
    d++;
  return d;
}
#endif

/* "00".."99" */
static const char pairs[201] = "0001020304050607080910111213141516171819"
                               "2021222324252627282930313233343536373839"
                               "4041424344454647484950515253545556575859"
                               "6061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

/* The 17 digits of d < 10^17 into dig. */
static void digits17(uint64_t d, char *dig)
{
  uint32_t hi = (uint32_t)(d / 100000000ULL), lo = (uint32_t)(d % 100000000ULL);
  for (int i = 7; i > 0; i -= 2) { /* lo: dig[9..16] */
    memcpy(dig + 9 + i - 1, pairs + 2 * (lo % 100), 2);
    lo /= 100;
  }
  for (int i = 8; i > 0; i -= 2) { /* hi: dig[0..8], 9 digits */
    memcpy(dig + i - 1, pairs + 2 * (hi % 100), 2);
    hi /= 100;
  }
  dig[0] = (char)('0' + hi);
}

size_t fb_fmt_g17(double v, char *buf)
{
  if (!isnormal(v))
    return slow(v, buf);
  const double a = fabs(v);
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  const int e2 = (int)(bits >> 52) - 1022; /* a = f 2^e2, f in [0.5, 1) (frexp's) */
  /* X estimate from the binary exponent (log10(2) = 0.30103), corrected below */
  int X = (int)floor((double)(e2 - 1) * 0.30102999566398120);
  uint64_t d = 0;
#ifdef __SIZEOF_INT128__
  const uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52); /* a = m 2^(e2 - 53) */
  for (int tries = 0; tries < 3 && d == 0; tries++) {
    const int k = 16 - X;
    if (k < 0 || k > EXACT_K_MAX)
      break;
    const uint64_t t = exact_digits(m, e2 - 53, k);
    if (t == 0)
      break;
    if (t >= 100000000000000000ULL) /* 10^17: X is one more (or rounded up to it) */
      X++;
    else if (t < 10000000000000000ULL)
      X--;
    else
      d = t;
  }
#endif
  if (d == 0) {
    if (LDBL_MANT_DIG < 64)
      return slow(v, buf);
    pthread_once(&tab_once, tab_init);
    if (!fast_ok)
      return slow(v, buf);
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
    d = (uint64_t)fl + (frac > 0.5L);
    if (d == 100000000000000000ULL) { /* rounded up to the next power of ten */
      d = 10000000000000000ULL;
      X++;
    }
  }
  char dig[17];
  digits17(d, dig);
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

/* "%.9g" (the trajectory files' FB_TRAJ_DIGITS): the 9 digits D = round(|v| 10^(8 - X))
 * exactly, as fb_fmt_g17's 128-bit path, for 1e-14 <= |v| < 1e9 (k = 8 - X in [0, 22]);
 * zeros written directly; everything else by snprintf. */
size_t fb_fmt_g9(double v, char *buf)
{
  if (v == 0.0) {
    memcpy(buf, signbit(v) ? "-0" : "0", signbit(v) ? 3 : 2);
    return signbit(v) ? 2 : 1;
  }
#ifdef __SIZEOF_INT128__
  if (isnormal(v)) {
    const double a = fabs(v);
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    const int e2 = (int)(bits >> 52) - 1022;
    int X = (int)floor((double)(e2 - 1) * 0.30102999566398120);
    const uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    uint64_t d = 0;
    for (int tries = 0; tries < 3 && d == 0; tries++) {
      const int k = 8 - X;
      if (k < 0 || k > EXACT_K_MAX)
        break;
      const uint64_t t = exact_digits(m, e2 - 53, k);
      if (t == 0)
        break;
      if (t >= 1000000000ULL) /* 10^9: X is one more (or rounded up to it) */
        X++;
      else if (t < 100000000ULL)
        X--;
      else
        d = t;
    }
    if (d != 0) {
      char dig[9];
      uint32_t r = (uint32_t)d;
      for (int i = 8; i >= 0; i--) {
        dig[i] = (char)('0' + r % 10);
        r /= 10;
      }
      int nd = 9;
      while (nd > 1 && dig[nd - 1] == '0')
        nd--;
      char *p = buf;
      if (v < 0)
        *p++ = '-';
      if (X < -4 || X >= 9) { /* d.ddde+XX */
        *p++ = dig[0];
        if (nd > 1) {
          *p++ = '.';
          memcpy(p, dig + 1, (size_t)nd - 1);
          p += nd - 1;
        }
        *p++ = 'e';
        *p++ = X < 0 ? '-' : '+';
        const int ax = X < 0 ? -X : X;
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
      } else if (X >= 0) {
        const int ip = X + 1;
        for (int i = 0; i < ip; i++)
          *p++ = i < nd ? dig[i] : '0';
        if (nd > ip) {
          *p++ = '.';
          memcpy(p, dig + ip, (size_t)(nd - ip));
          p += nd - ip;
        }
      } else {
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
  }
#endif
  return (size_t)snprintf(buf, FB_FMT_LEN, "%.9g", v);
}
