// SPDX-License-Identifier: GPL-2.0-or-later
/* Every chart of r0report (charts.h). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "charts.h"
#include "svg.h"

#include "r0/size.h"
#include "r0/steady.h"

/* --- sweep ------------------------------------------------------------ */

void chart_speedup(FILE *f, const struct r0_analysis *a, size_t w)
{
	char sp[64];
	unsigned N = a->max_members;
	struct yaxis y = { ML, CW - MR, MT, CH - MT - MB, N + 0.5 };
	double pw = CW - ML - MR;
	char buf[128], ckb[16];

	for (size_t i = 0; i < a->n_cell; i++)
		if (a->cell[i].wl == w && a->cell[i].speedup.max > y.ymax)
			y.ymax = a->cell[i].speedup.max * 1.05;
	/* an interval from one cell's wild repeats may reach any height: the chart stops at 2N */
	if (!(y.ymax <= 2.0 * N + 0.5))
		y.ymax = 2.0 * N + 0.5;
#define X(n) (ML + (N > 1 ? ((double)(n) - 1) / (N - 1) : 0.5) * pw)
	snprintf(buf, sizeof(buf), "Speed-up against member count: %s", a->wl[w].name);
	svg_open(f, CW, CH, buf);
	svg_heading(f, CW, a->wl[w].name);
	y_grid(f, &y, 1, "x");
	for (unsigned n = 1; n <= N; n++) {
		snprintf(buf, sizeof(buf), "%u", n);
		svg_text(f, X(n), CH - MB + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, ML + pw / 2, CH - 6, "middle", 10, NULL, "members");
	/* ideal: n x one drive */
	fprintf(f, "<polyline class=\"ideal\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"5,4\" points=\"");
	for (unsigned n = 1; n <= N; n++)
		fprintf(f, "%.1f,%.1f ", X(n), yof(&y, n));
	svg_series_end(f);
	svg_text(f, X(N) - 2, yof(&y, N) - 5, "end", 9, "fill=\"#777\"", "ideal n x");
	for (size_t l = 0; l < 2; l++) {
		enum r0_layer ly = stripe_layers[l];
		const char *col = layer_color[ly];
		uint32_t c;

		if (!layer_chunk(a, ly, &c))
			continue;
		svg_series(f, col, "");
		for (unsigned n = 1; n <= N; n++) {
			const struct r0_cell *x = cell_at(a, ly, c, n, w);

			if (x && x->speedup.n)
				fprintf(f, "%.1f,%.1f ", X(n) + (l ? 3 : -3), yof(&y, x->speedup.med));
		}
		svg_series_end(f);
		for (unsigned n = 1; n <= N; n++) {
			const struct r0_cell *x = cell_at(a, ly, c, n, w);
			double px = X(n) + (l ? 3 : -3);

			if (!x || !x->speedup.n)
				continue;
			svg_line(f, px, yof(&y, x->speedup.min), px, yof(&y, x->speedup.max), col, "");
			svg_dot(f, px, yof(&y, x->speedup.med), 3.5, col, "%s %u members: %.2fx%s",
				r0_layer_name(ly), n, x->speedup.med, span(x->speedup.min, x->speedup.max, 2, sp, sizeof(sp)));
		}
		snprintf(buf, sizeof(buf), "%s, chunk %s", r0_layer_name(ly), ck(c, ckb, sizeof(ckb)));
		svg_swatch(f, ML + 6, MT + 4 + (int)l * 14, col, buf);
	}
	fprintf(f, "</svg>\n");
#undef X
}

/* Speed-up to a colour: red below 1, white at 1, green at n. */
static void heat_color(double s, double n, char *buf, size_t len)
{
	double t;
	int r, g, b;

	if (s < 1) {
		t = fmax(0, fmin(1, (1 - s) / 0.5));
		r = 255;
		g = (int)(255 - 120 * t);
		b = (int)(255 - 140 * t);
	} else {
		t = fmax(0, fmin(1, (s - 1) / fmax(0.5, n - 1)));
		r = (int)(255 - 190 * t);
		g = (int)(255 - 75 * t);
		b = (int)(255 - 165 * t);
	}
	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

void chart_heat(FILE *f, const struct r0_analysis *a, enum r0_layer l)
{
	char sp[64];
	uint32_t chunks[32];
	unsigned nc = sorted_chunks(a, l, chunks, 32);
	int cw = 78, rh = 26, left = 70, top = 120;
	int w = left + (int)a->n_wl * cw + 10 + 70, h = top + (int)nc * rh + 30;   /* 70: the last slanted label */
	char buf[160], col[16], ckb[16];

	if (w < 440)
		w = 440;
	snprintf(buf, sizeof(buf), "Chunk size x workload heat map, %s, %u members", r0_layer_name(l), a->max_members);
	svg_open(f, w, h, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	svg_text(f, 8, 34, "start", 10, "fill=\"#555\"",
		 "speed-up over one drive; thick border: best chunk or one that cannot be told from it");
	for (size_t wi = 0; wi < a->n_wl; wi++) {
		double x = left + (double)wi * cw + cw / 2.0;

		snprintf(buf, sizeof(buf), "transform=\"rotate(-40 %.1f %d)\"", x, top - 6);
		svg_text(f, x, top - 6, "start", 10, buf, a->wl[wi].name);
	}
	for (unsigned k = 0; k < nc; k++) {
		svg_text(f, left - 6, top + k * rh + rh / 2.0 + 4, "end", 11, NULL, ck(chunks[k], ckb, sizeof(ckb)));
		for (size_t wi = 0; wi < a->n_wl; wi++) {
			const struct r0_cell *x = r0_analysis_cell(a, l, chunks[k], a->max_members, wi);
			uint32_t best, tied[32];
			size_t nt = 0;
			bool tie = false;
			double px = left + (double)wi * cw, py = top + (double)k * rh;

			if (!x || !x->speedup.n)
				continue;
			r0_analysis_best_chunk(a, l, a->max_members, wi, &best, tied, 32, &nt);
			for (size_t t = 0; t < nt; t++)
				tie |= tied[t] == chunks[k];
			heat_color(x->speedup.med, a->max_members, col, sizeof(col));
			fprintf(f, "<rect class=\"heat\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"><title>",
				px + 1, py + 1, cw - 2, rh - 2, col, best == chunks[k] || tie ? "#222" : "#ddd",
				best == chunks[k] ? "3" : "1");
			snprintf(buf, sizeof(buf), "%s, chunk %s: %.2fx%s", a->wl[wi].name,
				 ck(chunks[k], ckb, sizeof(ckb)), x->speedup.med,
				 span(x->speedup.min, x->speedup.max, 2, sp, sizeof(sp)));
			esc(f, buf);
			fprintf(f, "</title></rect>\n");
			snprintf(buf, sizeof(buf), "%.2fx", x->speedup.med);
			svg_text(f, px + cw / 2.0, py + rh / 2.0 + 4, "middle", 11,
				 best == chunks[k] ? "font-weight=\"bold\"" : NULL, buf);
		}
	}
	svg_text(f, 8, h - 10, "start", 10, "fill=\"#555\"", "rows: chunk size; columns: workload");
	fprintf(f, "</svg>\n");
}

/* An axis label: "100 us", "1 ms", "10 ms". */
static void fmt_axis_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%g ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%g ms", ns / 1e6);
	else
		snprintf(buf, len, "%g s", ns / 1e9);
}

static const struct { const char *name; size_t off; const char *dash; } pct[] = {
	{ "p50", offsetof(struct r0_cell, lat_p50), "" },
	{ "p99", offsetof(struct r0_cell, lat_p99), "6,3" },
	{ "p99.9", offsetof(struct r0_cell, lat_p999), "2,3" },
};

/* Percentile K of cell X, 0 when there is none. */
static double pct_of(const struct r0_cell *x, size_t k)
{
	return x ? ((const struct r0_stat *)((const char *)x + pct[k].off))->med : 0;
}

void chart_latency(FILE *f, const struct r0_analysis *a, const size_t *group, size_t ng)
{
	static const enum r0_layer layers[] = { R0_LAYER_RAW, R0_LAYER_MD, R0_LAYER_DM };
	int w = 420, h = 260;
	double pw = w - 60 - 120, ph = h - MT - MB - 10, lo = 1e18, hi = 0;
	const struct r0_run *p = &a->wl[group[0]].proto;
	char buf[160], bs[16], ckb[16];

	for (size_t g = 0; g < ng; g++)
		for (size_t i = 0; i < a->n_cell; i++)
			for (size_t k = 0; a->cell[i].wl == group[g] && k < 3; k++) {
				double v = pct_of(&a->cell[i], k);

				if (v > 0) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
				}
			}
	if (hi <= 0)
		return;
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
#define LX(i) (60 + (ng > 1 ? (double)(i) / (ng - 1) : 0.5) * pw)
#define LY(v) (MT + 10 + ph - (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * ph)
	r0_format_size(p->block_bytes, bs, sizeof(bs));
	snprintf(buf, sizeof(buf), "Latency against queue depth: %s %s%s", bs,
		 r0_rw_name(p->access, p->read_pct), p->align_bytes ? " (unaligned)" : "");
	svg_open(f, w, h, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	for (double v = lo; v <= hi * 1.001; v *= 10) {
		svg_line(f, 60, LY(v), 60 + pw, LY(v), GRID, "");
		fmt_axis_ns(v, buf, sizeof(buf));
		svg_text(f, 56, LY(v) + 4, "end", 10, NULL, buf);
	}
	for (size_t g = 0; g < ng; g++) {
		snprintf(buf, sizeof(buf), "QD%u", a->wl[group[g]].proto.queue_depth);
		svg_text(f, LX(g), MT + 10 + ph + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, 60 + pw / 2, h - 6, "middle", 10, NULL, "queue depth (log-scale latency)");
	for (size_t l = 0; l < 3; l++) {
		const char *col = layer_color[layers[l]];
		unsigned n = layers[l] == R0_LAYER_RAW ? 1 : a->max_members;
		uint32_t c = 0;

		if (layers[l] != R0_LAYER_RAW && !layer_chunk(a, layers[l], &c))
			continue;
		if (layers[l] == R0_LAYER_RAW)
			snprintf(buf, sizeof(buf), "1 drive raw");
		else
			snprintf(buf, sizeof(buf), "%s %u x %s", r0_layer_name(layers[l]), n, ck(c, ckb, sizeof(ckb)));
		for (size_t k = 0; k < 3; k++) {
			svg_series(f, col, pct[k].dash);
			for (size_t g = 0; g < ng; g++) {
				double v = pct_of(r0_analysis_cell(a, layers[l], c, n, group[g]), k);

				if (v > 0)
					fprintf(f, "%.1f,%.1f ", LX(g), LY(v));
			}
			svg_series_end(f);
			for (size_t g = 0; g < ng; g++) {
				double v = pct_of(r0_analysis_cell(a, layers[l], c, n, group[g]), k);
				char t[32];

				if (v <= 0)
					continue;
				r0_format_ns(v, t, sizeof(t));
				svg_dot(f, LX(g), LY(v), 2.5, col, "%s %s QD%u: %s", buf, pct[k].name,
					a->wl[group[g]].proto.queue_depth, t);
			}
		}
		svg_swatch(f, 70 + pw, MT + 10 + l * 16.0, col, buf);
	}
	for (size_t k = 0; k < 3; k++) {
		char dash[64] = " stroke-width=\"2\"";

		if (*pct[k].dash)
			snprintf(dash, sizeof(dash), " stroke-width=\"2\" stroke-dasharray=\"%s\"", pct[k].dash);
		svg_line(f, 70 + pw, MT + 70 + k * 16.0, 90 + pw, MT + 70 + k * 16.0, "#333", dash);
		svg_text(f, 94 + pw, MT + 74 + k * 16.0, "start", 10, NULL, pct[k].name);
	}
	fprintf(f, "</svg>\n");
#undef LX
#undef LY
}

#define SW 680     /* the summary chart */
#define SL 150     /* room for workload names */
#define SR 210     /* room for the value labels */
#define ST 40
#define SROW 24

void chart_summary(FILE *f, const struct r0_analysis *a)
{
	char sp[64];
	/* worth it, not worth it, could not tell (either kind); check-html looks for them */
	static const char *const answer_color[] = { "#2ca02c", "#d62728", "#f2b701" };
	static const char *const names[] = { "worth it", "not worth it", "could not tell" };
	unsigned N = a->build_members;
	size_t rows = 0;
	double xmax = N + 0.5, pw = SW - SL - SR, y;
	char buf[200], nm[64];

	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = pick_cell(a, w);

		if (c) {
			rows++;
			if (c->speedup.max * 1.05 > xmax)
				xmax = c->speedup.max * 1.05;
		}
	}
	/* an interval from one cell's wild repeats may reach any height: the chart stops at 2N */
	if (!(xmax <= 2.0 * N + 0.5))
		xmax = 2.0 * N + 0.5;
#define X(v) (SL + (v) / xmax * pw)
	/* a prediction never reads as a measurement, the chart alone (summary.svg) included */
	snprintf(buf, sizeof(buf), "Summary: %sspeed-up per workload at %s%s", a->predicted ? "predicted " : "",
		 pick_str(a, nm, sizeof(nm)), a->predicted ? " (predicted from one drive, not measured)" : "");
	svg_open(f, SW, ST + (int)rows * SROW + 56, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	for (int v = 0; v <= (int)xmax; v++) {
		svg_line(f, X(v), ST, X(v), ST + (double)rows * SROW, GRID, "");
		snprintf(buf, sizeof(buf), "%dx", v);
		svg_text(f, X(v), ST + rows * SROW + 14.0, "middle", 10, NULL, buf);
	}
	y = ST;
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = pick_cell(a, w);
		enum r0_answer ans;

		if (!c)
			continue;
		ans = c->answer;
		svg_text(f, SL - 6, y + SROW / 2.0 + 4, "end", 11, NULL, a->wl[w].name);
		fprintf(f, "<rect class=\"answer\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
			SL, y + 4, X(c->speedup.med) - SL, SROW - 8,
			answer_color[ans == R0_ANSWER_WORTH ? 0 : ans == R0_ANSWER_NOT ? 1 : 2]);
		snprintf(buf, sizeof(buf), "%s: %s%.2fx%s: %s%s", a->wl[w].name, a->predicted ? "predicted " : "",
			 c->speedup.med, span(c->speedup.min, c->speedup.max, 2, sp, sizeof(sp)),
			 a->predicted ? "predicted " : "", r0_answer_name(c->answer));
		esc(f, buf);
		fprintf(f, "</title></rect>\n");
		svg_line(f, X(c->speedup.min), y + SROW / 2.0, X(c->speedup.max), y + SROW / 2.0, "#222", "");
		snprintf(buf, sizeof(buf), "%.2fx", c->speedup.med);
		if (a->wl[w].shared_limit)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (%u of %u: %.2fx: shared limit)",
				 a->max_members, a->max_members - 1, a->wl[w].vs_fewer.ratio);
		svg_text(f, SL + pw + 6, y + SROW / 2.0 + 4, "start", 10, NULL, buf);
		y += SROW;
	}
	/* one drive and the ideal n x */
	svg_line(f, X(1.0), ST - 4, X(1.0), y, "#333", "");
	fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n",
		X((double)N), ST - 4, X((double)N), y);
	snprintf(buf, sizeof(buf), "ideal %ux", N);
	svg_text(f, X((double)N), ST - 7, "middle", 9, "fill=\"#555\"", buf);
	svg_text(f, X(1.0), ST - 7, "middle", 9, "fill=\"#555\"", "1 drive");
	for (int k = 0; k < 3; k++)
		svg_swatch(f, SL + k * 130.0, y + 26, answer_color[k], names[k]);
	fprintf(f, "</svg>\n");
#undef X
}

