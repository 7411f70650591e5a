/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload a user really runs, measured from the kernel's per-device
 * counters (/sys/block/X/stat, Documentation/block/stat.rst): read/write
 * share, request sizes, queue depth while busy, discards, and weights over
 * the workload classes of r0/analysis.h, written to and read back from a
 * mix file (schema "r0mix/1").
 *
 * What counters can and cannot tell. Sizes, directions, merges, busy time
 * and the summed time requests spent in flight are exact over an interval;
 * everything per request is an average over the interval (a 4K and a 1M
 * request in one interval look like two 514K ones). Sequential versus
 * random is not counted by the kernel at all: it is inferred from merges
 * (streams merge), from requests at the queue's size limit (a user I/O
 * larger than the device takes, split by the kernel) and from requests of
 * 1 MiB and more. The result says so
 * and carries a confidence.
 *
 * Everything here but r0_profile_dev_* and r0_mix_load is pure: the
 * caller samples, these functions compute.
 */
#ifndef R0_PROFILE_H
#define R0_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>


#include "r0/probe.h"

#define R0_MIX_SCHEMA "r0mix/1"

/* The classes a mix weighs, as r0_workload_class() names them. */
enum r0_pclass {
	R0_PC_SEQ_READ, R0_PC_SEQ_WRITE,
	R0_PC_RAND_LARGE_READ, R0_PC_RAND_LARGE_WRITE,
	R0_PC_RAND_SMALL_Q1_READ, R0_PC_RAND_SMALL_Q1_WRITE,
	R0_PC_RAND_SMALL_QD_READ, R0_PC_RAND_SMALL_QD_WRITE,
	R0_PC_N
};

/* "seq-read", ..., "rand-small-qd-write"; NULL out of range. */
const char *r0_pclass_name(enum r0_pclass c);
/* "sequential reads", "small writes at QD1", ...; NULL out of range. */
const char *r0_pclass_human(enum r0_pclass c);
/* The class called NAME, or -EINVAL. */
int r0_pclass_from_name(const char *name);

/* Above this average request size an interval's I/O is large (r0_workload_class). */
#define R0_PROFILE_LARGE_BYTES (64u * 1024)
/* Busy-time average in flight at or below this is "QD1" (r0_workload_class: at most 2). */
#define R0_PROFILE_Q1_MAX 2.0
/* Share of merged I/Os (merged / (completed + merged)) that marks a stream. */
#define R0_PROFILE_SEQ_MERGE_SHARE 0.25
/* Average request at this share of the queue's max request: user I/Os split by the kernel. */
#define R0_PROFILE_SEQ_LIMIT_SHARE 0.9
/* An average request this large is a stream whatever the limit (1M random I/O is rare outside benchmarks). */
#define R0_PROFILE_SEQ_BYTES (1024u * 1024)
/* Request-size buckets: <= 4K, 8K, ..., 1M, above 1M. */
#define R0_PROFILE_SIZE_BUCKETS 10
/* Active intervals for full confidence in the coverage. */
#define R0_PROFILE_FULL_COVERAGE 30

/* Minimum busy in-flight reads in an interval for them to give its queue depth. */
#define R0_PROFILE_MIN_BUSY_READS 3

/*
 * in_flight (the stat file's field 9) read several times between two
 * samples. The instant count is exact where io_ticks is not: 6.12 counts
 * busy time in jiffies and under-counts short requests (the sandbox's
 * null_blk at QD1: 1.8 s busy for 5 s of summed time in flight).
 */
struct r0_inflight_tally {
	unsigned hist[4];           /* reads seeing 0, 1, 2, more requests in flight */
	uint64_t busy_sum;          /* in_flight summed over the reads that saw any */
};

void r0_inflight_tally_add(struct r0_inflight_tally *t, uint64_t in_flight);

/* One sample of one device: when (monotonic ns), its counters, and the in_flight reads since the last. */
struct r0_profile_sample {
	uint64_t t_ns;
	struct r0_blockstat s;
	struct r0_inflight_tally sub;   /* all 0: none taken */
};

/* What one class got over the whole profile. */
struct r0_profile_class {
	double busy_s;              /* device busy time attributed to the class */
	uint64_t bytes, ops;
	unsigned intervals;         /* interval-directions classed here */
	double qd_busy_s;           /* sum of mean-in-flight x busy_s (for the mean QD) */
	double weight;              /* busy_s / all classes' busy_s (r0_profile_finish) */
};

