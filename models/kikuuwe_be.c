/* kikuuwe_be.c — Kikuuwe et al.'s discrete-time friction: the backward-Euler step of the
 * anchor model solved in closed form (R. Kikuuwe, N. Takesue, A. Sano, H. Mochiyama,
 * H. Fujimoto, IEEE Trans. Robotics 22(6) (2006) 1176-1188; [Xiong2013] §3.1 and Theorem 1;
 * docs/design.md §3 M8).  What robot and haptics codes run at a fixed step.
 *
 * Impedance form (integrators kbe-symplectic, kbe-exact).  Per contact a massless anchor
 * p, a spring K and a damper B as in the `kikuuwe` model (M3), discretized by backward
 * Euler; at step k, from the body state (s_k, v_k) at t_k and the anchor p_{k-1}
 * (fb_kbe_impedance_step, models/fb_kikuuwe_be.h):
 *     z_k = K (s_k - p_{k-1}) + B v_k,  F_k = -Fbar sat(z_k/Fbar),
 *     p_k = p_{k-1} + (z_k + F_k)/(K + B/h),
 * Fbar = S(|v_r,k|) at t_k.  The plant then advances over (t_k, t_k + h) with F_k held
 * (a sampled-data step, as a haptic loop does), with the applied force f(t_k, x_k, v_k)
 * held too:
 *   kbe-symplectic  v_{k+1} = v_k + h M^-1 (f_k - D v_k - K x_k + sum e_j F_k),
 *                   x_{k+1} = x_k + h v_{k+1}   (symplectic Euler);
 *   kbe-exact       [x; v]_{k+1} = Phi [x; v]_k + Gamma (f_k + sum e_j F_k): the plant's
 *                   linear part M xddot + D xdot + K x exact for the held input, Phi and
 *                   Gamma from one matrix exponential of [[0, I, 0], [-M^-1 K, -M^-1 D,
 *                   M^-1], [0, 0, 0]] h (GSL gsl_linalg_exponential_ss), for any n,
 *                   computed at alloc for h and for each segment's last (shorter) step.
 * The anchor loop is explicit in the body state (F_k is a function of x_k, v_k), so it is
 * stable only when the anchor's frequency is resolved: with B critical (the default),
 * roughly h sqrt(K/m) < 1.  The auto K of the `kikuuwe` model (100 times the scenario's
 * f_c) meets that at the default step T/1e4 of every scenario but not at large steps:
 * there set K (e.g. K = m/h^2) - the stick is then exact in the anchor (p constant) with
 * the body's elastic deflection <= Fs/K, and no accumulation.
 * Relative coordinates: the state keeps e = s - p_{k-1} (the anchor spring's elongation,
 * as the `kikuuwe` model does), advanced by e <- e - (p_k - p_{k-1}) + (x_j,k+1 - x_j,k)
 * - h (u_k + u_{k+1})/2 (the surface's displacement by the trapezoid rule: exact for a
 * constant or linearly accelerating belt).
 *
 * Admittance form (integrator kbe-relay): the implicit-Euler relay step of every DOF
 * (fb_kbe_relay_step), for a diagonal mass matrix with at most one contact per DOF:
 *     v_free = v_k + (h/m) (f(t_{k+1}, x_k, v_k) - (D v_k)_j - (K x_k)_j + c gamma_k),
 *     v_r,k+1 = v_r,free - (h/m) Fs sat(m v_r,free/(h Fs)),   x_{k+1} = x_k + h v_{k+1},
 * with v_r,free = v_free - u(t_{k+1}) and Fs = N mu_s at t_{k+1}: the applied force at the
 * step's end (implicit Euler in t), spring and damper at its start (explicit; coupling
 * between DOFs through K and D is explicit, which is why the mass must be diagonal).
 * The velocity-weakening part c gamma_k = sgn(v_r,k) (Fs - S(|v_r,k|)) of a non-Coulomb
 * characteristic is explicit, at the step's start, as in Glowinski's scheme ([Glowinski2004]
 * eq. 20), so the relay bound is Fs, S(0): a stuck step ends at v_r = 0, exactly.
 * Order: first (both forms).  Exact stick at any h in the relay form.
 *
 * Parameters (per contact, as `kikuuwe`): K (auto m (2 pi f_ratio f_c)^2), B (auto
 * 2 sqrt(K m)), f_ratio (100); unused by kbe-relay.
 * State per contact (nz = 3): e (m), F_step (N: the force held over the next step in the
 * impedance form, the step's mean friction force in the relay form), stick_step (1 when
 * the anchor holds / the relay stuck).  output() reports F and stick from the state.
 * Counters: nfe counts applied-force evaluations (one per step).  No allocation after
 * alloc.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_contact_step.h"
#include "fb_integrator.h"
#include "fb_kikuuwe_be.h"
#include "fb_model.h"
#include "fb_model_suite.h"
#include "fb_models.h"
#include "fb_util.h"
#include "fb_plant_int.h"
#include "fb_contact_step_int.h"

/* ---- the per-contact steps (exported, models/fb_kikuuwe_be.h) ------------------------- */

