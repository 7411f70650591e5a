// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device description from sysfs (Documentation/ABI/stable/sysfs-block,
 * Documentation/ABI/testing/sysfs-block) and mountinfo, found by device
 * number through /sys/dev/block/MAJ:MIN; the busy check writers share;
 * the stat counters (Documentation/block/stat.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/mdinfo.h"
#include "r0/probe.h"
#include "mounts.h"
#include "sysfs.h"

static const char *sysfs_root(const struct r0_probe_env *env)
{
	return env && env->sysfs_root ? env->sysfs_root : "/sys";
}

static const char *mountinfo_path(const struct r0_probe_env *env)
{
	return env ? env->mountinfo_path : NULL;
}

/* DIR/NAME as text with blanks trimmed at both ends; "" if it cannot be read. */
static void attr_str(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], tmp[256], *p, *end;

	buf[0] = '\0';
	if (r0_path(path, sizeof(path), "%s/%s", dir, name) || r0_sysfs_read(path, tmp, sizeof(tmp)))
		return;
	for (p = tmp; *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
	snprintf(buf, len, "%s", p);
}

/*
 * A SCSI or SATA disk's serial from its Unit Serial Number VPD page
 * (device/vpd_pg80: a 4-byte header, byte 3 the length, then ASCII), the
 * one sysfs place libata's serial appears; "" if there is none.
 */
static void vpd_serial(const char *disk, char *buf, size_t len)
{
	char path[PATH_MAX];
	unsigned char raw[256];
	ssize_t n = -1;
	size_t start = 4, end;
	FILE *f;

	buf[0] = '\0';
	if (r0_path(path, sizeof(path), "%s/device/vpd_pg80", disk) || !(f = fopen(path, "re")))
		return;
	n = (ssize_t)fread(raw, 1, sizeof(raw), f);
	fclose(f);
	if (n < 5 || raw[1] != 0x80)
		return;
	end = 4 + (size_t)raw[3] < (size_t)n ? 4 + (size_t)raw[3] : (size_t)n;
	while (start < end && raw[start] == ' ')
		start++;
	while (end > start && (raw[end - 1] == ' ' || raw[end - 1] == '\0'))
		end--;
	snprintf(buf, len, "%.*s", (int)(end - start), (const char *)raw + start);
}

/* DIR/NAME as an unsigned number; -1 if missing or not a number. */
static int64_t attr(const char *dir, const char *name)
{
	char buf[64], *end;
	unsigned long long u;

	attr_str(dir, name, buf, sizeof(buf));
	if (!buf[0] || buf[0] == '-')
		return -1;
	errno = 0;
	u = strtoull(buf, &end, 10);
	return errno || *end || u > INT64_MAX ? -1 : (int64_t)u;
}

/* DIR/dev: the device number a sysfs block directory stands for. */
static int read_devt(const char *dir, dev_t *devt)
{
	char path[PATH_MAX];

	if (r0_path(path, sizeof(path), "%s/dev", dir))
		return -ENAMETOOLONG;
	return r0_sysfs_read_devt(path, devt);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return r0_path(path, sizeof(path), "%s/%s", dir, name) == 0 && access(path, F_OK) == 0;
}

/* Copies a kernel name whose length the caller has checked against R0_KNAME_LEN. */
static void set_kname(char dst[R0_KNAME_LEN], const char *src)
{
	size_t n = strnlen(src, R0_KNAME_LEN - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int names_cmp(const void *a, const void *b)
{
	return strverscmp(a, b);
}

static int names_add(struct r0_names *l, const char *name)
{
	char (*v)[R0_KNAME_LEN];

	if (strlen(name) >= R0_KNAME_LEN)
		return -ENAMETOOLONG;
	v = realloc(l->name, (l->count + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->name = v;
	set_kname(l->name[l->count++], name);
	return 0;
}

static void names_free(struct r0_names *l)
{
	free(l->name);
	l->name = NULL;
	l->count = 0;
}

/* The entries of DIR/SUB (holders/, slaves/: one symlink per device); none if it is missing. */
static int list_names(const char *dir, const char *sub, struct r0_names *out)
{
	char path[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d;

	if (r0_path(path, sizeof(path), "%s/%s", dir, sub))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (e = readdir(d)))
		if (e->d_name[0] != '.')
			err = names_add(out, e->d_name);
	closedir(d);
	if (!err && out->count > 1)
		qsort(out->name, out->count, sizeof(*out->name), names_cmp);
	return err;
}

static int part_cmp(const void *a, const void *b)
{
	return strverscmp(((const struct r0_partition *)a)->kname,
			  ((const struct r0_partition *)b)->kname);
}

/* A whole disk's partitions: the subdirectories of its sysfs directory DIR that hold "partition". */
static int probe_partitions(const char *dir, struct r0_device *out)
{
	struct r0_partition *v, *p;
	char sub[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		int64_t num;

		if (e->d_name[0] == '.' || r0_path(sub, sizeof(sub), "%s/%s", dir, e->d_name) ||
		    !exists(sub, "partition"))
			continue;
		if (strlen(e->d_name) >= R0_KNAME_LEN) {
			err = -ENAMETOOLONG;
			break;
		}
		v = realloc(out->partitions, (out->nr_partitions + 1) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			break;
		}
		out->partitions = v;
		p = &v[out->nr_partitions++];
		memset(p, 0, sizeof(*p));
		set_kname(p->kname, e->d_name);
		if ((err = read_devt(sub, &p->devt)))
			break;
		num = attr(sub, "partition");
		p->number = num > 0 && num <= UINT_MAX ? (unsigned)num : 0;
		num = attr(sub, "start");
		p->start_sectors = num > 0 ? (uint64_t)num : 0;
		num = attr(sub, "size");
		p->size_bytes = num > 0 ? (uint64_t)num * 512 : 0;
		err = list_names(sub, "holders", &p->holders);
	}
	closedir(d);
	if (!err && out->nr_partitions > 1)
		qsort(out->partitions, out->nr_partitions, sizeof(*out->partitions), part_cmp);
	return err;
}

static int add_mount(struct r0_device *out, const char *kname, const struct r0_mountinfo_entry *e)
{
	struct r0_mount *v = realloc(out->mounts, (out->nr_mounts + 1) * sizeof(*v)), *m;

	if (!v)
		return -ENOMEM;
	out->mounts = v;
	m = &v[out->nr_mounts];
	memset(m, 0, sizeof(*m));
	set_kname(m->kname, kname);
	m->devt = e->devt;
	m->mount_point = strdup(e->mount_point);
	m->fstype = strdup(e->fstype);
	if (!m->mount_point || !m->fstype) {
		free(m->mount_point);
		free(m->fstype);
		return -ENOMEM;
	}
	out->nr_mounts++;
	return 0;
}

/* Mounts of the device first, then of its partitions in partition order. */
static int probe_mounts(const char *mountinfo, struct r0_device *out)
{
	struct r0_mountinfo_entry *e;
	size_t n, i, k;
	int err = r0_mountinfo_read(mountinfo, &e, &n);

	if (err)
		return err;
	for (i = 0; !err && i < n; i++)
		if (e[i].devt == out->devt) {
			out->mounted = true;
			err = add_mount(out, out->kname, &e[i]);
		}
	for (k = 0; !err && k < out->nr_partitions; k++)
		for (i = 0; !err && i < n; i++)
			if (e[i].devt == out->partitions[k].devt) {
				out->partition_mounted = true;
				err = add_mount(out, out->partitions[k].kname, &e[i]);
			}
	r0_mountinfo_free(e, n);
	return err;
}

void r0_device_free(struct r0_device *dev)
{
	size_t i;

	if (!dev)
		return;
	names_free(&dev->holders);
	names_free(&dev->slaves);
	for (i = 0; i < dev->nr_partitions; i++)
		names_free(&dev->partitions[i].holders);
	free(dev->partitions);
	for (i = 0; i < dev->nr_mounts; i++) {
		free(dev->mounts[i].mount_point);
		free(dev->mounts[i].fstype);
	}
	free(dev->mounts);
	memset(dev, 0, sizeof(*dev));
}

/* Everything in sysfs directory DIR of DEVT; DISK is DIR or, for a partition, its disk's. */
static int probe_sysfs(const char *dir, const char *disk, struct r0_device *out)
{
	struct r0_md_info md;
	char q[PATH_MAX];
	int64_t v;
	int err;

	if ((err = r0_path(q, sizeof(q), "%s/queue", disk)))
		return err;
	v = attr(dir, "size");
	if (v < 0)
		return -ENODEV;   /* every block device has "size" */
	out->size_bytes = (uint64_t)v * 512;
	out->read_only = attr(dir, "ro");
	out->removable = attr(disk, "removable");

	/* a partition has no queue/ of its own: its disk's limits apply */
	out->logical_block_size_bytes = attr(q, "logical_block_size");
	out->physical_block_size_bytes = attr(q, "physical_block_size");
	out->minimum_io_size_bytes = attr(q, "minimum_io_size");
	out->optimal_io_size_bytes = attr(q, "optimal_io_size");
	out->rotational = attr(q, "rotational");
	out->nr_requests = attr(q, "nr_requests");
	out->max_sectors_kib = attr(q, "max_sectors_kb");
	out->max_hw_sectors_kib = attr(q, "max_hw_sectors_kb");
	out->discard_granularity_bytes = attr(q, "discard_granularity");
	out->discard_max_bytes = attr(q, "discard_max_bytes");
	out->discard_max_hw_bytes = attr(q, "discard_max_hw_bytes");
	out->write_zeroes_max_bytes = attr(q, "write_zeroes_max_bytes");
	out->discard_alignment_bytes = attr(dir, "discard_alignment");

	attr_str(disk, "device/model", out->model, sizeof(out->model));
	attr_str(disk, "serial", out->serial, sizeof(out->serial));
	if (!out->serial[0])
		attr_str(disk, "device/serial", out->serial, sizeof(out->serial));
	if (!out->serial[0])
		vpd_serial(disk, out->serial, sizeof(out->serial));

	out->md_chunk_size_bytes = out->md_raid_disks = out->md_layout = -1;
	out->is_md = r0_md_info(dir, &md) == 0;
	if (out->is_md) {
		snprintf(out->md_level, sizeof(out->md_level), "%s", md.level);
		out->md_chunk_size_bytes = md.chunk_bytes;
		out->md_raid_disks = md.raid_disks;
		out->md_layout = md.layout;
	}
	out->is_dm = exists(dir, "dm");
	if (out->is_dm) {
		attr_str(dir, "dm/name", out->dm_name, sizeof(out->dm_name));
		attr_str(dir, "dm/uuid", out->dm_uuid, sizeof(out->dm_uuid));
	}

	if ((err = list_names(dir, "holders", &out->holders)) ||
	    (err = list_names(dir, "slaves", &out->slaves)))
		return err;
	return out->is_partition ? 0 : probe_partitions(dir, out);
}

int r0_probe_devt(dev_t devt, const struct r0_probe_env *env, struct r0_device *out)
{
	char link[PATH_MAX], dir[PATH_MAX], disk[PATH_MAX], *slash;
	int64_t v;
	int err;

	memset(out, 0, sizeof(*out));
	out->devt = devt;
	out->start_sectors = -1;
	if ((err = r0_path(link, sizeof(link), "%s/dev/block/%u:%u", sysfs_root(env),
			   major(devt), minor(devt))))
		goto fail;
	if (!realpath(link, dir)) {
		err = errno == ENOENT ? -ENODEV : -errno;
		goto fail;
	}
	slash = strrchr(dir, '/');
	if (!slash || strlen(slash + 1) >= R0_KNAME_LEN) {
		err = -ENAMETOOLONG;
		goto fail;
	}
	set_kname(out->kname, slash + 1);
	memcpy(disk, dir, sizeof(disk));

	out->is_partition = exists(dir, "partition");
	if (out->is_partition) {
		/* a partition's directory sits inside its disk's */
		disk[slash - dir] = '\0';
		slash = strrchr(disk, '/');
		if (!slash || strlen(slash + 1) >= R0_KNAME_LEN) {
			err = -ENAMETOOLONG;
			goto fail;
		}
		set_kname(out->parent, slash + 1);
		v = attr(dir, "partition");
		out->partition_number = v > 0 && v <= UINT_MAX ? (unsigned)v : 0;
		out->start_sectors = attr(dir, "start");
	}
	if ((err = probe_sysfs(dir, disk, out)) || (err = probe_mounts(mountinfo_path(env), out)))
		goto fail;
	return 0;
fail:
	r0_device_free(out);
	return err;
}

int r0_probe_device(const char *path, struct r0_device *out)
{
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return r0_probe_devt(st.st_rdev, NULL, out);
}

bool r0_device_is_busy(const struct r0_device *dev, char *why, size_t len)
{
	return r0_device_is_busy_beside(dev, NULL, why, len);
}

/* NAME is one of the space-separated words of LIST. */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

bool r0_device_is_busy_beside(const struct r0_device *dev, const char *holder, char *why, size_t len)
{
	size_t i;

	if (len)
		why[0] = '\0';
	for (i = 0; i < dev->nr_mounts; i++)
		if (dev->mounts[i].devt == dev->devt) {
			snprintf(why, len, "mounted on %s", dev->mounts[i].mount_point);
			return true;
		}
	for (i = 0; i < dev->holders.count; i++) {
		if (holder && (!strcmp(holder, R0_ANY_HOLDER) || in_list(holder, dev->holders.name[i])))
			continue;
		if (holder)
			snprintf(why, len, "also held by %s", dev->holders.name[i]);
		else
			snprintf(why, len, "held by %s%s", dev->holders.name[0],
				 dev->holders.count > 1 ? " and others" : "");
		return true;
	}
	for (i = 0; i < dev->nr_mounts; i++)
		if (dev->mounts[i].devt != dev->devt) {
			snprintf(why, len, "its partition %s is mounted on %s", dev->mounts[i].kname,
				 dev->mounts[i].mount_point);
			return true;
		}
	for (i = 0; i < dev->nr_partitions; i++)
		if (dev->partitions[i].holders.count &&
		    !(holder && in_list(holder, dev->partitions[i].kname))) {
			snprintf(why, len, "its partition %s is held by %s", dev->partitions[i].kname,
				 dev->partitions[i].holders.name[0]);
			return true;
		}
	return false;
}

struct disk_entry {
	char n[R0_KNAME_LEN];
	dev_t d;
};

static int disk_cmp(const void *a, const void *b)
{
	return strverscmp(((const struct disk_entry *)a)->n, ((const struct disk_entry *)b)->n);
}

int r0_probe_list_disks(const struct r0_probe_env *env, unsigned flags,
			dev_t **devts, size_t *count)
{
	struct disk_entry *v = NULL, *nv;
	char path[PATH_MAX], sub[PATH_MAX];
	struct dirent *e;
	size_t n = 0, i;
	int err = 0;
	DIR *d;

	*devts = NULL;
	*count = 0;
	if ((err = r0_path(path, sizeof(path), "%s/block", sysfs_root(env))))
		return err;
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d))) {
		dev_t devt;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= R0_KNAME_LEN ||
		    r0_path(sub, sizeof(sub), "%s/%s", path, e->d_name) || read_devt(sub, &devt))
			continue;
		/* brd ram disks, and devices with nothing behind them (loop, zram, nbd) */
		if (!(flags & R0_LIST_ALL) && (strncmp(e->d_name, "ram", 3) == 0 || attr(sub, "size") <= 0))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			err = -ENOMEM;
			break;
		}
		v = nv;
		set_kname(v[n].n, e->d_name);
		v[n++].d = devt;
	}
	closedir(d);
	if (!err && n) {
		qsort(v, n, sizeof(*v), disk_cmp);
		*devts = malloc(n * sizeof(**devts));
		if (!*devts)
			err = -ENOMEM;
		for (i = 0; !err && i < n; i++)
			(*devts)[i] = v[i].d;
		if (!err)
			*count = n;
	}
	free(v);
	return err;
}

