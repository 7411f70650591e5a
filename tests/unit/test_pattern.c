// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/pattern.h: write data and every verify fault class. */
#include <string.h>
#include <criterion/criterion.h>

#include "r0/pattern.h"

#define LEN 8192

static unsigned char buf[LEN], other[LEN];

Test(pattern, fill_is_seeded_and_not_zeros)
{
	unsigned zeros = 0;

	r0_pattern_fill(buf, LEN, 5);
	r0_pattern_fill(other, LEN, 5);
	cr_assert_arr_eq(buf, other, LEN);
	r0_pattern_fill(other, LEN, 6);
	cr_assert_arr_neq(buf, other, LEN);
	for (int i = 0; i < LEN; i++)
		zeros += buf[i] == 0;
	cr_expect_lt(zeros, LEN / 64, "%u zero bytes of %d", zeros, LEN);
}

Test(pattern, stamps_make_blocks_differ)
{
	r0_pattern_fill(buf, LEN, 1);
	memcpy(other, buf, LEN);
	r0_pattern_stamp(buf, LEN, 0, 1);
	r0_pattern_stamp(other, LEN, 8192, 1);
	cr_assert_arr_neq(buf, other, 16);
	cr_assert_arr_neq(buf + 4096, other + 4096, 16, "every 4 KiB is stamped");
}

Test(pattern, verify_round_trip)
{
	struct r0_verify_report rep;

	r0_verify_fill(buf, LEN, 1 << 20, 99, 3);
	cr_assert_eq(r0_verify_check(buf, LEN, 1 << 20, 99, 3, &rep), 0);
	cr_assert_eq(rep.fault, R0_VERIFY_OK);
}

static enum r0_verify_fault fault_of(uint64_t off, uint64_t seed, uint32_t pass, size_t *bad,
				     struct r0_verify_report *rep)
{
	*bad = r0_verify_check(buf, LEN, off, seed, pass, rep);
	return rep->fault;
}

Test(pattern, verify_names_each_fault)
{
	struct r0_verify_report rep;
	size_t bad;

	r0_verify_fill(buf, LEN, 0, 7, 1);
	cr_expect_eq(fault_of(0, 7, 2, &bad, &rep), R0_VERIFY_STALE);
	cr_expect_eq(bad, LEN / 512);
	cr_expect_eq(rep.found_pass, 1);
	cr_expect_eq(rep.expected_pass, 2);
	cr_expect_eq(fault_of(0, 8, 1, &bad, &rep), R0_VERIFY_OTHER_SEED);
	cr_expect_eq(fault_of(4096, 7, 1, &bad, &rep), R0_VERIFY_MISPLACED);
	cr_expect_eq(rep.found_sector, 0);
	cr_expect_eq(rep.expected_sector, 8);

	/* one sector zeroed, one 0xff, one foreign, one flipped bit */
	r0_verify_fill(buf, LEN, 0, 7, 1);
	memset(buf + 512 * 3, 0, 512);
	cr_expect_eq(fault_of(0, 7, 1, &bad, &rep), R0_VERIFY_ZEROED);
	cr_expect_eq(bad, 1);
	cr_expect_eq(rep.offset_bytes, 512 * 3);
	memset(buf + 512 * 3, 0xff, 512);
	cr_expect_eq(fault_of(0, 7, 1, &bad, &rep), R0_VERIFY_ONES);
	memset(buf + 512 * 3, 0x5a, 512);
	cr_expect_eq(fault_of(0, 7, 1, &bad, &rep), R0_VERIFY_FOREIGN);
	r0_verify_fill(buf, LEN, 0, 7, 1);
	buf[512 * 5 + 300] ^= 0x10;
	cr_expect_eq(fault_of(0, 7, 1, &bad, &rep), R0_VERIFY_CORRUPT);
	cr_expect_eq(bad, 1);
	cr_expect_eq(rep.offset_bytes, 512 * 5);
	cr_expect_eq(rep.bad_byte, 300);
	cr_expect_str_eq(r0_verify_fault_name(R0_VERIFY_STALE), "stale");
}
