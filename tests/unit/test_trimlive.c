// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimlive.h: r0trim --live's file systems, test file size, FITRIM ranges and read-back effect. */
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimlive.h"

#define MiB (1ull << 20)

Test(trimlive, file_systems_by_magic)
{
	char name[96];

	cr_expect_str_eq(r0_trim_live_fs(0xEF53), "ext4");
	cr_expect_str_eq(r0_trim_live_fs(0x58465342), "xfs");
	cr_expect_null(r0_trim_live_fs(0x01021994), "tmpfs is not followed");
	cr_expect_null(r0_trim_live_fs(0x9123683e), "btrfs is not followed");
	r0_trim_fs_magic_name(0x01021994, name, sizeof(name));
	cr_expect_str_eq(name, "tmpfs");
	/* statfs's f_type may come sign-extended: the low 32 bits name it */
	r0_trim_fs_magic_name(0xffffffffff534d42ul, name, sizeof(name));
	cr_expect_str_eq(name, "cifs");
	r0_trim_fs_magic_name(0x1234, name, sizeof(name));
	cr_expect_str_eq(name, "one it does not know (file system magic 0x1234)");
}

Test(trimlive, the_test_files_size_and_room)
{
	struct r0_trim_device t;

	memset(&t, 0, sizeof(t));
	/* eight stripes of 3 x 512K = 12 MiB */
	t.unit_bytes = 512 << 10;
	t.n_members = 3;
	cr_expect_eq(r0_trim_live_file_bytes(&t), 12 * MiB);
	cr_expect_eq(r0_trim_live_room_bytes(&t), 2 * 12 * MiB + 16 * MiB);
	/* at least 4 MiB, at most 64 MiB, whole MiB */
	t.unit_bytes = 4096;
	cr_expect_eq(r0_trim_live_file_bytes(&t), 4 * MiB);
	t.unit_bytes = 4 << 20;
	cr_expect_eq(r0_trim_live_file_bytes(&t), 64 * MiB);
	t.unit_bytes = 200 << 10;   /* 8 x 3 x 200K = 4.6875 MiB */
	cr_expect_eq(r0_trim_live_file_bytes(&t), 4 * MiB);
	t.unit_bytes = 1 << 20;
	t.n_members = 0;           /* a single device: one member's worth */
	cr_expect_eq(r0_trim_live_file_bytes(&t), 8 * MiB);
}

Test(trimlive, fitrim_ranges_are_sorted_and_merged)
{
	/* pieces as the split lists them, by device: top ranges out of order, touching and overlapping */
	const struct r0_trim_leaf_extent x[] = {
		{ .leaf = 0, .top_start_sector = 256, .n_sectors = 128 },
		{ .leaf = 0, .top_start_sector = 1000, .n_sectors = 8 },
		{ .leaf = 1, .top_start_sector = 128, .n_sectors = 128 },
		{ .leaf = 1, .top_start_sector = 300, .n_sectors = 200 },
		{ .leaf = 2, .top_start_sector = 0, .n_sectors = 64 },
	};
	uint64_t rg[5][2];
	size_t m = r0_trim_top_ranges(x, 5, rg);

	cr_assert_eq(m, 3, "%zu", m);
	cr_expect(rg[0][0] == 0 && rg[0][1] == 64);
	cr_expect(rg[1][0] == 128 && rg[1][1] == 500, "%llu %llu", (unsigned long long)rg[1][0],
		  (unsigned long long)rg[1][1]);
	cr_expect(rg[2][0] == 1000 && rg[2][1] == 1008);
	cr_expect_eq(r0_trim_top_ranges(x, 0, rg), 0);
}

Test(trimlive, the_files_sectors_read_back)
{
	uint64_t ok[3] = { 64, 64, 0 }, bad[3] = { 0, 0, 0 }, unchecked[3] = { 0, 8, 64 };
	struct r0_trim_counters before = { .leaf_writes = { 10, 20, 30 } }, later = before;
	struct r0_trim_effect e;
	bool reused = true;

	r0_trim_live_effect(3, ok, bad, unchecked, &before, &later, &e, &reused);
	cr_expect_eq(e.verdict, R0_CHECK_OK);
	cr_expect_not(reused);
	cr_expect(e.member_discarded_ok == 128 && e.member_discarded_bad == 0 && e.unchecked == 72);
	cr_expect(e.first_bad_sector == -1 && e.first_bad_member == -1 && e.first_bad_member_direct == -1);
	cr_expect(e.leaf_discarded_ok[1] == 64 && e.intact_ok == 0);
	/* old data on sdb: the drive was sent the discard and kept the data */
	bad[1] = 8;
	r0_trim_live_effect(3, ok, bad, unchecked, &before, &later, &e, &reused);
	cr_expect_eq(e.verdict, R0_CHECK_FAIL);
	cr_expect_eq(e.leaf_discarded_bad[1], 8);
	/* ... unless the file system wrote to it meanwhile */
	later.leaf_writes[1]++;
	r0_trim_live_effect(3, ok, bad, unchecked, &before, &later, &e, &reused);
	cr_expect_eq(e.verdict, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect(reused);
	/* writes to another device do not excuse it */
	later = before;
	later.leaf_writes[2]++;
	r0_trim_live_effect(3, ok, bad, unchecked, &before, &later, &e, &reused);
	cr_expect_eq(e.verdict, R0_CHECK_FAIL);
	/* no promise anywhere: nothing to check */
	memset(ok, 0, sizeof(ok));
	memset(bad, 0, sizeof(bad));
	r0_trim_live_effect(3, ok, bad, unchecked, &before, &later, &e, &reused);
	cr_expect_eq(e.verdict, R0_CHECK_NOT_CHECKABLE);
}
