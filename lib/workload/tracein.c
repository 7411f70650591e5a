// SPDX-License-Identifier: GPL-2.0-or-later
/* Readers of blktrace recordings, blkparse dumps and fio iologs (lib/workload/tracein.h, r0/trace.h). */
#include <byteswap.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tracein.h"

/* records of each file looked at first for the queue depth's events and the wall clock */
#define PRESCAN_RECORDS 65536
/* a blktrace recording has a file a CPU */
#define MAX_CPU_FILES 4096
/* an iolog line is a path and four numbers: a longer one is no iolog line */
#define LINE_BYTES 4096

struct bt_file {
	FILE *f;
	bool swap;              /* the other byte order */
	bool have;              /* ev is the file's next event */
	uint64_t ns;
	struct r0_trace_event ev;
};

struct r0_tracein {
	enum r0_trace_format fmt;
	int err;                /* of advancing past the event last returned */
	bool err_truncated;
	uint64_t last_t_us;
	/* blktrace */
	struct bt_file *files;
	size_t n_files;
	bool dev_known;
	uint32_t dev;
	uint64_t t0_ns;
	unsigned char pdu[65536];
	/* iolog */
	FILE *f;
	char line[LINE_BYTES + 2];
	unsigned long line_no;  /* of the line last read, the header's 1 */
};

void r0_tracein_free(struct r0_tracein *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n_files; i++)
		if (in->files[i].f)
			fclose(in->files[i].f);
	free(in->files);
	if (in->f)
		fclose(in->f);
	free(in);
}

static void swap_trace(struct blk_io_trace *t)
{
	t->magic = bswap_32(t->magic);
	t->sequence = bswap_32(t->sequence);
	t->time = bswap_64(t->time);
	t->sector = bswap_64(t->sector);
	t->bytes = bswap_32(t->bytes);
	t->action = bswap_32(t->action);
	t->pid = bswap_32(t->pid);
	t->device = bswap_32(t->device);
	t->cpu = bswap_32(t->cpu);
	t->error = bswap_16(t->error);
	t->pdu_len = bswap_16(t->pdu_len);
}

