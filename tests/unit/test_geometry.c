// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/geometry.h against hand-worked raid0.c / dm-stripe.c examples. */
#include <errno.h>
#include <stdlib.h>
#include <criterion/criterion.h>

#include "r0/geometry.h"

#define C8 8   /* a 4K chunk in sectors */

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

Test(chunk, parse_per_backend)
{
	static const struct { const char *s; enum r0_backend be; int err; uint32_t v; } t[] = {
		{ "4k", R0_BACKEND_MD, 0, 4096 }, { "64K", R0_BACKEND_MD, 0, 65536 },
		{ "512k", R0_BACKEND_MD, 0, 524288 }, { "1M", R0_BACKEND_MD, 0, 1 << 20 },
		{ "1m", R0_BACKEND_DM, 0, 1 << 20 }, { "1G", R0_BACKEND_MD, 0, 1u << 30 },
		{ "12K", R0_BACKEND_DM, 0, 12288 }, { "12K", R0_BACKEND_MD, -EINVAL, 0 },
		{ "3k", R0_BACKEND_MD, -EINVAL, 0 }, { "3k", R0_BACKEND_DM, -EINVAL, 0 },
		{ "6k", R0_BACKEND_DM, -EINVAL, 0 }, { "2k", R0_BACKEND_MD, -EINVAL, 0 },
		{ "512", R0_BACKEND_DM, -EINVAL, 0 }, { "0", R0_BACKEND_MD, -EINVAL, 0 },
		{ "0", R0_BACKEND_DM, -EINVAL, 0 }, { "2G", R0_BACKEND_MD, -ERANGE, 0 },
		{ "64Q", R0_BACKEND_MD, -EINVAL, 0 }, { "", R0_BACKEND_DM, -EINVAL, 0 },
		{ "-64k", R0_BACKEND_MD, -EINVAL, 0 }, { "99999999999999999999", R0_BACKEND_MD, -ERANGE, 0 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t v = 0;
		cr_expect_eq(r0_parse_chunk(t[i].s, t[i].be, &v), t[i].err, "'%s' (%s)", t[i].s,
			     t[i].be == R0_BACKEND_MD ? "md" : "dm");
		if (!t[i].err)
			cr_expect_eq(v, t[i].v, "'%s'", t[i].s);
	}
}

Test(geometry, rejects_bad_arrays)
{
	struct r0_geometry g;
	uint64_t s[17] = { 800, 800, 800 };

	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_MD, 4096, 0, s, NULL, R0_MD_LAYOUT_ALT), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_MD, 4096, 17, s, NULL, R0_MD_LAYOUT_ALT), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_MD, 12288, 3, s, NULL, R0_MD_LAYOUT_ALT), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_MD, 4096, 3, s, NULL, 0), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_DM, 0, 3, s, NULL, 0), -EINVAL);
	/* a member smaller than one chunk */
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_DM, 1 << 20, 3, s, NULL, 0), -EINVAL);
	cr_expect_eq(r0_geometry_init(&g, R0_BACKEND_DM, 12288, 3, s, NULL, 0), 0);
}

Test(geometry, md_three_equal_members)
{
	uint64_t s[3] = { 8 * C8 + 5, 8 * C8 + 5, 8 * C8 + 5 };   /* tails below a chunk */
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 3, s, R0_MD_LAYOUT_ALT);

	cr_expect_eq(g.array_sectors, 24 * C8);
	cr_expect_eq(g.n_zones, 1);
	cr_expect_not(r0_geometry_is_multizone(&g));
	cr_expect_eq(r0_geometry_unused_sectors(&g, 1), 5);
	expect_map(&g, 0, 0, 0);
	expect_map(&g, 8, 1, 0);
	expect_map(&g, 16, 2, 0);
	expect_map(&g, 24, 0, 8);
	expect_map(&g, 5 * C8 + 3, 2, 11);
	expect_map(&g, 24 * C8 - 1, 2, 8 * C8 - 1);
	unsigned m;
	uint64_t ms;
	cr_expect_eq(r0_geometry_map(&g, 24 * C8, &m, &ms), -ERANGE);
	cr_expect_eq(r0_geometry_unmap(&g, 0, 8 * C8, &ms), -ENOENT);   /* the unused tail */
}

/*
 * Members of 3, 6 and 10 chunks: zone 0 = chunks 0..8 over all three,
 * zone 1 = chunks 9..14 over members 1 and 2 from member chunk 3, zone 2 =
 * chunks 15..18 on member 2 from member chunk 6. Zone 1 starts at an odd
 * chunk, so the layouts differ there: ALT starts it on member 1 (the zone's
 * first), ORIG on member 2 (absolute chunk 9 mod 2 = 1).
 */
static const uint64_t unequal[3] = { 3 * C8, 6 * C8, 10 * C8 };

