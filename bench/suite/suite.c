/* suite.c — expand the experiment table, compute references, run the jobs in parallel,
 * write runs.csv, orders.csv, trajectories and meta.json (fb_suite.h). */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"
#include "fb_engine.h"
#include "fb_plan.h"


void fb_suite_opts_default(fb_suite_opts *o)
{
  memset(o, 0, sizeof *o);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = n > 0 ? (int)n : 1;
  o->samples = 2001;
  o->max_steps = 2000000;
  o->max_rhs = 40000000;
  o->progress = isatty(2);
  o->plots = 1;
}




static void format_params(const fb_param_set *set, const void *p, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < set->n && used < len; i++) {
    char v[64];
    fb_param_format(&set->desc[i], fb_param_get(&set->desc[i], p), v, sizeof v);
    used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? ";" : "", set->desc[i].name, v);
  }
}

/* Set up one job's case (fb_experiment_case) with the suite's budgets, and prepare it. */
static void job_setup(job *jb, const fb_suite_opts *o)
{
  fb_err err = {{0}};
  jb->bis_h = jb->bis_hu = NAN;
  jb->status = fb_experiment_case(&jb->cs, jb->exp, jb->value, o->samples, &err);
  if (jb->status == FB_OK) {
    jb->cs.opts.max_steps = o->max_steps;
    jb->cs.opts.max_rhs = o->max_rhs;
    format_params(jb->cs.md.type->params, jb->cs.md.params, jb->mparams, sizeof jb->mparams);
    jb->status = fb_case_prepare(&jb->cs, &err);
  }
  if (jb->status == FB_OK) {
    format_params(jb->cs.sc.type->params, jb->cs.sc.params, jb->sparams, sizeof jb->sparams);
    jb->ready = 1;
  } else {
    snprintf(jb->message, sizeof jb->message, "%s", err.msg);
  }
}

/* Reference of a scenario variant: its closed form sampled on the grid, or the event-
 * driven switching model at tight tolerances; stick spans where its v_r vanishes. */
static void ref_compute(suite *S, ref_entry *re)
{
  const job *jb = &S->jobs[re->job];
  const fb_scenario *sc = &jb->cs.sc;
  const fb_plant *pl = &sc->plant;
  const size_t ns = jb->cs.samples;
  fb_err err = {{0}};
  re->kind = re->own ? FB_REF_NONE : sc->type->ref_kind(sc->params);
  re->ref.nc = pl->nc;
  re->ref.stick = calloc(pl->nc ? pl->nc : 1, sizeof(fb_spans));
  if (re->ref.stick == NULL) {
    re->status = FB_ENOMEM;
    return;
  }
  int st = FB_OK;
  if (re->own) {
    st = fb_own_ref_solve(&jb->cs, &re->om, S->o->max_steps, S->o->max_rhs,
                          &re->ref.tr, &re->acc, &err);
    re->kind = st == FB_OK ? FB_REF_EVENT : FB_REF_NONE;
    re->status = st;
    if (st != FB_OK)
      snprintf(re->message, sizeof re->message, "own reference (%s): %.400s", re->om.integrator,
               err.msg);
    return;
  }
  if (pl->nn > 0 && re->cst_src == SIZE_MAX) { /* the contact reference, whatever the
                                                  scenario's own reference is */
    re->cst = malloc(sizeof *re->cst);
    re->cst_ok = re->cst != NULL &&
                 fb_contact_reference(&jb->cs, S->o->max_steps, S->o->max_rhs, re->cst, &err) ==
                     FB_OK;
  }
  /* the Coulomb reference, as `run --metrics` computes it (bench/analysis/run_metrics.c) */
  free(re->ref.stick);
  re->ref.stick = NULL;
  fb_ref_kind kind;
  st = fb_case_reference(&jb->cs, ns, S->o->max_steps, S->o->max_rhs, &re->ref, &kind,
                         re->message, sizeof re->message);
  re->kind = kind;
  re->status = st;
  if (st != FB_OK)
    re->kind = FB_REF_NONE;
}

static void progress(suite *S, int force)
{
  if (!S->o->progress)
    return;
  const double t = fb_clock_s(CLOCK_MONOTONIC);
  if (!force && t - S->last_print < 0.2)
    return;
  S->last_print = t;
  const double el = t - S->t_start;
  const double eta = S->done > 0 ? el * (double)(S->total - S->done) / (double)S->done : 0;
  fprintf(stderr, "\r[suite] %s %zu/%zu, %.1f s elapsed, ~%.0f s left   ", S->phase, S->done,
          S->total, el, eta);
  if (force)
    fputc('\n', stderr);
  fflush(stderr);
}

static void traj_name(const job *jb, char *buf, size_t len, const char *dir)
{
  const fb_experiment *e = jb->exp;
  char step[48];
  if (!isnan(jb->cs.opts.h))
    snprintf(step, sizeof step, "h%g", jb->cs.opts.h);
  else
    snprintf(step, sizeof step, "tol%g", jb->cs.opts.atol);
  snprintf(buf, len, "%s/traj/%s/%s__%s__%s%s%s" FB_TRAJ_EXT, dir, e->scenario, e->model,
           jb->cs.integ->name, step, e->tag[0] ? "__" : "", e->tag);
}

/* Write trajectory tr, or with tail > 0 only its samples in the last `tail` of the span
 * (a view into the same arrays), with dofs != 0 only those DOFs (fb_trace_write_csv_gz_dofs). */
