/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replays a block trace (r0/trace.h) on a target opened for the engine
 * (r0/engine.h: O_DIRECT, a block device or a regular file) with io_uring,
 * as fio's read_iolog does: the trace's QUEUE events of reads and writes
 * are issued again, each at its sector and length, either as fast as the
 * target allows with at most a queue depth of requests in flight, or at
 * the recorded pace (no request before its recorded time since the first
 * request). Writes carry a pseudo-random pattern (the trace holds no
 * data). Flushes are issued as fdatasync (IORING_OP_FSYNC, DATASYNC) in
 * their place; discards are counted and not replayed, unless the trace
 * was loaded with R0_REPLAY_LOAD_DISCARDS: then each is issued in its
 * place by the replaying thread itself, synchronously (r0_io_file_discard:
 * BLKDISCARD, a regular file's punched hole), once every request before
 * it has completed, so it never overtakes a write queued before it.
 * ISSUE and COMPLETE
 * events give the trace's queue depth, and show a request queued twice
 * because the kernel refused its nonblocking attempt (replayed once).
 */
#ifndef R0_REPLAY_H
#define R0_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/engine.h"
#include "r0/trace.h"

/* Queue depth of a trace without queue depth data (fio's iodepth for a replay is the user's). */
#define R0_REPLAY_DEFAULT_QD 32u

/* One request to replay, in the trace's order. */
struct r0_replay_req {
	uint64_t t_us;              /* since the trace's first request */
	uint64_t offset_bytes;      /* as recorded, on the trace's device */
	uint32_t bytes;             /* 0 for a flush */
	unsigned char op;           /* R0_TRACE_READ, _WRITE, _FLUSH (or _DISCARD: R0_REPLAY_LOAD_DISCARDS) */
};

/* A whole trace, read and checked before anything is replayed. */
struct r0_replay_trace {
	struct r0_trace_header h;
	struct r0_replay_req *reqs;
	size_t n;
	uint64_t reads, writes, flushes, discards;  /* discards: in reqs only when discards_kept */
	uint64_t discard_bytes;
	bool discards_kept;         /* loaded with R0_REPLAY_LOAD_DISCARDS: its discards are replayed */
	uint64_t retried;           /* QUEUEs of a request the kernel refused unissued: not in reqs */
	uint64_t read_bytes, write_bytes;
	uint32_t max_request_bytes;
	unsigned max_in_flight;     /* its submitters' deepest queue (requests, not the pieces a disk issues); 0 without queue depth data */
	uint64_t duration_us;       /* first to last request */
	struct r0_trace_fault fault;   /* after an error of reading: the file ends early, or where (a fio iolog's line) */
};

/*
 * Reads the trace PATH whole into *T. 0; the errors of r0_trace_reader_open
 * and r0_trace_read (-EBADMSG: a file cut short, ->fault.truncated then true, or
 * damaged; -E2BIG for a request above R0_TRACE_REQUEST_MAX_BYTES), -ENOMEM.
 * Nothing is replayed from a trace that does not end right. *T is to be freed either way.
 */
int r0_replay_load(const char *path, struct r0_replay_trace *t);

/*
 * As r0_replay_load, with FLAGS: R0_REPLAY_LOAD_DISCARDS keeps the trace's
 * discards as requests (fio's iolog replays its trims the same way), a
 * discard above 1 GiB cut into requests of 1 GiB at its time; they take
 * no part in max_request_bytes or the queue depth.
 */
#define R0_REPLAY_LOAD_DISCARDS 1u
int r0_replay_load_flags(const char *path, unsigned flags, struct r0_replay_trace *t);
void r0_replay_trace_free(struct r0_replay_trace *t);

/* What r0_replay_map did to a request (bits). */
#define R0_REPLAY_WRAPPED 1     /* its offset moved: modulo the target's size */
#define R0_REPLAY_RESIZED 2     /* widened to the target's logical block */

/*
 * Where a request of BYTES at OFFSET_BYTES falls on a target of
 * TARGET_BYTES with logical block LB_BYTES (a power of two): into
 * *OUT_OFFSET and *OUT_BYTES. Its start is rounded down and its end up
 * to LB_BYTES (RESIZED, when that changed it). One that then ends past
 * the target's last whole logical block starts at its offset modulo that
 * size, and moves back to end at that block if it would still cross it
 * (WRAPPED). Returns those bits, or -ERANGE when the request is larger
 * than the target's whole logical blocks. Pure.
 */
int r0_replay_map(uint64_t offset_bytes, uint32_t bytes, uint64_t target_bytes, uint32_t lb_bytes,
		  uint64_t *out_offset, uint32_t *out_bytes);

/* Kinds of request r0_replay_skip leaves out (fio's replay_skip). */
#define R0_REPLAY_SKIP_READS 1u
#define R0_REPLAY_SKIP_WRITES 2u
#define R0_REPLAY_SKIP_FLUSHES 4u
/*
 * Parses "reads,writes,flushes" (any of them, comma-separated; singular
 * too) into *MASK: 0, or -EINVAL naming nothing known. Pure.
 */
int r0_replay_skip_parse(const char *s, unsigned *mask);
/*
 * Leaves T's requests of the kinds in MASK out (their counts and bytes
 * too), keeping the others, discards too, at their recorded times.
 * Returns how many were left out.
 */
uint64_t r0_replay_skip(struct r0_replay_trace *t, unsigned mask);

struct r0_replay_opts {
	bool pace;                  /* at the recorded pace; else as fast as possible */
	double time_scale;          /* pace only: 2 replays twice as fast, 0.5 at half speed (fio's replay_time_scale=200, 50); 0: 1 */
	unsigned queue_depth;       /* 0: the trace's max_in_flight, else R0_REPLAY_DEFAULT_QD */
	uint64_t seed;              /* of the write pattern */
	uint64_t stall_ns;          /* no completion for this long: -ETIMEDOUT (0: 60 s) */
	volatile sig_atomic_t *stop;    /* set by a signal handler: -EINTR (NULL: none) */
};

struct r0_replay_result {
	unsigned queue_depth;       /* used */
	bool mapped;                /* the trace's device is larger than the target */
	uint64_t wrapped;           /* requests whose offset moved (modulo the target) */
	uint64_t resized;           /* requests widened to the target's logical block */
	uint64_t requests;          /* done: reads, writes, flushes and discards replayed */
	uint64_t reads, writes, flushes, discards_skipped;
	uint64_t discards, discarded_bytes;     /* replayed (R0_REPLAY_LOAD_DISCARDS) */
	uint64_t read_bytes, written_bytes;
	uint64_t wall_ns;           /* first issue to last completion */
	double mib_s;               /* (read + written) / wall time, MiB/s */
	double iops;
	uint64_t lat_p50_ns, lat_p99_ns;    /* issue to completion, reads and writes */
	/* the same one kind at a time (0 without a request of that kind) */
	uint64_t read_lat_p50_ns, read_lat_p99_ns, write_lat_p50_ns, write_lat_p99_ns;
	/* pace only: how far behind its recorded time a request was issued */
	uint64_t lag_max_ns, lag_end_ns;    /* the worst; the last request's */
	double lag_mean_ns;
	uint64_t recorded_ns;       /* the trace's first to last request */
	/* the failure, when r0_replay_run returns -EIO */
	uint64_t error_offset_bytes;
	int error;                  /* positive errno of the failed request */
};

/* True when T holds a write or a discard it replays (a replay of it destroys data on the target). */
bool r0_replay_writes(const struct r0_replay_trace *t);

/*
 * Replays T on TG (open, writable when T writes) and fills *R. 0;
 * -ERANGE when a request is larger than TG (a discard larger than TG
 * discards the whole of it instead); -EROFS for a trace with writes or
 * replayed discards on a target opened read-only; -EIO when a request
 * failed or came short (R says which; a discard TG cannot take fails so:
 * r0_io_file_discard_check asks first); -ETIMEDOUT on a stall; -EINTR when O's stop was
 * set (R holds what completed); -errno of io_uring set-up or memory. R is
 * filled as far as the replay went in every case.
 */
int r0_replay_run(const struct r0_replay_trace *t, const struct r0_io_file *tg,
		  const struct r0_replay_opts *o, struct r0_replay_result *r);

#endif
