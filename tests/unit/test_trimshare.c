// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimshare.h: each bottom device's share of a discard, against its counters, and why one fell short. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimshare.h"

/* An md raid0 of 64K chunks right over bottom devices sda, sdb ... of SECTORS each. */
static struct r0_trim_device striped(unsigned n, const uint64_t *sectors)
{
	struct r0_trim_device t;
	int top;

	memset(&t, 0, sizeof(t));
	cr_assert_eq(r0_geometry_init(&t.geo, R0_BACKEND_MD, 65536, n, sectors, NULL, R0_MD_LAYOUT_ALT), 0);
	t.n_members = n;
	t.size_sectors = t.geo.array_sectors;
	t.geometry_matches = true;
	r0_trim_stack_init(&t.stack);
	top = r0_trim_stack_add(&t.stack, R0_NODE_STRIPE, "md0", "md raid0 md0");
	cr_assert_eq(top, 0);
	t.stack.node[0].geo = t.geo;
	t.stack.node[0].size_sectors = t.geo.array_sectors;
	for (unsigned m = 0; m < n; m++) {
		int i = r0_trim_stack_add(&t.stack, R0_NODE_DEVICE, "m", "disk m");

		cr_assert_geq(i, 0);
		t.stack.node[i].size_sectors = sectors[m];
		t.stack.node[0].child[m] = (unsigned)i;
		snprintf(t.members[m].kname, R0_KNAME_LEN, "sd%c", 'a' + m);
		snprintf(t.members[m].chain_kname[0], R0_KNAME_LEN, "sd%c", 'a' + m);
		t.members[m].lim.max_bytes = t.members[m].leaf_lim.max_bytes = 1 << 20;
	}
	t.stack.node[0].n_children = n;
	return t;
}

Test(trimshare, expected_shares_follow_the_geometry)
{
	const uint64_t equal[3] = { 2048, 2048, 2048 }, unequal[3] = { 2048, 2048, 4096 };
	struct r0_trim_device t = striped(3, equal);
	double share[3];

	cr_assert_eq(r0_trim_expected_shares(&t, share), 0);
	for (unsigned i = 0; i < 3; i++)
		cr_expect_float_eq(share[i], 1.0 / 3, 1e-12, "%u: %f", i, share[i]);
	/* a larger member: zone 0 over all three, zone 1 on the third alone (raid0.c create_strip_zones) */
	t = striped(3, unequal);
	cr_assert_eq(r0_trim_expected_shares(&t, share), 0);
	cr_expect_float_eq(share[0], 0.25, 1e-12, "%f", share[0]);
	cr_expect_float_eq(share[1], 0.25, 1e-12, "%f", share[1]);
	cr_expect_float_eq(share[2], 0.5, 1e-12, "%f", share[2]);
}

Test(trimshare, expected_shares_of_a_mirror_and_when_unknown)
{
	const uint64_t equal[2] = { 2048, 2048 };
	struct r0_trim_device t = striped(2, equal);
	double share[2];

	/* a raid1: every leg gets the whole device */
	t.stack.node[0].kind = R0_NODE_MIRROR;
	t.stack.node[0].size_sectors = t.size_sectors = 2048;
	cr_assert_eq(r0_trim_expected_shares(&t, share), 0);
	cr_expect_float_eq(share[0], 0.5, 1e-12);
	cr_expect_float_eq(share[1], 0.5, 1e-12);
	/* past the top's end: the split fails, equal shares assumed */
	t.size_sectors = 4096;
	cr_expect_eq(r0_trim_expected_shares(&t, share), -ERANGE);
	cr_expect_float_eq(share[0], 0.5, 1e-12);
	/* nothing to split: equal shares, and said */
	t.size_sectors = 0;
	cr_expect_eq(r0_trim_expected_shares(&t, share), -ENODATA);
	cr_expect_float_eq(share[1], 0.5, 1e-12);
}

