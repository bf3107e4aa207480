/* contact_rows.c — friction contacts with Jacobian rows under the contact scheme: a 1-D
 * row (u = J_t nu - u_surf) or a 2-D contact, entries (i, i + 1) (docs/design.md §12-§13;
 * docs/scenarios/sphere-drop.md).  A unit is addressed by its first entry i; d = 1 or 2.
 *
 * Under a force law (penalty-n, hunt-crossley, kikuuwe-n) the friction model's vector law
 * force2 (force for d = 1) takes N = lambda_n.  Under newton the unit is Coulomb's, as the
 * one-DOF contacts there, in the disc ([Xiong2013] §5.1; isotropic Coulomb):
 *  - slip: F = -mu(|u|) lambda_n d, d = u/|u| frozen over a step, so that u . d is smooth and
 *    its zero (the stop, for the isotropic W of a sphere on a plane: u keeps its direction)
 *    is located by the scheme's events;
 *  - stick: the force that holds J_t a = udot, W F = -(J_t a_free - udot), W = J_t M^-1 J_t^T,
 *    while |F| <= mu_s lambda_n;
 *  - impact with normal impulse P: the Coulomb impulse |P_t| <= mu P against u, exact when
 *    W = w I (checked at allocation: refused otherwise) and W_nt = 0 (the scheme's one-DOF
 *    law makes the same assumption): |u| drops by min(|u|, w mu P).
 */
#include <math.h>
#include <string.h>

#include "fb_contact_ws.h"
#include "fb_plant_int.h"

static size_t rows_dim(const fb_plant *pl, size_t i)
{
  return pl->contact[i].pair == FB_PAIR_X ? 2 : 1;
}

/* u[d] = J_t v - u_surf of unit i, and its contact input (N = lambda_n when bounded). */
static void rows_slip(const cws *c, double t, size_t i, const double *v, double *u,
                      fb_contact_in *ci)
{
  const fb_plant *pl = c->pl;
  const size_t d = rows_dim(pl, i);
  for (size_t k = 0; k < d; k++) {
    fb_contact_in cik;
    double us;
    fb_contact_in_at(pl, i + k, t, &cik, &us);
    u[k] = fb_contact_vel(pl, i + k, v) - us;
    if (k == 0)
      *ci = cik;
  }
  if (c->fnorm[i] >= 0) {
    ci->N = fmax(0.0, c->lam[c->fnorm[i]]);
    ci->Fs = ci->N * pl->contact[i].law.mu_s;
  }
}

double rows_speed(const cws *c, double t, size_t i, const double *v)
{
  double u[2] = {0, 0};
  fb_contact_in ci;
  rows_slip(c, t, i, v, u, &ci);
  return hypot(u[0], u[1]);
}

/* Solve W F = b for unit i (W = J_t M^-1 J_t^T, d x d). */
static void rows_solve(const cws *c, size_t i, const double *b, double *F)
{
  const fb_plant *pl = c->pl;
  if (rows_dim(pl, i) == 1) {
    F[0] = b[0] / fb_plant_contact_coupling(pl, i, i);
    return;
  }
  const double a = fb_plant_contact_coupling(pl, i, i), o = fb_plant_contact_coupling(pl, i, i + 1);
  const double dd = fb_plant_contact_coupling(pl, i + 1, i + 1), det = a * dd - o * o;
  F[0] = (dd * b[0] - o * b[1]) / det;
  F[1] = (a * b[1] - o * b[0]) / det;
}

/* The force holding unit i in stick at t: W F = -(J_t a - udot), a = c->a (no friction). */
static void rows_stick_force(const cws *c, double t, size_t i, double *F)
{
  const fb_plant *pl = c->pl;
  double b[2] = {0, 0};
  for (size_t k = 0; k < rows_dim(pl, i); k++) {
    fb_contact_state cs;
    fb_plant_contact_at(pl, i + k, t, &cs);
    b[k] = -(fb_contact_vel(pl, i + k, c->a) - cs.udot);
  }
  rows_solve(c, i, b, F);
}

int eval_rows(cws *c, double t, const double *Y, double *dY, size_t i)
{
  const fb_plant *pl = c->pl;
  const size_t n = c->n, nz = c->nz, d = rows_dim(pl, i);
  fb_contact_in ci;
  double u[2] = {0, 0}, F[2] = {0, 0};
  rows_slip(c, t, i, Y + n, u, &ci);
  double *dz = dY + 2 * n + i * nz;
  if (c->fnewt[i]) {
    for (size_t q = 0; q < d * nz; q++)
      dz[q] = 0;
    if (c->fmode[i]) {
      rows_stick_force(c, t, i, F);
    } else {
      const double mu = fb_friction_mu(&pl->contact[i].law, hypot(u[0], u[1]), NULL);
      for (size_t k = 0; k < d; k++)
        F[k] = -ci.N * mu * c->fdir[i + k];
    }
  } else {
    const fb_model_type *mt = c->pb->model->type;
    const void *cp = fb_model_cparams(c->pb->model, i);
    const int st = d == 2 ? mt->force2(cp, &ci, u, Y + 2 * n + i * nz, F, dz)
                          : mt->force(cp, &ci, u[0], Y + 2 * n + i * nz, F, dz);
    if (st != FB_OK)
      return st;
  }
  for (size_t k = 0; k < d; k++) {
    c->F[i + k] = F[k];
    fb_contact_add_force(pl, i + k, F[k], c->f);
  }
  return FB_OK;
}

