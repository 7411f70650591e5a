// SPDX-License-Identifier: GPL-2.0-or-later
/* RAID0 from one drive's curve: see r0/predict.h for the model. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/size.h"
#include "r0/predict.h"
#include "r0/stats.h"
#include "grow.h"

int r0_predict_curve_add(struct r0_predict_curve *c, const struct r0_predict_point *p)
{
	if ((p->read_pct != 0 && p->read_pct != 100) || p->block_bytes == 0 ||
	    !(p->queue_depth > 0) || !(p->bytes_per_s > 0) || !(p->p50_ns > 0) || !(p->spread >= 0) ||
	    !(p->min_ns >= 0))
		return -EINVAL;
	if (r0_grow(&c->pts, &c->cap, c->n, sizeof(*c->pts), 16))
		return -ENOMEM;
	c->pts[c->n++] = *p;
	return 0;
}

void r0_predict_curve_free(struct r0_predict_curve *c)
{
	free(c->pts);
	memset(c, 0, sizeof(*c));
}

struct lookup {
	const struct r0_predict_curve *c;
	enum r0_access access;
	unsigned read_pct;
	double spread;             /* the largest of the points used so far */
	char *gap;                 /* NULL: no check; else the first point the grid lacks, said */
	size_t gap_len;
};

/*
 * How far the grid may be stretched: between measured block sizes or
 * depths at most this ratio apart (the predict preset's 4K, 16K, 64K and
 * QD 8, 32) or next to one of them (a 508K part of a 512K request), and
 * deeper than the deepest measured depth only where that
 * depth already held a megabyte in flight or QD 32 (the drive saturated).
 * Past that a figure is a guess: the cell is not predicted, naming the
 * point it would need.
 */
#define GRID_MAX_RATIO 4.0
#define GRID_NEAR_RATIO 1.25       /* a part this close to a measured size is that size */
#define GRID_SATURATED_BYTES (1u << 20)
#define GRID_SATURATED_QD 32

/* The first point the grid lacks, into L's gap (once). */
static void lacks(struct lookup *l, uint32_t block, double qd, const char *what)
{
	char b[24];

	if (!l->gap || l->gap[0])
		return;
	if (block >= (1u << 20) && block % (1u << 20) == 0)
		snprintf(b, sizeof(b), "%uM", block >> 20);
	else
		snprintf(b, sizeof(b), "%uK", block >> 10);
	snprintf(l->gap, l->gap_len, "it needs the drive at %s QD %.3g, and %s (measure the drive with "
		 "r0bench --preset predict)", b, qd, what);
}

/* The point at exactly (block, qd), of the workload's access if there is one. */
static const struct r0_predict_point *point_at(const struct lookup *l, uint32_t block, double qd)
{
	const struct r0_predict_point *other = NULL;

	for (size_t i = 0; i < l->c->n; i++) {
		const struct r0_predict_point *p = &l->c->pts[i];

		if (p->read_pct != l->read_pct || p->block_bytes != block || p->queue_depth != qd)
			continue;
		if (p->access == l->access)
			return p;
		if (!other)
			other = p;
	}
	return other;
}

/* Closest measured value below (or at) X and above (or at) it; BLOCK 0: blocks, else depths at BLOCK. */
static void bracket(const struct lookup *l, uint32_t block, double x, double *lo, double *hi)
{
	*lo = -1;
	*hi = -1;
	for (size_t i = 0; i < l->c->n; i++) {
		const struct r0_predict_point *p = &l->c->pts[i];
		double v;

		if (p->read_pct != l->read_pct || (block && p->block_bytes != block))
			continue;
		v = block ? p->queue_depth : (double)p->block_bytes;
		if (v <= x && v > *lo)
			*lo = v;
		if (v >= x && (*hi < 0 || v < *hi))
			*hi = v;
	}
}

