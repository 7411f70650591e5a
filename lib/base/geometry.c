// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stripe geometry after drivers/md/raid0.c (create_strip_zones, find_zone,
 * map_sector, raid0_handle_discard) and drivers/md/dm-stripe.c
 * (stripe_ctr, stripe_map_sector, stripe_map_range) of Linux 6.12.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "r0/geometry.h"
#include "r0/size.h"
#include "grow.h"

/* Array sizes in bytes must fit a uint64_t, as the kernel's do (loff_t). */
#define MAX_SECTORS (UINT64_MAX >> 9)

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check_chunk(enum r0_backend backend, uint64_t bytes)
{
	if (bytes > R0_CHUNK_MAX_BYTES)
		return -ERANGE;
	if (bytes < R0_CHUNK_MIN_BYTES)
		return -EINVAL;
	if (backend == R0_BACKEND_MD)
		return is_pow2(bytes) ? 0 : -EINVAL;
	if (backend == R0_BACKEND_DM)
		return bytes % 4096 == 0 ? 0 : -EINVAL;
	return -EINVAL;
}

int r0_parse_chunk(const char *s, enum r0_backend backend, uint32_t *chunk_bytes)
{
	uint64_t v;
	int err = r0_parse_size(s, &v);

	if (!err)
		err = check_chunk(backend, v);
	if (!err)
		*chunk_bytes = (uint32_t)v;
	return err;
}

const char *r0_chunk_rule(enum r0_backend backend)
{
	return backend == R0_BACKEND_MD ?
		"md chunks are a power of two from 4K to 1G" :
		"dm chunks are a multiple of 4K from 4K to 1G";
}

/*
 * raid0.c create_strip_zones: zone k holds, in array order, the members
 * larger than zone k-1's smallest member, from that size on.
 */
static void md_zones(struct r0_geometry *g)
{
	uint64_t dev_start = 0, array_end = 0;

	for (;;) {
		struct r0_zone *z = &g->zones[g->n_zones];
		uint64_t smallest = UINT64_MAX;

		z->n_members = 0;
		for (unsigned i = 0; i < g->n_members; i++) {
			if (g->used_sectors[i] <= dev_start)
				continue;
			z->members[z->n_members++] = i;
			if (g->used_sectors[i] < smallest)
				smallest = g->used_sectors[i];
		}
		if (!z->n_members)
			break;
		z->dev_start_sector = dev_start;
		z->array_start_sector = array_end;
		array_end += (smallest - dev_start) * z->n_members;
		z->array_end_sector = array_end;
		dev_start = smallest;
		g->n_zones++;
	}
	/* create_strip_zones forces RAID0_ORIG_LAYOUT where the layouts agree */
	if (!r0_geometry_needs_layout(g))
		g->layout = R0_MD_LAYOUT_ORIG;
}

int r0_geometry_init(struct r0_geometry *g, enum r0_backend backend, uint32_t chunk_bytes,
		     unsigned n, const uint64_t *member_sectors,
		     const uint64_t *data_offset_sectors, enum r0_md_layout layout)
{
	uint64_t cs = chunk_bytes / 512, smallest = UINT64_MAX, total = 0;

	memset(g, 0, sizeof(*g));
	if (check_chunk(backend, chunk_bytes) || n == 0 || n > R0_MAX_MEMBERS || !member_sectors ||
	    (backend == R0_BACKEND_MD && layout != R0_MD_LAYOUT_ORIG && layout != R0_MD_LAYOUT_ALT))
		return -EINVAL;
	g->backend = backend;
	g->layout = backend == R0_BACKEND_MD ? layout : 0;
	g->chunk_sectors = (uint32_t)cs;
	g->n_members = n;
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = data_offset_sectors ? data_offset_sectors[i] : 0;

		if (member_sectors[i] < off || member_sectors[i] - off < cs)
			return -EINVAL;   /* not one chunk of room */
		if (member_sectors[i] > MAX_SECTORS)
			return -ERANGE;
		g->member_sectors[i] = member_sectors[i];
		g->data_offset_sectors[i] = off;
		g->used_sectors[i] = (member_sectors[i] - off) / cs * cs;
		if (g->used_sectors[i] < smallest)
			smallest = g->used_sectors[i];
	}
	if (backend == R0_BACKEND_DM) {
		/* stripe_ctr: every stripe is the table length / n long */
		for (unsigned i = 0; i < n; i++) {
			g->used_sectors[i] = smallest;
			g->zones[0].members[i] = i;
		}
		g->n_zones = 1;
		g->zones[0].n_members = n;
		g->zones[0].array_end_sector = smallest * n;
	} else {
		md_zones(g);
	}
	for (unsigned i = 0; i < n; i++)
		total += g->used_sectors[i];   /* <= 16 * 2^55: no overflow */
	if (total > MAX_SECTORS)
		return -ERANGE;
	g->array_sectors = total;
	return 0;
}

