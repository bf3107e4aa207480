/* test_penalty.c — the elasto-plastic penalty model ([Engleder2002] §2; docs/design.md §3 M5):
 * its return mapping, the rate form under GSL and the Newmark scheme, on drift,
 * stick-slip and two-mass-drive ([Engleder2002] figs. 3-4).  No timing anywhere. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_penalty.h"
#include "fb_test.h"
#include "fb_util.h"
#include "fb_integrator_int.h"

/* ------------------------------------------------------------------------------------
 * The return mapping in isolation.
 */

static const fb_friction law_coulomb = {FB_SHAPE_COULOMB, 1.0, 1.0, 1.0};
static const fb_friction law_stribeck = {FB_SHAPE_STRIBECK, 1.5, 1.0, 1e-3};

static int inside(const fb_penalty_map *m, double dT, double vr)
{
  return fabs(m->H - dT * vr) < m->R0;
}

/* m, p, q on the same branches of both clamps (for difference checks). */
static int same_branch(const fb_penalty_map *m, const fb_penalty_map *p, const fb_penalty_map *q, double dT,
                       double vm, double vp, double vq)
{
  return m->plastic == p->plastic && m->plastic == q->plastic &&
         inside(m, dT, vm) == inside(p, dT, vp) && inside(m, dT, vm) == inside(q, dT, vq) &&
         fb_sgn(m->H) == fb_sgn(p->H) && fb_sgn(m->H) == fb_sgn(q->H);
}

Test(ep_return_map, bound_idempotence_branches_tangent)
{
  const fb_friction *laws[] = {&law_coulomb, &law_stribeck};
  const double cTs[] = {10.0, 1e3, 1e6}, dTs[] = {0.0, 0.5};
  const double Hs[] = {-1.8, -1.5, -1.0, -0.7, -1e-9, 0.0, 0.3, 0.999, 1.0, 1.2, 1.8};
  const double dss[] = {-1e-2, -1e-4, -1e-7, 0.0, 1e-7, 1e-4, 1e-2};
  const double vrs[] = {0.0, -1e-4, 1e-4, -1e-3, 2e-3, -0.1, 0.1, 10.0};
  unsigned long cases = 0, plastic = 0, fd_checked = 0;
  for (size_t il = 0; il < 2; il++)
    for (size_t ic = 0; ic < 3; ic++)
      for (size_t id = 0; id < 2; id++)
        for (size_t ih = 0; ih < sizeof Hs / sizeof *Hs; ih++)
          for (size_t is = 0; is < sizeof dss / sizeof *dss; is++)
            for (size_t iv = 0; iv < sizeof vrs / sizeof *vrs; iv++) {
              const fb_contact_in c = {.law = laws[il], .N = 1.0, .Fs = laws[il]->mu_s, .f_app = 0.0};
              const double cT = cTs[ic], dT = dTs[id], Hn = Hs[ih], ds = dss[is], vr = vrs[iv];
              fb_penalty_map m, m2;
              cr_assert_eq(fb_penalty_return_map(cT, dT, &c, Hn, ds, vr, &m), FB_OK);
              const double R0 = fb_contact_S(&c, fabs(vr), NULL);
              cr_assert_eq(m.R0, R0);
              cr_assert(fabs(m.H) <= R0 && fabs(m.F) <= R0,
                        "return map exceeds the bound: H=%g F=%g R0=%g (cT=%g Hn=%g ds=%g vr=%g)",
                        m.H, m.F, R0, cT, Hn, ds, vr);
              const double Htr = Hn - cT * ds;
              if (fabs(Htr) < R0)
                cr_assert(m.H == Htr && !m.plastic, "elastic branch must keep the trial");
              else
                cr_assert(m.H == fb_sgn(Htr) * R0 && m.plastic, "plastic branch must project");
              cr_assert_eq(m.F, fb_clamp(m.H - dT * vr, R0));
              /* Idempotence: mapping the mapped state again (no increment) changes nothing. */
              cr_assert_eq(fb_penalty_return_map(cT, dT, &c, m.H, 0.0, vr, &m2), FB_OK);
              cr_assert(m2.H == m.H && m2.F == m.F,
                        "return map not idempotent: H %g -> %g, F %g -> %g", m.H, m2.H, m.F,
                        m2.F);
              /* Tangents against central differences where all three evaluations stay on
               * the same branches (elastic/plastic, force inside/on the bound). */
              const double d = 1e-7 * fmax(1e-6, fabs(ds)) + 1e-12, dv = 1e-9;
              fb_penalty_map p, q;
              fb_penalty_return_map(cT, dT, &c, Hn, ds + d, vr, &p);
              fb_penalty_return_map(cT, dT, &c, Hn, ds - d, vr, &q);
              if (same_branch(&m, &p, &q, dT, vr, vr, vr)) {
                const double fd = (p.F - q.F) / (2 * d);
                cr_assert(fabs(fd - m.dF_dds) <= 1e-5 * (fabs(m.dF_dds) + cT) + 1e-9,
                          "dF/dds %g vs difference %g (cT=%g Hn=%g ds=%g vr=%g)", m.dF_dds, fd,
                          cT, Hn, ds, vr);
                fd_checked++;
              }
              if (fabs(vr) > 10 * dv) {
                fb_penalty_return_map(cT, dT, &c, Hn, ds, vr + dv, &p);
                fb_penalty_return_map(cT, dT, &c, Hn, ds, vr - dv, &q);
                if (same_branch(&m, &p, &q, dT, vr, vr + dv, vr - dv)) {
                  const double fd = (p.F - q.F) / (2 * dv);
                  cr_assert(fabs(fd - m.dF_dvr) <= 1e-4 * (fabs(m.dF_dvr) + 1.0),
                            "dF/dvr %g vs difference %g (cT=%g dT=%g Hn=%g ds=%g vr=%g)",
                            m.dF_dvr, fd, cT, dT, Hn, ds, vr);
                }
              }
              cases++;
              plastic += (unsigned long)m.plastic;
            }
  cr_log_info("return map: %lu cases (%lu plastic), dF/dds checked on %lu\n", cases, plastic,
              fd_checked);
  cr_assert(plastic > 0 && plastic < cases && fd_checked > cases / 4);
  fb_penalty_map m;
  const fb_contact_in c = {.law = &law_coulomb, .N = 1.0, .Fs = 1.0, .f_app = 0.0};
  cr_assert_eq(fb_penalty_return_map(-1.0, 0.0, &c, 0.0, 0.0, 0.0, &m), FB_EINVAL);
  cr_assert_eq(fb_penalty_return_map(1.0, 0.0, &c, NAN, 0.0, 0.0, &m), FB_EINVAL);
}

