// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The io_uring engine: one thread and one ring per job. Each job keeps
 * queue_depth slots (a buffer each, registered with the ring) busy:
 * it prepares every free slot, reads the clock once for the batch, submits
 * and waits in one io_uring_enter, then reaps: each group of completions
 * found together gets one clock reading before any of them is processed.
 * At queue depth 1 (no polling, no submission thread) a job issues each
 * request itself with pread/pwrite instead (r0_engine_is_sync); on a
 * target that refuses nonblocking requests it may run one request of a
 * deeper queue so beside the ring, until one sleeps
 * (r0_engine_may_carry_one).
 * Discards go through r0_target_discard (BLKDISCARD, a file: a punched
 * hole), one at a time,
 * since liburing 2.3 and Debian 12's headers have no asynchronous discard.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "r0/enginepolicy.h"
#include "r0/prng.h"
#include "job.h"
#include "sysfs.h"

int r0_target_poll_check(const struct r0_target *t, char *why, size_t len)
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

/* --- offsets and kinds ------------------------------------------------ */

static enum r0_op next_op(struct job *j)
{
	const struct r0_workload *w = j->sh->w;

	if (w->trim)
		return R0_OP_TRIM;
	if (w->read_pct >= 100)
		return R0_OP_READ;
	if (w->read_pct == 0)
		return R0_OP_WRITE;
	return r0_prng_below(&j->rng, 100) < w->read_pct ? R0_OP_READ : R0_OP_WRITE;
}

/* --- accounting ------------------------------------------------------- */

static void verify_read(struct job *j, const unsigned char *buf, uint64_t offset, uint32_t len)
{
	const struct r0_workload *w = j->sh->w;
	struct r0_verify_report rep;
	size_t bad = r0_verify_check(buf, len, offset, w->seed, w->verify_pass, &rep);

	j->res.verify_checked_bytes += len;
	if (!bad)
		return;
	if (!j->res.verify_bad_sectors)
		j->res.first_bad = rep;
	j->res.verify_bad_sectors += bad;
}

/* --- discards: synchronous (r0_target_discard) ------------------------- */

static void run_trims(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	uint64_t now = r0_now_ns(), off, t;
	int err;

	while (more_to_issue(j, now)) {
		cpu_window(j, now, false);
		off = next_offset(j);
		j->issued_bytes += w->block_bytes;
		t = r0_now_ns();
		err = r0_target_discard(j->sh->t, off, w->block_bytes);
		now = r0_now_ns();
		if (err) {
			record_error(j, R0_OP_TRIM, off, w->block_bytes, -err);
		} else {
			j->res.moved_bytes[R0_OP_TRIM] += w->block_bytes;
			record_done(j, R0_OP_TRIM, w->block_bytes, t, now);
		}
	}
	cpu_window(j, now, true);
}

/* --- reads and writes: the ring ------------------------------------------ */

static void prep(struct job *j, unsigned s)
{
	const struct r0_workload *w = j->sh->w;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&j->ring);
	unsigned char *buf = j->buf + (size_t)s * w->block_bytes;
	int fd = j->fixed_file ? 0 : j->sh->t->fd;
	struct slot *sl = &j->slots[s];

	/* the ring has queue_depth entries and at most that many slots are out */
	if (sl->op == R0_OP_READ) {
		if (j->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, buf, w->block_bytes, sl->offset, (int)s);
		else
			io_uring_prep_read(sqe, fd, buf, w->block_bytes, sl->offset);
	} else {
		if (j->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, buf, w->block_bytes, sl->offset, (int)s);
		else
			io_uring_prep_write(sqe, fd, buf, w->block_bytes, sl->offset);
	}
	if (j->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (j->sh->async != R0_ASYNC_NONE)
		sqe->flags |= IOSQE_ASYNC;
	io_uring_sqe_set_data64(sqe, s);
	j->prepped[j->nprepped++] = s;
}

/* Takes a free slot for the next request: its offset, its kind, a write's data. */
static unsigned next_request(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	unsigned s = j->free_slots[--j->nfree];
	struct slot *sl = &j->slots[s];
	unsigned char *buf = j->buf + (size_t)s * w->block_bytes;

	sl->offset = next_offset(j);
	sl->op = next_op(j);
	if (sl->op == R0_OP_WRITE) {
		if (w->verify == R0_VERIFY_WRITE)
			r0_verify_fill(buf, w->block_bytes, sl->offset, w->seed, w->verify_pass);
		else
			r0_pattern_stamp(buf, w->block_bytes, sl->offset, j->serial++);
	}
	j->issued_bytes += w->block_bytes;
	return s;
}