static bool bt_magic(uint32_t m)
{
	return (m & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

/* The next record of B into *T, its payload into IN->pdu: 0; 1 at the end; -EBADMSG; -EIO. */
static int bt_record(struct r0_tracein *in, struct bt_file *b, struct blk_io_trace *t, bool *truncated)
{
	size_t n = fread(t, 1, sizeof(*t), b->f);

	if (n != sizeof(*t)) {
		if (ferror(b->f))
			return -EIO;
		if (!n)
			return 1;
		*truncated = true;
		return -EBADMSG;
	}
	if (b->swap)
		swap_trace(t);
	/* the first record's version was checked (r0_trace_reader_open): another one later is damage */
	if (!bt_magic(t->magic) || (t->magic & 0xff) != BLK_IO_TRACE_VERSION)
		return -EBADMSG;
	if (t->pdu_len && fread(in->pdu, 1, t->pdu_len, b->f) != t->pdu_len) {
		if (ferror(b->f))
			return -EIO;
		*truncated = true;
		return -EBADMSG;
	}
	return 0;
}

/* Reads B up to its next kept event (->have false at its end). 0 or the error. */
static int bt_advance(struct r0_tracein *in, struct bt_file *b, bool *truncated)
{
	struct blk_io_trace t;
	int err;

	b->have = false;
	while (!(err = bt_record(in, b, &t, truncated))) {
		if (!in->dev_known) {
			in->dev = t.device;
			in->dev_known = true;
		}
		if (t.device != in->dev || !r0_blktrace_convert(&t, &b->ev))
			continue;
		b->ns = t.time;
		b->have = true;
		return 0;
	}
	return err == 1 ? 0 : err;
}

static int by_number(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* PREFIX.blktrace.N, every N there is, in order of N: into IN->files. 0 or -errno (-ENOENT: none). */
static int open_cpu_files(struct r0_tracein *in, const char *prefix)
{
	char dir[PATH_MAX], name[PATH_MAX];
	const char *slash = strrchr(prefix, '/'), *base = slash ? slash + 1 : prefix;
	unsigned long num[MAX_CPU_FILES];
	size_t n = 0, base_len;
	struct dirent *de;
	DIR *d;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - prefix) + 1, prefix);
	else
		snprintf(dir, sizeof(dir), ".");
	if (snprintf(name, sizeof(name), "%s.blktrace.", base) >= (int)sizeof(name))
		return -ENAMETOOLONG;
	base_len = strlen(name);
	if (!(d = opendir(dir)))
		return -errno;
	while ((de = readdir(d))) {
		const char *s = de->d_name + base_len;
		char *end;

		if (strncmp(de->d_name, name, base_len) || !*s || strspn(s, "0123456789") != strlen(s))
			continue;
		if (n == MAX_CPU_FILES) {
			closedir(d);
			return -E2BIG;
		}
		num[n++] = strtoul(s, &end, 10);
	}
	closedir(d);
	if (!n)
		return -ENOENT;
	qsort(num, n, sizeof(num[0]), by_number);
	if (!(in->files = calloc(n, sizeof(*in->files))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (snprintf(name, sizeof(name), "%s.blktrace.%lu", prefix, num[i]) >= (int)sizeof(name))
			return -ENAMETOOLONG;
		if (!(in->files[i].f = fopen(name, "rbe")))
			return -errno;
		in->n_files++;
	}
	return 0;
}

/* NAME.blktrace.N: the length of NAME, else 0. */
static size_t cpu_file_prefix(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	static const char mid[] = ".blktrace";
	size_t at;

	if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
		return 0;
	at = (size_t)(dot - path);
	if (at < sizeof(mid) - 1 || memcmp(path + at - (sizeof(mid) - 1), mid, sizeof(mid) - 1))
		return 0;
	at -= sizeof(mid) - 1;
	return at && (!slash || path + at > slash + 1) ? at : 0;
}

/*
 * Each file's byte order (an empty file: a CPU that saw nothing), and a
 * look at its first records: ISSUE and COMPLETE events for the queue
 * depth's pairs, the wall clock blktrace notes (BLK_TN_TIMESTAMP).
 */
static int bt_prescan(struct r0_tracein *in, struct r0_trace_header *h)
{
	bool issue = false, complete = false, noted = false;
	uint64_t note_ns = 0, note_wall_ns = 0;
	bool any = false;

	for (size_t i = 0; i < in->n_files; i++) {
		struct bt_file *b = &in->files[i];
		struct blk_io_trace t;
		uint32_t m;
		bool cut = false;

		size_t got;

		/* a dump's first bytes were read to tell its format */
		rewind(b->f);
		got = fread(&m, 1, 4, b->f);

		if (ferror(b->f))
			return -EIO;
		rewind(b->f);
		/* empty: a CPU that saw nothing */
		if (!got)
			continue;
		/* 1 to 3 bytes: cut; another magic: damaged (said at the first read) */
		if (got != 4 || (!bt_magic(m) && !bt_magic(bswap_32(m)))) {
			if (!in->err) {
				in->err = -EBADMSG;
				in->err_truncated = got != 4;
			}
			fseek(b->f, 0, SEEK_END);
			continue;
		}
		b->swap = !bt_magic(m);
		rewind(b->f);
		for (unsigned k = 0; k < PRESCAN_RECORDS && !bt_record(in, b, &t, &cut); k++) {
			struct r0_trace_event ev;

			if (t.action == BLK_TN_TIMESTAMP && t.pdu_len >= 8 && !noted) {
				uint32_t w[2];

				memcpy(w, in->pdu, sizeof(w));
				if (b->swap) {
					w[0] = bswap_32(w[0]);
					w[1] = bswap_32(w[1]);
				}
				note_ns = t.time;
				note_wall_ns = (uint64_t)w[0] * 1000000000ull + w[1];
				noted = true;
			}
			if (!r0_blktrace_convert(&t, &ev))
				continue;
			issue |= ev.kind == R0_TRACE_ISSUE;
			complete |= ev.kind == R0_TRACE_COMPLETE;
		}
		rewind(b->f);
	}
	h->flags = issue ? R0_TRACE_QD_ISSUE : complete ? R0_TRACE_QD_QUEUE : 0;
	for (size_t i = 0; i < in->n_files; i++) {
		bool cut = false;
		int err = bt_advance(in, &in->files[i], &cut);

		/* a damaged first record is said at the first read */
		if (err && !in->err) {
			in->err = err;
			in->err_truncated = cut;
		}
		if (in->files[i].have && (!any || in->files[i].ns < in->t0_ns)) {
			in->t0_ns = in->files[i].ns;
			any = true;
		}
	}
	if (noted && note_wall_ns + in->t0_ns >= note_ns)
		h->start_epoch_us = (note_wall_ns + in->t0_ns - note_ns) / 1000;
	return 0;
}

static void set_name(struct r0_trace_header *h, const char *path, size_t len)
{
	const char *s = path;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			s = path + i + 1;
	len -= (size_t)(s - path);
	if (!len)
		snprintf(h->name, sizeof(h->name), "blktrace");
	else
		snprintf(h->name, sizeof(h->name), "%.*s", (int)(len > R0_TRACE_NAME_MAX ? R0_TRACE_NAME_MAX : len), s);
}

int r0_tracein_blktrace_open(const char *path, FILE *f, struct r0_trace_header *h, struct r0_tracein **out)
{
	struct r0_tracein *in;
	size_t pre = f ? cpu_file_prefix(path) : strlen(path);
	int err;

	*out = NULL;
	if (!(in = calloc(1, sizeof(*in)))) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	in->fmt = R0_TRACE_FMT_BLKTRACE;
	if (pre) {
		char prefix[PATH_MAX];

		if (f)
			fclose(f);
		snprintf(prefix, sizeof(prefix), "%.*s", (int)pre, path);
		if ((err = open_cpu_files(in, prefix)))
			goto fail;
	} else {
		/* a blkparse -d dump, or one file renamed */
		if (!(in->files = calloc(1, sizeof(*in->files)))) {
			fclose(f);
			err = -ENOMEM;
			goto fail;
		}
		in->files[0].f = f;
		in->n_files = 1;
		pre = strlen(path);
	}
	set_name(h, path, pre);
	h->logical_block_bytes = 512;
	h->format = R0_TRACE_FMT_BLKTRACE;
	if ((err = bt_prescan(in, h)))
		goto fail;
	*out = in;
	return 0;
fail:
	r0_tracein_free(in);
	return err;
}

static int bt_read(struct r0_tracein *in, struct r0_trace_event *ev, bool *truncated)
{
	struct bt_file *b = NULL;
	uint64_t t_us;
	int err;

	if (in->err) {
		*truncated = in->err_truncated;
		return in->err;
	}
	for (size_t i = 0; i < in->n_files; i++)
		if (in->files[i].have && (!b || in->files[i].ns < b->ns))
			b = &in->files[i];
	if (!b)
		return 1;
	*ev = b->ev;
	t_us = b->ns > in->t0_ns ? (b->ns - in->t0_ns) / 1000 : 0;
	/* a CPU's clock a little behind another's: the event joins at the time already reached */
	ev->t_us = t_us < in->last_t_us ? in->last_t_us : t_us;
	in->last_t_us = ev->t_us;
	if ((err = bt_advance(in, b, &in->err_truncated)))
		in->err = err;
	return 0;
}

/*
 * The name of the file or device the iolog's "add" line names (fio logs
 * it before the first request: "/dev/nvme0n1 add", or "0 /dev/nvme0n1 add"
 * in version 3), its last part, in H's name; the log's own name stays
 * when the first lines add none. The reader goes on after the header.
 */
static void iolog_target_name(struct r0_tracein *in, struct r0_trace_header *h)
{
	long pos = ftell(in->f);
	size_t want = in->fmt == R0_TRACE_FMT_IOLOG3 ? 3 : 2;

	for (int i = 0; pos >= 0 && i < 16 && fgets(in->line, sizeof(in->line), in->f); i++) {
		char *tok[4], *save = NULL;
		size_t n = 0;

		for (char *t = strtok_r(in->line, " \t\r\n", &save); t && n < 4; t = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = t;
		if (n == want && !strcmp(tok[n - 1], "add")) {
			set_name(h, tok[n - 2], strlen(tok[n - 2]));
			break;
		}
	}
	if (pos >= 0)
		fseek(in->f, pos, SEEK_SET);
}

int r0_tracein_iolog_open(const char *path, FILE *f, int version, struct r0_trace_header *h,
			  struct r0_tracein **out)
{
	struct r0_tracein *in;
	const char *slash = strrchr(path, '/');

	*out = NULL;
	if (!(in = calloc(1, sizeof(*in)))) {
		fclose(f);
		return -ENOMEM;
	}
	in->fmt = version == 2 ? R0_TRACE_FMT_IOLOG2 : R0_TRACE_FMT_IOLOG3;
	in->f = f;
	rewind(f);
	/* the header line, checked by the caller */
	if (!fgets(in->line, sizeof(in->line), f)) {
		r0_tracein_free(in);
		return -EBADMSG;
	}
	in->line_no = 1;
	set_name(h, slash ? slash + 1 : path, strlen(slash ? slash + 1 : path));
	iolog_target_name(in, h);
	h->logical_block_bytes = 512;
	h->format = in->fmt;
	h->untimed = version == 2;
	*out = in;
	return 0;
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !*end && !errno;
}

/* One iolog line into *EV: 0 an event; 2 a line without one (add, open, close, wait, blank); -EBADMSG. */
static int iolog_parse(struct r0_tracein *in, char *line, struct r0_trace_event *ev)
{
	char *tok[6], *save = NULL;
	size_t n = 0, at = 0;
	uint64_t t = 0, off, len, end;
	const char *act;

	for (char *s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 6)
			return -EBADMSG;
		tok[n++] = s;
	}
	if (!n)
		return 2;
	if (in->fmt == R0_TRACE_FMT_IOLOG3) {
		if (!number(tok[0], &t))
			return -EBADMSG;
		at = 1;
	}
	if (n - at != 2 && n - at != 4)
		return -EBADMSG;
	act = tok[at + 1];
	memset(ev, 0, sizeof(*ev));
	ev->kind = R0_TRACE_QUEUE;
	if (t > UINT64_MAX / 2)
		return -EBADMSG;
	/* fio's times may step back a little between its threads: the time already reached */
	ev->t_us = t < in->last_t_us ? in->last_t_us : t;
	if (n - at == 2) {
		if (!strcmp(act, "add") || !strcmp(act, "open") || !strcmp(act, "close"))
			return 2;
		if (strcmp(act, "sync") && strcmp(act, "datasync"))
			return -EBADMSG;
		ev->op = R0_TRACE_FLUSH;
		in->last_t_us = ev->t_us;
		return 0;
	}
	if (!number(tok[at + 2], &off) || !number(tok[at + 3], &len))
		return -EBADMSG;
	if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
		ev->op = R0_TRACE_FLUSH;
		in->last_t_us = ev->t_us;
		return 0;
	}
	if (!strcmp(act, "wait") && in->fmt == R0_TRACE_FMT_IOLOG2)
		return 2;
	if (!strcmp(act, "read"))
		ev->op = R0_TRACE_READ;
	else if (!strcmp(act, "write"))
		ev->op = R0_TRACE_WRITE;
	else if (!strcmp(act, "trim"))
		ev->op = R0_TRACE_DISCARD;
	else
		return -EBADMSG;
	if (!len || off > UINT64_MAX - len || off + len > UINT64_MAX - 511)
		return -EBADMSG;
	/* whole sectors: the start down, the end up */
	end = (off + len + 511) / 512;
	ev->sector = off / 512;
	ev->bytes = (end - ev->sector) * 512;
	in->last_t_us = ev->t_us;
	return 0;
}

static int iolog_read(struct r0_tracein *in, struct r0_trace_event *ev, bool *truncated)
{
	for (;;) {
		size_t len = 0;
		int c, rc;

		while ((c = getc_unlocked(in->f)) != EOF && c != '\n') {
			/* a line too long for a path and four numbers, or a NUL: no iolog line */
			if (len == LINE_BYTES || !c) {
				in->line_no++;
				return -EBADMSG;
			}
			in->line[len++] = (char)c;
		}
		if (c == EOF) {
			if (ferror(in->f))
				return -EIO;
			if (!len)
				return 1;
			/* the last line without its newline: cut */
			in->line_no++;
			*truncated = true;
			return -EBADMSG;
		}
		in->line[len] = '\0';
		in->line_no++;
		if ((rc = iolog_parse(in, in->line, ev)) != 2)
			return rc;
	}
}

unsigned long r0_tracein_line(const struct r0_tracein *in)
{
	return in->fmt == R0_TRACE_FMT_BLKTRACE ? 0 : in->line_no;
}

int r0_tracein_read(struct r0_tracein *in, struct r0_trace_event *ev, bool *truncated)
{
	memset(ev, 0, sizeof(*ev));
	return in->fmt == R0_TRACE_FMT_BLKTRACE ? bt_read(in, ev, truncated) : iolog_read(in, ev, truncated);
}
