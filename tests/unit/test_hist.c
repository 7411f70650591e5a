// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/hist.h: bucket error bounds, percentiles, merging. */
#include <math.h>
#include <stdlib.h>
#include <criterion/criterion.h>

#include "r0/hist.h"
#include "r0/prng.h"

static struct r0_hist *new_hist(void)
{
	struct r0_hist *h = malloc(sizeof(*h));

	cr_assert(h);
	r0_hist_reset(h);
	return h;
}

Test(hist, every_bucket_is_within_one_percent)
{
	uint64_t lo, hi, prev_hi = 0;

	for (unsigned i = 0; i < R0_HIST_BUCKETS; i++) {
		r0_hist_bucket_range(i, &lo, &hi);
		if (i)
			cr_assert_eq(lo, prev_hi + 1, "bucket %u starts at %llu, not after %llu", i,
				     (unsigned long long)lo, (unsigned long long)prev_hi);
		cr_assert_leq(hi - lo, lo / 100, "bucket %u [%llu, %llu] wider than 1 %%", i,
			      (unsigned long long)lo, (unsigned long long)hi);
		prev_hi = hi;
	}
	cr_assert_eq(prev_hi, UINT64_MAX, "the buckets cover 64 bits");
}

Test(hist, index_and_range_agree)
{
	struct r0_prng r;
	uint64_t lo, hi;

	r0_prng_seed(&r, 7);
	for (int k = 0; k < 200000; k++) {
		uint64_t v = r0_prng_next(&r) >> r0_prng_below(&r, 64);
		unsigned i = r0_hist_index(v);

		r0_hist_bucket_range(i, &lo, &hi);
		cr_assert(lo <= v && v <= hi, "%llu in bucket %u [%llu, %llu]", (unsigned long long)v,
			  i, (unsigned long long)lo, (unsigned long long)hi);
	}
	cr_assert_eq(r0_hist_index(UINT64_MAX), R0_HIST_BUCKETS - 1);
}

/* Percentiles of a known distribution: 1..N ns, each once. */
Test(hist, percentiles_within_half_a_percent)
{
	struct r0_hist *h = new_hist();
	const uint64_t n = 1000000;
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };

	for (uint64_t v = 1; v <= n; v++)
		r0_hist_add(h, v);
	cr_assert_eq(h->count, n);
	cr_assert_eq(h->min, 1);
	cr_assert_eq(h->max, n);
	cr_assert_float_eq(r0_hist_mean(h), (n + 1) / 2.0, 1e-6);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double exact = ceil(ps[i] / 100.0 * n), got = (double)r0_hist_percentile(h, ps[i]);

		cr_expect(fabs(got - exact) <= exact * 0.005, "p%g: %g, exact %g", ps[i], got, exact);
	}
	cr_expect_eq(r0_hist_percentile(h, 100), n);
	free(h);
}

Test(hist, small_values_are_exact)
{
	struct r0_hist *h = new_hist();

	for (int k = 0; k < 10; k++)
		r0_hist_add(h, 100);
	r0_hist_add(h, 200);
	cr_expect_eq(r0_hist_percentile(h, 50), 100);
	cr_expect_eq(r0_hist_percentile(h, 90), 100);
	cr_expect_eq(r0_hist_percentile(h, 99), 200);
	cr_expect_eq(r0_hist_percentile(h, 100), 200);
	free(h);
}

Test(hist, percentile_is_clamped_to_min_and_max)
{
	struct r0_hist *h = new_hist();

	r0_hist_add(h, 1000001);   /* alone in a bucket whose midpoint is above it */
	cr_expect_eq(r0_hist_percentile(h, 50), 1000001);
	cr_expect_eq(r0_hist_percentile(h, 99.99), 1000001);
	free(h);
}

Test(hist, empty_is_zero)
{
	struct r0_hist *h = new_hist();

	cr_expect_eq(r0_hist_percentile(h, 50), 0);
	cr_expect_float_eq(r0_hist_mean(h), 0.0, 1e-12);
	free(h);
}

Test(hist, merging_equals_recording_into_one)
{
	struct r0_hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	struct r0_prng r;

	r0_prng_seed(&r, 3);
	for (int k = 0; k < 100000; k++) {
		uint64_t v = 1000 + r0_prng_below(&r, 5000000);

		r0_hist_add(k % 3 ? a : b, v);
		r0_hist_add(all, v);
	}
	r0_hist_merge(a, b);
	cr_assert_eq(a->count, all->count);
	cr_assert_eq(a->min, all->min);
	cr_assert_eq(a->max, all->max);
	cr_assert(fabs(r0_hist_mean(a) - r0_hist_mean(all)) < 1e-6);
	cr_assert_arr_eq(a->buckets, all->buckets, sizeof(a->buckets));
	for (double p = 1; p < 100; p += 7.5)
		cr_expect_eq(r0_hist_percentile(a, p), r0_hist_percentile(all, p));
	r0_hist_reset(b);
	r0_hist_merge(a, b);   /* an empty one changes nothing */
	cr_assert_eq(a->min, all->min);
	free(a);
	free(b);
	free(all);
}

/* The case: 99.9 % of 1000 values is rank 999 exactly, which a
 * floating-point ceil of 1000 x 99.9 / 100 (99.9 stored a hair above)
 * turned into rank 1000, the one slow value. */
Test(hist, p99_9_of_a_thousand_is_rank_999)
{
	struct r0_hist *h = new_hist();

	for (int k = 0; k < 999; k++)
		r0_hist_add(h, 100);
	r0_hist_add(h, 5000);
	cr_expect_eq(r0_hist_percentile(h, 99.9), 100);
	cr_expect_eq(r0_hist_percentile(h, 99.91), 5000, "rank 1000 just above 99.9 %%");
	cr_expect_eq(r0_hist_percentile(h, 0.1), 100);
	free(h);
}

/* Ranks at every 1/10000 of a percent boundary, against a count whose
 * exact ranks integer arithmetic gives: 10^6 values 1..10^6 (each below
 * 256 is exact; above, the bucket midpoint within 0.4 %). */
Test(hist, ranks_are_exact_at_fine_percentiles)
{
	struct r0_hist *h = new_hist();

	for (uint64_t v = 1; v <= 200; v++)
		r0_hist_add(h, v);
	/* 200 values: p = 0.5 % x k is rank k exactly, no rounding up */
	for (unsigned k = 1; k <= 200; k++)
		cr_expect_eq(r0_hist_percentile(h, 0.5 * k), k, "p%g", 0.5 * k);
	cr_expect_eq(r0_hist_percentile(h, 0.5 * 3 + 0.0001), 4, "a hair above rank 3");
	free(h);
}
