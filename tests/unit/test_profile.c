// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/profile.h: stat lines, the mix of hand-made counter series, the mix file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/mixfile.h"
#include "r0/profile.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
/*
 * The stated tolerance: a class's weight within 0.02 of its true share of
 * the busy time, with the series' timing jittered by up to 3 ms an interval
 * and io_ticks counted in 4 ms jiffies (HZ=250), as a real kernel does.
 */
#define TOL 0.02

/* What one 1-second interval of a device did. */
struct step {
	unsigned repeat;            /* this many intervals */
	uint64_t r, r_bytes, r_merged;   /* requests completed, bytes each, merged into others */
	uint64_t w, w_bytes, w_merged;
	uint64_t busy_ms;           /* io_ticks */
	double qd;                  /* mean in flight while busy */
	double read_time_share;     /* of the summed time in flight; -1: by requests */
	unsigned in_flight;         /* at the end of the interval */
	uint64_t discards, discard_bytes;
	unsigned sub_inflight;      /* 10 in_flight reads between samples saw this many; 0: none taken */
};

/* The device cuts every request at max_req however small (a stripe at its chunk). */
static bool cut_at_limit;

/* Feeds STEPS as cumulative counters into P, the true busy time per class into TRUE_BUSY. */
static void run(struct r0_profile *p, const struct step *steps, size_t n, uint64_t max_req)
{
	struct r0_profile_sample prev = { .t_ns = 1000000000ULL }, cur;
	unsigned k = 0;

	r0_profile_init(p);
	prev.s.nr_fields = 17;
	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < steps[i].repeat; j++, k++) {
			const struct step *s = &steps[i];
			uint64_t busy = s->busy_ms / 4 * 4;   /* jiffies */
			double tiq = s->qd * (double)s->busy_ms;
			double rs = s->read_time_share >= 0 ? s->read_time_share :
				    (s->r + s->w ? (double)s->r / (double)(s->r + s->w) : 0);

			cur = prev;
			cur.t_ns += 1000000000ULL + (uint64_t)((k * 7919) % 7) * 1000000ULL - 3000000ULL;
			cur.s.reads += s->r;
			cur.s.reads_merged += s->r_merged;
			cur.s.read_sectors += s->r * s->r_bytes / 512;
			cur.s.read_ticks_ms += (uint64_t)llround(tiq * rs);
			cur.s.writes += s->w;
			cur.s.writes_merged += s->w_merged;
			cur.s.write_sectors += s->w * s->w_bytes / 512;
			cur.s.write_ticks_ms += (uint64_t)llround(tiq * (1 - rs));
			cur.s.io_ticks_ms += busy;
			cur.s.time_in_queue_ms += (uint64_t)llround(tiq);
			cur.s.in_flight = s->in_flight;
			cur.s.discards += s->discards;
			cur.s.discard_sectors += s->discard_bytes / 512;
			memset(&cur.sub, 0, sizeof(cur.sub));
			for (unsigned r = 0; s->sub_inflight && r < 10; r++)
				r0_inflight_tally_add(&cur.sub, s->sub_inflight);
			cr_assert_eq(cut_at_limit ? r0_profile_add_cut(p, &prev, &cur, max_req, true) :
						    r0_profile_add(p, &prev, &cur, max_req), 0);
			prev = cur;
		}
	r0_profile_finish(p);
}

static void expect_weights(const struct r0_profile *p, const double want[R0_PC_N])
{
	for (int c = 0; c < R0_PC_N; c++)
		cr_expect(fabs(p->cls[c].weight - want[c]) <= TOL, "%s: weight %.4f, true %.4f",
			  r0_pclass_name(c), p->cls[c].weight, want[c]);
}

