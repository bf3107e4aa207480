/* fb_awrejcewicz.h — the `awrejcewicz` scenario's parameters and its stick-slip limit cycle
 * computed on its own ([Xiong2013] §5.3, Example III; docs/scenarios/awrejcewicz.md).
 *
 * Private to scenarios/ and the layers above (the report draws the cycle, the tests check
 * the event-driven reference against it). */
#ifndef FB_AWREJCEWICZ_H
#define FB_AWREJCEWICZ_H

#include <stddef.h>

#include "fb_status.h"

/* The scenario's parameters (scenarios/awrejcewicz.c; units there). */
typedef struct fb_awr_params {
  double m, k1, k3, T0, delta, vb, x0, v0, T;
} fb_awr_params;

/* The limit cycle: the stick segment xdot = vb from x_a to x_b and one slip arc from
 * (x_b, vb) back to (x_a, vb). */
typedef struct fb_awr_cycle {
  double x_b;     /* stick ends: the real root of k1 x + k3 x^3 = T0 (m) */
  double x_a;     /* stick starts: where the slip arc meets xdot = vb again (m) */
  double x_min;   /* smallest x on the arc (m) */
  double x_max;   /* largest x on the arc (just after the release, xdot = 0) (m) */
  double v_min;   /* smallest xdot on the arc (m/s) */
  double t_slip;  /* duration of the slip arc (s) */
  double t_stick; /* duration of the stick segment, (x_b - x_a)/vb (s) */
  double period;  /* t_slip + t_stick (s) */
  /* the sliding equilibrium k1 x_e + k3 x_e^3 = S(vb) and its linearization */
  double x_e;       /* position (m) */
  double omega_e;   /* sqrt((k1 + 3 k3 x_e^2)/m) (rad/s) */
  double damping_e; /* the friction slope T0 delta/(1 + delta vb)^2, negative damping (N s/m) */
} fb_awr_cycle;

/* The real root of k1 x + k3 x^3 = f (k1, k3 >= 0, k1 + k3 > 0) (m). */
double fb_awr_spring_root(double k1, double k3, double f);

/* The limit cycle of parameters p (vb > 0, T0 > 0): the slip arc integrated by GSL's rk8pd
 * at tolerance 1e-13, its end and extremes located by bisection.  When ns > 1, xs[ns] and
 * vs[ns] (either may be NULL) receive the arc at ns equal time steps from (x_b, vb) to
 * (x_a, vb).  FB_EUNSUP when the orbit is not one stick and one slip arc (an arc that ends
 * where the spring force exceeds T0, or none that returns within 1e3 natural periods). */
int fb_awr_cycle_solve(const fb_awr_params *p, double *xs, double *vs, size_t ns,
                       fb_awr_cycle *c, fb_err *err);

#endif
