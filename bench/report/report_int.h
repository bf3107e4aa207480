/* report_int.h — what the report's files share.  They call each other in one direction
 * only (scripts/check-layers.sh refuses a call cycle between files), bottom to top:
 *   report_util.c      strings, paths, runs.csv/orders.csv rows, series, the plot builder
 *   report_gnuplot.c   the gnuplot processes
 *   report_draw.c      a plot entry, its data file and gnuplot run, plots drawn early
 *   report_contact.c, report_spatial.c, report_pract.c, report_two_beam.c,
 *   report_awrejcewicz.c, report_frame.c   plot kinds of one topic each
 *   report_plots.c     every plot kind (calls the three above)
 *   report_html.c      the page (calls report_pract.c's table)
 *   report.c           the driver: loads, draws, writes (fb_report.h)
 * Private to the report: not installed, not part of the fb_ API. */
#ifndef FB_REPORT_INT_H
#define FB_REPORT_INT_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fb_report.h"
#include "fb_verdicts.h"
#include "fb_seed_claims.h"
#include "fb_csv.h"
#include "fb_gzcsv.h"
#include "fb_io.h"
#include "fb_metrics.h"
#include "fb_paths.h"

/* The drift plot's reading line (m per forcing cycle): where its sentence splits models, not
 * a verdict (verdicts.csv judges drift as relative growth, docs/design.md §10). */
#define DRIFT_READING_LINE 1e-6
#define PATH_LEN 2048
/* The plots' data files: DIR/plots/data/<name>.dat.gz (write_data). */
#define FB_DATA_EXT ".dat.gz"
#define MAX_SERIES 64  /* series per plot */
#define MAX_POINTS 64  /* points per series */
#define MAX_PLOTS 96
#define MAX_NAMES 128  /* distinct models / scenarios / variants */
#define FB_PI 3.14159265358979323846
#define ERR_FLOOR 1e-12 /* errors below (round-off) are drawn at this level */
#define ERR_CEIL 1e3   /* errors above (a blow-up of an "ok" run) are drawn at this level */

/* A growing string; on allocation failure it stops growing and remembers it. */
typedef struct sbuf {
  char *s;
  size_t n, cap;
  int bad;
} sbuf;

#if defined(__GNUC__)
#define FB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FB_PRINTF(a, b)
#endif

typedef struct run {
  long id;
  const char *group, *tag, *scenario, *model, *integrator, *mode, *sweep, *sparams, *ref,
      *status, *message;
  double h, atol, value, t_reached, nsteps, nfe;
  double err_x_l2, disc_x_l2, mod_x_l2, stick_time, stick_time_ref, missed, spurious, drift,
      drift_per_cycle, drift_rate,
      chatter_rate, chatter_v_rms, chatter_F_tv, wall_s, cpu_s;
  double path_err_max, dir_err_max, stop_time_err; /* 2-D contacts (docs/design.md §13) */
  /* normal contact (NaN for friction-only runs) */
  double e_nominal, e_eff, t_imp_err, pen_max, lambda_min;
  int ok, budget;
} run;

typedef struct runs {
  fb_csv t;
  run *r;
  size_t n;
} runs;

typedef struct orders {
  fb_csv t;
  int c_scenario, c_model, c_integrator, c_tag, c_points, c_order_x, c_order_v, c_err, c_h;
  int present;
} orders;

typedef struct names {
  const char *s[MAX_NAMES];
  size_t n;
} names;

typedef struct plot_entry {
  char name[160];   /* file stem under plots/ */
  char title[256];
  sbuf reading;     /* one sentence from the data (plain text) */
  int png_only;     /* no SVG: trajectory overlays (12+ series of 2001 points made 1.3-3.8
                       MB SVGs, 20 MB of a 94 MB results directory; the PNG and the
                       trajectory files carry everything) */
  int pending;       /* its gnuplot jobs still running */
  int failed;        /* one of them failed (err says why) */
  int ok;
  char err[600];
  int *tmpfd;       /* inflated trajectory copies its gnuplot jobs read (traj_source) */
  size_t ntmp;
  int queued;       /* its gnuplot jobs not started yet */
} plot_entry;

/* The gnuplot processes the report draws with, each kept for many plots (report_gnuplot.c);
 * shared by the threads that draw early plots and the report after them. */
typedef struct gp_pool gp_pool;

/* A gnuplot process reading plots' commands (report_gnuplot.c). */
typedef struct gp_worker {
  pid_t pid;          /* 0: none */
  int in;             /* our end of its standard input: a socket, so that send() to a
                         process that died fails instead of raising SIGPIPE */
  int err;            /* our end of its standard error: messages, then the plot's mark */
  int busy;           /* taken by a job (the pool's) */
  unsigned long mark; /* the number in its current plot's mark */
  char tail[4096];    /* the last of what it printed during its current plot */
  size_t ntail;
} gp_worker;

/* A plot being drawn in one format by a gnuplot process: one of the pool's, or its own
 * (used once: an SVG). */
