/* gzcsv.c — compressed trajectory files (fb_gzcsv.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "fb_gzcsv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fb_fmt.h"
#include "fb_status.h"

/* A deflate stream in gzip framing (windowBits 15 + 16) that writes to fp. */
typedef struct gzw {
  z_stream z;
  FILE *fp;
  unsigned char out[1 << 15];
  int failed;
} gzw;

static void gzw_feed(gzw *g, const char *data, size_t n, int flush)
{
  g->z.next_in = (unsigned char *)(uintptr_t)data;
  g->z.avail_in = (uInt)n;
  do {
    g->z.next_out = g->out;
    g->z.avail_out = sizeof g->out;
    const int zs = deflate(&g->z, flush);
    if (zs == Z_STREAM_ERROR) {
      g->failed = 1;
      return;
    }
    const size_t have = sizeof g->out - g->z.avail_out;
    if (have > 0 && fwrite(g->out, 1, have, g->fp) != have)
      g->failed = 1;
  } while (g->z.avail_out == 0 && !g->failed);
}

/* "%.9g" by fb_fmt_g9, the same text 3-4 times faster than snprintf (its range checks and
 * fallback in bench/harness/fmt.c; tests/test_hardening.c compares the two). */
_Static_assert(FB_TRAJ_DIGITS == 9, "put_num writes 9 digits: use snprintf for others");
static size_t put_num(char *p, double v)
{
  return fb_fmt_g9(v, p);
}

int fb_trace_write_csv_gz(const fb_trace *tr, const char *const *z_names, FILE *fp)
{
  return fb_trace_write_csv_gz_dofs(tr, z_names, 0, fp);
}

/* The header of a file keeping DOFs [d0, d1) and contacts [c0, c1), their names as in the
 * whole file (fb_trace_write_header), into a malloc'ed text. */
static char *kept_header(const fb_trace *tr, const char *const *z_names, size_t d0, size_t d1,
                         size_t c0, size_t c1, size_t *len)
{
  char *head = NULL;
  FILE *hs = open_memstream(&head, len);
  if (hs == NULL)
    return NULL;
  fputs("t", hs);
  for (size_t i = d0; i < d1; i++)
    fprintf(hs, ",x%zu", i + 1);
  for (size_t i = d0; i < d1; i++)
    fprintf(hs, ",v%zu", i + 1);
  for (size_t i = c0; i < c1; i++)
    fprintf(hs, ",F%zu", i + 1);
  for (size_t i = c0; i < c1; i++)
    for (size_t k = 0; k < tr->nz; k++)
      fprintf(hs, ",%s%zu", z_names[k], i + 1);
  for (size_t i = c0; i < c1; i++)
    fprintf(hs, ",stick%zu", i + 1);
  fputc('\n', hs);
  const int bad = ferror(hs);
  fclose(hs);
  if (bad) {
    free(head);
    return NULL;
  }
  return head;
}

