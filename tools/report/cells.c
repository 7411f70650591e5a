// SPDX-License-Identifier: GPL-2.0-or-later
/* Which cells of an analysis a report shows, and how their numbers are written (cells.h). */
#include <stdio.h>
#include <string.h>

#include "cells.h"

#include "r0/size.h"

const char *const layer_color[] = { "#555555", "#1f77b4", "#e8710a" };

const enum r0_layer stripe_layers[2] = { R0_LAYER_MD, R0_LAYER_DM };

const char *ck(uint32_t bytes, char *buf, size_t len)
{
	if (r0_format_size(bytes, buf, len))
		snprintf(buf, len, "%u", bytes);
	return buf;
}

bool layer_chunk(const struct r0_analysis *a, enum r0_layer l, uint32_t *chunk)
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

const struct r0_cell *cell_at(const struct r0_analysis *a, enum r0_layer l, uint32_t chunk, unsigned n, size_t wl)
{
	const struct r0_cell *c = r0_analysis_cell(a, l, chunk, n, wl);

	if (c || n != 1)
		return c;
	for (size_t i = 0; i < a->n_cell; i++)
		if (a->cell[i].layer == l && a->cell[i].n_members == 1 && a->cell[i].wl == wl)
			return &a->cell[i];
	return NULL;
}

const struct r0_cell *raw_cell(const struct r0_analysis *a, size_t wl)
{
	return r0_analysis_cell(a, R0_LAYER_RAW, 0, 1, wl);
}

unsigned sorted_chunks(const struct r0_analysis *a, enum r0_layer l, uint32_t *out, unsigned max)
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

bool same_but_qd(const struct r0_run *a, const struct r0_run *b)
{
	return a->access == b->access && a->read_pct == b->read_pct && a->block_bytes == b->block_bytes &&
	       a->align_bytes == b->align_bytes && a->jobs == b->jobs;
}

const struct r0_cell *pick_cell(const struct r0_analysis *a, size_t w)
{
	const struct r0_choice *p = &a->choice[a->pick];
	const struct r0_cell *c = r0_analysis_cell(a, p->layer, p->chunk_bytes, a->build_members, w);

	return c && c->speedup.n ? c : NULL;
}

const char *pick_str(const struct r0_analysis *a, char *buf, size_t len)
{
	const struct r0_choice *p = &a->choice[a->pick];
	char c[16];

	snprintf(buf, len, "%s %s, %u members", r0_layer_name(p->layer), ck(p->chunk_bytes, c, sizeof(c)),
		 a->build_members);
	return buf;
}

const char *span(double lo, double hi, int prec, char *buf, size_t len)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%.*f", prec, lo);
	snprintf(b, sizeof(b), "%.*f", prec, hi);
	if (!strcmp(a, b))
		buf[0] = '\0';
	else
		snprintf(buf, len, " (%s-%s)", a, b);
	return buf;
}
