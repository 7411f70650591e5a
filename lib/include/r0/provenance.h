/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stored analysis beside today's: r0sweep stores its analysis at the
 * end of a study (r0_sweep_stored_analysis), and a reader analyses the
 * same cells again with its own code. Where other code made the stored
 * one (another version or build, or a build not known), or the two
 * verdicts differ, the report names the stored one and says both. Pure:
 * no I/O.
 */
#ifndef R0_PROVENANCE_H
#define R0_PROVENANCE_H

#include <stdbool.h>

#include "r0/analysis.h"
#include "r0/sweep.h"

struct r0_provenance {
	bool other_code;            /* another version or build made it, or one of them is not known */
	bool differs;               /* its verdict in detail is not today's */
	char producer[96];          /* "r0sweep 0.1.0 (build unknown)", "r0sweep 0.2.0+g1a2b3c4d5e6f" */
	char said[512];             /* its answer in one clause (its lead; older files: from its answer and
	                             * pick, or its verdict's "Under the ... mix" sentence) */
	/* the first screen's line, "" when there is nothing to say (the same code, the same verdict):
	 * "The analysis stored in sweep.jsonl by r0sweep 0.1.0 (build unknown) said: worth it under the
	 * desktop mix, ...; today's r0report 0.2.0+g... says: likely worth it with 2 of them ..." */
	char line[1600];
	/* with differs, for the verdict in detail: "The analysis stored in sweep.jsonl by r0sweep 0.1.0
	 * (build unknown) said in detail: VERDICT" */
	char detail[3400];
};

/*
 * Whether the code named by TOOL ("r0sweep 0.2.0+g1a2b3c4d5e6f") is the
 * code named by READER ("r0report 0.2.0+g1a2b3c4d5e6f"): the same version
 * and build, the build known (the tool name aside: one library makes both).
 */
bool r0_same_code(const char *tool, const char *reader);

/*
 * Stored analysis S of the file FILE (its name as the report gives it)
 * against A, today's analysis of the same cells by READER (the reader's
 * tool and build id), into OUT; OUT->line "" when the same code made both
 * and they say the same.
 */
void r0_provenance_of(const struct r0_sweep_stored *s, const struct r0_analysis *a, const char *reader,
		     const char *file, struct r0_provenance *out);

#endif
