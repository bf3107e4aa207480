/* test_tamper.c — `merge` cannot be fooled (issue 13): every part writes a manifest last
 * (sizes and FNV-1a hashes of runs.csv, orders.csv, meta.json, part.json, the journal and
 * every trajectory, and one hash per row of runs.csv), and merge checks the part's files
 * against it and each row of runs.csv against the part's checksummed journal.
 *
 * One real split (suite --plan --emit-jobs --parts 2 of the plan below: two ladders of equal
 * cost, one to a part, a few fast runs, so this test does not grow with the default table;
 * both parts run), then a table of
 * tamperings, each applied to a fresh copy: merge must exit 2 (merge's status for every
 * fault of the parts, as for a missing part) with one line on stderr that names the part
 * and the file (and, for runs.csv, the row), and write nothing.  The copy untouched must
 * merge (exit 0), so that a refusal is the tampering's doing.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fb_manifest.h"
#include "fb_test.h"

static char out[1 << 14], errbuf[1 << 14];

typedef struct tamper {
  const char *what;
  const char *sh;        /* run in the copy (holding part-1, part-2) */
  const char *remanifest; /* a part whose manifest is then rewritten, as a forger would */
  const char *want[3];   /* substrings of the message */
} tamper;

/* the cell of column `col` in line `row` (the header is line 1) of part/runs.csv set to val */
#define EDIT_CELL(part, col, row, val)                                                       \
  "awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++) if($i==\"" col "\") c=i} NR==" #row        \
  "{$c=\"" val "\"} {print}' " part "/runs.csv > x && mv x " part "/runs.csv"

static const tamper table[] = {
    {"edit a metric", EDIT_CELL("part-1", "err_x_l2", 2, "0.123"), NULL,
     {"part-1/runs.csv' row 1 (run_id ", "err_x_l2 is '0.123'", "journal says"}},
    {"status ok -> failed", EDIT_CELL("part-1", "status", 5, "failed"), NULL,
     {"part-1/runs.csv' row 4 ", "status is 'failed'", "journal says 'ok'"}},
    {"nsteps -> 1", EDIT_CELL("part-2", "nsteps", 8, "1"), NULL,
     {"part-2/runs.csv' row 7 ", "nsteps is '1'", NULL}},
    {"model renamed", EDIT_CELL("part-2", "model", 4, "renamed"), NULL,
     {"part-2/runs.csv' row 3 ", "is not the row the part wrote", NULL}},
    {"scenario renamed", EDIT_CELL("part-1", "scenario", 2, "renamed"), NULL,
     {"part-1/runs.csv' row 1 ", "is not the row the part wrote", NULL}},
    {"a row deleted", "sed -i '$d' part-2/runs.csv", NULL,
     {"part-2/runs.csv' has ", "rows were removed", NULL}},
    {"CRLF line ends", "sed -i 's/$/\\r/' part-2/runs.csv", NULL,
     {"part-2/runs.csv': its header or line ends", "changed after the part finished", NULL}},
    {"header renamed", "sed -i '1s/nsteps/steps/' part-1/runs.csv", NULL,
     {"part-1/runs.csv': its header or line ends", "changed after the part finished", NULL}},
    {"trajectory deleted", "rm \"$(ls part-1/traj/*/*.csv.gz | head -n 1)\"", NULL,
     {"part-1/traj/", "is missing", NULL}},
    {"trajectory truncated to half",
     "f=\"$(ls part-2/traj/*/*.csv.gz | tail -n 1)\"; truncate -s $(($(stat -c%s \"$f\")/2)) \"$f\"",
     NULL, {"part-2/traj/", "bytes, the part's manifest says", NULL}},
    {"trajectory edited (same size: one byte of the gzip stream flipped)",
     "f=\"$(ls part-1/traj/*/*.csv.gz | tail -n 1)\"; "
     "b=$(od -An -tx1 -j100 -N1 \"$f\" | tr -d ' '); n=$(printf '%02x' $(( 0x$b ^ 1 ))); "
     "printf \"\\\\x$n\" | dd of=\"$f\" bs=1 seek=100 conv=notrunc 2>/dev/null", NULL,
     {"part-1/traj/", "checksum is not the manifest's", NULL}},
    {"trajectory added",
     "f=\"$(ls part-1/traj/*/*.csv.gz | head -n 1)\"; cp \"$f\" \"$(dirname \"$f\")/extra.csv.gz\"", NULL,
     {"part-1/traj/", "extra.csv.gz' is not in the part's manifest", NULL}},
    {"orders.csv deleted", "rm part-1/orders.csv", NULL, {"part-1/orders.csv' is missing", NULL}},
    {"orders.csv cut to its header", "sed -i '2,$d' part-2/orders.csv", NULL,
     {"part-2/orders.csv' has ", NULL}},
    {"part.json edited", "sed -i 's/\"samples\": [0-9]*/\"samples\": 11/' part-1/part.json", NULL,
     {"part-1/part.json'", NULL}},
    {"meta.json deleted", "rm part-2/meta.json", NULL, {"part-2/meta.json' is missing", NULL}},
    {"journal cut", "sed -i '$d' part-1/journal", NULL, {"part-1/journal' has ", NULL}},
    {"manifest deleted", "rm part-2/manifest", NULL, {"part-2' has no manifest", "did not finish"}},
    {"manifest edited", "sed -i '2s/^[0-9]*/1/' part-2/manifest", NULL,
     {"part-2/manifest' is damaged", NULL}},
    {"manifest cut", "sed -i '$d' part-1/manifest", NULL, {"part-1/manifest' is damaged", NULL}},
    /* a forger who rewrites the manifest: the journal still names the cell */
    {"cell edited, manifest rewritten", EDIT_CELL("part-2", "err_v_l2", 3, "1e-9"), "part-2",
     {"part-2/runs.csv' row 2 ", "err_v_l2 is '1e-9'", "journal says"}},
    {"status edited, manifest rewritten", EDIT_CELL("part-1", "status", 3, "budget"), "part-1",
     {"part-1/runs.csv' row 2 ", "status is 'budget'", NULL}},
    {"journal line edited, manifest rewritten", /* the first record ("J " line) */
     "sed -i '/^J /{s/ 0 / 1 /;:a;n;ba}' part-1/journal", "part-1",
     {"part-1/journal' is damaged at byte", NULL}},
};