uint64_t r0_geometry_unused_sectors(const struct r0_geometry *g, unsigned m)
{
	if (m >= g->n_members)
		return 0;
	return g->member_sectors[m] - g->data_offset_sectors[m] - g->used_sectors[m];
}

bool r0_geometry_is_multizone(const struct r0_geometry *g)
{
	return g->n_zones > 1;
}

bool r0_geometry_needs_layout(const struct r0_geometry *g)
{
	return g->backend == R0_BACKEND_MD && g->n_zones > 1 && g->zones[1].n_members > 1;
}

/*
 * map_sector picks the member by chunk % nb_dev. RAID0_ORIG_LAYOUT counts
 * chunks from the array start, RAID0_ALT_MULTIZONE_LAYOUT from the zone
 * start; zones start on chunk boundaries, so ORIG is ALT turned by the
 * zone's first chunk (raid0.c calls it disk_shift).
 */
static unsigned zone_shift(const struct r0_geometry *g, const struct r0_zone *z)
{
	if (g->layout != R0_MD_LAYOUT_ORIG)
		return 0;
	return (unsigned)(z->array_start_sector / g->chunk_sectors % z->n_members);
}

/* raid0.c find_zone */
static const struct r0_zone *find_zone(const struct r0_geometry *g, uint64_t array_sector)
{
	for (unsigned i = 0; i < g->n_zones; i++)
		if (array_sector < g->zones[i].array_end_sector)
			return &g->zones[i];
	return NULL;
}

int r0_geometry_map(const struct r0_geometry *g, uint64_t array_sector, unsigned *member,
		    uint64_t *member_sector)
{
	const struct r0_zone *z = find_zone(g, array_sector);
	uint64_t cs = g->chunk_sectors, in_zone, chunk;
	unsigned nb;

	if (!z)
		return -ERANGE;
	nb = z->n_members;
	in_zone = array_sector - z->array_start_sector;
	chunk = in_zone / cs;
	*member = z->members[(chunk + zone_shift(g, z)) % nb];
	*member_sector = g->data_offset_sectors[*member] + z->dev_start_sector +
			 chunk / nb * cs + in_zone % cs;
	return 0;
}

int r0_geometry_unmap(const struct r0_geometry *g, unsigned member, uint64_t member_sector,
		      uint64_t *array_sector)
{
	uint64_t cs = g->chunk_sectors, s;

	if (member >= g->n_members || member_sector < g->data_offset_sectors[member])
		return -ENOENT;
	s = member_sector - g->data_offset_sectors[member];
	for (unsigned i = 0; i < g->n_zones; i++) {
		const struct r0_zone *z = &g->zones[i];
		unsigned nb = z->n_members, idx;
		uint64_t per_member = (z->array_end_sector - z->array_start_sector) / nb, row, col;

		if (s < z->dev_start_sector || s - z->dev_start_sector >= per_member)
			continue;
		for (idx = 0; idx < nb && z->members[idx] != member; idx++)
			;
		if (idx == nb)
			return -ENOENT;
		row = (s - z->dev_start_sector) / cs;
		col = (idx + nb - zone_shift(g, z)) % nb;
		*array_sector = z->array_start_sector + (row * nb + col) * cs +
				(s - z->dev_start_sector) % cs;
		return 0;
	}
	return -ENOENT;
}

