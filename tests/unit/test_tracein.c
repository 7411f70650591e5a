// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the other trace formats r0/trace.h reads: blktrace
 * recordings (per-CPU files, either byte order), blkparse -d dumps, fio
 * iologs v2 and v3, from fixtures written here; and what is refused.
 */
#include <byteswap.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/blktrace_api.h>
#include <criterion/criterion.h>

#include "r0/trace.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char dir[64], p0[256], p1[256], prefix[128];

static void dir_setup(void)
{
	strcpy(dir, "/tmp/r0-unit-tracein-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(prefix, sizeof(prefix), "%s/sda", dir);
	snprintf(p0, sizeof(p0), "%s.blktrace.0", prefix);
	snprintf(p1, sizeof(p1), "%s.blktrace.1", prefix);
}

static void dir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

#define Q_WRITE (BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_WRITE))
#define Q_READ BLK_TA_QUEUE
#define D_READ BLK_TA_ISSUE
#define C_READ BLK_TA_COMPLETE
#define Q_DISCARD (BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_DISCARD) | BLK_TC_ACT(BLK_TC_WRITE))
#define Q_FLUSH (BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_FLUSH) | BLK_TC_ACT(BLK_TC_WRITE))

/* One struct blk_io_trace with PDU_LEN bytes of PDU, in this machine's byte order or the other. */
static void rec(FILE *f, bool swap, uint64_t ns, uint64_t sector, uint32_t bytes, uint32_t action,
		uint32_t cpu, const void *pdu, uint16_t pdu_len)
{
	struct blk_io_trace t = {
		.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION, .time = ns, .sector = sector,
		.bytes = bytes, .action = action, .pid = 42, .device = (8u << 20) | 0, .cpu = cpu,
		.pdu_len = pdu_len,
	};

	if (swap) {
		t.magic = bswap_32(t.magic);
		t.time = bswap_64(t.time);
		t.sector = bswap_64(t.sector);
		t.bytes = bswap_32(t.bytes);
		t.action = bswap_32(t.action);
		t.pid = bswap_32(t.pid);
		t.device = bswap_32(t.device);
		t.cpu = bswap_32(t.cpu);
		t.pdu_len = bswap_16(t.pdu_len);
	}
	cr_assert_eq(fwrite(&t, sizeof(t), 1, f), 1);
	if (pdu_len)
		cr_assert_eq(fwrite(pdu, 1, pdu_len, f), pdu_len);
}

/* The wall clock blktrace notes at its start: 1767225600.5 s at 1 ms of the trace clock. */
static void note(FILE *f, bool swap)
{
	uint32_t w[2] = { 1767225600u, 500000000u };

	if (swap) {
		w[0] = bswap_32(w[0]);
		w[1] = bswap_32(w[1]);
	}
	rec(f, swap, 1000000, 0, 0, BLK_TN_TIMESTAMP, 0, w, sizeof(w));
}

/* CPU 0 and CPU 1 of one recording: their events interleave in time. */
static void write_cpu_files(bool swap)
{
	FILE *a = fopen(p0, "wb"), *b = fopen(p1, "wb");

	cr_assert(a && b);
	note(a, swap);
	rec(a, swap, 2000000, 2048, 4096, Q_READ, 0, NULL, 0);
	rec(b, swap, 2500000, 0, 0, BLK_TN_PROCESS, 1, "fio", 4);
	rec(b, swap, 3000000, 8, 65536, Q_WRITE, 1, NULL, 0);
	rec(a, swap, 3500000, 2048, 4096, D_READ, 0, NULL, 0);
	rec(a, swap, 3600000, 2048, 4096, BLK_TA_PLUG, 0, NULL, 0);   /* not kept */
	rec(b, swap, 4000000, 2048, 4096, C_READ, 1, NULL, 0);
	rec(b, swap, 5000000, 0, 0, Q_FLUSH, 1, NULL, 0);
	rec(a, swap, 6000000, 100, 1 << 20, Q_DISCARD, 0, NULL, 0);
	fclose(a);
	fclose(b);
}

static const struct r0_trace_event want_cpu[] = {
	{ 0, R0_TRACE_QUEUE, R0_TRACE_READ, 2048, 4096 },
	{ 1000, R0_TRACE_QUEUE, R0_TRACE_WRITE, 8, 65536 },
	{ 1500, R0_TRACE_ISSUE, R0_TRACE_READ, 2048, 0 },
	{ 2000, R0_TRACE_COMPLETE, R0_TRACE_READ, 2048, 0 },
	{ 3000, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },
	{ 4000, R0_TRACE_QUEUE, R0_TRACE_DISCARD, 100, 1 << 20 },
};

/* Reads P whole: the events (up to MAX) and their count, or the error. */
static int read_all(const char *p, struct r0_trace_header *h, struct r0_trace_event *ev, size_t max,
		    bool *truncated)
{
	struct r0_trace_reader *r;
	struct r0_trace_event e;
	int err, n = 0;

	if ((err = r0_trace_reader_open(p, h, &r)))
		return err;
	for (; !(err = r0_trace_read(r, &e)); n++)
		if ((size_t)n < max)
			ev[n] = e;
	if (truncated)
		*truncated = r0_trace_reader_truncated(r);
	r0_trace_reader_free(r);
	return err < 0 ? err : n;
}

static void expect_events(const struct r0_trace_event *got, const struct r0_trace_event *want, size_t n,
			  const char *what)
{
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(got[i].t_us, want[i].t_us, "%s: event %zu time", what, i);
		cr_expect_eq(got[i].kind, want[i].kind, "%s: event %zu kind", what, i);
		cr_expect_eq(got[i].op, want[i].op, "%s: event %zu op", what, i);
		cr_expect_eq(got[i].sector, want[i].sector, "%s: event %zu sector", what, i);
		cr_expect_eq(got[i].bytes, want[i].bytes, "%s: event %zu bytes", what, i);
	}
}

