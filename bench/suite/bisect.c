/* bisect.c — the stable step of a (model, integrator, scenario) by bisection
 * (docs/design.md §10): one job of the table (flag FB_EXP_BISECT) probes
 * FB_BISECT_RUNS fixed steps, so that the static job table, the journal and --resume, parts
 * and merge see one row like any other.
 *
 * The probes: h_hi = FB_BISECT_HI (T - t0) first (stable there: h_max >= h_hi, done);
 * then h_lo, the experiment's h (the smallest step of the scenario's ladders): not stable
 * there, no stable step (the row is that run); otherwise geometric bisection of
 * [h_lo, h_hi] until FB_BISECT_RUNS runs in all.  A probe is stable when it finishes
 * (FB_OK) and fb_run_unstable does not call it unstable; any other end (non-finite,
 * diverged, a budget, a scheme refusing the step) bounds the stable step from above.
 *
 * Each probe is a fresh case, set up and prepared like every job (fb_experiment_case,
 * fb_case_prepare) at its own step: preparing resolves a model's auto parameters for the
 * step it will run (kikuuwe-be caps its anchor stiffness to m/(2h)^2 at alloc:
 * models/kikuuwe_be.c kbe_cap_to_step), so one prepared case re-run at another h would
 * judge a model nobody runs.  Every probe is scored against the job's references (the
 * scenario's, and the model's own at h_lo / 16, as for the ladders). */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"

#include "fb_plan.h"

typedef struct probe {
  int status;
  fb_run_result res;
  fb_metrics m;
} probe;

/* Run job jb's experiment at step h in a case of its own; the status (FB_EINTR when the
 * suite is interrupted). */
static int probe_run(suite *S, job *jb, double h, probe *p)
{
  fb_experiment x = *jb->exp;
  fb_case cs;
  fb_err err = {{0}};
  x.h = h;
  memset(&p->res, 0, sizeof p->res);
  fb_metrics_nan(&p->m);
  int st = fb_experiment_case(&cs, &x, NAN, S->o->samples, &err);
  if (st == FB_OK) {
    cs.opts.max_steps = S->o->max_steps;
    cs.opts.max_rhs = S->o->max_rhs;
    cs.cancel = jb->cs.cancel;
    st = fb_case_prepare(&cs, &err);
  }
  fb_trace tr;
  if (st == FB_OK) {
    const fb_plant *pl = cs.pb.plant;
    st = fb_trace_alloc(&tr, cs.samples, pl->n, pl->nc, cs.md.type->nz);
    if (st != FB_OK)
      fb_err_set(&err, st, "out of memory");
  }
  if (st == FB_OK) {
    st = run_scored(S, jb, &cs, &tr, &p->res, &p->m);
    fb_trace_free(&tr);
  } else {
    p->res.status = st;
    snprintf(p->res.message, sizeof p->res.message, "h = %g: %.400s", h, err.msg);
  }
  fb_case_free(&cs);
  p->status = st;
  return st;
}

static int probe_stable(const probe *p)
{
  char why[8];
  return p->status == FB_OK && !fb_run_unstable(p->status, &p->m, why, sizeof why);
}

/* The probes' totals: the row's counters and times are the whole bisection's cost. */
static void totals_add(fb_run_result *sum, const fb_run_result *r)
{
  sum->cnt.nsteps += r->cnt.nsteps;
  sum->cnt.nrejected += r->cnt.nrejected;
  sum->cnt.nfe += r->cnt.nfe;
  sum->cnt.njac += r->cnt.njac;
  sum->cnt.nevents += r->cnt.nevents;
  sum->cnt.ninner += r->cnt.ninner;
  sum->cnt.nswitch += r->cnt.nswitch;
  sum->cnt.nlsetups += r->cnt.nlsetups;
  sum->wall_s += r->wall_s;
  sum->cpu_s += r->cpu_s;
  sum->cpu_child_s += r->cpu_child_s;
}

void job_run_bisect(suite *S, job *jb)
{
  const fb_plant *pl = &jb->cs.sc.plant;
  const double h_lo = jb->cs.opts.h, h_hi = FB_BISECT_HI * (pl->T - pl->t0);
  double lo = NAN, hi = NAN; /* the largest stable step, the smallest other one */
  fb_run_result sum;
  memset(&sum, 0, sizeof sum);
  probe pb[2], *best = &pb[0], *p = &pb[1];
  size_t n = 0;
  if (h_hi > h_lo) { /* stable at 0.1 T: no need to look further */
    if (probe_run(S, jb, h_hi, best) == FB_EINTR)
      goto interrupted;
    totals_add(&sum, &best->res);
    n++;
    if (probe_stable(best))
      lo = h_hi;
    else
      hi = h_hi;
  }
  if (isnan(lo)) {
    if (probe_run(S, jb, h_lo, best) == FB_EINTR)
      goto interrupted;
    totals_add(&sum, &best->res);
    n++;
    lo = h_lo;
    if (!probe_stable(best))
      hi = h_lo; /* no stable step: the row is this run, at h_lo */
  }
  while (n < FB_BISECT_RUNS && !isnan(hi) && hi > lo) {
    const double mid = sqrt(lo * hi);
    if (probe_run(S, jb, mid, p) == FB_EINTR)
      goto interrupted;
    totals_add(&sum, &p->res);
    n++;
    if (probe_stable(p)) {
      lo = mid;
      *best = *p;
    } else {
      hi = mid;
    }
  }
  jb->status = best->status;
  jb->res = best->res;
  jb->res.cnt = sum.cnt;
  jb->res.wall_s = sum.wall_s;
  jb->res.cpu_s = sum.cpu_s;
  jb->res.cpu_child_s = sum.cpu_child_s;
  jb->m = best->m;
  jb->bis_h = lo;
  jb->bis_hu = hi;
  snprintf(jb->message, sizeof jb->message, "%s", best->res.message);
  return;
interrupted: /* not finished: --resume runs the whole bisection again */
  jb->status = FB_EINTR;
  snprintf(jb->message, sizeof jb->message, "interrupted");
}

double job_row_h(const job *jb)
{
  return (jb->exp->flags & FB_EXP_BISECT) ? jb->bis_h : jb->cs.opts.h;
}

double job_row_value(const job *jb)
{
  return (jb->exp->flags & FB_EXP_BISECT) ? jb->bis_hu : jb->value;
}
