/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0trim's parts (tools/trim/): its report and exit statuses, and the file system it makes for --fs. */
#ifndef R0_TOOLS_TRIM_H
#define R0_TOOLS_TRIM_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/trimrun.h"
#include "r0/trimwatchrun.h"

#define PROG "r0trim"

/* A run's ON_LINE on a terminal: one line of progress on stderr, rewritten. */
void show_progress(void *ctx, size_t n_lines, const char *check, enum r0_check_result v);
/* The results once, "check  VERDICT  detail" (not with -J); the progress line cleared. */
void print_results(const struct r0_trim_run *r);
/* The run's verdict as the exit status: PASS 0, FAIL 1, anything not shown 3. */
int trim_exit_status(enum r0_check_result overall);
/*
 * --fs: FSTYPE made on R->path (R->fd closed first), mounted at a new
 * MNT (*MOUNTED), then the file system cycles. 0, or 1 when it stopped.
 */
int fs_mode(struct r0_trim_run *r, char *mnt, size_t mnt_len, bool *mounted, const char *fstype,
	    bool mount_discard, unsigned cycles, unsigned fill_pct);
/* The watch's verdict as the exit status. */
int watch_exit_status(enum r0_watch_verdict v);

#endif
