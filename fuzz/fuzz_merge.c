/* fuzz_merge.c — libFuzzer harness for what `fricbench merge` reads back: the parts'
 * part.json, runs.csv, orders.csv and meta.json (fb_merge_texts, fb_merge.h), the CSV and
 * JSON readers under it (fb_csv.h), and the verdicts the report computes from runs.csv
 * and orders.csv (fb_verdicts_compute, fb_verdicts.h).
 *
 * Input: sections separated by the line "%%%" (the bytes "%%%\n"), four per part in
 * the order part.json, runs.csv, orders.csv, meta.json, for 1 to 3 parts (sections past
 * the twelfth are ignored).  A section that is exactly "-" is an absent file; a missing
 * section too.  Each CSV text is handed over in a buffer of its exact size (no NUL after
 * it), so a read past its end is an error the sanitizer reports.
 *
 * Properties (abort on violation):
 *  - every section parses as CSV twice to the same table; every cell of every row and
 *    column is a string; the records' byte spans lie inside the text, in order; a failed
 *    parse leaves an empty table; fb_csv_d never crashes;
 *  - fb_json_get writes a NUL-terminated value inside its buffer, nothing when len is 0;
 *  - when fb_merge_texts accepts: the merged runs.csv parses to N rows of the header's
 *    width holding run ids 1..N in order, with ok + budget + failed = N; the merged
 *    orders.csv holds every row of the parts' orders.csv; meta.json names N runs and K
 *    parts; merging again gives the same bytes; and merging the merged files as the one
 *    part of a 1-part split gives the same runs.csv and orders.csv;
 *  - when it refuses: nothing is left in the output, and the message is one line;
 *  - fb_verdicts_compute on each part's and on the merged texts returns well-formed rows
 *    verdicts whose flags are -1, 0 or 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_verdicts.h"
#include "fb_csv.h"
#include "fb_fuzz.h"
#include "fb_merge.h"
#include "fb_report.h"

#define SEP "%%%\n"
#define MAX_SECTIONS 12
#define DATE "2000-01-01T00:00:00Z"

typedef struct section {
  char *csv;  /* exact-size copy (NULL when len is 0 or absent) */
  char *text; /* NUL-terminated copy */
  size_t len;
  int absent;
} section;

static void check_csv(const char *text, size_t len)
{
  fb_csv a, b;
  const int sa = fb_csv_parse(&a, text, len), sb = fb_csv_parse(&b, text, len);
  if (sa != sb)
    abort();
  if (sa != FB_OK) {
    if (a.nrows != 0 || a.ncols != 0 || a.hdr != NULL || a.rows != NULL)
      abort();
    return;
  }
  if (a.ncols == 0 || a.ncols != b.ncols || a.nrows != b.nrows || a.open_quote != b.open_quote)
    abort();
  for (size_t c = 0; c < a.ncols; c++) {
    if (a.hdr[c] == NULL || strcmp(a.hdr[c], b.hdr[c]) != 0)
      abort();
    const int k = fb_csv_col(&a, a.hdr[c]);
    if (k < 0 || (size_t)k > c)
      abort();
  }
  size_t end = a.head.off + a.head.len;
  if (end > len)
    abort();
  for (size_t r = 0; r < a.nrows; r++) {
    const fb_csv_rec *x = &a.rows[r], *y = &b.rows[r];
    if (x->off < end || x->off + x->len > len || x->off != y->off || x->len != y->len ||
        x->nfields != y->nfields || x->nfields == 0)
      abort();
    end = x->off + x->len;
    for (size_t c = 0; c <= a.ncols; c++) {
      const char *s = fb_csv_s(&a, r, (int)c);
      if (s == NULL || strcmp(s, fb_csv_s(&b, r, (int)c)) != 0)
        abort();
      if (c == a.ncols && *s != '\0') /* cut to the header's width */
        abort();
      (void)fb_csv_d(&a, r, (int)c);
    }
  }
  if (*fb_csv_s(&a, a.nrows, 0) != '\0' || *fb_csv_s(&a, 0, -1) != '\0')
    abort();
  fb_csv_free(&a);
  fb_csv_free(&b);
}

