// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's output: the checks' results and the header as text (with -J: the document's records, r0/trimjson.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "cli.h"

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimcheck.h"


#include "trim.h"

/* One check's result, kept for print_results (and the first failure or doubt, for the verdict). */
void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_line(struct run *r, const char *check, enum r0_check_result v, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	r0_trim_result_add(&r->result, check, v, detail);   /* out of memory: the line is lost, its verdict is not */
	/* the results print once at the end; a long --cycles run says where it is */
	if (r->progress)
		fprintf(stderr, "\r\033[K" PROG ": %zu checks done, last: %s %s", r->result.n_lines, check,
			r0_check_result_name(v));
}

/* The results once: "check  VERDICT  detail" lines (with -J the document holds them). */
void print_results(struct run *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; i < r->result.n_lines && !r->json; i++) {
		const struct r0_trim_check_line *x = &r->result.lines[i];

		printf("%-10s %-14s %s\n", x->check, r0_check_result_name(x->verdict), x->detail);
	}
}

void free_results(struct run *r)
{
	r0_trim_result_free(&r->result);
	free(r->cycles);
	r->cycles = NULL;
	r->n_cycles = 0;
	free(r->fs_cycles);
	r->fs_cycles = NULL;
	r->n_fs_cycles = 0;
}

/* A size exactly, as r0_parse_size reads it back: "64K", "1536K", "4G"; else bytes. */
const char *sz(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024 == 0 || bytes < 1024)
		r0_format_size(bytes, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

/* "r0m1" or "dm-3 (flakey) > r0m1" */
void chain_name(const struct r0_trim_member *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned d = 0; d <= m->depth && off < len; d++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s%s%s", d ? " > " : "", m->chain_kname[d],
					m->chain_type[d][0] ? " (" : "", m->chain_type[d],
					m->chain_type[d][0] ? ")" : "");
}

void print_header(struct run *r, const char *release)
{
	const struct r0_trim_target *t = &r->t;
	char b1[32], b2[32];

	if (r->json)
		return;   /* the document has it */
	r0_format_size_human(t->size_sectors * 512, b1, sizeof(b1));
	printf(PROG ": %s (%s): %s, %s, Linux %s\n", r->path, t->kname, t->desc, b1, release);
	for (unsigned i = 0; i < t->stack.n_nodes; i++) {
		char line[512];

		if (t->stack.node[i].kind == R0_NODE_DEVICE)
			continue;
		r0_trim_stack_layer_line(&t->stack, i, line, sizeof(line));
		printf("  layer %s: %s\n", t->stack.node[i].kname, line);
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];
		char ch[256];

		chain_name(m, ch, sizeof(ch));
		printf("  bottom %u: %s: discard granularity %s, max %s; after discard reads %s (%s)\n", i, ch,
		       sz(m->leaf_lim.granularity_bytes, b1, sizeof(b1)), sz(m->leaf_lim.max_bytes, b2, sizeof(b2)),
		       r0_discard_reads_name(m->reads), m->reads_why);
	}
}

int trim_exit_status(enum r0_check_result overall)
{
	switch (overall) {
	case R0_CHECK_OK:
		return R0_EXIT_OK;
	case R0_CHECK_FAIL:
		return R0_EXIT_FAILURE;
	default:
		return R0_EXIT_NOT_CONCLUSIVE;
	}
}
