/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The r0trim-watch/1 record file: the readings r0trim --watch keeps
 * between runs (r0/trimwatch.h judges them), one JSON object a line,
 * appended one a run. Older records name their schema "schema", not
 * "r0kit_schema": both are read. The field names are spelt here alone.
 */
#ifndef R0_WATCHFILE_H
#define R0_WATCHFILE_H

#include <stddef.h>

#include "r0/trimwatch.h"

#define R0_TRIM_WATCH_SCHEMA "r0trim-watch/1"

/* At most this many readings are read from a record file (the rest ignored). */
#define R0_WATCH_MAX_RECORDS 100000

/*
 * Whether PATH may take a reading: new, empty, or a record file (its first
 * line one record of R0_TRIM_WATCH_SCHEMA). 0; -EBADMSG when its first line
 * names that schema but is no whole record (damaged); -EINVAL when it is none
 * of these, WORDS then saying what it is (r0_file_head_describe: "a
 * directory", "r0sweep results (r0sweep/1)" ...); or -errno when it could
 * not be looked at (WORDS "").
 */
int r0_watch_file_check(const char *path, char *words, size_t len);

/*
 * PATH's readings, oldest first, into *RECS (the caller frees it) and *N;
 * a line that is no reading (damaged, of another schema, without devices)
 * is skipped and counted in *SKIPPED. A missing PATH has none: 0. 0, or
 * -errno (-ENOMEM, an open that failed).
 */
int r0_watch_file_load(const char *path, struct r0_watch_rec **recs, size_t *n, unsigned *skipped);

/*
 * R's reading of the devices below TOP (the watched device's kernel name)
 * appended to PATH as one line (PATH created if missing), flushed to the
 * disk. 0, or -errno.
 */
int r0_watch_file_append(const char *path, const struct r0_watch_rec *r, const char *top);

#endif
