// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/tracemix.h: synthetic traces of known workloads classed exactly. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/tracemix.h"

#define MAX_EV 100000

/* One workload: what each request is, how many are kept in flight, how long each takes. */
struct load {
	enum r0_trace_op op;
	uint64_t bytes;
	unsigned qd;
	uint64_t service_us;
	unsigned streams;           /* 0: random; N: N sequential streams taken in turn */
	unsigned requests;
	uint64_t start_us;
};

static struct r0_trace_event ev[MAX_EV];
static size_t n_ev;

static int by_time(const void *a, const void *b)
{
	const struct r0_trace_event *x = a, *y = b;

	if (x->t_us != y->t_us)
		return x->t_us < y->t_us ? -1 : 1;
	/* at one instant a completion frees the slot the next request takes */
	if (x->kind != y->kind)
		return x->kind == R0_TRACE_COMPLETE ? -1 : y->kind == R0_TRACE_COMPLETE ? 1 : 0;
	return x < y ? -1 : 1;
}

/*
 * A closed loop at QD: each slot queues a request, which completes
 * SERVICE_US later, and queues the next at once. With ISSUE, each
 * request is also issued as it is queued (a request-based disk).
 */
static void add_load(const struct load *l, bool with_complete, bool with_issue)
{
	uint64_t next[8], x = 0x9e3779b97f4a7c15ULL;

	for (unsigned s = 0; s < 8; s++)
		next[s] = (uint64_t)s << 30;
	for (unsigned i = 0; i < l->requests; i++) {
		unsigned slot = i % l->qd, round = i / l->qd;
		uint64_t t = l->start_us + round * l->service_us + slot;
		struct r0_trace_event q = { .t_us = t, .kind = R0_TRACE_QUEUE, .op = l->op, .bytes = l->bytes };

		if (l->streams) {
			q.sector = next[i % l->streams];
			next[i % l->streams] += l->bytes / 512;
		} else {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			q.sector = x % (1ULL << 28) / 8 * 8;
		}
		cr_assert_lt(n_ev + 3, MAX_EV);
		ev[n_ev++] = q;
		if (with_issue)
			ev[n_ev++] = (struct r0_trace_event){ .t_us = t, .kind = R0_TRACE_ISSUE, .op = l->op,
							      .sector = q.sector };
		if (with_complete)
			ev[n_ev++] = (struct r0_trace_event){ .t_us = t + l->service_us, .kind = R0_TRACE_COMPLETE,
							      .op = l->op, .sector = q.sector };
	}
}

static void classify(struct r0_profile *p, unsigned flags)
{
	struct r0_trace_header h = { .flags = flags, .name = "dm-0", .logical_block_bytes = 512 };
	struct r0_tracemix m;

	qsort(ev, n_ev, sizeof(ev[0]), by_time);
	r0_tracemix_init(&m, &h, p);
	for (size_t i = 0; i < n_ev; i++)
		cr_assert_eq(r0_tracemix_add(&m, &ev[i]), 0, "event %zu", i);
	r0_tracemix_finish(&m);
	n_ev = 0;
}

static void expect_weights(const struct r0_profile *p, const double want[R0_PC_N], double tol)
{
	for (int c = 0; c < R0_PC_N; c++)
		cr_expect(fabs(p->cls[c].weight - want[c]) <= tol, "%s: weight %.4f, want %.4f",
			  r0_pclass_name(c), p->cls[c].weight, want[c]);
}