static double lerp_log(double x, double x0, double x1, double y0, double y1)
{
	double t;

	if (x1 == x0)
		return y0;
	t = (log(x) - log(x0)) / (log(x1) - log(x0));
	return exp(log(y0) + t * (log(y1) - log(y0)));
}

/* The drive at a measured block size, any depth. */
static void at_block(struct lookup *l, uint32_t block, double qd, double *bps, double *p50)
{
	const struct r0_predict_point *a, *b = NULL;
	double q0, q1;

	bracket(l, block, qd, &q0, &q1);
	if (q0 >= 0 && q1 >= 0 && q1 / q0 > GRID_MAX_RATIO && qd / q0 > GRID_NEAR_RATIO &&
	    q1 / qd > GRID_NEAR_RATIO) {
		char what[96];

		snprintf(what, sizeof(what), "the input measured QD %.3g and %.3g only there", q0, q1);
		lacks(l, block, qd, what);
	} else if (q1 < 0 && q0 >= 0 && q0 < GRID_SATURATED_QD && block * q0 < GRID_SATURATED_BYTES) {
		char what[96];

		snprintf(what, sizeof(what), "the deepest measured there is QD %.3g", q0);
		lacks(l, block, qd, what);
	}
	if (q0 < 0) {              /* shallower than measured: the drive idles part of the time */
		a = point_at(l, block, q1);
		*bps = a->bytes_per_s * qd / q1;
		*p50 = a->p50_ns;
	} else if (q1 < 0) {       /* deeper: saturated, the extra requests wait */
		a = point_at(l, block, q0);
		*bps = a->bytes_per_s;
		*p50 = a->p50_ns * qd / q0;
	} else {
		a = point_at(l, block, q0);
		b = point_at(l, block, q1);
		*bps = lerp_log(qd, q0, q1, a->bytes_per_s, b->bytes_per_s);
		*p50 = lerp_log(qd, q0, q1, a->p50_ns, b->p50_ns);
	}
	l->spread = fmax(l->spread, fmax(a->spread, b ? b->spread : 0));
	/*
	 * More requests in flight do not slow a drive down; a grid that says so
	 * measured a queue longer than its pass (1M at QD32 on an 8 MiB/s drive
	 * is 4 s of work for a 1 s pass: 2.1 MB/s there, 7.3 at QD2), so the
	 * best of the shallower points stands.
	 */
	for (size_t i = 0; i < l->c->n; i++) {
		const struct r0_predict_point *p = &l->c->pts[i];

		if (p->read_pct == l->read_pct && p->block_bytes == block && p->queue_depth <= qd &&
		    p->bytes_per_s > *bps)
			*bps = p->bytes_per_s;
	}
}

/* r0_predict_curve_at, and the largest spread of the points it used into *SPREAD. */
static int curve_at(const struct r0_predict_curve *c, enum r0_access access, unsigned read_pct,
		    uint32_t block_bytes, double qd, double *bytes_per_s, double *p50_ns,
		    double *spread, char *gap, size_t gap_len)
{
	struct lookup l = { c, access, read_pct, 0, gap, gap_len };
	double b0, b1, bps0, bps1, p0, p1;

	if (block_bytes == 0 || !(qd > 0))
		return -EINVAL;
	bracket(&l, 0, block_bytes, &b0, &b1);
	if (b0 < 0 && b1 < 0)
		return -ENOENT;
	if (b0 >= 0 && b1 >= 0 && b1 / b0 > GRID_MAX_RATIO && block_bytes / b0 > GRID_NEAR_RATIO &&
	    b1 / block_bytes > GRID_NEAR_RATIO) {
		char what[96];

		snprintf(what, sizeof(what), "the input measured %.0fK and %.0fK only", b0 / 1024, b1 / 1024);
		lacks(&l, block_bytes, qd, what);
	} else if ((b0 < 0 && b1 / block_bytes > GRID_MAX_RATIO) ||
		   (b1 < 0 && block_bytes / b0 > GRID_MAX_RATIO)) {
		char what[96];

		snprintf(what, sizeof(what), "the input measured from %.0fK to %.0fK only",
			 (b0 < 0 ? b1 : b0) / 1024, (b0 < 0 ? b1 : b0) / 1024);
		lacks(&l, block_bytes, qd, what);
	}
	if (b0 < 0) {              /* smaller than measured: as many IOPS, the same latency */
		at_block(&l, (uint32_t)b1, qd, &bps1, &p1);
		*bytes_per_s = bps1 * block_bytes / b1;
		*p50_ns = p1;
	} else if (b1 < 0) {       /* larger: as many bytes/s, each request takes longer */
		at_block(&l, (uint32_t)b0, qd, &bps0, &p0);
		*bytes_per_s = bps0;
		*p50_ns = p0 * block_bytes / b0;
	} else {
		at_block(&l, (uint32_t)b0, qd, &bps0, &p0);
		at_block(&l, (uint32_t)b1, qd, &bps1, &p1);
		*bytes_per_s = lerp_log(block_bytes, b0, b1, bps0, bps1);
		*p50_ns = lerp_log(block_bytes, b0, b1, p0, p1);
	}
	*spread = l.spread;
	return 0;
}

