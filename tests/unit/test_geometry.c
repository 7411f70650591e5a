// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/geometry.h: hand-worked raid0.c / dm-stripe.c examples and properties. */
#include <errno.h>
#include <stdlib.h>
#include <criterion/criterion.h>

#include "r0/geometry.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define C8 8   /* a 4K chunk in sectors */
#define MD R0_BACKEND_MD
#define DM R0_BACKEND_DM
#define ALT R0_MD_LAYOUT_ALT
#define ORIG R0_MD_LAYOUT_ORIG

static struct r0_geometry geo(enum r0_backend be, uint32_t chunk_bytes, unsigned n,
			      const uint64_t *sizes, enum r0_md_layout layout)
{
	struct r0_geometry g;

	cr_assert_eq(r0_geometry_init(&g, be, chunk_bytes, n, sizes, NULL, layout), 0);
	return g;
}

static void expect_map(const struct r0_geometry *g, uint64_t s, unsigned m, uint64_t ms)
{
	unsigned gm;
	uint64_t gms, back;

	cr_assert_eq(r0_geometry_map(g, s, &gm, &gms), 0, "sector %llu", (unsigned long long)s);
	cr_expect_eq(gm, m, "sector %llu: member %u, expected %u", (unsigned long long)s, gm, m);
	cr_expect_eq(gms, ms, "sector %llu: member sector %llu, expected %llu",
		     (unsigned long long)s, (unsigned long long)gms, (unsigned long long)ms);
	cr_expect_eq(r0_geometry_unmap(g, m, ms, &back), 0);
	cr_expect_eq(back, s);
}

static void expect_split(const struct r0_geometry *g, uint64_t start, uint64_t n,
			 const struct r0_extent *want, size_t n_want)
{
	struct r0_extent *ext;
	size_t count;

	cr_assert_eq(r0_geometry_split(g, start, n, &ext, &count), 0);
	cr_assert_eq(count, n_want, "[%llu, +%llu): %zu extents, expected %zu",
		     (unsigned long long)start, (unsigned long long)n, count, n_want);
	for (size_t i = 0; i < count; i++) {
		cr_expect_eq(ext[i].member, want[i].member, "extent %zu", i);
		cr_expect_eq(ext[i].member_start_sector, want[i].member_start_sector, "extent %zu", i);
		cr_expect_eq(ext[i].n_sectors, want[i].n_sectors, "extent %zu", i);
		cr_expect_eq(ext[i].array_start_sector, want[i].array_start_sector, "extent %zu", i);
	}
	free(ext);
}

Test(chunk, parse_per_backend)
{
	static const struct { const char *s; enum r0_backend be; int err; uint32_t v; } t[] = {
		{ "4k", MD, 0, 4096 }, { "4096", MD, 0, 4096 }, { "64K", MD, 0, 65536 },
		{ "512k", MD, 0, 524288 }, { "1M", MD, 0, 1 << 20 }, { "1m", DM, 0, 1 << 20 },
		{ "1MiB", MD, 0, 1 << 20 }, { "1G", MD, 0, 1u << 30 }, { "1G", DM, 0, 1u << 30 },
		{ "12K", DM, 0, 12288 }, { "12K", MD, -EINVAL, 0 }, { "3k", MD, -EINVAL, 0 },
		{ "3k", DM, -EINVAL, 0 }, { "6k", DM, -EINVAL, 0 }, { "2k", MD, -EINVAL, 0 },
		{ "512", DM, -EINVAL, 0 }, { "0", MD, -EINVAL, 0 }, { "0", DM, -EINVAL, 0 },
		{ "2G", MD, -ERANGE, 0 }, { "1028M", DM, -ERANGE, 0 }, { "64Q", MD, -EINVAL, 0 },
		{ "", DM, -EINVAL, 0 }, { "-4k", MD, -EINVAL, 0 }, { "4kk", MD, -EINVAL, 0 },
		{ "k", DM, -EINVAL, 0 }, { " 4k", MD, -EINVAL, 0 }, { "1.5M", DM, -EINVAL, 0 },
		{ "99999999999999999999", MD, -ERANGE, 0 }, { "4k", 7, -EINVAL, 0 },
	};
	for (size_t i = 0; i < N(t); i++) {
		uint32_t v = 77;

		cr_expect_eq(r0_parse_chunk(t[i].s, t[i].be, &v), t[i].err, "'%s' (%s)", t[i].s,
			     t[i].be == MD ? "md" : "dm");
		cr_expect_eq(v, t[i].err ? 77 : t[i].v, "'%s'", t[i].s);
	}
}

