// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis in words: the method, the chunks, the verdict in one
 * sentence and at length, and the reasoning, from what lib/study/ranking.c
 * decided (r0/analysis.h). English prose only: no judgement is made here.
 */
#include <stdio.h>
#include <string.h>

#include "r0/analysis.h"
#include "r0/size.h"
#include "analysis_steps.h"
#include "strbuf.h"

const char *r0_answer_name(enum r0_answer a)
{
	switch (a) {
	case R0_ANSWER_WORTH: return "worth it";
	case R0_ANSWER_LIKELY: return "likely worth it";
	case R0_ANSWER_NOT: return "not worth it";
	case R0_ANSWER_UNSURE: return "could not tell";
	case R0_ANSWER_CPU: return "could not tell: the measuring CPU was the limit";
	default: return "no data";
	}
}

static const char *chunk_str(uint32_t bytes, char *buf, size_t len)
{
	if (r0_format_size(bytes, buf, len))
		snprintf(buf, len, "%u", bytes);
	return buf;
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
		r0_strbuf_cat(buf, len, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ",
		    choice_str(&a->choice[k], nm, sizeof(nm)));
		n++;
	}
}

static void write_method(struct r0_analysis *a)
{
	char how[400], looks[400] = "", family[768] = "";
	double worth = a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP;
	double gain = a->cmp.drive_gain > 0 ? a->cmp.drive_gain : R0_DRIVE_GAIN;

	/* r0predict's figures: one a cell, no repeats, no noise to make an interval of */
	if (a->predicted) {
		snprintf(a->method, sizeof(a->method),
			 "Each comparison is the ratio of the two sides' predicted bytes/s (under a mix, one drive's "
			 "time for the mix over the array's: Amdahl's law), r0predict's one figure a cell from one "
			 "drive's results: no interval (r0predict(1) gives the prediction's error), the choices ranked "
			 "by their figures, none told apart. Predicted worth it means the predicted speed-up is at "
			 "least %.2fx one drive; a drive is worth buying when it adds at least %.2fx. Nothing here "
			 "was measured.", worth, gain);
		return;
	}
	if (a->cmp.method == R0_CMP_BOOTSTRAP)
		snprintf(how, sizeof(how),
			 "the ratio of the two sides' median bytes/s (under a mix, one drive's time for the mix over the array's: Amdahl's law) "
			 "with a %.0f %% bootstrap interval from %u seeded resamples of both sides' repeats",
			 a->cmp.confidence * 100, a->cmp.resamples);
	else if (a->pooled)
		snprintf(how, sizeof(how),
			 "the ratio of the two sides' mean bytes/s (under a mix, one drive's time for the mix over the array's: Amdahl's law) "
			 "with a Welch t-interval on its log, each side's noise the study's own for that workload "
			 "(pooled over its cells), a run far from its cell's others or a visit off across its workloads "
			 "kept in every figure (r0sweep measures it again), and "
			 "the drift of each pass taken out");
	else
		snprintf(how, sizeof(how),
			 "the ratio of the two sides' mean bytes/s (under a mix, one drive's time for the mix over the array's: Amdahl's law) "
			 "with a %.0f %% Welch t-interval on its log over both sides' repeats",
			 a->cmp.confidence * 100);
	/* with the pooled noise the looks only set each kind's level (r0_rank_all): said as it is done */
	if (a->cmp.looks > 1 && a->pooled)
		snprintf(looks, sizeof(looks), "; the cells were repeated until decided, in up to %u looks at the "
			 "data: each claim's p-value counts every look when its kind's level is set (below), and its "
			 "interval is shown at that level; how often the claims err with the looks was measured by "
			 "simulating whole studies (docs/validation.md)", a->cmp.looks);
	else if (a->cmp.looks > 1)
		snprintf(looks, sizeof(looks), "; the cells were repeated until decided, so each of the %u looks "
			 "at the data gets 1/%u of the error rate", a->cmp.looks, a->cmp.looks);
	if (a->pooled)
		snprintf(family, sizeof(family),
			 "Over the whole study at most %.0f %% of the claims of each kind are expected to be wrong "
			 "(Benjamini-Hochberg; the intervals shown are at each kind's level): the differences it "
			 "states (a chunk or an array told apart from the best: %zu could be), the verdict's answers "
			 "under the mix (worth it, each drive worth buying: %zu) and each workload's worth it (%zu); "
			 "on simulated studies under real runs' noise a speed-up a few per cent under the worth-it "
			 "bar was read as worth it in at most 4 %% of them (docs/validation.md, \"Near the bar\"). ",
			 (1 - a->cmp.confidence) * 100, a->diff_claims, a->primary_claims, a->bar_claims);
	snprintf(a->method, sizeof(a->method),
		 "Each comparison is %s%s. A difference counts only when its interval excludes 1 and the ratio is "
		 "beyond %.0f %%. %sWorth it means the interval's bottom is at least %.2fx one drive (likely worth "
		 "it: only the point is); a claim against a bar is wrong on one side only, so its interval is "
		 "the two-sided one at twice its kind's error rate; a drive is worth buying when it adds at least %.2fx by the same rule, and "
		 "the array to build has every drive up to it worth buying. With fewer than %d repeats the noise is "
		 "unknown and every verdict is indicative.",
		 how, looks, a->cmp.threshold * 100, family, worth, gain, R0_CMP_MIN_REPEATS);
}

