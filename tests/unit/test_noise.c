// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/study/noise.c (drift by pass, visits and runs judged far and kept,
 * pooled noise, a target's own noise, the visits' correlation),
 * of Benjamini-Hochberg's level (lib/study/compare.c), and of the analysis with
 * them: a true 2x between two chunks is found with one run at 0.6x.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "r0/compare.h"
#include "r0/noise.h"
#include "r0/preset.h"
#include "r0/prng.h"
#include "studysim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u

static double mean_adjusted(const struct r0_noise_obs *o, size_t n, size_t cell)
{
	double s = 0;
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		if (o[i].cell == cell) {
			s += o[i].adjusted;
			k++;
		}
	return k ? s / k : 0;
}

/*
 * Cell 0 measured in passes 1-3, cell 1 (as fast) in passes 4-6, cell 2 in
 * all six; every run 2 % slower a pass. Without the drift out they differ
 * by 6 %; with it within 1.5 % (a pass of 10 runs has its effect shrunk
 * by a tenth: PASS_SHRINK).
 */
Test(noise, drift_is_taken_out_pass_by_pass)
{
	struct r0_noise_obs o[128];
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n = 0;

	r0_prng_seed(&rng, 7);
	for (unsigned pass = 1; pass <= 6; pass++) {
		double drift = 1 - 0.02 * (pass - 1);

		for (size_t cell = 0; cell < 3; cell++) {
			if ((cell == 0 && pass > 3) || (cell == 1 && pass <= 3))
				continue;
			/* five workloads a cell: the pass shows on many runs */
			for (size_t g = 0; g < 5; g++)
				o[n++] = (struct r0_noise_obs){ .cell = cell * 5 + g, .group = g, .pass = pass,
								.value = 100 * drift * (1 + 0.002 * r0_prng_gauss(&rng)) };
		}
	}
	cr_assert_eq(r0_noise_fit(o, n, 15, 5, &nz), 0);
	for (size_t g = 0; g < 5; g++) {
		double a = mean_adjusted(o, n, g), b = mean_adjusted(o, n, 5 + g);

		cr_expect(fabs(a / b - 1) < 0.015, "workload %zu: %f against %f", g, a, b);
	}
	cr_expect_gt(nz.max_drift, 0.03, "%f", nz.max_drift);
	cr_expect_eq(nz.n_far, 0);
	r0_noise_free(&nz);
}

/*
 * One run at 0.6x among three is judged far, and its cell's noise keeps it;
 * a cell of two cannot tell which run strayed; the pooled noise is the runs'.
 */
Test(noise, a_slow_run_is_judged_far_and_kept_in_the_noise)
{
	struct r0_noise_obs o[128];
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n = 0;

	r0_prng_seed(&rng, 11);
	for (size_t cell = 0; cell < 30; cell++)
		for (unsigned rep = 0; rep < 3; rep++)
			o[n++] = (struct r0_noise_obs){ .cell = cell, .group = 0,
							.value = 100 * (1 + 0.05 * r0_prng_gauss(&rng)) };
	o[4].value *= 0.6;   /* cell 1, its second run */
	o[n++] = (struct r0_noise_obs){ .cell = 30, .group = 0, .value = 100 };
	o[n++] = (struct r0_noise_obs){ .cell = 30, .group = 0, .value = 60 };
	cr_assert_eq(r0_noise_fit(o, n, 31, 1, &nz), 0);
	cr_expect(o[4].far, "the slow run");
	cr_expect_eq(nz.n_far, 1, "%u judged far", nz.n_far);
	/* cell 1's runs are 100 x (1 + 5 % noise) and one at 0.6x: its variance is the slow run's (a log
	 * sd near 0.3, kept as its own: far beyond its prior), not its other two runs' (near 0.05) */
	cr_expect_gt(nz.cell_var[1], 0.25 * 0.25, "%f", nz.cell_var[1]);
	cr_expect(!o[n - 1].far && !o[n - 2].far, "two runs cannot tell which one strayed");
	cr_expect(sqrt(nz.group_var[0]) > 0.035 && sqrt(nz.group_var[0]) < 0.08, "pooled %f", sqrt(nz.group_var[0]));
	cr_expect_geq(nz.group_df[0], 59);
	/* the cell of two that strays keeps its own noise: far above the pool's */
	cr_expect_gt(nz.cell_var[30], 4 * nz.group_var[0], "%f", nz.cell_var[30]);
	r0_noise_free(&nz);
	cr_expect_eq(r0_noise_fit(o, n, 30, 1, &nz), -EINVAL, "a cell out of range");
}

