/* fb_io.h — atomic output files: write under a temporary name in the target's
 * directory, rename on success, remove on failure, so a failed or interrupted command
 * never leaves a partial file behind (docs/design.md §9). */
#ifndef FB_IO_H
#define FB_IO_H

#include <jansson.h>
#include <stdio.h>

#include "fb_status.h"

typedef struct fb_outfile {
  FILE *fp;        /* write here */
  char *path;      /* final name (NULL for stdout) */
  char *tmp;       /* temporary name */
} fb_outfile;

/* path NULL or "-": stdout.  Refuses an existing path that is not a regular file
 * (a directory, /dev/full, ...) and a directory that cannot be written. */
int fb_outfile_open(fb_outfile *o, const char *path, const char *what, fb_err *err);
/* Flush, check every write, close and rename into place. */
int fb_outfile_commit(fb_outfile *o, fb_err *err);
/* Close and remove the temporary file. */
void fb_outfile_abort(fb_outfile *o);

/* 1 when path is the null device (/dev/null, or another name of it): an output that
 * discards, accepted by fb_outfile_open and exempt from fb_outputs_distinct. */
int fb_is_devnull(const char *path);
/* The absolute canonical name of path in out (len bytes), whether or not it exists: its
 * longest existing prefix resolved by realpath, the rest appended with "." and ".."
 * folded.  0, or -1 (too long, nothing resolvable). */
int fb_path_canon(const char *path, char *out, size_t len);
/* 1 when a and b name the same file or directory: the same device and inode when both
 * exist, else the same canonical name. */
int fb_same_file(const char *a, const char *b);
/* 1 when path is dir or lies below it (canonical names). */
int fb_path_within(const char *path, const char *dir);
/* An output may be neither another output nor an input of the same command: FB_EINVAL,
 * naming both options, when two of paths[0..n) (NULL: not given; "-": stdout, at most
 * once; /dev/null: exempt) are the same file.  names[i]: the option of paths[i]. */
int fb_outputs_distinct(size_t n, const char *const *names, const char *const *paths,
                        fb_err *err);
/* The length of path's longest prefix that exists (0: none), and, to undo a mkdir -p
 * after a refusal, rmdir of path and its parents down to that length (empty ones only). */
size_t fb_existing_prefix(const char *path);
void fb_rmdir_back(const char *path, size_t keep);
/* mkdir -p: create path and its missing parents (mode 0777 minus the umask).  Returns 0,
 * or -1 with errno set. */
int fb_mkdir_p(const char *path);
/* JSON files are written by jansson: the layout of every JSON file fricbench writes
 * (2-space indent, members in insertion order, reals to 10 significant digits, which
 * every value written carries), the text with a final newline (malloc'd; NULL when out
 * of memory), and that text to fp (0, or -1 on a write error). */
#define FB_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
char *fb_json_text(const json_t *j);
int fb_json_dump(const json_t *j, FILE *fp);


/* A scratch file under $TMPDIR (default /tmp), created with mkstemp as PREFIX_XXXXXX and
 * unlinked at once: the descriptor (read and write) is all there is, so no signal or
 * crash leaves it behind; close-on-exec.  Returns the descriptor, or -1 with errno set. */
int fb_tmpfile_fd(const char *prefix);
/* Remove the temporaries (NAME.tmp.XXXXXX) a killed command left in a results
 * directory: dir itself, dir/plots and dir/traj/<scenario>.  Returns how many. */
size_t fb_remove_stale_tmp(const char *dir);
/* At start: if stdout is closed, hold descriptor 1 with /dev/full (writes fail, no later
 * file takes its place) and return 1; else 0. */
int fb_stdout_guard(void);
/* At exit: flush, check and close stdout.  A failed write (/dev/full, a closed stdout, a
 * full disk) turns exit status 0 into 1 with one line; a non-zero rc is kept as is. */
int fb_stdout_finish(int rc, int was_closed);

#endif
