// SPDX-License-Identifier: GPL-2.0-or-later
/* The sweep's analysis: speed-ups, efficiency, best chunks, the verdict (r0/analysis.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "r0/analysis.h"
#include "r0/size.h"
#include "grow.h"

const char *r0_answer_name(enum r0_answer a)
{
	switch (a) {
	case R0_ANSWER_WORTH: return "worth it";
	case R0_ANSWER_NOT: return "not worth it";
	case R0_ANSWER_UNSURE: return "could not tell";
	case R0_ANSWER_CPU: return "could not tell: the measuring CPU was the limit";
	default: return "no data";
	}
}

/* ---- grouping ---- */

struct group {
	struct r0_cell c;
	size_t n, cap;
	const struct r0_sweep_rec **recs;
};

static ssize_t find_wl(const struct r0_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->n_wl; i++)
		if (!strcmp(a->wl[i].name, name))
			return (ssize_t)i;
	return -1;
}

const struct r0_cell *r0_analysis_cell(const struct r0_analysis *a, enum r0_layer layer,
				       uint32_t chunk_bytes, unsigned n_members, size_t wl)
{
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->chunk_bytes == chunk_bytes && c->n_members == n_members &&
		    c->wl == wl)
			return c;
	}
	return NULL;
}

static int group_add(struct group *g, const struct r0_sweep_rec *r)
{
	if (r0_grow(&g->recs, &g->cap, g->n, sizeof(*g->recs), 4))
		return -ENOMEM;
	g->recs[g->n++] = r;
	return 0;
}

#define STAT_OF(g, field, out)                                        \
	do {                                                          \
		for (size_t k_ = 0; k_ < (g)->n; k_++)                \
			v[k_] = (double)(g)->recs[k_]->field;         \
		r0_stat_of(v, (g)->n, (out));                         \
	} while (0)

/* The share of the time the measuring threads were on a CPU (IOPS x CPU s per I/O / jobs). */
/* The busiest job thread's own CPU share; older records lack it: then the
 * process's CPU share per job, which io_uring's workers can push past 1. */
static double busy_of(const struct r0_sweep_rec *r)
{
	return r->busy > 0 ? r->busy : r->iops * r->cpu_s_per_io / (r->jobs ? r->jobs : 1);
}

/* The cell's statistics over its error-free repeats (g->recs holds only those). */
static int fill_cell(struct group *g)
{
	double *v = malloc((g->n ? g->n : 1) * sizeof(*v));
	struct r0_cell *c = &g->c;

	if (!v)
		return -ENOMEM;
	c->bps_v = malloc((g->n ? g->n : 1) * sizeof(*c->bps_v));
	if (!c->bps_v) {
		free(v);
		return -ENOMEM;
	}
	for (size_t k = 0; k < g->n; k++)
		c->bps_v[k] = g->recs[k]->bytes_per_s;
	STAT_OF(g, bytes_per_s, &c->bps);
	STAT_OF(g, iops, &c->iops);
	STAT_OF(g, cpu_s_per_io, &c->cpu_per_io);
	STAT_OF(g, lat_mean_ns, &c->lat_mean);
	STAT_OF(g, lat_p50_ns, &c->lat_p50);
	STAT_OF(g, lat_p99_ns, &c->lat_p99);
	STAT_OF(g, lat_p999_ns, &c->lat_p999);
	STAT_OF(g, lat_p9999_ns, &c->lat_p9999);
	for (size_t k = 0; k < g->n; k++)
		v[k] = busy_of(g->recs[k]);
	c->cpu_busy = r0_median(v, g->n);
	free(v);
	return 0;
}

/*
 * A repeat that is not a measurement: I/O errors (an error in the ramp can
 * leave 0 B/s), or not one request completed in its window (a stalled
 * stack, seen as dm over null_blk in Linux 6.12: 0 B/s says nothing about
 * the drives; r0predict's cells count none). Never a median's input; the
 * report names it.
 */
static bool unmeasured(const struct r0_sweep_rec *r)
{
	return r->errors || (!r->ios && !r->predicted);
}

static bool is_base(const struct r0_sweep_rec *r, int pass)
{
	return pass == 0 ? r->layer == R0_LAYER_RAW : r->n_members == 1;
}

