/* metrics.c — docs/design.md §6 metrics from a trajectory and its reference (fb_metrics.h). */
#include "fb_contact_metrics.h"
#include "fb_metrics.h"
#include "fb_pract_metrics.h"
#include "fb_plant_int.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fb_metric_names[] = {
    "err_x_l2",   "err_v_l2",      "err_F_l2",     "err_x_max",     "err_v_max",
    "err_x_T",    "err_v_T",       "stick_time",   "stick_time_ref", "onset_err",
    "offset_err", "missed",        "spurious",     "drift",          "drift_per_cycle",
    "chatter_rate", "chatter_v_rms", "chatter_F_tv", "power_pos_count", "power_pos_max",
    "stick_held", "stick_flag_time", "drift_rate", "disc_x_l2", "disc_v_l2", "disc_x_max",
    "mod_x_l2", "mod_v_l2", "own_ref_err", "drift_growth", "ref_x_l2", "energy_excess",
    "energy_excess_rel", "power_excess_rel", "e_nominal", "e_eff", "e_first", "t1_err",
    "t_imp_err", "pen_max", "contact_dur", "lambda_min", "t_inf_ref", "rest_pen", "rest_gap",
    "rest_force_err", "work_n_err", "ut_err", "stop_err",
    "path_err_max", "dir_err_max", "dir_err_rms", "stop_time_err",
    "hold_creep_v", "hold_excess", "hold_bound", "hold_slip_frac", "hold_accum", "L_scale",
    "v_scale", "own_x_l2", "energy_max", "energy_ref_max", "instability",
    "push_creep_v", "slide_ratio", "slide_ratio_max", "rest_energy_rise", "q_norm_err",
    "hover_gap", "hover_gap_rel", NULL};
const char *const fb_metric_units[] = {
    "m s^0.5", "m s^-0.5", "N s^0.5", "m",   "m/s", "m",   "m/s", "s",   "s",   "s",
    "s",       "1",        "1",       "m",   "m",   "1/s", "m/s", "1",   "1",   "W",
    "s",       "s",        "m",       "m s^0.5", "m s^-0.5", "m", "m s^0.5", "m s^-0.5",
    "m s^0.5", "1", "m s^0.5", "J", "1", "1", "1", "1", "1", "s", "s", "m", "s", "N", "s", "m",
    "m", "1", "1", "m/s", "s",
    "m", "deg", "deg", "s",
    "m/s", "m", "m", "1", "m", "m", "m/s", "m s^0.5", "J", "J", "1",
    "m/s", "1", "1", "J", "1", "m", "1", NULL};

void fb_metrics_to_array(const fb_metrics *m, double o[FB_NMETRICS])
{
  const double v[FB_NMETRICS] = {
      m->err_x_l2,   m->err_v_l2,      m->err_F_l2,       m->err_x_max,    m->err_v_max,
      m->err_x_T,    m->err_v_T,       m->stick_time,     m->stick_time_ref, m->onset_err,
      m->offset_err, m->missed,        m->spurious,       m->drift,        m->drift_per_cycle,
      m->chatter_rate, m->chatter_v_rms, m->chatter_F_tv, m->power_pos_count, m->power_pos_max,
      m->stick_held, m->stick_flag_time, m->drift_rate, m->disc_x_l2, m->disc_v_l2,
      m->disc_x_max, m->mod_x_l2, m->mod_v_l2, m->own_ref_err, m->drift_growth, m->ref_x_l2,
      m->energy_excess, m->energy_excess_rel, m->power_excess_rel, m->e_nominal, m->e_eff,
      m->e_first, m->t1_err, m->t_imp_err, m->pen_max, m->contact_dur, m->lambda_min,
      m->t_inf_ref, m->rest_pen, m->rest_gap, m->rest_force_err, m->work_n_err, m->ut_err,
      m->stop_err, m->path_err_max, m->dir_err_max, m->dir_err_rms,
      m->stop_time_err, m->hold_creep_v, m->hold_excess, m->hold_bound, m->hold_slip_frac,
      m->hold_accum, m->L_scale, m->v_scale, m->own_x_l2, m->energy_max, m->energy_ref_max,
      m->instability,
      m->push_creep_v, m->slide_ratio, m->slide_ratio_max,
      m->rest_energy_rise, m->q_norm_err, m->hover_gap, m->hover_gap_rel};
  memcpy(o, v, sizeof v);
}

void fb_metrics_from_array(fb_metrics *m, const double v[FB_NMETRICS])
{
  *m = (fb_metrics){.err_x_l2 = v[0],         .err_v_l2 = v[1],        .err_F_l2 = v[2],
                    .err_x_max = v[3],        .err_v_max = v[4],       .err_x_T = v[5],
                    .err_v_T = v[6],          .stick_time = v[7],      .stick_time_ref = v[8],
                    .onset_err = v[9],        .offset_err = v[10],     .missed = v[11],
                    .spurious = v[12],        .drift = v[13],          .drift_per_cycle = v[14],
                    .chatter_rate = v[15],    .chatter_v_rms = v[16],  .chatter_F_tv = v[17],
                    .power_pos_count = v[18], .power_pos_max = v[19], .stick_held = v[20],
                    .stick_flag_time = v[21], .drift_rate = v[22],   .disc_x_l2 = v[23],
                    .disc_v_l2 = v[24],       .disc_x_max = v[25],   .mod_x_l2 = v[26],
                    .mod_v_l2 = v[27],        .own_ref_err = v[28],    .drift_growth = v[29],
                    .ref_x_l2 = v[30],        .energy_excess = v[31],
                    .energy_excess_rel = v[32], .power_excess_rel = v[33],
                    .e_nominal = v[34],       .e_eff = v[35],          .e_first = v[36],
                    .t1_err = v[37],          .t_imp_err = v[38],      .pen_max = v[39],
                    .contact_dur = v[40],     .lambda_min = v[41],     .t_inf_ref = v[42],
                    .rest_pen = v[43],        .rest_gap = v[44],       .rest_force_err = v[45],
                    .work_n_err = v[46],      .ut_err = v[47],         .stop_err = v[48],
                    .path_err_max = v[49],    .dir_err_max = v[50],  .dir_err_rms = v[51],
                    .stop_time_err = v[52],   .hold_creep_v = v[53],   .hold_excess = v[54],
                    .hold_bound = v[55],      .hold_slip_frac = v[56], .hold_accum = v[57],
                    .L_scale = v[58],         .v_scale = v[59],        .own_x_l2 = v[60],
                    .energy_max = v[61],      .energy_ref_max = v[62], .instability = v[63],
                    .push_creep_v = v[64], .slide_ratio = v[65],
                    .slide_ratio_max = v[66], .rest_energy_rise = v[67],
                    .q_norm_err = v[68],      .hover_gap = v[69],
                    .hover_gap_rel = v[70]};
}