/* Two experiments of the same cost (the same runs but for the tag and mu), which the split
 * deals one to each part: 8 rows, trajectories and an orders.csv row in each part, what
 * the tamperings above edit. */
static const char split_plan[] =
    "[a]\n"
    "group = convergence\n"
    "tag = a\n"
    "scenario = stick-slip\n"
    "model = kikuuwe\n"
    "integrator = rk4\n"
    "set = mu=0.3\n"
    "sweep = h\n"
    "values = 4e-3, 3e-3, 2e-3, 1.5e-3, 1e-3, 7.5e-4, 5e-4, 4e-4\n"
    "traj = yes\n"
    "[b]\n"
    "group = convergence\n"
    "tag = b\n"
    "scenario = stick-slip\n"
    "model = kikuuwe\n"
    "integrator = rk4\n"
    "set = mu=0.25\n"
    "sweep = h\n"
    "values = 4e-3, 3e-3, 2e-3, 1.5e-3, 1e-3, 7.5e-4, 5e-4, 4e-4\n"
    "traj = yes\n";

static int sh(const char *cmd)
{
  const int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

Test(tamper, every_tampering_is_refused_naming_part_and_file, .timeout = 600)
{
  char dir[64], parts[128], jobs[160], plan[160], cmd[4096];
  fbt_tmpdir(dir, sizeof dir);
  snprintf(parts, sizeof parts, "%s/parts", dir);
  snprintf(jobs, sizeof jobs, "%s/jobs.txt", dir);
  snprintf(plan, sizeof plan, "%s/split.ini", dir);
  FILE *fp = fopen(plan, "w");
  cr_assert_not_null(fp);
  cr_assert_eq(fputs(split_plan, fp) >= 0 && fclose(fp) == 0, 1);
  const char *emit[] = {"suite", "--plan", plan, "--emit-jobs", jobs, "--parts", "2", "--out",
                        parts, NULL};
  cr_assert_eq(fbt_cli(emit, out, sizeof out, errbuf, sizeof errbuf), 0, "%s", errbuf);
  snprintf(cmd, sizeof cmd, "sh '%s' >/dev/null 2>&1", jobs);
  cr_assert_eq(sh(cmd), 0, "the two parts ran");
  for (int p = 1; p <= 2; p++) { /* what the tamperings need in each part */
    snprintf(cmd, sizeof cmd, "test $(wc -l < '%s/part-%d/runs.csv') -eq 9 && "
             "test $(wc -l < '%s/part-%d/orders.csv') -ge 2 && ls '%s/part-%d/traj/'*/*.csv.gz",
             parts, p, parts, p, parts, p);
    cr_assert_eq(sh(cmd), 0, "part-%d has 8 rows, an order and trajectories: %s", p, cmd);
  }
  for (size_t k = 0; k <= sizeof table / sizeof table[0]; k++) {
    const tamper *t = k < sizeof table / sizeof table[0] ? &table[k] : NULL;
    char copy[160], merged[192];
    snprintf(copy, sizeof copy, "%s/t%zu", dir, k);
    snprintf(merged, sizeof merged, "%s/m%zu", dir, k);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && cd '%s' && { %s ; }", parts, copy, copy,
             t ? t->sh : "true");
    cr_assert_eq(sh(cmd), 0, "%s: the tampering ran: %s", t ? t->what : "none", cmd);
    if (t != NULL && t->remanifest != NULL) {
      char p[256];
      fb_err err;
      snprintf(p, sizeof p, "%s/%s", copy, t->remanifest);
      cr_assert_eq(fb_manifest_write(p, &err), FB_OK, "%s", err.msg);
    }
    const char *m[] = {"merge", "--no-plots", "--out", merged, copy, NULL};
    const int rc = fbt_cli(m, out, sizeof out, errbuf, sizeof errbuf);
    if (t == NULL) {
      cr_expect_eq(rc, 0, "the untouched parts merge: %s", errbuf);
      continue;
    }
    cr_expect_eq(rc, 2, "%s: exit %d, want 2: %s", t->what, rc, errbuf);
    cr_expect_eq(fbt_lines(errbuf), 1, "%s: one line: %s", t->what, errbuf);
    for (size_t i = 0; i < 3 && t->want[i] != NULL; i++)
      cr_expect(strstr(errbuf, t->want[i]) != NULL, "%s: '%s' not in: %s", t->what, t->want[i],
                errbuf);
    cr_expect(access(merged, F_OK) != 0, "%s: nothing written", t->what);
    fbt_rmdir(copy);
  }
  fbt_rmdir(dir);
}