Test(geometry, rejects_bad_arrays)
{
	struct r0_geometry g;
	uint64_t s[17] = { 800, 800, 800 }, off[3] = { 0, 793, 0 }, huge[2] = { 1, UINT64_MAX };

	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 0, s, NULL, ALT), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 17, s, NULL, ALT), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, MD, 12288, 3, s, NULL, ALT), -EINVAL);   /* not 2^k */
	cr_expect_eq(r0_geometry_init(&g, MD, 2048, 3, s, NULL, ALT), -EINVAL);    /* < a page */
	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 3, s, NULL, 0), -EINVAL);      /* no layout */
	cr_expect_eq(r0_geometry_init(&g, DM, 0, 3, s, NULL, 0), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, DM, 6144, 3, s, NULL, 0), -EINVAL);      /* not 4K */
	cr_expect_eq(r0_geometry_init(&g, DM, 1 << 20, 3, s, NULL, 0), -EINVAL);   /* < 1 chunk */
	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 3, s, off, ALT), -EINVAL);     /* 7 after offset */
	huge[0] = huge[1];
	cr_expect_eq(r0_geometry_init(&g, DM, 4096, 2, huge, NULL, 0), -ERANGE);
	huge[0] = huge[1] = UINT64_MAX >> 10;   /* each fits, the sum in bytes does not */
	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 2, huge, NULL, ALT), 0);
	huge[0] = huge[1] = UINT64_MAX >> 9;
	cr_expect_eq(r0_geometry_init(&g, MD, 4096, 2, huge, NULL, ALT), -ERANGE);
	cr_expect_eq(r0_geometry_init(&g, DM, 12288, 3, s, NULL, 0), 0);
}

Test(geometry, md_two_equal_members)
{
	uint64_t s[2] = { 5 * C8 + 3, 5 * C8 + 3 };
	struct r0_geometry g = geo(MD, 4096, 2, s, ALT);

	cr_expect_eq(g.array_sectors, 10 * C8);
	cr_expect_eq(g.n_zones, 1);
	cr_expect_eq(g.used_sectors[0], 5 * C8);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 0), 3);
	expect_map(&g, 0, 0, 0);
	expect_map(&g, 7, 0, 7);
	expect_map(&g, 8, 1, 0);
	expect_map(&g, 16, 0, 8);
	expect_map(&g, 9 * C8 + 7, 1, 4 * C8 + 7);
}

Test(geometry, md_three_equal_members)
{
	uint64_t s[3] = { 8 * C8 + 5, 8 * C8 + 5, 8 * C8 + 5 };   /* tails below a chunk */
	struct r0_geometry g = geo(MD, 4096, 3, s, ALT);
	unsigned m;
	uint64_t ms;

	cr_expect_eq(g.array_sectors, 24 * C8);
	cr_expect_eq(g.n_zones, 1);
	cr_expect_eq(g.layout, ORIG);   /* one zone: raid0.c forces the original layout */
	cr_expect_not(r0_geometry_is_multizone(&g));
	cr_expect_not(r0_geometry_needs_layout(&g));
	cr_expect_eq(r0_geometry_unused_sectors(&g, 1), 5);
	expect_map(&g, 0, 0, 0);
	expect_map(&g, 8, 1, 0);
	expect_map(&g, 16, 2, 0);
	expect_map(&g, 24, 0, 8);
	expect_map(&g, 5 * C8 + 3, 2, 11);
	expect_map(&g, 24 * C8 - 1, 2, 8 * C8 - 1);
	cr_expect_eq(r0_geometry_map(&g, 24 * C8, &m, &ms), -ERANGE);
	cr_expect_eq(r0_geometry_unmap(&g, 0, 8 * C8, &ms), -ENOENT);   /* the unused tail */
	cr_expect_eq(r0_geometry_unmap(&g, 3, 0, &ms), -ENOENT);
}

