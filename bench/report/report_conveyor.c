/* report_conveyor.c — conveyor-wall's plots ([Xiong2013] §5.2 fig. 9;
 * docs/scenarios/conveyor-wall.md): the four coordinates of every treatment of the group
 * `conveyor` against the reference with the A-B contact intervals shaded, the normal forces
 * lambda_n of the three contacts, and the energy balance with the belt's work.
 *
 * The normal forces are not in the trajectory files (their F columns are the friction
 * model's law at the prescribed load), so the reference is run here, through the library,
 * with the contact statistics' step hook: moreau-jean, theta = 1/2, h = CW_REF_H, its
 * lambda_n averaged over CW_BIN (an impact's impulse spread over the bin it falls in). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_normal_int.h"
#include "fb_run.h"

#define CW_REF_H 3e-5
#define CW_BIN 1e-3

/* The reference's bins as they are filled by the step hook. */
typedef struct cw_ref {
  const fb_plant *pl;
  sbuf *data;
  double vc, E0, W_belt, t_prev, F3_prev, t_bin, lam_int[3];
  int have;
  double ab_first, wall_first, lam_end[3], y_end[4], dE;
} cw_ref;

/* Kinetic, spring and gravity energy: v^T M v / 2 + x^T K x / 2 - f^T x (f constant). */
static double cw_energy(const fb_plant *pl, const double *y)
{
  const size_t n = pl->n;
  double f[4] = {0, 0, 0, 0}, E = 0;
  pl->force(pl->sp, 0, y, y + n, f);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      E += 0.5 * (y[n + i] * pl->M[i * n + j] * y[n + j] + y[i] * pl->K[i * n + j] * y[j]);
  for (size_t i = 0; i < n; i++)
    E -= f[i] * y[i];
  return E;
}

static void cw_step(void *ctx, double t, const double *y, const double *lam, const double *F)
{
  cw_ref *r = ctx;
  if (!r->have) {
    r->E0 = cw_energy(r->pl, y);
    r->have = 1;
    r->t_prev = r->t_bin = t;
    r->F3_prev = F[2];
    return;
  }
  const double dt = t - r->t_prev;
  /* the belt's work W = int F3 vc dt ([Xiong2013] §5.2; F3 the belt's force on B) */
  r->W_belt += 0.5 * (r->F3_prev + F[2]) * r->vc * dt;
  for (size_t k = 0; k < 3; k++)
    r->lam_int[k] += lam[k] * dt;
  if (isnan(r->ab_first) && lam[1] > 0)
    r->ab_first = r->t_prev;
  if (isnan(r->wall_first) && lam[0] > 0)
    r->wall_first = r->t_prev;
  r->t_prev = t;
  r->F3_prev = F[2];
  if (dt > 1e-7) {
    memcpy(r->lam_end, lam, sizeof r->lam_end);
    memcpy(r->y_end, y, sizeof r->y_end);
  }
  if (t - r->t_bin < CW_BIN * (1 - 1e-9))
    return;
  const double span = t - r->t_bin, dE = cw_energy(r->pl, y) - r->E0;
  r->dE = dE;
  /* comma-separated, as the trajectory files the same plot reads */
  sb_printf(r->data, "%.10g,%.10g,%.10g,%.10g,%.10g,", t, y[0], y[1], y[2], y[3]);
  for (size_t k = 0; k < 3; k++)
    sb_printf(r->data, "%.10g,", r->lam_int[k] / span);
  sb_printf(r->data, "%.10g,%.10g,%.10g,%d\n", dE, r->W_belt, r->W_belt - dE,
            r->lam_int[1] > 0);
  memset(r->lam_int, 0, sizeof r->lam_int);
  r->t_bin = t;
}

/* Run the reference of the default parameters (the group's first run's model) into data. */
static int cw_reference(const char *model, sbuf *data, cw_ref *r, fb_err *err)
{
  fb_case c;
  int st = fb_case_init(&c, FB_CONVEYOR_SCENARIO, model, NULL, err);
  if (st != FB_OK)
    return st;
  st = fb_case_set(&c, "scenario.normal=moreau-jean", err);
  c.opts.h = CW_REF_H;
  if (st == FB_OK)
    st = fb_case_prepare(&c, err);
  fb_impact_stats s;
  if (st == FB_OK) {
    memset(r, 0, sizeof *r);
    r->pl = &c.sc.plant;
    r->data = data;
    r->vc = c.sc.plant.contact[2].c0.u;
    r->ab_first = r->wall_first = NAN;
    sb_puts(data, "# t,xA,yA,xB,yB,lambda_n1,lambda_n2,lambda_n3,dE,W_belt,dissipated,AB\n");
    fb_impact_stats_init(&s, 0);
    s.on_step = cw_step;
    s.on_step_ctx = r;
    c.opts.stats = &s;
    fb_run_result res;
    fb_case_run(&c, NULL, NULL, &res);
    st = res.status;
    if (st != FB_OK)
      fb_err_set(err, st, "%s", res.message);
  }
  fb_case_free(&c);
  return st;
}

