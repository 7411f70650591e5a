// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/replay.h: the mapping onto a target, loading a trace, and replays on a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/replay.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MiB (1u << 20)
#define FILE_BYTES (4u * MiB)

static char trace[64], target[64];
static struct r0_io_file tg;

static void setup(void)
{
	int fd;

	strcpy(trace, "/tmp/r0-unit-replay-XXXXXX");
	fd = mkstemp(trace);
	cr_assert_geq(fd, 0);
	close(fd);
	/*
	 * The target in memory where tmpfs takes O_DIRECT (Linux 6.6 on): the
	 * paced tests bound wall times, which a disk busy with other work (a
	 * sandbox guest's drives beside make check) would stretch. /var/tmp
	 * where it does not.
	 */
	static const char *const dirs[] = { "/dev/shm", "/var/tmp" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(target, sizeof(target), "%s/r0-unit-replay-XXXXXX", dirs[i]);
		fd = mkstemp(target);
		if (fd < 0)
			continue;
		cr_assert_eq(ftruncate(fd, FILE_BYTES), 0);
		close(fd);
		cr_assert_eq(r0_io_file_open(target, true, &tg), 0);
		if (tg.direct)
			return;
		r0_io_file_close(&tg);
		unlink(target);
	}
	cr_assert_fail("neither /dev/shm nor /var/tmp takes O_DIRECT");
}

static void teardown(void)
{
	r0_io_file_close(&tg);
	unlink(trace);
	unlink(target);
}

static void write_trace(uint64_t size_sectors, unsigned flags, const struct r0_trace_event *ev, size_t n)
{
	struct r0_trace_header h = { .flags = flags, .name = "nullb0", .size_sectors = size_sectors,
				     .logical_block_bytes = 512 };
	struct r0_trace_writer *w;

	cr_assert_eq(r0_trace_writer_open(trace, &h, &w), 0);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(r0_trace_write(w, &ev[i]), 0, "event %zu", i);
	cr_assert_eq(r0_trace_writer_close(w), 0);
}

#define Q(t, op, sec, b) { t, R0_TRACE_QUEUE, R0_TRACE_##op, sec, b }
#define C(t, op, sec) { t, R0_TRACE_COMPLETE, R0_TRACE_##op, sec, 0 }
#define I(t, op, sec) { t, R0_TRACE_ISSUE, R0_TRACE_##op, sec, 0 }

Test(replay, map_table)
{
	static const struct {
		uint64_t off; uint32_t bytes; uint64_t target; uint32_t lb;
		int what; uint64_t off_out; uint32_t bytes_out;
	} c[] = {
		{ 8192, 4096, MiB, 4096, 0, 8192, 4096 },                          /* fits */
		{ 512, 512, MiB, 4096, R0_REPLAY_RESIZED, 0, 4096 },              /* widened to the block */
		{ 3584, 1024, MiB, 4096, R0_REPLAY_RESIZED, 0, 8192 },            /* straddles two blocks */
		{ MiB + 8192, 4096, MiB, 4096, R0_REPLAY_WRAPPED, 8192, 4096 },   /* modulo the size */
		{ 3ull * MiB - 4096, 8192, MiB, 4096, R0_REPLAY_WRAPPED, MiB - 8192, 8192 }, /* would cross: moved back */
		{ MiB - 4096, 4096, MiB + 100, 4096, 0, MiB - 4096, 4096 },       /* partial last block unused */
		{ MiB, 4096, MiB + 100, 4096, R0_REPLAY_WRAPPED, 0, 4096 },
		{ 0, 2 * MiB, MiB, 4096, -ERANGE, 0, 0 },                         /* larger than the target */
	};

	for (size_t i = 0; i < N(c); i++) {
		uint64_t off = 0;
		uint32_t b = 0;
		int what = r0_replay_map(c[i].off, c[i].bytes, c[i].target, c[i].lb, &off, &b);

		cr_expect_eq(what, c[i].what, "case %zu: %d", i, what);
		if (what < 0)
			continue;
		cr_expect_eq(off, c[i].off_out, "case %zu: offset %llu", i, (unsigned long long)off);
		cr_expect_eq(b, c[i].bytes_out, "case %zu: bytes %u", i, b);
		cr_expect_eq(off % c[i].lb, 0, "case %zu", i);
		cr_expect_leq(off + b, c[i].target, "case %zu", i);
	}
}

