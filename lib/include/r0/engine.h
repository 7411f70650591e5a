/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The I/O engine under r0bench, r0sweep, r0age and r0trim: io_uring,
 * O_DIRECT, one ring and one thread per job, registered buffers and file,
 * batched submission and reaping, completion-minus-submission latency in a
 * log-linear histogram, CPU time of each job thread and of the process.
 */
#ifndef R0_ENGINE_H
#define R0_ENGINE_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "r0/hist.h"
#include "r0/pattern.h"
#include "r0/steady.h"

#define R0_QD_MAX 4096u      /* per job; io_uring itself allows 32768 entries */
#define R0_JOBS_MAX 64u
#define R0_BLOCK_MAX (64u << 20)
#define R0_JOB_BUFFER_MAX (1ULL << 30)   /* queue depth x block size of one job */

/*
 * R0_ACCESS_FS and R0_ACCESS_REPLAY are no engine workloads, and the
 * engine refuses them: an everyday scenario through a file system
 * (r0/everyday.h) and a recorded trace replayed (r0/replay.h), each named
 * by its label; r0sweep runs them.
 */
enum r0_access { R0_ACCESS_SEQ, R0_ACCESS_RAND, R0_ACCESS_FS, R0_ACCESS_REPLAY };
enum r0_op { R0_OP_READ, R0_OP_WRITE, R0_OP_TRIM, R0_OP_COUNT };
enum r0_verify_mode { R0_VERIFY_NONE, R0_VERIFY_WRITE, R0_VERIFY_READ };

/* What to run. Zero it, then set what differs; r0_workload_check says what is wrong. */
struct r0_workload {
	enum r0_access access;
	unsigned read_pct;          /* 100 reads, 0 writes, in between a mix */
	bool trim;                  /* every I/O is a discard (read_pct ignored) */
	uint32_t block_bytes;       /* per I/O; a multiple of the logical block size */
	uint32_t align_bytes;       /* random offsets are multiples of this (0: block_bytes) */
	unsigned queue_depth;       /* per job, 1..R0_QD_MAX */
	unsigned jobs;              /* threads, 1..R0_JOBS_MAX (0 counts as 1) */
	bool shared_region;         /* every job over the whole span; else a slice each */
	uint64_t offset_bytes;      /* where the span starts */
	uint64_t span_bytes;        /* 0: to the end of the device or file */
	uint64_t runtime_ns;        /* time-based when not 0 ... */
	uint64_t ramp_ns;           /* ... after a ramp-up that is not counted */
	uint64_t size_bytes;        /* size-based: bytes per job; 0: one pass over its region */
	bool cover;                 /* random: every block exactly once per pass */
	uint64_t seed;
	enum r0_verify_mode verify; /* WRITE stamps, READ checks (r0/pattern.h) */
	uint32_t verify_pass;
	bool continue_on_error;     /* count I/O errors and go on instead of stopping */
	/*
	 * Completions to wait for at once (0 or 1: each is timed as it
	 * arrives, as fio does by default). More saves a wake-up per I/O where
	 * the CPU is the limit (io-wq devices such as zram), at the price of
	 * latency read up to N-1 completions late; fio's
	 * iodepth_batch_complete_min. Capped at what is in flight.
	 */
	unsigned reap_batch;
	/*
	 * Polled completions (IORING_SETUP_IOPOLL, fio's hipri): the job thread
	 * spins on the driver's poll queue instead of sleeping until an
	 * interrupt. Needs O_DIRECT and, on a block device, poll queues
	 * (queue/io_poll is 1: NVMe's and null_blk's poll_queues); see
	 * r0_io_file_poll_check.
	 */
	bool hipri;
	/*
	 * A kernel thread takes the submissions off the ring
	 * (IORING_SETUP_SQPOLL, fio's sqthread_poll): no system call to
	 * submit while it is awake; it sleeps after 1 s without work. Its
	 * CPU time is the process's (user_s, sys_s), not the job thread's.
	 */
	bool sqpoll;
	/*
	 * io_uring even at queue depth 1. Without it a QD1 job without hipri
	 * or sqpoll issues each request itself (pread/pwrite, r0_engine_is_sync):
	 * one request at a time needs no ring, and on a device that cannot take
	 * a request without blocking (zram) io_uring hands every one to a
	 * worker thread and back, two context switches an I/O.
	 */
	bool ring;
	/*
	 * With requests out and none completed for this long the run is
	 * abandoned with -ETIMEDOUT instead of waiting for ever (0: 60 s,
	 * twice the kernel's SCSI command timeout of 30 s).
	 */
	uint64_t stall_ns;
	/*
	 * A test that ends when it has measured (fio's steadystate): with
	 * min_runtime_ns not 0 (time-based only, at most runtime_ns), the
	 * measured window is sampled in slices (steady_slice_ns, 0:
	 * r0_steady_slice_ns) of bytes completed, and closes early once the
	 * rule holds (r0_steady_run_stop); else runtime_ns is its maximum.
	 * 0: the fixed length of runtime_ns, as without it. A steady rule
	 * with window 0 is R0_STEADY_RUN.
	 */
	uint64_t min_runtime_ns;
	struct r0_steady_rule steady;
	uint64_t steady_slice_ns;
};
#define R0_STALL_DEFAULT_NS (60ULL * 1000000000ULL)

