/* matrix_int.h — the default experiment table's builder, shared by matrix.c (the table and
 * the friction groups) and matrix_contact.c (the normal-contact, seed-system and scale
 * groups).  Private to bench/suite. */
#ifndef FB_MATRIX_INT_H
#define FB_MATRIX_INT_H

#include "fb_suite.h"

#define Q FB_EXP_QUICK
#define TR FB_EXP_TRAJ

/* trajectories kept every 0.5 ms on bouncing-ball (T = 4): a force law's contact lasts a
 * few ms, and the report zooms on the first one */
#define CONTACT_SAMPLES 8001
/* the restitution coefficients of bouncing-ball's sweeps (group restitution, the engines') */
#define MX_CONTACT_NE 5
extern const double mx_contact_e[MX_CONTACT_NE];

typedef struct builder {
  fb_table *t;
  size_t cap;
  int failed;
} builder;

/* A new experiment row (NULL once an allocation failed: every later call is a no-op). */
fb_experiment *mx_add(builder *b, const char *group, const char *tag, const char *scenario,
                      const fb_model_type *m, const char *integrator, unsigned flags);
/* Its sweep: kind, parameter and the first FB_EXP_MAX_VALUES values of v (x may be NULL). */
void mx_sweep(fb_experiment *x, fb_sweep_kind kind, const char *param, const double *v,
              size_t n);

/* The groups of matrix_contact.c, in the order fb_table_default appends them. */
void mx_contact_groups(builder *b);
void mx_two_beam_groups(builder *b);
void mx_frame_group(builder *b);
void mx_scale_group(builder *b);
void mx_sphere_group(builder *b, const fb_model_type *const *models);
void mx_conveyor_group(builder *b);
void mx_frame_scale_group(builder *b);

#endif
