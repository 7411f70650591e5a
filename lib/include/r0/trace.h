/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A block trace file (format "r0trace/1"): the requests one device saw,
 * each as a time, a sector, a length and a direction, never its data, and
 * optionally when requests were issued and completed (for queue depth).
 *
 * Layout. The text "r0trace/1\n"; then unsigned LEB128 varints: flags
 * (R0_TRACE_QD_*), the device's name (a length, then its bytes), its size
 * in 512-byte sectors, its logical block size in bytes, the wall time of
 * time 0 in microseconds since the epoch. Then one record per event: a tag
 * byte (bits 0-1 the operation, bits 2-3 the kind), the time since the
 * previous record in microseconds, and for a QUEUE event of a read, write
 * or discard the sector as a zigzag delta from where the previous request
 * of that operation ended, and the length in sectors; for an ISSUE or
 * COMPLETE of one the sector as a zigzag delta from the previous ISSUE or
 * COMPLETE's of that operation (to pair them). Last, tag 0xff, the
 * number of records and the CRC-32 (IEEE, little endian) of every byte
 * before it: a file cut anywhere, or changed, is told apart from a whole
 * one. A sequential request costs about 4 bytes, a random one about 8,
 * its completion 3 or 6 likewise: a million requests with their
 * completions fit in about 14 MB.
 */
#ifndef R0_TRACE_H
#define R0_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#define R0_TRACE_MAGIC "r0trace/1\n"
#define R0_TRACE_NAME_MAX 63

/*
 * The formats a reader takes, told from the file's first bytes, never its
 * name:
 *  - r0trace/1 (above);
 *  - a blktrace recording: the binary struct blk_io_trace records
 *    (linux/blktrace_api.h, version 7) in either byte order, as
 *    `blktrace -d DEV -o NAME` writes them, one file a CPU
 *    (NAME.blktrace.0, .1, ...: name the first file, any of them, or the
 *    prefix NAME; all of them are read and merged by time), or as
 *    `blkparse -d FILE` dumps them (one file, merged). Its requests are
 *    its QUEUE ('Q') events: the stream as its submitters issued it,
 *    before a disk merges or an md or dm device splits it; its ISSUE
 *    ('D') and COMPLETE ('C') events give the queue depth (R0_TRACE_QD_ISSUE
 *    when it has ISSUEs, else R0_TRACE_QD_QUEUE when it has COMPLETEs), as
 *    r0profile --trace records. Only the first device's events are read
 *    (a dump of several devices). No end: a file that ends inside a
 *    record is truncated; one cut between two records is not seen.
 *  - a fio iolog, version 2 or 3 ("fio version 2 iolog" / "fio version 3
 *    iolog", then "[TIME] FILE ACTION OFFSET LENGTH" lines; TIME in
 *    microseconds since the start, as fio writes it). Every file's
 *    requests are taken as one device's; add, open and close lines are
 *    skipped; sync and datasync are flushes, trim a discard; offsets and
 *    lengths are widened to whole 512-byte sectors. Version 2 has no
 *    times (->untimed): every request at time 0.
 */
enum r0_trace_format { R0_TRACE_FMT_R0TRACE, R0_TRACE_FMT_BLKTRACE, R0_TRACE_FMT_IOLOG2, R0_TRACE_FMT_IOLOG3 };
/* "r0trace/1", "blktrace", "fio iolog v2", "fio iolog v3"; NULL out of range. */
const char *r0_trace_format_name(enum r0_trace_format f);

enum r0_trace_op { R0_TRACE_READ, R0_TRACE_WRITE, R0_TRACE_DISCARD, R0_TRACE_FLUSH };

enum r0_trace_kind {
	R0_TRACE_QUEUE,     /* a request as its submitter issued it: sector and length */
	R0_TRACE_ISSUE,     /* a request sent to the driver (request-based disks) */
	R0_TRACE_COMPLETE,  /* a request completed */
};

/* Where the queue depth comes from: QUEUE and COMPLETE events pair up, or ISSUE and COMPLETE do. */
#define R0_TRACE_QD_QUEUE 1u
#define R0_TRACE_QD_ISSUE 2u

