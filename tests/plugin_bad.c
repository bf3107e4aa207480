/* plugin_bad.c — broken plugins for test_plugin.c, one per build flag, the model named
 * FB_BAD_NAME unless the flag names it:
 *   FB_BAD_ABI            exports an ABI other than FB_ABI_VERSION
 *   FB_BAD_NOMODELS       exports the ABI but no fb_plugin_models
 *   (FB_BAD_NAME alone)   a bad or clashing name ("kikuuwe", "../../evil", "a,b", "*")
 *   FB_BAD_NEWLINE        a name with a newline in it
 *   FB_BAD_LONG           a name of 3000 characters
 *   FB_BAD_TWICE          two models of the same name
 *   FB_BAD_NODEF          default_integrator NULL
 *   FB_BAD_UNKNOWN_INTEG  default_integrator "rk99"
 *   FB_BAD_NOFORCE        caps FB_MODEL_ODE without force()
 *   FB_BAD_PARAM          a parameter whose default lies outside its own bounds
 *   FB_BAD_ZNAME          a state column named "x"
 *   FB_BAD_SCENARIO       a scenario without build()
 *   FB_BAD_NORMAL         a normal treatment named "../n"
 *   FB_BAD_NOEXACT        a scenario whose ref_kind() claims a closed form without exact()
 *   FB_BAD_SCHEME         a model-owned scheme named "../s"
 *   FB_BAD_COLOR          suite.color that is not #rrggbb (it reaches gnuplot commands)
 *   FB_BAD_PARAMNAME      a parameter named "a=b"
 *   FB_BAD_WP             suite.wp naming an integrator that does not exist
 *   FB_BAD_SUITE_MODEL    a suite record for a model the plugin does not have
 *   FB_BAD_SUITE_INTEG    a suite record whose fixed_integrator does not exist
 *   FB_BAD_SUITE_ABI      suite records under a suite ABI other than FB_SUITE_ABI_VERSION
 *   FB_NO_SUITE           not broken: a valid (frictionless) model without a suite record,
 *                         which runs in the suite with the derived one
 *   FB_BAD_FAILS          a valid model whose force() returns 42, a code of its own
 *   FB_BAD_SEGV           a model whose force segfaults (test_faults.c: no temporaries left) */
#include <math.h>
#include <stddef.h>

#include <fricbench.h>

#include "fb_integrator.h"
#include "fb_normal.h"

typedef struct bad_params {
  double unused_;
} bad_params;

#if defined(FB_BAD_PARAM) || defined(FB_BAD_PARAMNAME)
#if defined(FB_BAD_PARAM)
#define PARAM_NAME "k"
#define PARAM_DEF -1.0
#else
#define PARAM_NAME "a=b"
#define PARAM_DEF 1.0
#endif
static const fb_param_desc bad_desc[] = {
    {PARAM_NAME, "N/m", "a stiffness", offsetof(bad_params, unused_), PARAM_DEF, 0, INFINITY, 0,
     NULL, NULL},
};
static const fb_param_set bad_set = {sizeof(bad_params), 1, bad_desc};
#else
static const fb_param_set bad_set = {sizeof(bad_params), 0, NULL};
#endif

static int bad_force(const void *p, const fb_contact_in *c, double vr, const double *z,
                     double *F, double *dz)
{
  (void)p, (void)c, (void)vr, (void)z, (void)dz;
#if defined(FB_BAD_SEGV)
  volatile int *volatile nowhere = NULL; /* volatile: the store may not be proved away */
  *nowhere = 1;
#endif
  *F = 0.0;
#if defined(FB_BAD_FAILS)
  return 42; /* not a fricbench status: the run must say whose code it is */
#else
  return FB_OK;
#endif
}

#if defined(FB_BAD_NOFORCE)
static int bad_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                      double *F)
{
  return bad_force(p, c, vr, z, F, NULL);
}
#endif

#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
#define X1000 X100 X100 X100 X100 X100 X100 X100 X100 X100 X100

#if defined(FB_BAD_NEWLINE)
#define MODEL_NAME "a\nb"
#elif defined(FB_BAD_LONG)
#define MODEL_NAME X1000 X1000 X1000
#else
#define MODEL_NAME FB_BAD_NAME
#endif

#if defined(FB_BAD_NODEF)
#define DEFAULT_INTEGRATOR NULL
#elif defined(FB_BAD_UNKNOWN_INTEG)
#define DEFAULT_INTEGRATOR "rk99"
#else
#define DEFAULT_INTEGRATOR "rk4"
#endif

#if defined(FB_BAD_ZNAME)
static const char *const bad_z[] = {"x"};
#define NZ 1
#else
static const char *const bad_z[] = {"q"};
#define NZ 0
#endif

