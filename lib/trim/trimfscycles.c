// SPDX-License-Identifier: GPL-2.0-or-later
/* A TRIM run's file system cycles: files written, deleted and discarded on a fresh file system, each cycle judged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimrun.h"

/*
 * A cycle's numbers into D: COUNT files of SHARE sectors a bottom device
 * deleted, what each counted from BEFORE to AFTER and, without
 * MOUNT_DISCARD, what fstrim said it TRIMMED (EXT4) or scanned (xfs).
 */
static void cycle_numbers(const struct r0_trim_device *t, unsigned count, const uint64_t *share,
			  const struct r0_trim_counters *before, const struct r0_trim_counters *after,
			  bool mount_discard, bool ext4, uint64_t trimmed, char *d, size_t len)
{
	uint64_t obs = 0, held = 0;
	char b1[32], b2[32];
	size_t off = 0;

	for (unsigned i = 0; i < t->n_members; i++) {
		obs += after->leaf_sectors[i] - before->leaf_sectors[i];
		held += share[i];
	}
	off += (size_t)snprintf(d + off, len - off, "%u files, %s deleted; sectors of them/discarded",
				count, r0_trim_exact_size(held * 512, b1, 32));
	for (unsigned i = 0; i < t->n_members && off < len; i++)
		off += (size_t)snprintf(d + off, len - off, " %s %llu/%llu",
					t->members[i].chain_kname[t->members[i].depth],
					(unsigned long long)share[i],
					(unsigned long long)(after->leaf_sectors[i] - before->leaf_sectors[i]));
	if (!mount_discard && off < len)
		snprintf(d + off, len - off, "; fstrim %s %s, members %s", ext4 ? "trimmed" : "scanned",
			 r0_trim_exact_size(trimmed, b1, 32), r0_trim_exact_size(obs * 512, b2, 32));
}

/* The document's record of cycle REC's numbers (-J); out of memory: the check line alone has them. */
static void record_cycle(struct r0_trim_run *r, const struct r0_trim_fs_cycle_doc *rec, const uint64_t *share,
			 const struct r0_trim_counters *before, const struct r0_trim_counters *after)
{
	struct r0_trim_fs_cycle_doc *o = realloc(r->fs_cycles, (r->n_fs_cycles + 1) * sizeof(*o));

	if (!o)
		return;
	r->fs_cycles = o;
	o = &r->fs_cycles[r->n_fs_cycles++];
	*o = *rec;
	for (unsigned i = 0; i < r->t.n_members; i++) {
		o->deleted_sectors[i] = share[i];
		o->observed_sectors[i] = after->leaf_sectors[i] - before->leaf_sectors[i];
	}
}

int r0_trim_run_fs_cycles(struct r0_trim_run *r, const char *mnt, const char *fstype, bool mount_discard,
			  unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_device *t = &r->t;
	bool ext4 = strcmp(fstype, "ext4") == 0;
	char why[512], keep[96];
	int err;

	snprintf(keep, sizeof(keep), "%s/keep", mnt);
	if ((err = r0_trim_keep_file(keep, r->seed, true))) {
		r0_trim_run_line(r, "fs", R0_CHECK_FAIL, "cannot write %s: %s", keep, strerror(-err));
		return 1;
	}
	for (unsigned c = 0; c < cycles; c++) {
		struct r0_trim_counters before, after;
		uint64_t share[R0_MAX_MEMBERS] = { 0 }, trimmed = R0_TRIM_NO_FITRIM, bytes = 0;
		unsigned count = 0;
		enum r0_check_result v;
		char d[1024], prefix[32];

		why[0] = '\0';
		/* the files' extents tell what each member holds of them; deleting must discard that */
		snprintf(prefix, sizeof(prefix), "c%u-f", c);
		if ((err = r0_trim_fill_goal(mnt, fill_pct, &bytes)) ||
		    (err = r0_trim_write_files(mnt, prefix, bytes, r->seed + 1000u * (c + 1), &count,
					       r->stop)) ||
		    (err = r0_trim_device_map_thin(&r->t, why, sizeof(why))) ||
		    (err = r0_trim_files_share(&t->stack, mnt, prefix, count, share)) ||
		    (err = r0_trim_read_counters(t, &before)) ||
		    (err = r0_trim_remove_files(mnt, prefix, count)) ||
		    (err = mount_discard ? r0_trim_wait_discards(t, mnt, share, &before) :
					   r0_trim_fitrim(mnt, &trimmed)) ||
		    (err = r0_trim_read_counters(t, &after))) {
			/* a cycle cut short by a signal shows nothing about discards: no "no" */
			r0_trim_run_line(r, "fs-cycle", err == -EINTR ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_FAIL,
					 "%u/%u: %s", c + 1, cycles,
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
		cycle_numbers(t, count, share, &before, &after, mount_discard, ext4, trimmed, d, sizeof(d));
		r0_trim_run_line(r, "fs-cycle", v, "%u/%u (%s, %s): %s%s%s; kept file %s", c + 1, cycles, fstype,
				 mount_discard ? "mount -o discard" : "fstrim", d, why[0] ? ": " : "", why,
				 err ? "damaged" : "intact");
		if (r->records) {
			const struct r0_trim_fs_cycle_doc rec = {
				.cycle = c + 1, .fs = fstype, .mount_discard = mount_discard, .verdict = v,
				.files = count, .fstrim_bytes = trimmed,
			};

			record_cycle(r, &rec, share, &before, &after);
		}
		if (v == R0_CHECK_OK)
			r->result.delivery_pass++;
	}
	return 0;
}
