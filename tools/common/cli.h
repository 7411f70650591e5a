/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every r0kit tool prints the same way: usage errors, JSON, stdout errors. */
#ifndef R0_CLI_H
#define R0_CLI_H

#include <json-c/json.h>

enum { R0_EXIT_OK = 0, R0_EXIT_FAILURE = 1, R0_EXIT_USAGE = 2 };

/* "PROG: MESSAGE" and the --help hint on stderr; returns R0_EXIT_USAGE. */
int r0_cli_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints ROOT on stdout, pretty, slashes unescaped: one format for all tools. */
void r0_cli_print_json(json_object *root);

/* Flushes and closes stdout; a failed write is an error: 0, or 1 after saying so. */
int r0_cli_close_stdout(const char *prog);

#endif