Test(geometry, md_unequal_zones)
{
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 3, unequal, R0_MD_LAYOUT_ALT);

	cr_expect_eq(g.array_sectors, 19 * C8);
	cr_assert_eq(g.n_zones, 3);
	cr_expect(r0_geometry_is_multizone(&g));
	cr_expect_eq(g.zones[0].array_end, 9 * C8);
	cr_expect_eq(g.zones[1].array_start, 9 * C8);
	cr_expect_eq(g.zones[1].array_end, 15 * C8);
	cr_expect_eq(g.zones[1].dev_start, 3 * C8);
	cr_expect_eq(g.zones[1].n_members, 2);
	cr_expect_eq(g.zones[1].members[0], 1);
	cr_expect_eq(g.zones[2].dev_start, 6 * C8);
	cr_expect_eq(g.zones[2].n_members, 1);
	cr_expect_eq(g.zones[2].members[0], 2);
	cr_expect_eq(g.layout, R0_MD_LAYOUT_ALT);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_eq(r0_geometry_unused_sectors(&g, i), 0);
}

Test(geometry, md_unequal_alt_layout)
{
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 3, unequal, R0_MD_LAYOUT_ALT);

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
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 3, unequal, R0_MD_LAYOUT_ORIG);

	expect_map(&g, 9 * C8, 2, 3 * C8);
	expect_map(&g, 10 * C8 + 1, 1, 3 * C8 + 1);
	expect_map(&g, 11 * C8, 2, 4 * C8);
	expect_map(&g, 14 * C8, 1, 5 * C8);
	expect_map(&g, 15 * C8, 2, 6 * C8);
}

Test(geometry, md_second_zone_of_one_member_uses_orig)
{
	uint64_t s[2] = { 3 * C8, 7 * C8 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 2, s, R0_MD_LAYOUT_ALT);

	cr_expect_eq(g.n_zones, 2);
	cr_expect_eq(g.layout, R0_MD_LAYOUT_ORIG);   /* raid0.c: both map alike */
	expect_map(&g, 6 * C8, 1, 3 * C8);
}

Test(geometry, md_array_order_is_kept_in_zones)
{
	uint64_t s[3] = { 10 * C8, 3 * C8, 6 * C8 };   /* the big one first */
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 3, s, R0_MD_LAYOUT_ALT);

	cr_assert_eq(g.n_zones, 3);
	cr_expect_eq(g.zones[1].members[0], 0);
	cr_expect_eq(g.zones[1].members[1], 2);
	expect_map(&g, 9 * C8, 0, 3 * C8);
	expect_map(&g, 10 * C8, 2, 3 * C8);
}

Test(geometry, dm_uses_n_times_smallest)
{
	uint64_t s[3] = { 10 * 16 + 3, 7 * 16 + 9, 9 * 16 };
	struct r0_geometry g = geo(R0_BACKEND_DM, 8192, 3, s, 0);

	cr_expect_eq(g.array_sectors, 21 * 16);
	cr_expect_eq(g.n_zones, 1);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 0), 3 * 16 + 3);
	cr_expect_eq(r0_geometry_unused_sectors(&g, 1), 9);
	expect_map(&g, 0, 0, 0);
	expect_map(&g, 4 * 16 + 5, 1, 16 + 5);
	expect_map(&g, 20 * 16 + 15, 2, 6 * 16 + 15);
	uint64_t back;
	cr_expect_eq(r0_geometry_unmap(&g, 0, 7 * 16, &back), -ENOENT);
}

Test(geometry, dm_non_power_of_two_chunk)
{
	uint64_t s[2] = { 5 * 24, 5 * 24 };   /* 12K chunk = 24 sectors */
	struct r0_geometry g = geo(R0_BACKEND_DM, 12288, 2, s, 0);

	cr_expect_eq(g.array_sectors, 10 * 24);
	expect_map(&g, 3 * 24 + 23, 1, 24 + 23);
}

Test(geometry, data_offset_shifts_members)
{
	uint64_t s[2] = { 2048 + 4 * C8, 2048 + 4 * C8 }, off[2] = { 2048, 2048 };
	struct r0_geometry g;

	cr_assert_eq(r0_geometry_init(&g, R0_BACKEND_MD, 4096, 2, s, off, R0_MD_LAYOUT_ALT), 0);
	cr_expect_eq(g.array_sectors, 8 * C8);
	expect_map(&g, C8, 1, 2048);
	uint64_t back;
	cr_expect_eq(r0_geometry_unmap(&g, 1, 100, &back), -ENOENT);
}

