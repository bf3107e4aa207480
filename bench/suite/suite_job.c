/* suite_job.c — what every run of a job shares (suite_int.h): the scored run and the
 * reference a job was scored against.  Below the suite's other files: suite.c runs jobs
 * with it, bisect.c its probes, suite_write.c writes the rows; it calls none of them, so
 * the suite's files call each other in one direction only. */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"

int run_scored(suite *S, job *jb, fb_case *cs, fb_trace *tr, fb_run_result *res,
               fb_metrics *m)
{
  const double c0 = cost_now();
  const ref_entry *re = &S->refs[jb->ref];
  fb_stream stream;
  fb_problem *pb = &cs->pb;
  const fb_plant *pl = pb->plant;
  fb_metrics_nan(m);
  const int have_ref = re->kind != FB_REF_NONE;
  int st_ok = have_ref ? fb_stream_init(&stream, pb, &re->ref) == FB_OK : 0;
  fb_observer obs = {fb_stream_step, &stream};
  fb_impact_stats cst; /* normal contacts: the contact scheme's statistics */
  if (pl->nn > 0) {
    fb_impact_stats_init(&cst, 0);
    if (re->cst_ok)
      cst.t_watch = fb_contact_rest_window(pl, re->cst);
    cs->opts.stats = &cst;
  }
  const int status = fb_case_run(cs, tr, st_ok ? &obs : NULL, res);
  cs->opts.stats = NULL;
  if (status == FB_OK && have_ref)
    fb_metrics_compute(pb, tr, &re->ref, st_ok ? &stream : NULL, m);
  if (status == FB_OK && pl->nn > 0 && re->cst_ok)
    fb_contact_metrics(pl, &cst, re->cst, m);
  if (status == FB_OK && jb->own != SIZE_MAX && S->refs[jb->own].kind != FB_REF_NONE) {
    const ref_entry *oe = &S->refs[jb->own];
    if (oe->own) {
      fb_own_ref_disc(pl, tr, &oe->ref.tr, oe->acc, m);
      m->mod_x_l2 = oe->mod_x;
      m->mod_v_l2 = oe->mod_v;
    } else { /* the Coulomb reference is the model's own (exact_limit) */
      fb_trace_errors(tr, &oe->ref.tr, pl->n, &m->disc_x_l2, &m->disc_v_l2, &m->disc_x_max);
      m->mod_x_l2 = m->mod_v_l2 = m->own_ref_err = 0.0;
      m->own_x_l2 = m->ref_x_l2;
    }
  }
  if (status == FB_OK && have_ref)
    fb_metrics_stability(pl, m);
  if (status == FB_OK)
    m->q_norm_err = res->q_norm_err;
  if (st_ok)
    fb_stream_free(&stream);
  jb->cost_run += res->cpu_s - res->cpu_child_s;
  jb->cost_engine += res->cpu_child_s;
  jb->cost_score += cost_now() - c0 - (res->cpu_s - res->cpu_child_s);
  return status;
}

/* The reference a finished job was scored against (FB_REF_*): recorded when it ran (a
 * resumed job's reference may not be computed again). */
int job_ref_kind(const suite *S, const job *jb)
{
  if (!jb->ready)
    return FB_REF_NONE;
  return jb->done ? jb->ref_kind : S->refs[jb->ref].kind;
}