/* Each choice's loss in words: where it loses most against the best, or what it lacks. */
static void write_losses(struct r0_analysis *a)
{
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_choice *c = &a->choice[k];

		if (c->incomplete)
			snprintf(c->loss, sizeof(c->loss), "no figure for %s: not ranked", a->wl[c->missing_wl].name);
		else if (c->loses && c->loss_wl < a->n_wl)
			snprintf(c->loss, sizeof(c->loss), "loses %.0f %% on %s", (1 - c->loss_ratio) * 100,
				 a->wl[c->loss_wl].name);
		else if (c->loses)
			snprintf(c->loss, sizeof(c->loss), "loses %.0f %% under the mix", (1 - c->loss_ratio) * 100);
		else if (c->too_noisy)
			snprintf(c->loss, sizeof(c->loss), "too noisy to tell at %.2fx of the best (%.2f-%.2f)",
				 c->vs_best.ratio, c->vs_best.lo, c->vs_best.hi);
	}
}

static void write_chunks(struct r0_analysis *a)
{
	char *b = a->chunks, nm[32], nm2[32], tail[512] = "", one[192];
	const char *done = a->predicted ? "predicted" : "measured";
	size_t len = sizeof(a->chunks), n_set = 0, unsaid = 0;

	for (size_t k = 0; k < a->n_choice; k++)
		n_set += a->choice[k].tie_best;
	if (n_set > 1 && a->predicted) {
		list_choices(a, true, b, len);
		r0_strbuf_cat(b, len, " rank in this order under the %s mix, none told apart (predicted from one drive: "
		    "no noise to tell them by)", a->mix_name);
	} else if (n_set > 1 && a->indicative) {
		list_choices(a, true, b, len);
		r0_strbuf_cat(b, len, " rank in this order under the %s mix, none told apart (indicative: %u repeat%s, "
		    "the noise unknown)", a->mix_name, a->min_repeats, a->min_repeats == 1 ? "" : "s");
	} else if (n_set > 1) {
		list_choices(a, true, b, len);
		r0_strbuf_cat(b, len, " cannot be told apart (within %.0f %% or the noise) under the %s mix",
		    a->cmp.threshold * 100, a->mix_name);
	} else {
		r0_strbuf_cat(b, len, "%s is the best under the %s mix", choice_str(&a->choice[0], nm, sizeof(nm)),
		    a->mix_name);
	}
	/* the pick first, so a long list of losers never cuts it off; a prediction's best is not measured */
	if (a->pick && a->pick_for_counts)
		r0_strbuf_cat(tail, sizeof(tail), "; pick %s (it cannot be told from the best %s, %s, and was %s at "
		    "every drive count)", choice_str(&a->choice[a->pick], nm, sizeof(nm)), done,
		    choice_str(&a->choice[0], nm2, sizeof(nm2)), done);
	else if (a->pick)
		r0_strbuf_cat(tail, sizeof(tail), "; pick %s (within %.1f %% of the best %s, %s, and nearer 512K, mdadm's "
		    "default; md before dm)", choice_str(&a->choice[a->pick], nm, sizeof(nm)), R0_PICK_MARGIN * 100,
		    done, choice_str(&a->choice[0], nm2, sizeof(nm2)));
	else if (n_set > 1)
		r0_strbuf_cat(tail, sizeof(tail), "; pick %s (the best %s; no other shown within 2.5 %% of it and nearer "
		    "512K)", choice_str(&a->choice[0], nm, sizeof(nm)), done);
	else
		r0_strbuf_cat(tail, sizeof(tail), "; pick %s", choice_str(&a->choice[0], nm, sizeof(nm)));
	if (a->counts_at != a->pick)
		r0_strbuf_cat(tail, sizeof(tail), "; whether it is worth it and how many drives are answered at %s, which it cannot "
		    "be told from and which was measured at every drive count", choice_str(&a->choice[a->counts_at], nm,
		    sizeof(nm)));
	/* each loser whole while it leaves room for the pick and for counting the rest */
	for (size_t k = 0; k < a->n_choice; k++) {
		if (a->choice[k].tie_best || !a->choice[k].loss[0])
			continue;
		snprintf(one, sizeof(one), "; %s %s%s", choice_str(&a->choice[k], nm, sizeof(nm)), a->choice[k].loss,
			 a->choice[k].incomplete ? "" : a->choice[k].too_noisy ? ": measure it again" : ": avoid it");
		if (unsaid || strlen(b) + strlen(one) + strlen(tail) + 64 >= len)
			unsaid++;
		else
			r0_strbuf_cat(b, len, "%s", one);
	}
	if (unsaid)
		r0_strbuf_cat(b, len, "; %zu more lose or are too noisy to tell (each in the reasoning's candidates and in choices.csv)", unsaid);
	r0_strbuf_cat(b, len, "%s", tail);
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
	r0_strbuf_cat(s, len, "%u drives: %.2fx of %u: something the members share is the limit \u2014 a controller, a link, or the CPU (",
	    a->max_members, a->wl[lead].vs_fewer.ratio, a->max_members - 1);
	for (size_t k = 0; k <= a->n_wl; k++) {
		/* the lead workload first, then the others in order */
		size_t w = k == 0 ? lead : k - 1;
		const struct r0_cmp *c = &a->wl[w].vs_fewer;

		if (!a->wl[w].shared_limit || (k && w == lead))
			continue;
		r0_strbuf_cat(s, len, "%s%s", n ? "; " : "on ", a->wl[w].name);
		if (n)
			r0_strbuf_cat(s, len, ": %.2fx", c->ratio);
		if (!c->indicative)
			r0_strbuf_cat(s, len, ", %.2f-%.2f", c->lo, c->hi);
		n++;
	}
	r0_strbuf_cat(s, len, "; clean scaling would be %.2fx).", (double)a->max_members / (a->max_members - 1));
}

