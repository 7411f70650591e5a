// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench --json: the run's r0bench/1 document (r0/benchjson.h), printed as lib writes it. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

/* TEXT on stdout and freed; a document that could not be made (ERR) said instead. */
static void print_text(const char *path, char *text, int err)
{
	if (err)
		fprintf(stderr, PROG ": %s: cannot make the JSON document: %s\n", path, strerror(-err));
	else
		fputs(text, stdout);
	free(text);
}

void bench_print_json(const struct run *run, int status, const char *reason)
{
	const struct r0_bench_run br = {
		.tool = PROG, .target = &run->target, .state = run->state,
		.preset = run->preset, .passes = run->passes, .warmup = run->warmup,
		.region_bytes = run->region_bytes, .tests = run->tests, .n_tests = run->ntests,
		.status = status, .reason = reason,
	};
	char *text = NULL;
	int err = r0_bench_json_text(&br, &text);

	print_text(run->target.path, text, err);
}

void bench_print_replay_json(const struct r0_io_file *t, const struct bench_replayed *rp, int status,
			     const char *reason)
{
	const struct r0_bench_run br = {
		.tool = PROG, .target = t, .passes = 1, .status = status, .reason = reason,
	};
	char *text = NULL;
	int err = r0_bench_replay_json_text(&br, rp->trace, rp->t, rp->pace, rp->r, &text);

	print_text(t->path, text, err);
}
