// SPDX-License-Identifier: GPL-2.0-or-later
/* The adaptive study's planner: which cells next, from the records so far (r0/adaptive.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "r0/adaptive.h"
#include "analysis_steps.h"
#include "strbuf.h"

size_t r0_adapt_looks(unsigned min, unsigned max, unsigned *at)
{
	size_t n = 0;

	if (!min || min > max)
		return 0;
	for (unsigned r = min; n < R0_ADAPT_MAX_LOOKS; ) {
		unsigned next = (unsigned)(r * 1.6 + 0.5);

		at[n++] = r;
		if (r == max)
			break;
		if (next <= r)
			next = r + 1;
		r = next > max || n + 1 == R0_ADAPT_MAX_LOOKS ? max : next;
	}
	return n;
}

static unsigned max_members(const struct r0_sweep_plan *plan)
{
	unsigned m = 0;

	for (size_t t = 0; t < plan->n_targets; t++)
		if (plan->targets[t].n > m)
			m = plan->targets[t].n;
	return m;
}

static void activate(struct r0_planner *p, size_t t)
{
	p->active[t] = true;
	for (size_t w = 0; w < p->plan->n_wl; w++)
		if (p->need[t][w] < p->looks[0]) {
			p->todo_now += p->looks[0] - (p->need[t][w] > p->have[t][w] ? p->need[t][w] : p->have[t][w]);
			p->need[t][w] = p->looks[0];
		}
}

int r0_planner_init(struct r0_planner *p, const struct r0_sweep_plan *plan, bool adaptive, unsigned min,
		    unsigned max)
{
	enum r0_layer first = R0_LAYER_RAW;
	unsigned top;

	memset(p, 0, sizeof(*p));
	if (!plan->n_targets || !plan->n_wl || !min)
		return -EINVAL;
	p->plan = plan;
	p->adaptive = adaptive;
	if (adaptive) {
		p->n_looks = r0_adapt_looks(min, max, p->looks);
		if (!p->n_looks)
			return -EINVAL;
	} else {
		p->looks[0] = min;
		p->n_looks = 1;
	}
	for (size_t w = 0; w < plan->n_wl; w++) {
		struct r0_sweep_rec r = { 0 };

		snprintf(r.label, sizeof(r.label), "%s", plan->wl[w].label);
		r.access = plan->wl[w].w.access;
		r.read_pct = plan->wl[w].w.read_pct;
		r.block_bytes = plan->wl[w].w.block_bytes;
		r.align_bytes = plan->wl[w].w.align_bytes;
		r.queue_depth = plan->wl[w].w.queue_depth;
		r.jobs = plan->wl[w].w.jobs ? plan->wl[w].w.jobs : 1;
		r0_sweep_rec_workload(&r, p->wl_name[w], sizeof(p->wl_name[w]));
	}
	top = max_members(plan);
	/* the first layer of the largest arrays in the plan's order (md before dm) */
	for (size_t t = 0; t < plan->n_targets && first == R0_LAYER_RAW; t++)
		if (plan->targets[t].n == top && plan->targets[t].layer != R0_LAYER_RAW)
			first = plan->targets[t].layer;
	for (size_t t = 0; t < plan->n_targets; t++) {
		const struct r0_sweep_target *x = &plan->targets[t];

		if (!adaptive || x->layer == R0_LAYER_RAW || (x->n == top && x->layer == first))
			activate(p, t);
	}
	return 0;
}

int r0_planner_target_of(const struct r0_planner *p, const struct r0_sweep_rec *r)
{
	for (size_t t = 0; t < p->plan->n_targets; t++) {
		const struct r0_sweep_target *x = &p->plan->targets[t];

		if (x->layer == r->layer && x->n == r->n_members &&
		    (x->layer == R0_LAYER_RAW || x->chunk_bytes == r->chunk_bytes))
			return (int)t;
	}
	return -1;
}

static int wl_of(const struct r0_planner *p, const char *name)
{
	for (size_t w = 0; w < p->plan->n_wl; w++)
		if (!strcmp(p->wl_name[w], name))
			return (int)w;
	return -1;
}

static int target_at(const struct r0_planner *p, enum r0_layer layer, uint32_t chunk, unsigned n)
{
	struct r0_sweep_rec r = { .layer = layer, .chunk_bytes = chunk, .n_members = n };

	return r0_planner_target_of(p, &r);
}

size_t r0_planner_todo(const struct r0_planner *p)
{
	size_t n = 0;

	for (size_t t = 0; t < p->plan->n_targets; t++)
		for (size_t w = 0; w < p->plan->n_wl; w++)
			if (p->need[t][w] > p->have[t][w])
				n += p->need[t][w] - p->have[t][w];
	return n;
}

size_t r0_planner_first_cells(const struct r0_planner *p)
{
	size_t n = 0;

	for (size_t t = 0; t < p->plan->n_targets; t++)
		n += p->active[t];
	return n * p->plan->n_wl * p->looks[0];
}

struct r0_cmp_opts r0_planner_cmp(const struct r0_planner *p, const struct r0_cmp_opts *cmp)
{
	struct r0_cmp_opts o;

