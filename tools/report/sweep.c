// SPDX-License-Identifier: GPL-2.0-or-later
/* A sweep's tables and charts below the first screen (sweep.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "r0/size.h"
#include "cells.h"
#include "charts.h"
#include "svg.h"
#include "sweep.h"

/* A table's head: the workload, the single drive as FIRST, then every stripe at its chunk and count. */
static void target_heads(struct doc *d, const struct r0_analysis *a, const char *first)
{
	char b[32];
	uint32_t c;

	doc_table(d);
	doc_th(d, '-', "workload");
	doc_th(d, '-', "%s", first);
	for (size_t l = 0; l < 2; l++)
		for (unsigned n = 1; layer_chunk(a, stripe_layers[l], &c) && n <= a->max_members; n++) {
			const struct r0_cell *x = a->n_wl ? cell_at(a, stripe_layers[l], c, n, 0) : NULL;

			doc_th(d, '-', "%s %u x %s", r0_layer_name(stripe_layers[l]), n,
			       ck(x ? x->chunk_bytes : c, b, sizeof(b)));
		}
	doc_row(d);
}

static void speedup_table(struct doc *d, const struct r0_analysis *a)
{
	char sp[64];
	uint32_t c;

	doc_heading(d, 2, NULL, "Speed-up over one drive");
	if (a->predicted)
		doc_p(d, "Predicted bytes/s of each array / the single drive's, r0predict's one figure a cell: no "
		      "interval; efficiency = speed-up / members.");
	else
		doc_p(d, "Mean bytes/s of each array / the single drive's mean, (the interval) over both sides' repeats; efficiency = speed-up / members.");
	target_heads(d, a, "1 drive MB/s");
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_wl *wl = &a->wl[w];

		doc_td(d, false, "%s", wl->name);
		doc_td(d, false, "%.1f%s", wl->base.med / 1e6, span(wl->base.min / 1e6, wl->base.max / 1e6, 1, sp,
									   sizeof(sp)));
		for (size_t l = 0; l < 2; l++)
			for (unsigned n = 1; layer_chunk(a, stripe_layers[l], &c) && n <= a->max_members; n++) {
				const struct r0_cell *x = cell_at(a, stripe_layers[l], c, n, w);

				if (x && x->speedup.n)
					doc_td(d, false, "%.2fx%s eff %.2f", x->speedup.med,
					       span(x->speedup.min, x->speedup.max, 2, sp, sizeof(sp)), x->efficiency);
				else
					doc_td(d, false, "-");
			}
		doc_row(d);
	}
	doc_table_end(d);
}

/* Scenarios and replays: the seconds they took, what users wait for. */
static void time_table(struct doc *d, const struct r0_analysis *a)
{
	char sp[64];
	bool any = false;
	uint32_t c;

	for (size_t w = 0; w < a->n_wl; w++)
		any |= a->wl[w].proto.access >= R0_ACCESS_FS;
	if (!any)
		return;
	doc_heading(d, 2, NULL, "Time taken");
	doc_p(d, "Seconds each everyday scenario or replay took, median (min-max) over the repeats; lower is faster.");
	target_heads(d, a, "1 drive");
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *x = raw_cell(a, w);

		if (a->wl[w].proto.access < R0_ACCESS_FS)
			continue;
		doc_td(d, false, "%s", a->wl[w].name);
		if (x)
			doc_td(d, false, "%.2f%s", x->seconds.med, span(x->seconds.min, x->seconds.max, 2, sp, sizeof(sp)));
		else
			doc_td(d, false, "-");
		for (size_t l = 0; l < 2; l++)
			for (unsigned n = 1; layer_chunk(a, stripe_layers[l], &c) && n <= a->max_members; n++) {
				x = cell_at(a, stripe_layers[l], c, n, w);
				if (x)
					doc_td(d, false, "%.2f%s", x->seconds.med,
					       span(x->seconds.min, x->seconds.max, 2, sp, sizeof(sp)));
				else
					doc_td(d, false, "-");
			}
		doc_row(d);
	}
	doc_table_end(d);
}

