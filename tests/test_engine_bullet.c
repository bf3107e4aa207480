/* test_engine_bullet.c — Bullet 3.24 as an engine (docs/engines/bullet.md): the closed
 * forms where Coulomb friction is unambiguous, where Bullet meets them and where it misses
 * them (with the measured numbers), the closed forms of Bullet's own artifacts (the creep
 * of a force off the centre, the restitution eaten by the speculative contact), and the
 * yaw sweep of the puck.  Skipped with a message when Bullet is absent (not built, or
 * FRICBENCH_ENGINES_OFF).  Short runs; no timing. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_engine.h"
#include "fb_normal_int.h"
#include "fb_suite.h"
#include "fb_test.h"

#define SAMPLES 201
#define G 9.81
#define MU 0.3

/* Bullet's model, or skip the test with the reason it is absent. */
static const fb_model_type *bullet_or_skip(void)
{
  const fb_model_type *m = fb_model_find("bullet");
  char why[160] = "not built: Bullet 3.24 (libbullet-dev) was not found at configure time";
  if (m == NULL || !fb_engine_present(fb_engine_of_model(m), why, sizeof why)) {
    cr_skip_test("Bullet absent: %s", why);
    return NULL;
  }
  return m;
}

static void run(const char *scenario, double h, const char *const *sets, fb_trace *tr)
{
  fb_run_result res;
  const int st = fbt_run(scenario, "bullet", "bullet-si", h, 0, sets, SAMPLES, tr, NULL, &res);
  cr_assert_eq(st, FB_OK, "bullet on %s: %s", scenario, res.message);
}

static double v_at(const fb_trace *tr, size_t k, size_t i)
{
  return tr->y[k * tr->dim + tr->n + i];
}

static double x_at(const fb_trace *tr, size_t k, size_t i)
{
  return tr->y[k * tr->dim + i];
}

/* Mean acceleration of DOF 0 from sample k0 to the last. */
static double accel(const fb_trace *tr, size_t k0)
{
  const size_t k1 = tr->filled - 1;
  return (v_at(tr, k1, 0) - v_at(tr, k0, 0)) / (tr->t[k1] - tr->t[k0]);
}

/* The three closed forms at step h with extra setting `set` (NULL: none): the relative
 * errors of the incline's acceleration, the puck's stop distance and push-hold's (r = 2)
 * acceleration. */
static void closed_forms(double h, const char *set, double err[3])
{
  const double th = 3.14159265358979323846 / 6;
  const char *inc[] = {"theta=30", "mu=0.3", "v0=0", "T=1", set, NULL};
  const char *puck[] = {"vx0=1", "vy0=0", "T=0.6", set, NULL};
  const char *push[] = {"r=2", "T=3", set, NULL};
  fb_trace tr;
  run("inclined-block", h, inc, &tr);
  err[0] = accel(&tr, SAMPLES / 4) / (G * (sin(th) - MU * cos(th))) - 1;
  fb_trace_free(&tr);
  run("puck", h, puck, &tr);
  err[1] = x_at(&tr, tr.filled - 1, 0) / (1.0 / (2 * MU * G)) - 1;
  fb_trace_free(&tr);
  run("push-hold", h, push, &tr);
  err[2] = accel(&tr, SAMPLES / 2) / (MU * G) - 1;
  fb_trace_free(&tr);
  cr_log_info("bullet h = %g %s: incline %+.3g %%, puck stop %+.3g %%, push r=2 %+.3g %%\n", h,
              set ? set : "(defaults)", 100 * err[0], 100 * err[1], 100 * err[2]);
}

/* Where Bullet meets them: at 0.1 ms with the force at the contact face (the contract's
 * point of application) the sliding box follows Coulomb: incline a = g (sin - mu cos)
 * within 1 % (measured -0.22 %), the puck stops at v0^2/(2 mu g) within 2 % (-0.86 %),
 * push-hold at r = 2 slides at mu g (r - 1) within 1 % (-0.26 %). */
