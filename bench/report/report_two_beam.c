/* report_two_beam.c — the two-beam system's plots ([Engleder2002] §3;
 * docs/scenarios/two-beam-impact.md): the phase curves (q0, q0') and (q1, q1') of the
 * stationary state in one plot, the reference newton beside the paper's penalty-nm, for
 * both cases (the paper's figs. 6 and 7), with a reading of the amplitudes, the impact
 * episodes per period and the time in contact; and the isolated collision's effective
 * restitution over the h x c_N x d_N grid.  Read from runs.csv and traj/ (groups two-beam,
 * two-beam-grid; bench/suite/matrix.c). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

/* Gap at or below which a sample counts as in contact (newton's persistent contact sits
 * on g = 0 to the files' nine digits; a penalty's contact penetrates). */
#define TB_GAP_CONTACT 1e-10

/* What one trajectory file says about its stationary window (the file's span). */
typedef struct tb_stat {
  double amp[3];    /* half the peak-to-peak of q0, q1, q2 */
  double contact;   /* fraction of the samples with g <= TB_GAP_CONTACT */
  double episodes;  /* impact episodes per forcing period */
  double span;      /* time the file covers */
} tb_stat;

/* The statistics of a trajectory file (header t,x1,x2,x3,v1,v2,v3) at forcing frequency
 * Om.  An impact episode starts in a sample interval where the gap, open at its start,
 * closes (or would close by its linear prediction) before its end: an impact, a contact
 * onset or the first of a sequence of impacts, counted once while it lasts.  0 or -1. */
static int tb_read(const char *path, double Om, tb_stat *s)
{
  char *text = NULL;
  size_t n = 0;
  if (fb_gz_read_all(path, &text, &n) != 0)
    return -1;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  double t0 = NAN, tp = NAN, gp = NAN, gdp = NAN;
  size_t ns = 0, nc = 0, nep = 0;
  int in_ep = 0;
  char *line = strchr(text, '\n');
  while (line != NULL && *++line != '\0') {
    double y[7];
    char *p = line, *end;
    int k = 0;
    for (; k < 7; k++, p = end + 1) {
      y[k] = strtod(p, &end);
      if (end == p || (k < 6 && *end != ','))
        break;
    }
    line = strchr(line, '\n');
    if (k < 7)
      continue;
    const double g = y[2] - y[1], gd = y[5] - y[4];
    if (isnan(t0))
      t0 = y[0];
    for (int i = 0; i < 3; i++) {
      lo[i] = fmin(lo[i], y[1 + i]);
      hi[i] = fmax(hi[i], y[1 + i]);
    }
    nc += g <= TB_GAP_CONTACT;
    if (ns > 0) {
      const int closes = gp > TB_GAP_CONTACT && (g <= TB_GAP_CONTACT || gp + gdp * (y[0] - tp) <= 0);
      if (closes && !in_ep)
        nep++;
      in_ep = closes || (in_ep && g <= TB_GAP_CONTACT);
    }
    tp = y[0];
    gp = g;
    gdp = gd;
    ns++;
  }
  free(text);
  if (ns < 2)
    return -1;
  for (int i = 0; i < 3; i++)
    s->amp[i] = 0.5 * (hi[i] - lo[i]);
  s->span = tp - t0;
  s->contact = (double)nc / (double)ns;
  s->episodes = (double)nep / (s->span * Om / (2 * FB_PI));
  return 0;
}

/* The two-beam run of tag `tag` (NULL: none, or no trajectory). */
static const run *tb_run(const report *rp, const char *tag, char *path, size_t len)
{
  const runs *R = &rp->R;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (streq(r->group, "two-beam") && streq(r->tag, tag) && r->ok &&
        traj_path(rp->dir, r, path, len) == 0 && file_size(path) > 0)
      return r;
  }
  return NULL;
}

