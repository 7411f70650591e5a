// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trace.h: round trips, size, and files cut short, changed or not traces at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/trace.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char path[64];

static void tmpfile_setup(void)
{
	int fd;

	strcpy(path, "/tmp/r0-unit-trace-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
}

static void tmpfile_teardown(void)
{
	unlink(path);
}

static const struct r0_trace_header hdr = {
	.flags = R0_TRACE_QD_QUEUE, .name = "dm-0", .size_sectors = 3 * 131072,
	.logical_block_bytes = 512, .start_epoch_us = 1767225600000000ULL,
};

static void write_events(const struct r0_trace_event *ev, size_t n)
{
	struct r0_trace_writer *w;

	cr_assert_eq(r0_trace_writer_open(path, &hdr, &w), 0);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(r0_trace_write(w, &ev[i]), 0, "event %zu", i);
	cr_assert_eq(r0_trace_writer_close(w), 0);
}

/* Reads PATH to its end: the number of events, or the error. */
static int read_all(struct r0_trace_event *ev, size_t max, bool *truncated)
{
	struct r0_trace_header h;
	struct r0_trace_reader *r;
	struct r0_trace_event e;
	int err, n = 0;

	if ((err = r0_trace_reader_open(path, &h, &r)))
		return err;
	for (; !(err = r0_trace_read(r, &e)); n++)
		if ((size_t)n < max)
			ev[n] = e;
	if (truncated)
		*truncated = r0_trace_reader_truncated(r);
	r0_trace_reader_free(r);
	return err < 0 ? err : n;
}

static off_t file_size(void)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0);
	return st.st_size;
}

static const struct r0_trace_event sample[] = {
	{ 0, R0_TRACE_QUEUE, R0_TRACE_WRITE, 2048, 1 << 20 },
	{ 3, R0_TRACE_QUEUE, R0_TRACE_WRITE, 4096, 1 << 20 },
	{ 5, R0_TRACE_QUEUE, R0_TRACE_READ, 393000, 4096 },
	{ 5, R0_TRACE_QUEUE, R0_TRACE_READ, 8, 4096 },          /* backwards: a negative delta */
	{ 90, R0_TRACE_COMPLETE, R0_TRACE_WRITE, 4096, 0 },
	{ 90, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },
	{ 100, R0_TRACE_QUEUE, R0_TRACE_DISCARD, 0, 65536 },
	{ 1000000000, R0_TRACE_ISSUE, R0_TRACE_READ, 393000, 0 },
	{ 1000000001, R0_TRACE_QUEUE, R0_TRACE_WRITE, (1ULL << 40) - 8, 512 },
};

Test(trace, round_trip, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	struct r0_trace_event got[16];
	struct r0_trace_header h;
	struct r0_trace_reader *r;

	write_events(sample, N(sample));
	cr_assert_eq(read_all(got, N(got), NULL), (int)N(sample));
	for (size_t i = 0; i < N(sample); i++) {
		cr_expect_eq(got[i].t_us, sample[i].t_us, "event %zu", i);
		cr_expect_eq(got[i].kind, sample[i].kind, "event %zu", i);
		cr_expect_eq(got[i].op, sample[i].op, "event %zu", i);
		cr_expect_eq(got[i].sector, sample[i].sector, "event %zu", i);
		cr_expect_eq(got[i].bytes, sample[i].bytes, "event %zu", i);
	}
	cr_assert_eq(r0_trace_reader_open(path, &h, &r), 0);
	cr_expect_str_eq(h.name, "dm-0");
	cr_expect_eq(h.flags, R0_TRACE_QD_QUEUE);
	cr_expect_eq(h.size_sectors, 3 * 131072);
	cr_expect_eq(h.logical_block_bytes, 512);
	cr_expect_eq(h.start_epoch_us, 1767225600000000ULL);
	r0_trace_reader_free(r);
}

