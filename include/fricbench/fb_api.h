/* fb_api.h — what libfricbench exports.
 *
 * The library is compiled with hidden visibility (meson's gnu_symbol_visibility), so
 * only declarations marked FB_API are exported from libfricbench.so (and, through
 * -rdynamic, from the fricbench executable, where plugins find them).  Everything else
 * links only within the library, the CLI and the tests, which use the static archive.
 * The public headers are installed under include/fricbench/ (docs/design.md §11).
 *
 * The contract of every FB_API function: it checks its arguments, so that a caller's mistake
 * is a status and not a crash.  A NULL pointer, an index beyond those allocated or resolved,
 * an instance used before its _init (zero-initialised or freed) or before it is resolved
 * gives FB_EINVAL, with a one-line message in the fb_err where the function takes one; a
 * lookup gives NULL, a value NaN; the _free and _close functions accept NULL.
 * tests/test_embed.c calls each function with each bad argument under the sanitizers. */
#ifndef FB_API_H
#define FB_API_H

#if defined(__GNUC__)
#define FB_API __attribute__((visibility("default")))
#else
#define FB_API
#endif

#endif
