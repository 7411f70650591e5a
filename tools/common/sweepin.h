/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0sweep/1 files read by a tool that pools them (r0report, r0predict):
 * a damaged file refused unless the user asks to skip its bad lines, a
 * last line cut mid-write (an interrupted study) taken and said, and a
 * run read twice (a file given twice, a copy, a line repeated) refused.
 * The checks are lib's (r0/sweep.h); this says them.
 */
#ifndef R0_SWEEPIN_H
#define R0_SWEEPIN_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/sweep.h"

struct sweep_in {
	struct r0_run_set *set;   /* the records of every file read, pooled */
	bool skip_damaged;          /* --skip-damaged: lines inside a file that cannot be read are skipped */
	size_t n_files;
	const char **file;          /* the files read, in order */
	size_t *start;              /* file[i]'s first record in set */
	unsigned skipped;           /* lines skipped over all files */
	char note[1024];            /* the skipped lines in words, for every output ("": none) */
};

/*
 * Adds the records of PATH to IN->set. 0; or R0_EXIT_REFUSED after saying
 * why on stderr (PROG: PATH: ...): unreadable, not r0sweep/1 (when
 * NOT_SWEEP is not NULL it is said instead), damaged inside without
 * skip_damaged, or runs already read.
 */
int sweep_in_read(const char *prog, struct sweep_in *in, const char *path, const char *not_sweep);

/* The file record REC of IN->set was read from ("?" before any file). */
const char *sweep_in_file_of(const struct sweep_in *in, size_t rec);

void sweep_in_free(struct sweep_in *in);

#endif
