/* embed.c — a small simulator that uses libfricbench for its joint friction.
 *
 * A 1-DOF joint (mass m on a spring k) carries a preload f_pre plus a small vibration,
 * always below the joint's breakaway force Fs: a correct friction treatment holds it.
 * The host loop takes fixed 1 ms steps over 5 s and asks fricbench, contact by contact:
 *  - "relay": the per-contact implicit-Euler step (exact stick at any step);
 *  - "kikuuwe": an ODE law (force and state rate), with K set by name and B resolved
 *    from the joint's scales, stepped by the host's own classical RK4;
 *  - "naive-sign": the plain Coulomb law, same RK4, for contrast.
 * Build against an installed fricbench:
 *     cc examples/embed.c $(pkg-config --cflags --libs fricbench) -o embed
 * Exit status 0 when the relay and kikuuwe runs held the joint, 1 otherwise, 2 on a
 * library error.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <fricbench/fricbench.h>

#define H 1e-3   /* the host's step (s) */
#define T_END 5.0
#define NSTEPS 5000
#define PI 3.14159265358979323846

static const double mass = 1.0, k_spring = 1000.0; /* kg, N/m */
static const double f_pre = 8.0, f_vib = 1.0, f_vib_hz = 5.0; /* N, N, Hz */

/* Every tangential force on the joint but friction. */
static double f_other(double t, double x)
{
  return f_pre + f_vib * sin(2.0 * PI * f_vib_hz * t) - k_spring * x;
}

typedef struct result {
  double x_end, x_max, x_at_1s, v_end; /* m, m, m, m/s */
  double stick_frac;                  /* fraction of steps the law called stick */
} result;

/* Held: no drift after the first second (t = 1 s and 5 s are at the same phase of the
 * vibration, so a law that flexes elastically with it, as kikuuwe's anchor spring does,
 * comes back to the same place). */
static int held(const result *r)
{
  return fabs(r->x_end - r->x_at_1s) < 1e-6;
}

static void report(const char *what, const result *r)
{
  printf("%-44s %-8s x(T) = %+.3e m  max|x| = %.3e m  drift after 1 s = %.1e m  "
         "stick %3.0f%%\n", what, held(r) ? "held" : "slipped", r->x_end, r->x_max,
         fabs(r->x_end - r->x_at_1s), 100.0 * r->stick_frac);
}

static int fail(const char *what, const fb_err *err)
{
  fprintf(stderr, "embed: %s: %s\n", what, err->msg);
  return 2;
}

/* The relay step: the host hands the contact its mass, the other forces and its
 * state; the step returns the friction force and the end velocity. */
static int run_relay(const fb_contact_in *c, result *r)
{
  fb_err err = {{0}};
  fb_contact_stepper st;
  const fb_contact_step_type *relay = fb_contact_step_find("relay");
  if (relay == NULL || fb_contact_stepper_init(&st, relay, NULL, 0, c, 0.0, 0.0, &err) != FB_OK)
    return fail("relay", &err);
  double x = 0.0, v = 0.0;
  size_t nstick = 0;
  memset(r, 0, sizeof *r);
  for (int k = 0; k < NSTEPS; k++) {
    const double t = k * H;
    const fb_contact_step_in in = {.h = H, .m = mass, .f_other = f_other(t, x), .x = x,
                                   .v = v, .u = 0.0};
    if (fb_contact_step(&st, c, &in) != FB_OK)
      return fail("relay step", &(fb_err){"bad step input"});
    v = st.v_next;
    x += H * v; /* semi-implicit Euler */
    nstick += (size_t)st.stick;
    r->x_max = fmax(r->x_max, fabs(x));
    if (k + 1 == (int)(1.0 / H))
      r->x_at_1s = x;
  }
  r->x_end = x;
  r->v_end = v;
  r->stick_frac = (double)nstick / NSTEPS;
  return 0;
}

/* y = [x, v, z...]: the joint and the model's internal states. */
static void rates(const fb_model *m, const fb_contact_in *c, double t, const double *y,
                  double *dy, int *stick)
{
  double F = 0.0, dz[4] = {0};
  fb_model_force(m, 0, c, y[1], y + 2, &F, dz);
  if (stick != NULL) {
    int s = -1;
    fb_model_output(m, 0, c, y[1], y + 2, &F, &s);
    *stick = s;
  }
  dy[0] = y[1];
  dy[1] = (f_other(t, y[0]) + F) / mass;
  for (size_t i = 0; i < m->type->nz; i++)
    dy[2 + i] = dz[i];
}

