// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/scenariojson.h: the r0scenario/1 line from a struct, byte for byte as the
 * recipe's printf wrote it (tests/report/data/scenario.jsonl), read back, its nulls, the WAFs
 * from the SSDs' counters and the figures from two r0bench/1 documents. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/scenariojson.h"

/* the printf's lines (tests/report/data/scenario.jsonl): cycle 0 of r0s1, cycle 1 of r0s0 */
static const char fresh_line[] =
	"{\"r0kit_schema\":\"r0scenario/1\",\"scenario\":\"raid0-without-trim\",\"array\":\"r0s1\",\"members\":2,"
	"\"ssd_mib\":128,\"trim\":true,\"cycle\":0,\"fill_pct\":90,\"fill_bytes\":0,\"mapped_after_delete_pct\":null,"
	"\"fstrim_bytes\":null,\"mapped_before_bench_pct\":12.6,\"bench_s\":5,\"randwrite_iops\":8925,"
	"\"randwrite_mb_s\":36.56,\"seqwrite_mb_s\":34.10,\"waf_randwrite\":1.000,\"waf_seqwrite\":1.191,"
	"\"waf_cycle\":1.085,\"waf_total\":1.085,\"gc_runs\":127,\"host_write_pages\":94805,"
	"\"flash_program_pages\":102821}";
static const char no_trim_line[] =
	"{\"r0kit_schema\":\"r0scenario/1\",\"scenario\":\"raid0-without-trim\",\"array\":\"r0s0\",\"members\":2,"
	"\"ssd_mib\":128,\"trim\":false,\"cycle\":1,\"fill_pct\":90,\"fill_bytes\":209715200,"
	"\"mapped_after_delete_pct\":100.0,\"fstrim_bytes\":null,\"mapped_before_bench_pct\":100.0,\"bench_s\":5,"
	"\"randwrite_iops\":1643,\"randwrite_mb_s\":6.73,\"seqwrite_mb_s\":6.63,\"waf_randwrite\":5.504,"
	"\"waf_seqwrite\":5.332,\"waf_cycle\":2.914,\"waf_total\":1.902,\"gc_runs\":866,\"host_write_pages\":171320,"
	"\"flash_program_pages\":325843}";

static struct r0_scenario_cycle no_trim(void)
{
	struct r0_scenario_cycle c = {
		.scenario = "raid0-without-trim", .array = "r0s0", .members = 2, .ssd_mib = 128, .trim = false,
		.cycle = 1, .fill_pct = 90, .fill_bytes = 209715200, .mapped_after_delete_pct = 100,
		.fstrim_bytes = R0_SCENARIO_NULL, .mapped_before_bench_pct = 100, .bench_s = 5,
		.randwrite_iops = 1643.93, .randwrite_mb_s = 6.7345, .seqwrite_mb_s = 6.6299,
		.waf_randwrite = 5.5041, .waf_seqwrite = 5.3318, .waf_cycle = 2.9137, .waf_total = 325843 / 171320.0,
		.gc_runs = 866, .host_write_pages = 171320, .flash_program_pages = 325843,
	};
	return c;
}

static void expect_line(const struct r0_scenario_cycle *c, const char *want)
{
	char *line = r0_scenario_cycle_to_json(c);

	cr_assert_not_null(line, "%s", strerror(errno));
	cr_expect_str_eq(line, want);
	free(line);
}

Test(scenariojson, struct_to_the_printf_line)
{
	struct r0_scenario_cycle c = no_trim();

	expect_line(&c, no_trim_line);
	/* cycle 0: no files deleted, no fstrim: both null */
	c = (struct r0_scenario_cycle){
		.scenario = "raid0-without-trim", .array = "r0s1", .members = 2, .ssd_mib = 128, .trim = true,
		.cycle = 0, .fill_pct = 90, .mapped_after_delete_pct = NAN, .fstrim_bytes = R0_SCENARIO_NULL,
		.mapped_before_bench_pct = 12.6, .bench_s = 5, .randwrite_iops = 8925.2, .randwrite_mb_s = 36.56,
		.seqwrite_mb_s = 34.1, .waf_randwrite = 1, .waf_seqwrite = 1.191, .waf_cycle = 1.0845,
		.waf_total = 1.0846, .gc_runs = 127, .host_write_pages = 94805, .flash_program_pages = 102821,
	};
	expect_line(&c, fresh_line);
}

