/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run of r0trim's checks on one device: its's checks (limits,
 * geometry, quiet members, the range set, raw cycles), the file system
 * cycles and the live check on a user's file system (the watch: r0/trimwatchrun.h).
 * Each check adds its line to the run's result (r0/trimresult.h) and,
 * with RECORDS, its record for the document (r0/trimrecords.h). The tool
 * describes, confirms and opens the device, and prints; nothing here
 * prints (but the header, to the stream the tool names) or exits: a line
 * added is told to the tool's ON_LINE.
 */
#ifndef R0_TRIMRUN_H
#define R0_TRIMRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "r0/trimcheck.h"
#include "r0/trimrecords.h"
#include "r0/trimresult.h"

struct r0_trim_run {
	struct r0_trim_device t;
	/* the checks' lines, their tally, the evidence and the verdict */
	struct r0_trim_result result;
	const char *path;                      /* the device checked, as given */
	bool records;                          /* keep the document's records below (-J) */
	struct r0_trim_range_doc ranges[R0_TRIM_MAX_RANGES];
	size_t n_ranges;
	struct r0_trim_cycle_doc *cycles;      /* malloc'ed, as the fs cycles */
	size_t n_cycles;
	struct r0_trim_fs_cycle_doc *fs_cycles;
	size_t n_fs_cycles;
	const char *live_dir, *live_fs;        /* --live: the directory and its file system */
	const char *kernel;                    /* uname's release */
	int fd;                                /* the device, open for writing (O_DIRECT), or -1 */
	int member_fd[R0_MAX_MEMBERS];         /* the bottom devices, read-only, or -1 */
	uint64_t seed;                         /* of this run's fill pattern: old data never matches it */
	bool (*stop)(void);                    /* the tool's: a signal asked to stop (NULL: never) */
	/* the tool's: told each line as it is added (N_LINES so far), e.g. for progress; or NULL */
	void (*on_line)(void *ctx, size_t n_lines, const char *check, enum r0_check_result v);
	void *ctx;
};

/* R empty: no lines, no records, the descriptors -1, and a seed old data never matches. */
void r0_trim_run_init(struct r0_trim_run *r);

