// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimcheck.h: limits stacking, range set, granularity rule, verdicts,
 * the layout audit, and the read-back check on image files standing in for devices. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/trimcheck.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MiB (1024 * 1024)

static const struct r0_discard_limits good = {
	.granularity_bytes = 4096, .max_bytes = 1 << 20, .max_hw_bytes = 1 << 20,
	.logical_block_bytes = 4096,
};
static const struct r0_discard_limits none = { .logical_block_bytes = 4096 };

Test(verdict, names_and_weight)
{
	cr_expect_str_eq(r0_check_result_name(R0_CHECK_OK), "PASS");
	cr_expect_str_eq(r0_check_result_name(R0_CHECK_FAIL), "FAIL");
	cr_expect_str_eq(r0_check_result_name(R0_CHECK_NOT_CHECKABLE), "NOT CHECKABLE");
	cr_expect_str_eq(r0_check_result_name(R0_CHECK_NOT_CONCLUSIVE), "NOT CONCLUSIVE");
	cr_expect_eq(r0_check_result_worse(R0_CHECK_OK, R0_CHECK_FAIL), R0_CHECK_FAIL);
	cr_expect_eq(r0_check_result_worse(R0_CHECK_NOT_CONCLUSIVE, R0_CHECK_NOT_CHECKABLE),
		     R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_eq(r0_check_result_worse(R0_CHECK_NOT_CHECKABLE, R0_CHECK_OK), R0_CHECK_NOT_CHECKABLE);
	cr_expect_eq(r0_check_result_worse(R0_CHECK_FAIL, R0_CHECK_NOT_CONCLUSIVE), R0_CHECK_FAIL);
}

/* ------------------------------------------------------------ limits */

Test(limits, md_advertises_more_than_members_take)
{
	/* md raid0 in 6.12: 4 GiB over members capped at 1 MiB, since it splits itself */
	struct r0_discard_limits a = good, m[3] = { good, good, good };
	struct r0_limits_check c;

	a.max_bytes = a.max_hw_bytes = 4294966784u;
	r0_trim_check_limits(&a, m, NULL, 3, true, &c);
	cr_expect_eq(c.overall, R0_CHECK_OK, "%s", c.why);
	cr_expect_eq(c.support, R0_CHECK_OK);
	cr_expect_eq(c.max, R0_CHECK_OK);
	cr_expect_eq(c.min_member_max_bytes, 1 << 20);
	cr_expect_eq(c.effective_granularity_bytes, 4096);
	cr_expect_eq(c.no_discard_member, -1);
	/* the same numbers without splitting would be a promise the members cannot keep */
	r0_trim_check_limits(&a, m, NULL, 3, false, &c);
	cr_expect_eq(c.max, R0_CHECK_FAIL);
	cr_expect_eq(c.overall, R0_CHECK_FAIL);
}

Test(limits, array_takes_discards_a_member_does_not)
{
	struct r0_discard_limits a = good, m[2] = { good, none };
	const char *names[] = { "r0m0", "r0nd" };
	struct r0_limits_check c;

	r0_trim_check_limits(&a, m, names, 2, true, &c);
	cr_expect_eq(c.support, R0_CHECK_FAIL);
	cr_expect_eq(c.overall, R0_CHECK_FAIL);
	cr_expect_eq(c.no_discard_member, 1);
	cr_expect(strstr(c.why, "r0nd takes none: its share is dropped"), "%s", c.why);
}

Test(limits, array_without_discard)
{
	struct r0_discard_limits a = none, m[2] = { good, none };
	const char *names[] = { "r0m0", "r0nd" };
	struct r0_limits_check c;

	r0_trim_check_limits(&a, m, names, 2, true, &c);
	cr_expect_eq(c.support, R0_CHECK_FAIL);
	cr_expect(strstr(c.why, "the array takes no discards: r0nd takes none"), "%s", c.why);
	cr_expect_eq(c.granularity, R0_CHECK_NOT_CHECKABLE);

	/* every member takes them: the layer turned them off (discard_max_bytes 0) */
	m[1] = good;
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.support, R0_CHECK_FAIL);
	cr_expect(strstr(c.why, "although every member does"), "%s", c.why);
}

Test(limits, granularity_stacks_to_the_largest)
{
	struct r0_discard_limits a = good, m[2] = { good, good };
	struct r0_limits_check c;

	m[1].granularity_bytes = 8192;   /* scsi_debug unmap_granularity=16 */
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.expected_granularity_bytes, 8192);
	cr_expect_eq(c.granularity, R0_CHECK_FAIL, "4K array over an 8K member");
	a.granularity_bytes = 8192;
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.granularity, R0_CHECK_OK);
	cr_expect_eq(c.effective_granularity_bytes, 8192);
	a.granularity_bytes = 65536;   /* coarser than needed: allowed, and it is what counts */
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.granularity, R0_CHECK_OK);
	cr_expect_eq(c.effective_granularity_bytes, 65536);
}

Test(limits, alignment_and_write_zeroes)
{
	struct r0_discard_limits a = good, m[2] = { good, good };
	struct r0_limits_check c;

	a.alignment_bytes = 4096;
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.alignment, R0_CHECK_FAIL);
	m[0].alignment_bytes = 512;   /* stacked offsets are not modelled */
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.alignment, R0_CHECK_NOT_CHECKABLE);
	cr_expect_eq(c.overall, R0_CHECK_OK);

	a = good;
	m[0] = m[1] = good;
	m[0].write_zeroes_max_bytes = 1 << 20;
	a.write_zeroes_max_bytes = 65536;   /* member 1 has none: stacking gives 0 */
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.write_zeroes, R0_CHECK_FAIL);
	m[1].write_zeroes_max_bytes = 1 << 20;
	r0_trim_check_limits(&a, m, NULL, 2, true, &c);
	cr_expect_eq(c.write_zeroes, R0_CHECK_OK);
	cr_expect_eq(c.overall, R0_CHECK_OK);
}

/* ------------------------------------------------------------ ranges */

static struct r0_geometry geo(enum r0_backend be, uint32_t chunk, unsigned n, const uint64_t *mib)
{
	struct r0_geometry g;
	uint64_t s[R0_MAX_MEMBERS];

	for (unsigned i = 0; i < n; i++)
		s[i] = mib[i] * 2048;
	cr_assert_eq(r0_geometry_init(&g, be, chunk, n, s, NULL, R0_MD_LAYOUT_ALT), 0);
	return g;
}

static const struct r0_trim_range *find(const struct r0_trim_range *r, int n, const char *prefix)
{
	for (int i = 0; i < n; i++)
		if (strncmp(r[i].name, prefix, strlen(prefix)) == 0)
			return &r[i];
	return NULL;
}

Test(ranges, md_three_equal_members)
{
	static const uint64_t mib[] = { 8, 8, 8 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 65536, 3, mib);
	struct r0_trim_range r[R0_TRIM_MAX_RANGES];
	const struct r0_trim_range *x;
	int n = r0_trim_ranges(&g, 65536, 4096, 4096, r, N(r));

	cr_assert_eq(n, 5);
	x = find(r, n, "one chunk");
	cr_assert(x);
	cr_expect_eq(x->start_sector, 128);
	cr_expect_eq(x->n_sectors, 128);
	x = find(r, n, "part of a chunk");
	cr_assert(x);
	cr_expect_eq(x->start_sector, 128 + 32);
	cr_expect_eq(x->n_sectors, 64);
	x = find(r, n, "across chunk boundaries");
	cr_assert(x);
	cr_expect_eq(x->start_sector, 256 + 64, "starts mid-chunk");
	cr_expect_eq(x->n_sectors, 4 * 128, "n + 1 chunks: every member, five chunks touched");
	cr_expect(find(r, n, "large"));
	cr_expect_str_eq(r[n - 1].name, "whole device");
	cr_expect_eq(r[n - 1].start_sector, 0);
	cr_expect_eq(r[n - 1].n_sectors, g.array_sectors);
	cr_expect_null(find(r, n, "across md zones"));
	cr_expect_null(find(r, n, "smaller than"));
}

