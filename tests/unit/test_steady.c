// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/steady.h: SNIA PTS steady state on hand-made series. */
#include <errno.h>
#include <math.h>
#include <criterion/criterion.h>

#include "r0/steady.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static size_t reached(const double *y, size_t n)
{
	size_t round = 9999;
	int rc = r0_steady_reached(y, n, NULL, &round);

	cr_assert(rc == 0 || rc == 1, "rc %d", rc);
	return rc ? round : 0;
}

Test(steady, reached_after_a_decay)
{
	/* rounds 4-8 are the first window that is flat enough: round 8 */
	static const double y[] = { 100, 80, 60, 50, 50, 50, 50, 50, 50 };
	struct r0_steady_window w;

	cr_expect_eq(reached(y, N(y)), 8u);
	/* rounds 4-8 would pass the range test but not the slope test */
	cr_assert_eq(r0_steady_window(y + 2, &R0_STEADY_SNIA, &w), 0);
	cr_expect_float_eq(w.mean, 52.0, 1e-9);
	cr_expect_float_eq(w.range, 10.0, 1e-9);
	cr_expect_float_eq(w.slope, -2.0, 1e-9);
	cr_expect_not(w.steady, "|slope| x 4 = 8 > 10 %% of 52");
}

Test(steady, flat_from_the_first_window)
{
	static const double y[] = { 7000, 7000, 7000, 7000, 7000, 1 };

	cr_expect_eq(reached(y, N(y)), 5u);
	cr_expect_eq(reached(y, 4), 0u, "fewer rounds than a window");
}

Test(steady, not_reached_while_falling)
{
	static const double y[] = { 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45 };

	cr_expect_eq(reached(y, N(y)), 0u);
}

Test(steady, noisy_series)
{
	/* range 30 of a mean near 115: too noisy, every window */
	static const double loud[] = { 100, 130, 100, 130, 100, 130, 100, 130, 100 };
	/* range 20 of mean 104 (<= 20.8), slope -0.5 a round: steady at round 5 */
	static const double mild[] = { 100, 115, 95, 110, 100 };
	/* range exactly 20 % of the mean but a 5-a-round trend: the slope test says no */
	static const double trend[] = { 90, 95, 100, 105, 110 };
	struct r0_steady_window w;

	cr_expect_eq(reached(loud, N(loud)), 0u);
	cr_expect_eq(reached(mild, N(mild)), 5u);
	cr_assert_eq(r0_steady_window(trend, &R0_STEADY_SNIA, &w), 0);
	cr_expect_float_eq(w.range, 20.0, 1e-9);
	cr_expect_float_eq(w.slope, 5.0, 1e-9);
	cr_expect_not(w.steady);
	cr_expect_eq(reached(trend, N(trend)), 0u);
}

Test(steady, other_rules_and_errors)
{
	static const double y[] = { 10, 20, 10, 10, 10 };
	const struct r0_steady_rule three = { 3, 0.2, 0.1 }, one = { 1, 0.2, 0.1 };
	double bad[] = { 1, 2, NAN, 4, 5 };
	size_t round = 0;

	cr_expect_eq(r0_steady_reached(y, N(y), &three, &round), 1);
	cr_expect_eq(round, 5u, "a window of 3: rounds 3-5");
	cr_expect_eq(r0_steady_reached(y, N(y), &one, &round), -EINVAL);
	cr_expect_eq(r0_steady_reached(bad, N(bad), NULL, &round), -EINVAL);
	cr_expect_eq(r0_steady_reached(NULL, 5, NULL, &round), -EINVAL);
	cr_expect_eq(r0_steady_reached(y, N(y), NULL, NULL), -EINVAL);
}
