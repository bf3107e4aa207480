/* manifest.c — a part's manifest and merge's checks against it (fb_manifest.h). */
#define _XOPEN_SOURCE 700
#include "fb_manifest.h"
#include "fb_gzcsv.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb_csv.h"
#include "fb_io.h"
#include "fb_metrics.h"
#include "fb_params.h"
#include "fb_resume.h"
#include "fb_parse.h"

#define MANIFEST_HEAD "fricbench-manifest 1\n"
#define PATH_LEN 4096

/* ---- the files of a part ------------------------------------------------------------- */

typedef struct names {
  char **v;
  size_t n, cap;
} names;

static int names_add(names *s, const char *name)
{
  if (s->n == s->cap) {
    const size_t cap = s->cap ? 2 * s->cap : 64;
    char **nv = realloc(s->v, cap * sizeof *nv);
    if (nv == NULL)
      return FB_ENOMEM;
    s->v = nv;
    s->cap = cap;
  }
  if ((s->v[s->n] = strdup(name)) == NULL)
    return FB_ENOMEM;
  s->n++;
  return FB_OK;
}

static void names_free(names *s)
{
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

static int cmp_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_reg(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* What merge takes from a part: the fixed files that exist, and traj/<d>/<f>.csv[.gz] (d, f
 * not starting with '.'; temporaries end in .tmp.XXXXXX, not .csv), sorted. */
static int part_files(const char *dir, names *out)
{
  static const char *const fixed[] = {"runs.csv", "orders.csv", "meta.json", "part.json",
                                      FB_JOURNAL_NAME};
  char path[2 * PATH_LEN], sub[PATH_LEN];
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, fixed[i]);
    if (is_reg(path) && names_add(out, fixed[i]) != FB_OK)
      return FB_ENOMEM;
  }
  snprintf(path, sizeof path, "%s/traj", dir);
  DIR *d = opendir(path);
  struct dirent *e;
  int st = FB_OK;
  while (d != NULL && st == FB_OK && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strlen(e->d_name) >= 512)
      continue;
    snprintf(sub, sizeof sub, "%s/traj/%s", dir, e->d_name);
    DIR *d2 = opendir(sub);
    struct dirent *f;
    while (d2 != NULL && st == FB_OK && (f = readdir(d2)) != NULL) {
      const size_t l = strlen(f->d_name);
      if (f->d_name[0] == '.' || l < 4 || l >= 1024 || !fb_is_traj_name(f->d_name))
        continue;
      snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
      if (!is_reg(path))
        continue;
      snprintf(path, sizeof path, "traj/%s/%s", e->d_name, f->d_name);
      st = names_add(out, path);
    }
    if (d2 != NULL)
      closedir(d2);
  }
  if (d != NULL)
    closedir(d);
  if (st == FB_OK && out->n > 1)
    qsort(out->v, out->n, sizeof *out->v, cmp_name);
  return st;
}

/* ---- writing ---------------------------------------------------------------------------- */