/*
 * The design's measured fact: a 5-chunk discard on a 3-member 64K raid0
 * showed 256/256/128 sectors on the members (chunks 0,3 / 1,4 / 2).
 */
Test(geometry, five_chunk_discard_on_three_members)
{
	uint64_t s[3] = { 1 << 20, 1 << 20, 1 << 20 }, tot[3];
	struct r0_geometry g = geo(MD, 65536, 3, s, ALT);
	static const struct r0_extent want[] = {
		{ 0, 0, 256, 0 }, { 1, 0, 256, 128 }, { 2, 0, 128, 256 },
	};

	cr_assert_eq(r0_geometry_split_totals(&g, 0, 5 * 128, tot), 0);
	cr_expect_eq(tot[0], 256);
	cr_expect_eq(tot[1], 256);
	cr_expect_eq(tot[2], 128);
	expect_split(&g, 0, 5 * 128, want, N(want));
}

/*
 * Worked from create_strip_zones by hand. Members of 3, 6 and 10 chunks
 * (4K chunks, sizes already chunk multiples):
 *   zone 0: all three, dev_start 0, smallest 3 chunks -> array chunks 0..8
 *   zone 1: members 1 and 2 (larger than 3), dev_start 3 chunks, smallest
 *           6 -> (6 - 3) x 2 = 6 chunks, array chunks 9..14
 *   zone 2: member 2 (larger than 6), dev_start 6 chunks -> 4 chunks, 15..18
 * Zone 1 starts at the odd array chunk 9, so map_sector differs there:
 * ALT counts chunks from the zone start (chunk 9 is zone chunk 0 -> zone
 * member 0 = member 1), ORIG from the array start (9 % 2 = 1 -> member 2).
 * Both put zone chunk k on row k / 2, member sector 3 chunks + row.
 */
static const uint64_t unequal[3] = { 3 * C8, 6 * C8, 10 * C8 };

Test(geometry, md_unequal_zones)
{
	struct r0_geometry g = geo(MD, 4096, 3, unequal, ALT);

	cr_expect_eq(g.array_sectors, 19 * C8);
	cr_assert_eq(g.n_zones, 3);
	cr_expect(r0_geometry_is_multizone(&g));
	cr_expect(r0_geometry_needs_layout(&g));
	cr_expect_eq(g.zones[0].array_end_sector, 9 * C8);
	cr_expect_eq(g.zones[0].n_members, 3);
	cr_expect_eq(g.zones[1].array_start_sector, 9 * C8);
	cr_expect_eq(g.zones[1].array_end_sector, 15 * C8);
	cr_expect_eq(g.zones[1].dev_start_sector, 3 * C8);
	cr_expect_eq(g.zones[1].n_members, 2);
	cr_expect_eq(g.zones[1].members[0], 1);
	cr_expect_eq(g.zones[1].members[1], 2);
	cr_expect_eq(g.zones[2].array_end_sector, 19 * C8);
	cr_expect_eq(g.zones[2].dev_start_sector, 6 * C8);
	cr_expect_eq(g.zones[2].n_members, 1);
	cr_expect_eq(g.zones[2].members[0], 2);
	cr_expect_eq(g.layout, ALT);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(r0_geometry_unused_sectors(&g, i), 0);
}

