/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0bench's tests and how they are run and printed (tools/r0bench.c parses the options). */
#ifndef R0_BENCH_H
#define R0_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "consent.h"
#include "r0/benchjson.h"
#include "r0/engine.h"

#define PROG "r0bench"
#define JSON_SCHEMA R0_BENCH_SCHEMA
#define MAX_TESTS 80   /* the predict preset has 70 */

struct run {
	struct r0_io_file target;
	const char *preset;
	bool json, tty;
	unsigned passes, warmup;
	uint64_t region_bytes;
	struct r0_bench_test tests[MAX_TESTS];
	unsigned ntests;
	struct r0_state_saved *state; /* the target's r0age state record, NULL: none */
	volatile sig_atomic_t *stop; /* set by a signal handler: stop early */
};

/* run.c: the passes of one test */
int bench_run_test(struct run *run, struct r0_bench_test *t, const char **reason);

/* text.c: the table, the progress line, I/O errors and verify faults */
void bench_progress(const struct r0_progress *p, void *arg);
void bench_print_error(const struct run *run, const struct r0_result *r);
void bench_print_verify_fault(const struct run *run, const struct r0_result *r);
void bench_print_table(const struct run *run);

/* replay.c: --replay TRACE on PATH; the tool's exit status */
struct bench_replay_args {
	bool pace, force, read_only;
	double time_scale;           /* with pace: 2 twice as fast */
	unsigned skip;               /* R0_REPLAY_SKIP_* */
	bool discards;               /* --replay-discards: the trace's discards issued too */
	bool json;
	unsigned queue_depth;        /* 0: the trace's own */
	uint64_t seed, stall_ns;
	struct r0_consent consent;
};
int bench_replay(const char *path, const char *trace, const struct bench_replay_args *a);

/* json.c: the r0bench/1 document (r0/benchjson.h) on stdout */
void bench_print_json(const struct run *run, int status, const char *reason);
/* What a replay ran and gave, for its document's "replay" object. */
struct bench_replayed {
	const char *trace;
	const struct r0_replay_trace *t;
	bool pace;
	const struct r0_replay_result *r;
};
/* A replay's document: no tests, its "replay" object beside them. */
void bench_print_replay_json(const struct r0_io_file *t, const struct bench_replayed *rp, int status,
			     const char *reason);

#endif
