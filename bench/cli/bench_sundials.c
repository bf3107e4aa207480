/* bench_sundials.c — `fricbench bench`'s SUNDIALS section: CVODE's BDF (cvode-bdf) against
 * GSL's msbdf on the stiff LuGre drift (docs/integrators/sundials.md): both tolerance
 * ladders against one truth, RHS evaluations and CPU time at matched error, measured in
 * this run.  Only in a build with SUNDIALS (FB_HAVE_SUNDIALS); else one line says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fb_cli.h"
#include "fb_dense_wp.h"
#include "fb_integrator_int.h"
#include "fb_model_registry.h"
#include "fb_run.h"

#define SB_NTOL 8    /* tolerances 1e-4 .. 1e-11 */
#define SB_REPEATS 3 /* timed runs of each point, alternating the two solvers; median */
#define SB_SAMPLES 1001
#define SB_TRUTH_TOL 1e-13 /* rk8pd: an explicit pair, independent of both BDF codes */

static const char *const sb_solvers[2] = {"msbdf", "cvode-bdf"};

/* One run of LuGre on drift under integ at tol into tr (may be NULL). */
static int sb_run(const char *integ, double tol, fb_trace *tr, fb_run_result *res, fb_err *err)
{
  fb_case c;
  int st = fb_case_init(&c, "drift", "lugre", integ, err);
  if (st == FB_OK) {
    c.opts.atol = c.opts.rtol = tol;
    c.samples = SB_SAMPLES;
    st = fb_case_prepare(&c, err);
  }
  if (st == FB_OK && tr != NULL)
    st = fb_trace_alloc(tr, SB_SAMPLES, c.sc.plant.n, c.sc.plant.nc, c.md.type->nz);
  if (st == FB_OK) {
    st = fb_case_run(&c, tr, NULL, res);
    if (st != FB_OK)
      fb_err_set(err, st, "%s at tol %g: %s", integ, tol, res->message);
  }
  fb_case_free(&c);
  return st;
}

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The ladders: pts[s][k].nfe and err_grid (= err_steps: the grid is what both answer
 * on), and the median CPU seconds of each point in cpu[s][k]. */
static int sb_ladders(const fb_trace *truth, fb_wp_point pts[2][SB_NTOL],
                      double cpu[2][SB_NTOL], fb_err *err)
{
  for (int k = 0; k < SB_NTOL; k++) {
    double times[2][SB_REPEATS];
    for (int r = 0; r < SB_REPEATS; r++)
      for (int s = 0; s < 2; s++) {
        fb_trace g;
        fb_run_result res;
        const double tol = pow(10.0, -4 - k);
        int st = sb_run(sb_solvers[s], tol, r == 0 ? &g : NULL, &res, err);
        if (st != FB_OK)
          return st;
        times[s][r] = res.cpu_s;
        if (r > 0)
          continue;
        double e = 0.0;
        for (size_t i = 0; i < SB_SAMPLES; i++)
          e = fmax(e, fabs(g.y[i * g.dim] - truth->y[i * truth->dim]));
        fb_trace_free(&g);
        pts[s][k] = (fb_wp_point){.tol = tol, .status = FB_OK, .nfe = res.cnt.nfe,
                                  .nsteps = res.cnt.nsteps, .nrejected = res.cnt.nrejected,
                                  .err_steps = e, .err_grid = e, .err_end = e};
      }
    for (int s = 0; s < 2; s++) {
      qsort(times[s], SB_REPEATS, sizeof(double), cmp_double);
      cpu[s][k] = times[s][SB_REPEATS / 2];
    }
  }
  return FB_OK;
}

/* The CPU time a ladder needs to reach error target: fb_wp_cost_at's interpolation with
 * the time (in ns) in place of the RHS count. */
static double sb_time_at(const fb_wp_point *pts, const double *cpu, double target)
{
  fb_wp_point q[SB_NTOL];
  for (int k = 0; k < SB_NTOL; k++) {
    q[k] = pts[k];
    q[k].nfe = (unsigned long)fmax(1.0, cpu[k] * 1e9);
  }
  return fb_wp_cost_at(q, SB_NTOL, target, 1) * 1e-9;
}

static void sb_cell(FILE *fp, double v, const char *fmt, int width)
{
  if (isnan(v))
    fprintf(fp, " %*s", width, "-");
  else
    fprintf(fp, fmt, v);
}

int fb_bench_sundials(FILE *fp)
{
  if (fb_integrator_find(fb_model_find("lugre"), "cvode-bdf") == NULL) {
    fputs("\nSUNDIALS: not in this build (scripts/bootstrap.sh --sundials): no CVODE section\n",
          fp);
    return FB_EXIT_OK;
  }
  fb_err err = {{0}};
  fb_trace truth;
  fb_run_result res;
  fb_wp_point pts[2][SB_NTOL];
  double cpu[2][SB_NTOL];
  if (sb_run("rk8pd", SB_TRUTH_TOL, &truth, &res, &err) != FB_OK) {
    fprintf(stderr, "fricbench: bench: %s\n", err.msg);
    return FB_EXIT_RUNTIME;
  }
  const int st = sb_ladders(&truth, pts, cpu, &err);
  fb_trace_free(&truth);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: bench: %s\n", err.msg);
    return FB_EXIT_RUNTIME;
  }
  fprintf(fp, "\nstiff LuGre drift (lugre on drift, 1001-point grid): GSL's msbdf against "
              "SUNDIALS CVODE BDF;\nerror = max |x - x_truth| on the grid (truth: rk8pd at "
              "%g); CPU: median of %d alternating runs\n%-7s %8s %10s %10s | %8s %10s %10s\n",
          SB_TRUTH_TOL, SB_REPEATS, "tol", "msbdf RHS", "error", "CPU s", "cvode", "error",
          "CPU s");
  for (int k = 0; k < SB_NTOL; k++)
    fprintf(fp, "%-7.0e %8lu %10.3g %10.3g | %8lu %10.3g %10.3g\n", pts[0][k].tol,
            pts[0][k].nfe, pts[0][k].err_grid, cpu[0][k], pts[1][k].nfe, pts[1][k].err_grid,
            cpu[1][k]);
  fprintf(fp, "at matched error (log-log interpolation along each ladder); ratio = cvode-bdf "
              "/ msbdf\n%-7s %10s %10s %7s | %10s %10s %7s\n",
          "error", "msbdf RHS", "cvode RHS", "ratio", "msbdf s", "cvode s", "ratio");
  for (int e = 5; e <= 9; e++) {
    const double target = pow(10.0, -e);
    const double r0 = fb_wp_cost_at(pts[0], SB_NTOL, target, 1);
    const double r1 = fb_wp_cost_at(pts[1], SB_NTOL, target, 1);
    const double t0 = sb_time_at(pts[0], cpu[0], target);
    const double t1 = sb_time_at(pts[1], cpu[1], target);
    fprintf(fp, "%-7.0e", target);
    sb_cell(fp, r0, " %10.0f", 10);
    sb_cell(fp, r1, " %10.0f", 10);
    sb_cell(fp, r1 / r0, " %7.2f", 7);
    fputs(" |", fp);
    sb_cell(fp, t0, " %10.3g", 10);
    sb_cell(fp, t1, " %10.3g", 10);
    sb_cell(fp, t1 / t0, " %7.2f", 7);
    fputc('\n', fp);
  }
  fputs("-: not reached by the ladder (tol 1e-4 .. 1e-11)\n", fp);
  return FB_EXIT_OK;
}