/* ------------------------------------------------------------------------------------
 * Trajectories recorded at every accepted step (observer), for n = 1 or 2, one contact.
 */

typedef struct step_rec {
  size_t n;                /* DOFs of the scenario */
  size_t cap, len;         /* samples */
  double *t, *x, *v, *H;   /* the contact's DOF is the last one */
  const fb_friction *law;  /* for R0 = S(|v|) */
  double max_H_over_R0;    /* max |H| / S(|v|) over the steps */
} step_rec;

static int rec_step(void *ctx, double t, const double *y)
{
  step_rec *r = ctx;
  const size_t n = r->n;
  const double v = y[2 * n - 1], H = y[2 * n];
  const fb_contact_in c = {.law = r->law, .N = 1.0, .Fs = r->law->mu_s, .f_app = 0.0};
  const double R0 = fb_contact_S(&c, fabs(v), NULL);
  r->max_H_over_R0 = fmax(r->max_H_over_R0, R0 > 0 ? fabs(H) / R0 : (H != 0 ? HUGE_VAL : 0.0));
  if (r->len < r->cap) {
    r->t[r->len] = t;
    r->x[r->len] = y[n - 1];
    r->v[r->len] = v;
    r->H[r->len] = H;
    r->len++;
  }
  return 0;
}

static void rec_init(step_rec *r, size_t n, size_t cap, const fb_friction *law)
{
  memset(r, 0, sizeof *r);
  r->n = n;
  r->cap = cap;
  r->law = law;
  r->t = calloc(4 * cap, sizeof(double));
  cr_assert_not_null(r->t);
  r->x = r->t + cap;
  r->v = r->x + cap;
  r->H = r->v + cap;
}

