// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim --live's decisions, apart from its I/O (r0/trimlive.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimlive.h"

#define EXT4_MAGIC 0xEF53
#define XFS_MAGIC 0x58465342

/* The file systems one names by mistake, by statfs's f_type (linux/magic.h; zfs's from OpenZFS) */
static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{ 0x01021994, "tmpfs" }, { 0x858458f6, "ramfs" }, { 0x9fa0, "proc" }, { 0x62656572, "sysfs" },
	{ 0x1cd1, "devpts" }, { 0x794c7630, "overlay" }, { 0x6969, "nfs" }, { 0xff534d42, "cifs" },
	{ 0xfe534d42, "smb2" }, { 0x9123683e, "btrfs" }, { 0x2fc12fc1, "zfs" }, { 0xf2f52010, "f2fs" },
	{ 0x4d44, "vfat" }, { 0x2011bab0, "exfat" }, { 0x65735546, "fuse" }, { 0x73717368, "squashfs" },
	{ 0x27e0eb, "cgroup" }, { 0x63677270, "cgroup2" }, { 0x958458f6, "hugetlbfs" },
	{ 0x64626720, "debugfs" }, { 0x01021997, "9p" }, { 0x5346414f, "afs" }, { 0x00c36400, "ceph" },
	{ 0xe0f5e1e2, "erofs" }, { 0x9660, "iso9660" },
};

const char *r0_trim_live_fs(unsigned long magic)
{
	return magic == EXT4_MAGIC ? "ext4" : magic == XFS_MAGIC ? "xfs" : NULL;
}

void r0_trim_fs_magic_name(unsigned long magic, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++)
		if (fs_names[i].magic == (magic & 0xffffffffUL)) {
			snprintf(buf, len, "%s", fs_names[i].name);
			return;
		}
	snprintf(buf, len, "one it does not know (file system magic 0x%lx)", magic);
}

uint64_t r0_trim_live_file_bytes(const struct r0_trim_device *t)
{
	uint64_t b = 8ull * t->unit_bytes * (t->n_members ? t->n_members : 1);

	b = b < R0_TRIM_LIVE_MIN_BYTES ? R0_TRIM_LIVE_MIN_BYTES : b > R0_TRIM_LIVE_MAX_BYTES ? R0_TRIM_LIVE_MAX_BYTES : b;
	return b >> 20 << 20;
}

uint64_t r0_trim_live_room_bytes(const struct r0_trim_device *t)
{
	return 2 * r0_trim_live_file_bytes(t) + R0_TRIM_LIVE_MARGIN_BYTES;
}

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

size_t r0_trim_top_ranges(const struct r0_trim_leaf_extent *x, size_t n, uint64_t (*rg)[2])
{
	size_t m = 0, w = 0;

	for (size_t k = 0; k < n; k++) {
		rg[m][0] = x[k].top_start_sector;
		rg[m++][1] = x[k].top_start_sector + x[k].n_sectors;
	}
	qsort(rg, m, sizeof(*rg), cmp_range);
	for (size_t k = 0; k < m; k++)
		if (w && rg[k][0] <= rg[w - 1][1])
			rg[w - 1][1] = rg[k][1] > rg[w - 1][1] ? rg[k][1] : rg[w - 1][1];
		else {
			rg[w][0] = rg[k][0];
			rg[w++][1] = rg[k][1];
		}
	return w;
}

void r0_trim_live_effect(unsigned n, const uint64_t *ok, const uint64_t *bad, const uint64_t *unchecked,
			 const struct r0_trim_counters *before, const struct r0_trim_counters *later,
			 struct r0_trim_effect *e, bool *reused)
{
	memset(e, 0, sizeof(*e));
	e->first_bad_sector = -1;
	e->first_bad_member = -1;
	e->first_bad_member_direct = -1;
	*reused = false;
	for (unsigned i = 0; i < n; i++) {
		e->leaf_discarded_ok[i] = ok[i];
		e->leaf_discarded_bad[i] = bad[i];
		e->member_discarded_ok += ok[i];
		e->member_discarded_bad += bad[i];
		e->unchecked += unchecked[i];
		/* the file system may have written there again since: then a wrong block says nothing */
		*reused |= bad[i] && later->leaf_writes[i] != before->leaf_writes[i];
	}
	e->verdict = e->member_discarded_bad ? (*reused ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_FAIL) :
		     e->member_discarded_ok ? R0_CHECK_OK : R0_CHECK_NOT_CHECKABLE;
}