struct r0_profile {
	/* accumulated by r0_profile_add */
	unsigned intervals;         /* intervals seen (all devices) */
	unsigned active;            /* with at least one completed read or write */
	unsigned resets;            /* skipped: a counter went backwards or time did not advance */
	uint64_t t_first_ns, t_last_ns; /* the earliest and latest sample added */
	double seconds;             /* wall time covered: t_last_ns - t_first_ns */
	double busy_s;              /* busy time over active intervals: from in_flight reads, else io_ticks */
	double busy_ticks_s;        /* io_ticks alone, for comparison */
	double busy_qd_s;           /* sum of mean-in-flight x busy time */
	double busy_q1_s;           /* busy time in intervals at mean in flight <= R0_PROFILE_Q1_MAX */
	double clear_busy_s;        /* busy time of interval-directions far from every class border */
	/*
	 * [0 read, 1 write]: busy time classed seq only because its requests
	 * were a striped array's whole-chunk pieces (r0_profile_add_cut), which
	 * a stream, large random requests and random requests of one chunk all
	 * leave: counters cannot tell these classes apart, a trace can.
	 */
	double cut_busy_s[2];
	uint64_t reads, writes, discards, reads_merged, writes_merged;
	uint64_t read_bytes, write_bytes, discard_bytes;
	unsigned size_hist[2][R0_PROFILE_SIZE_BUCKETS];   /* [0 read, 1 write]: intervals by average request size */
	unsigned inflight_hist[4];  /* in_flight reads (or samples) seeing 0, 1, 2, more in flight */
	struct r0_profile_class cls[R0_PC_N];
	/* derived by r0_profile_finish */
	double read_share_bytes, read_share_ops;   /* of reads + writes; 0 without I/O */
	double discard_share_bytes;                /* of reads + writes + discards */
	double avg_read_bytes, avg_write_bytes;    /* per request over the whole profile */
	double q1_share;            /* busy_q1_s / busy_s */
	double mean_qd;             /* busy_qd_s / busy_s: mean in flight while busy */
	double confidence;          /* 0..1: coverage x clarity */
	/* the weights are shares of the requests, not of the busy time: a trace
	 * without completions has no busy time (r0_tracemix_finish) */
	bool weights_by_requests;
	const char *confidence_level;   /* r0_confidence_level(confidence) */
};

/* A measured mix's confidence in words: "high" from this, "medium" from the next, else "low". */
#define R0_CONFIDENCE_HIGH 0.7
#define R0_CONFIDENCE_MEDIUM 0.4
const char *r0_confidence_level(double confidence);

void r0_profile_init(struct r0_profile *p);

/*
 * Adds the interval from PREV to CUR of one device whose largest request
 * is MAX_REQUEST_BYTES (queue/max_sectors_kb; 0 unknown). An interval whose
 * time does not advance or whose counters go backwards (a re-created
 * device, a 32-bit wrap) is counted in ->resets and skipped. With
 * R0_PROFILE_MIN_BUSY_READS or more busy reads in CUR->sub, the interval's
 * queue depth is their mean and its busy time the summed time in flight
 * over it; else time_in_queue / io_ticks and io_ticks. CUR->sub (or CUR's
 * own in_flight) goes into ->inflight_hist. 0, or -EINVAL for NULL arguments.
 */
int r0_profile_add(struct r0_profile *p, const struct r0_profile_sample *prev,
		   const struct r0_profile_sample *cur, uint64_t max_request_bytes);
/*
 * The same for a device that cuts every request at MAX_REQUEST_BYTES
 * however small (CUT_AT_LIMIT: a striped array's chunk): an interval whose
 * requests average at the limit is a stream cut there, not small I/O.
 */
int r0_profile_add_cut(struct r0_profile *p, const struct r0_profile_sample *prev,
		       const struct r0_profile_sample *cur, uint64_t max_request_bytes, bool cut_at_limit);

/* Above this share of the busy time, striped whole-chunk pieces are named as classes not told apart. */
#define R0_PROFILE_CUT_NOTE_SHARE 0.05
/* The share of P's busy time in cut_busy_s (0 without busy time). */
double r0_profile_cut_share(const struct r0_profile *p);

/* Computes the derived fields from the accumulated ones; may be called again after more adds. */
void r0_profile_finish(struct r0_profile *p);

/* The upper bound of size bucket I in bytes (4096 << i); UINT64_MAX for the last. */
uint64_t r0_profile_bucket_bytes(unsigned i);

/*
 * A one-line description: "the workload measured on DEVICES over 24 h:
 * 72 % small reads at QD1, 20 % sequential writes, 8 % other (confidence
 * high)" — the classes by weight, the largest three named. 0 or -ENOSPC.
 */
int r0_mix_describe(const char *devices, double seconds, const double weight[R0_PC_N],
		    const char *confidence_level, char *buf, size_t len);


/* A device being profiled, found from its /dev path without opening it. */
struct r0_profile_dev {
	dev_t devt;
	char kname[R0_KNAME_LEN];
	uint64_t max_request_bytes; /* queue/max_sectors_kb (the disk's for a partition); 0 unknown */
	bool no_iostats;            /* queue/iostats is 0: the kernel counts nothing for it */
	/*
	 * A striped array (md raid0 or raid10, dm-stripe): its chunk and
	 * members; 0 otherwise. It counts the pieces a request is cut into at
	 * chunk boundaries, so a piece of a whole chunk is part of a larger
	 * request: its chunk is the request limit the stream rule uses.
	 */
	uint64_t stripe_chunk_bytes;
	unsigned stripe_members;
};

/*
 * Resolves PATH (a block device node or a symlink to one) through ENV's
 * sysfs (dev/block/MAJ:MIN). 0; -ENOENT (no such path); -ENOTBLK (not a
 * block device); -ENODEV (no counters in sysfs); other -errno.
 */
int r0_profile_dev_resolve(const char *path, const struct r0_probe_env *env,
			   struct r0_profile_dev *out);

#endif