static const char *ordinal(unsigned n, char *buf, size_t len)
{
	unsigned t = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;

	snprintf(buf, len, "%u%s", n, t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th");
	return buf;
}

/* "shown not to reach" where the whole interval is under BAR, "not shown to reach" where it still reaches it */
static const char *reach_words(const struct r0_cmp *c, double bar)
{
	return c->hi < bar ? "shown not to reach" : "not shown to reach";
}

/*
 * What each drive bought beyond the 2nd adds, then why no more: "2 drives
 * give 1.80x one drive (1.70-1.90), worth it; the 3rd drive adds 1.40x of
 * 2 (1.30-1.50), at least the 1.20x a drive must add; a 4th drive adds
 * 1.03x (1.02-1.08) under the desktop mix, shown not to reach the 1.20x a
 * drive must add: something the members share is the limit", or why the
 * count is not decided. With 2 drives built the verdict's figure is the
 * 2nd drive's.
 */
static void write_build(struct r0_analysis *a)
{
	const struct r0_cmp *c = &a->more_vs_build;
	char *b = a->build, th[16], nm[32];
	size_t len = sizeof(a->build);
	double gain = a->cmp.drive_gain > 0 ? a->cmp.drive_gain : R0_DRIVE_GAIN;
	double worth = a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP;

	if (a->noise_beyond) {
		r0_strbuf_cat(b, len, "number of drives to build is not decided: the noise leaves it open");
		return;
	}
	if (!a->build_decided) {
		r0_strbuf_cat(b, len, "number of drives to build is not decided: %s at %u drives was not measured "
		    "(the study ended, or its plan left it out, before it)", choice_str(&a->choice[a->counts_at], nm,
		    sizeof(nm)), a->build_unmeasured);
		return;
	}

	if (a->fewer_vs_base.ratio > 0) {
		const struct r0_cmp *f = &a->fewer_vs_base;

		/* the count below the fewest worth it: why not fewer */
		r0_strbuf_cat(b, len, "%u drives give %.2fx one drive", a->build_fewest - 1, f->ratio);
		if (!f->indicative)
			r0_strbuf_cat(b, len, " (%.2f-%.2f), %s the %.2fx worth-it bar", f->lo, f->hi,
			    reach_words(f, worth), worth);
		else
			r0_strbuf_cat(b, len, ", below the %.2fx worth-it bar", worth);
	} else if (a->build_members >= 3 && a->drive_step[2].ratio > 0) {
		const struct r0_cmp *s2 = &a->drive_step[2];

		/* the 2nd drive, judged by the worth-it bar */
		r0_strbuf_cat(b, len, "2 drives give %.2fx one drive", s2->ratio);
		if (!s2->indicative)
			r0_strbuf_cat(b, len, " (%.2f-%.2f)", s2->lo, s2->hi);
		r0_strbuf_cat(b, len, ", %s", s2->lo >= worth ? "worth it" : "likely worth it");
	}
	for (unsigned m = 3; m <= a->build_members && m <= R0_MAX_MEMBERS; m++) {
		const struct r0_cmp *s = &a->drive_step[m];

		if (!(s->ratio > 0))
			continue;
		r0_strbuf_cat(b, len, "; the %s drive adds %.2fx of %u", ordinal(m, th, sizeof(th)), s->ratio, m - 1);
		if (!s->indicative)
			r0_strbuf_cat(b, len, " (%.2f-%.2f)", s->lo, s->hi);
		/* bought for its gain; below the fewest count worth it a drive is bought to reach the bar */
		if (m > a->build_fewest)
			r0_strbuf_cat(b, len, ", at least the %.2fx a drive must add", gain);
	}
	if (a->build_members < a->max_members) {
		if (*b)
			r0_strbuf_cat(b, len, "; ");
		if (a->max_members == a->build_members + 1)
			r0_strbuf_cat(b, len, "a %s drive adds %.2fx", ordinal(a->max_members, th, sizeof(th)), c->ratio);
		else
			r0_strbuf_cat(b, len, "%u more drives add %.2fx", a->max_members - a->build_members, c->ratio);
		if (!c->indicative)
			/* the whole interval under the bar says more than an interval that reaches it */
			r0_strbuf_cat(b, len, " (%.2f-%.2f) under the %s mix, %s the %.2fx a drive must add", c->lo, c->hi,
			    a->mix_name, reach_words(c, gain), gain);
		else   /* no noise known: the point decided, and the words say no more */
			r0_strbuf_cat(b, len, " under the %s mix%s, below the %.2fx a drive must add", a->mix_name,
			    a->predicted ? " (predicted)" : "", gain);
		if (a->shared_limit)
			r0_strbuf_cat(b, len, ": something the members share is the limit");
	}
	/* a drive list that starts with the 3rd: no "; " before it */
	if (!strncmp(b, "; ", 2))
		memmove(b, b + 2, strlen(b + 2) + 1);
	/* the count made at another choice than the pick (r0_analysis.counts_at): said where */
	if (a->counts_at != a->pick && *b) {
		char at[48];
		size_t n = (size_t)snprintf(at, sizeof(at), "at %s: ", choice_str(&a->choice[a->counts_at], nm,
									  sizeof(nm)));

		if (n < sizeof(at) && strlen(b) + n < len) {
			memmove(b + n, b, strlen(b) + 1);
			memcpy(b, at, n);
		}
	}
}

/* "A, B and C": the workloads whose cell at the money answers' choice (counts_at) answers ANS. */
static size_t list_answer(const struct r0_analysis *a, enum r0_answer ans, char *buf, size_t len)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
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
			r0_strbuf_cat(buf, len, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ", a->wl[w].name);
			n++;
		}
	return total;
}

