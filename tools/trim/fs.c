// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim --fs: the file system made and mounted for the cycles (r0_trim_run_fs_cycles). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "runcmd.h"
#include "trim.h"

int fs_mode(struct r0_trim_run *r, char *mnt, size_t mnt_len, bool *mounted, const char *fstype,
	    bool mount_discard, unsigned cycles, unsigned fill_pct)
{
	/* without their own discard: only the cycles' discards are counted */
	char *mkfs_ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard", (char *)r->path, NULL };
	char *mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", "-K", (char *)r->path, NULL };
	char why[512];

	close(r->fd);   /* mkfs and mount need the device to themselves */
	r->fd = -1;
	if (r0_cli_run(strcmp(fstype, "ext4") == 0 ? mkfs_ext4 : mkfs_xfs, why, sizeof(why))) {
		r0_trim_run_line(r, "fs", R0_CHECK_FAIL, "mkfs %s on %s failed: %s", fstype, r->path, why);
		return 1;
	}
	snprintf(mnt, mnt_len, "/tmp/r0trim.XXXXXX");
	if (!mkdtemp(mnt)) {
		mnt[0] = '\0';
		r0_trim_run_line(r, "fs", R0_CHECK_FAIL, "cannot make a mount point: %s", strerror(errno));
		return 1;
	}
	if (mount(r->path, mnt, fstype, 0, mount_discard ? "discard" : "")) {
		r0_trim_run_line(r, "fs", R0_CHECK_FAIL, "mount %s %s: %s", fstype, r->path, strerror(errno));
		return 1;
	}
	*mounted = true;
	return r0_trim_run_fs_cycles(r, mnt, fstype, mount_discard, cycles, fill_pct);
}
