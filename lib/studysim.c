// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole studies on simulated drives, through the planner and the analysis (r0/studysim.h). */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/adaptive.h"
#include "r0/preset.h"
#include "r0/prng.h"
#include "r0/studysim.h"

#define K 1024u
#define SIM_MEMBERS 3

/* One drive's speed on workload W in MB/s: a SATA-class SSD, small random reads the slowest. */
static double drive_mbps(const struct r0_workload *w)
{
	bool rd = w->read_pct >= 50;

	if (w->access == R0_ACCESS_SEQ)
		return rd ? 520 : 480;
	if (w->block_bytes >= 128 * K)
		return rd ? 470 : 430;
	if (w->queue_depth >= 16)
		return rd ? 380 : 330;
	if (w->queue_depth >= 4)
		return rd ? 160 : 240;
	return rd ? 45 : 110;
}

/*
 * The array's speed-up over one drive: a request of B bytes at chunk C
 * touches m = min(n, B / C) members (one more when its offset straddles a
 * chunk), a queue of depth q keeps min(n, q x m) of them busy; splitting a
 * request into many small pieces costs, and so does the layer.
 */
static double speedup(const struct r0_workload *w, enum r0_layer layer, uint32_t chunk, unsigned n)
{
	double m, busy, split = 1, layer_cost = layer == R0_LAYER_DM ? 0.965 : 0.97;
	unsigned q = w->queue_depth * (w->jobs ? w->jobs : 1);

	if (layer == R0_LAYER_RAW)
		return 1;
	m = (double)w->block_bytes / chunk;
	if (w->align_bytes && w->align_bytes < chunk && w->block_bytes >= chunk)
		m += 1;   /* straddles: one more member */
	if (m < 1)
		m = 1;
	if (m > n)
		m = n;
	busy = q * m < n ? q * m : n;
	/* many pieces a request: each costs a little (4K chunks of a 1M request: 256 pieces) */
	if ((double)w->block_bytes / chunk > 16)
		split = 0.8;
	else if ((double)w->block_bytes / chunk > 4)
		split = 0.93;
	return busy * split * layer_cost;
}

/* 4K..1M: 0..8, a slot per power of two */
static size_t chunk_index(uint32_t chunk)
{
	size_t i = 0;

	while (chunk > 4 * K && i < 7) {
		chunk >>= 1;
		i++;
	}
	return i;
}

static int build_plan(struct r0_sweep_plan *plan, bool one_single)
{
	static const uint32_t chunks[] = { 4 * K, 16 * K, 64 * K, 128 * K, 512 * K, 1024 * K };
	static const uint32_t single512[] = { 512 * K };
	static const unsigned qds[] = { 1, 4, 32 };
	const struct r0_preset *presets[] = { r0_preset_find("cdm3"), r0_preset_find("cdm") };
	const bool backend[2] = { true, true };
	bool count[R0_MAX_MEMBERS + 1] = { false, true, true, true };
	int err;

	memset(plan, 0, sizeof(*plan));
	err = r0_sweep_plan_workloads(plan, presets, 2, qds, 3, true, false);
	if (!err)
		err = r0_sweep_plan_targets(plan, backend, SIM_MEMBERS, count, chunks, 6,
					    one_single ? single512 : chunks, one_single ? 1 : 6);
	return err;
}

void r0_sim_rec(struct r0_sweep_rec *r, enum r0_layer layer, uint32_t chunk, unsigned n, const char *label,
		const struct r0_workload *w, unsigned repeat, double bytes_per_s)
{
	memset(r, 0, sizeof(*r));
	r->layer = layer;
	r->chunk_bytes = chunk;
	r->n_members = n;
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->access = w->access;
	r->read_pct = w->read_pct;
	r->block_bytes = w->block_bytes;
	r->align_bytes = w->align_bytes;
	r->queue_depth = w->queue_depth;
	r->jobs = w->jobs ? w->jobs : 1;
	r->repeat = repeat;
	r->runtime_s = 1;
	r->bytes_per_s = bytes_per_s;
	r->iops = bytes_per_s / w->block_bytes;
	r->ios = (uint64_t)r->iops + 1;   /* a measurement: requests completed */
	r->cpu_s_per_io = 0.1 / r->iops;
	snprintf(r->state, sizeof(r->state), "empty");
}

