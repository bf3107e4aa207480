/* scenario.c — scenario instances. */
#include "fb_scenario.h"
#include "fb_scenarios.h"

#include <stdlib.h>
#include <string.h>

int fb_scenario_init(fb_scenario *s, const fb_scenario_type *type)
{
  if (s == NULL)
    return FB_EINVAL;
  memset(s, 0, sizeof *s);
  if (type == NULL || type->params == NULL || type->build == NULL)
    return FB_EINVAL;
  s->type = type;
  s->params = calloc(1, type->params->size);
  if (s->params == NULL)
    return FB_ENOMEM;
  fb_params_default(type->params, s->params);
  return FB_OK;
}

int fb_scenario_build(fb_scenario *s, fb_err *err)
{
  if (s == NULL || s->type == NULL || s->params == NULL)
    return fb_err_set(err, FB_EINVAL, "scenario instance NULL or not initialised "
                      "(fb_scenario_init)");
  if (s->built) {
    fb_plant_free(&s->plant);
    s->built = 0;
  }
  int st = fb_params_check_all(s->type->params, s->type->name, s->params, err);
  if (st != FB_OK)
    return st;
  st = s->type->build(s->params, &s->plant, err);
  if (st == FB_OK) {
    s->plant.sp = s->params;
    st = fb_plant_finish(&s->plant, s->type->name, err);
  }
  if (st != FB_OK) {
    fb_plant_free(&s->plant);
    return st;
  }
  s->built = 1;
  return FB_OK;
}

void fb_scenario_free(fb_scenario *s)
{
  if (s == NULL)
    return;
  if (s->built)
    fb_plant_free(&s->plant);
  free(s->params);
  memset(s, 0, sizeof *s);
}
