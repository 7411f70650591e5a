/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sweep's evidence below the first screen: its tables (Markdown and HTML) and its charts (HTML). */
#ifndef R0_REPORT_SWEEP_H
#define R0_REPORT_SWEEP_H

#include <stdio.h>

#include "doc.h"

#include "r0/analysis.h"

/* Speed-up over one drive, chunk size per back end, latency and CPU. */
void sweep_tables(struct doc *d, const struct r0_analysis *a);

/* Speed-up against member count, the chunk heat maps, latency against queue depth. */
void sweep_charts(FILE *f, const struct r0_analysis *a);

#endif