	if (cmp)
		o = *cmp;
	else
		r0_cmp_defaults(&o);
	o.looks = p->adaptive ? (unsigned)p->n_looks : 1;
	return o;
}

static void count_have(struct r0_planner *p, const struct r0_sweep_set *set)
{
	memset(p->have, 0, sizeof(p->have));
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_sweep_rec *r = &set->recs[i];
		char name[48];
		int t = r0_planner_target_of(p, r), w;

		if (t < 0 || r->predicted)
			continue;
		r0_sweep_rec_workload(r, name, sizeof(name));
		w = wl_of(p, name);
		if (w >= 0)
			p->have[t][w]++;
	}
}

static void target_words(const struct r0_sweep_target *x, char *buf, size_t len)
{
	if (x->layer == R0_LAYER_RAW)
		snprintf(buf, len, "one drive");
	else
		snprintf(buf, len, "%s %u x %uK", r0_layer_name(x->layer), x->n, x->chunk_bytes / 1024);
}

/*
 * One more look for workload W of target T: its need rises to the next
 * look above what it has, when that fits in the cells left. A cell
 * already at the last look, or one that does not fit, stays open (WHAT
 * says which comparison, for the report).
 */
static void more(struct r0_planner *p, int t, size_t w, const char *what)
{
	unsigned next = 0, cur;

	if (t < 0 || w >= p->plan->n_wl)
		return;
	cur = p->need[t][w] > p->have[t][w] ? p->need[t][w] : p->have[t][w];
	for (size_t i = 0; i < p->n_looks && !next; i++)
		if (p->looks[i] > p->have[t][w])
			next = p->looks[i];
	if (next && next <= cur)
		return;   /* already wanted */
	if (next && p->todo_now + (next - cur) > p->cells_left)
		p->budget_short = true;
	else if (next) {
		p->todo_now += next - cur;
		p->need[t][w] = next;
		return;
	} else
		p->at_max++;
	if (what && strlen(p->open) < 600)
		r0_strbuf_cat(p->open, sizeof(p->open), "%s%s", p->open[0] ? "; " : "", what);
}

/* The single drive's cells of workload W: the raw target, else the active 1-member stripes. */
static void more_base(struct r0_planner *p, size_t w)
{
	bool raw = false;

	for (size_t t = 0; t < p->plan->n_targets; t++)
		if (p->active[t] && p->plan->targets[t].layer == R0_LAYER_RAW) {
			more(p, (int)t, w, NULL);
			raw = true;
		}
	for (size_t t = 0; !raw && t < p->plan->n_targets; t++)
		if (p->active[t] && p->plan->targets[t].n == 1)
			more(p, (int)t, w, NULL);
}

/* A choice's cells on every workload the mix weighs. */
static void more_choice(struct r0_planner *p, const struct r0_analysis *a, const struct r0_choice *c,
			const char *what)
{
	int t = target_at(p, c->layer, c->chunk_bytes, a->max_members);

	for (size_t w = 0; w < a->n_wl; w++) {
		int pw = wl_of(p, a->wl[w].name);

		if (a->wl[w].weight > 0 && pw >= 0)
			more(p, t, (size_t)pw, w ? NULL : what);
	}
}

/* A target at the first look whole, when that fits: a half-measured one has no interval. */
static void try_activate(struct r0_planner *p, size_t t)
{
	if (p->todo_now + p->plan->n_wl * p->looks[0] > p->cells_left)
		p->budget_short = true;
	else
		activate(p, t);
}

/*
 * Around the recommended set: its chunks on the other layers, and at
 * fewer members on its own; then the 1-member stripes (the layer's own
 * cost: no answer rests on them, the single drive is measured raw).
 */
static void expand(struct r0_planner *p, const struct r0_analysis *a)
{
	for (size_t k = 0; k < a->n_choice; k++) {
		const struct r0_choice *c = &a->choice[k];

		if (!a->has_choice || !c->tie_best || c->incomplete)
			continue;
		for (size_t t = 0; t < p->plan->n_targets; t++) {
			const struct r0_sweep_target *x = &p->plan->targets[t];

			if (p->active[t] || x->layer == R0_LAYER_RAW || x->chunk_bytes != c->chunk_bytes)
				continue;
			if (!((x->layer != c->layer && x->n == a->max_members) ||
			      (x->layer == c->layer && x->n >= 2 && x->n < a->max_members)))
				continue;
			try_activate(p, t);
		}
	}
	for (size_t t = 0; t < p->plan->n_targets; t++)
		if (!p->active[t] && p->plan->targets[t].n == 1 && p->plan->targets[t].layer != R0_LAYER_RAW)
			try_activate(p, t);
}

/*
 * The comparisons still open, and one more look for their cells. The
 * per-workload chunk lines come second (CHUNK_LINES): where a budget cuts
 * the study short, the verdict, the pick and each workload's worth it
 * have had their repeats first.
 */
