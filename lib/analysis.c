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

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void r0_stat_of(const double *v, size_t n, struct r0_stat *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	s = malloc(n * sizeof(*s));
	if (!s) {   /* no median without memory: fall back on the first value */
		out->med = out->min = out->max = v[0];
		out->n = 1;
		return;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	out->min = s[0];
	out->max = s[n - 1];
	out->med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->n = (unsigned)n;
	free(s);
}

bool r0_stat_tie(const struct r0_stat *a, const struct r0_stat *b)
{
	double spread = fmax(a->max - a->min, b->max - b->min);

	return fabs(a->med - b->med) <= spread;
}

void r0_workload_class(const struct r0_sweep_rec *r, char *buf, size_t len)
{
	const char *dir = r->read_pct >= 100 ? "read" : "write";
	unsigned inflight = r->queue_depth * (r->jobs ? r->jobs : 1);

	if (r->read_pct > 0 && r->read_pct < 100)
		snprintf(buf, len, "mixed");
	else if (r->access == R0_ACCESS_SEQ)
		snprintf(buf, len, "seq-%s", dir);
	else if (r->block_bytes > 64 * 1024)
		snprintf(buf, len, "rand-large-%s", dir);
	else
		snprintf(buf, len, "rand-small-%s-%s", inflight <= 2 ? "q1" : "qd", dir);
}

struct mix_def {
	const char *name, *spec;
};

/* What each named mix stands for; shares, normalised later. */
static const struct mix_def mixes[] = {
	/* a desktop: mostly small reads and writes one at a time, some copying */
	{ "desktop", "rand-small-q1-read=35,rand-small-q1-write=20,seq-read=15,seq-write=5,"
		     "rand-large-read=10,rand-large-write=5,rand-small-qd-read=5,rand-small-qd-write=5" },
	/* a database: small random I/O with many in flight, a little logging */
	{ "database", "rand-small-qd-read=35,rand-small-qd-write=25,rand-small-q1-read=15,"
		      "rand-small-q1-write=15,seq-read=5,seq-write=5" },
	/* large files: streaming reads and writes, large random */
	{ "sequential", "seq-read=45,seq-write=30,rand-large-read=15,rand-large-write=10" },
};

static int parse_spec(const char *name, const char *s, struct r0_mix *m)
{
	char *copy = strdup(s), *save = NULL, *tok;
	double sum = 0;
	int err = -EINVAL;

	if (!copy)
		return -ENOMEM;
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '='), *end;
		double w;

		if (!eq || eq == tok || m->n == R0_MIX_MAX || (size_t)(eq - tok) >= sizeof(m->e[0].key))
			goto out;
		errno = 0;
		w = strtod(eq + 1, &end);
		if (errno || end == eq + 1 || *end || !isfinite(w) || w < 0)
			goto out;
		*eq = '\0';
		while (*tok == ' ')
			tok++;
		snprintf(m->e[m->n].key, sizeof(m->e[0].key), "%s", tok);
		m->e[m->n].weight = w;
		m->n++;
		sum += w;
	}
	if (m->n && sum > 0)
		err = 0;
out:
	free(copy);
	return err;
}

int r0_mix_parse(const char *s, struct r0_mix *out)
{
	for (size_t i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++)
		if (!strcmp(s, mixes[i].name))
			return parse_spec(mixes[i].name, mixes[i].spec, out);
	return parse_spec("custom", s, out);
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
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4;
		const struct r0_sweep_rec **p = realloc(g->recs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->recs = p;
		g->cap = cap;
	}
	g->recs[g->n++] = r;
	return 0;
}

#define STAT_OF(g, field, out)                                        \
	do {                                                          \
		for (size_t k_ = 0; k_ < (g)->n; k_++)                \
			v[k_] = (double)(g)->recs[k_]->field;         \
		r0_stat_of(v, (g)->n, (out));                         \
	} while (0)

