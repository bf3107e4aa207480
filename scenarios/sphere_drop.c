/* sphere_drop.c — a sphere with spin dropped onto a rough plane: it bounces, slips, then rolls
 * ([Xiong2013] §5.1, Example I, fig. 7; docs/scenarios/sphere-drop.md).
 *
 * Uniform sphere of radius r, mass m, I0 = 2/5 m r^2 over the plane z = 0.  Velocities
 * nu = (v, omega) (omega in the space frame), M = diag(m, m, m, I0, I0, I0), f = (0, 0, -m g,
 * 0, 0, 0).  Positions q = (x, Q): x = (p, theta) with theta' = omega (the time integral of
 * the spin, a bookkeeping coordinate with a closed form) and the attitude Q, a unit
 * quaternion with Q' = 1/2 (0, omega) (x) Q (the plant's kinematic map, fb_kinematics).
 * One contact: gap g_n = z - r, J_n = [0 0 1 | 0 0 0], slip u = J_t nu with
 *     J_t = [[1 0 0 | 0 -r 0], [0 1 0 | r 0 0]],   u = (vx - r wy, vy + r wx),
 * isotropic Coulomb friction mu lambda_n (a 2-D contact, docs/design.md §13), Newton's law
 * with restitution e at impacts (§12).  No rolling or drilling resistance: wz is constant.
 *
 * Closed form (Newton's law with the Coulomb impulse, docs/scenarios/sphere-drop.md): the
 * Delassus matrix W = diag(7/(2m), 7/(2m), 1/m) is diagonal, so the normal motion is the
 * bouncing ball's: v1 = sqrt(vz0^2 + 2 g h0), first impact at t1 = (vz0 + v1)/g, impact k
 * delivers P_k = m (1 + e) e^k v1, accumulation at t_inf = t1 + 2 e v1/(g (1 - e)), then
 * lambda_n = m g.  While it slips u keeps its direction u0hat and |u| falls by
 * (7/(2m)) mu P_N(t) (P_N the normal impulse so far): the tangential impulse is
 * s(t) = min(mu P_N(t), 2 m |u0|/7) along -u0hat, and rolling starts when it reaches the cap;
 * then v_roll = v0 - (2/7) u0.
 */
#include <math.h>
#include <stddef.h>

#include "fb_normal.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"

typedef struct sphere_drop_params {
  double r, m, mu, e, g, h0, vx0, vy0, vz0, wx0, wy0, wz0, T, normal, renorm, rest;
} sphere_drop_params;

#define P(name, unit, what, field, def, lo, hi, flags)                                          \
  {name, unit, what, offsetof(sphere_drop_params, field), def, lo, hi, flags, NULL, NULL}
static const fb_param_desc sphere_drop_desc[] = {
    P("r", "m", "sphere radius", r, 0.1, 0, INFINITY, FB_PARAM_MIN_OPEN),
    P("m", "kg", "mass (inertia 2/5 m r^2)", m, 1, 0, INFINITY, FB_PARAM_MIN_OPEN),
    P("mu", "1", "friction coefficient of the plane", mu, 0.1, 0, INFINITY, FB_PARAM_MIN_OPEN),
    P("e", "1", "restitution coefficient (Newton's law)", e, 0.5, 0, 1, 0),
    P("g", "m/s^2", "gravity", g, 9.81, 0, INFINITY, FB_PARAM_MIN_OPEN),
    P("h0", "m", "initial gap (height of the lowest point)", h0, 0.2, 0, INFINITY,
      FB_PARAM_MIN_OPEN),
    P("vx0", "m/s", "initial centre velocity, x", vx0, 2, -INFINITY, INFINITY, 0),
    P("vy0", "m/s", "initial centre velocity, y", vy0, 0, -INFINITY, INFINITY, 0),
    P("vz0", "m/s", "initial centre velocity, z (up)", vz0, 0, -INFINITY, INFINITY, 0),
    P("wx0", "rad/s", "initial spin about x (space frame)", wx0, 10, -INFINITY, INFINITY, 0),
    P("wy0", "rad/s", "initial spin about y (space frame)", wy0, -20, -INFINITY, INFINITY, 0),
    P("wz0", "rad/s", "initial spin about z (drilling; constant)", wz0, 0, -INFINITY, INFINITY,
      0),
    P("T", "s", "end time", T, 2, 0, INFINITY, FB_PARAM_MIN_OPEN),
    {"normal", "", "normal-contact treatment", offsetof(sphere_drop_params, normal), 0, 0,
     FB_NORMAL_MAX - 1, FB_PARAM_CHOICE, NULL, fb_normal_names},
    P("renorm", "1", "1: rescale the attitude quaternion to unit norm after every step (off by "
      "default: its drift is measured)", renorm, 0, 0, 1, FB_PARAM_INT),
    P("rest", "1", "1: start on the plane (z = r, vz = 0) under the prescribed load m g: no "
      "normal contact, a friction-only plant for the generic steppers (h0, vz0, e, normal "
      "unused)", rest, 0, 0, 1, FB_PARAM_INT),
};
#undef P
static const fb_param_set sphere_drop_set = {sizeof(sphere_drop_params), 16, sphere_drop_desc};

