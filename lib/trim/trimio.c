// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h, the I/O part: discard counters (Documentation/block/stat.rst
 * fields 12-15), BLKDISCARD, the fill pattern and the read-back after a
 * discard, through the array and on its members. Callers open devices with
 * O_DIRECT, so what is read comes from the device, not the page cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockdev.h"
#include "r0/scsilba.h"
#include "r0/trimcheck.h"
#include "r0/probe.h"

/* 4 MiB a read or write: the check's time goes to these calls, and larger ones make fewer
 * (docs/notes/lab-notebook.md, r0trim on QEMU NVMe drives) */
#define IO_BYTES (4u << 20)

int r0_trim_read_counters(const struct r0_trim_device *t, struct r0_trim_counters *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		struct r0_blockstat s;

		if (t->stack.node[i].counts && r0_read_stat_devt(t->stack.node[i].devt, NULL, &s) == 0 &&
		    s.nr_fields >= 15)
			c->node_sectors[i] = s.discard_sectors;
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		struct r0_blockstat s;
		int err = r0_read_stat_devt(m->chain[0], NULL, &s);   /* the top's child on its path */

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
	return r0_blockdev_discard(fd, start_sector * 512, n_sectors * 512);
}

void r0_trim_pattern(uint64_t seed, uint64_t sector, unsigned n_sectors, void *buf)
{
	uint64_t *w = buf, mix = (seed + 1) * 0x9E3779B97F4A7C15ull;

	for (unsigned s = 0; s < n_sectors; s++)
		for (unsigned i = 0; i < 64; i++)
			*w++ = (((sector + s) << 6) | i) ^ mix;
}

bool r0_trim_pattern_matches(uint64_t seed, uint64_t sector, unsigned n_sectors, const void *buf)
{
	const uint64_t *w = buf;
	uint64_t mix = (seed + 1) * 0x9E3779B97F4A7C15ull, diff = 0;

	/* one pass, no second buffer and no memcmp: under TCG plain word loops are what is fast */
	for (unsigned s = 0; s < n_sectors; s++)
		for (unsigned i = 0; i < 64; i++)
			diff |= *w++ ^ ((((sector + s) << 6) | i) ^ mix);
	return diff == 0;
}

/* pread or pwrite of all LEN bytes at OFF; a short transfer goes on, the end of the device is -EIO. */
static int full_io(int fd, void *buf, size_t len, uint64_t off, bool write)
{
	while (len) {
		ssize_t n = write ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);

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

static int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return full_io(fd, (void *)buf, len, off, true);
}

static int full_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return full_io(fd, buf, len, off, false);
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

static uint64_t member_gran(const struct r0_trim_member *m)
{
	uint64_t g = m->lim.granularity_bytes > m->leaf_lim.granularity_bytes ?
		m->lim.granularity_bytes : m->leaf_lim.granularity_bytes;

	return g / 512 ? g / 512 : 1;
}

static unsigned char promised_byte(const struct r0_trim_member *m)
{
	return m->reads == R0_READS_ZEROES ? 0x00 : 0xff;
}

/* P is 8-byte aligned and LEN a multiple of 512: a word loop, 8x fewer steps than bytes. */
static bool block_is(const unsigned char *p, size_t len, unsigned char v)
{
	const uint64_t *w = (const uint64_t *)(const void *)p, want = 0x0101010101010101ull * v;
	uint64_t diff = 0;

	for (size_t i = 0; i < len / 8; i++)
		diff |= w[i] ^ want;
	return diff == 0;
}

/* The one bottom device top sector A lands on, -1 for several (a mirror) or none. */
static int leaf_of(const struct r0_trim_device *t, uint64_t a)
{
	struct r0_trim_leaf_extent *x = NULL;
	size_t n = 0;
	int leaf = -1;

	if (r0_trim_stack_split(&t->stack, a, 1, &x, &n, NULL) == 0 && n == 1 && x[0].placed)
		leaf = (int)x[0].leaf;
	free(x);
	return leaf;
}

static void note_bad(struct r0_trim_effect *e, uint64_t sector, int member, bool inside)
{
	if (e->first_bad_sector >= 0)
		return;
	e->first_bad_sector = (int64_t)sector;
	e->first_bad_member = member;
	e->first_bad_inside = inside;
}