Test(replay, load_counts_requests_and_queue_depth, .init = setup, .fini = teardown)
{
	/* three reads queued before any completes: the trace's deepest queue is 3 */
	static const struct r0_trace_event ev[] = {
		Q(1000, READ, 0, 4096), Q(1010, READ, 8, 4096), Q(1020, READ, 16, 4096),
		C(1100, READ, 0), C(1110, READ, 8), C(1120, READ, 16),
		Q(2000, WRITE, 64, 65536), C(2100, WRITE, 64),
		Q(2200, DISCARD, 1024, 1 << 20), C(2300, DISCARD, 1024),
		{ 2400, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },
	};
	struct r0_replay_trace t;

	write_trace(8192, R0_TRACE_QD_QUEUE, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_eq(t.n, 5);
	cr_expect_eq(t.reads, 3);
	cr_expect_eq(t.writes, 1);
	cr_expect_eq(t.flushes, 1);
	cr_expect_eq(t.discards, 1);
	cr_expect_eq(t.read_bytes, 3 * 4096);
	cr_expect_eq(t.write_bytes, 65536);
	cr_expect_eq(t.max_request_bytes, 65536);
	cr_expect_eq(t.max_in_flight, 3);
	cr_expect_eq(t.reqs[0].t_us, 0, "times start at the first request");
	cr_expect_eq(t.duration_us, 1400);
	cr_expect_eq(t.reqs[3].offset_bytes, 64 * 512);
	cr_expect(r0_replay_writes(&t));
	r0_replay_trace_free(&t);
}

Test(replay, queue_depth_is_the_submitters_not_the_pieces, .init = setup, .fini = teardown)
{
	/*
	 * a 1 MiB write issued as 4 pieces, all out at once, and a 4K write
	 * queued after its first piece completed: 2 in flight (counting
	 * pieces would say 4; ending the 1 MiB at its first piece, 1)
	 */
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, 0, 1 << 20), I(1, WRITE, 0), I(2, WRITE, 512), I(3, WRITE, 1024), I(4, WRITE, 1536),
		C(5, WRITE, 0), Q(6, WRITE, 4096, 4096), I(7, WRITE, 4096),
		C(8, WRITE, 512), C(9, WRITE, 1024), C(10, WRITE, 1536), C(11, WRITE, 4096),
		Q(20, WRITE, 0, 4096), I(21, WRITE, 0), C(22, WRITE, 0),
	};
	struct r0_replay_trace t;

	write_trace(16384, R0_TRACE_QD_ISSUE, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_eq(t.max_in_flight, 2);
	cr_expect_eq(t.writes, 3);
	r0_replay_trace_free(&t);
}

