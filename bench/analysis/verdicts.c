/* verdicts.c — the verdict rules of docs/design.md §10 (fb_verdicts.h). */
#define _POSIX_C_SOURCE 200809L
#include "fb_verdicts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_csv.h"
#include "fb_io.h"
#include "fb_metrics.h"
#include "fb_model.h"
#include "verdicts_int.h"




const char *fb_run_expected_why(const char *model, const char *integrator)
{
  const fb_model_type *m = model != NULL && integrator != NULL ? fb_model_find(model) : NULL;
  for (size_t i = 0; m != NULL && i < 4 && fb_model_suite_of(m)->expect_fail[i] != NULL; i++)
    if (streq(fb_model_suite_of(m)->expect_fail[i], integrator)) {
      const char *why = fb_model_suite_of(m)->expect_fail_why;
      return why != NULL ? why : "the model's suite data expects it";
    }
  return NULL;
}

/* 1 when the model's suite data expects its runs under this integrator to fail or be
 * unstable at coarse steps. */
static int expected_failure(const char *model, const char *integrator)
{
  return fb_run_expected_why(model, integrator) != NULL;
}

void fb_run_tally_add(fb_run_tally *t, const char *status, const char *model,
                      const char *integrator)
{
  t->n++;
  if (!streq(status, "ok") && !streq(status, "suspect") && !streq(status, "budget"))
    t->expected += expected_failure(model, integrator);
  if (streq(status, "ok"))
    t->ok++;
  else if (streq(status, "unstable"))
    t->unstable++;
  else if (streq(status, "suspect"))
    t->suspect++;
  else if (streq(status, "budget"))
    t->budget++;
  else
    t->failed++;
}

void fb_run_tally_text(const fb_run_tally *t, char *buf, size_t len)
{
  const int n = snprintf(buf, len, "%zu runs (%zu ok, %zu unstable, %zu suspect, %zu budget, "
                         "%zu failed", t->n, t->ok, t->unstable, t->suspect, t->budget,
                         t->failed);
  if (n >= 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, t->expected ? "; %zu of the unstable and failed "
             "expected: stiff laws under explicit steppers)" : ")", t->expected);
}

void fb_vtable_free(fb_vtable *v)
{
  free(v->r);
  memset(v, 0, sizeof *v);
}





static int is_alt_tag(const vrun *r)
{
  const fb_model_type *m = fb_model_find(r->model);
  return m != NULL && fb_model_suite_of(m)->alt_tag != NULL && streq(fb_model_suite_of(m)->alt_tag, r->tag);
}


/* stick: the held fraction of the reference's stick time (docs/design.md §10.1). */
static int judge_stick(fb_vtable *v, const vrun *R, const vset *S, const vkey *k)
{
  char scen[320] = "", notok[320] = "", worst[96] = "";
  double held = 0, ref = 0, flag = 0, minfrac = INFINITY, minflag = INFINITY;
  int have_flag = 0, nstick = 0;
  for (size_t a = 0; a < S->n; a++) {
    const vrun *r = &R[S->i[a]];
    if (!(r->stick_time_ref > 0) && r->ok)
      continue;
    if (!r->ok) {
      vd_list_add(notok, sizeof notok, r->scenario);
      continue;
    }
    nstick++;
    vd_list_add(scen, sizeof scen, r->scenario);
    held += r->stick_held;
    ref += r->stick_time_ref;
    const double f = r->stick_held / r->stick_time_ref;
    if (f < minfrac) {
      minfrac = f;
      snprintf(worst, sizeof worst, "%s", r->scenario);
    }
    if (!isnan(r->stick_flag_time)) {
      have_flag = 1;
      flag += r->stick_flag_time;
      minflag = fmin(minflag, r->stick_flag_time / r->stick_time_ref);
    }
  }
  char rule[320], where[320];
  snprintf(where, sizeof where, "worst %s; %s%s%s", worst, scen, notok[0] ? "; not scored: " : "",
           notok);
  snprintf(rule, sizeof rule, "held fraction of reference stick time, |v_r| < v_stick; yes when "
           ">= %.2g on every scenario with stick (value: summed; value2: by the model's flag)",
           FB_V_STICK_HELD);
  if (nstick > 0) {
    const double fr = held / ref, ff = have_flag ? flag / ref : (double)NAN;
    const char *vd = minfrac >= FB_V_STICK_HELD                         ? "yes"
                     : have_flag && minflag >= FB_V_STICK_HELD          ? "flag only"
                     : fr >= 0.5                                        ? "partly"
                                                                        : "no";
    if (vd_add(v, k, "stick", fr, "1", ff, rule, where, "%s (worst %.2f)", vd, minfrac) != FB_OK)
      return FB_ENOMEM;
  }
  return FB_OK;
}

/* An unstable run's chatter and energy are the instability's: said so, never scored.
 * *found: 1 when the set has one (then the other rules are not judged). */
static int judge_unstable(fb_vtable *v, const vrun *R, size_t nr, const vset *S, const vkey *k,
                          int *found)
{
  const vrun *unst = NULL;
  for (size_t a = 0; a < S->n && unst == NULL; a++)
    if (R[S->i[a]].unstable)
      unst = &R[S->i[a]];
  if (unst != NULL) {
    char txt[96];
    vd_unstable_text(R, nr, unst, txt, sizeof txt);
    if (vd_add(v, k, "chatter", NAN, "1/s", NAN, "not judged on an unstable run (docs/design.md "
            "§10.2)", unst->scenario, "%s", txt) != FB_OK ||
        vd_add(v, k, "energy", NAN, "1", NAN, "not judged on an unstable run (docs/design.md "
            "§10.2)", unst->scenario, "%s", txt) != FB_OK)
      return FB_ENOMEM;
    *found = 1;
    return FB_OK;
  }
  *found = 0;
  return FB_OK;
}

