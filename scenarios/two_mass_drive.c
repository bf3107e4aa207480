/* two_mass_drive.c — a drive pulls two masses in series, the second on rough ground
 * ([Engleder2002] §2, the friction benchmark of Engleder, Vielsack & Schweizerhof; docs/design.md §5).
 *
 * TOPOLOGY IS OUR READING.  [Engleder2002]'s Figure 1 (the mechanical model) was lost in the
 * text extraction; the text names a drive y(t), masses M and m, springs K and k, a
 * damping D, a friction bound R0 acting on m, and says the system has 2 DOF in slip and
 * 1 DOF when m sticks.  We read it as the chain
 *
 *     y(t) --[K, D K]-- M --[k, D k]-- m ///rough ground (R0)///
 *
 * with x = (X_M, x_m) the absolute displacements (DOF 0 = M, DOF 1 = m):
 *
 *     M X''  = K (y - X) + D K (y' - X') - k (X - x) - D k (X' - x')
 *     m x''  = k (X - x) + D k (X' - x') + F,        F in -R0 Sgn(x')
 *
 *     y(t) = v t + A sin(Omega t),   y'(t) = v + A Omega cos(Omega t).
 *
 * So the plant (docs/design.md §2) has mass diag(M, m), stiffness Kmat = [[K + k, -k], [-k, k]],
 * damping D Kmat, and the drive enters as the time-dependent force
 * f(t) = (K y(t) + D K y'(t), 0) on M (it does not depend on the state).
 *
 * Readings of the paper's data (nondimensional; R0 = 1, M/m = 25, K/k = 1, D = 0.01,
 * v = 0.5, A = 0.75, "frequency ratio eta = 0.2"):
 *  - m = 1, k = 1 fix the scales: time tau = omega_0 t with omega_0 = sqrt(k/m) = 1, so
 *    [Engleder2002]'s steps "Delta tau = 0.1, 0.001" are h = 0.1, 0.001 here.
 *  - D = 0.01, "Rayleigh on springs": a damper parallel to each spring with coefficient
 *    D times that spring's stiffness (stiffness-proportional Rayleigh damping, D Kmat).
 *    For the m-k oscillator this is a damping ratio D/2 at omega_0 (the paper's D could
 *    also be Lehr's ratio; the parameter D lets one set either).
 *  - eta = Omega / omega_0 with omega_0 = sqrt(k/m) = 1, so Omega = 0.2.  (This equals
 *    sqrt(K/M) = 0.2, and lies near the lower sliding mode 0.196: the harmonic part of
 *    the drive nearly resonates with the drive-spring / big-mass mode.)
 *  - Coulomb friction: Fs = Fc = R0 (shape coulomb, N = 1, mu_s = R0).
 *  - Initial state: everything at rest, springs relaxed (y(0) = 0 = X(0) = x(0),
 *    X'(0) = x'(0) = 0).  The drive starts at speed v + A Omega at t = 0, so m first
 *    sticks (the required friction force grows from 0) until k (X - x) reaches R0.
 *  - T = 20 drive periods = 20 x 2 pi / 0.2 = 628.3.  [Engleder2002] stresses that long runs
 *    are needed for the light damping to remove the initial transient.  Measured (rate
 *    form and Newmark, eps = 0.001): after a transient of ~4 periods with several stick
 *    phases per period, one stick phase per drive period (~13 of its 31.4 time units);
 *    the period-to-period (Poincare) map contracts by about 0.8 per period, so the state
 *    at t = k 2 pi/Omega is within 0.03 of the periodic orbit from k = 12, 1e-2 at
 *    k = 20 and 1e-3 from k ~ 28 (Newmark, h = 0.002, checked to k = 160).  T = 20
 *    periods shows the stationary stick-slip over its second half to about 1e-2; set T
 *    larger for tighter stationarity (the orbit converges: period one, no chaos).
 * f_c: the highest natural frequency of the free (sliding) plant, sqrt of the largest
 * eigenvalue of K v = lambda M v (GSL gensymm), over 2 pi (0.162 Hz with the defaults).
 * Velocity scale: the drive speed v.  Reference: the event-driven solver.
 */
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct tmd_params {
  double m, k, M, K, R0, D, v, A, Omega, T;
} tmd_params;

