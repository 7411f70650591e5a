// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h, the file system part: files with known contents written,
 * summed per member (each through r0_trim_file_share, FIEMAP, in trimio.c)
 * and removed; how much to write for a fill share; a kept file that must
 * read back intact; FITRIM (as fstrim(8)) or the wait for online discards;
 * and the verdict of one file system cycle.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "r0/trimcheck.h"
#include "sysfs.h"

#define FILE_BYTES (4u << 20)
#define KEEP_BYTES (1u << 20)

int r0_trim_write_files(const char *dir, const char *prefix, uint64_t bytes, uint64_t seed,
			unsigned *count, bool (*stop)(void))
{
	char name[PATH_MAX];
	void *buf = NULL;
	int err = 0;

	*count = 0;
	if (posix_memalign(&buf, 4096, FILE_BYTES))
		return -ENOMEM;
	for (unsigned k = 0; bytes >= 4096 && !err; k++) {
		size_t len = bytes < FILE_BYTES ? (size_t)(bytes / 4096 * 4096) : FILE_BYTES;
		ssize_t n;
		int fd;

		if (stop && stop()) {
			err = -EINTR;
			break;
		}
		if ((err = r0_path(name, sizeof(name), "%s/%s%u", dir, prefix, k)))
			break;
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			err = errno == ENOSPC ? 0 : -errno;
			break;
		}
		r0_trim_pattern(seed + k, 0, (unsigned)(len / 512), buf);
		n = write(fd, buf, len);
		if (n < 0)
			err = -errno;
		if (fsync(fd) && !err)
			err = -errno;
		close(fd);
		(*count)++;
		if (err == -ENOSPC || (n >= 0 && (size_t)n < len)) {
			err = 0;   /* full: the files so far are the fill */
			break;
		}
		bytes -= len;
	}
	free(buf);
	return err;
}

int r0_trim_files_share(const struct r0_trim_stack *s, const char *dir, const char *prefix,
			unsigned count, uint64_t *per_member_sectors)
{
	char name[PATH_MAX];
	int err = 0;

	for (unsigned k = 0; k < count && !err; k++) {
		int fd;

		if ((err = r0_path(name, sizeof(name), "%s/%s%u", dir, prefix, k)))
			break;
		fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = r0_trim_file_share(s, fd, per_member_sectors);
		close(fd);
	}
	return err;
}

int r0_trim_remove_files(const char *dir, const char *prefix, unsigned count)
{
	char name[PATH_MAX];
	int err;

	for (unsigned k = 0; k < count; k++) {
		if ((err = r0_path(name, sizeof(name), "%s/%s%u", dir, prefix, k)))
			return err;
		if (unlink(name) && errno != ENOENT)
			return -errno;
	}
	return 0;
}

int r0_trim_keep_file(const char *path, uint64_t seed, bool create)
{
	void *buf = NULL, *want = NULL;
	int fd, err = 0;

	if (posix_memalign(&buf, 4096, KEEP_BYTES) || posix_memalign(&want, 4096, KEEP_BYTES)) {
		free(buf);
		return -ENOMEM;
	}
	r0_trim_pattern(seed, 0, KEEP_BYTES / 512, want);
	/* read back with O_DIRECT: from the device, not the page cache */
	fd = open(path, create ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDONLY | O_DIRECT | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		err = -errno;
	} else if (create) {
		if (write(fd, want, KEEP_BYTES) != (ssize_t)KEEP_BYTES || fsync(fd))
			err = errno ? -errno : -EIO;
		close(fd);
	} else {
		if (read(fd, buf, KEEP_BYTES) != (ssize_t)KEEP_BYTES)
			err = errno ? -errno : -EIO;
		else if (memcmp(buf, want, KEEP_BYTES))
			err = -EILSEQ;
		close(fd);
	}
	free(buf);
	free(want);
	return err;
}

