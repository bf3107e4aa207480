/* suite_write.c — the suite's tables: runs.csv (one row per run, with the consistency
 * check's `suspect` status), orders.csv (orders on the asymptotic range) and meta.json
 * (fb_suite.h, results/README.md). */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"

#include <jansson.h>
#include "fb_engine.h"

#include "fb_csv.h"
#include "fb_plant_int.h"

static void csv_num(FILE *fp, double v)
{
  if (isnan(v))
    fputs(",nan", fp);
  else
    fprintf(fp, ",%.10g", v);
}

/* runs.csv's nlsetups cell: the count of a stepper that counts its linear solver set-ups
 * (SUNDIALS' implicit ones, beuler, bdf2), 0 for a generic explicit ODE stepper (it solves no
 * linear system), empty otherwise (GSL's implicit steppers factor inside GSL, unseen; the
 * model-owned schemes do not count). */
void fb_lsetups_cell(FILE *fp, const fb_integrator_type *it, const fb_counters *c)
{
  if (it->counts_lsetups)
    fprintf(fp, "%lu", c->nlsetups);
  else if (it->needs == FB_MODEL_ODE && !it->implicit)
    fputc('0', fp);
}

const char *const fb_runs_columns[] = {
    "run_id", "group", "tag", "scenario", "model", "integrator", "mode", "h", "atol", "rtol",
    "sweep", "sweep_value", "scenario_params", "model_params", "ref", "status", "message",
    "t_reached", "nsteps", "nrejected", "nfe", "njac", "nevents", "ninner", "nswitch", "nlsetups",
    NULL};

/* The consistency check of a fixed-step run (docs/design.md §6): its discretization error
 * must stay below the scenario's scale, must not grow as the step shrinks (more than
 * FB_SUSPECT_GROWTH x the largest error of the coarser steps of its ladder, above
 * round-off), and
 * must shrink: not keep half of it at a step 8x finer while above 1% of the scale.  A run
 * failing it is `suspect`: never drawn, fitted or scored as ok.  1 with why[] set. */
#define FB_SUSPECT_GROWTH 10.0
static int job_suspect(const suite *S, size_t k, char *why, size_t len)
{
  const job *jb = &S->jobs[k];
  if (jb->status != FB_OK || !jb->ready || isnan(jb->cs.opts.h) || isnan(jb->m.disc_x_l2))
    return 0;
  /* a bisection's row is the largest *stable* step: it answers "up to what step", and is
   * inaccurate there by construction; its stability is its status (docs/design.md §10.2) */
  if (strcmp(jb->exp->group, "stable-step") == 0)
    return 0;
  const fb_plant *pl = &jb->cs.sc.plant;
  const double span = pl->T - pl->t0;
  const double scale = fmax(jb->m.ref_x_l2, pl->v_stick * span * sqrt(span));
  const double e = jb->m.disc_x_l2;
  if (e > scale) {
    /* a reference at rest (push-hold, drift below breakaway): the error is how far the run
     * moved where Coulomb friction holds - an engine's or a sign law's creep */
    snprintf(why, len, "suspect: discretization error %.3g above the scenario's scale %.3g%s", e,
             scale, jb->m.ref_x_l2 == 0.0 ? ": the reference holds still, so this is the run's "
                                            "creep or slip where Coulomb friction holds" : "");
    return 1;
  }
  if (jb->exp->sweep != FB_SWEEP_H || e <= 1e-10 * scale)
    return 0;
  const job *cmax = NULL; /* the coarser rung with the largest error */
  for (size_t j = 0; j < S->njobs; j++) {
    const job *c = &S->jobs[j];
    /* a rung not finished yet (an interrupted suite's runs.csv, another part's run) has
     * no error to compare with: its zeroed metrics would make any error "grow" */
    if (c->exp != jb->exp || !c->done || c->status != FB_OK || !(c->value > jb->value) ||
        isnan(c->m.disc_x_l2))
      continue;
    /* a consistent scheme's error vanishes with h: one that keeps half of it over a step
     * 8x finer, at 1% of the scale, converges to something else (bsimp's frozen body) */
    if (c->value >= 8.0 * jb->value && e > 0.5 * c->m.disc_x_l2 && e > 1e-2 * scale) {
      snprintf(why, len, "suspect: discretization error %.3g at h=%g, %.3g at h=%g: it does "
               "not shrink with h", e, jb->value, c->m.disc_x_l2, c->value);
      return 1;
    }
    if (cmax == NULL || c->m.disc_x_l2 > cmax->m.disc_x_l2)
      cmax = c;
  }
  /* grows: against the largest error of the coarser rungs, not any one of them.  On a
   * nonsmooth problem a rung whose step happens to place a switch well cancels its error
   * (kikuuwe/rk4 on inclined-block: 3.3e-9, 8.5e-11, 9.7e-10 at h = 2.6e-4, 1.5e-4, 9e-5 on
   * a trend of order 2); the next rung, on the trend, was 10x that lucky one and "grew"
   * (docs/failures.md) */
  if (cmax != NULL && e > FB_SUSPECT_GROWTH * cmax->m.disc_x_l2) {
    snprintf(why, len, "suspect: discretization error %.3g at h=%g, %.3g at the coarser h=%g "
             "(the largest of the coarser steps': grows as h shrinks)", e, jb->value,
             cmax->m.disc_x_l2, cmax->value);
    return 1;
  }
  return 0;
}

