/* test_spatial.c — spatial friction (docs/design.md §13): contacts with a tangential Jacobian
 * and 2-D contacts.  Shows: a one-DOF contact written as a Jacobian row e_j gives the legacy
 * contact's trajectory to the bit; the disc keeps the puck's path straight while the box
 * bends it; Moreau–Jean on the disc reproduces the puck's and the billiard's closed forms
 * (stop, rolling onset t* = 2|u0|/(7 mu g), final velocity v0 - (2/7) u0); Kikuuwe's vector
 * anchor holds a diagonal preload inside the disc (its deflection Fs'/K, not growing) while
 * the smooth sign creeps; two 2-D contacts sharing a body are held exactly by Moreau–Jean's
 * block PGS under a sub-threshold force and released above it; Karnopp's window in the plane
 * holds a diagonal preload exactly; schemes that are one-dimensional (penalty's Newmark,
 * kbe-relay) refuse 2-D contacts with one line and exit 2; the two entries of a 2-D contact
 * must share their law, compared field by field.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_model_registry.h"
#include "fb_reference.h"
#include "fb_scenario.h"
#include "fb_scenarios.h"
#include "fb_test.h"
#include "fb_util.h"

/* ---- test scenarios: one built two ways, and a plate on two 2-D contacts ------------------ */

/* A stick-slip oscillator (m = k = 1, Fs = 0.4, A cos(pi t)) whose contact is the legacy
 * one-DOF contact (row = 0) or the same contact as a Jacobian row e_0 (row = 1). */
