/* fb_resume.h — resumable suites: the journal of finished jobs and the interrupt watcher.
 *
 * `fricbench suite` appends one line per finished job to DIR/journal, written with a
 * single write() and made durable with fdatasync() before the next job's line, so after
 * SIGINT, SIGTERM, a crash or a power loss the journal holds every finished job and at
 * most one torn last line.  `fricbench suite --resume DIR` reads it back, reruns only
 * the jobs it does not hold and writes the same runs.csv as an uninterrupted run (apart
 * from the timing columns wall_s and cpu_s, which are the original runs').
 *
 * Format (text, one record per line, fields separated by one space):
 *
 *   fricbench-journal 2 <sum> <njobs> <quick> <samples> <max_steps> <max_rhs> <part>
 *     <nparts> <rev> <crc>
 *   R <item> <crc>                     zero or more, right after the header
 *   J <index> <sum> <status> <ref> <t_reached> <h> <value> <nsteps> <nrejected> <nfe> <njac>
 *     <nevents> <ninner> <nswitch> <nlsetups> <metric 1> ... <metric FB_NMETRICS> <wall_s> <cpu_s>
 *     <message> <crc>
 *
 * The R lines say how the table was made, so that `--resume DIR` alone can make it again
 * (a plan, filters, settings or plugins are not the default table): each <item> is
 * "<key> <value>" (bench/cli/cmd_suite.c: plugin, plan, scenario, model, integrator, set, h,
 * tol, traj), kept in order.  They are written with the header, in one renamed file, so
 * an invalid one is damage, not a torn tail.
 *
 * <sum> is a 64-bit checksum (16 hex digits) of the expanded experiment table, the
 * options that change results and the fricbench revision: a journal is only ever
 * applied to the very table it was written for.  <index> is the job's 0-based position
 * in the table (run_id - 1), <ref> the kind of reference it was scored against (0 none, 1
 * exact, 2 event: fb_ref_kind).  Numbers are printed with 17 significant digits (nan, inf
 * as such), so they read back bit for bit.  <rev> and <message> are percent-encoded
 * (bytes outside '!'..'~' and '%' as %XX; the empty string as "-"), and so is <item>.  <crc> is the
 * FNV-1a 64-bit hash (16 hex digits) of the line's bytes before the space that precedes
 * it; a line whose crc does not match, that does not end in a newline or that breaks
 * any rule above is invalid, and reading stops there (what follows is rerun).
 *
 * The parser takes any bytes (the fuzzer feeds it); it never reads outside [text,
 * text + len) and rejects, rather than truncates, over-long fields.
 */
#ifndef FB_RESUME_H
#define FB_RESUME_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "fb_integrator.h"
#include "fb_metrics.h"
#include "fb_status.h"

#define FB_JOURNAL_NAME "journal"
#define FB_JOURNAL_VERSION 4 /* 2: the R lines; 3: the row's h and sweep value; 4: nlsetups */
#define FB_JOURNAL_LINE_MAX 8192            /* longer lines are invalid */
#define FB_JOURNAL_FILE_MAX (256UL << 20)   /* larger journals are refused */
#define FB_HASH64_INIT 0xcbf29ce484222325ULL /* FNV-1a offset basis */

/* FNV-1a 64 over n bytes, continuing from h (start with FB_HASH64_INIT). */
uint64_t fb_hash64(uint64_t h, const void *p, size_t n);
/* The same over a string and its terminating NUL (so that "ab","c" != "a","bc"). */
uint64_t fb_hash64_str(uint64_t h, const char *s);
/* Size and FNV-1a 64 hash of a file's bytes: 0, or -1 with errno set. */
int fb_hash64_file(const char *path, size_t *size, uint64_t *hash);

typedef struct fb_journal_head {
  uint64_t sum;            /* checksum of the table, options and revision */
  size_t njobs;            /* jobs in the table */
  int quick;               /* the suite's options that change results */
  size_t samples;
  unsigned long max_steps, max_rhs;
  char rev[64];            /* revision of the fricbench that wrote it */
  size_t part, nparts;     /* --part I/K (0 0: the whole table) */
} fb_journal_head;

typedef struct fb_journal_rec {
  size_t index;                 /* job index, 0-based */
  int status;                   /* FB_OK, FB_BUDGET or a failure (never FB_EINTR) */
  int ref_kind;                 /* 0 none, 1 exact, 2 event (fb_ref_kind) */
  double t_reached;
  double h, value;              /* the row's step and sweep value (version 3): a bisection
                                   job's (bench/suite/bisect.c) come from its run */
  fb_counters cnt;
  double metrics[FB_NMETRICS];  /* fb_metrics_to_array order */
  double wall_s, cpu_s;
  char message[FB_ERR_LEN];     /* "" when ok */
} fb_journal_rec;