int r0_blockstat_parse(const char *line, struct r0_blockstat *out)
{
	uint64_t f[17] = { 0 };
	const char *p = line;
	char *end;
	unsigned n = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		uint64_t v = strtoull(p, &end, 10);
		if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\n'))
			return -EINVAL;
		if (n < 17)
			f[n] = v;
		n++;
		p = end;
	}
	if (*p == '\n' && p[1])
		return -EINVAL;
	/* 11 fields before 4.18, 15 with discards, 17 with flushes (5.5); more: a later kernel */
	if (n != 11 && n != 15 && n < 17)
		return -EINVAL;
	*out = (struct r0_blockstat){
		.nr_fields = n > 17 ? 17 : n,
		.reads = f[0], .reads_merged = f[1], .read_sectors = f[2], .read_ticks_ms = f[3],
		.writes = f[4], .writes_merged = f[5], .write_sectors = f[6], .write_ticks_ms = f[7],
		.in_flight = f[8], .io_ticks_ms = f[9], .time_in_queue_ms = f[10],
		.discards = f[11], .discards_merged = f[12], .discard_sectors = f[13],
		.discard_ticks_ms = f[14], .flushes = f[15], .flush_ticks_ms = f[16],
	};
	return 0;
}

static int read_stat_file(const char *path, struct r0_blockstat *out)
{
	char buf[1024];
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = r0_sysfs_read(path, buf, sizeof(buf))))
		return err;
	return r0_blockstat_parse(buf, out);
}

