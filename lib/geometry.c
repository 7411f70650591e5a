// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stripe geometry after drivers/md/raid0.c (create_strip_zones, find_zone,
 * map_sector) and drivers/md/dm-stripe.c (stripe_ctr, stripe_map_sector).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "r0/geometry.h"
#include "r0/size.h"

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int r0_parse_chunk(const char *s, enum r0_backend backend, uint32_t *chunk_bytes)
{
	uint64_t v;
	int err = r0_parse_size(s, &v);

	if (err)
		return err;
	if (v > R0_CHUNK_MAX_BYTES)
		return -ERANGE;
	if (v < R0_CHUNK_MIN_BYTES)
		return -EINVAL;
	if (backend == R0_BACKEND_MD ? !is_pow2(v) : v % 4096 != 0)
		return -EINVAL;
	*chunk_bytes = (uint32_t)v;
	return 0;
}

const char *r0_chunk_rule(enum r0_backend backend)
{
	return backend == R0_BACKEND_MD ?
		"md chunks are a power of two from 4K to 1G" :
		"dm chunks are a multiple of 4K from 4K to 1G";
}

/* raid0.c create_strip_zones: zones of the members larger than the last. */
static void md_zones(struct r0_geometry *g)
{
	uint64_t start = 0, array_end = 0;

	while (1) {
		struct r0_zone *z = &g->zones[g->n_zones];
		uint64_t smallest = 0;
		unsigned i;

		z->n_members = 0;
		for (i = 0; i < g->n_members; i++) {
			if (g->used_sectors[i] <= start)
				continue;
			z->members[z->n_members++] = i;
			if (!smallest || g->used_sectors[i] < smallest)
				smallest = g->used_sectors[i];
		}
		if (!z->n_members)
			break;
		z->dev_start = start;
		z->array_start = array_end;
		array_end += (smallest - start) * z->n_members;
		z->array_end = array_end;
		start = smallest;
		g->n_zones++;
	}
	g->array_sectors = array_end;
	/* raid0.c: one zone, or a second zone of one member, maps alike either way */
	if (g->n_zones == 1 || g->zones[1].n_members == 1)
		g->layout = R0_MD_LAYOUT_ORIG;
}

int r0_geometry_init(struct r0_geometry *g, enum r0_backend backend, uint32_t chunk_bytes,
		     unsigned n, const uint64_t *member_sectors, const uint64_t *data_offset,
		     enum r0_md_layout layout)
{
	uint64_t cs = chunk_bytes / 512, smallest = UINT64_MAX;
	unsigned i;

	memset(g, 0, sizeof(*g));
	if (n == 0 || n > R0_MAX_MEMBERS || chunk_bytes % 512 || cs == 0 ||
	    (backend == R0_BACKEND_MD && !is_pow2(cs)) ||
	    (backend == R0_BACKEND_MD && layout != R0_MD_LAYOUT_ORIG && layout != R0_MD_LAYOUT_ALT))
		return -EINVAL;
	g->backend = backend;
	g->layout = backend == R0_BACKEND_MD ? layout : R0_MD_LAYOUT_ALT;
	g->chunk_sectors = (uint32_t)cs;
	g->n_members = n;
	for (i = 0; i < n; i++) {
		uint64_t off = data_offset ? data_offset[i] : 0;

		if (member_sectors[i] < off + cs)
			return -EINVAL;   /* not one chunk of room */
		g->member_sectors[i] = member_sectors[i];
		g->data_offset[i] = off;
		g->used_sectors[i] = (member_sectors[i] - off) / cs * cs;
		if (g->used_sectors[i] < smallest)
			smallest = g->used_sectors[i];
	}
	if (backend == R0_BACKEND_MD) {
		md_zones(g);
		return 0;
	}
	/* dm-stripe: n x the smallest, every member used to that length */
	for (i = 0; i < n; i++) {
		g->used_sectors[i] = smallest;
		g->zones[0].members[i] = i;
	}
	g->n_zones = 1;
	g->zones[0].n_members = n;
	g->zones[0].array_end = g->array_sectors = smallest * n;
	return 0;
}

uint64_t r0_geometry_unused_sectors(const struct r0_geometry *g, unsigned m)
{
	return m < g->n_members ? g->member_sectors[m] - g->data_offset[m] - g->used_sectors[m] : 0;
}

bool r0_geometry_is_multizone(const struct r0_geometry *g)
{
	return g->n_zones > 1;
}

static const struct r0_zone *find_zone(const struct r0_geometry *g, uint64_t sector)
{
	unsigned i;

	for (i = 0; i < g->n_zones; i++)
		if (sector < g->zones[i].array_end)
			return &g->zones[i];
	return NULL;
}

