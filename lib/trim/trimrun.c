// SPDX-License-Identifier: GPL-2.0-or-later
/* A TRIM run: its lines, the checks before writing, its descriptors, its words for sizes, chains, the header and the verdict. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blockdev.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimrun.h"

void r0_trim_run_init(struct r0_trim_run *r)
{
	struct timespec now;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	for (unsigned i = 0; i < R0_MAX_MEMBERS; i++)
		r->member_fd[i] = -1;
	clock_gettime(CLOCK_REALTIME, &now);
	r->seed = ((uint64_t)now.tv_sec << 20) ^ (uint64_t)now.tv_nsec ^ ((uint64_t)getpid() << 40);
}

void r0_trim_run_line(struct r0_trim_run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	r0_trim_result_add(&r->result, check, v, detail);   /* out of memory: the line is lost, its verdict is not */
	if (r->on_line)
		r->on_line(r->ctx, r->result.n_lines, check, v);
}

bool r0_trim_run_stopped(const struct r0_trim_run *r)
{
	return r->stop && r->stop();
}

void r0_trim_run_close(struct r0_trim_run *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	for (unsigned i = 0; i < r->t.n_members; i++) {
		if (r->member_fd[i] >= 0)
			close(r->member_fd[i]);
		r->member_fd[i] = -1;
	}
	r0_trim_result_free(&r->result);
	free(r->cycles);
	r->cycles = NULL;
	r->n_cycles = 0;
	free(r->fs_cycles);
	r->fs_cycles = NULL;
	r->n_fs_cycles = 0;
}

/* The kernel's read-only flag (sysfs ro: blockdev --setro, a write-protected device). */
static bool device_read_only(const char *path)
{
	struct r0_device d;
	bool ro = !r0_probe_device(path, &d) && d.read_only == 1;

	r0_device_free(&d);
	return ro;
}

int r0_trim_run_device_ready(struct r0_trim_run *r, int described, bool force, char *why, size_t len)
{
	struct r0_member_check chk;
	char reason[512];
	int err;

	if ((err = r0_member_check(r->path, force, 0, &chk, reason, sizeof(reason))))
		goto out;
	err = described;
	if (!err)
		err = r0_stack_check(&r->t, reason, sizeof(reason));
	else
		r0_trim_device_describe(r->path, &r->t, reason, sizeof(reason));   /* its reason again */
	if (err)
		goto out;
	/* a thin volume over an array is placed by its pool's map: one that cannot be read is
	 * a stack r0trim cannot follow here (thin_dump missing), not a "no" */
	if (r->t.stack.thin_node >= 0 && (err = r0_trim_device_map_thin(&r->t, reason, sizeof(reason)))) {
		snprintf(why, len, "%s: a thin volume over an array: where its pool puts blocks: %s", r->path, reason);
		return err;
	}
	/* nothing about discards can be shown on a device that takes no writes: no "no" */
	if (device_read_only(r->path)) {
		snprintf(why, len, "%s: is read-only (blockdev --setro, or a read-only device): "
			 "nothing about discards can be shown", r->path);
		return -EROFS;
	}
	return 0;
out:
	snprintf(why, len, "%s: %s", r->path, reason);
	return err < 0 ? err : -EINVAL;
}

int r0_trim_run_open(struct r0_trim_run *r, bool fs_mode)
{
	r->fd = r0_blockdev_open_exclusive(r->path, O_RDWR | O_DIRECT);
	if (r->fd < 0) {
		int err = r->fd;

		r->fd = -1;
		return err;
	}
	for (unsigned i = 0; i < r->t.n_members && !fs_mode; i++) {
		char node[PATH_MAX];

		/* read-only and shared: the array holds them */
		if (r0_devt_node(r->t.members[i].devt, node, sizeof(node)) == 0)
			r->member_fd[i] = open(node, O_RDONLY | O_DIRECT | O_CLOEXEC);
	}
	return 0;
}

const char *r0_trim_exact_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024 == 0 || bytes < 1024)
		r0_format_size(bytes, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

void r0_trim_chain_name(const struct r0_trim_member *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned d = 0; d <= m->depth && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s%s", d ? " > " : "", m->chain_kname[d],
					m->chain_type[d][0] ? " (" : "", m->chain_type[d],
					m->chain_type[d][0] ? ")" : "");
}

void r0_trim_run_verdict_line(const struct r0_trim_run *r, char *buf, size_t len)
{
	const struct r0_trim_result *res = &r->result;
	const char *levels = res->levels;

	if (res->overall == R0_CHECK_OK && r->t.kind == R0_TRIM_SINGLE && r->t.members[0].depth == 0)
		snprintf(buf, len, "%-10s %-14s discards reach %s (%u conclusive checks, %u not conclusive)%s%s",
			 "verdict", "PASS", r->path, res->delivery_pass, res->delivery_nc, levels[0] ? ": " : "", levels);
	else if (res->overall == R0_CHECK_OK)
		snprintf(buf, len, "%-10s %-14s discards pass through %s to %s %u bottom device%s (%u conclusive "
			 "checks, %u not conclusive)%s%s", "verdict", "PASS", r->path, r->t.n_members == 1 ? "its" : "all",
			 r->t.n_members, r->t.n_members == 1 ? "" : "s", res->delivery_pass, res->delivery_nc,
			 levels[0] ? ": " : "", levels);
	else
		/* "no" only where something failed: not shown is not conclusive, no "no" */
		snprintf(buf, len, "%-10s %-14s %s%s%s%s", "verdict",
			 r0_check_result_name(res->overall == R0_CHECK_FAIL ? R0_CHECK_FAIL : R0_CHECK_NOT_CONCLUSIVE),
			 res->overall == R0_CHECK_FAIL ? "no: " : "", res->first_fail, levels[0] ? "; shown: " : "", levels);
}

void r0_trim_run_write_header(const struct r0_trim_run *r, FILE *f)
{
	const struct r0_trim_device *t = &r->t;
	char b1[32], b2[32];

	r0_format_size_human(t->size_sectors * 512, b1, sizeof(b1));
	fprintf(f, "r0trim: %s (%s): %s, %s, Linux %s\n", r->path, t->kname, t->desc, b1, r->kernel);
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		char line[512];

		if (t->stack.node[i].kind == R0_NODE_DEVICE)
			continue;
		r0_trim_stack_layer_line(&t->stack, i, line, sizeof(line));
		fprintf(f, "  layer %s: %s\n", t->stack.node[i].kname, line);
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		char ch[256];

		r0_trim_chain_name(m, ch, sizeof(ch));
		fprintf(f, "  bottom %u: %s: discard granularity %s, max %s; after discard reads %s (%s)\n", i, ch,
			r0_trim_exact_size(m->leaf_lim.granularity_bytes, b1, sizeof(b1)),
			r0_trim_exact_size(m->leaf_lim.max_bytes, b2, sizeof(b2)), r0_discard_reads_name(m->reads),
			m->reads_why);
	}
}