Test(replay, a_request_refused_unissued_is_replayed_once, .init = setup, .fini = teardown)
{
	/*
	 * io_uring's nonblocking attempt ended unissued (EAGAIN) and queued
	 * again; then the submitter writes the same block once more itself
	 */
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, 6144, 1 << 20), C(10, WRITE, 6144),
		Q(20, WRITE, 6144, 1 << 20), I(21, WRITE, 6144), C(30, WRITE, 6144),
		Q(40, WRITE, 6144, 1 << 20), I(41, WRITE, 6144), C(50, WRITE, 6144),
	};
	struct r0_replay_trace t;

	write_trace(16384, R0_TRACE_QD_ISSUE, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_eq(t.writes, 2);
	cr_expect_eq(t.retried, 1);
	cr_expect_eq(t.reqs[0].t_us, 0, "the submitter's time is kept");
	r0_replay_trace_free(&t);
	/* flushes ended without an ISSUE of their own are each the submitter's */
	{
		static const struct r0_trace_event fl[] = {
			{ 0, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 }, { 5, R0_TRACE_COMPLETE, R0_TRACE_FLUSH, 0, 0 },
			{ 10, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 }, { 15, R0_TRACE_COMPLETE, R0_TRACE_FLUSH, 0, 0 },
		};

		write_trace(16384, R0_TRACE_QD_ISSUE, fl, N(fl));
		cr_assert_eq(r0_replay_load(trace, &t), 0);
		cr_expect_eq(t.flushes, 2);
		cr_expect_eq(t.retried, 0);
		r0_replay_trace_free(&t);
	}
	/* without ISSUE events an unissued end cannot be told: every QUEUE is replayed */
	write_trace(16384, R0_TRACE_QD_QUEUE, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_eq(t.writes, 3);
	cr_expect_eq(t.retried, 0);
	r0_replay_trace_free(&t);
}

Test(replay, truncated_trace_is_ebadmsg, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = {
		Q(0, READ, 0, 4096), Q(10, READ, 8, 4096), Q(20, WRITE, 16, 4096),
	};
	struct r0_replay_trace t;
	FILE *f;
	long len;

	write_trace(8192, 0, ev, N(ev));
	f = fopen(trace, "r");
	cr_assert(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fclose(f);
	cr_assert_eq(truncate(trace, len - 3), 0);
	cr_expect_eq(r0_replay_load(trace, &t), -EBADMSG);
	cr_expect(t.fault.truncated, "a cut file says so");
	r0_replay_trace_free(&t);
}

/* What the target holds at OFF: true when the LEN bytes there are not all zero. */
static bool written(uint64_t off, size_t len)
{
	unsigned char buf[8192];
	FILE *f = fopen(target, "r");
	bool any = false;

	cr_assert(f && len <= sizeof(buf));
	cr_assert_eq(fseek(f, (long)off, SEEK_SET), 0);
	cr_assert_eq(fread(buf, 1, len, f), len);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		any |= buf[i] != 0;
	return any;
}

Test(replay, fast_replay_issues_every_request, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, 0, 8192), Q(10, WRITE, 64, 4096), Q(20, READ, 0, 8192),
		Q(30, READ, 128, 4096), { 40, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },
	};
	struct r0_replay_opts o = { .seed = 3 };
	struct r0_replay_trace t;
	struct r0_replay_result r;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_eq(r.queue_depth, R0_REPLAY_DEFAULT_QD, "no queue depth in the trace");
	cr_expect_eq(r.requests, 5);
	cr_expect_eq(r.reads, 2);
	cr_expect_eq(r.writes, 2);
	cr_expect_eq(r.flushes, 1);
	cr_expect_eq(r.read_bytes, 12288);
	cr_expect_eq(r.written_bytes, 12288);
	cr_expect_not(r.mapped);
	cr_expect_eq(r.wrapped, 0);
	cr_expect_gt(r.wall_ns, 0);
	cr_expect_gt(r.mib_s, 0);
	cr_expect_gt(r.lat_p99_ns, 0);
	cr_expect_geq(r.lat_p99_ns, r.lat_p50_ns);
	/* reads and writes timed apart too; a flush in neither */
	cr_expect(r.read_lat_p50_ns > 0 && r.read_lat_p99_ns >= r.read_lat_p50_ns);
	cr_expect(r.write_lat_p50_ns > 0 && r.write_lat_p99_ns >= r.write_lat_p50_ns);
	/* the writes landed where recorded, and nothing else was written */
	cr_expect(written(0, 8192));
	cr_expect(written(64 * 512, 4096));
	cr_expect_not(written(8192, 8192));
	r0_replay_trace_free(&t);
}

Test(replay, larger_trace_is_mapped_and_says_so, .init = setup, .fini = teardown)
{
	/* recorded on a device 4 times the target: the write at 2 x size + 64K lands at 64K */
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, (2ull * FILE_BYTES + 65536) / 512, 4096), Q(10, READ, 0, 4096),
	};
	struct r0_replay_opts o = { .seed = 3, .queue_depth = 1 };
	struct r0_replay_trace t;
	struct r0_replay_result r;

	write_trace(4ull * FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect(r.mapped);
	cr_expect_eq(r.wrapped, 1);
	cr_expect_eq(r.requests, 2);
	cr_expect_eq(r.queue_depth, 1);
	cr_expect(written(65536, 4096));
	r0_replay_trace_free(&t);
}