/* every line the printf wrote is read and written again as it was */
Test(scenariojson, stored_lines_round_trip)
{
	FILE *f = fopen("tests/report/data/scenario.jsonl", "re");
	char *buf = NULL, *line;
	size_t cap = 0;
	ssize_t len;
	unsigned n = 0;

	cr_assert_not_null(f);
	while ((len = getline(&buf, &cap, f)) > 0) {
		struct r0_scenario_cycle c;

		buf[len - 1] = 0;
		cr_assert_eq(r0_scenario_cycle_parse(buf, &c), 0, "line %u", n + 1);
		line = r0_scenario_cycle_to_json(&c);
		cr_assert_not_null(line);
		cr_expect_str_eq(line, buf, "line %u", n + 1);
		free(line);
		n++;
	}
	free(buf);
	fclose(f);
	cr_expect_eq(n, 14);
}

Test(scenariojson, reader_takes_the_writers_line)
{
	struct r0_scenario_cycle c = no_trim(), r;
	char *line = r0_scenario_cycle_to_json(&c);

	cr_assert_not_null(line);
	cr_assert_eq(r0_scenario_cycle_parse(line, &r), 0);
	free(line);
	cr_expect_str_eq(r.scenario, "raid0-without-trim");
	cr_expect_str_eq(r.array, "r0s0");
	cr_expect(!r.trim && r.cycle == 1 && r.members == 2 && r.ssd_mib == 128 && r.fill_pct == 90);
	cr_expect_eq(r.fill_bytes, 209715200);
	cr_expect_eq(r.fstrim_bytes, R0_SCENARIO_NULL, "null");
	cr_expect_eq(r.randwrite_iops, 1643, "the fraction cut off");
	cr_expect_eq(r.randwrite_mb_s, 6.73);
	cr_expect_eq(r.waf_total, 1.902);
	cr_expect_eq(r.host_write_pages, 171320);
	cr_expect_eq(r.flash_program_pages, 325843);
}

Test(scenariojson, nulls)
{
	struct r0_scenario_cycle c = no_trim(), r;
	char *line;

	c.mapped_after_delete_pct = NAN;
	c.waf_randwrite = c.waf_seqwrite = c.waf_cycle = c.waf_total = NAN;
	line = r0_scenario_cycle_to_json(&c);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"mapped_after_delete_pct\":null,\"fstrim_bytes\":null,"));
	cr_expect_not_null(strstr(line, "\"waf_randwrite\":null,\"waf_seqwrite\":null,\"waf_cycle\":null,"
				  "\"waf_total\":null,"));
	cr_assert_eq(r0_scenario_cycle_parse(line, &r), 0);
	free(line);
	cr_expect(isnan(r.mapped_after_delete_pct) && isnan(r.waf_randwrite) && isnan(r.waf_total));
	/* a known fstrim is a number */
	c.fstrim_bytes = 234569728;
	line = r0_scenario_cycle_to_json(&c);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"fstrim_bytes\":234569728,"));
	free(line);
}

/* what breaks the schema is not written */
Test(scenariojson, writer_refuses)
{
	struct r0_scenario_cycle c;

	c = no_trim();
	c.array[0] = 0;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "no array");
	cr_expect_eq(errno, EINVAL);
	c = no_trim();
	c.members = 0;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "no members");
	c = no_trim();
	c.mapped_before_bench_pct = 100.5;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "above 100 %%");
	c = no_trim();
	c.fill_pct = 101;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "a fill above 100 %%");
	c = no_trim();
	c.seqwrite_mb_s = NAN;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "no null allowed");
	c = no_trim();
	c.randwrite_iops = -1;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "negative");
	c = no_trim();
	c.waf_cycle = INFINITY;
	cr_expect_null(r0_scenario_cycle_to_json(&c), "infinite");
}