Test(trace, bad_events_are_refused, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	static const struct r0_trace_event bad[] = {
		{ 5, R0_TRACE_QUEUE, R0_TRACE_WRITE, 0, 1000 },     /* not whole sectors */
		{ 5, R0_TRACE_QUEUE, R0_TRACE_READ, 0, 0 },         /* no length */
		{ 5, 7, R0_TRACE_READ, 0, 512 },                    /* no such kind */
		{ 5, R0_TRACE_QUEUE, 9, 0, 512 },                   /* no such operation */
		{ 9, R0_TRACE_QUEUE, R0_TRACE_READ, 0, 512 },       /* fine, then */
		{ 8, R0_TRACE_QUEUE, R0_TRACE_READ, 0, 512 },       /* back in time */
	};
	static const int want[] = { -EINVAL, -EINVAL, -EINVAL, -EINVAL, 0, -EINVAL };
	struct r0_trace_header h = hdr;
	struct r0_trace_writer *w;

	cr_assert_eq(r0_trace_writer_open(path, &hdr, &w), 0);
	for (size_t i = 0; i < N(bad); i++)
		cr_expect_eq(r0_trace_write(w, &bad[i]), want[i], "case %zu", i);
	cr_assert_eq(r0_trace_writer_close(w), 0);
	cr_expect_eq(read_all(NULL, 0, NULL), 1, "only the good event was written");
	h.name[0] = '\0';
	cr_expect_eq(r0_trace_writer_open(path, &h, &w), -EINVAL);
	h = hdr;
	h.flags = R0_TRACE_QD_QUEUE | R0_TRACE_QD_ISSUE;
	cr_expect_eq(r0_trace_writer_open(path, &h, &w), -EINVAL);
	cr_expect_eq(r0_trace_writer_open("/nonexistent/t.r0trace", &hdr, &w), -ENOENT);
}

/* the largest request the kernel can issue is written and read back; one larger is not written */
Test(trace, requests_up_to_the_limit, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	const struct r0_trace_event ok = { 1, R0_TRACE_QUEUE, R0_TRACE_DISCARD, 0, R0_TRACE_REQUEST_MAX_BYTES };
	struct r0_trace_event over = ok, got;
	struct r0_trace_writer *w;

	over.bytes += 512;
	cr_assert_eq(r0_trace_writer_open(path, &hdr, &w), 0);
	cr_expect_eq(r0_trace_write(w, &over), -EINVAL);
	cr_expect_eq(r0_trace_write(w, &ok), 0);
	cr_assert_eq(r0_trace_writer_close(w), 0);
	cr_assert_eq(read_all(&got, 1, NULL), 1);
	cr_expect_eq(got.bytes, R0_TRACE_REQUEST_MAX_BYTES);
	cr_expect_not_null(r0_trace_error_text(-E2BIG, false));
}

/* A million requests of a busy day, half a stream, half random in 1 TiB, each completed: about 14 MB. */
Test(trace, a_busy_day_stays_small, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	struct r0_trace_writer *w;
	uint64_t t = 0, seq = 0, x = 88172645463325252ULL;

	cr_assert_eq(r0_trace_writer_open(path, &hdr, &w), 0);
	for (unsigned i = 0; i < 1000000; i++) {
		struct r0_trace_event q = { .kind = R0_TRACE_QUEUE, .op = i & 1 ? R0_TRACE_READ : R0_TRACE_WRITE };
		struct r0_trace_event c = { .kind = R0_TRACE_COMPLETE, .op = q.op };


		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t += 86400000000ULL / 1000000 / 2;
		q.t_us = t;
		if (i & 1) {
			q.sector = x % (1ULL << 31) / 8 * 8;   /* random 4K in a 1 TiB disk */
			q.bytes = 4096;
		} else {
			q.sector = seq;
			q.bytes = 131072;
			seq += 256;
		}
		cr_assert_eq(r0_trace_write(w, &q), 0);
		c.sector = q.sector;
		c.t_us = t += 100;
		cr_assert_eq(r0_trace_write(w, &c), 0);
	}
	cr_assert_eq(r0_trace_writer_close(w), 0);
	cr_expect_lt(file_size(), 15 * 1000 * 1000, "%lld bytes", (long long)file_size());
	cr_expect_eq(read_all(NULL, 0, NULL), 2000000);
}

