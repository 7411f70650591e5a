/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One reader and one line writer for the JSON Lines files the tools write (private to lib/). */
#ifndef R0_LIB_JSONL_H
#define R0_LIB_JSONL_H

/*
 * Calls line_fn for every complete, non-empty line of PATH (the newline
 * still on it). line_fn returns 0 for a record it took, -ENOMSG for a good
 * line that holds no record, -EINVAL for a line it could not read, or any
 * other -errno to stop. A last line without its newline was cut short and
 * counts as bad. *bad (if not NULL) gets the bad lines, *good the lines
 * that were read (records and good lines without one).
 */
int r0_jsonl_each(const char *path, int (*line_fn)(const char *line, void *ctx), void *ctx,
		  unsigned *good, unsigned *bad);

#include <stdio.h>

/*
 * Appends LINE and its newline to F and syncs it, so a line is on disk
 * before the next is measured. 0 or -errno; F a pipe or tty (fsync's
 * EINVAL) is no error.
 */
int r0_jsonl_append_line(FILE *f, const char *line);

#endif
