// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A one-queue ublk server after Linux 6.12 drivers/block/ublk_drv.c and
 * Documentation/block/ublk.rst: control commands on /dev/ublk-control,
 * FETCH_REQ / COMMIT_AND_FETCH_REQ on /dev/ublkcN, both as
 * IORING_OP_URING_CMD filled by hand (liburing 2.3 has no
 * io_uring_prep_cmd).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "lasterror.h"
#include "r0/clock.h"
#include "r0/ublk.h"
#include "ublk_uapi.h"

#define CTRL_PATH "/dev/ublk-control"
#define WAIT_STEPS 100            /* x 50 ms: device nodes appear within 5 s */

struct pending {
	uint64_t due_ns;
	int result;
	bool waiting;                 /* handled, not committed yet */
	bool live;                    /* a fetch is outstanding for this tag */
};

struct r0_ublk {
	struct r0_ublk_spec spec;
	int ctrl_fd, cdev_fd, id;
	struct io_uring ctrl, q;
	bool ctrl_ring, q_ring, added, thread_started;
	struct r0_ublksrv_io_desc *desc;
	size_t desc_bytes;
	void **bufs;
	struct pending *pend;
	pthread_t thread;
	sem_t fetched;
	int thread_err;
	atomic_bool stop;
	atomic_uint_fast64_t errors;
	char path[32];
};

