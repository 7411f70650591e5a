// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON Lines reader behind r0_sweep_load and r0_scenario_load. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonl.h"
#include "r0/jsonlappend.h"

int r0_jsonl_scan(const char *path, int (*line_fn)(const char *line, unsigned lineno, void *ctx), void *ctx,
		  struct r0_jsonl_damage *dmg)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	int err = 0;

	memset(dmg, 0, sizeof(*dmg));
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] != '\n') {   /* cut short: never trust half a line */
			if (!dmg->bad)
				dmg->first_bad = lineno;
			dmg->bad++;
			dmg->cut_tail = true;
			break;
		}
		if (len == 1)
			continue;
		err = line_fn(line, lineno, ctx);
		if (err == -EINVAL) {
			if (!dmg->bad)
				dmg->first_bad = lineno;
			dmg->bad++;
		} else if (err == 0 || err == -ENOMSG) {
			dmg->good++;
		} else {
			break;
		}
		err = 0;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	return err;
}

struct each_ctx {
	int (*fn)(const char *line, void *ctx);
	void *ctx;
};

static int each_line(const char *line, unsigned lineno, void *ctx)
{
	struct each_ctx *e = ctx;

	(void)lineno;
	return e->fn(line, e->ctx);
}

int r0_jsonl_each(const char *path, int (*line_fn)(const char *line, void *ctx), void *ctx,
		  unsigned *good, unsigned *bad)
{
	struct each_ctx e = { line_fn, ctx };
	struct r0_jsonl_damage d;
	int err = r0_jsonl_scan(path, each_line, &e, &d);

	if (good)
		*good = d.good;
	if (bad)
		*bad = d.bad;
	return err;
}

int r0_jsonl_append_line(FILE *f, const char *line)
{
	if (fputs(line, f) == EOF || fputc('\n', f) == EOF || fflush(f))
		return -(errno ? errno : EIO);
	if (fsync(fileno(f)) && errno != EINVAL)   /* EINVAL: a pipe or tty */
		return -errno;
	return 0;
}

/* The length of PATH's content up to and with its last newline, into *KEEP. 0 or -errno. */
static int whole_lines(int fd, off_t size, off_t *keep)
{
	char buf[4096];

	for (off_t end = size; end > 0;) {
		size_t n = end < (off_t)sizeof(buf) ? (size_t)end : sizeof(buf);
		ssize_t got = pread(fd, buf, n, end - (off_t)n);

		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		for (size_t i = n; i-- > 0;)
			if (buf[i] == '\n') {
				*keep = end - (off_t)n + (off_t)i + 1;
				return 0;
			}
		end -= (off_t)n;
	}
	*keep = 0;
	return 0;
}

int r0_jsonl_open_append(const char *path, FILE **out, bool *dropped)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644), rfd, err = 0;
	struct stat st;
	off_t keep = 0;

	if (dropped)
		*dropped = false;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
	} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* read through a second descriptor: the first may be write-only by its mode */
		rfd = open(path, O_RDONLY | O_CLOEXEC);
		err = rfd < 0 ? -errno : whole_lines(rfd, st.st_size, &keep);
		if (rfd >= 0)
			close(rfd);
		if (!err && keep < st.st_size) {
			if (ftruncate(fd, keep))
				err = -errno;
			else if (dropped)
				*dropped = true;
		}
	}
	if (!err && !(*out = fdopen(fd, "a")))
		err = -errno;
	if (err)
		close(fd);
	return err;
}
