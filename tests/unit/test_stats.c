// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/stats.h: the sort order, medians, the summary, quantiles. */
#include <math.h>
#include <criterion/criterion.h>

#include "r0/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

Test(stats, sort_and_median)
{
	double v[] = { 3, -1, 2, 10, 2 };
	const double sorted[] = { -1, 2, 2, 3, 10 };

	r0_sort_doubles(v, N(v));
	for (size_t i = 0; i < N(v); i++)
		cr_expect_eq(v[i], sorted[i], "v[%zu] %g", i, v[i]);
	cr_expect(NEAR(r0_median_sorted(v, 5), 2));
	cr_expect(NEAR(r0_median_sorted(v, 4), 2), "even: the mean of the middle two");
	cr_expect(NEAR(r0_median((const double[]){ 3, 1, 2, 10 }, 4), 2.5));
	cr_expect(NEAR(r0_median((const double[]){ 7 }, 1), 7));
	cr_expect_eq(r0_median(NULL, 0), 0);
	cr_expect_lt(r0_cmp_double(&(double){ 1 }, &(double){ 2 }), 0);
	cr_expect_gt(r0_cmp_double(&(double){ 2 }, &(double){ 1 }), 0);
	cr_expect_eq(r0_cmp_double(&(double){ 2 }, &(double){ 2 }), 0);
}

Test(stats, median_min_max)
{
	const double v4[] = { 4, 1, 3, 2 }, v3[] = { 9, 7, 8 };
	struct r0_stat s;

	r0_stat_of(v4, 4, &s);
	cr_expect(NEAR(s.med, 2.5) && NEAR(s.min, 1) && NEAR(s.max, 4) && s.n == 4);
	cr_expect(NEAR(v4[0], 4), "the input is left as it was");
	r0_stat_of(v3, 3, &s);
	cr_expect(NEAR(s.med, 8));
	r0_stat_of(v3, 0, &s);
	cr_expect(s.n == 0 && s.med == 0 && s.min == 0 && s.max == 0);
}

/* Type 7 against values worked by hand: h = p (n - 1), between order statistics. */
Test(stats, quantiles)
{
	static const struct { double p, want; } cases[] = {
		{ 0, 10 }, { 0.25, 17.5 }, { 0.5, 25 }, { 0.9, 37 }, { 1, 40 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		double v[] = { 40, 10, 30, 20 };

		cr_expect(NEAR(r0_quantile(v, N(v), cases[i].p), cases[i].want), "p %g: %g", cases[i].p,
			  r0_quantile((double[]){ 40, 10, 30, 20 }, 4, cases[i].p));
	}
	/* nearest rank: the smallest value with at least P of them at or below it */
	{
		const double s[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

		cr_expect_eq(r0_quantile_nearest_rank(s, 10, 0.9), 9);
		cr_expect_eq(r0_quantile_nearest_rank(s, 10, 0.91), 10);
		cr_expect_eq(r0_quantile_nearest_rank(s, 1, 0.9), 1);
	}
}

/* digamma and trigamma at known values (Abramowitz and Stegun 6.3.2, 6.3.3, 6.4.2, 6.4.4), and the inverse */
Test(stats, digamma_trigamma_and_the_inverse)
{
	const double pi = 3.14159265358979323846;

	cr_expect(fabs(r0_digamma(1) + 0.57721566490153286) < 1e-10);
	cr_expect(fabs(r0_digamma(0.5) + 0.57721566490153286 + 2 * log(2)) < 1e-10);
	cr_expect(fabs(r0_digamma(100.5) - log(100.5) + 0.5 / 100.5) < 1e-4);
	cr_expect(fabs(r0_trigamma(1) - pi * pi / 6) < 1e-10);
	cr_expect(fabs(r0_trigamma(0.5) - pi * pi / 2) < 1e-10);
	cr_expect(isnan(r0_digamma(0)) && isnan(r0_trigamma(-1)) && isnan(r0_trigamma_inverse(0)));
	for (double y = 0.05; y < 2000; y *= 3)
		cr_expect(fabs(r0_trigamma_inverse(r0_trigamma(y)) / y - 1) < 1e-9, "y %g", y);
}