/* A piece of the top that must read V after the discard; LEAF is where it lies (-1: on several). */
struct must {
	uint64_t a, b;
	unsigned char v;
	int leaf;
};

struct event {
	uint64_t at;
	int cover, zero, ones, leaf;
};

static int cmp_event(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;

	return a->at < b->at ? -1 : a->at > b->at;
}

/*
 * The top sectors whose every copy below was discarded in whole granules
 * on a device that promises the same value, through layers that keep the
 * data as written (no crypt, no thin): what a read through the top must
 * return there. Sorted, in *OUT (malloc'ed).
 */
static int must_read(const struct r0_trim_device *t, const struct r0_trim_leaf_extent *ext, size_t cnt,
		     struct must **out, size_t *nout)
{
	struct event *ev = calloc(4 * cnt + 1, sizeof(*ev));
	struct must *m = calloc(2 * cnt + 1, sizeof(*m));
	size_t ne = 0, nm = 0;
	int cover = 0, zero = 0, ones = 0, leaf = -1;

	if (!ev || !m) {
		free(ev);
		free(m);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cnt; i++) {
		const struct r0_trim_leaf_extent *x = &ext[i];
		const struct r0_trim_member *mb = &t->members[x->leaf];
		uint64_t ia, ib;

		if (!x->placed)
			continue;
		ev[ne++] = (struct event){ x->top_start_sector, 1, 0, 0, (int)x->leaf };
		ev[ne++] = (struct event){ x->top_start_sector + x->n_sectors, -1, 0, 0, (int)x->leaf };
		if (!x->plain || x->dropped_at >= 0 || mb->reads == R0_READS_UNKNOWN)
			continue;
		r0_trim_interior(x->leaf_start_sector, x->n_sectors, member_gran(mb),
				 mb->leaf_lim.alignment_bytes / 512, &ia, &ib);
		if (ia >= ib)
			continue;
		ev[ne++] = (struct event){ x->top_start_sector + (ia - x->leaf_start_sector), 0,
					   mb->reads == R0_READS_ZEROES, mb->reads == R0_READS_ONES, (int)x->leaf };
		ev[ne++] = (struct event){ x->top_start_sector + (ib - x->leaf_start_sector), 0,
					   -(mb->reads == R0_READS_ZEROES), -(mb->reads == R0_READS_ONES), (int)x->leaf };
	}
	qsort(ev, ne, sizeof(*ev), cmp_event);
	for (size_t i = 0; i < ne; i++) {
		cover += ev[i].cover;
		zero += ev[i].zero;
		ones += ev[i].ones;
		if (ev[i].cover > 0)
			leaf = cover == 1 ? ev[i].leaf : -1;
		if (i + 1 < ne && ev[i + 1].at == ev[i].at)
			continue;
		if (i + 1 < ne && cover > 0 && (zero == cover || ones == cover)) {
			unsigned char v = zero == cover ? 0x00 : 0xff;

			if (nm && m[nm - 1].b == ev[i].at && m[nm - 1].v == v && m[nm - 1].leaf == leaf)
				m[nm - 1].b = ev[i + 1].at;
			else
				m[nm++] = (struct must){ ev[i].at, ev[i + 1].at, v, cover == 1 ? leaf : -1 };
		}
	}
	free(ev);
	*out = m;
	*nout = nm;
	return 0;
}

/* A block of LB sectors: its first sector, and LB * 512 bytes of data. */
typedef void block_fn(uint64_t sector, const unsigned char *blk, uint64_t lb, void *arg);

/* Reads sectors [from, to) of FD into BUF, IO_BYTES at a time, and calls FN on each block. */
static int each_block(int fd, uint64_t from, uint64_t to, uint64_t lb, unsigned char *buf,
		      block_fn *fn, void *arg)
{
	while (from < to) {
		unsigned k = to - from > IO_BYTES / 512 ? IO_BYTES / 512 : (unsigned)(to - from);
		int err = full_pread(fd, buf, (size_t)k * 512, from * 512);

		if (err)
			return err;
		for (unsigned off = 0; off < k; off += (unsigned)lb)
			fn(from + off, buf + (size_t)off * 512, lb, arg);
		from += k;
	}
	return 0;
}

