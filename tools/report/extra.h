/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sections of r0trim, scenario (r0scenario/1) and r0age results: summaries, tables, charts. */
#ifndef R0_REPORT_EXTRA_H
#define R0_REPORT_EXTRA_H

#include <stddef.h>

#include "doc.h"

#include "r0/age.h"
#include "r0/benchjson.h"
#include "r0/resultfiles.h"

struct extra {
	struct r0_trimres *trim;
	size_t n_trim;
	struct r0_scenario scen;
	char scen_skipped[512];       /* its lines that could not be read, in words ("": none) */
	struct r0_state_record *age;
	size_t n_age;
	struct r0_bench_doc *bench;   /* r0bench/1 documents, each a drive or array measured */
	const char **bench_file;      /* the file each was read from */
	size_t n_bench;
};

/* The verdict of these results alone, in sentences (a report without a sweep). GOOD: all TRIM passed. */
void extra_verdict(char *buf, size_t len, const struct extra *x, bool *good);

/* The sections r0trim, r0age, scenario, r0bench: summary, table, and in HTML the charts. */
void extra_sections(struct doc *d, const struct extra *x);

#endif