/* chatter inside reference stick, classified by the run at h/4 (docs/design.md §10.3). */
static int judge_chatter(fb_vtable *v, const vrun *R, size_t nr, const vset *S, const vkey *k)
{
  char scen[320] = "", worst[96] = "", where[320];
  double cmax = -1, c4 = NAN;
  int have_partner = 0;
  for (size_t a = 0; a < S->n; a++) {
    const vrun *r = &R[S->i[a]];
    if (!r->ok || !(r->stick_time_ref > 0) || isnan(r->chatter_rate))
      continue;
    vd_list_add(scen, sizeof scen, r->scenario);
    if (r->chatter_rate > cmax) {
      cmax = r->chatter_rate;
      snprintf(worst, sizeof worst, "%s", r->scenario);
      const vrun *p = streq(k->view, "fixed-step") ? vd_partner(R, nr, r) : NULL;
      have_partner = p != NULL && p->ok && !isnan(p->chatter_rate);
      c4 = have_partner ? p->chatter_rate : (double)NAN;
    }
  }
  if (cmax >= 0) {
    snprintf(where, sizeof where, "worst %s; %s", worst, scen);
    /* a physical mode keeps its rate when the step shrinks 4x; a rate that falls (an
     * instability that goes away) or rises (~1/h) by more than 2x is the scheme's */
    const double ratio = c4 / cmax;
    const char *cls = !have_partner                    ? "unclassified (one step)"
                      : ratio >= 0.5 && ratio <= 2.0 ? "physical mode"
                                                     : "numerical";
    if (cmax > FB_V_CHATTER_RATE) {
      if (vd_add(v, k, "chatter", cmax, "1/s", c4,
              "sign changes of v_r per second inside reference stick, largest; yes above 10/s; "
              "a physical mode only when the rate at h/4 (value2) is within 0.5x-2x, else "
              "numerical (docs/design.md §10.3)",
              where, "yes, %s", cls) != FB_OK)
        return FB_ENOMEM;
    } else if (vd_add(v, k, "chatter", cmax, "1/s", c4,
                   "sign changes of v_r per second inside reference stick, largest; yes above "
                   "10/s", where, "no") != FB_OK)
      return FB_ENOMEM;
  }
  return FB_OK;
}

/* energy: the dissipation inequality with stored energy, every accepted step;
 * pointwise and exact for a force law, the step balance for a model-owned scheme. */
static int judge_energy(fb_vtable *v, const vrun *R, const vset *S, const vkey *k)
{
  char scen[320] = "", where[320];
  double emax = -(double)INFINITY;
  int pointwise = 0;
  char eworst[64] = "";
  for (size_t a = 0; a < S->n; a++) {
    const vrun *r = &R[S->i[a]];
    if (!r->ok)
      continue;
    const int pw = !isnan(r->power_excess_rel);
    const double e = pw ? r->power_excess_rel : r->energy_excess_rel;
    if (isnan(e))
      continue;
    pointwise |= pw;
    if (e > (pw ? FB_V_POWER_REL : FB_V_ENERGY_REL))
      vd_list_add(scen, sizeof scen, r->scenario);
    if (e > emax) {
      emax = e;
      snprintf(eworst, sizeof eworst, "%s", r->scenario);
    }
  }
  if (emax > -(double)INFINITY) {
    const int creates = emax > (pointwise ? FB_V_POWER_REL : FB_V_ENERGY_REL);
    snprintf(where, sizeof where, "worst %s%s%s", eworst, scen[0] ? "; created on " : "", scen);
    if (vd_add(v, k, "energy", emax, pointwise ? "of Fs v_scale" : "of Fs v_scale T", NAN,
            pointwise
                ? "largest F v_r + dE_stored/dt at the run's states, from the law's own rates "
                  "(exact), relative to Fs v_scale; creates energy above 1e-6"
                : "largest rise over any interval of W = sum (E_stored change + F ds) with the "
                  "end-of-step force, every step, relative to Fs v_scale (T - t0); creates "
                  "energy above 1e-5",
            where, "%s", creates ? "creates energy" : "dissipative") != FB_OK)
      return FB_ENOMEM;
  }
  return FB_OK;
}

static int judge_set(fb_vtable *v, const vrun *R, size_t nr, const vset *S, const vkey *k)
{
  int unstable = 0;
  int st = judge_stick(v, R, S, k);
  if (st == FB_OK)
    st = vd_judge_hold(v, R, nr, S, k);
  if (st == FB_OK)
    st = judge_unstable(v, R, nr, S, k, &unstable);
  if (st == FB_OK && !unstable)
    st = judge_chatter(v, R, nr, S, k);
  if (st == FB_OK && !unstable)
    st = judge_energy(v, R, S, k);
  return st;
}