double rows_event(const cws *c, double t, const double *Y, size_t i, double N)
{
  const fb_plant *pl = c->pl;
  if (c->fmode[i])
    return N * pl->contact[i].law.mu_s - hypot(c->F[i], rows_dim(pl, i) == 2 ? c->F[i + 1] : 0);
  double u[2] = {0, 0};
  fb_contact_in ci;
  rows_slip(c, t, i, Y + c->n, u, &ci);
  return u[0] * c->fdir[i] + (rows_dim(pl, i) == 2 ? u[1] * c->fdir[i + 1] : 0.0);
}

void rows_begin(cws *c, double t, size_t i)
{
  double u[2] = {0, 0};
  fb_contact_in ci;
  rows_slip(c, t, i, c->Y + c->n, u, &ci);
  const double w = hypot(u[0], u[1]);
  if (w > 0)
    for (size_t k = 0; k < rows_dim(c->pl, i); k++)
      c->fdir[i + k] = u[k] / w;
}

/* v += M^-1 J_t^T P for unit i's impulse P[d] (N s), scratch c->f, c->a. */
static void rows_apply(cws *c, size_t i, const double *P, double *v)
{
  const fb_plant *pl = c->pl;
  memset(c->f, 0, c->n * sizeof(double));
  for (size_t k = 0; k < rows_dim(pl, i); k++)
    fb_contact_add_force(pl, i + k, P[k], c->f);
  fb_plant_solve_mass(pl, c->f, c->a);
  for (size_t j = 0; j < c->n; j++)
    v[j] += c->a[j];
}

/* The slip direction -F/|F| (kept when F = 0: no direction to take). */
static void rows_dir_from_force(cws *c, size_t i)
{
  const size_t d = rows_dim(c->pl, i);
  const double w = hypot(c->F[i], d == 2 ? c->F[i + 1] : 0.0);
  if (w > 0)
    for (size_t k = 0; k < d; k++)
      c->fdir[i + k] = -c->F[i + k] / w;
}

int rows_to_slip(cws *c, size_t i)
{
  if (!c->fmode[i])
    return 0;
  c->fmode[i] = 0;
  if (rows_dim(c->pl, i) == 2)
    c->fmode[i + 1] = 0;
  rows_dir_from_force(c, i);
  return 1;
}

void rows_zero(cws *c, double t, size_t i)
{
  /* the impulse that cancels what round-off left of u, then stick (tried) */
  double u[2] = {0, 0}, P[2];
  fb_contact_in ci;
  rows_slip(c, t, i, c->Y + c->n, u, &ci);
  const double b[2] = {-u[0], -u[1]};
  rows_solve(c, i, b, P);
  rows_apply(c, i, P, c->Y + c->n);
  c->fmode[i] = 1;
}

void rows_keep_stick(cws *c, size_t i)
{
  const fb_plant *pl = c->pl;
  const size_t d = rows_dim(pl, i);
  const double N = c->fnorm[i] >= 0 ? fmax(0.0, c->lam[c->fnorm[i]]) : 0.0;
  const double Fw = hypot(c->F[i], d == 2 ? c->F[i + 1] : 0.0);
  if (!(Fw <= N * pl->contact[i].law.mu_s && N > 0)) {
    c->fmode[i] = 0;
    rows_dir_from_force(c, i);
  }
  if (d == 2)
    c->fmode[i + 1] = c->fmode[i];
}

void rows_impulse(cws *c, double t, size_t i, double P)
{
  const fb_plant *pl = c->pl;
  const size_t d = rows_dim(pl, i);
  double *v = c->Y + c->n, u[2] = {0, 0};
  fb_contact_in ci;
  rows_slip(c, t, i, v, u, &ci);
  const double w = hypot(u[0], u[1]), wt = fb_plant_contact_coupling(pl, i, i);
  const double mu = fb_friction_mu(&pl->contact[i].law, w, NULL);
  const double du = fmin(w, mu * P * wt); /* the drop of |u| ([Xiong2013] §5.1) */
  if (w > 0) {
    double Pt[2] = {0, 0};
    for (size_t k = 0; k < d; k++)
      Pt[k] = -(du / wt) * u[k] / w;
    rows_apply(c, i, Pt, v);
  }
  if (c->st.n == 0)
    c->st.vt_after_first = rows_speed(c, t, i, v);
}

int rows_bind(cws *c, const fb_model_type *mt, size_t i, fb_err *err)
{
  const fb_plant *pl = c->pl;
  if (pl->contact[i].pair == FB_PAIR_Y)
    return FB_OK;
  const size_t d = rows_dim(pl, i);
  if (!c->fnewt[i] && (d == 2 ? mt->force2 == NULL : mt->force == NULL))
    return fb_err_set(err, FB_EUNSUP,
                      "model %s has no %s force law: under a normal treatment other than "
                      "newton a friction contact with a Jacobian row needs an ODE friction "
                      "model%s",
                      mt->name, d == 2 ? "vector" : "ODE", d == 2 ? " with a 2-D form" : "");
  if (!c->fnewt[i] && (mt->caps & FB_MODEL_NEEDS_FAPP))
    return fb_err_set(err, FB_EUNSUP,
                      "model %s reads the applied force f_app, which the contact scheme does "
                      "not provide on a contact with a Jacobian row",
                      mt->name);
  if (c->fnewt[i] && d == 2 &&
      (fb_plant_contact_coupling(pl, i, i + 1) != 0 ||
       fabs(fb_plant_contact_coupling(pl, i, i) - fb_plant_contact_coupling(pl, i + 1, i + 1)) >
           1e-12 * fb_plant_contact_coupling(pl, i, i)))
    return fb_err_set(err, FB_EUNSUP,
                      "contact %zu: newton's Coulomb impulse on a 2-D contact needs an isotropic "
                      "J_t M^-1 J_t^T (docs/scenarios/sphere-drop.md)",
                      i);
  return FB_OK;
}