/* Plan target T, workload W's record. */
static void sim_rec(struct r0_sweep_rec *r, const struct r0_sweep_plan *plan, size_t t, size_t w, unsigned rep,
		    double bps)
{
	const struct r0_sweep_target *x = &plan->targets[t];

	r0_sim_rec(r, x->layer, x->chunk_bytes, x->n, plan->wl[w].label, &plan->wl[w].w, rep, bps);
}

struct run {
	double drive_scale;         /* this study's drives against the model's */
	double chunk_eff[2][8];     /* this study's own effect of each chunk, per layer (md, dm) */
	const struct r0_sim_drive *d;
	const struct r0_sim_plan *sp;
	struct r0_prng rng;
	double elapsed;
	size_t cells;
	bool budget_hit;
};

/* Runs what the planner wants, repeat by repeat, each in its seeded target order (as r0sweep does). */
static int run_wanted(struct run *x, struct r0_planner *p, struct r0_sweep_set *set)
{
	const struct r0_sweep_plan *plan = p->plan;
	unsigned top = 0;

	for (size_t t = 0; t < plan->n_targets; t++)
		for (size_t w = 0; w < plan->n_wl; w++)
			if (p->need[t][w] > top)
				top = p->need[t][w];
	for (unsigned rep = 1; rep <= top; rep++) {
		size_t order[R0_SWEEP_MAX_TARGETS];

		r0_sweep_order(rep, plan->n_targets, order);
		for (size_t i = 0; i < plan->n_targets; i++) {
			size_t t = order[i];

			for (size_t w = 0; w < plan->n_wl; w++) {
				struct r0_sweep_rec r;
				double truth, drift;
				int err;

				if (p->need[t][w] < rep || p->have[t][w] >= rep)
					continue;
				if (x->sp->budget_s > 0 && x->elapsed + x->sp->cell_s > x->sp->budget_s) {
					x->budget_hit = true;
					return 0;
				}
				truth = x->drive_scale * drive_mbps(&plan->wl[w].w) * 1e6 *
					speedup(&plan->wl[w].w, plan->targets[t].layer, plan->targets[t].chunk_bytes,
						plan->targets[t].n);
				if (plan->targets[t].layer != R0_LAYER_RAW)
					truth *= x->chunk_eff[plan->targets[t].layer == R0_LAYER_DM]
							     [chunk_index(plan->targets[t].chunk_bytes)];
				drift = 1 + x->d->drift_per_hour * x->elapsed / 3600;
				sim_rec(&r, plan, t, w, rep, truth * drift * (1 + x->d->sigma * r0_prng_gauss(&x->rng)));
				err = r0_sweep_set_add(set, &r);
				if (err)
					return err;
				p->have[t][w] = rep;
				x->elapsed += x->sp->cell_s;
				x->cells++;
			}
		}
	}
	return 0;
}

/* The truth's speed-up of a target under the analysis' mix weights (the same for every study's drives). */
static double true_score(const struct run *x, const struct r0_sweep_plan *plan, const struct r0_analysis *a,
			 const struct r0_sweep_target *t)
{
	double s = 0;

	for (size_t w = 0; w < plan->n_wl; w++) {
		char name[48];
		struct r0_sweep_rec r;

		sim_rec(&r, plan, 0, w, 1, 1);
		r0_sweep_rec_workload(&r, name, sizeof(name));
		for (size_t k = 0; k < a->n_wl; k++)
			if (!strcmp(a->wl[k].name, name))
				s += a->wl[k].weight * speedup(&plan->wl[w].w, t->layer, t->chunk_bytes, t->n) *
				     x->chunk_eff[t->layer == R0_LAYER_DM][chunk_index(t->chunk_bytes)];
	}
	return s;
}