void fb_metrics_nan(fb_metrics *m)
{
  double *p = (double *)(void *)m;
  for (size_t k = 0; k < sizeof *m / sizeof(double); k++)
    p[k] = NAN;
}

int fb_spans_push(fb_spans *sp, double t0, double t1)
{
  if (sp->n == sp->cap) {
    const size_t cap = sp->cap ? 2 * sp->cap : 8;
    fb_span *s = realloc(sp->s, cap * sizeof *s);
    if (s == NULL)
      return FB_ENOMEM;
    sp->s = s;
    sp->cap = cap;
  }
  sp->s[sp->n++] = (fb_span){t0, t1};
  return FB_OK;
}

void fb_spans_free(fb_spans *sp)
{
  free(sp->s);
  memset(sp, 0, sizeof *sp);
}

double fb_spans_length(const fb_spans *sp)
{
  double L = 0;
  for (size_t k = 0; k < sp->n; k++)
    L += sp->s[k].t1 - sp->s[k].t0;
  return L;
}

void fb_reference_free_spans(fb_reference *ref)
{
  if (ref->stick != NULL)
    for (size_t i = 0; i < ref->nc; i++)
      fb_spans_free(&ref->stick[i]);
  free(ref->stick);
  ref->stick = NULL;
  ref->nc = 0;
}

/* The slip component of contact i at sample k (signed). */
static double vcomp(const fb_problem *pb, const fb_trace *tr, size_t k, size_t i)
{
  const fb_plant *pl = pb->plant;
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, tr->t[k], &cs);
  return fb_contact_vel(pl, i, tr->y + k * tr->dim + pl->n) - cs.u;
}

/* Relative velocity of contact i at sample k; for a component of a 2-D contact the slip
 * speed |u| (docs/design.md §13: it sticks when the whole slip vector is 0). */
static double vrel(const fb_problem *pb, const fb_trace *tr, size_t k, size_t i)
{
  const fb_plant *pl = pb->plant;
  fb_contact_state cs;
  const double *v = tr->y + k * tr->dim + pl->n;
  fb_plant_contact_at(pl, i, tr->t[k], &cs);
  const double vr = fb_contact_vel(pl, i, v) - cs.u;
  if (pl->contact[i].pair == FB_PAIR_NONE)
    return vr;
  const size_t o = fb_contact_partner(pl, i);
  fb_plant_contact_at(pl, o, tr->t[k], &cs);
  return hypot(vr, fb_contact_vel(pl, o, v) - cs.u);
}

int fb_spans_from_trace(fb_spans *sp, const fb_problem *pb, const fb_trace *tr, size_t i,
                        double thresh)
{
  size_t start = 0;
  int in = 0;
  for (size_t k = 0; k <= tr->filled; k++) {
    const int st = k < tr->filled && fabs(vrel(pb, tr, k, i)) <= thresh;
    if (st && !in) {
      start = k;
      in = 1;
    } else if (!st && in) {
      in = 0;
      if (k - 1 > start && fb_spans_push(sp, tr->t[start], tr->t[k - 1]) != FB_OK)
        return FB_ENOMEM;
    }
  }
  return FB_OK;
}

static int overlaps(const fb_span *a, const fb_span *b)
{
  return a->t0 < b->t1 && b->t0 < a->t1;
}

int fb_stream_init(fb_stream *s, const fb_problem *pb, const fb_reference *ref)
{
  memset(s, 0, sizeof *s);
  const size_t nc = pb->plant->nc ? pb->plant->nc : 1;
  s->pb = pb;
  s->ref = ref;
  s->cursor = calloc(nc, sizeof *s->cursor);
  s->vprev = calloc(6 * nc, sizeof(double));
  s->havF = calloc(2 * nc, sizeof(int));
  if (s->cursor == NULL || s->vprev == NULL || s->havF == NULL) {
    fb_stream_free(s);
    return FB_ENOMEM;
  }
  s->Fprev = s->vprev + nc;
  s->F = s->Fprev + nc;
  s->Eprev = s->F + nc;
  s->uprev = s->Eprev + 2 * nc;
  s->P_excess = -(double)INFINITY;
  s->E_max = -(double)INFINITY;
  s->Pprev = s->Eprev + nc;
  s->stick = s->havF + nc;
  return FB_OK;
}

void fb_stream_free(fb_stream *s)
{
  free(s->cursor);
  free(s->vprev);
  free(s->havF);
  memset(s, 0, sizeof *s);
}

/* dE/dt of a law's stored energy along its own rates dz at states z (nb blocks of nz: one
 * contact, or the x and y entries of a 2-D contact, whose energies add), by a central
 * difference whose step is the size of z: exact for the quadratic energies, round-off
 * aside; 0 without a stored energy or rates. */