/* The baseline of every workload: raw records, else all 1-member stripes; error-free ones. */
static int fill_bases(struct r0_analysis *a, const struct r0_sweep_set *set)
{
	double *busy = malloc((set->n ? set->n : 1) * sizeof(*busy));

	if (!busy)
		return -ENOMEM;
	for (size_t w = 0; w < a->n_wl; w++) {
		struct r0_wl *wl = &a->wl[w];

		for (int pass = 0; pass < 2 && !wl->base.n; pass++) {
			size_t n = 0;

			for (size_t i = 0; i < set->n; i++) {
				const struct r0_sweep_rec *r = &set->recs[i];
				char name[48];

				if (!is_base(r, pass) || unmeasured(r))
					continue;
				r0_sweep_rec_workload(r, name, sizeof(name));
				if (strcmp(name, wl->name))
					continue;
				if (!wl->base_v && !(wl->base_v = malloc(set->n * sizeof(*wl->base_v)))) {
					free(busy);
					return -ENOMEM;
				}
				wl->base_v[n] = r->bytes_per_s;
				busy[n++] = busy_of(r);
			}
			if (n) {
				r0_stat_of(wl->base_v, n, &wl->base);
				wl->base_cpu_busy = r0_median(busy, n);
				wl->base_raw = pass == 0;
			}
		}
	}
	free(busy);
	return 0;
}

static void fill_weights(struct r0_analysis *a, const struct r0_mix *mix)
{
	double sum = 0;

	for (size_t w = 0; w < a->n_wl; w++) {
		struct r0_wl *wl = &a->wl[w];
		bool named = false;

		wl->weight = 0;
		for (size_t e = 0; e < mix->n; e++)
			if (!strcasecmp(mix->e[e].key, wl->name)) {
				wl->weight = mix->e[e].weight;
				named = true;
			}
		if (named)
			continue;
		for (size_t e = 0; e < mix->n; e++) {
			size_t peers = 0;

			if (strcasecmp(mix->e[e].key, wl->cls))
				continue;
			/* shared among the workloads of the class that no entry names */
			for (size_t o = 0; o < a->n_wl; o++) {
				bool o_named = false;

				for (size_t f = 0; f < mix->n; f++)
					o_named |= !strcasecmp(mix->e[f].key, a->wl[o].name);
				peers += !strcmp(a->wl[o].cls, wl->cls) && !o_named;
			}
			wl->weight = mix->e[e].weight / (double)peers;
		}
	}
	for (size_t w = 0; w < a->n_wl; w++)
		sum += a->wl[w].weight;
	for (size_t w = 0; w < a->n_wl; w++)
		a->wl[w].weight = sum > 0 ? a->wl[w].weight / sum : 0;
}

/* ---- comparisons ---- */

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

static int fill_speedups(struct r0_analysis *a)
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

/* The best cell (highest median) of workload WL on LAYER at N members, or NULL. */
static const struct r0_cell *best_cell(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
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

static size_t n_chunks_at(const struct r0_analysis *a, enum r0_layer layer, unsigned n, size_t wl)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n_cell; i++)
		k += a->cell[i].layer == layer && a->cell[i].n_members == n && a->cell[i].wl == wl &&
		     a->cell[i].bps.n;
	return k;
}

/* Per workload, layer and member count: which chunks cannot be told from the best. */
static int fill_ties(struct r0_analysis *a)
{
	for (size_t i = 0; i < a->n_cell; i++) {
		struct r0_cell *c = &a->cell[i];
		const struct r0_cell *b;
		struct r0_cmp_opts o;
		struct r0_cmp x;
		int err;

		if (c->layer == R0_LAYER_RAW || !c->bps.n)
			continue;
		b = best_cell(a, c->layer, c->n_members, c->wl);
		if (b == c || b->bps.med <= 0) {   /* nothing moved at all: nothing to tell apart */
			c->tie_best = true;
			continue;
		}
		o = r0_cmp_opts_best_of(&a->cmp, n_chunks_at(a, c->layer, c->n_members, c->wl));
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
	const struct r0_cell *b = best_cell(a, layer, n, wl);

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
static int compare_choices(const struct r0_analysis *a, const struct r0_choice *x, unsigned nx,
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

static const char *chunk_str(uint32_t bytes, char *buf, size_t len)
{
	if (r0_format_size(bytes, buf, len))
		snprintf(buf, len, "%u", bytes);
	return buf;
}

/* Where choice X loses most against the best, per workload beyond noise; else under the mix. */
static void write_loss(const struct r0_analysis *a, struct r0_choice *x, const struct r0_choice *best)
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
	if (worst < 2)
		snprintf(x->loss, sizeof(x->loss), "loses %.0f %% on %s", (1 - worst) * 100, a->wl[ww].name);
	else
		snprintf(x->loss, sizeof(x->loss), "loses %.0f %% under the mix", (1 - x->vs_best.ratio) * 100);
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
			snprintf(ch->loss, sizeof(ch->loss), "no figure for %s: not ranked", a->wl[w].name);
		}
	}
}