Test(replay, pace_keeps_the_recorded_times, .init = setup, .fini = teardown)
{
	/* 600 ms between the first and last request: a paced replay takes that long, a fast one not */
	static const struct r0_trace_event ev[] = {
		Q(0, READ, 0, 4096), Q(200000, READ, 8, 4096), Q(600000, READ, 16, 4096),
	};
	struct r0_replay_opts o = { .pace = true };
	struct r0_replay_trace t;
	struct r0_replay_result r;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_eq(r.requests, 3);
	cr_expect_eq(r.recorded_ns, 600000000ull);
	cr_expect_geq(r.wall_ns, 600000000ull, "wall %llu ns", (unsigned long long)r.wall_ns);
	cr_expect_lt(r.wall_ns, 3000000000ull, "wall %llu ns", (unsigned long long)r.wall_ns);
	cr_expect_geq(r.lag_max_ns, r.lag_end_ns);
	o.pace = false;
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	/* 3 reads from memory: far below the recorded 600 ms even on a loaded host */
	cr_expect_lt(r.wall_ns, 400000000ull, "fast: wall %llu ns", (unsigned long long)r.wall_ns);
	cr_expect_eq(r.lag_max_ns, 0);
	cr_expect_gt(r.read_lat_p50_ns, 0);
	cr_expect_eq(r.write_lat_p50_ns, 0, "no write: nothing timed");
	r0_replay_trace_free(&t);
}

/* r0sweep --replay-scale's and r0bench --replay-scale's pace: X times the recorded speed */
Test(replay, a_scaled_pace_divides_the_recorded_times, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = {
		Q(0, READ, 0, 4096), Q(400000, WRITE, 8, 4096), Q(800000, READ, 16, 4096),
	};
	struct r0_replay_opts o = { .pace = true, .time_scale = 4 };
	struct r0_replay_trace t;
	struct r0_replay_result r;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_eq(r.requests, 3);
	/* wall time runs from the first request's issue, which a loaded host can delay past its due time:
	 * the pace holds the last one to 200 ms after the start, so the span is at least 200 ms less that */
	cr_expect_geq(r.wall_ns, 180000000ull, "800 ms at 4x: at least 200 ms, wall %llu ns",
		      (unsigned long long)r.wall_ns);
	cr_expect_lt(r.wall_ns, 700000000ull, "below the recorded 800 ms: wall %llu ns",
		     (unsigned long long)r.wall_ns);
	o.time_scale = 0.8;
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_geq(r.wall_ns, 1000000000ull, "at 0.8 times the speed: at least 1 s, wall %llu ns",
		      (unsigned long long)r.wall_ns);
	r0_replay_trace_free(&t);
}

