/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: small readers and a writer for sysfs attribute files. */
#ifndef R0_SYSFS_H
#define R0_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Reads a file into BUF with trailing newlines and spaces cut; 0 or -errno. */
int r0_sysfs_read(const char *path, char *buf, size_t len);
/* A decimal unsigned value; -EINVAL if the file holds anything else. */
int r0_sysfs_read_u64(const char *path, uint64_t *v);
/* A "MAJ:MIN" file (sysfs dev); -EINVAL for anything else. */
int r0_sysfs_read_devt(const char *path, dev_t *devt);
/* Writes VALUE whole; 0 or -errno. */
int r0_sysfs_write(const char *path, const char *value);

/* DEVT's queue/ATTR into PATH, a partition's from its disk; 0 or -ENAMETOOLONG. */
int r0_sysfs_queue_path(dev_t devt, const char *attr, char *path, size_t len);

/* snprintf into a path buffer; -ENAMETOOLONG instead of a truncated path. */
int r0_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
