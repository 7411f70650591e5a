// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A TRIM run's live check (r0trim --live DIR): TRIM shown on a mounted ext4 or xfs that holds the
 * user's data, writing nothing but one test file (trimcheck's method,
 * through the array to every drive): the file is written with a pattern,
 * its extents (FIEMAP) mapped down every layer to each bottom device, then
 * deleted and trimmed (FITRIM, as fstrim does, or the mount's online
 * discard); each bottom device's discard counter must rise by at least
 * its share (FITRIM over the file's former extents only, so other free
 * space cannot stand in for it where the file system keeps to the range:
 * xfs does, ext4 trims to its group's end), and where a device promises
 * what a discarded block reads,
 * those exact sectors are read back raw. Other discards on the devices at
 * the same time make the counters ambiguous: then not conclusive, never a
 * pass. The file is removed on every way out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/fs.h>

#include "r0/probe.h"
#include "r0/trimlive.h"
#include "r0/trimrun.h"
#include "r0/trimshare.h"

static int live_check_dir(const char *dir, char *fstype, size_t len, dev_t *dev, char *why, size_t why_len)
{
	struct statvfs sv;
	struct statfs sf;
	struct stat st;

	if (stat(dir, &st) || statvfs(dir, &sv) || statfs(dir, &sf)) {
		snprintf(why, why_len, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, why_len, "not a directory (give the mount point of the file system)");
		return -ENOTDIR;
	}
	if (!r0_trim_live_fs((unsigned long)sf.f_type)) {
		char name[64];

		r0_trim_fs_magic_name((unsigned long)sf.f_type, name, sizeof(name));
		snprintf(why, why_len, "not ext4 or xfs but %s: r0trim --live follows FIEMAP and FITRIM as "
			 "those two behave", name);
		return -EOPNOTSUPP;
	}
	snprintf(fstype, len, "%s", r0_trim_live_fs((unsigned long)sf.f_type));
	if (sv.f_flag & ST_RDONLY) {
		snprintf(why, why_len, "mounted read-only: no test file can be written, nothing can be shown");
		return -EROFS;
	}
	*dev = st.st_dev;
	return 0;
}

static int live_room(const struct r0_trim_device *t, const char *dir, char *why, size_t why_len)
{
	struct statvfs sv;
	uint64_t need, avail;

	if (statvfs(dir, &sv)) {
		snprintf(why, why_len, "%s", strerror(errno));
		return -errno;
	}
	need = r0_trim_live_room_bytes(t);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail < need) {
		snprintf(why, why_len, "%llu MiB free: the test file and a margin need %llu MiB",
			 (unsigned long long)(avail >> 20), (unsigned long long)(need >> 20));
		return -ENOSPC;
	}
	return 0;
}

int r0_trim_live_device(const char *dir, char *fstype, size_t fstype_len, char *dev, size_t dev_len, char *why,
			size_t why_len)
{
	char reason[512];
	dev_t devt = 0;
	int err;

	if ((err = live_check_dir(dir, fstype, fstype_len, &devt, reason, sizeof(reason)))) {
		snprintf(why, why_len, "%s: %s", dir, reason);
		return err;
	}
	if ((err = r0_devt_node(devt, dev, dev_len)))
		snprintf(why, why_len, "%s: no /dev node of its device %u:%u: %s", dir, major(devt), minor(devt),
			 strerror(-err));
	return err;
}

int r0_trim_live_ready(struct r0_trim_run *r, int described, const char *described_why, const char *dir,
		       char *why, size_t len)
{
	char reason[512];
	int err = described;

	/* mounted and in use by definition: it is only read, and one file written in it */
	if (err) {
		snprintf(why, len, "%s: %s", dir, described_why);
		return err;
	}
	if (r->t.stack.thin_node >= 0 && (err = r0_trim_device_map_thin(&r->t, reason, sizeof(reason)))) {
		snprintf(why, len, "%s: a thin volume over an array: where its pool puts blocks: %s", dir, reason);
		return err;
	}
	if ((err = live_room(&r->t, dir, reason, sizeof(reason))))
		snprintf(why, len, "%s: %s", dir, reason);
	return err;
}

