// SPDX-License-Identifier: GPL-2.0-or-later
/* A recorder of block requests through the kernel's blktrace ioctls and relay files (r0/blktrace.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/blktrace_api.h>
#include <linux/fs.h>

#include "r0/blktrace.h"
#include "sysfs.h"
#include "tracein.h"

#define DEBUGFS "/sys/kernel/debug"
/* relay buffers per CPU: 4 x 1 MiB hold some 80k events between two polls */
#define RELAY_BUF_BYTES (1u << 20)
#define RELAY_BUF_NR 4u
/* events are written once this old: every CPU's file has been read past them by then */
#define ORDER_MARGIN_NS 2000000000ULL
#define READ_BYTES 65536
/* blktrace's payloads are a cgroup id or a short message: a longer one is a torn record */
#define MAX_PDU_BYTES 1024

struct pending {
	uint64_t ns;
	uint32_t cpu, seq;
	struct r0_trace_event ev;
};

struct cpu_file {
	int fd;
	unsigned char buf[READ_BYTES + sizeof(struct blk_io_trace) + 65536];
	size_t len;                 /* unparsed bytes carried into the next read */
};

struct r0_blktrace {
	int dev_fd;
	bool mounted, set_up;
	char dir[PATH_MAX];
	struct r0_trace_header h;
	struct r0_trace_writer *w;
	char *trace_path;
	uint64_t max_bytes, t0_ns, max_ns, written, over_limit, last_t_us, torn;
	bool t0_fixed;
	int write_err;
	struct cpu_file *cpu;
	unsigned n_cpu;
	struct pending *pend;
	size_t n_pend, cap_pend;
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* debugfs holds block/ once mounted (the block layer creates it at boot) */
static int ensure_debugfs(bool *mounted)
{
	struct stat st;

	*mounted = false;
	if (!stat(DEBUGFS "/block", &st))
		return 0;
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
		return errno == ENODEV ? -ENOENT : -errno;
	*mounted = true;
	return stat(DEBUGFS "/block", &st) ? -ENOENT : 0;
}

/* A blk-mq disk has mq/ in sysfs (a partition: its disk's); md and dm (bio-based) have none. */
static bool is_request_based(const char *name)
{
	char path[PATH_MAX];

	if (!r0_path(path, sizeof(path), "/sys/class/block/%s/mq", name) && !access(path, F_OK))
		return true;
	return !r0_path(path, sizeof(path), "/sys/class/block/%s/../mq", name) && !access(path, F_OK);
}

static void teardown(struct r0_blktrace *bt)
{
	if (bt->set_up) {
		ioctl(bt->dev_fd, BLKTRACESTOP);
		ioctl(bt->dev_fd, BLKTRACETEARDOWN);
		bt->set_up = false;
	}
}

static void free_bt(struct r0_blktrace *bt)
{
	for (unsigned i = 0; bt->cpu && i < bt->n_cpu; i++)
		if (bt->cpu[i].fd >= 0)
			close(bt->cpu[i].fd);
	free(bt->cpu);
	teardown(bt);
	if (bt->dev_fd >= 0)
		close(bt->dev_fd);
	if (bt->mounted)
		umount2(DEBUGFS, MNT_DETACH);
	free(bt->pend);
	free(bt->trace_path);
	free(bt);
}

int r0_blktrace_start(const char *dev_path, const char *trace_path, uint64_t max_bytes,
		      struct r0_blktrace **out)
{
	struct blk_user_trace_setup buts = {
		.act_mask = BLK_TC_QUEUE | BLK_TC_ISSUE | BLK_TC_COMPLETE | BLK_TC_REQUEUE,
		.buf_size = RELAY_BUF_BYTES, .buf_nr = RELAY_BUF_NR,
	};
	struct r0_blktrace *bt;
	struct stat st;
	uint64_t size_bytes;
	int lbs, err;
	long n_cpu;

