// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cell of an analysis by its target and workload (r0/analysis.h): the
 * one lookup the analysis, its ranking and its words all make, in a file
 * of its own so that none of the three depends on another in a circle.
 */
#include "r0/analysis.h"

const struct r0_cell *r0_analysis_cell(const struct r0_analysis *a, enum r0_layer layer,
				       uint32_t chunk_bytes, unsigned n_members, size_t wl)
{
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i];

		if (c->layer == layer && c->chunk_bytes == chunk_bytes && c->n_members == n_members &&
		    c->wl == wl)
			return c;
	}
	return NULL;
}