static void rec_free(step_rec *r)
{
  free(r->t);
  memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------------------
 * |F| <= R0 on both integrators; Newmark keeps the state H itself within the bound.
 */

Test(ep_bound, both_integrators)
{
  static const char *const tmd[] = {"eps=0.001", "T=200", NULL};
  static const char *const ss[] = {"cT=1e4", NULL};
  static const char *const dr[] = {"cT=4e5", NULL};
  const struct {
    const char *sc, *integ;
    double h;
    const char *const *sets;
    size_t n;
    const fb_friction *law;
  } cases[] = {
      {"two-mass-drive", "newmark", 0.1, tmd, 2, &law_coulomb},
      {"two-mass-drive", "newmark", 0.001, tmd, 2, &law_coulomb},
      {"two-mass-drive", "rk4", 0.001, tmd, 2, &law_coulomb},
      {"stick-slip", "newmark", 0.01, ss, 1, NULL},
      {"stick-slip", "rk4", 0.001, ss, 1, NULL},
      {"drift", "newmark", 0.01, dr, 1, &law_stribeck}, /* Stribeck, bracketed fallback */
      {"drift", "rk4", 1e-4, dr, 1, &law_stribeck},
  };
  const fb_friction law_ss = {FB_SHAPE_COULOMB, 4.0, 4.0, 1.0}; /* stick-slip's mu = 4 */
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    step_rec r;
    fb_trace tr;
    fb_run_result res;
    rec_init(&r, cases[k].n, 1, cases[k].law ? cases[k].law : &law_ss);
    const fb_observer obs = {rec_step, &r};
    /* The output grid on the steps, so that the recorded F is the reported one, not an
     * interpolation between steps (T: 200, 10, 10). */
    const double T = strcmp(cases[k].sc, "two-mass-drive") == 0 ? 200.0 : 10.0;
    int st = fbt_run(cases[k].sc, "penalty", cases[k].integ, cases[k].h, 0, cases[k].sets,
                     (size_t)floor(T / cases[k].h + 0.5) + 1, &tr, &obs, &res);
    cr_assert_eq(st, FB_OK, "%s/penalty/%s: %s", cases[k].sc, cases[k].integ, res.message);
    double maxF = 0.0; /* |F|/R0 on the output grid: F = clamp(H - dT v, S(|v|)) */
    for (size_t s = 0; s < tr.filled; s++) {
      const double v = tr.y[s * tr.dim + 2 * tr.n - 1];
      const fb_contact_in c = {.law = r.law, .N = 1.0, .Fs = r.law->mu_s, .f_app = 0.0};
      maxF = fmax(maxF, fabs(tr.F[s]) / fb_contact_S(&c, fabs(v), NULL));
    }
    cr_log_info("bound %s/%s h=%g: max |F|/R0 = %.15g, max |H|/R0 over steps = %.15g\n",
                cases[k].sc, cases[k].integ, cases[k].h, maxF, r.max_H_over_R0);
    cr_assert(maxF <= 1.0 + 1e-12, "%s/%s: |F| exceeds R0 (%.17g)", cases[k].sc, cases[k].integ,
              maxF);
    if (strcmp(cases[k].integ, "newmark") == 0)
      cr_assert(r.max_H_over_R0 <= 1.0, "%s/newmark: |H| exceeds R0 (%.17g)", cases[k].sc,
                r.max_H_over_R0);
    fb_trace_free(&tr);
    rec_free(&r);
  }
}

/* ------------------------------------------------------------------------------------
 * Stick on drift (m = 1, Stribeck Fs = 1.5, Fc = 1, vs = 1e-3, loads b + a sin below Fc):
 * the mass creeps elastically by at most Fs/cT and does not accumulate (asserted for a
 * stiff penalty, cT >= 4e5, resolved by h).  Logged only: a soft penalty (cT = 1e3) or an
 * unresolved one (cT = 4e5, h = 1e-2, omega_p h = 6.3) lets the stick velocity oscillate
 * beyond vs, the Stribeck bound S(|v|) drops towards Fc, and the contact micro-slips:
 * real drift of the regularized model, by up to ~1700 Fs/cT.
 */

Test(ep_drift, micro_slip_bounded_by_Fs_over_cT)
{
  const double Fs = 1.5;
  const struct {
    double cT, h;
    int assert_bound;
  } cases[] = {{4e5, 1e-3, 1}, {4e5, 1e-4, 1}, {1e6, 1e-3, 1}, {4e5, 1e-2, 0}, {1e3, 1e-3, 0}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    char set[64];
    snprintf(set, sizeof set, "cT=%.17g", cases[k].cT);
    const char *const sets[] = {set, NULL};
    fb_trace tr;
    fb_run_result res;
    int st = fbt_run("drift", "penalty", "newmark", cases[k].h, 0, sets, 10001, &tr, NULL,
                     &res);
    cr_assert_eq(st, FB_OK, "drift/penalty/newmark: %s", res.message);
    double xmax = 0.0;
    int all_stick = 1;
    for (size_t s = 0; s < tr.filled; s++) {
      xmax = fmax(xmax, fabs(tr.y[s * tr.dim]));
      all_stick &= tr.stick[s] == 1;
    }
    const double xT = fabs(tr.y[(tr.filled - 1) * tr.dim]), bound = Fs / cases[k].cT;
    cr_log_info("drift newmark cT=%g h=%g: max|x| = %.4g = %.4g Fs/cT, |x(T)| = %.4g Fs/cT, "
                "stick throughout: %s\n",
                cases[k].cT, cases[k].h, xmax, xmax / bound, xT / bound, all_stick ? "yes" : "no");
    if (cases[k].assert_bound) {
      cr_assert(xmax <= bound, "drift: micro-slip %g exceeds Fs/cT = %g (cT=%g h=%g)", xmax,
                bound, cases[k].cT, cases[k].h);
      cr_assert(xT <= bound);
      cr_assert(all_stick, "drift: a stuck contact must report stick at every sample");
    }
    fb_trace_free(&tr);
  }
}

