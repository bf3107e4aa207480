/* plugin_scenario.c — a plugin that brings a scenario (and no model), for test_plugin.c:
 * a block pushed by a constant force below its breakaway, whose exact answer is rest. */
#include <math.h>
#include <stddef.h>

#include <fricbench.h>

typedef struct push_params {
  double m, Fs, f, T;
} push_params;

static const fb_param_desc push_desc[] = {
    {"m", "kg", "mass", offsetof(push_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"Fs", "N", "breakaway force", offsetof(push_params, Fs), 2, 0, INFINITY, 0, NULL, NULL},
    {"f", "N", "constant push", offsetof(push_params, f), 1.5, -INFINITY, INFINITY, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(push_params, T), 1, 0, 1e6, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set push_set = {sizeof(push_params), 4, push_desc};

static void push_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const push_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = p->f;
}

static int push_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const push_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->T = p->T;
  pl->f_c = 1.0 / p->T;
  pl->v_scale = fmax(fabs(p->f), p->Fs) * p->T / p->m;
  pl->force = push_force;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->Fs, p->Fs, 0.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind push_ref_kind(const void *sp)
{
  const push_params *p = sp;
  return fabs(p->f) <= p->Fs ? FB_REF_EXACT : FB_REF_EVENT;
}

static int push_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const push_params *p = sp;
  (void)t;
  if (push_ref_kind(sp) != FB_REF_EXACT)
    return FB_EUNSUP;
  x[0] = 0.0;
  v[0] = 0.0;
  if (F != NULL)
    F[0] = -p->f;
  return FB_OK;
}

static const fb_scenario_type push_scenario = {
    .name = "plugin-push",
    .title = "a block pushed below its breakaway: the exact answer is rest",
    .source = "tests/plugin_scenario.c",
    .params = &push_set,
    .ref_kind = push_ref_kind,
    .build = push_build,
    .exact = push_exact,
};

const int fb_plugin_abi = FB_ABI_VERSION;
const fb_model_type *const fb_plugin_models[] = {NULL};
const fb_scenario_type *const fb_plugin_scenarios[] = {&push_scenario, NULL};