double fb_kbe_impedance_step(double K, double B, double h, double Fbar, double s, double v,
                             double *p, int *stick)
{
  const double z = K * (s - *p) + B * v;
  double F;
  if (Fbar > 0.0 && fabs(z) <= Fbar) {
    F = -z; /* sat(z/Fbar) = z/Fbar: the anchor holds, p_k = p_{k-1} exactly */
  } else {
    F = Fbar > 0.0 ? -Fbar * fb_sgn(z) : 0.0;
    *p += (z + F) / (K + B / h);
  }
  if (stick != NULL)
    *stick = Fbar > 0.0 ? fabs(z) <= Fbar : z == 0.0;
  return F;
}

double fb_kbe_relay_step(double m, double h, double Fs, double v_free, double *F, int *stick)
{
  const double hF = h * Fs;
  const int st = fabs(m * v_free) <= hF;
  double v1;
  if (st) { /* Theorem 1's linear branch: the step ends at rest, exactly */
    v1 = 0.0;
    *F = -m * v_free / h;
  } else {
    v1 = v_free - (h / m) * Fs * fb_sgn(v_free);
    *F = -Fs * fb_sgn(v_free);
  }
  if (stick != NULL)
    *stick = st;
  return v1;
}

/* ---- the model ------------------------------------------------------------------------ */

typedef struct kbe_params {
  double K;       /* anchor spring stiffness (N/m) */
  double B;       /* anchor damper (N s/m) */
  double f_ratio; /* f_K / f_c for the auto K */
  /* not parameters: 1 when K (B) was auto, so that the impedance schemes may cap it at
   * the step they run (kbe_cap_to_step) */
  double K_auto, B_auto;
} kbe_params;