/* Sectors in a logical block of LOGICAL_BLOCK_BYTES (one when unknown). */
static uint64_t block_sectors(uint32_t logical_block_bytes)
{
	return logical_block_bytes / 512 ? logical_block_bytes / 512 : 1;
}

struct array_check {
	const struct r0_trim_device *t;
	uint64_t seed, start, n;
	const struct must *mr;
	size_t nm, j;                    /* mr[j]: the first range not ending before the block */
	struct r0_trim_effect *e;
};

static void check_array_block(uint64_t a, const unsigned char *blk, uint64_t lb, void *arg)
{
	struct array_check *c = arg;
	struct r0_trim_effect *e = c->e;

	if (a < c->start || a >= c->start + c->n) {
		if (r0_trim_pattern_matches(c->seed, a, (unsigned)lb, blk)) {
			e->intact_ok += lb;
		} else {
			e->intact_bad += lb;
			if (e->first_bad_sector < 0)
				note_bad(e, a, leaf_of(c->t, a), false);
		}
		return;
	}
	while (c->j < c->nm && c->mr[c->j].b <= a)
		c->j++;
	if (c->j == c->nm || c->mr[c->j].a > a || c->mr[c->j].b < a + lb) {
		e->unchecked += lb;
		return;
	}
	if (block_is(blk, (size_t)lb * 512, c->mr[c->j].v)) {
		e->discarded_ok += lb;
	} else {
		e->discarded_bad += lb;
		note_bad(e, a, c->mr[c->j].leaf, true);
	}
}

/* Reads top sectors [from, to) and sorts every block into the counts of E. */
static int verify_array(const struct r0_trim_device *t, int fd, uint64_t seed, uint64_t start,
			uint64_t n, const struct must *mr, size_t nm, uint64_t from, uint64_t to,
			unsigned char *buf, struct r0_trim_effect *e)
{
	struct array_check c = { t, seed, start, n, mr, nm, 0, e };

	return each_block(fd, from, to, block_sectors(t->lim.logical_block_bytes), buf,
			  check_array_block, &c);
}

struct leaf_check {
	const struct r0_trim_member *m;
	unsigned l;
	uint64_t seed;
	bool discarded;
	uint64_t top;                    /* the top sector of the leaf's sector FROM */
	uint64_t from;
	struct r0_trim_effect *e;
};

static void check_leaf_block(uint64_t sector, const unsigned char *blk, uint64_t lb, void *arg)
{
	struct leaf_check *c = arg;
	struct r0_trim_effect *e = c->e;
	bool ok;

	if (c->discarded) {
		ok = block_is(blk, (size_t)lb * 512, promised_byte(c->m));
		*(ok ? &e->member_discarded_ok : &e->member_discarded_bad) += lb;
		*(ok ? &e->leaf_discarded_ok[c->l] : &e->leaf_discarded_bad[c->l]) += lb;
	} else {
		ok = r0_trim_pattern_matches(c->seed, c->top + (sector - c->from), (unsigned)lb, blk);
		*(ok ? &e->member_intact_ok : &e->member_intact_bad) += lb;
	}
	if (!ok && e->first_bad_member_direct < 0)
		e->first_bad_member_direct = (int)c->l;
}

/* Bottom device L's sectors [from, to): the promised value, or the pattern of top sector TOP on. */
static int verify_leaf(const struct r0_trim_device *t, unsigned l, int fd, uint64_t seed,
		       uint64_t from, uint64_t to, bool discarded, uint64_t top, unsigned char *buf,
		       struct r0_trim_effect *e)
{
	struct leaf_check c = { &t->members[l], l, seed, discarded, top, from, e };

	return each_block(fd, from, to, block_sectors(c.m->leaf_lim.logical_block_bytes), buf,
			  check_leaf_block, &c);
}