static int fill_choices(struct r0_analysis *a)
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

		err = compare_choices(a, ch, a->max_members, NULL, 0, &a->cmp, &c);
		if (err == -ENODATA)
			continue;
		if (err)
			return err;
		ch->vs_base = c;
		ch->score = c.ratio;
		ch->score_min = c.lo;
		ch->score_max = c.hi;
	}
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
		err = compare_choices(a, ch, a->max_members, &a->choice[0], a->max_members, &best_opts, &ch->vs_best);
		if (err && err != -ENODATA)
			return err;
		ch->tie_best = !err && ch->vs_best.sign >= 0;
		if (!err && !ch->tie_best)
			write_loss(a, ch, &a->choice[0]);
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
static int fill_shared(struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	int err = 0;

	if (a->max_members < 3)
		return 0;
	for (size_t w = 0; w < a->n_wl && !err; w++) {
		const struct r0_cell *best = best_cell(a, pick->layer, a->max_members, w);
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
static int fill_build(struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	enum r0_answer want = answer_of(&pick->vs_base);

	a->build_members = a->max_members;
	a->build_vs_base = pick->vs_base;
	for (unsigned m = 2; m < a->max_members; m++) {
		struct r0_cmp base, more = { 0 };
		bool beaten = false;
		int err = compare_choices(a, pick, m, NULL, 0, &a->cmp, &base);

		if (err == -ENODATA)
			continue;
		if (err)
			return err;
		if (answer_of(&base) != want)
			continue;
		for (unsigned k = m + 1; k <= a->max_members && !beaten; k++) {
			struct r0_cmp c;

			err = compare_choices(a, pick, k, pick, m, &a->cmp, &c);
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

/* ---- words ---- */

static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static const char *choice_str(const struct r0_choice *c, char *buf, size_t len)
{
	char ck[16];

	snprintf(buf, len, "%s %s", r0_layer_name(c->layer), chunk_str(c->chunk_bytes, ck, sizeof(ck)));
	return buf;
}

/* "A, B and C" over the choices with tie_best == SET. */
static void list_choices(const struct r0_analysis *a, bool set, char *buf, size_t len)
{
	size_t n = 0, total = 0;
	char nm[32];

	for (size_t k = 0; k < a->n_choice; k++)
		total += a->choice[k].tie_best == set;
	for (size_t k = 0; k < a->n_choice; k++) {
		if (a->choice[k].tie_best != set)
			continue;
		cat(buf, len, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ",
		    choice_str(&a->choice[k], nm, sizeof(nm)));
		n++;
	}
}

static void write_method(struct r0_analysis *a)
{
	snprintf(a->method, sizeof(a->method),
		 "Each comparison is the ratio of the two sides' median bytes/s (under a mix, of the mix-weighted speed-ups) "
		 "with a %.0f %% bootstrap interval from %u seeded resamples of both sides' repeats (against the "
		 "best of k chunks: %.1f %% / (k - 1) in each tail); a difference counts only when that interval "
		 "excludes 1 and the ratio is beyond %.0f %%, and worth it means at least %.1fx one drive by that "
		 "rule; the array to build has the fewest drives (from 2) that no more drives beat by that rule under "
		 "the mix, with the largest array's answer; with fewer than %d repeats the noise is unknown and every verdict is indicative.",
		 a->cmp.confidence * 100, a->cmp.resamples, (1 - a->cmp.confidence) * 50, a->cmp.threshold * 100,
		 R0_WORTH_SPEEDUP, R0_CMP_MIN_REPEATS);
}

static void write_chunks(struct r0_analysis *a)
{
	char *b = a->chunks, nm[32];
	size_t len = sizeof(a->chunks), n_set = 0;

	for (size_t k = 0; k < a->n_choice; k++)
		n_set += a->choice[k].tie_best;
	if (n_set > 1) {
		list_choices(a, true, b, len);
		cat(b, len, " are equivalent within %.0f %% or the noise under the %s mix", a->cmp.threshold * 100,
		    a->mix_name);
	} else {
		cat(b, len, "%s is the best under the %s mix", choice_str(&a->choice[0], nm, sizeof(nm)),
		    a->mix_name);
	}
	for (size_t k = 0; k < a->n_choice; k++)
		if (!a->choice[k].tie_best && a->choice[k].loss[0])
			cat(b, len, "; %s %s%s", choice_str(&a->choice[k], nm, sizeof(nm)),
			    a->choice[k].loss, a->choice[k].incomplete ? "" : ": avoid it");
	cat(b, len, "; pick %s%s", choice_str(&a->choice[a->pick], nm, sizeof(nm)),
	    n_set > 1 ? " (the rule: the chunk nearest 512K, mdadm's default; md before dm)" : "");
}

/* The workload with a shared limit that weighs most in the mix; n_wl if none. */
static size_t shared_lead(const struct r0_analysis *a)
{
	size_t lead = a->n_wl;

	for (size_t w = 0; w < a->n_wl; w++)
		if (a->wl[w].shared_limit && (lead == a->n_wl || a->wl[w].weight > a->wl[lead].weight))
			lead = w;
	return lead;
}

/* "3 drives: 1.15x of 2: something the members share is the limit - ... (on Seq read, 1.10-1.20; ...)." */
static void write_shared(struct r0_analysis *a)
{
	size_t lead = shared_lead(a), n = 0;
	char *s = a->shared;
	size_t len = sizeof(a->shared);

	if (lead == a->n_wl)
		return;
	cat(s, len, "%u drives: %.2fx of %u: something the members share is the limit \u2014 a controller, a link, or the CPU (",
	    a->max_members, a->wl[lead].vs_fewer.ratio, a->max_members - 1);
	for (size_t k = 0; k <= a->n_wl; k++) {
		/* the lead workload first, then the others in order */
		size_t w = k == 0 ? lead : k - 1;
		const struct r0_cmp *c = &a->wl[w].vs_fewer;

		if (!a->wl[w].shared_limit || (k && w == lead))
			continue;
		cat(s, len, "%s%s", n ? "; " : "on ", a->wl[w].name);
		if (n)
			cat(s, len, ": %.2fx", c->ratio);
		if (!c->indicative)
			cat(s, len, ", %.2f-%.2f", c->lo, c->hi);
		n++;
	}
	cat(s, len, "; clean scaling would be %.2fx).", (double)a->max_members / (a->max_members - 1));
}

static const char *ordinal(unsigned n, char *buf, size_t len)
{
	unsigned t = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;

	snprintf(buf, len, "%u%s", n, t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th");
	return buf;
}

/* "a 3rd drive adds 1.03x (1.02-1.08) under the sequential mix: something the members share is the limit" */
static void write_build(struct r0_analysis *a)
{
	const struct r0_cmp *c = &a->more_vs_build;
	char *b = a->build, th[16];
	size_t len = sizeof(a->build);

	if (a->build_members == a->max_members)
		return;
	if (a->max_members == a->build_members + 1)
		cat(b, len, "a %s drive adds %.2fx", ordinal(a->max_members, th, sizeof(th)), c->ratio);
	else
		cat(b, len, "%u more drives add %.2fx", a->max_members - a->build_members, c->ratio);
	if (!c->indicative)
		cat(b, len, " (%.2f-%.2f)", c->lo, c->hi);
	cat(b, len, " under the %s mix", a->mix_name);
	if (a->shared_limit && a->max_members == a->build_members + 1)
		cat(b, len, ": something the members share is the limit");
	else if (c->ratio <= 1 + a->cmp.threshold)
		cat(b, len, ": less than the %.0f %% that counts", a->cmp.threshold * 100);
	else
		cat(b, len, ": a gain the noise cannot tell from none");
}

/* "A, B and C": the workloads whose cell at the pick answers ANS. */
static size_t list_answer(const struct r0_analysis *a, enum r0_answer ans, char *buf, size_t len)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	size_t total = 0, n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes, a->build_members, w);

			if (!c || !c->speedup.n || c->answer != ans)
				continue;
			if (!pass) {
				total++;
				continue;
			}
			cat(buf, len, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ", a->wl[w].name);
			n++;
		}
	return total;
}

/* The verdict in one sentence: the answer under the mix, the pick, which workloads gain. */
static void write_headline(struct r0_analysis *a)
{
	static const struct { enum r0_answer ans; const char *lead; } parts[] = {
		{ R0_ANSWER_WORTH, "worth it for " }, { R0_ANSWER_NOT, "not for " },
		{ R0_ANSWER_UNSURE, "could not tell for " }, { R0_ANSWER_CPU, "the measuring CPU was the limit for " },
	};
	const struct r0_choice *pick = &a->choice[a->pick];
	const struct r0_cmp *score = &a->build_vs_base;
	char *h = a->headline, nm[32], with[32] = "";
	size_t len = sizeof(a->headline);

	if (a->build_members < a->max_members)
		snprintf(with, sizeof(with), " with %u of them", a->build_members);
	snprintf(h, len, "RAID0 of these %u drives: %s%s under the %s mix, %s at %.2fx one drive", a->max_members,
		 a->answer == R0_ANSWER_CPU ? "could not tell (the measuring CPU was the limit)"
					    : r0_answer_name(a->answer),
		 with, a->mix_name, choice_str(pick, nm, sizeof(nm)), score->ratio);
	if (!a->indicative)
		cat(h, len, " (%.2f-%.2f)", score->lo, score->hi);
	else
		cat(h, len, " (indicative: %u repeat%s)", a->min_repeats, a->min_repeats == 1 ? "" : "s");
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		char list[512] = "";

		if (!list_answer(a, parts[k].ans, list, sizeof(list)))
			continue;
		cat(h, len, "; %s%s", parts[k].lead, list);
	}
	if (a->build[0])
		cat(h, len, "; %s", a->build);
	else if (a->shared_limit)
		cat(h, len, "; %u drives: %.2fx of %u on %s: something the members share is the limit",
		    a->max_members, a->wl[shared_lead(a)].vs_fewer.ratio, a->max_members - 1,
		    a->wl[shared_lead(a)].name);
	cat(h, len, ".");
}

static void write_verdict(struct r0_analysis *a, const struct r0_mix *mix)
{
	const struct r0_choice *pick = a->has_choice ? &a->choice[a->pick] : NULL;
	static const enum r0_answer order[] = { R0_ANSWER_WORTH, R0_ANSWER_NOT, R0_ANSWER_UNSURE, R0_ANSWER_CPU };
	static const char *const lead[] = { "worth it for ", "not for ", "could not tell for ",
					    "could not tell for " };
	static const char *const tail[] = { "", "", " (within the noise)", " (the measuring CPU was the limit)" };
	char *v = a->verdict, nm[32];
	size_t len = sizeof(a->verdict), parts = 0;

	if (!pick) {
		snprintf(v, len,
			 "No verdict: the results hold no stripe of %u members measured against a single drive.",
			 a->max_members);
		return;
	}
	snprintf(v, len, "RAID0 of these %u drives: ", a->max_members);
	if (a->indicative)
		cat(v, len, "indicative: %u repeat%s, noise unknown. ", a->min_repeats,
		    a->min_repeats == 1 ? "" : "s");
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		size_t n = 0;

		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes,
								   a->max_members, w);

			if (!c || !c->speedup.n || c->answer != order[o])
				continue;
			cat(v, len, "%s%s%s (%.2fx", n ? ", " : parts ? "; " : "", n ? "" : lead[o], a->wl[w].name,
			    c->speedup.med);
			if (!c->vs_base.indicative)
				cat(v, len, ", %.2f-%.2f", c->speedup.min, c->speedup.max);
			cat(v, len, ")");
			n++;
		}
		if (n) {
			cat(v, len, "%s", tail[o]);
			parts++;
		}
	}
	cat(v, len, ". Chunk: %s. Under the %s mix %s is %.2fx a single drive", a->chunks, mix->name,
	    choice_str(pick, nm, sizeof(nm)), pick->score);
	if (!a->indicative)
		cat(v, len, " (%.2f-%.2f)", pick->score_min, pick->score_max);
	cat(v, len, ": %s.", r0_answer_name(a->answer));
	if (a->shared_limit)
		cat(v, len, " %s", a->shared);
	if (a->build[0])
		cat(v, len, " Build %u of them (%.2fx one drive): %s.", a->build_members, a->build_vs_base.ratio,
		    a->build);
}

