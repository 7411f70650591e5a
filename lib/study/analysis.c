// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sweep's analysis (r0/analysis.h): the records grouped into cells
 * (one workload on one target) with their statistics, each workload's
 * single-drive baseline and its weight under the mix; then the ranking
 * (lib/study/ranking.c) and the words (lib/study/verdict.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/noise.h"
#include "analysis_steps.h"
#include "grow.h"
#include "strbuf.h"

struct group {
	struct r0_cell c;
	size_t n, cap;
	const struct r0_run **recs;
	double *adj;                /* recs' bytes/s with the drift taken out (after fit_noise) */
};

static ssize_t find_wl(const struct r0_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->n_wl; i++)
		if (!strcmp(a->wl[i].name, name))
			return (ssize_t)i;
	return -1;
}

static int group_add(struct group *g, const struct r0_run *r)
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

/* The busiest job thread's own CPU share; older records lack it: then the
 * process's CPU share per job, which io_uring's workers can push past 1. */
static double busy_of(const struct r0_run *r)
{
	return r->busy > 0 ? r->busy : r->iops * r->cpu_s_per_io / (r->jobs ? r->jobs : 1);
}

/* The cell's statistics over its error-free repeats (g->recs holds only those). */
static int fill_cell(struct group *g, bool passes)
{
	double *v = malloc((g->n ? g->n : 1) * sizeof(*v));
	struct r0_cell *c = &g->c;

	if (!v)
		return -ENOMEM;
	c->bps_v = malloc((g->n ? g->n : 1) * sizeof(*c->bps_v));
	c->pass_v = malloc((g->n ? g->n : 1) * sizeof(*c->pass_v));
	if (!c->bps_v || !c->pass_v) {
		free(v);
		free(c->bps_v);
		free(c->pass_v);
		c->bps_v = NULL;
		c->pass_v = NULL;
		return -ENOMEM;
	}
	for (size_t k = 0; k < g->n; k++) {
		c->bps_v[k] = g->adj ? g->adj[k] : g->recs[k]->bytes_per_s;
		c->pass_v[k] = passes ? g->recs[k]->pass : g->recs[k]->repeat;   /* as fit_noise's visit */
	}
	STAT_OF(g, bytes_per_s, &c->bps);
	STAT_OF(g, iops, &c->iops);
	STAT_OF(g, cpu_s_per_io, &c->cpu_per_io);
	STAT_OF(g, runtime_s, &c->seconds);
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
static bool unmeasured(const struct r0_run *r)
{
	return r->errors || (!r->ios && !r->predicted);
}

static bool is_base(const struct r0_cell *c, int pass)
{
	return pass == 0 ? c->layer == R0_LAYER_RAW : c->n_members == 1;
}

bool r0_analysis_is_baseline(const struct r0_analysis *a, const struct r0_cell *c)
{
	const struct r0_wl *wl = &a->wl[c->wl];

	return wl->base.n && c->bps.n && is_base(c, wl->base_raw ? 0 : 1);
}

/*
 * The baseline of every workload: its raw cell, else all its 1-member
 * stripes' repeats together (their noise then the workload's pooled one).
 */
static int fill_bases(struct r0_analysis *a)
{
	for (size_t w = 0; w < a->n_wl; w++) {
		struct r0_wl *wl = &a->wl[w];

		for (int pass = 0; pass < 2 && !wl->base.n; pass++) {
			size_t n = 0, cells = 0;
			double *busy;

			for (size_t k = 0; k < a->n_cell; k++)
				if (a->cell[k].wl == w && is_base(&a->cell[k], pass))
					n += a->cell[k].bps.n;
			if (!n)
				continue;
			wl->base_v = malloc(n * sizeof(*wl->base_v));
			wl->base_pass = malloc(n * sizeof(*wl->base_pass));
			busy = malloc(n * sizeof(*busy));
			if (!wl->base_v || !wl->base_pass || !busy) {
				free(busy);
				return -ENOMEM;
			}
			n = 0;
			for (size_t k = 0; k < a->n_cell; k++) {
				const struct r0_cell *c = &a->cell[k];

				if (c->wl != w || !is_base(c, pass) || !c->bps.n)
					continue;
				memcpy(wl->base_v + n, c->bps_v, c->bps.n * sizeof(*wl->base_v));
				memcpy(wl->base_pass + n, c->pass_v, c->bps.n * sizeof(*wl->base_pass));
				for (size_t j = 0; j < c->bps.n; j++)
					busy[n + j] = c->cpu_busy;
				n += c->bps.n;
				wl->base_var = c->var_log;
				wl->base_df = c->df_log;
				cells++;
			}
			if (cells > 1 && a->pooled && wl->noise > 0) {
				wl->base_var = wl->noise * wl->noise;
				wl->base_df = R0_NOISE_PRIOR_DF;
			}
			r0_stat_of(wl->base_v, n, &wl->base);
			wl->base_cpu_busy = r0_median(busy, n);
			wl->base_raw = pass == 0;
			free(busy);
		}
	}
	return 0;
}

/* repeats and visits judged far named in the reasoning; the rest are counted */
#define FAR_NAMED 6
#define VISITS_NAMED 4
/* repeats left out (errors, nothing completed) named: one flaky drive can fail every run it is in */
#define EXCLUDED_NAMED 12

/* "md 3 x 64K Seq read repeat 2 (0.61x of its cell)" into the list of repeats judged far. */
static void note_far(char *buf, size_t len, const struct r0_run *r, const char *wl, double of_cell)
{
	if (r->layer == R0_LAYER_RAW)
		r0_strbuf_cat(buf, len, "%sraw %s repeat %u (%.2fx of its cell)", *buf ? "; " : "", wl, r->repeat,
			      of_cell);
	else
		r0_strbuf_cat(buf, len, "%s%s %u x %uK %s repeat %u (%.2fx of its cell)", *buf ? "; " : "",
			      r0_layer_name(r->layer), r->n_members, r->chunk_bytes / 1024, wl, r->repeat, of_cell);
}

/* "md 3 x 512K, pass 3: 0.85x across 5 workloads" into the list of visits judged far. */
static void note_visit(char *buf, size_t len, const struct r0_cell *c, const char *unit,
		       const struct r0_noise_visit *v)
{
	if (c->layer == R0_LAYER_RAW)
		r0_strbuf_cat(buf, len, "%sraw, %s %u", *buf ? "; " : "", unit, v->visit);
	else
		r0_strbuf_cat(buf, len, "%s%s %u x %uK, %s %u", *buf ? "; " : "", r0_layer_name(c->layer),
			      c->n_members, c->chunk_bytes / 1024, unit, v->visit);
	r0_strbuf_cat(buf, len, ": %.2fx across %u workload%s", exp(v->effect), v->runs, v->runs == 1 ? "" : "s");
}

/*
 * The study's noise (r0/noise.h) over every group's error-free repeats:
 * each group keeps every repeat, with its drift taken out (adj); those
 * judged far are counted, named and marked in a->run_use (RECS: the set's
 * records, which the groups point into). The cells' and workloads'
 * noise levels come with it.
 */
static int fit_noise(struct r0_analysis *a, struct group *g, size_t ng, const struct r0_run *recs)
{
	struct r0_noise_obs *obs;
	struct r0_noise nz;
	size_t n = 0, i = 0, *target, alone = 0;
	bool passes = false;
	int err;

	for (size_t k = 0; k < ng; k++) {
		n += g[k].n;
		for (size_t j = 0; j < g[k].n; j++)
			passes |= g[k].recs[j]->pass > 0;
	}
	obs = calloc(n ? n : 1, sizeof(*obs));
	target = calloc(ng ? ng : 1, sizeof(*target));
	if (!obs || !target) {
		free(obs);
		free(target);
		return -ENOMEM;
	}
	/* each cell's target: the first cell of its layer, chunk and members */
	for (size_t k = 0; k < ng; k++)
		for (size_t q = 0; q <= k; q++)
			if (g[q].c.layer == g[k].c.layer && g[q].c.chunk_bytes == g[k].c.chunk_bytes &&
			    g[q].c.n_members == g[k].c.n_members) {
				target[k] = q;
				break;
			}
	for (size_t k = 0; k < ng; k++)
		for (size_t j = 0; j < g[k].n; j++, i++) {
			const struct r0_run *r = g[k].recs[j];

			/* a file that records no pass was swept repeat by repeat (older r0sweep): its
			 * repeat stands for its visit's pass; drift is taken out only by recorded passes */
			obs[i] = (struct r0_noise_obs){ .cell = k, .group = g[k].c.wl, .target = target[k],
							.pass = r->pass, .visit = passes ? r->pass : r->repeat,
							.value = r->bytes_per_s };
		}
	err = r0_noise_fit(obs, n, ng, a->n_wl, &nz);
	if (err) {
		free(obs);
		free(target);
		return err;
	}
	for (size_t v = 0; v < nz.n_visits_far; v++) {
		/* the first few by name */
		if (a->n_visits_far++ < VISITS_NAMED)
			note_visit(a->visits_far, sizeof(a->visits_far), &g[nz.visits_far[v].target].c,
				   passes ? "pass" : "repeat", &nz.visits_far[v]);
	}
	if (a->n_visits_far > VISITS_NAMED)
		r0_strbuf_cat(a->visits_far, sizeof(a->visits_far), "; and %zu more",
			      a->n_visits_far - VISITS_NAMED);
	i = 0;
	for (size_t k = 0; k < ng && !err; k++) {
		size_t first = i;
		double *v = malloc((g[k].n ? g[k].n : 1) * sizeof(*v)), med;

		g[k].adj = malloc((g[k].n ? g[k].n : 1) * sizeof(*g[k].adj));
		if (!v || !g[k].adj) {
			free(v);
			err = -ENOMEM;
			break;
		}
		for (size_t j = 0; j < g[k].n; j++)
			v[j] = obs[first + j].adjusted;
		med = r0_median(v, g[k].n);
		free(v);
		/* every run stays in the cell's figures; those judged far are counted and named */
		for (size_t j = 0; j < g[k].n; j++, i++) {
			g[k].adj[j] = obs[i].adjusted;
			if (!obs[i].far)
				continue;
			g[k].c.n_far++;
			a->n_far++;
			a->run_use[g[k].recs[j] - recs] = obs[i].visit_far ? R0_RUN_VISIT_FAR : R0_RUN_FAR;
			if (obs[i].visit_far) {
				g[k].c.n_visit_far++;
				continue;
			}
			/* the first few by name: the report's first screens stay readable */
			if (alone++ < FAR_NAMED)
				note_far(a->far, sizeof(a->far), g[k].recs[j], a->wl[g[k].c.wl].name,
					 med > 0 ? obs[i].adjusted / med : 0);
		}
		g[k].c.var_log = nz.cell_var[k];
		g[k].c.df_log = nz.cell_df[k];
	}
	if (alone > FAR_NAMED)
		r0_strbuf_cat(a->far, sizeof(a->far), "; and %zu more", alone - FAR_NAMED);
	for (size_t w = 0; w < a->n_wl; w++)
		a->wl[w].noise = nz.group_var[w] > 0 ? sqrt(nz.group_var[w]) : 0;
	a->max_drift = nz.max_drift;
	a->visit_rho = nz.visit_rho;
	r0_noise_free(&nz);
	free(obs);
	free(target);
	return err;
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

/*
 * The single drive's time for one request of workload W (one run of a
 * scenario or a replay): a block workload's request over the baseline's
 * rate, a scenario's measured seconds. 0: not known.
 */
static double time_per_request(const struct r0_analysis *a, size_t w)
{
	const struct r0_wl *wl = &a->wl[w];

	if (wl->proto.access == R0_ACCESS_FS || wl->proto.access == R0_ACCESS_REPLAY) {
		for (size_t k = 0; k < a->n_cell; k++)
			if (a->cell[k].wl == w && a->cell[k].seconds.n &&
			    (a->cell[k].layer == R0_LAYER_RAW || (!wl->base_raw && a->cell[k].n_members == 1)))
				return a->cell[k].seconds.med;
		return 0;
	}
	return wl->base.med > 0 ? (double)wl->proto.block_bytes / wl->base.med : 0;
}

/*
 * A mix of request (run) shares into shares of one drive's time, each
 * weight times one drive's time per request of its workload: Amdahl's
 * law weighs the time a workload takes, not how often it comes.
 */
static void weights_to_time(struct r0_analysis *a, const struct r0_mix *mix)
{
	double sum = 0;

	if (!mix->per_request)
		return;
	for (size_t w = 0; w < a->n_wl; w++) {
		a->wl[w].weight *= time_per_request(a, w);
		sum += a->wl[w].weight;
	}
	for (size_t w = 0; w < a->n_wl; w++)
		a->wl[w].weight = sum > 0 ? a->wl[w].weight / sum : 0;
	a->mix_per_request = true;
}

void r0_analysis_free(struct r0_analysis *a)
{
	for (size_t w = 0; a->wl && w < a->n_wl; w++) {
		free(a->wl[w].base_v);
		free(a->wl[w].base_pass);
	}
	for (size_t k = 0; a->cell && k < a->n_cell; k++) {
		free(a->cell[k].bps_v);
		free(a->cell[k].pass_v);
	}
	free(a->run_use);
	free(a->wl);
	free(a->cell);
	free(a->choice);
	memset(a, 0, sizeof(*a));
}

static int analyse(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		   const struct r0_noise_diag *machine, struct r0_analysis *out);

int r0_analyse(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
	       struct r0_analysis *out)
{
	return analyse(set, mix, cmp, NULL, out);
}

int r0_analyse_machine(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		       const struct r0_noise_diag *d, struct r0_analysis *out)
{
	return analyse(set, mix, cmp, d && d->measured && d->visit_sd > R0_HONEST_VISIT_SD ? d : NULL, out);
}

static int analyse(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		   const struct r0_noise_diag *machine, struct r0_analysis *out)
{
	struct r0_analysis a = { 0 };
	struct group *g = NULL;
	size_t ng = 0;
	char excluded[2048] = "";
	bool passes = false;        /* the records carry their pass; else a repeat is its visit */
	int err = -ENOMEM;

	if (!set->n)
		return -ENODATA;
	for (size_t i = 0; i < set->n; i++) {
		passes |= set->recs[i].pass > 0;
		a.predicted |= set->recs[i].predicted;
	}
	if (cmp)
		a.cmp = *cmp;
	else
		r0_cmp_defaults(&a.cmp);
	if (!(a.cmp.confidence > 0 && a.cmp.confidence < 1) || !(a.cmp.threshold >= 0) || a.cmp.resamples < 100)
		return -EINVAL;
	/* an adaptive study looked at its data several times: every comparison pays for each look */
	for (size_t i = 0; i < set->n; i++)
		if (set->recs[i].looks > a.cmp.looks)
			a.cmp.looks = set->recs[i].looks;
	if (set->recs[0].describe[0])
		snprintf(a.devices, sizeof(a.devices), "%s; %s", set->recs[0].describe, set->recs[0].devices);
	else
		snprintf(a.devices, sizeof(a.devices), "%s", set->recs[0].devices);
	snprintf(a.state, sizeof(a.state), "%s", set->recs[0].state);
	snprintf(a.precondition, sizeof(a.precondition), "%s", set->recs[0].precondition);
	snprintf(a.tool, sizeof(a.tool), "%s", set->recs[0].tool);
	snprintf(a.mix_name, sizeof(a.mix_name), "%s", mix->name);
	a.run_use = calloc(set->n, sizeof(*a.run_use));   /* R0_RUN_USED until told otherwise */
	if (!a.run_use)
		goto out;
	a.n_run = set->n;
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_run *r = &set->recs[i];
		char name[48];
		ssize_t w;
		size_t k;

		r0_run_workload(r, name, sizeof(name));
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
			a.run_use[i] = R0_RUN_UNMEASURED;
			g[k].c.n_excluded++;
			a.n_excluded++;
			if (a.n_excluded <= EXCLUDED_NAMED)
				r0_verdict_note_excluded(excluded, sizeof(excluded), r, name);
			continue;
		}
		if (group_add(&g[k], r))
			goto out;
	}
	a.passes = passes;
	if (!a.max_members)
		a.max_members = 1;
	a.build_members = a.max_members;
	for (size_t k = 0; k < ng; k++)
		if (g[k].n > a.repeats)
			a.repeats = (unsigned)g[k].n;
	err = fit_noise(&a, g, ng, set->recs);
	if (err)
		goto out;
	/*
	 * A mix is the user's time: its speed-up is what that I/O would take
	 * (Amdahl's law), never a mean of speed-ups; the workloads of one
	 * visit move together.
	 */
	a.cmp.by_time = true;
	a.cmp.visit_rho = a.visit_rho;
	err = -ENOMEM;
	/* three repeats somewhere show the noise; the whole study's then stands for each cell's */
	a.pooled = a.cmp.method == R0_CMP_WELCH_T && a.repeats >= R0_CMP_MIN_REPEATS;
	a.cell = calloc(ng ? ng : 1, sizeof(*a.cell));
	if (!a.cell)
		goto out;
	for (size_t k = 0; k < ng; k++) {
		if (fill_cell(&g[k], passes))
			goto out;
		if (!a.pooled)
			g[k].c.var_log = g[k].c.df_log = 0;
		a.cell[k] = g[k].c;
		a.n_cell = k + 1;
	}
	a.min_repeats = UINT32_MAX;
	if (fill_bases(&a))
		goto out;
	fill_weights(&a, mix);
	weights_to_time(&a, mix);
	r0_mix_unmeasured(mix, set->recs, set->n, a.mix_unmeasured, sizeof(a.mix_unmeasured), &a.mix_unmeasured_share);
	err = r0_rank_all(&a);
	if (err)
		goto out;
	if (a.min_repeats == UINT32_MAX)
		a.min_repeats = a.repeats;
	a.indicative = !a.pooled && a.min_repeats < R0_CMP_MIN_REPEATS;
	if (machine && a.has_choice && !a.indicative) {
		snprintf(a.noise_why, sizeof(a.noise_why), "visit sd %.1f %%; validated up to %.1f %%",
			 machine->visit_sd * 100, R0_HONEST_VISIT_SD * 100);
		r0_rank_withhold(&a);
	}
	if (a.n_excluded > EXCLUDED_NAMED)
		r0_strbuf_cat(excluded, sizeof(excluded), "; and %zu more", a.n_excluded - EXCLUDED_NAMED);
	r0_verdict_words(&a, mix, excluded);
	/* a share of the mix no workload measured goes nowhere: said, never silently dropped */
	if (a.mix_unmeasured[0])
		r0_strbuf_cat(a.reasoning, sizeof(a.reasoning), "- Not in this study: %s; the mix's weights are "
			      "over the workloads %s.\n", a.mix_unmeasured, a.predicted ? "predicted" : "measured");
	*out = a;
	memset(&a, 0, sizeof(a));
	err = 0;
out:
	for (size_t k = 0; k < ng; k++) {
		free(g[k].recs);
		free(g[k].adj);
	}
	free(g);
	r0_analysis_free(&a);
	return err;
}
