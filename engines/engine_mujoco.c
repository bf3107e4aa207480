/* engine_mujoco.c — MuJoCo 3.3.8 as a treatment, through its official WebAssembly build
 * (npm `mujoco-js` 0.0.7) run by node (docs/engines/mujoco.md; the contract:
 * docs/engines.md §1, §4).
 *
 * The C side of an out-of-process adapter: one node process per worker thread
 * (engines/mujoco/adapter.mjs), started by the first `open` of that thread and kept for
 * the thread's later runs (loading the 11 MB WebAssembly module takes seconds); each run
 * writes its case as one JSON line and then frames of k steps' applied force, gravity and
 * belt velocity, and reads k rows back: k = 1 (lock step: the force of the next step is
 * fricbench's, computed from the state the engine answered) unless the forcing depends on
 * t only, when the glue batches (docs/engines.md §4).  The step frames are binary
 * little-endian doubles, so a run replays to the bit.  If the process dies the run in flight fails with node's exit status
 * in its message and the next `open` starts a new one; the time spent waiting for node is
 * inside the driver's step, so it counts in the run's wall time.
 *
 * Steppers: MuJoCo's integrators, `mujoco-euler` (semi-implicit Euler, MuJoCo's default),
 * `mujoco-implicitfast`, `mujoco-rk4`.  Settings with MuJoCo's names (its defaults):
 * cone (pyramidal), impratio (1), solref (0.02 s, damping ratio 1), solimp (0.9 0.95 0.001
 * 0.5 2), noslip_iterations (0); `settle`, the settling period at rest (docs/engines.md §2).
 */
#define _GNU_SOURCE /* pipe2 (O_CLOEXEC), posix_spawn, sigaction, fdopen */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fb_engine.h"

extern char **environ;

/* The pin: mujoco-js 0.0.7 is the WebAssembly build of MuJoCo 3.3.8. */
#define MJ_PACKAGE_VERSION "0.0.7"
#define MJ_MUJOCO_VERSION "3.3.8"

enum { MJ_CONE_PYRAMIDAL = 0, MJ_CONE_ELLIPTIC = 1 };
static const char *const mj_cone_names[] = {"pyramidal", "elliptic", NULL};

typedef struct mj_settings {
  double cone, impratio, solref_timeconst, solref_dampratio, solimp_dmin, solimp_dmax,
      solimp_width, solimp_midpoint, solimp_power, noslip_iterations, settle;
} mj_settings;