int fb_manifest_write(const char *dir, fb_err *err)
{
  names files;
  if (part_files(dir, &files) != FB_OK) {
    names_free(&files);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  char *body = NULL;
  size_t body_len = 0;
  FILE *mem = open_memstream(&body, &body_len);
  int st = mem == NULL ? fb_err_set(err, FB_ENOMEM, "out of memory") : FB_OK;
  if (st == FB_OK)
    fputs(MANIFEST_HEAD, mem);
  for (size_t i = 0; i < files.n && st == FB_OK; i++) {
    char path[2 * PATH_LEN];
    size_t size;
    uint64_t h;
    snprintf(path, sizeof path, "%s/%s", dir, files.v[i]);
    if (fb_hash64_file(path, &size, &h) != 0)
      st = fb_err_set(err, FB_EIO, "manifest: cannot read '%s': %s", path, strerror(errno));
    else
      fprintf(mem, "%zu %016" PRIx64 " %s\n", size, h, files.v[i]);
  }
  /* one hash per row of runs.csv, so that merge can name the row that was changed */
  char *runs = NULL;
  size_t runs_len = 0;
  char rpath[PATH_LEN + 32];
  snprintf(rpath, sizeof rpath, "%s/runs.csv", dir);
  fb_csv T;
  if (st == FB_OK && fb_read_file(rpath, &runs, &runs_len) == 0 &&
      fb_csv_parse(&T, runs, runs_len) == FB_OK) {
    for (size_t r = 0; r < T.nrows; r++)
      fprintf(mem, "row %zu %016" PRIx64 "\n", r + 1,
              fb_hash64(FB_HASH64_INIT, runs + T.rows[r].off, T.rows[r].len));
    fb_csv_free(&T);
  }
  free(runs);
  if (mem != NULL && (fclose(mem) != 0 || body == NULL) && st == FB_OK)
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
  if (st == FB_OK) {
    char path[PATH_LEN + 32];
    fb_outfile of;
    snprintf(path, sizeof path, "%s/%s", dir, FB_MANIFEST_NAME);
    st = fb_outfile_open(&of, path, "manifest", err);
    if (st == FB_OK) {
      fwrite(body, 1, body_len, of.fp);
      fprintf(of.fp, "end %zu %016" PRIx64 "\n", files.n,
              fb_hash64(FB_HASH64_INIT, body, body_len));
      st = fb_outfile_commit(&of, err);
    }
  }
  free(body);
  names_free(&files);
  return st;
}

void fb_manifest_remove(const char *dir)
{
  char path[PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/%s", dir, FB_MANIFEST_NAME);
  unlink(path);
}

/* ---- checking the files ----------------------------------------------------------------- */

/* A manifest path: relative, no "..", no empty or "." component, printable. */
static int safe_path(const char *p)
{
  if (*p == '\0' || *p == '/')
    return 0;
  for (const char *c = p; *c; c++)
    if ((unsigned char)*c < 0x20)
      return 0;
  for (const char *s = p; *s;) {
    const char *e = strchr(s, '/');
    const size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
      return 0;
    s += n + (e != NULL);
    if (e != NULL && *s == '\0')
      return 0;
  }
  return 1;
}

static int hex64(const char *s, size_t n, uint64_t *out)
{
  if (n != 16)
    return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    const char c = s[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0)
      return 0;
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 1;
}

static int damaged(fb_err *err, const char *name, const char *why)
{
  return fb_err_set(err, FB_EINVAL,
                    "merge: '%s/%s' is damaged (%s): the part's files cannot be verified; run "
                    "its line of the jobs file again",
                    name, FB_MANIFEST_NAME, why);
}

/* The manifest's hashes of the rows of runs.csv. */
typedef struct row_sums {
  uint64_t *v;
  size_t n, cap;
} row_sums;

/* Check the files of dir against its manifest text.  A runs.csv that differs is not
 * reported here: *runs_bad is set and runs_err holds the message, so that the caller can
 * first name the row; the row hashes go to *rows. */
static int check_files(const char *dir, const char *name, char *text, size_t len,
                       int *runs_bad, fb_err *runs_err, row_sums *rows, fb_err *err)
{
  const size_t hl = strlen(MANIFEST_HEAD);
  if (len < hl || memcmp(text, MANIFEST_HEAD, hl) != 0)
    return damaged(err, name, "no fricbench-manifest 1 header");
  if (text[len - 1] != '\n')
    return damaged(err, name, "cut: no final line end");
  /* the end line: the last one */
  size_t el = len - 1;
  while (el > 0 && text[el - 1] != '\n')
    el--;
  unsigned long count;
  uint64_t sum;
  if (len - el < 5 || memcmp(text + el, "end ", 4) != 0)
    return damaged(err, name, "no end line");
  char *sp = memchr(text + el + 4, ' ', len - 1 - (el + 4));
  if (sp == NULL)
    return damaged(err, name, "no end line");
  *sp = '\0';
  text[len - 1] = '\0';
  if (fb_parse_ulong(text + el + 4, &count) != FB_OK ||
      !hex64(sp + 1, strlen(sp + 1), &sum))
    return damaged(err, name, "bad end line");
  if (fb_hash64(FB_HASH64_INIT, text, el) != sum)
    return damaged(err, name, "its checksum does not match its lines");
  /* the entries */
  names listed = {0};
  int st = FB_OK;
  size_t nlines = 0;
  for (size_t p = hl; p < el && st == FB_OK;) {
    char *line = text + p, *nl = memchr(line, '\n', el - p);
    *nl = '\0';
    p = (size_t)(nl - text) + 1;
    nlines++;
    char *s1 = strchr(line, ' '), *s2 = s1 ? strchr(s1 + 1, ' ') : NULL;
    unsigned long size;
    uint64_t h;
    if (strncmp(line, "row ", 4) == 0) { /* row <n> <hash>, n = 1, 2, ... */
      nlines--;
      if (s2 != NULL)
        *s2 = '\0';
      if (s2 == NULL || fb_parse_ulong(s1 + 1, &size) != FB_OK || size != rows->n + 1 ||
          !hex64(s2 + 1, strlen(s2 + 1), &h)) {
        st = damaged(err, name, "a row line is not 'row n hash'");
        break;
      }
      if (rows->n == rows->cap) {
        const size_t cap = rows->cap ? 2 * rows->cap : 256;
        uint64_t *nv = realloc(rows->v, cap * sizeof *nv);
        if (nv == NULL) {
          st = fb_err_set(err, FB_ENOMEM, "out of memory");
          break;
        }
        rows->v = nv;
        rows->cap = cap;
      }
      rows->v[rows->n++] = h;
      continue;
    }
    if (s2 == NULL) {
      st = damaged(err, name, "a line is not 'bytes hash path'");
      break;
    }
    *s1 = '\0';
    if (fb_parse_ulong(line, &size) != FB_OK || !hex64(s1 + 1, (size_t)(s2 - s1 - 1), &h) ||
        !safe_path(s2 + 1)) {
      st = damaged(err, name, "a line is not 'bytes hash path'");
      break;
    }
    const char *rel = s2 + 1;
    char path[2 * PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    size_t have;
    uint64_t hh;
    if (fb_hash64_file(path, &have, &hh) != 0)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' is missing (%s), but the part's manifest lists it (%lu "
                      "bytes): run the part's line of the jobs file again",
                      name, rel, strerror(errno), size);
    else if ((have != size || hh != h) && strcmp(rel, "runs.csv") == 0 && !*runs_bad) {
      *runs_bad = 1; /* named by row later if possible */
      fb_err_set(runs_err, FB_EINVAL,
                 "merge: '%s/runs.csv' has %zu bytes, the part's manifest says %lu: it was "
                 "changed after the part finished",
                 name, have, size);
      if (names_add(&listed, rel) != FB_OK)
        st = fb_err_set(err, FB_ENOMEM, "out of memory");
    } else if (have != size)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' has %zu bytes, the part's manifest says %lu: it was "
                      "truncated or changed after the part finished",
                      name, rel, have, size);
    else if (hh != h)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' was changed after the part finished: its checksum is "
                      "not the manifest's",
                      name, rel);
    else if (names_add(&listed, rel) != FB_OK)
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  if (st == FB_OK && nlines != count)
    st = damaged(err, name, "its count of files is not its number of lines");
  /* every file merge would take must be listed */
  names files = {0};
  if (st == FB_OK && part_files(dir, &files) != FB_OK)
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
  if (st == FB_OK && listed.n > 1)
    qsort(listed.v, listed.n, sizeof *listed.v, cmp_name);
  for (size_t i = 0; i < files.n && st == FB_OK; i++)
    if (listed.n == 0 ||
        bsearch(&files.v[i], listed.v, listed.n, sizeof *listed.v, cmp_name) == NULL)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' is not in the part's manifest: it was added after the "
                      "part finished",
                      name, files.v[i]);
  names_free(&files);
  names_free(&listed);
  return st;
}

/* ---- runs.csv against the journal --------------------------------------------------------- */

typedef struct recs {
  fb_journal_rec *v;
  size_t n, cap;
} recs;

static int keep_rec(void *ctx, const fb_journal_rec *r)
{
  recs *R = ctx;
  if (R->n == R->cap) {
    const size_t cap = R->cap ? 2 * R->cap : 64;
    fb_journal_rec *nv = realloc(R->v, cap * sizeof *nv);
    if (nv == NULL)
      return 1;
    R->v = nv;
    R->cap = cap;
  }
  R->v[R->n++] = *r;
  return 0;
}

static const char *status_word(int status)
{
  return status == FB_OK ? "ok" : status == FB_BUDGET ? "budget" : "failed";
}

/* The cell as runs.csv writes a number (suite.c: %.10g, "nan"). */
static void num_text(double v, char *buf, size_t len)
{
  if (isnan(v))
    snprintf(buf, len, "nan");
  else
    snprintf(buf, len, "%.10g", v);
}

static int row_fault(fb_err *err, const char *name, size_t row, const char *id,
                     const char *col, const char *have, const char *want)
{
  char h[64], w[64];
  fb_text_escape(have, h, sizeof h);
  fb_text_escape(want, w, sizeof w);
  return fb_err_set(err, FB_EINVAL,
                    "merge: '%s/runs.csv' row %zu (run_id %.20s): %s is '%s', the part's "
                    "journal says '%s': the row was changed after the part ran",
                    name, row, id, col, h, w);
}

static int check_rows(const char *dir, const char *name, const char *runs, size_t runs_len,
                      fb_err *err)
{
  char path[PATH_LEN + 32], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", dir, FB_JOURNAL_NAME);
  if (fb_read_file(path, &text, &len) != 0)
    return fb_err_set(err, FB_EINVAL,
                      "merge: '%s/%s' cannot be read (%s): the rows of runs.csv cannot be "
                      "checked; run the part's line of the jobs file again",
                      name, FB_JOURNAL_NAME, strerror(errno));
  fb_journal_head h;
  recs R = {0};
  size_t valid = 0, nrec = 0;
  fb_err jerr;
  int st = fb_journal_parse(text, len, &h, keep_rec, &R, &valid, &nrec, &jerr);
  free(text);
  if (st == FB_OK && nrec != R.n)
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
  else if (st != FB_OK)
    st = fb_err_set(err, FB_EINVAL, "merge: '%s/%s' is damaged: %s", name, FB_JOURNAL_NAME,
                    jerr.msg);
  else if (valid != len)
    st = fb_err_set(err, FB_EINVAL,
                    "merge: '%s/%s' is damaged at byte %zu of %zu: a finished part's journal "
                    "is valid to its end",
                    name, FB_JOURNAL_NAME, valid, len);
  if (st != FB_OK) {
    free(R.v);
    return st;
  }
  fb_csv T;
  if (fb_csv_parse(&T, runs, runs_len) != FB_OK) {
    free(R.v);
    return FB_OK; /* no header: fb_merge_texts names it */
  }
  /* index -> record (indices are below the header's njobs); the last one of a job wins */
  fb_journal_rec **by = NULL;
  size_t maxi = 0;
  for (size_t i = 0; i < R.n; i++)
    maxi = R.v[i].index + 1 > maxi ? R.v[i].index + 1 : maxi;
  by = calloc(maxi ? maxi : 1, sizeof *by);
  if (by == NULL) {
    fb_csv_free(&T);
    free(R.v);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < R.n; i++)
    by[R.v[i].index] = &R.v[i];
  /* nlsetups last: its cell is empty for a stepper that does not count them (journal: 0) */
  static const char *const cnames[] = {"nsteps", "nrejected", "nfe",     "njac",
                                       "nevents", "ninner",   "nswitch", "nlsetups"};
  const int cst = fb_csv_col(&T, "status"), cmode = fb_csv_col(&T, "mode"),
            ct = fb_csv_col(&T, "t_reached"), cw = fb_csv_col(&T, "wall_s"),
            cc = fb_csv_col(&T, "cpu_s");
  int ccnt[8], cmet[FB_NMETRICS];
  for (size_t k = 0; k < 8; k++)
    ccnt[k] = fb_csv_col(&T, cnames[k]);
  for (size_t k = 0; k < FB_NMETRICS; k++)
    cmet[k] = fb_csv_col(&T, fb_metric_names[k]);
  for (size_t r = 0; r < T.nrows && st == FB_OK; r++) {
    const char *id = fb_csv_s(&T, r, 0);
    unsigned long idv;
    if (fb_parse_ulong(id, &idv) != FB_OK || idv == 0)
      continue; /* not a run id: fb_merge_texts names the row */
    const fb_journal_rec *jr = idv - 1 < maxi ? by[idv - 1] : NULL;
    if (jr == NULL) {
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s/runs.csv' row %zu (run_id %lu) is not in the part's journal: "
                      "the part did not run it",
                      name, r + 1, idv);
      break;
    }
    char want[64];
    const char *have = fb_csv_s(&T, r, cst);
    /* `suspect` is an ok run that failed the consistency check, decided from its metrics
     * (which the journal holds and are compared below) and its ladder */
    fb_metrics jm;
    char uwhy[160];
    fb_metrics_from_array(&jm, jr->metrics);
    const int unstable = fb_run_unstable(jr->status, &jm, uwhy, sizeof uwhy);
    if (cst >= 0 && unstable != (strcmp(have, "unstable") == 0)) {
      st = row_fault(err, name, r + 1, id, "status", have, unstable ? "unstable" : "not unstable");
      break;
    }
    const int suspect_ok = (jr->status == FB_OK && strcmp(have, "suspect") == 0) || unstable;
    if (cst >= 0 && !suspect_ok && strcmp(have, status_word(jr->status)) != 0) {
      st = row_fault(err, name, r + 1, id, "status", have, status_word(jr->status));
      break;
    }
    const unsigned long cnt[8] = {jr->cnt.nsteps,  jr->cnt.nrejected, jr->cnt.nfe,
                                  jr->cnt.njac,    jr->cnt.nevents,   jr->cnt.ninner,
                                  jr->cnt.nswitch, jr->cnt.nlsetups};
    for (size_t k = 0; k < 8 && st == FB_OK; k++) {
      snprintf(want, sizeof want, "%lu", cnt[k]);
      have = fb_csv_s(&T, r, ccnt[k]);
      if (ccnt[k] >= 0 && strcmp(have, want) != 0 && !(k == 7 && have[0] == '\0' && cnt[k] == 0))
        st = row_fault(err, name, r + 1, id, cnames[k], have, want);
    }
    /* a job that could not be set up has no numbers in runs.csv (mode empty): nan */
    const int unset = cmode >= 0 && fb_csv_s(&T, r, cmode)[0] == '\0';
    const double vals[3] = {jr->t_reached, jr->wall_s, jr->cpu_s};
    const int cols[3] = {ct, cw, cc};
    const char *const vnames[3] = {"t_reached", "wall_s", "cpu_s"};
    for (size_t k = 0; k < 3 + FB_NMETRICS && st == FB_OK; k++) {
      const int c = k < 3 ? cols[k] : cmet[k - 3];
      if (c < 0)
        continue;
      num_text(k < 3 ? vals[k] : jr->metrics[k - 3], want, sizeof want);
      have = fb_csv_s(&T, r, c);
      if (strcmp(have, want) != 0 && !(unset && strcmp(have, "nan") == 0))
        st = row_fault(err, name, r + 1, id, k < 3 ? vnames[k] : fb_metric_names[k - 3], have,
                       want);
    }
  }
  free(by);
  fb_csv_free(&T);
  free(R.v);
  return st;
}

