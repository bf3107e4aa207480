/* plugin_bad.c — broken plugins for test_plugin.c, one per build flag:
 *   FB_BAD_ABI        exports an ABI other than FB_ABI_VERSION
 *   FB_BAD_NOMODELS   exports the ABI but no fb_plugin_models
 *   FB_BAD_CLASH      a model named like a built-in ("kikuuwe")
 *   FB_BAD_SEGV       a model whose force segfaults (test_faults.c: no temporaries left) */
#include <stddef.h>

#include <fricbench.h>

typedef struct bad_params {
  double unused_;
} bad_params;

static const fb_param_set bad_set = {sizeof(bad_params), 0, NULL};

static int bad_force(const void *p, const fb_contact_in *c, double vr, const double *z,
                     double *F, double *dz)
{
  (void)p, (void)c, (void)vr, (void)z, (void)dz;
#if defined(FB_BAD_SEGV)
  volatile int *volatile nowhere = NULL; /* volatile: the store may not be proved away */
  *nowhere = 1;
#endif
  *F = 0.0;
  return FB_OK;
}

static const fb_model_type bad_model = {
    .name = FB_BAD_NAME,
    .title = "a plugin model for the error paths",
    .reference = "tests/plugin_bad.c",
    .caps = FB_MODEL_ODE,
    .default_integrator = "rk4",
    .params = &bad_set,
    .force = bad_force,
};

#if defined(FB_BAD_ABI)
const int fb_plugin_abi = FB_ABI_VERSION + 1;
#else
const int fb_plugin_abi = FB_ABI_VERSION;
#endif

#if !defined(FB_BAD_NOMODELS)
const fb_model_type *const fb_plugin_models[] = {&bad_model, NULL};
#else
/* Present but under another name, as a typo would leave it. */
const fb_model_type *const fb_plugin_model[] = {&bad_model, NULL};
#endif