/* An ODE law stepped by the host's own classical RK4. */
static int run_ode(const fb_model *m, const fb_contact_in *c, result *r)
{
  const size_t n = 2 + m->type->nz;
  double y[6] = {0}, k1[6], k2[6], k3[6], k4[6], yt[6];
  fb_model_state_init(m, 0, c, 0.0, y + 2);
  size_t nstick = 0;
  memset(r, 0, sizeof *r);
  for (int k = 0; k < NSTEPS; k++) {
    const double t = k * H;
    int stick = -1;
    rates(m, c, t, y, k1, &stick);
    for (size_t i = 0; i < n; i++)
      yt[i] = y[i] + 0.5 * H * k1[i];
    rates(m, c, t + 0.5 * H, yt, k2, NULL);
    for (size_t i = 0; i < n; i++)
      yt[i] = y[i] + 0.5 * H * k2[i];
    rates(m, c, t + 0.5 * H, yt, k3, NULL);
    for (size_t i = 0; i < n; i++)
      yt[i] = y[i] + H * k3[i];
    rates(m, c, t + H, yt, k4, NULL);
    for (size_t i = 0; i < n; i++)
      y[i] += H / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    nstick += stick == 1;
    r->x_max = fmax(r->x_max, fabs(y[0]));
    if (k + 1 == (int)(1.0 / H))
      r->x_at_1s = y[0];
  }
  r->x_end = y[0];
  r->v_end = y[1];
  r->stick_frac = (double)nstick / NSTEPS;
  return 0;
}

int main(void)
{
  fb_err err = {{0}};
  /* The joint's contact: Coulomb, mu = 0.5 under a 20 N normal load: Fs = 10 N > the
   * largest load f_pre + f_vib = 9 N. */
  const fb_friction law = {FB_SHAPE_COULOMB, 0.5, 0.5, 0.0};
  const fb_contact_in c = {.law = &law, .N = 20.0, .Fs = 20.0 * law.mu_s, .f_app = NAN};
  /* Its scales, for the "auto" parameters: effective mass, stiffness, Fs, the highest
   * frequency of the motion and a velocity scale. */
  const double f_n = sqrt(k_spring / mass) / (2.0 * PI);
  const fb_contact_scale sc = {mass, k_spring, c.Fs, fmax(f_n, f_vib_hz), c.Fs / sqrt(k_spring * mass)};
  printf("fricbench %s: joint m = %g kg, k = %g N/m, load %g + %g sin(2 pi %g t) N, Fs = %g N, "
         "h = %g s, T = %g s\n", fb_version(), mass, k_spring, f_pre, f_vib, f_vib_hz, c.Fs, H,
         T_END);

  result r_relay, r_kik, r_naive;
  int rc = run_relay(&c, &r_relay);
  if (rc != 0)
    return rc;
  report("relay step (implicit Euler)", &r_relay);

  /* Kikuuwe's law by name.  Its autos from the scales alone would give a stiff anchor
   * (K = m (2 pi 100 f_c)^2, for adaptive integrators); this host steps explicitly at
   * 1 ms, so it sets K by name and lets B (critical damping) follow from the scales. */
  const fb_model_type *kt = fb_model_find("kikuuwe");
  fb_model km;
  if (kt == NULL || fb_model_init(&km, kt) != FB_OK)
    return fail("kikuuwe", &(fb_err){"model not found"});
  if (fb_model_resolve_scales(&km, 1, &sc, &err) != FB_OK)
    return fail("kikuuwe", &err);
  printf("  kikuuwe autos from the scales: K = %.4g N/m, B = %.4g N s/m\n",
         fb_model_get(&km, 0, "K"), fb_model_get(&km, 0, "B"));
  if (fb_model_set(&km, "K", 1e4, &err) != FB_OK || fb_model_resolve_scales(&km, 1, &sc, &err) != FB_OK)
    return fail("kikuuwe", &err);
  char what[96];
  snprintf(what, sizeof what, "kikuuwe (K = %g, B = %g), host RK4", fb_model_get(&km, 0, "K"),
           fb_model_get(&km, 0, "B"));
  run_ode(&km, &c, &r_kik);
  report(what, &r_kik);
  fb_model_free(&km);

  fb_model nm;
  const fb_model_type *nt = fb_model_find("naive-sign");
  if (nt == NULL || fb_model_init(&nm, nt) != FB_OK || fb_model_resolve_scales(&nm, 1, &sc, &err) != FB_OK)
    return fail("naive-sign", &err);
  run_ode(&nm, &c, &r_naive);
  report("naive-sign, host RK4 (for contrast)", &r_naive);
  fb_model_free(&nm);

  /* A bad name and a bad value: one line each, nothing else changes. */
  fb_model bad;
  fb_model_init(&bad, fb_model_find("kikuuwe"));
  if (fb_model_set(&bad, "K", -1.0, &err) == FB_OK)
    return fail("kikuuwe", &(fb_err){"K = -1 was accepted"});
  printf("  refused as it should: %s\n", err.msg);
  fb_model_free(&bad);

  return held(&r_relay) && held(&r_kik) ? 0 : 1;
}
