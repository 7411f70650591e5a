// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0_array_spec_members (r0/array.h): an array's members and dm length from the members' checks. */
#include <errno.h>
#include <sys/sysmacros.h>
#include <criterion/criterion.h>

#include "r0/array.h"

static void members(struct r0_member_check *chk, const uint64_t *sectors, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		chk[i] = (struct r0_member_check){ .devt = makedev(7, i), .size_sectors = sectors[i] };
}

Test(arrayspec, members_in_order_and_the_dm_length_of_the_smallest)
{
	static const uint64_t sectors[] = { 2048 * 100 + 7, 2048 * 90 + 3, 2048 * 95 };
	struct r0_member_check chk[3];
	struct r0_array_spec spec = { .backend = R0_BACKEND_DM, .chunk_bytes = 64 << 10 };
	struct r0_geometry geo;

	members(chk, sectors, 3);
	cr_assert_eq(r0_array_spec_members(&spec, chk, 3, &geo), 0);
	cr_assert_eq(spec.n_members, 3);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(spec.members[i], makedev(7, i));
	/* 3 x the smallest (90 MiB + 3 sectors), cut to the 128-sector chunk */
	cr_assert_eq(spec.dm_length_sectors, 3 * (2048ULL * 90));
	cr_assert_eq(geo.array_sectors, spec.dm_length_sectors);
}

Test(arrayspec, a_member_under_one_chunk_is_refused)
{
	static const uint64_t sectors[] = { 2048 * 100, 64 };
	struct r0_member_check chk[2];
	struct r0_array_spec spec = { .backend = R0_BACKEND_MD, .chunk_bytes = 64 << 10 };
	struct r0_geometry geo;

	members(chk, sectors, 2);
	cr_assert_eq(r0_array_spec_members(&spec, chk, 2, &geo), -EINVAL);
	cr_assert_eq(r0_array_spec_members(&spec, chk, 0, &geo), -EINVAL);
}
