/* fb_peer_run.c — fricbench's side of the peers harness (bench/peers/run_peers.py,
 * docs/peers.md): one case run once, its counts and its own CPU time printed as one JSON
 * line, the output grid and the step ends written on request.
 *
 *   fb-peer-run --scenario S --model M [--integrator I] [--stepper S] [--h H | --tol T]
 *               [--set NAME=VALUE]... [--samples N] [--grid FILE] [--steps FILE]
 *
 * What is timed is what `fricbench run` times (fb_case_run: the integrator's drive loop
 * and the recorder filling the grid, CLOCK_THREAD_CPUTIME_ID around fb_drive); set-up
 * (plant, model, integrator allocation) and this process's start are outside.  --stepper
 * names the inner stepper of a model-owned scheme (switching/event: rk8pd or dop853),
 * which the public API (fricbench.h) does not set.  --steps re-runs the case with an
 * observer that records every accepted step end (t and the positions): the observer
 * turns off the recorder's quiet path, so that run is never the timed one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_run.h"

typedef struct peer_args {
  const char *scenario, *model, *integrator, *stepper, *grid, *steps;
  double h, tol;
  size_t samples;
  const char *sets[32];
  size_t nset;
} peer_args;

static int peer_usage(const char *what, const char *opt, const char *value)
{
  fprintf(stderr, "fb-peer-run: %s%s%s%s\nusage: fb-peer-run --scenario S --model M "
                  "[--integrator I] [--stepper S] [--h H | --tol T] [--set NAME=VALUE]... "
                  "[--samples N] [--grid FILE] [--steps FILE]\n",
          opt != NULL ? opt : "", value != NULL ? " " : "", value != NULL ? value : "", what);
  return 2;
}

/* A number > 0 (h, tol) or an integer >= 2 (samples): 0, or -1 when v is not one. */
static int peer_positive(const char *v, double *out)
{
  char *end = NULL;
  *out = strtod(v, &end);
  return end != v && *end == '\0' && *out > 0 && isfinite(*out) ? 0 : -1;
}

static int peer_parse(int argc, char **argv, peer_args *a)
{
  memset(a, 0, sizeof *a);
  a->h = a->tol = NAN;
  a->samples = 1001;
  for (int i = 1; i < argc; i += 2) {
    const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    double x = 0.0;
    if (v == NULL)
      return peer_usage(" needs a value", k, NULL);
    if (strcmp(k, "--scenario") == 0)
      a->scenario = v;
    else if (strcmp(k, "--model") == 0)
      a->model = v;
    else if (strcmp(k, "--integrator") == 0)
      a->integrator = v;
    else if (strcmp(k, "--stepper") == 0)
      a->stepper = v;
    else if (strcmp(k, "--grid") == 0)
      a->grid = v;
    else if (strcmp(k, "--steps") == 0)
      a->steps = v;
    else if (strcmp(k, "--h") == 0 || strcmp(k, "--tol") == 0) {
      if (peer_positive(v, &x) != 0)
        return peer_usage(" is not allowed: give a finite number > 0", k, v);
      *(k[2] == 'h' ? &a->h : &a->tol) = x;
    } else if (strcmp(k, "--samples") == 0) {
      if (peer_positive(v, &x) != 0 || x < 2 || x > 1e7 || x != floor(x))
        return peer_usage(" is not allowed: give an integer in [2, 1e7]", k, v);
      a->samples = (size_t)x;
    } else if (strcmp(k, "--set") == 0) {
      if (a->nset == 32)
        return peer_usage(": at most 32 are allowed", k, v);
      a->sets[a->nset++] = v;
    } else
      return peer_usage(" is not an option (allowed: --scenario, --model, --integrator, "
                        "--stepper, --h, --tol, --set, --samples, --grid, --steps)", k, NULL);
  }
  if (a->scenario == NULL || a->model == NULL)
    return peer_usage("--scenario and --model are required", NULL, NULL);
  return 0;
}

static int peer_case(fb_case *c, const peer_args *a, fb_err *err)
{
  int st = fb_case_init(c, a->scenario, a->model, a->integrator, err);
  if (st != FB_OK)
    return st;
  for (size_t i = 0; st == FB_OK && i < a->nset; i++)
    st = fb_case_set(c, a->sets[i], err);
  if (st == FB_OK) {
    c->opts.stepper = a->stepper;
    c->opts.h = a->h;
    c->opts.atol = c->opts.rtol = a->tol;
    c->samples = a->samples;
    st = fb_case_prepare(c, err);
  }
  if (st != FB_OK)
    fb_case_free(c);
  return st;
}

