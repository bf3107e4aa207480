/* fb_parse.h — strict parsing of the numbers every option and file takes
 * (core/fb_params.c); the library's and the CLI's own, not exported. */
#ifndef FB_PARSE_H
#define FB_PARSE_H

#include <stddef.h>

/* Strict number parsing shared by every option: the whole string must be a finite
 * number (strtod syntax, no trailing characters, no empty string). */
int fb_parse_double(const char *text, double *out);
/* The same, returning NULL on success or why text was refused ("is empty", "has leading
 * or trailing blanks or control characters", "is not a number", "overflows ...",
 * "underflows ...", "is not finite"), to follow the quoted text in a message. */
const char *fb_parse_double_why(const char *text, double *out);
/* text for a one-line message: control characters as C escapes (\n, \v, \x1b, ...),
 * cut with "..." to fit len. */
void fb_text_escape(const char *text, char *buf, size_t len);
/* Strict non-negative integer parsing (decimal, no sign, fits in unsigned long). */
int fb_parse_ulong(const char *text, unsigned long *out);

#endif
