/* belt_oscillator.c — mass on a moving belt: self-excited stick-slip (Leine, van Campen,
 * de Kraker & van den Steen, "Stick-slip vibrations induced by alternate friction
 * models", Nonlinear Dynamics 16, 1998; docs/design.md §5).
 *
 *     m xddot + k x = F,    v_r = xdot - u,    F in -S(|v_r|) Sgn(v_r)
 *     S(w) = Fs / (1 + delta w)                        (docs/design.md §1 shape `leine`)
 *
 * A mass on a spring to the wall rests on a belt running at constant speed u.  The
 * friction characteristic falls with the slip speed, which acts as negative damping on
 * the slip branch around the steady sliding equilibrium x = S(u)/k, v = 0: any motion
 * grows until it reaches v = u, where the mass sticks to the belt, is carried to the
 * breakaway point x = Fs/k, slips back and sticks again — a stick-slip limit cycle.
 * The defaults are Leine et al.'s: m = 1, k = 1, u = 0.2, Fs = 1 (N = 1, mu_s = 1),
 * delta = 3; T = 50 (about 4 cycles of 12.0 s, 7.7 s of each stuck).  delta = 0 gives
 * plain Coulomb friction.
 *
 * Initial condition (our choice, the paper's is not restated in docs/design.md): x0 = 0, v0 = 0,
 * the spring relaxed and the mass at rest while the belt runs, so it starts in slip-
 * (v_r = -u) and reaches v = u within the first half swing (t = 0.262 s).  Every stick
 * phase ends at the same point (x = Fs/k, v = u), so the trajectory is on the limit
 * cycle from the first release on (t = 5.14 s with the defaults).
 *
 * f_c = sqrt(k/m)/(2 pi) (the natural frequency; there is no forcing).  Velocity scale
 * max(|u| + Fs/sqrt(k m), |v0|): the belt speed plus the velocity swing of a release
 * from the breakaway force Fs.  Reference: the event-driven solver.
 */
#include <math.h>
#include <stddef.h>

#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_util.h"

typedef struct belt_params {
  double m, k, u, Fs, delta, x0, v0, T;
} belt_params;

static const fb_param_desc belt_desc[] = {
    {"m", "kg", "mass", offsetof(belt_params, m), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL, NULL},
    {"k", "N/m", "spring stiffness to the wall", offsetof(belt_params, k), 1, 0, INFINITY, 0,
     NULL, NULL},
    {"u", "m/s", "belt velocity", offsetof(belt_params, u), 0.2, -INFINITY, INFINITY, 0, NULL,
     NULL},
    {"Fs", "N", "static friction force S(0) (normal force 1, mu_s = Fs)",
     offsetof(belt_params, Fs), 1, 0, INFINITY, 0, NULL, NULL},
    {"delta", "s/m", "decay of S(w) = Fs/(1 + delta w); 0: Coulomb",
     offsetof(belt_params, delta), 3, 0, INFINITY, 0, NULL, NULL},
    {"x0", "m", "initial position (spring relaxed at 0)", offsetof(belt_params, x0), 0, -INFINITY,
     INFINITY, 0, NULL, NULL},
    {"v0", "m/s", "initial velocity", offsetof(belt_params, v0), 0, -INFINITY, INFINITY, 0, NULL,
     NULL},
    {"T", "s", "end time", offsetof(belt_params, T), 50, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set belt_set = {sizeof(belt_params), 8, belt_desc};

static int belt_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const belt_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->M[0] = p->m;
  pl->K[0] = p->k;
  pl->x0[0] = p->x0;
  pl->v0[0] = p->v0;
  pl->T = p->T;
  pl->f_c = p->k > 0 ? sqrt(p->k / p->m) / (2.0 * M_PI) : (double)NAN; /* k = 0: 1/T by default */
  pl->v_scale = fmax(fabs(p->u) + (p->k > 0 ? p->Fs / sqrt(p->k * p->m) : 0.0), fabs(p->v0));
  pl->contact[0].dof = 0;
  pl->contact[0].law = p->delta > 0
                           ? (fb_friction){FB_SHAPE_LEINE, p->Fs, 0.0, 1.0 / p->delta}
                           : (fb_friction){FB_SHAPE_COULOMB, p->Fs, p->Fs, 1.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, p->u, 0.0};
  return FB_OK;
}

static fb_ref_kind belt_ref_kind(const void *sp)
{
  (void)sp;
  return FB_REF_EVENT;
}

const fb_scenario_type fb_scenario_belt_oscillator = {
    .name = "belt-oscillator",
    .title = "mass-spring on a moving belt, falling friction: self-excited stick-slip cycle",
    .source = "Leine, van Campen, de Kraker & van den Steen, Nonlinear Dynamics 16 (1998)",
    .params = &belt_set,
    .ref_kind = belt_ref_kind,
    .build = belt_build,
    .exact = NULL,
};