static double law_dEdt(const fb_model_type *mt, const void *cp, const fb_contact_in *ci,
                       const double *z, const double *dz, size_t nb)
{
  double (*const energy)(const void *, const fb_contact_in *, const double *) = mt->stored_energy;
  const size_t nz = mt->nz, n = nb * nz;
  double zp[2 * FB_MAX_Z], zm[2 * FB_MAX_Z], zn = 0.0, dn = 0.0;
  if (energy == NULL)
    return 0.0;
  for (size_t k = 0; k < n; k++) {
    zn = fmax(zn, fabs(z[k]));
    dn = fmax(dn, fabs(dz[k]));
  }
  if (!(dn > 0.0))
    return 0.0;
  const double d = fmax(zn, 1e-300) / dn;
  for (size_t k = 0; k < n; k++) {
    zp[k] = z[k] + d * dz[k];
    zm[k] = z[k] - d * dz[k];
  }
  if (nb == 1)
    return (energy(cp, ci, zp) - energy(cp, ci, zm)) / (2.0 * d);
  return (energy(cp, ci, zp) + energy(cp, ci, zp + nz) - energy(cp, ci, zm) -
          energy(cp, ci, zm + nz)) / (2.0 * d);
}

/* The pointwise dissipation test of a 2-D contact (x entry i): (F . u + dE/dt) over
 * Fs v_scale from the vector law's own rates; -inf when the law fails. */
static double power2_excess(const fb_stream *s, size_t i, double t, const double *y)
{
  const fb_plant *pl = s->pb->plant;
  const fb_model *md = s->pb->model;
  const size_t nz = md->type->nz;
  fb_contact_in ci, ciy;
  double u, uy, F[2], dz[2 * FB_MAX_Z];
  fb_contact_in_at(pl, i, t, &ci, &u);
  fb_contact_in_at(pl, i + 1, t, &ciy, &uy);
  const double vr[2] = {fb_contact_vel(pl, i, y + pl->n) - u,
                        fb_contact_vel(pl, i + 1, y + pl->n) - uy};
  const double *z = y + 2 * pl->n + i * nz;
  const void *cp = fb_model_cparams(md, i);
  if (md->type->force2 == NULL || md->type->force2(cp, &ci, vr, z, F, dz) != FB_OK)
    return -(double)INFINITY;
  const double dEdt = law_dEdt(md->type, cp, &ci, z, dz, 2);
  const double scale = fb_plant_contact_Fs(pl, i) * pl->v_scale;
  return scale > 0.0 ? (F[0] * vr[0] + F[1] * vr[1] + dEdt) / scale : -(double)INFINITY;
}

/* The dissipation inequality, step by step (docs/design.md §6): over [t_prev, t] the
 * friction element of contact i created E_i(t) - E_i(t_prev) + F_i(t) ds_i, ds_i its slip
 * over the step (the work as an implicit scheme applies it); W sums that over the run, and its
 * largest rise over any interval, W(t2) - W(t1) with t1 < t2, is the energy created:
 * dissipation earlier in the run must not hide creation later. */
/* Kinetic plus elastic energy of the plant, 1/2 v'M v + 1/2 x'K x (J): with the model's
 * stored energy, what an instability pumps up (docs/design.md §10.2). */
static double mech_energy(const fb_plant *pl, const double *y)
{
  const size_t n = pl->n;
  const double *x = y, *v = y + n;
  if (pl->banded) /* O(n bw): the band's quadratic forms */
    return 0.5 * fb_band_quad(pl, pl->Mb, v) + (pl->has_K ? 0.5 * fb_band_quad(pl, pl->Kb, x) : 0.0);
  double e = 0.0;
  for (size_t j = 0; j < n; j++) {
    if (pl->M_diagonal) {
      e += 0.5 * pl->M[j * n + j] * v[j] * v[j];
    } else {
      for (size_t k = 0; k < n; k++)
        e += 0.5 * v[j] * pl->M[j * n + k] * v[k];
    }
    if (pl->has_K)
      for (size_t k = 0; k < n; k++)
        e += 0.5 * x[j] * pl->K[j * n + k] * x[k];
  }
  return e;
}

static int energy_step(fb_stream *s, double t, const double *y)
{
  const fb_plant *pl = s->pb->plant;
  const fb_model *md = s->pb->model;
  double (*const energy)(const void *, const fb_contact_in *, const double *) =
      md->type->stored_energy;
  const size_t nz = md->type->nz;
  if (fb_problem_output(s->pb, t, y, s->F, s->stick) != FB_OK)
    return 0;
  double dW = 0.0;
  for (size_t i = 0; i < pl->nc; i++) {
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t, &ci, &u);
    const double vr = fb_contact_vel(pl, i, y + pl->n) - u;
    const double xj = fb_contact_vel(pl, i, y); /* the slip coordinate Jt x */
    const double E = energy != NULL ? energy(fb_model_cparams(md, i), &ci, y + 2 * pl->n + i * nz)
                                    : 0.0;
    /* the work over the step as an implicit scheme applies it: the end-of-step force
     * times the relative slip (a trapezoid would charge a stick-slip jump of F with
     * O(dF v h) of spurious work) */
    if (s->have_prev)
      dW += E - s->Eprev[i] + s->F[i] * (xj - s->Pprev[i] - 0.5 * (u + s->uprev[i]) * (t - s->t_prev));
    if (md->type->force != NULL && nz <= FB_MAX_Z && pl->contact[i].pair != FB_PAIR_NONE) {
      /* a 2-D contact: F . u + dE/dt of the vector law, once for its x entry */
      if (pl->contact[i].pair == FB_PAIR_X)
        s->P_excess = fmax(s->P_excess, power2_excess(s, i, t, y));
    } else if (md->type->force != NULL && nz <= FB_MAX_Z) {
      /* pointwise: dE/dt along the law's own rates */
      const double *z = y + 2 * pl->n + i * nz;
      const void *cp = fb_model_cparams(md, i);
      double Fl, dz[FB_MAX_Z];
      if (md->type->force(cp, &ci, vr, z, &Fl, dz) == FB_OK) {
        const double dEdt = law_dEdt(md->type, cp, &ci, z, dz, 1);
        const double scale = fb_plant_contact_Fs(pl, i) * pl->v_scale;
        if (scale > 0.0)
          s->P_excess = fmax(s->P_excess, (Fl * vr + dEdt) / scale);
      }
    }
    s->Eprev[i] = E;
    s->Pprev[i] = xj;
    s->uprev[i] = u;
  }
  double E_all = mech_energy(pl, y);
  for (size_t i = 0; i < pl->nc; i++)
    E_all += s->Eprev[i];
  s->E_max = fmax(s->E_max, E_all);
  s->W += dW;
  s->W_min = fmin(s->W_min, s->W);
  s->W_rise = fmax(s->W_rise, s->W - s->W_min);
  s->t_prev = t;
  s->have_prev = 1;
  return 1;
}