/* --- r0trim, scenario, r0age ----------------------------------------- */

#define TW 620   /* the wider chart of r0trim */
#define TH 260
#define TML 64   /* room for 7-digit sector counts */

static const char *trim_color(const struct r0_trimres *t)
{
	return layer_color[strstr(t->description, "dm ") == t->description ? R0_LAYER_DM : R0_LAYER_MD];
}

void chart_trim(FILE *f, const struct r0_trimres *t)
{
	double pw = TW - TML - MR, ph = TH - MT - MB - 30, top = 1, pt = MT + 16;
	unsigned nm = t->n_members ? t->n_members : 1, nr = t->n_ranges ? t->n_ranges : 1;
	double gw = pw / nr, bw = gw * 0.8 / (2.0 * nm);
	char buf[256];
	int n;

	for (unsigned r = 0; r < t->n_ranges; r++)
		for (unsigned m = 0; m < t->n_members; m++)
			top = fmax(top, fmax((double)t->range[r].expected[m], (double)t->range[r].observed[m]));
	top = ceil(log10(top * 1.01));
#define Y(v) (pt + ph - ((v) > 0 ? log10(v) / top : 0) * ph)
	snprintf(buf, sizeof(buf), "TRIM delivery: discarded sectors expected and observed per member, %s", t->description);
	svg_open(f, TW, TH, buf);
	snprintf(buf, sizeof(buf), "%s: %s", t->description, t->verdict);
	svg_heading(f, TW, buf);
	for (int e = 0; e <= (int)top; e++) {
		svg_line(f, TML, Y(pow(10, e)), TW - MR, Y(pow(10, e)), GRID, "");
		snprintf(buf, sizeof(buf), "%.0f", pow(10, e));
		svg_text(f, TML - 4, Y(pow(10, e)) + 4, "end", 10, NULL, buf);
	}
	snprintf(buf, sizeof(buf), "transform=\"rotate(-90 10 %.1f)\"", pt + ph / 2);
	svg_text(f, 10, pt + ph / 2, "middle", 10, buf, "sectors (log)");
	svg_line(f, TML, pt, TML, pt + ph, "#333", "");
	svg_line(f, TML, pt + ph, TW - MR, pt + ph, "#333", "");
	for (unsigned r = 0; r < t->n_ranges; r++) {
		const struct r0_trimres_range *g = &t->range[r];
		double x0 = TML + r * gw + gw * 0.1;

		for (unsigned m = 0; m < t->n_members; m++) {
			double xe = x0 + 2 * m * bw, xo = xe + bw;

			snprintf(buf, sizeof(buf), "%s, %s: expected %" PRIu64 ", observed %" PRIu64 " sectors", g->name,
				 t->member[m], g->expected[m], g->observed[m]);
			fprintf(f, "<g><title>");
			esc(f, buf);
			fprintf(f, "</title>\n");
			if (g->expected[m])
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#bbbbbb\"/>\n", xe,
					Y((double)g->expected[m]), bw, pt + ph - Y((double)g->expected[m]));
			if (g->observed[m])
				fprintf(f, "<rect class=\"series\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					xo, Y((double)g->observed[m]), bw, pt + ph - Y((double)g->observed[m]),
					g->observed[m] == g->expected[m] ? trim_color(t) : "#c0392b");
			if (!g->expected[m] && !g->observed[m])
				svg_text(f, xe + bw, pt + ph - 3, "middle", 8, "fill=\"#777\"", "0");
			fprintf(f, "</g>\n");
		}
		svg_text(f, TML + r * gw + gw / 2, pt + ph + 13, "middle", 9, NULL, g->name);
		svg_text(f, TML + r * gw + gw / 2, pt + ph + 25, "middle", 9,
			 strcmp(g->verdict, "PASS") ? "fill=\"#c0392b\"" : "fill=\"#27ae60\"", g->verdict);
	}
	svg_swatch(f, TML + 6, MT - 4, "#bbbbbb", "expected (from the geometry)");
	n = snprintf(buf, sizeof(buf), "observed, a pair of bars per member:");
	for (unsigned m = 0; m < t->n_members && n < (int)sizeof(buf) - 70; m++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %s", t->member[m]);
	svg_swatch(f, TML + 186, MT - 4, trim_color(t), buf);
	fprintf(f, "</svg>\n");
#undef Y
}

