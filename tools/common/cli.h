/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every r0kit tool prints the same way: usage errors, JSON, stdout errors. */
#ifndef R0_CLI_H
#define R0_CLI_H

#include <stdbool.h>

#include <json-c/json.h>

enum { R0_EXIT_OK = 0, R0_EXIT_FAILURE = 1, R0_EXIT_USAGE = 2 };

/* "PROG: MESSAGE" and the --help hint on stderr; returns R0_EXIT_USAGE. */
int r0_cli_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints ROOT on stdout, pretty, slashes unescaped: one format for all tools. */
void r0_cli_print_json(json_object *root);

/*
 * Blocks SIGINT, SIGTERM and SIGHUP, so a tool that writes is never killed
 * half-way: it polls r0_cli_stop_requested() between steps, cleans up and
 * exits non-zero. Child processes must unblock them (posix_spawnattr_setsigmask).
 */
void r0_cli_block_stop_signals(void);

/* One of them is pending. */
bool r0_cli_stop_requested(void);

/* Flushes and closes stdout; a failed write is an error: 0, or 1 after saying so. */
int r0_cli_close_stdout(const char *prog);

/* A decimal count 0..MAX (no sign, no blanks): 0 or -EINVAL. */
int r0_cli_parse_uint(const char *s, unsigned long max, unsigned *out);

/*
 * Calls FN on each item of a comma-separated LIST, stopping at the first
 * error. 0, FN's error, -EINVAL for an empty list or an empty item, -ENOMEM.
 */
int r0_cli_each_item(const char *list, int (*fn)(const char *item, void *arg), void *arg);

/*
 * An r0_cli_each_item callback for "md" and "dm": sets ARG[R0_BACKEND_MD]
 * or ARG[R0_BACKEND_DM] (ARG a bool array indexed by enum r0_backend).
 * 0 or -EINVAL.
 */
int r0_cli_add_backend(const char *item, void *arg);

#endif
