/* engine_bullet.cpp — Bullet Physics 3.24 (libbullet-dev, its C++ API) as a treatment
 * (docs/engines/bullet.md; the contract: docs/engines.md).
 *
 * One body (a box of half-size 0.1 m, or a sphere) on a static plane z = 0 in a
 * btDiscreteDynamicsWorld with Bullet's sequential-impulse solver
 * (btSequentialImpulseConstraintSolver: projected Gauss-Seidel over the contact rows,
 * solver_iterations sweeps, warm-started: [Catto2005]; the code is [Bullet]'s).  Each step the applied force goes
 * in with applyForce at the height of the box's contact face (a sphere: applyCentralForce),
 * the world advances by stepSimulation(h, 0) (no substeps: the driver's step is the
 * engine's), and the contact forces come back as the manifold points' applied impulses
 * (normal, lateral 1 and 2 along their friction directions) divided by h, summed.
 *
 * Friction: Bullet combines the two bodies' coefficients as their product
 * (btManifoldResult::calculateCombinedFriction): the plane's is 1, the body's mu.  Each
 * contact point has one friction row along the relative sliding velocity of the point
 * (Bullet's default; a second, orthogonal row with friction_directions = 2), each bounded
 * by mu times the point's normal impulse of the current sweep.  Restitution, combined the
 * same way (plane 1, body e), applies above restitution_threshold.
 *
 * C++ stays inside this file: the rest of fricbench sees the engine contract (fb_engine.h)
 * through the extern "C" objects at the end.
 */
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>

#include <btBulletDynamicsCommon.h>
#include <LinearMath/btScalar.h>

extern "C" {
#include "fb_engine.h"
}

namespace {

/* The settings, Bullet's names (btContactSolverInfo, btCollisionObject). */
struct bullet_settings {
  double solver_iterations, split_impulse, split_impulse_threshold, erp, erp2, margin,
      friction_anchor, friction_directions, restitution_threshold, warmstarting_factor, force_point, settle;
};

/* Where the applied force acts on a box (a sphere: always its centre). */
enum { BULLET_FORCE_CENTRE = 0, BULLET_FORCE_FACE = 1 };
const char *const bullet_force_points[] = {"centre", "face", nullptr};

const fb_param_desc bullet_desc[] = {
    {"solver_iterations", "1", "sequential-impulse sweeps per step (btContactSolverInfo "
     "m_numIterations)", offsetof(bullet_settings, solver_iterations), 10, 1, 100000,
     FB_PARAM_INT, nullptr, nullptr},
    {"split_impulse", "1", "1: penetration recovered by a separate pseudo-velocity impulse "
     "(m_splitImpulse) below split_impulse_threshold; 0: by the contact's velocity (Baumgarte)",
     offsetof(bullet_settings, split_impulse), 1, 0, 1, FB_PARAM_INT, nullptr, nullptr},
    {"split_impulse_threshold", "m", "split impulse acts on penetrations deeper than this "
     "(m_splitImpulsePenetrationThreshold, negative: depth; 0: every penetration)",
     offsetof(bullet_settings, split_impulse_threshold), -0.04, -1, 0, 0, nullptr, nullptr},
    {"erp", "1", "error reduction of the contact without split impulse (m_erp)",
     offsetof(bullet_settings, erp), 0.2, 0, 1, 0, nullptr, nullptr},
    {"erp2", "1", "error reduction of the split (pseudo-velocity) impulse (m_erp2)",
     offsetof(bullet_settings, erp2), 0.2, 0, 1, 0, nullptr, nullptr},
    {"margin", "m", "collision margin of the box (setMargin; a sphere's is its radius)",
     offsetof(bullet_settings, margin), 0.04, 0, 0.1, 0, nullptr, nullptr},
    {"friction_anchor", "1", "1: the body's contact points keep their first position "
     "(btCollisionObject::CF_HAS_FRICTION_ANCHOR)", offsetof(bullet_settings, friction_anchor),
     0, 0, 1, FB_PARAM_INT, nullptr, nullptr},
    {"friction_directions", "1", "friction rows per contact point: 1 = Bullet's default (along "
     "the point's sliding velocity), 2 = SOLVER_USE_2_FRICTION_DIRECTIONS",
     offsetof(bullet_settings, friction_directions), 1, 1, 2, FB_PARAM_INT, nullptr, nullptr},
    {"restitution_threshold", "m/s", "approach speed below which restitution is 0 "
     "(m_restitutionVelocityThreshold)", offsetof(bullet_settings, restitution_threshold), 0.2,
     0, 1e3, 0, nullptr, nullptr},
    {"warmstarting_factor", "1", "share of the last step's impulses a point starts its sweeps "
     "with (m_warmstartingFactor)", offsetof(bullet_settings, warmstarting_factor), 0.85, 0, 1,
     0, nullptr, nullptr},
    {"force_point", "", "where the scenario's force acts on the box: centre = applyCentralForce; "
     "face = applyForce at the contact face (a torque the friction rows do not see within "
     "the step: the box slips)", offsetof(bullet_settings, force_point), BULLET_FORCE_CENTRE, 0,
     1, FB_PARAM_CHOICE, nullptr, bullet_force_points},
    {"settle", "s", "settling period at rest before t0 (the contact finds its depth)",
     offsetof(bullet_settings, settle), 0.5, 0, 100, 0, nullptr, nullptr},
};
const fb_param_set bullet_set = {sizeof(bullet_settings),
                                 sizeof bullet_desc / sizeof bullet_desc[0], bullet_desc};

/* One world: Bullet's objects (owned here, freed in reverse order by close). */
struct bullet_world {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher;
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world;
  btStaticPlaneShape plane_shape;
  btRigidBody plane;
  btCollisionShape *shape = nullptr;
  btRigidBody *body = nullptr;
  const fb_engine_case *c;
  const bullet_settings *p;
  double belt_u = 0; /* the ground's surface velocity along x (m/s), for the callback */

