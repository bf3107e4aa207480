/* engine.c — the glue between the engine contract (fb_engine.h) and the stepper contract
 * (fb_integrator.h): one engine step is one fixed step of the driver fb_drive, which owns
 * the budgets, the forcing breaks and the observer as for every scheme
 * (docs/engines.md).
 *
 * The mapping (docs/engines.md §2) reads the plant, not the scenario's code: one rigid body
 * whose DOFs are the plant's, by role —
 *   x, y    the body's centre on the ground plane (the contact's DOF, the puck's pair);
 *   z       the plant's normal direction when it has one (its gap: centre height minus
 *           the size), else none (the body rests on the plane);
 *   ax, ay  rotation angles about x and y (billiard's spin DOFs), integrated from the
 *           engine's angular velocity.
 * Each step the applied force is the plant's own, f(t, x, v) - D v - K x at the body's
 * state at the start of the step (the scenario's force function and spring law, so every
 * engine sees the same law), as a force at the centre (and a torque on the spin DOFs);
 * a prescribed normal force N(t) becomes gravity N/m along -z, the belt velocity u(t)
 * the ground's surface velocity.  When that force depends on t only (fb_engine_batchable)
 * and the engine takes batches (fb_engine_type.steps), the inputs of the steps up to the
 * next break go to the engine at once and the answers are handed to the driver one step at
 * a time: the same steps, the same results (docs/engines.md §4, "Batched steps").
 * Back come the state and the contact forces: z of every
 * contact holds the engine's friction force along the contact's direction, its normal
 * force, and the stick flag |v_r| <= v_stick (the metrics' own threshold).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"
#include "fb_integrator_int.h"

const char *const fb_engine_z_names[FB_ENGINE_NZ] = {"F_engine", "Fn_engine", "stick_engine"};

/* The body's coordinates: index of the plant DOF of each, -1 for none. */
enum { R_X, R_Y, R_Z, R_AX, R_AY, R_N };

typedef struct engine_ws {
  const fb_engine_type *eng;
  const fb_problem *pb;
  fb_engine_case c;
  void *ews;             /* the adapter's world; NULL until reset */
  long dof[R_N];         /* plant DOF of each role */
  double angle[2];       /* rotation about x, y integrated from the angular velocity (rad) */
  double *f;             /* n: applied force */
  fb_engine_sample s;
  fb_engine_sample settled; /* after the settling period (docs/engines.md §2) */
  fb_impact_stats *stats;    /* normal plants: the contact phases, for the suite's contact
                                metrics (restitution, penetration); NULL: not asked */
  int was_contact;           /* the last step had contact points */
  /* batched steps (fb_engine_batchable; docs/engines.md §4): the inputs sent and the
   * samples answered, served one per step() of the driver; NULL when the run is lock step */
  size_t batch_max;          /* most steps per batch: FB_ENGINE_BATCH_MAX or the env's */
  unsigned long max_steps;   /* the run's step budget: no batch runs past it */
  unsigned long kseg;        /* steps taken in the current segment (the driver's grid) */
  fb_engine_input *bin;      /* batch_max: the batch's inputs */
  fb_engine_sample *bout;    /* batch_max: its samples */
  double *btnew;             /* batch_max: the end of each of its steps */
  size_t bn, bnext;          /* steps in the batch, the next one to hand over */
} engine_ws;

int fb_engine_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                     double *F)
{
  (void)p, (void)c, (void)vr;
  *F = z[0];
  return z[2] != 0.0;
}

/* The states at t0, before the engine's first step has reported a force: the Coulomb force
 * of the initial slip (-mu N along it; 0 and stuck at rest), the prescribed normal force.
 * The engine's own force over the first step replaces them. */
void fb_engine_init(const void *p, const fb_contact_in *c, double vr0, double *z0)
{
  (void)p;
  z0[0] = vr0 > 0 ? -c->Fs : vr0 < 0 ? c->Fs : 0.0;
  z0[1] = c->N;
  z0[2] = vr0 == 0.0;
}

