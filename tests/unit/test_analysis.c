// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/study/analysis.c through r0_analyse: cells and their
 * statistics, speed-ups against the baseline (raw, else 1-member stripes),
 * the CPU limit, repeats left out, predicted cells, too few repeats.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "sweeprows.h"

/* Seq 100 MB/s alone; 2 members 190 (1.9x), 3 members 270 (2.7x). */
static const struct row scaling[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 98, 102 } },
	{ R0_LAYER_MD, 64 * K, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 97, 96, 98 } },
	{ R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 190, 188, 192 } },
	{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 270, 265, 272 } },
	{ R0_LAYER_RAW, 0, 1, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 40, 41, 39 } },
	{ R0_LAYER_MD, 64 * K, 3, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 38, 37, 39 } },
};

Test(analysis, speedup_and_efficiency)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;
	size_t seq, q1;

	load_rows(scaling, N(scaling), &set);
	cr_assert_eq(set.n, 18);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_eq(a.max_members, 3);
	cr_expect_eq(a.repeats, 3);
	seq = wl_index(&a, "Seq read");
	q1 = wl_index(&a, "4K read");
	cr_expect_str_eq(a.wl[seq].cls, "seq-read");
	cr_expect_str_eq(a.wl[q1].cls, "rand-small-q1-read");
	cr_expect(a.wl[seq].base_raw);
	cr_expect(NEAR(a.wl[seq].base.med, 100e6));

	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 2, seq);
	cr_assert_not_null(c);
	cr_expect(NEAR(c->speedup.med, 1.9), "%f", c->speedup.med);
	/* the interval holds both sides' noise (188-192 over a baseline of 98-102), widened by
	 * Student's t for 3 repeats a side */
	cr_expect(c->speedup.min < 1.9 && c->speedup.min > 1.8, "%f", c->speedup.min);
	cr_expect(c->speedup.max > 1.9 && c->speedup.max < 2.0, "%f", c->speedup.max);
	cr_expect(!c->vs_base.indicative && c->vs_base.beyond_noise);
	cr_expect(NEAR(c->efficiency, 0.95));
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, seq);
	cr_expect(fabs(c->speedup.med - 2.7) < 0.02 && NEAR(c->efficiency, c->speedup.med / 3), "%f",
		  c->speedup.med);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 1, seq);
	cr_expect(NEAR(c->speedup.med, 0.97), "the layer's own cost shows at 1 member");
	/* the raw cell is the single drive; a 1-member stripe beside it is compared with it */
	cr_expect(r0_analysis_is_baseline(&a, r0_analysis_cell(&a, R0_LAYER_RAW, 0, 1, seq)));
	cr_expect(!r0_analysis_is_baseline(&a, c));
	cr_expect(!r0_analysis_is_baseline(&a, r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, seq)));
	/* every run used: no file records passes here, each repeat stands for its pass */
	cr_assert_eq(a.n_run, set.n);
	for (size_t i = 0; i < a.n_run; i++)
		cr_expect_eq(a.run_use[i], R0_RUN_USED, "record %zu", i);
	cr_expect(!a.passes);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect(NEAR(c->speedup.med, 0.95));
	cr_expect_null(r0_analysis_cell(&a, R0_LAYER_DM, 64 * K, 3, q1));
	/* the sequential mix weighs only Seq read here: worth it; 4K read is not */
	cr_expect(a.worth);
	cr_expect_not_null(strstr(a.detail, "RAID0 of these 3 drives: worth it for Seq read (2.69x, 2.63-2.75); not for 4K read (0.95x, 0.91-0.99). Chunk: md 64K is the best under the sequential mix; pick md 64K. Under the sequential mix md 64K is 2.69x a single drive (2.63-2.75): worth it."),
			   "%s", a.detail);
	cr_expect_eq(strncmp(a.method, "Each comparison is the ratio of the two sides' mean bytes/s", 59), 0,
		     "%s", a.method);
	cr_expect_null(strstr(a.reasoning, "CPU-bound"), "%s", a.reasoning);
	r0_analysis_free(&a);

	/* the 3-member array's 4K reads with the measuring thread 90 % busy */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].n_members == 3 && set.recs[i].block_bytes == 4 * K)
			set.recs[i].cpu_s_per_io = 0.9 / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect(fabs(c->cpu_busy - 0.9) < 1e-9, "%f", c->cpu_busy);
	cr_expect_not_null(strstr(a.reasoning, "- 4K read is CPU-bound: the measuring thread was busy 90% of the time on the 3-member array and 2% on the single drive;"),
			   "%s", a.reasoning);
	cr_expect_null(strstr(a.reasoning, "Seq read is CPU-bound"));
	/* CPU-bound: could not tell, not "not worth it" */
	cr_expect_eq(c->answer, R0_ANSWER_CPU);
	cr_expect_not_null(strstr(a.detail, "; could not tell for 4K read (0.95x, 0.91-0.99) (the measuring CPU was the limit)."),
			   "%s", a.detail);
	cr_expect_null(strstr(a.detail, "not for 4K read"), "%s", a.detail);
	r0_analysis_free(&a);

	/* the array's Seq read 90 % busy but 2.7x beyond noise: worth it, a lower bound */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].n_members == 3)
			set.recs[i].cpu_s_per_io = 0.9 / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, seq);
	cr_expect_eq(c->answer, R0_ANSWER_WORTH, "%s", a.detail);
	cr_expect_not_null(strstr(a.reasoning, "- Seq read: the measuring thread was busy 90% of the time on the 3-member array, so its 2.69x is a lower bound: worth it all the same."),
			   "%s", a.reasoning);
	cr_expect_eq(r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1)->answer, R0_ANSWER_CPU);
	r0_analysis_free(&a);
	/* busy on the single drive's side only: could not tell either */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].block_bytes == 4 * K)
			set.recs[i].cpu_s_per_io = (set.recs[i].layer == R0_LAYER_RAW ? 0.85 : 0.1) / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect_eq(c->answer, R0_ANSWER_CPU, "%s", a.detail);
	cr_expect(fabs(a.wl[q1].base_cpu_busy - 0.85) < 1e-9);
	{
		/* all of a mix on the CPU-limited 4K reads: the mix cannot tell either */
		struct r0_analysis b;
		struct r0_mix only4k;

		cr_assert_eq(r0_mix_parse("4K read=1", &only4k), 0);
		cr_assert_eq(r0_analyse(&set, &only4k, NULL, &b), 0);
		cr_expect_eq(b.answer, R0_ANSWER_CPU);
		cr_expect_not_null(strstr(b.detail, ": could not tell: the measuring CPU was the limit."), "%s", b.detail);
		r0_analysis_free(&b);
	}
	r0_analysis_free(&a);

	/* without a raw run the 1-member stripe is the baseline */
	set.n = 0;
	for (size_t i = 1; i < 4; i++)
		for (unsigned k = 0; k < 3; k++) {
			struct r0_run r;

			make_rec(&scaling[i], k, &r);
			r0_run_set_add(&set, &r);
		}
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(!a.wl[0].base_raw);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 2, 0);
	cr_expect(NEAR(c->speedup.med, 190.0 / 97), "%f", c->speedup.med);
	cr_expect(!r0_analysis_is_baseline(&a, c));
	cr_expect(r0_analysis_is_baseline(&a, r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 1, 0)));
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/*
 * Repeat REPEAT of md 64K is no measurement (ERRORS I/O errors, IOS
 * requests completed, 0 B/s): it must be in no median and be named as
 * NAMED in the reasoning.
 */
