/* fb_model_int.h — what the library's own layers call on a model instance and not a
 * plugin (core/fb_model.c, the integrators' f_app); not exported. */
#ifndef FB_MODEL_INT_H
#define FB_MODEL_INT_H

#include "fb_model.h"
#include "fb_plant_int.h"

/* The arguments every per-contact call shares (not exported): an instance made by
 * fb_model_init, resolved for contacts i .. i + width - 1, a contact with a friction law.
 * FB_EINVAL with err (when not NULL) saying which is missing. */
int fb_model_check_call(const fb_model *m, size_t i, size_t width, const fb_contact_in *c,
                        fb_err *err);

/* f_app of contact i at time t (Karnopp 1985; docs/design.md §3 M7), given the plant's
 * acceleration without friction a = M^-1 (f - D v - K x):
 *     f_app_i = m_i (a_j - udot_i),   m_i = 1 / (M^-1)_jj,
 * the force that, applied alone at DOF j, would give the contact's relative frame the
 * acceleration a_j - udot_i (udot: the surface's acceleration).  So a stick force
 * F_i = -f_app_i gives the stuck DOF zero relative acceleration when the other contacts
 * carry no friction; the other contacts' friction forces are deliberately not included
 * (they depend on the stick forces being computed): Karnopp's known weakness with
 * coupled contacts.  For one DOF, f_app = f - D v - K x - m udot exactly. */
static inline double fb_contact_fapp(const fb_plant *pl, size_t i, double t, const double *a)
{
  fb_contact_state cs;
  fb_plant_contact_at(pl, i, t, &cs);
  if (pl->contact[i].Jt != NULL) /* m_i (Jt a - udot), m_i = 1 / (Jt M^-1 Jt^T) */
    return (fb_contact_vel(pl, i, a) - cs.udot) * fb_plant_contact_mass(pl, i);
  const size_t j = pl->contact[i].dof;
  return (a[j] - cs.udot) / pl->Minv[j * pl->n + j];
}

#endif