static void sphere_drop_force(const void *sp, double t, const double *x, const double *v,
                              double *f)
{
  const sphere_drop_params *p = sp;
  (void)t, (void)x, (void)v;
  for (int k = 0; k < 6; k++)
    f[k] = 0;
  f[2] = p->rest != 0 ? 0.0 : -p->m * p->g; /* at rest the plane's m g balances gravity */
}

static int sphere_drop_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const sphere_drop_params *p = sp;
  const int rest = p->rest != 0;
  if (fb_plant_alloc(pl, 6, 2, 0) != FB_OK || (!rest && fb_plant_alloc_normals(pl, 1) != FB_OK) ||
      fb_plant_alloc_jacobians(pl) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double I0 = 0.4 * p->m * p->r * p->r;
  for (int k = 0; k < 3; k++) {
    pl->M[k * 7] = p->m;
    pl->M[(k + 3) * 7] = I0;
  }
  pl->x0[2] = p->r + (rest ? 0.0 : p->h0);
  const double v0[6] = {p->vx0, p->vy0, rest ? 0.0 : p->vz0, p->wx0, p->wy0, p->wz0};
  for (int k = 0; k < 6; k++)
    pl->v0[k] = v0[k];
  pl->T = p->T;
  pl->f_c = 1.0 / p->T;
  pl->force = sphere_drop_force;
  pl->path_dof[0] = 0;
  pl->path_dof[1] = 1;
  const double v1 = sqrt(p->vz0 * p->vz0 + 2 * p->g * p->h0);
  const double u0 = hypot(p->vx0 - p->r * p->wy0, p->vy0 + p->r * p->wx0);
  pl->v_scale = fmax(fmax(u0, v1), hypot(p->vx0, p->vy0));
  /* the prescribed load is what friction-only code paths would see (the resting weight);
   * the contact scheme replaces it by lambda_n(t) */
  fb_plant_set_pair(pl, 0, (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0}, p->m * p->g);
  pl->contact[0].Jt[0] = 1.0; /* u_x = vx - r wy */
  pl->contact[0].Jt[4] = -p->r;
  pl->contact[1].Jt[1] = 1.0; /* u_y = vy + r wx */
  pl->contact[1].Jt[3] = p->r;
  pl->kin.nquat = 1;
  pl->kin.quat[0] = (fb_quat_block){3, {1.0, 0.0, 0.0, 0.0}};
  pl->kin.renormalize = p->renorm != 0;
  if (rest)
    return FB_OK;
  fb_normal *nm = &pl->normal[0];
  nm->Jn[2] = 1.0;
  nm->g0 = -p->r;
  nm->e = p->e;
  nm->fric = 0;
  nm->a_scale = p->g;
  nm->h_scale = p->h0;
  const fb_normal_type *nt = fb_normal_at(p->normal);
  if (nt == NULL)
    return fb_err_set(err, FB_EINVAL, "normal = %g: no such treatment (see fricbench list contact)",
                      p->normal);
  fb_normal_select(nm, nt);
  return FB_OK;
}

static fb_ref_kind sphere_drop_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EXACT;
}

/* The normal motion of the closed form at t ([Xiong2013] fig. 5's bouncing ball, §12 of
 * docs/design.md): gap g and rate gd; the normal impulse so far PN (N s) and its time
 * integral IPN (N s^2), both up to the cap pcap: the tangential impulse is mu min(PN, pcap),
 * and its integral over [0, t] mu IPN. */
typedef struct sd_normal {
  double g, gd, PN, IPN;
} sd_normal;

