// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/benchjson.h: the r0bench/1 document written from a run, read back, and refused. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/benchjson.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6 * fabs((double)(b)))

/* A counted pass of one job: IOS requests of BS bytes of OP in SECONDS. */
static void pass(struct r0_result *r, enum r0_op op, uint64_t ios, uint32_t bs, double seconds)
{
	memset(r, 0, sizeof(*r));
	r->ios[op] = ios;
	r->bytes[op] = ios * bs;
	r->elapsed_s = seconds;
	r->jobs = 1;
	r->job_cpu_s[0] = seconds / 4;
	r->job_wall_s[0] = seconds;
}

static char *write_doc(json_object *doc)
{
	static char path[] = "/tmp/r0-unit-benchjson-XXXXXX";
	int fd;

	strcpy(path, "/tmp/r0-unit-benchjson-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(json_object_to_file(path, doc), 0);
	return path;
}

Test(benchjson, a_run_written_and_read_back)
{
	struct r0_io_file t = { .fd = -1, .size_bytes = 1 << 30, .logical_block_bytes = 512,
			       .physical_block_bytes = 4096, .direct = true, .path = "/var/tmp/img" };
	struct r0_result p[3], trimp;
	struct r0_bench_test tests[3] = {
		{ .label = "4K QD1", .w = { .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096,
					    .queue_depth = 1, .jobs = 1, .runtime_ns = 3000000000ULL,
					    .span_bytes = 1 << 28 }, .npasses = 3, .passes = p, .ran = true },
		{ .label = "never", .w = { .block_bytes = 4096, .queue_depth = 1 } },
		{ .label = "trim", .w = { .access = R0_ACCESS_SEQ, .trim = true, .block_bytes = 65536,
					  .queue_depth = 1 }, .npasses = 1, .passes = &trimp, .ran = true },
	};
	struct r0_bench_run run = { .tool = "r0bench", .target = &t, .passes = 3, .tests = tests, .n_tests = 3,
				    .status = 0 };
	struct r0_bench_spread s;
	struct r0_bench_doc doc;
	json_object *o, *x;
	char *path;

	pass(&p[0], R0_OP_READ, 3000, 4096, 1);
	pass(&p[1], R0_OP_READ, 1000, 4096, 1);
	pass(&p[2], R0_OP_READ, 2000, 4096, 1);
	pass(&trimp, R0_OP_TRIM, 10, 65536, 1);
	for (int k = 0; k < 3; k++) {
		r0_hist_reset(&tests[k].lat);
		r0_hist_reset(&tests[k].lat_op[R0_OP_READ]);
		r0_hist_reset(&tests[k].lat_op[R0_OP_WRITE]);
	}
	for (uint64_t ns = 100000; ns <= 300000; ns += 100000) {
		r0_hist_add(&tests[0].lat, ns);
		r0_hist_add(&tests[0].lat_op[R0_OP_READ], ns);
	}

	s = r0_bench_spread(&tests[0], r0_result_iops);
	cr_expect(s.best == 3000 && s.max == 3000 && s.median == 2000 && s.min == 1000);
	cr_expect_str_eq(r0_bench_rw_name(&tests[0].w), "randread");
	cr_expect_str_eq(r0_bench_rw_name(&tests[2].w), "trim");

	o = r0_bench_to_json(&run);
	cr_assert_not_null(o);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "r0kit_schema")), "r0bench/1");
	x = json_object_object_get(o, "tests");
	cr_expect_eq(json_object_array_length(x), 2, "a test never run is left out");
	cr_expect_null(json_object_object_get(json_object_object_get(o, "target"), "device"));
	path = write_doc(o);
	json_object_put(o);

	cr_assert_eq(r0_bench_load(path, &doc), 0);
	unlink(path);
	cr_expect_str_eq(doc.path, "/var/tmp/img");
	cr_expect_str_empty(doc.state);
	cr_expect(!doc.has_queue);
	cr_assert_eq(doc.n_tests, 2);
	cr_expect_str_eq(doc.tests[0].label, "4K QD1");
	cr_expect(!doc.tests[0].trim && doc.tests[0].access == R0_ACCESS_RAND);
	cr_expect(doc.tests[0].read_pct == 100 && doc.tests[0].block_bytes == 4096);
	cr_expect(doc.tests[0].queue_depth == 1 && doc.tests[0].jobs == 1);
	cr_expect(NEAR(doc.tests[0].runtime_s, 3) && doc.tests[0].ramp_s == 0);
	cr_expect_eq(doc.tests[0].span_bytes, 1 << 28);
	cr_expect(NEAR(doc.tests[0].bps_median, 2000 * 4096.0), "%f", doc.tests[0].bps_median);
	cr_expect(NEAR(doc.tests[0].bps_min, 1000 * 4096.0) && NEAR(doc.tests[0].bps_max, 3000 * 4096.0));
	cr_expect(NEAR(doc.tests[0].iops_median, 2000), "%f", doc.tests[0].iops_median);
	cr_expect(NEAR(doc.tests[0].mb_per_s_median, 2000 * 4096.0 / 1e6), "%f", doc.tests[0].mb_per_s_median);
	cr_expect_gt(doc.tests[0].lat_p50_ns, 150000);
	cr_expect_lt(doc.tests[0].lat_p50_ns, 250000);
	cr_expect_gt(doc.tests[0].lat_min_ns, 0);
	cr_expect(NEAR(doc.tests[0].read_lat_p50_ns, doc.tests[0].lat_p50_ns), "reads only: the same");
	cr_expect(isnan(doc.tests[0].write_lat_p50_ns), "no write: null");
	cr_expect(doc.tests[1].trim && doc.tests[1].block_bytes == 65536);
	cr_expect(isnan(doc.tests[1].read_lat_p50_ns) && isnan(doc.tests[1].write_lat_p50_ns),
		  "a discard test: neither");
	r0_bench_doc_free(&doc);
}