/* The frame of a chart of rounds or cycles: 1.4 x CW wide, a y axis up to YMAX. */
static struct yaxis wide_open(FILE *f, double ymax, const char *title, const char *heading)
{
	int w = (int)(CW * 1.4);
	struct yaxis y = { ML, w - MR, MT, CH - MT - MB, ymax };

	svg_open(f, w, CH, title);
	svg_heading(f, w, heading);
	return y;
}

void chart_cycles(FILE *f, const struct r0_scenario *s, size_t field, const char *title, const char *unit)
{
	unsigned N = s->max_cycle ? s->max_cycle : 1;
	double ymax = 0, step;
	struct yaxis y;
	char buf[160], head[160];

#define V(r) (*(const double *)((const char *)(r) + field))
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(V(&s->row[i])))
			ymax = fmax(ymax, V(&s->row[i]));
	ymax = nice_scale(ymax, &step);
	snprintf(buf, sizeof(buf), "%s against cycles, with and without TRIM", title);
	snprintf(head, sizeof(head), "%s (%s)", title, unit);
	y = wide_open(f, ymax, buf, head);
#define X(c) (ML + (double)(c) / N * (y.x1 - ML))
	y_grid(f, &y, step, "");
	for (unsigned c = 0; c <= s->max_cycle; c++) {
		snprintf(buf, sizeof(buf), "%u", c);
		svg_text(f, X(c), CH - MB + 14, "middle", 10, NULL, buf);
	}
	snprintf(buf, sizeof(buf), "cycle (fill, delete, fstrim where it passes); y: %s", unit);
	svg_text(f, (ML + y.x1) / 2, CH - 6, "middle", 10, NULL, buf);
	for (int k = 0; k < 2; k++) {
		bool trim = k == 0;
		const char *col = layer_color[trim ? R0_LAYER_MD : R0_LAYER_DM];

		svg_series(f, col, "");
		for (unsigned c = 0; c <= s->max_cycle; c++) {
			const struct r0_scenario_cycle *r = r0_scenario_find(s, trim, c);

			if (r && !isnan(V(r)))
				fprintf(f, "%.1f,%.1f ", X(c), yof(&y, V(r)));
		}
		svg_series_end(f);
		for (unsigned c = 0; c <= s->max_cycle; c++) {
			const struct r0_scenario_cycle *r = r0_scenario_find(s, trim, c);

			if (r && !isnan(V(r)))
				svg_dot(f, X(c), yof(&y, V(r)), 3.5, col, "%s, cycle %u: %.2f %s",
					trim ? "TRIM" : "no TRIM", c, V(r), unit);
		}
		svg_swatch(f, y.x1 - 150, MT + 4 + k * 14, col,
			   trim ? "with TRIM (discards pass)" : "without TRIM (discard off)");
	}
	fprintf(f, "</svg>\n");
