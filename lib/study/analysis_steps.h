/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private: the steps r0_analyse (lib/study/analysis.c) takes after grouping the
 * records, in this order: the ranking (lib/study/ranking.c), then the words
 * (lib/study/verdict.c). Each ranking step returns 0 or -errno.
 */
#ifndef R0_LIB_ANALYSIS_STEPS_H
#define R0_LIB_ANALYSIS_STEPS_H

#include <stddef.h>

#include "r0/analysis.h"

/*
 * The whole ranking, in two passes: once at the asked confidence to
 * collect the p-value of every claim the words can make, then again with
 * each family of claims (differences, bars) at its Benjamini-Hochberg
 * level (r0_analysis.diff_level, bar_level). 0 or -errno.
 */
int r0_rank_all(struct r0_analysis *a);
/* The machine's noise beyond any validated (r0_analyse_machine): every claim withheld, the figures kept. */
void r0_rank_withhold(struct r0_analysis *a);
/* Whether choice C was measured at every member count from 2 (how many drives can be answered there). */
bool r0_rank_counts_measured(const struct r0_analysis *a, const struct r0_choice *c);
/* The preference among close choices: nearest 512K in powers of two, the larger on a tie, md before dm. */
bool r0_rank_picks_before(const struct r0_choice *x, const struct r0_choice *y);
/* Cell X against cell Y of one workload, each with its noise (var_log): r0_compare by O. */
int r0_rank_cmp_cells(const struct r0_cell *x, const struct r0_cell *y, const struct r0_cmp_opts *o,
		      struct r0_cmp *out);
/* Every cell against its workload's baseline: vs_base, speedup, efficiency, answer; min_repeats. */
int r0_rank_speedups(struct r0_analysis *a);
/* The best cell (highest median) of workload WL on LAYER at N members, or NULL. */
const struct r0_cell *r0_rank_best_cell(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
					size_t wl);
/* How many chunks have a measured cell of workload WL on LAYER at N members: a best-of's k. */
size_t r0_rank_n_chunks(const struct r0_analysis *a, enum r0_layer layer, unsigned n, size_t wl);
/* Every cell's tie_best: cannot be told from the best chunk of its layer, count and workload. */
int r0_rank_ties(struct r0_analysis *a);
/* The choices at max_members scored under the mix, best first; tie_best, the loss, the pick and the answer. */
int r0_rank_choices(struct r0_analysis *a);
/* With a pick: each workload's vs_fewer and shared_limit, and a->shared_limit. */
int r0_rank_shared(struct r0_analysis *a);
/* With a pick: build_members, build_vs_base, more_vs_build. */
int r0_rank_build(struct r0_analysis *a);

/*
 * Compares choice X at NX members with choice Y at NY (Y NULL: the
 * baseline) under the mix: one term a workload, weighted, both sides'
 * repeats, by O. 0, -ENODATA (no workload both sides have), or the errors
 * of r0_compare.
 */
int r0_rank_compare(const struct r0_analysis *a, const struct r0_choice *x, unsigned nx,
		    const struct r0_choice *y, unsigned ny, const struct r0_cmp_opts *o, struct r0_cmp *out);

/* Appends "md 2 x 64K 4K read repeat 2 (3 errors)" (R, workload WL) to the list in BUF. */
void r0_verdict_note_excluded(char *buf, size_t len, const struct r0_run *r, const char *wl);

/*
 * After the ranking: the choices' losses, method, chunks, shared, build,
 * verdict, detail and reasoning, MIX named in them, EXCLUDED the list
 * of repeats left out ("" if none).
 */
void r0_verdict_words(struct r0_analysis *a, const struct r0_mix *mix, const char *excluded);

#endif
