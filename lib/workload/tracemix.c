// SPDX-License-Identifier: GPL-2.0-or-later
/* The workload mix of a block trace: every request classed exactly (r0/tracemix.h). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "r0/tracemix.h"

#define OTHER R0_PC_N   /* discards and flushes: busy time, no class */

void r0_tracemix_init(struct r0_tracemix *m, const struct r0_trace_header *h, struct r0_profile *p)
{
	memset(m, 0, sizeof(*m));
	r0_profile_init(p);
	m->p = p;
	m->flags = h->flags;
	m->qd_from_trace = h->flags & (R0_TRACE_QD_QUEUE | R0_TRACE_QD_ISSUE);
	memset(m->last_queued, OTHER, sizeof(m->last_queued));
}

static void fly(struct r0_tracemix *m, uint64_t start, uint64_t end, unsigned op, unsigned cls)
{
	if (m->n_flight == R0_TRACEMIX_IN_FLIGHT)
		return;   /* deeper than remembered */
	m->flight[m->n_flight++] = (struct r0_tracemix_flight){ start, end, m->completions, (unsigned char)op,
								 (unsigned char)cls };
	m->cls_in_flight[cls]++;
}

static void land(struct r0_tracemix *m, unsigned i)
{
	m->cls_in_flight[m->flight[i].cls]--;
	m->flight[i] = m->flight[--m->n_flight];
}

/*
 * The request EV completes: the one of its operation starting at its
 * sector, else the one holding it (a split bio completing at a piece),
 * else the oldest flush. A completion of nothing in flight (queued before
 * the trace began) is not counted.
 */
static void complete(struct r0_tracemix *m, const struct r0_trace_event *ev)
{
	unsigned hit = m->n_flight;

	for (unsigned i = 0; i < m->n_flight && hit == m->n_flight; i++)
		if (m->flight[i].op == ev->op && (ev->op == R0_TRACE_FLUSH || m->flight[i].start == ev->sector))
			hit = i;
	for (unsigned i = 0; i < m->n_flight && hit == m->n_flight; i++)
		if (m->flight[i].op == ev->op && m->flight[i].start <= ev->sector && ev->sector < m->flight[i].end)
			hit = i;
	if (hit == m->n_flight)
		return;
	land(m, hit);
	m->completions++;
	/* every so often: those overtaken by many completions lost their own */
	if (m->completions % 256 == 0)
		for (unsigned i = 0; i < m->n_flight;) {
			if (m->completions - m->flight[i].completions > R0_TRACEMIX_OVERTAKEN) {
				land(m, i);
				m->lost++;
			} else {
				i++;
			}
		}
}

/* The time since the last event: busy while anything was in flight, split over the classes in flight. */
static void account(struct r0_tracemix *m, uint64_t t_us)
{
	struct r0_profile *p = m->p;
	double dt = (double)(t_us - m->last_t_us) / 1e6;

	if (!m->n_flight || dt <= 0)
		return;
	p->busy_s += dt;
	p->clear_busy_s += dt;
	p->busy_qd_s += (double)m->n_flight * dt;
	if (m->n_flight <= R0_PROFILE_Q1_MAX)
		p->busy_q1_s += dt;
	for (int c = 0; c < R0_PC_N; c++)
		if (m->cls_in_flight[c]) {
			double part = dt * m->cls_in_flight[c] / m->n_flight;

			p->cls[c].busy_s += part;
			p->cls[c].qd_busy_s += (double)m->n_flight * part;
		}
}

/* Starts at the end of a recent request of its direction. */
static bool continues(const struct r0_tracemix *m, unsigned dir, uint64_t sector)
{
	for (unsigned i = 0; i < m->n_recent[dir]; i++)
		if (m->recent[dir][i].end == sector)
			return true;
	return false;
}

/* R, queued before the request it continues, is sequential after all: moved there, in flight too. */
static void reclass(struct r0_tracemix *m, struct r0_tracemix_recent *r, unsigned seq_cls)
{
	struct r0_profile *p = m->p;

	p->cls[r->cls].bytes -= r->bytes;
	p->cls[r->cls].ops--;
	p->cls[seq_cls].bytes += r->bytes;
	p->cls[seq_cls].ops++;
	for (unsigned i = 0; i < m->n_flight; i++)
		if (m->flight[i].cls == r->cls && m->flight[i].start == r->start) {
			m->flight[i].cls = (unsigned char)seq_cls;
			m->cls_in_flight[r->cls]--;
			m->cls_in_flight[seq_cls]++;
			break;
		}
	r->cls = (unsigned char)seq_cls;
}

/* Remembers a request of DIR; the recent ones it precedes are sequential. */
static void remember(struct r0_tracemix *m, unsigned dir, const struct r0_trace_event *ev, unsigned cls)
{
	uint64_t end = ev->sector + ev->bytes / 512;
	unsigned seq_cls = R0_PC_SEQ_READ + dir;

	for (unsigned i = 0; i < m->n_recent[dir]; i++)
		if (m->recent[dir][i].start == end && m->recent[dir][i].cls != seq_cls)
			reclass(m, &m->recent[dir][i], seq_cls);
	m->recent[dir][m->next_recent[dir]] = (struct r0_tracemix_recent){ ev->sector, end, ev->bytes,
									   (unsigned char)cls };
	m->next_recent[dir] = (m->next_recent[dir] + 1) % R0_TRACEMIX_STREAMS;
	if (m->n_recent[dir] < R0_TRACEMIX_STREAMS)
		m->n_recent[dir]++;
}

static unsigned bucket(uint64_t bytes)
{
	unsigned i = 0;

	while (i + 1 < R0_PROFILE_SIZE_BUCKETS && bytes > r0_profile_bucket_bytes(i))
		i++;
	return i;
}