/* Format a header or a record line (with its newline) into buf; returns its length, or
 * 0 when it does not fit in len (or in FB_JOURNAL_LINE_MAX). */
size_t fb_journal_format_head(const fb_journal_head *h, char *buf, size_t len);
size_t fb_journal_format_rec(const fb_journal_rec *r, uint64_t sum, char *buf, size_t len);
size_t fb_journal_format_item(const char *item, char *buf, size_t len);

/* Parse one line (without its newline): FB_OK or FB_EINVAL.  A record must carry `sum`
 * and an index below njobs. */
int fb_journal_parse_head(const char *line, size_t len, fb_journal_head *h);
int fb_journal_parse_rec(const char *line, size_t len, uint64_t sum, size_t njobs,
                         fb_journal_rec *r);

/* Called for each valid record in file order; a non-zero return stops the reading. */
typedef int (*fb_journal_fn)(void *ctx, const fb_journal_rec *r);

/* Parse a journal's text: the header into *h (FB_EINVAL with err set when the first line
 * is not a valid header), then, past the R lines, when fn is not NULL, every valid record (carrying h->sum)
 * up to the first invalid or unterminated line.  *valid_len (may be NULL) receives the
 * length of the valid prefix, *nrec (may be NULL) the number of valid records. */
int fb_journal_parse(const char *text, size_t len, fb_journal_head *h, fb_journal_fn fn,
                     void *ctx, size_t *valid_len, size_t *nrec, fb_err *err);

/* The items of a journal's R lines, decoded, in order: *items (free with
 * fb_journal_recipe_free) and their number (0 for the default table).  FB_EINVAL with err
 * set when the header or an R line is invalid; FB_ENOMEM. */
int fb_journal_recipe(const char *text, size_t len, char ***items, size_t *nitems, fb_err *err);
void fb_journal_recipe_free(char **items, size_t n);

/* Records reach the file with one write() each, so a killed process loses none; they
 * are synced to the disk (group commit) at most every FB_JOURNAL_SYNC_S seconds and at
 * close, so a system crash can lose the last ones: --resume then reruns them.  (A sync
 * per record serializes the workers on the disk: 0.17 ms each on this project's VM disk,
 * milliseconds on a spinning disk or a network file system.) */
#define FB_JOURNAL_SYNC_S 0.5

/* An open journal, appended to by several threads. */
typedef struct fb_journal {
  int fd; /* -1 when closed */
  pthread_mutex_t lock;
  uint64_t sum;
  double synced; /* CLOCK_MONOTONIC seconds of the last sync (under lock) */
} fb_journal;

/* Start a new journal at path (replacing any): the header and the R lines of the nitems
 * items are written to a temporary file, synced and renamed into place.  FB_EINVAL when
 * an item does not fit in a line, FB_EIO when the file cannot be written (err set). */
int fb_journal_create(fb_journal *j, const char *path, const fb_journal_head *h,
                      const char *const *items, size_t nitems, fb_err *err);
/* Read the whole journal at path into *text (malloc'd, NUL-terminated) and its length. */
int fb_journal_read(const char *path, char **text, size_t *len, fb_err *err);
/* Reopen a journal for appending after its first valid_len bytes (a torn or invalid tail
 * is cut off).  h->sum is used by later appends. */
int fb_journal_reopen(fb_journal *j, const char *path, const fb_journal_head *h,
                      size_t valid_len, fb_err *err);
/* Append one record (one write(); fdatasync() when the last is FB_JOURNAL_SYNC_S old).
 * Thread-safe. */
int fb_journal_append(fb_journal *j, const fb_journal_rec *r, fb_err *err);
/* Sync and close: FB_OK, or FB_EIO when the sync or the close failed (err may be NULL). */
int fb_journal_close(fb_journal *j, fb_err *err);

/* The interrupt watcher: SIGINT and SIGTERM are blocked in the calling thread (and so in
 * every thread it creates afterwards) and a thread waits for them with sigtimedwait(); the
 * first one stores its number in *flag, which the suite polls (no new jobs start,
 * running ones stop at their next step).  fb_sigwatch_stop ends the thread and restores
 * the signal mask, so a second signal, still pending, then acts as usual. */
typedef struct fb_sigwatch {
  pthread_t th;
  sigset_t set, old;
  atomic_int *flag;
  atomic_int quit; /* set by fb_sigwatch_stop: the thread returns at its next wake-up */
  int running;
} fb_sigwatch;

int fb_sigwatch_start(fb_sigwatch *w, atomic_int *flag);
void fb_sigwatch_stop(fb_sigwatch *w);

#endif
