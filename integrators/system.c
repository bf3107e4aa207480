/* system.c — the assembled ODE of fb_system.h. */
#include "fb_system.h"
#include "fb_plant_int.h"
#include "fb_model_int.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int fb_system_alloc(fb_system *s, const fb_problem *pb, unsigned long max_rhs)
{
  memset(s, 0, sizeof *s);
  const fb_plant *pl = pb->plant;
  s->pl = pl;
  s->md = pb->model;
  s->n = pl->n;
  s->nc = pl->nc;
  s->nz = pb->model->type->nz;
  s->dim = pb->dim;
  s->max_rhs = max_rhs;
  s->needs_fapp = (pb->model->type->caps & FB_MODEL_NEEDS_FAPP) != 0;
  /* the n x dim Jacobian block A only for a dense plant: a banded one runs explicit steppers
   * only (fb_plant_banded_ok), which never form it */
  const size_t nA = pl->banded ? 0 : s->n * s->dim;
  s->f = calloc(s->n + 2 * s->dim + s->n + nA + 2 * s->n + 2 * s->n, sizeof(double));
  if (s->f == NULL)
    return FB_ENOMEM;
  s->work = s->f + s->n;
  s->A = s->work + 2 * s->dim + s->n;
  s->fa = s->A + nA;
  s->fa2 = s->fa + s->n;
  s->fapp_f = s->fa2 + s->n;
  s->fapp_a = s->fapp_f + s->n;
  s->fa_t = s->fa_t2 = NAN;
  s->scalar = pl->n == 1 && !pl->banded && pl->nc == 1 && pl->contact_state == NULL && pl->contact[0].dof == 0 &&
              pl->contact[0].Jt == NULL &&
              !s->needs_fapp;
  if (s->scalar) {
    fb_contact_in_at(pl, 0, pl->t0, &s->ci0, &s->u0);
    s->cp0 = fb_model_cparams(s->md, 0);
    s->force0 = s->md->type->force;
    s->D0 = pl->has_D ? pl->D[0] : 0.0;
    s->K0 = pl->has_K ? pl->K[0] : 0.0;
    s->Minv0 = pl->Minv[0];
    s->fa_mode = pl->force == NULL ? 0 : pl->force_uses_state ? 2 : 1;
    s->force_fn = pl->force;
    s->sp = pl->sp;
    if (s->fa_mode == 1 && pl->forcing.kind == FB_FORCING_COS) {
      s->fa_mode = 3;
      s->fa_amp = pl->forcing.amp;
      s->fa_omega = pl->forcing.omega;
    }
  }
  s->gsys.function = s->scalar ? fb_system_rhs_scalar : fb_system_rhs;
  s->gsys.jacobian = fb_system_jac;
  s->gsys.dimension = s->dim;
  s->gsys.params = s;
  s->seg_t0 = -INFINITY;
  s->seg_t1 = INFINITY;
  return FB_OK;
}

void fb_system_free(fb_system *s)
{
  if (s != NULL) {
    free(s->f);
    s->f = NULL;
  }
}

/* The right-hand side without counting or budget: also used inside the Jacobian. */
static int rhs_eval(fb_system *s, double t, const double *y, double *dydt)
{
  const fb_plant *pl = s->pl;
  const fb_model_type *mt = s->md->type;
  const size_t n = s->n, nz = s->nz;
  const double *x = y, *v = y + n, *z = y + 2 * n;
  double *f = s->f;
  t = fb_system_segment_time(s, t);
  fb_system_applied_force(s, t, x, v, f);
  fb_plant_sub_linear(pl, x, v, f);
  if (s->needs_fapp)
    fb_plant_solve_mass(pl, f, s->fapp_a);
  for (size_t i = 0; i < s->nc; i++) {
    fb_contact_in ci;
    double u, F;
    fb_contact_in_at(pl, i, t, &ci, &u);
    if (s->needs_fapp) {
      ci.f_app = fb_contact_fapp(pl, i, t, s->fapp_a);
      if (pl->contact[i].pair == FB_PAIR_X)
        ci.f_app2 = fb_contact_fapp(pl, i + 1, t, s->fapp_a);
    }
    if (pl->contact[i].pair == FB_PAIR_X) { /* a 2-D contact: entries i, i+1 */
      fb_contact_in ciy;
      double uy, vr[2], F2[2];
      fb_contact_in_at(pl, i + 1, t, &ciy, &uy);
      vr[0] = fb_contact_vel(pl, i, v) - u;
      vr[1] = fb_contact_vel(pl, i + 1, v) - uy;
      int st = mt->force2(fb_model_cparams(s->md, i), &ci, vr, z + i * nz, F2,
                          dydt + 2 * n + i * nz);
      if (st != FB_OK)
        return st;
      fb_contact_add_force(pl, i, F2[0], f);
      fb_contact_add_force(pl, i + 1, F2[1], f);
      i++;
      continue;
    }
    int st = mt->force(fb_model_cparams(s->md, i), &ci, fb_contact_vel(pl, i, v) - u,
                       z + i * nz, &F, dydt + 2 * n + i * nz);
    if (st != FB_OK)
      return st;
    fb_contact_add_force(pl, i, F, f);
  }
  memcpy(dydt, v, n * sizeof(double));
  fb_plant_solve_mass(pl, f, dydt + n);
  if (pl->kin.nquat > 0) /* qdot = T(q) nu: the attitudes after the model's states */
    fb_kin_rates(pl, v, y + 2 * n + s->nc * nz, dydt + 2 * n + s->nc * nz);
  return FB_OK;
}

