/* test_tamsi.c — Drake's TAMSI scheme (docs/models/tamsi.md): the steady creep under a
 * constant push r Fs below breakaway is v_s (1 - sqrt(1 - r)) by design (r = 0.5, 0.95 on
 * push-hold; r = 1/3 on the inclined block after it stops), sliding above breakaway is
 * Coulomb's, the transition-aware line search is what lets Newton converge at a stop (plain
 * Newton cycles across v = 0 and fails), and the friction of a 2-D contact opposes the
 * slip. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fb_test.h"
#include "fricbench.h"

/* Mean velocity over [t_end - span, t_end] from x, and the stick flag at the end. */
static double mean_v(const fb_trace *tr, double span, int *stick)
{
  const size_t e = tr->ns - 1;
  size_t a = e;
  while (a > 0 && tr->t[e] - tr->t[a] < span)
    a--;
  *stick = tr->stick[e * tr->nc];
  return (tr->y[e * tr->dim] - tr->y[a * tr->dim]) / (tr->t[e] - tr->t[a]);
}

/* push-hold (m = 2, mu = 0.3, pushed from t = 1 to 6 at r mu m g): creep v_s (1 - sqrt(1 -
 * r)) within 2 % (1e-4 relative in fact, at h = 1 ms and 0.1 ms), flagged as stiction. */
Test(tamsi, steady_creep_is_the_closed_form)
{
  const double rs[] = {0.5, 0.95}, hs[] = {1e-3, 1e-4};
  const char *rset[] = {"r=0.5", "r=0.95"};
  for (size_t k = 0; k < 2; k++)
    for (size_t q = 0; q < 2; q++) {
      const char *sets[] = {rset[k], NULL};
      fb_trace tr;
      fb_run_result res;
      fbt_run("push-hold", "tamsi", "tamsi", hs[q], 0, sets, 601, &tr, NULL, &res);
      cr_assert_eq(res.status, FB_OK, "%s", res.message);
      int stick;
      const double v = mean_v(&tr, 2.0, &stick), want = 1e-4 * (1.0 - sqrt(1.0 - rs[k]));
      cr_assert(fabs(v - want) <= 0.02 * want, "r %g h %g: creep %.6g m/s, want %.6g", rs[k],
                hs[q], v, want);
      cr_assert_eq(stick, 1, "inside the stiction region");
      fb_trace_free(&tr);
    }
}

/* Above breakaway (r = 1.05) it slides with a = (r - 1) mu g = 0.05 * 0.3 * 9.81: the
 * regularization costs nothing there. */
Test(tamsi, slides_at_coulombs_acceleration)
{
  const char *sets[] = {"r=1.05", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("push-hold", "tamsi", "tamsi", 1e-3, 0, sets, 601, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  const size_t e = tr.ns - 1, m = (tr.ns - 1) / 2; /* t = 6 and t = 3.5 */
  const double a = (tr.y[e * tr.dim + 1] - tr.y[m * tr.dim + 1]) / (tr.t[e] - tr.t[m]);
  const double want = 0.05 * 0.3 * 9.81;
  cr_assert(fabs(a - want) <= 1e-6 * want, "a = %.9g, want %.9g", a, want);
  cr_assert_eq(tr.stick[e * tr.nc], 0);
  fb_trace_free(&tr);
}

/* The inclined block (mu = 3 tan theta) stops at t* and then creeps downhill under the load
 * fraction r = tan(theta)/mu = 1/3 at v_s (1 - sqrt(2/3)).  The stop is where plain Newton
 * fails: on the flat Coulomb branch its first iterate overshoots to the other side of
 * v = 0, and from there back (cycles, no convergence in 100 iterations); the line search
 * lands inside the stiction region instead, in about one iteration per step.  Drake's
 * search alone (backtrack off) still cycles at some steps (h = 2.61e-4: between -0.63 v_s
 * and +1.76 v_s); with the residual-decrease safeguard (default) it converges there. */
Test(tamsi, line_search_is_what_converges_at_a_stop)
{
  const char *on[] = {"tals=on", NULL}, *off[] = {"tals=off", "backtrack=off", NULL};
  const char *drake[] = {"backtrack=off", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("inclined-block", "tamsi", "tamsi", 1e-3, 0, on, 201, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  int stick;
  const double v = mean_v(&tr, 1.0, &stick), want = 1e-4 * (1.0 - sqrt(2.0 / 3.0));
  cr_assert(fabs(v - want) <= 0.02 * want, "creep %.6g m/s, want %.6g", v, want);
  cr_assert_eq(stick, 1);
  cr_assert(res.cnt.ninner < 2 * res.cnt.nsteps, "%lu iterations in %lu steps", res.cnt.ninner,
            res.cnt.nsteps);
  fb_trace_free(&tr);
  fbt_run("inclined-block", "tamsi", "tamsi", 1e-3, 0, off, 201, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_ESOLVE, "plain Newton: %s", res.message);
  cr_assert(res.t_reached > 0.14 && res.t_reached < 0.16, "fails at the stop t* = 0.149: %g",
            res.t_reached);
  fbt_run("inclined-block", "tamsi", "tamsi", 2.61e-4, 0, drake, 201, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_ESOLVE, "TALS alone at h = 2.61e-4: %s", res.message);
  fbt_run("inclined-block", "tamsi", "tamsi", 2.61e-4, 0, NULL, 201, NULL, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "with the safeguard: %s", res.message);
}

/* A 2-D contact (the puck launched at 30 degrees): while |u| >> v_s the friction is
 * -mu N u/|u|, opposite to the slip to 1e-9 rad. */
Test(tamsi, friction_opposes_the_slip_on_the_puck)
{
  const char *sets[] = {"yaw=30", NULL};
  fb_trace tr;
  fb_run_result res;
  fbt_run("puck", "tamsi", "tamsi", 1e-3, 0, sets, 101, &tr, NULL, &res);
  cr_assert_eq(res.status, FB_OK, "%s", res.message);
  size_t checked = 0;
  for (size_t k = 1; k < tr.ns; k++) {
    const double *y = &tr.y[k * tr.dim], u0 = y[2], u1 = y[3];
    const double F0 = tr.F[k * tr.nc], F1 = tr.F[k * tr.nc + 1];
    if (hypot(u0, u1) < 1e-2)
      continue;
    const double cross = (u0 * F1 - u1 * F0) / (hypot(u0, u1) * hypot(F0, F1));
    cr_assert(fabs(cross) < 1e-9 && u0 * F0 + u1 * F1 < 0, "t %g: not opposite", tr.t[k]);
    checked++;
  }
  cr_assert(checked > 10, "%zu samples while sliding", checked);
  fb_trace_free(&tr);
}
