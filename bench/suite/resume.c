/* resume.c — the suite's journal of finished jobs and its interrupt watcher
 * (fb_resume.h).
 *
 * Why a line-per-job text journal and not runs.csv itself: runs.csv is written in table
 * order once every job is known (atomically, so it is never half written), while jobs
 * finish in any order on several threads.  The journal is the only file appended to in
 * place; each line carries its own checksum, so a torn last line (killed mid-write,
 * power loss) is recognized and cut off, and a line from another table is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include "fb_resume.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fb_io.h"
#include "fb_params.h"
#include "fb_run.h"
#include "fb_parse.h"

#define HEAD_MAGIC "fricbench-journal"
#define NTOK_HEAD 12
#define NTOK_REC (16 + FB_NMETRICS + 4)
#define NTOK_MAX 64

uint64_t fb_hash64(uint64_t h, const void *p, size_t n)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ULL; /* FNV-1a 64 prime */
  }
  return h;
}

uint64_t fb_hash64_str(uint64_t h, const char *s)
{
  return fb_hash64(h, s, strlen(s) + 1);
}

/* ==== writing a line ==================================================================== */

typedef struct lbuf {
  char *p;
  size_t cap, used;
  int bad; /* did not fit */
} lbuf;

#if defined(__GNUC__)
static void lb_printf(lbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static void lb_printf(lbuf *b, const char *fmt, ...)
{
  if (b->bad)
    return;
  va_list ap;
  va_start(ap, fmt);
  const int k = vsnprintf(b->p + b->used, b->cap - b->used, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= b->cap - b->used)
    b->bad = 1;
  else
    b->used += (size_t)k;
}

static int pct_plain(unsigned char c)
{
  return c > ' ' && c < 0x7f && c != '%';
}

/* " <percent-encoded s>" ("-" for the empty string, "%2D" for the string "-") */
static void lb_pct(lbuf *b, const char *s)
{
  lb_printf(b, " ");
  if (*s == '\0') {
    lb_printf(b, "-");
    return;
  }
  if (strcmp(s, "-") == 0) {
    lb_printf(b, "%%2D");
    return;
  }
  for (const unsigned char *c = (const unsigned char *)s; *c && !b->bad; c++) {
    if (pct_plain(*c))
      lb_printf(b, "%c", *c);
    else
      lb_printf(b, "%%%02X", *c);
  }
}

static void lb_num(lbuf *b, double v)
{
  lb_printf(b, " %.17g", v);
}

/* Append " <crc>\n"; returns the line's length or 0 when it does not fit. */
static size_t lb_finish(lbuf *b)
{
  if (b->bad)
    return 0;
  const uint64_t crc = fb_hash64(FB_HASH64_INIT, b->p, b->used);
  lb_printf(b, " %016" PRIx64 "\n", crc);
  if (b->bad || b->used > FB_JOURNAL_LINE_MAX)
    return 0;
  return b->used;
}

size_t fb_journal_format_head(const fb_journal_head *h, char *buf, size_t len)
{
  lbuf b = {buf, len, 0, len == 0};
  lb_printf(&b, "%s %d %016" PRIx64 " %zu %d %zu %lu %lu %zu %zu", HEAD_MAGIC, FB_JOURNAL_VERSION,
            h->sum, h->njobs, h->quick ? 1 : 0, h->samples, h->max_steps, h->max_rhs, h->part,
            h->nparts);
  lb_pct(&b, h->rev);
  return lb_finish(&b);
}

size_t fb_journal_format_rec(const fb_journal_rec *r, uint64_t sum, char *buf, size_t len)
{
  lbuf b = {buf, len, 0, len == 0};
  const fb_counters *c = &r->cnt;
  lb_printf(&b, "J %zu %016" PRIx64 " %d %d", r->index, sum, r->status, r->ref_kind);
  lb_num(&b, r->t_reached);
  lb_num(&b, r->h);
  lb_num(&b, r->value);
  lb_printf(&b, " %lu %lu %lu %lu %lu %lu %lu %lu", c->nsteps, c->nrejected, c->nfe, c->njac,
            c->nevents, c->ninner, c->nswitch, c->nlsetups);
  for (size_t i = 0; i < FB_NMETRICS; i++)
    lb_num(&b, r->metrics[i]);
  lb_num(&b, r->wall_s);
  lb_num(&b, r->cpu_s);
  lb_pct(&b, r->message);
  return lb_finish(&b);
}

size_t fb_journal_format_item(const char *item, char *buf, size_t len)
{
  lbuf b = {buf, len, 0, len == 0};
  lb_printf(&b, "R");
  lb_pct(&b, item);
  return lb_finish(&b);
}

/* ==== parsing a line ==================================================================== */

typedef struct tok {
  const char *s;
  size_t n;
} tok;

/* Split on single spaces; returns the number of tokens, or 0 when a token is empty
 * (leading, trailing or doubled space) or there are more than max. */
static size_t split(const char *line, size_t len, tok *t, size_t max)
{
  size_t nt = 0, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && line[i] != ' ')
      continue;
    if (i == start || nt == max)
      return 0;
    t[nt++] = (tok){line + start, i - start};
    start = i + 1;
  }
  return nt;
}