static int write_file(const struct r0_trim_run *r, const char *path, uint64_t bytes)
{
	void *buf = NULL;
	int fd, err = 0;

	if (posix_memalign(&buf, 4096, 1 << 20))
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (uint64_t off = 0; off < bytes && !err; off += 1 << 20) {
		r0_trim_pattern(r->seed, off / 512, (1 << 20) / 512, buf);
		if (pwrite(fd, buf, 1 << 20, (off_t)off) != 1 << 20)
			err = errno ? -errno : -EIO;
		if (r0_trim_run_stopped(r))
			err = -EINTR;
	}
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	free(buf);
	return err;
}

/* Discards counted at the bottom devices over 0.5 s: other activity makes the counters ambiguous. */
static int others_discard(const struct r0_trim_device *t, bool *busy)
{
	struct r0_trim_counters a, b;
	int err = r0_trim_read_counters(t, &a);

	if (err)
		return err;
	usleep(500000);
	if ((err = r0_trim_read_counters(t, &b)))
		return err;
	*busy = false;
	for (unsigned i = 0; i < t->n_members; i++)
		*busy |= b.leaf_sectors[i] != a.leaf_sectors[i];
	return 0;
}

/*
 * FITRIM over the file's own former extents only (top sectors of X, merged):
 * where the file system keeps to the range (xfs), the rest of the free
 * space is left alone, so each device's counter must rise by the file's
 * share and no more, and other free space cannot stand in for it. ext4
 * trims to the block group's end (Linux 6.12: 96 MiB for a 4 MiB range). Repeated after syncfs while a device has less: a file system may
 * free a deleted file's blocks a little later (xfs's background inode work,
 * extents busy until the log is written).
 */
static int trim_file_ranges(const struct r0_trim_device *t, const char *dir,
			    const struct r0_trim_leaf_extent *x, size_t n, const uint64_t *share,
			    const struct r0_trim_counters *before, uint64_t *trimmed)
{
	uint64_t (*rg)[2] = calloc(n ? n : 1, sizeof(*rg));
	size_t m = 0;
	int fd, err = 0;

	if (!rg)
		return -ENOMEM;
	m = r0_trim_top_ranges(x, n, rg);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		free(rg);
		return -errno;
	}
	*trimmed = 0;
	for (int tries = 0; tries < 20 && !err; tries++) {
		struct r0_trim_counters now;
		bool enough = true;

		syncfs(fd);
		for (size_t k = 0; k < m && !err; k++) {
			struct fstrim_range fr = { rg[k][0] * 512, (rg[k][1] - rg[k][0]) * 512, 0 };

			if (ioctl(fd, FITRIM, &fr))
				err = -errno;
			else
				*trimmed += fr.len;
		}
		if (err || (err = r0_trim_read_counters(t, &now)))
			break;
		for (unsigned i = 0; i < t->n_members; i++)
			enough &= now.leaf_sectors[i] - before->leaf_sectors[i] >= share[i];
		if (enough)
			break;
		usleep(250000);
	}
	close(fd);
	free(rg);
	return err;
}

/* A quiet moment waited for: other discards would be counted as the file's. 0, or 1 with a NOT CONCLUSIVE "quiet" line. */
static int wait_quiet(struct r0_trim_run *r)
{
	bool busy = true;
	int err = 0;

	for (int tries = 0; tries < 5 && busy && !err && !r0_trim_run_stopped(r); tries++)
		err = others_discard(&r->t, &busy);
	if (err || busy) {
		r0_trim_run_line(r, "quiet", R0_CHECK_NOT_CONCLUSIVE, "%s", err ? strerror(-err) :
				 "other discards reached the bottom devices in each of 5 half-second windows: "
				 "their counters cannot tell the test file's from them");
		return 1;
	}
	r0_trim_run_line(r, "quiet", R0_CHECK_OK, "no other discards on the bottom devices for 0.5 s");
	return 0;
}