struct r0_trace_header {
	unsigned flags;             /* R0_TRACE_QD_*: at most one; 0: no queue depth in the trace */
	char name[R0_TRACE_NAME_MAX + 1];   /* kernel name: dm-0, md127, nvme0n1 */
	uint64_t size_sectors;      /* 512-byte sectors */
	uint32_t logical_block_bytes;
	uint64_t start_epoch_us;    /* wall time of t_us 0 (0: unknown) */
	/* set by a reader, not written: */
	enum r0_trace_format format;
	bool untimed;               /* no times (fio iolog v2): every event at 0 */
};

/*
 * The largest request any reader takes, in every format: 4 GiB - 512. A
 * bio's length (bi_size) is 32 bits, so the kernel issues none larger in
 * whole sectors, and blktrace records lengths in 32 bits. A longer one
 * (an iolog's length, an r0trace record) is no request the kernel made:
 * r0_trace_read refuses it (-E2BIG), r0_trace_write does not write it.
 */
#define R0_TRACE_REQUEST_MAX_BYTES 0xfffffe00ULL

struct r0_trace_event {
	uint64_t t_us;              /* since the start; never less than the previous event's */
	enum r0_trace_kind kind;
	enum r0_trace_op op;
	uint64_t sector;            /* not for a flush; 512-byte sectors */
	uint64_t bytes;             /* QUEUE of a read, write or discard only; a multiple of 512 */
};

/* "read", "write", "discard", "flush"; NULL out of range. */
const char *r0_trace_op_name(enum r0_trace_op op);

/*
 * A request queued again after the block layer refused it unissued:
 * io_uring's nonblocking attempt ends with EAGAIN when the bio must be
 * split (blk-mq's bio_split_to_limits refuses to split a REQ_NOWAIT bio)
 * or no tag is free, and io_uring queues it again from a worker. The
 * submitter asked once, so the second QUEUE is no request of its own
 * (r0bench's 1M writes on null_blk: 822 QUEUEs for 413 writes). Only a
 * trace with ISSUE events shows that the first ended unissued; without
 * them a repeat of the same request is taken as the submitter's own.
 */
struct r0_trace_retry {
	struct r0_trace_queued {
		uint64_t sector, bytes;
		bool any, issued, refused;   /* refused: it ended without being issued */
	} last[4];                         /* per r0_trace_op: the last request queued */
};
/* Feeds EV (every event, in order; R zeroed first): true when it is a QUEUE of such a retry. */
bool r0_trace_is_retry(struct r0_trace_retry *r, unsigned flags, const struct r0_trace_event *ev);

struct r0_trace_writer;

/*
 * Creates (or truncates) PATH and writes H's header. 0 and *OUT; -EINVAL
 * for a header with an empty or too long name or two R0_TRACE_QD_ flags;
 * -errno of creating the file.
 */
int r0_trace_writer_open(const char *path, const struct r0_trace_header *h,
			 struct r0_trace_writer **out);
/*
 * Appends EV. 0; -EINVAL for an event before the previous one, an unknown
 * kind or operation, a length that is not a multiple of 512, or a QUEUE
 * read/write/discard of 0 bytes or above R0_TRACE_REQUEST_MAX_BYTES;
 * -errno of writing.
 */
int r0_trace_write(struct r0_trace_writer *w, const struct r0_trace_event *ev);
/* Bytes written so far (the header and the records, before the end record). */
uint64_t r0_trace_writer_bytes(const struct r0_trace_writer *w);
/* Writes the end record and closes. 0 or -errno; W is freed either way (NULL: 0). */
int r0_trace_writer_close(struct r0_trace_writer *w);
/* Closes and removes the file without an end record (a recording that failed). */
void r0_trace_writer_abort(struct r0_trace_writer *w, const char *path);

struct r0_trace_reader;

/*
 * Opens PATH, in any of the formats above (only its first bytes are read
 * to tell which), and reads its header into *H. 0 and *OUT; -EINVAL when
 * PATH is none of them (or a bad r0trace/1 header); -ENODATA for an
 * empty file; -EPROTONOSUPPORT for a blktrace record of another version;
 * -EBADMSG when it ends inside its header; -EISDIR for a directory;
 * -errno of opening it. A PATH that does not exist but PATH.blktrace.0
 * does is that blktrace recording.
 */