/* The bottom devices' pieces of top sectors [a, b) must still hold the pattern. */
static int verify_beside(const struct r0_trim_device *t, const int *fds, uint64_t seed, uint64_t a,
			 uint64_t b, unsigned char *buf, struct r0_trim_effect *e)
{
	struct r0_trim_leaf_extent *ext = NULL;
	size_t cnt = 0;
	int err = a < b ? r0_trim_stack_split(&t->stack, a, b - a, &ext, &cnt, NULL) : 0;

	for (size_t i = 0; !err && i < cnt; i++)
		if (ext[i].placed && ext[i].plain && fds[ext[i].leaf] >= 0)
			err = verify_leaf(t, ext[i].leaf, fds[ext[i].leaf], seed, ext[i].leaf_start_sector,
					  ext[i].leaf_start_sector + ext[i].n_sectors, false,
					  ext[i].top_start_sector, buf, e);
	free(ext);
	return err;
}

int r0_trim_verify(const struct r0_trim_device *t, int array_fd, const int *member_fds,
		   uint64_t seed, uint64_t start, uint64_t n, uint64_t window,
		   struct r0_trim_effect *e)
{
	struct r0_trim_leaf_extent *ext = NULL;
	struct must *mr = NULL;
	unsigned char *buf = NULL;
	uint64_t A = t->geo.array_sectors, from, to, w;
	bool any_promise = false;
	size_t cnt = 0, nm = 0;
	int err;

	memset(e, 0, sizeof(*e));
	e->first_bad_sector = -1;
	e->first_bad_member = e->first_bad_member_direct = -1;
	err = n ? r0_trim_stack_split(&t->stack, start, n, &ext, &cnt, NULL) : 0;   /* n 0: the pattern only */
	if (err || (err = must_read(t, ext, cnt, &mr, &nm)))
		goto out;
	for (size_t i = 0; i < cnt; i++)
		/* only the devices the range reaches can make it checkable */
		if (ext[i].placed && ext[i].dropped_at < 0 && t->members[ext[i].leaf].reads != R0_READS_UNKNOWN)
			any_promise = true;
	if (posix_memalign((void **)&buf, 4096, IO_BYTES)) {
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
	if ((err = verify_array(t, array_fd, seed, start, n, mr, nm, from, to, buf, e)))
		goto out;

	/* the bottom devices themselves: the discarded granules, and what lies beside the range */
	for (size_t i = 0; member_fds && i < cnt && !err; i++) {
		const struct r0_trim_leaf_extent *x = &ext[i];
		const struct r0_trim_member *m = &t->members[x->leaf];
		uint64_t ia, ib;

		if (!x->placed || x->dropped_at >= 0 || m->reads == R0_READS_UNKNOWN || member_fds[x->leaf] < 0)
			continue;
		r0_trim_interior(x->leaf_start_sector, x->n_sectors, member_gran(m),
				 m->leaf_lim.alignment_bytes / 512, &ia, &ib);
		if (ia < ib)
			err = verify_leaf(t, x->leaf, member_fds[x->leaf], seed, ia, ib, true, 0, buf, e);
	}
	w = 2 * (uint64_t)t->geo.chunk_sectors * t->geo.n_members;
	if (!err && member_fds && n && window != R0_TRIM_NO_OUTSIDE)
		err = verify_beside(t, member_fds, seed, start > w ? start - w : 0, start, buf, e);
	if (!err && member_fds && n && window != R0_TRIM_NO_OUTSIDE)
		err = verify_beside(t, member_fds, seed, start + n, A - (start + n) > w ? start + n + w : A,
				    buf, e);
	if (err)
		goto out;
	if (e->discarded_bad || e->intact_bad || e->member_discarded_bad || e->member_intact_bad)
		e->verdict = R0_CHECK_FAIL;
	else if (n == 0)
		e->verdict = R0_CHECK_OK;
	else if (!any_promise)
		e->verdict = R0_CHECK_NOT_CHECKABLE;
	else if (e->discarded_ok == 0 && e->member_discarded_ok == 0)
		e->verdict = R0_CHECK_NOT_CONCLUSIVE;   /* no whole granule where a promise holds */
	else
		e->verdict = R0_CHECK_OK;
out:
	free(ext);
	free(mr);
	free(buf);
	return err;
}

int r0_trim_leaf_readback(const struct r0_trim_device *t, const struct r0_trim_leaf_extent *x, size_t n,
			  uint64_t *ok, uint64_t *bad, uint64_t *unchecked)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *buf = NULL;
	int fds[R0_MAX_MEMBERS], err = 0;