static void left_out(unsigned repeat, uint64_t errors, uint64_t ios, const char *named)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].chunk_bytes == 64 * K && set.recs[i].repeat == repeat) {
			set.recs[i].errors = errors;
			set.recs[i].ios = ios;
			set.recs[i].bytes_per_s = 0;
		}
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, 0);
	cr_assert_not_null(c);
	cr_expect_eq(c->bps.n, 3, "3 measured repeats of 4");
	cr_expect_eq(c->n_excluded, 1);
	cr_expect_eq(c->errors, errors);
	cr_expect(NEAR(c->bps.med, 280e6) && c->bps.min > 0, "the 0 B/s repeat is in no median");
	cr_expect_eq(a.n_excluded, 1);
	cr_expect_not_null(strstr(a.reasoning, named), "%s", a.reasoning);
	/* the run itself is marked, the others of its cell used */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].chunk_bytes == 64 * K && set.recs[i].n_members == 3)
			cr_expect_eq(a.run_use[i], set.recs[i].repeat == repeat ? R0_RUN_UNMEASURED : R0_RUN_USED,
				     "repeat %u", set.recs[i].repeat);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/* an error in the ramp: 0 B/s */
Test(analysis, error_cells_left_out_and_named)
{
	left_out(2, 5, 3, "- Left out of every median (I/O errors, or no request completed in the window): "
		 "md 3 x 64K Seq read repeat 2 (5 errors).\n");
}

/* not one request completed in the window, no error: a stalled stack */
Test(analysis, stalled_cells_left_out_and_named)
{
	left_out(3, 0, 0, "md 3 x 64K Seq read repeat 3 (no request completed)");
}

/* every run but md 64K's failed (a flaky drive): the first 12 named, the rest counted, none cut off */
Test(analysis, many_failed_runs_named_then_counted)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	size_t failed = 0;
	char more[64];

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].chunk_bytes != 64 * K) {
			set.recs[i].errors = 7;
			set.recs[i].bytes_per_s = 0;
			failed++;
		}
	cr_assert_gt(failed, 12, "%zu runs failed", failed);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_eq(a.n_excluded, failed);
	snprintf(more, sizeof(more), "(7 errors); and %zu more.\n", failed - 12);
	cr_expect_not_null(strstr(a.reasoning, more), "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/*
 * A run far from its cell's others is judged far and marked so among the
 * runs (cells.csv flags it), and it stays in the cell's figures: md 64K's
 * runs 280, 169 (0.6x), 278 and 280 against one drive's 100 read about
 * 2.47x, where leaving the slow run out would read 2.79x.
 */
Test(analysis, a_far_run_is_marked_and_kept)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;
	size_t slow = SIZE_MAX;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].chunk_bytes == 64 * K && set.recs[i].repeat == 2) {
			set.recs[i].bytes_per_s *= 0.6;
			set.recs[i].iops *= 0.6;
			slow = i;
		}
	cr_assert_neq(slow, SIZE_MAX);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, 0);
	cr_assert_not_null(c);
	cr_expect_eq(c->n_far, 1);
	cr_expect_eq(c->bps.n, 4, "every run in the figures");
	cr_expect(c->speedup.med > 2.4 && c->speedup.med < 2.55, "%f", c->speedup.med);
	for (size_t i = 0; i < set.n; i++)
		cr_expect_eq(a.run_use[i], i == slow ? R0_RUN_FAR : R0_RUN_USED, "record %zu", i);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