#define MJ_AUTO(field, unit, doc, lo, hi, auto_doc)                                          \
  {#field, unit, doc, offsetof(mj_settings, field), NAN, lo, hi, FB_PARAM_AUTO, auto_doc, NULL}
static const fb_param_desc mj_desc[] = {
    {"cone", "", "friction cone: pyramidal (MuJoCo's default) or elliptic",
     offsetof(mj_settings, cone), MJ_CONE_PYRAMIDAL, 0, 1, FB_PARAM_CHOICE, NULL, mj_cone_names},
    {"impratio", "1", "ratio of frictional to normal constraint impedance (elliptic cones)",
     offsetof(mj_settings, impratio), 1, 1e-4, 1e4, 0, NULL, NULL},
    MJ_AUTO(solref_timeconst, "s", "solref[0]: contact time constant", 0, 10,
            "MuJoCo's 0.02 s"),
    MJ_AUTO(solref_dampratio, "1", "solref[1]: contact damping ratio", 0, 100,
            "MuJoCo's 1; with a nominal restitution e: -ln e / sqrt(pi^2 + ln^2 e)"),
    MJ_AUTO(solimp_dmin, "1", "solimp[0]: impedance at zero penetration", 1e-4, 0.9999,
            "MuJoCo's 0.9"),
    MJ_AUTO(solimp_dmax, "1", "solimp[1]: impedance at the width", 1e-4, 0.9999,
            "MuJoCo's 0.95"),
    MJ_AUTO(solimp_width, "m", "solimp[2]: penetration over which the impedance moves", 0, 10,
            "MuJoCo's 0.001 m"),
    MJ_AUTO(solimp_midpoint, "1", "solimp[3]: midpoint of the impedance sigmoid", 0, 1,
            "MuJoCo's 0.5"),
    MJ_AUTO(solimp_power, "1", "solimp[4]: power of the impedance sigmoid", 1, 100,
            "MuJoCo's 2"),
    {"noslip_iterations", "1", "iterations of the noslip post-solver (0: off)",
     offsetof(mj_settings, noslip_iterations), 0, 0, 100000, FB_PARAM_INT, NULL, NULL},
    {"settle", "s", "settling period at rest before t0 (the contact finds its depth)",
     offsetof(mj_settings, settle), 0.5, 0, 100, 0, NULL, NULL},
};
static const fb_param_set mj_set = {sizeof(mj_settings), 11, mj_desc};

/* MuJoCo's defaults of solref and solimp (its documentation, "solref", "solimp"). */
static const double mj_solref_def[2] = {0.02, 1.0};
static const double mj_solimp_def[5] = {0.9, 0.95, 0.001, 0.5, 2.0};

/* ---- the node process of one worker thread */

typedef struct mj_proc {
  pid_t pid;   /* 0: none */
  FILE *to;    /* its stdin */
  FILE *from;  /* its stdout */
  char line[2048];
} mj_proc;

static pthread_once_t mj_once = PTHREAD_ONCE_INIT;
static pthread_key_t mj_key; /* the thread's mj_proc, stopped when the thread ends */

/* Stop the process: close its stdin (the adapter exits at end of input) and reap it. */
static void mj_proc_stop(mj_proc *pr)
{
  if (pr->to != NULL)
    fclose(pr->to);
  if (pr->from != NULL)
    fclose(pr->from);
  if (pr->pid > 0)
    waitpid(pr->pid, NULL, 0);
  pr->to = pr->from = NULL;
  pr->pid = 0;
}

static void mj_proc_free(void *p)
{
  if (p != NULL)
    mj_proc_stop(p);
  free(p);
}

static void mj_init_once(void)
{
  pthread_key_create(&mj_key, mj_proc_free);
  /* a write to a node process that died must fail with EPIPE (that run fails), not kill
   * fricbench: ignore SIGPIPE unless the embedding program set a handler of its own */
  struct sigaction sa;
  if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
  }
}

/* The npm install directory (holding mujoco-js/) and the adapter script. */
static const char *mj_modules(void)
{
  const char *e = getenv("FRICBENCH_MUJOCO_MODULES");
  return e != NULL && *e != '\0' ? e : FB_MUJOCO_MODULES;
}

static const char *mj_node(void)
{
  const char *e = getenv("FRICBENCH_NODE");
  return e != NULL && *e != '\0' ? e : "node";
}

/* 1 when `prog` is an executable (a path, or a name found on PATH). */
static int mj_executable(const char *prog)
{
  if (strchr(prog, '/') != NULL)
    return access(prog, X_OK) == 0;
  const char *path = getenv("PATH");
  char buf[1024];
  for (const char *p = path; p != NULL && *p != '\0'; p += strcspn(p, ":")) {
    p += *p == ':';
    const int n = (int)strcspn(p, ":");
    snprintf(buf, sizeof buf, "%.*s/%s", n, p, prog);
    if (n > 0 && access(buf, X_OK) == 0)
      return 1;
  }
  return 0;
}

/* The "version" of mujoco-js's package.json under the modules directory, in buf; 0: none. */
static int mj_package_version(char *buf, size_t len)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/mujoco-js/package.json", mj_modules());
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return 0;
  char text[4096];
  const size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  const char *v = strstr(text, "\"version\"");
  if (v == NULL || (v = strchr(v + 9, '"')) == NULL)
    return 0;
  const int k = (int)strcspn(v + 1, "\"");
  snprintf(buf, len, "%.*s", k, v + 1);
  return 1;
}

static int mj_version(char *buf, size_t len)
{
  char pv[64];
  if (!mj_executable(mj_node())) {
    snprintf(buf, len, "node (Debian's nodejs) is not on PATH");
    return 0;
  }
  if (!mj_package_version(pv, sizeof pv)) {
    snprintf(buf, len, "mujoco-js is not installed in %s (scripts/bootstrap.sh runs npm)",
             mj_modules());
    return 0;
  }
  if (strcmp(pv, MJ_PACKAGE_VERSION) != 0) {
    snprintf(buf, len, "mujoco-js %s found in %s; fricbench pins %s", pv, mj_modules(),
             MJ_PACKAGE_VERSION);
    return 0;
  }
  snprintf(buf, len, "%s (mujoco-js %s, WebAssembly, run by node)", MJ_MUJOCO_VERSION, pv);
  return 1;
}