Test(profile, stat_lines)
{
	static const struct { const char *line; int err; unsigned fields; uint64_t last; } t[] = {
		{ "1 2 3 4 5 6 7 8 9 10 11", 0, 11, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 0, 15, 0 },
		{ "    4     0   2048   12  5 0 8 3 0 16 15 0 0 0 0 2 1\n", 0, 17, 1 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", 0, 17, 17 },
		{ "1 2 3 4 5 6 7 8 9 10", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 -11", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11x", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11 garbage", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 99999999999999999999999", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 11\n1 2 3 4 5 6 7 8 9 10 11", -EINVAL, 0, 0 },
		{ "", -EINVAL, 0, 0 },
		{ "reads writes", -EINVAL, 0, 0 },
	};
	struct r0_blockstat s;

	for (size_t i = 0; i < N(t); i++) {
		memset(&s, 0xff, sizeof(s));
		cr_expect_eq(r0_blockstat_parse(t[i].line, &s), t[i].err, "case %zu", i);
		cr_expect_eq(s.nr_fields, t[i].fields, "case %zu", i);
		cr_expect_eq(s.flush_ticks_ms, t[i].last, "case %zu", i);
	}
	cr_assert_eq(r0_blockstat_parse("    4     0   2048   12  5 0 8 3 0 16 15 0 0 0 0 2 1", &s), 0);
	cr_expect_eq(s.reads, 4);
	cr_expect_eq(s.read_sectors, 2048);
	cr_expect_eq(s.write_sectors, 8);
	cr_expect_eq(s.io_ticks_ms, 16);
	cr_expect_eq(s.time_in_queue_ms, 15);
	cr_expect_eq(s.flushes, 2);
}

Test(profile, sequential_reader_split_at_the_size_limit)
{
	/* 1 MiB reads at QD1, split by the kernel into 128K requests: 8 in flight */
	static const struct step s[] = {
		{ .repeat = 30, .r = 2000, .r_bytes = 131072, .busy_ms = 1000, .qd = 7.8,
		  .read_time_share = -1, .in_flight = 8 },
	};
	double want[R0_PC_N] = { [R0_PC_SEQ_READ] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 131072);
	expect_weights(&p, want);
	cr_expect_float_eq(p.read_share_bytes, 1.0, 1e-12);
	cr_expect_float_eq(p.avg_read_bytes, 131072.0, 1e-6);
	cr_expect_eq(p.active, 30);
	cr_expect_eq(p.size_hist[0][5], 30, "all intervals in the <=128K bucket");
	cr_expect_eq(p.inflight_hist[3], 30);
	cr_expect_str_eq(p.confidence_level, "high");
}

/*
 * A dm-stripe at 64K under a 1 MiB writer counts 64K pieces, unmerged, a
 * few in flight: alone they read as small writes; cut at a stripe's chunk
 * they are a stream.
 */
Test(profile, stripe_pieces_at_the_chunk_are_a_stream)
{
	static const struct step s[] = {
		{ .repeat = 20, .w = 9000, .w_bytes = 65536, .busy_ms = 1000, .qd = 1.3,
		  .read_time_share = -1, .in_flight = 1 },
	};
	double stream[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 1 }, small[R0_PC_N] = { [R0_PC_RAND_SMALL_Q1_WRITE] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 65536);
	expect_weights(&p, small);
	cr_expect_float_eq(r0_profile_cut_share(&p), 0.0, 1e-12);
	cut_at_limit = true;
	run(&p, s, N(s), 65536);
	cut_at_limit = false;
	expect_weights(&p, stream);
	/* weighed as a stream, but large or one-chunk random writes would leave the same pieces */
	cr_expect_float_eq(r0_profile_cut_share(&p), 1.0, 1e-9);
	cr_expect_float_eq(p.cut_busy_s[0], 0.0, 1e-12);
}

Test(profile, sequential_reader_by_merges)
{
	/* buffered 4K reads merged into 64K requests; the queue takes up to 1M */
	static const struct step s[] = {
		{ .repeat = 30, .r = 1000, .r_bytes = 65536, .r_merged = 15000, .busy_ms = 900, .qd = 1,
		  .read_time_share = -1, .in_flight = 1 },
	};
	double want[R0_PC_N] = { [R0_PC_SEQ_READ] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 1 << 20);
	expect_weights(&p, want);
}

Test(profile, sequential_writer_of_unsplit_1m_requests)
{
	/* a queue that takes 4M whole: 1M requests are far from its limit */
	static const struct step s[] = {
		{ .repeat = 30, .w = 200, .w_bytes = 1 << 20, .busy_ms = 1000, .qd = 1,
		  .read_time_share = -1, .in_flight = 1 },
	};
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 4 << 20);
	expect_weights(&p, want);
	cr_expect_float_eq(p.read_share_ops, 0.0, 1e-12);
}

Test(profile, small_random_q1_writer)
{
	static const struct step s[] = {
		{ .repeat = 5 },        /* idle first: not counted */
		{ .repeat = 40, .w = 2000, .w_bytes = 4096, .busy_ms = 996, .qd = 0.8,
		  .read_time_share = -1, .in_flight = 1 },
	};
	double want[R0_PC_N] = { [R0_PC_RAND_SMALL_Q1_WRITE] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 131072);
	expect_weights(&p, want);
	cr_expect_float_eq(p.read_share_bytes, 0.0, 1e-12);
	cr_expect_float_eq(p.read_share_ops, 0.0, 1e-12);
	cr_expect_eq(p.active, 40);
	cr_expect_eq(p.intervals, 45);
	cr_expect_float_eq(p.q1_share, 1.0, 1e-12);
	cr_expect(fabs(p.mean_qd - 0.8) < 0.01, "mean qd %f", p.mean_qd);
	cr_expect_str_eq(p.confidence_level, "high");
}

Test(profile, io_ticks_undercounting_short_requests)
{
	/*
	 * As 6.12 counted null_blk at QD1 in the sandbox: 0.9 s in flight a
	 * second but only 0.33 s of io_ticks, which alone reads as QD 2.7.
	 * The in_flight reads (1 each) give the queue depth and the busy time.
	 */
	static const struct step s[] = {
		{ .repeat = 30, .w = 900, .w_bytes = 4096, .busy_ms = 333, .qd = 2.7,
		  .read_time_share = -1, .in_flight = 1, .sub_inflight = 1 },
	};
	double want[R0_PC_N] = { [R0_PC_RAND_SMALL_Q1_WRITE] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 131072);
	expect_weights(&p, want);
	cr_expect(fabs(p.busy_s - 30 * 0.9) < 0.5, "busy %f s", p.busy_s);
	cr_expect(fabs(p.busy_ticks_s - 30 * 0.332) < 0.1, "io_ticks %f s", p.busy_ticks_s);
	cr_expect_float_eq(p.q1_share, 1.0, 1e-12);
	cr_expect_float_eq(p.mean_qd, 1.0, 1e-9);
	cr_expect_eq(p.inflight_hist[1], 300, "the in_flight reads, not the samples");

	/* without the reads, io_ticks decides: the same series looks deep */
	struct step no_reads = s[0];
	no_reads.sub_inflight = 0;
	run(&p, &no_reads, 1, 131072);
	cr_expect_gt(p.cls[R0_PC_RAND_SMALL_QD_WRITE].weight, 0.9);
}

Test(profile, deep_queue_reader)
{
	static const struct step s[] = {
		{ .repeat = 15, .r = 15000, .r_bytes = 4096, .busy_ms = 1000, .qd = 31.5,
		  .read_time_share = -1, .in_flight = 32 },
		{ .repeat = 15, .r = 15000, .r_bytes = 4096, .busy_ms = 1000, .qd = 31.5,
		  .read_time_share = -1, .in_flight = 32, .sub_inflight = 31 },
	};
	double want[R0_PC_N] = { [R0_PC_RAND_SMALL_QD_READ] = 1 };
	struct r0_profile p;

	run(&p, s, N(s), 131072);
	expect_weights(&p, want);
	cr_expect_float_eq(p.read_share_bytes, 1.0, 1e-12);
	cr_expect_float_eq(p.q1_share, 0.0, 1e-12);
	cr_expect(fabs(p.mean_qd - 31.5) < 0.5, "mean qd %f", p.mean_qd);
}

Test(profile, mixed)
{
	static const struct step s[] = {
		/* 16 s busy: 4K reads one at a time */
		{ .repeat = 20, .r = 1000, .r_bytes = 4096, .busy_ms = 800, .qd = 1, .read_time_share = -1,
		  .in_flight = 1 },
		/* 3 s: 512K writes, half of the bios merged: a stream */
		{ .repeat = 10, .w = 200, .w_bytes = 524288, .w_merged = 200, .busy_ms = 300, .qd = 4,
		  .read_time_share = -1, .in_flight = 4 },
		/* 4 s: 256K random reads, well below the 1M limit, no merges */
		{ .repeat = 5, .r = 100, .r_bytes = 262144, .busy_ms = 800, .qd = 2, .read_time_share = -1 },
		{ .repeat = 5 },
		/* 5 s: small reads and writes together at QD16, half the time each */
		{ .repeat = 5, .r = 500, .r_bytes = 4096, .w = 500, .w_bytes = 4096, .busy_ms = 1000, .qd = 16,
		  .read_time_share = 0.5, .in_flight = 16, .discards = 10, .discard_bytes = 1 << 20 },
	};
	double want[R0_PC_N] = {
		[R0_PC_RAND_SMALL_Q1_READ] = 16.0 / 28, [R0_PC_SEQ_WRITE] = 3.0 / 28,
		[R0_PC_RAND_LARGE_READ] = 4.0 / 28, [R0_PC_RAND_SMALL_QD_READ] = 2.5 / 28,
		[R0_PC_RAND_SMALL_QD_WRITE] = 2.5 / 28,
	};
	double rb = 20.0 * 1000 * 4096 + 5.0 * 100 * 262144 + 5.0 * 500 * 4096;
	double wb = 10.0 * 200 * 524288 + 5.0 * 500 * 4096;
	struct r0_profile p;
	char desc[512];
	double wt[R0_PC_N];

	run(&p, s, N(s), 1 << 20);
	expect_weights(&p, want);
	cr_expect_float_eq(p.read_share_bytes, rb / (rb + wb), 1e-12);
	cr_expect_float_eq(p.read_share_ops, (20000.0 + 500 + 2500) / (20000.0 + 500 + 2500 + 2000 + 2500), 1e-12);
	cr_expect_float_eq(p.discard_share_bytes, 5.0 * 1048576 / (rb + wb + 5.0 * 1048576), 1e-12);
	cr_expect_eq(p.discards, 50);
	cr_expect_eq(p.active, 40);
	/* QD <= 2: the 4K reads and the 256K reads, 20 of 28 busy seconds */
	cr_expect(fabs(p.q1_share - 20.0 / 28) <= TOL, "q1 share %f", p.q1_share);
	/* the mixed intervals share one queue depth: not clear, so not high */
	cr_expect(p.confidence < 0.9, "confidence %f", p.confidence);
	for (int c = 0; c < R0_PC_N; c++)
		wt[c] = p.cls[c].weight;
	cr_assert_eq(r0_mix_describe("/dev/nvme0n1", 86400, wt, "medium", desc, sizeof(desc)), 0);
	cr_expect_str_eq(desc, "the workload measured on /dev/nvme0n1 over 24 h: 57 % small reads at QD1, "
			 "14 % large random reads, 11 % sequential writes, 18 % other (confidence medium)");
	cr_expect_eq(r0_mix_describe("/dev/nvme0n1", 86400, wt, "medium", desc, 40), -ENOSPC);
}

Test(profile, counters_going_back_are_skipped)
{
	struct r0_profile_sample a = { .t_ns = 1000000000ULL }, b, c;
	struct r0_profile p;

	r0_profile_init(&p);
	a.s.reads = 1000;
	a.s.read_sectors = 8000;
	b = a;
	b.t_ns += 1000000000ULL;
	b.s.reads = 10;         /* the device was re-created */
	cr_assert_eq(r0_profile_add(&p, &a, &b, 0), 0);
	c = b;                  /* time did not advance */
	cr_assert_eq(r0_profile_add(&p, &b, &c, 0), 0);
	r0_profile_finish(&p);
	cr_expect_eq(p.resets, 2);
	cr_expect_eq(p.reads, 0);
	cr_expect_eq(p.active, 0);
	cr_expect_eq(r0_profile_add(&p, NULL, &c, 0), -EINVAL);
}

static char dir[] = "/tmp/r0-profile-test.XXXXXX";

static void put(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static void mkdir_tmp(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(profile, mix_file_round_trip, .init = mkdir_tmp, .fini = rm_tmp)
{
	static const struct step s[] = {
		{ .repeat = 30, .r = 1000, .r_bytes = 4096, .busy_ms = 750, .qd = 1, .read_time_share = -1 },
		{ .repeat = 10, .w = 1000, .w_bytes = 4096, .busy_ms = 750, .qd = 1, .read_time_share = -1 },
	};
	const char *paths[] = { "/dev/nvme0n1" }, *kn[] = { "nvme0n1" };
	uint64_t maxreq[] = { 131072 };
	struct r0_profile_meta m = {
		.tool = "r0profile test", .n_dev = 1, .dev_path = paths, .dev_kname = kn,
		.dev_max_request_bytes = maxreq, .start_epoch_s = 1796300000, .end_epoch_s = 1796300040,
		.interval_s = 1,
	};
	struct r0_profile p;
	struct r0_mix mix;
	json_object *o;
	char path[256], desc[512];

	run(&p, s, N(s), 131072);
	snprintf(path, sizeof(path), "%s/mix.json", dir);
	cr_assert_eq(r0_mix_file_write(path, &p, &m), 0);

	cr_assert_eq(r0_mix_load(path, &mix, desc, sizeof(desc)), 0);
	cr_expect_str_eq(mix.name, "measured");
	cr_assert_eq(mix.n, 2);
	cr_expect_str_eq(mix.e[0].key, "rand-small-q1-read");
	cr_expect(fabs(mix.e[0].weight - 0.75) <= TOL, "weight %f", mix.e[0].weight);
	cr_expect_str_eq(mix.e[1].key, "rand-small-q1-write");
	cr_expect_str_eq(desc, "the workload measured on /dev/nvme0n1 over 40 s: 75 % small reads at QD1, "
			 "25 % small writes at QD1 (confidence high)");
	/* the description is optional */
	cr_expect_eq(r0_mix_load(path, &mix, NULL, 0), 0);
	/* the summary's description is the file's, and --json prints the file */
	{
		char said[R0_MIX_DESCRIPTION_MAX], *text = NULL, *file = NULL;
		FILE *f = fopen(path, "r");
		size_t n = 0;

		r0_mix_file_description(&p, &m, said, sizeof(said));
		cr_expect_str_eq(said, desc);
		cr_assert_not_null(f);
		cr_assert_eq(getdelim(&file, &n, '\0', f) > 0, 1);
		fclose(f);
		cr_assert_eq(r0_mix_file_text(&p, &m, &text), 0);
		cr_expect_eq(strlen(text), strlen(file) + 1);
		cr_expect_eq(strncmp(text, file, strlen(file)), 0, "the text printed is the file, and a newline");
		free(text);
		free(file);
	}

	/* a trace read from a file: no dates, no request limit known; null, never 1970 or 0, and read back */
	m.start_epoch_s = 0;
	m.end_epoch_s = 40;
	maxreq[0] = 0;
	cr_assert_not_null(o = r0_mix_file_of_profile(&p, &m));
	json_object *per = json_object_object_get(o, "period"), *dev = json_object_array_get_idx(
		json_object_object_get(o, "devices"), 0), *v;

	cr_expect(json_object_object_get_ex(per, "start", &v) && !v, "start null");
	cr_expect(json_object_object_get_ex(per, "end", &v) && !v, "end null");
	cr_expect(json_object_object_get_ex(dev, "max_request_bytes", &v) && !v, "max_request_bytes null");
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
	cr_expect_eq(r0_mix_load(path, &mix, NULL, 0), 0);
	cr_expect_eq(mix.n, 2);
	cr_expect_not(mix.per_request, "busy time: time shares already");

	/* a trace without completions weighs by requests: the reader turns them into time (issue 44) */
	p.weights_by_requests = true;
	cr_assert_not_null(o = r0_mix_file_of_profile(&p, &m));
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "weights_basis")), "requests");
	cr_assert_eq(json_object_to_file(path, o), 0);
	json_object_put(o);
	cr_expect_eq(r0_mix_load(path, &mix, NULL, 0), 0);
	cr_expect(mix.per_request);
}

