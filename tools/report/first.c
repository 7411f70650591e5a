// SPDX-License-Identifier: GPL-2.0-or-later
/* The first screen of a sweep report: verdict, what to build, summary chart, method (first.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "cli.h"
#include "charts.h"
#include "first.h"
#include "svg.h"

#include "r0/advice.h"
#include "r0/size.h"

static const char *order_words(const struct r0_analysis *a)
{
	return a->ordered ? "each pass visits its targets in its own seeded order"
			  : "the order of the targets not recorded: an older r0sweep";
}

static const char *precond_words(const struct r0_analysis *a)
{
	if (!strcmp(a->precondition, "seq-fill"))
		return "every member's test region written once, sequentially, before the first test";
	if (!strcmp(a->precondition, "none"))
		return "none (--no-precondition): the first reads may read blocks never written";
	if (!strcmp(a->precondition, "read-only"))
		return "none: a read-only study (--read-only) wrote nothing; the reads hit the drives' data as it was";
	return "not recorded (an older r0sweep)";
}

static bool is_predicted(const struct r0_analysis *a);

/*
 * The lines of "how it was measured": label and text, said once for the
 * whole page; what a prediction does not have (a state, preconditioning,
 * repeats) is left out, not said to be missing.
 */
static size_t measured(const struct r0_analysis *a, const char *lines[][2], char *rep, size_t len,
		       const char *plan)
{
	bool predicted = is_predicted(a);
	size_t n = 0;

	if (predicted)
		snprintf(rep, len, "none: one predicted figure per cell, so no interval (r0predict(1) gives its error)");
	else if (a->cmp.looks > 1)
		snprintf(rep, len, "%u to %u per cell, more where a comparison was undecided (%s), %.1f s measured "
			 "at most; bytes/s are medians of the repeats, speed-ups ratios of their means (with their interval)",
			 a->min_repeats, a->repeats, order_words(a), a->runtime_s);
	else
		snprintf(rep, len, "%u per cell (%s), %.1f s measured each; bytes/s are medians of the repeats, speed-ups ratios of their means (with their interval)",
			 a->repeats, order_words(a), a->runtime_s);
	lines[n][0] = "Devices", lines[n++][1] = a->devices;
	if (a->state[0])
		lines[n][0] = "State", lines[n++][1] = a->state;
	if (!predicted)
		lines[n][0] = "Preconditioning", lines[n++][1] = precond_words(a);
	lines[n][0] = "Repeats", lines[n++][1] = rep;
	lines[n][0] = "Tool", lines[n++][1] = a->tool;
	lines[n][0] = "Analysed by", lines[n++][1] = r0_cli_tool_id("r0report");
	lines[n][0] = "Method", lines[n++][1] = a->method;
	if (plan[0])
		lines[n][0] = "Plan", lines[n++][1] = plan;
	return n;
}

#define PREDICTED_NOTE "Predicted by r0predict from one drive's results, not measured (see r0predict(1) for its error)."

/* r0predict's cells are never pooled with measured ones: a report is all one or the other */
static bool is_predicted(const struct r0_analysis *a)
{
	return !strncmp(a->tool, "r0predict", 9);
}

/* Markdown's text for the summary chart: the speed-up a workload at the pick NM. */
static void summary_table(struct doc *d, const struct r0_analysis *a, const char *nm)
{
	char sp[64];
	doc_table(d);
	doc_th(d, '-', "workload");
	doc_th(d, '-', "speed-up at %s (ideal %ux)", nm, a->build_members);
	doc_th(d, '-', "%s", "");
	doc_row(d);
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = pick_cell(a, w);

		if (!c)
			continue;
		doc_td(d, false, "%s", a->wl[w].name);
		doc_td(d, false, "%.2fx%s", c->speedup.med, span(c->speedup.min, c->speedup.max, 2, sp, sizeof(sp)));
		if (a->wl[w].shared_limit)
			doc_td(d, false, "%s; %u of %u: %.2fx: shared limit", r0_answer_name(c->answer), a->max_members,
			       a->max_members - 1, a->wl[w].vs_fewer.ratio);
		else
			doc_td(d, false, "%s", r0_answer_name(c->answer));
		doc_row(d);
	}
	doc_table_end(d);
}