static const fb_param_desc kbe_desc[] = {
    {"K", "N/m", "anchor spring stiffness (impedance form)", offsetof(kbe_params, K), NAN, 0,
     INFINITY, FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "m (2 pi f_ratio f_c)^2", NULL},
    {"B", "N s/m", "anchor damper (impedance form)", offsetof(kbe_params, B), NAN, 0, INFINITY,
     FB_PARAM_MIN_OPEN | FB_PARAM_AUTO, "2 sqrt(K m), critical with the body", NULL},
    {"f_ratio", "1", "anchor frequency over the scenario's f_c (for auto K)",
     offsetof(kbe_params, f_ratio), 100, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set kbe_set = {sizeof(kbe_params), 3, kbe_desc};
/* Not "F" and "stick": run's CSV already has those columns (output() reports them from
 * these states), and two columns of one name are renamed by readers (pandas). */
static const char *const kbe_z[] = {"e", "F_step", "stick_step"};

/* The `kikuuwe` model's defaults (docs/design.md §3 M3), so both forms are comparable. */
static int kbe_resolve(void *pv, const fb_contact_scale *sc, fb_err *err)
{
  kbe_params *p = pv;
  (void)err;
  p->K_auto = isnan(p->K);
  p->B_auto = isnan(p->B);
  fb_auto_spring_damper(sc, p->f_ratio, &p->K, &p->B);
  return FB_OK;
}

/* The impedance form's anchor loop is explicit in the body state: with B critical it is
 * stable only while h sqrt(K/m) stays below about 0.8 (preload-hold, K = 9.87e6, m = 1:
 * stick held 5 s of 5 at h = 2.5e-4 s, h sqrt(K/m) = 0.79; 0.045 s at 3e-4, 0.94), so an
 * auto K stiffer than the step resolves made the defaults unstable (docs/design.md §10).  An auto K is
 * therefore capped at m / (2 h)^2 (h sqrt(K/m) = 1/2) for the step the scheme runs, and an
 * auto B follows it (critical); a K or B the user set is kept as set.  The cap goes into
 * the run's own resolved parameters, so the stored energy, the hold rule's compliance
 * bound and runs.csv see the stiffness actually simulated. */
static void kbe_cap_to_step(const fb_problem *pb, double h)
{
  fb_model *md = (fb_model *)(uintptr_t)pb->model; /* this run's own instance */
  for (size_t i = 0; i < md->nc; i++) {
    kbe_params *p = (kbe_params *)(void *)((char *)md->cparams + i * sizeof(kbe_params));
    const double m = fb_plant_contact_mass(pb->plant, i);
    const double Kmax = m / (4.0 * h * h);
    if (p->K_auto == 1.0 && p->K > Kmax) {
      p->K = Kmax;
      if (p->B_auto == 1.0)
        p->B = 2.0 * sqrt(p->K * m);
    }
  }
}

/* A contact that starts sliding starts in steady slip (e = Fbar sgn(v)/K, as `kikuuwe`);
 * F and the flag as the impedance step would report them (the relay's F agrees: -Fbar
 * sgn(v) in slip, 0 at rest). */
static void kbe_init(const void *pv, const fb_contact_in *c, double vr0, double *z0)
{
  const kbe_params *p = pv;
  const double Fbar = fb_contact_S(c, fabs(vr0), NULL);
  double anchor = 0.0;
  int stick;
  z0[0] = Fbar * fb_sgn(vr0) / p->K;
  z0[1] = fb_kbe_impedance_step(p->K, p->B, 1.0, Fbar, z0[0], vr0, &anchor, &stick);
  z0[2] = stick;
}

static int kbe_output(const void *p, const fb_contact_in *c, double vr, const double *z,
                      double *F)
{
  (void)p, (void)c, (void)vr;
  *F = z[1];
  return z[2] != 0.0;
}

/* The impedance step of a 2-D contact (docs/design.md §13): the same backward-Euler anchor
 * with the vector saturation, z = K e + B u, F = -Fbar sat(z/Fbar) on the disc, the anchor
 * moving by (z + F)/(K + B/h) (0 while it holds); returns the stick flag. */
static int kbe_impedance_pair(const kbe_params *p, double h, double Fbar, const double *e,
                              const double *vr, double *F, double *dp)
{
  const double z[2] = {p->K * e[0] + p->B * vr[0], p->K * e[1] + p->B * vr[1]};
  const double zl = hypot(z[0], z[1]);
  const int stick = Fbar > 0.0 ? zl <= Fbar : zl == 0.0;
  for (int a = 0; a < 2; a++) {
    F[a] = stick ? -z[a] : Fbar > 0.0 ? -Fbar * z[a] / zl : 0.0;
    dp[a] = stick ? 0.0 : (z[a] + F[a]) / (p->K + p->B / h);
  }
  return stick;
}

/* A 2-D contact starting in steady slip: e = Fbar u/(|u| K) (as `kikuuwe`). */
static void kbe_init2(const void *pv, const fb_contact_in *c, const double *vr0, double *z0)
{
  const kbe_params *p = pv;
  const double w = hypot(vr0[0], vr0[1]), Fbar = fb_contact_S(c, w, NULL);
  const double e[2] = {w > 0.0 ? Fbar * vr0[0] / (w * p->K) : 0.0,
                       w > 0.0 ? Fbar * vr0[1] / (w * p->K) : 0.0};
  double F[2], dp[2];
  const int stick = kbe_impedance_pair(p, 1.0, Fbar, e, vr0, F, dp);
  z0[0] = e[0], z0[1] = F[0], z0[2] = stick;
  z0[3] = e[1], z0[4] = F[1], z0[5] = stick;
}

/* ---- the schemes ---------------------------------------------------------------------- */

enum { KBE_SYMPLECTIC = 0, KBE_EXACT = 1, KBE_RELAY = 2 };
static const int kbe_kind_symplectic = KBE_SYMPLECTIC, kbe_kind_exact = KBE_EXACT,
                 kbe_kind_relay = KBE_RELAY;

typedef struct kbe_ws {
  const fb_problem *pb;
  const fb_plant *pl;
  const fb_model *md;
  int kind;
  double h;
  size_t n, nc;
  double *block;                 /* scratch, one allocation */
  double *f, *a, *xold, *w; /* n, n, n, 2n */
  double *uold, *dp;             /* nc: surface velocity at the step start, anchor moves */
  double *mdiag, *minv;          /* n: M_jj and (M^-1)_jj (kbe-relay: M is diagonal) */
  /* kbe-exact: Phi (2n x 2n) and Gamma (2n x n) for h and for each segment's last step. */
  size_t nseg;
  double *dt_last;   /* nseg */
  double *Phi, *Gam; /* (1 + nseg) blocks, block 0 for h */
} kbe_ws;

static void kbe_free(void *wsv)
{
  kbe_ws *ws = wsv;
  if (ws == NULL)
    return;
  free(ws->block);
  free(ws->dt_last);
  free(ws->Phi);
  free(ws->Gam);
  free(ws);
}

/* Phi = e^{A dt}, Gamma = int_0^dt e^{A s} ds B for x' = v, M v' + D v + K x = g held:
 * the top blocks of the exponential of the augmented matrix [[A, B], [0, 0]] dt. */
static int kbe_expm(const fb_plant *pl, double dt, double *Phi, double *Gam, fb_err *err)
{
  const size_t n = pl->n, N3 = 3 * n;
  gsl_matrix *E = gsl_matrix_calloc(N3, N3), *X = gsl_matrix_alloc(N3, N3);
  int st = FB_OK;
  if (E == NULL || X == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto done;
  }
  for (size_t j = 0; j < n; j++) {
    gsl_matrix_set(E, j, n + j, dt);
    for (size_t k = 0; k < n; k++) {
      double mk = 0.0, md = 0.0;
      for (size_t l = 0; l < n; l++) {
        mk += pl->Minv[j * n + l] * pl->K[l * n + k];
        md += pl->Minv[j * n + l] * pl->D[l * n + k];
      }
      gsl_matrix_set(E, n + j, k, -mk * dt);
      gsl_matrix_set(E, n + j, n + k, -md * dt);
      gsl_matrix_set(E, n + j, 2 * n + k, pl->Minv[j * n + k] * dt);
    }
  }
  if (gsl_linalg_exponential_ss(E, X, GSL_PREC_DOUBLE) != GSL_SUCCESS) {
    st = fb_err_set(err, FB_EGSL, "kbe-exact: matrix exponential failed (dt = %g)", dt);
    goto done;
  }
  for (size_t r = 0; r < 2 * n; r++) {
    for (size_t c = 0; c < 2 * n; c++)
      Phi[r * 2 * n + c] = gsl_matrix_get(X, r, c);
    for (size_t c = 0; c < n; c++)
      Gam[r * n + c] = gsl_matrix_get(X, r, 2 * n + c);
  }
done:
  gsl_matrix_free(E);
  gsl_matrix_free(X);
  return st;
}

/* The last step of each segment, as the driver (integrators/stepper.c) will plan it (same
 * arithmetic). */
static double kbe_segment_last(double tseg, double t1, double h)
{
  double t = tseg;
  unsigned long k = 0;
  while (!((t1 - t) <= h * (1.0 + 1e-9)))
    t = tseg + (double)(++k) * h;
  return t1 - t;
}

static int kbe_alloc(void **out, const fb_integrator_type *type, const fb_problem *pb,
                     const fb_int_opts *o, fb_err *err)
{
  const fb_plant *pl = pb->plant;
  const size_t n = pl->n, nc = pl->nc;
  *out = NULL;
  if (pb->model->type != &fb_model_kikuuwe_be)
    return fb_err_set(err, FB_EUNSUP, "%s runs only the kikuuwe-be model, not %s", type->name,
                      pb->model->type->name);
  if (!(isfinite(o->h) && o->h > 0))
    return fb_err_set(err, FB_EINVAL, "%s is a fixed-step scheme: give a step h > 0",
                      type->name);
  const int kind = *(const int *)type->data;
  if (kind == KBE_RELAY && (pl->has_jt || pl->npairs > 0))
    return fb_err_set(err, FB_EUNSUP,
                      "kbe-relay is a per-DOF relay: 2-D contacts and contacts with a "
                      "tangential Jacobian need kbe-symplectic or kbe-exact (docs/design.md §13)");
  if (kind == KBE_RELAY) {
    if (!pl->M_diagonal)
      return fb_err_set(err, FB_EUNSUP,
                        "kbe-relay needs a diagonal mass matrix (the relay step is per DOF): "
                        "use kbe-symplectic or kbe-exact, or moreau-jean");
    /* one contact per DOF, in O(n + nc): the contact last seen on each DOF */
    size_t *seen = malloc((n + 1) * sizeof(size_t));
    if (seen == NULL)
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    for (size_t j = 0; j < n; j++)
      seen[j] = SIZE_MAX;
    for (size_t i = 0; i < nc; i++) {
      const size_t j = pl->contact[i].dof, k = seen[j];
      seen[j] = i;
      if (k != SIZE_MAX) {
        free(seen);
        return fb_err_set(err, FB_EUNSUP,
                          "kbe-relay allows one contact per DOF (contacts %zu and %zu share "
                          "DOF %zu): use kbe-symplectic or kbe-exact",
                          k, i, j);
      }
    }
    free(seen);
  }
  if (kind != KBE_RELAY)
    kbe_cap_to_step(pb, o->h);
  kbe_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  ws->pb = pb;
  ws->pl = pl;
  ws->md = pb->model;
  ws->kind = kind;
  ws->h = o->h;
  ws->n = n;
  ws->nc = nc;
  int st = FB_OK;
  ws->block = calloc(7 * n + 2 * nc + 1, sizeof(double));
  if (ws->block == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto fail;
  }
  double *b = ws->block;
  ws->f = b, b += n;
  ws->a = b, b += n;
  ws->xold = b, b += n;
  ws->w = b, b += 2 * n;
  ws->uold = b, b += nc;
  ws->dp = b, b += nc;
  ws->mdiag = b, b += n;
  ws->minv = b;
  for (size_t j = 0; j < n && kind == KBE_RELAY; j++) {
    ws->mdiag[j] = fb_plant_M_at(pl, j, j);
    ws->minv[j] = fb_plant_minv_diag(pl, j); /* the dense inverse's entry, or 1/M_jj exactly */
  }
  if (kind == KBE_EXACT) {
    ws->nseg = pl->nbreaks + 1;
    ws->dt_last = calloc(ws->nseg, sizeof(double));
    ws->Phi = calloc((ws->nseg + 1) * 4 * n * n, sizeof(double));
    ws->Gam = calloc((ws->nseg + 1) * 2 * n * n, sizeof(double));
    if (ws->dt_last == NULL || ws->Phi == NULL || ws->Gam == NULL) {
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
      goto fail;
    }
    st = kbe_expm(pl, ws->h, ws->Phi, ws->Gam, err);
    for (size_t s = 0; s < ws->nseg && st == FB_OK; s++) {
      const double ta = s == 0 ? pl->t0 : pl->breaks[s - 1];
      const double tb = s < pl->nbreaks ? pl->breaks[s] : pl->T;
      ws->dt_last[s] = kbe_segment_last(ta, tb, ws->h);
      st = kbe_expm(pl, ws->dt_last[s], ws->Phi + (s + 1) * 4 * n * n,
                    ws->Gam + (s + 1) * 2 * n * n, err);
    }
    if (st != FB_OK)
      goto fail;
  }
  *out = ws;
  return FB_OK;
fail:
  kbe_free(ws);
  return st;
}

/* A time of the current segment (ta, tb]: exactly at a break the forcing and contact
 * are read one ulp inside it, whichever side the scenario assigns the break. */
static double kbe_in(double t, double ta, double tb)
{
  if (t <= ta)
    return nextafter(t, INFINITY);
  if (t >= tb)
    return nextafter(t, -INFINITY);
  return t;
}

/* Impedance form: F_k and the anchor moves from the state at t_k, then the plant. */
static void kbe_step_impedance(kbe_ws *ws, double t, double dt, double tnew, double ta, double tb,
                               size_t seg, int last, double *y)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = kbe_in(t, ta, tb), t1 = kbe_in(tnew, ta, tb);
  /* F_k from (s_k, v_k, p_{k-1}) with s - p = e: fb_kbe_impedance_step with s = e, p = 0
   * returns the anchor's move in p. */
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    double u;
    fb_contact_in_at(pl, i, t0, &ci, &u);
    const kbe_params *p = fb_model_cparams(ws->md, i);
    const double vr = fb_contact_vel(pl, i, v) - u;
    if (pl->contact[i].pair == FB_PAIR_X) { /* a 2-D contact: entries i, i+1 */
      double uy, F[2], dp[2];
      fb_contact_state cy;
      fb_plant_contact_at(pl, i + 1, t0, &cy);
      uy = cy.u;
      const double v2[2] = {vr, fb_contact_vel(pl, i + 1, v) - uy};
      const double e2[2] = {z[3 * i], z[3 * i + 3]};
      const int stick =
          kbe_impedance_pair(p, dt, fb_contact_S(&ci, hypot(v2[0], v2[1]), NULL), e2, v2, F, dp);
      z[3 * i + 1] = F[0], z[3 * i + 4] = F[1];
      z[3 * i + 2] = z[3 * i + 5] = stick;
      ws->dp[i] = dp[0], ws->dp[i + 1] = dp[1];
      ws->uold[i] = u, ws->uold[i + 1] = uy;
      i++;
      continue;
    }
    double anchor = 0.0;
    int stick;
    z[3 * i + 1] = fb_kbe_impedance_step(p->K, p->B, dt, fb_contact_S(&ci, fabs(vr), NULL),
                                         z[3 * i], vr, &anchor, &stick);
    z[3 * i + 2] = stick;
    ws->dp[i] = anchor;
    ws->uold[i] = u;
  }
  /* The plant over the step with f(t_k, x_k, v_k) and F_k held. */
  if (pl->force != NULL)
    pl->force(pl->sp, t0, x, v, ws->f);
  else
    memset(ws->f, 0, n * sizeof(double));
  memcpy(ws->xold, x, n * sizeof(double));
  if (ws->kind == KBE_SYMPLECTIC) {
    fb_plant_sub_linear(pl, x, v, ws->f);
    for (size_t i = 0; i < nc; i++)
      fb_contact_add_force(pl, i, z[3 * i + 1], ws->f);
    fb_plant_solve_mass(pl, ws->f, ws->a);
    for (size_t j = 0; j < n; j++) {
      v[j] += dt * ws->a[j];
      x[j] += dt * v[j];
    }
  } else {
    for (size_t i = 0; i < nc; i++)
      fb_contact_add_force(pl, i, z[3 * i + 1], ws->f);
    const size_t blk = last ? seg + 1 : 0;
    const double *Phi = ws->Phi + blk * 4 * n * n, *Gam = ws->Gam + blk * 2 * n * n;
    memcpy(ws->w, y, 2 * n * sizeof(double));
    for (size_t r = 0; r < 2 * n; r++) {
      double s = 0.0;
      for (size_t c = 0; c < 2 * n; c++)
        s += Phi[r * 2 * n + c] * ws->w[c];
      for (size_t c = 0; c < n; c++)
        s += Gam[r * n + c] * ws->f[c];
      y[r] = s;
    }
  }
  /* e_{k+1} = s_{k+1} - p_k, then what the next step will hold (reported at t_{k+1}). */
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    double u1;
    fb_contact_in_at(pl, i, t1, &ci, &u1);
    const kbe_params *p = fb_model_cparams(ws->md, i);
    const double ds = (fb_contact_vel(pl, i, x) - fb_contact_vel(pl, i, ws->xold)) -
                      0.5 * dt * (ws->uold[i] + u1);
    const double e = z[3 * i] - ws->dp[i] + ds, vr = fb_contact_vel(pl, i, v) - u1;
    if (pl->contact[i].pair == FB_PAIR_X) { /* both components first, then the pair */
      fb_contact_state cy;
      fb_plant_contact_at(pl, i + 1, t1, &cy);
      const double dsy = (fb_contact_vel(pl, i + 1, x) - fb_contact_vel(pl, i + 1, ws->xold)) -
                         0.5 * dt * (ws->uold[i + 1] + cy.u);
      const double e2[2] = {e, z[3 * i + 3] - ws->dp[i + 1] + dsy};
      const double v2[2] = {vr, fb_contact_vel(pl, i + 1, v) - cy.u};
      double F[2], dp[2];
      const int stick =
          kbe_impedance_pair(p, dt, fb_contact_S(&ci, hypot(v2[0], v2[1]), NULL), e2, v2, F, dp);
      z[3 * i] = e2[0], z[3 * i + 3] = e2[1];
      z[3 * i + 1] = F[0], z[3 * i + 4] = F[1];
      z[3 * i + 2] = z[3 * i + 5] = stick;
      i++;
      continue;
    }
    double anchor = 0.0;
    int stick;
    z[3 * i] = e;
    z[3 * i + 1] = fb_kbe_impedance_step(p->K, p->B, dt, fb_contact_S(&ci, fabs(vr), NULL), e,
                                         vr, &anchor, &stick);
    z[3 * i + 2] = stick;
  }
}

