/* fb_gzcsv.h — the suite's trajectory files: gzip-compressed CSV (zlib) at the precision
 * they carry, and readers that take such files or plain ones alike.
 *
 * Why: a default results directory held 56 MB of trajectory text at 17 digits, for files
 * that plots and eyes read (every metric is computed from the in-memory solution at full
 * precision).  Nine significant digits (relative 5e-10, below every error the report
 * draws: those come from runs.csv) and gzip bring them to ~12 MB; gnuplot reads them
 * through `gzip -dc`, pandas and R directly (docs/design.md §8).
 */
#ifndef FB_GZCSV_H
#define FB_GZCSV_H

#include <stddef.h>
#include <stdio.h>

#include "fb_run.h"

/* Significant digits of the suite's trajectory files. */
#define FB_TRAJ_DIGITS 9
/* zlib's deflate level of the trajectories and the plots' data files.  Level 1 deflates
 * these CSVs 4-5 times faster than level 6 (and than 9 far more) for files about 12 % larger
 * (measured on 200 quick-suite trajectories: 13.0 MB at 1, 11.5 MB at 6); the inflated
 * text, which is all a reader or `merge` compares, does not depend on it. */
#define FB_GZ_LEVEL 1
/* Their extension. */
#define FB_TRAJ_EXT ".csv.gz"

/* 1 when a file name is a trajectory file's: .csv (earlier suites, `run`) or .csv.gz. */
static inline int fb_is_traj_name(const char *name)
{
  size_t l = 0;
  while (name[l] != '\0')
    l++;
  const char *a = ".csv", *b = ".csv.gz";
  int ea = l >= 4, eb = l >= 7;
  for (size_t k = 0; ea && k < 4; k++)
    ea = name[l - 4 + k] == a[k];
  for (size_t k = 0; eb && k < 7; k++)
    eb = name[l - 7 + k] == b[k];
  return ea || eb;
}

/* The trajectory as fb_trace_write_csv writes it (same header and columns), numbers at
 * FB_TRAJ_DIGITS significant digits, as one gzip member written to fp.  FB_OK, FB_ENOMEM
 * or FB_EIO. */
int fb_trace_write_csv_gz(const fb_trace *tr, const char *const *z_names, FILE *fp);

/* The same for a large plant, keeping some of its DOFs (the ones the report reads;
 * docs/design.md §8 "Trajectory files"): dofs > 0: DOFs 1..dofs and contacts 1..min(dofs,
 * nc); dofs < 0: the last -dofs DOFs and the last min(-dofs, nc) contacts; 0, or |dofs| >=
 * n: every column (fb_trace_write_csv_gz).  Kept columns keep their names (x46 stays x46,
 * so the header says which DOFs a file holds); the states after the contacts' (attitude
 * quaternions) are written in whole files only. */
int fb_trace_write_csv_gz_dofs(const fb_trace *tr, const char *const *z_names, long dofs,
                               FILE *fp);

/* text[0 .. n) as one gzip member (level 9, no name, no time stamp: the same bytes for the
 * same text) written to fp.  FB_OK, FB_ENOMEM or FB_EIO. */
int fb_gz_write_text(const char *text, size_t n, FILE *fp);

/* The whole (decompressed) text of a gzip or plain file, NUL-terminated, into *text
 * (malloc'd; free it) with its length.  0, or -1 when it cannot be read. */
int fb_gz_read_all(const char *path, char **text, size_t *len);

/* The first line of a gzip or plain file (without the newline) into buf; then up to
 * nnum numbers, the first field of each following line, into num.  Returns the number of
 * numbers read, or -1 when the file cannot be read. */
int fb_gz_head(const char *path, char *buf, size_t len, double *num, int nnum);

#endif