  bullet_world(const fb_engine_case *cs)
      : dispatcher(&config), world(&dispatcher, &broadphase, &solver, &config),
        plane_shape(btVector3(0, 0, 1), 0),
        plane(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &plane_shape)), c(cs),
        p(static_cast<const bullet_settings *>(cs->settings))
  {
  }
  ~bullet_world()
  {
    if (body != nullptr)
      world.removeRigidBody(body);
    world.removeRigidBody(&plane);
    delete body;
    delete shape;
  }
  bullet_world(const bullet_world &) = delete;
  bullet_world &operator=(const bullet_world &) = delete;
};

/* The belt (docs/engines.md §2): Bullet takes a surface velocity as the target relative
 * motion of a contact point's friction rows (m_contactMotion1, 2) along lateral friction
 * directions the user fixed and marked initialized; the solver keeps them under
 * SOLVER_ENABLE_FRICTION_DIRECTION_CACHING (btSequentialImpulseConstraintSolver::
 * convertContact).  The narrow phase hands each point it adds or refreshes to the
 * contact-added callback (for bodies flagged CF_CUSTOM_MATERIAL_CALLBACK; ours carries its
 * world as user pointer); the points the manifold keeps from earlier steps are set again
 * before each step (bullet_belt_points), or they would hold the belt's speed of the step
 * they were found at (at rest: 3 of the box's 4 points would hold it still). */
void bullet_belt_point(btManifoldPoint &cp, bool body_is_0, double u)
{
  cp.m_lateralFrictionDir1.setValue(1, 0, 0);
  cp.m_lateralFrictionDir2.setValue(0, 1, 0);
  /* the row drives dir . (v_0 - v_1) to the motion: the body's x velocity to u */
  cp.m_contactMotion1 = static_cast<btScalar>(body_is_0 ? u : -u);
  cp.m_contactMotion2 = 0;
  cp.m_contactPointFlags |= BT_CONTACT_FLAG_LATERAL_FRICTION_INITIALIZED;
}

