/* impulse_state.c — the states the per-step impulse schemes report (moreau-jean, ccp, sap,
 * tamsi; fb_models.h): the friction force of the last step and its stick flag, the same
 * two states and the same start for all four. */
#include <math.h>

#include "fb_math.h"
#include "fb_models.h"

/* Not "F" and "stick": run's CSV already has those columns (the reported force and flag,
 * here the same values), and two columns of one name are renamed by readers (pandas). */
const char *const fb_impulse_z_names[] = {"F_step", "stick_step"};

/* In slip from the start: F = -S sgn(v_r); at rest the first step decides. */
void fb_impulse_init(const void *p, const fb_contact_in *c, double vr0, double *z0)
{
  (void)p;
  z0[0] = -fb_contact_S(c, fabs(vr0), NULL) * fb_sgn(vr0);
  z0[1] = vr0 == 0.0;
}

/* A 2-D contact: F = -S u/|u| in slip, at rest the first step decides. */
void fb_impulse_init2(const void *p, const fb_contact_in *c, const double *vr0, double *z0)
{
  (void)p;
  const double w = hypot(vr0[0], vr0[1]), S = fb_contact_S(c, w, NULL);
  z0[0] = w > 0.0 ? -S * vr0[0] / w : 0.0;
  z0[2] = w > 0.0 ? -S * vr0[1] / w : 0.0;
  z0[1] = z0[3] = w == 0.0;
}

/* The force of the last step and its flag, as stored. */
int fb_impulse_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                      double *F)
{
  (void)p, (void)c, (void)vr;
  *F = z[0];
  return z[1] != 0.0;
}
