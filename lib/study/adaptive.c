// SPDX-License-Identifier: GPL-2.0-or-later
/* The adaptive study's planner: which cells next, from the records so far (r0/adaptive.h). */
#include <errno.h>
#include <math.h>
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

/* Repeats of T, W that count toward its need: in the records, those judged far not (each is
 * measured again, and the figures keep both) */
static unsigned toward_need(const struct r0_planner *p, size_t t, size_t w)
{
	return p->have[t][w] > p->again[t][w] ? p->have[t][w] - p->again[t][w] : 0;
}

/* Repeats of T, W planned so far: its need, or what counts toward it where that is more. */
static unsigned planned(const struct r0_planner *p, size_t t, size_t w)
{
	return p->need[t][w] > toward_need(p, t, w) ? p->need[t][w] : toward_need(p, t, w);
}

/* What raising T, W's need to N adds to the cells to run. */
static unsigned cost_to(const struct r0_planner *p, size_t t, size_t w, unsigned n)
{
	unsigned cur = planned(p, t, w);

	return n > cur ? n - cur : 0;
}

static void activate(struct r0_planner *p, size_t t)
{
	p->active[t] = true;
	for (size_t w = 0; w < p->plan->n_wl; w++)
		if (p->need[t][w] < p->looks[0]) {
			p->todo_now += cost_to(p, t, w, p->looks[0]);
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
		struct r0_run r = { 0 };

		snprintf(r.label, sizeof(r.label), "%s", plan->wl[w].label);
		r.access = plan->wl[w].w.access;
		r.read_pct = plan->wl[w].w.read_pct;
		r.block_bytes = plan->wl[w].w.block_bytes;
		r.align_bytes = plan->wl[w].w.align_bytes;
		r.queue_depth = plan->wl[w].w.queue_depth;
		r.jobs = plan->wl[w].w.jobs ? plan->wl[w].w.jobs : 1;
		r0_run_workload(&r, p->wl_name[w], sizeof(p->wl_name[w]));
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

void r0_planner_fit_budget(struct r0_planner *p, size_t cells)
{
	const struct r0_sweep_plan *plan = p->plan;
	unsigned top = max_members(plan);
	size_t counts = (top > 2 ? top - 2 : 0) * plan->n_wl * p->looks[0];
	int keep = -1;
	double mdadm = log2(R0_MDADM_CHUNK_BYTES);

	if (!p->adaptive || r0_planner_first_cells(p) + counts <= cells)
		return;
	/* the first look's chunk: nearest 512K in powers of two, the larger on a tie */
	for (size_t t = 0; t < plan->n_targets; t++) {
		const struct r0_sweep_target *x = &plan->targets[t];
		double d;

		if (!p->active[t] || x->layer == R0_LAYER_RAW || x->n != top)
			continue;
		d = fabs(log2((double)x->chunk_bytes) - mdadm);
		if (keep < 0 || d < fabs(log2((double)plan->targets[keep].chunk_bytes) - mdadm) ||
		    (d == fabs(log2((double)plan->targets[keep].chunk_bytes) - mdadm) &&
		     x->chunk_bytes > plan->targets[keep].chunk_bytes))
			keep = (int)t;
	}
	if (keep < 0)
		return;
	for (size_t t = 0; t < plan->n_targets; t++) {
		const struct r0_sweep_target *x = &plan->targets[t];

		if (x->layer == R0_LAYER_RAW || (int)t == keep)
			continue;
		if (x->layer == plan->targets[keep].layer && x->chunk_bytes == plan->targets[keep].chunk_bytes &&
		    x->n >= 2) {
			activate(p, t);
			continue;
		}
		p->active[t] = false;
		memset(p->need[t], 0, sizeof(p->need[t]));
	}
	p->money_first = true;
}

int r0_planner_target_of(const struct r0_planner *p, const struct r0_run *r)
{
	for (size_t t = 0; t < p->plan->n_targets; t++) {
		const struct r0_sweep_target *x = &p->plan->targets[t];

		if (x->layer == r->layer && x->n == r->n_members && x->copy == r->copy &&
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
	struct r0_run r = { .layer = layer, .chunk_bytes = chunk, .n_members = n };

	return r0_planner_target_of(p, &r);
}

unsigned r0_planner_next_repeat(const struct r0_planner *p, size_t t, size_t w)
{
	return p->need[t][w] + p->again[t][w] > p->have[t][w] ? p->have[t][w] + 1 : 0;
}

size_t r0_planner_todo(const struct r0_planner *p)
{
	size_t n = 0;

	for (size_t t = 0; t < p->plan->n_targets; t++)
		for (size_t w = 0; w < p->plan->n_wl; w++)
			if (p->need[t][w] + p->again[t][w] > p->have[t][w])
				n += p->need[t][w] + p->again[t][w] - p->have[t][w];
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

static void count_have(struct r0_planner *p, const struct r0_run_set *set)
{
	memset(p->have, 0, sizeof(p->have));
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_run *r = &set->recs[i];
		char name[48];
		int t = r0_planner_target_of(p, r), w;

		if (t < 0 || r->predicted)
			continue;
		r0_run_workload(r, name, sizeof(name));
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

/* Workload W of target T raised to NEED repeats when that fits in the cells left: false if it did not. */
static bool raise_to(struct r0_planner *p, int t, size_t w, unsigned need)
{
	unsigned cur = planned(p, (size_t)t, w);

	if (need <= cur)
		return true;
	if (p->todo_now + (need - cur) > p->cells_left) {
		p->budget_short = true;
		return false;
	}
	p->todo_now += need - cur;
	p->need[t][w] = need;
	return true;
}

/* WHAT (which comparison, for the report) joins what stayed open. */
static void say_open(struct r0_planner *p, const char *what)
{
	if (what && strlen(p->open) < 600)
		r0_strbuf_cat(p->open, sizeof(p->open), "%s%s", p->open[0] ? "; " : "", what);
}

/*
 * One more look for workload W of target T: its need rises to the next
 * look above what it has, when that fits in the cells left. A cell
 * already at the last look, or one that does not fit, stays open.
 */
static void more(struct r0_planner *p, int t, size_t w, const char *what)
{
	unsigned next = 0, cur;

	if (t < 0 || w >= p->plan->n_wl)
		return;
	cur = planned(p, (size_t)t, w);
	for (size_t i = 0; i < p->n_looks && !next; i++)
		if (p->looks[i] > cur)
			next = p->looks[i];
	if (next && raise_to(p, t, w, next))
		return;
	if (!next)
		p->at_max++;
	say_open(p, what);
}

/*
 * Look I of the money answers for a workload of part F (money_scale): the
 * look's repeats x F, at least the first look's and at most the last's
 * (--max-repeats holds for every cell).
 */
static unsigned scaled_look(const struct r0_planner *p, size_t i, double f)
{
	unsigned at = (unsigned)(p->looks[i] * f + 0.5);

	return at < p->looks[0] ? p->looks[0] : at > p->looks[p->n_looks - 1] ? p->looks[p->n_looks - 1] : at;
}

/*
 * Each workload's part of the money answers' cells, F[w]: share x noise
 * under the mix, scaled so that the workloads the mix weighs take as many
 * cells together as equal looks would (their mean 1). A workload of
 * unknown noise takes the mean of the known.
 */
static void money_scale(const struct r0_analysis *a, double *f)
{
	double sum = 0, noise = 0, s[R0_SWEEP_MAX_WL] = { 0 };
	size_t n = 0, known = 0;

	for (size_t w = 0; w < a->n_wl && w < R0_SWEEP_MAX_WL; w++)
		if (a->wl[w].weight > 0 && a->wl[w].noise > 0) {
			noise += a->wl[w].noise;
			known++;
		}
	noise = known ? noise / (double)known : 1;
	for (size_t w = 0; w < a->n_wl && w < R0_SWEEP_MAX_WL; w++) {
		if (!(a->wl[w].weight > 0))
			continue;
		s[w] = a->wl[w].weight * (a->wl[w].noise > 0 ? a->wl[w].noise : noise);
		sum += s[w];
		n++;
	}
	for (size_t w = 0; w < a->n_wl && w < R0_SWEEP_MAX_WL; w++)
		f[w] = sum > 0 ? s[w] * (double)n / sum : 1;
}

/* The single drive's targets: the raw one when active, else the active 1-member stripes. */
static size_t base_targets(const struct r0_planner *p, size_t *out)
{
	size_t n = 0;

	for (size_t t = 0; t < p->plan->n_targets; t++)
		if (p->active[t] && p->plan->targets[t].layer == R0_LAYER_RAW)
			out[n++] = t;
	for (size_t t = 0; !n && t < p->plan->n_targets; t++)
		if (p->active[t] && p->plan->targets[t].n == 1)
			out[n++] = t;
	return n;
}

/* The single drive's cells of workload W. */
static void more_base(struct r0_planner *p, size_t w)
{
	size_t t[R0_SWEEP_MAX_TARGETS], n = base_targets(p, t);

	for (size_t i = 0; i < n; i++)
		more(p, (int)t[i], w, NULL);
}

/*
 * One more look for the cells of target T on every workload the mix
 * weighs, in the money answers' proportions: all of them to the look after
 * the furthest any has reached, each at its own part of it. A comparison
 * under a mix is known as well as its terms' sum, var = sum share^2 sd^2
 * / n, which for a number of cells is least with n in proportion to share
 * x sd (Neyman's allocation): the desktop mix puts 55 % of the time on 4K
 * QD1, and equal repeats spent most cells where they hardly moved the
 * answer (docs/method.md has the figures). The looks stay as many, so the
 * error each gets is as before.
 */
static void more_money(struct r0_planner *p, const struct r0_analysis *a, int t, const char *what)
{
	double f[R0_SWEEP_MAX_WL];
	int pw[R0_SWEEP_MAX_WL];
	size_t next = 0;
	bool short_of = false;

	/* once a step: the worth-it bar and a drive's gain may both ask for the same target */
	if (t < 0 || p->money_bumped[t])
		return;
	p->money_bumped[t] = true;
	money_scale(a, f);
	/* the look is the furthest any workload needs for its next repeats (its first look above
	 * what it has); a light one, at the first look's repeats at every look, is done */
	for (size_t w = 0; w < a->n_wl && w < R0_SWEEP_MAX_WL; w++) {
		unsigned cur;

		pw[w] = a->wl[w].weight > 0 ? wl_of(p, a->wl[w].name) : -1;
		if (pw[w] < 0)
			continue;
		cur = planned(p, (size_t)t, (size_t)pw[w]);
		for (size_t i = 0; i < p->n_looks; i++)
			if (scaled_look(p, i, f[w]) > cur) {
				if (i + 1 > next)
					next = i + 1;
				break;
			}
	}
	/* a look once taken is not taken again: the looks a comparison gets stay as many */
	if (next && next <= p->money_look[t])
		next = p->money_look[t] + 1;
	if (!next || next > p->n_looks) {
		p->at_max++;
		say_open(p, what);
		return;
	}
	p->money_look[t] = (unsigned)next--;
	for (size_t w = 0; w < a->n_wl && w < R0_SWEEP_MAX_WL; w++)
		if (pw[w] >= 0 && !raise_to(p, t, (size_t)pw[w], scaled_look(p, next, f[w])))
			short_of = true;
	if (short_of)
		say_open(p, what);
}

/* The single drive's cells of every workload the mix weighs, in the money answers' proportions. */
static void more_money_base(struct r0_planner *p, const struct r0_analysis *a)
{
	size_t t[R0_SWEEP_MAX_TARGETS], n = base_targets(p, t);

	for (size_t i = 0; i < n; i++)
		more_money(p, a, (int)t[i], NULL);
}

/* One more look for the cells of target T on every workload the mix weighs. */
static void more_target(struct r0_planner *p, const struct r0_analysis *a, int t, const char *what)
{
	for (size_t w = 0; w < a->n_wl; w++) {
		int pw = wl_of(p, a->wl[w].name);

		if (a->wl[w].weight > 0 && pw >= 0)
			more(p, t, (size_t)pw, w ? NULL : what);
	}
}

/* A choice's cells at the largest count on every workload the mix weighs. */
static void more_choice(struct r0_planner *p, const struct r0_analysis *a, const struct r0_choice *c,
			const char *what)
{
	more_target(p, a, target_at(p, c->layer, c->chunk_bytes, a->max_members), what);
}

/*
 * Target T at the first look whole, and its partners (PARTNER, when >= 0,
 * and the single drive) measured again as many times in the same passes,
 * when all of it fits: a half-measured target has no interval, and one
 * measured apart from what it is compared with would carry the drift in.
 * A partner is measured again once a step, for every target it brings.
 */
static void activate_with(struct r0_planner *p, size_t t, int partner)
{
	size_t parts[R0_SWEEP_MAX_TARGETS + 1], n = base_targets(p, parts), cost = p->plan->n_wl * p->looks[0];

	if (partner >= 0)
		parts[n++] = (size_t)partner;
	for (size_t i = 0; i < n; i++)
		if (!p->bumped[parts[i]] && parts[i] != t)
			cost += p->plan->n_wl * p->looks[0];
	if (p->todo_now + cost > p->cells_left) {
		p->budget_short = true;
		return;
	}
	activate(p, t);
	for (size_t i = 0; i < n; i++) {
		size_t x = parts[i];

		if (p->bumped[x] || x == t)
			continue;
		p->bumped[x] = true;
		for (size_t w = 0; w < p->plan->n_wl; w++) {
			unsigned want = toward_need(p, x, w) + p->looks[0];

			p->todo_now += cost_to(p, x, w, want);
			if (want > p->need[x][w])
				p->need[x][w] = want;
		}
	}
}

static bool undecided_bar(enum r0_answer x)
{
	return x == R0_ANSWER_UNSURE || x == R0_ANSWER_LIKELY;
}

/* The money answers' choice (counts_at) against one drive under the mix, while undecided against the bar. */
static void pick_worth(struct r0_planner *p, const struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
	char what[160];

	double worth = a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP;

	if (!undecided_bar(a->answer))
		return;
	snprintf(what, sizeof(what), "%s %uK against one drive under the mix", r0_layer_name(pick->layer),
		 pick->chunk_bytes / 1024);
	p->undecided[R0_ADAPT_WORTH]++;
	/* the answer is the built count's (r0_rank_build): repeats there, and at each fewer count
	 * whose own answer against the bar is still open (it could become the fewest worth it) */
	more_money(p, a, target_at(p, pick->layer, pick->chunk_bytes, a->build_members), what);
	for (unsigned m = 2; m < a->build_members; m++) {
		struct r0_cmp c;

		if (!r0_rank_compare(a, pick, m, NULL, 0, &a->cmp_primary, &c) && !c.indicative && c.lo < worth &&
		    c.hi >= worth)
			more_money(p, a, target_at(p, pick->layer, pick->chunk_bytes, m), NULL);
	}
	more_money_base(p, a);
}

/* A choice whose figure and noise the shrinkage can weigh: complete, with a standard error. */
static bool weighable(const struct r0_choice *c)
{
	return !c->incomplete && c->vs_base.se > 0 && c->score > 0;
}

/*
 * The choice for the counts among those that cannot be told from the best:
 * the best by its figure shrunk toward the choices' mean by how much of
 * its lead its own noise could explain (empirical Bayes: mean + tau2 /
 * (tau2 + se2) x (x - mean) on the log figures, TAU2 how far the choices
 * differ in truth, DerSimonian and Laird's estimate from their spread
 * beyond their noise). Among equals (tau2 0) the lead is noise, the
 * best-looking is the luckiest and the noisiest leads most often (the
 * winner's curse): the most precise is taken, whose precision says nothing
 * of which way its figure strayed. Among choices that truly differ the
 * lead stands.
 */
static const struct r0_choice *shrunk_best(const struct r0_analysis *a)
{
	const struct r0_choice *pick = NULL;
	double sw = 0, sw2 = 0, swx = 0, q = 0, mean, tau2 = 0, top = 0, top_se2 = 0, k;
	size_t n = 0;

	for (size_t i = 0; i < a->n_choice; i++) {
		const struct r0_choice *c = &a->choice[i];
		double w;

		if (!weighable(c))
			continue;
		w = 1 / (c->vs_base.se * c->vs_base.se);
		sw += w;
		sw2 += w * w;
		swx += w * log(c->score);
		n++;
	}
	if (n < 2)
		return &a->choice[0];
	mean = swx / sw;
	for (size_t i = 0; i < a->n_choice; i++) {
		const struct r0_choice *c = &a->choice[i];

		if (weighable(c))
			q += (log(c->score) - mean) * (log(c->score) - mean) / (c->vs_base.se * c->vs_base.se);
	}
	/* Cochran's Q beyond its n - 1 expected of noise alone */
	k = (double)(n - 1);
	if (q > k)
		tau2 = (q - k) / (sw - sw2 / sw);
	for (size_t i = 0; i < a->n_choice; i++) {
		const struct r0_choice *c = &a->choice[i];
		double se2, x;

		if (!c->tie_best || !weighable(c))
			continue;
		se2 = c->vs_base.se * c->vs_base.se;
		x = mean + tau2 / (tau2 + se2) * (log(c->score) - mean);
		/* equal shrunk figures (tau2 0: every one the mean): the most precise */
		if (!pick || x > top + 1e-12 || (fabs(x - top) <= 1e-12 && se2 < top_se2)) {
			pick = c;
			top = x;
			top_se2 = se2;
		}
	}
	return pick ? pick : &a->choice[0];
}

/*
 * How many drives: the choice the count is made at (the pick, or one it
 * cannot be told from that was measured at every count: a pick that moves
 * among equals does not start the counts again) at every member count
 * from 2, each with that choice at the largest count as its partner; then more repeats where a
 * drive's gain over one fewer is still undecided against the drive gain.
 */
static void member_counts(struct r0_planner *p, const struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
	int top;

	/*
	 * None measured at every count yet: of the choices that cannot be told
	 * from the best, the best once each lead is weighed against its noise
	 * (shrunk_best): a claim against a bar read at the luckiest of equals
	 * would carry its luck. Should the pick move later among choices it
	 * cannot be told from, the count made here still answers
	 * (r0_analysis.counts_at).
	 */
	if (!r0_rank_counts_measured(a, pick))
		pick = shrunk_best(a);
	top = target_at(p, pick->layer, pick->chunk_bytes, a->max_members);
	double gain = a->cmp.drive_gain > 0 ? a->cmp.drive_gain : R0_DRIVE_GAIN;
	bool all = true;
	char what[160];

	for (unsigned m = 2; m < a->max_members; m++) {
		int t = target_at(p, pick->layer, pick->chunk_bytes, m);

		if (t >= 0 && !p->active[t])
			activate_with(p, (size_t)t, top);
		all &= t >= 0 && p->active[t] && p->have[t][0] > 0;
	}
	for (unsigned m = 3; all && m <= a->max_members; m++) {
		struct r0_cmp c;

		if (r0_rank_compare(a, pick, m, pick, m - 1, &a->cmp_primary, &c) || c.indicative ||
		    c.lo >= gain || c.hi < gain)
			continue;
		snprintf(what, sizeof(what), "%s %uK: %u drives against %u under the mix", r0_layer_name(pick->layer),
			 pick->chunk_bytes / 1024, m, m - 1);
		p->undecided[R0_ADAPT_BUILD]++;
		more_money(p, a, target_at(p, pick->layer, pick->chunk_bytes, m), what);
		more_money(p, a, target_at(p, pick->layer, pick->chunk_bytes, m - 1), NULL);
	}
}

/* The recommended set under the mix: each choice not yet told from the best, nor shown within the threshold. */
static void the_set(struct r0_planner *p, const struct r0_analysis *a)
{
	char what[160];

	for (size_t k = 1; k < a->n_choice; k++) {
		const struct r0_choice *c = &a->choice[k];

		if (c->incomplete || c->vs_best.decided)
			continue;
		snprintf(what, sizeof(what), "%s %uK against %s %uK under the mix", r0_layer_name(c->layer),
			 c->chunk_bytes / 1024, r0_layer_name(a->choice[0].layer), a->choice[0].chunk_bytes / 1024);
		p->undecided[R0_ADAPT_SET]++;
		more_choice(p, a, c, what);
		more_choice(p, a, &a->choice[0], NULL);
	}
}

/* Choice C's chunk on the other layers at the largest count, with C as the partner. */
static void other_layers(struct r0_planner *p, const struct r0_analysis *a, const struct r0_choice *c)
{
	int partner = target_at(p, c->layer, c->chunk_bytes, a->max_members);

	for (size_t t = 0; t < p->plan->n_targets; t++) {
		const struct r0_sweep_target *x = &p->plan->targets[t];

		if (!p->active[t] && x->layer != R0_LAYER_RAW && x->layer != c->layer &&
		    x->chunk_bytes == c->chunk_bytes && x->n == a->max_members)
			activate_with(p, t, partner);
	}
}

/* Each workload on the money answers' choice (counts_at): worth it or not against one drive, while undecided. */
static void wl_worth(struct r0_planner *p, const struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
	char what[160], tn[48];

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		int pw = wl_of(p, a->wl[c->wl].name), t = target_at(p, c->layer, c->chunk_bytes, c->n_members);

		if (pw < 0 || t < 0 || c->layer != pick->layer || c->chunk_bytes != pick->chunk_bytes ||
		    c->n_members != a->max_members || !c->bps.n || !undecided_bar(c->answer))
			continue;
		target_words(&p->plan->targets[t], tn, sizeof(tn));
		snprintf(what, sizeof(what), "%s: %s against one drive", a->wl[c->wl].name, tn);
		p->undecided[R0_ADAPT_WL_WORTH]++;
		more(p, t, (size_t)pw, what);
		more_base(p, (size_t)pw);
	}
}

/* Each chunk against its workload's best on its layer, at the largest count. */
static void chunk_lines(struct r0_planner *p, const struct r0_analysis *a)
{
	char what[160], tn[48];

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		int pw = wl_of(p, a->wl[c->wl].name), t = target_at(p, c->layer, c->chunk_bytes, c->n_members);
		const struct r0_cell *best;
		struct r0_cmp_opts o;
		struct r0_cmp x;

		if (pw < 0 || t < 0 || c->layer == R0_LAYER_RAW || c->n_members != a->max_members || !c->bps.n)
			continue;
		best = r0_rank_best_cell(a, c->layer, c->n_members, c->wl);
		if (!best || best == c || best->bps.med <= 0)
			continue;
		o = r0_cmp_opts_best_of(&a->cmp_diff, r0_rank_n_chunks(a, c->layer, c->n_members, c->wl));
		if (r0_rank_cmp_cells(c, best, &o, &x) || x.decided)
			continue;
		target_words(&p->plan->targets[t], tn, sizeof(tn));
		snprintf(what, sizeof(what), "%s: %s against %uK", a->wl[c->wl].name, tn, best->chunk_bytes / 1024);
		p->undecided[R0_ADAPT_WL_CHUNK]++;
		more(p, t, (size_t)pw, what);
		more(p, target_at(p, best->layer, best->chunk_bytes, best->n_members), (size_t)pw, NULL);
	}
}

/*
 * After a first look the budget cut to the money answers (money_first):
 * the other chunks of the first look's layer, each at every member count
 * from 2 with the pick as its partner, while that whole fits: a chunk
 * that became the pick without its counts would leave how many drives
 * unanswered, so one that cannot have them stays open.
 */
static void other_chunks(struct r0_planner *p, const struct r0_analysis *a)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
	int partner = target_at(p, pick->layer, pick->chunk_bytes, a->max_members);

	for (size_t t = 0; p->money_first && t < p->plan->n_targets; t++) {
		const struct r0_sweep_target *x = &p->plan->targets[t];
		size_t cost = 0;

		if (p->active[t] || x->layer != pick->layer || x->n != a->max_members)
			continue;
		for (unsigned m = 2; m <= a->max_members; m++) {
			int c = target_at(p, x->layer, x->chunk_bytes, m);

			cost += c >= 0 && !p->active[c] ? p->plan->n_wl * p->looks[0] : 0;
		}
		if (p->todo_now + cost > p->cells_left) {
			p->budget_short = true;
			continue;
		}
		for (unsigned m = 2; m <= a->max_members; m++) {
			int c = target_at(p, x->layer, x->chunk_bytes, m);

			if (c >= 0 && !p->active[c])
				activate_with(p, (size_t)c, partner);
		}
	}
}

/* The 1-member stripes: the layer's own cost, on which no answer rests. */
static void single_stripes(struct r0_planner *p)
{
	for (size_t t = 0; t < p->plan->n_targets; t++)
		if (!p->active[t] && p->plan->targets[t].n == 1 && p->plan->targets[t].layer != R0_LAYER_RAW)
			activate_with(p, t, -1);
}

/*
 * Runs judged far in the analysis, by target and workload: each run
 * judged far alone is run again; a target with a visit judged far whole
 * gets a visit more for each (all its cells again). The analysis keeps
 * them all: measuring again adds runs, it replaces none.
 */
static void count_again(struct r0_planner *p, const struct r0_analysis *a)
{
	unsigned visits[R0_SWEEP_MAX_TARGETS] = { 0 };

	memset(p->again, 0, sizeof(p->again));
	/* a visit is one run of each of its target's cells: their most is the target's count */
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		int t = target_at(p, c->layer, c->chunk_bytes, c->n_members);

		if (t >= 0 && c->n_visit_far > visits[t])
			visits[t] = c->n_visit_far;
	}
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		int t = target_at(p, c->layer, c->chunk_bytes, c->n_members), w = wl_of(p, a->wl[c->wl].name);
		unsigned alone;

		if (t < 0 || w < 0 || p->have[t][w] >= 2 * p->looks[p->n_looks - 1])
			continue;
		/* each run judged far alone is run again, and one more: a cell whose re-run strayed the
		 * same way would otherwise rest on the strays as its majority; a cell that keeps
		 * straying is not run again without end */
		alone = c->n_far - c->n_visit_far;
		p->again[t][w] = (alone ? alone + 1 : 0) + visits[t];
	}
}

static void say_dropped(struct r0_planner *p)
{
	char tn[48];
	size_t n = 0, unsaid = 0;

	p->dropped[0] = 0;
	for (size_t t = 0; t < p->plan->n_targets; t++) {
		if (p->active[t])
			continue;
		target_words(&p->plan->targets[t], tn, sizeof(tn));
		/* whole names while the reason still fits after them; the rest counted */
		if (unsaid || strlen(p->dropped) + strlen(tn) + 160 >= sizeof(p->dropped))
			unsaid++;
		else
			r0_strbuf_cat(p->dropped, sizeof(p->dropped), "%s%s", n ? ", " : "", tn);
		n++;
	}
	if (unsaid)
		r0_strbuf_cat(p->dropped, sizeof(p->dropped), " and %zu more", unsaid);
	if (n)
		r0_strbuf_cat(p->dropped, sizeof(p->dropped), ": %s not in the recommended set%s",
		    n == 1 ? "its chunk was" : "their chunks were",
		    p->budget_short ? ", or the budget had no room for them" : "");
}

int r0_planner_step(struct r0_planner *p, const struct r0_run_set *set, const struct r0_mix *mix,
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
	count_again(p, &a);
	p->cells_left = cells_left;
	p->todo_now = r0_planner_todo(p);   /* runs judged far, measured again first */
	if (p->todo_now > cells_left) {
		p->budget_short = true;
		p->todo_now = cells_left;
	} else
		p->budget_short = false;
	memset(p->undecided, 0, sizeof(p->undecided));
	memset(p->bumped, 0, sizeof(p->bumped));
	memset(p->money_bumped, 0, sizeof(p->money_bumped));
	p->at_max = 0;
	p->open[0] = 0;
	/* where the answer can change first: worth it, how many drives, the set,
	 * md against dm; then each workload's worth it and the set's other
	 * layers; the per-workload chunk lines and the 1-member stripes only
	 * when nothing before them wants a cell */
	if (a.has_choice) {
		size_t before = p->todo_now;

		pick_worth(p, &a);
		member_counts(p, &a);
		/* while the money answers still take cells, they have this step to themselves: a
		 * member count measured for the first time may leave worth it open at that count,
		 * and the cells it then needs must not have gone to the chunks */
		if (p->todo_now > before)
			goto done;
		other_chunks(p, &a);
		the_set(p, &a);
		other_layers(p, &a, &a.choice[a.counts_at]);
		wl_worth(p, &a);
		for (size_t k = 0; k < a.n_choice; k++)
			if (a.choice[k].tie_best && !a.choice[k].incomplete && k != a.counts_at)
				other_layers(p, &a, &a.choice[k]);
		if (!p->todo_now)
			chunk_lines(p, &a);
		if (!p->todo_now)
			single_stripes(p);
	}
done:
	r0_analysis_free(&a);
	say_dropped(p);
	return p->todo_now > 0;
}
