/* SPDX-License-Identifier: GPL-2.0-or-later */
/* md's own view of an array, read from its sysfs directory in one place. */
#ifndef R0_MDINFO_H
#define R0_MDINFO_H

#include <stdint.h>
#include <sys/types.h>

#include "r0/geometry.h"

/* One role of the array (Documentation/admin-guide/md.rst, md/rdN). */
struct r0_md_member {
	dev_t devt;                 /* rdN/block/dev */
	uint64_t offset_sectors;    /* rdN/offset: where the member's data starts */
	uint64_t size_kib;          /* rdN/size: KiB used from the offset on */
};

struct r0_md_info {
	char level[16];             /* md/level: "raid0"; "" if unreadable */
	char array_state[16];       /* md/array_state: "clean", "inactive"...; "" if unreadable */
	int64_t chunk_bytes;        /* md/chunk_size; -1 if unreadable */
	int64_t raid_disks;         /* md/raid_disks; -1 if unreadable */
	int64_t layout;             /* md/layout, signed; -1 also when md reports none */
	unsigned n_members;         /* roles 0..n_members-1 read into member[] */
	struct r0_md_member member[R0_MAX_MEMBERS];
	int member_err;             /* 0 when all raid_disks roles were read; else why not
				       (-E2BIG above R0_MAX_MEMBERS, -ENOENT for a missing role) */
	char member_attr[32];       /* the attribute that failed: "rd1/offset" */
};

/*
 * Reads the md attributes of the block device whose sysfs directory is DIR
 * (/sys/block/md0, /sys/dev/block/9:0, or a fake tree in tests). An
 * attribute that cannot be read is left -1 or "" (an inactive array has
 * neither chunk nor roles); a role that cannot be read stops the roles
 * there and sets member_err. 0, -ENOENT when DIR has no md/ (not an md
 * device), -ENAMETOOLONG.
 */
int r0_md_info(const char *dir, struct r0_md_info *info);

#endif
