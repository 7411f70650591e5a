/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histogram: log-linear buckets (HdrHistogram's idea), exact below
 * 256 and 128 buckets per power of two above, so a bucket is at most 1/128
 * (0.78 %) of its lower bound wide and a value reported as its bucket's
 * midpoint is off by at most 0.4 %. Values are nanoseconds (any unit
 * works); the full 64-bit range is covered, so nothing is ever clipped.
 */
#ifndef R0_HIST_H
#define R0_HIST_H

#include <stdint.h>

#define R0_HIST_SUB_BITS 7                                 /* 128 buckets an octave */
#define R0_HIST_LINEAR (1u << (R0_HIST_SUB_BITS + 1))      /* exact values 0..255 */
#define R0_HIST_BUCKETS (R0_HIST_LINEAR + (64 - R0_HIST_SUB_BITS - 1) * (1u << R0_HIST_SUB_BITS))

/* A plain struct (about 60 KiB): r0_hist_reset it, then record (zeroed, its min stays 0). */
struct r0_hist {
	uint64_t count;
	uint64_t min, max;          /* exact; min is UINT64_MAX while empty */
	long double sum;            /* exact mean without overflow */
	uint64_t buckets[R0_HIST_BUCKETS];
};

void r0_hist_reset(struct r0_hist *h);

static inline unsigned r0_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < R0_HIST_LINEAR)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - R0_HIST_SUB_BITS;   /* >= 1: v >> shift is in [128, 256) */
	return R0_HIST_LINEAR + (shift - 1) * (1u << R0_HIST_SUB_BITS) +
	       (unsigned)((v >> shift) - (1u << R0_HIST_SUB_BITS));
}

static inline void r0_hist_add(struct r0_hist *h, uint64_t v)
{
	h->buckets[r0_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* The values bucket I holds: [*lo, *hi] (inclusive). */
void r0_hist_bucket_range(unsigned i, uint64_t *lo, uint64_t *hi);

/* Adds FROM's counts into INTO (per-job histograms into one). */
void r0_hist_merge(struct r0_hist *into, const struct r0_hist *from);

/*
 * The value at percentile P (0 < P <= 100): the smallest recorded value v
 * such that at least P % of the values are <= v, reported as the midpoint
 * of v's bucket clamped to [min, max]. P is taken to 1/10000 of a percent
 * (rounded) and the rank, ceil(count x P / 100), is computed in integers,
 * so p99.9 of 1000 values is exactly the 999th. 0 on an empty histogram.
 */
uint64_t r0_hist_percentile(const struct r0_hist *h, double p);

/* Mean, or 0 on an empty histogram. */
double r0_hist_mean(const struct r0_hist *h);

#endif