/* The note of an unstable or failed run its model's suite data expects (fb_run_expected_why):
 * "; expected: <why>: h = X s is R x the element's time constant sqrt(m/K) = T s (K = ...)",
 * the numbers from the run's resolved stiffness and the mass at its first contact; "" when
 * not expected (docs/failures.md). */
static void expected_note(const job *jb, char *buf, size_t len)
{
  buf[0] = '\0';
  const char *why = jb->ready ? fb_run_expected_why(jb->exp->model, jb->cs.integ->name) : NULL;
  if (why == NULL)
    return;
  const int n = snprintf(buf, len, "; expected: %s", why);
  const fb_model_type *mt = jb->cs.md.type;
  const fb_plant *pl = &jb->cs.sc.plant;
  const double h = jb->cs.opts.h;
  const fb_param_desc *d =
      mt->stiffness_param != NULL ? fb_params_find(mt->params, mt->stiffness_param) : NULL;
  if (d == NULL || !(h > 0) || pl->nc == 0 || jb->cs.md.nc == 0 || n < 0 || (size_t)n >= len)
    return;
  /* two time scales of the element: its oscillation with the body, and the relaxation of
   * a bristle's deflection in slip at the velocity scale (LuGre's z-rate K |v| / S,
   * docs/design.md §3 M4), the shorter one for the bristle laws */
  const double K = fb_param_get(d, fb_model_cparams(&jb->cs.md, 0)),
               m = fb_plant_contact_mass(pl, 0), tau = sqrt(m / K),
               Fs = fb_plant_contact_Fs(pl, 0), tslip = Fs / (K * pl->v_scale);
  if (isfinite(tau) && tau > 0 && isfinite(tslip) && tslip > 0)
    snprintf(buf + n, len - (size_t)n, ": h = %.3g s is %.3g x the element's period "
             "sqrt(m/K) = %.3g s and %.3g x its slip relaxation Fs/(K v_scale) = %.3g s "
             "(%s = %.3g N/m, m = %.3g kg, Fs = %.3g N)", h, h / tau, tau, h / tslip, tslip,
             mt->stiffness_param, K, m, Fs);
}

static const char *status_text(const suite *S, size_t k)
{
  const job *jb = &S->jobs[k];
  char why[8];
  if (jb->ready && fb_run_unstable(jb->status, &jb->m, why, sizeof why))
    return "unstable";
  if (jb->status == FB_OK && job_suspect(S, k, why, sizeof why))
    return "suspect";
  if (jb->status == FB_OK)
    return "ok";
  if (jb->status == FB_BUDGET)
    return "budget";
  return "failed";
}

/* runs.csv to fp: the header and every row (key SIZE_MAX) or the rows of early plot key
 * `key` (an early plot's runs, all finished). */
