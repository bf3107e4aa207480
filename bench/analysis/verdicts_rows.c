/* verdicts_rows.c — the verdict table's rows and the small helpers every rule shares
 * (verdicts_int.h).  The bottom of the verdicts: verdicts.c and verdicts_hold.c call it and
 * it calls neither, so the rules' files do not call back into each other. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdicts_int.h"

int vd_push(fb_vtable *v, fb_vrow **out)
{
  if (v->n == v->cap) {
    const size_t cap = v->cap ? 2 * v->cap : 64;
    fb_vrow *r = realloc(v->r, cap * sizeof *r);
    if (r == NULL)
      return FB_ENOMEM;
    v->r = r;
    v->cap = cap;
  }
  *out = &v->r[v->n++];
  memset(*out, 0, sizeof **out);
  (*out)->value = (*out)->value2 = NAN;
  return FB_OK;
}

int vd_add(fb_vtable *v, const vkey *k, const char *property, double value, const char *unit,
               double value2, const char *rule, const char *scen, const char *fmt, ...)
{
  fb_vrow *r;
  if (vd_push(v, &r) != FB_OK)
    return FB_ENOMEM;
  snprintf(r->model, sizeof r->model, "%s", k->model);
  snprintf(r->integrator, sizeof r->integrator, "%s", k->integrator);
  snprintf(r->view, sizeof r->view, "%s", k->view);
  snprintf(r->step, sizeof r->step, "%s", k->step);
  snprintf(r->property, sizeof r->property, "%s", property);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->verdict, sizeof r->verdict, fmt, ap);
  va_end(ap);
  r->value = value;
  snprintf(r->unit, sizeof r->unit, "%s", unit);
  r->value2 = value2;
  snprintf(r->rule, sizeof r->rule, "%s", rule);
  snprintf(r->scenarios, sizeof r->scenarios, "%s", scen);
  return FB_OK;
}

/* Append "name" to a comma-separated list once. */
void vd_list_add(char *buf, size_t len, const char *name)
{
  const size_t nl = strlen(name);
  for (const char *p = buf; (p = strstr(p, name)) != NULL; p += nl)
    if ((p == buf || p[-1] == ' ') && (p[nl] == ',' || p[nl] == '\0'))
      return;
  const size_t used = strlen(buf);
  snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

/* The finer partner of a fixed-step row (same scenario, tag, model, integrator, the next
 * step of the fixed-step group), or NULL. */
const vrun *vd_partner(const vrun *R, size_t n, const vrun *r)
{
  const vrun *best = NULL;
  for (size_t k = 0; k < n; k++) {
    const vrun *c = &R[k];
    if (c != r && streq(c->group, r->group) && streq(c->scenario, r->scenario) &&
        streq(c->tag, r->tag) && streq(c->model, r->model) && streq(c->integrator, r->integrator) &&
        c->h < r->h && (best == NULL || c->h > best->h))
      best = c;
  }
  return best;
}