/* The sets of one view: rows grouped by (model, integrator, step label). */
static int judge_view(fb_vtable *v, const vrun *R, size_t n, const char *view)
{
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  unsigned char *used = calloc(n ? n : 1, 1);
  if (idx == NULL || used == NULL) {
    free(idx), free(used);
    return FB_ENOMEM;
  }
  const int fixed = streq(view, "fixed-step");
  double hview = -1; /* the judged step of the fixed-step view: its coarsest */
  for (size_t k = 0; k < n && fixed; k++)
    if (streq(R[k].group, "fixed-step"))
      hview = fmax(hview, R[k].h);
  int st = FB_OK;
  for (size_t k = 0; k < n && st == FB_OK; k++) {
    const vrun *r = &R[k];
    const int in = fixed ? streq(r->group, "fixed-step") && r->h == hview
                         : streq(r->group, "baseline") || (streq(r->group, "drift") && !is_alt_tag(r));
    if (!in || used[k])
      continue;
    vset S = {idx, 0};
    for (size_t j = k; j < n; j++) {
      const vrun *c = &R[j];
      const int cin = fixed ? streq(c->group, "fixed-step") && c->h == hview
                            : streq(c->group, "baseline") || (streq(c->group, "drift") && !is_alt_tag(c));
      if (cin && !used[j] && streq(c->model, r->model) && streq(c->integrator, r->integrator)) {
        used[j] = 1;
        S.i[S.n++] = j;
      }
    }
    vkey key = {r->model, r->integrator, view, "", fixed ? hview : (double)NAN};
    if (fixed)
      snprintf(key.step, sizeof key.step, "h=%g", hview);
    else
      snprintf(key.step, sizeof key.step, "default");
    st = judge_set(v, R, n, &S, &key);
  }
  free(idx);
  free(used);
  return st;
}

/* Whether a scenario's reference has events (a stop, stick, slip-stick switches): any run of
 * it in runs.csv with reference stick time.  Read from the data, so a new scenario is
 * classed without an edit here. */
static int has_events(const vrun *R, size_t n, const char *scenario)
{
  for (size_t k = 0; k < n; k++)
    if (streq(R[k].scenario, scenario) && R[k].stick_time_ref > 0)
      return 1;
  return 0;
}

/* The extremes of one (model, integrator)'s fitted orders: over all scenarios and over
 * those with events. */
typedef struct oext {
  double lo, hi, ev;
  char lo_s[64], hi_s[64], ev_s[64];
  size_t n, nev;
} oext;

static void oext_add(oext *x, double q, const char *scen, int events)
{
  if (x->n++ == 0 || q < x->lo)
    x->lo = q, snprintf(x->lo_s, sizeof x->lo_s, "%s", scen);
  if (x->n == 1 || q > x->hi)
    x->hi = q, snprintf(x->hi_s, sizeof x->hi_s, "%s", scen);
  if (events && (x->nev++ == 0 || q < x->ev))
    x->ev = q, snprintf(x->ev_s, sizeof x->ev_s, "%s", scen);
}

/* Order: one row per (model, integrator), from orders.csv's rows per scenario (docs/design.md
 * §10).  Never a median: moreau-jean's "1.85" was the median of 1.02 (switches) ... 2.23,
 * pooling the order-1 regime of events with order-2 smooth phases.  The minimum over
 * scenarios with events comes first (the scheme's order on nonsmooth problems); value is
 * the minimum over all, value2 the maximum. */
static int judge_orders(fb_vtable *v, const fb_csv *O, const vrun *R, size_t nr)
{
  const int cm = fb_csv_col(O, "model"), ci = fb_csv_col(O, "integrator"),
            cs = fb_csv_col(O, "scenario"), cx = fb_csv_col(O, "order_x"),
            cw = fb_csv_col(O, "why_x");
  if (cm < 0 || ci < 0 || cx < 0)
    return FB_OK;
  unsigned char *done = calloc(O->nrows ? O->nrows : 1, 1);
  if (done == NULL)
    return FB_ENOMEM;
  int st = FB_OK;
  for (size_t k = 0; k < O->nrows && st == FB_OK; k++) {
    if (done[k])
      continue;
    const char *m = fb_csv_s(O, k, cm), *it = fb_csv_s(O, k, ci);
    oext x = {0};
    char fitted[320] = "", none[320] = "";
    for (size_t j = k; j < O->nrows; j++) {
      if (done[j] || !streq(fb_csv_s(O, j, cm), m) || !streq(fb_csv_s(O, j, ci), it))
        continue;
      done[j] = 1;
      const char *sc = fb_csv_s(O, j, cs);
      const double q = fb_csv_d(O, j, cx);
      char lab[96];
      if (isnan(q)) {
        snprintf(lab, sizeof lab, "%s (%s)", sc, fb_csv_s(O, j, cw));
        vd_list_add(none, sizeof none, lab);
      } else {
        snprintf(lab, sizeof lab, "%s %.2f", sc, q);
        vd_list_add(fitted, sizeof fitted, lab);
        oext_add(&x, q, sc, has_events(R, nr, sc));
      }
    }
    vkey key = {m, it, "convergence", "ladder", NAN};
    char where[320], ev[96] = "";
    if (x.nev > 0)
      snprintf(ev, sizeof ev, "nonsmooth min %s %.2f; ", x.ev_s, x.ev);
    snprintf(where, sizeof where, "%smin %s %.2f; max %s %.2f; fitted: %s%s%s", ev, x.lo_s, x.lo,
             x.hi_s, x.hi, fitted, none[0] ? "; no asymptotic range: " : "", none);
    const char *rule = "order of E_disc(x) per scenario on its asymptotic range (>= 3 falling "
                       "errors, local orders within 0.3, not drifting one way by more than 0.3, "
                       "above round-off); first the minimum over scenarios with events "
                       "(reference stick: stops, switches), the order on nonsmooth problems; "
                       "value: minimum, value2: maximum; never a median";
    if (x.n == 0)
      st = vd_add(v, &key, "order", NAN, "1", NAN, rule, none, "no asymptotic range");
    else if (x.nev > 0)
      st = vd_add(v, &key, "order", x.lo, "1", x.hi, rule, where, "%.2f nonsmooth; %.2f-%.2f", x.ev,
               x.lo, x.hi);
    else
      st = vd_add(v, &key, "order", x.lo, "1", x.hi, rule, where, "%.2f-%.2f", x.lo, x.hi);
  }
  free(done);
  return st;
}