static void chunk_table(struct doc *d, const struct r0_analysis *a, enum r0_layer l)
{
	uint32_t chunks[32];
	unsigned nc = sorted_chunks(a, l, chunks, 32);
	char b[64];

	if (!nc)
		return;
	snprintf(b, sizeof(b), "Chunk size on %s, %u members", r0_layer_name(l), a->max_members);
	doc_heading(d, 2, NULL, b);
	fputs(doc_html(d) ? "<p>Speed-up over one drive; <b>bold</b>: " : "Speed-up over one drive; **bold**: ", d->f);
	fputs(doc_html(d) ? "the best chunk for the workload, ~: cannot be told from it.</p>\n"
			  : "the best chunk for the workload, ~: cannot be told from it.\n\n", d->f);
	doc_table(d);
	doc_th(d, '-', "workload");
	for (unsigned k = 0; k < nc; k++)
		doc_th(d, '-', "%s", ck(chunks[k], b, sizeof(b)));
	doc_row(d);
	for (size_t w = 0; w < a->n_wl; w++) {
		uint32_t best, tied[32];
		size_t nt = 0;

		if (r0_analysis_best_chunk(a, l, a->max_members, w, &best, tied, 32, &nt))
			continue;
		doc_td(d, false, "%s", a->wl[w].name);
		for (unsigned k = 0; k < nc; k++) {
			const struct r0_cell *x = r0_analysis_cell(a, l, chunks[k], a->max_members, w);
			bool tie = false;

			for (size_t t = 0; t < nt; t++)
				tie |= tied[t] == chunks[k];
			if (!x || !x->speedup.n)
				doc_td(d, false, "-");
			else
				doc_td(d, chunks[k] == best, "%s%.2fx", tie && chunks[k] != best ? "~" : "",
				       x->speedup.med);
		}
		doc_row(d);
	}
	doc_table_end(d);
}

static void latency_table(struct doc *d, const struct r0_analysis *a)
{
	static const char *const heads[] = { "workload", "target", "p50", "p99", "p99.9", "CPU/IO" };
	char b1[32], b2[32], b3[32];

	doc_heading(d, 2, NULL, "Latency and CPU");
	if (a->predicted)
		doc_p(d, "Completion latency as r0predict predicts it (the median; its tail and the CPU are not predicted).");
	else
		doc_p(d, "Completion latency (median of the repeats' percentiles) and CPU seconds per I/O of the measuring threads.");
	doc_table(d);
	for (size_t k = 0; k < 6; k++)
		doc_th(d, '-', "%s", heads[k]);
	doc_row(d);
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *rows[3] = { raw_cell(a, w), NULL, NULL };
		char names[3][48] = { "1 drive raw" };

		/* a scenario's time is no request's latency: it has none recorded */
		if (a->wl[w].proto.access == R0_ACCESS_FS)
			continue;
		for (size_t l = 0; l < 2; l++) {
			uint32_t c;

			if (!layer_chunk(a, stripe_layers[l], &c))
				continue;
			rows[l + 1] = r0_analysis_cell(a, stripe_layers[l], c, a->max_members, w);
			snprintf(names[l + 1], sizeof(names[l + 1]), "%s %u x %s", r0_layer_name(stripe_layers[l]),
				 a->max_members, ck(c, b1, sizeof(b1)));
		}
		for (int k = 0; k < 3; k++) {
			if (!rows[k])
				continue;
			r0_format_ns(rows[k]->lat_p50.med, b1, sizeof(b1));
			r0_format_ns(rows[k]->lat_p99.med, b2, sizeof(b2));
			r0_format_ns(rows[k]->lat_p999.med, b3, sizeof(b3));
			doc_td(d, false, "%s", a->wl[w].name);
			doc_td(d, false, "%s", names[k]);
			doc_td(d, false, "%s", b1);
			doc_td(d, false, "%s", b2);
			doc_td(d, false, "%s", b3);
			doc_td(d, false, "%.1f us", rows[k]->cpu_per_io.med * 1e6);
			doc_row(d);
		}
	}
	doc_table_end(d);
}