	*out = NULL;
	if (!(bt = calloc(1, sizeof(*bt))))
		return -ENOMEM;
	bt->dev_fd = -1;
	bt->max_bytes = max_bytes;
	if (!(bt->trace_path = strdup(trace_path))) {
		err = -ENOMEM;
		goto fail;
	}
	if ((bt->dev_fd = open(dev_path, O_RDONLY | O_CLOEXEC)) < 0) {
		err = -errno;
		goto fail;
	}
	if (fstat(bt->dev_fd, &st) || !S_ISBLK(st.st_mode)) {
		err = -ENOTBLK;
		goto fail;
	}
	if (ioctl(bt->dev_fd, BLKGETSIZE64, &size_bytes) || ioctl(bt->dev_fd, BLKSSZGET, &lbs)) {
		err = -errno;
		goto fail;
	}
	if ((err = ensure_debugfs(&bt->mounted)))
		goto fail;
	if (ioctl(bt->dev_fd, BLKTRACESETUP, &buts)) {
		err = -errno;
		goto fail;
	}
	bt->set_up = true;
	buts.name[sizeof(buts.name) - 1] = '\0';
	snprintf(bt->h.name, sizeof(bt->h.name), "%s", buts.name);
	bt->h.size_sectors = size_bytes / 512;
	bt->h.logical_block_bytes = (uint32_t)lbs;
	bt->h.flags = is_request_based(bt->h.name) ? R0_TRACE_QD_ISSUE : R0_TRACE_QD_QUEUE;
	if ((err = r0_path(bt->dir, sizeof(bt->dir), DEBUGFS "/block/%s", buts.name)))
		goto fail;