/* Every array sector maps to one member sector, each used one exactly once. */
static void check_bijection(const struct r0_geometry *g)
{
	uint64_t total = 0;
	char *seen[R0_MAX_MEMBERS];

	for (unsigned m = 0; m < g->n_members; m++) {
		seen[m] = calloc(g->member_sectors[m], 1);
		total += g->used_sectors[m];
	}
	cr_assert_eq(total, g->array_sectors);
	for (uint64_t s = 0; s < g->array_sectors; s++) {
		unsigned m;
		uint64_t ms, back;
		cr_assert_eq(r0_geometry_map(g, s, &m, &ms), 0);
		cr_assert_lt(m, g->n_members);
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

Test(geometry, every_sector_once_and_back)
{
	static const uint64_t sizes[][4] = {
		{ 64, 64, 64, 64 }, { 40, 64, 100, 0 }, { 100, 40, 64, 0 }, { 33, 97, 0, 0 },
		{ 16, 16, 16, 200 }, { 129, 0, 0, 0 }, { 72, 72, 24, 48 },
	};
	static const unsigned counts[] = { 4, 3, 3, 2, 4, 1, 4 };
	static const uint32_t chunks[] = { 4096, 8192, 16384 };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (size_t c = 0; c < 3; c++) {
			struct r0_geometry g;
			if (r0_geometry_init(&g, R0_BACKEND_MD, chunks[c], counts[i], sizes[i], NULL,
					     R0_MD_LAYOUT_ALT) == 0)
				check_bijection(&g);
			if (r0_geometry_init(&g, R0_BACKEND_MD, chunks[c], counts[i], sizes[i], NULL,
					     R0_MD_LAYOUT_ORIG) == 0)
				check_bijection(&g);
			if (r0_geometry_init(&g, R0_BACKEND_DM, chunks[c], counts[i], sizes[i], NULL, 0) == 0)
				check_bijection(&g);
		}
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
		r0_geometry_map(g, s, &m, &ms);
		want[m]++;
	}
	cr_assert_eq(r0_geometry_split_totals(g, start, n, got), 0);
	cr_assert_eq(r0_geometry_split(g, start, n, &ext, &count), 0);
	for (size_t i = 0; i < count; i++) {
		unsigned m;
		uint64_t ms;
		cr_assert_eq(r0_geometry_map(g, ext[i].array_start, &m, &ms), 0);
		cr_assert_eq(m, ext[i].member);
		cr_assert_eq(ms, ext[i].member_start);
		/* every sector of the extent belongs to the range */
		for (uint64_t k = 0; k < ext[i].n_sectors; k++) {
			uint64_t back;
			cr_assert_eq(r0_geometry_unmap(g, m, ms + k, &back), 0);
			cr_assert(back >= start && back < start + n);
		}
		from_ext[m] += ext[i].n_sectors;
	}
	free(ext);
	for (unsigned m = 0; m < g->n_members; m++) {
		cr_assert_eq(got[m], want[m]);
		cr_assert_eq(from_ext[m], want[m]);
	}
}

Test(geometry, split_matches_mapping)
{
	static const uint64_t sizes[3] = { 40 * 8, 64 * 8, 100 * 8 };
	struct r0_geometry g[3];
	unsigned seed = 42;

	g[0] = geo(R0_BACKEND_MD, 8192, 3, sizes, R0_MD_LAYOUT_ALT);
	g[1] = geo(R0_BACKEND_MD, 8192, 3, sizes, R0_MD_LAYOUT_ORIG);
	g[2] = geo(R0_BACKEND_DM, 8192, 3, sizes, 0);
	for (int k = 0; k < 3; k++) {
		check_split(&g[k], 0, g[k].array_sectors);   /* the whole device */
		check_split(&g[k], 0, 16);                    /* one chunk */
		check_split(&g[k], 3, 5);                     /* part of a chunk */
		check_split(&g[k], 10, 40);                   /* across chunks */
		for (int i = 0; i < 200; i++) {
			uint64_t a = (uint64_t)rand_r(&seed) % g[k].array_sectors;
			uint64_t n = 1 + (uint64_t)rand_r(&seed) % (g[k].array_sectors - a);
			check_split(&g[k], a, n);
		}
	}
}

Test(geometry, split_merges_whole_rows)
{
	uint64_t s[2] = { 64 * C8, 64 * C8 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 4096, 2, s, R0_MD_LAYOUT_ALT);
	struct r0_extent *ext;
	size_t count;
	uint64_t tot[2];

	cr_assert_eq(r0_geometry_split(&g, 0, g.array_sectors, &ext, &count), 0);
	cr_expect_eq(count, 2);
	cr_expect_eq(ext[0].n_sectors, 64 * C8);
	free(ext);
	cr_expect_eq(r0_geometry_split_totals(&g, 1, g.array_sectors, tot), -ERANGE);
	cr_expect_eq(r0_geometry_split(&g, g.array_sectors, 1, &ext, &count), -ERANGE);
}
