/* fb_contact_metrics.h — the metrics of a run with normal contacts (docs/design.md §12),
 * from the contact scheme's per-impact statistics (fb_impact_stats, contact/fb_normal_int.h)
 * against those of the contact reference: the same scenario variant under `newton`.
 */
#ifndef FB_CONTACT_METRICS_H
#define FB_CONTACT_METRICS_H

#include "fb_metrics.h"
#include "fb_normal_int.h"
#include "fb_run.h"

/* Tolerance of the contact reference (newton's inner stepper, atol = rtol). */
#define FB_CONTACT_REF_TOL 1e-12
/* DOFs above which a plant has no event-driven contact reference (FE plants: the explicit
 * stepper of newton's smooth phases cannot step their stiff modes). */
#define FB_CONTACT_REF_NMAX 8
/* Impacts whose onset times are compared (t_imp_err) and complete contact phases whose
 * effective restitution is averaged (e_eff). */
#define FB_CONTACT_NIMP 5
#define FB_CONTACT_NE 3

/* The contact fields of m set to NaN (plants without normals). */
void fb_contact_metrics_nan(fb_metrics *m);

/* Mean of -v_out/v_in over the first (up to) kmax complete contact phases (a phase that
 * never separates is skipped); *first gets the first phase's (NaN: none).  NaN: none. */
double fb_impact_e_eff(const fb_impact_stats *s, size_t kmax, double *first);

/* The contact reference of prepared case cs: its scenario variant under `newton`
 * (normal.* settings dropped) at FB_CONTACT_REF_TOL.  FB_OK or a failure with err. */
int fb_contact_reference(const fb_case *cs, unsigned long max_steps, unsigned long max_rhs,
                         fb_impact_stats *ref, fb_err *err);

/* What fb_contact_reference runs for scenario `scenario` at its defaults, in words, into
 * buf (for the report: newton at FB_CONTACT_REF_TOL, moreau-jean where newton refuses the
 * plant, or none for a plant above FB_CONTACT_REF_NMAX DOFs, with the reason).  1 when the
 * scenario has normal contacts at its defaults (buf said), 0 otherwise (buf empty). */
int fb_contact_reference_describe(const char *scenario, char *buf, size_t len);

/* The start of the rest window the reference gives: t_inf + (T - t_inf)/2 when the
 * reference comes to rest (newton's persistent contact) and no impact follows; NaN
 * otherwise (a forced oscillator, or e so high that it rests after T). */
double fb_contact_rest_window(const fb_plant *pl, const fb_impact_stats *ref);

/* The contact fields of m from a run's statistics and the reference's. */
void fb_contact_metrics(const fb_plant *pl, const fb_impact_stats *run,
                        const fb_impact_stats *ref, fb_metrics *m);

#endif