Test(tracemix, a_1m_sequential_writer_at_qd8)
{
	static const struct load l = { R0_TRACE_WRITE, 1 << 20, 8, 4000, 1, 4000, 0 };
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 1 };
	struct r0_profile p;

	add_load(&l, true, false);
	classify(&p, R0_TRACE_QD_QUEUE);
	/* the first request has nothing to continue: 1 in 4000 */
	expect_weights(&p, want, 0.001);
	cr_expect_eq(p.writes, 4000);
	cr_expect_eq(p.write_bytes, 4000ULL << 20);
	cr_expect_eq(p.cls[R0_PC_RAND_LARGE_WRITE].ops, 1);
	cr_expect_float_eq(p.mean_qd, 8.0, 0.01);
	cr_expect_float_eq(p.busy_s, 2.0, 0.001);   /* 500 rounds of 4 ms */
	cr_expect_eq(p.size_hist[1][R0_PROFILE_SIZE_BUCKETS - 2], 4000, "all in the <= 1M bucket");
}

Test(tracemix, 4k_random_reads_at_qd1_and_qd32)
{
	static const struct load q1 = { R0_TRACE_READ, 4096, 1, 100, 0, 10000, 0 };
	static const struct load q32 = { R0_TRACE_READ, 4096, 32, 800, 0, 32000, 2000000 };
	double want[R0_PC_N] = { [R0_PC_RAND_SMALL_Q1_READ] = 1 }, want32[R0_PC_N] = { [R0_PC_RAND_SMALL_QD_READ] = 1 };
	struct r0_profile p;

	add_load(&q1, true, false);
	classify(&p, R0_TRACE_QD_QUEUE);
	expect_weights(&p, want, 1e-9);
	cr_expect_float_eq(p.q1_share, 1.0, 1e-9);
	add_load(&q32, true, false);
	classify(&p, R0_TRACE_QD_QUEUE);
	/* the first round fills the queue one by one: 2 of 32000 at QD <= 2 */
	expect_weights(&p, want32, 0.001);
	cr_expect_float_eq(p.mean_qd, 32.0, 0.1);
}

/* Two sequential readers taken in turn are two streams, not random I/O. */
Test(tracemix, two_interleaved_streams)
{
	static const struct load l = { R0_TRACE_READ, 131072, 2, 1000, 2, 4000, 0 };
	double want[R0_PC_N] = { [R0_PC_SEQ_READ] = 1 };
	struct r0_profile p;

	add_load(&l, true, false);
	classify(&p, R0_TRACE_QD_QUEUE);
	expect_weights(&p, want, 0.001);
	cr_expect_eq(p.cls[R0_PC_SEQ_READ].ops, 3998, "all but each stream's first");
}

/* A stream whose submitters queue neighbours out of order (io_uring workers on two CPUs) is still one. */
Test(tracemix, a_stream_queued_out_of_order)
{
	static const struct load l = { R0_TRACE_WRITE, 1 << 20, 8, 4000, 1, 4000, 0 };
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 1 };
	struct r0_profile p;

	add_load(&l, true, false);
	/* swap every other pair of neighbours (queue and completion), as seen on a dm-stripe under r0bench */
	for (size_t i = 0; i + 3 < n_ev; i += 4) {
		uint64_t s = ev[i].sector;

		ev[i].sector = ev[i + 1].sector = ev[i + 2].sector;
		ev[i + 2].sector = ev[i + 3].sector = s;
	}
	classify(&p, R0_TRACE_QD_QUEUE);
	expect_weights(&p, want, 0.001);
	cr_expect_geq(p.cls[R0_PC_SEQ_WRITE].ops, 3999);
}

/*
 * A completion the recorder lost (a record read while the kernel wrote it)
 * leaves its request in flight only until many later ones have completed:
 * 4K random reads at QD1 stay at QD1.
 */