static int fill_cell(struct group *g)
{
	double *v = malloc((g->n ? g->n : 1) * sizeof(*v));
	struct r0_cell *c = &g->c;

	if (!v)
		return -ENOMEM;
	STAT_OF(g, bytes_per_s, &c->bps);
	STAT_OF(g, iops, &c->iops);
	STAT_OF(g, cpu_s_per_io, &c->cpu_per_io);
	STAT_OF(g, lat_mean_ns, &c->lat_mean);
	STAT_OF(g, lat_p50_ns, &c->lat_p50);
	STAT_OF(g, lat_p99_ns, &c->lat_p99);
	STAT_OF(g, lat_p999_ns, &c->lat_p999);
	STAT_OF(g, lat_p9999_ns, &c->lat_p9999);
	for (size_t k = 0; k < g->n; k++) {
		const struct r0_sweep_rec *r = g->recs[k];

		c->errors += r->errors;
		/* older records lack busy: the process's CPU share per job, which
		 * io_uring's workers can push past 1 */
		v[k] = r->busy > 0 ? r->busy : r->iops * r->cpu_s_per_io / (r->jobs ? r->jobs : 1);
	}
	{
		struct r0_stat busy;

		r0_stat_of(v, g->n, &busy);
		c->cpu_busy = busy.med;
	}
	free(v);
	return 0;
}

/* The baseline of every workload: raw records, else all 1-member stripes. */
static int fill_bases(struct r0_analysis *a, const struct r0_sweep_set *set)
{
	double *v = malloc((set->n ? set->n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t w = 0; w < a->n_wl; w++) {
		for (int pass = 0; pass < 2; pass++) {
			size_t n = 0;

			for (size_t i = 0; i < set->n; i++) {
				const struct r0_sweep_rec *r = &set->recs[i];
				char name[48];

				if (pass == 0 ? r->layer != R0_LAYER_RAW : r->n_members != 1)
					continue;
				r0_sweep_rec_workload(r, name, sizeof(name));
				if (!strcmp(name, a->wl[w].name))
					v[n++] = r->bytes_per_s;
			}
			if (n) {
				r0_stat_of(v, n, &a->wl[w].base);
				a->wl[w].base_raw = pass == 0;
				break;
			}
		}
	}
	free(v);
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

static int cmp_choice(const void *x, const void *y)
{
	const struct r0_choice *a = x, *b = y;

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	if (a->layer != b->layer)
		return (int)a->layer - (int)b->layer;
	return a->chunk_bytes < b->chunk_bytes ? -1 : a->chunk_bytes > b->chunk_bytes;
}

static int fill_choices(struct r0_analysis *a)
{
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
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_choice *ch = &a->choice[k];
		double wsum = 0;

		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = r0_analysis_cell(a, ch->layer, ch->chunk_bytes,
								   a->max_members, w);

			if (!c || !c->speedup.n || a->wl[w].weight <= 0)
				continue;
			wsum += a->wl[w].weight;
			ch->score += a->wl[w].weight * c->speedup.med;
			ch->score_min += a->wl[w].weight * c->speedup.min;
			ch->score_max += a->wl[w].weight * c->speedup.max;
		}
		if (wsum > 0) {
			ch->score /= wsum;
			ch->score_min /= wsum;
			ch->score_max /= wsum;
		}
	}
	qsort(a->choice, a->n_choice, sizeof(*a->choice), cmp_choice);
	for (size_t k = 0; k < a->n_choice; k++) {
		struct r0_stat s0 = { a->choice[0].score, a->choice[0].score_min, a->choice[0].score_max, 1 };
		struct r0_stat sk = { a->choice[k].score, a->choice[k].score_min, a->choice[k].score_max, 1 };

		a->choice[k].tie_best = r0_stat_tie(&s0, &sk);
	}
	a->has_choice = a->n_choice > 0 && a->choice[0].score > 0;
	return 0;
}

int r0_analysis_best_chunk(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
			   size_t wl, uint32_t *best, uint32_t *tied, size_t max, size_t *n_tied)
{
	const struct r0_cell *b = NULL;

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->n_members == n && c->wl == wl &&
		    (!b || c->bps.med > b->bps.med))
			b = c;
	}
	if (!b)
		return -ENOENT;
	*best = b->chunk_bytes;
	*n_tied = 0;
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->n_members == n && c->wl == wl && r0_stat_tie(&b->bps, &c->bps) &&
		    *n_tied < max)
			tied[(*n_tied)++] = c->chunk_bytes;
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