/* Admittance form: the implicit-Euler relay step of every DOF (M diagonal). */
static void kbe_step_relay(kbe_ws *ws, double t, double dt, double tnew, double ta, double tb,
                           double *y)
{
  const fb_plant *pl = ws->pl;
  const size_t n = ws->n, nc = ws->nc;
  double *x = y, *v = y + n, *z = y + 2 * n;
  const double t0 = kbe_in(t, ta, tb), t1 = kbe_in(tnew, ta, tb);
  if (pl->force != NULL)
    pl->force(pl->sp, t1, x, v, ws->f);
  else
    memset(ws->f, 0, n * sizeof(double));
  fb_plant_sub_linear(pl, x, v, ws->f);
  for (size_t j = 0; j < n; j++) /* v_free of the DOFs without contact is their v_{k+1} */
    ws->a[j] = v[j] + dt * ws->minv[j] * ws->f[j];
  for (size_t i = 0; i < nc; i++) {
    fb_contact_in ci;
    fb_contact_state cs0;
    double u1, Fr;
    int stick;
    const size_t j = pl->contact[i].dof;
    const double m = ws->mdiag[j];
    fb_plant_contact_at(pl, i, t0, &cs0);
    fb_contact_in_at(pl, i, t1, &ci, &u1);
    const double vr0 = v[j] - cs0.u;
    /* c gamma(v_r,k) = sgn(v_r,k) (Fs - S(|v_r,k|)): explicit, at the step's start */
    const double cg = vr0 == 0.0 ? 0.0 : fb_sgn(vr0) * (ci.Fs - fb_contact_S(&ci, fabs(vr0), NULL));
    const double vrf = ws->a[j] + dt * ws->minv[j] * cg - u1;
    const double vr1 = fb_kbe_relay_step(m, dt, ci.Fs, vrf, &Fr, &stick);
    ws->a[j] = u1 + vr1;
    z[3 * i] = 0.0;
    z[3 * i + 1] = Fr + cg;
    z[3 * i + 2] = stick;
  }
  for (size_t j = 0; j < n; j++) {
    v[j] = ws->a[j];
    x[j] += dt * v[j];
  }
}