/* The "live-file" line: the test file at PATH (BYTES on FSTYPE) and its SHARE on each bottom device. */
static void file_line(struct r0_trim_run *r, const char *path, const char *fstype, uint64_t bytes,
		      const uint64_t *share)
{
	const struct r0_trim_device *t = &r->t;
	char d[1024], b1[32];
	size_t off = (size_t)snprintf(d, sizeof(d), "%s of a pattern in %s on %s; its sectors per bottom device:",
				      r0_trim_exact_size(bytes, b1, sizeof(b1)), path, fstype);

	for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
		off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu",
					t->members[i].chain_kname[t->members[i].depth], (unsigned long long)share[i]);
	r0_trim_run_line(r, "live-file", R0_CHECK_OK, "%s", d);
}

/*
 * The "delivery" line: each bottom device's counter from BEFORE to AFTER
 * against the deleted file's SHARE (BYTES; TRIMMED: what FITRIM said, or
 * R0_TRIM_NO_FITRIM with MOUNT_DISCARD).
 */
static void delivery_line(struct r0_trim_run *r, bool mount_discard, const uint64_t *share,
			  const struct r0_trim_counters *before, const struct r0_trim_counters *after, uint64_t trimmed,
			  uint64_t bytes)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_member_result res[R0_MAX_MEMBERS];
	char why[512], d[1024], b1[32];
	enum r0_check_result v;
	size_t off;

	/* FITRIM's ranges held only the file: what it trimmed went to the devices, once a copy */
	v = r0_trim_judge_fs(t, share, before, after, mount_discard ? R0_TRIM_NO_FITRIM : trimmed, false,
			     why, sizeof(why));
	r0_trim_share_results(t, share, before, after, res);   /* expected: the file's share */
	r0_trim_evidence_delivery(&r->result.ev, t->n_members, res);
	off = (size_t)snprintf(d, sizeof(d), "%s; sectors of the file/discarded",
			       mount_discard ? "online discard (mount -o discard)" :
			       "FITRIM over the file's former extents only");
	for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
		off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu/%llu",
					t->members[i].chain_kname[t->members[i].depth], (unsigned long long)share[i],
					(unsigned long long)res[i].observed_sectors);
	if (!mount_discard && off < sizeof(d))
		off += (size_t)snprintf(d + off, sizeof(d) - off, "; FITRIM trimmed %s",
					r0_trim_exact_size(trimmed, b1, sizeof(b1)));
	/*
	 * ext4 (Linux 6.12) trims from the range's start to its block group's
	 * end, whatever the length: other free space then reaches the counters
	 * too, so they show that discards reach each device, and only the
	 * read-back shows the file's own sectors among them.
	 */
	if (!mount_discard && trimmed != R0_TRIM_NO_FITRIM && trimmed > 2 * bytes && off < sizeof(d))
		snprintf(d + off, sizeof(d) - off, " for a %s file: the file system trimmed more than asked, so "
			 "the counters show discards reaching each device, the read-back the file's own sectors",
			 r0_trim_exact_size(bytes, b1, sizeof(b1)));
	r0_trim_run_line(r, "delivery", v, "%s%s%s", d, why[0] ? ": " : "", why);
	if (v == R0_CHECK_OK)
		r->result.delivery_pass++;
	if (v == R0_CHECK_NOT_CONCLUSIVE)
		r->result.delivery_nc++;
}

/*
 * The "effect" line: the file's own sectors read raw on each drive (OK,
 * BAD, UNCHECKED per bottom device), the counters from BEFORE to LATER
 * telling whether other writes came meanwhile.
 */
static void effect_line(struct r0_trim_run *r, const uint64_t *ok, const uint64_t *bad, const uint64_t *unchecked,
			const struct r0_trim_counters *before, const struct r0_trim_counters *later)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_effect e;
	char d[1024];
	bool reused;
	size_t off;

	r0_trim_live_effect(t->n_members, ok, bad, unchecked, before, later, &e, &reused);
	off = (size_t)snprintf(d, sizeof(d), "the file's sectors read raw as promised");
	for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
		off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu/%llu%s",
					t->members[i].chain_kname[t->members[i].depth],
					(unsigned long long)ok[i], (unsigned long long)(ok[i] + bad[i]),
					t->members[i].reads == R0_READS_UNKNOWN ? " (no promise)" : "");
	if (e.verdict != R0_CHECK_NOT_CONCLUSIVE)
		r0_trim_evidence_effect(&r->result.ev, t->n_members, &e);
	for (unsigned i = 0; i < t->n_members && off < sizeof(d); i++)
		if (bad[i] && !reused)
			off += (size_t)snprintf(d + off, sizeof(d) - off, "; %s: the drive was sent the discard "
						"but still returns the old data", t->members[i].kname);
	if (reused && off < sizeof(d))
		snprintf(d + off, sizeof(d) - off, "; other writes reached the devices meanwhile: a block "
			 "written again by the file system says nothing");
	else if (e.verdict == R0_CHECK_NOT_CHECKABLE && off < sizeof(d))
		snprintf(d + off, sizeof(d) - off, "; no bottom device promises what a discarded block reads");
	r0_trim_run_line(r, "effect", e.verdict, "%s", d);
}