int r0_trace_reader_open(const char *path, struct r0_trace_header *h, struct r0_trace_reader **out);
/*
 * The next event into *EV: 0; 1 after the end record, once the count and
 * the checksum are found right (the other formats: at the end of the
 * file); -EBADMSG for a file cut short (see
 * r0_trace_reader_truncated), a bad record, a wrong count or checksum, or
 * bytes after the end record; -E2BIG for a request above
 * R0_TRACE_REQUEST_MAX_BYTES; -errno of reading. After an error, the
 * events already returned are not to be trusted.
 */
int r0_trace_read(struct r0_trace_reader *r, struct r0_trace_event *ev);
/* After -EBADMSG: true when the file simply ends early (cut, or its recorder killed). */
bool r0_trace_reader_truncated(const struct r0_trace_reader *r);

/* Where a trace that could not be read went wrong. */
struct r0_trace_fault {
	bool truncated;             /* it simply ends early (r0_trace_reader_truncated) */
	unsigned long line;         /* a fio iolog: the line at fault (the header is 1); 0 otherwise */
};
/* After an error of r0_trace_read: where it was, into *F. */
void r0_trace_reader_fault(const struct r0_trace_reader *r, struct r0_trace_fault *f);
/* After error ERR of r0_trace_reader_open, into *F: -EBADMSG there is a file that ends inside its header. */
void r0_trace_open_fault(int err, struct r0_trace_fault *f);

/*
 * What is wrong with a trace that could not be read, in words, for error
 * ERR of reading it (TRUNCATED: r0_trace_reader_truncated): "truncated:
 * ...", "damaged: ...", "not a trace: ..." (naming the formats read),
 * "empty: ...", a request above the limit (-E2BIG); NULL for any other
 * error (say strerror).
 */
const char *r0_trace_error_text(int err, bool truncated);
/*
 * The same, with the line of a damaged fio iolog first ("line 7: damaged:
 * not a fio iolog line ..."), written into BUF where there is one (a cut
 * log reads "truncated: ..." as any other); F may be NULL. NULL where
 * r0_trace_error_text is.
 */
const char *r0_trace_fault_text(int err, const struct r0_trace_fault *f, char *buf, size_t len);
/* NULL: nothing. */
void r0_trace_reader_free(struct r0_trace_reader *r);

/* What r0_trace_export wrote: the requests (QUEUE events) by operation, and every event. */
struct r0_trace_export_stats {
	uint64_t reads, writes, discards, flushes;
	uint64_t read_bytes, write_bytes, discard_bytes;
	uint64_t events;
	uint64_t retried;   /* QUEUEs of a request refused unissued and queued again (r0_trace_is_retry) */
	struct r0_trace_fault fault;   /* after an error of reading IN: where */
};

/*
 * Writes the trace IN (any format above) to OUT in format FMT:
 *  - R0_TRACE_FMT_IOLOG3: a fio iolog v3 of its requests (QUEUE events;
 *    completions have no place in it), each line "TIME FILE ACTION OFFSET
 *    LENGTH", TIME in microseconds since the first request, FILE
 *    "/dev/NAME" (the trace's device; fio's replay_redirect puts it
 *    elsewhere), flushes as sync, discards as trim; a request refused
 *    unissued and queued again (r0_trace_is_retry) is one line, as the
 *    submitter asked once and r0bench --replay replays it once;
 *  - R0_TRACE_FMT_BLKTRACE: a blktrace file (struct blk_io_trace version 7,
 *    this machine's byte order, CPU 0) of every event, QUEUE as 'Q', ISSUE
 *    'D', COMPLETE 'C' (their length unknown: 0): what blkparse reads
 *    (blkparse -i NAME for OUT NAME.blktrace.0) and this reader takes;
 *    a retry's second QUEUE is kept there, as the kernel recorded it.
 * ST counts requests once (a retry in ->retried, not in ->reads...).
 * OUT is written beside itself and renamed over at the end: nothing is
 * left of it on failure. ST may be NULL; after an error of reading IN,
 * only ST->fault is set. 0; the errors of reading IN;
 * -EINVAL for another FMT or an OUT that is there and not a regular file
 * (-EISDIR a directory); -errno of writing OUT.
 */
int r0_trace_export(const char *in, enum r0_trace_format fmt, const char *out, struct r0_trace_export_stats *st);

#endif