static void expect_recording(void)
{
	const char *names[] = { prefix, p0, p1 };

	for (size_t k = 0; k < N(names); k++) {
		struct r0_trace_event got[16];
		struct r0_trace_header h;

		cr_assert_eq(read_all(names[k], &h, got, N(got), NULL), (int)N(want_cpu), "%s", names[k]);
		expect_events(got, want_cpu, N(want_cpu), names[k]);
		cr_expect_str_eq(h.name, "sda");
		cr_expect_eq(h.format, R0_TRACE_FMT_BLKTRACE);
		cr_expect_eq(h.flags, R0_TRACE_QD_ISSUE);
		cr_expect_not(h.untimed);
		/* the noted wall clock, 1 ms before the first event */
		cr_expect_eq(h.start_epoch_us, 1767225600501000ull);
	}
}

Test(tracein, blktrace_cpu_files_merged_by_time, .init = dir_setup, .fini = dir_teardown)
{
	write_cpu_files(false);
	expect_recording();
}

Test(tracein, blktrace_other_byte_order, .init = dir_setup, .fini = dir_teardown)
{
	write_cpu_files(true);
	expect_recording();
}

/* a CPU that saw nothing leaves an empty file */
Test(tracein, blktrace_empty_cpu_file, .init = dir_setup, .fini = dir_teardown)
{
	char p2[PATH_MAX + 16];
	FILE *f;

	write_cpu_files(false);
	snprintf(p2, sizeof(p2), "%s.blktrace.2", prefix);
	cr_assert_not_null(f = fopen(p2, "wb"));
	fclose(f);
	expect_recording();
}

