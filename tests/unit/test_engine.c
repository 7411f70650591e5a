// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/engine.h on a regular file: workload checks, size- and
 * time-based runs, coverage, verify (faults found), trims, stopping. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <criterion/criterion.h>

#include "r0/engine.h"
#include "r0/enginepolicy.h"

#define FILE_BYTES (4u << 20)

static char path[64];
static struct r0_io_file t;
static struct r0_result *res;

static void setup(void)
{
	int fd;

	snprintf(path, sizeof(path), "/var/tmp/r0-unit-engine-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(ftruncate(fd, FILE_BYTES), 0);
	close(fd);
	cr_assert_eq(r0_io_file_open(path, true, &t), 0);
	res = malloc(sizeof(*res));
	cr_assert(res);
}

static void teardown(void)
{
	r0_io_file_close(&t);
	unlink(path);
	free(res);
}

static struct r0_workload wl(enum r0_access a, unsigned read_pct, uint32_t bs, unsigned qd)
{
	struct r0_workload w = { .access = a, .read_pct = read_pct, .block_bytes = bs,
				 .queue_depth = qd, .jobs = 1, .seed = 11, .verify_pass = 1 };
	return w;
}

static int check(const struct r0_workload *w, const struct r0_io_file *tg, char *why)
{
	return r0_workload_check(w, tg, why, 256);
}

Test(engine, workload_check_refuses_bad_values)
{
	struct r0_io_file fake = { .fd = -1, .size_bytes = 1 << 20, .logical_block_bytes = 4096,
				  .writable = true, .path = "fake" };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	char why[256];

	cr_assert_eq(check(&w, &fake, why), 0, "%s", why);
	w.block_bytes = 0;
	cr_expect_eq(check(&w, &fake, why), -EINVAL);
	cr_expect_str_eq(why, "block size 0");
	w.block_bytes = 6144;
	cr_expect_eq(check(&w, &fake, why), -EINVAL);
	cr_expect(strstr(why, "not a multiple of the logical block size 4096"), "%s", why);
	w = wl(R0_ACCESS_RAND, 100, 4096, 0);
	cr_expect_eq(check(&w, &fake, why), -EINVAL);
	cr_expect_str_eq(why, "queue depth 0");
	w.queue_depth = R0_QD_MAX + 1;
	cr_expect_eq(check(&w, &fake, why), -EINVAL);
	cr_expect(strstr(why, "above the ring limit"), "%s", why);
	w = wl(R0_ACCESS_RAND, 100, 64 << 20, 32);
	cr_expect_eq(check(&w, &fake, why), -EINVAL);
	cr_expect(strstr(why, "1 GiB of buffers"), "%s", why);
	w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	w.span_bytes = (1 << 20) + 4096;
	cr_expect_eq(check(&w, &fake, why), -ERANGE);
	cr_expect(strstr(why, "passes the end"), "%s", why);
	w.span_bytes = 0;
	w.offset_bytes = 1 << 20;
	cr_expect_eq(check(&w, &fake, why), -ERANGE);
	w.offset_bytes = 512;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "offset off the logical block");
	w = wl(R0_ACCESS_RAND, 100, 8192, 1);
	w.span_bytes = 4096;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "span smaller than a block");
	w = wl(R0_ACCESS_RAND, 0, 4096, 1);
	w.verify = R0_VERIFY_WRITE;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "random verify without coverage");
	w.cover = true;
	cr_expect_eq(check(&w, &fake, why), 0, "%s", why);
	w.runtime_ns = 1000000;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "verify is size-based");
	fake.writable = false;
	w = wl(R0_ACCESS_SEQ, 0, 4096, 1);
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "writes on a read-only target");
	w = wl(R0_ACCESS_RAND, 101, 4096, 1);
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "read percentage above 100");
}

/*
 * Job slices on odd spans and 512e devices, 1..17 jobs: contiguous, the
 * whole span, every start on the block size, the physical block and
 * --align, all but the last the same size and the last the remainder.
 */
