/* case_api.c — the case runner behind an opaque handle, for programs that link
 * libfricbench (fricbench.h): one scenario x model x integrator run as `fricbench run`
 * runs it, without exposing the harness's structs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_run.h"
#include "fricbench.h"

fb_case_handle *fb_case_open(const char *scenario, const char *model, const char *integrator,
                             fb_err *err)
{
  if (scenario == NULL || model == NULL) {
    fb_err_set(err, FB_EINVAL, "fb_case_open needs a scenario and a model name (NULL)");
    return NULL;
  }
  fb_case_handle *h = calloc(1, sizeof *h);
  if (h == NULL) {
    fb_err_set(err, FB_ENOMEM, "out of memory");
    return NULL;
  }
  if (fb_case_init(&h->c, scenario, model, integrator, err) != FB_OK) {
    free(h);
    return NULL;
  }
  return h;
}

int fb_case_assign(fb_case_handle *h, const char *assignment, fb_err *err)
{
  if (h == NULL || assignment == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_case_assign needs a case (fb_case_open) and an "
                      "assignment (NULL)");
  return fb_case_set(&h->c, assignment, err);
}

int fb_case_stepping(fb_case_handle *h, double step, double atol, double rtol, fb_err *err)
{
  if (h == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_case_stepping needs a case (fb_case_open; NULL)");
  if (!isnan(step) && !(step > 0 && isfinite(step)))
    return fb_err_set(err, FB_EINVAL, "step %g is not allowed: use a finite number > 0 or NaN", step);
  if (!isnan(atol) && !(atol > 0 && isfinite(atol)))
    return fb_err_set(err, FB_EINVAL, "atol %g is not allowed: use a finite number > 0 or NaN", atol);
  if (!isnan(rtol) && !(rtol > 0 && isfinite(rtol)))
    return fb_err_set(err, FB_EINVAL, "rtol %g is not allowed: use a finite number > 0 or NaN", rtol);
  if (!isnan(step) && (!isnan(atol) || !isnan(rtol)))
    return fb_err_set(err, FB_EINVAL, "a fixed step and a tolerance exclude each other");
  h->c.opts.h = step;
  h->c.opts.atol = atol;
  h->c.opts.rtol = isnan(rtol) ? atol : rtol;
  return FB_OK;
}

int fb_case_execute(fb_case_handle *h, size_t samples, FILE *csv, fb_case_summary *out,
                    fb_err *err)
{
  if (h == NULL || out == NULL)
    return fb_err_set(err, FB_EINVAL, "fb_case_execute needs a case (fb_case_open) and a "
                      "summary to fill (NULL)");
  fb_case *c = &h->c;
  memset(out, 0, sizeof *out);
  c->samples = samples;
  int st = fb_case_prepare(c, err);
  if (st != FB_OK)
    return st;
  fb_trace tr = {0};
  if (csv != NULL &&
      fb_trace_alloc(&tr, c->samples, c->sc.plant.n, c->sc.plant.nc, c->md.type->nz) != FB_OK)
    return fb_err_set(err, FB_ENOMEM, "out of memory");
  fb_run_result res;
  fb_case_run(c, csv != NULL ? &tr : NULL, NULL, &res);
  out->status = res.status;
  snprintf(out->message, sizeof out->message, "%s", res.status != FB_OK ? res.message : "");
  out->t_reached = res.t_reached;
  out->nsteps = res.cnt.nsteps;
  out->nrejected = res.cnt.nrejected;
  out->nfe = res.cnt.nfe;
  out->njac = res.cnt.njac;
  out->wall_s = res.wall_s;
  if (csv != NULL && fb_trace_write_csv(&tr, c->md.type->z_names, csv) != FB_OK)
    st = fb_err_set(err, FB_EIO, "writing the trajectory failed");
  fb_trace_free(&tr);
  if (st == FB_OK && res.status != FB_OK)
    fb_err_set(err, res.status, "%s", res.message);
  return st != FB_OK ? st : res.status;
}

void fb_case_close(fb_case_handle *h)
{
  if (h != NULL) {
    fb_case_free(&h->c);
    free(h);
  }
}
