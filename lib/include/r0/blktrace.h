/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records the requests of one block device into an r0trace/1 file
 * (r0/trace.h) through the kernel's blktrace interface: the ioctls
 * BLKTRACESETUP, BLKTRACESTART, BLKTRACESTOP and BLKTRACETEARDOWN on the
 * device opened read-only, and struct blk_io_trace records
 * (linux/blktrace_api.h) read from the relay files
 * /sys/kernel/debug/block/NAME/trace<cpu>. Needs CAP_SYS_ADMIN and a
 * kernel with CONFIG_BLK_DEV_IO_TRACE; mounts debugfs on /sys/kernel/debug
 * when it is not mounted there (and unmounts it at the end).
 *
 * What is kept of each event: its time, sector, length and direction;
 * never data, process or command names.
 *
 * Which events. QUEUE always: the bios as their submitter issued them,
 * before an md or dm device splits them at its chunks, which is what
 * makes the classes of a striped array exact. On a bio-based device (md,
 * dm: no mq/ in sysfs) every traced bio is completed and traced exactly
 * once (submit_bio_noacct marks it BIO_TRACE_COMPLETION, bio_endio traces
 * and clears it), so QUEUE and COMPLETE pair up for the queue depth
 * (R0_TRACE_QD_QUEUE). On a request-based disk bios merge into requests
 * and only requests complete, so the pairs are ISSUE and COMPLETE
 * (R0_TRACE_QD_ISSUE); a requeued request counts as completed, since it
 * is issued again.
 */
#ifndef R0_BLKTRACE_H
#define R0_BLKTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "r0/trace.h"

struct r0_blktrace;

/*
 * Starts tracing DEV_PATH into a new trace file TRACE_PATH, keeping at most
 * MAX_BYTES of it (0: no limit; beyond it events are counted, not kept).
 * 0 and *OUT; -ENOTBLK for a path that is not a block device; -EPERM or
 * -EACCES without the privilege; -EBUSY when the device is traced already
 * (another blktrace); -ENOTTY or -ENOENT when the kernel has no blktrace
 * or debugfs; other -errno. Nothing is left set up on failure.
 */
int r0_blktrace_start(const char *dev_path, const char *trace_path, uint64_t max_bytes,
		      struct r0_blktrace **out);

/*
 * Reads what the kernel has recorded and writes the events older than a
 * short margin (the relay files are per CPU: events are put in time order
 * before they are written). Call it often (every 10-100 ms). 0 or -errno.
 */
int r0_blktrace_poll(struct r0_blktrace *bt);

/* The trace file's header (the device's name, size, block size, start). */
const struct r0_trace_header *r0_blktrace_header(const struct r0_blktrace *bt);
/* debugfs was mounted for the trace. */
bool r0_blktrace_mounted_debugfs(const struct r0_blktrace *bt);

/* What a finished recording holds. */
struct r0_blktrace_stats {
	uint64_t events;            /* written */
	uint64_t over_limit;        /* recorded by the kernel but beyond MAX_BYTES */
	uint64_t dropped;           /* lost by the kernel (relay buffers full: debugfs .../dropped) */
	uint64_t torn;              /* records read while the kernel was writing them: lost */
	uint64_t file_bytes;
};

/*
 * Stops the trace, writes what is left and the end record, tears the
 * trace down and frees BT (NULL: 0). STATS may be NULL. 0 or -errno of
 * writing the file; the kernel's trace is torn down either way.
 */
int r0_blktrace_stop(struct r0_blktrace *bt, struct r0_blktrace_stats *stats);

#endif
