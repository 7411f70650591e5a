// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimresult.h: a TRIM run's check lines, their tally and the verdict from the evidence. */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimresult.h"

/* Three bottom devices sda, sdb, sdc right under a 3-member md raid0 whose geometry matches. */
static struct r0_trim_device three(void)
{
	struct r0_trim_device t;

	memset(&t, 0, sizeof(t));
	t.n_members = 3;
	t.geometry_matches = true;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(t.members[i].kname, R0_KNAME_LEN, "sd%c", 'a' + i);
		snprintf(t.members[i].reads_why, sizeof(t.members[i].reads_why), "no promise");
	}
	return t;
}

/* One discard of 8 sectors a device: delivered to each where DELIVERED[i], none arriving elsewhere. */
static void discard(struct r0_trim_result *res, const bool delivered[3])
{
	struct r0_trim_member_result m[3];

	for (unsigned i = 0; i < 3; i++)
		m[i] = (struct r0_trim_member_result){
			.expected_sectors = 8, .observed_sectors = delivered[i] ? 8 : 0, .conclusive = true,
			.verdict = delivered[i] ? R0_CHECK_OK : R0_CHECK_FAIL,
		};
	r0_trim_evidence_delivery(&res->ev, 3, m);
}

Test(trimresult, lines_and_their_tally)
{
	struct r0_trim_result res = { 0 };

	cr_assert_eq(r0_trim_result_add(&res, "geometry", R0_CHECK_OK, "model 6144 sectors"), 0);
	cr_assert_eq(r0_trim_result_add(&res, "quiet", R0_CHECK_NOT_CONCLUSIVE, "the members are busy"), 0);
	cr_assert_eq(r0_trim_result_add(&res, "layout", R0_CHECK_NOT_CHECKABLE, "no md"), 0);
	/* a doubt or a check that cannot run says nothing against the run yet */
	cr_expect_eq(res.overall, R0_CHECK_OK);
	cr_expect_str_eq(res.first_fail, "");
	cr_expect_str_eq(res.first_nc, "quiet: the members are busy");
	cr_assert_eq(r0_trim_result_add(&res, "delivery", R0_CHECK_FAIL, "sdb received 0 of 8 sectors"), 0);
	cr_assert_eq(r0_trim_result_add(&res, "effect", R0_CHECK_FAIL, "later"), 0);
	cr_assert_eq(r0_trim_result_add(&res, "quiet", R0_CHECK_NOT_CONCLUSIVE, "again"), 0);
	cr_assert_eq(r0_trim_result_add(&res, "fill", R0_CHECK_OK, "back"), 0);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	cr_expect_str_eq(res.first_fail, "delivery: sdb received 0 of 8 sectors");
	cr_expect_str_eq(res.first_nc, "quiet: the members are busy");
	cr_assert_eq(res.n_lines, 7);
	cr_expect_str_eq(res.lines[0].check, "geometry");
	cr_expect_str_eq(res.lines[3].detail, "sdb received 0 of 8 sectors");
	cr_expect_eq(res.lines[3].verdict, R0_CHECK_FAIL);
	cr_expect_eq(res.lines[6].verdict, R0_CHECK_OK);
	/* a check's name is cut to its field, not past it */
	cr_assert_eq(r0_trim_result_add(&res, "a-very-long-check-name", R0_CHECK_OK, ""), 0);
	cr_expect_str_eq(res.lines[7].check, "a-very-long");
	r0_trim_result_free(&res);
	cr_expect_eq(res.n_lines, 0);
	cr_expect_null(res.lines);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
}

Test(trimresult, every_device_delivered_passes)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	const bool all[3] = { true, true, true };

	discard(&res, all);
	res.delivery_pass = 1;
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_OK, "%s", res.first_fail);
	cr_expect(res.judged);
	cr_expect_str_eq(res.levels, "sda delivered, sdb delivered, sdc delivered");
	/* deallocated asked: none promises what a discarded block reads, so none showed it */
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DEALLOCATED);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	cr_expect(strstr(res.first_fail, "bottom device sda: delivered; read-back not checkable") &&
		  strstr(res.first_fail, "(--require deallocated)"), "%s", res.first_fail);
}

/*
 * A run a signal cut short shows nothing about what was not run (cycles
 * over repeated use): every device delivered so far is no PASS, and no
 * "no" either; a failure seen before the signal stays the finding.
 */
