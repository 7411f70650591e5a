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

#include <stdio.h>

#include "r0/analysis.h"

/* The summary chart's file beside report.md (the HTML page holds its own copy). */
#define SUMMARY_SVG "summary.svg"

/* Markdown: title, verdict, what to build, summary, how it was measured, verdict in detail, reasoning. */
void first_md(FILE *f, const struct r0_analysis *a, const char *title, char **files, int nfiles);

/* HTML, after the page's <h1>: the same first screen, the summary chart inline. */
void first_html(FILE *f, const struct r0_analysis *a);

/* The summary chart as one <svg> element. */
void summary_svg(FILE *f, const struct r0_analysis *a);

#endif
