/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An adaptive study: measure what can change the answer, repeat where the
 * uncertainty is (Kalibera and Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013).
 *
 * The planner starts from a full plan (every target r0sweep's options
 * name) and keeps it as the study's frame, but measures only part of it,
 * spending the budget where the answer can change, in this order:
 *
 *  1. the single drive and the largest array on the first layer at every
 *     chunk (the first look);
 *  2. runs judged far (r0/noise.h) measured again, and kept; a target
 *     with a visit judged far whole, a visit more (all its cells);
 *  3. the pick against one drive under the mix, while undecided;
 *  4. how many drives: the pick's layer and chunk at every member count,
 *     then more repeats while a drive's gain over one fewer is undecided
 *     against the drive gain;
 *  5. the recommended set under the mix, while a choice cannot be told
 *     from the best or shown within the threshold of it;
 *  6. md against dm: the pick's chunk on the other layer;
 *  7. each workload's worth it on the pick; the set's other chunks on the
 *     other layer; then the per-workload chunk lines; last the 1-member
 *     stripes (the layer's own cost: no answer rests on them).
 *
 * A chunk shown worse under the mix is not measured further (the study
 * records what it left out and why). A target measured for the first time
 * brings its comparison partners (the pick at the largest count and the
 * single drive) into the same passes, so every comparison the verdict
 * prints is measured interleaved in time and the analysis can take drift
 * out pass by pass (r0/noise.h). Repeats grow in looks (3, 5, 8 by
 * default); every claim's p-value counts the looks when its kind's level
 * is set (r0_cmp_opts.looks, r0_rank_all), and what stopping early then
 * does to the claims is measured by simulating whole studies
 * (docs/validation.md).
 *
 * Pure: the study loop (r0/study.h) runs the cells and hands back the
 * records; the same records give the same next step.
 */
#ifndef R0_ADAPTIVE_H
#define R0_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/analysis.h"
#include "r0/sweepplan.h"

#define R0_ADAPT_MIN_REPEATS 3
#define R0_ADAPT_MAX_REPEATS 8
#define R0_ADAPT_MAX_LOOKS 8

/*
 * The repeat counts at which the data is looked at: MIN, then about 1.6
 * times the last (at least one more), ending at MAX: 3, 5, 8. Fills
 * AT[0..n) and returns n (at most R0_ADAPT_MAX_LOOKS), 0 for MIN 0 or
 * MIN > MAX.
 */
size_t r0_adapt_looks(unsigned min, unsigned max, unsigned *at);

/* What kind of comparison was still undecided. */
enum r0_adapt_kind {
	R0_ADAPT_WORTH,             /* the pick against one drive under the mix */
	R0_ADAPT_BUILD,             /* a drive's gain over one fewer at the pick, against the drive gain */
	R0_ADAPT_SET,               /* a choice against the best under the mix */
	R0_ADAPT_WL_WORTH,          /* a workload on the pick against one drive */
	R0_ADAPT_WL_CHUNK,          /* a chunk against the workload's best chunk */
	R0_ADAPT_KINDS
};

struct r0_planner {
	const struct r0_sweep_plan *plan;   /* the full plan: targets x workloads */
	bool adaptive;              /* false: every target, FIXED repeats (no looks) */
	unsigned looks[R0_ADAPT_MAX_LOOKS];
	size_t n_looks;
	char wl_name[R0_SWEEP_MAX_WL][48];   /* r0_run_workload's, per workload */
	bool active[R0_SWEEP_MAX_TARGETS];   /* measured at all */
	unsigned need[R0_SWEEP_MAX_TARGETS][R0_SWEEP_MAX_WL];   /* repeats wanted, not counting runs judged far */
	unsigned have[R0_SWEEP_MAX_TARGETS][R0_SWEEP_MAX_WL];   /* repeats in the records */
	unsigned again[R0_SWEEP_MAX_TARGETS][R0_SWEEP_MAX_WL];  /* of them judged far (r0/noise.h), and the
	                                                         * runs more they bring: run again */
	bool bumped[R0_SWEEP_MAX_TARGETS];   /* during a step: measured again as a new target's partner */
	bool money_bumped[R0_SWEEP_MAX_TARGETS];     /* during a step: a money look taken */
	unsigned money_look[R0_SWEEP_MAX_TARGETS];   /* the money answers' looks taken at a target, in
	                                              * their proportions (adaptive.c more_money) */
	/* after the last step: comparisons still open, by kind; cells that
	 * wanted more than the last look allows */
	unsigned undecided[R0_ADAPT_KINDS];
	unsigned at_max;
	bool budget_short;          /* something wanted did not fit in the cells left */
	/* the budget did not hold the first look with the counts: it was the money
	 * answers' alone, one chunk at every count (r0_planner_fit_budget) */
	bool money_first;
	size_t cells_left, todo_now;   /* during a step: the bound, and what it asked for so far */
	char open[1024];            /* the first open comparisons in words */
	char dropped[1024];         /* targets of the full plan left out, and why */
};

/*
 * Sets P up over PLAN (kept by pointer). ADAPTIVE: looks from MIN to MAX
 * repeats and the first targets as above; otherwise every target at MIN
 * repeats (the fixed plan of --repeats). 0, or -EINVAL (MIN 0, MIN > MAX,
 * an empty plan).
 */
int r0_planner_init(struct r0_planner *p, const struct r0_sweep_plan *plan, bool adaptive, unsigned min,
		    unsigned max);

/*
 * Fits an adaptive plan's first look into CELLS (the whole budget in
 * cells): when the single drive and the largest array at every chunk,
 * with one chunk at the counts below, do not fit, the first look is what
 * the money answers need alone: the single drive and the chunk nearest
 * 512K (mdadm's default) at every member count, so worth it and how many
 * drives are answered first; the other chunks follow once those are
 * decided (money_first). Nothing for a fixed plan, or when it fits.
 */
void r0_planner_fit_budget(struct r0_planner *p, size_t cells);

/* The index of the plan's target a record of SET measured, or -1. */
int r0_planner_target_of(const struct r0_planner *p, const struct r0_run *r);

/*
 * Looks at the records in SET (the study's so far, a resumed file's
 * included) and sets what to measure next in need[][]: 1 when there is
 * something to run (cells whose have < need), 0 when the study is done,
 * negative errno on failure. MIX and CMP as for r0_analyse (CMP's looks
 * is set from the planner's). CELLS_LEFT bounds what it asks for (the
 * time budget in cells; SIZE_MAX: none): in order, more repeats for the
 * answers, the targets around the recommended set, more repeats for the
 * per-workload chunk lines; a cell's next look only when it fits, a new
 * target only when its first look fits whole (budget_short says
 * something did not).
 */
int r0_planner_step(struct r0_planner *p, const struct r0_run_set *set, const struct r0_mix *mix,
		    const struct r0_cmp_opts *cmp, size_t cells_left);

/* The comparison options a study with this planner must be analysed with. */
struct r0_cmp_opts r0_planner_cmp(const struct r0_planner *p, const struct r0_cmp_opts *cmp);

/* Cells (target x workload x repeat) still to run: sum of need + again - have where positive. */
size_t r0_planner_todo(const struct r0_planner *p);

/* Cells the first pass measures (active targets x workloads x the first look): the plan's floor. */
size_t r0_planner_first_cells(const struct r0_planner *p);

/* Whether workload W of target T is still to run: its next repeat's number, else 0. */
unsigned r0_planner_next_repeat(const struct r0_planner *p, size_t t, size_t w);

#endif
