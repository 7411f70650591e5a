// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the engine's rules (lib/engine/enginepolicy.c) on made-up
 * targets: which requests a job issues itself, carries beside its ring or
 * sends through io_uring's workers, how it waits, which CPU it is held to.
 */
#include <sched.h>
#include <criterion/criterion.h>

#include "r0/engine.h"
#include "r0/enginepolicy.h"

static struct r0_workload wl(enum r0_access a, unsigned read_pct, uint32_t bs, unsigned qd)
{
	struct r0_workload w = { .access = a, .read_pct = read_pct, .block_bytes = bs,
				 .queue_depth = qd, .jobs = 1, .seed = 11, .verify_pass = 1 };
	return w;
}

static unsigned allowed_cpus(void)
{
	cpu_set_t allowed;

	return sched_getaffinity(0, sizeof(allowed), &allowed) ? 1 : (unsigned)CPU_COUNT(&allowed);
}

Test(enginepolicy, job_cpus_count_from_the_callers_cpu_and_wrap)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	cr_expect_eq(r0_job_cpu(&s, 0, 0), -1);
	CPU_SET(1, &s);
	CPU_SET(3, &s);
	CPU_SET(5, &s);
	cr_expect_eq(r0_job_cpu(&s, 3, 0), 3);
	cr_expect_eq(r0_job_cpu(&s, 3, 1), 5);
	cr_expect_eq(r0_job_cpu(&s, 3, 2), 1);
	cr_expect_eq(r0_job_cpu(&s, 3, 3), 3);
	cr_expect_eq(r0_job_cpu(&s, 4, 0), 5, "not allowed: the next allowed one above");
	cr_expect_eq(r0_job_cpu(&s, 6, 0), 1, "above every allowed one: the first");
	cr_expect_eq(r0_job_cpu(&s, -1, 1), 3, "sched_getcpu failed: from the first");
}

/* Which workloads a job issues itself: QD1 without polling, a submission thread or --ring. */
Test(enginepolicy, qd1_is_sync_unless_polled_or_ring)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 1);

	cr_expect(r0_engine_is_sync(&w));
	w.queue_depth = 2;
	cr_expect_not(r0_engine_is_sync(&w));
	w.queue_depth = 1;
	w.hipri = true;
	cr_expect_not(r0_engine_is_sync(&w));
	w.hipri = false;
	w.sqpoll = true;
	cr_expect_not(r0_engine_is_sync(&w));
	w.sqpoll = false;
	w.ring = true;
	cr_expect_not(r0_engine_is_sync(&w));
	w.ring = false;
	w.trim = true;
	cr_expect_not(r0_engine_is_sync(&w));
}

/* Only a blocking-only target open with O_DIRECT, 4K reaped one at a
 * time through a plain ring, and a CPU each for the job and its worker. */
Test(enginepolicy, a_job_may_carry_one_request_only_where_its_cpu_would_wait)
{
	struct r0_io_file bt = { .blocking_only = true, .direct = true, .fd = -1 };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 32);
	const bool cpus = allowed_cpus() >= 2;

	cr_expect_eq(r0_engine_may_carry_one(&bt, &w), cpus);
	bt.blocking_only = false;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	bt.blocking_only = true;
	bt.direct = false;         /* the page cache would make any file look fast */
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	bt.direct = true;
	w.queue_depth = 1;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	w.queue_depth = 2;
	cr_expect_eq(r0_engine_may_carry_one(&bt, &w), cpus);
	w.reap_batch = 2;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	w.reap_batch = 1;
	w.block_bytes = 8192;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	w.block_bytes = 4096;
	w.sqpoll = true;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	w.sqpoll = false;
	w.hipri = true;
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
	w.hipri = false;
	w.jobs = allowed_cpus();   /* one CPU a job: the worker would have none */
	cr_expect_not(r0_engine_may_carry_one(&bt, &w));
}

/* One at a time through a plain ring the job collects first; a batch, polling or SQPOLL wait as io_uring does. */
Test(enginepolicy, a_job_collects_first_only_reaping_one_at_a_time)
{
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 32);

	cr_expect(r0_engine_collects_first(&w));
	w.reap_batch = 1;
	cr_expect(r0_engine_collects_first(&w));
	w.reap_batch = 4;
	cr_expect_not(r0_engine_collects_first(&w));
	w.reap_batch = 0;
	w.hipri = true;
	cr_expect_not(r0_engine_collects_first(&w));
	w.hipri = false;
	w.sqpoll = true;
	cr_expect_not(r0_engine_collects_first(&w));
}

/* A file that refuses nonblocking requests: through the workers when the job leaves a CPU free. */
Test(enginepolicy, a_blocking_only_file_goes_through_workers_when_a_cpu_is_free)
{
	struct r0_io_file bt = { .blocking_only = true, .direct = true, .fd = -1 };
	struct r0_workload w = wl(R0_ACCESS_RAND, 100, 4096, 32);

	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_NONE, "4K reaped one at a time");
	w.reap_batch = 8;
	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_BLOCKING_ONLY);
	cr_expect(r0_engine_submits_async(&bt, &w));
	w.reap_batch = 1;
	w.block_bytes = 16384;
	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_BLOCKING_ONLY);
	w.sqpoll = true;
	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_NONE, "SQPOLL keeps its own path");
	w.sqpoll = false;
	w.queue_depth = 1;
	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_NONE, "QD1 issues itself");
	bt.blocking_only = false;
	w.queue_depth = 32;
	cr_expect_eq(r0_engine_async(&bt, &w), R0_ASYNC_NONE, "a file that takes nonblocking requests");
	cr_expect_not(r0_engine_submits_async(&bt, &w));
	cr_expect_geq(r0_engine_io_workers(&w), 1);
}
