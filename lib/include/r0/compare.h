/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparisons with honest uncertainty: the ratio of two sides (or of
 * weighted sums, one term a workload) with an interval over both sides'
 * repeats. A difference counts only when the interval excludes 1 at the
 * stated confidence AND the ratio is beyond a practical threshold; below
 * R0_CMP_MIN_REPEATS repeats the noise is unknown, so the result is
 * indicative: the point ratio against the threshold, no interval claim.
 *
 * The method, chosen by the seeded simulation in tests/unit/test_ranking.c
 * (docs/validation.md has its table): Welch's t-interval on the log of the
 * ratio of means, its standard error by the delta method. It holds its
 * false-difference rate from 3 repeats on, where the percentile bootstrap
 * of medians it replaced did not (the median of a resample of 3 values is
 * one of them: its interval is about their range, too narrow). The
 * bootstrap stays selectable for that comparison.
 *
 * A study that repeats cells until their comparisons are decided looks at
 * the data several times. Alone, a comparison spends a share of the error
 * rate at each look (Bonferroni over LOOKS); in a study with pooled noise
 * the looks count in the p-values its family's level is set from, and the
 * claims are made at that level (r0_rank_all in lib/study/ranking.c).
 * What that gives is measured by simulating whole studies
 * (docs/validation.md).
 * Pure and deterministic: the same data and options give the same result.
 */
#ifndef R0_COMPARE_H
#define R0_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define R0_CMP_CONFIDENCE 0.95
#define R0_CMP_THRESHOLD 0.05      /* a practical difference: 5 % */
#define R0_CMP_RESAMPLES 2000
#define R0_CMP_MIN_REPEATS 3
#define R0_CMP_SEED 0x7230636f6d70ULL   /* "r0comp": fixed, so reports are reproducible */

enum r0_cmp_method {
	R0_CMP_WELCH_T,             /* ratio of means, Welch t-interval on its log (the default) */
	R0_CMP_BOOTSTRAP,           /* ratio of medians, percentile bootstrap (the old method) */
};

struct r0_cmp_opts {
	double confidence;          /* two-sided, in (0, 1) */
	double threshold;           /* a ratio within [1/(1+t), 1+t] is no practical difference */
	unsigned resamples;         /* bootstrap resamples, >= 100 */
	uint64_t seed;
	enum r0_cmp_method method;
	unsigned looks;             /* times the data was looked at to decide whether to stop
	                             * (adaptive repeats); each look gets (1 - confidence) / looks.
	                             * 0 counts as 1 */
	double worth;               /* the analysis's worth-it bar against one drive (r0/analysis.h);
	                             * 0: R0_WORTH_SPEEDUP */
	double drive_gain;          /* the n-th drive's bar against n - 1; 0: R0_DRIVE_GAIN */
	/*
	 * How the terms add up. false: as rates, sum(w x mean) on each side.
	 * true: as time (Amdahl's law), each term's w the time its work takes
	 * at a reference rate of 1, so a side takes sum(w / mean) and the ratio
	 * is B's time over A's: the speed-up of A that the user's time sees.
	 */
	bool by_time;
	/*
	 * The correlation of the runs of one visit (terms' pass_a, pass_b): two
	 * terms' runs of one side measured in the same pass move together by
	 * it, so they are not counted as independent. 0: independent.
	 */
	double visit_rho;
};

/* The defaults above. */
void r0_cmp_defaults(struct r0_cmp_opts *o);

/*
 * One workload's two sides: A's repeats against B's, WEIGHT > 0. Weigh a
 * workload's share by w / (its baseline's median) and the ratio of sums
 * is the ratio of mix-weighted speed-ups.
 */
struct r0_cmp_term {
	const double *a;
	size_t na;
	const double *b;
	size_t nb;
	double weight;
	/*
	 * The noise of one run of each side, known from more than its own
	 * repeats (the study's pooled noise, r0/noise.h): the variance of
	 * log(run) and its degrees of freedom. 0: from the side's own repeats.
	 */
	double var_a, df_a, var_b, df_b;
	/* the pass (visit) of each of A's and B's runs; NULL or 0: not known (independent) */
	const unsigned *pass_a, *pass_b;
};

