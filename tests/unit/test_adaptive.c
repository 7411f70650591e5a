// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/adaptive.c (the planner) and, through lib/studysim.c,
 * the seeded simulation of whole studies: the adaptive plan against the
 * full plan on simulated drives with known truth, noise and drift.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/adaptive.h"
#include "r0/preset.h"
#include "r0/studysim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(adaptive, looks)
{
	unsigned at[R0_ADAPT_MAX_LOOKS];

	cr_assert_eq(r0_adapt_looks(3, 8, at), 3);
	cr_expect(at[0] == 3 && at[1] == 5 && at[2] == 8);
	cr_assert_eq(r0_adapt_looks(3, 3, at), 1);
	cr_expect_eq(at[0], 3);
	cr_assert_eq(r0_adapt_looks(3, 10, at), 4);
	cr_expect(at[2] == 8 && at[3] == 10);
	cr_assert_eq(r0_adapt_looks(1, 2, at), 2);
	cr_expect(at[0] == 1 && at[1] == 2);
	cr_expect_eq(r0_adapt_looks(0, 5, at), 0);
	cr_expect_eq(r0_adapt_looks(6, 5, at), 0);
	cr_assert_eq(r0_adapt_looks(1, 100, at), R0_ADAPT_MAX_LOOKS);
	cr_expect_eq(at[R0_ADAPT_MAX_LOOKS - 1], 100);
}

/* How many studies a row: the recipe asks for more through R0_SIM_STUDIES. */
static unsigned studies(unsigned dflt)
{
	const char *s = getenv("R0_SIM_STUDIES");

	return s && atoi(s) > 0 ? (unsigned)atoi(s) : dflt;
}

/*
 * The adaptive plan against the full one, study by study on the same
 * simulated drives with a drift: the same verdict (worth it or not under
 * the mix) in at least 95 % of studies at 2 to 10 % noise, and up to 5 %
 * noise a pick the full plan also recommends and that is within 5 % of
 * the truly best, in at most the 30-minute budget.
 */
Test(plans, the_adaptive_plan_agrees_with_the_full_one, .timeout = 1200)
{
	static const double sigmas[] = { 0.02, 0.05, 0.10 };
	/* every test to its maximum (3 s after a 0.5 s ramp): the plan's worst case */
	const struct r0_sim_plan adaptive = { .adaptive = true, .repeats = R0_ADAPT_MIN_REPEATS,
					      .max_repeats = R0_ADAPT_MAX_REPEATS, .one_single_chunk = true,
					      .cell_s = getenv("R0_SIM_CELL_S") ? atof(getenv("R0_SIM_CELL_S")) : 3.8,
					      .budget_s = 1800 };
	const struct r0_sim_plan full = R0_SIM_FULL_PLAN;
	unsigned n = studies(20);
	double drift = getenv("R0_SIM_DRIFT") ? atof(getenv("R0_SIM_DRIFT")) : 0.05;
	struct r0_mix mix;

	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	printf("plans: %u studies a row, drift %.0f %% an hour | noise | full plan: time | adaptive: time (max) | "
	       "cells full / adaptive | same verdict | same pick | the pick in the full plan's set | "
	       "the pick within 5 %% of the truly best, full / adaptive | budget hit | comparisons left open |\n", n,
	       drift * 100);
	for (size_t i = 0; i < N(sigmas); i++) {
		const struct r0_sim_drive d = { .sigma = sigmas[i], .drift_per_hour = drift };
		unsigned same_answer = 0, same_pick = 0, in_set = 0, good_full = 0, good_ad = 0, budget = 0, open = 0;
		double t_full = 0, t_ad = 0, t_ad_max = 0;
		size_t c_full = 0, c_ad = 0;

		for (unsigned s = 0; s < n; s++) {
			struct r0_sim_result f, a;

			cr_assert_eq(r0_sim_study(1000 + s, &d, &full, &mix, &f), 0);
			cr_assert_eq(r0_sim_study(1000 + s, &d, &adaptive, &mix, &a), 0);
			same_answer += f.answer == a.answer;
			same_pick += f.has_choice && a.has_choice && f.layer == a.layer && f.chunk_bytes == a.chunk_bytes;
			for (size_t k = 0; k < f.n_set; k++)
				in_set += a.has_choice && f.set[k].layer == a.layer && f.set[k].chunk_bytes == a.chunk_bytes;
			good_full += f.has_choice && f.pick_true_loss <= 0.05;
			good_ad += a.has_choice && a.pick_true_loss <= 0.05;
			budget += a.budget_hit;
			open += a.undecided;
			if (getenv("R0_SIM_VERBOSE"))
				printf("plans: study %u: full %s %s %uK, adaptive %s %s %uK, %zu cells, %u open\n", s,
				       r0_answer_name(f.answer), r0_layer_name(f.layer), f.chunk_bytes / 1024,
				       r0_answer_name(a.answer), r0_layer_name(a.layer), a.chunk_bytes / 1024, a.cells,
				       a.undecided);
			if (getenv("R0_SIM_VERBOSE") && (f.layer != a.layer || f.chunk_bytes != a.chunk_bytes))
				printf("plans:   full: %s\nplans:   adaptive: %s\n", f.chunks, a.chunks);
			t_full += f.seconds;
			t_ad += a.seconds;
			if (a.seconds > t_ad_max)
				t_ad_max = a.seconds;
			c_full += f.cells;
			c_ad += a.cells;
		}
		printf("plans: | %.0f %% | %.0f min | %.0f min (%.0f) | %zu / %zu | %.0f %% | %.0f %% | %.0f %% | "
		       "%.0f %% / %.0f %% | %u | %.1f |\n",
		       sigmas[i] * 100, t_full / n / 60, t_ad / n / 60, t_ad_max / 60, c_full / n, c_ad / n,
		       100.0 * same_answer / n, 100.0 * same_pick / n, 100.0 * in_set / n, 100.0 * good_full / n,
		       100.0 * good_ad / n, budget, (double)open / n);
		cr_expect_geq(100.0 * same_answer / n, 95.0, "%.0f %% noise: verdict", sigmas[i] * 100);
		/* at 10 % noise a repeat neither plan is 95 % right (the full one's pick is within 5 %
		 * of the truly best in 86 % of 100 studies): the table shows it, the bar is up to 5 % */
		if (sigmas[i] <= 0.05) {
			cr_expect_geq(100.0 * in_set / n, 95.0, "%.0f %% noise: the pick in the full plan's set",
				      sigmas[i] * 100);
			cr_expect_geq(100.0 * good_ad / n, 95.0, "%.0f %% noise: the pick within 5 %% of the truly best",
				      sigmas[i] * 100);
		}
		cr_expect_leq(t_ad_max, 1800.0);
	}
}