int r0_predict_curve_at(const struct r0_predict_curve *c, enum r0_access access,
			unsigned read_pct, uint32_t block_bytes, double qd, double *bytes_per_s,
			double *p50_ns)
{
	double spread;

	return curve_at(c, access, read_pct, block_bytes, qd, bytes_per_s, p50_ns, &spread, NULL, 0);
}

/*
 * The drive's fastest request at QD1 at BLOCK_BYTES into *MIN_NS (log-log
 * between measured blocks; outside them as curve_at takes the p50):
 * -ENOENT when a point it needs has none.
 */
static int fastest_at(const struct r0_predict_curve *c, enum r0_access access, unsigned read_pct,
		      uint32_t block_bytes, double *min_ns)
{
	struct lookup l = { c, access, read_pct, 0, NULL, 0 };
	const struct r0_predict_point *a, *b;
	double b0, b1;

	bracket(&l, 0, block_bytes, &b0, &b1);
	a = point_at(&l, (uint32_t)(b0 < 0 ? b1 : b0), 1);
	b = point_at(&l, (uint32_t)(b1 < 0 ? b0 : b1), 1);
	if (!a || !b || !(a->min_ns > 0) || !(b->min_ns > 0))
		return -ENOENT;
	if (b0 < 0)
		*min_ns = b->min_ns;
	else if (b1 < 0)
		*min_ns = a->min_ns * block_bytes / b0;
	else
		*min_ns = lerp_log(block_bytes, b0, b1, a->min_ns, b->min_ns);
	return 0;
}

/* --- the splitter ------------------------------------------------------ */

typedef int request_fn(void *ctx, uint64_t start_sector, const struct r0_extent *ext, size_t n);

/*
 * Calls FN with the parts of each sampled request. With equal members the
 * mapping repeats every n chunks, so one period's offsets are all there is.
 */
static int for_each_request(const struct r0_geometry *g, const struct r0_predict_workload *w,
			    request_fn *fn, void *ctx, size_t *n_offsets)
{
	uint64_t step, period, k_total, n;
	int err = 0;

	if (!w->block_bytes || w->block_bytes % 512 || w->align_bytes % 512 || !w->queue_depth)
		return -EINVAL;
	step = w->access == R0_ACCESS_SEQ || !w->align_bytes ? w->block_bytes : w->align_bytes;
	period = (uint64_t)g->chunk_sectors * 512 * g->zones[0].n_members;
	k_total = period / r0_gcd_u64(step, period);
	n = k_total < R0_PREDICT_MAX_OFFSETS ? k_total : R0_PREDICT_MAX_OFFSETS;
	for (uint64_t i = 0; i < n && !err; i++) {
		uint64_t k = i * k_total / n, start = k * step % period;
		struct r0_extent *ext = NULL;
		size_t cnt = 0;

		err = r0_geometry_split(g, start / 512, w->block_bytes / 512, &ext, &cnt);
		if (!err)
			err = fn(ctx, start / 512, ext, cnt);
		free(ext);
	}
	*n_offsets = n;
	return err;
}

