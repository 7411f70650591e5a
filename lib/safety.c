// SPDX-License-Identifier: GPL-2.0-or-later
/* Member checks before writing: block device, whole disk, not mounted or
 * held, exclusive open, no signature (libblkid) unless forced. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "r0/probe.h"
#include "r0/safety.h"

static int read_devt(const char *path, dev_t *devt)
{
	FILE *f = fopen(path, "re");
	unsigned maj, min;
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return -EINVAL;
	*devt = makedev(maj, min);
	return 0;
}

/* First entry of SYSDIR/holders, or "" (holders: Documentation/ABI/testing/sysfs-block). */
static void first_holder(const char *sysdir, char *name, size_t len)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	name[0] = '\0';
	snprintf(path, sizeof(path), "%s/holders", sysdir);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(name, len, "%s", e->d_name);
			break;
		}
	closedir(d);
}

/* Partitions of the disk at SYSDIR: mounted or held is a refusal. */
static int check_partitions(const char *sysdir, char *why, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(sysdir);
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		char part[512], holder[256], where[256];
		dev_t pdev = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(part, sizeof(part), "%s/%s/partition", sysdir, e->d_name);
		if (access(part, F_OK) != 0)
			continue;
		snprintf(part, sizeof(part), "%s/%s/dev", sysdir, e->d_name);
		if (read_devt(part, &pdev))
			continue;
		if (r0_devt_mounted(pdev, NULL, where, sizeof(where)) == 1) {
			snprintf(why, len, "its partition %s is mounted on %s", e->d_name, where);
			err = -EBUSY;
			break;
		}
		snprintf(part, sizeof(part), "%s/%s", sysdir, e->d_name);
		first_holder(part, holder, sizeof(holder));
		if (holder[0]) {
			snprintf(why, len, "its partition %s is held by %s", e->d_name, holder);
			err = -EBUSY;
		}
	}
	closedir(d);
	return err;
}

int r0_member_check(const char *path, bool force, uint32_t align_bytes,
		    struct r0_member_check *out, char *why, size_t why_len)
{
	char sysdir[128], probe[160], where[256], holder[256];
	struct stat st;
	uint64_t bytes;
	int fd, err, lbs;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st)) {
		err = -errno;
		snprintf(why, why_len, "%s", err == -ENOENT ? "no such device" : strerror(-err));
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, why_len, "not a block device");
		return -ENOTBLK;
	}
	out->devt = st.st_rdev;
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	snprintf(probe, sizeof(probe), "%s/partition", sysdir);
	if (access(probe, F_OK) == 0) {
		snprintf(why, why_len, "is a partition (r0kit stripes whole devices)");
		return -EINVAL;
	}
	err = r0_devt_mounted(st.st_rdev, NULL, where, sizeof(where));
	if (err < 0) {
		snprintf(why, why_len, "cannot read /proc/self/mountinfo: %s", strerror(-err));
		return err;
	}
	if (err == 1) {
		snprintf(why, why_len, "mounted on %s", where);
		return -EBUSY;
	}
	first_holder(sysdir, holder, sizeof(holder));
	if (holder[0]) {
		snprintf(why, why_len, "held by %s (already in an array or under device-mapper)", holder);
		return -EBUSY;
	}
	if ((err = check_partitions(sysdir, why, why_len)))
		return err;

	/* O_EXCL on a block device fails while anyone else claims it */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, why_len, "cannot open exclusively: %s%s", strerror(-err),
			 err == -EBUSY ? " (in use)" : "");
		return err;
	}
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		err = -errno;
		snprintf(why, why_len, "cannot read its size: %s", strerror(-err));
		goto out;
	}
	out->size_sectors = bytes / 512;
	out->logical_block_bytes = (unsigned)lbs;
	if (align_bytes && align_bytes % (unsigned)lbs) {
		snprintf(why, why_len, "chunk of %u bytes is not a multiple of its %d-byte logical blocks",
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