static void runs_csv(const suite *S, FILE *fp, size_t key)
{
  for (size_t c = 0; fb_runs_columns[c] != NULL; c++)
    fprintf(fp, "%s%s", c ? "," : "", fb_runs_columns[c]);
  for (size_t c = 0; fb_metric_names[c] != NULL; c++)
    fprintf(fp, ",%s", fb_metric_names[c]);
  fputs(",wall_s,cpu_s\n", fp);
  for (size_t k = 0; k < S->njobs; k++) {
    const job *jb = &S->jobs[k];
    const fb_experiment *e = jb->exp;
    const fb_int_opts *io = &jb->cs.opts;
    const int ready = jb->ready;
    if (key != SIZE_MAX && S->early_key[k] != key)
      continue; /* first: other jobs may still be running */
    if (S->partial && (!jb->done || (S->sel != NULL && !S->sel[k])))
      continue; /* interrupted, or --part: this part's finished rows only */
    fprintf(fp, "%zu,", k + 1);
    fb_csv_field(fp, e->group);
    fputc(',', fp);
    fb_csv_field(fp, e->tag);
    fprintf(fp, ",%s,%s,%s,%s", e->scenario, e->model,
            ready ? jb->cs.integ->name : (e->integrator ? e->integrator : ""),
            !ready ? "" : isnan(io->h) ? "adaptive" : "fixed");
    csv_num(fp, ready ? job_row_h(jb) : (double)NAN);
    csv_num(fp, ready && isnan(io->h) ? io->atol : (double)NAN);
    csv_num(fp, ready && isnan(io->h) ? io->rtol : (double)NAN);
    fprintf(fp, ",%s", (e->flags & FB_EXP_BISECT) ? "stable-step"
                       : e->sweep == FB_SWEEP_H ? "h" : e->sweep == FB_SWEEP_TOL ? "tol"
                       : e->sweep == FB_SWEEP_PARAM ? e->sweep_param : "");
    csv_num(fp, job_row_value(jb));
    fputc(',', fp);
    fb_csv_field(fp, jb->sparams);
    fputc(',', fp);
    fb_csv_field(fp, jb->mparams);
    const int rk = job_ref_kind(S, jb); /* the journal's for a resumed job */
    fprintf(fp, ",%s,%s,", rk == FB_REF_EXACT ? "exact" : rk == FB_REF_EVENT ? "event" : "none",
            status_text(S, k));
    char msg[FB_ERR_LEN + 416]; /* the message and an expected failure's note */
    if (jb->ready && jb->status == FB_OK && fb_run_unstable(jb->status, &jb->m, msg, sizeof msg))
      ; /* the instability's reason */
    else if (jb->status == FB_OK && !job_suspect(S, k, msg, sizeof msg))
      msg[0] = '\0';
    else if (jb->status != FB_OK)
      snprintf(msg, sizeof msg, "%s", jb->message);
    const char *stt = status_text(S, k);
    if (strcmp(stt, "budget") == 0 && jb->ready && jb->res.cnt.nsteps > 0) {
      /* the budget's physics: how short the steps became (an error control resolving
       * every switch of a discontinuous law, or a stiff one under an explicit stepper) */
      const double t0 = jb->cs.sc.plant.t0, tr = jb->res.t_reached;
      const size_t ml = strlen(msg);
      snprintf(msg + ml, sizeof msg - ml, ": mean accepted step %.3g s over [%g, %.4g] s "
               "(%.3g of the span T - t0)", (tr - t0) / (double)jb->res.cnt.nsteps, t0, tr,
               (tr - t0) / (double)jb->res.cnt.nsteps / (jb->cs.sc.plant.T - t0));
    }
    if (strcmp(stt, "unstable") == 0 || strcmp(stt, "failed") == 0) {
      char note[400];
      expected_note(jb, note, sizeof note);
      const size_t ml = strlen(msg);
      snprintf(msg + ml, sizeof msg - ml, "%s", note);
    }
    fb_csv_field(fp, msg);
    const fb_counters *c = &jb->res.cnt;
    csv_num(fp, ready ? jb->res.t_reached : (double)NAN);
    fprintf(fp, ",%lu,%lu,%lu,%lu,%lu,%lu,%lu,", c->nsteps, c->nrejected, c->nfe, c->njac,
            c->nevents, c->ninner, c->nswitch);
    if (ready)
      fb_lsetups_cell(fp, jb->cs.integ, c);
    double mv[FB_NMETRICS];
    fb_metrics_to_array(&jb->m, mv);
    for (size_t i = 0; i < FB_NMETRICS; i++)
      csv_num(fp, ready ? mv[i] : (double)NAN);
    csv_num(fp, ready ? jb->res.wall_s : (double)NAN);
    csv_num(fp, ready ? jb->res.cpu_s : (double)NAN);
    fputc('\n', fp);
  }
}

int write_runs(const suite *S, const char *path, fb_err *err)
{
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "runs.csv", err);
  if (st != FB_OK)
    return st;
  runs_csv(S, of.fp, SIZE_MAX);
  return fb_outfile_commit(&of, err);
}

int runs_text_of_key(const suite *S, size_t key, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  FILE *fp = open_memstream(text, len);
  if (fp == NULL)
    return -1;
  runs_csv(S, fp, key);
  const int bad = ferror(fp);
  if (fclose(fp) != 0 || bad) {
    free(*text);
    *text = NULL;
    return -1;
  }
  return 0;
}