static const char *chunk_str(uint32_t bytes, char *buf, size_t len)
{
	if (r0_format_size(bytes, buf, len))
		snprintf(buf, len, "%u", bytes);
	return buf;
}

/* Worth it: at least R0_WORTH_SPEEDUP, and faster than the base beyond noise. */
static bool cell_worth(const struct r0_analysis *a, const struct r0_cell *c)
{
	const struct r0_wl *wl = &a->wl[c->wl];

	return c->speedup.n && c->speedup.med >= R0_WORTH_SPEEDUP && !r0_stat_tie(&c->bps, &wl->base) &&
	       c->bps.med > wl->base.med;
}

static void write_verdict(struct r0_analysis *a, const struct r0_mix *mix)
{
	const struct r0_choice *best = a->has_choice ? &a->choice[0] : NULL;
	char ck[32], yes[1024] = "", no[1024] = "", ties[256] = "";
	size_t n_yes = 0, n_no = 0;

	if (!best) {
		snprintf(a->verdict, sizeof(a->verdict),
			 "No verdict: the results hold no stripe of %u members measured against a single drive.",
			 a->max_members);
		return;
	}
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = r0_analysis_cell(a, best->layer, best->chunk_bytes,
							   a->max_members, w);

		if (!c || !c->speedup.n)
			continue;
		if (cell_worth(a, c)) {
			cat(yes, sizeof(yes), "%s%s (%.2fx)", n_yes ? ", " : "", a->wl[w].name, c->speedup.med);
			n_yes++;
		} else {
			cat(no, sizeof(no), "%s%s (%.2fx)", n_no ? ", " : "", a->wl[w].name, c->speedup.med);
			n_no++;
		}
	}
	for (size_t k = 1; k < a->n_choice; k++) {
		char c2[32];

		if (!a->choice[k].tie_best)
			continue;
		cat(ties, sizeof(ties), "%s%s %s", ties[0] ? ", " : "", r0_layer_name(a->choice[k].layer),
		    chunk_str(a->choice[k].chunk_bytes, c2, sizeof(c2)));
	}
	chunk_str(best->chunk_bytes, ck, sizeof(ck));
	a->worth = best->score >= R0_WORTH_SPEEDUP && best->score_min > 1.0;
	snprintf(a->verdict, sizeof(a->verdict), "RAID0 of these %u drives: ", a->max_members);
	if (n_yes && n_no)
		cat(a->verdict, sizeof(a->verdict), "worth it for %s; not for %s", yes, no);
	else if (n_yes)
		cat(a->verdict, sizeof(a->verdict), "worth it for every workload measured: %s", yes);
	else
		cat(a->verdict, sizeof(a->verdict), "not worth it for any workload measured: %s", no);
	cat(a->verdict, sizeof(a->verdict), "; pick chunk %s (%s%s%s%s). Under the %s mix it is %.2fx a single drive (%.2f-%.2f): %s.",
	    ck, r0_layer_name(best->layer), ties[0] ? "; within noise: " : "", ties, "", mix->name,
	    best->score, best->score_min, best->score_max, a->worth ? "worth it" : "not worth it");
}

