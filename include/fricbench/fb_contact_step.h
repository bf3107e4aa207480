/* fb_contact_step.h — per-contact fixed-step friction for simulators that embed fricbench
 * (docs/design.md §11).
 *
 * The ODE laws give a force and state rates (fb_model_force) that any integrator can
 * step; the schemes that really stick are steps themselves.  A step kind here advances
 * one contact over one fixed step h from what the host simulator knows at t_k: the
 * contact's effective mass m, every tangential force but friction f_other, its position
 * x, velocity v and the surface velocity u.  It returns the friction force F on the body
 * over the step, a stick flag, and the velocity v_next = v + (h/m)(f_other + F) that the
 * semi-implicit Euler step reaches with that F.  Admittance kinds ("relay") solve for F
 * and v_next together, implicitly; impedance kinds (Kikuuwe's discrete-time friction,
 * kikuuwe-be) compute F from x and v and an internal anchor.  The state lives in a small
 * struct the caller owns; no step allocates.
 *
 * Adding a step kind: one `static int step(...)` and one exported fb_contact_step_type in
 * the model's file (its `model` names the model whose resolved parameters it reads), and
 * one line in fb_contact_step_registry (models/contact_step.c).
 */
#ifndef FB_CONTACT_STEP_H
#define FB_CONTACT_STEP_H

#include "fb_api.h"
#include "fb_model.h"

/* What the host simulator knows of the contact at t_k. */
typedef struct fb_contact_step_in {
  double h;       /* step (s), > 0 */
  double m;       /* effective mass at the contact (kg), > 0 */
  double f_other; /* every tangential force on the body but friction, over the step (N) */
  double x;       /* position of the body at the contact (m) */
  double v;       /* its velocity v_k (m/s) */
  double u;       /* surface velocity (m/s): the relative velocity is v - u */
} fb_contact_step_in;

struct fb_contact_step_type;

/* One contact's step state, owned by the caller (copyable, no pointers to free). */
typedef struct fb_contact_stepper {
  const struct fb_contact_step_type *type;
  const void *params; /* the model's resolved parameters of this contact, or NULL */
  double p;           /* anchor position (m), impedance kinds */
  double z[FB_MAX_Z]; /* further states of a kind */
  double F;           /* friction force on the body over the last step (N) */
  double v_next;      /* v + (h/m)(f_other + F): the velocity at t_{k+1} (m/s) */
  int stick;          /* 1 stick, 0 slip over the last step */
} fb_contact_stepper;

typedef struct fb_contact_step_type {
  const char *name;      /* "relay", ... */
  const char *title;     /* one line */
  const char *reference; /* paper and equation */
  const char *model;     /* model whose resolved parameters step() reads; NULL: none */
  /* Optional: states at t_0 (p = x0 and z = 0 are already set). */
  void (*init)(fb_contact_stepper *s, const fb_contact_in *c, double x0, double v0);
  /* Advance over [t_k, t_k + h]: set s->F, s->stick, s->v_next and the kind's states.
   * FB_OK, or FB_EINVAL for h <= 0 or m <= 0. */
  int (*step)(fb_contact_stepper *s, const fb_contact_in *c, const fb_contact_step_in *in);
} fb_contact_step_type;

/* The kinds by index (NULL past the last) and by name ("relay", "kikuuwe-be"). */
FB_API const fb_contact_step_type *fb_contact_step_at(size_t i);
FB_API const fb_contact_step_type *fb_contact_step_find(const char *name);

/* Prepare s for contact i of model m (resolved; may be NULL for kinds without a model)
 * starting at position x0, velocity v0.  FB_EINVAL when the kind needs a model and m is
 * NULL, of another type or not resolved for contact i. */
FB_API int fb_contact_stepper_init(fb_contact_stepper *s, const fb_contact_step_type *t,
                                   const fb_model *m, size_t i, const fb_contact_in *c,
                                   double x0, double v0, fb_err *err);
/* One step (see fb_contact_step_type.step). */
FB_API int fb_contact_step(fb_contact_stepper *s, const fb_contact_in *c,
                           const fb_contact_step_in *in);

#endif
