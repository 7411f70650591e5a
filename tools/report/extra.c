// SPDX-License-Identifier: GPL-2.0-or-later
/* The sections of r0trim, scenario and r0age results (extra.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "charts.h"
#include "extra.h"
#include "svg.h"

#include "r0/benchcommon.h"
#include "r0/size.h"
#include "r0/trimwatch.h"

/* One line on an r0age record: what state, how it was made, steady or not. */
static void age_summary(char *buf, size_t len, const void *rec)
{
	const struct r0_state_record *r = rec;
	char wr[32], tr[32];
	int n;

	r0_format_size_human(r->bytes_written, wr, sizeof(wr));
	r0_format_size_human(r->bytes_discarded, tr, sizeof(tr));
	n = snprintf(buf, len, "%s: state %s%s, %.0f s, %s written, %s discarded", r->device_path,
		     r0_age_state_name(r->state), r->complete ? "" : " (stopped early: between states)",
		     r->seconds, wr, tr);
	if (r->state == R0_AGE_STEADY && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, r->steady_round ?
			 "; steady state reached at round %u of %u" : "; steady state not reached in %u rounds%.0u",
			 r->steady_round ? r->steady_round : r->rounds, r->rounds);
}

/* r0trim's UTC time "2025-01-31T06:00:00Z" as "2025-01-31 06:00 UTC"; else as it is. */
static const char *utc(const char *iso, char *buf, size_t len)
{
	if (strlen(iso) == 20 && iso[10] == 'T' && iso[19] == 'Z')
		snprintf(buf, len, "%.10s %.5s UTC", iso, iso + 11);
	else
		snprintf(buf, len, "%s", iso);
	return buf;
}

static void trim_summary(char *buf, size_t len, const void *res)
{
	const struct r0_trimres *t = res;
	char since[40];

	if (t->watch) {
		snprintf(buf, len, "%s (%s): over repeated use, %u reading%s since %s (r0trim --watch): %s",
			 t->description, t->device, t->w.records, t->w.records == 1 ? "" : "s",
			 utc(t->w.since, since, sizeof(since)), t->verdict);
		return;
	}
	snprintf(buf, len, "%s (%s): %s, discards %s (%u checks: %u PASS, %u FAIL, %u not checkable or conclusive)",
		 t->description, t->device, t->verdict,
		 t->pass ? "pass through to every member" : "do NOT pass through as the geometry says",
		 t->n_checks, t->n_pass, t->n_fail, t->n_checks - t->n_pass - t->n_fail);
}

static void scen_caption(char *buf, size_t len, const struct r0_scenario *s)
{
	const struct r0_scenario_cycle *r = &s->row[0];

	snprintf(buf, len,
		 "Measured: %s, md raid0 of %u r0ssd simulated SSDs (%u MiB each) with TRIM passed down "
		 "beside one with discards turned off; ext4 filled to %u %% and emptied each cycle (fstrim "
		 "where it passes); then r0bench on the array, %.0f s each: 4K random write QD32 and 128K "
		 "sequential write QD8. WAF = flash programs / host page writes of the members during the "
		 "4K test. Cycle 0: fresh SSDs.",
		 r->scenario[0] ? r->scenario : "scenario", r->members, r->ssd_mib, r->fill_pct, r->bench_s);
}

static void scen_summary(char *buf, size_t len, const struct r0_scenario *s)
{
	const struct r0_scenario_cycle *t0 = r0_scenario_find(s, true, 0), *n0 = r0_scenario_find(s, false, 0);
	const struct r0_scenario_cycle *tn = r0_scenario_find(s, true, s->max_cycle);
	const struct r0_scenario_cycle *nn = r0_scenario_find(s, false, s->max_cycle);

	if (!t0 || !n0 || !tn || !nn) {
		snprintf(buf, len, "Scenario: %zu rows, not both arrays at cycle 0 and %u.", s->n, s->max_cycle);
		return;
	}
	snprintf(buf, len,
		 "Without TRIM, 4K random writes went from %.0f IOPS fresh to %.0f after %u cycles (%.0f %%, WAF %.2f); "
		 "with TRIM, from %.0f to %.0f (%.0f %%, WAF %.2f).",
		 n0->randwrite_iops, nn->randwrite_iops, s->max_cycle, 100.0 * nn->randwrite_iops / n0->randwrite_iops,
		 nn->waf_randwrite, t0->randwrite_iops, tn->randwrite_iops,
		 100.0 * tn->randwrite_iops / t0->randwrite_iops, tn->waf_randwrite);
}