void fb_engine_init2(const void *p, const fb_contact_in *c, const double *vr0, double *z0)
{
  (void)p;
  const double w = hypot(vr0[0], vr0[1]);
  for (int k = 0; k < 2; k++) { /* the x entry's states, then the y entry's */
    z0[k * FB_ENGINE_NZ + 0] = w > 0 ? -c->Fs * vr0[k] / w : 0.0;
    z0[k * FB_ENGINE_NZ + 1] = c->N;
    z0[k * FB_ENGINE_NZ + 2] = w == 0.0;
  }
}

/* 1 when row r (n entries) is the unit row e_j, j into *j. */
static int unit_row(const double *r, size_t n, long *j)
{
  long found = -1;
  for (size_t k = 0; k < n; k++) {
    if (r[k] == 0.0)
      continue;
    if (r[k] != 1.0 || found >= 0)
      return 0;
    found = (long)k;
  }
  *j = found;
  return found >= 0;
}

/* Billiard's rows: u_x = vx - r omega_y, u_y = vy + r omega_x on DOFs (x, y, ax, ay). */
static int rolling_rows(const fb_plant *pl, double *r)
{
  if (pl->n != 4 || pl->nc != 2 || pl->contact[0].Jt == NULL || pl->contact[1].Jt == NULL)
    return 0;
  const double *a = pl->contact[0].Jt, *b = pl->contact[1].Jt;
  *r = b[2];
  return a[0] == 1 && a[1] == 0 && a[2] == 0 && a[3] == -*r && b[0] == 0 && b[1] == 1 &&
         b[3] == 0 && *r > 0;
}

static double diag_mass(const fb_plant *pl, long j)
{
  return pl->M[(size_t)j * pl->n + (size_t)j];
}

/* The plant's roles (see the head of the file), or FB_EUNSUP with what does not map. */
static int map_roles(engine_ws *w, fb_err *err)
{
  const fb_plant *pl = w->pb->plant;
  fb_engine_case *c = &w->c;
  for (int r = 0; r < R_N; r++)
    w->dof[r] = -1;
  if (!pl->M_diagonal)
    return fb_err_set(err, FB_EUNSUP, "engine %s: a coupled mass matrix maps to no single body",
                      w->eng->name);
  c->shape = FB_ENGINE_BOX;
  c->size = FB_ENGINE_BOX_HALF;
  c->inertia = NAN;
  double r;
  if (pl->nn > 0) { /* a normal direction: its DOF is the height */
    if (pl->nn != 1 || !unit_row(pl->normal[0].Jn, pl->n, &w->dof[R_Z]) || pl->nc > 1 ||
        pl->n > 2)
      return fb_err_set(err, FB_EUNSUP, "engine %s: only one vertical normal on a unit row maps "
                        "to a body on a plane", w->eng->name);
    if (pl->n == 2)
      w->dof[R_X] = 1 - w->dof[R_Z];
    if (pl->nc == 1 && (long)pl->contact[0].dof != w->dof[R_X])
      return fb_err_set(err, FB_EUNSUP, "engine %s: the friction contact is not horizontal",
                        w->eng->name);
    if (pl->nc == 0) {
      c->shape = FB_ENGINE_SPHERE;
      c->size = FB_ENGINE_SPHERE_RADIUS;
    }
  } else if (rolling_rows(pl, &r)) {
    w->dof[R_X] = 0, w->dof[R_Y] = 1, w->dof[R_AX] = 2, w->dof[R_AY] = 3;
    c->shape = FB_ENGINE_SPHERE;
    c->size = r;
    c->inertia = diag_mass(pl, 2);
  } else if (pl->n == 2 && pl->nc == 2 && pl->npairs == 1 && !pl->has_jt) {
    w->dof[R_X] = (long)pl->contact[0].dof, w->dof[R_Y] = (long)pl->contact[1].dof;
  } else if (pl->n == 1 && pl->nc == 1 && !pl->has_jt) {
    w->dof[R_X] = 0;
  } else {
    return fb_err_set(err, FB_EUNSUP, "engine %s: the plant (%zu DOFs, %zu contacts) maps to "
                      "no single body on a plane", w->eng->name, pl->n, pl->nc);
  }
  return FB_OK;
}

