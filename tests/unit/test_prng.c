// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/prng.h: determinism, range, full coverage. */
#include <errno.h>
#include <stdlib.h>
#include <criterion/criterion.h>

#include "r0/prng.h"

Test(prng, same_seed_same_sequence)
{
	struct r0_prng a, b, c;
	int differ = 0;

	r0_prng_seed(&a, 42);
	r0_prng_seed(&b, 42);
	r0_prng_seed(&c, 43);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = r0_prng_next(&a);

		cr_assert_eq(x, r0_prng_next(&b));
		differ += x != r0_prng_next(&c);
	}
	cr_expect_geq(differ, 999, "seeds 42 and 43 give different sequences");
}

Test(prng, below_stays_in_range_and_spreads)
{
	struct r0_prng r;
	unsigned hits[10] = { 0 };

	r0_prng_seed(&r, 0);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = r0_prng_below(&r, 10);

		cr_assert_lt(v, 10);
		hits[v]++;
	}
	for (int i = 0; i < 10; i++)
		cr_expect(hits[i] > 9500 && hits[i] < 10500, "value %d drawn %u times of 100000", i, hits[i]);
}

/* Every index exactly once per pass, for sizes around powers of two. */
Test(prng, cover_visits_every_block_once_per_pass)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 9, 255, 256, 257, 1000, 4096, 65537, 100000 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		unsigned char *seen = calloc(n, 1);
		struct r0_cover c;

		cr_assert(seen);
		cr_assert_eq(r0_cover_init(&c, n, 1234 + s), 0);
		for (int pass = 1; pass <= 2; pass++) {
			for (uint64_t i = 0; i < n; i++) {
				uint64_t v = r0_cover_next(&c);

				cr_assert_lt(v, n);
				cr_assert_eq(seen[v], pass - 1, "n=%llu: block %llu twice in pass %d",
					     (unsigned long long)n, (unsigned long long)v, pass);
				seen[v] = (unsigned char)pass;
			}
		}
		free(seen);
	}
}

Test(prng, cover_order_is_shuffled_and_seeded)
{
	struct r0_cover a, b;
	uint64_t n = 10000, in_place = 0, same = 0, prev = 0, steps_of_one = 0;

	r0_cover_init(&a, n, 1);
	r0_cover_init(&b, n, 2);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t x = r0_cover_next(&a), y = r0_cover_next(&b);

		in_place += x == i;
		same += x == y;
		steps_of_one += i && x == prev + 1;
		prev = x;
	}
	cr_expect_lt(in_place, 20, "not the identity order (%llu in place)", (unsigned long long)in_place);
	cr_expect_lt(same, 20, "seeds 1 and 2 give other orders (%llu equal)", (unsigned long long)same);
	cr_expect_lt(steps_of_one, 20, "not sequential runs (%llu steps of one)", (unsigned long long)steps_of_one);
}

Test(prng, cover_refuses_zero_blocks)
{
	struct r0_cover c;

	cr_expect_eq(r0_cover_init(&c, 0, 1), -EINVAL);
}
