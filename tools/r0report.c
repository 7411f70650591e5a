// SPDX-License-Identifier: GPL-2.0-or-later
/* r0report: r0sweep, r0trim, scenario and r0age result files into a Markdown report and one self-contained HTML page. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "mixarg.h"

#include "r0/age.h"
#include "r0/analysis.h"
#include "r0/results.h"
#include "r0/size.h"
#include "r0/steady.h"
#include "r0/sweep.h"

#define PROG "r0report"

enum { OPT_MIX = CHAR_MAX + 1, OPT_TITLE, OPT_THRESHOLD };

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [-o DIR] [--mix MIX] [--threshold PCT] [--title TEXT] FILE...\n"
	      "\n"
	      "Reads result files and writes DIR/report.md and DIR/report.html: the\n"
	      "verdict first, then how it was reached and the evidence. Files are told\n"
	      "apart by their schema: r0sweep results (" R0_SWEEP_SCHEMA ", pooled when they\n"
	      "come from the same study: files of other devices, state, preconditioning,\n"
	      "region, runtime or ramp are refused, naming the difference), r0trim -J\n"
	      "documents (r0trim/1) and scenario JSON lines (r0scenario/1). The HTML page\n"
	      "is one self-contained file (no scripts, fonts or anything from the network)\n"
	      "with SVG charts: speed-up against member count per workload (with the\n"
	      "ideal n x line), a chunk size x workload heat map per back end, latency\n"
	      "percentiles against queue depth; r0trim's discarded sectors per member\n"
	      "and range, expected against observed; a scenario's write speed and WAF\n"
	      "against cycles with and without TRIM. Prints the verdict and the two paths.\n"
"\n"
	      "Options:\n"
	      "  -o, --output DIR   where the report goes (default .; created if missing)\n"
	      "      --mix MIX      the workload mix the verdict weighs: desktop (default),\n"
	      "                     database, sequential, or KEY=WEIGHT,... where KEY is a\n"
	      "                     workload (\"4K QD32 read\") or a class (seq-read,\n"
	      "                     rand-small-q1-write, rand-large-read, ...), or a mix\n"
	      "                     file r0profile measured (r0mix/1)\n"
	      "      --threshold PCT  the smallest difference that counts (default 5)\n"
	      "      --title TEXT   the report's title\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      version\n"
	      "\n"
	      "r0age records (r0age --json, or /run/r0kit/state/*.json) give a drive-state section\n"
	      "with the steady-state rounds charted.\n"
	      "Exit status: 0 ok, 1 failure (unreadable or empty input, cannot write), 2 usage.\n",
	      f);
}

static const char *const layer_color[] = { "#555555", "#1f77b4", "#e8710a" };

/* --- small helpers ---------------------------------------------------- */

static const char *ck(uint32_t bytes, char *buf, size_t len)
{
	if (r0_format_size(bytes, buf, len))
		snprintf(buf, len, "%u", bytes);
	return buf;
}

/* Text for HTML and SVG: & < > " escaped. */
static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e4)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e7)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else
		snprintf(buf, len, "%.1f ms", ns / 1e6);
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

/* The chunk a layer is shown at: the pick for its layer, else the layer's best under the mix. */
static bool layer_chunk(const struct r0_analysis *a, enum r0_layer l, uint32_t *chunk)
{
	if (a->has_choice && a->choice[a->pick].layer == l) {
		*chunk = a->choice[a->pick].chunk_bytes;
		return true;
	}
	for (size_t k = 0; k < a->n_choice; k++)
		if (a->choice[k].layer == l) {
			*chunk = a->choice[k].chunk_bytes;
			return true;
		}
	return false;
}

/* A cell at (layer, chunk, n); a 1-member stripe at another chunk if none at this one. */
static const struct r0_cell *cell_at(const struct r0_analysis *a, enum r0_layer l, uint32_t chunk,
				     unsigned n, size_t wl)
{
	const struct r0_cell *c = r0_analysis_cell(a, l, chunk, n, wl);

	if (c || n != 1)
		return c;
	for (size_t i = 0; i < a->n_cell; i++)
		if (a->cell[i].layer == l && a->cell[i].n_members == 1 && a->cell[i].wl == wl)
			return &a->cell[i];
	return NULL;
}

static const struct r0_cell *raw_cell(const struct r0_analysis *a, size_t wl)
{
	return r0_analysis_cell(a, R0_LAYER_RAW, 0, 1, wl);
}

static unsigned sorted_chunks(const struct r0_analysis *a, enum r0_layer l, uint32_t *out, unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];
		unsigned k;

		if (c->layer != l || c->n_members != a->max_members)
			continue;
		for (k = 0; k < n && out[k] != c->chunk_bytes; k++)
			;
		if (k == n && n < max)
			out[n++] = c->chunk_bytes;
	}
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
			uint32_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static const char *order_words(const struct r0_analysis *a)
{
	return a->ordered ? "each repeat visits the targets in its own seeded order"
			  : "the order of the targets not recorded: an older r0sweep";
}

static const char *precond_words(const struct r0_analysis *a)
{
	if (!strcmp(a->precondition, "seq-fill"))
		return "every member's test region written once, sequentially, before the first test";
	if (!strcmp(a->precondition, "none"))
		return "none (--no-precondition): the first reads may read blocks never written";
	return "not recorded (an older r0sweep)";
}

/* "what was measured, on what, in which state, with how many repeats" */
static void method_line(FILE *f, const struct r0_analysis *a, bool html, const char *what, bool with_method)
{
	char buf[4096];

	snprintf(buf, sizeof(buf),
		 "%s Median of %u repeat%s of %.1f s each; on %s; state: %s; preconditioning: %s; %s; %s.%s%s",
		 what, a->repeats, a->repeats == 1 ? "" : "s", a->runtime_s, a->devices, a->state, precond_words(a),
		 order_words(a),
		 a->tool, with_method ? " " : "", with_method ? a->method : "");
	if (html)
		esc(f, buf);
	else
		fputs(buf, f);
}

/* --- Markdown --------------------------------------------------------- */

#define PREDICTED_NOTE "Predicted by r0predict from one drive's results, not measured (see r0predict(1) for its error)."

static bool is_predicted(const struct r0_analysis *a)
{
	return !strncmp(a->tool, "r0predict", 9);
}

static void md_head(FILE *f, const struct r0_analysis *a, const char *title, char **files, int nfiles)
{
	fprintf(f, "# %s\n\n", title);
	if (is_predicted(a))   /* r0predict's cells are never pooled with measured ones */
		fprintf(f, "**%s**\n\n", PREDICTED_NOTE);
	fprintf(f, "%s\n\n", a->verdict);
	fprintf(f, "## How it was measured\n\n");
	fprintf(f, "- Devices: %s\n- State: %s\n- Preconditioning: %s\n- Tool: %s\n", a->devices, a->state,
		precond_words(a), a->tool);
	fprintf(f, "- Repeats: %u per cell (%s), %.1f s measured each; numbers are medians, speed-ups carry (their interval)\n",
		a->repeats, order_words(a), a->runtime_s);
	fprintf(f, "- Results:");
	for (int i = 0; i < nfiles; i++)
		fprintf(f, " `%s`", files[i]);
	fprintf(f, "\n- Method: %s\n\n", a->method);
	fprintf(f, "## Reasoning\n\n%s\n", a->reasoning);
}