Test(geometry, md_unequal_alt_layout)
{
	struct r0_geometry g = geo(MD, 4096, 3, unequal, ALT);

	expect_map(&g, 8 * C8, 2, 2 * C8);       /* last chunk of zone 0 */
	expect_map(&g, 9 * C8, 1, 3 * C8);
	expect_map(&g, 10 * C8 + 1, 2, 3 * C8 + 1);
	expect_map(&g, 11 * C8, 1, 4 * C8);
	expect_map(&g, 14 * C8, 2, 5 * C8);
	expect_map(&g, 15 * C8, 2, 6 * C8);
	expect_map(&g, 18 * C8 + 7, 2, 10 * C8 - 1);
}

Test(geometry, md_unequal_orig_layout)
{
	struct r0_geometry g = geo(MD, 4096, 3, unequal, ORIG);

	expect_map(&g, 8 * C8, 2, 2 * C8);
	expect_map(&g, 9 * C8, 2, 3 * C8);
	expect_map(&g, 10 * C8 + 1, 1, 3 * C8 + 1);
	expect_map(&g, 11 * C8, 2, 4 * C8);
	expect_map(&g, 14 * C8, 1, 5 * C8);
	expect_map(&g, 15 * C8, 2, 6 * C8);
}

/*
 * Sectors 68..81 cross from zone 0 into zone 1: chunk 8 (sectors 68..71,
 * member 2 at 20..23), chunk 9 (72..79), chunk 10 (80..81). The piece on
 * member 2 in zone 0 ends at 24, where zone 1 starts on it: merged.
 */
Test(geometry, md_unequal_split_across_zones)
{
	struct r0_geometry alt = geo(MD, 4096, 3, unequal, ALT);
	struct r0_geometry orig = geo(MD, 4096, 3, unequal, ORIG);
	static const struct r0_extent want_alt[] = { { 2, 20, 6, 68 }, { 1, 24, 8, 72 } };
	static const struct r0_extent want_orig[] = { { 2, 20, 12, 68 }, { 1, 24, 2, 80 } };
	static const struct r0_extent whole[] = {
		{ 0, 0, 3 * C8, 0 }, { 1, 0, 6 * C8, C8 }, { 2, 0, 10 * C8, 2 * C8 },
	};

	expect_split(&alt, 68, 14, want_alt, N(want_alt));
	expect_split(&orig, 68, 14, want_orig, N(want_orig));
	expect_split(&alt, 0, alt.array_sectors, whole, N(whole));
	expect_split(&orig, 0, orig.array_sectors, whole, N(whole));
}

Test(geometry, md_second_zone_of_one_member_uses_orig)
{
	uint64_t s[2] = { 3 * C8, 7 * C8 };
	struct r0_geometry g = geo(MD, 4096, 2, s, ALT);

	cr_expect_eq(g.n_zones, 2);
	cr_expect(r0_geometry_is_multizone(&g));
	cr_expect_not(r0_geometry_needs_layout(&g));
	cr_expect_eq(g.layout, ORIG);   /* raid0.c: both map alike */
	expect_map(&g, 6 * C8, 1, 3 * C8);
	expect_map(&g, 9 * C8 + 2, 1, 6 * C8 + 2);
}

Test(geometry, md_array_order_is_kept_in_zones)
{
	uint64_t s[3] = { 10 * C8, 3 * C8, 6 * C8 };   /* the big one first */
	struct r0_geometry g = geo(MD, 4096, 3, s, ALT);

	cr_assert_eq(g.n_zones, 3);
	cr_expect_eq(g.zones[1].members[0], 0);
	cr_expect_eq(g.zones[1].members[1], 2);
	expect_map(&g, 9 * C8, 0, 3 * C8);
	expect_map(&g, 10 * C8, 2, 3 * C8);
}