/* blkparse -d: the same records, merged, in one file of any name */
Test(tracein, blkparse_dump, .init = dir_setup, .fini = dir_teardown)
{
	struct r0_trace_event got[8];
	struct r0_trace_header h;
	char p[PATH_MAX + 16];
	FILE *f;
	int n;

	snprintf(p, sizeof(p), "%s/all.bin", dir);
	cr_assert_not_null(f = fopen(p, "wb"));
	rec(f, false, 10000, 64, 8192, Q_WRITE, 0, NULL, 0);
	rec(f, false, 12000, 64, 8192, C_READ | BLK_TC_ACT(BLK_TC_WRITE), 1, NULL, 0);
	rec(f, false, 15000, 0, 4096, Q_READ, 1, NULL, 0);
	fclose(f);
	n = read_all(p, &h, got, N(got), NULL);
	cr_assert_eq(n, 3, "%d", n);
	cr_expect_str_eq(h.name, "all.bin");
	/* completions without issues: queue and complete pair up */
	cr_expect_eq(h.flags, R0_TRACE_QD_QUEUE);
	cr_expect_eq(h.start_epoch_us, 0);
	cr_expect_eq(got[1].kind, R0_TRACE_COMPLETE);
	cr_expect_eq(got[2].t_us, 5);
	cr_expect_eq(got[2].op, R0_TRACE_READ);
}

static void cut_file(const char *p, long keep)
{
	cr_assert_eq(truncate(p, keep), 0);
}

Test(tracein, blktrace_cut_damaged_other_version, .init = dir_setup, .fini = dir_teardown)
{
	struct r0_trace_header h;
	bool truncated = false;
	FILE *f;
	long size;
	int n;

	/* cut inside a record: truncated */
	write_cpu_files(false);
	cr_assert_not_null(f = fopen(p1, "rb"));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	cut_file(p1, size - 10);
	cr_expect_eq(read_all(prefix, &h, NULL, 0, &truncated), -EBADMSG);
	cr_expect(truncated);
	/* a magic changed in the middle: damaged */
	write_cpu_files(false);
	cr_assert_not_null(f = fopen(p0, "r+b"));
	fseek(f, (long)(sizeof(struct blk_io_trace) + 8), SEEK_SET);
	fputc(0x99, f);
	fclose(f);
	truncated = true;
	n = read_all(p0, &h, NULL, 0, &truncated);
	cr_expect_eq(n, -EBADMSG, "%d", n);
	cr_expect_not(truncated);
	/* a damaged first magic of a sibling: damaged too, not another format */
	write_cpu_files(false);
	cr_assert_not_null(f = fopen(p1, "r+b"));
	fputc(0x99, f);
	fclose(f);
	cr_expect_eq(read_all(p0, &h, NULL, 0, &truncated), -EBADMSG);
	cr_expect_not(truncated);
	/* version 6: said so */
	cr_assert_not_null(f = fopen(p0, "wb"));
	{
		uint32_t m = BLK_IO_TRACE_MAGIC | 6;

		fwrite(&m, 4, 1, f);
		fwrite("\0\0\0\0\0\0\0\0\0\0\0\0", 12, 1, f);
	}
	fclose(f);
	cr_expect_eq(read_all(p0, &h, NULL, 0, NULL), -EPROTONOSUPPORT);
	cr_expect_not_null(r0_trace_error_text(-EPROTONOSUPPORT, false));
}

static void write_text(const char *p, const char *s)
{
	FILE *f = fopen(p, "wb");

	cr_assert_not_null(f);
	fputs(s, f);
	fclose(f);
}