/* Whether the job runs one request itself now: it may, and its ring has answered. */
static bool carrying(const struct job *j)
{
	return j->carries_one && j->ring_answered;
}

/*
 * Prepares an SQE for every free slot but the one a carrying job keeps for
 * its own request; the submission time comes later.
 */
static void issue(struct job *j, uint64_t now)
{
	const unsigned keep = carrying(j) ? 1 : 0;

	while (j->nfree > keep && more_to_issue(j, now))
		prep(j, next_request(j));
}

/* One reading for the batch, after all its work and just before the syscall. */
static void stamp_submitted(struct job *j)
{
	uint64_t now = r0_now_ns();

	for (unsigned k = 0; k < j->nprepped; k++)
		j->slots[j->prepped[k]].submit_ns = now;
	j->nprepped = 0;
}

static void complete(struct job *j, unsigned s, int res, uint64_t now)
{
	const struct r0_workload *w = j->sh->w;
	struct slot *sl = &j->slots[s];

	if (res == -EAGAIN && j->ring_ready) {   /* fio 3.33 gave these up on dm-stripe: resubmit */
		j->res.eagain_retries++;
		prep(j, s);
		return;
	}
	if (res < 0 || (uint32_t)res != w->block_bytes)
		record_error(j, sl->op, sl->offset, w->block_bytes, res < 0 ? -res : EIO);
	else {
		j->res.moved_bytes[sl->op] += w->block_bytes;
		if (sl->op == R0_OP_READ && w->verify == R0_VERIFY_READ)
			verify_read(j, j->buf + (size_t)s * w->block_bytes, sl->offset, w->block_bytes);
		record_done(j, sl->op, w->block_bytes, sl->submit_ns, now);
	}
	j->free_slots[j->nfree++] = s;
}

/* How many completions to wait for: the reap batch, at most what is out. */
static unsigned reap_wait(const struct job *j)
{
	unsigned out = j->sh->w->queue_depth - j->nfree, want = j->sh->w->reap_batch;

	if (want > out)
		want = out;
	return want ? want : 1;
}

/*
 * Reaps every completion there is. Each group found together is timed by
 * one reading taken right after it is found, before any of it is processed
 * (verify hashes, resubmissions), so the work on one completion is never
 * in the latency of the next. Returns the last reading.
 */
static uint64_t reap(struct job *j)
{
	const unsigned qd = j->sh->w->queue_depth;
	uint64_t now;
	unsigned n;

	for (;;) {
		n = io_uring_peek_batch_cqe(&j->ring, j->cqes, qd);
		now = r0_now_ns();
		if (!n)
			return now;
		for (unsigned k = 0; k < n; k++)
			complete(j, (unsigned)j->cqes[k]->user_data, j->cqes[k]->res, now);
		io_uring_cq_advance(&j->ring, n);
	}
}

/*
 * How long a job waits for completions before it looks again: long enough
 * to cost nothing (an hrtimer armed only when it sleeps), short enough
 * that a stalled device is noticed within a second of the limit.
 */
#define R0_WAIT_TICK_NS 1000000000ULL

/*
 * True when requests are out and none has completed for the workload's
 * stall limit: a zram ring has been seen (Linux 6.18) to keep its reads
 * for ever with its io-wq worker idle (fdinfo's SqTail ahead of CqTail),
 * and a run must end with an error then, not hang.
 */
static bool job_stalled(const struct job *j, uint64_t now)
{
	return now - j->progress_ns >= r0_workload_stall_ns(j->sh->w);
}

uint64_t r0_workload_stall_ns(const struct r0_workload *w)
{
	return w->stall_ns ? w->stall_ns : R0_STALL_DEFAULT_NS;
}

/* Submits what was prepared and waits for the reap batch (r0_engine_collects_first). */
static int submit_and_wait(struct job *j, struct __kernel_timespec *ts)
{
	const unsigned want = reap_wait(j);
	struct io_uring_cqe *cqe;
	int ret;

	if (!r0_engine_collects_first(j->sh->w))
		return io_uring_submit_and_wait_timeout(&j->ring, &cqe, want, ts, NULL);
	ret = io_uring_submit_and_get_events(&j->ring);
	if (ret < 0 || io_uring_cq_ready(&j->ring) >= want)
		return ret;
	return io_uring_wait_cqes(&j->ring, &cqe, want, ts, NULL);
}

