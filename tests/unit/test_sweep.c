// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/sweep.h: the result file, its records, reading and writing them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/jsonlappend.h"
#include "r0/mix.h"
#include "r0/sweep.h"
#include "sweeprows.h"


Test(sweep, record_round_trip)
{
	struct row w = { R0_LAYER_DM, 64 * K, 3, "512K straddle", R0_ACCESS_RAND, 512 * K, 1, 70, { 123.5 } };
	struct r0_run r, back;
	char k1[256], k2[256];
	char *line;

	make_rec(&w, 0, &r);
	r.align_bytes = 4096;
	r.errors = 3;
	r.time_unix = 1790000000;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_null(strchr(line, '\n'), "one line: %s", line);
	cr_expect_not_null(strstr(line, "\"r0kit_schema\":\"r0sweep/1\""), "%s", line);
	cr_expect_null(strstr(line, "\"schema\""), "one key for the schema: %s", line);
	cr_expect_not_null(strstr(line, "\"rw\":\"randrw\""), "%s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect_eq(back.layer, R0_LAYER_DM);
	cr_expect_eq(back.chunk_bytes, 64 * K);
	cr_expect_eq(back.n_members, 3);
	cr_expect_str_eq(back.label, "512K straddle");
	cr_expect_eq(back.access, R0_ACCESS_RAND);
	cr_expect_eq(back.read_pct, 70);
	cr_expect_eq(back.align_bytes, 4096);
	cr_expect_eq(back.errors, 3);
	cr_expect_eq(back.lat_p99_ns, r.lat_p99_ns);
	cr_expect(NEAR(back.bytes_per_s, r.bytes_per_s));
	cr_expect_eq(back.time_unix, 1790000000);
	cr_expect_str_eq(back.devices, r.devices);
	r0_run_key(&r, k1, sizeof(k1));
	r0_run_key(&back, k2, sizeof(k2));
	cr_expect_str_eq(k1, k2);
	back.repeat = 2;
	r0_run_key(&back, k2, sizeof(k2));
	cr_expect_str_neq(k1, k2, "the repeat is part of the key");
	r0_run_workload(&back, k1, sizeof(k1));
	cr_expect_str_eq(k1, "512K straddle rw70");
}

Test(sweep, predicted_round_trips_and_is_another_study)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, { 200.0 } };
	struct r0_run r, back;
	char why[128];
	char *line;

	make_rec(&w, 0, &r);
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_null(strstr(line, "predicted"), "a measured cell says nothing: %s", line);
	free(line);
	r.predicted = true;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"predicted\":true"), "%s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect(back.predicted);
	make_rec(&w, 0, &r);
	cr_expect_eq(r0_run_study_diff(&r, &back, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "predicted (no vs yes)");
}

/* What is not known is written null, never 0 or -1, and reads back as the fields hold it. */
Test(sweep, unknown_is_null_and_reads_back)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, { 200.0 } };
	struct r0_run r, back;
	char *line;

	make_rec(&w, 0, &r);
	r.predicted = true;
	r.ios = r.errors = 0;
	r.runtime_s = r.cpu_s_per_io = 0;
	r.lat_p50_ns = 900000;
	r.lat_p90_ns = r.lat_p99_ns = r.lat_p999_ns = r.lat_p9999_ns = r.lat_max_ns = 0;
	r.test_runtime_s = r.ramp_s = r.min_runtime_s = -1;
	r.region_bytes = 0;
	r.order_pos = 0;
	r.precondition[0] = 0;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"ios\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"errors\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"cpu_s_per_io\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"p50\":900000,\"p90\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"max\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"region_bytes\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"test_runtime_s\":null,\"ramp_s\":null,\"min_runtime_s\":null"), "%s", line);
	cr_expect_not_null(strstr(line, "\"precondition\":null,\"order_pos\":null"), "%s", line);
	cr_expect_null(strstr(line, ":-1"), "no -1 for unknown: %s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect(back.ios == 0 && back.errors == 0 && back.runtime_s == 0 && back.cpu_s_per_io == 0);
	cr_expect(back.lat_p50_ns == 900000 && back.lat_p90_ns == 0 && back.lat_max_ns == 0);
	cr_expect(back.test_runtime_s == -1 && back.ramp_s == -1 && back.min_runtime_s == -1);
	cr_expect(back.region_bytes == 0 && back.order_pos == 0 && !back.precondition[0]);
	/* a measured cell keeps its counts, 0 included; min-runtime 0 (off) is a value */
	make_rec(&w, 0, &r);
	r.errors = 0;
	r.min_runtime_s = 0;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"errors\":0"), "%s", line);
	cr_expect_not_null(strstr(line, "\"min_runtime_s\":0"), "%s", line);
	free(line);
}