Test(engine_bullet, closed_forms_hold_at_a_tenth_of_a_millisecond, .timeout = 60)
{
  bullet_or_skip();
  double e[3];
  closed_forms(1e-4, "force_point=face", e);
  cr_expect(fabs(e[0]) <= 0.01, "incline: %g", e[0]);
  cr_expect(fabs(e[1]) <= 0.02, "puck: %g", e[1]);
  cr_expect(fabs(e[2]) <= 0.01, "push-hold: %g", e[2]);
}

/* Where it misses them (the rule says no): at its defaults and 1 ms, the sliding box keeps
 * losing and regaining contact points (the persistent manifold) and rocks; points whose
 * normal impulse ends at 0 keep their warm-started friction: 2-4 % more friction than
 * mu N.  Measured: incline -4.3 %, puck stop -3.8 %, push-hold -1.9 %. */
Test(engine_bullet, closed_forms_missed_at_defaults_and_1ms, .timeout = 60)
{
  bullet_or_skip();
  double e[3];
  closed_forms(1e-3, NULL, e);
  cr_expect(e[0] < -0.01 && e[0] > -0.08, "incline misses by 1...8 %%: %g", e[0]);
  cr_expect(e[1] < -0.02 && e[1] > -0.08, "puck stops 2...8 %% short: %g", e[1]);
  cr_expect(e[2] < -0.005 && e[2] > -0.05, "push-hold slides 0.5...5 %% slow: %g", e[2]);
}

/* Mean velocity of push-hold over its push (t = 1 ... 6 s), m/s. */
static double creep(double h, const char *r_set, const char *set)
{
  const char *sets[] = {r_set, set, NULL};
  fb_trace tr;
  fb_run_result res;
  const int st = fbt_run("push-hold", "bullet", "bullet-si", h, 0, sets, 601, &tr, NULL, &res);
  cr_assert_eq(st, FB_OK, "%s", res.message);
  size_t k1 = 0, k6 = 0;
  for (size_t k = 0; k < tr.filled; k++) {
    if (tr.t[k] <= 1.0 + 1e-9)
      k1 = k;
    if (tr.t[k] <= 6.0 + 1e-9)
      k6 = k;
  }
  const double v = (x_at(&tr, k6, 0) - x_at(&tr, k1, 0)) / (tr.t[k6] - tr.t[k1]);
  fb_trace_free(&tr);
  return v;
}

/* Creep below breakaway (r = 0.5: push mu m g / 2 = 2.943 N on the 2 kg box):
 *  - at the centre and 1 ms it holds (|v| < 1e-5 m/s; measured -0.06 um/s);
 *  - at the contact face it creeps at the closed form of Bullet's solver, which gives the
 *    friction rows the step's force impulse but not its torque impulse: the face slips at
 *    v = (F hz h / I) hz = 0.75 F h (hz = 0.1 m, I = m (2 hz^2) / 3 = 0.01333 kg m^2):
 *    2.207 mm/s at 1 ms (measured 2.209), within 1 %;
 *  - at 0.1 ms even the centre creeps: the step's impulse F h / m = 1.5e-4 m/s is below
 *    sqrt(FLT_EPSILON) = 3.45e-4 m/s, where Bullet's friction row turns from the slip
 *    direction to btPlaneSpace1's (world y): nothing holds x until the slip exceeds it
 *    (measured 0.22 mm/s). */
Test(engine_bullet, creep_closed_forms, .timeout = 60)
{
  bullet_or_skip();
  const double centre = creep(1e-3, "r=0.5", NULL), face = creep(1e-3, "r=0.5", "force_point=face");
  const double fine = creep(1e-4, "r=0.5", NULL);
  const double exact_face = 0.75 * (0.5 * MU * 2 * G) * 1e-3;
  cr_log_info("bullet creep r=0.5: centre %.3g m/s, face %.4g (closed form %.4g), centre at "
              "0.1 ms %.3g\n", centre, face, exact_face, fine);
  cr_expect(fabs(centre) < 1e-5, "centre holds: %g", centre);
  cr_expect(fabs(face / exact_face - 1) < 0.01, "face: %g, closed form %g", face, exact_face);
  cr_expect(fine > 1e-4 && fine < 3.5e-4, "0.1 ms creeps below sqrt(FLT_EPSILON): %g", fine);
}

