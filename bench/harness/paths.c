/* paths.c — run-time lookup of installed data relative to the install prefix. */
#define _POSIX_C_SOURCE 200809L
#include "fb_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by meson: install directories (relative to the prefix unless absolute) and the
 * build and source roots of this build. */
#ifndef FB_BINDIR
#define FB_BINDIR "bin"
#endif
#ifndef FB_DATADIR
#define FB_DATADIR "share"
#endif
#ifndef FB_BUILD_ROOT
#define FB_BUILD_ROOT ""
#endif
#ifndef FB_SOURCE_ROOT
#define FB_SOURCE_ROOT "."
#endif

static int has_traj(const char *dir)
{
  char p[4096];
  struct stat sb;
  if ((size_t)snprintf(p, sizeof p, "%s/traj.gp", dir) >= sizeof p)
    return 0;
  return stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* Strip the last path component of p in place; 0 when there was one. */
static int up(char *p)
{
  char *s = strrchr(p, '/');
  if (s == NULL)
    return -1;
  *(s == p ? s + 1 : s) = '\0';
  return 0;
}

int fb_scripts_dir(char *buf, size_t len)
{
  const char *env = getenv("FRICBENCH_SCRIPTS");
  if (env != NULL && *env != '\0') {
    snprintf(buf, len, "%s", env);
    return has_traj(buf) ? 0 : -1;
  }
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    snprintf(buf, len, "%s/fricbench", FB_DATADIR);
    return -1;
  }
  exe[n] = '\0';
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", exe);
  up(dir); /* the executable's directory: <prefix>/<bindir> */
  int found;
  if (FB_DATADIR[0] == '/') {
    snprintf(buf, len, "%s/fricbench", FB_DATADIR);
  } else {
    /* <prefix> is <bindir>'s components up from the executable's directory. */
    static const char bindir[] = FB_BINDIR;
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s", dir);
    for (size_t i = 0; bindir[i] != '\0'; i++)
      if (bindir[i] != '/' && (i == 0 || bindir[i - 1] == '/'))
        up(prefix);
    snprintf(buf, len, "%s/%s/fricbench", prefix, FB_DATADIR);
  }
  found = has_traj(buf);
  if (found)
    return 0;
  /* The uninstalled build: an executable under the build root uses the sources. */
  const size_t nb = strlen(FB_BUILD_ROOT);
  if (nb > 0 && strncmp(exe, FB_BUILD_ROOT, nb) == 0 && exe[nb] == '/' &&
      has_traj(FB_SOURCE_ROOT "/scripts")) {
    snprintf(buf, len, "%s", FB_SOURCE_ROOT "/scripts");
    return 0;
  }
  return -1;
}
