/* plugin_check.c — every field of a plugin's models, scenarios and normal treatments
 * checked at load (fb_plugin_check.h), so that a defect is one refused line naming the
 * plugin and the field, not a crash in `list` or a trajectory written outside traj/. */
#include "fb_plugin_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_model_registry.h"
#include "fb_normal_int.h"
#include "fb_params.h"
#include "fb_parse.h"
#include "fb_integrator_int.h"

/* Bounds that no sane table reaches but that keep every loop over a plugin's data finite
 * and the scratch parameter struct of check_alt_sets on the stack. */
#define MAX_PARAMS 64
#define MAX_CHOICES 64
#define MAX_SCHEMES 16
#define TEXT_MAX 2000

/* The first defect found, as the tail of the message (after `plugin P: model "N": `). */
typedef struct defect {
  char msg[FB_ERR_LEN];
} defect;

static int bad(defect *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(defect *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return 1;
}

/* Text from a plugin as it may appear in a message: escaped, cut to one short line. */
typedef struct shown {
  char s[72];
} shown;

static shown show(const char *text)
{
  shown o;
  if (text == NULL)
    snprintf(o.s, sizeof o.s, "(NULL)");
  else
    fb_text_escape(text, o.s, sizeof o.s);
  return o;
}

int fb_plugin_name_ok(const char *name)
{
  if (name == NULL)
    return 0;
  size_t n = 0;
  for (; name[n] != '\0'; n++) {
    const char c = name[n];
    const int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (n == 48 || (!alnum && (n == 0 || (c != '.' && c != '_' && c != '-'))))
      return 0;
  }
  return n > 0;
}

/* Parameter and state-column names: identifiers, since they follow "model." in plan keys
 * and --set, and appear as CSV column names. */
static int ident_ok(const char *s)
{
  if (s == NULL || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
    return 0;
  size_t n = 1;
  for (; s[n] != '\0'; n++) {
    const char c = s[n];
    if (n == 32 || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  return 1;
}

/* One line of printable text (titles, units, docs are printed by `list` and the report). */
static int text_ok(const char *s)
{
  if (s == NULL || *s == '\0')
    return 0;
  for (size_t n = 0; s[n] != '\0'; n++)
    if (n == TEXT_MAX || (unsigned char)s[n] < ' ' || s[n] == 0x7f)
      return 0;
  return 1;
}

static int check_choices(const fb_param_desc *p, defect *d)
{
  if (p->choices == NULL)
    return bad(d, "parameter \"%s\": FB_PARAM_CHOICE without choices", p->name);
  size_t k = 0;
  for (; p->choices[k] != NULL; k++)
    if (k == MAX_CHOICES)
      return bad(d, "parameter \"%s\": choices has more than %d entries or no NULL "
                 "terminator", p->name, MAX_CHOICES);
    else if (!fb_plugin_name_ok(p->choices[k]))
      return bad(d, "parameter \"%s\": choice \"%s\" must match " FB_PLUGIN_NAME_RULE,
                 p->name, show(p->choices[k]).s);
  return k == 0 ? bad(d, "parameter \"%s\": choices is empty", p->name) : 0;
}

static int check_param_row(const fb_param_set *set, size_t i, defect *d)
{
  const fb_param_desc *p = &set->desc[i];
  if (!ident_ok(p->name))
    return bad(d, "params row %zu: name \"%s\" must match [A-Za-z][A-Za-z0-9_]{0,31}", i,
               show(p->name).s);
  for (size_t k = 0; k < i; k++)
    if (strcmp(set->desc[k].name, p->name) == 0)
      return bad(d, "parameter \"%s\" is given twice", p->name);
  if (!text_ok(p->unit) || !text_ok(p->doc))
    return bad(d, "parameter \"%s\": unit and doc must be one line of text each", p->name);
  if (p->offset % sizeof(double) != 0 || p->offset > set->size ||
      set->size - p->offset < sizeof(double))
    return bad(d, "parameter \"%s\": offset %zu is not a double inside the %zu-byte struct "
               "(params.size)", p->name, p->offset, set->size);
  if ((p->flags & ~(unsigned)(FB_PARAM_INT | FB_PARAM_MIN_OPEN | FB_PARAM_MAX_OPEN |
                              FB_PARAM_AUTO | FB_PARAM_CHOICE)) != 0)
    return bad(d, "parameter \"%s\": unknown flags 0x%x", p->name, p->flags);
  if (isnan(p->min) || isnan(p->max) || p->min > p->max)
    return bad(d, "parameter \"%s\": bounds [%g, %g] are not a range", p->name, p->min, p->max);
  if ((p->flags & FB_PARAM_CHOICE) && check_choices(p, d))
    return 1;
  if ((p->flags & FB_PARAM_AUTO) && !text_ok(p->auto_doc))
    return bad(d, "parameter \"%s\": FB_PARAM_AUTO without auto_doc", p->name);
  fb_err why;
  if (fb_param_check(p, "plugin", p->def, &why) != FB_OK)
    return bad(d, "parameter \"%s\": default %g is not finite or not within its own bounds "
               "[%g, %g]", p->name, p->def, p->min, p->max);
  return 0;
}

static int check_params(const fb_param_set *set, defect *d)
{
  if (set == NULL)
    return bad(d, "params is missing (NULL)");
  if (set->n > MAX_PARAMS || set->size > MAX_PARAMS * sizeof(double))
    return bad(d, "params has %zu rows in %zu bytes: at most %d doubles", set->n, set->size,
               MAX_PARAMS);
  if (set->n > 0 && set->desc == NULL)
    return bad(d, "params has %zu rows but desc is NULL", set->n);
  for (size_t i = 0; i < set->n; i++)
    if (check_param_row(set, i, d))
      return 1;
  return 0;
}

/* The columns of a run's CSV are t, x, v, F, the states and stick, each followed by the
 * DOF or contact number when there are several: a state named like another column, or
 * ending in a digit, would give two columns one name. */
static int check_z_names(const fb_model_type *t, defect *d)
{
  if (t->nz > FB_MAX_Z)
    return bad(d, "nz %zu is more than %d", t->nz, FB_MAX_Z);
  if (t->nz > 0 && t->z_names == NULL)
    return bad(d, "z_names is NULL with nz = %zu", t->nz);
  static const char *const taken[] = {"t", "x", "v", "F", "stick"};
  for (size_t k = 0; k < t->nz; k++) {
    const char *z = t->z_names[k];
    if (!ident_ok(z) || (z[strlen(z) - 1] >= '0' && z[strlen(z) - 1] <= '9'))
      return bad(d, "z_names[%zu] \"%s\" must match [A-Za-z][A-Za-z0-9_]{0,31} and not end "
                 "in a digit", k, show(z).s);
    for (size_t j = 0; j < sizeof taken / sizeof taken[0]; j++)
      if (strcmp(z, taken[j]) == 0)
        return bad(d, "z_names[%zu] \"%s\" is already a column of the run's CSV", k, z);
    for (size_t j = 0; j < k; j++)
      if (strcmp(z, t->z_names[j]) == 0)
        return bad(d, "z_names[%zu] \"%s\" is given twice", k, z);
  }
  return 0;
}

/* The model's own schemes: their names reach file names and runs.csv like the model's. */
static int check_schemes(const fb_model_type *t, defect *d)
{
  if ((t->caps & FB_MODEL_OWNED) && t->schemes == NULL)
    return bad(d, "caps has FB_MODEL_OWNED but schemes is NULL");
  if (t->schemes == NULL)
    return 0;
  size_t k = 0;
  for (; t->schemes[k] != NULL; k++) {
    const fb_integrator_type *s = t->schemes[k];
    if (k == MAX_SCHEMES)
      return bad(d, "schemes has more than %d entries or no NULL terminator", MAX_SCHEMES);
    if (!fb_plugin_name_ok(s->name))
      return bad(d, "schemes[%zu] name \"%s\" must match " FB_PLUGIN_NAME_RULE, k,
                 show(s->name).s);
    if (!text_ok(s->title) || s->alloc == NULL || (s->evolve == NULL && s->step == NULL) ||
        s->free == NULL || !(s->fixed_ok || s->adaptive_ok))
      return bad(d, "schemes[%zu] \"%s\" needs a title, alloc, evolve or step, free and a "
                 "fixed or an adaptive step", k, s->name);
  }
  return k == 0 ? bad(d, "schemes is empty (NULL-terminated at once)") : 0;
}

static int check_model_ops(const fb_model_type *t, defect *d)
{
  const unsigned known = FB_MODEL_ODE | FB_MODEL_JAC | FB_MODEL_STICK | FB_MODEL_OWNED |
                         FB_MODEL_NEEDS_FAPP | FB_MODEL_VEC2;
  if ((t->caps & ~known) != 0)
    return bad(d, "caps has unknown bits 0x%x", t->caps & ~known);
  if ((t->caps & FB_MODEL_ODE) && t->force == NULL)
    return bad(d, "caps has FB_MODEL_ODE but force is NULL");
  if ((t->caps & FB_MODEL_JAC) && t->jac == NULL)
    return bad(d, "caps has FB_MODEL_JAC but jac is NULL");
  if (t->force == NULL && t->schemes == NULL)
    return bad(d, "force and schemes are both NULL: nothing can run the model");
  /* fb_model_output reports F through output(), or force() when there is none */
  if (t->force == NULL && t->output == NULL)
    return bad(d, "force and output are both NULL: nothing reports the friction force");
  return check_schemes(t, d);
}

enum need { ANY, FIXED, ADAPTIVE };

/* An integrator named by the model: one it can run (a generic one matching its caps or one
 * of its schemes), able to take the kind of step it is named for.  NULL only if optional. */
static int check_integ(const fb_model_type *t, const char *field, const char *name,
                       enum need need, int optional, defect *d)
{
  if (name == NULL)
    return optional ? 0 : bad(d, "%s is missing (NULL)", field);
  const fb_integrator_type *it = fb_integrator_find(t, name);
  if (it == NULL)
    return bad(d, "%s \"%s\" is not an integrator this model can run", field, show(name).s);
  if (need == FIXED && !it->fixed_ok)
    return bad(d, "%s \"%s\" takes no fixed step", field, name);
  if (need == ADAPTIVE && !it->adaptive_ok)
    return bad(d, "%s \"%s\" takes no tolerance", field, name);
  return 0;
}

/* The science's integrator: the default one and its tolerance. */
static int check_model_integrators(const fb_model_type *t, defect *d)
{
  if (!(isfinite(t->default_tol) && t->default_tol >= 0))
    return bad(d, "default_tol %g must be finite and >= 0", t->default_tol);
  return check_integ(t, "default_integrator", t->default_integrator,
                     t->default_tol > 0 ? ADAPTIVE : FIXED, 0, d);
}

/* The integrators a suite record names, each one model t can run and of the right kind. */
static int check_suite_integrators(const fb_model_type *t, const fb_model_suite *s, defect *d)
{
  if (check_integ(t, "suite.fixed_integrator", s->fixed_integrator, FIXED, 1, d) ||
      check_integ(t, "suite.cost_integrator", s->cost_integrator, ANY, 1, d) ||
      check_integ(t, "suite.grid_integrator", s->grid_integrator, FIXED, 1, d))
    return 1;
  for (size_t k = 0; k < 4 && s->conv[k] != NULL; k++)
    if (check_integ(t, "suite.conv", s->conv[k], FIXED, 0, d))
      return 1;
  for (size_t k = 0; k < 4 && s->wp[k] != NULL; k++)
    if (check_integ(t, "suite.wp", s->wp[k], ADAPTIVE, 0, d))
      return 1;
  for (size_t k = 0; k < 2; k++)
    if (check_integ(t, "suite.own", s->own[k], ADAPTIVE, 1, d))
      return 1;
  for (size_t k = 0; k < 4 && s->expect_fail[k] != NULL; k++)
    if (check_integ(t, "suite.expect_fail", s->expect_fail[k], ANY, 0, d))
      return 1;
  /* the suite's fixed-step runs take fixed_integrator, else the default, else conv[0]
   * (fb_model_fixed_step_integrator) */
  const fb_integrator_type *di = fb_integrator_find(t, t->default_integrator);
  if (s->fixed_integrator == NULL && !di->fixed_ok && s->conv[0] == NULL)
    return bad(d, "suite.fixed_integrator and suite.conv are empty and default_integrator "
               "\"%s\" takes no fixed step: the suite's fixed-step runs have no integrator",
               t->default_integrator);
  return 0;
}

/* suite.alt_sets: NAME=VALUE settings of the model's own parameters, tried on a scratch
 * copy of its defaults so that a bad one is refused now, not in the middle of a suite. */
static int check_alt_sets(const fb_model_type *t, const fb_model_suite *s, defect *d)
{
  if (s->alt_tag == NULL)
    return 0;
  if (!fb_plugin_name_ok(s->alt_tag))
    return bad(d, "suite.alt_tag \"%s\" must match " FB_PLUGIN_NAME_RULE, show(s->alt_tag).s);
  double scratch[MAX_PARAMS];
  fb_params_default(t->params, scratch);
  for (size_t k = 0; k < 5 && s->alt_sets[k] != NULL; k++) {
    char name[64];
    const char *eq = strchr(s->alt_sets[k], '=');
    const size_t len = eq != NULL ? (size_t)(eq - s->alt_sets[k]) : 0;
    fb_err why;
    if (len == 0 || len >= sizeof name)
      return bad(d, "suite.alt_sets[%zu] \"%s\" is not NAME=VALUE", k, show(s->alt_sets[k]).s);
    memcpy(name, s->alt_sets[k], len);
    name[len] = '\0';
    if (fb_params_set(t->params, t->name, scratch, name, eq + 1, &why) != FB_OK)
      return bad(d, "suite.alt_sets[%zu]: %s", k, why.msg);
  }
  return 0;
}

/* A suite record for the already checked model t: its own or the derived one. */
static int check_model_suite(const fb_model_type *t, const fb_model_suite *s, defect *d)
{
  const char *c = s->color;
  if (c != NULL && (strlen(c) != 7 || c[0] != '#' || strspn(c + 1, "0123456789abcdefABCDEF") != 6))
    return bad(d, "suite.color \"%s\" must be #rrggbb", show(c).s);
  if (s->nreg > 8 || (s->nreg > 0 && s->reg_param == NULL))
    return bad(d, "suite.nreg %zu must be at most 8, and 0 without suite.reg_param", s->nreg);
  const fb_param_desc *rp = s->reg_param != NULL ? fb_params_find(t->params, s->reg_param) : NULL;
  if (s->reg_param != NULL && rp == NULL)
    return bad(d, "suite.reg_param \"%s\" is not a parameter of the model", show(s->reg_param).s);
  fb_err why;
  for (size_t k = 0; k < s->nreg; k++)
    if (fb_param_check(rp, t->name, s->reg_values[k], &why) != FB_OK)
      return bad(d, "suite.reg_values[%zu]: %s", k, why.msg);
  const double num[] = {s->cost_h, s->own_tol, s->cost_hint};
  static const char *const num_name[] = {"suite.cost_h", "suite.own_tol", "suite.cost_hint"};
  for (size_t k = 0; k < 3; k++)
    if (!(isfinite(num[k]) && num[k] >= 0))
      return bad(d, "%s %g must be finite and >= 0", num_name[k], num[k]);
  if (s->expect != NULL && !text_ok(s->expect))
    return bad(d, "suite.expect must be one line of text");
  if (s->expect_fail_why != NULL && !text_ok(s->expect_fail_why))
    return bad(d, "suite.expect_fail_why must be one line of text");
  return check_suite_integrators(t, s, d) || check_alt_sets(t, s, d);
}

/* Fields in the order a reader meets them, names and tables before anything that reads
 * them (fb_integrator_find walks the schemes by name). */
static int check_model(const fb_model_type *t, defect *d)
{
  if (!fb_plugin_name_ok(t->name))
    return bad(d, "name must match " FB_PLUGIN_NAME_RULE);
  if (!text_ok(t->title) || !text_ok(t->reference))
    return bad(d, "title and reference must be one line of text each");
  return check_params(t->params, d) || check_z_names(t, d) || check_model_ops(t, d) ||
         check_model_integrators(t, d);
}

static int refuse(fb_err *err, const char *path, const char *kind, const char *name,
                  const defect *d)
{
  char p[256];
  fb_text_escape(path, p, sizeof p);
  return fb_err_set(err, FB_EINVAL, "plugin %s: %s \"%s\": %s", p, kind, show(name).s, d->msg);
}

const fb_model_suite *fb_plugin_suite_for(const char *model, const fb_model_suite *const *ss,
                                          size_t n)
{
  for (size_t k = 0; k < n; k++)
    if (ss[k] != NULL && ss[k]->model != NULL && strcmp(ss[k]->model, model) == 0)
      return ss[k];
  return NULL;
}

/* Every record names one of the plugin's models, once. */
static int check_suite_names(const char *path, const fb_model_type *const *ms, size_t nm,
                             const fb_model_suite *const *ss, size_t ns, fb_err *err)
{
  for (size_t k = 0; k < ns; k++) {
    const char *name = ss[k]->model;
    size_t i = 0;
    while (i < nm && (name == NULL || strcmp(ms[i]->name, name) != 0))
      i++;
    if (i == nm)
      return refuse(err, path, "suite record", name,
                    &(defect){"names no model of this plugin (fb_plugin_models)"});
    for (size_t j = 0; j < k; j++)
      if (strcmp(ss[j]->model, name) == 0)
        return refuse(err, path, "suite record", name, &(defect){"is given twice"});
  }
  return FB_OK;
}

int fb_plugin_check_models(const char *path, const fb_model_type *const *ms, size_t n,
                           const fb_model_suite *const *ss, size_t ns, fb_err *err)
{
  defect d;
  for (size_t i = 0; i < n; i++) {
    const fb_model_type *t = ms[i];
    if (check_model(t, &d))
      return refuse(err, path, "model", t->name, &d);
    if (fb_model_find(t->name) != NULL)
      return refuse(err, path, "model", t->name,
                    &(defect){"name clashes with a model already defined"});
    for (size_t k = 0; k < i; k++)
      if (strcmp(ms[k]->name, t->name) == 0)
        return refuse(err, path, "model", t->name, &(defect){"name is given twice"});
  }
  if (check_suite_names(path, ms, n, ss, ns, err) != FB_OK)
    return FB_EINVAL;
  /* each model's record, its own or the one it would get derived (a check of the
   * derivation too: a model whose science yields no fixed-step integrator is refused) */
  for (size_t i = 0; i < n; i++) {
    const fb_model_suite *s = fb_plugin_suite_for(ms[i]->name, ss, ns);
    fb_model_suite derived;
    if (s == NULL) {
      fb_model_suite_derive(ms[i], 0, &derived);
      s = &derived;
    }
    if (check_model_suite(ms[i], s, &d))
      return refuse(err, path, "model", ms[i]->name, &d);
  }
  return FB_OK;
}

static int check_scenario(const fb_scenario_type *t, defect *d)
{
  if (!fb_plugin_name_ok(t->name))
    return bad(d, "name must match " FB_PLUGIN_NAME_RULE);
  if (!text_ok(t->title) || !text_ok(t->source))
    return bad(d, "title and source must be one line of text each");
  if (t->build == NULL || t->ref_kind == NULL)
    return bad(d, "build and ref_kind are required (NULL)");
  if (check_params(t->params, d))
    return 1;
  /* ref_kind() depends on the parameters; its answer for the defaults catches the usual
   * slip, a closed form claimed without exact() (run_metrics.c guards the other values) */
  double sp[MAX_PARAMS];
  fb_params_default(t->params, sp);
  const fb_ref_kind k = t->ref_kind(sp);
  if (k != FB_REF_NONE && k != FB_REF_EXACT && k != FB_REF_EVENT)
    return bad(d, "ref_kind returns %d for the defaults, not an fb_ref_kind", (int)k);
  if (k == FB_REF_EXACT && t->exact == NULL)
    return bad(d, "ref_kind returns FB_REF_EXACT for the defaults but exact is NULL");
  return 0;
}

int fb_plugin_check_scenarios(const char *path, const fb_scenario_type *const *ss, size_t n,
                              fb_err *err)
{
  defect d;
  for (size_t i = 0; i < n; i++) {
    const fb_scenario_type *t = ss[i];
    if (check_scenario(t, &d))
      return refuse(err, path, "scenario", t->name, &d);
    if (fb_scenario_find(t->name) != NULL)
      return refuse(err, path, "scenario", t->name,
                    &(defect){"name clashes with a scenario already defined"});
    for (size_t k = 0; k < i; k++)
      if (strcmp(ss[k]->name, t->name) == 0)
        return refuse(err, path, "scenario", t->name, &(defect){"name is given twice"});
  }
  return FB_OK;
}

static int check_normal(const fb_normal_type *t, defect *d)
{
  if (!fb_plugin_name_ok(t->name))
    return bad(d, "name must match " FB_PLUGIN_NAME_RULE);
  if (!text_ok(t->title) || !text_ok(t->reference))
    return bad(d, "title and reference must be one line of text each");
  if (check_params(t->params, d))
    return 1;
  fb_err why;
  if (fb_normal_check(t, &why) != FB_OK)
    return bad(d, "%s", why.msg);
  return 0;
}

int fb_plugin_check_normals(const char *path, const fb_normal_type *const *ns, size_t n,
                            fb_err *err)
{
  defect d;
  for (size_t i = 0; i < n; i++) {
    const fb_normal_type *t = ns[i];
    if (check_normal(t, &d))
      return refuse(err, path, "normal treatment", t->name, &d);
    if (fb_normal_find(t->name) != NULL)
      return refuse(err, path, "normal treatment", t->name,
                    &(defect){"name clashes with a normal treatment already defined"});
    for (size_t k = 0; k < i; k++)
      if (strcmp(ns[k]->name, t->name) == 0)
        return refuse(err, path, "normal treatment", t->name, &(defect){"name is given twice"});
  }
  return FB_OK;
}
