// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's file system mode: mkfs, fill, delete, discard and check, per cycle. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>


#include "cli.h"
#include "mountdir.h"
#include "runcmd.h"

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimcheck.h"


#include "trim.h"

/* ------------------------------------------------------------ file system mode */

void fs_unmount(struct run *r)
{
	r0_cli_leave_mount(r->mnt, &r->mounted);
}

int fs_mode(struct run *r, const char *fstype, bool mount_discard, unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_target *t = &r->t;
	bool ext4 = strcmp(fstype, "ext4") == 0;
	char why[512], keep[96], b1[32], b2[32];
	int err;

	close(r->fd);   /* mkfs and mount need the device to themselves */
	r->fd = -1;
	{
		/* without their own discard: only the cycles' discards are counted */
		char *mkfs_ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard", (char *)r->path, NULL };
		char *mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", "-K", (char *)r->path, NULL };

		err = r0_cli_run(ext4 ? mkfs_ext4 : mkfs_xfs, why, sizeof(why));
	}
	if (err) {
		check_line(r, "fs", R0_CHECK_FAIL, "mkfs %s on %s failed: %s", fstype, r->path, why);
		return 1;
	}
	snprintf(r->mnt, sizeof(r->mnt), "/tmp/r0trim.XXXXXX");
	if (!mkdtemp(r->mnt)) {
		r->mnt[0] = '\0';
		check_line(r, "fs", R0_CHECK_FAIL, "cannot make a mount point: %s", strerror(errno));
		return 1;
	}
	if (mount(r->path, r->mnt, fstype, 0, mount_discard ? "discard" : "")) {
		check_line(r, "fs", R0_CHECK_FAIL, "mount %s %s: %s", fstype, r->path, strerror(errno));
		return 1;
	}
	r->mounted = true;
	snprintf(keep, sizeof(keep), "%s/keep", r->mnt);
	if ((err = r0_trim_keep_file(keep, r->seed, true))) {
		check_line(r, "fs", R0_CHECK_FAIL, "cannot write %s: %s", keep, strerror(-err));
		return 1;
	}
	for (unsigned c = 0; c < cycles; c++) {
		struct r0_trim_counters before, after;
		uint64_t share[R0_MAX_MEMBERS] = { 0 }, trimmed = R0_TRIM_NO_FITRIM, bytes = 0, obs = 0, held = 0;
		unsigned count = 0;
		enum r0_check_result v;
		char d[1024], prefix[32];
		size_t off = 0;

		why[0] = '\0';
		/* the files' extents tell what each member holds of them; deleting must discard that */
		snprintf(prefix, sizeof(prefix), "c%u-f", c);
		if ((err = r0_trim_fill_goal(r->mnt, fill_pct, &bytes)) ||
		    (err = r0_trim_write_files(r->mnt, prefix, bytes, r->seed + 1000u * (c + 1), &count,
					       r0_cli_stop_requested)) ||
		    (err = r0_trim_target_map_thin(&r->t, why, sizeof(why))) ||
		    (err = r0_trim_files_share(&t->stack, r->mnt, prefix, count, share)) ||
		    (err = r0_trim_read_counters(t, &before)) ||
		    (err = r0_trim_remove_files(r->mnt, prefix, count)) ||
		    (err = mount_discard ? r0_trim_wait_discards(t, r->mnt, share, &before) :
					   r0_trim_fitrim(r->mnt, &trimmed)) ||
		    (err = r0_trim_read_counters(t, &after))) {
			check_line(r, "fs-cycle", R0_CHECK_FAIL, "%u/%u: %s", c + 1, cycles,
				   err == -EINTR ? "interrupted by a signal" : why[0] ? why : strerror(-err));
			return 1;
		}
		v = r0_trim_judge_fs(t, share, &before, &after, trimmed, ext4, why, sizeof(why));
		err = r0_trim_keep_file(keep, r->seed, false);
		if (err && v != R0_CHECK_FAIL) {
			v = R0_CHECK_FAIL;
			snprintf(why, sizeof(why), "the file kept beside them %s",
				 err == -EILSEQ ? "changed" : "cannot be read");
		}
		for (unsigned i = 0; i < t->n_members; i++) {
			obs += after.leaf_sectors[i] - before.leaf_sectors[i];
			held += share[i];
		}
		off += (size_t)snprintf(d + off, sizeof(d) - off, "%u files, %s deleted; sectors of them/discarded",
					count, sz(held * 512, b1, 32));
		for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
			off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu/%llu",
						t->members[i].chain_kname[t->members[i].depth],
						(unsigned long long)share[i],
						(unsigned long long)(after.leaf_sectors[i] - before.leaf_sectors[i]));
		if (!mount_discard && off < sizeof(d))
			snprintf(d + off, sizeof(d) - off, "; fstrim %s %s, members %s", ext4 ? "trimmed" : "scanned",
				 sz(trimmed, b1, 32), sz(obs * 512, b2, 32));
		check_line(r, "fs-cycle", v, "%u/%u (%s, %s): %s%s%s; kept file %s", c + 1, cycles, fstype,
			   mount_discard ? "mount -o discard" : "fstrim", d, why[0] ? ": " : "", why,
			   err ? "damaged" : "intact");
		if (r->json) {
			struct r0_trim_fs_cycle_doc *o = realloc(r->fs_cycles, (r->n_fs_cycles + 1) * sizeof(*o));

			/* out of memory: the document lacks the cycle, its check line above has it */
			if (o) {
				r->fs_cycles = o;
				o = &r->fs_cycles[r->n_fs_cycles++];
				*o = (struct r0_trim_fs_cycle_doc){
					.cycle = c + 1, .fs = fstype, .mount_discard = mount_discard, .verdict = v,
					.files = count, .fstrim_bytes = trimmed,
				};
				for (unsigned i = 0; i < t->n_members; i++) {
					o->deleted_sectors[i] = share[i];
					o->observed_sectors[i] = after.leaf_sectors[i] - before.leaf_sectors[i];
				}
			}
		}
		if (v == R0_CHECK_OK)
			r->result.delivery_pass++;
	}
	return 0;
}
