// SPDX-License-Identifier: GPL-2.0-or-later
/* Replays a recorded block trace on a target with io_uring (r0/replay.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <liburing.h>

#include "r0/clock.h"
#include "r0/hist.h"
#include "r0/pattern.h"
#include "r0/replay.h"

#define STALL_NS_DEFAULT 60000000000ULL

static int push(struct r0_replay_trace *t, size_t *cap, const struct r0_replay_req *q)
{
	if (t->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4096;
		struct r0_replay_req *n = realloc(t->reqs, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->reqs = n;
		*cap = ncap;
	}
	t->reqs[t->n++] = *q;
	return 0;
}

/*
 * The submitter's queue depth: its requests from QUEUE until their last
 * piece completes. r0/tracemix.h counts a request-based disk's issued
 * pieces instead, and a 1 MiB write cut into 124K pieces would count as
 * 9 in flight, where its submitter had 1. A piece is found by its sector
 * inside a request's range (ISSUE and COMPLETE carry no length). One
 * whose completion the recorder lost leaves after QD_OVERTAKEN later
 * completions, as in r0/tracemix.h.
 */
#define QD_TRACK 4096
#define QD_OVERTAKEN 1024

struct qd_track {
	struct qd_flight {
		uint64_t start, end, completions_at;
		unsigned pieces;
		unsigned char op;
	} f[QD_TRACK];              /* oldest first */
	unsigned n, max;
	uint64_t completions;
};

static void qd_drop(struct qd_track *q, unsigned i)
{
	memmove(&q->f[i], &q->f[i + 1], (q->n - i - 1) * sizeof(q->f[0]));
	q->n--;
}

static void qd_add(struct qd_track *q, const struct r0_trace_event *ev)
{
	unsigned i;

	/* discards are not replayed: they take no part in its queue depth */
	if (ev->op == R0_TRACE_DISCARD)
		return;
	if (ev->kind == R0_TRACE_QUEUE) {
		if (q->n == QD_TRACK)
			qd_drop(q, 0);
		q->f[q->n++] = (struct qd_flight){ .start = ev->sector,
						  .end = ev->sector + (ev->bytes ? ev->bytes / 512 : 1),
						  .completions_at = q->completions, .op = (unsigned char)ev->op };
		if (q->n > q->max)
			q->max = q->n;
		return;
	}
	for (i = 0; i < q->n; i++)
		if (q->f[i].op == ev->op && ev->sector >= q->f[i].start && ev->sector < q->f[i].end)
			break;
	if (ev->kind == R0_TRACE_ISSUE) {
		if (i < q->n)
			q->f[i].pieces++;
		return;
	}
	q->completions++;
	/* a request ended unissued (refused) has no pieces: its completion ends it too */
	if (i < q->n && (!q->f[i].pieces || !--q->f[i].pieces))
		qd_drop(q, i);
	while (q->n && q->completions - q->f[0].completions_at > QD_OVERTAKEN)
		qd_drop(q, 0);
}

int r0_replay_load(const char *path, struct r0_replay_trace *t)
{
	return r0_replay_load_flags(path, 0, t);
}

/* A discard kept as requests of at most this (a mkfs's discard of a whole device is one) */
#define DISCARD_PIECE_BYTES (1ULL << 30)

static int push_discard(struct r0_replay_trace *t, size_t *cap, uint64_t t_us, uint64_t offset_bytes,
			uint64_t bytes)
{
	int err = 0;

	t->discards++;
	t->discard_bytes += bytes;
	do {
		uint64_t n = bytes < DISCARD_PIECE_BYTES ? bytes : DISCARD_PIECE_BYTES;
		const struct r0_replay_req q = { .t_us = t_us, .offset_bytes = offset_bytes,
						 .bytes = (uint32_t)n, .op = R0_TRACE_DISCARD };

		err = push(t, cap, &q);
		offset_bytes += n;
		bytes -= n;
	} while (!err && bytes);
	return err;
}

