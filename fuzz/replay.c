/* replay.c — run a libFuzzer harness over files without libFuzzer: every file named on
 * the command line, or every file in each directory named, is passed to
 * LLVMFuzzerTestOneInput once.  Built into a meson test per harness so that every build
 * (the sanitizer one included) replays the seed corpus in fuzz/corpus/. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fb_fuzz.h"

static int run_file(const char *path)
{
  FILE *fp = fopen(path, "rb");
  if (fp == NULL) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  size_t r;
  while (buf != NULL && (r = fread(buf + n, 1, cap - n, fp)) > 0) {
    n += r;
    if (n == cap) {
      unsigned char *b2 = realloc(buf, 2 * cap);
      if (b2 == NULL)
        break;
      buf = b2;
      cap *= 2;
    }
  }
  fclose(fp);
  if (buf == NULL)
    return 1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

int main(int argc, char **argv)
{
  size_t files = 0;
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat sb;
    if (stat(argv[i], &sb) != 0) {
      fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(sb.st_mode)) {
      bad |= run_file(argv[i]);
      files++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    char p[4096];
    while (d != NULL && (e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.')
        continue;
      snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
      bad |= run_file(p);
      files++;
    }
    if (d != NULL)
      closedir(d);
  }
  printf("replay: %zu inputs\n", files);
  return bad || files == 0;
}
