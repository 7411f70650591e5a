// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h: what the device to check is striped over, from the kernel
 * alone (md sysfs, Documentation/admin-guide/md.rst; the dm table through
 * dm.c), the stack below each member, and what each bottom device promises
 * a read after discard returns.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/size.h"
#include "r0/trimcheck.h"
#include "dmtable.h"
#include "sysfs.h"

/* The largest power of two from 64K down to 4K dividing SECTORS: "a chunk" of a plain device. */
static uint32_t pick_unit(uint64_t sectors)
{
	for (uint32_t c = 65536; c > 4096; c /= 2)
		if (sectors % (c / 512) == 0)
			return c;
	return 4096;
}

static bool is_passthrough(const char *type)
{
	return strcmp(type, "linear") == 0 || strcmp(type, "flakey") == 0 ||
	       strcmp(type, "delay") == 0;
}

/* "MAJ:MIN OFFSET ..." (linear, flakey, delay): the device below and its offset. */
static int parse_dev_offset(const char *params, dev_t *devt, uint64_t *offset)
{
	unsigned maj, min;
	unsigned long long off;

	if (sscanf(params, "%u:%u %llu", &maj, &min, &off) != 3)
		return -EINVAL;
	*devt = makedev(maj, min);
	*offset = off;
	return 0;
}

/* null_blk through configfs and SCSI's logical block provisioning VPD page. */
static void reads_after_discard(const struct r0_device *d, struct r0_trim_member *m)
{
	char path[PATH_MAX];
	unsigned char vpd[64];
	uint64_t v;
	ssize_t n;
	int fd;

	m->reads = R0_READS_UNKNOWN;
	snprintf(m->reads_why, sizeof(m->reads_why), "no promise the kernel reports");
	if (d->discard_max_bytes <= 0) {
		snprintf(m->reads_why, sizeof(m->reads_why), "takes no discards");
		return;
	}
	if (r0_path(path, sizeof(path), "/sys/kernel/config/nullb/%s/memory_backed", d->kname) == 0 &&
	    r0_sysfs_read_u64(path, &v) == 0) {
		/* null_handle_discard frees the pages; reads of freed pages return zeroes */
		if (v == 1) {
			m->reads = R0_READS_ZEROES;
			snprintf(m->reads_why, sizeof(m->reads_why), "null_blk memory-backed");
		} else {
			snprintf(m->reads_why, sizeof(m->reads_why), "null_blk keeps no data");
		}
		return;
	}
	/* SBC-4 VPD page B2h: byte 5 bits 4:2 are LBPRZ */
	if (r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/device/vpd_pgb2", major(d->devt),
		    minor(d->devt)))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, vpd, sizeof(vpd));
	close(fd);
	if (n < 6 || vpd[1] != 0xb2)
		return;
	switch ((vpd[5] >> 2) & 7) {
	case 1:
		m->reads = R0_READS_ZEROES;
		snprintf(m->reads_why, sizeof(m->reads_why), "SCSI LBPRZ=1");
		break;
	case 2:
		m->reads = R0_READS_ONES;
		snprintf(m->reads_why, sizeof(m->reads_why), "SCSI LBPRZ=2 (0xff)");
		break;
	default:
		snprintf(m->reads_why, sizeof(m->reads_why), "SCSI LBPRZ=0: no promise");
		break;
	}
}

/* Fills M for member DEVT, following one-device dm pass-through layers down. */
static int describe_member(dev_t devt, struct r0_trim_member *m)
{
	struct r0_device d;
	int err;

	memset(m, 0, sizeof(*m));
	m->devt = devt;
	for (unsigned depth = 0;; depth++) {
		struct r0_dm_target tab[2];
		unsigned count = 0;
		uint64_t off;
		dev_t below;

		err = r0_probe_devt(m->chain[depth] = devt, NULL, &d);
		if (err)
			return err;
		snprintf(m->chain_kname[depth], R0_KNAME_LEN, "%s", d.kname);
		if (depth == 0) {
			snprintf(m->kname, sizeof(m->kname), "%s", d.kname);
			r0_discard_limits_from_device(&d, &m->lim);
		}
		m->depth = depth;
		if (depth < R0_TRIM_MAX_DEPTH && d.is_dm && d.slaves.count == 1 &&
		    r0_dm_table(devt, tab, 2, &count) == 0 && count == 1 && is_passthrough(tab[0].type) &&
		    parse_dev_offset(tab[0].params, &below, &off) == 0) {
			snprintf(m->chain_type[depth], sizeof(m->chain_type[depth]), "%s", tab[0].type);
			r0_device_free(&d);
			devt = below;
			continue;
		}
		r0_discard_limits_from_device(&d, &m->leaf_lim);
		reads_after_discard(&d, m);
		err = d.is_md ? -EMEDIUMTYPE : 0;   /* md counts no discards of its own */
		r0_device_free(&d);
		return err;
	}
}