static void bench_summary(char *buf, size_t len, const struct extra *x);

void extra_verdict(char *buf, size_t len, const struct extra *x, bool *good)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < x->n_trim && n + 200 < len; i++) {
		if (x->trim[i].watch)
			n += (size_t)snprintf(buf + n, len - n, "%sTRIM over repeated use on %s: %s.", n ? " " : "",
					      x->trim[i].description, x->trim[i].verdict);
		else
			n += (size_t)snprintf(buf + n, len - n, "%sTRIM on %s: %s.", n ? " " : "", x->trim[i].description,
					      x->trim[i].pass ? "discards pass through" : "discards do NOT pass through");
		*good &= x->trim[i].pass;
	}
	if (x->scen.n && n + 400 < len) {
		if (n)
			buf[n++] = ' ';
		scen_summary(buf + n, len - n, &x->scen);
		n += strlen(buf + n);
	}
	for (size_t i = 0; i < x->n_age && n + 300 < len; i++) {
		n += (size_t)snprintf(buf + n, len - n, "%sDrive state of ", n ? " " : "");
		age_summary(buf + n, len - n, &x->age[i]);
		n += strlen(buf + n);
		n += (size_t)snprintf(buf + n, len - n, ".");
	}
	if (x->n_bench && n + 300 < len) {
		if (n)
			buf[n++] = ' ';
		bench_summary(buf + n, len - n, x);
		n += strlen(buf + n);
		snprintf(buf + n, len - n, ".");
	}
}

/* A figure opened in HTML: true when the chart goes in. */
static bool figure(struct doc *d)
{
	if (doc_html(d))
		fprintf(d->f, "<figure>\n");
	return doc_html(d);
}

