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

#define R0_MAX_MEMBERS 16                 /* r0kit's limit; md and dm allow more */
#define R0_CHUNK_MIN_BYTES 4096u          /* the page size */
#define R0_CHUNK_MAX_BYTES (1u << 30)     /* largest power of two in md's int chunk_size */
#define R0_MDADM_CHUNK_BYTES (512u << 10) /* mdadm's default chunk: the pick leans to it among equals */
/* The chunks a study and a prediction try unless told (--chunks). */
#define R0_DEFAULT_CHUNKS "4K,16K,64K,128K,512K,1M"

enum r0_backend { R0_BACKEND_MD, R0_BACKEND_DM };

/* md raid0 multi-zone layouts (drivers/md/raid0.h enum r0layout). */
enum r0_md_layout { R0_MD_LAYOUT_ORIG = 1, R0_MD_LAYOUT_ALT = 2 };

/*
 * A zone: array sectors [array_start_sector, array_end_sector) striped over
 * n_members members (indices into the array's member list, in array
 * order), each from dev_start_sector (after its data offset) on. md raid0
 * has one zone per distinct rounded member size; dm-stripe has one zone.
 */
struct r0_zone {
	uint64_t array_start_sector, array_end_sector;
	uint64_t dev_start_sector;
	unsigned n_members;
	unsigned members[R0_MAX_MEMBERS];
};

/*
 * Filled by r0_geometry_init, read-only afterwards; all sizes in 512-byte
 * sectors. A plain struct (no allocation): callers keep it on the stack.
 */
struct r0_geometry {
	enum r0_backend backend;
	enum r0_md_layout layout;   /* md: the one in effect (ORIG where both map alike); dm: 0 */
	uint32_t chunk_sectors;
	unsigned n_members;
	uint64_t member_sectors[R0_MAX_MEMBERS];       /* as given */
	uint64_t data_offset_sectors[R0_MAX_MEMBERS];  /* where each member's data starts */
	uint64_t used_sectors[R0_MAX_MEMBERS];         /* of each member, from its data offset */
	uint64_t array_sectors;                        /* sum of used_sectors */
	unsigned n_zones;
	struct r0_zone zones[R0_MAX_MEMBERS];
};

/* One piece of a request on one member. */
struct r0_extent {
	unsigned member;
	uint64_t member_start_sector;   /* data offset included */
	uint64_t n_sectors;
	uint64_t array_start_sector;    /* the array sector that maps to member_start_sector */
};

/*
 * Parses a chunk size (r0_parse_size syntax) with r0kit's rule for the
 * back end:
 *   md: a power of two from R0_CHUNK_MIN_BYTES to R0_CHUNK_MAX_BYTES.
 *       raid0.c create_strip_zones itself only wants a multiple of the
 *       members' logical block size; r0kit keeps md at powers of two of at
 *       least a page. The top is the largest power of two that fits
 *       mdu_array_info_t's int chunk_size (linux/raid/md_u.h).
 *   dm: a multiple of 4096 in the same range, not necessarily a power of
 *       two. Linux 6.12 dm-stripe.c stripe_ctr itself takes any chunk of
 *       1..2^32-1 sectors ("Invalid chunk_size" only for 0 or non-numbers),
 *       as long as the table length divides by the stripe count and the
 *       per-stripe width by the chunk; dm-table.c device_area_is_invalid
 *       checks each member's offset and width against its logical block
 *       size, but nothing checks the chunk. A chunk below the logical
 *       block size would split I/O mid-block, so r0kit asks for whole 4K.
 * Returns 0, -EINVAL (syntax, zero, too small, not a power of two for md,
 * not a multiple of 4096 for dm) or -ERANGE (too large). The members'
 * logical block size is checked separately (r0/safety.h).
 */
int r0_parse_chunk(const char *s, enum r0_backend backend, uint32_t *chunk_bytes);

/* The rule above as a phrase for error messages. */
const char *r0_chunk_rule(enum r0_backend backend);

/*
 * Builds the model of an array over N (1..R0_MAX_MEMBERS) members, in
 * array order, of MEMBER_SECTORS each, whose data starts at
 * DATA_OFFSET_SECTORS (NULL: all 0, as for superblock-less md; for dm the
 * table's per-stripe offset).
 *   md (raid0.c create_strip_zones): each member is used up to its size
 *      after the offset rounded down to the chunk; zone 0 spans all
 *      members up to the smallest, each next zone the members larger than
 *      the last zone's end. LAYOUT (ORIG or ALT) picks the member inside
 *      zones past the first; it is ignored (ORIG) where both map alike.
 *   dm (dm-stripe.c stripe_ctr): n x the smallest member after its offset,
 *      rounded down to the chunk, since the table length must divide by n
 *      and each stripe's width by the chunk. LAYOUT is ignored.
 * CHUNK_BYTES must pass r0_parse_chunk's rule for the back end.
 * Returns 0; -EINVAL for a bad chunk, count or md layout, or a member with
 * less than one chunk after its offset; -ERANGE if the array's size in
 * bytes would not fit in 64 bits.
 */
int r0_geometry_init(struct r0_geometry *g, enum r0_backend backend, uint32_t chunk_bytes,
		     unsigned n, const uint64_t *member_sectors,
		     const uint64_t *data_offset_sectors, enum r0_md_layout layout);

/* Sectors of member M after its data offset that the array leaves unused. */
uint64_t r0_geometry_unused_sectors(const struct r0_geometry *g, unsigned m);

/* More than one zone: md with members of different rounded sizes. */
bool r0_geometry_is_multizone(const struct r0_geometry *g);

/*
 * The md layout changes the mapping: more than one zone and two or more
 * members in zone 1. Only then does raid0.c need md/layout (or
 * raid0.default_layout) set, and refuses to assemble without it.
 */
bool r0_geometry_needs_layout(const struct r0_geometry *g);

/* Array sector -> (member, member sector). 0, or -ERANGE past the end. */
int r0_geometry_map(const struct r0_geometry *g, uint64_t array_sector, unsigned *member,
		    uint64_t *member_sector);

/*
 * (member, member sector) -> array sector. 0, or -ENOENT where the array
 * keeps no data (the data offset, the unused tail, a bad member index).
 */
int r0_geometry_unmap(const struct r0_geometry *g, unsigned member, uint64_t member_sector,
		      uint64_t *array_sector);

/*
 * Splits the array range [START, START + N) into member extents, ordered
 * by the array sector where each begins. Pieces contiguous on a member
 * are merged, also across md zones, so the list is the fewest extents
 * that cover the range: at most one per member per zone, and one per
 * member for dm. The kernel issues discards the same way except that
 * raid0_handle_discard sends one bio per member per zone (and every bio
 * is cut at the device's max_discard_sectors first); reads and writes it
 * cuts at chunk boundaries. Per-member totals are the same in every case.
 * *OUT is malloc'ed (free it; NULL when N is 0). Returns 0, -ERANGE if the
 * range passes the end, -ENOMEM.
 */
int r0_geometry_split(const struct r0_geometry *g, uint64_t start_sector, uint64_t n_sectors,
		      struct r0_extent **out, size_t *count);

/*
 * Sectors of [START, START + N) each member receives, into
 * PER_MEMBER_SECTORS[0..n_members-1], without allocating. 0 or -ERANGE.
 */
int r0_geometry_split_totals(const struct r0_geometry *g, uint64_t start_sector,
			     uint64_t n_sectors, uint64_t *per_member_sectors);

#endif