static int rhs_any(fb_system *s, double t, const double *y, double *dydt)
{
  return s->scalar ? fb_system_eval_scalar(s, t, y, dydt) : rhs_eval(s, t, y, dydt);
}

int fb_system_rhs(double t, const double y[], double dydt[], void *params)
{
  fb_system *s = params;
  if (s->cnt->nfe >= s->max_rhs) {
    s->stop = FB_BUDGET;
    s->stop_t = t;
    return GSL_EBADFUNC;
  }
  s->cnt->nfe++;
  int st = rhs_eval(s, t, y, dydt);
  if (st != FB_OK) {
    s->stop = st;
    s->stop_t = t;
    return GSL_EBADFUNC;
  }
  return GSL_SUCCESS;
}

int fb_system_rhs_scalar(double t, const double y[], double dydt[], void *params)
{
  return fb_system_rhs_scalar_inline(t, y, dydt, params);
}

/* Partials of one contact's law: analytic if the model has them, else differences. */
static int contact_partials(const fb_system *s, size_t i, const fb_contact_in *ci, double vr,
                            const double *z, fb_contact_jac *J)
{
  const fb_model_type *mt = s->md->type;
  const void *cp = fb_model_cparams(s->md, i);
  const size_t nz = s->nz;
  memset(J, 0, sizeof *J);
  if (mt->jac != NULL)
    return mt->jac(cp, ci, vr, z, J);
  double F0, dz0[FB_MAX_Z], F1, dz1[FB_MAX_Z], zp[FB_MAX_Z];
  int st = mt->force(cp, ci, vr, z, &F0, dz0);
  if (st != FB_OK)
    return st;
  const double sqrt_eps = 1.4901161193847656e-08;
  double dv = sqrt_eps * fmax(fabs(vr), s->pl->v_scale);
  st = mt->force(cp, ci, vr + dv, z, &F1, dz1);
  if (st != FB_OK)
    return st;
  J->dF_dvr = (F1 - F0) / dv;
  for (size_t k = 0; k < nz; k++)
    J->ddz_dvr[k] = (dz1[k] - dz0[k]) / dv;
  for (size_t l = 0; l < nz; l++) {
    memcpy(zp, z, nz * sizeof(double));
    const double dzl = sqrt_eps * fmax(fabs(z[l]), 1e-8);
    zp[l] += dzl;
    st = mt->force(cp, ci, vr, zp, &F1, dz1);
    if (st != FB_OK)
      return st;
    J->dF_dz[l] = (F1 - F0) / dzl;
    for (size_t k = 0; k < nz; k++)
      J->ddz_dz[k * nz + l] = (dz1[k] - dz0[k]) / dzl;
  }
  return FB_OK;
}

/* Partials of a contact block of d components (d = 1: a contact with a Jacobian row;
 * d = 2: a 2-D contact, entries i and i+1) by forward differences of its law, in the
 * block's own coordinates: dF[a][b] = dF_a/dvr_b, dFz[a][l] (l < d nz), dzv[k][b],
 * dzz[k][l] (k, l < d nz). */
typedef struct block_jac {
  double dF[2][2];
  double dFz[2][2 * FB_MAX_Z];
  double dzv[2 * FB_MAX_Z][2];
  double dzz[2 * FB_MAX_Z][2 * FB_MAX_Z];
} block_jac;

static int block_law(const fb_system *s, size_t i, size_t d, const fb_contact_in *ci,
                     const double *vr, const double *z, double *F, double *dz)
{
  const fb_model_type *mt = s->md->type;
  const void *cp = fb_model_cparams(s->md, i);
  if (d == 2)
    return mt->force2(cp, ci, vr, z, F, dz);
  return mt->force(cp, ci, vr[0], z, F, dz);
}

