/* normal_hunt_crossley.c — `hunt-crossley`: nonlinear spring with hysteretic damping
 * (Hunt & Crossley 1975; [Xiong2013] §3.2 as prior art):
 *     lambda_n = max(0, k delta^p (1 + chi deltadot)),  delta = -g >= 0,
 * p = 3/2 (Hertz) or 1, chi from the nominal e and the impact velocity v_in stored at
 * contact onset (state s[0]) by one of three laws (Flores, Ambrosio, Claro & Lankarani,
 * "Contact force models for multibody dynamics", 2016):
 *     hunt-crossley       chi = 3 (1 - e) / (2 v_in)
 *     lankarani-nikravesh chi = 3 (1 - e^2) / (4 v_in)
 *     flores              chi = 8 (1 - e) / (5 e v_in)     (e > 0)
 * The clip at 0 is ours (at the end of restitution the bracket can turn negative).  auto: k
 * puts the penetration of an undamped drop at 1 % of the height (energy balance
 * m v_in^2 / 2 = k delta^(p+1) / (p+1)). */
#include <math.h>
#include <stddef.h>

#include "fb_normal_int.h"

typedef struct hunt_crossley_params {
  double k, p, law, e, v_min;
} hunt_crossley_params;

static const char *const hc_laws[] = {"hunt-crossley", "lankarani-nikravesh", "flores", NULL};

static const fb_param_desc hunt_crossley_desc[] = {
    {"k", "N/m^p", "contact stiffness", offsetof(hunt_crossley_params, k), NAN, 0, INFINITY,
     FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "(p+1) m v_in^2 / (2 (0.01 h)^(p+1)): penetration 1 % of the drop height", NULL},
    {"p", "1", "exponent of the penetration (3/2 Hertz, 1 linear)",
     offsetof(hunt_crossley_params, p), 1.5, 1, 2, 0, NULL, NULL},
    {"law", "", "damping law for chi", offsetof(hunt_crossley_params, law), 0, 0, 2,
     FB_PARAM_CHOICE, NULL, hc_laws},
    {"e", "1", "restitution the damping is calibrated for", offsetof(hunt_crossley_params, e),
     NAN, 0, 1, FB_PARAM_AUTO, "the scenario's e", NULL},
    {"v_min", "m/s", "floor of the stored impact velocity in chi (bounds the damping of "
     "micro-impacts, where chi ~ 1/v_in would make the law arbitrarily stiff)",
     offsetof(hunt_crossley_params, v_min), NAN, 0, INFINITY, FB_PARAM_AUTO | FB_PARAM_MIN_OPEN,
     "0.01 sqrt(2 a h), 1 % of the drop's impact velocity", NULL},
};
static const fb_param_set hunt_crossley_set = {sizeof(hunt_crossley_params), 5,
                                               hunt_crossley_desc};

static int hunt_crossley_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  hunt_crossley_params *p = pp;
  if (isnan(p->e))
    p->e = sc->e;
  if (isnan(p->v_min))
    p->v_min = 0.01 * sc->v_in;
  if (isnan(p->k)) {
    const double d = 0.01 * sc->h;
    p->k = (p->p + 1) * sc->m * sc->v_in * sc->v_in / (2 * pow(d, p->p + 1));
  }
  if (p->law == 2 && !(p->e > 0))
    return fb_err_set(err, FB_EINVAL,
                      "hunt-crossley: e = %g with law flores: allowed is 0 < e <= 1 (chi = 8 (1 - "
                      "e) / (5 e v_in))",
                      p->e);
  return FB_OK;
}

static void hunt_crossley_onset(const void *pp, double gd, double *s)
{
  const hunt_crossley_params *p = pp;
  s[0] = fmax(-gd, p->v_min); /* the impact velocity v_in > 0 */
}

static double hunt_crossley_force(const void *pp, double g, double gd, const double *s,
                                  double *ds)
{
  const hunt_crossley_params *p = pp;
  ds[0] = 0.0;
  if (g >= 0)
    return 0.0;
  const double v = fmax(s[0] > 0 ? s[0] : -gd, p->v_min);
  const double e = p->e;
  double chi;
  if (p->law == 0)
    chi = 1.5 * (1 - e) / v;
  else if (p->law == 1)
    chi = 0.75 * (1 - e * e) / v;
  else
    chi = 1.6 * (1 - e) / (e * v);
  const double delta = -g;
  return fmax(0.0, p->k * pow(delta, p->p) * (1 + chi * (-gd)));
}

const fb_normal_type fb_normal_hunt_crossley = {
    .name = "hunt-crossley",
    .title = "Hertzian spring with hysteretic damping chi from e and the impact velocity",
    .reference = "Hunt & Crossley 1975; Lankarani & Nikravesh 1990; Flores et al. 2011",
    .params = &hunt_crossley_set,
    .ns = 1,
    .event = 0,
    .resolve = hunt_crossley_resolve,
    .onset = hunt_crossley_onset,
    .force = hunt_crossley_force,
};