#undef X
#undef V
}

void chart_steady(FILE *f, const struct r0_state_record *r)
{
	unsigned n = r->rounds < R0_AGE_ROUNDS_MAX ? r->rounds : R0_AGE_ROUNDS_MAX;
	const unsigned win = R0_STEADY_SNIA.window;
	const char *col = layer_color[R0_LAYER_MD];
	double ymax = 0, step, pw;
	struct yaxis y;
	char buf[320];

	for (unsigned k = 0; k < n; k++)
		ymax = fmax(ymax, r->round_iops[k]);
	ymax = nice_scale(ymax, &step);
	snprintf(buf, sizeof(buf), "steady-state rounds of %s", r->device_path);
	y = wide_open(f, ymax, buf, "Write IOPS a round (r0age steady)");
	pw = y.x1 - ML;
#define X(k) (ML + ((double)(k) + 0.5) / n * pw)
	if (r->steady_round >= win && r->steady_round <= n)
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"#e6f4e6\"/>\n",
			ML + (double)(r->steady_round - win) / n * pw, MT, (double)win / n * pw, y.ph);
	y_grid(f, &y, step, "");
	svg_series(f, col, "");
	for (unsigned k = 0; k < n; k++)
		fprintf(f, "%.1f,%.1f ", X(k), yof(&y, r->round_iops[k]));
	svg_series_end(f);
	for (unsigned k = 0; k < n; k++) {
		svg_dot(f, X(k), yof(&y, r->round_iops[k]), 3.5, col, "round %u: %.0f IOPS", k + 1, r->round_iops[k]);
		snprintf(buf, sizeof(buf), "%u", k + 1);
		svg_text(f, X(k), CH - MB + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, ML + pw / 2, CH - 6, "middle", 10, NULL,
		 r->steady_round ? "round; shaded: the window that met the steady-state rule"
				 : "round; the steady-state rule was not met");
	fprintf(f, "</svg>\n");
#undef X
}

