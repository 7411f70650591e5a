// SPDX-License-Identifier: GPL-2.0-or-later
/* The workload mix from series of block-device counters: pure arithmetic. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "r0/profile.h"

static const struct {
	const char *name, *human;
} pclass[R0_PC_N] = {
	[R0_PC_SEQ_READ] = { "seq-read", "sequential reads" },
	[R0_PC_SEQ_WRITE] = { "seq-write", "sequential writes" },
	[R0_PC_RAND_LARGE_READ] = { "rand-large-read", "large random reads" },
	[R0_PC_RAND_LARGE_WRITE] = { "rand-large-write", "large random writes" },
	[R0_PC_RAND_SMALL_Q1_READ] = { "rand-small-q1-read", "small reads at QD1" },
	[R0_PC_RAND_SMALL_Q1_WRITE] = { "rand-small-q1-write", "small writes at QD1" },
	[R0_PC_RAND_SMALL_QD_READ] = { "rand-small-qd-read", "small reads at high QD" },
	[R0_PC_RAND_SMALL_QD_WRITE] = { "rand-small-qd-write", "small writes at high QD" },
};

const char *r0_pclass_name(enum r0_pclass c)
{
	return (unsigned)c < R0_PC_N ? pclass[c].name : NULL;
}

const char *r0_pclass_human(enum r0_pclass c)
{
	return (unsigned)c < R0_PC_N ? pclass[c].human : NULL;
}

int r0_pclass_from_name(const char *name)
{
	for (int c = 0; c < R0_PC_N; c++)
		if (!strcasecmp(name, pclass[c].name))
			return c;
	return -EINVAL;
}

void r0_inflight_tally_add(struct r0_inflight_tally *t, uint64_t in_flight)
{
	t->hist[in_flight > 3 ? 3 : in_flight]++;
	t->busy_sum += in_flight;
}

const char *r0_confidence_level(double confidence)
{
	return confidence >= R0_CONFIDENCE_HIGH ? "high" : confidence >= R0_CONFIDENCE_MEDIUM ? "medium" : "low";
}

void r0_profile_init(struct r0_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->confidence_level = "low";
}

uint64_t r0_profile_bucket_bytes(unsigned i)
{
	return i + 1 >= R0_PROFILE_SIZE_BUCKETS ? UINT64_MAX : (uint64_t)4096 << i;
}

static unsigned bucket_of(double avg_bytes)
{
	unsigned i = 0;

	while (i + 1 < R0_PROFILE_SIZE_BUCKETS && avg_bytes > (double)r0_profile_bucket_bytes(i))
		i++;
	return i;
}

/* A cumulative counter went backwards: the device was re-created or a 32-bit counter wrapped. */
static bool went_back(const struct r0_blockstat *a, const struct r0_blockstat *b)
{
	return b->reads < a->reads || b->reads_merged < a->reads_merged ||
	       b->read_sectors < a->read_sectors || b->read_ticks_ms < a->read_ticks_ms ||
	       b->writes < a->writes || b->writes_merged < a->writes_merged ||
	       b->write_sectors < a->write_sectors || b->write_ticks_ms < a->write_ticks_ms ||
	       b->io_ticks_ms < a->io_ticks_ms || b->time_in_queue_ms < a->time_in_queue_ms ||
	       b->discards < a->discards || b->discard_sectors < a->discard_sectors;
}

/* One direction of one interval. */
struct dir_delta {
	uint64_t ops, merged, bytes;
	double busy_s;
	bool write;
};