Test(engine, job_slices_are_aligned_and_cover_the_span)
{
	static const struct {
		uint32_t lbs, pbs;
		uint64_t size;
	} devs[] = {
		{ 4096, 4096, 1ULL << 30 },                  /* zram, 1 GiB */
		{ 512, 512, 200ULL << 20 },                  /* null_blk member, 200 MiB */
		{ 512, 4096, 500107862016ULL },              /* a 500 GB 512e drive */
		{ 512, 4096, (1ULL << 30) + 7 * 512 },       /* odd: 7 sectors past 1 GiB */
		{ 4096, 4096, (3ULL << 20) + 5 * 4096 },     /* small and odd */
	};
	static const struct {
		uint32_t bs, align;
		uint64_t offset;
	} wls[] = {
		{ 4096, 0, 0 }, { 512, 0, 0 }, { 65536, 4096, 0 }, { 4096, 1 << 20, 0 },
		{ 131072, 0, 1 << 20 }, { 12288, 0, 0 },
	};

	for (size_t d = 0; d < sizeof(devs) / sizeof(devs[0]); d++) {
		for (size_t k = 0; k < sizeof(wls) / sizeof(wls[0]); k++) {
			struct r0_io_file tg = { .fd = -1, .size_bytes = devs[d].size,
						.logical_block_bytes = devs[d].lbs,
						.physical_block_bytes = devs[d].pbs, .writable = true,
						.path = "fake" };
			struct r0_workload w = wl(R0_ACCESS_RAND, 100, wls[k].bs, 1);

			w.align_bytes = wls[k].align;
			w.offset_bytes = wls[k].offset;
			if (wls[k].bs % devs[d].lbs)
				continue;
			for (unsigned n = 1; n <= 17; n++) {
				uint64_t unit = r0_workload_unit(&w, &tg), at = w.offset_bytes, first = 0;
				uint64_t span = tg.size_bytes - w.offset_bytes;
				char why[256];

				w.jobs = n;
				if (span / n < unit) {   /* 1 MiB --align on 3 MiB: not 4 whole units */
					cr_assert_eq(check(&w, &tg, why), -EINVAL);
					continue;
				}
				cr_assert_eq(check(&w, &tg, why), 0, "dev %zu wl %zu -j %u: %s", d, k, n, why);
				cr_assert_eq(unit % devs[d].pbs, 0);
				cr_assert_eq(unit % wls[k].bs, 0);
				cr_assert_eq(unit % (wls[k].align ? wls[k].align : 1), 0);
				for (unsigned i = 0; i < n; i++) {
					struct r0_region r;

					cr_assert_eq(r0_job_region(&w, &tg, i, &r), 0);
					cr_assert_eq(r.start_bytes, at, "dev %zu wl %zu -j %u: job %u at %llu",
						     d, k, n, i, (unsigned long long)r.start_bytes);
					cr_assert_eq((r.start_bytes - w.offset_bytes) % unit, 0,
						     "dev %zu wl %zu -j %u: job %u at %llu, unit %llu", d, k,
						     n, i, (unsigned long long)r.start_bytes,
						     (unsigned long long)unit);
					cr_assert_eq(r.start_bytes % devs[d].pbs, 0);
					cr_assert_geq(r.bytes, w.block_bytes);
					if (!i)
						first = r.bytes;
					else if (i < n - 1)
						cr_assert_eq(r.bytes, first);
					else
						cr_assert(r.bytes >= first && r.bytes - first < (uint64_t)n * unit,
							  "last %llu, others %llu", (unsigned long long)r.bytes,
							  (unsigned long long)first);
					at += r.bytes;
				}
				cr_assert_eq(at - w.offset_bytes, span, "dev %zu wl %zu -j %u", d, k, n);
			}
		}
	}
}

Test(engine, job_slices_refuse_what_does_not_split)
{
	struct r0_io_file tg = { .fd = -1, .size_bytes = 1 << 20, .logical_block_bytes = 512,
				.physical_block_bytes = 4096, .writable = true, .path = "fake" };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	struct r0_region r;
	char why[256];

	w.jobs = 3;
	w.shared_region = true;
	cr_assert_eq(r0_job_region(&w, &tg, 2, &r), 0);
	cr_expect_eq(r.start_bytes, 0);
	cr_expect_eq(r.bytes, 1 << 20, "shared: the whole span");
	cr_expect_eq(r0_job_region(&w, &tg, 3, &r), -EINVAL, "index past the jobs");
	w.shared_region = false;
	w.align_bytes = 512 << 10;
	cr_expect_eq(check(&w, &tg, why), -EINVAL, "3 jobs of whole 512 KiB units in 1 MiB");
	cr_expect(strstr(why, "whole 524288-byte units"), "%s", why);
	w.jobs = 2;
	cr_expect_eq(check(&w, &tg, why), 0, "%s", why);
}

/* The failure: -j 3 on a span that is no multiple of 3 blocks
 * started two jobs off the O_DIRECT alignment (EINVAL at once). */
