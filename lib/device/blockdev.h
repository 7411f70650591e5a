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

/* BLKDISCARD of [OFFSET_BYTES, OFFSET_BYTES + LEN_BYTES) on FD. 0 or -errno. */
int r0_blockdev_discard(int fd, uint64_t offset_bytes, uint64_t len_bytes);

#endif
