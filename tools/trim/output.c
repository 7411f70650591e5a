// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's report as text: the progress line, the header, the checks' lines (with -J: r0/trimjson.h). */
#include <stdio.h>

#include "cli.h"
#include "trim.h"

#include "r0/size.h"

void show_progress(void *ctx, size_t n_lines, const char *check, enum r0_check_result v)
{
	(void)ctx;
	/* the results print once at the end; a long --cycles run says where it is */
	fprintf(stderr, "\r\033[K" PROG ": %zu checks done, last: %s %s", n_lines, check, r0_check_result_name(v));
}

void print_header(const struct r0_trim_run *r)
{
	const struct r0_trim_target *t = &r->t;
	char b1[32], b2[32];

	if (r->records)
		return;   /* the document has it */
	r0_format_size_human(t->size_sectors * 512, b1, sizeof(b1));
	printf(PROG ": %s (%s): %s, %s, Linux %s\n", r->path, t->kname, t->desc, b1, r->kernel);
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

		r0_trim_chain_name(m, ch, sizeof(ch));
		printf("  bottom %u: %s: discard granularity %s, max %s; after discard reads %s (%s)\n", i, ch,
		       r0_trim_exact_size(m->leaf_lim.granularity_bytes, b1, sizeof(b1)),
		       r0_trim_exact_size(m->leaf_lim.max_bytes, b2, sizeof(b2)), r0_discard_reads_name(m->reads),
		       m->reads_why);
	}
}

void print_results(const struct r0_trim_run *r)
{
	if (r->on_line)
		fputs("\r\033[K", stderr);
	for (size_t i = 0; i < r->result.n_lines && !r->records; i++) {
		const struct r0_trim_check_line *x = &r->result.lines[i];

		printf("%-10s %-14s %s\n", x->check, r0_check_result_name(x->verdict), x->detail);
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