static int kbe_step_at(void *ctx, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  kbe_ws *ws = ctx;
  if (ws->kind == KBE_RELAY)
    kbe_step_relay(ws, at->t, at->dt, at->tnew, at->tseg, at->t1, y);
  else
    kbe_step_impedance(ws, at->t, at->dt, at->tnew, at->tseg, at->t1, at->seg, at->last, y);
  cnt->nfe++;
  return FB_OK;
}

/* At the start the relay (admittance) form drops the anchor state it does not have. */
static int kbe_reset(void *wsv, fb_step_at *at, double *y, fb_counters *cnt, fb_err *err)
{
  (void)cnt;
  (void)err;
  kbe_ws *ws = wsv;
  if (ws->kind == KBE_RELAY && at->seg == 0)
    for (size_t i = 0; i < ws->nc; i++)
      y[2 * ws->n + 3 * i] = 0.0; /* no anchor in the admittance form */
  return FB_OK;
}

/* One evaluation of the applied force per step. */
static unsigned long kbe_rhs_per_step(const void *ws)
{
  (void)ws;
  return 1;
}

static const fb_integrator_type kbe_symplectic = {
    .name = "kbe-symplectic",
    .title = "Kikuuwe impedance form, plant by symplectic Euler with F held",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 0,
    .order = 1,
    .data = &kbe_kind_symplectic,
    .alloc = kbe_alloc,
    .free = kbe_free,
    .reset = kbe_reset,
    .step = kbe_step_at,
    .rhs_per_step = kbe_rhs_per_step,
};

