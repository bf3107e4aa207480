/* fb_compare.h — what `fricbench compare` knows about the columns and verdicts it rates
 * (bench/cli/compare_rules.c): each metric's good direction, the order of run statuses and
 * of each verdict property's words (docs/design.md §10.9).  Anything it does not know is
 * "changed", never better or worse: a column or verdict word added later is reported,
 * not rated, until it is given a direction here. */
#ifndef FB_COMPARE_H
#define FB_COMPARE_H

/* A metric's good direction. */
typedef enum fb_cmp_dir {
  FB_CMP_CHANGED = 0, /* no direction: informational (counts of events, reference sizes) */
  FB_CMP_LOWER,       /* errors, cost, drift, chatter, energy excess */
  FB_CMP_LOWER_ABS,   /* signed errors and creep velocity: lower |value| is better */
  FB_CMP_HIGHER       /* stick held, stable step, time reached */
} fb_cmp_dir;

fb_cmp_dir fb_cmp_direction(const char *column);

/* Rank of a run status, higher is better: ok 4 > suspect 3 > unstable 2 > budget 1 >
 * failed 0; -1 for a status it does not know. */
int fb_cmp_status_rank(const char *status);

/* Rank of verdict `verdict` of property `property`, higher is better (e.g. drift "no" >
 * "yes", hold "holds" > "shifts" > "creeps" > "slips"); a verdict reading "unstable ..."
 * ranks 0 under every property, below every known word (which rank >= 1); -1 for a word
 * it does not know. */
int fb_cmp_verdict_rank(const char *property, const char *verdict);

/* The good direction of a verdict row's value between two verdicts of the same rank
 * (cost at matched accuracy: lower; stable-step: higher; others: none). */
fb_cmp_dir fb_cmp_verdict_value_direction(const char *property);

/* 1 when a change from a to b of a directional column is beyond rtol relative to the
 * smaller magnitude (and the larger is above the round-off floor); its sign in *worse. */
int fb_cmp_beyond(fb_cmp_dir d, double a, double b, double rtol, int *worse);

#endif
