/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to lib/engine/: a run's jobs, which engine.c sets up and merges
 * and which the ring (ring.c), the job's own requests (sync.c) and the
 * caller's watch (watcher.c) run and read: the state they share, the
 * accounting every path does alike, and what each file offers engine.c.
 */
#ifndef R0_ENGINE_JOB_H
#define R0_ENGINE_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <liburing.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "r0/enginepolicy.h"
#include "r0/prng.h"
#include "r0/steady.h"

struct shared {
	const struct r0_io_file *t;
	const struct r0_workload *w;
	bool time_based;
	uint64_t t0_ns, ramp_end_ns;
	/*
	 * Time-based: the end of the measured window, also when the jobs stop
	 * issuing. The steady rule moves it earlier, always to a moment still
	 * ahead of every clock (see close_window in watcher.c), so a completion
	 * compared with the old end is never on the wrong side of the new one.
	 */
	_Atomic uint64_t end_ns;
	uint64_t win_start_ns;
	pthread_barrier_t ready, go;
	atomic_int abort;          /* an error or a stop: every job winds down */
	atomic_int running;
	enum r0_async async;       /* r0_engine_async */
	unsigned io_workers;       /* with R0_ASYNC_BLOCKING_ONLY: r0_engine_io_workers */
	int cpu_from;              /* the caller's CPU: where job 0 goes at QD1 */
};

struct slot {
	uint64_t submit_ns;
	uint64_t offset;
	enum r0_op op;
};

struct job {
	struct shared *sh;
	unsigned index;
	uint64_t region_start, region_bytes;
	uint64_t nblocks, nalign;  /* blocks in the region; aligned random positions */
	uint64_t seq_pos;
	uint64_t seed;
	struct r0_prng rng;
	struct r0_cover cover;
	uint64_t to_issue_bytes, issued_bytes;
	uint64_t serial;

	struct io_uring ring;
	bool ring_ready, fixed_bufs, fixed_file;
	bool stalled;                   /* requests left in the kernel: see r0_ring_run */
	bool carries_one;               /* runs one request of its queue itself (r0_ring_carry_one) */
	bool ring_answered;             /* the ring has completed a request */
	uint64_t progress_ns;           /* the last completion (or the start) */
	unsigned char *buf;
	struct slot *slots;
	unsigned *free_slots, nfree;
	unsigned *prepped, nprepped;    /* slots in the SQ, not yet submitted */
	struct io_uring_cqe **cqes;

	bool cpu_on, cpu_done;          /* the job's CPU window: open, closed */
	uint64_t cpu0_ns, wall0_ns;
	double cpu_s, wall_s;           /* over that window */
	uint64_t last_done_ns;
	struct r0_result res;
	_Atomic uint64_t done_ios, done_bytes;
	int err;                   /* set-up failure */
	pthread_t thread;
	bool started;
};

/*
 * The steady rule's view of a run (min_runtime_ns): the bytes completed
 * in the window, read from the jobs' counters at each slice boundary
 * (as fio's helper thread reads its jobs' counters each second), and
 * whether the rule has closed the window. A sample read late (the watcher
 * was not scheduled at its boundary) carries the bytes of the time it
 * missed, and the samples after it in the same look none: the series
 * looks unsteady there and the run goes on, never ending on a bad read.
 */
struct sampler {
	bool on;
	uint64_t slice_ns, min_ns, max_ns;  /* from the ramp's end */
	struct r0_steady_rule rule;
	double *y;
	size_t n, cap;
	uint64_t last_bytes;
	bool closed;
	struct r0_steady_window last;
};

/* --- what every path does per request (inline: it is on the hot path) --- */

static inline uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t next_offset(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	uint64_t off;

	if (w->access == R0_ACCESS_SEQ) {
		off = j->region_start + j->seq_pos;
		j->seq_pos += w->block_bytes;
		if (j->seq_pos + w->block_bytes > j->region_bytes)
			j->seq_pos = 0;   /* the next pass */
		return off;
	}
	if (w->cover)
		return j->region_start + r0_cover_next(&j->cover) * w->block_bytes;
	return j->region_start +
	       r0_prng_below(&j->rng, j->nalign) * (w->align_bytes ? w->align_bytes : w->block_bytes);
}