/* W's stall limit in ns: its stall_ns, or R0_STALL_DEFAULT_NS when 0. */
uint64_t r0_workload_stall_ns(const struct r0_workload *w);

/* What the engine runs on, open: a block device or a regular file (fio's "file"). */
struct r0_io_file {
	int fd;
	bool is_block;
	bool direct;                /* O_DIRECT (false only for a file system without it) */
	bool writable;
	dev_t devt;                 /* block device: its number; file: 0 */
	uint64_t size_bytes;
	uint32_t logical_block_bytes;   /* the O_DIRECT alignment */
	uint32_t physical_block_bytes;  /* the device's write unit (a file: logical_block_bytes) */
	bool blocking_only;         /* refuses nonblocking requests (r0_fd_refuses_nowait): zram */
	char path[4096];
};

/*
 * Opens PATH for the engine: O_DIRECT (a regular file whose file system
 * refuses it is opened buffered and says so in ->direct), read-only or
 * read-write; a block device opened for writing is opened O_EXCL, so a
 * mounted or otherwise claimed device fails with -EBUSY.
 * 0 or -errno (-ENOTBLK: neither a block device nor a regular file).
 */
int r0_io_file_open(const char *path, bool writable, struct r0_io_file *t);
void r0_io_file_close(struct r0_io_file *t);

/*
 * 1 when the kernel refuses a nonblocking request on FD (a read of
 * BLOCK_BYTES at AT with RWF_NOWAIT fails with EOPNOTSUPP: zram, a procfs
 * file), 0 when it takes one, -errno when the probe could not ask. The
 * flag is checked before anything is read, so at the end of the device
 * or file (AT = its size) the probe reads nothing. io_uring runs every
 * request on a refusing FD in its io-wq workers.
 */
int r0_fd_refuses_nowait(int fd, uint32_t block_bytes, uint64_t at);

/*
 * Discards [OFFSET_BYTES, OFFSET_BYTES + LEN_BYTES) of T (open for
 * writing), synchronously: BLKDISCARD on a block device, a punched hole
 * (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) in a regular file. The
 * engine's trims and a replay's discards go through it: liburing 2.3 and
 * Debian 12's headers have no asynchronous discard. 0 or -errno.
 */
int r0_io_file_discard(const struct r0_io_file *t, uint64_t offset_bytes, uint64_t len_bytes);

/*
 * 0 when T can take r0_io_file_discard: a block device whose sysfs
 * queue/discard_max_bytes (a partition: its disk's) is above 0, read by
 * T's devt alone; a regular file whose file system punches a hole past
 * its end (nothing changes: T must be open for writing). Else
 * -EOPNOTSUPP (or the -errno of reading sysfs or of fallocate) and the
 * reason in WHY.
 */
int r0_io_file_discard_check(const struct r0_io_file *t, char *why, size_t len);

/* Which path W's requests take on T, and where its jobs run: r0/enginepolicy.h. */

/*
 * 0 if W can run on T; else -EINVAL (or -ERANGE for sizes past its end)
 * and the reason in WHY ("block size 3000 is not a multiple of the logical
 * block size 4096").
 */
int r0_workload_check(const struct r0_workload *w, const struct r0_io_file *t, char *why,
		      size_t len);

