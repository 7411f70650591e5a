// SPDX-License-Identifier: GPL-2.0-or-later
/* What array.c and the md and dm back ends share: the last error, list building, the busy retry. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>

#include "array_backend.h"
#include "lasterror.h"
#include "mounts.h"

const char *r0_array_last_error(void)
{
	return r0_last_error();
}

int r0_array_list_add(struct r0_array **list, size_t *count, const struct r0_array *a)
{
	struct r0_array *l = realloc(*list, (*count + 1) * sizeof(**list));

	if (!l)
		return -ENOMEM;
	l[*count] = *a;
	*list = l;
	(*count)++;
	return 0;
}

int r0_array_retry_busy(int (*op)(void *arg), void *arg)
{
	struct timespec ts = { 0, R0_ARRAY_BUSY_WAIT_MS * 1000000L };
	int err = op(arg);

	for (int i = 1; i < R0_ARRAY_BUSY_TRIES && err == -EBUSY; i++) {
		nanosleep(&ts, NULL);
		err = op(arg);
	}
	return err;
}

int r0_array_release_scratch(const struct r0_array *a)
{
	struct r0_mountinfo_entry *m;
	size_t n, prefix = strlen(R0_SCRATCH_MOUNT_PREFIX);
	int err = r0_mountinfo_read(NULL, &m, &n), done = 0;

	if (err)
		return err;
	/* anything but r0kit's own scratch mount is the user's: leave it all */
	for (size_t i = 0; i < n; i++)
		if (m[i].devt == a->devt && strncmp(m[i].mount_point, R0_SCRATCH_MOUNT_PREFIX, prefix))
			err = -EBUSY;
	for (size_t i = 0; i < n && !err; i++) {
		if (m[i].devt != a->devt)
			continue;
		if (umount(m[i].mount_point)) {
			err = -errno;
			r0_set_last_error("umount %s: %s", m[i].mount_point, strerror(errno));
			break;
		}
		rmdir(m[i].mount_point);
		done++;
	}
	r0_mountinfo_free(m, n);
	return err ? err : done;
}
