// SPDX-License-Identifier: GPL-2.0-or-later
/* Seedable PRNG and full-coverage order: see r0/prng.h. */
#include <errno.h>
#include <math.h>

#include "r0/prng.h"

uint64_t r0_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void r0_prng_seed(struct r0_prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ULL;
		r->s[i] = r0_mix64(seed);
	}
}

double r0_prng_gauss(struct r0_prng *r)
{
	double u = (double)((r0_prng_next(r) >> 11) + 1) * 0x1p-53;   /* (0, 1]: log(u) is finite */
	double v = (double)(r0_prng_next(r) >> 11) * 0x1p-53;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

int r0_cover_init(struct r0_cover *c, uint64_t n, uint64_t seed)
{
	unsigned bits = 1;

	if (!n)
		return -EINVAL;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	c->n = n;
	c->mask = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
	/* Hull-Dobell for a power-of-two modulus: mul = 1 mod 4, inc odd */
	c->mul = (r0_mix64(seed) << 2) | 1ULL;
	c->inc = r0_mix64(seed ^ 0x5bd1e995ULL) | 1ULL;
	c->key = r0_mix64(seed + 1) & c->mask;
	c->state = r0_mix64(seed + 2) & c->mask;
	c->emitted = 0;
	return 0;
}

/* A bijection of [0, mask] (mask = 2^k - 1): xor with a key, an odd
 * multiply and an xor-shift are each invertible modulo 2^k. */
static uint64_t cover_scramble(const struct r0_cover *c, uint64_t x)
{
	unsigned half = (unsigned)(__builtin_popcountll(c->mask) / 2 + 1);

	x = (x ^ c->key) & c->mask;
	x = (x * 0x9e3779b97f4a7c15ULL) & c->mask;
	x ^= x >> half;
	x = (x * 0xd6e8feb86659fd93ULL) & c->mask;
	x ^= x >> half;
	return x;
}

uint64_t r0_cover_next(struct r0_cover *c)
{
	uint64_t v;

	/* LCG states run through all 2^k values per period; keep those below n */
	do {
		c->state = (c->state * c->mul + c->inc) & c->mask;
		v = cover_scramble(c, c->state);
	} while (v >= c->n);
	c->emitted++;
	return v;
}
