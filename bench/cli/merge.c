/* merge.c — the suite beyond one machine: `suite --emit-jobs FILE` and `fricbench merge`.
 *
 * `fricbench suite --emit-jobs FILE --out DIR [--parts K] [suite options]` (emit_jobs.c) writes K lines,
 * each a complete, independent command
 *     '<fricbench>' suite --part I/K --out 'DIR/part-I' --no-plots --jobs 1 [--quick]
 *         --samples N --max-steps N --max-rhs N
 * for GNU Parallel (`parallel -a FILE`, or across hosts with `--sshloginfile`, DIR on a
 * shared file system) or a Slurm job array (scripts/slurm_array.sh runs line
 * $SLURM_ARRAY_TASK_ID).  Each part expands the whole table exactly as a single-process
 * suite does (same run ids, same reference variants and file names), runs its own
 * experiments (fb_schedule.h: whole experiments, dealt by estimated cost) with the
 * references they use, and writes DIR/part-I/{runs.csv (its rows only), orders.csv (its
 * experiments), traj/, meta.json, part.json, manifest (last)}.  References are deterministic functions of
 * the scenario variant, so two parts that need one compute the same file.
 *
 * `fricbench merge [--out OUT] [--no-plots] DIR...` (DIR: a part, or a directory holding
 * part-* directories; OUT defaults to that directory) checks that the parts are all
 * there, from the same table and options, then writes OUT/runs.csv (every row, by run
 * id, byte for byte as the parts wrote them: the same file as a single-process suite
 * apart from the timing columns wall_s and cpu_s), OUT/orders.csv (rows in table order),
 * OUT/traj/ (hard links, or copies), OUT/meta.json, and then the plots and report.html
 * through fb_report_make, which reads only those files.
 *
 * Before that, every part is checked against the manifest it wrote last and its runs.csv
 * rows against its journal (fb_manifest.h), so that an edited, truncated, deleted or
 * added file is refused, naming the part, the file and the row.
 *
 * The checks and the merged texts are fb_merge_texts (fb_merge.h), a pure function of
 * the parts' file texts (read with fb_csv.h, fuzzed by fuzz/fuzz_merge.c); merge_run only
 * reads and writes the files around it.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fb_verdicts.h"
#include "fb_seed_claims.h"
#include "fb_frame_metrics.h"
#include "fb_cli.h"
#include "fb_csv.h"
#include "fb_params.h"
#include "fb_io.h"
#include "fb_manifest.h"
#include "fb_merge.h"
#include "fb_gzcsv.h"
#include "fb_plugin.h"
#include "fb_report.h"
#include "fb_suite.h"
#include "fb_version.h"
#include "fb_parse.h"

#include <jansson.h>

#define PATH_LEN 4096

/* ---- merge: the parts' texts (fb_merge.h) ------------------------------------------------ */

typedef struct part_info {
  size_t part, parts, runs_total;
  char conf[768]; /* quick, samples, budgets, revision: must agree */
} part_info;

/* Read part.json strictly: part, parts and runs_total decimal integers >= 1 (part <=
 * parts), quick true or false, samples and the budgets decimal integers when present.
 * FB_EINVAL names the part's file, the field and its text: a damaged file is blamed on
 * its own part, not on the parts that disagree with it. */
static int part_info_read(const char *name, const char *json, part_info *pi, fb_err *err)
{
  static const char *const keys[] = {"part", "parts", "runs_total", "quick", "samples",
                                     "max_steps", "max_rhs", "git_revision"};
  {
    json_error_t je;
    json_t *j = json_loads(json != NULL ? json : "", 0, &je);
    if (j == NULL) {
      for (char *c = je.text; *c != '\0'; c++) /* one line */
        if ((unsigned char)*c < 0x20)
          *c = '?';
      return fb_err_set(err, FB_EINVAL, "merge: '%s/part.json' is not JSON (line %d: %s)", name,
                        je.line, je.text);
    }
    json_decref(j);
  }
  char v[8][128];
  for (size_t k = 0; k < 8; k++) {
    fb_json_get(json, keys[k], v[k], sizeof v[k]);
    for (char *c = v[k]; *c != '\0'; c++) /* named in a one-line message */
      if ((unsigned char)*c < 0x20)
        *c = '?';
  }
  unsigned long u[3] = {0, 0, 0}, x;
  for (size_t k = 0; k < 3; k++)
    if (fb_parse_ulong(v[k], &u[k]) != FB_OK || u[k] == 0 || (SIZE_MAX < ULONG_MAX && u[k] > SIZE_MAX))
      return fb_err_set(err, FB_EINVAL,
                        "merge: '%s/part.json' is damaged: \"%s\" is '%.40s', expected an "
                        "integer >= 1",
                        name, keys[k], v[k]);
  if (u[0] > u[1])
    return fb_err_set(err, FB_EINVAL,
                      "merge: '%s/part.json' is damaged: \"part\" %lu is beyond \"parts\" %lu",
                      name, u[0], u[1]);
  if (v[3][0] != '\0' && strcmp(v[3], "true") != 0 && strcmp(v[3], "false") != 0)
    return fb_err_set(err, FB_EINVAL,
                      "merge: '%s/part.json' is damaged: \"quick\" is '%.40s', expected true or "
                      "false",
                      name, v[3]);
  for (size_t k = 4; k < 7; k++)
    if (v[k][0] != '\0' && fb_parse_ulong(v[k], &x) != FB_OK)
      return fb_err_set(err, FB_EINVAL,
                        "merge: '%s/part.json' is damaged: \"%s\" is '%.40s', expected an "
                        "integer",
                        name, keys[k], v[k]);
  pi->part = (size_t)u[0];
  pi->parts = (size_t)u[1];
  pi->runs_total = (size_t)u[2];
  snprintf(pi->conf, sizeof pi->conf,
           "quick %s, samples %s, max-steps %s, max-rhs %s, fricbench %s", v[3], v[4], v[5],
           v[6], v[7]);
  return FB_OK;
}