Test(engine, three_jobs_on_an_uneven_file_write_and_read_back, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 0, 4096, 4);
	uint64_t bytes = FILE_BYTES + 4 * 4096;   /* 1028 blocks: no multiple of 3 */

	r0_io_file_close(&t);
	cr_assert_eq(truncate(path, (off_t)bytes), 0);
	cr_assert_eq(r0_io_file_open(path, true, &t), 0);
	w.jobs = 3;
	w.cover = true;
	w.verify = R0_VERIFY_WRITE;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->errors, 0, "%s at %llu", strerror(res->first_error.err),
		     (unsigned long long)res->first_error.offset_bytes);
	cr_expect_eq(res->bytes[R0_OP_WRITE], bytes);
	w = wl(R0_ACCESS_SEQ, 100, 4096, 4);
	w.jobs = 3;
	w.verify = R0_VERIFY_READ;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->errors, 0);
	cr_expect_eq(res->verify_checked_bytes, bytes);
	cr_expect_eq(res->verify_bad_sectors, 0);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Each job's CPU and wall seconds: it ran, its CPU fits in its wall time,
 * and that lies inside the call, which lasted the runtime. Under load a job
 * may start late or wait past the end for its last completions, so nothing
 * tighter holds: CI under ASan beside the sandbox saw a job start after the
 * 200 ms deadline had passed, 7 us of wall in a 0.237 s call. */
Test(engine, two_jobs_each_have_a_cpu_clock, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 4);
	double t0, call_s;

	w.jobs = 2;
	w.runtime_ns = 200000000;
	t0 = mono_s();
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	call_s = mono_s() - t0;
	cr_assert_eq(res->jobs, 2);
	for (unsigned i = 0; i < 2; i++) {
		cr_expect_gt(res->job_cpu_s[i], 0, "job %u", i);
		cr_expect_leq(res->job_cpu_s[i], res->job_wall_s[i], "job %u", i);
		cr_expect(res->job_wall_s[i] > 0 && res->job_wall_s[i] <= call_s,
			  "job %u: %g s of a %g s call", i, res->job_wall_s[i], call_s);
	}
	cr_expect_geq(call_s, 0.2 * 0.99, "the call lasted %g s of its 0.2 s runtime", call_s);
	cr_expect_leq(r0_result_busy(res), 1.0);
}

Test(engine, size_based_pass_counts_every_block, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_SEQ, 0, 64 << 10, 4);

	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_WRITE], FILE_BYTES / (64 << 10));
	cr_expect_eq(res->bytes[R0_OP_WRITE], FILE_BYTES);
	cr_expect_eq(res->moved_bytes[R0_OP_WRITE], FILE_BYTES);
	cr_expect_eq(res->errors, 0);
	cr_expect_eq(res->lat.count, FILE_BYTES / (64 << 10));
	cr_expect_gt(res->elapsed_s, 0);
	cr_expect_gt(r0_result_iops(res), 0);
}

Test(engine, time_based_runs_for_its_time, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 8);

	w.runtime_ns = 300000000;
	w.ramp_ns = 100000000;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_gt(res->ios[R0_OP_READ], 10);
	cr_expect_float_eq(res->elapsed_s, 0.3, 0.05);
	cr_expect_eq(res->lat.count, res->ios[R0_OP_READ]);
	/* the job thread's own clock over its window: it ran, and not more
	 * than the wall time between the same readings */
	cr_assert_eq(res->jobs, 1);
	cr_expect_gt(res->job_cpu_s[0], 0);
	cr_expect(res->job_wall_s[0] > 0.1 && res->job_wall_s[0] < 5, "%g s", res->job_wall_s[0]);
	cr_expect_leq(res->job_cpu_s[0], res->job_wall_s[0]);
	cr_expect(r0_result_busy(res) > 0 && r0_result_busy(res) <= 1, "busy %g", r0_result_busy(res));
	/* the process counts that thread too (its window is read every 10 ms) */
	cr_expect_gt(res->user_s + res->sys_s, res->job_cpu_s[0] / 2, "process %g s, job %g s",
		     res->user_s + res->sys_s, res->job_cpu_s[0]);
	/* the ramp and the drain moved data too, outside the window */
	cr_expect_gt(res->moved_bytes[R0_OP_READ], res->bytes[R0_OP_READ]);
}

/* Random writes with coverage and verify over 4 job slices: a read-back
 * finds every sector, so none was skipped or written twice wrongly. */
