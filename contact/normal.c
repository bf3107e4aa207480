/* normal.c — the registry of normal-contact treatments and what they share: parameter
 * setting by name, the contact's scales, resolution of `auto` rows (docs/design.md §12). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_normal_int.h"
#include "fb_plant_int.h"
#include "fb_util.h"

/* The built-ins, then the treatments of loaded plugins (fb_normal_register), appended at
 * start up and never removed. */
const fb_normal_type *fb_normal_registry[FB_NORMAL_MAX + 1] = {
    &fb_normal_newton, &fb_normal_penalty, &fb_normal_hunt_crossley, &fb_normal_kikuuwe,
    &fb_normal_moreau_jean, &fb_normal_penalty_nm, &fb_normal_penalty_newmark, &fb_normal_ccp,
    &fb_normal_sap, NULL,
};
/* the same names as a choice list for scenario parameters (order = registry order) */
const char *fb_normal_names[FB_NORMAL_MAX + 1] = {"newton", "penalty-n", "hunt-crossley",
                                                  "kikuuwe-n", "moreau-jean", "penalty-nm",
                                                  "penalty-newmark", "ccp", "sap", NULL};

const fb_normal_type *fb_normal_at(double index)
{
  size_t n = 0;
  while (fb_normal_registry[n] != NULL)
    n++;
  return index >= 0 && index < (double)n ? fb_normal_registry[(size_t)index] : NULL;
}

int fb_normal_check(const fb_normal_type *t, fb_err *err)
{
  if (t == NULL || t->name == NULL || *t->name == '\0' || t->params == NULL ||
      t->params->size > FB_NORMAL_NP * sizeof(double) || t->ns > FB_NORMAL_NS ||
      (!t->event && t->force == NULL && t->stepper == NULL))
    return fb_err_set(err, FB_EINVAL,
                      "a normal treatment needs a name, a parameter set of at most %d "
                      "doubles, at most %d states and a force law",
                      FB_NORMAL_NP, FB_NORMAL_NS);
  return FB_OK;
}

int fb_normal_register(const fb_normal_type *t, fb_err *err)
{
  int st = fb_normal_check(t, err);
  if (st != FB_OK)
    return st;
  if (fb_normal_find(t->name) != NULL)
    return fb_err_set(err, FB_EINVAL, "normal treatment '%s' is already defined", t->name);
  size_t n = 0;
  while (fb_normal_registry[n] != NULL)
    n++;
  if (n == FB_NORMAL_MAX)
    return fb_err_set(err, FB_ENOMEM, "more than %d normal treatments", FB_NORMAL_MAX);
  size_t nv = 0;
  while (fb_normal_variants[nv].label != NULL)
    nv++;
  if (nv == FB_NORMAL_VARIANTS_MAX)
    return fb_err_set(err, FB_ENOMEM, "more than %d normal treatment variants",
                      FB_NORMAL_VARIANTS_MAX);
  fb_normal_registry[n] = t;
  fb_normal_names[n] = t->name;
  fb_normal_registry[n + 1] = NULL;
  fb_normal_names[n + 1] = NULL;
  /* the suite's contact groups, `impacts` and the report compare it with its defaults */
  fb_normal_variants[nv] = (fb_normal_variant){t->name, t->name, NULL, NULL, {0},
                                               t->event ? FB_NORMAL_COUPLED_WHY : NULL};
  fb_normal_variants[nv + 1] = (fb_normal_variant){NULL, NULL, NULL, NULL, {0}, NULL};
  return FB_OK;
}

/* Stiffness ladders around the auto values of a 1 m drop (penetration 1 % of it: c_N, K
 * ~ 2e5 N/m, Hertz k ~ 2.5e6 N/m^1.5), three decades below to two above. */
fb_normal_variant fb_normal_variants[FB_NORMAL_VARIANTS_MAX + 1] = {
    {"newton", "newton", NULL, NULL, {0}, FB_NORMAL_COUPLED_WHY},
    {"penalty-n", "penalty-n", NULL, "normal.cN", {1e3, 1e4, 1e5, 1e6, 1e7, 1e8}, NULL},
    {"hunt-crossley", "hunt-crossley", "normal.law=hunt-crossley", "normal.k",
     {1e4, 1e5, 1e6, 1e7, 1e8, 1e9}, NULL},
    {"hc-lankarani", "hunt-crossley", "normal.law=lankarani-nikravesh", "normal.k",
     {1e4, 1e5, 1e6, 1e7, 1e8, 1e9}, NULL},
    {"hc-flores", "hunt-crossley", "normal.law=flores", "normal.k", {1e4, 1e5, 1e6, 1e7, 1e8, 1e9}, NULL},
    {"kikuuwe-n", "kikuuwe-n", NULL, "normal.K", {1e3, 1e4, 1e5, 1e6, 1e7, 1e8}, NULL},
    {"moreau-jean", "moreau-jean", NULL, NULL, {0}, NULL},
    {"ccp", "ccp", NULL, NULL, {0}, NULL},
    {"sap", "sap", NULL, NULL, {0}, NULL},
    {NULL, NULL, NULL, NULL, {0}, NULL},
};

const fb_normal_type *fb_normal_find(const char *name)
{
  if (name == NULL)
    return NULL;
  for (size_t i = 0; fb_normal_registry[i] != NULL; i++)
    if (strcmp(fb_normal_registry[i]->name, name) == 0)
      return fb_normal_registry[i];
  return NULL;
}

int fb_normal_select(fb_normal *nm, const fb_normal_type *t)
{
  /* np holds FB_NORMAL_NP doubles: a type that does not pass the registry's checks could
   * write past it */
  if (nm == NULL || fb_normal_check(t, NULL) != FB_OK)
    return FB_EINVAL;
  nm->type = t;
  for (size_t j = 0; j < FB_NORMAL_NP; j++)
    nm->np_[j] = NAN;
  return fb_params_default(t->params, nm->np_);
}

