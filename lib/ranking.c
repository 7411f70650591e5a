// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis's judgements, in numbers: each cell against the single
 * drive, the chunks that cannot be told from the best, the candidates
 * scored under the mix and the pick among the best, a limit the members
 * share, and how many members to build (r0/analysis.h). The words are
 * lib/verdict.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r0/analysis.h"
#include "analysis_steps.h"

/*
 * Worth it against one drive, from a comparison C of the array with the
 * baseline: faster beyond noise and threshold and at least the bar; not
 * when even the interval's top stays below the bar; else could not tell.
 * Indicative comparisons (no interval) go by the point ratio alone.
 */
static enum r0_answer answer_of(const struct r0_cmp *c)
{
	if (c->sign > 0 && c->ratio >= R0_WORTH_SPEEDUP)
		return R0_ANSWER_WORTH;
	if (c->hi < R0_WORTH_SPEEDUP)
		return R0_ANSWER_NOT;
	return R0_ANSWER_UNSURE;
}

int r0_rank_speedups(struct r0_analysis *a)
{
	for (size_t k = 0; k < a->n_cell; k++) {
		struct r0_cell *c = &a->cell[k];
		const struct r0_wl *wl = &a->wl[c->wl];
		int err;

		if (!wl->base.n || !c->bps.n || wl->base.med <= 0)
			continue;
		err = r0_compare_one(c->bps_v, c->bps.n, wl->base_v, wl->base.n, &a->cmp, &c->vs_base);
		if (err)
			return err;
		c->speedup = (struct r0_stat){ c->vs_base.ratio, c->vs_base.lo, c->vs_base.hi, c->bps.n };
		c->efficiency = c->speedup.med / c->n_members;
		if (c->layer != R0_LAYER_RAW && c->vs_base.min_n < a->min_repeats)
			a->min_repeats = c->vs_base.min_n;
		/*
		 * A CPU limit on the single drive's side skews the ratio either
		 * way; on the array's side it only holds the array back, so a
		 * gain beyond noise stands (as a lower bound) and anything
		 * less cannot be told.
		 */
		c->answer = answer_of(&c->vs_base);
		if (wl->base_cpu_busy >= R0_CPU_BOUND ||
		    (c->cpu_busy >= R0_CPU_BOUND && c->answer != R0_ANSWER_WORTH))
			c->answer = R0_ANSWER_CPU;
	}
	return 0;
}

const struct r0_cell *r0_rank_best_cell(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
					size_t wl)
{
	const struct r0_cell *b = NULL;

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->n_members == n && c->wl == wl && c->bps.n &&
		    (!b || c->bps.med > b->bps.med))
			b = c;
	}
	return b;
}

size_t r0_rank_n_chunks(const struct r0_analysis *a, enum r0_layer layer, unsigned n, size_t wl)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n_cell; i++)
		k += a->cell[i].layer == layer && a->cell[i].n_members == n && a->cell[i].wl == wl &&
		     a->cell[i].bps.n;
	return k;
}

/* Per workload, layer and member count: which chunks cannot be told from the best. */
int r0_rank_ties(struct r0_analysis *a)
{
	for (size_t i = 0; i < a->n_cell; i++) {
		struct r0_cell *c = &a->cell[i];
		const struct r0_cell *b;
		struct r0_cmp_opts o;
		struct r0_cmp x;
		int err;

		if (c->layer == R0_LAYER_RAW || !c->bps.n)
			continue;
		b = r0_rank_best_cell(a, c->layer, c->n_members, c->wl);
		if (b == c || b->bps.med <= 0) {   /* nothing moved at all: nothing to tell apart */
			c->tie_best = true;
			continue;
		}
		o = r0_cmp_opts_best_of(&a->cmp, r0_rank_n_chunks(a, c->layer, c->n_members, c->wl));
		err = r0_compare_one(c->bps_v, c->bps.n, b->bps_v, b->bps.n, &o, &x);
		if (err)
			return err;
		c->tie_best = x.sign >= 0;
	}
	return 0;
}