/* ------------------------------------------------------------------------------------
 * Newmark converges at order 2 to the rate form's tight solution (fixed cT).
 */

static double max_x_err(const fb_trace *a, const fb_trace *b)
{
  double e = 0.0;
  cr_assert_eq(a->filled, b->filled);
  for (size_t s = 0; s < a->filled; s++)
    for (size_t i = 0; i < a->n; i++)
      e = fmax(e, fabs(a->y[s * a->dim + i] - b->y[s * b->dim + i]));
  return e;
}

static double order_against_rk8pd(const char *const *sets, const double *hs, size_t nh,
                                  double *errs)
{
  fb_trace ref, tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("stick-slip", "penalty", "rk8pd", 0, 1e-12, sets, 101, &ref, NULL,
                       &res),
               FB_OK, "%s", res.message);
  double lh[8], le[8], c0, c1, c00, c01, c11, ss;
  for (size_t k = 0; k < nh; k++) {
    cr_assert_eq(fbt_run("stick-slip", "penalty", "newmark", hs[k], 0, sets, 101, &tr,
                         NULL, &res),
                 FB_OK, "%s", res.message);
    errs[k] = max_x_err(&tr, &ref);
    lh[k] = log(hs[k]);
    le[k] = log(errs[k]);
    fb_trace_free(&tr);
  }
  fb_trace_free(&ref);
  cr_assert_eq(gsl_fit_linear(lh, 1, le, 1, nh, &c0, &c1, &c00, &c01, &c11, &ss), 0);
  return c1;
}

Test(ep_newmark, order_two_against_rate_form)
{
  const double hs[] = {0.01, 0.005, 0.0025, 0.00125};
  double e[4];
  /* Stick-slip of [ShourbagyMatuttis] (mu = 4: slip, stick and reversals) at fixed cT = 100. */
  static const char *const sets[] = {"cT=100", NULL};
  const double p = order_against_rk8pd(sets, hs, 4, e);
  cr_log_info("newmark vs rk8pd(1e-12) on stick-slip, cT=100: max|x err| %.3e %.3e %.3e %.3e "
              "at h = 0.01..0.00125, observed order %.3f\n",
              e[0], e[1], e[2], e[3], p);
  cr_assert(p > 1.8 && p < 2.3, "newmark order %g, expected about 2", p);
  /* Without friction (mu = 0): the linear forced oscillator. */
  static const char *const sets0[] = {"cT=100", "mu=0", NULL};
  const double p0 = order_against_rk8pd(sets0, hs, 4, e);
  cr_log_info("newmark vs rk8pd(1e-12) on stick-slip, mu=0: max|x err| %.3e .. %.3e, observed "
              "order %.3f\n",
              e[0], e[3], p0);
  cr_assert(p0 > 1.95 && p0 < 2.05, "newmark order %g without friction, expected 2", p0);
}

Test(ep_newmark, adaptive_step_doubling_converges)
{
  static const char *const sets[] = {"cT=100", NULL};
  fb_trace ref, tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("stick-slip", "penalty", "rk8pd", 0, 1e-12, sets, 101, &ref, NULL,
                       &res),
               FB_OK, "%s", res.message);
  const double tols[] = {1e-4, 1e-6, 1e-8};
  double e[3];
  for (size_t k = 0; k < 3; k++) {
    cr_assert_eq(fbt_run("stick-slip", "penalty", "newmark", 0, tols[k], sets, 101, &tr,
                         NULL, &res),
                 FB_OK, "%s", res.message);
    e[k] = max_x_err(&tr, &ref);
    cr_log_info("newmark --tol %g: max|x err| %.3e, steps %lu, rejected %lu, Newton %lu\n",
                tols[k], e[k], res.cnt.nsteps, res.cnt.nrejected, res.cnt.ninner);
    fb_trace_free(&tr);
  }
  fb_trace_free(&ref);
  cr_assert(e[1] < e[0] && e[2] < e[1] && e[2] < 1e-5, "adaptive newmark must converge");
}

