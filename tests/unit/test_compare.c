// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of r0/compare.h (ratio of medians, bootstrap interval,
 * threshold, few repeats, against the best of k). The seeded simulation of
 * whole studies through the analysis is in test_ranking.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/compare.h"
#include "r0/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

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
	/* 18 % ahead in the means (20 % in the medians), but each side spreads over +-25 % */
	const double a[] = { 120, 95, 150, 125, 100 };
	const double b[] = { 100, 130, 75, 105, 90 };
	struct r0_cmp c;
	struct r0_cmp_opts o;

	cr_assert_eq(r0_compare_one(a, 5, b, 5, NULL, &c), 0);
	cr_expect(fabs(c.ratio - 118.0 / 100) < 1e-12, "%f", c.ratio);
	cr_expect(c.lo < 1 && c.hi > 1.2, "%f-%f", c.lo, c.hi);
	cr_expect(c.sign == 0 && !c.beyond_noise && !c.decided);
	/* the old method: the ratio of medians */
	r0_cmp_defaults(&o);
	o.method = R0_CMP_BOOTSTRAP;
	cr_assert_eq(r0_compare_one(a, 5, b, 5, &o, &c), 0);
	cr_expect(fabs(c.ratio - 120.0 / 100) < 1e-12);
	cr_expect(c.lo < 1 && c.hi > 1.2, "%f-%f", c.lo, c.hi);
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
	struct r0_cmp_term t[] = { { .a = a1, .na = 3, .b = b1, .nb = 3, .weight = 3 },
				   { .a = a2, .na = 3, .b = b2, .nb = 3, .weight = 1 },
				   { .a = a2, .na = 0, .b = b2, .nb = 3, .weight = 5 } };
	struct r0_cmp c, d;
	struct r0_cmp_opts o;
	const double zero[] = { 0, 0, 0 };

	cr_assert_eq(r0_compare(t, N(t), NULL, &c), 0);
	cr_expect(fabs(c.ratio - (3 * 200.0 + 100) / (3 * 100.0 + 100)) < 1e-12, "ratio of the weighted sums: %f",
		  c.ratio);
	cr_assert_eq(r0_compare(t, N(t), NULL, &d), 0);
	cr_expect(c.lo == d.lo && c.hi == d.hi, "the same data, the same interval");
	r0_cmp_defaults(&o);
	o.method = R0_CMP_BOOTSTRAP;
	cr_assert_eq(r0_compare(t, N(t), &o, &c), 0);
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
		{ "5.", 0, 0.05 }, { "0.5%", 0, 0.005 },
		/* r0_parse_double's numbers, as every other number r0kit takes */
		{ " 5", -EINVAL, 0 }, { "+5", -EINVAL, 0 }, { "0x5", -EINVAL, 0 }, { "0x1p2", -EINVAL, 0 },
		{ "5e0", -EINVAL, 0 }, { "5e-1%", -EINVAL, 0 }, { "inf", -EINVAL, 0 }, { "nan", -EINVAL, 0 },
		{ "1.2.3", -EINVAL, 0 }, { ".", -EINVAL, 0 }, { "%", -EINVAL, 0 },
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
	b = r0_cmp_opts_best_of(&o, 6);   /* 15 pairs */
	cr_expect(fabs(b.confidence - (1 - 0.05 / 15)) < 1e-12, "%f", b.confidence);
	cr_expect(b.threshold == o.threshold && b.resamples == o.resamples && b.seed == o.seed);
}

/* Student's t quantiles against the published tables. */
Test(compare, t_quantiles)
{
	static const struct { double p, df, t; } q[] = {
		{ 0.975, 1, 12.7062 }, { 0.975, 4, 2.7764 }, { 0.975, 10, 2.2281 }, { 0.995, 8, 3.3554 },
		{ 0.975, 1e6, 1.9600 }, { 0.95, 2.5, 2.5582 }, { 0.025, 4, -2.7764 },
	};

	for (size_t i = 0; i < N(q); i++)
		cr_expect(fabs(r0_t_quantile(q[i].p, q[i].df) - q[i].t) < 1e-3, "p %g df %g: %f", q[i].p, q[i].df,
			  r0_t_quantile(q[i].p, q[i].df));
	cr_expect(isnan(r0_t_quantile(1, 4)) && isnan(r0_t_quantile(0.5, 0)));
}