/* A mixed test: reads and writes timed apart beside the combined figures (fio's read and write sections). */
Test(benchjson, a_mixed_test_keeps_reads_and_writes_apart)
{
	struct r0_io_file t = { .fd = -1, .size_bytes = 1 << 30, .logical_block_bytes = 512,
			       .physical_block_bytes = 512, .direct = true, .path = "/var/tmp/img" };
	static struct r0_result p;
	static struct r0_bench_test test = {
		.label = "mix", .w = { .access = R0_ACCESS_RAND, .read_pct = 70, .block_bytes = 4096,
				       .queue_depth = 4, .jobs = 1 }, .npasses = 1, .passes = &p, .ran = true,
	};
	const struct r0_window open = { 0, UINT64_MAX };
	struct r0_bench_run run = { .tool = "r0bench", .target = &t, .passes = 1, .tests = &test, .n_tests = 1 };
	struct r0_bench_doc doc;
	json_object *o, *x, *rl, *wl;
	char *path;

	/* reads take 10-30 us, writes 1-3 ms: the combined median sits among the reads */
	r0_result_reset(&p);
	for (int i = 0; i < 70; i++)
		r0_window_count(&p, &open, R0_OP_READ, 4096, 0, 10000 + (uint64_t)i * 300);
	for (int i = 0; i < 30; i++)
		r0_window_count(&p, &open, R0_OP_WRITE, 4096, 0, 1000000 + (uint64_t)i * 70000);
	p.elapsed_s = 1;
	p.jobs = 1;
	cr_expect_eq(p.lat.count, 100);
	cr_expect_eq(p.lat_op[R0_OP_READ].count, 70);
	cr_expect_eq(p.lat_op[R0_OP_WRITE].count, 30);
	cr_expect_eq(p.lat_op[R0_OP_WRITE].min, 1000000);
	test.lat = p.lat;
	test.lat_op[R0_OP_READ] = p.lat_op[R0_OP_READ];
	test.lat_op[R0_OP_WRITE] = p.lat_op[R0_OP_WRITE];

	o = r0_bench_to_json(&run);
	cr_assert_not_null(o);
	x = json_object_array_get_idx(json_object_object_get(o, "tests"), 0);
	rl = json_object_object_get(x, "read_latency_ns");
	wl = json_object_object_get(x, "write_latency_ns");
	cr_assert(rl && wl);
	cr_expect_eq(json_object_get_uint64(json_object_object_get(rl, "count")), 70);
	cr_expect_eq(json_object_get_uint64(json_object_object_get(wl, "count")), 30);
	cr_expect_eq(json_object_get_uint64(json_object_object_get(wl, "min")), 1000000);
	cr_expect_lt(json_object_get_uint64(json_object_object_get(rl, "max")), 40000);
	cr_expect_eq(json_object_get_uint64(json_object_object_get(json_object_object_get(x, "latency_ns"),
									   "count")), 100, "the combined object stays");
	path = write_doc(o);
	json_object_put(o);
	cr_assert_eq(r0_bench_load(path, &doc), 0);
	unlink(path);
	cr_assert_eq(doc.n_tests, 1);
	cr_expect_lt(doc.tests[0].read_lat_p50_ns, 40000);
	cr_expect_gt(doc.tests[0].write_lat_p50_ns, 1000000);
	cr_expect_lt(doc.tests[0].lat_p50_ns, 40000);
	r0_bench_doc_free(&doc);
}

