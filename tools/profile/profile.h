/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0profile's parts (tools/profile/): its command line, what it prints and writes. */
#ifndef R0PROFILE_PROFILE_H
#define R0PROFILE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "r0/mixfile.h"
#include "r0/profile.h"
#include "r0/trace.h"

#define PROG "r0profile"

/* The command line, as given: what is not given its default. */
struct profile_args {
	uint64_t for_ns, interval_ns, trace_max;
	const char *output, *trace, *trace_from, *export_iolog, *export_blktrace;
	bool json;
};

/*
 * ARGV's options into *A (options.c: the table, --help from it). --help,
 * --version and a usage error, also one of options that exclude or need
 * each other, end the program.
 */
void profile_options(int argc, char **argv, struct profile_args *a);
/* Whether OUTPUT can be written, said when not: 0, or an exit status. */
int profile_refuse_unwritable(const char *output);
/* The profile P (with the counters' own COUNTERS beside a traced one) as a summary, a r0mix/1 file and JSON. */
int profile_emit(const struct r0_profile *p, const struct r0_profile_meta *meta, const char *output, bool json,
		const struct r0_profile *counters, const char *counters_desc);
/* FILE's requests into *P, its header into *H: 0 or -errno. */
int profile_read_trace(const char *file, struct r0_trace_header *h, struct r0_profile *p);
/* --from-trace FILE: the mix of a recorded trace. An exit status. */
int profile_from_trace(const char *file, const char *output, bool json);
/* --export-iolog / --export-blktrace: TRACE written as FMT into OUT. An exit status. */
int profile_export(const char *trace, const char *out, enum r0_trace_format fmt);

#endif
