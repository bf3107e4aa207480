/* cmd_impacts.c — `fricbench impacts`: the classic contact-model comparison (Flores &
 * Lankarani; docs/design.md §12): effective restitution against nominal e per normal
 * treatment on bouncing-ball, with the first impact's time error, the penetration and the
 * cost.  Writes DIR/impacts.csv and prints the table.
 *
 * Effective e of a contact phase = -v_out/v_in (gap rates at the gap's zero crossings);
 * the table shows the first phase and the mean over the first (up to) three complete ones.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fb_cli.h"
#include "fb_contact_metrics.h"
#include "fb_io.h"
#include "fb_normal_int.h"
#include "fb_run.h"
#include "fb_parse.h"

static const char impacts_help[] =
    "usage: fricbench impacts [--out DIR]\n"
    "  effective restitution of every normal-contact treatment on bouncing-ball for nominal\n"
    "  e in {0.3, 0.5, 0.7, 0.9} (auto parameters), written to DIR/impacts.csv (default\n"
    "  results/impacts) and printed.  Columns: treatment, e_nominal, e_first (first impact),\n"
    "  e_mean (mean of the first three), t1_err (first impact time error, s), t_rest (newton:\n"
    "  start of persistent contact; closed form t1 (1+e)/(1-e)), max_pen (m), min_lambda (N),\n"
    "  nfe (right-hand sides).\n";


int fb_cmd_impacts(int argc, char **argv)
{
  const char *out = "results/impacts";
  static const struct option lo[] = {{"out", required_argument, NULL, 'o'},
                                     {"help", no_argument, NULL, 'h'},
                                     {NULL, 0, NULL, 0}};
  int ch;
  optind = 1;
  opterr = 0; /* getopt's own message would be a second line */
  while ((ch = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
    if (ch == 'o')
      out = optarg;
    else if (ch == 'h') {
      fputs(impacts_help, stdout);
      return FB_EXIT_OK;
    } else {
      char typed[160];
      fb_text_escape(argv[optind - 1], typed, sizeof typed);
      fprintf(stderr, "fricbench: impacts: %s '%s': allowed are --out DIR and --help\n",
              ch == ':' ? "option needs a value" : "unknown option", typed);
      return FB_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "fricbench: impacts: unexpected argument '%s': allowed are --out DIR\n",
            argv[optind]);
    return FB_EXIT_USAGE;
  }
  /* an unwritable --out is bad input (exit 2), and a refused one leaves no directory */
  const size_t had = fb_existing_prefix(out);
  if (*out == '\0' || fb_mkdir_p(out) != 0) {
    fprintf(stderr, "fricbench: impacts: --out '%s' cannot be created: %s; give a writable "
                    "directory\n", out, *out ? strerror(errno) : "empty name");
    fb_rmdir_back(out, had);
    return FB_EXIT_USAGE;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/impacts.csv", out);
  fb_outfile of;
  fb_err oerr = {{0}};
  if (fb_outfile_open(&of, path, "--out", &oerr) != FB_OK) {
    fprintf(stderr, "fricbench: impacts: %s; give a writable directory\n", oerr.msg);
    fb_rmdir_back(out, had);
    return FB_EXIT_USAGE;
  }
  FILE *fp = of.fp;
  static const double es[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  fprintf(fp, "treatment,e_nominal,e_first,e_mean,t1_err,t_rest,max_pen,min_lambda,nfe\n");
  printf("%-34s %5s %8s %8s %10s %9s %10s %8s\n", "treatment", "e", "e_first", "e_mean",
         "t1_err", "t_rest", "max_pen", "nfe");
  int rc = FB_EXIT_OK;
  for (const fb_normal_variant *nv = fb_normal_variants; nv->label != NULL; nv++)
    for (size_t k = 0; k < sizeof es / sizeof es[0]; k++) {
      fb_case c;
      fb_err err = {0};
      char a1[64], a2[64];
      snprintf(a1, sizeof a1, "e=%.17g", es[k]);
      snprintf(a2, sizeof a2, "normal=%s", nv->normal);
      int st = fb_case_init(&c, "bouncing-ball", "naive-sign", NULL, &err);
      if (st == FB_OK)
        st = fb_case_set(&c, a1, &err);
      if (st == FB_OK)
        st = fb_case_set(&c, a2, &err);
      if (st == FB_OK && nv->set != NULL)
        st = fb_case_set(&c, nv->set, &err);
      if (st == FB_OK)
        st = fb_case_prepare(&c, &err);
      fb_impact_stats s;
      fb_counters cnt;
      if (st == FB_OK)
        st = fb_contact_run_stats(&c.pb, &c.opts, &s, &cnt, &err);
      if (st != FB_OK) {
        fprintf(stderr, "fricbench impacts: %s e=%g: %s\n", nv->label, es[k], err.msg);
        fb_case_free(&c);
        rc = FB_EXIT_RUNTIME;
        continue;
      }
      const double t1 = sqrt(2.0 / 9.81);
      double e1;
      const double em = fb_impact_e_eff(&s, 3, &e1);
      const double t1e = s.n > 0 ? s.t_in[0] - t1 : (double)NAN;
      fprintf(fp, "%s,%g,%.6g,%.6g,%.3e,%.12g,%.4e,%.4e,%lu\n", nv->label, es[k], e1, em,
              t1e, s.t_rest, s.max_pen, s.min_lambda, cnt.nfe);
      printf("%-34s %5.2f %8.4f %8.4f %10.2e %9.6f %10.3e %8lu\n", nv->label, es[k], e1, em,
             t1e, s.t_rest, s.max_pen, cnt.nfe);
      fb_case_free(&c);
    }
  if (fb_outfile_commit(&of, &oerr) != FB_OK) {
    fprintf(stderr, "fricbench: impacts: %s\n", oerr.msg);
    return FB_EXIT_RUNTIME;
  }
  printf("written %s\n", path);
  return rc;
}
