/* stick_slip.c — the forced Coulomb oscillator of [ShourbagyMatuttis] eq. 3 (Hairer et al. p. 198).
 *
 *     yddot + 2 D ydot + mu sgn(ydot) + y = A cos(omega t)
 *
 * m = 1, k = 1, damping 2D, Coulomb friction with Fs = Fc = mu (N = 1, coefficient mu).
 * Defaults D = 0.1, mu = 4, A = 2, omega = pi, y0 = 3, v0 = 4, T = 10; D = 0, A = 0 give
 * the free Coulomb oscillator; the paper sweeps mu in {1, 2, 3, 4} ([ShourbagyMatuttis] fig. 9).
 * Reference: the event-driven solver.  f_c = max(1, omega)/(2 pi) (natural and forcing
 * frequencies); velocity scale max(|v0|, |y0|, A, 1e-3).
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct stick_slip_params {
  double D, mu, A, omega, y0, v0, T;
} stick_slip_params;

static const fb_param_desc stick_slip_desc[] = {
    {"D", "1/s", "damping ratio term (damping force 2 D ydot)", offsetof(stick_slip_params, D),
     0.1, 0, INFINITY, 0, NULL, NULL},
    {"mu", "N", "Coulomb friction level, Fs = Fc = mu", offsetof(stick_slip_params, mu), 4, 0,
     INFINITY, 0, NULL, NULL},
    {"A", "N", "forcing amplitude", offsetof(stick_slip_params, A), 2, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"omega", "rad/s", "forcing angular frequency", offsetof(stick_slip_params, omega), M_PI, 0,
     INFINITY, 0, NULL, NULL},
    {"y0", "m", "initial position", offsetof(stick_slip_params, y0), 3, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"v0", "m/s", "initial velocity", offsetof(stick_slip_params, v0), 4, -INFINITY, INFINITY, 0,
     NULL, NULL},
    {"T", "s", "end time", offsetof(stick_slip_params, T), 10, 0, INFINITY, FB_PARAM_MIN_OPEN,
     NULL, NULL},
};
static const fb_param_set stick_slip_set = {sizeof(stick_slip_params), 7, stick_slip_desc};

static void stick_slip_force(const void *sp, double t, const double *x, const double *v,
                             double *f)
{
  const stick_slip_params *p = sp;
  (void)x, (void)v;
  f[0] = p->A * cos(p->omega * t);
}

static int stick_slip_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const stick_slip_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = 1.0;
  pl->D[0] = 2.0 * p->D;
  pl->K[0] = 1.0;
  pl->x0[0] = p->y0;
  pl->v0[0] = p->v0;
  pl->T = p->T;
  pl->f_c = fmax(1.0, p->omega) / (2.0 * M_PI);
  pl->v_scale = fmax(fmax(fabs(p->v0), fabs(p->y0)), fmax(fabs(p->A), 1e-3));
  pl->force = stick_slip_force;
  pl->forcing = (fb_forcing){FB_FORCING_COS, 0, p->A, p->omega}; /* what stick_slip_force computes */
  pl->contact[0].dof = 0;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, p->mu, p->mu, 1.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
  return FB_OK;
}

static fb_ref_kind stick_slip_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_stick_slip = {
    .name = "stick-slip",
    .title = "forced, damped oscillator with Coulomb friction (Hairer et al.)",
    .source = "Shourbagy & Matuttis [ShourbagyMatuttis] eq. 3 and fig. 9; Hairer et al. p. 198",
    .params = &stick_slip_set,
    .ref_kind = stick_slip_ref_kind,
    .build = stick_slip_build,
    .exact = NULL,
};
