// SPDX-License-Identifier: GPL-2.0-or-later
/* The first screen of a sweep report: verdict, what to build, summary chart, method (first.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "first.h"
#include "svg.h"

#include "r0/advice.h"
#include "r0/size.h"

/* worth it, not worth it, could not tell (either kind) */
static const char *const answer_color[] = { "#2ca02c", "#d62728", "#f2b701" };

static int answer_slot(enum r0_answer ans)
{
	return ans == R0_ANSWER_WORTH ? 0 : ans == R0_ANSWER_NOT ? 1 : 2;
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

/* "dm 512K, 3 members" */
static const char *pick_str(const struct r0_analysis *a, char *buf, size_t len)
{
	const struct r0_choice *p = &a->choice[a->pick];
	char ck[16];

	if (r0_format_size(p->chunk_bytes, ck, sizeof(ck)))
		snprintf(ck, sizeof(ck), "%u", p->chunk_bytes);
	snprintf(buf, len, "%s %s, %u members", r0_layer_name(p->layer), ck, a->max_members);
	return buf;
}

static const struct r0_cell *pick_cell(const struct r0_analysis *a, size_t w)
{
	const struct r0_choice *p = &a->choice[a->pick];
	const struct r0_cell *c = r0_analysis_cell(a, p->layer, p->chunk_bytes, a->max_members, w);

	return c && c->speedup.n ? c : NULL;
}

/* The lines of "how it was measured": label and text, said once for the whole page. */
static size_t measured(const struct r0_analysis *a, const char *lines[][2], char *rep, size_t len)
{
	snprintf(rep, len, "%u per cell (%s), %.1f s measured each; numbers are medians, speed-ups carry (their interval)",
		 a->repeats, order_words(a), a->runtime_s);
	lines[0][0] = "Devices", lines[0][1] = a->devices;
	lines[1][0] = "State", lines[1][1] = a->state;
	lines[2][0] = "Preconditioning", lines[2][1] = precond_words(a);
	lines[3][0] = "Repeats", lines[3][1] = rep;
	lines[4][0] = "Tool", lines[4][1] = a->tool;
	lines[5][0] = "Method", lines[5][1] = a->method;
	return 6;
}

/* "a; b; c" as one command a line, escaped for HTML when HTML. */
static void put_lines(FILE *f, const char *s, bool html)
{
	for (; *s; s++) {
		char one[2] = { *s, 0 };

		if (!strncmp(s, "; ", 2)) {
			fputc('\n', f);
			s++;
		} else if (html) {
			esc(f, one);
		} else {
			fputc(*s, f);
		}
	}
}

/* What the first screen says to do, by the answer under the mix. */
static const char *build_words(const struct r0_analysis *a)
{
	switch (a->answer) {
	case R0_ANSWER_WORTH:
		return "Build";
	case R0_ANSWER_NOT:
		return "Keep one drive: the array was not worth it under this mix. If you build one all the same, the best measured is";
	default:
		return "No gain could be told under this mix: measure again (more repeats, or a less busy CPU) before you build. If you build one now, the best measured is";
	}
}

#define PREDICTED_NOTE "Predicted by r0predict from one drive's results, not measured (see r0predict(1) for its error)."

/* r0predict's cells are never pooled with measured ones: a report is all one or the other */
static bool is_predicted(const struct r0_analysis *a)
{
	return !strncmp(a->tool, "r0predict", 9);
}

void first_md(FILE *f, const struct r0_analysis *a, const char *title, char **files, int nfiles)
{
	const char *lines[8][2];
	char rep[256], nm[64];
	struct r0_advice v;
	size_t n;

	fprintf(f, "# %s\n\n", title);
	if (is_predicted(a))
		fprintf(f, "**%s**\n\n", PREDICTED_NOTE);
	fprintf(f, "%s\n\n", a->headline);
	if (!r0_advice_of(a, &v)) {
		fprintf(f, "## What to build\n\n%s: %s. These commands erase %s:\n\n",
			build_words(a), v.array, v.paths_known ? "the devices named" : "the devices you name");
		for (int k = 0; k < 2; k++) {
			bool lvm = (k == 0) == (a->choice[a->pick].layer == R0_LAYER_DM);

			if (k)
				fprintf(f, "or the same striping with %s:\n\n", lvm ? "LVM (device-mapper striped)" : "md (mdadm)");
			fprintf(f, "```sh\n");
			if (lvm)
				put_lines(f, v.lvm, false);
			else
				fprintf(f, "%s\n%s   # assemble it at every boot", v.mdadm, v.mdadm_keep);
			fprintf(f, "\n```\n\n");
		}
		if (!v.paths_known)
			fprintf(f, "The results name no member paths: put your %u devices for <your devices>.\n\n",
				v.n_members);
		fprintf(f, "![Speed-up per workload at %s](" SUMMARY_SVG ")\n\n", pick_str(a, nm, sizeof(nm)));
		fprintf(f, "| workload | speed-up at %s (ideal %ux) | |\n|---|---|---|\n", nm, a->max_members);
		for (size_t w = 0; w < a->n_wl; w++) {
			const struct r0_cell *c = pick_cell(a, w);

			if (!c)
				continue;
			fprintf(f, "| %s | %.2fx (%.2f-%.2f) | %s%s |\n", a->wl[w].name, c->speedup.med,
				c->speedup.min, c->speedup.max, r0_answer_name(c->answer),
				a->wl[w].shared_limit ? "; shared limit" : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "## How it was measured\n\n");
	n = measured(a, lines, rep, sizeof(rep));
	for (size_t i = 0; i < n; i++)
		fprintf(f, "- %s: %s\n", lines[i][0], lines[i][1]);
	fprintf(f, "- Results:");
	for (int i = 0; i < nfiles; i++)
		fprintf(f, " `%s`", files[i]);
	fprintf(f, "\n\n## Verdict in detail\n\n%s\n\n", a->verdict);
	fprintf(f, "## Reasoning\n\n%s\n", a->reasoning);
}

void first_html(FILE *f, const struct r0_analysis *a)
{
	const char *lines[8][2];
	char rep[256], nm[64];
	struct r0_advice v;
	size_t n;

	if (is_predicted(a))
		fprintf(f, "<p><b>%s</b></p>\n", PREDICTED_NOTE);
	fprintf(f, "<p class=\"verdict%s\" id=\"verdict\">", a->worth ? "" : " no");
	esc(f, a->headline);
	fprintf(f, "</p>\n");
	if (!r0_advice_of(a, &v)) {
		fprintf(f, "<h2 id=\"build\">What to build</h2>\n<p>%s: <b>", build_words(a));
		esc(f, v.array);
		fprintf(f, "</b>. These commands erase %s:</p>\n", v.paths_known ? "the devices named" : "the devices you name");
		for (int k = 0; k < 2; k++) {
			bool lvm = (k == 0) == (a->choice[a->pick].layer == R0_LAYER_DM);

			if (k)
				fprintf(f, "<p>or the same striping with %s:</p>\n", lvm ? "LVM (device-mapper striped)" : "md (mdadm)");
			fprintf(f, "<pre class=\"commands\" id=\"%s\">", lvm ? "lvm" : "mdadm");
			if (lvm) {
				put_lines(f, v.lvm, true);
			} else {
				esc(f, v.mdadm);
				fprintf(f, "\n");
				esc(f, v.mdadm_keep);
				fprintf(f, "   # assemble it at every boot");
			}
			fprintf(f, "\n</pre>\n");
		}
		if (!v.paths_known)
			fprintf(f, "<p>The results name no member paths: put your %u devices for &lt;your devices&gt;.</p>\n",
				v.n_members);
		fprintf(f, "<figure id=\"summary\">\n");
		summary_svg(f, a);
		fprintf(f, "<figcaption>Speed-up over one drive per workload at %s: bars are medians, whiskers the interval; dashed: the ideal %ux.</figcaption>\n</figure>\n",
			pick_str(a, nm, sizeof(nm)), a->max_members);
	}
	fprintf(f, "<h2>How it was measured</h2>\n<ul id=\"measured\">\n");
	n = measured(a, lines, rep, sizeof(rep));
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<li>%s: ", lines[i][0]);
		esc(f, lines[i][1]);
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n<h2>Verdict in detail</h2>\n<p>");
	esc(f, a->verdict);
	fprintf(f, "</p>\n");
}

#define SW 680     /* the summary chart */
#define SL 150     /* room for workload names */
#define SR 210     /* room for the value labels */
#define ST 40
#define SROW 24

void summary_svg(FILE *f, const struct r0_analysis *a)
{
	unsigned N = a->max_members;
	size_t rows = 0;
	double xmax = N + 0.5, pw = SW - SL - SR, y;
	char buf[200], nm[64];
	int h;

	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = pick_cell(a, w);

		if (c) {
			rows++;
			if (c->speedup.max * 1.05 > xmax)
				xmax = c->speedup.max * 1.05;
		}
	}
	h = ST + (int)rows * SROW + 56;
#define X(v) (SL + (v) / xmax * pw)
	snprintf(buf, sizeof(buf), "Summary: speed-up per workload at %s", pick_str(a, nm, sizeof(nm)));
	svg_open(f, SW, h, buf);
	svg_text(f, 8, 18, "start", 13, "font-weight=\"bold\"", buf);
	for (int v = 0; v <= (int)xmax; v++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e3e3e3\"/>\n", X(v), ST,
			X(v), ST + (int)rows * SROW);
		snprintf(buf, sizeof(buf), "%dx", v);
		svg_text(f, X(v), ST + rows * SROW + 14.0, "middle", 10, NULL, buf);
	}
	y = ST;
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = pick_cell(a, w);
		const char *col;

		if (!c)
			continue;
		col = answer_color[answer_slot(c->answer)];
		svg_text(f, SL - 6, y + SROW / 2.0 + 4, "end", 11, NULL, a->wl[w].name);
		fprintf(f, "<rect class=\"answer\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
			SL, y + 4, X(c->speedup.med) - SL, SROW - 8, col);
		snprintf(buf, sizeof(buf), "%s: %.2fx (%.2f-%.2f): %s", a->wl[w].name, c->speedup.med, c->speedup.min,
			 c->speedup.max, r0_answer_name(c->answer));
		esc(f, buf);
		fprintf(f, "</title></rect>\n");
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>\n", X(c->speedup.min),
			y + SROW / 2.0, X(c->speedup.max), y + SROW / 2.0);
		snprintf(buf, sizeof(buf), "%.2fx", c->speedup.med);
		if (a->wl[w].shared_limit)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (%u of %u: %.2fx: shared limit)", N,
				 N - 1, a->wl[w].vs_fewer.ratio);
		svg_text(f, SL + pw + 6, y + SROW / 2.0 + 4, "start", 10, NULL, buf);
		y += SROW;
	}
	/* one drive and the ideal n x */
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", X(1.0), ST - 4, X(1.0), y);
	fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n",
		X((double)N), ST - 4, X((double)N), y);
	snprintf(buf, sizeof(buf), "ideal %ux", N);
	svg_text(f, X((double)N), ST - 7, "middle", 9, "fill=\"#555\"", buf);
	svg_text(f, X(1.0), ST - 7, "middle", 9, "fill=\"#555\"", "1 drive");
	for (int k = 0; k < 3; k++) {
		static const char *const names[] = { "worth it", "not worth it", "could not tell" };
		double lx = SL + k * 130.0;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", lx, y + 26,
			answer_color[k]);
		svg_text(f, lx + 14, y + 35, "start", 10, NULL, names[k]);
	}
	fprintf(f, "</svg>\n");
#undef X
}