/* When Newton gives up (here forced by newmark_max = 1), one contact and a
 * state-independent force: the bracketed fallback solves the same step equation (unique
 * for Coulomb), so the run matches the default one; with two contacts there is no
 * fallback and the run stops with FB_ESOLVE at the last good state. */
Test(ep_newmark, bracketed_fallback_and_solve_failure)
{
  static const char *const def[] = {"eps=0.001", "T=200", NULL};
  static const char *const one[] = {"eps=0.001", "T=200", "newmark_max=1", NULL};
  fb_trace a, b;
  fb_run_result ra, rb;
  cr_assert_eq(fbt_run("two-mass-drive", "penalty", "newmark", 0.1, 0, def, 201, &a, NULL,
                       &ra),
               FB_OK, "%s", ra.message);
  cr_assert_eq(fbt_run("two-mass-drive", "penalty", "newmark", 0.1, 0, one, 201, &b, NULL,
                       &rb),
               FB_OK, "%s", rb.message);
  const double e = max_x_err(&a, &b);
  cr_log_info("newmark_max=1 (bracketed fallback) vs default on two-mass-drive: max|dx| = %.3g; "
              "Newton+Brent iterations %lu vs %lu\n",
              e, rb.cnt.ninner, ra.cnt.ninner);
  cr_assert(e < 1e-8, "fallback and Newton disagree by %g", e);
  cr_assert(rb.cnt.ninner > ra.cnt.ninner, "the fallback must have been used");
  fb_trace_free(&a);
  fb_trace_free(&b);
  static const char *const two[] = {"newmark_max=1", NULL};
  const int st = fbt_run("coupled-sledges", "penalty", "newmark", 0.1, 0, two, 11, NULL,
                         NULL, &rb);
  cr_assert_eq(st, FB_ESOLVE, "expected FB_ESOLVE, got %d (%s)", st, rb.message);
  cr_assert(strstr(rb.message, "Newton") != NULL, "%s", rb.message);
  cr_assert(isfinite(rb.t_reached) && rb.t_reached < 10.0);
}

/* ------------------------------------------------------------------------------------
 * [Engleder2002] figs. 3-4 on two-mass-drive: eps in {0.1, 0.001} x h in {0.1, 0.001}.
 *
 * Stick intervals come from each run itself: samples where the contact force is strictly
 * inside the bound (|F| < R0 (1 - 1e-9)), gaps shorter than 1 time unit (the micro-slips
 * at the peaks of the penalty oscillation) merged, intervals shorter than 1 dropped, and
 * only the stationary second half of the run [T/2, T] used.  Measures inside them:
 *   tv     total variation of F per unit time over R0 (docs/design.md §6 chatter),
 *   ext    force extrema (sign reversals of the increments of F) per unit time,
 *   creep  sum over intervals of |x_m(end) - x_m(start)| (slip during stick),
 *   ferr   mean |F_h(t_k) - F_{h=0.001}(t_k)| / R0 over the coarse run's steps t_k
 *          inside the fine run's stick intervals (same eps): the force's step error.
 * Asserted: the extrema rate grows with cT like sqrt(cT) (resolved runs); h = 0.1
 * keeps the resolved extrema rate at eps = 0.1 but not at eps = 0.001; at eps = 0.001
 * h = 0.1 multiplies the creep in stick, at eps = 0.1 it does not.
 */

typedef struct stick_stats {
  size_t nint;
  double dur, tv, ext, creep;
  double *lo, *hi; /* interval bounds in time */
} stick_stats;