void aside_line(const struct r0_analysis *s, const char *title, char *buf, size_t len)
{
	/* the words that send a reader to their own hardware: only where the data found a shared limit */
	static const char check[] = " Check what your drives share (a controller, a link) before you buy more.";

	char caveat[96];

	/* a line of its own words carries the caveat its verdict would have */
	r0_analysis_unmeasured_caveat(s, caveat, sizeof(caveat));
	if (s->build[0])
		snprintf(buf, len, "%s: %s%s; there, build %u.%s", title, s->build, caveat, s->build_members,
			 s->shared_limit ? check : "");
	else if (s->shared_limit) {
		size_t lead = 0;

		/* the workload the mix weighs most among those held back, as the verdict names it */
		for (size_t w = 0; w < s->n_wl; w++)
			if (s->wl[w].shared_limit && (!s->wl[lead].shared_limit || s->wl[w].weight > s->wl[lead].weight))
				lead = w;
		snprintf(buf, len, "%s: %u drives give %.2fx of %u on %s%s: something the members share is the limit.%s",
			 title, s->max_members, s->wl[lead].vs_fewer.ratio, s->max_members - 1, s->wl[lead].name,
			 caveat, check);
	} else
		snprintf(buf, len, "%s: %s", title, s->verdict);
}

/* The aside's line and the link to its report (report.md from Markdown, report.html from HTML). */
static void write_aside(struct doc *d, const struct aside *as)
{
	if (!as || !as->line[0])
		return;
	fputs(doc_html(d) ? "<p id=\"aside\">" : "", d->f);
	doc_text(d, as->line);
	if (as->dir && doc_html(d)) {
		fputs(" <a href=\"", d->f);
		esc(d->f, as->dir);
		fputs("/report.html\">Its report</a>.", d->f);
	} else if (as->dir) {
		fprintf(d->f, " [Its report](%s/report.md).", as->dir);
	}
	fputs(doc_html(d) ? "</p>\n" : "\n\n", d->f);
}

void noise_section(struct doc *d, const struct r0_noise_diag *nz)
{
	doc_heading(d, 2, "noise", "Noise");
	if (nz->measured) {
		doc_table(d);
		doc_th(d, 'l', "target");
		doc_th(d, 'r', "visits");
		doc_th(d, 'r', "visit sd");
		doc_th(d, 'r', "run noise");
		doc_row(d);
		for (size_t i = 0; i < nz->n_target; i++) {
			const struct r0_noise_target *t = &nz->target[i];

			doc_td(d, false, "%s", t->name);
			doc_td(d, false, "%u", t->visits);
			if (t->visits >= 2)
				doc_td(d, false, "%.1f %%", t->visit_sd * 100);
			else
				doc_td(d, false, "-");
			if (t->run_noise > 0)
				doc_td(d, false, "%.1f %%", t->run_noise * 100);
			else
				doc_td(d, false, "-");
			doc_row(d);
		}
		doc_table_end(d);
	}
	doc_p(d, "Measured from the study's own runs: %s.", nz->figures);
	doc_p(d, "%s.", nz->sentence);
}

void calibration_screen(struct doc *d, const struct r0_calibration *k, const struct r0_analysis *a, char **files,
			int nfiles)
{
	char head[1536], passes[256];
	const char *p = k->answer;

	snprintf(head, sizeof(head), "Calibration: %zu false differences in %zu comparisons per workload, %zu of %zu "
		 "under the %s mix. %s.", k->wl_false, k->wl_compared, k->mix_loses + k->mix_too_noisy, k->mix_compared,
		 k->mix_name, k->noise.sentence);
	doc_verdict(d, head, k->noise.within && k->wl_false * 10 <= k->wl_compared);
	doc_heading(d, 2, "calibration", "The calibration");
	/* its answer, a paragraph a line, up to the noise: the Noise section says that */
	while (*p && strncmp(p, "Noise: ", 7)) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		doc_p(d, "%.*s", n, p);
		p += n + (nl != NULL);
	}
	doc_p(d, "The copies are one array, built afresh at every visit: a difference the study's statistics find "
		 "between them is not there. The first member alone is the baseline, as in a study.");
	noise_section(d, &k->noise);
	doc_heading(d, 2, NULL, "How it was measured");
	doc_ul(d, "measured");
	snprintf(passes, sizeof(passes), "%u, each visiting the first member alone and every copy once, in its own "
		 "seeded order; %.1f s measured a run", k->passes, a->runtime_s);
	doc_li(d, "Devices: %s", a->devices);
	if (a->state[0])
		doc_li(d, "State: %s", a->state);
	doc_li(d, "Preconditioning: %s", precond_words(a));
	doc_li(d, "Passes: %s", passes);
	doc_li(d, "Tool: %s", a->tool);
	doc_files_li(d, "Results", files, nfiles);
	doc_ul_end(d);
}

/* A line of the first screen in its own paragraph, ID its HTML id ("" text: none). */
static void screen_line(struct doc *d, const char *id, const char *text)
{
	if (!text || !text[0])
		return;
	if (doc_html(d))
		fprintf(d->f, "<p id=\"%s\">", id);
	doc_text(d, text);
	fputs(doc_html(d) ? "</p>\n" : "\n\n", d->f);
}

