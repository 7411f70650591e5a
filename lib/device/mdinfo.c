// SPDX-License-Identifier: GPL-2.0-or-later
/* r0/mdinfo.h: md's sysfs attributes (Documentation/admin-guide/md.rst), parsed once for md.c, probe.c and trimdescribe.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "r0/mdinfo.h"
#include "sysfs.h"

/* DIR/md/NAME as text; "" when it cannot be read. */
static void md_str(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (r0_path(path, sizeof(path), "%s/md/%s", dir, name) || r0_sysfs_read(path, buf, len))
		buf[0] = '\0';
}

/* DIR/md/NAME as a number (md/layout may be -1); -1 when unreadable. */
static int64_t md_num(const char *dir, const char *name)
{
	char buf[32], *end;
	long long v;

	md_str(dir, name, buf, sizeof(buf));
	if (!buf[0])
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : (int64_t)v;
}

static int read_role(const char *dir, unsigned i, struct r0_md_member *m, char *attr, size_t len)
{
	char path[PATH_MAX];
	int err;

	snprintf(attr, len, "rd%u/offset", i);
	if ((err = r0_path(path, sizeof(path), "%s/md/%s", dir, attr)) ||
	    (err = r0_sysfs_read_u64(path, &m->offset_sectors)))
		return err;
	snprintf(attr, len, "rd%u/size", i);
	if ((err = r0_path(path, sizeof(path), "%s/md/%s", dir, attr)) ||
	    (err = r0_sysfs_read_u64(path, &m->size_kib)))
		return err;
	snprintf(attr, len, "rd%u/block/dev", i);
	if ((err = r0_path(path, sizeof(path), "%s/md/%s", dir, attr)) ||
	    (err = r0_sysfs_read_devt(path, &m->devt)))
		return err;
	attr[0] = '\0';
	return 0;
}

int r0_md_info(const char *dir, struct r0_md_info *info)
{
	char path[PATH_MAX];
	struct stat st;

	memset(info, 0, sizeof(*info));
	if (r0_path(path, sizeof(path), "%s/md", dir))
		return -ENAMETOOLONG;
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return -ENOENT;
	md_str(dir, "level", info->level, sizeof(info->level));
	md_str(dir, "array_state", info->array_state, sizeof(info->array_state));
	info->chunk_bytes = md_num(dir, "chunk_size");
	info->raid_disks = md_num(dir, "raid_disks");
	info->layout = md_num(dir, "layout");
	if (info->raid_disks < 0) {
		info->member_err = -ENODATA;
		snprintf(info->member_attr, sizeof(info->member_attr), "raid_disks");
		return 0;
	}
	if (info->raid_disks > R0_MAX_MEMBERS) {
		info->member_err = -E2BIG;
		return 0;
	}
	for (unsigned i = 0; i < (unsigned)info->raid_disks; i++) {
		info->member_err = read_role(dir, i, &info->member[i], info->member_attr,
					     sizeof(info->member_attr));
		if (info->member_err)
			break;
		info->n_members++;
	}
	return 0;
}