int fb_trace_write_csv_gz_dofs(const fb_trace *tr, const char *const *z_names, long dofs,
                               FILE *fp)
{
  const size_t n = tr->n, nc = tr->nc, nz = tr->nz;
  const size_t keep = dofs < 0 ? (size_t)-dofs : (size_t)dofs;
  const int whole = keep == 0 || keep >= n;
  const size_t kc = whole || keep >= nc ? nc : keep; /* contacts kept */
  const size_t d0 = whole || dofs > 0 ? 0 : n - keep, d1 = whole ? n : d0 + keep;
  const size_t c0 = dofs < 0 ? nc - kc : 0, c1 = c0 + kc;
  /* the states after the contacts' (attitudes) only in a whole file */
  const size_t zend = whole ? tr->dim : 2 * n + nc * nz;
  gzw *g = calloc(1, sizeof *g);
  if (g == NULL)
    return FB_ENOMEM;
  g->fp = fp;
  if (deflateInit2(&g->z, FB_GZ_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(g);
    return FB_ENOMEM;
  }
  /* the header exactly as the plain writer makes it (a whole file) */
  char *head = NULL;
  size_t hlen = 0;
  int st = FB_OK;
  if (whole) {
    FILE *hs = open_memstream(&head, &hlen);
    st = hs == NULL ? FB_ENOMEM : fb_trace_write_header(tr, z_names, hs);
    if (hs != NULL)
      fclose(hs);
  } else {
    head = kept_header(tr, z_names, d0, d1, c0, c1, &hlen);
    st = head == NULL ? FB_ENOMEM : FB_OK;
  }
  char *line = malloc((1 + tr->dim + nc) * 34 + 2);
  if (st == FB_OK && line == NULL)
    st = FB_ENOMEM;
  if (st == FB_OK) {
    gzw_feed(g, head, hlen, Z_NO_FLUSH);
    for (size_t s = 0; s < tr->filled - tr->base && !g->failed; s++) {
      char *p = line;
      p += put_num(p, tr->t[s]);
      const double *y = tr->y + s * tr->dim;
      for (size_t half = 0; half < 2; half++) /* x, then v */
        for (size_t k = d0; k < d1; k++) {
          *p++ = ',';
          p += put_num(p, y[half * n + k]);
        }
      for (size_t i = c0; i < c1; i++) {
        *p++ = ',';
        p += put_num(p, tr->F[s * nc + i]);
      }
      for (size_t k = 2 * n + c0 * nz; k < 2 * n + c1 * nz; k++) {
        *p++ = ',';
        p += put_num(p, y[k]);
      }
      for (size_t k = 2 * n + nc * nz; k < zend; k++) {
        *p++ = ',';
        p += put_num(p, y[k]);
      }
      for (size_t i = c0; i < c1; i++)
        p += (size_t)snprintf(p, 34, ",%d", tr->stick[s * nc + i]);
      *p++ = '\n';
      gzw_feed(g, line, (size_t)(p - line), Z_NO_FLUSH);
    }
    gzw_feed(g, NULL, 0, Z_FINISH);
    if (g->failed || ferror(fp))
      st = FB_EIO;
  }
  deflateEnd(&g->z);
  free(head);
  free(line);
  free(g);
  return st;
}

int fb_gz_write_text(const char *text, size_t n, FILE *fp)
{
  gzw *g = calloc(1, sizeof *g);
  if (g == NULL)
    return FB_ENOMEM;
  g->fp = fp;
  if (deflateInit2(&g->z, FB_GZ_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(g);
    return FB_ENOMEM;
  }
  /* in slices: avail_in is a uInt */
  const size_t slice = (size_t)1 << 30;
  for (size_t off = 0; off < n && !g->failed; off += slice)
    gzw_feed(g, text + off, n - off < slice ? n - off : slice, Z_NO_FLUSH);
  gzw_feed(g, NULL, 0, Z_FINISH);
  const int failed = g->failed;
  deflateEnd(&g->z);
  free(g);
  return failed ? FB_EIO : FB_OK;
}

int fb_gz_read_all(const char *path, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  gzFile f = gzopen(path, "rb"); /* reads plain files unchanged */
  if (f == NULL)
    return -1;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  int r = 0;
  while (buf != NULL) {
    if (n == cap) {
      char *nb = realloc(buf, 2 * cap + 1);
      if (nb == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    r = gzread(f, buf + n, (unsigned)(cap - n));
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  gzclose(f);
  if (buf == NULL || r < 0) {
    free(buf);
    return -1;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return 0;
}

int fb_gz_head(const char *path, char *buf, size_t len, double *num, int nnum)
{
  gzFile f = gzopen(path, "rb");
  if (f == NULL)
    return -1;
  if (gzgets(f, buf, (int)len) == NULL) {
    gzclose(f);
    return -1;
  }
  buf[strcspn(buf, "\r\n")] = '\0';
  int k = 0;
  char line[4096];
  while (k < nnum && gzgets(f, line, sizeof line) != NULL)
    num[k++] = strtod(line, NULL);
  gzclose(f);
  return k;
}
