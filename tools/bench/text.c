// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench's human output: the progress line, the table, errors and verify faults. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "r0/enginepolicy.h"
#include "r0/size.h"

void bench_progress(const struct r0_progress *p, void *arg)
{
	const char *label = arg;
	static uint64_t last_bytes, last_ios;
	static double last_s;
	double dt = p->elapsed_s - last_s;

	/* a new pass, or the end of the ramp: the counters start again */
	if (p->elapsed_s < last_s || p->bytes < last_bytes || p->ios < last_ios || dt <= 0)
		last_bytes = last_ios = 0, last_s = 0, dt = p->elapsed_s;
	fprintf(stdout, "\r\033[K%s: %5.1f s%s %8.1f MB/s %9.0f IOPS", label, p->elapsed_s,
		p->ramping ? " (ramp)" : "", dt > 0 ? (double)(p->bytes - last_bytes) / 1e6 / dt : 0,
		dt > 0 ? (double)(p->ios - last_ios) / dt : 0);
	last_bytes = p->bytes;
	last_ios = p->ios;
	last_s = p->elapsed_s;
}

void bench_print_error(const struct run *run, const struct r0_result *r)
{
	fprintf(stderr, PROG ": %s: %s error at offset %llu (%u bytes): %s%s\n", run->target.path,
		r0_op_name(r->first_error.op), (unsigned long long)r->first_error.offset_bytes,
		r->first_error.length_bytes, strerror(r->first_error.err),
		r->errors > 1 ? " (and more)" : "");
}

void bench_print_verify_fault(const struct run *run, const struct r0_result *r)
{
	const struct r0_verify_report *b = &r->first_bad;

	fprintf(stderr, PROG ": %s: verify failed: %llu bad sectors; first at offset %llu "
		"(sector %llu): %s", run->target.path, (unsigned long long)r->verify_bad_sectors,
		(unsigned long long)b->offset_bytes, (unsigned long long)b->expected_sector,
		r0_verify_fault_name(b->fault));
	if (b->fault == R0_VERIFY_MISPLACED)
		fprintf(stderr, ": holds the data of sector %llu", (unsigned long long)b->found_sector);
	else if (b->fault == R0_VERIFY_STALE)
		fprintf(stderr, ": pass %u found, pass %u expected", b->found_pass, b->expected_pass);
	else if (b->fault == R0_VERIFY_CORRUPT)
		fprintf(stderr, ": first wrong byte at %u", b->bad_byte);
	fputc('\n', stderr);
}

/* The requests a test's jobs carried over its passes; *STOPPED: a job stopped. */
static uint64_t carried_ios(const struct r0_bench_test *t, bool *stopped)
{
	uint64_t n = 0;

	*stopped = false;
	for (unsigned p = 0; p < t->npasses; p++) {
		n += t->passes[p].carried_ios;
		*stopped |= t->passes[p].carry_stopped;
	}
	return n;
}

/* How each pass of a test that may end when steady ended, and after how long. */
static void print_ended(const struct r0_bench_test *t)
{
	printf("%-14s ended    ", "");
	for (unsigned p = 0; p < t->npasses; p++)
		printf("%s %s after %.2f s", p ? "," : "", r0_end_name(t->passes[p].ended),
		       t->passes[p].elapsed_s);
	printf(" (at least %g s, at most %g s)\n", (double)t->w.min_runtime_ns / 1e9,
	       (double)t->w.runtime_ns / 1e9);
}

static double read_iops(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r->ios[R0_OP_READ] / r->elapsed_s : 0;
}

static double write_iops(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r->ios[R0_OP_WRITE] / r->elapsed_s : 0;
}

static double read_mbps(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r->bytes[R0_OP_READ] / 1e6 / r->elapsed_s : 0;
}

static double write_mbps(const struct r0_result *r)
{
	return r->elapsed_s > 0 ? (double)r->bytes[R0_OP_WRITE] / 1e6 / r->elapsed_s : 0;
}

/* One row's latency columns: mean, p50, p99, p99.9, max of H. */
static void print_lat(const struct r0_hist *h)
{
	char p50[16], p99[16], p999[16], mx[16], mean[16];

	r0_format_ns(r0_hist_mean(h), mean, sizeof(mean));
	r0_format_ns((double)r0_hist_percentile(h, 50), p50, sizeof(p50));
	r0_format_ns((double)r0_hist_percentile(h, 99), p99, sizeof(p99));
	r0_format_ns((double)r0_hist_percentile(h, 99.9), p999, sizeof(p999));
	r0_format_ns(h->count ? (double)h->max : 0, mx, sizeof(mx));
	printf(" %8s %8s %8s %8s %8s", mean, p50, p99, p999, mx);
}

/*
 * A test of reads and writes: a row for each kind under its combined one
 * (fio's read and write sections), its MB/s and IOPS medians over the
 * passes and its own latency.
 */
