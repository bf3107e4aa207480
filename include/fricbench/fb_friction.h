/* fb_friction.h — the friction characteristic S(|v|) shared by every model (docs/design.md §1).
 *
 * S is written as N(t) * mu(w), w = |v_r| >= 0: the contact's normal force N (from the
 * scenario, may vary in time) times a coefficient curve with mu(0) = mu_s (static,
 * breakaway) and mu(inf) = mu_k (kinetic), mu_k <= mu_s.  So Fs = N mu_s, Fc = N mu_k.
 * Shapes (docs/design.md §1):
 *   coulomb              mu = mu_s                               (mu_k ignored, = mu_s)
 *   stribeck             mu = mu_k + (mu_s - mu_k) exp(-(w/vs)^2)          (LuGre)
 *   glowinski-linear     mu = mu_s - (mu_s - mu_k) min(w/vs, 1)   ([Glowinski2004] eq. 3, vs = eps)
 *   glowinski-algebraic  mu = mu_s - (mu_s - mu_k) w / sqrt(vs^2 + w^2)  ([Glowinski2004] eq. 2)
 *   leine                mu = mu_s / (1 + w/vs)              (Leine 1998, delta = 1/vs)
 * Glowinski's gamma (odd extension) is gamma(v) = 1 - mu(|v|)/mu_s, so beta = 1 - mu_k/mu_s.
 */
#ifndef FB_FRICTION_H
#define FB_FRICTION_H

#include "fb_api.h"
#include "fb_status.h"

typedef enum fb_shape {
  FB_SHAPE_COULOMB = 0,
  FB_SHAPE_STRIBECK,
  FB_SHAPE_GLOWINSKI_LINEAR,
  FB_SHAPE_GLOWINSKI_ALGEBRAIC,
  FB_SHAPE_LEINE,
  FB_SHAPE_COUNT
} fb_shape;

/* Names in the order of fb_shape, NULL-terminated (for choice parameters). */
FB_API extern const char *const fb_shape_names[];

typedef struct fb_friction {
  fb_shape shape;
  double mu_s; /* static coefficient, mu(0) (1) */
  double mu_k; /* kinetic coefficient, mu(inf) (1); ignored by coulomb and leine */
  double vs;   /* velocity scale of the shape (m/s): Stribeck vs, Glowinski eps, Leine 1/delta */
} fb_friction;

/* mu(w) for w >= 0; *dmu_dw (if not NULL) receives the derivative (one-sided at kinks). */
FB_API double fb_friction_mu(const fb_friction *law, double w, double *dmu_dw);
/* mu(inf): the kinetic level (mu_s for coulomb, 0 for leine, mu_k otherwise). */
FB_API double fb_friction_mu_inf(const fb_friction *law);
/* Check mu_s >= 0, 0 <= mu_k <= mu_s, vs > 0 where the shape uses it. */
FB_API int fb_friction_check(const fb_friction *law, const char *owner, fb_err *err);

#endif
