// SPDX-License-Identifier: GPL-2.0-or-later
/* md raid0 back end: superblock-less arrays through the kernel md ioctls. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/major.h>
#include <linux/raid/md_p.h>
#include <linux/raid/md_u.h>

#include "array_backend.h"
#include "r0/mdinfo.h"

#define NEW_ARRAY "/sys/module/md_mod/parameters/new_array"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* devtmpfs adds the node when md_alloc adds the disk; make it where /dev is static. */
static int md_node(const char *kname, char *path, size_t len)
{
	char sys[128];
	dev_t devt;
	int i, err;

	snprintf(path, len, "/dev/%s", kname);
	for (i = 0; i < 50; i++) {
		if (access(path, F_OK) == 0)
			return 0;
		sleep_ms(20);
	}
	snprintf(sys, sizeof(sys), "/sys/block/%s/dev", kname);
	err = r0_sysfs_read_devt(sys, &devt);
	if (err)
		return err;
	if (mknod(path, S_IFBLK | 0600, devt) && errno != EEXIST)
		return -errno;
	return 0;
}

static int md_ioctl(int fd, unsigned long req, void *arg, const char *what)
{
	if (ioctl(fd, req, arg) == 0)
		return 0;
	int err = -errno;
	r0_set_last_error("md %s: %s", what, strerror(-err));
	return err;
}

/* Stops an array (active or only configured); md frees it on last close. One try. */
static int md_stop_fd(int fd)
{
	return ioctl(fd, STOP_ARRAY, NULL) ? -errno : 0;
}

/* STOP_ARRAY, for r0_array_retry_busy: EBUSY right after RUN_ARRAY can be a transient opener (udev) */
static int md_stop_call(void *arg)
{
	return md_stop_fd(*(int *)arg);
}


int r0_md_create(const struct r0_array_spec *spec, struct r0_array *out)
{
	mdu_array_info_t info;
	char kname[64], path[96], sys[160], buf[32];
	int fd = -1, err, configured = 0;
	unsigned i;

	snprintf(kname, sizeof(kname), R0_MD_PREFIX "%s", spec->name);
	if (access(NEW_ARRAY, F_OK) != 0) {
		r0_set_last_error("this kernel has no md (load md_mod and raid0)");
		return -ENODEV;
	}
	if (access(NEW_ARRAY, W_OK) != 0) {
		r0_set_last_error("building an md array needs root");
		return -EACCES;
	}
	err = r0_sysfs_write(NEW_ARRAY, kname);
	if (err) {
		r0_set_last_error("md new_array %s: %s", kname, strerror(-err));
		return err;
	}
	/* from here on the md device exists and must be stopped on failure */
	err = md_node(kname, path, sizeof(path));
	if (err) {
		r0_set_last_error("md %s: no device node: %s", kname, strerror(-err));
		goto fail;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		r0_set_last_error("md open %s: %s", path, strerror(-err));
		goto fail;
	}

	/* as `mdadm --build` does: no superblock, all members active and in sync */
	memset(&info, 0, sizeof(info));
	info.level = 0;
	info.raid_disks = info.nr_disks = (int)spec->n_members;
	info.active_disks = info.working_disks = (int)spec->n_members;
	info.not_persistent = 1;
	info.state = 1 << MD_SB_CLEAN;
	info.chunk_size = (int)spec->chunk_bytes;
	err = md_ioctl(fd, SET_ARRAY_INFO, &info, "SET_ARRAY_INFO");
	if (err)
		goto fail;
	configured = 1;

	/*
	 * set_array_info() ignores the layout for raid0 ("Cannot trust RAID0
	 * layout info here"), so it goes through sysfs, which md accepts
	 * until the array runs.
	 */
	if (spec->md_layout) {
		snprintf(sys, sizeof(sys), "/sys/block/%s/md/layout", kname);
		snprintf(buf, sizeof(buf), "%d", (int)spec->md_layout);
		err = r0_sysfs_write(sys, buf);
		if (err) {
			r0_set_last_error("md %s: set layout %s: %s", kname, buf, strerror(-err));
			goto fail;
		}
	}

	for (i = 0; i < spec->n_members; i++) {
		mdu_disk_info_t disk;

		memset(&disk, 0, sizeof(disk));
		disk.number = disk.raid_disk = (int)i;
		disk.state = (1 << MD_DISK_SYNC) | (1 << MD_DISK_ACTIVE);
		disk.major = (int)major(spec->members[i]);
		disk.minor = (int)minor(spec->members[i]);
		snprintf(buf, sizeof(buf), "ADD_NEW_DISK %d:%d", disk.major, disk.minor);
		err = md_ioctl(fd, ADD_NEW_DISK, &disk, buf);
		if (err)
			goto fail;
	}
	err = md_ioctl(fd, RUN_ARRAY, NULL, "RUN_ARRAY");
	if (err)
		goto fail;
	close(fd);
	fd = -1;

	err = r0_md_describe(kname, out);
	if (err || !out->active) {
		r0_set_last_error("md %s: not found after RUN_ARRAY", kname);
		err = err ? err : -ENOENT;
		goto fail_found;
	}
	return 0;

fail_found:
	fd = open(path, O_RDWR | O_CLOEXEC);
fail:
	if (fd >= 0) {
		/* STOP_ARRAY also releases the members already added */
		if (r0_array_retry_busy(md_stop_call, &fd) && !configured) {
			snprintf(sys, sizeof(sys), "/sys/block/%s/md/array_state", kname);
			r0_sysfs_write(sys, "clear");
		}
		close(fd);
	} else {
		snprintf(sys, sizeof(sys), "/sys/block/%s/md/array_state", kname);
		r0_sysfs_write(sys, "clear");
	}
	return err;
}

