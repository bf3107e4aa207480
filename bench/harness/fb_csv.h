/* fb_csv.h — the one reader of the text files fricbench reads back (runs.csv, orders.csv,
 * part.json, meta.json): `merge` (bench/cli/merge.c) and the report (bench/report/report.c) both use
 * it, and fuzz/fuzz_merge.c fuzzes it.
 *
 * CSV (RFC 4180): fields separated by ',', records by '\n' (a '\r' outside quotes is
 * dropped, so CRLF files read as LF ones); a field in double quotes may hold ',', '\n'
 * and '""' (one quote).  Leniencies, all deliberate: a quote inside an unquoted field
 * opens quoting there; a quote left open at the end of the text closes with it; a text
 * without a final line end has its last record all the same.  Blank records (no byte but
 * a line end, or one empty field) are skipped.  The first record is the header; every
 * later one a row, read through fb_csv_s as padded with "" or cut to the header's width.
 * The text is a byte buffer of `len` bytes, not necessarily NUL-terminated; a NUL byte
 * inside it is kept in the field, whose C string therefore ends there.
 */
#ifndef FB_CSV_H
#define FB_CSV_H

#include <stddef.h>

#include <stdio.h>

#include "fb_status.h"

/* A record as read: its fields in the table, and its bytes in the parsed text. */
typedef struct fb_csv_rec {
  size_t first;   /* index of its first field in fields[] */
  size_t nfields; /* fields as read: may be fewer or more than the header's */
  size_t off;     /* text[off .. off + len) is the record, without its line end */
  size_t len;     /*   ('\n' or "\r\n"); a '\n' inside quotes is part of it */
} fb_csv_rec;

typedef struct fb_csv {
  size_t ncols, nrows;  /* header width, rows after the header */
  int open_quote;       /* the text ended inside quotes: its last record is cut */
  const char **hdr;     /* ncols header fields (unquoted) */
  fb_csv_rec head;      /* the header record */
  fb_csv_rec *rows;     /* nrows records */
  const char **fields;  /* every kept field, NUL-terminated, in arena */
  char *arena;
} fb_csv;

/* Parse text[0 .. len) into t (text may be NULL when len is 0).  Returns FB_OK, FB_EINVAL
 * when there is no header (an empty text, or blank lines only; t is then empty), or
 * FB_ENOMEM.  t owns its memory (fb_csv_free) and keeps no pointer into text. */
int fb_csv_parse(fb_csv *t, const char *text, size_t len);
/* Read the file at path and parse it.  Returns FB_OK, FB_EIO (unreadable or no header;
 * *missing set to 1 when the file does not exist, 0 otherwise; missing may be NULL) or
 * FB_ENOMEM. */
int fb_csv_load(fb_csv *t, const char *path, int *missing);
void fb_csv_free(fb_csv *t);

/* Column of the header field `name`, or -1. */
int fb_csv_col(const fb_csv *t, const char *name);
/* Cell (row r, column c) as a string: "" for a padded cell, c < 0 or out of range. */
const char *fb_csv_s(const fb_csv *t, size_t r, int c);
/* Cell as a number, strictly: NaN when empty or not a number as a whole (strtod syntax,
 * surrounding blanks allowed; "nan" and "inf" read as themselves). */
double fb_csv_d(const fb_csv *t, size_t r, int c);

/* The whole file at path into a NUL-terminated buffer (*text, to free; *len bytes
 * before the added NUL).  Returns 0, or -1 with errno set (ENOENT: no such file). */
int fb_read_file(const char *path, char **text, size_t *len);

/* The value of member "key" of a JSON text (NUL-terminated; NULL reads as empty), parsed
 * by jansson: the first member of that name depth first in document order gives a string
 * value as it is, a number as its decimal text (integers exactly, reals to 15 digits), a
 * literal as true, false or null.  out gets "" when the text is not JSON or the key is
 * absent; at most len - 1 bytes are written, then a NUL (nothing when len is 0). */
void fb_json_get(const char *text, const char *key, char *out, size_t len);

/* One CSV field to fp: as it is, or quoted (RFC 4180) when it holds a separator, a quote
 * or a newline, a newline then written as a blank (every reader here takes one row per
 * line). */
void fb_csv_field(FILE *fp, const char *s);

#endif
