// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/predictstudy.h: cells outside the error bar, the comparison's figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/predictstudy.h"
#include "sweeprows.h"

#define KIB 1024u

/* A drive of 100 us at any block and depth 1..32, each point's passes spread by SPREAD. */
static void drive(struct r0_predict_input *in, double spread)
{
	memset(in, 0, sizeof(*in));
	in->layer_ns[0] = in->layer_ns[1] = 0;
	for (uint32_t b = 4 * KIB; b <= 1024 * KIB; b *= 4)
		for (double q = 1; q <= 32; q *= 2) {
			struct r0_predict_point p = { R0_ACCESS_RAND, 100, b, q, q * b / 100e-6, 100e3,
						      b == 4 * KIB && q == 1 ? spread : 0.02, 0 };

			cr_assert_eq(r0_predict_curve_add(&in->curve, &p), 0);
		}
}

static struct r0_run workload(const char *label, uint32_t block, unsigned qd)
{
	struct r0_run r = { .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = block,
				  .queue_depth = qd, .jobs = 1, .repeat = 1 };

	snprintf(r.label, sizeof(r.label), "%s", label);
	return r;
}

/* The grid's own noise beyond R0_PREDICT_MAX_SPREAD: the cells resting on that point say so. */
Test(predictstudy, a_spread_grid_point_is_not_predicted_from)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_run w4k = workload("4K", 4 * KIB, 1), w1m = workload("1M", 1024 * KIB, 1), out;
	char doubt[160];

	for (int noisy = 0; noisy < 2; noisy++) {
		drive(&in, noisy ? R0_PREDICT_MAX_SPREAD + 0.1 : R0_PREDICT_MAX_SPREAD - 0.1);
		cr_assert_eq(r0_predict_cell(&in, &o, &w4k, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
					     sizeof(doubt)), 0);
		cr_expect(out.predicted);
		cr_expect_eq(*doubt != 0, noisy, "4K QD1, spread %s: '%s'", noisy ? "large" : "small", doubt);
		/* 1M over 64K chunks rests on 512K parts only: never in doubt */
		cr_assert_eq(r0_predict_cell(&in, &o, &w1m, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
					     sizeof(doubt)), 0);
		cr_expect_str_empty(doubt);
		r0_predict_input_free(&in);
	}
}

static void add(struct r0_run_set *s, const char *label, unsigned n, double bps, bool predicted)
{
	struct r0_run r = workload(label, 4 * KIB, 1);

	r.layer = R0_LAYER_MD;
	r.n_members = n;
	r.chunk_bytes = 64 * KIB;
	r.bytes_per_s = bps;
	r.predicted = predicted;
	cr_assert_eq(r0_run_set_add(s, &r), 0);
}

/*
 * Errors of 0, 10 and 40 % on one workload and 20 % on another: medians, p90,
 * share within 15 %; a third measured twice (90 and 110) and not predicted:
 * counted, and its repeats' spread of 20 % beside the other repeated cell's 0.
 */
