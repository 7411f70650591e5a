// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON Lines reader behind r0_sweep_load and r0_scenario_load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "jsonl.h"

int r0_jsonl_each(const char *path, int (*line_fn)(const char *line, void *ctx), void *ctx,
		  unsigned *good, unsigned *bad)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned nbad = 0, ngood = 0;
	int err = 0;

	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n') {   /* cut short: never trust half a line */
			nbad++;
			break;
		}
		if (len == 1)
			continue;
		err = line_fn(line, ctx);
		if (err == -EINVAL) {
			nbad++;
		} else if (err == 0 || err == -ENOMSG) {
			ngood++;
		} else {
			break;
		}
		err = 0;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	if (good)
		*good = ngood;
	if (bad)
		*bad = nbad;
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
