// SPDX-License-Identifier: GPL-2.0-or-later
/* GET LBA STATUS answers (lib/device/scsilba.c): what the descriptors cover, and what they do not. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/scsilba.h"

/* An answer of N descriptors (lba, blocks, status) in BUF; its length. */
static size_t answer(unsigned char *buf, const uint64_t (*d)[3], unsigned n)
{
	size_t len = 8 + 16 * (size_t)n;

	memset(buf, 0, len);
	buf[3] = (unsigned char)(len - 4);
	for (unsigned i = 0; i < n; i++) {
		unsigned char *p = buf + 8 + 16 * i;

		for (int b = 0; b < 8; b++)
			p[b] = (unsigned char)(d[i][0] >> (56 - 8 * b));
		for (int b = 0; b < 4; b++)
			p[8 + b] = (unsigned char)(d[i][1] >> (24 - 8 * b));
		p[12] = (unsigned char)d[i][2];
	}
	return len;
}

Test(scsilba, counts_each_status_in_sectors_up_to_the_end_asked)
{
	const uint64_t d[][3] = { { 100, 10, 1 }, { 110, 5, 0 }, { 115, 5, 2 }, { 120, 100, 1 } };
	unsigned char buf[128];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	cr_assert_eq(r0_lba_status_parse(buf, answer(buf, d, 4), 100, 130, 8, &st, &next), 0);
	cr_expect_eq(next, 130);
	cr_expect_eq(st.deallocated, (10 + 5 + 10) * 8, "anchored counts as deallocated");
	cr_expect_eq(st.mapped, 5 * 8);
	cr_expect_eq(st.other, 0);
}

Test(scsilba, a_first_descriptor_that_starts_before_the_ask_counts_from_it)
{
	const uint64_t d[][3] = { { 90, 20, 1 } };
	unsigned char buf[64];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	cr_assert_eq(r0_lba_status_parse(buf, answer(buf, d, 1), 100, 200, 1, &st, &next), 0);
	cr_expect_eq(next, 110);
	cr_expect_eq(st.deallocated, 10);
}

Test(scsilba, a_gap_stops_the_count_where_it_begins)
{
	const uint64_t d[][3] = { { 100, 10, 1 }, { 120, 10, 0 } };
	unsigned char buf[64];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	cr_assert_eq(r0_lba_status_parse(buf, answer(buf, d, 2), 100, 200, 1, &st, &next), 0);
	cr_expect_eq(next, 110);
	cr_expect_eq(st.deallocated, 10);
	cr_expect_eq(st.mapped, 0, "blocks after a gap are not counted");
}

Test(scsilba, an_answer_that_says_nothing_of_the_first_block_is_an_error)
{
	const uint64_t d[][3] = { { 150, 10, 1 } };
	unsigned char buf[64];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	cr_expect_eq(r0_lba_status_parse(buf, answer(buf, d, 1), 100, 200, 1, &st, &next), -EIO);
	cr_expect_eq(r0_lba_status_parse(buf, answer(buf, d, 0), 100, 200, 1, &st, &next), -EIO);
	cr_expect_eq(r0_lba_status_parse(buf, 2, 100, 200, 1, &st, &next), -EIO);
	cr_expect_eq(st.deallocated + st.mapped + st.other, 0);
}

Test(scsilba, a_length_beyond_the_buffer_reads_only_the_buffer)
{
	const uint64_t d[][3] = { { 100, 10, 1 }, { 110, 10, 0 } };
	unsigned char buf[64];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	answer(buf, d, 2);
	cr_assert_eq(r0_lba_status_parse(buf, 8 + 16, 100, 200, 1, &st, &next), 0);
	cr_expect_eq(next, 110);
	cr_expect_eq(st.mapped, 0);
}

Test(scsilba, an_undefined_status_is_neither_mapped_nor_deallocated)
{
	const uint64_t d[][3] = { { 0, 4, 7 } };
	unsigned char buf[64];
	struct r0_lba_status st = { 0 };
	uint64_t next;

	cr_assert_eq(r0_lba_status_parse(buf, answer(buf, d, 1), 0, 4, 1, &st, &next), 0);
	cr_expect_eq(st.other, 4);
	cr_expect_eq(st.mapped + st.deallocated, 0);
}

Test(scsilba, a_range_not_in_whole_blocks_is_refused)
{
	struct r0_lba_status st = { 0 };

	cr_expect_eq(r0_scsi_lba_status(-1, 1, 8, 4096, &st), -EINVAL);
	cr_expect_eq(r0_scsi_lba_status(-1, 0, 9, 4096, &st), -EINVAL);
	cr_expect_eq(r0_scsi_lba_status(-1, 0, 8, 1000, &st), -EINVAL);
}

Test(scsilba, a_descriptor_not_a_scsi_disk_is_not_an_answer)
{
	struct r0_lba_status st = { 0 };
	int fd = open("/dev/null", O_RDONLY);

	cr_assert_geq(fd, 0);
	cr_expect_eq(r0_scsi_lba_status(fd, 0, 8, 512, &st), -EOPNOTSUPP);
	close(fd);
}
