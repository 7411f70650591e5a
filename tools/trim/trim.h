/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0trim's parts (tools/trim/): the run's state, its output, the checks and the file system mode. */
#ifndef R0_TOOLS_TRIM_H
#define R0_TOOLS_TRIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "r0/trimcheck.h"
#include "r0/trimjson.h"
#include "r0/trimresult.h"

#define PROG "r0trim"

struct run {
	struct r0_trim_target t;
	/* the checks' lines, their tally, the evidence and the verdict: printed once, at the end, as text or JSON */
	struct r0_trim_result result;
	const char *path;
	bool json;
	/* -J: what the document records besides the checks (r0/trimjson.h) */
	struct r0_trim_range_doc ranges[R0_TRIM_MAX_RANGES];
	size_t n_ranges;
	struct r0_trim_cycle_doc *cycles;
	size_t n_cycles;
	struct r0_trim_fs_cycle_doc *fs_cycles;
	size_t n_fs_cycles;
	const char *live_dir, *live_fs;        /* --live: the directory and its file system */
	const char *kernel;                    /* uname's release */
	int fd;
	int member_fd[R0_MAX_MEMBERS];
	uint64_t seed;                         /* of this run's fill pattern: old data never matches it */
	char mnt[64];                          /* fs mode: the temporary mount point */
	bool mounted;
	bool progress;                         /* stderr is a terminal: one line of progress */
};

void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...);
/* The run's verdict as the exit status: PASS 0, FAIL 1, anything not shown 3. */
int trim_exit_status(enum r0_check_result overall);
/* The results as text (not with -J: the document has them); the progress line cleared. */
void print_results(struct run *r);
/* The results and the document's records freed. */
void free_results(struct run *r);
const char *sz(uint64_t bytes, char *buf, size_t len);
void chain_name(const struct r0_trim_member *m, char *buf, size_t len);
void print_header(struct run *r, const char *release);
void check_limits(struct run *r, struct r0_limits_check *lc);
void check_geometry(struct run *r);
int check_quiet(struct run *r);
enum r0_check_result deliver(struct run *r, uint64_t start, uint64_t n, uint64_t eff_gran,
			       struct r0_trim_counts *counts, char *detail, size_t len, int *ioerr);
void effect_detail(const struct r0_trim_effect *e, const struct r0_trim_target *t, char *buf,
			  size_t len);
bool fill_failed(struct run *r, int err, const char *what);
/*
 * What the SCSI bottom devices say of the N pieces X (GET LBA STATUS):
 * an "lba-status" line, WHAT first, and its evidence, when one answered.
 */
void lba_status_line(struct run *r, const char *what, const struct r0_trim_leaf_extent *x, size_t n);
int check_ranges(struct run *r, const struct r0_limits_check *lc, unsigned repeats, bool full_scan);
int raw_cycles(struct run *r, unsigned cycles, unsigned fill_pct);
void fs_unmount(struct run *r);
int fs_mode(struct run *r, const char *fstype, bool mount_discard, unsigned cycles, unsigned fill_pct);
/*
 * --live: DIR on a mounted, writable ext4 or xfs: its type into FSTYPE
 * and its device into *DEV; else -errno (-EOPNOTSUPP, -EROFS,
 * -ENOTDIR...) and WHY: nothing can be shown there.
 */
int live_check_dir(const char *dir, char *fstype, size_t len, dev_t *dev, char *why, size_t why_len);
/* Whether DIR has room for the live check's file and a margin: 0, or -ENOSPC and WHY. */
int live_room(const struct run *r, const char *dir, char *why, size_t why_len);
/* The live check on DIR (live.c): 0, or 1 when it stopped early. */
int live_mode(struct run *r, const char *dir, const char *fstype, bool mount_discard);
/*
 * --watch: WHAT (a block device, or a directory of a mounted file system:
 * its device) as a path to describe, into PATH; else -errno and WHY.
 */
/* FILE for --watch: new, empty or a record file of --watch, else -EINVAL and WHY says what it looks like. */
int watch_check_log(const char *log, char *why, size_t why_len);
int watch_resolve(const char *what, char *path, size_t len, char *why, size_t why_len);
/* --watch (watch.c): one reading appended to LOG and the history judged; the exit status. */
int watch_mode(struct run *r, const char *log, const char *what);
void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
