// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0trace/1 file read, and any trace format read through it (r0/trace.h); written in tracewrite.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "r0/trace.h"
#include "tracecodec.h"
#include "tracein.h"

static const char *const op_name[OPS] = { "read", "write", "discard", "flush" };
static const char *const format_name[] = { "r0trace/1", "blktrace", "fio iolog v2", "fio iolog v3" };

const char *r0_trace_format_name(enum r0_trace_format f)
{
	return (unsigned)f < sizeof(format_name) / sizeof(format_name[0]) ? format_name[f] : NULL;
}

const char *r0_trace_error_text(int err, bool truncated)
{
	switch (err) {
	case -EBADMSG:
		return truncated ? "truncated: the trace ends inside a record (cut short, or its recorder killed)" :
				   "damaged: a record, the record count or the checksum is wrong";
	case -EINVAL:
		return "not a trace: none of r0trace/1 (r0profile --trace), a blktrace recording "
		       "(NAME.blktrace.N, either byte order) or blkparse -d dump, a fio iolog version 2 or 3";
	case -ENODATA:
		return "empty: not a trace";
	case -EPROTONOSUPPORT:
		return "a blktrace of another version than 7: not read";
	case -E2BIG:
		return "too large: a request above 4 GiB - 512 B, more than the kernel issues in one (a bio's "
		       "length is 32 bits)";
	default:
		return NULL;
	}
}

bool r0_trace_is_retry(struct r0_trace_retry *r, unsigned flags, const struct r0_trace_event *ev)
{
	struct r0_trace_queued *l;

	if ((unsigned)ev->op >= 4)
		return false;
	l = &r->last[ev->op];
	if (ev->kind != R0_TRACE_QUEUE) {
		if (l->any && ev->sector == l->sector) {
			l->issued |= ev->kind == R0_TRACE_ISSUE;
			l->refused |= ev->kind == R0_TRACE_COMPLETE && !l->issued;
		}
		return false;
	}
	/* not a flush: blk-mq's flush machinery may end one without an ISSUE of its own */
	if ((flags & R0_TRACE_QD_ISSUE) && ev->bytes && l->any && l->refused && !l->issued &&
	    l->sector == ev->sector && l->bytes == ev->bytes)
		return true;
	*l = (struct r0_trace_queued){ .sector = ev->sector, .bytes = ev->bytes, .any = true };
	return false;
}

const char *r0_trace_op_name(enum r0_trace_op op)
{
	return (unsigned)op < OPS ? op_name[op] : NULL;
}

#define READ_BUF 65536
/* the longest first line of a trace: "fio version 3 iolog\n" */
#define SNIFF_BYTES 32

struct r0_trace_reader {
	FILE *f;
	struct r0_tracein *in;      /* another format than r0trace/1 */
	unsigned char buf[READ_BUF];
	size_t pos, len, crc_from;  /* buf[crc_from, pos) not yet in crc */
	uint32_t crc;
	uint64_t records, last_t_us;
	uint64_t end[OPS], done_at[OPS];
	bool done, truncated;
};

static void crc_sync(struct r0_trace_reader *r)
{
	r->crc = crc32_add(r->crc, r->buf + r->crc_from, r->pos - r->crc_from);
	r->crc_from = r->pos;
}

/* More bytes into the buffer: 0; 1 at the end of the file; -errno. */
static int fill(struct r0_trace_reader *r)
{
	crc_sync(r);
	r->len = fread(r->buf, 1, sizeof(r->buf), r->f);
	r->pos = r->crc_from = 0;
	if (r->len)
		return 0;
	return ferror(r->f) ? (errno ? -errno : -EIO) : 1;
}

/* One byte into *B: 0, or -EBADMSG at the end of the file (truncated), -errno on error. */
static inline int get(struct r0_trace_reader *r, unsigned char *b)
{
	if (r->pos == r->len) {
		int err = fill(r);

		if (err) {
			r->truncated = err == 1;
			return err == 1 ? -EBADMSG : err;
		}
	}
	*b = r->buf[r->pos++];
	return 0;
}

static int get_varint(struct r0_trace_reader *r, uint64_t *v)
{
	unsigned char b;
	int err;

	*v = 0;
	for (unsigned shift = 0;; shift += 7) {
		if ((err = get(r, &b)))
			return err;
		/* the tenth byte may hold only the top bit of 64 */
		if (shift == 63 && b > 1)
			return -EBADMSG;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		if (shift == 63)
			return -EBADMSG;
	}
}

