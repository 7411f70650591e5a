/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which cells of an analysis a report shows, and how their numbers are written. */
#ifndef R0_REPORT_CELLS_H
#define R0_REPORT_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/analysis.h"

/* The colour of a series: the single drive grey, md blue, dm orange (check-html looks for them). */
extern const char *const layer_color[];

/* The two back ends, in the order every table and chart shows them. */
extern const enum r0_layer stripe_layers[2];

/* "64K"; the plain number when it is not a round size. */
const char *ck(uint32_t bytes, char *buf, size_t len);

/*
 * " (LO-HI)" at PREC decimals, the interval or range beside a median; ""
 * where both read the same (one figure: a single repeat, a prediction),
 * so that no "(1.00-1.00)" pretends to be an interval.
 */
const char *span(double lo, double hi, int prec, char *buf, size_t len);

/* A latency: "850 ns", "420 us", "12.5 ms". */

/* The chunk a layer is shown at: the pick for its layer, else the layer's best under the mix. */
bool layer_chunk(const struct r0_analysis *a, enum r0_layer l, uint32_t *chunk);

/* A cell at (layer, chunk, n); a 1-member stripe at another chunk if none at this one. */
const struct r0_cell *cell_at(const struct r0_analysis *a, enum r0_layer l, uint32_t chunk, unsigned n, size_t wl);

/* The single raw drive's cell of workload WL, or NULL. */
const struct r0_cell *raw_cell(const struct r0_analysis *a, size_t wl);

/* The chunks measured on L at the largest member count, ascending, at most MAX. */
unsigned sorted_chunks(const struct r0_analysis *a, enum r0_layer l, uint32_t *out, unsigned max);

/* Workloads that differ only in queue depth share a latency chart. */
bool same_but_qd(const struct r0_run *a, const struct r0_run *b);

/* The recommended array's cell of workload W (at build_members) when it has a speed-up, else NULL. */
const struct r0_cell *pick_cell(const struct r0_analysis *a, size_t w);

/* "dm 512K, 3 members" */
const char *pick_str(const struct r0_analysis *a, char *buf, size_t len);

#endif