Test(geometry, md_equal_after_rounding_is_one_zone)
{
	uint64_t s[3] = { 4 * C8, 4 * C8 + 7, 4 * C8 + 1 };
	struct r0_geometry g = geo(MD, 4096, 3, s, ORIG);

	cr_expect_eq(g.n_zones, 1);
	cr_expect_eq(g.array_sectors, 12 * C8);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 1), 7);
}

/*
 * dm-stripe, members of 163, 121 and 144 sectors, 8K (16-sector) chunk:
 * the smallest rounds down to 112 = 7 chunks, so the table is 3 x 112.
 */
Test(geometry, dm_uses_n_times_smallest)
{
	uint64_t s[3] = { 10 * 16 + 3, 7 * 16 + 9, 9 * 16 };
	struct r0_geometry g = geo(DM, 8192, 3, s, 0);
	static const struct r0_extent whole[] = {
		{ 0, 0, 7 * 16, 0 }, { 1, 0, 7 * 16, 16 }, { 2, 0, 7 * 16, 32 },
	};
	uint64_t back;

	cr_expect_eq(g.array_sectors, 21 * 16);
	cr_expect_eq(g.n_zones, 1);
	cr_expect_not(r0_geometry_is_multizone(&g));
	cr_expect_not(r0_geometry_needs_layout(&g));
	cr_expect_eq(r0_geometry_unused_sectors(&g, 0), 3 * 16 + 3);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 1), 9);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 2), 2 * 16);
	expect_map(&g, 0, 0, 0);
	expect_map(&g, 4 * 16 + 5, 1, 16 + 5);
	expect_map(&g, 20 * 16 + 15, 2, 6 * 16 + 15);
	cr_expect_eq(r0_geometry_unmap(&g, 0, 7 * 16, &back), -ENOENT);
	expect_split(&g, 0, g.array_sectors, whole, N(whole));
}

Test(geometry, dm_non_power_of_two_chunk)
{
	uint64_t s[2] = { 5 * 24, 5 * 24 };   /* 12K chunk = 24 sectors */
	struct r0_geometry g = geo(DM, 12288, 2, s, 0);

	cr_expect_eq(g.array_sectors, 10 * 24);
	expect_map(&g, 3 * 24 + 23, 1, 24 + 23);
	expect_map(&g, 4 * 24, 0, 2 * 24);
}

Test(geometry, data_offset_shifts_members)
{
	uint64_t s[2] = { 2048 + 4 * C8 + 3, 2048 + 4 * C8 }, off[2] = { 2048, 2048 };
	uint64_t ds[2] = { 100 + 6 * C8, 5 * C8 }, doff[2] = { 100, 0 };
	struct r0_geometry g;
	uint64_t back;

	cr_assert_eq(r0_geometry_init(&g, MD, 4096, 2, s, off, ALT), 0);
	cr_expect_eq(g.array_sectors, 8 * C8);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 0), 3);
	expect_map(&g, C8, 1, 2048);
	expect_map(&g, 2 * C8 + 1, 0, 2048 + C8 + 1);
	cr_expect_eq(r0_geometry_unmap(&g, 1, 100, &back), -ENOENT);
	/* dm: per-stripe offsets; 6 and 5 chunks after them, so 2 x 5 */
	cr_assert_eq(r0_geometry_init(&g, DM, 4096, 2, ds, doff, 0), 0);
	cr_expect_eq(g.array_sectors, 10 * C8);
	expect_map(&g, 0, 0, 100);
	expect_map(&g, 3 * C8 + 2, 1, C8 + 2);
}

/* Totals and splits stay O(zones x members): a whole 3 x 16 TiB discard. */
Test(geometry, split_of_a_large_array_is_cheap)
{
	uint64_t s[3] = { 1ULL << 35, 1ULL << 35, (1ULL << 35) + 12345 }, tot[3];
	struct r0_geometry g = geo(MD, 4096, 3, s, ALT);
	struct r0_extent *ext;
	size_t count;

	cr_assert_eq(r0_geometry_split_totals(&g, 0, g.array_sectors, tot), 0);
	for (unsigned m = 0; m < 3; m++)
		cr_expect_eq(tot[m], g.used_sectors[m]);
	cr_assert_eq(r0_geometry_split(&g, 0, g.array_sectors, &ext, &count), 0);
	cr_expect_eq(count, 3);
	free(ext);
}

