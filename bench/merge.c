/* merge.c — the suite beyond one machine: `suite --emit-jobs FILE` and `fricbench merge`.
 *
 * `fricbench suite --emit-jobs FILE --out DIR [--parts K] [suite options]` writes K lines,
 * each a complete, independent command
 *     '<fricbench>' suite --part I/K --out 'DIR/part-I' --no-plots --jobs 1 [--quick]
 *         --samples N --max-steps N --max-rhs N
 * for GNU Parallel (`parallel -a FILE`, or across hosts with `--sshloginfile`, DIR on a
 * shared file system) or a Slurm job array (scripts/slurm_array.sh runs line
 * $SLURM_ARRAY_TASK_ID).  Each part expands the whole table exactly as a single-process
 * suite does (same run ids, same reference variants and file names), runs its own
 * experiments (fb_schedule.h: whole experiments, dealt by estimated cost) with the
 * references they use, and writes DIR/part-I/{runs.csv (its rows only), orders.csv (its
 * experiments), traj/, meta.json, part.json}.  References are deterministic functions of
 * the scenario variant, so two parts that need one compute the same file.
 *
 * `fricbench merge [--out OUT] [--no-plots] DIR...` (DIR: a part, or a directory holding
 * part-* directories; OUT defaults to that directory) checks that the parts are all
 * there, from the same table and options, then writes OUT/runs.csv (every row, by run
 * id, byte for byte as the parts wrote them: the same file as a single-process suite
 * apart from the timing columns wall_s and cpu_s), OUT/orders.csv (rows in table order),
 * OUT/traj/ (hard links, or copies), OUT/meta.json, and then the plots and report.html
 * through fb_report_make, which reads only those files.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fb_cli.h"
#include "fb_params.h"
#include "fb_io.h"
#include "fb_report.h"
#include "fb_suite.h"
#include "fb_version.h"

#define PATH_LEN 4096

/* ---- small helpers ---------------------------------------------------------------------- */

static int read_text(const char *path, char **out)
{
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return -1;
  size_t cap = 1 << 16, len = 0;
  char *b = malloc(cap);
  size_t r;
  while (b != NULL && (r = fread(b + len, 1, cap - len - 1, fp)) > 0) {
    len += r;
    if (len + 1 >= cap) {
      char *nb = realloc(b, cap *= 2);
      if (nb == NULL) {
        free(b);
        b = NULL;
      } else {
        b = nb;
      }
    }
  }
  const int bad = ferror(fp);
  fclose(fp);
  if (b == NULL || bad) {
    free(b);
    return -1;
  }
  b[len] = '\0';
  *out = b;
  return 0;
}

/* The raw value of "key": in a flat JSON text (string without quotes, or number). */
static void json_value(const char *text, const char *key, char *out, size_t len)
{
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  out[0] = '\0';
  const char *p = strstr(text, pat);
  if (p == NULL)
    return;
  p += strlen(pat);
  while (*p == ' ')
    p++;
  size_t n = 0;
  if (*p == '"') {
    for (p++; *p && *p != '"' && n + 1 < len; p++) {
      if (*p == '\\' && p[1])
        p++;
      out[n++] = *p;
    }
  } else {
    for (; *p && *p != ',' && *p != '}' && *p != '\n' && n + 1 < len; p++)
      out[n++] = *p;
  }
  out[n] = '\0';
}

/* Field `col` (0-based) of a CSV line (RFC 4180 quotes), unquoted, into out. */
static void csv_field(const char *line, int col, char *out, size_t len)
{
  int c = 0;
  size_t n = 0;
  const char *p = line;
  out[0] = '\0';
  while (*p && *p != '\n') {
    int quoted = *p == '"';
    if (quoted)
      p++;
    n = 0;
    while (*p && *p != '\n') {
      if (quoted && *p == '"') {
        if (p[1] == '"') {
          p++;
        } else {
          p++;
          quoted = 0;
          continue;
        }
      } else if (!quoted && *p == ',') {
        break;
      }
      if (c == col && n + 1 < len)
        out[n++] = *p;
      p++;
    }
    if (c == col) {
      out[n] = '\0';
      return;
    }
    c++;
    if (*p == ',')
      p++;
    else
      break;
  }
}

static int csv_col(const char *header, const char *name)
{
  const size_t l = strlen(name);
  const char *p = header;
  for (int c = 0;; c++) {
    if (strncmp(p, name, l) == 0 && (p[l] == ',' || p[l] == '\0' || p[l] == '\n'))
      return c;
    p = strchr(p, ',');
    if (p == NULL)
      return -1;
    p++;
  }
}

