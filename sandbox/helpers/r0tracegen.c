// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0tracegen OUT SIZE_SECTORS [issue] < EVENTS: writes an r0trace/1 file with
 * lib/workload/trace.c's writer, for a device named "gen" of SIZE_SECTORS, from
 * lines "T_US KIND OP SECTOR BYTES" (KIND queue|issue|complete, OP
 * read|write|discard|flush). Tests use it for traces a recording cannot
 * give on demand: a device of a chosen size, exact times. "issue" marks it
 * a trace whose ISSUE events give the queue depth (R0_TRACE_QD_ISSUE, a
 * request-based disk's): its readers then know a retry. Exit 0, 1 on a
 * bad line or a failed write, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trace.h"

static int index_of(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "queue", "issue", "complete" };
	static const char *const ops[] = { "read", "write", "discard", "flush" };
	struct r0_trace_header h = { .name = "gen", .logical_block_bytes = 512 };
	struct r0_trace_writer *w;
	char kind[16], op[16];
	unsigned long long t, sector, bytes;
	unsigned line = 0;
	int err, k, o;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "issue"))) {
		fprintf(stderr, "usage: r0tracegen OUT SIZE_SECTORS [issue] < EVENTS\n");
		return 2;
	}
	h.size_sectors = strtoull(argv[2], NULL, 0);
	if (argc == 4)
		h.flags = R0_TRACE_QD_ISSUE;
	if ((err = r0_trace_writer_open(argv[1], &h, &w))) {
		fprintf(stderr, "r0tracegen: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	while (scanf("%llu %15s %15s %llu %llu", &t, kind, op, &sector, &bytes) == 5) {
		struct r0_trace_event ev = { .t_us = t, .sector = sector, .bytes = bytes };

		line++;
		if ((k = index_of(kind, kinds, 3)) < 0 || (o = index_of(op, ops, 4)) < 0) {
			fprintf(stderr, "r0tracegen: line %u: unknown kind or operation\n", line);
			r0_trace_writer_abort(w, argv[1]);
			return 1;
		}
		ev.kind = (enum r0_trace_kind)k;
		ev.op = (enum r0_trace_op)o;
		if ((err = r0_trace_write(w, &ev))) {
			fprintf(stderr, "r0tracegen: line %u: %s\n", line, strerror(-err));
			r0_trace_writer_abort(w, argv[1]);
			return 1;
		}
	}
	if ((err = r0_trace_writer_close(w))) {
		fprintf(stderr, "r0tracegen: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	return 0;
}