Test(sweep, ended_round_trips_and_is_fixed_when_absent)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, { 200.0 } };
	struct r0_run r, back;
	char *line, *at;

	make_rec(&w, 0, &r);
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_null(strstr(line, "ended"), "a fixed-length cell says nothing: %s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	cr_expect_eq(back.ended, R0_END_FIXED);
	free(line);
	for (int e = R0_END_STEADY; e <= R0_END_CUT; e++) {
		r.ended = (enum r0_end)e;
		line = r0_sweep_rec_to_json(&r);
		cr_assert_not_null(line);
		cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
		cr_expect_eq(back.ended, (enum r0_end)e, "%s", line);
		free(line);
	}
	r.ended = R0_END_STEADY;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(at = strstr(line, "\"ended\":\"steady\""), "%s", line);
	memcpy(at + 9, "stead!", 6);
	cr_expect_eq(r0_sweep_rec_parse(line, &back), -EINVAL, "an unknown end: %s", line);
	free(line);
}

Test(sweep, record_knows_its_study)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100 } };
	struct r0_run r, back;
	char why[512], *line;

	make_rec(&w, 0, &r);
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect_eq(back.region_bytes, 16 * M);
	cr_expect(NEAR(back.test_runtime_s, 0.5) && NEAR(back.ramp_s, 0.1) && back.min_runtime_s == 0);
	cr_expect_str_eq(back.precondition, "seq-fill");
	cr_expect_eq(back.order_pos, 3);
	cr_expect_str_eq(back.describe, "2 x null_blk");
	cr_expect_eq(r0_run_study_diff(&r, &back, why, sizeof(why)), 0);
	/* each parameter of the study, changed alone, is named */
	{
		static const char *const named[] = { "region (16.0 MiB vs 32.0 MiB)", "runtime (0.5 s vs 1 s)",
						     "ramp (0.1 s vs 0 s)", "state (empty vs used)",
						     "min-runtime (0 s vs 1 s)",
						     "preconditioning (seq-fill vs none)", "devices (" };

		for (size_t i = 0; i < N(named); i++) {
			struct r0_run x = r;

			switch (i) {
			case 0: x.region_bytes = 32 * M; break;
			case 1: x.test_runtime_s = 1; break;
			case 2: x.ramp_s = 0; break;
			case 3: snprintf(x.state, sizeof(x.state), "used"); break;
			case 4: x.min_runtime_s = 1; break;
			case 5: snprintf(x.precondition, sizeof(x.precondition), "none"); break;
			case 6: snprintf(x.devices, sizeof(x.devices), "/dev/sdz (1.0 GiB)"); break;
			}
			cr_expect_eq(r0_run_study_diff(&r, &x, why, sizeof(why)), 1, "%s", named[i]);
			cr_expect_eq(strncmp(why, named[i], strlen(named[i])), 0, "%s: %s", named[i], why);
		}
	}
	/* the repeat, the order and the describe text are not the study's parameters */
	back.repeat = 4;
	back.order_pos = 1;
	back.describe[0] = '\0';
	cr_expect_eq(r0_run_study_diff(&r, &back, why, sizeof(why)), 0);
}