	n_cpu = sysconf(_SC_NPROCESSORS_CONF);
	bt->n_cpu = n_cpu > 0 ? (unsigned)n_cpu : 1;
	if (!(bt->cpu = calloc(bt->n_cpu, sizeof(*bt->cpu)))) {
		err = -ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < bt->n_cpu; i++) {
		char path[PATH_MAX];

		if ((err = r0_path(path, sizeof(path), "%s/trace%u", bt->dir, i)))
			goto fail;
		/* a CPU that cannot come online has no file */
		if ((bt->cpu[i].fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && errno != ENOENT) {
			err = -errno;
			goto fail;
		}
	}
	bt->h.start_epoch_us = clock_ns(CLOCK_REALTIME) / 1000;
	/* blktrace stamps events with ktime_get(), the monotonic clock */
	bt->t0_ns = clock_ns(CLOCK_MONOTONIC);
	if ((err = r0_trace_writer_open(trace_path, &bt->h, &bt->w)))
		goto fail;
	if (ioctl(bt->dev_fd, BLKTRACESTART)) {
		err = -errno;
		r0_trace_writer_abort(bt->w, trace_path);
		goto fail;
	}
	*out = bt;
	return 0;
fail:
	free_bt(bt);
	return err;
}

const struct r0_trace_header *r0_blktrace_header(const struct r0_blktrace *bt)
{
	return &bt->h;
}

bool r0_blktrace_mounted_debugfs(const struct r0_blktrace *bt)
{
	return bt->mounted;
}

/* One blk_io_trace as an r0 event: false for what is not kept (merges, plugs, messages...). */
bool r0_blktrace_convert(const struct blk_io_trace *t, struct r0_trace_event *ev)
{
	uint32_t cat = t->action >> BLK_TC_SHIFT, act = t->action & 0xff;

	if (cat & BLK_TC_NOTIFY)
		return false;
	memset(ev, 0, sizeof(*ev));
	switch (act) {
	case __BLK_TA_QUEUE:
		ev->kind = R0_TRACE_QUEUE;
		break;
	case __BLK_TA_ISSUE:
		ev->kind = R0_TRACE_ISSUE;
		break;
	case __BLK_TA_COMPLETE:
	case __BLK_TA_REQUEUE:   /* it leaves the device and is issued again */
		ev->kind = R0_TRACE_COMPLETE;
		break;
	default:
		return false;
	}
	ev->op = cat & BLK_TC_DISCARD ? R0_TRACE_DISCARD : cat & BLK_TC_WRITE ? R0_TRACE_WRITE : R0_TRACE_READ;
	if (ev->kind == R0_TRACE_QUEUE) {
		/* an empty bio is a flush (REQ_PREFLUSH without data) */
		if (!t->bytes) {
			ev->op = R0_TRACE_FLUSH;
		} else {
			ev->sector = t->sector;
			ev->bytes = ((uint64_t)t->bytes + 511) / 512 * 512;
		}
	} else if (!t->bytes && (cat & BLK_TC_FLUSH)) {
		ev->op = R0_TRACE_FLUSH;
	} else {
		/* the sector pairs an issue or completion with its request */
		ev->sector = t->sector;
	}
	return true;
}

static int add_pending(struct r0_blktrace *bt, const struct blk_io_trace *t)
{
	struct pending *p;

	if (bt->n_pend == bt->cap_pend) {
		size_t cap = bt->cap_pend ? bt->cap_pend * 2 : 4096;

		if (!(p = realloc(bt->pend, cap * sizeof(*p))))
			return -ENOMEM;
		bt->pend = p;
		bt->cap_pend = cap;
	}
	p = &bt->pend[bt->n_pend];
	if (!r0_blktrace_convert(t, &p->ev))
		return 0;
	/* a clock other than the monotonic one (an old kernel): time from the first event on */
	if (!bt->t0_fixed) {
		if (t->time + 3600000000000ULL < bt->t0_ns || t->time > bt->t0_ns + 3600000000000ULL)
			bt->t0_ns = t->time;
		bt->t0_fixed = true;
	}
	p->ns = t->time;
	p->cpu = t->cpu;
	p->seq = t->sequence;
	if (t->time > bt->max_ns)
		bt->max_ns = t->time;
	bt->n_pend++;
	return 0;
}

/*
 * Parses whole records out of C's buffer; a partial one waits for the next
 * read. A relay file reads up to what is reserved, and a record is filled
 * after its reservation (kernel/relay.c relay_reserve, then
 * __blk_add_trace), with interrupts off on its CPU: a record read while
 * it is being written can only be the last one read, and is lost with
 * whatever of it was read (counted in ->torn).
 */
static int parse(struct r0_blktrace *bt, struct cpu_file *c)
{
	size_t at = 0;
	int err = 0;

	while (c->len - at >= sizeof(struct blk_io_trace)) {
		struct blk_io_trace t;
		size_t whole;

		memcpy(&t, c->buf + at, sizeof(t));
		if ((t.magic & 0xffffff00) != BLK_IO_TRACE_MAGIC || (t.magic & 0xff) != BLK_IO_TRACE_VERSION ||
		    t.pdu_len > MAX_PDU_BYTES) {
			bt->torn++;
			at = c->len;
			break;
		}
		whole = sizeof(t) + t.pdu_len;
		if (c->len - at < whole)
			break;
		if ((err = add_pending(bt, &t)))
			return err;
		at += whole;
	}
	memmove(c->buf, c->buf + at, c->len - at);
	c->len -= at;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Writes the pending events up to UNTIL_NS in time order; keeps the rest. */
static void flush_until(struct r0_blktrace *bt, uint64_t until_ns)
{
	size_t n = 0;

	qsort(bt->pend, bt->n_pend, sizeof(*bt->pend), by_time);
	for (; n < bt->n_pend && bt->pend[n].ns <= until_ns; n++) {
		struct r0_trace_event ev = bt->pend[n].ev;

		ev.t_us = bt->pend[n].ns > bt->t0_ns ? (bt->pend[n].ns - bt->t0_ns) / 1000 : 0;
		/* an event read after the margin (a stalled reader) joins at the last time written */
		if (ev.t_us < bt->last_t_us)
			ev.t_us = bt->last_t_us;
		bt->last_t_us = ev.t_us;
		if (bt->write_err)
			continue;
		if (bt->max_bytes && r0_trace_writer_bytes(bt->w) >= bt->max_bytes) {
			bt->over_limit++;
			continue;
		}
		if ((bt->write_err = r0_trace_write(bt->w, &ev)) == 0)
			bt->written++;
	}
	memmove(bt->pend, bt->pend + n, (bt->n_pend - n) * sizeof(*bt->pend));
	bt->n_pend -= n;
}

static int read_all(struct r0_blktrace *bt)
{
	int err;

	for (unsigned i = 0; i < bt->n_cpu; i++) {
		struct cpu_file *c = &bt->cpu[i];

		if (c->fd < 0)
			continue;
		for (;;) {
			ssize_t n = read(c->fd, c->buf + c->len, READ_BYTES);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0)
				return -errno;
			if (!n)
				break;
			c->len += (size_t)n;
			if ((err = parse(bt, c)))
				return err;
		}
	}
	return 0;
}

int r0_blktrace_poll(struct r0_blktrace *bt)
{
	int err = read_all(bt);

	if (err)
		return err;
	if (bt->max_ns > ORDER_MARGIN_NS)
		flush_until(bt, bt->max_ns - ORDER_MARGIN_NS);
	return bt->write_err;
}

int r0_blktrace_stop(struct r0_blktrace *bt, struct r0_blktrace_stats *stats)
{
	char path[PATH_MAX];
	uint64_t dropped = 0;
	int err, cerr;

	if (!bt)
		return 0;
	ioctl(bt->dev_fd, BLKTRACESTOP);
	err = read_all(bt);
	flush_until(bt, UINT64_MAX);
	if (!err)
		err = bt->write_err;
	if (!r0_path(path, sizeof(path), "%s/dropped", bt->dir))
		r0_sysfs_read_u64(path, &dropped);
	if (stats)
		*stats = (struct r0_blktrace_stats){ .events = bt->written, .over_limit = bt->over_limit,
						     .dropped = dropped, .torn = bt->torn,
						     .file_bytes = r0_trace_writer_bytes(bt->w) };
	cerr = r0_trace_writer_close(bt->w);
	if (!err)
		err = cerr;
	free_bt(bt);
	return err;
}
