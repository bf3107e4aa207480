/* fb_params.c — parameter tables: defaults, lookup, strict parsing, range checks. */
#include "fb_params.h"
#include "fb_parse.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double *field(const fb_param_desc *d, void *p)
{
  return (double *)(void *)((char *)p + d->offset);
}

double fb_param_get(const fb_param_desc *d, const void *p)
{
  if (d == NULL || p == NULL)
    return NAN;
  return *(const double *)(const void *)((const char *)p + d->offset);
}

int fb_params_default(const fb_param_set *set, void *p)
{
  if (set == NULL || p == NULL || (set->n > 0 && set->desc == NULL))
    return FB_EINVAL;
  memset(p, 0, set->size);
  for (size_t i = 0; i < set->n; i++)
    *field(&set->desc[i], p) = set->desc[i].def;
  return FB_OK;
}

const fb_param_desc *fb_params_find(const fb_param_set *set, const char *name)
{
  if (set == NULL || name == NULL || set->desc == NULL)
    return NULL;
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->desc[i].name, name) == 0)
      return &set->desc[i];
  return NULL;
}

/* A byte that may not begin or end a number: blanks and control characters (\n, \v,
 * \r, \t, ...), which strtod would skip or which a shell quoting slip leaves in. */
static int edge_bad(unsigned char c)
{
  return c <= ' ' || c == 0x7f;
}

void fb_text_escape(const char *text, char *buf, size_t len)
{
  static const char esc[] = "\a\ab\bt\tn\nv\vf\fr\r";
  size_t used = 0;
  if (len == 0)
    return;
  for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
    char one[8];
    const char *e = (*p >= ' ' && *p != 0x7f) ? NULL : strchr(esc + 1, (char)*p);
    if (*p >= ' ' && *p != 0x7f)
      one[0] = (char)*p, one[1] = '\0';
    else if (e != NULL && (e - esc) % 2 == 1)
      one[0] = '\\', one[1] = e[-1], one[2] = '\0';
    else
      snprintf(one, sizeof one, "\\x%02x", *p);
    const size_t k = strlen(one);
    if (used + k + 4 > len) { /* room for "..." and the terminator */
      snprintf(buf + used, len - used, "...");
      return;
    }
    memcpy(buf + used, one, k);
    used += k;
  }
  buf[used] = '\0';
}

const char *fb_parse_double_why(const char *text, double *out)
{
  if (text == NULL || *text == '\0')
    return "is empty";
  /* strtod accepts leading white space; a value with surrounding blanks is a typo. */
  if (edge_bad((unsigned char)text[0]) || edge_bad((unsigned char)text[strlen(text) - 1]))
    return "has leading or trailing blanks or control characters";
  /* decimal only, as the integer options (--samples 0x10 is refused): strtod would also
   * read hexadecimal (0x10 = 16, 0x1p-3), which nobody means in a physical parameter */
  if (strpbrk(text, "xX") != NULL)
    return "is not a decimal number";
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0')
    return "is not a number";
  if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
    return "overflows (|value| > 1.8e308)";
  if (!isfinite(v))
    return "is not finite";
  /* An underflow (glibc sets ERANGE for a result below DBL_MIN, 0 or subnormal) silently
   * changes the value the user typed: 1e-400 would become 0. */
  if (errno == ERANGE && fabs(v) < DBL_MIN)
    return "underflows (0 < |value| < 2.2e-308)";
  *out = v;
  return NULL;
}

int fb_parse_double(const char *text, double *out)
{
  return fb_parse_double_why(text, out) == NULL ? FB_OK : FB_EINVAL;
}

int fb_parse_ulong(const char *text, unsigned long *out)
{
  if (text == NULL || *text < '0' || *text > '9')
    return FB_EINVAL;
  char *end = NULL;
  errno = 0;
  unsigned long v = strtoul(text, &end, 10);
  if (*end != '\0' || errno == ERANGE)
    return FB_EINVAL;
  *out = v;
  return FB_OK;
}