const char *r0_analysis_unmeasured_caveat(const struct r0_analysis *a, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (a->mix_unmeasured_share > 0)
		snprintf(buf, len, " (%.0f %% of the mix's %s is in workloads not %s)", a->mix_unmeasured_share * 100,
			 a->mix_per_request ? "requests" : "time", a->predicted ? "predicted" : "measured");
	return buf;
}

/* The verdict in one sentence: the answer under the mix at counts_at (the pick, or the chunk the counts were
 * measured at: the chunks line says which), which workloads gain. */
static void write_verdict(struct r0_analysis *a)
{
	static const struct { enum r0_answer ans; const char *lead; } parts[] = {
		{ R0_ANSWER_WORTH, "worth it for " }, { R0_ANSWER_LIKELY, "likely worth it for " },
		{ R0_ANSWER_NOT, "not for " },
		{ R0_ANSWER_UNSURE, "could not tell for " }, { R0_ANSWER_CPU, "the measuring CPU was the limit for " },
	};
	const struct r0_choice *pick = &a->choice[a->counts_at];
	const struct r0_cmp *score = &a->build_vs_base;
	char *h = a->verdict, *l = a->lead, nm[32], with[32] = "", caveat[96];
	size_t len = sizeof(a->verdict);

	if (a->build_members < a->max_members)
		snprintf(with, sizeof(with), " with %u of them", a->build_members);
	snprintf(l, sizeof(a->lead), "%s%s%s under the %s mix, %s at %.2fx one drive", a->predicted ? "predicted " : "",
		 a->answer == R0_ANSWER_CPU ? "could not tell (the measuring CPU was the limit)" :
		 a->noise_beyond ? "too noisy to tell" : r0_answer_name(a->answer),
		 with, a->mix_name, choice_str(pick, nm, sizeof(nm)), score->ratio);
	if (!a->indicative)
		r0_strbuf_cat(l, sizeof(a->lead), " (%.2f-%.2f)", score->lo, score->hi);
	else if (a->predicted)
		r0_strbuf_cat(l, sizeof(a->lead), " (predicted from one drive, not measured)");
	else
		r0_strbuf_cat(l, sizeof(a->lead), " (indicative: %u repeat%s)", a->min_repeats,
		    a->min_repeats == 1 ? "" : "s");
	snprintf(h, len, "RAID0 of these %u drives: %s", a->max_members, l);
	/* the mix's speed-up is the user's time (Amdahl's law): say it so */
	if (score->ratio > 0)
		r0_strbuf_cat(h, len, ": your I/O would take %.0f %% of one drive's time", 100 / score->ratio);
	/* the figure is over the classes measured: what it leaves out is said beside it, not only below */
	r0_strbuf_cat(h, len, "%s", r0_analysis_unmeasured_caveat(a, caveat, sizeof(caveat)));
	if (a->noise_beyond)
		r0_strbuf_cat(h, len, "; no claim is made: the runs' noise is beyond any the study was validated on "
			      "(%s)", a->noise_why);
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		char list[512] = "";

		if (!list_answer(a, parts[k].ans, list, sizeof(list)))
			continue;
		r0_strbuf_cat(h, len, "; %s%s", parts[k].lead, list);
	}
	if (a->build[0])
		r0_strbuf_cat(h, len, "; %s", a->build);
	else if (a->shared_limit)
		r0_strbuf_cat(h, len, "; %u drives: %.2fx of %u on %s: something the members share is the limit",
		    a->max_members, a->wl[shared_lead(a)].vs_fewer.ratio, a->max_members - 1,
		    a->wl[shared_lead(a)].name);
	r0_strbuf_cat(h, len, ".");
}