void first_screen(struct doc *d, const struct r0_analysis *a, const struct aside *aside,
		  const struct screen_words *w, const struct r0_noise_diag *nz, char **files, int nfiles,
		  const char *skipped)
{
	const char *stored = w && w->stored ? w->stored->line : "";
	bool trim_said = false;
	const char *lines[8][2];
	char rep[320], nm[64], plan[2400] = "";
	struct r0_advice v;
	size_t n;

	if (is_predicted(a))
		fprintf(d->f, doc_html(d) ? "<p><b>%s</b></p>\n" : "**%s**\n\n", PREDICTED_NOTE);
	/* what the verdict is weighed under, as the terminal says it */
	screen_line(d, "mix", w ? w->mix : NULL);
	doc_verdict(d, a->verdict, a->worth);
	write_aside(d, aside);
	/* a verdict other code stored for these cells, named under today's */
	screen_line(d, "stored", stored);
	if (!r0_advice_of(a, &v)) {
		/* v.action's words, the array in bold: what the terminal says too */
		doc_heading(d, 2, "build", "What to build");
		fprintf(d->f, doc_html(d) ? "<p>%s: <b>" : "%s: ", v.lead);
		doc_text(d, v.array);
		fputs(doc_html(d) ? "</b>" : "", d->f);
		if (v.reason[0]) {
			fprintf(d->f, "; ");
			doc_text(d, v.reason);
		}
		fprintf(d->f, doc_html(d) ? ". These commands erase %s:</p>\n" : ". These commands erase %s:\n\n",
			v.paths_known ? "the devices named" : "the devices you name");
		for (int k = 0; k < 2; k++) {
			bool lvm = (k == 0) == (a->choice[a->pick].layer == R0_LAYER_DM);
			char md[sizeof(v.mdadm) + sizeof(v.mdadm_keep) + 2];

			if (k)
				doc_p(d, "or the same striping with %s:", lvm ? "LVM (device-mapper striped)" : "md (mdadm)");
			snprintf(md, sizeof(md), "%s; %s", v.mdadm, v.mdadm_keep);
			doc_commands(d, lvm ? "lvm" : "mdadm", lvm ? v.lvm : md, lvm ? NULL : "assemble it at every boot");
		}
		if (!v.paths_known)
			doc_p(d, "The results name no member paths: put your %u devices for <your devices>.", v.n_members);
		/* the third question, beside the array it is about */
		screen_line(d, "trim-answer", w ? w->trim : "");
		trim_said = true;
		pick_str(a, nm, sizeof(nm));
		if (doc_html(d)) {
			fprintf(d->f, "<figure id=\"summary\">\n");
			chart_summary(d->f, a);
			if (is_predicted(a))
				fprintf(d->f, "<figcaption>Predicted speed-up over one drive per workload at %s, not "
					"measured: bars are the ratio of r0predict's figures, no interval; dashed: the "
					"ideal %ux.</figcaption>\n</figure>\n", nm, a->build_members);
			else
				fprintf(d->f, "<figcaption>Speed-up over one drive per workload at %s: bars are the ratio of the mean bytes/s, whiskers its interval; dashed: the ideal %ux.</figcaption>\n</figure>\n",
					nm, a->build_members);
		} else {
			fprintf(d->f, "![%speed-up per workload at %s](" SUMMARY_SVG ")\n\n",
				is_predicted(a) ? "Predicted s" : "S", nm);
			summary_table(d, a, nm);
		}
	}
	if (!trim_said)
		screen_line(d, "trim-answer", w ? w->trim : "");
	doc_heading(d, 2, NULL, is_predicted(a) ? "How it was predicted" : "How it was measured");
	doc_ul(d, "measured");
	/* an adaptive study's own account of what it repeated, left open and left out */
	for (int i = 0; i < nfiles && r0_sweep_plan_note(files[i], plan, sizeof(plan)); i++)
		;
	n = measured(a, lines, rep, sizeof(rep), plan);
	for (size_t i = 0; i < n; i++)
		doc_li(d, "%s: %s", lines[i][0], lines[i][1]);
	doc_files_li(d, "Results", files, nfiles);
	/* a verdict from part of a study says so where the study is described */
	if (skipped && skipped[0])
		doc_li(d, "Skipped: %s; the verdict rests on the lines that could be read", skipped);
	doc_ul_end(d);
	if (nz && !is_predicted(a))
		noise_section(d, nz);
	doc_heading(d, 2, NULL, "Verdict in detail");
	doc_p(d, "%s", a->detail);
	if (stored[0] && w->stored->detail[0])
		doc_p(d, "%s", w->stored->detail);
	doc_heading(d, 2, NULL, "Reasoning");
	doc_md_list(d, a->reasoning);
}