bool bullet_contact_added(btManifoldPoint &cp, const btCollisionObjectWrapper *w0, int, int,
                          const btCollisionObjectWrapper *w1, int, int)
{
  const btCollisionObject *o0 = w0->getCollisionObject(), *o1 = w1->getCollisionObject();
  const bool body_is_0 = o0->getUserPointer() != nullptr;
  const auto *w = static_cast<const bullet_world *>(body_is_0 ? o0->getUserPointer()
                                                              : o1->getUserPointer());
  if (w != nullptr && w->c->belt)
    bullet_belt_point(cp, body_is_0, w->belt_u);
  return false; /* Bullet ignores the value */
}

/* The kept points take the belt's speed of this step (see above). */
void bullet_belt_points(bullet_world *w)
{
  const int nm = w->dispatcher.getNumManifolds();
  for (int i = 0; i < nm; i++) {
    btPersistentManifold *m = w->dispatcher.getManifoldByIndexInternal(i);
    const bool body_is_0 = m->getBody0() == w->body;
    for (int j = 0; j < m->getNumContacts(); j++)
      bullet_belt_point(m->getContactPoint(j), body_is_0, w->belt_u);
  }
}

void bullet_init_once()
{
  gContactAddedCallback = bullet_contact_added;
}

int bullet_version(char *buf, size_t len)
{
  const int v = btGetVersion(); /* e.g. 324 */
  std::snprintf(buf, len, "%d.%02d (%s precision)", v / 100, v % 100,
                btIsDoublePrecision() ? "double" : "single");
  return 1;
}

/* The body's state and the contact forces of the step just taken (impulses / h). */
void bullet_sample(const bullet_world *w, double h, fb_engine_sample *s)
{
  const btRigidBody *b = w->body;
  const btVector3 &p = b->getCenterOfMassPosition(), &v = b->getLinearVelocity(),
                  &a = b->getAngularVelocity();
  const btQuaternion q = b->getOrientation();
  for (int k = 0; k < 3; k++) {
    s->pos[k] = p[k];
    s->vel[k] = v[k];
    s->angvel[k] = a[k];
  }
  s->quat[0] = q.w(), s->quat[1] = q.x(), s->quat[2] = q.y(), s->quat[3] = q.z();
  btVector3 F(0, 0, 0), M(0, 0, 0);
  size_t nc = 0;
  const int nm = w->dispatcher.getNumManifolds();
  for (int i = 0; i < nm; i++) {
    const btPersistentManifold *m = w->dispatcher.getManifoldByIndexInternal(i);
    const bool body_is_0 = m->getBody0() == b;
    const btScalar sign = body_is_0 ? 1 : -1;
    for (int j = 0; j < m->getNumContacts(); j++) {
      const btManifoldPoint &pt = m->getContactPoint(j);
      if (pt.getAppliedImpulse() == 0 && pt.getDistance() > 0)
        continue; /* a point kept by the manifold but not touching this step */
      /* the solver's rows on body 0: +normal (from B to A), +lateral directions
       * (btSequentialImpulseConstraintSolver: m_contactNormal1 of body A) */
      const btVector3 f = sign / h * (pt.m_normalWorldOnB * pt.m_appliedImpulse +
                                      pt.m_lateralFrictionDir1 * pt.m_appliedImpulseLateral1 +
                                      pt.m_lateralFrictionDir2 * pt.m_appliedImpulseLateral2);
      const btVector3 at = body_is_0 ? pt.getPositionWorldOnA() : pt.getPositionWorldOnB();
      F += f;
      M += (at - p).cross(f);
      nc++;
    }
  }
  s->Ft[0] = F.x(), s->Ft[1] = F.y(), s->Fn = F.z();
  s->Mt[0] = M.x(), s->Mt[1] = M.y(), s->Mt[2] = M.z();
  s->ncontacts = nc;
}

/* The solver's settings (btContactSolverInfo) from ours. */
void bullet_solver_info(bullet_world *w)
{
  const bullet_settings *p = w->p;
  btContactSolverInfo &si = w->world.getSolverInfo();
  si.m_numIterations = static_cast<int>(p->solver_iterations);
  si.m_splitImpulse = p->split_impulse != 0;
  si.m_splitImpulsePenetrationThreshold = p->split_impulse_threshold;
  si.m_erp = p->erp;
  si.m_erp2 = p->erp2;
  si.m_restitutionVelocityThreshold = p->restitution_threshold;
  si.m_warmstartingFactor = p->warmstarting_factor;
  if (p->friction_directions == 2)
    si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
  if (w->c->belt) /* the callback's directions and motions are kept (see above) */
    si.m_solverMode |= SOLVER_ENABLE_FRICTION_DIRECTION_CACHING | SOLVER_USE_2_FRICTION_DIRECTIONS;
}

