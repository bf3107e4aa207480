/* report_awrejcewicz.c — [Xiong2013] fig. 11 (§5.3, docs/scenarios/awrejcewicz.md):
 * phase curves (x, xdot) of the DAI->ODE (eq. 49, kikuuwe) and of Awrejcewicz's linear
 * smoothing (eq. 50, smooth-sign phi = linear-frozen) at each eps of group `awrejcewicz`,
 * over their last two cycles, against the limit cycle the scenario solves on its own
 * (fb_awr_cycle_solve: one slip arc from (x_b, vb) and the stick segment), with zooms on
 * the corners where stick begins and ends.  The reading:
 * the cycle's period, stick time and fraction, x_a and x_b; per run its period, x_a, time
 * at the belt's speed, orbit distance to the cycle and E_mod; the distance between the
 * eq. 49 orbit and each eq. 50 orbit. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_awrejcewicz.h"
#include "fb_scenario.h"

#define AWR_ARC_POINTS 1500 /* the exact slip arc, drawn and measured against */
#define AWR_MAX_RUNS 8
#define AWR_STUCK 0.01 /* |xdot - vb| below 1% of vb: carried by the belt (stuck or creeping) */

/* One run's orbit: its samples (t, x, v) and what is read off its last cycle. */
typedef struct awr_orbit {
  double *t, *x, *v;
  size_t n;
  size_t c0, c1;   /* the last full cycle: samples c0 .. c1 */
  double period;   /* between the last two upward crossings of x_m (s) */
  double x_a;      /* x where xdot reaches 0.99 vb after the arc (m) */
  double at_belt;  /* fraction of the last cycle with |xdot - vb| < AWR_STUCK vb */
  double dist;     /* Hausdorff distance to the exact cycle in the (x, xdot) plane */
} awr_orbit;

static void orbit_free(awr_orbit *o)
{
  free(o->t);
  free(o->x);
  free(o->v);
  memset(o, 0, sizeof *o);
}

/* The columns t, x, xdot (the first three of a one-DOF trajectory file). */
static int orbit_read(const char *path, awr_orbit *o)
{
  char *text;
  size_t nb, cap = 0;
  memset(o, 0, sizeof *o);
  if (fb_gz_read_all(path, &text, &nb) != 0)
    return -1;
  const char *p = memchr(text, '\n', nb), *end = text + nb;
  p = p != NULL ? p + 1 : end;
  int st = 0;
  while (p < end && st == 0) {
    const char *e = memchr(p, '\n', (size_t)(end - p)), *eol = e != NULL ? e : end;
    double f[3];
    char *r;
    const char *q = p;
    int nf = 0;
    for (; nf < 3 && q < eol; nf++) {
      f[nf] = strtod(q, &r);
      if (r == q)
        break;
      q = r < eol && *r == ',' ? r + 1 : eol;
    }
    p = eol + 1;
    if (nf < 3)
      continue;
    if (o->n == cap) {
      cap = cap ? 2 * cap : 4096;
      double *t = realloc(o->t, cap * sizeof *t), *x = realloc(o->x, cap * sizeof *x),
             *v = realloc(o->v, cap * sizeof *v);
      o->t = t != NULL ? t : o->t;
      o->x = x != NULL ? x : o->x;
      o->v = v != NULL ? v : o->v;
      if (t == NULL || x == NULL || v == NULL) {
        st = -1;
        break;
      }
    }
    o->t[o->n] = f[0], o->x[o->n] = f[1], o->v[o->n] = f[2];
    o->n++;
  }
  free(text);
  if (st != 0)
    orbit_free(o);
  return st;
}

/* Distance from point (px, pv) to the segment (ax, av)-(bx, bv). */
static double seg_dist(double px, double pv, double ax, double av, double bx, double bv)
{
  const double dx = bx - ax, dv = bv - av, l2 = dx * dx + dv * dv;
  double s = l2 > 0 ? ((px - ax) * dx + (pv - av) * dv) / l2 : 0.0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  return hypot(px - ax - s * dx, pv - av - s * dv);
}

/* Largest distance from the points a[i0..i1] to the polyline b[j0..j1]. */
static double one_sided(const double *ax, const double *av, size_t i0, size_t i1,
                        const double *bx, const double *bv, size_t j0, size_t j1)
{
  double worst = 0.0;
  for (size_t i = i0; i <= i1; i++) {
    double best = INFINITY;
    for (size_t j = j0; j < j1; j++)
      best = fmin(best, seg_dist(ax[i], av[i], bx[j], bv[j], bx[j + 1], bv[j + 1]));
    worst = fmax(worst, best);
  }
  return worst;
}

/* The Hausdorff distance between two closed curves given as polylines. */
static double hausdorff(const double *ax, const double *av, size_t i0, size_t i1,
                        const double *bx, const double *bv, size_t j0, size_t j1)
{
  return fmax(one_sided(ax, av, i0, i1, bx, bv, j0, j1),
              one_sided(bx, bv, j0, j1, ax, av, i0, i1));
}