int r0_analysis_best_chunk(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
			   size_t wl, uint32_t *best, uint32_t *tied, size_t max, size_t *n_tied)
{
	const struct r0_cell *b = r0_rank_best_cell(a, layer, n, wl);

	if (!b)
		return -ENOENT;
	*best = b->chunk_bytes;
	*n_tied = 0;
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->n_members == n && c->wl == wl && c->tie_best && *n_tied < max)
			tied[(*n_tied)++] = c->chunk_bytes;
	}
	return 0;
}

static int cmp_choice(const void *x, const void *y)
{
	const struct r0_choice *a = x, *b = y;

	if (a->incomplete != b->incomplete)
		return a->incomplete ? 1 : -1;
	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	if (a->layer != b->layer)
		return (int)a->layer - (int)b->layer;
	return a->chunk_bytes < b->chunk_bytes ? -1 : a->chunk_bytes > b->chunk_bytes;
}

/*
 * Compares choice X at NX members with choice Y at NY (Y NULL: the
 * baseline) under the mix: one term a workload, weighted, both sides'
 * repeats, by O. 0 or -errno.
 */
int r0_rank_compare(const struct r0_analysis *a, const struct r0_choice *x, unsigned nx,
		    const struct r0_choice *y, unsigned ny, const struct r0_cmp_opts *o, struct r0_cmp *out)
{
	struct r0_cmp_term *t = calloc(a->n_wl ? a->n_wl : 1, sizeof(*t));
	size_t n = 0;
	int err;

	if (!t)
		return -ENOMEM;
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *cx = r0_analysis_cell(a, x->layer, x->chunk_bytes, nx, w);
		const struct r0_cell *cy = y ? r0_analysis_cell(a, y->layer, y->chunk_bytes, ny, w) : NULL;

		if (!cx || !cx->bps.n || a->wl[w].weight <= 0 || !a->wl[w].base.n || a->wl[w].base.med <= 0)
			continue;
		if (y && (!cy || !cy->bps.n))
			continue;
		/* weight / the baseline's median: the ratio of sums is that of the mix's speed-ups */
		t[n++] = (struct r0_cmp_term){ cx->bps_v, cx->bps.n, y ? cy->bps_v : a->wl[w].base_v,
					       y ? cy->bps.n : a->wl[w].base.n,
					       a->wl[w].weight / a->wl[w].base.med };
	}
	err = n ? r0_compare(t, n, o, out) : -ENODATA;
	free(t);
	return err;
}

/* Where choice X loses most against the best, per workload beyond noise; else under the mix. */
static void find_loss(const struct r0_analysis *a, struct r0_choice *x, const struct r0_choice *best)
{
	struct r0_cmp_opts o = r0_cmp_opts_best_of(&a->cmp, a->n_choice);
	double worst = 2;
	size_t ww = 0;

	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *cx = r0_analysis_cell(a, x->layer, x->chunk_bytes, a->max_members, w);
		const struct r0_cell *cb = r0_analysis_cell(a, best->layer, best->chunk_bytes, a->max_members, w);
		struct r0_cmp c;

		if (!cx || !cb || !cx->bps.n || !cb->bps.n || a->wl[w].weight <= 0 ||
		    r0_compare_one(cx->bps_v, cx->bps.n, cb->bps_v, cb->bps.n, &o, &c) || c.sign >= 0)
			continue;
		if (c.ratio < worst) {
			worst = c.ratio;
			ww = w;
		}
	}
	x->loses = true;
	x->loss_wl = worst < 2 ? ww : a->n_wl;
	x->loss_ratio = worst < 2 ? worst : x->vs_best.ratio;
}

/* The pick rule: nearest 512K in powers of two, the larger on a tie, md before dm. */
static bool picks_before(const struct r0_choice *x, const struct r0_choice *y)
{
	double dx = fabs(log2((double)x->chunk_bytes) - 19), dy = fabs(log2((double)y->chunk_bytes) - 19);

	if (dx != dy)
		return dx < dy;
	if (x->chunk_bytes != y->chunk_bytes)
		return x->chunk_bytes > y->chunk_bytes;
	return x->layer < y->layer;
}

