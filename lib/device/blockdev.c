// SPDX-License-Identifier: GPL-2.0-or-later
/* The block-device ioctls of linux/fs.h (size, block sizes, discard) and the exclusive open, for the whole library. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <time.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include "blockdev.h"

int r0_blockdev_size(int fd, uint64_t *bytes, unsigned *logical_block_bytes,
		     unsigned *physical_block_bytes)
{
	uint64_t b;
	int lbs, pbs = 0;   /* the ioctls take int and unsigned int (block/ioctl.c) */

	if (ioctl(fd, BLKGETSIZE64, &b) || ioctl(fd, BLKSSZGET, &lbs) ||
	    (physical_block_bytes && ioctl(fd, BLKPBSZGET, &pbs)))
		return -errno;
	*bytes = b;
	*logical_block_bytes = (unsigned)lbs;
	if (physical_block_bytes)
		*physical_block_bytes = (unsigned)pbs;
	return 0;
}

int r0_blockdev_discard(int fd, uint64_t offset_bytes, uint64_t len_bytes)
{
	uint64_t range[2] = { offset_bytes, len_bytes };

	return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
}

int r0_blockdev_open_exclusive(const char *path, int flags)
{
	long wait_ms = 20, waited_ms = 0;
	int fd;

	for (;;) {
		fd = open(path, flags | O_EXCL | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != EBUSY || waited_ms >= 3000)
			return -errno;
		nanosleep(&(struct timespec){ .tv_nsec = wait_ms * 1000000L }, NULL);
		waited_ms += wait_ms;
		if (wait_ms < 320)
			wait_ms *= 2;
	}
}