Test(scenariojson, reader_refuses)
{
	static const char *bad[] = {
		"not json",
		"[1]",
		"{\"r0kit_schema\":\"r0scenario/2\",\"array\":\"a\",\"trim\":true,\"cycle\":0,\"randwrite_iops\":1,"
		"\"seqwrite_mb_s\":1}",
		"{\"r0kit_schema\":\"r0scenario/1\",\"trim\":true,\"cycle\":0,\"randwrite_iops\":1,\"seqwrite_mb_s\":1}",
		"{\"r0kit_schema\":\"r0scenario/1\",\"array\":\"a\",\"trim\":true,\"cycle\":-1,\"randwrite_iops\":1,"
		"\"seqwrite_mb_s\":1}",
		"{\"r0kit_schema\":\"r0scenario/1\",\"array\":\"a\",\"trim\":true,\"cycle\":0,\"randwrite_iops\":null,"
		"\"seqwrite_mb_s\":1}",
	};
	struct r0_scenario_cycle c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(r0_scenario_cycle_parse(bad[i], &c), -EINVAL, "case %zu", i);
	/* the few keys it needs: the rest read as 0 or null */
	cr_assert_eq(r0_scenario_cycle_parse("{\"r0kit_schema\":\"r0scenario/1\",\"array\":\"a\",\"trim\":false,"
					     "\"cycle\":3,\"randwrite_iops\":10,\"seqwrite_mb_s\":2.5}", &c), 0);
	cr_expect(c.cycle == 3 && c.members == 0 && c.fstrim_bytes == R0_SCENARIO_NULL && isnan(c.waf_cycle));
}

Test(scenariojson, wafs_from_the_counters)
{
	/* start, before the benchmark, after the random write, after the sequential write */
	struct r0_scenario_counts at[R0_SCENARIO_MOMENTS] = {
		{ 1000, 1100, 5 }, { 2000, 2500, 9 }, { 3000, 8500, 20 }, { 4000, 9500, 25 },
	};
	struct r0_scenario_cycle c = { 0 };

	cr_assert_eq(r0_scenario_cycle_set_counts(&c, at), 0);
	cr_expect_eq(c.waf_randwrite, 6.0);
	cr_expect_eq(c.waf_seqwrite, 1.0);
	cr_expect_eq(c.waf_cycle, 8400 / 3000.0);
	cr_expect_eq(c.waf_total, 9500 / 4000.0);
	cr_expect_eq(c.gc_runs, 20);
	cr_expect(c.host_write_pages == 4000 && c.flash_program_pages == 9500);
	/* nothing written by the host during a benchmark: no WAF (null), not 0 */
	at[R0_SCENARIO_AT_RANDWRITE] = at[R0_SCENARIO_AT_BENCH];
	at[R0_SCENARIO_AT_SEQWRITE] = at[R0_SCENARIO_AT_BENCH];
	cr_assert_eq(r0_scenario_cycle_set_counts(&c, at), 0);
	cr_expect(isnan(c.waf_randwrite) && isnan(c.waf_seqwrite));
	cr_expect_eq(c.waf_cycle, 1400 / 1000.0);
	/* a counter that went back (an SSD restarted): refused, C untouched */
	at[R0_SCENARIO_AT_SEQWRITE].gc_runs = 4;
	c.gc_runs = 77;
	cr_expect_eq(r0_scenario_cycle_set_counts(&c, at), -ERANGE);
	cr_expect_eq(c.gc_runs, 77);
}

static struct r0_bench_result test_of(enum r0_access access, unsigned read_pct, double runtime_s)
{
	struct r0_bench_result t = {
		.access = access, .read_pct = read_pct, .block_bytes = 4096, .queue_depth = 32, .jobs = 1,
		.runtime_s = runtime_s, .iops_median = 1643.9, .mb_per_s_median = 6.7345,
	};
	return t;
}