/*
 * ext4 gives a deleted file's blocks back to its allocator in the journal
 * commit's callback; a FITRIM at that moment can find their groups still
 * marked trimmed and trim nothing (033 saw it once in many cycles): a
 * FITRIM that trimmed nothing is tried once more, after a pause and
 * another syncfs. Both are counted: the members' counters see both.
 */
#define FITRIM_TRIES 2
#define FITRIM_PAUSE_NS 500000000L

int r0_trim_fitrim(const char *mount_point, uint64_t *bytes)
{
	int err = 0, fd = open(mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	*bytes = 0;
	for (int i = 0; i < FITRIM_TRIES && !err && !*bytes; i++) {
		struct fstrim_range fr = { 0, UINT64_MAX, 0 };

		if (i)
			nanosleep(&(struct timespec){ 0, FITRIM_PAUSE_NS }, NULL);
		if (syncfs(fd) || ioctl(fd, FITRIM, &fr))
			err = -errno;
		else
			*bytes += fr.len;
	}
	close(fd);
	return err;
}

enum r0_check_result r0_trim_judge_fs(const struct r0_trim_device *t, const uint64_t *share,
				 const struct r0_trim_counters *before,
				 const struct r0_trim_counters *after, uint64_t fitrim_bytes,
				 bool fitrim_exact, char *why, size_t len)
{
	uint64_t total = 0, want = 0;
	unsigned copies;
	bool exact;

	why[0] = '\0';
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		uint64_t obs = after->leaf_sectors[i] - before->leaf_sectors[i];

		total += obs;
		want += share[i];
		if (obs < share[i] && !why[0])
			snprintf(why, len, "%s received %llu sectors, fewer than the %llu the deleted files held there",
				 m->chain_kname[m->depth], (unsigned long long)obs, (unsigned long long)share[i]);
	}
	if (why[0])
		return R0_CHECK_FAIL;
	/* mirrors multiply what fstrim reports; dm-thin passes less (whole blocks), never more */
	copies = r0_trim_stack_copies(&t->stack);
	exact = fitrim_exact && copies > 0;
	if (fitrim_bytes != R0_TRIM_NO_FITRIM &&
	    (exact ? total != fitrim_bytes / 512 * copies : total > fitrim_bytes / 512 * (copies ? copies : 1))) {
		snprintf(why, len, "fstrim %s %llu sectors%s but the members received %llu",
			 fitrim_exact ? "trimmed" : "scanned", (unsigned long long)(fitrim_bytes / 512),
			 copies > 1 ? " on each of its copies" : "", (unsigned long long)total);
		return R0_CHECK_FAIL;
	}
	if (want == 0) {
		snprintf(why, len, "no file data was placed on the members (file system full?)");
		return R0_CHECK_NOT_CONCLUSIVE;
	}
	return R0_CHECK_OK;
}

/* Online discard goes out after the journal commit: syncfs, and poll every 0.1 s. */
int r0_trim_wait_discards(const struct r0_trim_device *t, const char *mnt, const uint64_t *share,
			  const struct r0_trim_counters *before)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (int w = 0; w < 100 && !err; w++) {
		struct r0_trim_counters now;
		bool enough = true;

		syncfs(fd);
		if ((err = r0_trim_read_counters(t, &now)))
			break;
		for (unsigned i = 0; i < t->n_members; i++)
			if (now.leaf_sectors[i] - before->leaf_sectors[i] < share[i])
				enough = false;
		if (enough)
			break;
		usleep(100000);
	}
	close(fd);
	return err;
}

int r0_trim_fill_goal(const char *mnt, unsigned pct, uint64_t *bytes)
{
	struct statvfs sv;
	uint64_t total, avail, used, goal;

	if (statvfs(mnt, &sv))
		return -errno;
	total = (uint64_t)sv.f_blocks * sv.f_frsize;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	used = total - (uint64_t)sv.f_bfree * sv.f_frsize;
	goal = total * pct / 100;
	*bytes = goal > used ? goal - used : 0;
	if (*bytes > avail)
		*bytes = avail;
	return 0;
}