/* Why there is no pick: no array at all (a study cut short holds only its first cells), or none against one drive. */
static void no_pick_words(const struct r0_analysis *a, char *buf, size_t len)
{
	char nm[32];

	if (a->max_members < 2)
		snprintf(buf, len, "No verdict: the results hold no RAID0 of 2 or more drives, only single drives "
			 "(a study cut short, or not yet past its first targets).");
	else if (a->n_choice && a->choice[0].incomplete)
		/* every choice lacks a workload another has: none can be ranked against the rest */
		snprintf(buf, len, "No verdict: no choice at %u members has a figure for every workload of the mix "
			 "that another has (%s: no figure for %s%s).", a->max_members,
			 choice_str(&a->choice[0], nm, sizeof(nm)), a->wl[a->choice[0].missing_wl].name,
			 a->predicted ? ", not predicted" : "");
	else
		snprintf(buf, len, "No verdict: the results hold no stripe of %u members measured against a single "
			 "drive.", a->max_members);
}

static void write_detail(struct r0_analysis *a, const struct r0_mix *mix)
{
	const struct r0_choice *pick = a->has_choice ? &a->choice[a->counts_at] : NULL;
	static const enum r0_answer order[] = { R0_ANSWER_WORTH, R0_ANSWER_LIKELY, R0_ANSWER_NOT, R0_ANSWER_UNSURE,
						R0_ANSWER_CPU };
	static const char *const lead[] = { "worth it for ", "likely worth it for ", "not for ", "could not tell for ",
					    "could not tell for " };
	static const char *const tail[] = { "", " (the interval's bottom below the bar)", "", " (within the noise)",
					    " (the measuring CPU was the limit)" };
	char *v = a->detail, nm[32];
	size_t len = sizeof(a->detail), parts = 0;
	double weight = 0;

	for (size_t w = 0; w < a->n_wl; w++)
		weight += a->wl[w].weight;
	if (a->n_wl && !(weight > 0)) {
		snprintf(v, len,
			 "No verdict: no workload of these results is in the %s mix (--mix everyday, replay, "
			 "or KEY=WEIGHT with their names or classes, weighs them).", a->mix_name);
		/* the first screen says no more than the detail */
		snprintf(a->verdict, sizeof(a->verdict), "%.2000s", v);
		return;
	}
	if (!pick) {
		no_pick_words(a, v, len);
		return;
	}
	/* the figures below are the count to build's: a heading of all the drives would claim them for all */
	if (a->build_members < a->max_members)
		snprintf(v, len, "RAID0 of %u of these %u drives: ", a->build_members, a->max_members);
	else
		snprintf(v, len, "RAID0 of these %u drives: ", a->max_members);
	if (a->predicted)
		r0_strbuf_cat(v, len, "predicted from one drive, not measured: no interval. ");
	else if (a->indicative)
		r0_strbuf_cat(v, len, "indicative: %u repeat%s, noise unknown. ", a->min_repeats,
		    a->min_repeats == 1 ? "" : "s");
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		size_t n = 0;

		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes,
								   a->build_members, w);

			if (!c || !c->speedup.n || c->answer != order[o])
				continue;
			r0_strbuf_cat(v, len, "%s%s%s (%.2fx", n ? ", " : parts ? "; " : "", n ? "" : lead[o], a->wl[w].name,
			    c->speedup.med);
			if (!c->vs_base.indicative)
				r0_strbuf_cat(v, len, ", %.2f-%.2f", c->speedup.min, c->speedup.max);
			r0_strbuf_cat(v, len, ")");
			n++;
		}
		if (n) {
			r0_strbuf_cat(v, len, "%s", tail[o]);
			parts++;
		}
	}
	r0_strbuf_cat(v, len, ". Chunk: %s. Under the %s mix %s", a->chunks, mix->name, choice_str(pick, nm, sizeof(nm)));
	if (a->build_members < a->max_members) {
		/* the answer is the count to build's; all the drives' figure beside it, named as such */
		r0_strbuf_cat(v, len, " of %u drives is %.2fx a single drive", a->build_members, a->build_vs_base.ratio);
		if (!a->indicative)
			r0_strbuf_cat(v, len, " (%.2f-%.2f)", a->build_vs_base.lo, a->build_vs_base.hi);
		r0_strbuf_cat(v, len, ": %s; of %u drives, %.2fx", r0_answer_name(a->answer), a->max_members, pick->score);
		if (!a->indicative)
			r0_strbuf_cat(v, len, " (%.2f-%.2f)", pick->score_min, pick->score_max);
		r0_strbuf_cat(v, len, ".");
	} else {
		r0_strbuf_cat(v, len, " is %.2fx a single drive", pick->score);
		if (!a->indicative)
			r0_strbuf_cat(v, len, " (%.2f-%.2f)", pick->score_min, pick->score_max);
		r0_strbuf_cat(v, len, ": %s.", r0_answer_name(a->answer));
	}
	if (a->shared_limit)
		r0_strbuf_cat(v, len, " %s", a->shared);
	if (a->build[0] && !a->build_decided)
		r0_strbuf_cat(v, len, " The %s.", a->build);
	else if (a->build[0])
		r0_strbuf_cat(v, len, " Build %u of them: %s.", a->build_members, a->build);
}

