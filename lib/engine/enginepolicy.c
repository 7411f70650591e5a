// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's rules for the path a workload's requests take on a device or file
 * (r0/enginepolicy.h): issued by the job itself or through the ring, one
 * carried beside the ring, through io_uring's workers and how many, how a
 * job waits, and which CPU a job is held to. lib/engine/engine.c, ring.c and
 * sync.c follow them.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "r0/enginepolicy.h"
#include "bottomqueue.h"

bool r0_engine_is_sync(const struct r0_workload *w)
{
	return w->queue_depth == 1 && !w->ring && !w->hipri && !w->sqpoll && !w->trim;
}

/*
 * Linux 6.12 can stall for ever when a nonblocking io_uring submission
 * through dm must split a request into more pieces than the devices at
 * the bottom have tags; a blocking submission (IOSQE_ASYNC) never stalls,
 * and md and raw members never did (r0bench(1) gives the cases). So
 * through dm, when the requests in flight need more pieces than that,
 * every request goes through io_uring's workers; elsewhere the usual path
 * stays.
 */
static bool dm_needs_async(const struct r0_io_file *t, const struct r0_workload *w)
{
	struct r0_bottom_queue q;
	uint64_t piece, pieces;

	if (!t->is_block || r0_bottom_queue(t->devt, &q) || !q.through_dm)
		return false;
	/* a request is cut at every chunk and at the bottom's largest request */
	piece = q.chunk_bytes < q.max_request_bytes ? q.chunk_bytes : q.max_request_bytes;
	if (!piece || w->block_bytes <= piece)
		return false;
	pieces = (w->block_bytes + piece - 1) / piece;
	return pieces * w->queue_depth * (w->jobs ? w->jobs : 1) > q.tags;
}

/*
 * A device that refuses nonblocking requests (zram) has every request run
 * in an io-wq worker, and io-wq starts a second worker only when the first
 * sleeps: zram's work never sleeps, so one worker runs all of it. Marked
 * IOSQE_ASYNC, requests may run on several workers at once, which pays
 * only where the job thread leaves a CPU free: when it sleeps until a reap
 * batch is there, or when a request is more work for the worker than for
 * the job (over 4 KiB). Reaping 4K one at a time the job keeps a CPU busy
 * itself, and a second worker would only take CPU from it. The workers
 * are capped at the CPUs; polled and SQPOLL rings keep their own path.
 * The A/B that set this rule: docs/notes/lab-notebook.md.
 */
enum r0_async r0_engine_async(const struct r0_io_file *t, const struct r0_workload *w)
{
	if (w->hipri || w->trim || r0_engine_is_sync(w))
		return R0_ASYNC_NONE;
	if (dm_needs_async(t, w))
		return R0_ASYNC_DM_PIECES;
	if (t->blocking_only && !w->sqpoll && (w->reap_batch > 1 || w->block_bytes > 4096))
		return R0_ASYNC_BLOCKING_ONLY;
	return R0_ASYNC_NONE;
}

bool r0_engine_submits_async(const struct r0_io_file *t, const struct r0_workload *w)
{
	return r0_engine_async(t, w) != R0_ASYNC_NONE;
}

/* The CPUs this thread may run on, shared among W's jobs. */
static unsigned cpus_a_job(const struct r0_workload *w)
{
	unsigned jobs = w->jobs ? w->jobs : 1, cpus = 1;
	cpu_set_t allowed;

	if (!sched_getaffinity(0, sizeof(allowed), &allowed) && CPU_COUNT(&allowed) > 0)
		cpus = (unsigned)CPU_COUNT(&allowed);
	return cpus / jobs;
}

/*
 * On a device that refuses nonblocking requests every request runs in an
 * io-wq worker, and io-wq adds a worker only when one sleeps. Where the
 * device works on the CPU of whoever submits (zram copies and compresses
 * there) none sleeps: one worker runs every request, and a job reaping one
 * at a time spends its own CPU on being woken for each completion. There
 * the job runs one request of its queue itself (pread/pwrite) while the
 * ring holds the others: the device still has queue_depth requests at
 * most, and the job's CPU does the device's work instead of waiting.
 *
 * A device that sleeps (hardware, dm-delay, dm-crypt's workers) would keep
 * the job from reaping while it waits, so a job stops carrying at the
 * first checked request that slept, and starts only once its ring has
 * completed a request: the stall limit cannot end a carried request, so a
 * device that answers nothing is left to the ring. Only with O_DIRECT (the
 * page cache would hide such a device behind its hits); only where the job
 * and its worker have a CPU each (else the carrying jobs starve the
 * workers, whose requests wait for a CPU); only for requests of 4 KiB at
 * most reaped one at a time (otherwise the job leaves a CPU free and more
 * workers use it: r0_engine_async).
 */
bool r0_engine_may_carry_one(const struct r0_io_file *t, const struct r0_workload *w)
{
	return t->blocking_only && t->direct && w->queue_depth > 1 && w->reap_batch <= 1 &&
	       !w->hipri && !w->sqpoll && !w->trim && r0_engine_async(t, w) == R0_ASYNC_NONE &&
	       cpus_a_job(w) >= 2;
}

unsigned r0_engine_io_workers(const struct r0_workload *w)
{
	unsigned cpus = cpus_a_job(w);

	return cpus ? cpus : 1;
}

/*
 * A job that sleeps must be woken by whatever completes its request, and
 * on zram that is the io-wq worker that bounds the run. So a job reaping
 * one at a time first collects what is already done (entering the kernel
 * runs the deferred completion work) and sleeps only when nothing is, as
 * fio's io_uring engine does. With a batch the job sleeps until the batch
 * is there; polled and SQPOLL rings wait as io_uring does.
 */
bool r0_engine_collects_first(const struct r0_workload *w)
{
	return w->reap_batch <= 1 && !w->hipri && !w->sqpoll;
}

int r0_job_cpu(const cpu_set_t *allowed, int from_cpu, unsigned index)
{
	int cpus[CPU_SETSIZE], n = 0, start = 0;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, allowed))
			cpus[n++] = c;
	if (!n)
		return -1;
	while (start < n && cpus[start] < from_cpu)
		start++;
	return cpus[(start % n + index % n) % n];
}
