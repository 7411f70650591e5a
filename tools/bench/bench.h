/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0bench's tests and how they are run and printed (tools/r0bench.c parses the options). */
#ifndef R0_BENCH_H
#define R0_BENCH_H

#include <signal.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "r0/engine.h"

#define PROG "r0bench"
#define JSON_SCHEMA "r0bench/1"
#define MAX_TESTS 80   /* the predict preset has 70 */

struct test {
	const char *label;
	struct r0_workload w;
	unsigned npasses;
	struct r0_result *passes;    /* counted passes */
	struct r0_hist lat;          /* merged over the counted passes */
	struct r0_result verify;     /* --verify write: the read-back check */
	bool verified, ran;
	int err;                     /* engine refusal / interruption */
};

struct run {
	struct r0_target target;
	const char *preset;
	bool json, tty;
	unsigned passes, warmup;
	uint64_t region_bytes;
	struct test tests[MAX_TESTS];
	unsigned ntests;
	json_object *state;          /* the target's r0age state record, NULL: none */
	volatile sig_atomic_t *stop; /* set by a signal handler: stop early */
};

struct spread {
	double best, median, min, max;
};

/* run.c: the passes of one test, and their figures */
int bench_run_test(struct run *run, struct test *t, const char **reason);
struct spread bench_spread(const struct test *t, double (*f)(const struct r0_result *));
double bench_mbps(const struct r0_result *r);
double bench_cpu_per_io(const struct r0_result *r);
/* "randread", "write", ... as --rw takes them */
const char *bench_rw_name(const struct r0_workload *w);

/* text.c: the table, the progress line, I/O errors and verify faults */
void bench_progress(const struct r0_progress *p, void *arg);
void bench_print_error(const struct run *run, const struct r0_result *r);
void bench_print_verify_fault(const struct run *run, const struct r0_result *r);
void bench_print_table(const struct run *run);

/* json.c: schema r0bench/1 (tools/schema/r0bench-1.schema.json) */
void bench_print_json(const struct run *run, int status, const char *reason);

#endif
