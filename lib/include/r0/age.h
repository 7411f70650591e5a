/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Drive states for r0age: what each state writes (a plan of engine
 * workloads), the parsers of its arguments, and the state record every
 * later measurement (r0bench, r0sweep) copies into its result.
 */
#ifndef R0_AGE_H
#define R0_AGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <json-c/json.h>

#include "r0/engine.h"

enum r0_age_state { R0_AGE_EMPTY, R0_AGE_FILL, R0_AGE_USED, R0_AGE_STEADY };

#define R0_AGE_FILL_BLOCK_BYTES (128u << 10)  /* fill and preconditioning: 128K sequential */
#define R0_AGE_DISCARD_BLOCK_BYTES (64u << 20) /* empty: one BLKDISCARD per 64 MiB */
#define R0_AGE_RANDOM_BLOCK_BYTES 4096u        /* used and steady rounds: 4K random ... */
#define R0_AGE_RANDOM_QD 32u                   /* ... at queue depth 32 */
#define R0_AGE_FILL_PCT_DEFAULT 90u
#define R0_AGE_ROUND_NS_DEFAULT 60000000000ULL /* SNIA PTS: one-minute rounds */
#define R0_AGE_ROUNDS_DEFAULT 25u              /* SNIA PTS: give up after 25 rounds */
#define R0_AGE_ROUNDS_MAX 1000u
#define R0_AGE_PRECONDITION_PASSES 2u          /* SNIA PTS: twice the capacity */
#define R0_AGE_STEPS_MAX 4u

/* What the caller asks for. r0_age_params_init fills the defaults. */
struct r0_age_params {
	enum r0_age_state state;
	unsigned fill_pct;          /* fill, used: share of the device written, 1..100 */
	uint64_t duration_ns;       /* used: time of the random writes (> 0) */
	uint64_t round_ns;          /* steady: length of one round (> 0) */
	unsigned max_rounds;        /* steady: rounds before giving up, >= the window (5) */
	uint32_t block_bytes;       /* used, steady: random write size (default 4K) */
	unsigned queue_depth;       /* used, steady: queue depth (default 32) */
	uint64_t seed;
};

void r0_age_params_init(enum r0_age_state state, struct r0_age_params *p);

enum r0_age_step_kind {
	R0_AGE_STEP_DISCARD,        /* trim workload: sequential discards */
	R0_AGE_STEP_FILL,           /* 128K sequential writes */
	R0_AGE_STEP_PRECONDITION,   /* 128K sequential writes, R0_AGE_PRECONDITION_PASSES x the span */
	R0_AGE_STEP_RANDOM,         /* random writes for a time (used) */
	R0_AGE_STEP_ROUND,          /* steady: one round, repeated up to max_rounds */
};

struct r0_age_step {
	enum r0_age_step_kind kind;
	struct r0_workload w;
};

/*
 * The workloads a state runs, in order. A span that is not a multiple of
 * the step's block is written exactly: the whole blocks, then one more
 * step with a block of the remainder (a multiple of the logical block
 * size). For steady the last step is the round.
 */
struct r0_age_plan {
	struct r0_age_step steps[R0_AGE_STEPS_MAX];
	size_t n_steps;
	uint64_t span_bytes;        /* the part of the device the state covers */
	uint64_t planned_bytes;     /* bytes the size-based steps write or discard */
};

/*
 * Plans P on a device of DEV_BYTES with logical blocks of LBS bytes.
 * 0, or -EINVAL (parameters out of range, a span smaller than a logical
 * block, a device size that is not a multiple of LBS) with a reason in WHY.
 */
int r0_age_plan(const struct r0_age_params *p, uint64_t dev_bytes, uint32_t lbs,
		struct r0_age_plan *plan, char *why, size_t why_len);

/* "empty", "fill", "used", "steady"; and back (0 or -EINVAL). */
const char *r0_age_state_name(enum r0_age_state s);
int r0_age_parse_state(const char *s, enum r0_age_state *out);


