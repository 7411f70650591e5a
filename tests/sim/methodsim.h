/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The comparison method's simulation: whole studies of raw and md 3 x 4K,
 * 64K and 512K under demo-like workloads, every repeat drawn as truth x
 * (1 + sigma N(0,1)), analysed by lib/study; the rates of false
 * differences, of a truly better chunk found alone and of the recommended
 * set holding the true best. tests/unit/test_ranking.c asserts them; the
 * simulator program prints docs/validation.md's method table
 * (r0studysim --method).
 */
#ifndef R0_METHODSIM_H
#define R0_METHODSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "r0/compare.h"
#include "r0/prng.h"
#include "r0/sweep.h"

/* The chunks a method study measures (md, 3 members): 4K, 64K, 512K. */
#define R0_METHOD_CHUNKS 3
extern const uint32_t r0_method_chunk[R0_METHOD_CHUNKS];

/*
 * One study into SET (emptied first): raw and md 3 x each chunk, REPEATS
 * each; chunk BEST (index, or -1) is ADV times the others on every
 * workload. 0 or -ENOMEM.
 */
int r0_method_study(struct r0_prng *rng, unsigned repeats, double sigma, int best, double adv,
		    struct r0_run_set *set);

struct r0_method_rates {
	unsigned studies, pair_claims, pairs, wl_sets_short, wl_sets, pick_claims, exact, has_best;
	char sample[1024];          /* the chunk words of the first study, or of the first that missed */
	bool sample_missed;
};

/* STUDIES studies from SEED under the desktop mix, compared by CMP (NULL: the defaults). 0 or -errno. */
int r0_method_rates(unsigned studies, unsigned repeats, double sigma, int best, double adv, uint64_t seed,
		    const struct r0_cmp_opts *cmp, struct r0_method_rates *out);

/*
 * The method table's rows: 3 repeat counts x 3 noises (2, 5, 10 %), for
 * the Welch t (the method) or, OLD, the bootstrap of medians it replaced.
 * Row ROW's chunks all equal (EQ) and one 15 % better (BETTER).
 */
#define R0_METHOD_ROWS 9
struct r0_method_row {
	unsigned repeats;
	double sigma;
	struct r0_method_rates eq, better;
};
int r0_method_row(bool old, unsigned row, unsigned studies, struct r0_method_row *out);
/* "simulation: | Welch t (new) | 3 | 2 % | 0.0 % | 0.0 % | 4/4 |" */
void r0_method_row_line(bool old, const struct r0_method_row *r, char *buf, size_t len);

#endif
