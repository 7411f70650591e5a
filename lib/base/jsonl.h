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

#include <stdbool.h>

/* What a scan found wrong (r0_jsonl_scan). */
struct r0_jsonl_damage {
	unsigned good;        /* lines read */
	unsigned bad;         /* lines that could not be read, a last line cut short among them */
	unsigned first_bad;   /* the first of them, 1-based; 0: none */
	bool cut_tail;        /* the last line has no newline: a write cut short */
};

/* r0_jsonl_each, with each line's 1-based number and the damage into *DMG. */
int r0_jsonl_scan(const char *path, int (*line_fn)(const char *line, unsigned lineno, void *ctx), void *ctx,
		  struct r0_jsonl_damage *dmg);

#include <stdio.h>

/*
 * Appends LINE and its newline to F and syncs it, so a line is on disk
 * before the next is measured. 0 or -errno; F a pipe or tty (fsync's
 * EINVAL) is no error.
 */
int r0_jsonl_append_line(FILE *f, const char *line);

#endif
