/* fb_params.h — named, typed, range-checked parameters for models and scenarios.
 *
 * Each model or scenario keeps its parameters in a plain C struct of doubles.  A
 * table of fb_param_desc rows names each field (by offsetof), with its unit, its
 * default, the closed or open range it may take and a one-line meaning.  That table
 * is what `--set NAME=VALUE`, `fricbench list` and the result files use, so a new
 * parameter is one struct field plus one row.
 *
 * "auto" parameters: a row with FB_PARAM_AUTO has default NaN; the owner resolves it
 * from the problem's scales (e.g. Kikuuwe's K from the scenario's frequency) and the
 * row's auto_doc says how.  Integer and choice parameters are stored as doubles too
 * (a choice as the index into `choices`).
 */
#ifndef FB_PARAMS_H
#define FB_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "fb_api.h"
#include "fb_status.h"

enum fb_param_flags {
  FB_PARAM_INT = 1u << 0,      /* value must be an integer */
  FB_PARAM_MIN_OPEN = 1u << 1, /* value must be > min (not >=) */
  FB_PARAM_MAX_OPEN = 1u << 2, /* value must be < max (not <=) */
  FB_PARAM_AUTO = 1u << 3,     /* default NaN = derived by the owner, see auto_doc */
  FB_PARAM_CHOICE = 1u << 4    /* value is an index into choices (set by name) */
};

typedef struct fb_param_desc {
  const char *name;                /* CLI name, lowercase, no spaces */
  const char *unit;                /* "N", "m/s", "1", "deg", ... */
  const char *doc;                 /* one line: what it is */
  size_t offset;                   /* offsetof(struct ..., field), field is a double */
  double def;                      /* default; NaN with FB_PARAM_AUTO */
  double min, max;                 /* allowed range (closed unless *_OPEN) */
  unsigned flags;                  /* fb_param_flags */
  const char *auto_doc;            /* how an auto value is derived */
  const char *const *choices;      /* NULL-terminated names for FB_PARAM_CHOICE */
} fb_param_desc;

typedef struct fb_param_set {
  size_t size;                /* sizeof the parameter struct */
  size_t n;                   /* number of rows */
  const fb_param_desc *desc;  /* the rows */
} fb_param_set;

/* Fill a parameter struct with the defaults of every row. */
FB_API int fb_params_default(const fb_param_set *set, void *p);
/* Find a row by name; NULL if none. */
FB_API const fb_param_desc *fb_params_find(const fb_param_set *set, const char *name);
/* Read a field. */
FB_API double fb_param_get(const fb_param_desc *d, const void *p);
/* Parse text into a value for row d and check it: strict number (whole string, finite)
 * or a choice name, then the row's range and integrality.  `owner` names the model
 * or scenario in the error message. */
FB_API int fb_param_parse(const fb_param_desc *d, const char *owner, const char *text, double *out,
                   fb_err *err);
/* Check a value against a row (finite, range, integer, choice index). */
FB_API int fb_param_check(const fb_param_desc *d, const char *owner, double v, fb_err *err);
/* Set a field by name after checking it. */
FB_API int fb_params_set(const fb_param_set *set, const char *owner, void *p, const char *name,
                  const char *text, fb_err *err);
/* Check every row of a filled struct (auto rows may be NaN). */
FB_API int fb_params_check_all(const fb_param_set *set, const char *owner, const void *p, fb_err *err);
/* Print "name = value unit  doc" lines (indent prefix) for `list`. */
FB_API void fb_params_print(const fb_param_set *set, const void *p, const char *indent, FILE *fp);
/* Format a value for humans: choice name, "auto", or %g. */
FB_API void fb_param_format(const fb_param_desc *d, double v, char *buf, size_t len);

#endif