/*
 * 0 when T can take polled I/O (a workload's hipri): opened O_DIRECT and,
 * a block device, with poll queues (sysfs queue/io_poll 1; a partition:
 * its disk's). Else -EOPNOTSUPP (or the -errno of reading sysfs) and the
 * reason in WHY. A regular file is refused (-EOPNOTSUPP): its file system
 * would decide only at the first I/O (an I/O error when it cannot poll).
 */
int r0_io_file_poll_check(const struct r0_io_file *t, char *why, size_t len);

/*
 * Where job slices start and random offsets fall: the least common
 * multiple of the block size, T's logical and physical block size and W's
 * align_bytes (the largest of them, as all are powers of two in practice),
 * so no I/O straddles a physical sector because of how the span was cut.
 */
uint64_t r0_workload_unit(const struct r0_workload *w, const struct r0_io_file *t);

/* A job's share of the span: [start_bytes, start_bytes + bytes). */
struct r0_region {
	uint64_t start_bytes, bytes;
};

/*
 * Job INDEX (0-based, below W's jobs) of W on T. Shared: the whole span.
 * Else job i starts at offset_bytes + i x S, S = span / jobs rounded down
 * to r0_workload_unit, and the last job takes the remainder (S plus less
 * than jobs units). 0, or -EINVAL when a job would get less than one block
 * or INDEX is out of range. Pure: reads only W and T's sizes.
 */
int r0_job_region(const struct r0_workload *w, const struct r0_io_file *t, unsigned index,
		  struct r0_region *r);

struct r0_io_error {
	int err;                    /* positive errno */
	enum r0_op op;
	uint64_t offset_bytes;
	uint32_t length_bytes;
};

/* How a run's measured window ended. */
enum r0_end {
	R0_END_FIXED,    /* no early end was asked: its runtime or its size */
	R0_END_STEADY,   /* the steady rule closed it (min_runtime_ns) */
	R0_END_MAX,      /* the steady rule never held: runtime_ns, the maximum */
	R0_END_CUT,      /* a stop or an I/O error ended it before either */
};

/* "fixed", "steady", "max", "cut"; NULL for a value out of range. */
const char *r0_end_name(enum r0_end e);
/* The r0_end of NAME (r0_end_name's), or -EINVAL. */
int r0_end_parse(const char *name);

/* W's steady rule: its own, or R0_STEADY_RUN when its window is 0. */
struct r0_steady_rule r0_workload_steady_rule(const struct r0_workload *w);
/* W's slice length when it ends when steady (r0_steady_slice_ns); 0 when it does not. */
uint64_t r0_workload_slice_ns(const struct r0_workload *w);

struct r0_result {
	uint64_t ios[R0_OP_COUNT], bytes[R0_OP_COUNT];   /* in the measured window */
	uint64_t moved_bytes[R0_OP_COUNT];  /* every successful I/O, ramp and drain included */
	double elapsed_s;           /* the measured window (after the ramp) */
	/*
	 * CPU of the whole process in that window (getrusage RUSAGE_SELF, read
	 * by the calling thread every 10 ms): the job threads, the caller's
	 * thread, and io_uring's kernel workers (io-wq runs the I/O of devices
	 * that cannot take it without blocking, zram for one) and ring teardown.
	 */
	double user_s, sys_s;
	/*
	 * Each job thread's own CPU clock (CLOCK_THREAD_CPUTIME_ID) and the wall
	 * time between the same two readings: from the job's first look at the
	 * clock in the window to its last (time-based), or its whole run
	 * (size-based). job_cpu_s[i] <= job_wall_s[i] by construction.
	 */
	unsigned jobs;
	double job_cpu_s[R0_JOBS_MAX], job_wall_s[R0_JOBS_MAX];
	/*
	 * Completion minus submission, ns, all ops. Submission: one clock
	 * reading per submitted batch, taken after every request of the batch
	 * is prepared and just before io_uring_enter. Completion: one reading
	 * per group of completions found together, taken right after they are
	 * found and before any of them is processed (verified, refilled).
	 * A sync job (r0_engine_is_sync): one reading just before each pread
	 * or pwrite and one just after it returns.
	 */
	struct r0_hist lat;
	/*
	 * The same readings one kind at a time (fio's read and write
	 * sections): [R0_OP_READ] the reads, [R0_OP_WRITE] the writes; a
	 * discard is in lat alone (a trim test holds nothing else).
	 */
	struct r0_hist lat_op[2];
	uint64_t errors;            /* I/Os that failed */
	struct r0_io_error first_error;          /* valid when errors > 0 */
	uint64_t verify_checked_bytes, verify_bad_sectors;
	struct r0_verify_report first_bad;       /* valid when verify_bad_sectors > 0 */
	uint64_t eagain_retries;    /* -EAGAIN completions resubmitted */
	uint64_t carried_ios;       /* requests a job ran itself beside its ring (r0_ring_carry_one, lib/engine/ring.c), ramp included */
	bool carry_stopped;         /* a job stopped carrying: a checked carried request slept */
	bool interrupted;           /* stopped early by *stop */
	enum r0_end ended;
	/*
	 * With min_runtime_ns: the slices sampled in the measured window
	 * (each slice_ns long, whole ones), and the rule's figures over the
	 * last window of them (the one that closed it, or the last seen).
	 */
	unsigned samples;
	uint64_t slice_ns;
	struct r0_steady_window steady_last;
};

