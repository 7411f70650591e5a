// SPDX-License-Identifier: GPL-2.0-or-later
/* A tool's own temporary mount point: see mountdir.h. */
#include <errno.h>
#include <sys/mount.h>
#include <unistd.h>

#include "mountdir.h"

void r0_cli_leave_mount(char *mnt, bool *mounted)
{
	if (*mounted) {
		sync();
		for (int i = 0; i < 50 && umount(mnt) && errno == EBUSY; i++)
			usleep(100000);
		*mounted = false;
	}
	if (mnt[0]) {
		rmdir(mnt);
		mnt[0] = '\0';
	}
}
