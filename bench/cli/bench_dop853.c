/* bench_dop853.c — `fricbench bench`'s work-precision section: dop853 against rk8pd as the
 * inner stepper of the event-driven scheme on stick-slip, RHS evaluations at matched error
 * (docs/integrators/dop853.md; issue 29).  Counts, not times: the same on every machine. */
#include <math.h>
#include <stdio.h>

#include "fb_cli.h"
#include "fb_dense_wp.h"

#define WP_NTOL 8 /* tolerances 1e-6 .. 1e-13 */

static const char *const wp_steppers[2] = {"rk8pd", "dop853"};

/* Both ladders against one truth, then the ratios at matched error 1e-8 .. 1e-12 (at the
 * step ends: the solvers' errors; on the grid: what the recorder makes of them). */
int fb_bench_dop853(FILE *fp)
{
  fb_wp_truth tr;
  fb_err err = {{0}};
  if (fb_wp_truth_init(&tr, "stick-slip", NULL, 1001, &err) != FB_OK) {
    fprintf(stderr, "fricbench: bench: %s\n", err.msg);
    return FB_EXIT_RUNTIME;
  }
  fb_wp_point pts[2][WP_NTOL];
  int rc = FB_EXIT_OK;
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < WP_NTOL; k++)
      if (fb_wp_measure(&tr, wp_steppers[s], pow(10.0, -6 - k), &pts[s][k], &err) != FB_OK) {
        fprintf(stderr, "fricbench: bench: %s\n", err.msg);
        rc = FB_EXIT_RUNTIME;
      }
  fb_wp_truth_free(&tr);
  fprintf(fp, "\nevent-driven stick-slip (switching/event, 1001-point grid): rk8pd against "
              "dop853 as the inner stepper;\nerrors in x against dop853 at %g read through its "
              "dense output\n%-7s %8s %10s %10s %8s %10s %10s\n",
          FB_WP_TRUTH_TOL, "tol", "rk8pd RHS", "err steps", "err grid", "dop853", "err steps",
          "err grid");
  for (int k = 0; k < WP_NTOL; k++)
    fprintf(fp, "%-7.0e %8lu %10.3g %10.3g %8lu %10.3g %10.3g\n", pts[0][k].tol, pts[0][k].nfe,
            pts[0][k].err_steps, pts[0][k].err_grid, pts[1][k].nfe, pts[1][k].err_steps,
            pts[1][k].err_grid);
  fprintf(fp, "RHS at matched error (log-log interpolation along each ladder); ratio = dop853 "
              "/ rk8pd\n%-7s %10s %10s %7s | %10s %10s %7s\n",
          "error", "rk8pd", "dop853", "steps", "rk8pd", "dop853", "grid");
  for (int e = 8; e <= 12; e++) {
    const double target = pow(10.0, -e);
    double c[2][2];
    for (int s = 0; s < 2; s++)
      for (int g = 0; g < 2; g++)
        c[s][g] = fb_wp_cost_at(pts[s], WP_NTOL, target, g);
    fprintf(fp, "%-7.0e", target);
    for (int g = 0; g < 2; g++) {
      const double v[3] = {c[0][g], c[1][g], c[1][g] / c[0][g]};
      for (int i = 0; i < 3; i++)
        if (isnan(v[i]))
          fprintf(fp, " %*s", i < 2 ? 10 : 7, "-");
        else
          fprintf(fp, i < 2 ? " %10.0f" : " %7.2f", v[i]);
      fputs(g == 0 ? " |" : "\n", fp);
    }
  }
  fputs("-: not reached by the ladder (tol 1e-6 .. 1e-13)\n", fp);
  return rc;
}