/*
 * One look at clear data: 64K well ahead of 1M, 1 % noise. The next step
 * measures 64K on dm and at 2 members, and the 1-member stripes, but not
 * 1M there, and names what it left out; nothing is undecided.
 */
Test(adaptive, a_beaten_chunk_is_not_expanded)
{
	static const uint32_t chunks[] = { 64 * 1024, 1024 * 1024 };
	static const unsigned qd1[] = { 1 };
	const struct r0_preset *cdm3 = r0_preset_find("cdm3");
	const bool backend[2] = { true, true };
	const bool count[R0_MAX_MEMBERS + 1] = { false, true, true, true };
	static struct r0_sweep_plan plan;
	static struct r0_planner p;
	struct r0_sweep_set set = { 0 };
	struct r0_mix mix;
	size_t seq = 0;

	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	memset(&plan, 0, sizeof(plan));
	cr_assert_eq(r0_sweep_plan_workloads(&plan, &cdm3, 1, qd1, 1, false, true), 0);
	cr_assert_eq(r0_sweep_plan_targets(&plan, backend, 3, count, chunks, 2, chunks, 1), 0);
	cr_assert_eq(r0_planner_init(&p, &plan, true, 3, 8), 0);
	/* first: raw and md of 3 at both chunks */
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];

		cr_expect_eq(p.active[t], x->layer == R0_LAYER_RAW || (x->layer == R0_LAYER_MD && x->n == 3),
			     "target %zu: %d %u %u", t, x->layer, x->n, x->chunk_bytes);
	}
	cr_assert_eq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 1, "the first look is to run");
	for (size_t t = 0; t < plan.n_targets; t++)
		for (size_t w = 0; w < plan.n_wl; w++)
			for (unsigned rep = 1; p.active[t] && rep <= 3; rep++) {
				const struct r0_sweep_target *x = &plan.targets[t];
				struct r0_sweep_rec r = { .layer = x->layer, .chunk_bytes = x->chunk_bytes,
							  .n_members = x->n, .repeat = rep, .runtime_s = 1 };
				double truth = x->layer == R0_LAYER_RAW ? 100e6 : x->chunk_bytes == 65536 ? 280e6 : 150e6;

				snprintf(r.label, sizeof(r.label), "%s", plan.wl[w].label);
				r.access = plan.wl[w].w.access;
				r.read_pct = plan.wl[w].w.read_pct;
				r.block_bytes = plan.wl[w].w.block_bytes;
				r.queue_depth = plan.wl[w].w.queue_depth;
				r.jobs = 1;
				r.bytes_per_s = truth * (1 + 0.01 * ((double)rep - 2));
				r.iops = r.bytes_per_s / r.block_bytes;
				r.ios = 1000;
				r.cpu_s_per_io = 0.1 / r.iops;
				cr_assert_eq(r0_sweep_set_add(&set, &r), 0);
				seq++;
			}
	cr_assert_gt(seq, 0);
	cr_assert_eq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 1, "around the set");
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];
		/* dm of 2 only once dm of 3 is measured and in the set */
		bool want = x->layer == R0_LAYER_RAW || x->n == 1 || (x->layer == R0_LAYER_MD && x->n == 3) ||
			    (x->chunk_bytes == 65536 && !(x->layer == R0_LAYER_DM && x->n == 2));

		cr_expect_eq(p.active[t], want, "target %zu: %s %u x %uK", t, r0_layer_name(x->layer), x->n,
			     x->chunk_bytes / 1024);
	}
	cr_expect(strstr(p.dropped, "dm 3 x 1024K") && strstr(p.dropped, "md 2 x 1024K"), "%s", p.dropped);
	cr_expect_eq(p.at_max, 0);
	r0_sweep_set_free(&set);
}