Test(sweep, order_differs_by_repeat)
{
	size_t o[7], again[7], first_of_raw[6] = { 0 };
	bool differ = false;

	for (unsigned rep = 1; rep <= 6; rep++) {
		bool seen[7] = { false };

		r0_pass_order(rep, 7, o);
		r0_pass_order(rep, 7, again);
		cr_expect_eq(memcmp(o, again, sizeof(o)), 0, "the same order in every run");
		for (size_t i = 0; i < 7; i++) {
			cr_assert_lt(o[i], 7);
			cr_expect(!seen[o[i]], "a permutation");
			seen[o[i]] = true;
			if (o[i] == 0)
				first_of_raw[rep - 1] = i;
		}
		if (rep > 1) {
			size_t prev[7];

			r0_pass_order(rep - 1, 7, prev);
			differ |= memcmp(prev, o, sizeof(o)) != 0;
		}
	}
	cr_expect(differ, "the order changes between repeats");
	{
		bool moves = false;

		for (size_t i = 1; i < 6; i++)
			moves |= first_of_raw[i] != first_of_raw[0];
		cr_expect(moves, "the raw target is not always at the same position");
	}
}

/* One line as a person (or another program) would write it. */
static const char hand_line[] =
	"{\"schema\":\"r0sweep/1\",\"type\":\"cell\",\"layer\":\"md\",\"chunk_bytes\":65536,"
	"\"members\":2,\"workload\":\"Seq\",\"rw\":\"read\",\"read_pct\":100,\"block_bytes\":1048576,"
	"\"align_bytes\":0,\"queue_depth\":1,\"jobs\":1,\"repeat\":1,\"runtime_s\":2,\"ios\":900,"
	"\"iops\":450,\"bytes_per_s\":471859200,\"errors\":0,\"lat_ns\":{\"mean\":2200000.5,"
	"\"p50\":2100000,\"p90\":2500000,\"p99\":3000000,\"p99.9\":3100000,\"p99.99\":3100000,"
	"\"max\":3200000},\"cpu_s_per_io\":1.5e-05,\"state\":\"empty\",\"devices\":\"x\","
	"\"tool\":\"r0sweep 0.1.0\",\"time\":1}";

Test(sweep, parses_hand_written_line_and_refuses_bad_ones)
{
	struct r0_run r;
	char buf[sizeof(hand_line) + 64];

	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	cr_expect_eq(r.layer, R0_LAYER_MD);
	cr_expect_eq(r.access, R0_ACCESS_SEQ);
	cr_expect(NEAR(r.runtime_s, 2), "an integer where a double is expected is accepted");
	cr_expect_eq(r.lat_p90_ns, 2500000);
	cr_expect(NEAR(r.cpu_s_per_io, 1.5e-5));
	/* a line of an older r0sweep: the study's parameters read as not recorded */
	cr_expect(r.region_bytes == 0 && r.test_runtime_s < 0 && r.ramp_s < 0 && r.min_runtime_s < 0 &&
		  !r.precondition[0] &&
		  !r.order_pos);

	cr_expect_eq(r0_sweep_rec_parse("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\"}", &r), -ENOMSG);
	cr_expect_eq(r0_sweep_rec_parse("{\"r0kit_schema\":\"r0sweep/1\",\"type\":\"analysis\"}", &r), -ENOMSG);
	cr_expect_eq(r0_sweep_rec_parse("not json", &r), -EINVAL);
	cr_expect_eq(r0_sweep_rec_parse("[1,2]", &r), -EINVAL);
	/* another schema version */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "r0sweep/1"), "r0sweep/2", 9);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
	/* a required key missing */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"iops\""), "\"iopz\"", 6);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
	/* raw with a chunk */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"md\""), "\"dx\"", 4);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL, "unknown layer");
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"md\""), "\"rw\"", 4);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
}

Test(sweep, load_skips_bad_and_cut_lines)
{
	char path[] = "/tmp/r0-test-load-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct r0_run_set set = { 0 };
	unsigned bad = 0;

	fprintf(f, "%s\n\n{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"x\":1}\ngarbage\n%s\n", hand_line,
		hand_line);
	fprintf(f, "%.*s", 40, hand_line);   /* a write cut short by a crash */
	fclose(f);
	cr_assert_eq(r0_sweep_load(path, &set, &bad), 0);
	cr_expect_eq(set.n, 2);
	cr_expect_eq(bad, 2);
	cr_expect(r0_run_set_has(&set, &set.recs[0]));
	r0_run_set_free(&set);

	f = fopen(path, "w");
	fprintf(f, "hello\nworld\n");
	fclose(f);
	cr_expect_eq(r0_sweep_load(path, &set, &bad), -EINVAL, "not a result file");
	cr_expect_eq(set.n, 0);
	unlink(path);
	cr_expect_eq(r0_sweep_load(path, &set, NULL), -ENOENT);
}