static void write_trace(const char *path, const fb_trace *full, const char *const *z_names,
                        double tail, long dofs)
{
  fb_outfile of;
  fb_err err;
  fb_trace view = *full;
  const fb_trace *tr = full;
  if (tail > 0 && tail < 1 && full->base == 0 && full->filled > 1) {
    const double t0 = full->t[0], t1 = full->t[full->filled - 1];
    const double from = t1 - tail * (t1 - t0);
    size_t k = 0;
    while (k + 1 < full->filled && full->t[k] < from)
      k++;
    view.t += k;
    view.y += k * full->dim;
    view.F += k * full->nc;
    view.stick += k * full->nc;
    view.filled -= k;
    view.ns -= k;
    tr = &view;
  }
  if (fb_outfile_open(&of, path, "trajectory", &err) != FB_OK)
    return;
  if (fb_trace_write_csv_gz_dofs(tr, z_names, dofs, of.fp) != FB_OK ||
      fb_outfile_commit(&of, &err) != FB_OK)
    fb_outfile_abort(&of);
}

static void job_run(suite *S, job *jb)
{
  if (!jb->ready)
    return;
  if (jb->exp->flags & FB_EXP_BISECT) {
    job_run_bisect(S, jb);
    return;
  }
  fb_trace tr;
  const fb_plant *pl = jb->cs.pb.plant;
  fb_metrics_nan(&jb->m);
  if (fb_trace_alloc(&tr, jb->cs.samples, pl->n, pl->nc, jb->cs.md.type->nz) != FB_OK) {
    jb->status = FB_ENOMEM;
    snprintf(jb->message, sizeof jb->message, "out of memory");
    return;
  }
  jb->status = run_scored(S, jb, &jb->cs, &tr, &jb->res, &jb->m);
  snprintf(jb->message, sizeof jb->message, "%s", jb->res.message);
  if (jb->exp->flags & FB_EXP_TRAJ) {
    char path[1024];
    const double c0 = cost_now();
    traj_name(jb, path, sizeof path, S->o->out_dir);
    write_trace(path, &tr, jb->cs.md.type->z_names, jb->exp->traj_tail, jb->exp->traj_dofs);
    jb->cost_traj = cost_now() - c0;
  }
  fb_trace_free(&tr);
}

/* resumable suites: the workers' entry points (defined after write_meta) */
static void ref_exec(suite *S, size_t k);
static void job_exec(suite *S, size_t k);
static int out_dir_check(const char *dir, fb_err *err);
static int resume_begin(suite *S, fb_err *err);
static int resume_verify(suite *S, fb_err *err);
static int resume_end(suite *S, fb_err *err);
static int resume_finish(suite *S, int st, fb_err *err);
static int select_part(suite *S, fb_err *err);
static size_t schedule(suite *S, int refs);


/* The early plots (fb_report.h): every job of an early group gets the key of its group
 * and scenario (of its group alone for a group whose plots take all its rows), every key
 * the count of its jobs still to run.  Not for a part (merge makes the report), without
 * plots or with one job. */
static void early_setup(suite *S)
{
  const fb_suite_opts *o = S->o;
  /* With --jobs 1 nothing can overlap, and the plots drawn between the runs took longer
   * (the quick suite's trajectory overlays 12.0-13.6 s of gnuplot against 9.1-9.7 s after
   * the runs, 2026-11-25; the reason is not known): they wait for the report. */
  if (!o->plots || o->nparts > 0 || S->njobs == 0 || o->jobs < 2)
    return;
  /* A user's table (plan, selection, --h) is drawn with its own fixed-step runs, which the
   * report chooses from meta.json, written after the runs: its plots wait for the report
   * (such tables are small; the early plots speed up the default suite) */
  if (o->table != NULL)
    return;
  S->early_key = malloc(S->njobs * sizeof *S->early_key);
  S->early_left = calloc(S->njobs, sizeof *S->early_left);
  S->early = fb_report_early_new();
  if (S->early_key == NULL || S->early_left == NULL || S->early == NULL) {
    free(S->early_key), free(S->early_left), fb_report_early_free(S->early);
    S->early_key = S->early_left = NULL;
    S->early = NULL;
    return;
  }
  for (size_t k = 0; k < S->njobs; k++) {
    const fb_experiment *e = S->jobs[k].exp;
    const int kind = fb_report_early_group(e->group);
    S->early_key[k] = SIZE_MAX;
    if (kind == 0)
      continue;
    size_t key = k;
    for (size_t j = 0; j < k; j++)
      if (S->early_key[j] == j && strcmp(S->jobs[j].exp->group, e->group) == 0 &&
          (kind == 2 || strcmp(S->jobs[j].exp->scenario, e->scenario) == 0)) {
        key = j;
        break;
      }
    S->early_key[k] = key;
    S->early_left[key] += !S->jobs[k].done;
  }
}

/* Job k just finished (it was not done before): when it was the last of its early plot's
 * jobs, draw that plot in this thread, which stands for one busy process meanwhile (the
 * run threads are --jobs, so runs and gnuplot together stay within it). */
static void early_job_done(suite *S, size_t k)
{
  if (S->early == NULL || S->early_key[k] == SIZE_MAX || atomic_load(&S->stop) != 0)
    return;
  const size_t key = S->early_key[k];
  pthread_mutex_lock(&S->lock);
  const int last = --S->early_left[key] == 0;
  pthread_mutex_unlock(&S->lock);
  char *text;
  size_t len;
  if (!last || runs_text_of_key(S, key, &text, &len) != 0)
    return; /* the report draws it */
  const fb_experiment *e = S->jobs[key].exp;
  fb_report_early_draw(S->early, S->o->out_dir, e->group, e->scenario, text, len);
  free(text);
}

