/* report_scale.c — the cost against the number of DOFs (group `scale`): the chain's n blocks
 * (docs/scenarios/chain.md "Cost against n") and the elastic frame's 6 ne DOFs
 * (docs/scenarios/elastic-frame.md "Store"): CPU time per step and per simulated second of
 * every treatment of a banded plant against n, log-log; the reading gives each treatment's
 * cost-growth verdict (work counts, verdicts.csv) and beside it the measured CPU-time
 * exponent between the two largest n (a timing, not judged). */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_plant_int.h"

#define SCALE_MAX_TAGS 16
#define SCALE_MAX_N 16

/* One treatment's rows: n ascending, CPU seconds per step and per simulated second. */
typedef struct scale_series {
  const char *tag, *model, *scenario;
  size_t np;
  double n[SCALE_MAX_N], per_step[SCALE_MAX_N], per_sim[SCALE_MAX_N];
} scale_series;

static void scale_insert(scale_series *s, double n, double ps, double psim)
{
  if (s->np == SCALE_MAX_N)
    return;
  size_t k = s->np++;
  for (; k > 0 && s->n[k - 1] > n; k--) {
    s->n[k] = s->n[k - 1];
    s->per_step[k] = s->per_step[k - 1];
    s->per_sim[k] = s->per_sim[k - 1];
  }
  s->n[k] = n;
  s->per_step[k] = ps;
  s->per_sim[k] = psim;
}

/* The ok rows of group scale, by tag (the integrator). */
static size_t scale_collect(const runs *R, scale_series *S)
{
  size_t ns = 0;
  for (size_t k = 0; k < R->n; k++) {
    const run *r = &R->r[k];
    if (!streq(r->group, "scale") || !r->ok || !(r->nsteps > 0) || !(r->t_reached > 0))
      continue;
    size_t i = 0;
    while (i < ns && !streq(S[i].tag, r->tag))
      i++;
    if (i == ns) {
      if (ns == SCALE_MAX_TAGS)
        continue;
      memset(&S[ns], 0, sizeof S[ns]);
      S[ns].tag = r->tag;
      S[ns].model = r->model;
      S[ns].scenario = r->scenario;
      ns++;
    }
    scale_insert(&S[i], fb_scale_dofs(r->scenario, r->value), r->cpu_s / r->nsteps,
                 r->cpu_s / r->t_reached);
  }
  return ns;
}

/* The cost-growth verdict of a treatment (its model and integrator), or NULL. */
static const fb_vrow *scale_verdict(const fb_vtable *vt, const scale_series *s)
{
  for (size_t k = 0; vt != NULL && k < vt->n; k++) {
    const fb_vrow *r = &vt->r[k];
    if (streq(r->view, "scale") && streq(r->property, "cost-growth") &&
        streq(r->model, s->model) &&
        (streq(r->integrator, s->tag) || strstr(r->step, s->tag) != NULL))
      return r; /* the chain's key names the treatment; the frame's ("contact") its step */
  }
  return NULL;
}

int plot_scale(report *rp, fb_err *err)
{
  scale_series S[SCALE_MAX_TAGS];
  const size_t ns = scale_collect(&rp->R, S);
  if (ns == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "chain and elastic frame: cost per step and per simulated "
                           "second against the number of DOFs n", "scale_cost");
  if (p == NULL)
    return FB_OK;
  plot_build b = {0};
  sbuf rd = {0};
  for (size_t i = 0; i < ns; i++) {
    const scale_series *s = &S[i];
    pb_block(&b, s->tag);
    for (size_t k = 0; k < s->np; k++) {
      sb_dat(&b.data, s->n[k]);
      sb_dat(&b.data, s->per_step[k]);
      sb_dat(&b.data, s->per_sim[k]);
      sb_puts(&b.data, "\n");
    }
    /* a colour per treatment: two treatments of one model (kbe-relay and kbe-symplectic,
     * smooth-sign under rk4 and cvode-bdf, the frame's two under `contact`) would share
     * the model's colour */
    static const char *const palette[] = {"#1f3a93", "#2ca02c", "#9467bd", "#ff7f0e",
                                          "#d62728", "#e377c2", "#17becf", "#8c564b",
                                          "#bcbd22", "#7f7f7f"};
    sb_gword(pb_var(&b, "colors"), palette[i % (sizeof palette / sizeof *palette)]);
    b.nb++;
    if (s->np >= 2) { /* the CPU-time exponent between the two largest n: a timing */
      const size_t a = s->np - 2, z = s->np - 1;
      const double e = log(s->per_step[z] / s->per_step[a]) / log(s->n[z] / s->n[a]);
      const fb_vrow *vr = scale_verdict(rp->vt, s);
      sb_printf(&rd, "%s%s: %s; measured time n^%.2f from n = %.0f, %.3g us per step at "
                "n = %.0f", rd.n ? "; " : "", s->tag, vr != NULL ? vr->verdict : "no verdict",
                e, s->n[a], 1e6 * s->per_step[z], s->n[z]);
    }
  }
  sb_printf(&p->reading, "Verdict (verdicts.csv cost-growth, from deterministic counts: the "
            "work per step, (RHS evaluations + inner sweeps) per step x (plant matrix entries + "
            "contacts), between the two largest n, linear when its exponent is <= 1.1) and, "
            "beside it, the measured CPU time per step's exponent (a timing: it varies between "
            "runs and is not judged): %s.",
            rd.n ? sb_str(&rd) : "one n per treatment only");
  sb_free(&rd);
  sb_puts(&p->reading, " A banded plant runs under");
  const char *pm, *pi;
  for (size_t k = 0; fb_plant_banded_pair(k, &pm, &pi); k++)
    sb_printf(&p->reading, " %s/%s,", pm, pi);
  sb_puts(&p->reading, " and every explicit ODE stepper with a model that needs no applied-force "
          "split");
  const char *bi; /* the implicit ODE steppers with a band linear solver (SUNDIALS) */
  for (size_t k = 0; fb_plant_banded_ode_implicit(k, &bi); k++)
    sb_printf(&p->reading, "%s%s", k ? ", " : ", and in a build with SUNDIALS with them ", bi);
  sb_puts(&p->reading, "; with normals, under the normal treatments");
  const char *pn;
  for (size_t k = 0; fb_plant_banded_normal(k, &pn); k++)
    sb_printf(&p->reading, " %s", pn);
  sb_puts(&p->reading, "; every other pair refuses it with the reason (docs/scenarios/chain.md). "
          "The frame (frame-*, n = 6 ne DOFs) is dense up to ne = 64 (10 under moreau-jean) and "
          "banded above (docs/scenarios/elastic-frame.md).");
  sb_puts(pb_var(&b, "scen"), "chain (store=banded, n blocks) and elastic frame (n = 6 ne): "
          "CPU time against the number of DOFs");
  const int st = plot_draw(rp, p, "scale_cost.gp", &b, err, "ns=%zu; W=1200; H=950", b.nb);
  pb_free(&b);
  return st;
}