/* The case from the plant: mass, mu, gravity, belt, initial state (docs/engines.md §2). */
static int map_case(engine_ws *w, fb_err *err)
{
  const fb_plant *pl = w->pb->plant;
  fb_engine_case *c = &w->c;
  int st = map_roles(w, err);
  if (st != FB_OK)
    return st;
  c->mass = diag_mass(pl, w->dof[R_X] >= 0 ? w->dof[R_X] : w->dof[R_Z]);
  c->mu = pl->nc > 0 ? fb_friction_mu_inf(&pl->contact[0].law) : 0.0;
  c->restitution = pl->nn > 0 ? pl->normal[0].e : 0.0;
  fb_contact_state cs = {0, 0, 0};
  if (pl->nc > 0)
    fb_plant_contact_at(pl, 0, pl->t0, &cs);
  c->gravity = pl->nn > 0 ? 0.0 : cs.N / c->mass;
  c->belt = pl->contact_state != NULL || cs.u != 0.0;
  const double *x0 = pl->x0, *v0 = pl->v0;
  memset(c->pos0, 0, sizeof c->pos0);
  memset(c->vel0, 0, sizeof c->vel0);
  memset(c->angvel0, 0, sizeof c->angvel0);
  for (int k = 0; k < 3; k++) {
    const long j = w->dof[R_X + k];
    c->pos0[k] = j >= 0 ? x0[j] : 0.0;
    c->vel0[k] = j >= 0 ? v0[j] : 0.0;
  }
  c->half_z = c->shape == FB_ENGINE_BOX ? c->size / fmax(1.0, 2.0 * c->mu) : c->size;
  c->pos0[2] += c->half_z; /* the centre: half_z above the plane when the gap is 0 */
  for (int k = 0; k < 2; k++) {
    const long j = w->dof[R_AX + k];
    c->angvel0[k] = j >= 0 ? v0[j] : 0.0;
    w->angle[k] = j >= 0 ? x0[j] : 0.0;
  }
  /* a body that starts in the air (a drop) needs no settling */
  if (w->dof[R_Z] >= 0 && x0[w->dof[R_Z]] > 0)
    c->settle = 0.0;
  return FB_OK;
}

int fb_engine_batchable(const fb_plant *pl)
{
  return !pl->force_uses_state && !pl->has_D && !pl->has_K;
}

/* The batch buffers when the engine takes batches and the plant's forcing allows them;
 * FRICBENCH_ENGINE_BATCH=K lowers the batch (1: lock step, how the tests compare). */
