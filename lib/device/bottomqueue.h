/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The request limits of the devices at the bottom of a block device stack (private to lib/). */
#ifndef R0_LIB_BOTTOMQUEUE_H
#define R0_LIB_BOTTOMQUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct r0_bottom_queue {
	uint64_t max_request_bytes;   /* the smallest queue/max_sectors_kb, in bytes */
	uint64_t chunk_bytes;         /* the smallest queue/chunk_sectors of any layer, in
	                               * bytes (a stripe's chunk: md and dm split there);
	                               * UINT64_MAX when no layer has one */
	uint32_t tags;                /* the smallest queue/nr_requests */
	bool through_dm;              /* a device-mapper layer is in the stack */
};

/*
 * Walks DEVT's slaves down to the devices that have none (a partition
 * counts as its disk) and takes the smallest limits among them, the
 * smallest chunk of any layer on the way, and whether any is device-mapper.
 * 0, or -errno when sysfs cannot be read.
 */
int r0_bottom_queue(dev_t devt, struct r0_bottom_queue *q);

#endif