/* The evidence tables: Markdown, also turned into the HTML page's tables. */
static void md_tables(FILE *f, const struct r0_analysis *a)
{
	enum r0_layer layers[] = { R0_LAYER_MD, R0_LAYER_DM };
	char b1[32], b2[32], b3[32];

	fprintf(f, "## Speed-up over one drive\n\n");
	fprintf(f, "Bytes/s of each array / the single drive's median, (the interval) over both sides' repeats; efficiency = speed-up / members.\n\n");
	fprintf(f, "| workload | 1 drive MB/s |");
	for (size_t l = 0; l < 2; l++) {
		uint32_t c;

		if (!layer_chunk(a, layers[l], &c))
			continue;
		for (unsigned n = 1; n <= a->max_members; n++) {
			const struct r0_cell *x = a->n_wl ? cell_at(a, layers[l], c, n, 0) : NULL;

			fprintf(f, " %s %u x %s |", r0_layer_name(layers[l]), n,
				ck(x ? x->chunk_bytes : c, b1, sizeof(b1)));
		}
	}
	fprintf(f, "\n|---|---|");
	for (size_t l = 0; l < 2; l++) {
		uint32_t c;

		if (layer_chunk(a, layers[l], &c))
			for (unsigned n = 1; n <= a->max_members; n++)
				fprintf(f, "---|");
	}
	fprintf(f, "\n");
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_wl *wl = &a->wl[w];

		fprintf(f, "| %s | %.1f (%.1f-%.1f) |", wl->name, wl->base.med / 1e6, wl->base.min / 1e6,
			wl->base.max / 1e6);
		for (size_t l = 0; l < 2; l++) {
			uint32_t c;

			if (!layer_chunk(a, layers[l], &c))
				continue;
			for (unsigned n = 1; n <= a->max_members; n++) {
				const struct r0_cell *x = cell_at(a, layers[l], c, n, w);

				if (x && x->speedup.n)
					fprintf(f, " %.2fx (%.2f-%.2f) eff %.2f |", x->speedup.med, x->speedup.min,
						x->speedup.max, x->efficiency);
				else
					fprintf(f, " - |");
			}
		}
		fprintf(f, "\n");
	}

	for (size_t l = 0; l < 2; l++) {
		uint32_t chunks[32];
		unsigned nc = sorted_chunks(a, layers[l], chunks, 32);

		if (!nc)
			continue;
		fprintf(f, "\n## Chunk size on %s, %u members\n\n", r0_layer_name(layers[l]), a->max_members);
		fprintf(f, "Speed-up over one drive; **bold**: the best chunk for the workload, ~: cannot be told from it.\n\n| workload |");
		for (unsigned k = 0; k < nc; k++)
			fprintf(f, " %s |", ck(chunks[k], b1, sizeof(b1)));
		fprintf(f, "\n|---|");
		for (unsigned k = 0; k < nc; k++)
			fprintf(f, "---|");
		fprintf(f, "\n");
		for (size_t w = 0; w < a->n_wl; w++) {
			uint32_t best, tied[32];
			size_t nt = 0;

			if (r0_analysis_best_chunk(a, layers[l], a->max_members, w, &best, tied, 32, &nt))
				continue;
			fprintf(f, "| %s |", a->wl[w].name);
			for (unsigned k = 0; k < nc; k++) {
				const struct r0_cell *x = r0_analysis_cell(a, layers[l], chunks[k], a->max_members, w);
				bool tie = false;

				for (size_t t = 0; t < nt; t++)
					tie |= tied[t] == chunks[k];
				if (!x || !x->speedup.n)
					fprintf(f, " - |");
				else if (chunks[k] == best)
					fprintf(f, " **%.2fx** |", x->speedup.med);
				else
					fprintf(f, " %s%.2fx |", tie ? "~" : "", x->speedup.med);
			}
			fprintf(f, "\n");
		}
	}

	fprintf(f, "\n## Latency and CPU\n\n");
	fprintf(f, "Completion latency (median of the repeats' percentiles) and CPU seconds per I/O of the measuring threads.\n\n");
	fprintf(f, "| workload | target | p50 | p99 | p99.9 | CPU/IO |\n|---|---|---|---|---|---|\n");
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *rows[3] = { raw_cell(a, w), NULL, NULL };
		const char *names[3] = { "1 drive raw", NULL, NULL };
		char nm[2][48];

		for (size_t l = 0; l < 2; l++) {
			uint32_t c;

			if (!layer_chunk(a, layers[l], &c))
				continue;
			rows[l + 1] = r0_analysis_cell(a, layers[l], c, a->max_members, w);
			snprintf(nm[l], sizeof(nm[l]), "%s %u x %s", r0_layer_name(layers[l]), a->max_members,
				 ck(c, b1, sizeof(b1)));
			names[l + 1] = nm[l];
		}
		for (int k = 0; k < 3; k++) {
			if (!rows[k])
				continue;
			fmt_ns(rows[k]->lat_p50.med, b1, sizeof(b1));
			fmt_ns(rows[k]->lat_p99.med, b2, sizeof(b2));
			fmt_ns(rows[k]->lat_p999.med, b3, sizeof(b3));
			fprintf(f, "| %s | %s | %s | %s | %s | %.1f us |\n", a->wl[w].name, names[k], b1, b2, b3,
				rows[k]->cpu_per_io.med * 1e6);
		}
	}
	fprintf(f, "\nr0trim and r0age results are not part of this report: r0report does not read them yet.\n");
}

/* --- SVG charts ------------------------------------------------------- */

#define CW 300   /* one small chart */
#define CH 220
#define ML 44    /* margins */
#define MR 12
#define MT 28
#define MB 36

static void svg_open(FILE *f, int w, int h, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		w, h, w, h);
	fprintf(f, "<title>");
	esc(f, title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

static void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *extra,
		     const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>", x, y, anchor, size,
		extra ? " " : "", extra ? extra : "");
	esc(f, s);
	fprintf(f, "</text>\n");
}

