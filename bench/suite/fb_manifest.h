/* fb_manifest.h — a part's manifest, and what `merge` checks against it.
 *
 * A part of `suite --emit-jobs` (suite --part I/K) writes DIR/manifest LAST, after every
 * other file: the size and FNV-1a 64-bit hash of runs.csv, orders.csv, meta.json,
 * part.json, the journal and every trajectory under traj/.  A part without a manifest
 * did not finish.  Format (text):
 *
 *   fricbench-manifest 1
 *   <bytes> <hash: 16 hex digits> <path relative to DIR>       one line per file, by path
 *   end <number of files> <hash of every byte above this line>
 *
 * `merge` refuses a part whose manifest is missing or damaged, a listed file that is
 * missing or whose size or hash differs (edited, truncated), and a file of those kinds
 * that the manifest does not list; then it checks each row of the part's runs.csv
 * against the part's journal (whose lines carry their own checksums): the status, the
 * counters, t_reached, every metric and the timings must be what the journal recorded.
 * FNV-1a finds damage and careless edits, not a forger who rewrites the manifest: it is
 * no signature.  Every message is one line naming the part, the file and (for runs.csv)
 * the row.
 */
#ifndef FB_MANIFEST_H
#define FB_MANIFEST_H

#include <stddef.h>

#include "fb_status.h"

#define FB_MANIFEST_NAME "manifest"

/* Write dir/manifest (atomically) from the files in dir now. */
int fb_manifest_write(const char *dir, fb_err *err);

/* Remove dir/manifest (if any): a part that runs again is unfinished until it ends. */
void fb_manifest_remove(const char *dir);

/* Check dir against its manifest, then runs (dir/runs.csv's text, runs_len bytes) against
 * dir/journal.  FB_OK, FB_EINVAL with a one-line message naming `name` (the part as
 * named in messages), or FB_ENOMEM. */
int fb_manifest_check(const char *dir, const char *name, const char *runs, size_t runs_len,
                      fb_err *err);

#endif
