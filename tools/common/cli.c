// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared output helpers of the tools (util-linux's close_stdout, err()). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "r0/geometry.h"

int r0_cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return R0_EXIT_USAGE;
}

void r0_cli_print_json(json_object *root)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	fputc('\n', stdout);
}

int r0_cli_close_stdout(const char *prog)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno ? errno : EIO));
		return R0_EXIT_FAILURE;
	}
	return R0_EXIT_OK;
}

void r0_cli_block_stop_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

bool r0_cli_stop_requested(void)
{
	sigset_t pending;

	sigpending(&pending);
	return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
	       sigismember(&pending, SIGHUP);
}

int r0_cli_parse_uint(const char *s, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int r0_cli_each_item(const char *list, int (*fn)(const char *item, void *arg), void *arg)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (!*copy || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,"))
		err = -EINVAL;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = fn(tok, arg);
	free(copy);
	return err;
}

int r0_cli_add_backend(const char *item, void *arg)
{
	bool *b = arg;

	if (!strcmp(item, "md"))
		b[R0_BACKEND_MD] = true;
	else if (!strcmp(item, "dm"))
		b[R0_BACKEND_DM] = true;
	else
		return -EINVAL;
	return 0;
}