/* Speed-up against member count for one workload: md and dm at their chunk, the ideal n x. */
static void chart_speedup(FILE *f, const struct r0_analysis *a, size_t w)
{
	enum r0_layer layers[] = { R0_LAYER_MD, R0_LAYER_DM };
	unsigned N = a->max_members;
	double ymax = N + 0.5, pw = CW - ML - MR, ph = CH - MT - MB;
	char buf[128];

	for (size_t i = 0; i < a->n_cell; i++)
		if (a->cell[i].wl == w && a->cell[i].speedup.max > ymax)
			ymax = a->cell[i].speedup.max * 1.05;
#define X(n) (ML + (N > 1 ? ((double)(n) - 1) / (N - 1) : 0.5) * pw)
#define Y(v) (MT + ph - (v) / ymax * ph)
	snprintf(buf, sizeof(buf), "Speed-up against member count: %s", a->wl[w].name);
	svg_open(f, CW, CH, buf);
	svg_text(f, CW / 2.0, 16, "middle", 13, "font-weight=\"bold\"", a->wl[w].name);
	/* axes and grid */
	for (int v = 0; v <= (int)ymax; v++) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", ML, Y(v),
			CW - MR, Y(v));
		snprintf(buf, sizeof(buf), "%dx", v);
		svg_text(f, ML - 4, Y(v) + 4, "end", 10, NULL, buf);
	}
	for (unsigned n = 1; n <= N; n++) {
		snprintf(buf, sizeof(buf), "%u", n);
		svg_text(f, X(n), CH - MB + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, ML + pw / 2, CH - 6, "middle", 10, NULL, "members");
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", ML, MT, ML, MT + ph);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", ML, MT + ph,
		CW - MR, MT + ph);
	/* ideal: n x one drive */
	fprintf(f, "<polyline class=\"ideal\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"5,4\" points=\"");
	for (unsigned n = 1; n <= N; n++)
		fprintf(f, "%.1f,%.1f ", X(n), Y((double)n));
	fprintf(f, "\"/>\n");
	svg_text(f, X(N) - 2, Y((double)N) - 5, "end", 9, "fill=\"#777\"", "ideal n x");
	for (size_t l = 0; l < 2; l++) {
		uint32_t c;
		const char *col = layer_color[layers[l]];
		char ckb[16];

		if (!layer_chunk(a, layers[l], &c))
			continue;
		fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
		for (unsigned n = 1; n <= N; n++) {
			const struct r0_cell *x = cell_at(a, layers[l], c, n, w);

			if (x && x->speedup.n)
				fprintf(f, "%.1f,%.1f ", X(n) + (l ? 3 : -3), Y(x->speedup.med));
		}
		fprintf(f, "\"/>\n");
		for (unsigned n = 1; n <= N; n++) {
			const struct r0_cell *x = cell_at(a, layers[l], c, n, w);
			double px = X(n) + (l ? 3 : -3);

			if (!x || !x->speedup.n)
				continue;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", px,
				Y(x->speedup.min), px, Y(x->speedup.max), col);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s %u members: %.2fx (%.2f-%.2f)</title></circle>\n",
				px, Y(x->speedup.med), col, r0_layer_name(layers[l]), n, x->speedup.med,
				x->speedup.min, x->speedup.max);
		}
		snprintf(buf, sizeof(buf), "%s, chunk %s", r0_layer_name(layers[l]), ck(c, ckb, sizeof(ckb)));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", ML + 6,
			MT + 4 + (int)l * 14, col);
		snprintf(buf, sizeof(buf), "%s, chunk %s", r0_layer_name(layers[l]), ck(c, ckb, sizeof(ckb)));
		svg_text(f, ML + 20, MT + 13 + (int)l * 14, "start", 10, NULL, buf);
	}
	fprintf(f, "</svg>\n");
#undef X
#undef Y
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

static void chart_heat(FILE *f, const struct r0_analysis *a, enum r0_layer l)
{
	uint32_t chunks[32];
	unsigned nc = sorted_chunks(a, l, chunks, 32);
	int cw = 78, rh = 26, left = 70, top = 120;
	int w = left + (int)a->n_wl * cw + 10, h = top + (int)nc * rh + 30;

	w += 70;   /* the last column's slanted label */
	if (w < 440)
		w = 440;
	char buf[160], col[16], ckb[16];

	snprintf(buf, sizeof(buf), "Chunk size x workload heat map, %s, %u members", r0_layer_name(l),
		 a->max_members);
	svg_open(f, w, h, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	svg_text(f, 8, 34, "start", 10, "fill=\"#555\"",
		 "speed-up over one drive; thick border: best chunk or one that cannot be told from it");
	for (size_t wi = 0; wi < a->n_wl; wi++) {
		double x = left + (double)wi * cw + cw / 2.0;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"start\" transform=\"rotate(-40 %.1f %d)\">",
			x, top - 6, x, top - 6);
		esc(f, a->wl[wi].name);
		fprintf(f, "</text>\n");
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
			snprintf(buf, sizeof(buf), "%s, chunk %s: %.2fx (%.2f-%.2f)", a->wl[wi].name,
				 ck(chunks[k], ckb, sizeof(ckb)), x->speedup.med, x->speedup.min, x->speedup.max);
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

/* Workloads that differ only in queue depth: one latency chart each. */
static const char *buf_layer(enum r0_layer l)
{
	return l == R0_LAYER_RAW ? "1 drive raw" : r0_layer_name(l);
}

static bool same_but_qd(const struct r0_sweep_rec *a, const struct r0_sweep_rec *b)
{
	return a->access == b->access && a->read_pct == b->read_pct && a->block_bytes == b->block_bytes &&
	       a->align_bytes == b->align_bytes && a->jobs == b->jobs;
}

static void chart_latency(FILE *f, const struct r0_analysis *a, size_t w0, const size_t *group, size_t ng)
{
	static const struct { const char *name; size_t off; const char *dash; } pct[] = {
		{ "p50", offsetof(struct r0_cell, lat_p50), "" },
		{ "p99", offsetof(struct r0_cell, lat_p99), "6,3" },
		{ "p99.9", offsetof(struct r0_cell, lat_p999), "2,3" },
	};
	enum r0_layer layers[] = { R0_LAYER_RAW, R0_LAYER_MD, R0_LAYER_DM };
	int w = 420, h = 260;
	double pw = w - 60 - 120, ph = h - MT - MB - 10, lo = 1e18, hi = 0;
	const struct r0_sweep_rec *p = &a->wl[w0].proto;
	char buf[160], bs[16], ckb[16];

	for (size_t g = 0; g < ng; g++)
		for (size_t i = 0; i < a->n_cell; i++) {
			const struct r0_cell *c = &a->cell[i];

			if (c->wl != group[g])
				continue;
			for (size_t k = 0; k < 3; k++) {
				double v = ((const struct r0_stat *)((const char *)c + pct[k].off))->med;

				if (v > 0) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
				}
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
		 r0_sweep_rw_name(p->access, p->read_pct), p->align_bytes ? " (unaligned)" : "");
	svg_open(f, w, h, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	for (double v = lo; v <= hi * 1.001; v *= 10) {
		char t[32];

		fprintf(f, "<line x1=\"60\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", LY(v),
			60 + pw, LY(v));
		fmt_axis_ns(v, t, sizeof(t));
		svg_text(f, 56, LY(v) + 4, "end", 10, NULL, t);
	}
	for (size_t g = 0; g < ng; g++) {
		snprintf(buf, sizeof(buf), "QD%u", a->wl[group[g]].proto.queue_depth);
		svg_text(f, LX(g), MT + 10 + ph + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, 60 + pw / 2, h - 6, "middle", 10, NULL, "queue depth (log-scale latency)");
	for (size_t l = 0; l < 3; l++) {
		uint32_t c = 0;
		unsigned n = layers[l] == R0_LAYER_RAW ? 1 : a->max_members;

		if (layers[l] != R0_LAYER_RAW && !layer_chunk(a, layers[l], &c))
			continue;
		for (size_t k = 0; k < 3; k++) {
			fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s points=\"",
				layer_color[layers[l]], *pct[k].dash ? " stroke-dasharray=\"" : "", pct[k].dash,
				*pct[k].dash ? "\"" : "");
			for (size_t g = 0; g < ng; g++) {
				const struct r0_cell *x = r0_analysis_cell(a, layers[l], c, n, group[g]);
				double v = x ? ((const struct r0_stat *)((const char *)x + pct[k].off))->med : 0;

				if (v > 0)
					fprintf(f, "%.1f,%.1f ", LX(g), LY(v));
			}
			fprintf(f, "\"/>\n");
			for (size_t g = 0; g < ng; g++) {
				const struct r0_cell *x = r0_analysis_cell(a, layers[l], c, n, group[g]);
				double v = x ? ((const struct r0_stat *)((const char *)x + pct[k].off))->med : 0;
				char t[32];

				if (v <= 0)
					continue;
				fmt_ns(v, t, sizeof(t));
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>%s %s QD%u: %s</title></circle>\n",
					LX(g), LY(v), layer_color[layers[l]], buf_layer(layers[l]), pct[k].name,
					a->wl[group[g]].proto.queue_depth, t);
			}
		}
		if (layers[l] == R0_LAYER_RAW)
			snprintf(buf, sizeof(buf), "1 drive raw");
		else
			snprintf(buf, sizeof(buf), "%s %u x %s", r0_layer_name(layers[l]), n, ck(c, ckb, sizeof(ckb)));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", 70 + pw,
			MT + 10 + l * 16.0, layer_color[layers[l]]);
		svg_text(f, 84 + pw, MT + 19 + l * 16.0, "start", 10, NULL, buf);
	}
	for (size_t k = 0; k < 3; k++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"2\"%s%s%s/>\n",
			70 + pw, MT + 70 + k * 16.0, 90 + pw, MT + 70 + k * 16.0,
			*pct[k].dash ? " stroke-dasharray=\"" : "", pct[k].dash, *pct[k].dash ? "\"" : "");
		svg_text(f, 94 + pw, MT + 74 + k * 16.0, "start", 10, NULL, pct[k].name);
	}
	fprintf(f, "</svg>\n");
#undef LX
#undef LY
}

