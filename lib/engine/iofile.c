// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening what the engine runs on, and checking a workload against it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "blockdev.h"
#include "r0/size.h"
#include "r0/engine.h"
#include "sysfs.h"

/* O_DIRECT alignment of a regular file: statx's dio_offset_align where the
 * kernel reports it (6.1+), else the 512 bytes every file system takes. */
static uint32_t file_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align > 512 ? stx.stx_dio_offset_align : 512;
#endif
	(void)fd;
	return 512;
}

int r0_fd_refuses_nowait(int fd, uint32_t block_bytes, uint64_t at)
{
	struct iovec iov = { .iov_len = block_bytes ? block_bytes : 4096 };
	ssize_t got;
	int err;

	/* page-aligned: O_DIRECT takes it on any device */
	if (posix_memalign(&iov.iov_base, 4096, iov.iov_len))
		return -ENOMEM;
	got = preadv2(fd, &iov, 1, (off_t)at, RWF_NOWAIT);
	err = got < 0 ? errno : 0;
	free(iov.iov_base);
	if (err == EOPNOTSUPP)
		return 1;
	/* EAGAIN: it would have blocked, so it takes such requests */
	return !err || err == EAGAIN ? 0 : -err;
}

int r0_io_file_open(const char *path, bool writable, struct r0_io_file *t)
{
	struct stat st;
	int flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC, fd = -1, err;
	unsigned lbs = 0, pbs = 0;
	uint64_t bytes = 0;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (strlen(path) >= sizeof(t->path))
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		/* O_EXCL on a block device: refused while mounted or claimed by md/dm */
		if (writable)
			fd = r0_blockdev_open_exclusive(path, flags | O_DIRECT);
		else if ((fd = open(path, flags | O_DIRECT)) < 0)
			fd = -errno;
		if (fd < 0)
			return fd;
		if ((err = r0_blockdev_size(fd, &bytes, &lbs, &pbs))) {
			close(fd);
			return err;
		}
		t->is_block = true;
		t->direct = true;
		t->devt = st.st_rdev;
		t->logical_block_bytes = lbs;
		t->physical_block_bytes = pbs > lbs ? pbs : lbs;
		t->size_bytes = bytes;
	} else if (S_ISREG(st.st_mode)) {
		fd = open(path, flags | O_DIRECT);
		t->direct = fd >= 0;
		if (fd < 0 && errno == EINVAL)   /* a file system without O_DIRECT */
			fd = open(path, flags);
		if (fd < 0)
			return -errno;
		t->logical_block_bytes = file_dio_align(fd);
		t->physical_block_bytes = t->logical_block_bytes;
		t->size_bytes = (uint64_t)st.st_size;
	} else {
		return -ENOTBLK;
	}
	t->fd = fd;
	t->writable = writable;
	/* asked at the end, where a read reads nothing: no I/O, no wait */
	t->blocking_only = r0_fd_refuses_nowait(fd, t->logical_block_bytes, t->size_bytes) == 1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	return 0;
}

void r0_io_file_close(struct r0_io_file *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int r0_io_file_discard(const struct r0_io_file *t, uint64_t offset_bytes, uint64_t len_bytes)
{
	if (t->is_block)
		return r0_blockdev_discard(t->fd, offset_bytes, len_bytes);
	return fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset_bytes,
			 (off_t)len_bytes) ? -errno : 0;
}