/* Choices without a figure for a workload of the mix that another choice has: see r0_choice. */
static void mark_incomplete(struct r0_analysis *a)
{
	for (size_t w = 0; w < a->n_wl; w++) {
		bool any = false;

		if (a->wl[w].weight <= 0)
			continue;
		for (size_t k = 0; k < a->n_choice && !any; k++) {
			const struct r0_cell *c = r0_analysis_cell(a, a->choice[k].layer,
								   a->choice[k].chunk_bytes, a->max_members, w);

			any = c && c->bps.n;
		}
		for (size_t k = 0; k < a->n_choice && any; k++) {
			struct r0_choice *ch = &a->choice[k];
			const struct r0_cell *c = r0_analysis_cell(a, ch->layer, ch->chunk_bytes, a->max_members, w);

			if ((c && c->bps.n) || ch->incomplete)
				continue;
			ch->incomplete = true;
			ch->missing_wl = w;
		}
	}
}

int r0_rank_choices(struct r0_analysis *a)
{
	struct r0_cmp_opts best_opts;
	int err;

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		struct r0_choice *ch = NULL;

		if (c->layer == R0_LAYER_RAW || c->n_members != a->max_members)
			continue;
		for (size_t k = 0; k < a->n_choice; k++)
			if (a->choice[k].layer == c->layer && a->choice[k].chunk_bytes == c->chunk_bytes)
				ch = &a->choice[k];
		if (ch)
			continue;
		ch = realloc(a->choice, (a->n_choice + 1) * sizeof(*ch));
		if (!ch)
			return -ENOMEM;
		a->choice = ch;
		ch = &a->choice[a->n_choice++];
		memset(ch, 0, sizeof(*ch));
		ch->layer = c->layer;
		ch->chunk_bytes = c->chunk_bytes;
	}
	mark_incomplete(a);
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_choice *ch = &a->choice[k];
		struct r0_cmp c;

		err = r0_rank_compare(a, ch, a->max_members, NULL, 0, &a->cmp, &c);
		if (err == -ENODATA)
			continue;
		if (err)
			return err;
		ch->vs_base = c;
		ch->score = c.ratio;
		ch->score_min = c.lo;
		ch->score_max = c.hi;
	}
	if (a->n_choice)   /* a->choice is NULL without one, which qsort may not be given */
		qsort(a->choice, a->n_choice, sizeof(*a->choice), cmp_choice);
	a->has_choice = a->n_choice > 0 && a->choice[0].score > 0 && !a->choice[0].incomplete;
	if (!a->has_choice)
		return 0;
	best_opts = r0_cmp_opts_best_of(&a->cmp, a->n_choice);
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_choice *ch = &a->choice[k];

		if (!k) {
			ch->tie_best = true;
			ch->vs_best = (struct r0_cmp){ .ratio = 1, .lo = 1, .hi = 1 };
			continue;
		}
		if (ch->incomplete)
			continue;
		err = r0_rank_compare(a, ch, a->max_members, &a->choice[0], a->max_members, &best_opts, &ch->vs_best);
		if (err && err != -ENODATA)
			return err;
		ch->tie_best = !err && ch->vs_best.sign >= 0;
		if (!err && !ch->tie_best)
			find_loss(a, ch, &a->choice[0]);
	}
	a->pick = 0;
	for (size_t k = 1; k < a->n_choice; k++)
		if (a->choice[k].tie_best && picks_before(&a->choice[k], &a->choice[a->pick]))
			a->pick = k;
	a->answer = answer_of(&a->choice[a->pick].vs_base);
	{
		/* most of the mix's weight on workloads the CPU limited: the mix cannot tell either */
		double cpu = 0;

		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, a->choice[a->pick].layer,
								   a->choice[a->pick].chunk_bytes, a->max_members, w);

			if (c && c->answer == R0_ANSWER_CPU)
				cpu += a->wl[w].weight;
		}
		if (a->answer != R0_ANSWER_WORTH && cpu >= 0.5)
			a->answer = R0_ANSWER_CPU;
	}
	a->worth = a->answer == R0_ANSWER_WORTH;
	return 0;
}

/*
 * Whether the n-th member added little at CHUNK for workload W: n - 1
 * scaled well there, n give at most 1 + R0_SHARED_GAIN / (n - 1) of n - 1
 * and fall short of n / (n - 1) of n - 1 beyond noise (n - 1's repeats
 * scaled to clean scaling, compared by the module's own rule). *VS gets
 * n against n - 1 when both were measured (ratio 0 otherwise).
 */
