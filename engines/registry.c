/* registry.c — every engine fricbench knows (docs/engines.md), built or not.  Adding an
 * engine: one adapter file, one line here (under its FB_HAVE_ macro), one line in
 * engines/meson.build, its tests and its line in docs/engines.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"

#ifdef FB_HAVE_ODE
extern const fb_engine_type fb_engine_ode;
extern const fb_model_type fb_model_ode;
extern const fb_model_suite fb_suite_ode;
#define ODE_ENTRY {"ode", "ODE 0.16 (libode-dev)", &fb_engine_ode, &fb_model_ode, &fb_suite_ode}
#else
#define ODE_ENTRY {"ode", "ODE 0.16 (libode-dev)", NULL, NULL, NULL}
#endif
#ifdef FB_HAVE_BULLET /* engines/engine_bullet.cpp: C++, these objects have C linkage */
extern const fb_engine_type fb_engine_bullet;
extern const fb_model_type fb_model_bullet;
extern const fb_model_suite fb_suite_bullet;
#define BULLET_ENTRY                                                                          \
  {"bullet", "Bullet 3.24 (libbullet-dev)", &fb_engine_bullet, &fb_model_bullet, &fb_suite_bullet}
#else
#define BULLET_ENTRY {"bullet", "Bullet 3.24 (libbullet-dev)", NULL, NULL, NULL}
#endif

#define MUJOCO_LIB "MuJoCo 3.3.8 (npm mujoco-js 0.0.7, run by Debian's nodejs)"
#ifdef FB_HAVE_MUJOCO
extern const fb_engine_type fb_engine_mujoco;
extern const fb_model_type fb_model_mujoco;
extern const fb_model_suite fb_suite_mujoco;
#define MUJOCO_ENTRY {"mujoco", MUJOCO_LIB, &fb_engine_mujoco, &fb_model_mujoco, &fb_suite_mujoco}
#else
#define MUJOCO_ENTRY {"mujoco", MUJOCO_LIB, NULL, NULL, NULL}
#endif

const fb_engine_entry fb_engine_table[] = {
    ODE_ENTRY,
    BULLET_ENTRY,
    MUJOCO_ENTRY,
    {NULL, NULL, NULL, NULL, NULL},
};

/* The catalog (engines/catalog.c) finds engine models by name without listing them among
 * the friction models: NULL-terminated, the compiled engines only. */
const fb_model_type *const fb_engine_models[] = {
#ifdef FB_HAVE_ODE
    &fb_model_ode,
#endif
#ifdef FB_HAVE_BULLET
    &fb_model_bullet,
#endif
#ifdef FB_HAVE_MUJOCO
    &fb_model_mujoco,
#endif
    NULL};
const fb_model_suite *const fb_engine_model_suites[] = {
#ifdef FB_HAVE_ODE
    &fb_suite_ode,
#endif
#ifdef FB_HAVE_BULLET
    &fb_suite_bullet,
#endif
#ifdef FB_HAVE_MUJOCO
    &fb_suite_mujoco,
#endif
    NULL};

const fb_engine_entry *fb_engine_of_model(const fb_model_type *m)
{
  for (const fb_engine_entry *e = fb_engine_table; m != NULL && e->name != NULL; e++)
    if (e->model == m)
      return e;
  return NULL;
}

/* 1 when `name` is a word of the comma-separated list FRICBENCH_ENGINES_OFF: the engine is
 * treated as absent (how a user, and the tests, see the skip without uninstalling it). */
static int switched_off(const char *name)
{
  const char *off = getenv("FRICBENCH_ENGINES_OFF");
  const size_t n = strlen(name);
  for (const char *p = off; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
    p += *p == ',';
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
      return 1;
  }
  return 0;
}

int fb_engine_available(const fb_engine_type *eng, char *buf, size_t len)
{
  if (switched_off(eng->name)) {
    snprintf(buf, len, "switched off by FRICBENCH_ENGINES_OFF");
    return 0;
  }
  return eng->version(buf, len);
}

int fb_engine_present(const fb_engine_entry *e, char *buf, size_t len)
{
  if (e->engine == NULL) {
    snprintf(buf, len, "not built: %s was not found when fricbench was configured",
             e->library);
    return 0;
  }
  return fb_engine_available(e->engine, buf, len);
}

const char *fb_engine_unsupported_why(const fb_engine_entry *e, const char *scenario)
{
  if (e->engine == NULL)
    return "the engine is not built";
  for (const char *const *s = e->engine->scenarios; *s != NULL; s++)
    if (strcmp(*s, scenario) == 0)
      return NULL;
  for (const fb_engine_unsupported *u = e->engine->unsupported; u->scenario != NULL; u++)
    if (strcmp(u->scenario, scenario) == 0)
      return u->why;
  return "not one of the rigid-body scenarios the engine mapping expresses (docs/engines.md §2)";
}
