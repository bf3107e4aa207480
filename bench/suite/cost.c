/* cost.c — where a suite's CPU time goes (suite_int.h's cost_*): per group its timed runs,
 * their scoring (metrics against the references), trajectory files and the rest of the
 * job; per kind of reference (Coulomb, contact, each own-reference integrator) its
 * solves; the main thread's expansion, tables and report, and the child processes
 * (gnuplot; an out-of-process engine's server) as getrusage counts them once reaped: the
 * stderr line is printed after the suite's memory and the early plots' gnuplot processes
 * are freed, meta.json's "cpu_s" (written before the report) has the parts until then.
 * Thread CPU clocks (CLOCK_THREAD_CPUTIME_ID), so a shared host's load does not enter;
 * written to meta.json ("cpu_s") and summed up in one line on stderr. */
#define _POSIX_C_SOURCE 200809L
#include "suite_int.h"

#include <sys/resource.h>

double cost_now(void)
{
  return fb_clock_s(CLOCK_THREAD_CPUTIME_ID);
}

/* The row of name in rows[0..*n) (added when absent; the last row takes the overflow). */
static cost_row *row_of(cost_row *rows, size_t *n, size_t cap, const char *name)
{
  for (size_t i = 0; i < *n; i++)
    if (strcmp(rows[i].name, name) == 0)
      return &rows[i];
  if (*n == cap)
    return &rows[cap - 1];
  cost_row *r = &rows[(*n)++];
  snprintf(r->name, sizeof r->name, "%s", *n == cap ? "other" : name);
  return r;
}

void cost_add_job(suite *S, const char *group, double run, double score, double traj,
                  double engine, double total)
{
  pthread_mutex_lock(&S->lock);
  S->cost.engine += engine;
  cost_row *r = row_of(S->cost.groups, &S->cost.ngroups, COST_ROWS, group);
  r->n++;
  r->cpu[0] += run;
  r->cpu[1] += score;
  r->cpu[2] += traj;
  r->cpu[3] += total - run - score - traj;
  pthread_mutex_unlock(&S->lock);
}

void cost_add_ref(suite *S, const char *kind, double cpu)
{
  pthread_mutex_lock(&S->lock);
  cost_row *r = row_of(S->cost.refs, &S->cost.nrefs, COST_ROWS, kind);
  r->n++;
  r->cpu[0] += cpu;
  pthread_mutex_unlock(&S->lock);
}

static double children_cpu(void)
{
  struct rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
    return NAN;
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

void cost_mark(suite *S, int what)
{
  const double p = fb_clock_s(CLOCK_PROCESS_CPUTIME_ID), c = children_cpu();
  if (what == COST_START) {
    S->cost.proc0 = p;
    S->cost.child0 = c;
  }
  S->cost.mark_proc[what] = p - S->cost.proc0;
  S->cost.mark_child[what] = c - S->cost.child0;
}

static double sum_rows(const cost_row *rows, size_t n, int col)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += col < 0 ? rows[i].cpu[0] + rows[i].cpu[1] + rows[i].cpu[2] + rows[i].cpu[3]
                 : rows[i].cpu[col];
  return s;
}

static double ms(double s)
{
  return round(s * 1000.0) / 1000.0;
}

json_t *cost_json(const suite *S)
{
  const suite_cost *c = &S->cost;
  json_t *o = json_object(), *g = json_object(), *r = json_object();
  if (o == NULL || g == NULL || r == NULL) {
    json_decref(o), json_decref(g), json_decref(r);
    return NULL;
  }
  for (size_t i = 0; i < c->ngroups; i++)
    json_object_set_new(g, c->groups[i].name,
                        json_pack("{s:I, s:f, s:f, s:f, s:f}", "jobs",
                                  (json_int_t)c->groups[i].n, "runs", ms(c->groups[i].cpu[0]),
                                  "scoring", ms(c->groups[i].cpu[1]), "trajectories",
                                  ms(c->groups[i].cpu[2]), "other", ms(c->groups[i].cpu[3])));
  for (size_t i = 0; i < c->nrefs; i++)
    json_object_set_new(r, c->refs[i].name, json_pack("{s:I, s:f}", "n", (json_int_t)c->refs[i].n,
                                                      "cpu", ms(c->refs[i].cpu[0])));
  json_object_set_new(o, "expand", json_real(ms(c->mark_proc[COST_EXPANDED])));
  json_object_set_new(o, "references", json_real(ms(sum_rows(c->refs, c->nrefs, 0))));
  json_object_set_new(o, "jobs", json_real(ms(sum_rows(c->groups, c->ngroups, -1))));
  json_object_set_new(o, "by_reference", r);
  json_object_set_new(o, "by_group", g);
  json_object_set_new(o, "children_until_runs_end", json_real(ms(c->mark_child[COST_RUNS])));
  json_object_set_new(o, "engine_processes_in_runs", json_real(ms(c->engine)));
  return o;
}

void cost_print(const suite *S, FILE *fp)
{
  const suite_cost *c = &S->cost;
  const double refs = sum_rows(c->refs, c->nrefs, 0), jobs = sum_rows(c->groups, c->ngroups, -1);
  const double runs = sum_rows(c->groups, c->ngroups, 0), score = sum_rows(c->groups, c->ngroups, 1),
               traj = sum_rows(c->groups, c->ngroups, 2);
  const double tables = c->mark_proc[COST_TABLES] - c->mark_proc[COST_RUNS];
  const double report = c->mark_proc[COST_REPORT] - c->mark_proc[COST_TABLES];
  const double end = c->mark_proc[COST_END] - c->mark_proc[COST_REPORT];
  fprintf(fp,
          "fricbench suite: CPU %.1f s: child processes (gnuplot, an engine's node) %.1f s, "
          "set-up %.1f, references %.1f, jobs %.1f (runs %.1f, scoring %.1f, trajectories "
          "%.1f), tables and verdicts %.1f, report %.1f, freeing %.1f (meta.json \"cpu_s\"); "
          "engines' own processes in the runs %.1f s (runs.csv cpu_s counts them; the child "
          "processes' figure only once they are reaped)\n",
          c->mark_proc[COST_END] + c->mark_child[COST_END], c->mark_child[COST_END],
          c->mark_proc[COST_EXPANDED], refs, jobs, runs, score, traj, tables, report, end,
          c->engine);
}