static int block_partials(const fb_system *s, size_t i, size_t d, const fb_contact_in *ci,
                          const double *vr, const double *z, block_jac *J)
{
  const size_t nzb = d * s->nz;
  const double sqrt_eps = 1.4901161193847656e-08;
  double F0[2], F1[2], dz0[2 * FB_MAX_Z], dz1[2 * FB_MAX_Z], vp[2], zp[2 * FB_MAX_Z];
  memset(J, 0, sizeof *J);
  int st = block_law(s, i, d, ci, vr, z, F0, dz0);
  for (size_t b = 0; b < d && st == FB_OK; b++) {
    memcpy(vp, vr, d * sizeof(double));
    const double dv = sqrt_eps * fmax(fabs(vr[b]), s->pl->v_scale);
    vp[b] += dv;
    st = block_law(s, i, d, ci, vp, z, F1, dz1);
    for (size_t a = 0; a < d; a++)
      J->dF[a][b] = (F1[a] - F0[a]) / dv;
    for (size_t k = 0; k < nzb; k++)
      J->dzv[k][b] = (dz1[k] - dz0[k]) / dv;
  }
  for (size_t l = 0; l < nzb && st == FB_OK; l++) {
    memcpy(zp, z, nzb * sizeof(double));
    const double dzl = sqrt_eps * fmax(fabs(z[l]), 1e-8);
    zp[l] += dzl;
    st = block_law(s, i, d, ci, vr, zp, F1, dz1);
    for (size_t a = 0; a < d; a++)
      J->dFz[a][l] = (F1[a] - F0[a]) / dzl;
    for (size_t k = 0; k < nzb; k++)
      J->dzz[k][l] = (dz1[k] - dz0[k]) / dzl;
  }
  return st;
}

/* Component c of contact i's row: Jt[c], or 1 at its DOF. */
static double row_at(const fb_plant *pl, size_t i, size_t c)
{
  const fb_contact *ct = &pl->contact[i];
  return ct->Jt != NULL ? ct->Jt[c] : (double)(c == ct->dof);
}

/* Add a contact block's partials to A (n x dim) and the state rows of dfdy through the
 * Jacobian rows: d(Jt^T F)/dv = Jt^T dF Jt, d(Jt^T F)/dz, dz'/dv = dzv Jt. */
static void block_assemble(const fb_system *s, size_t i, size_t d, const block_jac *J,
                           double *A, double *dfdy)
{
  const fb_plant *pl = s->pl;
  const size_t n = s->n, dim = s->dim, nzb = d * s->nz, zi = 2 * n + i * s->nz;
  for (size_t r = 0; r < n; r++)
    for (size_t a = 0; a < d; a++) {
      const double ra = row_at(pl, i + a, r);
      if (ra == 0.0)
        continue;
      for (size_t c = 0; c < n; c++)
        for (size_t b = 0; b < d; b++)
          A[r * dim + n + c] += ra * J->dF[a][b] * row_at(pl, i + b, c);
      for (size_t l = 0; l < nzb; l++)
        A[r * dim + zi + l] += ra * J->dFz[a][l];
    }
  for (size_t k = 0; k < nzb; k++) {
    for (size_t c = 0; c < n; c++)
      for (size_t b = 0; b < d; b++)
        dfdy[(zi + k) * dim + n + c] += J->dzv[k][b] * row_at(pl, i + b, c);
    for (size_t l = 0; l < nzb; l++)
      dfdy[(zi + k) * dim + zi + l] = J->dzz[k][l];
  }
}