Test(engine, verify_round_trip_with_jobs_and_coverage, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 0, 16 << 10, 8);

	w.cover = true;
	w.jobs = 4;
	w.verify = R0_VERIFY_WRITE;
	w.verify_pass = 5;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->bytes[R0_OP_WRITE], FILE_BYTES);
	w = wl(R0_ACCESS_SEQ, 100, 4096, 4);
	w.verify = R0_VERIFY_READ;
	w.verify_pass = 5;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->verify_checked_bytes, FILE_BYTES);
	cr_expect_eq(res->verify_bad_sectors, 0, "first bad at %llu: %s",
		     (unsigned long long)res->first_bad.offset_bytes,
		     r0_verify_fault_name(res->first_bad.fault));
}

Test(engine, verify_names_the_block_overwritten_behind_its_back, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_SEQ, 0, 64 << 10, 4);
	char junk[4096];
	int fd;

	w.verify = R0_VERIFY_WRITE;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	/* another sector's data at 1 MiB + 8 KiB, then stale pass-2 data checked */
	fd = open(path, O_RDWR);
	cr_assert(fd >= 0);
	cr_assert_eq(pread(fd, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
	cr_assert_eq(pwrite(fd, junk, sizeof(junk), (1 << 20) + 8192), (ssize_t)sizeof(junk));
	close(fd);
	w.access = R0_ACCESS_SEQ;
	w.read_pct = 100;
	w.verify = R0_VERIFY_READ;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->verify_bad_sectors, 8);
	cr_expect_eq(res->first_bad.offset_bytes, (1 << 20) + 8192);
	cr_expect_eq(res->first_bad.fault, R0_VERIFY_MISPLACED);
	cr_expect_eq(res->first_bad.found_sector, 0);
	w.verify_pass = 2;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->first_bad.fault, R0_VERIFY_STALE);
	cr_expect_eq(res->first_bad.offset_bytes, 0);
}

Test(engine, trims_punch_holes_that_read_as_zeros, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_SEQ, 0, 64 << 10, 4);

	w.verify = R0_VERIFY_WRITE;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	w = wl(R0_ACCESS_SEQ, 0, 64 << 10, 1);
	w.trim = true;
	w.offset_bytes = 2 << 20;
	w.span_bytes = 128 << 10;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_TRIM], 2);
	cr_expect_eq(res->bytes[R0_OP_TRIM], 128 << 10);
	w = wl(R0_ACCESS_SEQ, 100, 64 << 10, 4);
	w.verify = R0_VERIFY_READ;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->verify_bad_sectors, (128 << 10) / 512);
	cr_expect_eq(res->first_bad.fault, R0_VERIFY_ZEROED);
	cr_expect_eq(res->first_bad.offset_bytes, 2 << 20);
}

Test(engine, reaping_in_batches_counts_every_io, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 16);
	char why[256];

	w.reap_batch = 8;
	w.size_bytes = 4 << 20;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_READ], 1024, "the last batch, smaller than 8, is reaped too");
	w.reap_batch = 17;
	cr_expect_eq(r0_workload_check(&w, &t, why, sizeof(why)), -EINVAL);
	cr_expect(strstr(why, "above the queue depth"), "%s", why);
}

Test(engine, mixed_reads_and_writes_follow_the_percentage, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 70, 4096, 4);

	w.size_bytes = 8 << 20;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(r0_result_ios(res), 2048);
	cr_expect(res->ios[R0_OP_READ] > 2048 * 65 / 100 && res->ios[R0_OP_READ] < 2048 * 75 / 100,
		  "%llu reads of 2048", (unsigned long long)res->ios[R0_OP_READ]);
	/* each kind timed apart, merged over the jobs, beside the combined histogram */
	cr_expect_eq(res->lat.count, 2048);
	cr_expect_eq(res->lat_op[R0_OP_READ].count, res->ios[R0_OP_READ]);
	cr_expect_eq(res->lat_op[R0_OP_WRITE].count, res->ios[R0_OP_WRITE]);
	cr_expect_geq(res->lat_op[R0_OP_READ].min, res->lat.min);
	cr_expect_leq(res->lat_op[R0_OP_WRITE].max, res->lat.max);
}

Test(engine, a_stop_request_ends_the_run, .init = setup, .fini = teardown)
{
	volatile sig_atomic_t stop = 1;
	struct r0_run_opts o = { .stop = &stop };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);

	w.runtime_ns = 60ULL * 1000000000ULL;
	cr_assert_eq(r0_engine_run(&t, &w, &o, res), -EINTR);
	cr_expect(res->interrupted);
	cr_expect_lt(res->elapsed_s, 1.0);
}

Test(engine, refuses_what_the_check_refuses, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 0);

	cr_expect_eq(r0_engine_run(&t, &w, NULL, res), -EINVAL);
}