static int md_attr_u64(dev_t devt, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	if (r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/md/%s", major(devt), minor(devt), attr))
		return -ENAMETOOLONG;
	return r0_sysfs_read_u64(path, v);
}

static int describe_md(const struct r0_device *d, struct r0_trim_target *t, dev_t *members,
		       uint64_t *msize, uint64_t *moff, char *why, size_t len)
{
	char path[PATH_MAX], attr[64], ck[24];
	uint64_t v;
	unsigned n;
	int err;

	if (strcmp(d->md_level, "raid0") != 0) {
		snprintf(why, len, "md level %s is not a stripe (raid0)", d->md_level[0] ? d->md_level : "none");
		return -EINVAL;
	}
	if (d->md_raid_disks < 1 || d->md_raid_disks > R0_MAX_MEMBERS) {
		snprintf(why, len, "md with %lld members (r0kit handles 1 to %d)",
			 (long long)d->md_raid_disks, R0_MAX_MEMBERS);
		return -E2BIG;
	}
	n = (unsigned)d->md_raid_disks;
	for (unsigned i = 0; i < n; i++) {
		snprintf(attr, sizeof(attr), "rd%u/offset", i);
		if ((err = md_attr_u64(d->devt, attr, &moff[i])))
			goto bad;
		snprintf(attr, sizeof(attr), "rd%u/size", i);   /* KiB used from the offset on */
		if ((err = md_attr_u64(d->devt, attr, &v)))
			goto bad;
		msize[i] = moff[i] + v * 2;
		if ((err = r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/md/rd%u/block/dev",
				   major(d->devt), minor(d->devt), i)) ||
		    (err = r0_sysfs_read_devt(path, &members[i])))
			goto bad;
	}
	t->n_members = n;
	t->md_layout = (int)d->md_layout;
	r0_format_size((uint64_t)d->md_chunk_size_bytes, ck, sizeof(ck));
	snprintf(t->desc, sizeof(t->desc), "md raid0, %u member%s, chunk %s", n, n == 1 ? "" : "s", ck);
	return 0;
bad:
	snprintf(why, len, "md member %s unreadable: %s", attr, strerror(-err));
	return err;
}

static int describe_dm(const struct r0_device *d, struct r0_trim_target *t, dev_t *members,
		       uint64_t *msize, uint64_t *moff, uint32_t *chunk, char *why, size_t len)
{
	struct r0_dm_target tab[2];
	unsigned count = 0, n, cs;
	int pos = 0, err;
	const char *p;

	err = r0_dm_table(d->devt, tab, 2, &count);
	if (err) {
		snprintf(why, len, "cannot read its dm table: %s", strerror(-err));
		return err;
	}
	if (count == 1 && strcmp(tab[0].type, "striped") == 0) {
		char ck[24];

		if (sscanf(tab[0].params, "%u %u%n", &n, &cs, &pos) != 2 || n < 1 || n > R0_MAX_MEMBERS ||
		    tab[0].length_sectors % n) {
			snprintf(why, len, "dm striped table not understood: %s", tab[0].params);
			return -EINVAL;
		}
		p = tab[0].params + pos;
		for (unsigned i = 0; i < n; i++) {
			unsigned maj, min;
			unsigned long long off;

			if (sscanf(p, " %u:%u %llu%n", &maj, &min, &off, &pos) != 3) {
				snprintf(why, len, "dm striped table not understood: %s", tab[0].params);
				return -EINVAL;
			}
			p += pos;
			members[i] = makedev(maj, min);
			moff[i] = off;
			msize[i] = off + tab[0].length_sectors / n;   /* stripe_ctr: each the same width */
		}
		t->n_members = n;
		*chunk = cs * 512;
		r0_format_size(*chunk, ck, sizeof(ck));
		snprintf(t->desc, sizeof(t->desc), "dm striped, %u member%s, chunk %s", n,
			 n == 1 ? "" : "s", ck);
		return 0;
	}
	if (count == 1 && is_passthrough(tab[0].type) &&
	    parse_dev_offset(tab[0].params, &members[0], &moff[0]) == 0) {
		t->n_members = 1;
		msize[0] = moff[0] + tab[0].length_sectors;
		*chunk = pick_unit(tab[0].length_sectors);
		snprintf(t->desc, sizeof(t->desc), "dm %s over one device", tab[0].type);
		return 0;
	}
	return 1;   /* some other table: check it as a plain device */
}