int r0_geometry_map(const struct r0_geometry *g, uint64_t sector, unsigned *member,
		    uint64_t *member_sector)
{
	const struct r0_zone *z = find_zone(g, sector);
	uint64_t cs = g->chunk_sectors, in_zone, chunk, row, pick;

	if (!z)
		return -ERANGE;
	in_zone = sector - z->array_start;
	chunk = in_zone / cs;
	row = chunk / z->n_members;
	/* map_sector: the original layout picks the member by absolute chunk */
	pick = g->layout == R0_MD_LAYOUT_ORIG ? sector / cs : chunk;
	*member = z->members[pick % z->n_members];
	*member_sector = g->data_offset[*member] + z->dev_start + row * cs + in_zone % cs;
	return 0;
}

int r0_geometry_unmap(const struct r0_geometry *g, unsigned member, uint64_t member_sector,
		      uint64_t *sector)
{
	uint64_t cs = g->chunk_sectors, s;
	unsigned i, idx;

	if (member >= g->n_members || member_sector < g->data_offset[member])
		return -ENOENT;
	s = member_sector - g->data_offset[member];
	for (i = 0; i < g->n_zones; i++) {
		const struct r0_zone *z = &g->zones[i];
		uint64_t per_member = (z->array_end - z->array_start) / z->n_members;
		uint64_t row, col;

		if (s < z->dev_start || s >= z->dev_start + per_member)
			continue;
		for (idx = 0; idx < z->n_members && z->members[idx] != member; idx++)
			;
		if (idx == z->n_members)
			return -ENOENT;
		row = (s - z->dev_start) / cs;
		col = idx;
		if (g->layout == R0_MD_LAYOUT_ORIG)   /* invert pick = absolute chunk % n */
			col = (idx + z->n_members - (z->array_start / cs) % z->n_members) % z->n_members;
		*sector = z->array_start + (row * z->n_members + col) * cs + (s - z->dev_start) % cs;
		return 0;
	}
	return -ENOENT;
}

/* Walks [start, start+n) one chunk piece at a time. */
static int walk(const struct r0_geometry *g, uint64_t start, uint64_t n,
		int (*fn)(void *ctx, unsigned m, uint64_t ms, uint64_t len, uint64_t s), void *ctx)
{
	uint64_t cs = g->chunk_sectors, s = start, end;

	if (n > g->array_sectors || start > g->array_sectors - n)
		return -ERANGE;
	end = start + n;
	while (s < end) {
		uint64_t len = cs - s % cs, ms;
		unsigned m;
		int err;

		if (len > end - s)
			len = end - s;
		r0_geometry_map(g, s, &m, &ms);
		if ((err = fn(ctx, m, ms, len, s)))
			return err;
		s += len;
	}
	return 0;
}

static int add_total(void *ctx, unsigned m, uint64_t ms, uint64_t len, uint64_t s)
{
	(void)ms; (void)s;
	((uint64_t *)ctx)[m] += len;
	return 0;
}

int r0_geometry_split_totals(const struct r0_geometry *g, uint64_t start, uint64_t n,
			     uint64_t *per_member)
{
	memset(per_member, 0, g->n_members * sizeof(*per_member));
	return walk(g, start, n, add_total, per_member);
}

struct split_ctx {
	struct r0_extent *ext;
	size_t count, cap;
	long last[R0_MAX_MEMBERS];   /* index of each member's latest extent, -1 none */
};

static int add_extent(void *ctx, unsigned m, uint64_t ms, uint64_t len, uint64_t s)
{
	struct split_ctx *c = ctx;
	struct r0_extent *e;

	if (c->last[m] >= 0) {
		e = &c->ext[c->last[m]];
		if (e->member_start + e->n_sectors == ms) {
			e->n_sectors += len;
			return 0;
		}
	}
	if (c->count == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct r0_extent *x = realloc(c->ext, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		c->ext = x;
		c->cap = cap;
	}
	c->ext[c->count] = (struct r0_extent){ m, ms, len, s };
	c->last[m] = (long)c->count++;
	return 0;
}

int r0_geometry_split(const struct r0_geometry *g, uint64_t start, uint64_t n,
		      struct r0_extent **out, size_t *count)
{
	struct split_ctx c = { .ext = NULL };
	int err;

	for (unsigned i = 0; i < R0_MAX_MEMBERS; i++)
		c.last[i] = -1;
	err = walk(g, start, n, add_extent, &c);
	if (err) {
		free(c.ext);
		return err;
	}
	*out = c.ext;
	*count = c.count;
	return 0;
}