int r0_replay_load_flags(const char *path, unsigned flags, struct r0_replay_trace *t)
{
	struct r0_trace_reader *rd = NULL;
	struct qd_track *qd = NULL;
	struct r0_trace_event ev;
	uint64_t first_us = 0, last_us = 0;
	struct r0_trace_retry retry = { 0 };
	bool any = false;
	size_t cap = 0;
	int err;

	memset(t, 0, sizeof(*t));
	t->discards_kept = flags & R0_REPLAY_LOAD_DISCARDS;
	err = r0_trace_reader_open(path, &t->h, &rd);
	if (err) {
		r0_trace_open_fault(err, &t->fault);
		return err;
	}
	if (!(qd = calloc(1, sizeof(*qd)))) {
		err = -ENOMEM;
		goto out;
	}
	while ((err = r0_trace_read(rd, &ev)) == 0) {
		struct r0_replay_req q = { .op = (unsigned char)ev.op };

		if (t->h.flags)
			qd_add(qd, &ev);
		if (r0_trace_is_retry(&retry, t->h.flags, &ev)) {
			t->retried++;
			continue;
		}
		if (ev.kind != R0_TRACE_QUEUE)
			continue;
		if (ev.op == R0_TRACE_DISCARD && !t->discards_kept) {
			t->discards++;
			t->discard_bytes += ev.bytes;
			continue;
		}
		if (!any)
			first_us = ev.t_us;
		any = true;
		last_us = ev.t_us;
		if (ev.op == R0_TRACE_DISCARD) {
			if ((err = push_discard(t, &cap, ev.t_us - first_us, ev.sector * 512, ev.bytes)))
				goto out;
			continue;
		}
		if (ev.op != R0_TRACE_FLUSH) {
			/* r0_trace_read held it to R0_TRACE_REQUEST_MAX_BYTES: 32 bits hold it */
			q.offset_bytes = ev.sector * 512;
			q.bytes = (uint32_t)ev.bytes;
			if (q.bytes > t->max_request_bytes)
				t->max_request_bytes = q.bytes;
		}
		q.t_us = ev.t_us - first_us;
		if (ev.op == R0_TRACE_READ) {
			t->reads++;
			t->read_bytes += q.bytes;
		} else if (ev.op == R0_TRACE_WRITE) {
			t->writes++;
			t->write_bytes += q.bytes;
		} else {
			t->flushes++;
		}
		if ((err = push(t, &cap, &q)))
			goto out;
	}
	if (err == 1)
		err = 0;
	else
		r0_trace_reader_fault(rd, &t->fault);
	t->duration_us = last_us - first_us;
	t->max_in_flight = qd->max;
out:
	free(qd);
	r0_trace_reader_free(rd);
	return err;
}

int r0_replay_skip_parse(const char *s, unsigned *mask)
{
	static const struct { const char *name; unsigned bit; } kinds[] = {
		{ "reads", R0_REPLAY_SKIP_READS }, { "read", R0_REPLAY_SKIP_READS },
		{ "writes", R0_REPLAY_SKIP_WRITES }, { "write", R0_REPLAY_SKIP_WRITES },
		{ "flushes", R0_REPLAY_SKIP_FLUSHES }, { "flush", R0_REPLAY_SKIP_FLUSHES },
	};
	const char *p = s;

	*mask = 0;
	if (!*s)
		return -EINVAL;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (strlen(kinds[k].name) == n && !strncmp(p, kinds[k].name, n))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			return -EINVAL;
		*mask |= kinds[k].bit;
		p += n;
		if (*p == ',' && !*++p)
			return -EINVAL;
	}
	return 0;
}

uint64_t r0_replay_skip(struct r0_replay_trace *t, unsigned mask)
{
	size_t kept = 0;
	uint64_t left = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct r0_replay_req *q = &t->reqs[i];
		unsigned bit = q->op == R0_TRACE_READ ? R0_REPLAY_SKIP_READS :
			       q->op == R0_TRACE_WRITE ? R0_REPLAY_SKIP_WRITES :
			       q->op == R0_TRACE_FLUSH ? R0_REPLAY_SKIP_FLUSHES : 0;

		if (!(mask & bit)) {
			t->reqs[kept++] = *q;
			continue;
		}
		left++;
		if (q->op == R0_TRACE_READ) {
			t->reads--;
			t->read_bytes -= q->bytes;
		} else if (q->op == R0_TRACE_WRITE) {
			t->writes--;
			t->write_bytes -= q->bytes;
		} else {
			t->flushes--;
		}
	}
	t->n = kept;
	return left;
}

void r0_replay_trace_free(struct r0_replay_trace *t)
{
	if (!t)
		return;
	free(t->reqs);
	t->reqs = NULL;
	t->n = 0;
}

