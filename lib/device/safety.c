// SPDX-License-Identifier: GPL-2.0-or-later
/* Member checks before writing: a block device or a partition, not mounted
 * or held (r0/probe.h), opened O_EXCL, with no signature (libblkid) unless
 * forced. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "blockdev.h"
#include "r0/probe.h"
#include "r0/safety.h"

/* The device as probe saw it: in nobody else's use. */
static int check_device(const char *path, struct r0_member_check *out, char *why, size_t len)
{
	struct r0_device dev;
	int err = r0_probe_device(path, &dev);

	if (err) {
		snprintf(why, len, "%s", err == -ENOENT ? "no such device" :
			 err == -ENOTBLK ? "not a block device" : strerror(-err));
		return err;
	}
	out->devt = dev.devt;
	if (r0_device_is_busy(&dev, why, len)) {
		if (dev.holders.count && !dev.mounted)
			strncat(why, " (already in an array or under device-mapper)", len - strlen(why) - 1);
		err = -EBUSY;
	}
	r0_device_free(&dev);
	return err;
}

static int check(const char *path, bool force, bool writes, uint32_t align_bytes, struct r0_member_check *out,
		 char *why, size_t why_len)
{
	uint64_t bytes;
	unsigned lbs;
	int fd, err, ro = 0;

	memset(out, 0, sizeof(*out));
	if ((err = check_device(path, out, why, why_len)))
		return err;
	/* O_EXCL on a block device fails while anyone else claims it (swap, a program) */
	fd = r0_blockdev_open_exclusive(path, O_RDONLY);
	if (fd < 0) {
		err = fd;
		snprintf(why, why_len, "cannot open exclusively: %s%s", strerror(-err),
			 err == -EBUSY ? " (in use)" : "");
		return err;
	}
	if ((err = r0_blockdev_size(fd, &bytes, &lbs, NULL))) {
		snprintf(why, why_len, "cannot read its size: %s", strerror(-err));
		goto out;
	}
	out->size_sectors = bytes / 512;
	out->logical_block_bytes = lbs;
	/* the kernel's read-only flag: a write would fail at its first request, after the plan and a yes */
	if (writes && !ioctl(fd, BLKROGET, &ro) && ro) {
		snprintf(why, why_len, "is read-only (blockdev --setro, or a write-protected device)");
		err = -EROFS;
		goto out;
	}
	if (align_bytes && align_bytes % lbs) {
		snprintf(why, why_len, "chunk of %u bytes is not a multiple of its %u-byte logical blocks",
			 align_bytes, lbs);
		err = -EINVAL;
		goto out;
	}
	err = r0_probe_signature(fd, out->signature, sizeof(out->signature));
	if (err) {
		snprintf(why, why_len, "cannot probe for signatures: %s", strerror(-err));
		goto out;
	}
	if (out->signature[0] && !force) {
		snprintf(why, why_len, "holds a%s %s signature (use --force to overwrite)",
			 strchr("aeiou", out->signature[0]) ? "n" : "", out->signature);
		err = -EEXIST;
	}
out:
	close(fd);
	return err;
}

int r0_member_check(const char *path, bool force, uint32_t align_bytes,
		    struct r0_member_check *out, char *why, size_t why_len)
{
	return check(path, force, false, align_bytes, out, why, why_len);
}

size_t r0_members_check(const char *const *paths, size_t n, bool force, uint32_t align_bytes,
			struct r0_member_check *out, r0_member_why *why)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		why[i][0] = '\0';
		if (check(paths[i], force, false, align_bytes, &out[i], why[i], sizeof(why[i]))) {
			if (!why[i][0])
				snprintf(why[i], sizeof(why[i]), "cannot be used");
			bad++;
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (!why[j][0] && out[j].devt && out[j].devt == out[i].devt) {
				snprintf(why[i], sizeof(why[i]), "the same device as %s", paths[j]);
				bad++;
				break;
			}
	}
	return bad;
}

int r0_write_check(const char *path, bool force, struct r0_member_check *out, char *why,
		   size_t why_len)
{
	return check(path, force, true, 0, out, why, why_len);
}
