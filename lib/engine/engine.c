// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The io_uring engine's run: one thread per job, each with its own ring
 * (ring.c) or issuing its requests itself (sync.c), started together and
 * watched from the caller's thread (watcher.c); here each job's region,
 * set-up and release, and the jobs' results merged into the run's.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "r0/enginepolicy.h"
#include "r0/prng.h"
#include "job.h"
#include "sysfs.h"

int r0_io_file_poll_check(const struct r0_io_file *t, char *why, size_t len)
{
	char path[128], val[16];
	int ret;

	if (!t->direct) {
		if (why)
			snprintf(why, len, "polled I/O needs O_DIRECT, and the file is open buffered");
		return -EOPNOTSUPP;
	}
	if (!t->is_block) {
		/* a file system decides only at the first I/O (an error then, a run of zeros): refused up front */
		if (why)
			snprintf(why, len, "polled I/O needs a block device with poll queues, and this is a "
				 "regular file (its file system may not poll; bench the device)");
		return -EOPNOTSUPP;
	}
	ret = r0_sysfs_queue_path(t->devt, "io_poll", path, sizeof(path));
	if (!ret)
		ret = r0_sysfs_read(path, val, sizeof(val));
	if (ret) {
		if (why)
			snprintf(why, len, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	if (strcmp(val, "1")) {
		if (why)
			snprintf(why, len, "no poll queues (queue/io_poll is %s; NVMe: the nvme "
				 "module's poll_queues, null_blk: poll_queues)", val);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* --- a job ---------------------------------------------------------------- */

/* Slots and their buffers; a job that runs a ring sets it up on them (r0_ring_setup). */
static int job_setup(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	const unsigned qd = w->queue_depth;
	size_t bytes = (size_t)qd * w->block_bytes;

	j->slots = calloc(qd, sizeof(*j->slots));
	j->free_slots = calloc(qd, sizeof(*j->free_slots));
	j->prepped = calloc(qd, sizeof(*j->prepped));
	j->cqes = calloc(qd, sizeof(*j->cqes));
	if (!j->slots || !j->free_slots || !j->prepped || !j->cqes)
		return -ENOMEM;
	if (posix_memalign((void **)&j->buf, 4096, bytes))
		return -ENOMEM;
	for (unsigned s = 0; s < qd; s++) {
		r0_pattern_fill(j->buf + (size_t)s * w->block_bytes, w->block_bytes,
				j->seed ^ ((uint64_t)s << 48));
		j->free_slots[j->nfree++] = qd - 1 - s;
	}
	if (w->trim || r0_engine_is_sync(w))
		return 0;
	return r0_ring_setup(j);
}

static void job_release(struct job *j)
{
	/* a stalled job's buffers may still be where its requests write: kept */
	if (!j->stalled)
		free(j->buf);
	free(j->slots);
	free(j->free_slots);
	free(j->prepped);
	free(j->cqes);
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	sigset_t all;

	/* signals go to the caller's thread, which tells the jobs to stop */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	j->err = job_setup(j);
	if (j->err)
		atomic_store(&j->sh->abort, 1);
	pthread_barrier_wait(&j->sh->ready);
	pthread_barrier_wait(&j->sh->go);   /* the caller has set the clock */
	if (!j->err && !atomic_load(&j->sh->abort)) {
		if (j->sh->w->trim)
			r0_sync_trims(j);
		else if (r0_engine_is_sync(j->sh->w))
			r0_sync_run(j);
		else
			r0_ring_run(j);
	}
	r0_ring_exit(j);
	atomic_fetch_sub(&j->sh->running, 1);
	return NULL;
}

/* Each job's region (r0_job_region: aligned slices, the last takes the
 * remainder) in whole blocks, and its random positions in it. */
static void plan_job(struct job *j, unsigned jobs)
{
	const struct r0_workload *w = j->sh->w;
	uint64_t bs = w->block_bytes, align = w->align_bytes ? w->align_bytes : bs;
	struct r0_region r;

	/* r0_workload_check passed: every job has at least one block */
	r0_job_region(w, j->sh->t, j->index, &r);
	j->region_start = r.start_bytes;
	j->region_bytes = r.bytes - r.bytes % bs;
	j->nblocks = j->region_bytes / bs;
	j->nalign = (r.bytes - bs) / align + 1;
	j->seed = r0_mix64(w->seed + j->index);
	r0_prng_seed(&j->rng, j->seed);
	if (w->cover)
		r0_cover_init(&j->cover, j->nblocks, j->seed);
	if (w->access == R0_ACCESS_SEQ && w->shared_region)
		j->seq_pos = j->index * (j->nblocks / jobs) * bs;
	j->to_issue_bytes = w->size_bytes ? w->size_bytes : j->nblocks * bs;
}

static void merge(struct r0_result *res, const struct job *j)
{
	res->job_cpu_s[j->index] = j->cpu_s;
	res->job_wall_s[j->index] = j->wall_s;
	for (int op = 0; op < R0_OP_COUNT; op++) {
		res->ios[op] += j->res.ios[op];
		res->bytes[op] += j->res.bytes[op];
		res->moved_bytes[op] += j->res.moved_bytes[op];
	}
	r0_hist_merge(&res->lat, &j->res.lat);
	r0_hist_merge(&res->lat_op[R0_OP_READ], &j->res.lat_op[R0_OP_READ]);
	r0_hist_merge(&res->lat_op[R0_OP_WRITE], &j->res.lat_op[R0_OP_WRITE]);
	if (j->res.errors && !res->errors)
		res->first_error = j->res.first_error;
	res->errors += j->res.errors;
	if (j->res.verify_bad_sectors && !res->verify_bad_sectors)
		res->first_bad = j->res.first_bad;
	res->verify_bad_sectors += j->res.verify_bad_sectors;
	res->verify_checked_bytes += j->res.verify_checked_bytes;
	res->eagain_retries += j->res.eagain_retries;
	res->carried_ios += j->res.carried_ios;
	res->carry_stopped |= j->res.carry_stopped;
}

int r0_engine_run(const struct r0_io_file *t, const struct r0_workload *w,
		  const struct r0_run_opts *o, struct r0_result *res)
{
	unsigned n = w->jobs ? w->jobs : 1, started = 0;
	uint64_t end_ns = 0;
	struct shared sh = { .t = t, .w = w };
	struct sampler smp = { 0 };
	struct job *jobs = NULL;
	bool stopped;
	int ret = 0;

	r0_result_reset(res);
	ret = r0_workload_check(w, t, NULL, 0);
	if (!ret && w->hipri && !w->trim)
		ret = r0_io_file_poll_check(t, NULL, 0);
	if (ret)
		return ret;
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	sh.time_based = w->runtime_ns != 0;
	sh.async = r0_engine_async(t, w);
	sh.io_workers = r0_engine_io_workers(w);
	sh.cpu_from = sched_getcpu();
	atomic_init(&sh.abort, 0);
	atomic_init(&sh.running, (int)n);
	pthread_barrier_init(&sh.ready, NULL, n + 1);
	pthread_barrier_init(&sh.go, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		jobs[i].sh = &sh;
		jobs[i].index = i;
		r0_result_reset(&jobs[i].res);
		plan_job(&jobs[i], n);
	}
	for (unsigned i = 0; i < n; i++) {
		ret = -pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]);
		if (ret)
			break;
		jobs[i].started = true;
		started++;
	}
	if (started < n) {
		/* the threads that did start wait at the barriers: release them */
		atomic_store(&sh.abort, 1);
		atomic_fetch_sub(&sh.running, (int)(n - started));
		for (unsigned i = started; i < n; i++) {
			pthread_barrier_wait(&sh.ready);
			pthread_barrier_wait(&sh.go);
		}
	}
	pthread_barrier_wait(&sh.ready);
	sh.t0_ns = r0_now_ns();
	sh.ramp_end_ns = sh.t0_ns + (sh.time_based ? w->ramp_ns : 0);
	if (sh.time_based)
		end_ns = sh.ramp_end_ns + w->runtime_ns;
	atomic_init(&sh.end_ns, end_ns);
	sh.win_start_ns = sh.ramp_end_ns;
	smp.slice_ns = r0_workload_slice_ns(w);
	smp.on = smp.slice_ns != 0;
	smp.min_ns = w->min_runtime_ns;
	smp.max_ns = w->runtime_ns;
	smp.rule = r0_workload_steady_rule(w);
	pthread_barrier_wait(&sh.go);
	stopped = r0_watcher_run(&sh, jobs, n, o, &smp, res);
	for (unsigned i = 0; i < n; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	for (unsigned i = 0; i < n && !ret; i++)
		if (jobs[i].err)
			ret = jobs[i].err;
		else if (jobs[i].stalled)
			ret = -ETIMEDOUT;
	if (!ret) {
		uint64_t last = sh.t0_ns, stop_ns = r0_now_ns();

		res->jobs = n;
		for (unsigned i = 0; i < n; i++) {
			merge(res, &jobs[i]);
			if (jobs[i].last_done_ns > last)
				last = jobs[i].last_done_ns;
		}
		/* time-based: the window, cut short where an error or a stop ended it */
		if (sh.time_based) {
			uint64_t end = end_of(&sh), wend = stop_ns < end ? stop_ns : end;

			res->elapsed_s = wend > sh.ramp_end_ns ? (double)(wend - sh.ramp_end_ns) / 1e9 : 0;
			if (w->min_runtime_ns)
				res->ended = stop_ns < end || stopped ? R0_END_CUT :
					     smp.closed ? R0_END_STEADY : R0_END_MAX;
		} else {
			res->elapsed_s = (double)(last - sh.t0_ns) / 1e9;
		}
		res->samples = (unsigned)smp.n;
		res->slice_ns = smp.slice_ns;
		res->steady_last = smp.last;
		res->interrupted = stopped;
		if (stopped)
			ret = -EINTR;
	}
	for (unsigned i = 0; i < n; i++)
		job_release(&jobs[i]);
	pthread_barrier_destroy(&sh.ready);
	pthread_barrier_destroy(&sh.go);
	free(smp.y);
	free(jobs);
	return ret;
}
