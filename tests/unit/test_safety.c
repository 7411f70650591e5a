// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0_members_check: every member checked and every problem named at once
 * (r0sweep and r0build share it). Block devices are the sandbox's
 * (tests/sandbox/011-r0build-safety.sh: mounted, held, signatures, the
 * same device twice); here what any host has.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/safety.h"

Test(safety, every_member_is_checked_and_named)
{
	char file[] = "/tmp/r0-safety-XXXXXX";
	int fd = mkstemp(file);
	const char *paths[] = { file, "/dev/null", "/nonexistent/r0" };
	struct r0_member_check out[3];
	r0_member_why why[3];

	cr_assert_geq(fd, 0);
	cr_expect_eq(r0_members_check(paths, 3, false, 0, out, why), 3, "a problem each, none hidden by the first");
	cr_expect_str_eq(why[0], "not a block device");
	cr_expect_str_eq(why[1], "not a block device");
	cr_expect_neq(why[2][0], '\0', "a missing path says why");
	cr_expect_eq(r0_members_check(paths, 0, false, 0, out, why), 0);
	unlink(file);
}