/* The first bounce, as the contact scheme's statistics record it: -v_out / v_in. */
static double first_bounce(double e, double h, double *v_in, double *gap_in)
{
  fb_case c;
  fb_err err = {{0}};
  char e_set[32];
  snprintf(e_set, sizeof e_set, "e=%g", e);
  cr_assert_eq(fb_case_init(&c, "bouncing-ball", "bullet", "bullet-si", &err), FB_OK, "%s",
               err.msg);
  cr_assert_eq(fb_case_set(&c, e_set, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_set(&c, "T=0.6", &err), FB_OK, "%s", err.msg);
  c.opts.h = h;
  c.samples = SAMPLES;
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  fb_impact_stats st;
  fb_impact_stats_init(&st, 0);
  c.opts.stats = &st;
  fb_run_result res;
  cr_assert_eq(fb_case_run(&c, NULL, NULL, &res), FB_OK, "%s", res.message);
  fb_case_free(&c);
  cr_assert_geq(st.n, 1, "an impact");
  /* the gap at the start of the contact step: the free fall from 1 m, Bullet's
   * semi-implicit Euler (v first, then x) from rest, to the step that starts at t_in */
  double x = 1.0, v = 0.0;
  for (double t = 0; t < st.t_in[0] - 0.5 * h; t += h) {
    v -= G * h;
    x += v * h;
  }
  *v_in = st.v_in[0];
  *gap_in = x;
  return -st.v_out[0] / st.v_in[0];
}

/* Restitution: Bullet's contact row targets e |v_in| minus the gap still open at the start
 * of the step divided by h (a speculative contact: btSequentialImpulseConstraintSolver::
 * setupContactConstraint subtracts penetration / h when the distance is positive), so
 * e_eff = e - gap / (h |v_in|): 0.7 - 0.0244 = 0.6756 at 1 ms for the 1 m drop (within
 * 1e-3), and the rule says no to the nominal e (off by more than 2 %). */
Test(engine_bullet, restitution_loses_the_gap_of_the_contact_step, .timeout = 30)
{
  bullet_or_skip();
  double v_in, gap;
  const double e_eff = first_bounce(0.7, 1e-3, &v_in, &gap);
  const double closed = 0.7 - gap / (1e-3 * fabs(v_in));
  cr_log_info("bullet first bounce at e = 0.7: %.5g (v_in %.5g m/s, gap %.3g m: closed form "
              "%.5g)\n", e_eff, v_in, gap, closed);
  cr_expect(fabs(e_eff - closed) < 1e-3, "e_eff %g, e - gap/(h v_in) = %g", e_eff, closed);
  cr_expect(fabs(e_eff / 0.7 - 1) > 0.02, "e_eff %g is not the nominal 0.7", e_eff);
}

/* The puck's friction direction and magnitude errors at yaw angle `yaw` (deg): the run's
 * metrics (rms direction error in degrees, mean |F|/(mu N) - 1 while sliding). */
static void yaw_errors(double yaw, const char *set, double *dir_rms, double *mag)
{
  char y[32];
  snprintf(y, sizeof y, "yaw=%g", yaw);
  const char *args[] = {"run", "--scenario", "puck", "--model", "bullet", "--h", "1e-3",
                        "--set", "vx0=1", "--set", "vy0=0", "--set", y, "--metrics",
                        set ? "--set" : NULL, set, NULL};
  static char out[1 << 16], errbuf[1 << 12];
  cr_assert_eq(fbt_cli(args, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  const char *d = strstr(out, "\"dir_err_rms\":"), *s = strstr(out, "\"slide_ratio\":");
  cr_assert(d != NULL && s != NULL, "%s", out);
  *dir_rms = strtod(d + strlen("\"dir_err_rms\":"), NULL);
  *mag = strtod(s + strlen("\"slide_ratio\":"), NULL);
}

/* The yaw sweep (the puck launched at 1 m/s at yaw 0, 22.5, 45 deg from the box's axes).
 * Bullet's default friction row follows each point's slip, so no 45-degree period: the
 * direction error stays within the scatter of the rocking box (rms 0.95, 1.34, 0.49 deg;
 * 5 deg gives 1.52, 60 deg 1.64), the magnitude 2...3.2 % above mu N at every yaw.  With
 * SOLVER_USE_2_FRICTION_DIRECTIONS (the decoupled rows) the error is large and as large at
 * every yaw: rms 25-27 deg, magnitude +13...15 %. */
Test(engine_bullet, yaw_sweep_of_the_puck, .timeout = 60)
{
  bullet_or_skip();
  static const double yaws[] = {0, 22.5, 45};
  double dir[3], mag[3], dir2[3], mag2[3];
  for (int i = 0; i < 3; i++) {
    yaw_errors(yaws[i], NULL, &dir[i], &mag[i]);
    yaw_errors(yaws[i], "friction_directions=2", &dir2[i], &mag2[i]);
    cr_log_info("bullet puck yaw %g: direction rms %.3g deg, magnitude %+.3g; two rows: "
                "%.3g deg, %+.3g\n", yaws[i], dir[i], mag[i], dir2[i], mag2[i]);
  }
  for (int i = 0; i < 3; i++) {
    cr_expect(dir[i] < 2.0, "yaw %g: direction rms %g deg", yaws[i], dir[i]);
    cr_expect(mag[i] > 0.0 && mag[i] < 0.05, "yaw %g: magnitude %g", yaws[i], mag[i]);
    cr_expect(dir2[i] > 10.0, "two rows, yaw %g: direction rms %g deg", yaws[i], dir2[i]);
    cr_expect(fabs(dir2[i] - dir2[0]) < 3.0, "two rows: yaw-independent, %g vs %g at 0",
              dir2[i], dir2[0]);
  }
  /* what the 22.5-degree question measures at the defaults: a difference inside the
   * scatter (0.39 deg), not a period */
  cr_expect(fabs(dir[1] - dir[0]) < 1.0, "22.5 vs 0 deg: %g vs %g", dir[1], dir[0]);
}

/* The belt (the contact points' lateral friction directions and motions): a box at rest on
 * ground moving at u = 0.5 m/s is dragged to the belt's speed, at mu g = 2.943 m/s^2 in
 * Coulomb's law; Bullet at 1 ms: v(0.1 s) = 0.3001 (+2 %: the same excess friction of the
 * rocking box), then v = u within 1e-3. */
Test(engine_bullet, belt_drags_the_box_to_its_speed, .timeout = 30)
{
  const fb_model_type *m = bullet_or_skip();
  const fb_engine_entry *e = fb_engine_of_model(m);
  fb_model md;
  cr_assert_eq(fb_model_init(&md, m), FB_OK);
  fb_engine_case c;
  memset(&c, 0, sizeof c);
  c.settings = md.params;
  c.T = 1, c.h = 1e-3;
  c.shape = FB_ENGINE_BOX;
  c.size = c.half_z = FB_ENGINE_BOX_HALF;
  c.mass = 2, c.inertia = NAN, c.mu = MU, c.gravity = G, c.belt = 1;
  c.pos0[2] = c.half_z;
  c.settle = NAN;
  void *ws = NULL;
  fb_engine_sample s;
  fb_err err = {{0}};
  fb_counters cnt = {0};
  cr_assert_eq(e->engine->open(&ws, &c, &s, &err), FB_OK, "%s", err.msg);
  double v100 = NAN;
  for (int k = 0; k < 400; k++) {
    const fb_engine_input in = {.t = k * 1e-3, .h = 1e-3, .gravity = G, .belt_u = 0.5};
    cr_assert_eq(e->engine->step(ws, &in, &s, &cnt, &err), FB_OK, "%s", err.msg);
    if (k == 99)
      v100 = s.vel[0];
  }
  cr_log_info("bullet belt: v(0.1 s) = %.5g (Coulomb 0.2943), v(0.4 s) = %.6g (0.5)\n", v100,
              s.vel[0]);
  cr_expect(fabs(v100 / 0.2943 - 1) < 0.03, "v(0.1) = %g", v100);
  cr_expect(fabs(s.vel[0] - 0.5) < 1e-3, "v(0.4) = %g rides with the belt", s.vel[0]);
  e->engine->close(ws);
  fb_model_free(&md);
}