/*
 * Decided: a practical difference shown, or the whole interval inside the
 * threshold's band; more looks at the data widen every interval.
 */
Test(compare, decided_and_looks)
{
	const double base[] = { 100, 100.5, 99.5, 100.2, 99.8 };
	const double same[] = { 100.3, 99.6, 100.1, 99.9, 100.4 };   /* 0.3 % noise: shown equal */
	const double wide[] = { 90, 110, 100, 95, 105 };             /* 7 % noise: cannot tell */
	const double far[] = { 130, 131, 129, 130.5, 129.5 };
	struct r0_cmp c, d;
	struct r0_cmp_opts o;

	cr_assert_eq(r0_compare_one(same, 5, base, 5, NULL, &c), 0);
	cr_expect(c.sign == 0 && c.decided, "equal within the band: %f-%f", c.lo, c.hi);
	cr_assert_eq(r0_compare_one(wide, 5, base, 5, NULL, &c), 0);
	cr_expect(c.sign == 0 && !c.decided, "%f-%f", c.lo, c.hi);
	cr_assert_eq(r0_compare_one(far, 5, base, 5, NULL, &c), 0);
	cr_expect(c.sign == 1 && c.decided);
	cr_assert_eq(r0_compare_one(far, 2, base, 2, NULL, &c), 0);
	cr_expect(c.indicative && !c.decided, "indicative is never decided");
	r0_cmp_defaults(&o);
	o.looks = 3;
	cr_assert_eq(r0_compare_one(wide, 5, base, 5, NULL, &c), 0);
	cr_assert_eq(r0_compare_one(wide, 5, base, 5, &o, &d), 0);
	cr_expect(d.lo < c.lo && d.hi > c.hi && d.ratio == c.ratio, "3 looks: %f-%f against %f-%f", d.lo, d.hi,
		  c.lo, c.hi);
}

/*
 * As time (Amdahl's law): one workload at 1x taking 55 % of one drive's
 * time and one at 2x taking 45 %: the array takes 0.55 + 0.225 of the
 * time, 1.29x, where the mean of the speed-ups would say 1.45x.
 */
Test(compare, terms_added_as_time)
{
	const double base[] = { 100, 101, 99 }, same[] = { 100, 99, 101 }, twice[] = { 200, 202, 198 };
	struct r0_cmp_term t[2] = {
		{ .a = same, .na = 3, .b = base, .nb = 3, .weight = 0.55 * 100 },
		{ .a = twice, .na = 3, .b = base, .nb = 3, .weight = 0.45 * 100 },
	};
	struct r0_cmp_opts o;
	struct r0_cmp c;

	r0_cmp_defaults(&o);
	cr_assert_not(o.by_time);
	o.by_time = true;
	cr_assert_eq(r0_compare(t, 2, &o, &c), 0);
	cr_expect(fabs(c.ratio - 1 / (0.55 + 0.45 / 2)) < 1e-3, "ratio %f", c.ratio);
	cr_expect(c.lo < c.ratio && c.hi > c.ratio);
	/* a zero rate on the side compared against is no time: refused */
	const double zero[] = { 0, 0, 0 };
	struct r0_cmp_term z = { .a = same, .na = 3, .b = zero, .nb = 3, .weight = 1 };

	cr_expect_eq(r0_compare(&z, 1, &o, &c), -EDOM);
}

