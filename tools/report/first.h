/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first screen of a sweep report: the verdict in one sentence, what
 * to build and the commands that build it, one summary chart (speed-up
 * per workload at the recommended array, the ideal n x line, worth it /
 * not / could not tell by colour), and how it was measured, in full and
 * once: the charts further down say only what differs.
 */
#ifndef R0_REPORT_FIRST_H
#define R0_REPORT_FIRST_H

#include "doc.h"

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/provenance.h"

/* The summary chart's file beside report.md (the HTML page holds its own copy). */
#define SUMMARY_SVG "summary.svg"

/* Another study, not pooled, said in one line under the verdict (r0report --aside). */
struct aside {
	char line[1536];            /* "": none */
	const char *dir;            /* its report's folder, relative to this one's; NULL: no link */
};

/*
 * The line for study S, which TITLE names ("Behind one shared queue (the
 * shared study)"): how many of its drives to build and why, or that the
 * last one added little, or else its verdict; into BUF.
 */
void aside_line(const struct r0_analysis *s, const char *title, char *buf, size_t len);

/* What the first screen says beside the analysis, in lib's words. */
struct screen_words {
	const char *trim;                     /* the TRIM answer per array (r0_trim_answer); "": none */
	const struct r0_provenance *stored;   /* a stored analysis to name (its line not ""); NULL: none */
	const char *mix;                      /* a measured mix (--mix FILE): "For the workload measured on
	                                       * ... (the mix in FILE):", before the verdict; NULL or "": none */
};

/*
 * After the title: the measured mix's line, verdict, ASIDE (NULL or line "": none), the stored
 * analysis's line, what to build, the TRIM answer, summary, how it was
 * measured (FILES the results), verdict in detail (with the stored one's
 * where they differ), reasoning. SKIPPED: the result files' lines
 * skipped, in words ("": none).
 */
void first_screen(struct doc *d, const struct r0_analysis *a, const struct aside *aside,
		  const struct screen_words *w, const struct r0_noise_diag *nz, char **files, int nfiles,
		  const char *skipped);

/* The noise of the study's own runs (NZ): a table per target, the figures and the sentence. */
void noise_section(struct doc *d, const struct r0_noise_diag *nz);

/*
 * A calibration's report (r0sweep --calibrate): its answer first (the
 * false differences and the noise's sentence), the noise, how it was
 * measured; A is the analysis of its records with the copies pooled, for
 * the devices and parameters only.
 */
void calibration_screen(struct doc *d, const struct r0_calibration *k, const struct r0_analysis *a, char **files,
			int nfiles);

#endif