static void check_json(const char *text, const char *key)
{
  static const size_t lens[] = {1, 2, 7, 128};
  char out[130];
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    memset(out, 'Z', sizeof out);
    fb_json_get(text, key, out, lens[i]);
    if (memchr(out, '\0', lens[i]) == NULL || out[lens[i]] != 'Z')
      abort();
  }
  out[0] = 'Z';
  fb_json_get(text, key, out, 0);
  if (out[0] != 'Z')
    abort();
}

static void check_verdicts(const char *runs, size_t rlen, const char *orders, size_t olen)
{
  fb_vtable v;
  fb_err err;
  const int st = fb_verdicts_compute(runs, rlen, orders, olen, &v, &err);
  if (st != FB_OK && v.n != 0)
    abort();
  for (size_t i = 0; i < v.n; i++)
    if (memchr(v.r[i].model, '\0', sizeof v.r[i].model) == NULL ||
        memchr(v.r[i].verdict, '\0', sizeof v.r[i].verdict) == NULL)
      abort();
  fb_vtable_free(&v);
}

static size_t orders_rows(const section *s)
{
  fb_csv t;
  if (s->absent || fb_csv_parse(&t, s->csv, s->len) != FB_OK)
    return 0;
  const size_t n = t.nrows;
  fb_csv_free(&t);
  return n;
}

/* The decimal value of "key" in a JSON text equals v. */
static int json_is(const char *text, const char *key, size_t v)
{
  char b[64], want[32];
  fb_json_get(text, key, b, sizeof b);
  snprintf(want, sizeof want, "%zu", v);
  return strcmp(b, want) == 0;
}

