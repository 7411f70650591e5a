/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The study loop: look at the records, run what the planner asks for
 * (r0/adaptive.h), look again, until every comparison is decided, the
 * last look is reached or the budget ends it. One loop for r0sweep, which
 * measures devices, and for the simulation of whole studies
 * (tests/sim/), which measures a model: both hand it a way to measure.
 *
 * It measures in passes: a pass visits every target that has a cell to
 * run, each once, in a seeded order of its own (r0_pass_order), and
 * runs each wanted workload there once. Every record carries its pass,
 * so runs measured close in time can be told from runs measured far
 * apart (r0/noise.h takes drift out pass by pass).
 */
#ifndef R0_STUDY_H
#define R0_STUDY_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/adaptive.h"
#include "r0/compare.h"
#include "r0/mix.h"
#include "r0/runs.h"

/* How a study measures: the caller's, with its own CTX. */
struct r0_study_ops {
	/*
	 * Visits target T of the plan in pass PASS and runs workload w once
	 * for every w with REPEAT[w] > 0 (that repeat's number), adding one
	 * record a run to SET (pass set to PASS). 0, or -errno: the study
	 * stops with it (-EINTR: stopped by a signal).
	 */
	int (*visit)(void *ctx, size_t t, unsigned pass, const unsigned *repeat, struct r0_run_set *set);
	/* Seconds since the study began. */
	double (*elapsed)(void *ctx);
	/* Seconds a cell is expected to take from now on. */
	double (*cell_seconds)(void *ctx);
};

struct r0_study {
	struct r0_planner planner;
	const struct r0_mix *mix;
	struct r0_cmp_opts cmp;     /* as asked; the looks come from the planner */
	double budget_s;            /* nothing starts that would end past it; 0: none */
	unsigned pass;              /* the last pass run (a resumed file's included) */
	bool budget_hit;            /* the budget ended the study with cells still wanted */
};

/*
 * Sets S up over PLAN (kept by pointer): the planner (r0_planner_init with
 * ADAPTIVE, MIN and MAX), MIX (kept), CMP (NULL: the defaults) and the
 * budget, into which the first look is fitted at CELL_S seconds a cell
 * (r0_planner_fit_budget; 0: not fitted). 0 or -EINVAL.
 */
int r0_study_init(struct r0_study *s, const struct r0_sweep_plan *plan, bool adaptive, unsigned min,
		  unsigned max, const struct r0_mix *mix, const struct r0_cmp_opts *cmp, double budget_s,
		  double cell_s);

/*
 * Runs the study over SET (the records so far; a resumed file's count):
 * look, run the passes the look asks for through OPS, look again. 0 when
 * the planner is done or the budget ended it (budget_hit); -errno from a
 * visit or the planner.
 */
int r0_study_run(struct r0_study *s, struct r0_run_set *set, const struct r0_study_ops *ops, void *ctx);

#endif