bool r0_replay_writes(const struct r0_replay_trace *t)
{
	return t->writes > 0 || (t->discards_kept && t->discards > 0);
}

int r0_replay_map(uint64_t offset_bytes, uint32_t bytes, uint64_t target_bytes, uint32_t lb_bytes,
		  uint64_t *out_offset, uint32_t *out_bytes)
{
	uint64_t mask = (uint64_t)lb_bytes - 1;
	uint64_t whole = target_bytes & ~mask;  /* O_DIRECT cannot reach a partial last block */
	uint64_t start = offset_bytes & ~mask;
	uint64_t len = ((offset_bytes + bytes + mask) & ~mask) - start;
	int what = 0;

	if (len > whole || len > UINT32_MAX)
		return -ERANGE;
	if (start != offset_bytes || len != bytes)
		what |= R0_REPLAY_RESIZED;
	if (start + len > whole) {
		start %= whole;   /* both multiples of the block: so is the remainder */
		if (start + len > whole)
			start = whole - len;
		what |= R0_REPLAY_WRAPPED;
	}
	*out_offset = start;
	*out_bytes = (uint32_t)len;
	return what;
}

struct slot {
	uint64_t issued_ns;
	size_t req;
	uint64_t offset_bytes;
	uint32_t bytes;
};

static void timespec_of(struct __kernel_timespec *ts, uint64_t ns)
{
	ts->tv_sec = (long long)(ns / 1000000000ULL);
	ts->tv_nsec = (long long)(ns % 1000000000ULL);
}

/*
 * One completion: its latency (LAT[0] all, [1] reads, [2] writes) and
 * counts; -EIO (R says where) for a failed or short one.
 */
static int reap_one(const struct r0_replay_trace *t, struct slot *s, int res, uint64_t done_ns,
		    struct r0_hist *lat, struct r0_replay_result *r)
{
	unsigned char op = t->reqs[s->req].op;

	if (res < 0 || (op != R0_TRACE_FLUSH && (uint32_t)res != s->bytes)) {
		r->error = res < 0 ? -res : EIO;
		r->error_offset_bytes = s->offset_bytes;
		return -EIO;
	}
	r->requests++;
	if (op == R0_TRACE_READ) {
		r->reads++;
		r->read_bytes += s->bytes;
	} else if (op == R0_TRACE_WRITE) {
		r->writes++;
		r->written_bytes += s->bytes;
	} else {
		r->flushes++;
		return 0;
	}
	r0_hist_add(&lat[0], done_ns - s->issued_ns);
	r0_hist_add(&lat[op == R0_TRACE_READ ? 1 : 2], done_ns - s->issued_ns);
	return 0;
}

/* How far behind DUE a request issued at ISSUED_NS went out: into R's worst and last. */
static uint64_t lag_of(struct r0_replay_result *r, uint64_t issued_ns, uint64_t due)
{
	uint64_t lag = issued_ns > due ? issued_ns - due : 0;

	if (lag > r->lag_max_ns)
		r->lag_max_ns = lag;
	r->lag_end_ns = lag;
	return lag;
}

/*
 * A discard, mapped as any request (one larger than the target discards
 * all of it), issued by this thread with nothing else in flight and
 * waited for: liburing 2.3 has no asynchronous discard. 0, or -EIO with
 * R saying where.
 */
static int replay_discard(const struct r0_replay_req *q, const struct r0_io_file *tg, uint32_t lb,
			  struct r0_replay_result *r)
{
	uint64_t off;
	uint32_t len;
	int m = r0_replay_map(q->offset_bytes, q->bytes, tg->size_bytes, lb, &off, &len), err;

	if (m == -ERANGE) {
		off = 0;
		len = (uint32_t)(tg->size_bytes & ~((uint64_t)lb - 1));
		m = R0_REPLAY_WRAPPED | R0_REPLAY_RESIZED;
	}
	r->wrapped += !!(m & R0_REPLAY_WRAPPED);
	r->resized += !!(m & R0_REPLAY_RESIZED);
	err = r0_io_file_discard(tg, off, len);
	if (err) {
		r->error = -err;
		r->error_offset_bytes = off;
		return -EIO;
	}
	r->requests++;
	r->discards++;
	r->discarded_bytes += len;
	return 0;
}