/* "- Members at md 64K, speed-up under the mix: 2: 1.94x (...); 3: 2.01x (...); 3 of 2: 1.03x (...): build 2." */
static void write_members(const struct r0_analysis *a, char *r, size_t len)
{
	const struct r0_choice *pick = &a->choice[a->pick];
	char nm[32];

	if (a->max_members < 3)
		return;
	cat(r, len, "- Members at %s, speed-up under the mix:", choice_str(pick, nm, sizeof(nm)));
	for (unsigned n = 2; n <= a->max_members; n++) {
		struct r0_cmp c;

		if (compare_choices(a, pick, n, NULL, 0, &a->cmp, &c))
			continue;
		cat(r, len, " %u: %.2fx", n, c.ratio);
		if (!c.indicative)
			cat(r, len, " (%.2f-%.2f)", c.lo, c.hi);
		cat(r, len, ";");
	}
	if (a->build[0])
		cat(r, len, " %s; build %u.\n", a->build, a->build_members);
	else
		cat(r, len, " no fewer drives qualify: build %u.\n", a->max_members);
}

static void write_reasoning(struct r0_analysis *a, const char *excluded)
{
	char *r = a->reasoning;
	size_t len = sizeof(a->reasoning);
	char ck[32];
	bool any_raw = false;

	for (size_t w = 0; w < a->n_wl; w++)
		any_raw |= a->wl[w].base_raw;
	cat(r, len, "- Baseline: one drive measured %s; speed-up = the array's median bytes/s / the baseline's, with its interval; efficiency = speed-up / members.\n",
	    any_raw ? "raw (no array layer)" : "as a 1-member stripe (no raw run in the results)");
	if (*excluded)
		cat(r, len, "- Left out of every median (I/O errors, or no request completed in the window): %s.\n", excluded);
	cat(r, len, "- Mix %s, weights:", a->mix_name);
	for (size_t w = 0; w < a->n_wl; w++)
		if (a->wl[w].weight > 0)
			cat(r, len, " %s %.0f%%;", a->wl[w].name, a->wl[w].weight * 100);
	cat(r, len, "\n");
	if (a->has_choice) {
		cat(r, len, "- Candidates at %u members, speed-up under the mix%s:", a->max_members,
		    a->indicative ? "" : " (interval)");
		for (size_t k = 0; k < a->n_choice; k++) {
			const struct r0_choice *c = &a->choice[k];

			cat(r, len, "%s %s %s %.2fx", k ? ";" : "", r0_layer_name(c->layer),
			    chunk_str(c->chunk_bytes, ck, sizeof(ck)), c->score);
			if (!a->indicative)
				cat(r, len, " (%.2f-%.2f)", c->score_min, c->score_max);
			if (k && c->tie_best)
				cat(r, len, " (cannot be told from the best: %.2f of it)", c->vs_best.ratio);
			else if (k)
				cat(r, len, " (%s)", c->loss);
		}
		cat(r, len, ".\n- Chunk: %s.\n", a->chunks);
		write_members(a, r, len);
	}
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_choice *pick = a->has_choice ? &a->choice[a->pick] : NULL;
		uint32_t bc, tied[16];
		size_t nt;

		if (!pick)
			break;
		if (r0_analysis_best_chunk(a, pick->layer, a->max_members, w, &bc, tied, 16, &nt))
			continue;
		cat(r, len, "- %s: best chunk on %s %s", a->wl[w].name, r0_layer_name(pick->layer),
		    chunk_str(bc, ck, sizeof(ck)));
		if (nt > 1) {
			cat(r, len, " (equivalent:");
			for (size_t t = 0; t < nt; t++)
				cat(r, len, " %s", chunk_str(tied[t], ck, sizeof(ck)));
			cat(r, len, ")");
		}
		cat(r, len, "; at chunk %s:", chunk_str(pick->chunk_bytes, ck, sizeof(ck)));
		for (unsigned n = 1; n <= a->max_members; n++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes, n, w);

			if (c && c->speedup.n)
				cat(r, len, " %u: %.2fx (eff %.2f)", n, c->speedup.med, c->efficiency);
		}
		cat(r, len, ".\n");
		if (a->wl[w].vs_fewer.ratio > 0) {
			const struct r0_cmp *c = &a->wl[w].vs_fewer;

			cat(r, len, "- %s: %u drives %.2fx of %u", a->wl[w].name, a->max_members, c->ratio,
			    a->max_members - 1);
			if (!c->indicative)
				cat(r, len, " (%.2f-%.2f)", c->lo, c->hi);
			cat(r, len, "%s\n", a->wl[w].shared_limit
				? ": the last drive added little where the others scaled well: something the members share is the limit \u2014 a controller, a link, or the CPU."
				: ".");
		}
		{
			const struct r0_cell *arr = r0_analysis_cell(a, pick->layer, pick->chunk_bytes,
								     a->max_members, w);

			if (arr && arr->answer == R0_ANSWER_CPU) {
				cat(r, len, "- %s is CPU-bound: the measuring thread was busy %.0f%% of the time on the %u-member array and %.0f%% on the single drive",
				    a->wl[w].name, arr->cpu_busy * 100, a->max_members, a->wl[w].base_cpu_busy * 100);
				cat(r, len, "; the CPU that measures, not the drives, may set this limit: could not tell.\n");
			} else if (arr && arr->cpu_busy >= R0_CPU_BOUND && arr->answer == R0_ANSWER_WORTH) {
				cat(r, len, "- %s: the measuring thread was busy %.0f%% of the time on the %u-member array, so its %.2fx is a lower bound: worth it all the same.\n",
				    a->wl[w].name, arr->cpu_busy * 100, a->max_members, arr->speedup.med);
			}
		}
	}
}