/* The step ends: t and the n positions, one line each. */
typedef struct peer_steps {
  FILE *fp;
  size_t n;
} peer_steps;

static int peer_step(void *ctx, double t, const double *y)
{
  const peer_steps *s = ctx;
  fprintf(s->fp, "%.17g", t);
  for (size_t i = 0; i < s->n; i++)
    fprintf(s->fp, ",%.17g", y[i]);
  fputc('\n', s->fp);
  return 0;
}

static int peer_write_grid(const fb_trace *g, const char *path)
{
  FILE *fp = fopen(path, "w");
  if (fp == NULL)
    return -1;
  for (size_t k = 0; k < g->filled; k++) {
    fprintf(fp, "%.17g", g->t[k]);
    for (size_t i = 0; i < 2 * g->n; i++)
      fprintf(fp, ",%.17g", g->y[k * g->dim + i]);
    fputc('\n', fp);
  }
  return fclose(fp);
}

/* The run with the step-end observer (untimed). */
static int peer_steps_run(const peer_args *a, fb_err *err)
{
  fb_case c;
  int st = peer_case(&c, a, err);
  if (st != FB_OK)
    return st;
  peer_steps s = {fopen(a->steps, "w"), c.sc.plant.n};
  fb_trace g;
  fb_run_result res;
  if (s.fp == NULL)
    st = fb_err_set(err, FB_EIO, "cannot write %s", a->steps);
  else if ((st = fb_trace_alloc(&g, c.samples, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz)) ==
           FB_OK) {
    const fb_observer obs = {peer_step, &s};
    st = fb_case_run(&c, &g, &obs, &res);
    if (st != FB_OK)
      fb_err_set(err, st, "%s", res.message);
    fb_trace_free(&g);
  }
  if (s.fp != NULL && fclose(s.fp) != 0 && st == FB_OK)
    st = fb_err_set(err, FB_EIO, "writing %s failed", a->steps);
  fb_case_free(&c);
  return st;
}

int main(int argc, char **argv)
{
  peer_args a;
  if (peer_parse(argc, argv, &a) != 0)
    return 2;
  fb_err err = {{0}};
  fb_case c;
  if (peer_case(&c, &a, &err) != FB_OK) {
    fprintf(stderr, "fb-peer-run: %s\n", err.msg);
    return 2;
  }
  fb_trace g;
  if (fb_trace_alloc(&g, c.samples, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz) != FB_OK) {
    fprintf(stderr, "fb-peer-run: out of memory\n");
    return 1;
  }
  fb_run_result res;
  const int st = fb_case_run(&c, &g, NULL, &res);
  printf("{\"status\": %d, \"message\": \"%s\", \"integrator\": \"%s\", \"cpu_s\": %.9g, "
         "\"wall_s\": %.9g, \"nsteps\": %lu, \"nrejected\": %lu, \"nfe\": %lu, \"njac\": %lu, "
         "\"nevents\": %lu, \"ninner\": %lu, \"t_reached\": %.17g}\n",
         st, st == FB_OK ? "" : "failed (see stderr)", c.integ->name, res.cpu_s, res.wall_s,
         res.cnt.nsteps, res.cnt.nrejected, res.cnt.nfe, res.cnt.njac, res.cnt.nevents,
         res.cnt.ninner, res.t_reached);
  if (st != FB_OK)
    fprintf(stderr, "fb-peer-run: %s\n", res.message);
  int rc = st == FB_OK ? 0 : 1;
  if (rc == 0 && a.grid != NULL && peer_write_grid(&g, a.grid) != 0) {
    fprintf(stderr, "fb-peer-run: writing %s failed\n", a.grid);
    rc = 1;
  }
  fb_trace_free(&g);
  fb_case_free(&c);
  if (rc == 0 && a.steps != NULL && peer_steps_run(&a, &err) != FB_OK) {
    fprintf(stderr, "fb-peer-run: %s\n", err.msg);
    rc = 1;
  }
  return rc;
}