static int add_split(void *ctx, uint64_t start, const struct r0_extent *ext, size_t n)
{
	struct r0_predict_split *s = ctx;

	(void)start;
	s->mean_members += n;
	for (size_t i = 0; i < n; i++) {
		uint64_t bytes = ext[i].n_sectors * 512;
		unsigned h;

		s->member_bytes[ext[i].member] += bytes;
		s->member_parts[ext[i].member] += 1;
		for (h = 0; h < s->n_part_sizes && s->part_hist_bytes[h] != bytes; h++)
			;
		if (h == s->n_part_sizes && h < 8)
			s->part_hist_bytes[s->n_part_sizes++] = bytes;
		if (h < 8)
			s->part_hist_share[h] += 1;
	}
	return 0;
}

int r0_predict_split(const struct r0_geometry *g, const struct r0_predict_workload *w,
		     struct r0_predict_split *out)
{
	struct r0_predict_split s = { 0 };
	double parts;
	int err = for_each_request(g, w, add_split, &s, &s.n_offsets);

	if (err)
		return err;
	parts = s.mean_members;
	s.mean_members /= s.n_offsets;
	for (unsigned m = 0; m < g->n_members; m++) {
		s.member_bytes[m] /= s.n_offsets;
		s.member_parts[m] /= s.n_offsets;
	}
	for (unsigned h = 0; h < s.n_part_sizes; h++)
		s.part_hist_share[h] /= parts;
	s.member_qd = w->queue_depth * s.mean_members / g->n_members;
	*out = s;
	return 0;
}

/* --- the model --------------------------------------------------------- */

struct model {
	const struct r0_geometry *g;
	const struct r0_predict_curve *c;
	const struct r0_predict_workload *w;
	double qd;                 /* each member's depth, at least 1 */
	bool rested;               /* members rest between parts, read as opts.rested says */
	double layer_ns;           /* per bio */
	uint32_t chunk_sectors;
	double sum_lat_ns;         /* of each request when nothing queues, summed */
	double busy_ns[R0_MAX_MEMBERS];   /* each member's time at its sustained rate, summed */
	double *p50s;              /* the slowest part's p50 at the members' depth, per request */
	size_t n;
	double spread;             /* the largest spread of the grid points used */
	char *missing;             /* the first grid point it needed and lacked ("" none) */
	size_t missing_len;
};

/*
 * A part of BYTES on one member, blended for a mix: *REST_NS its p50 on a
 * drive with nothing queued, *BUSY_NS the drive's time for it at its
 * sustained rate at the member's depth, *P50_NS its p50 at that depth.
 */
static int part_time(struct model *m, uint32_t bytes, double *rest_ns, double *busy_ns,
		     double *p50_ns)
{
	double share[2] = { m->w->read_pct / 100.0, 1 - m->w->read_pct / 100.0 };
	unsigned pct[2] = { 100, 0 };

	*rest_ns = *busy_ns = *p50_ns = 0;
	for (int d = 0; d < 2; d++) {
		double bps, bq, p50, p, best, fast, rest, busy, s1 = 0, sq = 0, sb;
		int err;

		if (share[d] == 0)
			continue;
		/* Little's law at depth 1: the mean time a part takes, not its p50
		 * (a drive whose completions have a tail serves fewer a second) */
		err = curve_at(m->c, m->w->access, pct[d], bytes, 1, &bps, &p50, &s1, m->missing,
			       m->missing_len);
		if (!err)
			err = curve_at(m->c, m->w->access, pct[d], bytes, m->qd, &bq, &p50, &sq, m->missing,
				       m->missing_len);
		if (err)
			return err;
		m->spread = fmax(m->spread, fmax(s1, sq));
		rest = bytes / bps * 1e9;
		busy = bytes / bq * 1e9;
		/* deeper than any point: the best bytes/s any depth reached at this size */
		if (m->rested && !curve_at(m->c, m->w->access, pct[d], bytes, 1e9, &best, &p, &sb, NULL, 0) &&
		    bps >= R0_PREDICT_BW_BOUND * best &&
		    !fastest_at(m->c, m->w->access, pct[d], bytes, &fast)) {
			rest = fmin(rest, fast);
			busy = fmin(busy, bytes / best * 1e9);
		}
		*rest_ns += share[d] * rest;
		*busy_ns += share[d] * busy;
		*p50_ns += share[d] * p50;
	}
	return 0;
}

