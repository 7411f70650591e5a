// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/mix.h: the named mixes, mixes written out, workload classes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/mix.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u
#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

Test(mix, mix_parsing)
{
	struct r0_mix m;

	cr_expect_eq(r0_mix_parse("desktop", &m), 0);
	cr_expect_str_eq(m.name, "desktop");
	cr_expect_eq(r0_mix_parse("Seq read=2, 4K read=1", &m), 0);
	cr_expect_str_eq(m.name, "custom");
	cr_expect_eq(m.n, 2);
	cr_expect_str_eq(m.e[1].key, "4K read");
	cr_expect(NEAR(m.e[0].weight, 2));
	cr_expect_eq(r0_mix_parse("", &m), -EINVAL);
	cr_expect_eq(r0_mix_parse("office", &m), -EINVAL);
	/* well-formed but weighing nothing: -ERANGE, so the tool can say a weight must be above 0 */
	cr_expect_eq(r0_mix_parse("seq-read=-1", &m), -ERANGE);
	cr_expect_eq(r0_mix_parse("seq-read=0", &m), -ERANGE, "no weight at all");
	cr_expect_eq(r0_mix_parse("Seq read=0", &m), -ERANGE);
	cr_expect_eq(r0_mix_parse("Seq read=0,4K read=1", &m), 0, "one weight above 0 is enough");
	cr_expect_eq(r0_mix_parse("seq-read=1x", &m), -EINVAL);
	cr_expect_eq(r0_mix_parse("=1", &m), -EINVAL);
	/* a key given twice (a typo, or two shares for one thing) is refused, naming the second */
	cr_expect_eq(r0_mix_parse("seq-read=1,seq-write=2,Seq-Read=3", &m), -EEXIST);
	cr_expect_str_eq(m.e[m.n - 1].key, "Seq-Read");
	cr_expect_eq(r0_mix_parse("seq-read=1, seq-read=1", &m), -EEXIST);
	cr_expect_eq(r0_mix_parse("seq-read=0.5,seq-write=2.", &m), 0);
	cr_expect(NEAR(m.e[0].weight, 0.5) && NEAR(m.e[1].weight, 2));
}

/* a weight is r0_parse_double's number, 0 to R0_MIX_WEIGHT_MAX: no sum of weights overflows */
Test(mix, a_weight_is_a_plain_number_with_a_bound)
{
	static const char *const refused[] = { "seq-read= 1", "seq-read=+1", "seq-read=0x10", "seq-read=0x1p3",
					       "seq-read=1e2", "seq-read=inf", "seq-read=nan", "seq-read=1.2.3",
					       "seq-read=", "seq-read=-", "seq-read=--1" };
	struct r0_mix m;

	for (size_t i = 0; i < N(refused); i++)
		cr_expect_eq(r0_mix_parse(refused[i], &m), -EINVAL, "'%s'", refused[i]);
	cr_expect_eq(r0_mix_parse("seq-read=1e308,seq-write=1e308", &m), -EINVAL);
	cr_expect_eq(r0_mix_parse("seq-read=1000000000000000000000000000000,seq-write=1", &m), -EOVERFLOW);
	cr_expect_eq(r0_mix_parse("seq-read=1000001", &m), -EOVERFLOW);
	cr_expect_eq(r0_mix_parse("seq-read=1000000,seq-write=1000000", &m), 0, "at the bound");
	cr_expect_eq(r0_mix_parse("seq-read=-1,seq-write=1", &m), -ERANGE, "a weight below 0");
}

/* Every named mix parses, and its weights are shares of classes. */
Test(mix, named_mixes_weigh_classes)
{
	static const char *const names[] = { "desktop", "database", "sequential" };

	for (size_t i = 0; i < N(names); i++) {
		struct r0_mix m;
		double sum = 0;

		cr_assert_eq(r0_mix_parse(names[i], &m), 0, "%s", names[i]);
		cr_expect_str_eq(m.name, names[i]);
		for (size_t e = 0; e < m.n; e++) {
			cr_expect(!strncmp(m.e[e].key, "seq-", 4) || !strncmp(m.e[e].key, "rand-", 5),
				  "%s: %s", names[i], m.e[e].key);
			sum += m.e[e].weight;
		}
		cr_expect(NEAR(sum, 100), "%s: %g", names[i], sum);
	}
}

