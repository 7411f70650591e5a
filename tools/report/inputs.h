/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result files r0report is given, each read by its schema: r0sweep
 * files pooled into one study (only when they are of the same one), the
 * r0trim, scenario, r0age and r0bench results beside it.
 */
#ifndef R0_REPORT_INPUTS_H
#define R0_REPORT_INPUTS_H

#include <stdbool.h>

#include "extra.h"
#include "sweepin.h"

#include "r0/sweep.h"

/* The tool's name in what its parts say on stderr. */
#define PROG "r0report"

/* What the files given hold: sweeps pooled into one set, the rest beside it. */
struct inputs {
	struct r0_run_set set;
	struct sweep_in sweeps;     /* how they were read: the files, the lines skipped */
	struct extra x;
	bool have_sweep;
};

/*
 * Every file of FILES[0..N) by its schema into IN (sweeps.skip_damaged
 * set first, as --skip-damaged asks): 0, or -1 after saying why one
 * cannot be read, or why sweep files cannot be pooled.
 */
int load_inputs(char **files, int n, struct inputs *in);

void inputs_free(struct inputs *in);

/* Why a file that starts with a UTF-8 byte-order mark is not read (no r0kit tool writes one; JSON has none). */
#define BOM_SAID "starts with a UTF-8 byte-order mark, which no r0kit tool writes: save it without one"

/* Whether the file at PATH starts with a UTF-8 byte-order mark (an editor's, not JSON's). */
bool has_bom(const char *path);

/* r0bench/1 documents with no test in common: -1 after naming each file's tests (they compare nothing); else 0. */
int bench_apart(const struct extra *x);

#endif
