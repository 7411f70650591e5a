// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear latency histogram: see r0/hist.h. */
#include <math.h>
#include <string.h>

#include "r0/hist.h"

void r0_hist_reset(struct r0_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void r0_hist_bucket_range(unsigned i, uint64_t *lo, uint64_t *hi)
{
	unsigned shift, sub;

	if (i < R0_HIST_LINEAR) {
		*lo = *hi = i;
		return;
	}
	shift = (i - R0_HIST_LINEAR) / (1u << R0_HIST_SUB_BITS) + 1;
	sub = (i - R0_HIST_LINEAR) % (1u << R0_HIST_SUB_BITS);
	*lo = (uint64_t)((1u << R0_HIST_SUB_BITS) + sub) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

void r0_hist_merge(struct r0_hist *into, const struct r0_hist *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < R0_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

uint64_t r0_hist_percentile(const struct r0_hist *h, double p)
{
	uint64_t ppm, rank, seen = 0, lo, hi, mid;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	/*
	 * P in millionths (99.9 -> 999000) by rounding, then the rank in
	 * integers: 99.9 is stored a hair above 99.9, and a floating-point
	 * ceil of count x p / 100 then landed one rank too high.
	 */
	ppm = p > 0 ? (uint64_t)llround(p * 10000.0) : 0;
	rank = (uint64_t)(((unsigned __int128)h->count * ppm + 999999) / 1000000);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < R0_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen < rank)
			continue;
		r0_hist_bucket_range(i, &lo, &hi);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double r0_hist_mean(const struct r0_hist *h)
{
	return h->count ? (double)(h->sum / h->count) : 0.0;
}
