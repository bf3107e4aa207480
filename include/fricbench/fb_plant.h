/* fb_plant.h — the mechanical system every scenario builds (docs/design.md §2).
 *
 *     M xddot + D xdot + K x = f(t, x, xdot) + sum_i e_{j_i} F_i
 *
 * n degrees of freedom, M symmetric positive definite, D and K may be zero;
 * f is the applied force *minus* any extra smooth force g(t, x, xdot) (nonlinear
 * springs, drives through a spring), supplied by the scenario's callback; nc
 * contacts, contact i acting on DOF j_i with normal force N_i(t) >= 0 and surface
 * (belt) velocity u_i(t).  The relative velocity is v_r = xdot_j - u (docs/design.md §1) and
 * F_i is the friction force on the body.
 *
 * A plant is immutable once built; integrators keep their own scratch space.  What it
 * allocates is behind the opaque ext_ (fb_plant_alloc, fb_plant_alloc_jacobians; freed by
 * fb_plant_free): a scenario fills the fields below and never sees that.
 * Matrices are dense, row-major, n*n, unless the plant is banded (fb_plant_alloc_banded):
 * then M, D, K live in the symmetric band store Mb, Db, Kb and M, Minv, D, K are NULL
 * (docs/scenarios/chain.md, "The banded plant").
 */
#ifndef FB_PLANT_H
#define FB_PLANT_H

#include <stddef.h>

#include "fb_api.h"
#include "fb_friction.h"
#include "fb_status.h"

/* What a contact sees at time t. */
typedef struct fb_contact_state {
  double N;    /* normal force (N), >= 0 */
  double u;    /* surface velocity (m/s) */
  double udot; /* surface acceleration (m/s^2) */
} fb_contact_state;

/* An optional normal (unilateral) direction (docs/design.md §12): gap g_n = J_n q + g_0 >= 0,
 * normal velocity J_n qdot, normal force lambda_n >= 0 entering as J_n^T lambda_n.  When
 * fric >= 0, friction contact `fric` takes its normal force from lambda_n(t) instead of a
 * prescribed N(t).  The treatment (newton, penalty-n, ...) and its parameters are chosen
 * by name (include/fricbench/fb_normal.h); plants without normals (nn = 0) are unchanged. */
#define FB_NORMAL_NP 8 /* parameter slots of a normal treatment (doubles) */
typedef struct fb_normal {
  double *Jn;     /* gap row, n entries */
  double g0;      /* gap offset (m) */
  double e;       /* restitution coefficient the scenario sets (Newton's law), in [0, 1] */
  long fric;      /* friction contact bounded by mu lambda_n, or -1 */
  double a_scale; /* acceleration scale of the free motion along J_n (m/s^2), e.g. g */
  double h_scale; /* gap scale (m), e.g. the drop height */
  const struct fb_normal_type *type; /* the treatment */
  /* private: the parameters of the selected treatment (autos NaN until resolved), written
   * by fb_normal_select and fb_normal_set and read by the library only; the slots are
   * FB_NORMAL_NP doubles in its parameter set's layout, not an interface. */
  double np_[FB_NORMAL_NP];
} fb_normal;

/* A 2-D contact (docs/design.md §13) is two consecutive entries of the contact array, the
 * x and y components of its slip u = J_t qdot - u_surf: FB_PAIR_X on the first, FB_PAIR_Y
 * on the second, which share the friction law and the normal force.  Every array indexed
 * by contact (forces F, states z, stick flags, trajectory columns) thus keeps one slot per
 * component, and a 1-D contact (FB_PAIR_NONE) is unchanged. */
enum fb_contact_pair { FB_PAIR_NONE = 0, FB_PAIR_X = 1, FB_PAIR_Y = 2 };

typedef struct fb_contact {
  size_t dof;          /* index j of the DOF it acts on when Jt is NULL */
  fb_friction law;     /* S(w) = N mu(w) */
  fb_contact_state c0; /* N, u, udot when they do not vary in time (contact_state == NULL) */
  /* Tangential Jacobian row (n entries): v_r = Jt . v - u, friction enters as Jt^T F
   * (docs/design.md §13).  NULL: the unit row e_dof, today's one-DOF contact, whose code
   * paths are kept as they were (results identical to the bit). */
  double *Jt;
  unsigned pair;       /* enum fb_contact_pair */
} fb_contact;

/* Applied force at (t, x, v) into f[n] (N): external forcing minus any smooth extra
 * force g; friction, D v and K x are added by the integrator.  sp: scenario params. */
typedef void (*fb_force_fn)(const void *sp, double t, const double *x, const double *v, double *f);
/* Time-varying normal force / surface velocity of contact i. */
typedef void (*fb_contact_fn)(const void *sp, size_t i, double t, fb_contact_state *cs);

/* The applied force as data, when the scenario can say what force() computes: then a
 * stepper may evaluate it in line instead of calling force() through its pointer (the
 * fixed-step kernels of fb_kernel.h do; one call per stage was a tenth of a cheap model's
 * step).  FB_FORCING_COS: f[dof] = amp cos(omega t), every other entry 0, written with
 * exactly that expression in force().  force() stays the definition: fb_plant_finish
 * compares the two, to the bit, at FB_FORCING_CHECKS times of [t0, T], and refuses the
 * plant when they differ.  FB_FORCING_CALL (0, what fb_plant_alloc sets): force() only. */