Test(geometry, split_bounds)
{
	uint64_t s[2] = { 64 * C8, 64 * C8 }, tot[2] = { 9, 9 };
	struct r0_geometry g = geo(MD, 4096, 2, s, ALT);
	struct r0_extent *ext = (void *)1;
	size_t count = 9;

	cr_expect_eq(r0_geometry_split_totals(&g, 1, g.array_sectors, tot), -ERANGE);
	cr_expect_eq(tot[0], 9);
	cr_expect_eq(r0_geometry_split(&g, g.array_sectors, 1, &ext, &count), -ERANGE);
	cr_expect_eq(r0_geometry_split_totals(&g, UINT64_MAX, 2, tot), -ERANGE);
	cr_assert_eq(r0_geometry_split(&g, g.array_sectors, 0, &ext, &count), 0);
	cr_expect_eq(count, 0);
	cr_expect_null(ext);
	cr_assert_eq(r0_geometry_split_totals(&g, 5, 0, tot), 0);
	cr_expect_eq(tot[0] + tot[1], 0);
}

/* Every array sector maps to one member sector, each used one exactly once. */
static void check_bijection(const struct r0_geometry *g)
{
	uint64_t total = 0;
	char *seen[R0_MAX_MEMBERS];

	for (unsigned m = 0; m < g->n_members; m++) {
		seen[m] = calloc(g->member_sectors[m], 1);
		cr_assert_not_null(seen[m]);
		total += g->used_sectors[m];
	}
	cr_assert_eq(total, g->array_sectors);
	for (uint64_t s = 0; s < g->array_sectors; s++) {
		unsigned m;
		uint64_t ms, back;

		cr_assert_eq(r0_geometry_map(g, s, &m, &ms), 0);
		cr_assert_lt(m, g->n_members);
		cr_assert_geq(ms, g->data_offset_sectors[m]);
		cr_assert_lt(ms, g->member_sectors[m]);
		cr_assert_eq(seen[m][ms], 0, "member %u sector %llu twice", m, (unsigned long long)ms);
		seen[m][ms] = 1;
		cr_assert_eq(r0_geometry_unmap(g, m, ms, &back), 0);
		cr_assert_eq(back, s);
	}
	for (unsigned m = 0; m < g->n_members; m++) {
		for (uint64_t ms = 0; ms < g->member_sectors[m]; ms++) {
			uint64_t back;

			if (!seen[m][ms])
				cr_assert_eq(r0_geometry_unmap(g, m, ms, &back), -ENOENT);
		}
		free(seen[m]);
	}
}

/* Small configurations, sizes mostly not chunk multiples, exhaustively. */
static const uint64_t cfg_sizes[][5] = {
	{ 64, 64, 64, 64 }, { 40, 64, 100 }, { 100, 40, 64 }, { 33, 97 }, { 16, 16, 16, 200 },
	{ 129 }, { 72, 72, 24, 48 }, { 57, 201, 130, 90, 17 }, { 200, 150, 100, 50, 33 },
};
static const unsigned cfg_counts[] = { 4, 3, 3, 2, 4, 1, 4, 5, 5 };
static const uint32_t cfg_chunks[] = { 4096, 8192, 12288, 16384 };

static unsigned try_bijection(enum r0_backend be, uint32_t chunk_bytes, size_t cfg,
			      const uint64_t *off, enum r0_md_layout layout)
{
	struct r0_geometry g;

	if (r0_geometry_init(&g, be, chunk_bytes, cfg_counts[cfg], cfg_sizes[cfg], off, layout))
		return 0;   /* a member below one chunk */
	check_bijection(&g);
	return 1;
}