typedef struct jt_osc_params {
  double row, T;
} jt_osc_params;
static const fb_param_desc jt_osc_desc[] = {
    {"row", "1", "1: the contact as a Jacobian row", offsetof(jt_osc_params, row), 0, 0, 1, 0,
     NULL, NULL},
    {"T", "s", "end time", offsetof(jt_osc_params, T), 6, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set jt_osc_set = {sizeof(jt_osc_params), 2, jt_osc_desc};

static void jt_osc_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  (void)sp, (void)x, (void)v;
  f[0] = 1.2 * cos(M_PI * t);
}

static int jt_osc_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const jt_osc_params *p = sp;
  if (fb_plant_alloc(pl, 1, 1, 0) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  pl->K[0] = 1.0;
  pl->x0[0] = 1.0;
  pl->T = p->T;
  pl->f_c = 0.5;
  pl->force = jt_osc_force;
  pl->contact[0].law = (fb_friction){FB_SHAPE_COULOMB, 0.4, 0.4, 1.0};
  pl->contact[0].c0 = (fb_contact_state){1.0, 0.0, 0.0};
  if (p->row != 0.0) {
    if (fb_plant_alloc_jacobians(pl) != FB_OK)
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    pl->contact[0].Jt[0] = 1.0;
  }
  return FB_OK;
}

static fb_ref_kind jt_osc_ref(const void *sp)
{
  (void)sp;
  return FB_REF_NONE;
}

static const fb_scenario_type jt_osc = {
    .name = "test-jt-oscillator",
    .title = "stick-slip oscillator, contact as a row or as a DOF",
    .source = "tests/test_spatial.c",
    .params = &jt_osc_set,
    .ref_kind = jt_osc_ref,
    .build = jt_osc_build,
};

/* A plate (x, y, rotation theta; m = 1, J = 0.02) with a slider s along x on it (m_s = 0.5,
 * spring 50 to the plate): 2-D contact 1 at (a, 0) on the plate, slip (vx, vy + a w);
 * 2-D contact 2 under the slider at (-a, 0), slip (vx + s', vy - a w).  Four independent
 * rows on four DOFs: an SPD Delassus matrix coupling both contacts through vx, vy and w.
 * Each contact carries half the weight, mu = 0.5; a force `f` (over the total friction
 * bound) pushes the plate along x. */
typedef struct plate_params {
  double f, T;
} plate_params;
static const fb_param_desc plate_desc[] = {
    {"f", "1", "force along x over the total friction bound", offsetof(plate_params, f), 0.5,
     0, 10, 0, NULL, NULL},
    {"T", "s", "end time", offsetof(plate_params, T), 1, 0, INFINITY, FB_PARAM_MIN_OPEN, NULL,
     NULL},
};
static const fb_param_set plate_set = {sizeof(plate_params), 2, plate_desc};
#define PLATE_A 0.2
#define PLATE_MG (1.5 * 9.81)

static void plate_force(const void *sp, double t, const double *x, const double *v, double *f)
{
  const plate_params *p = sp;
  (void)t, (void)x, (void)v;
  f[0] = p->f * 0.5 * PLATE_MG;
  f[1] = f[2] = f[3] = 0.0;
}

static int plate_build(const void *sp, fb_plant *pl, fb_err *err)
{
  const plate_params *p = sp;
  if (fb_plant_alloc(pl, 4, 4, 0) != FB_OK || fb_plant_alloc_jacobians(pl) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  /* DOFs: x, y, theta of the plate, s the slider's offset along x */
  pl->M[0] = 1.5; /* the plate and the slider move together in x, y */
  pl->M[5] = 1.5;
  pl->M[10] = 0.02;
  pl->M[15] = 0.5;
  pl->M[3] = pl->M[12] = 0.5; /* x and s: kinetic energy 0.5 m_s (vx + s')^2 */
  pl->K[15] = 50.0;
  pl->T = p->T;
  pl->f_c = 1.0;
  pl->v_scale = 1.0;
  pl->force = plate_force;
  pl->path_dof[0] = 0;
  pl->path_dof[1] = 1;
  const fb_friction law = {FB_SHAPE_COULOMB, 0.5, 0.5, 1.0};
  fb_plant_set_pair(pl, 0, law, 0.5 * PLATE_MG);
  fb_plant_set_pair(pl, 2, law, 0.5 * PLATE_MG);
  double *J0 = pl->contact[0].Jt, *J1 = pl->contact[1].Jt, *J2 = pl->contact[2].Jt,
         *J3 = pl->contact[3].Jt;
  J0[0] = 1.0;                       /* contact 1, x: vx */
  J1[1] = 1.0, J1[2] = PLATE_A;      /* contact 1, y: vy + a w */
  J2[0] = 1.0, J2[3] = 1.0;          /* contact 2, x: vx + s' */
  J3[1] = 1.0, J3[2] = -PLATE_A;     /* contact 2, y: vy - a w */
  return FB_OK;
}

static const fb_scenario_type plate = {
    .name = "test-plate",
    .title = "plate with a slider on two 2-D contacts",
    .source = "tests/test_spatial.c",
    .params = &plate_set,
    .ref_kind = jt_osc_ref,
    .build = plate_build,
};

static void setup(void)
{
  fb_err err;
  if (fb_scenario_find(jt_osc.name) == NULL)
    cr_assert_eq(fb_scenario_register(&jt_osc, &err), FB_OK, "%s", err.msg);
  if (fb_scenario_find(plate.name) == NULL)
    cr_assert_eq(fb_scenario_register(&plate, &err), FB_OK, "%s", err.msg);
}

TestSuite(spatial, .init = setup);

/* ---- d = 1 through a row is today's contact, to the bit ----------------------------------- */

Test(spatial, row_e_j_is_the_legacy_contact_to_the_bit)
{
  static const char *const models[][2] = {{"kikuuwe", "rk4"}, {"lugre", "bdf2"},
                                          {"naive-sign", "heun3"}, {"moreau-jean", "moreau-jean"}};
  for (size_t m = 0; m < 4; m++) {
    fb_trace a, b;
    fb_run_result ra, rb;
    const char *const s0[] = {"row=0", NULL}, *const s1[] = {"row=1", NULL};
    fbt_run(jt_osc.name, models[m][0], models[m][1], 1e-3, 0, s0, 301, &a, NULL, &ra);
    fbt_run(jt_osc.name, models[m][0], models[m][1], 1e-3, 0, s1, 301, &b, NULL, &rb);
    cr_assert_eq(ra.status, FB_OK, "%s: %s", models[m][0], ra.message);
    cr_assert_eq(rb.status, FB_OK, "%s: %s", models[m][0], rb.message);
    cr_assert_eq(a.filled, b.filled);
    cr_assert(memcmp(a.y, b.y, a.filled * a.dim * sizeof(double)) == 0,
              "%s/%s: the row e_0 changes the trajectory", models[m][0], models[m][1]);
    cr_assert(memcmp(a.F, b.F, a.filled * a.nc * sizeof(double)) == 0);
    fb_trace_free(&a);
    fb_trace_free(&b);
  }
}

/* ---- the puck: a straight stop under the disc, a bent path under the box ------------------ */

/* The largest |x vy0 - y vx0| / |v0|: distance of the path from the line along v0 (m). */
static double off_line(const fb_trace *tr, double vx0, double vy0)
{
  double worst = 0.0;
  for (size_t k = 0; k < tr->filled; k++) {
    const double *y = tr->y + k * tr->dim;
    worst = fmax(worst, fabs(y[0] * vy0 - y[1] * vx0) / hypot(vx0, vy0));
  }
  return worst;
}

Test(spatial, disc_keeps_the_puck_straight_and_the_box_bends_it)
{
  static const char *const models[][2] = {{"naive-sign", "heun3"},
                                          {"smooth-sign", "rk4"},
                                          {"moreau-jean", "moreau-jean"},
                                          {"glowinski", "glowinski-lie"}};
  for (size_t m = 0; m < 4; m++) {
    for (int box = 0; box < 2; box++) {
      if (box && m == 3)
        continue; /* glowinski has the disc only */
      fb_trace tr;
      fb_run_result res;
      const char *const sets[] = {box ? "cone=box" : m == 3 ? NULL : "cone=disc", NULL};
      fbt_run("puck", models[m][0], models[m][1], 1e-4, 0, sets, 1001, &tr, NULL, &res);
      cr_assert_eq(res.status, FB_OK, "%s: %s", models[m][0], res.message);
      const double d = off_line(&tr, 1.0, 0.5);
      cr_log_info("puck %s/%s cone=%s: largest distance from the line of v0 %.3g m\n",
                  models[m][0], models[m][1], box ? "box" : "disc", d);
      if (box)
        cr_assert(d > 1e-2, "%s box: the path should bend (%.3g m off the line)", models[m][0], d);
      else
        cr_assert(d < 1e-12, "%s disc: the path should be straight (%.3g m off)", models[m][0], d);
      fb_trace_free(&tr);
    }
  }
}

Test(spatial, moreau_jean_reproduces_the_puck_closed_form)
{
  fb_trace tr;
  fb_run_result res;
  fbt_run("puck", "moreau-jean", NULL, 1e-4, 0, NULL, 1001, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  /* stop at |v0|/(mu g) after |v0|^2/(2 mu g) along v0 */
  const double w0 = hypot(1.0, 0.5), a = 0.3 * 9.81, dist = w0 * w0 / (2 * a);
  const double *y = tr.y + (tr.filled - 1) * tr.dim;
  cr_assert(fabs(y[0] - dist / w0) < 1e-8 && fabs(y[1] - 0.5 * dist / w0) < 1e-8,
            "rest at (%.12g, %.12g), closed form (%.12g, %.12g)", y[0], y[1], dist / w0,
            0.5 * dist / w0);
  cr_assert(y[2] == 0.0 && y[3] == 0.0, "at rest exactly: v = (%g, %g)", y[2], y[3]);
  fb_trace_free(&tr);
}

/* ---- the billiard: slip along a fixed direction, then rolling ------------------------------ */

Test(spatial, moreau_jean_rolls_at_t_star_with_the_closed_form_velocity)
{
  const double h = 1e-4;
  fb_trace tr;
  fb_run_result res;
  fbt_run("billiard", "moreau-jean", NULL, h, 0, NULL, 10001, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const double ux = 2.0, uy = 1.0, tstar = 2 * hypot(ux, uy) / (7 * 0.2 * 9.81);
  double troll = NAN;
  for (size_t k = 0; k < tr.filled && isnan(troll); k++)
    if (tr.stick[k * tr.nc] == 1)
      troll = tr.t[k];
  cr_log_info("billiard: rolling from %.6f s, t* = %.6f s\n", troll, tstar);
  cr_assert(troll >= tstar && troll < tstar + 2 * h, "rolls at %.6g, t* = %.6g", troll, tstar);
  const double *y = tr.y + (tr.filled - 1) * tr.dim;
  const double vx = 2.0 - 2.0 / 7.0 * ux, vy = 0.0 - 2.0 / 7.0 * uy;
  cr_assert(fabs(y[4] - vx) < 1e-9 && fabs(y[5] - vy) < 1e-9,
            "final velocity (%.15g, %.15g), closed form (%.15g, %.15g)", y[4], y[5], vx, vy);
  /* rolling: the contact point's slip is 0, vx - r wy = 0 and vy + r wx = 0 */
  cr_assert(fabs(y[4] - 0.1 * y[7]) < 1e-9 && fabs(y[5] + 0.1 * y[6]) < 1e-9);
  fb_trace_free(&tr);
}

/* Issue 24 item 9: the reference's intervals of a 2-D contact come from the slip vector.
 * The closed form's rolling slip v - r omega is round-off (3e-16), not 0, so each
 * component was one slip+ interval over [0, T]; now slip+ to t* and stick (rolling) after,
 * the onset within one sample of the grid, and the trace's stick flag with it. */
Test(spatial, billiard_reference_rolls_from_t_star)
{
  const fb_scenario_type *st = fb_scenario_find("billiard");
  cr_assert_not_null(st);
  fb_scenario sc;
  cr_assert_eq(fb_scenario_init(&sc, st), FB_OK);
  fb_trace tr;
  fb_interval_list iv;
  fb_err err = {{0}};
  const size_t samples = 1001; /* T = 1: one sample is 1 ms */
  cr_assert_eq(fb_reference_run(st, sc.params, samples, &tr, &iv, &err), FB_OK, "%s", err.msg);
  const double tstar = 2 * hypot(2.0, 1.0) / (7 * 0.2 * 9.81), dt = 1.0 / (double)(samples - 1);
  cr_assert_eq(iv.n, 4, "two intervals per component, got %zu", iv.n);
  for (size_t c = 0; c < 2; c++) {
    const fb_interval *a = &iv.iv[2 * c], *b = &iv.iv[2 * c + 1];
    cr_expect(a->contact == c && b->contact == c);
    cr_expect(a->mode == FB_MODE_SLIP_POS && a->start == 0.0, "component %zu: slip from 0", c);
    cr_expect(b->mode == FB_MODE_STICK && b->end == 1.0, "component %zu: rolling to T", c);
    cr_expect(a->end == b->start && fabs(b->start - 0.325625) < dt && fabs(b->start - tstar) < 1e-9,
              "component %zu: rolling from %.9f s, t* = %.9f s", c, b->start, tstar);
  }
  size_t first = tr.filled;
  for (size_t k = 0; k < tr.filled && first == tr.filled; k++)
    if (tr.stick[k * tr.nc] == 1 && tr.stick[k * tr.nc + 1] == 1)
      first = k;
  cr_expect(first < tr.filled && tr.t[first] >= tstar && tr.t[first] < tstar + dt,
            "the trace rolls from %g s", first < tr.filled ? tr.t[first] : -1.0);
  fb_interval_list_free(&iv);
  fb_trace_free(&tr);
  fb_scenario_free(&sc);
}

Test(spatial, glowinski_uzawa_on_discs_converges_on_the_billiard)
{
  double err[2];
  const double hs[2] = {1e-3, 1e-4};
  for (size_t k = 0; k < 2; k++) {
    char out[4096], errb[512], hb[16];
    snprintf(hb, sizeof hb, "%g", hs[k]);
    const char *const argv[] = {"run", "-s", "billiard", "-m", "glowinski", "--h", hb,
                                "--metrics", NULL};
    cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 0, "%s", errb);
    const char *p = strstr(out, "\"path_err_max\": ");
    cr_assert_not_null(p);
    err[k] = strtod(p + 16, NULL);
    p = strstr(out, "\"stop_time_err\": ");
    cr_assert_not_null(p);
    cr_assert(fabs(strtod(p + 17, NULL)) <= 1e-3, "rolls within a sample of t*: %s", p);
  }
  const double order = log10(err[0] / err[1]);
  cr_log_info("glowinski-lie on the billiard: path error %.3g m (h = 1e-3), %.3g m (1e-4): "
              "order %.2f\n", err[0], err[1], order);
  cr_assert(order > 0.9 && order < 1.2, "first order ([Glowinski2004] remark 4): %.2f", order);
}

Test(spatial, ode_laws_keep_the_billiard_slip_direction)
{
  static const char *const models[] = {"naive-sign", "smooth-sign", "kikuuwe", "lugre",
                                       "elastoplastic"};
  for (size_t m = 0; m < 5; m++) {
    char out[4096], errb[512];
    const char *const argv[] = {"run", "-s", "billiard", "-m", models[m], "--metrics", NULL};
    cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 0, "%s: %s", models[m], errb);
    const char *p = strstr(out, "\"dir_err_max\": ");
    cr_assert_not_null(p, "%s: no dir_err_max in %s", models[m], out);
    const double d = strtod(p + 15, NULL);
    cr_log_info("billiard %s: friction direction error %.3g deg\n", models[m], d);
    cr_assert(d < 1e-3, "%s: the friction turns %.3g degrees off -u", models[m], d);
  }
}

/* ---- Kikuuwe's vector anchor holds a 2-D preload ------------------------------------------- */

Test(spatial, vector_anchor_holds_a_diagonal_preload)
{
  const char *const sets[] = {"push=0.6", "push_dir=45", "vx0=0", "vy0=0", "T=2", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("puck", "kikuuwe", "rk4", 1e-3, 0, sets, 201, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  /* the anchor's deflection under the push P = 0.6 mu m g: P / K, K = m (2 pi 100 f_c)^2 */
  const double K = pow(2 * M_PI * 100 * 0.5, 2), P = 0.6 * 0.3 * 9.81;
  const double *mid = tr.y + (tr.filled / 2) * tr.dim, *end = tr.y + (tr.filled - 1) * tr.dim;
  const double dmid = hypot(mid[0], mid[1]), dend = hypot(end[0], end[1]);
  cr_log_info("kikuuwe under a diagonal push: deflection %.6g m at T/2, %.6g m at T (P/K = "
              "%.6g)\n", dmid, dend, P / K);
  cr_assert(fabs(dend - P / K) < 1e-3 * P / K, "held at the anchor's deflection P/K");
  cr_assert(fabs(dend - dmid) < 1e-12, "no creep between T/2 and T");
  cr_assert(fabs(end[0] - end[1]) < 1e-15, "along the push's diagonal");
  for (size_t k = tr.filled / 2; k < tr.filled; k++)
    cr_assert_eq(tr.stick[k * tr.nc], 1, "stuck by the model's flag at sample %zu", k);
  fb_trace_free(&tr);
  /* Karnopp's window in the plane cancels the push exactly */
  fbt_run("puck", "karnopp", NULL, 0, 1e-8, sets, 201, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  end = tr.y + (tr.filled - 1) * tr.dim;
  cr_assert(end[0] == 0.0 && end[1] == 0.0, "karnopp holds: (%g, %g)", end[0], end[1]);
  fb_trace_free(&tr);
  /* the smooth sign creeps under the same push */
  fbt_run("puck", "smooth-sign", "rk4", 1e-3, 0, sets, 201, &tr, NULL, &res);
  end = tr.y + (tr.filled - 1) * tr.dim;
  cr_assert(hypot(end[0], end[1]) > 100 * P / K, "smooth-sign creeps (%.3g m)",
            hypot(end[0], end[1]));
  fb_trace_free(&tr);
}

/* ---- two 2-D contacts sharing a body ------------------------------------------------------- */

Test(spatial, two_disc_contacts_sharing_a_body_hold_and_release)
{
  fb_trace tr;
  fb_run_result res;
  /* held: 45 % of the total bound, which contact 1 alone can carry (the slider's spring
   * gives contact 2 no load while nothing moves) */
  const char *const hold[] = {"f=0.45", NULL}, *const slide[] = {"f=1.2", NULL};
  fbt_run(plate.name, "moreau-jean", NULL, 1e-3, 0, hold, 101, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  cr_assert(res.cnt.ninner > 0, "the coupled contacts go through the block PGS");
  for (size_t k = 0; k < tr.filled; k++)
    for (size_t j = 0; j < 4; j++)
      cr_assert(fabs(tr.y[k * tr.dim + j]) < 1e-12, "held at 45 %% of the bound: q_%zu = %g",
                j, tr.y[k * tr.dim + j]);
  fb_trace_free(&tr);
  /* kikuuwe-be's vector anchor holds it within its deflection (F/K ~ 1e-5 m) */
  fbt_run(plate.name, "kikuuwe-be", "kbe-exact", 1e-3, 0, hold, 101, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  cr_assert(fabs(tr.y[(tr.filled - 1) * tr.dim]) < 1e-4, "kikuuwe-be holds: x = %g",
            tr.y[(tr.filled - 1) * tr.dim]);
  cr_assert_eq(tr.stick[(tr.filled - 1) * tr.nc], 1);
  fb_trace_free(&tr);
  /* glowinski's Uzawa on the two discs holds it too, to its iteration error */
  fbt_run(plate.name, "glowinski", NULL, 1e-3, 0, hold, 101, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  for (size_t j = 0; j < 4; j++)
    cr_assert(fabs(tr.y[(tr.filled - 1) * tr.dim + j]) < 1e-9, "glowinski holds: q_%zu = %g", j,
              tr.y[(tr.filled - 1) * tr.dim + j]);
  fb_trace_free(&tr);
  fbt_run(plate.name, "moreau-jean", NULL, 1e-3, 0, slide, 101, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  fb_trace fine;
  fb_run_result rf;
  fbt_run(plate.name, "moreau-jean", NULL, 2.5e-4, 0, slide, 101, &fine, NULL, &rf);
  const double *end = tr.y + (tr.filled - 1) * tr.dim, *endf = fine.y + (fine.filled - 1) * fine.dim;
  cr_log_info("plate at 120 %% of the bound: x(1) = %.9g m (h = 1e-3), %.9g m (h = 2.5e-4)\n",
              end[0], endf[0]);
  /* it slides along x (the slider swings on its spring under the contact's friction), and
   * the contacts' x-only forces, at +a and -a, give no y motion and no rotation */
  cr_assert(end[0] > 0.2, "slides: x(1) = %g", end[0]);
  cr_assert(fabs(end[0] - endf[0]) < 1e-2 * end[0], "converges in h");
  cr_assert(fabs(end[1]) < 1e-12 && fabs(end[2]) < 1e-12, "no y, no rotation");
  fb_trace_free(&tr);
  fb_trace_free(&fine);
}

/* ---- refusals ------------------------------------------------------------------------------ */

Test(spatial, models_without_a_vector_form_are_refused)
{
  char dir[64], path[128], out[512], errb[512];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/x.csv", dir);
  /* penalty's default, its Newmark scheme, is one-dimensional; kbe-relay is per DOF */
  static const char *const models[][2] = {{"penalty", "newmark"}, {"kikuuwe-be", "kbe-relay"}};
  for (size_t m = 0; m < 2; m++) {
    const char *const argv[] = {"run", "-s", "billiard", "-m", models[m][0], "-i", models[m][1],
                                "-o", path, NULL};
    cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2, "%s", models[m][0]);
    cr_assert_eq(fbt_lines(errb), 1, "one line: %s", errb);
    cr_assert(strstr(errb, "2-D contacts") != NULL, "%s: says why: %s", models[m][0], errb);
    cr_assert_eq(fbt_dir_entries(dir), 0, "no output file");
  }
  const char *const argv[] = {"run", "-s", "puck", "-m", "naive-sign", "--set", "cone=pyramid",
                              "-o", path, NULL};
  cr_assert_eq(fbt_cli(argv, out, sizeof out, errb, sizeof errb), 2);
  cr_assert(strstr(errb, "cone") != NULL && strstr(errb, "disc") != NULL, "%s", errb);
  cr_assert_eq(fbt_dir_entries(dir), 0);
  const char *const lst[] = {"list", "models", NULL};
  char big[1 << 15];
  cr_assert_eq(fbt_cli(lst, big, sizeof big, errb, sizeof errb), 0);
  cr_assert(strstr(big, "2-D contacts: vector form under the generic integrators") != NULL &&
            strstr(big, "2-D contacts: vector form") && strstr(big, "2-D contacts: its schemes"),
            "list says what each model gives a 2-D contact");
  fbt_rmdir(dir);
}

/* ---- the embedding API: a host's own 2-D contact ------------------------------------------- */

Test(spatial, embedding_api_gives_the_vector_law)
{
  fb_model md;
  fb_err err;
  cr_assert_eq(fb_model_init(&md, fb_model_find("kikuuwe")), FB_OK);
  const fb_contact_scale sc = {1.0, 0.0, 2.943, 1.0, 1.0};
  cr_assert_eq(fb_model_resolve_scales(&md, 1, &sc, &err), FB_OK, "%s", err.msg);
  const fb_friction law = {FB_SHAPE_COULOMB, 0.3, 0.3, 1.0};
  const fb_contact_in ci = {&law, 9.81, 2.943, NAN, NAN};
  /* steady slip along (3, 4)/5: the force is -Fs (3, 4)/5, the anchor does not move */
  const double u[2] = {0.3, 0.4};
  double z[2], F[2], dz[2];
  z[0] = 2.943 * 0.6 / fb_model_get(&md, 0, "K");
  z[1] = 2.943 * 0.8 / fb_model_get(&md, 0, "K");
  cr_assert_eq(fb_model_force2(&md, 0, &ci, u, z, F, dz), FB_OK);
  cr_assert_float_eq(F[0], -2.943 * 0.6, 1e-12);
  cr_assert_float_eq(F[1], -2.943 * 0.8, 1e-12);
  cr_assert(fabs(dz[0]) < 1e-9 && fabs(dz[1]) < 1e-9, "steady: edot = 0");
  fb_model_free(&md);
  cr_assert_eq(fb_model_init(&md, fb_model_find("switching")), FB_OK);
  cr_assert_eq(fb_model_force2(&md, 0, &ci, u, z, F, dz), FB_EUNSUP, "no vector ODE law");
  fb_model_free(&md);
}

/* The two entries of a 2-D contact must share the friction law and the normal force: equal
 * laws are accepted whatever the bytes between the law's fields hold (the check compares
 * fields, not memory: valgrind caught a memcmp reading the struct's padding), different
 * ones are refused with one line. */
Test(spatial, a_2d_contact_shares_its_law_field_by_field)
{
  fb_plant pl;
  fb_err err = {{0}};
  cr_assert_eq(fb_plant_alloc(&pl, 2, 2, 0), FB_OK);
  cr_assert_eq(fb_plant_alloc_jacobians(&pl), FB_OK);
  pl.M[0] = pl.M[3] = 1.0;
  pl.T = 1;
  memset(&pl.contact[0].law, 0xAA, sizeof pl.contact[0].law); /* padding differs */
  memset(&pl.contact[1].law, 0x55, sizeof pl.contact[1].law);
  for (size_t i = 0; i < 2; i++) {
    fb_contact *c = &pl.contact[i];
    c->law.shape = FB_SHAPE_COULOMB;
    c->law.mu_s = c->law.mu_k = 0.3;
    c->law.vs = 1e-3;
    c->c0.N = 9.81;
    c->Jt[i] = 1.0;
    c->pair = i == 0 ? FB_PAIR_X : FB_PAIR_Y;
  }
  cr_expect_eq(fb_plant_finish(&pl, "test", &err), FB_OK, "%s", err.msg);
  cr_expect_eq(pl.npairs, 1);
  pl.contact[1].law.mu_s = 0.31;
  cr_expect_eq(fb_plant_finish(&pl, "test", &err), FB_EINVAL);
  cr_expect(strstr(err.msg, "share the friction law") != NULL, "%s", err.msg);
  pl.contact[1].law.mu_s = 0.3;
  pl.contact[1].c0.N = 9.8;
  cr_expect_eq(fb_plant_finish(&pl, "test", &err), FB_EINVAL, "the normal force differs");
  fb_plant_free(&pl);
}