/* a rate no run can measure is a damaged line: negative, infinite, or a negative time or CPU cost */
Test(sweep, an_impossible_rate_is_a_damaged_line)
{
	static const char *const from[] = { "\"bytes_per_s\":", "\"bytes_per_s\":", "\"iops\":",
					    "\"runtime_s\":" };
	static const char *const to[] = { "\"bytes_per_s\":-", "\"bytes_per_s\":1e309", "\"iops\":-",
					  "\"runtime_s\":-" };
	struct r0_run r;

	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	for (size_t k = 0; k < 4; k++) {
		char line[sizeof(hand_line) + 16], *at = strstr(hand_line, from[k]);
		size_t head;

		cr_assert_not_null(at, "%s", from[k]);
		head = (size_t)(at - hand_line);
		/* 1e309 replaces the number; a minus goes before it */
		snprintf(line, sizeof(line), "%.*s%s%s", (int)head, hand_line, to[k],
			 at + strlen(from[k]) + (k == 1 ? strspn(at + strlen(from[k]), "0123456789.e") : 0));
		cr_expect_neq(r0_sweep_rec_parse(line, &r), 0, "%s", line);
	}
}

/*
 * A damaged file: a bad line inside is damage (r0_sweep_damage_inside),
 * a last line cut mid-write alone is an interrupted study; the first bad
 * line is named and every record knows its line.
 */
Test(sweep, load_file_tells_a_cut_last_line_from_damage_inside)
{
	char path[] = "/tmp/r0-test-damage-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct r0_run_set set = { 0 };
	struct r0_sweep_damage d;

	fprintf(f, "%s\n\n%s\n", hand_line, hand_line);
	fprintf(f, "%.*s", 40, hand_line);
	fclose(f);
	cr_assert_eq(r0_sweep_load_file(path, &set, &d), 0);
	cr_expect_eq(set.n, 2);
	cr_expect_eq(set.recs[0].line, 1);
	cr_expect_eq(set.recs[1].line, 3);
	cr_expect(d.bad == 1 && d.cut_tail && d.first_bad == 4, "bad %u cut %d first %u", d.bad, d.cut_tail,
		  d.first_bad);
	cr_expect(!r0_sweep_damage_inside(&d), "a cut last line alone is an interrupted study");
	r0_run_set_free(&set);

	f = fopen(path, "w");
	fprintf(f, "%s\n{\"schema\":\"r0sweep/1\",\"type\":\"cell\"}\n%s\n", hand_line, hand_line);
	fclose(f);
	cr_assert_eq(r0_sweep_load_file(path, &set, &d), 0);
	cr_expect(d.bad == 1 && !d.cut_tail && d.first_bad == 2);
	cr_expect(r0_sweep_damage_inside(&d));
	r0_run_set_free(&set);
	unlink(path);
}

/*
 * The same run read twice (a file given twice, a copy, a line repeated)
 * is found, whatever pass a pooled file's runs were numbered to; another
 * repeat, another time or other figures are other runs.
 */