/* Why the process is gone, after a failed read or write: its exit status or signal. */
static int mj_died(mj_proc *pr, const char *when, fb_err *err)
{
  int status = 0;
  const pid_t pid = pr->pid;
  if (pr->to != NULL)
    fclose(pr->to);
  if (pr->from != NULL)
    fclose(pr->from);
  pr->to = pr->from = NULL;
  pr->pid = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid) {
    if (WIFSIGNALED(status))
      return fb_err_set(err, FB_EUNSUP, "MuJoCo: the node process (pid %ld) died %s: killed "
                        "by signal %d", (long)pid, when, WTERMSIG(status));
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: the node process (pid %ld) died %s: exit "
                      "status %d", (long)pid, when, WEXITSTATUS(status));
  }
  return fb_err_set(err, FB_EUNSUP, "MuJoCo: the node process is gone %s", when);
}

/* Start node on the adapter with pipes to its stdin and from its stdout. */
static int mj_proc_start(mj_proc *pr, fb_err *err)
{
  int in[2], out[2];
  /* close-on-exec: the ends must not leak into the node processes of other threads (a
   * process holding another's stdout open would hide that one's death) */
  if (pipe2(in, O_CLOEXEC) != 0)
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: pipe: %s", strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: pipe: %s", strerror(errno));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  char *argv[] = {(char *)mj_node(), (char *)FB_MUJOCO_ADAPTER, (char *)mj_modules(), NULL};
  const int rc = posix_spawnp(&pr->pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]), close(out[1]);
  if (rc != 0) {
    close(in[1]), close(out[0]);
    pr->pid = 0;
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: cannot start %s: %s", argv[0], strerror(rc));
  }
  pr->to = fdopen(in[1], "w");
  pr->from = fdopen(out[0], "r");
  if (pr->to == NULL || pr->from == NULL)
    return mj_died(pr, "at its start", err);
  return FB_OK;
}

/* The thread's process, started when there is none. */
static int mj_proc_get(mj_proc **out, fb_err *err)
{
  pthread_once(&mj_once, mj_init_once);
  mj_proc *pr = pthread_getspecific(mj_key);
  if (pr == NULL) {
    pr = calloc(1, sizeof *pr);
    if (pr == NULL)
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    pthread_setspecific(mj_key, pr);
  }
  *out = pr;
  return pr->pid > 0 ? FB_OK : mj_proc_start(pr, err);
}

/* Read one answer line into pr->line (without its newline). */
static int mj_read(mj_proc *pr, const char *when, fb_err *err)
{
  if (fflush(pr->to) != 0 || fgets(pr->line, sizeof pr->line, pr->from) == NULL)
    return mj_died(pr, when, err);
  pr->line[strcspn(pr->line, "\n")] = '\0';
  if (strncmp(pr->line, "err ", 4) == 0)
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: %s", pr->line + 4);
  return FB_OK;
}

/* The row `t px py pz vx vy vz qw qx qy qz wx wy wz Fn Ftx Fty Mx My Mz ncon niter`. */
enum { MJ_ROW = 22 };
static void mj_row(const double *v, fb_engine_sample *s, double *niter)
{
  s->t = v[0];
  for (int k = 0; k < 3; k++) {
    s->pos[k] = v[1 + k];
    s->vel[k] = v[4 + k];
    s->angvel[k] = v[11 + k];
    s->Mt[k] = v[17 + k];
  }
  for (int k = 0; k < 4; k++)
    s->quat[k] = v[7 + k];
  s->Fn = v[14];
  s->Ft[0] = v[15];
  s->Ft[1] = v[16];
  /* a diverged step answers NaN (adapter.mjs): no contacts, no iterations */
  s->ncontacts = v[20] >= 0 && v[20] < 1e6 ? (size_t)v[20] : 0;
  *niter = v[21] >= 0 && v[21] < 1e9 ? v[21] : 0.0;
}

