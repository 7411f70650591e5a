/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0ssd's counters as key=value lines, one a line: what r0ssd --stats FILE
 * holds (rewritten whole every interval, on SIGUSR1 and at exit) and what
 * it says on stderr when it stops. Readers take a key's line (sed -n
 * 's/^KEY=//p'): seq= tells one writing from the next.
 *
 * The keys, in order: pid, device, state ("running", "stopped",
 * "failed"), seq, page_bytes, logical_pages, pages_per_block,
 * physical_blocks, spare_percent, spare_effective_percent,
 * spare_with_reserve_percent (%.2f), requests, failed_requests,
 * host_write_pages, host_read_pages, host_trim_pages,
 * flash_program_pages, gc_copy_pages, erases, gc_runs, gc_stall_ms
 * (%.3f), free_blocks, mapped_pages, waf (%.4f: flash programs / host
 * writes since the start), server_errors.
 */
#ifndef R0_FTLSTATS_H
#define R0_FTLSTATS_H

#include <stdint.h>
#include <stdio.h>

#include "r0/ftl.h"

/* One writing of the counters. */
struct r0_ftl_stats_file {
	int pid;                        /* the serving process */
	const char *device;             /* /dev/ublkbN */
	const char *state;              /* "running", "stopped" or "failed" */
	unsigned seq;                   /* the writings before this one */
	struct r0_ftl_stats stats;      /* the model's (r0_ftl_get_stats) */
	double spare_pct;               /* as asked (--spare) */
	double spare_effective_pct;     /* whole blocks (r0_ftl_spare_effective) */
	double spare_reserve_pct;       /* the same with the reserve block */
	uint64_t requests, failed_requests;   /* the requests the model served, and failed */
	uint64_t server_errors;         /* what the ublk server failed besides */
};

/* The lines of R into F. 0, or -EIO when F reports a write error. */
int r0_ftl_stats_file_write(FILE *f, const struct r0_ftl_stats_file *r);

/*
 * The lines of R into PATH, whole: written to PATH.tmp, then renamed over
 * PATH, so a reader never sees half of them. 0 or -errno (PATH.tmp removed
 * again); -ENAMETOOLONG when PATH.tmp is longer than PATH_MAX; -EISDIR or
 * -EINVAL when PATH is there and is a directory or not a regular file.
 */
int r0_ftl_stats_file_save(const char *path, const struct r0_ftl_stats_file *r);

#endif