Test(ranges, md_zones_are_crossed)
{
	static const uint64_t mib[] = { 5, 7, 12 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 65536, 3, mib);
	struct r0_trim_range r[R0_TRIM_MAX_RANGES];
	int n = r0_trim_ranges(&g, 65536, 4096, 4096, r, N(r));

	cr_assert_eq(g.n_zones, 3);
	for (unsigned k = 1; k < g.n_zones; k++) {
		char name[48];
		const struct r0_trim_range *x;
		uint64_t b = g.zones[k].array_start_sector;

		snprintf(name, sizeof(name), "across md zones %u|%u", k - 1, k);
		x = find(r, n, name);
		cr_assert(x, "%s", name);
		cr_expect(x->start_sector < b && x->start_sector + x->n_sectors > b, "%s crosses %llu", name,
			  (unsigned long long)b);
	}
}

Test(ranges, a_chunk_of_one_block_has_no_part)
{
	static const uint64_t mib[] = { 8, 8 };
	struct r0_geometry g = geo(R0_BACKEND_DM, 4096, 2, mib);
	struct r0_trim_range r[R0_TRIM_MAX_RANGES];
	int n = r0_trim_ranges(&g, 4096, 4096, 4096, r, N(r));
	const struct r0_trim_range *x = find(r, n, "part of a chunk");

	cr_assert(x);
	cr_expect_eq(x->n_sectors, 0);
	cr_expect(x->skip_reason && strstr(x->skip_reason, "no part"));
}

Test(ranges, smaller_than_the_granularity)
{
	static const uint64_t mib[] = { 16, 16, 16 };
	struct r0_geometry g = geo(R0_BACKEND_MD, 65536, 3, mib);
	struct r0_trim_range r[R0_TRIM_MAX_RANGES];
	int n = r0_trim_ranges(&g, 65536, 512, 8192, r, N(r));
	const struct r0_trim_range *x = find(r, n, "smaller than the granularity");

	cr_assert(x);
	cr_expect_eq(x->n_sectors, 1);
	cr_expect_not(r0_trim_holds_granule(x->start_sector, x->n_sectors, 16, 0));
	cr_expect_str_eq(r[n - 1].name, "whole device");
}

Test(ranges, every_range_fits_and_is_whole_blocks)
{
	static const uint64_t sets[][3] = { { 8, 8, 8 }, { 5, 7, 12 }, { 1, 1, 1 }, { 64, 3, 9 } };
	static const uint32_t chunks[] = { 4096, 65536, 524288 };
	static const uint32_t lbs[] = { 512, 4096 };

	for (size_t s = 0; s < N(sets); s++)
		for (size_t c = 0; c < N(chunks); c++)
			for (size_t l = 0; l < N(lbs); l++)
				for (unsigned nm = 1; nm <= 3; nm++)
					for (int be = 0; be < 2; be++) {
						struct r0_geometry g;
						struct r0_trim_range r[R0_TRIM_MAX_RANGES];
						uint64_t sz[3];
						int n;

						for (unsigned i = 0; i < nm; i++)
							sz[i] = sets[s][i] * 2048;
						if (r0_geometry_init(&g, be ? R0_BACKEND_DM : R0_BACKEND_MD, chunks[c], nm,
								     sz, NULL, R0_MD_LAYOUT_ALT))
							continue;   /* members smaller than a chunk */
						n = r0_trim_ranges(&g, chunks[c], lbs[l], 8192, r, N(r));
						cr_assert_gt(n, 3);
						for (int i = 0; i < n; i++) {
							if (r[i].skip_reason)
								continue;
							cr_expect_gt(r[i].n_sectors, 0, "%s", r[i].name);
							cr_expect_eq(r[i].start_sector % (lbs[l] / 512), 0, "%s", r[i].name);
							cr_expect_eq(r[i].n_sectors % (lbs[l] / 512), 0, "%s", r[i].name);
							cr_expect_leq(r[i].start_sector + r[i].n_sectors, g.array_sectors,
								      "%s", r[i].name);
						}
						cr_expect_str_eq(r[n - 1].name, "whole device");
					}
}

Test(ranges, bad_input)
{
	static const uint64_t mib[] = { 8 };
	struct r0_geometry g = geo(R0_BACKEND_DM, 65536, 1, mib);
	struct r0_trim_range r[4];

	cr_expect_eq(r0_trim_ranges(&g, 65536, 0, 4096, r, N(r)), -EINVAL);
	cr_expect_eq(r0_trim_ranges(&g, 6000, 4096, 4096, r, N(r)), -EINVAL);
	cr_expect_eq(r0_trim_ranges(&g, 65536, 4096, 4096, r, N(r)), 4, "MAX bounds the set");
}

/* ------------------------------------------------------------ granularity and verdicts */

Test(ranges, cycles_spread_over_the_array)
{
	uint64_t start, n, end = 0;

	/* half of 10000 sectors in 4K blocks, three times: at the start, the middle, the end */
	r0_trim_cycle_range(10000, 4096, 3, 50, 0, &start, &n);
	cr_expect(start == 0 && n == 5000, "%llu %llu", (unsigned long long)start, (unsigned long long)n);
	r0_trim_cycle_range(10000, 4096, 3, 50, 1, &start, &n);
	cr_expect(start == 2496 && n == 5000, "%llu", (unsigned long long)start);
	r0_trim_cycle_range(10000, 4096, 3, 50, 2, &start, &n);
	cr_expect(start == 5000 && n == 5000, "%llu", (unsigned long long)start);
	/* one cycle starts at 0; whole blocks only; no block size is 512 */
	r0_trim_cycle_range(10001, 4096, 1, 33, 0, &start, &n);
	cr_expect(start == 0 && n == 3296, "%llu", (unsigned long long)n);
	r0_trim_cycle_range(10001, 0, 1, 33, 0, &start, &n);
	cr_expect_eq(n, 3300);
	/* any count: every cycle inside the array, on a block, the last at its end */
	for (unsigned c = 0; c < 7; c++) {
		r0_trim_cycle_range(1 << 20, 4096, 7, 90, c, &start, &n);
		cr_expect(start % 8 == 0 && n % 8 == 0 && start + n <= 1 << 20 && start <= end, "cycle %u: no gap", c);
		end = start + n;
	}
	cr_expect_eq(end, 1 << 20);
}