/* A chart's caption, of CLASS, in HTML; it closes the figure. */
static void caption(struct doc *d, const char *class, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void caption(struct doc *d, const char *class, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(d->f, "<figcaption class=\"%s\">", class);
	esc(d->f, buf);
	fprintf(d->f, "</figcaption>\n</figure>\n");
}

/* A section's heading and one line a result: N ITEMS of SIZE bytes, each said by FN. */
static void section_head(struct doc *d, const char *id, const char *title, const void *items, size_t n, size_t size,
			 void (*fn)(char *buf, size_t len, const void *item))
{
	char buf[1024];

	doc_heading(d, 2, id, title);
	doc_ul(d, NULL);
	for (size_t i = 0; i < n; i++) {
		fn(buf, sizeof(buf), (const char *)items + i * size);
		doc_li(d, "%s", buf);
	}
	doc_ul_end(d);
}

/* r0trim --watch: the verdict's sentence and what each bottom device received against its share. */
static void watch_table(struct doc *d, const struct r0_trimres *t)
{
	char b1[32], b2[32], since[40];

	doc_p(d, "verdict %s: %s", t->verdict, t->w.detail);
	doc_p(d, "Discards each bottom device of %s received over %u interval%s since %s (readings in %s), against "
		 "its share of what the geometry sends over the whole device:", t->description, t->w.intervals,
		 t->w.intervals == 1 ? "" : "s", utc(t->w.since, since, sizeof(since)), t->w.record_file);
	doc_table(d);
	doc_th(d, '-', "device");
	doc_th(d, '-', "serial");
	doc_th(d, 'r', "discarded");
	doc_th(d, 'r', "share");
	doc_th(d, 'r', "geometry's share");
	doc_th(d, '-', "stopped");
	doc_row(d);
	for (unsigned i = 0; i < t->w.n_devices; i++) {
		const struct r0_trimres_wdev *v = &t->w.dev[i];

		r0_format_size_human(v->discarded_bytes, b1, sizeof(b1));
		doc_td(d, false, "%s", v->name);
		doc_td(d, false, "%s", v->serial[0] ? v->serial : "-");
		doc_td(d, false, "%s", b1);
		/* the share that makes a DRIFT; below the total that judges shares none does */
		doc_td(d, !strcmp(t->verdict, "PASS with DRIFT") && r0_watch_share_drifts(v->observed_share,
			 v->predicted_share), "%.1f %%", v->observed_share * 100);
		doc_td(d, false, "%.1f %%", v->predicted_share * 100);
		if (v->stopped_since[0]) {
			r0_format_size_human(v->others_since_bytes, b2, sizeof(b2));
			doc_td(d, true, "after %s (the others: %s)", utc(v->stopped_since, since, sizeof(since)), b2);
		} else {
			doc_td(d, false, "-");
		}
		doc_row(d);
	}
	doc_table_end(d);
}

static void trim_section(struct doc *d, const struct extra *x)
{
	char b1[32], b2[32];

	section_head(d, "trim", "TRIM passthrough (r0trim)", x->trim, x->n_trim, sizeof(*x->trim), trim_summary);
	for (size_t i = 0; i < x->n_trim; i++) {
		const struct r0_trimres *t = &x->trim[i];

		if (t->watch) {
			watch_table(d, t);
			continue;
		}
		if (figure(d)) {
			chart_trim(d->f, t);
			caption(d, "trim", "Measured by r0trim on %s (%s, kernel %s): the array filled, then each range "
				"discarded through it; the sectors each member received (block layer counters) against "
				"what the stripe geometry says it should. Red: a member got other than expected.",
				t->device, t->description, t->kernel);
		}
		doc_p(d, "Discarded sectors expected / observed on each member, %s, kernel %s:", t->description, t->kernel);
		doc_table(d);
		doc_th(d, '-', "range");
		doc_th(d, 'r', "at");
		doc_th(d, 'r', "length");
		doc_th(d, '-', "delivery");
		for (unsigned m = 0; m < t->n_members; m++)
			doc_th(d, 'r', "%s", t->member[m]);
		doc_row(d);
		for (unsigned r = 0; r < t->n_ranges; r++) {
			const struct r0_trimres_range *g = &t->range[r];

			if (r0_format_size(g->start_bytes, b1, sizeof(b1)))
				snprintf(b1, sizeof(b1), "%" PRIu64, g->start_bytes);
			if (r0_format_size(g->length_bytes, b2, sizeof(b2)))
				snprintf(b2, sizeof(b2), "%" PRIu64, g->length_bytes);
			doc_td(d, false, "%s", g->name);
			doc_td(d, false, "%s", b1);
			doc_td(d, false, "%s", b2);
			doc_td(d, strcmp(g->verdict, "PASS"), "%s", g->verdict);
			for (unsigned m = 0; m < t->n_members; m++)
				doc_td(d, false, "%" PRIu64 " / %" PRIu64, g->expected[m], g->observed[m]);
			doc_row(d);
		}
		doc_table_end(d);
	}
}

static void age_section(struct doc *d, const struct extra *x)
{
	section_head(d, "age", "Drive state (r0age)", x->age, x->n_age, sizeof(*x->age), age_summary);
	for (size_t i = 0; i < x->n_age; i++) {
		const struct r0_state_record *r = &x->age[i];

		if (r->state != R0_AGE_STEADY || !r->rounds)
			continue;
		if (figure(d)) {
			chart_steady(d->f, r);
			caption(d, "age", "Measured by r0age steady on %s: after 2 x capacity of 128K sequential "
				"preconditioning, rounds of %.1f s of 4K random writes at QD%u; steady state (SNIA PTS): "
				"5 rounds within 20 %% of their mean and a slope across them within 10 %% of it.",
				r->device_path, (double)r->params.round_ns / 1e9, r->params.queue_depth);
		}
		doc_p(d, "Steady-state rounds on %s:", r->device_path);
		doc_table(d);
		doc_th(d, 'r', "round");
		doc_th(d, 'r', "write IOPS");
		doc_row(d);
		for (unsigned k = 0; k < r->rounds && k < R0_AGE_ROUNDS_MAX; k++) {
			doc_td(d, false, "%u", k + 1);
			doc_td(d, false, "%.0f", r->round_iops[k]);
			doc_row(d);
		}
		doc_table_end(d);
	}
}

/* A number of the scenario's table; "-" for a missing row or a null. */
static void scen_td(struct doc *d, const struct r0_scenario_cycle *r, size_t field, const char *fmt)
{
	double v = r ? *(const double *)((const char *)r + field) : NAN;
	char buf[32];

	snprintf(buf, sizeof(buf), isnan(v) ? "-" : fmt, v);
	doc_td(d, false, "%s", buf);
}

static void scen_section(struct doc *d, const struct r0_scenario *s, const char *skipped)
{
	static const struct { size_t field; const char *head, *fmt, *title, *unit; } col[] = {
		{ offsetof(struct r0_scenario_cycle, randwrite_iops), "4K IOPS", "%.0f", "4K random write QD32", "IOPS" },
		{ offsetof(struct r0_scenario_cycle, randwrite_mb_s), "4K MB/s", "%.1f", NULL, NULL },
		{ offsetof(struct r0_scenario_cycle, seqwrite_mb_s), "seq MB/s", "%.1f", "128K sequential write", "MB/s" },
		{ offsetof(struct r0_scenario_cycle, waf_randwrite), "WAF", "%.2f", "WAF of the 4K random write", "flash/host" },
		{ offsetof(struct r0_scenario_cycle, mapped_after_delete_pct), "mapped deleted", "%.0f %%", NULL, NULL },
		{ offsetof(struct r0_scenario_cycle, mapped_before_bench_pct), "mapped bench", "%.0f %%", NULL, NULL },
	};
	char buf[1024], cap[1024];

	doc_heading(d, 2, "scenario", "Without TRIM: write speed and WAF over cycles");
	scen_summary(buf, sizeof(buf), s);
	doc_p(d, "%s", buf);
	/* figures from part of the cycles say so */
	if (skipped[0])
		doc_p(d, "Skipped: %s; the cycles shown are the lines that could be read.", skipped);
	/* a cycle measured again (a resumed run) shows its last line: the earlier is not dropped unsaid */
	if (r0_scenario_repeated(s, buf, sizeof(buf)))
		doc_p(d, "Recorded more than once: %s; the last line of each is shown (a resumed run measures an "
			 "interrupted cycle again).", buf);
	scen_caption(cap, sizeof(cap), s);
	for (size_t i = 0; doc_html(d) && i < sizeof(col) / sizeof(col[0]); i++) {
		if (!col[i].title || !figure(d))
			continue;
		chart_cycles(d->f, s, col[i].field, col[i].title, col[i].unit);
		caption(d, "scenario", "%s", cap);
	}
	doc_p(d, "%s", cap);
	doc_table(d);
	doc_th(d, 'r', "cycle");
	for (int k = 1; k >= 0; k--)
		for (size_t i = 0; i < sizeof(col) / sizeof(col[0]); i++)
			doc_th(d, 'r', "%s %s", k ? "TRIM" : "no TRIM", col[i].head);
	doc_row(d);
	for (unsigned c = 0; c <= s->max_cycle; c++) {
		doc_td(d, false, "%u", c);
		for (int k = 1; k >= 0; k--)
			for (size_t i = 0; i < sizeof(col) / sizeof(col[0]); i++)
				scen_td(d, r0_scenario_find(s, k, c), col[i].field, col[i].fmt);
		doc_row(d);
	}
	doc_table_end(d);
	doc_p(d, "mapped: the SSDs' mapped pages / logical pages once the files are deleted (before fstrim) "
		 "and before the benchmark (after fstrim where it passes).");
}

/* --- r0bench: drives or arrays measured alike, compared ------------------ */

#define BENCH_TESTS 64
#define BENCH_DEVS 16

/* The tests of every document (a label and its direction: "SEQ1M Q8T1 read"), in the order first seen. */
struct bench_grid {
	size_t nt, nd;
	char test[BENCH_TESTS][80];
	const struct r0_bench_result *what[BENCH_TESTS];   /* what each test measured (its first run) */
	const char *tp[BENCH_TESTS], *dev[BENCH_DEVS];
	double bps[BENCH_TESTS * BENCH_DEVS];   /* median bytes/s; NAN: not run there */
};

static void bench_name(const struct r0_bench_result *r, char *buf, size_t len)
{
	if (r->read_pct >= 100)
		snprintf(buf, len, "%s read", r->label);
	else if (r->read_pct == 0)
		snprintf(buf, len, "%s write", r->label);
	else
		snprintf(buf, len, "%s rw%u", r->label, r->read_pct);
}

/* A device's name: its file's name without the directory and .json */
static const char *bench_dev(const char *file, char *buf, size_t len)
{
	const char *b = strrchr(file, '/');
	size_t n;

	snprintf(buf, len, "%s", b ? b + 1 : file);
	n = strlen(buf);
	if (n > 5 && !strcmp(buf + n - 5, ".json"))
		buf[n - 5] = 0;
	return buf;
}

static void bench_grid(const struct extra *x, struct bench_grid *g, char names[BENCH_DEVS][64])
{
	g->nt = 0;
	g->nd = x->n_bench < BENCH_DEVS ? x->n_bench : BENCH_DEVS;
	for (size_t i = 0; i < BENCH_TESTS * BENCH_DEVS; i++)
		g->bps[i] = NAN;
	for (size_t d = 0; d < g->nd; d++) {
		g->dev[d] = bench_dev(x->bench_file[d], names[d], 64);
		for (size_t k = 0; k < x->bench[d].n_tests; k++) {
			const struct r0_bench_result *r = &x->bench[d].tests[k];
			char name[80];
			size_t t;

			if (r->trim)
				continue;
			bench_name(r, name, sizeof(name));
			/* one test is one measurement, whatever its label: the same label over another block
			 * size, depth, pattern or job count is another test, named by what it measured */
			for (t = 0; t < g->nt && !r0_bench_same_test(g->what[t], r); t++)
				;
			if (t == g->nt) {
				bool taken = false;
				char bs[16];

				if (g->nt == BENCH_TESTS)
					continue;
				for (size_t u = 0; u < g->nt; u++)
					taken |= !strcmp(g->test[u], name);
				if (taken && !r0_format_size(r->block_bytes, bs, sizeof(bs)))
					snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%s %s QD%u T%u)",
						 r->access == R0_ACCESS_SEQ ? "seq" : "random", bs, r->queue_depth,
						 r->jobs ? r->jobs : 1);
				g->what[g->nt] = r;
				snprintf(g->test[g->nt], sizeof(g->test[0]), "%s", name);
				g->tp[g->nt] = g->test[g->nt];
				g->nt++;
			}
			if (isnan(g->bps[t * g->nd + d]))   /* a label run twice: its first */
				g->bps[t * g->nd + d] = r->bps_median;
		}
	}
}

