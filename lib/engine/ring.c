// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A job's reads and writes through its io_uring ring. The job keeps
 * queue_depth slots (a buffer each, registered with the ring) busy: it
 * prepares every free slot, reads the clock once for the batch, submits
 * and waits in one io_uring_enter, then reaps: each group of completions
 * found together gets one clock reading before any of them is processed.
 * On a device that refuses nonblocking requests it may run one request of
 * a deeper queue so beside the ring, until one sleeps
 * (r0_engine_may_carry_one).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <liburing.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "r0/enginepolicy.h"
#include "r0/prng.h"
#include "job.h"

/* --- a request: its kind, its slot, its SQE, its completion --------------- */

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

/* --- submitting, waiting, reaping ------------------------------------------ */

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

/* --- a request the job runs itself ---------------------------------------- */

/*
 * One request from the job thread itself, timed from just before its
 * system call to just after it returns, with nothing else between.
 * Returns the second reading. Beside the ring (carry_checked), or every
 * request of a job without one (r0_sync_run).
 */
uint64_t r0_ring_carry_one(struct job *j)
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
	const uint64_t now = r0_ring_carry_one(j);

	if (check && voluntary_switches() != before) {
		j->carries_one = false;
		j->res.carry_stopped = true;
	}
	j->res.carried_ios++;
	return now;
}

/* --- the loop ------------------------------------------------------------- */

void r0_ring_run(struct job *j)
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

/* --- set-up and tear-down -------------------------------------------------- */

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

/* After engine.c's job_setup: the slots and their buffers are there. */
int r0_ring_setup(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	const unsigned qd = w->queue_depth;
	struct iovec *iov;
	int ret = ring_init(j);

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
 * registered file goes with it: unregister first, so the device or file is really
 * closed (an O_EXCL claim released) when the run returns. From the job's
 * own thread: a SINGLE_ISSUER ring refuses registration calls from others.
 */
void r0_ring_exit(struct job *j)
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