void r0_analysis_free(struct r0_analysis *a)
{
	for (size_t w = 0; a->wl && w < a->n_wl; w++)
		free(a->wl[w].base_v);
	for (size_t k = 0; a->cell && k < a->n_cell; k++)
		free(a->cell[k].bps_v);
	free(a->wl);
	free(a->cell);
	free(a->choice);
	memset(a, 0, sizeof(*a));
}

/* "md 2 x 64K 4K read repeat 2 (3 errors)" into the list of repeats left out. */
static void note_excluded(char *buf, size_t len, const struct r0_sweep_rec *r, const char *wl)
{
	char ck[16], why[48];

	if (r->errors)
		snprintf(why, sizeof(why), "%llu errors", (unsigned long long)r->errors);
	else
		snprintf(why, sizeof(why), "no request completed");
	if (r->layer == R0_LAYER_RAW)
		cat(buf, len, "%sraw %s repeat %u (%s)", *buf ? "; " : "", wl, r->repeat, why);
	else
		cat(buf, len, "%s%s %u x %s %s repeat %u (%s)", *buf ? "; " : "", r0_layer_name(r->layer),
		    r->n_members, chunk_str(r->chunk_bytes, ck, sizeof(ck)), wl, r->repeat, why);
}

int r0_analyse(const struct r0_sweep_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
	       struct r0_analysis *out)
{
	struct r0_analysis a = { 0 };
	struct group *g = NULL;
	size_t ng = 0;
	char excluded[2048] = "";
	int err = -ENOMEM;