int fb_stream_step(void *ctx, double t, const double *y)
{
  fb_stream *s = ctx;
  const fb_plant *pl = s->pb->plant;
  int any = 0;
  int have_out = energy_step(s, t, y);
  for (size_t i = 0; i < pl->nc; i++) {
    const fb_spans *sp = &s->ref->stick[i];
    while (s->cursor[i] < sp->n && sp->s[s->cursor[i]].t1 < t) {
      s->cursor[i]++;
      s->vprev[i] = 0;
      s->havF[i] = 0;
    }
    if (s->cursor[i] < sp->n && sp->s[s->cursor[i]].t0 <= t)
      any = 1;
  }
  if (!any)
    return 0;
  for (size_t i = 0; i < pl->nc; i++) {
    const fb_spans *sp = &s->ref->stick[i];
    if (!(s->cursor[i] < sp->n && sp->s[s->cursor[i]].t0 <= t))
      continue;
    if (!have_out) {
      if (fb_problem_output(s->pb, t, y, s->F, s->stick) != FB_OK)
        return 0; /* the recorder reports output failures */
      have_out = 1;
    }
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, t, &cs);
    const double vr = fb_contact_vel(pl, i, y + pl->n) - cs.u;
    if (vr != 0.0) {
      if (s->vprev[i] != 0.0 && (vr > 0) != (s->vprev[i] > 0))
        s->sign_changes += 1;
      s->vprev[i] = vr;
    }
    if (s->havF[i])
      s->F_tv += fabs(s->F[i] - s->Fprev[i]);
    s->Fprev[i] = s->F[i];
    s->havF[i] = 1;
  }
  return 0;
}

/* First sample index with t >= a, last with t <= b. */
static void sample_range(const fb_trace *tr, double a, double b, size_t *ka, size_t *kb)
{
  size_t k = 0;
  while (k < tr->filled && tr->t[k] < a)
    k++;
  *ka = k;
  while (k + 1 < tr->filled && tr->t[k + 1] <= b)
    k++;
  *kb = k;
}

/* Drift as accumulation (docs/design.md §6): in the longest reference stick of each
 * contact, with N = the number of whole forcing cycles 1/f_c in half of it, the growth of
 * the run's deviation d = x_j - x_ref_j from cycle N to cycle 2N, per cycle. */
static double drift_accumulation(const fb_problem *pb, const fb_trace *tr,
                                 const fb_reference *ref, double *growth)
{
  *growth = NAN;
  const fb_plant *pl = pb->plant;
  const fb_trace *rt = &ref->tr;
  const double P = 1.0 / pl->f_c;
  double worst = NAN;
  for (size_t i = 0; i < pl->nc; i++) {
    const fb_spans *rs = &ref->stick[i];
    const fb_span *best = NULL;
    for (size_t a = 0; a < rs->n; a++)
      if (best == NULL || rs->s[a].t1 - rs->s[a].t0 > best->t1 - best->t0)
        best = &rs->s[a];
    if (best == NULL)
      continue;
    const double N = floor((best->t1 - best->t0) / (2.0 * P));
    if (N < 1)
      continue;
    size_t kN, k2N, dummy;
    sample_range(tr, best->t0 + N * P, best->t0 + N * P, &kN, &dummy);
    sample_range(tr, best->t0 + 2 * N * P, best->t0 + 2 * N * P, &k2N, &dummy);
    if (k2N >= tr->filled || k2N >= rt->filled || kN >= k2N)
      continue;
    const double dN = fb_contact_vel(pl, i, tr->y + kN * tr->dim) -
                      fb_contact_vel(pl, i, rt->y + kN * rt->dim);
    const double d2N = fb_contact_vel(pl, i, tr->y + k2N * tr->dim) -
                       fb_contact_vel(pl, i, rt->y + k2N * rt->dim);
    const double rate = fabs(d2N - dN) / N;
    const double g = fabs(d2N - dN) / fmax(fabs(dN), 1e-3 * pl->v_stick / pl->f_c);
    worst = isnan(worst) ? rate : fmax(worst, rate);
    *growth = isnan(*growth) ? g : fmax(*growth, g);
  }
  return worst;
}

/* The treatment's tangential stiffness K_t of contact i (N/m): its declared parameter,
 * infinite for a rigid treatment (fb_model_type.stiffness_param). */
static double contact_stiffness(const fb_problem *pb, size_t i)
{
  const fb_model *md = pb->model;
  if (md == NULL || md->type->stiffness_param == NULL)
    return (double)INFINITY;
  const double K = fb_model_get(md, i, md->type->stiffness_param);
  return isfinite(K) && K > 0 ? K : (double)INFINITY;
}

/* Least-squares slope of s[] against t[] (n >= 2), centred for round-off. */
static double ls_slope(const double *t, const double *s, size_t n)
{
  double tm = 0, sm = 0;
  for (size_t k = 0; k < n; k++)
    tm += t[k], sm += s[k];
  tm /= (double)n, sm /= (double)n;
  double stt = 0, sts = 0;
  for (size_t k = 0; k < n; k++) {
    stt += (t[k] - tm) * (t[k] - tm);
    sts += (t[k] - tm) * (s[k] - sm);
  }
  return stt > 0 ? sts / stt : (double)NAN;
}