int r0_replay_run(const struct r0_replay_trace *t, const struct r0_io_file *tg,
		  const struct r0_replay_opts *o, struct r0_replay_result *r)
{
	struct io_uring ring;
	bool ring_up = false, stalled = false;
	void *rbuf = NULL, *wbuf = NULL;
	struct slot *slots = NULL;
	unsigned *free_slot = NULL, nfree, inflight = 0, qd;
	struct r0_hist *lat = NULL;
	uint32_t lb = tg->logical_block_bytes ? tg->logical_block_bytes : 512;
	uint64_t stall_ns = o->stall_ns ? o->stall_ns : STALL_NS_DEFAULT;
	uint64_t base_ns, first_ns = 0, last_done_ns = 0, progress_ns;
	long double lag_sum = 0;
	size_t next = 0, bufbytes;
	int err = 0;

	memset(r, 0, sizeof(*r));
	qd = o->queue_depth ? o->queue_depth : t->max_in_flight ? t->max_in_flight : R0_REPLAY_DEFAULT_QD;
	if (qd > R0_QD_MAX)
		qd = R0_QD_MAX;
	r->queue_depth = qd;
	r->recorded_ns = t->duration_us * 1000;
	r->discards_skipped = t->discards_kept ? 0 : t->discards;
	r->mapped = t->h.size_sectors * 512 > tg->size_bytes;
	if (r0_replay_writes(t) && !tg->writable)
		return -EROFS;
	/* a mapped request may grow by a logical block at each end */
	bufbytes = ((size_t)t->max_request_bytes + 2 * (size_t)lb + 4095) & ~(size_t)4095;
	/*
	 * One buffer for every read and one for every write: reads' data is
	 * thrown away, and a write buffer never read into can only ever carry
	 * the pattern, not data read from the device.
	 */
	if (posix_memalign(&rbuf, 4096, bufbytes) || posix_memalign(&wbuf, 4096, bufbytes)) {
		err = -ENOMEM;
		goto out;
	}
	r0_pattern_fill(wbuf, bufbytes, o->seed);
	slots = calloc(qd, sizeof(*slots));
	free_slot = calloc(qd, sizeof(*free_slot));
	lat = malloc(3 * sizeof(*lat));
	if (!slots || !free_slot || !lat) {
		err = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < 3; k++)
		r0_hist_reset(&lat[k]);
	for (nfree = 0; nfree < qd; nfree++)
		free_slot[nfree] = qd - 1 - nfree;
	if ((err = io_uring_queue_init(qd, &ring, 0)))
		goto out;
	ring_up = true;

	base_ns = progress_ns = r0_now_ns();
	/* after a failure nothing more is issued, but what is out is waited for: its buffers are in use */
	while ((!err && next < t->n) || inflight) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts;
		uint64_t now = r0_now_ns(), due = 0, wait_ns;
		unsigned submitted = 0, head, seen = 0;

		if (!err && o->stop && *o->stop)
			err = -EINTR;
		while (!err && next < t->n && inflight < qd) {
			const struct r0_replay_req *q = &t->reqs[next];
			struct io_uring_sqe *sqe;
			struct slot *s;
			unsigned i;
			int m = 0;

			if (o->pace) {
				due = base_ns + (o->time_scale > 0 && o->time_scale != 1
							 ? (uint64_t)((double)q->t_us * 1000.0 / o->time_scale)
							 : q->t_us * 1000);
				if ((now = r0_now_ns()) < due)
					break;
			}
			/*
			 * A discard waits until every request before it has
			 * completed: issued beside them it could overtake a
			 * write queued before it to the same blocks.
			 */
			if (q->op == R0_TRACE_DISCARD && inflight)
				break;
			if (q->op == R0_TRACE_DISCARD) {
				uint64_t at = r0_now_ns();

				if (!first_ns)
					first_ns = at;
				if (o->pace)
					lag_sum += lag_of(r, at, due);
				err = replay_discard(q, tg, lb, r);
				/* done when it returns: progress, and maybe the replay's last completion */
				last_done_ns = progress_ns = r0_now_ns();
				next++;
				continue;
			}
			i = free_slot[--nfree];
			s = &slots[i];
			s->req = next;
			s->offset_bytes = 0;
			s->bytes = 0;
			if (q->op != R0_TRACE_FLUSH &&
			    (m = r0_replay_map(q->offset_bytes, q->bytes, tg->size_bytes, lb,
					       &s->offset_bytes, &s->bytes)) < 0) {
				nfree++;
				err = m;
				break;
			}
			r->wrapped += !!(m & R0_REPLAY_WRAPPED);
			r->resized += !!(m & R0_REPLAY_RESIZED);
			sqe = io_uring_get_sqe(&ring);
			if (q->op == R0_TRACE_READ)
				io_uring_prep_read(sqe, tg->fd, rbuf, s->bytes, s->offset_bytes);
			else if (q->op == R0_TRACE_WRITE)
				io_uring_prep_write(sqe, tg->fd, wbuf, s->bytes, s->offset_bytes);
			else
				io_uring_prep_fsync(sqe, tg->fd, IORING_FSYNC_DATASYNC);
			io_uring_sqe_set_data64(sqe, i);
			s->issued_ns = r0_now_ns();
			if (!first_ns)
				first_ns = s->issued_ns;
			if (o->pace)
				lag_sum += lag_of(r, s->issued_ns, due);
			/* a stall is counted from here when nothing was out: a paced gap is not one */
			if (!inflight)
				progress_ns = s->issued_ns;
			next++;
			inflight++;
			submitted++;
		}
		if (submitted) {
			int ret = io_uring_submit(&ring);

			if (ret < 0) {
				/* nothing of this batch went out: put its slots back */
				inflight -= submitted;
				nfree += submitted;
				err = err ? err : ret;
				continue;
			}
		}
		if (!inflight) {
			if (!err && o->pace && next < t->n) {
				struct timespec at = { .tv_sec = (time_t)(due / 1000000000ULL),
						       .tv_nsec = (long)(due % 1000000000ULL) };

				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
			}
			continue;
		}
		/* wait for a completion, or in pace mode for the next request's time if a slot is free */
		now = r0_now_ns();
		wait_ns = stall_ns - (now - progress_ns < stall_ns ? now - progress_ns : stall_ns);
		if (!err && o->pace && next < t->n && inflight < qd && due > now && due - now < wait_ns)
			wait_ns = due - now;
		timespec_of(&ts, wait_ns ? wait_ns : 1);
		{
			int ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);

			if (ret == -ETIME || ret == -EINTR) {
				if (r0_now_ns() - progress_ns >= stall_ns) {
					stalled = true;
					err = err ? err : -ETIMEDOUT;
					break;
				}
				continue;
			}
			if (ret < 0) {
				err = err ? err : ret;
				stalled = true;   /* the ring cannot be waited on: leave its buffers be */
				break;
			}
		}
		last_done_ns = progress_ns = r0_now_ns();
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned i = (unsigned)io_uring_cqe_get_data64(cqe);
			int e = reap_one(t, &slots[i], cqe->res, last_done_ns, lat, r);

			if (e && !err)
				err = e;
			free_slot[nfree++] = i;
			inflight--;
			seen++;
		}
		io_uring_cq_advance(&ring, seen);
	}
	if (first_ns && last_done_ns > first_ns)
		r->wall_ns = last_done_ns - first_ns;
	if (r->wall_ns) {
		r->mib_s = (double)(r->read_bytes + r->written_bytes) / (1 << 20) / ((double)r->wall_ns / 1e9);
		r->iops = (double)r->requests / ((double)r->wall_ns / 1e9);
	}
	r->lat_p50_ns = r0_hist_percentile(lat, 50);
	r->lat_p99_ns = r0_hist_percentile(lat, 99);
	r->read_lat_p50_ns = r0_hist_percentile(&lat[1], 50);
	r->read_lat_p99_ns = r0_hist_percentile(&lat[1], 99);
	r->write_lat_p50_ns = r0_hist_percentile(&lat[2], 50);
	r->write_lat_p99_ns = r0_hist_percentile(&lat[2], 99);
	if (o->pace && next)
		r->lag_mean_ns = (double)(lag_sum / next);
out:
	if (ring_up)
		io_uring_queue_exit(&ring);
	/* a stalled request may still write into its buffer: those are left, not freed */
	if (!stalled) {
		free(rbuf);
		free(wbuf);
	}
	free(slots);
	free(free_slot);
	free(lat);
	return err;
}
