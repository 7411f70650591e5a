// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis's judgements, in numbers: each cell against the single
 * drive, the chunks that cannot be told from the best, the candidates
 * scored under the mix and the pick among the best, a limit the members
 * share, and how many members to build (r0/analysis.h). The words are
 * lib/study/verdict.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r0/analysis.h"
#include "r0/geometry.h"
#include "analysis_steps.h"
#include "grow.h"

static double worth_bar(const struct r0_analysis *a)
{
	return a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP;
}

static double gain_bar(const struct r0_analysis *a)
{
	return a->cmp.drive_gain > 0 ? a->cmp.drive_gain : R0_DRIVE_GAIN;
}

int r0_rank_cmp_cells(const struct r0_cell *x, const struct r0_cell *y, const struct r0_cmp_opts *o,
		      struct r0_cmp *out)
{
	struct r0_cmp_term t = { x->bps_v, x->bps.n, y->bps_v, y->bps.n, 1, x->var_log, x->df_log, y->var_log,
				 y->df_log, x->pass_v, y->pass_v };

	return r0_compare(&t, 1, o, out);
}

/* Cell C against its workload's single drive. */
static int cmp_base(const struct r0_analysis *a, const struct r0_cell *c, const struct r0_cmp_opts *o,
		    struct r0_cmp *out)
{
	const struct r0_wl *wl = &a->wl[c->wl];
	struct r0_cmp_term t = { c->bps_v, c->bps.n, wl->base_v, wl->base.n, 1, c->var_log, c->df_log,
				 wl->base_var, wl->base_df, c->pass_v, wl->base_pass };

	return r0_compare(&t, 1, o, out);
}

/*
 * Against a bar (worth it: R0_WORTH_SPEEDUP), from a comparison C of the
 * array with the baseline: the interval's bottom at the bar or above;
 * likely, when the point reaches it and the gain is beyond noise but the
 * bottom does not; not, when even the interval's top stays below the
 * bar; else could not tell. Indicative comparisons (no interval) go by
 * the point ratio alone.
 */
static enum r0_answer answer_of(const struct r0_cmp *c, double bar)
{
	if (c->sign > 0 && c->lo >= bar)
		return R0_ANSWER_WORTH;
	if (c->sign > 0 && c->ratio >= bar)
		return R0_ANSWER_LIKELY;
	if (c->hi < bar)
		return R0_ANSWER_NOT;
	return R0_ANSWER_UNSURE;
}

int r0_rank_speedups(struct r0_analysis *a)
{
	for (size_t k = 0; k < a->n_cell; k++) {
		struct r0_cell *c = &a->cell[k];
		const struct r0_wl *wl = &a->wl[c->wl];
		int err;

		memset(&c->vs_base, 0, sizeof(c->vs_base));
		memset(&c->speedup, 0, sizeof(c->speedup));
		c->efficiency = 0;
		c->answer = R0_ANSWER_NONE;
		if (!wl->base.n || !c->bps.n || wl->base.med <= 0)
			continue;
		err = cmp_base(a, c, &a->cmp_bar, &c->vs_base);
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
		c->answer = answer_of(&c->vs_base, worth_bar(a));
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
		o = r0_cmp_opts_best_of(&a->cmp_diff, r0_rank_n_chunks(a, c->layer, c->n_members, c->wl));
		err = r0_rank_cmp_cells(c, b, &o, &x);
		if (err)
			return err;
		/* the noise unknown (indicative): the figures rank, they tell nothing apart */
		c->tie_best = x.indicative || x.sign >= 0;
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
		/*
		 * As time (Amdahl's law), weight x the baseline's median: the
		 * workload's share of one drive's time at the rate of 1, so a side
		 * sums to the time the mix's I/O takes there. As rates, weight / the
		 * baseline's median: the ratio of sums is that of the mean speed-ups.
		 */
		t[n++] = (struct r0_cmp_term){ cx->bps_v, cx->bps.n, y ? cy->bps_v : a->wl[w].base_v,
					       y ? cy->bps.n : a->wl[w].base.n,
					       o->by_time ? a->wl[w].weight * a->wl[w].base.med :
							    a->wl[w].weight / a->wl[w].base.med,
					       cx->var_log, cx->df_log,
					       y ? cy->var_log : a->wl[w].base_var, y ? cy->df_log : a->wl[w].base_df,
					       cx->pass_v, y ? cy->pass_v : a->wl[w].base_pass };
	}
	err = n ? r0_compare(t, n, o, out) : -ENODATA;
	free(t);
	return err;
}