/* The plane and the body with the case's mass and shape. */
void bullet_build(bullet_world *w)
{
  const fb_engine_case *c = w->c;
  bullet_solver_info(w);
  w->world.setGravity(btVector3(0, 0, -c->gravity));
  /* Bullet multiplies the two bodies' coefficients: the plane carries 1, the body mu, e */
  w->plane.setFriction(1);
  w->plane.setRestitution(1);
  w->world.addRigidBody(&w->plane);
  btVector3 inertia(0, 0, 0);
  if (c->shape == FB_ENGINE_SPHERE) {
    w->shape = new btSphereShape(c->size);
    if (std::isnan(c->inertia))
      w->shape->calculateLocalInertia(c->mass, inertia);
    else
      inertia.setValue(c->inertia, c->inertia, c->inertia);
  } else {
    /* btBoxShape keeps the outer half-extents when the margin changes */
    w->shape = new btBoxShape(btVector3(c->size, c->size, c->half_z));
    w->shape->setMargin(w->p->margin);
    w->shape->calculateLocalInertia(c->mass, inertia);
  }
  btRigidBody::btRigidBodyConstructionInfo ci(c->mass, nullptr, w->shape, inertia);
  ci.m_startWorldTransform.setOrigin(btVector3(c->pos0[0], c->pos0[1], c->pos0[2]));
  ci.m_friction = c->mu;
  ci.m_restitution = c->restitution;
  w->body = new btRigidBody(ci);
  w->body->setActivationState(DISABLE_DEACTIVATION); /* no sleeping: a resting body would be
                                                        frozen, hiding its creep */
  w->body->setUserPointer(w);
  int flags = w->body->getCollisionFlags();
  if (w->p->friction_anchor != 0)
    flags |= btCollisionObject::CF_HAS_FRICTION_ANCHOR;
  if (c->belt)
    flags |= btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK;
  w->body->setCollisionFlags(flags);
  w->world.addRigidBody(w->body);
}

void bullet_close(void *ws)
{
  delete static_cast<bullet_world *>(ws);
}

