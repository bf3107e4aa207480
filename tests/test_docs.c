/* test_docs.c — the README's Debian package list is scripts/bootstrap.sh's `pkgs=(...)`
 * (it drifted once: three packages were installed but not listed). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64

static char *slurp(const char *rel)
{
  const char *root = getenv("FB_SOURCE_ROOT");
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root != NULL ? root : FB_SOURCE_ROOT, rel);
  FILE *fp = fopen(path, "rb");
  cr_assert_not_null(fp, "cannot open %s", path);
  fseek(fp, 0, SEEK_END);
  const long n = ftell(fp);
  rewind(fp);
  char *s = malloc((size_t)n + 1);
  cr_assert_eq(fread(s, 1, (size_t)n, fp), (size_t)n);
  s[n] = '\0';
  fclose(fp);
  return s;
}

static int cmp(const void *a, const void *b)
{
  return strcmp((const char *)a, (const char *)b);
}

/* bootstrap.sh: the words between `pkgs=(` and `)` */
static size_t bootstrap_pkgs(char (*out)[64])
{
  char *s = slurp("scripts/bootstrap.sh");
  char *p = strstr(s, "\npkgs=(");
  cr_assert_not_null(p, "bootstrap.sh has no pkgs=(...)");
  p += 7;
  char *e = strchr(p, ')');
  cr_assert_not_null(e);
  size_t n = 0;
  while (p < e) {
    while (p < e && isspace((unsigned char)*p))
      p++;
    size_t k = 0;
    while (p < e && !isspace((unsigned char)*p) && k < 63)
      out[n][k++] = *p++;
    out[n][k] = '\0';
    if (k > 0 && n + 1 < MAXP)
      n++;
  }
  free(s);
  return n;
}

/* README: the backquoted words of the paragraph opened by "Packages used" */
static size_t readme_pkgs(char (*out)[64])
{
  char *s = slurp("README.md");
  char *p = strstr(s, "\nPackages used");
  cr_assert_not_null(p, "README.md has no 'Packages used' paragraph");
  char *e = strstr(p + 1, "\n\n");
  cr_assert_not_null(e);
  size_t n = 0;
  while ((p = strchr(p, '`')) != NULL && p < e) {
    char *q = strchr(p + 1, '`');
    cr_assert(q != NULL && q < e, "unbalanced backquote in the package list");
    const size_t k = (size_t)(q - p - 1);
    /* package names only: lowercase, digits, '-', '.', '+' (not `run --metrics`) */
    int name = k > 0 && k < 64;
    for (size_t i = 1; name && i <= k; i++)
      name = islower((unsigned char)p[i]) || isdigit((unsigned char)p[i]) || strchr("-.+", p[i]);
    if (name && p[1] != '-' && n + 1 < MAXP) {
      memcpy(out[n], p + 1, k);
      out[n++][k] = '\0';
    }
    p = q + 1;
  }
  free(s);
  return n;
}

Test(docs, readme_package_list_is_bootstraps)
{
  static char a[MAXP][64], b[MAXP][64];
  const size_t na = bootstrap_pkgs(a), nb = readme_pkgs(b);
  cr_assert_gt(na, 5, "bootstrap.sh lists packages");
  qsort(a, na, sizeof a[0], cmp);
  qsort(b, nb, sizeof b[0], cmp);
  for (size_t i = 0; i < na; i++)
    cr_expect(bsearch(a[i], b, nb, sizeof b[0], cmp) != NULL,
              "bootstrap.sh installs %s; README.md does not list it", a[i]);
  for (size_t i = 0; i < nb; i++)
    cr_expect(bsearch(b[i], a, na, sizeof a[0], cmp) != NULL,
              "README.md lists %s; bootstrap.sh does not install it", b[i]);
  cr_expect_eq(na, nb, "%zu packages in bootstrap.sh, %zu in README.md", na, nb);
}