/* SQPOLL: a kernel thread takes the submissions; every block still goes and comes back */
Test(engine, sqpoll_writes_and_reads_back_every_block, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 0, 4096, 8);

	w.sqpoll = true;
	w.cover = true;
	w.verify = R0_VERIFY_WRITE;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_WRITE], FILE_BYTES / 4096);
	cr_expect_eq(res->errors, 0);
	w.read_pct = 100;
	w.verify = R0_VERIFY_READ;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_READ], FILE_BYTES / 4096);
	cr_expect_eq(res->verify_checked_bytes, FILE_BYTES);
	cr_expect_eq(res->verify_bad_sectors, 0);
}

/* polled I/O is refused before any ring is set up, and says why */
Test(engine, hipri_is_refused_without_o_direct_or_poll_queues, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	struct r0_io_file buffered = t, gone = t;
	char why[256] = "";

	w.hipri = true;
	w.runtime_ns = 100000000;
	buffered.direct = false;
	cr_expect_eq(r0_io_file_poll_check(&buffered, why, sizeof(why)), -EOPNOTSUPP);
	cr_expect(strstr(why, "O_DIRECT"), "%s", why);
	cr_expect_eq(r0_engine_run(&buffered, &w, NULL, res), -EOPNOTSUPP);
	/* a block device whose queue cannot be read: the error and the file */
	gone.is_block = true;
	gone.devt = makedev(4095, 1048575);
	cr_expect_eq(r0_io_file_poll_check(&gone, why, sizeof(why)), -ENOENT);
	cr_expect(strstr(why, "/sys/dev/block/4095:1048575/"), "%s", why);
	cr_expect_eq(r0_engine_run(&gone, &w, NULL, res), -ENOENT);
}

/* a regular file (O_DIRECT or not) is refused up front: its file system would fail at the first I/O */
Test(engine, hipri_is_refused_on_a_regular_file, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	struct r0_io_file file = t;
	char why[256] = "";

	w.hipri = true;
	w.runtime_ns = 100000000;
	file.is_block = false;
	file.direct = true;
	cr_expect_eq(r0_io_file_poll_check(&file, why, sizeof(why)), -EOPNOTSUPP);
	cr_expect(strstr(why, "regular file"), "%s", why);
	cr_expect_eq(r0_engine_run(&file, &w, NULL, res), -EOPNOTSUPP);
}

Test(engine, opening_refuses_what_is_not_a_device_or_file)
{
	struct r0_io_file x;

	cr_expect_eq(r0_io_file_open("/dev/null", false, &x), -ENOTBLK);
	cr_expect_eq(r0_io_file_open("/nonexistent/r0", false, &x), -ENOENT);
}

/* Progress callback: counts the threads of this process held to one CPU (a
 * list without "," or "-"), the job's and its io-wq workers' when pinned */
static void count_pinned(const struct r0_progress *p, void *arg)
{
	unsigned *pinned = arg;
	struct dirent *e;
	char f[300], line[256];
	DIR *d = opendir("/proc/self/task");

	(void)p;
	while (d && (e = readdir(d))) {
		FILE *st;

		snprintf(f, sizeof(f), "/proc/self/task/%s/status", e->d_name);
		st = fopen(f, "r");
		if (!st)
			continue;
		while (fgets(line, sizeof(line), st))
			if (!strncmp(line, "Cpus_allowed_list:", 18) && !strpbrk(line + 18, ",-"))
				(*pinned)++;
		fclose(st);
	}
	if (d)
		closedir(d);
}

/* QD1 through the ring: the job thread on one CPU (with its io-wq workers); deeper: left free */
Test(engine, a_qd1_job_is_held_to_one_cpu, .init = setup, .fini = teardown)
{
	cpu_set_t allowed;
	unsigned pinned = 0;
	struct r0_run_opts o = { .progress = count_pinned, .progress_arg = &pinned, .progress_ms = 50 };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);

	cr_assert_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	if (CPU_COUNT(&allowed) < 2)
		cr_skip_test("one CPU: every thread is on it anyway");
	w.runtime_ns = 300000000ULL;
	w.ring = true;   /* a sync job has no worker to keep beside it */
	cr_assert_eq(r0_engine_run(&t, &w, &o, res), 0);
	cr_expect_gt(pinned, 0, "no thread held to one CPU at QD1");
	pinned = 0;
	w.queue_depth = 4;
	cr_assert_eq(r0_engine_run(&t, &w, &o, res), 0);
	cr_expect_eq(pinned, 0, "%u threads held to one CPU at QD4", pinned);
}

/*
 * The sync path and the ring write the same: a QD1 pass with verify stamps
 * written by one, read back and checked by the other, both ways, 3 jobs.
 */