Test(granularity, whole_granules_only)
{
	static const struct { uint64_t s, n, g, al; bool holds; uint64_t a, b; } t[] = {
		{ 0, 8, 8, 0, true, 0, 8 },
		{ 1, 8, 8, 0, false, 0, 0 },
		{ 1, 15, 8, 0, true, 8, 16 },
		{ 4, 20, 8, 0, true, 8, 24 },
		{ 0, 8, 8, 1, false, 0, 0 },     /* granules at 1, 9, ...: none inside [0, 8) */
		{ 1, 8, 8, 1, true, 1, 9 },
		{ 3, 1, 1, 0, true, 3, 4 },      /* granularity of one sector: everything counts */
		{ 3, 5, 0, 0, true, 3, 8 },      /* none reported: as one sector */
		{ 5, 0, 8, 0, false, 0, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		uint64_t a, b;

		cr_expect_eq(r0_trim_holds_granule(t[i].s, t[i].n, t[i].g, t[i].al), t[i].holds, "case %zu", i);
		if (!t[i].holds || !t[i].n)
			continue;
		r0_trim_interior(t[i].s, t[i].n, t[i].g, t[i].al, &a, &b);
		cr_expect_eq(a, t[i].a, "case %zu: a %llu", i, (unsigned long long)a);
		cr_expect_eq(b, t[i].b, "case %zu: b %llu", i, (unsigned long long)b);
	}
}

Test(verdict, expected_against_observed)
{
	static const struct { uint64_t e, o; bool conclusive; enum r0_check_result v; } t[] = {
		{ 0, 0, true, R0_CHECK_OK },
		{ 0, 0, false, R0_CHECK_OK },            /* nothing sent there */
		{ 0, 8, true, R0_CHECK_FAIL },             /* misrouted */
		{ 128, 128, true, R0_CHECK_OK },
		{ 128, 128, false, R0_CHECK_NOT_CONCLUSIVE },
		{ 128, 0, true, R0_CHECK_FAIL },           /* dropped */
		{ 128, 64, true, R0_CHECK_FAIL },          /* cut short */
		{ 128, 0, false, R0_CHECK_NOT_CONCLUSIVE },/* a sub-granule discard may vanish */
		{ 128, 256, false, R0_CHECK_FAIL },        /* more than sent is never right */
	};

	for (size_t i = 0; i < N(t); i++)
		cr_expect_eq(r0_trim_judge_member(t[i].e, t[i].o, t[i].conclusive), t[i].v, "case %zu", i);
}

/* The stack of a target whose members sit right under a striped top of geometry G. */
static void stripe_stack(struct r0_trim_device *t)
{
	int top;

	r0_trim_stack_init(&t->stack);
	top = r0_trim_stack_add(&t->stack, R0_NODE_STRIPE, "md0", "md raid0 md0");
	cr_assert_eq(top, 0);
	t->stack.node[0].geo = t->geo;
	t->stack.node[0].size_sectors = t->geo.array_sectors;
	for (unsigned m = 0; m < t->geo.n_members; m++) {
		int i = r0_trim_stack_add(&t->stack, R0_NODE_DEVICE, "m", "disk m");

		cr_assert_geq(i, 0);
		t->stack.node[i].size_sectors = t->geo.member_sectors[m];
		t->stack.node[0].child[m] = (unsigned)i;
	}
	t->stack.node[0].n_children = t->geo.n_members;
}

static struct r0_trim_device target3(uint32_t gran_bytes)
{
	struct r0_trim_device t;
	uint64_t s[3] = { 2048, 2048, 2048 };

	memset(&t, 0, sizeof(t));
	cr_assert_eq(r0_geometry_init(&t.geo, R0_BACKEND_MD, 65536, 3, s, NULL, R0_MD_LAYOUT_ALT), 0);
	t.n_members = 3;
	for (unsigned m = 0; m < 3; m++) {
		t.members[m].lim = t.members[m].leaf_lim = good;
		t.members[m].leaf_lim.granularity_bytes = gran_bytes;
	}
	stripe_stack(&t);
	return t;
}

Test(limits, a_target_from_its_bottom_devices)
{
	struct r0_trim_device t = target3(4096);
	struct r0_limits_check lc;
	uint64_t mwz = 1;

	t.kind = R0_TRIM_MD;
	t.lim = good;
	t.lim.max_bytes = 4ull << 30;   /* md advertises 4 GiB over members capped at 1 MiB */
	for (unsigned i = 0; i < 3; i++) {
		snprintf(t.members[i].kname, R0_KNAME_LEN, "sd%c", 'a' + i);
		t.members[i].lim.write_zeroes_max_bytes = (i + 1) << 20;
	}
	t.members[2].lim.write_zeroes_max_bytes = 512 << 10;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(lc.overall, R0_CHECK_OK, "%s", lc.why);
	cr_expect_eq(mwz, 512 << 10);
	/* a bottom device's larger granularity counts, though its member's queue says less */
	t.members[1].leaf_lim.granularity_bytes = 65536;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(lc.expected_granularity_bytes, 65536);
	cr_expect_eq(lc.granularity, R0_CHECK_FAIL);
	/* below a layer, a bottom device that takes no discards is the one named */
	t.members[1].leaf_lim.granularity_bytes = 4096;
	t.members[2].depth = 1;
	snprintf(t.members[2].chain_kname[1], R0_KNAME_LEN, "nvme9n1");
	t.members[2].leaf_lim.max_bytes = 0;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(lc.support, R0_CHECK_FAIL);
	cr_expect_eq(lc.no_discard_member, 2);
	cr_expect(strstr(lc.why, "nvme9n1 takes none"), "%s", lc.why);
	cr_expect_eq(mwz, 0, "the bottom device's limits stand for it");
	/* a single device is its own member: it may advertise more than a layer would pass */
	t = target3(4096);
	t.kind = R0_TRIM_SINGLE;
	t.n_members = 1;
	t.lim = good;
	t.lim.max_bytes = 2 << 20;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(lc.max, R0_CHECK_OK);
	/* over a layer of its own (dm-crypt over one disk) it does not split */
	t.members[0].depth = 1;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(lc.max, R0_CHECK_FAIL, "%s", lc.why);
	/* no members: nothing to take a minimum of */
	t.n_members = 0;
	r0_trim_device_check_limits(&t, &lc, &mwz);
	cr_expect_eq(mwz, 0);
}

Test(verdict, a_range_against_the_counters)
{
	struct r0_trim_device t = target3(4096);
	struct r0_trim_counters before = { .leaf_sectors = { 1000, 2000, 3000 } }, after;
	struct r0_trim_member_result res[3];
	enum r0_check_result v;

	/* across chunk boundaries: [320, 832) is 192/128/192 sectors on the three */
	after = before;
	after.leaf_sectors[0] += 192;
	after.leaf_sectors[1] += 128;
	after.leaf_sectors[2] += 192;
	cr_assert_eq(r0_trim_judge_range(&t, 320, 512, 4096, &before, &after, res, &v), 0);
	cr_expect_eq(v, R0_CHECK_OK);
	cr_expect_eq(res[0].expected_sectors, 192);
	cr_expect_eq(res[1].expected_sectors, 128);
	cr_expect_eq(res[1].observed_sectors, 128);
	cr_expect(res[2].conclusive);

	/* member 1 dropped its share */
	after.leaf_sectors[1] -= 128;
	cr_assert_eq(r0_trim_judge_range(&t, 320, 512, 4096, &before, &after, res, &v), 0);
	cr_expect_eq(v, R0_CHECK_FAIL);
	cr_expect_eq(res[1].verdict, R0_CHECK_FAIL);
	cr_expect_eq(res[0].verdict, R0_CHECK_OK);

	/* one chunk on member 1, but member 2 counted something: misrouted */
	after = before;
	after.leaf_sectors[1] += 128;
	after.leaf_sectors[2] += 8;
	cr_assert_eq(r0_trim_judge_range(&t, 128, 128, 4096, &before, &after, res, &v), 0);
	cr_expect_eq(v, R0_CHECK_FAIL);
	cr_expect_eq(res[2].expected_sectors, 0);
	cr_expect_eq(res[2].verdict, R0_CHECK_FAIL);
}

Test(verdict, sub_granule_ranges_prove_nothing)
{
	struct r0_trim_device t = target3(16384);   /* 32-sector granules */
	struct r0_trim_counters before = { .leaf_sectors = { 0 } }, after = before;
	struct r0_trim_member_result res[3];
	enum r0_check_result v;

	/* 8 sectors: all counted, still proves nothing */
	after.leaf_sectors[1] = 8;
	cr_assert_eq(r0_trim_judge_range(&t, 136, 8, 16384, &before, &after, res, &v), 0);
	cr_expect_eq(v, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_not(res[1].conclusive);
	/* and none counted is no failure either */
	after.leaf_sectors[1] = 0;
	cr_assert_eq(r0_trim_judge_range(&t, 136, 8, 16384, &before, &after, res, &v), 0);
	cr_expect_eq(v, R0_CHECK_NOT_CONCLUSIVE);
	/* a range longer than the granularity whose share on member 0 is too short for one:
	 * [248, 296) gives member 1 [120, 128) (no whole granule) and member 2 [0, 40) */
	after.leaf_sectors[1] = 0;
	after.leaf_sectors[2] = 40;
	cr_assert_eq(r0_trim_judge_range(&t, 248, 48, 16384, &before, &after, res, &v), 0);
	cr_expect_not(res[1].conclusive);
	cr_expect_eq(res[1].verdict, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect(res[2].conclusive);
	cr_expect_eq(res[2].verdict, R0_CHECK_OK);
	cr_expect_eq(v, R0_CHECK_NOT_CONCLUSIVE);
}

/* ------------------------------------------------------------ layout audit */

Test(layout, orig_multizone_on_old_kernels)
{
	static const uint64_t s[] = { 5 * 2048, 7 * 2048, 12 * 2048 };
	struct r0_geometry orig, alt, eq, dm;
	static const uint64_t e[] = { 8 * 2048, 8 * 2048 };
	char why[256];

	cr_assert_eq(r0_geometry_init(&orig, R0_BACKEND_MD, 65536, 3, s, NULL, R0_MD_LAYOUT_ORIG), 0);
	cr_assert_eq(r0_geometry_init(&alt, R0_BACKEND_MD, 65536, 3, s, NULL, R0_MD_LAYOUT_ALT), 0);
	cr_assert_eq(r0_geometry_init(&eq, R0_BACKEND_MD, 65536, 2, e, NULL, R0_MD_LAYOUT_ALT), 0);
	cr_assert_eq(r0_geometry_init(&dm, R0_BACKEND_DM, 65536, 3, s, NULL, 0), 0);
	cr_expect_eq(r0_trim_audit_layout(&orig, "5.15.0-91-generic", why, sizeof(why)), R0_CHECK_FAIL);
	cr_expect(strstr(why, "Linux 5.15"), "%s", why);
	cr_expect_eq(r0_trim_audit_layout(&orig, "6.2.16", why, sizeof(why)), R0_CHECK_FAIL);
	cr_expect_eq(r0_trim_audit_layout(&orig, "6.3.0", why, sizeof(why)), R0_CHECK_OK);
	cr_expect_eq(r0_trim_audit_layout(&orig, "6.12.117+deb12-cloud-amd64", why, sizeof(why)), R0_CHECK_OK);
	cr_expect_eq(r0_trim_audit_layout(&orig, "garbage", why, sizeof(why)), R0_CHECK_NOT_CHECKABLE);
	cr_expect_eq(r0_trim_audit_layout(&alt, "5.15.0", why, sizeof(why)), R0_CHECK_OK);
	cr_expect_eq(r0_trim_audit_layout(&eq, "4.19.0", why, sizeof(why)), R0_CHECK_OK);
	cr_expect_eq(r0_trim_audit_layout(&dm, "4.19.0", why, sizeof(why)), R0_CHECK_OK);
}

Test(layout, kernel_version)
{
	unsigned a, b;

	cr_expect_eq(r0_kernel_version("6.12.117+deb12-cloud-amd64", &a, &b), 0);
	cr_expect_eq(a, 6);
	cr_expect_eq(b, 12);
	cr_expect_eq(r0_kernel_version("4.19", &a, &b), 0);
	cr_expect_eq(r0_kernel_version("x6.1", &a, &b), -EINVAL);
	cr_expect_eq(r0_kernel_version(NULL, &a, &b), -EINVAL);
}

/* Windows only while the next range writes inside all of them; else a whole read. */
Test(ranges, readback_plan)
{
	struct r0_geometry g;
	struct r0_trim_range rg[R0_TRIM_MAX_RANGES];
	uint64_t small[3] = { 2048, 2048, 2048 }, big[3] = { 1ull << 21, 1ull << 21, 1ull << 21 };
	uint64_t window[R0_TRIM_MAX_RANGES], planned[R0_TRIM_MAX_RANGES];
	bool every = false;
	int n;

	/* a small array: every sector outside every range, as r0_trim_plan_windows plans it */
	cr_assert_eq(r0_geometry_init(&g, R0_BACKEND_MD, 65536, 3, small, NULL, R0_MD_LAYOUT_ALT), 0);
	n = r0_trim_ranges(&g, 65536, 4096, 4096, rg, N(rg));
	cr_assert_gt(n, 2);
	r0_trim_readback_plan(&g, 3, rg, (size_t)n, false, window, &every);
	cr_expect(every);
	r0_trim_plan_windows(rg, (size_t)n, g.array_sectors, 2 * 128 * 3, planned);
	cr_expect_arr_eq(window, planned, (size_t)n * sizeof(window[0]));
	/* beyond R0_TRIM_FULL_SCAN_MAX_SECTORS: two stripes either side of each range, no whole read */
	cr_assert_eq(r0_geometry_init(&g, R0_BACKEND_MD, 65536, 3, big, NULL, R0_MD_LAYOUT_ALT), 0);
	n = r0_trim_ranges(&g, 65536, 4096, 4096, rg, N(rg));
	cr_assert_gt(n, 2);
	r0_trim_readback_plan(&g, 3, rg, (size_t)n, false, window, &every);
	cr_expect_not(every);
	for (int i = 0; i < n; i++)
		cr_expect_eq(window[i], 2 * 128 * 3, "range %d", i);
	/* unless a full scan is asked for */
	r0_trim_readback_plan(&g, 3, rg, (size_t)n, true, window, &every);
	cr_expect(every);
	cr_expect_eq(window[n - 1], 0, "the whole device's range is followed by a whole read");
	/* exactly R0_TRIM_FULL_SCAN_MAX_SECTORS (2 GiB) is still read whole, a chunk more is not */
	big[0] = big[1] = 1ull << 21;
	cr_assert_eq(r0_geometry_init(&g, R0_BACKEND_MD, 65536, 2, big, NULL, R0_MD_LAYOUT_ALT), 0);
	cr_assert_eq(g.array_sectors, R0_TRIM_FULL_SCAN_MAX_SECTORS);
	r0_trim_readback_plan(&g, 2, rg, 0, false, window, &every);
	cr_expect(every);
	big[1] += 128;
	cr_assert_eq(r0_geometry_init(&g, R0_BACKEND_MD, 65536, 2, big, NULL, R0_MD_LAYOUT_ALT), 0);
	r0_trim_readback_plan(&g, 2, rg, 0, false, window, &every);
	cr_expect_not(every);
}

Test(ranges, plan_windows)
{
	/* 3 members, 64K chunks (128 sectors): two stripes are 768 sectors */
	const uint64_t A = 393216, w = 768;
	struct r0_trim_range rg[] = {
		{ "one chunk", 128, 128, NULL },
		{ "part of a chunk", 160, 64, NULL },
		{ "none", 0, 0, "skipped" },
		{ "across chunk boundaries", 320, 512, NULL },
		{ "large", 49160, 196608, NULL },
		{ "whole device", 0, A, NULL },
	};
	uint64_t win[6];

	r0_trim_plan_windows(rg, 6, A, w, win);
	cr_expect_eq(win[0], w);     /* part lies in [0, 1024) */
	cr_expect_eq(win[1], w);     /* across ends at 832 < 224 + 768: past the skipped one */
	cr_expect_eq(win[2], 0);
	cr_expect_eq(win[3], 0);     /* large lies far beyond: the whole array now */
	cr_expect_eq(win[4], 0);     /* whole device next */
	cr_expect_eq(win[5], 0);     /* nothing after it: whole */

	/* the next range inside its own window but not the first one's: whole read */
	rg[1] = (struct r0_trim_range){ "near", 900, 64, NULL };
	rg[3] = (struct r0_trim_range){ "nearer", 1700, 8, NULL };
	r0_trim_plan_windows(rg, 4, A, w, win);
	cr_expect_eq(win[0], w);
	cr_expect_eq(win[1], 0);     /* 1700 is in its window, not in the first one ([0, 1024)) */

	/* a window that covers the whole array is a whole read */
	r0_trim_plan_windows(rg, 2, 1024, w, win);
	cr_expect_eq(win[0], 0);
}

/* ------------------------------------------------------------ pattern and read-back on images */

Test(pattern, differs_by_position_and_seed)
{
	uint64_t a[128], b[64];

	r0_trim_pattern(1, 10, 2, a);
	r0_trim_pattern(2, 10, 1, b);
	cr_expect_neq(memcmp(a, b, 512), 0);
	for (int i = 0; i < 128; i++) {
		cr_expect_neq(a[i], 0);
		cr_expect_neq(a[i], UINT64_MAX);
		if (i)
			cr_expect_neq(a[i], a[i - 1]);
	}
}

Test(pattern, matches_only_itself)
{
	static uint64_t a[128];

	r0_trim_pattern(7, 100, 2, a);
	cr_expect(r0_trim_pattern_matches(7, 100, 2, a));
	cr_expect_not(r0_trim_pattern_matches(8, 100, 2, a));
	cr_expect_not(r0_trim_pattern_matches(7, 101, 2, a));
	a[127] ^= 1ull << 63;   /* one bit, in the last word */
	cr_expect_not(r0_trim_pattern_matches(7, 100, 2, a));
	memset(a, 0, sizeof(a));
	cr_expect_not(r0_trim_pattern_matches(7, 100, 2, a));
}

/*
 * Image files stand in for the array and its three members (1 MiB each,
 * 64K chunk, 4K blocks): the array image holds the pattern, each member
 * image what the geometry puts there.
 */
struct images {
	char dir[64];
	struct r0_trim_device t;
	int afd, mfd[3];
};

static void images_open(struct images *im)
{
	uint64_t s[3] = { 2048, 2048, 2048 };
	char path[128];

	snprintf(im->dir, sizeof(im->dir), "/tmp/r0-unit-trim.XXXXXX");
	cr_assert_not_null(mkdtemp(im->dir));
	memset(&im->t, 0, sizeof(im->t));
	cr_assert_eq(r0_geometry_init(&im->t.geo, R0_BACKEND_MD, 65536, 3, s, NULL, R0_MD_LAYOUT_ALT), 0);
	im->t.n_members = 3;
	im->t.lim = good;
	for (unsigned m = 0; m < 3; m++) {
		im->t.members[m].lim = im->t.members[m].leaf_lim = good;
		im->t.members[m].reads = R0_READS_ZEROES;
		snprintf(im->t.members[m].kname, R0_KNAME_LEN, "m%u", m);
		snprintf(path, sizeof(path), "%s/m%u", im->dir, m);
		im->mfd[m] = open(path, O_RDWR | O_CREAT, 0600);
		cr_assert_geq(im->mfd[m], 0);
	}
	snprintf(path, sizeof(path), "%s/array", im->dir);
	im->afd = open(path, O_RDWR | O_CREAT, 0600);
	cr_assert_geq(im->afd, 0);
	stripe_stack(&im->t);
	cr_assert_eq(r0_trim_fill(im->afd, 42, 0, im->t.geo.array_sectors, NULL), 0);
	/* the members hold what the array maps to them */
	for (uint64_t a = 0; a < im->t.geo.array_sectors; a++) {
		unsigned char buf[512];
		unsigned m;
		uint64_t ms;

		cr_assert_eq(r0_geometry_map(&im->t.geo, a, &m, &ms), 0);
		r0_trim_pattern(42, a, 1, buf);
		cr_assert_eq(pwrite(im->mfd[m], buf, 512, (off_t)ms * 512), 512);
	}
}

/* What a discard that works does: zeroes on the array image and on each member extent. */
static void images_discard(struct images *im, uint64_t start, uint64_t n, int skip_member)
{
	static unsigned char zero[512];
	struct r0_extent *ext;
	size_t cnt;

	for (uint64_t a = start; a < start + n; a++) {
		unsigned m;
		uint64_t ms;

		cr_assert_eq(r0_geometry_map(&im->t.geo, a, &m, &ms), 0);
		if ((int)m == skip_member)
			continue;   /* that member dropped it: the array reads its old data */
		cr_assert_eq(pwrite(im->afd, zero, 512, (off_t)a * 512), 512);
	}
	cr_assert_eq(r0_geometry_split(&im->t.geo, start, n, &ext, &cnt), 0);
	for (size_t i = 0; i < cnt; i++)
		for (uint64_t s = 0; s < ext[i].n_sectors && (int)ext[i].member != skip_member; s++)
			cr_assert_eq(pwrite(im->mfd[ext[i].member], zero, 512,
					    (off_t)(ext[i].member_start_sector + s) * 512), 512);
	free(ext);
}

static void images_close(struct images *im)
{
	char cmd[128];

	close(im->afd);
	for (unsigned m = 0; m < 3; m++)
		close(im->mfd[m]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", im->dir);
	cr_expect_eq(system(cmd), 0);
}

Test(readback, a_working_discard_passes)
{
	struct images im;
	struct r0_trim_effect e;

	images_open(&im);
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, NULL, 42, 0, 0, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_OK);
	cr_expect_eq(e.intact_ok, im.t.geo.array_sectors, "the fill reads back");
	images_discard(&im, 160, 400, -1);   /* across chunks, not chunk-aligned */
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, im.mfd, 42, 160, 400, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_OK);
	cr_expect_eq(e.discarded_ok, 400);
	cr_expect_eq(e.discarded_bad, 0);
	cr_expect_eq(e.intact_ok, im.t.geo.array_sectors - 400);
	cr_expect_eq(e.member_discarded_ok, 400);
	cr_expect_gt(e.member_intact_ok, 0);
	cr_expect_eq(e.member_intact_bad, 0);
	images_close(&im);
}

Test(readback, a_member_that_drops_is_named)
{
	struct images im;
	struct r0_trim_effect e;

	images_open(&im);
	images_discard(&im, 128, 3 * 128, 1);   /* three chunks; member 1 keeps its chunk */
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, im.mfd, 42, 128, 3 * 128, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_FAIL);
	cr_expect_eq(e.discarded_bad, 128);
	cr_expect_eq(e.first_bad_member, 1);
	cr_expect(e.first_bad_inside);
	cr_expect_eq(e.member_discarded_bad, 128);
	images_close(&im);
}

Test(readback, damage_outside_the_range_fails)
{
	static unsigned char zero[4096];
	struct images im;
	struct r0_trim_effect e;

	images_open(&im);
	images_discard(&im, 0, 128, -1);
	/* a discard that also hit a block far away (the old raid0 orig-layout bug) */
	cr_assert_eq(pwrite(im.afd, zero, sizeof(zero), 4000 * 512), (ssize_t)sizeof(zero));
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, NULL, 42, 0, 128, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_FAIL);
	cr_expect_eq(e.intact_bad, 8);
	cr_expect_eq(e.first_bad_sector, 4000);
	cr_expect_not(e.first_bad_inside);
	/* with a window, damage that far away is not looked at */
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, NULL, 42, 0, 128, 512, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_OK);
	images_close(&im);
}

