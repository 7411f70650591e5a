/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0sweep's plan: which workloads it runs on which targets, built from its options. */
#ifndef R0_SWEEPPLAN_H
#define R0_SWEEPPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/engine.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/runs.h"

#define R0_SWEEP_MAX_WL 64
#define R0_SWEEP_MAX_TARGETS 256

struct r0_sweep_wl {
	char label[32];             /* the preset's label, or "4K QD8" for an added depth */
	struct r0_workload w;
};

/* One array (or the raw first member) the study measures. */
struct r0_sweep_target {
	enum r0_layer layer;
	uint32_t chunk_bytes;       /* 0 for raw */
	unsigned n;                 /* members */
	unsigned copy;              /* a calibration's copy, 1-based (r0/calibrate.h): the same array,
	                             * built afresh, measured as a target of its own; 0: not a copy */
};

struct r0_sweep_plan {
	struct r0_sweep_wl wl[R0_SWEEP_MAX_WL];
	size_t n_wl;
	struct r0_sweep_target targets[R0_SWEEP_MAX_TARGETS];
	size_t n_targets;
};

/*
 * Appends the tests of PRESETS (N_PRESETS of them) in order, each once:
 * small random ones (64K or less) at every depth of QDS instead of their
 * own, labelled in their preset's style ("4K QD8" for cdm3, "RND4K Q8T1"
 * otherwise, the preset's own label where it has that test). STRADDLE
 * adds "512K straddle" (512K random reads at 4K alignment, QD1: requests
 * that cross chunks) unless every workload is an everyday scenario
 * (R0_ACCESS_FS); READ_ONLY drops every test that writes. A workload
 * equal to one already in the plan is skipped; past R0_SWEEP_MAX_WL
 * workloads, -E2BIG (the plan keeps the first ones); else 0.
 */
int r0_sweep_plan_workloads(struct r0_sweep_plan *p, const struct r0_preset *const *presets,
			    size_t n_presets, const unsigned *qds, size_t n_qds, bool straddle,
			    bool read_only);

/* Appends workload W labelled LABEL (a replay's); one equal to it is skipped. 0 or -E2BIG. */
int r0_sweep_plan_add(struct r0_sweep_plan *p, const char *label, const struct r0_workload *w);

/* The index of the workload named NAME (r0_run_workload's name), or -ENOENT. */
int r0_sweep_plan_find(const struct r0_sweep_plan *p, const char *name);

/* Keeps only the workloads whose KEEP[i] is set, in their order. */
void r0_sweep_plan_keep(struct r0_sweep_plan *p, const bool *keep);

/*
 * The targets: the raw first member when COUNT[1], then for md and dm
 * (where BACKEND[b]) every member count n in 1..N_MEMBERS with COUNT[n]
 * at every chunk (SINGLE chunks for n = 1). 0, or -E2BIG past
 * R0_SWEEP_MAX_TARGETS (the plan keeps the first ones).
 */
int r0_sweep_plan_targets(struct r0_sweep_plan *p, const bool backend[2], unsigned n_members,
			  const bool *count, const uint32_t *chunks, size_t n_chunks,
			  const uint32_t *single, size_t n_single);

/*
 * A calibration's targets (r0/calibrate.h): the raw first member, then
 * COPIES copies (1..COPIES) of one md array of N_MEMBERS at CHUNK_BYTES.
 * 0, or -EINVAL (fewer than 2 members, copies out of 2..8 or a target
 * list already there).
 */
int r0_sweep_plan_copies(struct r0_sweep_plan *p, unsigned n_members, uint32_t chunk_bytes, unsigned copies);

#endif
