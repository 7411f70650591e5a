// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/study/noise.c (drift by pass, runs set aside, pooled noise),
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
		if (o[i].cell == cell && !o[i].aside) {
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
	cr_expect_eq(nz.n_aside, 0);
	r0_noise_free(&nz);
}

/* One run at 0.6x among three is set aside; a cell of two keeps both; the pooled noise is the runs'. */
Test(noise, a_slow_run_is_set_aside_and_the_noise_pooled)
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
	cr_expect(o[4].aside, "the slow run");
	cr_expect_eq(nz.n_aside, 1, "%u set aside", nz.n_aside);
	cr_expect(!o[n - 1].aside && !o[n - 2].aside, "two runs cannot tell which one strayed");
	cr_expect(sqrt(nz.group_var[0]) > 0.035 && sqrt(nz.group_var[0]) < 0.08, "pooled %f", sqrt(nz.group_var[0]));
	cr_expect_geq(nz.group_df[0], 59);
	/* the cell of two that strays keeps its own noise: far above the pool's */
	cr_expect_gt(nz.cell_var[30], 4 * nz.group_var[0], "%f", nz.cell_var[30]);
	r0_noise_free(&nz);
	cr_expect_eq(r0_noise_fit(o, n, 30, 1, &nz), -EINVAL, "a cell out of range");
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
		struct r0_sweep_set set = { 0 };
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
					struct r0_sweep_rec r;
					double v = t[k].speed * (1 + 0.05 * r0_prng_gauss(&rng));

					if (k == 2 && w == slow_wl && rep == slow_rep)
						v *= 0.6;
					r0_sim_rec(&r, t[k].l, t[k].chunk, t[k].n, cdm->tests[w].label, &cdm->tests[w].w, rep, v);
					cr_assert_eq(r0_sweep_set_add(&set, &r), 0);
				}
			}
		cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
		for (size_t i = 0; i < a.n_cell; i++) {
			const struct r0_cell *c = &a.cell[i];
			char name[48];
			struct r0_sweep_rec r;

			r0_sim_rec(&r, R0_LAYER_RAW, 0, 1, cdm->tests[slow_wl].label, &cdm->tests[slow_wl].w, 1, 1);
			r0_sweep_rec_workload(&r, name, sizeof(name));
			if (c->layer == R0_LAYER_MD && c->chunk_bytes == 4 * K && !strcmp(a.wl[c->wl].name, name))
				found += !c->tie_best;
		}
		r0_analysis_free(&a);
		r0_sweep_set_free(&set);
	}
	cr_expect_geq(found, studies * 95 / 100, "found in %u of %u", found, studies);
}