Test(readback, no_promise_is_not_checkable)
{
	struct images im;
	struct r0_trim_effect e;

	images_open(&im);
	for (unsigned m = 0; m < 3; m++)
		im.t.members[m].reads = R0_READS_UNKNOWN;
	images_discard(&im, 128, 128, -1);
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, im.mfd, 42, 128, 128, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_NOT_CHECKABLE);
	cr_expect_eq(e.unchecked, 128);
	cr_expect_eq(e.intact_bad, 0);
	images_close(&im);
}

Test(readback, partial_granules_are_not_judged)
{
	struct images im;
	struct r0_trim_effect e;

	images_open(&im);
	for (unsigned m = 0; m < 3; m++)
		im.t.members[m].leaf_lim.granularity_bytes = 16384;   /* 32 sectors */
	/* the device discards only whole granules: [136, 200) of one chunk keeps [136, 160) */
	images_discard(&im, 160, 32, -1);
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, im.mfd, 42, 136, 64, 0, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_OK);
	cr_expect_eq(e.discarded_ok, 32);
	cr_expect_eq(e.unchecked, 32);
	/* a range with no whole granule proves nothing */
	cr_assert_eq(r0_trim_verify(&im.t, im.afd, NULL, 42, 200, 8, R0_TRIM_NO_OUTSIDE, &e), 0);
	cr_expect_eq(e.verdict, R0_CHECK_NOT_CONCLUSIVE, "verdict %d", e.verdict);
	images_close(&im);
}