static size_t choice_count(const fb_param_desc *d)
{
  size_t n = 0;
  while (d->choices != NULL && d->choices[n] != NULL)
    n++;
  return n;
}

static void describe_range(const fb_param_desc *d, char *buf, size_t len)
{
  if (d->flags & FB_PARAM_CHOICE) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; d->choices != NULL && d->choices[i] != NULL && used < len; i++)
      used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "one of ", d->choices[i]);
    return;
  }
  const char *kind = (d->flags & FB_PARAM_INT) ? "an integer" : "a finite number";
  if (isinf(d->min) && isinf(d->max))
    snprintf(buf, len, "%s", kind);
  else if (isinf(d->max))
    snprintf(buf, len, "%s %s %g", kind, (d->flags & FB_PARAM_MIN_OPEN) ? ">" : ">=", d->min);
  else if (isinf(d->min))
    snprintf(buf, len, "%s %s %g", kind, (d->flags & FB_PARAM_MAX_OPEN) ? "<" : "<=", d->max);
  else
    snprintf(buf, len, "%s in %s%g, %g%s", kind, (d->flags & FB_PARAM_MIN_OPEN) ? "(" : "[",
             d->min, d->max, (d->flags & FB_PARAM_MAX_OPEN) ? ")" : "]");
}

int fb_param_check(const fb_param_desc *d, const char *owner, double v, fb_err *err)
{
  if (owner == NULL)
    owner = "parameters";
  if (d == NULL)
    return fb_err_set(err, FB_EINVAL, "%s: no parameter row (NULL)", owner);
  char range[256];
  describe_range(d, range, sizeof range);
  if (isnan(v) && (d->flags & FB_PARAM_AUTO))
    return FB_OK;
  int bad = !isfinite(v);
  if (!bad && (d->flags & FB_PARAM_MIN_OPEN ? !(v > d->min) : !(v >= d->min)))
    bad = 1;
  if (!bad && (d->flags & FB_PARAM_MAX_OPEN ? !(v < d->max) : !(v <= d->max)))
    bad = 1;
  if (!bad && (d->flags & (FB_PARAM_INT | FB_PARAM_CHOICE)) && v != floor(v))
    bad = 1;
  if (bad)
    return fb_err_set(err, FB_EINVAL, "%s: parameter %s = %g is out of range: allowed is %s", owner,
                      d->name, v, range);
  return FB_OK;
}

int fb_param_parse(const fb_param_desc *d, const char *owner, const char *text, double *out,
                   fb_err *err)
{
  if (owner == NULL)
    owner = "parameters";
  if (d == NULL || text == NULL || out == NULL)
    return fb_err_set(err, FB_EINVAL, "%s: fb_param_parse needs a row, a text and an output "
                      "(one is NULL)", owner);
  char range[256];
  describe_range(d, range, sizeof range);
  if (d->flags & FB_PARAM_CHOICE) {
    for (size_t i = 0; d->choices != NULL && d->choices[i] != NULL; i++)
      if (strcmp(d->choices[i], text) == 0) {
        *out = (double)i;
        return FB_OK;
      }
    return fb_err_set(err, FB_EINVAL, "%s: parameter %s = '%s' is not allowed: use %s", owner,
                      d->name, text, range);
  }
  /* "auto" where the row has an automatic value (what `list` shows as its default) */
  if (strcmp(text, "auto") == 0) {
    if (d->flags & FB_PARAM_AUTO) {
      *out = NAN;
      return FB_OK;
    }
    return fb_err_set(err, FB_EINVAL,
                      "%s: parameter %s = 'auto' is not allowed: %s has no automatic value; "
                      "allowed is %s",
                      owner, d->name, d->name, range);
  }
  double v;
  char typed[80];
  fb_text_escape(text, typed, sizeof typed);
  const char *why = fb_parse_double_why(text, &v);
  if (why != NULL)
    return fb_err_set(err, FB_EINVAL, "%s: parameter %s = '%s' %s: allowed is %s%s", owner,
                      d->name, typed, why, range, (d->flags & FB_PARAM_AUTO) ? " or auto" : "");
  /* the message names the text as typed, not the parsed value */
  if (fb_param_check(d, owner, v, err) != FB_OK)
    return fb_err_set(err, FB_EINVAL, "%s: parameter %s = %s is out of range: allowed is %s",
                      owner, d->name, typed, range);
  *out = v;
  return FB_OK;
}