static double true_loss(const struct run *x, const struct r0_sweep_plan *plan, const struct r0_analysis *a)
{
	double best = 0, pick = 0;

	for (size_t t = 0; t < plan->n_targets; t++) {
		const struct r0_sweep_target *y = &plan->targets[t];
		double v;

		if (y->layer == R0_LAYER_RAW || y->n != a->max_members)
			continue;
		v = true_score(x, plan, a, y);
		if (v > best)
			best = v;
		if (y->layer == a->choice[a->pick].layer && y->chunk_bytes == a->choice[a->pick].chunk_bytes)
			pick = v;
	}
	return best > 0 ? 1 - pick / best : 0;
}

int r0_sim_study(uint64_t seed, const struct r0_sim_drive *d, const struct r0_sim_plan *sp,
		 const struct r0_mix *mix, struct r0_sim_result *out)
{
	struct r0_sweep_plan *plan = malloc(sizeof(*plan));
	struct r0_planner *p = malloc(sizeof(*p));
	struct r0_sweep_set set = { 0 };
	struct run x = { .d = d, .sp = sp };
	struct r0_analysis a;
	struct r0_cmp_opts o;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!plan || !p)
		goto out;
	r0_prng_seed(&x.rng, seed);
	/* each study its own drives (0.5x to 2x the model's) and chunks (+-5 %, dm a shade apart from md) */
	x.drive_scale = exp((double)(r0_prng_next(&x.rng) >> 11) * 0x1p-53 * 1.4 - 0.7);
	for (size_t c = 0; c < 8; c++) {
		x.chunk_eff[0][c] = 1 + 0.05 * r0_prng_gauss(&x.rng);
		x.chunk_eff[1][c] = x.chunk_eff[0][c] * (1 + 0.01 * r0_prng_gauss(&x.rng));
	}
	err = build_plan(plan, sp->one_single_chunk);
	if (!err)
		err = r0_planner_init(p, plan, sp->adaptive, sp->repeats,
				      sp->adaptive ? sp->max_repeats : sp->repeats);
	while (!err && !x.budget_hit) {
		size_t left = sp->budget_s > 0 ? (size_t)((sp->budget_s - x.elapsed) / sp->cell_s) : SIZE_MAX;

		err = r0_planner_step(p, &set, mix, NULL, left);
		if (err != 1)
			break;
		err = run_wanted(&x, p, &set);
	}
	if (err < 0)
		goto out;
	o = r0_planner_cmp(p, NULL);
	err = r0_analyse(&set, mix, &o, &a);
	if (err)
		goto out;
	out->has_choice = a.has_choice;
	for (size_t k = 0; k < a.n_choice && out->n_set < 16; k++)
		if (a.choice[k].tie_best) {
			out->set[out->n_set].layer = a.choice[k].layer;
			out->set[out->n_set++].chunk_bytes = a.choice[k].chunk_bytes;
		}
	if (a.has_choice)
		out->pick_true_loss = true_loss(&x, plan, &a);
	out->answer = a.answer;
	if (a.has_choice) {
		out->layer = a.choice[a.pick].layer;
		out->chunk_bytes = a.choice[a.pick].chunk_bytes;
	}
	snprintf(out->chunks, sizeof(out->chunks), "%s", a.chunks);
	out->seconds = x.elapsed;
	out->cells = x.cells;
	out->budget_hit = x.budget_hit || p->budget_short;
	for (int k = 0; k < R0_ADAPT_KINDS; k++)
		out->undecided += p->undecided[k];
	r0_analysis_free(&a);
out:
	r0_sweep_set_free(&set);
	free(plan);
	free(p);
	return err;
}