/* ------------------------------------------------------------ file system mode */

/* The fill goal never exceeds what is free and grows with the share. */
Test(fs, fill_goal)
{
	uint64_t lo, hi;

	cr_assert_eq(r0_trim_fill_goal("/tmp", 1, &lo), 0);
	cr_assert_eq(r0_trim_fill_goal("/tmp", 90, &hi), 0);
	cr_expect_leq(lo, hi);
	cr_expect_eq(r0_trim_fill_goal("/nonexistent-r0", 50, &hi), -ENOENT);
}

Test(fs, cycle_verdicts)
{
	struct r0_trim_device t = target3(4096);
	struct r0_trim_counters before = { .leaf_sectors = { 10, 20, 30 } }, after = before;
	uint64_t share[3] = { 100, 200, 0 };
	char why[256];

	strcpy(t.members[1].chain_kname[0], "r0m1");
	after.leaf_sectors[0] += 150;
	after.leaf_sectors[1] += 200;
	after.leaf_sectors[2] += 50;
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, R0_TRIM_NO_FITRIM, false, why, sizeof(why)),
		     R0_CHECK_OK, "%s", why);
	/* ext4: FITRIM's count must match the members' sum exactly; xfs: not exceed it */
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, 400 * 512, true, why, sizeof(why)),
		     R0_CHECK_OK, "%s", why);
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, 500 * 512, true, why, sizeof(why)),
		     R0_CHECK_FAIL);
	cr_expect(strstr(why, "fstrim trimmed 500 sectors but the members received 400"), "%s", why);
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, 500 * 512, false, why, sizeof(why)),
		     R0_CHECK_OK, "%s", why);
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, 300 * 512, false, why, sizeof(why)),
		     R0_CHECK_FAIL);
	/* a member that got less than the deleted files held there is named */
	after.leaf_sectors[1] -= 1;
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, R0_TRIM_NO_FITRIM, false, why, sizeof(why)),
		     R0_CHECK_FAIL);
	cr_expect(strstr(why, "r0m1 received 199 sectors, fewer than the 200"), "%s", why);
	/* nothing placed: proves nothing */
	share[0] = share[1] = 0;
	cr_expect_eq(r0_trim_judge_fs(&t, share, &before, &after, R0_TRIM_NO_FITRIM, false, why, sizeof(why)),
		     R0_CHECK_NOT_CONCLUSIVE);
}

