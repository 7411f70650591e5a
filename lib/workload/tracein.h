/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Readers of the trace formats other than r0trace/1 (r0/trace.h): a
 * blktrace recording or blkparse dump, a fio iolog v2 or v3. Private to
 * lib/: lib/workload/trace.c tells the format and hands the file over.
 */
#ifndef R0_TRACEIN_H
#define R0_TRACEIN_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/blktrace_api.h>

#include "r0/trace.h"

struct r0_tracein;

/*
 * PATH (F: it opened, its first bytes a blktrace record; NULL: PATH is a
 * prefix whose PATH.blktrace.0 exists): the recording it belongs to. F is
 * taken (closed on failure too). 0 and *OUT; -errno.
 */
int r0_tracein_blktrace_open(const char *path, FILE *f, struct r0_trace_header *h, struct r0_tracein **out);
/* F opened at 0, its first line "fio version VERSION iolog". F is taken. */
int r0_tracein_iolog_open(const char *path, FILE *f, int version, struct r0_trace_header *h,
			  struct r0_tracein **out);
/* As r0_trace_read; *TRUNCATED set on -EBADMSG for a file that ends inside a record or line. */
int r0_tracein_read(struct r0_tracein *in, struct r0_trace_event *ev, bool *truncated);
/* A fio iolog's line last read (the header's 1); 0 for a blktrace. */
unsigned long r0_tracein_line(const struct r0_tracein *in);
void r0_tracein_free(struct r0_tracein *in);

/* One blk_io_trace (in this machine's byte order) as an r0 event: false for what is not kept. */
bool r0_blktrace_convert(const struct blk_io_trace *t, struct r0_trace_event *ev);

#endif
