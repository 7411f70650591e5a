// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of r0/compare.h (ratio of medians, bootstrap interval,
 * threshold, few repeats) and a seeded simulation of whole studies through
 * r0_analyse: known truth plus Gaussian noise between repeats, the rates
 * of false differences, of finding a truly better chunk and of the
 * recommended set holding the true best.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "r0/compare.h"
#include "r0/prng.h"
#include "r0/sweep.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u

Test(compare, point_interval_and_threshold)
{
	const double base[] = { 100, 101, 99, 100.5, 99.5 };
	const double far[] = { 130, 131, 129, 130.5, 129.5 };      /* 30 % ahead, 1 % noise */
	const double near[] = { 103, 104, 102, 103.5, 102.5 };     /* 3 % ahead, 1 % noise */
	struct r0_cmp c, d;

	cr_assert_eq(r0_compare_one(far, 5, base, 5, NULL, &c), 0);
	cr_expect(fabs(c.ratio - 1.3) < 1e-12, "%f", c.ratio);
	cr_expect(c.lo > 1.25 && c.lo <= c.ratio && c.hi >= c.ratio && c.hi < 1.35, "%f-%f", c.lo, c.hi);
	cr_expect(c.sign == 1 && c.beyond_noise && !c.indicative && c.min_n == 5);
	/* the other way round: the same finding, mirrored */
	cr_assert_eq(r0_compare_one(base, 5, far, 5, NULL, &d), 0);
	cr_expect(d.sign == -1 && d.beyond_noise);
	cr_expect(fabs(d.ratio - 1 / 1.3) < 1e-12);
	/* 3 % is beyond the noise but not beyond the 5 % threshold: no difference */
	cr_assert_eq(r0_compare_one(near, 5, base, 5, NULL, &c), 0);
	cr_expect(c.lo > 1, "the interval excludes 1: %f", c.lo);
	cr_expect_eq(c.sign, 0, "3 %% is below the practical threshold");
	{
		struct r0_cmp_opts o;

		r0_cmp_defaults(&o);
		o.threshold = 0.02;
		cr_assert_eq(r0_compare_one(near, 5, base, 5, &o, &c), 0);
		cr_expect_eq(c.sign, 1, "with a 2 %% threshold it counts");
	}
}

Test(compare, noise_hides_a_difference)
{
	/* 20 % ahead in the medians, but each side spreads over +-25 % */
	const double a[] = { 120, 95, 150, 125, 100 };
	const double b[] = { 100, 130, 75, 105, 90 };
	struct r0_cmp c;

	cr_assert_eq(r0_compare_one(a, 5, b, 5, NULL, &c), 0);
	cr_expect(fabs(c.ratio - 120.0 / 100) < 1e-12);
	cr_expect(c.lo < 1 && c.hi > 1.2, "%f-%f", c.lo, c.hi);
	cr_expect(c.sign == 0 && !c.beyond_noise);
}

Test(compare, fewer_than_three_repeats_is_indicative)
{
	const double a[] = { 150, 151 }, b[] = { 100, 100, 100 };
	struct r0_cmp c;

	cr_assert_eq(r0_compare_one(a, 2, b, 3, NULL, &c), 0);
	cr_expect(c.indicative && c.min_n == 2);
	cr_expect_eq(c.sign, 1, "the point says 50 %% ahead");
	cr_expect(!c.beyond_noise, "but nothing is beyond noise with 2 repeats");
	cr_expect(c.lo == c.ratio && c.hi == c.ratio, "no interval without noise");
	cr_assert_eq(r0_compare_one(a, 1, b, 1, NULL, &c), 0);
	cr_expect(c.indicative && c.min_n == 1 && !c.beyond_noise);
}

Test(compare, weighted_terms_seeded_and_errors)
{
	const double a1[] = { 200, 202, 198 }, b1[] = { 100, 101, 99 };
	const double a2[] = { 100, 101, 99 }, b2[] = { 100, 99, 101 };
	struct r0_cmp_term t[] = { { a1, 3, b1, 3, 3 }, { a2, 3, b2, 3, 1 }, { a2, 0, b2, 3, 5 } };
	struct r0_cmp c, d;
	struct r0_cmp_opts o;
	const double zero[] = { 0, 0, 0 };

	cr_assert_eq(r0_compare(t, N(t), NULL, &c), 0);
	cr_expect(fabs(c.ratio - (3 * 200.0 + 100) / (3 * 100.0 + 100)) < 1e-12, "ratio of the weighted sums: %f",
		  c.ratio);
	cr_assert_eq(r0_compare(t, N(t), NULL, &d), 0);
	cr_expect(c.lo == d.lo && c.hi == d.hi, "the same seed, the same interval");
	r0_cmp_defaults(&o);
	o.seed = 12345;
	cr_assert_eq(r0_compare(t, N(t), &o, &d), 0);
	cr_expect(fabs(c.lo - d.lo) < 0.02, "another seed moves the bounds only a little");
	cr_expect_eq(r0_compare_one(a1, 3, zero, 3, NULL, &c), -EDOM);
	cr_expect_eq(r0_compare(t + 2, 1, NULL, &c), -EINVAL, "no usable term");
	o.confidence = 1;
	cr_expect_eq(r0_compare(t, 2, &o, &c), -EINVAL);
}