/* Where choice X loses most against the best, per workload beyond noise; else under the mix. */
static void find_loss(const struct r0_analysis *a, struct r0_choice *x, const struct r0_choice *best)
{
	struct r0_cmp_opts o = r0_cmp_opts_best_of(&a->cmp_diff, a->n_choice);
	double worst = 2;
	size_t ww = 0;

	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *cx = r0_analysis_cell(a, x->layer, x->chunk_bytes, a->max_members, w);
		const struct r0_cell *cb = r0_analysis_cell(a, best->layer, best->chunk_bytes, a->max_members, w);
		struct r0_cmp c;

		if (!cx || !cb || !cx->bps.n || !cb->bps.n || a->wl[w].weight <= 0 ||
		    r0_rank_cmp_cells(cx, cb, &o, &c) || c.sign >= 0)
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

bool r0_rank_picks_before(const struct r0_choice *x, const struct r0_choice *y)
{
	double mdadm = log2(R0_MDADM_CHUNK_BYTES);
	double dx = fabs(log2((double)x->chunk_bytes) - mdadm), dy = fabs(log2((double)y->chunk_bytes) - mdadm);

	if (dx != dy)
		return dx < dy;
	if (x->chunk_bytes != y->chunk_bytes)
		return x->chunk_bytes > y->chunk_bytes;
	return x->layer < y->layer;
}

bool r0_rank_counts_measured(const struct r0_analysis *a, const struct r0_choice *c)
{
	for (unsigned m = 2; m < a->max_members; m++) {
		bool any = false;

		for (size_t w = 0; w < a->n_wl && !any; w++) {
			const struct r0_cell *x = r0_analysis_cell(a, c->layer, c->chunk_bytes, m, w);

			any = x && x->bps.n;
		}
		if (!any)
			return false;
	}
	return true;
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

/* The answer under the mix at counts_at and the largest count against the worth-it bar. */
static void answer_at_counts(struct r0_analysis *a)
{
	const struct r0_choice *at = &a->choice[a->counts_at];
	/* most of the mix's weight on workloads the CPU limited: the mix cannot tell either */
	double cpu = 0;

	a->answer = answer_of(&at->vs_base, worth_bar(a));
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = r0_analysis_cell(a, at->layer, at->chunk_bytes, a->max_members, w);

		if (c && c->answer == R0_ANSWER_CPU)
			cpu += a->wl[w].weight;
	}
	if (a->answer != R0_ANSWER_WORTH && cpu >= 0.5)
		a->answer = R0_ANSWER_CPU;
	a->worth = a->answer == R0_ANSWER_WORTH;
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

		err = r0_rank_compare(a, ch, a->max_members, NULL, 0, &a->cmp_primary, &c);
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
	best_opts = r0_cmp_opts_best_of(&a->cmp_diff, a->n_choice);
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
		/* the noise unknown (indicative): the figures rank, they name no loser */
		ch->too_noisy = !err && !ch->vs_best.indicative && ch->vs_best.sign >= 0 &&
				ch->vs_best.ratio < R0_TOO_NOISY;
		ch->tie_best = !err && (ch->vs_best.indicative || ch->vs_best.sign >= 0) && !ch->too_noisy;
		if (!err && !ch->tie_best && !ch->too_noisy)
			find_loss(a, ch, &a->choice[0]);
	}
	/* the best measured, unless another is shown within R0_PICK_MARGIN of it and preferred */
	a->pick = 0;
	for (size_t k = 1; k < a->n_choice; k++) {
		const struct r0_choice *ch = &a->choice[k];
		struct r0_cmp close;

		if (!ch->tie_best || ch->incomplete ||
		    r0_rank_compare(a, ch, a->max_members, &a->choice[0], a->max_members, &a->cmp, &close) ||
		    close.lo * (1 + R0_PICK_MARGIN) < 1)
			continue;
		if (r0_rank_picks_before(ch, &a->choice[a->pick]))
			a->pick = k;
	}
	/*
	 * How many drives is answered at the pick; where it lacks a count, at
	 * the set's choice that has them all: the pick moves there for the
	 * count (r0_rank_build), and back should that count be the largest,
	 * where every choice was measured (r0_rank_pick_back).
	 */
	a->pick_best = a->pick;
	a->pick_for_counts = false;
	for (size_t k = 0; !r0_rank_counts_measured(a, &a->choice[a->pick]) && k < a->n_choice; k++)
		if (a->choice[k].tie_best && !a->choice[k].incomplete && r0_rank_counts_measured(a, &a->choice[k])) {
			a->pick = k;
			a->pick_for_counts = true;
			break;
		}
	a->counts_at = a->pick;
	answer_at_counts(a);
	{
		/*
		 * A mix of one workload is that workload: its cell at the pick
		 * is the mix's comparison, tested in the bar's family at a
		 * stricter level; it says the mix's answer, so the two never
		 * disagree on one screen.
		 */
		size_t only = a->n_wl, n = 0;

		for (size_t w = 0; w < a->n_wl; w++)
			if (a->wl[w].weight > 0)
				only = w, n++;
		for (size_t k = 0; n == 1 && k < a->n_cell; k++) {
			struct r0_cell *c = &a->cell[k];

			if (c->wl == only && c->layer == a->choice[a->pick].layer && c->speedup.n &&
			    c->chunk_bytes == a->choice[a->pick].chunk_bytes && c->n_members == a->max_members)
				c->answer = a->answer;
		}
	}
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
	err = r0_rank_cmp_cells(cn, cp, &a->cmp_diff, vs);
	if (err || !(cp->vs_base.sign > 0 && cp->efficiency >= R0_SCALED_EFF) ||
	    vs->ratio > 1 + R0_SHARED_GAIN / (double)(n - 1))
		return err;
	scaled = malloc(cp->bps.n * sizeof(*scaled));
	if (!scaled)
		return -ENOMEM;
	for (size_t k = 0; k < cp->bps.n; k++)
		scaled[k] = cp->bps_v[k] * n / (double)(n - 1);
	{
		struct r0_cell clean_cell = *cp;

		clean_cell.bps_v = scaled;
		err = r0_rank_cmp_cells(cn, &clean_cell, &a->cmp_diff, &clean);
	}
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
	const struct r0_choice *pick = &a->choice[a->counts_at];   /* where the counts were measured */
	int err = 0;

	a->shared_limit = false;
	if (a->max_members < 3)
		return 0;
	for (size_t w = 0; w < a->n_wl && !err; w++) {
		const struct r0_cell *best = r0_rank_best_cell(a, pick->layer, a->max_members, w);
		struct r0_wl *wl = &a->wl[w];
		struct r0_cmp at_best;
		bool little;

		memset(&wl->vs_fewer, 0, sizeof(wl->vs_fewer));
		err = added_little(a, pick->layer, pick->chunk_bytes, w, &wl->vs_fewer, &little);
		if (!err && little && best && best->chunk_bytes != pick->chunk_bytes)
			err = added_little(a, pick->layer, best->chunk_bytes, w, &at_best, &little);
		wl->shared_limit = !err && little;
		/* the verdict speaks of a shared limit only where it holds back the drive not bought */
		a->shared_limit |= wl->shared_limit && a->build_members < a->max_members;
	}
	return err;
}