Test(tracemix, lost_completions_do_not_deepen_the_queue_for_ever)
{
	static const struct load l = { R0_TRACE_READ, 4096, 1, 100, 0, 30000, 0 };
	struct r0_profile p;
	size_t kept = 0;

	add_load(&l, true, false);
	/* drop the completions of requests 1000, 1001 and 1002 */
	for (size_t i = 0; i < n_ev; i++)
		if (i < 2000 || i > 2005 || ev[i].kind != R0_TRACE_COMPLETE)
			ev[kept++] = ev[i];
	n_ev = kept;
	classify(&p, R0_TRACE_QD_QUEUE);
	/* at QD 2-4 for some 1024 requests of 30000 */
	cr_expect_geq(p.cls[R0_PC_RAND_SMALL_Q1_READ].weight, 0.95, "%f", p.cls[R0_PC_RAND_SMALL_Q1_READ].weight);
	cr_expect_lt(p.cls[R0_PC_RAND_SMALL_QD_READ].ops, 1100);
}

/* A 1 MiB writer half the time, 4K random reads the other half: each its own share of the busy time. */
Test(tracemix, a_mix_weighs_by_busy_time)
{
	static const struct load w = { R0_TRACE_WRITE, 1 << 20, 8, 4000, 1, 2000, 0 };           /* 1 s */
	static const struct load r = { R0_TRACE_READ, 4096, 1, 100, 0, 30000, 2000000 };         /* 3 s */
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 0.25, [R0_PC_RAND_SMALL_Q1_READ] = 0.75 };
	struct r0_profile p;

	add_load(&w, true, false);
	add_load(&r, true, false);
	classify(&p, R0_TRACE_QD_QUEUE);
	expect_weights(&p, want, 0.002);
	cr_expect_float_eq(p.read_share_ops, 30000.0 / 32000, 1e-9);
	cr_expect_float_eq(p.seconds, 5.0, 0.001);
	cr_expect_eq(p.active, 4, "seconds with requests queued");
}

/* A request-based disk's trace: in flight from ISSUE and COMPLETE. */
Test(tracemix, queue_depth_from_issue_and_complete)
{
	static const struct load l = { R0_TRACE_WRITE, 4096, 16, 500, 0, 16000, 0 };
	double want[R0_PC_N] = { [R0_PC_RAND_SMALL_QD_WRITE] = 1 };
	struct r0_profile p;

	add_load(&l, true, true);
	classify(&p, R0_TRACE_QD_ISSUE);
	expect_weights(&p, want, 0.001);
	cr_expect_float_eq(p.mean_qd, 16.0, 0.1);
}

/* No completions: classes by requests, small random ones at QD1 for want of a depth. */
Test(tracemix, no_pairs_weigh_by_requests)
{
	static const struct load w = { R0_TRACE_WRITE, 1 << 20, 8, 4000, 1, 1000, 0 };
	static const struct load r = { R0_TRACE_READ, 4096, 32, 100, 0, 3000, 2000000 };
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 0.25, [R0_PC_RAND_SMALL_Q1_READ] = 0.75 };
	struct r0_profile p;

	add_load(&w, false, false);
	add_load(&r, false, false);
	classify(&p, 0);
	expect_weights(&p, want, 0.001);
	cr_expect_float_eq(p.busy_s, 0.0, 1e-12);
}

Test(tracemix, discards_and_flushes_are_counted_not_classed)
{
	struct r0_profile p;

	ev[n_ev++] = (struct r0_trace_event){ 0, R0_TRACE_QUEUE, R0_TRACE_DISCARD, 0, 1 << 20 };
	ev[n_ev++] = (struct r0_trace_event){ 10, R0_TRACE_COMPLETE, R0_TRACE_DISCARD, 0, 0 };
	ev[n_ev++] = (struct r0_trace_event){ 20, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 };
	ev[n_ev++] = (struct r0_trace_event){ 30, R0_TRACE_COMPLETE, R0_TRACE_FLUSH, 0, 0 };
	ev[n_ev++] = (struct r0_trace_event){ 40, R0_TRACE_QUEUE, R0_TRACE_WRITE, 8, 4096 };
	ev[n_ev++] = (struct r0_trace_event){ 50, R0_TRACE_COMPLETE, R0_TRACE_WRITE, 0, 0 };
	classify(&p, R0_TRACE_QD_QUEUE);
	cr_expect_eq(p.discards, 1);
	cr_expect_eq(p.discard_bytes, 1 << 20);
	cr_expect_eq(p.writes, 1);
	cr_expect_float_eq(p.cls[R0_PC_RAND_SMALL_Q1_WRITE].weight, 1.0, 1e-9);
	cr_expect_float_eq(p.busy_s, 30e-6, 1e-12);
}

