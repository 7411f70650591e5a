// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/csv.h: RFC 4180 fields and the sweep's tables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/csv.h"
#include "sweeprows.h"

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

static struct r0_run_set one_set;
static struct r0_analysis one_an;

static void cells(FILE *f)
{
	cr_assert_eq(r0_csv_cells(f, &one_set, &one_an), 0);
}

Test(csv, cells_row_per_record_unknown_empty)
{
	struct r0_run r = { .layer = R0_LAYER_MD, .chunk_bytes = 65536, .n_members = 2, .label = "4K, QD1",
				  .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096, .queue_depth = 1,
				  .jobs = 1, .repeat = 1, .iops = 1000, .bytes_per_s = 4096000, .lat_p50_ns = 90500,
				  .predicted = true, .state = "empty" };
	enum r0_run_use use = R0_RUN_USED;
	char *s, *line2;

	cr_assert_eq(r0_run_set_add(&one_set, &r), 0);
	one_an = (struct r0_analysis){ .run_use = &use, .n_run = 1 };
	s = row(cells);
	line2 = strstr(s, "\r\n");
	cr_assert_not_null(line2);
	cr_expect(!strncmp(s, "layer,chunk_bytes,members,workload,rw,", 38), "%s", s);
	/* the report's name, quoted for its comma; no pass recorded: the repeat stands for it; runtime,
	 * ios, errors and the tail unknown: empty */
	cr_expect_str_eq(line2 + 2, "md,65536,2,\"4K, QD1 read\",randread,100,4096,0,1,1,1,1,false,used,,,,1000,4096000,,"
				    "90.500,,,,,,,,fixed,true,empty,,\r\n");
	free(s);
	r0_run_set_free(&one_set);
}

/* Field N (0-based) of the row LINE, copied into OUT (no quoting in these rows). */
static void field(const char *line, unsigned n, char *out, size_t len)
{
	const char *end;

	for (; n; n--) {
		line = strchr(line, ',');
		cr_assert_not_null(line);
		line++;
	}
	end = line + strcspn(line, ",\r");
	snprintf(out, len, "%.*s", (int)(end - line), line);
}

/* The row of cells.csv after the header, 0-based. */
static const char *nth_row(const char *s, unsigned n)
{
	for (n++; n; n--) {
		s = strstr(s, "\r\n");
		cr_assert_not_null(s);
		s += 2;
	}
	return s;
}

Test(csv, cells_say_pass_and_what_was_judged_far)
{
	static const enum r0_run_use uses[] = { R0_RUN_USED, R0_RUN_FAR, R0_RUN_VISIT_FAR, R0_RUN_UNMEASURED };
	static const char *const said[] = { "used", "far-run", "far-visit", "unmeasured" };
	enum r0_run_use use[4];
	char *s, pass[16], rec[16], use_s[16], busy[32];

	for (unsigned i = 0; i < 4; i++) {
		struct r0_run r = { .layer = R0_LAYER_RAW, .n_members = 1, .label = "Seq", .read_pct = 100,
					  .block_bytes = 1 << 20, .queue_depth = 1, .jobs = 1, .repeat = 1 + i / 2,
					  .pass = 3 + i, .ios = 10, .busy = 0.25, .state = "empty" };

		cr_assert_eq(r0_run_set_add(&one_set, &r), 0);
		use[i] = uses[i];
	}
	one_an = (struct r0_analysis){ .run_use = use, .n_run = 4, .passes = true };
	s = row(cells);
	for (unsigned i = 0; i < 4; i++) {
		const char *l = nth_row(s, i);

		field(l, 11, pass, sizeof(pass));
		field(l, 12, rec, sizeof(rec));
		field(l, 13, use_s, sizeof(use_s));
		field(l, 27, busy, sizeof(busy));
		cr_expect_eq(atoi(pass), 3 + (int)i, "%s", l);
		cr_expect_str_eq(rec, "true");
		cr_expect_str_eq(use_s, said[i]);
		cr_expect_str_eq(busy, "25", "busy_pct: a percentage");
	}
	free(s);
	/* an analysis of another set is refused */
	one_an.n_run = 3;
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		cr_expect_eq(r0_csv_cells(f, &one_set, &one_an), -EINVAL);
		fclose(f);
		free(buf);
	}
	r0_run_set_free(&one_set);
}

static struct r0_analysis pick_an;

static void comparisons(FILE *f)
{
	cr_assert_eq(r0_csv_comparisons(f, &pick_an), 0);
}

/* The single drive answers nothing against itself; an array gives its speed-up, answer and tie. */
Test(csv, the_baseline_answers_nothing)
{
	struct r0_run_set set;
	struct r0_mix mix;
	char *s, *raw, *md;

	load_rows(pickrows, N(pickrows), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &pick_an), 0);
	s = row(comparisons);
	{
		static const char head[] = "workload,rw,read_pct,block_bytes,queue_depth,jobs,weight_pct,layer,"
					   "chunk_bytes,members,baseline,repeats_used,repeats_far,"
					   "repeats_unmeasured,";

		cr_expect(!strncmp(s, head, strlen(head)), "%s", s);
	}
	raw = strstr(s, "\r\nSeq read,read,100,1048576,1,1,100,raw,0,1,true,4,0,0,");
	cr_assert_not_null(raw, "%s", s);
	/* speedup_x .. tie_best empty, then errors and predicted */
	raw = strchr(raw + 2, '\r');
	cr_expect(!strncmp(raw - 14, ",,,,,,,0,false", 14), "%.60s", raw - 60);
	md = strstr(s, "\r\nSeq read,read,100,1048576,1,1,100,md,65536,3,false,4,0,0,");
	cr_assert_not_null(md, "%s", s);
	cr_expect_not_null(strstr(md, ",worth it,true,0,false\r\n"), "%.300s", md);
	free(s);
	r0_analysis_free(&pick_an);
	r0_run_set_free(&set);
}