static int batch_alloc(engine_ws *w, const fb_int_opts *o, fb_err *err)
{
  w->batch_max = FB_ENGINE_BATCH_MAX;
  const char *e = getenv("FRICBENCH_ENGINE_BATCH");
  if (e != NULL && *e != '\0') {
    char *end;
    const long k = strtol(e, &end, 10);
    if (*end != '\0' || k < 1 || k > FB_ENGINE_BATCH_MAX)
      return fb_err_set(err, FB_EINVAL, "FRICBENCH_ENGINE_BATCH=%s: give an integer from 1 "
                        "(lock step) to %d", e, FB_ENGINE_BATCH_MAX);
    w->batch_max = (size_t)k;
  }
  if (w->eng->steps == NULL || w->batch_max < 2 || !fb_engine_batchable(w->pb->plant)) {
    w->batch_max = 1;
    return FB_OK;
  }
  w->max_steps = o->max_steps;
  w->bin = calloc(w->batch_max, sizeof *w->bin);
  w->bout = calloc(w->batch_max, sizeof *w->bout);
  w->btnew = calloc(w->batch_max, sizeof *w->btnew);
  if (w->bin == NULL || w->bout == NULL || w->btnew == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  return FB_OK;
}

int fb_engine_alloc(void **ws, const fb_integrator_type *type, const fb_problem *pb,
                    const fb_int_opts *o, fb_err *err)
{
  const fb_engine_stepper *es = type->data;
  const fb_engine_type *eng = es->engine;
  char why[160];
  if (!fb_engine_available(eng, why, sizeof why))
    return fb_err_set(err, FB_EUNSUP, "engine %s is absent: %s", eng->name, why);
  if (pb->scenario != NULL) {
    const fb_engine_unsupported *u = eng->unsupported;
    int known = 0;
    for (const char *const *s = eng->scenarios; *s != NULL; s++)
      known |= strcmp(*s, pb->scenario) == 0;
    for (; !known && u->scenario != NULL; u++)
      if (strcmp(u->scenario, pb->scenario) == 0)
        return fb_err_set(err, FB_EUNSUP, "engine %s does not run %s: %s", eng->name,
                          pb->scenario, u->why);
    if (!known)
      return fb_err_set(err, FB_EUNSUP, "engine %s does not run %s: not one of the rigid-body "
                        "scenarios it maps (docs/engines.md §2)", eng->name, pb->scenario);
  }
  if (!isfinite(o->h))
    return fb_err_set(err, FB_EINVAL, "engine %s steps at a fixed step: give --h", eng->name);
  engine_ws *w = calloc(1, sizeof *w);
  double *f = calloc(pb->plant->n, sizeof *f);
  if (w == NULL || f == NULL) {
    free(w);
    free(f);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  w->eng = eng;
  w->pb = pb;
  w->f = f;
  fb_engine_case *c = &w->c;
  c->scenario = pb->scenario;
  c->plant = pb->plant;
  c->settings = pb->model->params;
  c->stepper = es->index;
  c->t0 = pb->plant->t0;
  c->T = pb->plant->T;
  c->h = o->h;
  c->settle = NAN; /* the adapter's setting */
  if (pb->plant->nn > 0)
    w->stats = o->stats;
  int st = map_case(w, err);
  if (st == FB_OK)
    st = batch_alloc(w, o, err);
  if (st != FB_OK) {
    fb_engine_free(w);
    return st;
  }
  *ws = w;
  return FB_OK;
}

/* The engine's own process's CPU so far (0 for an in-process engine). */
double fb_engine_child_cpu_s(void *ws)
{
  engine_ws *w = ws;
  if (w == NULL || w->ews == NULL || w->eng->child_cpu_s == NULL)
    return 0.0;
  return w->eng->child_cpu_s(w->ews);
}

void fb_engine_free(void *ws)
{
  engine_ws *w = ws;
  if (w == NULL)
    return;
  if (w->ews != NULL)
    w->eng->close(w->ews);
  free(w->f);
  free(w->bin);
  free(w->bout);
  free(w->btnew);
  free(w);
}

/* The engine's sample into y: positions, velocities, the contacts' z (see the head). */
static void sample_to_y(engine_ws *w, double dt, double *y)
{
  const fb_plant *pl = w->pb->plant;
  const fb_engine_sample *s = &w->s;
  const size_t n = pl->n;
  double *x = y, *v = y + n, *z = y + 2 * n;
  for (int k = 0; k < 3; k++) {
    const long j = w->dof[R_X + k];
    if (j < 0)
      continue;
    x[j] = s->pos[k] - (k == 2 ? w->c.half_z : 0.0);
    v[j] = s->vel[k];
  }
  for (int k = 0; k < 2; k++) {
    const long j = w->dof[R_AX + k];
    if (j < 0)
      continue;
    w->angle[k] += dt * s->angvel[k]; /* the engine's own (semi-implicit) update */
    x[j] = w->angle[k];
    v[j] = s->angvel[k];
  }
  for (size_t i = 0; i < pl->nc; i++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i, s->t, &cs);
    const double vr = fb_contact_vel(pl, i, v) - cs.u;
    /* contact i's direction: y for the y entry of a pair, else x */
    const int k = pl->contact[i].pair == FB_PAIR_Y ? 1 : 0;
    z[i * FB_ENGINE_NZ + 0] = s->Ft[k];
    z[i * FB_ENGINE_NZ + 1] = s->Fn;
    z[i * FB_ENGINE_NZ + 2] = fabs(vr) <= pl->v_stick ? 1.0 : 0.0;
  }
}

/* A normal plant's contact phases as the contact scheme records them (fb_impact_stats,
 * contact/fb_normal_int.h): a phase starts at a step with contact points and ends at the
 * first step without; its gap rates are those at the start of those steps.  gap0, gdot0:
 * the gap and its rate before the step from t to tnew. */
static void record_impacts(engine_ws *w, double t, double tnew, double gap0, double gdot0,
                           const double *y)
{
  fb_impact_stats *st = w->stats;
  const fb_plant *pl = w->pb->plant;
  const size_t n = pl->n, jz = (size_t)w->dof[R_Z];
  const double gap = y[jz], Fn = w->s.Fn;
  const int contact = w->s.ncontacts > 0;
  if (contact && !w->was_contact) {
    if (st->n < FB_IMPACT_MAX) {
      st->t_in[st->n] = t;
      st->v_in[st->n] = gdot0;
      st->t_out[st->n] = st->v_out[st->n] = NAN;
    }
    st->n++;
  } else if (!contact && w->was_contact && st->n <= FB_IMPACT_MAX) {
    st->t_out[st->n - 1] = t;
    st->v_out[st->n - 1] = gdot0;
    if (st->n == 1 && w->dof[R_X] >= 0)
      st->vt_after_first = y[n + (size_t)w->dof[R_X]];
  }
  w->was_contact = contact;
  st->max_pen = fmax(st->max_pen, -gap);
  if (contact)
    st->min_lambda = fmin(st->min_lambda, Fn);
  st->lam_T = Fn;
  st->work_n += Fn * (gap - gap0); /* int lambda_n gdot dt over the step */
  if (st->n > 0 && isnan(st->t_stop) && w->dof[R_X] >= 0 &&
      fabs(y[n + (size_t)w->dof[R_X]]) <= pl->v_stick)
    st->t_stop = tnew;
  if (tnew >= st->t_watch) { /* the rest window: the load that holds the body, -f_z */
    fb_plant_smooth_force(pl, tnew, y, y + n, w->f);
    st->rest_lam_static = -w->f[jz];
    st->rest_pen = fmax(st->rest_pen, -gap);
    st->rest_gap = fmax(st->rest_gap, gap);
    st->rest_lam_err = fmax(st->rest_lam_err, fabs(Fn - st->rest_lam_static));
  }
}

int fb_engine_reset(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  engine_ws *w = ws;
  (void)cnt;
  w->kseg = 0; /* the driver's grid starts again: t = tseg + k h */
  w->bn = w->bnext = 0; /* a batch never crosses a break */
  if (at->seg > 0)
    return FB_OK; /* a forcing break: the engine's state goes on, only the force jumps */
  if (w->ews != NULL) {
    w->eng->close(w->ews);
    w->ews = NULL;
  }
  (void)y; /* y holds the plant's initial state: the adapter starts the body there */
  w->was_contact = 0;
  return w->eng->open(&w->ews, &w->c, &w->settled, err);
}

/* The input of the step from t to t + dt: the plant's applied force at (t, x, v) of y (the
 * head of the file), gravity, the belt's velocity. */
static void step_input(engine_ws *w, double t, double dt, const double *y, fb_engine_input *in)
{
  const fb_plant *pl = w->pb->plant;
  const size_t n = pl->n;
  *in = (fb_engine_input){.t = t, .h = dt};
  fb_plant_smooth_force(pl, t, y, y + n, w->f);
  for (int k = 0; k < 3; k++)
    in->force[k] = w->dof[R_X + k] >= 0 ? w->f[w->dof[R_X + k]] : 0.0;
  for (int k = 0; k < 2; k++)
    in->torque[k] = w->dof[R_AX + k] >= 0 ? w->f[w->dof[R_AX + k]] : 0.0;
  in->gravity = w->c.gravity;
  if (pl->nc > 0) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, 0, t, &cs);
    in->belt_u = cs.u;
    if (pl->nn == 0)
      in->gravity = cs.N / w->c.mass;
  }
}

