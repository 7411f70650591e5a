// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of lib/study/study.c: the study loop's passes, their order, and the budget. */
#include <string.h>
#include <criterion/criterion.h>

#include "r0/preset.h"
#include "r0/study.h"
#include "studysim.h"

#define K 1024u

struct fake {
	struct r0_sweep_plan plan;
	double now, cell_s;
	unsigned visits, last_pass, pos;
	size_t order[R0_SWEEP_MAX_TARGETS];
	bool in_order;
};

static int visit(void *ctx, size_t t, unsigned pass, const unsigned *repeat, struct r0_run_set *set)
{
	struct fake *f = ctx;

	if (pass != f->last_pass) {
		r0_pass_order(pass, f->plan.n_targets, f->order);
		f->last_pass = pass;
		f->pos = 0;
	}
	/* the targets of a pass come in its seeded order */
	while (f->pos < f->plan.n_targets && f->order[f->pos] != t)
		f->pos++;
	f->in_order &= f->pos < f->plan.n_targets;
	for (size_t w = 0; w < f->plan.n_wl; w++) {
		const struct r0_sweep_target *x = &f->plan.targets[t];
		struct r0_run r;

		if (!repeat[w])
			continue;
		cr_assert_eq(repeat[w], pass, "a fixed plan: repeat r in pass r");
		r0_sim_rec(&r, x->layer, x->chunk_bytes, x->n, f->plan.wl[w].label, &f->plan.wl[w].w, repeat[w], 100e6);
		r.pass = pass;
		cr_assert_eq(r0_run_set_add(set, &r), 0);
		f->now += f->cell_s;
	}
	f->visits++;
	return 0;
}

static double elapsed(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static double cell_seconds(void *ctx)
{
	return ((struct fake *)ctx)->cell_s;
}

static void plan_of(struct fake *f)
{
	static const uint32_t chunks[] = { 64 * K, 512 * K };
	static const unsigned qd1[] = { 1 };
	const struct r0_preset *cdm3 = r0_preset_find("cdm3");
	const bool backend[2] = { true, false };
	const bool count[R0_MAX_MEMBERS + 1] = { false, false, true };

	memset(f, 0, sizeof(*f));
	f->cell_s = 1;
	f->in_order = true;
	cr_assert_eq(r0_sweep_plan_workloads(&f->plan, &cdm3, 1, qd1, 1, false, true), 0);
	cr_assert_eq(r0_sweep_plan_targets(&f->plan, backend, 2, count, chunks, 2, chunks, 0), 0);
}

/* A fixed plan of 3 repeats: 3 passes, each visiting every target once in its own order. */
Test(study, a_fixed_plan_runs_in_passes)
{
	static struct fake f;
	static const struct r0_study_ops ops = { visit, elapsed, cell_seconds };
	struct r0_run_set set = { 0 };
	struct r0_study s;
	struct r0_mix mix;

	plan_of(&f);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	cr_assert_eq(r0_study_init(&s, &f.plan, false, 3, 3, &mix, NULL, 0, 0), 0);
	cr_assert_eq(r0_study_run(&s, &set, &ops, &f), 0);
	cr_expect_eq(s.pass, 3);
	cr_expect_eq(f.visits, 3 * f.plan.n_targets);
	cr_expect_eq(set.n, 3 * f.plan.n_targets * f.plan.n_wl);
	cr_expect(f.in_order);
	cr_expect(!s.budget_hit);
	r0_run_set_free(&set);
}

/* A budget of 1.5 passes: the second pass stops before the visit that would end past it. */
Test(study, the_budget_stops_before_a_visit_that_would_pass_it)
{
	static struct fake f;
	static const struct r0_study_ops ops = { visit, elapsed, cell_seconds };
	struct r0_run_set set = { 0 };
	struct r0_study s;
	struct r0_mix mix;
	double pass_s;

	plan_of(&f);
	pass_s = (double)(f.plan.n_targets * f.plan.n_wl) * f.cell_s;
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	cr_assert_eq(r0_study_init(&s, &f.plan, false, 3, 3, &mix, NULL, 1.5 * pass_s, 0), 0);
	cr_assert_eq(r0_study_run(&s, &set, &ops, &f), 0);
	cr_expect(s.budget_hit);
	cr_expect_leq(f.now, 1.5 * pass_s);
	cr_expect_gt(f.now, pass_s);
	r0_run_set_free(&set);
}