Test(fs, files_and_the_kept_file)
{
	char dir[] = "/tmp/r0-unit-fs.XXXXXX", path[128], cmd[160];
	unsigned count;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(r0_trim_write_files(dir, "f", 9 << 20, 5, &count, NULL), 0);
	cr_expect_eq(count, 3, "4 + 4 + 1 MiB");
	snprintf(path, sizeof(path), "%s/f2", dir);
	cr_expect_eq(access(path, F_OK), 0);
	cr_expect_eq(r0_trim_remove_files(dir, "f", count), 0);
	cr_expect_neq(access(path, F_OK), 0);

	snprintf(path, sizeof(path), "%s/keep", dir);
	cr_assert_eq(r0_trim_keep_file(path, 9, true), 0);
	if (r0_trim_keep_file(path, 9, false) == -EINVAL) {
		/* this file system takes no O_DIRECT (tmpfs before 6.6) */
	} else {
		cr_expect_eq(r0_trim_keep_file(path, 9, false), 0);
		cr_expect_eq(r0_trim_keep_file(path, 10, false), -EILSEQ, "another seed: changed");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

/* ------------------------------------------------------------ stack composition */

static unsigned add_leaf(struct r0_trim_stack *s, uint64_t sectors)
{
	int i = r0_trim_stack_add(s, R0_NODE_DEVICE, "d", "disk d");

	cr_assert_geq(i, 0);
	s->node[i].size_sectors = sectors;
	return (unsigned)i;
}

static void link_node(struct r0_trim_stack *s, unsigned parent, unsigned child, uint64_t off)
{
	struct r0_trim_node *p = &s->node[parent];

	p->child[p->n_children] = child;
	p->child_offset_sectors[p->n_children++] = off;
}

Test(stack, linear_segments_swap_halves)
{
	struct r0_trim_stack s;
	uint64_t tot[2];
	struct r0_trim_leaf_extent *x;
	size_t n;

	r0_trim_stack_init(&s);
	cr_assert_eq(r0_trim_stack_add(&s, R0_NODE_LINEAR, "dm-0", "dm-linear lv"), 0);
	s.node[0].size_sectors = 2000;
	link_node(&s, 0, add_leaf(&s, 1000), 0);
	link_node(&s, 0, add_leaf(&s, 5000), 0);
	/* top [0, 1000) -> leaf 1 from 4000; top [1000, 2000) -> leaf 0 from 0 */
	s.node[0].seg[0] = (struct r0_trim_segment){ 0, 1000, 1, 4000 };
	s.node[0].seg[1] = (struct r0_trim_segment){ 1000, 1000, 0, 0 };
	s.node[0].n_segments = 2;
	cr_assert_eq(r0_trim_stack_split(&s, 900, 200, &x, &n, NULL), 0);
	cr_assert_eq(n, 2);
	cr_expect(x[0].leaf == 0 && x[0].leaf_start_sector == 0 && x[0].n_sectors == 100 &&
		  x[0].top_start_sector == 1000);
	cr_expect(x[1].leaf == 1 && x[1].leaf_start_sector == 4900 && x[1].n_sectors == 100 &&
		  x[1].top_start_sector == 900);
	free(x);
	cr_assert_eq(r0_trim_stack_totals(&s, 0, 2000, tot), 0);
	cr_expect(tot[0] == 1000 && tot[1] == 1000);
	cr_expect_eq(r0_trim_stack_split(&s, 1900, 200, &x, &n, NULL), -ERANGE);
}

Test(stack, a_mirror_gives_every_leg_the_whole_range)
{
	struct r0_trim_stack s;
	uint64_t tot[2], per_node[3] = { 0 };
	struct r0_trim_leaf_extent *x;
	size_t n;

	r0_trim_stack_init(&s);
	r0_trim_stack_add(&s, R0_NODE_MIRROR, "md0", "md raid1 md0");
	s.node[0].size_sectors = 1000;
	link_node(&s, 0, add_leaf(&s, 3048), 2048);   /* data offsets as mdadm 1.2 sets them */
	link_node(&s, 0, add_leaf(&s, 3048), 2048);
	cr_assert_eq(r0_trim_stack_split(&s, 100, 300, &x, &n, per_node), 0);
	cr_assert_eq(n, 2);
	for (unsigned i = 0; i < 2; i++)
		cr_expect(x[i].leaf == i && x[i].leaf_start_sector == 2148 && x[i].n_sectors == 300 &&
			  x[i].top_start_sector == 100 && x[i].plain && x[i].placed);
	cr_expect(per_node[0] == 300 && per_node[1] == 300 && per_node[2] == 300);
	cr_expect_eq(r0_trim_stack_copies(&s), 2);
	free(x);
	cr_assert_eq(r0_trim_stack_totals(&s, 0, 1000, tot), 0);
	cr_expect(tot[0] == 1000 && tot[1] == 1000);
}

Test(stack, raid10_near_copies)
{
	struct r0_trim_stack s;
	uint64_t tot[3];
	struct r0_trim_leaf_extent *x;
	size_t n;

	/* 3 devices, 2 near copies, chunk 128: chunk c's copies on devices 2c mod 3, 2c+1 mod 3 */
	r0_trim_stack_init(&s);
	r0_trim_stack_add(&s, R0_NODE_RAID10, "md0", "md raid10 md0");
	s.node[0].size_sectors = 128 * 6;
	s.node[0].chunk_sectors = 128;
	s.node[0].copies = 2;
	for (unsigned i = 0; i < 3; i++)
		link_node(&s, 0, add_leaf(&s, 2048), 0);
	/* chunk 1: devices 2 (row 0) and 0 (row 1) */
	cr_assert_eq(r0_trim_stack_split(&s, 128, 128, &x, &n, NULL), 0);
	cr_assert_eq(n, 2);
	cr_expect(x[0].leaf == 0 && x[0].leaf_start_sector == 128 && x[0].n_sectors == 128);
	cr_expect(x[1].leaf == 2 && x[1].leaf_start_sector == 0 && x[1].n_sectors == 128);
	free(x);
	/* every chunk twice: 6 chunks over 3 devices = 4 chunks each */
	cr_assert_eq(r0_trim_stack_totals(&s, 0, 768, tot), 0);
	cr_expect(tot[0] == 512 && tot[1] == 512 && tot[2] == 512);
	cr_expect_eq(r0_trim_stack_copies(&s), 2);
}

Test(stack, stripes_under_linear_and_crypt)
{
	struct r0_trim_stack s;
	uint64_t sz[2] = { 1024, 1024 }, tot[2];
	struct r0_trim_leaf_extent *x;
	unsigned md, cr;
	size_t n;

	/* dm-crypt (drops) -> linear at 256 -> md raid0 64K chunk over two */
	r0_trim_stack_init(&s);
	cr = (unsigned)r0_trim_stack_add(&s, R0_NODE_ONE, "dm-1", "dm-crypt luks");
	s.node[cr].size_sectors = 512;
	s.node[cr].transforms = true;
	s.node[cr].drops = true;
	unsigned lv = (unsigned)r0_trim_stack_add(&s, R0_NODE_LINEAR, "dm-0", "dm-linear lv");
	link_node(&s, cr, lv, 0);
	s.node[lv].size_sectors = 512;
	s.node[lv].seg[0] = (struct r0_trim_segment){ 0, 512, 0, 256 };
	s.node[lv].n_segments = 1;
	md = (unsigned)r0_trim_stack_add(&s, R0_NODE_STRIPE, "md0", "md raid0 md0");
	link_node(&s, lv, md, 0);
	cr_assert_eq(r0_geometry_init(&s.node[md].geo, R0_BACKEND_MD, 65536, 2, sz, NULL, R0_MD_LAYOUT_ORIG), 0);
	s.node[md].size_sectors = 2048;
	link_node(&s, md, add_leaf(&s, 1024), 0);
	link_node(&s, md, add_leaf(&s, 1024), 0);
	/* top [0, 256) = md [256, 512): chunk 2 (leaf 0 row 1), chunk 3 (leaf 1 row 1) */
	cr_assert_eq(r0_trim_stack_split(&s, 0, 256, &x, &n, NULL), 0);
	cr_assert_eq(n, 2);
	cr_expect(x[0].leaf == 0 && x[0].leaf_start_sector == 128 && x[0].n_sectors == 128 &&
		  x[0].top_start_sector == 0 && !x[0].plain && x[0].dropped_at == (int)cr);
	cr_expect(x[1].leaf == 1 && x[1].leaf_start_sector == 128 && x[1].top_start_sector == 128);
	free(x);
	cr_expect_eq(r0_trim_stack_drop_on_path(&s, 1), (int)cr);
	cr_assert_eq(r0_trim_stack_totals(&s, 64, 384, tot), 0);
	cr_expect(tot[0] == 192 && tot[1] == 192, "%llu %llu", (unsigned long long)tot[0],
		  (unsigned long long)tot[1]);
}

Test(stack, thin_passes_whole_blocks_only)
{
	struct r0_trim_stack s;
	struct r0_trim_leaf_extent *x;
	size_t n;

	r0_trim_stack_init(&s);
	r0_trim_stack_add(&s, R0_NODE_THIN, "dm-2", "dm-thin t");
	s.node[0].size_sectors = 4096;
	s.node[0].block_sectors = 128;
	link_node(&s, 0, add_leaf(&s, 8192), 0);
	/* [100, 500): whole blocks [128, 384) only, place unknown */
	cr_assert_eq(r0_trim_stack_split(&s, 100, 400, &x, &n, NULL), 0);
	cr_assert_eq(n, 1);
	cr_expect(x[0].n_sectors == 256 && !x[0].placed && !x[0].plain);
	free(x);
	cr_assert_eq(r0_trim_stack_split(&s, 10, 100, &x, &n, NULL), 0);
	cr_expect_eq(n, 0, "less than a block reaches nothing");
	cr_expect_eq(r0_trim_stack_copies(&s), 0, "whole blocks only: no one figure");
}

/* a bottom device's member result: its 8 sectors delivered */
#define DELIVERED8 { .expected_sectors = 8, .observed_sectors = 8, .verdict = R0_CHECK_OK }

Test(evidence, levels_and_the_broken_promise)
{
	struct r0_trim_device t = target3(4096);
	struct r0_trim_evidence ev;
	struct r0_trim_member_result res[3] = { DELIVERED8, DELIVERED8, DELIVERED8 };
	struct r0_trim_effect e;
	char list[256], fail[512], why[256];

	memset(&ev, 0, sizeof(ev));
	memset(&e, 0, sizeof(e));
	for (unsigned i = 0; i < 3; i++)
		snprintf(t.members[i].kname, R0_KNAME_LEN, "nvme%un1", i);
	t.members[0].reads = t.members[1].reads = R0_READS_ZEROES;
	snprintf(t.members[0].reads_why, sizeof(t.members[0].reads_why), "NVMe DLFEAT=1");
	r0_trim_evidence_delivery(&ev, 3, res);
	e.leaf_discarded_ok[0] = 8;   /* member 0 kept its promise, 1 broke it, 2 made none */
	e.leaf_discarded_bad[1] = 8;
	r0_trim_evidence_effect(&ev, 3, &e);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 0, why, sizeof(why)), R0_LEVEL_DEALLOCATED, "%s", why);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 1, why, sizeof(why)), R0_LEVEL_NONE);
	cr_expect(strstr(why, "the drive completed the discard but still returns the old data"), "%s", why);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 2, why, sizeof(why)), R0_LEVEL_DELIVERED, "%s", why);
	cr_expect_not(r0_trim_evidence_summary(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)));
	cr_expect_str_eq(list, "nvme0n1 deallocated, nvme1n1 not shown, nvme2n1 delivered");
	cr_expect(strstr(fail, "bottom device nvme1n1: the drive completed"), "%s", fail);
	/* without the broken one, --require deallocated names the device without a promise */
	ev.dealloc_bad_sectors[1] = 0;
	ev.dealloc_ok_sectors[1] = 8;
	cr_expect(r0_trim_evidence_summary(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)));
	cr_expect_not(r0_trim_evidence_summary(&ev, &t, R0_LEVEL_DEALLOCATED, list, sizeof(list), fail, sizeof(fail)));
	cr_expect(strstr(fail, "bottom device nvme2n1: delivered; read-back not checkable"), "%s", fail);
	/* a device whose delivery fell short is not delivered */
	res[2].verdict = R0_CHECK_FAIL;
	r0_trim_evidence_delivery(&ev, 3, res);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 2, why, sizeof(why)), R0_LEVEL_NONE);
}