static const fb_param_desc tmd_desc[] = {
    {"m", "1", "mass on the rough ground (DOF 1)", offsetof(tmd_params, m), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k", "1", "spring between M and m", offsetof(tmd_params, k), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"M", "1", "driven mass (DOF 0)", offsetof(tmd_params, M), 25, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"K", "1", "spring between the drive and M", offsetof(tmd_params, K), 1, 0, INFINITY,
     FB_PARAM_MIN_OPEN, NULL, NULL},
    {"R0", "1", "friction bound on m (Coulomb, Fs = Fc = R0)", offsetof(tmd_params, R0), 1, 0,
     INFINITY, 0, NULL, NULL},
    {"D", "1", "Rayleigh factor: each spring has a parallel damper D x its stiffness",
     offsetof(tmd_params, D), 0.01, 0, INFINITY, 0, NULL, NULL},
    {"v", "1", "mean drive speed", offsetof(tmd_params, v), 0.5, -INFINITY, INFINITY, 0, NULL,
     NULL},
    {"A", "1", "amplitude of the drive's harmonic part", offsetof(tmd_params, A), 0.75,
     -INFINITY, INFINITY, 0, NULL, NULL},
    {"Omega", "1", "drive frequency ([Engleder2002]'s eta times sqrt(k/m) = 1)",
     offsetof(tmd_params, Omega), 0.2, 0, INFINITY, 0, NULL, NULL},
    {"T", "1", "end time (default 20 drive periods 2 pi/0.2)", offsetof(tmd_params, T),
     40.0 * M_PI / 0.2, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
};
static const fb_param_set tmd_set = {sizeof(tmd_params), 10, tmd_desc};

/* The drive acts on M through the spring K and its damper D K. */
static void tmd_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const tmd_params *p = sp;
  (void)x, (void)v;
  const double y = p->v * t + p->A * sin(p->Omega * t);
  const double yd = p->v + p->A * p->Omega * cos(p->Omega * t);
  f[0] = p->K * y + p->D * p->K * yd;
  f[1] = 0.0;
}

/* Largest natural angular frequency: K phi = lambda M phi (symmetric-definite). */
static int tmd_omega_max(const tmd_params *p, double *omega, fb_err *err)
{
  double Kd[4] = {p->K + p->k, -p->k, -p->k, p->k}, Md[4] = {p->M, 0.0, 0.0, p->m}, ev[2];
  gsl_matrix_view Km = gsl_matrix_view_array(Kd, 2, 2), Mm = gsl_matrix_view_array(Md, 2, 2);
  gsl_vector_view evv = gsl_vector_view_array(ev, 2);
  gsl_eigen_gensymm_workspace *w = gsl_eigen_gensymm_alloc(2);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "two-mass-drive: out of memory");
  const int st = gsl_eigen_gensymm(&Km.matrix, &Mm.matrix, &evv.vector, w);
  gsl_eigen_gensymm_free(w);
  if (st != GSL_SUCCESS)
    return fb_err_set(err, FB_EGSL, "two-mass-drive: eigenvalues failed: %s", gsl_strerror(st));
  *omega = sqrt(fmax(fmax(ev[0], ev[1]), 0.0));
  return FB_OK;
}

static int tmd_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const tmd_params *p = sp;
  double omega = 0.0;
  int st = tmd_omega_max(p, &omega, err);
  if (st != FB_OK)
    return st;
  if (fb_plant_alloc(pl, 2, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  const double Kmat[4] = {p->K + p->k, -p->k, -p->k, p->k};
  pl->M[0] = p->M;
  pl->M[3] = p->m;
  for (int i = 0; i < 4; i++) {
    pl->K[i] = Kmat[i];
    pl->D[i] = p->D * Kmat[i];
  }
  /* x0 = v0 = 0 (fb_plant_alloc zeroes them): rest, springs relaxed, y(0) = 0. */
  pl->T = p->T;
  pl->f_c = omega / (2.0 * M_PI);
  pl->v_scale = fabs(p->v) > 0 ? fabs(p->v) : fmax(fabs(p->A * p->Omega), 1e-3);
  pl->force = tmd_force;
  pl->force_uses_state = 0;
  pl->contact[0].dof = 1;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->R0, p->R0, 1.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind tmd_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_two_mass_drive = {
    .name = "two-mass-drive",
    .title = "drive -> K -> M -> k -> m on rough ground: stick-slip of m (topology our reading)",
    .source = "Engleder, Vielsack & Schweizerhof 2002 [Engleder2002] §2 (fig. 1 lost: topology our reading)",
    .params = &tmd_set,
    .ref_kind = tmd_ref_kind,
    .build = tmd_build,
    .exact = NULL,
};
