/* contact_step.c — the per-contact fixed-step kinds of fb_contact_step.h and their
 * registry; here the implicit-Euler relay step of Coulomb's law.
 *
 * Relay: the backward-Euler discretization of the Coulomb inclusion solved in closed form
 * by [Xiong2013]'s Theorem 1 (y in Sgn(z - a y) <=> y = sat(z/a)), as Kikuuwe et al. 2006
 * (IEEE T-RO 22(6)) do, in admittance form (docs/design.md §3, M8).  With the friction
 * force taken at the end of the step, semi-implicit Euler for the contact,
 *     m (v_{k+1} - v_k) / h = f_other + F,   F in -Fs Sgn(v_{k+1} - u),
 * has the unique solution, with w = v_free - u and v_free = v_k + (h/m) f_other,
 *     F = -Fs sat(m w / (h Fs)),   v_{k+1} = v_free + (h/m) F,
 * so |m w / h| <= Fs sticks exactly (v_{k+1} = u, no drift and no chatter at any h) and
 * otherwise slips with |F| = Fs.  A characteristic that weakens with speed uses its level
 * S(|v_k - u|) at the start of the step once sliding (S(0) = Fs decides the breakaway),
 * which keeps the step explicit in S and the slip branch on its side of zero.
 */
#include "fb_contact_step.h"

#include <math.h>
#include <string.h>

#include "fb_util.h"
#include "fb_contact_step_int.h"

static int relay_step(fb_contact_stepper *s, const fb_contact_in *c, const fb_contact_step_in *in)
{
  if (!(in->h > 0.0) || !(in->m > 0.0))
    return FB_EINVAL;
  const double hm = in->h / in->m;
  const double w = in->v + hm * in->f_other - in->u; /* free relative velocity */
  const double Fstick = -w / hm;                     /* the force that makes v_{k+1} = u */
  if (fabs(Fstick) <= c->Fs) {
    s->F = Fstick;
    s->stick = 1;
  } else {
    s->F = -fb_contact_S(c, fabs(in->v - in->u), NULL) * fb_sgn(w);
    s->stick = 0;
  }
  s->v_next = in->v + hm * (in->f_other + s->F);
  if (s->stick)
    s->v_next = in->u; /* exactly, not up to the rounding of the sum above */
  return FB_OK;
}

const fb_contact_step_type fb_contact_step_relay = {
    .name = "relay",
    .title = "implicit-Euler relay step of Coulomb's law (exact stick at any h)",
    .reference = "backward Euler solved by Theorem 1 of Kikuuwe et al. ([Xiong2013]), admittance form",
    .model = NULL,
    .init = NULL,
    .step = relay_step,
};

/* Every step kind.  Adding one: one line here (see fb_contact_step.h). */
const fb_contact_step_type *const fb_contact_step_registry[] = {
    &fb_contact_step_relay,
    &fb_contact_step_kikuuwe_be,
    NULL,
};

const fb_contact_step_type *fb_contact_step_at(size_t i)
{
  const size_t n = sizeof fb_contact_step_registry / sizeof *fb_contact_step_registry - 1;
  return i < n ? fb_contact_step_registry[i] : NULL;
}

const fb_contact_step_type *fb_contact_step_find(const char *name)
{
  if (name == NULL)
    return NULL;
  const fb_contact_step_type *t;
  for (size_t i = 0; (t = fb_contact_step_at(i)) != NULL; i++)
    if (strcmp(t->name, name) == 0)
      return t;
  return NULL;
}

int fb_contact_stepper_init(fb_contact_stepper *s, const fb_contact_step_type *t,
                            const fb_model *m, size_t i, const fb_contact_in *c, double x0,
                            double v0, fb_err *err)
{
  if (s == NULL)
    return fb_err_set(err, FB_EINVAL, "no stepper (NULL)");
  memset(s, 0, sizeof *s);
  if (t == NULL || t->name == NULL || t->step == NULL) /* a host's own kind needs both */
    return fb_err_set(err, FB_EINVAL, "no step kind given, or one without a name or step()");
  if (c == NULL || c->law == NULL)
    return fb_err_set(err, FB_EINVAL, "step '%s': no contact or no friction law (NULL)",
                      t->name);
  if (!isfinite(x0) || !isfinite(v0))
    return fb_err_set(err, FB_EINVAL, "step '%s': x0 = %g and v0 = %g must be finite",
                      t->name, x0, v0);
  if (t->model != NULL) {
    if (m == NULL || m->type == NULL || strcmp(m->type->name, t->model) != 0)
      return fb_err_set(err, FB_EINVAL, "step '%s' needs an instance of model '%s'", t->name,
                        t->model);
    if (i >= m->nc)
      return fb_err_set(err, FB_EINVAL, "step '%s': model '%s' is resolved for %zu contacts, "
                        "not for contact %zu (fb_model_resolve_scales)", t->name, t->model,
                        m->nc, i);
    s->params = fb_model_cparams(m, i);
  }
  s->type = t;
  s->p = x0;
  s->v_next = v0;
  s->stick = 0;
  if (t->init != NULL)
    t->init(s, c, x0, v0);
  return FB_OK;
}

int fb_contact_step(fb_contact_stepper *s, const fb_contact_in *c, const fb_contact_step_in *in)
{
  /* a stepper made by fb_contact_stepper_init has its type; the kinds check h and m */
  if (s == NULL || s->type == NULL || s->type->step == NULL || c == NULL || c->law == NULL ||
      in == NULL || !isfinite(in->h) || !isfinite(in->m) || !isfinite(in->f_other) ||
      !isfinite(in->x) || !isfinite(in->v) || !isfinite(in->u))
    return FB_EINVAL;
  return s->type->step(s, c, in);
}