/* Not r0bench/1 at all: -ENOMSG (a reader may try another format); r0bench/1 but broken: -EINVAL. */
Test(benchjson, refused_documents)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "hello", -ENOMSG },
		{ "{\"r0kit_schema\":\"r0sweep/1\",\"tests\":[]}", -ENOMSG },
		{ "[1,2]", -ENOMSG },
		{ "{\"r0kit_schema\":\"r0bench/1\"}", -EINVAL },
		{ "{\"r0kit_schema\":\"r0bench/1\",\"tests\":[{\"label\":\"x\"}]}", -EINVAL },
		{ "{\"r0kit_schema\":\"r0bench/1\",\"tests\":[{\"workload\":{\"block_bytes\":4096,"
		  "\"queue_depth\":1,\"jobs\":1,\"read_pct\":101}}]}", -EINVAL },
		{ "{\"r0kit_schema\":\"r0bench/1\",\"tests\":[{\"workload\":{\"trim\":true}}]}", 0 },
		{ "{\"r0kit_schema\":\"r0bench/1\",\"target\":{\"device\":{\"nr_requests\":32,"
		  "\"max_sectors_kib\":128}},\"tests\":[]}", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/r0-unit-benchjson-XXXXXX";
		int fd = mkstemp(path);
		struct r0_bench_doc doc;
		FILE *f;

		cr_assert(fd >= 0);
		f = fdopen(fd, "w");
		fputs(cases[i].text, f);
		fclose(f);
		cr_expect_eq(r0_bench_load(path, &doc), cases[i].err, "case %zu", i);
		if (i == sizeof(cases) / sizeof(cases[0]) - 1)
			cr_expect(doc.has_queue && doc.nr_requests == 32 && doc.max_sectors_kib == 128);
		r0_bench_doc_free(&doc);
		unlink(path);
	}
	{
		struct r0_bench_doc doc;

		cr_expect_eq(r0_bench_load("/nonexistent/r0-unit.json", &doc), -ENOMSG);
	}
}