Test(sweep, the_same_run_read_twice_is_found)
{
	struct r0_run_set set = { 0 };
	struct r0_run r, other;
	size_t first = 99, of = 99;

	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	cr_assert_eq(r0_run_set_add(&set, &r), 0);
	other = r;
	other.repeat = 2;
	cr_assert_eq(r0_run_set_add(&set, &other), 0);
	other = r;
	other.time_unix += 1;
	cr_assert_eq(r0_run_set_add(&set, &other), 0);
	other = r;
	other.bytes_per_s += 1;
	cr_assert_eq(r0_run_set_add(&set, &other), 0);
	cr_expect_eq(r0_run_set_dups(&set, 0, &first, &of), 0, "four runs, none twice");
	other = r;
	snprintf(other.state, sizeof(other.state), "used");   /* another study's: r0report names that */
	cr_expect(!r0_run_same(&r, &other));
	other = r;
	other.line = 7;   /* where it was read from is not what it measured */
	cr_assert_eq(r0_run_set_add(&set, &other), 0);
	cr_assert_eq(r0_run_set_add(&set, &set.recs[1]), 0);
	cr_expect_eq(r0_run_set_dups(&set, 4, &first, &of), 2);
	cr_expect(first == 4 && of == 0, "first %zu of %zu", first, of);
	cr_expect(r0_run_same(&set.recs[5], &set.recs[1]));
	cr_expect(!r0_run_same(&set.recs[0], &set.recs[1]));
	other = r;
	other.pass += 7;
	cr_expect(r0_run_same(&r, &other), "a pooled file's pass numbered on is still the run it was");
	r0_run_set_free(&set);
}

/*
 * Two sweeps pooled: the second's passes are numbered on after the
 * first's, so pass 1 of each is not one visit or one drift; a copy of the
 * second read after that is still found.
 */
Test(sweep, a_pooled_files_passes_are_its_own)
{
	struct r0_run_set set = { 0 };
	struct r0_run r;
	size_t from;

	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	for (unsigned p = 1; p <= 3; p++) {
		r.pass = p;
		r.time_unix += 10;
		cr_assert_eq(r0_run_set_add(&set, &r), 0);
	}
	from = set.n;
	for (unsigned p = 1; p <= 2; p++) {   /* the other sweep: passes 1 and 2 of its own */
		r.pass = p;
		r.time_unix += 10;
		cr_assert_eq(r0_run_set_add(&set, &r), 0);
	}
	r0_run_set_pool_passes(&set, from);
	cr_expect(set.recs[0].pass == 1 && set.recs[2].pass == 3);
	cr_expect(set.recs[3].pass == 4 && set.recs[4].pass == 5, "passes %u %u", set.recs[3].pass,
		  set.recs[4].pass);
	from = set.n;
	cr_assert_eq(r0_run_set_add(&set, &set.recs[3]), 0);
	set.recs[from].pass = 1;   /* the second file read again, as it is written */
	cr_expect_eq(r0_run_set_dups(&set, from, NULL, NULL), 1);
	r.pass = 0;   /* an older r0sweep's file: no pass to number */
	cr_assert_eq(r0_run_set_add(&set, &r), 0);
	r0_run_set_pool_passes(&set, set.n - 1);
	cr_expect_eq(set.recs[set.n - 1].pass, 0);
	r0_run_set_free(&set);
}

/* An adaptive study's plan, from its last analysis line; a fixed plan has none. */
Test(sweep, plan_note)
{
	char path[] = "/tmp/r0-test-plan-XXXXXX", note[512];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	cr_assert_not_null(f);
	fputs("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"verdict\":\"x\"}\n", f);
	fflush(f);
	cr_expect_eq(r0_sweep_plan_note(path, note, sizeof(note)), -ENOENT);
	fputs("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"plan\":{\"adaptive\":true,\"looks\":[3,5,8],"
	      "\"budget_s\":1800,\"stopped\":\"budget\",\"open\":\"md 64K against md 128K under the mix\","
	      "\"dropped\":\"dm 3 x 4K: its chunk was not in the recommended set\",\"cells\":472}}\n", f);
	fclose(f);
	cr_assert_eq(r0_sweep_plan_note(path, note, sizeof(note)), 0);
	cr_expect_str_eq(note, "adaptive: 472 cells, repeated where a comparison was undecided; the budget ended it; "
			       "still open: md 64K against md 128K under the mix; not measured: dm 3 x 4K: its chunk "
			       "was not in the recommended set");
	cr_expect_eq(r0_sweep_plan_note("/nonexistent/r0", note, sizeof(note)), -ENOENT);
	unlink(path);
}