Test(geometry, every_sector_once_and_back)
{
	static const uint64_t offs[5] = { 3, 0, 8, 1, 0 };
	unsigned built = 0;

	for (size_t i = 0; i < N(cfg_counts); i++)
		for (size_t c = 0; c < N(cfg_chunks); c++)
			for (int o = 0; o < 2; o++) {
				built += try_bijection(MD, cfg_chunks[c], i, o ? offs : NULL, ALT);
				built += try_bijection(MD, cfg_chunks[c], i, o ? offs : NULL, ORIG);
				built += try_bijection(DM, cfg_chunks[c], i, o ? offs : NULL, 0);
			}
	cr_expect_gt(built, 100, "only %u configurations built", built);
}

/* A fixed-seed xorshift, so the ranges are the same on every libc. */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Split totals and extents agree with sector-by-sector mapping. */
static void check_split(const struct r0_geometry *g, uint64_t start, uint64_t n)
{
	uint64_t want[R0_MAX_MEMBERS] = { 0 }, got[R0_MAX_MEMBERS], from_ext[R0_MAX_MEMBERS] = { 0 };
	struct r0_extent *ext;
	size_t count;

	for (uint64_t s = start; s < start + n; s++) {
		unsigned m;
		uint64_t ms;

		cr_assert_eq(r0_geometry_map(g, s, &m, &ms), 0);
		want[m]++;
	}
	cr_assert_eq(r0_geometry_split_totals(g, start, n, got), 0);
	cr_assert_eq(r0_geometry_split(g, start, n, &ext, &count), 0);
	for (size_t i = 0; i < count; i++) {
		unsigned m;
		uint64_t ms;

		cr_assert_gt(ext[i].n_sectors, 0);
		if (i)
			cr_assert_gt(ext[i].array_start_sector, ext[i - 1].array_start_sector);
		cr_assert_eq(r0_geometry_map(g, ext[i].array_start_sector, &m, &ms), 0);
		cr_assert_eq(m, ext[i].member);
		cr_assert_eq(ms, ext[i].member_start_sector);
		for (size_t j = 0; j < i; j++)   /* merged: no two touch on a member */
			if (ext[j].member == m)
				cr_assert_neq(ext[j].member_start_sector + ext[j].n_sectors, ms);
		for (uint64_t k = 0; k < ext[i].n_sectors; k++) {
			uint64_t back;

			cr_assert_eq(r0_geometry_unmap(g, m, ms + k, &back), 0);
			cr_assert(back >= start && back < start + n);
		}
		from_ext[m] += ext[i].n_sectors;
	}
	free(ext);
	for (unsigned m = 0; m < g->n_members; m++) {
		cr_assert_eq(got[m], want[m], "member %u: %llu, expected %llu", m,
			     (unsigned long long)got[m], (unsigned long long)want[m]);
		cr_assert_eq(from_ext[m], want[m]);
	}
}

Test(geometry, split_matches_mapping)
{
	uint64_t seed = 42;

	for (size_t i = 0; i < N(cfg_counts); i++)
		for (size_t c = 0; c < N(cfg_chunks); c++)
			for (int k = 0; k < 3; k++) {
				struct r0_geometry g;
				int err = r0_geometry_init(&g, k == 2 ? DM : MD, cfg_chunks[c],
							   cfg_counts[i], cfg_sizes[i], NULL,
							   k == 1 ? ORIG : ALT);

				if (err)
					continue;
				check_split(&g, 0, g.array_sectors);   /* the whole device */
				check_split(&g, 0, g.chunk_sectors);   /* one chunk */
				check_split(&g, 3, 5);                 /* part of a chunk */
				check_split(&g, g.array_sectors - 1, 1);
				for (int r = 0; r < 40; r++) {
					uint64_t a = next_random(&seed) % g.array_sectors;
					uint64_t n = 1 + next_random(&seed) % (g.array_sectors - a);

					check_split(&g, a, n);
				}
			}
}