	for (unsigned i = 0; i < t->n_members; i++) {
		fds[i] = -1;
		ok[i] = bad[i] = unchecked[i] = 0;
	}
	if (posix_memalign((void **)&buf, 4096, CHUNK))
		return -ENOMEM;
	for (size_t k = 0; k < n && !err; k++) {
		const struct r0_trim_member *m;
		uint64_t g, a, b;

		if (x[k].leaf >= t->n_members)
			continue;
		m = &t->members[x[k].leaf];
		/* only whole granules of the bottom device are sure to be discarded */
		g = member_gran(m);
		a = (x[k].leaf_start_sector + g - 1) / g * g;
		b = (x[k].leaf_start_sector + x[k].n_sectors) / g * g;
		if (!x[k].placed || x[k].dropped_at >= 0 || m->reads == R0_READS_UNKNOWN || b <= a) {
			unchecked[x[k].leaf] += x[k].n_sectors;
			continue;
		}
		unchecked[x[k].leaf] += x[k].n_sectors - (b - a);
		if (fds[x[k].leaf] < 0) {
			char node[64];

			/* read-only and shared: the mounted stack holds the device */
			if ((err = r0_devt_node(m->devt, node, sizeof(node))))
				break;
			fds[x[k].leaf] = open(node, O_RDONLY | O_DIRECT | O_CLOEXEC);
			if (fds[x[k].leaf] < 0) {
				err = -errno;
				break;
			}
		}
		for (uint64_t s = a; s < b && !err;) {
			size_t len = (b - s) * 512 < CHUNK ? (size_t)((b - s) * 512) : CHUNK;

			if ((err = full_pread(fds[x[k].leaf], buf, len, s * 512)))
				break;
			for (size_t o = 0; o < len; o += 512)
				if (block_is(buf + o, 512, promised_byte(m)))
					ok[x[k].leaf]++;
				else
					bad[x[k].leaf]++;
			s += len / 512;
		}
	}
	for (unsigned i = 0; i < t->n_members; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(buf);
	return err;
}

int r0_trim_leaf_lba_status(const struct r0_trim_device *t, const struct r0_trim_leaf_extent *x, size_t n,
			    struct r0_trim_lba_answer *a)
{
	int fds[R0_MAX_MEMBERS], err = 0;
	bool asked[R0_MAX_MEMBERS] = { false }, none[R0_MAX_MEMBERS] = { false };

	for (unsigned i = 0; i < t->n_members; i++) {
		fds[i] = -1;
		a[i] = (struct r0_trim_lba_answer){ 0 };
	}
	for (size_t k = 0; k < n && !err; k++) {
		const struct r0_trim_member *m;
		struct r0_lba_status st = { 0 };
		unsigned l = x[k].leaf, lb;
		uint64_t g, ia, ib;

		if (l >= t->n_members || !x[k].placed || x[k].dropped_at >= 0 || none[l])
			continue;
		m = &t->members[l];
		lb = m->leaf_lim.logical_block_bytes ? m->leaf_lim.logical_block_bytes : 512;
		/* whole granules only, and whole logical blocks: what the drive must have been sent */
		g = member_gran(m);
		if (g % (lb / 512))
			g *= lb / 512;
		r0_trim_interior(x[k].leaf_start_sector, x[k].n_sectors, g, m->leaf_lim.alignment_bytes / 512,
				 &ia, &ib);
		if (ia >= ib)
			continue;
		if (!asked[l]) {
			char node[64];

			asked[l] = true;
			if ((err = r0_devt_node(m->devt, node, sizeof(node))))
				break;
			if ((fds[l] = open(node, O_RDONLY | O_CLOEXEC)) < 0) {
				err = -errno;
				break;
			}
		}
		err = r0_scsi_lba_status(fds[l], ia, ib - ia, lb, &st);
		if (err == -EOPNOTSUPP || err == -EINVAL) {
			none[l] = true;   /* not SCSI, or no GET LBA STATUS: unanswered, not an error */
			a[l] = (struct r0_trim_lba_answer){ 0 };
			err = 0;
			continue;
		}
		a[l].answered = !err;
		a[l].mapped += st.mapped;
		a[l].deallocated += st.deallocated;
	}
	for (unsigned i = 0; i < t->n_members; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return err;
}