/* The reading of both plots: the reference's numbers and the treatments left out. */
static void cw_reading(sbuf *rd, const cw_ref *r, size_t nruns)
{
  sb_puts(rd, "Reference (moreau-jean, theta = 1/2, h = 3e-5 s): first A-B contact at ");
  sb_num(rd, r->ab_first);
  sb_puts(rd, " s, A first at the wall at ");
  sb_num(rd, r->wall_first);
  sb_puts(rd, " s; at T, yA = ");
  sb_num(rd, r->y_end[1]);
  sb_puts(rd, " m held by friction, lambda_n = ");
  sb_num(rd, r->lam_end[0]);
  sb_puts(rd, ", ");
  sb_num(rd, r->lam_end[1]);
  sb_puts(rd, ", ");
  sb_num(rd, r->lam_end[2]);
  sb_printf(rd, " N (wall-A, A-B, belt-B); %zu runs of the group overlaid. Not run on "
                "conveyor-wall: ", nruns);
  int any = 0;
  for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL; nv++)
    if (nv->coupled_why != NULL) {
      sb_printf(rd, "%s%s (%s)", any ? "; " : "", nv->label, nv->coupled_why);
      any = 1;
    }
  sb_puts(rd, any ? "." : "none.");
  sb_puts(rd, " The force laws run with the friction model kikuuwe: penalty's rate form stalls "
              "at t = 0.0044 s in its Filippov sliding mode (the bound mu lambda_n(t) varies "
              "while B slips; models/penalty.c), smooth-sign creeps (yA decays to 0).");
}

int plot_conveyor(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  const char *model = NULL;
  for (size_t k = 0; k < R->n && model == NULL; k++)
    if (streq(R->r[k].group, "conveyor"))
      model = R->r[k].model;
  if (model == NULL)
    return FB_OK; /* no conveyor group in this table */
  plot_entry *p = plot_new(rp, "conveyor-wall: the four coordinates of every treatment, A-B "
                               "contact shaded, and the reference's normal forces",
                           "conveyor_coords");
  plot_entry *q = plot_new(rp, "conveyor-wall: energy balance of the reference with the "
                               "belt's work", "conveyor_energy");
  if (p == NULL || q == NULL)
    return FB_OK;
  p->png_only = 1;
  plot_build b = {0};
  size_t nf = 0;
  char path[PATH_LEN], src[PATH_LEN + 32];
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    /* the default variant's runs (tags without a variant suffix) */
    if (!streq(r->group, "conveyor") || strchr(r->tag, '_') != NULL ||
        traj_path(rp->dir, r, path, sizeof path) != 0)
      continue;
    traj_source(p, path, src, sizeof src);
    sb_gword(pb_var(&b, "files"), src);
    sb_gword(pb_var(&b, "titles"), r->tag);
    sb_gword(pb_var(&b, "colors"), treatment_color(r->tag));
    nf++;
  }
  cw_ref ref;
  int st = cw_reference(model, &b.data, &ref, err);
  if (st != FB_OK) {
    char why[300];
    snprintf(why, sizeof why, "the reference run failed: %.200s", err->msg);
    plot_skip(rp, p, why);
    plot_skip(rp, q, why);
    pb_free(&b);
    return FB_OK;
  }
  cw_reading(&p->reading, &ref, nf);
  sb_puts(&q->reading, "dE: the change of kinetic, spring and gravity energy; W_belt: the "
                       "belt's work int F3 vc dt; their difference is what friction and the "
                       "impacts dissipated (never decreasing). ");
  sb_printf(&q->reading, "At T: dE = %.6g J, W_belt = %.6g J, dissipated %.6g J.", ref.dE,
            ref.W_belt, ref.W_belt - ref.dE);
  sb_puts(pb_var(&b, "what"), "coords");
  st = plot_draw(rp, p, "conveyor.gp", &b, err, "W=%d; H=%d", 1300, 1150);
  if (st == FB_OK) {
    sbuf *w = pb_var(&b, "what");
    sb_free(w);
    sb_puts(w, "energy");
    st = plot_draw(rp, q, "conveyor.gp", &b, err, "W=%d; H=%d", 1200, 700);
  }
  pb_free(&b);
  return st;
}