int bullet_open(void **ws, const fb_engine_case *c, fb_engine_sample *settled, fb_err *err)
{
  static const bool once = (bullet_init_once(), true);
  (void)once;
  bullet_world *w = new (std::nothrow) bullet_world(c);
  if (w == nullptr)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  try {
    bullet_build(w);
  } catch (const std::bad_alloc &) {
    delete w;
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  /* settle at rest: gravity and the contact only, no applied force, no belt */
  const double settle = std::isnan(c->settle) ? w->p->settle : c->settle;
  const double nsettle = std::ceil(settle / c->h - 1e-9);
  for (double k = 0; k < nsettle; k++)
    w->world.stepSimulation(c->h, 0, c->h);
  bullet_sample(w, c->h, settled);
  settled->t = c->t0;
  /* the case's initial state, keeping the settled height and orientation */
  btTransform tr = w->body->getWorldTransform();
  const double z = nsettle > 0 ? tr.getOrigin().z() : c->pos0[2];
  tr.setOrigin(btVector3(c->pos0[0], c->pos0[1], z));
  w->body->setWorldTransform(tr);
  w->body->setInterpolationWorldTransform(tr);
  w->body->setLinearVelocity(
      btVector3(c->vel0[0], c->vel0[1], nsettle > 0 ? 0.0 : c->vel0[2]));
  w->body->setAngularVelocity(btVector3(c->angvel0[0], c->angvel0[1], c->angvel0[2]));
  *ws = w;
  return FB_OK;
}

int bullet_step(void *ws, const fb_engine_input *in, fb_engine_sample *out, fb_counters *cnt,
                fb_err *err)
{
  (void)err;
  bullet_world *w = static_cast<bullet_world *>(ws);
  btRigidBody *b = w->body;
  b->setGravity(btVector3(0, 0, -in->gravity));
  const btVector3 f(in->force[0], in->force[1], in->force[2]);
  /* at the centre (the box's half-height keeps friction from tipping it, docs/engines.md
   * §2), or at the face: Bullet's friction rows take the body's velocity plus the step's
   * force impulse but not its torque impulse (btSequentialImpulseConstraintSolver::
   * setupFrictionConstraint), which the body gets after the solve: the face slips */
  if (w->c->shape == FB_ENGINE_BOX && w->p->force_point == BULLET_FORCE_FACE)
    b->applyForce(f, btVector3(0, 0, -w->c->half_z));
  else
    b->applyCentralForce(f);
  b->applyTorque(btVector3(in->torque[0], in->torque[1], in->torque[2]));
  w->belt_u = in->belt_u;
  if (w->c->belt)
    bullet_belt_points(w);
  w->world.stepSimulation(in->h, 0, in->h);
  cnt->ninner += static_cast<unsigned long>(w->p->solver_iterations);
  bullet_sample(w, in->h, out);
  return FB_OK;
}

const char *const bullet_scenarios[] = {
    "push-hold", "preload-hold", "inclined-block", "drift", "stick-slip", "puck",
    "billiard",  "bouncing-ball", "block-drop", "belt-2d", nullptr};
const fb_engine_unsupported bullet_unsupported[] = {
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
    {nullptr, nullptr},
};

fb_integrator_type bullet_stepper_type()
{
  fb_integrator_type t{};
  t.name = "bullet-si";
  t.title = "Bullet btDiscreteDynamicsWorld::stepSimulation: sequential impulses (PGS), "
            "solver_iterations sweeps";
  t.fixed_ok = 1;
  t.order = 1;
  t.alloc = fb_engine_alloc;
  t.free = fb_engine_free;
  t.reset = fb_engine_reset;
  t.step = fb_engine_step;
  return t;
}

} // namespace

extern "C" {
extern const fb_engine_type fb_engine_bullet;
extern const fb_model_type fb_model_bullet;
extern const fb_model_suite fb_suite_bullet;
}

const fb_engine_type fb_engine_bullet = {
    "bullet",
    "Bullet Physics 3.24: box/sphere on a plane, sequential impulses (PGS), one friction row "
    "per point along its slip",
    "Bullet 3.24 (libbullet-dev)",
    bullet_version,
    bullet_scenarios,
    bullet_unsupported,
    bullet_open,
    bullet_step,
    bullet_close,
    nullptr, /* steps: one at a time */
    nullptr, /* child_cpu_s: in-process */
};

namespace {
const fb_engine_stepper bullet_si = {&fb_engine_bullet, 0};
const fb_integrator_type bullet_si_type = [] {
  fb_integrator_type t = bullet_stepper_type();
  t.data = &bullet_si;
  return t;
}();
const fb_integrator_type *const bullet_schemes[] = {&bullet_si_type, nullptr};
} // namespace

const fb_model_type fb_model_bullet = [] {
  fb_model_type m{};
  m.name = "bullet";
  m.title = "Bullet 3.24 (engine): sequential impulses, mu per contact point";
  m.reference = "[Bullet] Bullet Physics SDK 3.24 (btSequentialImpulseConstraintSolver); "
                "sequential impulses of [Catto2005]";
  m.caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2;
  m.default_integrator = "bullet-si";
  m.params = &bullet_set;
  m.nz = FB_ENGINE_NZ;
  m.z_names = fb_engine_z_names;
  m.output = fb_engine_output;
  m.init = fb_engine_init;
  m.init2 = fb_engine_init2;
  m.schemes = bullet_schemes;
  return m;
}();

const fb_model_suite fb_suite_bullet = [] {
  fb_model_suite s{};
  s.model = "bullet";
  s.color = "#843c39";
  /* hard contacts solved per step by impulses (no regularization of its own): its h -> 0
   * limit is taken to be Coulomb's, the scenario's reference its own */
  s.exact_limit = 1;
  s.expect = "an engine: sequential impulses (PGS) with warm starting, one friction row per "
             "point along its slip";
  return s;
}();
