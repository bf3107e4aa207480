/* engine_ode.c — the Open Dynamics Engine 0.16 (libode-dev, its C API) as a treatment
 * (docs/engines.md §3).
 *
 * One body (a box of half-size 0.1 m, or a sphere) on the static plane z = 0; each step
 * dCollide finds the contact points (up to ODE_MAX_CONTACTS), each becomes a contact
 * joint with the surface parameters below, the applied force goes in with
 * dBodyAddForce/dBodyAddTorque, and the world advances by dWorldStep (`ode-step`: the
 * direct LCP solve, [ODE]) or dWorldQuickStep
 * (`ode-quickstep`: projected Gauss-Seidel with quickstep_iterations sweeps).  The contact
 * forces come back through dJointFeedback (f1: the force on the body), summed over points.
 *
 * Friction ([ODE] §7.3 Contact): mu is the Coulomb coefficient only with the pyramid
 * approximation dContactApprox1 (the bound of each of the two friction directions is
 * mu times the normal force of the step) — our default, `approx=pyramid`.  Without it
 * (`approx=none`, ODE's own default) ODE reads mu as a force bound in newtons, whatever
 * the load: the classic trap, kept as a setting so that the suite shows what it does.
 * The two friction directions are ODE's (dPlaneSpace of the normal: the world x and y
 * for a horizontal plane) unless a belt needs the first along x (dContactFDir1 with the
 * surface velocity dContactMotion1).  Restitution: dContactBounce with the scenario's e.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "fb_engine.h"

/* Contact points per step: 4 for a box on its face, 1 for a sphere. */
#define ODE_MAX_CONTACTS 8

enum { ODE_APPROX_PYRAMID = 0, ODE_APPROX_NONE = 1 };
static const char *const ode_approx_names[] = {"pyramid", "none", NULL};

typedef struct ode_settings {
  double erp, cfm, soft_erp, soft_cfm, approx, quickstep_iterations, settle, bounce_vel;
} ode_settings;

static const fb_param_desc ode_desc[] = {
    {"erp", "1", "world error reduction parameter (dWorldSetERP)", offsetof(ode_settings, erp),
     NAN, 0, 1, FB_PARAM_AUTO, "ODE's default (0.2)", NULL},
    {"cfm", "1", "world constraint force mixing (dWorldSetCFM)", offsetof(ode_settings, cfm), NAN,
     0, 1, FB_PARAM_AUTO, "ODE's default (1e-10 in double precision)", NULL},
    {"soft_erp", "1", "contact ERP (dContactSoftERP)", offsetof(ode_settings, soft_erp), NAN, 0, 1,
     FB_PARAM_AUTO, "not set: the world's ERP", NULL},
    {"soft_cfm", "1", "contact CFM (dContactSoftCFM)", offsetof(ode_settings, soft_cfm), NAN, 0, 1,
     FB_PARAM_AUTO, "not set: the world's CFM", NULL},
    {"approx", "", "friction: pyramid = dContactApprox1, mu a Coulomb coefficient; none = ODE's "
     "default, mu a force bound in newtons (the classic trap)",
     offsetof(ode_settings, approx), ODE_APPROX_PYRAMID, 0, 1, FB_PARAM_CHOICE, NULL,
     ode_approx_names},
    {"quickstep_iterations", "1", "PGS sweeps of ode-quickstep (dWorldSetQuickStepNumIterations)",
     offsetof(ode_settings, quickstep_iterations), 20, 1, 100000, FB_PARAM_INT, NULL, NULL},
    {"settle", "s", "settling period at rest before t0 (the contact finds its depth)",
     offsetof(ode_settings, settle), 0.5, 0, 100, 0, NULL, NULL},
    {"bounce_vel", "m/s", "smallest impact speed that bounces (dContact bounce_vel)",
     offsetof(ode_settings, bounce_vel), 1e-3, 0, INFINITY, 0, NULL, NULL},
};
static const fb_param_set ode_set = {sizeof(ode_settings), 8, ode_desc};