Test(evidence, the_drives_own_account_decides_where_no_read_back_can)
{
	struct r0_trim_device t = target3(4096);
	struct r0_trim_evidence ev;
	struct r0_trim_member_result res[3] = { DELIVERED8, DELIVERED8, DELIVERED8 };
	struct r0_trim_lba_answer a[3] = {
		{ .answered = true, .deallocated = 8 },
		{ .answered = true, .deallocated = 4, .mapped = 4 },
		{ .answered = false },
	};
	char list[256], fail[512], why[256];

	memset(&ev, 0, sizeof(ev));
	for (unsigned i = 0; i < 3; i++)
		snprintf(t.members[i].kname, R0_KNAME_LEN, "sd%c", 'a' + i);
	r0_trim_evidence_delivery(&ev, 3, res);
	r0_trim_evidence_lba_status(&ev, 3, a);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 0, why, sizeof(why)), R0_LEVEL_DEALLOCATED, "%s", why);
	cr_expect(strstr(why, "GET LBA STATUS"), "%s", why);
	/* a drive that keeps what it was told to unmap broke no promise: delivered, not freed */
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 1, why, sizeof(why)), R0_LEVEL_DELIVERED, "%s", why);
	cr_expect(strstr(why, "4 discarded sectors still mapped"), "%s", why);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 2, why, sizeof(why)), R0_LEVEL_DELIVERED, "%s", why);
	cr_expect(r0_trim_evidence_summary(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)));
	cr_expect_str_eq(list, "sda deallocated, sdb delivered, sdc delivered");
	/* a zero read on a drive that says the blocks are still mapped is not freed either */
	ev.dealloc_ok_sectors[1] = 8;
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 1, why, sizeof(why)), R0_LEVEL_DELIVERED, "%s", why);
	/* and no account without a delivery */
	memset(&ev, 0, sizeof(ev));
	r0_trim_evidence_lba_status(&ev, 3, a);
	cr_expect_eq(r0_trim_evidence_level(&ev, &t, 0, why, sizeof(why)), R0_LEVEL_NONE, "%s", why);
}

