// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench --replay: a recorded trace (r0/replay.h) run on the target, its safety and its report. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli.h"
#include "consent.h"
#include "r0/age.h"
#include "r0/replay.h"
#include "r0/safety.h"
#include "r0/size.h"

static void size_of(uint64_t bytes, char *buf, size_t len)
{
	if (r0_format_size_human(bytes, buf, len))
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
}

/* The load's failure in words, as r0profile --from-trace says them (r0_trace_error_text). */
static void print_load_error(const char *trace, const struct r0_replay_trace *t, int err)
{
	char where[512];
	const char *text = r0_trace_fault_text(err, &t->fault, where, sizeof(where));

	if (text)
		fprintf(stderr, PROG ": %s: %s; nothing replayed\n", trace, text);
	else
		fprintf(stderr, PROG ": %s: cannot read the trace: %s\n", trace, strerror(-err));
}

static int show_plan(const char *path, const char *trace, const struct r0_replay_trace *t,
		     const struct r0_consent *c)
{
	struct r0_plan p;
	char b[32], d[48];

	if (r0_plan_begin(&p, PROG, r0_replay_writes(t) ?
			  "a trace replay whose writes DESTROY THE DATA they cover on this target" :
			  "a trace replay of reads only: nothing is written to this target"))
		return R0_EXIT_FAILURE;
	p.keeps_data = !r0_replay_writes(t);
	r0_plan_device(&p, path);
	size_of(t->write_bytes, b, sizeof(b));
	fprintf(p.f, "  writes: %llu requests, %s of a pattern at the offsets %s recorded (modulo this\n"
		     "          target's size when that device was larger)\n",
		(unsigned long long)t->writes, b, trace);
	if (t->discards_kept && t->discards) {
		size_of(t->discard_bytes, b, sizeof(b));
		fprintf(p.f, "  discards: %llu (--replay-discards), %s at the offsets %s recorded: what\n"
			     "          they cover is gone\n", (unsigned long long)t->discards, b, trace);
	}
	r0_plan_duration((double)t->duration_us / 1e6, d, sizeof(d));
	fprintf(p.f, "  time: at most about the recorded %s at its pace, less as fast as possible\n", d);
	return r0_plan_decide(&p, c);
}

static void print_result(const char *path, const char *trace, const struct r0_replay_trace *t,
			 const struct r0_replay_opts *o, const struct r0_replay_result *r,
			 uint64_t target_bytes, bool block)
{
	char rb[32], wb[32], ts[32], tb[32], db[32];

	size_of(t->h.size_sectors * 512, ts, sizeof(ts));
	size_of(target_bytes, tb, sizeof(tb));
	printf("trace:       %s (%s, %s, %zu requests over %.3f s)\n", trace, t->h.name, ts, t->n,
	       (double)t->duration_us / 1e6);
	printf("target:      %s (%s)\n", path, tb);
	printf("mode:        %s, QD %u (%s)\n", o->pace ? "at the recorded pace" : "as fast as possible",
	       r->queue_depth, o->queue_depth ? "--qd" : t->max_in_flight ? "the trace's deepest queue" :
	       "no queue depth in the trace: the default");
	if (r->mapped)
		printf("mapped:      the trace's device (%s) is larger than the target: %llu requests\n"
		       "             moved to their offset modulo the target's size\n",
		       ts, (unsigned long long)r->wrapped);
	if (r->resized)
		printf("resized:     %llu requests widened to the target's logical block\n",
		       (unsigned long long)r->resized);
	size_of(r->read_bytes, rb, sizeof(rb));
	size_of(r->written_bytes, wb, sizeof(wb));
	printf("requests:    %llu (%llu reads, %llu writes, %llu flushes as fdatasync",
	       (unsigned long long)r->requests, (unsigned long long)r->reads,
	       (unsigned long long)r->writes, (unsigned long long)r->flushes);
	if (t->discards_kept)
		printf(", %llu discards", (unsigned long long)r->discards);
	printf(")\n");
	printf("read:        %llu bytes (%s)\n", (unsigned long long)r->read_bytes, rb);
	printf("written:     %llu bytes (%s)\n", (unsigned long long)r->written_bytes, wb);
	if (t->retried)
		printf("retried:     %llu requests queued again by the kernel after a refused\n"
		       "             nonblocking attempt: replayed once\n", (unsigned long long)t->retried);
	if (r->discards_skipped)
		printf("skipped:     %llu discards (not replayed)\n", (unsigned long long)r->discards_skipped);
	if (t->discards_kept) {
		size_of(r->discarded_bytes, db, sizeof(db));
		printf("discarded:   %llu bytes (%s) in %llu requests (--replay-discards: %s)\n",
		       (unsigned long long)r->discarded_bytes, db, (unsigned long long)r->discards,
		       block ? "BLKDISCARD" : "punched holes");
	}
	printf("time:        %.3f s\n", (double)r->wall_ns / 1e9);
	printf("throughput:  %.1f MiB/s, %.0f IOPS\n", r->mib_s, r->iops);
	printf("latency:     median %.1f us, p99 %.1f us\n", (double)r->lat_p50_ns / 1e3,
	       (double)r->lat_p99_ns / 1e3);
	if (r->reads && r->writes) {
		printf("  reads:     median %.1f us, p99 %.1f us\n", (double)r->read_lat_p50_ns / 1e3,
		       (double)r->read_lat_p99_ns / 1e3);
		printf("  writes:    median %.1f us, p99 %.1f us\n", (double)r->write_lat_p50_ns / 1e3,
		       (double)r->write_lat_p99_ns / 1e3);
	}
	if (o->pace)
		printf("lag:         max %.3f ms, mean %.3f ms, last request %.3f ms behind its recorded time\n",
		       (double)r->lag_max_ns / 1e6, r->lag_mean_ns / 1e6, (double)r->lag_end_ns / 1e6);
}