int fb_manifest_check(const char *dir, const char *name, const char *runs, size_t runs_len,
                      fb_err *err)
{
  char path[PATH_LEN + 32], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", dir, FB_MANIFEST_NAME);
  if (fb_read_file(path, &text, &len) != 0)
    return fb_err_set(err, FB_EINVAL,
                      "merge: part '%s' has no %s: it did not finish (a part writes it last); "
                      "run its line of the jobs file again",
                      name, FB_MANIFEST_NAME);
  int runs_bad = 0;
  fb_err runs_err = {{0}};
  row_sums rows = {0};
  int st = check_files(dir, name, text, len, &runs_bad, &runs_err, &rows, err);
  free(text);
  /* a changed runs.csv: the journal names the row and the cell, else the row hashes name
   * the row, else the sizes say it */
  if (st == FB_OK && runs != NULL)
    st = check_rows(dir, name, runs, runs_len, err);
  if (st == FB_OK && runs_bad) {
    st = FB_EINVAL;
    *err = runs_err;
    fb_csv T;
    if (runs != NULL && fb_csv_parse(&T, runs, runs_len) == FB_OK) {
      size_t same = 0;
      while (same < T.nrows && same < rows.n &&
             fb_hash64(FB_HASH64_INIT, runs + T.rows[same].off, T.rows[same].len) ==
                 rows.v[same])
        same++;
      if (same == T.nrows && same == rows.n) /* every row as written: the rest changed */
        fb_err_set(err, FB_EINVAL,
                   "merge: '%s/runs.csv': its header or line ends are not what the part "
                   "wrote (its checksum is not the manifest's): it was changed after the part "
                   "finished",
                   name);
      for (size_t r = same; r < T.nrows || r < rows.n; r++) {
        if (r < T.nrows && r < rows.n &&
            fb_hash64(FB_HASH64_INIT, runs + T.rows[r].off, T.rows[r].len) == rows.v[r])
          continue;
        char id[32];
        fb_text_escape(r < T.nrows ? fb_csv_s(&T, r, 0) : "", id, sizeof id);
        if (r >= T.nrows)
          fb_err_set(err, FB_EINVAL,
                     "merge: '%s/runs.csv' has %zu rows, the part's manifest lists %zu: rows "
                     "were removed after the part finished",
                     name, T.nrows, rows.n);
        else
          fb_err_set(err, FB_EINVAL,
                     "merge: '%s/runs.csv' row %zu (run_id %s) is not the row the part wrote "
                     "(its checksum is not the manifest's): it was changed after the part "
                     "finished",
                     name, r + 1, id);
        break;
      }
      fb_csv_free(&T);
    }
  }
  free(rows.v);
  return st;
}
