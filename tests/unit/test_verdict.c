// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/study/verdict.c through r0_analyse: the words for each
 * answer, the verdict when nothing can be compared, the list of repeats
 * left out. The words about ties, picks, shared limits and the members to
 * build are checked beside their judgements in test_ranking.c.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "sweeprows.h"

Test(verdict_words, answer_names)
{
	cr_expect_str_eq(r0_answer_name(R0_ANSWER_WORTH), "worth it");
	cr_expect_str_eq(r0_answer_name(R0_ANSWER_NOT), "not worth it");
	cr_expect_str_eq(r0_answer_name(R0_ANSWER_UNSURE), "could not tell");
	cr_expect_str_eq(r0_answer_name(R0_ANSWER_CPU), "could not tell: the measuring CPU was the limit");
	cr_expect_str_eq(r0_answer_name(R0_ANSWER_NONE), "no data");
}

/* A single drive alone: nothing to compare, said in the headline and the verdict. */
Test(verdict_words, no_stripe_no_verdict)
{
	static const struct row raw[] = {
		{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 98, 102 } },
	};
	static const char none[] = "No verdict: the results hold no RAID0 of 2 or more drives, only single drives (a study cut short, or not yet past its first targets).";
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	load_rows(raw, N(raw), &set);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(!a.has_choice);
	cr_expect_str_eq(a.verdict, none);
	cr_expect_str_eq(a.detail, none);
	cr_expect_str_empty(a.chunks);
	cr_expect_not_null(strstr(a.reasoning, "- Baseline: one drive measured raw (no array layer);"), "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/*
 * Twenty chunks, one ahead and nineteen losing: the losers named while they
 * fit, the rest counted, and the pick said whole at the end (a long list
 * once cut it off).
 */
Test(verdict_words, many_losers_never_cut_the_pick)
{
	struct row rows[21];
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const char *end;

	rows[0] = (struct row){ R0_LAYER_RAW, 0, 1, "SEQ1M Q8T1 big-file copy", R0_ACCESS_SEQ, M, 1, 100, { 100, 100, 100, 100 } };
	for (unsigned k = 0; k < 20; k++) {
		double v = k == 7 ? 195 : 120 - k;

		rows[k + 1] = (struct row){ k % 2 ? R0_LAYER_DM : R0_LAYER_MD, (4u << (k / 2)) * K, 2, "SEQ1M Q8T1 big-file copy",
					    R0_ACCESS_SEQ, M, 1, 100, { v, v * 1.01, v * 0.99, v } };
	}
	load_rows(rows, N(rows), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_assert_eq(a.n_choice, 20);
	cr_expect_not_null(strstr(a.chunks, " more lose or are too noisy to tell (each in the reasoning's candidates"),
			   "%s", a.chunks);
	end = strstr(a.chunks, "; pick ");
	cr_expect(end && !strchr(end + 7, ';') && strstr(end, "dm 32K"), "%s", a.chunks);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/* Every repeat left out is named, the raw drive's without a geometry, in the order read. */
Test(verdict_words, repeats_left_out_are_listed)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++) {
		struct r0_run *r = &set.recs[i];

		if (r->layer == R0_LAYER_RAW && r->repeat == 1)
			r->errors = 2;
		if (r->chunk_bytes == 512 * K && r->repeat == 4)
			r->ios = 0;
	}
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_eq(a.n_excluded, 2);
	cr_expect_not_null(strstr(a.reasoning, "- Left out of every median (I/O errors, or no request completed in the "
					       "window): raw Seq read repeat 1 (2 errors); md 3 x 512K Seq read repeat 4 "
					       "(no request completed).\n"), "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}