/* The end of the chunk X is in, or END if sooner. */
static uint64_t chunk_end(uint64_t x, uint64_t end, uint64_t cs)
{
	return end < (x / cs + 1) * cs ? end : (x / cs + 1) * cs;
}

/* Requests [START, END) is cut into: one bio a chunk, each cut at MAX_REQ. */
static size_t pieces(uint64_t start, uint64_t end, uint64_t cs, uint32_t max_req)
{
	size_t k = 0;

	for (uint64_t x = start; x < end; x = chunk_end(x, end, cs))
		k += (size_t)((chunk_end(x, end, cs) - x) * 512 + max_req - 1) / max_req;
	return k;
}

/*
 * When the request [START, END) ends, its parts taking REST_NS (by member)
 * on an idle member: the submitting thread hands out the chunks in order,
 * one request of at most max_request_bytes at a time, and waits for a tag
 * where the member has all its tags out; each request on a member takes
 * that member's part time over its requests in the part. Or -ERANGE (a
 * sector the geometry does not map), -ENOMEM.
 */
static double submitted_end_ns(const struct model *m, uint64_t start, uint64_t end,
			       const double *rest_ns)
{
	uint64_t cs = m->chunk_sectors, ms;
	uint32_t max_req = m->c->max_request_bytes;
	size_t cap = pieces(start, end, cs, max_req), n[R0_MAX_MEMBERS] = { 0 };
	double *done[R0_MAX_MEMBERS] = { NULL }, per[R0_MAX_MEMBERS] = { 0 }, t = 0, last = 0;
	unsigned mem, tags = m->c->tags;

	for (uint64_t x = start; x < end; x = chunk_end(x, end, cs)) {
		if (r0_geometry_map(m->g, x, &mem, &ms))
			return -ERANGE;
		per[mem] += (double)pieces(x, chunk_end(x, end, cs), cs, max_req);
	}
	for (uint64_t x = start; x < end && last >= 0; x = chunk_end(x, end, cs)) {
		r0_geometry_map(m->g, x, &mem, &ms);
		if (!done[mem] && !(done[mem] = malloc(cap * sizeof(double)))) {
			last = -ENOMEM;
			break;
		}
		for (size_t k = pieces(x, chunk_end(x, end, cs), cs, max_req); k > 0; k--) {
			size_t j = n[mem]++;
			double begin;

			if (j >= tags && done[mem][j - tags] > t)
				t = done[mem][j - tags];   /* no tag free: wait for one */
			begin = j && done[mem][j - 1] > t ? done[mem][j - 1] : t;
			done[mem][j] = begin + rest_ns[mem] / per[mem];
			last = fmax(last, done[mem][j]);
		}
	}
	for (unsigned i = 0; i < R0_MAX_MEMBERS; i++)
		free(done[i]);
	return last;
}