static void stick_measure(const step_rec *r, double T, stick_stats *s)
{
  const double R0 = 1.0, gap = 1.0, minlen = 1.0;
  memset(s, 0, sizeof *s);
  s->lo = calloc(2 * (r->len + 1), sizeof(double));
  cr_assert_not_null(s->lo);
  s->hi = s->lo + r->len + 1;
  size_t a = 0, b = 0;
  int open = 0;
  for (size_t i = 0; i <= r->len; i++) {
    const int in =
        i < r->len && r->t[i] >= 0.5 * T && fabs(fb_clamp(r->H[i], R0)) < R0 * (1 - 1e-9);
    if (in && !open) {
      a = b = i;
      open = 1;
    } else if (in) {
      b = i;
    }
    if (open && (i == r->len || (!in && r->t[i] - r->t[b] > gap))) {
      open = 0;
      if (r->t[b] - r->t[a] >= minlen) {
        s->lo[s->nint] = r->t[a];
        s->hi[s->nint] = r->t[b];
        s->nint++;
        s->dur += r->t[b] - r->t[a];
        s->creep += fabs(r->x[b] - r->x[a]);
        double dprev = 0.0;
        for (size_t k = a; k < b; k++) {
          const double d = fb_clamp(r->H[k + 1], R0) - fb_clamp(r->H[k], R0);
          s->tv += fabs(d) / R0;
          if (d != 0.0) {
            s->ext += dprev != 0.0 && (d > 0) != (dprev > 0);
            dprev = d;
          }
        }
      }
    }
  }
  if (s->dur > 0) {
    s->tv /= s->dur;
    s->ext /= s->dur;
  }
}

/* Mean |F_c - F_f| / R0 at the coarse run's steps inside the fine run's intervals. */
static double force_step_error(const step_rec *c, const step_rec *f, const stick_stats *sf,
                               double hf)
{
  double sum = 0.0;
  size_t cnt = 0, iv = 0;
  for (size_t k = 0; k < c->len; k++) {
    const double t = c->t[k];
    while (iv < sf->nint && sf->hi[iv] < t)
      iv++;
    if (iv >= sf->nint || t < sf->lo[iv])
      continue;
    const size_t j = (size_t)floor(t / hf + 0.5);
    if (j >= f->len || fabs(f->t[j] - t) > 1e-6 * hf)
      continue;
    sum += fabs(fb_clamp(c->H[k], 1.0) - fb_clamp(f->H[j], 1.0));
    cnt++;
  }
  cr_assert(cnt > 100, "too few common samples (%zu)", cnt);
  return sum / (double)cnt;
}

/* x_m of a step record at time t (cubic Hermite with v_m); *k is a monotone cursor. */
static double rec_x_at(const step_rec *r, double t, size_t *k)
{
  while (*k + 2 < r->len && r->t[*k + 1] < t)
    (*k)++;
  const size_t i = *k;
  const double h = r->t[i + 1] - r->t[i], th = (t - r->t[i]) / h;
  const double th2 = th * th, th3 = th2 * th;
  return (2 * th3 - 3 * th2 + 1) * r->x[i] + (th3 - 2 * th2 + th) * h * r->v[i] +
         (-2 * th3 + 3 * th2) * r->x[i + 1] + (th3 - th2) * h * r->v[i + 1];
}

/* [Engleder2002] against the event-driven reference (switching/event), when it exists: only
 * small eps with a small step gives a good phase curve.  Max |x_m - x_m,ref| on [T/2, T]. */
static void phase_vs_reference(step_rec r[2][2], double T)
{
  const fb_model_type *sw = fb_model_find("switching");
  if (sw == NULL || fb_integrator_find(sw, "event") == NULL) {
    cr_log_warn("switching/event not available: phase-curve check against it skipped\n");
    return;
  }
  fb_trace ref;
  fb_run_result res;
  const size_t ns = 6284;
  if (fbt_run("two-mass-drive", "switching", "event", 0, 1e-10, NULL, ns, &ref, NULL, &res) !=
      FB_OK) {
    cr_log_warn("switching/event reference failed (%s): phase-curve check skipped\n",
                res.message);
    fb_trace_free(&ref);
    return;
  }
  double e[2][2];
  for (int ie = 0; ie < 2; ie++)
    for (int ih = 0; ih < 2; ih++) {
      size_t k = 0;
      e[ie][ih] = 0.0;
      for (size_t g = 0; g < ref.filled; g++)
        if (ref.t[g] >= 0.5 * T)
          e[ie][ih] = fmax(e[ie][ih],
                           fabs(rec_x_at(&r[ie][ih], ref.t[g], &k) - ref.y[g * ref.dim + 1]));
    }
  double tv = 0.0, dur = 0.0; /* the exact stick force's own variation, for scale */
  for (size_t g = 1; g < ref.filled; g++)
    if (ref.t[g - 1] >= 0.5 * T && ref.stick[g] == 1 && ref.stick[g - 1] == 1) {
      tv += fabs(ref.F[g] - ref.F[g - 1]);
      dur += ref.t[g] - ref.t[g - 1];
    }
  cr_log_info("reference switching/event: stick %.1f time units in [T/2, T], F total "
              "variation/(R0 time) = %.3f\n",
              dur, dur > 0 ? tv / dur : 0.0);
  fb_trace_free(&ref);
  cr_log_info("[Engleder2002] check: max |x_m - x_m,ref| on [T/2, T] vs switching/event: eps=0.1: "
              "%.3g (h=0.1) %.3g (h=0.001); eps=0.001: %.3g (h=0.1) %.3g (h=0.001)\n",
              e[0][0], e[0][1], e[1][0], e[1][1]);
  cr_assert(e[1][1] < e[1][0] && e[1][1] < e[0][0] && e[1][1] < e[0][1],
            "small eps with small h must give the best phase curve");
}