static void add_dir(struct r0_profile *p, const struct dir_delta *d, double qd, bool mixed,
		    uint64_t max_request_bytes, bool cut_at_limit)
{
	double avg = (double)d->bytes / (double)d->ops;
	double merge_share = (double)d->merged / (double)(d->ops + d->merged);
	double limit_share = max_request_bytes ? avg / (double)max_request_bytes : 0;
	bool large = avg > R0_PROFILE_LARGE_BYTES;
	/* at the limit: user I/Os cut there; a stripe cuts at its chunk, however small */
	bool at_limit = (large || cut_at_limit) && limit_share >= R0_PROFILE_SEQ_LIMIT_SHARE;
	bool seq = merge_share >= R0_PROFILE_SEQ_MERGE_SHARE || avg >= R0_PROFILE_SEQ_BYTES || at_limit;
	enum r0_pclass c;
	bool clear;

	if (seq)
		c = R0_PC_SEQ_READ;
	else if (large)
		c = R0_PC_RAND_LARGE_READ;
	else
		c = qd <= R0_PROFILE_Q1_MAX ? R0_PC_RAND_SMALL_Q1_READ : R0_PC_RAND_SMALL_QD_READ;
	c += d->write;   /* every -write class follows its -read one */

	/* near a border, the per-interval averages could fall either way */
	clear = fabs(merge_share - R0_PROFILE_SEQ_MERGE_SHARE) > 0.1 &&
		(avg <= R0_PROFILE_LARGE_BYTES / 1.5 || avg > R0_PROFILE_LARGE_BYTES * 1.5) &&
		!(large && limit_share >= R0_PROFILE_SEQ_LIMIT_SHARE - 0.1 &&
		  limit_share < R0_PROFILE_SEQ_LIMIT_SHARE && avg < R0_PROFILE_SEQ_BYTES);
	/* small classes hinge on the queue depth, which reads and writes share */
	if (!large && !seq)
		clear = clear && !mixed && (qd <= 1.5 || qd >= 3);

	p->cls[c].busy_s += d->busy_s;
	p->cls[c].bytes += d->bytes;
	p->cls[c].ops += d->ops;
	p->cls[c].intervals++;
	p->cls[c].qd_busy_s += qd * d->busy_s;
	p->size_hist[d->write][bucket_of(avg)]++;
	/* a stream only by its whole-chunk pieces: large or chunk-sized random requests leave the same */
	if (seq && cut_at_limit && at_limit && merge_share < R0_PROFILE_SEQ_MERGE_SHARE && avg < R0_PROFILE_SEQ_BYTES)
		p->cut_busy_s[d->write] += d->busy_s;
	if (clear)
		p->clear_busy_s += d->busy_s;
}

int r0_profile_add_cut(struct r0_profile *p, const struct r0_profile_sample *prev,
		   const struct r0_profile_sample *cur, uint64_t max_request_bytes,
		       bool cut_at_limit)
{
	const struct r0_blockstat *a, *b;
	const struct r0_inflight_tally *sub;
	double dt, busy, ticks, tiq, qd, q1_frac, tr, tw;
	unsigned sub_busy;
	struct dir_delta rd, wr;

	if (!p || !prev || !cur)
		return -EINVAL;
	a = &prev->s;
	b = &cur->s;
	sub = &cur->sub;
	p->intervals++;
	if (cur->t_ns <= prev->t_ns || went_back(a, b)) {
		p->resets++;
		return 0;
	}
	if (!p->t_first_ns || prev->t_ns < p->t_first_ns)
		p->t_first_ns = prev->t_ns;
	if (cur->t_ns > p->t_last_ns)
		p->t_last_ns = cur->t_ns;
	p->seconds = (double)(p->t_last_ns - p->t_first_ns) / 1e9;
	if (sub->hist[0] + sub->hist[1] + sub->hist[2] + sub->hist[3])
		for (int i = 0; i < 4; i++)
			p->inflight_hist[i] += sub->hist[i];
	else
		p->inflight_hist[b->in_flight > 3 ? 3 : b->in_flight]++;

	rd = (struct dir_delta){ b->reads - a->reads, b->reads_merged - a->reads_merged,
				 (b->read_sectors - a->read_sectors) * 512, 0, false };
	wr = (struct dir_delta){ b->writes - a->writes, b->writes_merged - a->writes_merged,
				 (b->write_sectors - a->write_sectors) * 512, 0, true };
	p->reads += rd.ops;
	p->writes += wr.ops;
	p->reads_merged += rd.merged;
	p->writes_merged += wr.merged;
	p->read_bytes += rd.bytes;
	p->write_bytes += wr.bytes;
	p->discards += b->discards - a->discards;
	p->discard_bytes += (b->discard_sectors - a->discard_sectors) * 512;
	if (!rd.ops && !wr.ops)
		return 0;
	p->active++;

	dt = (double)(cur->t_ns - prev->t_ns) / 1e9;
	tr = (double)(b->read_ticks_ms - a->read_ticks_ms);
	tw = (double)(b->write_ticks_ms - a->write_ticks_ms);
	tiq = (double)(b->time_in_queue_ms - a->time_in_queue_ms) / 1e3;
	/* io_ticks counts jiffies: a short burst may show none, so fall back to
	 * the requests' own summed time, and to the counters' 1 ms resolution */
	ticks = (double)(b->io_ticks_ms - a->io_ticks_ms) / 1e3;
	busy = fmin(ticks > 0 ? ticks : fmax((tr + tw) / 1e3, 1e-3), dt);
	p->busy_ticks_s += ticks;
	sub_busy = sub->hist[1] + sub->hist[2] + sub->hist[3];
	if (sub_busy >= R0_PROFILE_MIN_BUSY_READS) {
		/* Little's law the other way round: busy = summed time in flight / mean in flight */
		qd = (double)sub->busy_sum / sub_busy;
		if (tiq > 0)
			busy = fmin(tiq / qd, dt);
		q1_frac = (double)(sub->hist[1] + sub->hist[2]) / sub_busy;
	} else {
		/* Little's law over the busy time: summed time in flight / busy time */
		qd = ticks > 0 ? tiq / ticks : 1;
		q1_frac = qd <= R0_PROFILE_Q1_MAX;
	}
	if (tr + tw > 0) {
		rd.busy_s = busy * tr / (tr + tw);
		wr.busy_s = busy * tw / (tr + tw);
	} else {
		rd.busy_s = busy * (double)rd.ops / (double)(rd.ops + wr.ops);
		wr.busy_s = busy - rd.busy_s;
	}
	p->busy_s += busy;
	p->busy_qd_s += qd * busy;
	p->busy_q1_s += q1_frac * busy;
	/* the minor direction matters for the shared queue depth above a fifth of the time */
	bool mixed = fmin(rd.busy_s, wr.busy_s) > 0.2 * busy;
	if (rd.ops)
		add_dir(p, &rd, qd, mixed, max_request_bytes, cut_at_limit);
	if (wr.ops)
		add_dir(p, &wr, qd, mixed, max_request_bytes, cut_at_limit);
	return 0;
}

