/* fbt_alloc_count.h — bytes allocated while `counting` is set, by interposing malloc, calloc
 * and realloc over glibc's (include it in ONE file of a test executable).  Under
 * AddressSanitizer the allocator is the sanitizer's and may not be interposed (its runtime
 * aborts before main): FB_COUNT_ALLOC is 0 there, and the count is the plain build's test. */
#ifndef FBT_ALLOC_COUNT_H
#define FBT_ALLOC_COUNT_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define FB_COUNT_ALLOC 0
#else
#define FB_COUNT_ALLOC 1
static size_t n_bytes;
static int counting;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
void *malloc(size_t n);
void *calloc(size_t a, size_t b);
void *realloc(void *p, size_t n);
void *malloc(size_t n)
{
  n_bytes += counting ? n : 0;
  return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
  n_bytes += counting ? a * b : 0;
  return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
  n_bytes += counting ? n : 0;
  return __libc_realloc(p, n);
}
#endif

#endif