static int add_request(void *ctx, uint64_t start, const struct r0_extent *ext, size_t n)
{
	struct model *m = ctx;
	uint64_t end = start + m->w->block_bytes / 512, cs = m->chunk_sectors;
	double worst_rest = 0, worst_p = 0, rest_ns[R0_MAX_MEMBERS] = { 0 };

	for (size_t i = 0; i < n; i++) {
		double rest, busy, p;
		int err = part_time(m, (uint32_t)(ext[i].n_sectors * 512), &rest, &busy, &p);

		if (err)
			return err;
		m->busy_ns[ext[i].member] += busy;
		rest_ns[ext[i].member] += rest;
		if (rest > worst_rest)
			worst_rest = rest;
		if (p > worst_p)
			worst_p = p;
	}
	/* a part of more requests than its member has tags holds the next parts back */
	if (m->c->tags && m->c->max_request_bytes && n > 1) {
		double queued = submitted_end_ns(m, start, end, rest_ns);

		if (queued < 0)
			return (int)queued;
		worst_rest = fmax(worst_rest, queued);
	}
	/* md and dm send one bio per chunk the request touches */
	worst_rest += m->layer_ns * (double)((end - 1) / cs - start / cs + 1);
	m->sum_lat_ns += worst_rest;
	m->p50s[m->n++] = worst_p + m->layer_ns * (double)((end - 1) / cs - start / cs + 1);
	return 0;
}

int r0_predict(const struct r0_geometry *g, const struct r0_predict_workload *w,
	       const struct r0_predict_curve *c, const struct r0_predict_opts *o,
	       struct r0_predict_result *out)
{
	struct r0_predict_split s;
	struct model m = { .g = g, .c = c, .w = w, .layer_ns = o->layer_cost_ns,
			   .chunk_sectors = g->chunk_sectors, .missing = out->missing,
			   .missing_len = sizeof(out->missing) };
	size_t n_offsets;
	double iops, free_iops, busiest = 0, p50;
	int err;

	/* a cap near 0 (or a NaN) would make every latency infinite, or negative once made an integer */
	if (!(o->shared_cap_bytes_per_s == 0 ||
	      (o->shared_cap_bytes_per_s >= R0_PREDICT_SHARED_CAP_MIN && isfinite(o->shared_cap_bytes_per_s))) ||
	    !(o->cpu_max_iops >= 0 && isfinite(o->cpu_max_iops)))
		return -EINVAL;
	err = r0_predict_split(g, w, &s);
	if (err)
		return err;
	out->missing[0] = '\0';
	m.qd = s.member_qd > 1 ? s.member_qd : 1;
	m.rested = o->rested && s.member_qd < 1;
	m.p50s = malloc(s.n_offsets * sizeof(*m.p50s));
	if (!m.p50s)
		return -ENOMEM;
	err = for_each_request(g, w, add_request, &m, &n_offsets);
	if (err)
		goto out;
	r0_sort_doubles(m.p50s, m.n);
	p50 = r0_median_sorted(m.p50s, m.n);
	for (unsigned i = 0; i < g->n_members; i++)
		if (m.busy_ns[i] > busiest)
			busiest = m.busy_ns[i];
	/* the depth kept in flight with nothing waiting, or the busiest member's rate */
	iops = w->queue_depth / (m.sum_lat_ns / m.n / 1e9);
	if (m.n / (busiest / 1e9) < iops)
		iops = m.n / (busiest / 1e9);
	free_iops = iops;
	out->limit = R0_PREDICT_LIMIT_MEMBERS;
	if (o->cpu_max_iops > 0 && iops > o->cpu_max_iops) {
		iops = o->cpu_max_iops;
		out->limit = R0_PREDICT_LIMIT_CPU;
	}
	if (o->shared_cap_bytes_per_s > 0 && iops * w->block_bytes > o->shared_cap_bytes_per_s) {
		iops = o->shared_cap_bytes_per_s / w->block_bytes;
		out->limit = R0_PREDICT_LIMIT_SHARED;
	}
	out->iops = iops;
	out->bytes_per_s = iops * w->block_bytes;
	out->p50_ns = p50 * free_iops / iops;   /* a capped queue waits longer, Little's law */
	out->mean_members = s.mean_members;
	out->member_qd = s.member_qd;
	out->grid_spread = m.spread;
	out->rests = s.member_qd < 1;
out:
	free(m.p50s);
	return err;
}
