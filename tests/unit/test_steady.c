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

/* --- ending a run when its rate holds still (r0_steady_run_stop) ----- */

#define MS 1000000ULL

static size_t run_end(const double *y, size_t n, uint64_t min_ms, uint64_t max_ms)
{
	return r0_steady_run_end(y, n, &R0_STEADY_RUN, 250 * MS, min_ms * MS, max_ms * MS);
}

Test(steady_run, a_steady_series_ends_one_slice_after_its_first_steady_window)
{
	double y[40];

	for (size_t i = 0; i < N(y); i++)
		y[i] = 1000 + (i % 2 ? 20 : -20);   /* +-2 %: inside 10 % and flat */
	/* 8 samples make the window; it closes at the end of the 9th slice */
	cr_expect_eq(run_end(y, N(y), 0, 10000), 9u);
	cr_expect(r0_steady_run_stop(y, 8, &R0_STEADY_RUN, 250 * MS, 0, 10000 * MS));
	cr_expect_not(r0_steady_run_stop(y, 7, &R0_STEADY_RUN, 250 * MS, 0, 10000 * MS),
		      "fewer samples than the window");
}

Test(steady_run, the_minimum_is_honoured)
{
	double y[40];

	for (size_t i = 0; i < N(y); i++)
		y[i] = 500;
	/* steady from the start, but not closed before 5 s = 20 slices */
	cr_expect_eq(run_end(y, N(y), 5000, 10000), 20u);
	/* a minimum between boundaries: the first boundary after it */
	cr_expect_eq(run_end(y, N(y), 5100, 10000), 21u);
	/* min == max: the run takes its full time, by its time */
	cr_expect_eq(run_end(y, N(y), 10000, 10000), 0u);
	/* the window would close at the maximum itself: that is the maximum's end */
	cr_expect_eq(run_end(y, N(y), 0, 9 * 250), 0u);
	cr_expect_eq(run_end(y, N(y), 0, 9 * 250 + 1), 9u);
}

Test(steady_run, a_ramping_series_runs_to_the_maximum)
{
	double y[40];

	/* +1 % a slice: each window's range is 7 %, inside 10 %, but the
	 * line climbs 7 % across it, above the slope's 5 % */
	for (size_t i = 0; i < N(y); i++)
		y[i] = 1000 * (1 + 0.01 * (double)i);
	cr_expect_eq(run_end(y, N(y), 0, 10000), 0u);
}

Test(steady_run, an_oscillating_series_runs_to_the_maximum)
{
	double y[40];

	/* flat on average (no slope) but swinging +-15 % */
	for (size_t i = 0; i < N(y); i++)
		y[i] = 1000 + (i % 2 ? 150 : -150);
	cr_expect_eq(run_end(y, N(y), 0, 10000), 0u);
}

Test(steady_run, a_series_that_settles_ends_after_it_settles)
{
	double y[40];

	/* a write cliff: fast, falling, then flat from sample 12 */
	for (size_t i = 0; i < N(y); i++)
		y[i] = i < 12 ? 3000 - 200 * (double)i : 600;
	/* samples 12..19 (1-based 13..20) are the first flat window */
	cr_expect_eq(run_end(y, N(y), 0, 10000), 21u);
}

Test(steady_run, bad_rules_never_stop)
{
	double y[16] = { 0 };
	struct r0_steady_rule r = R0_STEADY_RUN;

	cr_expect_not(r0_steady_run_stop(y, 16, &r, 0, 0, 10000 * MS), "slice 0");
	r.window = 1;
	cr_expect_not(r0_steady_run_stop(y, 16, &r, 250 * MS, 0, 10000 * MS));
	r = R0_STEADY_RUN;
	r.range_frac = 0;
	cr_expect_not(r0_steady_run_stop(y, 16, &r, 250 * MS, 0, 10000 * MS));
	cr_expect_not(r0_steady_run_stop(NULL, 16, &R0_STEADY_RUN, 250 * MS, 0, 10000 * MS));
}

Test(steady_run, the_slice_fits_a_short_minimum)
{
	cr_expect_eq(r0_steady_slice_ns(0, 0, &R0_STEADY_RUN), 250 * MS);
	cr_expect_eq(r0_steady_slice_ns(0, 30000 * MS, &R0_STEADY_RUN), 250 * MS);
	/* 9 slices in 900 ms: 100 ms each */
	cr_expect_eq(r0_steady_slice_ns(0, 900 * MS, &R0_STEADY_RUN), 100 * MS);
	cr_expect_eq(r0_steady_slice_ns(0, 90 * MS, &R0_STEADY_RUN), R0_STEADY_SLICE_MIN_NS);
	cr_expect_eq(r0_steady_slice_ns(1000 * MS, 900 * MS, &R0_STEADY_RUN), 1000 * MS, "asked");
}