Test(compare, threshold_option)
{
	static const struct { const char *s; int err; double v; } cases[] = {
		{ "5", 0, 0.05 }, { "5%", 0, 0.05 }, { "2.5 %", 0, 0.025 }, { "0", -EINVAL, 0 },
		{ "100", -EINVAL, 0 }, { "-3", -EINVAL, 0 }, { "5x", -EINVAL, 0 }, { "", -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		double v = -1;

		cr_expect_eq(r0_cmp_parse_threshold(cases[i].s, &v), cases[i].err, "'%s'", cases[i].s);
		if (!cases[i].err)
			cr_expect(fabs(v - cases[i].v) < 1e-12, "'%s': %f", cases[i].s, v);
	}
}

/* Against the best of k: the confidence rises Bonferroni-style with k, the rest stays. */
Test(compare, best_of_k_raises_the_confidence)
{
	struct r0_cmp_opts o, b;

	r0_cmp_defaults(&o);
	b = r0_cmp_opts_best_of(&o, 2);
	cr_expect_eq(b.confidence, o.confidence, "one comparison: as asked");
	b = r0_cmp_opts_best_of(&o, 6);
	cr_expect(fabs(b.confidence - (1 - 0.05 / 5)) < 1e-12, "%f", b.confidence);
	cr_expect(b.threshold == o.threshold && b.resamples == o.resamples && b.seed == o.seed);
}

/* ---- the simulation ---- */

/* Demo-like workloads: label, access, block, depth, read share, true speed-up of 3 drives. */
static const struct simwl {
	const char *label;
	enum r0_access access;
	uint32_t bs;
	unsigned qd, read_pct;
	double base_mbps, speedup;
} simwl[] = {
	{ "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, 250, 2.8 },
	{ "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 0, 230, 2.7 },
	{ "512K", R0_ACCESS_RAND, 512 * K, 1, 100, 250, 2.0 },
	{ "512K", R0_ACCESS_RAND, 512 * K, 1, 0, 230, 1.9 },
	{ "4K", R0_ACCESS_RAND, 4 * K, 1, 100, 30, 0.97 },
	{ "4K", R0_ACCESS_RAND, 4 * K, 1, 0, 60, 0.98 },
	{ "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 100, 200, 2.6 },
	{ "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 0, 180, 2.5 },
	{ "512K straddle", R0_ACCESS_RAND, 512 * K, 1, 100, 250, 1.8 },
};
static const uint32_t simchunk[] = { 4 * K, 64 * K, 512 * K };

static double gauss(struct r0_prng *r)
{
	double u = (double)((r0_prng_next(r) >> 11) + 1) * 0x1p-53;
	double v = (double)(r0_prng_next(r) >> 11) * 0x1p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void sim_rec(struct r0_sweep_rec *r, const struct simwl *w, enum r0_layer l, uint32_t chunk,
		    unsigned rep, double bps)
{
	memset(r, 0, sizeof(*r));
	r->layer = l;
	r->chunk_bytes = chunk;
	r->n_members = l == R0_LAYER_RAW ? 1 : 3;
	snprintf(r->label, sizeof(r->label), "%s", w->label);
	r->access = w->access;
	r->read_pct = w->read_pct;
	r->block_bytes = w->bs;
	r->queue_depth = w->qd;
	r->jobs = 1;
	r->repeat = rep;
	r->runtime_s = 1;
	r->bytes_per_s = bps;
	r->iops = bps / w->bs;
	r->ios = (uint64_t)(r->iops * r->runtime_s) + 1;   /* a measurement: requests completed */
	r->cpu_s_per_io = 0.1 / r->iops;   /* 10 % busy: never CPU-bound */
	snprintf(r->state, sizeof(r->state), "empty");
}

/*
 * One study: raw + md 3 x each chunk, REPEATS each, every repeat drawn as
 * truth x (1 + SIGMA x N(0,1)); chunk BEST (index, or -1) is ADV times the
 * others on every workload.
 */
static void sim_study(struct r0_prng *rng, unsigned repeats, double sigma, int best, double adv,
		      struct r0_sweep_set *set)
{
	set->n = 0;
	for (size_t w = 0; w < N(simwl); w++)
		for (int t = -1; t < (int)N(simchunk); t++)
			for (unsigned k = 1; k <= repeats; k++) {
				double truth = simwl[w].base_mbps * 1e6;
				struct r0_sweep_rec r;

				if (t >= 0)
					truth *= simwl[w].speedup * (t == best ? adv : 1);
				sim_rec(&r, &simwl[w], t < 0 ? R0_LAYER_RAW : R0_LAYER_MD, t < 0 ? 0 : simchunk[t], k,
					truth * (1 + sigma * gauss(rng)));
				cr_assert_eq(r0_sweep_set_add(set, &r), 0);
			}
}

struct rates {
	unsigned studies, pair_claims, pairs, wl_sets_short, wl_sets, pick_claims, exact, has_best;
	char sample[1024];          /* the chunk words of the first study, or of the first that missed */
	bool sample_missed;
};

static void run_sim(unsigned studies, unsigned repeats, double sigma, int best, double adv, uint64_t seed,
		    struct rates *out)
{
	struct r0_sweep_set set = { 0 };
	struct r0_prng rng;
	struct r0_mix mix;

	memset(out, 0, sizeof(*out));
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	r0_prng_seed(&rng, seed);
	for (unsigned s = 0; s < studies; s++) {
		struct r0_analysis a;
		size_t n_set = 0;
		bool best_in = false;

		sim_study(&rng, repeats, sigma, best, adv, &set);
		cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
		/* per workload: 64K against 512K head to head, and the best-chunk sets */
		for (size_t w = 0; w < a.n_wl; w++) {
			const struct r0_cell *x = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, w);
			const struct r0_cell *y = r0_analysis_cell(&a, R0_LAYER_MD, 512 * K, 3, w);
			struct r0_cmp c;
			size_t in = 0;

			cr_assert(x && y);
			cr_assert_eq(r0_compare_one(x->bps_v, x->bps.n, y->bps_v, y->bps.n, &a.cmp, &c), 0);
			out->pair_claims += c.sign != 0;
			out->pairs++;
			for (size_t k = 0; k < N(simchunk); k++)
				in += r0_analysis_cell(&a, R0_LAYER_MD, simchunk[k], 3, w)->tie_best;
			out->wl_sets_short += in < N(simchunk);
			out->wl_sets++;
		}
		for (size_t k = 0; k < a.n_choice; k++) {
			n_set += a.choice[k].tie_best;
			best_in |= best >= 0 && a.choice[k].tie_best && a.choice[k].chunk_bytes == simchunk[best];
		}
		out->pick_claims += n_set < N(simchunk);
		out->exact += best >= 0 && n_set == 1 && best_in;
		out->has_best += best_in;
		if (!s || (best >= 0 && n_set != 1 && !out->sample_missed)) {
			snprintf(out->sample, sizeof(out->sample), "%s", a.chunks);
			out->sample_missed = s > 0;
		}
		r0_analysis_free(&a);
	}
	out->studies = studies;
	r0_sweep_set_free(&set);
}

#define STUDIES 300
#define RATE(x, n) (100.0 * (double)(x) / (double)(n))

Test(simulation, identical_chunks_rarely_differ, .timeout = 600)
{
	static const double sigmas[] = { 0.02, 0.05, 0.10 };

	for (size_t i = 0; i < N(sigmas); i++) {
		struct rates r;

		run_sim(STUDIES, R0_SWEEP_DEFAULT_REPEATS, sigmas[i], -1, 1, 100 + i, &r);
		printf("simulation: identical chunks, %.0f %% noise, %u repeats, %u studies: a pair called different "
		       "%.1f %%, a per-workload best set missing a chunk %.1f %%, the overall pick claiming a "
		       "difference %.1f %%\n",
		       sigmas[i] * 100, R0_SWEEP_DEFAULT_REPEATS, r.studies, RATE(r.pair_claims, r.pairs),
		       RATE(r.wl_sets_short, r.wl_sets), RATE(r.pick_claims, r.studies));
		cr_expect_leq(RATE(r.pair_claims, r.pairs), 5.0, "%.0f %% noise: pairs", sigmas[i] * 100);
		cr_expect_leq(RATE(r.wl_sets_short, r.wl_sets), 5.0, "%.0f %% noise: per-workload best sets",
			      sigmas[i] * 100);
		cr_expect_leq(RATE(r.pick_claims, r.studies), 5.0, "%.0f %% noise: overall pick", sigmas[i] * 100);
	}
}

/*
 * Why the default is not 3: at 10 % noise 3 repeats call equal pairs
 * different more often than 5 % (the bootstrap of 3 values is about their
 * range). Should the method get safe at 3, this fails and the default can
 * come down.
 */
Test(simulation, three_repeats_are_not_enough, .timeout = 600)
{
	struct rates r;

	run_sim(STUDIES / 2, 3, 0.10, -1, 1, 300, &r);
	printf("simulation: identical chunks, 10 %% noise, 3 repeats, %u studies: a pair called different %.1f %%, "
	       "a per-workload best set missing a chunk %.1f %%\n",
	       r.studies, RATE(r.pair_claims, r.pairs), RATE(r.wl_sets_short, r.wl_sets));
	cr_expect_gt(RATE(r.pair_claims, r.pairs), 5.0, "3 repeats at 10 %% noise");
	run_sim(STUDIES / 2, 3, 0.05, 1, 1.15, 301, &r);
	printf("simulation: 64K truly 15 %% faster, 5 %% noise, 3 repeats, %u studies: found alone %.1f %%\n",
	       r.studies, RATE(r.exact, r.studies));
}

Test(simulation, a_better_chunk_is_found, .timeout = 600)
{
	struct rates r;

	run_sim(STUDIES, R0_SWEEP_DEFAULT_REPEATS, 0.05, 1, 1.15, 200, &r);
	printf("simulation: 64K truly 15 %% faster, 5 %% noise, %u repeats, %u studies: found alone %.1f %%, "
	       "in the recommended set %.1f %%; e.g. \"%s\"\n",
	       R0_SWEEP_DEFAULT_REPEATS, r.studies, RATE(r.exact, r.studies), RATE(r.has_best, r.studies), r.sample);
	cr_expect_geq(RATE(r.exact, r.studies), 95.0);
	cr_expect_geq(RATE(r.has_best, r.studies), 95.0);
	run_sim(STUDIES, R0_SWEEP_DEFAULT_REPEATS, 0.10, 1, 1.15, 201, &r);
	printf("simulation: 64K truly 15 %% faster, 10 %% noise, %u repeats, %u studies: found alone %.1f %%, "
	       "in the recommended set %.1f %%; %s \"%s\"\n",
	       R0_SWEEP_DEFAULT_REPEATS, r.studies, RATE(r.exact, r.studies), RATE(r.has_best, r.studies),
	       r.sample_missed ? "where it could not tell:" : "e.g.", r.sample);
	cr_expect_geq(RATE(r.has_best, r.studies), 95.0, "at 10 %% noise the set still holds the best");
	/* a small true edge (3 %, below the threshold): the set must keep the best */
	run_sim(STUDIES, R0_SWEEP_DEFAULT_REPEATS, 0.05, 2, 1.03, 202, &r);
	printf("simulation: 512K truly 3 %% faster, 5 %% noise: in the recommended set %.1f %%\n",
	       RATE(r.has_best, r.studies));
	cr_expect_geq(RATE(r.has_best, r.studies), 95.0);
}

/*
 * A choice without a figure for a workload the others have (a prediction
 * that left the cells out, or cells that failed) scores on other workloads
 * than theirs: 512K, 1.3x the others wherever it has a figure but without
 * Seq and 512K (where it would be slowest), is ranked last, named, and not
 * picked, though the rule (nearest 512K) would pick it from a tie.
 */
Test(analysis, a_choice_missing_a_workload_is_not_picked)
{
	struct r0_sweep_set set = { 0 };
	struct r0_prng rng;
	struct r0_mix mix;
	struct r0_analysis a;

	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	r0_prng_seed(&rng, 17);
	for (int drop = 0; drop < 2; drop++) {
		size_t keep = 0;

		sim_study(&rng, 5, 0.01, 2, 1.3, &set);
		for (size_t i = 0; i < set.n; i++) {
			const struct r0_sweep_rec *r = &set.recs[i];

			if (drop && r->chunk_bytes == 512 * K && r->block_bytes >= 512 * K &&
			    strcmp(r->label, "512K straddle"))
				continue;
			set.recs[keep++] = *r;
		}
		set.n = keep;
		cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
		cr_assert(a.has_choice);
		cr_expect_eq(a.choice[a.pick].chunk_bytes, drop ? 64 * K : 512 * K, "drop %d: picked %u: %s",
			     drop, a.choice[a.pick].chunk_bytes, a.chunks);
		cr_expect_eq(a.choice[a.n_choice - 1].incomplete, drop);
		if (drop) {
			cr_expect_eq(a.choice[a.n_choice - 1].chunk_bytes, 512 * K);
			cr_expect(strstr(a.chunks, "md 512K no figure for Seq read: not ranked"), "%s", a.chunks);
		}
		r0_analysis_free(&a);
	}
	r0_sweep_set_free(&set);
}
