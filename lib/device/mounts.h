/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: the lines of a mountinfo file, parsed. */
#ifndef R0_MOUNTS_H
#define R0_MOUNTS_H

#include <stddef.h>
#include <sys/types.h>

struct r0_mountinfo_entry {
	dev_t devt;          /* field 3, "major:minor" */
	char *mount_point;   /* field 5, octal escapes undone */
	char *fstype;        /* first field after " - " */
};

/* Parses PATH (NULL: /proc/self/mountinfo) with libmount; malformed lines are skipped. 0 or -errno. */
int r0_mountinfo_read(const char *path, struct r0_mountinfo_entry **out, size_t *count);
void r0_mountinfo_free(struct r0_mountinfo_entry *e, size_t count);

#endif
