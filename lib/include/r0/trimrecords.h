/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a TRIM run records besides its check lines, for its r0trim/1
 * document (r0/trimjson.h): each range, each raw cycle, each file system
 * cycle. Filled by the run's checks (r0/trimrun.h); no code of its own.
 */
#ifndef R0_TRIMRECORDS_H
#define R0_TRIMRECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "r0/trimcheck.h"

#define R0_TRIM_SCHEMA "r0trim/1"

/*
 * What the bottom devices counted of one discard (r0_trim_judge_range's
 * results, one a bottom device); COUNTED false when the counters could not
 * be read or judged: the document then has no member for it.
 */
struct r0_trim_counts {
	bool counted;
	struct r0_trim_member_result member[R0_MAX_MEMBERS];
};

/* One range of the range checks. */
struct r0_trim_range_doc {
	char name[48];                 /* r0_trim_range's: "one chunk", "whole device" ... */
	uint64_t start_bytes, length_bytes;
	bool smaller_than_granularity;
	enum r0_check_result delivery; /* the worst over its repeats */
	unsigned repeats;
	struct r0_trim_counts counts;  /* of the first discard */
	bool has_effect;               /* the read-back ran: EFFECT holds it */
	struct r0_trim_effect effect;
};

/* One cycle of fill, discard and read-back on the raw device (--cycles). */
struct r0_trim_cycle_doc {
	unsigned cycle;                /* from 1 */
	enum r0_check_result verdict;
	uint64_t start_bytes, length_bytes;
	struct r0_trim_counts counts;
	struct r0_trim_effect effect;
};

/* One file system cycle (--fs): files written, deleted and discarded. */
struct r0_trim_fs_cycle_doc {
	unsigned cycle;                /* from 1 */
	const char *fs;                /* "ext4", "xfs" */
	bool mount_discard;            /* mount -o discard, else FITRIM */
	enum r0_check_result verdict;
	unsigned files;
	uint64_t fstrim_bytes;         /* what FITRIM said it trimmed (not written with MOUNT_DISCARD) */
	uint64_t deleted_sectors[R0_MAX_MEMBERS];    /* of the deleted files, per bottom device */
	uint64_t observed_sectors[R0_MAX_MEMBERS];   /* discarded, as each counted */
};

#endif