Test(tracein, fio_iolog_v3, .init = dir_setup, .fini = dir_teardown)
{
	static const struct r0_trace_event want[] = {
		{ 783, R0_TRACE_QUEUE, R0_TRACE_READ, 0, 4096 },
		{ 20548, R0_TRACE_QUEUE, R0_TRACE_WRITE, 8, 8192 },
		{ 20600, R0_TRACE_QUEUE, R0_TRACE_READ, 1, 1536 },    /* 1000 bytes at 700: sectors 1-3 */
		{ 20600, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },      /* time back: joins the time reached */
		{ 30000, R0_TRACE_QUEUE, R0_TRACE_DISCARD, 2048, 1 << 20 },
		{ 31000, R0_TRACE_QUEUE, R0_TRACE_FLUSH, 0, 0 },
	};
	struct r0_trace_event got[8];
	struct r0_trace_header h;
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/x.log", dir);
	write_text(p, "fio version 3 iolog\n178 /tmp/f add\n742 /tmp/f open\n783 /tmp/f read 0 4096\n"
		      "20548 /tmp/f write 4096 8192\n\n20600 /tmp/g read 700 1000\n20000 /tmp/f sync 0 0\n"
		      "30000 /tmp/f trim 1048576 1048576\r\n31000 /tmp/f datasync\n40000 /tmp/f close\n");
	cr_assert_eq(read_all(p, &h, got, N(got), NULL), (int)N(want));
	expect_events(got, want, N(want), "v3");
	cr_expect_eq(h.format, R0_TRACE_FMT_IOLOG3);
	cr_expect_not(h.untimed);
	cr_expect_eq(h.flags, 0);
	/* the file the log adds first, not the log's own name */
	cr_expect_str_eq(h.name, "f");
}

Test(tracein, fio_iolog_v2_has_no_times, .init = dir_setup, .fini = dir_teardown)
{
	struct r0_trace_event got[8];
	struct r0_trace_header h;
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/x.log", dir);
	write_text(p, "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb write 0 4096\n"
		      "/dev/sdb wait 1000 0\n/dev/sdb read 4096 4096\n/dev/sdb close\n");
	cr_assert_eq(read_all(p, &h, got, N(got), NULL), 2);
	cr_expect_eq(h.format, R0_TRACE_FMT_IOLOG2);
	cr_expect(h.untimed);
	cr_expect_eq(got[1].t_us, 0);
	cr_expect_eq(got[1].sector, 8);
	cr_expect_eq(got[0].op, R0_TRACE_WRITE);
	cr_expect_str_eq(h.name, "sdb");
	/* a log that adds no file keeps its own name */
	write_text(p, "fio version 2 iolog\n/dev/sdb write 0 4096\n");
	cr_assert_eq(read_all(p, &h, got, N(got), NULL), 1);
	cr_expect_str_eq(h.name, "x.log");
}

Test(tracein, fio_iolog_refused, .init = dir_setup, .fini = dir_teardown)
{
	static const struct { const char *text; bool truncated; } bad[] = {
		{ "fio version 3 iolog\n1 /f read 0 4096\n2 /f read 40", true },     /* cut */
		{ "fio version 3 iolog\n1 /f read 0 4096\n\n1 /f fly 0 4096\n", false }, /* no such action */
		{ "fio version 3 iolog\n1 /f read x 4096\n", false },               /* not a number */
		{ "fio version 3 iolog\n1 /f read 0 0\n", false },                  /* no length */
		{ "fio version 3 iolog\n/f read 0 4096\n", false },                 /* v2's line in v3 */
		{ "fio version 2 iolog\n5 /f read 0 4096\n", false },               /* v3's line in v2 */
		{ "fio version 3 iolog\n1 /f wait 5 0\n", false },                  /* no wait in v3 */
		{ "fio version 3 iolog\n1 /f read 0 4096 7\n", false },             /* a word too many */
		{ "fio version 3 iolog\n1 /f rea\0d 0 4096\n", false },             /* a NUL */
	};
	char p[PATH_MAX + 16], *longline;
	struct r0_trace_header h;

	snprintf(p, sizeof(p), "%s/x.log", dir);
	for (size_t i = 0; i < N(bad); i++) {
		bool truncated = !bad[i].truncated;
		FILE *f = fopen(p, "wb");

		cr_assert_not_null(f);
		/* the NUL case is written whole: up to its NUL, the NUL, and the rest of its line */
		size_t len = strlen(bad[i].text);

		if (i == N(bad) - 1)
			len += 1 + strlen(bad[i].text + len + 1);
		fwrite(bad[i].text, 1, len, f);
		fclose(f);
		cr_expect_eq(read_all(p, &h, NULL, 0, &truncated), -EBADMSG, "case %zu", i);
		cr_expect_eq(truncated, bad[i].truncated, "case %zu", i);
		/* where: the line at fault, counted from the header's 1, blank lines too */
		{
			static const unsigned long line[] = { 3, 4, 2, 2, 2, 2, 2, 2, 2 };
			struct r0_trace_reader *r;
			struct r0_trace_event e;
			struct r0_trace_fault fault;
			char buf[512], want[32];
			const char *text;
			int err;

			cr_assert_eq(r0_trace_reader_open(p, &h, &r), 0);
			while (!(err = r0_trace_read(r, &e)))
				;
			r0_trace_reader_fault(r, &fault);
			r0_trace_reader_free(r);
			cr_expect_eq(fault.line, line[i], "case %zu: line %lu", i, fault.line);
			text = r0_trace_fault_text(err, &fault, buf, sizeof(buf));
			/* a cut log is said as any cut trace is; a damaged line by its number */
			snprintf(want, sizeof(want), bad[i].truncated ? "truncated: " : "line %lu: damaged", line[i]);
			cr_expect(text && !strncmp(text, want, strlen(want)), "case %zu: %s", i, text);
		}
	}
	/* a line of 1 MB: damaged, read no further than its first 4 kB */
	cr_assert_not_null(longline = malloc(1 << 20));
	memset(longline, 'a', 1 << 20);
	memcpy(longline, "fio version 3 iolog\n", 20);
	longline[(1 << 20) - 1] = '\0';
	write_text(p, longline);
	free(longline);
	cr_expect_eq(read_all(p, &h, NULL, 0, NULL), -EBADMSG);
}