int fb_params_set(const fb_param_set *set, const char *owner, void *p, const char *name,
                  const char *text, fb_err *err)
{
  if (owner == NULL)
    owner = "parameters";
  if (set == NULL || p == NULL || name == NULL || text == NULL)
    return fb_err_set(err, FB_EINVAL, "%s: fb_params_set needs a set, a struct, a name and a "
                      "text (one is NULL)", owner);
  const fb_param_desc *d = fb_params_find(set, name);
  if (d == NULL) {
    char names[320];
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; set != NULL && i < set->n && used < sizeof names; i++)
      used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                               set->desc[i].name);
    return fb_err_set(err, FB_EINVAL, "%s has no parameter '%.100s': use one of %s", owner, name,
                      names[0] ? names : "(none)");
  }
  double v;
  int st = fb_param_parse(d, owner, text, &v, err);
  if (st == FB_OK)
    *field(d, p) = v;
  return st;
}

int fb_params_check_all(const fb_param_set *set, const char *owner, const void *p, fb_err *err)
{
  if (owner == NULL)
    owner = "parameters";
  if (set == NULL || p == NULL || (set->n > 0 && set->desc == NULL))
    return fb_err_set(err, FB_EINVAL, "%s: no parameter set or struct (NULL)", owner);
  for (size_t i = 0; i < set->n; i++) {
    int st = fb_param_check(&set->desc[i], owner, fb_param_get(&set->desc[i], p), err);
    if (st != FB_OK)
      return st;
  }
  return FB_OK;
}

void fb_param_format(const fb_param_desc *d, double v, char *buf, size_t len)
{
  if (buf == NULL || len == 0)
    return;
  if (d == NULL)
    snprintf(buf, len, "?");
  else if ((d->flags & FB_PARAM_CHOICE) && v >= 0 && v < (double)choice_count(d))
    snprintf(buf, len, "%s", d->choices[(size_t)v]);
  else if (isnan(v) && (d->flags & FB_PARAM_AUTO))
    snprintf(buf, len, "auto");
  else
    snprintf(buf, len, "%.10g", v);
}

void fb_params_print(const fb_param_set *set, const void *p, const char *indent, FILE *fp)
{
  if (set == NULL || p == NULL || fp == NULL || (set->n > 0 && set->desc == NULL))
    return; /* nothing to print, nowhere to say so: the one void entry point stays quiet */
  if (indent == NULL)
    indent = "";
  for (size_t i = 0; i < set->n; i++) {
    const fb_param_desc *d = &set->desc[i];
    char val[64];
    fb_param_format(d, fb_param_get(d, p), val, sizeof val);
    fprintf(fp, "%s%-12s = %-14s [%s]  %s", indent, d->name, val, d->unit, d->doc);
    if ((d->flags & FB_PARAM_AUTO) && d->auto_doc != NULL)
      fprintf(fp, " (auto: %s)", d->auto_doc);
    if (d->flags & FB_PARAM_CHOICE) {
      fprintf(fp, " {");
      for (size_t k = 0; d->choices[k] != NULL; k++)
        fprintf(fp, "%s%s", k ? "," : "", d->choices[k]);
      fprintf(fp, "}");
    }
    fputc('\n', fp);
  }
}