static void check_merged(const fb_merge_part *mp, size_t np, const section *sec,
                         const fb_merge_out *o)
{
  if (o->runs == NULL || o->orders == NULL || o->meta == NULL ||
      strlen(o->runs) != o->runs_len || strlen(o->orders) != o->orders_len ||
      strlen(o->meta) != o->meta_len || o->tally.n != o->nruns)
    abort();
  /* runs.csv: ids 1..N in order, the parts' header width */
  fb_csv m, p0;
  if (fb_csv_parse(&m, o->runs, o->runs_len) != FB_OK ||
      fb_csv_parse(&p0, mp[0].runs, mp[0].runs_len) != FB_OK)
    abort();
  if (m.nrows != o->nruns || m.ncols != p0.ncols || m.open_quote)
    abort();
  for (size_t r = 0; r < m.nrows; r++) {
    char *end;
    const char *id = fb_csv_s(&m, r, 0);
    if (m.rows[r].nfields != m.ncols || strtoul(id, &end, 10) != r + 1 || *end != '\0')
      abort();
  }
  fb_csv_free(&m);
  fb_csv_free(&p0);
  /* orders.csv: every part's rows */
  size_t want = 0;
  for (size_t i = 0; i < np; i++)
    want += orders_rows(&sec[4 * i + 2]);
  fb_csv t;
  if (fb_csv_parse(&t, o->orders, o->orders_len) != FB_OK || t.nrows != want)
    abort();
  fb_csv_free(&t);
  if (!json_is(o->meta, "runs", o->nruns) || !json_is(o->meta, "parts", o->nparts))
    abort();
  char date[32];
  fb_json_get(o->meta, "date", date, sizeof date);
  if (strcmp(date, DATE) != 0)
    abort();
  /* the same again */
  fb_merge_out o2;
  fb_err err;
  if (fb_merge_texts(mp, np, DATE, &o2, &err) != FB_OK || o2.runs_len != o->runs_len ||
      o2.orders_len != o->orders_len || o2.meta_len != o->meta_len ||
      memcmp(o2.runs, o->runs, o->runs_len) != 0 ||
      memcmp(o2.orders, o->orders, o->orders_len) != 0 ||
      memcmp(o2.meta, o->meta, o->meta_len) != 0)
    abort();
  fb_merge_out_free(&o2);
  /* the merged files as the one part of a 1-part split */
  char pj[96];
  snprintf(pj, sizeof pj, "{\"part\": 1, \"parts\": 1, \"runs_total\": %zu}", o->nruns);
  const fb_merge_part one = {"merged", pj, o->runs, o->runs_len, o->orders, o->orders_len,
                             o->meta};
  if (fb_merge_texts(&one, 1, DATE, &o2, &err) != FB_OK) {
    fprintf(stderr, "fuzz_merge: merging the merged files failed: %s\n", err.msg);
    abort();
  }
  if (o2.runs_len != o->runs_len || o2.orders_len != o->orders_len ||
      memcmp(o2.runs, o->runs, o->runs_len) != 0 ||
      memcmp(o2.orders, o->orders, o->orders_len) != 0)
    abort();
  fb_merge_out_free(&o2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  section sec[MAX_SECTIONS];
  memset(sec, 0, sizeof sec);
  size_t ns = 0, pos = 0;
  const size_t sl = strlen(SEP);
  while (ns < MAX_SECTIONS) {
    size_t end = pos;
    while (end < size && !(size - end >= sl && memcmp(data + end, SEP, sl) == 0))
      end++;
    section *s = &sec[ns++];
    s->len = end - pos;
    s->absent = s->len == 1 && data[pos] == '-';
    s->text = malloc(s->len + 1);
    s->csv = s->len ? malloc(s->len) : NULL;
    if (s->text == NULL || (s->len && s->csv == NULL))
      abort();
    memcpy(s->text, data + pos, s->len);
    s->text[s->len] = '\0';
    if (s->len)
      memcpy(s->csv, data + pos, s->len);
    if (end >= size)
      break;
    pos = end + sl;
  }
  for (size_t i = 0; i < ns; i++) {
    check_csv(sec[i].csv, sec[i].len);
    check_json(sec[i].text, "part");
    check_json(sec[i].text, "runs_total");
    check_json(sec[i].text, "git_revision");
    check_json(sec[i].text, "");
  }
  size_t np = (ns + 3) / 4;
  np = np > 3 ? 3 : np;
  fb_merge_part mp[3];
  static const char *const names[] = {"p1", "p2", "p3"};
  for (size_t i = 0; i < np; i++) {
    const section *j = &sec[4 * i], *r = &sec[4 * i + 1], *o = &sec[4 * i + 2],
                  *m = &sec[4 * i + 3];
    const int hr = 4 * i + 1 < ns && !r->absent, ho = 4 * i + 2 < ns && !o->absent,
              hm = 4 * i + 3 < ns && !m->absent;
    mp[i] = (fb_merge_part){names[i], j->text, hr ? r->csv : NULL, hr ? r->len : 0,
                            ho ? o->csv : NULL, ho ? o->len : 0, hm ? m->text : NULL};
    /* an empty but present text: a pointer that may not be read */
    if (hr && mp[i].runs == NULL)
      mp[i].runs = r->text;
    if (ho && mp[i].orders == NULL)
      mp[i].orders = o->text;
    if (hr)
      check_verdicts(mp[i].runs, mp[i].runs_len, mp[i].orders, mp[i].orders_len);
  }
  fb_merge_out out;
  fb_err err;
  if (fb_merge_texts(mp, np, DATE, &out, &err) == FB_OK) {
    check_merged(mp, np, sec, &out);
    check_verdicts(out.runs, out.runs_len, out.orders, out.orders_len);
    fb_merge_out_free(&out);
  } else if (out.runs != NULL || out.orders != NULL || out.meta != NULL || err.msg[0] == '\0' ||
             strchr(err.msg, '\n') != NULL || strchr(err.msg, '\r') != NULL) {
    abort(); /* a failure leaves nothing, and says why on one line */
  }
  for (size_t i = 0; i < ns; i++) {
    free(sec[i].text);
    free(sec[i].csv);
  }
  return 0;
}