typedef struct ode_ws {
  dWorldID world;
  dBodyID body;
  dGeomID geom, plane;
  dJointGroupID group;
  dThreadingImplementationID threading; /* the world's own: ODE's default one is shared by
                                           every world and not safe across the suite's
                                           worker threads */
  const fb_engine_case *c;
  const ode_settings *p;
  dJointFeedback fb[ODE_MAX_CONTACTS];
  dContact contact[ODE_MAX_CONTACTS];
  double belt_u;
  unsigned long seed; /* this world's dRand state (starts at 0 for every run) */
} ode_ws;

static pthread_once_t ode_once = PTHREAD_ONCE_INIT; /* dInitODE2 once per process */
/* dWorldQuickStep reorders its constraints at random with ODE's one process-wide generator
 * (dRandInt, quickstep.cpp RANDOMLY_REORDER_CONSTRAINTS): so that a run replays to the bit
 * whatever else runs beside it (resume, --jobs), each world keeps its own seed, swapped in
 * around its step under this lock. */
static pthread_mutex_t ode_rand_lock = PTHREAD_MUTEX_INITIALIZER;

/* ODE's messages (its LCP solver's "LCP internal error, s <= 0" when a pivot is at
 * round-off) go nowhere: they are not failures (the step completes) and would interleave
 * with the suite's output; errors and debug traps keep ODE's own handlers. */
static void ode_quiet(int num, const char *msg, va_list ap)
{
  (void)num, (void)msg, (void)ap;
}

static void ode_init_once(void)
{
  dInitODE2(0);
  dSetMessageHandler(ode_quiet);
}

static int ode_version(char *buf, size_t len)
{
  pthread_once(&ode_once, ode_init_once);
  /* ODE has no version call: the one pkg-config gave at build time, and the precision of
   * the library loaded (its configuration) */
  const int dbl = dCheckConfiguration("ODE_double_precision");
  snprintf(buf, len, "%s (%s precision)", FB_ODE_VERSION, dbl ? "double" : "single");
  return 1;
}

static void ode_sample(const ode_ws *w, size_t nc, fb_engine_sample *s)
{
  const dReal *p = dBodyGetPosition(w->body), *v = dBodyGetLinearVel(w->body);
  const dReal *q = dBodyGetQuaternion(w->body), *a = dBodyGetAngularVel(w->body);
  for (int k = 0; k < 3; k++) {
    s->pos[k] = p[k];
    s->vel[k] = v[k];
    s->angvel[k] = a[k];
  }
  for (int k = 0; k < 4; k++)
    s->quat[k] = q[k];
  s->Fn = s->Ft[0] = s->Ft[1] = 0;
  s->Mt[0] = s->Mt[1] = s->Mt[2] = 0;
  for (size_t i = 0; i < nc; i++) {
    s->Ft[0] += w->fb[i].f1[0];
    s->Ft[1] += w->fb[i].f1[1];
    s->Fn += w->fb[i].f1[2];
    for (int k = 0; k < 3; k++)
      s->Mt[k] += w->fb[i].t1[k];
  }
  s->ncontacts = nc;
}

/* The contact joints of this step: dCollide, then the surface parameters (see the head). */
static size_t ode_contacts(ode_ws *w)
{
  const ode_settings *p = w->p;
  const int n = dCollide(w->geom, w->plane, ODE_MAX_CONTACTS, &w->contact[0].geom,
                         (int)sizeof(dContact));
  for (int i = 0; i < n; i++) {
    dContact *ct = &w->contact[i];
    dSurfaceParameters *sf = &ct->surface;
    memset(sf, 0, sizeof *sf);
    sf->mu = w->c->mu;
    if (p->approx == ODE_APPROX_PYRAMID)
      sf->mode |= dContactApprox1;
    if (!isnan(p->soft_erp)) {
      sf->mode |= dContactSoftERP;
      sf->soft_erp = p->soft_erp;
    }
    if (!isnan(p->soft_cfm)) {
      sf->mode |= dContactSoftCFM;
      sf->soft_cfm = p->soft_cfm;
    }
    if (w->c->restitution > 0) {
      sf->mode |= dContactBounce;
      sf->bounce = w->c->restitution;
      sf->bounce_vel = p->bounce_vel;
    }
    if (w->c->belt) { /* the ground moves along x: friction direction 1 along x */
      sf->mode |= dContactFDir1 | dContactMotion1;
      ct->fdir1[0] = 1, ct->fdir1[1] = 0, ct->fdir1[2] = 0;
      sf->motion1 = w->belt_u;
    }
    dJointID j = dJointCreateContact(w->world, w->group, ct);
    dJointAttach(j, w->body, 0);
    dJointSetFeedback(j, &w->fb[i]);
  }
  return (size_t)n;
}