Test(tracemix, from_a_file_and_a_truncated_one)
{
	static const struct load l = { R0_TRACE_WRITE, 1 << 20, 8, 4000, 1, 800, 0 };
	struct r0_trace_header h = { .flags = R0_TRACE_QD_QUEUE, .name = "md127", .logical_block_bytes = 512 };
	char path[] = "/tmp/r0-unit-tracemix-XXXXXX";
	struct r0_trace_writer *w;
	struct r0_profile p;
	struct r0_trace_fault fault;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	add_load(&l, true, false);
	qsort(ev, n_ev, sizeof(ev[0]), by_time);
	cr_assert_eq(r0_trace_writer_open(path, &h, &w), 0);
	for (size_t i = 0; i < n_ev; i++)
		cr_assert_eq(r0_trace_write(w, &ev[i]), 0);
	n_ev = 0;
	cr_assert_eq(r0_trace_writer_close(w), 0);
	cr_expect_eq(r0_tracemix_file(path, &h, &p, &fault), 0);
	cr_expect_str_eq(h.name, "md127");
	cr_expect_gt(p.cls[R0_PC_SEQ_WRITE].weight, 0.99);
	cr_assert_eq(truncate(path, 200), 0);
	cr_expect_eq(r0_tracemix_file(path, &h, &p, &fault), -EBADMSG);
	cr_expect(fault.truncated);
	cr_expect_eq(fault.line, 0, "an r0trace/1 record has no line");
	unlink(path);
}

/*
 * A 1M sequential writer whose every request the block layer first refused
 * unissued (io_uring's nonblocking try) and then queued again: each is one
 * request, and the stream stays sequential.
 */
Test(tracemix, a_request_queued_again_after_a_refusal_counts_once)
{
	struct r0_trace_header h = { .flags = R0_TRACE_QD_ISSUE, .name = "nullb0", .logical_block_bytes = 512 };
	double want[R0_PC_N] = { [R0_PC_SEQ_WRITE] = 1 };
	struct r0_tracemix m;
	struct r0_profile p;

	r0_tracemix_init(&m, &h, &p);
	for (unsigned i = 0; i < 100; i++) {
		uint64_t t = 1000 * (uint64_t)i, s = 2048 * (uint64_t)i;
		const struct r0_trace_event e[] = {
			{ .t_us = t, .kind = R0_TRACE_QUEUE, .op = R0_TRACE_WRITE, .sector = s, .bytes = 1 << 20 },
			{ .t_us = t, .kind = R0_TRACE_COMPLETE, .op = R0_TRACE_WRITE, .sector = s },
			{ .t_us = t + 1, .kind = R0_TRACE_QUEUE, .op = R0_TRACE_WRITE, .sector = s, .bytes = 1 << 20 },
			{ .t_us = t + 1, .kind = R0_TRACE_ISSUE, .op = R0_TRACE_WRITE, .sector = s },
			{ .t_us = t + 900, .kind = R0_TRACE_COMPLETE, .op = R0_TRACE_WRITE, .sector = s },
		};

		for (size_t k = 0; k < sizeof(e) / sizeof(e[0]); k++)
			cr_assert_eq(r0_tracemix_add(&m, &e[k]), 0);
	}
	r0_tracemix_finish(&m);
	cr_expect_eq(m.retried, 100);
	cr_expect_eq(p.writes, 100);
	cr_expect_eq(p.write_bytes, 100ULL << 20);
	expect_weights(&p, want, 0.02);
}