/* Period, last cycle, x_a and the time at the belt's speed of orbit o. */
static void orbit_read_cycle(awr_orbit *o, const fb_awr_cycle *c, double vb)
{
  const double x_m = 0.5 * (c->x_a + c->x_b);
  double tc[2] = {NAN, NAN};
  size_t kc[2] = {0, 0};
  o->period = o->x_a = o->at_belt = o->dist = NAN;
  for (size_t k = 1; k < o->n; k++)
    if (o->x[k - 1] < x_m && o->x[k] >= x_m) {
      tc[0] = tc[1], kc[0] = kc[1];
      tc[1] = o->t[k - 1] + (o->t[k] - o->t[k - 1]) * (x_m - o->x[k - 1]) / (o->x[k] - o->x[k - 1]);
      kc[1] = k;
    }
  if (isnan(tc[0]))
    return;
  o->period = tc[1] - tc[0];
  o->c0 = kc[0];
  o->c1 = kc[1];
  size_t stuck = 0, kmin = o->c0;
  for (size_t k = o->c0; k <= o->c1; k++) {
    stuck += fabs(o->v[k] - vb) < AWR_STUCK * vb;
    if (o->v[k] < o->v[kmin])
      kmin = k;
  }
  o->at_belt = (double)stuck / (double)(o->c1 - o->c0 + 1);
  const double vt = (1.0 - AWR_STUCK) * vb;
  for (size_t k = kmin + 1; k <= o->c1 && isnan(o->x_a); k++)
    if (o->v[k - 1] < vt && o->v[k] >= vt)
      o->x_a = o->x[k - 1] + (o->x[k] - o->x[k - 1]) * (vt - o->v[k - 1]) / (o->v[k] - o->v[k - 1]);
}

/* The scenario's parameters of run r (its defaults where runs.csv does not say). */
static int awr_params(const run *r, fb_awr_params *p)
{
  const fb_scenario_type *st = fb_scenario_find("awrejcewicz");
  if (st == NULL || st->params->size != sizeof *p)
    return -1;
  fb_params_default(st->params, p);
  double *f[] = {&p->m, &p->k1, &p->k3, &p->T0, &p->delta, &p->vb, &p->x0, &p->v0, &p->T};
  const char *pnames[] = {"m", "k1", "k3", "T0", "delta", "vb", "x0", "v0", "T"};
  for (size_t k = 0; k < 9; k++) {
    const double v = param_get(r->sparams, pnames[k]);
    if (!isnan(v))
      *f[k] = v;
  }
  return 0;
}

/* Colours and dash types: eq. 49 in kikuuwe's colour (RK4 dashed), eq. 50 in oranges,
 * darker as eps shrinks. */
static void awr_looks(const run *r, sbuf *colors, sbuf *dts)
{
  const char *c = model_color(r->model);
  int dt = 1;
  if (strstr(r->tag, "eps1e-1") != NULL)
    c = "#fdae6b";
  else if (strstr(r->tag, "eps1e-2") != NULL)
    c = "#f16913";
  else if (strstr(r->tag, "eps1e-3") != NULL)
    c = "#8c2d04";
  if (streq(r->integrator, "rk4"))
    dt = 2;
  sb_gword(colors, c);
  sb_printf(dts, "%d ", dt);
}

/* The reading's per-run part and the eq. 49 / eq. 50 distances. */
static void awr_reading(sbuf *rd, const fb_awr_cycle *c, const run *const *rr,
                        const awr_orbit *o, size_t n)
{
  sb_printf(rd, "Limit cycle (one slip arc from x_b, solved on its own): period %.6f s, stuck "
                "%.6f s (fraction %.4f), x_a = %.6f m, x_b = %.6f m.", c->period, c->t_stick,
             c->t_stick / c->period, c->x_a, c->x_b);
  long k49 = -1;
  for (size_t k = 0; k < n; k++) {
    if (streq(rr[k]->tag, "eq49"))
      k49 = (long)k;
    char xa[48];
    snprintf(xa, sizeof xa, isnan(o[k].x_a) ? "none (never within 1%% of vb)" : "%.4f m", o[k].x_a);
    sb_printf(rd, " %s (%s/%s): period %.5f s (error %+.2e), x_a %s, at belt speed %.3f of the "
                  "cycle, orbit distance ", rr[k]->tag, rr[k]->model, rr[k]->integrator,
               o[k].period, o[k].period - c->period, xa, o[k].at_belt);
    sb_num(rd, o[k].dist);
    sb_puts(rd, ", E_mod ");
    sb_num(rd, rr[k]->mod_x_l2);
    sb_puts(rd, ";");
  }
  if (k49 < 0 || isnan(o[k49].period))
    return;
  sb_puts(rd, " eq. 49 against eq. 50 (orbit distance):");
  for (size_t k = 0; k < n; k++) {
    if (strncmp(rr[k]->tag, "eq50", 4) != 0 || isnan(o[k].period))
      continue;
    const double d = hausdorff(o[k49].x, o[k49].v, o[k49].c0, o[k49].c1, o[k].x, o[k].v,
                               o[k].c0, o[k].c1);
    sb_printf(rd, " %s ", rr[k]->tag + 5);
    sb_num(rd, d);
  }
  sb_puts(rd, ".");
}