/*
 * A study of T targets x W workloads x P passes, one run of each cell a
 * pass (visit = pass): run noise SD[t] (a share) and a visit factor of
 * TAU, both gaussian in log units; EVENT[t][p]: a visit's further factor
 * (0: none). Target t's cells run at 100 x (1 + t / 10).
 */
#define ST 24
#define SW 8
#define SP 8
static size_t study(struct r0_noise_obs *o, struct r0_prng *rng, size_t targets, unsigned passes,
		    const double *sd, double tau, double event[ST][SP + 1])
{
	size_t n = 0;

	for (unsigned p = 1; p <= passes; p++)
		for (size_t t = 0; t < targets; t++) {
			double v = tau * r0_prng_gauss(rng) + (event ? log(1 + event[t][p]) : 0);

			for (size_t w = 0; w < SW; w++)
				o[n++] = (struct r0_noise_obs){
					.cell = t * SW + w, .group = w, .target = t, .pass = p, .visit = p,
					.value = 100 * (1 + t / 10.0) * exp(v + sd[t] * r0_prng_gauss(rng)) };
		}
	return n;
}

/* Target T's mean log error over every run, drift out: what its figures rest on. */
static double log_mean(const struct r0_noise_obs *o, size_t n, size_t t)
{
	double s = 0;
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		if (o[i].target == t) {
			s += log(o[i].adjusted / (100 * (1 + t / 10.0)));
			k++;
		}
	return k ? s / k : NAN;
}

/*
 * Heavy tails both ways: a slow visit (0.75x), a fast one (1.3x) and a
 * slow one (0.8x) among 72, over 3 % noise and a 1 % visit factor; and a
 * run at 1.6x alone. Each visit is judged far whole, the fast as the slow,
 * and the fast run too; every target's mean over all its runs is its
 * truth times its events' (one visit of six at 0.75x: 4.8 % slow) within
 * 2.5 %: nothing is left out, and drift takes out no target's own event.
 * Over 40 such studies with random events of either sign (a target with
 * three of six off has two judged: at most a third) the targets' mean
 * error stays within 0.5 %.
 */