static void print_kinds(const struct r0_bench_test *t)
{
	static const struct { enum r0_op op; const char *name; double (*mbps)(const struct r0_result *),
			      (*iops)(const struct r0_result *); } kind[] = {
		{ R0_OP_READ, "reads", read_mbps, read_iops }, { R0_OP_WRITE, "writes", write_mbps, write_iops },
	};

	if (!t->lat_op[R0_OP_READ].count || !t->lat_op[R0_OP_WRITE].count)
		return;
	for (unsigned k = 0; k < 2; k++) {
		printf("%-14s %-9s %5s %3s %3s %9s %9.1f %19s %9.0f", "", kind[k].name, "", "", "", "",
		       r0_bench_spread(t, kind[k].mbps).median, "", r0_bench_spread(t, kind[k].iops).median);
		print_lat(&t->lat_op[kind[k].op]);
		putchar('\n');
	}
}

void bench_print_table(const struct run *run)
{
	char sz[32];

	r0_format_size_human(run->target.size_bytes, sz, sizeof(sz));
	printf("%s: %s, %u-byte blocks%s", run->target.path, sz, run->target.logical_block_bytes,
	       run->target.direct ? "" : ", buffered (no O_DIRECT on this file system)");
	if (run->preset)
		printf(", preset %s", run->preset);
	if (run->ntests && run->tests[0].w.hipri)
		printf(", polled completions (--hipri)");
	if (run->ntests && run->tests[0].w.sqpoll)
		printf(", a submission thread (--sqpoll)");
	for (unsigned i = 0; i < run->ntests; i++) {
		enum r0_async why = r0_engine_async(&run->target, &run->tests[i].w);

		if (why == R0_ASYNC_NONE)
			continue;
		printf(", %s through io_uring's workers ", run->ntests == 1 ? "requests" : "some tests' requests");
		if (why == R0_ASYNC_DM_PIECES)
			printf("(more pieces than the bottom devices' tags)");
		else
			printf("(the device takes no nonblocking requests; up to %u a job)",
			       r0_engine_io_workers(&run->tests[i].w));
		break;
	}
	printf(", %u pass%s%s\n", run->passes, run->passes == 1 ? "" : "es",
	       run->warmup ? " after warm-up" : "");
	printf("%-14s %-9s %5s %3s %3s %9s %9s %19s %9s %8s %8s %8s %8s %8s %7s %4s\n", "TEST", "RW",
	       "BS", "QD", "JOB", "MB/s-BEST", "MB/s-MED", "MB/s-MIN..MAX", "IOPS-MED", "LAT-MEAN",
	       "P50", "P99", "P99.9", "MAX", "CPU/IO", "BUSY");
	for (unsigned i = 0; i < run->ntests; i++) {
		const struct r0_bench_test *t = &run->tests[i];
		struct r0_bench_spread m = r0_bench_spread(t, r0_result_mb_per_s), io = r0_bench_spread(t, r0_result_iops),
				      c = r0_bench_spread(t, r0_result_cpu_per_io), b = r0_bench_spread(t, r0_result_busy);
		char bs[16], range[40];
		bool stopped;
		uint64_t carried;

		if (!t->ran)
			continue;
		r0_format_size(t->w.block_bytes, bs, sizeof(bs));
		snprintf(range, sizeof(range), "%.1f..%.1f", m.min, m.max);
		printf("%-14s %-9s %5s %3u %3u %9.1f %9.1f %19s %9.0f", t->label, r0_bench_rw_name(&t->w), bs,
		       t->w.queue_depth, t->w.jobs ? t->w.jobs : 1, m.best, m.median, range, io.median);
		print_lat(&t->lat);
		printf(" %5.1fus %3.0f%%\n", c.median * 1e6, b.median * 100);
		print_kinds(t);
		carried = carried_ios(t, &stopped);
		if (carried)
			printf("%-14s carried   the job%s ran one request of the queue %s beside the "
			       "ring: %llu over the passes%s\n", "", t->w.jobs > 1 ? "s" : "",
			       t->w.jobs > 1 ? "each" : "itself", (unsigned long long)carried,
			       stopped ? ", then stopped (the device slept)" : "");
		if (t->w.min_runtime_ns)
			print_ended(t);
		if (t->verified)
			printf("%-14s verify    %llu bytes read back, %llu bad sectors\n", "",
			       (unsigned long long)t->verify.verify_checked_bytes,
			       (unsigned long long)t->verify.verify_bad_sectors);
		else if (t->w.verify == R0_VERIFY_READ)
			printf("%-14s verify    %llu bytes checked, %llu bad sectors\n", "",
			       (unsigned long long)t->passes[0].verify_checked_bytes,
			       (unsigned long long)t->passes[0].verify_bad_sectors);
	}
}