/* A sort key and the order of reading that breaks its ties.  Every array merge sorts
 * holds it first in its elements, so one comparison serves them all and every sort is
 * stable: the output depends on the input only. */
typedef struct key_seq {
  size_t key, seq;
} key_seq;

static int by_key_seq(const void *a, const void *b)
{
  const key_seq *x = a, *y = b;
  if (x->key != y->key)
    return (x->key > y->key) - (x->key < y->key);
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int same_split(const part_info *a, const part_info *b)
{
  return a->parts == b->parts && a->runs_total == b->runs_total && strcmp(a->conf, b->conf) == 0;
}

/* The parts, each once, of one split: FB_OK or FB_EINVAL naming the first fault in the
 * order they were given (then the smallest missing part). */
static int check_split(const fb_merge_part *parts, const part_info *pi, size_t n, fb_err *err)
{
  /* The split most parts agree on (the first such one on a tie) is the reference: one
   * odd part is blamed, not the good ones that follow it. */
  size_t ref = 0, ref_votes = 0;
  for (size_t i = 0; i < n && ref_votes <= n / 2; i++) {
    size_t votes = 0;
    for (size_t j = 0; j < n; j++)
      votes += same_split(&pi[i], &pi[j]);
    if (votes > ref_votes)
      ref = i, ref_votes = votes;
  }
  const size_t K = pi[ref].parts, N = pi[ref].runs_total;
  size_t split = n; /* first part not of the reference split */
  for (size_t i = 0; i < n && split == n; i++)
    if (!same_split(&pi[i], &pi[ref]))
      split = i;
  /* the part numbers sorted find doubles and gaps without an array of K entries (K is
   * read from a file) */
  key_seq *pr = malloc(n * sizeof *pr);
  if (pr == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t i = 0; i < n; i++)
    pr[i] = (key_seq){pi[i].part, i};
  qsort(pr, n, sizeof *pr, by_key_seq);
  size_t twice = n; /* first part given a second time */
  for (size_t i = 1; i < n; i++)
    if (pr[i].key == pr[i - 1].key && pr[i].seq < twice)
      twice = pr[i].seq;
  int st = FB_OK;
  if (split < n && split <= twice) {
    const part_info *p = &pi[split];
    st = fb_err_set(err, FB_EINVAL,
                    "merge: '%s' (part %zu/%zu of %zu runs; %s) is not from the same split as "
                    "'%s' (%zu parts of %zu runs; %s)",
                    parts[split].name, p->part, p->parts, p->runs_total, p->conf,
                    parts[ref].name, K, N, pi[ref].conf);
  } else if (twice < n) {
    st = fb_err_set(err, FB_EINVAL, "merge: part %zu/%zu given twice (second: '%s')",
                    pi[twice].part, K, parts[twice].name);
  } else { /* n distinct parts in 1..K: the first gap */
    size_t want = 1;
    for (size_t i = 0; i < n && pr[i].key == want; i++)
      want++;
    if (want <= K)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: part %zu/%zu is missing: run line %zu of the jobs file and merge "
                      "again",
                      want, K, want);
  }
  free(pr);
  return st;
}

/* Parse one part's CSV text into t: FB_OK, or FB_EINVAL / FB_ENOMEM naming the file.
 * FB_EINVAL with *empty set: no header (the caller decides whether that is a fault). */
static int part_csv(fb_csv *t, const char *name, const char *file, const char *text, size_t len,
                    int *empty, fb_err *err)
{
  *empty = 0;
  memset(t, 0, sizeof *t);
  const char *nul = memchr(text, '\0', len);
  if (nul != NULL)
    return fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' holds a NUL byte (offset %zu): it is not a CSV text", name,
                      file, (size_t)(nul - text));
  const int st = fb_csv_parse(t, text, len);
  if (st == FB_ENOMEM)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  if (st != FB_OK) {
    *empty = 1;
    return FB_EINVAL;
  }
  if (t->open_quote) {
    fb_csv_free(t);
    return fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' ends inside a quoted field: the file is cut", name, file);
  }
  return FB_OK;
}

/* A run id: decimal digits only, in 1..N; 0 otherwise. */
static size_t run_id(const char *s, size_t N)
{
  size_t id = 0;
  if (*s == '\0')
    return 0;
  for (; *s != '\0'; s++) {
    if (*s < '0' || *s > '9')
      return 0;
    id = 10 * id + (size_t)(*s - '0');
    if (id > N)
      return 0;
  }
  return id;
}