enum fb_forcing_kind { FB_FORCING_CALL = 0, FB_FORCING_COS = 1 };
#define FB_FORCING_CHECKS 64
typedef struct fb_forcing {
  int kind;          /* enum fb_forcing_kind */
  size_t dof;        /* FB_FORCING_COS: the DOF it acts on */
  double amp, omega; /* FB_FORCING_COS: amplitude (N), angular frequency (rad/s) */
} fb_forcing;

/* The kinematic map qdot = T(q) nu (docs/scenarios/sphere-drop.md "The kinematic map"):
 * generalized velocities nu = v (n of them) that are not the rates of the positions.  The
 * positions are q = (x, Q): x (n) with x' = v as everywhere else (for a rotational DOF the
 * time integral of its omega, a bookkeeping coordinate), followed by one unit quaternion
 * Q = (w, x, y, z) per block, Q' = 1/2 (0, omega) (x) Q with omega = (v[dof], v[dof+1],
 * v[dof+2]) in the space frame ([Xiong2013] §5.1).  The quaternions sit at the end of an
 * integrator's state, after the model's states (fb_problem: y = [x, v, z, Q]).  nquat = 0
 * (what fb_plant_alloc sets): T = I, nothing changes. */
#define FB_QUAT_MAX 2
typedef struct fb_quat_block {
  size_t dof;   /* first of its three angular-velocity DOFs (space frame, rad/s) */
  double Q0[4]; /* initial attitude (w, x, y, z), unit */
} fb_quat_block;
typedef struct fb_kinematics {
  size_t nquat;                   /* quaternion blocks, 0 ... FB_QUAT_MAX */
  fb_quat_block quat[FB_QUAT_MAX];
  int renormalize;                /* 1: schemes that integrate the map rescale every Q to unit
                                     norm after each step; 0 (default): never, so that the
                                     drift max |‖Q‖ - 1| is the scheme's own */
} fb_kinematics;

struct fb_plant_ext; /* private to core/fb_plant.c */

typedef struct fb_plant {
  size_t n;            /* degrees of freedom */
  size_t nc;           /* contacts */
  double *M;           /* mass matrix, SPD (kg) */
  double *Minv;        /* its inverse, computed by fb_plant_finish */
  double *D;           /* damping (N s/m) */
  double *K;           /* stiffness (N/m) */
  int M_diagonal;      /* 1 when M is diagonal (fast paths, closed-form steps) */
  int has_D, has_K;    /* 0 when the matrix is identically zero */
  fb_contact *contact; /* nc contacts */
  double *x0, *v0;     /* initial state */
  double t0, T;        /* time interval (s) */
  double f_c;          /* characteristic frequency (Hz): highest natural or forcing frequency,
                          or 1/(T - t0); sets the default stiffness of regularized models */
  double v_scale;      /* velocity scale (m/s) of the motion */
  double v_stick;      /* |v_r| below this counts as stick in metrics (default 1e-4 v_scale) */
  double L;            /* length scale (m) of the hold verdict's thresholds (docs/design.md
                          §5.3, §10.1): the preload deflection of a spring-loaded hold; 0
                          (default): v_scale / (2 pi f_c), the travel at the velocity scale
                          over one characteristic period */
  size_t nbreaks;      /* forcing discontinuities strictly inside (t0, T), ascending */
  double *breaks;
  const void *sp;             /* scenario parameters, passed back to the callbacks */
  fb_force_fn force;          /* applied force; NULL means f = 0 */
  int force_uses_state;       /* 1 when force depends on x or v (then Jacobians difference it) */
  fb_contact_fn contact_state; /* NULL: every contact uses its c0 */
  struct fb_plant_ext *ext_;  /* private to core/fb_plant.c (opaque): the plant's own
                                 allocations; NULL before fb_plant_alloc */
  size_t nn;                  /* normal directions (0 for friction-only plants) */
  fb_normal *normal;          /* nn of them (fb_plant_alloc_normals), freed with the plant */
  size_t npairs;              /* 2-D contacts (pairs of entries), set by fb_plant_finish */
  int has_jt;                 /* 1 when some contact has a Jacobian row (Jt != NULL) */
  long path_dof[2];           /* DOFs of the body's path in the plane (x-y plots and the path
                                 error of 2-D scenarios, docs/design.md §13); -1: none */
  fb_forcing forcing;         /* force as data, optional (above) */
  fb_kinematics kin;          /* the kinematic map (above); nquat = 0: T = I */
  /* Banded store (fb_plant_alloc_banded; docs/scenarios/chain.md): banded = 1, half-bandwidth
   * bw, and M, D, K as n x (bw + 1) row-major arrays in GSL's symmetric band layout, row i
   * holding A(i, i), A(i, i+1), ..., A(i, i+bw) (entries past the last row are 0).  The mass
   * matrix is factored by GSL's banded Cholesky (no inverse is formed): M, Minv, D, K are
   * NULL, contacts are one-DOF (Jt NULL); normals are filled in Jn as for a dense plant and
   * read as sparse rows by the treatments that run a banded plant (docs/scenarios/chain.md
   * "Contact rows of a banded plant").  Steppers that need the dense store refuse such a
   * plant (fb_plant_banded_ok). */
  int banded;
  size_t bw;
  double *Mb, *Db, *Kb;
} fb_plant;

