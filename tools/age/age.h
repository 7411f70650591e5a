/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0age's parts (tools/age/): the record-cycle subcommand. */
#ifndef R0_TOOLS_AGE_H
#define R0_TOOLS_AGE_H

#include "cli.h"

#define PROG "r0age"

/*
 * r0age record-cycle, CLI the tool's (its --help): ARGV[0] is
 * "record-cycle", its options and the result file follow. Appends one
 * r0scenario/1 line made of the options and two r0bench/1 documents and
 * prints it; returns the exit status (2, writing nothing, for bad input).
 */
int record_cycle(const struct r0_cli *cli, int argc, char **argv);

#endif
