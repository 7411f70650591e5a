// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h, the I/O part: discard counters (Documentation/block/stat.rst
 * fields 12-15), BLKDISCARD, the fill pattern and the read-back after a
 * discard, through the array and on its members. Callers open devices with
 * O_DIRECT, so what is read comes from the device, not the page cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "r0/trimcheck.h"

#define IO_BYTES (1u << 20)

int r0_trim_read_counters(const struct r0_trim_target *t, struct r0_trim_counters *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		struct r0_blockstat s;
		int err = r0_read_stat_devt(m->devt, NULL, &s);

		if (err)
			return err;
		if (s.nr_fields < 15)
			return -EOPNOTSUPP;
		c->member_sectors[i] = s.discard_sectors;
		if ((err = r0_read_stat_devt(m->chain[m->depth], NULL, &s)))
			return err;
		if (s.nr_fields < 15)
			return -EOPNOTSUPP;
		c->leaf_sectors[i] = s.discard_sectors;
		c->leaf_writes[i] = s.writes;
	}
	return 0;
}

int r0_trim_discard(int fd, uint64_t start_sector, uint64_t n_sectors)
{
	uint64_t range[2] = { start_sector * 512, n_sectors * 512 };

	return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
}

void r0_trim_pattern(uint64_t seed, uint64_t sector, unsigned n_sectors, void *buf)
{
	uint64_t *w = buf, mix = (seed + 1) * 0x9E3779B97F4A7C15ull;

	for (unsigned s = 0; s < n_sectors; s++)
		for (unsigned i = 0; i < 64; i++)
			*w++ = (((sector + s) << 6) | i) ^ mix;
}