#if defined(FB_BAD_SCHEME)
static const fb_integrator_type bad_scheme = {.name = "../s", .title = "a scheme with a path"};
static const fb_integrator_type *const bad_schemes[] = {&bad_scheme, NULL};
#define CAPS (FB_MODEL_ODE | FB_MODEL_OWNED)
#define SCHEMES bad_schemes
#else
#define CAPS FB_MODEL_ODE
#define SCHEMES NULL
#endif

static const fb_model_type bad_model = {
    .name = MODEL_NAME,
    .title = "a plugin model for the error paths",
    .reference = "tests/plugin_bad.c",
    .caps = CAPS,
    .schemes = SCHEMES,
    .default_integrator = DEFAULT_INTEGRATOR,
    .params = &bad_set,
    .nz = NZ,
    .z_names = bad_z,
#if !defined(FB_BAD_NOFORCE)
    .force = bad_force,
#else
    .output = bad_output, /* so that only the missing force() is the defect */
#endif
};

/* Its suite record (fb_plugin_model_suites), for the flags that break one. */
#if defined(FB_BAD_COLOR)
static const fb_model_suite bad_suite = {.model = MODEL_NAME, .color = "red\" lw 9"};
#elif defined(FB_BAD_WP)
static const fb_model_suite bad_suite = {.model = MODEL_NAME, .wp = {"rk4", "rk99", NULL}};
#elif defined(FB_BAD_SUITE_MODEL)
static const fb_model_suite bad_suite = {.model = "no-such-model", .conv = {"rk4", NULL}};
#elif defined(FB_BAD_SUITE_INTEG)
static const fb_model_suite bad_suite = {.model = MODEL_NAME, .fixed_integrator = "rkf99"};
#endif
#if defined(FB_BAD_COLOR) || defined(FB_BAD_WP) || defined(FB_BAD_SUITE_MODEL) || \
    defined(FB_BAD_SUITE_INTEG) || defined(FB_BAD_SUITE_ABI)
#if defined(FB_BAD_SUITE_ABI)
static const fb_model_suite bad_suite = {.model = MODEL_NAME};
const int fb_plugin_suite_abi = FB_SUITE_ABI_VERSION + 1;
#else
const int fb_plugin_suite_abi = FB_SUITE_ABI_VERSION;
#endif
const fb_model_suite *const fb_plugin_model_suites[] = {&bad_suite, NULL};
#endif

#if defined(FB_BAD_ABI)
const int fb_plugin_abi = FB_ABI_VERSION + 1;
#else
const int fb_plugin_abi = FB_ABI_VERSION;
#endif

#if defined(FB_BAD_TWICE)
static const fb_model_type bad_model_again = {
    .name = MODEL_NAME,
    .title = "the same name again",
    .reference = "tests/plugin_bad.c",
    .caps = FB_MODEL_ODE,
    .default_integrator = "rk4",
    .params = &bad_set,
    .force = bad_force,
};
const fb_model_type *const fb_plugin_models[] = {&bad_model, &bad_model_again, NULL};
#elif !defined(FB_BAD_NOMODELS)
const fb_model_type *const fb_plugin_models[] = {&bad_model, NULL};
#else
/* Present but under another name, as a typo would leave it. */
const fb_model_type *const fb_plugin_model[] = {&bad_model, NULL};
#endif

#if defined(FB_BAD_SCENARIO) || defined(FB_BAD_NOEXACT)
static fb_ref_kind bad_ref_kind(const void *sp)
{
  (void)sp;
#if defined(FB_BAD_NOEXACT)
  return FB_REF_EXACT;
#else
  return FB_REF_NONE;
#endif
}

#if defined(FB_BAD_NOEXACT)
static int bad_build(const void *sp, fb_plant *pl, fb_err *err)
{
  (void)sp, (void)pl;
  return fb_err_set(err, FB_EUNSUP, "not built");
}
#endif

static const fb_scenario_type bad_scenario = {
#if defined(FB_BAD_NOEXACT)
    .name = "noexact",
    .title = "a scenario that claims a closed form it does not give",
    .build = bad_build,
#else
    .name = "nobuild",
    .title = "a scenario without build()",
#endif
    .source = "tests/plugin_bad.c",
    .params = &bad_set,
    .ref_kind = bad_ref_kind,
};
const fb_scenario_type *const fb_plugin_scenarios[] = {&bad_scenario, NULL};
#endif

#if defined(FB_BAD_NORMAL)
static double bad_normal_force(const void *p, double g, double gd, const double *s, double *ds)
{
  (void)p, (void)gd, (void)s, (void)ds;
  return g < 0 ? -1e6 * g : 0.0;
}

static const fb_normal_type bad_normal = {
    .name = "../n",
    .title = "a normal treatment with a path for a name",
    .reference = "tests/plugin_bad.c",
    .params = &bad_set,
    .force = bad_normal_force,
};
const fb_normal_type *const fb_plugin_normals[] = {&bad_normal, NULL};
#endif