Test(profile, mix_file_refusals, .init = mkdir_tmp, .fini = rm_tmp)
{
	static const struct { const char *name, *text; } bad[] = {
		{ "garbage", "this is not JSON {" },
		{ "empty", "" },
		{ "bench", "{\"r0kit_schema\":\"r0bench/1\",\"records\":[]}" },
		{ "array", "[1,2,3]" },
		{ "noweights", "{\"r0kit_schema\":\"r0mix/1\",\"devices\":[{\"path\":\"/dev/a\"}],\"period\":{\"seconds\":1}}" },
		{ "unknown-class", "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-reed\":{\"weight\":1}},"
				   "\"devices\":[{\"path\":\"/dev/a\"}],\"period\":{\"seconds\":1}}" },
		{ "negative", "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-read\":{\"weight\":-1},\"seq-write\":{\"weight\":2}},"
			      "\"devices\":[{\"path\":\"/dev/a\"}],\"period\":{\"seconds\":1}}" },
		{ "string-weight", "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-read\":{\"weight\":\"1\"}},"
				   "\"devices\":[{\"path\":\"/dev/a\"}],\"period\":{\"seconds\":1}}" },
		{ "all-zero", "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-read\":{\"weight\":0}},"
			      "\"devices\":[{\"path\":\"/dev/a\"}],\"period\":{\"seconds\":1}}" },
		{ "no-devices", "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-read\":{\"weight\":1}},"
				"\"devices\":[],\"period\":{\"seconds\":1}}" },
	};
	static const char good[] = "{\"r0kit_schema\":\"r0mix/1\",\"weights\":{\"seq-read\":{\"weight\":3},"
				   "\"rand-small-qd-write\":{\"weight\":1}},\"devices\":[{\"path\":\"/dev/a\"},"
				   "{\"path\":\"/dev/b\"}],\"period\":{\"seconds\":7200}}";
	struct r0_mix mix;
	char path[256], desc[256];

	for (size_t i = 0; i < N(bad); i++) {
		put(bad[i].name, bad[i].text, path, sizeof(path));
		strcpy(desc, "untouched");
		cr_expect_eq(r0_mix_load(path, &mix, desc, sizeof(desc)), -EINVAL, "%s", bad[i].name);
		cr_expect_eq(mix.n, 0, "%s", bad[i].name);
	}
	put("good", good, path, sizeof(path));
	cr_assert_eq(r0_mix_load(path, &mix, desc, sizeof(desc)), 0);
	cr_expect_eq(mix.n, 2);
	cr_expect_float_eq(mix.e[0].weight, 0.75, 1e-12);
	cr_expect_str_eq(desc, "the workload measured on /dev/a, /dev/b over 2 h: 75 % sequential reads, "
			 "25 % small writes at high QD");
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	cr_expect_eq(r0_mix_load(path, &mix, desc, sizeof(desc)), -ENOENT);
}