int r0_read_stat(const char *kname, const struct r0_probe_env *env, struct r0_blockstat *out)
{
	char path[PATH_MAX];
	int err;

	memset(out, 0, sizeof(*out));
	if (!kname[0] || strchr(kname, '/') || strcmp(kname, "..") == 0 || strcmp(kname, ".") == 0)
		return -EINVAL;
	if ((err = r0_path(path, sizeof(path), "%s/class/block/%s/stat", sysfs_root(env), kname)))
		return err;
	return read_stat_file(path, out);
}

int r0_read_stat_devt(dev_t devt, const struct r0_probe_env *env, struct r0_blockstat *out)
{
	char path[PATH_MAX];
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = r0_path(path, sizeof(path), "%s/dev/block/%u:%u/stat", sysfs_root(env),
			   major(devt), minor(devt))))
		return err;
	return read_stat_file(path, out);
}

static bool is_node_of(const char *path, dev_t devt)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == devt;
}

int r0_devt_node(dev_t devt, char *path, size_t len)
{
	char sys[64], target[PATH_MAX];
	const char *kname;
	ssize_t n;
	int err;

	if ((err = r0_path(path, len, "/dev/block/%u:%u", major(devt), minor(devt))))
		return err;
	if (is_node_of(path, devt))
		return 0;
	if ((err = r0_path(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(devt), minor(devt))))
		return err;
	n = readlink(sys, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	kname = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if ((err = r0_path(path, len, "/dev/%s", kname)))
		return err;
	return is_node_of(path, devt) ? 0 : -ENOENT;
}
