// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's report: the progress line, the checks' lines as text (with -J: r0/trimjson.h), the exit statuses. */
#include <stdio.h>

#include "cli.h"
#include "trim.h"

void show_progress(void *ctx, size_t n_lines, const char *check, enum r0_check_result v)
{
	(void)ctx;
	/* the results print once at the end; a long --cycles run says where it is */
	fprintf(stderr, "\r\033[K" PROG ": %zu checks done, last: %s %s", n_lines, check, r0_check_result_name(v));
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

/*
 * The first reading only records the baseline a later one is judged
 * against: done, not a "no", so a timer's first run succeeds. No discard
 * since it cannot decide either way.
 */
int watch_exit_status(enum r0_watch_verdict v)
{
	switch (v) {
	case R0_WATCH_FIRST:
	case R0_WATCH_PASS:
	case R0_WATCH_DRIFT:
		return R0_EXIT_OK;
	case R0_WATCH_STOPPED:
		return R0_EXIT_FAILURE;
	default:
		return R0_EXIT_NOT_CONCLUSIVE;
	}
}
