/* problem.c — what every integrator shares: state layout, output, stops. */
#include <math.h>
#include <string.h>

#include "fb_integrator.h"
#include "fb_plant_int.h"
#include "fb_model_int.h"
#include "fb_integrator_int.h"

void fb_int_opts_default(fb_int_opts *o)
{
  o->h = NAN;
  o->atol = 1e-8;
  o->rtol = 1e-8;
  o->max_steps = FB_DEFAULT_MAX_STEPS;
  o->max_rhs = FB_DEFAULT_MAX_RHS;
  o->hmax = INFINITY;
  o->event_tol = 1e-12;
  o->stepper = NULL;
  o->stats = NULL;
}

void fb_problem_init(fb_problem *pb, const fb_plant *pl, const fb_model *m)
{
  pb->plant = pl;
  pb->model = m;
  pb->dim = 2 * pl->n + pl->nc * m->type->nz + 4 * pl->kin.nquat;
  pb->scenario = NULL;
}

int fb_problem_initial_state(const fb_problem *pb, double *y)
{
  const fb_plant *pl = pb->plant;
  const fb_model_type *t = pb->model->type;
  const size_t n = pl->n, nz = t->nz;
  memcpy(y, pl->x0, n * sizeof(double));
  memcpy(y + n, pl->v0, n * sizeof(double));
  memset(y + 2 * n, 0, pl->nc * nz * sizeof(double));
  for (size_t b = 0; b < pl->kin.nquat; b++) /* the attitudes after the model's states */
    memcpy(y + 2 * n + pl->nc * nz + 4 * b, pl->kin.quat[b].Q0, 4 * sizeof(double));
  for (size_t i = 0; i < pl->nc; i++) {
    if (pl->contact[i].pair == FB_PAIR_X) { /* a 2-D contact: entries i, i+1 */
      fb_contact_in ci, ciy;
      double u, uy;
      fb_contact_in_at(pl, i, pl->t0, &ci, &u);
      fb_contact_in_at(pl, i + 1, pl->t0, &ciy, &uy);
      const double vr0[2] = {fb_contact_vel(pl, i, pl->v0) - u,
                             fb_contact_vel(pl, i + 1, pl->v0) - uy};
      if (t->init2 != NULL)
        t->init2(fb_model_cparams(pb->model, i), &ci, vr0, y + 2 * n + i * nz);
      i++;
      continue;
    }
    if (t->init != NULL) {
      fb_contact_in ci;
      double u;
      fb_contact_in_at(pl, i, pl->t0, &ci, &u);
      t->init(fb_model_cparams(pb->model, i), &ci, fb_contact_vel(pl, i, pl->v0) - u,
              y + 2 * n + i * nz);
    }
  }
  return FB_OK;
}

/* a = M^-1 (f - D v - K x) at (t, y) into a[n], with f[n] scratch: what fb_contact_fapp
 * needs (models with FB_MODEL_NEEDS_FAPP). */
static void problem_accel_nofriction(const fb_plant *pl, double t, const double *y, double *f,
                                     double *a)
{
  fb_plant_smooth_force(pl, t, y, y + pl->n, f);
  fb_plant_solve_mass(pl, f, a);
}

int fb_problem_output(const fb_problem *pb, double t, const double *y, double *F, int *stick)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nz = pb->model->type->nz;
  const int needs_fapp = (pb->model->type->caps & FB_MODEL_NEEDS_FAPP) != 0;
  double fs[FB_FAPP_NMAX], a[FB_FAPP_NMAX];
  if (needs_fapp) {
    if (n > FB_FAPP_NMAX)
      return FB_EUNSUP;
    problem_accel_nofriction(pl, t, y, fs, a);
  }
  for (size_t i = 0; i < pl->nc; i++) {
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t, &ci, &u);
    if (needs_fapp) {
      ci.f_app = fb_contact_fapp(pl, i, t, a);
      if (pl->contact[i].pair == FB_PAIR_X)
        ci.f_app2 = fb_contact_fapp(pl, i + 1, t, a);
    }
    if (pl->contact[i].pair == FB_PAIR_X) {
      fb_contact_in ciy;
      double uy, vr[2];
      fb_contact_in_at(pl, i + 1, t, &ciy, &uy);
      vr[0] = fb_contact_vel(pl, i, y + n) - u;
      vr[1] = fb_contact_vel(pl, i + 1, y + n) - uy;
      int st = fb_model_output2(pb->model, i, &ci, vr, y + 2 * n + i * nz, &F[i], &stick[i]);
      if (st != FB_OK)
        return st;
      stick[i + 1] = stick[i];
      i++;
      continue;
    }
    int st = fb_model_output(pb->model, i, &ci, fb_contact_vel(pl, i, y + n) - u,
                             y + 2 * n + i * nz, &F[i], &stick[i]);
    if (st != FB_OK)
      return st;
  }
  return FB_OK;
}

