/* plugin_normal.c — a test plugin with a normal-contact treatment of its own
 * (docs/design.md §11, §12): an undamped Hertz contact, lambda = k delta^(3/2), which
 * returns all the energy of an impact (effective e = 1 whatever the nominal e).
 * k auto: the stiffness that stops the scenario's impact at a penetration of 1 % of its
 * gap scale, m v_in^2 / 2 = (2/5) k delta^(5/2). */
#include <math.h>
#include <stddef.h>

#include "fb_normal.h"
#include "fricbench.h"

typedef struct hertz_params {
  double k;
} hertz_params;

static const fb_param_desc hertz_desc[] = {
    {"k", "N/m^1.5", "Hertz stiffness", offsetof(hertz_params, k), NAN, 0, INFINITY,
     FB_PARAM_AUTO | FB_PARAM_MIN_OPEN, "5 m v_in^2 / (4 (0.01 h)^2.5)", NULL},
};
static const fb_param_set hertz_set = {sizeof(hertz_params), 1, hertz_desc};

static int hertz_resolve(void *pp, const fb_normal_scale *sc, fb_err *err)
{
  hertz_params *p = pp;
  (void)err;
  if (isnan(p->k))
    p->k = 1.25 * sc->m * sc->v_in * sc->v_in / pow(0.01 * sc->h, 2.5);
  return FB_OK;
}

static double hertz_force(const void *pp, double g, double gd, const double *s, double *ds)
{
  const hertz_params *p = pp;
  (void)gd, (void)s, (void)ds;
  return g < 0 ? p->k * pow(-g, 1.5) : 0.0;
}

static const fb_normal_type hertz_elastic = {
    .name = "hertz-elastic",
    .title = "undamped Hertz contact (test plugin): gives back every impact's energy",
    .reference = "Hertz 1882; tests/plugin_normal.c",
    .params = &hertz_set,
    .resolve = hertz_resolve,
    .force = hertz_force,
};

const int fb_plugin_abi = FB_ABI_VERSION;
const fb_model_type *const fb_plugin_models[] = {NULL};
const fb_normal_type *const fb_plugin_normals[] = {&hertz_elastic, NULL};