/* Allocate the arrays of a plant with n DOFs, nc contacts, nbreaks breaks; zero them,
 * set M = I and defaults (t0 = 0).  The scenario then fills the fields. */
FB_API int fb_plant_alloc(fb_plant *pl, size_t n, size_t nc, size_t nbreaks);
/* The smallest reciprocal condition number (1-norm) of a non-diagonal mass matrix. */
#define FB_MASS_RCOND_MIN 1e-12
/* Validate (M SPD via Cholesky and not ill-conditioned, D, K finite, contacts valid, breaks ordered, T > t0),
 * compute Minv and the flags, default v_stick.  `owner` names the scenario. */
FB_API int fb_plant_finish(fb_plant *pl, const char *owner, fb_err *err);
/* The largest plant of the dense store, and of the banded one (DOFs). */
#define FB_PLANT_MAX_N 4096u
#define FB_PLANT_MAX_N_BANDED 1048576u
/* Allocate a banded plant (n DOFs, half-bandwidth bw < n, nc one-DOF contacts, nbreaks
 * breaks): Mb = I, Db = Kb = 0, defaults as fb_plant_alloc; O(n (bw + 1)) memory. */
FB_API int fb_plant_alloc_banded(fb_plant *pl, size_t n, size_t bw, size_t nc, size_t nbreaks);
/* Entry (i, j) of a band array A of a banded plant (0 outside the band). */
static inline double fb_band_get(const fb_plant *pl, const double *A, size_t i, size_t j)
{
  const size_t lo = i < j ? i : j, d = i < j ? j - i : i - j;
  return d > pl->bw ? 0.0 : A[lo * (pl->bw + 1) + d];
}
/* Add a to entry (i, j) and (j, i) of a band array (i <= j <= i + bw). */
static inline void fb_band_add(const fb_plant *pl, double *A, size_t i, size_t j, double a)
{
  A[i * (pl->bw + 1) + (j - i)] += a;
}
FB_API void fb_plant_free(fb_plant *pl);
/* Allocate nn normal directions (after fb_plant_alloc): Jn zeroed, fric = -1. */
FB_API int fb_plant_alloc_normals(fb_plant *pl, size_t nn);

/* Give every contact a Jacobian row (zeroed, n entries; after fb_plant_alloc): the
 * scenario fills contact[i].Jt[k] and, for 2-D contacts, contact[i].pair. */
FB_API int fb_plant_alloc_jacobians(fb_plant *pl);

/* Make contacts i and i+1 one 2-D contact (docs/design.md §13): its x and y entries, with
 * friction law `law` and normal force N (N), surface at rest (set c0.u afterwards for a
 * moving one); Jt or dof are the caller's. */
FB_API int fb_plant_set_pair(fb_plant *pl, size_t i, fb_friction law, double N);

/* The other entry of the 2-D contact that entry i belongs to (i must be part of a pair). */
static inline size_t fb_contact_partner(const fb_plant *pl, size_t i)
{
  return pl->contact[i].pair == FB_PAIR_X ? i + 1 : i - 1;
}

/* Relative tangential velocity of contact i (one component): Jt . v - 0, before the
 * surface velocity is subtracted (m/s). */
static inline double fb_contact_vel(const fb_plant *pl, size_t i, const double *v)
{
  const fb_contact *c = &pl->contact[i];
  if (c->Jt == NULL)
    return v[c->dof];
  double s = 0.0;
  for (size_t k = 0; k < pl->n; k++)
    s += c->Jt[k] * v[k];
  return s;
}

/* f[n] += Jt^T F: the friction force F (N) of contact i as generalized forces. */
static inline void fb_contact_add_force(const fb_plant *pl, size_t i, double F, double *f)
{
  const fb_contact *c = &pl->contact[i];
  if (c->Jt == NULL) {
    f[c->dof] += F;
    return;
  }
  for (size_t k = 0; k < pl->n; k++)
    f[k] += c->Jt[k] * F;
}

/* (Jt_i M^-1 Jt_k^T): how a unit force at contact k accelerates contact i's slip
 * (1/kg); for one-DOF contacts the entry (M^-1)_{j_i j_k}. */
FB_API double fb_plant_contact_coupling(const fb_plant *pl, size_t i, size_t k);

/* Contact i at time t. */
static inline void fb_plant_contact_at(const fb_plant *pl, size_t i, double t,
                                       fb_contact_state *cs)
{
  if (pl->contact_state != NULL)
    pl->contact_state(pl->sp, i, t, cs);
  else
    *cs = pl->contact[i].c0;
}


#endif