/* A whole percentage 1..100, an optional trailing '%'. 0 or -EINVAL. */
int r0_age_parse_pct(const char *s, unsigned *pct);

/* --- the state record (schema "r0age-state/1") ------------------------- */

#define R0_STATE_SCHEMA "r0age-state/1"
#define R0_STATE_DIR "/run/r0kit/state"

struct r0_state_record {
	enum r0_age_state state;
	bool complete;              /* false: stopped early, the device is between states */
	char device_path[256];
	dev_t devt;
	uint64_t device_bytes;
	struct r0_age_params params;
	time_t started, finished;   /* wall clock, seconds */
	double seconds;             /* monotonic run time */
	uint64_t bytes_written, bytes_discarded;
	/* steady only */
	unsigned rounds;            /* rounds run */
	unsigned steady_round;      /* the round steady state was reached; 0: not reached */
	double round_iops[R0_AGE_ROUNDS_MAX];
	char version[32];           /* r0kit version that wrote it */
};

/*
 * The record as JSON (see r0age(1) for every member). NULL with errno
 * ENOMEM. The caller owns the object (json_object_put).
 */
json_object *r0_state_record_json(const struct r0_state_record *r);

/*
 * Reads a record back: 0, or -EINVAL when O is not an r0age-state/1
 * record (wrong schema, a member missing or of the wrong type).
 */
int r0_state_record_parse(json_object *o, struct r0_state_record *r);

/*
 * Writes REC as DIR/MAJ:MIN.json (DIR and its parents are created, mode
 * 0755), replacing the last record of DEVT atomically (a temporary file
 * and rename). 0 or -errno.
 */
int r0_state_save_dir(const char *dir, dev_t devt, json_object *rec);

/*
 * Reads DIR/MAJ:MIN.json into *REC (the caller puts it). 0; -ENOENT when
 * no record exists; -EINVAL when the file is no r0age-state/1 record;
 * other -errno.
 */
int r0_state_load_dir(const char *dir, dev_t devt, json_object **rec);

/* The same in R0_STATE_DIR, the place r0age, r0bench and r0sweep share. */
int r0_state_save(dev_t devt, json_object *rec);
int r0_state_load(dev_t devt, json_object **rec);

/*
 * The last record of DEVT in DIR read back into *OUT (r0_state_load_dir,
 * then r0_state_record_parse), for a caller that needs its members, not
 * its JSON. 0; -ENOENT, -EINVAL or -errno as those give.
 */
int r0_state_read_dir(const char *dir, dev_t devt, struct r0_state_record *out);
/* The same in R0_STATE_DIR. */
int r0_state_read(dev_t devt, struct r0_state_record *out);

/* R as r0age --json prints it, the same text it is saved as, into *OUT (free()): 0 or -ENOMEM. */
int r0_state_record_text(const struct r0_state_record *r, char **out);

/*
 * DEVT's record removed from DIR: another tool wrote or discarded the
 * device (r0bench's write tests, r0trim), so the state r0age left is no
 * longer what it is, and a label from it would say more than is known.
 * 0 (none there is no error) or -errno.
 */
int r0_state_forget_dir(const char *dir, dev_t devt);
/* The same in R0_STATE_DIR. */
int r0_state_forget(dev_t devt);

/* R saved as the last record of its device (r->devt) in R0_STATE_DIR: 0 or -errno. */
int r0_state_record_save(const struct r0_state_record *r);

/*
 * A device's last record as read, kept whole: for a document that embeds
 * it unchanged (r0bench/1's "state"), written by whichever r0kit saved it.
 */
struct r0_state_saved;

/* R0_STATE_DIR's record of DEVT into *OUT (free with r0_state_saved_free); the returns of r0_state_load. */
int r0_state_saved_load(dev_t devt, struct r0_state_saved **out);
void r0_state_saved_free(struct r0_state_saved *s);

/* Its JSON, which S keeps owning. */
json_object *r0_state_saved_json(const struct r0_state_saved *s);

#endif