Test(predictstudy, compare_gives_the_error_per_workload_and_all)
{
	struct r0_run_set pred = { 0 }, meas = { 0 };
	struct r0_predict_error *rows = NULL;
	size_t n = 0;

	add(&meas, "A", 2, 100, false);
	add(&meas, "A", 2, 100, false);   /* a second repeat: the cell's median is still 100 */
	add(&meas, "A", 3, 100, false);
	add(&meas, "A", 4, 100, false);
	add(&meas, "B", 2, 100, false);
	add(&meas, "C", 2, 90, false);
	add(&meas, "C", 2, 110, false);
	add(&meas, "C", 3, 0, false);     /* completed nothing, twice: no spread */
	add(&meas, "C", 3, 0, false);
	add(&pred, "A", 2, 100, true);
	add(&pred, "A", 3, 110, true);
	add(&pred, "A", 4, 60, true);
	add(&pred, "B", 2, 120, true);
	add(&pred, "B", 3, 500, true);    /* not measured: not compared */
	cr_assert_eq(r0_predict_compare(&pred, &meas, &rows, &n), 0);
	cr_assert_eq(n, 4);
	cr_expect_str_eq(rows[0].workload, "A read");
	cr_expect_eq(rows[0].cells, 3);
	cr_expect(fabs(rows[0].median - 0.10) < 1e-9, "%f", rows[0].median);
	cr_expect(fabs(rows[0].within_15 - 2.0 / 3) < 1e-9);
	cr_expect_eq(rows[0].not_predicted, 0);
	cr_expect(fabs(rows[0].repeat_spread) < 1e-9, "%f", rows[0].repeat_spread);
	cr_expect(isnan(rows[1].repeat_spread), "B is measured once");
	cr_expect_str_eq(rows[2].workload, "C read");
	cr_expect_eq(rows[2].cells, 0);
	cr_expect_eq(rows[2].not_predicted, 2);
	cr_expect(isnan(rows[2].median));
	cr_expect(fabs(rows[2].repeat_spread - 0.20) < 1e-9, "%f", rows[2].repeat_spread);
	cr_expect_str_eq(rows[3].workload, "all");
	cr_expect_eq(rows[3].cells, 4);
	cr_expect(fabs(rows[3].median - 0.15) < 1e-9, "%f", rows[3].median);
	cr_expect(fabs(rows[3].p90 - 0.40) < 1e-9, "%f", rows[3].p90);   /* nearest rank: the 4th of 4 */
	cr_expect(fabs(rows[3].within_15 - 0.5) < 1e-9);
	cr_expect_eq(rows[3].not_predicted, 2);
	cr_expect(fabs(rows[3].repeat_spread - 0.10) < 1e-9, "%f", rows[3].repeat_spread);
	free(rows);
	r0_run_set_free(&pred);
	r0_run_set_free(&meas);
}