/* The hold metrics of fb_metrics (docs/design.md §10.1) over one reference stick interval
 * [ka, kb] of contact i, from the run's own first stuck sample in it; s[] is scratch of
 * kb - ka + 1 entries. */
static void hold_interval(const fb_problem *pb, const fb_trace *tr, const fb_trace *rt,
                          size_t i, size_t ka, size_t kb, double *s, fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  const size_t nc = pl->nc;
  const double P = 1.0 / pl->f_c, b = tr->t[kb];
  /* the hold starts where the run itself stops (velocity test or its own flag): motion
   * before that is the stick verdict's onset error (a scheme stopping a step late), not
   * a lost hold */
  for (size_t k = ka; k < kb; k++)
    if (fabs(vrel(pb, tr, k, i)) < pl->v_stick || tr->stick[k * nc + i] == 1) {
      ka = k;
      break;
    }
  const size_t ns = kb - ka + 1;
  const double a = tr->t[ka];
  /* s(t) - s(a): the contact's travel minus the surface's (trapezoid, as `drift`) */
  const double x_a = fb_contact_vel(pl, i, tr->y + ka * tr->dim);
  double belt = 0.0, dmax = 0.0, slip = 0.0, dF = 0.0;
  const double F_a = tr->F[ka * nc + i];
  for (size_t k = ka; k <= kb; k++) {
    if (k > ka) {
      fb_contact_state c0, c1;
      fb_plant_contact_at(pl, i, tr->t[k - 1], &c0);
      fb_plant_contact_at(pl, i, tr->t[k], &c1);
      belt += 0.5 * (c0.u + c1.u) * (tr->t[k] - tr->t[k - 1]);
      /* slipping: moving by the velocity test and not stuck by the model's own flag (a
       * compliant element's deflection moves the body while its anchor holds) */
      const int held_v = fabs(vrel(pb, tr, k - 1, i)) < pl->v_stick &&
                         fabs(vrel(pb, tr, k, i)) < pl->v_stick;
      const int held_f = tr->stick[(k - 1) * nc + i] == 1 && tr->stick[k * nc + i] == 1;
      if (!held_v && !held_f)
        slip += tr->t[k] - tr->t[k - 1];
    }
    s[k - ka] = fb_contact_vel(pl, i, tr->y + k * tr->dim) - x_a - belt;
    dmax = fmax(dmax, fabs(s[k - ka]));
    if (k < rt->filled)
      dF = fmax(dF, fabs(rt->F[k * nc + i] - F_a));
  }
  const double Kt = contact_stiffness(pb, i);
  const double bound = isinf(Kt) ? 0.0 : dF / Kt;
  const double excess = fmax(0.0, dmax - bound);
  if (isnan(m->hold_excess) || excess > m->hold_excess) {
    m->hold_excess = excess;
    m->hold_bound = bound;
  }
  if (b - a >= 2.0 * P) {
    size_t k1 = ka;
    while (k1 < kb && tr->t[k1] < a + P)
      k1++;
    const double cycles = (b - tr->t[k1]) / P;
    if (cycles > 0) {
      const double acc = fmax(0.0, fabs(s[kb - ka] - s[k1 - ka]) - bound) / cycles;
      m->hold_accum = isnan(m->hold_accum) ? acc : fmax(m->hold_accum, acc);
    }
  }
  /* slipping time and creep only on holds long enough to tell (the creep rule's
   * intervals): on a short stick between slips, a stop a few samples late is the stick
   * verdict's onset error, not a lost hold */
  const int long_hold = ns >= 10 && (b - a >= 5.0 * P || b - a >= 0.5);
  if (long_hold)
    m->hold_slip_frac = isnan(m->hold_slip_frac) ? slip / (b - a)
                                                 : fmax(m->hold_slip_frac, slip / (b - a));
  if (long_hold) {
    size_t kmid = ka;
    while (kmid < kb && tr->t[kmid] < 0.5 * (a + b))
      kmid++;
    if (kb - kmid + 1 >= 2) {
      /* the creep of the element's anchor, not its deflection: a compliant element that
       * holds follows the stick force with s = p - F/K_t (F on the body), so s + (F_ref -
       * F_a)/K_t stays put; a rigid one has no such term */
      for (size_t k = kmid; k <= kb && !isinf(Kt); k++)
        if (k < rt->filled)
          s[k - ka] += (rt->F[k * nc + i] - F_a) / Kt;
      const double vc = ls_slope(tr->t + kmid, s + (kmid - ka), kb - kmid + 1);
      if (isnan(m->hold_creep_v) || fabs(vc) > fabs(m->hold_creep_v))
        m->hold_creep_v = vc;
    }
  }
}

/* The hold metrics over every reference stick interval of every contact. */
static int hold_metrics(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                        fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  m->hold_creep_v = m->hold_excess = m->hold_bound = m->hold_slip_frac = m->hold_accum = NAN;
  m->L_scale = pl->L;
  m->v_scale = pl->v_scale;
  double *s = malloc((tr->filled ? tr->filled : 1) * sizeof *s);
  if (s == NULL)
    return FB_ENOMEM;
  for (size_t i = 0; i < pl->nc; i++) {
    const fb_spans *rs = &ref->stick[i];
    for (size_t a = 0; a < rs->n; a++) {
      size_t ka, kb;
      sample_range(tr, rs->s[a].t0, rs->s[a].t1, &ka, &kb);
      if (kb > ka && kb < tr->filled)
        hold_interval(pb, tr, &ref->tr, i, ka, kb, s, m);
    }
  }
  free(s);
  return FB_OK;
}

/* docs/design.md §10.2: a run is unstable when its discretization error exceeds the size
 * of the model's own converged solution (floored by the length scale over the span, for a
 * solution at rest), or its energy grows beyond 10x the reference's largest (floored by
 * the kinetic energy at the velocity scale, for a reference at rest).  A large modelling
 * error (E_mod) is a finding, not an instability: it does not enter. */
