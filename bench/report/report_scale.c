/* report_scale.c — the chain's cost against its number of blocks (group `scale`,
 * docs/scenarios/chain.md "Cost against n"): CPU time per step and per simulated second of
 * every treatment of a banded plant against n, log-log, and the growth exponent between the
 * two largest n in the reading. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include "fb_plant_int.h"

#define SCALE_MAX_TAGS 16
#define SCALE_MAX_N 16

/* One treatment's rows: n ascending, CPU seconds per step and per simulated second. */
typedef struct scale_series {
  const char *tag, *model;
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
      ns++;
    }
    scale_insert(&S[i], r->value, r->cpu_s / r->nsteps, r->cpu_s / r->t_reached);
  }
  return ns;
}

int plot_scale(report *rp, fb_err *err)
{
  scale_series S[SCALE_MAX_TAGS];
  const size_t ns = scale_collect(&rp->R, S);
  if (ns == 0)
    return FB_OK;
  plot_entry *p = plot_new(rp, "chain: cost per step and per simulated second against n",
                           "scale_cost");
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
    sb_gword(pb_var(&b, "colors"), model_color(s->model));
    b.nb++;
    if (s->np >= 2) { /* the exponent between the two largest n (docs/scenarios/chain.md) */
      const size_t a = s->np - 2, z = s->np - 1;
      const double e = log(s->per_step[z] / s->per_step[a]) / log(s->n[z] / s->n[a]);
      sb_printf(&rd, "%s%s: %.3g us per step at n = %.0f, cost grows as n^%.2f from n = %.0f "
                "(%s)", rd.n ? "; " : "", s->tag, 1e6 * s->per_step[z], s->n[z], e, s->n[a],
                e <= 1.1 ? "linear" : "not linear");
    }
  }
  sb_printf(&p->reading, "Exponent log(c2/c1)/log(n2/n1) of the CPU time per step between the "
            "two largest n, linear when <= 1.1 (timings: they vary between runs): %s.",
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
  sb_puts(&p->reading, "; every other pair refuses it with the reason (docs/scenarios/chain.md).");
  sb_puts(pb_var(&b, "scen"), "chain (store=banded): CPU time against the number of blocks");
  const int st = plot_draw(rp, p, "scale_cost.gp", &b, err, "ns=%zu; W=1200; H=950", b.nb);
  pb_free(&b);
  return st;
}
