/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stripe geometry: where md raid0 and dm-stripe put each array sector, as
 * Linux 6.12 does it. The model r0trim and the tests check the kernel against.
 */
#ifndef R0_GEOMETRY_H
#define R0_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define R0_MAX_MEMBERS 16
#define R0_CHUNK_MIN_BYTES 4096u          /* the page size; md's minimum */
#define R0_CHUNK_MAX_BYTES (1u << 30)

enum r0_backend { R0_BACKEND_MD, R0_BACKEND_DM };

/* md raid0 multi-zone layouts (drivers/md/raid0.h enum r0layout). */
enum r0_md_layout { R0_MD_LAYOUT_ORIG = 1, R0_MD_LAYOUT_ALT = 2 };

/*
 * An md raid0 zone: array sectors [array_start, array_end) striped over
 * n_members members (indices into the array's member list, array order),
 * each from member sector dev_start on. dm-stripe has one zone.
 */
struct r0_zone {
	uint64_t array_start, array_end;
	uint64_t dev_start;
	unsigned n_members;
	unsigned members[R0_MAX_MEMBERS];
};

/* Read-only after r0_geometry_init. All sizes in 512-byte sectors. */
struct r0_geometry {
	enum r0_backend backend;
	enum r0_md_layout layout;   /* in effect: ORIG where both agree (raid0.c) */
	uint32_t chunk_sectors;
	unsigned n_members;
	uint64_t member_sectors[R0_MAX_MEMBERS];  /* as given */
	uint64_t data_offset[R0_MAX_MEMBERS];     /* where the array's data starts */
	uint64_t used_sectors[R0_MAX_MEMBERS];    /* of each member, from data_offset */
	uint64_t array_sectors;
	unsigned n_zones;
	struct r0_zone zones[R0_MAX_MEMBERS];
};

/* One piece of a request on one member. */
struct r0_extent {
	unsigned member;
	uint64_t member_start;   /* member sector, data offset included */
	uint64_t n_sectors;
	uint64_t array_start;    /* where the piece starts in the array */
};

/*
 * Parses a chunk size (r0_parse_size syntax) with the back end's rules:
 * md: a power of two, R0_CHUNK_MIN_BYTES..R0_CHUNK_MAX_BYTES (md needs a
 * power of two of at least the page size); dm: a multiple of 4096 in the
 * same range (dm-stripe takes any sector count whose multiple the table
 * length is; r0kit keeps chunks whole pages). -EINVAL, or -ERANGE when too
 * large. The members' logical block size is checked separately.
 */
int r0_parse_chunk(const char *s, enum r0_backend backend, uint32_t *chunk_bytes);

/* The rule above as a sentence for error messages. */
const char *r0_chunk_rule(enum r0_backend backend);

/*
 * Builds the model of an array over N members of the given sizes (sectors)
 * and data offsets (NULL: all 0, as for superblock-less md and for dm).
 * md: each member is used up to its size rounded down to the chunk, in
 * zones (raid0.c create_strip_zones), LAYOUT for multi-zone arrays.
 * dm: n x the smallest member, rounded down to the chunk (dm-stripe needs
 * the table length to be a multiple of n x chunk). -EINVAL for a bad
 * chunk, member count, layout, or a member smaller than one chunk.
 */
int r0_geometry_init(struct r0_geometry *g, enum r0_backend backend, uint32_t chunk_bytes,
		     unsigned n, const uint64_t *member_sectors, const uint64_t *data_offset,
		     enum r0_md_layout layout);

/* Sectors of member M the array leaves unused. */
uint64_t r0_geometry_unused_sectors(const struct r0_geometry *g, unsigned m);

/* Zones > 1, where md raid0 needs its layout set. */
bool r0_geometry_is_multizone(const struct r0_geometry *g);

/* Array sector -> (member, member sector). -ERANGE past the end. */
int r0_geometry_map(const struct r0_geometry *g, uint64_t sector, unsigned *member,
		    uint64_t *member_sector);

/* (member, member sector) -> array sector. -ENOENT where the array has no data. */
int r0_geometry_unmap(const struct r0_geometry *g, unsigned member, uint64_t member_sector,
		      uint64_t *sector);

/*
 * Splits array range [start, start + n) into member extents, in order of
 * first touch; a piece that continues the previous extent of the same
 * member on that member is merged into it (so a large discard gives about
 * one extent per member and zone, as raid0 issues it). *out is malloc'ed.
 * -ERANGE if the range passes the end.
 */
int r0_geometry_split(const struct r0_geometry *g, uint64_t start, uint64_t n,
		      struct r0_extent **out, size_t *count);

/* Sectors of [start, start + n) each member receives (PER_MEMBER[n_members]). */
int r0_geometry_split_totals(const struct r0_geometry *g, uint64_t start, uint64_t n,
			     uint64_t *per_member);

#endif
