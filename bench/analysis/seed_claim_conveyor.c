/* seed_claim_conveyor.c — [Xiong2013] §5.2's claim about its Example II (conveyor-wall,
 * docs/scenarios/conveyor-wall.md), judged on the suite's kikuuwe-n + kikuuwe run (contact
 * and friction both by the DAI->ODE, the paper's method): "the horizontal bouncing
 * eventually converges" (fig. 9(a)-(b)) and "the vertical position of A does not converge
 * to zero because of the static friction forces from the wall and B" (fig. 9(c)).  It reads
 * the run's trajectory, since runs.csv has no column for a run's final coordinates. */
#define _POSIX_C_SOURCE 200809L
#include "fb_seed_claims.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_csv.h"
#include "fb_gzcsv.h"
#include "fb_verdicts.h"

/* The claim's bounds: at rest horizontally (m), A held off its balance (m), still (m). */
#define CW_REST_X 1e-3
#define CW_HELD_Y 1e-4
#define CW_STILL_Y 1e-6

static const char *cell(const fb_csv *t, size_t k, const char *col)
{
  return fb_csv_s(t, k, fb_csv_col(t, col));
}

/* From a trajectory's text (t, xA, yA, xB, yB, ...): the last row's xA, yA, xB and yA's
 * range over t >= t_last - 1.  0, or -1 without a data row. */
static int cw_tail(const char *text, double *xA, double *yA, double *xB, double *range)
{
  /* two passes: the last time, then the window */
  double t_last = NAN;
  const char *line = strchr(text, '\n');
  for (const char *p = line; p != NULL && p[1] != '\0'; p = strchr(p + 1, '\n')) {
    char *end;
    const double t = strtod(p + 1, &end);
    if (end != p + 1)
      t_last = t;
  }
  if (isnan(t_last))
    return -1;
  double lo = INFINITY, hi = -INFINITY;
  for (const char *p = line; p != NULL && p[1] != '\0'; p = strchr(p + 1, '\n')) {
    double v[5];
    char *q = (char *)(p + 1), *end;
    size_t n = 0;
    for (; n < 5; n++, q = end + 1) {
      v[n] = strtod(q, &end);
      if (end == q || (*end != ',' && n < 4))
        break;
    }
    if (n < 5 || v[0] < t_last - 1.0)
      continue;
    lo = fmin(lo, v[2]);
    hi = fmax(hi, v[2]);
    if (v[0] == t_last)
      *xA = v[1], *yA = v[2], *xB = v[3];
  }
  *range = hi - lo;
  return 0;
}

void fb_seed_claim_conveyor(fb_claims *c, const char *runs_csv, size_t runs_len,
                            const char *dir)
{
  if (c->n >= FB_SC_MAX)
    return;
  fb_claim *r = &c->r[c->n++];
  memset(r, 0, sizeof *r);
  snprintf(r->seed, sizeof r->seed, "002");
  snprintf(r->claim, sizeof r->claim, "three interacting frictional unilateral contacts "
           "(conveyor-wall): the bouncing converges and static friction holds A off its "
           "balance");
  snprintf(r->measure, sizeof r->measure, "conveyor group, kikuuwe-n + kikuuwe (the DAI->ODE "
           "for contact and friction): |xA|, |xB| <= 1e-3 m at T, |yA(T)| >= 1e-4 m and yA's "
           "range over the last 1 s <= 1e-6 m; value: yA(T) (m)");
  r->value = NAN;
  snprintf(r->verdict, sizeof r->verdict, "not measured");
  fb_csv T;
  fb_err err;
  if (fb_runs_parse(&T, runs_csv, runs_len, &err) != FB_OK) {
    snprintf(r->why, sizeof r->why, "runs.csv unreadable");
    return;
  }
  long row = -1;
  for (size_t k = 0; k < T.nrows && row < 0; k++)
    if (strcmp(cell(&T, k, "group"), "conveyor") == 0 &&
        strcmp(cell(&T, k, "tag"), "kikuuwe-n") == 0)
      row = (long)k;
  char path[4096], step[48], *text = NULL;
  size_t len = 0;
  if (row < 0) {
    snprintf(r->why, sizeof r->why, "no kikuuwe-n run of the conveyor group");
  } else if (strcmp(cell(&T, (size_t)row, "status"), "ok") != 0) {
    snprintf(r->why, sizeof r->why, "the kikuuwe-n run ended %s",
             cell(&T, (size_t)row, "status"));
  } else {
    const size_t k = (size_t)row;
    if (strcmp(cell(&T, k, "mode"), "fixed") == 0)
      snprintf(step, sizeof step, "h%g", fb_csv_d(&T, k, fb_csv_col(&T, "h")));
    else
      snprintf(step, sizeof step, "tol%g", fb_csv_d(&T, k, fb_csv_col(&T, "atol")));
    snprintf(path, sizeof path, "%s/traj/%s/%s__%s__%s__%s" FB_TRAJ_EXT, dir,
             cell(&T, k, "scenario"), cell(&T, k, "model"), cell(&T, k, "integrator"), step,
             cell(&T, k, "tag"));
    double xA = NAN, yA = NAN, xB = NAN, range = NAN;
    if (fb_gz_read_all(path, &text, &len) != 0 || cw_tail(text, &xA, &yA, &xB, &range) != 0) {
      snprintf(r->why, sizeof r->why, "its trajectory %.300s cannot be read", path);
    } else {
      const int rest = fabs(xA) <= CW_REST_X && fabs(xB) <= CW_REST_X;
      const int held = fabs(yA) >= CW_HELD_Y && range <= CW_STILL_Y;
      r->value = yA;
      snprintf(r->verdict, sizeof r->verdict, "%s",
               rest && held ? "reproduced" : rest || held ? "partly" : "not reproduced");
      snprintf(r->why, sizeof r->why, "at T: xA = %.3g m, xB = %.3g m (%s); yA = %.4g m, "
               "its range over the last 1 s %.3g m (%s)", xA, xB, rest ? "at rest" : "moving",
               yA, range, held ? "held by static friction" : "not held");
    }
  }
  free(text);
  fb_csv_free(&T);
}