static void queued(struct r0_tracemix *m, const struct r0_trace_event *ev)
{
	struct r0_profile *p = m->p;
	unsigned dir = ev->op == R0_TRACE_WRITE, cls = OTHER;
	/* the request counts itself: alone in flight is QD1 */
	uint64_t qd = (uint64_t)m->n_flight + 1;

	if (ev->op == R0_TRACE_DISCARD) {
		p->discards++;
		p->discard_bytes += ev->bytes;
	} else if (ev->op != R0_TRACE_FLUSH) {
		bool seq = continues(m, dir, ev->sector);

		if (seq)
			cls = R0_PC_SEQ_READ;
		else if (ev->bytes > R0_PROFILE_LARGE_BYTES)
			cls = R0_PC_RAND_LARGE_READ;
		else
			cls = qd <= R0_PROFILE_Q1_MAX ? R0_PC_RAND_SMALL_Q1_READ : R0_PC_RAND_SMALL_QD_READ;
		cls += dir;   /* every -write class follows its -read one */
		p->cls[cls].bytes += ev->bytes;
		p->cls[cls].ops++;
		p->size_hist[dir][bucket(ev->bytes)]++;
		p->inflight_hist[qd > 3 ? 3 : qd]++;
		if (dir) {
			p->writes++;
			p->write_bytes += ev->bytes;
		} else {
			p->reads++;
			p->read_bytes += ev->bytes;
		}
	}
	if (m->flags & R0_TRACE_QD_QUEUE)
		fly(m, ev->sector, ev->sector + (ev->bytes ? ev->bytes / 512 : 1), ev->op, cls);
	if (cls != OTHER)
		remember(m, dir, ev, cls);
	m->last_queued[ev->op] = (unsigned char)cls;
}

/* An issued request's class: that of the queued one it starts with, else the last queued. */
static unsigned issued_class(const struct r0_tracemix *m, const struct r0_trace_event *ev)
{
	unsigned dir = ev->op == R0_TRACE_WRITE;

	if (ev->op == R0_TRACE_READ || ev->op == R0_TRACE_WRITE)
		for (unsigned i = 0; i < m->n_recent[dir]; i++)
			if (m->recent[dir][i].start == ev->sector)
				return m->recent[dir][i].cls;
	return m->last_queued[ev->op];
}

int r0_tracemix_add(struct r0_tracemix *m, const struct r0_trace_event *ev)
{
	struct r0_profile *p = m->p;
	uint64_t second;

	if (m->any && ev->t_us < m->last_t_us)
		return -EINVAL;
	if (!m->any) {
		m->first_t_us = m->last_t_us = m->last_second = ev->t_us;
		m->any = true;
		p->intervals = 1;
	}
	account(m, ev->t_us);
	m->last_t_us = ev->t_us;
	m->events++;
	if (r0_trace_is_retry(&m->retry, m->flags, ev)) {
		m->retried++;   /* the submitter asked once */
		return 0;
	}
	switch (ev->kind) {
	case R0_TRACE_QUEUE:
		/* one second with requests is an active "interval", for the coverage */
		second = ev->t_us / 1000000;
		if (!p->active || second != m->last_second)
			p->active++;
		m->last_second = second;
		queued(m, ev);
		break;
	case R0_TRACE_ISSUE:
		if (m->flags & R0_TRACE_QD_ISSUE)
			fly(m, ev->sector, ev->sector + 1, ev->op, issued_class(m, ev));
		break;
	case R0_TRACE_COMPLETE:
		if (m->qd_from_trace)
			complete(m, ev);
		break;
	}
	p->seconds = (double)(m->last_t_us - m->first_t_us) / 1e6;
	p->t_first_ns = m->first_t_us * 1000;
	p->t_last_ns = m->last_t_us * 1000;
	p->intervals = (unsigned)(p->seconds + 1);
	return 0;
}

void r0_tracemix_finish(struct r0_tracemix *m)
{
	struct r0_profile *p = m->p;
	uint64_t ops = 0;

	r0_profile_finish(p);
	if (m->qd_from_trace)
		return;
	/* no completions: no busy time, so the requests weigh */
	for (int c = 0; c < R0_PC_N; c++)
		ops += p->cls[c].ops;
	for (int c = 0; c < R0_PC_N; c++)
		p->cls[c].weight = ops ? (double)p->cls[c].ops / (double)ops : 0;
	p->weights_by_requests = true;
	/* the classes are still exact: only the coverage limits the confidence */
	p->confidence = fmin(1, (double)p->active / R0_PROFILE_FULL_COVERAGE);
	p->confidence_level = r0_confidence_level(p->confidence);
}

int r0_tracemix_file(const char *path, struct r0_trace_header *h, struct r0_profile *p,
		     struct r0_trace_fault *fault)
{
	struct r0_trace_reader *r = NULL;
	struct r0_trace_event ev;
	struct r0_tracemix m;
	int err;

	if (fault)
		*fault = (struct r0_trace_fault){ 0 };
	if ((err = r0_trace_reader_open(path, h, &r))) {
		if (fault)
			r0_trace_open_fault(err, fault);
		r0_profile_init(p);
		return err;
	}
	r0_tracemix_init(&m, h, p);
	while (!(err = r0_trace_read(r, &ev)))
		if ((err = r0_tracemix_add(&m, &ev)))
			break;
	if (err == 1) {
		err = 0;
		r0_tracemix_finish(&m);
	} else if (fault) {
		r0_trace_reader_fault(r, fault);
	}
	r0_trace_reader_free(r);
	return err;
}