static int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf = (const char *)buf + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int full_pread(int fd, void *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;   /* past the end: the description was wrong */
		buf = (char *)buf + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int r0_trim_fill(int fd, uint64_t seed, uint64_t start, uint64_t n, bool (*stop)(void))
{
	void *buf = NULL;
	int err = 0;

	if (posix_memalign(&buf, 4096, IO_BYTES))
		return -ENOMEM;
	while (n && !err) {
		unsigned k = n > IO_BYTES / 512 ? IO_BYTES / 512 : (unsigned)n;

		if (stop && stop()) {
			err = -EINTR;
			break;
		}
		r0_trim_pattern(seed, start, k, buf);
		err = full_pwrite(fd, buf, (size_t)k * 512, start * 512);
		start += k;
		n -= k;
	}
	if (!err && fsync(fd))
		err = -errno;
	free(buf);
	return err;
}

/* The granule-aligned interiors of one member's extents of the range. */
struct member_part {
	size_t count;
	uint64_t a[2 * R0_MAX_MEMBERS], b[2 * R0_MAX_MEMBERS];   /* interior [a, b) */
	uint64_t s[2 * R0_MAX_MEMBERS], e[2 * R0_MAX_MEMBERS];   /* extent [s, e) */
	uint64_t gran;                                          /* sectors */
};

static uint64_t member_gran(const struct r0_trim_member *m)
{
	uint64_t g = m->lim.granularity_bytes > m->leaf_lim.granularity_bytes ?
		m->lim.granularity_bytes : m->leaf_lim.granularity_bytes;

	return g / 512 ? g / 512 : 1;
}

static bool block_is(const unsigned char *p, size_t len, unsigned char v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void note_bad(struct r0_trim_effect *e, uint64_t sector, int member, bool inside)
{
	if (e->first_bad_sector >= 0)
		return;
	e->first_bad_sector = (int64_t)sector;
	e->first_bad_member = member;
	e->first_bad_inside = inside;
}

/* Reads array sectors [from, to) and sorts every block into the counts of E. */
static int verify_array(const struct r0_trim_target *t, int fd, uint64_t seed, uint64_t start,
			uint64_t n, const struct member_part *parts, uint64_t from, uint64_t to,
			unsigned char *buf, unsigned char *want, struct r0_trim_effect *e)
{
	uint64_t lb = t->lim.logical_block_bytes / 512 ? t->lim.logical_block_bytes / 512 : 1;

	while (from < to) {
		unsigned k = to - from > IO_BYTES / 512 ? IO_BYTES / 512 : (unsigned)(to - from);
		int err = full_pread(fd, buf, (size_t)k * 512, from * 512);

		if (err)
			return err;
		r0_trim_pattern(seed, from, k, want);
		for (unsigned off = 0; off < k; off += (unsigned)lb) {
			uint64_t a = from + off, ms;
			const unsigned char *blk = buf + (size_t)off * 512;
			size_t bl = (size_t)lb * 512;
			unsigned m;
			bool must = false;

			if (r0_geometry_map(&t->geo, a, &m, &ms))
				return -ERANGE;
			if (a < start || a >= start + n) {
				if (memcmp(blk, want + (size_t)off * 512, bl) == 0) {
					e->intact_ok += lb;
				} else {
					e->intact_bad += lb;
					note_bad(e, a, (int)m, false);
				}
				continue;
			}
			for (size_t i = 0; i < parts[m].count && !must; i++)
				must = ms >= parts[m].a[i] && ms + lb <= parts[m].b[i];
			if (!must || t->members[m].reads == R0_READS_UNKNOWN) {
				e->unchecked += lb;
				continue;
			}
			if (block_is(blk, bl, t->members[m].reads == R0_READS_ZEROES ? 0x00 : 0xff)) {
				e->discarded_ok += lb;
			} else {
				e->discarded_bad += lb;
				note_bad(e, a, (int)m, true);
			}
		}
		from += k;
	}
	return 0;
}

/* Member M's sectors [from, to): the discarded value if INSIDE, else the pattern where they map. */
static int verify_member(const struct r0_trim_target *t, unsigned m, int fd, uint64_t seed,
			 uint64_t start, uint64_t n, uint64_t from, uint64_t to, bool inside,
			 unsigned char *buf,
			 unsigned char *want, struct r0_trim_effect *e)
{
	uint64_t lb = t->lim.logical_block_bytes / 512 ? t->lim.logical_block_bytes / 512 : 1;
	unsigned char v = t->members[m].reads == R0_READS_ZEROES ? 0x00 : 0xff;

	while (from < to) {
		unsigned k = to - from > IO_BYTES / 512 ? IO_BYTES / 512 : (unsigned)(to - from);
		int err = full_pread(fd, buf, (size_t)k * 512, from * 512);

		if (err)
			return err;
		for (unsigned off = 0; off < k; off += (unsigned)lb) {
			const unsigned char *blk = buf + (size_t)off * 512;
			size_t bl = (size_t)lb * 512;
			uint64_t a;
			bool ok;

			if (inside) {
				ok = block_is(blk, bl, v);
				if (ok)
					e->member_discarded_ok += lb;
				else
					e->member_discarded_bad += lb;
			} else {
				if (r0_geometry_unmap(&t->geo, m, from + off, &a) ||
				    (a >= start && a < start + n))
					continue;   /* data offset, unused tail, or another piece of the range */
				r0_trim_pattern(seed, a, (unsigned)lb, want);
				ok = memcmp(blk, want, bl) == 0;
				if (ok)
					e->member_intact_ok += lb;
				else
					e->member_intact_bad += lb;
			}
			if (!ok && e->first_bad_member_direct < 0)
				e->first_bad_member_direct = (int)m;
		}
		from += k;
	}
	return 0;
}

int r0_trim_verify(const struct r0_trim_target *t, int array_fd, const int *member_fds,
		   uint64_t seed, uint64_t start, uint64_t n, uint64_t window,
		   struct r0_trim_effect *e)
{
	struct member_part parts[R0_MAX_MEMBERS];
	struct r0_extent *ext = NULL;
	unsigned char *buf = NULL, *want = NULL;
	uint64_t A = t->geo.array_sectors, from, to, w;
	bool any_promise = false;
	size_t cnt = 0;
	int err;

	memset(e, 0, sizeof(*e));
	e->first_bad_sector = -1;
	e->first_bad_member = e->first_bad_member_direct = -1;
	memset(parts, 0, sizeof(parts));
	err = n ? r0_geometry_split(&t->geo, start, n, &ext, &cnt) : 0;   /* n 0: the pattern only */
	if (err)
		return err;
	for (unsigned m = 0; m < t->n_members; m++)
		parts[m].gran = member_gran(&t->members[m]);
	for (size_t i = 0; i < cnt; i++) {
		struct member_part *p = &parts[ext[i].member];

		if (p->count == sizeof(p->a) / sizeof(p->a[0])) {
			err = -E2BIG;
			goto out;
		}
		p->s[p->count] = ext[i].member_start_sector;
		p->e[p->count] = ext[i].member_start_sector + ext[i].n_sectors;
		r0_trim_interior(ext[i].member_start_sector, ext[i].n_sectors, p->gran,
				 t->members[ext[i].member].leaf_lim.alignment_bytes / 512,
				 &p->a[p->count], &p->b[p->count]);
		p->count++;
		/* only the members the range reaches can make it checkable */
		if (t->members[ext[i].member].reads != R0_READS_UNKNOWN)
			any_promise = true;
	}
	if (posix_memalign((void **)&buf, 4096, IO_BYTES) || posix_memalign((void **)&want, 4096, IO_BYTES)) {
		err = -ENOMEM;
		goto out;
	}
	if (window == 0) {
		from = 0;
		to = A;
	} else if (window == R0_TRIM_NO_OUTSIDE) {
		from = start;
		to = start + n;
	} else {
		from = start > window ? start - window : 0;
		to = A - (start + n) > window ? start + n + window : A;
	}
	err = verify_array(t, array_fd, seed, start, n, parts, from, to, buf, want, e);
	if (err)
		goto out;

	/* the members themselves: the discarded granules, and two chunks either side */
	w = 2 * (uint64_t)t->geo.chunk_sectors;
	for (unsigned m = 0; member_fds && m < t->n_members; m++) {
		const struct member_part *p = &parts[m];
		uint64_t lo = t->geo.data_offset_sectors[m];
		uint64_t hi = lo + t->geo.used_sectors[m];

		if (member_fds[m] < 0)
			continue;
		for (size_t i = 0; i < p->count && !err; i++) {
			if (t->members[m].reads != R0_READS_UNKNOWN && p->a[i] < p->b[i])
				err = verify_member(t, m, member_fds[m], seed, start, n, p->a[i], p->b[i], true,
						    buf, want, e);
			if (!err && window != R0_TRIM_NO_OUTSIDE) {
				uint64_t s = p->s[i] - lo > w ? p->s[i] - w : lo;
				uint64_t x = hi - p->e[i] > w ? p->e[i] + w : hi;

				err = verify_member(t, m, member_fds[m], seed, start, n, s, p->s[i], false,
						    buf, want, e);
				if (!err)
					err = verify_member(t, m, member_fds[m], seed, start, n, p->e[i], x,
							    false, buf, want, e);
			}
		}
		if (err)
			goto out;
	}
	if (e->discarded_bad || e->intact_bad || e->member_discarded_bad || e->member_intact_bad)
		e->verdict = R0_VERDICT_FAIL;
	else if (n == 0)
		e->verdict = R0_VERDICT_PASS;
	else if (!any_promise)
		e->verdict = R0_VERDICT_NOT_CHECKABLE;
	else if (e->discarded_ok == 0)
		e->verdict = R0_VERDICT_NOT_CONCLUSIVE;   /* no whole granule where a promise holds */
	else
		e->verdict = R0_VERDICT_PASS;
out:
	free(ext);
	free(buf);
	free(want);
	return err;
}

int r0_trim_file_share(const struct r0_geometry *g, int fd, uint64_t *per_member_sectors)
{
	enum { BATCH = 64 };
	struct fiemap *fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	uint64_t next = 0;
	int err = 0;
	bool last = false;

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
			uint64_t tot[R0_MAX_MEMBERS] = { 0 };

			if (x->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
			next = x->fe_logical + x->fe_length;
			if (x->fe_flags & (FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_SHARED |
					   FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					   FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED))
				continue;
			err = r0_geometry_split_totals(g, x->fe_physical / 512, x->fe_length / 512, tot);
			for (unsigned m = 0; !err && m < g->n_members; m++)
				per_member_sectors[m] += tot[m];
		}
	}
	free(fm);
	return err;
}
