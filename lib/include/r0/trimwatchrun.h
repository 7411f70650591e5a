/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0trim --watch: one reading of the bottom devices' discard counters
 * appended to a record file (r0/watchfile.h), what the readings show
 * (r0/trimwatch.h) in words, as text and as the r0trim/1 document. Reads
 * only: nothing is written to any device; nothing here prints but to the
 * stream the tool names.
 */
#ifndef R0_TRIMWATCHRUN_H
#define R0_TRIMWATCHRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "r0/trimcheck.h"
#include "r0/trimwatch.h"

/* One reading taken and judged with the history before it. */
struct r0_trim_watch_reading {
	struct r0_watch_judgement j;
	struct r0_watch_rec now;               /* the reading just taken */
	int64_t since_time;                    /* the first reading judged */
	char since[32];                        /* it, local time: "2026-01-31 09:00" */
	double pred[R0_MAX_MEMBERS];           /* each device's share by the geometry */
	bool known;                            /* PRED from the geometry, else equal shares assumed */
	unsigned skipped;                      /* lines of the record file that are no reading */
};

/*
 * --watch LOG WHAT: LOG new, empty or a record file of --watch, WHAT a
 * block device or a directory of a mounted file system, described into
 * T with its device's path in PATH. 0, or -errno and WHY: the message
 * after the tool's name ("WHAT: ...").
 */
int r0_trim_watch_open(const char *log, const char *what, struct r0_trim_device *t, char *path, size_t path_len,
		       char *why, size_t why_len);

/*
 * One reading of T's bottom devices' counters appended to LOG and the
 * readings judged into W. 0, or -errno with *REFUSED when nothing was
 * appended, and WHY: the message after the tool's name, "" for none.
 */
int r0_trim_watch_take(const struct r0_trim_device *t, const char *log, const char *what,
		       struct r0_trim_watch_reading *w, bool *refused, char *why, size_t why_len);

/* What the verdict line says after "verdict X: "; of a FAIL, about stopped device I. */
void r0_trim_watch_detail(const struct r0_trim_watch_reading *w, unsigned i, char *buf, size_t len);

/* Seconds since the epoch T as local time "2026-01-31 09:00". */
void r0_trim_watch_time(int64_t t, char *buf, size_t len);

/*
 * The r0trim/1 document of reading W ("mode":"watch": T as described from
 * PATH, WHAT as given, LOG) written to F, pretty, with a newline. 0, or
 * -ENOMEM when it cannot be made.
 */
int r0_trim_watch_write_json(const struct r0_trim_device *t, const char *path, const char *what, const char *log,
			     const struct r0_trim_watch_reading *w, FILE *f);

/*
 * Reading W of T (WHAT as given, LOG) as r0trim reports it in text to F:
 * the devices' shares and the verdict line(s).
 */
void r0_trim_watch_write_text(const struct r0_trim_device *t, const char *what, const char *log,
			      const struct r0_trim_watch_reading *w, FILE *f);
#endif