/* --- r0trim and scenario results ------------------------------------- */

struct extra {
	struct r0_trimres *trim;
	size_t n_trim;
	struct r0_scenario scen;
	struct r0_state_record *age;    /* r0age records */
	size_t n_age;
};

/* One line on an r0age record: what state, how it was made, steady or not. */
static void age_summary(char *buf, size_t len, const struct r0_state_record *r)
{
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

static const char *trim_color(const struct r0_trimres *t)
{
	return layer_color[strstr(t->description, "dm ") == t->description ? R0_LAYER_DM : R0_LAYER_MD];
}

static void trim_summary(char *buf, size_t len, const struct r0_trimres *t)
{
	snprintf(buf, len, "%s (%s): %s, discards %s (%u checks: %u PASS, %u FAIL, %u not checkable or conclusive)",
		 t->description, t->device, t->verdict,
		 t->pass ? "pass through to every member" : "do NOT pass through as the geometry says",
		 t->n_checks, t->n_pass, t->n_fail, t->n_checks - t->n_pass - t->n_fail);
}

static void scen_caption(char *buf, size_t len, const struct r0_scenario *s)
{
	const struct r0_scen_row *r = &s->row[0];

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
	const struct r0_scen_row *t0 = r0_scenario_find(s, true, 0), *n0 = r0_scenario_find(s, false, 0);
	const struct r0_scen_row *tn = r0_scenario_find(s, true, s->max_cycle);
	const struct r0_scen_row *nn = r0_scenario_find(s, false, s->max_cycle);

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

static void md_cell(FILE *f, double v, const char *fmt)
{
	if (isnan(v))
		fputs(" - |", f);
	else {
		fputc(' ', f);
		fprintf(f, fmt, v);
		fputs(" |", f);
	}
}

static void md_extra(FILE *f, const struct extra *x)
{
	char buf[1024], b1[32], b2[32];

	if (x->n_trim) {
		fprintf(f, "## TRIM passthrough (r0trim)\n\n");
		for (size_t i = 0; i < x->n_trim; i++) {
			trim_summary(buf, sizeof(buf), &x->trim[i]);
			fprintf(f, "- %s\n", buf);
		}
		fprintf(f, "\n");
		for (size_t i = 0; i < x->n_trim; i++) {
			const struct r0_trimres *t = &x->trim[i];

			fprintf(f, "Discarded sectors expected / observed on each member, %s, kernel %s:\n\n",
				t->description, t->kernel);
			fprintf(f, "| range | at | length | delivery |");
			for (unsigned m = 0; m < t->n_members; m++)
				fprintf(f, " %s |", t->member[m]);
			fprintf(f, "\n|---|---:|---:|---|");
			for (unsigned m = 0; m < t->n_members; m++)
				fprintf(f, "---:|");
			fprintf(f, "\n");
			for (unsigned r = 0; r < t->n_ranges; r++) {
				const struct r0_trimres_range *g = &t->range[r];

				if (r0_format_size(g->start_bytes, b1, sizeof(b1)))
					snprintf(b1, sizeof(b1), "%" PRIu64, g->start_bytes);
				if (r0_format_size(g->length_bytes, b2, sizeof(b2)))
					snprintf(b2, sizeof(b2), "%" PRIu64, g->length_bytes);
				fprintf(f, "| %s | %s | %s | %s%s%s |", g->name, b1, b2, strcmp(g->verdict, "PASS") ? "**" : "",
					g->verdict, strcmp(g->verdict, "PASS") ? "**" : "");
				for (unsigned m = 0; m < t->n_members; m++)
					fprintf(f, " %" PRIu64 " / %" PRIu64 " |", g->expected[m], g->observed[m]);
				fprintf(f, "\n");
			}
			fprintf(f, "\n");
		}
	}
	if (x->n_age) {
		fprintf(f, "## Drive state (r0age)\n\n");
		for (size_t i = 0; i < x->n_age; i++) {
			age_summary(buf, sizeof(buf), &x->age[i]);
			fprintf(f, "- %s\n", buf);
		}
		fprintf(f, "\n");
		for (size_t i = 0; i < x->n_age; i++) {
			const struct r0_state_record *r = &x->age[i];

			if (r->state != R0_AGE_STEADY || !r->rounds)
				continue;
			fprintf(f, "Steady-state rounds on %s:\n\n| round | write IOPS |\n|---:|---:|\n",
				r->device_path);
			for (unsigned k = 0; k < r->rounds && k < R0_AGE_ROUNDS_MAX; k++)
				fprintf(f, "| %u | %.0f |\n", k + 1, r->round_iops[k]);
			fprintf(f, "\n");
		}
	}
	if (x->scen.n) {
		const struct r0_scenario *s = &x->scen;

		fprintf(f, "## Without TRIM: write speed and WAF over cycles\n\n");
		scen_summary(buf, sizeof(buf), s);
		fprintf(f, "%s\n\n", buf);
		scen_caption(buf, sizeof(buf), s);
		fprintf(f, "%s\n\n", buf);
		fprintf(f, "| cycle | TRIM 4K IOPS | TRIM 4K MB/s | TRIM seq MB/s | TRIM WAF | TRIM mapped deleted | "
			   "TRIM mapped bench | no TRIM 4K IOPS | no TRIM 4K MB/s | no TRIM seq MB/s | no TRIM WAF | "
			   "no TRIM mapped deleted | no TRIM mapped bench |\n");
		fprintf(f, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (unsigned c = 0; c <= s->max_cycle; c++) {
			fprintf(f, "| %u |", c);
			for (int k = 1; k >= 0; k--) {
				const struct r0_scen_row *r = r0_scenario_find(s, k, c);

				md_cell(f, r ? r->randwrite_iops : NAN, "%.0f");
				md_cell(f, r ? r->randwrite_mb_s : NAN, "%.1f");
				md_cell(f, r ? r->seqwrite_mb_s : NAN, "%.1f");
				md_cell(f, r ? r->waf_randwrite : NAN, "%.2f");
				md_cell(f, r ? r->mapped_after_delete_pct : NAN, "%.0f %%");
				md_cell(f, r ? r->mapped_before_bench_pct : NAN, "%.0f %%");
			}
			fprintf(f, "\n");
		}
		fprintf(f, "\nmapped: the SSDs' mapped pages / logical pages once the files are deleted (before fstrim) "
			   "and before the benchmark (after fstrim where it passes).\n\n");
	}
}

#define TW 620   /* the wider charts of this section */
#define TH 260
#define TML 64  /* room for 7-digit sector counts */

/* Expected and observed discard sectors per range and member, log scale. */
static void chart_trim(FILE *f, const struct r0_trimres *t)
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
	svg_text(f, TW / 2.0, 16, "middle", 13, "font-weight=\"bold\"", buf);
	for (int e = 0; e <= (int)top; e++) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", TML, Y(pow(10, e)),
			TW - MR, Y(pow(10, e)));
		snprintf(buf, sizeof(buf), "%.0f", pow(10, e));
		svg_text(f, TML - 4, Y(pow(10, e)) + 4, "end", 10, NULL, buf);
	}
	snprintf(buf, sizeof(buf), "transform=\"rotate(-90 10 %.1f)\"", pt + ph / 2);
	svg_text(f, 10, pt + ph / 2, "middle", 10, buf, "sectors (log)");
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", TML, pt, TML, pt + ph);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", TML, pt + ph, TW - MR, pt + ph);
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
		snprintf(buf, sizeof(buf), "%s", g->verdict);
		svg_text(f, TML + r * gw + gw / 2, pt + ph + 25, "middle", 9,
			 strcmp(g->verdict, "PASS") ? "fill=\"#c0392b\"" : "fill=\"#27ae60\"", buf);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#bbbbbb\"/>\n", TML + 6, MT - 4);
	svg_text(f, TML + 20, MT + 5, "start", 10, NULL, "expected (from the geometry)");
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", TML + 186, MT - 4, trim_color(t));
	n = snprintf(buf, sizeof(buf), "observed, a pair of bars per member:");
	for (unsigned m = 0; m < t->n_members && n < (int)sizeof(buf) - 70; m++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %s", t->member[m]);
	svg_text(f, TML + 200, MT + 5, "start", 10, NULL, buf);
	fprintf(f, "</svg>\n");
#undef Y
}