void fb_metrics_stability(const fb_plant *pl, fb_metrics *m)
{
  const double span = pl->T - pl->t0;
  double mass = 0.0;
  for (size_t j = 0; j < pl->n; j++)
    mass += pl->banded ? pl->Mb[j * (pl->bw + 1)] : pl->M[j * pl->n + j];
  const double norm = fmax(isnan(m->own_x_l2) ? 0.0 : m->own_x_l2, pl->L * sqrt(span));
  const double r_disc = norm > 0 ? m->disc_x_l2 / norm : (double)NAN;
  const double e_ref = m->energy_ref_max > 0 ? m->energy_ref_max
                                             : 0.5 * mass * pl->v_scale * pl->v_scale;
  const double r_energy = e_ref > 0 ? m->energy_max / (10.0 * e_ref) : (double)NAN;
  m->instability = isnan(r_disc) ? r_energy : isnan(r_energy) ? r_disc : fmax(r_disc, r_energy);
}

#define FB_OWN_AGREES 1e-2
int fb_run_unstable(int status, const fb_metrics *m, char *why, size_t len)
{
  if (status == FB_ENONFINITE || status == FB_EDIVERGE) {
    snprintf(why, len, "unstable: the state went non-finite or diverged");
    return 1;
  }
  /* energy the model's own converged solution has too (the run within FB_OWN_AGREES of its
   * L2 norm from it: the index can only be the energy's) is the model's physics - a
   * regularized law's oscillation where the Coulomb reference sticks (coupled-sledges A = 2,
   * mu = 0.2: E_disc 1e-8 m, energy 40x the reference's at every tolerance) - not an
   * instability (docs/failures.md) */
  const int agrees = m->own_x_l2 > 0 && m->disc_x_l2 < FB_OWN_AGREES * m->own_x_l2;
  if (status == FB_OK && m->instability > 1.0 && !agrees) {
    snprintf(why, len, "unstable: discretization error or energy %.3g x its bound "
             "(docs/design.md §10.2): E_disc(x) %.3g m against the model's own converged "
             "solution's size %.3g m, largest energy %.3g J against the reference's %.3g J",
             m->instability, m->disc_x_l2, m->own_x_l2, m->energy_max, m->energy_ref_max);
    return 1;
  }
  return 0;
}

double fb_trace_x_l2(const fb_trace *tr, size_t n)
{
  double e2 = 0.0, prev = 0.0;
  for (size_t k = 0; k < tr->filled; k++) {
    double sx = 0.0;
    for (size_t j = 0; j < n; j++)
      sx += tr->y[k * tr->dim + j] * tr->y[k * tr->dim + j];
    if (k > 0)
      e2 += 0.5 * (tr->t[k] - tr->t[k - 1]) * (sx + prev);
    prev = sx;
  }
  return tr->filled ? sqrt(e2) : (double)NAN;
}

void fb_trace_errors(const fb_trace *a, const fb_trace *b, size_t n, double *x_l2,
                     double *v_l2, double *x_max)
{
  const size_t ns = a->filled < b->filled ? a->filled : b->filled;
  double ex2 = 0, ev2 = 0, px = 0, pv = 0, xm = 0;
  for (size_t k = 0; k < ns; k++) {
    double sx = 0, sv = 0;
    for (size_t j = 0; j < n; j++) {
      const double dx = a->y[k * a->dim + j] - b->y[k * b->dim + j];
      const double dv = a->y[k * a->dim + n + j] - b->y[k * b->dim + n + j];
      sx += dx * dx;
      sv += dv * dv;
    }
    if (k > 0) {
      const double dt = a->t[k] - a->t[k - 1];
      ex2 += 0.5 * dt * (sx + px);
      ev2 += 0.5 * dt * (sv + pv);
    }
    px = sx, pv = sv;
    xm = fmax(xm, sqrt(sx));
  }
  if (x_l2 != NULL)
    *x_l2 = ns ? sqrt(ex2) : (double)NAN;
  if (v_l2 != NULL)
    *v_l2 = ns ? sqrt(ev2) : (double)NAN;
  if (x_max != NULL)
    *x_max = ns ? xm : (double)NAN;
}

/* When a slip that ends in the stick span starting at t0 of trace tr stopped: a span that
 * opens on a grid sample (the grid, not the motion, decided it) is moved back to where |u|
 * extrapolated linearly from the two slipping samples before reaches 0 (exact for a
 * constant deceleration, Coulomb's); a span opening between samples (an event) is kept. */
static double stop_instant(const fb_problem *pb, const fb_trace *tr, size_t i, double t0)
{
  size_t k = 0;
  while (k < tr->filled && tr->t[k] < t0)
    k++;
  if (k < 2 || k >= tr->filled || tr->t[k] != t0)
    return t0;
  const double w1 = vrel(pb, tr, k - 1, i), w2 = vrel(pb, tr, k - 2, i);
  if (!(w2 > w1 && w1 > 0.0))
    return t0;
  const double tx = tr->t[k - 1] + w1 * (tr->t[k - 1] - tr->t[k - 2]) / (w2 - w1);
  return tx >= tr->t[k - 1] && tx <= t0 ? tx : t0;
}