/*
 * r0trim --live on a device with other I/O: its quiet check gave up, so no
 * device got a conclusive delivery. That shows nothing either way: NOT
 * CONCLUSIVE, never the FAIL "bottom device X: no conclusive delivery".
 */
Test(evidence, nothing_shown_is_not_conclusive_not_a_failure)
{
	struct r0_trim_device t = target3(4096);
	struct r0_trim_evidence ev;
	struct r0_trim_member_result res[3] = { DELIVERED8, DELIVERED8, DELIVERED8 };
	char list[256], fail[512];

	memset(&ev, 0, sizeof(ev));
	for (unsigned i = 0; i < 3; i++)
		snprintf(t.members[i].kname, R0_KNAME_LEN, "sd%c", 'a' + i);
	cr_expect_eq(r0_trim_evidence_verdict(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)),
		     R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_str_eq(fail, "bottom device sda: no conclusive delivery");
	cr_expect_str_eq(list, "sda not shown, sdb not shown, sdc not shown");
	/* two delivered, one not shown: still nothing failed */
	res[2] = (struct r0_trim_member_result){ 0 };
	r0_trim_evidence_delivery(&ev, 3, res);
	cr_expect_eq(r0_trim_evidence_verdict(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)),
		     R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_str_eq(fail, "bottom device sdc: no conclusive delivery");
	/* a delivery that fell short is a failure, and the reason named before the unshown one */
	res[0].verdict = R0_CHECK_FAIL;
	memset(&ev, 0, sizeof(ev));
	ev.delivered[0] = 0;
	r0_trim_evidence_delivery(&ev, 3, res);
	ev.delivered[1] = 0;
	cr_expect_eq(r0_trim_evidence_verdict(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)),
		     R0_CHECK_FAIL);
	cr_expect(strstr(fail, "bottom device sda: not delivered: 1 discard fell short"), "%s", fail);
	cr_expect_not(r0_trim_evidence_summary(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)));
	/* every device delivered: PASS */
	memset(&ev, 0, sizeof(ev));
	res[0].verdict = R0_CHECK_OK;
	res[2] = (struct r0_trim_member_result)DELIVERED8;
	r0_trim_evidence_delivery(&ev, 3, res);
	cr_expect_eq(r0_trim_evidence_verdict(&ev, &t, R0_LEVEL_DELIVERED, list, sizeof(list), fail, sizeof(fail)),
		     R0_CHECK_OK);
}

Test(stack, a_layer_in_words)
{
	struct r0_trim_stack s;
	char line[128];

	r0_trim_stack_init(&s);
	r0_trim_stack_add(&s, R0_NODE_MIRROR, "md0", "md raid1 md0");
	link_node(&s, 0, add_leaf(&s, 100), 0);
	link_node(&s, 0, add_leaf(&s, 100), 0);
	r0_trim_stack_layer_line(&s, 0, line, sizeof(line));
	cr_expect_str_eq(line, "md raid1 md0 over d, d");
	s.node[0].drops = true;
	snprintf(s.node[0].drop_why, sizeof(s.node[0].drop_why), "allow_discards is off");
	r0_trim_stack_layer_line(&s, 0, line, sizeof(line));
	cr_expect_str_eq(line, "md raid1 md0 over d, d; allow_discards is off: discards stop here");
	r0_trim_stack_layer_line(&s, 0, line, 8);   /* cut, never overrun */
	cr_expect_str_eq(line, "md raid");
}

Test(verdict, what_a_discarded_block_reads)
{
	cr_expect_str_eq(r0_discard_reads_name(R0_READS_ZEROES), "zeroes");
	cr_expect_str_eq(r0_discard_reads_name(R0_READS_ONES), "0xff");
	cr_expect_str_eq(r0_discard_reads_name(R0_READS_UNKNOWN), "unknown");
}