/* Cost at matched accuracy on the cost scenario: fewest evaluations reaching each target. */
static int judge_cost(fb_vtable *v, const vrun *R, size_t n)
{
  static const double targets[] = FB_V_COST_TARGETS;
  const size_t nt = sizeof targets / sizeof targets[0];
  for (size_t t = 0; t < nt; t++) {
    double cheapest = INFINITY;
    for (size_t k = 0; k < n; k++)
      if (R[k].ok && !R[k].bisect && streq(R[k].scenario, FB_V_COST_SCENARIO) &&
          R[k].err_x_l2 <= targets[t])
        cheapest = fmin(cheapest, R[k].nfe);
    const char *seen[128];
    size_t ns = 0;
    for (size_t k = 0; k < n; k++) {
      int dup = 0;
      for (size_t j = 0; j < ns && !dup; j++)
        dup = streq(seen[j], R[k].model);
      if (dup || ns == 128)
        continue;
      seen[ns++] = R[k].model;
      const vrun *best = NULL;
      double best_err = INFINITY;
      for (size_t j = 0; j < n; j++) {
        const vrun *r = &R[j];
        /* a stable-step row's evaluations are its whole bisection's, not its run's */
        if (!r->ok || r->bisect || !streq(r->model, R[k].model) ||
            !streq(r->scenario, FB_V_COST_SCENARIO))
          continue;
        best_err = fmin(best_err, r->err_x_l2);
        if (r->err_x_l2 <= targets[t] && (best == NULL || r->nfe < best->nfe))
          best = r;
      }
      if (isinf(best_err))
        continue; /* the model never ran there */
      char prop[24], step[40], rule[320];
      snprintf(prop, sizeof prop, "cost@%g", targets[t]);
      snprintf(rule, sizeof rule, "fewest RHS/force-law evaluations of any ok run on %s with "
               "E_tot (err_x_l2) <= %g, step or tolerance and parameters tuned together; "
               "verdict: ratio to the cheapest model; value2: the error it reached (timings stay in runs.csv: verdicts are deterministic)", FB_V_COST_SCENARIO,
               targets[t]);
      if (best != NULL) {
        if (isnan(best->h))
          snprintf(step, sizeof step, "tol=%g", best->atol);
        else
          snprintf(step, sizeof step, "h=%g", best->h);
        vkey key = {best->model, best->integrator, "matched", "", NAN};
        snprintf(key.step, sizeof key.step, "%s", step);
        char where[320];
        snprintf(where, sizeof where, "%s (%s group)", FB_V_COST_SCENARIO, best->group);
        if (vd_add(v, &key, prop, best->nfe, "evaluations", best->err_x_l2, rule, where, "%.3gx",
                best->nfe / cheapest) != FB_OK)
          return FB_ENOMEM;
      } else {
        vkey key = {R[k].model, "-", "matched", "-", NAN};
        if (vd_add(v, &key, prop, best_err, "m s^0.5", NAN, rule, FB_V_COST_SCENARIO,
                "not reachable (best E %.2g)", best_err) != FB_OK)
          return FB_ENOMEM;
      }
    }
  }
  return FB_OK;
}

/* The spatial view (docs/design.md §13): the runs of the 2-D scenarios (rows with a path or
 * direction error: baseline, disc; spatial group, tag box), by (model, integrator, cone). */
