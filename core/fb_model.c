/* fb_model.c — the model contract's instances: parameter storage, per-contact resolution, output. */
#include "fb_model.h"
#include "fb_plant_int.h"
#include "fb_model_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int fb_model_check_call(const fb_model *m, size_t i, size_t width, const fb_contact_in *c,
                        fb_err *err)
{
  if (m == NULL)
    return fb_err_set(err, FB_EINVAL, "no model instance (NULL)");
  if (m->type == NULL || m->params == NULL)
    return fb_err_set(err, FB_EINVAL, "model instance not initialised (fb_model_init)");
  if (m->cparams == NULL || m->nc == 0)
    return fb_err_set(err, FB_EINVAL, "model %s is not resolved yet (fb_model_resolve or "
                      "fb_model_resolve_scales)", m->type->name);
  if (i >= m->nc || m->nc - i < width)
    return fb_err_set(err, FB_EINVAL, "model %s: contact %zu%s is beyond the %zu resolved",
                      m->type->name, i, width > 1 ? " (and the next)" : "", m->nc);
  if (c == NULL || c->law == NULL)
    return fb_err_set(err, FB_EINVAL, "model %s: no contact or no friction law (NULL)",
                      m->type->name);
  return FB_OK;
}

int fb_model_init(fb_model *m, const fb_model_type *type)
{
  if (m == NULL)
    return FB_EINVAL;
  memset(m, 0, sizeof *m);
  if (type == NULL || type->params == NULL)
    return FB_EINVAL;
  m->type = type;
  m->params = calloc(1, type->params->size ? type->params->size : 1);
  if (m->params == NULL)
    return FB_ENOMEM;
  fb_params_default(type->params, m->params);
  return FB_OK;
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

int fb_model_resolve(fb_model *m, const fb_plant *pl, fb_err *err)
{
  if (m == NULL || m->type == NULL || m->params == NULL)
    return fb_err_set(err, FB_EINVAL, "model instance NULL or not initialised (fb_model_init)");
  if (pl == NULL || pl->n == 0 || (pl->nc > 0 && pl->contact == NULL))
    return fb_err_set(err, FB_EINVAL, "model %s: no plant, or one not built (fb_plant_alloc, "
                      "fb_plant_finish)", m->type->name);
  const size_t sz = m->type->params->size;
  int st = fb_params_check_all(m->type->params, m->type->name, m->params, err);
  if (st != FB_OK)
    return st;
  if (pl->npairs > 0 && !fb_model_type_has_2d(m->type))
    return fb_err_set(err, FB_EUNSUP,
                      "model %s is not defined for 2-D contacts (no vector form; "
                      "docs/design.md §13)",
                      m->type->name);
  free(m->cparams);
  m->cparams = calloc(pl->nc ? pl->nc : 1, sz ? sz : 1);
  if (m->cparams == NULL)
    return FB_ENOMEM;
  m->nc = pl->nc;
  for (size_t i = 0; i < pl->nc; i++) {
    void *cp = (char *)m->cparams + i * sz;
    memcpy(cp, m->params, sz);
    if (m->type->resolve != NULL) {
      fb_contact_scale sc = {fb_plant_contact_mass(pl, i), fb_plant_contact_stiffness(pl, i),
                             fb_plant_contact_Fs(pl, i), pl->f_c, pl->v_scale};
      st = m->type->resolve(cp, &sc, err);
      if (st != FB_OK)
        return unresolve(m, st);
    }
  }
  return FB_OK;
}

void fb_model_free(fb_model *m)
{
  if (m != NULL) {
    free(m->params);
    free(m->cparams);
    memset(m, 0, sizeof *m);
  }
}

int fb_model_output(const fb_model *m, size_t i, const fb_contact_in *c, double vr, const double *z,
                    double *F, int *stick)
{
  int st = fb_model_check_call(m, i, 1, c, NULL);
  if (st != FB_OK || (z == NULL && m->type->nz > 0) || F == NULL || stick == NULL)
    return FB_EINVAL;
  const fb_model_type *t = m->type;
  const void *cp = fb_model_cparams(m, i);
  if (t->output != NULL) {
    st = t->output(cp, c, vr, z, F);
    *stick = st >= 0 ? st : -1;
    return st >= 0 ? FB_OK : st;
  }
  double dz[FB_MAX_Z];
  st = t->force(cp, c, vr, z, F, dz);
  *stick = t->stick != NULL ? t->stick(cp, c, vr, z) : -1;
  return st;
}

int fb_model_output2(const fb_model *m, size_t i, const fb_contact_in *c, const double *vr,
                     const double *z, double *F, int *stick)
{
  /* the x entry's contact and the y entry's, next to it */
  if (fb_model_check_call(m, i, 2, c, NULL) != FB_OK || vr == NULL ||
      (z == NULL && m->type->nz > 0) || F == NULL || stick == NULL)
    return FB_EINVAL;
  const fb_model_type *t = m->type;
  const void *cp = fb_model_cparams(m, i);
  if (t->output != NULL) { /* owned schemes: each component reports from its own states */
    int sx = t->output(cp, c, vr[0], z, &F[0]);
    if (sx < 0)
      return sx;
    int sy = t->output(fb_model_cparams(m, i + 1), c, vr[1], z + t->nz, &F[1]);
    if (sy < 0)
      return sy;
    *stick = t->stick2 != NULL ? t->stick2(cp, c, vr, z) : sx && sy;
    return FB_OK;
  }
  if (t->force2 == NULL)
    return FB_EUNSUP;
  double dz[2 * FB_MAX_Z];
  int st = t->force2(cp, c, vr, z, F, dz);
  *stick = t->stick2 != NULL ? t->stick2(cp, c, vr, z) : -1;
  return st;
}