Test(engine, sync_and_ring_write_and_read_back_alike, .init = setup, .fini = teardown)
{
	for (int sync_writes = 0; sync_writes < 2; sync_writes++) {
		struct r0_workload w = wl(R0_ACCESS_RAND, 0, 8 << 10, 1);

		w.cover = true;
		w.jobs = 3;
		w.verify = R0_VERIFY_WRITE;
		w.verify_pass = 7 + sync_writes;
		w.ring = !sync_writes;
		cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
		cr_expect_eq(res->bytes[R0_OP_WRITE], FILE_BYTES);
		cr_expect_eq(res->lat.count, FILE_BYTES / (8 << 10), "every write timed");
		w = wl(R0_ACCESS_SEQ, 100, 4096, 1);
		w.jobs = 3;
		w.verify = R0_VERIFY_READ;
		w.verify_pass = 7 + sync_writes;
		w.ring = sync_writes;
		cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
		cr_expect_eq(res->verify_checked_bytes, FILE_BYTES);
		cr_expect_eq(res->verify_bad_sectors, 0, "writes by the %s, first bad at %llu",
			     sync_writes ? "job" : "ring",
			     (unsigned long long)res->first_bad.offset_bytes);
	}
}

/* A sync job's failed read is an error with its offset and errno, as the ring's is. */
Test(engine, a_sync_job_reports_a_failed_read, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_SEQ, 100, 4096, 1);
	int fd = t.fd;

	/* a descriptor open for writing only: every read fails with EBADF */
	t.fd = open(path, O_WRONLY);
	cr_assert(t.fd >= 0);
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->errors, 1);
	cr_expect_eq(res->first_error.err, EBADF);
	cr_expect_eq(res->first_error.offset_bytes, 0);
	close(t.fd);
	t.fd = fd;
}

/* procfs refuses RWF_NOWAIT (EOPNOTSUPP), as zram does; a pipe cannot be
 * asked (no offset); a file on /var/tmp is asked and answers. */
Test(engine, the_nowait_probe_tells_a_blocking_only_file, .init = setup, .fini = teardown)
{
	int fd = open("/proc/self/stat", O_RDONLY), p[2];

	cr_assert(fd >= 0);
	cr_expect_eq(r0_fd_refuses_nowait(fd, 4096, 0), 1);
	close(fd);
	cr_assert_eq(pipe(p), 0);
	cr_expect_eq(r0_fd_refuses_nowait(p[0], 4096, 0), -ESPIPE);
	close(p[0]);
	close(p[1]);
	cr_expect_geq(r0_fd_refuses_nowait(t.fd, t.logical_block_bytes, t.size_bytes), 0);
	cr_expect_eq(t.blocking_only, r0_fd_refuses_nowait(t.fd, t.logical_block_bytes, t.size_bytes) == 1);
}

/* A target taken as blocking-only runs every request through io-wq
 * (IOSQE_ASYNC, capped workers) when the job reaps a batch or its requests
 * are over 4 KiB, and still writes and reads back exactly; 4K reaped one
 * at a time is left to io-wq's own choice, as on any target. */
Test(engine, a_blocking_only_target_writes_and_reads_back_through_workers, .init = setup,
     .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 0, 4096, 16);

	t.blocking_only = true;
	w.jobs = 2;
	w.cover = true;
	w.verify = R0_VERIFY_WRITE;
	cr_expect_eq(r0_engine_async(&t, &w), R0_ASYNC_NONE);
	w.block_bytes = 8192;
	cr_expect_eq(r0_engine_async(&t, &w), R0_ASYNC_BLOCKING_ONLY);
	w.block_bytes = 4096;
	w.reap_batch = 4;
	cr_expect_eq(r0_engine_async(&t, &w), R0_ASYNC_BLOCKING_ONLY);
	cr_expect_geq(r0_engine_io_workers(&w), 1);
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->errors, 0, "%s", strerror(res->first_error.err));
	cr_expect_eq(res->bytes[R0_OP_WRITE], FILE_BYTES);
	w = wl(R0_ACCESS_RAND, 100, 4096, 16);
	w.cover = true;
	w.verify = R0_VERIFY_READ;
	w.reap_batch = 4;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->verify_checked_bytes, FILE_BYTES);
	cr_expect_eq(res->verify_bad_sectors, 0);
	/* QD1 reads itself, polled and SQPOLL rings keep their own path */
	w.queue_depth = 1;
	cr_expect_eq(r0_engine_async(&t, &w), R0_ASYNC_NONE);
	w.queue_depth = 16;
	w.sqpoll = true;
	cr_expect_eq(r0_engine_async(&t, &w), R0_ASYNC_NONE);
}

