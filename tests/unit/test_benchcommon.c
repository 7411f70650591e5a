// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/benchcommon.h: r0bench tests compared only where they measured the same. */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/benchcommon.h"

static struct r0_bench_result test(const char *label, enum r0_access acc, unsigned read_pct, uint32_t bs, unsigned qd)
{
	struct r0_bench_result r;

	memset(&r, 0, sizeof(r));
	snprintf(r.label, sizeof(r.label), "%s", label);
	r.access = acc;
	r.read_pct = read_pct;
	r.block_bytes = bs;
	r.queue_depth = qd;
	r.jobs = 1;
	return r;
}

Test(benchcommon, same_test_is_what_was_measured)
{
	struct r0_bench_result a = test("RND4K Q1T1", R0_ACCESS_RAND, 100, 4096, 1), b = a;

	cr_expect(r0_bench_same_test(&a, &b));
	snprintf(b.label, sizeof(b.label), "another label");
	cr_expect(r0_bench_same_test(&a, &b), "a label is no measurement");
	b = a;
	b.block_bytes = 65536;
	cr_expect(!r0_bench_same_test(&a, &b), "another block size");
	b = a;
	b.queue_depth = 32;
	cr_expect(!r0_bench_same_test(&a, &b), "another depth");
	b = a;
	b.read_pct = 0;
	cr_expect(!r0_bench_same_test(&a, &b), "another direction");
	b = a;
	b.trim = a.trim = true;
	cr_expect(!r0_bench_same_test(&a, &b), "discards are compared with nothing");
}

Test(benchcommon, a_test_in_words)
{
	struct r0_bench_result r = test("SEQ1M Q8T1", R0_ACCESS_SEQ, 0, 1024 * 1024, 8);
	char n[160];

	r0_bench_test_name(&r, n, sizeof(n));
	cr_expect_str_eq(n, "SEQ1M Q8T1 write (seq 1M QD8 T1)");
	/* r0bench's label for a test given by --rw names the direction already */
	r = test("randread", R0_ACCESS_RAND, 100, 4096, 1);
	r0_bench_test_name(&r, n, sizeof(n));
	cr_expect_str_eq(n, "randread (random 4K QD1 T1)");
	r = test("randrw", R0_ACCESS_RAND, 70, 4096, 4);
	r0_bench_test_name(&r, n, sizeof(n));
	cr_expect_str_eq(n, "randrw rw70 (random 4K QD4 T1)");
}

/* Files of 4K QD1 and 64K QD1 (issue 45.7): nothing in common, refused with each file's tests named. */
Test(benchcommon, none_in_common_names_the_tests)
{
	struct r0_bench_result t1[2] = { test("4K QD1", R0_ACCESS_RAND, 100, 4096, 1),
					 test("4K QD1", R0_ACCESS_RAND, 0, 4096, 1) };
	struct r0_bench_result t2[1] = { test("64K QD1", R0_ACCESS_RAND, 100, 65536, 1) };
	struct r0_bench_result t3[1] = { test("4K", R0_ACCESS_RAND, 100, 4096, 1) };
	struct r0_bench_doc d[3];
	const char *names[3] = { "a.json", "b.json", "c.json" };
	char why[1024];

	memset(d, 0, sizeof(d));
	d[0].tests = t1, d[0].n_tests = 2;
	d[1].tests = t2, d[1].n_tests = 1;
	d[2].tests = t3, d[2].n_tests = 1;
	cr_expect_eq(r0_bench_common_tests(d, 2), 0);
	cr_assert_eq(r0_bench_none_common(d, names, 2, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "a.json: 4K QD1 read (random 4K QD1 T1), 4K QD1 write (random 4K QD1 T1); "
			      "b.json: 64K QD1 read (random 64K QD1 T1)");
	/* a file with a test of another label but the same measurement has one in common */
	d[1] = d[2];
	cr_expect_eq(r0_bench_common_tests(d, 2), 1);
	cr_expect_eq(r0_bench_none_common(d, names, 2, why, sizeof(why)), 0);
	cr_expect_str_empty(why);
	/* one file compares nothing and is no refusal */
	cr_expect_eq(r0_bench_none_common(d, names, 1, why, sizeof(why)), 0);
}

/* A grid of many tests: the first 8 named, then how many more. */
Test(benchcommon, many_tests_named_in_short)
{
	struct r0_bench_result many[11], one = test("64K", R0_ACCESS_SEQ, 0, 65536, 1);
	struct r0_bench_doc d[2];
	const char *names[2] = { "grid.json", "one.json" };
	char why[2048];

	for (unsigned i = 0; i < 11; i++)
		many[i] = test("4K", R0_ACCESS_RAND, 100, 4096, i + 1);
	memset(d, 0, sizeof(d));
	d[0].tests = many, d[0].n_tests = 11;
	d[1].tests = &one, d[1].n_tests = 1;
	cr_assert_eq(r0_bench_none_common(d, names, 2, why, sizeof(why)), 1);
	cr_expect_not_null(strstr(why, "grid.json: 4K read (random 4K QD1 T1), 4K read (random 4K QD2 T1), "), "%s", why);
	cr_expect_not_null(strstr(why, ", 4K read (random 4K QD8 T1) and 3 more; one.json: 64K write (seq 64K QD1 T1)"),
			   "%s", why);
	cr_expect_null(strstr(why, "QD9"), "%s", why);
}