int bench_replay(const char *path, const char *trace, const struct bench_replay_args *a)
{
	struct r0_replay_trace t;
	struct r0_replay_opts o = { .pace = a->pace, .time_scale = a->time_scale, .queue_depth = a->queue_depth, .seed = a->seed,
				    .stall_ns = a->stall_ns };
	struct r0_replay_result r;
	struct r0_io_file tg;
	struct stat st;
	bool block = !stat(path, &st) && S_ISBLK(st.st_mode), writes;
	char why[256];
	int err, status = R0_EXIT_OK;

	/* a trace or target it cannot replay is refused before any request */
	err = r0_replay_load_flags(trace, a->discards ? R0_REPLAY_LOAD_DISCARDS : 0, &t);
	if (err) {
		print_load_error(trace, &t, err);
		r0_replay_trace_free(&t);
		return R0_EXIT_REFUSED;
	}
	if (a->skip) {
		uint64_t left = r0_replay_skip(&t, a->skip);

		fprintf(stderr, PROG ": %s: --replay-skip: %llu requests left out\n", trace, (unsigned long long)left);
	}
	/* no request: a replay would measure nothing and print it as a result */
	if (!t.n) {
		fprintf(stderr, PROG ": %s: nothing to replay: the trace holds no request%s\n", trace,
			a->skip ? " left" : t.discards ? " but discards (--replay-discards replays them)" : "");
		r0_replay_trace_free(&t);
		return R0_EXIT_REFUSED;
	}
	/* a fio iolog v2 has no times: nothing to pace by */
	if (o.pace && t.h.untimed) {
		fprintf(stderr, PROG ": %s: a %s has no times: replayed as fast as possible, not at a pace\n",
			trace, r0_trace_format_name(t.h.format));
		o.pace = false;
	}
	writes = r0_replay_writes(&t);
	if (writes && a->read_only) {
		if (t.writes)
			fprintf(stderr, PROG ": %s: --read-only: the trace holds %llu writes\n", trace,
				(unsigned long long)t.writes);
		else
			fprintf(stderr, PROG ": %s: --read-only: --replay-discards and the trace holds %llu discards\n",
				trace, (unsigned long long)t.discards);
		r0_replay_trace_free(&t);
		return R0_EXIT_REFUSED;
	}
	/* the same contract as the writing tests: refused when in use, shown and asked first */
	if (writes && block) {
		struct r0_member_check chk;
		char why[512];

		if (r0_write_check(path, a->force, &chk, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: refusing to write: %s\n", path, why);
			r0_replay_trace_free(&t);
			return R0_EXIT_REFUSED;
		}
	}
	if ((writes && block) || a->consent.plan_only) {
		struct r0_consent c = a->consent;

		c.yes |= !(writes && block);
		if ((err = show_plan(path, trace, &t, &c)) >= 0) {
			r0_replay_trace_free(&t);
			return err;
		}
	}
	err = r0_io_file_open(path, writes, &tg);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			err == -ENOTBLK ? "not a block device or regular file" : strerror(-err));
		r0_replay_trace_free(&t);
		return R0_EXIT_REFUSED;
	}
	/* discards asked for: a target that cannot take them is refused before any request */
	if (t.discards_kept && t.discards && (err = r0_io_file_discard_check(&tg, why, sizeof(why)))) {
		fprintf(stderr, PROG ": %s: --replay-discards: cannot discard: %s\n", path, why);
		r0_io_file_close(&tg);
		r0_replay_trace_free(&t);
		return R0_EXIT_REFUSED;
	}
	if (a->discards && !t.discards)
		fprintf(stderr, PROG ": %s: --replay-discards: the trace holds no discard\n", trace);
	r0_cli_catch_stop_signals();
	o.stop = r0_cli_stop_flag();
	err = r0_replay_run(&t, &tg, &o, &r);
	if (err == -ERANGE)
		snprintf(why, sizeof(why), "a request of the trace (%u bytes) is larger than the target",
			 t.max_request_bytes);
	else if (err == -EIO)
		snprintf(why, sizeof(why), "I/O error at offset %llu: %s",
			 (unsigned long long)r.error_offset_bytes, strerror(r.error));
	else if (err == -EINTR)
		snprintf(why, sizeof(why), "interrupted by a signal");
	else if (err)
		snprintf(why, sizeof(why), "replay failed: %s", strerror(-err));
	if (err)
		fprintf(stderr, PROG ": %s: %s\n", path, why);
	if (a->json)
		bench_print_replay_json(&tg, &(struct bench_replayed){ trace, &t, o.pace, &r },
					err ? R0_EXIT_FAILURE : 0, err ? why : NULL);
	else if (!err || err == -EINTR || err == -EIO)
		print_result(path, trace, &t, &o, &r, tg.size_bytes, tg.is_block);
	if (err)
		status = R0_EXIT_FAILURE;
	if (writes && tg.is_block)   /* the state r0age recorded is no longer the device's */
		r0_state_forget(tg.devt);
	r0_io_file_close(&tg);
	r0_replay_trace_free(&t);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}