Test(trimresult, a_run_cut_short_is_not_conclusive)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	const bool all[3] = { true, true, true };

	discard(&res, all);
	res.delivery_pass = 119;
	cr_assert_eq(r0_trim_result_add(&res, "cycle", R0_CHECK_NOT_CONCLUSIVE, "interrupted by a signal"), 0);
	res.cut_short = true;
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_NOT_CONCLUSIVE, "%s", res.first_fail);
	cr_expect(strstr(res.first_fail, "interrupted by a signal"), "%s", res.first_fail);
	cr_assert_eq(r0_trim_result_add(&res, "cycle", R0_CHECK_FAIL, "sdb: 0 of 8192 sectors"), 0);
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	r0_trim_result_free(&res);
}

Test(trimresult, a_device_that_got_no_discards_fails)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	const bool not_b[3] = { true, false, true };

	/* the range's own line may have been lost: the evidence alone says no */
	discard(&res, not_b);
	res.delivery_pass = 1;
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	cr_expect_str_eq(res.first_fail, "bottom device sdb: not delivered: 1 discard fell short");
	cr_expect_str_eq(res.levels, "sda delivered, sdb not shown, sdc delivered");
	/* a failure already named stays the reason */
	memset(&res, 0, sizeof(res));
	discard(&res, not_b);
	res.delivery_pass = 1;
	cr_assert_eq(r0_trim_result_add(&res, "limits", R0_CHECK_FAIL, "sdb takes no discards"), 0);
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	cr_expect_str_eq(res.first_fail, "limits: sdb takes no discards");
	r0_trim_result_free(&res);
}

Test(trimresult, a_device_never_shown_is_not_conclusive)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	struct r0_trim_member_result m[3] = {
		{ .expected_sectors = 8, .observed_sectors = 8, .conclusive = true, .verdict = R0_CHECK_OK },
		{ .expected_sectors = 0, .observed_sectors = 0, .conclusive = true, .verdict = R0_CHECK_OK },
		{ .expected_sectors = 8, .observed_sectors = 8, .conclusive = true, .verdict = R0_CHECK_OK },
	};

	/* sdb was never sent a share: nothing failed, nothing was shown there */
	r0_trim_evidence_delivery(&res.ev, 3, m);
	res.delivery_pass = 1;
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_str_eq(res.first_fail, "bottom device sdb: no conclusive delivery");
}

Test(trimresult, a_broken_promise_is_the_reason)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	const bool all[3] = { true, true, true };
	struct r0_trim_effect e;

	memset(&e, 0, sizeof(e));
	t.members[2].reads = R0_READS_ZEROES;
	snprintf(t.members[2].reads_why, sizeof(t.members[2].reads_why), "NVMe DLFEAT=1");
	discard(&res, all);
	e.leaf_discarded_bad[2] = 8;
	r0_trim_evidence_effect(&res.ev, 3, &e);
	res.delivery_pass = 1;
	cr_assert_eq(r0_trim_result_add(&res, "limits", R0_CHECK_FAIL, "granularity"), 0);
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_FAIL);
	cr_expect(strstr(res.first_fail, "bottom device sdc: the drive completed the discard but still returns the old data"),
		  "%s", res.first_fail);
	r0_trim_result_free(&res);
}

Test(trimresult, without_a_conclusive_delivery_no_pass)
{
	struct r0_trim_device t = three();
	struct r0_trim_result res = { 0 };
	const bool all[3] = { true, true, true };

	/* the file system mode judges its own cycles: the evidence is not weighed */
	discard(&res, all);
	r0_trim_result_judge(&res, &t, true, R0_LEVEL_DELIVERED);
	cr_expect_not(res.judged);
	cr_expect_str_eq(res.levels, "");
	cr_expect_eq(res.overall, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_str_eq(res.first_fail, "no check could show a discard arriving");
	/* the first doubt is the reason, when there was one */
	cr_assert_eq(r0_trim_result_add(&res, "quiet", R0_CHECK_NOT_CONCLUSIVE, "busy"), 0);
	res.overall = R0_CHECK_OK;
	r0_trim_result_judge(&res, &t, true, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_NOT_CONCLUSIVE);
	cr_expect_str_eq(res.first_fail, "quiet: busy");
	/* a cycle that passed is enough there */
	res.overall = R0_CHECK_OK;
	res.delivery_pass = 1;
	r0_trim_result_judge(&res, &t, true, R0_LEVEL_DELIVERED);
	cr_expect_eq(res.overall, R0_CHECK_OK);
	/* a geometry that does not match the kernel's: the evidence is not weighed either */
	t.geometry_matches = false;
	memset(&res.ev, 0, sizeof(res.ev));
	r0_trim_result_judge(&res, &t, false, R0_LEVEL_DELIVERED);
	cr_expect_not(res.judged);
	cr_expect_eq(res.overall, R0_CHECK_OK);
	r0_trim_result_free(&res);
}