/* [Engleder2002] ran the undamped penalty spring: dT = 0 (the default is critical). */
Test(ep_two_mass_drive, seed004_eps_h_grid, .timeout = 120)
{
  const double T = 40.0 * M_PI / 0.2; /* the scenario's default: 20 drive periods */
  const char *const eps_set[2] = {"eps=0.1", "eps=0.001"};
  const double eps[2] = {0.1, 0.001}, hs[2] = {0.1, 0.001};
  step_rec r[2][2];
  stick_stats s[2][2];
  double ferr[2];
  for (int ie = 0; ie < 2; ie++) {
    for (int ih = 0; ih < 2; ih++) {
      const char *const sets[] = {eps_set[ie], "dT=0", NULL};
      fb_run_result res;
      rec_init(&r[ie][ih], 2, (size_t)(T / hs[ih]) + 16, &law_coulomb);
      const fb_observer obs = {rec_step, &r[ie][ih]};
      const int st = fbt_run("two-mass-drive", "penalty", "newmark", hs[ih], 0, sets, 2,
                             NULL, &obs, &res);
      cr_assert_eq(st, FB_OK, "two-mass-drive/penalty/newmark eps=%g h=%g: %s", eps[ie],
                   hs[ih], res.message);
      cr_assert(r[ie][ih].max_H_over_R0 <= 1.0);
      stick_measure(&r[ie][ih], T, &s[ie][ih]);
      cr_log_info("two-mass-drive newmark eps=%g h=%g: %zu stick intervals in [T/2, T] "
                  "(%.1f of %.1f time units); inside: F total variation/(R0 time) = %.3f, "
                  "F extrema/time = %.2f, creep = %.4g; Newton its/step = %.2f\n",
                  eps[ie], hs[ih], s[ie][ih].nint, s[ie][ih].dur, 0.5 * T, s[ie][ih].tv,
                  s[ie][ih].ext, s[ie][ih].creep,
                  (double)res.cnt.ninner / (double)res.cnt.nsteps);
      cr_assert(s[ie][ih].nint >= 8, "expected one stick phase per drive period");
    }
    ferr[ie] = force_step_error(&r[ie][0], &r[ie][1], &s[ie][1], hs[1]);
    cr_log_info("two-mass-drive newmark eps=%g: mean |F(h=0.1) - F(h=0.001)|/R0 in stick = "
                "%.4f\n",
                eps[ie], ferr[ie]);
  }
  /* [Engleder2002]: "the frequencies of the oscillations depend on the value of cT": resolved
   * (h = 0.001), cT x100 gives about x10 force extrema per unit time. */
  const double fr = s[1][1].ext / s[0][1].ext;
  cr_log_info("[Engleder2002] check: extrema rate eps=0.001 / eps=0.1 at h=0.001 = %.2f (sqrt of the "
              "stiffness ratio: %.2f)\n",
              fr, sqrt((1.0 / 0.001 + 1.0) / (1.0 / 0.1 + 1.0)));
  cr_assert(fr > 5.0, "force oscillation frequency must grow with cT (ratio %g)", fr);
  /* [Engleder2002]: small eps with a large step gives structural errors in the contact force.
   * At eps = 0.1 (omega_p h = 0.33) the step h = 0.1 still resolves the stick force's
   * oscillation: the same extrema rate as h = 0.001.  At eps = 0.001 (omega_p h = 3.2)
   * it cannot: the oscillation is aliased to another rate.  (The pointwise force error
   * ferr is logged only: at eps = 0.1 the h = 0.1 run settles on a slightly different
   * stationary orbit, x_m up to 0.12 off, which ferr mixes with the stick force.) */
  double fid[2];
  for (int ie = 0; ie < 2; ie++) {
    fid[ie] = fabs(s[ie][0].ext / s[ie][1].ext - 1.0);
    cr_log_info("[Engleder2002] check: eps=%g, force extrema rate h=0.1 / h=0.001 - 1 = %+.3f\n",
                eps[ie], s[ie][0].ext / s[ie][1].ext - 1.0);
  }
  cr_assert(fid[0] < 0.1, "eps=0.1: h=0.1 must resolve the stick force (deviation %g)", fid[0]);
  cr_assert(fid[1] > 0.2, "eps=0.001: h=0.1 must misrepresent the stick force (deviation %g)",
            fid[1]);
  cr_log_info("[Engleder2002] check: force step error eps=0.001 / eps=0.1 = %.2f\n", ferr[1] / ferr[0]);
  /* ... and in the phase curve: at eps = 0.001 the large step multiplies the slip
   * accumulated during stick; at eps = 0.1 it hardly changes it. */
  const double cr1 = s[1][0].creep / s[1][1].creep, cr0 = s[0][0].creep / s[0][1].creep;
  cr_log_info("[Engleder2002] check: creep in stick h=0.1 / h=0.001: eps=0.001 %.2f, eps=0.1 %.2f\n",
              cr1, cr0);
  cr_assert(cr1 > 4.0, "creep ratio %g at eps=0.001, expected > 4", cr1);
  cr_assert(cr0 < 1.5, "creep ratio %g at eps=0.1, expected about 1", cr0);
  phase_vs_reference(r, T);
  /* Reported, not asserted (see the report): the force's total variation per unit time at
   * eps = 0.001 is not larger with h = 0.1, the envelope of the oscillation is the same
   * and the coarse step aliases it (omega_p h = 3.2). */
  cr_log_info("tv ratio eps=0.001 h=0.1 / h=0.001 = %.2f\n", s[1][0].tv / s[1][1].tv);
  for (int ie = 0; ie < 2; ie++)
    for (int ih = 0; ih < 2; ih++) {
      free(s[ie][ih].lo);
      rec_free(&r[ie][ih]);
    }
}

