// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/csv.h: RFC 4180 fields and the sweep's tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/csv.h"

/* The fields written by FN over a memory stream, as a string to free. */
static char *row(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	fn(f);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static void quoting(FILE *f)
{
	cr_assert_eq(r0_csv_field(f, "plain", true), 0);
	cr_assert_eq(r0_csv_field(f, "a,b", false), 0);
	cr_assert_eq(r0_csv_field(f, "say \"hi\"", false), 0);
	cr_assert_eq(r0_csv_field(f, "two\nlines", false), 0);
	cr_assert_eq(r0_csv_field(f, "cr\r", false), 0);
	cr_assert_eq(r0_csv_field(f, NULL, false), 0);
	cr_assert_eq(r0_csv_field(f, "", false), 0);
	cr_assert_eq(r0_csv_field(f, " spaced ", false), 0);
	cr_assert_eq(r0_csv_eol(f), 0);
}

Test(csv, quotes_only_what_rfc4180_asks)
{
	char *s = row(quoting);

	cr_expect_str_eq(s, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",,, spaced \r\n");
	free(s);
}

static void numbers(FILE *f)
{
	cr_assert_eq(r0_csv_num(f, "%.0f", 4096, true), 0);
	cr_assert_eq(r0_csv_num(f, "%.0f", 0, false), 0);   /* not known: empty, never 0 */
	cr_assert_eq(r0_csv_num(f, "%.3f", 1.5, true), 0);
	cr_assert_eq(r0_csv_eol(f), 0);
}

Test(csv, an_unknown_number_is_an_empty_field)
{
	char *s = row(numbers);

	/* a number field follows a comma: the row's first is written by r0_csv_field */
	cr_expect_str_eq(s, ",4096,,1.500\r\n");
	free(s);
}

static struct r0_sweep_set one_set;

static void cells(FILE *f)
{
	cr_assert_eq(r0_csv_cells(f, &one_set), 0);
}

Test(csv, cells_row_per_record_unknown_empty)
{
	struct r0_sweep_rec r = { .layer = R0_LAYER_MD, .chunk_bytes = 65536, .n_members = 2, .label = "4K, QD1",
				  .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096, .queue_depth = 1,
				  .jobs = 1, .repeat = 1, .iops = 1000, .bytes_per_s = 4096000, .lat_p50_ns = 90500,
				  .predicted = true, .state = "empty" };
	char *s, *line2;

	cr_assert_eq(r0_sweep_set_add(&one_set, &r), 0);
	s = row(cells);
	line2 = strstr(s, "\r\n");
	cr_assert_not_null(line2);
	cr_expect(!strncmp(s, "layer,chunk_bytes,members,workload,rw,", 38), "%s", s);
	/* the label quoted for its comma; runtime, ios, errors and the tail unknown: empty */
	cr_expect_str_eq(line2 + 2, "md,65536,2,\"4K, QD1\",randread,100,4096,0,1,1,1,,,,,1000,4096000,,90.500,,,,,,,,"
				    "fixed,true,empty,,\r\n");
	free(s);
	r0_sweep_set_free(&one_set);
}