	if (!set->n)
		return -ENODATA;
	if (cmp)
		a.cmp = *cmp;
	else
		r0_cmp_defaults(&a.cmp);
	if (!(a.cmp.confidence > 0 && a.cmp.confidence < 1) || !(a.cmp.threshold >= 0) || a.cmp.resamples < 100)
		return -EINVAL;
	if (set->recs[0].describe[0])
		snprintf(a.devices, sizeof(a.devices), "%s; %s", set->recs[0].describe, set->recs[0].devices);
	else
		snprintf(a.devices, sizeof(a.devices), "%s", set->recs[0].devices);
	snprintf(a.state, sizeof(a.state), "%s", set->recs[0].state);
	snprintf(a.precondition, sizeof(a.precondition), "%s", set->recs[0].precondition);
	snprintf(a.tool, sizeof(a.tool), "%s", set->recs[0].tool);
	snprintf(a.mix_name, sizeof(a.mix_name), "%s", mix->name);
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_sweep_rec *r = &set->recs[i];
		char name[48];
		ssize_t w;
		size_t k;

		r0_sweep_rec_workload(r, name, sizeof(name));
		w = find_wl(&a, name);
		if (w < 0) {
			struct r0_wl *p = realloc(a.wl, (a.n_wl + 1) * sizeof(*p));

			if (!p)
				goto out;
			a.wl = p;
			w = (ssize_t)a.n_wl++;
			memset(&a.wl[w], 0, sizeof(a.wl[w]));
			snprintf(a.wl[w].name, sizeof(a.wl[w].name), "%s", name);
			r0_workload_class(r, a.wl[w].cls, sizeof(a.wl[w].cls));
			a.wl[w].proto = *r;
		}
		if (r->n_members > a.max_members && r->layer != R0_LAYER_RAW)
			a.max_members = r->n_members;
		if (r->runtime_s > a.runtime_s)
			a.runtime_s = r->runtime_s;
		a.ordered |= r->order_pos > 0;
		for (k = 0; k < ng; k++)
			if (g[k].c.layer == r->layer && g[k].c.chunk_bytes == r->chunk_bytes &&
			    g[k].c.n_members == r->n_members && g[k].c.wl == (size_t)w)
				break;
		if (k == ng) {
			struct group *p = realloc(g, (ng + 1) * sizeof(*p));

			if (!p)
				goto out;
			g = p;
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].c.layer = r->layer;
			g[ng].c.chunk_bytes = r->chunk_bytes;
			g[ng].c.n_members = r->n_members;
			g[ng].c.wl = (size_t)w;
			ng++;
		}
		g[k].c.errors += r->errors;
		if (unmeasured(r)) {
			g[k].c.n_excluded++;
			a.n_excluded++;
			note_excluded(excluded, sizeof(excluded), r, name);
			continue;
		}
		if (group_add(&g[k], r))
			goto out;
	}
	if (!a.max_members)
		a.max_members = 1;
	a.build_members = a.max_members;
	a.cell = calloc(ng ? ng : 1, sizeof(*a.cell));
	if (!a.cell)
		goto out;
	for (size_t k = 0; k < ng; k++) {
		if (fill_cell(&g[k]))
			goto out;
		if (g[k].n > a.repeats)
			a.repeats = (unsigned)g[k].n;
		a.cell[k] = g[k].c;
		a.n_cell = k + 1;
	}
	a.min_repeats = UINT32_MAX;
	if (fill_bases(&a, set))
		goto out;
	fill_weights(&a, mix);
	err = fill_speedups(&a);
	if (!err)
		err = fill_ties(&a);
	if (!err)
		err = fill_choices(&a);
	if (!err && a.has_choice)
		err = fill_shared(&a);
	if (!err && a.has_choice)
		err = fill_build(&a);
	if (err)
		goto out;
	if (a.min_repeats == UINT32_MAX)
		a.min_repeats = a.repeats;
	a.indicative = a.min_repeats < R0_CMP_MIN_REPEATS;
	write_method(&a);
	if (a.has_choice) {
		write_chunks(&a);
		write_shared(&a);
		write_build(&a);
		write_headline(&a);
	} else {
		snprintf(a.headline, sizeof(a.headline),
			 "No verdict: the results hold no stripe of %u members measured against a single drive.",
			 a.max_members);
	}
	write_verdict(&a, mix);
	write_reasoning(&a, excluded);
	*out = a;
	memset(&a, 0, sizeof(a));
	err = 0;
out:
	for (size_t k = 0; k < ng; k++)
		free(g[k].recs);
	free(g);
	r0_analysis_free(&a);
	return err;
}
