// SPDX-License-Identifier: GPL-2.0-or-later
/* The study loop: look, run passes, look again (r0/study.h). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "r0/study.h"

int r0_study_init(struct r0_study *s, const struct r0_sweep_plan *plan, bool adaptive, unsigned min,
		  unsigned max, const struct r0_mix *mix, const struct r0_cmp_opts *cmp, double budget_s,
		  double cell_s)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->mix = mix;
	if (cmp)
		s->cmp = *cmp;
	else
		r0_cmp_defaults(&s->cmp);
	s->budget_s = budget_s > 0 ? budget_s : 0;
	err = r0_planner_init(&s->planner, plan, adaptive, min, max);
	if (!err && s->budget_s && cell_s > 0)
		r0_planner_fit_budget(&s->planner, (size_t)(s->budget_s / cell_s));
	return err;
}

/* Cells the study may still start: what is left of the budget at the expected cell time. */
static size_t cells_left(const struct r0_study *s, const struct r0_study_ops *ops, void *ctx)
{
	double left, cell;

	if (!s->budget_s)
		return SIZE_MAX;
	left = s->budget_s - ops->elapsed(ctx);
	cell = ops->cell_seconds(ctx);
	if (left <= 0)
		return 0;
	return cell > 0 ? (size_t)(left / cell) : SIZE_MAX;
}

/*
 * Passes until the planner has what it asked for: each visits the targets
 * with a cell to run in its own seeded order. 0, -ETIME when the next
 * visit would end past the budget (nothing started), or a visit's error.
 */
static int run_passes(struct r0_study *s, struct r0_run_set *set, const struct r0_study_ops *ops, void *ctx)
{
	struct r0_planner *p = &s->planner;
	const struct r0_sweep_plan *plan = p->plan;

	while (r0_planner_todo(p)) {
		size_t order[R0_SWEEP_MAX_TARGETS];
		bool ran = false;

		s->pass++;
		r0_pass_order(s->pass, plan->n_targets, order);
		for (size_t i = 0; i < plan->n_targets; i++) {
			unsigned repeat[R0_SWEEP_MAX_WL];
			size_t t = order[i], cells = 0;
			int err;

			for (size_t w = 0; w < plan->n_wl; w++) {
				repeat[w] = r0_planner_next_repeat(p, t, w);
				cells += repeat[w] > 0;
			}
			if (!cells)
				continue;
			if (s->budget_s && ops->elapsed(ctx) + (double)cells * ops->cell_seconds(ctx) > s->budget_s)
				return -ETIME;
			err = ops->visit(ctx, t, s->pass, repeat, set);
			if (err)
				return err;
			for (size_t w = 0; w < plan->n_wl; w++)
				p->have[t][w] += repeat[w] > 0;
			ran = true;
		}
		if (!ran)
			break;
	}
	return 0;
}

int r0_study_run(struct r0_study *s, struct r0_run_set *set, const struct r0_study_ops *ops, void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < set->n; i++)
		if (set->recs[i].pass > s->pass)
			s->pass = set->recs[i].pass;
	for (;;) {
		struct r0_cmp_opts o = r0_planner_cmp(&s->planner, &s->cmp);
		int rc = r0_planner_step(&s->planner, set, s->mix, &o, cells_left(s, ops, ctx));

		if (rc < 0 && rc != -ENODATA)
			return rc;
		if (rc <= 0)
			break;
		err = run_passes(s, set, ops, ctx);
		if (err == -ETIME) {
			s->budget_hit = true;
			err = 0;
			break;
		}
		if (err)
			break;
	}
	s->budget_hit |= s->planner.budget_short;
	return err;
}
