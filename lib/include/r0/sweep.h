/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0sweep's result file: JSON lines, one record per finished cell (one
 * workload, one repeat, on one target: a raw drive or an md/dm stripe of
 * n members at one chunk), appended as the sweep goes, so an interrupted
 * sweep keeps what it finished and --resume finds it again. A record is
 * read into and written from the study's own run (struct r0_run,
 * r0/runs.h), so the statistics never see a key of the file.
 *
 * Schema "r0sweep/1" (every line is one JSON object):
 *   r0kit_schema  "r0sweep/1" (files written before it say "schema": read too)
 *   type          "cell" (a measurement) or "analysis" (the summary r0sweep
 *                 appends at the end; readers of cells skip it)
 *   layer         "raw" (the first member, no array), "md" or "dm"
 *   chunk_bytes   the stripe unit; 0 for raw
 *   members       member count (1 for raw)
 *   workload      label ("Seq", "4K QD32", "512K straddle")
 *   rw            "read", "write", "randread", "randwrite", "rw", "randrw";
 *                 "fs": an everyday scenario through a file system
 *                 (r0/everyday.h), named by its label ("ext4 copy"): runtime_s
 *                 its seconds, bytes_per_s its bytes over them, lat_ns null;
 *                 "replay": a recorded trace replayed as fast as the target
 *                 allows (r0/replay.h), labelled "replay NAME": runtime_s its
 *                 seconds, lat_ns p50 and p99 of its requests
 *   read_pct      100 reads .. 0 writes
 *   block_bytes, align_bytes, queue_depth, jobs
 *   repeat        1-based repeat index
 *   runtime_s     the measured window
 *   ios, iops, bytes_per_s, errors
 *   lat_ns        {mean, p50, p90, p99, p99.9, p99.99, max}: completion
 *                 minus submission, nanoseconds
 *   cpu_s_per_io  user + system CPU seconds of the whole process per I/O
 *                 (job threads, io_uring's kernel workers)
 *   busy          the busiest job thread's share of its time on a CPU, 0..1
 *                 (its own clock); optional: older files lack it (read as 0)
 *   state         the members' state ("empty", "used", ...)
 *   devices       the members: path, size, model and serial where the
 *                 kernel has them ("/dev/sda (256.0 MiB, model X, serial Y, ...)")
 *   describe      what the user said they are (--describe; "" if not)
 *   region_bytes  the test region asked for (--region; at most the target)
 *   test_runtime_s, ramp_s   the measured and unmeasured seconds asked for
 *   min_runtime_s the seconds before a test may end steady (--min-runtime; 0 off)
 *   precondition  "seq-fill" (every member's region written once through
 *                 the raw member before any test), "none" (--no-precondition) or
 *                 "read-only" (--read-only: nothing written)
 *   order_pos     the target's 1-based position in its pass's visiting
 *                 order (seeded, different in each pass)
 *   pass          the 1-based pass of the study that measured it: one visit
 *                 of every target the study wanted then, in that order
 *                 (r0/study.h); runs of one pass were measured close in
 *                 time, so the analysis takes drift out pass by pass
 *                 (r0/noise.h); optional: absent in older files (0)
 *   copy          1..8: the copy of a calibration (r0sweep --calibrate,
 *                 r0/calibrate.h): one array built afresh at every visit
 *                 and labelled as copy A, B, ...; records of different
 *                 copies are different targets; optional: absent in a
 *                 study (0)
 *   tool          "r0sweep 0.1.0" (or "r0predict 0.1.0")
 *   predicted     true: not measured but predicted by r0predict from one
 *                 drive's results; optional, absent (false) in measured cells
 *   ended         how the measured window ended (r0_end_name): "steady",
 *                 "max" or "cut" with --min-runtime; absent: "fixed",
 *                 the runtime asked for (older files too)
 *   time          seconds since the epoch when the cell finished
 * A value not known is written null, never 0 or -1: a latency not measured
 * (an everyday cell's; a prediction's p90 and above), a prediction's
 * runtime_s, ios, errors and cpu_s_per_io, a parameter not recorded. Read
 * back, null is what older files wrote there and the fields below hold:
 * 0 for a latency, a count, region_bytes and order_pos, -1 for the seconds
 * asked for, "" for precondition.
 * Unknown keys are ignored; a missing required key makes the line invalid.
 * describe .. order_pos came later: a line without them (an older file)
 * is valid and reads as "not recorded" (0, -1 or "").
 */
#ifndef R0_SWEEP_H
#define R0_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "r0/engine.h"
#include "r0/prng.h"
#include "r0/runs.h"

#define R0_SWEEP_SCHEMA "r0sweep/1"

/*
 * r0sweep's default repeats: the fewest at which tests/unit/test_compare.c's
 * simulation keeps false differences at 5 % or less per pair at 2-10 %
 * noise (3 repeats claim one in about 10 %) and finds a 15 % better chunk
 * under a mix in 95 % or more of the studies at 5 % noise.
 */
#define R0_SWEEP_DEFAULT_REPEATS 5   /* --every-target's fixed plan */
/*
 * The default test: at most 3 s measured after 0.5 s unmeasured (CDM
 * measures 5 s; a steady SSD's rate settles well within 3), and a study
 * that plans itself into 30 minutes (r0/adaptive.h).
 */
#define R0_SWEEP_DEFAULT_RUNTIME_NS 3000000000ULL
#define R0_SWEEP_DEFAULT_RAMP_NS 500000000ULL
#define R0_SWEEP_DEFAULT_MIN_RUNTIME_NS 1000000000ULL   /* then it may end when steady */
#define R0_SWEEP_DEFAULT_BUDGET_NS (30ULL * 60 * 1000000000ULL)


/* One JSON line (no newline), malloc'ed; NULL with errno on failure. */
char *r0_sweep_rec_to_json(const struct r0_run *r);

/*
 * Parses one line. 0; -ENOMSG for a valid r0sweep/1 line of another type
 * (analysis); -EINVAL for anything else (not JSON, another schema, a
 * required key missing or of the wrong type).
 */
int r0_sweep_rec_parse(const char *line, struct r0_run *out);

/*
 * Appends R to F as one line and flushes it to the device (fflush +
 * fsync), so a crash right after still finds it. 0 or -errno.
 */
int r0_sweep_rec_append(FILE *f, const struct r0_run *r);

/* Appends a free-form record of TYPE (e.g. "analysis") holding JSON_BODY's keys. */
int r0_sweep_append_json(FILE *f, const char *type, const char *json_body);

/*
 * The lines r0sweep appends at the end of its file, after the cells
 * (lib/results/sweepanalysis.c writes them; r0_sweep_plan_note and
 * r0_sweep_stored_analysis read them back). Their keys, in this order
 * after r0kit_schema and type (tools/schema/r0sweep-1.schema.json has
 * each one's meaning):
 *   "analysis"     mix, verdict, lead, reasoning, members, answer, method,
 *                  chunks, threshold, confidence, indicative, choices
 *                  [{layer, chunk_bytes, score, score_min, score_max,
 *                  tie_best, picked}], plan {adaptive, looks, budget_s,
 *                  stopped, open, dropped, cells} (an adaptive study's
 *                  only), tool, time
 *   "calibration"  copies, members, passes, mix, wl_compared, wl_false,
 *                  mix_compared, mix_false, visit_sd, visit_rho, kurtosis,
 *                  max_drift, run_noise_max, targets [{target, visits,
 *                  visit_sd, run_noise}], within, sentence, answer, tool,
 *                  time
 * The writers take plain values (strings by pointer, kept by the caller);
 * lib/results/analysisline.c fills them from an analysis or a calibration.
 */

/* Why an adaptive study ended: "decided" (every comparison), "last-look" (the last look's
 * repeats reached with some still open), "budget" (the budget ended it). */
enum r0_sweep_stopped { R0_SWEEP_STOPPED_DECIDED, R0_SWEEP_STOPPED_LAST_LOOK, R0_SWEEP_STOPPED_BUDGET };

/* "decided", "last-look", "budget"; "?" for anything else. */
const char *r0_sweep_stopped_name(enum r0_sweep_stopped s);

/* What an adaptive study did and left: the analysis line's plan. */
struct r0_sweep_plan_line {
	bool adaptive;
	const unsigned *looks;          /* the repeat counts it looked at the data at (3, 5, 8) */
	size_t n_looks;
	double budget_s;                /* 0: no bound */
	enum r0_sweep_stopped stopped;
	const char *open;               /* comparisons still undecided, in words; "" none */
	const char *dropped;            /* targets of the full plan not measured, and why; "" none */
	uint64_t cells;                 /* cells of the plan measured or skipped (resumed) */
};

/* One choice of the analysis line: a candidate at the largest member count, scored under the mix. */
struct r0_sweep_choice_line {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	double score, score_min, score_max;   /* speed-up under the mix and its interval */
	bool tie_best;                        /* cannot be told from the best */
	bool picked;                          /* the recommended one */
};

struct r0_sweep_analysis_line {
	const char *mix, *verdict, *lead, *reasoning;
	unsigned members;                     /* the largest member count measured */
	const char *answer;                   /* under the mix, in words (r0_answer_name) */
	const char *method, *chunks;
	double threshold, confidence;         /* the comparisons' (r0_cmp_opts) */
	bool indicative;                      /* too few repeats to know the noise */
	const struct r0_sweep_choice_line *choices;   /* best first */
	size_t n_choices;
	const struct r0_sweep_plan_line *plan;        /* NULL: a fixed plan, no "plan" key */
	const char *tool;                     /* "r0sweep 0.2.0+g0123456789ab" */
	int64_t time_unix;
};

/* One target's noise in the calibration line. */
struct r0_sweep_calib_target_line {
	const char *name;                     /* "raw", "copy A" */
	unsigned visits;
	double visit_sd, run_noise;           /* shares; 0: unknown */
};

struct r0_sweep_calibration_line {
	unsigned copies, members, passes;
	const char *mix;
	uint64_t wl_compared, wl_false;       /* per workload, each copy against the best; told apart */
	uint64_t mix_compared, mix_false;     /* under the mix; losing or too noisy to tell */
	double visit_sd, visit_rho, kurtosis, max_drift, run_noise_max;
	const struct r0_sweep_calib_target_line *targets;
	size_t n_targets;
	bool within;                          /* every figure within what the study was validated for */
	const char *sentence, *answer;
	const char *tool;
	int64_t time_unix;
};

/*
 * Appends L to F as one "analysis" (or "calibration") line and flush it to
 * the device, as r0_sweep_rec_append. 0, -ENOMEM or -errno writing.
 */
int r0_sweep_analysis_append(FILE *f, const struct r0_sweep_analysis_line *l);
int r0_sweep_calibration_append(FILE *f, const struct r0_sweep_calibration_line *l);

/*
 * Adds every cell record of the file at PATH to SET. Lines of other types
 * are skipped; an invalid line is counted in *BAD_LINES (may be NULL)
 * and skipped, except that a file with no valid line at all and some bad
 * ones gives -EINVAL (it is not a result file). A last line without its
 * newline (a write cut short) counts as bad. 0 or -errno.
 */
int r0_sweep_load(const char *path, struct r0_run_set *set, unsigned *bad_lines);

/* What reading a result file found wrong (r0_sweep_load_file). */
struct r0_sweep_damage {
	unsigned bad;          /* lines that could not be read (skipped), a cut last line among them */
	unsigned first_bad;    /* the first of them, 1-based; 0: none */
	bool cut_tail;         /* the last line has no newline: a write cut short (an interrupted study) */
};

/*
 * r0_sweep_load, each record's line number in its .line and what was
 * wrong in *DMG: the records read are added, the damage is the caller's
 * to refuse or to say (r0_sweep_damage_inside).
 */
int r0_sweep_load_file(const char *path, struct r0_run_set *set, struct r0_sweep_damage *dmg);

/*
 * Whether D is damage inside the file: a line that could not be read
 * other than a last line cut mid-write. A cut last line alone is what an
 * interrupted study leaves (its finished cells are whole); a bad line
 * inside is a damaged file, and a verdict from the rest would rest on
 * part of a study.
 */
bool r0_sweep_damage_inside(const struct r0_sweep_damage *d);


/*
 * How an adaptive study planned itself, in words, from the plan of the
 * last analysis line of PATH ("adaptive: 472 cells, repeated where a
 * comparison was undecided; the budget ended it; still open: ...; not
 * measured: ..."). 0; -ENOENT when no analysis line has a plan (a fixed
 * plan); -errno reading the file.
 */
int r0_sweep_plan_note(const char *path, char *buf, size_t len);

/*
 * The analysis r0sweep stored at the end of a study (an "analysis" line):
 * which code made it and what it said, to be set beside what the reader's
 * code says of the same cells.
 */
struct r0_sweep_stored {
	char tool[64];              /* "r0sweep 0.1.0", "r0sweep 0.2.0+g1a2b3c4d5e6f" (r0_build_id) */
	char mix[32];
	char verdict[3072];         /* the verdict in detail */
	char answer[64];            /* under the mix (r0_answer_name); "" in older files */
	char lead[512];             /* the answer in one clause, as the verdict opens; "" in older files */
	bool has_pick;              /* a choice marked picked (older files: none) */
	enum r0_layer layer;        /* with has_pick: the pick and its speed-up under the mix */
	uint32_t chunk_bytes;
	double score, score_min, score_max;   /* min, max: NAN when not recorded */
	unsigned cells_after;       /* cell lines after it: measured later (a resumed study), not in it */
};

/*
 * The last analysis line of the r0sweep/1 file at PATH into *OUT. 0;
 * -ENOENT when the file has none (r0predict's, a study interrupted);
 * -errno reading the file.
 */
int r0_sweep_stored_analysis(const char *path, struct r0_sweep_stored *out);

#endif