/*
 * What each drive adds at the pick under the mix, every count measured:
 * 2 against one drive, each more against one fewer (drive_step). 0 or
 * -errno.
 */
static int drive_steps(struct r0_analysis *a, const struct r0_choice *pick)
{
	for (unsigned m = 2; m <= a->max_members && m <= R0_MAX_MEMBERS; m++) {
		int err = 0;

		if (m == a->max_members && m == 2)
			a->drive_step[m] = pick->vs_base;   /* as the bar judged it */
		else
			err = r0_rank_compare(a, pick, m, m == 2 ? NULL : pick, m - 1, &a->cmp_primary,
					      &a->drive_step[m]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * How many members to build, at the pick, from what was measured: every
 * count from 2 up must have been measured (a count not measured is never
 * answered: build_decided false, build_unmeasured the first missing).
 * Then the fewest count whose point reaches the worth-it bar beyond noise
 * (worth it, or likely), and from there one more drive at a time while
 * the m-th gives at least the drive gain (R0_DRIVE_GAIN) of m - 1 by the
 * worth-it rule (its interval's bottom). So no drive is bought that the
 * bar does not need or that does not pay, and the answer said is the
 * built count's own ("likely worth it with 2 of them" where 2 are not
 * yet shown). None: the answer at the largest count stands.
 */
int r0_rank_build(struct r0_analysis *a)
{
	const struct r0_choice *pick;
	unsigned n = a->max_members, fewest = 0;
	int err;

	pick = &a->choice[a->counts_at];
	a->build_members = n;
	a->build_decided = true;
	a->build_unmeasured = 0;
	a->build_fewest = 0;
	a->build_vs_base = pick->vs_base;
	memset(&a->more_vs_build, 0, sizeof(a->more_vs_build));
	memset(&a->fewer_vs_base, 0, sizeof(a->fewer_vs_base));
	memset(a->drive_step, 0, sizeof(a->drive_step));
	for (unsigned m = 2; m <= n && !fewest; m++) {
		struct r0_cmp base;

		err = m == n ? 0 : r0_rank_compare(a, pick, m, NULL, 0, &a->cmp_primary, &base);
		if (err == -ENODATA) {
			a->build_decided = a->answer != R0_ANSWER_WORTH && a->answer != R0_ANSWER_LIKELY;
			a->build_unmeasured = a->build_decided ? 0 : m;
			return 0;
		}
		if (err)
			return err;
		enum r0_answer ans = answer_of(m == n ? &pick->vs_base : &base, worth_bar(a));

		if (ans == R0_ANSWER_WORTH || ans == R0_ANSWER_LIKELY)
			fewest = m;
	}
	/* not worth it at any count: the largest array's answer is the study's */
	if (!fewest)
		return 0;
	a->build_members = fewest;
	a->build_fewest = fewest;
	if ((err = drive_steps(a, pick)))
		return err;
	memset(&a->fewer_vs_base, 0, sizeof(a->fewer_vs_base));
	if (fewest > 2 && (err = r0_rank_compare(a, pick, fewest - 1, NULL, 0, &a->cmp_primary, &a->fewer_vs_base)))
		return err;
	for (unsigned m = fewest + 1; m <= n; m++) {
		if (answer_of(&a->drive_step[m], gain_bar(a)) != R0_ANSWER_WORTH)
			break;
		a->build_members = m;
	}
	if (a->build_members == n) {
		a->answer = answer_of(&a->build_vs_base, worth_bar(a));
		a->worth = a->answer == R0_ANSWER_WORTH;
		return 0;
	}
	err = r0_rank_compare(a, pick, n, pick, a->build_members, &a->cmp_primary, &a->more_vs_build);
	if (!err)
		err = r0_rank_compare(a, pick, a->build_members, NULL, 0, &a->cmp_primary, &a->build_vs_base);
	if (!err) {
		a->answer = answer_of(&a->build_vs_base, worth_bar(a));
		a->worth = a->answer == R0_ANSWER_WORTH;
	}
	return err;
}

/* A growing list of p-values. */
struct pvals {
	double *p;
	size_t n, cap;
};

static int add_p(struct pvals *v, double p)
{
	if (r0_grow(&v->p, &v->cap, v->n, sizeof(*v->p), 32))
		return -ENOMEM;
	v->p[v->n++] = p < 1 ? p : 1;
	return 0;
}

/*
 * The claims a study's words can make, each with its p-value at the
 * level it is judged at (a best-of's pairs and the looks folded in):
 * DIFF, every chunk against its group's best and every choice against the
 * best under the mix; PRIMARY, the verdict's own answers under the mix
 * (the pick against the worth-it bar, each drive's gain against the drive
 * gain); BAR, each workload's answer on the pick against the worth-it bar.
 */
static int collect(const struct r0_analysis *a, struct pvals *diff, struct pvals *bar, struct pvals *primary)
{
	int err = 0;

	for (size_t i = 0; i < a->n_cell && !err; i++) {
		const struct r0_cell *c = &a->cell[i];
		const struct r0_cell *b;
		size_t k;
		struct r0_cmp x;

		if (c->layer == R0_LAYER_RAW || !c->bps.n)
			continue;
		b = r0_rank_best_cell(a, c->layer, c->n_members, c->wl);
		k = r0_rank_n_chunks(a, c->layer, c->n_members, c->wl);
		if (b == c || !b || b->bps.med <= 0)
			continue;
		err = r0_rank_cmp_cells(c, b, &a->cmp_diff, &x);
		if (!err)
			err = add_p(diff, x.p * (k > 2 ? (double)k * (double)(k - 1) / 2 : 1));
	}
	if (!a->has_choice)
		return err;
	for (size_t k = 1; k < a->n_choice && !err; k++)
		if (!a->choice[k].incomplete && a->choice[k].vs_best.ratio > 0)
			err = add_p(diff, a->choice[k].vs_best.p *
					  (a->n_choice > 2 ? (double)a->n_choice * (double)(a->n_choice - 1) / 2 : 1));
	{
		const struct r0_choice *pick = &a->choice[a->counts_at];   /* the money answers' choice */
		unsigned looks = a->cmp_bar.looks;

		if (!err)
			err = add_p(primary, r0_cmp_p_beyond(&pick->vs_base, worth_bar(a), looks));
		for (unsigned m = 3; m <= a->max_members && !err; m++) {
			struct r0_cmp step;

			if (!r0_rank_compare(a, pick, m, pick, m - 1, &a->cmp_primary, &step))
				err = add_p(primary, r0_cmp_p_beyond(&step, gain_bar(a), looks));
		}
		for (size_t w = 0; w < a->n_wl && !err; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes, a->max_members, w);

			if (c && c->speedup.n)
				err = add_p(bar, r0_cmp_p_beyond(&c->vs_base, worth_bar(a), looks));
		}
	}
	return err;
}

/*
 * The pick moved to a choice measured at every count (pick_for_counts) for
 * how many drives; if the count built is the largest, where every choice
 * was measured, the chunk is picked as it would be without the counts: the
 * preferred choice of the set (pick_best). The money answers (worth it,
 * how many drives, the verdict's figure) stay where they were made, at
 * counts_at: read off the best of several choices the data cannot tell
 * apart, a claim against the bar would carry that choice's luck (the
 * winner's curse: a true 1.15x "worth it" in 12 % of studies under the
 * demo's bank at 2.3 s cells, 4 % at counts_at). A smaller count keeps
 * the pick at counts_at: a configuration recommended is one measured.
 */
static void pick_back(struct r0_analysis *a)
{
	if (!a->pick_for_counts || !a->build_decided || a->build_members != a->max_members)
		return;
	a->pick = a->pick_best;
	a->pick_for_counts = false;
}

static int rank_once(struct r0_analysis *a)
{
	int err;

	free(a->choice);
	a->choice = NULL;
	a->n_choice = 0;
	a->has_choice = false;
	a->shared_limit = false;
	a->min_repeats = UINT32_MAX;
	err = r0_rank_speedups(a);
	if (!err)
		err = r0_rank_ties(a);
	if (!err)
		err = r0_rank_choices(a);
	if (!err && a->has_choice)
		err = r0_rank_build(a);
	if (!err && a->has_choice)
		pick_back(a);
	if (!err && a->has_choice)
		err = r0_rank_shared(a);
	return err;
}

/* The family's level: confidence 1 - LEVEL, the looks already in its p-values. */
static struct r0_cmp_opts at_level(const struct r0_cmp_opts *o, double level)
{
	struct r0_cmp_opts l = *o;

	l.confidence = 1 - level;
	l.looks = 1;
	return l;
}

/*
 * A claim against a bar ("worth it": the bottom at the bar; "not": the
 * top under it) is wrong on one side only, so its error is one tail: the
 * two-sided interval at 1 - 2 x LEVEL bounds each claim at LEVEL, as the
 * two one-sided tests of an equivalence test do. Within the looks' share
 * when LOOKS (the first ranking, before the family's level is known).
 */
static struct r0_cmp_opts one_sided(const struct r0_cmp_opts *o, double level, bool looks)
{
	struct r0_cmp_opts l = looks ? *o : at_level(o, level);

	l.confidence = 1 - 2 * (looks ? 1 - o->confidence : level);
	if (l.confidence < 0.5)
		l.confidence = 0.5;
	return l;
}

/* Benjamini-Hochberg's level over the family P at rate Q, at most Q. */
static double family_level(const struct pvals *p, double q)
{
	double l = r0_cmp_bh_level(p->p, p->n, q);

	return l > q || !(l > 0) ? q : l;
}

int r0_rank_all(struct r0_analysis *a)
{
	struct pvals diff = { 0 }, bar = { 0 }, primary = { 0 };
	double q = 1 - a->cmp.confidence;
	int err;

	a->cmp_diff = a->cmp;
	a->cmp_bar = a->cmp_primary = one_sided(&a->cmp, q, true);
	a->diff_level = a->bar_level = a->primary_level = q / (a->cmp.looks > 1 ? a->cmp.looks : 1);
	err = rank_once(a);
	/* without the pooled noise (an indicative study, or the bootstrap) each claim stands alone */
	if (err || !a->pooled)
		return err;
	err = collect(a, &diff, &bar, &primary);
	if (!err) {
		a->diff_claims = diff.n;
		a->bar_claims = bar.n;
		a->primary_claims = primary.n;
		a->diff_level = family_level(&diff, q);
		a->bar_level = family_level(&bar, q);
		a->primary_level = family_level(&primary, q);
		a->cmp_diff = at_level(&a->cmp, a->diff_level);
		a->cmp_bar = one_sided(&a->cmp, a->bar_level, false);
		a->cmp_primary = one_sided(&a->cmp, a->primary_level, false);
		err = rank_once(a);
	}
	free(diff.p);
	free(bar.p);
	free(primary.p);
	return err;
}

void r0_rank_withhold(struct r0_analysis *a)
{
	a->noise_beyond = true;
	/* against a bar: could not tell (a CPU limit stays said as it is) */
	if (a->answer == R0_ANSWER_WORTH || a->answer == R0_ANSWER_LIKELY || a->answer == R0_ANSWER_NOT)
		a->answer = R0_ANSWER_UNSURE;
	for (size_t i = 0; i < a->n_cell; i++) {
		struct r0_cell *c = &a->cell[i];

		if (c->answer == R0_ANSWER_WORTH || c->answer == R0_ANSWER_LIKELY || c->answer == R0_ANSWER_NOT)
			c->answer = R0_ANSWER_UNSURE;
		c->tie_best = true;     /* no chunk left out of a workload's best set */
	}
	/* every complete choice in the set: ranked by its figure, none told apart, none losing */
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_choice *c = &a->choice[k];

		if (c->incomplete)
			continue;
		c->tie_best = true;
		c->too_noisy = false;
		c->loses = false;
		c->loss[0] = 0;
	}
	a->build_decided = false;
}
