/* line_search.c — SAP's exact line search and its memo (fb_line_search.h). */
#include <math.h>
#include <string.h>

#include "fb_line_search.h"
#include "fb_util.h"

double fb_line_search_exact(double amax, fb_line_dl dl, void *ctx)
{
  double d2;
  if (dl(ctx, amax, &d2) <= 0.0)
    return amax;
  double lo = 0.0, hi = amax, a = 1.0;
  for (int it = 0; it < 100; it++) {
    const double d1 = dl(ctx, a, &d2);
    if (d1 > 0.0)
      hi = a;
    else
      lo = a;
    if (d1 == 0.0 || fabs(d1) <= 1e-14 * d2 * a || hi - lo <= 1e-15 * hi)
      return a;
    double an = d2 > 0.0 ? a - d1 / d2 : 0.5 * (lo + hi);
    if (!(an > lo && an < hi))
      an = 0.5 * (lo + hi);
    a = an;
  }
  return a;
}

void fb_line_memo_clear(fb_line_memo *mm)
{
  mm->n = 0;
  mm->next = 0;
}

int fb_line_memo_find(const fb_line_memo *mm, const double *p, size_t n, double *d1,
                      double *d2)
{
  for (int m = 0; m < mm->n; m++)
    if (fb_same_bits(mm->at[m], p, n)) {
      *d1 = mm->d1[m];
      *d2 = mm->d2[m];
      return 1;
    }
  return 0;
}

void fb_line_memo_put(fb_line_memo *mm, const double *p, size_t n, double d1, double d2)
{
  const int m = mm->n < 2 ? mm->n++ : mm->next;
  mm->next = 1 - m;
  memcpy(mm->at[m], p, n * sizeof(double));
  mm->d1[m] = d1;
  mm->d2[m] = d2;
}