Test(noise, visits_off_either_way_are_judged_far_whole)
{
	static struct r0_noise_obs o[ST * SW * SP];
	double sd[ST], event[ST][SP + 1] = { { 0 } }, sum = 0;
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n, fast_run, studies = 40, counted = 0;
	bool fast = false, slow = false;

	for (size_t t = 0; t < ST; t++)
		sd[t] = 0.03;
	event[2][3] = -0.25;
	event[5][2] = 0.3;
	event[7][5] = -0.2;
	r0_prng_seed(&rng, 21);
	n = study(o, &rng, 12, 6, sd, 0.01, event);
	fast_run = (size_t)3 * 12 * SW + 9 * SW + 6;   /* pass 4, target 9, workload 6 */
	o[fast_run].value *= 1.6;
	cr_assert_eq(r0_noise_fit(o, n, 12 * SW, SW, &nz), 0);
	for (size_t i = 0; i < n; i++)
		if (event[o[i].target][o[i].visit] != 0)
			cr_expect(o[i].far && o[i].visit_far, "target %zu pass %u", o[i].target, o[i].visit);
	cr_expect(o[fast_run].far && !o[fast_run].visit_far, "the fast run alone");
	cr_expect_eq(nz.n_visits_far, 3);
	for (size_t v = 0; v < nz.n_visits_far; v++) {
		fast |= nz.visits_far[v].effect > 0.2;
		slow |= nz.visits_far[v].effect < -0.2;
		cr_expect_eq(nz.visits_far[v].runs, SW);
	}
	cr_expect(fast && slow);
	/* 4 sd of a target's mean: 3 % over 48 runs, 1 % over 6 visits */
	for (size_t t = 0; t < 12; t++) {
		double events = 0;

		for (unsigned p = 1; p <= 6; p++)
			events += log(1 + event[t][p]) / 6;
		cr_expect(fabs(log_mean(o, n, t) - events) < 0.025, "target %zu: %f, its events %f", t,
			  log_mean(o, n, t), events);
	}
	r0_noise_free(&nz);
	fast = slow = false;

	for (size_t s = 0; s < studies; s++) {
		memset(event, 0, sizeof(event));
		r0_prng_seed(&rng, 1000 + s);
		/* one visit in ten off by 15-35 %, either way */
		for (size_t t = 0; t < 12; t++)
			for (unsigned p = 1; p <= 6; p++)
				if (!r0_prng_below(&rng, 10))
					event[t][p] = (r0_prng_below(&rng, 2) ? 1 : -1) * (0.15 + 0.002 * r0_prng_below(&rng, 100));
		n = study(o, &rng, 12, 6, sd, 0.01, event);
		cr_assert_eq(r0_noise_fit(o, n, 12 * SW, SW, &nz), 0);
		for (size_t v = 0; v < nz.n_visits_far; v++) {
			fast |= nz.visits_far[v].effect > 0.1;
			slow |= nz.visits_far[v].effect < -0.1;
		}
		for (size_t t = 0; t < 12; t++) {
			/* drift is relative: the targets' errors against their mean */
			double m = 0;

			for (size_t u = 0; u < 12; u++)
				m += log_mean(o, n, u) / 12;
			sum += log_mean(o, n, t) - m;
			counted++;
		}
		r0_noise_free(&nz);
	}
	cr_expect(fast && slow);
	cr_expect(fabs(sum / (double)counted) < 0.005, "%f", sum / (double)counted);
}

/*
 * A visit factor of 3 % over 3 % run noise (rho 0.5; the drift of a pass
 * takes 1/24 of it out), 24 targets x 8 workloads x 8 passes: found
 * within 0.1; none: below 0.1.
 */
Test(noise, the_visits_correlation_is_recovered)
{
	static struct r0_noise_obs o[ST * SW * SP];
	double sd[ST];
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n;

	for (size_t t = 0; t < ST; t++)
		sd[t] = 0.03;
	for (unsigned seed = 1; seed <= 3; seed++) {
		r0_prng_seed(&rng, 300 + seed);
		n = study(o, &rng, ST, SP, sd, 0.03, NULL);
		cr_assert_eq(r0_noise_fit(o, n, ST * SW, SW, &nz), 0);
		cr_expect(fabs(nz.visit_rho - 0.5) < 0.1, "seed %u: %f", seed, nz.visit_rho);
		r0_noise_free(&nz);
		n = study(o, &rng, ST, SP, sd, 0, NULL);
		cr_assert_eq(r0_noise_fit(o, n, ST * SW, SW, &nz), 0);
		cr_expect(nz.visit_rho < 0.1, "seed %u: %f", seed, nz.visit_rho);
		r0_noise_free(&nz);
	}
	/* no visit known: no correlation to fit */
	for (size_t i = 0; i < n; i++)
		o[i].visit = 0;
	cr_assert_eq(r0_noise_fit(o, n, ST * SW, SW, &nz), 0);
	cr_expect_eq(nz.visit_rho, 0);
	r0_noise_free(&nz);
}