/*
 * One request from the job thread itself, timed from just before its
 * system call to just after it returns, with nothing else between.
 * Returns the second reading.
 */
static uint64_t carry_one(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	const int fd = j->sh->t->fd;
	const unsigned s = next_request(j);
	struct slot *sl = &j->slots[s];
	unsigned char *buf = j->buf + (size_t)s * w->block_bytes;
	ssize_t ret;
	uint64_t now;

	sl->submit_ns = r0_now_ns();
	ret = sl->op == R0_OP_READ ? pread(fd, buf, w->block_bytes, (off_t)sl->offset) :
				     pwrite(fd, buf, w->block_bytes, (off_t)sl->offset);
	now = r0_now_ns();
	complete(j, s, ret < 0 ? -errno : (int)ret, now);
	return now;
}

/* The calling thread's voluntary context switches: it slept (preemption does not count). */
static long voluntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/*
 * A carried request, checked for sleeping when it is one of the job's
 * first 8 or every 64th after (a check is two system calls): a job whose
 * checked request slept carries no more in this run, as its device waits
 * for something (r0_engine_may_carry_one).
 */
static uint64_t carry_checked(struct job *j)
{
	const bool check = j->res.carried_ios < 8 || j->res.carried_ios % 64 == 0;
	const long before = check ? voluntary_switches() : 0;
	const uint64_t now = carry_one(j);

	if (check && voluntary_switches() != before) {
		j->carries_one = false;
		j->res.carry_stopped = true;
	}
	j->res.carried_ios++;
	return now;
}

static void run_ring(struct job *j)
{
	const unsigned qd = j->sh->w->queue_depth;
	const uint64_t limit = r0_workload_stall_ns(j->sh->w),
		       tick = limit < R0_WAIT_TICK_NS ? limit : R0_WAIT_TICK_NS;
	struct __kernel_timespec ts = { .tv_sec = (long long)(tick / 1000000000ULL),
					.tv_nsec = (long long)(tick % 1000000000ULL) };
	uint64_t now = r0_now_ns();
	int ret;

	j->progress_ns = now;
	for (;;) {
		unsigned out;
		bool carry;

		cpu_window(j, now, false);
		issue(j, now);
		if (j->nfree == qd)
			break;
		stamp_submitted(j);
		out = qd - j->nfree;
		/* carrying one, the job collects without waiting: it has work */
		carry = carrying(j) && j->nfree && more_to_issue(j, now);
		ret = carry ? io_uring_submit_and_get_events(&j->ring) : submit_and_wait(j, &ts);
		if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			record_error(j, R0_OP_READ, 0, 0, -ret);
			break;
		}
		now = reap(j);
		if (carry)
			now = carry_checked(j);
		/* the ring's completions only: a carried request takes and frees a
		 * slot, and carrying on while the ring stalls is no progress */
		if (j->nfree + out > qd) {
			j->progress_ns = now;
			j->ring_answered = true;
		} else if (job_stalled(j, now)) {
			atomic_store(&j->sh->abort, 1);
			j->stalled = true;
			break;
		}
	}
	cpu_window(j, now, true);
}

/* Queue depth 1 without a ring: every request carried by the job. */
static void run_sync(struct job *j)
{
	uint64_t now = r0_now_ns();

	while (more_to_issue(j, now)) {
		cpu_window(j, now, false);
		now = carry_one(j);
	}
	cpu_window(j, now, true);
}

/* --- set-up ------------------------------------------------------------- */

/*
 * Flags: one thread submits and reaps (SINGLE_ISSUER); completions wait
 * for the job to enter the kernel (DEFER_TASKRUN), so whatever completes a
 * request never has to wake a job that is not waiting, and one that waits
 * for a batch is woken once it is there. A polled ring reaping one at a
 * time keeps COOP_TASKRUN, as measured before. SQPOLL takes none of the
 * task-run flags (its thread runs the completion work). Older kernels get
 * a plain ring; IOPOLL and SQPOLL are never dropped, since they were asked.
 */