/* A y scale for values up to YMAX: a round top and a step of 1, 2 or 5 x 10^k. */
static double nice_scale(double ymax, double *step)
{
	*step = pow(10, floor(log10(ymax > 0 ? ymax : 1)));
	if (ymax / *step < 2.5)
		*step /= 2;
	ymax = ceil(ymax * 1.08 / *step) * *step;
	return ymax > 0 ? ymax : 1;
}

/* Grid lines with their labels from 0 to YMAX, and the two axes, for a chart W wide. */
static void y_grid(FILE *f, int w, double ph, double ymax, double step)
{
	char buf[32];

	for (double v = 0; v <= ymax * 1.0001; v += step) {
		double y = MT + ph - v / ymax * ph;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", ML, y, w - MR, y);
		snprintf(buf, sizeof(buf), "%g", v);
		svg_text(f, ML - 4, y + 4, "end", 10, NULL, buf);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", ML, MT, ML, MT + ph);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n", ML, MT + ph, w - MR, MT + ph);
}

/* One measure of the scenario against cycles: TRIM (blue) and no TRIM (orange). */
static void chart_cycles(FILE *f, const struct r0_scenario *s, size_t field, const char *title, const char *unit)
{
	double pw = CW * 1.4 - ML - MR, ph = CH - MT - MB, ymax = 0, step;
	unsigned N = s->max_cycle ? s->max_cycle : 1;
	int w = (int)(CW * 1.4);
	char buf[160];

#define V(r) (*(const double *)((const char *)(r) + field))
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(V(&s->row[i])))
			ymax = fmax(ymax, V(&s->row[i]));
	ymax = nice_scale(ymax, &step);
#define X(c) (ML + (double)(c) / N * pw)
#define Y(v) (MT + ph - (v) / ymax * ph)
	snprintf(buf, sizeof(buf), "%s against cycles, with and without TRIM", title);
	svg_open(f, w, CH, buf);
	snprintf(buf, sizeof(buf), "%s (%s)", title, unit);
	svg_text(f, w / 2.0, 16, "middle", 13, "font-weight=\"bold\"", buf);
	y_grid(f, w, ph, ymax, step);
	for (unsigned c = 0; c <= s->max_cycle; c++) {
		snprintf(buf, sizeof(buf), "%u", c);
		svg_text(f, X(c), CH - MB + 14, "middle", 10, NULL, buf);
	}
	snprintf(buf, sizeof(buf), "cycle (fill, delete, fstrim where it passes); y: %s", unit);
	svg_text(f, ML + pw / 2, CH - 6, "middle", 10, NULL, buf);
	for (int k = 0; k < 2; k++) {
		bool trim = k == 0;
		const char *col = layer_color[trim ? R0_LAYER_MD : R0_LAYER_DM];

		fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
		for (unsigned c = 0; c <= s->max_cycle; c++) {
			const struct r0_scen_row *r = r0_scenario_find(s, trim, c);

			if (r && !isnan(V(r)))
				fprintf(f, "%.1f,%.1f ", X(c), Y(V(r)));
		}
		fprintf(f, "\"/>\n");
		for (unsigned c = 0; c <= s->max_cycle; c++) {
			const struct r0_scen_row *r = r0_scenario_find(s, trim, c);

			if (r && !isnan(V(r)))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s, cycle %u: %.2f %s</title></circle>\n",
					X(c), Y(V(r)), col, trim ? "TRIM" : "no TRIM", c, V(r), unit);
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", w - MR - 150,
			MT + 4 + k * 14, col);
		svg_text(f, w - MR - 136, MT + 13 + k * 14, "start", 10, NULL,
			 trim ? "with TRIM (discards pass)" : "without TRIM (discard off)");
	}
	fprintf(f, "</svg>\n");
