// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/mdinfo.h on fake md sysfs directories. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/mdinfo.h"

static char dir[64];

static void put(const char *rel, const char *content)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "create %s", path);
	fputs(content, f);
	fclose(f);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/r0-mdinfo-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(mdinfo, .init = setup, .fini = teardown);

/* md127: raid0 of 2, ALT layout; the roles as md shows them */
static void raid0_of_two(void)
{
	put("md/level", "raid0\n");
	put("md/array_state", "clean\n");
	put("md/chunk_size", "65536\n");
	put("md/raid_disks", "2\n");
	put("md/layout", "2\n");
	put("md/rd0/offset", "0\n");
	put("md/rd0/size", "1048576\n");
	put("md/rd0/block/dev", "259:1\n");
	put("md/rd1/offset", "2048\n");
	put("md/rd1/size", "524288\n");
	put("md/rd1/block/dev", "8:16\n");
}

Test(mdinfo, reads_an_active_raid0)
{
	struct r0_md_info mi;

	raid0_of_two();
	cr_assert_eq(r0_md_info(dir, &mi), 0);
	cr_expect_str_eq(mi.level, "raid0");
	cr_expect_str_eq(mi.array_state, "clean");
	cr_expect_eq(mi.chunk_bytes, 65536);
	cr_expect_eq(mi.raid_disks, 2);
	cr_expect_eq(mi.layout, 2);
	cr_expect_eq(mi.member_err, 0);
	cr_assert_eq(mi.n_members, 2);
	cr_expect_eq(mi.member[0].devt, makedev(259, 1));
	cr_expect_eq(mi.member[1].devt, makedev(8, 16));
	cr_expect_eq(mi.member[1].offset_sectors, 2048);
	cr_expect_eq(mi.member[0].size_kib, 1048576);
}

Test(mdinfo, layout_minus_one_and_missing_attributes)
{
	struct r0_md_info mi;

	put("md/level", "raid0\n");
	put("md/layout", "-1\n");
	cr_assert_eq(r0_md_info(dir, &mi), 0);
	cr_expect_eq(mi.layout, -1);
	cr_expect_eq(mi.chunk_bytes, -1);
	cr_expect_eq(mi.raid_disks, -1);
	cr_expect_str_eq(mi.array_state, "");
	cr_expect_eq(mi.n_members, 0);
	cr_expect_neq(mi.member_err, 0);
}

Test(mdinfo, a_missing_role_stops_the_roles_and_says_which)
{
	struct r0_md_info mi;
	char path[PATH_MAX];

	raid0_of_two();
	snprintf(path, sizeof(path), "%s/md/rd1/offset", dir);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(r0_md_info(dir, &mi), 0);
	cr_expect_eq(mi.n_members, 1);
	cr_expect_eq(mi.member_err, -ENOENT);
	cr_expect_str_eq(mi.member_attr, "rd1/offset");
}

Test(mdinfo, more_roles_than_r0kit_handles)
{
	struct r0_md_info mi;
	char n[16];

	snprintf(n, sizeof(n), "%d\n", R0_MAX_MEMBERS + 1);
	put("md/raid_disks", n);
	cr_assert_eq(r0_md_info(dir, &mi), 0);
	cr_expect_eq(mi.member_err, -E2BIG);
	cr_expect_eq(mi.n_members, 0);
}

Test(mdinfo, not_an_md_device)
{
	struct r0_md_info mi;

	put("queue/rotational", "0\n");
	cr_expect_eq(r0_md_info(dir, &mi), -ENOENT);
}