/* "- Members at md 64K, speed-up under the mix: 2: 1.94x (...); 3: 2.01x (...); 3 of 2: 1.03x (...): build 2." */
static void write_members(const struct r0_analysis *a, char *r, size_t len)
{
	const struct r0_choice *pick = &a->choice[a->counts_at];
	char nm[32];

	if (a->max_members < 3)
		return;
	r0_strbuf_cat(r, len, "- Members at %s, speed-up under the mix:", choice_str(pick, nm, sizeof(nm)));
	for (unsigned n = 2; n <= a->max_members; n++) {
		struct r0_cmp c;

		if (r0_rank_compare(a, pick, n, NULL, 0, &a->cmp_primary, &c))
			continue;
		r0_strbuf_cat(r, len, " %u: %.2fx", n, c.ratio);
		if (!c.indicative)
			r0_strbuf_cat(r, len, " (%.2f-%.2f)", c.lo, c.hi);
		r0_strbuf_cat(r, len, ";");
	}
	if (!a->build_decided)
		r0_strbuf_cat(r, len, " %s.\n", a->build);
	else if (a->build[0])
		r0_strbuf_cat(r, len, " %s; build %u.\n", a->build, a->build_members);
	else   /* no count reached the bar: no drive was judged by its gain */
		r0_strbuf_cat(r, len, " no count reaches the %.2fx worth-it bar beyond noise: the answer is %u drives'.\n",
		    a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP, a->max_members);
}

