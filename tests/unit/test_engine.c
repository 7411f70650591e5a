// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/engine.h on a regular file: workload checks, size- and
 * time-based runs, coverage, verify (faults found), trims, stopping. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/engine.h"

#define FILE_BYTES (4u << 20)

static char path[64];
static struct r0_target t;
static struct r0_result *res;

static void setup(void)
{
	int fd;

	snprintf(path, sizeof(path), "/var/tmp/r0-unit-engine-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(ftruncate(fd, FILE_BYTES), 0);
	close(fd);
	cr_assert_eq(r0_target_open(path, true, &t), 0);
	res = malloc(sizeof(*res));
	cr_assert(res);
}

static void teardown(void)
{
	r0_target_close(&t);
	unlink(path);
	free(res);
}

static struct r0_workload wl(enum r0_access a, unsigned read_pct, uint32_t bs, unsigned qd)
{
	struct r0_workload w = { .access = a, .read_pct = read_pct, .block_bytes = bs,
				 .queue_depth = qd, .jobs = 1, .seed = 11, .verify_pass = 1 };
	return w;
}

static int check(const struct r0_workload *w, const struct r0_target *tg, char *why)
{
	return r0_workload_check(w, tg, why, 256);
}

Test(engine, workload_check_refuses_bad_values)
{
	struct r0_target fake = { .fd = -1, .size_bytes = 1 << 20, .logical_block_bytes = 4096,
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

Test(engine, size_based_pass_counts_every_block, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_SEQ, 0, 64 << 10, 4);

	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(res->ios[R0_OP_WRITE], FILE_BYTES / (64 << 10));
	cr_expect_eq(res->bytes[R0_OP_WRITE], FILE_BYTES);
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
	cr_expect_geq(res->user_s + res->sys_s, 0);
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

Test(engine, mixed_reads_and_writes_follow_the_percentage, .init = setup, .fini = teardown)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 70, 4096, 4);

	w.size_bytes = 8 << 20;
	cr_assert_eq(r0_engine_run(&t, &w, NULL, res), 0);
	cr_expect_eq(r0_result_ios(res), 2048);
	cr_expect(res->ios[R0_OP_READ] > 2048 * 65 / 100 && res->ios[R0_OP_READ] < 2048 * 75 / 100,
		  "%llu reads of 2048", (unsigned long long)res->ios[R0_OP_READ]);
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

Test(engine, opening_refuses_what_is_not_a_device_or_file)
{
	struct r0_target x;

	cr_expect_eq(r0_target_open("/dev/null", false, &x), -ENOTBLK);
	cr_expect_eq(r0_target_open("/nonexistent/r0", false, &x), -ENOENT);
}