Test(scenariojson, figures_from_the_benchmarks)
{
	struct r0_bench_result rt = test_of(R0_ACCESS_RAND, 0, 5), st = test_of(R0_ACCESS_SEQ, 0, 5), two[2];
	struct r0_bench_doc rand = { .n_tests = 1, .tests = &rt }, seq = { .n_tests = 1, .tests = &st };
	struct r0_scenario_cycle c = { 0 };
	char why[160];

	st.mb_per_s_median = 6.63;
	cr_assert_eq(r0_scenario_cycle_set_bench(&c, &rand, &seq, why, sizeof(why)), 0, "%s", why);
	cr_expect(c.bench_s == 5 && c.randwrite_iops == 1643.9 && c.randwrite_mb_s == 6.7345 &&
		  c.seqwrite_mb_s == 6.63);

	/* the two documents swapped */
	cr_expect_eq(r0_scenario_cycle_set_bench(&c, &seq, &rand, why, sizeof(why)), -EINVAL);
	cr_expect_str_eq(why, "the random write benchmark's test is not a random write (sequential, 0 % reads)");
	/* a read test */
	rt.read_pct = 100;
	cr_expect_eq(r0_scenario_cycle_set_bench(&c, &rand, &seq, why, sizeof(why)), -EINVAL);
	rt.read_pct = 0;
	/* no median: no pass was counted */
	st.mb_per_s_median = NAN;
	cr_expect_eq(r0_scenario_cycle_set_bench(&c, &rand, &seq, why, sizeof(why)), -EINVAL);
	cr_expect_str_eq(why, "the sequential write benchmark's test has no median MB/s (no pass counted)");
	st.mb_per_s_median = 6.63;
	/* two runtimes: the record has one */
	st.runtime_s = 3;
	cr_expect_eq(r0_scenario_cycle_set_bench(&c, &rand, &seq, NULL, 0), -EINVAL);
	st.runtime_s = 5;
	/* two tests in one document */
	two[0] = two[1] = rt;
	rand.tests = two;
	rand.n_tests = 2;
	cr_expect_eq(r0_scenario_cycle_set_bench(&c, &rand, &seq, why, sizeof(why)), -EINVAL);
	cr_expect_str_eq(why, "the random write benchmark's document holds 2 tests, not one");
	cr_expect_eq(c.seqwrite_mb_s, 6.63, "untouched");
}

Test(scenariojson, append_then_load)
{
	char path[] = "/tmp/r0-unit-scen-XXXXXX";
	struct r0_scenario_cycle c = no_trim();
	struct r0_scenario s = { 0 };
	const struct r0_scenario_cycle *r;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "a");
	struct r0_sweep_damage d = { 9, 9, true };

	cr_assert_not_null(f);
	cr_expect_eq(r0_scenario_cycle_append(f, &c), 0);
	c.trim = true;
	c.cycle = 2;
	cr_expect_eq(r0_scenario_cycle_append(f, &c), 0);
	c.array[0] = 0;
	cr_expect_eq(r0_scenario_cycle_append(f, &c), -EINVAL, "nothing written");
	fclose(f);
	cr_assert_eq(r0_scenario_load(path, &s, &d), 0);
	unlink(path);
	cr_expect(!d.bad && !d.first_bad && !d.cut_tail);
	cr_expect_eq(s.n, 2);
	cr_expect_eq(s.max_cycle, 2);
	r = r0_scenario_find(&s, true, 2);
	cr_assert_not_null(r);
	cr_expect_eq(r->waf_randwrite, 5.504);
	r0_scenario_free(&s);
}

/* rows of one run pool; another name, size, member count, fill or benchmark length is another run */
Test(scenariojson, rows_of_another_run_are_told)
{
	struct r0_scenario_cycle a = { .scenario = "raid0-without-trim", .array = "r0s1", .members = 2, .ssd_mib = 128,
				       .fill_pct = 90, .bench_s = 5 };
	struct r0_scenario_cycle b = a;
	char why[96] = "";

	b.trim = true;
	b.cycle = 3;
	snprintf(b.array, sizeof(b.array), "r0s0");
	cr_expect(!r0_scenario_study_diff(&a, &b, why, sizeof(why)), "the other array, another cycle: one run");
	b.ssd_mib = 512;
	cr_expect(r0_scenario_study_diff(&a, &b, why, sizeof(why)));
	cr_expect_str_eq(why, "ssd_mib (128 vs 512)");
	b = a;
	b.members = 3;
	cr_expect(r0_scenario_study_diff(&a, &b, why, sizeof(why)) && strstr(why, "members"), "%s", why);
	b = a;
	snprintf(b.scenario, sizeof(b.scenario), "another");
	cr_expect(r0_scenario_study_diff(&a, &b, why, sizeof(why)) && strstr(why, "scenario"), "%s", why);
	b = a;
	b.bench_s = 10;
	cr_expect(r0_scenario_study_diff(&a, &b, why, sizeof(why)) && strstr(why, "bench_s"), "%s", why);
}