int fb_problem_deriv(const fb_problem *pb, double t, const double *y, const double *F,
                     double *dydt, double *work)
{
  const fb_plant *pl = pb->plant;
  const fb_model_type *mt = pb->model->type;
  const size_t n = pl->n, nz = mt->nz;
  const int needs_fapp = (mt->caps & FB_MODEL_NEEDS_FAPP) != 0;
  /* The states' rates first: a model that reads f_app gets it from a = M^-1 (f - D v -
   * K x), held in dydt + n until the accelerations overwrite it below. */
  if (needs_fapp)
    problem_accel_nofriction(pl, t, y, work, dydt + n);
  for (size_t i = 0; i < pl->nc; i++) {
    double *dz = dydt + 2 * n + i * nz;
    if (mt->force != NULL) {
      fb_contact_in ci;
      double u, Fi;
      fb_contact_in_at(pl, i, t, &ci, &u);
      if (needs_fapp) {
        ci.f_app = fb_contact_fapp(pl, i, t, dydt + n);
        if (pl->contact[i].pair == FB_PAIR_X)
          ci.f_app2 = fb_contact_fapp(pl, i + 1, t, dydt + n);
      }
      if (pl->contact[i].pair == FB_PAIR_X) {
        fb_contact_in ciy;
        double uy, vr[2], F2[2];
        fb_contact_in_at(pl, i + 1, t, &ciy, &uy);
        vr[0] = fb_contact_vel(pl, i, y + n) - u;
        vr[1] = fb_contact_vel(pl, i + 1, y + n) - uy;
        int st = mt->force2(fb_model_cparams(pb->model, i), &ci, vr, y + 2 * n + i * nz, F2,
                            dz);
        if (st != FB_OK)
          return st;
        i++;
        continue;
      }
      int st = mt->force(fb_model_cparams(pb->model, i), &ci, fb_contact_vel(pl, i, y + n) - u,
                         y + 2 * n + i * nz, &Fi, dz);
      if (st != FB_OK)
        return st;
    } else {
      for (size_t k = 0; k < nz; k++)
        dz[k] = NAN;
    }
  }
  fb_plant_smooth_force(pl, t, y, y + n, work);
  for (size_t i = 0; i < pl->nc; i++)
    fb_contact_add_force(pl, i, F[i], work);
  memcpy(dydt, y + n, n * sizeof(double));
  fb_plant_solve_mass(pl, work, dydt + n);
  if (pl->kin.nquat > 0) /* qdot = T(q) nu: the attitudes after the model's states */
    fb_kin_rates(pl, y + n, y + 2 * n + pl->nc * nz, dydt + 2 * n + pl->nc * nz);
  /* With normal contacts the accelerations include lambda_n, held by the contact scheme
   * (treatment states, persistent-contact mode) and not seen here: unknown (docs/design.md
   * §12), so dense output falls back to lower-order Hermite. */
  if (pl->nn > 0)
    for (size_t i = 0; i < n; i++)
      dydt[n + i] = NAN;
  return FB_OK;
}

double fb_problem_next_stop(const fb_problem *pb, double t)
{
  const fb_plant *pl = pb->plant;
  for (size_t k = 0; k < pl->nbreaks; k++)
    if (pl->breaks[k] > t)
      return pl->breaks[k];
  return pl->T;
}

