/* trace.c — the recorded trajectory and its CSV form. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fb_fmt.h"
#include "fb_run.h"

static int trace_alloc(fb_trace *tr, size_t ns, size_t cap, size_t n, size_t nc, size_t nz)
{
  memset(tr, 0, sizeof *tr);
  tr->ns = ns;
  tr->cap = cap;
  tr->n = n;
  tr->nc = nc;
  tr->nz = nz;
  tr->dim = 2 * n + nc * nz;
  /* ns x (1 + dim + nc) must not overflow size_t (calloc checks the final product) */
  if (cap > 0 && 1 + tr->dim + nc > SIZE_MAX / cap) {
    memset(tr, 0, sizeof *tr);
    return FB_ENOMEM;
  }
  tr->t = calloc(cap * (1 + tr->dim + nc), sizeof(double));
  tr->stick = calloc(cap * (nc ? nc : 1), sizeof(int));
  if (tr->t == NULL || tr->stick == NULL) {
    fb_trace_free(tr);
    return FB_ENOMEM;
  }
  tr->y = tr->t + cap;
  tr->F = tr->y + cap * tr->dim;
  return FB_OK;
}

int fb_trace_alloc(fb_trace *tr, size_t ns, size_t n, size_t nc, size_t nz)
{
  return trace_alloc(tr, ns, ns, n, nc, nz);
}

int fb_trace_alloc_stream(fb_trace *tr, size_t ns, size_t cap, size_t n, size_t nc, size_t nz,
                          fb_trace_sink sink, void *ctx)
{
  if (cap < 2)
    cap = 2;
  const int st = trace_alloc(tr, ns, cap < ns ? cap : ns, n, nc, nz);
  if (st == FB_OK) {
    tr->sink = sink;
    tr->sink_ctx = ctx;
  }
  return st;
}

void fb_trace_free(fb_trace *tr)
{
  if (tr != NULL) {
    free(tr->t);
    free(tr->stick);
    memset(tr, 0, sizeof *tr);
  }
}

int fb_trace_write_header(const fb_trace *tr, const char *const *z_names, FILE *fp)
{
  const size_t n = tr->n, nc = tr->nc, nz = tr->nz;
  const int plain = (n == 1 && nc <= 1);
  fputs("t", fp);
  for (size_t i = 0; i < n; i++)
    plain ? fputs(",x", fp) : fprintf(fp, ",x%zu", i + 1);
  for (size_t i = 0; i < n; i++)
    plain ? fputs(",v", fp) : fprintf(fp, ",v%zu", i + 1);
  for (size_t i = 0; i < nc; i++)
    plain ? fputs(",F", fp) : fprintf(fp, ",F%zu", i + 1);
  for (size_t i = 0; i < nc; i++)
    for (size_t k = 0; k < nz; k++)
      plain ? fprintf(fp, ",%s", z_names[k]) : fprintf(fp, ",%s%zu", z_names[k], i + 1);
  for (size_t i = 0; i < nc; i++)
    plain ? fputs(",stick", fp) : fprintf(fp, ",stick%zu", i + 1);
  fputc('\n', fp);
  return ferror(fp) ? FB_EIO : FB_OK;
}

int fb_trace_write_rows(const fb_trace *tr, size_t from, size_t to, FILE *fp)
{
  const size_t n = tr->n, nc = tr->nc;
  /* Lines gathered into blocks of ~64 KB, each handed to stdio at once: a 4 KB stdio
   * buffer took a write(2) per ~35 lines and fwrite's lock per line (a fifth of `run`'s
   * output time at 1e7 samples); numbers by fb_fmt_g17, the text of "%.17g". */
  const size_t linecap = (1 + tr->dim + nc) * (FB_FMT_LEN + 1) + nc * 4 + 2;
  const size_t cap = linecap > 60000 ? 2 * linecap : 65536;
  char *block = malloc(cap);
  if (block == NULL)
    return FB_ENOMEM;
  char *p = block;
  for (size_t g = from; g < to; g++) {
    if ((size_t)(p - block) > cap - linecap) {
      fwrite(block, 1, (size_t)(p - block), fp);
      p = block;
    }
    const size_t s = g - tr->base;
    p += fb_fmt_g17(tr->t[s], p);
    const double *y = tr->y + s * tr->dim;
    for (size_t k = 0; k < 2 * n; k++) {
      *p++ = ',';
      p += fb_fmt_g17(y[k], p);
    }
    for (size_t i = 0; i < nc; i++) {
      *p++ = ',';
      p += fb_fmt_g17(tr->F[s * nc + i], p);
    }
    for (size_t k = 2 * n; k < tr->dim; k++) {
      *p++ = ',';
      p += fb_fmt_g17(y[k], p);
    }
    for (size_t i = 0; i < nc; i++) {
      const int st = tr->stick[s * nc + i]; /* 1, 0 or -1 */
      *p++ = ',';
      if (st >= -1 && st <= 1) {
        if (st < 0)
          *p++ = '-';
        *p++ = (char)('0' + (st < 0 ? -st : st));
      } else {
        p += snprintf(p, 16, "%d", st);
      }
    }
    *p++ = '\n';
  }
  fwrite(block, 1, (size_t)(p - block), fp);
  free(block);
  return ferror(fp) ? FB_EIO : FB_OK;
}

int fb_trace_write_csv(const fb_trace *tr, const char *const *z_names, FILE *fp)
{
  const int st = fb_trace_write_header(tr, z_names, fp);
  return st != FB_OK ? st : fb_trace_write_rows(tr, tr->base, tr->filled, fp);
}
