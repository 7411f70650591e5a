/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every chart of r0report, each as one self-contained <svg> element (drawn with svg.h). */
#ifndef R0_REPORT_CHARTS_H
#define R0_REPORT_CHARTS_H

#include <stddef.h>
#include <stdio.h>

#include "r0/age.h"
#include "r0/analysis.h"
#include "r0/resultfiles.h"

/* Speed-up against member count for one workload: md and dm at their chunk, the ideal n x. */
void chart_speedup(FILE *f, const struct r0_analysis *a, size_t w);

/* Chunk size x workload heat map of one back end at the largest member count. */
void chart_heat(FILE *f, const struct r0_analysis *a, enum r0_layer l);

/* Latency percentiles against queue depth of workloads GROUP[0..NG) that differ only in it. */
void chart_latency(FILE *f, const struct r0_analysis *a, const size_t *group, size_t ng);

/* The first screen's summary: speed-up per workload at the recommended array, by answer. */
void chart_summary(FILE *f, const struct r0_analysis *a);

/* r0trim: discarded sectors expected and observed per range and member. */
void chart_trim(FILE *f, const struct r0_trimres *t);

/* A scenario measure (the double at FIELD of a row) against cycles, with and without TRIM. */
void chart_cycles(FILE *f, const struct r0_scenario *s, size_t field, const char *title, const char *unit);

/* r0bench: MB/s of TESTS[0..NT) (groups) on DEVS[0..ND) (bars); BPS[t * ND + d] bytes/s, NAN: not run. */
void chart_bench(FILE *f, const char *const *tests, size_t nt, const char *const *devs, size_t nd, const double *bps);

/* r0age steady: write IOPS a round, the window that met the rule shaded. */
void chart_steady(FILE *f, const struct r0_state_record *r);

#endif
