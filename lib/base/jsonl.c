// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON Lines reader behind r0_sweep_load and r0_scenario_load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"

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