typedef struct gp_job {
  gp_worker *w;        /* the pool's, or NULL: own */
  gp_worker own;
  size_t plot;         /* index into report.plots */
  const char *script;
  fb_outfile of;       /* its PNG or SVG under a temporary name */
} gp_job;

/* A gnuplot job to start when a slot is free. */
typedef struct gp_wait {
  size_t plot;
  int once;             /* in a process of its own (an SVG) */
  const char *script;
  char *args;           /* the assignments, without out= */
  char spath[PATH_LEN]; /* the script's path */
  char path[PATH_LEN];  /* the output */
} gp_wait;

#define MAX_GP_JOBS 16
typedef struct report {
  const char *dir;
  gp_pool *pool;
  gp_job jobs[MAX_GP_JOBS];
  size_t njobs, maxjobs;
  gp_wait queue[2 * MAX_PLOTS]; /* FIFO: queue[qhead..qtail) */
  size_t qhead, qtail;
  char *meta;       /* meta.json text, NULL when absent or older than runs.csv */
  char scripts[PATH_LEN];
  char gnuplot[PATH_LEN];
  runs R;
  orders O;
  plot_entry plots[MAX_PLOTS];
  size_t nplots;
  size_t nfailed;
  struct series_set *S, *C; /* series of the plot being built (C: work-precision's
                             * fixed-step ladders); scratch, reused by every plot */
  struct fb_report_early *early; /* plots drawn during the runs, taken as drawn (or NULL) */
  const fb_vtable *vt; /* verdicts.csv, for plots that show a verdict beside a timing */
} report;

/* The plots drawn during the runs (fb_report.h): report.c fills it, early_take
 * (report_draw.c) hands them to the report. */
struct fb_report_early {
  pthread_mutex_t lock;
  plot_entry plots[MAX_PLOTS]; /* drawn, in the order they ended */
  size_t n;
  gp_pool *pool; /* the gnuplot processes, the report's after the runs' */
};

/* Rows of one (model, integrator, tag, sweep) within a group and scenario. */
typedef struct series {
  const char *model, *integrator, *tag, *sweep;
  size_t idx[MAX_POINTS];
  size_t n;
} series;

typedef struct series_set {
  series s[MAX_SERIES];
  size_t n;
} series_set;

/* The rows of a series that a plot draws, and the series' legend label. */
typedef struct drawn {
  const run *row[MAX_POINTS];
  size_t n;
  char label[160];
} drawn;

#define PB_MAX_VARS 8
/* One plot's data file and gnuplot string variables: a plot kind fills it, plot_draw
 * writes the file and runs the script on it. */
typedef struct plot_build {
  sbuf data;     /* plots/data/<name>.dat; for series, blocks separated by two blank
                  * lines, each opened by its quoted legend entry.  Left empty by a plot
                  * drawn from DIR/traj/ alone (trajectory overlays): no data file then. */
  size_t nb;     /* blocks (series) in data */
  struct {
    const char *name;
    sbuf value;
  } var[PB_MAX_VARS]; /* passed to the script in the order first named (pb_var) */
  size_t nvar;
  int too_many;   /* more than PB_MAX_VARS names: a bug, reported by plot_draw */
  int log_errors; /* set by pb_err_point: errors on a log axis, clamped to [ERR_FLOOR,
                   * ERR_CEIL]; the script gets a note counting the clamped points */
  size_t nclamp, nceil;
} plot_build;


long cheapest_at(const runs *R, const char *scenario, const char *model, double target);
long file_size(const char *path);
int find_in_path(const char *exe, char *out, size_t len);
int gp_render(report *rp, plot_entry *p, const char *script, const sbuf *vars,
                     fb_err *err);
int gp_wait_all(report *rp, fb_err *err);
gp_pool *gp_pool_new(void); /* NULL: out of memory */
/* Ends the pool's processes (none may be drawing). */
void gp_pool_free(gp_pool *pool);
/* Drop the gnuplot jobs queued and not started (after a failure). */
void gp_discard(report *rp);
void group_scenarios(const runs *R, const char *group, names *out);
int in_cost_groups(const run *r);
int is_closed_form(const runs *R, const char *scenario);
int mkdir_one(const char *path);
const char *model_color(const char *model);
void names_add(names *l, const char *s);
long names_find(const names *l, const char *s);
long orders_find(const orders *O, const char *scenario, const char *model,
                        const char *integrator, const char *tag);
int orders_load(orders *O, const char *dir);
double param_get(const char *list, const char *name);
int path_fmt(char *buf, size_t len, const char *fmt, ...) FB_PRINTF(3, 4);
void pb_block(plot_build *b, const char *title);
void pb_err_point(plot_build *b, double x, double e);
void pb_free(plot_build *b);
void pb_looks(plot_build *b, const series *s, int dt);
sbuf *pb_var(plot_build *b, const char *name);
int plot_draw(report *rp, plot_entry *p, const char *script, const plot_build *b,
                     fb_err *err, const char *fmt, ...) FB_PRINTF(6, 7);