struct r0_cmp {
	double ratio;               /* sum(w * mean(a)) / sum(w * mean(b)) (medians for the bootstrap) */
	double lo, hi;              /* its interval at the confidence (== ratio when indicative) */
	unsigned min_n;             /* the fewest repeats on any side of any term */
	bool indicative;            /* min_n < R0_CMP_MIN_REPEATS: noise unknown */
	int sign;                   /* +1: A higher, -1: A lower, 0: cannot be told apart */
	bool beyond_noise;          /* sign != 0 and the interval excludes 1 (never when indicative) */
	/*
	 * Settled either way: a practical difference shown (sign != 0), or the
	 * whole interval inside [1/(1+t), 1+t] (no practical difference, shown).
	 * Otherwise more repeats could still change the answer. Never when
	 * indicative.
	 */
	bool decided;
	double se;                  /* the standard error of log(ratio); 0: none (indicative, or no noise) */
	double df;                  /* its degrees of freedom (Welch-Satterthwaite) */
	double p;                   /* two-sided p-value of "no difference" (ratio 1), times the looks; 1 without se */
};

/*
 * The two-sided p-value of C's ratio against BAR (1: no difference; 1.2:
 * the worth-it bar), times the looks as C's p; 1 when C has no standard error.
 */
double r0_cmp_p_against(const struct r0_cmp *c, double bar, unsigned looks);

/*
 * The one-sided p-value of the claim C's ratio makes against BAR: above
 * it when the ratio is above, below it when below ("worth it", "not worth
 * it": each claim is wrong on one side only), times the looks; 1 when C
 * has no standard error. Half r0_cmp_p_against's.
 */
double r0_cmp_p_beyond(const struct r0_cmp *c, double bar, unsigned looks);

/*
 * Benjamini-Hochberg over the family P[0..n) at rate Q: the largest
 * level alpha = Q x k / n such that k of the p-values are at most it, so
 * a claim is made where p <= alpha; Q / n when no p-value qualifies (what
 * the most significant would have needed). 1 for n == 0.
 */
double r0_cmp_bh_level(const double *p, size_t n, double q);

/*
 * Compares A with B over the N terms (terms with an empty side or weight
 * <= 0 are skipped). 0; -EINVAL (no usable term, a bad option), -EDOM (B's
 * weighted sum of medians is not above 0), -ENOMEM.
 */
int r0_compare(const struct r0_cmp_term *t, size_t n, const struct r0_cmp_opts *o, struct r0_cmp *out);

/* One workload: r0_compare with a single term of weight 1. */
int r0_compare_one(const double *a, size_t na, const double *b, size_t nb, const struct r0_cmp_opts *o,
		   struct r0_cmp *out);

/*
 * "5", "5%" or "2.5 %": a threshold in percent, above 0 and below 100, into *OUT as a share (0.05).
 * The number is r0_parse_double's (no sign, leading blank, hex or exponent). 0 or -EINVAL.
 */
int r0_cmp_parse_threshold(const char *s, double *out);

/*
 * "1.2", "1.2x" or "20%": the gain a drive must add, above 1 and at most 10, into *OUT (1.2).
 * The number is r0_parse_double's, as for the threshold. 0 or -EINVAL.
 */
int r0_cmp_parse_gain(const char *s, double *out);

/*
 * O for comparing each of K candidates with the best of them: the best is
 * picked for being highest, so each comparison is made at the confidence
 * raised Bonferroni-style over all K(K-1)/2 pairs (1 - alpha / pairs) to
 * keep the chance of leaving an equal candidate out of the best set
 * within alpha. O itself for K <= 2.
 */
struct r0_cmp_opts r0_cmp_opts_best_of(const struct r0_cmp_opts *o, size_t k);

#endif
