/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal ublk server (Linux ublk_drv, through io_uring): one queue, a
 * thread that fetches requests and commits their results, each possibly
 * at a later time (for a device with a time model). Used by r0ssd.
 */
#ifndef R0_UBLK_H
#define R0_UBLK_H

#include <stdbool.h>
#include <stdint.h>

enum r0_ublk_op {
	R0_UBLK_READ, R0_UBLK_WRITE, R0_UBLK_FLUSH, R0_UBLK_DISCARD,
	R0_UBLK_WRITE_ZEROES, R0_UBLK_OTHER,
};

/* One block request, valid during the handler call. */
struct r0_ublk_req {
	enum r0_ublk_op op;
	bool nounmap;            /* WRITE_ZEROES: the blocks must stay allocated */
	uint64_t offset_bytes;
	uint64_t length_bytes;
	void *buf;               /* READ: fill it; WRITE: the data (length_bytes) */
};

/*
 * Called on the queue thread for each request, with now_ns the arrival
 * time (CLOCK_MONOTONIC). Returns 0 or -errno for the request; *due_ns
 * (preset to now_ns) may be moved later: the request completes then.
 */
typedef int (*r0_ublk_handler)(void *user, const struct r0_ublk_req *rq, uint64_t now_ns,
			       uint64_t *due_ns);

struct r0_ublk_spec {
	uint64_t size_bytes;             /* a multiple of block_bytes */
	uint32_t block_bytes;            /* logical = physical block: 512 ... 4096, a power of two */
	uint32_t queue_depth;            /* 1 ... 1024 */
	uint32_t max_io_bytes;           /* largest request; a multiple of 4096, <= 1 MiB */
	bool discard;                    /* advertise discard and write-zeroes, granularity block_bytes */
	int dev_id;                      /* -1: the driver picks */
	r0_ublk_handler handler;
	void *user;
};

/* Marks the devices r0kit's servers create (in the driver's ublksrv_flags). */
#define R0_UBLK_TAG 0x72306b6974737364ull   /* "r0kitssd" */

/*
 * Adds, configures and starts a device: /dev/ublkbN exists on return
 * (r0_ublk_path). NULL and errno on failure, with what failed in
 * r0_ublk_last_error(); nothing is left behind. Needs ublk_drv and root.
 */
struct r0_ublk *r0_ublk_new(const struct r0_ublk_spec *spec);

/* "/dev/ublkbN" and N. */
const char *r0_ublk_path(const struct r0_ublk *u);
int r0_ublk_id(const struct r0_ublk *u);

/*
 * Requests that failed in the queue thread's own work (a command the
 * driver refused), 0 normally.
 */
uint64_t r0_ublk_errors(const struct r0_ublk *u);

/*
 * Stops the device (the block device goes; requests in flight complete
 * first), ends the queue thread and deletes the device. 0 or -errno
 * (r0_ublk_last_error says which step); u is freed either way.
 */
int r0_ublk_free(struct r0_ublk *u);

/*
 * Devices carrying R0_UBLK_TAG whose server process is gone (killed
 * before it could delete them: /dev/ublkcN stays): deletes them, or only
 * dev_id if >= 0. *n_removed counts them. 0, or -errno of the first
 * failure; -ENOENT if dev_id is not such a device.
 */
int r0_ublk_cleanup(int dev_id, unsigned *n_removed);

/* What the last failing call of this thread did, or "". */
const char *r0_ublk_last_error(void);

#endif
