/* fb_math.h — the small numerical helpers a model or a scenario uses, in-tree or in a plugin
 * (sgn with sgn(0) = 0, saturations and projections onto the friction sets).  Public
 * (include/fricbench/, in fricbench.h) so that a plugin computes exactly what the built-ins
 * do; header-only, nothing is exported. */
#ifndef FB_MATH_H
#define FB_MATH_H

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* sgn with sgn(0) = 0 (docs/design.md §3 M1); NaN propagates as 0 is not returned for NaN. */
static inline double fb_sgn(double v)
{
  return (v > 0.0) - (v < 0.0);
}

/* Saturation onto [-1, 1] ([Xiong2013] Theorem 1). */
static inline double fb_sat(double z)
{
  return z > 1.0 ? 1.0 : (z < -1.0 ? -1.0 : z);
}

/* Clamp onto [-r, r], r >= 0. */
static inline double fb_clamp(double z, double r)
{
  return z > r ? r : (z < -r ? -r : z);
}

/* The 2-D friction sets (docs/design.md §13): the isotropic disc |F| <= S, or the box
 * |F_x|, |F_y| <= S that pyramidal-cone engines use.  Choice names of a `cone` parameter. */
enum fb_cone { FB_CONE_DISC = 0, FB_CONE_BOX = 1, FB_CONE_POLY = 2 };
#define FB_CONE_NAMES_INIT {"disc", "box", NULL}
/* The same with the N-facet cone (docs/models/poly-cone.md): `poly` with `facets` N and
 * `rotation` (rad), for the models that have it. */
#define FB_CONE_NAMES_POLY_INIT {"disc", "box", "poly", NULL}

/* The cone a model runs: `poly` with 4 facets and rotation 0 is the box itself (the same
 * set), and runs the box's per-axis code, so that its results are the box's to the bit. */
static inline int fb_cone_kind(double cone, double facets, double rotation)
{
  if ((int)cone == FB_CONE_POLY && facets == 4.0 && rotation == 0.0)
    return FB_CONE_BOX;
  return (int)cone;
}

/* The regular N-gon circumscribing the disc of radius r (Stewart & Trinkle's polyhedral
 * cone, IJNME 39 (1996), in the plane): facets at distance r with outward normals
 * n_k = (cos phi_k, sin phi_k), phi_k = rotation + 2 pi k / N, vertices at radius
 * r / cos(pi/N) between them.  For a point f, the facet whose normal is nearest in angle is
 * k = round((atan2(f) - rotation) / (2 pi / N)) (n_k . f is largest there), with the
 * normal and tangential coordinates pn = n_k . f, pt = t_k . f, t_k = (-sin, cos) phi_k. */
static inline void fb_poly_facet(const double *f, int N, double rotation, double *n, double *t)
{
  const double da = 2.0 * M_PI / N;
  const double k = floor((atan2(f[1], f[0]) - rotation) / da + 0.5), phi = rotation + k * da;
  n[0] = cos(phi);
  n[1] = sin(phi);
  t[0] = -n[1];
  t[1] = n[0];
}

/* Projection of f[2] onto that N-gon (inradius r >= 0), in place: inside when pn <= r, else
 * onto facet k, its tangential coordinate clamped to the half-facet r tan(pi/N) (beyond it
 * the nearest point is the vertex: the point lies in the vertex's normal cone). */
static inline void fb_poly_clamp(double *f, double r, int N, double rotation)
{
  double n[2], t[2];
  fb_poly_facet(f, N, rotation, n, t);
  const double pn = n[0] * f[0] + n[1] * f[1];
  if (pn <= r)
    return;
  const double half = r * tan(M_PI / N), pt = t[0] * f[0] + t[1] * f[1];
  const double q = pt > half ? half : (pt < -half ? -half : pt);
  f[0] = r * n[0] + q * t[0];
  f[1] = r * n[1] + q * t[1];
}

/* The N-gon's sign (inradius 1): the point of the polygon that maximizes the dissipation
 * u . s (the law's "sgn(u)"): a vertex, of radius 1/cos(pi/N), or the facet's midpoint n_k
 * when u is normal to a facet (as the box's per-axis sgn gives on an axis); 0 at u = 0. */
static inline void fb_poly_sign(const double *u, int N, double rotation, double *s)
{
  if (u[0] == 0.0 && u[1] == 0.0) {
    s[0] = s[1] = 0.0;
    return;
  }
  double n[2], t[2];
  fb_poly_facet(u, N, rotation, n, t);
  const double st = fb_sgn(t[0] * u[0] + t[1] * u[1]) * tan(M_PI / N);
  s[0] = n[0] + st * t[0];
  s[1] = n[1] + st * t[1];
}

/* Vector saturation sat(z) = z / max(1, |z|) onto the unit disc ([Xiong2013] §5.1), in
 * place on z[2]; the box cone saturates each axis. */
static inline void fb_sat2(double *z, int cone)
{
  if (cone == FB_CONE_BOX) {
    z[0] = fb_sat(z[0]);
    z[1] = fb_sat(z[1]);
    return;
  }
  const double r = hypot(z[0], z[1]);
  if (r > 1.0) {
    z[0] /= r;
    z[1] /= r;
  }
}

/* Projection of f[2] onto the disc of radius r >= 0 (or the box [-r, r]^2), in place. */
static inline void fb_clamp2(double *f, double r, int cone)
{
  if (cone == FB_CONE_BOX) {
    f[0] = fb_clamp(f[0], r);
    f[1] = fb_clamp(f[1], r);
    return;
  }
  const double a = hypot(f[0], f[1]);
  if (a > r) {
    const double k = r / a; /* r = 0 gives 0, a = inf is NaN-free since a > r */
    f[0] *= k;
    f[1] *= k;
  }
}

#endif