/* Runs of one visit that move together: the mix's interval is wider than if they were independent. */
Test(compare, one_visit_is_not_independent_runs)
{
	const double a1[] = { 100, 110, 90 }, a2[] = { 200, 220, 180 }, b1[] = { 100, 100, 100 },
		     b2[] = { 100, 100, 100 };
	const unsigned pa[] = { 1, 2, 3 }, pb[] = { 1, 2, 3 };
	struct r0_cmp_term t[2] = {
		{ .a = a1, .na = 3, .b = b1, .nb = 3, .weight = 1, .pass_a = pa, .pass_b = pb },
		{ .a = a2, .na = 3, .b = b2, .nb = 3, .weight = 1, .pass_a = pa, .pass_b = pb },
	};
	struct r0_cmp_opts o;
	struct r0_cmp indep, visit, unknown;

	r0_cmp_defaults(&o);
	o.by_time = true;
	cr_assert_eq(r0_compare(t, 2, &o, &indep), 0);
	o.visit_rho = 0.9;
	cr_assert_eq(r0_compare(t, 2, &o, &visit), 0);
	cr_expect(fabs(visit.ratio - indep.ratio) < 1e-12, "the point does not move");
	cr_expect_gt(visit.se, indep.se * 1.3, "se %f against %f", visit.se, indep.se);
	/* runs whose visits are not known stay independent */
	t[0].pass_a = t[1].pass_a = NULL;
	cr_assert_eq(r0_compare(t, 2, &o, &unknown), 0);
	cr_expect(fabs(unknown.se - indep.se) < 1e-12);
}

/*
 * A mix's degrees of freedom (issue 44): eight workloads whose noise is
 * known to 4 df each (the study's pooled noise) are not 8 x 4 df: a side
 * is known no better than its best-known workload, so the interval's df
 * stays at most 8 (two sides of 4) however many workloads the mix has;
 * and runs of one visit that move together count for fewer still.
 */
Test(compare, a_mix_is_known_no_better_than_its_best_workload)
{
	double a[8][3], b[8][3];
	const unsigned pa[] = { 1, 2, 3 }, pb[] = { 1, 2, 3 };
	struct r0_cmp_term t[8];
	struct r0_cmp_opts o;
	struct r0_cmp one, mix, visit;

	for (size_t w = 0; w < 8; w++) {
		for (size_t k = 0; k < 3; k++) {
			a[w][k] = 100 * (1 + w) * (1 + 0.05 * ((double)k - 1));
			b[w][k] = 100 * (1 + w) * (1 - 0.05 * ((double)k - 1));
		}
		t[w] = (struct r0_cmp_term){ .a = a[w], .na = 3, .b = b[w], .nb = 3, .weight = 1, .var_a = 0.0025,
					     .df_a = 4, .var_b = 0.0025, .df_b = 4, .pass_a = pa, .pass_b = pb };
	}
	r0_cmp_defaults(&o);
	o.by_time = true;
	cr_assert_eq(r0_compare(t, 1, &o, &one), 0);
	cr_assert_eq(r0_compare(t, 8, &o, &mix), 0);
	cr_expect(fabs(one.df - 8) < 1e-9, "one workload: %f df", one.df);
	cr_expect_leq(mix.df, 8 + 1e-9, "eight workloads of 4 df a side: %f df, not up to 64", mix.df);
	cr_expect_gt(mix.df, 7, "%f df", mix.df);
	/* one noisy workload of 3 df among quiet ones of 30: Satterthwaite's df is under the bound, and
	 * runs of one visit moving together lower it a little more (their variances covary by rho^2; the
	 * noisy term dominates, so its covariances with the quiet ones are small) */
	t[0].var_a = t[0].var_b = 0.01;
	t[0].df_a = t[0].df_b = 3;
	for (size_t w = 1; w < 8; w++) {
		t[w].var_a = t[w].var_b = 0.0004;
		t[w].df_a = t[w].df_b = 30;
	}
	o.visit_rho = 0;
	cr_assert_eq(r0_compare(t, 8, &o, &mix), 0);
	cr_expect_lt(mix.df, 60, "%f df", mix.df);
	o.visit_rho = 0.5;
	cr_assert_eq(r0_compare(t, 8, &o, &visit), 0);
	cr_expect_lt(visit.df, mix.df - 0.01, "runs of one visit moving together: %f df against %f", visit.df, mix.df);
}
