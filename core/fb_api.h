/* fb_api.h — what libfricbench exports.
 *
 * The library is compiled with hidden visibility (meson's gnu_symbol_visibility), so
 * only declarations marked FB_API are exported from libfricbench.so (and, through
 * -rdynamic, from the fricbench executable, where plugins find them).  Everything else
 * links only within the library, the CLI and the tests, which use the static archive.
 * The public headers are installed under include/fricbench/ (docs/design.md §11).
 */
#ifndef FB_API_H
#define FB_API_H

#if defined(__GNUC__)
#define FB_API __attribute__((visibility("default")))
#else
#define FB_API
#endif

#endif