/* Adds CHECK's line of verdict V (r0_trim_result_add) and tells ON_LINE. */
void r0_trim_run_line(struct r0_trim_run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the tool's STOP says stop. */
bool r0_trim_run_stopped(const struct r0_trim_run *r);

/* R's descriptors closed, its lines and records freed. */
void r0_trim_run_close(struct r0_trim_run *r);

/*
 * The checks before anything is written to R->path (R->t described by
 * r0_trim_device_describe, DESCRIBED what that gave): what every writer
 * checks (r0_member_check, FORCE: despite a signature), a stack r0trim
 * can follow, a thin pool's map, not read-only. 0, or -errno and WHY:
 * the whole message after the tool's name ("/dev/md0: is read-only ...").
 */
int r0_trim_run_device_ready(struct r0_trim_run *r, int described, bool force, char *why, size_t len);

/* R->path opened exclusively for writing and, unless FS_MODE, the bottom devices read-only: 0 or -errno. */
int r0_trim_run_open(struct r0_trim_run *r, bool fs_mode);

/* A size exactly, as r0_parse_size reads it back: "64K", "1536K", "4G"; else bytes. BUF. */
const char *r0_trim_exact_size(uint64_t bytes, char *buf, size_t len);

/* "r0m1" or "dm-3 (flakey) > r0m1": M's chain down from the top. */
void r0_trim_chain_name(const struct r0_trim_member *m, char *buf, size_t len);

/* The report's header to F: R->path, its layers and bottom devices, as r0trim prints it before its checks. */
void r0_trim_run_write_header(const struct r0_trim_run *r, FILE *f);

/*
 * The verdict line after judging (r0_trim_result_judge): "verdict  PASS
 * discards pass through ..." or why not, without a newline.
 */
void r0_trim_run_verdict_line(const struct r0_trim_run *r, char *buf, size_t len);

/* ------------------------------------------------ the device's checks (trimdevice.c) */

/* The "geometry" and "layout" lines: the stripe model against the kernel, the md zone layout. */
void r0_trim_run_geometry(struct r0_trim_run *r);

/* The "limits" line; LC gets the limits checked (the range set is built on them). */
void r0_trim_run_limits(struct r0_trim_run *r, struct r0_limits_check *lc);

/* The "quiet" line: the counters twice, 0.2 s apart. 0, or -errno when they cannot be read. */
int r0_trim_run_quiet(struct r0_trim_run *r);

/* ------------------------------------------------ discards and what they did (trimdeliver.c) */

/*
 * One discard of top sectors [START, START + N) with the counters read
 * around it; judges every bottom device (EFF_GRAN: the effective
 * granularity, 0 none). The verdict; DETAIL gets the numbers, COUNTS
 * (unless NULL) what each counted, *IOERR the discard's -errno or 0.
 */
enum r0_check_result r0_trim_run_deliver(struct r0_trim_run *r, uint64_t start, uint64_t n, uint64_t eff_gran,
					 struct r0_trim_counts *counts, char *detail, size_t len, int *ioerr);

/* What a read-back showed (r0_trim_verify's E) in words, into BUF. */
void r0_trim_effect_detail(const struct r0_trim_effect *e, const struct r0_trim_device *t, char *buf, size_t len);

/* An "lba-status" line on what the SCSI bottom devices say of the N pieces X, WHAT first, when one answered. */
void r0_trim_run_lba_status(struct r0_trim_run *r, const char *what, const struct r0_trim_leaf_extent *x, size_t n);

/* ------------------------------------------------ the range set and raw cycles (trimranges.c) */

/* The range set: delivery and effect for each, each discard REPEATS times. 0, or 1 when it stopped early. */
int r0_trim_run_ranges(struct r0_trim_run *r, const struct r0_limits_check *lc, unsigned repeats, bool full_scan);

/* --cycles: fill FILL_PCT % of the device, discard it, read back, CYCLES times. 0, or 1 when it stopped. */
int r0_trim_run_cycles(struct r0_trim_run *r, unsigned cycles, unsigned fill_pct);

/* ------------------------------------------------ the file system cycles (trimfscycles.c) */

/*
 * --fs: on FSTYPE freshly made on R->path and mounted at MNT (with -o
 * discard when MOUNT_DISCARD, else FITRIM), a kept file, then CYCLES
 * cycles of files over FILL_PCT %, deleted and discarded. 0, or 1 when
 * it stopped early.
 */
int r0_trim_run_fs_cycles(struct r0_trim_run *r, const char *mnt, const char *fstype, bool mount_discard,
			  unsigned cycles, unsigned fill_pct);

/* ------------------------------------------------ the live check (trimliverun.c) */

/*
 * --live: DIR on a mounted, writable ext4 or xfs: its type into FSTYPE
 * and its device's /dev node into DEV; else -errno (-EOPNOTSUPP, -EROFS,
 * -ENOTDIR...) and WHY: the message after the tool's name ("DIR: ...").
 */
int r0_trim_live_device(const char *dir, char *fstype, size_t fstype_len, char *dev, size_t dev_len, char *why,
			size_t why_len);

/*
 * --live: R->t (described: DESCRIBED what that gave, DESCRIBED_WHY its
 * reason) followed to its bottom devices, and room in DIR for the test
 * file. 0, or -errno and WHY: the message after the tool's name.
 */
int r0_trim_live_ready(struct r0_trim_run *r, int described, const char *described_why, const char *dir,
		       char *why, size_t len);

/* The live check on DIR (FSTYPE; MOUNT_DISCARD: the mount discards, no FITRIM). 0, or 1 when it stopped early. */
int r0_trim_run_live(struct r0_trim_run *r, const char *dir, const char *fstype, bool mount_discard);

#endif
