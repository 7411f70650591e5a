/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0report's command line: its options as data, --help from them. */
#ifndef R0_REPORT_OPTIONS_H
#define R0_REPORT_OPTIONS_H

#include <stdbool.h>

#include "r0/compare.h"

/* The options as given; NULL: not given. */
struct report_args {
	const char *dir;                 /* --output-dir: "." unless given */
	const char *csv_dir, *mix, *title;
	const char *aside_file, *aside_title, *aside_mix, *aside_dir;
	bool skip_damaged;
};

/*
 * ARGV's options into *A, --threshold and --drive-gain into CMP (its
 * defaults set first). --help, --version and a usage error, also an
 * option about the aside without --aside, end the program.
 */
void report_options(int argc, char **argv, struct report_args *a, struct r0_cmp_opts *cmp);

#endif