static int judge_spatial(fb_vtable *v, const vrun *R, size_t n)
{
  unsigned char *used = calloc(n ? n : 1, 1);
  if (used == NULL)
    return FB_ENOMEM;
  int st = FB_OK;
  for (size_t k = 0; k < n && st == FB_OK; k++) {
    const vrun *a = &R[k];
    const int spatial = !isnan(a->path_err_max) || !isnan(a->dir_err_max);
    if (used[k] || !spatial || !(streq(a->group, "baseline") || streq(a->group, "spatial")))
      continue;
    const char *cone = strstr(a->tag, "box") != NULL ? "box" : "disc";
    vkey key = {a->model, a->integrator, "spatial", "", NAN};
    snprintf(key.step, sizeof key.step, "cone=%s", cone);
    double dmax = -1, drms = -1, tmax = -1, pmax = -1, tsigned = 0;
    char dworst[64] = "", tworst[64] = "", pworst[64] = "", never[200] = "", scen[200] = "";
    for (size_t j = k; j < n; j++) {
      const vrun *r = &R[j];
      const char *rc = strstr(r->tag, "box") != NULL ? "box" : "disc";
      if (!(streq(r->group, "baseline") || streq(r->group, "spatial")) ||
          !streq(r->model, a->model) ||
          !streq(r->integrator, a->integrator) || !streq(rc, cone) ||
          (isnan(r->path_err_max) && isnan(r->dir_err_max)))
        continue;
      used[j] = 1;
      if (!r->ok)
        continue;
      /* the scenario and its variant: "puck push" for the tags push, push-box */
      char name[64];
      snprintf(name, sizeof name, "%s%s", r->scenario,
               strncmp(r->tag, "push", 4) == 0 ? " push" : "");
      vd_list_add(scen, sizeof scen, name);
      if (r->dir_err_rms > drms) {
        drms = r->dir_err_rms;
        snprintf(dworst, sizeof dworst, "%s", name);
      }
      dmax = fmax(dmax, r->dir_err_max);
      if (r->path_err_max > pmax) {
        pmax = r->path_err_max;
        snprintf(pworst, sizeof pworst, "%s", name);
      }
      if (r->stick_time_ref_ > 0 && isnan(r->stop_time_err))
        vd_list_add(never, sizeof never, name);
      else if (fabs(r->stop_time_err) > tmax) {
        tmax = fabs(r->stop_time_err);
        tsigned = r->stop_time_err;
        snprintf(tworst, sizeof tworst, "%s", name);
      }
    }
    char where[320];
    if (drms >= 0) {
      snprintf(where, sizeof where, "worst %s; judged on %s", dworst, scen);
      if (vd_add(v, &key, "direction", drms, "deg rms", dmax,
              "RMS angle between a 2-D contact's friction force and its slip reversed "
              "(-u/|u|) over the samples where the run and the reference both slip, the "
              "largest over the scenarios; right at most 1 degree (value2: the largest angle "
              "at any sample, e.g. a compliant element's lag at a reversal)",
              where, "%s", drms <= FB_V_DIR_DEG ? "right" : "off") != FB_OK)
        st = FB_ENOMEM;
    }
    if (st == FB_OK && (tmax >= 0 || never[0])) {
      if (never[0])
        snprintf(where, sizeof where, "never stops on %s; judged on %s", never, scen);
      else
        snprintf(where, sizeof where, "worst %s; judged on %s", tworst, scen);
      if (vd_add(v, &key, "stop time", never[0] ? (double)NAN : tmax, "s", NAN,
              "largest |first stick (stop, rolling onset) of the run - the reference's| over "
              "the 2-D scenarios; on time within 5e-3 s (else late or early), never when the run does not stick",
              where, "%s",
              never[0] ? "never" : tmax <= FB_V_STOP_TIME ? "on time" : tsigned > 0 ? "late" : "early")
          != FB_OK)
        st = FB_ENOMEM;
    }
    if (st == FB_OK && pmax >= 0) {
      snprintf(where, sizeof where, "worst %s; judged on %s", pworst, scen);
      if (vd_add(v, &key, "path", pmax, "m", NAN,
              "largest distance between the run's path in the plane and the reference's, "
              "over the 2-D scenarios; follows within 1e-3 m",
              where, "%s", pmax <= FB_V_PATH_M ? "follows" : "departs") != FB_OK)
        st = FB_ENOMEM;
    }
  }
  free(used);
  return st;
}

/* ==== normal contact (docs/design.md §12) =============================================== */

/* The treatment a contact run judges: its tag up to a variant suffix ("penalty-n_e0.3"). */
static void treatment_of(const vrun *r, char *buf, size_t len)
{
  snprintf(buf, len, "%.*s", (int)strcspn(r->tag, "_"), r->tag);
}

static int is_contact_group(const char *g)
{
  return streq(g, "contact") || streq(g, "restitution");
}

/* A scenario parameter from runs.csv's scenario_params ("m=1;g=9.81;h=1;..."), NaN if absent. */
static double sparam(const char *list, const char *name)
{
  const size_t len = strlen(name);
  for (const char *p = list; p != NULL && *p;) {
    if (strncmp(p, name, len) == 0 && p[len] == '=')
      return strtod(p + len + 1, NULL);
    p = strchr(p, ';');
    if (p != NULL)
      p++;
  }
  return NAN;
}

/* Where a contact run was judged: "bouncing-ball e=0.3". */
static void contact_where(const vrun *r, char *buf, size_t len)
{
  snprintf(buf, len, "%s e=%g", r->scenario, r->e_nominal);
}