typedef int piece_fn(void *ctx, unsigned member, uint64_t member_sector, uint64_t n_sectors,
		     uint64_t array_sector);

/*
 * Calls FN once per member and zone with the contiguous member range that
 * [start, start + n) covers there, in array order, as raid0_handle_discard
 * and stripe_map_range compute it: a member's chunks in a zone are every
 * nb-th chunk, on consecutive rows, so only the first and last are partial.
 */
static int for_each_piece(const struct r0_geometry *g, uint64_t start, uint64_t n,
			  piece_fn *fn, void *ctx)
{
	uint64_t cs = g->chunk_sectors, end;

	if (n > g->array_sectors || start > g->array_sectors - n)
		return -ERANGE;
	end = start + n;
	for (unsigned zi = 0; zi < g->n_zones; zi++) {
		const struct r0_zone *z = &g->zones[zi];
		uint64_t zs = z->array_start_sector, a, b, ca, cb;
		unsigned nb = z->n_members, shift = zone_shift(g, z);

		if (end <= zs || start >= z->array_end_sector)
			continue;
		a = (start > zs ? start : zs) - zs;   /* zone-relative [a, b) */
		b = (end < z->array_end_sector ? end : z->array_end_sector) - zs;
		ca = a / cs;
		cb = (b - 1) / cs;
		for (uint64_t c1 = ca; c1 < ca + nb && c1 <= cb; c1++) {
			uint64_t c2 = cb - (cb - c1) % nb;   /* this member's last chunk */
			uint64_t lo = c1 / nb * cs + (c1 == ca ? a % cs : 0);
			uint64_t hi = c2 / nb * cs + (c2 == cb ? (b - 1) % cs + 1 : cs);
			unsigned m = z->members[(c1 + shift) % nb];
			int err = fn(ctx, m, g->data_offset_sectors[m] + z->dev_start_sector + lo,
				     hi - lo, zs + (c1 == ca ? a : c1 * cs));

			if (err)
				return err;
		}
	}
	return 0;
}

static int add_total(void *ctx, unsigned member, uint64_t member_sector, uint64_t n_sectors,
		     uint64_t array_sector)
{
	(void)member_sector;
	(void)array_sector;
	((uint64_t *)ctx)[member] += n_sectors;
	return 0;
}

int r0_geometry_split_totals(const struct r0_geometry *g, uint64_t start_sector,
			     uint64_t n_sectors, uint64_t *per_member_sectors)
{
	uint64_t tot[R0_MAX_MEMBERS] = { 0 };
	int err = for_each_piece(g, start_sector, n_sectors, add_total, tot);

	if (!err)
		memcpy(per_member_sectors, tot, g->n_members * sizeof(*tot));
	return err;
}

struct split_ctx {
	struct r0_extent *ext;
	size_t count, cap;
	size_t last[R0_MAX_MEMBERS];   /* 1 + index of each member's latest extent, 0 none */
};

static int add_extent(void *ctx, unsigned member, uint64_t member_sector, uint64_t n_sectors,
		      uint64_t array_sector)
{
	struct split_ctx *c = ctx;

	if (c->last[member]) {
		struct r0_extent *e = &c->ext[c->last[member] - 1];

		if (e->member_start_sector + e->n_sectors == member_sector) {
			e->n_sectors += n_sectors;   /* the next zone goes on where this ended */
			return 0;
		}
	}
	if (r0_grow(&c->ext, &c->cap, c->count, sizeof(*c->ext), 2 * R0_MAX_MEMBERS))
		return -ENOMEM;
	c->ext[c->count++] = (struct r0_extent){ member, member_sector, n_sectors, array_sector };
	c->last[member] = c->count;
	return 0;
}

int r0_geometry_split(const struct r0_geometry *g, uint64_t start_sector, uint64_t n_sectors,
		      struct r0_extent **out, size_t *count)
{
	struct split_ctx c = { .ext = NULL };
	int err = for_each_piece(g, start_sector, n_sectors, add_extent, &c);

	if (err) {
		free(c.ext);
		return err;
	}
	*out = c.ext;
	*count = c.count;
	return 0;
}