static bool starts(const unsigned char *b, size_t n, const char *s)
{
	return n >= strlen(s) && !memcmp(b, s, strlen(s));
}

/* A blktrace record's magic and version in either byte order. */
static int blktrace_first(const unsigned char *b, size_t n)
{
	uint32_t le, be;

	if (n < 4)
		return 0;
	le = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	be = (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
	if ((le & 0xffffff00u) == BLK_IO_TRACE_MAGIC)
		return (le & 0xff) == BLK_IO_TRACE_VERSION ? 1 : -EPROTONOSUPPORT;
	if ((be & 0xffffff00u) == BLK_IO_TRACE_MAGIC)
		return (be & 0xff) == BLK_IO_TRACE_VERSION ? 1 : -EPROTONOSUPPORT;
	return 0;
}

static int open_other(const char *path, FILE *f, const unsigned char *b, size_t n, struct r0_trace_header *h,
		      struct r0_tracein **in)
{
	int bt = blktrace_first(b, n);

	if (bt < 0) {
		fclose(f);
		return bt;
	}
	if (bt)
		return r0_tracein_blktrace_open(path, f, h, in);
	if (starts(b, n, "fio version 2 iolog\n") || starts(b, n, "fio version 2 iolog\r\n"))
		return r0_tracein_iolog_open(path, f, 2, h, in);
	if (starts(b, n, "fio version 3 iolog\n") || starts(b, n, "fio version 3 iolog\r\n"))
		return r0_tracein_iolog_open(path, f, 3, h, in);
	fclose(f);
	return n ? -EINVAL : -ENODATA;
}

int r0_trace_reader_open(const char *path, struct r0_trace_header *h, struct r0_trace_reader **out)
{
	struct r0_trace_reader *r = NULL;
	uint64_t flags, name_len, lbs;
	struct stat st = { 0 };
	int err;

	*out = NULL;
	memset(h, 0, sizeof(*h));
	if (!(r = calloc(1, sizeof(*r))))
		return -ENOMEM;
	if (!(r->f = fopen(path, "rbe"))) {
		char first[4096];

		err = -errno;
		/* a blktrace recording named by its prefix: NAME for NAME.blktrace.0 ... */
		if (err == -ENOENT && snprintf(first, sizeof(first), "%s.blktrace.0", path) < (int)sizeof(first) &&
		    !access(first, F_OK)) {
			err = r0_tracein_blktrace_open(path, NULL, h, &r->in);
			if (!err) {
				*out = r;
				r = NULL;
			}
		}
		goto out;
	}
	/* a directory opens for reading, and its first read fails as EISDIR: say so, not -EIO */
	if (fstat(fileno(r->f), &st) || S_ISDIR(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		goto out;
	}
	/* only the first bytes tell the format: a huge file of something else is not read */
	r->len = fread(r->buf, 1, SNIFF_BYTES, r->f);
	if (ferror(r->f)) {
		err = -EIO;
		goto out;
	}
	if (!starts(r->buf, r->len, R0_TRACE_MAGIC)) {
		FILE *f = r->f;

		r->f = NULL;
		if (!(err = open_other(path, f, r->buf, r->len, h, &r->in))) {
			*out = r;
			r = NULL;
		}
		goto out;
	}
	r->pos = strlen(R0_TRACE_MAGIC);
	if ((err = get_varint(r, &flags)) || (err = get_varint(r, &name_len)))
		goto out;
	if (flags > R0_TRACE_QD_ISSUE || !name_len || name_len > R0_TRACE_NAME_MAX) {
		err = -EINVAL;
		goto out;
	}
	for (uint64_t i = 0; i < name_len; i++)
		if ((err = get(r, (unsigned char *)&h->name[i])))
			goto out;
	if ((err = get_varint(r, &h->size_sectors)) || (err = get_varint(r, &lbs)))
		goto out;
	if (lbs < 512 || lbs > 65536 || (lbs & (lbs - 1))) {
		err = -EINVAL;
		goto out;
	}
	if ((err = get_varint(r, &h->start_epoch_us)))
		goto out;
	h->flags = (unsigned)flags;
	h->logical_block_bytes = (uint32_t)lbs;
	*out = r;
	r = NULL;
out:
	r0_trace_reader_free(r);
	return err;
}

/* The end record: the count, then the checksum of everything before it, then nothing. */
static int read_end(struct r0_trace_reader *r)
{
	uint32_t want = 0;
	uint64_t n;
	unsigned char b;
	int err;

	if ((err = get_varint(r, &n)))
		return err;
	crc_sync(r);
	want = r->crc;
	for (int i = 0; i < 4; i++) {
		if ((err = get(r, &b)))
			return err;
		want ^= (uint32_t)b << (8 * i);
	}
	if (want || n != r->records)
		return -EBADMSG;
	if (r->pos < r->len || (err = fill(r)) == 0)
		return -EBADMSG;
	if (err < 0)
		return err;
	r->done = true;
	return 1;
}

/* The next event of an r0trace/1 file (r0_trace_read's returns). */
static int read_record(struct r0_trace_reader *r, struct r0_trace_event *ev)
{
	unsigned char tag;
	uint64_t dt, zz, sectors;
	int err;

	memset(ev, 0, sizeof(*ev));
	if ((err = get(r, &tag)))
		return err;
	if (tag == TAG_END)
		return read_end(r);
	ev->op = (enum r0_trace_op)(tag & 3);
	ev->kind = (enum r0_trace_kind)(tag >> 2);
	if (ev->kind >= KINDS || (err = get_varint(r, &dt)) < 0)
		return err ? err : -EBADMSG;
	if (dt > UINT64_MAX - r->last_t_us)
		return -EBADMSG;
	ev->t_us = r->last_t_us += dt;
	if (has_range(ev->kind, ev->op)) {
		if ((err = get_varint(r, &zz)) || (err = get_varint(r, &sectors)))
			return err;
		/* r0_trace_write never writes a request above the limit: in an r0trace/1 file one is damage */
		if (!sectors || sectors > R0_TRACE_REQUEST_MAX_BYTES / 512)
			return -EBADMSG;
		ev->sector = r->end[ev->op] + (uint64_t)unzigzag(zz);
		ev->bytes = sectors * 512;
		r->end[ev->op] = ev->sector + sectors;
	} else if (has_sector(ev->op)) {
		if ((err = get_varint(r, &zz)))
			return err;
		ev->sector = r->done_at[ev->op] += (uint64_t)unzigzag(zz);
	}
	r->records++;
	return 0;
}

int r0_trace_read(struct r0_trace_reader *r, struct r0_trace_event *ev)
{
	int err;

	if (r->done)
		return 1;
	err = r->in ? r0_tracein_read(r->in, ev, &r->truncated) : read_record(r, ev);
	if (err == 1)
		r->done = true;
	/* one limit for every format, here where they all pass: what one tool reads, all do */
	if (!err && ev->kind == R0_TRACE_QUEUE && ev->bytes > R0_TRACE_REQUEST_MAX_BYTES)
		return -E2BIG;
	return err;
}

bool r0_trace_reader_truncated(const struct r0_trace_reader *r)
{
	return r->truncated;
}

void r0_trace_reader_fault(const struct r0_trace_reader *r, struct r0_trace_fault *f)
{
	f->truncated = r->truncated;
	f->line = r->in ? r0_tracein_line(r->in) : 0;
}

void r0_trace_open_fault(int err, struct r0_trace_fault *f)
{
	*f = (struct r0_trace_fault){ .truncated = err == -EBADMSG };
}

const char *r0_trace_fault_text(int err, const struct r0_trace_fault *f, char *buf, size_t len)
{
	const char *t = r0_trace_error_text(err, f && f->truncated);

	if (!t)
		return NULL;
	/* a text log's bad line is found by its number (a binary record has none); a cut log is its end */
	if (err == -EBADMSG && f && f->line && !f->truncated && len) {
		snprintf(buf, len, "line %lu: damaged: not a fio iolog line ([TIME] FILE ACTION [OFFSET LENGTH]: an "
			 "action fio logs, a length above 0)", f->line);
		return buf;
	}
	return t;
}

void r0_trace_reader_free(struct r0_trace_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	r0_tracein_free(r->in);
	free(r);
}