/*
 * One target of six four times noisier (12 % against 3 %), 3 passes: its
 * cells' moderated variance stays near its own, not pulled toward the
 * pool (moderated toward the group's alone it would be about 7 %). The
 * quiet ones are moderated toward the pool's, which they stray from: the
 * prior earns few degrees of freedom, and they keep near their own.
 */
Test(noise, a_noisy_target_keeps_its_noise)
{
	static struct r0_noise_obs o[ST * SW * SP];
	double sd[ST] = { 0.12, 0.03, 0.03, 0.03, 0.03, 0.03 }, noisy = 0, quiet = 0;
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n;

	r0_prng_seed(&rng, 77);
	n = study(o, &rng, 6, 3, sd, 0, NULL);
	cr_assert_eq(r0_noise_fit(o, n, 6 * SW, SW, &nz), 0);
	for (size_t w = 0; w < SW; w++) {
		noisy += sqrt(nz.cell_var[w]) / SW;
		quiet += sqrt(nz.cell_var[SW + w]) / SW;
	}
	/* the mean of sd estimates of few df runs low (about 6 % at 4 df) */
	cr_expect_gt(noisy, 0.09, "%f", noisy);
	cr_expect_lt(nz.prior_df, R0_NOISE_PRIOR_DF / 2.0, "%f", nz.prior_df);
	for (size_t c = 0; c < 6 * SW; c++)
		cr_expect_leq(nz.cell_df[c], 2 + R0_NOISE_PRIOR_DF / 2.0, "cell %zu: %f", c, nz.cell_df[c]);
	cr_expect_lt(quiet, noisy / 2, "%f", quiet);
	r0_noise_free(&nz);
}

Test(compare, benjamini_hochberg_level)
{
	const double p[] = { 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216 };
	const double none[] = { 0.5, 0.9 };

	/* 0.008 <= 2 x 0.05 / 10, 0.039 > 3 x 0.05 / 10 and no later one qualifies */
	cr_expect(fabs(r0_cmp_bh_level(p, N(p), 0.05) - 0.01) < 1e-12, "%f", r0_cmp_bh_level(p, N(p), 0.05));
	cr_expect(fabs(r0_cmp_bh_level(none, N(none), 0.05) - 0.025) < 1e-12);
	cr_expect_eq(r0_cmp_bh_level(p, 0, 0.05), 1);
}

/*
 * A true 2x between two chunks on every workload, 3 repeats, 5 % noise,
 * and one run of the better chunk at 0.6x: the worse chunk is left out of
 * that workload's best set in at least 95 % of 100 studies.
 */
Test(noise, a_true_2x_is_found_with_one_slow_run)
{
	const struct r0_preset *cdm = r0_preset_find("cdm");
	struct r0_mix mix;
	unsigned found = 0, studies = 100;

	cr_assert_not_null(cdm);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	for (unsigned s = 0; s < studies; s++) {
		struct r0_run_set set = { 0 };
		struct r0_analysis a;
		struct r0_prng rng;
		size_t slow_wl, slow_rep;

		r0_prng_seed(&rng, 100 + s);
		slow_wl = r0_prng_below(&rng, cdm->n_tests);
		slow_rep = 1 + r0_prng_below(&rng, 3);
		for (size_t w = 0; w < cdm->n_tests; w++)
			for (unsigned rep = 1; rep <= 3; rep++) {
				static const struct { enum r0_layer l; uint32_t chunk; unsigned n; double speed; } t[] = {
					{ R0_LAYER_RAW, 0, 1, 100e6 }, { R0_LAYER_MD, 4 * K, 3, 125e6 },
					{ R0_LAYER_MD, 64 * K, 3, 250e6 },
				};

				for (size_t k = 0; k < N(t); k++) {
					struct r0_run r;
					double v = t[k].speed * (1 + 0.05 * r0_prng_gauss(&rng));

					if (k == 2 && w == slow_wl && rep == slow_rep)
						v *= 0.6;
					r0_sim_rec(&r, t[k].l, t[k].chunk, t[k].n, cdm->tests[w].label, &cdm->tests[w].w, rep, v);
					cr_assert_eq(r0_run_set_add(&set, &r), 0);
				}
			}
		cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
		for (size_t i = 0; i < a.n_cell; i++) {
			const struct r0_cell *c = &a.cell[i];
			char name[48];
			struct r0_run r;

			r0_sim_rec(&r, R0_LAYER_RAW, 0, 1, cdm->tests[slow_wl].label, &cdm->tests[slow_wl].w, 1, 1);
			r0_run_workload(&r, name, sizeof(name));
			if (c->layer == R0_LAYER_MD && c->chunk_bytes == 4 * K && !strcmp(a.wl[c->wl].name, name))
				found += !c->tie_best;
		}
		r0_analysis_free(&a);
		r0_run_set_free(&set);
	}
	cr_expect_geq(found, studies * 95 / 100, "found in %u of %u", found, studies);
}