int r0_io_file_discard_check(const struct r0_io_file *t, char *why, size_t len)
{
	char path[128];
	uint64_t max = 0;
	int ret;

	if (!t->is_block) {
		/*
		 * A hole punched past the end with KEEP_SIZE frees nothing and
		 * changes nothing; a file system without holes refuses it as it
		 * would refuse any (EOPNOTSUPP).
		 */
		if (!fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)t->size_bytes,
			       t->logical_block_bytes ? t->logical_block_bytes : 512))
			return 0;
		ret = -errno;
		if (why)
			snprintf(why, len, "its file system cannot punch a hole in it: %s", strerror(-ret));
		return ret;
	}
	/* Documentation/ABI/stable/sysfs-block: queue/discard_max_bytes 0, no discard */
	ret = r0_sysfs_queue_path(t->devt, "discard_max_bytes", path, sizeof(path));
	if (!ret)
		ret = r0_sysfs_read_u64(path, &max);
	if (ret) {
		if (why)
			snprintf(why, len, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!max) {
		if (why)
			snprintf(why, len, "the device takes no discards (queue/discard_max_bytes is 0)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint64_t lcm64(uint64_t a, uint64_t b)
{
	if (!a || !b)
		return a ? a : b;
	return a / r0_gcd_u64(a, b) * b;
}

uint64_t r0_workload_unit(const struct r0_workload *w, const struct r0_io_file *t)
{
	uint64_t u = lcm64(w->block_bytes, w->align_bytes);

	u = lcm64(u, t->logical_block_bytes);
	return lcm64(u, t->physical_block_bytes);
}

static uint64_t span_of(const struct r0_workload *w, const struct r0_io_file *t)
{
	return w->span_bytes ? w->span_bytes : t->size_bytes - w->offset_bytes;
}

int r0_job_region(const struct r0_workload *w, const struct r0_io_file *t, unsigned index,
		  struct r0_region *r)
{
	unsigned jobs = w->jobs ? w->jobs : 1;
	uint64_t span = span_of(w, t), unit = r0_workload_unit(w, t), slice;

	if (index >= jobs || w->offset_bytes > t->size_bytes)
		return -EINVAL;
	if (w->shared_region) {
		r->start_bytes = w->offset_bytes;
		r->bytes = span;
	} else {
		slice = span / jobs / unit * unit;
		r->start_bytes = w->offset_bytes + index * slice;
		r->bytes = index == jobs - 1 ? span - (uint64_t)(jobs - 1) * slice : slice;
	}
	return r->bytes >= w->block_bytes && w->block_bytes ? 0 : -EINVAL;
}

#define WHY(...) (snprintf(why, len, __VA_ARGS__), -EINVAL)

int r0_workload_check(const struct r0_workload *w, const struct r0_io_file *t, char *why,
		      size_t len)
{
	uint32_t lbs = t->logical_block_bytes ? t->logical_block_bytes : 512;
	uint32_t align = w->align_bytes ? w->align_bytes : w->block_bytes;
	unsigned jobs = w->jobs ? w->jobs : 1;
	struct r0_region first;
	uint64_t span;

	if (why && len)
		why[0] = '\0';
	if (w->access != R0_ACCESS_SEQ && w->access != R0_ACCESS_RAND)
		return WHY("not an engine workload (a scenario through a file system, or a replay)");
	if (!w->block_bytes)
		return WHY("block size 0");
	if (w->block_bytes > R0_BLOCK_MAX)
		return WHY("block size %u is above the limit of %u", w->block_bytes, R0_BLOCK_MAX);
	if (w->block_bytes % lbs)
		return WHY("block size %u is not a multiple of the logical block size %u",
			   w->block_bytes, lbs);
	if (align % lbs)
		return WHY("alignment %u is not a multiple of the logical block size %u", align, lbs);
	if (!w->queue_depth)
		return WHY("queue depth 0");
	if (w->queue_depth > R0_QD_MAX)
		return WHY("queue depth %u is above the ring limit of %u", w->queue_depth, R0_QD_MAX);
	if ((uint64_t)w->queue_depth * w->block_bytes > R0_JOB_BUFFER_MAX)
		return WHY("queue depth %u x block size %u is more than the 1 GiB of buffers a job may have",
			   w->queue_depth, w->block_bytes);
	if (w->reap_batch > w->queue_depth)
		return WHY("reap batch %u is above the queue depth %u", w->reap_batch, w->queue_depth);
	if (jobs > R0_JOBS_MAX)
		return WHY("%u jobs is above the limit of %u", jobs, R0_JOBS_MAX);
	if (w->read_pct > 100)
		return WHY("read percentage %u is above 100", w->read_pct);
	if (w->offset_bytes % lbs)
		return WHY("offset %llu is not a multiple of the logical block size %u",
			   (unsigned long long)w->offset_bytes, lbs);
	if (w->offset_bytes >= t->size_bytes)
		return (snprintf(why, len, "offset %llu is not below the size %llu of %s",
				 (unsigned long long)w->offset_bytes,
				 (unsigned long long)t->size_bytes, t->path), -ERANGE);
	span = span_of(w, t);
	if (w->span_bytes > t->size_bytes - w->offset_bytes)
		return (snprintf(why, len, "offset %llu + span %llu passes the end of %s (%llu bytes)",
				 (unsigned long long)w->offset_bytes,
				 (unsigned long long)w->span_bytes, t->path,
				 (unsigned long long)t->size_bytes), -ERANGE);
	/* job 0 gets the smallest region: the others are as large, the last larger */
	if (r0_job_region(w, t, 0, &first) && (jobs == 1 || w->shared_region))
		return WHY("the region of %llu bytes a job gets is smaller than the block size %u",
			   (unsigned long long)span, w->block_bytes);
	if (r0_job_region(w, t, 0, &first))
		return WHY("%u jobs cannot each get a region of whole %llu-byte units in %llu bytes "
			   "(the least common multiple of block size, align and device blocks)",
			   jobs, (unsigned long long)r0_workload_unit(w, t), (unsigned long long)span);
	if (w->cover && w->access == R0_ACCESS_RAND && align != w->block_bytes)
		return WHY("full coverage needs block-aligned random offsets");
	if ((w->read_pct < 100 || w->trim || w->verify == R0_VERIFY_WRITE) && !t->writable)
		return WHY("%s is open read-only for a test that writes", t->path);
	if (w->verify != R0_VERIFY_NONE) {
		if (w->trim)
			return WHY("verify does not go with trim");
		if (w->verify == R0_VERIFY_WRITE && w->read_pct != 0)
			return WHY("a verify write pass must be writes only");
		if (w->verify == R0_VERIFY_READ && w->read_pct != 100)
			return WHY("a verify read pass must be reads only");
		if (w->runtime_ns)
			return WHY("verify runs size-based (one pass over the region), not time-based");
		if (w->access == R0_ACCESS_RAND && !w->cover)
			return WHY("random verify needs full coverage, so every block is written once");
		if (w->block_bytes % R0_VERIFY_SECTOR)
			return WHY("verify needs a block size that is a multiple of %u", R0_VERIFY_SECTOR);
	}
	if (w->trim && t->is_block && !t->writable)
		return WHY("%s is open read-only for a trim test", t->path);
	if (w->min_runtime_ns) {
		struct r0_steady_rule r = r0_workload_steady_rule(w);

		if (!w->runtime_ns)
			return WHY("a minimum runtime needs a time-based test (a runtime as its maximum)");
		if (w->min_runtime_ns > w->runtime_ns)
			return WHY("minimum runtime %g s is above the runtime %g s",
				   (double)w->min_runtime_ns / 1e9, (double)w->runtime_ns / 1e9);
		if (r.window < 2 || r.window > R0_STEADY_WINDOW_MAX)
			return WHY("steady window of %zu samples: from 2 to %u", r.window,
				   R0_STEADY_WINDOW_MAX);
		if (!(r.range_frac > 0 && r.range_frac < 1e6 && r.slope_frac > 0 && r.slope_frac < 1e6))
			return WHY("steady bounds must be above 0");
		if (w->steady_slice_ns && w->steady_slice_ns < R0_STEADY_SLICE_MIN_NS)
			return WHY("steady slice %g ms is below %g ms", (double)w->steady_slice_ns / 1e6,
				   (double)R0_STEADY_SLICE_MIN_NS / 1e6);
	}
	return 0;
}