Test(trimshare, a_files_pieces_add_up_per_device)
{
	const uint64_t equal[3] = { 2048, 2048, 2048 };
	struct r0_trim_device t = striped(3, equal);
	struct r0_trim_leaf_extent *x = NULL;
	uint64_t share[3] = { 0 };
	size_t n = 0;

	/* [320, 832) across chunk boundaries is 192/128/192; a second piece adds a chunk to sdb */
	cr_assert_eq(r0_trim_stack_split(&t.stack, 320, 512, &x, &n, NULL), 0);
	r0_trim_extents_share(x, n, share);
	free(x);
	cr_assert_eq(r0_trim_stack_split(&t.stack, 128, 128, &x, &n, NULL), 0);
	r0_trim_extents_share(x, n, share);
	free(x);
	cr_expect(share[0] == 192 && share[1] == 256 && share[2] == 192, "%llu %llu %llu",
		  (unsigned long long)share[0], (unsigned long long)share[1], (unsigned long long)share[2]);
}

Test(trimshare, a_share_against_the_counters)
{
	const uint64_t equal[3] = { 2048, 2048, 2048 };
	struct r0_trim_device t = striped(3, equal);
	struct r0_trim_counters before = { .leaf_sectors = { 100, 200, 300 }, .member_sectors = { 7, 7, 7 } };
	struct r0_trim_counters after = before;
	struct r0_trim_member_result res[3];
	const uint64_t share[3] = { 64, 64, 0 };

	/* sda more than its share (ext4 trims to its group's end), sdb nothing, sdc had none to get */
	after.leaf_sectors[0] += 96;
	after.member_sectors[0] += 96;
	r0_trim_share_results(&t, share, &before, &after, res);
	cr_expect(res[0].verdict == R0_CHECK_OK && res[0].expected_sectors == 64 && res[0].observed_sectors == 96 &&
		  res[0].observed_member_sectors == 96 && res[0].conclusive);
	cr_expect(res[1].verdict == R0_CHECK_FAIL && res[1].observed_sectors == 0 && res[1].conclusive,
		  "a device that got no discards fails");
	cr_expect(res[2].verdict == R0_CHECK_OK && !res[2].conclusive);
	/* short by one sector is short */
	after.leaf_sectors[1] += 63;
	r0_trim_share_results(&t, share, &before, &after, res);
	cr_expect_eq(res[1].verdict, R0_CHECK_FAIL);
	after.leaf_sectors[1] += 1;
	r0_trim_share_results(&t, share, &before, &after, res);
	cr_expect_eq(res[1].verdict, R0_CHECK_OK);
}

Test(trimshare, why_a_delivery_fell_short)
{
	const uint64_t equal[3] = { 2048, 2048, 2048 };
	struct r0_trim_device t = striped(3, equal);
	struct r0_trim_member_result res[3];
	char why[256];

	for (unsigned i = 0; i < 3; i++)
		res[i] = (struct r0_trim_member_result){ .expected_sectors = 128, .observed_sectors = 128,
							 .conclusive = true, .verdict = R0_CHECK_OK };
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "");
	/* nothing arrived on sdb; sdc's own failure comes second and is not the reason */
	res[1].observed_sectors = 0;
	res[1].verdict = R0_CHECK_FAIL;
	res[2].observed_sectors = 130;
	res[2].verdict = R0_CHECK_FAIL;
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdb received 0 of 128 sectors: dropped");
	t.members[1].leaf_lim.max_bytes = 0;
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdb received 0 of 128 sectors: dropped (it takes no discards)");
	res[1].observed_sectors = 64;
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdb received 64 of 128 sectors: cut short");
	/* more than expected */
	res[1] = res[0];
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdc received 130 sectors, 128 expected: misrouted, or other I/O on it");
	/* a layer between the member and its bottom device dropped what the member counted */
	res[2].observed_sectors = 0;
	res[2].observed_member_sectors = 128;
	t.members[2].depth = 1;
	snprintf(t.members[2].chain_kname[0], R0_KNAME_LEN, "dm-3");
	snprintf(t.members[2].chain_type[0], sizeof(t.members[2].chain_type[0]), "flakey");
	snprintf(t.members[2].chain_kname[1], R0_KNAME_LEN, "sdc");
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdc received 0 of 128 sectors although dm-3 above it counted 128: the flakey layer dropped them");
	/* a layer on its path that is known to drop discards is named with its reason */
	t.stack.node[0].drops = true;
	snprintf(t.stack.node[0].drop_why, sizeof(t.stack.node[0].drop_why), "discards are off");
	r0_trim_delivery_why(&t, res, why, sizeof(why));
	cr_expect_str_eq(why, "sdc received 0 of 128 sectors: md raid0 md0 (md0) drops them: discards are off");
}