static void write_reasoning(struct r0_analysis *a, const char *excluded)
{
	char *r = a->reasoning;
	size_t len = sizeof(a->reasoning);
	char ck[32];
	bool any_raw = false;

	for (size_t w = 0; w < a->n_wl; w++)
		any_raw |= a->wl[w].base_raw;
	if (a->predicted)
		r0_strbuf_cat(r, len, "- Baseline: one drive %s, as r0predict took it from the drive's measurements; speed-up = the predicted array's bytes/s / the baseline's (no interval: one figure a cell); efficiency = speed-up / members.\n",
		    any_raw ? "raw (no array layer)" : "as a 1-member stripe");
	else
		r0_strbuf_cat(r, len, "- Baseline: one drive measured %s; speed-up = the array's mean bytes/s / the baseline's, with its interval; efficiency = speed-up / members.\n",
		    any_raw ? "raw (no array layer)" : "as a 1-member stripe (no raw run in the results)");
	if (*excluded)
		r0_strbuf_cat(r, len, "- Left out of every median (I/O errors, or no request completed in the window): %s.\n", excluded);
	if (a->n_visits_far)
		r0_strbuf_cat(r, len, "- Visits off across their workloads beyond the visits' noise (kept in every figure, as part of the time your I/O takes): %s.\n",
		    a->visits_far);
	if (*a->far)
		r0_strbuf_cat(r, len, "- Far from their cells' other repeats (kept in every figure): %s.\n",
		    a->far);
	if (a->max_drift > 0.005)
		r0_strbuf_cat(r, len, "- Drift: the passes' speeds differed by up to %.1f %%; each was taken out before comparing.\n",
		    a->max_drift * 100);
	r0_strbuf_cat(r, len, "- Mix %s, weights (shares of one drive's time%s):", a->mix_name,
	    a->mix_per_request ? ", from its shares of requests by the single drive's measured time per request here"
			       : "");
	for (size_t w = 0; w < a->n_wl; w++)
		if (a->wl[w].weight > 0)
			r0_strbuf_cat(r, len, " %s %.0f%%;", a->wl[w].name, a->wl[w].weight * 100);
	r0_strbuf_cat(r, len, "\n");
	if (a->has_choice) {
		r0_strbuf_cat(r, len, "- Candidates at %u members, speed-up under the mix%s:", a->max_members,
		    a->indicative ? "" : " (interval)");
		for (size_t k = 0; k < a->n_choice; k++) {
			const struct r0_choice *c = &a->choice[k];

			r0_strbuf_cat(r, len, "%s %s %s %.2fx", k ? ";" : "", r0_layer_name(c->layer),
			    chunk_str(c->chunk_bytes, ck, sizeof(ck)), c->score);
			if (!a->indicative)
				r0_strbuf_cat(r, len, " (%.2f-%.2f)", c->score_min, c->score_max);
			if (k && c->tie_best)
				r0_strbuf_cat(r, len, " (cannot be told from the best: %.2f of it)", c->vs_best.ratio);
			else if (k)
				r0_strbuf_cat(r, len, " (%s)", c->loss);
		}
		r0_strbuf_cat(r, len, ".\n- Chunk: %s.\n", a->chunks);
		write_members(a, r, len);
	}
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_choice *pick = a->has_choice ? &a->choice[a->counts_at] : NULL;
		uint32_t bc, tied[16];
		size_t nt;

		if (!pick)
			break;
		if (r0_analysis_best_chunk(a, pick->layer, a->max_members, w, &bc, tied, 16, &nt))
			continue;
		r0_strbuf_cat(r, len, "- %s: best chunk on %s %s", a->wl[w].name, r0_layer_name(pick->layer),
		    chunk_str(bc, ck, sizeof(ck)));
		if (nt > 1) {
			r0_strbuf_cat(r, len, " (equivalent:");
			for (size_t t = 0; t < nt; t++)
				r0_strbuf_cat(r, len, " %s", chunk_str(tied[t], ck, sizeof(ck)));
			r0_strbuf_cat(r, len, ")");
		}
		r0_strbuf_cat(r, len, "; at chunk %s:", chunk_str(pick->chunk_bytes, ck, sizeof(ck)));
		for (unsigned n = 1; n <= a->max_members; n++) {
			const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes, n, w);

			if (c && c->speedup.n)
				r0_strbuf_cat(r, len, " %u: %.2fx (eff %.2f)", n, c->speedup.med, c->efficiency);
		}
		r0_strbuf_cat(r, len, ".\n");
		if (a->wl[w].vs_fewer.ratio > 0) {
			const struct r0_cmp *c = &a->wl[w].vs_fewer;

			r0_strbuf_cat(r, len, "- %s: %u drives %.2fx of %u", a->wl[w].name, a->max_members, c->ratio,
			    a->max_members - 1);
			if (!c->indicative)
				r0_strbuf_cat(r, len, " (%.2f-%.2f)", c->lo, c->hi);
			r0_strbuf_cat(r, len, "%s\n", a->wl[w].shared_limit
				? ": the last drive added little where the others scaled well: something the members share is the limit \u2014 a controller, a link, or the CPU."
				: ".");
		}
		{
			const struct r0_cell *arr = r0_analysis_cell(a, pick->layer, pick->chunk_bytes,
								     a->max_members, w);

			if (arr && arr->answer == R0_ANSWER_CPU) {
				r0_strbuf_cat(r, len, "- %s is CPU-bound: the measuring thread was busy %.0f%% of the time on the %u-member array and %.0f%% on the single drive",
				    a->wl[w].name, arr->cpu_busy * 100, a->max_members, a->wl[w].base_cpu_busy * 100);
				r0_strbuf_cat(r, len, "; the CPU that measures, not the drives, may set this limit: could not tell.\n");
			} else if (arr && arr->cpu_busy >= R0_CPU_BOUND && arr->answer == R0_ANSWER_WORTH) {
				r0_strbuf_cat(r, len, "- %s: the measuring thread was busy %.0f%% of the time on the %u-member array, so its %.2fx is a lower bound: worth it all the same.\n",
				    a->wl[w].name, arr->cpu_busy * 100, a->max_members, arr->speedup.med);
			}
		}
	}
}

