/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TRIM over repeated use: a history of each bottom device's discard
 * counter (r0trim --watch appends one record a run, e.g. from a daily
 * timer) and what it shows: which device stopped receiving discards while
 * the others did, and how far their shares drift from what the stack's
 * geometry predicts for discards spread over the whole device (fstrim's
 * free space). Pure: the record file (r0/watchfile.h) holds the records.
 */
#ifndef R0_TRIMWATCH_H
#define R0_TRIMWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/geometry.h"
#include "r0/probe.h"

/* One run's reading of the counters. */
struct r0_watch_rec {
	int64_t time;                       /* seconds since the epoch */
	char boot_id[40];                   /* counters start again at every boot */
	unsigned n;                         /* bottom devices */
	char name[R0_MAX_MEMBERS][R0_KNAME_LEN];   /* kernel names, at that boot */
	char serial[R0_MAX_MEMBERS][64];    /* "" where the kernel has none */
	uint64_t sectors[R0_MAX_MEMBERS];   /* discarded sectors since boot (512-byte units) */
};

/*
 * A device that got nothing over intervals in which the geometry gave it
 * at least this many sectors of what the others got (1 MiB) stopped
 * receiving discards.
 */
#define R0_WATCH_STOP_SECTORS 2048
/* Shares are judged once this much was discarded in all (64 MiB) ... */
#define R0_WATCH_MIN_TOTAL_SECTORS (64u << 11)
/* ... and drift when off their predicted share by more than this, relatively. */
#define R0_WATCH_DRIFT_BOUND 0.25

enum r0_watch_verdict {
	R0_WATCH_FIRST,     /* one record (or one per device set): nothing to compare yet */
	R0_WATCH_IDLE,      /* no discard reached any device since the first record */
	R0_WATCH_PASS,      /* every device received its share, within the drift bound */
	R0_WATCH_DRIFT,     /* every device received some, but a share is off the geometry's */
	R0_WATCH_STOPPED,   /* a device got nothing while the others got discards */
};

struct r0_watch_judgement {
	enum r0_watch_verdict verdict;
	size_t first, n_records;            /* the records judged: RECS[first..first + n_records) */
	unsigned n_intervals, boots;        /* intervals judged; reboots among them */
	uint64_t total[R0_MAX_MEMBERS];     /* sectors each got over them (after a reboot: since it) */
	double share[R0_MAX_MEMBERS];       /* of all the devices got */
	int64_t stopped_since[R0_MAX_MEMBERS];   /* STOPPED: the last record after which it got nothing; 0 */
	uint64_t others_since[R0_MAX_MEMBERS];   /* what the others got meanwhile */
};

/* "first record", "no discards", "pass", "drift", "stopped". */
const char *r0_watch_verdict_name(enum r0_watch_verdict v);

/*
 * The verdict as r0trim states it (text and -J): "BASELINE RECORDED" (the
 * first record), "NOT CONCLUSIVE" (no discards), "PASS", "PASS with DRIFT",
 * "FAIL" (stopped).
 */
const char *r0_watch_verdict_label(enum r0_watch_verdict v);

/* Whether V says discards pass (r0trim exits 0): PASS, also with DRIFT. */
bool r0_watch_passes(enum r0_watch_verdict v);

/*
 * Whether SHARE (0 to 1) is more than R0_WATCH_DRIFT_BOUND off PREDICTED,
 * relatively; never for a PREDICTED of 0. What r0_watch_judge calls a
 * drift once R0_WATCH_MIN_TOTAL_SECTORS were discarded in all.
 */
bool r0_watch_share_drifts(double share, double predicted);

/*
 * Judges RECS[0..n) in time order against PREDICTED[0..recs[n-1].n) (the
 * geometry's share of each device, summing to 1). Only the last run of
 * records with the same devices (by serial where both have one, else by
 * name) is judged: a changed array starts a new history. Between records
 * of one boot a device got the rise of its counter; after a reboot at
 * least its count since that boot. 0, or -EINVAL (n 0, device counts
 * differ from PREDICTED's, a bad share).
 */
int r0_watch_judge(const struct r0_watch_rec *recs, size_t n, const double *predicted,
		   struct r0_watch_judgement *out);

#endif