int fb_normal_set(fb_normal *nm, const char *name, const char *value, fb_err *err)
{
  if (nm == NULL || nm->type == NULL)
    return fb_err_set(err, FB_EINVAL, "normal NULL or without a treatment (fb_normal_select)");
  return fb_params_set(nm->type->params, nm->type->name, nm->np_, name, value, err);
}

void fb_normal_scales(const fb_plant *pl, size_t k, fb_normal_scale *sc)
{
  const fb_normal *nm = &pl->normal[k];
  const size_t n = pl->n;
  double w = 0; /* J_n M^-1 J_n^T */
  if (pl->banded) { /* one banded solve M^-1 J_n^T (set-up and metrics only) */
    double *c = malloc(n * sizeof *c);
    w = NAN;
    if (c != NULL) {
      fb_plant_solve_mass(pl, nm->Jn, c);
      w = fb_dotn(nm->Jn, c, n);
      free(c);
    }
  } else {
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        w += nm->Jn[i] * pl->Minv[i * n + j] * nm->Jn[j];
  }
  sc->m = 1.0 / w;
  sc->a = nm->a_scale;
  sc->h = nm->h_scale;
  sc->v_in = sqrt(2.0 * sc->a * sc->h);
  sc->e = nm->e;
}

int fb_normal_resolve_all(fb_plant *pl, fb_err *err)
{
  for (size_t k = 0; k < pl->nn; k++) {
    fb_normal *nm = &pl->normal[k];
    if (nm->type == NULL)
      fb_normal_select(nm, &fb_normal_newton);
    fb_normal_scale sc;
    fb_normal_scales(pl, k, &sc);
    if (!(sc.m > 0 && isfinite(sc.m) && sc.a > 0 && sc.h > 0 && sc.e >= 0 && sc.e <= 1))
      return fb_err_set(err, FB_EINVAL,
                        "normal %zu: scales m = %g, a = %g, h = %g, e = %g: allowed are m, a, "
                        "h > 0 and 0 <= e <= 1",
                        k, sc.m, sc.a, sc.h, sc.e);
    if (nm->type->resolve != NULL) {
      int st = nm->type->resolve(nm->np_, &sc, err);
      if (st != FB_OK)
        return st;
    }
    int st = fb_params_check_all(nm->type->params, nm->type->name, nm->np_, err);
    if (st != FB_OK)
      return st;
  }
  return FB_OK;
}

/* The damping ratio giving restitution e for a linear spring-damper released at the
 * end of its half period ([Engleder2002] §3; the classical Kelvin–Voigt relation):
 *     e = exp(-zeta pi / sqrt(1 - zeta^2))  <=>  zeta = -ln e / sqrt(pi^2 + ln^2 e),
 * zeta = 1 (critical, no rebound) for e = 0. */
double fb_normal_zeta_of_e(double e)
{
  if (!(e <= 1)) /* NaN or e > 1: no damping ratio gives it */
    return NAN;
  if (e <= 0)
    return 1.0;
  const double l = log(e);
  return -l / sqrt(M_PI * M_PI + l * l);
}

/* The linear penalty element's auto parameters from the contact's scales, where a value is
 * NaN (penalty-n, penalty-nm): e the scenario's; cN so that the impact at v_in penetrates
 * at most 1 % of the gap scale h (the drop height): kinetic energy into the spring,
 * m v_in^2 = cN d^2 with d = 0.01 h (docs/design.md §12); dN the damping of restitution e
 * (fb_normal_zeta_of_e), dN = 2 zeta sqrt(cN m). */
void fb_normal_penalty_auto(double *cN, double *dN, double *e, const fb_normal_scale *sc)
{
  if (isnan(*e))
    *e = sc->e;
  if (isnan(*cN)) {
    const double d = 0.01 * sc->h;
    *cN = sc->m * sc->v_in * sc->v_in / (d * d);
  }
  if (isnan(*dN))
    *dN = 2.0 * fb_normal_zeta_of_e(*e) * sqrt(*cN * sc->m);
}

void fb_impact_stats_init(fb_impact_stats *st, int keep_watch)
{
  const double tw = keep_watch ? st->t_watch : (double)NAN;
  void (*on_step)(void *, double, const double *, const double *, const double *) =
      keep_watch ? st->on_step : NULL;
  void *on_ctx = keep_watch ? st->on_step_ctx : NULL;
  memset(st, 0, sizeof *st);
  st->on_step = on_step;
  st->on_step_ctx = on_ctx;
  for (size_t k = 0; k < FB_STATS_NN; k++)
    st->t_first[k] = st->lam_last[k] = NAN;
  st->max_pen = 0;
  st->min_lambda = INFINITY;
  st->t_rest = st->vt_after_first = st->t_stop = NAN;
  st->lam_T = NAN;
  st->t_watch = tw;
  /* NaN until a step end falls in the window (fmax ignores the NaN start) */
  st->rest_pen = st->rest_gap = st->rest_lam_err = st->rest_lam_static = NAN;
}

int fb_normal_takes_quat(const fb_normal_type *t)
{
  return t->stepper == NULL || t->stepper->takes_quat; /* one that steps the plant itself */
}

int fb_integrator_takes_quat(const fb_integrator_type *type, const fb_plant *pl)
{
  if (pl->kin.nquat == 0)
    return 1;
  if (!type->takes_quat)
    return 0;
  for (size_t k = 0; k < pl->nn; k++)
    if (!fb_normal_takes_quat(pl->normal[k].type))
      return 0;
  return 1;
}