/* "md 2 x 64K 4K read repeat 2 (3 errors)" into the list of repeats left out. */
void r0_verdict_note_excluded(char *buf, size_t len, const struct r0_run *r, const char *wl)
{
	char ck[16], why[48];

	if (r->errors)
		snprintf(why, sizeof(why), "%llu errors", (unsigned long long)r->errors);
	else
		snprintf(why, sizeof(why), "no request completed");
	if (r->layer == R0_LAYER_RAW)
		r0_strbuf_cat(buf, len, "%sraw %s repeat %u (%s)", *buf ? "; " : "", wl, r->repeat, why);
	else
		r0_strbuf_cat(buf, len, "%s%s %u x %s %s repeat %u (%s)", *buf ? "; " : "", r0_layer_name(r->layer),
		    r->n_members, chunk_str(r->chunk_bytes, ck, sizeof(ck)), wl, r->repeat, why);
}

void r0_verdict_words(struct r0_analysis *a, const struct r0_mix *mix, const char *excluded)
{
	write_method(a);
	write_losses(a);
	if (a->has_choice) {
		write_chunks(a);
		write_shared(a);
		write_build(a);
		write_verdict(a);
	} else {
		no_pick_words(a, a->verdict, sizeof(a->verdict));
	}
	write_detail(a, mix);
	write_reasoning(a, excluded);
}