/* Observed orders of every convergence experiment (fit over its ok rows). */
/* orders.csv: per convergence experiment, the discretization order of x and v on the
 * asymptotic range only (fb_order_asymptotic), the local orders, or why there is none. */
int write_orders(const suite *S, const char *path, fb_err *err)
{
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "orders.csv", err);
  if (st != FB_OK)
    return st;
  fputs("scenario,model,integrator,tag,points,order_x,order_v,h_coarse,h_fine,why_x,why_v,"
        "local_x,err_x_finest,h_finest\n",
        of.fp);
  for (size_t k = 0; k < S->njobs;) {
    const fb_experiment *e = S->jobs[k].exp;
    if (S->sel != NULL && !S->sel[k]) { /* --part: another part's experiment */
      while (k < S->njobs && S->jobs[k].exp == e)
        k++;
      continue;
    }
    double h[FB_EXP_MAX_VALUES], ex[FB_EXP_MAX_VALUES], ev[FB_EXP_MAX_VALUES];
    double floor_x = 0, floor_v = 0;
    size_t n = 0, k2 = k;
    char why[8];
    for (; k2 < S->njobs && S->jobs[k2].exp == e; k2++) {
      const job *jb = &S->jobs[k2];
      if (jb->status == FB_OK && n < FB_EXP_MAX_VALUES && !job_suspect(S, k2, why, sizeof why) &&
          !fb_run_unstable(jb->status, &jb->m, why, sizeof why)) {
        h[n] = jb->value;
        ex[n] = jb->m.disc_x_l2;
        ev[n] = jb->m.disc_v_l2;
        /* round-off (1e-13 of the scale) and the own reference's accuracy: 100 x the
         * floor stays above 3 x own_ref_err */
        const double acc = isnan(jb->m.own_ref_err) ? 0.0 : jb->m.own_ref_err / 33.0;
        floor_x = fmax(floor_x, fmax(1e-13 * jb->m.ref_x_l2, acc));
        floor_v = fmax(floor_v, fmax(1e-13 * jb->m.ref_x_l2, acc));
        n++;
      }
    }
    if (e->sweep == FB_SWEEP_H && strcmp(e->group, "convergence") == 0) {
      fb_order_fit fx, fv;
      fb_order_asymptotic(h, ex, n, floor_x, &fx);
      fb_order_asymptotic(h, ev, n, floor_v, &fv);
      fprintf(of.fp, "%s,%s,%s,%s,%zu", e->scenario, e->model, e->integrator, e->tag, n);
      csv_num(of.fp, fx.order);
      csv_num(of.fp, fv.order);
      csv_num(of.fp, fx.count ? h[fx.first] : (double)NAN);
      csv_num(of.fp, fx.count ? h[fx.first + fx.count - 1] : (double)NAN);
      fprintf(of.fp, ",%s,%s,", fx.why, fv.why);
      for (size_t i = 0; i + 1 < n; i++)
        fprintf(of.fp, "%s%.3g", i ? ";" : "", fx.local[i]);
      csv_num(of.fp, n ? ex[n - 1] : (double)NAN);
      csv_num(of.fp, n ? h[n - 1] : (double)NAN);
      fputc('\n', of.fp);
    }
    k = k2;
  }
  return fb_outfile_commit(&of, err);
}

static void cpu_model(char *buf, size_t len)
{
  snprintf(buf, len, "unknown");
  FILE *fp = fopen("/proc/cpuinfo", "r");
  if (fp == NULL)
    return;
  char line[512];
  while (fgets(line, sizeof line, fp))
    if (strncmp(line, "model name", 10) == 0) {
      char *c = strchr(line, ':');
      if (c != NULL) {
        c += 2;
        c[strcspn(c, "\n")] = '\0';
        snprintf(buf, len, "%s", c);
      }
      break;
    }
  fclose(fp);
}

/* The runs of this command (of its part with --part: the others are not run) by status. */
void count_runs(const suite *S, fb_run_tally *t)
{
  memset(t, 0, sizeof *t);
  for (size_t k = 0; k < S->njobs; k++)
    if (S->sel == NULL || S->sel[k])
      fb_run_tally_add(t, status_text(S, k), S->jobs[k].exp->model,
                       S->jobs[k].ready ? S->jobs[k].cs.integ->name : S->jobs[k].exp->integrator);
}

/* The engines, present or absent: {"ode": {"present": true, "version": "0.16 ..."}} or
 * {"present": false, "why": "..."} (docs/engines.md). */