/* Phase curves of newton and penalty-nm at both cases, 2 x 2 panels. */
static int plot_two_beam_phase(report *rp, fb_err *err)
{
  static const struct {
    const char *suffix, *label;
    double Om;
  } cases[] = {{"", "e = 0.3, Omega = 0.81, d_N = 50", 0.81},
               {"_e0.7", "e = 0.7, Omega = 1.569, d_N = 20", 1.569}};
  static const char *const tr[] = {"newton", "penalty-nm"};
  plot_build b = {0};
  plot_entry *p = NULL;
  size_t nf = 0;
  for (size_t c = 0; c < 2; c++)
    for (size_t i = 0; i < 2; i++) {
      char tag[64], path[PATH_LEN], src[PATH_LEN + 32];
      snprintf(tag, sizeof tag, "%s%s", tr[i], cases[c].suffix);
      const run *r = tb_run(rp, tag, path, sizeof path);
      tb_stat s;
      if (r == NULL || tb_read(path, cases[c].Om, &s) != 0)
        continue;
      if (p == NULL &&
          (p = plot_new(rp, "two-beam-impact: phase curves of m0 and m1 in the stationary state, "
                            "reference and the paper's penalty", "two_beam_phase")) == NULL)
        break;
      traj_source(p, path, src, sizeof src);
      sb_gword(pb_var(&b, "files"), src);
      char t[160];
      snprintf(t, sizeof t, "%s, %s", tr[i], cases[c].label);
      sb_gword(pb_var(&b, "titles"), t);
      sbuf *rd = &p->reading;
      sb_printf(rd, "%s%s (%s): amplitudes q0 %.3g, q1 %.3g, q2 %.3g; %.2f impact episodes per "
                "period; in contact %.1f %% of the time", nf ? "; " : "", tr[i], cases[c].label,
                s.amp[0], s.amp[1], s.amp[2], s.episodes, 100 * s.contact);
      nf++;
    }
  int st = FB_OK;
  if (p != NULL) {
    reading_lead(&p->reading, "Over the last 76 time units of T = 190 (sampled every 0.01; an "
                              "impact sequence counts once)");
    sb_puts(pb_var(&b, "scen"), "two-beam-impact ([Engleder2002] figs. 6, 7): (q0, q0') solid, "
                                "(q1, q1') dashed; overlapping curves: persistent contact");
    st = plot_draw(rp, p, "two_beam_phase.gp", &b, err, "W=1500; H=1200");
  }
  pb_free(&b);
  return st;
}

/* The isolated collision's e_eff against h, one line per (c_N, d_N). */
static int plot_two_beam_grid(report *rp, fb_err *err)
{
  const runs *R = &rp->R;
  names tags = {{0}, 0};
  for (size_t k = 0; k < R->n; k++)
    if (streq(R->r[k].group, "two-beam-grid") && names_find(&tags, R->r[k].tag) < 0)
      names_add(&tags, R->r[k].tag);
  if (tags.n == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "two-beam-impact: the isolated collision's restitution over "
                               "h x c_N x d_N (penalty-nm)", "two_beam_grid");
  if (p == NULL)
    return FB_OK;
  static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c"};
  plot_build b = {0};
  sbuf *rd = &p->reading;
  for (size_t i = 0; i < tags.n; i++) {
    pb_block(&b, tags.s[i]);
    double e_fine = NAN, e_coarse = NAN, h_fine = HUGE_VAL, h_coarse = 0;
    for (size_t k = 0; k < R->n; k++) {
      const run *r = &R->r[k];
      if (!streq(r->group, "two-beam-grid") || !streq(r->tag, tags.s[i]) || !r->ok)
        continue;
      sb_dat(&b.data, r->h);
      sb_dat(&b.data, r->e_eff);
      sb_puts(&b.data, "\n");
      if (r->h < h_fine)
        h_fine = r->h, e_fine = r->e_eff;
      if (r->h > h_coarse)
        h_coarse = r->h, e_coarse = r->e_eff;
    }
    sb_gword(pb_var(&b, "colors"), colors[i % 3]);
    sb_gword(pb_var(&b, "dashes"), strstr(tags.s[i], "dN=20") != NULL ? "2" : "1");
    b.nb++;
    sb_printf(rd, "%s%s %.3f (h %g) to %.3f (h %g)", i ? "; " : "", tags.s[i], e_fine, h_fine,
              e_coarse, h_coarse);
  }
  reading_lead(rd, "Effective restitution of one collision of m0 and m1 (relative speed 1, "
                   "clipped spring-damper)");
  sb_puts(rd, " The paper's nominal e: 0.3 with d_N = 50, 0.7 with d_N = 20 (grey).");
  sb_puts(pb_var(&b, "scen"), "two-beam-impact, isolated collision: effective restitution against the step, "
                              "solid d_N = 50, dashed d_N = 20");
  const int st = plot_draw(rp, p, "two_beam_grid.gp", &b, err, "ns=%zu; W=1200; H=900", b.nb);
  pb_free(&b);
  return st;
}

int plot_two_beam(report *rp, fb_err *err)
{
  int st = plot_two_beam_phase(rp, err);
  if (st == FB_OK)
    st = plot_two_beam_grid(rp, err);
  return st;
}