static void *worker(void *argp)
{
  worker_arg *a = argp;
  suite *S = a->S;
  for (;;) {
    pthread_mutex_lock(&S->lock);
    const size_t next = S->next++;
    pthread_mutex_unlock(&S->lock);
    if (next >= S->total)
      break;
    const size_t k = S->order != NULL ? S->order[next] : next; /* longest first */
    if (a->phase == PHASE_REFS) {
      ref_exec(S, k);
    } else {
      const int was_done = S->jobs[k].done;
      job_exec(S, k);
      if (!was_done && S->jobs[k].done)
        early_job_done(S, k);
    }
    pthread_mutex_lock(&S->lock);
    S->done++;
    progress(S, 0);
    pthread_mutex_unlock(&S->lock);
  }
  return NULL;
}

static void run_parallel(suite *S, phase_kind phase, size_t total, const char *name)
{
  S->next = S->done = 0;
  S->total = total;
  S->phase = name;
  S->t_start = fb_clock_s(CLOCK_MONOTONIC);
  S->last_print = 0;
  const int nt = S->o->jobs < 1 ? 1 : S->o->jobs;
  pthread_t th[256];
  worker_arg arg = {S, phase};
  int started = 0;
  for (int i = 1; i < nt && i < 256; i++)
    if (pthread_create(&th[started], NULL, worker, &arg) == 0)
      started++;
  worker(&arg);
  for (int i = 0; i < started; i++)
    pthread_join(th[i], NULL);
  progress(S, 1);
}

/* ==== resumable suites (fb_resume.h): journal, interrupt, partial runs.csv ============= *
 * Kept apart from the runner above, which calls it at four points: out_dir_check after
 * creating DIR, resume_begin before the references, ref_exec / job_exec from the
 * workers, resume_end after the runs. */

/* DIR must be a directory (mkdir_p accepts an existing /dev/full or file). */
static int out_dir_check(const char *dir, fb_err *err)
{
  struct stat sb;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return fb_err_set(err, FB_EINVAL, "output directory '%s' is not a directory: give a "
                      "directory path", dir);
  return FB_OK;
}

/* Checksum of everything that decides the rows: the revision, the options that change
 * results, and per job its experiment, swept value and resolved case. */
static uint64_t table_sum(const suite *S)
{
  const fb_suite_opts *o = S->o;
  char buf[512];
  uint64_t h = fb_hash64_str(FB_HASH64_INIT, FB_GIT_REV);
  snprintf(buf, sizeof buf, "%d|%zu|%lu|%lu|%zu|%zu/%zu", o->quick, o->samples, o->max_steps,
           o->max_rhs, S->njobs, o->part, o->nparts);
  h = fb_hash64_str(h, buf);
  for (size_t k = 0; k < S->njobs; k++) {
    const job *jb = &S->jobs[k];
    const fb_experiment *e = jb->exp;
    snprintf(buf, sizeof buf, "%zu|%d|%.17g|%.17g|%.17g|%u|%zu|%d", k, (int)e->sweep, jb->value,
             e->h, e->tol, e->flags, e->samples, jb->ready);
    h = fb_hash64_str(h, buf);
    const char *const strs[] = {e->group, e->tag, e->scenario, e->model,
                                e->integrator ? e->integrator : "",
                                e->sweep_param ? e->sweep_param : "", jb->sparams, jb->mparams};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
      h = fb_hash64_str(h, strs[i]);
    for (size_t i = 0; i < FB_EXP_MAX_SETS && e->sets[i] != NULL; i++)
      h = fb_hash64_str(h, e->sets[i]);
    if (jb->ready) {
      const fb_int_opts *io = &jb->cs.opts;
      snprintf(buf, sizeof buf, "%s|%.17g|%.17g|%.17g|%zu", jb->cs.integ->name, io->h, io->atol,
               io->rtol, jb->cs.samples);
    } else {
      snprintf(buf, sizeof buf, "%s", jb->message);
    }
    h = fb_hash64_str(h, buf);
  }
  return h;
}

static void journal_path(const fb_suite_opts *o, char *buf, size_t len)
{
  snprintf(buf, len, "%s/%s", o->out_dir, FB_JOURNAL_NAME);
}

static void ref_traj_path(const suite *S, const ref_entry *re, char *buf, size_t len)
{
  snprintf(buf, len, "%s/traj/%s/reference%s%s" FB_TRAJ_EXT, S->o->out_dir,
           S->jobs[re->job].exp->scenario, re->tag[0] ? "__" : "", re->tag);
}

