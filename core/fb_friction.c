/* fb_friction.c — the shapes of the friction characteristic (docs/design.md §1). */
#include "fb_friction.h"

#include <math.h>
#include <stddef.h>

const char *const fb_shape_names[] = {"coulomb", "stribeck", "glowinski-linear",
                                      "glowinski-algebraic", "leine", NULL};

double fb_friction_mu(const fb_friction *law, double w, double *dmu_dw)
{
  if (law == NULL) { /* no status to return: NaN, which every caller's finiteness guard sees */
    if (dmu_dw != NULL)
      *dmu_dw = NAN;
    return NAN;
  }
  double mu, d;
  const double dm = law->mu_s - law->mu_k;
  switch (law->shape) {
  case FB_SHAPE_STRIBECK: {
    const double r = w / law->vs, e = exp(-r * r);
    mu = law->mu_k + dm * e;
    d = -2.0 * dm * r * e / law->vs;
    break;
  }
  case FB_SHAPE_GLOWINSKI_LINEAR:
    if (w < law->vs) {
      mu = law->mu_s - dm * w / law->vs;
      d = -dm / law->vs;
    } else {
      mu = law->mu_k;
      d = 0.0;
    }
    break;
  case FB_SHAPE_GLOWINSKI_ALGEBRAIC: {
    const double q = sqrt(law->vs * law->vs + w * w);
    mu = law->mu_s - dm * w / q;
    d = -dm * law->vs * law->vs / (q * q * q);
    break;
  }
  case FB_SHAPE_LEINE: {
    const double q = 1.0 + w / law->vs;
    mu = law->mu_s / q;
    d = -law->mu_s / (law->vs * q * q);
    break;
  }
  case FB_SHAPE_COULOMB:
  default:
    mu = law->mu_s;
    d = 0.0;
    break;
  }
  if (dmu_dw != NULL)
    *dmu_dw = d;
  return mu;
}

double fb_friction_mu_inf(const fb_friction *law)
{
  if (law == NULL)
    return NAN;
  switch (law->shape) {
  case FB_SHAPE_COULOMB:
    return law->mu_s;
  case FB_SHAPE_LEINE:
    return 0.0;
  default:
    return law->mu_k;
  }
}

int fb_friction_check(const fb_friction *law, const char *owner, fb_err *err)
{
  if (owner == NULL)
    owner = "friction law";
  if (law == NULL)
    return fb_err_set(err, FB_EINVAL, "%s: no friction law (NULL)", owner);
  if (!(law->shape >= 0 && law->shape < FB_SHAPE_COUNT))
    return fb_err_set(err, FB_EINVAL, "%s: unknown friction shape %d", owner, (int)law->shape);
  if (!(isfinite(law->mu_s) && law->mu_s >= 0))
    return fb_err_set(err, FB_EINVAL, "%s: static friction %g must be finite and >= 0", owner,
                      law->mu_s);
  if (law->shape == FB_SHAPE_STRIBECK || law->shape == FB_SHAPE_GLOWINSKI_LINEAR ||
      law->shape == FB_SHAPE_GLOWINSKI_ALGEBRAIC) {
    if (!(isfinite(law->mu_k) && law->mu_k >= 0))
      return fb_err_set(err, FB_EINVAL, "%s: kinetic friction %g must be finite and >= 0", owner,
                        law->mu_k);
    if (law->mu_k > law->mu_s)
      return fb_err_set(err, FB_EINVAL,
                        "%s: kinetic friction Fc (%g) exceeds static friction Fs (%g): need Fc <= Fs",
                        owner, law->mu_k, law->mu_s);
  }
  if (law->shape != FB_SHAPE_COULOMB && !(isfinite(law->vs) && law->vs > 0))
    return fb_err_set(err, FB_EINVAL, "%s: shape velocity scale %g must be finite and > 0", owner,
                      law->vs);
  return FB_OK;
}