/* The row as text (the answer to open). */
static int mj_parse(const char *line, fb_engine_sample *s, double *niter, fb_err *err)
{
  double v[MJ_ROW];
  const char *p = line;
  for (int k = 0; k < MJ_ROW; k++) {
    char *end;
    v[k] = strtod(p, &end);
    if (end == p)
      return fb_err_set(err, FB_EUNSUP, "MuJoCo: a row with %d numbers, 22 expected: %.80s", k,
                        line);
    p = end;
  }
  mj_row(v, s, niter);
  return FB_OK;
}

typedef struct mj_ws {
  mj_proc *pr;
  const fb_engine_case *c;
  double cpu0; /* node's process CPU clock (s) when the case was sent */
} mj_ws;

/* solref: the settings', MuJoCo's defaults where auto; a nominal restitution e sets the
 * damping ratio of the contact's spring-damper (our reading: the damped oscillator's
 * e = exp(-zeta pi / sqrt(1 - zeta^2)), docs/engines/mujoco.md §3). */
static void mj_solref(const mj_settings *p, double restitution, double ref[2])
{
  ref[0] = isnan(p->solref_timeconst) ? mj_solref_def[0] : p->solref_timeconst;
  ref[1] = p->solref_dampratio;
  if (isnan(ref[1]) && restitution > 0 && restitution < 1) {
    const double l = log(restitution);
    ref[1] = -l / sqrt(M_PI * M_PI + l * l);
  } else if (isnan(ref[1])) {
    ref[1] = mj_solref_def[1];
  }
}

static void mj_write_vec(FILE *f, const char *name, const double *v, int n)
{
  fprintf(f, ",\"%s\":[", name);
  for (int k = 0; k < n; k++)
    fprintf(f, "%s%.17g", k ? "," : "", v[k]);
  fputc(']', f);
}

/* The case as one JSON line (the adapter's "open"). */
static void mj_write_case(FILE *f, const fb_engine_case *c, const mj_settings *p)
{
  const double settle = isnan(c->settle) ? p->settle : c->settle;
  fprintf(f, "{\"op\":\"open\",\"scenario\":\"%s\",\"shape\":\"%s\",\"size\":%.17g,"
          "\"half_z\":%.17g,\"mass\":%.17g,", c->scenario != NULL ? c->scenario : "",
          c->shape == FB_ENGINE_SPHERE ? "sphere" : "box", c->size, c->half_z, c->mass);
  if (isnan(c->inertia))
    fprintf(f, "\"inertia\":null,");
  else
    fprintf(f, "\"inertia\":%.17g,", c->inertia);
  fprintf(f, "\"mu\":%.17g,\"restitution\":%.17g,\"gravity\":%.17g,\"settle\":%.17g,"
          "\"belt\":%d,\"t0\":%.17g,\"T\":%.17g,\"h\":%.17g,\"stepper\":%zu",
          c->mu, c->restitution, c->gravity, settle, c->belt, c->t0, c->T, c->h, c->stepper);
  mj_write_vec(f, "pos0", c->pos0, 3);
  mj_write_vec(f, "vel0", c->vel0, 3);
  mj_write_vec(f, "angvel0", c->angvel0, 3);
  double ref[2], imp[5];
  mj_solref(p, c->restitution, ref);
  const double *given = &p->solimp_dmin;
  for (int k = 0; k < 5; k++)
    imp[k] = isnan(given[k]) ? mj_solimp_def[k] : given[k];
  fprintf(f, ",\"settings\":{\"cone\":\"%s\",\"impratio\":%.17g,\"noslip_iterations\":%d",
          mj_cone_names[(int)p->cone], p->impratio, (int)p->noslip_iterations);
  mj_write_vec(f, "solref", ref, 2);
  mj_write_vec(f, "solimp", imp, 5);
  fprintf(f, "}}\n");
}

static void mj_close(void *ws)
{
  mj_ws *w = ws;
  if (w == NULL)
    return;
  if (w->pr != NULL && w->pr->pid > 0 && w->pr->to != NULL) {
    fputs("c\n", w->pr->to);
    fflush(w->pr->to); /* a dead process is found by the next open */
  }
  free(w);
}