static int file_exists(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static void job_to_rec(const job *jb, size_t k, fb_journal_rec *r)
{
  memset(r, 0, sizeof *r);
  r->index = k;
  r->status = jb->status;
  r->ref_kind = jb->ref_kind;
  r->t_reached = jb->res.t_reached;
  r->h = job_row_h(jb);
  r->value = job_row_value(jb);
  r->cnt = jb->res.cnt;
  fb_metrics_to_array(&jb->m, r->metrics);
  r->wall_s = jb->res.wall_s;
  r->cpu_s = jb->res.cpu_s;
  snprintf(r->message, sizeof r->message, "%s", jb->status == FB_OK ? "" : jb->message);
}

/* fb_journal_fn: take a journaled job as done, unless its trajectory file is missing. */
static int resume_take(void *ctx, const fb_journal_rec *r)
{
  suite *S = ctx;
  job *jb = &S->jobs[r->index];
  if (!jb->ready || jb->done)
    return 0;
  if (jb->exp->flags & FB_EXP_TRAJ) {
    char path[1024];
    traj_name(jb, path, sizeof path, S->o->out_dir);
    if (!file_exists(path))
      return 0; /* rerun it to write the file again */
  }
  jb->status = jb->res.status = r->status;
  snprintf(jb->message, sizeof jb->message, "%s", r->message);
  snprintf(jb->res.message, sizeof jb->res.message, "%s", r->message);
  jb->res.t_reached = r->t_reached;
  if (jb->exp->flags & FB_EXP_BISECT) { /* its case is at h_lo: the row's steps are these */
    jb->bis_h = r->h;
    jb->bis_hu = r->value;
  }
  jb->res.cnt = r->cnt;
  jb->res.wall_s = r->wall_s;
  jb->res.cpu_s = r->cpu_s;
  jb->ref_kind = r->ref_kind;
  fb_metrics_from_array(&jb->m, r->metrics);
  jb->done = 1;
  S->resumed++;
  return 0;
}

int fb_suite_resume_opts(fb_suite_opts *o, char ***recipe, size_t *nrecipe, fb_err *err)
{
  char path[1024], *text;
  size_t len;
  fb_journal_head h;
  journal_path(o, path, sizeof path);
  *recipe = NULL;
  *nrecipe = 0;
  int st = fb_journal_read(path, &text, &len, err);
  if (st == FB_OK) {
    st = fb_journal_parse(text, len, &h, NULL, NULL, NULL, NULL, err);
    if (st == FB_OK)
      st = fb_journal_recipe(text, len, recipe, nrecipe, err);
    free(text);
  }
  if (st != FB_OK) {
    char why[FB_ERR_LEN];
    snprintf(why, sizeof why, "%s", err->msg);
    return fb_err_set(err, FB_EINVAL, "--resume '%s': %s: give the directory of an "
                      "interrupted suite", o->out_dir, why);
  }
  o->quick = h.quick;
  o->samples = h.samples;
  o->max_steps = h.max_steps;
  o->max_rhs = h.max_rhs;
  o->part = h.part; /* a part of --emit-jobs resumes as that part */
  o->nparts = h.nparts;
  if (h.nparts > 0)
    o->plots = 0; /* as for --part: merge makes the plots */
  return FB_OK;
}

/* --resume, right after the table is expanded and before anything is written: refuse a
 * journal of another table (or revision, or options). */
static int resume_verify(suite *S, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  if (!o->resume)
    return FB_OK;
  char path[1024], *text;
  size_t len;
  fb_journal_head jh;
  journal_path(o, path, sizeof path);
  int st = fb_journal_read(path, &text, &len, err);
  if (st != FB_OK)
    return st;
  st = fb_journal_parse(text, len, &jh, NULL, NULL, NULL, NULL, err);
  free(text);
  if (st == FB_OK && jh.sum != table_sum(S))
    st = fb_err_set(err, FB_EINVAL,
                    "--resume '%s': its journal was written by fricbench %s for another "
                    "experiment table or options (this is %s): rerun it without --resume",
                    o->out_dir, jh.rev, FB_GIT_REV);
  return st;
}

/* Before the references: start the journal (or resume it: jobs it holds are done), mark
 * the references still needed, start the interrupt watcher. */
static int resume_begin(suite *S, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  char path[1024];
  journal_path(o, path, sizeof path);
  S->journal.fd = -1;
  /* watch first: from the journal's first line on, an interrupt must find it */
  if (o->handle_signals && fb_sigwatch_start(&S->watch, &S->stop) != FB_OK)
    fputs("fricbench suite: cannot watch SIGINT/SIGTERM: an interrupt loses the running "
          "jobs (the journal keeps the finished ones)\n", stderr);
  for (size_t k = 0; k < S->njobs; k++)
    S->jobs[k].done = !S->jobs[k].ready; /* a setup failure is a finished row */
  fb_journal_head h;
  memset(&h, 0, sizeof h);
  h.sum = table_sum(S);
  h.njobs = S->njobs;
  h.quick = o->quick;
  h.samples = o->samples;
  h.max_steps = o->max_steps;
  h.max_rhs = o->max_rhs;
  h.part = o->part;
  h.nparts = o->nparts;
  snprintf(h.rev, sizeof h.rev, "%s", FB_GIT_REV);
  int st;
  if (o->resume) {
    char *text;
    size_t len, valid = 0, nrec = 0;
    fb_journal_head jh;
    st = fb_journal_read(path, &text, &len, err);
    if (st != FB_OK) {
      fb_sigwatch_stop(&S->watch);
      return st;
    }
    st = fb_journal_parse(text, len, &jh, NULL, NULL, NULL, NULL, err);
    if (st == FB_OK && jh.sum != h.sum) /* resume_verify checked it; the file changed since */
      st = fb_err_set(err, FB_EINVAL, "--resume '%s': the journal changed while starting",
                      o->out_dir);
    if (st == FB_OK)
      st = fb_journal_parse(text, len, &jh, resume_take, S, &valid, &nrec, err);
    free(text);
    if (st == FB_OK)
      st = fb_journal_reopen(&S->journal, path, &h, valid, err);
  } else {
    st = fb_journal_create(&S->journal, path, &h, o->recipe, o->nrecipe, err);
  }
  if (st != FB_OK) {
    fb_sigwatch_stop(&S->watch);
    return st;
  }
  S->have_journal = 1;
  for (size_t k = 0; k < S->njobs; k++)
    if (!S->jobs[k].done) {
      S->refs[S->jobs[k].ref].needed = 1;
      if (S->jobs[k].own != SIZE_MAX && S->jobs[k].own != S->jobs[k].ref) {
        S->refs[S->jobs[k].own].needed = 1;
        S->refs[S->refs[S->jobs[k].own].coul].needed = 1; /* its modelling error */
      }
    }
  for (size_t r = 0; r < S->nrefs; r++) {
    ref_entry *re = &S->refs[r];
    if (!re->needed && re->want_traj) {
      ref_traj_path(S, re, path, sizeof path);
      re->needed = !file_exists(path);
    }
  }
  for (size_t r = 0; r < S->nrefs; r++) /* a shared contact reference: its source too */
    if (S->refs[r].needed && !S->refs[r].own && S->refs[r].cst_src != SIZE_MAX)
      S->refs[S->refs[r].cst_src].needed = 1;
  return FB_OK;
}

/* A reference, unless no job needs it or the suite was interrupted (then it stays
 * FB_REF_NONE and its jobs do not run). */
static void ref_exec(suite *S, size_t k)
{
  ref_entry *re = &S->refs[k];
  if (!re->needed || atomic_load(&S->stop) != 0) {
    re->kind = FB_REF_NONE;
    re->status = FB_EINTR;
    return;
  }
  const double c0 = cost_now();
  ref_compute(S, re);
  char kind[48];
  snprintf(kind, sizeof kind, "%s%s", re->own ? "own " : re->cst != NULL ? "coulomb+contact" : "coulomb",
           re->own ? re->om.integrator : "");
  cost_add_ref(S, kind, cost_now() - c0);
  if (getenv("FB_DEBUG_REFS")) fprintf(stderr, "REF\t%.4f\t%s\t%s\t%s\n", cost_now() - c0, kind, S->jobs[re->job].exp->group, re->key);
  /* its trajectory written here, by the worker: after the references, by one thread, the
   * writes left the other core idle (0.15 s of the quick suite, 0.3 s of the full) */
  if (!re->own && re->want_traj && re->kind != FB_REF_NONE) {
    const job *jb = &S->jobs[re->job];
    char path[1024];
    ref_traj_path(S, re, path, sizeof path);
    write_trace(path, &re->ref.tr,
                re->kind == FB_REF_EVENT ? fb_model_find("switching")->z_names : NULL,
                jb->exp->traj_tail, jb->exp->traj_dofs);
  }
}

/* A job, unless done or interrupted; journaled once finished.  A job stopped by the
 * interrupt is not finished: its partial trajectory is removed and --resume reruns it. */
static void job_exec(suite *S, size_t k)
{
  job *jb = &S->jobs[k];
  if (jb->done || atomic_load(&S->stop) != 0)
    return;
  jb->cs.cancel = &S->stop;
  const double c0 = cost_now();
  job_run(S, jb);
  cost_add_job(S, jb->exp->group, jb->cost_run, jb->cost_score, jb->cost_traj, jb->cost_engine,
               cost_now() - c0);
  if (jb->status == FB_EINTR) {
    if (jb->exp->flags & FB_EXP_TRAJ) {
      char path[1024];
      traj_name(jb, path, sizeof path, S->o->out_dir);
      unlink(path);
    }
    return;
  }
  jb->done = 1;
  jb->ref_kind = S->refs[jb->ref].kind;
  if (!S->have_journal)
    return;
  fb_journal_rec r;
  fb_err e = {{0}};
  job_to_rec(jb, k, &r);
  if (fb_journal_append(&S->journal, &r, &e) != FB_OK) {
    pthread_mutex_lock(&S->lock);
    if (!S->journal_failed)
      snprintf(S->journal_err, sizeof S->journal_err, "%s", e.msg);
    S->journal_failed = 1;
    pthread_mutex_unlock(&S->lock);
  }
}

/* After the runs: when interrupted, write runs.csv of the finished jobs, stop the watcher
 * (a second signal, pending, acts from here on) and return FB_EINTR.  Otherwise the
 * watcher keeps watching through the output files and the report (resume_finish). */
static int resume_end(suite *S, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  const int sig = atomic_load(&S->stop);
  int st = FB_OK;
  if (S->have_journal) { /* every job has ended: no more lines */
    fb_err je = {{0}};
    if (fb_journal_close(&S->journal, &je) != FB_OK && !S->journal_failed) {
      snprintf(S->journal_err, sizeof S->journal_err, "%s", je.msg);
      S->journal_failed = 1;
    }
    S->have_journal = 0;
  }
  if (S->journal_failed)
    fprintf(stderr, "fricbench suite: warning: %s: --resume would rerun the jobs after it\n",
            S->journal_err);
  if (sig != 0) {
    size_t ndone = 0, total = 0; /* of this part, with --part */
    for (size_t k = 0; k < S->njobs; k++)
      if (S->sel == NULL || S->sel[k]) {
        ndone += S->jobs[k].done;
        total++;
      }
    char path[1024];
    snprintf(path, sizeof path, "%s/runs.csv", o->out_dir);
    S->partial = 1;
    st = write_runs(S, path, err);
    if (st == FB_OK)
      st = fb_err_set(err, FB_EINTR,
                      "interrupted by %s: %zu of %zu runs finished and are in %s; finish "
                      "the others with: fricbench suite --resume %s",
                      sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", ndone,
                      total, path, o->out_dir);
  } else if (o->resume) {
    size_t ran = 0; /* finished now: done, not from the journal, not a set-up failure */
    for (size_t k = 0; k < S->njobs; k++)
      ran += S->jobs[k].done && S->jobs[k].ready;
    fprintf(stderr, "fricbench suite: resumed %s: %zu runs from the journal, %zu run now\n",
            o->out_dir, S->resumed, ran - S->resumed);
  }
  if (o->stopped_by != NULL)
    *o->stopped_by = sig;
  if (sig != 0)
    fb_sigwatch_stop(&S->watch);
  return st;
}

/* After the report: stop the watcher.  A signal that came while the files and the report
 * were written (gnuplot, whose signals are not blocked, may have died of it: the report
 * names such plots) still ends the command with FB_EINTR; every file is complete. */
static int resume_finish(suite *S, int st, fb_err *err)
{
  fb_sigwatch_stop(&S->watch);
  const int sig = atomic_load(&S->stop);
  if (sig == 0)
    return st;
  if (S->o->stopped_by != NULL)
    *S->o->stopped_by = sig;
  const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
  if (st == FB_OK)
    return fb_err_set(err, FB_EINTR, "interrupted by %s after the last run: every file in %s "
                      "is complete", name, S->o->out_dir);
  char why[FB_ERR_LEN];
  snprintf(why, sizeof why, "%s", err->msg);
  return fb_err_set(err, FB_EINTR,
                    "interrupted by %s after the last run (%.300s): runs.csv is complete; "
                    "redo the other files with: fricbench suite --resume %s",
                    name, why, S->o->out_dir);
}

static void suite_free(suite *S)
{
  for (size_t k = 0; k < S->njobs; k++)
    fb_case_free(&S->jobs[k].cs);
  for (size_t r = 0; r < S->nrefs; r++) {
    fb_trace_free(&S->refs[r].ref.tr);
    fb_reference_free_spans(&S->refs[r].ref);
    free(S->refs[r].key);
    free(S->refs[r].ckey);
    free(S->refs[r].cst);
  }
  free(S->jobs);
  free(S->early_key);
  free(S->early_left);
  fb_report_early_free(S->early);
  free(S->refs);
  free(S->order);
  free(S->sel);
  fb_table_free(&S->own_table);
  pthread_mutex_destroy(&S->lock);
}

/* Job jb's references, shared with the jobs that have the same key: the scenario
 * variant's (Coulomb) reference and, where the model regularizes, the model's own for its
 * parameters and kind of integrator (hmin: the finest step of jb's step ladder). */
static void job_refs(suite *S, job *jb, double hmin)
{
  const fb_experiment *x = jb->exp;
  /* the scenario variant's reference */
  char key[1200];
  snprintf(key, sizeof key, "%s|%zu|%s", x->scenario, jb->cs.samples, jb->sparams);
  size_t r = 0;
  while (r < S->nrefs && strcmp(S->refs[r].key, key) != 0)
    r++;
  if (r == S->nrefs) {
    S->refs[r].key = strdup(key);
    S->refs[r].job = (size_t)(jb - S->jobs);
    S->refs[r].tag = x->tag;
    S->nrefs++;
    contact_share(S, r);
  }
  if (x->flags & FB_EXP_TRAJ)
    S->refs[r].want_traj = 1;
  jb->ref = r;
  jb->own = SIZE_MAX;
  if (strcmp(x->group, "grid") == 0 || strcmp(x->group, "scale") == 0 ||
      jb->cs.sc.plant.nn > 0)
    return; /* [Engleder2002]'s picture, the chain's cost against n (docs/scenarios/chain.md)
               and the contact runs (measured against the contact reference): no
               discretization study there */
  if (fb_model_suite_of(jb->cs.md.type)->exact_limit) {
    jb->own = r; /* no regularization: the Coulomb reference is its own */
    return;
  }
  /* the model's own reference for these parameters and this kind of integrator */
  char mkey[96];
  fb_own_method om;
  fb_own_method_of(&jb->cs, hmin, &om, mkey, sizeof mkey);
  char okey[2048];
  snprintf(okey, sizeof okey, "%s|own|%s|%s|%s", key, x->model, jb->mparams, mkey);
  size_t oi = 0;
  while (oi < S->nrefs && strcmp(S->refs[oi].key, okey) != 0)
    oi++;
  if (oi == S->nrefs) {
    S->refs[oi].key = strdup(okey);
    S->refs[oi].job = (size_t)(jb - S->jobs);
    S->refs[oi].tag = x->tag;
    S->refs[oi].own = 1;
    S->refs[oi].coul = r;
    S->refs[oi].om = om;
    S->nrefs++;
  }
  jb->own = oi;
}

/* Expand the table (o->table, else the default one) into the jobs, their references
 * keyed and shared.  FB_OK or FB_ENOMEM (the caller frees S). */
static int suite_expand(suite *S, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  if (o->table == NULL) {
    if (fb_table_default(&S->own_table) != FB_OK)
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    S->table = &S->own_table;
  } else {
    S->table = o->table;
  }
  const fb_table *tbl = S->table;
  size_t cap = 0;
  for (size_t e = 0; e < tbl->n; e++)
    cap += tbl->e[e].nvalues ? tbl->e[e].nvalues : 1;
  S->jobs = calloc(cap ? cap : 1, sizeof *S->jobs);
  S->refs = calloc(2 * cap + 1, sizeof *S->refs); /* a Coulomb and an own reference per job */
  if (S->jobs == NULL || S->refs == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t e = 0; e < tbl->n; e++) {
    const fb_experiment *x = &tbl->e[e];
    if (o->quick && !(x->flags & FB_EXP_QUICK))
      continue;
    size_t nv = x->sweep == FB_SWEEP_NONE ? 1 : x->nvalues;
    if (o->quick && nv > FB_QUICK_LADDER)
      nv = FB_QUICK_LADDER;
    double hmin = NAN; /* the finest step of a step ladder: sets an own reference's step */
    for (size_t v = 0; x->sweep == FB_SWEEP_H && v < nv; v++)
      hmin = isnan(hmin) ? x->values[v] : fmin(hmin, x->values[v]);
    for (size_t v = 0; v < nv; v++) {
      job *jb = &S->jobs[S->njobs++];
      jb->exp = x;
      jb->value = x->sweep == FB_SWEEP_NONE ? (double)NAN : x->values[v];
      job_setup(jb, o);
      if (!jb->ready)
        continue;
      job_refs(S, jb, hmin);
    }
  }
  return FB_OK;
}

/* An own reference's modelling error against its Coulomb reference (computed by then). */
static void own_ref_model_errors(suite *S)
{
  for (size_t r = 0; r < S->nrefs; r++) {
    ref_entry *re = &S->refs[r];
    if (!re->own)
      continue;
    re->mod_x = re->mod_v = NAN;
    const ref_entry *ce = &S->refs[re->coul];
    if (re->kind != FB_REF_NONE && ce->kind != FB_REF_NONE)
      fb_trace_errors(&re->ref.tr, &ce->ref.tr, S->jobs[re->job].cs.sc.plant.n, &re->mod_x,
                      &re->mod_v, NULL);
  }
}

/* DIR's tables, meta.json, then what is judged from them (verdicts, claims) or a part's
 * records, and the report.  FB_OK or the first failure. */
static int suite_outputs(suite *S, double t0, const char *date, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  char path[1024];
  int st;
  snprintf(path, sizeof path, "%s/runs.csv", o->out_dir);
  st = write_runs(S, path, err);
  if (st == FB_OK) {
    snprintf(path, sizeof path, "%s/orders.csv", o->out_dir);
    st = write_orders(S, path, err);
  }
  /* meta.json first: the report reads it (machine, versions, wall time of the runs) */
  if (st == FB_OK) {
    snprintf(path, sizeof path, "%s/meta.json", o->out_dir);
    st = write_meta(S, path, fb_clock_s(CLOCK_MONOTONIC) - t0, date, err);
  }
  if (st == FB_OK && o->nparts == 0) /* a part's verdicts would judge a part: merge's */
    st = fb_verdicts_write(o->out_dir, err);
  if (st == FB_OK && o->nparts == 0) /* the frame's observables, read by its claim */
    st = fb_frame_write(o->out_dir, err);
  if (st == FB_OK && o->nparts == 0) /* the source papers' claims, judged like the verdicts */
    st = fb_seed_claims_write(o->out_dir, err);
  if (st == FB_OK && o->nparts > 0)
    st = fb_part_info_write(o->out_dir, o, S->njobs, err);
  if (st == FB_OK && o->nparts > 0) /* last: merge verifies the part against it */
    st = fb_manifest_write(o->out_dir, err);
  cost_mark(S, COST_TABLES);
  if (st == FB_OK && o->plots)
    st = fb_report_make_early(o->out_dir, (size_t)o->jobs, S->early, err);
  cost_mark(S, COST_REPORT);
  return st;
}

int fb_suite_run(const fb_suite_opts *o, const char *argv0, fb_err *err)
{
  (void)argv0;
  suite S;
  memset(&S, 0, sizeof S);
  S.o = o;
  pthread_mutex_init(&S.lock, NULL);
  const double t0 = fb_clock_s(CLOCK_MONOTONIC);
  char date[64];
  time_t now = time(NULL);
  struct tm tmv;
  gmtime_r(&now, &tmv);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  cost_mark(&S, COST_START);
  if (fb_mkdir_p(o->out_dir) != 0)
    return fb_err_set(err, FB_EINVAL, "output directory '%s' cannot be created: %s", o->out_dir,
                      strerror(errno));
  if (out_dir_check(o->out_dir, err) != FB_OK)
    return FB_EINVAL;
  if (suite_expand(&S, err) != FB_OK) {
    suite_free(&S);
    return FB_ENOMEM;
  }
  int vst = resume_verify(&S, err); /* --resume: DIR/journal is this table's, or nothing */
  if (vst != FB_OK) {
    suite_free(&S);
    return vst;
  }
  /* trajectory folders */
  char path[1024];
  for (size_t k = 0; k < S.njobs; k++)
    if (S.jobs[k].exp->flags & FB_EXP_TRAJ) {
      snprintf(path, sizeof path, "%s/traj/%s", o->out_dir, S.jobs[k].exp->scenario);
      fb_mkdir_p(path);
    }
  int rst = select_part(&S, err); /* --part I/K: this part's experiments */
  if (rst == FB_OK)
    rst = resume_begin(&S, err); /* journal (new or resumed) and the interrupt watcher */
  if (rst != FB_OK) {
    suite_free(&S);
    return rst;
  }
  cost_mark(&S, COST_EXPANDED);
  run_parallel(&S, PHASE_REFS, schedule(&S, 1), "references");
  contact_copy(&S);
  own_ref_model_errors(&S);
  cost_mark(&S, COST_REFS);
  early_setup(&S);
  run_parallel(&S, PHASE_RUNS, schedule(&S, 0), "runs");
  cost_mark(&S, COST_RUNS);
  int st = resume_end(&S, err); /* interrupted: runs.csv of the finished jobs, FB_EINTR */
  if (st != FB_OK) {
    suite_free(&S);
    return st;
  }
  st = suite_outputs(&S, t0, date, err); /* t0: meta.json's wall time */
  st = resume_finish(&S, st, err); /* the interrupt watcher ends here */
  fb_run_tally tally;
  char counts[160];
  count_runs(&S, &tally);
  fb_run_tally_text(&tally, counts, sizeof counts);
  fprintf(stderr, "fricbench suite: %s, %zu references, %.1f s on %d threads; results in %s/\n",
          counts, S.nrefs, fb_clock_s(CLOCK_MONOTONIC) - t0, o->jobs, o->out_dir);
  /* an absent engine is no failure: one line each (docs/engines.md) */
  for (const fb_engine_entry *e = fb_engine_table; e->name != NULL; e++) {
    char why[160];
    if (!fb_engine_present(e, why, sizeof why))
      fprintf(stderr, "fricbench suite: engine %s skipped: %s\n", e->name, why);
  }
  suite_free(&S); /* also ends the early plots' gnuplot processes: their CPU is counted now */
  cost_mark(&S, COST_END);
  cost_print(&S, stderr);
  return st;
}

/* ==== scheduling and parts (fb_schedule.h) ============================================ */

/* --part I/K: keep the experiments the partition gives part I (whole experiments, so that
 * orders.csv is fitted inside one part); only their rows are written (S->partial). */
static int select_part(suite *S, fb_err *err)
{
  const fb_suite_opts *o = S->o;
  if (o->nparts == 0)
    return FB_OK;
  const size_t n = S->njobs;
  double *gcost = calloc(n ? n : 1, sizeof *gcost);
  size_t *group = calloc(n ? n : 1, sizeof *group), *part = calloc(n ? n : 1, sizeof *part);
  S->sel = calloc(n ? n : 1, 1);
  if (gcost == NULL || group == NULL || part == NULL || S->sel == NULL) {
    free(gcost), free(group), free(part);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  size_t ng = 0;
  for (size_t k = 0; k < n; k++) {
    if (k == 0 || S->jobs[k].exp != S->jobs[k - 1].exp)
      ng++;
    group[k] = ng - 1;
    if (S->jobs[k].ready)
      gcost[ng - 1] += fb_sched_cost(&S->jobs[k].cs, S->jobs[k].exp, o->max_rhs);
  }
  fb_sched_partition(gcost, ng, o->nparts, part);
  for (size_t k = 0; k < n; k++)
    S->sel[k] = part[group[k]] == o->part - 1;
  S->partial = 1;
  free(gcost), free(group), free(part);
  return FB_OK;
}

/* This phase's dispatch order (S->order, longest first) and its length: the jobs (of
 * this part), or the references they use (every one without --part; resume_begin
 * decides which are still needed). */
static size_t schedule(suite *S, int refs)
{
  const size_t n = refs ? S->nrefs : S->njobs;
  double *cost = calloc(n ? n : 1, sizeof *cost);
  unsigned char *keep = refs && S->sel != NULL ? calloc(n ? n : 1, 1) : NULL;
  free(S->order);
  S->order = malloc((n ? n : 1) * sizeof *S->order);
  if (cost == NULL || S->order == NULL || (refs && S->sel != NULL && keep == NULL)) {
    free(cost), free(keep), free(S->order);
    S->order = NULL; /* table order */
    return n;
  }
  for (size_t k = 0; k < S->njobs; k++) {
    const job *jb = &S->jobs[k];
    if (!jb->ready)
      continue;
    if (!refs)
      cost[k] = fb_sched_cost(&jb->cs, jb->exp, S->o->max_rhs);
    else if (S->sel == NULL || S->sel[k]) {
      if (keep != NULL)
        keep[jb->ref] = 1;
      cost[jb->ref] = (double)jb->cs.samples; /* event references cost ~ their grid */
      if (jb->own != SIZE_MAX && jb->own != jb->ref) { /* own: tight solves and a check */
        if (keep != NULL)
          keep[jb->own] = keep[S->refs[jb->own].coul] = 1;
        cost[jb->own] = 10.0 * (double)jb->cs.samples;
      }
    }
  }
  for (size_t r = 0; refs && r < n; r++) /* a shared contact reference: its source too */
    if ((keep == NULL || keep[r]) && cost[r] > 0 && !S->refs[r].own &&
        S->refs[r].cst_src != SIZE_MAX) {
      if (keep != NULL)
        keep[S->refs[r].cst_src] = 1;
      cost[S->refs[r].cst_src] = fmax(cost[S->refs[r].cst_src], cost[r]);
    }
  S->norder = fb_sched_order(cost, refs ? keep : S->sel, n, S->order);
  /* The runs of the early plots first (each part longest first): a plot can only start
   * when its last run is done, and drawn while the other runs go it fills the run phase
   * instead of the report's tail (dispatched longest first, the last baseline run of a
   * scenario came near the end, and the plots with it). */
  if (!refs && S->early_key != NULL) {
    size_t *tmp = malloc((S->norder ? S->norder : 1) * sizeof *tmp), m = 0;
    if (tmp != NULL) {
      for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < S->norder; i++)
          if ((S->early_key[S->order[i]] != SIZE_MAX) == (pass == 0))
            tmp[m++] = S->order[i];
      memcpy(S->order, tmp, S->norder * sizeof *tmp);
      free(tmp);
    }
  }
  free(cost);
  free(keep);
  return S->norder;
}