static int tok_is(tok t, const char *s)
{
  return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

static int tok_hex64(tok t, uint64_t *out)
{
  if (t.n != 16)
    return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < 16; i++) {
    const char c = t.s[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0)
      return 0;
    v = (v << 4) | (uint64_t)d;
  }
  *out = v;
  return 1;
}

/* Copy a token into a NUL-terminated buffer; 0 when it does not fit or holds a NUL. */
static int tok_cstr(tok t, char *buf, size_t cap)
{
  if (t.n == 0 || t.n >= cap || memchr(t.s, '\0', t.n) != NULL)
    return 0;
  memcpy(buf, t.s, t.n);
  buf[t.n] = '\0';
  return 1;
}

static int tok_ulong(tok t, unsigned long *out)
{
  char buf[32];
  return tok_cstr(t, buf, sizeof buf) && fb_parse_ulong(buf, out) == FB_OK;
}

static int tok_int(tok t, int *out)
{
  char buf[16];
  if (!tok_cstr(t, buf, sizeof buf))
    return 0;
  const char *p = buf[0] == '-' ? buf + 1 : buf;
  unsigned long v;
  if (fb_parse_ulong(p, &v) != FB_OK || v > 100000)
    return 0;
  *out = buf[0] == '-' ? -(int)v : (int)v;
  return 1;
}

/* Any number strtod reads in full, nan and inf included. */
static int tok_double(tok t, double *out)
{
  char buf[64];
  if (!tok_cstr(t, buf, sizeof buf))
    return 0;
  char *end = NULL;
  const double v = strtod(buf, &end);
  if (end == buf || *end != '\0')
    return 0;
  *out = v;
  return 1;
}

