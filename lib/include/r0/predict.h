/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Predicting a RAID0 of n drives from measurements of one: the request
 * splitter over the stripe geometry and a queueing model of the members.
 *
 * The model (r0predict(1) says the same to users):
 *   - Each array request of B bytes at offset o is split by the geometry
 *     (r0/geometry.h) into one part per member it touches (contiguous
 *     pieces on a member counted as one request: the block layer's plug
 *     merges md's and dm's chunk-sized bios to one member).
 *   - With queue depth Q at the array and k members touched per request
 *     on average, each member holds q = Q * k / n requests on average.
 *   - Two bounds, the lower wins:
 *     latency: a request takes its slowest part's mean time on a drive
 *       with nothing queued (1 / the curve's IOPS at depth 1), each part
 *       begun when the submitting thread reaches it (after waiting, where
 *       a part before it needs more requests than its member has tags,
 *       for that member to complete the excess at its pace), plus the
 *       layer cost for each chunk it touches (a bio each); Q of them in
 *       flight: Q / that time (Little's law, which needs the mean: with
 *       the p50, a drive with a latency tail scaled at QD1).
 *     throughput: each member spends bytes / (the drive's bytes/s at the
 *       part size and depth max(q, 1)) on each of its parts; the busiest
 *       member sets the array's rate.
 *   - Optional ceilings: array IOPS (a CPU limit) and total bytes/s (a
 *     shared link or controller).
 *   - Optional, the rested reading (r0_predict_opts.rested): members that
 *     rest between parts serve them as a rested drive would.
 * Equal members are assumed; md and dm map alike then, and differ here
 * only by their layer cost.
 */
#ifndef R0_PREDICT_H
#define R0_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/engine.h"
#include "r0/geometry.h"

/* Offsets sampled per workload at most (one stripe period when smaller). */
#define R0_PREDICT_MAX_OFFSETS 4096u

/* One measured point of the single drive. */
struct r0_predict_point {
	enum r0_access access;
	unsigned read_pct;          /* 100 or 0; mixes are predicted from both */
	uint32_t block_bytes;
	double queue_depth;         /* per drive, summed over jobs */
	double bytes_per_s;         /* > 0 */
	double p50_ns;              /* > 0 */
	double spread;              /* (max - min) / median of bytes/s over the passes
				     * or repeats; 0: one pass or not known */
	double min_ns;              /* the fastest request; 0: not known */
};

/* The single drive's measured grid; points in any order. */
struct r0_predict_curve {
	struct r0_predict_point *pts;
	size_t n, cap;
	/*
	 * The drive's queue as r0probe saw it (queue/nr_requests and
	 * queue/max_sectors_kb); 0: not known. md and dm hand a request's
	 * chunk-sized bios to the members one after another from one thread,
	 * and the block layer cuts each into requests of at most
	 * max_request_bytes; a thread that needs a request when the member's
	 * tags are all taken sleeps until one completes, so a member part of
	 * more requests than tags holds back the members after it.
	 */
	unsigned tags;
	uint32_t max_request_bytes;
};

/* Adds a copy of P (a later point at the same access, direction, block
 * and depth replaces none: both are kept and the first found is used).
 * 0, -EINVAL (read_pct not 0 or 100, a zero or negative figure), -ENOMEM. */
int r0_predict_curve_add(struct r0_predict_curve *c, const struct r0_predict_point *p);
void r0_predict_curve_free(struct r0_predict_curve *c);

/*
 * The drive at block size BLOCK_BYTES and (possibly fractional) depth QD
 * for ACCESS and READ_PCT (100 or 0): *BYTES_PER_S and *P50_NS, from the
 * points of that direction. Points of the same access are preferred where
 * both kinds were measured at the same block and depth; the two kinds are
 * pooled otherwise (large random and sequential parts behave alike on
 * flash, and a grid rarely has both everywhere).
 * Interpolation is linear in log(value) over log(block) and log(depth).
 * Outside the grid: below the smallest depth bytes/s scale with the depth
 * (the drive idles) and p50 stays; above the largest, bytes/s stay and
 * p50 grows with the depth; below the smallest block IOPS and p50 stay;
 * above the largest block bytes/s stay and p50 grows with the block.
 * At a measured block, bytes/s are at least the best measured there at a
 * shallower depth (more requests in flight do not slow a drive down; a
 * deeper point that reads slower had a pass shorter than its queue).
 * 0, or -ENOENT when the curve has no point of that direction.
 */
int r0_predict_curve_at(const struct r0_predict_curve *c, enum r0_access access,
			unsigned read_pct, uint32_t block_bytes, double qd, double *bytes_per_s,
			double *p50_ns);

/* The array workload to predict. */
struct r0_predict_workload {
	enum r0_access access;
	unsigned read_pct;          /* 0..100: a mix takes the time-weighted blend */
	uint32_t block_bytes;
	uint32_t align_bytes;       /* random offsets are multiples of it (0: block) */
	unsigned queue_depth;       /* total over jobs */
};

/* What the splitter found for a workload over a geometry. */
struct r0_predict_split {
	size_t n_offsets;                  /* requests sampled */
	double mean_members;               /* members touched per request (k) */
	double member_qd;                  /* each member's share of the depth: Q * k / n */
	double member_bytes[R0_MAX_MEMBERS];   /* mean bytes per request on each member */
	double member_parts[R0_MAX_MEMBERS];   /* mean parts per request on each member */
	uint64_t part_hist_bytes[8];       /* the distinct part sizes seen (up to 8) ... */
	double part_hist_share[8];         /* ... and each one's share of all parts */
	unsigned n_part_sizes;
};

/*
 * Splits the workload's requests over G: the offsets of one stripe
 * period (every align-th for random, back-to-back blocks for sequential),
 * at most R0_PREDICT_MAX_OFFSETS of them evenly spaced. Fills *OUT.
 * Each request is split by r0_geometry_split. 0, -EINVAL (block or align
 * 0 or not a multiple of 512, queue depth 0), -ERANGE (the geometry is too
 * small for one period), -ENOMEM.
 */
int r0_predict_split(const struct r0_geometry *g, const struct r0_predict_workload *w,
		     struct r0_predict_split *out);

struct r0_predict_opts {
	double layer_cost_ns;       /* per bio: each chunk a request touches */
	double cpu_max_iops;        /* 0: no CPU ceiling */
	double shared_cap_bytes_per_s;  /* 0: no shared limit; else at least R0_PREDICT_SHARED_CAP_MIN */
	/*
	 * The other reading of a drive that waits on its bandwidth at QD1 (its
	 * QD1 bytes/s at a part's size within R0_PREDICT_BW_BOUND of the best
	 * any depth reached there): when the members rest between their parts
	 * (each holds less than one request on average), a rested member serves
	 * a part in the drive's fastest time at QD1 (min_ns, interpolated over
	 * block sizes) and is held only to the best bytes/s of any depth. A
	 * token bucket does that (null_blk's mbps hands its budget out per
	 * 1/50 s tick, so a member that rested finds it full; so do cloud
	 * volumes' burst credits); a drive whose transfers take the time does
	 * not. One drive measured back to back cannot tell them apart:
	 * r0predict predicts both and says "not predicted" where they differ.
	 */
	bool rested;
};

/*
 * The smallest shared limit, bytes/s: 1 MB/s, slower than any link or
 * controller drives share (a cap near 0 made every latency infinite).
 */
#define R0_PREDICT_SHARED_CAP_MIN 1e6

/* QD1 bytes/s at least this share of the best at any depth: the drive waits on its bandwidth. */
#define R0_PREDICT_BW_BOUND 0.80

struct r0_predict_result {
	double iops, bytes_per_s, p50_ns;
	double mean_members, member_qd;     /* from the split */
	double grid_spread;                 /* the largest spread of the points used */
	/* "": the grid held every point it needed; else which it lacked (not predicted) */
	char missing[192];
	bool rests;                         /* members rest between their parts (member_qd < 1) */
	int limit;                          /* which bound set the figure: R0_PREDICT_LIMIT_* */
};

enum { R0_PREDICT_LIMIT_MEMBERS, R0_PREDICT_LIMIT_CPU, R0_PREDICT_LIMIT_SHARED };

/*
 * Predicts workload W on the array G from the single drive's curve C.
 * 0; -ENOENT when C has no point of a direction W needs; -EINVAL when O's
 * shared limit is neither 0 nor R0_PREDICT_SHARED_CAP_MIN or more, or its
 * CPU ceiling is below 0 or not finite; the errors of r0_predict_split.
 */
int r0_predict(const struct r0_geometry *g, const struct r0_predict_workload *w,
	       const struct r0_predict_curve *c, const struct r0_predict_opts *o,
	       struct r0_predict_result *out);

#endif
