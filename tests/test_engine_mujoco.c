/* test_engine_mujoco.c — MuJoCo through its WebAssembly build (docs/engines/mujoco.md):
 * what is MuJoCo's own beside the closed forms every engine passes (tests/test_engines.c,
 * which runs its three integrators too): the creep under a push below breakaway is
 * measured and must be there (soft contacts: the friction force is a stiff
 * spring-damper's, not a stick constraint), and the plumbing of the node process: a killed
 * process fails the run that finds it dead, the next run starts a new one and works; a run
 * whose forcing depends on t only takes its steps in batches and equals its lock-step run
 * to the bit (docs/engines.md §4; the glue's rules: tests/test_engine_batch.c).  Skipped, with the reason, when node or the pinned mujoco-js is absent.  No timing. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fb_engine.h"
#include "fb_test.h"

static const fb_model_type *mujoco_or_skip(void)
{
  const fb_model_type *m = fb_model_find("mujoco");
  char why[160] = "not built";
  if (m == NULL || !fb_engine_present(fb_engine_of_model(m), why, sizeof why))
    cr_skip_test("MuJoCo absent: %s", why);
  return m;
}

/* push-hold at r = 0.95 (m = 2 kg, mu = 0.3, pushed from t = 1 s to 6 s): Coulomb holds
 * the block (x = 0); MuJoCo's soft friction lets it creep.  Mean velocity over the push. */
static double creep(const fb_model_type *m, const char *set)
{
  const char *const sets[] = {"r=0.95", set, NULL};
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("push-hold", m->name, NULL, 1e-3, 0, sets, 601, &tr, NULL, &res), FB_OK,
               "%s", res.message);
  const size_t k1 = 100, k2 = tr.filled - 1; /* t = 1 s and 6 s */
  cr_assert_float_eq(tr.t[k1], 1.0, 1e-12);
  const double v = (tr.y[k2 * tr.dim] - tr.y[k1 * tr.dim]) / (tr.t[k2] - tr.t[k1]);
  fb_trace_free(&tr);
  return v;
}

Test(mujoco, creeps_under_a_push_it_should_hold, .timeout = 120)
{
  const fb_model_type *m = mujoco_or_skip();
  const double v = creep(m, NULL);
  cr_log_info("MuJoCo 3.3.8 defaults, h = 1 ms: creep %.4g um/s at r = 0.95\n", v * 1e6);
  /* measured 1563 um/s; asserted: it creeps forward (Coulomb: 0), by more than 10 um/s */
  cr_assert_gt(v, 1e-5, "creep %g m/s", v);
  cr_assert_lt(v, 0.05 * 0.3 * 9.81, "a creep, not a slide (%g m/s)", v);
}

/* A run's cost counts node's work (its process CPU clock over the run, child_cpu_s): node
 * steps MuJoCo while fricbench's thread waits on the pipe, so the node part is most of the
 * run's cpu_s and a positive share of it; without it, the engines' cost verdict reported a
 * tenth of MuJoCo's cost. */
Test(mujoco, the_runs_cost_counts_node, .timeout = 120)
{
  const fb_model_type *m = mujoco_or_skip();
  const char *const sets[] = {"r=0.95", NULL};
  fb_trace tr;
  fb_run_result res;
  cr_assert_eq(fbt_run("push-hold", m->name, NULL, 1e-4, 0, sets, 61, &tr, NULL, &res), FB_OK,
               "%s", res.message);
  fb_trace_free(&tr);
  cr_log_info("60,000 MuJoCo steps: cpu_s %.3f s, node's part %.3f s\n", res.cpu_s,
              res.cpu_child_s);
  cr_assert_gt(res.cpu_child_s, 0.0, "node's CPU not counted");
  cr_assert_geq(res.cpu_s, res.cpu_child_s);
  cr_assert_gt(res.cpu_child_s, 0.5 * (res.cpu_s - res.cpu_child_s),
               "node %.3g s against fricbench's thread %.3g s", res.cpu_child_s,
               res.cpu_s - res.cpu_child_s);
}

/* run (scenario, sets, h) batched (the default) and in lock step (FRICBENCH_ENGINE_BATCH=1):
 * the same samples, states, forces and counts, to the bit. */