/* Stick time on stick-slip by the velocity test (|v| < 1e-4 v_scale, v_scale = 4) and
 * sign changes of v inside it, from a 10001-point trajectory. */
static double stick_by_velocity(const char *integ, const char *const *sets, size_t *flips)
{
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("stick-slip", "penalty", integ, 1e-4, 0, sets, 10001, &tr, NULL, &res),
               FB_OK, "%s", res.message);
  double st = 0.0;
  *flips = 0;
  for (size_t k = 1; k < tr.filled; k++) {
    const double v = tr.y[k * tr.dim + 1], vp = tr.y[(k - 1) * tr.dim + 1];
    if (fabs(v) < 4e-4) {
      st += tr.t[k] - tr.t[k - 1];
      *flips += v * vp < 0.0;
    }
  }
  fb_trace_free(&tr);
  return st;
}

/* The same spring-slider-damper physics as Kikuuwe's anchor: with the default critical
 * damper (dT = 2 sqrt(cT m) = Kikuuwe's B) the penalty model sticks as long as Kikuuwe's
 * by the velocity test; [Engleder2002]'s undamped spring (dT = 0) rings during stick, so the
 * velocity test sees almost no stick although the return mapping holds the contact. */
Test(penalty, critical_damper_sticks_like_kikuuwe)
{
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("stick-slip", "kikuuwe", "rk4", 1e-4, 0, NULL, 10001, &tr, NULL, &res),
               FB_OK, "%s", res.message);
  double sk = 0.0;
  for (size_t k = 1; k < tr.filled; k++)
    if (fabs(tr.y[k * tr.dim + 1]) < 4e-4)
      sk += tr.t[k] - tr.t[k - 1];
  fb_trace_free(&tr);
  size_t f_rk4, f_nm, f_0;
  const double s_rk4 = stick_by_velocity("rk4", NULL, &f_rk4);
  const double s_nm = stick_by_velocity("newmark", NULL, &f_nm);
  static const char *const undamped[] = {"dT=0", NULL};
  const double s_0 = stick_by_velocity("newmark", undamped, &f_0);
  cr_log_info("stick-slip, stick by |v| < 4e-4: kikuuwe %.3f s; penalty rk4 %.3f s (%zu sign "
              "changes), newmark %.3f s (%zu), newmark dT=0 %.3f s (%zu)\n",
              sk, s_rk4, f_rk4, s_nm, f_nm, s_0, f_0);
  cr_assert(fabs(s_rk4 - sk) <= 0.01 * sk && fabs(s_nm - sk) <= 0.01 * sk,
            "critically damped penalty sticks like kikuuwe: %g, %g vs %g", s_rk4, s_nm, sk);
  cr_assert(s_0 < 0.25 * sk && f_0 > 10 * (f_nm + 1), "undamped: %g s, %zu sign changes", s_0,
            f_0);
}