static void write_reasoning(struct r0_analysis *a)
{
	char *r = a->reasoning;
	size_t len = sizeof(a->reasoning);
	char ck[32];
	bool any_raw = false;

	for (size_t w = 0; w < a->n_wl; w++)
		any_raw |= a->wl[w].base_raw;
	cat(r, len, "- Baseline: one drive measured %s; speed-up = median bytes/s of the array / the baseline's median, spread from the repeats' min and max; efficiency = speed-up / members.\n",
	    any_raw ? "raw (no array layer)" : "as a 1-member stripe (no raw run in the results)");
	cat(r, len, "- Mix %s, weights:", a->mix_name);
	for (size_t w = 0; w < a->n_wl; w++)
		if (a->wl[w].weight > 0)
			cat(r, len, " %s %.0f%%;", a->wl[w].name, a->wl[w].weight * 100);
	cat(r, len, "\n");
	if (a->has_choice) {
		cat(r, len, "- Candidates at %u members, weighted speed-up (min-max):", a->max_members);
		for (size_t k = 0; k < a->n_choice; k++)
			cat(r, len, "%s %s %s %.2fx (%.2f-%.2f)%s", k ? ";" : "", r0_layer_name(a->choice[k].layer),
			    chunk_str(a->choice[k].chunk_bytes, ck, sizeof(ck)), a->choice[k].score,
			    a->choice[k].score_min, a->choice[k].score_max,
			    k && a->choice[k].tie_best ? " (tie with the best)" : "");
		cat(r, len, ".\n");
	}
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_choice *best = a->has_choice ? &a->choice[0] : NULL;
		uint32_t bc, tied[16];
		size_t nt;

		if (!best)
			break;
		if (r0_analysis_best_chunk(a, best->layer, a->max_members, w, &bc, tied, 16, &nt))
			continue;
		cat(r, len, "- %s: best chunk on %s %s", a->wl[w].name, r0_layer_name(best->layer),
		    chunk_str(bc, ck, sizeof(ck)));
		if (nt > 1) {
			cat(r, len, " (tie:");
			for (size_t t = 0; t < nt; t++)
				cat(r, len, " %s", chunk_str(tied[t], ck, sizeof(ck)));
			cat(r, len, ")");
		}
		cat(r, len, "; at chunk %s:", chunk_str(best->chunk_bytes, ck, sizeof(ck)));
		for (unsigned n = 1; n <= a->max_members; n++) {
			const struct r0_cell *c = r0_analysis_cell(a, best->layer, best->chunk_bytes, n, w);

			if (c && c->speedup.n)
				cat(r, len, " %u: %.2fx (eff %.2f)", n, c->speedup.med, c->efficiency);
		}
		cat(r, len, ".\n");
		{
			const struct r0_cell *arr = r0_analysis_cell(a, best->layer, best->chunk_bytes,
								     a->max_members, w);
			const struct r0_cell *raw = r0_analysis_cell(a, R0_LAYER_RAW, 0, 1, w);

			if (arr && arr->cpu_busy >= R0_CPU_BOUND) {
				cat(r, len, "- %s is CPU-bound: the measuring thread was busy %.0f%% of the time on the %u-member array",
				    a->wl[w].name, arr->cpu_busy * 100, a->max_members);
				if (raw)
					cat(r, len, " and %.0f%% on the single drive", raw->cpu_busy * 100);
				cat(r, len, "; the CPU that measures, not the drives, may set this limit.\n");
			}
		}
	}
}

void r0_analysis_free(struct r0_analysis *a)
{
	free(a->wl);
	free(a->cell);
	free(a->choice);
	memset(a, 0, sizeof(*a));
}

int r0_analyse(const struct r0_sweep_set *set, const struct r0_mix *mix, struct r0_analysis *out)
{
	struct r0_analysis a = { 0 };
	struct group *g = NULL;
	size_t ng = 0;
	int err = -ENOMEM;

	if (!set->n)
		return -ENODATA;
	snprintf(a.devices, sizeof(a.devices), "%s", set->recs[0].devices);
	snprintf(a.state, sizeof(a.state), "%s", set->recs[0].state);
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
		if (group_add(&g[k], r))
			goto out;
	}
	if (!a.max_members)
		a.max_members = 1;
	a.cell = calloc(ng ? ng : 1, sizeof(*a.cell));
	if (!a.cell)
		goto out;
	for (size_t k = 0; k < ng; k++) {
		if (fill_cell(&g[k]))
			goto out;
		if (g[k].n > a.repeats)
			a.repeats = (unsigned)g[k].n;
		a.cell[k] = g[k].c;
	}
	a.n_cell = ng;
	if (fill_bases(&a, set))
		goto out;
	for (size_t k = 0; k < a.n_cell; k++) {
		struct r0_cell *c = &a.cell[k];
		const struct r0_stat *b = &a.wl[c->wl].base;

		if (!b->n || b->med <= 0)
			continue;
		c->speedup.med = c->bps.med / b->med;
		c->speedup.min = c->bps.min / b->med;
		c->speedup.max = c->bps.max / b->med;
		c->speedup.n = c->bps.n;
		c->efficiency = c->speedup.med / c->n_members;
	}
	fill_weights(&a, mix);
	if (fill_choices(&a))
		goto out;
	write_verdict(&a, mix);
	write_reasoning(&a);
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