/*
 * How many tests run on them all each device was fastest on (WIN), of *OF, and
 * how many were tied (*TIED): a median equal to the highest is a win for nobody,
 * never for the file given first.
 */
static void bench_wins(const struct bench_grid *g, size_t win[BENCH_DEVS], size_t *of, size_t *tied)
{
	*of = *tied = 0;
	for (size_t d = 0; d < g->nd; d++)
		win[d] = 0;
	for (size_t t = 0; t < g->nt; t++) {
		const double *v = &g->bps[t * g->nd];
		size_t b = 0, at_top = 0;
		bool all = true;

		for (size_t d = 0; d < g->nd; d++) {
			all &= !isnan(v[d]);
			if (!isnan(v[d]) && (isnan(v[b]) || v[d] > v[b]))
				b = d;
		}
		if (!all)
			continue;
		for (size_t d = 0; d < g->nd; d++)
			at_top += v[d] == v[b];
		(*of)++;
		if (at_top > 1)
			(*tied)++;
		else
			win[b]++;
	}
}

static void bench_summary(char *buf, size_t len, const struct extra *x)
{
	static struct bench_grid g;
	char names[BENCH_DEVS][64], ties[32] = "";
	size_t win[BENCH_DEVS], of, tied, best = 0, n_best = 0;

	bench_grid(x, &g, names);
	bench_wins(&g, win, &of, &tied);
	for (size_t d = 1; d < g.nd; d++)
		if (win[d] > win[best])
			best = d;
	for (size_t d = 0; d < g.nd; d++)
		n_best += win[d] == win[best];
	if (tied)
		snprintf(ties, sizeof(ties), ", %zu tied", tied);
	if (g.nd >= 2 && !of) {
		snprintf(buf, len, "Measured with r0bench: %zu drives or arrays, no test run on them all (one block "
			 "size, depth, pattern and job count): nothing compared", g.nd);
	} else if (g.nd < 2) {
		snprintf(buf, len, "Measured with r0bench: %s (%s), %zu tests", g.nd ? g.dev[0] : "-",
			 g.nd ? x->bench[0].path : "-", g.nt);
	} else if (n_best > 1) {
		/* as many wins: none is named the winner, whatever the files' order */
		size_t n = 0;

		snprintf(buf, len, "Compared with r0bench: %zu drives or arrays on %zu tests; the highest median on the "
			 "most: none: ", g.nd, of);
		for (size_t d = 0; d < g.nd; d++)
			if (win[d] == win[best]) {
				n++;
				snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n == 1 ? "" : n == n_best ?
					 " and " : ", ", g.dev[d]);
			}
		snprintf(buf + strlen(buf), len - strlen(buf), " each on %zu of %zu%s; medians of passes, no interval: "
			 "a difference within the passes' spread is not shown", win[best], of, ties);
	} else {
		snprintf(buf, len, "Compared with r0bench: %zu drives or arrays on %zu tests; the highest median on the "
			 "most: %s (%zu of %zu%s); medians of passes, no interval: a difference within the passes' "
			 "spread is not shown", g.nd, of, g.dev[best], win[best], of, ties);
	}
}