/* Lines of a text (modified in place: '\n' -> '\0'). */
static size_t split_lines(char *text, char **lines, size_t max)
{
  size_t n = 0;
  for (char *p = text; *p && n < max;) {
    lines[n++] = p;
    char *e = strchr(p, '\n');
    if (e == NULL)
      break;
    *e = '\0';
    p = e + 1;
  }
  return n;
}

/* ---- part.json and --emit-jobs --------------------------------------------------------- */

int fb_part_info_write(const char *dir, const fb_suite_opts *o, size_t njobs, fb_err *err)
{
  char path[PATH_LEN];
  fb_outfile of;
  snprintf(path, sizeof path, "%s/part.json", dir);
  int st = fb_outfile_open(&of, path, "part.json", err);
  if (st != FB_OK)
    return st;
  fprintf(of.fp,
          "{\n  \"part\": %zu,\n  \"parts\": %zu,\n  \"runs_total\": %zu,\n  \"quick\": %s,\n"
          "  \"samples\": %zu,\n  \"max_steps\": %lu,\n  \"max_rhs\": %lu,\n  \"git_revision\": ",
          o->part, o->nparts, njobs, o->quick ? "true" : "false", o->samples, o->max_steps,
          o->max_rhs);
  fb_json_str(of.fp, FB_GIT_REV);
  fputs("\n}\n", of.fp);
  return fb_outfile_commit(&of, err);
}

/* Single-quote a word for sh. */
static void sh_quote(FILE *fp, const char *s)
{
  fputc('\'', fp);
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", fp);
    else
      fputc(*s, fp);
  fputc('\'', fp);
}

int fb_emit_jobs(const fb_suite_opts *o, const char *file, const char *argv0, fb_err *err)
{
  char exe[PATH_LEN], dir[PATH_LEN];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0)
    exe[n] = '\0';
  else if (argv0 == NULL || realpath(argv0, exe) == NULL)
    snprintf(exe, sizeof exe, "fricbench");
  if (fb_mkdir_p(o->out_dir) != 0 || realpath(o->out_dir, dir) == NULL)
    return fb_err_set(err, FB_EINVAL, "output directory '%s' cannot be created: %s", o->out_dir,
                      strerror(errno));
  fb_outfile of;
  int st = fb_outfile_open(&of, file, "--emit-jobs", err);
  if (st != FB_OK)
    return st;
  for (size_t i = 1; i <= o->nparts; i++) {
    char part[PATH_LEN + 32];
    snprintf(part, sizeof part, "%s/part-%zu", dir, i);
    sh_quote(of.fp, exe);
    fprintf(of.fp, " suite --part %zu/%zu --out ", i, o->nparts);
    sh_quote(of.fp, part);
    fprintf(of.fp, " --no-plots --jobs 1%s --samples %zu --max-steps %lu --max-rhs %lu\n",
            o->quick ? " --quick" : "", o->samples, o->max_steps, o->max_rhs);
  }
  st = fb_outfile_commit(&of, err);
  if (st == FB_OK)
    fprintf(stderr,
            "fricbench suite: %zu independent jobs in %s; run them (e.g. parallel -a %s, or "
            "scripts/slurm_array.sh %s), then: fricbench merge %s\n",
            o->nparts, file, file, file, dir);
  return st;
}

#define MAX_PARTS 4096

int fb_suite_dist_option(int c, const char *arg, fb_suite_opts *o, const char **emit)
{
  unsigned long i = 0, k = 0;
  if (c == 'E') {
    if (arg[0] == '\0') {
      fputs("fricbench: --emit-jobs: empty file name: give a path\n", stderr);
      return FB_EXIT_USAGE;
    }
    *emit = arg;
    if (o->nparts == 0)
      o->nparts = 16;
    return FB_EXIT_OK;
  }
  if (c == 'K') {
    if (fb_parse_ulong(arg, &k) != FB_OK || k < 1 || k > MAX_PARTS) {
      fprintf(stderr, "fricbench: --parts '%s' is not allowed: use an integer in [1, %d]\n", arg,
              MAX_PARTS);
      return FB_EXIT_USAGE;
    }
    o->nparts = k;
    o->part = 0;
    return FB_EXIT_OK;
  }
  char a[64], *slash;
  snprintf(a, sizeof a, "%s", arg);
  slash = strchr(a, '/');
  if (slash != NULL)
    *slash = '\0';
  if (slash == NULL || fb_parse_ulong(a, &i) != FB_OK || fb_parse_ulong(slash + 1, &k) != FB_OK ||
      k < 1 || k > MAX_PARTS || i < 1 || i > k) {
    fprintf(stderr, "fricbench: --part '%s' is not allowed: use I/K with 1 <= I <= K <= %d\n",
            arg, MAX_PARTS);
    return FB_EXIT_USAGE;
  }
  o->part = i;
  o->nparts = k;
  return FB_EXIT_OK;
}