/* a cycle read twice (a resumed run) is named, once, with how many lines; the last is the one found */
Test(scenariojson, cycles_read_twice_are_named)
{
	struct r0_scenario_cycle rows[40];
	struct r0_scenario s = { .row = rows, .n = 4, .max_cycle = 1 };
	char buf[256];

	memset(rows, 0, sizeof(rows));
	for (size_t i = 0; i < 4; i++) {
		rows[i].trim = i % 2;
		rows[i].cycle = (unsigned)(i / 2);
		rows[i].randwrite_iops = (double)i;
	}
	cr_expect_eq(r0_scenario_repeated(&s, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "");
	rows[4] = rows[1];   /* cycle 0 with TRIM again, then twice more */
	rows[4].randwrite_iops = 40;
	rows[5] = rows[4];
	rows[5].randwrite_iops = 50;
	s.n = 6;
	cr_expect_eq(r0_scenario_repeated(&s, buf, sizeof(buf)), 1);
	cr_expect_str_eq(buf, "cycle 0 with TRIM (3 lines)");
	cr_expect_eq(r0_scenario_find(&s, true, 0)->randwrite_iops, 50, "the last line read");
	/* many: whole names while they fit, the rest counted */
	for (size_t i = 6; i < 40; i++) {
		rows[i] = rows[0];
		rows[i].trim = false;
		rows[i].cycle = (unsigned)(10 + (i - 6) / 2);
	}
	s.n = 40;
	s.max_cycle = 26;
	cr_expect_eq(r0_scenario_repeated(&s, buf, 120), 18);
	cr_expect_str_eq(buf, "cycle 0 with TRIM (3 lines), cycle 10 without TRIM (2 lines), cycle 11 without TRIM "
			      "(2 lines) and 15 more");
	/* too small for a name: the count alone; no room at all: nothing written */
	cr_expect_eq(r0_scenario_repeated(&s, buf, 40), 18);
	cr_expect_str_eq(buf, "18 cycles");
	buf[0] = 'x';
	cr_expect_eq(r0_scenario_repeated(&s, buf, 0), 18);
	cr_expect_eq(buf[0], 'x');
}

/* a number outside what the schema allows is a damaged line, never a figure (optional ones too) */
Test(scenariojson, an_impossible_figure_is_a_damaged_line)
{
	static const char *const from[] = { "\"randwrite_iops\":1643", "\"waf_cycle\":2.914", "\"fill_pct\":90",
					    "\"mapped_before_bench_pct\":100.0", "\"members\":2" };
	static const char *const to[] = { "\"randwrite_iops\":-7", "\"waf_cycle\":-1", "\"fill_pct\":250",
					  "\"mapped_before_bench_pct\":150", "\"members\":0" };
	struct r0_scenario_cycle r;

	cr_assert_eq(r0_scenario_cycle_parse(no_trim_line, &r), 0);
	for (size_t k = 0; k < sizeof(from) / sizeof(from[0]); k++) {
		char line[sizeof(no_trim_line) + 16];
		const char *at = strstr(no_trim_line, from[k]);

		cr_assert_not_null(at, "%s", from[k]);
		snprintf(line, sizeof(line), "%.*s%s%s", (int)(at - no_trim_line), no_trim_line, to[k],
			 at + strlen(from[k]));
		cr_expect_eq(r0_scenario_cycle_parse(line, &r), -EINVAL, "%s", to[k]);
	}
}
