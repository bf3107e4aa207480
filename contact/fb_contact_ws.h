/* fb_contact_ws.h — the contact scheme's workspace, private to contact/ (contact_scheme.c
 * and contact_rows.c, the friction contacts with Jacobian rows and 2-D contacts under it). */
#ifndef FB_CONTACT_WS_H
#define FB_CONTACT_WS_H

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "fb_integrator_int.h"
#include "fb_models.h"
#include "fb_normal_int.h"
#include "fb_plant_int.h"

typedef struct cws {
  const fb_problem *pb;
  const fb_plant *pl;
  size_t n, nc, nz, nn, dim, dimY, ne;
  size_t qoff; /* the plant's quaternions in Y (2 n + nc nz; fb_kinematics) */
  fb_int_opts o;
  gsl_odeiv2_step *step;
  gsl_odeiv2_control *ctl;
  gsl_odeiv2_evolve *ev;
  gsl_odeiv2_system sys;
  gsl_root_fsolver *root; /* Brent, for event location (allocated once) */
  double *Y, *Y0, *Yt, *yerr, *dY, *f, *a, *lam, *w, *MJ, *F, *E0, *E1, *Et;
  size_t *soff;
  int *mode;  /* per normal: newton 1 = persistent contact; force laws 1 = gap < 0 */
  int *fnewt; /* per friction contact: 1 when bounded by a newton normal */
  int *fmode; /* newton-bounded friction: 1 stick, 0 slip */
  double *fdir;
  long *fnorm; /* per friction contact: its normal, or -1 */
  unsigned long nfe;
  fb_impact_stats st;
  double *wlam, *wgd; /* per normal: lambda_n and gap rate at the last step end (work_n) */
  double wt;          /* that step end's time */
  int impacted;
  int fail;
  double h;      /* GSL evolve's next step */
  double *yin;   /* the run's initial y (dim): what a failed force law leaves, as it did */
  int nosync;    /* a force law failed: the run ends without the scheme's counts */
  size_t q_event; /* the event the last step ended at */
  int dense;        /* the stepper is dop853: trial states from its dense output */
  double step_t0, step_t1; /* the last GSL step (NaN: none since a reset) */
  /* a time-stepping treatment (moreau-jean): its stepper runs the plant in place of the
   * events above, statistics into st (tso.stats) */
  const fb_integrator_type *ts;
  void *tsws;
  fb_int_opts tso;
} cws;


/* contact_rows.c: friction contacts with a Jacobian row (pl->contact[i].Jt), 1-D or the x
 * entry i of a 2-D contact (i, i + 1), under the contact scheme (docs/design.md §12-§13). */
/* |u| of the unit at entry i (m/s) at (t, v): below this fraction of v_scale it is 0. */
#define ROWS_ZERO 1e-12
double rows_speed(const cws *c, double t, size_t i, const double *v);
/* Its friction force into F[i...] and the model's rates into dY (eval's part). */
int eval_rows(cws *c, double t, const double *Y, double *dY, size_t i);
/* Its newton event value: slip u . d (d frozen), stick mu_s N - |F|. */
double rows_event(const cws *c, double t, const double *Y, size_t i, double N);
/* Its newton stick/slip switch at t, in three steps around the scheme's evaluation:
 * rows_to_slip: stick -> slip along -F/|F| (1; 0 when it slips); rows_zero: u projected onto
 * 0 by an impulse and stick tried; after an evaluation, rows_keep_stick: stick while the
 * holding force is in the disc |F| <= mu_s lambda_n, else slip along -F/|F|. */
int rows_to_slip(cws *c, size_t i);
void rows_zero(cws *c, double t, size_t i);
void rows_keep_stick(cws *c, size_t i);
/* The Coulomb impulse at a newton impact with normal impulse P (N s). */
void rows_impulse(cws *c, double t, size_t i, double P);
/* Set at a step's start: the slip directions frozen over it. */
void rows_begin(cws *c, double t, size_t i);
/* Check unit i at allocation: the model's vector law under force laws, isotropy of the
 * 2-D contact under newton. */
int rows_bind(cws *c, const fb_model_type *mt, size_t i, fb_err *err);

#endif
