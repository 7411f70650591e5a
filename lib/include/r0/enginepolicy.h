/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's rules (lib/engine/enginepolicy.c): for a workload on a device or file,
 * whether its jobs issue requests themselves or through the ring, carry
 * one beside the ring, send them through io_uring's workers and how many
 * of those, how a job waits for completions, and which CPU it is held to.
 * Pure but for reading sysfs (dm's stack) and the CPUs this thread may
 * run on.
 */
#ifndef R0_ENGINEPOLICY_H
#define R0_ENGINEPOLICY_H

#include <sched.h>
#include <stdbool.h>

#include "r0/engine.h"

/* Why W's requests on T go through io_uring's workers (IOSQE_ASYNC), if they do. */
enum r0_async {
	R0_ASYNC_NONE,
	/*
	 * a block device with device-mapper in its stack whose requests in
	 * flight need more pieces (queue/max_sectors_kb) than the devices at
	 * the bottom have tags (queue/nr_requests), which Linux 6.12 can stall
	 * on for ever
	 */
	R0_ASYNC_DM_PIECES,
	/*
	 * the device refuses nonblocking requests, so every request runs in a
	 * worker anyway, and the job leaves a CPU free (it waits for a reap
	 * batch, or its requests are over 4 KiB); marked, they run on up to
	 * r0_engine_io_workers workers at once instead of one at a time
	 */
	R0_ASYNC_BLOCKING_ONLY,
};
enum r0_async r0_engine_async(const struct r0_io_file *t, const struct r0_workload *w);
bool r0_engine_submits_async(const struct r0_io_file *t, const struct r0_workload *w);

/*
 * The io-wq workers a job may have with R0_ASYNC_BLOCKING_ONLY: the CPUs
 * this thread may run on, shared among W's jobs, at least 1.
 */
unsigned r0_engine_io_workers(const struct r0_workload *w);

/*
 * True when W's jobs on T run one request of their queue themselves
 * (pread/pwrite) beside the ring: T refuses nonblocking requests and is
 * open with O_DIRECT, W reaps requests of 4 KiB at most one at a time
 * through a plain ring, and each job and its io-wq worker have a CPU of
 * their own. A job stops at the first checked carried request that slept
 * (r0_result.carry_stopped); r0_result.carried_ios counts the requests
 * run so.
 */
bool r0_engine_may_carry_one(const struct r0_io_file *t, const struct r0_workload *w);

/* True when W's jobs issue their requests themselves (pread/pwrite; see r0_workload.ring). */
bool r0_engine_is_sync(const struct r0_workload *w);

/*
 * True when W's jobs, before they wait for a completion, collect those
 * already done: they reap one at a time through a plain ring (a reap batch,
 * a polled or an SQPOLL ring waits as io_uring does).
 */
bool r0_engine_collects_first(const struct r0_workload *w);

/*
 * The CPU job INDEX is kept on at queue depth 1, with its io-wq workers:
 * the INDEX-th CPU of ALLOWED counting from FROM_CPU (or the next allowed
 * one above it), wrapping; -1 when ALLOWED is empty.
 */
int r0_job_cpu(const cpu_set_t *allowed, int from_cpu, unsigned index);

#endif