/* A new batch from the driver's step `at`: it and the steps the driver will plan after it
 * (integrators/stepper.c, plan_step: t = tseg + k h, the segment's last step landing on
 * t1), up to the segment's end, the batch size and the run's step budget.  The forcing is
 * the state's at the batch's start: it does not depend on the state (fb_engine_batchable). */
static int batch_fill(engine_ws *w, const fb_step_at *at, const double *y,
                      const fb_counters *cnt, fb_err *err)
{
  const double h = w->c.h;
  const unsigned long used = cnt->nsteps + cnt->nrejected;
  size_t kmax = w->batch_max;
  if (w->max_steps > used && w->max_steps - used < kmax)
    kmax = (size_t)(w->max_steps - used);
  double t = at->t, dt = at->dt, tnew = at->tnew;
  int last = at->last;
  unsigned long k = w->kseg;
  size_t nb = 0;
  for (;;) {
    step_input(w, t, dt, y, &w->bin[nb]);
    w->btnew[nb++] = tnew;
    if (last || nb == kmax)
      break;
    t = tnew; /* the driver's next plan */
    k++;
    last = (at->t1 - t) <= h * (1.0 + 1e-9);
    dt = last ? at->t1 - t : h;
    tnew = last ? at->t1 : at->tseg + (double)(k + 1) * h;
  }
  w->bn = nb;
  w->bnext = 0;
  return w->eng->steps(w->ews, w->bin, nb, w->bout, err);
}

