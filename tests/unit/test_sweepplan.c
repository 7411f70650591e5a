// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/sweepplan.h: r0sweep's workloads and targets. */
#include <errno.h>
#include <criterion/criterion.h>

#include "r0/sweepplan.h"

static struct r0_sweep_plan plan;

static void fresh(void)
{
	memset(&plan, 0, sizeof(plan));
}

TestSuite(sweepplan, .init = fresh);

Test(sweepplan, cdm3_at_two_depths_with_straddle)
{
	const struct r0_preset *p[] = { r0_preset_find("cdm3") };
	const unsigned qds[] = { 1, 32 };
	static const char *const want[] = {
		"Seq", "Seq", "512K", "512K", "4K", "4K QD32", "4K", "4K QD32", "512K straddle",
	};

	cr_assert_eq(r0_sweep_plan_workloads(&plan, p, 1, qds, 2, true, false), 0);
	/* 4K QD1 and QD32, read and write: the preset's own tests, each once */
	cr_assert_eq(plan.n_wl, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < plan.n_wl; i++)
		cr_expect_str_eq(plan.wl[i].label, want[i], "%zu: '%s'", i, plan.wl[i].label);
	cr_expect_eq(plan.wl[8].w.align_bytes, 4096);
	cr_expect_geq(r0_sweep_plan_find(&plan, "4K QD32 write"), 0);
	cr_expect_eq(r0_sweep_plan_find(&plan, "4K QD8 read"), -ENOENT);
}

Test(sweepplan, added_depths_are_labelled_in_the_preset_style)
{
	const struct r0_preset *p[] = { r0_preset_find("cdm3"), r0_preset_find("cdm") };
	const unsigned qds[] = { 8 };
	bool cdm3_qd8 = false, rnd_q8 = false;

	cr_assert_eq(r0_sweep_plan_workloads(&plan, p, 2, qds, 1, false, true), 0);
	for (size_t i = 0; i < plan.n_wl; i++) {
		cr_expect_eq(plan.wl[i].w.read_pct, 100, "read-only kept '%s'", plan.wl[i].label);
		cr_expect_neq(plan.wl[i].w.queue_depth == 1 && plan.wl[i].w.block_bytes == 4096, 1);
		cdm3_qd8 |= !strcmp(plan.wl[i].label, "4K QD8");
		rnd_q8 |= !strcmp(plan.wl[i].label, "RND4K Q8T1");
	}
	/* cdm's RND4K at QD8 equals cdm3's 4K at QD8: kept once, under cdm3's label */
	cr_expect(cdm3_qd8);
	cr_expect_not(rnd_q8);
}

Test(sweepplan, one_workload_too_many)
{
	const struct r0_preset *p[] = { r0_preset_find("predict") };
	unsigned qds[R0_SWEEP_MAX_WL];

	cr_assert_not_null(p[0]);
	for (unsigned i = 0; i < R0_SWEEP_MAX_WL; i++)
		qds[i] = i + 1;
	/* every 4K..64K random test at 64 depths, reads and writes: far above the limit */
	cr_expect_eq(r0_sweep_plan_workloads(&plan, p, 1, qds, R0_SWEEP_MAX_WL, false, false), -E2BIG);
	cr_expect_eq(plan.n_wl, R0_SWEEP_MAX_WL);
}

Test(sweepplan, keep_drops_the_rest_in_order)
{
	const struct r0_preset *p[] = { r0_preset_find("cdm3") };
	const unsigned qds[] = { 1 };
	bool keep[R0_SWEEP_MAX_WL] = { 0 };

	cr_assert_eq(r0_sweep_plan_workloads(&plan, p, 1, qds, 1, false, false), 0);
	keep[r0_sweep_plan_find(&plan, "4K write")] = true;
	keep[r0_sweep_plan_find(&plan, "Seq read")] = true;
	r0_sweep_plan_keep(&plan, keep);
	cr_assert_eq(plan.n_wl, 2);
	cr_expect_str_eq(plan.wl[0].label, "Seq");
	cr_expect_eq(plan.wl[1].w.read_pct, 0);
}

Test(sweepplan, targets_raw_then_md_then_dm)
{
	const bool backend[2] = { true, true }, count[R0_MAX_MEMBERS + 1] = { false, true, false, true };
	const uint32_t chunks[] = { 65536, 524288 }, single[] = { 4096 };

	cr_assert_eq(r0_sweep_plan_targets(&plan, backend, 3, count, chunks, 2, single, 1), 0);
	/* raw; md 1x4K, 3x64K, 3x512K; dm the same */
	cr_assert_eq(plan.n_targets, 7);
	cr_expect_eq(plan.targets[0].layer, R0_LAYER_RAW);
	cr_expect_eq(plan.targets[1].layer, R0_LAYER_MD);
	cr_expect_eq(plan.targets[1].chunk_bytes, 4096);
	cr_expect_eq(plan.targets[3].n, 3);
	cr_expect_eq(plan.targets[3].chunk_bytes, 524288);
	cr_expect_eq(plan.targets[4].layer, R0_LAYER_DM);
}

Test(sweepplan, one_target_too_many)
{
	const bool backend[2] = { true, true };
	bool count[R0_MAX_MEMBERS + 1];
	uint32_t chunks[8];

	for (unsigned n = 0; n <= R0_MAX_MEMBERS; n++)
		count[n] = true;
	for (unsigned c = 0; c < 8; c++)
		chunks[c] = 4096u << c;
	/* 1 raw + 2 back ends x 16 counts x 8 chunks = 257 */
	cr_expect_eq(r0_sweep_plan_targets(&plan, backend, R0_MAX_MEMBERS, count, chunks, 8, chunks, 8),
		     -E2BIG);
	cr_expect_eq(plan.n_targets, R0_SWEEP_MAX_TARGETS);
}