Test(analysis, predicted_cells_count_no_requests_and_stay_in)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++) {   /* r0predict writes ios 0 */
		set.recs[i].predicted = true;
		set.recs[i].ios = 0;
	}
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, 0);
	cr_assert_not_null(c);
	cr_expect_eq(c->bps.n, 4, "every predicted repeat is an input");
	cr_expect_eq(a.n_excluded, 0);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
	/* one predicted figure a cell: the words say predicted, never measured (#45) */
	load_rows(pickrows, N(pickrows), &set);
	{
		size_t kept = 0;

		for (size_t i = 0; i < set.n; i++)
			if (set.recs[i].repeat == 1) {
				set.recs[kept] = set.recs[i];
				set.recs[kept].predicted = true;
				set.recs[kept++].ios = 0;
			}
		set.n = kept;
	}
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(a.predicted && a.indicative);
	cr_expect_not_null(strstr(a.verdict, ": predicted "), "%s", a.verdict);
	cr_expect_not_null(strstr(a.verdict, "(predicted from one drive, not measured)"), "%s", a.verdict);
	cr_expect_null(strstr(a.verdict, "measured is"), "%s", a.verdict);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

Test(analysis, below_three_repeats_is_indicative)
{
	struct row one[N(pickrows)];
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	memcpy(one, pickrows, sizeof(one));
	for (size_t i = 0; i < N(one); i++)
		one[i].mbps[1] = 0;   /* 1 repeat each */
	load_rows(one, N(one), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(a.indicative && a.min_repeats == 1);
	cr_expect_not_null(strstr(a.detail, "RAID0 of these 3 drives: indicative: 1 repeat, noise unknown. worth it for Seq read (2.7"),
			   "%s", a.detail);
	cr_expect_null(strstr(a.detail, "-"), "no interval without noise: %s", a.detail);
	for (size_t k = 0; k < a.n_cell; k++)
		cr_expect(!a.cell[k].vs_base.beyond_noise, "nothing is beyond noise with 1 repeat");
	for (size_t k = 1; k < a.n_choice; k++)
		cr_expect(!a.choice[k].vs_best.beyond_noise);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}

/*
 * A class the mix weighs that the study never measured: its share goes
 * nowhere, and the reasoning says so with the share (#45: a mix's share
 * never silently dropped).
 */
Test(analysis, a_class_of_the_mix_not_measured_is_said)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	load_rows(scaling, N(scaling), &set);
	cr_assert_eq(r0_mix_parse("seq-read=90,rand-small-qd-write=10", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_str_eq(a.mix_unmeasured, "rand-small-qd-write: 10 % of the mix, no workload of that class measured");
	cr_expect(strstr(a.reasoning, "- Not in this study: rand-small-qd-write: 10 % of the mix"), "%s", a.reasoning);
	r0_analysis_free(&a);
	cr_assert_eq(r0_mix_parse("seq-read=1", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_str_eq(a.mix_unmeasured, "");
	cr_expect(!strstr(a.reasoning, "Not in this study"));
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}
/*
 * A mix of request shares (a trace's without completions): one 1M read for
 * each 4K read weighs 256 times the 4K read in one drive's time, so the
 * array's 2x on the 1M reads is nearly all the user sees.
 */
static const struct row per_request_rows[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 100.1, 99.9 } },
	{ R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 200, 200.1, 199.9 } },
	{ R0_LAYER_RAW, 0, 1, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 100, 100.1, 99.9 } },
	{ R0_LAYER_MD, 64 * K, 2, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 100, 100.1, 99.9 } },
};

Test(analysis, request_shares_become_time_shares)
{
	struct r0_run_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	cr_assert_eq(r0_mix_parse("seq-read=1,rand-small-q1-read=1", &mix), 0);
	mix.per_request = true;
	load_rows(per_request_rows, N(per_request_rows), &set);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_assert(a.has_choice);
	cr_expect(fabs(a.choice[0].score - 1 / (256.0 / 257 / 2 + 1.0 / 257)) < 1e-3, "score %f", a.choice[0].score);
	cr_expect(a.mix_per_request);
	cr_expect_not_null(strstr(a.reasoning, "from its shares of requests"), "%s", a.reasoning);
	r0_analysis_free(&a);
	mix.per_request = false;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(fabs(a.choice[0].score - 1 / (0.5 / 2 + 0.5)) < 1e-3, "as time shares: %f", a.choice[0].score);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}