/* one limit for a request in every format: an iolog's length above it is no request the kernel made */
Test(tracein, fio_iolog_request_limit, .init = dir_setup, .fini = dir_teardown)
{
	struct r0_trace_event got[2];
	struct r0_trace_header h;
	char p[PATH_MAX + 16], text[128];

	snprintf(p, sizeof(p), "%s/x.log", dir);
	snprintf(text, sizeof(text), "fio version 3 iolog\n1 /f write 0 %llu\n2 /f trim 0 %llu\n",
		 R0_TRACE_REQUEST_MAX_BYTES, R0_TRACE_REQUEST_MAX_BYTES);
	write_text(p, text);
	cr_assert_eq(read_all(p, &h, got, N(got), NULL), 2);
	cr_expect_eq(got[0].bytes, R0_TRACE_REQUEST_MAX_BYTES);
	cr_expect_eq(got[1].bytes, R0_TRACE_REQUEST_MAX_BYTES);
	/* a byte more spans one more sector; r0profile took 99,999,999,999 bytes where r0bench refused them */
	static const char *const over[] = { "4294966785", "4294967296", "99999999999" };

	for (size_t i = 0; i < N(over); i++) {
		snprintf(text, sizeof(text), "fio version 3 iolog\n1 /f read 0 4096\n2 /f read 0 %s\n", over[i]);
		write_text(p, text);
		cr_expect_eq(read_all(p, &h, got, N(got), NULL), -E2BIG, "%s bytes", over[i]);
	}
	cr_expect_not_null(strstr(r0_trace_error_text(-E2BIG, false), "4 GiB"));
}

/* a huge file of something else is told from its first bytes, not read whole */
Test(tracein, huge_non_trace, .init = dir_setup, .fini = dir_teardown)
{
	struct r0_trace_header h;
	char p[PATH_MAX + 16];
	FILE *f;

	snprintf(p, sizeof(p), "%s/huge", dir);
	cr_assert_not_null(f = fopen(p, "wb"));
	fputs("not a trace at all", f);
	fclose(f);
	cr_assert_eq(truncate(p, 64LL << 30), 0);
	cr_expect_eq(read_all(p, &h, NULL, 0, NULL), -EINVAL);
	cr_expect_not_null(strstr(r0_trace_error_text(-EINVAL, false), "fio iolog"));
}