static int added_little(const struct r0_analysis *a, enum r0_layer layer, uint32_t chunk, size_t w,
			struct r0_cmp *vs, bool *little)
{
	unsigned n = a->max_members;
	const struct r0_cell *cn = r0_analysis_cell(a, layer, chunk, n, w);
	const struct r0_cell *cp = r0_analysis_cell(a, layer, chunk, n - 1, w);
	struct r0_cmp clean;
	double *scaled;
	int err;

	*little = false;
	if (!cn || !cp || !cn->bps.n || !cp->bps.n || !cp->speedup.n || cp->bps.med <= 0)
		return 0;
	err = r0_compare_one(cn->bps_v, cn->bps.n, cp->bps_v, cp->bps.n, &a->cmp, vs);
	if (err || !(cp->vs_base.sign > 0 && cp->efficiency >= R0_SCALED_EFF) ||
	    vs->ratio > 1 + R0_SHARED_GAIN / (double)(n - 1))
		return err;
	scaled = malloc(cp->bps.n * sizeof(*scaled));
	if (!scaled)
		return -ENOMEM;
	for (size_t k = 0; k < cp->bps.n; k++)
		scaled[k] = cp->bps_v[k] * n / (double)(n - 1);
	err = r0_compare_one(cn->bps_v, cn->bps.n, scaled, cp->bps.n, &a->cmp, &clean);
	free(scaled);
	*little = !err && clean.sign < 0;
	return err;
}

/*
 * Diminishing returns at the pick, from the data alone: per workload, the
 * n-th member added little at the pick's chunk (added_little) and also at
 * the chunk where n members did best on that workload. A limit the members
 * share caps every chunk; a shortfall the best chunk does not show is the
 * pick's chunk at work (too few requests per member), not a shared limit.
 */
int r0_rank_shared(struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	int err = 0;

	if (a->max_members < 3)
		return 0;
	for (size_t w = 0; w < a->n_wl && !err; w++) {
		const struct r0_cell *best = r0_rank_best_cell(a, pick->layer, a->max_members, w);
		struct r0_wl *wl = &a->wl[w];
		struct r0_cmp at_best;
		bool little;

		err = added_little(a, pick->layer, pick->chunk_bytes, w, &wl->vs_fewer, &little);
		if (!err && little && best && best->chunk_bytes != pick->chunk_bytes)
			err = added_little(a, pick->layer, best->chunk_bytes, w, &at_best, &little);
		wl->shared_limit = !err && little;
		a->shared_limit |= wl->shared_limit;
	}
	return err;
}

/*
 * How many members to build, by one rule and the module's own comparison:
 * from 2 up, the first count at the pick whose speed-up under the mix no
 * larger count beats (sign > 0: beyond the threshold and, with enough
 * repeats, the interval excludes 1) and whose answer against one drive is
 * the largest array's, so fewer drives never turn "worth it" into "could
 * not tell". A drive whose gain cannot be told is not one to buy.
 */
int r0_rank_build(struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	enum r0_answer want = answer_of(&pick->vs_base);

	a->build_members = a->max_members;
	a->build_vs_base = pick->vs_base;
	for (unsigned m = 2; m < a->max_members; m++) {
		struct r0_cmp base, more = { 0 };
		bool beaten = false;
		int err = r0_rank_compare(a, pick, m, NULL, 0, &a->cmp, &base);

		if (err == -ENODATA)
			continue;
		if (err)
			return err;
		if (answer_of(&base) != want)
			continue;
		for (unsigned k = m + 1; k <= a->max_members && !beaten; k++) {
			struct r0_cmp c;

			err = r0_rank_compare(a, pick, k, pick, m, &a->cmp, &c);
			if (err == -ENODATA)
				continue;
			if (err)
				return err;
			beaten = c.sign > 0;
			if (k == a->max_members)
				more = c;
		}
		if (beaten || more.ratio <= 0)
			continue;
		a->build_members = m;
		a->build_vs_base = base;
		a->more_vs_build = more;
		break;
	}
	return 0;
}