/* A row of a part's runs.csv (key: its run id) and where it stands. */
typedef struct run_ref {
  key_seq k;
  size_t part, row;
} run_ref;

/* A row of a part's orders.csv (key: its place in table order) and its text. */
typedef struct order_ref {
  key_seq k;
  const char *line;
  size_t len;
} order_ref;

void fb_merge_out_free(fb_merge_out *o)
{
  free(o->runs);
  free(o->orders);
  free(o->meta);
  memset(o, 0, sizeof *o);
}

/* Close a memory stream opened on *buf: FB_OK, or FB_ENOMEM with *buf freed. */
static int mem_close(FILE *fp, char **buf, fb_err *err)
{
  const int bad = ferror(fp);
  if (fclose(fp) != 0 || bad) {
    free(*buf);
    *buf = NULL;
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  return FB_OK;
}

/* s when it is an unsigned decimal integer, else def: a JSON number copied from a part. */
static const char *uint_or(const char *s, const char *def)
{
  if (*s == '\0')
    return def;
  for (const char *p = s; *p != '\0'; p++)
    if (*p < '0' || *p > '9')
      return def;
  return s;
}

/* The number of "key" (a finite one; 0 otherwise). */
static double json_num(const char *text, const char *key)
{
  char b[64], *end;
  fb_json_get(text, key, b, sizeof b);
  const double v = strtod(b, &end);
  return end != b && isfinite(v) ? v : 0;
}

/* meta.json: the first part's build and machine, the whole run's counts. */
static int merge_meta(const fb_merge_part *parts, size_t n, const char *date, fb_merge_out *o,
                      fb_err *err)
{
  static const char *const keys[] = {"fricbench_version", "git_revision", "compiler", "build",
                                     "gsl_version", "system", "release", "arch", "cpu",
                                     "cores"};
  char v[10][256];
  const char *m0 = parts[0].meta != NULL ? parts[0].meta : "";
  for (size_t k = 0; k < 10; k++)
    fb_json_get(m0, keys[k], v[k], sizeof v[k]);
  double wall = 0, refs = 0, threads = 0;
  for (size_t i = 0; i < n; i++) {
    if (parts[i].meta == NULL)
      continue;
    const double w = json_num(parts[i].meta, "wall_time_s");
    wall = wall > w ? wall : w;
    refs += json_num(parts[i].meta, "references");
    threads += json_num(parts[i].meta, "jobs");
  }
  refs = isfinite(refs) ? refs : 0;
  threads = isfinite(threads) ? threads : 0;
  char q[16], smp[32], ms[32], mr[32];
  fb_json_get(m0, "quick", q, sizeof q);
  fb_json_get(m0, "samples", smp, sizeof smp);
  fb_json_get(m0, "max_steps", ms, sizeof ms);
  fb_json_get(m0, "max_rhs", mr, sizeof mr);
  json_t *machine = json_pack("{s:s, s:s, s:s, s:s, s:I}", "system", v[5], "release", v[6],
                               "arch", v[7], "cpu", v[8], "cores",
                               (json_int_t)strtoll(uint_or(v[9], "0"), NULL, 10));
  json_t *m = json_object();
  for (size_t k = 0; k < 5; k++)
    json_object_set_new(m, keys[k], json_string(v[k]));
  json_object_set_new(m, "machine", machine);
  json_object_set_new(m, "date", json_string(date != NULL ? date : ""));
  json_object_set_new(m, "wall_time_s", json_real(round(wall * 1000.0) / 1000.0));
  json_object_set_new(m, "jobs", json_integer((json_int_t)threads));
  json_object_set_new(m, "quick", json_boolean(strcmp(q, "true") == 0));
  json_object_set_new(m, "samples", json_integer(strtoll(uint_or(smp, "0"), NULL, 10)));
  json_object_set_new(m, "max_steps", json_integer(strtoll(uint_or(ms, "0"), NULL, 10)));
  json_object_set_new(m, "max_rhs", json_integer(strtoll(uint_or(mr, "0"), NULL, 10)));
  json_object_set_new(m, "runs", json_integer((json_int_t)o->nruns));
  json_object_set_new(m, "ok", json_integer((json_int_t)o->tally.ok));
  json_object_set_new(m, "unstable", json_integer((json_int_t)o->tally.unstable));
  json_object_set_new(m, "suspect", json_integer((json_int_t)o->tally.suspect));
  json_object_set_new(m, "budget", json_integer((json_int_t)o->tally.budget));
  json_object_set_new(m, "failed", json_integer((json_int_t)o->tally.failed));
  json_object_set_new(m, "expected_failures", json_integer((json_int_t)o->tally.expected));
  json_object_set_new(m, "references", json_integer((json_int_t)refs));
  json_object_set_new(m, "parts", json_integer((json_int_t)o->nparts));
  o->meta = fb_json_text(m);
  json_decref(m);
  if (o->meta == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  o->meta_len = strlen(o->meta);
  return FB_OK;
}

/* What fb_merge_texts carries from one step to the next. */
typedef struct merge_ctx {
  const fb_merge_part *parts;
  size_t n;
  size_t N;           /* runs in the whole table */
  fb_csv *T;          /* runs.csv of each part */
  run_ref *rr;        /* every row of every part; sorted by run id once read */
  size_t nrr, rcap, nunique;
  run_ref *conv;      /* the step-ladder rows, in id order, for orders.csv */
  size_t nconv;
  order_ref *ord;     /* the rows of every part's orders.csv */
  size_t nord, ocap;
  const char *oheader; /* the first orders.csv header, or NULL */
  size_t oheader_len;
} merge_ctx;

/* part.json: which part of which split; a part without runs.csv did not finish. */
static int merge_check_parts(const fb_merge_part *parts, size_t n, part_info *pi, fb_err *err)
{
  int st = FB_OK;
  for (size_t i = 0; i < n && st == FB_OK; i++) {
    st = part_info_read(parts[i].name, parts[i].part_json, &pi[i], err);
    if (st == FB_OK && parts[i].runs == NULL)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: part %zu/%zu in '%s' has no runs.csv: it did not finish; run its "
                      "line of the jobs file again",
                      pi[i].part, pi[i].parts, parts[i].name);
  }
  if (st == FB_OK)
    st = check_split(parts, pi, n, err);
  return st;
}

/* runs.csv of every part into c->T and c->rr: one header; every row a run id in 1..N, of
 * the header's width.  The first fault in reading order goes to *bad and bad_err, and
 * reading stops there: a run that differs between two parts is found after sorting
 * (merge_check_runs), and wins.  Returns FB_OK or FB_ENOMEM. */
static int merge_read_runs(merge_ctx *c, int *bad, fb_err *bad_err, fb_err *err)
{
  const fb_merge_part *parts = c->parts;
  fb_csv *T = c->T;
  int empty;
  *bad = FB_OK;
  for (size_t i = 0; i < c->n && *bad == FB_OK; i++) {
    const fb_merge_part *p = &parts[i];
    *bad = part_csv(&T[i], p->name, "runs.csv", p->runs, p->runs_len, &empty, bad_err);
    if (*bad != FB_OK && empty)
      *bad = fb_err_set(bad_err, FB_EINVAL, "merge: '%s/runs.csv' has no header", p->name);
    if (*bad != FB_OK)
      break;
    if (T[i].head.len != T[0].head.len ||
        memcmp(p->runs + T[i].head.off, parts[0].runs + T[0].head.off, T[0].head.len) != 0) {
      *bad = fb_err_set(bad_err, FB_EINVAL,
                        "merge: '%s/runs.csv' has other columns than '%s/runs.csv'", p->name,
                        parts[0].name);
      break;
    }
    for (size_t r = 0; r < T[i].nrows; r++) {
      const fb_csv_rec *rec = &T[i].rows[r];
      const size_t id = run_id(fb_csv_s(&T[i], r, 0), c->N);
      if (id == 0 || rec->nfields != T[i].ncols) {
        const char *line = p->runs + rec->off;
        size_t shown = 0; /* at most 60 bytes, and one line */
        while (shown < rec->len && shown < 60 && (unsigned char)line[shown] >= 0x20)
          shown++;
        *bad = fb_err_set(bad_err, FB_EINVAL, "merge: '%s/runs.csv': bad row '%.*s'", p->name,
                          (int)shown, line);
        break;
      }
      if (c->nrr == c->rcap) {
        c->rcap = c->rcap ? 2 * c->rcap : 256;
        run_ref *nr = realloc(c->rr, c->rcap * sizeof *nr);
        if (nr == NULL)
          return fb_err_set(err, FB_ENOMEM, "out of memory");
        c->rr = nr;
      }
      c->rr[c->nrr] = (run_ref){{id, c->nrr}, i, r};
      c->nrr++;
    }
  }
  return FB_OK;
}

/* Sort the rows by id and judge them: a run that differs between parts first, then the
 * reading fault of merge_read_runs, then the smallest id in no part. */
static int merge_check_runs(merge_ctx *c, int bad, const fb_err *bad_err, fb_err *err)
{
  run_ref *rr = c->rr;
  const size_t nrr = c->nrr;
  if (nrr > 1)
    qsort(rr, nrr, sizeof *rr, by_key_seq);
  size_t differs = SIZE_MAX, differs_id = 0, nunique = 0;
  for (size_t k = 0, first = 0; k < nrr; k++) {
    if (k == 0 || rr[k].k.key != rr[k - 1].k.key) {
      first = k;
      nunique++;
      continue;
    }
    /* a setup failure is in every part, alike */
    const fb_csv_rec *a = &c->T[rr[first].part].rows[rr[first].row];
    const fb_csv_rec *b = &c->T[rr[k].part].rows[rr[k].row];
    if ((a->len != b->len || memcmp(c->parts[rr[first].part].runs + a->off,
                                    c->parts[rr[k].part].runs + b->off, a->len) != 0) &&
        rr[k].k.seq < differs) {
      differs = rr[k].k.seq;
      differs_id = rr[k].k.key;
    }
  }
  c->nunique = nunique;
  if (differs != SIZE_MAX)
    return fb_err_set(err, FB_EINVAL, "merge: run %zu differs between parts", differs_id);
  if (bad != FB_OK) {
    *err = *bad_err;
    return bad;
  }
  if (nunique < c->N) { /* the smallest id missing */
    size_t want = 1;
    for (size_t k = 0; k < nrr && rr[k].k.key <= want; k++)
      if (rr[k].k.key == want)
        want++;
    return fb_err_set(err, FB_EINVAL, "merge: run %zu is in no part: a part was interrupted; "
                                      "run its line again",
                      want);
  }
  return FB_OK;
}

/* The merged runs.csv: every run once, by id, as written; the tally; the step-ladder
 * rows into c->conv. */
static int merge_write_runs(merge_ctx *c, fb_merge_out *out, fb_err *err)
{
  const fb_csv *T = c->T;
  const run_ref *rr = c->rr;
  FILE *fp = open_memstream(&out->runs, &out->runs_len);
  if (fp == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  fwrite(c->parts[0].runs + T[0].head.off, 1, T[0].head.len, fp);
  fputc('\n', fp);
  const int cst = fb_csv_col(&T[0], "status"), cg = fb_csv_col(&T[0], "group"),
            cm = fb_csv_col(&T[0], "model"), ci = fb_csv_col(&T[0], "integrator"),
            cw = fb_csv_col(&T[0], "sweep");
  c->nconv = 0;
  c->conv = malloc((c->nunique ? c->nunique : 1) * sizeof *c->conv);
  if (c->conv == NULL) {
    fclose(fp);
    free(out->runs);
    out->runs = NULL;
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  for (size_t k = 0; k < c->nrr; k++) {
    if (k > 0 && rr[k].k.key == rr[k - 1].k.key)
      continue;
    const fb_csv *t = &T[rr[k].part];
    const fb_csv_rec *rec = &t->rows[rr[k].row];
    fwrite(c->parts[rr[k].part].runs + rec->off, 1, rec->len, fp);
    fputc('\n', fp);
    const char *s = fb_csv_s(t, rr[k].row, cst);
    fb_run_tally_add(&out->tally, s, fb_csv_s(t, rr[k].row, cm), fb_csv_s(t, rr[k].row, ci));
    if (strcmp(fb_csv_s(t, rr[k].row, cg), "convergence") == 0 &&
        strcmp(fb_csv_s(t, rr[k].row, cw), "h") == 0)
      c->conv[c->nconv++] = rr[k];
  }
  return mem_close(fp, &out->runs, err);
}

/* The rows of every part's orders.csv into c->ord, each keyed by the run id of the first
 * convergence row of its experiment (table order). */
static int merge_read_orders(merge_ctx *c, fb_err *err)
{
  const fb_csv *T = c->T;
  const int cs = fb_csv_col(&T[0], "scenario"), cm = fb_csv_col(&T[0], "model"),
            ci = fb_csv_col(&T[0], "integrator"), ct = fb_csv_col(&T[0], "tag");
  int empty;
  for (size_t i = 0; i < c->n; i++) {
    const fb_merge_part *p = &c->parts[i];
    if (p->orders == NULL)
      continue;
    fb_csv O;
    int st = part_csv(&O, p->name, "orders.csv", p->orders, p->orders_len, &empty, err);
    if (st != FB_OK && empty)
      continue; /* no header, no rows */
    if (st != FB_OK)
      return st;
    if (c->oheader == NULL) {
      c->oheader = p->orders + O.head.off;
      c->oheader_len = O.head.len;
    }
    for (size_t r = 0; r < O.nrows; r++) {
      const char *sc = fb_csv_s(&O, r, 0), *md = fb_csv_s(&O, r, 1),
                 *ig = fb_csv_s(&O, r, 2), *tg = fb_csv_s(&O, r, 3);
      size_t key = SIZE_MAX;
      for (size_t k = 0; k < c->nconv && key == SIZE_MAX; k++) {
        const fb_csv *t = &T[c->conv[k].part];
        const size_t row = c->conv[k].row;
        if (strcmp(fb_csv_s(t, row, cs), sc) == 0 && strcmp(fb_csv_s(t, row, cm), md) == 0 &&
            strcmp(fb_csv_s(t, row, ci), ig) == 0 && strcmp(fb_csv_s(t, row, ct), tg) == 0)
          key = c->conv[k].k.key;
      }
      if (c->nord == c->ocap) {
        c->ocap = c->ocap ? 2 * c->ocap : 64;
        order_ref *no = realloc(c->ord, c->ocap * sizeof *no);
        if (no == NULL) {
          fb_csv_free(&O);
          return fb_err_set(err, FB_ENOMEM, "out of memory");
        }
        c->ord = no;
      }
      c->ord[c->nord] = (order_ref){{key, c->nord}, p->orders + O.rows[r].off, O.rows[r].len};
      c->nord++;
    }
    fb_csv_free(&O);
  }
  return FB_OK;
}

/* The merged orders.csv: the rows in table order under the first part's header. */
static int merge_write_orders(merge_ctx *c, fb_merge_out *out, fb_err *err)
{
  if (c->nord > 1)
    qsort(c->ord, c->nord, sizeof *c->ord, by_key_seq);
  FILE *fp = open_memstream(&out->orders, &out->orders_len);
  if (fp == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  if (c->oheader != NULL)
    fwrite(c->oheader, 1, c->oheader_len, fp);
  else
    fputs("scenario,model,integrator,tag,points,order_x,order_v,order_F,err_x_finest,h_finest",
          fp);
  fputc('\n', fp);
  for (size_t k = 0; k < c->nord; k++) {
    fwrite(c->ord[k].line, 1, c->ord[k].len, fp);
    fputc('\n', fp);
  }
  return mem_close(fp, &out->orders, err);
}

int fb_merge_texts(const fb_merge_part *parts, size_t n, const char *date, fb_merge_out *out,
                   fb_err *err)
{
  memset(out, 0, sizeof *out);
  if (n == 0)
    return fb_err_set(err, FB_EINVAL, "merge: no parts given");
  merge_ctx c = {.parts = parts, .n = n};
  part_info *pi = calloc(n, sizeof *pi);
  c.T = calloc(n, sizeof *c.T);
  int st = pi != NULL && c.T != NULL ? FB_OK : fb_err_set(err, FB_ENOMEM, "out of memory");
  if (st == FB_OK)
    st = merge_check_parts(parts, n, pi, err);
  if (st == FB_OK) {
    out->nparts = pi[0].parts;
    out->nruns = c.N = pi[0].runs_total;
    int bad;
    fb_err bad_err;
    st = merge_read_runs(&c, &bad, &bad_err, err);
    if (st == FB_OK)
      st = merge_check_runs(&c, bad, &bad_err, err);
  }
  if (st == FB_OK)
    st = merge_write_runs(&c, out, err);
  if (st == FB_OK)
    st = merge_read_orders(&c, err);
  if (st == FB_OK)
    st = merge_write_orders(&c, out, err);
  if (st == FB_OK)
    st = merge_meta(parts, n, date, out, err);
  if (c.T != NULL)
    for (size_t i = 0; i < n; i++)
      fb_csv_free(&c.T[i]);
  free(c.T);
  free(pi);
  free(c.rr);
  free(c.conv);
  free(c.ord);
  if (st != FB_OK)
    fb_merge_out_free(out);
  return st;
}

/* ---- merge: the files -------------------------------------------------------------------- */

typedef struct part_dir {
  char *path;
  char *json, *runs, *orders, *meta; /* file texts; runs, orders, meta NULL when absent */
  size_t runs_len, orders_len;
} part_dir;

typedef struct merge_set {
  part_dir *p;
  size_t n, cap;
} merge_set;

static int is_file(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The text of dir/name, or NULL when it cannot be read. */
static char *read_part_file(const char *dir, const char *name, size_t *len)
{
  char f[PATH_LEN + 32], *text;
  size_t l;
  snprintf(f, sizeof f, "%s/%s", dir, name);
  if (fb_read_file(f, &text, &l) != 0)
    return NULL;
  if (len != NULL)
    *len = l;
  return text;
}

static int add_part(merge_set *M, const char *path, fb_err *err)
{
  if (strlen(path) >= PATH_LEN)
    return fb_err_set(err, FB_EINVAL, "merge: path too long: '%.100s...'", path);
  char *json = read_part_file(path, "part.json", NULL);
  if (json == NULL)
    return fb_err_set(err, FB_EINVAL, "merge: '%s' is not a part (no part.json): give the "
                                      "directories written by the --emit-jobs commands",
                      path);
  if (M->n == M->cap) {
    const size_t cap = M->cap ? 2 * M->cap : 16;
    part_dir *np = realloc(M->p, cap * sizeof *np);
    if (np == NULL) {
      free(json);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    M->p = np;
    M->cap = cap;
  }
  part_dir *p = &M->p[M->n++];
  memset(p, 0, sizeof *p);
  p->json = json;
  p->path = strdup(path);
  if (p->path == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  p->runs = read_part_file(path, "runs.csv", &p->runs_len);
  p->orders = read_part_file(path, "orders.csv", &p->orders_len);
  p->meta = read_part_file(path, "meta.json", NULL);
  /* every file as the part wrote it, every row as its journal recorded it */
  return fb_manifest_check(path, path, p->runs, p->runs_len, err);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A DIR argument: a part, or a directory of part-* directories. */
static int add_arg(merge_set *M, const char *dir, int *was_parent, fb_err *err)
{
  char f[PATH_LEN + 16];
  snprintf(f, sizeof f, "%s/part.json", dir);
  *was_parent = 0;
  if (is_file(f))
    return add_part(M, dir, err);
  DIR *d = opendir(dir);
  if (d == NULL)
    return fb_err_set(err, FB_EINVAL, "merge: cannot open '%s': %s", dir, strerror(errno));
  char **names = NULL;
  size_t nn = 0, cap = 0;
  int st = FB_OK;
  struct dirent *e;
  while (st == FB_OK && (e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "part-", 5) != 0)
      continue;
    if (nn == cap) {
      cap = cap ? 2 * cap : 64;
      char **nb = realloc(names, cap * sizeof *nb);
      if (nb == NULL) {
        st = fb_err_set(err, FB_ENOMEM, "out of memory");
        break;
      }
      names = nb;
    }
    if ((names[nn] = strdup(e->d_name)) == NULL)
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
    else
      nn++;
  }
  closedir(d);
  if (st == FB_OK && nn == 0)
    st = fb_err_set(err, FB_EINVAL,
                    "merge: '%s' holds no part (no part.json, no part-* directory)", dir);
  if (nn > 1)
    qsort(names, nn, sizeof *names, cmp_str);
  for (size_t i = 0; i < nn; i++) {
    if (st == FB_OK) {
      snprintf(f, sizeof f, "%s/%s", dir, names[i]);
      st = add_part(M, f, err);
    }
    free(names[i]);
  }
  free(names);
  *was_parent = 1;
  return st;
}

/* Link (or copy) every file of src/traj/<scenario>/ into dst/traj/<scenario>/ that is not
 * there yet (two parts that need one reference write the same file). */
static int merge_traj(const char *src, const char *dst, fb_err *err)
{
  char sd[2 * PATH_LEN], dd[2 * PATH_LEN], sf[3 * PATH_LEN], df[3 * PATH_LEN];
  snprintf(sd, sizeof sd, "%s/traj", src);
  DIR *d = opendir(sd);
  if (d == NULL)
    return FB_OK;
  struct dirent *e;
  int st = FB_OK;
  while (st == FB_OK && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(sd, sizeof sd, "%s/traj/%s", src, e->d_name);
    snprintf(dd, sizeof dd, "%s/traj/%s", dst, e->d_name);
    DIR *d2 = opendir(sd);
    if (d2 == NULL)
      continue;
    if (fb_mkdir_p(dd) != 0)
      st = fb_err_set(err, FB_EIO, "merge: cannot create '%s': %s", dd, strerror(errno));
    struct dirent *f;
    while (st == FB_OK && (f = readdir(d2)) != NULL) {
      const size_t l = strlen(f->d_name);
      if (f->d_name[0] == '.' || l < 4 || !fb_is_traj_name(f->d_name))
        continue; /* temporaries of an interrupted write are not results */
      snprintf(sf, sizeof sf, "%s/%s", sd, f->d_name);
      snprintf(df, sizeof df, "%s/%s", dd, f->d_name);
      if (is_file(df) || link(sf, df) == 0)
        continue;
      /* another file system: copy */
      FILE *in = fopen(sf, "rb");
      fb_outfile of;
      if (in == NULL || fb_outfile_open(&of, df, "trajectory", err) != FB_OK) {
        if (in != NULL)
          fclose(in);
        st = fb_err_set(err, FB_EIO, "merge: cannot copy '%s' to '%s'", sf, df);
        break;
      }
      char buf[1 << 15];
      size_t r;
      while ((r = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, r, of.fp);
      fclose(in);
      st = fb_outfile_commit(&of, err);
    }
    closedir(d2);
  }
  closedir(d);
  return st;
}

/* dir/name holding text[0 .. len), written atomically. */
static int write_text(const char *dir, const char *name, const char *text, size_t len,
                      fb_err *err)
{
  char path[PATH_LEN + 32];
  fb_outfile of;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const int st = fb_outfile_open(&of, path, name, err);
  if (st != FB_OK)
    return st;
  fwrite(text, 1, len, of.fp);
  return fb_outfile_commit(&of, err);
}

/* Progress on a terminal (quiet otherwise): parts whose trajectories are copied, elapsed
 * time and an estimate, as the suite's progress line. */
static void merge_progress(size_t done, size_t total, double t0, const char *what)
{
  if (!isatty(STDERR_FILENO))
    return;
  const double el = fb_clock_s(CLOCK_MONOTONIC) - t0;
  const double eta = done > 0 ? el * (double)(total - done) / (double)done : 0;
  fprintf(stderr, "\r[merge] %s %zu/%zu, %.1f s elapsed, ~%.0f s left   %s", what, done, total,
          el, eta, done == total ? "\n" : "");
  fflush(stderr);
}

static int merge_run(merge_set *M, const char *out, int plots, size_t jobs, fb_err *err)
{
  const double t0 = fb_clock_s(CLOCK_MONOTONIC);
  fb_merge_part *mp = calloc(M->n, sizeof *mp);
  if (mp == NULL)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  for (size_t i = 0; i < M->n; i++) {
    const part_dir *p = &M->p[i];
    mp[i] = (fb_merge_part){p->path, p->json, p->runs, p->runs_len, p->orders, p->orders_len,
                            p->meta};
  }
  char date[64];
  const time_t now = time(NULL);
  struct tm tmv;
  gmtime_r(&now, &tmv);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  fb_merge_out mo;
  int st = fb_merge_texts(mp, M->n, date, &mo, err);
  free(mp);
  if (st != FB_OK)
    return st;
  if (fb_mkdir_p(out) != 0)
    st = fb_err_set(err, FB_EINVAL, "merge: output directory '%s' cannot be created: %s", out,
                    strerror(errno));
  if (st == FB_OK)
    st = write_text(out, "runs.csv", mo.runs, mo.runs_len, err);
  if (st == FB_OK)
    st = write_text(out, "orders.csv", mo.orders, mo.orders_len, err);
  for (size_t i = 0; i < M->n && st == FB_OK; i++) {
    merge_progress(i, M->n, t0, "parts' trajectories");
    st = merge_traj(M->p[i].path, out, err);
  }
  if (st == FB_OK)
    merge_progress(M->n, M->n, t0, "parts' trajectories");
  if (st == FB_OK)
    st = write_text(out, "meta.json", mo.meta, mo.meta_len, err);
  if (st == FB_OK)
    st = fb_verdicts_write(out, err);
  if (st == FB_OK) /* after the trajectories: frame.csv reads them */
    st = fb_frame_write(out, err);
  if (st == FB_OK)
    st = fb_seed_claims_write(out, err);
  if (st == FB_OK) {
    if (plots && isatty(STDERR_FILENO))
      fputs("[merge] plots and report...\n", stderr);
    if (plots)
      st = fb_report_make(out, jobs, err);
    char counts[160];
    fb_run_tally_text(&mo.tally, counts, sizeof counts);
    fprintf(stderr, "fricbench merge: %zu parts, %s; results in %s/\n", mo.nparts, counts, out);
  }
  fb_merge_out_free(&mo);
  return st;
}

static const char merge_help[] =
    "usage: fricbench merge [--out OUT] [--no-plots] [--svg] [--jobs N] DIR...\n"
    "\n"
    "Reassembles the parts written by the commands of `fricbench suite --emit-jobs FILE\n"
    "--out DIR` into one result: OUT/runs.csv (every row, in table order: the file a\n"
    "single-process suite writes, apart from the timing columns wall_s and cpu_s),\n"
    "orders.csv, traj/, meta.json, plots/ and report.html.  Each DIR is a part or a\n"
    "directory holding part-* directories; OUT defaults to that directory when one is\n"
    "given.  Fails, naming them, when parts are missing, doubled or from another split,\n"
    "and when a part's files are not what its manifest (written last) lists or a row of\n"
    "its runs.csv is not what its journal recorded (exit 2).\n"
    "\n"
    "  -o, --out OUT    output directory\n"
    "      --no-plots   skip plots and report.html\n"
    "      --svg        also draw an SVG of every plot but the trajectory overlays\n"
    "      --jobs N     gnuplot processes at once (default: the machine's cores)\n"
    "  -h, --help       this help\n";

int fb_cmd_merge(int argc, char **argv)
{
  static const struct option opts[] = {
      {"out", required_argument, NULL, 'o'}, {"no-plots", no_argument, NULL, 'P'},
      {"jobs", required_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
      {"svg", no_argument, NULL, 'G'},
      {NULL, 0, NULL, 0},
  };
  const char *out = NULL;
  size_t jobs = 0;
  unsigned long v;
  int plots = 1, c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case 'P': plots = 0; break;
    case 'G': fb_report_set_svg(1); break;
    case 'j':
      if (fb_parse_ulong(optarg, &v) != FB_OK || v < 1 || v > 256) {
        fprintf(stderr, "fricbench: --jobs '%s' is not allowed: use an integer in [1, 256]\n",
                optarg);
        return FB_EXIT_USAGE;
      }
      jobs = v;
      break;
    case 'h': fputs(merge_help, stdout); return FB_EXIT_OK;
    case ':':
      fprintf(stderr, "fricbench: option %s needs a value\n", argv[optind - 1]);
      return FB_EXIT_USAGE;
    default:
      fprintf(stderr, "fricbench: unknown option '%s' for merge: see 'fricbench merge --help'\n",
              argv[optind - 1]);
      return FB_EXIT_USAGE;
    }
  }
  if (optind >= argc) {
    fputs("fricbench: merge needs the parts' directory (see 'fricbench merge --help')\n", stderr);
    return FB_EXIT_USAGE;
  }
  merge_set M = {0};
  fb_err err = {{0}};
  int st = FB_OK, parent = 0;
  for (int i = optind; i < argc && st == FB_OK; i++)
    st = add_arg(&M, argv[i], &parent, &err);
  if (st == FB_OK && out == NULL) {
    if (argc - optind == 1 && parent)
      out = argv[optind];
    else
      st = fb_err_set(&err, FB_EINVAL, "merge: give --out OUT when merging single parts");
  }
  if (st == FB_OK && M.n == 0)
    st = fb_err_set(&err, FB_EINVAL, "merge: no parts given");
  /* the output is written over: never a part (an input) nor inside one */
  for (size_t i = 0; st == FB_OK && i < M.n; i++)
    if (fb_path_within(out, M.p[i].path))
      st = fb_err_set(&err, FB_EINVAL, "merge: --out '%s' is (or is inside) the part '%s', an "
                      "input: allowed is a directory outside every part", out, M.p[i].path);
  if (st == FB_OK)
    st = merge_run(&M, out, plots, jobs, &err);
  for (size_t i = 0; i < M.n; i++) {
    free(M.p[i].path);
    free(M.p[i].json);
    free(M.p[i].runs);
    free(M.p[i].orders);
    free(M.p[i].meta);
  }
  free(M.p);
  if (st != FB_OK) {
    fprintf(stderr, "fricbench: %s\n", err.msg);
    return st == FB_EINVAL ? FB_EXIT_USAGE : FB_EXIT_RUNTIME;
  }
  return FB_EXIT_OK;
}