static const fb_integrator_type kbe_exact = {
    .name = "kbe-exact",
    .title = "Kikuuwe impedance form, plant's linear part exact with F held",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 0,
    .order = 1,
    .data = &kbe_kind_exact,
    .alloc = kbe_alloc,
    .free = kbe_free,
    .reset = kbe_reset,
    .step = kbe_step_at,
    .rhs_per_step = kbe_rhs_per_step,
};

static const fb_integrator_type kbe_relay = {
    .name = "kbe-relay",
    .title = "Kikuuwe admittance form: implicit-Euler relay step per DOF (diagonal M)",
    .needs = 0,
    .fixed_ok = 1,
    .adaptive_ok = 0,
    .implicit = 1,
    .order = 1,
    .data = &kbe_kind_relay,
    .alloc = kbe_alloc,
    .free = kbe_free,
    .reset = kbe_reset,
    .step = kbe_step_at,
    .rhs_per_step = kbe_rhs_per_step,
    .one_dim = 1,
};

static const fb_integrator_type *const kbe_schemes[] = {&kbe_symplectic, &kbe_exact, &kbe_relay,
                                                        NULL};

/* The anchor spring's energy K e^2 / 2 (J); e = 0 in the relay step, which has none. */
static double kbe_energy(const void *pv, const fb_contact_in *c, const double *z)
{
  const kbe_params *p = pv;
  (void)c;
  return 0.5 * p->K * z[0] * z[0];
}