#undef X
#undef Y
#undef V
}

/* Steady-state rounds: write IOPS a round, the window that met the rule shaded. */
static void chart_steady(FILE *f, const struct r0_state_record *r)
{
	unsigned n = r->rounds < R0_AGE_ROUNDS_MAX ? r->rounds : R0_AGE_ROUNDS_MAX;
	const unsigned win = R0_STEADY_SNIA.window;
	double pw = CW * 1.4 - ML - MR, ph = CH - MT - MB, ymax = 0, step;
	int w = (int)(CW * 1.4);
	char buf[320];

	for (unsigned k = 0; k < n; k++)
		ymax = fmax(ymax, r->round_iops[k]);
	ymax = nice_scale(ymax, &step);
#define X(k) (ML + ((double)(k) + 0.5) / n * pw)
#define Y(v) (MT + ph - (v) / ymax * ph)
	snprintf(buf, sizeof(buf), "steady-state rounds of %s", r->device_path);
	svg_open(f, w, CH, buf);
	svg_text(f, w / 2.0, 16, "middle", 13, "font-weight=\"bold\"", "Write IOPS a round (r0age steady)");
	if (r->steady_round >= win && r->steady_round <= n) {
		double x0 = ML + (double)(r->steady_round - win) / n * pw;

		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"#e6f4e6\"/>\n", x0,
			MT, (double)win / n * pw, ph);
	}
	y_grid(f, w, ph, ymax, step);
	fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		layer_color[R0_LAYER_MD]);
	for (unsigned k = 0; k < n; k++)
		fprintf(f, "%.1f,%.1f ", X(k), Y(r->round_iops[k]));
	fprintf(f, "\"/>\n");
	for (unsigned k = 0; k < n; k++) {
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>round %u: %.0f IOPS</title></circle>\n",
			X(k), Y(r->round_iops[k]), layer_color[R0_LAYER_MD], k + 1, r->round_iops[k]);
		snprintf(buf, sizeof(buf), "%u", k + 1);
		svg_text(f, X(k), CH - MB + 14, "middle", 10, NULL, buf);
	}
	svg_text(f, ML + pw / 2, CH - 6, "middle", 10, NULL,
		 r->steady_round ? "round; shaded: the window that met the steady-state rule"
				 : "round; the steady-state rule was not met");
	fprintf(f, "</svg>\n");
#undef X
#undef Y
}