/* The spatial metrics of fb_metrics (docs/design.md §13) on the common grid. */
static int spatial_metrics(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                           fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  const fb_trace *rt = &ref->tr;
  const size_t nc = pl->nc, ns = tr->filled < rt->filled ? tr->filled : rt->filled;
  m->path_err_max = m->dir_err_max = m->dir_err_rms = m->stop_time_err = NAN;
  if (pl->npairs == 0)
    return FB_OK;
  if (pl->path_dof[0] >= 0 && pl->path_dof[1] >= 0) {
    double worst = 0.0;
    for (size_t k = 0; k < ns; k++) {
      const double *a = tr->y + k * tr->dim, *b = rt->y + k * rt->dim;
      const size_t jx = (size_t)pl->path_dof[0], jy = (size_t)pl->path_dof[1];
      worst = fmax(worst, hypot(a[jx] - b[jx], a[jy] - b[jy]));
    }
    m->path_err_max = worst;
  }
  double amax = 0.0, a2 = 0.0, na = 0.0, tworst = NAN;
  for (size_t i = 0; i + 1 < nc; i++) {
    if (pl->contact[i].pair != FB_PAIR_X)
      continue;
    for (size_t k = 0; k < tr->filled; k++) {
      const double ux = vcomp(pb, tr, k, i), uy = vcomp(pb, tr, k, i + 1);
      const double Fx = tr->F[k * nc + i], Fy = tr->F[k * nc + i + 1];
      if (!(hypot(ux, uy) > 10.0 * pl->v_stick) || !(hypot(Fx, Fy) > 0.0) || k >= ns ||
          !(vrel(pb, rt, k, i) > 10.0 * pl->v_stick))
        continue;
      /* angle between F and -u: atan2(|F x -u|, F . -u) */
      const double ang = atan2(fabs(Fx * uy - Fy * ux), -(Fx * ux + Fy * uy)) * 180.0 / M_PI;
      amax = fmax(amax, ang);
      a2 += ang * ang;
      na += 1;
    }
    fb_spans run = {0};
    if (fb_spans_from_trace(&run, pb, tr, i, pl->v_stick) != FB_OK)
      return FB_ENOMEM;
    const fb_spans *rs = &ref->stick[i];
    if (run.n > 0 && rs->n > 0) {
      const double t_run = stop_instant(pb, tr, i, run.s[0].t0);
      const double d = t_run - stop_instant(pb, rt, i, rs->s[0].t0);
      if (isnan(tworst) || fabs(d) > fabs(tworst))
        tworst = d;
    }
    fb_spans_free(&run);
  }
  if (na > 0) {
    m->dir_err_max = amax;
    m->dir_err_rms = sqrt(a2 / na);
  }
  m->stop_time_err = tworst;
  return FB_OK;
}

/* accuracy: L2 (trapezoidal in t), largest and final errors of x, v and F against the
 * reference, over the ns samples both have. */
static void metrics_accuracy(const fb_plant *pl, const fb_trace *tr, const fb_trace *rt,
                             size_t ns, fb_metrics *m)
{
  const size_t n = pl->n, nc = pl->nc, dim = tr->dim, rdim = rt->dim;
  double ex2 = 0, ev2 = 0, eF2 = 0, px = 0, pv = 0, pF = 0, rx2 = 0, prx = 0;
  for (size_t k = 0; k < ns; k++) {
    double sx = 0, sv = 0, sF = 0, srx = 0;
    for (size_t j = 0; j < n; j++) {
      srx += rt->y[k * rdim + j] * rt->y[k * rdim + j];
      const double dx = tr->y[k * dim + j] - rt->y[k * rdim + j];
      const double dv = tr->y[k * dim + n + j] - rt->y[k * rdim + n + j];
      sx += dx * dx;
      sv += dv * dv;
    }
    for (size_t i = 0; i < nc; i++) {
      const double dF = tr->F[k * nc + i] - rt->F[k * nc + i];
      sF += dF * dF;
    }
    if (k > 0) {
      const double dt = tr->t[k] - tr->t[k - 1];
      ex2 += 0.5 * dt * (sx + px);
      ev2 += 0.5 * dt * (sv + pv);
      eF2 += 0.5 * dt * (sF + pF);
      rx2 += 0.5 * dt * (srx + prx);
    }
    px = sx, pv = sv, pF = sF, prx = srx;
    m->err_x_max = fmax(m->err_x_max, sqrt(sx));
    m->err_v_max = fmax(m->err_v_max, sqrt(sv));
    if (k + 1 == ns) {
      m->err_x_T = sqrt(sx);
      m->err_v_T = sqrt(sv);
    }
  }
  m->err_x_l2 = sqrt(ex2);
  m->ref_x_l2 = sqrt(rx2);
  m->err_v_l2 = sqrt(ev2);
  m->err_F_l2 = sqrt(eF2);
}

/* What the stick metrics add up over the reference's stick spans. */
typedef struct span_acc {
  double onset_sum, offset_sum, n_on, n_off; /* onset and release time errors */
  double v2, nv;                             /* squared slip velocities in the spans */
  int have_flag;                             /* the model flags stick itself */
} span_acc;

/* One reference stick span r of contact i against the run's spans: missed or its onset
 * and release errors, the drift over it, the time held (by the velocity test and by the
 * model's flag) and the slip velocity inside it. */
static void metrics_span(const fb_problem *pb, const fb_trace *tr, size_t i, const fb_span *r,
                         const fb_spans *run, span_acc *acc, fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  const size_t nc = pl->nc, dim = tr->dim;
  size_t first = SIZE_MAX, last = 0;
  for (size_t b = 0; b < run->n; b++)
    if (overlaps(r, &run->s[b])) {
      if (first == SIZE_MAX)
        first = b;
      last = b;
    }
  if (first == SIZE_MAX) {
    m->missed += 1;
  } else {
    if (r->t0 > pl->t0) {
      acc->onset_sum += fabs(run->s[first].t0 - r->t0);
      acc->n_on += 1;
    }
    if (r->t1 < pl->T) {
      acc->offset_sum += fabs(run->s[last].t1 - r->t1);
      acc->n_off += 1;
    }
  }
  /* drift of the relative displacement s = x_j - int u dt over the span */
  size_t ka, kb;
  sample_range(tr, r->t0, r->t1, &ka, &kb);
  if (kb > ka && kb < tr->filled) {
    double belt = 0;
    for (size_t k = ka; k < kb; k++) {
      fb_contact_state c0, c1;
      fb_plant_contact_at(pl, i, tr->t[k], &c0);
      fb_plant_contact_at(pl, i, tr->t[k + 1], &c1);
      belt += 0.5 * (c0.u + c1.u) * (tr->t[k + 1] - tr->t[k]);
    }
    m->drift += fabs(fb_contact_vel(pl, i, tr->y + kb * dim) -
                     fb_contact_vel(pl, i, tr->y + ka * dim) - belt);
    /* held: sample intervals of the span whose both ends pass the test */
    for (size_t k = ka; k < kb; k++) {
      const double dt = tr->t[k + 1] - tr->t[k];
      if (fabs(vrel(pb, tr, k, i)) < pl->v_stick && fabs(vrel(pb, tr, k + 1, i)) < pl->v_stick)
        m->stick_held += dt;
      const int f0 = tr->stick[k * nc + i], f1 = tr->stick[(k + 1) * nc + i];
      acc->have_flag |= f0 >= 0;
      if (f0 == 1 && f1 == 1)
        m->stick_flag_time += dt;
    }
    for (size_t k = ka; k <= kb; k++) {
      const double vr = vrel(pb, tr, k, i);
      acc->v2 += vr * vr;
      acc->nv += 1;
    }
  }
}

