/* fb_penalty.h — the return mapping of the elasto-plastic penalty model
 * ([Engleder2002] §2; docs/design.md §3 M5), exposed so that tests can check it in isolation.
 *
 * The model itself is fb_model_penalty (fb_models.h); its Newmark integrator is
 * listed in the model's `schemes`.  This header adds no state and no allocation.
 */
#ifndef FB_PENALTY_H
#define FB_PENALTY_H

#include "fb_model.h"

/* Result of one return mapping (one contact, one step). */
typedef struct fb_penalty_map {
  double H;      /* H_{n+1}: the corrected spring force (N), |H| <= R0 */
  double F;      /* friction force on the body, clamp(H - dT vr, -R0, R0) (N) */
  double R0;     /* the bound S(|vr|) used (N) */
  double dF_dds; /* consistent tangent dF/d(s_{n+1} - s_n): -cT elastic, 0 plastic (N/m) */
  double dF_dvr; /* dF/dvr: -dT inside the bound, the bound's slope S' sgn on it (N s/m) */
  int plastic;   /* 1 when the corrector acted (|H_trial| >= R0) */
} fb_penalty_map;

/* Elastic predictor / plastic corrector ([Engleder2002] §2):
 *     H_trial = H_n - cT ds,   R0 = S(|vr|),   H = clamp(H_trial, -R0, R0),
 *     F = clamp(H - dT vr, -R0, R0),
 * ds = s_{n+1} - s_n the relative displacement increment, vr the relative velocity at
 * the new time.  The tangents are the semi-smooth (generalized) derivatives used by the
 * Newmark scheme's Newton iteration; at |H_trial| = R0 the plastic branch is taken.
 * Idempotent: mapping H again with ds = 0 at the same vr returns the same H.
 * Returns FB_OK, or FB_EINVAL for cT < 0, dT < 0 or non-finite input. */
int fb_penalty_return_map(double cT, double dT, const fb_contact_in *c, double H_n, double ds,
                     double vr, fb_penalty_map *out);

#endif