static double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

void r0_profile_finish(struct r0_profile *p)
{
	double cls_busy = 0, coverage, clarity;

	p->read_share_bytes = share((double)p->read_bytes, (double)(p->read_bytes + p->write_bytes));
	p->read_share_ops = share((double)p->reads, (double)(p->reads + p->writes));
	p->discard_share_bytes = share((double)p->discard_bytes,
				       (double)(p->read_bytes + p->write_bytes + p->discard_bytes));
	p->avg_read_bytes = share((double)p->read_bytes, (double)p->reads);
	p->avg_write_bytes = share((double)p->write_bytes, (double)p->writes);
	p->q1_share = share(p->busy_q1_s, p->busy_s);
	p->mean_qd = share(p->busy_qd_s, p->busy_s);
	for (int c = 0; c < R0_PC_N; c++)
		cls_busy += p->cls[c].busy_s;
	for (int c = 0; c < R0_PC_N; c++)
		p->cls[c].weight = share(p->cls[c].busy_s, cls_busy);
	coverage = fmin(1, (double)p->active / R0_PROFILE_FULL_COVERAGE);
	clarity = share(p->clear_busy_s, p->busy_s);
	p->confidence = coverage * clarity;
	p->confidence_level = r0_confidence_level(p->confidence);
}

double r0_profile_cut_share(const struct r0_profile *p)
{
	return share(p->cut_busy_s[0] + p->cut_busy_s[1], p->busy_s);
}

static void format_period(double s, char *buf, size_t len)
{
	if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 2 * 3600)
		snprintf(buf, len, "%.0f min", s / 60);
	else if (s < 48 * 3600)
		snprintf(buf, len, "%.*f h", fmod(s / 3600, 1) < 0.05 ? 0 : 1, s / 3600);
	else
		snprintf(buf, len, "%.1f d", s / 86400);
}

int r0_mix_describe(const char *devices, double seconds, const double weight[R0_PC_N],
		    const char *confidence_level, char *buf, size_t len)
{
	int order[R0_PC_N], named = 0;
	double rest = 0;
	char period[32];
	size_t at;
	int n;

	for (int c = 0; c < R0_PC_N; c++)
		order[c] = c;
	/* by weight, largest first; ties in class order */
	for (int i = 1; i < R0_PC_N; i++)
		for (int j = i; j > 0 && weight[order[j]] > weight[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	format_period(seconds, period, sizeof(period));
	n = snprintf(buf, len, "the workload measured on %s over %s:", devices, period);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	at = (size_t)n;
	for (int i = 0; i < R0_PC_N; i++) {
		double w = weight[order[i]];

		if (named == 3 || w < 0.005) {
			rest += w;
			continue;
		}
		n = snprintf(buf + at, len - at, "%s %.0f %% %s", named ? "," : "", w * 100,
			     r0_pclass_human(order[i]));
		if (n < 0 || (size_t)n >= len - at)
			return -ENOSPC;
		at += (size_t)n;
		named++;
	}
	if (!named)
		n = snprintf(buf + at, len - at, " no reads or writes");
	else if (rest >= 0.005)
		n = snprintf(buf + at, len - at, ", %.0f %% other", rest * 100);
	else
		n = 0;
	if (n < 0 || (size_t)n >= len - at)
		return -ENOSPC;
	at += (size_t)n;
	if (confidence_level) {
		n = snprintf(buf + at, len - at, " (confidence %s)", confidence_level);
		if (n < 0 || (size_t)n >= len - at)
			return -ENOSPC;
	}
	return 0;
}

int r0_profile_add(struct r0_profile *p, const struct r0_profile_sample *prev,
		   const struct r0_profile_sample *cur, uint64_t max_request_bytes)
{
	return r0_profile_add_cut(p, prev, cur, max_request_bytes, false);
}