const fb_model_type fb_model_kikuuwe_be = {
    .stiffness_param = "K",
    .stored_energy = kbe_energy,
    .name = "kikuuwe-be",
    .title = "Kikuuwe's discrete-time friction: backward-Euler anchor / relay step, closed form",
    .reference = "Kikuuwe et al., IEEE T-RO 22(6) 2006; [Xiong2013] §3.1, Theorem 1",
    .caps = FB_MODEL_OWNED | FB_MODEL_STICK | FB_MODEL_VEC2,
    .default_integrator = "kbe-symplectic",
    .default_tol = 0,
    .params = &kbe_set,
    .nz = 3,
    .z_names = kbe_z,
    .resolve = kbe_resolve,
    .init = kbe_init,
    .init2 = kbe_init2,
    .force = NULL,
    .jac = NULL,
    .output = kbe_output,
    .stick = NULL,
    .schemes = kbe_schemes,
    /* No regularization ladder: K and B are swept through the ODE form (`kikuuwe`), and
     * the suite's regularization group runs adaptive, which these schemes are not. */
};

/* The suite's policy for kikuuwe-be (include/fricbench/fb_model_suite.h). */
const fb_model_suite fb_suite_kikuuwe_be = {
    .model = "kikuuwe-be",
    .color = "#98df8a",
    .stores_energy = 1,
    .conv = {"kbe-symplectic", "kbe-exact", "kbe-relay", NULL},
    .wp = {NULL},
    .cost_integrator = "kbe-symplectic",
    .cost_h = 1e-3,
    .cost_hint = 1,
    .expect = "first order; the relay form sticks exactly (v identically 0) at any h; "
              "the impedance form holds its anchor (stick up to Fs/K) while "
              "h sqrt(K/m) < ~1 (Kikuuwe et al., IEEE T-RO 22(6) 2006)"
};

/* The per-contact step the library exports (docs/design.md §11): the impedance form above
 * with the plant's step left to the caller, who passes the relative position in in->x. */
static int kbe_contact_step(fb_contact_stepper *s, const fb_contact_in *c,
                            const fb_contact_step_in *in)
{
  const kbe_params *p = s->params;
  if (p == NULL || !(in->h > 0) || !(in->m > 0))
    return FB_EINVAL;
  const double vr = in->v - in->u;
  s->F = fb_kbe_impedance_step(p->K, p->B, in->h, fb_contact_S(c, fabs(vr), NULL), in->x, vr,
                               &s->p, &s->stick);
  s->v_next = in->v + in->h / in->m * (in->f_other + s->F);
  return FB_OK;
}

const fb_contact_step_type fb_contact_step_kikuuwe_be = {
    .name = "kikuuwe-be",
    .title = "Kikuuwe's discrete-time friction, impedance form (anchor p, exact stick at any h)",
    .reference = "Kikuuwe et al. 2006, IEEE T-RO 22(6); docs/design.md §3 M8",
    .model = "kikuuwe-be",
    .init = NULL,
    .step = kbe_contact_step,
};
