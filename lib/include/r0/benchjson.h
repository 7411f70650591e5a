/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The r0bench/1 document (tools/schema/r0bench-1.schema.json): written
 * from an r0bench run (r0bench --json) and read back (r0predict takes one
 * drive's results from it). Both directions live here, so the field names
 * are spelt once.
 */
#ifndef R0_BENCHJSON_H
#define R0_BENCHJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "r0/age.h"
#include "r0/engine.h"
#include "r0/replay.h"

#define R0_BENCH_SCHEMA "r0bench/1"

/* One test of a run: what it ran and what its passes measured. */
struct r0_bench_test {
	const char *label;
	struct r0_workload w;
	unsigned npasses;
	struct r0_result *passes;    /* the counted passes, npasses of them */
	struct r0_hist lat;          /* merged over the counted passes */
	struct r0_hist lat_op[2];    /* the same, [R0_OP_READ] reads and [R0_OP_WRITE] writes */
	struct r0_result verify;     /* --verify write: the read-back check */
	bool verified;               /* verify holds a read-back */
	bool ran;                    /* the test was started (a test never started is left out) */
};

/* "randread", "write", "randtrim", ... as r0bench's --rw takes them. */
const char *r0_bench_rw_name(const struct r0_workload *w);

/*
 * W's kind from fio's --rw NAME (r0_bench_rw_name's, and readwrite for
 * rw): 0; 1 for a mix (read_pct set to 50, for --rwmix-read to change);
 * -EINVAL for a name fio's --rw does not take.
 */
int r0_bench_rw_parse(const char *name, struct r0_workload *w);

/* A figure over a test's counted passes (at most 64 of them); all 0 without a pass. */
struct r0_bench_spread {
	double best, median, min, max;   /* best: the highest */
};
struct r0_bench_spread r0_bench_spread(const struct r0_bench_test *t, double (*f)(const struct r0_result *));

/* What the document records of a run besides its tests. */
struct r0_bench_run {
	const char *tool;                /* "r0bench" */
	const struct r0_io_file *target;  /* a block device's r0probe/1 record is probed when written */
	const struct r0_state_saved *state; /* its r0age state record, or NULL */
	const char *preset;              /* NULL: none */
	unsigned passes, warmup;
	uint64_t region_bytes;           /* 0: none given */
	const struct r0_bench_test *tests;
	unsigned n_tests;
	int status;                      /* the exit status */
	const char *reason;              /* why it failed, or NULL */
};

/* The r0bench/1 document of RUN, finished now; NULL on a json-c allocation failure. */
json_object *r0_bench_to_json(const struct r0_bench_run *run);

/* That document as r0bench --json prints it, into *OUT (free()): 0 or -ENOMEM. */
int r0_bench_json_text(const struct r0_bench_run *run, char **out);

/*
 * The "replay" object of r0bench --replay's document: the trace at path
 * TRACE as loaded (T), whether it was paced, and what replaying it gave
 * (R); null members where a kind of request was not replayed.
 */
json_object *r0_bench_replay_to_json(const char *trace, const struct r0_replay_trace *t, bool pace,
				     const struct r0_replay_result *r);

/*
 * r0bench --replay --json's document as printed, into *OUT (free()):
 * RUN's document (no tests) with that "replay" object beside them.
 * 0 or -ENOMEM.
 */
int r0_bench_replay_json_text(const struct r0_bench_run *run, const char *trace, const struct r0_replay_trace *t,
			      bool pace, const struct r0_replay_result *r, char **out);

/* What a reader takes from one test of a document. */
struct r0_bench_result {
	char label[64];
	bool trim;                   /* a discard test: no other field is checked */
	enum r0_access access;
	unsigned read_pct;
	uint32_t block_bytes;
	unsigned queue_depth, jobs;
	double runtime_s, ramp_s;    /* NAN when absent */
	uint64_t span_bytes;
	/* summary.bytes_per_s over the passes, latency_ns p50 and min (NAN when absent) */
	double bps_median, bps_min, bps_max;
	double iops_median, mb_per_s_median;   /* summary.iops and summary.mb_per_s, NAN when absent */
	double lat_p50_ns, lat_min_ns;
	/* read_latency_ns.p50 and write_latency_ns.p50: NAN when null (no I/O of that kind) or absent */
	double read_lat_p50_ns, write_lat_p50_ns;
};

/*
 * The drive an r0bench/1 document measured, from its target and the
 * r0probe/1 record in it (target.device): what tells one drive from
 * another. A string not recorded is "", a number 0.
 */
struct r0_bench_drive {
	char path[256];              /* target.path */
	char model[128], serial[128], wwn[64];
	uint64_t size_bytes;         /* target.size_bytes */
	uint32_t logical_block, physical_block;
	uint32_t max_hw_sectors_kib; /* the largest request the hardware takes: the drive's, not a setting */
	uint64_t discard_max_hw_bytes;
};

/*
 * Whether A and B are one drive: 0 if so; 1 if not, with WHY naming the
 * first property that differs and both values ("serial (S1 vs S2)",
 * "max_hw_sectors_kib (32 vs 128)"). A property either left unrecorded
 * is not compared.
 */
int r0_bench_drive_diff(const struct r0_bench_drive *a, const struct r0_bench_drive *b, char *why, size_t len);

struct r0_bench_doc {
	char path[4096];             /* target.path ("" when absent) */
	struct r0_bench_drive drive; /* the drive measured */
	char state[32];              /* state.state ("" when absent) */
	/* target.device's queue: nr_requests and max_sectors_kib, read when both are above 0 */
	bool has_queue;
	unsigned nr_requests;
	uint32_t max_sectors_kib;
	size_t n_tests;
	struct r0_bench_result *tests;
};

/*
 * Reads the r0bench/1 document at PATH into *OUT (free with
 * r0_bench_doc_free). 0; -ENOMSG when PATH is no r0bench/1 document (not
 * JSON, unreadable, another schema); -EINVAL when it is one but a test has
 * no workload, or a test other than a discard has no block size, queue
 * depth or jobs, or a read share above 100; -ENOMEM.
 */
int r0_bench_load(const char *path, struct r0_bench_doc *out);
void r0_bench_doc_free(struct r0_bench_doc *d);

#endif