/* Restitution as set, no sucking, rests after t_inf: one row each per treatment. */
static int judge_contact(fb_vtable *v, const vrun *R, size_t n)
{
  char done[32][48];
  size_t nd = 0;
  for (size_t k = 0; k < n; k++) {
    if (!is_contact_group(R[k].group))
      continue;
    char tr[48];
    treatment_of(&R[k], tr, sizeof tr);
    int seen = 0;
    for (size_t j = 0; j < nd && !seen; j++)
      seen = streq(done[j], tr);
    if (seen || nd == 32)
      continue;
    snprintf(done[nd++], sizeof done[0], "%s", tr);
    vkey key = {tr, "contact", "contact", "default", NAN};
    /* restitution on the restitution sweep */
    double worst = -1, suck = INFINITY;
    char wsc[80] = "", ssc[80] = "", scen[320] = "", rscen[320] = "";
    const vrun *wr = NULL;
    size_t nsuck = 0;
    for (size_t j = 0; j < n; j++) {
      const vrun *r = &R[j];
      char t2[48], where[80];
      if (!r->ok || !is_contact_group(r->group))
        continue;
      treatment_of(r, t2, sizeof t2);
      if (!streq(t2, tr))
        continue;
      contact_where(r, where, sizeof where);
      if (streq(r->group, "restitution") && isfinite(r->e_eff)) {
        vd_list_add(scen, sizeof scen, where);
        const double d = fabs(r->e_eff - r->e_nominal);
        if (d > worst) {
          worst = d;
          wr = r;
          snprintf(wsc, sizeof wsc, "%s", where);
        }
      }
      if (isfinite(r->lambda_min)) {
        vd_list_add(rscen, sizeof rscen, where);
        nsuck += r->lambda_min < -FB_V_SUCK_TOL;
        if (r->lambda_min < suck) {
          suck = r->lambda_min;
          snprintf(ssc, sizeof ssc, "%s", where);
        }
      }
    }
    char rule[320], where[400];
    if (wr != NULL) {
      snprintf(rule, sizeof rule, "largest |e_eff - e| over the restitution sweep (e_eff: "
               "mean -v_out/v_in of the first three bounces of bouncing-ball); \"as set\" when "
               "at most %g", FB_V_RESTITUTION_TOL);
      snprintf(where, sizeof where, "worst %s; %s", wsc, scen);
      if (vd_add(v, &key, "restitution", worst, "1", wr->e_eff, rule, where,
              worst <= FB_V_RESTITUTION_TOL ? "as set (%.3g)" : "off by %.3g", worst) != FB_OK)
        return FB_ENOMEM;
    }
    if (isfinite(suck)) {
      snprintf(rule, sizeof rule, "smallest normal force lambda_n over the accepted steps "
               "of every ok contact and restitution run; \"no sucking\" when >= -%g N (the "
               "round-off of a located release; moreau-jean: impulse / h)", FB_V_SUCK_TOL);
      snprintf(where, sizeof where, "worst %s; %s", ssc, rscen);
      if (vd_add(v, &key, "no-sucking", suck, "N", (double)nsuck, rule, where,
              suck >= -FB_V_SUCK_TOL ? "no sucking" : "sucks (%zu runs)", nsuck) != FB_OK)
        return FB_ENOMEM;
    }
    /* rests after t_inf: the runs whose reference comes to rest (rest_pen finite) */
    double rworst = -1, rp = NAN, rg = NAN, rf = NAN;
    char rwsc[80] = "", rsc[320] = "";
    for (size_t j = 0; j < n; j++) {
      const vrun *r = &R[j];
      char t2[48], w2[80];
      if (!r->ok || !streq(r->group, "contact") || !isfinite(r->rest_pen))
        continue;
      treatment_of(r, t2, sizeof t2);
      if (!streq(t2, tr))
        continue;
      const double h = sparam(r->sparams, "h");
      const double q = fmax(fmax(r->rest_pen / (FB_V_REST_PEN * h), r->rest_gap / (FB_V_REST_GAP * h)),
                            r->rest_force_err / FB_V_REST_FORCE);
      contact_where(r, w2, sizeof w2);
      vd_list_add(rsc, sizeof rsc, w2);
      if (q > rworst || isnan(q)) {
        rworst = isnan(q) ? (double)INFINITY : q;
        rp = r->rest_pen / h;
        rg = r->rest_gap / h;
        rf = r->rest_force_err;
        snprintf(rwsc, sizeof rwsc, "%s", w2);
      }
    }
    if (rworst >= 0) {
      snprintf(rule, sizeof rule, "in [t_inf + (T - t_inf)/2, T], t_inf the newton reference's "
               "rest time: penetration <= %g h, leftover bounce (largest gap) <= %g h, "
               "|lambda_n - static load| <= %g of it; value: the worst ratio to its bound",
               FB_V_REST_PEN, FB_V_REST_GAP, FB_V_REST_FORCE);
      snprintf(where, sizeof where, "worst %s; %s", rwsc, rsc);
      if (rworst <= 1) {
        if (vd_add(v, &key, "rests", rworst, "x bound", NAN, rule, where, "rests") != FB_OK)
          return FB_ENOMEM;
      } else if (vd_add(v, &key, "rests", rworst, "x bound", NAN, rule, where,
                     "does not rest: pen %.1gh gap %.1gh F %.1g", rp, rg, rf) != FB_OK) {
        return FB_ENOMEM;
      }
    }
  }
  return FB_OK;
}

int fb_runs_parse(fb_csv *T, const char *runs_csv, size_t runs_len, fb_err *err)
{
  const int st = fb_csv_parse(T, runs_csv, runs_len);
  if (st == FB_ENOMEM)
    return fb_err_set(err, FB_ENOMEM, "out of memory reading runs.csv");
  if (st != FB_OK)
    return fb_err_set(err, FB_EIO, "runs.csv is empty");
  /* status is what a runs.csv must have; a missing other column reads as empty (no verdict
   * rests on it), so a trimmed or older runs.csv gives fewer verdicts, not an error */
  if (fb_csv_col(T, "status") < 0) {
    fb_csv_free(T);
    return fb_err_set(err, FB_EIO, "runs.csv has no column 'status'");
  }
  return FB_OK;
}

const fb_vrow *fb_vtable_find(const fb_vtable *v, const char *model, const char *view,
                              const char *property)
{
  for (size_t k = 0; k < v->n; k++)
    if (streq(v->r[k].model, model) && streq(v->r[k].view, view) &&
        streq(v->r[k].property, property))
      return &v->r[k];
  return NULL;
}