static void html_extra(FILE *f, const struct extra *x)
{
	char buf[1024];

	if (x->n_age) {
		fprintf(f, "<h2 id=\"age\">Drive state (r0age)</h2>\n<ul>\n");
		for (size_t i = 0; i < x->n_age; i++) {
			age_summary(buf, sizeof(buf), &x->age[i]);
			fprintf(f, "<li>");
			esc(f, buf);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
		for (size_t i = 0; i < x->n_age; i++) {
			const struct r0_state_record *r = &x->age[i];

			if (r->state != R0_AGE_STEADY || !r->rounds)
				continue;
			fprintf(f, "<figure>\n");
			chart_steady(f, r);
			snprintf(buf, sizeof(buf),
				 "Measured by r0age steady on %s: after 2 x capacity of 128K sequential "
				 "preconditioning, rounds of %.1f s of 4K random writes at QD%u; steady state "
				 "(SNIA PTS): 5 rounds within 20 %% of their mean and a slope across them "
				 "within 10 %% of it.", r->device_path, (double)r->params.round_ns / 1e9,
				 r->params.queue_depth);
			fprintf(f, "<figcaption class=\"age\">");
			esc(f, buf);
			fprintf(f, "</figcaption>\n</figure>\n");
		}
	}

	if (x->n_trim) {
		fprintf(f, "<h2 id=\"trim\">TRIM passthrough</h2>\n<ul>\n");
		for (size_t i = 0; i < x->n_trim; i++) {
			trim_summary(buf, sizeof(buf), &x->trim[i]);
			fprintf(f, "<li>");
			esc(f, buf);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
		for (size_t i = 0; i < x->n_trim; i++) {
			const struct r0_trimres *t = &x->trim[i];

			fprintf(f, "<figure>\n");
			chart_trim(f, t);
			snprintf(buf, sizeof(buf),
				 "Measured by r0trim on %s (%s, kernel %s): the array filled, then each range "
				 "discarded through it; the sectors each member received (block layer counters) "
				 "against what the stripe geometry says it should. Red: a member got other than expected.",
				 t->device, t->description, t->kernel);
			fprintf(f, "<figcaption class=\"trim\">");
			esc(f, buf);
			fprintf(f, "</figcaption>\n</figure>\n");
		}
	}
	if (x->scen.n) {
		static const struct { size_t field; const char *title, *unit; } ch[] = {
			{ offsetof(struct r0_scen_row, randwrite_iops), "4K random write QD32", "IOPS" },
			{ offsetof(struct r0_scen_row, seqwrite_mb_s), "128K sequential write", "MB/s" },
			{ offsetof(struct r0_scen_row, waf_randwrite), "WAF of the 4K random write", "flash/host" },
		};

		fprintf(f, "<h2 id=\"scenario\">Without TRIM: write speed and WAF over cycles</h2>\n<p>");
		scen_summary(buf, sizeof(buf), &x->scen);
		esc(f, buf);
		fprintf(f, "</p>\n");
		scen_caption(buf, sizeof(buf), &x->scen);
		for (size_t i = 0; i < sizeof(ch) / sizeof(ch[0]); i++) {
			fprintf(f, "<figure>\n");
			chart_cycles(f, &x->scen, ch[i].field, ch[i].title, ch[i].unit);
			fprintf(f, "<figcaption class=\"scenario\">");
			esc(f, buf);
			fprintf(f, "</figcaption>\n</figure>\n");
		}
	}
}

/* --- HTML ------------------------------------------------------------- */

/* One Markdown table cell or line: **bold** becomes <b>, the rest escaped. */
static void inline_md(FILE *f, const char *s, size_t len)
{
	bool bold = false;

	for (size_t i = 0; i < len; i++) {
		char one[2] = { s[i], 0 };

		if (s[i] == '*' && i + 1 < len && s[i + 1] == '*') {
			fputs(bold ? "</b>" : "<b>", f);
			bold = !bold;
			i++;
		} else if (s[i] == '`') {
			continue;
		} else {
			esc(f, one);
		}
	}
	if (bold)
		fputs("</b>", f);
}

/* The subset md_tables writes: "## " headings, tables, paragraphs. */
static void md_to_html(FILE *f, const char *md)
{
	bool in_table = false, header = false;

	while (*md) {
		const char *nl = strchr(md, '\n');
		size_t len = nl ? (size_t)(nl - md) : strlen(md);

		if (len && md[0] == '|') {
			if (!in_table) {
				fputs("<table>\n", f);
				in_table = header = true;
			}
			if (len > 4 && !strncmp(md, "|---", 4)) {
				header = false;
			} else {
				const char *p = md + 1, *end = md + len;

				fputs("<tr>", f);
				while (p < end) {
					const char *bar = memchr(p, '|', (size_t)(end - p));
					size_t cl = bar ? (size_t)(bar - p) : (size_t)(end - p);

					while (cl && *p == ' ')
						p++, cl--;
					while (cl && p[cl - 1] == ' ')
						cl--;
					fputs(header ? "<th>" : "<td>", f);
					inline_md(f, p, cl);
					fputs(header ? "</th>" : "</td>", f);
					p = bar ? bar + 1 : end;
					if (bar && bar + 1 >= end)
						break;
				}
				fputs("</tr>\n", f);
			}
		} else {
			if (in_table) {
				fputs("</table>\n", f);
				in_table = false;
			}
			if (len > 3 && !strncmp(md, "## ", 3)) {
				fputs("<h3>", f);
				inline_md(f, md + 3, len - 3);
				fputs("</h3>\n", f);
			} else if (len) {
				fputs("<p>", f);
				inline_md(f, md, len);
				fputs("</p>\n", f);
			}
		}
		md += len + (nl ? 1 : 0);
	}
	if (in_table)
		fputs("</table>\n", f);
}

static bool any_latency_chart(const struct r0_analysis *a)
{
	for (size_t w = 0; w < a->n_wl; w++)
		if (a->wl[w].proto.access == R0_ACCESS_RAND)
			return true;
	return false;
}

static void figure(FILE *f, const struct r0_analysis *a, const char *what)
{
	fprintf(f, "<figcaption>");
	method_line(f, a, true, what, false);
	fprintf(f, "</figcaption>\n");
}

static void html_report(FILE *f, const struct r0_analysis *a, const struct extra *x, const char *title,
			const char *verdict, bool good, const char *md_text)
{
	enum r0_layer layers[] = { R0_LAYER_MD, R0_LAYER_DM };
	size_t n_wl = a ? a->n_wl : 0;
	bool *seen = calloc(n_wl ? n_wl : 1, sizeof(*seen));
	size_t *group = calloc(n_wl ? n_wl : 1, sizeof(*group));

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	esc(f, title);
	fprintf(f, "</title>\n<style>\n"
		"body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222;background:#fff}\n"
		".verdict{font-size:1.25em;border-left:6px solid %s;background:#f3f8f3;padding:12px 16px}\n"
		".no{border-left-color:#c0392b;background:#fbf1f0}\n"
		"figure{display:inline-block;margin:8px;vertical-align:top}\n"
		"figcaption{font-size:11px;color:#555;max-width:420px}\n"
		"table{border-collapse:collapse;font-size:13px;margin:8px 0}\n"
		"td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}\n"
		"th:first-child,td:first-child{text-align:left}\n"
		"pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:8px}\n"
		"</style>\n</head>\n<body>\n<h1>", "#27ae60");
	esc(f, title);
	fprintf(f, "</h1>\n");
	if (a && is_predicted(a))
		fprintf(f, "<p><b>%s</b></p>\n", PREDICTED_NOTE);
	fprintf(f, "<p class=\"verdict%s\" id=\"verdict\">", good ? "" : " no");
	esc(f, verdict);
	fprintf(f, "</p>\n");
	if (!a)
		goto extra;
	fprintf(f, "<h2>How it was measured</h2>\n<p>");
	method_line(f, a, true, "Bytes/s and latency of each workload on each target.", true);
	fprintf(f, "</p>\n");
	fprintf(f, "<h2>Reasoning</h2>\n<ul>\n");
	for (const char *r = a->reasoning; *r;) {
		const char *nl = strchr(r, '\n');
		size_t len = nl ? (size_t)(nl - r) : strlen(r);

		if (len > 2 && r[0] == '-') {
			fputs("<li>", f);
			inline_md(f, r + 2, len - 2);
			fputs("</li>\n", f);
		}
		r += len + (nl ? 1 : 0);
	}
	fprintf(f, "</ul>\n");

	fprintf(f, "<h2>Speed-up against member count</h2>\n");
	for (size_t w = 0; w < a->n_wl; w++) {
		fprintf(f, "<figure>\n");
		chart_speedup(f, a, w);
		figure(f, a, "Speed-up = the array's bytes/s / one raw drive's; dots: medians, bars: the interval of the ratio (both sides' repeats); dashed: the ideal n x; 1-member stripes at the chunk they were measured with.");
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "<h2 id=\"chunk\">Chunk size</h2>\n");
	for (size_t l = 0; l < 2; l++) {
		uint32_t chunks[32];

		if (!sorted_chunks(a, layers[l], chunks, 32))
			continue;
		fprintf(f, "<figure>\n");
		chart_heat(f, a, layers[l]);
		figure(f, a, "Speed-up over one raw drive at each chunk size, at the largest member count.");
		fprintf(f, "</figure>\n");
	}
	fprintf(f, "<h2 id=\"latency\">Latency against queue depth</h2>\n");
	if (!any_latency_chart(a))
		fprintf(f, "<p>No random workload was measured in these results.</p>\n");
	bool multi = false;

	for (size_t w = 0; w < a->n_wl; w++)
		for (size_t o = w + 1; o < a->n_wl; o++)
			multi |= same_but_qd(&a->wl[w].proto, &a->wl[o].proto);
	for (size_t w = 0; seen && group && w < a->n_wl; w++) {
		size_t ng = 0;

		if (seen[w])
			continue;
		for (size_t o = w; o < a->n_wl; o++)
			if (!seen[o] && same_but_qd(&a->wl[w].proto, &a->wl[o].proto)) {
				seen[o] = true;
				group[ng++] = o;
			}
		/* by queue depth */
		for (size_t i = 1; i < ng; i++)
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
		chart_latency(f, a, w, group, ng);
		figure(f, a, "Completion latency percentiles (medians over the repeats) of one raw drive and of each back end at its chosen chunk.");
		fprintf(f, "</figure>\n");
	}
extra:
	html_extra(f, x);
	fprintf(f, "<h2>Tables</h2>\n");
	md_to_html(f, md_text);
	fprintf(f, "</body>\n</html>\n");
	free(seen);
	free(group);
}

/*
 * Sweep files are pooled only when every cell comes from the same study
 * (devices, state, preconditioning, region, runtime, ramp): a report over
 * two studies would tell neither. The records SET->recs[from..] just
 * read from PATH against the first one (of FIRST). true (and said why)
 * when they differ.
 */
static bool study_mixed(const struct r0_sweep_set *set, size_t from, const char *first, const char *path)
{
	char why[1200];

	for (size_t i = from; i < set->n; i++)
		if (r0_sweep_rec_study_diff(&set->recs[0], &set->recs[i], why, sizeof(why))) {
			if (!strcmp(first, path))
				fprintf(stderr, PROG ": %s: cells of two studies in one file, another %s; not pooled "
					"(report each study from its own file)\n", path, why);
			else
				fprintf(stderr, PROG ": %s: another study than %s, another %s; not pooled (report "
					"each file on its own)\n", path, first, why);
			return true;
		}
	return false;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "mix", required_argument, NULL, OPT_MIX },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = ".", *mixs = "desktop", *title = NULL;
	struct r0_sweep_set set = { 0 };
	struct r0_analysis a = { 0 };
	struct extra x = { 0 };
	bool have_sweep = false, good = true;
	char verdict[3072] = "";
	struct r0_mix mix;
	char mixdesc[1024];
	struct r0_cmp_opts cmp;
	const char *first_sweep = NULL;
	char path_md[4096], path_html[4096], deftitle[128], *md_text = NULL;
	size_t md_len = 0;
	FILE *f, *mem;
	int c, err, status = R0_EXIT_OK;

	r0_cmp_defaults(&cmp);
	while ((c = getopt_long(argc, argv, "o:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case OPT_MIX: mixs = optarg; break;
		case OPT_TITLE: title = optarg; break;
		case OPT_THRESHOLD:
			if (r0_cmp_parse_threshold(optarg, &cmp.threshold))
				return r0_cli_usage_error(PROG, "--threshold '%s': a percentage above 0 and below 100, e.g. 5", optarg);
			break;
		case 'h': usage(stdout); return r0_cli_close_stdout(PROG);
		case 'V': printf(PROG " from r0kit %s\n", R0_VERSION); return r0_cli_close_stdout(PROG);
		default: return r0_cli_usage_error(PROG, "bad option");
		}
	}
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name one or more result files (r0sweep, r0trim, r0scenario or r0age)");
	if (r0_cli_mix(PROG, mixs, &mix, mixdesc, sizeof(mixdesc)))
		return R0_EXIT_USAGE;
	x.trim = calloc((size_t)(argc - optind), sizeof(*x.trim));
	x.age = calloc((size_t)(argc - optind), sizeof(*x.age));
	if (!x.trim || !x.age) {
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		return R0_EXIT_FAILURE;
	}
	for (int i = optind; i < argc; i++) {
		enum r0_result_kind kind;
		unsigned bad = 0;

		err = r0_result_kind(argv[i], &kind);
		if (!err && kind == R0_RESULT_SWEEP) {
			size_t before = set.n;

			err = r0_sweep_load(argv[i], &set, &bad);
			have_sweep = true;
			if (!err && study_mixed(&set, before, first_sweep ? first_sweep : argv[i], argv[i]))
				goto fail;
			if (!first_sweep && set.n)
				first_sweep = argv[i];
		} else if (!err && kind == R0_RESULT_TRIM) {
			err = r0_trimres_load(argv[i], &x.trim[x.n_trim]);
			x.n_trim += !err;
		} else if (!err && kind == R0_RESULT_AGE) {
			err = r0_ageres_load(argv[i], &x.age[x.n_age]);
			x.n_age += !err;
		} else if (!err) {
			err = r0_scenario_load(argv[i], &x.scen, &bad);
		}
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", argv[i],
				err == -EINVAL ? "not a result file r0report reads (schema " R0_SWEEP_SCHEMA
						 ", r0trim/1, r0scenario/1 or " R0_STATE_SCHEMA ")" : strerror(-err));
			goto fail;
		}
		if (bad)
			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped\n", argv[i], bad, bad == 1 ? "" : "s");
	}
	if (have_sweep) {
		err = r0_analyse(&set, &mix, &cmp, &a);
		if (err) {
			fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "the sweep files hold no measured cell" : strerror(-err));
			goto fail;
		}
		snprintf(verdict, sizeof(verdict), "%s", a.verdict);
		good = a.worth;
	} else {
		/* no sweep: the verdict is what the TRIM and scenario results say */
		int n = 0;

		for (size_t i = 0; i < x.n_trim && n < (int)sizeof(verdict) - 200; i++) {
			n += snprintf(verdict + n, sizeof(verdict) - (size_t)n, "%sTRIM on %s: %s.", n ? " " : "",
				      x.trim[i].description, x.trim[i].pass ? "discards pass through" : "discards do NOT pass through");
			good &= x.trim[i].pass;
		}
		if (x.scen.n && n < (int)sizeof(verdict) - 400) {
			if (n)
				verdict[n++] = ' ';
			scen_summary(verdict + n, sizeof(verdict) - (size_t)n, &x.scen);
		}
		for (size_t i = 0; i < x.n_age && n < (int)sizeof(verdict) - 300; i++) {
			n += snprintf(verdict + n, sizeof(verdict) - (size_t)n, "%sDrive state of ", n ? " " : "");
			age_summary(verdict + n, sizeof(verdict) - (size_t)n, &x.age[i]);
			n += (int)strlen(verdict + n);
			n += snprintf(verdict + n, sizeof(verdict) - (size_t)n, ".");
		}
	}
	r0_sweep_set_free(&set);
	if (!title) {
		if (have_sweep)
			snprintf(deftitle, sizeof(deftitle), "r0kit: RAID0 of %u drives, is it worth it?", a.max_members);
		else if (x.scen.n)
			snprintf(deftitle, sizeof(deftitle), "r0kit: RAID0 of SSDs with and without TRIM, over cycles of use");
		else if (!x.n_trim)
			snprintf(deftitle, sizeof(deftitle), "r0kit: the drives' state");
		else
			snprintf(deftitle, sizeof(deftitle), "r0kit: does TRIM pass through the array?");
		title = deftitle;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, PROG ": %s: %s\n", dir, strerror(errno));
		goto fail;
	}
	snprintf(path_md, sizeof(path_md), "%s/report.md", dir);
	snprintf(path_html, sizeof(path_html), "%s/report.html", dir);
	mem = open_memstream(&md_text, &md_len);
	if (!mem) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		goto fail;
	}
	if (have_sweep)
		md_tables(mem, &a);
	md_extra(mem, &x);
	fclose(mem);
	f = fopen(path_md, "we");
	if (f && have_sweep) {
		md_head(f, &a, title, argv + optind, argc - optind);
	} else if (f) {
		fprintf(f, "# %s\n\n%s\n\n- Results:", title, verdict);
		for (int i = optind; i < argc; i++)
			fprintf(f, " `%s`", argv[i]);
		fprintf(f, "\n\n");
	}
	if (!f || fputs(md_text, f) == EOF || fclose(f)) {
		fprintf(stderr, PROG ": %s: %s\n", path_md, strerror(errno));
		status = R0_EXIT_FAILURE;
	}
	f = fopen(path_html, "we");
	if (f) {
		html_report(f, have_sweep ? &a : NULL, &x, title, verdict, good, md_text);
		if (ferror(f) | fclose(f))
			f = NULL;
	}
	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path_html, strerror(errno ? errno : EIO));
		status = R0_EXIT_FAILURE;
	}
	/* a measured mix: what it was, on its own line before the verdict */
	if (mixdesc[0] && have_sweep)
		printf("For %s:\n", mixdesc);
	printf("%s\n%s\n%s\n", verdict, path_md, path_html);
	free(md_text);
	r0_analysis_free(&a);
	free(x.trim);
	free(x.age);
	r0_scenario_free(&x.scen);
	if (r0_cli_close_stdout(PROG))
		status = R0_EXIT_FAILURE;
	return status;
fail:
	r0_sweep_set_free(&set);
	r0_analysis_free(&a);
	free(x.trim);
	free(x.age);
	r0_scenario_free(&x.scen);
	return R0_EXIT_FAILURE;
}
