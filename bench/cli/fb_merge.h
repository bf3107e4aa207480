/* fb_merge.h — the reading half of `fricbench merge` (bench/cli/merge.c), as a pure function
 * over the texts of the parts' files: `merge` reads the files, calls fb_merge_texts and
 * writes what it returns; fuzz/fuzz_merge.c feeds it arbitrary texts.
 */
#ifndef FB_MERGE_H
#define FB_MERGE_H

#include <stddef.h>

#include "fb_status.h"
#include "fb_verdicts.h"

/* One part's files as texts.  The CSV texts are byte buffers (not necessarily
 * NUL-terminated); the JSON texts are NUL-terminated strings. */
typedef struct fb_merge_part {
  const char *name;      /* the part's directory, as named in messages */
  const char *part_json; /* part.json */
  const char *runs;      /* runs.csv, runs_len bytes; NULL: the part has none */
  size_t runs_len;
  const char *orders;    /* orders.csv, orders_len bytes; NULL: absent */
  size_t orders_len;
  const char *meta;      /* meta.json; NULL: absent */
} fb_merge_part;

/* The merged files as NUL-terminated texts (free with fb_merge_out_free), and counts. */
typedef struct fb_merge_out {
  char *runs, *orders, *meta;
  size_t runs_len, orders_len, meta_len;
  size_t nparts, nruns;          /* K parts, N runs */
  fb_run_tally tally;            /* runs by status (docs/design.md §10.8) */
} fb_merge_out;

/* Check that parts[0..n) are every part of one split (K parts of N runs, the same
 * options and revision), each once, and that their runs.csv files hold every run id
 * 1..N (a run in two parts: the same row), under one header; then build
 *   runs.csv   the header and every row by run id, byte for byte as the parts wrote them
 *              (a CR before a line end dropped);
 *   orders.csv the parts' rows in table order (by the first convergence row of the
 *              experiment in runs.csv; rows without one last, in the order given);
 *   meta.json  the first part's build and machine, the whole run's counts, `date` (UTC,
 *              ISO 8601; NULL: "").
 * Returns FB_OK, FB_EINVAL with err naming the part, file and what is wrong, or
 * FB_ENOMEM.  On failure *out holds nothing to free.  The same input gives the same
 * output, byte for byte. */
int fb_merge_texts(const fb_merge_part *parts, size_t n, const char *date, fb_merge_out *out,
                   fb_err *err);
void fb_merge_out_free(fb_merge_out *o);

#endif