Test(profile, class_names)
{
	for (int c = 0; c < R0_PC_N; c++)
		cr_expect_eq(r0_pclass_from_name(r0_pclass_name(c)), c);
	cr_expect_eq(r0_pclass_from_name("mixed"), -EINVAL);
	cr_expect_null(r0_pclass_name(R0_PC_N));
	cr_expect_eq(r0_profile_bucket_bytes(0), 4096);
	cr_expect_eq(r0_profile_bucket_bytes(R0_PROFILE_SIZE_BUCKETS - 1), UINT64_MAX);
}

/* A fake sysfs: a disk "fk0" (MAJ:MIN 7:200) with a partition "fk0p1" (7:201). */
static void fake_sysfs(void)
{
	static const char *const cmds[] = {
		"mkdir -p '%s/sys/devices/virtual/block/fk0/fk0p1' '%s/sys/devices/virtual/block/fk0/queue' '%s/sys/dev/block'",
		"echo '1 0 8 0 0 0 0 0 0 0 0' > '%s/sys/devices/virtual/block/fk0/stat'",
		"echo '1 0 8 0 0 0 0 0 0 0 0' > '%s/sys/devices/virtual/block/fk0/fk0p1/stat'",
		"echo 512 > '%s/sys/devices/virtual/block/fk0/queue/max_sectors_kb'",
		"echo 0 > '%s/sys/devices/virtual/block/fk0/queue/iostats'",
		"ln -s ../../devices/virtual/block/fk0 '%s/sys/dev/block/7:200'",
		"ln -s ../../devices/virtual/block/fk0/fk0p1 '%s/sys/dev/block/7:201'",
		/* a dm-stripe of 3 at 64K (minimum I/O a chunk, optimal 3 chunks), an md raid0 of 2 at 128K */
		"mkdir -p '%s/sys/devices/virtual/block/dm-7/queue' '%s/sys/devices/virtual/block/dm-7/slaves/a' "
		"'%s/sys/devices/virtual/block/dm-7/slaves/b'",
		"mkdir -p '%s/sys/devices/virtual/block/dm-7/slaves/c' '%s/sys/devices/virtual/block/md9/queue' "
		"'%s/sys/devices/virtual/block/md9/md'",
		"mkdir -p '%s/sys/devices/virtual/block/md9/slaves/a' '%s/sys/devices/virtual/block/md9/slaves/b' '%s/x'",
		"echo '1 0 8 0 0 0 0 0 0 0 0' > '%s/sys/devices/virtual/block/dm-7/stat'",
		"echo 1280 > '%s/sys/devices/virtual/block/dm-7/queue/max_sectors_kb'",
		"echo 65536 > '%s/sys/devices/virtual/block/dm-7/queue/minimum_io_size'",
		"echo 196608 > '%s/sys/devices/virtual/block/dm-7/queue/optimal_io_size'",
		"echo '1 0 8 0 0 0 0 0 0 0 0' > '%s/sys/devices/virtual/block/md9/stat'",
		"echo 1280 > '%s/sys/devices/virtual/block/md9/queue/max_sectors_kb'",
		"echo raid0 > '%s/sys/devices/virtual/block/md9/md/level'",
		"echo 131072 > '%s/sys/devices/virtual/block/md9/md/chunk_size'",
		"ln -s ../../devices/virtual/block/dm-7 '%s/sys/dev/block/253:7'",
		"ln -s ../../devices/virtual/block/md9 '%s/sys/dev/block/9:9'",
	};
	char cmd[512];

	mkdir_tmp();
	for (size_t i = 0; i < N(cmds); i++) {
		snprintf(cmd, sizeof(cmd), cmds[i], dir, dir, dir);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
	}
}

