/* stepping_stats.c — the impact statistics of the time-stepping normal treatments
 * (moreau-jean, ccp, sap; fb_normal_int.h fb_stepping_stats): what their steps' impulses
 * say about impacts, rest and sliding, in one place for all three. */
#include <math.h>

#include "fb_normal_int.h"
#include "fb_plant_int.h"

/* Normal 0's force at rest against the static one, the stop of its friction contact and
 * the hover gap of a sliding contact (docs/models/ccp.md: Anitescu's h mu |v_t|). */
static void stats_normal0(const fb_plant *pl, fb_impact_stats *st, const fb_stepping_step *s,
                          int impacted, double t1, double h, const double *x, const double *v,
                          double g)
{
  const size_t n = pl->n;
  const fb_normal *nm = &pl->normal[0];
  const double P = s->P[0], lam = P / h;
  st->lam_T = lam;
  if (t1 >= st->t_watch) {
    fb_plant_smooth_force(pl, t1, x, v, s->f);
    fb_plant_solve_mass(pl, s->f, s->a);
    const double ls = -fb_dotn(nm->Jn, s->a, n) / s->w0;
    st->rest_pen = fmax(st->rest_pen, -g);
    st->rest_gap = fmax(st->rest_gap, g);
    st->rest_lam_err = fmax(st->rest_lam_err, fabs(lam - ls));
    st->rest_lam_static = ls;
  }
  const long fi = nm->fric;
  if (fi < 0)
    return;
  const double vr = v[pl->contact[fi].dof] - s->us[fi];
  double slip = fabs(vr);
  if (pl->contact[fi].Jt != NULL && s->rows_slip != NULL) {
    double u[2];
    s->rows_slip(s->ctx, (size_t)fi, v, u);
    slip = hypot(u[0], u[1]);
  }
  if (impacted && isnan(st->t_stop) && slip < pl->v_stick)
    st->t_stop = t1;
  if (P > 0 && fabs(vr) > pl->v_stick) { /* sliding in contact: the hover gap */
    st->hover_n++;
    st->hover_gap_sum += g;
    st->hover_pred_sum += h * s->mu[fi] * fabs(vr);
  }
}

void fb_stepping_stats(const fb_plant *pl, fb_impact_stats *st, const fb_stepping_step *s,
                       int *inphase, int *impacted, double t0, double t1, double h,
                       const double *y)
{
  const size_t n = pl->n, nn = pl->nn;
  const double *x = y, *v = y + n;
  for (size_t k = 0; k < nn; k++) {
    const fb_normal *nm = &pl->normal[k];
    const double P = s->P[k], lam = P / h, vn1 = fb_dotn(nm->Jn, v, n);
    const double g = fb_dotn(nm->Jn, x, n) + nm->g0;
    st->max_pen = fmax(st->max_pen, -g);
    st->min_lambda = fmin(st->min_lambda, lam);
    st->work_n += P * 0.5 * (s->vn0[k] + vn1);
    if (k < FB_STATS_NN)
      st->lam_last[k] = lam;
    if (P > 0 && !inphase[k]) {
      const double frac = s->vn0[k] < 0 ? fmin(fmax(s->gk[k] / -s->vn0[k], 0.0), h) : 0.0;
      inphase[k] = 1;
      *impacted = 1;
      if (k < FB_STATS_NN && st->nph[k]++ == 0)
        st->t_first[k] = t0 + frac;
      if (k == 0) {
        if (st->n < FB_IMPACT_MAX) {
          st->t_in[st->n] = t0 + frac;
          st->v_in[st->n] = s->vn0[k];
          st->t_out[st->n] = st->v_out[st->n] = NAN;
        }
        st->n++;
        if (nm->fric >= 0 && st->n == 1) {
          const size_t fi = (size_t)nm->fric;
          double u[2];
          st->vt_after_first = pl->contact[fi].Jt != NULL && s->rows_slip != NULL
                                   ? (s->rows_slip(s->ctx, fi, v, u), hypot(u[0], u[1]))
                                   : v[pl->contact[fi].dof];
        }
      }
    } else if (P == 0 && inphase[k]) {
      inphase[k] = 0;
      if (k == 0 && st->n > 0 && st->n <= FB_IMPACT_MAX) {
        st->t_out[st->n - 1] = t0;
        st->v_out[st->n - 1] = s->vn0[k];
      }
    }
    if (k == 0) /* before the other normals: their phases do not move normal 0's stop */
      stats_normal0(pl, st, s, *impacted, t1, h, x, v, g);
  }
}
