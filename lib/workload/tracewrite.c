// SPDX-License-Identifier: GPL-2.0-or-later
/* The r0trace/1 file written: varint-coded block requests, a count and a CRC at the end (r0/trace.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r0/trace.h"
#include "tracecodec.h"

struct r0_trace_writer {
	FILE *f;
	uint32_t crc;
	uint64_t bytes, records, last_t_us;
	uint64_t end[OPS];          /* where the last request of each operation ended */
	uint64_t done[OPS];         /* the sector of the last issue or completion of each */
	int err;                    /* the first write error */
};

static void put(struct r0_trace_writer *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (fwrite(p, 1, n, w->f) != n) {
		w->err = errno ? -errno : -EIO;
		return;
	}
	w->crc = crc32_add(w->crc, p, n);
	w->bytes += n;
}

static void put_varint(struct r0_trace_writer *w, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		b[n++] |= v ? 0x80 : 0;
	} while (v);
	put(w, b, n);
}

int r0_trace_writer_open(const char *path, const struct r0_trace_header *h,
			 struct r0_trace_writer **out)
{
	struct r0_trace_writer *w;
	size_t name_len = strnlen(h->name, sizeof(h->name));
	int err;

	*out = NULL;
	if (!name_len || name_len > R0_TRACE_NAME_MAX || h->flags > R0_TRACE_QD_ISSUE)
		return -EINVAL;
	if (!(w = calloc(1, sizeof(*w))))
		return -ENOMEM;
	if (!(w->f = fopen(path, "wbe"))) {
		err = -errno;
		free(w);
		return err;
	}
	put(w, R0_TRACE_MAGIC, strlen(R0_TRACE_MAGIC));
	put_varint(w, h->flags);
	put_varint(w, name_len);
	put(w, h->name, name_len);
	put_varint(w, h->size_sectors);
	put_varint(w, h->logical_block_bytes);
	put_varint(w, h->start_epoch_us);
	if (w->err) {
		err = w->err;
		r0_trace_writer_abort(w, path);
		return err;
	}
	*out = w;
	return 0;
}

int r0_trace_write(struct r0_trace_writer *w, const struct r0_trace_event *ev)
{
	unsigned char tag;

	if ((unsigned)ev->kind >= KINDS || (unsigned)ev->op >= OPS || ev->t_us < w->last_t_us)
		return -EINVAL;
	if (has_range(ev->kind, ev->op) && (!ev->bytes || ev->bytes % 512 || ev->bytes > R0_TRACE_REQUEST_MAX_BYTES))
		return -EINVAL;
	tag = (unsigned char)(ev->op | ev->kind << 2);
	put(w, &tag, 1);
	put_varint(w, ev->t_us - w->last_t_us);
	if (has_range(ev->kind, ev->op)) {
		put_varint(w, zigzag((int64_t)(ev->sector - w->end[ev->op])));
		put_varint(w, ev->bytes / 512);
		w->end[ev->op] = ev->sector + ev->bytes / 512;
	} else if (has_sector(ev->op)) {
		/* completions of a stream follow each other too: a small delta */
		put_varint(w, zigzag((int64_t)(ev->sector - w->done[ev->op])));
		w->done[ev->op] = ev->sector;
	}
	w->last_t_us = ev->t_us;
	w->records++;
	return w->err;
}

uint64_t r0_trace_writer_bytes(const struct r0_trace_writer *w)
{
	return w->bytes;
}

int r0_trace_writer_close(struct r0_trace_writer *w)
{
	unsigned char tag = TAG_END, crc[4];
	int err;

	if (!w)
		return 0;
	put(w, &tag, 1);
	put_varint(w, w->records);
	for (int i = 0; i < 4; i++)
		crc[i] = (unsigned char)(w->crc >> (8 * i));
	if (!w->err && fwrite(crc, 1, 4, w->f) != 4)
		w->err = errno ? -errno : -EIO;
	err = w->err;
	/* a full disk may only show at the last flush */
	if (fclose(w->f) && !err)
		err = -errno;
	free(w);
	return err;
}

void r0_trace_writer_abort(struct r0_trace_writer *w, const char *path)
{
	if (!w)
		return;
	fclose(w->f);
	unlink(path);
	free(w);
}