Test(profile, device_resolve, .init = fake_sysfs, .fini = rm_tmp)
{
	struct r0_probe_env env = { 0 };
	struct r0_profile_dev d;
	char sys[256], disk[256], part[256], link[256], file[256];

	snprintf(sys, sizeof(sys), "%s/sys", dir);
	env.sysfs_root = sys;
	snprintf(disk, sizeof(disk), "%s/fk0", dir);
	snprintf(part, sizeof(part), "%s/fk0p1", dir);
	if (mknod(disk, S_IFBLK | 0600, makedev(7, 200)) || mknod(part, S_IFBLK | 0600, makedev(7, 201)))
		cr_skip_test("mknod: %s (needs CAP_MKNOD)", strerror(errno));
	cr_assert_eq(r0_profile_dev_resolve(disk, &env, &d), 0);
	cr_expect_str_eq(d.kname, "fk0");
	cr_expect_eq(d.max_request_bytes, 512 * 1024);
	cr_expect_eq(d.devt, makedev(7, 200));
	cr_expect(d.no_iostats, "queue/iostats 0");
	/* a partition: its disk's queue limit; through a symlink, as /dev/disk/by-id/ */
	snprintf(link, sizeof(link), "%s/by-id-link", dir);
	cr_assert_eq(symlink(part, link), 0);
	cr_assert_eq(r0_profile_dev_resolve(link, &env, &d), 0);
	cr_expect_str_eq(d.kname, "fk0p1");
	cr_expect_eq(d.max_request_bytes, 512 * 1024);
	cr_expect(d.no_iostats, "the disk's queue/iostats");

	snprintf(file, sizeof(file), "%s/plain", dir);
	put("plain", "x", file, sizeof(file));
	cr_expect_eq(r0_profile_dev_resolve(file, &env, &d), -ENOTBLK);
	snprintf(file, sizeof(file), "%s/missing", dir);
	cr_expect_eq(r0_profile_dev_resolve(file, &env, &d), -ENOENT);
	/* a block device the (fake) sysfs does not know */
	snprintf(file, sizeof(file), "%s/other", dir);
	cr_assert_eq(mknod(file, S_IFBLK | 0600, makedev(7, 202)), 0);
	cr_expect_eq(r0_profile_dev_resolve(file, &env, &d), -ENODEV);
	/* striped arrays say their chunk: dm-stripe by its queue's sizes, md by md/chunk_size */
	snprintf(file, sizeof(file), "%s/dm7", dir);
	cr_assert_eq(mknod(file, S_IFBLK | 0600, makedev(253, 7)), 0);
	cr_assert_eq(r0_profile_dev_resolve(file, &env, &d), 0);
	cr_expect(d.stripe_chunk_bytes == 65536 && d.stripe_members == 3, "%llu %u",
		  (unsigned long long)d.stripe_chunk_bytes, d.stripe_members);
	snprintf(file, sizeof(file), "%s/md9", dir);
	cr_assert_eq(mknod(file, S_IFBLK | 0600, makedev(9, 9)), 0);
	cr_assert_eq(r0_profile_dev_resolve(file, &env, &d), 0);
	cr_expect(d.stripe_chunk_bytes == 131072 && d.stripe_members == 2);
	cr_assert_eq(r0_profile_dev_resolve(disk, &env, &d), 0);
	cr_expect_eq(d.stripe_chunk_bytes, 0, "a disk is no stripe");
}