/* The engine's answer to the driver's step `at` into w->s: from the batch (a new one when
 * it is used up), or one lock step. */
static int engine_answer(engine_ws *w, const fb_step_at *at, const double *y, fb_counters *cnt,
                         fb_err *err)
{
  if (w->bin == NULL) {
    fb_engine_input in;
    step_input(w, at->t, at->dt, y, &in);
    return w->eng->step(w->ews, &in, &w->s, cnt, err);
  }
  if (w->bnext == w->bn) {
    const int st = batch_fill(w, at, y, cnt, err);
    if (st != FB_OK) {
      w->bn = w->bnext = 0;
      return st;
    }
  }
  const size_t i = w->bnext++;
  if (w->bin[i].t != at->t || w->bin[i].h != at->dt || w->btnew[i] != at->tnew)
    return fb_err_set(err, FB_EUNSUP, "engine %s: the driver planned the step t=%.17g dt=%.17g "
                      "but the batch holds t=%.17g dt=%.17g", w->eng->name, at->t, at->dt,
                      w->bin[i].t, w->bin[i].h);
  w->s = w->bout[i];
  cnt->ninner += w->s.ninner;
  return FB_OK;
}

int fb_engine_step(void *ws, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  engine_ws *w = ws;
  const size_t n = w->pb->plant->n;
  cnt->nfe++;
  const int st = engine_answer(w, at, y, cnt, err);
  if (st != FB_OK)
    return st;
  w->kseg++;
  const long jz = w->dof[R_Z];
  const double gap0 = jz >= 0 ? y[jz] : 0.0, gdot0 = jz >= 0 ? y[n + (size_t)jz] : 0.0;
  w->s.t = at->tnew;
  sample_to_y(w, at->dt, y);
  if (w->stats != NULL)
    record_impacts(w, at->t, at->tnew, gap0, gdot0, y);
  return FB_OK;
}