int r0_trim_run_live(struct r0_trim_run *r, const char *dir, const char *fstype, bool mount_discard)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_counters before, after, later;
	struct r0_trim_leaf_extent *x = NULL;
	uint64_t share[R0_MAX_MEMBERS] = { 0 }, ok[R0_MAX_MEMBERS], bad[R0_MAX_MEMBERS];
	uint64_t unchecked[R0_MAX_MEMBERS], trimmed = R0_TRIM_NO_FITRIM, bytes = r0_trim_live_file_bytes(t);
	char path[PATH_MAX], why[512];
	size_t n = 0;
	bool written = false;
	int err = 0;

	snprintf(path, sizeof(path), "%s/.r0trim-live.%ld", dir, (long)getpid());
	if (wait_quiet(r))
		return 1;
	err = write_file(r, path, bytes);
	written = err != -EEXIST;
	if (!err && (err = r0_trim_device_map_thin(&r->t, why, sizeof(why)))) {
		r0_trim_run_line(r, "live-file", R0_CHECK_NOT_CHECKABLE, "where the thin pool put the file: %s", why);
		goto out;
	}
	if (!err) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		err = fd < 0 ? -errno : r0_trim_file_extents(&t->stack, fd, &x, &n);
		if (fd >= 0)
			close(fd);
		r0_trim_extents_share(x, n, share);
	}
	if (err) {
		r0_trim_run_line(r, "live-file", err == -EINTR ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_FAIL, "%s: %s", path,
				 err == -EINTR ? "interrupted by a signal" :
				 err == -EOPNOTSUPP ? "the file system answers no FIEMAP" : strerror(-err));
		goto out;
	}
	file_line(r, path, fstype, bytes, share);

	/* delete it and let the file system discard what it held */
	if ((err = r0_trim_read_counters(t, &before)))
		goto out;
	if (unlink(path)) {
		err = -errno;
		goto out;
	}
	written = false;
	err = mount_discard ? r0_trim_wait_discards(t, dir, share, &before) :
			      trim_file_ranges(t, dir, x, n, share, &before, &trimmed);
	if (err || (err = r0_trim_read_counters(t, &after))) {
		r0_trim_run_line(r, "delivery", R0_CHECK_FAIL, "%s: %s", mount_discard ? "online discard" : "FITRIM",
				 err == -EOPNOTSUPP ? "the file system does not pass discards (its device takes none)" :
				 strerror(-err));
		goto out;
	}
	delivery_line(r, mount_discard, share, &before, &after, trimmed, bytes);

	/* the file's own sectors on each drive, read raw: as the drive promises? */
	if ((err = r0_trim_leaf_readback(t, x, n, ok, bad, unchecked)) ||
	    (err = r0_trim_read_counters(t, &later))) {
		r0_trim_run_line(r, "effect", R0_CHECK_FAIL, "cannot read the bottom devices back: %s", strerror(-err));
		goto out;
	}
	effect_line(r, ok, bad, unchecked, &before, &later);
	r0_trim_run_lba_status(r, "the file's sectors", x, n);
out:
	if (written)
		unlink(path);
	free(x);
	if (r0_trim_run_stopped(r))
		r0_trim_run_line(r, "live", R0_CHECK_NOT_CONCLUSIVE, "interrupted by a signal; the test file is removed");
	return err ? 1 : 0;
}
