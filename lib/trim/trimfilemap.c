// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h: where a file's data lies on the bottom devices, from
 * its extents (FIEMAP, Documentation/filesystems/fiemap.rst) composed down
 * the stack (r0/trimstack.h): what a file system's discard of it must reach.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "r0/trimcheck.h"

int r0_trim_file_extents(const struct r0_trim_stack *s, int fd, struct r0_trim_leaf_extent **out,
			 size_t *count)
{
	enum { BATCH = 64 };
	struct fiemap *fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	struct r0_trim_leaf_extent *all = NULL;
	size_t n = 0;
	uint64_t next = 0;
	int err = 0;
	bool last = false;

	*out = NULL;
	*count = 0;
	if (!fm)
		return -ENOMEM;
	while (!last && !err) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = next;
		fm->fm_length = FIEMAP_MAX_OFFSET - next;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			err = errno == ENOTTY ? -EOPNOTSUPP : -errno;
			break;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents && !err; i++) {
			const struct fiemap_extent *x = &fm->fm_extents[i];
			struct r0_trim_leaf_extent *ext = NULL, *grown;
			size_t cnt = 0;

			if (x->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
			next = x->fe_logical + x->fe_length;
			/* only data the file system wrote where it says: not preallocated, shared or inline */
			if (x->fe_flags & (FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_SHARED |
					   FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					   FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED))
				continue;
			err = r0_trim_stack_split(s, x->fe_physical / 512, x->fe_length / 512, &ext, &cnt, NULL);
			if (!err && cnt) {
				grown = realloc(all, (n + cnt) * sizeof(*all));
				if (!grown)
					err = -ENOMEM;
				else {
					all = grown;
					memcpy(all + n, ext, cnt * sizeof(*ext));
					n += cnt;
				}
			}
			free(ext);
		}
	}
	free(fm);
	if (err) {
		free(all);
		return err;
	}
	*out = all;
	*count = n;
	return 0;
}

int r0_trim_file_share(const struct r0_trim_stack *s, int fd, uint64_t *per_member_sectors)
{
	struct r0_trim_leaf_extent *x;
	size_t n;
	int err = r0_trim_file_extents(s, fd, &x, &n);

	/* what reaches each device when no layer drops it, as r0_trim_stack_totals */
	for (size_t i = 0; !err && i < n; i++)
		per_member_sectors[x[i].leaf] += x[i].n_sectors;
	free(x);
	return err;
}