/* The analysis r0sweep stored: the last one, what it said and which code made it, and the cells after it. */
Test(sweep, stored_analysis)
{
	static const char cell[] = "{\"schema\":\"r0sweep/1\",\"type\":\"cell\"}\n";
	char path[] = "/tmp/r0-test-stored-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct r0_sweep_stored *s = calloc(1, sizeof(*s));

	cr_assert_not_null(f);
	cr_assert_not_null(s);
	fputs(cell, f);
	fflush(f);
	cr_expect_eq(r0_sweep_stored_analysis(path, s), -ENOENT, "no analysis line: nothing stored");
	/* an older file's: no answer, no pick, its tool without a build */
	fputs("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"mix\":\"desktop\",\"verdict\":\"old\","
	      "\"choices\":[{\"layer\":\"md\",\"chunk_bytes\":65536,\"score\":1.7}],\"tool\":\"r0sweep 0.1.0\"}\n", f);
	fflush(f);
	cr_assert_eq(r0_sweep_stored_analysis(path, s), 0);
	cr_expect_str_eq(s->tool, "r0sweep 0.1.0");
	cr_expect_str_eq(s->verdict, "old");
	cr_expect_str_empty(s->answer);
	cr_expect_str_empty(s->lead);
	cr_expect(!s->has_pick);
	cr_expect_eq(s->cells_after, 0);
	/* a resumed study: more cells, then its own analysis; the last one is the file's */
	fputs(cell, f);
	fputs("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"mix\":\"sequential\",\"verdict\":\"new\","
	      "\"answer\":\"worth it\",\"lead\":\"worth it under the sequential mix, md 64K at 1.90x one drive\","
	      "\"choices\":[{\"layer\":\"dm\",\"chunk_bytes\":4096,\"score\":1.2,\"picked\":false},"
	      "{\"layer\":\"md\",\"chunk_bytes\":65536,\"score\":1.9,\"score_min\":1.8,\"score_max\":2.0,"
	      "\"picked\":true}],\"tool\":\"r0sweep 0.2.0+g0123456789ab\"}\n", f);
	fputs(cell, f);
	fputs(cell, f);
	fclose(f);
	cr_assert_eq(r0_sweep_stored_analysis(path, s), 0);
	cr_expect_str_eq(s->tool, "r0sweep 0.2.0+g0123456789ab");
	cr_expect_str_eq(s->mix, "sequential");
	cr_expect_str_eq(s->verdict, "new");
	cr_expect_str_eq(s->answer, "worth it");
	cr_expect_str_eq(s->lead, "worth it under the sequential mix, md 64K at 1.90x one drive");
	cr_expect(s->has_pick && s->layer == R0_LAYER_MD && s->chunk_bytes == 65536);
	cr_expect(s->score == 1.9 && s->score_min == 1.8 && s->score_max == 2.0);
	cr_expect_eq(s->cells_after, 2, "the cells measured after it are not in it");
	cr_expect_eq(r0_sweep_stored_analysis("/nonexistent/r0", s), -ENOENT);
	unlink(path);
	free(s);
}

Test(sweep, a_replay_cell_goes_through_the_file_named_by_its_label)
{
	struct r0_run r = { .layer = R0_LAYER_RAW, .n_members = 1, .access = R0_ACCESS_REPLAY, .read_pct = 40,
				  .block_bytes = 1 << 20, .queue_depth = 32, .jobs = 1, .repeat = 2, .runtime_s = 0.8,
				  .bytes_per_s = 8e7, .ios = 264 }, back;
	char *line, name[64], cls[32];

	snprintf(r.label, sizeof(r.label), "replay day");
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"rw\":\"replay\""), "%s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0);
	cr_expect_eq(back.access, R0_ACCESS_REPLAY);
	r0_run_workload(&back, name, sizeof(name));
	cr_expect_str_eq(name, "replay day", "not \"replay day rw40\"");
	r0_workload_class(&back, cls, sizeof(cls));
	cr_expect_str_eq(cls, "replay");
	free(line);
}