/* Zeroes *R with its histograms empty (r0_hist_reset), ready to count into. */
void r0_result_reset(struct r0_result *r);

/* A result's figures (lib/engine/result.c). */
uint64_t r0_result_ios(const struct r0_result *r);
uint64_t r0_result_bytes(const struct r0_result *r);
double r0_result_iops(const struct r0_result *r);
double r0_result_bytes_per_s(const struct r0_result *r);
/* Decimal megabytes (10^6 bytes) per second, as the tools print them. */
double r0_result_mb_per_s(const struct r0_result *r);
/* CPU seconds (user + system) of the whole process per I/O; 0 when no I/O completed. */
double r0_result_cpu_per_io(const struct r0_result *r);
/*
 * The busiest job thread's share of its wall time on a CPU, 0..1 (never
 * above: both are read at the same moments); near 1 the thread that
 * submits and reaps, not the device, sets the pace. 0 with no job timed.
 */
double r0_result_busy(const struct r0_result *r);

/*
 * The measured window: a completion counts when it was seen complete at or
 * after start_ns and at or before end_ns (UINT64_MAX: size-based, open).
 */
struct r0_window {
	uint64_t start_ns, end_ns;
};

/*
 * Counts one successful I/O of LEN bytes of OP, submitted at SUBMIT_NS and
 * seen complete at DONE_NS, into R's ios, bytes and latency (lat, and a
 * read's or a write's lat_op too) when DONE_NS is inside WIN. True when it counted. Pure: the engine's accounting, with
 * the clock readings passed in.
 */
bool r0_window_count(struct r0_result *r, const struct r0_window *win, enum r0_op op,
		     uint32_t len, uint64_t submit_ns, uint64_t done_ns);

struct r0_progress {
	double elapsed_s;           /* since the test started, ramp included */
	bool ramping;
	uint64_t ios, bytes;        /* completed so far in the measured window */
};

typedef void (*r0_progress_fn)(const struct r0_progress *p, void *arg);

struct r0_run_opts {
	r0_progress_fn progress;    /* called from the calling thread, NULL: none */
	void *progress_arg;
	unsigned progress_ms;       /* 0: 250 */
	volatile sig_atomic_t *stop;/* set (by a signal handler) to stop early */
};

/*
 * Runs W on T and fills *RES. Returns 0 when the test ran to its end (I/O
 * errors and verify faults are in *RES, not in the return value), -EINTR
 * when *stop ended it early (*RES has what was measured), -EINVAL for a
 * workload r0_workload_check refuses, -EOPNOTSUPP for hipri on a device
 * r0_io_file_poll_check refuses, -ETIMEDOUT when requests were out and
 * none completed for W's stall limit (the run is abandoned, its requests
 * left to the kernel), other -errno when the engine could not start (ring
 * set-up, memory).
 */
int r0_engine_run(const struct r0_io_file *t, const struct r0_workload *w,
		  const struct r0_run_opts *o, struct r0_result *res);

/* "read", "write", "trim". */
const char *r0_op_name(enum r0_op op);

#endif