static int ode_advance(ode_ws *w, double h, size_t *nc, fb_err *err)
{
  *nc = ode_contacts(w);
  pthread_mutex_lock(&ode_rand_lock);
  dRandSetSeed(w->seed);
  const int ok = w->c->stepper == 0 ? dWorldStep(w->world, h) : dWorldQuickStep(w->world, h);
  w->seed = dRandGetSeed();
  pthread_mutex_unlock(&ode_rand_lock);
  if (!ok) {
    dJointGroupEmpty(w->group);
    return fb_err_set(err, FB_EUNSUP, "ODE: %s failed (out of memory in its step)",
                      w->c->stepper == 0 ? "dWorldStep" : "dWorldQuickStep");
  }
  return FB_OK;
}

static void ode_close(void *ws)
{
  ode_ws *w = ws;
  if (w == NULL)
    return;
  if (w->group)
    dJointGroupDestroy(w->group);
  if (w->geom)
    dGeomDestroy(w->geom);
  if (w->plane)
    dGeomDestroy(w->plane);
  if (w->world)
    dWorldDestroy(w->world); /* destroys the body */
  if (w->threading)
    dThreadingFreeImplementation(w->threading);
  free(w);
}

/* The world, the plane and the body with the case's mass and shape. */
static void ode_build(ode_ws *w)
{
  const fb_engine_case *c = w->c;
  const ode_settings *p = w->p;
  w->world = dWorldCreate();
  w->threading = dThreadingAllocateSelfThreadedImplementation();
  dWorldSetStepThreadingImplementation(w->world, dThreadingImplementationGetFunctions(w->threading),
                                       w->threading);
  dWorldSetGravity(w->world, 0, 0, -c->gravity);
  if (!isnan(p->erp))
    dWorldSetERP(w->world, p->erp);
  if (!isnan(p->cfm))
    dWorldSetCFM(w->world, p->cfm);
  dWorldSetQuickStepNumIterations(w->world, (int)p->quickstep_iterations);
  w->group = dJointGroupCreate(0);
  w->plane = dCreatePlane(0, 0, 0, 1, 0);
  w->body = dBodyCreate(w->world);
  dMass ms;
  if (c->shape == FB_ENGINE_SPHERE) {
    dMassSetSphereTotal(&ms, c->mass, c->size);
    if (!isnan(c->inertia))
      ms.I[0] = ms.I[5] = ms.I[10] = c->inertia;
    w->geom = dCreateSphere(0, c->size);
  } else {
    const double a = 2 * c->size, b = 2 * c->half_z;
    dMassSetBoxTotal(&ms, c->mass, a, a, b);
    w->geom = dCreateBox(0, a, a, b);
  }
  dBodySetMass(w->body, &ms);
  dGeomSetBody(w->geom, w->body);
  dBodySetPosition(w->body, c->pos0[0], c->pos0[1], c->pos0[2]);
}

static int ode_open(void **ws, const fb_engine_case *c, fb_engine_sample *settled, fb_err *err)
{
  pthread_once(&ode_once, ode_init_once);
  dAllocateODEDataForThread(dAllocateMaskAll); /* this thread's collision data (idempotent) */
  ode_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->c = c;
  w->p = c->settings;
  ode_build(w);
  /* settle at rest: gravity and the contact only, no applied force, no belt */
  const double settle = isnan(c->settle) ? w->p->settle : c->settle;
  const double nsettle = ceil(settle / c->h - 1e-9);
  size_t nc = 0;
  for (double k = 0; k < nsettle; k++) {
    int st = ode_advance(w, c->h, &nc, err);
    dJointGroupEmpty(w->group);
    if (st != FB_OK) {
      ode_close(w);
      return st;
    }
  }
  ode_sample(w, nc, settled);
  settled->t = c->t0;
  /* the case's initial state, keeping the settled height and orientation */
  const dReal *p = dBodyGetPosition(w->body);
  const double z = nsettle > 0 ? p[2] : c->pos0[2];
  dBodySetPosition(w->body, c->pos0[0], c->pos0[1], z);
  dBodySetLinearVel(w->body, c->vel0[0], c->vel0[1], nsettle > 0 ? 0.0 : c->vel0[2]);
  dBodySetAngularVel(w->body, c->angvel0[0], c->angvel0[1], c->angvel0[2]);
  *ws = w;
  return FB_OK;
}