/* One bar colour per device, in order. */
static const char *const bench_colors[] = { "#2e86c1", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085",
					     "#7f8c8d", "#d4ac0d" };

void chart_bench(FILE *f, const char *const *tests, size_t nt, const char *const *devs, size_t nd, const double *bps)
{
	const int w = nt > 8 ? 60 + (int)nt * 44 : 420, h = 300;
	double pw = w - ML - MR, top = 0, step, gw = pw / (double)(nt ? nt : 1), bw = gw * 0.8 / (double)(nd ? nd : 1);
	struct yaxis y;
	char buf[256];

	for (size_t i = 0; i < nt * nd; i++)
		if (!isnan(bps[i]))
			top = fmax(top, bps[i] / 1e6);
	top = nice_scale(top > 0 ? top : 1, &step);
	y = (struct yaxis){ ML, w - MR, MT + 16, h - MT - 16 - MB - 24, top };
	svg_open(f, w, h, "Bytes/s per test and device (r0bench)");
	svg_heading(f, w, "MB/s per test (r0bench, median of the passes)");
	y_grid(f, &y, step, "");
	for (size_t t = 0; t < nt; t++) {
		double x0 = ML + (double)t * gw + gw * 0.1;

		for (size_t d = 0; d < nd; d++) {
			double v = bps[t * nd + d] / 1e6;

			if (isnan(v))
				continue;
			snprintf(buf, sizeof(buf), "%s, %s: %.1f MB/s", tests[t], devs[d], v);
			fprintf(f, "<g><title>");
			esc(f, buf);
			fprintf(f, "</title><rect class=\"series\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"/></g>\n", x0 + (double)d * bw, yof(&y, v), bw, yof(&y, 0) - yof(&y, v),
				bench_colors[d % (sizeof(bench_colors) / sizeof(bench_colors[0]))]);
		}
		snprintf(buf, sizeof(buf), "transform=\"rotate(-35 %.1f %.1f)\"", ML + ((double)t + 0.5) * gw,
			 y.top + y.ph + 12);
		svg_text(f, ML + ((double)t + 0.5) * gw, y.top + y.ph + 12, "end", 9, buf, tests[t]);
	}
	for (size_t d = 0; d < nd; d++)
		svg_swatch(f, ML + 6 + (double)(d % 3) * 130, MT - 4 + (double)(d / 3) * 12,
			   bench_colors[d % (sizeof(bench_colors) / sizeof(bench_colors[0]))], devs[d]);
	fprintf(f, "</svg>\n");
}