/* energy: the stream's largest rise of W against the dissipation bound, the largest power
 * excess, the largest stored energy and the reference's. */
static void metrics_energy(const fb_plant *pl, const fb_trace *rt, const fb_stream *st,
                           fb_metrics *m)
{
  const size_t nc = pl->nc, rdim = rt->dim;
  m->energy_excess = m->energy_excess_rel = m->power_excess_rel = NAN;
  if (st != NULL && st->have_prev) {
    double scale = 0.0;
    for (size_t i = 0; i < nc; i++)
      scale += fb_plant_contact_Fs(pl, i) * pl->v_scale * (pl->T - pl->t0);
    m->energy_excess = st->W_rise;
    m->energy_excess_rel = scale > 0.0 ? st->W_rise / scale : (double)NAN;
  }
  m->power_excess_rel = st != NULL && st->P_excess > -(double)INFINITY ? st->P_excess : (double)NAN;
  m->energy_max = st != NULL && st->E_max > -(double)INFINITY ? st->E_max : (double)NAN;
  m->energy_ref_max = 0.0;
  for (size_t k = 0; k < rt->filled; k++)
    m->energy_ref_max = fmax(m->energy_ref_max, mech_energy(pl, rt->y + k * rdim));
}

int fb_metrics_compute(const fb_problem *pb, const fb_trace *tr, const fb_reference *ref,
                       const fb_stream *st, fb_metrics *m)
{
  const fb_plant *pl = pb->plant;
  const size_t nc = pl->nc;
  const fb_trace *rt = &ref->tr;
  const size_t ns = tr->filled < rt->filled ? tr->filled : rt->filled;
  memset(m, 0, sizeof *m);
  m->disc_x_l2 = m->disc_v_l2 = m->disc_x_max = m->mod_x_l2 = m->mod_v_l2 = NAN;
  m->own_ref_err = NAN;
  m->drift_rate = m->drift_growth = NAN;
  fb_contact_metrics_nan(m);
  metrics_accuracy(pl, tr, rt, ns, m);
  /* stick fidelity, drift, chatter (grid part) and energy, contact by contact */
  double ref_len_Fs = 0, ref_len = 0;
  span_acc sa = {0};
  const double tol_P = 1e-9 * fmax(fb_plant_contact_Fs(pl, 0), 1e-300) * pl->v_scale;
  for (size_t i = 0; i < nc; i++) {
    const fb_spans *rs = &ref->stick[i];
    fb_spans run = {0};
    if (fb_spans_from_trace(&run, pb, tr, i, pl->v_stick) != FB_OK)
      return FB_ENOMEM;
    m->stick_time += fb_spans_length(&run);
    m->stick_time_ref += fb_spans_length(rs);
    ref_len += fb_spans_length(rs);
    ref_len_Fs += fb_spans_length(rs) * fb_plant_contact_Fs(pl, i);
    for (size_t a = 0; a < rs->n; a++)
      metrics_span(pb, tr, i, &rs->s[a], &run, &sa, m);
    for (size_t b = 0; b < run.n; b++) {
      int hit = 0;
      for (size_t a = 0; a < rs->n && !hit; a++)
        hit = overlaps(&rs->s[a], &run.s[b]);
      m->spurious += !hit;
    }
    fb_spans_free(&run);
    for (size_t k = 0; k < tr->filled; k++) {
      const double P = tr->F[k * nc + i] * vcomp(pb, tr, k, i);
      if (P > tol_P) {
        m->power_pos_count += 1;
        m->power_pos_max = fmax(m->power_pos_max, P);
      }
    }
  }
  if (!sa.have_flag)
    m->stick_flag_time = NAN;
  m->drift_rate = drift_accumulation(pb, tr, ref, &m->drift_growth);
  m->onset_err = sa.n_on > 0 ? sa.onset_sum / sa.n_on : (double)NAN;
  m->offset_err = sa.n_off > 0 ? sa.offset_sum / sa.n_off : (double)NAN;
  m->drift_per_cycle = ref_len > 0 ? m->drift / (ref_len * pl->f_c) : (double)NAN;
  if (ref_len <= 0)
    m->drift = NAN;
  m->chatter_v_rms = sa.nv > 0 ? sqrt(sa.v2 / sa.nv) : (double)NAN;
  m->chatter_rate = (st != NULL && ref_len > 0) ? st->sign_changes / ref_len : (double)NAN;
  m->chatter_F_tv = (st != NULL && ref_len_Fs > 0) ? st->F_tv / ref_len_Fs : (double)NAN;
  metrics_energy(pl, rt, st, m);
  m->own_x_l2 = m->instability = NAN;
  if (hold_metrics(pb, tr, ref, m) != FB_OK)
    return FB_ENOMEM;
  fb_pract_metrics(pb, tr, ref, m);
  return spatial_metrics(pb, tr, ref, m);
}
