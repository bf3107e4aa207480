/* matrix_build.c — the experiment table's storage: rows added one by one (mx_add, mx_sweep,
 * used by matrix.c and matrix_contact.c), the strings the table owns, and its release. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_suite.h"
#include "matrix_int.h"

fb_experiment *mx_add(builder *b, const char *group, const char *tag, const char *scenario,
                      const fb_model_type *m, const char *integrator, unsigned flags)
{
  if (b->failed)
    return NULL;
  if (b->t->n == b->cap) {
    const size_t cap = b->cap ? 2 * b->cap : 256;
    fb_experiment *e = realloc(b->t->e, cap * sizeof *e);
    if (e == NULL) {
      b->failed = 1;
      return NULL;
    }
    b->t->e = e;
    b->cap = cap;
  }
  fb_experiment *x = &b->t->e[b->t->n++];
  memset(x, 0, sizeof *x);
  x->group = group;
  x->tag = tag;
  x->scenario = scenario;
  x->model = m->name;
  x->integrator = integrator;
  x->sweep = FB_SWEEP_NONE;
  x->h = NAN;
  x->tol = NAN;
  x->flags = flags;
  return x;
}

void mx_sweep(fb_experiment *x, fb_sweep_kind kind, const char *param, const double *v,
              size_t n)
{
  if (x == NULL)
    return;
  x->sweep = kind;
  x->sweep_param = param;
  x->nvalues = n < FB_EXP_MAX_VALUES ? n : FB_EXP_MAX_VALUES;
  memcpy(x->values, v, x->nvalues * sizeof *v);
}

const char *fb_table_strdup(fb_table *t, const char *s)
{
  if (s == NULL)
    return NULL;
  if (t->nstrs == t->capstrs) {
    const size_t cap = t->capstrs ? 2 * t->capstrs : 64;
    char **p = realloc(t->strs, cap * sizeof *p);
    if (p == NULL)
      return NULL;
    t->strs = p;
    t->capstrs = cap;
  }
  char *d = strdup(s);
  if (d != NULL)
    t->strs[t->nstrs++] = d;
  return d;
}

void fb_table_free(fb_table *t)
{
  free(t->e);
  for (size_t i = 0; i < t->nstrs; i++)
    free(t->strs[i]);
  free(t->strs);
  memset(t, 0, sizeof *t);
}