Test(mix, workload_classes)
{
	static const struct {
		enum r0_access access;
		unsigned read_pct;
		uint32_t bs;
		unsigned qd, jobs;
		const char *cls;
	} cases[] = {
		{ R0_ACCESS_SEQ, 100, 1024 * K, 1, 1, "seq-read" },
		{ R0_ACCESS_SEQ, 0, 128 * K, 8, 1, "seq-write" },
		{ R0_ACCESS_RAND, 100, 512 * K, 1, 1, "rand-large-read" },
		{ R0_ACCESS_RAND, 0, 64 * K, 1, 1, "rand-small-q1-write" },
		{ R0_ACCESS_RAND, 100, 4 * K, 2, 1, "rand-small-q1-read" },
		{ R0_ACCESS_RAND, 100, 4 * K, 1, 3, "rand-small-qd-read" },
		{ R0_ACCESS_RAND, 0, 4 * K, 32, 1, "rand-small-qd-write" },
		{ R0_ACCESS_RAND, 70, 4 * K, 1, 1, "mixed" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct r0_run r = { .access = cases[i].access, .read_pct = cases[i].read_pct,
					  .block_bytes = cases[i].bs, .queue_depth = cases[i].qd,
					  .jobs = cases[i].jobs };
		char cls[24];

		r0_workload_class(&r, cls, sizeof(cls));
		cr_expect_str_eq(cls, cases[i].cls, "case %zu", i);
	}
}

/* a study of Seq read and 4K QD32 write: one record of each */
static void study(struct r0_run r[2])
{
	memset(r, 0, 2 * sizeof(*r));
	r[0] = (struct r0_run){ .access = R0_ACCESS_SEQ, .read_pct = 100, .block_bytes = 1024 * K,
				      .queue_depth = 1, .jobs = 1, .repeat = 1 };
	snprintf(r[0].label, sizeof(r[0].label), "Seq");
	r[1] = (struct r0_run){ .access = R0_ACCESS_RAND, .read_pct = 0, .block_bytes = 4 * K,
				      .queue_depth = 32, .jobs = 1, .repeat = 1 };
	snprintf(r[1].label, sizeof(r[1].label), "4K QD32");
}

/* A mix as given, and what r0_mix_check says of it: its result and the entry it names (-1: none). */
struct spec_case {
	const char *spec;
	int err;
	long bad;
};

/* Every case of CASES[0..n) parsed and checked against the study R. */
static void expect_checks(const struct r0_run *r, const struct spec_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct r0_mix m;
		size_t bad = 99;

		cr_assert_eq(r0_mix_parse(cases[i].spec, &m), 0, "%s", cases[i].spec);
		cr_expect_eq(r0_mix_check(&m, r, 2, &bad), cases[i].err, "%s", cases[i].spec);
		if (cases[i].bad >= 0)
			cr_expect_eq(bad, (size_t)cases[i].bad, "%s: entry %zu", cases[i].spec, bad);
	}
}

/*
 * A key that is neither a class nor a workload of the study is a typo
 * whose share would silently go nowhere: refused, its index given. A
 * workload's own name counts, in any case, as the weights are matched; a
 * named mix weighs classes only.
 */