int r0_trim_target_describe(const char *path, struct r0_trim_target *t, char *why, size_t len)
{
	dev_t members[R0_MAX_MEMBERS];
	uint64_t msize[R0_MAX_MEMBERS] = { 0 }, moff[R0_MAX_MEMBERS] = { 0 };
	enum r0_md_layout layout = R0_MD_LAYOUT_ORIG;
	enum r0_backend backend = R0_BACKEND_DM;
	uint32_t chunk = 0;
	struct r0_device d;
	struct stat st;
	int err, kind = 1;

	memset(t, 0, sizeof(*t));
	why[0] = '\0';
	t->md_layout = -1;
	if (stat(path, &st)) {
		err = -errno;
		snprintf(why, len, "%s", err == -ENOENT ? "no such device" : strerror(-err));
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "not a block device");
		return -ENOTBLK;
	}
	err = r0_probe_devt(st.st_rdev, NULL, &d);
	if (err) {
		snprintf(why, len, "cannot describe it: %s", strerror(-err));
		return err;
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->kname, sizeof(t->kname), "%s", d.kname);
	t->devt = d.devt;
	t->size_sectors = d.size_bytes / 512;
	r0_discard_limits_from_device(&d, &t->lim);

	if (d.is_md) {
		t->kind = R0_TRIM_MD;
		backend = R0_BACKEND_MD;
		chunk = d.md_chunk_size_bytes > 0 ? (uint32_t)d.md_chunk_size_bytes : 0;
		err = describe_md(&d, t, members, msize, moff, why, len);
		kind = 0;
	} else if (d.is_dm) {
		t->kind = R0_TRIM_DM;
		err = describe_dm(&d, t, members, msize, moff, &chunk, why, len);
		kind = err;   /* 1: not a stripe */
		if (err > 0)
			err = 0;
	}
	if (!err && kind == 1) {
		t->kind = R0_TRIM_SINGLE;
		t->n_members = 1;
		members[0] = d.devt;
		msize[0] = t->size_sectors;
		moff[0] = 0;
		chunk = pick_unit(t->size_sectors);
		snprintf(t->desc, sizeof(t->desc), "%s, checked as a single device",
			 d.is_dm ? "dm device of another kind" : d.is_partition ? "partition" : "disk");
	}
	r0_device_free(&d);
	if (err)
		return err;
	t->unit_bytes = chunk;

	err = r0_geometry_init(&t->geo, backend, chunk, t->n_members, msize, moff, R0_MD_LAYOUT_ORIG);
	if (!err && backend == R0_BACKEND_MD && r0_geometry_needs_layout(&t->geo)) {
		/* the layout matters: md/layout, or raid0.default_layout where it is unset */
		uint64_t v = 0;

		if (t->md_layout == R0_MD_LAYOUT_ORIG || t->md_layout == R0_MD_LAYOUT_ALT)
			layout = (enum r0_md_layout)t->md_layout;
		else if (r0_sysfs_read_u64("/sys/module/raid0/parameters/default_layout", &v) == 0 &&
			 (v == R0_MD_LAYOUT_ORIG || v == R0_MD_LAYOUT_ALT))
			layout = (enum r0_md_layout)v;
		else {
			snprintf(why, len, "md with zones but no layout the kernel would use (md/layout %d)",
				 t->md_layout);
			return -EINVAL;
		}
		err = r0_geometry_init(&t->geo, backend, chunk, t->n_members, msize, moff, layout);
	}
	if (err) {
		snprintf(why, len, "its geometry cannot be modelled (chunk %u bytes): %s", chunk,
			 strerror(-err));
		return err;
	}
	if (backend == R0_BACKEND_MD && r0_geometry_is_multizone(&t->geo)) {
		size_t l = strlen(t->desc);

		snprintf(t->desc + l, sizeof(t->desc) - l, ", %u zones, layout %s", t->geo.n_zones,
			 t->geo.layout == R0_MD_LAYOUT_ALT ? "alt" : "orig");
	}
	t->geometry_matches = t->geo.array_sectors == t->size_sectors ||
			      (t->kind == R0_TRIM_SINGLE && t->geo.array_sectors <= t->size_sectors);
	for (unsigned i = 0; i < t->n_members; i++) {
		err = describe_member(members[i], &t->members[i]);
		if (err == -EMEDIUMTYPE) {
			snprintf(why, len, "member %s is an md array: md keeps no discard counters, so what "
				 "reaches it cannot be counted", t->members[i].chain_kname[t->members[i].depth]);
			return -EOPNOTSUPP;
		}
		if (err) {
			snprintf(why, len, "member %u:%u: %s", major(members[i]), minor(members[i]),
				 strerror(-err));
			return err;
		}
	}
	return 0;
}
