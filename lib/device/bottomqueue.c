// SPDX-License-Identifier: GPL-2.0-or-later
/* The request limits at the bottom of a stack: how many pieces a large request becomes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include "bottomqueue.h"
#include "sysfs.h"

#define MAX_DEPTH 8   /* dm over md over partitions is 3; a loop in sysfs is not followed for ever */

/* DIR is a /sys/class/block/NAME directory; its queue/ or, for a partition, its disk's. */
static int leaf_limits(const char *dir, struct r0_bottom_queue *q)
{
	char qdir[512], path[600];
	uint64_t kb, nr;
	int err;

	err = r0_path(qdir, sizeof(qdir), "%s/queue", dir);
	if (!err && access(qdir, F_OK))
		err = r0_path(qdir, sizeof(qdir), "%s/../queue", dir);
	if (!err)
		err = r0_path(path, sizeof(path), "%s/max_sectors_kb", qdir);
	if (!err)
		err = r0_sysfs_read_u64(path, &kb);
	if (!err)
		err = r0_path(path, sizeof(path), "%s/nr_requests", qdir);
	if (!err)
		err = r0_sysfs_read_u64(path, &nr);
	if (err)
		return err;
	if (kb * 1024 < q->max_request_bytes)
		q->max_request_bytes = kb * 1024;
	if (nr < q->tags)
		q->tags = (uint32_t)nr;
	return 0;
}

/*
 * DIR's queue/chunk_sectors: md raid0 and dm-stripe set it to their chunk
 * (dm from the target's max_io_len) and split every request there. A
 * partition has no queue of its own and no chunk.
 */
static int layer_chunk(const char *dir, struct r0_bottom_queue *q)
{
	char path[600];
	uint64_t sectors;
	int err;

	err = r0_path(path, sizeof(path), "%s/queue/chunk_sectors", dir);
	if (err || access(path, F_OK))
		return err;
	err = r0_sysfs_read_u64(path, &sectors);
	if (!err && sectors && sectors * 512 < q->chunk_bytes)
		q->chunk_bytes = sectors * 512;
	return err;
}

static int walk(const char *dir, unsigned depth, struct r0_bottom_queue *q)
{
	char path[512];
	struct dirent *e;
	DIR *d;
	int err = 0, n = 0;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	err = r0_path(path, sizeof(path), "%s/dm", dir);
	if (!err && !access(path, F_OK))
		q->through_dm = true;
	if (!err)
		err = layer_chunk(dir, q);
	if (!err)
		err = r0_path(path, sizeof(path), "%s/slaves", dir);
	if (err)
		return err;
	d = opendir(path);
	if (d) {
		while (!err && (e = readdir(d))) {
			char sub[512];

			if (e->d_name[0] == '.')
				continue;
			err = r0_path(sub, sizeof(sub), "/sys/class/block/%s", e->d_name);
			if (!err)
				err = walk(sub, depth + 1, q);
			n++;
		}
		closedir(d);
	}
	return err || n ? err : leaf_limits(dir, q);
}

int r0_bottom_queue(dev_t devt, struct r0_bottom_queue *q)
{
	char dir[64];
	int err;

	q->max_request_bytes = UINT64_MAX;
	q->tags = UINT32_MAX;
	q->chunk_bytes = UINT64_MAX;
	q->through_dm = false;
	err = r0_path(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(devt), minor(devt));
	return err ? err : walk(dir, 0, q);
}