static int hexval(char c)
{
  return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                        : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decode into out[cap] (NUL-terminated); 0 when invalid or too long. */
static int tok_pct(tok t, char *out, size_t cap)
{
  if (tok_is(t, "-")) {
    out[0] = '\0';
    return cap > 0;
  }
  size_t k = 0;
  for (size_t i = 0; i < t.n; i++) {
    int c = (unsigned char)t.s[i];
    if (c == '%') {
      if (i + 2 >= t.n) /* needs two hex digits */
        return 0;
      const int hi = hexval(t.s[i + 1]), lo = hexval(t.s[i + 2]);
      if (hi < 0 || lo < 0)
        return 0;
      c = hi * 16 + lo;
      if (c == 0)
        return 0;
      i += 2;
    } else if (!pct_plain((unsigned char)c)) {
      return 0;
    }
    if (k + 1 >= cap)
      return 0;
    out[k++] = (char)c;
  }
  if (cap == 0)
    return 0;
  out[k] = '\0';
  return 1;
}

/* The line's crc (last token) matches the bytes before it. */
static int crc_ok(const char *line, const tok *last)
{
  uint64_t crc;
  if (!tok_hex64(*last, &crc) || last->s == line)
    return 0;
  const size_t n = (size_t)(last->s - line) - 1; /* up to the space before the crc */
  return fb_hash64(FB_HASH64_INIT, line, n) == crc;
}

int fb_journal_parse_head(const char *line, size_t len, fb_journal_head *h)
{
  tok t[NTOK_HEAD + 1];
  if (len > FB_JOURNAL_LINE_MAX || split(line, len, t, NTOK_HEAD + 1) != NTOK_HEAD)
    return FB_EINVAL;
  if (!crc_ok(line, &t[NTOK_HEAD - 1]))
    return FB_EINVAL;
  fb_journal_head v;
  memset(&v, 0, sizeof v);
  unsigned long version, njobs, quick, samples, part, nparts;
  /* versions 1 (no R lines), 2 (no h and value in J lines) and 3 (no nlsetups): their
   * headers are still read, so that resume refuses them by their sum, which names their
   * revision */
  if (!tok_is(t[0], HEAD_MAGIC) || !tok_ulong(t[1], &version) || version < 1 ||
      version > FB_JOURNAL_VERSION ||
      !tok_hex64(t[2], &v.sum) || !tok_ulong(t[3], &njobs) || njobs > 100000000UL ||
      !tok_ulong(t[4], &quick) || quick > 1 || !tok_ulong(t[5], &samples) || samples < 2 ||
      samples > FB_MAX_SAMPLES || !tok_ulong(t[6], &v.max_steps) || v.max_steps < 1 ||
      v.max_steps > FB_MAX_BUDGET || !tok_ulong(t[7], &v.max_rhs) || v.max_rhs < 1 ||
      v.max_rhs > FB_MAX_BUDGET || !tok_ulong(t[8], &part) || !tok_ulong(t[9], &nparts) ||
      nparts > 100000 || part > nparts || (part == 0) != (nparts == 0) ||
      !tok_pct(t[10], v.rev, sizeof v.rev))
    return FB_EINVAL;
  v.part = part;
  v.nparts = nparts;
  v.njobs = njobs;
  v.quick = (int)quick;
  v.samples = samples;
  *h = v;
  return FB_OK;
}

int fb_journal_parse_rec(const char *line, size_t len, uint64_t sum, size_t njobs,
                         fb_journal_rec *r)
{
  tok t[NTOK_REC + 1];
  if (len > FB_JOURNAL_LINE_MAX || split(line, len, t, NTOK_REC + 1) != NTOK_REC)
    return FB_EINVAL;
  if (!crc_ok(line, &t[NTOK_REC - 1]))
    return FB_EINVAL;
  fb_journal_rec v;
  memset(&v, 0, sizeof v);
  unsigned long index;
  uint64_t s;
  if (!tok_is(t[0], "J") || !tok_ulong(t[1], &index) || index >= njobs || !tok_hex64(t[2], &s) ||
      s != sum || !tok_int(t[3], &v.status) || !tok_int(t[4], &v.ref_kind) || v.ref_kind < 0 ||
      v.ref_kind > 2 || !tok_double(t[5], &v.t_reached) || !tok_double(t[6], &v.h) ||
      !tok_double(t[7], &v.value))
    return FB_EINVAL;
  /* a status of the table, and one a finished job can have */
  if (strcmp(fb_status_name(v.status), "unknown") == 0 || v.status == FB_EINTR)
    return FB_EINVAL;
  unsigned long *cnt[8] = {&v.cnt.nsteps, &v.cnt.nrejected, &v.cnt.nfe,    &v.cnt.njac,
                           &v.cnt.nevents, &v.cnt.ninner,    &v.cnt.nswitch, &v.cnt.nlsetups};
  size_t k = 8;
  for (size_t i = 0; i < 8; i++)
    if (!tok_ulong(t[k++], cnt[i]))
      return FB_EINVAL;
  for (size_t i = 0; i < FB_NMETRICS; i++)
    if (!tok_double(t[k++], &v.metrics[i]))
      return FB_EINVAL;
  if (!tok_double(t[k++], &v.wall_s) || !tok_double(t[k++], &v.cpu_s) ||
      !tok_pct(t[k++], v.message, sizeof v.message))
    return FB_EINVAL;
  v.index = index;
  *r = v;
  return FB_OK;
}

/* A recipe line "R <item> <crc>": FB_OK with the item decoded into out[cap]. */
static int parse_item(const char *line, size_t len, char *out, size_t cap)
{
  tok t[4];
  if (len > FB_JOURNAL_LINE_MAX || split(line, len, t, 4) != 3 || !tok_is(t[0], "R") ||
      !crc_ok(line, &t[2]) || !tok_pct(t[1], out, cap))
    return FB_EINVAL;
  return FB_OK;
}

/* The next line of text from pos (without its newline): its length, or SIZE_MAX when
 * there is no complete line of at most FB_JOURNAL_LINE_MAX bytes. */
static size_t next_line(const char *text, size_t len, size_t pos)
{
  const size_t left = len - pos;
  const char *e = memchr(text + pos, '\n', left < FB_JOURNAL_LINE_MAX + 1 ? left : FB_JOURNAL_LINE_MAX + 1);
  return e == NULL ? SIZE_MAX : (size_t)(e - (text + pos));
}

int fb_journal_parse(const char *text, size_t len, fb_journal_head *h, fb_journal_fn fn,
                     void *ctx, size_t *valid_len, size_t *nrec, fb_err *err)
{
  if (valid_len != NULL)
    *valid_len = 0;
  if (nrec != NULL)
    *nrec = 0;
  const char *nl = memchr(text, '\n', len < FB_JOURNAL_LINE_MAX + 1 ? len : FB_JOURNAL_LINE_MAX + 1);
  if (nl == NULL || fb_journal_parse_head(text, (size_t)(nl - text), h) != FB_OK)
    return fb_err_set(err, FB_EINVAL, "not a fricbench journal (version %d): its first line is "
                      "not a valid header", FB_JOURNAL_VERSION);
  size_t pos = (size_t)(nl - text) + 1, count = 0, n;
  char item[FB_JOURNAL_LINE_MAX + 1]; /* only checked here: fb_journal_recipe keeps them */
  while (pos < len && text[pos] == 'R' && (n = next_line(text, len, pos)) != SIZE_MAX &&
         parse_item(text + pos, n, item, sizeof item) == FB_OK)
    pos += n + 1; /* the recipe, written with the header */
  while (pos < len) {
    const size_t left = len - pos;
    const char *line = text + pos;
    const char *e = memchr(line, '\n', left < FB_JOURNAL_LINE_MAX + 1 ? left : FB_JOURNAL_LINE_MAX + 1);
    fb_journal_rec r;
    if (e == NULL || fb_journal_parse_rec(line, (size_t)(e - line), h->sum, h->njobs, &r) != FB_OK)
      break; /* torn or invalid: everything from here on is rerun */
    pos += (size_t)(e - line) + 1;
    count++;
    if (fn != NULL && fn(ctx, &r) != 0)
      break;
  }
  if (valid_len != NULL)
    *valid_len = pos;
  if (nrec != NULL)
    *nrec = count;
  return FB_OK;
}

void fb_journal_recipe_free(char **items, size_t n)
{
  for (size_t i = 0; items != NULL && i < n; i++)
    free(items[i]);
  free(items);
}

int fb_journal_recipe(const char *text, size_t len, char ***items, size_t *nitems, fb_err *err)
{
  *items = NULL;
  *nitems = 0;
  fb_journal_head h;
  size_t n = next_line(text, len, 0);
  if (n == SIZE_MAX || fb_journal_parse_head(text, n, &h) != FB_OK)
    return fb_err_set(err, FB_EINVAL, "not a fricbench journal (version %d): its first line is "
                      "not a valid header", FB_JOURNAL_VERSION);
  char *item = malloc(FB_JOURNAL_LINE_MAX + 1);
  char **v = NULL;
  size_t cnt = 0, pos = n + 1;
  int st = item == NULL ? fb_err_set(err, FB_ENOMEM, "out of memory") : FB_OK;
  /* written with the header and renamed into place with it: a bad line is damage, not a
   * torn tail, and a table rebuilt without it would not be the journal's */
  for (; st == FB_OK && pos < len && text[pos] == 'R'; pos += n + 1, cnt++) {
    n = next_line(text, len, pos);
    if (n == SIZE_MAX || parse_item(text + pos, n, item, FB_JOURNAL_LINE_MAX + 1) != FB_OK) {
      st = fb_err_set(err, FB_EINVAL, "journal damaged: its line %zu (how the table was made) "
                      "is invalid", cnt + 2);
      break;
    }
    char **nv = realloc(v, (cnt + 1) * sizeof *nv);
    if (nv == NULL || (nv[cnt] = strdup(item)) == NULL) {
      v = nv != NULL ? nv : v;
      st = fb_err_set(err, FB_ENOMEM, "out of memory");
      break;
    }
    v = nv;
  }
  free(item);
  if (st != FB_OK) {
    fb_journal_recipe_free(v, cnt);
    return st;
  }
  *items = v;
  *nitems = cnt;
  return FB_OK;
}

int fb_hash64_file(const char *path, size_t *size, uint64_t *hash)
{
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return -1;
  char buf[1 << 16];
  size_t r, total = 0;
  uint64_t h = FB_HASH64_INIT;
  while ((r = fread(buf, 1, sizeof buf, fp)) > 0) {
    h = fb_hash64(h, buf, r);
    total += r;
  }
  const int bad = ferror(fp);
  fclose(fp);
  if (bad) {
    errno = EIO;
    return -1;
  }
  *size = total;
  *hash = h;
  return 0;
}

/* ==== the file ========================================================================== */

/* fsync the directory holding path, so that a rename into it is durable. */
static void sync_dir_of(const char *path)
{
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash == NULL)
    snprintf(dir, sizeof dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

static double monotonic_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int open_append(fb_journal *j, const char *path, uint64_t sum, fb_err *err)
{
  j->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (j->fd < 0)
    return fb_err_set(err, FB_EIO, "journal '%s' cannot be opened: %s", path, strerror(errno));
  j->sum = sum;
  j->synced = monotonic_s();
  pthread_mutex_init(&j->lock, NULL);
  return FB_OK;
}

int fb_journal_create(fb_journal *j, const char *path, const fb_journal_head *h,
                      const char *const *items, size_t nitems, fb_err *err)
{
  j->fd = -1;
  char line[FB_JOURNAL_LINE_MAX + 1], head[FB_JOURNAL_LINE_MAX + 1];
  const size_t hn = fb_journal_format_head(h, head, sizeof head);
  if (hn == 0)
    return fb_err_set(err, FB_EINVAL, "journal header too long");
  for (size_t i = 0; i < nitems; i++) /* checked before the file is started */
    if (fb_journal_format_item(items[i], line, sizeof line) == 0)
      return fb_err_set(err, FB_EINVAL, "'%.40s...' is too long to be kept in the journal "
                        "(at most about %d bytes)", items[i], FB_JOURNAL_LINE_MAX / 3);
  fb_outfile of;
  int st = fb_outfile_open(&of, path, "journal", err);
  if (st != FB_OK)
    return st;
  int bad = fwrite(head, 1, hn, of.fp) != hn;
  for (size_t i = 0; i < nitems && !bad; i++) {
    const size_t n = fb_journal_format_item(items[i], line, sizeof line);
    bad = fwrite(line, 1, n, of.fp) != n;
  }
  if (bad || fflush(of.fp) != 0 || fsync(fileno(of.fp)) != 0) {
    const int e = errno;
    fb_outfile_abort(&of);
    return fb_err_set(err, FB_EIO, "journal '%s' cannot be written: %s", path, strerror(e));
  }
  st = fb_outfile_commit(&of, err);
  if (st != FB_OK)
    return st;
  sync_dir_of(path);
  return open_append(j, path, h->sum, err);
}

int fb_journal_read(const char *path, char **text, size_t *len, fb_err *err)
{
  *text = NULL;
  *len = 0;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fb_err_set(err, errno == ENOENT ? FB_EINVAL : FB_EIO, "journal '%s' cannot be read: %s",
                      path, strerror(errno));
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || (unsigned long)sb.st_size > FB_JOURNAL_FILE_MAX) {
    close(fd);
    return fb_err_set(err, FB_EINVAL, "journal '%s' is not a regular file of at most %lu bytes",
                      path, FB_JOURNAL_FILE_MAX);
  }
  const size_t size = (size_t)sb.st_size;
  char *buf = malloc(size + 1);
  if (buf == NULL) {
    close(fd);
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  }
  size_t got = 0;
  while (got < size) {
    const ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  close(fd);
  buf[got] = '\0';
  *text = buf;
  *len = got;
  return FB_OK;
}

int fb_journal_reopen(fb_journal *j, const char *path, const fb_journal_head *h,
                      size_t valid_len, fb_err *err)
{
  j->fd = -1;
  if (truncate(path, (off_t)valid_len) != 0)
    return fb_err_set(err, FB_EIO, "journal '%s' cannot be truncated: %s", path, strerror(errno));
  int st = open_append(j, path, h->sum, err);
  if (st == FB_OK)
    fsync(j->fd);
  return st;
}

int fb_journal_append(fb_journal *j, const fb_journal_rec *r, fb_err *err)
{
  if (j->fd < 0)
    return fb_err_set(err, FB_EIO, "journal is not open");
  char line[FB_JOURNAL_LINE_MAX + 1];
  const size_t n = fb_journal_format_rec(r, j->sum, line, sizeof line);
  if (n == 0)
    return fb_err_set(err, FB_EIO, "journal line of job %zu too long", r->index + 1);
  int st = FB_OK;
  pthread_mutex_lock(&j->lock);
  size_t done = 0;
  while (done < n) {
    const ssize_t w = write(j->fd, line + done, n - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      st = fb_err_set(err, FB_EIO, "journal write failed: %s", w < 0 ? strerror(errno) : "no space");
      break;
    }
    done += (size_t)w;
  }
  const double now = monotonic_s();
  const int sync = st == FB_OK && now - j->synced >= FB_JOURNAL_SYNC_S;
  if (sync)
    j->synced = now;
  pthread_mutex_unlock(&j->lock);
  /* group commit (fb_resume.h); EINVAL: a file system without sync */
  if (sync && fdatasync(j->fd) != 0 && errno != EINVAL)
    st = fb_err_set(err, FB_EIO, "journal sync failed: %s", strerror(errno));
  return st;
}

int fb_journal_close(fb_journal *j, fb_err *err)
{
  int st = FB_OK;
  if (j->fd >= 0) {
    /* where a full disk shows last (delayed allocation, NFS): the lines written since the
     * last group commit are lost, which --resume must be told; EINVAL: no sync here */
    if (fdatasync(j->fd) != 0 && errno != EINVAL)
      st = fb_err_set(err, FB_EIO, "journal sync failed: %s", strerror(errno));
    if (close(j->fd) != 0 && st == FB_OK)
      st = fb_err_set(err, FB_EIO, "journal close failed: %s", strerror(errno));
    pthread_mutex_destroy(&j->lock);
  }
  j->fd = -1;
  return st;
}

/* ==== the interrupt watcher ============================================================= */

/* The thread waits in slices and polls w->quit rather than being cancelled: a
 * cancellation acted on as sigwait returns would swallow the signal it had just accepted
 * (the suite then exited 0 after a SIGTERM). */
static void *sigwatch_main(void *arg)
{
  fb_sigwatch *w = arg;
  while (!atomic_load(&w->quit)) {
    const struct timespec slice = {0, 20000000}; /* 20 ms: the delay fb_sigwatch_stop adds */
    const int sig = sigtimedwait(&w->set, NULL, &slice);
    if (sig > 0) {
      atomic_store(w->flag, sig);
      break;
    }
  }
  return NULL;
}

/* Children (gnuplot, started by the report) must not inherit the blocked signals: exec
 * keeps the mask, and a Ctrl-C would then never reach them.  sigprocmask is
 * async-signal-safe, as a handler run after fork in a threaded process must be. */
static void sigwatch_child(void)
{
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void sigwatch_atfork(void)
{
  pthread_atfork(NULL, NULL, sigwatch_child);
}

int fb_sigwatch_start(fb_sigwatch *w, atomic_int *flag)
{
  memset(w, 0, sizeof *w);
  pthread_once(&atfork_once, sigwatch_atfork);
  w->flag = flag;
  sigemptyset(&w->set);
  sigaddset(&w->set, SIGINT);
  sigaddset(&w->set, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &w->set, &w->old) != 0)
    return FB_EIO;
  if (pthread_create(&w->th, NULL, sigwatch_main, w) != 0) {
    pthread_sigmask(SIG_SETMASK, &w->old, NULL);
    return FB_EIO;
  }
  w->running = 1;
  return FB_OK;
}

void fb_sigwatch_stop(fb_sigwatch *w)
{
  if (!w->running)
    return;
  atomic_store(&w->quit, 1);
  pthread_join(w->th, NULL);
  pthread_sigmask(SIG_SETMASK, &w->old, NULL);
  w->running = 0;
}