static json_t *engines_json(void)
{
  json_t *all = json_object();
  for (const fb_engine_entry *e = fb_engine_table; all != NULL && e->name != NULL; e++) {
    char buf[160];
    const int present = fb_engine_present(e, buf, sizeof buf);
    json_object_set_new(all, e->name, json_pack("{s:b, s:s, s:s}", "present", present,
                                                present ? "version" : "why", buf, "library",
                                                e->library));
  }
  return all;
}

int write_meta(const suite *S, const char *path, double wall, const char *date,
                      fb_err *err)
{
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "meta.json", err);
  if (st != FB_OK)
    return st;
  struct utsname u;
  char cpu[256];
  uname(&u);
  cpu_model(cpu, sizeof cpu);
  fb_run_tally t;
  count_runs(S, &t);
#ifdef __VERSION__
  const char *compiler = __VERSION__;
#else
  const char *compiler = "unknown";
#endif
  json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s}", "fricbench_version", FB_VERSION,
                        "git_revision", FB_GIT_REV, "compiler", compiler, "build",
                        FB_BUILD_INFO, "gsl_version", gsl_version);
  if (m != NULL) {
    json_object_set_new(m, "machine",
                        json_pack("{s:s, s:s, s:s, s:s, s:I}", "system", u.sysname, "release",
                                  u.release, "arch", u.machine, "cpu", cpu, "cores",
                                  (json_int_t)sysconf(_SC_NPROCESSORS_ONLN)));
    json_object_set_new(m, "date", json_string(date));
    json_object_set_new(m, "wall_time_s", json_real(round(wall * 1000.0) / 1000.0));
    json_object_set_new(m, "jobs", json_integer(S->o->jobs));
    json_object_set_new(m, "quick", json_boolean(S->o->quick));
    /* the user's own table (a plan, a selection, --h): the report draws its runs */
    json_object_set_new(m, "table", json_string(S->o->table != NULL ? "selected" : "default"));
    json_object_set_new(m, "samples", json_integer((json_int_t)S->o->samples));
    json_object_set_new(m, "max_steps", json_integer((json_int_t)S->o->max_steps));
    json_object_set_new(m, "max_rhs", json_integer((json_int_t)S->o->max_rhs));
    json_object_set_new(m, "runs", json_integer((json_int_t)t.n));
    json_object_set_new(m, "ok", json_integer((json_int_t)t.ok));
    json_object_set_new(m, "unstable", json_integer((json_int_t)t.unstable));
    json_object_set_new(m, "suspect", json_integer((json_int_t)t.suspect));
    json_object_set_new(m, "budget", json_integer((json_int_t)t.budget));
    json_object_set_new(m, "failed", json_integer((json_int_t)t.failed));
    json_object_set_new(m, "expected_failures", json_integer((json_int_t)t.expected));
    json_object_set_new(m, "references", json_integer((json_int_t)S->nrefs));
    json_object_set_new(m, "engines", engines_json());
    json_object_set_new(m, "cpu_s", cost_json(S)); /* the parts so far (bench/suite/cost.c) */
  }
  if (m == NULL || fb_json_dump(m, of.fp) != 0) {
    json_decref(m);
    fb_outfile_abort(&of);
    return fb_err_set(err, FB_EIO, "writing '%s' failed", path);
  }
  json_decref(m);
  return fb_outfile_commit(&of, err);
}

/* A part's part.json (suite --part I/K; bench/cli/merge.c reads it): written by the suite
 * itself, in its own layer (it lived in bench/cli/emit_jobs.c, a layer above). */
int fb_part_info_write(const char *dir, const fb_suite_opts *o, size_t njobs, fb_err *err)
{
  char path[4096];
  fb_outfile of;
  snprintf(path, sizeof path, "%s/part.json", dir);
  int st = fb_outfile_open(&of, path, "part.json", err);
  if (st != FB_OK)
    return st;
  json_t *j = json_pack("{s:I, s:I, s:I, s:b, s:I, s:I, s:I, s:s}", "part", (json_int_t)o->part,
                        "parts", (json_int_t)o->nparts, "runs_total", (json_int_t)njobs, "quick",
                        o->quick, "samples", (json_int_t)o->samples, "max_steps",
                        (json_int_t)o->max_steps, "max_rhs", (json_int_t)o->max_rhs,
                        "git_revision", FB_GIT_REV);
  if (j == NULL || fb_json_dump(j, of.fp) != 0) {
    json_decref(j);
    fb_outfile_abort(&of);
    return fb_err_set(err, FB_EIO, "writing '%s' failed", path);
  }
  json_decref(j);
  return fb_outfile_commit(&of, err);
}