plot_entry *plot_new(report *rp, const char *title, const char *fmt, ...) FB_PRINTF(3, 4);
void plot_skip(report *rp, plot_entry *p, const char *why);
void reading_lead(sbuf *rd, const char *lead);
int report_plots_all(report *rp, fb_err *err);
/* The paths in the plane of a 2-D scenario (report_spatial.c). */
int xy_draw(report *rp, plot_entry *p, const char *scenario, fb_err *err);
/* One such plot per scenario with a path error (the 2-D scenarios' baseline and spatial runs). */
int plot_xy_all(report *rp, fb_err *err);
/* The normal-contact plots (report_contact.c): effective against nominal e, bounce
 * trajectories against the reference, cost against stiffness. */
int plot_contact_restitution(report *rp, fb_err *err);
/* conveyor-wall's coordinates, normal forces and energy balance (report_conveyor.c). */
int plot_conveyor(report *rp, fb_err *err);
int plot_contact_traj(report *rp, fb_err *err);
int plot_contact_cost(report *rp, fb_err *err);
/* The two-beam system's plots (report_two_beam.c): phase curves, the h x c_N x d_N grid. */
int plot_two_beam(report *rp, fb_err *err);
/* The elastic frame (report_frame.c): tip velocity, gap and normal force per case against
 * the fine-step reference, and the cost per step against the element count. */
int plot_frame(report *rp, fb_err *err);
/* The chain's cost against n (report_scale.c, group `scale`): per step and per simulated
 * second, log-log, with the growth exponent in the reading. */
int plot_scale(report *rp, fb_err *err);
/* The practitioners' questions (report_pract.c): creep against r and the yaw sweep's
 * errors; and the report's table of the sliding ratio and rest energy. */
int plot_practitioner(report *rp, fb_err *err);
void html_practitioner(sbuf *h, const report *rp);
/* [Xiong2013] fig. 11 (report_awrejcewicz.c): group awrejcewicz's phase curves against the
 * scenario's limit cycle, with period, x_a, x_b, stick fraction and orbit distances. */
int plot_awrejcewicz(report *rp, fb_err *err);
/* sphere-drop (report_sphere.c): the fig. 7 panels per treatment against the closed form,
 * and its section of report.html (key numbers, the models that cannot take part). */
int plot_sphere(report *rp, fb_err *err);
void html_sphere(sbuf *h, const report *rp);
/* Colour of a normal treatment by its label (fb_normal_variants), also for "label_e0.3". */
const char *treatment_color(const char *tag);
/* The plots of kind `group` for `scenario` alone, or of the whole group for a kind that
 * decides itself what it draws (early plots): FB_OK, or a failure that is not a plot's
 * own; FB_EINVAL when no kind has that group. */
int report_plot_one(report *rp, const char *group, const char *scenario, fb_err *err);
/* The early plot named `name` moved into p (1), or 0 when none was drawn early. */
int early_take(report *rp, plot_entry *p, const char *name);
void run_step(const run *r, char *buf, size_t len);
void runs_free(runs *R);
int runs_load(runs *R, const char *dir, fb_err *err);
/* R's rows from its parsed table R->t (`path` names it in messages). */
int runs_fill(runs *R, const char *path, fb_err *err);
void sb_change(sbuf *b, double from, double to);
void sb_dat(sbuf *b, double v);
void sb_free(sbuf *b);
void sb_gword(sbuf *b, const char *s);
/* A gnuplot single-quoted string literal. */
void sb_gq(sbuf *b, const char *s);
void sb_html(sbuf *b, const char *s);
void sb_num(sbuf *b, double v);
void sb_printf(sbuf *b, const char *fmt, ...) FB_PRINTF(2, 3);
void sb_vprintf(sbuf *b, const char *fmt, va_list ap) FB_PRINTF(2, 0);
void sb_puts(sbuf *b, const char *s);
const char *sb_str(const sbuf *b);
void series_collect(const runs *R, const char *group, const char *scenario,
                           series_set *S);
size_t series_drawn(const runs *R, const series *s, int (*keep)(const run *r), drawn *d);
void series_label(const series *s, char *buf, size_t len);
int streq(const char *a, const char *b);
int traj_dims(const char *path, int *n, int *nc);
double traj_dt(const char *path);
double traj_first_t(const char *path);
int traj_path(const char *dir, const run *r, char *buf, size_t len);
void traj_source(plot_entry *p, const char *path, char *buf, size_t len);
/* Close plot p's inflated copies: its gnuplot processes are started (they inherited
 * them) or will not be. */
void plot_release(plot_entry *p);
void var_s(sbuf *v, const char *name, const char *value);
int write_data(report *rp, const char *name, const sbuf *data, char *path, size_t len,
                      fb_err *err);
int write_html(report *rp, const fb_vtable *vt, fb_err *err);

/* The accuracy targets (E_tot, m s^0.5) at which work-precision and the numbers table
 * compare costs (report_plots.c). */
#define N_WP_TARGETS 4
extern const double wp_targets[N_WP_TARGETS];

#endif
