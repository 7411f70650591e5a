// SPDX-License-Identifier: GPL-2.0-or-later
/* A trace written out as a fio iolog v3 or a blktrace file (r0/trace.h r0_trace_export). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/blktrace_api.h>

#include "r0/trace.h"

static const char *const iolog_action[] = { "read", "write", "trim", "sync" };

static int write_iolog(FILE *f, const char *file, const struct r0_trace_event *ev, bool *first,
		       uint64_t *t0)
{
	if (ev->kind != R0_TRACE_QUEUE)
		return 0;
	if (*first) {
		*t0 = ev->t_us;
		*first = false;
	}
	if (ev->op == R0_TRACE_FLUSH)
		return fprintf(f, "%llu %s sync 0 0\n", (unsigned long long)(ev->t_us - *t0), file) < 0 ? -EIO : 0;
	return fprintf(f, "%llu %s %s %llu %llu\n", (unsigned long long)(ev->t_us - *t0), file,
		       iolog_action[ev->op], (unsigned long long)ev->sector * 512,
		       (unsigned long long)ev->bytes) < 0 ? -EIO : 0;
}

static int write_blktrace(FILE *f, const struct r0_trace_event *ev, uint32_t seq)
{
	static const uint32_t act[] = { __BLK_TA_QUEUE, __BLK_TA_ISSUE, __BLK_TA_COMPLETE };
	static const uint32_t cls[] = { BLK_TC_QUEUE, BLK_TC_ISSUE, BLK_TC_COMPLETE };
	static const uint32_t dir[] = { 0, BLK_TC_WRITE, BLK_TC_WRITE | BLK_TC_DISCARD, BLK_TC_WRITE | BLK_TC_FLUSH };
	struct blk_io_trace t = {
		.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION, .sequence = seq,
		.time = ev->t_us * 1000, .sector = ev->sector,
		.bytes = ev->kind == R0_TRACE_QUEUE ? (uint32_t)ev->bytes : 0,
		.action = act[ev->kind] | BLK_TC_ACT(cls[ev->kind] | dir[ev->op]),
	};

	/* r0_trace_read held every length to R0_TRACE_REQUEST_MAX_BYTES: blk_io_trace's 32 bits hold it */
	return fwrite(&t, sizeof(t), 1, f) == 1 ? 0 : -EIO;
}

int r0_trace_export(const char *in, enum r0_trace_format fmt, const char *out, struct r0_trace_export_stats *st)
{
	struct r0_trace_export_stats s = { 0 };
	struct r0_trace_header h;
	struct r0_trace_reader *r = NULL;
	struct r0_trace_event ev;
	char tmp[PATH_MAX], file[R0_TRACE_NAME_MAX + 8];
	struct r0_trace_retry retry = { 0 };
	bool first = true;
	uint64_t t0 = 0, last = 0;
	FILE *f = NULL;
	int fd, err;

	struct stat sb;

	if (fmt != R0_TRACE_FMT_IOLOG3 && fmt != R0_TRACE_FMT_BLKTRACE)
		return -EINVAL;
	/* renamed over at the end: never a device, a pipe or a directory */
	if (!stat(out, &sb) && !S_ISREG(sb.st_mode))
		return S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
	if ((err = r0_trace_reader_open(in, &h, &r))) {
		if (st)
			r0_trace_open_fault(err, &st->fault);
		return err;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		err = -errno;
		goto out;
	}
	if (!(f = fdopen(fd, "wb"))) {
		err = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	fchmod(fd, 0644);
	snprintf(file, sizeof(file), "/dev/%s", h.name);
	if (fmt == R0_TRACE_FMT_IOLOG3 && fprintf(f, "fio version 3 iolog\n0 %s add\n0 %s open\n", file, file) < 0)
		err = -EIO;
	while (!err && !(err = r0_trace_read(r, &ev))) {
		bool again = r0_trace_is_retry(&retry, h.flags, &ev);

		s.events++;
		last = ev.t_us;
		/* the submitter asked once: one request, and one iolog line (fio would issue it twice) */
		if (again) {
			s.retried++;
			if (fmt == R0_TRACE_FMT_IOLOG3)
				continue;
		} else if (ev.kind == R0_TRACE_QUEUE) {
			uint64_t *n[] = { &s.reads, &s.writes, &s.discards, &s.flushes };
			uint64_t *b[] = { &s.read_bytes, &s.write_bytes, &s.discard_bytes, NULL };

			++*n[ev.op];
			if (b[ev.op])
				*b[ev.op] += ev.bytes;
		}
		err = fmt == R0_TRACE_FMT_IOLOG3 ? write_iolog(f, file, &ev, &first, &t0)
						 : write_blktrace(f, &ev, (uint32_t)s.events);
	}
	if (err < 0 && st)
		r0_trace_reader_fault(r, &st->fault);
	if (err == 1) {
		err = 0;
		if (fmt == R0_TRACE_FMT_IOLOG3 && fprintf(f, "%llu %s close\n",
							  (unsigned long long)(first ? 0 : last - t0), file) < 0)
			err = -EIO;
	}
	if (fflush(f) || fsync(fileno(f)))
		err = err ? err : -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, out))
		err = -errno;
	if (err)
		unlink(tmp);
	else if (st)
		*st = s;
out:
	r0_trace_reader_free(r);
	return err;
}
