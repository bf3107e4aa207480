/* fb_paths.h — where the installed data (the gnuplot scripts) is found at run time. */
#ifndef FB_PATHS_H
#define FB_PATHS_H

#include <stddef.h>

/* The directory holding the gnuplot scripts (traj.gp, ...), into buf:
 *  1. $FRICBENCH_SCRIPTS when set and not empty;
 *  2. <prefix>/<datadir>/fricbench, the prefix found from the running executable
 *     (/proc/self/exe is <prefix>/<bindir>/fricbench), so an installed tree works
 *     wherever it was installed or moved to, with the source tree gone;
 *  3. the source tree's scripts/, only for an executable inside the build tree.
 * Returns 0 when the directory holds traj.gp, -1 otherwise (buf then names the place of
 * step 2, or of step 1 when set, for the error message). */
int fb_scripts_dir(char *buf, size_t len);

#endif