/* No layer cost given or measured: a 4K QD1 cell on a 100 us drive depends on the guess; given, it does not. */
Test(predictstudy, a_cell_that_depends_on_the_guessed_layer_cost_says_so)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts given = { .layer_ns = 2000 }, guess = { .layer_ns = -1 };
	struct r0_run w4k = workload("4K", 4 * KIB, 1), out;
	char doubt[160];

	drive(&in, 0);
	in.layer_ns[0] = in.layer_ns[1] = -1;
	cr_assert_eq(r0_predict_cell(&in, &guess, &w4k, R0_LAYER_DM, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_not_null(strstr(doubt, "--layer-cost"), "'%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &given, &w4k, R0_LAYER_DM, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt);
	r0_predict_input_free(&in);
}

/* An array predicted beyond the IOPS any single-drive result reached: the host's capacity is unknown, it says so. */
Test(predictstudy, beyond_the_iops_the_host_was_seen_to_drive_says_so)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 }, cpu = { .layer_ns = 0, .model.cpu_max_iops = 1e6 };
	struct r0_run w = workload("4K QD32", 4 * KIB, 32), out;
	char doubt[200];

	memset(&in, 0, sizeof(in));
	/* a drive saturated at 10000 IOPS from QD1 on, measured at every depth the cells need */
	for (double q = 1; q <= 32; q *= 2) {
		struct r0_predict_point p = { R0_ACCESS_RAND, 100, 4 * KIB, q, 4096 / 100e-6, q * 100e3, 0, 0 };

		cr_assert_eq(r0_predict_curve_add(&in.curve, &p), 0);
	}
	cr_assert_eq(r0_predict_cell(&in, &o, &w, R0_LAYER_MD, 1, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt, "1 member: as many IOPS as measured: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &o, &w, R0_LAYER_MD, 4, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_not_null(strstr(doubt, "--cpu-iops"), "4 members: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &cpu, &w, R0_LAYER_MD, 4, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt, "a CPU ceiling given: '%s'", doubt);
	r0_predict_input_free(&in);
}

/*
 * md sends a bio per chunk: 1M over 4K chunks is 256 a request, far more a
 * second than the drive was seen to serve (8000 IOPS of 4K); over 64K
 * chunks, 16 stay within it.
 */
Test(predictstudy, beyond_the_bios_the_host_was_seen_to_drive_says_so)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_run w = workload("Seq", 1024 * KIB, 1), out;
	char doubt[200];

	memset(&in, 0, sizeof(in));
	/* the predict preset's block sizes (no gap wider than 4x): 1000 IOPS a request in flight up to 64K, 100 MB/s above */
	for (double q = 1; q <= 8; q *= 2)
		for (uint32_t b = 4 * KIB; b <= 1024 * KIB; b *= 4) {
			struct r0_predict_point p = { R0_ACCESS_RAND, 100, b, q,
						      b <= 64 * KIB ? q * 1000 * b : 100e6, 1e6, 0, 0 };

			cr_assert_eq(r0_predict_curve_add(&in.curve, &p), 0);
		}
	cr_assert_eq(r0_predict_cell(&in, &o, &w, R0_LAYER_MD, 2, 4 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_not_null(strstr(doubt, "bios a second"), "4K chunks: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &o, &w, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt, "64K chunks: '%s'", doubt);
	r0_predict_input_free(&in);
}

/*
 * nvme-real's 512K reads: 47.7 MB/s at QD1 and no more at QD2,
 * 10.4 ms each back to back, 3.4 ms the fastest. 512K random QD1 over 512K
 * chunks of 2 members measured 77-83 MB/s where one drive's rate was
 * predicted: with members that rest the cell is not predicted, and says
 * the range; without the fastest request known, it is predicted as before.
 */
Test(predictstudy, rested_members_of_a_drive_waiting_on_its_bandwidth_say_so)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_run w = workload("512K", 512 * KIB, 1), seq = workload("Seq", 1024 * KIB, 1), out;
	char doubt[320];

	for (int known = 1; known >= 0; known--) {
		memset(&in, 0, sizeof(in));
		for (uint32_t b = 256 * KIB; b <= 1024 * KIB; b *= 2)
			for (double q = 1; q <= 2; q *= 2) {
				struct r0_predict_point p = { R0_ACCESS_RAND, 100, b, q, 47.7e6,
							      q * b / 47.7e6 * 1e9, 0.1,
							      known ? 3.4e6 * b / (512 * KIB) : 0 };

				cr_assert_eq(r0_predict_curve_add(&in.curve, &p), 0);
			}
		cr_assert_eq(r0_predict_cell(&in, &o, &w, R0_LAYER_MD, 2, 512 * KIB, "t", &out, doubt,
					     sizeof(doubt)), 0);
		if (known)
			cr_expect_not_null(strstr(doubt, "47.7 to 95.4 MB/s"), "'%s'", doubt);
		else
			cr_expect_str_empty(doubt, "no fastest request known: '%s'", doubt);
		seq.access = R0_ACCESS_SEQ;
		cr_assert_eq(r0_predict_cell(&in, &o, &seq, R0_LAYER_MD, 2, 512 * KIB, "t", &out, doubt,
					     sizeof(doubt)), 0);
		cr_expect_str_empty(doubt, "1M over 2 x 512K: no member rests: '%s'", doubt);
		r0_predict_input_free(&in);
	}
}

/* One r0bench/1 test: 4K random at depth 1, MBPS median, passes within +-SPREAD/2. */
static void bench_test(FILE *f, bool comma, const char *label, unsigned read_pct, double mbps,
		       double spread)
{
	double bps = mbps * 1e6;

	fprintf(f, "%s{\"label\":\"%s\",\"workload\":{\"access\":\"random\",\"read_pct\":%u,"
		"\"block_bytes\":4096,\"queue_depth\":1,\"jobs\":1,\"runtime_s\":3,\"ramp_s\":0,"
		"\"span_bytes\":268435456},\"summary\":{\"bytes_per_s\":{\"median\":%.0f,"
		"\"min\":%.0f,\"max\":%.0f}},\"latency_ns\":{\"p50\":%.0f,\"min\":%.0f}}",
		comma ? "," : "", label, read_pct, bps, bps * (1 - spread / 2), bps * (1 + spread / 2),
		4096 / bps * 1e9, 4096 / bps * 1e9 * 0.9);
}

/*
 * A grid whose writes, measured again at its end, moved from 20 to W2 MB/s
 * (reads: 40, then 41): beyond R0_PREDICT_MAX_DRIFT and the points' own
 * spreads the write cells are not predicted and say why; the read cells are.
 */
static void drift_case(double w2, double spread, bool refused)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_run rd = workload("4K read", 4 * KIB, 1), wr = rd, out;
	char path[] = "/tmp/r0-unit-drift-XXXXXX", doubt[320];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	cr_assert_not_null(f);
	fprintf(f, "{\"r0kit_schema\":\"r0bench/1\",\"tests\":[");
	bench_test(f, false, "RND4K Q1", 100, 40, spread);
	bench_test(f, true, "RND4K Q1", 0, 20, spread);
	bench_test(f, true, "RND4K Q1 again", 100, 41, spread);
	bench_test(f, true, "RND4K Q1 again", 0, w2, spread);
	fprintf(f, "]}\n");
	fclose(f);
	memset(&in, 0, sizeof(in));
	cr_assert_eq(r0_predict_input_load(&in, path), 0);
	unlink(path);
	cr_expect_eq(in.curve.n, 2, "a point measured again is not a second point: %zu", in.curve.n);
	cr_expect_eq(in.n_wl, 2);
	wr.read_pct = 0;
	cr_assert_eq(r0_predict_cell(&in, &o, &rd, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt, "reads held still: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &o, &wr, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_eq(*doubt != 0, refused, "writes 20 -> %.0f MB/s, spread %.2f: '%s'", w2, spread, doubt);
	if (refused)
		cr_expect(strstr(doubt, "writes moved by") && strstr(doubt, "4K QD1: 20.0 -> "),
			  "'%s'", doubt);
	wr.read_pct = 70;   /* a mix needs the writes too */
	cr_assert_eq(r0_predict_cell(&in, &o, &wr, R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_eq(*doubt != 0, refused, "70/30 mix: '%s'", doubt);
	r0_predict_input_free(&in);
}

Test(predictstudy, a_drive_that_changed_during_the_grid_is_not_predicted)
{
	drift_case(8, 0.02, true);      /* garbage collection began: 60 % slower */
	drift_case(19, 0.02, false);    /* 5 %: noise */
	drift_case(14, 0.02, true);     /* 30 %, beyond the bar and the spreads */
	drift_case(16.4, 0.02, true);   /* 18 %: beyond the +-15 % a prediction is held to */
	drift_case(17.4, 0.02, false);  /* 13 % */
	drift_case(14, 0.20, false);    /* 30 %, but the passes spread 20 % each */
}

/*
 * The stored r0ssd grid (recipes/studies/predict-check.sh SSD=128M, in
 * the sandbox): after a sequential fill its 4K QD1 writes fell from 3.0 to 1.8
 * MB/s during the grid (garbage collection) and its 64K QD8 reads from 218
 * to 182 MB/s. Both directions are refused, so no cell of its study is
 * predicted (with a 25 % bar the reads were, 47 % off the measured study).
 * Run from the source tree's top, as make check does.
 */
Test(predictstudy, the_stored_r0ssd_grid_is_refused_in_both_directions)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_run out;
	char doubt[320];

	memset(&in, 0, sizeof(in));
	cr_assert_eq(r0_predict_input_load(&in, "tests/data/predict/r0ssd-grid.json"), 0);
	cr_expect(in.drift[0] > R0_PREDICT_MAX_DRIFT && in.drift[0] < 0.2, "reads moved %.3f", in.drift[0]);
	cr_expect(in.drift[1] > 0.35, "writes moved %.3f", in.drift[1]);
	for (size_t i = 0; i < in.n_wl; i++) {
		cr_assert_eq(r0_predict_cell(&in, &o, &in.wl[i], R0_LAYER_MD, 2, 64 * KIB, "t", &out, doubt,
					     sizeof(doubt)), 0);
		cr_expect(strstr(doubt, "moved by"), "%s: '%s'", in.wl[i].label, doubt);
	}
	r0_predict_input_free(&in);
}

/*
 * A study's own cells as the grid (CrystalDiskMark 3's points: 4K at QD1
 * and QD32, 512K and 1M at QD1): md of 3 at 64K needs 64K parts and 4K at
 * about QD 11, which it never measured; those cells are not predicted and
 * name the point, where a prediction stretched from 4K to 512K, or from
 * QD1 to QD32, was a guess. 1M at QD1 on one member needs only what it has.
 */
Test(predictstudy, a_point_the_input_did_not_measure_is_named_not_guessed)
{
	static struct r0_predict_input in;
	struct r0_predict_study_opts o = { .layer_ns = 0 };
	struct r0_predict_point pts[] = {
		{ R0_ACCESS_RAND, 100, 4 * KIB, 1, 40e6, 100e3, 0, 0 },
		{ R0_ACCESS_RAND, 100, 4 * KIB, 32, 300e6, 400e3, 0, 0 },
		{ R0_ACCESS_RAND, 100, 512 * KIB, 1, 400e6, 1.3e6, 0, 0 },
		{ R0_ACCESS_SEQ, 100, 1024 * KIB, 1, 500e6, 2e6, 0, 0 },
	};
	struct r0_run q32 = workload("4K QD32", 4 * KIB, 32), r512 = workload("512K", 512 * KIB, 1);
	struct r0_run out;
	char doubt[240];

	memset(&in, 0, sizeof(in));
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
		cr_assert_eq(r0_predict_curve_add(&in.curve, &pts[i]), 0);
	cr_assert_eq(r0_predict_cell(&in, &o, &q32, R0_LAYER_MD, 3, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_not_null(strstr(doubt, "it needs the drive at 4K QD"), "4K QD32 on 3: '%s'", doubt);
	cr_expect_not_null(strstr(doubt, "QD 1 and 32 only"), "4K QD32 on 3: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &o, &r512, R0_LAYER_MD, 3, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_not_null(strstr(doubt, "measured 4K and 512K only"), "512K on 3 x 64K: '%s'", doubt);
	cr_assert_eq(r0_predict_cell(&in, &o, &q32, R0_LAYER_MD, 1, 64 * KIB, "t", &out, doubt,
				     sizeof(doubt)), 0);
	cr_expect_str_empty(doubt, "4K QD32 on one member rests on measured points: '%s'", doubt);
	r0_predict_input_free(&in);
}

/*
 * The pick from a prediction against the measured study's tied set
 * (pickrows: 64K, 128K and 512K tie, 4K loses): none when the choices
 * predicted whole leave out every measured best, or are too few to rank.
 */
Test(predictstudy, no_pick_its_own_measurements_contradict)
{
	static const struct row excl[] = {
		{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100 } },
		{ R0_LAYER_MD, 4 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 110 } },
		{ R0_LAYER_MD, 16 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 150 } },
	};
	static const struct row one[] = {
		{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100 } },
		{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 280 } },
	};
	static const struct row good[] = {
		{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100 } },
		{ R0_LAYER_MD, 4 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 110 } },
		{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 280 } },
		{ R0_LAYER_MD, 512 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 270 } },
	};
	struct r0_run_set meas, pred;
	struct r0_mix mix;
	bool picked, tied;
	char text[512];

	cr_assert_eq(r0_mix_parse("seq-read=1", &mix), 0);
	load_rows(pickrows, N(pickrows), &meas);

	load_rows(excl, N(excl), &pred);
	cr_assert_eq(r0_predict_check_pick(&pred, &meas, &mix, &picked, &tied, text, sizeof(text)), 0);
	cr_expect_not(picked, "%s", text);
	cr_expect(strstr(text, "none: the choices predicted for every workload of the mix (2 of 2: md 16 KiB, "
			 "md 4 KiB) exclude the measured best (tied: md 64 KiB, md 128 KiB, md 512 KiB)"), "%s", text);
	r0_run_set_free(&pred);

	load_rows(one, N(one), &pred);
	cr_assert_eq(r0_predict_check_pick(&pred, &meas, &mix, &picked, &tied, text, sizeof(text)), 0);
	cr_expect_not(picked, "%s", text);
	cr_expect(strstr(text, "none: too little predicted to rank the choices"), "%s", text);
	r0_run_set_free(&pred);

	load_rows(good, N(good), &pred);
	cr_assert_eq(r0_predict_check_pick(&pred, &meas, &mix, &picked, &tied, text, sizeof(text)), 0);
	cr_expect(picked, "%s", text);
	cr_expect(tied, "%s", text);
	r0_run_set_free(&pred);
	r0_run_set_free(&meas);
}

/*
 * Two drives' grids (the sandbox's sata and nvme profiles: the same path
 * and size, another largest request) are not one drive that moved
 * between them: the second is refused, naming how it differs; the same
 * drive's grid measured again is taken.
 */
Test(predictstudy, grids_of_two_drives_are_refused)
{
	static struct r0_predict_input in;

	memset(&in, 0, sizeof(in));
	cr_assert_eq(r0_predict_input_load(&in, "tests/data/predict/sata-real-grid.json"), 0);
	cr_expect_eq(r0_predict_input_load(&in, "tests/data/predict/nvme-real-grid.json"), -EXDEV);
	cr_expect_str_eq(in.drive_diff, "max_hw_sectors_kib (32 vs 128)");
	cr_expect_eq(r0_predict_input_load(&in, "tests/data/predict/sata-real-short-grid.json"), 0);
	r0_predict_input_free(&in);
}
