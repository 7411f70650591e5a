/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The study's own data: one run of one cell (a workload on a target: the
 * raw drive, or an md or dm stripe of n members at one chunk), as the
 * study measures, analyses and predicts it, and a set of them. study/ and
 * predict/ work on these; lib/results converts r0sweep/1 files to and from
 * them (r0/sweep.h: what each field is called there), so a key of the file
 * format does not reach the statistics.
 */
#ifndef R0_RUNS_H
#define R0_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/engine.h"

/*
 * The members as a study names them ("PATH (size, kname, model, serial
 * ..., N-byte blocks)" each): room for R0_MAX_MEMBERS by-id paths of
 * about 130 characters each; what does not fit is "and N more members"
 */
#define R0_DEVICES_TEXT_MAX 2048

/* What a target is: the first member alone, or an array over the first n. */
enum r0_layer { R0_LAYER_RAW, R0_LAYER_MD, R0_LAYER_DM };

/* One run of one cell: what was measured (or predicted), on what, and how (r0/sweep.h's keys). */
struct r0_run {
	enum r0_layer layer;
	uint32_t chunk_bytes;        /* 0 for raw */
	unsigned n_members;
	char label[32];              /* workload label */
	enum r0_access access;
	unsigned read_pct;
	uint32_t block_bytes, align_bytes;
	unsigned queue_depth, jobs;
	unsigned repeat;             /* 1-based */
	double runtime_s;
	uint64_t ios, errors;
	double iops, bytes_per_s;
	double lat_mean_ns;
	uint64_t lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_p9999_ns, lat_max_ns;
	double cpu_s_per_io;
	double busy;                 /* 0: not measured (not in the record) */
	char state[32];
	char devices[R0_DEVICES_TEXT_MAX];
	char describe[256];
	uint64_t region_bytes;       /* 0: not recorded */
	double test_runtime_s;       /* asked for; -1: not recorded */
	double ramp_s;               /* -1: not recorded */
	double min_runtime_s;        /* a test may end steady from here on; 0: off; -1: not recorded */
	char precondition[16];       /* "seq-fill", "none", "read-only"; "": not recorded */
	unsigned order_pos;          /* 0: not recorded */
	unsigned pass;               /* the study's pass that measured it (r0/study.h); 0: not recorded */
	unsigned looks;              /* an adaptive study's looks at its data (r0/adaptive.h); 0: a fixed plan */
	unsigned copy;               /* a calibration's copy, 1-based (r0/calibrate.h); 0: not a copy */
	char tool[48];
	int64_t time_unix;
	bool predicted;              /* r0predict's, not a measurement */
	enum r0_end ended;           /* R0_END_FIXED when absent */
	unsigned line;               /* its 1-based line in the file it was read from; 0: not read from one */
};

/* Runs of one study (one result file or several): recs[0..n). */
struct r0_run_set {
	struct r0_run *recs;
	size_t n, cap;
};

/* "raw", "md", "dm"; and back. r0_layer_parse: 0 or -EINVAL. */
const char *r0_layer_name(enum r0_layer l);
int r0_layer_parse(const char *s, enum r0_layer *out);

/* "read", "randwrite", "randrw"...: from access and read_pct. */
const char *r0_rw_name(enum r0_access access, unsigned read_pct);

/* A workload's name from its LABEL and direction: "Seq read", "4K QD32 write", "512K straddle rw70". */
void r0_workload_name(const char *label, unsigned read_pct, char *buf, size_t len);
/* The record's workload in reports: r0_workload_name, or a scenario's or a replay's label alone. */
void r0_run_workload(const struct r0_run *r, char *buf, size_t len);

/*
 * Fills the measurement part of *R (runtime, ios, iops, bytes/s, errors,
 * latency, CPU per I/O, how the window ended) from an engine result; the
 * rest is the caller's.
 */
void r0_run_take_result(struct r0_run *r, const struct r0_result *res);

/*
 * The cell's identity, for --resume: layer, chunk, members, workload
 * (label, access, read_pct, block, align, depth, jobs) and repeat. Two
 * records with the same key measured the same thing. 0 or -ENOSPC.
 */
int r0_run_key(const struct r0_run *r, char *buf, size_t len);

/*
 * Whether A and B come from the same study: both predicted or both
 * measured, the same region, runtime,
 * ramp, state, preconditioning and devices (what --resume and r0report
 * refuse to mix). 0 if so; 1 if not, with WHY naming the first parameter
 * that differs and both values: "region (16.0 MiB vs 32.0 MiB)".
 */
int r0_run_study_diff(const struct r0_run *a, const struct r0_run *b, char *why,
			    size_t len);

/*
 * The order in which repeat REPEAT (1-based) visits N targets: a seeded
 * shuffle of 0..n-1 into ORDER[0..n), different from repeat to repeat and
 * the same in every run (so --resume and a second run see the same
 * design). Position effects (a cache, background work, heat) then spread
 * over the targets instead of landing on one.
 */
void r0_pass_order(unsigned repeat, size_t n, size_t *order);

/* Adds a copy of R. 0 or -ENOMEM. */
int r0_run_set_add(struct r0_run_set *set, const struct r0_run *r);

/* true if SET holds a record with R's key. */
bool r0_run_set_has(const struct r0_run_set *set, const struct r0_run *r);

void r0_run_set_free(struct r0_run_set *set);

/*
 * Whether A and B are one run read twice: the same target, workload and
 * repeat (r0_run_key), state and devices, and
 * the same measured figures (window, ios, errors, IOPS, bytes/s,
 * latencies, CPU, time).
 * Two runs of one cell never give all of these alike; a file read twice,
 * or copied under another name, does.
 */
bool r0_run_same(const struct r0_run *a, const struct r0_run *b);

/*
 * The records of SET->recs[from..n) that repeat an earlier record of SET
 * (r0_run_same): how many; *FIRST (may be NULL) the index of
 * the first of them and *OF that of the record it repeats. 0: none. A
 * study counted twice narrows every interval on no new evidence.
 */
size_t r0_run_set_dups(const struct r0_run_set *set, size_t from, size_t *first, size_t *of);

/*
 * Numbers the passes of SET->recs[from..n), a file pooled after the
 * records before FROM, on after the largest pass before it: each file's
 * passes are visits and drifts of their own, and pass 1 of a second
 * sweep is not pass 1 of the first. Records without a pass keep none.
 * Whether a run was read twice does not depend on it (r0_run_same).
 */
void r0_run_set_pool_passes(struct r0_run_set *set, size_t from);

#endif