static void sd_normal_at(const sphere_drop_params *p, double t, double pcap, sd_normal *o)
{
  const double g = p->g, e = p->e, m = p->m;
  const double v1 = sqrt(p->vz0 * p->vz0 + 2 * g * p->h0), t1 = (p->vz0 + v1) / g;
  const double t_inf = e < 1 ? t1 + 2 * e * v1 / (g * (1 - e)) : (double)INFINITY;
  o->PN = o->IPN = 0;
  if (p->rest != 0) { /* on the plane from t = 0: P_N = m g t up to the cap */
    const double tc = pcap / (m * g), a = fmin(t, tc);
    o->g = o->gd = 0;
    o->PN = fmin(m * g * t, pcap);
    o->IPN = 0.5 * m * g * a * a + pcap * (t - a);
    return;
  }
  if (t < t1) {
    o->g = p->h0 + p->vz0 * t - 0.5 * g * t * t;
    o->gd = p->vz0 - g * t;
    return;
  }
  /* impacts k = 0, 1, ... at tk, each a step of PN (capped) */
  double tk = t1, vk = v1;
  for (long k = 0; k < 10000000L; k++) {
    const double vout = e * vk, tnext = tk + 2 * vout / g;
    o->PN = fmin(o->PN + m * (1 + e) * vk, pcap);
    if (!(t >= tnext) || vout <= 0 || !(tnext < t_inf)) {
      const double tend = fmin(t, t_inf);
      o->IPN += o->PN * (tend - tk);
      if (t < t_inf && vout > 0) {
        const double s = t - tk;
        o->g = vout * s - 0.5 * g * s * s;
        o->gd = vout - g * s;
        return;
      }
      break;
    }
    o->IPN += o->PN * (tnext - tk);
    tk = tnext;
    vk = vout;
  }
  /* at rest on the plane from t_inf: PN grows at m g up to the cap */
  o->g = o->gd = 0;
  /* z momentum: PN(t_inf) = m (g t_inf - vz0), the sum of every impact (the loop stops
   * at round-off) */
  const double PN0 = fmin(m * (g * t_inf - p->vz0), pcap), s = t - t_inf;
  const double tc = PN0 < pcap ? (pcap - PN0) / (m * g) : 0.0; /* time to the cap */
  const double a = fmin(s, tc);
  o->IPN += PN0 * a + 0.5 * m * g * a * a + pcap * (s - a);
  o->PN = fmin(PN0 + m * g * s, pcap);
}

/* Slip direction u0hat and the cap of the normal impulse 2 m |u0| / (7 mu) that stops it. */
static double sd_slip0(const sphere_drop_params *p, double *ux, double *uy)
{
  const double u0x = p->vx0 - p->r * p->wy0, u0y = p->vy0 + p->r * p->wx0, u0 = hypot(u0x, u0y);
  *ux = u0 > 0 ? u0x / u0 : 0;
  *uy = u0 > 0 ? u0y / u0 : 0;
  return 2 * p->m * u0 / (7 * p->mu);
}

static int sphere_drop_exact(const void *sp, double t, double *x, double *v, double *F)
{
  const sphere_drop_params *p = sp;
  const double m = p->m, r = p->r, I0 = 0.4 * m * r * r;
  double ex, ey;
  const double pcap = sd_slip0(p, &ex, &ey);
  sd_normal o;
  sd_normal_at(p, t, pcap, &o);
  /* tangential impulse on the ball -mu PN u0hat, its integral -mu IPN u0hat */
  const double Px = -p->mu * o.PN * ex, Py = -p->mu * o.PN * ey;
  const double Ix = -p->mu * o.IPN * ex, Iy = -p->mu * o.IPN * ey;
  const double v0[6] = {p->vx0, p->vy0, p->vz0, p->wx0, p->wy0, p->wz0};
  /* J_t^T P: force on the centre (Px, Py), torque (r Py, -r Px, 0) about x, y, z */
  const double dv[6] = {Px / m, Py / m, 0, r * Py / I0, -r * Px / I0, 0};
  const double dx[6] = {Ix / m, Iy / m, 0, r * Iy / I0, -r * Ix / I0, 0};
  for (int k = 0; k < 6; k++) {
    v[k] = v0[k] + dv[k];
    x[k] = v0[k] * t + dx[k];
  }
  x[2] = p->r + o.g;
  v[2] = o.gd;
  if (F != NULL) { /* between impacts: mu m g while it slips at rest on the plane */
    const int sliding = o.g == 0 && o.gd == 0 && o.PN < pcap && (t > 0 || p->rest != 0);
    F[0] = sliding ? -p->mu * m * p->g * ex : 0;
    F[1] = sliding ? -p->mu * m * p->g * ey : 0;
  }
  return FB_OK;
}

const fb_scenario_type fb_scenario_sphere_drop = {
    .name = "sphere-drop",
    .title = "sphere with spin dropped on a rough plane: bounces, slips, then rolls (3-D, "
             "quaternion attitude)",
    .source = "Xiong, Kikuuwe & Yamamoto 2013 [Xiong2013] §5.1 (Example I, fig. 7)",
    .params = &sphere_drop_set,
    .ref_kind = sphere_drop_ref_kind,
    .build = sphere_drop_build,
    .exact = sphere_drop_exact,
};
