/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: the block-device ioctls of linux/fs.h the library issues, in one place. */
#ifndef R0_BLOCKDEV_H
#define R0_BLOCKDEV_H

#include <stdint.h>

/*
 * BLKGETSIZE64, BLKSSZGET and (if PHYSICAL_BLOCK_BYTES is not NULL)
 * BLKPBSZGET of the open block device FD. 0 or -errno.
 */
int r0_blockdev_size(int fd, uint64_t *bytes, unsigned *logical_block_bytes,
		     unsigned *physical_block_bytes);

/*
 * open(PATH, FLAGS | O_EXCL | O_CLOEXEC): the fd or -errno. EBUSY is tried
 * again for up to about 3 s, as mdadm does: a partition rescan (udev's after
 * another program closed the device from writing, blockdev --rereadpt)
 * claims a disk for a moment, and a device free a moment later is not "in
 * use". A lasting claim (mounted, in an array, a program's) is still -EBUSY.
 */
int r0_blockdev_open_exclusive(const char *path, int flags);

/* BLKDISCARD of [OFFSET_BYTES, OFFSET_BYTES + LEN_BYTES) on FD. 0 or -errno. */
int r0_blockdev_discard(int fd, uint64_t offset_bytes, uint64_t len_bytes);

#endif
