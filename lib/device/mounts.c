// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which device numbers are mounted where: /proc/self/mountinfo (proc(5)),
 * read by util-linux's libmount, which undoes the kernel's octal escapes and
 * knows the format's optional fields as findmnt does.
 */
#include <errno.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/probe.h"
#include "mounts.h"
#include "grow.h"

void r0_mountinfo_free(struct r0_mountinfo_entry *e, size_t count)
{
	for (size_t i = 0; e && i < count; i++) {
		free(e[i].mount_point);
		free(e[i].fstype);
	}
	free(e);
}

/* A line libmount could not parse is skipped (1), as findmnt does. */
static int skip_bad_line(struct libmnt_table *tb, const char *file, int line)
{
	(void)tb;
	(void)file;
	(void)line;
	return 1;
}

/* TB's entries into *OUT: 0 or -ENOMEM. */
static int collect(struct libmnt_table *tb, struct r0_mountinfo_entry **out, size_t *count)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct r0_mountinfo_entry *v = NULL;
	struct libmnt_fs *fs;
	size_t n = 0, cap = 0;
	int err = it ? 0 : -ENOMEM;

	while (!err && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs), *type = mnt_fs_get_fstype(fs);

		if (!target || !type)
			continue;
		if (r0_grow(&v, &cap, n, sizeof(*v), 32)) {
			err = -ENOMEM;
			break;
		}
		v[n] = (struct r0_mountinfo_entry){ .devt = mnt_fs_get_devno(fs), .mount_point = strdup(target),
						    .fstype = strdup(type) };
		n++;
		if (!v[n - 1].mount_point || !v[n - 1].fstype)
			err = -ENOMEM;
	}
	mnt_free_iter(it);
	if (err) {
		r0_mountinfo_free(v, n);
		return err;
	}
	*out = v;
	*count = n;
	return 0;
}

int r0_mountinfo_read(const char *path, struct r0_mountinfo_entry **out, size_t *count)
{
	const char *file = path ? path : "/proc/self/mountinfo";
	struct libmnt_table *tb;
	int err;
	FILE *f;

	*out = NULL;
	*count = 0;
	/* opened here, so a missing or unreadable file says why (errno) */
	if (!(f = fopen(file, "re")))
		return -errno;
	if (!(tb = mnt_new_table())) {
		fclose(f);
		return -ENOMEM;
	}
	mnt_table_set_parser_errcb(tb, skip_bad_line);
	err = mnt_table_parse_stream(tb, f, file);
	fclose(f);
	if (!err)
		err = collect(tb, out, count);
	mnt_unref_table(tb);
	return err < 0 ? err : err ? -EIO : 0;
}

int r0_devt_mounted(dev_t devt, const char *mountinfo, char *where, size_t len)
{
	struct r0_mountinfo_entry *e;
	size_t n, i;
	int err = r0_mountinfo_read(mountinfo, &e, &n);

	if (err)
		return err;
	for (i = 0; i < n && e[i].devt != devt; i++)
		;
	if (i < n && len)
		snprintf(where, len, "%s", e[i].mount_point);
	r0_mountinfo_free(e, n);
	return i < n;
}