void sweep_tables(struct doc *d, const struct r0_analysis *a)
{
	speedup_table(d, a);
	time_table(d, a);
	for (size_t l = 0; l < 2; l++)
		chunk_table(d, a, stripe_layers[l]);
	latency_table(d, a);
}

/* A chart's caption: only what differs from "how it was measured" at the top. */
static void figure_end(FILE *f, const char *what)
{
	fprintf(f, "<figcaption>");
	esc(f, what);
	fprintf(f, "</figcaption>\n</figure>\n");
}

/* Latency charts: one a group of workloads that differ only in queue depth. */
static void latency_charts(FILE *f, const struct r0_analysis *a)
{
	size_t n_wl = a->n_wl;
	bool *seen = calloc(n_wl ? n_wl : 1, sizeof(*seen)), multi = false;
	size_t *group = calloc(n_wl ? n_wl : 1, sizeof(*group));

	for (size_t w = 0; w < n_wl; w++)
		for (size_t o = w + 1; o < n_wl; o++)
			multi |= same_but_qd(&a->wl[w].proto, &a->wl[o].proto);
	for (size_t w = 0; seen && group && w < n_wl; w++) {
		size_t ng = 0;

		if (seen[w])
			continue;
		for (size_t o = w; o < n_wl; o++)
			if (!seen[o] && same_but_qd(&a->wl[w].proto, &a->wl[o].proto)) {
				seen[o] = true;
				group[ng++] = o;
			}
		for (size_t i = 1; i < ng; i++)   /* by queue depth */
			for (size_t j = i; j > 0 && a->wl[group[j - 1]].proto.queue_depth >
						       a->wl[group[j]].proto.queue_depth; j--) {
				size_t t = group[j];
				group[j] = group[j - 1];
				group[j - 1] = t;
			}
		/* one queue depth only: charted when nothing was measured at several */
		if (ng < 2 && (multi || a->wl[w].proto.access != R0_ACCESS_RAND))
			continue;
		fprintf(f, "<figure>\n");
		chart_latency(f, a, group, ng);
		figure_end(f, "Completion latency percentiles (medians over the repeats) of one raw drive and of each back end at its chosen chunk.");
	}
	free(seen);
	free(group);
}

void sweep_charts(FILE *f, const struct r0_analysis *a)
{
	uint32_t chunks[32];
	bool any_rand = false;

	fprintf(f, "<h2>Speed-up against member count</h2>\n");
	for (size_t w = 0; w < a->n_wl; w++) {
		fprintf(f, "<figure>\n");
		chart_speedup(f, a, w);
		figure_end(f, "Speed-up = the array's bytes/s / one raw drive's; dots: the ratio of the means, bars: the interval of the ratio (both sides' repeats); dashed: the ideal n x; 1-member stripes at the chunk they were measured with.");
	}
	fprintf(f, "<h2 id=\"chunk\">Chunk size</h2>\n");
	for (size_t l = 0; l < 2; l++) {
		if (!sorted_chunks(a, stripe_layers[l], chunks, 32))
			continue;
		fprintf(f, "<figure>\n");
		chart_heat(f, a, stripe_layers[l]);
		figure_end(f, "Speed-up over one raw drive at each chunk size, at the largest member count.");
	}
	fprintf(f, "<h2 id=\"latency\">Latency against queue depth</h2>\n");
	for (size_t w = 0; w < a->n_wl; w++)
		any_rand |= a->wl[w].proto.access == R0_ACCESS_RAND;
	if (!any_rand)
		fprintf(f, "<p>No random workload was measured in these results.</p>\n");
	latency_charts(f, a);
}