/* node's process CPU clock (s; clock_getcpuclockid: nanoseconds), NaN if unreadable. */
static double mj_proc_cpu(const mj_proc *pr)
{
  clockid_t cid;
  struct timespec ts;
  if (pr == NULL || pr->pid <= 0 || clock_getcpuclockid(pr->pid, &cid) != 0 ||
      clock_gettime(cid, &ts) != 0)
    return (double)NAN;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* node's CPU time spent on this case since it was sent (the process lives on from case to
 * case, and its start-up is no case's): read between messages, while node waits for the
 * next, so nothing of a step is left out; 0 if unreadable. */
static double mj_child_cpu_s(void *ws)
{
  const mj_ws *w = ws;
  const double now = w != NULL ? mj_proc_cpu(w->pr) : (double)NAN;
  return isfinite(now) && isfinite(w->cpu0) ? now - w->cpu0 : 0.0;
}

static int mj_open(void **ws, const fb_engine_case *c, fb_engine_sample *settled, fb_err *err)
{
  mj_ws *w = calloc(1, sizeof *w);
  if (w == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  w->c = c;
  int st = mj_proc_get(&w->pr, err);
  double niter;
  if (st == FB_OK) {
    w->cpu0 = mj_proc_cpu(w->pr);
    mj_write_case(w->pr->to, c, c->settings);
    st = mj_read(w->pr, "opening the case", err);
  }
  if (st == FB_OK && strncmp(w->pr->line, "ok ", 3) != 0)
    st = fb_err_set(err, FB_EUNSUP, "MuJoCo: unexpected answer to open: %.80s", w->pr->line);
  if (st == FB_OK)
    st = mj_parse(w->pr->line + 3, settled, &niter, err);
  if (st != FB_OK) {
    free(w);
    return st;
  }
  settled->t = c->t0;
  *ws = w;
  return FB_OK;
}

/* The steps' frames travel as binary doubles (docs/engines/mujoco.md §4): the machine's
 * byte order must be the little-endian one adapter.mjs reads and writes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "engine_mujoco.c: the step frames are little-endian doubles"
#endif
enum { MJ_IN = 10 };

/* k steps in one exchange: the frame 'b', k (4 bytes, little-endian), per step the MJ_IN
 * doubles t h fx fy fz tx ty tz g u; the answer 'B' and per step the MJ_ROW doubles of a
 * row, or the line "err <why>".  Rows go to out[0..k-1], their iterations to ninner. */
static int mj_exchange(mj_ws *w, const fb_engine_input *in, size_t k, fb_engine_sample *out,
                       fb_err *err)
{
  mj_proc *pr = w->pr;
  if (pr->pid <= 0)
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: the node process is gone");
  const unsigned char head[5] = {'b', (unsigned char)(k & 0xff), (unsigned char)(k >> 8 & 0xff),
                                 (unsigned char)(k >> 16 & 0xff), (unsigned char)(k >> 24 & 0xff)};
  int ok = fwrite(head, 1, sizeof head, pr->to) == sizeof head;
  for (size_t i = 0; ok && i < k; i++) {
    const fb_engine_input *a = &in[i];
    const double v[MJ_IN] = {a->t, a->h, a->force[0], a->force[1], a->force[2], a->torque[0],
                             a->torque[1], a->torque[2], a->gravity, a->belt_u};
    ok = fwrite(v, sizeof v, 1, pr->to) == 1;
  }
  if (!ok || fflush(pr->to) != 0)
    return mj_died(pr, "during a step", err);
  const int c = fgetc(pr->from);
  if (c == EOF)
    return mj_died(pr, "during a step", err);
  if (c != 'B') { /* a line: the adapter's error */
    pr->line[0] = (char)c;
    if (fgets(pr->line + 1, sizeof pr->line - 1, pr->from) == NULL)
      return mj_died(pr, "during a step", err);
    pr->line[strcspn(pr->line, "\n")] = '\0';
    if (strncmp(pr->line, "err ", 4) == 0)
      return fb_err_set(err, FB_EUNSUP, "MuJoCo: %s", pr->line + 4);
    return fb_err_set(err, FB_EUNSUP, "MuJoCo: unexpected answer to a step: %.80s", pr->line);
  }
  for (size_t i = 0; i < k; i++) {
    double v[MJ_ROW], niter;
    if (fread(v, sizeof v, 1, pr->from) != 1)
      return mj_died(pr, "during a step", err);
    /* -0 reads as +0, as it did when rows were text (Number.toString writes -0 as "0") */
    for (int j = 0; j < MJ_ROW; j++)
      v[j] = v[j] == 0.0 ? 0.0 : v[j];
    mj_row(v, &out[i], &niter);
    out[i].ninner = (unsigned long)niter;
  }
  return FB_OK;
}

static int mj_step(void *ws, const fb_engine_input *in, fb_engine_sample *out, fb_counters *cnt,
                   fb_err *err)
{
  const int st = mj_exchange(ws, in, 1, out, err);
  if (st == FB_OK)
    cnt->ninner += out->ninner;
  return st;
}

static int mj_steps(void *ws, const fb_engine_input *in, size_t k, fb_engine_sample *out,
                    fb_err *err)
{
  return mj_exchange(ws, in, k, out, err);
}

static const char *const mj_scenarios[] = {
    "push-hold", "preload-hold", "inclined-block", "drift", "stick-slip", "puck",
    "billiard",  "bouncing-ball", "block-drop", NULL};
static const fb_engine_unsupported mj_unsupported[] = {
    {"coupled-sledges", "two bodies coupled by a spring: the mapping has one body"},
    {"two-mass-drive", "two bodies and a drive spring: the mapping has one body"},
    {"glowinski-2dof", "a coupled mass matrix: no single rigid body"},
    {"glowinski-3dof", "three bodies on one contact each: the mapping has one body"},
    {"glowinski-tp1", "friction without a normal force (c sgn w, a pure multiplier law)"},
    {"glowinski-tp2", "friction without a normal force (c sgn w, a pure multiplier law)"},
    {"belt-oscillator", "Leine's friction curve falls to mu = 0 with the slip: an engine's mu "
     "is one constant"},
    {"impact-oscillator", "the stop is a wall beside the mass: the mapping has only the "
     "ground plane"},
    {"belt-2d", "not validated: on the belt slab the box hops (Fn 0 to 2.5 m g) and the "
     "friction across the belt read 0 in a trial run (docs/engines/mujoco.md §3)"},
    {NULL, NULL},
};

const fb_engine_type fb_engine_mujoco = {
    .name = "mujoco",
    .title = "MuJoCo 3.3.8 (WebAssembly, node): soft contacts, convex solver, friction cones",
    .library = "MuJoCo 3.3.8 (npm mujoco-js 0.0.7, run by Debian's nodejs)",
    .version = mj_version,
    .scenarios = mj_scenarios,
    .unsupported = mj_unsupported,
    .open = mj_open,
    .step = mj_step,
    .close = mj_close,
    .steps = mj_steps,
    .child_cpu_s = mj_child_cpu_s,
};

static const fb_integrator_type mj_euler_type = FB_ENGINE_STEPPER(
    "mujoco-euler", "MuJoCo's semi-implicit Euler (its default integrator)", fb_engine_mujoco, 0);
static const fb_integrator_type mj_implicitfast_type = FB_ENGINE_STEPPER(
    "mujoco-implicitfast", "MuJoCo's implicitfast integrator (implicit in the velocity forces)",
    fb_engine_mujoco, 1);
static const fb_integrator_type mj_rk4_type = FB_ENGINE_STEPPER(
    "mujoco-rk4", "MuJoCo's fourth-order Runge-Kutta integrator", fb_engine_mujoco, 2);
static const fb_integrator_type *const mj_schemes[] = {&mj_euler_type, &mj_implicitfast_type,
                                                       &mj_rk4_type, NULL};

const fb_model_type fb_model_mujoco = FB_ENGINE_MODEL(
    "mujoco", "MuJoCo 3.3.8 (engine): soft contacts, pyramidal or elliptic friction cones",
    "[MuJoCo] Todorov, Erez & Tassa, MuJoCo: a physics engine for model-based control, IROS "
    "2012; MuJoCo documentation 3.3, Computation (soft contact model)",
    &mj_set, mj_schemes, "mujoco-euler");

const fb_model_suite fb_suite_mujoco = {
    .model = "mujoco",
    .color = "#393b79",
    /* soft contacts by design (a spring-damper in constraint space, solref/solimp): its
     * h -> 0 limit is the soft model, not Coulomb; still, as for ODE, the scenario's own
     * reference is the one it is judged by (no refined engine run per experiment) */
    .exact_limit = 1,
    .expect = "an engine: soft contacts (solref/solimp), friction cone pyramidal or elliptic",
};