int fb_suite_dist_check(fb_suite_opts *o, const char *emit, int resume)
{
  if (resume) {
    fputs("fricbench: --resume excludes --part, --parts and --emit-jobs: a part's journal "
          "restores its part, so give only --resume DIR/part-K\n", stderr);
    return FB_EXIT_USAGE;
  }
  if (emit != NULL && o->part != 0) {
    fputs("fricbench: --emit-jobs and --part exclude each other: --emit-jobs writes the --part "
          "commands\n", stderr);
    return FB_EXIT_USAGE;
  }
  if (emit == NULL && o->part == 0) {
    fputs("fricbench: --parts needs --emit-jobs FILE (or run one part with --part I/K)\n",
          stderr);
    return FB_EXIT_USAGE;
  }
  if (o->part != 0)
    o->plots = 0; /* a part is not a result: merge makes the plots */
  return FB_EXIT_OK;
}

/* ---- merge ------------------------------------------------------------------------------- */

typedef struct part_dir {
  char path[1024];
  size_t part, parts, runs_total;
  char conf[768]; /* quick, samples, budgets, revision: must agree */
  char *runs, *orders, *meta; /* file texts */
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

static int add_part(merge_set *M, const char *path, fb_err *err)
{
  char f[PATH_LEN + 16], *text;
  snprintf(f, sizeof f, "%s/part.json", path);
  if (read_text(f, &text) != 0)
    return fb_err_set(err, FB_EINVAL, "merge: '%s' is not a part (no part.json): give the "
                                      "directories written by the --emit-jobs commands",
                      path);
  if (M->n == M->cap) {
    const size_t cap = M->cap ? 2 * M->cap : 16;
    part_dir *np = realloc(M->p, cap * sizeof *np);
    if (np == NULL) {
      free(text);
      return fb_err_set(err, FB_ENOMEM, "out of memory");
    }
    M->p = np;
    M->cap = cap;
  }
  part_dir *p = &M->p[M->n];
  memset(p, 0, sizeof *p);
  if (strlen(path) >= sizeof p->path)
    return fb_err_set(err, FB_EINVAL, "merge: path too long: '%.100s...'", path);
  snprintf(p->path, sizeof p->path, "%s", path);
  char v[6][128];
  json_value(text, "part", v[0], sizeof v[0]);
  json_value(text, "parts", v[1], sizeof v[1]);
  json_value(text, "runs_total", v[2], sizeof v[2]);
  p->part = strtoul(v[0], NULL, 10);
  p->parts = strtoul(v[1], NULL, 10);
  p->runs_total = strtoul(v[2], NULL, 10);
  json_value(text, "quick", v[0], sizeof v[0]);
  json_value(text, "samples", v[1], sizeof v[1]);
  json_value(text, "max_steps", v[2], sizeof v[2]);
  json_value(text, "max_rhs", v[3], sizeof v[3]);
  json_value(text, "git_revision", v[4], sizeof v[4]);
  snprintf(p->conf, sizeof p->conf, "quick %s, samples %s, max-steps %s, max-rhs %s, fricbench %s",
           v[0], v[1], v[2], v[3], v[4]);
  free(text);
  if (p->parts == 0 || p->part == 0 || p->part > p->parts)
    return fb_err_set(err, FB_EINVAL, "merge: '%s/part.json' is damaged", path);
  snprintf(f, sizeof f, "%s/runs.csv", path);
  if (read_text(f, &p->runs) != 0)
    return fb_err_set(err, FB_EINVAL,
                      "merge: part %zu/%zu in '%s' has no runs.csv: it did not finish; run its "
                      "line of the jobs file again",
                      p->part, p->parts, path);
  snprintf(f, sizeof f, "%s/orders.csv", path);
  if (read_text(f, &p->orders) != 0)
    p->orders = NULL;
  snprintf(f, sizeof f, "%s/meta.json", path);
  if (read_text(f, &p->meta) != 0)
    p->meta = NULL;
  M->n++;
  return FB_OK;
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
  char *names[4096];
  size_t nn = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && nn < 4096)
    if (strncmp(e->d_name, "part-", 5) == 0)
      names[nn++] = strdup(e->d_name);
  closedir(d);
  qsort(names, nn, sizeof *names, cmp_str);
  int st = nn == 0 ? fb_err_set(err, FB_EINVAL,
                                "merge: '%s' holds no part (no part.json, no part-* directory)",
                                dir)
                   : FB_OK;
  for (size_t i = 0; i < nn; i++) {
    if (st == FB_OK && names[i] != NULL) {
      snprintf(f, sizeof f, "%s/%s", dir, names[i]);
      st = add_part(M, f, err);
    }
    free(names[i]);
  }
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
      if (f->d_name[0] == '.' || l < 4 || strcmp(f->d_name + l - 4, ".csv") != 0)
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

typedef struct order_row {
  size_t key; /* run id of the experiment's first row */
  const char *line;
} order_row;

static int by_key(const void *a, const void *b)
{
  const order_row *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

static int merge_run(merge_set *M, const char *out, int plots, fb_err *err)
{
  const size_t K = M->p[0].parts, N = M->p[0].runs_total;
  char *seen = calloc(K + 1, 1);
  char **rows = calloc(N + 1, sizeof *rows);
  char **orows = NULL;
  order_row *ord = NULL;
  int st = FB_OK;
  if (seen == NULL || rows == NULL) {
    st = fb_err_set(err, FB_ENOMEM, "out of memory");
    goto done;
  }
  /* the same split of the same table, every part once */
  for (size_t i = 0; i < M->n && st == FB_OK; i++) {
    const part_dir *p = &M->p[i];
    if (p->parts != K || p->runs_total != N || strcmp(p->conf, M->p[0].conf) != 0)
      st = fb_err_set(err, FB_EINVAL,
                      "merge: '%s' (part %zu/%zu of %zu runs; %s) is not from the same split as "
                      "'%s' (%zu parts of %zu runs; %s)",
                      p->path, p->part, p->parts, p->runs_total, p->conf, M->p[0].path, K, N,
                      M->p[0].conf);
    else if (seen[p->part])
      st = fb_err_set(err, FB_EINVAL, "merge: part %zu/%zu given twice (second: '%s')", p->part,
                      K, p->path);
    else
      seen[p->part] = 1;
  }
  for (size_t i = 1; i <= K && st == FB_OK; i++)
    if (!seen[i])
      st = fb_err_set(err, FB_EINVAL,
                      "merge: part %zu/%zu is missing: run line %zu of the jobs file and merge "
                      "again",
                      i, K, i);
  if (st != FB_OK)
    goto done;
  /* runs.csv: the parts' rows, by run id, as written */
  const char *header = NULL;
  for (size_t i = 0; i < M->n && st == FB_OK; i++) {
    part_dir *p = &M->p[i];
    char *text = p->runs, *nl = strchr(text, '\n');
    if (nl == NULL) {
      st = fb_err_set(err, FB_EINVAL, "merge: '%s/runs.csv' has no header", p->path);
      break;
    }
    *nl = '\0';
    if (header == NULL)
      header = text;
    else if (strcmp(header, text) != 0) {
      st = fb_err_set(err, FB_EINVAL, "merge: '%s/runs.csv' has other columns than '%s/runs.csv'",
                      p->path, M->p[0].path);
      break;
    }
    for (char *line = nl + 1; *line;) {
      char *e = strchr(line, '\n');
      if (e != NULL)
        *e = '\0';
      char *end;
      const unsigned long id = strtoul(line, &end, 10);
      if (end == line || *end != ',' || id == 0 || id > N) {
        st = fb_err_set(err, FB_EINVAL, "merge: '%s/runs.csv': bad row '%.60s'", p->path, line);
        break;
      }
      if (rows[id] == NULL)
        rows[id] = line;
      else if (strcmp(rows[id], line) != 0) { /* a setup failure is in every part, alike */
        st = fb_err_set(err, FB_EINVAL, "merge: run %lu differs between parts", id);
        break;
      }
      if (e == NULL)
        break;
      line = e + 1;
    }
  }
  for (size_t id = 1; id <= N && st == FB_OK; id++)
    if (rows[id] == NULL)
      st = fb_err_set(err, FB_EINVAL, "merge: run %zu is in no part: a part was interrupted; run "
                                      "its line again",
                      id);
  if (st != FB_OK)
    goto done;
  if (fb_mkdir_p(out) != 0) {
    st = fb_err_set(err, FB_EINVAL, "merge: output directory '%s' cannot be created: %s", out,
                    strerror(errno));
    goto done;
  }
  char path[PATH_LEN + 32];
  fb_outfile of;
  snprintf(path, sizeof path, "%s/runs.csv", out);
  if ((st = fb_outfile_open(&of, path, "runs.csv", err)) != FB_OK)
    goto done;
  fprintf(of.fp, "%s\n", header);
  size_t nok = 0, nbudget = 0;
  const int cst = csv_col(header, "status"), cg = csv_col(header, "group"),
            cs = csv_col(header, "scenario"), cm = csv_col(header, "model"),
            ci = csv_col(header, "integrator"), ct = csv_col(header, "tag"),
            cw = csv_col(header, "sweep");
  for (size_t id = 1; id <= N; id++) {
    char f[64];
    fprintf(of.fp, "%s\n", rows[id]);
    csv_field(rows[id], cst, f, sizeof f);
    nok += strcmp(f, "ok") == 0;
    nbudget += strcmp(f, "budget") == 0;
  }
  if ((st = fb_outfile_commit(&of, err)) != FB_OK)
    goto done;
  /* orders.csv: rows in table order (experiment of the first matching convergence row) */
  size_t nord = 0, cap = 0;
  const char *oheader = NULL;
  for (size_t i = 0; i < M->n; i++) {
    char *text = M->p[i].orders;
    if (text == NULL)
      continue;
    char *lines[4096];
    const size_t nl = split_lines(text, lines, 4096);
    if (nl > 0 && oheader == NULL)
      oheader = lines[0];
    for (size_t l = 1; l < nl; l++) {
      if (lines[l][0] == '\0')
        continue;
      if (nord == cap) {
        cap = cap ? 2 * cap : 64;
        order_row *no = realloc(ord, cap * sizeof *no);
        if (no == NULL) {
          st = fb_err_set(err, FB_ENOMEM, "out of memory");
          goto done;
        }
        ord = no;
      }
      char sc[128], md[128], ig[128], tg[128];
      csv_field(lines[l], 0, sc, sizeof sc);
      csv_field(lines[l], 1, md, sizeof md);
      csv_field(lines[l], 2, ig, sizeof ig);
      csv_field(lines[l], 3, tg, sizeof tg);
      size_t key = N + 1;
      for (size_t id = 1; id <= N && key > N; id++) {
        char f[5][128];
        csv_field(rows[id], cg, f[0], sizeof f[0]);
        csv_field(rows[id], cw, f[1], sizeof f[1]);
        if (strcmp(f[0], "convergence") != 0 || strcmp(f[1], "h") != 0)
          continue;
        csv_field(rows[id], cs, f[2], sizeof f[2]);
        csv_field(rows[id], cm, f[3], sizeof f[3]);
        csv_field(rows[id], ci, f[4], sizeof f[4]);
        char tag[128];
        csv_field(rows[id], ct, tag, sizeof tag);
        if (strcmp(f[2], sc) == 0 && strcmp(f[3], md) == 0 && strcmp(f[4], ig) == 0 &&
            strcmp(tag, tg) == 0)
          key = id;
      }
      ord[nord++] = (order_row){key, lines[l]};
    }
  }
  if (nord > 1)
    qsort(ord, nord, sizeof *ord, by_key);
  snprintf(path, sizeof path, "%s/orders.csv", out);
  if ((st = fb_outfile_open(&of, path, "orders.csv", err)) != FB_OK)
    goto done;
  fprintf(of.fp, "%s\n",
          oheader != NULL ? oheader
                          : "scenario,model,integrator,tag,points,order_x,order_v,order_F,"
                            "err_x_finest,h_finest");
  for (size_t i = 0; i < nord; i++)
    fprintf(of.fp, "%s\n", ord[i].line);
  if ((st = fb_outfile_commit(&of, err)) != FB_OK)
    goto done;
  /* trajectories */
  for (size_t i = 0; i < M->n && st == FB_OK; i++)
    st = merge_traj(M->p[i].path, out, err);
  if (st != FB_OK)
    goto done;
  /* meta.json: the first part's build and machine, the whole run's counts */
  {
    char v[16][256];
    static const char *const keys[] = {"fricbench_version", "git_revision", "compiler", "build",
                                       "gsl_version", "system", "release", "arch", "cpu",
                                       "cores"};
    const char *m0 = M->p[0].meta != NULL ? M->p[0].meta : "";
    for (size_t k = 0; k < 10; k++)
      json_value(m0, keys[k], v[k], sizeof v[k]);
    double wall = 0, refs = 0, threads = 0;
    for (size_t i = 0; i < M->n; i++) {
      char b[64];
      if (M->p[i].meta == NULL)
        continue;
      json_value(M->p[i].meta, "wall_time_s", b, sizeof b);
      wall = wall > atof(b) ? wall : atof(b);
      json_value(M->p[i].meta, "references", b, sizeof b);
      refs += atof(b);
      json_value(M->p[i].meta, "jobs", b, sizeof b);
      threads += atof(b);
    }
    char date[64];
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    char q[16], smp[32], ms[32], mr[32];
    json_value(m0, "quick", q, sizeof q);
    json_value(m0, "samples", smp, sizeof smp);
    json_value(m0, "max_steps", ms, sizeof ms);
    json_value(m0, "max_rhs", mr, sizeof mr);
    snprintf(path, sizeof path, "%s/meta.json", out);
    if ((st = fb_outfile_open(&of, path, "meta.json", err)) != FB_OK)
      goto done;
    FILE *fp = of.fp;
    fputs("{\n", fp);
    for (size_t k = 0; k < 5; k++) {
      fprintf(fp, "  \"%s\": ", keys[k]);
      fb_json_str(fp, v[k]);
      fputs(",\n", fp);
    }
    fputs("  \"machine\": {\"system\": ", fp);
    fb_json_str(fp, v[5]);
    fputs(", \"release\": ", fp);
    fb_json_str(fp, v[6]);
    fputs(", \"arch\": ", fp);
    fb_json_str(fp, v[7]);
    fputs(", \"cpu\": ", fp);
    fb_json_str(fp, v[8]);
    fprintf(fp, ", \"cores\": %s},\n  \"date\": ", v[9][0] ? v[9] : "0");
    fb_json_str(fp, date);
    fprintf(fp,
            ",\n  \"wall_time_s\": %.3f,\n  \"jobs\": %.0f,\n  \"quick\": %s,\n  \"samples\": %s,\n"
            "  \"max_steps\": %s,\n  \"max_rhs\": %s,\n  \"runs\": %zu,\n  \"ok\": %zu,\n"
            "  \"budget\": %zu,\n  \"failed\": %zu,\n  \"references\": %.0f,\n  \"parts\": %zu\n}\n",
            wall, threads, q[0] ? q : "false", smp[0] ? smp : "0", ms[0] ? ms : "0",
            mr[0] ? mr : "0", N, nok, nbudget, N - nok - nbudget, refs, K);
    if ((st = fb_outfile_commit(&of, err)) != FB_OK)
      goto done;
  }
  if (plots)
    st = fb_report_make(out, err);
  fprintf(stderr, "fricbench merge: %zu parts, %zu runs (%zu ok, %zu budget, %zu failed); "
                  "results in %s/\n",
          K, N, nok, nbudget, N - nok - nbudget, out);
done:
  free(seen);
  free(rows);
  free(orows);
  free(ord);
  return st;
}

static const char merge_help[] =
    "usage: fricbench merge [--out OUT] [--no-plots] DIR...\n"
    "\n"
    "Reassembles the parts written by the commands of `fricbench suite --emit-jobs FILE\n"
    "--out DIR` into one result: OUT/runs.csv (every row, in table order: the file a\n"
    "single-process suite writes, apart from the timing columns wall_s and cpu_s),\n"
    "orders.csv, traj/, meta.json, plots/ and report.html.  Each DIR is a part or a\n"
    "directory holding part-* directories; OUT defaults to that directory when one is\n"
    "given.  Fails, naming them, when parts are missing, doubled or from another split.\n"
    "\n"
    "  -o, --out OUT    output directory\n"
    "      --no-plots   skip plots and report.html\n"
    "  -h, --help       this help\n";

int fb_cmd_merge(int argc, char **argv)
{
  static const struct option opts[] = {
      {"out", required_argument, NULL, 'o'}, {"no-plots", no_argument, NULL, 'P'},
      {"help", no_argument, NULL, 'h'},      {NULL, 0, NULL, 0},
  };
  const char *out = NULL;
  int plots = 1, c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case 'P': plots = 0; break;
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
  if (st == FB_OK)
    st = merge_run(&M, out, plots, &err);
  for (size_t i = 0; i < M.n; i++) {
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
