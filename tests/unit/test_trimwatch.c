// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of lib/trim/trimwatch.c: what a history of discard counters shows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimwatch.h"

#define GiB (1ull << 21)   /* in sectors */

static void rec(struct r0_watch_rec *r, int64_t t, const char *boot, uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t v[3] = { a, b, c };

	memset(r, 0, sizeof(*r));
	r->time = t;
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", boot);
	r->n = 3;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(r->name[i], sizeof(r->name[i]), "nvme%un1", i);
		snprintf(r->serial[i], sizeof(r->serial[i]), "S%u", i);
		r->sectors[i] = v[i];
	}
}

static const double third[3] = { 1.0 / 3, 1.0 / 3, 1.0 / 3 };

Test(trimwatch, first_idle_and_pass)
{
	struct r0_watch_rec r[3];
	struct r0_watch_judgement j;

	rec(&r[0], 1000, "b1", 10, 10, 10);
	cr_assert_eq(r0_watch_judge(r, 1, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_FIRST);
	rec(&r[1], 2000, "b1", 10, 10, 10);
	cr_assert_eq(r0_watch_judge(r, 2, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_IDLE);
	rec(&r[2], 3000, "b1", 10 + GiB, 10 + GiB + 100, 10 + GiB - 100);
	cr_assert_eq(r0_watch_judge(r, 3, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_PASS, "%s", r0_watch_verdict_name(j.verdict));
	cr_expect_eq(j.n_intervals, 2);
	cr_expect_eq(j.total[1], GiB + 100);
	cr_expect(fabs(j.share[0] - 1.0 / 3) < 1e-3);
	cr_expect_eq(r0_watch_judge(r, 0, third, &j), -EINVAL);
	{
		const double bad[3] = { 0.5, 0.5, 0.5 };
		cr_expect_eq(r0_watch_judge(r, 3, bad, &j), -EINVAL);
	}
}

/* nvme2n1 got nothing after the second record while the others got a GiB each: stopped since then */
Test(trimwatch, a_device_that_stopped)
{
	struct r0_watch_rec r[4];
	struct r0_watch_judgement j;

	rec(&r[0], 1000, "b1", 0, 0, 0);
	rec(&r[1], 2000, "b1", GiB, GiB, GiB);
	rec(&r[2], 3000, "b1", 2 * GiB, 2 * GiB, GiB);
	rec(&r[3], 4000, "b1", 3 * GiB, 3 * GiB, GiB);
	cr_assert_eq(r0_watch_judge(r, 4, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_STOPPED);
	cr_expect_eq(j.stopped_since[2], 2000);
	cr_expect_eq(j.others_since[2], 4 * GiB);
	cr_expect(!j.stopped_since[0] && !j.stopped_since[1]);
	/* a little for the others (under 1 MiB of its share): not yet a stop */
	rec(&r[2], 3000, "b1", GiB + 1000, GiB + 1000, GiB);
	cr_assert_eq(r0_watch_judge(r, 3, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_PASS, "%s", r0_watch_verdict_name(j.verdict));
}

/* After a reboot the counters start at 0: what was counted since it is what the interval shows. */
Test(trimwatch, reboots_and_a_new_array)
{
	struct r0_watch_rec r[4];
	struct r0_watch_judgement j;

	rec(&r[0], 1000, "b1", 5 * GiB, 5 * GiB, 5 * GiB);
	rec(&r[1], 2000, "b2", GiB, GiB, GiB);
	cr_assert_eq(r0_watch_judge(r, 2, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_PASS);
	cr_expect_eq(j.boots, 1);
	cr_expect_eq(j.total[0], GiB);
	/* another drive in the array (a new serial): its history starts again */
	rec(&r[2], 3000, "b2", 2 * GiB, 2 * GiB, 2 * GiB);
	snprintf(r[2].serial[2], sizeof(r[2].serial[2]), "NEW");
	cr_assert_eq(r0_watch_judge(r, 3, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_FIRST);
	cr_expect_eq(j.first, 2);
	/* renamed at a boot (nvme0n1 now nvme2n1) but the same serials: the same history */
	rec(&r[3], 4000, "b3", GiB, GiB, GiB);
	snprintf(r[3].serial[2], sizeof(r[3].serial[2]), "NEW");
	snprintf(r[3].name[0], sizeof(r[3].name[0]), "nvme9n1");
	cr_assert_eq(r0_watch_judge(r, 4, third, &j), 0);
	cr_expect_eq(j.first, 2);
	cr_expect_eq(j.verdict, R0_WATCH_PASS);
}

/* Every device received some, but one got half: a drift from the geometry's thirds. */
Test(trimwatch, shares_that_drift)
{
	struct r0_watch_rec r[2];
	struct r0_watch_judgement j;

	rec(&r[0], 1000, "b1", 0, 0, 0);
	rec(&r[1], 2000, "b1", 2 * GiB, GiB, GiB);
	cr_assert_eq(r0_watch_judge(r, 2, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_DRIFT);
	cr_expect(fabs(j.share[0] - 0.5) < 1e-9);
	/* the same split is what a geometry of 50/25/25 predicts */
	{
		const double half[3] = { 0.5, 0.25, 0.25 };
		cr_assert_eq(r0_watch_judge(r, 2, half, &j), 0);
		cr_expect_eq(j.verdict, R0_WATCH_PASS);
	}
	/* too little in all to judge shares */
	rec(&r[1], 2000, "b1", 2000, 1000, 1000);
	cr_assert_eq(r0_watch_judge(r, 2, third, &j), 0);
	cr_expect_eq(j.verdict, R0_WATCH_PASS);
}

/* What r0trim states (text and -J) and its exit status, for each verdict. */
Test(trimwatch, verdict_labels_and_passes)
{
	static const struct { enum r0_watch_verdict v; const char *label; bool passes; } t[] = {
		{ R0_WATCH_FIRST, "BASELINE RECORDED", false },
		{ R0_WATCH_IDLE, "NOT CONCLUSIVE", false },
		{ R0_WATCH_PASS, "PASS", true },
		{ R0_WATCH_DRIFT, "PASS with DRIFT", true },
		{ R0_WATCH_STOPPED, "FAIL", false },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cr_expect_str_eq(r0_watch_verdict_label(t[i].v), t[i].label, "%s", r0_watch_verdict_name(t[i].v));
		cr_expect_eq(r0_watch_passes(t[i].v), t[i].passes, "%s", r0_watch_verdict_name(t[i].v));
	}
	cr_expect_str_eq(r0_watch_verdict_label((enum r0_watch_verdict)99), "?");
	cr_expect(!r0_watch_passes((enum r0_watch_verdict)99));
}

/* The drift bound, relative to the predicted share: 25 % of a third is 8.3 points. */
Test(trimwatch, share_drifts)
{
	static const struct { double share, predicted; bool drifts; } t[] = {
		{ 1.0 / 3, 1.0 / 3, false },
		{ 0.40, 1.0 / 3, false },       /* 20 % over */
		{ 0.42, 1.0 / 3, true },        /* 26 % over */
		{ 0.24, 1.0 / 3, true },        /* 28 % under */
		{ 0.60, 0.50, false },
		{ 0.0, 0.50, true },
		{ 0.5, 0.0, false },            /* nothing predicted: no share to be off */
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect_eq(r0_watch_share_drifts(t[i].share, t[i].predicted), t[i].drifts, "case %zu: %g of %g", i,
			     t[i].share, t[i].predicted);
}
