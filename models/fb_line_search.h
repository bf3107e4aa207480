/* fb_line_search.h — the exact line search of SAP ([Castro2023] §VI; Drake's kExact) and
 * its memo of evaluated points, shared by the friction-only scheme (models/sap.c) and the
 * normal treatment (contact/normal_sap.c).  Private to the library. */
#ifndef FB_LINE_SEARCH_H
#define FB_LINE_SEARCH_H

#include <stddef.h>

/* dl/dalpha at alpha = a (the second derivative into *d2), of a convex l. */
typedef double (*fb_line_dl)(void *ctx, double a, double *d2);

/* alpha_max when l still decreases there, else the root of dl/dalpha in (0, alpha_max)
 * (monotone: l is convex) by Newton safeguarded by bisection, from alpha = 1, at most 100
 * iterations. */
double fb_line_search_exact(double amax, fb_line_dl dl, void *ctx);

/* The last two points v + a dv a line search evaluated, with their dl/dalpha and
 * d2l/dalpha2.  Both depend on a only through the rounded point: near the root the
 * search's last bisections move a by less than an ulp of v, so v + a dv takes two or three
 * distinct values over ~20 evaluations; a repeated point (the same bits) returns the
 * values its own evaluation gave. */
typedef struct fb_line_memo {
  double *at[2]; /* n each, the caller's storage */
  double d1[2], d2[2];
  int n, next;   /* points kept; the slot the next one replaces */
} fb_line_memo;

/* A new search: no point evaluated yet. */
void fb_line_memo_clear(fb_line_memo *mm);
/* 1 with *d1, *d2 when point p (n doubles) is kept, else 0. */
int fb_line_memo_find(const fb_line_memo *mm, const double *p, size_t n, double *d1,
                      double *d2);
/* Keep point p with its values, in place of the older of two. */
void fb_line_memo_put(fb_line_memo *mm, const double *p, size_t n, double d1, double d2);

#endif
