/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload mix of a block trace (r0/trace.h): each request classed by
 * itself into the r0_pclass classes of r0/profile.h, where the counters can
 * only class an interval's averages.
 *
 * Sequential: a request that starts where one of the last
 * R0_TRACEMIX_STREAMS requests of its direction ended (several streams may
 * interleave), or ends where one of them starts (a stream's requests queued
 * out of order by its submitters: that one is then sequential too); large: above R0_PROFILE_LARGE_BYTES; QD1: at most
 * R0_PROFILE_Q1_MAX requests in flight when it was queued, itself
 * included. In flight are the requests of the trace's pairs, matched by
 * operation and sector (R0_TRACE_QD_QUEUE: queued and not yet completed;
 * R0_TRACE_QD_ISSUE: issued and not yet completed, plus the one being
 * queued). A request overtaken by R0_TRACEMIX_OVERTAKEN completions lost
 * its own (a record the recorder could not read) and leaves the count.
 * Weights are shares of the busy time (time with a request in flight), as
 * the counters' are, a busy stretch split evenly over the requests in
 * flight. A trace without pairs has no busy time: its weights are shares
 * of the requests, and its small random requests count as QD1
 * (->qd_from_trace false says so).
 */
#ifndef R0_TRACEMIX_H
#define R0_TRACEMIX_H

#include <stdbool.h>
#include <stdint.h>

#include "r0/profile.h"
#include "r0/trace.h"

/* Request ends remembered per direction: this many interleaved streams are told apart. */
#define R0_TRACEMIX_STREAMS 16
/* Requests remembered in flight; beyond, the deepest are not counted. */
#define R0_TRACEMIX_IN_FLIGHT 1024
/* Completions of later requests after which one still in flight is taken as lost. */
#define R0_TRACEMIX_OVERTAKEN 1024

struct r0_tracemix {
	struct r0_profile *p;
	unsigned flags;             /* the trace's R0_TRACE_QD_* */
	bool qd_from_trace;
	struct r0_tracemix_recent {
		uint64_t start, end, bytes;
		unsigned char cls;
	} recent[2][R0_TRACEMIX_STREAMS];       /* [read, write]: the last requests */
	unsigned n_recent[2], next_recent[2];
	struct r0_tracemix_flight {
		uint64_t start, end;    /* end: start + 1 for an issued request (its length is not traced) */
		uint64_t completions;   /* ->completions when it was queued or issued */
		unsigned char op, cls;  /* cls R0_PC_N: a discard or flush */
	} flight[R0_TRACEMIX_IN_FLIGHT];
	unsigned n_flight;
	unsigned cls_in_flight[R0_PC_N + 1];
	uint64_t completions, lost;             /* completions paired; requests whose completion was lost */
	struct r0_trace_retry retry;
	uint64_t retried;                       /* QUEUEs of a request refused and queued again: not counted */
	unsigned char last_queued[4];           /* per r0_trace_op: the class an ISSUE takes */
	uint64_t first_t_us, last_t_us, last_second;
	bool any;
	uint64_t events;
};

/* Starts classing a trace whose header is H into P (r0_profile_init'ed here). */
void r0_tracemix_init(struct r0_tracemix *m, const struct r0_trace_header *h, struct r0_profile *p);
/* Adds one event, in the trace's order. 0, or -EINVAL for an event before the previous one. */
int r0_tracemix_add(struct r0_tracemix *m, const struct r0_trace_event *ev);
/* Computes the weights (r0_profile_finish); may be called again after more events. */
void r0_tracemix_finish(struct r0_tracemix *m);

/*
 * Reads the trace PATH into *H and classes it into P. 0; the errors of
 * r0_trace_reader_open and r0_trace_read (*FAULT, when not NULL, says
 * whether -EBADMSG is a file cut short, and a fio iolog's line at fault);
 * P then holds nothing to use.
 */
int r0_tracemix_file(const char *path, struct r0_trace_header *h, struct r0_profile *p,
		     struct r0_trace_fault *fault);

#endif