/* One drive against another: the first property that differs, named; one not recorded is not compared. */
Test(benchjson, a_drive_differs_by_its_first_property)
{
	struct r0_bench_drive a = { .path = "/dev/sda", .model = "M1", .serial = "S1", .size_bytes = 1 << 30,
				    .max_hw_sectors_kib = 32 };
	struct r0_bench_drive b = a;
	char why[160] = "";

	cr_expect_eq(r0_bench_drive_diff(&a, &b, why, sizeof(why)), 0);
	snprintf(b.serial, sizeof(b.serial), "S2");
	cr_expect_eq(r0_bench_drive_diff(&a, &b, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "serial (S1 vs S2)");
	b = a;
	b.model[0] = '\0';   /* not recorded */
	b.size_bytes = 2u << 30;
	cr_expect_eq(r0_bench_drive_diff(&a, &b, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "size_bytes (1073741824 vs 2147483648)");
	b = a;
	b.max_hw_sectors_kib = 0;
	cr_expect_eq(r0_bench_drive_diff(&a, &b, why, sizeof(why)), 0);
}

/* r0bench --replay's "replay" object: what was replayed, null where a kind was not (no reads, not paced). */
Test(benchjson, the_replay_object)
{
	struct r0_replay_trace t = { .n = 3, .discards = 2, .discard_bytes = 8192, .duration_us = 1500000 };
	struct r0_replay_result r = { .queue_depth = 4, .requests = 3, .writes = 3, .written_bytes = 12288,
				      .wall_ns = 2000000000, .mib_s = 0.5, .iops = 1.5, .lat_p50_ns = 100,
				      .lat_p99_ns = 900, .write_lat_p50_ns = 100, .write_lat_p99_ns = 900 };
	json_object *j, *v;

	snprintf(t.h.name, sizeof(t.h.name), "sdb");
	t.h.size_sectors = 2048;
	t.h.logical_block_bytes = 512;
	j = r0_bench_replay_to_json("w.trace", &t, false, &r);
	cr_assert_not_null(j);
	cr_assert(json_object_object_get_ex(j, "trace", &v));
	cr_expect_str_eq(json_object_get_string(json_object_object_get(v, "device")), "sdb");
	cr_expect_eq(json_object_get_int64(json_object_object_get(v, "size_bytes")), 2048 * 512);
	cr_expect(json_object_object_get_ex(v, "max_in_flight", &v) && !v, "no queue depth data: null");
	cr_expect_eq(json_object_get_int64(json_object_object_get(j, "written_bytes")), 12288);
	cr_expect(json_object_object_get_ex(j, "read_latency_ns", &v) && !v, "no read: null");
	cr_expect(json_object_object_get_ex(j, "write_latency_ns", &v) && v);
	cr_expect_eq(json_object_get_int64(json_object_object_get(v, "p99")), 900);
	cr_expect(json_object_object_get_ex(j, "discards", &v) && !v, "discards not kept: null");
	cr_expect(json_object_object_get_ex(j, "lag_ns", &v) && !v, "not paced: no lag");
	json_object_put(j);
	t.discards_kept = true;
	r.discards = 2;
	j = r0_bench_replay_to_json("w.trace", &t, true, &r);
	cr_expect_eq(json_object_get_int64(json_object_object_get(j, "discards")), 2);
	cr_expect(json_object_object_get_ex(j, "lag_ns", &v) && v, "paced: its lag");
	json_object_put(j);
}

/* r0bench --replay --json: the run's document, no tests, the replay object beside them, as printed. */
Test(benchjson, the_replay_document_as_printed)
{
	struct r0_io_file tg = { .fd = -1, .size_bytes = 1 << 20, .logical_block_bytes = 512, .path = "/tmp/img" };
	struct r0_bench_run run = { .tool = "r0bench", .target = &tg, .passes = 1, .status = 1, .reason = "why" };
	struct r0_replay_trace t = { .n = 1 };
	struct r0_replay_result r = { .requests = 1 };
	json_object *o, *v;
	char *text = NULL;

	cr_assert_eq(r0_bench_replay_json_text(&run, "w.trace", &t, false, &r, &text), 0);
	cr_assert_eq(text[strlen(text) - 1], '\n');
	cr_assert_not_null(o = json_tokener_parse(text));
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "r0kit_schema")), R0_BENCH_SCHEMA);
	cr_expect_eq(json_object_array_length(json_object_object_get(o, "tests")), 0);
	cr_expect(json_object_object_get_ex(o, "replay", &v) && v);
	cr_expect_eq(json_object_get_int64(json_object_object_get(v, "requests")), 1);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(json_object_object_get(o, "exit"), "reason")),
			 "why");
	json_object_put(o);
	free(text);
}

/* fio's --rw names read back into the kind r0_bench_rw_name writes; a mix says so; a typo is no kind. */
Test(benchjson, rw_names_read_back)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite", "rw", "randrw", "trim",
					     "randtrim" };
	struct r0_workload w = { 0 };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		cr_assert_geq(r0_bench_rw_parse(names[i], &w), 0, "%s", names[i]);
		cr_expect_str_eq(r0_bench_rw_name(&w), names[i]);
	}
	cr_expect_eq(r0_bench_rw_parse("readwrite", &w), 1);
	cr_expect(w.access == R0_ACCESS_SEQ && w.read_pct == 50 && !w.trim);
	cr_expect_eq(r0_bench_rw_parse("randrw", &w), 1);
	cr_expect_eq(r0_bench_rw_parse("randread", &w), 0);
	cr_expect_eq(r0_bench_rw_parse("readrite", &w), -EINVAL);
	cr_expect_eq(r0_bench_rw_parse("", &w), -EINVAL);
}