/* The data: the exact cycle, then each run's last two cycles. */
static void awr_data(plot_build *b, const fb_awr_cycle *c, const double *ax, const double *av,
                     const run *const *rr, const awr_orbit *o, size_t n)
{
  (void)c;
  pb_block(b, "limit cycle (exact)");
  for (size_t k = 0; k <= AWR_ARC_POINTS; k++) { /* the arc, closed by the stick segment */
    sb_dat(&b->data, ax[k]);
    sb_dat(&b->data, av[k]);
    sb_puts(&b->data, "\n");
  }
  b->nb++;
  sb_gword(pb_var(b, "colors"), "#000000");
  sb_puts(pb_var(b, "dts"), "1 ");
  for (size_t k = 0; k < n; k++) {
    char title[200];
    snprintf(title, sizeof title, "%s: %s/%s", rr[k]->tag, rr[k]->model, rr[k]->integrator);
    pb_block(b, title);
    const double t0 = isnan(o[k].period) ? 0.0 : o[k].t[o[k].c1] - 2.0 * o[k].period;
    for (size_t j = 0; j < o[k].n; j++)
      if (o[k].t[j] >= t0) {
        sb_dat(&b->data, o[k].x[j]);
        sb_dat(&b->data, o[k].v[j]);
        sb_puts(&b->data, "\n");
      }
    b->nb++;
    awr_looks(rr[k], pb_var(b, "colors"), pb_var(b, "dts"));
  }
}

int plot_awrejcewicz(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  const run *rr[AWR_MAX_RUNS];
  awr_orbit o[AWR_MAX_RUNS];
  size_t n = 0;
  char path[PATH_LEN];
  for (size_t k = 0; k < R->n && n < AWR_MAX_RUNS; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "awrejcewicz") || !r->ok || traj_path(rp->dir, r, path, sizeof path) != 0 ||
        orbit_read(path, &o[n]) != 0)
      continue;
    rr[n++] = r;
  }
  int any = 0;
  for (size_t k = 0; k < R->n && !any; k++)
    any = streq(R->r[k].group, "awrejcewicz");
  if (!any)
    return FB_OK;
  plot_entry *p = plot_new(rp, "awrejcewicz ([Xiong2013] fig. 11): phase curves of the DAI->ODE "
                               "(eq. 49) and the linear smoothing (eq. 50) against the limit cycle",
                           "awrejcewicz_phase");
  fb_awr_params prm;
  fb_awr_cycle c;
  /* the arc's samples and, last, its start again: the closed cycle */
  double *ax = malloc((AWR_ARC_POINTS + 1) * sizeof *ax);
  double *av = malloc((AWR_ARC_POINTS + 1) * sizeof *av);
  fb_err cerr;
  int st = FB_OK;
  if (p == NULL || ax == NULL || av == NULL) {
    st = p == NULL ? FB_OK : fb_err_set(err, FB_ENOMEM, "out of memory");
  } else if (n == 0) {
    plot_skip(rp, p, "no readable trajectory of an awrejcewicz run");
  } else if (awr_params(rr[0], &prm) != 0 ||
             fb_awr_cycle_solve(&prm, ax, av, AWR_ARC_POINTS, &c, &cerr) != FB_OK) {
    plot_skip(rp, p, "these parameters have no one-arc stick-slip cycle to draw against");
  } else {
    ax[AWR_ARC_POINTS] = ax[0];
    av[AWR_ARC_POINTS] = av[0];
    for (size_t k = 0; k < n; k++) {
      orbit_read_cycle(&o[k], &c, prm.vb);
      if (!isnan(o[k].period))
        o[k].dist = hausdorff(o[k].x, o[k].v, o[k].c0, o[k].c1, ax, av, 0, AWR_ARC_POINTS);
    }
    plot_build b = {0};
    awr_data(&b, &c, ax, av, rr, o, n);
    sb_puts(pb_var(&b, "scen"), "awrejcewicz: (x, xdot) over the last two cycles, eq. 49 "
                                "(kikuuwe) and eq. 50 (linear smoothing, eps ladder)");
    awr_reading(&p->reading, &c, rr, o, n);
    st = plot_draw(rp, p, "awrejcewicz.gp", &b, err,
                   "W=%d; H=%d; xa=%.10g; xb=%.10g; xmax=%.10g; vb=%.10g", 1800, 780, c.x_a,
                   c.x_b, c.x_max, prm.vb);
    pb_free(&b);
  }
  for (size_t k = 0; k < n; k++)
    orbit_free(&o[k]);
  free(ax);
  free(av);
  return st;
}
