/* fbt_sundials.h — a SUNDIALS test is skipped, with the reason, in a build without it. */
#ifndef FBT_SUNDIALS_H
#define FBT_SUNDIALS_H

#include <criterion/criterion.h>

#define SKIP_WITHOUT_SUNDIALS()                                                              \
  do {                                                                                     \
    if (!have_sundials())                                                                  \
      cr_skip_test("built without SUNDIALS (libsundials-dev: scripts/bootstrap.sh "         \
                   "--sundials, then meson setup again)");                                 \
  } while (0)

static inline int have_sundials(void)
{
#ifdef FB_HAVE_SUNDIALS
  return 1;
#else
  return 0;
#endif
}

#endif