Test(mix, a_key_that_names_nothing_is_found)
{
	static const struct spec_case cases[] = {
		{ "seq-read=1,rand-smal-q1-read=9", -ENOENT, 1 }, { "foo=1", -ENOENT, 0 },
		{ "Seq-Read=1,4k qd32 write=2,rand-large-read=1", 0, -1 }, { "desktop", 0, -1 },
	};
	struct r0_run r[2];

	study(r);
	expect_checks(r, cases, sizeof(cases) / sizeof(cases[0]));
	cr_expect(r0_mix_is_class("replay") && r0_mix_is_class("app-start-busy") && !r0_mix_is_class("fs"));
	cr_expect(strstr(r0_mix_classes(), "rand-small-qd-write"));
}

/*
 * A name takes precedence over its class: a class whose every workload is
 * named has its share go to none of them, refused whichever comes first.
 * A share of 0 is lost nowhere; a class with a workload left unnamed
 * (Seq read takes seq-read's share), or not measured at all (said
 * elsewhere), is no such loss.
 */
Test(mix, a_class_whose_workloads_are_all_named_is_found)
{
	static const struct spec_case cases[] = {
		{ "seq-read=1,Seq read=3", -ENOTUNIQ, 0 }, { "4K QD32 write=2,Seq read=1,SEQ-READ=1", -ENOTUNIQ, 2 },
		{ "seq-read=0,Seq read=3", 0, -1 }, { "seq-read=1,4K QD32 write=3", 0, -1 },
		{ "rand-large-read=1,Seq read=3", 0, -1 },
	};
	struct r0_run r[2];

	study(r);
	expect_checks(r, cases, sizeof(cases) / sizeof(cases[0]));
}

/* A known class the study did not measure is allowed, and said with its share of the mix. */
Test(mix, a_class_not_measured_is_said_with_its_share)
{
	struct r0_run r[2];
	struct r0_mix m;
	char buf[512];
	double share = -1;

	study(r);
	cr_assert_eq(r0_mix_parse("seq-read=15,rand-small-qd-write=80,rand-small-qd-read=5", &m), 0);
	cr_expect_eq(r0_mix_unmeasured(&m, r, 2, buf, sizeof(buf), &share), 1);
	cr_expect_str_eq(buf, "rand-small-qd-read: 5 % of the mix, no workload of that class measured");
	cr_expect_float_eq(share, 0.05, 1e-12);
	cr_assert_eq(r0_mix_parse("seq-read=1,rand-small-qd-write=1", &m), 0);
	cr_expect_eq(r0_mix_unmeasured(&m, r, 2, buf, sizeof(buf), &share), 0);
	cr_expect_str_eq(buf, "");
	cr_expect_eq(share, 0);
	cr_assert_eq(r0_mix_parse("sequential", &m), 0);   /* seq-read=45,seq-write=30,rand-large-read=15,rand-large-write=10 */
	cr_expect_eq(r0_mix_unmeasured(&m, r, 2, buf, sizeof(buf), NULL), 3);
	cr_expect(strstr(buf, "seq-write: 30 % of the mix") && strstr(buf, "; rand-large-write: 10 % of the mix"), "%s",
		  buf);
}

/* Amdahl's law: the shares of one drive's time over the speed-ups. */
Test(mix, time_speedup)
{
	const double w[] = { 55, 45, 0 }, s[] = { 1, 2, 0 }, bad[] = { 1, 0, 1 };

	cr_expect(fabs(r0_mix_time_speedup(w, s, 3) - 1 / (0.55 + 0.45 / 2)) < 1e-12);
	cr_expect(isnan(r0_mix_time_speedup(w, bad, 3)), "a weighted speed-up of 0 is no time");
	cr_expect(isnan(r0_mix_time_speedup(w, s, 0)));
}

/* everyday weighs one run of each scenario; the block mixes are time already */
Test(mix, per_request_mixes)
{
	struct r0_mix m;

	cr_assert_eq(r0_mix_parse("everyday", &m), 0);
	cr_expect(m.per_request);
	cr_assert_eq(r0_mix_parse("desktop", &m), 0);
	cr_expect_not(m.per_request);
	cr_assert_eq(r0_mix_parse("seq-read=1", &m), 0);
	cr_expect_not(m.per_request);
}