static unsigned allowed_cpus(void)
{
	cpu_set_t allowed;

	return sched_getaffinity(0, sizeof(allowed), &allowed) ? 1 : (unsigned)CPU_COUNT(&allowed);
}

/*
 * A file that lets a job carry: marked as refusing nonblocking requests
 * and open with O_DIRECT. tmpfs copies on the caller's CPU and never
 * sleeps, as zram does (O_DIRECT on tmpfs since Linux 6.6); where it takes
 * no O_DIRECT, a file in /var/tmp stands in (a request there may sleep,
 * which ends carrying after that one, still carried). False when neither
 * takes O_DIRECT; PATH (LEN bytes) then holds nothing to remove.
 */
static bool carry_target(char *path, size_t len, struct r0_io_file *st)
{
	static const char *const dirs[] = { "/dev/shm", "/var/tmp" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		snprintf(path, len, "%s/r0-unit-carry-XXXXXX", dirs[i]);
		fd = mkstemp(path);
		if (fd < 0)
			continue;
		cr_assert_eq(ftruncate(fd, FILE_BYTES), 0);
		close(fd);
		cr_assert_eq(r0_io_file_open(path, true, st), 0);
		if (st->direct) {
			st->blocking_only = true;
			return true;
		}
		r0_io_file_close(st);
		unlink(path);
	}
	path[0] = '\0';
	return false;
}

/*
 * The job runs requests itself beside the ring (the first checked one on
 * tmpfs never sleeps; a later one may wait for the file's lock, which ends
 * carrying), and every block is still written once and read back exactly.
 * It must carry in both passes: a run that carried nothing did not test
 * this. Only one CPU, or no file system here taking O_DIRECT, makes
 * carrying impossible; the test is then skipped and says which.
 */
Test(engine, a_job_carrying_one_request_writes_and_reads_back_exactly)
{
	char shm[64];
	struct r0_io_file st;
	struct r0_result *r;
	struct r0_workload w = wl(R0_ACCESS_RAND, 0, 4096, 16);

	if (allowed_cpus() < 2)
		cr_skip_test("one CPU: no job may carry a request, its io-wq worker needs a CPU of its own");
	if (!carry_target(shm, sizeof(shm), &st))
		cr_skip_test("neither /dev/shm nor /var/tmp takes O_DIRECT: no job may carry without it");
	r = malloc(sizeof(*r));
	cr_assert(r);
	cr_assert(r0_engine_may_carry_one(&st, &w), "%s: a job may carry here", shm);
	w.cover = true;
	w.verify = R0_VERIFY_WRITE;
	cr_assert_eq(r0_engine_run(&st, &w, NULL, r), 0);
	cr_expect_eq(r->errors, 0, "%s", strerror(r->first_error.err));
	cr_expect_eq(r->bytes[R0_OP_WRITE], FILE_BYTES);
	/* some requests carried, the others through the ring */
	cr_expect_gt(r->carried_ios, 0, "%s: the writes carried no request", shm);
	cr_expect_lt(r->carried_ios, r->ios[R0_OP_WRITE]);
	w = wl(R0_ACCESS_RAND, 100, 4096, 16);
	w.cover = true;
	w.verify = R0_VERIFY_READ;
	cr_assert_eq(r0_engine_run(&st, &w, NULL, r), 0);
	cr_expect_gt(r->carried_ios, 0, "%s: the reads carried no request", shm);
	cr_expect_eq(r->verify_checked_bytes, FILE_BYTES);
	cr_expect_eq(r->verify_bad_sectors, 0);
	r0_io_file_close(&st);
	unlink(shm);
	free(r);
}

/* --- ending when steady (min_runtime_ns) ----------------------------- */

