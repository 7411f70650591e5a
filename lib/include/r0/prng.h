/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seedable pseudo-random numbers for offsets and data (xoshiro256**,
 * Blackman and Vigna), and a full-coverage order: a random-looking
 * permutation of [0, n) that visits every block exactly once per pass, as
 * fio's random map does but in O(1) memory.
 */
#ifndef R0_PRNG_H
#define R0_PRNG_H

#include <stdint.h>

struct r0_prng {
	uint64_t s[4];
};

/* Seeds the generator (splitmix64 expands SEED; any seed, 0 included). */
void r0_prng_seed(struct r0_prng *r, uint64_t seed);

static inline uint64_t r0_prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t r0_prng_next(struct r0_prng *r)
{
	uint64_t *s = r->s, result = r0_prng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = r0_prng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n >= 1 (Lemire's multiply-shift; the bias is below 2^-40 for n < 2^24). */
static inline uint64_t r0_prng_below(struct r0_prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)r0_prng_next(r) * n) >> 64);
}

/* A standard normal draw (Box-Muller): the noise of the seeded simulations. */
double r0_prng_gauss(struct r0_prng *r);

/* splitmix64: one step of a 64-bit mixing function (also a hash). */
uint64_t r0_mix64(uint64_t x);

/*
 * Full-coverage order over [0, n): a full-period LCG modulo the next power
 * of two, passed through a bijective mixer and cycle-walked below n, so
 * each pass yields every index exactly once in a seed-dependent order.
 */
struct r0_cover {
	uint64_t n, mask, state, mul, inc, key, emitted;
};

/* 0, or -EINVAL for n == 0. */
int r0_cover_init(struct r0_cover *c, uint64_t n, uint64_t seed);

/* The next index; after n of them the next pass starts (the same order again). */
uint64_t r0_cover_next(struct r0_cover *c);

#endif