static void batched_equals_lock_step(const fb_model_type *m, const char *scenario,
                                     const char *const *sets, double h, size_t samples)
{
  fb_trace tb, tl;
  fb_run_result rb, rl;
  unsetenv("FRICBENCH_ENGINE_BATCH");
  cr_assert_eq(fbt_run(scenario, m->name, NULL, h, 0, sets, samples, &tb, NULL, &rb), FB_OK,
               "%s", rb.message);
  setenv("FRICBENCH_ENGINE_BATCH", "1", 1);
  const int st = fbt_run(scenario, m->name, NULL, h, 0, sets, samples, &tl, NULL, &rl);
  unsetenv("FRICBENCH_ENGINE_BATCH");
  cr_assert_eq(st, FB_OK, "%s", rl.message);
  cr_assert_eq(tb.filled, tl.filled);
  cr_assert_eq(memcmp(tb.t, tl.t, tb.filled * sizeof *tb.t), 0, "%s: sample times", scenario);
  cr_assert_eq(memcmp(tb.y, tl.y, tb.filled * tb.dim * sizeof *tb.y), 0, "%s: states", scenario);
  cr_assert_eq(memcmp(tb.F, tl.F, tb.filled * tb.nc * sizeof *tb.F), 0, "%s: forces", scenario);
  cr_assert_eq(rb.cnt.nsteps, rl.cnt.nsteps);
  cr_assert_eq(rb.cnt.nfe, rl.cnt.nfe);
  cr_assert_eq(rb.cnt.ninner, rl.cnt.ninner, "%s: MuJoCo's solver iterations", scenario);
  cr_log_info("%s: %lu steps, %lu solver iterations, batched = lock step\n", scenario,
              rb.cnt.nsteps, rb.cnt.ninner);
  fb_trace_free(&tb);
  fb_trace_free(&tl);
}

/* push-hold sliding at r = 2 from t_on = 0.3 s (a break inside the run, h = 0.7 ms does not
 * divide it: a short last step), and a bounce (its own contact phases and impacts). */
Test(mujoco, batched_steps_equal_the_lock_step, .timeout = 120)
{
  const fb_model_type *m = mujoco_or_skip();
  static const char *const push[] = {"r=2", "t_on=0.3", "T=0.8", NULL};
  batched_equals_lock_step(m, "push-hold", push, 7e-4, 81);
  static const char *const ball[] = {"T=1", NULL};
  batched_equals_lock_step(m, "bouncing-ball", ball, 1e-3, 101);
}

/* The node processes this process started (children whose command is node). */
static size_t node_children(pid_t *pids, size_t max)
{
  size_t n = 0;
  DIR *d = opendir("/proc");
  cr_assert_not_null(d);
  for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
    char path[300], comm[64] = "";
    long ppid = 0;
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
      continue;
    if (fscanf(f, "%*d (%63[^)]) %*c %ld", comm, &ppid) == 2 && ppid == (long)getpid() &&
        strncmp(comm, "node", 4) == 0)
      pids[n++] = (pid_t)atol(e->d_name);
    fclose(f);
  }
  closedir(d);
  return n;
}

Test(mujoco, a_killed_node_fails_one_run_and_the_next_works, .timeout = 120)
{
  const fb_model_type *m = mujoco_or_skip();
  const char *const sets[] = {"r=2", "T=1.1", NULL};
  fb_run_result res;
  cr_assert_eq(fbt_run("push-hold", m->name, NULL, 1e-3, 0, sets, 11, NULL, NULL, &res), FB_OK,
               "%s", res.message);
  pid_t pids[4];
  cr_assert_eq(node_children(pids, 4), 1, "one node process for this thread");
  cr_assert_eq(kill(pids[0], SIGKILL), 0);
  const int st = fbt_run("push-hold", m->name, NULL, 1e-3, 0, sets, 11, NULL, NULL, &res);
  cr_log_info("the run after the kill: %s\n", res.message);
  cr_assert_neq(st, FB_OK, "the run that meets the dead process fails");
  cr_assert(strstr(res.message, "killed by signal 9") != NULL, "%s", res.message);
  cr_assert_eq(fbt_run("push-hold", m->name, NULL, 1e-3, 0, sets, 11, NULL, NULL, &res), FB_OK,
               "the next run starts a new process: %s", res.message);
  cr_assert_eq(node_children(pids, 4), 1, "again one node process");
}

/* Without the package (no network at set-up) or without node the engine is absent, with
 * the reason: what the suite's one-line skip and `list engines` print.  No process starts. */
Test(mujoco, absent_without_node_or_package)
{
  const fb_model_type *m = fb_model_find("mujoco");
  if (m == NULL)
    cr_skip_test("MuJoCo not built (-Dmujoco=disabled)");
  const fb_engine_entry *e = fb_engine_of_model(m);
  char why[256];
  setenv("FRICBENCH_MUJOCO_MODULES", "/nonexistent/node_modules", 1);
  cr_assert_eq(fb_engine_present(e, why, sizeof why), 0);
  cr_assert(strstr(why, "mujoco-js is not installed in /nonexistent/node_modules") != NULL, "%s",
            why);
  unsetenv("FRICBENCH_MUJOCO_MODULES");
  setenv("FRICBENCH_NODE", "/nonexistent/node", 1);
  cr_assert_eq(fb_engine_present(e, why, sizeof why), 0);
  cr_assert(strstr(why, "node") != NULL && strstr(why, "not on PATH") != NULL, "%s", why);
  unsetenv("FRICBENCH_NODE");
}