/* Discards: skipped by default; with R0_REPLAY_LOAD_DISCARDS replayed in their place as punched holes */
Test(replay, discards_are_replayed_only_when_asked, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, 0, 8192), Q(10, WRITE, 64, 8192), Q(20, DISCARD, 0, 8192),
		Q(30, READ, 128, 4096), Q(40, DISCARD, 16, 3ull << 30),
	};
	struct r0_replay_opts o = { .seed = 3, .queue_depth = 1 };
	struct r0_replay_trace t;
	struct r0_replay_result r;
	char why[256];

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_not(t.discards_kept);
	cr_expect_eq(t.discards, 2);
	cr_expect_eq(t.discard_bytes, 8192 + (3ull << 30));
	cr_expect_eq(t.n, 3, "the discards are not requests");
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_eq(r.discards_skipped, 2);
	cr_expect_eq(r.discards, 0);
	cr_expect(written(0, 8192) && written(64 * 512, 8192), "nothing discarded");
	r0_replay_trace_free(&t);

	/* kept: the 3 GiB discard in 3 requests of 1 GiB, each larger than the 4 MiB file */
	cr_assert_eq(r0_replay_load_flags(trace, R0_REPLAY_LOAD_DISCARDS, &t), 0);
	cr_expect(t.discards_kept);
	cr_expect_eq(t.discards, 2);
	cr_expect_eq(t.n, 3 + 1 + 3);
	cr_expect_eq(t.max_request_bytes, 8192, "a discard needs no buffer");
	cr_expect(r0_replay_writes(&t));
	cr_expect_eq(r0_replay_skip(&t, R0_REPLAY_SKIP_READS | R0_REPLAY_SKIP_FLUSHES), 1);
	cr_expect_eq(t.n, 6, "discards are never skipped");
	cr_assert_eq(r0_io_file_discard_check(&tg, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
	cr_expect_eq(r.discards_skipped, 0);
	cr_expect_eq(r.discards, 4);
	cr_expect_eq(r.requests, 2 + 4);
	cr_expect_eq(r.discarded_bytes, 8192 + 3ull * FILE_BYTES, "the large ones: the whole file each");
	cr_expect_not(written(0, 8192), "discarded after it was written");
	cr_expect_not(written(64 * 512, 8192), "discarded by the whole-file discards");
	r0_replay_trace_free(&t);
}

/* A discard never overtakes a write queued before it, however deep the queue */
Test(replay, a_discard_waits_for_the_requests_before_it, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = {
		Q(0, WRITE, 0, 65536), Q(1, WRITE, 128, 65536), Q(2, DISCARD, 0, 131072), Q(3, WRITE, 256, 4096),
	};
	struct r0_replay_opts o = { .seed = 3, .queue_depth = 32 };
	struct r0_replay_trace t;
	struct r0_replay_result r;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load_flags(trace, R0_REPLAY_LOAD_DISCARDS, &t), 0);
	for (int k = 0; k < 20; k++) {
		cr_assert_eq(r0_replay_run(&t, &tg, &o, &r), 0);
		cr_expect_not(written(0, 8192) || written(65536 - 8192, 8192) || written(131072 - 8192, 8192),
			      "run %d: the writes before the discard are gone", k);
		cr_expect(written(256 * 512, 4096), "run %d: the write after it stays", k);
	}
	r0_replay_trace_free(&t);
}

Test(replay, a_trace_of_discards_alone_writes_and_needs_a_writable_target, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = { Q(0, DISCARD, 0, 4096) };
	struct r0_replay_opts o = { 0 };
	struct r0_replay_trace t;
	struct r0_replay_result r;
	struct r0_io_file ro;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_expect_not(r0_replay_writes(&t), "skipped discards write nothing");
	r0_replay_trace_free(&t);
	cr_assert_eq(r0_replay_load_flags(trace, R0_REPLAY_LOAD_DISCARDS, &t), 0);
	cr_expect(r0_replay_writes(&t));
	cr_assert_eq(r0_io_file_open(target, false, &ro), 0);
	cr_expect_eq(r0_replay_run(&t, &ro, &o, &r), -EROFS);
	r0_io_file_close(&ro);
	r0_replay_trace_free(&t);
}

Test(replay, writes_on_a_read_only_target_are_refused, .init = setup, .fini = teardown)
{
	static const struct r0_trace_event ev[] = { Q(0, WRITE, 0, 4096) };
	struct r0_replay_opts o = { 0 };
	struct r0_replay_trace t;
	struct r0_replay_result r;
	struct r0_io_file ro;

	write_trace(FILE_BYTES / 512, 0, ev, N(ev));
	cr_assert_eq(r0_replay_load(trace, &t), 0);
	cr_assert_eq(r0_io_file_open(target, false, &ro), 0);
	cr_expect_eq(r0_replay_run(&t, &ro, &o, &r), -EROFS);
	cr_expect_not(written(0, 4096));
	r0_io_file_close(&ro);
	r0_replay_trace_free(&t);
}