int r0_md_remove(const struct r0_array *a)
{
	char node[96];
	int fd, err;

	err = md_node(a->kname, node, sizeof(node));
	if (err)
		return err;
	/* O_EXCL fails with EBUSY while the array is mounted or held (array.c tries again) */
	fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		r0_set_last_error("open %s: %s", a->path, strerror(-err));
		return err;
	}
	err = md_stop_fd(fd);
	if (err)
		r0_set_last_error("md STOP_ARRAY %s: %s", a->path, strerror(-err));
	close(fd);
	if (err)
		return err;
	/*
	 * The disk and its node go away in md's workqueue: wait, up to 5 s as
	 * mdadm's stop does, so a list or a test right after is true (2 s ran
	 * out once on a busy CI host under TCG).
	 */
	char sys[128];
	snprintf(sys, sizeof(sys), "/sys/block/%s", a->kname);
	for (int i = 0; i < 250 && (access(sys, F_OK) == 0 || access(a->path, F_OK) == 0); i++)
		sleep_ms(20);
	return 0;
}

/* Fills *a from sysfs for md_r0-NAME (only name and device if inactive). */
int r0_md_describe(const char *kname, struct r0_array *a)
{
	char dir[128], path[160];
	struct r0_md_info mi;
	int err;

	memset(a, 0, sizeof(*a));
	if (strlen(kname) >= sizeof(a->kname))
		return -ENAMETOOLONG;   /* not one of ours: md names are < 32 */
	a->backend = R0_BACKEND_MD;
	a->open_count = -1;
	snprintf(a->name, sizeof(a->name), "%s", kname + strlen(R0_MD_PREFIX));
	snprintf(a->kname, sizeof(a->kname), "%.63s", kname);
	snprintf(a->path, sizeof(a->path), "/dev/%.63s", kname);

	snprintf(dir, sizeof(dir), "/sys/block/%.63s", kname);
	snprintf(path, sizeof(path), "%s/dev", dir);
	if ((err = r0_sysfs_read_devt(path, &a->devt)))
		return err;
	/* a half-built array (killed before RUN_ARRAY) is listed so it can be removed */
	if (r0_md_info(dir, &mi) || !mi.array_state[0])
		return 0;
	a->active = strcmp(mi.array_state, "clean") == 0 || strcmp(mi.array_state, "active") == 0 ||
		    strcmp(mi.array_state, "readonly") == 0 || strcmp(mi.array_state, "read-auto") == 0;
	if (!a->active)
		return 0;
	snprintf(path, sizeof(path), "%s/size", dir);
	if ((err = r0_sysfs_read_u64(path, &a->size_sectors)))
		return err;
	if (mi.chunk_bytes < 0)
		return -EIO;
	if (mi.member_err)
		return mi.member_err;
	a->chunk_bytes = (uint32_t)mi.chunk_bytes;
	a->md_layout = mi.layout > 0 ? (int)mi.layout : 0;
	a->n_members = mi.n_members;
	for (unsigned i = 0; i < mi.n_members; i++)
		a->members[i] = mi.member[i].devt;
	return 0;
}

int r0_md_names(int (*fn)(const char *name, void *arg), void *arg)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d)))
		err = fn(e->d_name, arg);
	closedir(d);
	return err;
}