int fb_system_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
  fb_system *s = params;
  const fb_plant *pl = s->pl;
  const size_t n = s->n, nz = s->nz, dim = s->dim;
  const double *x = y, *v = y + n, *z = y + 2 * n;
  double *A = s->A; /* n x dim */
  s->cnt->njac++;
  memset(dfdy, 0, dim * dim * sizeof(double));
  memset(A, 0, n * dim * sizeof(double));
  for (size_t r = 0; r < n; r++)
    dfdy[r * dim + n + r] = 1.0;
  for (size_t r = 0; r < n; r++)
    for (size_t c = 0; c < n; c++) {
      A[r * dim + c] = -pl->K[r * n + c];
      A[r * dim + n + c] = -pl->D[r * n + c];
    }
  if (pl->force != NULL && pl->force_uses_state) {
    /* Forward differences of the scenario's force in x and v. */
    double *f0 = s->work, *f1 = s->work + n, *xv = s->work + 2 * n;
    const double sqrt_eps = 1.4901161193847656e-08;
    pl->force(pl->sp, t, x, v, f0);
    memcpy(xv, y, 2 * n * sizeof(double));
    for (size_t c = 0; c < 2 * n; c++) {
      const double d = sqrt_eps * fmax(fabs(xv[c]), c < n ? 1.0 : pl->v_scale);
      const double keep = xv[c];
      xv[c] = keep + d;
      pl->force(pl->sp, t, xv, xv + n, f1);
      xv[c] = keep;
      for (size_t r = 0; r < n; r++)
        A[r * dim + c] += (f1[r] - f0[r]) / d;
    }
  }
  if (s->needs_fapp) { /* f_app at (t, x, v) as rhs_eval computes it; held in the partials */
    const double ts = fb_system_segment_time(s, t);
    fb_system_applied_force(s, ts, x, v, s->fapp_f);
    fb_plant_sub_linear(pl, x, v, s->fapp_f);
    fb_plant_solve_mass(pl, s->fapp_f, s->fapp_a);
  }
  for (size_t i = 0; i < s->nc; i++) {
    fb_contact_in ci;
    fb_contact_jac J;
    double u;
    const size_t j = pl->contact[i].dof, zi = 2 * n + i * nz;
    fb_contact_in_at(pl, i, t, &ci, &u);
    if (s->needs_fapp) {
      ci.f_app = fb_contact_fapp(pl, i, fb_system_segment_time(s, t), s->fapp_a);
      if (pl->contact[i].pair == FB_PAIR_X)
        ci.f_app2 = fb_contact_fapp(pl, i + 1, fb_system_segment_time(s, t), s->fapp_a);
    }
    if (pl->contact[i].Jt != NULL || pl->contact[i].pair != FB_PAIR_NONE) {
      const size_t d = pl->contact[i].pair == FB_PAIR_X ? 2 : 1;
      double vr[2] = {fb_contact_vel(pl, i, v) - u, 0.0};
      block_jac JB;
      int stb;
      if (d == 2) {
        fb_contact_in ciy;
        double uy;
        fb_contact_in_at(pl, i + 1, t, &ciy, &uy);
        vr[1] = fb_contact_vel(pl, i + 1, v) - uy;
        stb = block_partials(s, i, d, &ci, vr, z + i * nz, &JB);
      } else { /* one component: the law's own partials (analytic when it has them) */
        stb = contact_partials(s, i, &ci, vr[0], z + i * nz, &J);
        memset(&JB, 0, sizeof JB);
        JB.dF[0][0] = J.dF_dvr;
        for (size_t k = 0; k < nz; k++) {
          JB.dFz[0][k] = J.dF_dz[k];
          JB.dzv[k][0] = J.ddz_dvr[k];
          for (size_t l = 0; l < nz; l++)
            JB.dzz[k][l] = J.ddz_dz[k * nz + l];
        }
      }
      if (stb != FB_OK) {
        s->stop = stb;
        s->stop_t = t;
        return GSL_EBADFUNC;
      }
      block_assemble(s, i, d, &JB, A, dfdy);
      i += d - 1;
      continue;
    }
    int st = contact_partials(s, i, &ci, v[j] - u, z + i * nz, &J);
    if (st != FB_OK) {
      s->stop = st;
      s->stop_t = t;
      return GSL_EBADFUNC;
    }
    A[j * dim + n + j] += J.dF_dvr;
    for (size_t k = 0; k < nz; k++) {
      A[j * dim + zi + k] += J.dF_dz[k];
      dfdy[(zi + k) * dim + n + j] = J.ddz_dvr[k];
      for (size_t l = 0; l < nz; l++)
        dfdy[(zi + k) * dim + zi + l] = J.ddz_dz[k * nz + l];
    }
  }
  /* Acceleration rows: M^-1 A. */
  for (size_t r = 0; r < n; r++)
    for (size_t c = 0; c < dim; c++) {
      double acc = 0.0;
      if (pl->M_diagonal)
        acc = pl->Minv[r * n + r] * A[r * dim + c];
      else
        for (size_t k = 0; k < n; k++)
          acc += pl->Minv[r * n + k] * A[k * dim + c];
      dfdy[(n + r) * dim + c] = acc;
    }
  if (s->jac_skips_dfdt)
    return GSL_SUCCESS;
  /* df/dt by a forward difference; the scenario's forcing is smooth between breaks. */
  double *r0 = s->work, *r1 = s->work + dim;
  const double dt = 1.4901161193847656e-08 * fmax(fabs(t), 1.0);
  int st = rhs_any(s, t, y, r0);
  if (st == FB_OK)
    st = rhs_any(s, t + dt, y, r1);
  if (st != FB_OK) {
    s->stop = st;
    s->stop_t = t;
    return GSL_EBADFUNC;
  }
  for (size_t k = 0; k < dim; k++)
    dfdt[k] = (r1[k] - r0[k]) / dt;
  return GSL_SUCCESS;
}