Test(engine, workload_check_refuses_bad_steady_settings)
{
	struct r0_io_file fake = { .fd = -1, .size_bytes = 1 << 20, .logical_block_bytes = 4096,
				  .writable = true, .path = "fake" };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	char why[256];

	w.min_runtime_ns = 1000000000;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "size-based");
	cr_expect(strstr(why, "time-based"), "%s", why);
	w.runtime_ns = 500000000;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "min above max");
	cr_expect(strstr(why, "above the runtime"), "%s", why);
	w.runtime_ns = 1000000000;
	cr_expect_eq(check(&w, &fake, why), 0, "%s", why);
	w.steady = (struct r0_steady_rule){ .window = 1, .range_frac = 0.1, .slope_frac = 0.1 };
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "a window of 1");
	w.steady.window = 4;
	w.steady.slope_frac = 0;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "a bound of 0");
	w.steady.slope_frac = 0.1;
	w.steady_slice_ns = 1000000;
	cr_expect_eq(check(&w, &fake, why), -EINVAL, "a slice of 1 ms");
	w.steady_slice_ns = 0;
	cr_expect_eq(check(&w, &fake, why), 0, "%s", why);
	cr_expect_eq(r0_end_parse("steady"), R0_END_STEADY);
	cr_expect_eq(r0_end_parse("max"), R0_END_MAX);
	cr_expect_eq(r0_end_parse("nope"), -EINVAL);
	cr_expect_str_eq(r0_end_name(R0_END_FIXED), "fixed");
	cr_expect_null(r0_end_name((enum r0_end)9));
}

/*
 * Reads of a file in memory (tmpfs: the page cache, no device) hold one
 * rate: the run ends on its rule, well before its maximum, at a slice
 * boundary, and its rate is over that window. The bounds are loose, since
 * the unit tests share the CPUs with whatever else runs: the mechanism is
 * under test, not the machine.
 */
Test(engine, a_steady_target_ends_before_its_maximum)
{
	char p[64] = "/dev/shm/r0-unit-steady-XXXXXX";
	int fd = mkstemp(p);
	struct r0_io_file tg;
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);
	struct r0_result *r = malloc(sizeof(*r));

	cr_assert(fd >= 0 && r);
	cr_assert_eq(ftruncate(fd, 8 << 20), 0);
	close(fd);
	cr_assert_eq(r0_io_file_open(p, false, &tg), 0);
	w.runtime_ns = 10ULL * 1000000000ULL;
	w.ramp_ns = 100000000;
	w.min_runtime_ns = 400000000;
	w.steady = (struct r0_steady_rule){ .window = 4, .range_frac = 0.6, .slope_frac = 0.4 };
	w.steady_slice_ns = 50000000;
	cr_assert_eq(r0_engine_run(&tg, &w, NULL, r), 0);
	cr_expect_eq(r->ended, R0_END_STEADY, "ended %s after %g s", r0_end_name(r->ended), r->elapsed_s);
	cr_expect_eq(r->slice_ns, 50000000u);
	cr_expect(r->elapsed_s >= 0.4 - 1e-6 && r->elapsed_s < 5, "%g s", r->elapsed_s);
	/* the window closed on a boundary, and every slice of it was sampled */
	cr_expect_float_eq(r->elapsed_s, r->samples * 0.05, 1e-6, "%g s, %u samples", r->elapsed_s,
			   r->samples);
	cr_expect(r->steady_last.steady);
	cr_expect_gt(r->ios[R0_OP_READ], 0);
	cr_expect_eq(r->lat.count, r->ios[R0_OP_READ]);
	/* the drain after the close moved data the window does not count */
	cr_expect_geq(r->moved_bytes[R0_OP_READ], r->bytes[R0_OP_READ]);
	r0_io_file_close(&tg);
	unlink(p);
	free(r);
}

Test(engine, min_equal_to_max_runs_the_full_time, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 4);

	w.runtime_ns = 500000000;
	w.min_runtime_ns = 500000000;
	w.steady = (struct r0_steady_rule){ .window = 2, .range_frac = 1e3, .slope_frac = 1e3 };
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ended, R0_END_MAX);
	cr_expect_float_eq(res->elapsed_s, 0.5, 1e-6);
	/* 500 ms in slices of 500 / 3 ms (the default shortened to fit): 3 whole ones */
	cr_expect_eq(res->samples, 3u);
	cr_expect_eq(res->lat.count, res->ios[R0_OP_READ]);
}

Test(engine, a_fixed_run_says_so_and_takes_no_samples, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);

	w.runtime_ns = 200000000;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ended, R0_END_FIXED);
	cr_expect_eq(res->samples, 0u);
	cr_expect_eq(res->slice_ns, 0u);
	cr_expect_float_eq(res->elapsed_s, 0.2, 1e-6);
}

Test(engine, a_stop_cuts_a_steady_run, .init = setup, .fini = teardown)
{
	volatile sig_atomic_t stop = 1;
	struct r0_run_opts o = { .stop = &stop };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);

	w.runtime_ns = 60ULL * 1000000000ULL;
	w.min_runtime_ns = 10ULL * 1000000000ULL;
	cr_assert_eq(r0_engine_run(&t, &w, &o, res), -EINTR);
	cr_expect_eq(res->ended, R0_END_CUT);
	cr_expect_lt(res->elapsed_s, 1.0);
}
