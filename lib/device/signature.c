// SPDX-License-Identifier: GPL-2.0-or-later
/* Signatures on a device or image through libblkid: file systems, RAID and
 * LVM metadata, swap, partition tables; every one, not just the first. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <blkid.h>

#include "blockdev.h"
#include "r0/probe.h"

static void copy_value(blkid_probe pr, const char *name, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(buf, len, "%s", v);
}

/* The result blkid_do_probe() just left in PR, from whichever chain gave it. */
static void fill(blkid_probe pr, struct r0_signature *s)
{
	char off[32];

	memset(s, 0, sizeof(*s));
	copy_value(pr, "TYPE", s->type, sizeof(s->type));
	if (s->type[0]) {
		copy_value(pr, "USAGE", s->usage, sizeof(s->usage));
		copy_value(pr, "UUID", s->uuid, sizeof(s->uuid));
		copy_value(pr, "LABEL", s->label, sizeof(s->label));
		copy_value(pr, "SBMAGIC_OFFSET", off, sizeof(off));
		s->bad_checksum = blkid_probe_has_value(pr, "SBBADCSUM");
	} else {
		copy_value(pr, "PTTYPE", s->type, sizeof(s->type));
		copy_value(pr, "PTUUID", s->uuid, sizeof(s->uuid));
		copy_value(pr, "PTMAGIC_OFFSET", off, sizeof(off));
		snprintf(s->usage, sizeof(s->usage), "partition table");
		s->is_partition_table = true;
	}
	s->offset_bytes = strtoull(off, NULL, 10);
}

/* A probe of FD for every signature with its magic's offset (and SUBLKS more), bad checksums too. */
static int new_probe(int fd, int sublks, blkid_probe *out)
{
	blkid_probe pr = blkid_new_probe();
	int err;

	if (!pr)
		return -ENOMEM;
	errno = 0;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		err = errno ? -errno : -EIO;
		blkid_free_probe(pr);
		return err;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, sublks | BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	*out = pr;
	return 0;
}

int r0_probe_signatures_fd(int fd, struct r0_signature **sigs, size_t *count)
{
	struct r0_signature *v = NULL, *nv;
	size_t n = 0;
	blkid_probe pr;
	int rc, err = 0;

	*sigs = NULL;
	*count = 0;
	/* the flags wipefs(8) uses to list signatures: with offsets, bad checksums too */
	err = new_probe(fd, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL,
			&pr);
	if (err)
		return err;

	/* blkid_do_safeprobe() gives one result per chain; this loop gives each prober's */
	for (;;) {
		errno = 0;
		if ((rc = blkid_do_probe(pr)) != 0)
			break;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			err = -ENOMEM;
			goto out;
		}
		v = nv;
		fill(pr, &v[n]);
		if (v[n].type[0])
			n++;
	}
	if (rc < 0)
		err = errno ? -errno : -EIO;
out:
	blkid_free_probe(pr);
	if (err) {
		free(v);
		return err;
	}
	if (!n) {
		free(v);
		v = NULL;
	}
	*sigs = v;
	*count = n;
	return 0;
}

int r0_probe_signatures(const char *path, struct r0_signature **sigs, size_t *count)
{
	/* O_NONBLOCK: an empty CD drive or tape must not hang the probe */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;

	*sigs = NULL;
	*count = 0;
	if (fd < 0)
		return -errno;
	err = r0_probe_signatures_fd(fd, sigs, count);
	close(fd);
	return err;
}

int r0_probe_signature(int fd, char *sig, size_t len)
{
	struct r0_signature *v;
	size_t n;
	int err = r0_probe_signatures_fd(fd, &v, &n);

	if (len)
		sig[0] = '\0';
	if (err)
		return err;
	if (n && len)
		snprintf(sig, len, "%s", v[0].type);
	free(v);
	return 0;
}

int r0_wipe_signatures(const char *path, uint64_t below_bytes, unsigned *wiped)
{
	int fd = r0_blockdev_open_exclusive(path, O_RDWR), err = 0;
	blkid_probe pr;

	*wiped = 0;
	if (fd < 0)
		return fd;
	/* as wipefs --all: each signature's magic bytes erased where blkid found them */
	err = new_probe(fd, 0, &pr);
	if (err) {
		close(fd);
		return err;
	}
	while (blkid_do_probe(pr) == 0) {
		const char *off = NULL, *poff = NULL;
		uint64_t at;

		blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
		blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &poff, NULL);
		at = strtoull(off ? off : poff ? poff : "0", NULL, 10);
		/* beyond what the caller wrote: not its own, left alone */
		if (below_bytes && at >= below_bytes)
			continue;
		errno = 0;
		if (blkid_do_wipe(pr, 0)) {
			err = errno ? -errno : -EIO;
			goto out;
		}
		(*wiped)++;
	}
	if (fsync(fd))
		err = -errno;
out:
	blkid_free_probe(pr);
	close(fd);
	return err;
}
