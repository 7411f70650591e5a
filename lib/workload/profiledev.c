// SPDX-License-Identifier: GPL-2.0-or-later
/* Finds a profiled device's counters and request size limit in sysfs, never opening the device. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/profile.h"
#include "sysfs.h"

/* The devices DIR holds (its slaves/ entries). */
static unsigned count_slaves(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	if (r0_path(path, sizeof(path), "%s/slaves", dir) || !(d = opendir(path)))
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * A striped array splits every request at its chunk, and its own counters
 * count the pieces: md raid0 and raid10 say their chunk in md/; dm-stripe
 * says it only as its queue's minimum I/O size, with the optimal size the
 * chunk times its members (what r0/geometry.h's arrays set too).
 */
static void stripe_of(const char *dir, const char *queue_dir, struct r0_profile_dev *out)
{
	char path[PATH_MAX], level[32];
	uint64_t min_io = 0, opt_io = 0, chunk = 0;
	unsigned n = count_slaves(dir);

	if (n < 2)
		return;
	if (!r0_path(path, sizeof(path), "%s/md/level", dir) && !r0_sysfs_read(path, level, sizeof(level))) {
		if ((!strncmp(level, "raid0", 5) || !strncmp(level, "raid10", 6)) &&
		    !r0_path(path, sizeof(path), "%s/md/chunk_size", dir) && !r0_sysfs_read_u64(path, &chunk))
			out->stripe_chunk_bytes = chunk;
		out->stripe_members = out->stripe_chunk_bytes ? n : 0;
		return;
	}
	if (strncmp(out->kname, "dm-", 3) ||
	    r0_path(path, sizeof(path), "%s/minimum_io_size", queue_dir) || r0_sysfs_read_u64(path, &min_io) ||
	    r0_path(path, sizeof(path), "%s/optimal_io_size", queue_dir) || r0_sysfs_read_u64(path, &opt_io))
		return;
	if (min_io > 4096 && opt_io == min_io * n) {
		out->stripe_chunk_bytes = min_io;
		out->stripe_members = n;
	}
}

int r0_profile_dev_resolve(const char *path, const struct r0_probe_env *env,
			   struct r0_profile_dev *out)
{
	const char *root = env && env->sysfs_root ? env->sysfs_root : "/sys";
	char dir[PATH_MAX], link[PATH_MAX], attr[PATH_MAX], queue[PATH_MAX];
	struct stat st;
	uint64_t v;
	ssize_t n;
	int err;

	memset(out, 0, sizeof(*out));
	/* stat follows symlinks (/dev/disk/by-id/..., /dev/mapper/...); no open, no I/O */
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	out->devt = st.st_rdev;
	if ((err = r0_path(dir, sizeof(dir), "%s/dev/block/%u:%u", root, major(st.st_rdev), minor(st.st_rdev))))
		return err;
	/* the link's last component is the kernel name: nullb0, md127, dm-0, sda1 */
	n = readlink(dir, link, sizeof(link) - 1);
	if (n < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	link[n] = '\0';
	if (strlen(basename(link)) >= sizeof(out->kname))
		return -ENAMETOOLONG;
	snprintf(out->kname, sizeof(out->kname), "%s", basename(link));
	if ((err = r0_path(attr, sizeof(attr), "%s/stat", dir)))
		return err;
	if (access(attr, R_OK))
		return -ENODEV;
	/* a partition has no queue/ of its own: its disk's is one level up */
	if ((err = r0_path(attr, sizeof(attr), "%s/queue", dir)))
		return err;
	if (access(attr, F_OK) && (err = r0_path(attr, sizeof(attr), "%s/../queue", dir)))
		return err;
	if ((err = r0_path(queue, sizeof(queue), "%s/max_sectors_kb", attr)))
		return err;
	if (!r0_sysfs_read_u64(queue, &v))
		out->max_request_bytes = v * 1024;
	/* Documentation/ABI/stable/sysfs-block: iostats 0 turns the counters off */
	if ((err = r0_path(queue, sizeof(queue), "%s/iostats", attr)))
		return err;
	out->no_iostats = !r0_sysfs_read_u64(queue, &v) && v == 0;
	stripe_of(dir, attr, out);
	return 0;
}