/* The window's end now (time-based; may move earlier once, see struct shared). */
static inline uint64_t end_of(const struct shared *sh)
{
	return atomic_load_explicit(&sh->end_ns, memory_order_relaxed);
}

static inline bool more_to_issue(const struct job *j, uint64_t now)
{
	if (atomic_load_explicit(&j->sh->abort, memory_order_relaxed))
		return false;
	if (j->sh->time_based)
		return now < end_of(j->sh);
	return j->issued_bytes < j->to_issue_bytes;
}

/*
 * The job's own CPU clock over the window, and the wall time between the
 * same readings (wall first at the start, last at the end, so the CPU
 * interval lies inside the wall one and the share cannot pass 100 %).
 */
static inline void cpu_window(struct job *j, uint64_t now, bool last)
{
	const struct shared *sh = j->sh;

	if (!j->cpu_on && !j->cpu_done && now >= sh->ramp_end_ns && !last) {
		j->wall0_ns = r0_now_ns();
		j->cpu0_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		j->cpu_on = true;
	} else if (j->cpu_on && (last || (sh->time_based && now >= end_of(sh)))) {
		uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID), wall = r0_now_ns();

		j->cpu_s = (double)(cpu - j->cpu0_ns) / 1e9;
		j->wall_s = (double)(wall - j->wall0_ns) / 1e9;
		j->cpu_on = false;
		j->cpu_done = true;
	}
}

static inline void record_error(struct job *j, enum r0_op op, uint64_t offset, uint32_t len, int err)
{
	if (!j->res.errors++) {
		j->res.first_error.err = err;
		j->res.first_error.op = op;
		j->res.first_error.offset_bytes = offset;
		j->res.first_error.length_bytes = len;
	}
	if (!j->sh->w->continue_on_error)
		atomic_store(&j->sh->abort, 1);
}

static inline void record_done(struct job *j, enum r0_op op, uint32_t len, uint64_t submit_ns,
			       uint64_t done_ns)
{
	const struct r0_window win = { j->sh->win_start_ns,
				       j->sh->time_based ? end_of(j->sh) : UINT64_MAX };

	if (!r0_window_count(&j->res, &win, op, len, submit_ns, done_ns))
		return;
	j->last_done_ns = done_ns;
	atomic_store_explicit(&j->done_ios, atomic_load_explicit(&j->done_ios, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&j->done_bytes,
			      atomic_load_explicit(&j->done_bytes, memory_order_relaxed) + len,
			      memory_order_relaxed);
}

/* --- ring.c: reads and writes through the job's io_uring ---------------- */

/* The job's ring, its registered buffers and file, its io-wq: 0 or -errno. */
int r0_ring_setup(struct job *j);
/* Keeps the queue full until the job is done, an error or a stop, or a stall. */
void r0_ring_run(struct job *j);
/* One request run by the job thread itself (pread/pwrite); returns the clock after it. */
uint64_t r0_ring_carry_one(struct job *j);
/* Closes the ring (from the job's own thread); nothing without one. */
void r0_ring_exit(struct job *j);

/* --- sync.c: requests the job issues itself, one at a time --------------- */

/* Queue depth 1 without a ring: pread/pwrite until the job is done. */
void r0_sync_run(struct job *j);
/* Discards through r0_io_file_discard until the job is done. */
void r0_sync_trims(struct job *j);

/* --- watcher.c: the caller's thread while the jobs run ------------------- */

/*
 * Until every job has ended: the steady rule's samples into SMP, progress
 * and *stop (O may be NULL), the process's CPU time over the window into
 * RES. Returns whether *stop stopped the run.
 */
bool r0_watcher_run(struct shared *sh, struct job *jobs, unsigned n, const struct r0_run_opts *o,
		    struct sampler *smp, struct r0_result *res);

#endif
