/* fb_schedule.h — dispatch order and partition of the suite's jobs (docs/design.md §8).
 *
 * Every job's cost is estimated before anything runs, from what its case says: the
 * number of steps (span / h for a fixed step; for a tolerance, a guess that grows as
 * tol^(-1/order) with the scenario's characteristic frequency), times the RHS
 * evaluations per step of its integrator and a per-model factor for the laws whose
 * adaptive runs collapse their steps (naive sign, stiff regularizations), capped by the
 * run's RHS budget (budget-bound runs are the longest), plus the trajectory output.
 * The estimate only orders work; results never depend on it.
 *
 * Longest first: the threads take jobs in decreasing estimated cost, so a long run does
 * not start last and trail alone at the end; rows are still written in table order.
 * Parts (`suite --part I/K`, `--emit-jobs`): whole experiments (all values of a ladder,
 * so that orders.csv can be fitted inside one part) are dealt to K parts by the same
 * estimates, longest first, each to the part with the least work so far (LPT).  The
 * partition is a function of the table and the options only, so every part computes
 * the same one.
 */
#ifndef FB_SCHEDULE_H
#define FB_SCHEDULE_H

#include <stddef.h>

#include "fb_run.h"
#include "fb_suite.h"

/* Estimated cost of a prepared case (arbitrary units, > 0). */
double fb_sched_cost(const fb_case *cs, const fb_experiment *e, unsigned long max_rhs);

/* idx[0..n) := the indices i of cost[] with keep[i] != 0 (all when keep is NULL), by
 * decreasing cost, ties in index order.  Returns how many. */
size_t fb_sched_order(const double *cost, const unsigned char *keep, size_t n, size_t *idx);

/* part[g] in [0, nparts) for n groups of the given costs (LPT, deterministic). */
void fb_sched_partition(const double *cost, size_t n, size_t nparts, size_t *part);

#endif