static int ode_step(void *ws, const fb_engine_input *in, fb_engine_sample *out, fb_counters *cnt,
                    fb_err *err)
{
  ode_ws *w = ws;
  dWorldSetGravity(w->world, 0, 0, -in->gravity);
  /* a box takes the force at the height of its contact face, a sphere at its centre */
  const double below = w->c->shape == FB_ENGINE_BOX ? -w->c->half_z : 0.0;
  dBodyAddForceAtRelPos(w->body, in->force[0], in->force[1], in->force[2], 0, 0, below);
  dBodyAddTorque(w->body, in->torque[0], in->torque[1], in->torque[2]);
  w->belt_u = in->belt_u;
  size_t nc;
  const int st = ode_advance(w, in->h, &nc, err);
  if (st != FB_OK)
    return st;
  if (w->c->stepper == 1)
    cnt->ninner += (unsigned long)w->p->quickstep_iterations;
  ode_sample(w, nc, out);
  dJointGroupEmpty(w->group);
  return FB_OK;
}

static const char *const ode_scenarios[] = {
    "push-hold", "preload-hold", "inclined-block", "drift", "stick-slip", "puck",
    "billiard",  "bouncing-ball", "block-drop", "belt-2d", NULL};
static const fb_engine_unsupported ode_unsupported[] = {
    {"coupled-sledges", "two bodies coupled by a spring: the mapping has one body"},
    {"two-mass-drive", "two bodies and a drive spring: the mapping has one body"},
    {"glowinski-2dof", "a coupled mass matrix: no single rigid body"},
    {"glowinski-3dof", "three bodies on one contact each: the mapping has one body"},
    {"glowinski-tp1", "friction without a normal force (c sgn w, a pure multiplier law)"},
    {"glowinski-tp2", "friction without a normal force (c sgn w, a pure multiplier law)"},
    {"belt-oscillator", "Leine's friction curve falls to mu = 0 with the slip: an engine's mu "
     "is one constant"},
    {"impact-oscillator", "the stop is a wall beside the mass: the mapping has only the "
     "ground plane"},
    {NULL, NULL},
};

const fb_engine_type fb_engine_ode = {
    .name = "ode",
    .title = "Open Dynamics Engine 0.16: box/sphere on a plane, contact joints, LCP or PGS",
    .library = "ODE 0.16 (libode-dev)",
    .version = ode_version,
    .scenarios = ode_scenarios,
    .unsupported = ode_unsupported,
    .open = ode_open,
    .step = ode_step,
    .close = ode_close,
};

static const fb_integrator_type ode_step_type =
    FB_ENGINE_STEPPER("ode-step", "ODE dWorldStep: the direct (Dantzig LCP) solve", fb_engine_ode,
                      0);
static const fb_integrator_type ode_quickstep_type = FB_ENGINE_STEPPER(
    "ode-quickstep", "ODE dWorldQuickStep: projected Gauss-Seidel, quickstep_iterations sweeps",
    fb_engine_ode, 1);
static const fb_integrator_type *const ode_schemes[] = {&ode_step_type, &ode_quickstep_type,
                                                        NULL};

const fb_model_type fb_model_ode =
    FB_ENGINE_MODEL("ode", "ODE 0.16 (engine): contact joints, mu per contact, LCP or PGS",
                    "[ODE] Smith, Open Dynamics Engine v0.5 User Guide (2006) §7.3 Contact; "
                    "time stepping of [StewartTrinkle1996]",
                    &ode_set, ode_schemes, "ode-quickstep");

const fb_model_suite fb_suite_ode = {
    .model = "ode",
    .color = "#637939",
    /* hard contact constraints solved per step (an LCP, [StewartTrinkle1996]): no
     * regularization of its own, so its h -> 0 limit is taken to be Coulomb's and the
     * scenario's reference is its own (no refined engine run per experiment) */
    .exact_limit = 1,
    .expect = "an engine: contact joints with ERP/CFM, mu per friction direction (pyramid)",
};