const char *r0_ublk_last_error(void)
{
	return r0_last_error();
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* An IORING_OP_URING_CMD SQE by hand; the control ring's SQEs are 128 bytes. */
static struct io_uring_sqe *cmd_sqe(struct io_uring *ring, int fd, uint32_t op, const void *cmd,
				    size_t cmd_len, bool sqe128)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		return NULL;
	memset(sqe, 0, sqe128 ? 128 : sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	memcpy(sqe->cmd, cmd, cmd_len);
	return sqe;
}

/* One control command, synchronously: the driver's result (>= 0) or -errno. */
static int ctrl_cmd(struct io_uring *ring, int fd, uint32_t op, struct r0_ublksrv_ctrl_cmd *c)
{
	struct io_uring_cqe *cqe;
	int ret;

	if (!cmd_sqe(ring, fd, op, c, sizeof(*c), true))
		return -EBUSY;
	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	do
		ret = io_uring_wait_cqe(ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static int open_ctrl(int *fd, struct io_uring *ring)
{
	int err;

	*fd = open(CTRL_PATH, O_RDWR | O_CLOEXEC);
	if (*fd < 0) {
		err = -errno;
		r0_set_last_error("open %s (is ublk_drv loaded?)", CTRL_PATH);
		return err;
	}
	err = io_uring_queue_init(4, ring, IORING_SETUP_SQE128);
	if (err) {
		r0_set_last_error("io_uring with 128-byte SQEs");
		close(*fd);
		*fd = -1;
	}
	return err;
}

static int dev_cmd(struct r0_ublk *u, uint32_t op, void *buf, uint16_t len, uint64_t data)
{
	struct r0_ublksrv_ctrl_cmd c = {
		.dev_id = (uint32_t)u->id, .queue_id = 0xffff,
		.addr = (uint64_t)(uintptr_t)buf, .len = len, .data = { data },
	};

	return ctrl_cmd(&u->ctrl, u->ctrl_fd, op, &c);
}

static int queue_io_cmd(struct r0_ublk *u, uint32_t op, uint16_t tag, int32_t result)
{
	struct r0_ublksrv_io_cmd c = {
		.q_id = 0, .tag = tag, .result = result, .addr = (uint64_t)(uintptr_t)u->bufs[tag],
	};
	struct io_uring_sqe *sqe = cmd_sqe(&u->q, u->cdev_fd, op, &c, sizeof(c), false);

	if (!sqe) {
		/* the ring holds 2 x depth entries: flush and retry once */
		io_uring_submit(&u->q);
		sqe = cmd_sqe(&u->q, u->cdev_fd, op, &c, sizeof(c), false);
		if (!sqe)
			return -EBUSY;
	}
	sqe->user_data = tag;
	u->pend[tag].live = true;
	return 0;
}

static void handle(struct r0_ublk *u, uint16_t tag)
{
	const struct r0_ublksrv_io_desc *d = &u->desc[tag];
	struct r0_ublk_req rq = {
		.offset_bytes = d->start_sector << 9,
		.length_bytes = (uint64_t)d->nr_sectors << 9,
		.buf = u->bufs[tag],
	};
	uint64_t t = r0_now_ns(), due = t;
	int res;

	switch (d->op_flags & 0xff) {
	case R0_UBLK_IO_OP_READ: rq.op = R0_UBLK_READ; break;
	case R0_UBLK_IO_OP_WRITE: rq.op = R0_UBLK_WRITE; break;
	case R0_UBLK_IO_OP_FLUSH: rq.op = R0_UBLK_FLUSH; break;
	case R0_UBLK_IO_OP_DISCARD: rq.op = R0_UBLK_DISCARD; break;
	case R0_UBLK_IO_OP_WRITE_ZEROES:
		rq.op = R0_UBLK_WRITE_ZEROES;
		rq.nounmap = d->op_flags & R0_UBLK_IO_F_NOUNMAP;
		break;
	default: rq.op = R0_UBLK_OTHER; break;
	}
	if (rq.op == R0_UBLK_OTHER)
		res = -EOPNOTSUPP;
	else if ((rq.op == R0_UBLK_READ || rq.op == R0_UBLK_WRITE) && rq.length_bytes > u->spec.max_io_bytes)
		res = -EIO;
	else
		res = u->spec.handler(u->spec.user, &rq, t, &due);
	/* reads and writes complete with their byte count (0 would be an error) */
	if (!res && (rq.op == R0_UBLK_READ || rq.op == R0_UBLK_WRITE))
		res = (int)rq.length_bytes;
	u->pend[tag].result = res;
	u->pend[tag].due_ns = due;
	u->pend[tag].waiting = true;
}

/* Commits every handled request whose time has come; returns the next due time or 0. */
static uint64_t commit_due(struct r0_ublk *u)
{
	uint64_t t = r0_now_ns(), next = 0;

	for (uint16_t tag = 0; tag < u->spec.queue_depth; tag++) {
		struct pending *p = &u->pend[tag];

		if (!p->waiting)
			continue;
		if (p->due_ns <= t) {
			if (queue_io_cmd(u, R0_UBLK_U_IO_COMMIT_AND_FETCH_REQ, tag, p->result) == 0)
				p->waiting = false;
			else
				atomic_fetch_add(&u->errors, 1);
		} else if (!next || p->due_ns < next) {
			next = p->due_ns;
		}
	}
	return next;
}

static void *queue_thread(void *arg)
{
	struct r0_ublk *u = arg;
	unsigned live = 0;
	sigset_t all;

	/* signals are the main thread's business */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (uint16_t tag = 0; tag < u->spec.queue_depth; tag++) {
		u->thread_err = queue_io_cmd(u, R0_UBLK_U_IO_FETCH_REQ, tag, -1);
		if (u->thread_err)
			break;
		live++;
	}
	if (!u->thread_err) {
		int ret = io_uring_submit(&u->q);
		if (ret < 0)
			u->thread_err = ret;
	}
	sem_post(&u->fetched);
	if (u->thread_err)
		return NULL;

	while (live && !atomic_load(&u->stop)) {
		struct io_uring_cqe *cqe;
		uint64_t next = commit_due(u);
		/* wake at least every 100 ms to see a stop request */
		uint64_t wait = 100000000, t = r0_now_ns();
		struct __kernel_timespec ts;
		unsigned head, n = 0;
		int ret;

		if (next)
			wait = next <= t ? 0 : (next - t < wait ? next - t : wait);
		io_uring_submit(&u->q);
		ts.tv_sec = (long long)(wait / 1000000000u);
		ts.tv_nsec = (long long)(wait % 1000000000u);
		ret = io_uring_wait_cqe_timeout(&u->q, &cqe, &ts);
		if (ret < 0 && ret != -ETIME && ret != -EINTR) {
			atomic_fetch_add(&u->errors, 1);
			continue;
		}
		io_uring_for_each_cqe(&u->q, head, cqe) {
			uint16_t tag = (uint16_t)cqe->user_data;

			n++;
			if (tag >= u->spec.queue_depth)
				continue;
			u->pend[tag].live = false;
			if (cqe->res == R0_UBLK_IO_RES_OK) {
				handle(u, tag);
			} else {
				/* ABORT: the device is going away; anything else: a refused command */
				if (cqe->res != R0_UBLK_IO_RES_ABORT)
					atomic_fetch_add(&u->errors, 1);
				live--;
			}
		}
		io_uring_cq_advance(&u->q, n);
	}
	return NULL;
}

static int wait_node(const char *path, mode_t type)
{
	struct stat st;

	for (int i = 0; i < WAIT_STEPS; i++) {
		if (stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type)
			return 0;
		sleep_ms(50);
	}
	return -ETIMEDOUT;
}

static int check_spec(const struct r0_ublk_spec *s)
{
	if (!s->handler || s->block_bytes < 512 || s->block_bytes > 4096 ||
	    (s->block_bytes & (s->block_bytes - 1)) || !s->size_bytes || s->size_bytes % s->block_bytes ||
	    !s->queue_depth || s->queue_depth > 1024 || !s->max_io_bytes || s->max_io_bytes % 4096 ||
	    s->max_io_bytes > (1u << 20) || s->dev_id < -1)
		return -EINVAL;
	return 0;
}

/* Tears down whatever r0_ublk_new got to; returns the first error. */
static int teardown(struct r0_ublk *u)
{
	int err = 0, ret;

	if (u->thread_started) {
		if (u->added) {
			/* the block device goes first; the thread completes what is in flight */
			ret = dev_cmd(u, R0_UBLK_U_CMD_STOP_DEV, NULL, 0, 0);
			if (ret < 0 && !err) {
				err = ret;
				r0_set_last_error("STOP_DEV of ublk %d", u->id);
			}
		}
		atomic_store(&u->stop, true);
		pthread_join(u->thread, NULL);
	}
	/* pending commands hold /dev/ublkcN: exit the ring, then close it, then DEL_DEV */
	if (u->q_ring)
		io_uring_queue_exit(&u->q);
	if (u->desc)
		munmap(u->desc, u->desc_bytes);
	if (u->cdev_fd >= 0)
		close(u->cdev_fd);
	if (u->added) {
		ret = dev_cmd(u, R0_UBLK_U_CMD_DEL_DEV, NULL, 0, 0);
		if (ret < 0 && !err) {
			err = ret;
			r0_set_last_error("DEL_DEV of ublk %d", u->id);
		}
	}
	if (u->ctrl_ring)
		io_uring_queue_exit(&u->ctrl);
	if (u->ctrl_fd >= 0)
		close(u->ctrl_fd);
	if (u->bufs)
		for (uint32_t i = 0; i < u->spec.queue_depth; i++)
			free(u->bufs[i]);
	free(u->bufs);
	free(u->pend);
	sem_destroy(&u->fetched);
	free(u);
	return err;
}

struct r0_ublk *r0_ublk_new(const struct r0_ublk_spec *spec)
{
	struct r0_ublksrv_ctrl_dev_info info = { 0 };
	struct r0_ublk_params p = { 0 };
	struct r0_ublk *u;
	char cdev[32];
	int err, shift;

	r0_clear_last_error();
	if (check_spec(spec)) {
		r0_set_last_error("invalid device specification");
		errno = EINVAL;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->spec = *spec;
	u->ctrl_fd = u->cdev_fd = -1;
	u->id = spec->dev_id;
	sem_init(&u->fetched, 0, 0);
	u->bufs = calloc(spec->queue_depth, sizeof(*u->bufs));
	u->pend = calloc(spec->queue_depth, sizeof(*u->pend));
	if (!u->bufs || !u->pend)
		goto nomem;
	for (uint32_t i = 0; i < spec->queue_depth; i++)
		if (posix_memalign(&u->bufs[i], 4096, spec->max_io_bytes))
			goto nomem;

	err = open_ctrl(&u->ctrl_fd, &u->ctrl);
	if (err)
		goto fail;
	u->ctrl_ring = true;

	/* ADD_DEV: header and info both carry the id (-1: allocate one) */
	info.nr_hw_queues = 1;
	info.queue_depth = (uint16_t)spec->queue_depth;
	info.max_io_buf_bytes = spec->max_io_bytes;
	info.dev_id = (uint32_t)spec->dev_id;
	info.ublksrv_pid = getpid();
	info.flags = R0_UBLK_F_CMD_IOCTL_ENCODE;
	info.ublksrv_flags = R0_UBLK_TAG;
	err = dev_cmd(u, R0_UBLK_U_CMD_ADD_DEV, &info, sizeof(info), 0);
	if (err < 0) {
		r0_set_last_error("ADD_DEV");
		goto fail;
	}
	u->added = true;
	u->id = (int)info.dev_id;
	snprintf(u->path, sizeof(u->path), "/dev/ublkb%d", u->id);

	for (shift = 9; (1u << shift) < spec->block_bytes; shift++)
		;
	p.len = sizeof(p);
	p.types = R0_UBLK_PARAM_TYPE_BASIC;
	p.basic.logical_bs_shift = (uint8_t)shift;
	p.basic.physical_bs_shift = (uint8_t)shift;
	p.basic.io_min_shift = (uint8_t)shift;
	p.basic.io_opt_shift = (uint8_t)shift;
	p.basic.max_sectors = spec->max_io_bytes >> 9;
	p.basic.dev_sectors = spec->size_bytes >> 9;
	if (spec->discard) {
		/* the driver wants one segment and a non-zero granularity */
		p.types |= R0_UBLK_PARAM_TYPE_DISCARD;
		p.discard.discard_granularity = spec->block_bytes;
		p.discard.max_discard_sectors = UINT32_MAX >> 9;
		p.discard.max_write_zeroes_sectors = UINT32_MAX >> 9;
		p.discard.max_discard_segments = 1;
	}
	err = dev_cmd(u, R0_UBLK_U_CMD_SET_PARAMS, &p, sizeof(p), 0);
	if (err < 0) {
		r0_set_last_error("SET_PARAMS of ublk %d", u->id);
		goto fail;
	}

	snprintf(cdev, sizeof(cdev), "/dev/ublkc%d", u->id);
	err = wait_node(cdev, S_IFCHR);
	if (!err) {
		u->cdev_fd = open(cdev, O_RDWR | O_CLOEXEC);
		err = u->cdev_fd < 0 ? -errno : 0;
	}
	if (err) {
		r0_set_last_error("open %s", cdev);
		goto fail;
	}
	/* the descriptors: one per tag, read-only for the server */
	u->desc_bytes = (spec->queue_depth * sizeof(*u->desc) + 4095) & ~(size_t)4095;
	u->desc = mmap(NULL, u->desc_bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, u->cdev_fd,
		       R0_UBLKSRV_CMD_BUF_OFFSET);
	if (u->desc == MAP_FAILED) {
		u->desc = NULL;
		err = -errno;
		r0_set_last_error("mmap the request descriptors of %s", cdev);
		goto fail;
	}
	err = io_uring_queue_init(2 * spec->queue_depth, &u->q, 0);
	if (err) {
		r0_set_last_error("io_uring for the queue");
		goto fail;
	}
	u->q_ring = true;

	/* START_DEV waits until every tag has a FETCH_REQ: the queue thread issues them */
	err = pthread_create(&u->thread, NULL, queue_thread, u);
	if (err) {
		err = -err;
		r0_set_last_error("start the queue thread");
		goto fail;
	}
	u->thread_started = true;
	sem_wait(&u->fetched);
	if (u->thread_err) {
		err = u->thread_err;
		r0_set_last_error("FETCH_REQ on %s", cdev);
		goto fail;
	}
	err = dev_cmd(u, R0_UBLK_U_CMD_START_DEV, NULL, 0, (uint64_t)getpid());
	if (err < 0) {
		r0_set_last_error("START_DEV of ublk %d", u->id);
		goto fail;
	}
	err = wait_node(u->path, S_IFBLK);
	if (err) {
		r0_set_last_error("%s did not appear", u->path);
		goto fail;
	}
	return u;

nomem:
	err = -ENOMEM;
	r0_set_last_error("out of memory");
fail:
	{
		char keep[512];

		snprintf(keep, sizeof(keep), "%s", r0_last_error());
		teardown(u);
		r0_set_last_error("%s", keep);
	}
	errno = -err;
	return NULL;
}

const char *r0_ublk_path(const struct r0_ublk *u)
{
	return u->path;
}

int r0_ublk_id(const struct r0_ublk *u)
{
	return u->id;
}

uint64_t r0_ublk_errors(const struct r0_ublk *u)
{
	return atomic_load(&((struct r0_ublk *)u)->errors);
}

int r0_ublk_free(struct r0_ublk *u)
{
	r0_clear_last_error();
	return u ? teardown(u) : 0;
}

/* GET_DEV_INFO, STOP_DEV and DEL_DEV of one orphan; 1 if removed, 0 if not ours. */
static int cleanup_one(struct io_uring *ring, int fd, int id)
{
	struct r0_ublksrv_ctrl_dev_info info = { 0 };
	struct r0_ublksrv_ctrl_cmd c = {
		.dev_id = (uint32_t)id, .queue_id = 0xffff,
		.addr = (uint64_t)(uintptr_t)&info, .len = sizeof(info),
	};
	int ret = ctrl_cmd(ring, fd, R0_UBLK_U_CMD_GET_DEV_INFO, &c);

	if (ret < 0) {
		r0_set_last_error("GET_DEV_INFO of ublk %d", id);
		return ret;
	}
	if (info.ublksrv_flags != R0_UBLK_TAG)
		return 0;
	if (info.ublksrv_pid > 0 && (kill(info.ublksrv_pid, 0) == 0 || errno != ESRCH))
		return 0;   /* its server still runs */
	c.addr = 0;
	c.len = 0;
	ctrl_cmd(ring, fd, R0_UBLK_U_CMD_STOP_DEV, &c);   /* usually stopped already */
	ret = ctrl_cmd(ring, fd, R0_UBLK_U_CMD_DEL_DEV, &c);
	if (ret < 0) {
		r0_set_last_error("DEL_DEV of ublk %d", id);
		return ret;
	}
	return 1;
}

int r0_ublk_cleanup(int dev_id, unsigned *n_removed)
{
	struct io_uring ring;
	struct dirent *de;
	DIR *dir = NULL;
	int fd, err, ret;

	r0_clear_last_error();
	*n_removed = 0;
	err = open_ctrl(&fd, &ring);
	if (err)
		return err;
	if (dev_id >= 0) {
		ret = cleanup_one(&ring, fd, dev_id);
		if (ret < 0)
			err = ret;
		else if (ret == 0) {
			err = -ENOENT;
			r0_set_last_error("ublk %d is not an r0kit device whose server is gone", dev_id);
		} else
			(*n_removed)++;
		goto out;
	}
	/* the character devices ublk_drv registers, one per device */
	dir = opendir("/sys/class/ublk-char");
	if (!dir) {
		if (errno != ENOENT) {
			err = -errno;
			r0_set_last_error("read /sys/class/ublk-char");
		}
		goto out;
	}
	while ((de = readdir(dir))) {
		int id;

		if (sscanf(de->d_name, "ublkc%d", &id) != 1)
			continue;
		ret = cleanup_one(&ring, fd, id);
		if (ret < 0 && !err)
			err = ret;
		if (ret > 0)
			(*n_removed)++;
	}
out:
	if (dir)
		closedir(dir);
	io_uring_queue_exit(&ring);
	close(fd);
	return err;
}
