/* pract_metrics.c — the metrics of the practitioners' questions (docs/design.md §6
 * "The practitioners' questions"): creep under a constant push, the sliding force against
 * the Coulomb bound, and the energy a body at rest gains.  Like every metric they read the
 * trajectory and the reference only; the one exception, the stored energy of the law's
 * own elastic element, is the one fb_stream already asks the model for (docs/design.md §6
 * "energy"). */
#include "fb_metrics.h"
#include "fb_pract_metrics.h"

#include <math.h>

/* The tangential position of contact i (its slip coordinate Jt x) at sample k. */
static double slip_pos(const fb_plant *pl, const fb_trace *tr, size_t k, size_t i)
{
  return fb_contact_vel(pl, i, tr->y + k * tr->dim);
}

/* ... linearly interpolated at time t inside the trace's span. */
static double slip_pos_at(const fb_plant *pl, const fb_trace *tr, double t, size_t i)
{
  size_t k = 0;
  while (k + 1 < tr->filled && tr->t[k + 1] < t)
    k++;
  if (k + 1 >= tr->filled)
    return slip_pos(pl, tr, k, i);
  const double t0 = tr->t[k], t1 = tr->t[k + 1];
  const double w = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
  return (1.0 - w) * slip_pos(pl, tr, k, i) + w * slip_pos(pl, tr, k + 1, i);
}

/* Mean slip velocity over the last forcing segment [t_b, T] of a plant with one 1-D
 * contact on still ground and one forcing break t_b (push-hold: the 5 s of the push).
 * The mean velocity (s(T) - s(t_b)) / (T - t_b) is the number simulator users quote as
 * "creep"; for a compliant treatment it includes its presliding deflection |F|/K spread
 * over the push (docs/design.md §5 `push-hold`). */
static double push_creep(const fb_plant *pl, const fb_trace *tr)
{
  if (pl->nc != 1 || pl->contact[0].pair != FB_PAIR_NONE || pl->nbreaks != 1 ||
      pl->contact_state != NULL || pl->contact[0].c0.u != 0.0 || tr->filled < 2)
    return NAN;
  const double tb = pl->breaks[0], tT = tr->t[tr->filled - 1];
  if (!(tT > tb))
    return NAN;
  return (slip_pos(pl, tr, tr->filled - 1, 0) - slip_pos_at(pl, tr, tb, 0)) / (tT - tb);
}

/* Slip speed and friction-force magnitude of contact i at sample k of trace t (the
 * vector's for the x entry of a 2-D contact). */
static void slip_and_force(const fb_plant *pl, const fb_trace *t, size_t k, size_t i,
                           double *u, double *F)
{
  const double *v = t->y + k * t->dim + pl->n;
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, t->t[k], &cs);
  const double ux = fb_contact_vel(pl, i, v) - cs.u;
  const double Fx = t->F[k * pl->nc + i];
  if (pl->contact[i].pair != FB_PAIR_X) {
    *u = fabs(ux);
    *F = fabs(Fx);
    return;
  }
  fb_plant_contact_at(pl, i + 1, t->t[k], &cs);
  *u = hypot(ux, fb_contact_vel(pl, i + 1, v) - cs.u);
  *F = hypot(Fx, t->F[k * pl->nc + i + 1]);
}

/* The sliding force ratio |F| / |F_ref| - 1 over the samples where the run and the
 * reference both slide (|u| > 10 v_stick, as the direction error's test) and the reference
 * has a force: for a Coulomb reference |F_ref| = mu F_n, so this is docs/design.md §6's
 * |F_t| / (mu F_n) - 1, exact 0.  Its mean (*mean) and the value of largest magnitude
 * (*worst), NaN when no sample qualifies. */
static void slide_ratio(const fb_plant *pl, const fb_trace *tr, const fb_trace *rt,
                        double *mean, double *worst)
{
  const size_t ns = tr->filled < rt->filled ? tr->filled : rt->filled;
  double sum = 0.0, cnt = 0.0, w = NAN;
  for (size_t i = 0; i < pl->nc; i++) {
    if (pl->contact[i].pair == FB_PAIR_Y)
      continue; /* counted with its x entry */
    for (size_t k = 0; k < ns; k++) {
      double u, F, ur, Fr;
      slip_and_force(pl, tr, k, i, &u, &F);
      slip_and_force(pl, rt, k, i, &ur, &Fr);
      if (!(u > 10.0 * pl->v_stick) || !(ur > 10.0 * pl->v_stick) || !(Fr > 0.0) ||
          !isfinite(F))
        continue;
      const double q = F / Fr - 1.0;
      sum += q;
      cnt += 1.0;
      if (isnan(w) || fabs(q) > fabs(w))
        w = q;
    }
  }
  *mean = cnt > 0.0 ? sum / cnt : (double)NAN;
  *worst = w;
}

/* Kinetic + plant-spring + the law's stored energy at sample k (J). */
static double mech_energy(const fb_problem *pb, const fb_trace *tr, size_t k)
{
  const fb_plant *pl = pb->plant;
  const fb_model *md = pb->model;
  const size_t n = pl->n, nz = md != NULL ? md->type->nz : 0;
  const double *x = tr->y + k * tr->dim, *v = x + n;
  double E = 0.0;
  /* E = v^T M v / 2 + x^T K x / 2 */
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++) {
      E += 0.5 * v[a] * pl->M[a * n + b] * v[b];
      if (pl->has_K)
        E += 0.5 * x[a] * pl->K[a * n + b] * x[b];
    }
  if (md == NULL || md->type->stored_energy == NULL || tr->dim < 2 * n + pl->nc * nz)
    return E;
  for (size_t i = 0; i < pl->nc; i++) {
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, tr->t[k], &ci, &u);
    E += md->type->stored_energy(fb_model_cparams(md, i), &ci, x + 2 * n + i * nz);
  }
  return E;
}

/* The largest rise of the mechanical energy max_{t1 < t2} E(t2) - E(t1) (J) of a plant that
 * nothing drives (no applied force, every contact on still ground): a passive system can
 * only lose energy, so anything above 0 was created by the treatment (docs/design.md §6, rest
 * energy).  NaN for a driven plant, where the drive's work would count. */
static double rest_rise(const fb_problem *pb, const fb_trace *tr)
{
  const fb_plant *pl = pb->plant;
  if (pl->force != NULL || pl->contact_state != NULL || tr->filled == 0)
    return NAN;
  for (size_t i = 0; i < pl->nc; i++)
    if (pl->contact[i].c0.u != 0.0 || pl->contact[i].c0.udot != 0.0)
      return NAN;
  double lo = INFINITY, rise = 0.0;
  for (size_t k = 0; k < tr->filled; k++) {
    const double E = mech_energy(pb, tr, k);
    if (!isfinite(E))
      return INFINITY;
    lo = fmin(lo, E);
    rise = fmax(rise, E - lo);
  }
  return rise;
}

void fb_pract_metrics(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                      fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  m->push_creep_v = push_creep(pl, tr);
  slide_ratio(pl, tr, &ref->tr, &m->slide_ratio, &m->slide_ratio_max);
  m->rest_energy_rise = rest_rise(pb, tr);
}