int fb_verdicts_compute(const char *runs_csv, size_t runs_len, const char *orders_csv,
                        size_t orders_len, fb_vtable *v, fb_err *err)
{
  memset(v, 0, sizeof *v);
  fb_csv T, O;
  int st = fb_runs_parse(&T, runs_csv, runs_len, err);
  if (st != FB_OK)
    return st;
  vrun *R = calloc(T.nrows ? T.nrows : 1, sizeof *R);
  if (R == NULL) {
    fb_csv_free(&T);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
#define COL(name) const int c_##name = fb_csv_col(&T, #name)
  COL(group); COL(tag); COL(scenario); COL(model); COL(integrator); COL(status); COL(h);
  COL(atol); COL(stick_held); COL(stick_time_ref); COL(stick_flag_time); COL(drift_growth);
  COL(drift_rate); COL(chatter_rate); COL(power_pos_count); COL(energy_excess_rel);
  COL(power_excess_rel);
  COL(err_x_l2); COL(nfe); COL(path_err_max); COL(dir_err_max); COL(dir_err_rms);
  COL(stop_time_err);
  COL(scenario_params); COL(e_nominal); COL(e_eff); COL(lambda_min); COL(rest_pen);
  COL(rest_gap); COL(rest_force_err); COL(hold_creep_v); COL(hold_excess); COL(hold_bound);
  COL(hold_slip_frac); COL(hold_accum); COL(L_scale); COL(v_scale); COL(t_reached);
  COL(sweep); COL(sweep_value); COL(push_creep_v); COL(slide_ratio); COL(slide_ratio_max);
  COL(cpu_s); COL(nsteps); COL(ninner);
#undef COL
  size_t n = 0;
  for (size_t k = 0; k < T.nrows; k++) {
    vrun *r = &R[n];
    r->group = fb_csv_s(&T, k, c_group);
    r->tag = fb_csv_s(&T, k, c_tag);
    r->scenario = fb_csv_s(&T, k, c_scenario);
    r->model = fb_csv_s(&T, k, c_model);
    r->integrator = fb_csv_s(&T, k, c_integrator);
    r->status = fb_csv_s(&T, k, c_status);
    r->h = fb_csv_d(&T, k, c_h);
    r->bisect = streq(fb_csv_s(&T, k, c_sweep), "stable-step");
    r->sweep_value = fb_csv_d(&T, k, c_sweep_value);
    r->atol = fb_csv_d(&T, k, c_atol);
    r->stick_held = fb_csv_d(&T, k, c_stick_held);
    r->stick_time_ref = fb_csv_d(&T, k, c_stick_time_ref);
    r->stick_flag_time = fb_csv_d(&T, k, c_stick_flag_time);
    r->drift_growth = fb_csv_d(&T, k, c_drift_growth);
    r->drift_rate = fb_csv_d(&T, k, c_drift_rate);
    r->chatter_rate = fb_csv_d(&T, k, c_chatter_rate);
    r->power_pos_count = fb_csv_d(&T, k, c_power_pos_count);
    r->energy_excess_rel = fb_csv_d(&T, k, c_energy_excess_rel);
    r->power_excess_rel = fb_csv_d(&T, k, c_power_excess_rel);
    r->err_x_l2 = fb_csv_d(&T, k, c_err_x_l2);
    r->nfe = fb_csv_d(&T, k, c_nfe);
    r->path_err_max = fb_csv_d(&T, k, c_path_err_max);
    r->dir_err_max = fb_csv_d(&T, k, c_dir_err_max);
    r->dir_err_rms = fb_csv_d(&T, k, c_dir_err_rms);
    r->stop_time_err = fb_csv_d(&T, k, c_stop_time_err);
    r->stick_time_ref_ = r->stick_time_ref;
    r->sparams = fb_csv_s(&T, k, c_scenario_params);
    r->e_nominal = fb_csv_d(&T, k, c_e_nominal);
    r->e_eff = fb_csv_d(&T, k, c_e_eff);
    r->lambda_min = fb_csv_d(&T, k, c_lambda_min);
    r->rest_pen = fb_csv_d(&T, k, c_rest_pen);
    r->rest_gap = fb_csv_d(&T, k, c_rest_gap);
    r->rest_force_err = fb_csv_d(&T, k, c_rest_force_err);
    r->creep_v = fb_csv_d(&T, k, c_hold_creep_v);
    r->excess = fb_csv_d(&T, k, c_hold_excess);
    r->bound = fb_csv_d(&T, k, c_hold_bound);
    r->slip_frac = fb_csv_d(&T, k, c_hold_slip_frac);
    r->accum = fb_csv_d(&T, k, c_hold_accum);
    r->L = fb_csv_d(&T, k, c_L_scale);
    r->v_scale = fb_csv_d(&T, k, c_v_scale);
    r->t_reached = fb_csv_d(&T, k, c_t_reached);
    r->push_creep_v = fb_csv_d(&T, k, c_push_creep_v);
    r->slide_ratio = fb_csv_d(&T, k, c_slide_ratio);
    r->slide_ratio_max = fb_csv_d(&T, k, c_slide_ratio_max);
    r->cpu_s = fb_csv_d(&T, k, c_cpu_s);
    r->nsteps = fb_csv_d(&T, k, c_nsteps);
    r->ninner = fb_csv_d(&T, k, c_ninner);
    r->ok = streq(r->status, "ok");
    r->unstable = streq(r->status, "unstable");
    if (r->scenario[0] != '\0' && r->model[0] != '\0')
      n++;
  }
  st = judge_view(v, R, n, "defaults");
  if (st == FB_OK)
    st = judge_view(v, R, n, "fixed-step");
  if (st == FB_OK && orders_csv != NULL && fb_csv_parse(&O, orders_csv, orders_len) == FB_OK) {
    st = judge_orders(v, &O, R, n);
    fb_csv_free(&O);
  }
  if (st == FB_OK)
    st = judge_cost(v, R, n);
  if (st == FB_OK)
    st = judge_spatial(v, R, n);
  if (st == FB_OK)
    st = judge_contact(v, R, n);
  if (st == FB_OK)
    st = vd_judge_engines(v, R, n);
  if (st == FB_OK)
    st = vd_judge_scale(v, R, n);
  free(R);
  fb_csv_free(&T);
  if (st != FB_OK) {
    fb_vtable_free(v);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  return FB_OK;
}

int fb_verdicts_write(const char *dir, fb_err *err)
{
  char path[4096], *runs = NULL, *orders = NULL;
  size_t rl = 0, ol = 0;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  if (fb_read_file(path, &runs, &rl) != 0)
    return fb_err_set(err, FB_EIO, "'%s' cannot be read: the verdicts need a suite's runs.csv",
                      path);
  snprintf(path, sizeof path, "%s/orders.csv", dir);
  const int have_orders = fb_read_file(path, &orders, &ol) == 0;
  fb_vtable v;
  int st = fb_verdicts_compute(runs, rl, have_orders ? orders : NULL, ol, &v, err);
  free(runs);
  free(orders);
  if (st != FB_OK)
    return st;
  fb_outfile oc, oj;
  snprintf(path, sizeof path, "%s/verdicts.csv", dir);
  st = fb_outfile_open(&oc, path, "verdicts.csv", err);
  if (st == FB_OK) {
    fputs("model,integrator,view,step,property,verdict,value,unit,value2,rule,scenarios\n", oc.fp);
    for (size_t k = 0; k < v.n; k++) {
      const fb_vrow *r = &v.r[k];
      const char *cells[] = {r->model, r->integrator, r->view, r->step, r->property, r->verdict};
      for (size_t c = 0; c < 6; c++) {
        fb_csv_field(oc.fp, cells[c]);
        fputc(',', oc.fp);
      }
      fprintf(oc.fp, "%.10g,", r->value);
      fb_csv_field(oc.fp, r->unit);
      fprintf(oc.fp, ",%.10g,", r->value2);
      fb_csv_field(oc.fp, r->rule);
      fputc(',', oc.fp);
      fb_csv_field(oc.fp, r->scenarios);
      fputc('\n', oc.fp);
    }
    st = fb_outfile_commit(&oc, err);
  }
  snprintf(path, sizeof path, "%s/verdicts.json", dir);
  if (st == FB_OK)
    st = fb_outfile_open(&oj, path, "verdicts.json", err);
  if (st == FB_OK) {
    json_t *arr = json_array();
    for (size_t k = 0; arr != NULL && k < v.n; k++) {
      const fb_vrow *r = &v.r[k];
      json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "model", r->model, "integrator",
                            r->integrator, "view", r->view, "step", r->step, "property",
                            r->property, "verdict", r->verdict);
      if (o == NULL)
        break;
      /* NaN (no number) as null: JSON has no NaN */
      json_object_set_new(o, "value", isfinite(r->value) ? json_real(r->value) : json_null());
      json_object_set_new(o, "unit", json_string(r->unit));
      json_object_set_new(o, "value2", isfinite(r->value2) ? json_real(r->value2) : json_null());
      json_object_set_new(o, "rule", json_string(r->rule));
      json_object_set_new(o, "scenarios", json_string(r->scenarios));
      json_array_append_new(arr, o);
    }
    if (arr == NULL || json_array_size(arr) != v.n || fb_json_dump(arr, oj.fp) != 0) {
      json_decref(arr);
      fb_outfile_abort(&oj);
      fb_vtable_free(&v);
      return fb_err_set(err, FB_EIO, "writing '%s' failed", path);
    }
    json_decref(arr);
    st = fb_outfile_commit(&oj, err);
  }
  fb_vtable_free(&v);
  return st;
}

int fb_verdicts_load(const char *dir, fb_vtable *v, fb_err *err)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/verdicts.csv", dir);
  memset(v, 0, sizeof *v);
  fb_csv T;
  int missing = 0;
  if (fb_csv_load(&T, path, &missing) != FB_OK)
    return fb_err_set(err, FB_EIO, "'%s' %s", path, missing ? "does not exist" : "cannot be read");
  static const char *const cols[] = {"model", "integrator", "view", "step", "property",
                                     "verdict", "value", "unit", "value2", "rule", "scenarios"};
  int c[11];
  for (size_t i = 0; i < 11; i++)
    if ((c[i] = fb_csv_col(&T, cols[i])) < 0) {
      fb_csv_free(&T);
      return fb_err_set(err, FB_EIO, "'%s' has no column '%s'", path, cols[i]);
    }
  for (size_t k = 0; k < T.nrows; k++) {
    fb_vrow *r;
    if (vd_push(v, &r) != FB_OK) {
      fb_csv_free(&T);
      fb_vtable_free(v);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    snprintf(r->model, sizeof r->model, "%s", fb_csv_s(&T, k, c[0]));
    snprintf(r->integrator, sizeof r->integrator, "%s", fb_csv_s(&T, k, c[1]));
    snprintf(r->view, sizeof r->view, "%s", fb_csv_s(&T, k, c[2]));
    snprintf(r->step, sizeof r->step, "%s", fb_csv_s(&T, k, c[3]));
    snprintf(r->property, sizeof r->property, "%s", fb_csv_s(&T, k, c[4]));
    snprintf(r->verdict, sizeof r->verdict, "%s", fb_csv_s(&T, k, c[5]));
    r->value = fb_csv_d(&T, k, c[6]);
    snprintf(r->unit, sizeof r->unit, "%s", fb_csv_s(&T, k, c[7]));
    r->value2 = fb_csv_d(&T, k, c[8]);
    snprintf(r->rule, sizeof r->rule, "%s", fb_csv_s(&T, k, c[9]));
    snprintf(r->scenarios, sizeof r->scenarios, "%s", fb_csv_s(&T, k, c[10]));
  }
  fb_csv_free(&T);
  return FB_OK;
}
