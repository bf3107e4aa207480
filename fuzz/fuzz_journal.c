/* fuzz_journal.c — libFuzzer harness for the suite's journal reader (fb_resume.h), the
 * one file `fricbench suite --resume DIR` reads back.
 *
 * The input is taken as a whole journal (fb_journal_parse, with a callback checking each
 * record), line by line (fb_journal_parse_head / fb_journal_parse_rec) and for its
 * recipe (fb_journal_recipe, the R lines).  Properties (abort on violation): the valid
 * prefix ends at a line end inside the input; every accepted record has an index below
 * the header's job count and a status of the status table other than "interrupted"; an
 * accepted header, record or recipe item formats back to a line that parses to the same
 * values (bit for bit, NaN payloads aside); formatting never overflows. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_fuzz.h"
#include "fb_resume.h"

static int same(double a, double b)
{
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void same_rec(const fb_journal_rec *a, const fb_journal_rec *b)
{
  if (a->index != b->index || a->status != b->status || a->ref_kind != b->ref_kind ||
      strcmp(a->message, b->message) != 0 ||
      memcmp(&a->cnt, &b->cnt, sizeof a->cnt) != 0 || !same(a->t_reached, b->t_reached) ||
      !same(a->wall_s, b->wall_s) || !same(a->cpu_s, b->cpu_s))
    abort();
  for (size_t i = 0; i < FB_NMETRICS; i++)
    if (!same(a->metrics[i], b->metrics[i]))
      abort();
}

typedef struct ctx {
  const fb_journal_head *h;
  size_t n;
} ctx;

static int on_rec(void *cv, const fb_journal_rec *r)
{
  ctx *c = cv;
  if (r->index >= c->h->njobs || r->status == FB_EINTR ||
      strcmp(fb_status_name(r->status), "unknown") == 0)
    abort();
  char line[FB_JOURNAL_LINE_MAX + 1];
  const size_t n = fb_journal_format_rec(r, c->h->sum, line, sizeof line);
  if (n == 0 || n > FB_JOURNAL_LINE_MAX || line[n - 1] != '\n')
    abort();
  fb_journal_rec back;
  if (fb_journal_parse_rec(line, n - 1, c->h->sum, c->h->njobs, &back) != FB_OK)
    abort();
  same_rec(r, &back);
  c->n++;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *text = (const char *)data;
  fb_journal_head h;
  size_t valid = 0, nrec = 0;
  fb_err err;
  if (fb_journal_parse(text, size, &h, NULL, NULL, NULL, NULL, &err) == FB_OK) {
    ctx c = {&h, 0};
    if (fb_journal_parse(text, size, &h, on_rec, &c, &valid, &nrec, &err) != FB_OK)
      abort();
    if (valid > size || valid == 0 || text[valid - 1] != '\n' || nrec != c.n)
      abort();
    char line[FB_JOURNAL_LINE_MAX + 1];
    const size_t n = fb_journal_format_head(&h, line, sizeof line);
    fb_journal_head back;
    if (n == 0 || fb_journal_parse_head(line, n - 1, &back) != FB_OK || back.sum != h.sum ||
        back.njobs != h.njobs || back.quick != h.quick || back.samples != h.samples ||
        back.max_steps != h.max_steps || back.max_rhs != h.max_rhs || back.part != h.part ||
        back.nparts != h.nparts ||
        strcmp(back.rev, h.rev) != 0)
      abort();
  }
  /* the recipe (R lines): every item formats back to a line that parses to it */
  char **items;
  size_t nitems;
  if (fb_journal_recipe(text, size, &items, &nitems, &err) == FB_OK) {
    for (size_t i = 0; i < nitems; i++) {
      char line[FB_JOURNAL_LINE_MAX + 1];
      const size_t n = fb_journal_format_item(items[i], line, sizeof line);
      char **back;
      size_t nback;
      char two[2 * FB_JOURNAL_LINE_MAX + 2];
      const size_t hn = fb_journal_format_head(&h, two, sizeof two);
      if (n == 0 || hn == 0)
        abort();
      memcpy(two + hn, line, n);
      if (fb_journal_recipe(two, hn + n, &back, &nback, &err) != FB_OK || nback != 1 ||
          strcmp(back[0], items[i]) != 0)
        abort();
      fb_journal_recipe_free(back, nback);
    }
    fb_journal_recipe_free(items, nitems);
  }
  /* the raw input as a single record line of a table with sum from its first bytes */
  fb_journal_rec r;
  uint64_t sum = 0;
  if (size >= 8)
    memcpy(&sum, data, 8);
  (void)fb_journal_parse_rec(text, size, sum, 1000, &r);
  (void)fb_journal_parse_head(text, size, &h);
  return 0;
}
