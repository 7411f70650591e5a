/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A seeded simulation of whole studies with known truth: r0sweep's
 * default plan (3 drives; md and dm at six chunks and 1 to 3 members; the
 * cdm3 and cdm workloads) run on simulated drives through the planner
 * (r0/adaptive.h) and analysed as r0sweep does. The truth is a model of
 * RAID0: a request of B bytes at chunk C touches min(n, B/C) members (one
 * more when it straddles), queue depth spreads requests over members, and
 * every array pays a small layer cost. Each repeat is truth x (1 + sigma
 * x N(0,1)) x a drift that grows with the study's elapsed time. What it
 * answers: does a plan give the verdict and pick the full plan gives, how
 * often, and in how much time (tests/unit/test_adaptive.c;
 * recipes/bench/study-plans).
 */
#ifndef R0_STUDYSIM_H
#define R0_STUDYSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/analysis.h"

struct r0_sim_drive {
	double sigma;               /* noise between repeats, e.g. 0.05 */
	double drift_per_hour;      /* every drive's speed changes by this share an hour */
};

struct r0_sim_plan {
	bool adaptive;              /* the planner's looks; else every target at `repeats` */
	unsigned repeats;           /* fixed plan: repeats; adaptive: the first look */
	unsigned max_repeats;       /* adaptive: the last look */
	bool one_single_chunk;      /* the 1-member stripes at 512K only (else at every chunk) */
	double cell_s;              /* seconds a cell takes: ramp, test and overhead */
	double budget_s;            /* stop before a cell would end past it; 0: none */
};

/* The full plan of r0sweep before adaptive studies: every target, 5 repeats, 5 s tests after a 1 s ramp. */
#define R0_SIM_FULL_PLAN ((struct r0_sim_plan){ .repeats = 5, .cell_s = 6.3 })

struct r0_sim_result {
	bool has_choice;
	enum r0_answer answer;      /* under the mix */
	enum r0_layer layer;        /* the pick */
	uint32_t chunk_bytes;
	double seconds;             /* simulated wall time of the cells */
	size_t cells;               /* records measured */
	bool budget_hit;            /* stopped by the budget with cells still wanted */
	unsigned undecided;         /* comparisons still open at the end (adaptive) */
	char chunks[1024];          /* the analysis' chunk sentence */
	/* the recommended set (tie_best choices), at most 16 */
	struct { enum r0_layer layer; uint32_t chunk_bytes; } set[16];
	size_t n_set;
	/* how much the pick truly loses against the truly best choice under the
	 * mix (0: the pick is the best; 0.03: 3 % behind it) */
	double pick_true_loss;
};

/*
 * A measured cell's record as r0sweep writes it: workload W (LABEL) on
 * LAYER at CHUNK over N members, repeat REPEAT, at BYTES_PER_S over one
 * second, 10 % CPU busy (never CPU-bound), on empty drives.
 */
void r0_sim_rec(struct r0_sweep_rec *r, enum r0_layer layer, uint32_t chunk, unsigned n, const char *label,
		const struct r0_workload *w, unsigned repeat, double bytes_per_s);

/*
 * One study, SEED for the noise, under MIX. 0, -ENOMEM, or an analysis
 * error.
 */
int r0_sim_study(uint64_t seed, const struct r0_sim_drive *d, const struct r0_sim_plan *sp,
		 const struct r0_mix *mix, struct r0_sim_result *out);

#endif
