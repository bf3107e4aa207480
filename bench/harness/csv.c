/* csv.c — CSV and flat-JSON reading, whole-file reads (fb_csv.h). */
#define _POSIX_C_SOURCE 200809L
#include "fb_csv.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fb_csv_free(fb_csv *t)
{
  free(t->fields);
  free(t->rows);
  free(t->arena);
  memset(t, 0, sizeof *t);
}

/* The block p (*cap elements of sz bytes) grown, doubling, to hold at least need (>= 1)
 * elements: the new block, or NULL with p left as it was. */
static void *grow(void *p, size_t *cap, size_t need, size_t sz)
{
  if (need <= *cap)
    return p;
  size_t c = *cap ? *cap : 64;
  while (c < need) {
    if (c > SIZE_MAX / 2 / sz)
      return NULL;
    c *= 2;
  }
  void *np = realloc(p, c * sz);
  if (np != NULL)
    *cap = c;
  return np;
}

int fb_csv_parse(fb_csv *t, const char *text, size_t len)
{
  memset(t, 0, sizeof *t);
  if (len > SIZE_MAX / 2)
    return FB_ENOMEM;
  /* The unquoted texts take at most one byte per input byte, plus the NUL of the field
   * the end of the text closes. */
  t->arena = malloc(len + 2);
  if (t->arena == NULL)
    return FB_ENOMEM;
  size_t fcap = 0, rcap = 0, nf = 0; /* nf: fields kept so far */
  size_t rec_first = 0, rec_off = 0; /* the current record: first field, first byte */
  int have_head = 0, inq = 0, st = FB_OK;
  char *w = t->arena, *start = w;
  for (size_t i = 0; i <= len; i++) {
    const char c = i < len ? text[i] : '\n';
    if (inq && i < len) {
      if (c != '"')
        *w++ = c;
      else if (i + 1 < len && text[i + 1] == '"')
        *w++ = text[i++];
      else
        inq = 0;
      continue;
    }
    if (inq) { /* a quote still open at the end of the text closes there */
      t->open_quote = 1;
      inq = 0;
    }
    if (c == '"') {
      inq = 1;
      continue;
    }
    if (c == '\r')
      continue;
    if (c != ',' && c != '\n') {
      *w++ = c;
      continue;
    }
    /* end of a field */
    *w++ = '\0';
    void *nb = grow(t->fields, &fcap, nf + 1, sizeof *t->fields);
    if (nb == NULL) {
      st = FB_ENOMEM;
      break;
    }
    t->fields = nb;
    t->fields[nf++] = start;
    start = w;
    if (c != '\n')
      continue;
    /* end of a record: text[rec_off .. i), less a CR before the line end */
    fb_csv_rec rec = {rec_first, nf - rec_first, rec_off, i - rec_off};
    if (rec.len > 0 && text[rec_off + rec.len - 1] == '\r')
      rec.len--;
    if (rec.nfields == 1 && t->fields[rec_first][0] == '\0') {
      nf = rec_first; /* blank */
    } else if (!have_head) {
      t->head = rec;
      t->ncols = rec.nfields;
      have_head = 1;
    } else {
      nb = grow(t->rows, &rcap, t->nrows + 1, sizeof *t->rows);
      if (nb == NULL) {
        st = FB_ENOMEM;
        break;
      }
      t->rows = nb;
      t->rows[t->nrows++] = rec;
      if (rec.nfields > t->ncols)
        nf = rec_first + t->ncols; /* cut: the fields past the header's are never read */
    }
    rec_first = nf;
    rec_off = i + 1;
  }
  if (st == FB_OK && !have_head)
    st = FB_EINVAL;
  if (st != FB_OK) {
    fb_csv_free(t);
    return st;
  }
  t->hdr = t->fields; /* blank records before the header were dropped: it comes first */
  return FB_OK;
}

int fb_read_file(const char *path, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return -1;
  size_t cap = 0, n = 0;
  char *buf = NULL;
  int e = 0;
  for (;;) {
    char *nb = grow(buf, &cap, n + 4096, 1);
    if (nb == NULL) {
      e = ENOMEM;
      break;
    }
    buf = nb;
    const size_t r = fread(buf + n, 1, cap - 1 - n, fp);
    n += r;
    if (r == 0)
      break;
  }
  if (e == 0 && ferror(fp))
    e = EIO;
  fclose(fp);
  if (e != 0) {
    free(buf);
    errno = e;
    return -1;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return 0;
}

int fb_csv_load(fb_csv *t, const char *path, int *missing)
{
  memset(t, 0, sizeof *t);
  if (missing != NULL)
    *missing = 0;
  char *text;
  size_t len;
  if (fb_read_file(path, &text, &len) != 0) {
    if (missing != NULL)
      *missing = errno == ENOENT;
    return errno == ENOMEM ? FB_ENOMEM : FB_EIO;
  }
  const int st = fb_csv_parse(t, text, len);
  free(text);
  return st == FB_EINVAL ? FB_EIO : st;
}

int fb_csv_col(const fb_csv *t, const char *name)
{
  for (size_t c = 0; c < t->ncols; c++)
    if (strcmp(t->hdr[c], name) == 0)
      return (int)c;
  return -1;
}

const char *fb_csv_s(const fb_csv *t, size_t r, int c)
{
  if (c < 0 || (size_t)c >= t->ncols || r >= t->nrows || (size_t)c >= t->rows[r].nfields)
    return "";
  return t->fields[t->rows[r].first + (size_t)c];
}

double fb_csv_d(const fb_csv *t, size_t r, int c)
{
  const char *s = fb_csv_s(t, r, c);
  char *end;
  const double v = strtod(s, &end);
  if (end == s)
    return (double)NAN;
  while (*end == ' ' || *end == '\t')
    end++;
  return *end == '\0' ? v : (double)NAN;
}

/* The first member named key, depth first in document order (jansson keeps it). */
static const json_t *json_find(const json_t *j, const char *key)
{
  if (json_is_object(j)) {
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)j, k, v)
    {
      if (strcmp(k, key) == 0)
        return v;
      const json_t *in = json_find(v, key);
      if (in != NULL)
        return in;
    }
  } else if (json_is_array(j)) {
    size_t i;
    const json_t *v;
    json_array_foreach(j, i, v)
    {
      const json_t *in = json_find(v, key);
      if (in != NULL)
        return in;
    }
  }
  return NULL;
}

void fb_json_get(const char *text, const char *key, char *out, size_t len)
{
  if (len == 0)
    return;
  out[0] = '\0';
  if (text == NULL)
    return;
  json_error_t e;
  json_t *root = json_loads(text, 0, &e); /* strict: a damaged text gives nothing */
  if (root == NULL)
    return;
  const json_t *v = json_find(root, key);
  char num[64] = "";
  const char *s = num;
  if (json_is_string(v))
    s = json_string_value(v);
  else if (json_is_integer(v))
    snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
  else if (json_is_real(v))
    snprintf(num, sizeof num, "%.15g", json_real_value(v));
  else if (json_is_true(v))
    s = "true";
  else if (json_is_false(v))
    s = "false";
  else if (json_is_null(v))
    s = "null";
  const size_t n = strlen(s) < len - 1 ? strlen(s) : len - 1;
  memcpy(out, s, n);
  out[n] = '\0';
  json_decref(root);
}

void fb_csv_field(FILE *fp, const char *s)
{
  if (strpbrk(s, ",\"\n") == NULL) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', fp);
    fputc(*s == '\n' ? ' ' : *s, fp);
  }
  fputc('"', fp);
}