static void bench_section(struct doc *d, const struct extra *x)
{
	static struct bench_grid g;
	char names[BENCH_DEVS][64], buf[1024];

	bench_grid(x, &g, names);
	doc_heading(d, 2, "bench", "Drives compared (r0bench)");
	bench_summary(buf, sizeof(buf), x);
	doc_p(d, "%s.", buf);
	if (figure(d)) {
		chart_bench(d->f, g.tp, g.nt, g.dev, g.nd, g.bps);
		caption(d, "bench", "Measured by r0bench on %zu target%s, each its own run: MB/s (10^6 bytes/s), the "
			"median of a test's counted passes; a test's name is its label and direction.", g.nd,
			g.nd == 1 ? "" : "s");
	}
	doc_table(d);
	doc_th(d, '-', "file");
	doc_th(d, '-', "target");
	doc_th(d, '-', "state");
	doc_row(d);
	for (size_t k = 0; k < g.nd; k++) {
		doc_td(d, false, "%s", g.dev[k]);
		doc_td(d, false, "%s", x->bench[k].path[0] ? x->bench[k].path : "-");
		doc_td(d, false, "%s", x->bench[k].state[0] ? x->bench[k].state : "-");
		doc_row(d);
	}
	doc_table_end(d);
	doc_p(d, "MB/s per test (median of the passes; - not run there):");
	doc_table(d);
	doc_th(d, '-', "test");
	for (size_t k = 0; k < g.nd; k++)
		doc_th(d, 'r', "%s", g.dev[k]);
	doc_row(d);
	for (size_t t = 0; t < g.nt; t++) {
		doc_td(d, false, "%s", g.test[t]);
		for (size_t k = 0; k < g.nd; k++) {
			double v = g.bps[t * g.nd + k];

			if (isnan(v))
				doc_td(d, false, "-");
			else
				doc_td(d, false, "%.1f", v / 1e6);
		}
		doc_row(d);
	}
	doc_table_end(d);
}

void extra_sections(struct doc *d, const struct extra *x)
{
	if (x->n_trim)
		trim_section(d, x);
	if (x->n_age)
		age_section(d, x);
	if (x->scen.n)
		scen_section(d, &x->scen, x->scen_skipped);
	if (x->n_bench)
		bench_section(d, x);
}
