/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks every writing tool makes before it touches a member device. */
#ifndef R0_SAFETY_H
#define R0_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct r0_member_check {
	dev_t devt;                   /* the device, whatever name it was given by */
	uint64_t size_sectors;        /* 512-byte sectors */
	unsigned logical_block_bytes;
	char signature[64];           /* what libblkid found ("" if none) */
};

/*
 * Checks that PATH may be used as an array member (or written by a tool):
 * it exists, is a block device (a whole disk or a partition: RAID0 of two
 * partitions is common), is not mounted, has no mounted partition, is not
 * held by another device (md, dm), can be
 * opened O_EXCL, and holds no signature libblkid knows (file system,
 * partition table, RAID or LVM metadata) unless FORCE. If ALIGN_BYTES is
 * not 0 it must be a multiple of the device's logical block size.
 * Returns 0 and fills *out, or -errno with a reason in WHY for the user
 * ("mounted on /mnt", "holds an ext4 signature (use --force to overwrite)").
 * Nothing is written to the device.
 */
int r0_member_check(const char *path, bool force, uint32_t align_bytes,
		    struct r0_member_check *out, char *why, size_t why_len);

/* Why one member of several may not be used: "" when it may. */
#define R0_MEMBER_WHY_MAX 256
typedef char r0_member_why[R0_MEMBER_WHY_MAX];

/*
 * r0_member_check of every one of the N members PATHS, and no device
 * named twice (by two names: "the same device as /dev/sdb"), so a user
 * hears of every problem at once. OUT[i] and WHY[i] ("" when member i is
 * fine) for each. Returns how many members may not be used (0: all may).
 */
size_t r0_members_check(const char *const *paths, size_t n, bool force, uint32_t align_bytes,
			struct r0_member_check *out, r0_member_why *why);

/*
 * The same checks for a tool that writes to one device (r0bench, r0age),
 * without the alignment, and a device the kernel holds read-only
 * (-EROFS: its first write would fail after the plan and a yes). r0trim takes r0_member_check for its DEVICE and
 * r0_stack_check (r0/trimcheck.h) below it.
 */
int r0_write_check(const char *path, bool force, struct r0_member_check *out, char *why,
		   size_t why_len);

#endif