static void open_comparisons(struct r0_planner *p, const struct r0_analysis *a, bool chunk_lines)
{
	char what[160], tn[48];

	if (a->has_choice) {
		const struct r0_choice *pick = &a->choice[a->pick];

		if (a->answer == R0_ANSWER_UNSURE) {
			snprintf(what, sizeof(what), "%s %uK against one drive under the mix", r0_layer_name(pick->layer),
				 pick->chunk_bytes / 1024);
			p->undecided[R0_ADAPT_WORTH]++;
			more_choice(p, a, pick, what);
			for (size_t w = 0; w < a->n_wl; w++)
				if (a->wl[w].weight > 0 && wl_of(p, a->wl[w].name) >= 0)
					more_base(p, (size_t)wl_of(p, a->wl[w].name));
		}
		for (size_t k = 1; k < a->n_choice; k++) {
			const struct r0_choice *c = &a->choice[k];

			if (c->incomplete || c->vs_best.decided)
				continue;
			snprintf(what, sizeof(what), "%s %uK against %s %uK under the mix", r0_layer_name(c->layer),
				 c->chunk_bytes / 1024, r0_layer_name(a->choice[0].layer),
				 a->choice[0].chunk_bytes / 1024);
			p->undecided[R0_ADAPT_SET]++;
			more_choice(p, a, c, what);
			more_choice(p, a, &a->choice[0], NULL);
		}
	}
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		int pw = wl_of(p, a->wl[c->wl].name), t = target_at(p, c->layer, c->chunk_bytes, c->n_members);

		if (pw < 0 || t < 0 || c->layer == R0_LAYER_RAW || c->n_members != a->max_members || !c->bps.n)
			continue;
		target_words(&p->plan->targets[t], tn, sizeof(tn));
		/* each workload on the pick: worth it or not */
		if (a->has_choice && c->layer == a->choice[a->pick].layer &&
		    c->chunk_bytes == a->choice[a->pick].chunk_bytes && c->answer == R0_ANSWER_UNSURE) {
			snprintf(what, sizeof(what), "%s: %s against one drive", a->wl[c->wl].name, tn);
			p->undecided[R0_ADAPT_WL_WORTH]++;
			more(p, t, (size_t)pw, what);
			more_base(p, (size_t)pw);
		}
		/* each chunk against the workload's best on its layer */
		{
			const struct r0_cell *best = r0_rank_best_cell(a, c->layer, c->n_members, c->wl);
			size_t k = r0_rank_n_chunks(a, c->layer, c->n_members, c->wl);

			if (best && best != c && best->bps.med > 0) {
				struct r0_cmp_opts o = r0_cmp_opts_best_of(&a->cmp, k);
				struct r0_cmp x;

				if (chunk_lines &&
				    !r0_compare_one(c->bps_v, c->bps.n, best->bps_v, best->bps.n, &o, &x) &&
				    !x.decided) {
					snprintf(what, sizeof(what), "%s: %s against %uK", a->wl[c->wl].name, tn,
						 best->chunk_bytes / 1024);
					p->undecided[R0_ADAPT_WL_CHUNK]++;
					more(p, t, (size_t)pw, what);
					more(p, target_at(p, best->layer, best->chunk_bytes, best->n_members), (size_t)pw, NULL);
				}
			}
		}
	}
}

static void say_dropped(struct r0_planner *p)
{
	char tn[48];
	size_t n = 0;

	p->dropped[0] = 0;
	for (size_t t = 0; t < p->plan->n_targets; t++) {
		if (p->active[t])
			continue;
		target_words(&p->plan->targets[t], tn, sizeof(tn));
		r0_strbuf_cat(p->dropped, sizeof(p->dropped), "%s%s", n++ ? ", " : "", tn);
	}
	if (n)
		r0_strbuf_cat(p->dropped, sizeof(p->dropped), ": %s not in the recommended set%s",
		    n == 1 ? "its chunk was" : "their chunks were",
		    p->budget_short ? ", or the budget had no room for them" : "");
}

int r0_planner_step(struct r0_planner *p, const struct r0_sweep_set *set, const struct r0_mix *mix,
		    const struct r0_cmp_opts *cmp, size_t cells_left)
{
	struct r0_cmp_opts o = r0_planner_cmp(p, cmp);
	struct r0_analysis a;
	int err;

	count_have(p, set);
	if (r0_planner_todo(p))
		return 1;
	if (!p->adaptive)
		return 0;
	err = r0_analyse(set, mix, &o, &a);
	if (err)
		return err;
	p->cells_left = cells_left;
	p->todo_now = 0;
	p->budget_short = false;
	memset(p->undecided, 0, sizeof(p->undecided));
	p->at_max = 0;
	p->open[0] = 0;
	/* first the answers (worth it, the set, each workload's worth it), then the
	 * chunks around the set on the other layer and at fewer members, then the
	 * per-workload chunk lines */
	open_comparisons(p, &a, false);
	expand(p, &a);
	if (!p->todo_now) {
		memset(p->undecided, 0, sizeof(p->undecided));
		p->at_max = 0;
		p->open[0] = 0;
		open_comparisons(p, &a, true);
	}
	r0_analysis_free(&a);
	say_dropped(p);
	return p->todo_now > 0;
}
