/* fb_model_embed.c — one model's law contact by contact, for simulators that embed fricbench:
 * parameters by name, "auto" parameters from scales given directly (no plant), force and
 * state rates of one contact (docs/design.md §11). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_model.h"
#include "fb_model_int.h"

/* An instance made by fb_model_init (zeroed or freed ones have no type). */
static int model_ready(const fb_model *m, fb_err *err)
{
  if (m == NULL || m->type == NULL || m->params == NULL)
    return fb_err_set(err, FB_EINVAL, "model instance NULL or not initialised (fb_model_init)");
  return FB_OK;
}

int fb_model_set(fb_model *m, const char *name, double value, fb_err *err)
{
  if (model_ready(m, err) != FB_OK)
    return FB_EINVAL;
  if (name == NULL)
    return fb_err_set(err, FB_EINVAL, "model %s: no parameter name (NULL)", m->type->name);
  const fb_param_set *set = m->type->params;
  const fb_param_desc *d = fb_params_find(set, name);
  if (d == NULL)
    return fb_err_set(err, FB_EINVAL, "model %s has no parameter '%s' (see 'fricbench list models')",
                      m->type->name, name);
  /* NaN puts an auto parameter back to "derive it from the scales". */
  if (!(isnan(value) && (d->flags & FB_PARAM_AUTO))) {
    const int st = fb_param_check(d, m->type->name, value, err);
    if (st != FB_OK)
      return st;
  }
  memcpy((char *)m->params + d->offset, &value, sizeof value);
  return FB_OK;
}

double fb_model_get(const fb_model *m, size_t i, const char *name)
{
  if (model_ready(m, NULL) != FB_OK || name == NULL || (m->nc > 0 && m->cparams == NULL))
    return NAN;
  const fb_param_desc *d = fb_params_find(m->type->params, name);
  if (d == NULL || (m->nc > 0 && i >= m->nc))
    return NAN;
  return fb_param_get(d, m->nc > 0 ? fb_model_cparams(m, i) : m->params);
}

/* A scale must be finite and >= 0 (m > 0): the autos are built from them. */
static int check_scale(const char *model, size_t i, const char *name, double v, int positive,
                       fb_err *err)
{
  if (isfinite(v) && (positive ? v > 0 : v >= 0))
    return FB_OK;
  return fb_err_set(err, FB_EINVAL, "model %s, contact %zu: scale %s = %g is not allowed: use a "
                    "finite number %s 0", model, i, name, v, positive ? ">" : ">=");
}

/* A failed resolution leaves the instance unresolved, not half resolved: the per-contact
 * calls then refuse it instead of reading NaN autos. */
static int unresolve(fb_model *m, int st)
{
  free(m->cparams);
  m->cparams = NULL;
  m->nc = 0;
  return st;
}

int fb_model_resolve_scales(fb_model *m, size_t nc, const fb_contact_scale *sc, fb_err *err)
{
  if (model_ready(m, err) != FB_OK)
    return FB_EINVAL;
  if (nc == 0 || sc == NULL)
    return fb_err_set(err, FB_EINVAL, "model %s: resolve for at least one contact, with its "
                      "scales (nc = %zu, sc %s)", m->type->name, nc, sc == NULL ? "NULL" : "given");
  const fb_model_type *t = m->type;
  const size_t sz = t->params->size;
  int st = fb_params_check_all(t->params, t->name, m->params, err);
  for (size_t i = 0; i < nc && st == FB_OK; i++) {
    st = check_scale(t->name, i, "m", sc[i].m, 1, err);
    if (st == FB_OK)
      st = check_scale(t->name, i, "k", sc[i].k, 0, err);
    if (st == FB_OK)
      st = check_scale(t->name, i, "Fs", sc[i].Fs, 0, err);
    if (st == FB_OK)
      st = check_scale(t->name, i, "f_c", sc[i].f_c, 1, err);
    if (st == FB_OK)
      st = check_scale(t->name, i, "v_scale", sc[i].v_scale, 1, err);
  }
  if (st != FB_OK)
    return st;
  void *cp = calloc(nc ? nc : 1, sz ? sz : 1);
  if (cp == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  free(m->cparams);
  m->cparams = cp;
  m->nc = nc;
  for (size_t i = 0; i < nc; i++) {
    void *p = (char *)m->cparams + i * sz;
    memcpy(p, m->params, sz);
    if (t->resolve != NULL && (st = t->resolve(p, &sc[i], err)) != FB_OK)
      return unresolve(m, st);
    if ((st = fb_params_check_all(t->params, t->name, p, err)) != FB_OK)
      return unresolve(m, st);
  }
  return FB_OK;
}

int fb_model_state_init(const fb_model *m, size_t i, const fb_contact_in *c, double vr0,
                        double *z0)
{
  if (fb_model_check_call(m, i, 1, c, NULL) != FB_OK || z0 == NULL || !isfinite(vr0))
    return FB_EINVAL;
  for (size_t k = 0; k < m->type->nz; k++)
    z0[k] = 0.0;
  if (m->type->init != NULL)
    m->type->init(fb_model_cparams(m, i), c, vr0, z0);
  return FB_OK;
}

int fb_model_force(const fb_model *m, size_t i, const fb_contact_in *c, double vr,
                   const double *z, double *F, double *dz)
{
  /* what the type lacks is said before what the instance lacks, as before these checks */
  if (model_ready(m, NULL) == FB_OK && m->type->force == NULL)
    return FB_EUNSUP;
  if (fb_model_check_call(m, i, 1, c, NULL) != FB_OK || !isfinite(vr) || F == NULL ||
      (m->type->nz > 0 && (z == NULL || dz == NULL)))
    return FB_EINVAL;
  return m->type->force(fb_model_cparams(m, i), c, vr, z, F, dz);
}

int fb_model_force2(const fb_model *m, size_t i, const fb_contact_in *c, const double *vr,
                    const double *z, double *F, double *dz)
{
  if (model_ready(m, NULL) == FB_OK && m->type->force2 == NULL)
    return FB_EUNSUP;
  if (fb_model_check_call(m, i, 1, c, NULL) != FB_OK || vr == NULL || !isfinite(vr[0]) ||
      !isfinite(vr[1]) || F == NULL || (m->type->nz > 0 && (z == NULL || dz == NULL)))
    return FB_EINVAL;
  return m->type->force2(fb_model_cparams(m, i), c, vr, z, F, dz);
}