Test(trace, truncated_anywhere_is_an_error, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	off_t whole;
	bool truncated;

	write_events(sample, N(sample));
	whole = file_size();
	/* every cut past the magic: inside the header, a record, the end record */
	for (off_t len = (off_t)strlen(R0_TRACE_MAGIC); len < whole; len++) {
		int err;

		cr_assert_eq(truncate(path, len), 0);
		truncated = false;
		err = read_all(NULL, 0, &truncated);
		cr_expect_eq(err, -EBADMSG, "cut at %lld of %lld: %d", (long long)len, (long long)whole, err);
		write_events(sample, N(sample));
	}
	cr_assert_eq(truncate(path, whole - 1), 0);
	cr_expect_eq(read_all(NULL, 0, &truncated), -EBADMSG);
	cr_expect(truncated, "a cut file is reported as truncated");
}

Test(trace, changed_bytes_are_an_error, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	off_t whole;
	FILE *f;

	write_events(sample, N(sample));
	whole = file_size();
	/* one bit flipped anywhere after the magic: a bad header, record, count or checksum */
	for (off_t at = (off_t)strlen(R0_TRACE_MAGIC); at < whole; at++) {
		int c, err;

		cr_assert_not_null(f = fopen(path, "r+b"));
		fseeko(f, at, SEEK_SET);
		c = getc(f);
		fseeko(f, at, SEEK_SET);
		putc(c ^ 0x10, f);
		fclose(f);
		err = read_all(NULL, 0, NULL);
		cr_expect(err == -EBADMSG || err == -EINVAL, "byte %lld changed: %d", (long long)at, err);
		write_events(sample, N(sample));
	}
	/* a byte after the end record */
	cr_assert_not_null(f = fopen(path, "ab"));
	putc(0, f);
	fclose(f);
	cr_expect_eq(read_all(NULL, 0, NULL), -EBADMSG);
}

Test(trace, not_a_trace, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
#define G(s) { s, sizeof(s) - 1 }
	static const struct { const char *s; size_t n; } garbage[] = {
		G(""), G("r0trace"), G("r0trace/2\n\x01\x04dm-0"), G("{\"r0kit_schema\":\"r0mix/1\"}"),
		G("\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"),
		G("r0trace/1\n\x09\x04dm-0"),         /* unknown flags */
		G("r0trace/1\n\x01\x00"),             /* no name */
		G("r0trace/1\n\x01\x01x\x08\x80\x01\x00"),   /* a 128-byte logical block */
		G("fio version 1 iolog\n"), G("fio version 3 iolog"),  /* v1; a header without its line end */
	};
#undef G
	struct r0_trace_header h;
	struct r0_trace_reader *r;

	for (size_t i = 0; i < N(garbage); i++) {
		FILE *f = fopen(path, "wb");

		cr_assert_not_null(f);
		fwrite(garbage[i].s, 1, garbage[i].n, f);
		fclose(f);
		/* an empty file is said to be empty */
		cr_expect_eq(r0_trace_reader_open(path, &h, &r), i ? -EINVAL : -ENODATA, "case %zu", i);
		cr_expect_null(r);
	}
	cr_expect_eq(r0_trace_reader_open("/nonexistent/t.r0trace", &h, &r), -ENOENT);
}

/* a directory given as a trace: -EISDIR (a read of it failed as -EIO before) */
Test(trace, a_directory_is_said_to_be_one)
{
	struct r0_trace_header h;
	struct r0_trace_reader *r = NULL;

	cr_expect_eq(r0_trace_reader_open("/tmp", &h, &r), -EISDIR);
	cr_expect_null(r);
}

/* an export over a pipe or a directory: refused, never replaced (as root a device would be) */
Test(trace, an_export_is_a_regular_file, .init = tmpfile_setup, .fini = tmpfile_teardown)
{
	static const struct r0_trace_event ev[] = {
		{ .t_us = 0, .kind = R0_TRACE_QUEUE, .op = R0_TRACE_READ, .sector = 0, .bytes = 4096 },
	};
	char dir[] = "/tmp/r0-unit-export-XXXXXX", out[256];
	struct stat st;

	write_events(ev, 1);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/fifo", dir);
	cr_assert_eq(mkfifo(out, 0600), 0);
	cr_expect_eq(r0_trace_export(path, R0_TRACE_FMT_IOLOG3, out, NULL), -EINVAL);
	cr_expect(!stat(out, &st) && S_ISFIFO(st.st_mode), "the pipe is still a pipe");
	unlink(out);
	cr_expect_eq(r0_trace_export(path, R0_TRACE_FMT_BLKTRACE, dir, NULL), -EISDIR);
	rmdir(dir);
}