/*
 * The prior's weight is earned: cells of one noise level (every target
 * 5 %) lend it all R0_NOISE_PRIOR_DF; cells whose noise differs far more
 * than 2 df of sampling shows (each cell's level spread over 1-16 %) lend
 * it a third of that or less; a study of fewer than R0_NOISE_EB_MIN_CELLS cells
 * with a variance lends one cell's own df.
 */
Test(noise, the_prior_weight_is_earned)
{
	static struct r0_noise_obs o[ST * SW * SP];
	double sd[ST];
	struct r0_noise nz;
	struct r0_prng rng;
	size_t n;
	unsigned full = 0;

	for (unsigned seed = 1; seed <= 10; seed++) {
		r0_prng_seed(&rng, seed);
		for (size_t t = 0; t < ST; t++)
			sd[t] = 0.05;
		n = study(o, &rng, ST, 3, sd, 0, NULL);
		cr_assert_eq(r0_noise_fit(o, n, ST * SW, SW, &nz), 0);
		full += nz.prior_df > R0_NOISE_PRIOR_DF - 1e-9;
		cr_expect_gt(nz.prior_df, 4, "seed %u: one level lent %f", seed, nz.prior_df);
		r0_noise_free(&nz);
	}
	cr_expect_geq(full, 7, "one level lent all its df in %u of 10", full);
	/* each cell its own level: a cell's own runs over the visits, scaled */
	r0_prng_seed(&rng, 5);
	for (size_t t = 0; t < ST; t++)
		sd[t] = 0.05;
	n = study(o, &rng, ST, 3, sd, 0, NULL);
	for (size_t i = 0; i < n; i++) {
		double level = exp(log(0.01) + (log(0.16) - log(0.01)) * (double)((o[i].cell * 7919) % 97) / 96);

		o[i].value = exp(log(o[i].value) * level / 0.05);
	}
	cr_assert_eq(r0_noise_fit(o, n, ST * SW, SW, &nz), 0);
	cr_expect_lt(nz.prior_df, 4, "cells 1-16 %% apart lent %f", nz.prior_df);
	r0_noise_free(&nz);
	/* two targets of one workload, 3 runs each: 2 cells of 2 df, too few to show a spread */
	n = 0;
	for (unsigned p = 1; p <= 3; p++)
		for (size_t t = 0; t < 2; t++)
			o[n++] = (struct r0_noise_obs){ .cell = t, .group = 0, .target = t, .pass = p, .visit = p,
							.value = 100 * exp(0.05 * r0_prng_gauss(&rng)) };
	cr_assert_eq(r0_noise_fit(o, n, 2, 1, &nz), 0);
	cr_expect(nz.prior_df > 2 - 1e-9 && nz.prior_df < 2 + 1e-9, "%f", nz.prior_df);
	r0_noise_free(&nz);
}
