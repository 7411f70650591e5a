// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of a run's figures (lib/engine/result.c): the measured window, rates, CPU shares. */
#include <string.h>
#include <criterion/criterion.h>

#include "r0/engine.h"

/* The window's edges with made-up clock readings: in from the ramp's end
 * to the run's end, both included, whatever the submission time. */
Test(result, a_completion_counts_when_it_completed_in_the_window)
{
	static struct r0_result r;
	const struct r0_window win = { .start_ns = 1000, .end_ns = 2000 };
	const struct r0_window open = { .start_ns = 0, .end_ns = UINT64_MAX };

	r0_result_reset(&r);
	cr_expect_not(r0_window_count(&r, &win, R0_OP_READ, 4096, 900, 999), "before the ramp's end");
	cr_expect(r0_window_count(&r, &win, R0_OP_READ, 4096, 500, 1000), "submitted in the ramp");
	cr_expect(r0_window_count(&r, &win, R0_OP_WRITE, 512, 1990, 2000), "at the end");
	cr_expect_not(r0_window_count(&r, &win, R0_OP_READ, 4096, 1999, 2001), "after the end");
	cr_expect_eq(r.ios[R0_OP_READ], 1);
	cr_expect_eq(r.ios[R0_OP_WRITE], 1);
	cr_expect_eq(r.bytes[R0_OP_READ], 4096);
	cr_expect_eq(r.bytes[R0_OP_WRITE], 512);
	cr_expect_eq(r.lat.count, 2);
	cr_expect_eq(r.lat.min, 10);
	cr_expect_eq(r.lat.max, 500);
	/* each kind apart too: the read of 500 ns, the write of 10 ns */
	cr_expect_eq(r.lat_op[R0_OP_READ].count, 1);
	cr_expect_eq(r.lat_op[R0_OP_READ].min, 500);
	cr_expect_eq(r.lat_op[R0_OP_WRITE].count, 1);
	cr_expect_eq(r.lat_op[R0_OP_WRITE].max, 10);
	cr_expect(r0_window_count(&r, &open, R0_OP_TRIM, 4096, 5, 1ULL << 62), "size-based: open");
	cr_expect_eq(r0_result_ios(&r), 3);
	cr_expect_eq(r.lat.count, 3, "a discard: in the combined latency ...");
	cr_expect_eq(r.lat_op[R0_OP_READ].count + r.lat_op[R0_OP_WRITE].count, 2, "... alone");
}

Test(result, busy_is_the_busiest_job_threads_share)
{
	static struct r0_result r;

	memset(&r, 0, sizeof(r));
	cr_expect_float_eq(r0_result_busy(&r), 0.0, 1e-12, "no job timed");
	r.jobs = 3;
	r.job_cpu_s[0] = 0.5, r.job_wall_s[0] = 1.0;
	r.job_cpu_s[1] = 1.8, r.job_wall_s[1] = 2.0;
	r.job_cpu_s[2] = 0.1, r.job_wall_s[2] = 0.0;   /* no wall time: left out */
	cr_expect_float_eq(r0_result_busy(&r), 0.9, 1e-12);
}

Test(result, rates_over_the_window)
{
	static struct r0_result r;

	memset(&r, 0, sizeof(r));
	cr_expect_float_eq(r0_result_iops(&r), 0.0, 1e-12, "no window: no rate");
	cr_expect_float_eq(r0_result_cpu_per_io(&r), 0.0, 1e-12, "no request: no CPU per request");
	r.ios[R0_OP_READ] = 300;
	r.bytes[R0_OP_READ] = 300 * 4096;
	r.ios[R0_OP_WRITE] = 100;
	r.bytes[R0_OP_WRITE] = 100 * 4096;
	r.elapsed_s = 2;
	r.user_s = 0.1;
	r.sys_s = 0.3;
	cr_expect_eq(r0_result_ios(&r), 400);
	cr_expect_eq(r0_result_bytes(&r), 400 * 4096);
	cr_expect_float_eq(r0_result_iops(&r), 200.0, 1e-9);
	cr_expect_float_eq(r0_result_bytes_per_s(&r), 200.0 * 4096, 1e-6);
	cr_expect_float_eq(r0_result_mb_per_s(&r), 200.0 * 4096 / 1e6, 1e-12);
	cr_expect_float_eq(r0_result_cpu_per_io(&r), 0.001, 1e-12);
	cr_expect_str_eq(r0_op_name(R0_OP_TRIM), "trim");
}
