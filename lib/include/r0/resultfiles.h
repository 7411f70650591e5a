// SPDX-License-Identifier: GPL-2.0-or-later
/* The other result files r0report reads besides r0sweep's: r0trim's JSON
 * document (schema r0trim/1), a scenario's JSON lines (r0scenario/1, in
 * r0/scenariojson.h) and r0age's state record (r0age-state/1, read with
 * r0/age.h). */
#ifndef R0_RESULTFILES_H
#define R0_RESULTFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/scenariojson.h"
#include "r0/sweep.h"

enum r0_result_kind { R0_RESULT_SWEEP, R0_RESULT_TRIM, R0_RESULT_SCENARIO, R0_RESULT_AGE, R0_RESULT_BENCH };

/* r0_result_kind: which schema the file at PATH holds, from the
 * "r0kit_schema" (older r0sweep files: "schema") of its first JSON value (a line, or the whole file for a
 * document; r0bench/1: R0_RESULT_BENCH). 0 and *out, -EINVAL when it is none of the five, -EISDIR for a
 * directory, -errno. */
int r0_result_kind(const char *path, enum r0_result_kind *out);

/*
 * r0_result_digest: a digest of what the file at PATH says, its JSON
 * values in order (a document, or JSON lines), each by its content: the
 * same for a copy re-serialised, re-indented, with CRLF line ends, a
 * UTF-8 byte-order mark or its keys in another order (a number by its
 * value: 1 and 1.0 are one); text that does not parse counts by its
 * bytes. Two files of one digest hold the same results. 0 and *DIGEST,
 * or -errno.
 */
int r0_result_digest(const char *path, uint64_t *digest);

#define R0_TRIMRES_MEMBERS 16
#define R0_TRIMRES_RANGES 32

struct r0_trimres_range {
	char name[64];
	uint64_t start_bytes, length_bytes;
	char verdict[24];                          /* the delivery check's */
	uint64_t expected[R0_TRIMRES_MEMBERS];     /* sectors, per member */
	uint64_t observed[R0_TRIMRES_MEMBERS];
};

/* r0trim --watch: one bottom device over the readings judged. */
struct r0_trimres_wdev {
	char name[64], serial[64];                 /* serial: "" where the kernel has none */
	uint64_t discarded_bytes;
	double observed_share, predicted_share;    /* 0 to 1 */
	char stopped_since[32];                    /* UTC ("2025-01-31T06:00:00Z"); "" unless it stopped */
	uint64_t others_since_bytes;               /* with stopped_since: what the others received since */
};

/* r0trim --watch ("mode":"watch"): what its record file's readings show. */
struct r0_trimres_watch {
	char record_file[256], since[32];          /* since: UTC, the first reading judged */
	char detail[4096];                         /* the verdict's sentence */
	unsigned records, intervals, n_devices;
	struct r0_trimres_wdev dev[R0_TRIMRES_MEMBERS];
};

struct r0_trimres {
	char device[128], description[128], kernel[96], verdict[24];   /* verdict: "PASS with DRIFT" too */
	/* the array checked, when the device is the stripe itself (its description: "md raid0, ...", "dm
	 * striped, ..."); R0_LAYER_RAW: anything else (a disk, a stack over a stripe) */
	enum r0_layer layer;
	bool pass;                                 /* discards_pass */
	uint64_t size_bytes, chunk_bytes;
	unsigned n_members;
	char member[R0_TRIMRES_MEMBERS][64];
	unsigned n_ranges;                         /* at most R0_TRIMRES_RANGES (more: -ERANGE) */
	struct r0_trimres_range range[R0_TRIMRES_RANGES];
	unsigned n_checks, n_pass, n_fail;         /* checks and their verdicts */
	bool watch;                                /* r0trim --watch: W, and no ranges, cycles or checks */
	struct r0_trimres_watch w;
};

/* r0_trimres_load: reads an r0trim -J document (of --watch too). 0, -EINVAL
 * (not r0trim/1 or a key missing), -EBADMSG (a verdict r0trim does not
 * write, or one its discards_pass or a failed check contradicts: edited or
 * damaged), -ERANGE (more than R0_TRIMRES_MEMBERS members or watched
 * devices, or R0_TRIMRES_RANGES ranges), -errno. */
int r0_trimres_load(const char *path, struct r0_trimres *out);

struct r0_state_record;

/* r0_ageres_load: reads an r0age state record (r0age --json, or the file in
 * /run/r0kit/state). 0, -EINVAL (not r0age-state/1), -errno. */
int r0_ageres_load(const char *path, struct r0_state_record *out);

#endif
