/* test_sphere_drop.c — the sphere with spin dropped on a rough plane ([Xiong2013] §5.1;
 * docs/scenarios/sphere-drop.md): the closed form's numbered checks, the kinematic map
 * (quaternion rates, free-flight closed form, the norm metric flagging a drifting scheme and
 * not an exact one), and the treatments against the closed form. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_scenario.h"
#include "fb_test.h"

static const double G = 9.81;

/* The default sphere-drop with assignments sets (NULL-terminated or NULL), built. */
static void build(fb_scenario *s, const char *const *sets)
{
  fb_err err = {0};
  cr_assert_eq(fb_scenario_init(s, fb_scenario_find("sphere-drop")), FB_OK);
  for (size_t i = 0; sets != NULL && sets[i] != NULL; i++) {
    char name[32];
    const char *eq = strchr(sets[i], '=');
    cr_assert(eq != NULL && (size_t)(eq - sets[i]) < sizeof name);
    snprintf(name, sizeof name, "%.*s", (int)(eq - sets[i]), sets[i]);
    cr_assert_eq(fb_params_set(s->type->params, "sphere-drop", s->params, name, eq + 1, &err),
                 FB_OK, "%s: %s", sets[i], err.msg);
  }
  cr_assert_eq(fb_scenario_build(s, &err), FB_OK, "%s", err.msg);
}

/* |u| = |J_t nu| of the closed form at t. */
static double slip_at(const fb_scenario *s, double t, double *x, double *v)
{
  cr_assert_eq(s->type->exact(s->params, t, x, v, NULL), FB_OK);
  return hypot(v[0] - 0.1 * v[4], v[1] + 0.1 * v[3]);
}

/* Check 1: t1, t_inf, |u0|, and rolling onset at t_roll = 2|u0|/(7 mu g) > t_inf. */
Test(sphere_drop, closed_form_times)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  const double t1 = sqrt(2 * 0.2 / G), t_inf = t1 * 1.5 / 0.5;
  cr_assert(fabs(t1 - 0.201928) < 5e-7 && fabs(t_inf - 0.605783) < 5e-7, "%g %g", t1, t_inf);
  cr_assert(fabs(slip_at(&s, 0, x, v) - 4.123106) < 5e-7);
  /* just before t1 the gap is positive; just after, the rebound rises at e v1 */
  s.type->exact(s.params, t1 - 1e-9, x, v, NULL);
  cr_assert(x[2] > 0.1 && v[2] < 0);
  s.type->exact(s.params, t1 + 1e-9, x, v, NULL);
  cr_assert(fabs(v[2] - 0.5 * G * t1) < 1e-7, "rebound %.9g", v[2]);
  const double t_roll = 2 * sqrt(17.0) / (7 * 0.1 * G);
  cr_assert(fabs(t_roll - 1.200846) < 5e-7, "%.9g", t_roll);
  cr_assert(slip_at(&s, t_roll - 1e-6, x, v) > 0, "still slipping before t_roll");
  cr_assert(slip_at(&s, t_roll + 1e-9, x, v) < 1e-12, "rolling after t_roll");
  fb_scenario_free(&s);
}

/* Check 2: at T, v = (6/7, -2/7), omega = (2.857143, 8.571429, 0) and kinetic energy
 * 1/2 (7/5) m |v_roll|^2 = 0.571429 J, against 3.0 + 1.962 J at the start. */
Test(sphere_drop, closed_form_final_state)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  s.type->exact(s.params, 2.0, x, v, NULL);
  cr_assert(fabs(v[0] - 6.0 / 7) < 1e-12 && fabs(v[1] + 2.0 / 7) < 1e-12, "%g %g", v[0], v[1]);
  cr_assert(fabs(v[3] - 2.857143) < 5e-7 && fabs(v[4] - 8.571429) < 5e-7 && v[5] == 0);
  cr_assert(v[2] == 0 && x[2] == 0.1);
  const double I0 = 0.4 * 0.01, ke = 0.5 * (v[0] * v[0] + v[1] * v[1]) +
                                     0.5 * I0 * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  cr_assert(fabs(ke - 0.571429) < 5e-7, "KE %.9g", ke);
  const double ke0 = 0.5 * 4 + 0.5 * I0 * (100 + 400);
  cr_assert(fabs(ke0 - 3.0) < 1e-12 && fabs(ke0 + G * 0.2 - 4.962) < 1e-12);
  fb_scenario_free(&s);
}

/* Check 3: after the first impact |u| = |u0| - 3.5 mu (1 + e) v1 = 3.083128 m/s. */
Test(sphere_drop, closed_form_first_impact)
{
  fb_scenario s;
  build(&s, NULL);
  double x[6], v[6];
  const double t1 = sqrt(2 * 0.2 / G);
  cr_assert(fabs(slip_at(&s, t1 + 1e-6, x, v) - 3.083128) < 5e-7, "%.9g",
            slip_at(&s, t1 + 1e-6, x, v));
  fb_scenario_free(&s);
}

/* Check 4 (second half): early-roll (mu = 0.2) starts rolling inside an impact; v_roll is
 * the same (6/7, -2/7), and rolling holds from there on. */
Test(sphere_drop, early_roll_same_v_roll)
{
  const char *sets[] = {"mu=0.2", NULL};
  fb_scenario s;
  build(&s, sets);
  double x[6], v[6];
  /* P_N needed: 2 m |u0| / (7 mu) = 5.890 N s; impact k delivers 2.971 0.5^k N s, so the
   * sum passes it at impact 6 (5.850 before, 5.896 after), at t_6 < t_inf */
  const double t1 = sqrt(2 * 0.2 / G), v1 = G * t1;
  double tk = t1;
  for (int k = 1; k <= 6; k++)
    tk += 2 * pow(0.5, k) * v1 / G;
  cr_assert(tk < t1 * 3, "t_6 = %g before t_inf", tk);
  cr_assert(slip_at(&s, tk - 1e-9, x, v) > 0.02, "slipping before impact 6 (0.028 m/s)");
  cr_assert(slip_at(&s, tk + 1e-9, x, v) < 1e-12, "rolling from impact 6");
  s.type->exact(s.params, 2.0, x, v, NULL);
  cr_assert(fabs(v[0] - 6.0 / 7) < 1e-12 && fabs(v[1] + 2.0 / 7) < 1e-12);
  fb_scenario_free(&s);
}