/* One name for a workload: its label and its direction, as r0sweep's reports and r0bench's both say it. */
Test(sweep, a_workload_is_named_by_its_label_and_direction)
{
	char buf[64];

	r0_workload_name("Seq", 100, buf, sizeof(buf));
	cr_expect_str_eq(buf, "Seq read");
	r0_workload_name("4K QD32", 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "4K QD32 write");
	r0_workload_name("512K straddle", 70, buf, sizeof(buf));
	cr_expect_str_eq(buf, "512K straddle rw70");
	/* cut at the buffer, never past it */
	r0_workload_name("a label longer than the buffer", 100, buf, 8);
	cr_expect_str_eq(buf, "a label");
}

/*
 * A study file cut mid-line by a crash and appended to (r0sweep --resume,
 * r0age record-cycle, r0trim --watch): the cut line is removed first, so
 * the next record is not glued onto it and the file reads whole again.
 */
Test(sweep, appending_after_a_cut_line_drops_it_first)
{
	char path[] = "/tmp/r0-test-cut-XXXXXX";
	int fd = mkstemp(path);
	struct r0_run_set set = { 0 };
	struct r0_sweep_damage d;
	struct r0_run r;
	bool cut = false;
	FILE *f;

	cr_assert(fd >= 0);
	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	cr_assert(write(fd, hand_line, strlen(hand_line)) > 0 && write(fd, "\n", 1) == 1);
	cr_assert(write(fd, hand_line, 40) == 40);   /* the next record, cut */
	close(fd);
	cr_assert_eq(r0_jsonl_open_append(path, &f, &cut), 0);
	cr_expect(cut);
	r.repeat = 2;
	cr_assert_eq(r0_sweep_rec_append(f, &r), 0);
	fclose(f);
	cr_assert_eq(r0_sweep_load_file(path, &set, &d), 0);
	cr_expect(d.bad == 0 && set.n == 2, "%u bad, %zu runs", d.bad, set.n);
	cr_assert_eq(r0_jsonl_open_append(path, &f, &cut), 0);   /* whole lines: left as they are */
	fclose(f);
	cr_expect(!cut);
	r0_run_set_free(&set);
	unlink(path);
	cr_assert_eq(r0_jsonl_open_append(path, &f, &cut), 0);   /* none: made */
	fclose(f);
	cr_expect(!cut && access(path, F_OK) == 0);
	unlink(path);
}

/* Swaps the first FROM in hand_line for TO into BUF. */
static const char *hand_edit(char *buf, size_t len, const char *from, const char *to)
{
	const char *at = strstr(hand_line, from);

	cr_assert_not_null(at);
	snprintf(buf, len, "%.*s%s%s", (int)(at - hand_line), hand_line, to, at + strlen(from));
	return buf;
}

/*
 * A line whose figures contradict each other (bytes/s edited to 0 beside
 * 450 IOPS of 1M) or whose CPU share is no share is damaged, never a
 * figure; a clock's tick over a share of 1 is 1.
 */
Test(sweep, a_line_whose_figures_contradict_is_damaged)
{
	char buf[2048];
	struct r0_run r;

	cr_expect_eq(r0_sweep_rec_parse(hand_edit(buf, sizeof(buf), "\"bytes_per_s\":471859200",
						  "\"bytes_per_s\":0"), &r), -EINVAL);
	cr_expect_eq(r0_sweep_rec_parse(hand_edit(buf, sizeof(buf), "\"iops\":450", "\"iops\":451"), &r), -EINVAL);
	cr_expect_eq(r0_sweep_rec_parse(hand_edit(buf, sizeof(buf), "\"time\":1}", "\"time\":1,\"busy\":1.5}"), &r),
		     -EINVAL);
	cr_expect_eq(r0_sweep_rec_parse(hand_edit(buf, sizeof(buf), "\"time\":1}", "\"time\":1,\"busy\":-0.1}"), &r),
		     -EINVAL);
	cr_assert_eq(r0_sweep_rec_parse(hand_edit(buf, sizeof(buf), "\"time\":1}", "\"time\":1,\"busy\":1.004}"), &r),
		     0);
	cr_expect_eq(r.busy, 1);
	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	cr_expect_eq(r.busy, 0);
}
