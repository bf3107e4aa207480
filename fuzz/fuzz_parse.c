/* fuzz_parse.c — libFuzzer harness for everything fricbench parses from the command
 * line: numbers (fb_parse_double, fb_parse_ulong), `--set NAME=VALUE` on a case (any
 * scenario x model, scenario./model. prefixes, choices, auto values) followed by the
 * case's preparation (plant build, model resolution, integrator option checks, span and
 * divergence bounds), and the integrator options (--h / --tol / --samples as they reach
 * fb_case_prepare).
 *
 * Input: byte 0 selects the target, bytes 1-2 a scenario and a model (by registry index,
 * modulo their counts), byte 3 an integrator of the model; the rest is the text, split
 * at newlines into several assignments.  Properties checked (abort on violation, which
 * libFuzzer reports): a parsed double is finite and reads back from %.17g to the same
 * value; a parsed count reads back from %lu; a prepared case has 2 <= samples <=
 * FB_MAX_SAMPLES, a step in (0, T - t0] or positive tolerances, and positive divergence
 * bounds.  Every allocation must be freed (LeakSanitizer). */
#define _POSIX_C_SOURCE 200809L
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_fuzz.h"
#include "fb_run.h"
#include "fb_scenarios.h"
#include "fb_parse.h"
#include "fb_integrator_int.h"

static size_t count_models(void)
{
  size_t n = 0;
  while (fb_model_registry[n] != NULL)
    n++;
  return n;
}

static size_t count_scenarios(void)
{
  size_t n = 0;
  while (fb_scenario_registry[n] != NULL)
    n++;
  return n;
}

static void check_double(const char *s)
{
  double v;
  if (fb_parse_double(s, &v) != FB_OK)
    return;
  if (!isfinite(v))
    abort();
  char buf[64];
  double w;
  snprintf(buf, sizeof buf, "%.17g", v);
  if (fb_parse_double(buf, &w) != FB_OK || memcmp(&v, &w, sizeof v) != 0)
    abort();
}

static void check_ulong(const char *s)
{
  unsigned long v, w;
  if (fb_parse_ulong(s, &v) != FB_OK)
    return;
  char buf[32];
  snprintf(buf, sizeof buf, "%lu", v);
  if (fb_parse_ulong(buf, &w) != FB_OK || v != w)
    abort();
}

/* A case from the selector bytes, the assignments of text, then prepare. */
static void check_case(const uint8_t *sel, char *text, int with_opts)
{
  const fb_scenario_type *st = fb_scenario_registry[sel[0] % count_scenarios()];
  const fb_model_type *mt = fb_model_registry[sel[1] % count_models()];
  const char *integ = NULL;
  size_t nint = 0;
  while (mt->schemes != NULL && mt->schemes[nint] != NULL)
    nint++;
  if (sel[2] % 4 == 1 && nint > 0)
    integ = mt->schemes[(sel[2] / 4) % nint]->name;
  else if (sel[2] % 4 == 2) {
    size_t ng = 0;
    while (fb_integrator_registry[ng] != NULL)
      ng++;
    integ = fb_integrator_registry[(sel[2] / 4) % ng]->name;
  }
  fb_case c;
  fb_err err = {{0}};
  if (fb_case_init(&c, st->name, mt->name, integ, &err) != FB_OK)
    return; /* a generic integrator that does not suit the model */
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    if (with_opts && strncmp(line, "h=", 2) == 0) {
      double v;
      if (fb_parse_double(line + 2, &v) == FB_OK)
        c.opts.h = v;
    } else if (with_opts && strncmp(line, "tol=", 4) == 0) {
      double v;
      if (fb_parse_double(line + 4, &v) == FB_OK)
        c.opts.atol = c.opts.rtol = v;
    } else if (with_opts && strncmp(line, "samples=", 8) == 0) {
      unsigned long v;
      if (fb_parse_ulong(line + 8, &v) == FB_OK)
        c.samples = v;
    } else {
      fb_case_set(&c, line, &err);
    }
  }
  if (fb_case_prepare(&c, &err) == FB_OK) {
    const double span = c.sc.plant.T - c.sc.plant.t0;
    if (c.samples < 2 || c.samples > FB_MAX_SAMPLES || !(c.x_bound > 0) || !(c.v_bound > 0))
      abort();
    if (!isnan(c.opts.h) ? !(c.opts.h > 0 && c.opts.h <= span)
                         : !(c.opts.atol > 0 && c.opts.rtol > 0))
      abort();
  }
  fb_case_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static int once;
  if (!once) {
    gsl_set_error_handler_off();
    once = 1;
  }
  if (size < 4 || size > 4096)
    return 0;
  char *text = malloc(size - 4 + 1);
  if (text == NULL)
    return 0;
  memcpy(text, data + 4, size - 4);
  text[size - 4] = '\0';
  switch (data[0] % 4) {
  case 0: check_double(text); break;
  case 1: check_ulong(text); break;
  case 2: check_case(data + 1, text, 0); break;
  default: check_case(data + 1, text, 1); break;
  }
  free(text);
  return 0;
}