static int ring_init(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	const unsigned asked = (w->hipri ? IORING_SETUP_IOPOLL : 0) |
			       (w->sqpoll ? IORING_SETUP_SQPOLL : 0);
	const unsigned taskrun = w->hipri && w->reap_batch <= 1 ? IORING_SETUP_COOP_TASKRUN :
								  IORING_SETUP_DEFER_TASKRUN;
	unsigned sets[3], n = 0;
	int ret = -EINVAL;

	if (w->sqpoll) {
		sets[n++] = IORING_SETUP_SINGLE_ISSUER;
	} else {
		sets[n++] = IORING_SETUP_SINGLE_ISSUER | taskrun;
		sets[n++] = IORING_SETUP_COOP_TASKRUN;
	}
	sets[n++] = 0;
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_params p = { .flags = sets[i] | asked, .sq_thread_idle = 1000 };

		ret = io_uring_queue_init_params(w->queue_depth, &j->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

/*
 * At queue depth 1 the job and the kernel's io-wq worker that runs its
 * request (zram's, or any device that cannot take a request without
 * blocking) take turns and never run at once. On two CPUs each turn is a
 * wake-up across CPUs, to one that went idle meanwhile: an IPI and an exit
 * from idle each way (in a VM, two exits to the hypervisor). On one CPU
 * it is a context switch. So at QD1 the job thread and its io-wq workers
 * stay on one CPU; on a device that completes without io-wq it costs
 * nothing. Deeper queues keep the workers free to run beside the job.
 */
static void job_pin(struct job *j)
{
	cpu_set_t allowed, one;
	int cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	cpu = r0_job_cpu(&allowed, j->sh->cpu_from, j->index);
	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	/* both are a speed-up only: a kernel without io-wq affinity still runs */
	if (!pthread_setaffinity_np(pthread_self(), sizeof(one), &one))
		io_uring_register_iowq_aff(&j->ring, sizeof(one), &one);
}

static int job_setup(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	const unsigned qd = w->queue_depth;
	size_t bytes = (size_t)qd * w->block_bytes;
	struct iovec *iov;
	int ret;

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
	ret = ring_init(j);
	if (ret < 0)
		return ret;
	j->ring_ready = true;
	/* registered buffers and file save a lookup per I/O; without them it still works */
	iov = calloc(qd, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned s = 0; s < qd; s++) {
		iov[s].iov_base = j->buf + (size_t)s * w->block_bytes;
		iov[s].iov_len = w->block_bytes;
	}
	j->fixed_bufs = io_uring_register_buffers(&j->ring, iov, qd) == 0;
	free(iov);
	j->fixed_file = io_uring_register_files(&j->ring, &j->sh->t->fd, 1) == 0;
	if (j->sh->async == R0_ASYNC_BLOCKING_ONLY) {
		/* both classes: on 6.18 these requests counted as unbound, the
		 * bounded cap alone left 8 workers; a kernel without it runs uncapped */
		unsigned cap[2] = { j->sh->io_workers, j->sh->io_workers };

		io_uring_register_iowq_max_workers(&j->ring, cap);
	}
	if (qd == 1 && !w->sqpoll)
		job_pin(j);
	j->carries_one = r0_engine_may_carry_one(j->sh->t, w);
	return 0;
}

/*
 * A ring is torn down by a kernel worker after it is closed, and its
 * registered file goes with it: unregister first, so the target is really
 * closed (an O_EXCL claim released) when the run returns. From the job's
 * own thread: a SINGLE_ISSUER ring refuses registration calls from others.
 */
static void job_ring_exit(struct job *j)
{
	if (!j->ring_ready)
		return;
	/*
	 * Requests still in the kernel: unregistering would wait for them
	 * (6.12 quiesces the buffer table), so only the ring is closed; the
	 * kernel cancels what it can in its own worker.
	 */
	if (j->stalled) {
		io_uring_queue_exit(&j->ring);
		j->ring_ready = false;
		return;
	}
	if (j->fixed_file)
		io_uring_unregister_files(&j->ring);
	if (j->fixed_bufs)
		io_uring_unregister_buffers(&j->ring);
	io_uring_queue_exit(&j->ring);
	j->ring_ready = false;
}

static void job_release(struct job *j)
{
	/* a stalled job's buffers may still be the target of its requests: kept */
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
			run_trims(j);
		else if (r0_engine_is_sync(j->sh->w))
			run_sync(j);
		else
			run_ring(j);
	}
	job_ring_exit(j);
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

int r0_engine_run(const struct r0_target *t, const struct r0_workload *w,
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
		ret = r0_target_poll_check(t, NULL, 0);
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
