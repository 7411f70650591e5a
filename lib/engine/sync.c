// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Requests a job issues itself, one at a time, without a ring: at queue
 * depth 1 (no polling, no submission thread) each read or write is a
 * pread/pwrite (r0_engine_is_sync), and discards go through
 * r0_io_file_discard (BLKDISCARD, a file: a punched hole), since liburing
 * 2.3 and Debian 12's headers have no asynchronous discard.
 */
#include <stdint.h>

#include "r0/clock.h"
#include "r0/engine.h"
#include "job.h"

/* Queue depth 1 without a ring: every request carried by the job (r0_ring_carry_one). */
void r0_sync_run(struct job *j)
{
	uint64_t now = r0_now_ns();

	while (more_to_issue(j, now)) {
		cpu_window(j, now, false);
		now = r0_ring_carry_one(j);
	}
	cpu_window(j, now, true);
}

/* Discards, each timed from just before r0_io_file_discard to just after it returns. */
void r0_sync_trims(struct job *j)
{
	const struct r0_workload *w = j->sh->w;
	uint64_t now = r0_now_ns(), off, t;
	int err;

	while (more_to_issue(j, now)) {
		cpu_window(j, now, false);
		off = next_offset(j);
		j->issued_bytes += w->block_bytes;
		t = r0_now_ns();
		err = r0_io_file_discard(j->sh->t, off, w->block_bytes);
		now = r0_now_ns();
		if (err) {
			record_error(j, R0_OP_TRIM, off, w->block_bytes, -err);
		} else {
			j->res.moved_bytes[R0_OP_TRIM] += w->block_bytes;
			record_done(j, R0_OP_TRIM, w->block_bytes, t, now);
		}
	}
	cpu_window(j, now, true);
}
